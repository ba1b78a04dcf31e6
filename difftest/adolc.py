"""ADOL-C as the AD system under test, for difftest/run.py.

`chad export --to adolc` writes each program as C++ over adouble, with a
driver that tapes it at the input and runs ADOL-C's zos_forward +
fos_reverse (reverse mode), fos_forward (forward mode) and jacobian
(spec/export.md). Compiling is the expensive part, so many programs go into
one translation unit (a batch): the shared runtime once, each program in
its own namespace, and one main that reads lines "K arguments tangent
cotangent" and prints one JSON line per evaluation.
"""
import os
import subprocess

MARK_PROGRAM = "// ---- program ----\n"
MARK_MAIN = "// ---- main ----\n"
CXX = os.environ.get("CXX", "g++")


class CannotExport(Exception):
    pass


def export(chad, path, fn=None):
    """The C++ text of program path (fn), or CannotExport with chad's
    message (the construct that has no ADOL-C export)."""
    cmd = [chad, "export", path, "--to", "adolc"] + (["--fn", fn] if fn else [])
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise CannotExport(p.stderr.strip())
    return p.stdout


def construct(message):
    """The construct named in a cannot-export message ("... uses X, which ...")."""
    if " uses " in message and ", which" in message:
        return message.split(" uses ", 1)[1].split(", which", 1)[0]
    return message


def batch_source(texts):
    """One translation unit from exported programs: the runtime of the first,
    then program k in namespace p<k>, then a main dispatching on k."""
    prelude = texts[0].split(MARK_PROGRAM, 1)[0]
    parts = [prelude]
    for k, t in enumerate(texts):
        body = t.split(MARK_PROGRAM, 1)[1].split(MARK_MAIN, 1)[0]
        parts.append(body.replace("namespace chad_program {", f"namespace p{k} {{", 1)
                     .replace("}  // namespace chad_program", f"}}  // namespace p{k}", 1))
    runs = ", ".join(f"p{k}::run" for k in range(len(texts)))
    parts.append(f"int main() {{\n  static const chad::runner runs[] = {{{runs}}};\n"
                 f"  return chad::main_loop(runs, {len(texts)}, true);\n}}\n")
    return "".join(parts)


def compile_batch(texts, folder, name):
    """Compiles a batch into folder/name; returns the binary's path."""
    os.makedirs(folder, exist_ok=True)
    src = os.path.join(folder, name + ".cpp")
    exe = os.path.join(folder, name)
    with open(src, "w") as f:
        f.write(batch_source(texts))
    # -O0: a batch compiles once and runs once per program
    p = subprocess.run([CXX, "-std=c++17", "-O0", "-w", src, "-o", exe, "-ladolc"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{CXX} failed on {src}: {p.stderr[-3000:]}")
    return exe


def tokens(j, out):
    """The driver's input form of a JSON value: a list is its length then its
    elements, {"inl": v} is `inl` then v, true/false are inl/inr, null
    nothing, numbers as they are (17 digits: the same double)."""
    if isinstance(j, bool):
        out.append("inl" if j else "inr")
    elif isinstance(j, list):
        out.append(str(len(j)))
        for x in j:
            tokens(x, out)
    elif isinstance(j, dict):
        (side, v), = j.items()
        out.append(side)
        tokens(v, out)
    elif isinstance(j, int):
        out.append(str(j))
    elif isinstance(j, float):
        out.append(repr(j))
    elif j is not None:
        raise TypeError(f"no input form for {j!r}")


def numbers(j, out):
    """The reals of a tangent or cotangent in JSON order (nulls skipped)."""
    if isinstance(j, list):
        for x in j:
            numbers(x, out)
    elif isinstance(j, dict):
        for x in j.values():
            numbers(x, out)
    elif isinstance(j, (int, float)) and not isinstance(j, bool):
        out.append(repr(float(j)))


def input_line(k, args, tangent, cotangent):
    out = [str(k)]
    for a in args:
        tokens(a, out)
    numbers(tangent, out)
    numbers(cotangent, out)
    return " ".join(out)


def run_batch(exe, lines, timeout=600):
    """Runs a batch binary on its input lines; one output line each."""
    p = subprocess.run([exe], input="\n".join(lines) + "\n", capture_output=True, text=True,
                       timeout=timeout)
    outs = p.stdout.splitlines()
    if len(outs) != len(lines):
        raise RuntimeError(f"{exe}: {len(outs)} output lines for {len(lines)} inputs "
                           f"(exit {p.returncode}): {p.stderr[-1000:]}")
    return outs
