"""The certified test-vector suite from Python (chad.vectors and the
plugin's chad_vector parameter): the package's own certified answers pass
every vector; a wrong adapter fails each vector it runs on, named by its id;
grading rules (undefined, infinities, kinks, enclosures)."""
import math
import os

import pytest

import chad
from chad import vectors

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
FOLDER = os.path.join(ROOT, "vectors")


def certified(v, kind):
    """The package's answer by the certified evaluator; at a kink, the first
    one-sided limit; where undefined, NaN."""
    f = v.function(evaluator="ball")
    try:
        if kind == "value":
            return f.eval(**v.args) if isinstance(v.args, dict) else f.eval(*v.args)
        if kind == "jvp":
            return f.jvp(v.args, v.tangent)[1]
        return f.vjp(v.args, v.cotangent)[1]
    except chad.NotDifferentiable as e:
        r = e.limits[0].result if e.is_kink else e.result
    except chad.Undecided as e:
        r = e.result
    return {"value": r.value, "jvp": getattr(r, "tangent", None),
            "vjp": getattr(r, "cotangent", None)}[kind]


def test_the_suite_is_there():
    vs = vectors.load(FOLDER)
    assert len(vs) >= 100 and len({v.id for v in vs}) == len(vs)
    assert {v.group for v in vs} >= {"primitives", "kinks", "paper"}
    assert vectors.default_folder() == FOLDER
    assert all(v.group == "paper" for v in vectors.load(FOLDER, groups=["paper"]))
    assert all("kink" in v.flags for v in vectors.load(FOLDER, flags=["kink"]))


@pytest.mark.parametrize("kind", ["value", "jvp", "vjp"])
def test_certified_answers_pass_every_vector(kind):
    bad = []
    for v in vectors.load(FOLDER):
        verdict = v.check(kind, certified(v, kind), atol=0.0, rtol=0.0, max_ulps=0)
        if not verdict.ok:
            bad.append(str(verdict))
    assert bad == []


def test_grading_rules():
    vs = {v.comment: v for v in vectors.load(FOLDER)}
    log0 = vs["log x at x = 0.0"]
    assert log0.check("value", -math.inf) and not log0.check("value", -1e308)
    assert log0.check("vjp", [math.nan]) and log0.check("vjp", [math.inf])
    assert not log0.check("vjp", [1e300])
    ab = vs["abs at 0"]
    assert ab.result == "acceptable"
    for g in (-1.0, 0.0, 0.5, 1.0):
        assert ab.check("vjp", [g]), g
    v = ab.check("vjp", [1.5])
    assert not v.ok and "one-sided limits" in str(v)
    th = [v for v in vectors.load(FOLDER) if v.comment == "tanh x at x = 20.0"]
    if th:
        t = th[0]
        exact = dict(atol=0.0, rtol=0.0, max_ulps=0)
        assert t.check("jvp", 1.6993417021166355e-17, **exact)
        assert not t.check("jvp", 0.0, **exact)          # float64's 1 - tanh^2
        assert t.check("jvp", 0.0)                        # within the default atol
        assert not t.check("jvp", [0.0, 1.0])             # wrong shape
    with pytest.raises(AssertionError) as e:
        ab.assert_vjp([3.0])
    assert ab.id in str(e.value)


def test_plugin_runs_an_adapter_per_vector(pytester):
    pytester.makepyfile('''
import pytest
import chad

def vjp_by_chad(v, scale):
    f = v.function()
    _, ct = f.vjp(v.args, v.cotangent, evaluator="ref")
    return [None if c is None else scale * c for c in ct]

@pytest.mark.chad_vectors(groups=["paper"])
def test_right(chad_vector):
    chad_vector.assert_vjp(vjp_by_chad(chad_vector, 1.0))

@pytest.mark.chad_vectors(groups=["paper"])
def test_wrong(chad_vector):
    chad_vector.assert_vjp(vjp_by_chad(chad_vector, 1.5))
''')
    n = len(vectors.load(FOLDER, groups=["paper"]))
    r = pytester.runpytest_subprocess("-p", "chad.pytest_plugin", "-p", "no:cacheprovider",
                                      "-v", "--chad-vectors", FOLDER)
    r.assert_outcomes(passed=n, failed=n)
    out = r.stdout.str()
    for v in vectors.load(FOLDER, groups=["paper"]):
        assert "test_right[%s] PASSED" % v.id in out
        assert "test_wrong[%s] FAILED" % v.id in out
    assert "entries wrong" in out and "ulps" in out


def test_plugin_torch_adapter_on_exported_programs(pytester):
    pytest.importorskip("torch")
    pytester.makepyfile('''
import pytest
import torch

def torch_vjp(v):
    """PyTorch's reverse mode on the vector's program exported by chad export."""
    mod = v.function().torch_module()
    leaves = []
    args = list(v.args.values()) if isinstance(v.args, dict) else v.args
    xs = [mod.from_json(t, a, leaves) for t, a in zip(mod.PARAM_TYPES, args)]
    y = mod.function(*xs)
    grads = torch.autograd.grad(y, leaves, grad_outputs=torch.tensor(float(v.cotangent), dtype=torch.float64), allow_unused=True)
    return [gr if gr is not None else torch.zeros_like(l) for gr, l in zip(grads, leaves)]

@pytest.mark.chad_vectors(groups=["paper"])
def test_torch(chad_vector):
    if not isinstance(chad_vector.cotangent, (int, float)):
        pytest.skip("a non-scalar result")
    chad_vector.assert_vjp(torch_vjp(chad_vector))
''')
    r = pytester.runpytest_subprocess("-p", "chad.pytest_plugin", "-p", "no:cacheprovider",
                                      "-v", "--chad-vectors", FOLDER)
    out = r.stdout.str()
    assert "test_torch[paper-" in out
    o = r.parseoutcomes()
    assert o.get("failed", 0) == 0 and o.get("passed", 0) >= 1, out
