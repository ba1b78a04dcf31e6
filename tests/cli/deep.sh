# Sourced by tests/cli/run.sh (its helpers, $CHAD, $P and $tmp): programs
# whose evaluation nests deeply. The pullback of a long iter applies 45000
# nested closures: both evaluators answer (a larger stack on a thread, not a
# crash of the caller's) and agree.
prog 'def f (x : real) : real = iter 45000 (fun (a : real) -> a * x) 1.0'
for ev in fast ref; do
  expect_json "grad of iter 45000 --eval $ev: no stack overflow" '{"value": #, "gradient": [#]}' \
    "1.5683086568198721 70573.183825047701" 1e-12 "$CHAD" grad "$P" --args '[1.00001]' --eval $ev
done
prog 'def g (x : real) : real = (iter 45000 (fun (f : real -> real) -> fun (y : real) -> f y + 1.0) (fun (z : real) -> z)) x'
for ev in fast ref; do
  expect_json "eval of a closure chain of 45000 --eval $ev" '#' "45001.5" 1e-15 "$CHAD" eval "$P" --args '[1.5]' --eval $ev
done
