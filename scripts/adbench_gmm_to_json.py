#!/usr/bin/env python3
"""Converts an ADBench GMM instance (gmm/*.txt) to the JSON arguments of
examples/gmm.chad.

ADBench format (whitespace-separated): "d k n", then alphas (k numbers),
means (k rows of d), icf (k rows of d(d+1)/2), x (n rows of d), "gamma m".

The arguments are those numbers as they are (gmm.chad computes the Wishart
prior's constant itself, with lgamma).

Usage: scripts/adbench_gmm_to_json.py IN.txt > OUT.json
"""
import json
import sys

from adbench_tokens import Tokens


def main(argv):
    paths = argv[1:]
    if len(paths) != 1:
        sys.exit(__doc__)
    t = Tokens(paths[0])
    d, k, n = t.take(int), t.take(int), t.take(int)
    alphas = [t.take(float) for _ in range(k)]
    means = t.rows(k, d)
    icf = t.rows(k, d * (d + 1) // 2)
    x = t.rows(n, d)
    gamma, m = t.take(float), t.take(int)
    t.done()
    out = {"alphas": alphas, "means": means, "icf": icf, "x": x,
           "gamma": gamma, "m": m}
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv)
