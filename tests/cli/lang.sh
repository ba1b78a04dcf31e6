# Sourced by tests/cli/run.sh: the surface conveniences (patterns, inl/inr as
# functions, the array words, fold; spec/surface.md §4) and examples/lstm.chad.
# Uses run.sh's helpers (expect_out, expect_err, expect_json, prog, $P).

# nums_agree NAME TOL A B: the numbers of outputs A and B agree to relative
# tolerance TOL (absolute below 1), and the outputs have the same shape
nums_agree() {
  local name=$1 tol=$2 a=$3 b=$4
  local sa sb
  sa=$(printf '%s' "$a" | sed -E "s/$NUM/#/g")
  sb=$(printf '%s' "$b" | sed -E "s/$NUM/#/g")
  if [ "$sa" != "$sb" ] || [ -z "$a" ]; then bad "$name" "shapes differ" "a: ${a:0:300}" "b: ${b:0:300}"; return; fi
  if awk -v a="$(printf '%s' "$a" | grep -oE -- "$NUM" | tr '\n' ' ')" \
         -v b="$(printf '%s' "$b" | grep -oE -- "$NUM" | tr '\n' ' ')" -v tol="$tol" 'BEGIN {
      n = split(a, x, " "); m = split(b, y, " "); if (n != m || n == 0) exit 1;
      for (i = 1; i <= n; i++) {
        s = (y[i] < 0 ? -y[i] : y[i]); if (s < 1) s = 1;
        d = x[i] - y[i]; if (d < 0) d = -d; if (d > tol * s) exit 1 }
      exit 0 }'; then ok "$name"
  else bad "$name" "a: ${a:0:300}" "b: ${b:0:300}"; fi
}

# ---- sugar = the hand-desugared program; the certified evaluator agrees ------------------
S=tests/cli/lang/sugar.chad
H=tests/cli/lang/hand.chad
while IFS='|' read -r fn args; do
  [ -z "$fn" ] && continue
  for cmd in eval grad; do
    want=$("$CHAD" $cmd "$H" --fn "$fn" --args "$args" 2>&1)
    expect_out "sugar: $cmd $fn = $cmd of the hand-desugared def" "$want" "$CHAD" $cmd "$S" --fn "$fn" --args "$args"
    run "$CHAD" $cmd "$S" --fn "$fn" --args "$args" --eval ball
    ball=$out
    [ "$rc" -eq 0 ] || bad "sugar: $cmd $fn --eval ball exits 0" "exit $rc" "$err"
    nums_agree "sugar: $cmd $fn: fast = ball to 1e-13" 1e-13 "$want" "$ball"
    run "$CHAD" $cmd "$S" --fn "$fn" --args "$args" --eval ref
    nums_agree "sugar: $cmd $fn: fast = ref to 1e-13" 1e-13 "$want" "$out"
  done
done <<'ARGS'
pat|[[0.5, [1.5, -0.7]], [[2.0, 3.0], 0.25]]
cas|[{"inl": [2.0, 3.0]}, 0.5]
cas|[{"inr": 1.5}, 0.5]
inj|[[1.0, 2.0, -3.0]]
arr|[[1.0, 2.0, 3.0], [4.0, 5.0], 0.5]
fol|[[1.0, 2.0, 0.25], 0.5]
wrd|[[1.0, 2.0, 3.0], [[0.5, -1.0], [2.0, 0.25, 3.0]]]
ARGS
# arr: c = [3, 2, 1, 4, 0.5], d = [2, 1, 4], sum d[i] e^i + 0.5 sum d (Python)
expect_json "sugar: concat, reverse, update, slice, zip, unzip, range: the value" '#' "37.77450622418164" 1e-15 \
  "$CHAD" eval "$S" --fn arr --args '[[1.0, 2.0, 3.0], [4.0, 5.0], 0.5]'
