# Sourced by tests/cli/run.sh (its helpers, $CHAD, $P and $tmp): inputs an
# adversary would try. Each gives a clean, positioned error with its
# documented exit code, or the right answer; never a crash (the sanitizer
# build runs these too) nor memory beyond the heap limit.

# A loop of INT64_MAX iterations: the heap limit (no signed overflow when the
# fast evaluator splits it into blocks), in both evaluators.
prog 'def f (n : int) : real = sum (build n (fun (i : int) -> toreal i))'
for ev in fast ref; do
  expect_err "sum (build INT64_MAX ...) --eval $ev: the heap limit" 3 \
    "^$P:1:1: error: runtime error in 'f': out of memory \(heap limit reached\); raise it with --heap-mb$" \
    "$CHAD" eval "$P" --args '[9223372036854775807]' --eval $ev
done

# sqrt is not differentiable at 0: forward and reverse mode both report the
# non-finite derivative, whichever side the zero comes from.
prog 'def s (x : real) : real = sqrt (x * x)' 'def z (x : real) : real = 0.0 * sqrt x' \
  'def sl (v : [real]) : real = sum (map (fun (a : real) -> sqrt (a * a)) v)' \
  'def zl (v : [real]) : real = sum (map (fun (a : real) -> 0.0 * sqrt a) v)'
for ev in fast ref; do
  for fn in s z; do
    l=1; [ $fn = z ] && l=2
    expect_err "$fn at 0 --eval $ev: jvp non-finite" 3 "^$P:$l:1: error: the tangent: the number nan has no JSON form$" \
      "$CHAD" jvp "$P" --fn $fn --args '[0.0]' --tangent '[1.0]' --eval $ev
    expect_err "$fn at 0 --eval $ev: grad non-finite" 3 "^$P:$l:1: error: the gradient of 'x': the number nan has no JSON form$" \
      "$CHAD" grad "$P" --fn $fn --args '[0.0]' --eval $ev
    for m in fwd rev; do
      expect_err "$fn at 0 --eval $ev: jacobian --mode $m non-finite" 3 "^$P:$l:1: error: the jacobian\[0\]\[0\]: the number nan has no JSON form$" \
        "$CHAD" jacobian "$P" --fn $fn --args '[0.0]' --mode $m --eval $ev
    done
  done
  for fn in sl zl; do
    expect_err "$fn (a loop) at 0 --eval $ev: jvp non-finite" 3 "error: the tangent: the number nan has no JSON form$" \
      "$CHAD" jvp "$P" --fn $fn --args '[[0.0, 1.0]]' --tangent '[[1.0, 1.0]]' --eval $ev
    expect_err "$fn (a loop) at 0 --eval $ev: grad non-finite" 3 "error: the gradient of 'v'\[0\]: the number nan has no JSON form$" \
      "$CHAD" grad "$P" --fn $fn --args '[[0.0, 1.0]]' --eval $ev
  done
  expect_out "sqrt (x * x) away from 0 --eval $ev: |x|' = sign x" '{"value": 3, "gradient": [-1]}' \
    "$CHAD" grad "$P" --fn s --args '[-3.0]' --eval $ev
done
