#!/usr/bin/env bash
# make bench: the fast evaluator (src/fast) on primal and gradient workloads,
# side by side with hand-written C (-O2), PyTorch (float64) and ADOL-C, at 1
# and 2 threads. Writes bench/results-latest.md (a table per workload) and
# prints it. Analysis of a run: bench/RESULTS.md.
#
# Environment: BENCH_K (best of K, default 5), BENCH_SIZES (default
# "1000 10000 100000 1000000 10000000"), BENCH_THREADS (default "1 2"),
# BENCH_QUICK=1 (small sizes only, for CI).
set -u
root=$(git rev-parse --show-toplevel)
cd "$root"
K=${BENCH_K:-5}
SIZES=${BENCH_SIZES:-"1000 10000 100000 1000000 10000000"}
THREADS=${BENCH_THREADS:-"1 2"}
if [ "${BENCH_QUICK:-0}" = 1 ]; then SIZES="1000 100000"; K=2; fi
shared="$root/../shared"
B=build/bench
mkdir -p "$B"
out=bench/results-latest.md
PY=/usr/bin/python3

# ---- baselines' packages (Debian), installed when missing -----------------
missing=()
dpkg-query -W -f='${Status}' python3-torch 2>/dev/null | grep -q 'install ok installed' || missing+=(python3-torch)
dpkg-query -W -f='${Status}' libadolc-dev 2>/dev/null | grep -q 'install ok installed' || missing+=(libadolc-dev)
if [ ${#missing[@]} -gt 0 ]; then
  echo "bench: installing ${missing[*]} (apt-get) for the baselines"
  SUDO=; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"; } >&2 ||
    echo "bench: could not install ${missing[*]}; those baselines are skipped"
fi
have_torch=0; $PY -c 'import torch' 2>/dev/null && have_torch=1
have_adolc=0; [ -f /usr/include/adolc/adolc.h ] && have_adolc=1

# ---- build -----------------------------------------------------------------
make -s build/release/libchad.a || exit 1
CFL="-std=c11 -D_POSIX_C_SOURCE=200809L -O2 -fopenmp"
cc $CFL -Iinclude -Isrc -o $B/fast_bench bench/fast_bench.c build/release/libchad.a -ljansson -lm -lmvec || exit 1
cc $CFL -o $B/c_sumsin bench/baselines/sumsin.c -lm || exit 1
if [ $have_adolc = 1 ]; then
  g++ -O2 -o $B/adolc_sumsin bench/baselines/adolc_sumsin.cpp -ladolc || have_adolc=0
fi

# ---- run ---------------------------------------------------------------------
cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')
{
  echo "# CHAD-C benchmark run"
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)"
  echo "- machine: nproc $(nproc), $cpu, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- best of $K repetitions; wall-clock seconds; ratio = gradient / primal of the same tool in the same run"
  echo "- torch: $([ $have_torch = 1 ] && $PY -c 'import torch; print(torch.__version__)' || echo absent), ADOL-C: $([ $have_adolc = 1 ] && echo present || echo absent)"
  echo
} > "$out"

row() { # tool, then the output line of a driver
  local tool=$1; shift
  # workload size threads primal gradient ratio [ref_primal ref_gradient] value checksum
  set -- $*
  [ $# -ge 6 ] || return
  printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$tool" "$1" "$2" "$3" "$4" "$5" "$6" >> "$out"
}
header() {
  { echo; echo "## $1"; echo; echo "| tool | workload | size | threads | primal s | gradient s | gradient/primal |";
    echo "|---|---|---|---|---|---|---|"; } >> "$out"
}

for w in sumsin buildidx; do
  header "$w (bench/programs/$w.chad)"
  for n in $SIZES; do
    for T in $THREADS; do
      row chad-fast "$(OMP_NUM_THREADS=$T $B/fast_bench vec bench/programs/$w.chad $w $n $K)"
      row C-O2 "$(OMP_NUM_THREADS=$T $B/c_sumsin $w $n $K)"
      [ $have_torch = 1 ] && row pytorch "$(OMP_NUM_THREADS=$T $PY bench/baselines/torch_bench.py $w $n $K $T)"
      if [ $have_adolc = 1 ] && [ "$T" = 1 ] && [ "$n" -le 1000000 ]; then
        row adolc "$($B/adolc_sumsin $w $n $K)"
      fi
    done
    # the reference evaluator, for scale (small sizes only)
    if [ "$n" -le 100000 ]; then
      line=$(OMP_NUM_THREADS=1 REF=1 $B/fast_bench vec bench/programs/$w.chad $w $n 1)
      set -- $line
      printf '| chad-ref | %s | %s | 1 | %s | %s | %s |\n' "$1" "$2" "$7" "$8" \
        "$(awk -v a="$7" -v b="$8" 'BEGIN{printf "%.3f", b/a}')" >> "$out"
    fi
  done
done

header "two-layer MLP (bench/programs/mlp.chad), hidden = input width"
for n in 100 300; do
  for T in $THREADS; do
    line=$(OMP_NUM_THREADS=$T REF=1 $B/fast_bench mlp bench/programs/mlp.chad mlp $n $K)
    row chad-fast "$line"
    if [ "$T" = 1 ]; then
      set -- $line
      printf '| chad-ref | %s | %s | 1 | %s | %s | %s |\n' "$1" "$2" "$7" "$8" \
        "$(awk -v a="$7" -v b="$8" 'BEGIN{printf "%.3f", b/a}')" >> "$out"
    fi
  done
done

if [ -d "$shared/data/adbench/gmm/1k" ]; then
  header "ADBench GMM (examples/gmm.chad, 1000 points)"
  for f in "$shared"/data/adbench/gmm/1k/*.txt; do
    failed=0
    for T in $THREADS; do
      [ $failed = 1 ] && continue
      if [ "$T" = 1 ]; then ref=1; else ref=; fi
      line=$(OMP_NUM_THREADS=$T REF=$ref timeout ${BENCH_GMM_TIMEOUT:-120} $B/fast_bench gmm examples/gmm.chad gmm "$f" 1 2>&1)
      if [ $? -ne 0 ]; then
        failed=1
        echo "| chad-fast | gmm | $(basename "$f" .txt) | $T | failed: ${line:-timeout after ${BENCH_GMM_TIMEOUT:-120} s} | | |" >> "$out"
        continue
      fi
      row chad-fast "$line"
      if [ -n "$ref" ]; then
        set -- $line
        printf '| chad-ref | %s | %s | 1 | %s | %s | %s |\n' "$1" "$2" "$7" "$8" \
          "$(awk -v a="$7" -v b="$8" 'BEGIN{printf "%.3f", b/a}')" >> "$out"
      fi
    done
  done
else
  echo "bench: $shared/data/adbench/gmm/1k not found: GMM skipped" | tee -a "$out"
fi
if [ ! -d "$shared/data/adbench/ba" ]; then
  echo "bench: $shared/data/adbench/ba not found: BA skipped" | tee -a "$out"
else
  echo >> "$out"; echo "BA (Jacobian): not implemented yet (see bench/RESULTS.md)." >> "$out"
fi

cat "$out"
