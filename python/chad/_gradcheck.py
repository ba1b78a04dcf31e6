"""chad.gradcheck: a candidate derivative (PyTorch autograd, or a numpy
Jacobian / gradient) against CHAD-C's certified Jacobian of the program
that specifies the function."""
import collections
import math
import struct

import numpy as np

from . import _types as T
from ._errors import NotDifferentiable, Undecided

Mismatch = collections.namedtuple(
    "Mismatch", ["row", "col", "output", "input", "candidate", "expected", "ulps", "reason",
                 "mode"])
Mismatch.__doc__ = """A wrong Jacobian entry: row/col its index, output/input
the coordinates' names (e.g. "out[1]", "v[2]"), candidate and expected
(the certified value; for a kink the interval of the limits) and ulps
(the distance in units in the last place, float64), reason, mode
("backward", "forward" or "given")."""


def _ordered(x, precision="f64"):
    if precision == "f32":
        i = struct.unpack("<i", struct.pack("<f", x))[0]
        return i if i >= 0 else -(i & 0x7FFFFFFF)
    i = struct.unpack("<q", struct.pack("<d", x))[0]
    return i if i >= 0 else -(i & 0x7FFFFFFFFFFFFFFF)


def ulps(a, b, precision="f64"):
    """Units in the last place between a and b: the number of doubles
    (precision "f32": floats, a and b rounded to float32 first) from one to
    the other (0 for equal numbers, -0.0 == 0.0); inf when one is NaN or
    infinite and they differ."""
    a, b = float(a), float(b)
    if precision == "f32":
        a, b = float(np.float32(a)), float(np.float32(b))
    if a == b:
        return 0
    if not (math.isfinite(a) and math.isfinite(b)):
        return math.inf
    return abs(_ordered(a, precision) - _ordered(b, precision))


class Verdict:
    """The outcome of a check: `ok`; `mismatches` (Mismatch list); `checked`
    (entries compared); `skipped` (entries left uncompared, with why);
    `kink` (the certified evaluator found a branch point: the candidate was
    checked against the box of the one-sided limits); `expected` (the
    certified Jacobian, NaN where undefined) and `candidate`."""

    def __init__(self, mismatches, checked, skipped, kink, expected, candidate):
        self.mismatches = mismatches
        self.checked = checked
        self.skipped = skipped
        self.kink = kink
        self.expected = expected
        self.candidate = candidate
        self.ok = not mismatches

    def __bool__(self):
        return self.ok

    def __str__(self):
        if self.ok:
            s = "chad.gradcheck: %d Jacobian entries right" % self.checked
        else:
            s = "chad.gradcheck: %d of %d Jacobian entries wrong" % (len(self.mismatches),
                                                                 self.checked)
        if self.kink:
            s += " (not differentiable here: checked against the one-sided limits)"
        lines = [s]
        for m in self.mismatches[:50]:
            lines.append("  %s: d %s / d %s: got %r, certified %s (%s ulps): %s" % (
                m.mode, m.output, m.input, m.candidate, _show(m.expected),
                "inf" if m.ulps == math.inf else "%d" % m.ulps, m.reason))
        if len(self.mismatches) > 50:
            lines.append("  ... %d more" % (len(self.mismatches) - 50))
        for what in self.skipped[:10]:
            lines.append("  skipped: %s" % what)
        return "\n".join(lines)

    __repr__ = __str__


def _show(e):
    if isinstance(e, tuple):
        return "[%r, %r]" % e
    return repr(e)


class GradcheckError(AssertionError):
    """Raised by gradcheck when an entry is wrong; `verdict` has them all."""

    def __init__(self, verdict):
        super().__init__(str(verdict))
        self.verdict = verdict


