#!/usr/bin/env bash
# make bench: the fast evaluator (src/fast) on primal and gradient workloads,
# side by side with hand-written C (-O2), PyTorch (Debian's python3-torch,
# float64) and ADOL-C (Debian's libadolc-dev), at 1 and 2 threads. Writes
# bench/results-latest.md (machine, date, a table per workload, the targets
# computed from the tables) and prints it. Discussion: bench/RESULTS.md.
#
# Workloads: sum (sin x * x) and the build/index program for n = 1e3..1e7,
# a two-layer MLP, ADBench GMM on every shipped 1k instance (d2..d20,
# K5..K25; an out-of-memory or timeout is reported as the result), ADBench BA
# (objective and Jacobian; checked first by bench/ba_check.py); the
# complexity families of bench/complexity.sh (nested closures, let and def
# chains, a closure inside nested maps, the pullback chain of iter, while, a
# closure as iter's argument, a closure returned from a loop, if chains),
# sizes growing by 10x.
#
# Environment: BENCH_K (best of K, default 5), BENCH_SIZES (default
# "1000 10000 100000 1000000 10000000"), BENCH_THREADS (default "1 2"),
# BENCH_GMM_TIMEOUT (s per GMM run, default 240), BENCH_HEAP_GB (heap limit
# of a chad run, default 16), BENCH_QUICK=1 (small sizes, two GMM instances,
# 2000 BA observations: a few minutes, for development; never quote its
# numbers against the targets).
set -u
root=$(git rev-parse --show-toplevel)
cd "$root"
K=${BENCH_K:-5}
SIZES=${BENCH_SIZES:-"1000 10000 100000 1000000 10000000"}
THREADS=${BENCH_THREADS:-"1 2"}
MLP_SIZES="100 300 1000"
GMM_TIMEOUT=${BENCH_GMM_TIMEOUT:-240}
export FAST_BENCH_HEAP_GB=${BENCH_HEAP_GB:-16}
QUICK=${BENCH_QUICK:-0}
BA_ENV=
if [ "$QUICK" = 1 ]; then
  SIZES="1000 100000"; K=2; MLP_SIZES="100"; GMM_TIMEOUT=60; BA_ENV="BA_OBS=2000"
  export FAST_BENCH_HEAP_GB=${BENCH_HEAP_GB:-4}
fi
data="$root/data/adbench"   # ADBench instances shipped in the repository (data/adbench/README.md)
B=build/bench
mkdir -p "$B"
out=bench/results-latest.md
raw=$B/results.tsv   # tool workload size threads primal gradient ratio
: > "$raw"
PY=/usr/bin/python3
say() { echo "bench: $*" >&2; }

# ---- baselines' packages (Debian), installed when missing -----------------
missing=()
dpkg-query -W -f='${Status}' python3-torch 2>/dev/null | grep -q 'install ok installed' || missing+=(python3-torch)
dpkg-query -W -f='${Status}' libadolc-dev 2>/dev/null | grep -q 'install ok installed' || missing+=(libadolc-dev)
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]} (apt-get) for the baselines"
  SUDO=; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"; } >&2 ||
    say "could not install ${missing[*]}; those baselines are skipped"
fi
have_torch=0; $PY -c 'import torch' 2>/dev/null && have_torch=1
have_adolc=0; [ -f /usr/include/adolc/adolc.h ] && have_adolc=1

# ---- build -----------------------------------------------------------------
say "building"
make -s chad build/release/libchad.a || exit 1
CFL="-std=c11 -D_POSIX_C_SOURCE=200809L -O2 -fopenmp"
cc $CFL -Iinclude -Isrc -o $B/fast_bench bench/fast_bench.c build/release/libchad.a -ljansson -lflint-arb -lflint -lgmp -lquadmath -lm -lmvec || exit 1
cc $CFL -o $B/c_sumsin bench/baselines/sumsin.c -lm || exit 1
cc $CFL -o $B/c_adbench bench/baselines/adbench.c -lm || exit 1
if [ $have_adolc = 1 ]; then
  { g++ -O2 -o $B/adolc_sumsin bench/baselines/adolc_sumsin.cpp -ladolc &&
    g++ -std=c++17 -O2 -o $B/adolc_adbench bench/baselines/adolc_adbench.cpp -ladolc; } || have_adolc=0
fi

