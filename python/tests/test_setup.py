"""`make python-setup` (README "From Python"; `make demo` runs it): after it,
`import chad` works in a fresh process, from another folder, without
PYTHONPATH or CHAD_LIBRARY, for /usr/bin/python3 and for the python3 first
in PATH (when that one has numpy). HOME and PYTHONUSERBASE point into a
temporary folder, so the machine's user site-packages is neither used nor
changed."""
import os
import shutil
import subprocess

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
PROBE = ("import chad; print(chad.__file__); print(chad.library_path); "
         "print(chad.loads('def f (x : real) : real = x * x').f.grad(3.0))")
DROP = ("PYTHONPATH", "CHAD_LIBRARY", "PYTHONHOME", "PYTHONNOUSERSITE", "MAKEFLAGS", "MFLAGS",
        "MAKELEVEL")


def _env(tmp):
    env = {k: v for k, v in os.environ.items() if k not in DROP}
    env["HOME"] = str(tmp / "home")
    env["PYTHONUSERBASE"] = str(tmp / "userbase")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    os.makedirs(env["HOME"], exist_ok=True)
    return env


def _probe(py, env, cwd):
    return subprocess.run([py, "-c", PROBE], env=env, cwd=cwd, capture_output=True, text=True)


def test_make_python_setup_makes_import_chad_work(tmp_path):
    env = _env(tmp_path)
    cwd = str(tmp_path / "home")
    pys = ["/usr/bin/python3"]
    other = shutil.which("python3", path=env.get("PATH", ""))
    if other and other not in pys:
        pys.append(other)
    # before the setup: no chad on the path (the test can fail)
    r = _probe("/usr/bin/python3", env, cwd)
    assert r.returncode != 0 and "No module named 'chad'" in r.stderr, r.stdout + r.stderr
    setup = subprocess.run(["make", "-s", "--no-print-directory", "-C", ROOT, "python-setup"],
                           env=env, capture_output=True, text=True)
    said = setup.stdout + setup.stderr
    assert setup.returncode == 0, said
    pths = list((tmp_path / "userbase").rglob("chad-checkout.pth"))
    assert pths, said
    for p in pths:
        assert p.read_text() == os.path.join(ROOT, "python") + "\n"
    worked = 0
    for py in pys:
        has_numpy = subprocess.run([py, "-c", "import numpy"], env=env, cwd=cwd,
                                   capture_output=True).returncode == 0
        r = _probe(py, env, cwd)
        if has_numpy:
            assert r.returncode == 0, (py, r.stderr)
            f, lib, grad = r.stdout.splitlines()
            assert f == os.path.join(ROOT, "python", "chad", "__init__.py")
            assert lib == os.path.join(ROOT, "build", "pic", "libchad.so.0")
            assert grad == "(6.0,)"
            assert "%s: import chad works" % py in said
            worked += 1
        else:   # an interpreter without numpy: a clear error, and the setup said so
            assert "chad needs numpy" in r.stderr, (py, r.stderr)
            assert "%s: import chad fails" % py in said
    assert worked >= 1


def test_python_setup_fails_when_no_interpreter_can_import(tmp_path):
    env = _env(tmp_path)
    env["PYTHONS"] = "/nonexistent/python3"
    r = subprocess.run([os.path.join(ROOT, "scripts", "python-setup.sh")], env=env,
                       capture_output=True, text=True)
    assert r.returncode != 0 and "no python3 of" in r.stderr