# c = [a2, a1, a0, b0, x], d = [a1, a0, b0]: f = a1 + a0 e + b0 e^2 + x (a1 + a0 + b0);
# b1 is overwritten by update, a2 sliced away
expect_json "sugar: grad through update and slice" '{"value": #, "gradient": [[#, #, #], [#, #], #]}' \
  "37.77450622418164 $(/usr/bin/python3 -c 'import math; print(math.e + 0.5, 1.5, 0, math.e ** 2 + 0.5, 0)') 7" 1e-14 \
  "$CHAD" grad "$S" --fn arr --args '[[1.0, 2.0, 3.0], [4.0, 5.0], 0.5]'
"$CHAD" print "$S" >"$tmp/sugar_printed.chad" 2>/dev/null
want=$("$CHAD" eval "$S" --fn pat --args '[[0.5, [1.5, -0.7]], [[2.0, 3.0], 0.25]]' 2>&1)
expect_out "sugar: printed (desugared), parsed back: same value (pat)" "$want" \
  "$CHAD" eval "$tmp/sugar_printed.chad" --fn pat --args '[[0.5, [1.5, -0.7]], [[2.0, 3.0], 0.25]]'
want=$("$CHAD" eval "$S" --fn arr --args '[[1.0, 2.0, 3.0], [4.0, 5.0], 0.5]' 2>&1)
expect_out "sugar: printed, parsed back: same value (arr)" "$want" \
  "$CHAD" eval "$tmp/sugar_printed.chad" --fn arr --args '[[1.0, 2.0, 3.0], [4.0, 5.0], 0.5]'
prog 'def f (a : [real], b : [int]) = zip a b' 'def g (a : [real]) = (reverse ([] : [real]), range 0, slice a 1 0)'
expect_out "zip: the shorter length" "[[1, 7], [2, 8]]" "$CHAD" eval "$P" --fn f --args '[[1.0, 2.0, 3.0], [7, 8]]'
expect_out "empty reverse, range 0, slice of length 0" "[[], [[], []]]" "$CHAD" eval "$P" --fn g --args '[[1.0]]'
prog 'def f (a : [real]) : [real] = update a 1 (a[0] * a[2])' 'def g (n : int) = fold n (fun i acc -> acc * 2 + i) 0'
expect_out "update: functional, the input unchanged" "[3, 12, 4]" "$CHAD" eval "$P" --fn f --args '[[3.0, 5.0, 4.0]]'
expect_out "fold: the index runs 0 .. n-1 (binary 0111 = 4)" "4" "$CHAD" eval "$P" --fn g --args '[3]'

# random arrays and indices against a model in Python (the seed is printed;
# CHAD_CLI_SEED fixes it, as mutation testing does: a run that kills must kill again)
run python3 tests/cli/lang_random.py "$CHAD" ${CHAD_CLI_SEED:+"$CHAD_CLI_SEED"}
if [ "$rc" -eq 0 ] && [[ $out == *", 0 failed" ]]; then ok "array words on 40 random cases = the Python model (${out%%$'\n'*})"
else bad "array words on random cases = the Python model" "exit $rc" "$out" "$err"; fi

# ---- errors: positioned, with their exit codes ------------------------------------------
prog 'def f (p : real * real) = let (a, 2) = p in a'
expect_err "pattern: not a name" 2 "^$P:1:35: error: expected a variable name in the pattern, found number 2$" "$CHAD" check "$P"
prog 'def f (p : real * (real * real)) = let (a, (b, a)) = p in a'
expect_err "pattern: a name twice" 2 "^$P:1:48: error: the pattern binds 'a' twice$" "$CHAD" check "$P"
prog 'def f (p : real * real) = let ((a, b), c) = p in a'
expect_err "pattern: deeper than the value" 2 "^$P:1:32: error: type mismatch: expected a pair, found real$" "$CHAD" check "$P"
# wrd's value by hand: 16.75 (concat a to each reversed row, summed) + 7 * 13
# (update a 0 2.0, fold) + 10 (zip a with each row, products summed)
expect_out "words as functions: the value by hand" "117.75" "$CHAD" eval "$S" --fn wrd \
  --args '[[1.0, 2.0, 3.0], [[0.5, -1.0], [2.0, 0.25, 3.0]]]'
