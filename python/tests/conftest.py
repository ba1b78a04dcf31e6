import os
import subprocess
import json

import pytest

pytest_plugins = ["chad.pytest_plugin", "pytester"]

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
EXAMPLES = os.path.join(ROOT, "examples")


def chad_bin():
    return os.environ.get("CHAD_BIN", os.path.join(ROOT, "chad"))


def run_cli(*argv):
    """(exit code, parsed stdout or None, stderr) of the chad command line."""
    p = subprocess.run([chad_bin(), *argv], capture_output=True, text=True)
    out = json.loads(p.stdout) if p.stdout.strip() else None
    return p.returncode, out, p.stderr


@pytest.fixture
def examples():
    return EXAMPLES
