#!/usr/bin/env python3
"""Mutation testing of CHAD-C (`make mutation`; spec/mutation.md).

Generates mutants mechanically over src/ with a small C lexer (comments,
strings, ACSL annotations and preprocessor lines are never mutated), applies
each in a scratch copy of the tree (the checkout is never modified), builds
it (a mutant that does not compile is not counted) and runs the test suites
cheapest first, stopping at the first failure, each under a time bound.

  scripts/mutation.py [--seed S] [--sample N] [-j J] [--files GLOB ...]
                      [--only ID ...] [--list] [--report FILE]
                      [--from-record FILE] [--suites unit,cli,certified,proptest]

A mutant's id is FILE:LINE:COL:OP:ORIGINAL:REPLACEMENT (stable while the
file's text does not move). tests/mutation/equivalent.txt lists mutants argued
equivalent and tests/mutation/proof-only.txt kernel mutants left to the proof
gate; both are read here. Output: a summary per file and per function, the
survivors with their diffs, and a last line "N passed, N failed" (passed =
killed or accounted for, failed = survived); exit status 1 if any mutant
survived that neither list accounts for, 2 on a usage or setup error.
Standard library only.
"""
import argparse
import fnmatch
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EQUIV = "tests/mutation/equivalent.txt"
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
 | (?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[uUlLfF]*|0[xX][0-9a-fA-F]+[uUlL]*)
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
                    d, j = 0, i - 1
                    while j >= 0:
                        if toks[j].text == ")":
                            d += 1
                        elif toks[j].text == "(":
                            d -= 1
                            if d == 0:
                                break
                        j -= 1
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


def is_operand_end(toks, i):
    """toks[i] can end an operand (so an operator after it is binary)"""
    t = toks[i]
    if t.kind == "id":
        return t.text not in ("sizeof", "return", "case", "else", "do")
    if t.kind in OPERAND_END or t.text == "]":
        return True
    if t.text == ")":  # not the condition of if/while/for/switch, nor a cast
        d, j = 0, i
        while j >= 0:
            if toks[j].text == ")":
                d += 1
            elif toks[j].text == "(":
                d -= 1
                if d == 0:
                    break
            j -= 1
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
    d, j = 0, i
    while j >= 0:
        if toks[j].text == ")":
            d += 1
        elif toks[j].text == "(":
            d -= 1
            if d == 0:
                break
        j -= 1
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
    __slots__ = ("file", "line", "col", "op", "orig", "repl", "start", "end", "fn")

    def __init__(self, file, tok, op, orig, repl, start, end, fn):
        self.file, self.line, self.col = file, tok.line, tok.col
        self.op, self.orig, self.repl = op, orig, repl
        self.start, self.end, self.fn = start, end, fn

    @property
    def id(self):
        def short(s):
            s = " ".join(s.split())
            return s if len(s) <= 40 else s[:37] + "..."
        return f"{self.file}:{self.line}:{self.col}:{self.op}:{short(self.orig)}:{short(self.repl)}"


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


def generate(path, rel):
    src = open(path, encoding="utf-8").read()
    toks = lex(src)
    fn = functions(toks)
    out = []

    def add(i, op, orig, repl, start, end):
        out.append(Mutant(rel, toks[i], op, orig, repl, start, end, fn[i]))

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
    ("src/api", ["test_api", "test_api_misuse", "test_api_multi"]),
    ("src/verdict.c", ["test_verdict"]),
    ("src/surface/", ["test_surface", "test_surface_target", "test_surface_mutate"]),
]
# seconds per suite on a loaded 2-core machine (a baseline run's), for --no-baseline
TYPICAL_COST = {"test_fast": 12, "test_fast_vec": 20, "test_prim_accuracy": 10, "test_surface": 2,
                "test_kernel_types": 1.2, "test_surface_target": 1.1, "test_eval": 1, "test_api_misuse": 1,
                "cli": 30, "certified-cli": 1.1, "certified-check": 9.4, "proptest": 6.4}
