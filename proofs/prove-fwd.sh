#!/usr/bin/env bash
# Forward-mode CHAD (src/chad/forward.c): forward mode's proofs,
# in separate Frama-C runs so that the frame lemmas of
# src/chad/reverse_spec.h are not axioms of the other files' goals (they
# are proved in prove-rev.sh's lemma run). prove.sh runs it as five jobs
# (four in the quick gate, PROVE_RULES=0, which leaves out rules):
#   prove-fwd.sh [fns|cvc5|under|dispatch|rules]   (default: all, in sequence)
# fns: the functions below, Z3 first; cvc5: the two where cvc5 first
# costs less (see fwd_cvc5_fns); under: fwd_under, with the lemma
# env_keep_same (REV_UNDER_LEMMA, as prove-rev.sh's under); dispatch: F itself (fwd: the
# translations, then fwd_rule: the rule of the node's kind); rules: the
# rules (every rule but the leaves'), with reverse_spec.h's memo-frame lemmas
# (REV_RULE_LEMMAS).
# Gate: valid == total in each JSON report. See proofs/README.md for what
# is proved and what is only stated.
#   PROVE_CHAD_TIMEOUT, PROVE_CHAD_PAR, PROVE_CHAD_PROVERS,
#   as in prove-rev.sh.
# Each run is one proofs/wp-run.sh call.
set -euo pipefail
cd "$(dirname "$0")/.."
# The CHAD rule goals are the slowest of the gate and run while other
# frama-c jobs compete for the 2 cores; cvc5's and Z3's limits are wall-clock, so
# at 10 s two goals (r_llam's assert_5, f_const_prim's assert_8: 3 s alone)
# failed in a full run. 30 s here; prove.sh's own jobs keep 20 s.
timeout=${PROVE_CHAD_TIMEOUT:-30}
part=${1:-all}
case $part in all|fns|cvc5|under|dispatch|rules) ;; *) echo "usage: $0 [fns|cvc5|under|dispatch|rules]" >&2; exit 2 ;; esac
par=${PROVE_CHAD_PAR:-1}   # one prover at a time, quick ones first: see prove.sh
files="src/kernel/terms.c src/kernel/contexts.c src/kernel/types.c src/kernel/ops.c
  src/chad/build.c src/chad/types.c src/chad/sharing.c src/chad/forward.c"
