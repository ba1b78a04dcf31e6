"""The certified test-vector suite (vectors/, spec/vectors.md) from Python:
load the vectors and grade a candidate value, JVP or VJP against each
vector's certified reference.

    for v in chad.vectors.load():                  # vectors/ of this tree, or a folder
        v.assert_vjp(my_vjp(v.source, v.args, v.cotangent))
"""
import json
import math
import os

import numpy as np

from . import _program
from ._gradcheck import _close, ulps

_HERE = os.path.dirname(os.path.abspath(__file__))


def default_folder():
    """CHAD_VECTORS, else vectors/ of the source tree this package is in, else None."""
    env = os.environ.get("CHAD_VECTORS")
    if env:
        return env
    tree = os.path.normpath(os.path.join(_HERE, "..", "..", "vectors"))
    return tree if os.path.isfile(os.path.join(tree, "index.json")) else None


def load(folder=None, groups=None, flags=None):
    """The vectors of the suite in `folder` (default: default_folder()), in
    index order; only those of `groups` (names) and having one of `flags`
    when given."""
    folder = folder or default_folder()
    if not folder:
        raise FileNotFoundError("no test-vector suite: give its folder (CHAD_VECTORS, "
                                "--chad-vectors)")
    with open(os.path.join(folder, "index.json")) as f:
        index = json.load(f)
    out = []
    for g in index["groups"]:
        name = g["group"]
        if groups is not None and name not in groups:
            continue
        with open(os.path.join(folder, name + ".json")) as f:
            data = json.load(f)
        for v in data["vectors"]:
            if flags is not None and not set(flags) & set(v.get("flags", [])):
                continue
            out.append(Vector(name, v))
    return out


def _leaves(x, out):
    """The numbers and words of a JSON-shaped value, in order; None and
    nothing else skipped (int and unit cotangents)."""
    if x is None:
        return out
    if isinstance(x, np.ndarray):
        x = x.tolist()
    if isinstance(x, (list, tuple)):
        for e in x:
            _leaves(e, out)
    elif isinstance(x, dict):
        for k in ("inl", "inr"):
            if k in x:
                _leaves(x[k], out)
    elif isinstance(x, np.generic):
        out.append(x.item())
    elif hasattr(x, "detach"):                      # a torch tensor
        _leaves(x.detach().cpu().numpy(), out)
    else:
        out.append(x)
    return out


class VectorVerdict:
    """ok; mismatches: (index of the real, candidate, expected, ulps, reason);
    checked: entries compared."""

    def __init__(self, vector, kind, mismatches, checked):
        self.vector, self.kind = vector, kind
        self.mismatches, self.checked = mismatches, checked
        self.ok = not mismatches

    def __bool__(self):
        return self.ok

    def __str__(self):
        v = self.vector
        head = "%s %s (%s): " % (v.id, self.kind, v.comment)
        if self.ok:
            return head + "%d entries right" % self.checked
        lines = [head + "%d of %d entries wrong" % (len(self.mismatches), self.checked)]
        for i, c, e, u, why in self.mismatches[:20]:
            lines.append("  [%d] got %r, certified %s (%s ulps): %s" % (
                i, c, e, "inf" if u == math.inf else u, why))
        return "\n".join(lines)


