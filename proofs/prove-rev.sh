#!/usr/bin/env bash
# Reverse-mode CHAD (src/chad/reverse.c, reverse_spec.h) and the simplifier's
# guarantee (src/chad/simplify.c): reverse mode's proofs, in
# separate Frama-C runs so that the frame lemmas of reverse_spec.h are not
# axioms of the other files' goals. prove.sh runs it as seven jobs (six in the
# quick gate, PROVE_RULES=0, which leaves out rules):
#   prove-rev.sh [fns|cvc5|under|dispatch|rules|lemmas]   (default: all, in sequence)
# fns: the functions below, Z3 first; cvc5: the two where cvc5 first
# costs less (see rev_cvc5_fns); under: rev_under, with the lemma
# env_keep_same (REV_UNDER_LEMMA, see reverse_spec.h); dispatch: R itself
# (rev: the translations, then rev_rule: the rule of the node's kind), with
# the memo-frame lemmas (REV_RULE_LEMMAS); rules: the rules
# (every rule but the leaves'), with the memo-frame lemmas (REV_RULE_LEMMAS);
# lemmas: reverse_spec.h's lemmas, those included.
# Gate: valid == total in each JSON report. See proofs/README.md for what
# is proved and what is only stated.
#   PROVE_CHAD_TIMEOUT per-goal timeout of the full provers (default 30);
#   PROVE_CHAD_PAR -wp-par (default 1); PROVE_CHAD_PROVERS the provers, in
#   the order tried (default z3n,cvc5q,z3,cvc5,cvc4: the quick ones need
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
case $part in all|fns|cvc5|under|dispatch|rules|lemmas) ;; *) echo "usage: $0 [fns|cvc5|under|dispatch|rules|lemmas]" >&2; exit 2 ;; esac
par=${PROVE_CHAD_PAR:-1}   # one prover at a time, quick ones first: see prove.sh
files="src/kernel/terms.c src/kernel/contexts.c src/kernel/types.c src/kernel/ops.c
  src/chad/build.c src/chad/types.c src/chad/sharing.c src/chad/reverse.c src/chad/simplify.c"
