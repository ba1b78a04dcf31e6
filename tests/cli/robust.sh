# Sourced by tests/cli/run.sh (its helpers, $CHAD, $P and $tmp): inputs an
# adversary would try. Each gives a clean, positioned error with its
# documented exit code, or the right answer; never a crash (the sanitizer
# build runs these too) nor memory beyond the heap limit.

# A loop of INT64_MAX iterations: the heap limit (no signed overflow when the
# fast evaluator splits it into blocks), in both evaluators.
prog 'def f (n : int) : real = sum (build n (fun (i : int) -> toreal i))'
# At the term being evaluated when the heap ran out: the build (ref); the
# sum around it (fast, which runs the two as one loop).
for ev in fast ref; do
  col=31; [ $ev = fast ] && col=26
  expect_err "sum (build INT64_MAX ...) --eval $ev: the heap limit, at 1:$col" 3 \
    "^$P:1:$col: error: runtime error in 'f': out of memory \(heap limit reached\); raise it with --heap-mb$" \
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

# ---- inputs read with a bound; file-level errors placed ------------------
prog 'def s (x : real) : real = sqrt (x * x)'
start=$(date +%s)
expect_err "--args @/dev/zero: too large, positioned, exit 2" 2 \
  '^/dev/zero:1:67108865: error: too large: more than 67108864 bytes \(the limit of a JSON input\)$' \
  "$CHAD" eval "$P" --args @/dev/zero
if [ $(( $(date +%s) - start )) -le 20 ]; then ok "--args @/dev/zero fails fast"
else bad "--args @/dev/zero fails fast" "took $(( $(date +%s) - start )) s"; fi
expect_out "--args @<(cmd): a pipe still works" 2 "$CHAD" eval "$P" --args @<(echo '[-2.0]')
run bash -c "echo '[3.0]' | \"$CHAD\" eval \"$P\" --args @-"
if [ "$rc" -eq 0 ] && [ "$out" = 3 ]; then ok "--args @-: standard input still works"
else bad "--args @-: standard input still works" "exit $rc" "$out" "$err"; fi
expect_err "--args @ (no path)" 2 '^<command line>: error: --args @: cannot open: No such file or directory$' \
  "$CHAD" eval "$P" --args @
expect_err "--tangent @missing" 2 "^<command line>: error: --tangent @$tmp/nope.json: cannot open: No such file or directory$" \
  "$CHAD" jvp "$P" --args '[1.0]' --tangent "@$tmp/nope.json"
expect_err "empty FILE name" 2 "^<command line>: error: FILE '': cannot open: No such file or directory$" \
  "$CHAD" check ''
expect_err "FILE a directory: cannot read, and why" 2 "^<command line>: error: FILE '$tmp': cannot read: Is a directory$" \
  "$CHAD" check "$tmp"
expect_err "--args @directory: cannot read, and why" 2 "^<command line>: error: --args @$tmp: cannot read: Is a directory$" \
  "$CHAD" eval "$P" --args "@$tmp"
expect_err "--fn naming no definition: on the command line" 1 \
  "^<command line>: error: --fn nope: no definition named 'nope' in $P$" "$CHAD" eval "$P" --fn nope --args '[1.0]'
expect_err "missing --args: on the command line" 1 \
  "^<command line>: error: --args: 's' takes 1 parameter: give them with --args$" "$CHAD" eval "$P"
printf '   \n# nothing\n' >"$P"
expect_err "no definitions: the file's start" 2 "^$P:1:1: error: the file has no definitions$" "$CHAD" eval "$P"
# a source over 32 MiB fails at its first byte past the limit, before parsing
{ echo 'def f = 1.0'; head -c 33554432 /dev/zero | tr '\0' ' '; } >"$P"
expect_err "source over 32 MiB: positioned, exit 2" 2 \
  "^$P:2:33554421: error: source too large: more than 33554432 bytes \(the limit of a program\)$" "$CHAD" check "$P"
# a source under the limit whose syntax tree would be larger than 256 MiB
{ printf 'def f = ['; yes '0,' | head -n 1900000 | tr -d '\n'; echo '0]'; } >"$P"
start=$(date +%s)
expect_err "a huge array literal: the parser's limit, exit 2" 2 \
  "^$P:1:[0-9]+: error: program too large: parsing it needs more than 256 MiB \(the parser's limit\)$" \
  "$CHAD" check "$P"
