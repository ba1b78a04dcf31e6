"""chad check --candidate from Python: another tool's value and derivatives
graded entry by entry against the certified evaluator, by libchad's own
grader (chad_check_candidate, src/verdict.c, spec/verdict.md). The Verdict's
`json` is exactly what `chad check --json` prints for the same inputs."""
import collections
import ctypes
import json
import math

from . import _lib
from . import _types as T
from ._errors import InputError, UsageError, from_diag

STATUSES = ("correct", "acceptable", "wrong", "outside_domain", "undecided")

Entry = collections.namedtuple(
    "Entry", ["path", "status", "candidate", "reference", "enclosure", "ulps", "digits",
              "one_sided", "convention", "note", "mode", "output", "input"])
Entry.__doc__ = """One graded entry (spec/verdict.md §3, §6).

path: where in the candidate ("gradient[0][1]", "jacobian[2][0]", "value");
status: "correct", "acceptable", "wrong", "outside_domain" or "undecided";
candidate: the candidate as graded (a float, or text for ints and sides);
reference: the correctly rounded reference at the grading precision (a
float, inf, or None at a kink / where undefined or undecided); enclosure:
(mid, rad) exact decimal strings or None; ulps: the distance in ulps of the
grading format (None when not computed); digits: correct digits (inf when
exact, None when not computed); one_sided: at a kink, each one-sided
result's entry; convention: at a kink, the conventions the candidate
matches ("one-sided", "average", "minimal-norm"); note: the grader's
remark. mode, output and input are set by chad.gradcheck ("backward" or
"forward", and the names of the Jacobian entry's output and input
coordinates, e.g. "out[1]", "v[2]"); None otherwise."""

Kink = collections.namedtuple(
    "Kink", ["part", "status", "conventions", "matches", "branch_points", "complete",
             "limits"])
Kink.__doc__ = """A part of the candidate at a point where the derivative does
not exist (spec/verdict.md §4): its status, the conventions it matches and
the certified evaluator's branch points and one-sided results' sides."""

_WORDS = {"nan": math.nan, "+infinity": math.inf, "-infinity": -math.inf}


def _num(x):
    if isinstance(x, str):
        return _WORDS.get(x, x)
    return x


class Verdict:
    """The grading of a candidate: `status` (the report's "verdict": "ok",
    "wrong", "outside_domain", "undecided"), `exit_code` (that of `chad
    check --candidate`: 0, 6, 4, 5), `ok` (no entry wrong; also the truth
    value), `precision`, `tolerance`, `counts` ({status: n}), `entries`
    (Entry list), `wrong` (the wrong entries), `kinks` (Kink list) and
    `json` (the report as `chad check --json` prints it)."""

    def __init__(self, j, mode=None, names=None):
        self.json = j
        self.status = j["verdict"]
        self.exit_code = j["exit"]
        self.precision = j["precision"]
        self.tolerance = j["tolerance"]
        self.counts = dict(j["counts"])
        self.kinks = [Kink(k["part"], k["verdict"], tuple(k.get("conventions", ())),
                           k.get("matches"), k.get("branch_points", []), k.get("complete"),
                           k.get("limits", [])) for k in j.get("kinks", [])]
        conv = {k.part: k.conventions for k in self.kinks}
        self.entries = []
        for e in j["entries"]:
            enc = e.get("enclosure")
            ref = e.get("reference")
            out_in = names(e["path"]) if names else (None, None)
            self.entries.append(Entry(
                e["path"], e["verdict"], _num(e["candidate"]),
                None if ref is None or ref in ("undefined", "undecided") else _num(ref),
                (enc["mid"], enc["rad"]) if enc else None,
                e.get("ulps"), (math.inf if "digits" in e and e["digits"] is None
                                else e.get("digits")),
                e.get("one_sided"),
                conv.get(e["path"].split("[")[0].split(".")[0]) if e["verdict"] == "acceptable"
                else None,
                e.get("note"), mode, out_in[0], out_in[1]))

    @property
    def ok(self):
        return self.counts.get("wrong", 0) == 0

    def __bool__(self):
        return self.ok

    @property
    def wrong(self):
        return [e for e in self.entries if e.status == "wrong"]

    def summary(self):
        n = len(self.entries)
        parts = ["%d %s" % (self.counts[s], s.replace("_", " ")) for s in
                 ("wrong", "correct", "acceptable", "outside_domain", "undecided")
                 if self.counts.get(s)]
        s = "%s: %s of %d entr%s" % ("OK" if self.ok else "WRONG", ", ".join(parts) or "0", n,
                                     "y" if n == 1 else "ies")
        w = self.wrong
        if w:
            s += "; first wrong: %s" % _where(w[0])
        return s

    def __str__(self):
        lines = [self.summary()]
        for e in self.entries:
            if e.status == "correct":
                continue
            ref = e.reference if e.one_sided is None else "one-sided %s" % (e.one_sided,)
            lines.append("  %s%s: %s, candidate %r, reference %s%s%s%s" % (
                "%s: " % e.mode if e.mode else "", _where(e, False), e.status, e.candidate, ref,
                "" if e.ulps is None else " (%s ulps" % e.ulps,
                "" if e.ulps is None else ("" if e.digits is None else
                                           ", %.1f correct digits" % e.digits) + ")",
                "" if not e.note else ": " + e.note))
        for k in self.kinks:
            lines.append("  %s: not differentiable here; %s%s" % (
                k.part, k.status, " (%s)" % ", ".join(k.conventions) if k.conventions else ""))
        return "\n".join(lines)

    def __repr__(self):
        return "<chad.Verdict %s>" % self.summary()