class Vector:
    """One vector: id ("group-tcId"), group, tcId, comment, flags, source,
    args, tangent, cotangent, result ("valid" or "acceptable" at a kink),
    and the certified references value, jvp, vjp (spec/vectors.md)."""

    def __init__(self, group, v):
        self.group = group
        self.raw = v
        self.tcId = v["tcId"]
        self.id = "%s-%d" % (group, self.tcId)
        self.comment = v.get("comment", "")
        self.flags = v.get("flags", [])
        self.source = v["source"]
        self.args = v["args"]
        self.value = v.get("value")
        self.jvp = v.get("jvp")
        self.vjp = v.get("vjp")
        self.tangent = self.jvp.get("tangent") if self.jvp else None
        self.cotangent = self.vjp.get("cotangent") if self.vjp else None
        self.result = v.get("result", "valid")

    def __repr__(self):
        return "<chad vector %s: %s>" % (self.id, self.comment)

    def program(self, **options):
        """The vector's program, loaded (close it, or use `with`)."""
        return _program.loads(self.source, self.group, **options)

    def function(self, **options):
        """Its function: the source's last definition."""
        return self.program(**options).function()

    # ---- grading ---------------------------------------------------------
    def check(self, kind, candidate, *, atol=1e-10, rtol=1e-7, max_ulps=None):
        """Grades candidate (JSON-shaped: numbers, lists / tuples / numpy
        arrays, None for int and unit) against the reference `kind`
        ("value", "jvp" or "vjp"). A real entry is right when it equals
        the certified double, lies in its enclosure widened by half an ulp
        of the candidate (its own rounding), or is within the tolerances
        (|c - e| <= atol + rtol |e|, or max_ulps ulps); "undefined" wants a
        NaN, an infinity or None; "+infinity" / "-infinity" that infinity;
        "undecided" entries are not graded. At a kink the candidate must
        lie in the convex hull of the one-sided limits (two limits: on
        their segment; more: within their entrywise bounds)."""
        ref = getattr(self, kind)
        if ref is None:
            raise ValueError("vector %s has no %s reference" % (self.id, kind))
        cand = [None if x is None else float(x) for x in _leaves(candidate, [])]
        tol = dict(atol=atol, rtol=rtol, max_ulps=max_ulps)
        if ref.get("not_differentiable"):
            return self._check_hull(kind, ref, cand, tol)
        exp = _leaves(ref["f64"], [])
        encl = ref.get("enclosures") or [None] * len(exp)
        if len(cand) != len(exp):
            return VectorVerdict(self, kind, [(-1, len(cand), len(exp), math.inf,
                                              "the candidate has %d reals, the reference %d"
                                              % (len(cand), len(exp)))], 1)
        mism, checked = [], 0
        for i, (c, e) in enumerate(zip(cand, exp)):
            why = _grade(c, e, encl[i] if i < len(encl) else None, tol)
            if why is None:
                continue
            checked += 1
            if why:
                u = ulps(c, e) if isinstance(e, (int, float)) and c is not None else math.inf
                mism.append((i, c, e, u, why))
        return VectorVerdict(self, kind, mism, checked)

    def _check_hull(self, kind, ref, cand, tol):
        limits = [[float(x) if isinstance(x, (int, float)) else math.nan
                   for x in _leaves(l["f64"], [])] for l in ref["limits"]]
        n = len(limits[0])
        if len(cand) != n or any(c is None for c in cand):
            return VectorVerdict(self, kind, [(-1, len(cand), n, math.inf,
                                              "the candidate has %d reals, the limits %d"
                                              % (len(cand), n))], 1)
        c = np.array(cand)
        L = np.array(limits)
        if len(limits) == 2:
            a, d = L[0], L[1] - L[0]
            dd = float(d @ d)
            t = 0.0 if dd == 0 else min(1.0, max(0.0, float((c - a) @ d) / dd))
            near = a + t * d
            mism = [(i, float(c[i]), float(near[i]), ulps(c[i], near[i]),
                     "off the segment between the one-sided limits")
                    for i in range(n) if not _close(float(c[i]), float(near[i]), **tol)]
        else:
            lo, hi = L.min(axis=0), L.max(axis=0)
            mism = []
            for i in range(n):
                x = float(c[i])
                if not (lo[i] - tol["atol"] - tol["rtol"] * abs(lo[i]) <= x
                        <= hi[i] + tol["atol"] + tol["rtol"] * abs(hi[i])):
                    mism.append((i, x, (float(lo[i]), float(hi[i])),
                                 min(ulps(x, lo[i]), ulps(x, hi[i])),
                                 "outside the bounds of the one-sided limits"))
        return VectorVerdict(self, kind + " (at a kink)", mism, n)

    def _assert(self, kind, candidate, tol):
        v = self.check(kind, candidate, **tol)
        if not v.ok:
            raise AssertionError(str(v))
        return v

    def assert_value(self, candidate, **tol):
        return self._assert("value", candidate, tol)

    def assert_jvp(self, candidate, **tol):
        """candidate: the tangent of the result for self.tangent."""
        return self._assert("jvp", candidate, tol)

    def assert_vjp(self, candidate, **tol):
        """candidate: one cotangent per parameter for self.cotangent."""
        return self._assert("vjp", candidate, tol)


def _grade(c, e, enclosure, tol):
    """None: not graded; "": right; else why it is wrong."""
    if e == "undecided":
        return None
    if e == "undefined":
        return "" if c is None or not math.isfinite(c) else "the derivative does not exist here"
    if e in ("+infinity", "-infinity"):
        want = math.inf if e[0] == "+" else -math.inf
        return "" if c == want else "wrong"
    if c is None:
        return "missing"
    e = float(e)
    if c == e or _close(c, e, **tol):
        return ""
    if enclosure and enclosure.get("mid") not in (None, "+infinity", "-infinity") and \
            math.isfinite(c):
        import decimal
        mid, rad = decimal.Decimal(enclosure["mid"]), decimal.Decimal(enclosure["rad"])
        half = decimal.Decimal(float(np.spacing(abs(c)))) / 2
        if abs(decimal.Decimal(c) - mid) <= rad + half:
            return ""
    return "wrong"