# ---- coordinates ------------------------------------------------------------
def _coords(ty, x, name, out):
    """Appends the names of the real coordinates of x : ty, in JSON order."""
    k = ty[0]
    if k == "real":
        out.append(name)
    elif k == "prod":
        _coords(ty[1], x[0], name + "[0]", out)
        _coords(ty[2], x[1], name + "[1]", out)
    elif k == "sum":
        if isinstance(x, dict) and "inl" in x:
            _coords(ty[1], x["inl"], name + ".inl", out)
        elif isinstance(x, dict) and "inr" in x:
            _coords(ty[2], x["inr"], name + ".inr", out)
    elif k == "arr":
        for i, e in enumerate(x):
            _coords(ty[1], e, "%s[%d]" % (name, i), out)
    return out


def _close(c, e, atol, rtol, max_ulps, precision="f64"):
    if math.isnan(c):
        return False
    if max_ulps is not None and ulps(c, e, precision) <= max_ulps:
        return True
    return abs(c - e) <= atol + rtol * abs(e)


def check_jacobian(candidate, chad_fn, inputs, *, atol=1e-10, rtol=1e-7, max_ulps=None,
                   evaluator="ball", mode="fwd", columns=None, label="given", precision="f64"):
    """Compares the candidate Jacobian (2-D, rows the result's real
    coordinates, columns the parameters', JSON order) with chad_fn's
    Jacobian at inputs (a sequence of arguments) by `evaluator` (default
    "ball": certified). An entry c is right when |c - e| <= atol + rtol*|e|
    or, with max_ulps, when it is within max_ulps ulps of e. `columns`: the
    indices of the Jacobian's columns the candidate has (default all).
    precision "f32": the certified values are rounded to float32 and ulps
    counted in float32 (a float32 candidate's own precision; the rounding of
    the correctly rounded double can differ from float32's correct rounding
    by one float32 ulp at rare halfway cases). Returns a Verdict."""
    if precision not in ("f64", "f32"):
        raise ValueError("precision must be 'f64' or 'f32', not %r" % (precision,))
    R = (lambda x: float(np.float32(x))) if precision == "f32" else float
    U = lambda a, b: ulps(a, b, precision)          # noqa: E731
    cand = np.asarray(candidate, dtype=np.float64)
    plain = [T._plain(x) for x in inputs]
    in_names = []
    for (pname, pty), x in zip(chad_fn.params, plain):
        _coords(pty, x, pname, in_names)
    kink_limits = None
    undefined = None
    skipped = []
    try:
        res = chad_fn.jacobian(*plain, mode=mode, evaluator=evaluator, full=True)
    except NotDifferentiable as e:
        if e.is_kink:
            kink_limits = [l.result for l in e.limits]
            res = kink_limits[0]
        else:
            res = e.result
            undefined = res.undefined["jacobian"]
    except Undecided as e:
        if e.result is None:
            raise
        res = e.result
        skipped.append("entries undecided at the precision cap: %s" %
                       np.argwhere(res.undecided["jacobian"]).tolist())
    exp = res.jacobian
    out_names = _coords(chad_fn.result_type, T._plain(res.json.get("value")
                                                       if isinstance(res.json, dict) else None),
                        "out", []) if res.json is not None else []
    n_out, n_in = len(out_names), len(in_names)
    if exp.size == 0:
        exp = np.zeros((n_out, n_in))
    cols = list(range(n_in)) if columns is None else list(columns)
    if cand.ndim == 1 and n_out == 1:
        cand = cand.reshape(1, -1)
    if cand.shape != (n_out, len(cols)):
        raise ValueError("the candidate Jacobian has shape %s; CHAD-C's has %d rows (%s) and "
                         "%d columns (%s)" % (cand.shape, n_out, ", ".join(out_names[:6]),
                                              len(cols), ", ".join(in_names[c] for c in cols[:6])))
    lo = hi = None
    if kink_limits:
        stack = np.stack([r.jacobian.reshape(n_out, n_in) for r in kink_limits])
        lo, hi = stack.min(axis=0), stack.max(axis=0)
    mism = []
    checked = 0
    undecided = res.undecided.get("jacobian") if res.undecided else None
    for i in range(n_out):
        for jj, j in enumerate(cols):
            c = float(cand[i, jj])
            if undecided is not None and undecided.size and undecided[i, j]:
                continue
            checked += 1
            if undefined is not None and undefined.size and undefined[i, j]:
                if math.isfinite(c):
                    mism.append(Mismatch(i, j, out_names[i], in_names[j], c, "undefined",
                                         math.inf, "the derivative does not exist here", label))
                continue
            if lo is not None:
                a, b = R(lo[i, j]), R(hi[i, j])
                if a == b:
                    if not _close(c, a, atol, rtol, max_ulps, precision):
                        mism.append(Mismatch(i, j, out_names[i], in_names[j], c, a, U(c, a),
                                             "differs from every one-sided limit", label))
                elif not (a - atol - rtol * abs(a) <= c <= b + atol + rtol * abs(b)):
                    d = min(U(c, a), U(c, b))
                    mism.append(Mismatch(i, j, out_names[i], in_names[j], c, (a, b), d,
                                         "outside the interval of the one-sided limits", label))
                continue
            e = R(exp[i, j])
            if not _close(c, e, atol, rtol, max_ulps, precision):
                mism.append(Mismatch(i, j, out_names[i], in_names[j], c, e, U(c, e),
                                     "wrong", label))
    return Verdict(mism, checked, skipped, kink_limits is not None, exp, cand)


