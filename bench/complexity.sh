#!/usr/bin/env bash
# Complexity families: program shapes whose gradient once cost far more than
# a constant factor of the program, each at sizes growing by 10x. For each
# size, bench/fast_bench (built by bench/run.sh) times the primal and the
# gradient (one VJP) under the fast evaluator, one thread, best of K, in
# process CPU seconds (FAST_BENCH_CPU=1: a shared machine's load does not
# count), transformation excluded, and reports the value heap each took (a
# region: bytes handed out = its peak; a primal whose loops run fused
# allocates almost nothing, so the heap ratio is only meaningful where the
# primal stores its values). The ratios gradient/primal should stay flat as
# the size grows.
# Prints markdown table rows.
#   bench/complexity.sh K [FAMILY...]     (default: every family)
# Families (programs generated into build/bench/complexity/):
#   closures  N local closures nested in each other's bodies, each applied
#             to x (f x = x^(N+1)); N = 4, 40, 400 (two decades: 1000 levels
#             pass the parser's nesting limit of 1000; CLOSURES_SIZES overrides)
#   letchain  a straight-line chain of N lets; N = 1 .. 10^5 (LETCHAIN_SIZES
#             overrides): a size past a kernel capacity (types, contexts,
#             terms, nesting) prints its error in the table
#   defchain  a chain of N defs, each calling the one before; N = 10 .. 10^5
#             (DEFCHAIN_SIZES overrides), limits as for letchain
#   closmap   a let-bound closure applied inside two nested maps over an
#             n x n matrix built from x; n = 10, 100, 1000 (1e2..1e6 elements)
#   closmap-noclosure  the same with the closure's body written in place
#   iter      iter n (fun a -> a * x) 1.0: the pullback is a chain of n
#             linear closures; n = 1000 .. 10^6 (ITER_SIZES overrides)
#   while     while (p -> snd p < n) (p -> (fst p * x, snd p + 1)) (1.0, 0):
#             n rounds of a loop on a pair; n = 1000 .. 10^6 (WHILE_SIZES)
#   iterho    iter n g 1.0 with g a let-bound closure (a higher-order
#             argument, applied each round); n = 1000 .. 10^6 (ITERHO_SIZES)
#   loopclos  a closure returned from a loop: iter builds h_k y = h_(k-1) y * x
#             from the identity, then h_n 1.0; the application nests n deep;
#             n = 1000 .. 10^5 (LOOPCLOS_SIZES; 10^6 passes the nesting limit)
#   casechain a chain of N lets, each an if on the one before; N = 10 .. 1000
#             (CASECHAIN_SIZES; longer chains reach the kernel's limits, as
#             letchain does)
set -u
K=${1:-5}
shift || true
FAMILIES=${*:-"closures letchain defchain closmap closmap-noclosure iter while iterho loopclos casechain"}
B=build/bench
D=$B/complexity
mkdir -p "$D"
[ -x "$B/fast_bench" ] || { echo "bench/complexity.sh: $B/fast_bench missing (run by bench/run.sh)" >&2; exit 2; }

gen_closures() {   # N: x = v[0]
  local n=$1 k
  echo 'def f (v : [real]) : real ='
  echo '  let x = v[0] + 1.0001 in'
  for ((k = 0; k < n; k++)); do echo "  let g$k = fun (a$k : real) ->"; done
  echo '  x'
  for ((k = n - 1; k >= 0; k--)); do echo "  * a$k in g$k x"; done
}
gen_letchain() {
  local n=$1 k prev=x
  echo 'def f (v : [real]) : real ='
  echo '  let x = v[0] + 1.0001 in'
  for ((k = 0; k < n; k++)); do echo "  let y$k = $prev * 1.0001 in"; prev=y$k; done
  echo "  $prev"
}
gen_defchain() {   # f v = v[0] * 1.0001^N through N defs
  local n=$1 k
  echo 'def f0 (x : real) : real = x * 1.0001'
  for ((k = 1; k < n; k++)); do echo "def f$k (x : real) : real = f$((k - 1)) x * 1.0001"; done
  echo "def f (v : [real]) : real = f$((n - 1)) v[0]"
}
gen_closmap() {
  echo 'def f (v : [real]) : real ='
  echo '  let g = fun (a : real) -> sin a * a in'
  echo '  let m = build (length v) (fun (i : int) -> v) in'
  echo '  sum (map (fun (row : [real]) -> sum (map (fun (u : real) -> g u) row)) m)'
}
gen_iter() {
  echo 'def f (v : [real]) : real ='
  echo "  iter $1 (fun (a : real) -> a * (v[0] + 1e-7)) 1.0"
}
gen_while() {
  echo 'def f (v : [real]) : real ='
  echo '  let x = v[0] + 1e-7 in'
  echo "  fst (while (fun (p : real * int) -> snd p < $1) (fun (p : real * int) -> (fst p * x, snd p + 1)) (1.0, 0) $(($1 + 1)))"
}
gen_iterho() {
  echo 'def f (v : [real]) : real ='
  echo '  let x = v[0] + 1e-7 in'
  echo '  let g = fun (a : real) -> a * x in'
  echo "  iter $1 g 1.0"
}
gen_loopclos() {
  echo 'def f (v : [real]) : real ='
  echo '  let x = v[0] + 1e-7 in'
  echo "  let h = iter $1 (fun (h : real -> real) -> fun (y : real) -> h y * x) (fun (y : real) -> y) in"
  echo '  h 1.0'
}
gen_casechain() {
  local n=$1 k
  echo 'def f (v : [real]) : real ='
  echo '  let y0 = v[0] + 1.0001 in'
  for ((k = 1; k <= n; k++)); do
    echo "  let y$k = if y$((k - 1)) > 1.0 then y$((k - 1)) * 1.0001 else y$((k - 1)) * 0.9999 in"
  done
  echo "  y$n"
}
gen_closmap_noclosure() {
  echo 'def f (v : [real]) : real ='
  echo '  let m = build (length v) (fun (i : int) -> v) in'
  echo '  sum (map (fun (row : [real]) -> sum (map (fun (u : real) -> sin u * u) row)) m)'
}

