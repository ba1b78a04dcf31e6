# Sourced by tests/cli/run.sh (its helpers, $CHAD, $P and $tmp): programs
# long rather than deep (spec/surface.md section 5, limits). A chain of lets
# and a chain of defs, each calling the one before, differentiate at a size
# that runs in seconds; their printed derivatives keep their indentation
# capped; past each limit, a clean error with its exit code. References: the
# certified evaluator (--eval ball); the double evaluators agree to 1e-12
# (n rounded products).

# SIZE_LETS lets y_k = y_{k-1} * 1.0001 after x = v[0] + 1.0001:
# f v = (v[0] + 1.0001) * 1.0001^n
gen_lets() {
  local n=$1 k prev=x
  echo 'def f (v : [real]) : real ='
  echo '  let x = v[0] + 1.0001 in'
  for ((k = 0; k < n; k++)); do echo "  let y$k = $prev * 1.0001 in"; prev=y$k; done
  echo "  $prev"
}
# n defs f_k x = f_{k-1} x * 1.0001: f_{n-1} x = x * 1.0001^n
gen_defs() {
  local n=$1 k
  echo 'def f0 (x : real) : real = x * 1.0001'
  for ((k = 1; k < n; k++)); do echo "def f$k (x : real) : real = f$((k - 1)) x * 1.0001"; done
}

# grad (both double evaluators) and jvp of the chain in $P against the
# certified value and derivative: chain_ad WHAT GRAD-PATTERN ARG TANGENT EXPECTED
chain_ad() {
  local what=$1 pat=$2 arg=$3 tan=$4 want=$5 ev
  for ev in fast ref; do
    expect_json "grad of a chain of $what --eval $ev" "{\"value\": #, \"gradient\": $pat}" \
      "$want" 1e-12 "$CHAD" grad "$P" --args "$arg" --eval $ev
  done
  expect_json "jvp of a chain of $what" '{"value": #, "tangent": #}' \
    "$want" 1e-12 "$CHAD" jvp "$P" --args "$arg" --tangent "$tan"
}

gen_lets 1000 >"$P"
chain_ad "1000 lets" '[[#]]' '[[0.5]]' '[[1.0]]' "1.6578586054440911 1.1051653926032206"
# the printed derivatives: every line indented at most INDENT_MAX (40) columns
for cmd in rev fwd; do
  run "$CHAD" "$cmd" "$P"
  ind=$(printf '%s\n' "$out" | awk '{ match($0, /^ */); if (RLENGTH > m) m = RLENGTH } END { print m + 0 }')
  lets=$(printf '%s\n' "$out" | grep -c '^ *let ')
  if [ "$rc" -eq 0 ] && [ -z "$err" ] && [ "$ind" -le 40 ] && [ "$lets" -ge 1000 ]; then
    ok "$cmd of a chain of 1000 lets: $lets lets, indentation at most 40 ($ind)"
  else bad "$cmd of a chain of 1000 lets" "exit $rc, indentation $ind, $lets lets" "stderr: $err"; fi
done

# ... and each large context type once, under a type name (spec/surface.md
# §6): at most 600 bytes a let (4.7 MB for rev when printed in full)
for cmd in rev fwd; do
  run "$CHAD" "$cmd" "$P"
  names=$(printf '%s\n' "$out" | grep -c '^def type f_'"$cmd"'_T[0-9]* = ')
  if [ "$rc" -eq 0 ] && [ "${#out}" -le 600000 ] && [ "$names" -ge 100 ]; then
    ok "$cmd of a chain of 1000 lets: ${#out} bytes, $names type names"
  else bad "$cmd of a chain of 1000 lets: size" "exit $rc, ${#out} bytes, $names type names"; fi
done
# and the named types parse back: chad rev's program evaluates to chad vjp
gen_lets 300 >"$P"
"$CHAD" rev "$P" >"$tmp/chain_rev.chad" 2>/dev/null
printf '%s\n' 'def vjp (v : [real]) = let p = f_rev v in (fst p, snd (snd p <| 1.0) <+> [0.0])' >>"$tmp/chain_rev.chad"
run "$CHAD" vjp "$P" --args '[[0.5]]' --cotangent '1.0'
want=$(printf '%s' "$out" | grep -oE -- "$NUM" | tr '\n' ' ')
run "$CHAD" eval "$tmp/chain_rev.chad" --fn vjp --args '[[0.5]]'
got=$(printf '%s' "$out" | grep -oE -- "$NUM" | tr '\n' ' ')
if [ "$rc" -eq 0 ] && [ -n "$want" ] && [ "$want" = "$got" ] && grep -q '^def type ' "$tmp/chain_rev.chad"; then
  ok "rev of 300 lets, type names and all, parsed back and run = chad vjp"
