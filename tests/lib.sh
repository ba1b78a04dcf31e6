# Sourced by the shell test runners (tests/cli/run.sh, tests/certified/*.sh):
# the binary under test, a scratch folder, the pass/fail counters and the
# helpers every runner uses. Before sourcing: `cd` to the repository's root
# and pass the runner's arguments ("$@": CHAD_BINARY, default ./chad).
CHAD=${1:-./chad}
label=$(basename "$(dirname "$CHAD")")/$(basename "$CHAD")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "ok   $1"; }
# bad NAME LINE...: a failure, named with the binary, and its details
bad() {
  fail=$((fail + 1))
  echo "FAIL [$label] $1"
  shift
  for line in "$@"; do echo "     $line"; done
}

# run CMD...: sets out, err, rc
run() {
  out=$("$@" 2>"$tmp/stderr")
  rc=$?
  err=$(cat "$tmp/stderr")
}

# expect_match NAME RC STDOUT_REGEX STDERR_REGEX CMD...: exit RC, stdout and
# stderr matching the regexes ('' as the stderr regex: empty stderr)
expect_match() {
  local name=$1 want_rc=$2 ore=$3 re=$4
  shift 4
  run "$@"
  local err_ok=1
  if [ -z "$re" ]; then [ -z "$err" ] || err_ok=0
  else [[ $err =~ $re ]] || err_ok=0; fi
  if [ "$rc" -ne "$want_rc" ] || ! [[ $out =~ $ore ]] || [ "$err_ok" -ne 1 ]; then
    bad "$name" "exit $rc (want $want_rc)" "stdout: $out" "want:   /$ore/" "stderr: $err" "want:   /$re/"
  else ok "$name"; fi
}