# one FAMILY SIZE INPUT_LENGTH: a table row from fast_bench's line
one() {
  local fam=$1 size=$2 len=$3 prog=$D/$1_$2.chad line
  echo "bench: complexity $fam $size (best of $K)" >&2
  case $fam in
  closures) gen_closures "$size" ;;
  letchain) gen_letchain "$size" ;;
  defchain) gen_defchain "$size" ;;
  closmap) gen_closmap ;;
  closmap-noclosure) gen_closmap_noclosure ;;
  iter) gen_iter "$size" ;;
  while) gen_while "$size" ;;
  iterho) gen_iterho "$size" ;;
  loopclos) gen_loopclos "$size" ;;
  casechain) gen_casechain "$size" ;;
  esac >"$prog"
  # fast_bench transforms on its main thread: a long chain recurses as deep
  # as it is long (the chad command line runs on a large-stack thread)
  line=$(ulimit -s unlimited 2>/dev/null || ulimit -s "$(ulimit -H -s)"
         FAST_BENCH_CPU=1 OMP_NUM_THREADS=1 timeout 600 "$B/fast_bench" vec "$prog" f "$len" "$K" 2>&1)
  local rc=$?
  if [ $rc -ne 0 ]; then
    [ $rc = 124 ] && line="timeout after 600 s"
    [ $rc -gt 128 ] && [ $rc != 124 ] && line="killed by signal $((rc - 128)) $line"
    echo "| $fam | $size | failed (exit $rc): $(printf '%s' "$line" | tail -1) | | | | | |"
    return
  fi
  set -- $line
  awk -v f="$fam" -v s="$size" -v p="$4" -v g="$5" -v hp="${11:-0}" -v hg="${12:-0}" 'BEGIN {
    printf "| %s | %s | %.3g | %.3g | %.2f | %.3g | %.3g | %.2f |\n", f, s, p, g, g / p,
      hp / 1048576, hg / 1048576, (hp > 0) ? hg / hp : 0 }'
}

echo "| family | size | primal s | gradient s | time ratio | primal heap MiB | gradient heap MiB | heap ratio |"
echo "|---|---|---|---|---|---|---|---|"
for fam in $FAMILIES; do
  case $fam in
  closures) for n in ${CLOSURES_SIZES:-4 40 400}; do one closures "$n" 1; done ;;
  letchain) for n in ${LETCHAIN_SIZES:-1 10 100 1000 10000 100000}; do one letchain "$n" 1; done ;;
  defchain) for n in ${DEFCHAIN_SIZES:-10 100 1000 10000 100000}; do one defchain "$n" 1; done ;;
  closmap | closmap-noclosure) for n in 10 100 1000; do one "$fam" "$n" "$n"; done ;;
  iter) for n in ${ITER_SIZES:-1000 10000 100000 1000000}; do one iter "$n" 1; done ;;
  while) for n in ${WHILE_SIZES:-1000 10000 100000 1000000}; do one while "$n" 1; done ;;
  iterho) for n in ${ITERHO_SIZES:-1000 10000 100000 1000000}; do one iterho "$n" 1; done ;;
  loopclos) for n in ${LOOPCLOS_SIZES:-1000 10000 100000}; do one loopclos "$n" 1; done ;;
  casechain) for n in ${CASECHAIN_SIZES:-10 100 1000}; do one casechain "$n" 1; done ;;
  *) echo "bench/complexity.sh: unknown family $fam" >&2; exit 2 ;;
  esac
done
