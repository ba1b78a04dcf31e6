#!/usr/bin/env python3
"""Converts an ADBench bundle-adjustment instance (ba/*.txt) to the JSON
arguments of examples/ba.chad's `ba`, and holds a plain-Python reference of
the objective (used by bench/ba_check.sh).

ADBench format (whitespace-separated, the benchmark's compressed form):
"n m p", then ONE camera (11 numbers), ONE point (3), ONE weight (1) and ONE
feature (2). ADBench's reader replicates them: n cameras, m points, p
weights and features all equal to the ones given, and observation i sees
point i % m with camera i % n.

ba.chad takes the inputs gathered per observation (camera of observation i
at 11 i, its point at 3 i, weight i, feature at 2 i): each observation's
2 x 15 Jacobian block (11 camera + 3 point + 1 weight) is then the gradient
of its two outputs, which is the block ADBench's Jacobian holds.

Usage: scripts/adbench_ba_to_json.py IN.txt [--obs P] [--perturb SEED] > OUT.json
  --obs P         the first P observations only
  --perturb SEED  every camera, point, weight and feature perturbed (relative
                  1e-2, reproducibly) so that observations differ (tests)
"""
import json
import math
import random
import sys


def read_ba(path, obs=None, perturb=None):
    toks = open(path).read().split()
    if len(toks) < 20:
        sys.exit(f"{path}: expected n m p and 17 numbers, got {len(toks)} tokens")
    n, m, p = int(toks[0]), int(toks[1]), int(toks[2])
    nums = [float(t) for t in toks[3:20]]
    cam0, x0, w0, f0 = nums[0:11], nums[11:14], nums[14], nums[15:17]
    if obs is not None:
        p = min(p, obs)
    rnd = random.Random(perturb)
    def jig(v):
        return v * (1 + 1e-2 * (2 * rnd.random() - 1)) if perturb is not None else v
    cams = [[jig(v) for v in cam0] for _ in range(n)]
    pts = [[jig(v) for v in x0] for _ in range(m)]
    cam, pt, w, feat = [], [], [], []
    for i in range(p):
        cam += cams[i % n]
        pt += pts[i % m]
        w.append(jig(w0))
        feat += [jig(v) for v in f0]
    return n, m, p, cam, pt, w, feat


def ba_obs_ref(cam, x, w, feat):
    """ADBench's computeReprojError and computeZachWeightError."""
    r, c = cam[0:3], cam[3:6]
    y = [x[k] - c[k] for k in range(3)]
    sqt = sum(v * v for v in r)
    if sqt != 0:
        th = math.sqrt(sqt)
        ct, st = math.cos(th), math.sin(th)
        wv = [v / th for v in r]
        cr = [wv[1] * y[2] - wv[2] * y[1], wv[2] * y[0] - wv[0] * y[2], wv[0] * y[1] - wv[1] * y[0]]
        t = sum(wv[k] * y[k] for k in range(3)) * (1 - ct)
        xc = [y[k] * ct + cr[k] * st + wv[k] * t for k in range(3)]
    else:
        cr = [r[1] * y[2] - r[2] * y[1], r[2] * y[0] - r[0] * y[2], r[0] * y[1] - r[1] * y[0]]
        xc = [y[k] + cr[k] for k in range(3)]
    p0, p1 = xc[0] / xc[2], xc[1] / xc[2]
    rsq = p0 * p0 + p1 * p1
    l = 1 + cam[9] * rsq + cam[10] * rsq * rsq
    f = cam[6]
    return (w * (p0 * l * f + cam[7] - feat[0]), w * (p1 * l * f + cam[8] - feat[1])), 1 - w * w


def main(argv):
    args = argv[1:]
    obs = perturb = None
    path = None
    while args:
        a = args.pop(0)
        if a == "--obs" and args:
            obs = int(args.pop(0))
        elif a == "--perturb" and args:
            perturb = int(args.pop(0))
        elif path is None and not a.startswith("--"):
            path = a
        else:
            sys.exit(__doc__)
    if path is None:
        sys.exit(__doc__)
    _, _, _, cam, pt, w, feat = read_ba(path, obs, perturb)
    json.dump([cam, pt, w, feat], sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv)
