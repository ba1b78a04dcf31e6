#!/usr/bin/env bash
# make proptest: builds the property-based tests against libchad and runs
# them. Environment: PROPTEST_N, PROPTEST_SEED, PROPTEST_SIZE (see main.c).
set -euo pipefail
cd "$(dirname "$0")/.."
make -s build/release/libchad.a
mkdir -p build/proptest
${CC:-cc} -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -O2 -g \
  -Iinclude -Isrc -Iproptests proptests/*.c build/release/libchad.a \
  -ljansson -lm -o build/proptest/proptest
exec build/proptest/proptest "$@"
