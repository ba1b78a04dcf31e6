#!/usr/bin/env python3
"""The record of proved jobs, proofs/record.tsv, and the keys it holds.

A job's key is the SHA-256 of everything its result depends on:
  - its proofs/wp-run.sh call (files, selection, preprocessor definitions,
    provers in order, timeouts, -wp-par) and the settings wp-run.sh reads
    from the environment, as wp-run.sh prints them with WP_DRY_RUN set;
  - each C file of the call, preprocessed exactly as Frama-C does it
    (the command of `frama-c -print-cpp-commands`: gcc -E -C -dD with
    Frama-C's libc, so the headers it includes and the ACSL comments are in
    the text hashed);
  - proofs/wp-run.sh (frama-c's options, the retry; its code, without
    its comment lines), proofs/wp_tuning.ml, proofs/cvc5.drv, proofs/z3.drv,
    and any other driver of proofs/ the Why3 configuration names;
  - the Why3 configuration the provers run under (build/proofs/why3.conf,
    with the checkout's path and the machine's core count taken out),
    which holds each prover's command line, limits and options;
  - the versions of frama-c, why3, z3, cvc5, cvc4, gcc and ocamlopt.
The checkout's path is in none of these, so a clone elsewhere computes the
same keys.

Usage (from the repository's root; proofs/prove.sh and
proofs/incremental.sh call it):
  record.py keys INVOCATION...       print "NAME<TAB>KEY" per invocation file
                                     (one JSON line of wp-run.sh's dry run;
                                     a script job's file may hold several:
                                     their inputs all go into the key)
  record.py explain INVOCATION       the key's parts and their hashes
  record.py check NAME KEY           exit 0 iff the record has NAME with KEY,
                                     all goals valid, and its report unchanged
  record.py put NAME KEY REPORT WALL add or replace NAME's row (if the
                                     report has valid == total > 0; else
                                     drop the row and exit 1)
  record.py drop NAME                remove NAME's row
  record.py merge OUT REPORT...      merge job reports into OUT, print the
                                     totals, exit 1 unless all valid
"""
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys

RECORD = "proofs/record.tsv"
HEADER = """# The record of proved jobs: for each proof job of proofs/jobs.sh, the key
# of its inputs (proofs/record.py) when it was last proved with every goal
# valid, its goals, how many of them its retry proved, its wall time in
# seconds (on the machine of that run, beside the other jobs of the run)
# and the SHA-256 of its report proofs/wp-report-JOB.json. Written by
# proofs/prove.sh and proofs/incremental.sh; read by proofs/incremental.sh,
# which accepts a job whose key and report match its row.
job\tkey\tvalid\ttotal\tretried\twall_s\treport_sha256
"""
TOOLS = [["frama-c", "-version"], ["why3", "--version"], ["z3", "-version"],
         ["cvc5", "--version"], ["cvc4", "--version"], ["gcc", "--version"],
         ["ocamlopt", "-version"]]
FILES = ["proofs/wp-run.sh", "proofs/wp_tuning.ml", "proofs/cvc5.drv", "proofs/z3.drv"]


def sha(data):
    if isinstance(data, str):
        data = data.encode()
    return hashlib.sha256(data).hexdigest()


def file_sha(path):
    with open(path, "rb") as f:
        return sha(f.read())


def script_sha(path):
    """SHA-256 of a shell script without its comment lines (and the
    heredocs' Python comment lines): a comment edit leaves the proofs'
    inputs as they were. A line is dropped only when its first non-blank
    character is '#'."""
    with open(path) as f:
        code = [line for line in f if not line.lstrip().startswith("#")]
    return sha("".join(code))


def first_line(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True).stdout
    except OSError:
        return "absent"
    return (out.strip().split("\n") or ["?"])[0]


_cpp_cache = {}


def preprocessed(cpp_args, files):
    """SHA-256 of each file as Frama-C preprocesses it with cpp_args."""
    todo = [f for f in files if (cpp_args, f) not in _cpp_cache]
    if todo:
        root = os.getcwd()
        out = subprocess.run(["frama-c", "-no-autoload-plugins", "-cpp-extra-args=" + cpp_args,
                              "-print-cpp-commands"] + todo,
                             capture_output=True, text=True, check=True).stdout
        cmds = [line.strip() for line in out.split("\n")
                if line.startswith("  ") and line.strip()]
        if len(cmds) != len(todo):
            sys.exit(f"record.py: expected {len(todo)} preprocessing commands, got {len(cmds)}")
        for f, cmd in zip(todo, cmds):
            argv = shlex.split(cmd)
            if "-o" in argv:
                i = argv.index("-o")
                del argv[i:i + 2]
            argv = [os.path.relpath(a, root) if a == os.path.join(root, f) else a for a in argv]
            if f not in argv:
                sys.exit(f"record.py: {f} not in its preprocessing command: {cmd}")
            res = subprocess.run(argv, capture_output=True, check=True)
            _cpp_cache[(cpp_args, f)] = sha(res.stdout)
    return [(f, _cpp_cache[(cpp_args, f)]) for f in files]


_common = None


