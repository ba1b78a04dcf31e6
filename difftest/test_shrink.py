#!/usr/bin/python3
"""Tests of the campaign's shrinking and replay (make test-difftest).

A deliberately wrong PyTorch (--inject-fault sin: torch.sin's derivative
scaled by 1.25, its value kept) is run on generated programs at a fixed
seed. Every finding must be shrunk to a small program that still uses sin
and still fails the same way, or, when its signature is that of a finding
shrunk already, point to that one's reproducer (and then not be shrunk
again); every reproducer must replay (exit 0) while the same reproducer
without the fault must not (exit 1): the replay checks something. With a
shrink budget of 0 s no finding is shrunk and each still replays. The
input simplifier is also checked on a predicate of its own.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))
from tally import check, summary  # noqa: E402
from shrink import simplify_inputs  # noqa: E402

RUN = os.path.join(HERE, "run.py")
SEED, N = 7, 24   # program 9 of seed 7 has sin on a differentiated path; 16, 20, 22 the same signature



def main():
    # the input simplifier alone: keeps the predicate, makes numbers simpler
    inputs = {"args": [[0.25, 0.75, 0.5], 3.14159], "tangent": [[0.1, 0.2, 0.3], 0.7], "cotangent": 0.123}
    out, _ = simplify_inputs(inputs, lambda i: len(i["args"][0]) >= 2 and i["args"][1] > 3.0)
    check(out["args"] == [[0.0, 0.0], 3.1] and out["tangent"] == [[0.0, 0.0], 0.0]
          and out["cotangent"] == 0.0, f"simplify_inputs: {out}")

    with tempfile.TemporaryDirectory() as rec:
        print(f"test_shrink: seed {SEED}, {N} generated programs, torch.sin made wrong", flush=True)
        p = subprocess.run([RUN, "--groups", "generated", "--generated", str(N), "--seed", str(SEED),
                            "--precisions", "f64", "--inject-fault", "sin", "--record", rec, "--quiet"],
                           capture_output=True, text=True)
        check(p.returncode == 0, f"campaign with a fault: exit {p.returncode}: {p.stderr[-2000:]}")
        files = sorted(glob.glob(os.path.join(rec, "*.json")))
        check(len(files) >= 1, "the injected fault is found in a generated program")
        names = {os.path.basename(f)[:-5] for f in files}
        same = 0
        for f in files:
            with open(f) as fh:
                r = json.load(fh)
            name = os.path.basename(f)
            if "same_as" in r:   # deduplicated: its signature's reproducer is in the folder, shrunk
                same += 1
                with open(os.path.join(rec, r["same_as"] + ".json")) as fh:
                    target = json.load(fh)
                check(r["same_as"] in names and "shrunk" in target and "shrunk" not in r,
                      f"{name}: the signature of {r['same_as']}, which is shrunk")
                if same == 1:   # one replay of the kind is enough (each costs seconds)
                    q = subprocess.run([RUN, "--replay", f], capture_output=True, text=True)
                    check(q.returncode == 0, f"{name}: replay exit {q.returncode}: {q.stdout[-500:]}")
                continue
            sh = r.get("shrunk")
            check(sh is not None, f"{name}: shrunk")
            if sh is None:
                continue
            before, after = sh["nodes"]
            # the shrinker keeps the output's shape: sin of a parameter's
            # entry is 4 nodes, 6 where the output pairs it with an array
            # (program 6: `(sin x3[0], x3)`)
            check(after < before and after <= 6, f"{name}: {before} -> {after} nodes (at most 6 expected)")
            check("sin" in r["source"], f"{name}: the minimal program keeps sin: {r['source']!r}")
            check(r["verdict"] == "wrong" and r["fault"] == "sin", f"{name}: verdict {r['verdict']}")
            check(r["torch"] and sh["source"] != r["source"], f"{name}: the original and the PyTorch version kept")
            q = subprocess.run([RUN, "--replay", f], capture_output=True, text=True)
            check(q.returncode == 0 and "reproduced" in q.stdout,
                  f"{name}: replay exit {q.returncode}: {q.stdout[-500:]}{q.stderr[-500:]}")
            # the control: the same reproducer against the real torch.sin
            del r["fault"]
            ctl = os.path.join(rec, "control.json")
            with open(ctl, "w") as fh:
                json.dump(r, fh)
            q = subprocess.run([RUN, "--replay", ctl], capture_output=True, text=True)
            check(q.returncode == 1 and "not reproduced" in q.stdout,
                  f"{name} without the fault: replay exit {q.returncode}: {q.stdout[-500:]}")
            os.remove(ctl)
        print(f"test_shrink: {len(files)} reproducers, {same} of them by signature", flush=True)
        check(same < len(files), f"not every finding deduplicated: {same} of {len(files)}")
    with tempfile.TemporaryDirectory() as rec:
        p = subprocess.run([RUN, "--groups", "generated", "--generated", "12", "--seed", str(SEED),
                            "--precisions", "f64", "--inject-fault", "sin", "--record", rec, "--quiet",
                            "--shrink-budget", "0"], capture_output=True, text=True)
        check(p.returncode == 0, f"campaign with a 0 s shrink budget: exit {p.returncode}: {p.stderr[-2000:]}")
        files = sorted(glob.glob(os.path.join(rec, "*.json")))
        check(len(files) >= 1, "the fault found with a 0 s shrink budget")
        for f in files:
            with open(f) as fh:
                r = json.load(fh)
            sh = r.get("shrunk")
            check(sh is None or (sh.get("budget_spent") == 0 and sh["nodes"][0] == sh["nodes"][1]),
                  f"{os.path.basename(f)}: not shrunk with no budget: {sh}")
            q = subprocess.run([RUN, "--replay", f], capture_output=True, text=True)
            check(q.returncode == 0, f"{os.path.basename(f)}: replay exit {q.returncode}")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
