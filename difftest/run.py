#!/usr/bin/python3
"""Differential testing of PyTorch against CHAD-C's certified evaluator.

Each case is a CHAD-C program and a point. `chad export --to torch` turns
the program into a PyTorch function; PyTorch's value, reverse-mode VJP
(torch.autograd.grad) and forward-mode JVP (torch.autograd.forward_ad) at
the point are graded entry by entry against `chad vjp/jvp --eval ball`
(the exact derivative, correctly rounded), in float64 and in float32 (the
point, tangent and cotangent rounded to float32 first; the reference is the
certified double of the exact value at that float32 point, rounded to
float32).

Verdicts per entry:
  correct          within 8 ulps of the reference (in the precision run)
  rounding         farther, but so is CHAD-C's own float64 evaluator
                   (--eval ref) to within 100x: the computation is
                   ill-conditioned there, not PyTorch wrong
  wrong            relative error above 1e-6 (f64) / 1e-2 (f32) while
                   CHAD-C's float64 evaluator is within 1e-9 relative (for an
                   exact 0, relative to the largest entry of the result and of
                   its direction, or of the inputs for values)
  inaccurate       the rest: farther than 8 ulps, not ill-conditioned,
                   but below the "wrong" threshold
  acceptable       at a point where the derivative does not exist (a kink):
                   inside the box of the one-sided results
  kink-outside     at a kink, outside that box
  domain           CHAD-C finds no derivative (a domain edge); PyTorch's
                   number is listed, not graded
  float-limit      PyTorch non-finite where CHAD-C's own float64 evaluator
                   is non-finite too: the program as written over- or
                   underflows in float64 (not graded as wrong)
  torch-error      PyTorch raised, or returned NaN where CHAD-C's float64
                   evaluator has a finite number

Cases: `targeted` (every primitive at tail, subnormal, near-overflow and
domain-edge points, and the kinks), `generated` (the property-test
generator at a seed: PROPTEST_EMIT), `examples` (the CHAD paper's figures,
ADBench GMM).

    difftest/run.py [--generated N] [--seed S] [--groups targeted,generated,examples]
                    [--precisions f64,f32] [--report FILE] [--json FILE] [--quiet]

Prints progress, the seed, a summary; exits 1 when a case fails to run
(an export or chad error), 0 otherwise (wrong entries are findings, listed
in the report, not failures of the runner).
"""
import argparse
import json
import math
import os
import struct
import subprocess
import sys
import time
import types

import torch

from shrink import ShrinkError, shrink_program, simplify_inputs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHAD = os.environ.get("CHAD", os.path.join(ROOT, "chad"))
BUILD = os.path.join(ROOT, "build", "difftest")

