#!/usr/bin/env bash
# `make check`: every stage of the project's checks, each by its own runner
# with its whole output in build/logs/STAGE.log, then a summary table (per
# stage: result, passed and failed counts, time, log), the name and log of
# every failure, and the closing line "N passed, N failed". Exits non-zero
# if any stage failed. Every stage runs, whatever the earlier ones gave.
#
# Adding a stage is one line in `stages` below: "NAME | PARSER | COMMAND".
#   NAME     the stage's name in the table; its log is build/logs/NAME.log
#            (spaces as dashes)
#   PARSER   how its output is counted:
#            tests   the runner prints lines "FAIL name ..." (or pytest's
#                    "path::name FAILED") for failures and one or more lines
#                    ending "N passed, N failed" (summed; ", N skipped" may
#                    follow); the convention of every test runner of the
#                    project
#            fuzz    fuzz/run.sh's lines: "fuzz-NAME: ok, ..." a pass,
#                    "fuzz-NAME: FAILED (log: PATH)" a failure (its log)
#            proofs  proofs/prove.sh's or proofs/incremental.sh's output:
#                    "proved V/T goals ..." gives V
#                    passed and T - V failed; the goals not proved are named
#                    from proofs/wp-report.json with their job's log; a
#                    failure of proofs/check-calls.sh counts as one
#   COMMAND  a shell command run from the repository's root
# A stage that exits non-zero with no failure counted (a build error, a
# runner that stopped early) counts one failure, named by its exit status
# and the log's first error line.
#
# Environment: V=1 shows every stage's whole output as it runs (and the
# build's full command lines); CHECK_ONLY="NAME,NAME" runs only the named
# stages, CHECK_SKIP="NAME,..." all but those (names as in the table, e.g.
# CHECK_SKIP=proofs for the tests without the proof gate).
set -u
cd "$(dirname "$0")/.."

# make test's parts (Makefile: each `test: test-X`), then proptest, a small
# sample of the mutants recorded killed, each of which must still be killed
# (spec/mutation.md "make check"), a short run of each fuzzer and the
# incremental proof gate: every job of the full gate, rules
# included, accepted from proofs/record.tsv or re-proved, and a stale record
# past an hour's proving refused at once (proofs/README.md "Gates"). A new
# part of make test is a new line here.
stages=(
  "unit release   | tests  | make --no-print-directory test-release"
  "unit asan      | tests  | make --no-print-directory test-asan"
  "command line   | tests  | make --no-print-directory test-cli"
  "certified      | tests  | make --no-print-directory test-certified"
  "vectors        | tests  | make --no-print-directory test-vectors"
  "difftest       | tests  | make --no-print-directory test-difftest"
  "install        | tests  | make --no-print-directory test-install"
  "python         | tests  | make --no-print-directory test-python"
  "property tests | tests  | make --no-print-directory proptest"
  "mutation       | tests  | make --no-print-directory mutation-check"
  "fuzz           | fuzz   | make --no-print-directory fuzz-check"
  "proof gate     | tests  | make --no-print-directory test-proof-gate"
  "proofs         | proofs | PROVE_BUDGET_S=3600 PROVE_FAIL_FAST=1 make --no-print-directory prove-incremental"
)

logs=build/logs
mkdir -p "$logs"
V=${V:-0}
trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; s=${s%"${s##*[![:space:]]}"}; printf '%s' "$s"; }
listed() { # listed NAME LIST: NAME is one of LIST's comma-separated names
  local IFS=, n
  for n in $2; do [ "$(trim "$n")" = "$1" ] && return 0; done
  return 1
}
fmt_time() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }

# Lines shown on the terminal while a stage runs (V=0): failures and
# progress of the long stages.
live_tests='^FAIL|^  \.\.\. [0-9]+ (programs|cases)|^cli tests of|^proptest seed|^mutation seed|^difftest: PyTorch|^deps: installing'
live_fuzz='^fuzz-[a-z]+: (running|ok|FAILED)|^deps: installing'
live_proofs='job done at|^incremental: ([0-9]+ jobs|proving|.* proved, recorded|.* NOT proved|the record is stale)|^proved [0-9]+/[0-9]+ goals|\[(Failed|Timeout|Unknown)\] Goal|^check-calls: contracts|^prove: no report|^deps: installing'

