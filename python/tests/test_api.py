"""The package's API: loading, functions by name, conversions of values in
the JSON conventions, errors as exceptions, several programs at once."""
import math
import os
import re

import numpy as np
import pytest

import chad

SRC = """def sq (x : real) : real = x * x
def f (x : real, v : [real]) : real = sq x * sum v
def pair (p : real * int) : int * real = let (a, b) = p in (b, a * a)
def side (x : real) : real + unit = if x > 0.0 then inl (log x) else inr ()
def pos (x : real) : bool = x > 0.0
def mat (m : [[real]]) : [[real]] = map (fun (r : [real]) -> vscale 2.0 r) m
def ints (n : int) : [int] = build n (fun (i : int) -> i * i)
def noargs = [1.0, 2.0]
"""


@pytest.fixture
def prog():
    with chad.loads(SRC, "mem.chad") as p:
        yield p


def test_functions_by_name(prog):
    assert prog.names == ["sq", "f", "pair", "side", "pos", "mat", "ints", "noargs"]
    assert prog.check()["f"] == "real -> [real] -> real"
    assert prog.f is prog["f"]
    assert prog.f.params[1][0] == "v" and prog.f.params[1][1] == ("arr", ("real",))
    assert prog.function().name == "noargs"          # None: the last definition
    with pytest.raises(AttributeError):
        prog.nope
    with pytest.raises(chad.UsageError) as e:
        prog["nope"]
    assert e.value.exit_code == 1 and "no definition named 'nope'" in e.value.message


def test_eval_values(prog):
    assert prog.f(3.0, np.array([1.0, 2.0])) == 27.0
    assert prog.f(x=3.0, v=[1.0, 2.0]) == 27.0
    assert isinstance(prog.sq(1.5), float) and prog.sq(1.5) == 2.25
    assert prog.pair((1.5, 7)) == (7, 2.25)
    assert prog.side(1.0) == {"inl": 0.0} and prog.side(-1.0) == {"inr": None}
    assert prog.pos(1.0) is True and prog.pos(-1.0) is False
    m = prog.mat(np.array([[1.0, 2.0], [3.0, 4.0]]))
    assert isinstance(m, np.ndarray) and m.shape == (2, 2) and (m == [[2, 4], [6, 8]]).all()
    ints = prog.ints(4)
    assert ints.dtype == np.int64 and ints.tolist() == [0, 1, 4, 9]
    assert prog.noargs().tolist() == [1.0, 2.0]
    assert prog.sq(np.float64(2.0)) == 4.0


def test_derivatives(prog):
    g = prog.f.grad(3.0, [1.0, 2.0])
    assert g[0] == 18.0 and isinstance(g[1], np.ndarray) and g[1].tolist() == [9.0, 9.0]
    assert prog.f.value_and_grad(3.0, [1.0, 2.0])[0] == 27.0
    v, t = prog.f.jvp([3.0, [1.0, 2.0]], [1.0, [0.0, 1.0]])
    assert v == 27.0 and t == 18.0 + 9.0
    v, ct = prog.f.vjp([3.0, [1.0, 2.0]], 2.0)
    assert ct[0] == 36.0 and ct[1].tolist() == [18.0, 18.0]
    v, ct = prog.pair.vjp([(1.5, 7)], [None, 1.0])
    assert v == (7, 2.25) and ct == ((3.0, None),)
    for mode in ("fwd", "rev"):
        j = prog.f.jacobian(3.0, [1.0, 2.0], mode=mode)
        assert j.shape == (1, 3) and j.tolist() == [[18.0, 9.0, 9.0]]
    j = prog.mat.jacobian(np.eye(2))
    assert j.shape == (4, 4) and (j == 2 * np.eye(4)).all()
    r = prog.f.grad(3.0, [1.0, 2.0], full=True)
    assert r.value == 27.0 and r.json == {"value": 27, "gradient": [18, [9, 9]]}


def test_evaluators_agree(prog):
    for ev in ("fast", "ref", "ball"):
        assert prog.f.grad(3.0, [1.0, 2.0], evaluator=ev)[0] == 18.0
    assert prog.evaluator == "fast"
    with chad.loads(SRC, evaluator="ball") as p:
        assert p.sq.grad(0.1) == (0.2,)
    with pytest.raises(chad.UsageError):
        prog.f.grad(3.0, [1.0], evaluator="nope")


def test_errors(prog, tmp_path):
    with pytest.raises(chad.InputError) as e:
        chad.loads("def f (x : real) : real =\n  x +* 1.0\n", "bad.chad")
    assert (e.value.file, e.value.line, e.value.exit_code) == ("bad.chad", 2, 2)
    assert e.value.col > 0 and e.value.meaning == "input error"
    assert str(e.value).startswith("bad.chad:2:%d: " % e.value.col)
    with pytest.raises(chad.InputError) as e:
        chad.load(str(tmp_path / "missing.chad"))
    assert "cannot open" in e.value.message
    with pytest.raises(chad.InputError) as e:
        prog.f(1.0)                                   # one argument of two
    assert e.value.file == "<args>"
    with pytest.raises(chad.InputError):
        prog.sq(math.nan)                             # no JSON form
    with pytest.raises(chad.RuntimeError) as e:
        chad.loads("def g (v : [real]) : real = v[3]").g([1.0])
    assert e.value.exit_code == 3 and isinstance(e.value, RuntimeError)
    with pytest.raises(chad.UsageError):
        prog.f()                                      # no --args
    with pytest.raises(chad.InputError):              # a type error, at use
        chad.loads("def h (x : real) : int = x").h(1.0)
    with pytest.raises(chad.ChadError):
        prog.pair.grad((1.0, 2))                      # grad needs a real result


