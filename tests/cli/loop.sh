# Sourced by tests/cli/run.sh: bounded loops (loop, and while, which desugars
# to it; spec/surface.md, spec/evaluator.md, spec/chad.md): values, the
# out-of-fuel error, and derivatives of Newton's iteration for the square
# root (examples/while.chad, a data-dependent number of rounds) against the
# closed form 1 / (2 sqrt a) through the certified evaluator.
# Uses run.sh's helpers (expect_out, expect_err, nums_agree from lang.sh, prog, $P).

W=examples/while.chad
# the closed forms, certified: sqrt a and its derivative
prog 'def root (a : real) = sqrt a' 'def droot (a : real) = 0.5 / sqrt a'
for a in 2.0 9.0 1e-4 1e6; do
  run "$CHAD" eval "$P" --fn root --args "[$a]" --eval ball
  root=$out
  run "$CHAD" eval "$P" --fn droot --args "[$a]" --eval ball
  droot=$out
  # the stop test leaves |x^2 - a| <= 1e-12 a: x within 5e-13 of sqrt a
  # (relative); the derivative's error is second order in the previous
  # round's (about 1e-6): 1e-12 (spec/chad.md, loop)
  for ev in fast ref ball; do
    run "$CHAD" eval "$W" --fn nsqrt --args "[$a]" --eval $ev
    nums_agree "while: Newton sqrt $a = sqrt a (certified) to 1e-12 ($ev)" 1e-12 "$root" "$out"
    run "$CHAD" grad "$W" --fn nsqrt --args "[$a]" --eval $ev
    nums_agree "while: grad of Newton sqrt at $a = 1/(2 sqrt a) (certified) to 1e-10 ($ev)" 1e-10 \
      "{\"value\": $root, \"gradient\": [$droot]}" "$out"
  done
  run "$CHAD" jvp "$W" --fn nsqrt --args "[$a]" --tangent '[1.0]'
  nums_agree "while: jvp of Newton sqrt at $a = 1/(2 sqrt a) (certified) to 1e-10" 1e-10 \
    "{\"value\": $root, \"tangent\": $droot}" "$out"
  run "$CHAD" jvp "$W" --fn nsqrt_fuel --args "[$a, 50]" --tangent '[1.0, null]'
  nums_agree "loop: jvp of the core form at $a = 1/(2 sqrt a) (certified) to 1e-10" 1e-10 \
    "{\"value\": $root, \"tangent\": $droot}" "$out"
  run "$CHAD" vjp "$W" --fn nsqrt_fuel --args "[$a, 50]" --cotangent '2.0'
  nums_agree "loop: vjp of the core form at $a, cotangent 2 = 1/sqrt a (certified) to 1e-10" 1e-10 \
    "{\"value\": $root, \"cotangent\": [$droot, null]}" \
    "$(printf '%s' "$out" | /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); d["cotangent"][0] /= 2; print(json.dumps(d))')"
done
# the exit depends on the data: the rounds Newton takes from x0 = a
expect_out "while: the rounds depend on the data (a = 2)" "5" "$CHAD" eval "$W" --fn rounds --args '[2.0]'
expect_out "while: the rounds depend on the data (a = 1e6)" "14" "$CHAD" eval "$W" --fn rounds --args '[1e6]'
expect_out "while: no round when cond is false at the start" "0" "$CHAD" eval "$W" --fn rounds --args '[1.0]'
# a jacobian both ways
run "$CHAD" jacobian "$W" --fn nsqrt --args '[2.0]' --mode fwd
j_fwd=$out
run "$CHAD" jacobian "$W" --fn nsqrt --args '[2.0]' --mode rev
nums_agree "while: jacobian --mode fwd = --mode rev" 1e-15 "$j_fwd" "$out"

# ---- out of fuel: a positioned runtime error, exit 3, in every evaluator ----------------
for ev in fast ref ball; do
  expect_err "loop: out of fuel is a runtime error ($ev)" 3 \
    "^$W:17:3: error: runtime error in 'nsqrt_fuel': loop ran out of fuel \(3 rounds\)$" \
    "$CHAD" eval "$W" --fn nsqrt_fuel --args '[2.0, 3]' --eval $ev
  expect_err "loop: out of fuel in the derivative too ($ev)" 3 "loop ran out of fuel \(3 rounds\)$" \
    "$CHAD" grad "$W" --fn nsqrt_fuel --args '[2.0, 3]' --eval $ev
