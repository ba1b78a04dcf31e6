#!/usr/bin/env python3
"""PyTorch (float64) baseline: primal and gradient (backward) times.

usage: torch_bench.py WORKLOAD SIZE K THREADS
  WORKLOAD sumsin | buildidx (SIZE = n), mlp (SIZE = hidden = input width),
  gmm (SIZE = an ADBench GMM file), ba (SIZE = an ADBench BA file)
Same output line as bench/fast_bench.c:
  workload size threads primal_s gradient_s ratio nan nan value gradient_checksum
The gradient time includes the forward pass that records the graph, as a
VJP must compute the primal too. Inputs and objectives are those of
bench/fast_bench.c and the .chad programs: the gradient is taken with respect
to every real parameter (the checksum is the sum of its entries); BA's
Jacobian is three backward passes over the per-observation inputs (seeds on
every x error, every y error, every weight error), as fast_bench does.
"""
import math
import os
import sys
import time

import torch

T = torch.float64


def data(n):
    i = torch.arange(n, dtype=T)
    return torch.sin(0.37 * i) + 0.001 * torch.remainder(i, 97)


def f(w, x):
    if w == "sumsin":
        return torch.sum(torch.sin(x) * x)
    if w == "buildidx":
        return torch.sum(x * torch.roll(x, -1))
    raise SystemExit("unknown workload " + w)


# ---- MLP (bench/programs/mlp.chad) -----------------------------------------
def mlp_inputs(h):
    return [data(h * h).reshape(h, h) / math.sqrt(h), data(h), data(h), torch.tensor(0.5, dtype=T)]


def mlp(w1, w2, x, y):
    out = torch.sum(w2 * torch.tanh(w1 @ x))
    return (out - y) * (out - y)


# ---- GMM (examples/gmm.chad; lgd, its Wishart constant, a constant here) ------
def gmm_inputs(path):
    toks = open(path).read().split()
    d, k, n = int(toks[0]), int(toks[1]), int(toks[2])
    q = d * (d + 1) // 2
    vals = [float(t) for t in toks[3:]]
    pos = 0

    def take(c):
        nonlocal pos
        pos += c
        return torch.tensor(vals[pos - c:pos], dtype=T)

    alphas = take(k)
    means = take(k * d).reshape(k, d)
    icf = take(k * q).reshape(k, q)
    x = take(n * d).reshape(n, d)
    gamma, m = vals[pos], int(vals[pos + 1])
    nn = d + m + 1
    lgd = 0.25 * d * (d - 1) * math.log(math.pi) + sum(math.lgamma(0.5 * nn + 0.5 * (1 - j)) for j in range(1, d + 1))
    # the strictly lower part of Q, column by column (gmm.chad's q_index)
    S = torch.zeros(d * d, q - d, dtype=T)
    j = 0
    for i in range(d):
        for r in range(i + 1, d):
            S[r * d + i, j] = 1.0
            j += 1
    return [alphas, means, icf, x, torch.tensor(gamma, dtype=T)], (m, S, lgd)


def gmm(alphas, means, icf, x, gamma, m, S, lgd):
    n, d = x.shape
    k = alphas.shape[0]
    diag = icf[:, :d]
    sum_qs = diag.sum(1)
    Q = torch.diag_embed(torch.exp(diag)) + (icf[:, d:] @ S.T).reshape(k, d, d)
    xc = x[:, None, :] - means[None, :, :]
    qx = torch.einsum("kri,nki->nkr", Q, xc)
    main = torch.logsumexp(alphas + sum_qs - 0.5 * (qx * qx).sum(2), 1).sum()
    wish = (0.5 * gamma * gamma * (torch.exp(2 * diag).sum(1) + (icf[:, d:] ** 2).sum(1)) - m * sum_qs).sum()
    nr, dr = float(n), float(d)
    nn = dr + m + 1
    cw = nn * dr * (torch.log(gamma) - 0.5 * math.log(2.0)) - lgd
    return -nr * dr * 0.5 * math.log(2 * math.pi) + main - nr * torch.logsumexp(alphas, 0) + wish - k * cw