prog 'def f (a : [real]) = concat a'
expect_err "array word as a function: its parameter's type not inferable" 2 \
  "^$P:1:22: error: 'concat' not applied to all its arguments: the types of the missing ones cannot be inferred here; apply it, or write a fun with annotated parameters, as in fun \(b : \[real\]\) -> concat a b$" \
  "$CHAD" check "$P"
prog 'def f (a : [real]) : [real] = concat a'
expect_err "array word: too few arguments where an array is expected" 2 \
  "^$P:1:31: error: 'concat' needs 2 arguments: concat a b: applied to fewer it is a function, but \[real\] is expected here$" \
  "$CHAD" check "$P"
prog 'def f (x : real) = slice x 0 1'
expect_err "array word: not an array" 2 "^$P:1:26: error: type mismatch: expected an array, found real$" "$CHAD" check "$P"
prog 'def f (a : [real]) : real = sum (slice a 2 5)' 'def g (a : [real], x : real) = update a 3 x' \
  'def h (a : [real]) = slice a 0 (-1)'
for ev in fast ref; do
  expect_err "slice past the end: the index error at slice ($ev)" 3 \
    "^$P:1:34: error: runtime error in 'f': index 3 out of bounds \(array length 3\)$" \
    "$CHAD" eval "$P" --fn f --args '[[1.0, 2.0, 3.0]]' --eval $ev
  expect_err "update out of range: the index error at update ($ev)" 3 \
    "^$P:2:32: error: runtime error in 'g': index 3 out of bounds \(array length 3\)$" \
    "$CHAD" eval "$P" --fn g --args '[[1.0, 2.0, 3.0], 1.0]' --eval $ev
  expect_err "slice of negative length ($ev)" 3 "^$P:3:22: error: runtime error in 'h': build: negative length -1$" \
    "$CHAD" eval "$P" --fn h --args '[[1.0]]' --eval $ev
done
prog 'def f (a : [real]) = fold 3 (fun (i : real) acc -> acc) 0.0'
expect_err "fold: the index is an int" 2 "^$P:1:39: error: the index of fold has type int$" "$CHAD" check "$P"
prog 'def f (a : [real]) = map inl a'
expect_err "inl as a function: the other side from context" 2 "^$P:1:26: error: cannot infer the other side of this inl" \
  "$CHAD" check "$P"

# ---- ADBench's LSTM (examples/lstm.chad) ---------------------------------------------------
if [ -s data/adbench/lstm/lstm_l2_c1024.txt ]; then ok "data/adbench/lstm/lstm_l2_c1024.txt is in the repository"
else bad "data/adbench/lstm/lstm_l2_c1024.txt is in the repository" "missing or empty"; fi
run python3 scripts/adbench_lstm_to_json.py data/adbench/lstm/lstm_l2_c1024.txt --chars 4
if [ "$rc" -eq 0 ] && [ "$out" = "$(cat examples/lstm_test.json)" ]; then
  ok "examples/lstm_test.json = the conversion of lstm_l2_c1024.txt's first 4 characters"
else bad "examples/lstm_test.json = the conversion of lstm_l2_c1024.txt's first 4 characters" "exit $rc" "$err"; fi
L=examples/lstm_test.json
run "$CHAD" grad examples/lstm.chad --args @$L
g_plain=$out
run "$CHAD" grad examples/lstm.chad --args @$L --no-inline
nums_agree "lstm (4 characters): grad = grad --no-inline to 1e-13" 1e-13 "$g_plain" "$out"
run "$CHAD" grad examples/lstm.chad --args @$L --eval ref
nums_agree "lstm (4 characters): grad fast = ref to 1e-13" 1e-13 "$g_plain" "$out"
run "$CHAD" grad examples/lstm.chad --args @$L --eval ball
nums_agree "lstm (4 characters): grad fast = certified to 1e-13" 1e-13 "$g_plain" "$out"
run "$CHAD" jacobian examples/lstm.chad --args @$L --mode rev
nums_agree "lstm (4 characters): jacobian --mode rev = grad" 1e-13 \
  "$(printf '%s' "$g_plain" | grep -oE -- "$NUM" | tr '\n' ' ')" "$(printf '%s' "$out" | grep -oE -- "$NUM" | tr '\n' ' ')"
