#!/usr/bin/env bash
# Installs the Debian packages CHAD-C needs, only those that are missing.
#   scripts/deps.sh build   the toolchain and libraries the build needs
#   scripts/deps.sh prove   Frama-C, Why3, the SMT solvers and OCaml (proofs/wp_tuning.ml)
#   scripts/deps.sh fuzz    clang 14 with libFuzzer and OpenMP (make fuzz)
#   scripts/deps.sh torch   PyTorch and numpy for Debian's python3 (difftest/)
#   scripts/deps.sh python  what `import chad` needs: numpy for Debian's python3 (make python-setup)
#   scripts/deps.sh adolc   ADOL-C and a C++ compiler (difftest/ --system adolc)
#   scripts/deps.sh test    the Python package's tests: numpy, pytest, PyTorch (tests/python/run.sh)
#   scripts/deps.sh         everything
set -euo pipefail
want=()
need() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed' || want+=("$1"); }
test_deps() { need python3; need python3-numpy; need python3-pytest; need python3-torch; need binutils; need procps; }
build_deps() { need make; need gcc; need libc6-dev; need libjansson-dev; need libflint-arb-dev; need pkg-config; need python3; need python3-mpmath; need python3-jsonschema; }
case "${1:-all}" in
  build) build_deps ;;
  prove) need frama-c-base; need why3; need z3; need cvc4; need cvc5; need ocaml; need python3; need procps ;;
  fuzz)  need clang-14; need libclang-rt-14-dev; need libomp-14-dev ;;
  torch) need python3-torch; need python3-numpy ;;
  python) need python3; need python3-numpy ;;
  adolc) need libadolc-dev; need g++ ;;
  test)  test_deps ;;
  all)   build_deps; test_deps; need libadolc-dev; need g++; need frama-c-base; need why3; need z3; need cvc4; need cvc5; need ocaml; need python3 ;;
  *) echo "usage: scripts/deps.sh [build|prove|fuzz|torch|python|adolc|test|all]" >&2; exit 1 ;;
esac
[ ${#want[@]} -eq 0 ] && exit 0
# One installer at a time (make -j runs several targets that call this).
if command -v flock >/dev/null; then exec 9>"${TMPDIR:-/tmp}/chad-deps.lock"; flock 9; fi
SUDO=; [ "$(id -u)" -ne 0 ] && SUDO=sudo
if [ "${V:-0}" = 1 ]; then
  echo "deps: installing ${want[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${want[@]}" >&2
  exit 0
fi
# Quiet (V=1 shows apt's output): apt's output goes to build/logs/apt.log,
# shown only when it fails.
cd "$(dirname "$0")/.."
mkdir -p build/logs
log=build/logs/apt.log
echo "deps: installing ${want[*]} (apt-get; log: $log)" >&2
if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${want[@]}"; } >"$log" 2>&1 </dev/null; then
  tail -n 20 "$log" >&2
  echo "deps: apt-get failed; the whole output is in $log" >&2
  exit 1
fi