if [ $(( $(date +%s) - start )) -le 20 ]; then ok "a huge array literal fails fast"
else bad "a huge array literal fails fast" "took $(( $(date +%s) - start )) s"; fi
# jansson's memory reading JSON counts against the heap limit
prog 'def n (v : [real]) : real = sum v'
{ printf '[['; yes '0,' | head -n 300000 | tr -d '\n'; echo '0]]'; } >"$tmp/big.json"
expect_err "JSON larger than --heap-mb: the heap limit, exit 3" 3 \
  "^$tmp/big.json:1:1: error: heap limit reached while reading JSON \(600006 bytes of text\); raise it with --heap-mb$" \
  "$CHAD" eval "$P" --args "@$tmp/big.json" --heap-mb 1
expect_out "the same JSON within the heap limit" 0 "$CHAD" eval "$P" --args "@$tmp/big.json"

# chad check --candidate reads its JSON like the other inputs: bounded, the
# heap limit on jansson's memory, positions with lone CRs, integers beyond
# int64 for a real
prog 'def s (x : real) : real = x * x'
expect_err "--candidate @/dev/zero: too large, positioned, exit 2" 2 \
  '^/dev/zero:1:67108865: error: too large: more than 67108864 bytes \(the limit of a JSON input\)$' \
  "$CHAD" check "$P" --args '[1.0]' --candidate @/dev/zero
{ printf '{"value": ['; yes '1,' | head -n 300000 | tr -d '\n'; echo '1]}'; } >"$tmp/bigc.json"
expect_err "--candidate JSON larger than --heap-mb: the heap limit, exit 3" 3 \
  "^$tmp/bigc.json:1:1: error: heap limit reached while reading JSON \(600015 bytes of text\); raise it with --heap-mb$" \
  "$CHAD" check "$P" --args '[1.0]' --candidate "@$tmp/bigc.json" --heap-mb 1
expect_err "--candidate: CR-only line ends count as line breaks (invalid JSON)" 2 \
  "^<candidate>:3:2: error: invalid JSON: invalid token near 'x'$" \
  "$CHAD" check "$P" --args '[1.0]' --candidate $'{"value":\r\r x}'
run "$CHAD" check "$P" --args '[4294967296.0]' --candidate '{"value": 18446744073709551616}'
if [ "$rc" -eq 0 ] && [[ $out == *"value  correct     1.8446744073709552e+19"* ]]; then
  ok "--candidate: an integer >= 2^63 given for a real is graded"
else bad "--candidate: an integer >= 2^63 given for a real is graded" "exit $rc" "$out" "$err"; fi
prog 'def q (x : real, n : int) : (real * int) = (x * toreal n, n)'
run "$CHAD" check "$P" --args '[1.0, 3]' --candidate '{"value": [18446744073709551616, 4]}'
if [ "$rc" -eq 6 ] && [[ $out == *"value[1]  WRONG       4 "* ]]; then
  ok "--candidate: beside a real >= 2^63, an int is still graded as an int"
else bad "--candidate: beside a real >= 2^63, an int is still graded as an int" "exit $rc" "$out" "$err"; fi
expect_err "--candidate: an integer >= 2^63 given for an int: out of range, positioned" 2 \
  "^<candidate>:1:34: error: the candidate's value\[1\]: integer out of the 64-bit range \[-2\^63, 2\^63 - 1\]$" \
  "$CHAD" check "$P" --args '[1.0, 3]' --candidate '{"value": [18446744073709551616, 9223372036854775808]}'
expect_err "--candidate: a real for an int beside it, positioned" 2 \
  "^<candidate>:1:34: error: the candidate's value\[1\]: expected an integer, found a number$" \
  "$CHAD" check "$P" --args '[1.0, 3]' --candidate '{"value": [18446744073709551616, 3.0]}'
