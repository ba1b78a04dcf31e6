"""chad.gradcheck: PyTorch autograd (custom torch.autograd.Function
backward and forward-mode jvp, built-in functions) and numpy candidates
against CHAD-C's certified Jacobian; a wrong entry is reported with its
ulps, a right one passes."""
import math

import numpy as np
import pytest

import chad

torch = pytest.importorskip("torch")

SRC = """def f (x : real, y : real) : real = x * sin y
def sqv (v : [real]) : [real] = map (fun (a : real) -> a * a) v
def th (x : real) : real = tanh x
def ab (x : real) : real = abs x
def pw (x : real, n : int) : real = iter n (fun (a : real) -> a * x) 1.0
def two (x : real, v : [real]) : real * [real] = (x * x, vscale x v)
"""


@pytest.fixture(scope="module")
def prog():
    p = chad.loads(SRC, "spec.chad")
    yield p
    p.close()


def t(x):
    return torch.tensor(x, dtype=torch.float64)


class XSinY(torch.autograd.Function):
    """x * sin y with a hand-written backward; WRONG_DY makes d/dy wrong."""
    WRONG_DY = False

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * torch.sin(y)

    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        dy = x * torch.cos(y)
        if XSinY.WRONG_DY:
            dy = x * torch.sin(y)              # the bug: sin for cos
        return g * torch.sin(y), g * dy


def xsiny(x, y):
    return XSinY.apply(x, y)


class Square(torch.autograd.Function):
    """v * v elementwise; `bump` adds that many ulps to a nonzero entry 1
    of the backward's result; `fwd_wrong` scales a nonzero entry 1 of the
    forward-mode jvp's by 1.5."""
    bump = 0
    fwd_wrong = False

    @staticmethod
    def forward(ctx, v):
        ctx.save_for_backward(v)
        ctx.v = v
        return v * v

    @staticmethod
    def backward(ctx, g):
        (v,) = ctx.saved_tensors
        r = 2 * v * g
        if r[1] != 0:
            for _ in range(Square.bump):
                r[1] = torch.nextafter(r[1], torch.tensor(math.inf, dtype=r.dtype))
        return r

    @staticmethod
    def jvp(ctx, dv):
        r = 2 * ctx.v * dv
        if Square.fwd_wrong:
            r[1] = 1.5 * r[1]
        return r


def test_right_custom_backward_passes(prog):
    XSinY.WRONG_DY = False
    assert chad.gradcheck(xsiny, (t(0.75), t(1.25)), prog.f) is True
    # the same call shape as torch.autograd.gradcheck's
    assert torch.autograd.gradcheck(xsiny, (t(0.75).requires_grad_(), t(1.25).requires_grad_()))


def test_wrong_custom_backward_is_reported_with_ulps(prog):
    XSinY.WRONG_DY = True
    try:
        with pytest.raises(chad.GradcheckError) as e:
            chad.gradcheck(xsiny, (t(0.75), t(1.25)), prog.f)
    finally:
        XSinY.WRONG_DY = False
    v = e.value.verdict
    assert not v.ok and v.checked == 2 and len(v.mismatches) == 1
    m = v.mismatches[0]
    assert (m.row, m.col, m.output, m.input, m.mode) == (0, 1, "out", "y", "backward")
    assert m.expected == prog.f.grad(0.75, 1.25, evaluator="ball")[1]
    assert m.candidate == 0.75 * math.sin(1.25)
    assert m.ulps == chad.ulps(m.candidate, m.expected) and m.ulps > 10 ** 15
    msg = str(e.value)
    assert "1 of 2 Jacobian entries wrong" in msg and "d out / d y" in msg and "ulps" in msg
    assert "d out / d x" not in msg
    # raise_exception=False: False, as torch.autograd.gradcheck
    XSinY.WRONG_DY = True
    try:
        assert chad.gradcheck(xsiny, (t(0.75), t(1.25)), prog.f, raise_exception=False) is False
    finally:
        XSinY.WRONG_DY = False


def test_ulps_of_a_slightly_wrong_entry(prog):
    v = t([0.5, 1.5, -2.0])
    exact = dict(atol=0.0, rtol=0.0, max_ulps=0)
    Square.bump = 0
    assert chad.gradcheck(Square.apply, (v,), prog.sqv, **exact)
    Square.bump = 3
    try:
        with pytest.raises(chad.GradcheckError) as e:
            chad.gradcheck(Square.apply, (v,), prog.sqv, **exact)
        # 3 ulps pass the default tolerance (rtol 1e-7) and max_ulps=3
        assert chad.gradcheck(Square.apply, (v,), prog.sqv)
        assert chad.gradcheck(Square.apply, (v,), prog.sqv, atol=0.0, rtol=0.0, max_ulps=3)
    finally:
        Square.bump = 0
    (m,) = e.value.verdict.mismatches
    assert (m.output, m.input, m.ulps, m.expected) == ("out[1]", "v[1]", 3, 3.0)
    assert "3 ulps" in str(e.value)


def test_forward_ad(prog):
    v = t([0.5, 1.5, -2.0])
    Square.fwd_wrong = True          # the jvp is wrong, the backward right
    try:
        assert chad.gradcheck(Square.apply, (v,), prog.sqv)
        with pytest.raises(chad.GradcheckError) as e:
            chad.gradcheck(Square.apply, (v,), prog.sqv, check_forward_ad=True)
    finally:
        Square.fwd_wrong = False
    ms = e.value.verdict.mismatches
    assert [(m.mode, m.output, m.input) for m in ms] == [("forward", "out[1]", "v[1]")]
    assert chad.gradcheck(Square.apply, (v,), prog.sqv, check_forward_ad=True)


