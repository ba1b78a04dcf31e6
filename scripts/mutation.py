#!/usr/bin/env python3
"""Mutation testing of CHAD-C (`make mutation`; spec/mutation.md).

Generates mutants mechanically over src/ with a small C lexer (comments,
strings, ACSL annotations and preprocessor lines are never mutated), applies
each in a scratch copy of the tree (the checkout is never modified), rebuilds
only the objects that include the mutated file and relinks libchad.so (a
mutant that does not compile is not counted), and runs the test suites,
first those that killed mutants of the same function before, then the
cheapest, stopping at the first failure, each under a time bound.

  scripts/mutation.py [--seed S|commit] [--sample N | --per-file N] [-j J]
                      [--files GLOB ...] [--only ID ...] [--match RE]
                      [--list [--where]] [--report FILE] [--record FILE]
                      [--from-record FILE] [--strict]
                      [--suites unit,cli,certified,proptest,vectors]

A mutant's id is FILE:FUNCTION:OP:ORIGINAL:REPLACEMENT:HASH[#K], HASH over the
tokens around the mutation, K numbering identical contexts in a function: no
line or column, so edits elsewhere leave it alone (spec/mutation.md).
tests/mutation/equivalent.txt lists mutants argued equivalent,
tests/mutation/proof-only.txt kernel mutants left to the proof gate, and
tests/mutation/killed.txt the kill record and history; all are read here. An
entry whose id no mutant has now is stale (reported; --strict fails on stale
entries of the first two). Output: a summary per file and per function, the
survivors with their diffs, the time per mutant, and a last line "N passed,
N failed" (passed = killed or accounted for, failed = survived); exit status
1 if any mutant survived that neither list accounts for, 2 on a usage or
setup error. Standard library only.
"""
import argparse
import fnmatch
import hashlib
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EQUIV = "tests/mutation/equivalent.txt"
KILLED = "tests/mutation/killed.txt"
PROOF_ONLY = "tests/mutation/proof-only.txt"
KERNEL_DIRS = ("src/kernel/", "src/chad/")

# ---------------------------------------------------------------- lexer ----

PUNCT = sorted("""<<= >>= ... -> ++ -- << >> <= >= == != && || += -= *= /= %=
&= |= ^= ## { } [ ] ( ) ; , . ? : ~ ! + - * / % < > = & | ^ #""".split(),
               key=len, reverse=True)
TOKEN_RE = re.compile(r"""
   (?P<ws>[ \t\r\f\v]+|\n)
 | (?P<comment>/\*.*?\*/|//[^\n]*)
 | (?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
 | (?P<num>0[xX][0-9a-fA-F]+[uUlL]*|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[uUlLfF]*)
 | (?P<id>[A-Za-z_]\w*)
 | (?P<punct>""" + "|".join(re.escape(p) for p in PUNCT) + ")", re.S | re.X)


class Tok:
    __slots__ = ("kind", "text", "off", "line", "col")

    def __init__(self, kind, text, off, line, col):
        self.kind, self.text, self.off, self.line, self.col = kind, text, off, line, col

    def __repr__(self):
        return f"{self.text}@{self.line}:{self.col}"


def lex(src):
    """Tokens of C source, without whitespace, comments (ACSL annotations are
    comments), and preprocessor lines (with their continuations)."""
    toks, pos, line, lstart, bol = [], 0, 1, 0, True
    n = len(src)
    while pos < n:
        if bol:  # a preprocessor line: skip it to its unescaped end
            m = re.match(r"[ \t]*#", src[pos:pos + 200])
            if m:
                end = pos
                while True:
                    nl = src.find("\n", end)
                    if nl < 0:
                        end = n
                        break
                    if src[nl - 1] == "\\":
                        end = nl + 1
                        line += 1
                        continue
                    end = nl
                    break
                # comments inside a directive may span lines: count them
                pos = end
                continue
        m = TOKEN_RE.match(src, pos)
        if not m:
            raise ValueError(f"lexer stuck at line {line}: {src[pos:pos+20]!r}")
        kind, text = m.lastgroup, m.group()
        if kind == "ws":
            if text == "\n":
                line += 1
                lstart = m.end()
                bol = True
            pos = m.end()
            continue
        bol = False
        if kind == "comment":
            nls = text.count("\n")
            if nls:
                line += nls
                lstart = pos + text.rfind("\n") + 1
            pos = m.end()
            continue
        toks.append(Tok(kind, text, pos, line, pos - lstart + 1))
        pos = m.end()
    return toks


def functions(toks):
    """fn[i]: the name of the function whose body holds token i ('' outside)."""
    fn, depth, cur = [""] * len(toks), 0, ""
    for i, t in enumerate(toks):
        if t.text == "{":
            if depth == 0:
                cur = ""
                if i > 0 and toks[i - 1].text == ")":  # f(...) {
                    j = open_paren(toks, i - 1)
                    if j > 0 and toks[j - 1].kind == "id":
                        cur = toks[j - 1].text
            depth += 1
        elif t.text == "}":
            depth = max(0, depth - 1)
        fn[i] = cur if depth > 0 or t.text == "}" else ""
    return fn


# ------------------------------------------------------------ operators ----

OPERAND_END = {"id", "num", "string"}
TYPE_WORDS = set("""void char short int long float double signed unsigned _Bool
const volatile static extern struct union enum register inline restrict
size_t int64_t uint64_t int32_t uint32_t uint8_t int8_t uint16_t FILE""".split())
NOT_STMT = set("""return break continue goto case default if else for while do
switch typedef""".split()) | TYPE_WORDS
# builders whose name's pair swap is a "fst/snd" or "inl/inr" mutant
SWAPS = {"b_fst": "b_snd", "b_snd": "b_fst", "b_inl": "b_inr", "b_inr": "b_inl",
         "tm_fst": "tm_snd", "tm_snd": "tm_fst", "tm_inl": "tm_inr", "tm_inr": "tm_inl",
         "TM_FST": "TM_SND", "TM_SND": "TM_FST", "TM_INL": "TM_INR", "TM_INR": "TM_INL"}
AOR = {"+": "-", "-": "+", "*": "/", "/": "*", "%": "*"}
ASSIGN = {"+=": "-=", "-=": "+=", "*=": "/=", "/=": "*=", "++": "--", "--": "++"}
ROR = {"<": ["<=", ">="], "<=": ["<", ">"], ">": [">=", "<="], ">=": [">", "<"],
       "==": ["!="], "!=": ["=="]}
LCR = {"&&": "||", "||": "&&"}


def open_paren(toks, i):
    """the index of the '(' that the ')' at toks[i] closes (-1 if none)"""
    d, j = 0, i
    while j >= 0:
        if toks[j].text == ")":
            d += 1
        elif toks[j].text == "(":
            d -= 1
            if d == 0:
                break
        j -= 1
    return j


def is_operand_end(toks, i):
    """toks[i] can end an operand (so an operator after it is binary)"""
    t = toks[i]
    if t.kind == "id":
        return t.text not in ("sizeof", "return", "case", "else", "do")
    if t.kind in OPERAND_END or t.text == "]":
        return True
    if t.text == ")":  # not the condition of if/while/for/switch, nor a cast
        j = open_paren(toks, i)
        if j > 0 and toks[j - 1].text in ("if", "while", "for", "switch"):
            return False
        if j >= 0 and is_type(toks[j + 1]):
            return False
        return True
    return False


def is_cond_end(toks, i):
    """toks[i] is the ')' closing the condition of an if, while or for"""
    if toks[i].text != ")":
        return False
    j = open_paren(toks, i)
    return j > 0 and toks[j - 1].text in ("if", "while", "for")


def match_fwd(toks, i):
    """index of the bracket closing toks[i] (an opening bracket)"""
    o = toks[i].text
    c = {"(": ")", "[": "]", "{": "}"}[o]
    d = 0
    for j in range(i, len(toks)):
        if toks[j].text == o:
            d += 1
        elif toks[j].text == c:
            d -= 1
            if d == 0:
                return j
    return None


class Mutant:
    """One mutation: the text src[start:end] of file replaced by repl. Its
    stable id is set by stable_ids() once the whole file's mutants are known."""
    __slots__ = ("file", "line", "col", "op", "orig", "repl", "start", "end", "fn", "ctx", "id")

    def __init__(self, file, tok, op, orig, repl, start, end, fn, ctx):
        self.file, self.line, self.col = file, tok.line, tok.col
        self.op, self.orig, self.repl = op, orig, repl
        self.start, self.end, self.fn, self.ctx = start, end, fn, ctx
        self.id = None

    @property
    def where(self):
        return f"{self.file}:{self.line}:{self.col}"


def short(s):
    s = " ".join(s.split())
    return s if len(s) <= 40 else s[:37] + "..."


# Tokens of context on each side of a mutated span that go into its id: an
# edit farther away leaves the id alone; an edit this close makes it stale
# (reported), never silently another mutant's.
CONTEXT = 6