# ---- targeted cases: one primitive, points where float formulas fail -------
UNARY_POINTS = {
    "tanh": [20.0, -20.0, 30.0, 300.0, 1e-8, 0.5],
    "sigmoid": [40.0, -40.0, 100.0, -745.0, 36.7, 0.1],
    "exp": [709.7, -708.0, -745.0, 1e-300, 0.5],
    "log": [1e-300, 5e-324, 1e300, 1.0000000000000002, 0.0],
    "sqrt": [1e-300, 5e-324, 1e300, 0.0, 2.0],
    "sin": [1e22, 3.141592653589793, 1e-300, 0.5],
    "cos": [1e22, 1.5707963267948966, 0.5],
    "tan": [1.5707963267948966, 1e22, 0.5],
    "abs": [0.0, -2.0, 5e-324],
    "neg": [0.0, 1e308],
    "log1p": [-0.9999999999999999, 1e-300, 1e300, -1.0],
    "expm1": [1e-300, -40.0, 709.0],
    "softplus": [40.0, -40.0, 800.0, -800.0],
    "atan": [1e300, 1e-300],
    "erf": [5.0, 27.0, 1e-300],
    "erfc": [27.0, -5.0],
    "lgamma": [1e-300, -2.5, 171.6, 1.4616321449683622, 0.0],
    "sinh": [710.0, 1e-300],
    "cosh": [710.0, 0.0],
    "asinh": [1e300, 1e-300],
    "acosh": [1.0000000000000002, 1e300, 1.0],
    "atanh": [0.9999999999999999, 1e-300, 1.0],
    "exp2": [1023.9, -1074.0],
    "log2": [5e-324, 1.0000000000000002],
}
BINARY_POINTS = {
    "pow": [(2.0, 1000.5), (0.5, 1070.0), (5e-324, 1e-300), (1.0000000000000002, 1e15),
            (-2.0, 3.0), (0.0, 2.0), (0.0, 0.5), (0.0, 0.0), (3.0, -3.0)],
    "div": [(1e300, 1e160), (1e-300, 1e-170), (1.0, 0.0), (1.0, 3.0)],
    "mul": [(1e200, 1e-200), (0.0, 1e308)],
    "max": [(1.5, 1.5), (0.0, 0.0), (1.0, 2.0)],
    "min": [(1.5, 1.5), (-1.0, 2.0)],
    "sub": [(1.0, 1.0000000000000002)],
    "atan2": [(0.0, -1.0), (0.0, 0.0), (1e-300, 1e300), (1.0, 1.0)],
    "hypot": [(0.0, 0.0), (1e300, 1e300), (1e-300, 1e-300)],
}
COMPOSED = [
    # (name, source, args): compositions a PyTorch user writes
    ("relu", "def f (x : real) : real = max x 0.0", [0.0]),
    ("relu-if", "def f (x : real) : real = if x > 0.0 then x else 0.0", [0.0]),
    ("softplus", "def f (x : real) : real = log (1.0 + exp x)", [40.0]),
    ("softplus-neg", "def f (x : real) : real = log (1.0 + exp x)", [-40.0]),
    ("log-sigmoid", "def f (x : real) : real = log (sigmoid x)", [-800.0]),
    ("sqrt-sq", "def f (x : real) : real = sqrt (x * x)", [0.0]),
    ("norm", "def f (v : [real]) : real = sqrt (dot v v)", [[0.0, 0.0]]),
    ("norm-tiny", "def f (v : [real]) : real = sqrt (dot v v)", [[1e-200, 1e-200]]),
    ("logsumexp-big", "def f (v : [real]) : real = logsumexp v", [[1e308, 1e308]]),
    ("logsumexp-spread", "def f (v : [real]) : real = logsumexp v", [[0.0, -1000.0, 1000.0]]),
    ("logsumexp-tie", "def f (v : [real]) : real = logsumexp v", [[-0.69314718055994529, -0.69314718055994529]]),
    ("max-array", "def f (v : [real]) : real = max v[0] v[1]", [[2.0, 2.0]]),
    ("expm1-naive", "def f (x : real) : real = exp x - 1.0", [1e-10]),
    ("tanh-sq", "def f (x : real) : real = tanh x * tanh x", [25.0]),
    ("sigmoid-prod", "def f (x : real) : real = sigmoid x * sigmoid (0.0 - x)", [40.0]),
    ("pow-half", "def f (x : real) : real = pow x 0.5", [0.0]),
    ("pow-frac-neg", "def f (x : real, y : real) : real = pow x y", [-8.0, 0.3333333333333333]),
]

EXAMPLES = [
    ("fig1b", "examples/fig1b.chad", None, [0.5, -1.25, 2.0, 0.75]),
    ("fig2b", "examples/fig2b.chad", None, None),
    ("gmm-test", "examples/gmm.chad", None, "@examples/gmm_test.json"),
]


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def round_tree(v, fn):
    if isinstance(v, list):
        return [round_tree(x, fn) for x in v]
    if isinstance(v, dict):
        return {k: round_tree(x, fn) for k, x in v.items()}
    if isinstance(v, float):
        return fn(v)
    return v


def flat(v):
    if isinstance(v, list):
        for x in v:
            yield from flat(x)
    elif isinstance(v, dict):
        for x in v.values():
            yield from flat(x)
    elif v is None or isinstance(v, bool):
        return
    else:
        yield v


def chad(*args):
    p = subprocess.run([CHAD, *args], capture_output=True, text=True, timeout=300)
    out = None
    if p.stdout.strip():
        try:
            out = json.loads(p.stdout)
        except json.JSONDecodeError:
            out = None
    return p.returncode, out, p.stderr.strip()


def ulp(x, prec):
    x = abs(x)
    if prec == "f32":
        if x == 0 or x < 1.1754943508222875e-38:
            return 1.401298464324817e-45
        e = math.frexp(x)[1]
        return 2.0 ** (e - 24)
    if x == 0 or x < 2.2250738585072014e-308:
        return 5e-324
    return math.ulp(x)


def as_float(e):
    if isinstance(e, (int, float)) and not isinstance(e, bool):
        return float(e)
    if e == "+infinity":
        return math.inf
    if e == "-infinity":
        return -math.inf
    return None   # "undefined", "undecided"


class Case:
    def __init__(self, group, name, path, fn, args, tangent=None, cotangent=None, label=None):
        self.group, self.name, self.path, self.fn = group, name, path, fn
        self.args, self.tangent, self.cotangent = args, tangent, cotangent
        self.label = label or name