# ---- header ------------------------------------------------------------------
cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')
{
  echo "# CHAD-C benchmark run (bench/run.sh)"
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)$([ -n "$(git status --porcelain -uno -- . ':!bench/results-latest.md' 2>/dev/null)" ] && echo ' (with uncommitted changes)')"
  echo "- machine: nproc $(nproc), $cpu, $(free -g | awk '/Mem:/ {print $2}') GiB RAM, load average at the start $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- mode: $([ "$QUICK" = 1 ] && echo 'QUICK (BENCH_QUICK=1: development only, not for the targets)' || echo full); best of $K repetitions; wall-clock seconds; ratio = gradient / primal of the same tool in the same run"
  echo "- torch: $([ $have_torch = 1 ] && $PY -c 'import torch; print(torch.__version__)' || echo absent), ADOL-C: $([ $have_adolc = 1 ] && echo present || echo absent)"
  echo "- chad-fast: the CHAD reverse translation (chad_rev + chad_simplify) evaluated by eval_fast_raw, its pullback applied by eval_fast_apply_raw (one VJP; BA: three); chad-ref: the reference evaluator on the same terms; C-O2: hand-written C (bench/baselines, -O2 -fopenmp); pytorch: float64, torch.set_num_threads(threads)"
} > "$out"

# row TOOL LINE: a driver's output line "workload size threads primal gradient ratio ..."
row() {
  local tool=$1; shift
  set -- $*
  [ $# -ge 6 ] || return
  printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$tool" "$1" "$2" "$3" "$4" "$5" "$6" >> "$out"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$tool" "$1" "$2" "$3" "$4" "$5" "$6" >> "$raw"
}
# refrow LINE: the reference evaluator's times (fields 7, 8 of fast_bench's line)
refrow() {
  set -- $*
  [ $# -ge 8 ] && [ "$7" != nan ] || return
  row chad-ref "$1 $2 1 $7 $8 $(awk -v a="$7" -v b="$8" 'BEGIN{printf "%.3f", b/a}')"
}
# failrow TOOL WORKLOAD SIZE THREADS MESSAGE
failrow() {
  echo "| $1 | $2 | $3 | $4 | failed: $5 | | |" >> "$out"
  printf '%s\t%s\t%s\t%s\tfailed\tfailed\t-\n' "$1" "$2" "$3" "$4" >> "$raw"
}
header() {
  { echo; echo "## $1"; echo; echo "| tool | workload | size | threads | primal s | gradient s | gradient/primal |";
    echo "|---|---|---|---|---|---|---|"; } >> "$out"
}
# run_chad WORKLOAD SIZE THREADS TIMEOUT CMD...: a chad-fast row, or a failure row
run_chad() {
  local w=$1 size=$2 T=$3 to=$4 line rc
  shift 4
  line=$(OMP_NUM_THREADS=$T timeout "$to" "$@" 2>&1)
  rc=$?
  if [ $rc -ne 0 ]; then
    [ $rc = 124 ] && line="timeout after $to s"
    failrow "${TOOL:-chad-fast}" "$w" "$size" "$T" "$(printf '%s' "$line" | tail -1)"
    return 1
  fi
  row "${TOOL:-chad-fast}" "$line"
  [ -n "${REF:-}" ] && refrow "$line"
  return 0
}

# ---- sum (sin x * x), build/index ----------------------------------------------
for w in sumsin buildidx; do
  header "$w (bench/programs/$w.chad)"
  for n in $SIZES; do
    for T in $THREADS; do
      say "$w n=$n threads=$T"
      # the reference evaluator once, at 1 thread, up to n = 1e5
      ref=; [ "$T" = 1 ] && [ "$n" -le 100000 ] && ref=1
      REF=$ref run_chad $w $n $T 600 env ${ref:+REF=1} $B/fast_bench vec bench/programs/$w.chad $w $n $K
      row C-O2 "$(OMP_NUM_THREADS=$T $B/c_sumsin $w $n $K)"
      [ $have_torch = 1 ] && row pytorch "$(OMP_NUM_THREADS=$T $PY bench/baselines/torch_bench.py $w $n $K $T)"
      if [ $have_adolc = 1 ] && [ "$T" = 1 ] && [ "$n" -le 1000000 ]; then
        row adolc "$($B/adolc_sumsin $w $n $K)"
      fi
    done
  done
done

# ---- two-layer MLP ------------------------------------------------------------------
header "two-layer MLP (bench/programs/mlp.chad), hidden = input width"
for n in $MLP_SIZES; do
  for T in $THREADS; do
    say "mlp ${n}x$n threads=$T"
    ref=; [ "$T" = 1 ] && ref=1
    REF=$ref run_chad mlp ${n}x$n $T 600 env ${ref:+REF=1} $B/fast_bench mlp bench/programs/mlp.chad mlp $n $K
    row C-O2 "$(OMP_NUM_THREADS=$T $B/c_adbench mlp $n $K)"
    [ $have_torch = 1 ] && row pytorch "$(OMP_NUM_THREADS=$T $PY bench/baselines/torch_bench.py mlp $n $K $T)"
    [ $have_adolc = 1 ] && [ "$T" = 1 ] && row adolc "$($B/adolc_adbench mlp $n $K)"
  done
done

# ---- ADBench GMM --------------------------------------------------------------------
gdir="$data/gmm/1k"
if [ -d "$gdir" ]; then
  header "ADBench GMM (examples/gmm.chad elaborated with --inline, on $(basename "$gdir")/*.txt, 1000 points); gradient with respect to every real parameter; chad-fast-noinline: the program as written (d2_K5, 1 thread)"
  # by d, then K
  files=$(cd "$gdir" && ls gmm_d*_K*.txt | sort -t_ -k2.2n -k3.2n)
  [ "$QUICK" = 1 ] && files=$(printf '%s\n' $files | grep -E 'd2_K5|d10_K5')
  GK=$K; [ "$GK" -gt 3 ] && GK=3
  for f in $files; do
    sz=${f%.txt}; sz=${sz#gmm_}; f=$gdir/$f
    sz=${sz}_n$(awk 'NR == 1 { print $3; exit }' "$f")   # as the drivers label it
    failed=0
    for T in $THREADS; do
      say "gmm $sz threads=$T (chad-fast: up to $GMM_TIMEOUT s)"
      if [ $failed = 0 ]; then
        # the reference evaluator at 1 thread, on d = 2 only (slow)
        ref=; [ "$T" = 1 ] && [[ $sz == d2_* ]] && ref=1
        # best of K, as C and PyTorch (a single call measured the process's
        # first touch of its memory: 10x the later calls at d10_K5)
        gk=$K
        # --inline (FAST_BENCH_INLINE=1): q_index and qx_row inlined, so the
        # reverse term has no copowers and the fast evaluator compiles it
        REF=$ref run_chad gmm "$sz" $T "$GMM_TIMEOUT" env FAST_BENCH_INLINE=1 ${ref:+REF=1} $B/fast_bench gmm examples/gmm.chad gmm "$f" $gk || failed=1
        # for comparison, the program as written, once
        if [ "$T" = 1 ] && [[ $sz == d2_K5_* ]]; then
          TOOL=chad-fast-noinline run_chad gmm "$sz" $T "$GMM_TIMEOUT" $B/fast_bench gmm examples/gmm.chad gmm "$f" $gk
        fi
      else
        failrow chad-fast gmm "$sz" $T "not run (failed at 1 thread)"
      fi
      row C-O2 "$(OMP_NUM_THREADS=$T $B/c_adbench gmm "$f" $K)"
      [ $have_torch = 1 ] && row pytorch "$(OMP_NUM_THREADS=$T $PY bench/baselines/torch_bench.py gmm "$f" $K $T)"
      [ $have_adolc = 1 ] && [ "$T" = 1 ] && row adolc "$($B/adolc_adbench gmm "$f" $GK)"
    done
  done
else
  say "$gdir not found: GMM skipped" | tee -a "$out"
fi

# ---- ADBench BA ------------------------------------------------------------------------
bdir="$data/ba"
if [ -d "$bdir" ] && [ -f "$bdir/test.txt" ]; then
  header "ADBench BA (examples/ba.chad, \`ba\`): primal = the objective (reprojection and weight errors), gradient = the Jacobian (p blocks of 2 x 15 and the weight errors' diagonal)"
  say "ba: checking the objective and the Jacobian (bench/ba_check.py)"
  if $PY bench/ba_check.py ./chad $B/fast_bench "$bdir" $B/c_adbench > $B/ba_check.txt 2>&1; then bc=passed; else bc=FAILED; fi
  { echo; echo "bench/ba_check.py $bc:"; echo; sed 's/^/    /' $B/ba_check.txt; echo; } >> "$out.ba"
  for f in "$bdir"/ba*_n*.txt; do
    for T in $THREADS; do
      say "ba $(basename "$f" .txt)${BA_ENV:+ ($BA_ENV)} threads=$T"
      run_chad ba "$(basename "$f" .txt)" $T 600 env $BA_ENV $B/fast_bench ba examples/ba.chad ba "$f" $K
      row C-O2 "$(env $BA_ENV OMP_NUM_THREADS=$T $B/c_adbench ba "$f" $K)"
      [ $have_torch = 1 ] && row pytorch "$(env $BA_ENV OMP_NUM_THREADS=$T $PY bench/baselines/torch_bench.py ba "$f" $K $T)"
      [ $have_adolc = 1 ] && [ "$T" = 1 ] && row adolc "$(env $BA_ENV $B/adolc_adbench ba "$f" $K)"
    done
    # the reference evaluator on the first 1000 observations, for scale
    say "ba: reference evaluator, 1000 observations"
    line=$(OMP_NUM_THREADS=1 BA_OBS=1000 REF=1 timeout 600 $B/fast_bench ba examples/ba.chad ba "$f" 1 2>/dev/null) && refrow "$line"
  done
  cat "$out.ba" >> "$out"; rm -f "$out.ba"
else
  say "$bdir not found: BA skipped" | tee -a "$out"
fi

# ---- the certified evaluator ----------------------------------------------------------------
say "certified evaluator"
{
  echo
  echo "## Certified evaluator (--eval ball): whole \`chad grad\` commands, best of $K wall seconds, one thread"
  echo
  echo "| workload | fast | ref | ball | ball / fast | ball / ref |"
  echo "|---|---|---|---|---|---|"
  OMP_NUM_THREADS=1 bench/certified.sh "$data/gmm/1k/gmm_d2_K5.txt" "$K"
} >> "$out"

# ---- complexity families ------------------------------------------------------------------
say "complexity families"
{
  echo
  echo "## Complexity families (bench/complexity.sh): gradient over primal as the program grows, fast evaluator, one thread, best of $K CPU seconds, value heap in MiB"
  echo
  bench/complexity.sh "$K"
} >> "$out"

# ---- the targets, computed from this run's rows ----------------------------------------------
say "targets"
{
  echo
  echo "## Targets, computed from the rows above (bench/run.sh; discussed in bench/RESULTS.md)"
  echo
  awk -F'\t' '
    function get(t, w, s, th, col) { k = t SUBSEP w SUBSEP s SUBSEP th; return (k in V) ? V[k, col] : "" }
    { k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4; V[k] = 1; V[k, 5] = $5; V[k, 6] = $6; V[k, 7] = $7
      if (!(($2 SUBSEP $3) in seen)) { seen[$2, $3] = 1; order[++no] = $2 SUBSEP $3 } }
    END {
      print "| workload | size | threads | chad grad/primal | chad primal / C primal | chad grad / PyTorch grad | chad 1 thread / 2 threads (primal, grad) |"
      print "|---|---|---|---|---|---|---|"
      for (i = 1; i <= no; i++) {
        split(order[i], ws, SUBSEP)
        for (th = 1; th <= 2; th++) {
          r = get("chad-fast", ws[1], ws[2], th, 7); if (r == "") continue
          p = get("chad-fast", ws[1], ws[2], th, 5); g = get("chad-fast", ws[1], ws[2], th, 6)
          cp = get("C-O2", ws[1], ws[2], th, 5); tg = get("pytorch", ws[1], ws[2], th, 6)
          pc = (p + 0 > 0 && cp + 0 > 0) ? sprintf("%.2f", p / cp) : "-"
          gt = (g + 0 > 0 && tg + 0 > 0) ? sprintf("%.2f", g / tg) : "-"
          sp = "-"
          if (th == 2) { p1 = get("chad-fast", ws[1], ws[2], 1, 5); g1 = get("chad-fast", ws[1], ws[2], 1, 6)
            if (p1 + 0 > 0 && p + 0 > 0 && g + 0 > 0) sp = sprintf("%.2f, %.2f", p1 / p, g1 / g) }
          printf "| %s | %s | %d | %s | %s | %s | %s |\n", ws[1], ws[2], th, r, pc, gt, sp
        }
      }
      print ""
      print "Targets: grad/primal <= 2.5 on sumsin at every n, <= 4 on every GMM instance, <= 8 on BA (its Jacobian); chad grad / PyTorch grad <= 1 at 1 and 2 threads, every workload and size; chad primal / C primal <= 1.5 for n >= 1e5, every workload; 1 thread / 2 threads >= 1.8 at n = 1e7 on sumsin and buildidx, primal and gradient. A failed row has no ratio."
    }' "$raw"
} >> "$out"

cat "$out"
