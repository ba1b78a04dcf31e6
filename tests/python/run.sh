#!/usr/bin/env bash
# The Python package's tests (python/tests, pytest) over build/pic/libchad.so.0,
# from the source tree: nothing is installed. PYTHON (default Debian's
# /usr/bin/python3, which has python3-numpy, python3-pytest, python3-torch).
# pytest's exit code 5 (no tests collected) is a failure.
set -u
cd "$(dirname "$0")/../.."
py=${PYTHON:-/usr/bin/python3}
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"
export CHAD_LIBRARY="$PWD/build/pic/libchad.so.0"
export CHAD_BIN="$PWD/chad"
export PYTHONDONTWRITEBYTECODE=1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$py" -m pytest -v -p no:cacheprovider --junitxml="$tmp/junit.xml" python/tests
rc=$?
if [ "$rc" -eq 5 ]; then echo "python: no tests collected"; echo "python: 0 passed, 1 failed"; exit 1; fi
"$py" - "$tmp/junit.xml" "$rc" <<'PY'
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
s = r if r.tag == "testsuite" else r.find("testsuite")
n, f, e, sk = (int(s.get(k, 0)) for k in ("tests", "failures", "errors", "skipped"))
print("python: %d passed, %d failed%s" % (n - f - e - sk, f + e, ", %d skipped" % sk if sk else ""))
PY
exit "$rc"