# ---- gradcheck ----------------------------------------------------------------
def _torch():
    try:
        import torch
        return torch
    except ImportError:
        return None


def _flat_outputs(torch, out):
    if isinstance(out, torch.Tensor):
        return [out.reshape(-1)]
    if isinstance(out, (tuple, list)):
        res = []
        for o in out:
            res.extend(_flat_outputs(torch, o))
        return res
    raise TypeError("the function must return a tensor or a tuple of tensors, not %s"
                    % type(out).__name__)


def _torch_jacobians(torch, fn, inputs, backward, forward):
    """(float inputs' positions, backward Jacobian or None, forward or None)."""
    xs, diff = [], []
    for k, x in enumerate(inputs):
        if isinstance(x, torch.Tensor) and x.is_floating_point():
            x = x.detach().clone().requires_grad_(True)
            diff.append(k)
        xs.append(x)
    jb = jf = None
    if backward:
        outs = torch.cat(_flat_outputs(torch, fn(*xs)))
        rows = []
        for i in range(outs.numel()):
            if not outs.requires_grad:      # constant outputs: zero rows
                gs = [None] * len(diff)
            else:
                gs = torch.autograd.grad(outs[i], [xs[k] for k in diff], retain_graph=True,
                                         allow_unused=True)
            rows.append(torch.cat([(g if g is not None else torch.zeros_like(xs[k]))
                                   .reshape(-1).to(torch.float64)
                                   for g, k in zip(gs, diff)]) if diff else torch.zeros(0))
        jb = torch.stack(rows).detach().cpu().numpy() if rows else np.zeros((0, 0))
    if forward:
        import torch.autograd.forward_ad as fwAD
        sizes = [xs[k].numel() for k in diff]
        cols = []
        for pos, k in enumerate(diff):
            for m in range(sizes[pos]):
                with fwAD.dual_level():
                    duals = list(xs)
                    for k2 in diff:
                        t = torch.zeros_like(xs[k2])
                        if k2 == k:
                            t.view(-1)[m] = 1.0
                        duals[k2] = fwAD.make_dual(xs[k2].detach(), t)
                    outs = _flat_outputs(torch, fn(*duals))
                    tans = []
                    for o in outs:
                        t = fwAD.unpack_dual(o).tangent
                        tans.append(t.reshape(-1) if t is not None else torch.zeros(o.numel()))
                    cols.append(torch.cat(tans).detach().to(torch.float64))
        jf = torch.stack(cols, dim=1).cpu().numpy() if cols else np.zeros((0, 0))
    return diff, jb, jf