PROPTEST_ENV = {"PROPTEST_N": "200", "PROPTEST_SEED": "1", "PROPTEST_QUIET": "1"}


UNIT_ONLY = None
TREE = ROOT  # the tree whose unit tests are run: a scratch copy once set up


def unit_tests():
    if UNIT_ONLY:
        return UNIT_ONLY
    return sorted(f[:-2] for f in os.listdir(os.path.join(TREE, "tests/unit"))
                  if f.startswith("test_") and f.endswith(".c"))


def suite_plan(rel, kinds, cost):
    """[(suite name, build target or None, command, env)] for a mutant in rel:
    targeted unit tests, the other unit tests by cost, the command line, the
    certified evaluator's command-line tests, the property tests."""
    plan, seen = [], set()
    units = unit_tests()
    if "unit" in kinds:
        first = []
        for pre, ts in UNIT_TARGETS:
            if rel.startswith(pre):
                first += [t for t in ts if t in units and t not in first]
        rest = sorted((t for t in units if t not in first), key=lambda t: (cost.get(t, 0.1), t))
        for t in first + rest:
            if t not in seen:
                seen.add(t)
                plan.append((t, f"build/release/tests/{t}", [f"build/release/tests/{t}"], {}))
    if "cli" in kinds:
        plan.append(("cli", None, ["tests/cli/run.sh", "./chad"], {}))
    if "certified" in kinds:
        plan.append(("certified-cli", None, ["tests/certified/cli.sh", "./chad"], {}))
        plan.append(("certified-check", None, ["tests/certified/check.sh", "./chad"], {}))
    if "proptest" in kinds:
        plan.append(("proptest", None, ["proptests/run.sh"], PROPTEST_ENV))
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


def run(cmd, cwd, timeout, env=None):
    """(status, seconds, output tail); status 'ok', 'fail' or 'timeout'.
    The command runs in its own process group, killed whole on timeout."""
    e = dict(os.environ)
    # OpenMP threads that sleep when idle and no more than the cores: spinning
    # threads on an oversubscribed machine slow a test by 10 times or more
    e.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    e.setdefault("OMP_NUM_THREADS", "2")
    e.update(env or {})
    t0 = time.time()
    if STOP.is_set():
        return "fail", 0.0, "stopped"
    p = subprocess.Popen(cmd, cwd=cwd, env=e, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL, start_new_session=True)
    RUNNING.add(p.pid)
    try:
        out, _ = p.communicate(timeout=timeout)
        st = "ok" if p.returncode == 0 else "fail"
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, _ = p.communicate()
        st = "timeout"
    finally:
        RUNNING.discard(p.pid)
    return st, time.time() - t0, out.decode("utf-8", "replace")[-2000:]


class Worker:
    """A scratch copy of the tree with its own build directory."""

    def __init__(self, base, k):
        self.dir = os.path.join(base, f"w{k}")

    def setup(self):
        files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                               check=True, capture_output=True).stdout.decode().split("\0")
        for f in files:
            if not f or not os.path.isfile(os.path.join(ROOT, f)):
                continue
            d = os.path.join(self.dir, os.path.dirname(f))
            os.makedirs(d, exist_ok=True)
            shutil.copy2(os.path.join(ROOT, f), os.path.join(self.dir, f), follow_symlinks=False)
        st, _, out = run(["make", "-s", "chad", "build/release/libchad.a"], self.dir, 1800)
        if st != "ok":
            sys.exit(f"mutation: the unmutated tree does not build:\n{out}")

    def build(self, target=None):
        tg = ["chad", "build/release/libchad.a"] + ([target] if target else [])
        st, _, out = run(["make", "-s"] + tg, self.dir, 1800)
        return st == "ok", out

    def objects_of(self, rel):
        """object files that make rebuilds when rel changes (a .c: its own)"""
        if rel.endswith(".c"):
            return [os.path.join(self.dir, "build/release", rel[:-2] + ".o")]
        return []

    def apply(self, m, src):
        path = os.path.join(self.dir, m.file)
        self._saved = [(o, open(o, "rb").read()) for o in self.objects_of(m.file) if os.path.exists(o)]
        self._stat = os.stat(path)
        with open(path, "w", encoding="utf-8") as f:
            f.write(src[:m.start] + m.repl + src[m.end:])

    def restore(self, m, src):
        """the original text with its old time stamp and the pristine object,
        touched so that the library and binaries are rebuilt from it"""
        path = os.path.join(self.dir, m.file)
        with open(path, "w", encoding="utf-8") as f:
            f.write(src)
        os.utime(path, ns=(self._stat.st_atime_ns, self._stat.st_mtime_ns))
        for o, data in self._saved:
            with open(o, "wb") as f:
                f.write(data)
        if not self._saved:  # a header: rebuild what includes it
            os.utime(path, None)
        else:
            now = time.time()
            for o, _ in self._saved:
                os.utime(o, (now, now))