def context_of(toks, fn, a, b):
    """the normalised text of toks[a-CONTEXT .. b+CONTEXT] within a's function"""
    lo, hi = a, b
    while lo > 0 and a - lo < CONTEXT and fn[lo - 1] == fn[a]:
        lo -= 1
    while hi + 1 < len(toks) and hi - b < CONTEXT and fn[hi + 1] == fn[a]:
        hi += 1
    return " ".join(t.text for t in toks[lo:hi + 1])


def stable_ids(muts):
    """FILE:FUNCTION:OP:ORIGINAL:REPLACEMENT:HASH[#K]: HASH of the operator,
    the texts and the tokens around the mutation; #K (K >= 2) the K-th
    mutant with the same id before it in its function, in source order.
    No line or column: lines inserted or removed elsewhere leave it alone."""
    seen = {}
    for m in muts:
        h = hashlib.sha1("\0".join((m.op, m.orig, m.repl, m.ctx)).encode()).hexdigest()[:8]
        base = f"{m.file}:{m.fn or '-'}:{m.op}:{short(m.orig)}:{short(m.repl)}:{h}"
        k = seen[base] = seen.get(base, 0) + 1
        m.id = base if k == 1 else f"{base}#{k}"


TYPEDEF_RE = re.compile(r"typedef\b[^;{]*?(\w+)\s*;|\}\s*(\w+)\s*;")
TYPE_NAMES = set()


def collect_type_names():
    """typedef names of include/ and src/: `T *p` is a declaration, not a product"""
    for top in ("include", "src"):
        for dp, _, fs in os.walk(os.path.join(ROOT, top)):
            for f in fs:
                if f.endswith((".c", ".h")):
                    for m in TYPEDEF_RE.finditer(open(os.path.join(dp, f), encoding="utf-8").read()):
                        TYPE_NAMES.add(m.group(1) or m.group(2))


def is_type(t, before=None):
    return t.kind == "id" and (t.text in TYPE_WORDS or t.text in TYPE_NAMES or t.text.endswith("_t")
                               or (before is not None and before.text in ("struct", "enum", "union")))


def is_decl_start(toks, i):
    """toks[i] starts a declaration (heuristic: a type word or name, `T x`, `T **x`)"""
    t = toks[i]
    if is_type(t):
        return True
    if t.kind == "id" and i + 1 < len(toks):
        j = i + 1
        while j < len(toks) and toks[j].text == "*":
            j += 1
        if j < len(toks) and toks[j].kind == "id" and (j == i + 1 or (
                j + 1 < len(toks) and toks[j + 1].text in ("=", ";", ",", "["))):
            return True
    return False


def generate(path, rel, src=None):
    """(source text, mutants) of the file rel (read from path unless src given)"""
    if src is None:
        src = open(path, encoding="utf-8").read()
    toks = lex(src)
    fn = functions(toks)
    out = []

    def add(i, op, orig, repl, start, end):
        b = i
        while b + 1 < len(toks) and toks[b + 1].off < end:
            b += 1
        out.append(Mutant(rel, toks[i], op, orig, repl, start, end, fn[i], context_of(toks, fn, i, b)))

    for i, t in enumerate(toks):
        if not fn[i]:
            continue  # only code inside function bodies
        prev = toks[i - 1] if i > 0 else None
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        s, e = t.off, t.off + len(t.text)
        x = t.text
        if x in AOR and prev is not None and is_operand_end(toks, i - 1) and nxt is not None \
                and nxt.text not in (")", ",", ";"):
            # binary only; `T *p` declarations are filtered when cheaply seen
            if x == "*" and is_type(prev, toks[i - 2] if i >= 2 else None):
                continue
            add(i, "AOR", x, AOR[x], s, e)
        elif x in ASSIGN:
            add(i, "ASG", x, ASSIGN[x], s, e)
        elif x in ROR and prev is not None and is_operand_end(toks, i - 1):
            for r in ROR[x]:
                add(i, "ROR", x, r, s, e)
        elif x in LCR:
            add(i, "LCR", x, LCR[x], s, e)
        elif t.kind == "num" and re.fullmatch(r"\d+[uUlL]*", x):
            v = int(re.match(r"\d+", x).group())
            suf = x[len(str(v)):] if x.startswith(str(v)) else ""
            if x.startswith("0") and len(x) > 1 and x[1].isdigit():
                continue  # octal: leave alone
            add(i, "CRP", x, f"{v + 1}{suf}", s, e)
            if v > 0:
                add(i, "CRP", x, f"{v - 1}{suf}", s, e)
        elif t.kind == "num" and re.fullmatch(r"[\d.]+(?:[eE][+-]?\d+)?", x) and \
                ("." in x or "e" in x.lower()):
            add(i, "CRP", x, f"({x} + 1.0)", s, e)
        elif x in ("true", "false"):
            add(i, "NEG", x, "false" if x == "true" else "true", s, e)
        elif x == "!" and nxt is not None and nxt.text != "=" and not (
                prev is not None and prev.text == "(" and i >= 2 and toks[i - 2].text in ("if", "while")):
            # (a leading ! of an if/while condition: the condition's negation says the same)
            add(i, "NEG", "!", "", s, e)
        elif x in ("if", "while") and nxt is not None and nxt.text == "(":
            j = match_fwd(toks, i + 1)
            if j is not None:
                a, b = toks[i + 1].off, toks[j].off + 1
                add(i + 1, "NEG", src[a:b], "(!" + src[a:b] + ")", a, b)
        elif x in SWAPS and nxt is not None and (nxt.text == "(" or x.startswith("TM_")):
            add(i, "SWP", x, SWAPS[x], s, e)
        # dropped statement: a simple expression statement on one line
        if prev is not None and (prev.text in (";", "{", "}", "else") or is_cond_end(toks, i - 1)) \
                and t.kind == "id" \
                and x not in NOT_STMT and not is_decl_start(toks, i) \
                and nxt is not None and nxt.text not in (":",):
            j, d = i, 0
            while j < len(toks):
                tj = toks[j].text
                if tj in "([{":
                    d += 1
                elif tj in ")]}":
                    d -= 1
                    if d < 0:
                        break
                elif tj == ";" and d == 0:
                    break
                j += 1
            if j < len(toks) and toks[j].text == ";" and toks[j].line == t.line:
                # the body of an if/else/loop: `{}`, since `;` there is an error (-Wempty-body)
                body = prev.text == "else" or is_cond_end(toks, i - 1)
                add(i, "DEL", src[s:toks[j].off + 1], "{}" if body else ";", s, toks[j].off + 1)
        # swapped adjacent single-token arguments of a call
        if x == "(" and prev is not None and prev.kind == "id" and prev.text not in NOT_STMT:
            j = match_fwd(toks, i)
            if j is None:
                continue
            args, a0, d = [], i + 1, 0
            for k in range(i + 1, j + 1):
                tk = toks[k].text
                if tk in "([{":
                    d += 1
                elif tk in ")]}" and k < j:
                    d -= 1
                elif (tk == "," and d == 0) or k == j:
                    args.append((a0, k))
                    a0 = k + 1
            for (p0, p1), (q0, q1) in zip(args, args[1:]):
                if p1 - p0 == 1 and q1 - q0 == 1:
                    ta, tb = toks[p0], toks[q0]
                    if ta.kind == tb.kind and ta.kind in ("id", "num") and ta.text != tb.text:
                        a, b = ta.off, tb.off + len(tb.text)
                        add(p0, "ARG", src[a:b], f"{tb.text}, {ta.text}", a, b)
    uniq = {}
    for m in out:  # a change generated twice (by two rules) is one mutant
        uniq.setdefault((m.start, m.end, m.repl), m)
    out = sorted(uniq.values(), key=lambda m: (m.start, m.end, m.op, m.repl))
    stable_ids(out)
    return src, out


def source_files(globs):
    files = []
    for dp, _, fs in os.walk(os.path.join(ROOT, "src")):
        for f in fs:
            if f.endswith((".c", ".h")):
                rel = os.path.relpath(os.path.join(dp, f), ROOT)
                if not globs or any(fnmatch.fnmatch(rel, g) for g in globs):
                    files.append(rel)
    return sorted(files)


def all_mutants(globs):
    srcs, muts = {}, []
    collect_type_names()
    for rel in source_files(globs):
        src, ms = generate(os.path.join(ROOT, rel), rel)
        srcs[rel] = src
        muts.extend(ms)
    return srcs, muts


def mutants_at(commit, globs):
    """the mutants of src/ as it was at COMMIT (its src/ and include/ from
    git, generated as now): a sample drawn from these is the sample a run
    at COMMIT drew, whatever changed since"""
    global ROOT
    tmp = tempfile.mkdtemp(prefix="chad-mutation-at.", dir=os.environ.get("TMPDIR", "/tmp"))
    saved_root, saved_names = ROOT, set(TYPE_NAMES)
    try:
        arch = subprocess.run(["git", "archive", commit, "src", "include"], cwd=ROOT, capture_output=True)
        if arch.returncode != 0:
            sys.exit(f"mutation: --draw-at {commit}: {arch.stderr.decode().strip()}")
        subprocess.run(["tar", "-x", "-C", tmp], input=arch.stdout, check=True)
        ROOT = tmp
        TYPE_NAMES.clear()  # that tree's typedef names only, as a run there saw them
        return all_mutants(globs)[1]
    finally:
        ROOT = saved_root
        TYPE_NAMES.clear()
        TYPE_NAMES.update(saved_names)
        shutil.rmtree(tmp, ignore_errors=True)


