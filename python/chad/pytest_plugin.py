"""pytest plugin of the chad package: `pytest -p chad.pytest_plugin`, or
`pytest_plugins = ["chad.pytest_plugin"]` in a conftest.py.

Fixtures and parameters:
- chad_vector: a test taking it runs once per vector of the certified
  test-vector suite (spec/vectors.md; --chad-vectors FOLDER, CHAD_VECTORS,
  or vectors/ of the CHAD-C tree), with the vector's id (group-tcId) in the
  test name; @pytest.mark.chad_vectors(groups=[...], flags=[...]) selects.
  The test is the adapter: it runs the system under test on the vector and
  grades the answer:
      def test_my_ad(chad_vector):
          chad_vector.assert_vjp(my_vjp(chad_vector.source, chad_vector.args,
                                        chad_vector.cotangent))
- chad_oracle: loads programs (closed at the end of the test) and asserts
  candidate derivatives against CHAD-C's certified ones:
      def test_my_grad(chad_oracle):
          f = chad_oracle.loads("def f (x : real) : real = x * sin x").f
          chad_oracle.assert_grad(f, [0.5], [my_grad(0.5)])
  assert_grad(fn, args, gradient), assert_jacobian(fn, args, jacobian) and
  gradcheck(torch_fn, program, inputs) fail the test with each wrong entry
  and its ulps (chad.check_jacobian, chad.gradcheck: libchad's grader, as
  chad check --candidate).
- chad_program: the program named by the test's marker
  @pytest.mark.chad_program("file.chad" or source text, evaluator=..., ...);
  a relative path is taken from the test file's folder.
"""
import os

import numpy as np
import pytest

import chad
from chad import vectors


def pytest_addoption(parser):
    parser.addoption("--chad-vectors", default=None, metavar="FOLDER",
                     help="the certified test-vector suite the chad_vector parameter runs over "
                          "(default: CHAD_VECTORS, else vectors/ of the CHAD-C tree)")


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "chad_program(path_or_source, **options): the CHAD-C program the "
        "chad_program fixture loads (options as chad.load)")
    config.addinivalue_line(
        "markers", "chad_vectors(groups=None, flags=None): the vectors a test taking "
        "chad_vector runs over (default: the whole suite)")


def pytest_generate_tests(metafunc):
    """A test taking `chad_vector` runs once per vector of the suite, its id
    (group-tcId, e.g. primitives-16) in the test's name."""
    if "chad_vector" not in metafunc.fixturenames:
        return
    folder = metafunc.config.getoption("--chad-vectors") or vectors.default_folder()
    if not folder:
        raise pytest.UsageError("chad_vector: no test-vector suite (give --chad-vectors FOLDER "
                                "or CHAD_VECTORS)")
    m = metafunc.definition.get_closest_marker("chad_vectors")
    kw = dict(m.kwargs) if m else {}
    vs = vectors.load(folder, groups=kw.get("groups"), flags=kw.get("flags"))
    metafunc.parametrize("chad_vector", vs, ids=[v.id for v in vs])


class Oracle:
    """The chad_oracle fixture's object (see the module's doc)."""

    def __init__(self, base):
        self.base = base
        self._progs = []

    def load(self, path, **options):
        if not os.path.isabs(str(path)):
            path = os.path.join(self.base, str(path))
        p = chad.load(path, **options)
        self._progs.append(p)
        return p

    def loads(self, source, name="<test>", **options):
        p = chad.loads(source, name, **options)
        self._progs.append(p)
        return p

    def close(self):
        for p in self._progs:
            p.close()
        self._progs = []

    def assert_jacobian(self, fn, args, jacobian, **tol):
        """The candidate Jacobian of fn at args (rows the result's real
        coordinates, columns the parameters', JSON order) is right within
        the tolerances of chad.check_jacobian (ulps, default 2, or rtol; atol;
        precision)."""
        v = chad.check_jacobian(np.asarray(jacobian, dtype=np.float64), fn, list(args), **tol)
        if not v.ok:
            pytest.fail(str(v), pytrace=False)
        return v

    def assert_grad(self, fn, args, gradient, **tol):
        """The candidate gradient of the real-valued fn at args (one entry
        per parameter, None for int and unit) is right."""
        parts = [np.asarray(g, dtype=np.float64).reshape(-1) for g in gradient if g is not None]
        row = np.concatenate(parts).reshape(1, -1) if parts else np.zeros((1, 0))
        return self.assert_jacobian(fn, args, row, **tol)

    def gradcheck(self, fn, program, inputs, **kw):
        """chad.gradcheck, failing the test with its report."""
        kw["raise_exception"] = True
        try:
            return chad.gradcheck(fn, program, inputs, **kw)
        except chad.GradcheckError as e:
            pytest.fail(str(e), pytrace=False)


@pytest.fixture
def chad_oracle(request):
    o = Oracle(os.path.dirname(str(request.fspath)))
    yield o
    o.close()


@pytest.fixture
def chad_program(request, chad_oracle):
    m = request.node.get_closest_marker("chad_program")
    if m is None or not m.args:
        raise pytest.UsageError("the chad_program fixture needs @pytest.mark.chad_program(path "
                                "or source)")
    what = m.args[0]
    if "def " in what and "\n" in what or what.lstrip().startswith("def "):
        return chad_oracle.loads(what, **m.kwargs)
    return chad_oracle.load(what, **m.kwargs)
