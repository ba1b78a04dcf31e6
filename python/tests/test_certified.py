"""The certified evaluator's verdicts as Python objects: kinks raise
NotDifferentiable with branch points and one-sided limits; domain edges
raise NotDifferentiable with the answer (NaN in the undefined entries) and
its mask; undecided comparisons raise Undecided; certificates are exact
enclosures."""
import decimal
import math

import numpy as np
import pytest

import chad
from conftest import run_cli

SRC = """def th (x : real) : real = tanh x
def cc (x : real) : real = (1.0 - cos x) / (x * x)
def ab (x : real) : real = abs x
def sq (x : real) : real = sqrt (x * x)
def pw (x : real, y : real) : real = pow x y
def mx (x : real, y : real) : real = max x y
def lg (x : real) : real = log x
def same (x : real) : real = if x > 0.0 then 2.0 * x else x + x
def und (x : real) : real = if sqrt x * sqrt x < x then 1.0 else 0.0
def vec (v : [real]) : [real] = map (fun (a : real) -> sqrt a) v
def deg (x : real) : real = if x - x <= 0.0 then 2.0 * x else 3.0 * x
"""


@pytest.fixture(scope="module")
def prog():
    p = chad.loads(SRC, "t.chad", evaluator="ball")
    yield p
    p.close()


def test_correctly_rounded_where_float64_cancels(prog):
    # (1 - cos x) / x^2 at 1e-8: float64 cancels to 0, the exact value is 1/2 - x^2/24
    assert prog.cc(1e-8, evaluator="fast") == 0.0
    assert prog.cc(1e-8) == 0.5
    assert prog.th.grad(20.0) == (1.6993417021166355e-17,)   # sech^2 20


def test_kink(prog):
    with pytest.raises(chad.NotDifferentiable) as e:
        prog.ab.grad(0.0)
    x = e.value
    assert x.exit_code == 4 and x.is_kink and x.complete
    assert (x.file, x.line) == ("t.chad", 3) and x.col > 0
    assert [b["op"] for b in x.branch_points] == ["abs"]
    assert x.branch_points[0]["at"] == "t.chad:3:%d" % x.col
    grads = sorted(l.result.gradient[0] for l in x.limits)
    assert grads == [-1.0, 1.0]
    assert all(l.result.value == 0.0 for l in x.limits)
    assert {l.branches[0]["side"] for l in x.limits} == {"left side (x < 0)",
                                                          "right side (x > 0)"}
    # eval at the kink is defined
    assert prog.ab(0.0) == 0.0
    # max at a tie: both gradients
    with pytest.raises(chad.NotDifferentiable) as e:
        prog.mx.grad(1.0, 1.0)
    assert sorted(l.result.gradient for l in e.value.limits) == [(0.0, 1.0), (1.0, 0.0)]
    # sides that agree: differentiable
    assert prog.same.grad(0.0) == (2.0,)


def test_domain_edge_nan_and_mask(prog):
    with pytest.raises(chad.NotDifferentiable) as e:
        prog.pw.grad(-2.0, 3.0)
    x = e.value
    assert not x.is_kink and x.branch_points == [] and x.limits == []
    r = x.result
    assert r.value == -8.0 and r.gradient[0] == 12.0 and math.isnan(r.gradient[1])
    assert r.undefined["gradient"] == (False, True)
    assert r.undefined["value"] is False
    # vectors: NaN and a boolean mask entry by entry
    with pytest.raises(chad.NotDifferentiable) as e:
        prog.vec.jacobian([4.0, 0.0])
    r = e.value.result
    assert r.jacobian[0, 0] == 0.25 and math.isnan(r.jacobian[1, 1])
    # the undefined d sqrt(v1) reaches the whole row (0 * undefined is undefined)
    assert r.undefined["jacobian"].tolist() == [[False, False], [True, True]]
    # forward mode says the same
    with pytest.raises(chad.NotDifferentiable) as e:
        prog.sq.jvp([0.0], [1.0])
    assert math.isnan(e.value.result.tangent) and e.value.result.undefined["tangent"] is True
    # infinities: eval of log 0 is -infinity, exit 0
    assert prog.lg(0.0) == -math.inf
    with pytest.raises(chad.NotDifferentiable):
        prog.lg(-1.0)


def test_same_verdict_as_command_line(prog, tmp_path):
    path = tmp_path / "t.chad"
    path.write_text(SRC)
    p = chad.load(str(path), evaluator="ball")
    rc, out, _ = run_cli("grad", str(path), "--fn", "ab", "--args", "[0.0]", "--eval", "ball")
    assert rc == 4
    with pytest.raises(chad.NotDifferentiable) as e:
        p.ab.grad(0.0)
    assert e.value.branch_points == out["branch_points"]
    assert [l.result.json for l in e.value.limits] == [l["result"] for l in out["limits"]]
    p.close()


def test_undecided(prog):
    with pytest.raises(chad.Undecided) as e:
        prog.und.grad(2.0)
    assert e.value.exit_code == 5 and e.value.meaning == "undecided at the precision cap"


def test_undecided_tie(prog):
    # x - x <= 0 at 1 is the function 2x: its tie is no branch point that can
    # be proved, so the differentiability is undecided, with both results
    with pytest.raises(chad.Undecided) as e:
        prog.deg.grad(1.0)
    x = e.value
    assert x.exit_code == 5 and x.is_kink and x.result is None and x.complete
    assert (x.file, x.line) == ("t.chad", 11)
    assert [b["op"] for b in x.branch_points] == ["le"]
    assert sorted({l.result.gradient[0] for l in x.limits}) == [2.0, 3.0]
    assert all(l.realized is False for l in x.limits)
    # a proved kink: every limit realized
    with pytest.raises(chad.NotDifferentiable) as e:
        prog.ab.grad(0.0)
    assert all(l.realized is True for l in e.value.limits)


def test_certificate(prog):
    r = prog.th.grad(0.5, certificate=True, full=True)
    c = r.certificate
    assert c.precision >= 64 and len(c.enclosures) == 2
    # each printed double is the correct rounding of a point of its enclosure
    for k, x in enumerate([r.value, r.gradient[0]]):
        e = c.enclosures[k]
        half_ulp = decimal.Decimal(np.spacing(x)) / 2
        assert abs(decimal.Decimal(x) - e.mid) <= e.rad + half_ulp
        assert e.rad < half_ulp
        assert c.contains(k, float(e.mid)) or float(e.mid) == x
    assert not c.contains(1, r.gradient[0] * (1 + 1e-12))
    assert isinstance(c.enclosures[1].mid, decimal.Decimal)
    r = prog.th.eval(0.5, certificate=True, full=True)
    assert r.value == math.tanh(0.5) or abs(r.value - math.tanh(0.5)) < 1e-16
    e = r.certificate.enclosures[0]
    assert abs(decimal.Decimal(r.value) - e.mid) <= e.rad + decimal.Decimal(np.spacing(r.value))
    with pytest.raises(chad.UsageError):
        prog.th.eval(0.5, certificate=True, evaluator="fast")