def read_list(path):
    """ID | argument lines of an accounting list -> {id: argument}"""
    entries = {}
    full = os.path.join(ROOT, path)
    if not os.path.exists(full):
        return entries
    for ln in open(full, encoding="utf-8"):
        ln = ln.rstrip("\n")
        if not ln.strip() or ln.lstrip().startswith("#"):
            continue
        mid, _, why = ln.partition(" | ")
        entries[mid.strip()] = why.strip()
    return entries


# --------------------------------------------------------------- suites ----

UNIT_TARGETS = [  # (source prefix, unit tests that look at it first)
    ("src/kernel/", ["test_kernel_types", "test_kernel_terms", "test_kernel_checker"]),
    ("src/chad/linear.c", ["test_chad_linear", "test_chad_types"]),
    ("src/chad/simplify.c", ["test_chad_simplify"]),
    ("src/chad/", ["test_chad_values", "test_chad_types", "test_chad_size", "test_chad_gmm"]),
    ("src/eval/", ["test_eval", "test_chad_values"]),
    ("src/fast/", ["test_fast_edges", "test_fast", "test_fast_vec"]),
    ("src/primitives.c", ["test_primitives", "test_prim_accuracy"]),
    ("src/prim_scalar.h", ["test_primitives", "test_fast_edges", "test_prim_accuracy"]),
    ("src/json", ["test_json", "test_api"]),
    ("src/certified/", ["test_verdict"]),
    ("src/api", ["test_api", "test_api_misuse", "test_api_multi", "test_api_oom"]),
    ("src/verdict.c", ["test_verdict"]),
    ("src/surface/", ["test_surface", "test_surface_target", "test_surface_mutate"]),
    ("src/diag.c", ["test_diag"]),
    ("src/export/", ["test_export"]),
]
# seconds per suite on the unmutated tree, measured as run() measures them
# (CPU plus time blocked; a baseline of the shared 2-core machine at load
# 10-15, so not inflated by waiting for a core), for --no-baseline; a suite
# not listed: 1 s
TYPICAL_COST = {"test_prim_accuracy": 5.3, "test_fast": 4.4, "test_fast_vec": 3.9,
                "test_surface_target": 1.0, "test_surface": 0.8, "test_kernel_types": 0.6,
                "test_api_misuse": 1.2, "test_eval": 0.5, "cli": 26.9, "certified-cli": 0.4,
                "certified-check": 3.4, "proptest": 0.3, "vectors": 0.5}
PROPTEST_ENV = {"PROPTEST_N": "200", "PROPTEST_SEED": "1", "PROPTEST_QUIET": "1"}
CLI_ENV = {"CHAD_CLI_SEED": "1"}  # the command-line tests' one random case fixed: every suite deterministic
MUT = "build/mut"  # the scratch tree's own build (Worker)


UNIT_ONLY = None
TREE = ROOT  # the tree whose unit tests are run: a scratch copy once set up


def unit_tests():
    if UNIT_ONLY:
        return UNIT_ONLY
    return sorted(f[:-2] for f in os.listdir(os.path.join(TREE, "tests/unit"))
                  if f.startswith("test_") and f.endswith(".c"))


def all_suites(kinds):
    """{suite name: (command, env)} of the suites of the kinds asked for"""
    s = {}
    if "unit" in kinds:
        for t in unit_tests():
            s[t] = ([f"{MUT}/tests/{t}"], {})
    if "proptest" in kinds:  # proptests/run.sh's binary, built once per tree
        s["proptest"] = ([f"{MUT}/proptest"], PROPTEST_ENV)
    if "certified" in kinds:
        s["certified-cli"] = (["tests/certified/cli.sh", "./chad"], {})
        s["certified-check"] = (["tests/certified/check.sh", "./chad"], {})
    if "cli" in kinds:
        s["cli"] = (["tests/cli/run.sh", "./chad"], CLI_ENV)
    if "vectors" in kinds:  # chad vectors regenerates vectors/ byte for byte (src/vectors.c)
        s["vectors"] = (["/usr/bin/python3", "tests/vectors/check.py", "./chad"], {})
    return s


def read_history(path):
    """killed.txt's 'ID | killed by SUITE' lines -> {(file, function): {suite: n}}
    and {file: {suite: n}}: the kill history that orders the suites"""
    by_fn, by_file = {}, {}
    for mid, why in read_list(path).items():
        m = re.match(r"killed by (\S+)", why)
        if not m:
            continue
        f, fn = mid.split(":")[0], mid.split(":")[1]
        for d, k in ((by_fn, (f, fn)), (by_file, f)):
            c = d.setdefault(k, {})
            c[m.group(1)] = c.get(m.group(1), 0) + 1
    return by_fn, by_file


HISTORY = ({}, {})


def suite_plan(m, kinds, cost):
    """[(suite name, command, env)] for a mutant m, first failure kills: the
    suites that killed mutants of m's function before (most kills first), then
    of m's file, then the unit tests aimed at m's file, then every other suite
    cheapest first (by its time on the unmutated tree)."""
    suites = all_suites(kinds)
    order = []
    by_fn, by_file = HISTORY
    for hist in (by_fn.get((m.file, m.fn), {}), by_file.get(m.file, {})):
        order += [s for s, _ in sorted(hist.items(), key=lambda kv: (-kv[1], kv[0]))]
    for pre, ts in UNIT_TARGETS:
        if m.file.startswith(pre):
            order += ts
    order += sorted(suites, key=lambda s: (cost.get(s, TYPICAL_COST.get(s, 1.0)), s))
    plan, seen = [], set()
    for s in order:
        if s in suites and s not in seen:
            seen.add(s)
            plan.append((s,) + suites[s])
    return plan


RUNNING = set()   # process groups of the commands running now
STOP = threading.Event()


def on_term(*_):
    """SIGTERM/SIGINT: no new mutant, the running commands' groups killed"""
    STOP.set()
    for pid in list(RUNNING):
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


CLK_TCK = os.sysconf("SC_CLK_TCK")


def session_usage(sid):
    """(CPU seconds, runnable) of the processes of session sid now: each live
    process's own time and that of the children it has reaped (so a process
    that ended counts through its parent), and whether one of them is running
    or waiting for a core (state R) or for the disk (D)"""
    cpu, busy = 0, False
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat", "rb") as f:
                st = f.read()
        except OSError:
            continue
        fs = st[st.rfind(b")") + 2:].split()
        if len(fs) < 15 or int(fs[3]) != sid:  # fs[0] state, fs[3] session, fs[11:15] times
            continue
        cpu += int(fs[11]) + int(fs[12]) + int(fs[13]) + int(fs[14])
        busy = busy or fs[0] in (b"R", b"D")
    return cpu / CLK_TCK, busy


