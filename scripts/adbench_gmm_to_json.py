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


def main(argv):
    paths = argv[1:]
    if len(paths) != 1:
        sys.exit(__doc__)
    toks = open(paths[0]).read().split()
    pos = 0

    def take(conv):
        nonlocal pos
        if pos >= len(toks):
            sys.exit(f"{paths[0]}: file ends early (token {pos + 1})")
        pos += 1
        return conv(toks[pos - 1])

    d, k, n = take(int), take(int), take(int)
    alphas = [take(float) for _ in range(k)]
    means = [[take(float) for _ in range(d)] for _ in range(k)]
    icf = [[take(float) for _ in range(d * (d + 1) // 2)] for _ in range(k)]
    x = [[take(float) for _ in range(d)] for _ in range(n)]
    gamma, m = take(float), take(int)
    if pos != len(toks):
        sys.exit(f"{paths[0]}: {len(toks) - pos} unexpected trailing tokens")
    out = {"alphas": alphas, "means": means, "icf": icf, "x": x,
           "gamma": gamma, "m": m}
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv)
