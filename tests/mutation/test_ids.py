#!/usr/bin/env python3
"""Tests of scripts/mutation.py's mutant ids (spec/mutation.md "Mutant ids"):
an id survives edits away from its mutant (lines inserted above it, another
function changed) and becomes stale, never another mutant's, when the code
around the mutation changes. Prints "FAIL name ..." per failed check and
"mutation-ids: N passed, N failed"; exits 1 on a failure."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import M, ROOT, check, finish  # noqa: E402
M.collect_type_names()


def mutants(text, rel="src/t.c"):
    return {m.id: m for m in M.generate(None, rel, text)[1]}


BASE = """\
#include <stddef.h>
/* two functions with mutants of every kind */
static int f(int a, int b) {
  int s = 0;
  for (int i = 0; i < a; i++) s += b;
  if (a > b && b != 0) s = s * 2 - 1;
  return s;
}
static int g(int x) {
  int y = x + 1;
  int z = x + 1;
  if (y > 3) y = 0;
  return y * z + g2(x, y);
}
"""

# 1. lines inserted above every mutant: the same ids, each at its new place
base = mutants(BASE)
check("the sample has mutants of both functions",
      {m.fn for m in base.values()} == {"f", "g"}, str({m.fn for m in base.values()}))
moved = mutants(BASE.replace("#include <stddef.h>\n",
                             "#include <stddef.h>\n/* a new comment\n   of three lines */\n\n"))
check("lines inserted above: the same ids", set(moved) == set(base),
      f"{len(set(base) - set(moved))} ids lost")
check("lines inserted above: each id found 3 lines lower, same change",
      all(moved[i].line == base[i].line + 3 and moved[i].col == base[i].col and
          (moved[i].orig, moved[i].repl) == (base[i].orig, base[i].repl) for i in base if i in moved))

# 2. another function edited: the ids of f unchanged
edited = mutants(BASE.replace("  if (y > 3) y = 0;\n", "  if (y > 3) y = 0;\n  y = y - x * 7;\n"))
fid = {i for i, m in base.items() if m.fn == "f"}
check("an edit in g leaves every id of f", fid <= set(edited), f"{len(fid - set(edited))} lost")
check("the edit adds mutants to g only",
      all(edited[i].fn == "g" for i in set(edited) - set(base)))

# 3. an edit next to a mutant: its id goes stale instead of naming another mutant
near = mutants(BASE.replace("if (a > b && b != 0)", "if (a > b && b != 1)"))
ror = [i for i, m in base.items() if m.op == "ROR" and m.orig == ">" and m.fn == "f"]
check("an edit beside `a > b` makes its ROR ids stale", ror and not any(i in near for i in ror), str(ror))
far = [i for i, m in base.items() if m.fn == "f" and m.op == "ASG"]
check("the ids of f far from that edit stay", far and all(i in near for i in far), str(far))

# 4. identical contexts in one function are numbered in source order
REP = BASE + "static void h(int *t) {\n" + "  t[0]++;\n" * 8 + "}\n"
inc = [m for m in M.generate(None, "src/t.c", REP)[1] if m.fn == "h" and m.op == "ASG"]
check("eight `t[0]++` in h: eight ASG mutants, eight ids", len(inc) == 8 and len({m.id for m in inc}) == 8,
      str([m.id for m in inc]))
numbered = [m for m in inc if "#" in m.id]
check("identical contexts numbered #2, #3, ... in source order",
      numbered and all(m.id.split("#")[0] in {x.id for x in inc} and
                       [x.line for x in inc if x.id.split("#")[0] == m.id.split("#")[0]] ==
                       sorted(x.line for x in inc if x.id.split("#")[0] == m.id.split("#")[0])
                       for m in numbered), str([m.id for m in inc]))
check("the numbered ones come after their first", all(
    min(x.line for x in inc if x.id == m.id.split("#")[0]) < m.line for m in numbered))

# 5. ids unique within a file, and free of line and column
allm = M.generate(None, "src/t.c", BASE)[1]
check("ids unique", len({m.id for m in allm}) == len(allm))
check("ids carry file and function, no line", all(m.id.startswith(f"src/t.c:{m.fn}:") and
                                                  f":{m.line}:" not in m.id for m in allm))

# 6. a hexadecimal literal is one token: no mutant of its leading 0 (which would not compile)
hexm = M.generate(None, "src/t.c", "static int h(int c) {\n  return (c & 0xC0) != 0x80;\n}\n")[1]
check("0xC0, 0x80: no CRP of a lone 0", not any(m.op == "CRP" and m.orig == "0" for m in hexm),
      str([m.id for m in hexm if m.op == "CRP"]))

# 7. a real source file: 10 lines inserted at the top, the same mutants
for rel in ("src/json.c", "src/chad/linear.c"):
    text = open(os.path.join(ROOT, rel), encoding="utf-8").read()
    a = mutants(text, rel)
    b = mutants("/* inserted */\n" * 10 + text, rel)
    check(f"{rel}: lines inserted at the top keep all {len(a)} ids", set(a) == set(b) and len(a) > 100)
    check(f"{rel}: each mutant found 10 lines lower",
          all(b[i].line == a[i].line + 10 and b[i].start == a[i].start + 150 for i in a if i in b))

# 8. a mutant applied at its new place writes the same change
text = open(os.path.join(ROOT, "src/json.c"), encoding="utf-8").read()
a = mutants(text, "src/json.c")
shifted = "/* x */\n" * 3 + text
b = mutants(shifted, "src/json.c")
i = sorted(a)[len(a) // 2]
ma, mb = a[i], b[i]
check("the same id applies the same text change after the shift",
      text[:ma.start] + ma.repl + text[ma.end:] == (shifted[:mb.start] + mb.repl + shifted[mb.end:])[24:])

# 9. a function moved to another file with its code: its ids found under the new file
G = BASE[BASE.index("static int g"):]
split = {**{i: m for i, m in mutants(BASE.replace(G, "")).items()},
         **mutants("#include <stddef.h>\n" + G, "src/u.c")}
gid = sorted(i for i, m in base.items() if m.fn == "g")
mv = M.moved(list(base), split)
check("g moved to src/u.c: each of its ids maps to the same id in src/u.c",
      gid and sorted(mv) == gid and all(mv[i] == "src/u.c:" + i.split(":", 1)[1] for i in gid), str(mv))
check("the ids of f, still in src/t.c, are not moved", not any(base[i].fn == "f" for i in mv))
kept = dict(split, **mutants("static int g(int x) { return x + 1; }\n", "src/t.c"))  # another g stays
check("no move while the old file still has the function", not M.moved(gid, kept), str(M.moved(gid, kept)))
twice = dict(split, **{"src/v.c:" + i.split(":", 1)[1]: None for i in gid})
check("no move when two files have the id", not M.moved(gid, twice))

# 9b. a function renamed in its file, its body kept, behind a wrapper with the old name
# (libchad's commands: chad_check's body now check_impl): followed only given the ids
# of the tree before, and only to an id that is new since
ren = mutants(BASE.replace("static int g(int x) {", "static int g_impl(int x) {")
              + "static int g(int x) {\n  return g_impl(x) + 2;\n}\n")
check("the wrapper g has mutants of its own", any(m.fn == "g" for m in ren.values()))
mv = M.moved(gid, ren, set(base))
check("g renamed g_impl: each of its ids gone maps to the same id in g_impl",
      gid and all(i in ren or mv.get(i) == i.replace(":g:", ":g_impl:", 1) for i in gid)
      and sum(1 for i in gid if i not in ren) > 0 and len(mv) == sum(1 for i in gid if i not in ren), str(mv))
check("a rename is not followed without the ids of the tree before", not M.moved(gid, ren))
check("nor to an id the tree before had (another mutant's)",
      not M.moved(gid, ren, set(base) | {i.replace(":g:", ":g_impl:", 1) for i in gid}))
dup = dict(ren, **{i.replace(":g:", ":h:", 1): None for i in gid})
check("nor when two functions of the file have the id", not M.moved(gid, dup, set(base)))

# 10. --draw-at: the sample drawn on a commit's tree, found on the tree now (a scratch repository)
import argparse  # noqa: E402
import contextlib  # noqa: E402
import io  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
with tempfile.TemporaryDirectory() as repo:
    git = lambda *c: subprocess.run(["git", "-C", repo, *c], check=True, capture_output=True)  # noqa: E731
    os.makedirs(os.path.join(repo, "src"))
    os.makedirs(os.path.join(repo, "include"))
    open(os.path.join(repo, "include/t.h"), "w").write("typedef int tt;\n")
    open(os.path.join(repo, "src/t.c"), "w").write(BASE)
    open(os.path.join(repo, "src/w.c"), "w").write("static int w(int a) {\n  return a > 1 ? a - 1 : a + 2;\n}\n")
    git("init", "-q")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
    old_root, M.ROOT = M.ROOT, repo
    try:
        then = {m.id: m for m in M.all_mutants([])[1]}
        # g moved to src/u.c, an edit beside f's `b != 0`, and a new file, whose mutants change
        # how a redrawn sample comes out
        open(os.path.join(repo, "src/t.c"), "w").write(
            BASE.replace(G, "").replace("b != 0", "b != 1"))
        open(os.path.join(repo, "src/u.c"), "w").write("#include <stddef.h>\n" + G)
        open(os.path.join(repo, "src/a.c"), "w").write("static int z(int q) {\n  return q * 3 + 1;\n}\n")
        M.TYPE_NAMES.clear()
        now = {m.id: m for m in M.all_mutants([])[1]}
        arg = argparse.Namespace(draw_at="HEAD", files=[], match=None, per_file=0, sample=0)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            every = M.draw(arg, 1, now)
        nmv = len(M.moved(list(then), now))
        nst = sum(1 for i in then if M.moved(list(then), now).get(i, i) not in now)
        check("--draw-at prints the moved and the stale ids and their counts",
              f"{len(then)} of its {len(then)} mutants, {nmv} moved" in out.getvalue() and
              f", {nst} stale now" in out.getvalue() and nmv == 16 and nst > 0 and
              out.getvalue().count(": moved (with its code), now src/u.c:g:") == nmv,
              out.getvalue()[-300:])
        arg.sample = len(then)
        check("--draw-at HEAD with every mutant drawn: the commit's mutants, moved ones under their ids now",
              {m.id for m in every} == {M.moved(list(then), now).get(i, i) for i in then if
                                        M.moved(list(then), now).get(i, i) in now})
        arg.sample, arg.per_file = 0, 3
        with contextlib.redirect_stdout(io.StringIO()):
            drawn = [m.id for m in M.draw(arg, 5, now)]
        rng, per = M.random.Random(5), []
        for f in sorted({m.file for m in then.values()}):
            per.append(sorted(rng.sample(sorted(i for i, m in then.items() if m.file == f), 3)))
        want = [ms[k] for k in range(3) for ms in per if k < len(ms)]
        mv = M.moved(want, now)
        check("--draw-at HEAD --per-file 3: the sample drawn at the commit, in its order, stale ones left out",
              drawn == [mv.get(i, i) for i in want if mv.get(i, i) in now], f"{drawn} vs {want}")
        arg.draw_at = None
        check("without --draw-at the changed tree draws another sample",
              [m.id for m in M.draw(arg, 5, now)] != drawn)
    finally:
        M.ROOT = old_root
        M.TYPE_NAMES.clear()
        M.collect_type_names()

sys.exit(finish("mutation-ids"))
