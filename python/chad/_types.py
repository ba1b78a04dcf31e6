"""CHAD-C types as printed by libchad (spec/surface.md: `->` lowest, then
`+`, then `*`, all right associative; atoms real int unit bool [t] (t)),
and the type-directed conversions between Python values and the JSON
conventions (README "JSON conventions")."""
import json
import math
import re

import numpy as np

# A type is a tuple: ("real",), ("int",), ("unit",), ("bool",),
# ("prod", a, b), ("sum", a, b), ("arr", a), ("fun", a, b).
REAL, INT, UNIT, BOOL = ("real",), ("int",), ("unit",), ("bool",)
_TOKEN = re.compile(r"\s*(->|[A-Za-z_][A-Za-z_0-9]*|[\[\]()*+])")


def parse_type(text):
    toks = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise ValueError("cannot read the type %r at %d" % (text, pos))
        toks.append(m.group(1))
        pos = m.end()
    ty, k = _ty(toks, 0)
    if k != len(toks):
        raise ValueError("cannot read the type %r" % text)
    return ty


def _ty(t, k):
    a, k = _sum(t, k)
    if k < len(t) and t[k] == "->":
        b, k = _ty(t, k + 1)
        return ("fun", a, b), k
    return a, k


def _sum(t, k):
    a, k = _prod(t, k)
    if k < len(t) and t[k] == "+":
        b, k = _sum(t, k + 1)
        return ("sum", a, b), k
    return a, k


def _prod(t, k):
    a, k = _atom(t, k)
    if k < len(t) and t[k] == "*":
        b, k = _prod(t, k + 1)
        return ("prod", a, b), k
    return a, k


def _atom(t, k):
    if k >= len(t):
        raise ValueError("type ends early")
    x = t[k]
    if x == "(":
        a, k = _ty(t, k + 1)
        if k >= len(t) or t[k] != ")":
            raise ValueError("missing )")
        return a, k + 1
    if x == "[":
        a, k = _ty(t, k + 1)
        if k >= len(t) or t[k] != "]":
            raise ValueError("missing ]")
        return ("arr", a), k + 1
    if x in ("real", "int", "unit", "bool"):
        return (x,), k + 1
    raise ValueError("unknown type %r" % x)


def show_type(ty):
    k = ty[0]
    if k in ("real", "int", "unit", "bool"):
        return k
    if k == "arr":
        return "[%s]" % show_type(ty[1])
    sym = {"prod": " * ", "sum": " + ", "fun": " -> "}[k]
    return "(%s%s%s)" % (show_type(ty[1]), sym, show_type(ty[2]))


def split_header(line):
    """'def NAME (x : t, y : u) : r =' -> (NAME, [(x, t), (y, u)], r)."""
    m = re.match(r"def\s+([A-Za-z_][A-Za-z_0-9']*)\s*\(", line)
    if not m:
        raise ValueError("not a definition header: %r" % line)
    name = m.group(1)
    k = m.end()
    depth, start, parts = 0, k, []
    while k < len(line):
        c = line[k]
        if c in "([":
            depth += 1
        elif c in ")]":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(line[start:k])
            start = k + 1
        k += 1
    parts.append(line[start:k])
    rest = line[k + 1:].strip()
    params = []
    for p in parts:
        if not p.strip():
            continue
        pname, _, pty = p.partition(":")
        params.append((pname.strip(), parse_type(pty)))
    if not rest.startswith(":"):
        raise ValueError("no result type in %r" % line)
    rty = rest[1:].strip()
    if rty.endswith("="):
        rty = rty[:-1]
    return name, params, parse_type(rty)


# ---- Python -> JSON ---------------------------------------------------------
def _plain(x):
    """x with numpy arrays and scalars, torch tensors and tuples made JSON."""
    if isinstance(x, (str, bool, int, float)) or x is None:
        return x
    if hasattr(x, "detach") and hasattr(x, "cpu") and hasattr(x, "numpy"):  # a torch tensor
        x = x.detach().cpu().numpy()
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    raise TypeError("cannot pass a %s to CHAD-C (JSON conventions: numbers, None, bool, "
                    "tuples/lists, dicts {'inl': v} / {'inr': v}, numpy arrays)" % type(x).__name__)