def common_parts():
    global _common
    if _common is None:
        parts = [("tool " + " ".join(c), sha(first_line(c))) for c in TOOLS]
        parts += [("file " + f, script_sha(f) if f.endswith(".sh") else file_sha(f))
                  for f in FILES]
        conf = os.path.join("build", "proofs", "why3.conf")
        with open(conf) as f:
            text = f.read().replace(os.getcwd() + "/", "./")
        # Why3's own parallelism, set by its detection from the machine's
        # cores: WP runs one goal at a time per job (-wp-par), so it does
        # not bear on the results
        text = "".join(line for line in text.splitlines(True)
                       if not line.startswith("running_provers_max"))
        parts.append(("why3.conf", sha(text)))
        # a driver of proofs/ that the configuration names beyond FILES
        # (proofs/cvc5-steps.drv under PROVE_LIMITS=steps)
        for drv in sorted(set(re.findall(r'"\./(proofs/[^"]+\.drv)"', text)) - set(FILES)):
            parts.append(("file " + drv, file_sha(drv)))
        _common = parts
    return _common


def parts_of(inv_path):
    parts = list(common_parts())
    with open(inv_path) as f:
        invs = [json.loads(line) for line in f if line.strip().startswith("{")]
    if not invs:
        sys.exit(f"record.py: no wp-run.sh call in {inv_path}")
    for inv in invs:
        parts.append(("call", sha(json.dumps(inv, sort_keys=True))))
        files = [a for a in inv["args"] if a.endswith(".c")]
        parts += [(f"cpp {inv['cpp_args']} {f}", h) for f, h in preprocessed(inv["cpp_args"], files)]
    return parts


def key_of(inv_path):
    return sha("\n".join(f"{name}\t{h}" for name, h in parts_of(inv_path)))


def read_record():
    rows = {}
    if os.path.exists(RECORD):
        for line in open(RECORD):
            if line.startswith("#") or line.startswith("job\t") or not line.strip():
                continue
            f = line.rstrip("\n").split("\t")
            rows[f[0]] = f
    return rows


def write_record(rows):
    tmp = RECORD + ".tmp"
    with open(tmp, "w") as f:
        f.write(HEADER)
        for name in sorted(rows):
            f.write("\t".join(rows[name]) + "\n")
    os.replace(tmp, RECORD)


def counts(report):
    rep = json.load(open(report))
    main = rep["wp:global"]["wp:main"]
    return int(main.get("valid", 0)), int(main.get("total", 0)), len(rep.get("wp:retried", []))


def merge(out, reports):
    merged = {"wp:global": {}, "wp:functions": {}, "wp:axiomatics": {}, "wp:retried": []}
    for path in reports:
        with open(path) as f:
            data = json.load(f)
        for prover, cnt in data["wp:global"].items():
            acc = merged["wp:global"].setdefault(prover, {})
            for key, val in cnt.items():
                if key != "rank":
                    acc[key] = acc.get(key, 0) + int(val)
        for part in ("wp:functions", "wp:axiomatics"):
            for name, goals in data.get(part, {}).items():
                merged[part].setdefault(name, {}).update(goals)
        # goals a job's retry proved (wp-run.sh "The retry")
        merged["wp:retried"] += data.get("wp:retried", [])
    with open(out, "w") as f:
        json.dump(merged, f, indent=1, sort_keys=True)
    main = merged["wp:global"]["wp:main"]
    valid, total = int(main.get("valid", 0)), int(main.get("total", 0))
    return merged, valid, total


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ""
    if cmd == "keys":
        for path in argv[2:]:
            with open(path) as f:
                name = json.loads(next(line for line in f if line.strip().startswith("{")))["name"]
            print(f"{name}\t{key_of(path)}")
    elif cmd == "explain":
        for name, h in parts_of(argv[2]):
            print(f"{h}  {name}")
        print(f"{key_of(argv[2])}  key")
    elif cmd == "check":
        name, key = argv[2], argv[3]
        row = read_record().get(name)
        if row is None:
            print(f"{name}: not in the record")
            return 1
        _, rkey, valid, total, _, _, rsha = row
        report = f"proofs/wp-report-{name}.json"
        if rkey != key:
            print(f"{name}: inputs changed since the recorded proof")
            return 1
        if not (int(total) > 0 and valid == total):
            print(f"{name}: recorded {valid}/{total}")
            return 1
        if not os.path.exists(report) or file_sha(report) != rsha:
            print(f"{name}: {report} is not the recorded report")
            return 1
        print(f"{name}: recorded proof, {valid}/{total} goals")
        return 0
    elif cmd == "put":
        name, key, report, wall = argv[2:6]
        rows = read_record()
        valid, total, retried = counts(report)
        if total > 0 and valid == total:
            rows[name] = [name, key, str(valid), str(total), str(retried), wall, file_sha(report)]
            write_record(rows)
            return 0
        rows.pop(name, None)
        write_record(rows)
        return 1
    elif cmd == "drop":
        rows = read_record()
        rows.pop(argv[2], None)
        write_record(rows)
    elif cmd == "merge":
        merged, valid, total = merge(argv[2], argv[3:])
        print(f"proved {valid}/{total} goals (kernel, checker, CHAD builders/translations,"
              f" reverse and forward parts, lemmas)")
        if merged["wp:retried"]:
            print(f"of which {len(merged['wp:retried'])} proved by a job's retry of their"
                  f" function alone: {' '.join(sorted(merged['wp:retried']))}")
        return 0 if total > 0 and valid == total else 1
    else:
        sys.exit(__doc__)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