def run(cmd, cwd, timeout, env=None):
    """(status, seconds, output tail); status 'ok', 'fail' or 'timeout'.
    The command runs in its own session (process group), killed whole on
    timeout. Its time is not wall time but its own: the CPU time of its
    processes plus the wall time during which none of them was running or
    waiting for a core (sleeping, blocked). A suite starved by other work on a
    loaded machine is waiting for a core, so its time does not grow; a loop
    spends CPU and a hang sleeps, so either reaches the bound."""
    e = dict(os.environ)
    # OpenMP threads that sleep when idle and no more than the cores: spinning
    # threads on an oversubscribed machine slow a test by 10 times or more
    e.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    e.setdefault("OMP_NUM_THREADS", "2")
    e.update(env or {})
    if STOP.is_set():
        return "fail", 0.0, "stopped"
    with tempfile.TemporaryFile() as out:
        p = subprocess.Popen(cmd, cwd=cwd, env=e, stdout=out, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, start_new_session=True)
        RUNNING.add(p.pid)
        cpu = idle = 0.0
        last, step, st = time.time(), 0.01, None
        try:
            while st is None:
                time.sleep(step)
                pid, status, ru = os.wait4(p.pid, os.WNOHANG)
                if pid:  # ended: its own time and its reaped children's
                    p.returncode = os.waitstatus_to_exitcode(status)
                    cpu = max(cpu, ru.ru_utime + ru.ru_stime)
                    st = "ok" if p.returncode == 0 else "fail"
                    break
                now = time.time()
                c, busy = session_usage(p.pid)
                if c <= cpu and not busy:
                    idle += now - last
                cpu, last, step = max(cpu, c), now, min(1.0, step * 2)
                if cpu + idle > timeout:
                    try:
                        os.killpg(p.pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                    p.wait()
                    st = "timeout"
        finally:
            RUNNING.discard(p.pid)
        out.seek(max(0, out.seek(0, 2) - 2000))
        tail = out.read().decode("utf-8", "replace")
    return st, cpu + idle, tail


def make_var(name):
    """a variable of the Makefile (the flags stay the Makefile's)"""
    r = subprocess.run(["make", "-s", "--no-print-directory", "--eval", "mut-print-%: ; @echo $($*)",
                        f"mut-print-{name}"], cwd=ROOT, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"mutation: cannot read {name} from the Makefile: {r.stderr.strip()}")
    return r.stdout.split()


class Worker:
    """A scratch copy of the tree with its own build in build/mut: the
    Makefile's flags plus -fPIC, the library one libchad.so that chad, the
    unit tests and the property tests link to. A mutant recompiles only the
    objects whose dependency files name the mutated file and relinks the
    library (or the binaries whose own object changed): no make, no relink of
    the test binaries, no rebuild of the tree."""

    def __init__(self, base, k):
        self.dir = os.path.join(base, f"w{k}")
        self.digests = {}

    def copy_tree(self):
        files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                               check=True, capture_output=True).stdout.decode().split("\0")
        for f in files:
            if not f or not os.path.isfile(os.path.join(ROOT, f)):
                continue
            d = os.path.join(self.dir, os.path.dirname(f))
            os.makedirs(d, exist_ok=True)
            shutil.copy2(os.path.join(ROOT, f), os.path.join(self.dir, f), follow_symlinks=False)

    def plan(self):
        """the build: objects {obj: (source, extra flags)} and links {output: (objs, command tail)}"""
        # pattern-filled locals: a mutant that leaves a variable unset reads the
        # same garbage on every run, so its fate does not depend on the stack
        cflags = make_var("ALL_CFLAGS") + ["-fPIC", "-fno-semantic-interposition",
                                           "-ftrivial-auto-var-init=pattern"]
        ldlibs = make_var("LDLIBS")
        cc = make_var("CC") or ["cc"]
        objs, links = {}, {}
        lib = []
        for s in make_var("LIB_SRC"):
            o = f"{MUT}/{s[:-2]}.o"
            objs[o] = (s, [])
            lib.append(o)
        links[f"{MUT}/libchad.so"] = (lib, ["-shared"], ldlibs)
        objs[f"{MUT}/src/cli/chad.o"] = ("src/cli/chad.c", [])
        use = [f"-L{MUT}", "-lchad"]
        links["chad"] = ([f"{MUT}/src/cli/chad.o"], use + [f"-Wl,-rpath,$ORIGIN/{MUT}"], ldlibs)
        for t in unit_tests():
            o = f"{MUT}/tests/{t}.o"
            objs[o] = (f"tests/unit/{t}.c", ["-Itests"])
            links[f"{MUT}/tests/{t}"] = ([o], use + ["-Wl,-rpath,$ORIGIN/.."], ldlibs)
        pobjs = []
        for f in sorted(os.listdir(os.path.join(self.dir, "proptests"))):
            if f.endswith(".c"):
                o = f"{MUT}/proptests/{f[:-2]}.o"
                objs[o] = (f"proptests/{f}", ["-Iproptests"])
                pobjs.append(o)
        links[f"{MUT}/proptest"] = (pobjs, use + ["-Wl,-rpath,$ORIGIN"], ldlibs + ["-lpthread"])
        self.cc, self.cflags, self.objs, self.links = cc, cflags, objs, links

    def compile(self, o):
        src, extra = self.objs[o]
        os.makedirs(os.path.join(self.dir, os.path.dirname(o)), exist_ok=True)
        return run(self.cc + self.cflags + extra + ["-MMD", "-MP", "-c", src, "-o", o], self.dir, 600)

    def link(self, out):
        objs, pre, libs = self.links[out]
        return run(self.cc + ["-O2", "-g", "-o", out] + objs + pre + libs, self.dir, 600)

    def setup(self, jobs):
        """the whole build of this tree, `jobs` compiles at a time"""
        self.copy_tree()
        self.plan()
        with ThreadPoolExecutor(max(1, jobs)) as ex:
            for o, (st, _, out) in zip(self.objs, ex.map(self.compile, self.objs)):
                if st != "ok":
                    sys.exit(f"mutation: the unmutated tree does not build ({o}):\n{out}")
        for out in [f"{MUT}/libchad.so"] + [x for x in self.links if not x.endswith("libchad.so")]:
            st, _, log = self.link(out)
            if st != "ok":
                sys.exit(f"mutation: the unmutated tree does not link ({out}):\n{log}")
        self.read_deps()

    def clone(self, other):
        """this tree as a copy of other's, built"""
        shutil.copytree(other.dir, self.dir, symlinks=True)
        self.cc, self.cflags, self.objs, self.links = other.cc, other.cflags, other.objs, other.links
        self.users = other.users

    def read_deps(self):
        """users[file]: the objects whose dependency file (-MMD) names it"""
        self.users = {}
        for o in self.objs:
            d = os.path.join(self.dir, o[:-2] + ".d")
            text = open(d, encoding="utf-8").read().replace("\\\n", " ")
            rule = text.split("\n", 1)[0]
            for dep in rule.split(":", 1)[1].split():
                self.users.setdefault(os.path.normpath(dep), []).append(o)

    def apply(self, m, src, link=True):
        """m written into the tree and built: (True, '', code) or (False, the
        first compiler error, None). code is SAME when every object rebuilt
        is the original's (then nothing is linked), else the mutated file
        with the digests of its objects (None if one could not be read).
        Every file rebuilt is first moved aside for restore()."""
        objs = self.users.get(m.file, [])
        self.moved = []
        if not objs:
            return False, "no object of the build includes this file"
        outs = set()
        for o in objs:
            for x, (ls, _, _) in self.links.items():
                if o in ls:
                    outs.add(x)
        self.moved = objs + sorted(outs)
        for x in self.moved:
            os.replace(os.path.join(self.dir, x), os.path.join(self.dir, x + ".orig"))
        path = os.path.join(self.dir, m.file)
        with open(path, "w", encoding="utf-8") as f:
            f.write(src[:m.start] + m.repl + src[m.end:])
        for o in objs:
            st, _, out = self.compile(o)
            if st != "ok":
                err = [ln for ln in out.splitlines() if "error" in ln] or out.strip().splitlines() or ["failed"]
                return False, err[0][:160], None
        code = tuple(object_digest(os.path.join(self.dir, o)) for o in objs)
        if None not in code and code == tuple(self.orig_digest(o) for o in objs):
            return True, "", SAME  # nothing to link or run: the original's code
        if not link:
            return True, "", (m.file,) + code if None not in code else None
        for x in sorted(outs, key=lambda x: not x.endswith("libchad.so")):  # the library first
            st, _, out = self.link(x)
            if st != "ok":
                return False, f"link {x}: " + (out.strip().splitlines() or [""])[0][:120], None
        return True, "", (m.file,) + code if None not in code else None

    def orig_digest(self, o):
        """object_digest of the unmutated object o (moved aside while a mutant is built)"""
        if o not in self.digests:
            self.digests[o] = object_digest(os.path.join(self.dir, o + ".orig"))
        return self.digests[o]

    def restore(self, m, src):
        """the original text and every file rebuilt for the mutant put back"""
        with open(os.path.join(self.dir, m.file), "w", encoding="utf-8") as f:
            f.write(src)
        for x in self.moved:
            os.replace(os.path.join(self.dir, x + ".orig"), os.path.join(self.dir, x))


def baseline(workers, kinds):
    """every suite on the unmutated tree, shared among the workers as the
    mutants will share the machine: it must pass; its times set the bounds"""
    cost, todo, lock = {}, list(all_suites(kinds).items()), threading.Lock()

    def loop(w):
        while True:
            with lock:
                if not todo:
                    return None
                name, (cmd, env) = todo.pop(0)
            st, secs, out = run(cmd, w.dir, 1800, env)
            if st != "ok":
                return f"mutation: the unmutated tree fails {name}; mutants would prove nothing:\n{out}"
            cost[name] = secs
            print(f"  baseline {name}: ok, {secs:.1f} s", flush=True)

    with ThreadPoolExecutor(len(workers)) as ex:
        errs = [e for e in ex.map(loop, workers) if e]
    if errs:
        sys.exit(errs[0])
    return cost


def bounds(cost, name, scale):
    """(tight, confirming) time bounds of a suite: past the tight one the suite
    is run again under the confirming one, and only a second time-out kills
    (the load of a shared machine varies by a factor of 3 within a run)"""
    c = cost.get(name, TYPICAL_COST.get(name, 1.0))
    return scale * (3 * c + 10), scale * (10 * c + 60)


SAME = "same"      # Worker.apply's code of a mutant compiled to the original's objects
CODE = {}          # (file, object digests) -> (id, result, detail) of the mutant tested with that code
CODE_LOCK = threading.Lock()


def object_digest(path):
    """SHA-1 of an object file without its debug sections (where line and
    column numbers live: a mutant that only moves text within a line changes
    them, not the code); None if objcopy fails"""
    with tempfile.TemporaryDirectory() as d:
        t = os.path.join(d, "o")
        r = subprocess.run(["objcopy", "--strip-debug", path, t], capture_output=True)
        if r.returncode != 0:
            return None
        with open(t, "rb") as f:
            return hashlib.sha1(f.read()).hexdigest()


