"""chad.gradcheck(fn, program, inputs): PyTorch autograd (custom
torch.autograd.Function backward and forward-mode jvp, built-in functions)
and numpy candidates graded by libchad's grader against CHAD-C's certified
derivative; a wrong entry is reported with its ulps, a right one passes;
the verdict is the one `chad check --candidate --json` gives."""
import math
import os

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
    v = chad.gradcheck(xsiny, prog.f, (t(0.75), t(1.25)))
    assert v and v.ok and v.exit_code == 0 and v.counts["correct"] == 2
    assert [(e.path, e.status, e.mode, e.output, e.input) for e in v.entries] == [
        ("jacobian[0][0]", "correct", "backward", "out", "x"),
        ("jacobian[0][1]", "correct", "backward", "out", "y")]
    assert all(e.ulps <= 2 and e.enclosure is not None for e in v.entries)
    # the same call shape as torch.autograd.gradcheck's
    assert torch.autograd.gradcheck(xsiny, (t(0.75).requires_grad_(), t(1.25).requires_grad_()))


def test_program_forms(prog, tmp_path):
    """program: a function, a Program (its last definition), (Program,
    name), (path, name), (source, name); the earlier (fn, inputs, chad_fn)
    order still works."""
    XSinY.WRONG_DY = False
    src = "def f (x : real, y : real) : real = x * sin y\n"
    path = tmp_path / "f.chad"
    path.write_text(src)
    xs = (t(0.75), t(1.25))
    for program in (prog.f, (prog, "f"), (str(path), "f"), (path, "f"), (src, "f"),
                    chad.loads(src)):
        assert chad.gradcheck(xsiny, program, xs).counts["correct"] == 2, program
    assert chad.gradcheck(xsiny, xs, prog.f).counts["correct"] == 2
    with pytest.raises(TypeError):
        chad.gradcheck(xsiny, "f", xs)
    with pytest.raises(chad.UsageError):
        chad.gradcheck(xsiny, (prog, "nope"), xs)


def test_wrong_custom_backward_is_reported_with_ulps(prog):
    XSinY.WRONG_DY = True
    try:
        with pytest.raises(chad.GradcheckError) as e:
            chad.gradcheck(xsiny, prog.f, (t(0.75), t(1.25)))
    finally:
        XSinY.WRONG_DY = False
    v = e.value.verdict
    assert not v.ok and v.exit_code == 6 and v.status == "wrong"
    assert v.counts == {"correct": 1, "acceptable": 0, "wrong": 1, "outside_domain": 0,
                        "undecided": 0}
    (m,) = v.wrong
    assert (m.path, m.output, m.input, m.mode) == ("jacobian[0][1]", "out", "y", "backward")
    assert m.reference == prog.f.grad(0.75, 1.25, evaluator="ball")[1]
    assert m.candidate == 0.75 * math.sin(1.25)
    assert m.ulps == chad.ulps(m.candidate, m.reference) and m.ulps > 10 ** 15
    assert 0 <= m.digits < 2
    msg = str(e.value)
    assert "WRONG: 1 wrong, 1 correct of 2 entries" in msg and "d out / d y" in msg
    assert "%d ulps" % m.ulps in msg and "d out / d x" not in msg
    # raise_exception=False: a false verdict (torch's gradcheck returns False)
    XSinY.WRONG_DY = True
    try:
        v2 = chad.gradcheck(xsiny, prog.f, (t(0.75), t(1.25)), raise_exception=False)
    finally:
        XSinY.WRONG_DY = False
    assert not v2 and v2.wrong[0].ulps == m.ulps


def test_the_verdict_is_chad_checks(prog, tmp_path):
    """gradcheck's grading is libchad's: the same report as chad check
    --candidate --json on the torch Jacobian."""
    import json
    import subprocess
    XSinY.WRONG_DY = True
    try:
        v = chad.gradcheck(xsiny, prog.f, (t(0.75), t(1.25)), raise_exception=False)
        jb = [[math.sin(1.25), 0.75 * math.sin(1.25)]]
    finally:
        XSinY.WRONG_DY = False
    path = tmp_path / "spec.chad"
    path.write_text(SRC)
    r = subprocess.run([os.environ.get("CHAD_BIN", "./chad"), "check", str(path), "--fn", "f",
                        "--args", "[0.75, 1.25]", "--candidate", json.dumps({"jacobian": jb}),
                        "--json"], capture_output=True, text=True)
    assert r.returncode == 6
    assert v.json == json.loads(r.stdout)


