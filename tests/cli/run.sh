#!/usr/bin/env bash
# Shell tests of the `chad` command line: outputs of every command, every exit
# code, and the one-line "file:line:col: error: ..." diagnostics.
#   tests/cli/run.sh [CHAD_BINARY]      (default ./chad)
# Ends with "N passed, N failed"; exits non-zero if any test failed.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

# expect_out NAME EXPECTED_STDOUT CMD...: exit 0, exactly this stdout, no stderr
expect_out() {
  local name=$1 want=$2
  shift 2
  run "$@"
  if [ "$rc" -ne 0 ] || [ "$out" != "$want" ] || [ -n "$err" ]; then
    bad "$name" "exit $rc (want 0)" "stdout: $out" "want:   $want" "stderr: $err"
  else ok "$name"; fi
}

# expect_err NAME RC REGEX CMD...: exit RC, empty stdout, stderr ONE line
# matching REGEX (an extended regex)
expect_err() {
  local name=$1 want=$2 re=$3
  shift 3
  run "$@"
  local lines
  lines=$(printf '%s\n' "$err" | grep -c .)
  if [ "$rc" -ne "$want" ] || [ -n "$out" ] || [ "$lines" -ne 1 ] || ! [[ $err =~ $re ]]; then
    bad "$name" "exit $rc (want $want), $lines stderr line(s)" "stderr: $err" "want:   /$re/" "stdout: $out"
  else ok "$name"; fi
}

NUM='-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?'
# expect_json NAME TEMPLATE "NUMS" RELTOL CMD...: exit 0; stdout with every
# number replaced by # equals TEMPLATE, and its numbers match NUMS (space
# separated, in order) to relative tolerance RELTOL (absolute below 1).
expect_json() {
  local name=$1 tpl=$2 nums=$3 tol=$4
  shift 4
  run "$@"
  local shape got
  shape=$(printf '%s' "$out" | sed -E "s/$NUM/#/g")
  got=$(printf '%s' "$out" | grep -oE -- "$NUM" | tr '\n' ' ')
  if [ "$rc" -ne 0 ] || [ -n "$err" ] || [ "$shape" != "$tpl" ]; then
    bad "$name" "exit $rc, stdout: $out" "shape:  $shape" "want:   $tpl" "stderr: $err"
    return
  fi
  if ! awk -v got="$got" -v want="$nums" -v tol="$tol" 'BEGIN {
      n = split(got, g, " "); m = split(want, w, " ");
      if (n != m) exit 1;
      for (i = 1; i <= n; i++) {
        scale = (w[i] < 0 ? -w[i] : w[i]); if (scale < 1) scale = 1;
        diff = g[i] - w[i]; if (diff < 0) diff = -diff;
        if (diff > tol * scale) exit 1;
      }
      exit 0 }'; then
    bad "$name" "numbers: $got" "want:    $nums (tolerance $tol)"
  else ok "$name"; fi
}

P=$tmp/p.chad
prog() { printf '%s\n' "$@" >"$P"; }

echo "cli tests of $label"
if ! [ -x "$CHAD" ]; then echo "FAIL no executable $CHAD"; echo "cli-$label: 0 passed, 1 failed"; exit 1; fi

# ---- help and usage (exit 1) -------------------------------------------
run "$CHAD" --help
if [ "$rc" -eq 0 ] && [[ $out == usage:* ]] && [[ $out == *"Exit codes"* ]]; then ok "--help"
else bad "--help" "exit $rc" "$out"; fi
expect_err "no arguments: usage" 1 'usage: chad' "$CHAD"
expect_err "unknown command" 1 "^<command line>: error: unknown command 'frobnicate'" "$CHAD" frobnicate examples/fig1a.chad
expect_err "unknown option" 1 "^<command line>: error: unknown option '--bogus'" "$CHAD" eval examples/fig1a.chad --bogus
expect_err "missing FILE" 1 '^<command line>: error: eval: missing FILE' "$CHAD" eval --args '[1]'
expect_err "option not taken by the command" 1 'fwd does not take the option --args' \
  "$CHAD" fwd examples/fig1a.chad --args '[1]'
expect_err "check: --args without --candidate" 1 'grading options need --candidate' \
  "$CHAD" check examples/fig1a.chad --args '[1]'
expect_err "missing --args" 1 "'fig1a' takes 1 parameter: give them with --args" \
  "$CHAD" eval examples/fig1a.chad
expect_err "--fn names no definition" 1 "no definition named 'nope'" \
  "$CHAD" eval examples/fig1a.chad --fn nope --args '[1]'
expect_err "option without value" 1 'option --args needs a value' "$CHAD" eval examples/fig1a.chad --args
expect_err "bad --heap-mb" 1 'heap-mb needs a number of MiB from 1 to 524288' \
  "$CHAD" eval examples/fig1a.chad --heap-mb -5 --args '[1]'

# ---- check -----------------------------------------------------------------
expect_out "check fig1a" "fig1a : real -> real * real * real" "$CHAD" check examples/fig1a.chad
expect_out "check fig1b" "fig1b : real -> real -> real -> real -> real" "$CHAD" check examples/fig1b.chad
expect_out "check fig2a (higher order)" "fig2a : real -> int -> [real]" "$CHAD" check examples/fig2a.chad
prog 'def sq (x : real) : real = x * x' 'def twice (x : real) = sq (sq x)' 'def k = 3'
expect_out "check: every definition, inferred result types" \
  "sq : real -> real
twice : real -> real
k : int" "$CHAD" check "$P"

# ---- input errors (exit 2) with file:line:col --------------------------------
prog 'def f (x : real) : real =' '  x +'
expect_err "malformed program" 2 "^$P:[0-9]+:[0-9]+: error: " "$CHAD" check "$P"
prog 'def f (x : real) : real =' '  x + 1.0' 'def g (x : real) : int = f x'
expect_err "ill-typed program" 2 "^$P:3:[0-9]+: error: .*(int|real)" "$CHAD" check "$P"
expect_err "ill-typed program (eval)" 2 "^$P:3:[0-9]+: error: " "$CHAD" eval "$P" --args '[1]'
: >"$P"
expect_err "empty program" 2 "^$P:1:1: error: the file has no definitions" "$CHAD" eval "$P"
expect_out "check of an empty program: nothing" "" "$CHAD" check "$P"
expect_err "missing program file" 2 "^<command line>: error: FILE '$tmp/none.chad': cannot open: No such file or directory$" "$CHAD" check "$tmp/none.chad"
expect_err "malformed JSON" 2 '^<args>:1:[0-9]+: error: invalid JSON' \
  "$CHAD" eval examples/fig1a.chad --args '[1.5,'
printf '{"x1": 1,\n "x2": 2,\n "x3": [3],\n "x4": 4}\n' >"$tmp/args.json"
expect_err "wrong JSON shape in @file, located" 2 "^$tmp/args.json:3:8: error: argument 'x3': expected a number" \
  "$CHAD" eval examples/fig1b.chad --args "@$tmp/args.json"
printf '[1,\n 2' >"$tmp/broken.json"
expect_err "malformed JSON in @file" 2 "^$tmp/broken.json:[0-9]+:[0-9]+: error: invalid JSON" \
  "$CHAD" eval examples/fig1b.chad --args "@$tmp/broken.json"
