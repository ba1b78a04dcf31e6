"""The tally of a Python test script: check(ok, what) counts one check and
prints "FAIL what" for a failure; summary() prints the closing line
"N passed, N failed" that make check counts (scripts/check.sh) and returns
the script's exit status."""
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {what}", flush=True)


def summary():
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0
