#!/usr/bin/env bash
# `make prove` (the full gate) and `make prove-quick` (PROVE_RULES=0):
# Frama-C/WP over the kernel (src/kernel/*.c, the checker included) and
# the CHAD macros (src/chad/build.c, types.c, sharing.c, simplify.c;
# reverse.c through proofs/prove-rev.sh, forward.c through
# proofs/prove-fwd.sh), with Z3, cvc5 and CVC4, cold (no result cache).
# The jobs are proofs/jobs.sh's table, one frama-c run each
# (proofs/wp-run.sh), run from a queue, largest first, PROVE_JOBS
# (default 3) at a time. Prints progress, each job's result with its wall
# and CPU time, then "proved V/T goals"; writes each job's report
# proofs/wp-report-JOB.json and their merge proofs/wp-report.json; records
# the key of each job proved with every goal valid in proofs/record.tsv
# (proofs/record.py; the keys are computed before the jobs start) and the
# run's totals in proofs/runs.tsv (proofs/stats.py --run); exits
# non-zero unless every goal (lemmas included) is valid and every contract
# a proved function calls is proved or declared (proofs/check-calls.sh).
# Settings: see proofs/jobs.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=proofs/jobs.sh
. proofs/jobs.sh
prove_why3_config
# the record is a by-product: a gate run does not depend on it
if ! job_keys "${jobs_table[@]}" > "$out/keys.tsv"; then
  echo "prove: note: the jobs' keys could not be computed; proofs/record.tsv is left as it is" >&2
  : > "$out/keys.tsv"
fi

rm -f proofs/wp-report.json
for job in "${jobs_table[@]}"; do
  rm -f "$(job_report "${job%%|*}")"
done
start=$(date +%s)
# for proofs/runs.tsv: the load and the commit (+changes: sources differ from it) at the start
load0=$(cut -d' ' -f1-3 /proc/loadavg | tr ' ' /)
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD -- src include 2>/dev/null || commit="$commit+changes"
gate="full gate"; [ "$rules" = 0 ] && gate="quick gate, without the CHAD rules' own proofs"
echo "prove: $gate: ${#jobs_table[@]} frama-c jobs, $max_jobs at a time (provers one at a time per goal, quick limit ${quick} s, full ${timeout} s); logs in $out/wp-*.log"
status=0
run_queue "${jobs_table[@]}" || status=1
end=$(date +%s)

# The record: each job's key, if all its goals are valid (else its row goes)
while IFS=$'\t' read -r name key; do
  if [ -s "$(job_report "$name")" ] && [ -s "$out/time-$name" ]; then
    python3 proofs/record.py put "$name" "$key" "$(job_report "$name")" "$(cut -d' ' -f1 "$out/time-$name")" || true
  else
    python3 proofs/record.py drop "$name"
  fi
done < "$out/keys.tsv"
reports=()
for job in "${jobs_table[@]}"; do
  reports+=("$(job_report "${job%%|*}")")
done
gate_name=prove; [ "$rules" = 0 ] && gate_name=prove-quick
proved=()
for job in "${jobs_table[@]}"; do
  [ -s "$(job_report "${job%%|*}")" ] && proved+=("${job%%|*}")
done
for r in "${reports[@]}"; do
  if [ ! -s "$r" ]; then
    echo "prove: no report $r: a frama-c run failed; see the logs in $out" >&2
    python3 proofs/stats.py --run "$gate_name" "$start" "$load0" "$commit" failed "$(IFS=,; echo "${proved[*]}")" "" || true
    exit 1
  fi
done
# One report for all jobs: global counters summed, functions and lemmas
# (wp:axiomatics) merged; the jobs prove disjoint sets of goals.
python3 proofs/record.py merge proofs/wp-report.json "${reports[@]}" || status=1
echo "prove: $gate done in $((end - start)) s"

# Every contract the proved functions call is proved or declared in
# proofs/assumed.txt (a callee proved nowhere would be an unlisted axiom).
PROVE_RULES=$rules proofs/check-calls.sh proofs/wp-report.json || status=1
result=ok; [ "$status" = 0 ] || result=failed
python3 proofs/stats.py --run "$gate_name" "$start" "$load0" "$commit" "$result" "$(IFS=,; echo "${proved[*]}")" "" ||
  echo "prove: note: proofs/runs.tsv not written" >&2
if [ "$rules" = 0 ]; then
  echo "prove: quick gate: the CHAD rules' own proofs were left out (PROVE_RULES=0); \`make prove\` proves them"
fi
exit "$status"
