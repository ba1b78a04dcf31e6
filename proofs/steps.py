#!/usr/bin/env python3
"""Steps and times of the prover attempts in WP logs, for the step limits
of PROVE_LIMITS=steps (proofs/README.md "Step limits").

    proofs/steps.py build/proofs/wp-JOB.log...

WP prints a proved goal as "[wp] [PROVER] Goal G : Valid (Qed:..) (TIME)
(STEPS)" when the prover reports its steps (Z3's :rlimit-count, CVC4's
resourceUnitsUsed, cvc5's with --stats-internal through
proofs/cvc5-steps.drv). Per prover: the goals it proved, the largest
steps, the steps at the 50th/90th/99th percentile, and the rate, steps
per second over the attempts of at least 0.1 s (shorter ones are mostly
process start-up)."""
import re
import sys

LINE = re.compile(r"^\[wp\] \[([^\]]+)\] Goal (\S+) : Valid \((?:Qed:[^)]*)\) \(([^)]*)\) \((\d+)\)")


def seconds(text):
    m = re.fullmatch(r"(\d+)ms", text)
    if m:
        return int(m.group(1)) / 1000
    m = re.fullmatch(r"([\d.]+)s", text)
    if m:
        return float(m.group(1))
    m = re.fullmatch(r"(\d+)'(\d+)s?", text)
    if m:
        return int(m.group(1)) * 60 + int(m.group(2))
    return None


def main(paths):
    per = {}
    for path in paths:
        for line in open(path, errors="replace"):
            m = LINE.match(line)
            if m:
                t = seconds(m.group(3))
                if t is not None:
                    per.setdefault(m.group(1), []).append((int(m.group(4)), t, m.group(2)))
    print("prover | goals | max steps (goal, s) | p50 | p90 | p99 | steps/s (attempts >= 0.1 s) | attempts >= 0.1 s")
    for prover, rows in sorted(per.items()):
        steps = sorted(r[0] for r in rows)
        q = lambda f: steps[min(len(steps) - 1, int(f * len(steps)))]
        top = max(rows)
        long = [r for r in rows if r[1] >= 0.1]
        rate = sum(r[0] for r in long) / sum(r[1] for r in long) if long else float("nan")
        print(f"{prover} | {len(rows)} | {top[0]} ({top[2]}, {top[1]}) | {q(.5)} | {q(.9)} | {q(.99)} | {rate:.0f} | {len(long)}")


if __name__ == "__main__":
    main(sys.argv[1:])