# chad vectors: a one-vector suite written with its enclosures (the
# certificates' exact decimals) and the float32 references made from them
cat >"$tmp/vspec.json" <<'JSON'
{"suite": "s", "version": "1.0.0", "notes": {"tail": "t"},
 "groups": [{"name": "g", "comment": "c", "vectors": [
  {"comment": "tanh at 20", "flags": ["tail"], "source": "def f (x : real) : real = tanh x\n",
   "args": [20.0], "tangent": [1.0], "cotangent": 1.0}]}]}
JSON
run "$CHAD" vectors "$tmp/vout" --spec "$tmp/vspec.json"
v=$(tr -d ' \n' <"$tmp/vout/g.json" 2>/dev/null)
if [ "$rc" -eq 0 ] && [[ $v == *'"jvp":{"tangent":[1.0],"f64":1.6993417021166355e-17,"f32":[1.6993416524554639e-17],"enclosures":[{"mid":"0.00000000000000001699341702116635583289290944579017956502616967918852943050973813843285142866079695522785186767578125"'* ]]
then ok "vectors: a vector with its enclosures and float32 references"
else bad "vectors: a vector with its enclosures and float32 references" "exit $rc" "${v:0:400}"; fi
# chad vectors: its --spec read with the same bound; errors placed
expect_err "vectors --spec missing: on the command line" 2 \
  "^<command line>: error: --spec $tmp/nope.json: cannot open: No such file or directory$" \
  "$CHAD" vectors "$tmp/vec" --spec "$tmp/nope.json"
expect_err "vectors --spec /dev/zero: too large, positioned" 2 \
  "^/dev/zero:1:67108865: error: too large: more than 67108864 bytes$" "$CHAD" vectors "$tmp/vec" --spec /dev/zero
printf '{\r"groups": x}' >"$tmp/spec.json"
expect_err "vectors --spec invalid JSON with CR-only line ends: positioned" 2 \
  "^$tmp/spec.json:2:11: error: invalid JSON: invalid token near 'x'$" "$CHAD" vectors "$tmp/vec" --spec "$tmp/spec.json"
expect_err "vectors OUTDIR that cannot be made: on the command line" 2 \
  "^<command line>: error: OUTDIR '$tmp/no/out': cannot create: No such file or directory$" \
  "$CHAD" vectors "$tmp/no/out"

# ---- positions: CR-only line ends, hints that apply -----------------------
printf 'def f (x : real) : real =\r  x +\r  true\r' >"$P"
expect_err "CR-only line ends count as line breaks (source)" 2 \
  "^$P:2:5: error: type mismatch: the operands of '\+' have different types: found real \* bool$" "$CHAD" check "$P"
printf 'def f (x : real) : real = x\r\n  + true\r\n' >"$P"
expect_err "CRLF line ends: one line break each (source)" 2 "^$P:2:3: error: type mismatch" "$CHAD" check "$P"
printf 'def f (x : real) : real = x\r# a comment\rdef g (y : real) : real = y +\r true\r' >"$P"
expect_err "a comment ends at a lone CR" 2 "^$P:3:29: error: type mismatch" "$CHAD" check "$P"
prog 'def f (x : real) : real = x'
printf '[\r\r  true]' >"$tmp/cr.json"
expect_err "CR-only line ends count as line breaks (JSON value)" 2 "^$tmp/cr.json:3:3: error: argument 'x': expected a number" \
  "$CHAD" eval "$P" --args "@$tmp/cr.json"
printf '[1.0,\r x]' >"$tmp/cr.json"
expect_err "CR-only line ends count as line breaks (invalid JSON)" 2 "^$tmp/cr.json:2:2: error: invalid JSON" \
  "$CHAD" eval "$P" --args "@$tmp/cr.json"
prog 'def h (x : real) : real = sin -2.0'
expect_err "sin -2.0: the hint that applies" 2 \
  "^$P:1:31: error: type mismatch: the operands of '-' have different types: found \(real -> real\) \* real \(this '-' subtracts: to apply a function to a negative number, write f \(-2.0\)\)$" \
  "$CHAD" check "$P"
prog 'def h (x : real) : real = x + 2'
expect_err "x + 2: the int/real hint" 2 "found real \* int \(write 2.0, not 2, for a real\)$" "$CHAD" check "$P"

