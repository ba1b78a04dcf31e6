#!/usr/bin/env python3
"""Random cases of the array words (spec/surface.md §4.1) against a model
in Python: concat, slice, reverse, update, zip, unzip, range and fold on
random arrays and indices, in range and out of it (then chad must exit 3
with the index error at the word).

    tests/cli/lang_random.py CHAD [SEED [N]]

Prints the seed; ends with "N passed, N failed"."""
import json
import random
import subprocess
import sys
import tempfile

PROG = """def ok (a : [real], b : [real], s : int, n : int, j : int, v : real) =
  (concat a b, slice a s n, reverse a, update a j v, zip a b, unzip (zip b a), range (length b),
   fold (length a) (fun i acc -> acc * 2.0 + a[i] * toreal i) v)
def bad_slice (a : [real], s : int, n : int) = slice a s n
def bad_update (a : [real], j : int, v : real) = update a j v
"""


def model(a, b, s, n, j, v):
    acc = v
    for i, x in enumerate(a):
        acc = acc * 2.0 + x * float(i)
    z = [[x, y] for x, y in zip(a, b)]
    zb = [[y, x] for x, y in zip(a, b)]
    upd = list(a)
    upd[j] = v
    # chad prints pairs nested to the right: (x1, (x2, ...))
    items = [a + b, a[s:s + n], a[::-1], upd, z, [[p[0] for p in zb], [p[1] for p in zb]], list(range(len(b))), acc]
    out = items[-1]
    for it in reversed(items[:-1]):
        out = [it, out]
    return out


def same(x, y):
    if isinstance(x, list) and isinstance(y, list):
        return len(x) == len(y) and all(same(p, q) for p, q in zip(x, y))
    if isinstance(x, (int, float)) and isinstance(y, (int, float)):
        return x == y
    return False


def main():
    chad = sys.argv[1]
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else random.SystemRandom().randrange(1 << 30)
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    print(f"lang_random: seed {seed} (rerun: tests/cli/lang_random.py {chad} {seed} {count})")
    rng = random.Random(seed)
    passed = failed = 0
    with tempfile.NamedTemporaryFile("w", suffix=".chad", delete=False) as f:
        f.write(PROG)
        path = f.name

    def run(fn, args):
        p = subprocess.run([chad, "eval", path, "--fn", fn, "--args", json.dumps(args)],
                           capture_output=True, text=True)
        return p.returncode, p.stdout, p.stderr

    def num():
        return rng.choice([0.0, 1.0, -2.5, 0.125, 3.0, rng.uniform(-4, 4)])

    for case in range(count):
        a = [num() for _ in range(rng.randrange(1, 7))]
        b = [num() for _ in range(rng.randrange(0, 7))]
        s = rng.randrange(0, len(a) + 1)
        n = rng.randrange(0, len(a) - s + 1)
        j = rng.randrange(0, len(a))
        v = num()
        rc, out, err = run("ok", [a, b, s, n, j, v])
        want = model(a, b, s, n, j, v)
        if rc == 0 and same(json.loads(out), want):
            passed += 1
        else:
            failed += 1
            print(f"FAIL case {case}: a={a} b={b} s={s} n={n} j={j} v={v}\n  chad: exit {rc} {out.strip()} {err.strip()}\n  want: {json.dumps(want)}")
        # out of range: slice past the end or before the start, update outside
        bs, bn = rng.choice([(len(a), 1), (len(a) - 1, 2), (-1, 1), (0, len(a) + 1)])
        bj = rng.choice([len(a), -1, len(a) + 5])
        for fn, args, col in (("bad_slice", [a, bs, bn], 48), ("bad_update", [a, bj, v], 50)):
            rc, out, err = run(fn, args)
            line = 4 if fn == "bad_slice" else 5
            if rc == 3 and out == "" and err.startswith(f"{path}:{line}:{col}: error: ") and "out of bounds" in err:
                passed += 1
            else:
                failed += 1
                print(f"FAIL case {case}: {fn} {json.dumps(args)}: exit {rc}, stderr {err.strip()}")
    print(f"lang_random: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
