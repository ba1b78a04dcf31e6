#!/usr/bin/python3
"""The CHAD rules' files (src/chad/reverse/*.c, src/chad/forward/*.c) as
parts of reverse.c's and forward.c's translation units.

    rule_layout.py                 check the layout: every file of the two
                                   folders included exactly once by its
                                   includer, each opening with its head
                                   comment (the card's rule, one line per
                                   function it defines, "Part of X's
                                   translation unit")
    rule_layout.py --against REV   also: the includers with each include
                                   replaced by its file minus the head
                                   comment are byte for byte REV's
                                   reverse.c and forward.c (a pure move)
    rule_layout.py --inline FILE   print FILE so re-inlined

Exits 1 on the first kind of difference found, with file:line.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
UNITS = {"src/chad/reverse.c": "reverse", "src/chad/forward.c": "forward"}
INCLUDE = re.compile(r'^#include "((?:reverse|forward)/[a-z_]+\.c)"$')
DEF = re.compile(r"^(?:static )?int ([a-z_0-9]+)\(")


def read(rel):
    with open(os.path.join(ROOT, rel)) as fh:
        return fh.read()


def head_and_body(rel):
    """(head comment lines, the rest) of an included file."""
    lines = read(rel).split("\n")
    if not lines[0].startswith("/* "):
        raise ValueError(f"{rel}:1:1: no head comment")
    for i, line in enumerate(lines):
        if line.endswith("*/"):
            return lines[:i + 1], lines[i + 1:]
    raise ValueError(f"{rel}:1:1: head comment not closed")


def inline(unit):
    """The includer's text with each rule file's body in place of its #include."""
    out = []
    seen = []
    for n, line in enumerate(read(unit).split("\n"), 1):
        m = INCLUDE.match(line)
        if not m:
            out.append(line)
            continue
        rel = os.path.join(os.path.dirname(unit), m.group(1))
        seen.append(rel)
        _, body = head_and_body(rel)
        if body and body[-1] == "":
            body = body[:-1]   # the file's final newline
        out.extend(body)
    return "\n".join(out), seen


def check_heads(unit, seen, errors):
    folder = os.path.join(os.path.dirname(unit), UNITS[unit])
    present = sorted(os.path.join(folder, f) for f in os.listdir(os.path.join(ROOT, folder))
                     if f.endswith(".c"))
    for rel in sorted(set(present) - set(seen)):
        errors.append(f"{rel}:1:1: not included by {unit}")
    for rel in sorted({r for r in seen if seen.count(r) > 1}):
        errors.append(f"{rel}:1:1: included more than once by {unit}")
    base = os.path.basename(unit)
    for rel in present:
        head, body = head_and_body(rel)
        text = "\n".join(head)
        if f"Part of {base}'s translation unit" not in text:
            errors.append(f"{rel}:1:1: head comment does not say it is part of {base}'s translation unit")
        mode = "R" if UNITS[unit] == "reverse" else "F"
        if not re.search(r"^/\* %s\(" % mode, head[0]):
            errors.append(f"{rel}:1:1: head comment does not open with the card's {mode}(...) rule")
        listed = [m.group(1) for h in head for m in [re.match(r"^ \*   ([a-z_0-9]+)  ", h)] if m]
        defined = [m.group(1) for b in body for m in [DEF.match(b)] if m]
        if listed != defined:
            errors.append(f"{rel}:1:1: head comment lists {listed}, the file defines {defined}")


def main(argv):
    if argv[:1] == ["--inline"] and len(argv) == 2:
        sys.stdout.write(inline(argv[1])[0])
        return 0
    against = None
    if argv[:1] == ["--against"] and len(argv) == 2:
        against = argv[1]
    elif argv:
        print(__doc__, file=sys.stderr)
        return 2
    errors = []
    for unit in UNITS:
        try:
            text, seen = inline(unit)
            check_heads(unit, seen, errors)
        except ValueError as e:
            errors.append(str(e))
            continue
        if against is not None:
            old = subprocess.run(["git", "show", f"{against}:{unit}"], cwd=ROOT, capture_output=True,
                                 text=True, check=True).stdout
            if text != old:
                new_l, old_l = text.split("\n"), old.split("\n")
                at = next((i for i, (a, b) in enumerate(zip(new_l, old_l)) if a != b),
                          min(len(new_l), len(old_l)))
                errors.append(f"{unit}:{at + 1}:1: re-inlined text differs from {against}'s "
                              f"({len(new_l)} against {len(old_l)} lines)")
            else:
                print(f"{unit}: re-inlined, identical to {against}'s ({len(old.split(chr(10)))} lines)")
    for e in errors:
        print(e, file=sys.stderr)
    if not errors:
        print("rule layout: every rule file included once, each with its head comment")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