def test_two_programs_interleaved():
    a = chad.loads("def f (x : real) : real = x * x * x", "a.chad")
    b = chad.loads("def f (x : real) : real = sin x\ndef g (x : real, y : real) : real = x / y",
                   "b.chad")
    for k in range(3):
        x = 0.5 + k
        assert a.f(x) == x * x * x
        assert b.f(x) == math.sin(x)
        assert a.f.grad(x) == (3 * x * x,)
        assert b.g.grad(x, 2.0) == (0.5, -x / 4.0)
        assert b.f.grad(x)[0] == pytest.approx(math.cos(x), rel=1e-15)
    a.close()
    with pytest.raises(ValueError):
        a.f(1.0)
    assert b.f(0.0) == 0.0


def test_print_fwd_rev(prog, examples):
    assert prog.print("sq").startswith("def sq (x : real) : real =")
    with chad.load(os.path.join(examples, "fig1b.chad")) as p:
        assert p.fig1b.rev().startswith("def fig1b_rev (x1 : real")
        assert p.fwd("fig1b").startswith("def fig1b_fwd")


def test_inline(examples):
    path = os.path.join(examples, "tour.chad")
    a = chad.load(path, inline=False)
    b = chad.load(path, inline=True)
    c = chad.load(path)
    assert c.inline is None
    args = (1.5, np.array([1.0, 2.0, 3.0]))
    ga, gb, gc = a.main.grad(*args), b.main.grad(*args), c.main.grad(*args)
    for g in (gb, gc):
        assert ga[0] == pytest.approx(g[0], rel=1e-14)
        assert np.allclose(ga[1], g[1], rtol=1e-14, atol=0)


def test_inline_default_prints_as_written(examples):
    # printing is not inlined by default: gmm's reverse derivative keeps its
    # copowers (single), which inlining removes
    with chad.load(os.path.join(examples, "gmm.chad")) as p:
        assert re.search(r"\bsingle\b", p.gmm.rev())
        p.inline = False
        written = p.gmm.rev()
        p.inline = None
        assert p.gmm.rev() == written
        p.inline = True
        assert not re.search(r"\bsingle\b", p.gmm.rev())


def test_torch_tensors_as_arguments(prog):
    torch = pytest.importorskip("torch")
    assert prog.f(torch.tensor(3.0, dtype=torch.float64),
                  torch.tensor([1.0, 2.0], dtype=torch.float64)) == 27.0


def test_threads_share_programs():
    """libchad is not thread safe; the package serialises calls, so threads
    using two programs alternately get the right results."""
    import threading
    a = chad.loads("def f (x : real) : real = x * x", "a.chad")
    b = chad.loads("def f (v : [real]) : real = sum v", "b.chad")
    errors = []

    def work(k):
        try:
            for i in range(50):
                x = float(k * 100 + i)
                assert a.f(x) == x * x and a.f.grad(x) == (2 * x,)
                g = b.f.grad([x, 1.0])
                assert b.f([x, 1.0]) == x + 1.0 and g[0].tolist() == [1.0, 1.0]
        except Exception as e:          # reported below
            errors.append(e)
    ts = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert errors == []


def test_options(prog):
    with chad.loads("def t (x : real) : real = tanh x", max_prec=64, evaluator="ball") as p:
        assert p.t.grad(0.5)[0] == pytest.approx(1 - math.tanh(0.5) ** 2, rel=1e-15)
        p.max_prec = 10
        with pytest.raises(chad.UsageError):
            p.t(0.5)
    with pytest.raises(TypeError):
        chad.loads("def t (x : real) : real = x", evalutor="ball")
    v, t = prog.f.jvp({"x": 3.0, "v": [1.0, 2.0]}, {"x": 1.0, "v": [0.0, 1.0]})
    assert (v, t) == (27.0, 27.0)
    with chad.loads("def big (n : int) : [real] = build n (fun (i : int) -> 1.0)",
                    heap_bytes=1 << 16) as p:
        assert len(p.big(10)) == 10
        with pytest.raises(chad.RuntimeError):
            p.big(1 << 20)
    # the nesting limit: a chain of n closures nests about two levels a closure
    chain = ("def c (x : real, n : int) : real = let g = iter n (fun (h : real -> real) -> "
             "fun (y : real) -> h y * x) (fun (y : real) -> y) in g 1.0")
    with chad.loads(chain, max_depth=1000) as p:
        assert p.c(1.0, 300) == 1.0
        with pytest.raises(chad.RuntimeError, match="nested deeper than the limit of 1000"):
            p.c(1.0, 2000)
        p.max_depth = 5000
        assert p.c(1.0, 2000) == 1.0
        for bad in (0, 4000001, 1.5, True):
            p.max_depth = bad
            with pytest.raises(chad.UsageError, match="max_depth"):
                p.c(1.0, 1)
    # the package checks max_depth against its own copy of the C library's cap
    header = os.path.join(os.path.dirname(__file__), "..", "..", "include", "chad.h")
    cap = re.search(r"#define CHAD_MAX_DEPTH_CAP (\d+)", open(header).read())
    assert cap and int(cap.group(1)) == chad._program.MAX_DEPTH_CAP == 4000000
