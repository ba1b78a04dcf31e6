#!/usr/bin/env bash
# The proof gate's queue (proofs/jobs.sh): PROVE_FAIL_FAST stops the running
# jobs and their processes at the first failure, the queue never runs more
# than max_jobs at a time, and prover_guard stops a prover process at the
# CPU time its own command line allows. Fake jobs and fake provers (a shell
# copied under a prover's name), no frama-c. Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
eval "$(sed -n '/^prover_guard()/,/^}/p; /^stop_job_tree()/,/^}/p; /^run_queue()/,/^}/p' proofs/jobs.sh)"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { if eval "$2"; then pass=$((pass + 1)); echo "ok: $1"; else fail=$((fail + 1)); echo "FAIL: $1"; fi; }
mkdir -p "$tmp/bin"; cp "$(command -v bash)" "$tmp/bin/z3"; cp "$(command -v bash)" "$tmp/bin/cvc5"

# fail-fast: the failing job stops a long one (its child included) and the
# queued one never starts
run_job() {
  echo "$1" >> "$tmp/started"
  case $1 in
    bad) sleep 1; return 1 ;;
    long) bash -c "sleep 30.5; touch $tmp/long-survived"; return 0 ;;
    *) sleep 1 ;;
  esac
}
max_jobs=2 guard_div=1
t0=$(date +%s)
PROVE_FAIL_FAST=1 run_queue "long|p|t|s" "bad|p|t|s" "queued|p|t|s" 2>/dev/null; st=$?
t1=$(date +%s)
sleep 1
check "fail-fast: the queue fails" '[ "$st" = 1 ]'
check "fail-fast: stops at once ($((t1 - t0)) s)" '[ $((t1 - t0)) -lt 10 ]'
check "fail-fast: the queued job never starts" '! grep -q queued "$tmp/started"'
# an exact, unusual command line: another process's "sleep 300" is not it
check "fail-fast: the running job's child is stopped" '! pgrep -fx "sleep 30.5" >/dev/null && [ ! -e "$tmp/long-survived" ]'

# without it: every job runs, at most max_jobs at a time, and the queue fails
: > "$tmp/started"
run_job() {
  echo "+" >> "$tmp/events"; sleep 1; echo "-" >> "$tmp/events"
  [ "$1" = bad ] && return 1; return 0
}
: > "$tmp/events"
run_queue "a|p|t|s" "bad|p|t|s" "c|p|t|s" "d|p|t|s" "e|p|t|s"; st=$?
peak=$(awk '/\+/ { n++ } /-/ { n-- } n > m { m = n } END { print m }' "$tmp/events")
check "no fail-fast: the queue fails" '[ "$st" = 1 ]'
check "no fail-fast: all 5 jobs run" '[ "$(grep -c + "$tmp/events")" = 5 ]'
check "at most max_jobs at a time (peak $peak)" '[ "$peak" -le 2 ]'

# prover_guard: a spinning "z3 -T:2" under the queue is stopped after about
# 2 s of CPU (DIV 1); a "cvc5 --tlimit-per=10000" after 10 / 5 = 2 s (DIV 5)
spin='while :; do :; done'
run_job() { "$tmp/bin/z3" -c "$spin" -T:2 x 2>/dev/null; echo $? > "$tmp/z3-rc"; }
guard_div=1
t0=$(date +%s); run_queue "z|p|t|s"; t1=$(date +%s)
check "guard: z3 -T:2 stopped ($((t1 - t0)) s, status $(cat "$tmp/z3-rc"))" '[ "$(cat "$tmp/z3-rc")" -ge 128 ] && [ $((t1 - t0)) -lt 20 ]'
run_job() { "$tmp/bin/cvc5" -c "$spin" --tlimit-per=10000 x 2>/dev/null; echo $? > "$tmp/cvc5-rc"; }
guard_div=5
t0=$(date +%s); run_queue "c|p|t|s"; t1=$(date +%s)
check "guard: cvc5 --tlimit-per=10000 stopped at 2 s of CPU ($((t1 - t0)) s)" '[ "$(cat "$tmp/cvc5-rc")" -ge 128 ] && [ $((t1 - t0)) -lt 9 ]'
# a prover outside the gate's process tree (not a descendant) is not touched
( "$tmp/bin/z3" -c "end=\$((SECONDS + 3)); while [ \$SECONDS -lt \$end ]; do :; done; touch $tmp/outside-done" -T:1 x & )
run_job() { sleep 4; }
run_queue "o|p|t|s"
sleep 1
check "guard: a prover outside the gate is left alone" '[ -e "$tmp/outside-done" ]'

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