expect_out "--args @- reads standard input" "-1" sh -c "echo '[2, [1, -2, 0.5]]' | '$CHAD' eval examples/fig2b.chad --args @-"
expect_err "JSON errors on standard input are named <stdin>" 2 "^<stdin>:1:5: error: argument 'x2'" \
  sh -c "echo '[2, 3]' | '$CHAD' eval examples/fig2b.chad --args @-"
expect_err "missing @file" 2 "^<command line>: error: --args @$tmp/none.json: cannot open: No such file or directory$" \
  "$CHAD" eval examples/fig1a.chad --args "@$tmp/none.json"
expect_err "wrong number of arguments" 2 '^<args>:1:1: error: .*array of 4 values' \
  "$CHAD" eval examples/fig1b.chad --args '[1, 2]'
expect_err "string for a real" 2 "^<args>:1:2: error: argument 'x': expected a number" \
  "$CHAD" eval examples/fig1a.chad --args '["1.5"]'
expect_err "real for an int" 2 "^<args>:1:7: error: argument 'n': expected an integer" \
  "$CHAD" eval examples/fig2a.chad --args '[3.0, 4.5]'
expect_err "unknown parameter name" 2 "^<args>:1:10: error: argument: no parameter is named 'y'" \
  "$CHAD" eval examples/fig1a.chad --args '{"x": 1, "y": 2}'
expect_err "missing parameter name" 2 "^<args>:1:1: error: .*missing parameter 'x2'" \
  "$CHAD" eval examples/fig2b.chad --args '{"x1": 1}'
prog 'def f (x : real) = fun (y : real) -> x * y'
expect_err "function result: no JSON form" 2 "^$P:1:1: error: .*function" "$CHAD" eval "$P" --args '[1]'
prog 'def f (g : real -> real) : real = g 1.0'
expect_err "function parameter: no JSON form" 2 "^$P:1:1: error: .*no JSON form" "$CHAD" eval "$P" --args '[1]'

# ---- runtime errors (exit 3) -------------------------------------------------
prog 'def f (a : [real], i : int) : real = a[i]'
expect_err "index out of bounds: at the indexing" 3 "^$P:1:39: error: runtime error in 'f': index 5 out of bounds" "$CHAD" eval "$P" --args '[[1, 2], 5]'
prog 'def f (n : int) : int = n / 0'
expect_err "integer division by zero: at the /" 3 "^$P:1:27: error: runtime error in 'f': idiv: integer division by zero" "$CHAD" eval "$P" --args '[7]'
prog 'def f (x : real) : real = log x'
expect_err "non-finite result" 3 "^$P:1:1: error: the result: the number -inf has no JSON form" \
  "$CHAD" eval "$P" --args '[0]'
prog 'def f (n : int) : [real] = build n (fun i -> toreal i)'
expect_err "heap limit" 3 "^$P:1:1: error: runtime error in 'f': .*heap limit.*raise it with --heap-mb" \
  "$CHAD" eval "$P" --heap-mb 1 --args '[10000000]'

if [ -w /dev/full ]; then
  "$CHAD" eval examples/fig1a.chad --args '[1]' >/dev/full 2>"$tmp/stderr"
  rc=$?
  if [ "$rc" -eq 3 ] && grep -q '^<stdout>: error: cannot write the output' "$tmp/stderr"; then ok "full stdout: exit 3"
  else bad "full stdout: exit 3" "exit $rc" "$(cat "$tmp/stderr")"; fi
fi

# ---- eval ----------------------------------------------------------------------
# fig1a at x = 1.5: (2x, 2x^2, cos 2x^2); fig1b: sin ((x1 x4 + 2 x2) x3 + x4).
expect_json "eval fig1a" '[#, [#, #]]' "3 4.5 -0.2107957994307797" 1e-15 \
  "$CHAD" eval examples/fig1a.chad --args @examples/fig1a.json
expect_json "eval fig1b (args by name)" '#' "0.35078322768961984" 1e-15 \
  "$CHAD" eval examples/fig1b.chad --args @examples/fig1b.json
expect_out "eval fig2a (higher order)" "[10, 10, 10, 10]" \
  "$CHAD" eval examples/fig2a.chad --args @examples/fig2a.json
expect_out "eval fig2b" "-1" "$CHAD" eval examples/fig2b.chad --args @examples/fig2b.json
expect_out "eval: 17 significant digits" "0.30000000000000004" \
  "$CHAD" eval examples/fig2b.chad --args '{"x1": 1, "x2": [0.1, 0.2]}'
prog 'def f (a : [real], i : int) : real = a[i]' 'def g (x : real) : real = x'
expect_out "eval --fn, --args=" "16" "$CHAD" eval "$P" --fn f --args='[[16], 0]'
prog 'def sq (x : real) : real = x * x' 'def k = 3' \
  'def s (b : bool, p : real * int) : (real + int) * bool = case b of inl u -> (inl (fst p), b) | inr u -> (inr (snd p), b)'
expect_out "eval: no parameters" "3" "$CHAD" eval "$P" --fn k
expect_out "eval: sums, bools, pairs in" '[{"inl": 2.5}, true]' "$CHAD" eval "$P" --args '[true, [2.5, 7]]'
expect_out "eval: sums, bools, pairs out" '[{"inr": 7}, false]' "$CHAD" eval "$P" --args '[{"inr": null}, [2.5, 7]]'
expect_json "eval GMM (ADBench test.txt) to 1e-12" '#' "8.07380408004975791" 1e-12 \
  "$CHAD" eval examples/gmm.chad --args @examples/gmm_test.json

# ---- the shipped ADBench data (data/adbench) --------------------------------------------
for f in LICENSE.TXT gmm/test.txt gmm/1k/gmm_d2_K5.txt ba/test.txt ba/ba1_n49_m7776_p31843.txt; do
  if [ -s "data/adbench/$f" ]; then ok "data/adbench/$f is in the repository"
  else bad "data/adbench/$f is in the repository" "missing or empty"; fi
done
if command -v python3 >/dev/null; then
  run python3 scripts/adbench_gmm_to_json.py data/adbench/gmm/test.txt
  if [ "$rc" -eq 0 ] && [ "$out" = "$(cat examples/gmm_test.json)" ]; then
    ok "examples/gmm_test.json = the conversion of data/adbench/gmm/test.txt"
  else bad "examples/gmm_test.json = the conversion of data/adbench/gmm/test.txt" "exit $rc" "$err"; fi
  # the README's conversion example, then its evaluation (the value of the
  # hand-written C objective, bench/baselines/adbench.c: -5240.59056255)
  python3 scripts/adbench_gmm_to_json.py data/adbench/gmm/1k/gmm_d2_K5.txt >"$tmp/gmm_d2_K5.json" 2>/dev/null
  expect_json "README: gmm_d2_K5 converted, then evaluated" '#' "-5240.590562549577" 1e-12 \
    "$CHAD" eval examples/gmm.chad --args @"$tmp/gmm_d2_K5.json"
else
  echo "skip ADBench conversions (no python3)"
fi

# ---- print ------------------------------------------------------------------------
run "$CHAD" print examples/fig1b.chad
if [ "$rc" -eq 0 ] && [[ $out == *"def fig1b"* ]] && [[ $out == *sin* ]]; then ok "print fig1b"
else bad "print fig1b" "exit $rc" "$out" "$err"; fi
# printing is faithful: the printed program evaluates to the same value
"$CHAD" print examples/gmm.chad --fn gmm >"$tmp/gmm_printed.chad" 2>"$tmp/stderr"
expect_json "print then eval GMM: same value" '#' "8.07380408004975791" 1e-12 \
  "$CHAD" eval "$tmp/gmm_printed.chad" --args @examples/gmm_test.json