# functions proved (their callees' contracts are proved in the main run, or
# declared in proofs/assumed.txt)
rev_fns=k_ext,rev_pair_lin,rev_ext,rev_rconst,r_llam,r_pair
# R(unit | rconst | iconst) and its linear half
rev_fns=$rev_fns,rev_zero_lin,rev_const
# R(var k) = (x, \v. onehot_k v) and its pieces: b_var and the one-hot
# cotangent of the context seen from the pass (chad_onehot_tuple itself, in
# types.c, is proved in prove.sh's job onehot)
rev_fns=$rev_fns,r_var,r_onehot,rev_onehot_lin,rev_var
# the ghost induction rev calls: every memoised cotangent type is linear
rev_fns=$rev_fns,cot_lin_lemma,rev_tr_step,rev_trc_step
# Proved with cvc5 first (run "cvc5"): Z3 ran to its quick limit on 4 and
# 6 of their goals that cvc5 then proved. Prover seconds, 2 s counted for
# each quick attempt run out: 9.6 and 14.9 s Z3 first, 1.3 and 7.2 s cvc5
# first (the whole gate run both ways, proofs/README.md "Provers and settings").
rev_cvc5_fns=chad_simplify,rev_const_prim
# the lemmas of reverse_spec.h
rev_lemmas=lvl_ty_ext,tr_ok_frame,trc_ok_frame,memo_inv_frame,tsrc_ok_frame,csrc_ok_frame
rev_lemmas=$rev_lemmas,msrc_ok_frame,csrc_inv_frame,msrc_inv_frame,cot_lin_frame,node_ok_ctx_frame,tm_inv_ctx_frame
rev_lemmas=$rev_lemmas,tsrc_inv_frame,pass_inv_frame,tables_grow_trans,side_same_trans,tr_prev_base
rev_lemmas=$rev_lemmas,env_keep_trans,env_keep_same
rev_lemmas=$rev_lemmas,ext_keep,ty_same_keep,ty_one_id,memo_ty_at,memo_grows_trans,memo_grows_trh,memo_grows_trch
# R under a binder (push a level, rev, pop)
rev_under_fns=rev_under
# R itself: its contract (REV_POST: type P tau * (C tau -o C G), size,
# error codes, frame) from the rules' contracts. Without the memo-frame
# lemmas 21 of its goals timed out.
rev_dispatch_fns=rev,rev_rule,rev_entry,chad_rev_in,chad_rev
# R(op)'s builder and the ghost lemma that gives it the signature's P and C
rev_dispatch_fns=$rev_dispatch_fns,rev_op_build,fo_tr_lemma,ty_eq_lemma,fo_memo_step
# the one-child rules' tail (sharing.c), which the op builders of both
# modes call: proved here, in both gates, so that check-calls finds it
# in the quick gate too
rev_dispatch_fns=$rev_dispatch_fns,let_unary_tail
# R(pair a b), the first rule with two recursive calls, and its builder
# tail (proofs/README.md "Where each rule lives"); split at its second
# recursive call into rev_pair_body (R b and after)
rev_rule_fns=let_pair_tail,rev_pair_body,rev_pair
# R(let a (x. b)): R a, R_{G,x} b under the binder (rev_under), its linear
# half (rev_let_lin) and its builder tail (let_let_tail, sharing.c); split
# at its second recursive call into rev_let_body (R_{G,x} b and after)
rev_rule_fns=$rev_rule_fns,let_let_tail,rev_let_lin,rev_let_body,rev_let
# R(index a b): R a, then (one recursive call per function) R b and the
# rest in rev_index_body, its linear half \v. snd p (onehot (fst q) v)
# and the builder tail let_index_tail (sharing.c, shared with F(index))
rev_rule_fns=$rev_rule_fns,let_index_tail,rev_index_lin,rev_index_body,rev_index
# R(app a b): R a, then R b and the rest in rev_app_body, the primal
# r = fst p (fst q) (app_primal) and the linear half
# \v. snd p (cp_single (fst q) v) + snd q (snd r v); app_primal and the
# tail let_app_tail (sharing.c) are shared with F(app)
rev_rule_fns=$rev_rule_fns,app_primal,let_app_tail,rev_app_lin,rev_app_body,rev_app
# R's one-child rules (fst, snd, sum, length, op, inl, inr): R a and the
# extension in rev_unary, the rest in one builder per kind; the tail
# let_unary_tail (sharing.c, shared with F) is proved in the dispatch run
rev_rule_fns=$rev_rule_fns,rev_proj_build,rev_sum_build,rev_length_build,rev_inj_build,rev_unary
# R(case a b c): R a and the extension in rev_case, the left branch in
# rev_case_body, the right one in rev_case_last (one recursive call per
# function); each branch (rev_case_branch: R under the binder, then its
# linear half rev_case_lin); the tail case_tail (sharing.c) is shared with F
rev_rule_fns=$rev_rule_fns,case_tail,rev_case_lin,rev_case_branch,rev_case_last,rev_case_body,rev_case
# R(iter a (x. b) c): R a and the extension in rev_iter, R c and the
# iteration's contexts in rev_iter_body, R b under its binder and the rest
# in rev_iter_last (one recursive call per function); the linear half is
# rev_let_lin's (with the state s in the place of p) and the tail
# iter_tail (sharing.c) is shared with F
rev_rule_fns=$rev_rule_fns,iter_tail,rev_iter_last,rev_iter_body,rev_iter
# R(loop a (x. b) c): as R(iter), the round's answer cased on in
# rev_loop_case, one branch each in rev_loop_branch; the tail loop_tail
# (sharing.c) is shared with F
rev_rule_fns=$rev_rule_fns,loop_tail,rev_loop_branch,rev_loop_case,rev_loop_last,rev_loop_body,rev_loop
# R(build a (i. b)): R a and the extensions (pn, m, the binder i) in
# rev_build, R b and the rest in rev_build_body (one recursive call per
# function), its linear half rev_build_lin; the primal build_primal and
# the tail let_build_tail (sharing.c) are shared with F
rev_rule_fns=$rev_rule_fns,build_primal,let_build_tail,rev_build_lin,rev_build_body,rev_build
# R(map (x. a) b): R b and the extensions (p, y = fst p, the binder x) in
# rev_map, R a and the rest in rev_map_body (one recursive call per
# function), its linear half rev_map_lin with its parts (the elements'
# cotangents rev_map_cs; rev_map_plus, the sum of their context part
# rev_map_sum and of their array part through R b's linear half
# rev_map_back); the primal map_primal and the tail let_build_tail
# (sharing.c) are shared with F
rev_rule_fns=$rev_rule_fns,map_primal,rev_map_cs,rev_map_sum,rev_map_back,rev_map_plus,rev_map_lin,rev_map_body,rev_map
# R(lam (x. a)): R a under the binder and f = \x. q in rev_lam (its one
# recursive call); the primal rev_lam_prim (its body rev_lam_pbody, the
# linear part rev_lam_inner), the linear half rev_lam_lin (the fold's body
# rev_lam_back); sharing.c's lam_apply (f x) and lam_pair_let
# (let r in (fst r, inner)) are shared with F
rev_rule_fns=$rev_rule_fns,lam_apply,lam_pair_let,rev_lam_inner,rev_lam_pbody,rev_lam_prim,rev_lam_back,rev_lam_lin,rev_lam
# One prover at a time per goal, quick ones first (see prove.sh's
# "Provers"): on these files' goals one of Z3 and cvc5 often needs 15-30 s
# or times out where the other answers in under a second (f_const_prim's
# 38 goals: 40 s with Z3 alone, minutes with cvc5 alone), which the quick
# provers' 2 s limit turns into a 2 s detour.
provers=${PROVE_CHAD_PROVERS:-z3n,cvc5q,z3,cvc5,cvc4}
lemma_tmo=${PROVE_LEMMA_TIMEOUT:-60}
# PART|DEFINES|PROVERS|TIMEOUT|PAR|SELECTION (report proofs/wp-report-rev-PART.json)
runs=(
  "fns||$provers|$timeout|$par|-wp-fct $rev_fns"
  "cvc5||cvc5q,z3q,cvc5,z3,cvc4|$timeout|$par|-wp-fct $rev_cvc5_fns"
  "under|-DREV_UNDER_LEMMA|$provers|$timeout|$par|-wp-fct $rev_under_fns"
  "dispatch|-DREV_RULE_LEMMAS|$provers|$timeout|$par|-wp-fct $rev_dispatch_fns"
  "rules|-DREV_RULE_LEMMAS|$provers|$timeout|$par|-wp-fct $rev_rule_fns"
  "lemmas|-DREV_UNDER_LEMMA -DREV_RULE_LEMMAS|z3,cvc5,cvc4|$lemma_tmo|3|-wp-prop $rev_lemmas"
)
status=0
for run in "${runs[@]}"; do
  IFS='|' read -r name defs prv tmo wpar sel <<<"$run"
  if [ "$part" = all ] || [ "$part" = "$name" ]; then
    # shellcheck disable=SC2086
    WP_CPP_DEFS=$defs WP_PROVERS=$prv WP_TIMEOUT=$tmo WP_PAR=$wpar \
      proofs/wp-run.sh "rev-$name" "proofs/wp-report-rev-$name.json" $sel $files || status=1
  fi
done
exit $status
