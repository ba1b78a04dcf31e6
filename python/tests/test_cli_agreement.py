"""The package's outputs equal the command line's on every example, for
every evaluator and command: the parsed JSON of the library's answer is the
parsed JSON `chad` prints, and the converted numpy / Python values hold the
same numbers."""
import json
import os

import numpy as np
import pytest

import chad
from conftest import EXAMPLES, run_cli

BA_ARGS = [
    [0.1, 0.2, 0.3, 0.5, -0.2, 0.1, 1.2, 0.01, -0.02, 0.001, 0.0002,
     -0.2, 0.1, 0.25, 0.1, 0.3, -0.4, 0.9, -0.01, 0.03, 0.002, -0.0001],
    [1.0, 2.0, 5.0, -1.0, 0.5, 4.0],
    [0.9, 1.1],
    [0.3, 0.4, -0.2, 0.1],
]


def load_args(name):
    with open(os.path.join(EXAMPLES, name)) as f:
        return json.load(f)


CASES = [  # (file, definition, arguments as JSON)
    ("fig1a.chad", "fig1a", load_args("fig1a.json")),
    ("fig1b.chad", "fig1b", load_args("fig1b.json")),
    ("fig2a.chad", "fig2a", load_args("fig2a.json")),
    ("fig2b.chad", "fig2b", load_args("fig2b.json")),
    ("gmm.chad", "gmm", load_args("gmm_test.json")),
    ("tour.chad", "main", [1.5, [1.0, 2.0, 3.0]]),
    ("tour.chad", "swap", [[1.5, 2]]),
    ("tour.chad", "safe_log", [2.0]),
    ("tour.chad", "pick", [{"inl": 2.5}]),
    ("tour.chad", "power", {"x": 1.25, "n": 3}),
    ("ba.chad", "ba", BA_ARGS),
]


def ones_like(ty, x):
    """A tangent of type T ty at the value x: 1 in every real coordinate."""
    k = ty[0]
    if k == "real":
        return 1.0
    if k in ("int", "unit", "bool"):
        return None
    if k == "prod":
        return [ones_like(ty[1], x[0]), ones_like(ty[2], x[1])]
    if k == "sum":
        if isinstance(x, dict) and "inl" in x:
            return [ones_like(ty[1], x["inl"]), None]
        if isinstance(x, dict) and "inr" in x:
            return [None, ones_like(ty[2], x["inr"])]
        return None
    if k == "arr":
        return [ones_like(ty[1], e) for e in x]
    raise ValueError(ty)


def plain_json(x):
    return json.loads(json.dumps(x))


@pytest.mark.parametrize("evaluator", ["fast", "ref", "ball"])
@pytest.mark.parametrize("case", CASES, ids=lambda c: "%s-%s" % (c[0], c[1]))
def test_same_as_command_line(case, evaluator):
    file, fn, args = case
    path = os.path.join(EXAMPLES, file)
    prog = chad.load(path, evaluator=evaluator)
    f = prog[fn]
    pos = list(args.values()) if isinstance(args, dict) else args
    kw = args if isinstance(args, dict) else {}
    call_args = () if kw else tuple(pos)
    a = json.dumps(args)
    base = [path, "--fn", fn, "--args", a, "--eval", evaluator]

    rc, cli, err = run_cli("eval", *base)
    assert rc == 0, err
    res = f.eval(*call_args, full=True, **kw)
    assert res.json == cli

    real_result = f.result_type == ("real",)
    if real_result:
        rc, cli, err = run_cli("grad", *base)
        assert rc == 0, err
        res = f.grad(*call_args, full=True, **kw)
        assert res.json == cli
        assert res.value == cli["value"]
        for g, c in zip(res.gradient, cli["gradient"]):
            if c is None:
                assert g is None
            else:
                assert np.array_equal(np.asarray(g, dtype=float).ravel(),
                                      np.asarray(c, dtype=float).ravel(), equal_nan=True)

    for mode in ("fwd", "rev"):
        rc, cli, err = run_cli("jacobian", *base, "--mode", mode)
        assert rc == 0, err
        m = f.jacobian(*call_args, mode=mode, **kw)
        assert m.shape[0] == len(cli["jacobian"])
        assert np.array_equal(m, np.array(cli["jacobian"], dtype=float).reshape(m.shape))

    tangent = [ones_like(t, x) for (_, t), x in zip(f.params, pos)]
    rc, cli, err = run_cli("jvp", *base, "--tangent", json.dumps(tangent))
    assert rc == 0, err
    res = f.jvp(args if kw else pos, tangent, full=True)
    assert res.json == cli

    value = f.eval(*call_args, **kw)
    cot = ones_like(f.result_type, plain_json(chad._types._plain(value)))
    rc, cli, err = run_cli("vjp", *base, "--cotangent", json.dumps(cot))
    assert rc == 0, err
    res = f.vjp(args if kw else pos, cot, full=True)
    assert res.json == cli
    prog.close()


def test_check_and_print_same_as_command_line():
    for file in sorted(os.listdir(EXAMPLES)):
        if not file.endswith(".chad"):
            continue
        path = os.path.join(EXAMPLES, file)
        import subprocess
        from conftest import chad_bin
        for cmd in ("check", "print", "rev"):
            want = subprocess.run([chad_bin(), cmd, path], capture_output=True, text=True)
            assert want.returncode == 0
            with chad.load(path) as p:
                got = {"check": lambda: "".join("%s : %s\n" % kv for kv in p.check().items()),
                       "print": lambda: p.print(),
                       "rev": lambda: p.rev()}[cmd]()
            assert got.rstrip("\n") == want.stdout.rstrip("\n"), (file, cmd)