def test_ulps_of_a_slightly_wrong_entry(prog):
    v = t([0.5, 1.5, -2.0])
    Square.bump = 0
    assert chad.gradcheck(Square.apply, prog.sqv, (v,), ulps=0)
    Square.bump = 3
    try:
        with pytest.raises(chad.GradcheckError) as e:
            chad.gradcheck(Square.apply, prog.sqv, (v,))          # the default: 2 ulps
        assert chad.gradcheck(Square.apply, prog.sqv, (v,), ulps=3)
        assert chad.gradcheck(Square.apply, prog.sqv, (v,), rtol=1e-15)
        assert not chad.gradcheck(Square.apply, prog.sqv, (v,), rtol=1e-16,
                                  raise_exception=False)
    finally:
        Square.bump = 0
    (m,) = e.value.verdict.wrong
    assert (m.output, m.input, m.ulps, m.reference, m.path) == ("out[1]", "v[1]", 3, 3.0,
                                                                "jacobian[1][1]")
    assert "3 ulps" in str(e.value)


def test_forward_ad(prog):
    v = t([0.5, 1.5, -2.0])
    Square.fwd_wrong = True          # the jvp is wrong, the backward right
    try:
        assert chad.gradcheck(Square.apply, prog.sqv, (v,))
        with pytest.raises(chad.GradcheckError) as e:
            chad.gradcheck(Square.apply, prog.sqv, (v,), check_forward_ad=True)
    finally:
        Square.fwd_wrong = False
    ms = e.value.verdict.wrong
    assert [(m.mode, m.output, m.input) for m in ms] == [("forward", "out[1]", "v[1]")]
    assert e.value.verdict.counts["correct"] == 17        # 9 backward, 8 forward
    v2 = chad.gradcheck(Square.apply, prog.sqv, (v,), check_forward_ad=True)
    assert v2.counts["correct"] == 18 and {e.mode for e in v2.entries} == {"backward", "forward"}
    with pytest.raises(ValueError):
        chad.gradcheck(Square.apply, prog.sqv, (v,), check_backward_ad=False)


def test_builtin_functions_and_the_certified_reference(prog):
    # torch's tanh' at 20 is 1 - tanh^2 = 0; the exact value is 1.7e-17:
    # wrong in ulps (the shipped examples/check case), right within atol
    with pytest.raises(chad.GradcheckError) as e:
        chad.gradcheck(torch.tanh, prog.th, (t(20.0),))
    (m,) = e.value.verdict.wrong
    assert m.candidate == 0.0 and m.reference == 1.6993417021166355e-17
    v = chad.gradcheck(torch.tanh, prog.th, (t(20.0),), atol=1e-16)
    assert v and v.entries[0].note == "within atol 1e-16"
    # two outputs; an int input (no column)
    def two(x, v):
        return x * x, x * v
    assert chad.gradcheck(two, prog.two, (t(1.5), t([1.0, -2.0]))).counts["correct"] == 9
    assert chad.gradcheck(lambda x, n: x ** n, prog.pw, (t(1.5), 3))
    # a constant function: zero rows, and a wrong constant is caught
    assert chad.gradcheck(lambda x, n: torch.tensor(1.0, dtype=torch.float64), prog.pw,
                          (t(1.5), 0))
    with pytest.raises(chad.GradcheckError):
        chad.gradcheck(lambda x, n: torch.tensor(1.0, dtype=torch.float64), prog.pw,
                       (t(1.5), 2))


def test_a_python_number_input_is_not_graded(prog):
    """x passed as a float, v as a tensor: only v's columns are graded."""
    v = chad.gradcheck(lambda x, v: (x * x, x * v), prog.two, (1.5, t([1.0, -2.0])))
    assert {e.input for e in v.entries} == {"v[0]", "v[1]"} and len(v.entries) == 6
    assert v.counts["correct"] == 6