for f in fig1a fig1b fig2a fig2b; do
  "$CHAD" print "examples/$f.chad" >"$tmp/printed.chad" 2>/dev/null
  want=$("$CHAD" eval "examples/$f.chad" --args "@examples/$f.json" 2>&1)
  expect_out "print then eval $f: same value" "$want" "$CHAD" eval "$tmp/printed.chad" --args "@examples/$f.json"
done
"$CHAD" print examples/tour.chad >"$tmp/printed.chad" 2>/dev/null
expect_out "print then check tour: same types" "$("$CHAD" check examples/tour.chad 2>&1)" "$CHAD" check "$tmp/printed.chad"

# ---- derivatives -------------------------------------------------------------------
# fig1b's gradient is the paper's Fig. 1 (d): w' = cos w, y' = x3 w',
# x1' = x4 y', x2' = 2 y', x3' = y w', x4' = x1 y' + w' (values from Python).
expect_json "grad fig1b = Fig. 1 (d)" '{"value": #, "gradient": [#, #, #, #]}' \
  "0.35078322768961984 -1.4046850309361945 -3.7458267491631854 1.9899704604929422 -1.8729133745815927" 1e-14 \
  "$CHAD" grad examples/fig1b.chad --args @examples/fig1b.json
expect_json "jvp fig1a = Fig. 1 (c)" '{"value": [#, [#, #]], "tangent": [#, [#, #]]}' \
  "3 4.5 -0.2107957994307797 2 6 5.865180705990582" 1e-14 \
  "$CHAD" jvp examples/fig1a.chad --args @examples/fig1a.json --tangent '[1]'
expect_json "jvp, tangent by name" '{"value": #, "tangent": #}' "0.35078322768961984 -3.277598405517787" 1e-14 \
  "$CHAD" jvp examples/fig1b.chad --args @examples/fig1b.json --tangent '{"x1": 1, "x2": 0.5, "x3": 0, "x4": null}'
expect_json "vjp fig2a (higher order; int parameter: null)" \
  '{"value": [#, #, #, #], "cotangent": [#, null]}' "10 10 10 10 24" 1e-15 \
  "$CHAD" vjp examples/fig2a.chad --args @examples/fig2a.json --cotangent '[1, 1, 1, 1]'
expect_json "grad fig2b = Fig. 2 (d)" '{"value": #, "gradient": [#, [#, #, #]]}' "-1 -0.5 2 2 2" 1e-15 \
  "$CHAD" grad examples/fig2b.chad --args @examples/fig2b.json
for mode in fwd rev; do
  expect_json "jacobian fig1a --mode $mode" '{"value": [#, [#, #]], "jacobian": [[#], [#], [#]]}' \
    "3 4.5 -0.2107957994307797 2 6 5.865180705990582" 1e-14 \
    "$CHAD" jacobian examples/fig1a.chad --args @examples/fig1a.json --mode $mode
done
# GMM: reverse-mode gradient = forward-mode Jacobian (one row), coordinate by
# coordinate (the int parameter m has no coordinate; 21 real inputs).
run "$CHAD" grad examples/gmm.chad --args @examples/gmm_test.json
g_nums=$(printf '%s' "$out" | grep -oE -- "$NUM" | tr '\n' ' ')
g_rc=$rc
run "$CHAD" jacobian examples/gmm.chad --args @examples/gmm_test.json --mode fwd
j_nums=$(printf '%s' "$out" | grep -oE -- "$NUM" | tr '\n' ' ')
if [ "$g_rc" -eq 0 ] && [ "$rc" -eq 0 ] && awk -v a="$g_nums" -v b="$j_nums" 'BEGIN {
    n = split(a, x, " "); m = split(b, y, " "); if (n != m || n != 22) exit 1;
    if (x[1] - 8.07380408004975791 > 1e-12 * 8.07 || 8.07380408004975791 - x[1] > 1e-12 * 8.07) exit 1;
    for (i = 2; i <= n; i++) { s = (x[i] < 0 ? -x[i] : x[i]); if (s < 1) s = 1;
      d = x[i] - y[i]; if (d < 0) d = -d; if (d > 1e-12 * s) exit 1 }
    exit 0 }'; then ok "GMM: grad (reverse) = jacobian (forward), 21 coordinates"
else bad "GMM: grad (reverse) = jacobian (forward)" "grad: $g_nums" "jac:  $j_nums"; fi
expect_err "grad of a non-real result" 2 "^examples/fig1a.chad:[0-9]+:1: error: grad needs a real-valued function" \
  "$CHAD" grad examples/fig1a.chad --args @examples/fig1a.json
expect_err "jvp: tangent of the wrong shape" 2 "^<tangent>:1:5: error: tangent 'x2': expected an array of length 3" \
  "$CHAD" jvp examples/fig2b.chad --args @examples/fig2b.json --tangent '[1, [1, 2]]'
expect_err "jvp: tangent for an int is null" 2 "^<tangent>:1:7: error: tangent 'n': expected null" \
  "$CHAD" jvp examples/fig2a.chad --args @examples/fig2a.json --tangent '[1.0, 1]'
expect_err "vjp: cotangent of the wrong length" 2 "^<cotangent>:1:1: error: the cotangent: expected an array of length 4" \
  "$CHAD" vjp examples/fig2a.chad --args @examples/fig2a.json --cotangent '[1, 1]'
# Sparse cotangents whose entry lists the evaluator joined by splice entries
# (two sums of 5 one-hots each; arrays of arrays: proptest seed 14045980580,
# program 8413, shrunk): the command line densifies them through entry_iter.
prog 'def f (x : [real]) : real =' '  sum (build 5 (fun i -> x[0])) + sum (build 5 (fun i -> x[0]))'
for ev in ref fast; do
  expect_json "vjp --eval $ev: spliced sparse cotangent" '{"value": #, "cotangent": [[#, #, #]]}' \
    "10 20 0 0" 1e-15 "$CHAD" vjp "$P" --args '[[1, 2, 3]]' --cotangent 2 --eval $ev
done
prog 'def prog (x1 : [real]) : [real] =' \
  '  build (length x1) (fun i ->' \
  '    logsumexp (build (length x1) (fun i1 ->' \
  '      sum (map (fun (a : [real]) ->' \
  '        let a1 = a in' \
  '        a1[0]) (map (fun (x : real) -> x1) (build 3 (fun i2 -> -1.0)))))))'
for ev in ref fast; do
  expect_json "vjp --eval $ev: spliced sparse cotangent of an array of arrays" \
    '{"value": [#, #, #], "cotangent": [[#, #, #]]}' \
    "4.0986122886681098 4.0986122886681098 4.0986122886681098 0.375 0 0" 1e-14 \
    "$CHAD" vjp "$P" --args '[[1, 2, 3]]' --cotangent '[0.5, -0.25, -0.125]' --eval $ev
