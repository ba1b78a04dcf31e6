#!/usr/bin/env python3
"""Checks examples/ba.chad against ADBench's BA objective (the plain-Python
reference of scripts/adbench_ba_to_json.py) and its Jacobian against finite
differences. Run by bench/run.sh before the BA timings; exits 1 on failure.

usage: ba_check.py CHAD FAST_BENCH BA_DIR [C_ADBENCH]
1. `chad eval ba` (--eval fast and --eval ref) on ADBench's test.txt with
   every input perturbed (so that observations differ) and on the shipped
   ba1_n49_m7776_p31843.txt: every output = the reference, relative 1e-12.
2. `chad jacobian --fn ba_obs --mode rev` and `--mode fwd` at 3 perturbed
   observations = central finite differences of the reference (relative 1e-6).
3. The Jacobian fast_bench times (three VJPs of the vectorised `ba`) has the
   checksum of p copies of ba_obs's Jacobian on test.txt (relative 1e-10).
4. With C_ADBENCH (bench/baselines/adbench.c): its hand-written Jacobian of
   observation 0 of test.txt = ba_obs's, entry by entry (relative 1e-12).
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from adbench_ba_to_json import ba_obs_ref, read_ba  # noqa: E402

failures = 0


def report(ok, what):
    global failures
    print(("ok   " if ok else "FAIL ") + what)
    failures += 0 if ok else 1


def rel(a, b):
    return abs(a - b) / max(1.0, abs(b))


def chad(args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"ba_check: {' '.join(args[:3])}... failed: {r.stderr.strip()}")
    return json.loads(r.stdout)


def check_eval(chad_bin, path, perturb, name):
    n, m, p, cam, pt, w, feat = read_ba(path, None, perturb)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump([cam, pt, w, feat], f)
    ref = [ba_obs_ref(cam[11 * i:11 * i + 11], pt[3 * i:3 * i + 3], w[i], feat[2 * i:2 * i + 2]) for i in range(p)]
    for ev in ("fast", "ref"):
        out = chad([chad_bin, "eval", "examples/ba.chad", "--fn", "ba", "--args", "@" + f.name, "--eval", ev])
        reproj, werr = out
        err = max(max(rel(reproj[2 * i], ref[i][0][0]), rel(reproj[2 * i + 1], ref[i][0][1]),
                      rel(werr[i], ref[i][1])) for i in range(p))
        report(len(reproj) == 2 * p and len(werr) == p and err <= 1e-12,
               f"BA objective, {name} ({p} observations), --eval {ev}: max relative error {err:.1e}")
    os.unlink(f.name)


def flat_ref(v):
    cam, x, w, feat = v[0:11], v[11:14], v[14], v[15:17]
    (ex, ey), we = ba_obs_ref(cam, x, w, feat)
    return [ex, ey, we]


def check_jacobian(chad_bin, path):
    n, m, p, cam, pt, w, feat = read_ba(path, None, 7)
    for i in (0, 3, 8):
        args = [cam[11 * i:11 * i + 11], pt[3 * i:3 * i + 3], w[i], feat[2 * i:2 * i + 2]]
        v = args[0] + args[1] + [args[2]] + args[3]
        fd = [[0.0] * 17 for _ in range(3)]
        for j in range(17):
            h = 1e-6 * max(1.0, abs(v[j]))
            up, dn = list(v), list(v)
            up[j] += h
            dn[j] -= h
            fu, fdn = flat_ref(up), flat_ref(dn)
            for r in range(3):
                fd[r][j] = (fu[r] - fdn[r]) / (2 * h)
        for mode in ("rev", "fwd"):
            out = chad([chad_bin, "jacobian", "examples/ba.chad", "--fn", "ba_obs", "--args", json.dumps(args),
                        "--mode", mode])
            J = out["jacobian"]
            err = max(abs(J[r][j] - fd[r][j]) / max(1.0, abs(fd[r][j])) for r in range(3) for j in range(17))
            report(len(J) == 3 and all(len(row) == 17 for row in J) and err <= 1e-6,
                   f"BA Jacobian of observation {i} (3 x 17, --mode {mode}) = central differences: max error {err:.1e}")


def check_bench_jacobian(chad_bin, fast_bench, path):
    n, m, p, cam, pt, w, feat = read_ba(path)
    out = chad([chad_bin, "jacobian", "examples/ba.chad", "--fn", "ba_obs", "--args",
                json.dumps([cam[0:11], pt[0:3], w[0], feat[0:2]]), "--mode", "rev"])
    # fast_bench's block has no feature columns (ADBench differentiates by
    # cameras, points and weights only): drop the last two columns
    want = p * sum(sum(row[:15]) for row in out["jacobian"])
    r = subprocess.run([fast_bench, "ba", "examples/ba.chad", "ba", path, "1"], capture_output=True, text=True)
    fields = r.stdout.split()
    got = float(fields[9]) if r.returncode == 0 and len(fields) >= 10 else float("nan")
    report(rel(got, want) <= 1e-10,
           f"fast_bench's BA Jacobian (three VJPs of `ba`, p = {p}) = p blocks of ba_obs's: checksum {got:.12g} vs {want:.12g}")


def check_c_jacobian(chad_bin, c_adbench, path):
    n, m, p, cam, pt, w, feat = read_ba(path)
    out = chad([chad_bin, "jacobian", "examples/ba.chad", "--fn", "ba_obs", "--args",
                json.dumps([cam[0:11], pt[0:3], w[0], feat[0:2]]), "--mode", "rev"])
    J = out["jacobian"]
    want = J[0][:15] + J[1][:15] + [J[2][14]]
    r = subprocess.run([c_adbench, "ba", path, "1"], capture_output=True, text=True,
                       env=dict(os.environ, BA_DUMP="1", OMP_NUM_THREADS="1"))
    got = [float(t) for t in r.stderr.split()] if r.returncode == 0 else []
    err = max((rel(a, b) for a, b in zip(got, want)), default=float("inf"))
    report(len(got) == 31 and err <= 1e-12,
           f"hand-written C BA Jacobian of observation 0 = ba_obs's (31 entries): max error {err:.1e}")


def main():
    if len(sys.argv) not in (4, 5):
        raise SystemExit(__doc__)
    chad_bin, fast_bench, d = sys.argv[1:4]
    test = os.path.join(d, "test.txt")
    check_eval(chad_bin, test, 1, "ADBench test.txt perturbed")
    big = [f for f in sorted(os.listdir(d)) if f.startswith("ba") and f.endswith(".txt")]
    for f in big[:1]:
        check_eval(chad_bin, os.path.join(d, f), None, f)
    check_jacobian(chad_bin, test)
    check_bench_jacobian(chad_bin, fast_bench, test)
    if len(sys.argv) == 5:
        check_c_jacobian(chad_bin, sys.argv[4], test)
    print(f"ba_check: {failures} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
