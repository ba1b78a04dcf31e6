#!/usr/bin/python3
"""Differential testing of AD systems (PyTorch, ADOL-C) against CHAD-C's
certified evaluator.

Each case is a CHAD-C program and a point. `chad export --to torch` turns
the program into a PyTorch function (`--to adolc`: a C++ program over
ADOL-C, compiled in batches, difftest/adolc.py). The system's value,
reverse-mode VJP (torch.autograd.grad; ADOL-C's fos_reverse), forward-mode
JVP (torch.autograd.forward_ad; fos_forward) and, for a result that is an
array of reals, Jacobian (torch.autograd.functional.jacobian; jacobian) at
the point form one candidate that `chad check --json` grades entry by entry
(spec/verdict.md) at --rtol 1e-6 in float64, or --rtol 1e-2 --precision f32
in float32 (PyTorch only: the point, tangent and cotangent rounded to
float32 first; the reference is the exact value at that float32 point,
rounded to float32).

Verdicts per entry are the oracle's: correct, acceptable (at a point where
the derivative does not exist: in the hull of the one-sided results),
wrong, outside the domain, undecided. Two kinds of wrong entries are
counted apart and are not findings: "wrong, float64 too" (CHAD-C's own
float64 evaluator, graded by the same check, is wrong there too: the
program as written is ill-conditioned, or over- or underflows, in float64)
and "noise at an exact 0" (the reference is 0 and the candidate is within
the tolerance of the case's largest number). A finding is any other wrong
entry, or the system failing (PyTorch raising, ADOL-C's driver reporting an
error where chad has none). A finding in a generated program is shrunk
(difftest/shrink.py) before its reproducer is written.

Cases: `targeted` (every primitive at tail, subnormal, near-overflow and
domain-edge points, and the kinks), `generated` (the property-test
generator at a seed: PROPTEST_EMIT), `examples` (the CHAD paper's figures,
ADBench GMM).

    difftest/run.py [--system torch|adolc] [--generated N] [--seed S]
                    [--groups targeted,generated,examples] [--precisions f64,f32]
                    [--batch N] [--record DIR] [--report FILE] [--no-shrink]
                    [--checkpoint FILE] [--shrink-budget S]
                    [--inject-fault PRIM] [--check] [--quiet]
    difftest/run.py --replay FILE      rerun one reproducer: exit 0 if reproduced, 1 if not
    difftest/run.py --shrink FILE...   shrink recorded findings of generated programs in place

With --checkpoint, each case's graded result is appended to FILE as it
is graded (difftest/checkpoint.py); rerun with the same options, the run
continues where it stopped. Shrinking is bounded: at most --shrink-budget
seconds per finding, and a finding whose signature (primitive, region,
mode, precision; difftest/features.py) is that of a finding already shrunk
is recorded as found, pointing to that reproducer. A reproducer already
shrunk in --record for the same program and entry is reused.

Prints progress, the seed, a summary; exits 1 when a case fails to run
(an export or chad error) or, with --check, on a finding in the generated
or example programs; 0 otherwise (findings are listed in the report, not
failures of the runner).
"""
import argparse
import json
import itertools
import math
import os
import re
import struct
import subprocess
import sys
import time
import types

import torch

import adolc
from checkpoint import Checkpoint, file_hash, merge
from features import CONSTRUCTS, PRIMITIVES, features, signature
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