done
expect_err "jvp without --tangent" 1 'jvp needs --tangent' "$CHAD" jvp examples/fig1a.chad --args '[1]'
expect_err "jacobian: bad --mode" 1 'mode must be fwd or rev' "$CHAD" jacobian examples/fig1a.chad --args '[1]' --mode sideways
prog 'def f (a : [real], i : int) : real = a[i] * a[i]'
expect_err "grad: runtime error at the indexing" 3 "^$P:1:39: error: runtime error in 'f'" "$CHAD" grad "$P" --args '[[1, 2], 2]'
for cmd in fwd rev; do
  run "$CHAD" $cmd examples/fig2b.chad
  if [ "$rc" -eq 0 ] && [[ $out == "def fig2b_$cmd (x1 : real, x2 : [real])"* ]] && [ -z "$err" ]; then ok "$cmd fig2b prints"
  else bad "$cmd fig2b prints" "exit $rc" "${out:0:200}" "$err"; fi
  run "$CHAD" $cmd examples/fig2b.chad --raw
  if [ "$rc" -eq 0 ] && [[ $out == "def fig2b_$cmd"* ]]; then ok "$cmd --raw fig2b prints"
  else bad "$cmd --raw fig2b prints" "exit $rc" "${out:0:200}" "$err"; fi
done

# ---- --eval fast|ref and OMP_NUM_THREADS ---------------------------------------
# agree NAME TOL ENV_A OPTS_A ENV_B OPTS_B CMD...: `env ENV_X CMD OPTS_X` exits 0
# with no stderr both times; the outputs have the same shape (numbers replaced
# by #) and their numbers agree to relative tolerance TOL (absolute below 1).
agree() {
  local name=$1 tol=$2 ea=$3 oa=$4 eb=$5 ob=$6
  shift 6
  run env $ea "$@" $oa
  local out_a=$out rc_a=$rc err_a=$err
  run env $eb "$@" $ob
  local sa sb
  sa=$(printf '%s' "$out_a" | sed -E "s/$NUM/#/g"); sb=$(printf '%s' "$out" | sed -E "s/$NUM/#/g")
  printf '%s' "$out_a" | grep -oE -- "$NUM" >"$tmp/nums_a"
  printf '%s' "$out" | grep -oE -- "$NUM" >"$tmp/nums_b"
  if [ "$rc_a" -ne 0 ] || [ "$rc" -ne 0 ] || [ -n "$err_a$err" ] || ! [ -s "$tmp/nums_a" ] || [ "$sa" != "$sb" ]; then
    bad "$name" "exit $rc_a / $rc" "A: ${out_a:0:200}" "B: ${out:0:200}" "stderr: $err_a $err"
    return
  fi
  # the numbers side by side, one pair a line (outputs can be long)
  if paste "$tmp/nums_a" "$tmp/nums_b" | awk -v tol="$tol" '
      NF != 2 { bad = 1 }
      { s = ($1 < 0 ? -$1 : $1); if (s < 1) s = 1; d = $1 - $2; if (d < 0) d = -d; if (d > tol * s) bad = 1 }
      END { exit bad }'; then ok "$name"
  else bad "$name" "A: $(head -c 200 "$tmp/nums_a" | tr '\n' ' ')" "B: $(head -c 200 "$tmp/nums_b" | tr '\n' ' ')"; fi
}
expect_err "bad --eval value" 1 "^<command line>: error: --eval must be fast, ref or ball, not 'slow'" \
  "$CHAD" eval examples/fig1a.chad --args '[1]' --eval slow
expect_err "--eval without a value" 1 'option --eval needs a value' "$CHAD" grad examples/fig1a.chad --args '[1]' --eval
expect_err "--eval on a command that does not evaluate" 1 'check does not take the option --eval' \
  "$CHAD" check examples/fig1a.chad --eval ref
expect_json "eval --eval=ref fig1a" '[#, [#, #]]' "3 4.5 -0.2107957994307797" 1e-15 \
  "$CHAD" eval examples/fig1a.chad --args @examples/fig1a.json --eval=ref
# every evaluating command on every example: fast (the default) = ref
for f in fig1a fig1b fig2a fig2b gmm; do
  a=@examples/$f.json; [ $f = gmm ] && a=@examples/gmm_test.json
  agree "eval $f: --eval fast = --eval ref" 1e-13 "" "--eval fast" "" "--eval ref" "$CHAD" eval examples/$f.chad --args $a
done
for f in fig1b fig2b gmm; do
  a=@examples/$f.json; [ $f = gmm ] && a=@examples/gmm_test.json
  agree "grad $f: default (fast) = --eval ref" 1e-12 "" "" "" "--eval ref" "$CHAD" grad examples/$f.chad --args $a
done
agree "jvp fig1a: fast = ref" 1e-14 "" "--eval fast" "" "--eval ref" \
  "$CHAD" jvp examples/fig1a.chad --args @examples/fig1a.json --tangent '[1]'
agree "vjp fig2a: fast = ref" 1e-14 "" "--eval fast" "" "--eval ref" \
  "$CHAD" vjp examples/fig2a.chad --args @examples/fig2a.json --cotangent '[1, 1, 1, 1]'
for mode in fwd rev; do
  agree "jacobian gmm --mode $mode: fast = ref" 1e-12 "" "--eval fast" "" "--eval ref" \
    "$CHAD" jacobian examples/gmm.chad --args @examples/gmm_test.json --mode $mode
done
prog 'def f (a : [real], i : int) : real = a[i] * a[i]'
expect_err "grad --eval fast: runtime error reported as with ref" 3 "^$P:1:39: error: runtime error in 'f'" \
  "$CHAD" grad "$P" --args '[[1, 2], 2]' --eval fast
# Large enough arrays that the fast evaluator compiles the loops and runs them
# on several threads (n = 60000 > its parallel threshold).
awk 'BEGIN { printf "[["; for (i = 0; i < 60000; i++) printf "%s%.6f", (i ? ", " : ""), sin(i * 0.37) * 2; print "]]" }' >"$tmp/big.json"
for w in sumsin buildidx; do
  agree "grad $w n=60000: fast = ref" 1e-9 "" "--eval fast" "" "--eval ref" \
    "$CHAD" grad bench/programs/$w.chad --args @"$tmp/big.json"
  agree "grad $w n=60000 --eval fast: OMP_NUM_THREADS=1 = 2" 1e-9 OMP_NUM_THREADS=1 "" OMP_NUM_THREADS=2 "" \
    "$CHAD" grad bench/programs/$w.chad --args @"$tmp/big.json" --eval fast
done
agree "eval sumsin n=60000: OMP_NUM_THREADS=1 = 2" 1e-12 OMP_NUM_THREADS=1 "" OMP_NUM_THREADS=2 "" \
  "$CHAD" eval bench/programs/sumsin.chad --args @"$tmp/big.json"
# A delayed map with a memo (pairs as elements, a transcendental call) over a
# delayed build whose compile it continues (the build's body cannot fail and
# has transcendental calls of its own): every element is log (sum x) = log 2,
# not sin 2 or exp (sin 2) (the map's memo held the build's calls).
prog 'def f (x : [real]) : [real] =' \
  '  map (fun (p : real * real) -> fst p)' \
  '    (map (fun (a : [real]) -> (log (sum a), 1.0))' \
  '      (build 16 (fun i -> let y = exp (sin (sum x)) in x)))'
expect_json "eval --eval fast: memo of a map over a continued build (value by hand)" \
  "[$(printf '#, %.0s' $(seq 15))#]" "$(printf '0.69314718055994531 %.0s' $(seq 16))" 1e-15 \
  "$CHAD" eval "$P" --args '[[0.5, 0.25, 1.25]]' --eval fast
