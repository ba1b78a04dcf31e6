# chad check --candidate's convex-hull test at a kink, against exact
# arithmetic. f(p) = max (a.p) (b.p) + abs (g.p) at p = 0 has the four
# one-sided gradients a +- g, b +- g, whose convex hull is
# {a + l (b - a) + s g : 0 <= l <= 1, -1 <= s <= 1}. Candidates
# c = a + l (b - a) + s g with dyadic l, s (exact doubles), some on the
# boundary, are graded with --ulps 0 (the tolerance box is the point c):
# acceptable iff l in [0, 1] and s in [-1, 1] (b - a and g independent).
# A second family uses only max (two one-sided results).
#   python3 tests/certified/hull_random.py CHAD [CASES]
import json
import os
import random
import subprocess
import sys
import tempfile

chad = sys.argv[1]
cases = int(sys.argv[2]) if len(sys.argv) > 2 else 40
rnd = random.Random(2034)
tmp = tempfile.mkdtemp()
prog = os.path.join(tmp, "h.chad")
bad = 0
n = 0


def dot(v):
    return " + ".join(f"{float(c)!r} * x{i}" for i, c in enumerate(v))


def run(cand):
    r = subprocess.run([chad, "check", prog, "--args", "[0.0, 0.0, 0.0]", "--ulps", "0", "--json",
                        "--candidate", json.dumps({"gradient": cand})], capture_output=True, text=True)
    if r.returncode not in (0, 6):
        raise SystemExit(f"unexpected exit {r.returncode}: {r.stderr}")
    return r.returncode, json.loads(r.stdout)


for case in range(cases):
    a = [rnd.randint(-4, 4) for _ in range(3)]
    b = [rnd.randint(-4, 4) for _ in range(3)]
    g = [rnd.randint(-4, 4) for _ in range(3)]
    use_abs = case % 2 == 0
    d = [bb - aa for aa, bb in zip(a, b)]
    cross = [d[1] * g[2] - d[2] * g[1], d[2] * g[0] - d[0] * g[2], d[0] * g[1] - d[1] * g[0]]
    if use_abs and all(c == 0 for c in cross):
        continue
    if not use_abs and all(c == 0 for c in d):
        continue
    body = f"max ({dot(a)}) ({dot(b)})" + (f" + abs ({dot(g)})" if use_abs else "")
    with open(prog, "w") as f:
        f.write(f"def h (x0 : real, x1 : real, x2 : real) : real = {body}\n")
    for _ in range(4):
        l = rnd.choice([0, 1, rnd.randint(-2, 10) / 8])
        s = rnd.choice([-1, 1, rnd.randint(-10, 10) / 8]) if use_abs else 0
        c = [aa + l * dd + s * gg for aa, dd, gg in zip(a, d, g)]
        want = 0 <= l <= 1 and -1 <= s <= 1
        rc, rep = run(c)
        got = rc == 0
        n += 1
        if got != want:
            bad += 1
            print(f"mismatch: {body} candidate {c} (l={l}, s={s}): want {'acceptable' if want else 'wrong'}, "
                  f"got exit {rc}: {rep['kinks']}")
        # the corners are named one-sided, the centre (abs: s = 0, l = 1/2) the average
        if want and (l in (0, 1)) and (not use_abs or s in (-1, 1)):
            conv = rep["kinks"][0].get("conventions", "") if rep["kinks"] else ""
            if "one-sided" not in conv:
                bad += 1
                print(f"not named one-sided: {body} candidate {c}: {conv}")
print(f"hull: {n} candidates, {bad} mismatches")
sys.exit(1 if bad else 0)