# ---- documented limits and conventions ---------------------------------------
params() { local i s=""; for i in $(seq 1 "$1"); do s="$s (x$i : real)"; done; echo "$s"; }
prog "def f = fun$(params 257) -> x1"
expect_err "fun with 257 parameters: over the limit of 256" 2 "^$P:1:[0-9]+: error: too many parameters \(limit 256\)$" \
  "$CHAD" check "$P"
prog "def f = fun$(params 256) -> x1"
run "$CHAD" check "$P"
if [ "$rc" -eq 0 ]; then ok "fun with 256 parameters: accepted"; else bad "fun with 256 parameters: accepted" "$err"; fi
expect_out "--tangent null: the zero of every parameter's tangent" '{"value": 0.35078322768961984, "tangent": 0}' \
  "$CHAD" jvp examples/fig1b.chad --args '[0.5, -1.25, 2.0, 0.75]' --tangent null
# an integer literal beyond int64 is a valid number for a real; for an int
# it is out of range, positioned
prog 'def q (x : real, n : int) : real = x * toreal n'
expect_out "an integer >= 2^63 given for a real" '5.5340232221128655e+19' \
  "$CHAD" eval "$P" --args '[18446744073709551616, 3]'
expect_out "... by name, beside an int" '-1.7014118346046923e+38' \
  "$CHAD" eval "$P" --args '{"n": -9223372036854775808, "x": 18446744073709551616}'
expect_err "an integer >= 2^63 given for an int: out of range" 2 \
  "^<args>:1:9: error: argument 'n': integer out of the 64-bit range \[-2\^63, 2\^63 - 1\]$" \
  "$CHAD" eval "$P" --args '[1e300, 9223372036854775808]'
expect_err "... a real for an int, beside it" 2 "^<args>:1:24: error: argument 'n': expected an integer, found a real number$" \
  "$CHAD" eval "$P" --args '[18446744073709551616, 2.5]'
# the documented difference of the evaluators: the heap limit only (fast
# does not store an array it can recompute)
prog 'def g (n : int) : int = length (build n (fun (i : int) -> toreal i))'
expect_out "length (build 2^40 f) --eval fast: not stored" 1099511627776 "$CHAD" eval "$P" --args '[1099511627776]' --eval fast
expect_err "length (build 2^40 f) --eval ref: the heap limit, at the build" 3 "^$P:1:33: error: runtime error in 'g': out of memory \(heap limit reached\)" \
  "$CHAD" eval "$P" --args '[1099511627776]' --eval ref
# deep nesting: a positioned error, never a stack overflow (the parser's
# recursion is bounded in levels and in stack bytes)
{ printf 'def f (x : real) = '; head -c 5000 /dev/zero | tr '\0' '['; } >"$P"
expect_err "5000 nested '[': nested too deeply" 2 "^$P:1:[0-9]+: error: expression nested too deeply \(parser (stack )?limit" \
  "$CHAD" check "$P"
# the heap limit is at most 512 GiB; with it, the loop of INT64_MAX iterations
# is still refused before any allocation of its size
expect_err "--heap-mb over 512 GiB: usage error" 1 "^<command line>: error: --heap-mb needs a number of MiB from 1 to 524288, not '524289'" \
  "$CHAD" check examples/fig1a.chad --heap-mb 524289
prog 'def f (n : int) : real = sum (build n (fun (i : int) -> toreal i))'
expect_err "sum (build INT64_MAX ...) --heap-mb 524288: the heap limit, at the sum (fast)" 3 \
  "^$P:1:26: error: runtime error in 'f': out of memory \(heap limit reached\)" \
  "$CHAD" eval "$P" --args '[9223372036854775807]' --heap-mb 524288

# Source positions past line 65535 and column 65535 (each
# position is a line and a column of its own): a runtime error is reported
# where it happens.
{ for ((k = 0; k < 70000; k++)); do echo '#'; done
  printf 'def f (v : [real]) : real = %*s v[3]\n' 70000 ''; } >"$P"
expect_err "runtime error on line 70001, column 70031" 3 \
  ':70001:70031: error: .*out of bounds' "$CHAD" eval "$P" --args '[[1.0]]'