agree "eval: memo of a map over a continued build: fast = ref" 1e-15 "" "--eval fast" "" "--eval ref" \
  "$CHAD" eval "$P" --args '[[0.5, 0.25, 1.25]]'
# ---- inlining: full applications of defs inlined -------------------------------
# The evaluating commands inline by default; the same numbers as the program
# as written (--no-inline) for every def of every example.
CAM='[0.1, 0.2, 0.3, 1.0, 2.0, 3.0, 500.0, 1.0, 2.0, 0.01, 0.001]'
while IFS='|' read -r f fn cmds a; do
  for c in $cmds; do
    agree "$c $f --fn $fn: default (inlined) = --no-inline" 1e-12 "" "--no-inline" "" "" \
      "$CHAD" $c examples/$f.chad --fn $fn --args "$a"
  done
done <<ARGS
fig1a|fig1a|eval jacobian|@examples/fig1a.json
fig1b|fig1b|eval grad|@examples/fig1b.json
fig2a|fig2a|eval jacobian|@examples/fig2a.json
fig2b|fig2b|eval grad|@examples/fig2b.json
gmm|q_index|eval|[3, 1, 2]
gmm|qx_row|eval grad|[2, [0.1, 0.2, 0.3], [1.0, 2.0], 1]
gmm|gmm|eval grad|@examples/gmm_test.json
ba|ba_proj|eval jacobian|[$CAM, 0, [5.0, 6.0, 20.0], 0, 0.9, [10.0, 20.0], 0]
ba|ba_obs|eval jacobian|[$CAM, [5.0, 6.0, 20.0], 0.9, [10.0, 20.0]]
ba|ba|eval|[$CAM, [5.0, 6.0, 20.0], [0.9], [10.0, 20.0]]
tour|square|eval grad|[1.5]
tour|poly|eval grad|[1.5]
tour|norm2|eval grad|[[1.0, 2.0, 3.0]]
tour|clip|eval grad|[0.7]
tour|safe_log|eval|[2.0]
tour|power|eval grad|[1.3, 3]
tour|swap|eval|[[1.5, 2]]
tour|lit|eval|[]
tour|pick|eval grad|[{"inl": 2.5}]
tour|arrays|eval grad|[[1.0, 2.0, 3.0]]
lstm|lstm_model|eval jacobian|[[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8], [0.8, -0.7, 0.6, -0.5, 0.4, -0.3, 0.2, -0.1], [0.5, -0.5], [1.0, 2.0], [0.25, 0.75]]
lstm|lstm_predict|eval jacobian|[[[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8], [0.8, -0.7, 0.6, -0.5, 0.4, -0.3, 0.2, -0.1]], [[1.5, 0.5], [2.0, -1.0], [0.1, 0.2]], [[0.5, -0.5], [1.0, 2.0]], [0.25, 0.75]]
lstm|lstm|eval grad|@examples/lstm_test.json
tour|main|eval grad jacobian|[1.5, [1.0, 2.0, 3.0]]
ARGS
for mode in fwd rev; do
  for f in fig1b gmm; do
    a=@examples/$f.json; [ $f = gmm ] && a=@examples/gmm_test.json
    agree "jacobian $f --mode $mode: default (inlined) = --no-inline" 1e-12 "" "--no-inline" "" "" \
      "$CHAD" jacobian examples/$f.chad --args $a --mode $mode
  done
  agree "jacobian tour main --mode $mode --eval ref: default (inlined) = --no-inline" 1e-12 "" "--no-inline" "" "" \
    "$CHAD" jacobian examples/tour.chad --args '[1.5, [1.0, 2.0, 3.0]]' --mode $mode --eval ref
