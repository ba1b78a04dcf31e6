#!/usr/bin/env python3
"""PyTorch (float64) baseline: primal and gradient (backward) times.

usage: torch_bench.py WORKLOAD N K THREADS
Same output line as bench/fast_bench.c:
  workload n threads primal_s gradient_s ratio value gradient_checksum
The gradient time includes the forward pass that records the graph, as a
VJP must compute the primal too.
"""
import math
import sys
import time

import torch


def data(n):
    i = torch.arange(n, dtype=torch.float64)
    return torch.sin(0.37 * i) + 0.001 * torch.remainder(i, 97)


def f(w, x):
    if w == "sumsin":
        return torch.sum(torch.sin(x) * x)
    if w == "buildidx":
        return torch.sum(x * torch.roll(x, -1))
    raise SystemExit("unknown workload " + w)


def main():
    w, n, k, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    torch.set_num_threads(threads)
    x0 = data(n)
    bp = bg = math.inf
    y = chk = 0.0
    for _ in range(k):
        t0 = time.perf_counter()
        with torch.no_grad():
            y = f(w, x0).item()
        t1 = time.perf_counter()
        bp = min(bp, t1 - t0)
        x = x0.clone().requires_grad_(True)
        t2 = time.perf_counter()
        out = f(w, x)
        out.backward()
        g = x.grad
        t3 = time.perf_counter()
        bg = min(bg, t3 - t2)
        chk = g.sum().item()
    print(f"{w} {n} {threads} {bp:.6g} {bg:.6g} {bg / bp:.3f} {y:.12g} {chk:.12g}")


if __name__ == "__main__":
    main()
