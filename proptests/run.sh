#!/usr/bin/env bash
# make proptest: builds the property-based tests against libchad and runs
# them. Environment: PROPTEST_N, PROPTEST_SEED, PROPTEST_SIZE,
# PROPTEST_FIRST, PROPTEST_QUIET (see proptests/main.c);
# PROPTEST_SAN=1 builds everything with AddressSanitizer + UBSan instead.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build/proptest
if [ "${PROPTEST_SAN:-0}" = 1 ]; then
  make -s build/asan/libchad.a
  lib=build/asan/libchad.a bin=build/proptest/proptest-san
  flags="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
else
  make -s build/release/libchad.a
  lib=build/release/libchad.a bin=build/proptest/proptest
  flags="-O2 -g"
fi
# shellcheck disable=SC2086
${CC:-cc} -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror $flags \
  -Iinclude -Isrc -Iproptests proptests/*.c "$lib" -fopenmp -ljansson -lflint-arb -lflint -lgmp -lquadmath -lmvec -lm -lpthread -o "$bin"
exec "$bin" "$@"
