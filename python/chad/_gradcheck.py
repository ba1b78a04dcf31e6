"""chad.gradcheck: a candidate derivative (PyTorch autograd, or a numpy
Jacobian / gradient) graded against CHAD-C's certified derivative of the
program that specifies the function, by libchad's grader (_check.py)."""
import math
import os
import re
import struct

import numpy as np

from . import _types as T
from ._check import grade, merge, retally
from ._errors import ChadError, NotDifferentiable, Undecided

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
    """The test vectors' tolerance (vectors.py): c within atol + rtol |e| of
    e, or within max_ulps ulps."""
    if math.isnan(c):
        return False
    if max_ulps is not None and ulps(c, e, precision) <= max_ulps:
        return True
    return abs(c - e) <= atol + rtol * abs(e)


class GradcheckError(AssertionError):
    """Raised by gradcheck when an entry is wrong; `verdict` has them all."""

    def __init__(self, verdict):
        super().__init__("chad.gradcheck: " + str(verdict))
        self.verdict = verdict


def _names(chad_fn, plain):
    """path -> (output name, input name) for the Jacobian's entries."""
    ins = []
    for (pname, pty), x in zip(chad_fn.params, plain):
        _coords(pty, x, pname, ins)
    try:
        val = T._plain(chad_fn.eval(*plain, evaluator="ref"))
        outs = _coords(chad_fn.result_type, val, "out", [])
    except ChadError:
        outs = None

    def names(path):
        m = _JAC.match(path)
        if not m:
            return None, None
        i, j = int(m.group(1)), int(m.group(2))
        return (outs[i] if outs is not None and i < len(outs) else "out#%d" % i,
                ins[j] if j < len(ins) else "in#%d" % j)
    return names


_JAC = re.compile(r"^jacobian\[(\d+)\]\[(\d+)\]$")


def _within_atol(v, atol):
    """A wrong entry within atol of a numeric reference counts as correct."""
    if not atol:
        return v
    ents = []
    for e in v.entries:
        if (e.status == "wrong" and isinstance(e.candidate, float) and
                isinstance(e.reference, float) and math.isfinite(e.reference) and
                abs(e.candidate - e.reference) <= atol):
            e = e._replace(status="correct", note="within atol %g" % atol)
        ents.append(e)
    v.entries = ents
    return retally(v)


def check_jacobian(candidate, chad_fn, inputs, *, ulps=None, rtol=None, atol=0.0,
                   precision="f64", columns=None, mode=None):
    """Grades the candidate Jacobian (2-D: rows the result's real
    coordinates, columns the parameters', JSON order) of chad_fn (a
    chad.Function) at inputs (a sequence of arguments) with libchad's
    grader, as `chad check --candidate '{"jacobian": ...}'` (ulps, default
    2, or rtol; precision "f64" or "f32"). atol (default 0): an entry graded
    wrong that lies within atol of its reference is counted correct (a
    Python-side widening; the grader has no absolute tolerance). columns:
    the indices of the Jacobian columns the candidate has (default all);
    the others are filled from CHAD-C's certified Jacobian and left out of
    the verdict. Returns a chad.Verdict whose entries carry the names of
    their output and input coordinates."""
    plain = [T._plain(x) for x in inputs]
    cand = np.asarray(candidate, dtype=np.float64)
    n_in = len(_names_in(chad_fn, plain))
    cols = list(range(n_in)) if columns is None else list(columns)
    if cand.ndim == 1:
        cand = cand.reshape(1, -1)
    if cand.ndim != 2 or cand.shape[1] != len(cols):
        raise ValueError("the candidate Jacobian has shape %s; CHAD-C's has %d columns (%s)"
                         % (cand.shape, len(cols), ", ".join(_names_in(chad_fn, plain))))
    full = cand
    if len(cols) != n_in:
        full = np.zeros((cand.shape[0], n_in))
        ref = _reference_jacobian(chad_fn, plain)
        if ref.shape == full.shape:
            full[:, :] = ref
        full[:, cols] = cand
    v = grade(chad_fn, plain, {"jacobian": full}, ulps=ulps, rtol=rtol, precision=precision,
              mode=mode, names=_names(chad_fn, plain))
    if len(cols) != n_in:
        keep = set(cols)
        v.entries = [e for e in v.entries
                     if not _JAC.match(e.path) or int(_JAC.match(e.path).group(2)) in keep]
        retally(v)
    return _within_atol(v, atol)


def _names_in(chad_fn, plain):
    ins = []
    for (pname, pty), x in zip(chad_fn.params, plain):
        _coords(pty, x, pname, ins)
    return ins


def _reference_jacobian(chad_fn, plain):
    """CHAD-C's certified Jacobian (at a kink: the first one-sided result's),
    to fill the columns a candidate does not have."""
    try:
        return chad_fn.jacobian(*plain, evaluator="ball")
    except NotDifferentiable as e:
        r = e.limits[0].result if e.is_kink else e.result
        return np.nan_to_num(r.jacobian)
    except Undecided as e:
        if e.result is None:
            raise
        return np.nan_to_num(e.result.jacobian)

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
    if isinstance(out, (int, float)) and not isinstance(out, bool):   # a constant output
        return [torch.tensor([float(out)], dtype=torch.float64)]
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


