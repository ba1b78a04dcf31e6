#!/usr/bin/env bash
# `make prove-incremental`: the full gate's jobs (proofs/jobs.sh, the CHAD
# rules' own proofs included), each accepted from the record or proved.
#   incremental.sh            every job
#   incremental.sh JOB...     only these jobs (no merge, no call check)
#   incremental.sh --status   each job's key and whether the record
#                             accepts it; proves nothing
# For each job: its key, the hash of all its inputs (proofs/record.py:
# preprocessed sources and headers with their ACSL, its wp-run.sh call,
# the prove scripts it runs under, the Why3 configuration, the tools'
# versions). A job whose key, goals (all valid) and report
# proofs/wp-report-JOB.json match its row in proofs/record.tsv is
# accepted; every other job is proved, cold, as `make prove` proves it,
# and its row rewritten (or removed if not every goal is valid). Then,
# for a run of every job: the reports merged into proofs/wp-report.json
# and proofs/check-calls.sh in full-gate mode, so that a contract called
# but proved by no job fails the run. Exits non-zero unless every job is
# accepted or proved with every goal valid and the call check passes; a
# run of every job also writes its totals to proofs/runs.tsv (stats.py
# --run: jobs proved and accepted, goals, wall and CPU time, load).
# A full `make prove` writes every job's row; a run of this script after
# a change re-proves only the jobs whose inputs the change touched.
set -euo pipefail
cd "$(dirname "$0")/.."
export PROVE_RULES=1
# shellcheck source=proofs/jobs.sh
. proofs/jobs.sh
mode=run
selected=()
if [ "${1:-}" = --status ]; then
  mode=status
  shift
fi
for want in "$@"; do
  found=
  for job in "${jobs_table[@]}"; do
    [ "${job%%|*}" = "$want" ] && found=$job
  done
  if [ -z "$found" ]; then
    echo "incremental: no job '$want'; the jobs: $(printf '%s ' "${jobs_table[@]%%|*}")" >&2
    exit 2
  fi
  selected+=("$found")
done
[ ${#selected[@]} -eq 0 ] && selected=("${jobs_table[@]}")

prove_why3_config
job_keys "${selected[@]}" > "$out/keys.tsv"
declare -A key_of
todo=()
accepted=0 accepted_goals=0 accepted_names=()
while IFS=$'\t' read -r name key; do
  key_of[$name]=$key
  if msg=$(python3 proofs/record.py check "$name" "$key"); then
    echo "incremental: $msg: accepted"
    accepted=$((accepted + 1))
    accepted_names+=("$name")
    accepted_goals=$((accepted_goals + $(awk -F'\t' -v j="$name" '$1 == j { print $3 }' proofs/record.tsv)))
  else
    echo "incremental: $msg: to prove"
    for job in "${selected[@]}"; do
      [ "${job%%|*}" = "$name" ] && todo+=("$job")
    done
  fi
done < "$out/keys.tsv"
echo "incremental: ${#selected[@]} jobs: $accepted accepted from proofs/record.tsv ($accepted_goals goals), ${#todo[@]} to prove"
[ "$mode" = status ] && exit 0

# PROVE_BUDGET_S (make check sets it): refuse, before proving anything, a
# run whose estimate exceeds it, so that a stale record fails at once with
# what to do rather than at CI's time limit. The estimate: each job's wall
# time in its row (the last run of its previous inputs; 3600 s for a job
# with no row), the jobs spread over the 2 cores.
if [ -n "${PROVE_BUDGET_S:-}" ] && [ ${#todo[@]} -gt 0 ]; then
  estimate=0
  for job in "${todo[@]}"; do
    w=$(awk -F'\t' -v j="${job%%|*}" '$1 == j { print $6 }' proofs/record.tsv)
    estimate=$((estimate + ${w:-3600}))
  done
  estimate=$((estimate / 2))
  if [ "$estimate" -gt "$PROVE_BUDGET_S" ]; then
    echo "incremental: the record is stale: ${#todo[@]} jobs to prove ($(echo "${todo[@]%%|*}")), about $((estimate / 60)) min, more than PROVE_BUDGET_S=$PROVE_BUDGET_S s; prove them with 'make prove-incremental' and commit proofs/record.tsv with proofs/wp-report*.json" >&2
    exit 1
  fi
fi

status=0
start=$(date +%s)
# for proofs/runs.tsv: the load and the commit (+changes: sources differ from it) at the start
load0=$(cut -d' ' -f1-3 /proc/loadavg | tr ' ' /)
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD -- src include 2>/dev/null || commit="$commit+changes"
if [ ${#todo[@]} -gt 0 ]; then
  echo "incremental: proving ${#todo[@]} jobs, $max_jobs at a time (quick limit ${quick} s, full ${timeout} s); logs in $out/wp-*.log"
  run_queue "${todo[@]}" || status=1
  for job in "${todo[@]}"; do
    name=${job%%|*}
    if [ -s "$(job_report "$name")" ] && [ -s "$out/time-$name" ] &&
       python3 proofs/record.py put "$name" "${key_of[$name]}" "$(job_report "$name")" "$(cut -d' ' -f1 "$out/time-$name")"; then
      echo "incremental: $name proved, recorded"
    else
      python3 proofs/record.py drop "$name"
      echo "incremental: $name NOT proved (see $out/wp-$name.log)" >&2
      status=1
    fi
  done
fi
echo "incremental: proving took $(( $(date +%s) - start )) s"

if [ ${#selected[@]} -eq ${#jobs_table[@]} ]; then
  reports=()
  for job in "${jobs_table[@]}"; do
    reports+=("$(job_report "${job%%|*}")")
  done
  missing=()
  for r in "${reports[@]}"; do [ -s "$r" ] || missing+=("$r"); done
  if [ ${#missing[@]} -gt 0 ]; then
    # a job stopped by PROVE_FAIL_FAST, or whose frama-c run failed
    echo "incremental: no report ${missing[*]}: no merged report, no call check" >&2
    status=1
  else
    python3 proofs/record.py merge proofs/wp-report.json "${reports[@]}" || status=1
    proofs/check-calls.sh proofs/wp-report.json || status=1
  fi
  result=ok; [ "$status" = 0 ] || result=failed
  python3 proofs/stats.py --run prove-incremental "$start" "$load0" "$commit" "$result" \
    "$(IFS=,; echo "${todo[*]%%|*}")" "$(IFS=,; echo "${accepted_names[*]}")" ||
    echo "incremental: note: proofs/runs.tsv not written" >&2
else
  echo "incremental: ${#selected[@]} of ${#jobs_table[@]} jobs: no merged report, no call check"
fi
exit "$status"