EXAMPLES = [   # (name, program, definition, arguments: a list, None for the program's .json, @file, or ba)
    ("fig1a", "examples/fig1a.chad", None, None),
    ("fig1b", "examples/fig1b.chad", None, [0.5, -1.25, 2.0, 0.75]),
    ("fig2a", "examples/fig2a.chad", None, None),
    ("fig2b", "examples/fig2b.chad", None, None),
    ("gmm-test", "examples/gmm.chad", None, "@examples/gmm_test.json"),
    # ADBench's BA test instance, two observations made different (scripts/adbench_ba_to_json.py)
    ("ba-test", "examples/ba.chad", None, "ba"),
    ("lstm-test", "examples/lstm.chad", None, "@examples/lstm_test.json"),
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
    """PyTorch's value (JSON, as chad prints it), VJP (with cotangent) and
    JVP (with tangent) as lists of floats in JSON order of the parameters'
    reals, and, for a function whose result is an array of reals, its
    Jacobian (torch.autograd.functional.jacobian; rows the result's entries,
    columns the parameters' reals), else None."""
    dt = torch.float64 if prec == "f64" else torch.float32
    m.set_dtype(dt)
    leaves = []
    inputs = [m.from_json(ty, a, leaves) for ty, a in zip(m.PARAM_TYPES, args)]
    y = m.function(*inputs)
    value = m.to_json(m.RESULT_TYPE, y)
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
    jac = None
    if m.RESULT_TYPE == ("arr", ("real",)):
        n = len(value)
        if not leaves:
            jac = [[] for _ in range(n)]
        else:
            def f(*xs):
                sub = {id(leaf): x for leaf, x in zip(leaves, xs)}
                return m.function(*[_swap(x, sub) for x in inputs])
            js = torch.autograd.functional.jacobian(f, tuple(x.detach() for x in leaves))
            jac = [[float(e) for j in js for e in j.reshape(n, -1)[i]] for i in range(n)]
    return value, vjp, jvp, jac


def shape_like(ty, j, it):
    """The (co)tangent of a value j of type ty, in chad's JSON conventions,
    its reals taken in order from the iterator it (a sum's tangent is the
    pair [left, right], the side not taken null; ints and units null)."""
    k = ty[0]
    if k == "real":
        return next(it)
    if k in ("int", "unit"):
        return None
    if k == "pair":
        return [shape_like(ty[1], j[0], it), shape_like(ty[2], j[1], it)]
    if k == "sum":
        if ty[1] == ("unit",) and ty[2] == ("unit",):
            return None
        if "inl" in j:
            return [shape_like(ty[1], j["inl"], it), None]
        return [None, shape_like(ty[2], j["inr"], it)]
    if k == "arr":
        return [shape_like(ty[1], x, it) for x in j]
    raise TypeError(f"no tangent for {ty!r}")


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


RTOL = {"f64": 1e-6, "f32": 1e-2}   # chad check --rtol: the campaign's tolerance per precision


def ones(ty, j):
    """The direction with 1 for every real of j (type ty), chad's JSON."""
    return shape_like(ty, j, itertools.repeat(1.0))


def part(entry):
    """"vjp.cotangent[2]" -> "vjp": the part of the result an entry is in."""
    return entry.split(".")[0].split("[")[0]


def check(case, prec, args, candidate):
    """chad check --json of a candidate at args: (exit, report or None, error)."""
    d = os.path.join(BUILD, "check")
    os.makedirs(d, exist_ok=True)
    ap, cp = os.path.join(d, f"args-{os.getpid()}.json"), os.path.join(d, f"candidate-{os.getpid()}.json")
    with open(ap, "w") as f:
        json.dump(args, f)
    with open(cp, "w") as f:
        json.dump(candidate, f)
    return chad("check", case.path, *(["--fn", case.fn] if case.fn else []), "--args", "@" + ap,
                "--candidate", "@" + cp, "--rtol", repr(RTOL[prec]), "--precision", prec, "--json")


def float64_wrong(case, prec, args, tangent, cot, parts):
    """The paths of the entries CHAD-C's own float64 evaluator (--eval ref)
    gets wrong at the same tolerance, graded by the same chad check; a part
    it cannot compute at all counts as all wrong ("*PART")."""
    fnargs = ["--fn", case.fn] if case.fn else []
    a = json.dumps(args)
    cand, bad = {}, set()
    runs = {"value": ("eval", []), "jvp": ("jvp", ["--tangent", json.dumps(tangent)]),
            "vjp": ("vjp", ["--cotangent", json.dumps(cot)]), "jacobian": ("jacobian", [])}
    for p in parts:
        cmd, extra = runs[p]
        rc, out, _ = chad(cmd, case.path, *fnargs, "--args", a, *extra, "--eval", "ref")
        if rc != 0 or out is None:
            bad.add("*" + p)
        elif p == "value":
            cand["value"] = out
        elif p == "jvp":
            cand["jvp"] = {"direction": tangent, "tangent": out["tangent"]}
        elif p == "vjp":
            cand["vjp"] = {"direction": cot, "cotangent": out["cotangent"]}
        else:
            cand["jacobian"] = out["jacobian"]
    if cand:
        rc, rep, _ = check(case, prec, args, cand)
        if rep is None:
            bad |= {"*" + p for p in cand}
        else:
            bad |= {e["path"] for e in rep["entries"] if e["verdict"] == "wrong"}
    return bad


def exact_zero(e):
    """The entry's value is 0 to the precision graded (its correctly rounded
    reference is 0: the certified evaluator need not prove an exact 0)."""
    r = e.get("reference")
    return isinstance(r, (int, float)) and r == 0


def count(stats, group, prec, verdict):
    stats[verdict] = stats.get(verdict, 0) + 1
    for key, sub in (("by_group", group), ("by_prec", prec)):
        g = stats.setdefault(key, {}).setdefault(sub, {})
        g[verdict] = g.get(verdict, 0) + 1


SYSTEM = "torch"   # --system: the AD system under test


def version():
    """The version of the system under test (ADOL-C: Debian's package)."""
    if SYSTEM == "torch":
        return torch.__version__
    p = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "libadolc-dev"], capture_output=True, text=True)
    return p.stdout.strip() or "unknown"
NAMES = {"torch": "PyTorch", "adolc": "ADOL-C"}


def directions(case, prec, stats):
    """The case's point, tangent and cotangent in precision prec (rounded to
    float32 for f32; ones where the case has none), or None when the point
    has no float32 form."""
    m = case.module
    args = case.args
    if prec == "f32":
        args = round_tree(args, f32)
        if any(math.isinf(x) for x in flat(args)):
            stats["not-f32"] = stats.get("not-f32", 0) + 1
            return None
    tangent = case.tangent if case.tangent is not None else [ones(t, a) for t, a in zip(m.PARAM_TYPES, args)]
    cot = case.cotangent
    if cot is None:
        m.set_dtype(torch.float64 if prec == "f64" else torch.float32)
        leaves = []
        y = m.function(*[m.from_json(ty, a, leaves) for ty, a in zip(m.PARAM_TYPES, args)])
        cot = ones(m.RESULT_TYPE, m.to_json(m.RESULT_TYPE, y))
    if prec == "f32":
        tangent, cot = round_tree(tangent, f32), round_tree(cot, f32)
    return {"args": args, "tangent": tangent, "cotangent": cot}


def system_failed(case, prec, rec, why, stats, findings):
    count(stats, case.group, prec, "system-error")
    findings.append((case, prec, f"{NAMES[SYSTEM]} failed", why[:200],
                     {**rec, "entry": "-", "verdict": "system-error", "candidate": None, "reference": None}))