def _function(program):
    """The chad.Function that `program` names (see gradcheck)."""
    from ._program import Function, Program, load, loads
    if isinstance(program, Function):
        return program
    if isinstance(program, Program):
        return program.function(None)
    if isinstance(program, tuple) and len(program) == 2:
        src, name = program
        if isinstance(src, Program):
            return src.function(name)
        if isinstance(src, (str, os.PathLike)) and os.path.isfile(src):
            return load(src).function(name)
        if isinstance(src, str):
            return loads(src, "<gradcheck>").function(name)
    raise TypeError("program must be a chad function (prog.f), a chad.Program (its last "
                    "definition) or a pair (Program, path or source text, definition name), "
                    "not %r" % (program,))


def gradcheck(fn, program, inputs, *, precision="f64", ulps=None, rtol=None, atol=0.0,
              raise_exception=True, check_backward_ad=True, check_forward_ad=False):
    """Checks fn's derivative at inputs against CHAD-C's certified
    derivative of `program`, the CHAD-C definition that specifies fn, with
    libchad's grader (the grading of `chad check --candidate`,
    spec/verdict.md): every Jacobian entry is correct (within the tolerance
    of the correctly rounded exact value), wrong (with its ulps and correct
    digits), acceptable (at a kink: inside the convex hull of the one-sided
    derivatives), outside the domain or undecided.

    program: a chad function (`prog.f`), a chad.Program (its last
    definition), or a pair (program, name) where program is a chad.Program,
    a path to a .chad file or source text.

    torch (when any input is a torch.Tensor): fn is a function of tensors
    returning a tensor or a tuple of tensors, as for
    torch.autograd.gradcheck; its Jacobian is built by autograd, one
    backward pass per output coordinate (check_backward_ad) and, with
    check_forward_ad, one forward-mode pass per input coordinate; each is
    graded as a "jacobian" candidate. Floating-point tensors are the
    differentiated inputs (use float64, or float32 with precision="f32");
    other inputs (ints, Python numbers) are passed as they are and their
    columns are not graded. Outputs and inputs are flattened in order
    (row-major), CHAD-C's JSON order for results and parameters of types
    real, [real], [[real]] and tuples of them.

    numpy (no tensor among the inputs): fn(*inputs) returns the candidate,
    either the whole Jacobian (a 2-D array, graded as "jacobian") or, for a
    real-valued function, its gradient, one entry per parameter (None for
    int), graded as "gradient".

    Tolerance: ulps (default 2, as chad check) or rtol; atol (default 0)
    also accepts an entry within atol of the reference (not part of chad
    check). precision "f32": the reference rounded to float32, ulps
    counted in float32.

    Returns a chad.Verdict (true when no entry is wrong; `entries` each
    with path, status, candidate, reference, enclosure, ulps, digits, mode
    "backward"/"forward"/None and the coordinates' names). When an entry is
    wrong: raises GradcheckError (an AssertionError; its message lists each
    wrong entry with its ulps, its `verdict` the Verdict), or, with
    raise_exception=False, returns the Verdict, which is false."""
    from ._program import Function, Program
    if isinstance(inputs, (Function, Program)) and not isinstance(program, (Function, Program)):
        program, inputs = inputs, program       # the earlier (fn, inputs, chad_fn) order
    chad_fn = _function(program)
    if not isinstance(inputs, (tuple, list)):
        inputs = (inputs,)
    tol = dict(ulps=ulps, rtol=rtol, precision=precision)
    torch = _torch()
    verdicts = []
    if torch is not None and any(isinstance(x, torch.Tensor) for x in inputs):
        plain = [T._plain(x) for x in inputs]
        diff, jb, jf = _torch_jacobians(torch, fn, inputs, check_backward_ad, check_forward_ad)
        cols = _columns(chad_fn, plain, set(diff))
        for jac, mode in ((jb, "backward"), (jf, "forward")):
            if jac is not None:
                if jac.size == 0 and not cols:
                    continue
                verdicts.append(check_jacobian(jac, chad_fn, plain, atol=atol, columns=cols,
                                               mode=mode, **tol))
    else:
        cand = fn(*inputs)
        plain = [T._plain(x) for x in inputs]
        if isinstance(cand, np.ndarray) and cand.ndim == 2:
            verdicts.append(check_jacobian(cand, chad_fn, plain, atol=atol, **tol))
        else:
            grad = [None if g is None else T._plain(np.asarray(g, dtype=np.float64))
                    for g in cand]
            verdicts.append(_within_atol(grade(chad_fn, plain, {"gradient": grad}, **tol),
                                         atol))
    if not verdicts:
        raise ValueError("gradcheck: nothing to check (no differentiable input, or neither "
                         "check_backward_ad nor check_forward_ad)")
    v = verdicts[0] if len(verdicts) == 1 else merge(verdicts)
    if not v.ok and raise_exception:
        raise GradcheckError(v)
    return v
