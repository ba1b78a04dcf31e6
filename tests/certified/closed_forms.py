#!/usr/bin/python3
"""The certified evaluator against closed forms computed by an independent
tool (mpmath at 80 significant digits), at tail and edge points where
float64 formulas fail: each gradient entry `chad grad --eval ball` prints
must be the correctly rounded double of the closed form, and each
certificate's enclosure must contain it.

    tests/certified/closed_forms.py [CHAD_BINARY]      (default ./chad)

Ends with "N passed, N failed"; exits 1 if any check failed.
"""
import json
import os
import subprocess
import sys
import tempfile
from decimal import Decimal, getcontext

import mpmath as mp

mp.mp.dps = 80
getcontext().prec = 2000

CHAD = sys.argv[1] if len(sys.argv) > 1 else "./chad"

PROGRAM = """
def th (x : real) : real = tanh x
def sg (x : real) : real = sigmoid x
def ex (x : real) : real = exp x
def lg (x : real) : real = log x
def sq (x : real) : real = sqrt x
def tn (x : real) : real = tan x
def pw (x : real, y : real) : real = pow x y
def dv (x : real, y : real) : real = x / y
def lse (v : [real]) : real = logsumexp v
def comp (x : real) : real = log (1.0 + exp x) - x
"""

M = mp.mpf


def sech2(x):
    return mp.sech(x) ** 2


def sig_d(x):
    e = mp.exp(-abs(x))     # s (1 - s) would cancel even at 80 digits
    return e / (1 + e) ** 2


def softmax(v):
    m = max(v)
    e = [mp.exp(x - m) for x in v]
    t = sum(e)
    return [x / t for x in e]


# (function, args, closed form of the gradient: one entry per real input)
CASES = [
    ("th", [20.0], lambda x: [sech2(M(x))]),
    ("th", [-30.0], lambda x: [sech2(M(x))]),
    ("th", [300.0], lambda x: [sech2(M(x))]),
    ("th", [1e-8], lambda x: [sech2(M(x))]),
    ("sg", [40.0], lambda x: [sig_d(M(x))]),
    ("sg", [-40.0], lambda x: [sig_d(M(x))]),
    ("sg", [700.0], lambda x: [sig_d(M(x))]),
    ("sg", [-36.7], lambda x: [sig_d(M(x))]),
    ("ex", [709.7], lambda x: [mp.exp(M(x))]),
    ("ex", [-708.0], lambda x: [mp.exp(M(x))]),
    ("ex", [-740.0], lambda x: [mp.exp(M(x))]),  # a subnormal derivative
    ("lg", [1e-300], lambda x: [1 / M(x)]),
    ("lg", [1e300], lambda x: [1 / M(x)]),
    ("lg", [1.0000000000000002], lambda x: [1 / M(x)]),
    ("sq", [1e-300], lambda x: [1 / (2 * mp.sqrt(M(x)))]),
    ("sq", [5e-324], lambda x: [1 / (2 * mp.sqrt(M(x)))]),
    ("sq", [1e300], lambda x: [1 / (2 * mp.sqrt(M(x)))]),
    ("tn", [1.5707963267948966], lambda x: [mp.sec(M(x)) ** 2]),
    ("tn", [1e22], lambda x: [mp.sec(M(x)) ** 2]),
    ("pw", [2.0, 1000.5], lambda x, y: [M(y) * M(x) ** (M(y) - 1), M(x) ** M(y) * mp.log(M(x))]),
    ("pw", [0.5, 1070.0], lambda x, y: [M(y) * M(x) ** (M(y) - 1), M(x) ** M(y) * mp.log(M(x))]),
    ("pw", [5e-324, 1e-300], lambda x, y: [M(y) * M(x) ** (M(y) - 1), M(x) ** M(y) * mp.log(M(x))]),
    ("pw", [1.0000000000000002, 1e15], lambda x, y: [M(y) * M(x) ** (M(y) - 1), M(x) ** M(y) * mp.log(M(x))]),
    ("pw", [-2.0, 3.0], lambda x, y: [M(y) * M(x) ** (M(y) - 1), None]),  # d/dy undefined
    ("dv", [1e300, 1e160], lambda x, y: [1 / M(y), -M(x) / M(y) ** 2]),
    ("dv", [1e-300, 1e-170], lambda x, y: [1 / M(y), -M(x) / M(y) ** 2]),
    ("lse", [[0.0, -1000.0]], lambda v: [softmax([M(a) for a in v])]),
    ("lse", [[1e308, 1e308]], lambda v: [softmax([M(a) for a in v])]),
    ("lse", [[-745.0, 0.0, 745.0]], lambda v: [softmax([M(a) for a in v])]),
    ("comp", [40.0], lambda x: [1 / (1 + mp.exp(-M(x))) - 1]),  # cancels in doubles
    ("comp", [-800.0], lambda x: [1 / (1 + mp.exp(-M(x))) - 1]),
]


def rounded(x):
    """The correctly rounded double of an mpmath number (Python's float of a
    long decimal string is correctly rounded; 80 digits leave no double
    rounding at these points)."""
    if mp.isinf(x):
        return float(x)
    return float(mp.nstr(x, 78, strip_zeros=False, min_fixed=-mp.inf, max_fixed=mp.inf))


def flat(xs):
    for x in xs:
        if isinstance(x, list):
            yield from flat(x)
        else:
            yield x


def main():
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "closed.chad")
        with open(path, "w") as f:
            f.write(PROGRAM)
        for fn, args, closed in CASES:
            name = f"grad {fn} at {json.dumps(args)}"
            p = subprocess.run([CHAD, "grad", path, "--fn", fn, "--args", json.dumps(args),
                                "--eval", "ball", "--certificate"],
                               capture_output=True, text=True, timeout=120)
            want = list(flat(closed(*args)))
            has_undefined = any(w is None for w in want)
            if p.returncode != (4 if has_undefined else 0):
                failed += 1
                print(f"FAIL {name}: exit {p.returncode}: {p.stderr.strip()}")
                continue
            out = json.loads(p.stdout)
            got = list(flat(out["gradient"]))
            encl = out["certificate"]["enclosures"][1:]   # [0] is the value
            bad = []
            for i, (g, w) in enumerate(zip(got, want)):
                if w is None:
                    if g != "undefined":
                        bad.append(f"entry {i}: {g}, want \"undefined\"")
                    continue
                r = rounded(w)
                gv = {"+infinity": float("inf"), "-infinity": float("-inf")}.get(g, g)
                if gv != r:
                    bad.append(f"entry {i}: {g}, correctly rounded {r!r} (closed form {mp.nstr(w, 25)})")
                e = encl[i]
                if e is None or not isinstance(e, dict):
                    bad.append(f"entry {i}: no enclosure")
                    continue
                mid, rad = Decimal(e["mid"]), Decimal(e["rad"])
                wd = Decimal(mp.nstr(w, 78, min_fixed=-mp.inf, max_fixed=mp.inf))
                # the closed form itself is known to 78 digits
                if abs(mid - wd) > rad + abs(wd) * Decimal("1e-75"):
                    bad.append(f"entry {i}: the enclosure {e['mid']} +- {e['rad']} misses the closed form")
            if len(got) != len(want):
                bad.append(f"{len(got)} entries, want {len(want)}")
            if bad:
                failed += 1
                print(f"FAIL {name}: " + "; ".join(bad))
            else:
                passed += 1
                print(f"ok   {name}: {got}")
    print(f"closed-forms: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