def run_case(case, prec, stats, findings, log):
    """The system under test's value, VJP, JVP (and Jacobian for an array
    result) at the case's point, graded by grade_candidate."""
    try:
        rec = directions(case, prec, stats)
    except Exception as e:  # noqa: BLE001 - the program itself fails in PyTorch
        system_failed(case, prec, {"args": case.args, "tangent": case.tangent, "cotangent": case.cotangent},
                      f"PyTorch raised: {e}", stats, findings)
        return
    if rec is None:
        return
    if SYSTEM == "adolc":
        out = adolc_single(case, rec)
        if out is not None:
            adolc_grade(case, rec, out, stats, findings, log)
        else:
            stats["cannot-export"] = stats.get("cannot-export", 0) + 1
        return
    m = case.module
    try:
        tv, tvjp, tjvp, tjac = torch_run(m, case, prec, rec["args"], rec["tangent"], rec["cotangent"])
    except Exception as e:  # noqa: BLE001 - PyTorch's own failure is a finding
        system_failed(case, prec, rec, f"PyTorch raised: {e}", stats, findings)
        return
    it = iter(tvjp)
    cand = {"value": tv,
            "vjp": {"direction": rec["cotangent"],
                    "cotangent": [shape_like(t, a, it) for t, a in zip(m.PARAM_TYPES, rec["args"])]},
            "jvp": {"direction": rec["tangent"], "tangent": shape_like(m.RESULT_TYPE, tv, iter(tjvp))}}
    if tjac is not None:
        cand["jacobian"] = tjac
    grade_candidate(case, prec, rec, cand, stats, findings, log)


def adolc_single(case, rec):
    """ADOL-C's output line for one case (its own compilation: the shrinker
    and --replay), or None when the program has no ADOL-C export."""
    try:
        text = adolc.export(CHAD, case.path, case.fn)
    except adolc.CannotExport:
        return None
    exe = adolc.compile_batch([text], os.path.join(BUILD, "adolc"), f"single-{os.getpid()}")
    return adolc.run_batch(exe, [adolc.input_line(0, rec["args"], rec["tangent"], rec["cotangent"])])[0]


def adolc_grade(case, rec, line, stats, findings, log):
    """Grades one line of an ADOL-C batch's output (float64: ADOL-C's one
    precision)."""
    try:
        out = json.loads(line)
    except json.JSONDecodeError:
        system_failed(case, "f64", rec, f"unreadable output: {line[:200]}", stats, findings)
        return
    if "error" in out:
        rc, _, _ = chad("eval", case.path, *(["--fn", case.fn] if case.fn else []), "--args",
                        json.dumps(rec["args"]), "--eval", "ref")
        if rc == 3:   # a runtime error of the program in chad too
            stats["skipped"] = stats.get("skipped", 0) + 1
            log(f"  skip {case.label}: a runtime error in both ({out['error']})")
        else:
            system_failed(case, "f64", rec, out["error"], stats, findings)
        return
    cand = {"value": out["value"], "vjp": {"direction": rec["cotangent"], "cotangent": out["vjp"]},
            "jvp": {"direction": rec["tangent"], "tangent": out["jvp"]}}
    if "jacobian" in out:
        cand["jacobian"] = out["jacobian"]
    grade_candidate(case, "f64", rec, cand, stats, findings, log)


def grade_candidate(case, prec, rec, cand, stats, findings, log):
    """Grades a candidate entry by entry by `chad check` (spec/verdict.md) at
    the tolerance RTOL[prec]. A wrong entry is a finding unless CHAD-C's own
    float64 evaluator is wrong there too (the program as written is
    ill-conditioned, or over- or underflows, in float64) or it is rounding
    noise at an exact 0."""
    args, tangent, cot = rec["args"], rec["tangent"], rec["cotangent"]
    rc, rep, err = check(case, prec, args, cand)
    if rep is None:
        stats["skipped"] = stats.get("skipped", 0) + 1
        log(f"  skip {case.label} [{prec}]: chad check exit {rc}: {err}")
        return
    wrong = [e for e in rep["entries"] if e["verdict"] == "wrong"]
    f64_bad = float64_wrong(case, prec, args, tangent, cot, sorted({part(e["path"]) for e in wrong})) if wrong else set()
    # the size of the terms: for an exact 0 met by rounding noise
    nums = [abs(x) for x in flat([args, tangent, cot] + [e.get("reference") for e in rep["entries"]])
            if isinstance(x, (int, float)) and math.isfinite(x)]
    scale = max(nums, default=0.0)
    index = {}
    for e in rep["entries"]:
        p = part(e["path"])
        k = index[p] = index.get(p, -1) + 1
        v = e["verdict"]
        if v == "correct":
            u = e.get("ulps")
            stats["ulps"] = st = stats.get("ulps", {})
            b = "<= 2" if u is not None and u <= 2 else "<= 8" if u is not None and u <= 8 else "> 8"
            st[b] = st.get(b, 0) + 1
        if v == "wrong" and (e["path"] in f64_bad or "*" + p in f64_bad):
            v = "wrong-f64-too"
        elif v == "wrong" and exact_zero(e) and isinstance(e["candidate"], (int, float)) \
                and abs(e["candidate"]) <= RTOL[prec] * scale:
            v = "wrong-zero-noise"
        count(stats, case.group, prec, v)
        if v == "wrong":
            ref = e.get("reference", e.get("one_sided"))
            findings.append((case, prec, f"{e['path']}: wrong",
                             f"{NAMES[SYSTEM]} {e['candidate']!r}, reference {ref!r}"
                             + (f" ({e['note']})" if e.get("note") else ""),
                             {**rec, "entry": e["path"], "part": p, "index": k, "verdict": "wrong",
                              "candidate": e["candidate"], "reference": ref}))


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
    # emitted on every run, never reused: a changed generator makes other
    # programs of the same seed, and the shrinker regenerates them with it
    d = os.path.join(BUILD, f"gen-{seed}")
    os.makedirs(d, exist_ok=True)
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
        elif args == "ba":
            p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "adbench_ba_to_json.py"),
                                os.path.join(ROOT, "data", "adbench", "ba", "test.txt"), "--obs", "2",
                                "--perturb", "1"], capture_output=True, text=True, check=True)
            args = json.loads(p.stdout)
        if isinstance(args, dict):   # keyed by parameter name: in the definition's order
            with open(full) as f:
                head = re.findall(r"^def (\w+) \(([^=]*?)\)\s*(?::[^=]*)?=", f.read(), re.M)[-1][1]
            args = [args[n] for n in re.findall(r"(\w+)\s*:", head) if n in args]
        cases.append(Case("examples", name, full, fn, args, label=f"{name} ({path})"))
    return cases


