"""What the mutation tool's test scripts share: scripts/mutation.py loaded as
a module (`M`), and the tally of checks: check(name, ok, detail) counts one
check and prints "FAIL name: detail" for a failure; finish(label) prints
"label: N passed, N failed" and returns the script's exit status."""
import importlib.util
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_spec = importlib.util.spec_from_file_location("mutation", os.path.join(ROOT, "scripts/mutation.py"))
M = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(M)

passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name}{': ' + detail if detail else ''}")


def finish(label):
    print(f"{label}: {passed} passed, {failed} failed")
    return 1 if failed else 0
