/* ACSL specification of reverse-mode CHAD (reverse.c) and of the parts of
 * types.c / simplify.c it relies on, on top of chad_spec.h (the type
 * translations P, T, C as memo-table characterisations, the environment,
 * the source-term ghost columns). Nothing
 * here redefines P/T/C or a builder contract. For the C compiler this file
 * is only comments and macros used inside annotations.
 */
#ifndef CHAD_REVERSE_SPEC_H
#define CHAD_REVERSE_SPEC_H

#include "chad/kernel.h"
#include "kernel/kernel_spec.h"
#include "chad_internal.h"
#include "chad_spec.h"

/* Neither macro's contract states that de Bruijn lookups in contexts that
 * existed before a call are unchanged (the quantified ctx_lk equation, as
 * the kernel's ctx_extend states it): as a postcondition of every call it
 * put one quantified equation over the recursive ctx_lk per call into each
 * rule's goals, where the solvers looped (rev_pair, fwd_pair). R's and F's
 * functions state env_keep{Pre, Post} instead (below) and get the older
 * context entries unchanged from their assigns clauses; the two places
 * that need lookups across an extension (rev_under, rev_onehot_lin) prove
 * the equation there by a ghost loop, as the kernel's ctx_extend does. */

/*@
  // Appending a binder keeps the type of every older level and gives the
  // new level the appended type (one unfolding of ctx_lk).
  lemma lvl_ty_ext: \forall integer d, e, t, l;
    ctx_inv && 0 <= d < ctx_count && ctx_is_ext(e, d, t) &&
    ctx_len_[e] == ctx_len_[d] + 1 && 0 <= l <= ctx_len_[d] ==>
      lvl_ty(e, l) == (l == ctx_len_[d] ? t : lvl_ty(d, l));

  // The cotangent translations are linear types (they have zero and plus).
  // Not part of chad_spec.h's one-step tr_ok; obtained by induction over the
  // type table in the ghost lemma function cot_lin_lemma (types.c).
  predicate cot_lin =
    (\forall integer t; 0 <= t < CHAD_MAX_TYPES && trh(CHAD_COT, t) ==> lin(trm(CHAD_COT, t))) &&
    (\forall integer g; 0 <= g < CHAD_MAX_CTXS && trch(CHAD_COT, g) ==> lin(trc(CHAD_COT, g)));

  // Between two program points only appends happened to the kernel's
  // tables, and the memo tables, the environment and the ghost columns are
  // untouched: every invariant of the pass carries over (no induction: each
  // is a local property of older entries).
  predicate tables_grow{L1, L2} =
    \at(ty_count, L1) <= \at(ty_count, L2) && \at(tm_count, L1) <= \at(tm_count, L2) &&
    \at(ctx_count, L1) <= \at(ctx_count, L2) &&
    (\forall integer i; 0 <= i < \at(ty_count, L1) ==>
       \at(ty_kind_[i], L1) == \at(ty_kind_[i], L2) && \at(ty_left_[i], L1) == \at(ty_left_[i], L2) &&
       \at(ty_right_[i], L1) == \at(ty_right_[i], L2) && \at(ty_lin_[i], L1) == \at(ty_lin_[i], L2)) &&
    (\forall integer i; 0 <= i < \at(tm_count, L1) ==>
       \at(tm_kind_[i], L1) == \at(tm_kind_[i], L2) && \at(tm_ctx_[i], L1) == \at(tm_ctx_[i], L2) &&
       \at(tm_ty_[i], L1) == \at(tm_ty_[i], L2) && \at(tm_a_[i], L1) == \at(tm_a_[i], L2) &&
       \at(tm_b_[i], L1) == \at(tm_b_[i], L2) && \at(tm_c_[i], L1) == \at(tm_c_[i], L2) &&
       \at(tm_aux_[i], L1) == \at(tm_aux_[i], L2)) &&
    (\forall integer i; 0 <= i < \at(ctx_count, L1) ==>
       \at(ctx_parent_[i], L1) == \at(ctx_parent_[i], L2) &&
       \at(ctx_type_[i], L1) == \at(ctx_type_[i], L2) && \at(ctx_len_[i], L1) == \at(ctx_len_[i], L2));
  predicate side_same{L1, L2} =
    (\forall integer m, t; \at(chad_memo_ty_[m][t], L1) == \at(chad_memo_ty_[m][t], L2)) &&
    (\forall integer m, g; \at(chad_memo_ctx_[m][g], L1) == \at(chad_memo_ctx_[m][g], L2)) &&
    (\forall integer i; \at(chad_tsrc_[i], L1) == \at(chad_tsrc_[i], L2)) &&
    (\forall integer i; \at(chad_csrc_[i], L1) == \at(chad_csrc_[i], L2)) &&
    (\forall integer i; \at(chad_msrc_[i], L1) == \at(chad_msrc_[i], L2)) &&
    (\forall integer i; \at(chad_msz_[i], L1) == \at(chad_msz_[i], L2));

  lemma tr_ok_frame{L1, L2}: \forall integer m, t, x;
    tables_grow{L1, L2} && side_same{L1, L2} && tr_ok{L1}(m, t, x) ==> tr_ok{L2}(m, t, x);
  lemma trc_ok_frame{L1, L2}: \forall integer m, g, x;
    tables_grow{L1, L2} && side_same{L1, L2} && trc_ok{L1}(m, g, x) ==> trc_ok{L2}(m, g, x);
  lemma memo_inv_frame{L1, L2}: tables_grow{L1, L2} && side_same{L1, L2} && memo_inv{L1} ==> memo_inv{L2};
  lemma tsrc_ok_frame{L1, L2}: \forall integer t;
    tables_grow{L1, L2} && side_same{L1, L2} && tsrc_ok{L1}(t) ==> tsrc_ok{L2}(t);
  lemma csrc_ok_frame{L1, L2}: \forall integer g;
    tables_grow{L1, L2} && side_same{L1, L2} && csrc_ok{L1}(g) ==> csrc_ok{L2}(g);
  lemma msrc_ok_frame{L1, L2}: \forall integer u;
    tables_grow{L1, L2} && side_same{L1, L2} && msrc_ok{L1}(u) && msz_ok{L1}(u) ==>
      msrc_ok{L2}(u) && msz_ok{L2}(u);
  lemma csrc_inv_frame{L1, L2}: tables_grow{L1, L2} && side_same{L1, L2} && csrc_inv{L1} ==> csrc_inv{L2};
  lemma msrc_inv_frame{L1, L2}: tables_grow{L1, L2} && side_same{L1, L2} && msrc_inv{L1} ==> msrc_inv{L2};
  lemma cot_lin_frame{L1, L2}: tables_grow{L1, L2} && side_same{L1, L2} && cot_lin{L1} ==> cot_lin{L2};
  // Extending the context table keeps every node well typed.
  predicate ctx_app_frame{L1, L2} =
    tables_grow{L1, L2} &&
    \at(tm_count, L1) == \at(tm_count, L2) && \at(ty_count, L1) == \at(ty_count, L2) &&
    (\forall integer o; \at(op_dom_[o], L1) == \at(op_dom_[o], L2) &&
       \at(op_cod_[o], L1) == \at(op_cod_[o], L2) && \at(op_tdom_[o], L1) == \at(op_tdom_[o], L2) &&
       \at(op_tcod_[o], L1) == \at(op_tcod_[o], L2)) && \at(op_count, L1) == \at(op_count, L2) &&
    (\forall integer h, k; 0 <= h < \at(ctx_count, L1) ==> ctx_lk{L2}(h, k) == ctx_lk{L1}(h, k));
  lemma node_ok_ctx_frame{L1, L2}: \forall integer i;
    ctx_app_frame{L1, L2} && 0 <= i < \at(tm_count, L1) && tm_wf{L1}(i) && node_ok{L1}(i) ==>
      tm_wf{L2}(i) && node_ok{L2}(i);
  // Extending the context table keeps every node well typed.
  lemma tm_inv_ctx_frame{L1, L2}: ctx_app_frame{L1, L2} && tm_inv{L1} ==> tm_inv{L2};

  // Declared after the lemmas above so that their proof contexts (each
  // lemma has those before it as hypotheses) do not grow.
  lemma tsrc_inv_frame{L1, L2}: tables_grow{L1, L2} && side_same{L1, L2} && tsrc_inv{L1} ==> tsrc_inv{L2};
  // The three invariants of the pass together (used after each builder call).
  lemma pass_inv_frame{L1, L2}: tables_grow{L1, L2} && side_same{L1, L2} &&
    memo_inv{L1} && tsrc_inv{L1} && csrc_inv{L1} && msrc_inv{L1} && cot_lin{L1} ==>
    memo_inv{L2} && tsrc_inv{L2} && csrc_inv{L2} && msrc_inv{L2} && cot_lin{L2};
  // P Unit = Unit, P Real = Real, P Int = Int (one step of memo_inv at a
  // base type).
  lemma tr_prev_base{L}: \forall integer t;
    ty_inv && memo_ty_inv && trh(CHAD_PREV, t) &&
    (t == TY_ID_UNIT || t == TY_ID_REAL || t == TY_ID_INT) ==> trm(CHAD_PREV, t) == t;
  // Frames compose (a rule asserts them from one call to the next).
  lemma tables_grow_trans{L1, L2, L3}:
    tables_grow{L1, L2} && tables_grow{L2, L3} ==> tables_grow{L1, L3};
  lemma side_same_trans{L1, L2, L3}:
    side_same{L1, L2} && side_same{L2, L3} ==> side_same{L1, L3};


  // The variable at level l of d is (the translation of) a child: a pair
  // whose second component is a linear map C tau_c -o C G.
  predicate lin_at(integer d, integer l, integer c, integer cg) =
    0 <= l < ctx_len_[d] && ty_valid(lvl_ty(d, l)) && ty_kind_[lvl_ty(d, l)] == TY_PROD &&
    ty_same(ty_right_[lvl_ty(d, l)], TY_LFUN, c, cg);

  // R's result type in P G: P tau * (C tau -o C G)   (rules card §5)
  predicate rev_ty(integer r, integer tau, integer g) =
    ty_valid(r) && trh(CHAD_PREV, tau) && trh(CHAD_COT, tau) && trch(CHAD_COT, g) &&
    ty_kind_[r] == TY_PROD && ty_left_[r] == trm(CHAD_PREV, tau) &&
    ty_same(ty_right_[r], TY_LFUN, trm(CHAD_COT, tau), trc(CHAD_COT, g));

  // Declared after every lemma above, for the same reason.
  // The environment frame of REV_FRAME as one predicate over two states:
  // a rule's frame goal is then literally the frame of its last call (the
  // other calls write nothing env_ok reads) and Qed closes it, where the
  // unfolded form needed a quantifier instance that the solvers did not
  // find among the many states of a rule (rev_const's last goal).
  predicate env_keep{L1, L2} =
    \forall integer m, g, e; env_ok{L1}(m, g, e) ==> env_ok{L2}(m, g, e);
  lemma env_keep_trans{L1, L2, L3}:
    env_keep{L1, L2} && env_keep{L2, L3} ==> env_keep{L1, L3};

  // R under a binder (rev_under) pushes a level, recurses and pops it: the
  // environment is then L1's again (same pointer and frame, same entries
  // below the pointer), and the tables env_ok reads only grew.
  predicate env_same{L1, L2} =
    \at(venv_sp, L1) == \at(venv_sp, L2) && \at(venv_cur, L1) == \at(venv_cur, L2) &&
    \forall integer i; 0 <= i < \at(venv_sp, L1) ==>
      \at(venv_kind_[i], L1) == \at(venv_kind_[i], L2) && \at(venv_val_[i], L1) == \at(venv_val_[i], L2);
  predicate env_tables{L1, L2} =
    \at(ctx_count, L1) <= \at(ctx_count, L2) &&
    (\forall integer h; 0 <= h < \at(ctx_count, L1) ==> \at(ctx_len_[h], L1) == \at(ctx_len_[h], L2)) &&
    (\forall integer h, k; 0 <= h < \at(ctx_count, L1) ==> ctx_lk{L2}(h, k) == ctx_lk{L1}(h, k)) &&
    memo_grows{L1, L2};
*/
/* The lemma that closes rev_under's environment frame. In rev_under the
 * solvers did not find env_keep from env_same and env_tables among the
 * states of the recursion (20 s, all three); as a lemma it is one step. Only
 * the runs that need it see it (prove-rev.sh's "under" and "lemmas" parts
 * define REV_UNDER_LEMMA): loaded as a hypothesis into every goal of
 * reverse.c it made r_onehot's msrc_inv time out (Z3, cvc5 20 s; 1 s
 * without it). */