def unbuilt(ok, why, code, tb):
    """the result of a mutant that is not to be run, from its build (w.apply):
    nocompile, or same-code (its objects are the original's); else None"""
    if not ok:
        return "nocompile", why, tb, None
    if code == SAME:
        return "same-code", "object code identical to the original", tb, None
    return None


def code_mutant(w, m, src):
    """(result, detail, seconds of build, twin) of --code-only: the mutant
    compiled, not linked nor run: same-code, nocompile, or 'distinct' (its
    objects neither the original's nor those of a mutant seen before; twin
    set when they are a mutant's seen before)"""
    t0 = time.time()
    try:
        ok, why, code = w.apply(m, src, link=False)
        tb = time.time() - t0
        early = unbuilt(ok, why, code, tb)
        if early:
            return early
        with CODE_LOCK:
            twin = CODE.setdefault(code, (m.id, "distinct", "")) if code else (m.id, "distinct", "")
        return "distinct", "", tb, (twin[0] if twin[0] != m.id else None)
    finally:
        w.restore(m, src)


def test_mutant(w, m, src, kinds, cost, scale):
    """(result, detail, seconds of build, twin): killed / timeout / survived /
    nocompile / same-code (its objects are the original's: the same program,
    nothing run); twin: the id of a mutant tested before whose objects are
    this one's, whose result it takes (spec/mutation.md "Same object code")"""
    t0 = time.time()
    try:
        ok, why, code = w.apply(m, src)
        tb = time.time() - t0
        early = unbuilt(ok, why, code, tb)
        if early:
            return early
        with CODE_LOCK:
            twin = CODE.get(code)
        if twin:
            return twin[1], twin[2], tb, twin[0]
        res, why = "survived", ""
        for name, cmd, env in suite_plan(m, kinds, cost):
            tight, confirm = bounds(cost, name, scale)
            st, _, out = run(cmd, w.dir, tight, env)
            if st == "timeout":
                st, _, out = run(cmd, w.dir, confirm, env)
            if st in ("fail", "timeout"):
                res, why = ("killed" if st == "fail" else "timeout"), name
                break
        if code and not STOP.is_set():
            with CODE_LOCK:
                CODE.setdefault(code, (m.id, res, why))
        return res, why, tb, None
    finally:
        w.restore(m, src)


# --------------------------------------------------------------- report ----

def diff_of(m, src):
    lines = src.splitlines()
    new = (src[:m.start] + m.repl + src[m.end:]).splitlines()
    a0 = src.count("\n", 0, m.start)
    a1 = src.count("\n", 0, m.end)
    b1 = a0 + (len(new) - len(lines)) + (a1 - a0)
    old = [f"-{lines[k]}" for k in range(a0, a1 + 1)]
    nw = [f"+{new[k]}" for k in range(a0, b1 + 1)]
    return "\n".join([f"@@ {m.file}:{m.line} ({m.fn or 'file scope'}) @@"] + old + nw)


COLS = ["killed", "timeout", "survived", "equivalent", "proof-only", "same-code", "nocompile"]


def score(c):
    counted = c["killed"] + c["timeout"] + c["survived"] + c["proof-only"]
    if counted == 0:
        return "-"
    return f"{100.0 * (c['killed'] + c['timeout']) / counted:.1f}%"


def table(rows, key):
    agg = {}
    for m, res in rows:
        k = key(m)
        c = agg.setdefault(k, dict.fromkeys(COLS, 0))
        c[res] += 1
    out = ["| " + ("file" if key(rows[0][0]).count(" ") == 0 else "function") +
           " | " + " | ".join(COLS) + " | score |", "|---" * (len(COLS) + 2) + "|"]
    tot = dict.fromkeys(COLS, 0)
    for k in sorted(agg):
        c = agg[k]
        out.append(f"| `{k}` | " + " | ".join(str(c[x]) for x in COLS) + f" | {score(c)} |")
        for x in COLS:
            tot[x] += c[x]
    out.append("| **all** | " + " | ".join(f"**{tot[x]}**" for x in COLS) + f" | **{score(tot)}** |")
    return out, tot


def moved(ids, by_id, before=None):
    """{old id: id now} for the ids no mutant has now whose mutant moved
    with its code. To another file with its function (a function moved out
    of a file, as the CHAD rules into src/chad/forward/ and reverse/): the
    same id but for its file, one mutant now has it, and the old file has no
    mutant of that function any more. To another function of its file (a
    function renamed, its body kept: libchad's command bodies became
    check_impl etc. behind wrappers that keep the public names): given
    BEFORE, the ids of the tree(s) the old ids were generated on, the same
    id but for its function, one mutant of the file now has it, and that id
    is new since BEFORE (the tokens came into that function; an id there
    before is another mutant's). The same edit of the same tokens: the same
    mutant."""
    rest, fns, infile = {}, set(), {}
    for i in by_id:
        rest.setdefault(i.split(":", 1)[1], []).append(i)
        fns.add(":".join(i.split(":", 2)[:2]))
        f, _, r = i.split(":", 2)
        infile.setdefault((f, r), []).append(i)
    out = {}
    for i in ids:
        if i in by_id or i.count(":") < 2:
            continue
        cand = rest.get(i.split(":", 1)[1], [])
        if len(cand) == 1 and ":".join(i.split(":", 2)[:2]) not in fns:
            out[i] = cand[0]
            continue
        if before is not None:
            f, _, r = i.split(":", 2)
            cand = infile.get((f, r), [])
            if len(cand) == 1 and cand[0] not in before:
                out[i] = cand[0]
    return out