def baseline(w, kinds, scale):
    """every suite on the unmutated tree: it must pass; its times set the bounds"""
    cost = {}
    for name, target, cmd, env in suite_plan("", kinds, {}):
        if target:
            ok, out = w.build(target)
            if not ok:
                sys.exit(f"mutation: {target} does not build on the unmutated tree:\n{out}")
        st, secs, out = run(cmd, w.dir, 1800, env)
        if st != "ok":
            sys.exit(f"mutation: the unmutated tree fails {name}; mutants would prove nothing:\n{out}")
        cost[name] = secs
        print(f"  baseline {name}: ok, {secs:.1f} s", flush=True)
    return cost


def bound(cost, name, scale):
    # generous: the machine's load varies by a factor of 3 within a run
    return scale * (10 * cost.get(name, 0.1 if name.startswith("test_") else 60) + 60)


def test_mutant(w, m, src, kinds, cost, scale):
    """(result, detail): killed / timeout / survived / nocompile"""
    w.apply(m, src)
    try:
        ok, out = w.build()
        if not ok:
            return "nocompile", out.strip().splitlines()[0][:160] if out.strip() else "build failed"
        for name, target, cmd, env in suite_plan(m.file, kinds, cost):
            if target:
                ok, out = w.build(target)
                if not ok:
                    return "nocompile", f"{target}: " + (out.strip().splitlines() or [""])[0][:120]
            st, _, out = run(cmd, w.dir, bound(cost, name, scale), env)
            if st == "fail":
                return "killed", name
            if st == "timeout":
                return "timeout", name
        return "survived", ""
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


