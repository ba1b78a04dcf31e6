"""The documents' examples run: README's "From Python" block and
python/README.md's plugin example."""
import os
import re

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))


def blocks(path, lang):
    with open(path) as f:
        return re.findall(r"```%s\n(.*?)```" % lang, f.read(), re.S)


def test_readme_from_python():
    pytest.importorskip("torch")
    section = open(os.path.join(ROOT, "README.md")).read().split("## From Python", 1)[1]
    code = re.findall(r"```python\n(.*?)```", section, re.S)[0]
    assert len(code.strip().splitlines()) <= 12
    env = {}
    exec(compile(code, "README.md", "exec"), env)
    prog, x, v = env["prog"], env["x"], env["v"]
    import chad
    assert chad.gradcheck(env["f_torch"], (x, v), prog.f) is True


def test_plugin_example(pytester):
    code = [b for b in blocks(os.path.join(ROOT, "python", "README.md"), "python")
            if "chad_program" in b][0]
    pytester.makepyfile(code)
    r = pytester.runpytest_subprocess("-p", "chad.pytest_plugin", "-p", "no:cacheprovider")
    r.assert_outcomes(passed=1)