def slug(case, prec, entry):
    base = "".join(ch if ch.isalnum() else "-" for ch in case.label)[:60].strip("-")
    system = "" if SYSTEM == "torch" else SYSTEM + "-"
    return f"{system}{base}-{prec}-" + re.sub(r"[^A-Za-z0-9.]+", "-", entry).strip("-")


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


SHRUNK = {}   # (system, seed, index, precision) -> the minimal program, its input, how it was found


SHRINK_BUDGET = 300.0   # --shrink-budget: seconds per finding


def shrink_finding(case, prec, rec, log):
    """A finding in a generated program, shrunk: the minimal program and
    input that still fail the same way (the same part graded the same
    verdict). Returns (source, record, info) or None when it cannot be.
    After SHRINK_BUDGET seconds every further candidate is answered "passes":
    the result is the smallest failing program found by then."""
    verdict, what = rec["verdict"], part(rec["entry"])
    wd = os.path.join(BUILD, "shrink", f"{case.seed}-{case.index}-{prec}-" + re.sub(r"[^A-Za-z0-9.]+", "-", rec["entry"]))
    t0 = time.time()
    key = (SYSTEM, case.seed, case.index, prec)
    if key in SHRUNK:   # another entry of the same program shrunk already: does its minimum fail this way too?
        msrc, inputs, info, *raw = SHRUNK[key]
        os.makedirs(wd, exist_ok=True)
        path = os.path.join(wd, "minimal.chad")
        with open(path, "w") as f:
            f.write(msrc)
        final = still_fails(path, None, inputs, prec, verdict, what)
        if final is None and raw:   # its input was simplified for the other entry: from the shrinker's
            inputs, _ = simplify_inputs(
                raw[0], lambda i: still_fails(path, None, i, prec, verdict, what) is not None, budget=60)
            final = still_fails(path, None, inputs, prec, verdict, what)
        if final is not None:
            log(f"  shrunk {case.label} [{prec}] {rec['entry']}: the minimum of {info['entry']} fails so too")
            return msrc, final, {**info, "reused_from": info["entry"], "candidates": 1,
                                 "seconds": round(time.time() - t0, 1)}
    deadline = t0 + SHRINK_BUDGET

    def in_budget():
        return time.time() < deadline
    try:
        src, inputs, before, after, asked = shrink_program(
            proptest(), case.seed, case.index, wd,
            lambda p, i: in_budget() and still_fails(p, None, i, prec, verdict, what) is not None, log)
    except ShrinkError as e:
        log(f"  shrink {case.label} [{prec}] {rec['entry']}: {e}")
        return None
    path = os.path.join(wd, "minimal.chad")
    with open(path, "w") as f:
        f.write(src)
    raw = inputs
    inputs, asked2 = simplify_inputs(
        inputs, lambda i: in_budget() and still_fails(path, None, i, prec, verdict, what) is not None)
    final = still_fails(path, None, inputs, prec, verdict, what)
    if final is None:   # cannot happen unless the predicate is not deterministic
        log(f"  shrink {case.label} [{prec}] {rec['entry']}: the minimal program no longer fails")
        return None
    info = {"from": case.label, "entry": rec["entry"], "nodes": [before, after], "candidates": asked + asked2,
            "seconds": round(time.time() - t0, 1)}
    if not in_budget():
        info["budget_spent"] = SHRINK_BUDGET
    SHRUNK[key] = (src, {k: final[k] for k in ("args", "tangent", "cotangent")}, info, raw)
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
    sigs = {}   # signature -> the reproducer shrunk for it
    for case, prec, what, detail, rec in findings:
        name = slug(case, prec, rec["entry"])
        if name in seen:
            continue
        seen.add(name)
        with open(case.path) as f:
            src = f.read()
        generated = case.group == "generated" and getattr(case, "seed", None) is not None
        if shrink and generated:
            old = _recorded(os.path.join(folder, name + ".json"), case, prec, rec)
            if old is not None:   # shrunk by an earlier run of this campaign
                log(f"  {name}: shrunk already (reused)")
                if "shrunk" in old:
                    shrunk[name] = old["shrunk"]
                    _note_signatures(sigs, old["source"], old, prec, name)
                elif "same_as" in old:
                    shrunk[name] = {"same_as": old["same_as"]}
                continue
            prims = sorted(features(src)[0]) or ["-"]
            same = next((sigs[signature(p, rec, prec)] for p in prims if signature(p, rec, prec) in sigs), None)
            if same is not None:   # the same discrepancy as one shrunk already: recorded as found
                log(f"  {name}: the signature of {same}, not shrunk")
                out = {"case": case.label, "group": case.group, "source": src, "fn": case.fn,
                       "precision": prec, "system": SYSTEM, "version": version(), **rec,
                       "seed": case.seed, "index": case.index, "same_as": same}
                if SYSTEM == "torch":
                    out["torch"] = torch.__version__
                if FAULT:
                    out["fault"] = FAULT
                shrunk[name] = {"same_as": same}
                with open(os.path.join(folder, name + ".json"), "w") as f:
                    json.dump(out, f, indent=1)
                    f.write("\n")
                continue
        out = {"case": case.label, "group": case.group, "source": src, "fn": case.fn,
               "precision": prec, "system": SYSTEM, "version": version(), **rec}
        if SYSTEM == "torch":
            out["torch"] = torch.__version__
        if getattr(case, "seed", None) is not None:
            out["seed"], out["index"] = case.seed, case.index
        if FAULT:
            out["fault"] = FAULT
        if shrink and case.group == "generated" and getattr(case, "seed", None) is not None:
            r = shrink_finding(case, prec, rec, log)
            if r is not None:
                msrc, mrec, info = r
                _note_signatures(sigs, msrc, rec, prec, name)
                out = {**out, "source": msrc, **mrec, "seed": case.seed, "index": case.index,   # not the entry's
                       "shrunk": {**info, "source": src, "args": rec["args"], "tangent": rec["tangent"],
                                  "cotangent": rec["cotangent"], "entry": rec["entry"],
                                  "candidate": rec["candidate"], "reference": rec["reference"]}}
                shrunk[name] = info
        with open(os.path.join(folder, name + ".json"), "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
    return shrunk


def _recorded(path, case, prec, rec):
    """The reproducer at path when it is this finding's, recorded by an
    earlier run of the same campaign with the same system version (shrunk,
    or pointing to the one shrunk for its signature); else None."""
    try:
        with open(path) as f:
            r = json.load(f)
    except (OSError, json.JSONDecodeError):
        return None
    orig = r.get("shrunk", r)
    if (r.get("seed"), r.get("index"), r.get("precision"), orig.get("entry"), r.get("version"), r.get("fault")) \
            != (case.seed, case.index, prec, rec["entry"], version(), FAULT):
        return None
    return r if ("shrunk" in r or "same_as" in r) else None


def _note_signatures(sigs, minimal_src, rec, prec, name):
    """The signatures of a shrunk finding: one per primitive its minimal
    program keeps ("-" when it keeps none), with the region and mode of the
    finding as found."""
    orig = rec.get("shrunk", rec)
    for p in sorted(features(minimal_src)[0]) or ["-"]:
        sigs.setdefault(signature(p, orig, prec), name)


def shrink_recorded(path):
    """Shrinks a recorded finding of a generated program in place (one
    recorded before findings were shrunk): its seed and index, from the
    record or its label, regenerate the program. 0 if shrunk."""
    with open(path) as f:
        r = json.load(f)
    if "shrunk" in r:
        print(f"{path}: already shrunk")
        if r.get("seed") is not None:
            SHRUNK[(r.get("system", "torch"), r["seed"], r["index"], r["precision"])] = (
                r["source"], {k: r[k] for k in ("args", "tangent", "cotangent")},
                {**r["shrunk"], "entry": r["shrunk"].get("entry", r["entry"])})
        return 0
    seed, index = r.get("seed"), r.get("index")
    if seed is None:
        m = re.fullmatch(r"generated program (\d+) \(seed (\d+)\)", r["case"])
        if not m:
            print(f"{path}: not a generated program")
            return 1
        index, seed = int(m.group(1)), int(m.group(2))
    d = os.path.join(BUILD, "replay")
    os.makedirs(d, exist_ok=True)
    prog = os.path.join(d, os.path.basename(path)[:-5] + ".chad")
    with open(prog, "w") as f:
        f.write(r["source"])
    case = Case("generated", f"prog-{index}", prog, r["fn"], r["args"], r["tangent"], r["cotangent"], r["case"])
    case.seed, case.index = seed, index
    global FAULT, SYSTEM
    FAULT = r.get("fault")
    SYSTEM = r.get("system", "torch")
    rec = {k: r[k] for k in ("args", "tangent", "cotangent", "entry", "verdict", "candidate", "reference")}
    res = shrink_finding(case, r["precision"], rec, print)
    if res is None:
        return 1
    msrc, mrec, info = res
    out = {**r, "source": msrc, **mrec, "seed": seed, "index": index, "version": version(),
           "shrunk": {**info, "source": r["source"], "args": r["args"], "tangent": r["tangent"],
                      "cotangent": r["cotangent"], "entry": r["entry"],
                      "candidate": r["candidate"], "reference": r["reference"]}}
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    return 0


def replay(path):
    """Reruns one reproducer; 0 if the finding is reproduced, 1 if not."""
    global SYSTEM
    with open(path) as f:
        r = json.load(f)
    SYSTEM = r.get("system", "torch")
    os.makedirs(os.path.join(BUILD, "replay"), exist_ok=True)
    prog = os.path.join(BUILD, "replay", os.path.basename(path)[:-5] + ".chad")
    with open(prog, "w") as f:
        f.write(r["source"])
    case = Case(r["group"], r["case"], prog, r["fn"], r["args"], r["tangent"], r["cotangent"], r["case"])
    case.module = load_module(prog, r["fn"], r.get("fault"))
    stats, findings = {}, []
    run_case(case, r["precision"], stats, findings, print)
    print(f"replay {path}: {NAMES[SYSTEM]} {version()} (recorded with {r.get('version', r.get('torch'))})"
          + (f", torch.{r['fault']} made wrong on purpose" if r.get("fault") else ""))
    if "shrunk" in r:
        print(f"  shrunk from {r['shrunk']['from']}: {r['shrunk']['nodes'][0]} -> "
              f"{r['shrunk']['nodes'][1]} nodes")
    hit = [f for f in findings if f[4]["entry"] == r["entry"] and f[4]["verdict"] == r["verdict"]]
    for _, prec, what, detail, _ in hit:
        print(f"  [{prec}] {what}: {detail}")
    print("  reproduced" if hit else f"  not reproduced: this {NAMES[SYSTEM]} gives the right answer")
    return 0 if hit else 1


VERDICTS = ("correct", "acceptable", "wrong", "wrong-f64-too", "wrong-zero-noise", "outside_domain",
            "undecided", "system-error")
HEADERS = ("correct", "acceptable", "wrong", "wrong, float64 too", "wrong, noise at an exact 0",
           "outside the domain", "undecided", "the system failed")


def table(rows, stats, ncases=None, order=None, what=""):
    """Verdict counts per row (`what` heads the rows); with ncases, a first
    column of how many cases (programs and points) each row has; rows in
    `order` if given."""
    lead = f"| {what} | cases " if ncases is not None else f"| {what} "
    lines = [lead + "| " + " | ".join(HEADERS) + " |",
             "|---|" + ("---|" if ncases is not None else "") + "---|" * len(VERDICTS)]
    for g in (order or sorted(rows)):
        vs = rows.get(g, {})
        n = f"| {ncases.get(g, 0)} " if ncases is not None else ""
        lines.append(f"| {g} {n}| " + " | ".join(str(vs.get(v, 0)) for v in VERDICTS) + " |")
    if stats is not None:
        lines.append("| all " + ("| " if ncases is not None else "") + "| "
                     + " | ".join(str(stats.get(v, 0)) for v in VERDICTS) + " |")
    return lines


def by_feature(per_case):
    """Entries per primitive and per construct, counted over the cases whose
    program contains it (difftest/features.py): ({name: counts},
    {name: cases}) for primitives and for constructs."""
    src, out = {}, ({}, {}, {}, {})
    for case, prec, local in per_case:
        if case.path not in src:
            with open(case.path) as f:
                src[case.path] = features(f.read())
        for names, rows, ncases in ((src[case.path][0], out[0], out[1]), (src[case.path][1], out[2], out[3])):
            for n in names:
                merge(rows.setdefault(n, {}), {v: local.get(v, 0) for v in VERDICTS})
                ncases[n] = ncases.get(n, 0) + 1
    return out


def by_signature(findings, shrunk, folder):
    """{(primitives, region, mode, precision): (entries, {case labels},
    a reproducer's name)}: the findings grouped as a maintainer reads them.
    The primitives are those of the minimal program when the finding was
    shrunk (or of the one it points to), else of the program."""
    out = {}
    for case, prec, what, detail, rec in findings:
        name = slug(case, prec, rec["entry"])
        sh = shrunk.get(name) or {}
        target = sh.get("same_as", name)
        src = None
        if folder and (target != name or sh):
            try:
                with open(os.path.join(folder, target + ".json")) as f:
                    src = json.load(f)["source"]
            except (OSError, json.JSONDecodeError, KeyError):
                src = None
        if src is None:
            with open(case.path) as f:
                src = f.read()
        prims = ", ".join(sorted(features(src)[0])) or "-"
        s = signature(prims, rec, prec)
        n, cs, first = out.get(s, (0, set(), target))
        out[s] = (n + 1, cs | {case.label}, first)
    return out


def write_report(path, seed, o, stats, findings, ncases, secs, shrunk=None, per_case=()):
    """The run's section of the report at path (a section per system: the
    other system's section is kept)."""
    u = stats.get("ulps", {})
    sysname = NAMES[SYSTEM]
    cmd = (f"`difftest/run.py --system {SYSTEM} --seed {seed} --generated {o.generated} --groups {o.groups}"
           + (f" --precisions {o.precisions}`" if SYSTEM == "torch" else f" --batch {o.batch}`"))
    tol = (f"`chad check --rtol {RTOL['f64']!r}` (float64) or `--rtol {RTOL['f32']!r} --precision f32`"
           if SYSTEM == "torch" else f"`chad check --rtol {RTOL['f64']!r}` (ADOL-C computes in float64 only)")
    lines = [
        f"<!-- section: {SYSTEM} -->",
        f"## {sysname}",
        "",
        f"{cmd} with Debian's {sysname} {version()}; {ncases} cases, graded in {secs:.0f} s "
        "(the time each case took to grade, summed over the runs a stopped run was resumed in; "
        "shrinking not included). "
        f"Every entry is graded by {tol} (spec/verdict.md). "
        "The three *wrong* columns are the oracle's wrong entries: *wrong, float64 too*: CHAD-C's own "
        "float64 evaluator is wrong there too; *noise at an exact 0*: the reference is 0 and "
        f"{sysname}'s number is within the tolerance of the largest number of the case (input, "
        "direction, reference): neither is a finding. Definitions in difftest/README.md.",
        "",
    ]
    if SYSTEM == "adolc":
        ce = stats.get("cannot-export", {})
        lines += [f"Exported to ADOL-C: {stats.get('exported', 0)} of {ncases} cases; not exported (a primitive "
                  "ADOL-C has no elementary function for): "
                  + ", ".join(f"{k} {v}" for k, v in sorted(ce.items(), key=lambda kv: -kv[1]))
                  + f". Compiling the batches took {stats.get('compile-seconds', 0):.0f} s of the run.", ""]
    lines += [
        "Entries per group:",
        "",
        *table(stats.get("by_group", {}), stats),
        "",
    ]
    if SYSTEM == "torch":
        lines += ["Entries per precision:", "", *table(stats.get("by_prec", {}), stats), ""]
    if per_case:
        prows, pn, crows, cn = by_feature(per_case)
        lines += ["Entries per primitive and per construct: the entries of every case whose program contains "
                  "it (its name as a word in the source; indexing as `e[i]`; arithmetic and comparison "
                  "operators not counted), so an entry counts under each primitive and construct of its "
                  "program; *cases* counts a case once per precision"
                  + (", the cases not exported (no entries) included" if SYSTEM == "adolc" else "")
                  + ". Primitives no case contains are left out.", "",
                  *table(prows, None, pn, [p for p in PRIMITIVES if p in prows], "primitive"), "",
                  *table(crows, None, cn, [c for c in CONSTRUCTS if c in crows], "construct"), ""]
    lines += [
        f"Correct entries within 2 ulps of the correctly rounded reference: {u.get('<= 2', 0)}; "
        f"within 8: {u.get('<= 8', 0)}; farther (within the tolerance): {u.get('> 8', 0)}. "
        f"Cases skipped: {stats.get('skipped', 0)}; points with no float32 form: {stats.get('not-f32', 0)}.",
        "", f"### Findings ({sysname})", ""]
    sig = by_signature(findings, shrunk or {}, o.record)
    if sig:
        lines += ["The findings by signature (the primitives of the program, or of its minimal program when "
                  "shrunk; the region; the mode; the precision), one reproducer each:", "",
                  "| primitives | region | mode | precision | entries | cases | a reproducer |",
                  "|---|---|---|---|---|---|---|"]
        for (p, r, m, pr), (n, cs, name) in sorted(sig.items(), key=lambda kv: (-kv[1][0], kv[0])):
            lines.append(f"| {p} | {r} | {m} | {pr} | {n} | {len(cs)} | `{name}.json` |")
        lines += ["", "Every finding:", ""]
    seen = set()
    for case, prec, what, detail, rec in findings:
        name = slug(case, prec, rec["entry"])
        if name in seen:
            continue
        seen.add(name)
        sh = (shrunk or {}).get(name)
        note = ""
        if sh and "same_as" in sh:
            note = f" The signature of `{sh['same_as']}` (not shrunk)."
        elif sh:
            note = (f" Shrunk from {sh['nodes'][0]} to {sh['nodes'][1]} nodes"
                    + (f" (stopped at the {sh['budget_spent']:.0f} s budget)" if sh.get("budget_spent") else "")
                    + ".")
        lines.append(f"- [{prec}] {case.label}, {what}: {detail}.{note} "
                     f"Replay: `difftest/run.py --replay difftest/reproducers/{name}.json`")
    lines.append(f"<!-- end: {SYSTEM} -->")
    section = "\n".join(lines) + "\n"
    head = ("# AD systems against CHAD-C's certified evaluator: runs of record\n\n"
            "One section per system, each written by its own `make difftest` run.\n\n")
    text = open(path).read() if os.path.exists(path) else ""
    begin, stop = f"<!-- section: {SYSTEM} -->", f"<!-- end: {SYSTEM} -->\n"
    if begin in text and stop in text:
        text = text[:text.index(begin)] + section + text[text.index(stop) + len(stop):]
    elif "<!-- section: " in text:
        text = text.rstrip("\n") + "\n\n" + section
    else:   # no sections yet
        text = head + section
    with open(path, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--generated", type=int, default=300)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--groups", default="targeted,generated,examples")
    ap.add_argument("--precisions", default="f64,f32")
    ap.add_argument("--report", default=None)
    ap.add_argument("--record", default=None, help="write each finding's reproducer into this folder")
    ap.add_argument("--replay", default=None, help="rerun one reproducer file and print its verdicts")
    ap.add_argument("--shrink", nargs="+", default=None, metavar="FILE",
                    help="shrink recorded findings of generated programs in place")
    ap.add_argument("--no-shrink", action="store_true",
                    help="record findings in generated programs as found, not shrunk")
    ap.add_argument("--inject-fault", default=None, metavar="PRIM",
                    help="make torch.PRIM's derivative wrong on purpose (its value kept): tests the "
                         "campaign and the shrinker, never a run of record")
    ap.add_argument("--system", choices=("torch", "adolc"), default="torch",
                    help="the AD system under test: PyTorch (default) or ADOL-C (float64 only)")
    ap.add_argument("--batch", type=int, default=200,
                    help="ADOL-C: programs per compiled C++ translation unit")
    ap.add_argument("--checkpoint", default=None, metavar="FILE",
                    help="append each case's graded result to FILE; a rerun with the same options continues "
                         "from it (difftest/checkpoint.py)")
    ap.add_argument("--shrink-budget", type=float, default=300.0, metavar="S",
                    help="seconds of shrinking per finding at most (default 300)")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 on any finding in the generated and examples groups (CI: there a "
                         "discrepancy means an export or evaluator bug to look at)")
    o = ap.parse_args()
    global FAULT, SYSTEM, SHRINK_BUDGET
    FAULT = o.inject_fault
    SYSTEM = o.system
    SHRINK_BUDGET = o.shrink_budget
    if o.replay:
        return replay(o.replay)
    if o.shrink:   # the shrunk ones first: the others of the same program may reuse their minimum
        files = sorted(o.shrink, key=lambda f: "shrunk" not in json.load(open(f)))
        return max(shrink_recorded(f) for f in files)
    seed = o.seed if o.seed is not None else int(time.time()) % 100000
    log = (lambda s: None) if o.quiet else (lambda s: print(s, flush=True))
    if FAULT:
        print(f"difftest: torch.{FAULT}'s derivative made wrong on purpose (--inject-fault)", flush=True)
    print(f"difftest: {NAMES[SYSTEM]} {version()}, seed {seed} "
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
    per_case = []   # (case, precision, its counts): the counts per primitive and per construct
    t0 = time.time()
    precs = o.precisions.split(",") if SYSTEM == "torch" else ["f64"]   # ADOL-C: double only
    ck = None
    if o.checkpoint:
        ck = Checkpoint(o.checkpoint, {
            "system": SYSTEM, "version": version(), "chad": file_hash(CHAD), "seed": seed,
            "generated": o.generated, "groups": o.groups, "precisions": ",".join(precs),
            "fault": FAULT, "batch": o.batch if SYSTEM == "adolc" else None}, print)

    def key(case, prec):
        return f"{case.group}|{case.label}|{prec}"

    def take(case, prec, local, lf, secs=None):
        """One case's result into the run's: checkpointed if new."""
        if secs is not None:
            local["seconds"] = secs
        if ck is not None and key(case, prec) not in ck.done:
            ck.add(key(case, prec), local, [list(f[2:]) for f in lf])
        merge(stats, {k: v for k, v in local.items() if k != "seconds"})
        findings.extend(lf)
        per_case.append((case, prec, local))

    def resumed(case, prec):
        nonlocal t0
        if ck is None or key(case, prec) not in ck.done:
            return False
        r = ck.done[key(case, prec)]
        t0 -= r["stats"].get("seconds", 0.0)   # the time it took when graded
        take(case, prec, r["stats"], [(case, prec, *f) for f in r["findings"]])
        return True
    def module(case):
        nonlocal failures
        key = (case.path, case.fn)
        if key not in modules:
            try:
                modules[key] = load_module(case.path, case.fn)
            except Exception as e:  # noqa: BLE001
                failures += 1
                print(f"FAIL {case.label}: {e}", flush=True)
                modules[key] = None
        case.module = modules[key]
        return case.module is not None
    if SYSTEM == "torch":
        for k, case in enumerate(cases):
            todo = [p for p in precs if not resumed(case, p)]
            tm = time.time()
            if todo and module(case):
                tm = (time.time() - tm) / len(todo)   # the export, shared by the precisions
                for prec in todo:
                    local, lf, tc = {}, [], time.time()
                    run_case(case, prec, local, lf, log)
                    take(case, prec, local, lf, time.time() - tc + tm)
            if (k + 1) % 50 == 0:
                print(f"  ... {k + 1}/{len(cases)} cases, {len(findings)} findings, {time.time() - t0:.0f}s",
                      flush=True)
    else:
        for c0 in range(0, len(cases), o.batch):
            chunk, texts, lines, recs, locals_ = [], [], [], [], []
            tb = time.time()
            for case in cases[c0:c0 + o.batch]:
                if resumed(case, "f64") or not module(case):   # the torch export gives the types
                    continue
                local = {}
                try:
                    texts.append(adolc.export(CHAD, case.path, case.fn))
                except adolc.CannotExport as e:
                    local["cannot-export"] = {adolc.construct(str(e)): 1}
                    take(case, "f64", local, [])
                    continue
                rec = directions(case, "f64", local)
                chunk.append(case)
                recs.append(rec)
                locals_.append(local)
                lines.append(adolc.input_line(len(texts) - 1, rec["args"], rec["tangent"], rec["cotangent"]))
            if not chunk:
                continue
            tc = time.time()
            exe = adolc.compile_batch(texts, os.path.join(BUILD, "adolc"), f"batch-{seed}-{c0}")
            tc = time.time() - tc
            outs = adolc.run_batch(exe, lines)
            locals_[0]["compile-seconds"] = tc   # the batch's, counted once
            for case, rec, line, local in zip(chunk, recs, outs, locals_):
                lf = []
                adolc_grade(case, rec, line, local, lf, log)
                local["exported"] = 1
                take(case, "f64", local, lf, (time.time() - tb) / len(chunk))
            print(f"  ... {min(c0 + o.batch, len(cases))}/{len(cases)} cases ({len(chunk)} exported, compiled "
                  f"in {tc:.0f}s), {len(findings)} findings, {time.time() - t0:.0f}s", flush=True)
    print("\nverdicts (entries, all precisions):")
    for v in VERDICTS + ("skipped", "not-f32"):
        print(f"  {v:14s} {stats.get(v, 0)}")
    print("by group:", json.dumps(stats.get("by_group", {})))
    print("by precision:", json.dumps(stats.get("by_prec", {})))
    print("correct entries by ulps:", json.dumps(stats.get("ulps", {})))
    if SYSTEM == "adolc":
        print(f"exported {stats.get('exported', 0)} of {len(cases)} cases; cannot export:",
              json.dumps(stats.get("cannot-export", {})),
              f"; compiling took {stats.get('compile-seconds', 0):.0f}s")
    print(f"\nfindings: {len(findings)}")
    for case, prec, what, detail, _ in findings:
        print(f"  [{prec}] {case.label}: {what}: {detail}")
    graded = time.time() - t0   # before shrinking
    shrunk = {}
    if o.record:
        shrunk = write_reproducers(o.record, findings, not o.no_shrink)
    if ck is not None:
        ck.close()
    if o.report:
        write_report(o.report, seed, o, stats, findings, len(cases), graded, shrunk, per_case)
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