# functions proved: the pass wrappers of forward.c, the ghost lemma function
# tan_lin_lemma, the rules below (their callees' contracts are proved here or
# in the main run, or declared in proofs/assumed.txt)
fwd_fns=tyof,tan_lin_lemma
fwd_fns=$fwd_fns,f_ext,f_var,f_proj,f_llam,f_pair,f_zero,f_rconst,f_const_prim
fwd_fns=$fwd_fns,fwd_var,fwd_const,f_sub
# Proved with cvc5 first (run "cvc5"): Z3 ran to its quick limit on 6 and
# 2 of their goals that cvc5 then proved. Prover seconds, 2 s counted for
# each quick attempt run out: 15.4 and 4.3 s Z3 first, 7.9 and 0.3 s cvc5
# first (see prove-rev.sh).
fwd_cvc5_fns=const_copy,tr_step,trc_step
# F under a binder (push a level, fwd, pop), as rev_under
fwd_under_fns=fwd_under
# F itself: its contract (FWD_ENS: type P tau * (T G -o T tau), size,
# error codes, frame) from the rules' contracts
fwd_dispatch_fns=fwd,fwd_rule,fwd_entry,chad_fwd_in,chad_fwd
# F(op)'s builder (its lemma fo_tr_lemma, sharing.c, is proved in prove-rev.sh)
fwd_dispatch_fns=$fwd_dispatch_fns,fwd_op_build
# F(pair a b), F's first rule with two recursive calls, and its builder
# tail (proofs/README.md "Where each rule lives"); split at its second
# recursive call into fwd_pair_body (F b and after)
fwd_rule_fns=fwd_pair_lin,fwd_pair_body,fwd_pair
# F(let a (x. b)): the rule up to F a and the binder's extension, its
# second half from F_{G,x} b on (one recursive call per function) and the
# linear half; the tail is sharing.c's let_let_tail (shared with R(let),
# proved in prove-rev.sh's rules)
fwd_rule_fns=$fwd_rule_fns,fwd_let_lin,fwd_let_body,fwd_let
# F(index a b): F a, then F b and the rest in fwd_index_body, the linear
# half \v. (snd p v)[fst q]; the tail is sharing.c's let_index_tail
# (shared with R(index), proved in prove-rev.sh's rules)
fwd_rule_fns=$fwd_rule_fns,fwd_index_lin,fwd_index_body,fwd_index
# F(app a b): F a, then F b and the rest in fwd_app_body, the linear half
# \v. (snd p v) (fst q) + snd r (snd q v); the primal r = fst p (fst q)
# and the tail are sharing.c's app_primal and let_app_tail (shared with
# R(app), proved in prove-rev.sh's rules)
fwd_rule_fns=$fwd_rule_fns,fwd_app_lin,fwd_app_body,fwd_app
# F's one-child rules: F a and the extension in fwd_unary, the rest in
# one builder per kind (the tail let_unary_tail, sharing.c, proved in
# prove-rev.sh's dispatch run); fwd_op_build is proved in the dispatch run
fwd_rule_fns=$fwd_rule_fns,fwd_proj_build,fwd_sum_build,fwd_length_build,fwd_inj_build,fwd_unary
# F(case a b c): F a and the extension in fwd_case, the left branch in
# fwd_case_body, the right one in fwd_case_last (one recursive call per
# function); each branch (fwd_case_branch: F under the binder, then its
# linear half fwd_case_lin); the tail case_tail (sharing.c, shared with
# R(case), proved in prove-rev.sh's rules)
fwd_rule_fns=$fwd_rule_fns,fwd_case_lin,fwd_case_branch,fwd_case_last,fwd_case_body,fwd_case
# F(iter a (x. b) c): F a and the extension in fwd_iter, F c and the
# iteration's contexts in fwd_iter_body, F b under its binder and the rest
# in fwd_iter_last (one recursive call per function); the linear half is
# fwd_let_lin's (with the state s in the place of p) and the tail
# iter_tail (sharing.c, shared with R(iter), proved in prove-rev.sh's rules)
fwd_rule_fns=$fwd_rule_fns,fwd_iter_last,fwd_iter_body,fwd_iter
# F(loop a (x. b) c): as F(iter), the round's answer cased on in
# fwd_loop_case (let l = the linear map of the round; one branch each,
# fwd_loop_branch), the tail loop_tail (sharing.c, shared with R(loop),
# proved in prove-rev.sh's rules)
fwd_rule_fns=$fwd_rule_fns,fwd_loop_branch,fwd_loop_case,fwd_loop_last,fwd_loop_body,fwd_loop
# F(build a (i. b)): F a and the extensions (pn, m, the binder i) in
# fwd_build, F b and the rest in fwd_build_body (one recursive call per
# function), its linear half fwd_build_lin; the primal build_primal and
# the tail let_build_tail (sharing.c, shared with R(build), proved in
# prove-rev.sh's rules)
fwd_rule_fns=$fwd_rule_fns,fwd_build_lin,fwd_build_body,fwd_build
# F(map (x. a) b): F b and the extensions (p, y = fst p, the binder x) in
# fwd_map, F a and the rest in fwd_map_body (one recursive call per
# function), its linear half fwd_map_lin with the element's tangent
# fwd_map_el; the primal map_primal and the tail let_build_tail
# (sharing.c, shared with R(map), proved in prove-rev.sh's rules)
fwd_rule_fns=$fwd_rule_fns,fwd_map_el,fwd_map_lin,fwd_map_body,fwd_map
# F(lam (x. a)): F a under the binder and f = \x. q in fwd_lam (its one
# recursive call); the primal fwd_lam_prim (its body fwd_lam_pbody, the
# linear part fwd_lam_inner), the linear half fwd_lam_tan (the tangent at
# one point fwd_lam_dv); lam_apply and lam_pair_let (sharing.c, shared
# with R(lam), proved in prove-rev.sh's rules); the ghost lemma function
# tan_lin_ctx_lemma (every memoised T G is linear: the zero of T G in the
# primal's linear part) is called by fwd_lam only
fwd_rule_fns=$fwd_rule_fns,tan_lin_ctx_lemma,fwd_lam_inner,fwd_lam_pbody,fwd_lam_prim,fwd_lam_dv,fwd_lam_tan,fwd_lam
provers=${PROVE_CHAD_PROVERS:-z3n,cvc5q,z3,cvc5,cvc4}   # see prove-rev.sh
status=0
if [ "$part" = all ] || [ "$part" = fns ]; then
  WP_PROVERS=$provers WP_TIMEOUT=$timeout WP_PAR=$par \
    proofs/wp-run.sh fwd-fns proofs/wp-report-fwd-fns.json -wp-fct "$fwd_fns" $files || status=1
fi
if [ "$part" = all ] || [ "$part" = cvc5 ]; then
  WP_PROVERS=cvc5q,z3q,cvc5,z3,cvc4 WP_TIMEOUT=$timeout WP_PAR=$par \
    proofs/wp-run.sh fwd-cvc5 proofs/wp-report-fwd-cvc5.json -wp-fct "$fwd_cvc5_fns" $files || status=1
fi
if [ "$part" = all ] || [ "$part" = under ]; then
  WP_CPP_DEFS=-DREV_UNDER_LEMMA WP_PROVERS=$provers WP_TIMEOUT=$timeout WP_PAR=$par \
    proofs/wp-run.sh fwd-under proofs/wp-report-fwd-under.json -wp-fct "$fwd_under_fns" $files || status=1
fi
if [ "$part" = all ] || [ "$part" = dispatch ]; then
  WP_PROVERS=$provers WP_TIMEOUT=$timeout WP_PAR=$par \
    proofs/wp-run.sh fwd-dispatch proofs/wp-report-fwd-dispatch.json -wp-fct "$fwd_dispatch_fns" $files || status=1
fi
if [ "$part" = all ] || [ "$part" = rules ]; then
  WP_CPP_DEFS=-DREV_RULE_LEMMAS WP_PROVERS=$provers WP_TIMEOUT=$timeout WP_PAR=$par \
    proofs/wp-run.sh fwd-rules proofs/wp-report-fwd-rules.json -wp-fct "$fwd_rule_fns" $files || status=1
fi
exit $status
