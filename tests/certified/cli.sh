#!/usr/bin/env bash
# Command-line tests of the certified evaluator (--eval ball): correctly
# rounded tails, the not-differentiable verdict (exit 4) with the branch's
# position and its one-sided results, per-entry undefined answers that agree
# between forward and reverse mode, certificates, undecided (exit 5), and
# the option errors.
#   tests/certified/cli.sh [CHAD_BINARY]      (default ./chad)
# Ends with "N passed, N failed"; exits non-zero if any test failed.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
# expect NAME RC STDOUT STDERR_REGEX CMD...: exit RC, exactly this stdout,
# stderr matching the regex ('' = empty stderr)
expect() {
  local name=$1 want_rc=$2 want_out=$3 re=$4
  shift 4
  run "$@"
  local err_ok=1
  if [ -z "$re" ]; then [ -z "$err" ] || err_ok=0
  else [[ $err =~ $re ]] || err_ok=0; fi
  if [ "$rc" -ne "$want_rc" ] || [ "$out" != "$want_out" ] || [ "$err_ok" -ne 1 ]; then
    bad "$name" "exit $rc (want $want_rc)" "stdout: $out" "want:   $want_out" "stderr: $err" "want:   /$re/"
  else ok "$name"; fi
}

P=$tmp/p.chad
cat >"$P" <<'CHAD'
def th (x : real) : real = tanh x
def sg (x : real) : real = sigmoid x
def ab (x : real) : real = abs x
def relu (x : real) : real = max x 0.0
def mn (x : real, y : real) : real = min x y
def step (x : real) : real = if x > 0.0 then x else 0.0
def same (x : real) : real = if x > 0.0 then 2.0 * x else x + x
def jump (x : real) : real = if x == 0.0 then 1.0 else x
def sqsq (x : real) : real = sqrt (x * x)
def zsq (x : real) : real = 0.0 * sqrt x
def lg (x : real) : real = log x
def pw (x : real, y : real) : real = pow x y
def em (x : real) : real = exp x - 1.0
def circle (x : real) : real = if sin x * sin x + cos x * cos x == 1.0 then x else 2.0 * x
def lse (v : [real]) : real = logsumexp v
CHAD

echo "certified cli tests of $label"

# ---- tails: the certified derivative, correctly rounded ----------------------
expect "grad tanh at 20: sech^2 20, not 0" 0 '{"value": 1, "gradient": [1.6993417021166355e-17]}' '' \
  "$CHAD" grad "$P" --fn th --args '[20.0]' --eval ball
expect "grad sigmoid at 40: not 0" 0 '{"value": 1, "gradient": [4.2483542552915889e-18]}' '' \
  "$CHAD" grad "$P" --fn sg --args '[40.0]' --eval ball
expect "eval exp x - 1 at 1e-30: cancellation resolved by precision" 0 '1.0000000000000001e-30' '' \
  "$CHAD" eval "$P" --fn em --args '[1e-30]' --eval ball
expect "grad logsumexp at [1e308, 1e308]: no overflow" 0 \
  '{"value": 1e+308, "gradient": [[0.5, 0.5]]}' '' \
  "$CHAD" grad "$P" --fn lse --args '[[1e308, 1e308]]' --eval ball

# ---- kinks: exit 4, the branch's position and each side's result --------------
expect_match "abs at 0: not differentiable, left and right" 4 \
  '"limits": \[\{"branches": \[\{"at": "[^"]*:3:28", "op": "abs".*"side": "left side \(x < 0\)"\}\], "result": \{"value": 0, "gradient": \[-1\]\}, "realized": true\}, \{.*"side": "right side \(x > 0\)"\}\], "result": \{"value": 0, "gradient": \[1\]\}, "realized": true\}\]' \
  ':3:28: not differentiable at this point: a kink of abs' \
  "$CHAD" grad "$P" --fn ab --args '[0.0]' --eval ball
# both limits pass through the one kink: it is one branch point, not one per limit
expect_match "abs at 0: one branch point for the two limits" 4 \
  '^\{"not_differentiable": true, "branch_points": \[\{"at": "[^"]*:3:28", "op": "abs", "what": "a kink of abs", "value": 0.0\}\], "complete": true, "limits": ' \
  ':3:28: not differentiable at this point' \
  "$CHAD" grad "$P" --fn ab --args '[0.0]' --eval ball
expect_match "max x 0 at 0: both gradients" 4 \
  '"side": "first argument taken"\}\], "result": \{"value": 0, "gradient": \[1\]\}.*"side": "second argument taken"\}\], "result": \{"value": 0, "gradient": \[0\]\}' \
  ':4:30: not differentiable at this point: max of equal numbers' \
  "$CHAD" grad "$P" --fn relu --args '[0.0]' --eval ball