done
for f in examples/*.chad; do
  run "$CHAD" check --no-inline "$f"; want=$out; wrc=$rc
  for o in --inline ""; do
    run "$CHAD" check $o "$f"
    if [ "$wrc" -eq 0 ] && [ "$rc" -eq 0 ] && [ "$out" = "$want" ] && [ -n "$out" ]; then ok "check ${o:-(default)} $f: the types of --no-inline"
    else bad "check ${o:-(default)} $f: the types of --no-inline" "exit $wrc / $rc" "--no-inline: $want" "${o:-default}: $out"; fi
  done
done
# ADBench's GMM and LSTM: the default gradient (inlined) is byte for byte the
# one of the program as written
for e in gmm lstm; do
  for ev in fast ref; do
    run "$CHAD" grad examples/$e.chad --args @examples/${e}_test.json --eval $ev; a=$out; arc=$rc
    run "$CHAD" grad examples/$e.chad --args @examples/${e}_test.json --eval $ev --no-inline
    if [ "$arc" -eq 0 ] && [ "$rc" -eq 0 ] && [ -n "$out" ] && [ "$a" = "$out" ]
    then ok "grad $e --eval $ev: default = --no-inline, byte for byte"
    else bad "grad $e --eval $ev: default = --no-inline, byte for byte" "exit $arc / $rc" "default: ${a:0:200}" "--no-inline: ${out:0:200}"; fi
  done
done
# the printing commands show the program as written by default: the output
# of --no-inline, and for gmm not that of --inline (which has no copower)
for f in examples/*.chad; do
  for c in print fwd rev "rev --raw" "export --to torch"; do
    run "$CHAD" $c "$f" --no-inline; want=$out; wrc=$rc
    run "$CHAD" $c "$f"
    if [ "$rc" -eq "$wrc" ] && [ "$out" = "$want" ] && [ -n "$out$err" ]; then ok "$c $f: default = --no-inline"
    else bad "$c $f: default = --no-inline" "exit $wrc / $rc" "${out:0:200}"; fi
  done
done
# a line is as long as its text from the line's start, not from where its
# last part began: the let whose one-line form is 108 characters (its
# body alone 93) is broken after `=`
printf 'def f (aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa : real, baaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa : real) : real = sin (aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa * baaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa + aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa)\n' >"$tmp/long.chad"
expect_out "rev: a let over the line width broken after =" "$(cat <<'OUT'
def f_rev (aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa : real, baaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa : real) : real * (real -o (unit * real) * real) =
  let x = aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa * baaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa in
  let x1 = x + aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa in
  (sin x1, lfun (x2 : real) ->
    let p = DT[add]((x, aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa); DT[sin](x1; x2)) in
    let p1 =
      DT[mul]((aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, baaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa); fst p)
    in
    ((zero{unit}, fst p1 <+> snd p), snd p1))
OUT
)" "$CHAD" rev "$tmp/long.chad"
run "$CHAD" rev examples/gmm.chad --inline; inl=$out
run "$CHAD" rev examples/gmm.chad
if [ "$rc" -eq 0 ] && [ -n "$inl" ] && [ "$out" != "$inl" ]; then ok "rev gmm: default differs from --inline"
else bad "rev gmm: default differs from --inline" "exit $rc"; fi
expect_err "--inline and --no-inline together" 1 '^<command line>: error: give --inline or --no-inline, not both' \
  "$CHAD" grad examples/fig1b.chad --args @examples/fig1b.json --inline --no-inline
expect_err "--no-inline takes no value" 1 '^<command line>: error: --no-inline takes no value' \
  "$CHAD" eval examples/fig1a.chad --args @examples/fig1a.json --no-inline=1
expect_json "eval --inline gmm: ADBench's objective" '#' "8.07380408004975791" 1e-13 \
  "$CHAD" eval examples/gmm.chad --args @examples/gmm_test.json --inline
# the point of --inline: no function-typed let left in gmm, so no copowers
# (printed `fold ... with`, `single` and `!t (x) u`) in its reverse derivative
run "$CHAD" rev examples/gmm.chad
if [ "$rc" -eq 0 ] && printf '%s' "$out" | grep -qE '\bfold\b' && printf '%s' "$out" | grep -qE '\bsingle\b'
then ok "rev gmm: copowers (fold, single) without --inline"; else bad "rev gmm: copowers without --inline" "exit $rc"; fi
for raw in "" --raw; do
  run "$CHAD" rev examples/gmm.chad --inline $raw
  if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q '^def gmm_rev ' && ! printf '%s' "$out" | grep -qE '\bfold\b|\bsingle\b|!'
  then ok "rev --inline $raw gmm: no copower"; else bad "rev --inline $raw gmm: no copower" "exit $rc" "${out:0:300}"; fi
done
# arguments are evaluated where the call was: the same errors
prog 'def f (a : [real], i : int) : real = a[i]' 'def h (a : [real]) : real = f a 5'
expect_err "eval --inline: runtime error in an inlined body, at the body's indexing" 3 "^$P:1:39: error: runtime error in 'h': index 5 out of bounds" \
  "$CHAD" eval "$P" --args '[[1, 2]]' --inline
prog 'def f (x : real) : real = x' 'def h (n : int) : real = f n'
expect_err "check --inline: an argument of the wrong type" 2 "^$P:2:28: error: type mismatch: expected real, found int" \
  "$CHAD" check "$P" --inline
# partial applications and defs used as values stay let-bound
prog 'def f (x : real, y : real) : real = x * y' 'def h (x : real) : real = let g = f x in g 2.0 + f x 3.0'
expect_json "eval --inline: partial application" '#' "7.5" 1e-15 "$CHAD" eval "$P" --args '[1.5]' --inline
run "$CHAD" print "$P" --inline --fn h
if [ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | grep -c 'fun')" -eq 1 ]
then ok "print --inline: the partial application keeps f bound, the full one is inlined"
else bad "print --inline: partial application" "exit $rc" "$out"; fi
# indices through nested calls, captured variables, higher-order and over-application
cat >"$P" <<'CHAD'
def sub (x : real, y : real) : real = x - y
def twice (f0 : real -> real, x : real) : real = f0 (f0 x)
def mk (a : real) : real -> real = fun (z : real) -> z * a
def h (a : real, v : [real]) : real =
  sum (build (length v) (fun i -> sub (sub v[i] a) (toreal i)))
    + twice (fun (t : real) -> sub t a) a + mk a 3.0 + sub (let q = a in q * 2.0) a
    + sum (map (fun (e : real) -> let w = e * a in sub w (sub e w)) v) + twice (mk a) v[1]
CHAD
expect_json "grad --inline: nested and higher-order calls (value by hand)" '{"value": #, "gradient": [#, [#, #, #]]}' \
  "19.5 18 3 5.25 3" 1e-15 "$CHAD" grad "$P" --args '[1.5, [1.0, 2.0, 3.0]]' --inline --eval ref
agree "grad: nested and higher-order calls: default (inlined) = --no-inline" 1e-12 "" "" "" "--no-inline" \
  "$CHAD" grad "$P" --args '[1.5, [1.0, 2.0, 3.0]]'
# the size guard: each def calls the previous one three times (3^15 copies)
{ echo 'def f0 (x : real) : real = sin x'
  for i in $(seq 1 15); do echo "def f$i (x : real) : real = f$((i - 1)) (f$((i - 1)) x) - f$((i - 1)) x"; done; } >"$P"
expect_err "check --inline: inlining too large" 2 \
  "^$P:[0-9]+:[0-9]+: error: --inline: inlining the calls in 'f[0-9]+' makes it too large \(more than 262144 raw term nodes" \
  "$CHAD" check "$P" --inline
run "$CHAD" check "$P"
if [ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | grep -c ': real -> real$')" -eq 16 ]; then ok "check: past the inlining limit, the program as written by default"
else bad "check: past the inlining limit, the program as written by default" "exit $rc" "$err"; fi
# f10 inlined is past the limit (3^10 copies of sin): by default eval and grad
# evaluate it as written, with the numbers of --no-inline; --inline refuses
expect_err "eval --inline f10: inlining too large" 2 \
  "^$P:[0-9]+:[0-9]+: error: --inline: inlining the calls in 'f10' makes it too large" \
  "$CHAD" eval "$P" --fn f10 --args '[0.5]' --inline
agree "eval f10: default (past the inlining limit) = --no-inline" 0 "" "" "" "--no-inline" \
  "$CHAD" eval "$P" --fn f10 --args '[0.5]'
expect_json "eval f10 (past the inlining limit): the certified value to 1e-12" '#' \
  "$("$CHAD" eval "$P" --fn f10 --args '[0.5]' --eval ball --no-inline)" 1e-12 "$CHAD" eval "$P" --fn f10 --args '[0.5]'
expect_err "grad --inline f10: inlining too large" 2 \
  "^$P:[0-9]+:[0-9]+: error: --inline: inlining the calls in 'f10' makes it too large" \
  "$CHAD" grad "$P" --fn f10 --args '[0.5]' --inline
# f9 inlined is within the limit, but its reverse derivative fills a kernel
# arena: --inline fails (exit 3), the default reruns the program as written
expect_err "grad --inline f9: the inlined derivative fills an arena" 3 \
  "^$P:10:1: error: reverse mode transformation failed: an arena is full" \
  "$CHAD" grad "$P" --fn f9 --args '[0.5]' --inline
for c in grad "vjp --cotangent 1" "jvp --tangent [1]" "jacobian --mode rev"; do
  agree "$c f9: default (inlined derivative too large) = --no-inline" 0 "" "" "" "--no-inline" \
    "$CHAD" $c "$P" --fn f9 --args '[0.5]'
done
expect_err "--inline takes no value" 1 '^<command line>: error: --inline takes no value' "$CHAD" check examples/fig1a.chad --inline=1

# ---- the usual first mistakes: help or acceptance ------------------------------------
run "$CHAD" --version
if [ "$rc" -eq 0 ] && [[ $out =~ ^chad\ [0-9]+\.[0-9]+\.[0-9]+\ \(CHAD-C\)$ ]] && [ -z "$err" ]; then ok "--version"
else bad "--version" "exit $rc" "stdout: $out" "stderr: $err"; fi
# a definition of several parameters is called curried, not with a tuple
prog 'def f (x : real, y : real) : real = x * y' 'def g (x : real) : real = f (x, x)'
expect_err "tuple given to a curried def: hint" 2 \
  "^$P:2:29: error: type mismatch: expected real, found real \* real; 'f' takes its arguments one at a time: write f a b, not f \(a, b\)$" \
  "$CHAD" check "$P"
prog 'def g (x : real) : real = pow (x, 2.0)'
expect_err "tuple given to a binary primitive: hint" 2 \
  "^$P:1:31: error: .*'pow' takes its arguments one at a time: write pow a b" "$CHAD" check "$P"
prog 'def g (v : [real]) : real = let h = fun (a : real) (b : real) -> a - b in h (v[0], v[1])'
expect_err "tuple given to a curried local function: hint" 2 \
  "^$P:1:77: error: .*'h' takes its arguments one at a time" "$CHAD" check "$P"
# ... and the reverse: arguments one by one to a def of one tuple parameter
prog 'def f (p : real * real) : real = fst p * snd p' 'def g (x : real) : real = f x x'
expect_err "arguments one by one to a def of one tuple parameter: hint" 2 \
  "^$P:2:29: error: type mismatch: expected real \* real, found real; 'f' takes one argument, a tuple: write f \(a, b\), not f a b$" \
  "$CHAD" check "$P"
prog 'def f (x : real, y : real) : real = x * y' 'def g (x : real) : real = f x x'
expect_out "the curried call itself is fine" "f : real -> real -> real
g : real -> real" "$CHAD" check "$P"
# fst, snd, sum, length as functions
prog 'def f (xs : [real * real], m : [[real]]) : real =' \
  '  sum (map fst xs) + 10.0 * sum (map snd xs) + 100.0 * sum (map sum m) + 1000.0 * sum (map toreal (map length m))'
expect_out "map fst, map snd, map sum, map length" "3684" "$CHAD" eval "$P" --args '[[[1, 2], [3, 1]], [[1, 2], [3.5]]]'
expect_json "grad through map fst / snd / sum" '{"value": #, "gradient": [[[#, #], [#, #]], [[#, #], [#]]]}' \
  "3684 1 10 1 10 100 100 100" 1e-15 "$CHAD" grad "$P" --args '[[[1, 2], [3, 1]], [[1, 2], [3.5]]]'
prog 'def app (f : [real] -> real, v : [real]) : real = f v' 'def g (v : [real]) : real = app sum v + app (fun (a : [real]) -> toreal (length a)) v'
expect_out "sum where a function is expected" "9" "$CHAD" eval "$P" --args '[[1, 2, 3]]'
prog 'def g (p : real * real) : real = let h = fst in h p'
expect_err "fst as a function with nothing to infer its type from: hint" 2 \
  "^$P:1:42: error: 'fst' used as a function: the type of its argument cannot be inferred here; write fun \(p : real \* real\) -> fst p$" \
  "$CHAD" check "$P"
# reals may start with their point
prog 'def f (x : real) : real = x * .5 + .25e1'
expect_out ".5 and .25e1 are reals" "4" "$CHAD" eval "$P" --args '[3]'
prog 'def f (x : real) : real = x.5'
expect_err "x.5 stays an error" 2 "^$P:1:28: error: unexpected character '.'" "$CHAD" check "$P"
# ** is pow; ^ gets a hint
prog 'def f (x : real) : real = -x ** 2.0 + -2.0 ** 2.0 + 2.0 ** 3.0 ** 2.0 + x ** -1.0'
expect_json "** : -x ** 2 = -(x ** 2), right associative, x ** -1" '#' "499.33333333333333" 1e-15 \
  "$CHAD" eval "$P" --args '[3]'
prog 'def f (x : real) : real = 2.0 * x ** 3.0'
expect_json "grad of 2 x ** 3 = 6 x^2" '{"value": #, "gradient": [#]}' "54 54" 1e-14 "$CHAD" grad "$P" --args '[3]'
prog 'def f (x : real) : real = x ^ 2.0'
expect_err "^: hint to write **" 2 "^$P:1:29: error: unexpected character '\^': a power is written x \*\* y \(or pow x y\)$" \
  "$CHAD" check "$P"
# runtime errors point at the failing expression, also inside a called def
prog 'def g (a : [real], i : int) : real =' '  a[0] + a[i]' 'def f (v : [real]) : real =' '  let s = sum v in' '  s + g v 7'
for ev in ref fast; do
  expect_err "runtime error inside a called def, --eval $ev: at its indexing" 3 \
    "^$P:2:11: error: runtime error in 'f': index 7 out of bounds \(array length 2\)$" \
    "$CHAD" eval "$P" --args '[[1, 2]]' --eval $ev
done
prog 'def f (v : [real], n : int) : real =' '  let k = length v in' '  v[0] + toreal (k / n)'
expect_err "integer division by zero on line 3: at its /" 3 "^$P:3:20: error: runtime error in 'f': idiv: integer division by zero" \
  "$CHAD" eval "$P" --args '[[1, 2], 0]'
prog 'def f (v : [real]) : real = sum (build 3 (fun i -> v[i + 1]))'
expect_err "index error in a loop body (fast evaluator, compiled): at the indexing" 3 \
  "^$P:1:53: error: runtime error in 'f': index 3 out of bounds" "$CHAD" eval "$P" --args '[[1, 2, 3]]'

# ---- printed derivatives parse back: chad eval of the printed program = jvp / vjp ----------
# round_trip fwd|rev EXAMPLE ARGS LITERAL JSON [--raw]: prints EXAMPLE's derivative, adds
#   def rt (the example's parameters) = let p = NAME_fwd x1 ... xn in (fst p, snd p <| LITERAL)
# and checks that `chad eval` of rt gives the numbers of `chad jvp --tangent JSON` (fwd;
# LITERAL the same tangent, as the context's nested tuple) or `chad vjp --cotangent JSON` (rev).
round_trip() {
  local mode=$1 ex=$2 args=$3 lit=$4 json=$5 raw=${6:-}
  local f=$tmp/rt_${ex}_$mode.chad name="printed $mode ${raw:+$raw }$ex parses back: eval = $( [ "$mode" = fwd ] && echo jvp || echo vjp)"
  "$CHAD" "$mode" "examples/$ex.chad" $raw >"$f" 2>"$tmp/stderr"
  local header params names fname
  header=$(grep -v '^def type ' "$f" | grep -m1 '^def ')   # the def, after its type names
  fname=$(sed -n 's/^def \([A-Za-z0-9_]*\) .*/\1/p' <<<"$header")
  params=$(sed -n 's/^def [A-Za-z0-9_]* \((.*)\) : .*$/\1/p' <<<"$header")
  names=$(grep -oE "[A-Za-z_][A-Za-z0-9_']* :" <<<"$params" | sed 's/ :$//' | tr '\n' ' ')
  printf 'def rt %s =\n  let p = %s %s in (fst p, snd p <| %s)\n' "$params" "$fname" "$names" "$lit" >>"$f"
  run "$CHAD" eval "$f" --args "$args"
  local e_rc=$rc e_out=$out e_err=$err
  if [ "$mode" = fwd ]; then run "$CHAD" jvp "examples/$ex.chad" --args "$args" --tangent "$json"
  else run "$CHAD" vjp "examples/$ex.chad" --args "$args" --cotangent "$json"; fi
  local a b
  a=$(printf '%s' "$e_out" | grep -oE -- "$NUM" | tr '\n' ' ')
  b=$(printf '%s' "$out" | grep -oE -- "$NUM" | tr '\n' ' ')
  if [ "$e_rc" -eq 0 ] && [ "$rc" -eq 0 ] && [ -n "$a" ] && awk -v a="$a" -v b="$b" 'BEGIN {
      n = split(a, x, " "); m = split(b, y, " "); if (n != m) exit 1;
      for (i = 1; i <= n; i++) { s = (y[i] < 0 ? -y[i] : y[i]); if (s < 1) s = 1;
        d = x[i] - y[i]; if (d < 0) d = -d; if (d > 1e-12 * s) exit 1 }
      exit 0 }'; then ok "$name"
  else bad "$name" "eval (exit $e_rc): $e_out $e_err" "${mode/fwd/jvp}${mode/rev/} (exit $rc): $out $err" "program: $(tail -n2 "$f")"; fi
}
round_trip fwd fig1a '[1.5]' '((), 1.0)' '[1]'
round_trip rev fig1a '[1.5]' '(1.0, (0.5, -1.0))' '[1, [0.5, -1]]'
round_trip fwd fig1b @examples/fig1b.json '(((((), 1.0), 0.5), 0.0), -2.0)' '[1, 0.5, 0, -2]'
round_trip rev fig1b @examples/fig1b.json '1.0' '1'
round_trip fwd fig2a @examples/fig2a.json '(((), 1.0), ())' '[1, null]'
round_trip rev fig2a @examples/fig2a.json '[1.0, 2.0, 3.0, -4.0]' '[1, 2, 3, -4]'
round_trip rev fig2a @examples/fig2a.json '[1.0, 2.0, 3.0, -4.0]' '[1, 2, 3, -4]' --raw
round_trip fwd fig2b @examples/fig2b.json '(((), 0.5), [1.0, -1.0, 2.0])' '[0.5, [1, -1, 2]]'
round_trip rev fig2b @examples/fig2b.json '1.0' '1'
round_trip rev fig2b @examples/fig2b.json '1.0' '1' --raw
# GMM: some cotangent arrays are sparse (length-free): eval says so, and a dense zero added
# (<+>) gives them their length
"$CHAD" rev examples/gmm.chad >"$tmp/gmm_rev.chad" 2>/dev/null
cat >>"$tmp/gmm_rev.chad" <<'CHAD'
def rt (alphas : [real], means : [[real]], icf : [[real]], x : [[real]], gamma : real, m : int) =
  let p = gmm_rev alphas means icf x gamma m in
  (fst p, snd p <| 1.0)
