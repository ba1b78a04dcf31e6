"""The pytest plugin (chad.pytest_plugin): the chad_oracle fixture passes
a right candidate gradient and fails a wrong one with its report; the
chad_program marker loads a program; gradcheck through the fixture on a
small PyTorch adapter. Each runs in a fresh pytest (pytester)."""
import os

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))


@pytest.fixture
def run(pytester):
    def go(text, n_pass, n_fail):
        pytester.makepyfile(text)
        r = pytester.runpytest_subprocess("-p", "chad.pytest_plugin", "-p", "no:cacheprovider",
                                          "-v")
        r.assert_outcomes(passed=n_pass, failed=n_fail)
        return r
    return go


def test_oracle_asserts_gradients(run):
    r = run('''
import math
SRC = "def f (x : real, v : [real]) : real = x * sum (map (fun (a : real) -> sin a) v)"

def test_right(chad_oracle):
    f = chad_oracle.loads(SRC).f
    v = [0.5, 1.0]
    chad_oracle.assert_grad(f, [2.0, v], [sum(map(math.sin, v)), [2.0 * math.cos(a) for a in v]])

def test_wrong(chad_oracle):
    f = chad_oracle.loads(SRC).f
    v = [0.5, 1.0]
    chad_oracle.assert_grad(f, [2.0, v], [sum(map(math.sin, v)), [2.0 * math.sin(a) for a in v]])
''', 1, 1)
    out = r.stdout.str()
    assert "WRONG: 2 wrong, 1 correct of 3 entries" in out
    assert "d out / d v[0]" in out and "d out / d v[1]" in out and "ulps" in out


def test_marker_loads_a_program(run):
    path = os.path.join(ROOT, "examples", "fig1b.chad")
    run('''
import pytest

@pytest.mark.chad_program(%r, evaluator="ball")
def test_fig1b(chad_program):
    assert chad_program.evaluator == "ball"
    g = chad_program.fig1b.grad(0.5, -1.25, 2.0, 0.75)
    assert len(g) == 4

@pytest.mark.chad_program("def sq (x : real) : real = x * x")
def test_source(chad_program, chad_oracle):
    chad_oracle.assert_grad(chad_program.sq, [3.0], [6.0])
''' % path, 2, 0)


def test_gradcheck_on_a_torch_adapter(run):
    pytest.importorskip("torch")
    r = run('''
import torch
SRC = "def sm (v : [real]) : [real] = let s = sum (map exp v) in map (fun (a : real) -> exp a / s) v"

class Softmax(torch.autograd.Function):
    BUG = False
    @staticmethod
    def forward(ctx, v):
        y = torch.softmax(v, 0)
        ctx.save_for_backward(y)
        return y
    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        if Softmax.BUG:
            return y * g                       # forgets the - y (y . g) term
        return y * (g - (y * g).sum())

def adapter(v):
    return Softmax.apply(v)

def test_right(chad_oracle):
    prog = chad_oracle.loads(SRC)
    chad_oracle.gradcheck(adapter, prog.sm, (torch.tensor([0.1, -0.4, 0.3], dtype=torch.float64),))

def test_wrong(chad_oracle):
    prog = chad_oracle.loads(SRC)
    Softmax.BUG = True
    try:
        chad_oracle.gradcheck(adapter, prog.sm, (torch.tensor([0.1, -0.4, 0.3], dtype=torch.float64),))
    finally:
        Softmax.BUG = False
''', 1, 1)
    assert "WRONG: 9 wrong of 9 entries" in r.stdout.str()