expect_match "min of a tie: both gradients" 4 \
  '"gradient": \[1, 0\].*"gradient": \[0, 1\]' ':5:[0-9]+: not differentiable at this point: min of equal numbers' \
  "$CHAD" grad "$P" --fn mn --args '[2.5, 2.5]' --eval ball
expect_match "if x > 0 at 0: both branches" 4 \
  '"side": "comparison taken true"\}\], "result": \{"value": 0, "gradient": \[1\]\}.*"side": "comparison taken false"\}\], "result": \{"value": 0, "gradient": \[0\]\}' \
  ':6:[0-9]+: not differentiable at this point: comparison of equal numbers' \
  "$CHAD" grad "$P" --fn step --args '[0.0]' --eval ball
expect_match "jvp of if x > 0 at 0: forward mode, the same verdict" 4 \
  '"tangent": 1\}.*"tangent": 0\}' ':6:[0-9]+: not differentiable' \
  "$CHAD" jvp "$P" --fn step --args '[0.0]' --tangent '[1.0]' --eval ball
expect "branches that agree: differentiable" 0 '{"value": 0, "gradient": [2]}' '' \
  "$CHAD" grad "$P" --fn same --args '[0.0]' --eval ball
expect_match "branches that agree, with --certificate: still differentiable" 0 \
  '^\{"value": 0, "gradient": \[2\], "certificate": ' '' \
  "$CHAD" grad "$P" --fn same --args '[0.0]' --eval ball --certificate
expect_match "x == 0 taken true and false: the values differ" 4 \
  '"result": \{"value": 1, "gradient": \[0\]\}.*"result": \{"value": 0, "gradient": \[1\]\}' \
  'not differentiable at this point: comparison of equal numbers' \
  "$CHAD" grad "$P" --fn jump --args '[0.0]' --eval ball
expect "abs away from 0: an ordinary gradient" 0 '{"value": 2, "gradient": [-1]}' '' \
  "$CHAD" grad "$P" --fn ab --args '[-2.0]' --eval ball
expect "eval at a kink stays defined" 0 '0' '' "$CHAD" eval "$P" --fn ab --args '[0.0]' --eval ball

# every branch point is located by a run of the primal program that decides
# ties exactly: a run taking the branches' sides would stop at the second
# occurrence of the tie at 0 (no branch has its side) before the tie at 1
cat >"$tmp/locate.chad" <<'CHAD'
def kk (x : real) : real =
  let a = (if x < 0.0 then 0.0 else x) in
  let b = (if x < 0.0 then 0.0 else x) in
  let c = (if x + 1.0 < 1.0 then 0.0 else x) in
  a + b + c
CHAD
expect_match "two ties at 0, then one at 1: each branch point at its place" 4 \
  '^\{"not_differentiable": true, "branch_points": \[\{"at": "[^"]*:2:17", "op": "lt", [^}]*"value": 0.0\}, \{"at": "[^"]*:4:23", "op": "lt", [^}]*"value": 1\}\], ' \
  ':2:17: not differentiable at this point: comparison of equal numbers' \
  "$CHAD" grad "$tmp/locate.chad" --fn kk --args '[0.0]' --eval ball

# ---- genuine and degenerate ties (spec/certified.md §3) -----------------------------
cat >"$tmp/ties.chad" <<'CHAD'
def deg (x : real) : real = if x - x <= 0.0 then 2.0 * x else 3.0 * x
def touch (x : real) : real = if x * x <= 0.0 then 2.0 * x else 3.0 * x
def one (x : real, y : real) : real = if x > 1.0 then x * y else 2.0 * y
def fl (x : real) : real = toreal (floor x) * x
def fld (x : real) : real = toreal (floor (x - x + 2.0)) * x
def rr (x : real) : real = max (max x 0.0) 0.0
def selfb (v : [real]) : [real] = build 4 (fun i -> if sum v <= sum v then 1.0 else 2.0)
CHAD
expect_match "x - x <= 0 at 1 (the function 2x): undecided, not 'not differentiable'" 5 \
  '^\{"differentiable": "undecided", .*"result": \{"value": 2, "gradient": \[2\]\}, "realized": false\}.*"result": \{"value": 3, "gradient": \[3\]\}, "realized": false\}' \
  ':1:38: differentiability undecided at this point: comparison of equal numbers' \
  "$CHAD" grad "$tmp/ties.chad" --fn deg --args '[1.0]' --eval ball
expect_match "x - x <= 0 at 1, forward mode: undecided too" 5 '"differentiable": "undecided"' \
  'differentiability undecided' "$CHAD" jvp "$tmp/ties.chad" --fn deg --args '[1.0]' --tangent '[1.0]' --eval ball
expect_match "x * x <= 0 at 0 (touches without crossing): undecided" 5 '^\{"differentiable": "undecided"' \
  'differentiability undecided' "$CHAD" grad "$tmp/ties.chad" --fn touch --args '[0.0]' --eval ball