def rt_dense (alphas : [real], means : [[real]], icf : [[real]], x : [[real]], gamma : real, m : int) =
  let z1 = fun (v : [real]) -> map (fun (a : real) -> 0.0) v in
  let z2 = fun (v : [[real]]) -> map (fun (r : [real]) -> map (fun (a : real) -> 0.0) r) v in
  let dense = (((((((), z1 alphas), z2 means), z2 icf), z2 x), 0.0), ()) in
  let p = gmm_rev alphas means icf x gamma m in
  (fst p, (snd p <| 1.0) <+> dense)
CHAD
expect_err "eval of a sparse cotangent array: no JSON form, said so" 3 \
  "^$tmp/gmm_rev.chad:[0-9]+:1: error: the result\[1\]\[0\]\[0\]\[0\]\[0\]\[1\]: a zero or sparse cotangent array has no length" \
  "$CHAD" eval "$tmp/gmm_rev.chad" --fn rt --args @examples/gmm_test.json
run "$CHAD" eval "$tmp/gmm_rev.chad" --fn rt_dense --args @examples/gmm_test.json
a=$(printf '%s' "$out" | grep -oE -- "$NUM" | tr '\n' ' ')
run "$CHAD" vjp examples/gmm.chad --args @examples/gmm_test.json --cotangent 1
b=$(printf '%s' "$out" | grep -oE -- "$NUM" | tr '\n' ' ')
if [ -n "$a" ] && [ "$a" = "$b" ]; then ok "printed rev gmm parses back: eval (dense) = vjp, 22 numbers"
else bad "printed rev gmm parses back: eval (dense) = vjp" "eval: $a" "vjp:  $b"; fi
round_trip rev tour '[0.5, [1.0, 2.0, 3.0]]' '1.0' '1'
round_trip fwd tour '[0.5, [1.0, 2.0, 3.0]]' '(((), 1.0), [0.5, 0.0, -1.0])' '[1, [0.5, 0, -1]]'
# a printed derivative is evaluated, not differentiated again (the CHAD transformations take
# source programs), and the commands say so
"$CHAD" fwd examples/fig1b.chad >"$tmp/d1.chad" 2>/dev/null
printf 'def h (x : real) = (fst (fig1b_fwd x x x x)) * 2.0\n' >>"$tmp/d1.chad"
expect_err "fwd of a printed derivative: said so" 2 \
  "^$tmp/d1.chad:1:1: error: 'fig1b_fwd' uses the target language \(lfun, <\|, <\+>, ...\): CHAD differentiates source programs only" \
  "$CHAD" fwd "$tmp/d1.chad" --fn fig1b_fwd
