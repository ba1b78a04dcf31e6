#!/usr/bin/env bash
# Reverse-mode CHAD (src/chad/reverse.c, reverse_spec.h) and the simplifier's
# guarantee (src/chad/simplify.c): the proved part of issue #5's R, in
# separate Frama-C runs so that the frame lemmas of reverse_spec.h are not
# axioms of the other files' goals. prove.sh runs it as four jobs:
#   prove-rev.sh [fns|cvc5|under|lemmas]   (default: all four, in sequence)
# fns: the functions below, Z3 first; cvc5: the two where cvc5 first
# costs less (see rev_cvc5_fns); under: rev_under, with the lemma
# env_keep_same (REV_UNDER_LEMMA, see reverse_spec.h); lemmas:
# reverse_spec.h's lemmas, that one included.
# Gate: valid == total in each JSON report. See proofs/README.md for what
# is proved and what is only stated.
#   PROVE_CHAD_TIMEOUT per-goal timeout of the full provers (default 30);
#   PROVE_CHAD_PAR -wp-par (default 1); PROVE_CHAD_PROVERS the provers, in
#   the order tried (default z3q,cvc5q,z3,cvc5,cvc4: the quick ones need
#   the Why3 configuration prove.sh writes, which wp-run.sh finds);
#   PROVE_LEMMA_TIMEOUT the lemma run's timeout (default 60).
# Each run is one proofs/wp-run.sh call.
set -euo pipefail
cd "$(dirname "$0")/.."
# The CHAD rule goals are the slowest of the gate and run while other
# frama-c jobs compete for the 2 cores; cvc5's and Z3's limits are wall-clock, so
# at 10 s two goals (r_llam's assert_5, f_const_prim's assert_8: 3 s alone)
# failed in a full run. 30 s here; prove.sh's own jobs keep 20 s.
timeout=${PROVE_CHAD_TIMEOUT:-30}
part=${1:-all}
case $part in all|fns|cvc5|under|lemmas) ;; *) echo "usage: $0 [fns|cvc5|under|lemmas]" >&2; exit 2 ;; esac
par=${PROVE_CHAD_PAR:-1}   # one prover at a time, quick ones first: see prove.sh
files="src/kernel/terms.c src/kernel/contexts.c src/kernel/types.c src/kernel/ops.c
  src/chad/build.c src/chad/types.c src/chad/reverse.c src/chad/simplify.c"
# functions proved (their callees' contracts are proved in the main run, or
# listed as assumed in proofs/README.md)
rev_fns=k_ext,rev_pair_lin,rev_ext,rev_rconst,r_llam,r_pair
# R(unit | rconst | iconst) and its linear half
rev_fns=$rev_fns,rev_zero_lin,rev_const
# R(var k) = (x, \v. onehot_k v) and its pieces: b_var and the one-hot
# cotangent of the context seen from the pass (chad_onehot_tuple itself, in
# types.c, is proved in prove.sh's job onehot)
rev_fns=$rev_fns,r_var,r_onehot,rev_onehot_lin,rev_var
# Proved with cvc5 first (run "cvc5"): Z3 ran to its quick limit on 4 and
# 6 of their goals that cvc5 then proved. Prover seconds, 2 s counted for
# each quick attempt run out: 9.6 and 14.9 s Z3 first, 1.3 and 7.2 s cvc5
# first (the whole gate run both ways, proofs/README.md "Provers").
rev_cvc5_fns=chad_simplify,rev_const_prim
# the lemmas of reverse_spec.h
rev_lemmas=lvl_ty_ext,tr_ok_frame,trc_ok_frame,memo_inv_frame,tsrc_ok_frame,csrc_ok_frame
rev_lemmas=$rev_lemmas,msrc_ok_frame,csrc_inv_frame,msrc_inv_frame,cot_lin_frame,node_ok_ctx_frame,tm_inv_ctx_frame
rev_lemmas=$rev_lemmas,tsrc_inv_frame,pass_inv_frame,tables_grow_trans,side_same_trans,tr_prev_base
rev_lemmas=$rev_lemmas,env_keep_trans,env_keep_same
# R under a binder (push a level, rev, pop)
rev_under_fns=rev_under
# One prover at a time per goal, quick ones first (see prove.sh's
# "Provers"): on these files' goals one of Z3 and cvc5 often needs 15-30 s
# or times out where the other answers in under a second (f_const_prim's
# 38 goals: 40 s with Z3 alone, minutes with cvc5 alone), which the quick
# provers' 2 s limit turns into a 2 s detour.
provers=${PROVE_CHAD_PROVERS:-z3q,cvc5q,z3,cvc5,cvc4}
status=0
if [ "$part" = all ] || [ "$part" = fns ]; then
  WP_PROVERS=$provers WP_TIMEOUT=$timeout WP_PAR=$par \
    proofs/wp-run.sh rev-fns proofs/wp-report-rev-fns.json -wp-fct "$rev_fns" $files || status=1
fi
if [ "$part" = all ] || [ "$part" = cvc5 ]; then
  WP_PROVERS=cvc5q,z3q,cvc5,z3,cvc4 WP_TIMEOUT=$timeout WP_PAR=$par \
    proofs/wp-run.sh rev-cvc5 proofs/wp-report-rev-cvc5.json -wp-fct "$rev_cvc5_fns" $files || status=1
fi
if [ "$part" = all ] || [ "$part" = under ]; then
  WP_CPP_DEFS=-DREV_UNDER_LEMMA WP_PROVERS=$provers WP_TIMEOUT=$timeout WP_PAR=$par \
    proofs/wp-run.sh rev-under proofs/wp-report-rev-under.json -wp-fct "$rev_under_fns" $files || status=1
fi
# The lemma run lets the three full provers race on each lemma (-wp-par 3:
# WP starts every prover of -wp-prover at once and keeps the first answer):
# some lemmas only Z3 or CVC4 prove, some only cvc5; in sequence each cost
# a full timeout first (17 lemmas: 24 s cold racing, 93 s in sequence).
# 60 s: node_ok_ctx_frame takes CVC4 5.8 s alone, and failed at 20 s with
# all three provers in a full four-lane run (load 5); the lemma run is
# short, so the margin costs nothing unless a lemma is really lost.
if [ "$part" = all ] || [ "$part" = lemmas ]; then
  WP_CPP_DEFS=-DREV_UNDER_LEMMA WP_PROVERS=z3,cvc5,cvc4 WP_TIMEOUT=${PROVE_LEMMA_TIMEOUT:-60} WP_PAR=3 \
    proofs/wp-run.sh rev-lemmas proofs/wp-report-rev-lemmas.json -wp-prop "$rev_lemmas" $files || status=1
fi
exit $status
