#!/usr/bin/env bash
# Reverse-mode CHAD (src/chad/reverse.c, reverse_spec.h) and the simplifier's
# guarantee (src/chad/simplify.c): the proved part of issue #5's R, run by
# prove.sh in a lane of its own, in separate Frama-C runs so that the frame
# lemmas of reverse_spec.h are not axioms of the other files' goals.
# Gate: valid == total in each JSON report. See proofs/README.md for what
# is proved and what is only stated.
#   PROVE_CHAD_TIMEOUT per-goal timeout (default 30); PROVE_JOBS as in
#   prove.sh; WHY3CONFIG set by prove.sh;
#   PROVE_LEMMA_TIMEOUT the lemma run's timeout (default 20).
set -euo pipefail
cd "$(dirname "$0")/.."
# The CHAD rule goals are the slowest of the gate and run while four other
# lanes compete for the 2 cores; cvc5's and Z3's limits are wall-clock, so
# at 10 s two goals (r_llam's assert_5, f_const_prim's assert_8: 3 s alone)
# failed in a full run. 30 s here; the kernel lanes keep prove.sh's 10 s.
timeout=${PROVE_CHAD_TIMEOUT:-30}
jobs=${PROVE_JOBS:-2}
export OCAMLRUNPARAM=${OCAMLRUNPARAM:-s=8M,o=200}   # see prove.sh
out=build/proofs
mkdir -p "$out"
files="src/kernel/terms.c src/kernel/contexts.c src/kernel/types.c src/kernel/ops.c
  src/chad/build.c src/chad/types.c src/chad/reverse.c src/chad/simplify.c"
# functions proved (their callees' contracts are proved in the main run, or
# listed as assumed in proofs/README.md)
rev_fns=k_ext,rev_pair_lin,chad_simplify,rev_ext,rev_rconst,rev_const_prim,r_llam,r_pair
# R(unit | rconst | iconst) and its linear half
rev_fns=$rev_fns,rev_zero_lin,rev_const
# R(var)'s pieces: b_var seen from the pass. Not in the gate (see
# proofs/README.md): the one-hot cotangent of the context chad_onehot_tuple
# (140/140 on branch chadrev, but its helpers cot_memo_ctx, cot_memo_ty
# have two overflow goals, entry - 1, unproved), r_onehot, rev_onehot_lin,
# rev_var.
rev_fns=$rev_fns,r_var
# the lemmas of reverse_spec.h
rev_lemmas=lvl_ty_ext,tr_ok_frame,trc_ok_frame,memo_inv_frame,tsrc_ok_frame,csrc_ok_frame
rev_lemmas=$rev_lemmas,msrc_ok_frame,csrc_inv_frame,msrc_inv_frame,cot_lin_frame,node_ok_ctx_frame,tm_inv_ctx_frame
rev_lemmas=$rev_lemmas,tsrc_inv_frame,pass_inv_frame,tables_grow_trans,side_same_trans,tr_prev_base
rev_lemmas=$rev_lemmas,env_keep_trans
status=0
for part in fns lemmas; do
  report=proofs/wp-report-rev-$part.json
  rm -f "$report"
  if [ $part = fns ]; then sel=(-wp-fct "$rev_fns"); else sel=(-wp-prop "$rev_lemmas"); fi
  start=$(date +%s)
  # The lemma run lets the three provers race on each lemma (-wp-par 3: WP
  # starts every prover of -wp-prover at once and keeps the first answer):
  # four lemmas are proved by Z3 or CVC4 in under 5 s after cvc5 gives up,
  # and in sequence each cost a full cvc5 timeout first. 17 lemmas: 24 s
  # cold alone, against 93 s in sequence; the timeout leaves room for load.
  t=$timeout par=$jobs
  if [ $part = lemmas ]; then t=${PROVE_LEMMA_TIMEOUT:-20}; par=3; fi
  echo "prove-rev: frama-c -wp ${sel[*]}; log in $out/wp-rev-$part.log"
  # shellcheck disable=SC2086
  frama-c -cpp-extra-args="-Iinclude -Isrc -D_POSIX_C_SOURCE=200809L" \
    -wp -wp-rte -warn-unsigned-overflow -warn-unsigned-downcast \
    -wp-prover cvc5,z3,cvc4 -wp-timeout "$t" -wp-par "$par" -wp-no-pruning \
    "${sel[@]}" -wp-session proofs/wp-session-rev -wp-report-json "$report" \
    $files > "$out/wp-rev-$part.log" 2>&1 || true
  grep -E '\[Failed\]|\[Unknown\]|\[Timeout\]|User Error|aborted' "$out/wp-rev-$part.log" || true
  end=$(date +%s)
  if [ ! -s "$report" ]; then
    echo "prove-rev: frama-c failed without a report; see $out/wp-rev-$part.log" >&2
    status=1
    continue
  fi
  python3 - "$report" "$((end - start))" "$part" <<'PY' || status=1
import json, sys
main = json.load(open(sys.argv[1]))["wp:global"]["wp:main"]
valid, total = int(main.get("valid", 0)), int(main.get("total", 0))
print(f"prove-rev ({sys.argv[3]}): proved {valid}/{total} goals in {sys.argv[2]} s")
sys.exit(0 if total > 0 and valid == total else 1)
PY
done
exit $status
