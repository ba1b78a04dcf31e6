#!/usr/bin/python3
"""`chad export --to torch` computes what `chad eval` computes
(make test-difftest).

Every definition of every example program (examples/*.chad,
examples/check/*.chad), and the generated programs of a property-test run
(PROPTEST_EMIT at a printed seed), exported and run in float64: the value
must have chad eval's shape exactly (pairs, sum tags, array lengths, ints
equal) and its reals within ULPS units in the last place of chad eval's
(PyTorch's elementary functions and reductions are not glibc's: they may
differ by an ulp or two at each step). Where a generated program is
ill-conditioned (`x3 + log 3` at x3 = -1.0989...: a last-bit difference in
log becomes thousands of ulps) the two may be farther apart; then the
certified reference decides: the export's value must be graded correct by
`chad check --rtol 1e-9`, a thousand times tighter than the campaign's. A runtime error of the program
(chad's exit 3) must be one in the export too (ChadRuntimeError), and the
other way round. A definition gets the arguments of its program's .json
(or examples/*_test.json) when it is the last one, else a point made from
its parameter types.

    difftest/test_export.py [N [SEED]]     N generated programs (default 200)
"""
import glob
import json
import math
import os
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))
from tally import check, summary  # noqa: E402
import run  # noqa: E402

import torch  # noqa: E402

ROOT = os.path.dirname(HERE)
ULPS = 16   # measured: 2 at most on the examples, 2 to 6 on 200 generated programs (seeds 11, 28886)
RTOL = 1e-9   # beyond ULPS: the export within this of the exact value (chad check)
worst = [0, ""]
by_reference = []   # programs beyond ULPS decided by the certified reference



def ordered(x):
    """A float64 as an integer, monotone in x (ulps apart = difference)."""
    i = struct.unpack("<q", struct.pack("<d", x))[0]
    return i if i >= 0 else -(i & 0x7FFFFFFFFFFFFFFF)


def num(x):
    if isinstance(x, str):
        return {"+infinity": math.inf, "-infinity": -math.inf, "nan": math.nan}[x]
    return float(x)


def same(ty, a, b, where):
    """a (chad eval's JSON) and b (the export's) agree at type ty; else why not."""
    k = ty[0]
    if k == "real":
        x, y = num(a), num(b)
        if math.isnan(x) or math.isnan(y):
            return None if math.isnan(x) and math.isnan(y) else f"{where}: {a!r} vs {b!r}"
        if math.isinf(x) or math.isinf(y):
            return None if x == y else f"{where}: {a!r} vs {b!r}"
        u = abs(ordered(x) - ordered(y))
        if u > worst[0]:
            worst[:] = [u, where]
        return None if u <= ULPS else f"{where}: {a!r} vs {b!r} ({u} ulps)"
    if k in ("int", "unit"):
        return None if a == b else f"{where}: {a!r} vs {b!r}"
    if k == "pair":
        return same(ty[1], a[0], b[0], where + ".0") or same(ty[2], a[1], b[1], where + ".1")
    if k == "sum":
        if ty[1] == ("unit",) and ty[2] == ("unit",):
            return None if a == b else f"{where}: {a!r} vs {b!r}"
        tag = next(iter(a))
        if not isinstance(b, dict) or tag not in b:
            return f"{where}: {a!r} vs {b!r}"
        return same(ty[1] if tag == "inl" else ty[2], a[tag], b[tag], f"{where}.{tag}")
    if k == "arr":
        if not isinstance(b, list) or len(a) != len(b):
            return f"{where}: length {len(a)} vs {len(b) if isinstance(b, list) else b!r}"
        return next((r for i, (x, y) in enumerate(zip(a, b)) if (r := same(ty[1], x, y, f"{where}[{i}]"))), None)
    if k == "fun":
        return None
    return f"{where}: no comparison for {ty!r}"


