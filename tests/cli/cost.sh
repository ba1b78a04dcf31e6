# Sourced by tests/cli/run.sh (its helpers, $CHAD, $P and $tmp): program shapes
# whose derivative once cost exponentially more than the program, run at sizes
# where that cost would exceed the heap limit given (memory, not time, is
# asserted). References: the certified evaluator (--eval ball), correctly
# rounded; the double evaluators agree to 1e-12 (n rounded products).

# N local closures, each defined inside the previous one's body and applied
# to x: f x = x^(N+1). Each level's pullback re-applies the closure below it
# (CHAD's copower fold) and its tangent map applies the one below it once per
# part of the tangent: 2^N before the evaluators remembered applications and
# merged linear ones. N = 60 is evaluated simplified, N = 200 as the
# transformation prints it (over the simplifier's size limit). In 64 MiB the
# old evaluators' gradient ran out of memory from N = 16.
nested_closures() {
  local n=$1 k
  {
    echo 'def f (x : real) : real ='
    for ((k = 0; k < n; k++)); do echo "  let g$k = fun (a$k : real) ->"; done
    echo '  x'
    for ((k = n - 1; k >= 0; k--)); do echo "  * a$k in g$k x"; done
  } >"$P"
}
# closures_in_64mib N WANT: grad and jvp of N nested closures at 1.001, fast
# and ref, in a 64 MiB heap; WANT is "value derivative"
closures_in_64mib() {
  local n=$1 want=$2 ev
  nested_closures "$n"
  for ev in fast ref; do
    expect_json "grad of $n nested closures --eval $ev in 64 MiB" '{"value": #, "gradient": [#]}' \
      "$want" 1e-12 "$CHAD" grad "$P" --args '[1.001]' --eval $ev --heap-mb 64
    expect_json "jvp of $n nested closures --eval $ev in 64 MiB" '{"value": #, "tangent": #}' \
      "$want" 1e-12 "$CHAD" jvp "$P" --args '[1.001]' --tangent '[1.0]' --eval $ev --heap-mb 64
  done
}
closures_in_64mib 60 "1.0628665178601044 64.770087501964412"
closures_in_64mib 200 "1.2225019860541817 245.47742177511543"
expect_json "grad of 200 nested closures --eval ball" '{"value": #, "gradient": [#]}' \
  "1.2225019860541817 245.47742177511543" 0 "$CHAD" grad "$P" --args '[1.001]' --eval ball --heap-mb 64

# A chain of 400 lets: the printed raw reverse program nests blocks 400 deep;
# indentation stops at 40 columns (it was 2 per level: 5.8 MB printed, 4.5 MB
# of it spaces; now 2.0 MB), and the printed program parses back and gives
# the gradient (reference: --eval ball).
prev=x
{
  echo 'def f (x : real) : real ='
  for ((k = 0; k < 400; k++)); do echo "  let y$k = $prev * 1.001 in"; prev=y$k; done
  echo "  $prev"
} >"$P"
run "$CHAD" rev --raw "$P"
widest=$(printf '%s\n' "$out" | awk '{ match($0, /^ */); if (RLENGTH > m) m = RLENGTH } END { print m + 0 }')
if [ "$rc" -eq 0 ] && [ "$widest" -eq 40 ] && [ "${#out}" -lt 4000000 ]; then ok "rev --raw of 400 lets: indentation capped at 40"
else bad "rev --raw of 400 lets: indentation capped at 40" "exit $rc, widest indentation $widest, ${#out} bytes"; fi
printf '%s\n%s\n' "$out" 'def g (x : real) = let p = f_rev x in (fst p, snd p <| 1.0)' >"$tmp/rev400.chad"
expect_json "rev --raw of 400 lets parses back and evaluates" '[#, [null, #]]' \
  "1.491526561257343 1.491526561257343" 1e-12 "$CHAD" eval "$tmp/rev400.chad" --args '[1.0]'

# iter's pullback is a chain of n closures, each `ctx <+> previous <| ct`:
# evaluated as nested calls it passed the nesting limit of 100000 at n ~
# 45000 (a C stack overflow before the limit existed). A plus in tail
# position whose right operand ends in a linear application now continues
# with that application in a loop (spec/evaluator.md §4 "Chains of
# pullbacks"), so n = 150000 differentiates in both double evaluators.
# Reference: --eval ball; the double evaluators round n products (relative
# error below n * 2^-53 = 1.7e-11).
printf '%s\n' 'def f (x : real, n : int) : real = iter n (fun (a : real) -> a * x) 1.0' >"$P"
for ev in fast ref; do
  expect_json "grad of iter 150000 --eval $ev: no nesting limit" '{"value": #, "gradient": [#, null]}' \
    "1.0151130638632746 152266.94435279674" 2e-11 "$CHAD" grad "$P" --args '[1.0000001, 150000]' --eval $ev