done
# a = 2 takes 5 steps (rounds above), so 6 rounds: 5 to go on, 1 to stop
expect_out "loop: fuel for exactly the rounds taken (6 for a = 2)" "$("$CHAD" eval "$W" --fn nsqrt --args '[2.0]')" \
  "$CHAD" eval "$W" --fn nsqrt_fuel --args '[2.0, 6]'
expect_err "loop: one round less is out of fuel (5 for a = 2)" 3 "loop ran out of fuel \(5 rounds\)$" \
  "$CHAD" eval "$W" --fn nsqrt_fuel --args '[2.0, 5]'
expect_err "loop: zero fuel is out of fuel" 3 "loop ran out of fuel \(0 rounds\)$" \
  "$CHAD" eval "$W" --fn nsqrt_fuel --args '[1.0, 0]'
expect_err "loop: negative fuel" 3 "loop: negative fuel -1$" \
  "$CHAD" eval "$W" --fn nsqrt_fuel --args '[1.0, -1]'
prog 'def f (x : real) = while (fun (y : real) -> y < 10.0) (fun (y : real) -> y * 2.0) x 3'
expect_err "while: out of fuel, positioned at while" 3 \
  "^$P:1:20: error: runtime error in 'f': loop ran out of fuel \(3 rounds\)$" "$CHAD" eval "$P" --args '[1.0]'
# from 3: 3, 6, 12: two steps and the test that stops, 3 rounds
expect_out "while: within its fuel" "12" "$CHAD" eval "$P" --args '[3.0]'

# ---- typing errors ----------------------------------------------------------------------
prog 'def f (x : real) = loop 3 (fun (y : real) -> y) x'
expect_err "loop: the body answers tau + tau" 2 "^$P:1:46: error: type mismatch: expected real \+ real, found real$" \
  "$CHAD" check "$P"
prog 'def f (x : real) = loop 3.0 (fun (y : real) -> inr y) x'
expect_err "loop: the fuel is an int" 2 "^$P:1:25: error: type mismatch: expected int, found real" "$CHAD" check "$P"
prog 'def f (x : real) = while (fun (y : real) -> y) (fun (y : real) -> y) x 3'
expect_err "while: cond answers bool" 2 "^$P:1:27: error: type mismatch: expected a sum type \(such as bool\), found real$" \
  "$CHAD" check "$P"

# ---- printed, parsed back; the derivative programs parse back too ---------------------
"$CHAD" print "$W" >"$tmp/while_printed.chad" 2>/dev/null
expect_out "while: printed (as loop), parsed back: same value" "$("$CHAD" eval "$W" --fn nsqrt --args '[9.0]')" \
  "$CHAD" eval "$tmp/while_printed.chad" --fn nsqrt --args '[9.0]'
"$CHAD" rev "$W" --fn nsqrt_fuel >"$tmp/while_rev.chad" 2>/dev/null
printf '%s\n' 'def vjp (a : real, n : int) = let p = nsqrt_fuel_rev a n in (fst p, snd p <| 1.0)' >>"$tmp/while_rev.chad"
run "$CHAD" vjp "$W" --fn nsqrt_fuel --args '[9.0, 50]' --cotangent '1.0'
want=$out
run "$CHAD" eval "$tmp/while_rev.chad" --fn vjp --args '[9.0, 50]'
nums_agree "loop: chad rev's program, parsed back and run = chad vjp" 1e-15 \
  "$(printf '%s' "$want" | grep -oE -- "$NUM" | tr '\n' ' ')" "$(printf '%s' "$out" | grep -oE -- "$NUM" | tr '\n' ' ')"
"$CHAD" fwd "$W" --fn nsqrt_fuel >"$tmp/while_fwd.chad" 2>/dev/null
printf '%s\n' 'def jvp (a : real, n : int) = let p = nsqrt_fuel_fwd a n in (fst p, snd p <| (((), 1.0), ()))' >>"$tmp/while_fwd.chad"
run "$CHAD" jvp "$W" --fn nsqrt_fuel --args '[9.0, 50]' --tangent '[1.0, null]'
want=$out
run "$CHAD" eval "$tmp/while_fwd.chad" --fn jvp --args '[9.0, 50]'
nums_agree "loop: chad fwd's program, parsed back and run = chad jvp" 1e-15 \
  "$(printf '%s' "$want" | grep -oE -- "$NUM" | tr '\n' ' ')" "$(printf '%s' "$out" | grep -oE -- "$NUM" | tr '\n' ' ')"