def _where(e, error=True):
    s = e.path
    if e.output is not None:
        s += " (d %s / d %s)" % (e.output, e.input)
    if error and e.status == "wrong" and e.ulps is not None:
        s += " (%.2g ulps, %s correct digits)" % (e.ulps, "exact" if e.digits == math.inf
                                                  else "%.1f" % (e.digits or 0.0))
    return s


def retally(v):
    """Recomputes v's counts, status and exit code from its entries (after
    gradcheck drops or regrades some)."""
    v.counts = {s: sum(1 for e in v.entries if e.status == s) for s in STATUSES}
    for key, code in (("wrong", 6), ("outside_domain", 4), ("undecided", 5)):
        if v.counts[key]:
            v.status, v.exit_code = key, code
            break
    else:
        v.status, v.exit_code = "ok", 0
    return v


def merge(verdicts):
    """Verdicts of several gradings (gradcheck's backward and forward) as
    one: entries concatenated, counts added; its json is the list of theirs."""
    v = Verdict.__new__(Verdict)
    v.json = [x.json for x in verdicts]
    v.entries = sum((x.entries for x in verdicts), [])
    v.kinks = sum((x.kinks for x in verdicts), [])
    v.counts = {s: sum(x.counts.get(s, 0) for x in verdicts) for s in STATUSES}
    v.precision = verdicts[0].precision
    v.tolerance = verdicts[0].tolerance
    retally(v)
    return v


def candidate_text(candidate):
    """The candidate as JSON text: a str is taken as JSON text already; a
    chad Result as its output; else a Python value in the JSON conventions
    (numpy arrays, tuples, torch tensors), NaN and infinities written as the
    tokens the grader reads."""
    if isinstance(candidate, str):
        return candidate
    if hasattr(candidate, "json") and hasattr(candidate, "command"):   # a Result
        return json.dumps(candidate.json)
    return json.dumps(T._plain(candidate), allow_nan=True)


def grade(fn_obj, args, candidate, *, tangent=None, cotangent=None, ulps=None, rtol=None,
          precision="f64", mode=None, names=None):
    """chad_check_candidate on definition fn_obj (a chad.Function) at args
    (a sequence of the arguments or a dict by name). Returns a Verdict;
    usage, input and runtime errors raise as every command."""
    if precision not in ("f64", "f32"):
        raise UsageError("precision must be 'f64' or 'f32', not %r" % (precision,))
    if ulps is not None and rtol is not None:
        raise UsageError("give ulps or rtol, not both")
    if ulps is None:
        ulps = 2            # CHAD_CHECK_DEFAULT_ULPS
    if not (isinstance(ulps, int) and ulps >= 0):
        raise UsageError("ulps must be a nonnegative int, not %r" % (ulps,))
    if rtol is not None and not (0 < rtol < 1):
        raise UsageError("rtol must lie strictly between 0 and 1, not %r" % (rtol,))
    a = args if isinstance(args, dict) else list(args)
    try:
        ja = _lib.json_arg(T.to_json(a), "<args>")
        jt = None if tangent is None else _lib.json_arg(T.to_json(
            tangent if isinstance(tangent, dict) else list(tangent)), "<tangent>")
        jc = None if cotangent is None else _lib.json_arg(T.to_json(cotangent), "<cotangent>")
    except ValueError as e:
        raise InputError("%s (NaN and infinities have no JSON form)" % e) from None
    jcand = _lib.json_arg(candidate_text(candidate), "<candidate>")
    prog = fn_obj.program
    P = lambda j: ctypes.pointer(j) if j is not None else None     # noqa: E731
    if not _lib.HAS_CHECK:
        raise UsageError("this libchad does not export chad_check_candidate")
    o = _lib.CheckOpts(fn_obj.name.encode(), P(ja), P(jcand), P(jt), P(jc), ulps,
              float(rtol) if rtol is not None else 0.0, 1 if precision == "f32" else 0, 1)
    from ._program import _check_max_depth
    _check_max_depth(prog.max_depth)
    with _lib.LOCK:
        _lib.lib.chad_set_max_prec(prog.max_prec)
        _lib.lib.chad_set_heap_limit(prog.heap_bytes)
        _lib.lib.chad_set_max_depth(prog.max_depth)
        _lib.lib.chad_set_inline(prog._handle(), _lib.inline_mode(prog.inline))
        rc, out, d = _lib.call("chad_check_candidate", prog._handle(), ctypes.byref(o))
    if rc not in (0, 4, 5, 6) or out is None:
        raise from_diag(d)
    return Verdict(json.loads(out), mode, names)


__all__ = ["Verdict", "Entry", "Kink", "grade", "merge", "retally", "candidate_text"]