expect_match "a tie of x alone at (1, 3): both sides realized, not differentiable" 4 \
  '^\{"not_differentiable": true, .*"gradient": \[3, 1\]\}, "realized": true\}.*"gradient": \[0, 2\]\}, "realized": true\}' \
  ':3:[0-9]+: not differentiable at this point' \
  "$CHAD" grad "$tmp/ties.chad" --fn one --args '[1.0, 3.0]' --eval ball
expect_match "floor at an integer: a genuine jump" 4 '"not_differentiable": true' 'a jump of a real-to-integer' \
  "$CHAD" grad "$tmp/ties.chad" --fn fl --args '[2.0]' --eval ball
expect_match "floor (x - x + 2) at 1.5: a degenerate jump, undecided" 5 '"differentiable": "undecided"' \
  ':5:[0-9]+: differentiability undecided at this point: a jump of a real-to-integer' \
  "$CHAD" grad "$tmp/ties.chad" --fn fld --args '[1.5]' --eval ball
expect_match "relu (relu x) at 0: the outer tie through the inner one, not differentiable" 4 \
  '"result": \{"value": 0, "gradient": \[1\]\}, "realized": true\}' 'not differentiable at this point: max' \
  "$CHAD" grad "$tmp/ties.chad" --fn rr --args '[0.0]' --eval ball
expect "sum v <= sum v in a build of 4: too many branch points, undecided (no longer a runtime error)" 5 '' \
  'differentiability undecided at this point: every combination of sides meets more than 6 branch points' \
  "$CHAD" jacobian "$tmp/ties.chad" --fn selfb --args '[[0.5, 0.25]]' --eval ball

# ---- domain edges: per entry, forward = reverse --------------------------------
expect "sqrt (x*x) at 0, reverse: undefined" 4 '{"value": 0, "gradient": ["undefined"]}' \
  ':9:[0-9]+: not differentiable at this point: sqrt.s derivative at 0' \
  "$CHAD" grad "$P" --fn sqsq --args '[0.0]' --eval ball
expect "sqrt (x*x) at 0, forward: the same" 4 '{"value": 0, "tangent": "undefined"}' \
  ':9:[0-9]+: not differentiable at this point: sqrt.s derivative at 0' \
  "$CHAD" jvp "$P" --fn sqsq --args '[0.0]' --tangent '[1.0]' --eval ball
expect "0 * sqrt x at 0, reverse: undefined" 4 '{"value": 0, "gradient": ["undefined"]}' \
  'sqrt.s derivative at 0' "$CHAD" grad "$P" --fn zsq --args '[0.0]' --eval ball
expect "0 * sqrt x at 0, forward: the same" 4 '{"value": 0, "tangent": "undefined"}' \
  'sqrt.s derivative at 0' "$CHAD" jvp "$P" --fn zsq --args '[0.0]' --tangent '[1.0]' --eval ball
expect "pow at a negative base: d/dx finite, d/dy undefined" 4 '{"value": -8, "gradient": [12, "undefined"]}' \
  ':12:[0-9]+: not differentiable at this point: pow.s derivative in y at a negative base' \
  "$CHAD" grad "$P" --fn pw --args '[-2.0, 3.0]' --eval ball
expect "log at 0: value -infinity, derivative undefined" 4 '{"value": "-infinity", "gradient": ["undefined"]}' \
  'log.s derivative at 0' "$CHAD" grad "$P" --fn lg --args '[0.0]' --eval ball
expect "eval log 0 = -infinity" 0 '"-infinity"' '' "$CHAD" eval "$P" --fn lg --args '[0.0]' --eval ball
expect "eval log of a negative number: undefined" 4 '"undefined"' ':11:[0-9]+: undefined at this point: log of a negative number' \
  "$CHAD" eval "$P" --fn lg --args '[-1.0]' --eval ball

# ---- conversions, atan2's branch cut, hypot's cone --------------------------------
cat >"$tmp/conv.chad" <<'CHAD'
def fl (x : real) : real = toreal (floor x) * x
def rd (x : real) : int = round x
def at (y : real, x : real) : real = atan2 y x
def hy (x : real, y : real) : real = hypot x y
CHAD
expect_match "floor at an integer: a jump, both sides" 4 \
  '"side": "from below"\}\], "result": \{"value": 2, "gradient": \[1\]\}.*"side": "from above"\}\], "result": \{"value": 4, "gradient": \[2\]\}' \
  ':1:36: not differentiable at this point: a jump of a real-to-integer conversion' \
  "$CHAD" grad "$tmp/conv.chad" --fn fl --args '[2.0]' --eval ball
