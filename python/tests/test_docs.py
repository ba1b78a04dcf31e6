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
    assert len([l for l in code.strip().splitlines() if l.strip()]) <= 10
    env = {}
    exec(compile(code, "README.md", "exec"), env)
    prog = env["prog"]
    verdict = env["verdict"]
    assert verdict.ok and verdict.counts["correct"] == 3 and str(verdict).startswith(
        "OK: 3 correct of 3 entries")
    # the rounded candidate of the last line: every gradient entry wrong
    v2 = prog.f.check([2.0, [0.5, 1.0]], {"gradient": [1.3208, [1.7552, 1.0806]]})
    assert [e.status for e in v2.entries] == ["wrong"] * 3
    assert str(v2).startswith("WRONG: 3 wrong of 3 entries; ")


def test_plugin_example(pytester):
    code = [b for b in blocks(os.path.join(ROOT, "python", "README.md"), "python")
            if "chad_program" in b][0]
    pytester.makepyfile(code)
    r = pytester.runpytest_subprocess("-p", "chad.pytest_plugin", "-p", "no:cacheprovider")
    r.assert_outcomes(passed=1)
