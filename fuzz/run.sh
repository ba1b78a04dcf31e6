#!/usr/bin/env bash
# Builds the libFuzzer harness of the surface front end and runs it.
#   fuzz/run.sh [seconds]      (default 60)
#   FUZZ_CHAD=1 fuzz/run.sh    also transform each def (fwd, rev, simplify)
#                              and print the results
# Needs clang with libFuzzer (Debian: libclang-rt-14-dev, installed when
# missing). The working corpus is build/fuzz/corpus (seeded from
# fuzz/corpus); crashes land in build/fuzz/.
set -euo pipefail
secs=${1:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/build/fuzz
mkdir -p "$out/corpus"
CC=${FUZZ_CC:-clang}
probe() {
  echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }' > "$out/probe.c"
  $CC -fsanitize=fuzzer "$out/probe.c" -o "$out/probe" 2>/dev/null
}
if ! probe; then
  echo "fuzz: libFuzzer missing, installing libclang-rt-14-dev" >&2
  SUDO=; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libclang-rt-14-dev >&2 || true
  probe || { echo "fuzz: cannot build with -fsanitize=fuzzer" >&2; exit 1; }
fi
cd "$root"
# every library source, as the Makefile builds libchad (LIB_SRC)
srcs=$(ls src/kernel/*.c src/*.c src/surface/*.c src/eval/*.c src/chad/*.c src/certified/*.c 2>/dev/null)
$CC -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -fno-omit-frame-pointer \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  -Iinclude -Isrc -o "$out/fuzz_surface" fuzz/fuzz_surface.c $srcs -ljansson -lflint-arb -lflint -lgmp -lquadmath -lm -lpthread
cp -n fuzz/corpus/* "$out/corpus/" 2>/dev/null || true
cd "$out"
exec ./fuzz_surface -max_total_time="$secs" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -dict="$root/fuzz/surface.dict" -print_final_stats=1 corpus