def _columns(chad_fn, plain, which):
    """The Jacobian columns of the parameters at positions `which`."""
    cols, start = [], 0
    for k, ((pname, pty), x) in enumerate(zip(chad_fn.params, plain)):
        n = len(_coords(pty, x, pname, []))
        if k in which:
            cols.extend(range(start, start + n))
        start += n
    return cols


def gradcheck(fn, inputs, chad_fn, *, atol=1e-10, rtol=1e-7, max_ulps=None,
              raise_exception=True, check_backward_ad=True, check_forward_ad=False,
              evaluator="ball", mode="fwd", precision="f64"):
    """Checks fn's derivative at inputs against CHAD-C's certified Jacobian
    of chad_fn (a chad.Function computing the same function).

    torch (when any input is a torch.Tensor): fn is a function of tensors
    returning a tensor or a tuple of tensors, like torch.autograd.gradcheck's;
    its Jacobian is built by autograd, one backward pass per output
    coordinate (check_backward_ad) and, with check_forward_ad, one
    forward-mode pass per input coordinate. Floating-point tensors are the
    differentiated inputs (use float64); other inputs (ints, Python numbers)
    are passed as they are and their columns are not compared. Outputs and
    inputs are flattened in order (row-major), which is CHAD-C's JSON order
    for parameters and results of types real, [real], [[real]] and tuples
    of them.

    numpy (no tensor among the inputs): fn(*inputs) returns the candidate,
    either the whole Jacobian (a 2-D array) or, for a real-valued function,
    its gradient as a sequence with one entry per parameter (None for int).

    An entry c is right when |c - e| <= atol + rtol*|e| (or within max_ulps
    ulps when given) of the certified e; these are tighter than torch's
    finite-difference defaults because e is exact, not estimated. At a kink
    the candidate must lie in the interval of the one-sided limits, entry
    by entry; where the derivative is undefined it must not be finite.

    precision "f32" (float32 candidates): the certified values rounded to
    float32 and ulps counted in float32 (see check_jacobian).

    Returns True; on a wrong entry raises GradcheckError (an AssertionError
    whose message lists each wrong entry with its ulps), or returns False
    when raise_exception is False."""
    if not isinstance(inputs, (tuple, list)):
        inputs = (inputs,)
    torch = _torch()
    verdicts = []
    if torch is not None and any(isinstance(x, torch.Tensor) for x in inputs):
        plain = [T._plain(x) for x in inputs]
        diff, jb, jf = _torch_jacobians(torch, fn, inputs, check_backward_ad, check_forward_ad)
        cols = _columns(chad_fn, plain, set(diff))
        if jb is not None:
            verdicts.append(check_jacobian(jb, chad_fn, plain, atol=atol, rtol=rtol,
                                           max_ulps=max_ulps, evaluator=evaluator, mode=mode,
                                           columns=cols, label="backward", precision=precision))
        if jf is not None:
            verdicts.append(check_jacobian(jf, chad_fn, plain, atol=atol, rtol=rtol,
                                           max_ulps=max_ulps, evaluator=evaluator, mode=mode,
                                           columns=cols, label="forward", precision=precision))
    else:
        cand = fn(*inputs)
        if isinstance(cand, np.ndarray) and cand.ndim == 2:
            jac = cand
        else:
            parts = [np.asarray(g, dtype=np.float64).reshape(-1) for g in cand if g is not None]
            jac = np.concatenate(parts).reshape(1, -1) if parts else np.zeros((1, 0))
        verdicts.append(check_jacobian(jac, chad_fn, list(inputs), atol=atol, rtol=rtol,
                                       max_ulps=max_ulps, evaluator=evaluator, mode=mode,
                                       precision=precision))
    bad = [v for v in verdicts if not v.ok]
    if not bad:
        return True
    if raise_exception:
        v = bad[0]
        if len(bad) > 1:
            v = Verdict(sum((b.mismatches for b in bad), []), sum(b.checked for b in bad),
                        sum((b.skipped for b in bad), []), any(b.kink for b in bad),
                        bad[0].expected, bad[0].candidate)
        raise GradcheckError(v)
    return False