COLS = ["killed", "timeout", "survived", "equivalent", "proof-only", "nocompile"]


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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=None, help="sampling seed (default: from the clock, printed)")
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
    ap.add_argument("--list", action="store_true", help="print the mutants' ids and stop")
    ap.add_argument("--report", help="write the markdown report here")
    ap.add_argument("--record", help="merge the killed mutants' ids into this file")
    ap.add_argument("--from-record", help="draw the sample from the ids in this file (a regression check)")
    ap.add_argument("--suites", default="unit,cli,certified,proptest")
    ap.add_argument("--timeout-scale", type=float, default=1.0, help="multiplies every time bound")
    ap.add_argument("--keep", action="store_true", help="keep the scratch trees")
    ap.add_argument("--apply", metavar="DIR",
                    help="write the --only mutants into the copy of the tree at DIR and stop (e.g. for a proof job)")
    a = ap.parse_args()
    kinds = [k.strip() for k in a.suites.split(",") if k.strip()]
    global UNIT_ONLY
    UNIT_ONLY = [u.strip() for u in a.unit.split(",")] if a.unit else None
    for k in kinds:
        if k not in ("unit", "cli", "certified", "proptest"):
            ap.error(f"unknown suite '{k}'")
    seed = a.seed if a.seed is not None else int(time.time()) % 1000000
    t_start = time.time()

    srcs, muts = all_mutants(a.files)
    by_id = {}
    if a.match:
        muts = [m for m in muts if re.search(a.match, m.id)]
    for m in muts:
        by_id.setdefault(m.id, m)  # same id twice (same text): one mutant
    equiv, proof_only = read_list(EQUIV), read_list(PROOF_ONLY)
    stale = [i for i in list(equiv) + list(proof_only) if i not in by_id and
             (not a.files or any(fnmatch.fnmatch(i.split(":")[0], g) for g in a.files))]
    if a.list:
        for i in sorted(by_id):
            print(i)
        print(f"{len(by_id)} mutants", file=sys.stderr)
        return 0
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
        ids = [ln.strip() for ln in open(a.from_record) if ln.strip() and not ln.startswith("#")]
        live = sorted(i for i in ids if i in by_id)
        gone = len(ids) - len(live)
        print(f"mutation: {len(live)} recorded killed mutants still apply ({gone} moved or gone)")
        chosen = [by_id[i] for i in random.Random(seed).sample(live, min(a.sample or len(live), len(live)))]
    elif a.per_file:
        rng, chosen = random.Random(seed), []
        for f in sorted({m.file for m in by_id.values()}):
            ids = sorted(i for i, m in by_id.items() if m.file == f)
            chosen += [by_id[i] for i in rng.sample(ids, min(a.per_file, len(ids)))]
    else:
        ids = sorted(by_id)
        chosen = [by_id[i] for i in (random.Random(seed).sample(ids, a.sample)
                                      if 0 < a.sample < len(ids) else ids)]
    chosen.sort(key=lambda m: m.id)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                           capture_output=True, text=True).stdout.strip()
    print(f"mutation seed {seed}: {len(chosen)} of {len(by_id)} mutants, suites {','.join(kinds)}, "
          f"-j{a.jobs}, commit {commit}{' (modified)' if dirty else ''}", flush=True)
    for i in stale:
        print(f"mutation: warning: listed mutant no longer generated (update the list): {i}")

    signal.signal(signal.SIGTERM, on_term)  # stop, then clean up the scratch trees
    signal.signal(signal.SIGINT, on_term)
    base = tempfile.mkdtemp(prefix="chad-mutation.", dir=os.environ.get("TMPDIR", "/tmp"))
    workers = [Worker(base, k) for k in range(max(1, a.jobs))]
    try:
        with ThreadPoolExecutor(len(workers)) as ex:
            list(ex.map(lambda w: w.setup(), workers))
        global TREE
        TREE = workers[0].dir
        cost = TYPICAL_COST if a.no_baseline else baseline(workers[0], kinds, a.timeout_scale)
        results, lock = [], threading.Lock()
        pool = list(chosen)

        def loop(w):
            while True:
                with lock:
                    if not pool or STOP.is_set():
                        return
                    m = pool.pop(0)
                t0 = time.time()
                res, why = test_mutant(w, m, srcs[m.file], kinds, cost, a.timeout_scale)
                if STOP.is_set():
                    return  # an interrupted mutant has no result
                if res == "survived" and m.id in equiv:
                    res = "equivalent"
                elif res == "survived" and m.id in proof_only:
                    res = "proof-only"
                with lock:
                    results.append((m, res, why))
                    n = len(results)
                tag = {"survived": "FAIL mutant survived:", "timeout": "timeout"}.get(res, res)
                print(f"[{n}/{len(chosen)}] {tag} {m.id}{' (' + why + ')' if why else ''} "
                      f"{time.time() - t0:.0f}s", flush=True)

        with ThreadPoolExecutor(len(workers)) as ex:
            list(ex.map(loop, workers))
    finally:
        if not a.keep:
            shutil.rmtree(base, ignore_errors=True)
        else:
            print(f"mutation: scratch trees kept in {base}")

    if STOP.is_set():
        print("mutation: stopped by a signal; partial results")
    results.sort(key=lambda r: r[0].id)
    rows = [(m, res) for m, res, _ in results]
    wall = time.time() - t_start
    surv = [(m, why) for m, res, why in results if res == "survived"]
    counts = dict.fromkeys(COLS, 0)
    for _, res in rows:
        counts[res] += 1
    print()
    for c in COLS:
        print(f"  {c:11s} {counts[c]}")
    print(f"mutation score {score(counts)} (killed + timeout over all compiling mutants not argued "
          f"equivalent; proof-only counted as not killed), wall {wall / 60:.1f} min")
    if a.report and rows:
        write_report(a, rows, results, srcs, seed, len(by_id), commit, dirty, kinds, wall, cost,
                     equiv, proof_only)
    if a.record:  # merged: the ids recorded before, plus those killed now, less those that survived now
        ids = set()
        if os.path.exists(a.record):
            ids = {ln.strip() for ln in open(a.record) if ln.strip() and not ln.startswith("#")}
        ids |= {m.id for m, res in rows if res in ("killed", "timeout")}
        ids -= {m.id for m, res in rows if res not in ("killed", "timeout")}
        with open(a.record, "w") as f:
            f.write("# Mutants killed in a recorded run (scripts/mutation.py --record); make check\n"
                    "# draws a few and checks that they are still killed. One id a line.\n")
            for i in sorted(ids):
                f.write(i + "\n")
    passed = len(rows) - len(surv) - counts["nocompile"]
    print(f"{passed} passed, {len(surv)} failed")
    return 1 if surv else 0


