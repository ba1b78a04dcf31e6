"""Shrinking a discrepancy found in a generated program to a minimal program
and input, for difftest/run.py.

The program is shrunk by the property tests' own shrinker (proptests/main.c,
PROPTEST_SHRINK): it regenerates program INDEX of SEED and replaces subterms
by smaller ones of the same type (a child, a let body or case branch without
its binder, a constant, a variable) while the failure is still there. Here
the failure is decided outside it: the shrinker writes each candidate as
cand.chad / cand.json and asks on its standard input; this module answers
with the caller's predicate. The input (point, tangent, cotangent) is then
simplified here: arrays shortened, numbers replaced by 0, 1, -1 or fewer
significant digits, while the predicate still holds.

The predicate `fails(path, inputs)` gets a program file and a dict
{"args", "tangent", "cotangent"} and says whether the failure is still there.
"""
import json
import os
import subprocess


class ShrinkError(Exception):
    pass


def shrink_program(proptest, seed, index, workdir, fails, log=lambda s: None):
    """Shrinks generated program `index` of `seed`; returns (source, inputs,
    nodes_before, nodes_after, candidates asked)."""
    os.makedirs(workdir, exist_ok=True)
    env = dict(os.environ, PROPTEST_SHRINK=workdir, PROPTEST_SEED=str(seed),
               PROPTEST_FIRST=str(index), PROPTEST_N="1")
    p = subprocess.Popen([proptest], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True)
    asked, summary = 0, None
    try:
        for line in p.stdout:
            line = line.strip()
            if line == "candidate":
                asked += 1
                with open(os.path.join(workdir, "cand.json")) as f:
                    inputs = json.load(f)
                ok = fails(os.path.join(workdir, "cand.chad"), inputs)
                p.stdin.write("fails\n" if ok else "passes\n")
                p.stdin.flush()
                if asked == 1 and not ok:
                    log("  shrink: the regenerated program does not fail")
            elif line.startswith("shrunk from"):
                summary = line
    finally:
        p.stdin.close()
        rc = p.wait()
    if rc != 0 or summary is None:
        raise ShrinkError(f"the shrinker exited {rc} after {asked} candidates")
    words = summary.split()
    before, after = int(words[2]), int(words[4])
    with open(os.path.join(workdir, "shrunk.chad")) as f:
        src = f.read()
    with open(os.path.join(workdir, "shrunk.json")) as f:
        inputs = json.load(f)
    return src, inputs, before, after, asked


def _paths(v, path=()):
    """Paths of the numbers and of the lists in a JSON tree (lists first,
    outermost first)."""
    if isinstance(v, list):
        yield ("list", path)
        for i, x in enumerate(v):
            yield from _paths(x, path + (i,))
    elif isinstance(v, dict):
        for k, x in v.items():
            yield from _paths(x, path + (k,))
    elif isinstance(v, bool) or v is None:
        return
    elif isinstance(v, (int, float)):
        yield ("num", path)


def _get(v, path):
    for k in path:
        v = v[k]
    return v


def _set(v, path, x):
    if not path:
        return x
    v = json.loads(json.dumps(v))
    _get(v, path[:-1])[path[-1]] = x
    return v


def _digits(x):
    """How long x is to write: the measure "simpler" decreases."""
    return len(repr(abs(x)).rstrip("0").rstrip(".")) + (x < 0)


def _simpler_numbers(x):
    """Numbers simpler than x (shorter to write), simplest first."""
    if isinstance(x, int):
        return [c for c in (0, 1) if abs(c) < abs(x)]
    out = [0.0, 1.0, -1.0] + [float(f"{x:.{d}g}") for d in range(1, 7)]
    return [c for c in out if _digits(c) < _digits(x)]


def simplify_inputs(inputs, fails_inputs, budget=200):
    """Simplifies the point, tangent and cotangent while fails_inputs(inputs)
    holds: the last element of an array of the point dropped (with the
    tangent's), then each number made simpler. Returns (inputs, asked)."""
    asked = 0
    cur = inputs
    # arrays: drop the last element in the point and the tangent together
    changed = True
    while changed and asked < budget:
        changed = False
        for kind, path in list(_paths(cur["args"])):
            if kind != "list" or not path:
                continue
            a = _get(cur["args"], path)
            if not a:
                continue
            try:
                t = _get(cur["tangent"], path)
            except (KeyError, IndexError, TypeError):
                continue
            cand = dict(cur, args=_set(cur["args"], path, a[:-1]), tangent=_set(cur["tangent"], path, t[:-1]))
            asked += 1
            if fails_inputs(cand):
                cur, changed = cand, True
                break
    # numbers, one at a time
    for key in ("args", "tangent", "cotangent"):
        for kind, path in list(_paths(cur[key])):
            if kind != "num":
                continue
            for c in _simpler_numbers(_get(cur[key], path)):
                if asked >= budget:
                    return cur, asked
                cand = dict(cur, **{key: _set(cur[key], path, c)})
                asked += 1
                if fails_inputs(cand):
                    cur = cand
                    break
    return cur, asked