def test_kinks(prog):
    # torch.abs' gradient at 0 is 0: the minimal-norm element of [-1, 1]
    v = chad.gradcheck(torch.abs, prog.ab, (t(0.0),))
    (e,) = v.entries
    assert e.status == "acceptable" and e.one_sided == [-1.0, 1.0]
    assert set(e.convention) == {"average", "minimal-norm"}
    assert chad.gradcheck(torch.relu, ("def r (x : real) : real = max x 0.0", "r"), (t(0.0),))

    class BadAbs(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.abs()

        @staticmethod
        def backward(ctx, g):
            return 2.0 * g
    with pytest.raises(chad.GradcheckError) as e:
        chad.gradcheck(BadAbs.apply, prog.ab, (t(0.0),))
    verdict = e.value.verdict
    assert verdict.kinks and verdict.kinks[0].status == "wrong"
    (m,) = verdict.wrong
    assert m.candidate == 2.0 and m.one_sided == [-1.0, 1.0]


def test_numpy_candidates_without_torch(prog):
    # fn returns the candidate gradient, one entry per parameter
    def right(x, y):
        return (math.sin(y), x * math.cos(y))

    def wrong(x, y):
        return (math.sin(y), -x * math.cos(y))
    v = chad.gradcheck(right, prog.f, (0.75, 1.25))
    assert [e.path for e in v.entries] == ["gradient[0]", "gradient[1]"]
    with pytest.raises(chad.GradcheckError) as e:
        chad.gradcheck(wrong, prog.f, (0.75, 1.25))
    assert [m.path for m in e.value.verdict.wrong] == ["gradient[1]"]
    # or the whole Jacobian
    v = np.array([0.5, 1.5, -2.0])
    assert chad.gradcheck(lambda v: np.diag(2 * v), prog.sqv, (v,))
    verdict = chad.check_jacobian(np.diag(2 * v) + np.eye(3) * [0, 0, 1e-3], prog.sqv, [v])
    assert not verdict.ok and [m.input for m in verdict.wrong] == ["v[2]"]


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
        assert chad.gradcheck(mod.function, p.fig1b, xs)
        assert p.export("fig1b", "torch") == p.fig1b.export()


def test_float32_precision(prog):
    """precision="f32": float32 autograd against the certified values
    rounded to float32, ulps counted in float32."""
    v = torch.tensor([0.1, 1.7, -3.3], dtype=torch.float32)
    exact = dict(ulps=0, precision="f32")
    assert chad.gradcheck(lambda v: v * v, prog.sqv, (v,), **exact)

    def off(v):                                        # d/dv[1] one float32 ulp high
        y = v * v
        return y + (v - v.detach()) * torch.tensor([0.0, 1.0, 0.0]) * \
            float(np.spacing(np.float32(3.4)))
    with pytest.raises(chad.GradcheckError) as e:
        chad.gradcheck(off, prog.sqv, (v,), **exact)
    (m,) = e.value.verdict.wrong
    assert (m.input, m.ulps) == ("v[1]", 1) and e.value.verdict.precision == "f32"
    assert chad.gradcheck(off, prog.sqv, (v,), precision="f32")     # 2 ulps by default
    assert chad.ulps(1.0, float(np.nextafter(np.float32(1.0), np.float32(2.0))), "f32") == 1


def test_undefined_derivative():
    """sqrt' at 0 does not exist: every candidate is outside the domain (not
    wrong: gradcheck passes, exit code 4 of chad check)."""
    with chad.loads("def sr (x : real) : real = sqrt x") as p:
        for fn in (torch.sqrt, lambda x: torch.sqrt(x.clamp(min=1e-300)).detach() + 0.0 * x):
            v = chad.gradcheck(fn, p.sr, (t(0.0),))
            assert v.ok and v.exit_code == 4 and v.status == "outside_domain"
            assert [e.status for e in v.entries] == ["outside_domain"]