expect_err "grad of a def that calls a printed derivative: said so" 2 \
  "^$tmp/d1.chad:[0-9]+:1: error: 'h' uses the target language" "$CHAD" grad "$tmp/d1.chad" --args '[0.5]'
# 2 fig1b(0.5, 0.5, 0.5, 0.5) = 2 sin 1.125 (fig1b: sin ((x1 x4 + 2 x2) x3 + x4))
expect_json "eval of that def: 2 sin 1.125" '#' "1.8045351881981904" 1e-15 "$CHAD" eval "$tmp/d1.chad" --args '[0.5]'
# a def calling target syntax is not inlined (target.c elaborates it as written)
expect_json "eval --inline of that def: 2 sin 1.125" '#' "1.8045351881981904" 1e-15 \
  "$CHAD" eval "$tmp/d1.chad" --args '[0.5]' --inline
# target syntax is type checked like the rest
prog 'def f (x : real) = lfun (v : real) -> v <+> (x, x)'
expect_err "target syntax, ill-typed: the operands of <+>" 2 \
  "^$P:1:45: error: type mismatch: the operands of <\+>: expected real, found real \* real$" "$CHAD" check "$P"
prog 'def f (x : real) = lfun (v : real) -> zero{real + real}'
expect_err "target syntax: zero of a non-linear type" 2 "^$P:1:39: error: zero\{real \+ real\}: not a linear type" "$CHAD" check "$P"
prog 'def f (x : real) = (lfun (v : real) -> v) <| 1'
expect_err "target syntax: the argument of <|" 2 "^$P:1:46: error: type mismatch: the argument of <\|: expected real, found int$" \
  "$CHAD" check "$P"
prog 'def f (x : real) = DT[sin](x; (x, x))'
expect_err "target syntax: DT[op]'s cotangent" 2 "^$P:1:31: error: type mismatch: the cotangent of DT\[op\]: expected real, found real \* real$" \
  "$CHAD" check "$P"
prog 'def single (x : real) = x' 'def g (lsum : real) = single lsum'
expect_out "target words are ordinary names where defined" "g : real -> real" sh -c "'$CHAD' check '$P' | tail -n1"
# bad and adversarial inputs: limits, positions, undefined points
. tests/cli/robust.sh
# deep nesting: the larger stack, in both evaluators
. tests/cli/deep.sh
# derivatives within a constant factor of the program: nested closures, long chains
. tests/cli/cost.sh
# long programs: chains of lets and of defs, and the limits of size
. tests/cli/size.sh
# the surface conveniences and ADBench's LSTM
. tests/cli/lang.sh
# bounded loops: loop and while, their derivatives against closed forms
. tests/cli/loop.sh
# index arithmetic in compiled loops: checks dropped only where they pass
. tests/cli/ranges.sh
echo "cli-$label: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