/* Lemmas for the rules with several recursive calls (REV_RULE_LEMMAS, the
 * runs that prove them): the memo frame composes, and a memoised
 * translation survives it. */
#ifdef REV_RULE_LEMMAS
/*@
  lemma memo_ty_at{L}: \forall integer m, t;
    memo_ty_inv && trh(m, t) ==> tr_ok(m, t, trm(m, t));
  // hash-consing: one (kind, left, right) triple, one type id
  lemma ty_one_id{L}: ty_inv ==> \forall integer x, y, k, l, r;
    ty_valid(x) && ty_valid(y) && ty_same(x, k, l, r) && ty_same(y, k, l, r) ==> x == y;
  // the kernel's tables only grew: an older context extension and an
  // older type node read the same
  lemma ext_keep{L1, L2}: \forall integer e, g, t;
    tables_grow{L1, L2} && ctx_is_ext{L1}(e, g, t) ==> ctx_is_ext{L2}(e, g, t);
  lemma ty_same_keep{L1, L2}: \forall integer x, k, l, r;
    tables_grow{L1, L2} && ty_valid{L1}(x) && ty_same{L1}(x, k, l, r) ==>
      ty_valid{L2}(x) && ty_same{L2}(x, k, l, r);
  lemma memo_grows_trans{L1, L2, L3}:
    memo_grows{L1, L2} && memo_grows{L2, L3} ==> memo_grows{L1, L3};
  lemma memo_grows_trh{L1, L2}: \forall integer m, t;
    memo_grows{L1, L2} && trh{L1}(m, t) ==> trh{L2}(m, t) && trm{L2}(m, t) == trm{L1}(m, t);
  lemma memo_grows_trch{L1, L2}: \forall integer m, g;
    memo_grows{L1, L2} && trch{L1}(m, g) ==> trch{L2}(m, g) && trc{L2}(m, g) == trc{L1}(m, g);
*/
#endif

