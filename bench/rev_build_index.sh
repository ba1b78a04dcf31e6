#!/usr/bin/env bash
# Time reverse mode of a build/index program for n = 1e3, 1e4, 1e5 and print
# the time per element (flat = linear). Usage: bench/rev_build_index.sh [max_n]
set -euo pipefail
cd "$(dirname "$0")/.."
make -s build/release/libchad.a
mkdir -p build/bench
cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Wall -Wextra -Werror -Iinclude -Isrc \
  -o build/bench/rev_build_index bench/rev_build_index.c build/release/libchad.a -ljansson -lflint-arb -lflint -lgmp -lquadmath -lm
exec build/bench/rev_build_index "${1:-100000}"
