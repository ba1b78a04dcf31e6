#!/usr/bin/env bash
# Runs one libFuzzer harness (built by `make build/fuzz/fuzz_NAME`, which
# the Makefile's fuzz-NAME targets do first) for SECONDS (default 60).
#   fuzz/run.sh NAME [SECONDS]      NAME: surface, json, api, deriv
# The committed seeds are fuzz/NAME/corpus; the growing corpus is
# build/fuzz/NAME/corpus (not committed), or with FUZZ_FRESH=1 (make
# fuzz-check) an emptied build/fuzz/NAME/check-corpus, so that a short run
# starts from the committed seeds only; a crash, leak, timeout (10 s per
# input) or more than 2 GB of memory is written to build/fuzz/NAME/ and
# fails the run (exit status non-zero). fuzz/NAME/NAME.dict, when present,
# is the dictionary. The last lines are libFuzzer's final statistics
# (stat::number_of_executed_units, the corpus size).
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: fuzz/run.sh NAME [SECONDS]}
secs=${2:-60}
bin=build/fuzz/fuzz_$name
out=build/fuzz/$name
[ -x "$bin" ] || { echo "fuzz-$name: $bin not built (make $bin)" >&2; exit 1; }
corpus=$out/corpus
if [ "${FUZZ_FRESH:-0}" = 1 ]; then
  corpus=$out/check-corpus
  rm -rf "$corpus"
fi
mkdir -p "$corpus"
dict=()
[ -f "fuzz/$name/$name.dict" ] && dict=(-dict="fuzz/$name/$name.dict")
echo "fuzz-$name: running for ${secs}s"
# the fast evaluator on one thread: libFuzzer runs one input at a time
OMP_NUM_THREADS=1 "$bin" -max_total_time="$secs" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$out/" -print_final_stats=1 "${dict[@]}" "$corpus" "fuzz/$name/corpus" 2>"$out/log" || {
  tail -n 40 "$out/log" >&2
  echo "fuzz-$name: FAILED (log: $out/log)" >&2
  exit 1
}
grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+[[:space:]]+DONE)' "$out/log" || true
echo "fuzz-$name: ok, $(ls "$corpus" | wc -l) new inputs in $corpus"