done

# A chain of closures built by iter, each calling the previous one and then
# multiplying: the application nests (the multiplication waits for it), so
# evaluation depth grows with n. Deep evaluations run on a thread whose stack
# holds the whole nesting limit (10^6 levels by default; --max-depth sets
# it): 400000 levels evaluate, and the gradient of 100000 (about three
# nested calls a level in the pullback) in both double evaluators; past the
# limit, a clean runtime error, never a crash. Reference values: mpmath at 30
# digits on the double nearest 1.0000001 (x^n, and n x^(n-1)); the double
# evaluators round n products (relative error below n * 2^-53).
printf '%s\n' 'def f (x : real, n : int) : real =' \
  '  let g = iter n (fun (h : real -> real) -> fun (y : real) -> h y * x) (fun (y : real) -> y) in g 1.0' >"$P"
expect_json "eval of a chain of 400000 closures" '#' "1.0408107721350746" 5e-11 \
  "$CHAD" eval "$P" --args '[1.0000001, 400000]'
for ev in fast ref; do
  expect_json "grad of a chain of 100000 closures --eval $ev" '{"value": #, "gradient": [#, null]}' \
    "1.0100501665850404 101005.00655800337" 2e-11 "$CHAD" grad "$P" --args '[1.0000001, 100000]' --eval $ev
done
expect_err "eval of a chain of 1100000 closures: the nesting limit, exit 3" 3 \
  'error: .*evaluation nested deeper than the limit of 1000000' "$CHAD" eval "$P" --args '[1.0000001, 1100000]'
expect_err "eval of a chain of 400000 closures --max-depth 100000: the nesting limit, exit 3" 3 \
  'error: .*evaluation nested deeper than the limit of 100000$' "$CHAD" eval "$P" --args '[1.0000001, 400000]' --max-depth 100000
expect_err "grad of a chain of 100 closures --max-depth 50 (below the small-stack attempt): exit 3" 3 \
  'error: .*evaluation nested deeper than the limit of 50$' "$CHAD" grad "$P" --args '[1.0000001, 100]' --max-depth 50
expect_json "grad of a chain of 10 closures --max-depth 50" '{"value": #, "gradient": [#, null]}' \
  "1.0000010000004506 10.000009000003605" 1e-12 "$CHAD" grad "$P" --args '[1.0000001, 10]' --max-depth 50
expect_err "--max-depth 0: a usage error, exit 1" 1 \
  "--max-depth needs a number of levels from 1 to 4000000, not '0'" "$CHAD" eval "$P" --args '[1.0, 1]' --max-depth 0
expect_err "--max-depth past the cap: a usage error, exit 1" 1 \
  "--max-depth needs a number of levels from 1 to 4000000, not '4000001'" "$CHAD" eval "$P" --args '[1.0, 1]' --max-depth 4000001

# A let-bound closure applied inside two nested maps (bench/complexity.sh's
# closmap), 300 x 300 elements: the pullback collects a copower bag of one
# entry per element and folds over it. The fast evaluator compiles bags of
# !Real (x) Real (16 bytes an entry) and the fold; it used to box every
# element's primal, pullback closure and bag entry (1.5 KiB each: out of a
# 32 MiB heap here). Reference: --eval ball; 9e4 rounded terms summed
# (relative error below 1e-11).
printf '%s\n' 'def f (x : real) : real =' \
  '  let g = fun (a : real) -> sin a * a in' \
  '  let v = build 300 (fun (i : int) -> x + toreal i * 0.01) in' \
  '  let m = build (length v) (fun (i : int) -> v) in' \
  '  sum (map (fun (row : [real]) -> sum (map (fun (u : real) -> g u) row)) m)' >"$P"
expect_json "grad of a closure in nested maps, 300 x 300, in 4 MiB" '{"value": #, "gradient": [#]}' \
  "86804.409062807434 -43342.172377079623" 1e-11 "$CHAD" grad "$P" --args '[0.5]' --heap-mb 4
