#!/usr/bin/env python3
"""Tests of scripts/mutation.py's object-code comparison (spec/mutation.md
"Same object code"): a mutant whose objects, debug sections left out, are
the original's is the same program; one whose objects are another mutant's
takes that mutant's result. Checks that the digest ignores what only the
debug sections record (columns) and sees every change of code, that the
result lines carrying a twin are read back from a log, and that a survivor
is classified through its twin. Prints "FAIL name ..." per failed check and
"mutation-code: N passed, N failed"; exits 1 on a failure."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import M, check, finish  # noqa: E402


# the flags of the mutation build that matter here: optimised, with debug information
FLAGS = ["-std=c11", "-O2", "-g", "-fPIC", "-ftrivial-auto-var-init=pattern", "-c"]
ORIG = """int f(int a, int b) {
  int s = 0;
  if (a < b) s = a + 1;
  else s = b * 3;
  return s;
}
"""
VARIANTS = {  # name: (source, same code as ORIG?)
    "spaces within a line": (ORIG.replace("if (a < b) s", "if (a < b)    s"), True),
    "condition negated twice (ROR < to >= and NEG)": (ORIG.replace("(a < b)", "(!(a >= b))"), True),
    "+ to -": (ORIG.replace("a + 1", "a - 1"), False),
    "1 to 2": (ORIG.replace("a + 1", "a + 2"), False),
    "< to <=": (ORIG.replace("a < b", "a <= b"), False),
    "statement dropped": (ORIG.replace("  else s = b * 3;\n", "  else {}\n"), False),
}

with tempfile.TemporaryDirectory() as d:
    def obj(name, text):
        c, o = os.path.join(d, name + ".c"), os.path.join(d, name + ".o")
        with open(c, "w") as f:
            f.write(text)
        subprocess.run(["cc"] + FLAGS + [c, "-o", o], check=True)
        return o

    # every file compiled under one name, so that the file name in the debug
    # sections is the same and only the text decides
    def compiled(text):
        o = obj("t", text)
        with open(o, "rb") as f:
            raw = f.read()
        return raw, M.object_digest(o)

    raw0, dig0 = compiled(ORIG)
    check("digest of the original", dig0 is not None and len(dig0) == 40, str(dig0))
    check("digest deterministic", compiled(ORIG)[1] == dig0)
    for name, (text, same) in VARIANTS.items():
        raw, dig = compiled(text)
        check(f"{name}: {'same' if same else 'different'} code", (dig == dig0) == same, f"{dig} vs {dig0}")
        if name == "spaces within a line":
            # the raw objects differ (the columns in the debug sections): the
            # digest must leave them out to see the same code
            check("spaces within a line: raw objects differ", raw != raw0)
    check("no digest of a file that is not an object", M.object_digest(os.path.join(d, "t.c")) is None)

# a twin's result lines, read back from a log
ids = {"src/t.c:f:AOR:+:-:00000001": "src/t.c:3:18", "src/t.c:f:ROR:<:>=:00000002": "src/t.c:3:9",
       "src/t.c:f:NEG:(a < b):(!(a < b)):00000003": "src/t.c:3:6", "src/t.c:f:CRP:3:4:00000004": "src/t.c:4:18"}


class Mut:
    def __init__(self, i):
        self.id, self.file = i, "src/t.c"


by_id = {i: Mut(i) for i in ids}
lines = [
    "mutation seed 5: 4 of 9 mutants, suites unit, -j1, commit abc1234",
    "[1/4] killed src/t.c:f:AOR:+:-:00000001 @src/t.c:3:18 (test_t) 2s (build 1s)",
    "[2/4] FAIL mutant survived: src/t.c:f:ROR:<:>=:00000002 @src/t.c:3:9 40s (build 1s)",
    "[3/4] FAIL mutant survived: src/t.c:f:NEG:(a < b):(!(a < b)):00000003 @src/t.c:3:6 1s (build 1s) "
    "same code as src/t.c:f:ROR:<:>=:00000002",
    "[4/4] same-code src/t.c:f:CRP:3:4:00000004 @src/t.c:4:18 (object code identical to the original) 1s (build 1s)",
]
with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
    f.write("\n".join(lines) + "\n")
res, secs, meta = M.read_logs([f.name], by_id)
os.unlink(f.name)
got = {m.id: (r, why, twin) for m, r, why, twin in res}
check("log: four results", len(res) == 4, str(len(res)))
check("log: killed with its suite", got.get("src/t.c:f:AOR:+:-:00000001") == ("killed", "test_t", None))
check("log: a survivor's twin read",
      got.get("src/t.c:f:NEG:(a < b):(!(a < b)):00000003") == ("survived", "", "src/t.c:f:ROR:<:>=:00000002"),
      str(got.get("src/t.c:f:NEG:(a < b):(!(a < b)):00000003")))
check("log: same-code read", got.get("src/t.c:f:CRP:3:4:00000004", ("",))[0] == "same-code")
check("log: unaccounted survivors noted", meta["failed"] == {"src/t.c:f:ROR:<:>=:00000002",
                                                             "src/t.c:f:NEG:(a < b):(!(a < b)):00000003"})
equiv = {"src/t.c:f:ROR:<:>=:00000002": "argued"}
check("classify: a twin of an equivalent mutant is equivalent",
      M.classify("survived", "src/t.c:f:NEG:(a < b):(!(a < b)):00000003", "src/t.c:f:ROR:<:>=:00000002",
                 equiv, {}) == "equivalent")
check("classify: without its twin listed it survives",
      M.classify("survived", "src/t.c:f:NEG:(a < b):(!(a < b)):00000003", None, equiv, {}) == "survived")
check("classify: a kill stays a kill", M.classify("killed", "src/t.c:f:ROR:<:>=:00000002", None, equiv, {}) == "killed")

sys.exit(finish("mutation-code"))