def draw(a, seed, by_id):
    """the sample of --sample/--per-file (every mutant without them), drawn
    from the mutants now or, with --draw-at, from those of that commit's
    tree, each then found now by its id (those gone printed as stale)"""
    pool = by_id
    if a.draw_at:
        pool = {m.id: m for m in mutants_at(a.draw_at, a.files) if not a.match or re.search(a.match, m.id)}
    if a.per_file:
        rng, per = random.Random(seed), []
        for f in sorted({m.file for m in pool.values()}):
            ids = sorted(i for i, m in pool.items() if m.file == f)
            per.append(sorted(rng.sample(ids, min(a.per_file, len(ids)))))
        # round robin over the files: a run stopped early has covered every file alike
        ids = [ms[k] for k in range(a.per_file) for ms in per if k < len(ms)]
    else:
        ids = sorted(pool)
        ids = sorted(random.Random(seed).sample(ids, a.sample) if 0 < a.sample < len(ids) else ids)
    if a.draw_at:
        mv = moved(ids, by_id, set(pool))
        for i in ids:
            if i in mv:
                print(f"mutation: drawn at {a.draw_at}: {i}: moved (with its code), now {mv[i]}")
        ids = [mv.get(i, i) for i in ids]
        gone = [i for i in ids if i not in by_id]
        for i in gone:
            print(f"mutation: drawn at {a.draw_at}: {i}: no such mutant now (stale), left out")
        print(f"mutation: sample drawn on the tree of {a.draw_at}: {len(ids)} of its {len(pool)} mutants, "
              f"{len(mv)} moved (ids now in another file or function), {len(gone)} stale now (no mutant has the id: "
              f"the code around it changed), {len(ids) - len(gone)} tested", flush=True)
    return [by_id[i] for i in ids if i in by_id]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", default=None,
                    help="sampling seed: a number, or 'commit' for one derived from the checkout's commit "
                         "(default: from the clock; printed)")
    ap.add_argument("--sample", type=int, default=0, help="test N mutants drawn with the seed (0: all)")
    ap.add_argument("--per-file", type=int, default=0,
                    help="draw N mutants from each file with the seed (instead of --sample)")
    ap.add_argument("--no-baseline", action="store_true",
                    help="skip the unmutated run (only where the suites just passed, as in make check); "
                         "time bounds then come from typical times")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="scratch trees tested in parallel")
    ap.add_argument("--files", nargs="*", default=[], help="globs of src/ files (default: all of src/)")
    ap.add_argument("--only", nargs="*", default=[], help="only these mutant ids")
    ap.add_argument("--match", help="only the mutants whose id matches this regular expression")
    ap.add_argument("--unit", help="comma-separated unit tests: the unit suite limited to these (screening)")
    ap.add_argument("--list", action="store_true",
                    help="print the mutants' ids and stop (with --sample or --per-file: the sample's)")
    ap.add_argument("--where", action="store_true", help="with --list: each id with its FILE:LINE:COL now")
    ap.add_argument("--strict", action="store_true",
                    help="fail on entries of the equivalent and proof-only lists that no mutant has (make mutation-check)")
    ap.add_argument("--report", help="write the markdown report here")
    ap.add_argument("--record", help="merge the killed mutants' ids (with the suite that killed each) into this file")
    ap.add_argument("--from-record", help="draw the sample from the ids in this file recorded killed by a "
                    "failing suite, not by a time-out (a regression check)")
    ap.add_argument("--from-log", metavar="LOG", nargs="+",
                    help="no run: the summary, --report and --record from the result lines of runs' output "
                         "(a run and its --resume parts), classified with the lists and the kill record as "
                         "they are now (survivors argued or killed since)")
    ap.add_argument("--code-only", action="store_true",
                    help="compile the mutants and compare their object code only (no suites): how many are "
                         "the original's or another's")
    ap.add_argument("--resume", metavar="LOG", nargs="+",
                    help="keep the results these logs of the same run printed; run only the other mutants")
    ap.add_argument("--draw-at", metavar="COMMIT",
                    help="with --sample or --per-file: draw the sample from the mutants of the tree at COMMIT "
                         "(the sample of a run made there, to resume it on a changed tree); the drawn ids no "
                         "mutant has now are stale, printed and left out")
    ap.add_argument("--log-command", help="with --from-log: the run's command line, where its log lacks it")
    ap.add_argument("--history", default=KILLED,
                    help="the kill history ordering the suites ('ID | killed by SUITE' lines; default %(default)s)")
    ap.add_argument("--suites", default="unit,cli,certified,proptest,vectors")
    ap.add_argument("--timeout-scale", type=float, default=1.0, help="multiplies every time bound")
    ap.add_argument("--keep", action="store_true", help="keep the scratch trees")
    ap.add_argument("--apply", metavar="DIR",
                    help="write the --only mutants into the copy of the tree at DIR and stop (e.g. for a proof job)")
    a = ap.parse_args()
    if a.draw_at and (a.only or a.from_record or not (a.sample or a.per_file)):
        ap.error("--draw-at: with --sample or --per-file only")
    kinds = [k.strip() for k in a.suites.split(",") if k.strip()]
    global UNIT_ONLY
    UNIT_ONLY = [u.strip() for u in a.unit.split(",")] if a.unit else None
    for k in kinds:
        if k not in ("unit", "cli", "certified", "proptest", "vectors"):
            ap.error(f"unknown suite '{k}'")
    if a.seed == "commit":  # the same sample for the same commit, another for the next
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
        seed = int(head.strip()[:7] or "0", 16)
    elif a.seed is not None:
        if not a.seed.isdigit():
            ap.error("--seed: a number or 'commit'")
        seed = int(a.seed)
    else:
        seed = int(time.time()) % 1000000
    t_start = time.time()

    srcs, muts = all_mutants(a.files)
    every = {m.id for m in muts}
    if a.match:
        muts = [m for m in muts if re.search(a.match, m.id)]
    by_id = {m.id: m for m in muts}
    equiv, proof_only = read_list(EQUIV), read_list(PROOF_ONLY)
    global HISTORY
    HISTORY = read_history(a.history)

    def stale_in(entries):  # listed ids no mutant has now (of the files selected)
        return sorted(i for i in entries if i not in every and
                      (not a.files or any(fnmatch.fnmatch(i.split(":")[0], g) for g in a.files)))
    stale = stale_in(list(equiv) + list(proof_only))
    stale_killed = stale_in(read_list(KILLED))
    if a.list:  # with --sample or --per-file: the sample, in the order a run tests it
        ms = draw(a, seed, by_id) if a.sample or a.per_file else [by_id[i] for i in sorted(by_id)]
        for m in ms:
            print(f"{m.id}\t{m.where}" if a.where else m.id)
        print(f"{len(ms)} mutants", file=sys.stderr)
        return 0
    for i in stale:
        print(f"{'FAIL' if a.strict else 'mutation: warning:'} stale entry (no mutant has this id now; "
              f"argue the mutant again under its new id, or drop it): {i}")
    if stale_killed:
        print(f"mutation: {len(stale_killed)} ids of {KILLED} are stale (a run with --record drops them)")
    if a.from_log:
        return from_log(a, srcs, by_id, every, kinds, equiv, proof_only, stale)
    if a.only:
        missing = [i for i in a.only if i not in by_id]
        if missing:
            sys.exit("mutation: no such mutant: " + ", ".join(missing))
        chosen = [by_id[i] for i in a.only]
        if a.apply:
            for m in chosen:
                src = srcs[m.file]
                with open(os.path.join(a.apply, m.file), "w", encoding="utf-8") as f:
                    f.write(src[:m.start] + m.repl + src[m.end:])
                print(f"mutation: {m.id} written to {os.path.join(a.apply, m.file)}")
            return 0
    elif a.from_record:
        if not os.path.exists(a.from_record):
            print(f"mutation: no record {a.from_record} (a run with --record writes it)", file=sys.stderr)
            return 2
        rec = read_list(a.from_record)
        ids = [i for i, why in rec.items() if not why.startswith("timeout")]
        live = sorted(i for i in ids if i in by_id)
        gone = len(ids) - len(live)
        print(f"mutation: {len(live)} mutants recorded killed by a failing suite still generated "
              f"({gone} stale: the code around them changed; "
              f"{len(rec) - len(ids)} recorded killed by a time-out, not drawn)")
        chosen = [by_id[i] for i in random.Random(seed).sample(live, min(a.sample or len(live), len(live)))]
    else:
        chosen = draw(a, seed, by_id)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                           capture_output=True, text=True).stdout.strip()
    print("mutation: command: " + " ".join(["scripts/mutation.py"] + sys.argv[1:]))
    print(f"mutation seed {seed}: {len(chosen)} of {len(by_id)} mutants, suites {','.join(kinds)}, "
          f"-j{a.jobs}, commit {commit}{' (modified)' if dirty else ''}", flush=True)

    signal.signal(signal.SIGTERM, on_term)  # stop, then clean up the scratch trees
    signal.signal(signal.SIGINT, on_term)
    base = tempfile.mkdtemp(prefix="chad-mutation.", dir=os.environ.get("TMPDIR", "/tmp"))
    workers = [Worker(base, k) for k in range(max(1, a.jobs))]
    try:
        global TREE
        TREE = workers[0].dir
        t0 = time.time()
        workers[0].setup(max(1, a.jobs))
        for w in workers[1:]:
            w.clone(workers[0])
        print(f"mutation: {len(workers)} scratch tree(s) built in {time.time() - t0:.0f} s", flush=True)
        print("mutation: suite time bounds on each suite's own time (CPU plus time blocked)", flush=True)
        cost = TYPICAL_COST if a.no_baseline or a.code_only else baseline(workers, kinds)
        results, lock, times = [], threading.Lock(), {}
        if a.resume:  # the results of the logs kept, their mutants not run again
            done, dtimes, _ = read_logs(a.resume, by_id, a.files)
            sel = {m.id for m in chosen}
            for (m, res, why, twin), secs in zip(done, dtimes):
                if m.id in sel:
                    res = classify(res, m.id, twin, equiv, proof_only)
                    results.append((m, res, why, twin))
                    times.setdefault(res, []).append(secs)
            out = len(done) - len(results)  # a sample drawn again on a changed tree differs: say so
            print(f"mutation: {len(results)} results kept from {', '.join(a.resume)}"
                  + (f"; {out} left out, their mutants not in this sample (a tree changed since: "
                     "--draw-at the logs' commit draws their sample)" if out else ""), flush=True)
        kept = {r[0].id for r in results}
        pool = [m for m in chosen if m.id not in kept]

        def loop(w):
            while True:
                with lock:
                    if not pool or STOP.is_set():
                        return
                    m = pool.pop(0)
                t0 = time.time()
                if a.code_only:
                    res, why, tb, twin = code_mutant(w, m, srcs[m.file])
                else:
                    res, why, tb, twin = test_mutant(w, m, srcs[m.file], kinds, cost, a.timeout_scale)
                if STOP.is_set():
                    return  # an interrupted mutant has no result
                res = classify(res, m.id, twin, equiv, proof_only)
                secs = time.time() - t0
                with lock:
                    results.append((m, res, why, twin))
                    times.setdefault(res, []).append(secs)
                    n = len(results)
                tag = {"survived": "FAIL mutant survived:", "timeout": "timeout"}.get(res, res)
                print(f"[{n}/{len(chosen)}] {tag} {m.id} @{m.where}{' (' + why + ')' if why else ''} "
                      f"{secs:.0f}s (build {tb:.0f}s){' same code as ' + twin if twin else ''}", flush=True)

        with ThreadPoolExecutor(len(workers)) as ex:
            list(ex.map(loop, workers))
    finally:
        if not a.keep:
            shutil.rmtree(base, ignore_errors=True)
        else:
            print(f"mutation: scratch trees kept in {base}")

    if STOP.is_set():
        print("mutation: stopped by a signal; partial results")
    if a.code_only:
        return code_summary(results, times, time.time() - t_start)
    return finish(a, results, times, srcs, seed, by_id, every, commit, dirty, kinds, time.time() - t_start,
                  cost, equiv, proof_only, stale)


