#!/usr/bin/env bash
# Builds the JSON reader's libFuzzer harness with clang 14 (ASan + UBSan) and
# runs it for N seconds (default 60) from the seeds in fuzz/json/seeds.
#   fuzz/json/run.sh [SECONDS]
# The growing corpus is kept in build/fuzz/json/corpus (not committed);
# crashes are written to build/fuzz/json/ as crash-*.
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-60}
CC=${FUZZ_CC:-clang-14}
if ! command -v "$CC" >/dev/null || ! dpkg-query -W -f='${Status}' libclang-rt-14-dev 2>/dev/null | grep -q 'install ok installed'; then
  scripts/deps.sh fuzz
fi
out=build/fuzz/json
mkdir -p "$out/corpus"
srcs=(src/json.c src/diag.c src/primitives.c src/kernel/*.c src/eval/*.c src/certified/*.c)
"$CC" -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -fno-omit-frame-pointer \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  -Iinclude -Isrc -o "$out/fuzz_json" fuzz/json/fuzz_json.c "${srcs[@]}" -ljansson -lflint-arb -lflint -lgmp -lquadmath -lm
echo "fuzz-json: running for ${secs}s"
"$out/fuzz_json" -max_total_time="$secs" -max_len=4096 -timeout=10 -rss_limit_mb=1024 \
  -artifact_prefix="$out/" -print_final_stats=1 "$out/corpus" fuzz/json/seeds