else bad "rev of 300 lets parsed back = chad vjp" "eval (exit $rc): $got" "vjp: $want"; fi

gen_defs 1000 >"$P"
chain_ad "1000 defs" '[#]' '[0.5]' '[1.0]' "0.55258269630161028 1.1051653926032206"

# ---- limits: clean errors, no crash --------------------------------------
# defs per file: SURF_MAX_DEFS (1048576), at the first def past it
awk 'BEGIN { for (i = 0; i <= 1048576; i++) printf "def d%d = 0\n", i }' >"$P"
expect_err "defs past the limit of a file: exit 2 at the def" 2 \
  "^$P:1048577:1: error: too many defs in one file \(limit 1048576\)$" "$CHAD" check "$P"
# a chain of defs longer than the checker's nesting limit (each def's term
# binds the defs it uses in nested lets): exit 2, not a stack overflow
gen_defs "${SIZE_DEEP_DEFS:-20000}" >"$P"
expect_err "a chain of ${SIZE_DEEP_DEFS:-20000} defs past the checker's limit: exit 2" 2 \
  "error: expression nested too deeply for the checker \(limit [0-9]+\)$" "$CHAD" grad "$P" --args '[0.5]'
# a chain of lets whose reverse derivative needs more types than the kernel's
# table holds (CHAD_MAX_TYPES): exit 3, the arena named
gen_lets "${SIZE_FULL_LETS:-3000}" >"$P"
expect_err "grad of ${SIZE_FULL_LETS:-3000} lets past the type table: exit 3" 3 \
  "error: reverse mode transformation failed: an arena is full" "$CHAD" grad "$P" --args '[[0.5]]'
# chad check types each def's body once, with the defs it uses as typed
# variables (surf_elab_def_sig): linear in the program, and no deeper than
# one def, where each def's term with the defs it uses let-bound is
# quadratic in a chain and nests past the checker's limit (above).
gen_defs 20000 >"$P"
run "$CHAD" check "$P"
nl=$(printf '%s\n' "$out" | grep -c ' : real -> real$')
last=$(printf '%s\n' "$out" | tail -n1)
if [ "$rc" -eq 0 ] && [ -z "$err" ] && [ "$nl" -eq 20000 ] && [ "$last" = "f19999 : real -> real" ]; then
  ok "check of a chain of 20000 defs: every def typed"
else bad "check of a chain of 20000 defs" "exit $rc, $nl typed lines, last '$last'" "stderr: $err"; fi
# Each def's terms are dropped once its type is known: 12,000 defs of about
# 100 distinct terms each (1.2 million, past a term arena of 2^20) check.
awk 'BEGIN { for (i = 0; i < 12000; i++) { b = "x"; for (j = 0; j < 25; j++) b = b " * " (i * 100 + j) ".5 + x"
             printf "def f%d (x : real) : real = %s\n", i, b } }' >"$P"
run "$CHAD" check "$P"
nl=$(printf '%s\n' "$out" | grep -c ' : real -> real$')
if [ "$rc" -eq 0 ] && [ -z "$err" ] && [ "$nl" -eq 12000 ]; then
  ok "check of 12000 defs of 100 terms each: every def typed"
else bad "check of 12000 defs of 100 terms each" "exit $rc, $nl typed lines" "stderr: $err"; fi
# The types it gives are those of each def elaborated whole, with the defs
# it uses (check --inline; lang.sh compares the examples the same way):
# defs used as values, partly applied and returned in tuples.
printf '%s\n' 'def twice (g : real -> real, x : real) : real = g (g x)' \
  'def sq (x : real) : real = x * x' 'def h = twice sq' 'def c = 3.0' \
  'def k (x : real) = x * c' 'def p (v : [real]) = (h v[0], map sq v, k)' \
  'def q (v : [real]) = let (a, b, f) = p v in f a + b[0]' >"$P"
run "$CHAD" check "$P"
lin=$out lrc=$rc
run "$CHAD" check --inline "$P"
if [ "$lrc" -eq 0 ] && [ "$rc" -eq 0 ] && [ -n "$lin" ] && [ "$lin" = "$out" ]; then
  ok "check of higher-order defs: the same types as check --inline"
else bad "check of higher-order defs: the same types as check --inline" "exit $lrc and $rc" \
  "$(diff <(echo "$lin") <(echo "$out") | head -n3)"; fi
