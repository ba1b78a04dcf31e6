#!/usr/bin/env bash
# Command-line tests of `chad check --candidate` (spec/verdict.md): chad's own
# outputs graded all correct; the shipped example's one wrong entry; tanh' at
# a tail; kinks (abs at 0, a tie of max, four one-sided results) inside and
# outside the convex hull, with the convention named, and random kinks
# against exact arithmetic (hull_random.py); float32 grading (3 f32 ulps
# off, subnormal, overflow, f32_rounding.py); outside the domain, undecided;
# non-standard NaN/Infinity tokens; input and usage errors.
#   tests/certified/check.sh [CHAD_BINARY]      (default ./chad)
# Ends with "N passed, N failed"; exits non-zero if any test failed.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
# jfield JSON PYTHON_EXPR: evaluates the expression on the parsed JSON (d)
jfield() { python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$1" "$2"; }

P=$tmp/p.chad
cat >"$P" <<'CHAD'
def th (x : real) : real = tanh x
def ab (x : real) : real = abs x
def mx (x : real, y : real) : real = max x y
def mxa (x : real, y : real, z : real) : real = max x y + abs z
def sq (x : real) : real = sqrt (x * x)
def em (x : real) : real = exp x - 1.0
def ex (x : real) : real = exp x
def tp (x : real, n : int) : real * int = (x * 2.0, n)
def sd (x : real) : real + unit = if x > 0.0 then inl (log x) else inr ()
def vec (x : real, y : real) : real * real = (sin x * y, exp y)
def f (x : real) : real = exp x * sin x
CHAD

echo "check tests of $label"

# ---- chad's own outputs are candidates, all correct ------------------------------
A='[0.5, 1.5]'
for ev in ball fast; do
  "$CHAD" eval "$P" --fn vec --args "$A" --eval $ev >"$tmp/c.json"
  expect_match "own eval output (--eval $ev) is all correct" 0 'OK: 2 correct of 2 entries' '' \
    "$CHAD" check "$P" --fn vec --args "$A" --candidate @"$tmp/c.json"
  "$CHAD" jacobian "$P" --fn vec --args "$A" --eval $ev >"$tmp/c.json"
  expect_match "own jacobian output (--eval $ev) is all correct" 0 'OK: 6 correct of 6 entries' '' \
    "$CHAD" check "$P" --fn vec --args "$A" --candidate @"$tmp/c.json"
  "$CHAD" jvp "$P" --fn vec --args "$A" --tangent '[1.0, -2.0]' --eval $ev >"$tmp/c.json"
  expect_match "own jvp output with --tangent (--eval $ev) is all correct" 0 'OK: 4 correct of 4 entries' '' \
    "$CHAD" check "$P" --fn vec --args "$A" --tangent '[1.0, -2.0]' --candidate @"$tmp/c.json"
  "$CHAD" vjp "$P" --fn vec --args "$A" --cotangent '[0.25, 3.0]' --eval $ev >"$tmp/c.json"
  expect_match "own vjp output with --cotangent (--eval $ev) is all correct" 0 'OK: 4 correct of 4 entries' '' \
    "$CHAD" check "$P" --fn vec --args "$A" --cotangent '[0.25, 3.0]' --candidate @"$tmp/c.json"
  "$CHAD" grad "$P" --fn f --args '[0.75]' --eval $ev >"$tmp/c.json"
  expect_match "own grad output (--eval $ev) is all correct" 0 'OK: 2 correct of 2 entries' '' \
    "$CHAD" check "$P" --fn f --args '[0.75]' --candidate @"$tmp/c.json"
done
"$CHAD" grad "$P" --fn th --args '[20.0]' --eval ball --certificate >"$tmp/c.json"
expect_match "own grad output with its certificate is all correct" 0 'OK: 2 correct of 2 entries' '' \
  "$CHAD" check "$P" --fn th --args '[20.0]' --candidate @"$tmp/c.json"
"$CHAD" eval "$P" --fn tp --args '[0.5, 3]' >"$tmp/c.json"
expect_match "own eval of a real * int: the int compared exactly" 0 'value\[1\] +correct +3 +3' '' \
  "$CHAD" check "$P" --fn tp --args '[0.5, 3]' --candidate @"$tmp/c.json"
expect_match "a wrong int is wrong" 6 'value\[1\] +WRONG +4 +3' '' \
  "$CHAD" check "$P" --fn tp --args '[0.5, 3]' --candidate '[1.0, 4]'
expect_match "the table's first column is as wide as its longest entry (value[0]: 8)" 0 \
  'entry {5}verdict {5}candidate.*value\[0\] {2}correct {5}1 ' '' \
  "$CHAD" check "$P" --fn tp --args '[0.5, 3]' --candidate @"$tmp/c.json"
expect_match "a sum's other side is wrong" 6 'value +WRONG +inr +inl' '' \
  "$CHAD" check "$P" --fn sd --args '[2.0]' --candidate '{"inr": null}'
expect_match "a sum's side and its real graded" 0 'value.inl +correct +0.69314718055994529' '' \
  "$CHAD" check "$P" --fn sd --args '[2.0]' --candidate '{"inl": 0.6931471805599453}'
expect_match "jvp object: direction inside the candidate" 0 'jvp.tangent\[1\] +correct' '' \
  "$CHAD" check "$P" --fn vec --args "$A" \
  --candidate '{"jvp": {"direction": [0.0, 1.0], "tangent": [0.479425538604203, 4.4816890703380645]}}'
expect_match "vjp object: direction inside the candidate" 0 'vjp.cotangent\[0\] +correct' '' \
  "$CHAD" check "$P" --fn vec --args "$A" \
  --candidate '{"vjp": {"direction": [1.0, 0.0], "cotangent": [1.3163738428355591, 0.479425538604203]}}'

# ---- the shipped example: PyTorch's float64 gradient, wrong in one entry -----------
E=examples/check
run "$CHAD" check $E/layer.chad --args @$E/layer_args.json --candidate @$E/layer_candidate.json
if [ "$rc" -eq 6 ] && [[ $out =~ gradient\[0\]\[0\]\ +WRONG\ +0\ +2.1329136780716629e-26\ +4.2e\+18 ]] &&
   [[ $out =~ WRONG:\ 1\ wrong,\ 5\ correct\ of\ 6\ entries\;\ first\ wrong:\ gradient\[0\]\[0\]\ \(4.2e\+18\ ulps,\ 0.0\ correct\ digits\) ]]; then
  ok "shipped example: exit 6, gradient[0][0] named with its ulps, 5 others correct"
else bad "shipped example" "exit $rc" "$out" "$err"; fi
run "$CHAD" check $E/layer.chad --args @$E/layer_args.json --candidate @$E/layer_candidate.json --json
if [ "$rc" -eq 6 ] && [ "$(jfield "$out" '[e["path"] for e in d["entries"] if e["verdict"]=="wrong"]')" = "['gradient[0][0]']" ] &&
   [ "$(jfield "$out" 'd["counts"]["correct"], d["verdict"], d["exit"]')" = "(5, 'wrong', 6)" ]; then
  ok "shipped example --json: exactly gradient[0][0] wrong, 5 correct"
else bad "shipped example --json" "exit $rc" "$out"; fi

# ---- tails ---------------------------------------------------------------------------
expect_match "tanh' at 20 = 0 (1 - tanh^2 in float64) is wrong" 6 \
  'gradient\[0\] +WRONG +0 +1.6993417021166355e-17 .*enclosure \[1.69934170211663558' '' \
  "$CHAD" check "$P" --fn th --args '[20.0]' --candidate '{"gradient": [0.0]}'
expect_match "tanh' at 20 = sech^2 20 is correct" 0 'OK: 1 correct' '' \
  "$CHAD" check "$P" --fn th --args '[20.0]' --candidate '{"gradient": [1.6993417021166355e-17]}'
# n ulps above x (float64)
up() { python3 -c 'import math,sys; x=float(sys.argv[1]); [x := math.nextafter(x, math.inf) for _ in range(int(sys.argv[2]))]; print(repr(x))' "$1" "$2"; }
T3=$(up 1.6993417021166355e-17 3)
T1=$(up 1.6993417021166355e-17 1)
expect_match "3 ulps off: wrong at the default 2 ulps" 6 'gradient\[0\] +WRONG .* 3 ' '' \
  "$CHAD" check "$P" --fn th --args '[20.0]' --candidate "{\"gradient\": [$T3]}"
expect_match "3 ulps off: correct with --ulps 3" 0 'tolerance 3 f64 ulps.*correct .* 3 ' '' \
  "$CHAD" check "$P" --fn th --args '[20.0]' --candidate "{\"gradient\": [$T3]}" --ulps 3
expect_match "--rtol 1e-15 accepts 3 ulps" 0 'tolerance rtol 1e-15.*OK' '' \
  "$CHAD" check "$P" --fn th --args '[20.0]' --candidate "{\"gradient\": [$T3]}" --rtol 1e-15
expect_match "--ulps 0: 1 ulp off is wrong" 6 'WRONG .* 1 ' '' \
  "$CHAD" check "$P" --fn th --args '[20.0]' --candidate "{\"gradient\": [$T1]}" --ulps 0
expect_match "exp x - 1 at 1e-30: the float64 answer 0 is wrong, 0 correct digits" 6 \
  'value +WRONG +0 +1.0000000000000001e-30 .* 0.0' '' \
  "$CHAD" check "$P" --fn em --args '[1e-30]' --candidate '0.0'

# ---- kinks: the convex hull of the one-sided results ------------------------------------
expect_match "abs' at 0 = 0: acceptable, the minimal-norm element" 0 \
  'acceptable: .*minimal-norm element \(PyTorch.s abs at 0\).*gradient\[0\] +acceptable +0 +\{-1, 1\}' '' \
  "$CHAD" check "$P" --fn ab --args '[0.0]' --candidate '{"gradient": [0.0]}'
expect_match "abs' at 0 = 1: acceptable, one-sided (the right side)" 0 \
  'acceptable: .*one-sided \(abs: right side \(x > 0\)\)' '' \
  "$CHAD" check "$P" --fn ab --args '[0.0]' --candidate '{"gradient": [1.0]}'
expect_match "abs' at 0 = -1: acceptable, one-sided (the left side)" 0 \
  'one-sided \(abs: left side \(x < 0\)\)' '' \
  "$CHAD" check "$P" --fn ab --args '[0.0]' --candidate '{"gradient": [-1.0]}'
# ties whose difference has a zero gradient (spec/certified.md §3): the
# differentiability is undecided (exit 5), so a candidate in the hull of the
# branches' results is undecided, never "acceptable" nor wrong; outside it,
# wrong either way (2x, and 3x near 0)
printf '%s\n' 'def ss (x : real) : real = if x - x <= 0.0 then 2.0 * x else 3.0 * x' \
  'def tq (x : real) : real = if x * x <= 0.0 then 2.0 * x else 3.0 * x' >"$tmp/ties.chad"
expect_match "x - x <= 0 at 1: the true derivative 2 is undecided, not wrong" 5 \
  'gradient\[0\] +undecided +2 .*UNDECIDED: 1 undecided of 1 entry' '' \
  "$CHAD" check "$tmp/ties.chad" --fn ss --args '[1.0]' --candidate '{"gradient": [2.0]}'
expect_match "x - x <= 0 at 1: the wrong 3 is undecided, not acceptable" 5 \
  'differentiability undecided here.*gradient\[0\] +undecided +3 ' '' \
  "$CHAD" check "$tmp/ties.chad" --fn ss --args '[1.0]' --candidate '{"gradient": [3.0]}'
expect_match "x - x <= 0 at 1: 4, outside the results' hull, is wrong" 6 \
  '"verdict": "wrong", "exit": 6.*"kinks": \[\{"part": "gradient", "verdict": "wrong", "differentiable": "undecided"' '' \
  "$CHAD" check "$tmp/ties.chad" --fn ss --args '[1.0]' --candidate '{"gradient": [4.0]}' --json
expect_match "x * x <= 0 at 0: the true derivative 3 is undecided, not wrong" 5 \
  'gradient\[0\] +undecided +3 ' '' \
  "$CHAD" check "$tmp/ties.chad" --fn tq --args '[0.0]' --candidate '{"gradient": [3.0]}'
expect_match "abs at 0, --json: a proved kink says differentiable false" 0 \
  '"kinks": \[\{"part": "gradient", "verdict": "acceptable", "differentiable": false' '' \
  "$CHAD" check "$P" --fn ab --args '[0.0]' --candidate '{"gradient": [0.0]}' --json
expect_match "abs' at 0 = 2: wrong, outside [-1, 1]" 6 \
  'gradient\[0\] +WRONG +2 +\{-1, 1\}.*outside the range \[-1, 1\]' '' \
  "$CHAD" check "$P" --fn ab --args '[0.0]' --candidate '{"gradient": [2.0]}'
expect_match "max at a tie, 0.5/0.5: acceptable, the average of the sides" 0 \
  'acceptable: .*the average of the sides \(PyTorch.s max/min at ties\)' '' \
  "$CHAD" check "$P" --fn mx --args '[1.0, 1.0]' --candidate '{"value": 1.0, "gradient": [0.5, 0.5]}'
expect_match "max at a tie, 1/0: acceptable, one-sided (first argument)" 0 \
  'one-sided \(max: first argument taken\)' '' \
  "$CHAD" check "$P" --fn mx --args '[1.0, 1.0]' --candidate '{"gradient": [1, 0]}'
expect_match "max at a tie, 0.6/0.5: each in range, jointly outside the hull: wrong" 6 \
  'not jointly|not in the convex hull' '' \
  "$CHAD" check "$P" --fn mx --args '[1.0, 1.0]' --candidate '{"gradient": [0.6, 0.5]}'
expect_match "max at a tie, 1/1: wrong" 6 'WRONG' '' \
  "$CHAD" check "$P" --fn mx --args '[1.0, 1.0]' --candidate '{"gradient": [1, 1]}'
B='[1.0, 1.0, 0.0]'   # max x y + abs z: four one-sided gradients (1|0, 0|1, -1|1)
expect_match "four sides: (0.5, 0.5, 0) acceptable, average and minimal-norm" 0 \
  'the average of the sides.*the minimal-norm element' '' \
  "$CHAD" check "$P" --fn mxa --args "$B" --candidate '{"gradient": [0.5, 0.5, 0]}'
expect_match "four sides: (0.3, 0.7, 0.1) acceptable, no named convention" 0 \
  'a point of the hull that no common convention picks' '' \
  "$CHAD" check "$P" --fn mxa --args "$B" --candidate '{"gradient": [0.3, 0.7, 0.1]}'
expect_match "four sides: (0, 1, -1) one-sided" 0 \
  'one-sided \(max: second argument taken; abs: left side \(x < 0\)\)' '' \
  "$CHAD" check "$P" --fn mxa --args "$B" --candidate '{"gradient": [0, 1, -1]}'
expect_match "four sides: (0.5, 0.6, 0) in every range, not in the hull (the LP)" 6 \
  'each entry within its one-sided range, but the vector is not in the convex hull' '' \
  "$CHAD" check "$P" --fn mxa --args "$B" --candidate '{"gradient": [0.5, 0.6, 0]}'
run python3 tests/certified/hull_random.py "$CHAD" 30
if [ "$rc" -eq 0 ]; then ok "$out (random kinks, exact boundaries, --ulps 0)"; else bad "hull_random" "$out"; fi
run "$CHAD" check "$P" --fn mx --args '[1.0, 1.0]' --candidate '{"gradient": [0.5, 0.5]}' --json
if [ "$rc" -eq 0 ] && [ "$(jfield "$out" 'd["kinks"][0]["conventions"], d["counts"]["acceptable"]')" = "(['average', 'minimal-norm'], 2)" ]; then
  ok "--json at a kink: conventions [average, minimal-norm], 2 acceptable"
else bad "--json at a kink" "exit $rc" "$out"; fi
"$CHAD" grad "$P" --fn ab --args '[0.0]' --eval ball >"$tmp/c.json" 2>/dev/null
expect_match "a not-differentiable verdict is no candidate (exit 2, position)" 2 '^$' \
  "$tmp/c.json:1:2: error: the candidate's not_differentiable: a not-differentiable verdict is not a candidate" \
  "$CHAD" check "$P" --fn ab --args '[0.0]' --candidate @"$tmp/c.json"

# ---- float32 ---------------------------------------------------------------------------
run "$CHAD" check "$P" --fn f --args '[0.75]' --candidate '{"gradient": [2.9920146138544292]}' --precision f32 --json
r32=$(jfield "$out" 'repr(d["entries"][0]["reference"])')
want=$(python3 -c 'import struct; print(repr(struct.unpack("f", struct.pack("f", 2.9920146138544292))[0]))')
if [ "$rc" -eq 0 ] && [ "$r32" = "$want" ]; then ok "f32: reference is the float32 rounding ($r32)"
else bad "f32 reference" "exit $rc, got $r32, want $want" "$out"; fi
off3=$(python3 -c 'import struct,sys; b=struct.unpack("<I", struct.pack("<f", float(sys.argv[1])))[0]; print(repr(struct.unpack("<f", struct.pack("<I", b + 3))[0]))' "$r32")
expect_match "f32: the exact float32 rounding is correct (0 ulps)" 0 'gradient\[0\] +correct .* 0 ' '' \
  "$CHAD" check "$P" --fn f --args '[0.75]' --candidate "{\"gradient\": [$r32]}" --precision f32
expect_match "f32: 3 f32 ulps off is wrong at the default tolerance" 6 \
  'f32, tolerance 2 f32 ulps.*gradient\[0\] +WRONG .* 3 ' '' \
  "$CHAD" check "$P" --fn f --args '[0.75]' --candidate "{\"gradient\": [$off3]}" --precision f32
expect_match "f32: the same candidate is 1.7e9 f64 ulps off" 6 'WRONG .*1.7e\+09' '' \
  "$CHAD" check "$P" --fn f --args '[0.75]' --candidate "{\"gradient\": [$off3]}"
run "$CHAD" check "$P" --fn ex --args '[-100.0]' --candidate '0' --precision f32 --json
sub=$(jfield "$out" 'repr(d["entries"][0]["reference"])')
want=$(python3 -c 'import math,struct; print(repr(struct.unpack("f", struct.pack("f", math.exp(-100)))[0]))')
if [ "$sub" = "$want" ]; then ok "f32: exp(-100) rounds to the float32 subnormal $sub"
else bad "f32 subnormal" "got $sub, want $want" "$out"; fi
expect_match "f32: exp(89) overflows float32: Infinity is correct with --ulps 0" 0 'OK' '' \
  "$CHAD" check "$P" --fn ex --args '[89.0]' --candidate 'Infinity' --precision f32 --ulps 0
expect_match "f32: exp(89): FLT_MAX is 1 ulp off" 6 'WRONG .* 1 ' '' \
  "$CHAD" check "$P" --fn ex --args '[89.0]' --candidate '3.4028234663852886e+38' --precision f32 --ulps 0

printf 'def idv (v : [real]) : [real] = v\n' >"$tmp/id.chad"
run python3 tests/certified/f32_rounding.py "$CHAD" "$tmp/id.chad"
if [ "$rc" -eq 0 ]; then ok "f32 rounding: $out"; else bad "f32 rounding" "$out"; fi

# ---- outside the domain, undecided -------------------------------------------------------
expect_match "sqrt (x * x) at 0: gradient outside the domain (exit 4)" 4 \
  'gradient\[0\] +domain +0 +undefined.*OUTSIDE THE DOMAIN: 1 outside the domain, 1 correct' '' \
  "$CHAD" check "$P" --fn sq --args '[0.0]' --candidate '{"value": 0, "gradient": [0]}'
expect_match "a wrong entry outranks outside the domain (exit 6)" 6 'WRONG' '' \
  "$CHAD" check "$P" --fn sq --args '[0.0]' --candidate '{"value": 1, "gradient": [0]}'
expect_match "undecided at --max-prec 64 (exit 5)" 5 'value +undecided.*UNDECIDED' '' \
  "$CHAD" check "$P" --fn em --args '[1e-30]' --candidate '1e-30' --max-prec 64

# ---- non-standard numbers ------------------------------------------------------------------
expect_match "NaN, Infinity, -Infinity tokens and nan/inf strings read (and wrong)" 6 \
  'value\[0\] +WRONG +nan.*value\[1\] +WRONG +\+inf.*jacobian\[0\]\[0\] +WRONG +-inf.*jacobian\[1\]\[1\] +WRONG +-inf' '' \
  "$CHAD" check "$P" --fn vec --args "$A" \
  --candidate '{"value": [NaN, Infinity], "jacobian": [[-Infinity, "nan"], ["inf", "-inf"]]}'
expect_match "a NaN token inside a string stays a string (exit 2)" 2 '^$' 'expected a number, found a string' \
  "$CHAD" check "$P" --fn th --args '[1.0]' --candidate '{"gradient": ["NaN x"]}'

# ---- errors --------------------------------------------------------------------------------
printf '{"value": [0.7, 4.4],\n "jacobian": [[1, 2], [3]]}' >"$tmp/bad.json"
expect_match "short row: exit 2 at its position" 2 '^$' \
  "bad.json:2:23: error: the candidate's jacobian\[1\]: expected an array of 2 entries" \
  "$CHAD" check "$P" --fn vec --args "$A" --candidate @"$tmp/bad.json"
printf '{"value": 1,\n  "grad": [1]}' >"$tmp/bad.json"
expect_match "unknown key: exit 2 at the key" 2 '^$' "bad.json:2:3: error: the candidate's grad: unknown key" \
  "$CHAD" check "$P" --fn th --args '[1.0]' --candidate @"$tmp/bad.json"
printf '{"jvp": {"direction": [1.0,\n "x"], "tangent": [1, 2]}}' >"$tmp/bad.json"
expect_match "bad jvp direction: exit 2 at its position in the candidate" 2 '^$' "bad.json:2:2: error: " \
  "$CHAD" check "$P" --fn vec --args "$A" --candidate @"$tmp/bad.json"
expect_match "invalid JSON: exit 2" 2 '^$' '^<candidate>:1:.*invalid JSON' \
  "$CHAD" check "$P" --fn th --args '[1.0]' --candidate '{"value": '
expect_match "an empty object: nothing to check (exit 2)" 2 '^$' '<candidate>:1:1: error: .*nothing to check' \
  "$CHAD" check "$P" --fn th --args '[1.0]' --candidate '{}'
expect_match "tangent without a direction: exit 1" 1 '^$' 'give its direction with --tangent' \
  "$CHAD" check "$P" --fn th --args '[1.0]' --candidate '{"tangent": [1]}'
expect_match "grading options without --candidate: exit 1" 1 '^$' 'need --candidate' \
  "$CHAD" check "$P" --ulps 3
expect_match "--ulps and --rtol together: exit 1" 1 '^$' 'not both' \
  "$CHAD" check "$P" --fn th --args '[1.0]' --candidate '1' --ulps 1 --rtol 1e-9
expect_match "--precision f16: exit 1" 1 '^$' 'f64 or f32' \
  "$CHAD" check "$P" --fn th --args '[1.0]' --candidate '1' --precision f16
expect_match "check FILE alone still type checks" 0 '^th : real -> real' '' "$CHAD" check "$P"

echo "certified-check-$label: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