# a Jacobian by rows of a build of 520 elements: each row's one-hot cotangent
# makes the fast evaluator's pullback run the one iteration it names
# (spec/fast-evaluator.md "Zero cotangents"); the same matrix by columns and
# by the reference evaluator
prog 'def f (s : real, x : [real]) : [real] =' '  build 520 (fun i -> sin (s * toreal i) * s + x[i % length x] * x[0])'
run "$CHAD" jacobian "$P" --args '[0.3, [1.5, -0.25, 2.0]]' --mode rev
j_rev=$out
run "$CHAD" jacobian "$P" --args '[0.3, [1.5, -0.25, 2.0]]' --mode fwd
nums_agree "build of 520: jacobian --mode rev = --mode fwd" 1e-13 "$j_rev" "$out"
run "$CHAD" jacobian "$P" --args '[0.3, [1.5, -0.25, 2.0]]' --mode rev --eval ref
nums_agree "build of 520: jacobian --mode rev, fast = ref" 1e-13 "$j_rev" "$out"
# an independent implementation (PyTorch, float64) graded by the certified evaluator
if /usr/bin/python3 -c 'import torch' 2>/dev/null; then
  /usr/bin/python3 tests/cli/lstm_torch.py $L >"$tmp/lstm_cand.json" 2>"$tmp/stderr"
  expect_match "lstm (4 characters): PyTorch float64's value and gradient correct to rtol 1e-12 (chad check)" 0 \
    'OK: 379 correct of 379 entries' '' \
    "$CHAD" check examples/lstm.chad --args @$L --candidate @"$tmp/lstm_cand.json" --rtol 1e-12
else
  echo "skip PyTorch LSTM comparison (no torch for /usr/bin/python3)"
fi
# ADBench's own expected values on the full instance (2 layers, 1024 characters
# of 14 bits; test/python/modules/common/lstm_tests.py): release binary only,
# with no option, so in the default heap (inlined by default: 0.45 GB; as
# written, --no-inline, the gradient needs 1.33 GB, over the default 1 GiB)
if [ "$CHAD" = ./chad ]; then
  python3 scripts/adbench_lstm_to_json.py data/adbench/lstm/lstm_l2_c1024.txt >"$tmp/lstm_full.json"
  expect_json "lstm l2_c1024: ADBench's objective 0.66666518" '#' "0.66666518" 1e-8 \
    "$CHAD" eval examples/lstm.chad --args @"$tmp/lstm_full.json"
  run "$CHAD" grad examples/lstm.chad --args @"$tmp/lstm_full.json"
  if [ "$rc" -eq 0 ] && printf '%s' "$out" | /usr/bin/python3 -c '
import json, sys
g = json.load(sys.stdin)
e = json.load(open("data/adbench/lstm/lstm_l2_c1024_expected.json"))
flat = [v for r in g["gradient"][0] for v in r] + [v for r in g["gradient"][1] for v in r]
assert len(flat) == len(e["gradient"]) == 266, len(flat)
err = max(abs(a - b) for a, b in zip(flat, e["gradient"]))
assert err <= 1e-14, err
'; then ok "lstm l2_c1024: grad (no option, default heap) = ADBench's expected gradient (266 entries, to 1e-14)"
  else bad "lstm l2_c1024: grad (no option, default heap) = ADBench's expected gradient" "exit $rc" "$err"; fi
fi