# ---- BA (examples/ba.chad's `ba`, gathered per observation) -------------------
def ba_inputs(path):
    toks = open(path).read().split()
    p = int(toks[2])
    if os.environ.get("BA_OBS"):
        p = min(p, int(os.environ["BA_OBS"]))
    v = [float(t) for t in toks[3:20]]
    one = lambda a: torch.tensor(a, dtype=T).repeat(p, 1)
    return [one(v[0:11]), one(v[11:14]), torch.full((p,), v[14], dtype=T), one(v[15:17])]


def ba(cam, pt, w, feat):
    r = cam[:, 0:3]
    y = pt - cam[:, 3:6]
    th = torch.sqrt((r * r).sum(1, keepdim=True))
    ct, st = torch.cos(th), torch.sin(th)
    wv = r / th
    t = (wv * y).sum(1, keepdim=True) * (1 - ct)
    xc = y * ct + torch.cross(wv, y, dim=1) * st + wv * t
    pp = xc[:, 0:2] / xc[:, 2:3]
    rsq = (pp * pp).sum(1, keepdim=True)
    l = 1 + cam[:, 9:10] * rsq + cam[:, 10:11] * rsq * rsq
    reproj = w[:, None] * (pp * l * cam[:, 6:7] + cam[:, 7:9] - feat)
    return reproj, 1 - w * w


def main():
    w, size, k, threads = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    torch.set_num_threads(threads)
    extra = ()
    if w == "mlp":
        inputs, fn, label = mlp_inputs(int(size)), mlp, f"{size}x{size}"
    elif w == "gmm":
        inputs, extra = gmm_inputs(size)
        fn = gmm
        d, kk, n = inputs[1].shape[1], inputs[0].shape[0], inputs[3].shape[0]
        label = f"d{d}_K{kk}_n{n}"
    elif w == "ba":
        inputs, fn = ba_inputs(size), ba
        hdr = open(size).read().split()[:2]
        label = f"n{hdr[0]}_m{hdr[1]}_p{inputs[2].shape[0]}"
    else:
        inputs, fn, label = [data(int(size))], (lambda x: f(w, x)), size
    bp = bg = math.inf
    y = chk = 0.0
    for _ in range(k):
        t0 = time.perf_counter()
        with torch.no_grad():
            out = fn(*inputs, *extra)
            y = (out[0].sum() + out[1].sum()).item() if w == "ba" else out.item()
        t1 = time.perf_counter()
        bp = min(bp, t1 - t0)
        xs = [a.clone().requires_grad_(True) for a in inputs]
        t2 = time.perf_counter()
        if w == "ba":
            reproj, werr = fn(*xs)
            p = werr.shape[0]
            rows = []
            for s in range(3):
                seed_r = torch.zeros(p, 2, dtype=T)
                if s < 2:
                    seed_r[:, s] = 1.0
                seed_w = torch.ones(p, dtype=T) if s == 2 else torch.zeros(p, dtype=T)
                gc, gp, gw = torch.autograd.grad((reproj, werr), xs[:3], (seed_r, seed_w), retain_graph=s < 2)
                rows.append(torch.cat([gc, gp, gw[:, None]], 1) if s < 2 else gw[:, None])
            jac = torch.cat(rows, 1)   # p x 31, as fast_bench's
            t3 = time.perf_counter()
            chk = jac.sum().item()
        else:
            out = fn(*xs, *extra)
            out.backward()
            t3 = time.perf_counter()
            chk = sum(a.grad.sum().item() for a in xs)
        bg = min(bg, t3 - t2)
    print(f"{w} {label} {threads} {bp:.6g} {bg:.6g} {bg / bp:.3f} nan nan {y:.12g} {chk:.12g}")


if __name__ == "__main__":
    main()
