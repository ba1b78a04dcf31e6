# Sourced by tests/cli/run.sh (after lang.sh: nums_agree): index arithmetic in
# compiled loops. The fast evaluator drops a bound or overflow check when the
# ranges of the loop index and of the integers computed from it show that it
# passes in every iteration (src/fast/fast_compile.c, irange); the checks it
# cannot show must stay, with the reference evaluator's error. Arrays of 20
# elements: loops of 16 or more are compiled.
X='[1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2.0, 2.1, 2.2, 2.3, 2.4, 2.5, 2.6, 2.7, 2.8, 2.9]'
range_prog() {
  prog 'def f (x : [real]) : real =' '  let n = length x in' "  sum (build n (fun i -> $1))"
}
# the array let-bound and one element read in another loop: an array whose
# elements cannot fail is delayed and its element compiled where it is read,
# so a wrong range would lose the error of the elements never read (a silent
# value instead of the reference's error)
range_prog_one() {
  prog 'def f (x : [real]) : real =' '  let n = length x in' "  let a = build n (fun i -> $1) in" \
    '  sum (build n (fun j -> a[5] * x[j]))'
}
# in bounds for every i < n: the value and the gradient as the reference's
for body in 'x[i] * x[(i + 1) % n]' 'x[n - 1 - i] * x[i]' 'x[i / 2] * x[(i + n - 1) % n]' \
            'x[-i + n - 1]' 'x[(i * 3) % n] * x[(i * i) % n]'; do
  range_prog "$body"
  run "$CHAD" eval "$P" --args "[$X]" --eval ref
  want=$out
  run "$CHAD" eval "$P" --args "[$X]" --eval fast
  nums_agree "ranges: eval of sum (build n (i -> $body)): fast = ref" 1e-14 "$want" "$out"
  run "$CHAD" grad "$P" --args "[$X]" --eval ref
  want=$out
  run "$CHAD" grad "$P" --args "[$X]" --eval fast
  nums_agree "ranges: grad of sum (build n (i -> $body)): fast = ref" 1e-14 "$want" "$out"
done
# a check some iteration fails: the same error (place and message) in both;
# a read whose value no one uses is dead code, but its check is kept
for case in 'x[i + 1]|index 20 out of bounds \(array length 20\)' \
            'let u = x[i + 1] in x[i]|index 20 out of bounds \(array length 20\)' \
            'x[(i + 1) % (n + 1)]|index 20 out of bounds \(array length 20\)' \
            'x[(i - 1) % n]|index -1 out of bounds \(array length 20\)' \
            'x[n - i]|index 20 out of bounds \(array length 20\)' \
            'x[(i * 4611686018427387904) % n]|integer overflow in imul' \
            'x[n / (i - i)]|integer division by zero' \
            'x[(i + 9223372036854775800) % n]|integer overflow in iadd'; do
  body=${case%%|*} msg=${case#*|}
  range_prog "$body"
  for ev in fast ref; do
    expect_err "ranges: sum (build n (i -> $body)) fails ($ev)" 3 "^$P:3:[0-9]+: error: runtime error in 'f': .*$msg$" \
      "$CHAD" eval "$P" --args "[$X]" --eval $ev
    expect_err "ranges: its gradient fails too ($ev)" 3 "$msg$" "$CHAD" grad "$P" --args "[$X]" --eval $ev
  done
  range_prog_one "$body"
  for ev in fast ref; do
    expect_err "ranges: build n (i -> $body) fails where one element is read ($ev)" 3 \
      "^$P:3:[0-9]+: error: runtime error in 'f': .*$msg$" "$CHAD" eval "$P" --args "[$X]" --eval $ev
    expect_err "ranges: its gradient fails too ($ev)" 3 "$msg$" "$CHAD" grad "$P" --args "[$X]" --eval $ev
  done
done