_PROPTEST = []


def proptest():
    """The property-test binary (proptests/run.sh builds it; with
    PROPTEST_N=0 and PROPTEST_EMIT it only builds)."""
    if not _PROPTEST:
        d = os.path.join(BUILD, "empty")
        os.makedirs(d, exist_ok=True)
        env = dict(os.environ, PROPTEST_EMIT=d, PROPTEST_N="0", PROPTEST_SEED="0")
        subprocess.run([os.path.join(ROOT, "proptests", "run.sh")], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        _PROPTEST.append(os.path.join(ROOT, "build", "proptest", "proptest"))
    return _PROPTEST[0]


class FaultyTorch:
    """torch, but with primitive `name`'s derivative off by FAULT_FACTOR
    (its value unchanged): a deliberately wrong AD system, to test the
    campaign and its shrinker (--inject-fault)."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        op = getattr(torch, attr)
        if attr != self._name:
            return op

        def faulty(*a, **k):
            y = op(*a, **k)
            return y + FAULT_FACTOR * (y - y.detach())   # same value, derivative scaled
        return faulty


FAULT_FACTOR = 0.25
FAULT = None   # --inject-fault: the torch primitive made wrong


def load_module(path, fn, fault=None):
    # the module beside the other build outputs, never beside the program
    os.makedirs(os.path.join(BUILD, "modules"), exist_ok=True)
    base = os.path.relpath(os.path.abspath(path), ROOT).replace(os.sep, "_")
    mod_path = os.path.join(BUILD, "modules", base + (("." + fn) if fn else "") + ".torch.py")
    cmd = [CHAD, "export", path, "--to", "torch"] + (["--fn", fn] if fn else [])
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("export failed: " + p.stderr.strip())
    with open(mod_path, "w") as f:
        f.write(p.stdout)
    m = types.ModuleType("chad_export")
    exec(compile(p.stdout, mod_path, "exec"), m.__dict__)
    fault = fault or FAULT
    if fault:
        m.torch = FaultyTorch(fault)
    return m


def torch_run(m, case, prec, args, tangent, cotangent):
    """PyTorch's value, VJP (with cotangent) and JVP (with tangent): lists of
    floats in JSON order of the parameters' reals."""
    dt = torch.float64 if prec == "f64" else torch.float32
    m.set_dtype(dt)
    leaves = []
    inputs = [m.from_json(ty, a, leaves) for ty, a in zip(m.PARAM_TYPES, args)]
    y = m.function(*inputs)
    value = list(flat(m.to_json(m.RESULT_TYPE, y)))
    # reverse mode: sum of <cotangent, y> as a scalar
    ys = [t for t in _real_tensors(m.RESULT_TYPE, y)]
    cots = list(flat(cotangent)) if not isinstance(cotangent, (int, float)) else [cotangent]
    ct_tensors, k = [], 0
    for t in ys:
        n = t.numel()
        ct_tensors.append(torch.tensor(cots[k:k + n], dtype=dt).reshape(t.shape))
        k += n
    vjp = []
    if leaves:
        outs = [t for t in ys if t.requires_grad]
        cts = [c for t, c in zip(ys, ct_tensors) if t.requires_grad]
        if outs:
            gs = torch.autograd.grad(outs, leaves, grad_outputs=cts, allow_unused=True)
        else:
            gs = [None] * len(leaves)
        for leaf, g in zip(leaves, gs):
            vjp += [0.0] * leaf.numel() if g is None else [float(x) for x in g.reshape(-1)]
    # forward mode
    import torch.autograd.forward_ad as fwad
    jvp = []
    with fwad.dual_level():
        leaves2 = []
        inputs2 = [m.from_json(ty, a, leaves2) for ty, a in zip(m.PARAM_TYPES, args)]
        # replace each leaf by a dual tensor: rebuild inputs with duals
        tans = list(flat(tangent))
        k = 0
        duals = {}
        for leaf in leaves2:
            n = leaf.numel()
            tt = torch.tensor(tans[k:k + n], dtype=dt).reshape(leaf.shape)
            k += n
            duals[id(leaf)] = fwad.make_dual(leaf.detach(), tt)
        inputs2 = [_swap(x, duals) for x in inputs2]
        y2 = m.function(*inputs2)
        for t in _real_tensors(m.RESULT_TYPE, y2):
            d = fwad.unpack_dual(t).tangent
            jvp += [0.0] * t.numel() if d is None else [float(x) for x in d.reshape(-1)]
    return value, vjp, jvp


def _swap(x, duals):
    if isinstance(x, torch.Tensor):
        return duals.get(id(x), x)
    if isinstance(x, tuple):
        return tuple(_swap(e, duals) for e in x)
    if isinstance(x, list):
        return [_swap(e, duals) for e in x]
    return x


def _real_tensors(ty, v):
    k = ty[0]
    if k == "real":
        yield v
    elif k == "pair":
        yield from _real_tensors(ty[1], v[0])
        yield from _real_tensors(ty[2], v[1])
    elif k == "sum":
        yield from _real_tensors(ty[1] if v[0] == "inl" else ty[2], v[1])
    elif k == "arr":
        if ty[1] == ("real",):
            yield v
        else:
            for e in v:
                yield from _real_tensors(ty[1], e)


def default_directions(args):
    """Tangent: 1 for every real; cotangent: 1 for every real of the result
    (filled in once the result's shape is known)."""
    return round_tree(args, lambda x: 1.0)


def grade(entries, refs, dbl, prec, kinks, floor=0.0):
    """entries: PyTorch's floats; refs: the certified entries (numbers or
    words); dbl: CHAD-C's float64 evaluator's floats at the same point (for
    the conditioning test), or None; kinks: per entry (lo, hi) of the
    one-sided results at a kink, or None."""
    out = []
    finite = [abs(as_float(x)) for x in refs if as_float(x) is not None and math.isfinite(as_float(x))]
    # floor: the size of the terms (the direction's or the inputs' largest
    # entry), for results whose exact value is 0
    scale = max(max(finite) if finite else 0.0, floor)
    for i, c in enumerate(entries):
        if kinks is not None:
            lo, hi = kinks[i]
            if c is None or math.isnan(c):
                out.append(("kink-outside", c, (lo, hi)))
            elif lo - 8 * ulp(lo, prec) <= c <= hi + 8 * ulp(hi, prec):
                out.append(("acceptable", c, (lo, hi)))
            else:
                out.append(("kink-outside", c, (lo, hi)))
            continue
        r = as_float(refs[i]) if i < len(refs) else None
        r64 = r
        if r is None:
            out.append(("domain", c, refs[i] if i < len(refs) else None))
            continue
        if prec == "f32" and math.isfinite(r):
            r = f32(r) if abs(r) < 3.4028235677973366e38 else math.copysign(math.inf, r)
        d = dbl[i] if dbl is not None and i < len(dbl) else None
        if c is None or (isinstance(c, float) and math.isnan(c)):
            # non-finite where CHAD-C's own float64 evaluator fails too: the
            # program as written over- or underflows in float64
            out.append(("float-limit" if d is None else "torch-error", c, r))
            continue
        if c == r:
            out.append(("correct", c, r))
            continue
        if math.isinf(r) or math.isinf(c):
            if math.isinf(c) and not math.isinf(r) and (d is None or math.isinf(d)):
                out.append(("float-limit", c, r))
            else:
                out.append(("wrong" if math.isinf(c) != math.isinf(r) else "correct", c, r))
            continue
        e_ulps = abs(c - r) / ulp(r, prec)
        if e_ulps <= 8:
            out.append(("correct", c, r))
            continue
        # errors relative to the entry; for an exact 0, to the scale of the
        # result and its direction (an exact 0 met by rounding noise of
        # terms of order 1 is not a wrong answer)
        den = abs(r) if r != 0 else max(scale, 1e-300)
        rel = abs(c - r) / den
        # CHAD-C's float64 evaluator against the double reference
        drel = abs(d - r64) / den if d is not None and math.isfinite(d) else math.inf
        limit = 1e-6 if prec == "f64" else 1e-2
        if rel > limit and drel < 1e-9:
            out.append(("wrong", c, r))
        elif drel * 100 >= rel or drel > 1e-9:
            out.append(("rounding", c, r))
        else:
            out.append(("inaccurate", c, r))
    return out


def magnitude(v):
    xs = [abs(x) for x in flat(v) if isinstance(x, (int, float)) and math.isfinite(x)]
    return max(xs) if xs else 0.0


def kink_boxes(out, key):
    """Per entry (lo, hi) over the one-sided results of a not_differentiable
    answer."""
    lims = out["limits"]
    cols = [list(flat(l["result"][key])) for l in lims]
    boxes = []
    for i in range(len(cols[0])):
        vals = [as_float(c[i]) for c in cols if i < len(c)]
        vals = [v for v in vals if v is not None]
        boxes.append((min(vals), max(vals)) if vals else (math.nan, math.nan))
    return boxes


def run_case(case, prec, stats, findings, log):
    args = case.args
    tangent = case.tangent if case.tangent is not None else default_directions(args)
    if prec == "f32":
        args = round_tree(args, f32)
        tangent = round_tree(tangent, f32)
        if any(math.isinf(x) for x in flat(args)):
            stats["not-f32"] = stats.get("not-f32", 0) + 1   # the point has no float32 form
            return
    m = case.module
    # the result's shape, for the cotangent
    rc, val, err = chad("eval", case.path, *(["--fn", case.fn] if case.fn else []),
                        "--args", json.dumps(args), "--eval", "ball")
    if rc not in (0, 4) or val is None:
        stats["skipped"] = stats.get("skipped", 0) + 1
        log(f"  skip {case.label} [{prec}]: chad eval exit {rc}: {err}")
        return
    cot = case.cotangent if case.cotangent is not None else round_tree(val, lambda x: 1.0)
    if not isinstance(cot, (list, dict, int, float)):
        cot = 1.0
    if prec == "f32":
        cot = round_tree(cot, f32)
    fnargs = ["--fn", case.fn] if case.fn else []
    a = json.dumps(args)
    rcv, vjp_ref, errv = chad("vjp", case.path, *fnargs, "--args", a, "--cotangent", json.dumps(cot), "--eval", "ball")
    rcj, jvp_ref, errj = chad("jvp", case.path, *fnargs, "--args", a, "--tangent", json.dumps(tangent), "--eval", "ball")
    _, vjp_dbl, _ = chad("vjp", case.path, *fnargs, "--args", a, "--cotangent", json.dumps(cot), "--eval", "ref")
    _, jvp_dbl, _ = chad("jvp", case.path, *fnargs, "--args", a, "--tangent", json.dumps(tangent), "--eval", "ref")
    try:
        tv, tvjp, tjvp = torch_run(m, case, prec, args, tangent, cot)
    except Exception as e:  # noqa: BLE001 - PyTorch's own failure is a finding
        stats["torch-error"] = stats.get("torch-error", 0) + 1
        findings.append((case, prec, "torch raised", str(e)[:200],
                         {"args": args, "tangent": tangent, "cotangent": cot, "entry": "-",
                          "verdict": "torch-error", "torch_value": None, "reference": None}))
        return
    parts = []
    _, val_dbl, _ = chad("eval", case.path, *fnargs, "--args", a, "--eval", "ref")
    if not (isinstance(val, dict) and val.get("not_differentiable")):
        vals = list(flat(val)) if not isinstance(val, (int, float, str)) else [val]
        vd = ([as_float(x) for x in flat(val_dbl)] if isinstance(val_dbl, list)
              else [as_float(val_dbl)] if val_dbl is not None else None)
        parts.append(("value", grade(tv, vals, vd, prec, None, magnitude(args))))
    for what, ref, dbl, rcx, key, mine in (("vjp", vjp_ref, vjp_dbl, rcv, "cotangent", tvjp),
                                           ("jvp", jvp_ref, jvp_dbl, rcj, "tangent", tjvp)):
        if ref is None:
            stats["skipped"] = stats.get("skipped", 0) + 1
            log(f"  skip {case.label} {what} [{prec}]: exit {rcx}")
            continue
        if isinstance(ref, dict) and ref.get("not_differentiable"):
            boxes = kink_boxes(ref, key)
            g = grade(mine, [], None, prec, boxes)
        else:
            refs = list(flat(ref[key]))
            dbls = [as_float(x) for x in flat(dbl[key])] if isinstance(dbl, dict) else None
            g = grade(mine, refs, dbls, prec, None, magnitude(cot if what == "vjp" else tangent))
        parts.append((what, g))
    for what, g in parts:
        for i, (verdict, c, r) in enumerate(g):
            stats[verdict] = stats.get(verdict, 0) + 1
            key = (case.group, verdict)
            stats.setdefault("by_group", {}).setdefault(case.group, {}).setdefault(verdict, 0)
            stats["by_group"][case.group][verdict] += 1
            if verdict in ("wrong", "kink-outside", "torch-error"):
                findings.append((case, prec, f"{what}[{i}]: {verdict}", f"PyTorch {c!r}, reference {r!r}",
                                 {"args": args, "tangent": tangent, "cotangent": cot, "entry": f"{what}[{i}]",
                                  "verdict": verdict, "torch_value": c, "reference": r}))


def targeted_cases():
    os.makedirs(os.path.join(BUILD, "targeted"), exist_ok=True)
    cases = []
    for op, pts in UNARY_POINTS.items():
        src = f"def f (x : real) : real = {op} x"
        for x in pts:
            cases.append(Case("targeted", op, os.path.join(BUILD, "targeted", op + ".chad"), None, [x],
                              label=f"{op} x at x = {x!r}"))
        with open(os.path.join(BUILD, "targeted", op + ".chad"), "w") as f:
            f.write(src + "\n")
    infix = {"div": "/", "mul": "*", "sub": "-"}
    for op, pts in BINARY_POINTS.items():
        body = f"x {infix[op]} y" if op in infix else f"{op} x y"
        src = f"def f (x : real, y : real) : real = {body}"
        with open(os.path.join(BUILD, "targeted", op + ".chad"), "w") as f:
            f.write(src + "\n")
        for x, y in pts:
            cases.append(Case("targeted", op, os.path.join(BUILD, "targeted", op + ".chad"), None, [x, y],
                              label=f"{body} at ({x!r}, {y!r})"))
    for name, src, args in COMPOSED:
        with open(os.path.join(BUILD, "targeted", name + ".chad"), "w") as f:
            f.write(src + "\n")
        cases.append(Case("targeted", name, os.path.join(BUILD, "targeted", name + ".chad"), None, args,
                          label=f"{name}: `{src.split('=', 1)[1].strip()}` at {json.dumps(args)}"))
    return cases


def generated_cases(n, seed):
    d = os.path.join(BUILD, f"gen-{seed}")
    os.makedirs(d, exist_ok=True)
    if not os.path.exists(os.path.join(d, f"prog-{n - 1}.json")):
        env = dict(os.environ, PROPTEST_EMIT=d, PROPTEST_N=str(n), PROPTEST_SEED=str(seed))
        subprocess.run([proptest()], env=env, check=True, stdout=subprocess.DEVNULL)
    cases = []
    for i in range(n):
        with open(os.path.join(d, f"prog-{i}.json")) as f:
            j = json.load(f)
        c = Case("generated", f"prog-{i}", os.path.join(d, f"prog-{i}.chad"), None, j["args"],
                 tangent=j["tangent"], cotangent=j["cotangent"], label=f"generated program {i} (seed {seed})")
        c.seed, c.index = seed, i
        cases.append(c)
    return cases


def example_cases():
    cases = []
    for name, path, fn, args in EXAMPLES:
        full = os.path.join(ROOT, path)
        if args is None:
            jp = full[:-5] + ".json"
            if not os.path.exists(jp):
                continue
            with open(jp) as f:
                args = json.load(f)
        elif isinstance(args, str) and args.startswith("@"):
            with open(os.path.join(ROOT, args[1:])) as f:
                args = json.load(f)
        if isinstance(args, dict):
            continue
        cases.append(Case("examples", name, full, fn, args, label=f"{name} ({path})"))
    return cases


def slug(case, prec, entry):
    base = "".join(ch if ch.isalnum() else "-" for ch in case.label)[:60].strip("-")
    return f"{base}-{prec}-{entry.replace('[', '').replace(']', '')}"


def part(entry):
    """"vjp[2]" -> "vjp": the part of the result an entry belongs to."""
    return entry.split("[")[0]


def still_fails(path, fn, inputs, prec, verdict, what):
    """The shrinking predicate: the program at path, at inputs, still has an
    entry of part `what` graded `verdict` in precision prec. Returns that
    finding's record, or None."""
    case = Case("generated", "candidate", path, fn, inputs["args"], inputs["tangent"],
                inputs["cotangent"], "shrink candidate")
    try:
        case.module = load_module(path, fn)
    except Exception:  # noqa: BLE001 - a candidate that does not export does not fail
        return None
    stats, findings = {}, []
    run_case(case, prec, stats, findings, lambda s: None)
    for f in findings:
        if f[4]["verdict"] == verdict and part(f[4]["entry"]) == what:
            return f[4]
    return None


def shrink_finding(case, prec, rec, log):
    """A finding in a generated program, shrunk: the minimal program and
    input that still fail the same way (the same part graded the same
    verdict). Returns (source, record, info) or None when it cannot be."""
    verdict, what = rec["verdict"], part(rec["entry"])
    wd = os.path.join(BUILD, "shrink", f"{case.seed}-{case.index}-{prec}-{rec['entry']}")
    t0 = time.time()
    try:
        src, inputs, before, after, asked = shrink_program(
            proptest(), case.seed, case.index, wd,
            lambda p, i: still_fails(p, None, i, prec, verdict, what) is not None, log)
    except ShrinkError as e:
        log(f"  shrink {case.label} [{prec}] {rec['entry']}: {e}")
        return None
    path = os.path.join(wd, "minimal.chad")
    with open(path, "w") as f:
        f.write(src)
    inputs, asked2 = simplify_inputs(
        inputs, lambda i: still_fails(path, None, i, prec, verdict, what) is not None)
    final = still_fails(path, None, inputs, prec, verdict, what)
    if final is None:   # cannot happen unless the predicate is not deterministic
        log(f"  shrink {case.label} [{prec}] {rec['entry']}: the minimal program no longer fails")
        return None
    info = {"from": case.label, "nodes": [before, after], "candidates": asked + asked2,
            "seconds": round(time.time() - t0, 1)}
    log(f"  shrunk {case.label} [{prec}] {rec['entry']}: {before} -> {after} nodes, "
        f"{asked + asked2} candidates, {info['seconds']} s")
    return src, final, info


def write_reproducers(folder, findings, shrink=True, log=print):
    """One JSON file per finding (program, point, directions, what PyTorch
    gave, the reference, the PyTorch version): `difftest/run.py --replay
    FILE` reruns it. A finding in a generated program is shrunk first (the
    original program and input are kept beside the minimal ones). Returns
    {file name: shrink info} for the report."""
    os.makedirs(folder, exist_ok=True)
    seen, shrunk = set(), {}
    for case, prec, what, detail, rec in findings:
        name = slug(case, prec, rec["entry"])
        if name in seen:
            continue
        seen.add(name)
        with open(case.path) as f:
            src = f.read()
        out = {"case": case.label, "group": case.group, "source": src, "fn": case.fn,
               "precision": prec, "torch": torch.__version__, **rec}
        if FAULT:
            out["fault"] = FAULT
        if shrink and case.group == "generated" and getattr(case, "seed", None) is not None:
            r = shrink_finding(case, prec, rec, log)
            if r is not None:
                msrc, mrec, info = r
                out = {**out, "source": msrc, **mrec,
                       "shrunk": {**info, "source": src, "args": rec["args"], "tangent": rec["tangent"],
                                  "cotangent": rec["cotangent"], "entry": rec["entry"],
                                  "torch_value": rec["torch_value"], "reference": rec["reference"]}}
                shrunk[name] = info
        with open(os.path.join(folder, name + ".json"), "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
    return shrunk


def replay(path):
    """Reruns one reproducer; 0 if the finding is reproduced, 1 if not."""
    with open(path) as f:
        r = json.load(f)
    os.makedirs(os.path.join(BUILD, "replay"), exist_ok=True)
    prog = os.path.join(BUILD, "replay", os.path.basename(path)[:-5] + ".chad")
    with open(prog, "w") as f:
        f.write(r["source"])
    case = Case(r["group"], r["case"], prog, r["fn"], r["args"], r["tangent"], r["cotangent"], r["case"])
    case.module = load_module(prog, r["fn"], r.get("fault"))
    stats, findings = {}, []
    run_case(case, r["precision"], stats, findings, print)
    print(f"replay {path}: PyTorch {torch.__version__} (recorded with {r['torch']})"
          + (f", torch.{r['fault']} made wrong on purpose" if r.get("fault") else ""))
    if "shrunk" in r:
        print(f"  shrunk from {r['shrunk']['from']}: {r['shrunk']['nodes'][0]} -> "
              f"{r['shrunk']['nodes'][1]} nodes")
    hit = [f for f in findings if f[4]["entry"] == r["entry"] and f[4]["verdict"] == r["verdict"]]
    for _, prec, what, detail, _ in hit:
        print(f"  [{prec}] {what}: {detail}")
    print("  reproduced" if hit else "  not reproduced: this PyTorch gives the right answer")
    return 0 if hit else 1


def write_report(path, seed, o, stats, by_group, findings, ncases, secs, shrunk=None):
    lines = [
        "# PyTorch against CHAD-C's certified evaluator: run of record",
        "",
        f"`difftest/run.py --seed {seed} --generated {o.generated} --groups {o.groups} "
        f"--precisions {o.precisions}` with Debian's PyTorch {torch.__version__}; "
        f"{ncases} cases in {secs:.0f} s. Verdicts are defined in difftest/run.py's header "
        "and difftest/README.md.",
        "",
        "| group | " + " | ".join(VERDICTS) + " |",
        "|---|" + "---|" * len(VERDICTS),
    ]
    for g, vs in sorted(by_group.items()):
        lines.append(f"| {g} | " + " | ".join(str(vs.get(v, 0)) for v in VERDICTS) + " |")
    lines.append("| all | " + " | ".join(str(stats.get(v, 0)) for v in VERDICTS) + " |")
    lines += ["", f"Cases skipped: {stats.get('skipped', 0)}; points with no float32 form: "
              f"{stats.get('not-f32', 0)}.", "", "## Findings", ""]
    seen = set()
    for case, prec, what, detail, rec in findings:
        name = slug(case, prec, rec["entry"])
        if name in seen:
            continue
        seen.add(name)
        sh = (shrunk or {}).get(name)
        note = f" Shrunk from {sh['nodes'][0]} to {sh['nodes'][1]} nodes." if sh else ""
        lines.append(f"- [{prec}] {case.label}, {what}: {detail}.{note} "
                     f"Replay: `difftest/run.py --replay difftest/reproducers/{name}.json`")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


VERDICTS = ("correct", "rounding", "inaccurate", "wrong", "acceptable", "kink-outside", "domain",
            "float-limit", "torch-error")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--generated", type=int, default=300)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--groups", default="targeted,generated,examples")
    ap.add_argument("--precisions", default="f64,f32")
    ap.add_argument("--report", default=None)
    ap.add_argument("--record", default=None, help="write each finding's reproducer into this folder")
    ap.add_argument("--replay", default=None, help="rerun one reproducer file and print its verdicts")
    ap.add_argument("--no-shrink", action="store_true",
                    help="record findings in generated programs as found, not shrunk")
    ap.add_argument("--inject-fault", default=None, metavar="PRIM",
                    help="make torch.PRIM's derivative wrong on purpose (its value kept): tests the "
                         "campaign and the shrinker, never a run of record")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 on any finding in the generated and examples groups (CI: there a "
                         "discrepancy means an export or evaluator bug to look at)")
    o = ap.parse_args()
    global FAULT
    FAULT = o.inject_fault
    if o.replay:
        return replay(o.replay)
    seed = o.seed if o.seed is not None else int(time.time()) % 100000
    log = (lambda s: None) if o.quiet else (lambda s: print(s, flush=True))
    if FAULT:
        print(f"difftest: torch.{FAULT}'s derivative made wrong on purpose (--inject-fault)", flush=True)
    print(f"difftest: PyTorch {torch.__version__}, seed {seed} "
          f"(difftest/run.py --seed {seed} --generated {o.generated} reproduces the generated group)", flush=True)
    groups = o.groups.split(",")
    cases = []
    if "targeted" in groups:
        cases += targeted_cases()
    if "examples" in groups:
        cases += example_cases()
    if "generated" in groups:
        cases += generated_cases(o.generated, seed)
    modules = {}
    failures = 0
    stats = {}
    findings = []
    t0 = time.time()
    precs = o.precisions.split(",")
    for k, case in enumerate(cases):
        key = (case.path, case.fn)
        if key not in modules:
            try:
                modules[key] = load_module(case.path, case.fn)
            except Exception as e:  # noqa: BLE001
                failures += 1
                print(f"FAIL {case.label}: {e}", flush=True)
                modules[key] = None
        case.module = modules[key]
        if case.module is None:
            continue
        for prec in precs:
            run_case(case, prec, stats, findings, log)
        if (k + 1) % 50 == 0:
            print(f"  ... {k + 1}/{len(cases)} cases, {len(findings)} findings, {time.time() - t0:.0f}s", flush=True)
    by_group = stats.pop("by_group", {})
    print("\nverdicts (entries, both precisions):")
    for v in ("correct", "rounding", "inaccurate", "wrong", "acceptable", "kink-outside", "domain",
              "float-limit", "torch-error", "skipped", "not-f32"):
        print(f"  {v:14s} {stats.get(v, 0)}")
    print("by group:", json.dumps(by_group))
    print(f"\nfindings: {len(findings)}")
    for case, prec, what, detail, _ in findings:
        print(f"  [{prec}] {case.label}: {what}: {detail}")
    shrunk = {}
    if o.record:
        shrunk = write_reproducers(o.record, findings, not o.no_shrink)
    if o.report:
        write_report(o.report, seed, o, stats, by_group, findings, len(cases), time.time() - t0, shrunk)
    bad = [f for f in findings if f[0].group in ("generated", "examples")] if o.check else []
    for case, prec, what, detail, _ in bad:
        print(f"FAIL [{prec}] {case.label}: {what}: {detail}")
    print(f"difftest: {len(cases)} cases run, {failures} failed to run"
          + (f", {len(bad)} findings outside the targeted group" if o.check else ""))
    # the project's closing line: a case fails when it could not be run or,
    # with --check, when it has a finding outside the targeted group
    n_bad = failures + len({id(f[0]) for f in bad})
    print(f"{len(cases) - n_bad} passed, {n_bad} failed")
    return 1 if failures or bad else 0


if __name__ == "__main__":
    sys.exit(main())
