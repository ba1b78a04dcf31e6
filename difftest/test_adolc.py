#!/usr/bin/python3
"""Tests of `chad export --to adolc` and of the ADOL-C batches
(make test-difftest).

- A program with every construct the export has (pairs, a sum and case,
  closures, iter, build, map, index, length, sum, dot, matvec, ints,
  comparisons) exported, compiled and run: its value, VJP, JVP graded by
  chad check at 2 ulps, all correct; and so is an array result's Jacobian.
- Two programs in one translation unit: each line goes to its program.
- A runtime error (an index out of bounds) is reported as an error line; a
  line for a program the batch does not have too.
- A primitive ADOL-C has no elementary function for is refused, exit 2,
  at the definition's file:line:col, naming it.
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
import adolc  # noqa: E402

CHAD = os.environ.get("CHAD", os.path.join(os.path.dirname(HERE), "chad"))

ALL = """def all (x : real, v : [real], n : int) : real * (real + int) =
  let p = (x * 2.0, length v) in
  let f = fun (a : real) -> a * fst p + sin a in
  let w = map f v in
  let s = iter n (fun (acc : real) -> acc * x + 1.0) 0.5 in
  let b = build (snd p) (fun i -> w[i] * toreal i) in
  let m = [v, b] in
  let r = if x < s then (inl (sum (matvec m v) + dot v b) : real + int) else inr (n % 3) in
  (tanh s + exp (-x) * fmax_ x, r)
""".replace("fmax_ x", "max x (abs x)")
ARR = "def arr (x : real, v : [real]) : [real] = map (fun (a : real) -> atan2 a x * cosh a) (vscale x v)\n"
OOB = "def oob (v : [real]) : real = v[3]\n"
SIG = "def sig (x : real) : real =\n  sigmoid x\n"



def write(d, name, text):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def grade(path, args, tangent, cot, out):
    cand = {"value": out["value"], "vjp": {"direction": cot, "cotangent": out["vjp"]},
            "jvp": {"direction": tangent, "tangent": out["jvp"]}}
    if "jacobian" in out:
        cand["jacobian"] = out["jacobian"]
    p = subprocess.run([CHAD, "check", path, "--args", json.dumps(args), "--candidate", json.dumps(cand),
                        "--ulps", "2", "--json"], capture_output=True, text=True)
    return p.returncode, (json.loads(p.stdout) if p.stdout.strip() else p.stderr)


def main():
    with tempfile.TemporaryDirectory() as d:
        pa, pr, po = write(d, "all.chad", ALL), write(d, "arr.chad", ARR), write(d, "oob.chad", OOB)
        texts = [adolc.export(CHAD, p) for p in (pa, pr, po)]
        exe = adolc.compile_batch(texts, d, "batch")
        cases = [(0, pa, [0.5, [1.0, -2.0, 0.25], 4], [1.0, [0.5, -1.0, 2.0], None], [1.0, [1.0, None]]),
                 (0, pa, [3.0, [1.0, -2.0], 0], [1.0, [0.5, -1.0], None], [0.5, [None, None]]),   # the inr side
                 (1, pr, [0.75, [1.0, -2.0, 0.0]], [1.0, [0.5, -1.0, 2.0]], [1.0, -1.0, 0.5])]
        lines = [adolc.input_line(k, a, t, c) for k, _, a, t, c in cases]
        lines += [adolc.input_line(2, [[1.0, 2.0]], [[1.0, 1.0]], 1.0), "7 1.0"]
        outs = adolc.run_batch(exe, lines)
        for (k, p, a, t, c), line in zip(cases, outs):
            out = json.loads(line)
            rc, rep = grade(p, a, t, c, out)
            parts = sorted({e["path"].split("[")[0].split(".")[0] for e in rep["entries"]}) if rc != 2 else []
            check(rc == 0 and rep["verdict"] == "ok", f"program {k} at {a}: chad check exit {rc}: {str(rep)[:600]}")
            want = ["jacobian", "jvp", "value", "vjp"] if k == 1 else ["jvp", "value", "vjp"]
            check(parts == want, f"program {k}: graded parts {parts}")
        check(json.loads(outs[3]) == {"error": "index out of bounds"}, f"out of bounds: {outs[3]}")
        check("error" in json.loads(outs[4]), f"no such program: {outs[4]}")
        # refused: sigmoid has no ADOL-C elementary function
        ps = write(d, "sig.chad", SIG)
        q = subprocess.run([CHAD, "export", ps, "--to", "adolc"], capture_output=True, text=True)
        check(q.returncode == 2 and q.stdout == "" and
              re.search(re.escape(ps) + r":1:1: error: export --to adolc: 'sig' uses sigmoid, which has no ADOL-C export",
                        q.stderr), f"sigmoid refused: exit {q.returncode}: {q.stderr}")
        q = subprocess.run([CHAD, "export", ps, "--to", "cppad"], capture_output=True, text=True)
        check(q.returncode == 1 and "torch and adolc" in q.stderr, f"unknown target: exit {q.returncode}: {q.stderr}")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