def to_json(x):
    """JSON text of x; ValueError for NaN or infinities (no JSON form)."""
    return json.dumps(_plain(x), allow_nan=False)


# ---- JSON -> Python ---------------------------------------------------------
WORDS = {"+infinity": math.inf, "-infinity": -math.inf, "undefined": math.nan,
         "undecided": math.nan}


def _real(j):
    if isinstance(j, str):
        if j not in WORDS:
            raise ValueError("unexpected word %r in a real position" % j)
        return WORDS[j]
    return float(j)


def _real_array(js, leaf):
    return np.array([leaf(j) for j in js], dtype=np.float64)


def _stack(items):
    """A list of converted array elements as one ndarray when they are
    ndarrays of one shape and kind, else as a list."""
    if items and all(isinstance(a, np.ndarray) for a in items):
        shapes = {a.shape for a in items}
        kinds = {a.dtype.kind for a in items}
        if len(shapes) == 1 and len(kinds) == 1:
            return np.stack(items)
    return items


def value(ty, j, leaf=_real):
    """The Python value of a JSON value of type ty: real float, int int,
    unit None, bool bool, a * b tuple, a + b {'inl': v} / {'inr': v} (bool
    True/False), [real] / [int] numpy arrays ([[real]] 2-D when
    rectangular), other arrays lists."""
    k = ty[0]
    if k == "real":
        return leaf(j)
    if k == "int":
        return int(j)
    if k == "unit":
        return None
    if k == "bool" or isinstance(j, bool):
        return bool(j) if isinstance(j, bool) else j
    if k == "prod":
        return (value(ty[1], j[0], leaf), value(ty[2], j[1], leaf))
    if k == "sum":
        if "inl" in j:
            return {"inl": value(ty[1], j["inl"], leaf)}
        return {"inr": value(ty[2], j["inr"], leaf)}
    if k == "arr":
        e = ty[1]
        if e == REAL:
            return _real_array(j, leaf)
        if e == INT:
            return np.array([int(x) for x in j], dtype=np.int64)
        return _stack([value(e, x, leaf) for x in j])
    raise ValueError("a value of type %s has no JSON form" % show_type(ty))


def tangent(ty, j, leaf=_real):
    """The Python value of a tangent / cotangent of type ty (README: real a
    float, int and unit None, a pair or a sum a tuple (da, db), an array of
    reals a float ndarray, other arrays lists); JSON null is None."""
    if j is None:
        return None
    k = ty[0]
    if k == "real":
        return leaf(j)
    if k in ("int", "unit", "bool"):
        return None
    if k in ("prod", "sum"):
        return (tangent(ty[1], j[0], leaf), tangent(ty[2], j[1], leaf))
    if k == "arr":
        e = ty[1]
        if e == REAL:
            return _real_array(j, leaf)
        return _stack([tangent(e, x, leaf) for x in j])
    raise ValueError("a tangent of type %s has no JSON form" % show_type(ty))


def matrix(j, leaf=_real):
    """A Jacobian's rows as a 2-D float ndarray."""
    if not j:
        return np.zeros((0, 0))
    return np.array([[leaf(x) for x in row] for row in j], dtype=np.float64).reshape(len(j), -1)


def mask_leaf(word):
    """A leaf for value / tangent / matrix giving 1.0 where the JSON has the
    word (e.g. "undefined"), else 0.0; as_bool turns the result into a mask."""
    return lambda j: 1.0 if (isinstance(j, str) and j == word) else 0.0


def as_bool(x):
    if isinstance(x, np.ndarray):
        return x.astype(bool) if x.dtype.kind == "f" else np.zeros(x.shape, dtype=bool)
    if isinstance(x, float):
        return bool(x)
    if isinstance(x, tuple):
        return tuple(as_bool(v) for v in x)
    if isinstance(x, list):
        return [as_bool(v) for v in x]
    if isinstance(x, dict):
        return {k: as_bool(v) for k, v in x.items()}
    return False
