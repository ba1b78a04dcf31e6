#!/usr/bin/env bash
# The certified evaluator's cost: `chad grad --eval ball` against
# `--eval fast` and `--eval ref` on the same input, whole commands, best of
# K wall times each, measured in one run (the machine is shared: only the
# ratios are meaningful). Prints markdown table rows.
#   bench/certified.sh GMM_TXT K
# Workloads: sum (sin x * x) at n = 1e5 (bench/programs/sumsin.chad) and
# ADBench GMM 1k d2_K5's gradient (examples/gmm.chad).
set -u
gmm_txt=$1
K=${2:-5}
B=build/bench
mkdir -p "$B"
python3 -c "
import json, random
random.seed(1)
print(json.dumps([[random.uniform(-3, 3) for _ in range(100000)]]))" > "$B/sumsin_1e5.json"
have_gmm=0
if [ -f "$gmm_txt" ] && python3 scripts/adbench_gmm_to_json.py "$gmm_txt" > "$B/gmm_cert.json"; then have_gmm=1; fi

# best WORKLOAD_ARGS...: the best of K wall times (s) of a chad command
best() {
  local b=""
  for _ in $(seq "$K"); do
    local t0 t1
    t0=$(date +%s.%N)
    "$@" > /dev/null 2>&1 || { echo "failed"; return; }
    t1=$(date +%s.%N)
    b=$(awk -v a="$t0" -v z="$t1" -v b="$b" 'BEGIN { t = z - a; if (b == "" || t < b) b = t; printf "%.4f", b }')
  done
  echo "$b"
}

workload() {   # NAME PROGRAM ARGS
  local name=$1 prog=$2 args=$3
  echo "bench: certified $name (best of $K)" >&2
  local tf tr tb
  tf=$(best ./chad grad "$prog" --args "@$args" --eval fast)
  tr=$(best ./chad grad "$prog" --args "@$args" --eval ref)
  tb=$(best ./chad grad "$prog" --args "@$args" --eval ball)
  awk -v n="$name" -v f="$tf" -v r="$tr" -v b="$tb" 'BEGIN {
    rf = (f + 0 > 0 && b + 0 > 0) ? sprintf("%.1f", b / f) : "-"
    rr = (r + 0 > 0 && b + 0 > 0) ? sprintf("%.1f", b / r) : "-"
    printf "| %s | %s | %s | %s | %s | %s |\n", n, f, r, b, rf, rr }'
}

workload "sum (sin x * x), n = 1e5" bench/programs/sumsin.chad "$B/sumsin_1e5.json"
if [ "$have_gmm" = 1 ]; then
  workload "GMM 1k d2_K5" examples/gmm.chad "$B/gmm_cert.json"
else
  echo "| GMM 1k d2_K5 | $gmm_txt not found | | | | |"
fi