def write_report(a, rows, results, srcs, seed, total, commit, dirty, kinds, wall, cost, equiv, proof_only):
    ftab, tot = table(rows, lambda m: m.file)
    gtab, _ = table(rows, lambda m: f"{m.file} {m.fn or '(file scope)'}")
    gtab[0] = gtab[0].replace("| file |", "| function |")
    argv = " ".join(["scripts/mutation.py"] + sys.argv[1:])
    lines = [
        "# Mutation testing: run of record",
        "",
        "Written by `" + argv + "` (spec/mutation.md).",
        "",
        f"- commit {commit}{' with uncommitted changes' if dirty else ''}; "
        f"{len(rows)} mutants of the {total} generated over the files selected"
        + (f" (a sample drawn with seed {seed})" if a.sample else "")
        + (f" ({a.per_file} drawn from each file with seed {seed})" if a.per_file else "") + ";",
        f"- suites, in order, each stopping the mutant's run at its first failure: {', '.join(kinds)} "
        f"(unit: the release unit tests, targeted ones first; cli: tests/cli/run.sh ./chad; certified: "
        f"tests/certified/cli.sh and check.sh; proptest: PROPTEST_N=200 PROPTEST_SEED=1);",
        f"- time bound per suite 10 x its baseline time + 60 s; wall time {wall / 60:.0f} min at -j{a.jobs} "
        "on a shared 2-core machine;",
        "- score = (killed + timeout) / (killed + timeout + survived + proof-only); equivalent and "
        "not-compiling mutants are not counted.",
        "",
        "## Per file",
        "",
    ] + ftab + ["", "## Per function", ""] + gtab + ["", "## Survivors", ""]
    surv = [(m, res) for m, res, _ in results if res in ("survived", "equivalent", "proof-only")]
    if not surv:
        lines.append("None.")
    for m, res in surv:
        why = equiv.get(m.id) or proof_only.get(m.id) or "no test kills it"
        lines += [f"- `{m.id}` — **{res}**: {why}", "", "```diff", diff_of(m, srcs[m.file]), "```", ""]
    tmo = [m for m, res, _ in results if res == "timeout"]
    lines += ["", "## Killed by timeout", ""] + ([f"- `{m.id}`" for m in tmo] or ["None."])
    with open(a.report, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"mutation: report written to {a.report}")


if __name__ == "__main__":
    sys.exit(main())