expect "floor between integers: derivative of the rest" 0 '{"value": 5, "gradient": [2]}' '' \
  "$CHAD" grad "$tmp/conv.chad" --fn fl --args '[2.5]' --eval ball
expect "round: half away from zero" 0 '-3' '' "$CHAD" eval "$tmp/conv.chad" --fn rd --args '[-2.5]' --eval ball
expect "round out of the 64-bit range: a runtime error" 3 '' 'out of the 64-bit range' \
  "$CHAD" eval "$tmp/conv.chad" --fn rd --args '[1e300]' --eval ball
expect_match "atan2 on its branch cut: -pi from below, pi from above" 4 \
  '"result": \{"value": -3.1415926535897931, "gradient": \[-1, 0\]\}.*"result": \{"value": 3.1415926535897931, "gradient": \[-1, 0\]\}' \
  "atan2's branch cut" "$CHAD" grad "$tmp/conv.chad" --fn at --args '[0.0, -1.0]' --eval ball
expect "hypot at (0, 0): undefined derivatives" 4 '{"value": 0, "gradient": ["undefined", "undefined"]}' \
  "hypot's derivative at \(0, 0\)" "$CHAD" grad "$tmp/conv.chad" --fn hy --args '[0.0, 0.0]' --eval ball

# ---- certificates ----------------------------------------------------------------
expect_match "certificate: exact decimal enclosures and the precision" 0 \
  '^\{"value": 0.52497918747894001, "gradient": \[0.24937604019289197\], "certificate": \{"precision": 64, "enclosures": \[\{"mid": "0\.5249791874789399[0-9]*", "rad": "0\.0000000000000000000[0-9]*"\}, \{"mid": "0\.24937604019289196[0-9]*", "rad": "0\.[0-9]*"\}\]\}\}$' \
  '^$' "$CHAD" grad "$P" --fn sg --args '[0.1]' --eval ball --certificate
expect_match "certificate of eval: value and enclosure" 0 \
  '^\{"value": 1.0000000000000001e-30, "certificate": \{"precision": [0-9]+, "enclosures": \[\{"mid": "0\.0{29}10{16}83336420[0-9]*", "rad": "0\.0{40}[0-9]*"\}\]\}\}$' \
  '^$' "$CHAD" eval "$P" --fn em --args '[1e-30]' --eval ball --certificate

# ---- undecided at the cap ----------------------------------------------------------
expect "undecided: --max-prec 64 cannot round exp x - 1 at 1e-30" 5 '"undecided"' \
  'could not be rounded correctly at 64 bits' \
  "$CHAD" eval "$P" --fn em --args '[1e-30]' --eval ball --max-prec 64
expect_match "undecided: a comparison of equal numbers computed inexactly" 5 '^$' \
  'comparison or a primitive.s domain could not be decided at 256 bits' \
  "$CHAD" grad "$P" --fn circle --args '[0.5]' --eval ball --max-prec 256

# ---- option errors ---------------------------------------------------------------------
expect "--certificate needs --eval ball" 1 '' '^<command line>: error: --certificate needs --eval ball' \
  "$CHAD" grad "$P" --fn sg --args '[0.1]' --certificate
expect "--max-prec out of range" 1 '' '^<command line>: error: --max-prec needs a number of bits' \
  "$CHAD" grad "$P" --fn sg --args '[0.1]' --eval ball --max-prec 10
cat >"$tmp/ix.chad" <<'CHAD'
def ix (v : [real]) : real = v[5] * 2.0
CHAD
expect "a runtime error stays a runtime error" 3 '' 'index 5 out of bounds' \
  "$CHAD" grad "$tmp/ix.chad" --eval ball --args '[[1.0]]'
# a derivative undefined at its domain's edge: acosh' at 1 (the value 0 is exact)
cat >"$tmp/ac.chad" <<'CHAD'
def ac (x : real) : real = acosh x
CHAD
expect "grad acosh at 1: the derivative undefined, exit 4" 4 '{"value": 0, "gradient": ["undefined"]}' \
  "acosh's derivative at or below 1 \\(acosh at 1\\)" "$CHAD" grad "$tmp/ac.chad" --eval ball --args '[1.0]'
# the ball evaluator's own shape check of matvec (a ragged matrix), in value and gradient
cat >"$tmp/mv.chad" <<'CHAD'
def mv (a : [[real]], v : [real]) : real = sum (matvec a v)
CHAD
for cmd in eval grad; do
  expect "$cmd of matvec on a ragged matrix: a runtime error" 3 '' \
    "^$tmp/mv.chad:1:49: error: runtime error in 'mv': matvec: matvec: a matrix row's length differs from the vector's\$" \
    "$CHAD" $cmd "$tmp/mv.chad" --eval ball --args '[[[1.0, 2.0], [3.0]], [1.0, 1.0]]'
done
echo "certified-cli-$label: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
