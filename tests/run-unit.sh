#!/usr/bin/env bash
# Runs unit test binaries; each prints its own checks and exits non-zero on failure.
# Ends with the line 'N passed, N failed' (counting test binaries).
set -u
mode=$1; shift
pass=0; fail=0
for t in "$@"; do
  if out=$("$t" 2>&1); then pass=$((pass+1)); echo "ok   [$mode] $(basename "$t")"
  else fail=$((fail+1)); echo "FAIL [$mode] $(basename "$t")"; echo "$out" | tail -n 30; fi
done
echo "unit-$mode: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