def code_summary(results, times, wall):
    """--code-only: how many mutants need their suites run"""
    n = {}
    for _, res, _, twin in results:
        k = "twin" if twin else res
        n[k] = n.get(k, 0) + 1
    comp = len(results) - n.get("nocompile", 0)
    print()
    for k, what in (("nocompile", "not compiling"), ("same-code", "object code the original's (same-code)"),
                    ("twin", "object code a mutant's seen before (takes its result)"),
                    ("distinct", "distinct object code (to be run)")):
        print(f"  {what}: {n.get(k, 0)}")
    bt = [t for ts in times.values() for t in ts]
    print(f"of {comp} compiling mutants, {n.get('distinct', 0)} need their suites run "
          f"({100.0 * n.get('distinct', 0) / max(1, comp):.1f}%); build per mutant: median "
          f"{statistics.median(bt) if bt else 0:.1f} s, mean {statistics.mean(bt) if bt else 0:.1f} s; "
          f"wall {wall / 60:.1f} min")
    return 0


def classify(res, mid, twin, equiv, proof_only):
    """a survivor listed in the equivalent or proof-only list (under its own id
    or its same-code twin's) is counted as such"""
    if res in ("survived", "equivalent", "proof-only"):
        ids = (mid, twin) if twin else (mid,)
        return ("equivalent" if any(i in equiv for i in ids) else
                "proof-only" if any(i in proof_only for i in ids) else "survived")
    return res


def finish(a, results, times, srcs, seed, by_id, every, commit, dirty, kinds, wall, cost, equiv, proof_only,
           stale):
    """the summary, the report and the record of a run's results; the exit status"""
    results.sort(key=lambda r: r[0].id)
    rows = [(m, res) for m, res, _, _ in results]
    surv = [(m, why) for m, res, why, _ in results if res == "survived"]
    counts = dict.fromkeys(COLS, 0)
    for _, res in rows:
        counts[res] += 1
    print()
    for c in COLS:
        print(f"  {c:11s} {counts[c]}" + (f"   per mutant: median {statistics.median(times[c]):.0f} s, "
                                          f"mean {statistics.mean(times[c]):.0f} s, max {max(times[c]):.0f} s"
                                          if times.get(c) else ""))
    ntwin = sum(1 for r in results if r[3])
    if ntwin:
        print(f"  ({ntwin} of them took the result of a mutant tested before with the same object code)")
    print(f"mutation score {score(counts)} (killed + timeout over all compiling mutants not argued "
          f"equivalent; proof-only counted as not killed), wall {wall / 60:.1f} min")
    if a.report and rows:
        write_report(a, rows, results, srcs, seed, len(by_id), commit, dirty, kinds, wall, cost,
                     equiv, proof_only, times)
    if a.record:
        record(a.record, results, every)
    nstale = len(stale) if a.strict else 0
    passed = len(rows) - len(surv) - counts["nocompile"]
    print(f"{passed} passed, {len(surv) + nstale} failed")
    return 1 if surv or nstale else 0


RESULTS = "killed|timeout|FAIL mutant survived:|equivalent|proof-only|nocompile|same-code"
LOG_LINE = re.compile(r"^\[\d+/(\d+)\] (" + RESULTS + r") (.+?) @(\S+:\d+:\d+)(?: \((.*)\))? (\d+)s "
                      r"\(build \d+s\)(?: same code as (\S+))?$")


def ap_run(cmd):
    """--sample and --per-file of a run's command line"""
    words = cmd.split()
    get = lambda f: int(words[words.index(f) + 1]) if f in words[:-1] else 0  # noqa: E731
    return argparse.Namespace(sample=get("--sample"), per_file=get("--per-file"))


def read_logs(paths, by_id, files=None):
    """the results the runs printed to these logs (a mutant in several: the
    last), as ([(mutant, result, detail, twin)], [seconds], meta); a result
    is the one printed ('survived' for a survivor, listed or not); meta:
    the logs' seeds, -j, commits, command lines, wall minutes, and the
    mutants printed as survivors not accounted for ('FAIL') at the time"""
    got = {}
    meta = {"seed": [], "jobs": [], "commit": [], "command": [], "wall": 0.0, "failed": set(), "drawn": 0,
            "wallbound": [], "moved": {}, "stale": [], "draw_at": None}
    logged = [LOG_LINE.match(ln.rstrip("\n")) for p in paths for ln in open(p, encoding="utf-8")]
    logged = [m.group(3) for m in logged if m]
    before = None  # the mutants of the logs' trees: only if some logged id is gone
    if any(i not in by_id for i in logged):
        commits = {m.group(1) for p in paths for ln in open(p, encoding="utf-8")
                   for m in [re.match(r"mutation seed \d+: .*, commit (\w+)", ln)] if m}
        before = set()
        for c in sorted(commits):
            if subprocess.run(["git", "cat-file", "-e", c + "^{commit}"], cwd=ROOT,
                              capture_output=True).returncode == 0:
                before |= {m.id for m in mutants_at(c, files)}
            else:
                before = None  # a tree not at hand: functions renamed are not followed
                break
    mv = moved(logged, by_id, before)
    for path in paths:
        for ln in open(path, encoding="utf-8"):
            ln = ln.rstrip("\n")
            m0 = re.match(r"mutation seed (\d+): .*, -j(\d+), commit (\w+)( \(modified\))?", ln)
            if m0:
                meta["seed"].append(int(m0.group(1)))
                meta["jobs"].append(int(m0.group(2)))
                meta["commit"].append(m0.group(3) + (" (modified)" if m0.group(4) else ""))
            if ln.startswith("mutation: command: "):
                meta["command"].append(ln[len("mutation: command: "):])
                if "--resume" not in ln:  # --resume came with the measure: a part resumed has it
                    meta["wallbound"].append(path)  # until the line below says otherwise
            if ln.startswith("mutation: suite time bounds on each suite's own time") and \
                    path in meta["wallbound"]:
                meta["wallbound"].remove(path)
            md = re.match(r"mutation: sample drawn on the tree of (\w+): (\d+) of its (\d+) mutants, (\d+) moved"
                          r".*?, (\d+) stale now", ln)
            if md:
                meta["draw_at"] = (md.group(1),) + tuple(int(x) for x in md.groups()[1:])
            mw = re.search(r"wall ([\d.]+) min$", ln)
            if mw:
                meta["wall"] += float(mw.group(1)) * 60
            mr = LOG_LINE.match(ln)
            if not mr:
                continue
            meta["drawn"] = int(mr.group(1))
            res, mid, why, secs, twin = mr.group(2), mr.group(3), mr.group(5) or "", float(mr.group(6)), mr.group(7)
            if mid in mv:  # a result of the mutant under its old id: the same mutant
                print(f"mutation: {mid}: moved (with its code), now {mv[mid]}")
                meta["moved"][mid] = mv[mid]
                mid = mv[mid]
            twin = mv.get(twin, twin)
            if mid not in by_id:
                print(f"mutation: {mid}: no such mutant now (stale), left out")
                meta["stale"].append(mid)
                continue
            if res == "FAIL mutant survived:":
                meta["failed"].add(mid)
            if res in ("FAIL mutant survived:", "equivalent", "proof-only"):
                res = "survived"
            got[mid] = ((by_id[mid], res, why, twin), secs)
    return [r for r, _ in got.values()], [t for _, t in got.values()], meta


def from_log(a, srcs, by_id, every, kinds, equiv, proof_only, stale):
    """finish() on the results runs printed (their seeds, commits and wall
    times from their first and summary lines), each survivor classified
    again: argued equivalent or proof-only since, or killed since by a test
    written after the run (recorded 'killed by SUITE' in the kill record by
    a run of the tool on that mutant alone); those are reported apart"""
    raw, secs, meta = read_logs(a.from_log, by_id, a.files)
    rec = read_list(KILLED)
    results, times, a.after = [], {}, {}
    for (m, res, why, twin), t in zip(raw, secs):
        res = classify(res, m.id, twin, equiv, proof_only)
        if res == "survived":
            k = re.match(r"(killed by|timeout in) (\S+)$", rec.get(m.id, ""))
            if k:
                res, why = ("killed" if k.group(1) == "killed by" else "timeout"), k.group(2)
                a.after[m.id] = f"killed by {why} (since the run, by a test or a suite added after it; the tool on this mutant alone)"
        elif m.id in meta["failed"] and res in ("equivalent", "proof-only"):
            a.after[m.id] = f"{res} (argued after the run)"
        results.append((m, res, why, twin))
        times.setdefault(res, []).append(t)
    print(f"mutation: {len(results)} results read from {', '.join(a.from_log)}")
    a.log_command = a.log_command or (meta["command"][0] if meta["command"] else None)
    if a.log_command:  # the sample as the run drew it, for the report
        run = ap_run(a.log_command)
        a.sample, a.per_file = run.sample, run.per_file
    a.jobs = "/".join(sorted({f"-j{j}" for j in meta["jobs"]})) or "-j?"
    a.parts, a.drawn, a.wallbound = len(a.from_log), meta["drawn"], meta["wallbound"]
    a.draw_meta, a.moved_ids, a.stale_ids = meta["draw_at"], meta["moved"], meta["stale"]
    seed = meta["seed"][0] if meta["seed"] else 0
    commit = ", ".join(dict.fromkeys(meta["commit"])) or "?"
    return finish(a, results, times, srcs, seed, by_id, every, commit, "", kinds, meta["wall"], {}, equiv,
                  proof_only, stale)


