"""What a program contains, for the report's counts per primitive and per
construct, and the signature of a finding, for difftest/run.py.

A program *contains* a primitive or a construct when its source has it as
a word (`tanh`, `iter`, ...) or, for indexing, as `e[i]`. Arithmetic and
comparison operators are not counted (almost every program has them; `+`
and `*` are also type operators). Counting is of the program, not of
where its entries' errors come from: an entry of a program with tanh and
sin counts under both.
"""
import math
import re

PRIMITIVES = ("sin cos tan exp log sqrt tanh sigmoid pow max min abs neg toreal log1p expm1 softplus atan "
              "erf erfc lgamma sinh cosh asinh acosh atanh exp2 log2 atan2 hypot floor ceil round trunc "
              "sign vadd vmul vscale dot matvec logsumexp").split()
# the language's constructs by their keyword; `index` is e[i]
CONSTRUCTS = ("let fun if case inl inr fst snd iter build map sum length fold concat slice reverse update "
              "zip unzip range").split() + ["index"]

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_INDEX = re.compile(r"(?<=[\w)\]])\[")


def _strip_comments(src):
    src = re.sub(r"#[^\n]*", "", src)
    while "(*" in src:   # nested comments: innermost first
        new = re.sub(r"\(\*(?:(?!\(\*)[\s\S])*?\*\)", "", src)
        if new == src:
            break
        src = new
    return src


def features(src):
    """(primitives, constructs) the program's source contains, as sets."""
    src = _strip_comments(src)
    words = set(_WORD.findall(src))
    prims = {p for p in PRIMITIVES if p in words}
    cons = {c for c in CONSTRUCTS if c in words}
    if _INDEX.search(src):
        cons.add("index")
    return prims, cons


def _num(x):
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return float(x)
    if isinstance(x, str):
        return {"+infinity": math.inf, "-infinity": -math.inf, "nan": math.nan}.get(x)
    return None


def region(candidate, reference):
    """How a wrong number is wrong, coarsely: the region part of a
    finding's signature."""
    c, r = _num(candidate), _num(reference)
    if c is None or r is None:
        return "not a number"
    if math.isnan(c):
        return "NaN"
    if math.isinf(c) and not math.isinf(r):
        return "overflow to infinity"
    if c == 0 and r != 0:
        return "0 for a nonzero"
    if r == 0 and c != 0:
        return "nonzero for 0"
    if (c < 0) != (r < 0):
        return "wrong sign"
    return "relative error 1e%d" % round(math.log10(max(abs(c - r) / abs(r), 1e-300)))


def signature(prim, rec, prec):
    """(primitive, region, mode, precision): findings that share it are the
    same discrepancy; the campaign shrinks one of them."""
    mode = rec["entry"].split(".")[0].split("[")[0]
    return (prim, region(rec.get("candidate"), rec.get("reference")), mode, prec)