def point(ty, k=[0]):
    """A point of type ty: reals 0.25, 0.5, ... (varied), ints 2, arrays of 3."""
    kind = ty[0]
    if kind == "real":
        k[0] += 1
        return 0.25 * (1 + k[0] % 7)
    if kind == "int":
        return 2
    if kind == "unit":
        return []
    if kind == "pair":
        return [point(ty[1]), point(ty[2])]
    if kind == "sum":
        return {"inl": point(ty[1])}
    if kind == "arr":
        return [point(ty[1]) for _ in range(3)]
    raise TypeError(ty)


def agree(path, fn, args, label):
    """chad eval and the export of fn in path at args agree."""
    m = run.load_module(path, fn)
    if args is None:
        try:
            args = [point(t) for t in m.PARAM_TYPES]
        except TypeError:
            print(f"  skip {label}: a parameter of function type")
            return
    rc, out, err = run.chad("eval", path, *(["--fn", fn] if fn else []), "--args", json.dumps(args))
    m.set_dtype(torch.float64)
    try:
        y = m.function(*[m.from_json(t, a, []) for t, a in zip(m.PARAM_TYPES, args)])
        got, raised = m.to_json(m.RESULT_TYPE, y), None
    except m.ChadRuntimeError as e:
        got, raised = None, e
    if rc == 3 or raised is not None:
        check(rc == 3 and raised is not None,
              f"{label}: a runtime error in one only: chad exit {rc} ({err[:200]}), export {raised!r}")
        return
    check(rc == 0 and out is not None, f"{label}: chad eval exit {rc}: {err[:300]}")
    if rc == 0 and out is not None:
        got = json.loads(json.dumps(got))
        why = same(m.RESULT_TYPE, out, got, f"{label}: value")
        if why is not None and "ulps)" in why:   # only far apart: is the export's value right?
            fd, cand = tempfile.mkstemp(suffix=".json")
            with os.fdopen(fd, "w") as f:
                json.dump({"value": got}, f)
            rc2, rep, err2 = run.chad("check", path, *(["--fn", fn] if fn else []), "--args", json.dumps(args),
                                      "--candidate", "@" + cand, "--rtol", repr(RTOL), "--json")
            os.remove(cand)
            ok = rep is not None and all(e["verdict"] == "correct" for e in rep["entries"])
            if ok:
                by_reference.append(why)
                why = None
            else:
                why += f"; chad check --rtol {RTOL}: exit {rc2} {err2[:200]} {json.dumps(rep)[:300]}"
        check(why is None, why)


def example_args(path, fn, last):
    if not last:
        return None
    for cand in (path[:-5] + ".json", path[:-5] + "_test.json", path[:-5] + "_args.json"):
        if os.path.exists(cand):
            with open(cand) as f:
                a = json.load(f)
            if isinstance(a, dict):   # keyed by name: the definition's order
                names = run.load_module(path, fn).PARAM_NAMES
                a = [a[n] for n in names]
            return a
    return None


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else int(time.time()) % 100000
    files = sorted(glob.glob(os.path.join(ROOT, "examples", "*.chad")) +
                   glob.glob(os.path.join(ROOT, "examples", "check", "*.chad")))
    ndefs = 0
    for path in files:
        p = subprocess.run([run.CHAD, "check", path], capture_output=True, text=True)
        names = [line.split(" : ")[0] for line in p.stdout.splitlines() if " : " in line]
        check(p.returncode == 0 and names, f"{path}: chad check exit {p.returncode}")
        for i, fn in enumerate(names):
            ndefs += 1
            agree(path, fn, example_args(path, fn, i == len(names) - 1), f"{os.path.relpath(path, ROOT)} {fn}")
    print(f"test_export: {ndefs} definitions of {len(files)} example programs; "
          f"{n} generated programs at seed {seed} (difftest/test_export.py {n} {seed})", flush=True)
    for case in run.generated_cases(n, seed):
        agree(case.path, None, case.args, case.label)
    print(f"test_export: the farthest real {worst[0]} ulps from chad eval's ({worst[1]}); beyond {ULPS}, "
          f"{len(by_reference)} correct to --rtol {RTOL} by the certified reference")
    for why in by_reference:
        print(f"  {why}")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