def record(path, results, every):
    """merge into the kill record: the entries before, plus the mutants killed
    now with the suite that killed them, less those that did not die now and
    those no mutant has any more (stale)"""
    rec = read_list(path) if os.path.exists(path) else {}
    for m, res, why, _ in results:
        if res == "killed":
            rec[m.id] = f"killed by {why}"
        elif res == "timeout":
            rec[m.id] = f"timeout in {why}"
        else:
            rec.pop(m.id, None)
    files = {i.split(":")[0] for i in every}  # the files scanned: stale ids are judged there only
    gone = [i for i in rec if i not in every and i.split(":")[0] in files]
    for i in gone:
        del rec[i]
    with open(path, "w") as f:
        f.write("# Mutants killed in recorded runs (scripts/mutation.py --record; spec/mutation.md).\n"
                "# One a line: MUTANT-ID | killed by SUITE (a failure) or timeout in SUITE.\n"
                "# The kill history: a mutant's suites run first those that killed mutants of its\n"
                "# function before; make mutation-check draws from the 'killed by' entries.\n")
        for i in sorted(rec):
            f.write(f"{i} | {rec[i]}\n" if rec[i] else f"{i}\n")
    print(f"mutation: {path}: {len(rec)} entries" + (f" ({len(gone)} stale dropped)" if gone else ""))


SUITE_TEXT = {"unit": "the unit tests", "cli": "tests/cli/run.sh ./chad",
              "certified": "tests/certified/cli.sh and check.sh",
              "proptest": "the property tests, PROPTEST_N=200 PROPTEST_SEED=1",
              "vectors": "tests/vectors/check.py ./chad, the vectors regenerated byte for byte"}


def write_report(a, rows, results, srcs, seed, total, commit, dirty, kinds, wall, cost, equiv, proof_only,
                 times):
    ftab, tot = table(rows, lambda m: m.file)
    gtab, _ = table(rows, lambda m: f"{m.file} {m.fn or '(file scope)'}")
    gtab[0] = gtab[0].replace("| file |", "| function |")
    argv = " ".join(["scripts/mutation.py"] + sys.argv[1:])
    written = f"Written by `{argv}` (spec/mutation.md)."
    after = getattr(a, "after", {})
    if a.from_log:
        written = (f"The results of `{a.log_command or 'a run'}`"
                   + (f" (run in {a.parts} parts, each resuming the one before: `--resume`)" if a.parts > 1 else "")
                   + f" (spec/mutation.md), classified with the equivalent and proof-only lists and the kill "
                   f"record as they are now by `{argv}`.")
    ntwin = sum(1 for r in results if r[3])
    lines = [
        "# Mutation testing: run of record",
        "",
        written,
        "",
        f"- commit {commit}{' with uncommitted changes' if dirty else ''}; "
        f"{len(rows)} mutants of the {total} generated over the files selected"
        + (f" (the run was stopped after {len(rows)} of the {a.drawn} it drew; it takes the files in turn, "
           "one mutant of each a round, so the mutants tested are spread over the files alike)"
           if getattr(a, "drawn", 0) > len(rows) + len(getattr(a, "stale_ids", None) or []) else "")
        + (f" ({len(a.stale_ids)} more tested whose code has changed since: left out, below)"
           if getattr(a, "stale_ids", None) else "")
        + (f" (a sample drawn with seed {seed})" if a.sample else "")
        + (f" ({a.per_file} drawn from each file with seed {seed})" if a.per_file else "") + ";",
    ]
    dm = getattr(a, "draw_meta", None)
    if dm:
        lines += [f"- the sample is the one drawn on the tree of commit {dm[0]} (a part run on a later tree draws it "
                  f"there again: `--draw-at {dm[0]}`): {dm[1]} of its {dm[2]} mutants; "
                  f"on the tree of the last part {dm[3]} of their ids had moved (a function moved to another file "
                  "with its code: the same edit of the same tokens, found under its new id) and "
                  f"{dm[4]} were stale (no mutant has the id: the code around it changed; not tested);"]
    if a.from_log and getattr(a, "drawn", 0):
        left = a.drawn - len(rows) - len(getattr(a, "stale_ids", None) or [])  # stale: tested, code changed
        lines += [f"- {len(rows)} of the {a.drawn} drawn have a result"
                  + (f" and {len(a.stale_ids)} had one on code changed since (left out)"
                     if getattr(a, "stale_ids", None) else "")
                  + (f"; the other {left} are tested by the same command with `--resume` and the logs of "
                     "all the parts (each part's log written beside them)"
                     + (f", drawn on the tree of {dm[0]} (`--draw-at {dm[0]}`)" if dm else "")
                     if left > 0 else ": the sample is done") + ";"]
    if getattr(a, "moved_ids", None) or getattr(a, "stale_ids", None):
        lines += [f"- results read from the logs: {len(a.moved_ids)} under an id moved since (counted under its "
                  f"id now: a function moved to another file, or renamed in its file, with the mutated tokens; "
                  f"the same edit of the same tokens), {len(a.stale_ids)} of a mutant no longer generated (left out)"
                  + (": " + ", ".join(f"`{i}`" for i in a.stale_ids) if a.stale_ids else "") + ";"]
    lines += [
        "- per mutant: only the objects that include the mutated file recompiled (-fPIC) and libchad.so "
        "relinked (spec/mutation.md); a mutant whose objects (debug sections left out) are the original's "
        "is **same-code** (the same program: nothing run, not counted), one whose objects are those of a "
        "mutant tested before takes its result"
        + (f" ({ntwin} here)" if ntwin else "") + "; "
        "then the suites, each stopping the mutant's run at its first failure, "
        "in this order: those that killed mutants of the same function before (tests/mutation/killed.txt), "
        "the unit tests aimed at the file, then every suite cheapest first. Suites: "
        f"{', '.join(kinds)} (" + "; ".join(f"{k}: {SUITE_TEXT[k]}" for k in kinds if k in SUITE_TEXT) + ");",
        "- time bound per suite 3 x its time on the unmutated tree + 10 s; past it the suite runs again "
        "under 10 x + 60 s and only a second time-out kills (a suite's time: the CPU time of its processes "
        "plus the time none of them is running or waiting for a core"
        + (f"; the part{'s' if len(getattr(a, 'wallbound', [])) > 1 else ''} in "
           f"{', '.join(os.path.basename(x) for x in a.wallbound)}, run by the tool before that measure, "
           "counted wall time" if getattr(a, "wallbound", []) else "")
        + f"); wall time {wall / 60:.0f} min at {a.jobs if isinstance(a.jobs, str) else f'-j{a.jobs}'} "
        "on a shared 2-core machine;",
        "- time per mutant (build and suites; seconds): " + "; ".join(
            f"{c} {len(times[c])}: median {statistics.median(times[c]):.0f}, mean "
            f"{statistics.mean(times[c]):.0f}, max {max(times[c]):.0f}" for c in COLS if times.get(c)) + ";",
        "- score = (killed + timeout) / (killed + timeout + survived + proof-only); equivalent, same-code and "
        "not-compiling mutants are not counted.",
    ]
    if after:
        lines += ["- " + f"{len(after)} of the run's survivors were handled after it, each shown in the tables "
                  "as it is counted now (killed or equivalent); they are listed under \"Handled after the run\"."]
    lines += ["", "## Per file", ""] + ftab + ["", "## Per function", ""] + gtab + ["", "## Survivors", ""]
    surv = [(m, res, twin) for m, res, _, twin in results if res in ("survived", "equivalent", "proof-only")]
    if not surv:
        lines.append("None.")
    for m, res, twin in surv:
        why = (equiv.get(m.id) or proof_only.get(m.id) or (twin and (equiv.get(twin) or proof_only.get(twin)))
               or "no test kills it")
        if twin:
            why = f"the same object code as `{twin}`: " + why
        lines += [f"- `{m.id}` — **{res}**{' (after the run)' if m.id in after else ''}: {why}", "",
                  "```diff", diff_of(m, srcs[m.file]), "```", ""]
    tmo = [m for m, res, _, _ in results if res == "timeout"]
    lines += ["", "## Killed by timeout", ""] + ([f"- `{m.id}`" for m in tmo] or ["None."])
    if after:
        lines += ["", "## Handled after the run", "",
                  "Survivors of the run, each killed since by a test written after it or a suite the run "
                  "did not have (the suite named, as recorded in tests/mutation/killed.txt by a run of the tool on that mutant alone: "
                  "`scripts/mutation.py --only ID --no-baseline -j1 --suites ... --record "
                  "tests/mutation/killed.txt`) or argued since in equivalent.txt or proof-only.txt:", ""]
        for m, res, why, _ in results:
            if m.id in after:
                lines.append(f"- `{m.id}`: {after[m.id]}")
    same = [m for m, res, _, _ in results if res == "same-code"]
    lines += ["", "## Same object code as the original", ""] + ([f"- `{m.id}`" for m in same] or ["None."])
    with open(a.report, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"mutation: report written to {a.report}")


if __name__ == "__main__":
    sys.exit(main())
