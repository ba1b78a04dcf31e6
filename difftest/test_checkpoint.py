#!/usr/bin/python3
"""Tests of the campaign's checkpoint (difftest/checkpoint.py) and of the
report's counts per primitive and per construct (difftest/features.py)
(make test-difftest).

- A small campaign with --checkpoint writes one line per case and
  precision. Cut after a few results (and a half-written line, as a stop
  leaves it), the rerun resumes: it says how many results it read, grades
  the rest, and its report is the uninterrupted run's. A record it read is
  used as read, not graded again (a count added to it by hand shows in the
  report).
- A run of fewer programs reads the results of the first ones and grades
  nothing: its counts are the sums of their records.
- A checkpoint of another run (another seed) is moved aside, not used.
- features(): primitives and constructs as words, indexing, comments;
  region(): the coarse kinds of wrong numbers.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))
from tally import check, summary  # noqa: E402
from features import features, region, signature  # noqa: E402

RUN = os.path.join(HERE, "run.py")
SEED, N = 3, 16



def campaign(ck, report, seed=SEED, n=N):
    p = subprocess.run([RUN, "--groups", "generated", "--generated", str(n), "--seed", str(seed),
                        "--precisions", "f64", "--checkpoint", ck, "--report", report, "--quiet"],
                       capture_output=True, text=True)
    check(p.returncode == 0, f"campaign exit {p.returncode}: {p.stdout[-1000:]}{p.stderr[-1000:]}")
    return p.stdout


def tables(report):
    """The report without its timing: what must not depend on stopping."""
    with open(report) as f:
        return re.sub(r"graded in \d+ s", "", f.read())


def main():
    prims, cons = features("def f (v : [[real]], x : real) : real =\n"
                           "  (* sin (* nested *) cos *) let y = tanh v[0][1] in # exp\n"
                           "  iter 2 (fun (a : real) -> a * y) (pow x 2.0)")
    check(prims == {"tanh", "pow"}, f"primitives: {prims}")
    check(cons == {"let", "iter", "fun", "index"}, f"constructs: {cons}")
    check(features("def f (v : [real]) : [real] = v")[1] == set(), "a type [real] is not indexing")
    check(region(0.0, 1.7e-17) == "0 for a nonzero", "region: flushed to 0")
    check(region("+infinity", 2e23) == "overflow to infinity", "region: overflow")
    check(region(-1.0, 1.0) == "wrong sign", "region: sign")
    check(region(2.2e-16, 1.15e-16) == "relative error 1e0", f"region: {region(2.2e-16, 1.15e-16)}")
    check(signature("tanh", {"entry": "vjp.cotangent[0]", "candidate": 0.0, "reference": 1e-17}, "f32")
          == ("tanh", "0 for a nonzero", "vjp", "f32"), "signature")

    with tempfile.TemporaryDirectory() as d:
        print(f"test_checkpoint: seed {SEED}, {N} generated programs", flush=True)
        ck, full, resumed = (os.path.join(d, n) for n in ("ck.jsonl", "full.md", "resumed.md"))
        campaign(ck, full)
        with open(ck) as f:
            lines = f.read().splitlines()
        check(len(lines) == N + 1, f"one line per case and a header: {len(lines)}")
        # stopped after 5 results, while writing the 6th
        with open(ck, "w") as f:
            f.write("\n".join(lines[:6]) + "\n" + lines[6][:20])
        out = campaign(ck, resumed)
        check("resuming from" in out and "5 case results" in out, f"resumed: {out[:300]}")
        check(tables(resumed) == tables(full), "the resumed run's report is the uninterrupted run's")
        with open(ck) as f:
            again = f.read().splitlines()
        check(len(again) == N + 1 and all(json.loads(x) for x in again), "the checkpoint complete again")
        # a record is used as read: one undecided entry added by hand shows in the report
        r = json.loads(again[1])
        r["stats"]["undecided"] = r["stats"].get("undecided", 0) + 1
        again[1] = json.dumps(r)
        with open(ck, "w") as f:
            f.write("\n".join(again) + "\n")
        campaign(ck, resumed)
        m = re.search(r"^\| all \| (.*) \|$", tables(resumed), re.M)
        cols = m.group(1).split(" | ") if m else []
        check(len(cols) == 8 and cols[6] == "1", f"the record read is used, not graded again: {cols}")
        # fewer programs: the counts of their records, nothing graded
        half = N // 2
        out = campaign(ck, os.path.join(d, "half.md"), n=half)
        want = {}
        for line in again[1:]:
            r = json.loads(line)
            if int(re.search(r"generated program (\d+)", r["key"]).group(1)) < half:
                for v, c in r["stats"].items():
                    if isinstance(c, int):
                        want[v] = want.get(v, 0) + c
        m = re.search(r"^\| all \| (.*) \|$", tables(os.path.join(d, "half.md")), re.M)
        verdicts = ("correct", "acceptable", "wrong", "wrong-f64-too", "wrong-zero-noise", "outside_domain",
                    "undecided", "system-error")
        check(m and m.group(1).split(" | ") == [str(want.get(v, 0)) for v in verdicts],
              f"{half} programs read from the checkpoint: {m and m.group(1)} vs {want}")
        with open(ck) as f:
            check(len(f.read().splitlines()) == N + 1, "the results of the others kept")
        # another seed: the checkpoint is not used
        out = campaign(ck, os.path.join(d, "other.md"), seed=SEED + 1)
        check("starting over" in out and os.path.exists(ck + ".stale") and "resuming" not in out,
              f"another run's checkpoint moved aside: {out[:300]}")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