#ifdef REV_UNDER_LEMMA
/*@
  lemma env_keep_same{L1, L2}: env_same{L1, L2} && env_tables{L1, L2} ==> env_keep{L1, L2};
*/
#endif


/* ---- the contract shape shared by rev and its rule functions ---------- */
/* R adds at most REV_K nodes per unit of source size (CHAD Cor. 7.2) */
#define REV_K 64
#define REV_ASSIGNS assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_TR_CTX_STATE, \
  CH_EXT_STATE, venv_sp, venv_kind_[venv_sp .. CHAD_ENV_CAP - 1], \
  venv_val_[venv_sp .. CHAD_ENV_CAP - 1]
#define REV_INV (kernel_inv && memo_inv && src_inv && cot_lin)
#define REV_PRE0(t) \
  requires REV_INV; \
  requires 0 <= t < tm_count && chad_msrc_[t] == 1
/* rev accepts a failed target context (a capacity error), and returns it */
#define REV_PRE(t, d) REV_PRE0(t); \
  requires d == CHAD_E_CAPACITY || env_ok(CHAD_PREV, tm_ctx_[t], d)
/* the rule functions also get ct = C tau (and cg = C G) computed by rev */
#define RULE_PRE(t, d, K) REV_PRE0(t); \
  requires env_ok(CHAD_PREV, tm_ctx_[t], d); \
  requires K; \
  requires trh(CHAD_PREV, tm_ty_[t]) && trh(CHAD_COT, tm_ty_[t]) && \
    ct == trm(CHAD_COT, tm_ty_[t]) && trch(CHAD_COT, tm_ctx_[t])
#define REV_FRAME \
  ensures REV_INV; \
  ensures memo_grows{Pre, Post}; \
  ensures \old(tm_count) <= tm_count && \old(ty_count) <= ty_count && \
    \old(ctx_count) <= ctx_count; \
  ensures venv_sp == \old(venv_sp) && venv_cur == \old(venv_cur); \
  ensures env_keep{Pre, Post}
#define REV_POST(t, d) REV_FRAME; \
  ensures \result >= 0 ==> \old(tm_count) <= \result < tm_count && \
    tm_ctx_[\result] == d && rev_ty(tm_ty_[\result], \old(tm_ty_[t]), \old(tm_ctx_[t])); \
  ensures \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH; \
  ensures tm_count - \old(tm_count) <= REV_K * chad_msz_[t]

#endif