def test_builtin_functions_and_the_certified_reference(prog):
    # torch's tanh' at 20 is 1 - tanh^2 = 0; the exact value is 1.7e-17: right
    # within atol, wrong (an enormous number of ulps) when asked for exactness
    assert chad.gradcheck(torch.tanh, (t(20.0),), prog.th)
    with pytest.raises(chad.GradcheckError) as e:
        chad.gradcheck(torch.tanh, (t(20.0),), prog.th, atol=0.0, rtol=0.0, max_ulps=4)
    (m,) = e.value.verdict.mismatches
    assert m.candidate == 0.0 and m.expected == 1.6993417021166355e-17
    # two outputs, an int input (its column is not compared)
    def two(x, v):
        return x * x, x * v
    assert chad.gradcheck(two, (t(1.5), t([1.0, -2.0])), prog.two)
    assert chad.gradcheck(lambda x, n: x ** n, (t(1.5), 3), prog.pw)
    # a constant function: zero rows, and a wrong constant is caught
    assert chad.gradcheck(lambda x, n: torch.tensor(1.0, dtype=torch.float64), (t(1.5), 0),
                          prog.pw)
    with pytest.raises(chad.GradcheckError):
        chad.gradcheck(lambda x, n: torch.tensor(1.0, dtype=torch.float64), (t(1.5), 2), prog.pw)


def test_kinks(prog):
    # torch.abs' gradient at 0 is 0, inside [-1, 1] (the one-sided limits)
    assert chad.gradcheck(torch.abs, (t(0.0),), prog.ab)

    class BadAbs(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.abs()

        @staticmethod
        def backward(ctx, g):
            return 2.0 * g
    with pytest.raises(chad.GradcheckError) as e:
        chad.gradcheck(BadAbs.apply, (t(0.0),), prog.ab)
    assert e.value.verdict.kink
    (m,) = e.value.verdict.mismatches
    assert m.expected == (-1.0, 1.0) and "one-sided limits" in m.reason


def test_numpy_candidates_without_torch(prog):
    # fn returns the candidate gradient, one entry per parameter
    def right(x, y):
        return (math.sin(y), x * math.cos(y))

    def wrong(x, y):
        return (math.sin(y), -x * math.cos(y))
    assert chad.gradcheck(right, (0.75, 1.25), prog.f)
    with pytest.raises(chad.GradcheckError) as e:
        chad.gradcheck(wrong, (0.75, 1.25), prog.f)
    assert [m.input for m in e.value.verdict.mismatches] == ["y"]
    # or the whole Jacobian
    v = np.array([0.5, 1.5, -2.0])
    assert chad.gradcheck(lambda v: np.diag(2 * v), (v,), prog.sqv)
    verdict = chad.check_jacobian(np.diag(2 * v) + np.eye(3) * [0, 0, 1e-3], prog.sqv, [v])
    assert not verdict.ok and [m.input for m in verdict.mismatches] == ["v[2]"]


def test_ulps():
    assert chad.ulps(1.0, 1.0) == 0 and chad.ulps(0.0, -0.0) == 0
    assert chad.ulps(1.0, np.nextafter(1.0, 2.0)) == 1
    assert chad.ulps(-5e-324, 5e-324) == 2
    assert chad.ulps(1.0, math.nan) == math.inf


def test_exported_torch_module_against_the_certified_jacobian(examples):
    """chad export --to torch, imported: PyTorch's autograd of the exported
    fig1b equals CHAD-C's certified gradient within the tolerances."""
    import json
    import os
    with chad.load(os.path.join(examples, "fig1b.chad")) as p:
        mod = p.fig1b.torch_module()
        args = json.load(open(os.path.join(examples, "fig1b.json")))
        xs = tuple(t(float(a)) for a in (args.values() if isinstance(args, dict) else args))
        assert chad.gradcheck(mod.function, xs, p.fig1b)
        assert p.export("fig1b", "torch") == p.fig1b.export()


def test_float32_precision(prog):
    """precision="f32": float32 autograd against the certified values
    rounded to float32, ulps counted in float32."""
    v = torch.tensor([0.1, 1.7, -3.3], dtype=torch.float32)
    exact = dict(atol=0.0, rtol=0.0, max_ulps=0, precision="f32")
    assert chad.gradcheck(lambda v: v * v, (v,), prog.sqv, **exact)

    def off(v):                                        # d/dv[1] one float32 ulp high
        y = v * v
        return y + (v - v.detach()) * torch.tensor([0.0, 1.0, 0.0]) * \
            float(np.spacing(np.float32(3.4)))
    with pytest.raises(chad.GradcheckError) as e:
        chad.gradcheck(off, (v,), prog.sqv, **exact)
    (m,) = e.value.verdict.mismatches
    assert (m.input, m.ulps) == ("v[1]", 1)
    assert chad.ulps(1.0, float(np.nextafter(np.float32(1.0), np.float32(2.0))), "f32") == 1


def test_undefined_derivative():
    """sqrt' at 0 does not exist: torch's inf passes, a finite candidate fails."""
    with chad.loads("def sr (x : real) : real = sqrt x") as p:
        assert chad.gradcheck(torch.sqrt, (t(0.0),), p.sr)
        with pytest.raises(chad.GradcheckError) as e:
            chad.gradcheck(lambda x: torch.sqrt(x.clamp(min=1e-300)).detach() + 0.0 * x,
                           (t(0.0),), p.sr)
        (m,) = e.value.verdict.mismatches
        assert m.expected == "undefined" and m.candidate == 0.0