# parse_tests LOG: sets passed, failed and appends to fails[] ("name<TAB>log")
parse_tests() {
  local log=$1 line
  read -r passed failed < <(grep -oE '(^|[^0-9])[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$log" |
    sed -E 's/^[^0-9]*//' | awk '{ p += $1; f += $3 } END { print p + 0, f + 0 }')
  while IFS= read -r line; do
    fails+=("$(trim "${line#FAIL }")	$log")
  done < <(grep -E '^FAIL ' "$log")
  # pytest -v: "path::test FAILED"
  while IFS= read -r line; do
    fails+=("${line%% FAILED*}	$log")
  done < <(grep -E '^[^ ]+::[^ ]+ FAILED' "$log")
}

# parse_fuzz LOG: the same from fuzz/run.sh's lines (see PARSER above)
parse_fuzz() {
  local log=$1 line
  passed=$(grep -cE '^fuzz-[a-z]+: ok' "$log")
  failed=0
  while IFS= read -r line; do
    failed=$((failed + 1))
    local flog=${line##*(log: }
    fails+=("${line%%: FAILED*}: a finding or a failed run	${flog%)}")
  done < <(grep -E '^fuzz-[a-z]+: FAILED' "$log")
}

# parse_proofs LOG: the same from proofs/prove.sh's output (see PARSER above)
parse_proofs() {
  local log=$1 line v t goal job
  passed=0 failed=0
  line=$(grep -E '^proved [0-9]+/[0-9]+ goals' "$log" | tail -n1)
  if [ -n "$line" ]; then
    v=$(sed -E 's#^proved ([0-9]+)/([0-9]+).*#\1#' <<<"$line")
    t=$(sed -E 's#^proved ([0-9]+)/([0-9]+).*#\2#' <<<"$line")
    passed=$v failed=$((t - v))
    # the goals not proved, from the merged report this run wrote
    if [ "$failed" -gt 0 ] && [ -s proofs/wp-report.json ]; then
      while IFS= read -r goal; do
        # the job whose log names the goal ("prove[JOB]: [Failed] Goal typed_...GOAL")
        job=$(grep -oE "^prove\[[^]]+\]: \[(Failed|Timeout|Unknown)\] Goal typed_([a-z_]*_)?${goal##*/}( |$)" "$log" |
          head -n1 | sed -E 's/^prove\[([^]]+)\].*/\1/')
        if [ -n "$job" ]; then fails+=("goal $goal (job $job)	build/proofs/wp-$job.log")
        else fails+=("goal $goal	$log"); fi
      done < <(python3 - proofs/wp-report.json <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
for part in ("wp:functions", "wp:axiomatics"):
    for fn, goals in sorted(rep.get(part, {}).items()):
        for goal, res in sorted(goals.items()):
            m = res.get("wp:main", {})
            if goal != "wp:section" and int(m.get("valid", 0)) < int(m.get("total", 0)):
                print(f"{fn or 'lemmas'}/{goal}")
PY
      )
    fi
  fi
  if grep -q '^check-calls: contracts used but not proved' "$log"; then
    failed=$((failed + 1))
    fails+=("check-calls: $(grep -A1 '^check-calls: contracts used' "$log" | tail -n1 | sed -E 's/^ +//')	$log")
  fi
}

results=()   # "name|ok or FAIL|passed|failed|seconds|log"
fails=()     # "stage: failure<TAB>log"
total_p=0 total_f=0 n=0 count=0
for s in "${stages[@]}"; do
  IFS='|' read -r name parser cmd <<<"$s"
  name=$(trim "$name")
  if { [ -n "${CHECK_ONLY:-}" ] && ! listed "$name" "$CHECK_ONLY"; } ||
     { [ -n "${CHECK_SKIP:-}" ] && listed "$name" "${CHECK_SKIP}"; }; then continue; fi
  count=$((count + 1))
done
for s in "${stages[@]}"; do
  IFS='|' read -r name parser cmd <<<"$s"
  name=$(trim "$name") parser=$(trim "$parser") cmd=$(trim "$cmd")
  if { [ -n "${CHECK_ONLY:-}" ] && ! listed "$name" "$CHECK_ONLY"; } ||
     { [ -n "${CHECK_SKIP:-}" ] && listed "$name" "${CHECK_SKIP}"; }; then continue; fi
  n=$((n + 1))
  log=$logs/${name// /-}.log
  live=$live_tests; [ "$parser" = proofs ] && live=$live_proofs; [ "$parser" = fuzz ] && live=$live_fuzz
  echo "[$n/$count] $name: $cmd  (log: $log)"
  t0=$(date +%s)
  if [ "$V" = 1 ]; then
    bash -c "$cmd" 2>&1 | tee "$log"
  else
    bash -c "$cmd" 2>&1 | tee "$log" | { grep --line-buffered -E "$live" || true; } | sed -u 's/^/      /'
  fi
  rc=${PIPESTATUS[0]}
  secs=$(($(date +%s) - t0))
  before=${#fails[@]}
  passed=0 failed=0
  "parse_$parser" "$log"
  if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
    failed=1
    # the first diagnostic ("file:line: error: ...", make's "Error N"), else
    # the first line that mentions an error or a failure
    first=$(grep -m1 -E 'error:|Error [0-9]|FAILED' "$log" || grep -m1 -iE 'error|fail' "$log")
    first=$(cut -c1-160 <<<"$first")
    fails+=("exit status $rc${first:+: $first}	$log")
  fi
  for ((i = before; i < ${#fails[@]}; i++)); do fails[i]="$name: ${fails[i]}"; done
  res=ok; { [ "$rc" -ne 0 ] || [ "$failed" -gt 0 ]; } && res=FAIL
  echo "      $res: $passed passed, $failed failed, $(fmt_time "$secs")"
  results+=("$name|$res|$passed|$failed|$secs|$log")
  total_p=$((total_p + passed)) total_f=$((total_f + failed))
done

echo
echo "== make check: summary"
printf '%-16s %-6s %8s %8s %8s  %s\n' stage result passed failed time log
for r in "${results[@]}"; do
  IFS='|' read -r name res p f secs log <<<"$r"
  printf '%-16s %-6s %8s %8s %8s  %s\n' "$name" "$res" "$p" "$f" "$(fmt_time "$secs")" "$log"
done
if [ ${#fails[@]} -gt 0 ]; then
  echo
  echo "failures (${#fails[@]}):"
  shown=0
  for f in "${fails[@]}"; do
    if [ $shown -ge 40 ]; then echo "  ... and $((${#fails[@]} - shown)) more: see the logs"; break; fi
    echo "  ${f%%	*}"
    echo "      log: ${f##*	}"
    shown=$((shown + 1))
  done
fi
echo "$total_p passed, $total_f failed"
[ "$total_f" -eq 0 ]
