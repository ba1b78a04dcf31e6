/* ACSL specification of the CHAD transformation (src/chad/; Frama-C/WP, see
 * proofs/README.md and spec/chad.md). For the C compiler this file is only
 * comments and a few macros used inside annotations.
 *
 * Style (as in src/kernel/kernel_spec.h): every table is characterised
 * LOCALLY, one entry against entries at smaller indices, so that appending
 * to the kernel's tables (types, contexts, terms) keeps every fact about
 * older entries without induction.
 *
 *  - The type translations P_fwd, T, P_rev, C (rules card §3) are the memo
 *    tables of types.c: chad_memo_ty_[m][t] == s + 1 means "s is the mode-m
 *    translation of t", and the invariant memo_inv says that every filled
 *    entry satisfies ONE step of §3 (tr_ok), its components being the
 *    (filled) memo entries of t's children. By induction on t (children have
 *    smaller ids) this is exactly the recursive definition of §3; the
 *    induction is never needed by a proof, only the one step.
 *  - Contexts likewise (chad_memo_ctx_, trc_ok): P G pointwise, T G and C G
 *    nested pairs following the snoc list, T () = C () = Unit.
 *  - The variable environment of build.c maps source de Bruijn index k to a
 *    target level (env_val) and env_ok relates it to the contexts.
 *  - Source-ness of types/contexts/terms and the size of a source term are
 *    ghost columns (chad_tsrc_, chad_csrc_, chad_msrc_, chad_msz_) computed
 *    by a ghost loop at the entry points (types.c's chad_src_columns), each entry checked
 *    locally against its children (src_inv); the loop also proves
 *    chad_msz_[u] == tsize(u) for the recursive logic function tsize.
 */
#ifndef CHAD_CHAD_SPEC_H
#define CHAD_CHAD_SPEC_H

#include "chad/chad.h"
#include "chad/kernel.h"
#include "kernel/kernel_spec.h"
#include "chad_internal.h"

/* ---- annotation macros (mirror the kernel's in terms.c) ---------------- */
#define CH_TM_LOCS tm_count, tm_kind_[tm_count], tm_ctx_[tm_count], tm_ty_[tm_count], \
  tm_a_[tm_count], tm_b_[tm_count], tm_c_[tm_count], tm_aux_[tm_count], tm_rval_[tm_count]
#define CH_TY_LOCS ty_count, ty_kind_[ty_count], ty_left_[ty_count], ty_right_[ty_count], \
  ty_lin_[ty_count], ty_tan_[ty_count]
#define CH_CTX_LOCS ctx_count, ctx_parent_[ctx_count], ctx_type_[ctx_count], ctx_len_[ctx_count]
/* any number of appends above index n (n: the count before them) */
#define CH_TYS_FROM(n) ty_count, ty_kind_[(n) .. CHAD_MAX_TYPES - 1], \
  ty_left_[(n) .. CHAD_MAX_TYPES - 1], ty_right_[(n) .. CHAD_MAX_TYPES - 1], \
  ty_lin_[(n) .. CHAD_MAX_TYPES - 1], ty_tan_[(n) .. CHAD_MAX_TYPES - 1]
#define CH_CTXS_FROM(n) ctx_count, ctx_parent_[(n) .. CHAD_MAX_CTXS - 1], \
  ctx_type_[(n) .. CHAD_MAX_CTXS - 1], ctx_len_[(n) .. CHAD_MAX_CTXS - 1]
#define CH_TMS_FROM(n) tm_count, tm_kind_[(n) .. CHAD_MAX_TERMS - 1], \
  tm_ctx_[(n) .. CHAD_MAX_TERMS - 1], tm_ty_[(n) .. CHAD_MAX_TERMS - 1], \
  tm_a_[(n) .. CHAD_MAX_TERMS - 1], tm_b_[(n) .. CHAD_MAX_TERMS - 1], \
  tm_c_[(n) .. CHAD_MAX_TERMS - 1], tm_aux_[(n) .. CHAD_MAX_TERMS - 1], \
  tm_rval_[(n) .. CHAD_MAX_TERMS - 1]
/* in a function's assigns clause (locations are read in the pre-state) */
#define CH_TYS_LOCS CH_TYS_FROM(ty_count)
#define CH_CTXS_LOCS CH_CTXS_FROM(ctx_count)
#define CH_TMS_LOCS CH_TMS_FROM(tm_count)
/* the node appended by a successful constructor */
#define CH_NEW(k, g_, a_, b_, c_, x_) (\result == \old(tm_count) && \
  tm_count == \old(tm_count) + 1 && tm_kind_[\result] == (k) && tm_ctx_[\result] == (g_) && \
  tm_a_[\result] == (a_) && tm_b_[\result] == (b_) && tm_c_[\result] == (c_) && \
  tm_aux_[\result] == (x_))
/* a failed call appends nothing */
#define CH_UNCHANGED (\result < 0 ==> tm_count == \old(tm_count) && ty_count == \old(ty_count))
#define CH_GROW1 (\old(tm_count) <= tm_count <= \old(tm_count) + 1)
/* all arguments were valid nodes: only capacity can fail (or the rule) */

/* private state of types.c and build.c, named here so that contracts in
 * every chad file can list it in assigns clauses */
#define CHAD_EXT_CACHE (1 << 16)
extern int chad_chain_[CHAD_MAX_CTXS];
extern int chad_size_stack_[CHAD_MAX_TERMS];   /* chad_term_size's walk (build.c) */
#define CHAD_SIZE_STACK chad_size_stack_[0 .. CHAD_MAX_TERMS - 1]
extern int chad_ext_d_[CHAD_EXT_CACHE], chad_ext_t_[CHAD_EXT_CACHE],
  chad_ext_r_[CHAD_EXT_CACHE];
/* the memo tables, row by row: WP checks an inclusion in a union of 1-D
 * ranges without quantifiers, while the 2-D range
 * chad_memo_ty_[0 .. 3][0 .. N-1] gives an existential goal the provers
 * time out on */
#define CH_MEMO_TY chad_memo_ty_[0][0 .. CHAD_MAX_TYPES - 1], chad_memo_ty_[1][0 .. CHAD_MAX_TYPES - 1], \
  chad_memo_ty_[2][0 .. CHAD_MAX_TYPES - 1], chad_memo_ty_[3][0 .. CHAD_MAX_TYPES - 1]
#define CH_MEMO_CTX chad_memo_ctx_[0][0 .. CHAD_MAX_CTXS - 1], chad_memo_ctx_[1][0 .. CHAD_MAX_CTXS - 1], \
  chad_memo_ctx_[2][0 .. CHAD_MAX_CTXS - 1], chad_memo_ctx_[3][0 .. CHAD_MAX_CTXS - 1]
/* everything a type translation may write besides the type table */
#define CH_TR_TY_STATE CH_MEMO_TY
#define CH_TR_CTX_STATE CH_TR_TY_STATE, CH_MEMO_CTX, chad_chain_[0 .. CHAD_MAX_CTXS - 1]
#define CH_EXT_STATE chad_ext_d_[0 .. CHAD_EXT_CACHE - 1], chad_ext_t_[0 .. CHAD_EXT_CACHE - 1], \
  chad_ext_r_[0 .. CHAD_EXT_CACHE - 1]

/* ghost columns over the kernel's tables, filled at the entry points */
/*@ ghost extern int chad_tsrc_[CHAD_MAX_TYPES]; */
/*@ ghost extern int chad_csrc_[CHAD_MAX_CTXS]; */
/*@ ghost extern int chad_msrc_[CHAD_MAX_TERMS]; */
/*@ ghost extern int chad_msz_[CHAD_MAX_TERMS]; */

/*@
  // ======================= modes ========================================
  predicate mode_ok(integer m) = 0 <= m <= 3;
  // the (co)tangent modes build linear types: Int |-> Unit, a+b |-> a*b
  predicate mlin(integer m) = m == CHAD_TAN || m == CHAD_COT;
  // the primal mode and the linear mode that go together with m
  logic integer pmode(integer m) = (m == CHAD_PFWD || m == CHAD_TAN) ? CHAD_PFWD : CHAD_PREV;
  logic integer dmode(integer m) = (m == CHAD_PFWD || m == CHAD_TAN) ? CHAD_TAN : CHAD_COT;

  // ======================= type translations (card §3) ==================
  // trh(m, t): the mode-m translation of t is known; trm(m, t): it.
  predicate trh(integer m, integer t) =
    mode_ok(m) && 0 <= t < CHAD_MAX_TYPES && chad_memo_ty_[m][t] != 0;
  logic integer trm(integer m, integer t) = chad_memo_ty_[m][t] - 1;

  // One step of §3: s is the mode-m translation of t, given the memoised
  // translations of t's children.
  predicate tr_ok(integer m, integer t, integer s) =
    mode_ok(m) && 0 <= t < ty_count && 0 <= s < ty_count &&
    // P Real = T Real = C Real = Real
    (ty_kind_[t] == TY_REAL ==> s == TY_ID_REAL) &&
    // P Int = Int,   T Int = C Int = Unit
    (ty_kind_[t] == TY_INT ==> s == ((m == CHAD_TAN || m == CHAD_COT) ? TY_ID_UNIT : TY_ID_INT)) &&
    // P Unit = T Unit = C Unit = Unit
    (ty_kind_[t] == TY_UNIT ==> s == TY_ID_UNIT) &&
    // X(a*b) = Xa * Xb
    (ty_kind_[t] == TY_PROD ==> trh(m, ty_left_[t]) && trh(m, ty_right_[t]) &&
       ty_same(s, TY_PROD, trm(m, ty_left_[t]), trm(m, ty_right_[t]))) &&
    // P(a+b) = Pa + Pb,   T(a+b) = Ta * Tb,   C(a+b) = Ca * Cb
    (ty_kind_[t] == TY_SUM ==> trh(m, ty_left_[t]) && trh(m, ty_right_[t]) &&
       ty_same(s, (m == CHAD_TAN || m == CHAD_COT) ? TY_PROD : TY_SUM, trm(m, ty_left_[t]), trm(m, ty_right_[t]))) &&
    // X(Arr a) = Arr Xa
    (ty_kind_[t] == TY_ARR ==> trh(m, ty_left_[t]) &&
       ty_same(s, TY_ARR, trm(m, ty_left_[t]), -1)) &&
    (ty_kind_[t] == TY_FUN ==>
       trh(pmode(m), ty_left_[t]) &&
       // T(a->b) = P_fwd a -> Tb   (power)
       (m == CHAD_TAN ==> trh(CHAD_TAN, ty_right_[t]) &&
          ty_same(s, TY_FUN, trm(CHAD_PFWD, ty_left_[t]), trm(CHAD_TAN, ty_right_[t]))) &&
       // C(a->b) = !P_rev a (x) Cb   (copower)
       (m == CHAD_COT ==> trh(CHAD_COT, ty_right_[t]) &&
          ty_same(s, TY_COPOW, trm(CHAD_PREV, ty_left_[t]), trm(CHAD_COT, ty_right_[t]))) &&
       // P_fwd(a->b) = P_fwd a -> P_fwd b * (Ta -o Tb)
       // P_rev(a->b) = P_rev a -> P_rev b * (Cb -o Ca)
       (!mlin(m) ==> trh(m, ty_right_[t]) &&
          trh(dmode(m), ty_left_[t]) && trh(dmode(m), ty_right_[t]) &&
          ty_kind_[s] == TY_FUN && ty_left_[s] == trm(m, ty_left_[t]) &&
          0 <= ty_right_[s] < s &&
          ty_kind_[ty_right_[s]] == TY_PROD &&
          ty_left_[ty_right_[s]] == trm(m, ty_right_[t]) &&
          0 <= ty_right_[ty_right_[s]] < ty_right_[s] &&
          (m == CHAD_PFWD ==>
             ty_same(ty_right_[ty_right_[s]], TY_LFUN,
                     trm(CHAD_TAN, ty_left_[t]), trm(CHAD_TAN, ty_right_[t]))) &&
          (m == CHAD_PREV ==>
             ty_same(ty_right_[ty_right_[s]], TY_LFUN,
                     trm(CHAD_COT, ty_right_[t]), trm(CHAD_COT, ty_left_[t]))))) &&
    // -o and copowers are not source types: never translated
    ty_kind_[t] != TY_LFUN && ty_kind_[t] != TY_COPOW;

  predicate memo_ty_inv =
    \forall integer m, t; mode_ok(m) && 0 <= t < CHAD_MAX_TYPES &&
      chad_memo_ty_[m][t] != 0 ==> tr_ok(m, t, chad_memo_ty_[m][t] - 1);

  // ======================= context translations =========================
  // trc(m, g): P G (a context) for the primal modes, T G / C G (a type) for
  // the linear modes. T () = C () = Unit and P () = ().
  predicate trch(integer m, integer g) =
    mode_ok(m) && (g == CTX_EMPTY || (0 < g < CHAD_MAX_CTXS && chad_memo_ctx_[m][g] != 0));
  logic integer trc(integer m, integer g) =
    g == CTX_EMPTY ? ((m == CHAD_TAN || m == CHAD_COT) ? TY_ID_UNIT : CTX_EMPTY) : chad_memo_ctx_[m][g] - 1;

  // One step: P (G, a) = (P G, P a);  T (G, a) = T G * T a;  C alike.
  predicate trc_ok(integer m, integer g, integer s) =
    mode_ok(m) && 0 < g < ctx_count &&
    trch(m, ctx_parent_[g]) && trh(m, ctx_type_[g]) &&
    (mlin(m) ==> ty_valid(s) &&
       ty_same(s, TY_PROD, trc(m, ctx_parent_[g]), trm(m, ctx_type_[g]))) &&
    (!mlin(m) ==> ctx_is_ext(s, trc(m, ctx_parent_[g]), trm(m, ctx_type_[g])) &&
       ctx_len_[s] == ctx_len_[g]);

  predicate memo_ctx_inv =
    \forall integer m, g; mode_ok(m) && 0 < g < CHAD_MAX_CTXS &&
      chad_memo_ctx_[m][g] != 0 ==> trc_ok(m, g, chad_memo_ctx_[m][g] - 1);

  predicate memo_inv = memo_ty_inv && memo_ctx_inv;

  // A filled entry never changes (the memo tables only grow within a pass).
  predicate memo_grows{L1, L2} =
    (\forall integer m, t; mode_ok(m) && 0 <= t < CHAD_MAX_TYPES &&
       \at(chad_memo_ty_[m][t], L1) != 0 ==>
       \at(chad_memo_ty_[m][t], L2) == \at(chad_memo_ty_[m][t], L1)) &&
    (\forall integer m, g; mode_ok(m) && 0 < g < CHAD_MAX_CTXS &&
       \at(chad_memo_ctx_[m][g], L1) != 0 ==>
       \at(chad_memo_ctx_[m][g], L2) == \at(chad_memo_ctx_[m][g], L1));

  // ======================= levels =======================================
  // The type of the variable at level l (counted from the outermost entry)
  // of target context d.
  logic integer lvl_ty(integer d, integer l) = ctx_lk(d, ctx_len_[d] - 1 - l);

  // ======================= variable environment (build.c) ===============
  predicate venv_wf =
    0 <= venv_cur.base <= venv_sp <= CHAD_ENV_CAP && venv_cur.idlen >= 0;
  logic integer env_n = venv_sp - venv_cur.base;          // pushed entries
  logic integer env_kind(integer k) =
    k < env_n ? venv_kind_[venv_sp - 1 - k] : ENV_LEVEL;
  logic integer env_val(integer k) =
    k < env_n ? venv_val_[venv_sp - 1 - k] : venv_cur.idlen - 1 - (k - env_n);

  // Source context g, target context d, primal mode m (CHAD_PFWD for F,
  // CHAD_PREV for R): every source variable k of g is a level of d whose
  // type is the primal translation of k's type.
  predicate env_ok(integer m, integer g, integer d) =
    venv_wf && ctx_valid(g) && ctx_valid(d) &&
    \forall integer k; 0 <= k < ctx_len_[g] ==>
      env_kind(k) == ENV_LEVEL && 0 <= env_val(k) < ctx_len_[d] &&
      trh(m, ctx_lk(g, k)) && lvl_ty(d, env_val(k)) == trm(m, ctx_lk(g, k));

*/
#ifdef CHAD_SPEC_LEMMAS
/*@
  // ======================= helper lemmas (no induction) =================
  // hash-consing: one triple, one id
  lemma ty_same_eq{L}: ty_inv ==> \forall integer x, y, k, l, r;
    ty_valid(x) && ty_valid(y) && ty_same(x, k, l, r) && ty_same(y, k, l, r) ==> x == y;
  // extending a target context keeps the types at the old levels
  lemma lvl_ty_ext{L}: \forall integer e, l;
    0 < e < ctx_count && 0 <= ctx_parent_[e] < e &&
    ctx_len_[e] == ctx_len_[ctx_parent_[e]] + 1 && 0 <= l < ctx_len_[ctx_parent_[e]] ==>
    lvl_ty(e, l) == lvl_ty(ctx_parent_[e], l);
  // the new level is the new entry
  lemma lvl_ty_top{L}: \forall integer e;
    0 < e < ctx_count && 0 <= ctx_parent_[e] < e &&
    ctx_len_[e] == ctx_len_[ctx_parent_[e]] + 1 ==>
    lvl_ty(e, ctx_len_[ctx_parent_[e]]) == ctx_type_[e];
  lemma env_ok_ext{L}: \forall integer m, g, e;
    0 < e < ctx_count && 0 <= ctx_parent_[e] < e &&
    ctx_len_[e] == ctx_len_[ctx_parent_[e]] + 1 && env_ok(m, g, ctx_parent_[e]) ==>
    env_ok(m, g, e);

  // ---- frames: appending to the kernel's tables keeps the memo meaning ----
  predicate ty_agree{L1, L2} =
    \at(ty_count, L1) <= \at(ty_count, L2) &&
    \forall integer i; 0 <= i < \at(ty_count, L1) ==>
      \at(ty_kind_[i], L1) == \at(ty_kind_[i], L2) &&
      \at(ty_left_[i], L1) == \at(ty_left_[i], L2) &&
      \at(ty_right_[i], L1) == \at(ty_right_[i], L2);
  predicate ctx_agree{L1, L2} =
    \at(ctx_count, L1) <= \at(ctx_count, L2) &&
    \forall integer i; 0 <= i < \at(ctx_count, L1) ==>
      \at(ctx_parent_[i], L1) == \at(ctx_parent_[i], L2) &&
      \at(ctx_type_[i], L1) == \at(ctx_type_[i], L2) &&
      \at(ctx_len_[i], L1) == \at(ctx_len_[i], L2);
  predicate memo_same{L1, L2} =
    (\forall integer m, t; \at(chad_memo_ty_[m][t], L1) == \at(chad_memo_ty_[m][t], L2)) &&
    (\forall integer m, g; \at(chad_memo_ctx_[m][g], L1) == \at(chad_memo_ctx_[m][g], L2));

  lemma tr_ok_frame{L1, L2}: \forall integer m, t, s;
    ty_agree{L1, L2} && memo_same{L1, L2} && tr_ok{L1}(m, t, s) ==> tr_ok{L2}(m, t, s);
  lemma memo_ty_frame{L1, L2}:
    ty_agree{L1, L2} && memo_same{L1, L2} && memo_ty_inv{L1} ==> memo_ty_inv{L2};
  lemma trc_ok_frame{L1, L2}: \forall integer m, g, s;
    ty_agree{L1, L2} && ctx_agree{L1, L2} && memo_same{L1, L2} && trc_ok{L1}(m, g, s) ==>
    trc_ok{L2}(m, g, s);
  lemma memo_ctx_frame{L1, L2}:
    ty_agree{L1, L2} && ctx_agree{L1, L2} && memo_same{L1, L2} && memo_ctx_inv{L1} ==>
    memo_ctx_inv{L2};

*/
#endif
/*@
  // ======================= F's result type (card §4) ====================
  // s = P tau * (T G -o T tau) for a source term G |- t : tau
  predicate fwd_ty(integer s, integer g, integer tau) =
    ty_valid(s) && trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau) && trch(CHAD_TAN, g) &&
    ty_kind_[s] == TY_PROD && ty_left_[s] == trm(CHAD_PFWD, tau) &&
    0 <= ty_right_[s] < s &&
    ty_same(ty_right_[s], TY_LFUN, trc(CHAD_TAN, g), trm(CHAD_TAN, tau));

  // ======================= source terms (ghost columns) =================
  predicate src_kind(integer k) = TM_VAR <= k <= TM_SUM;
  // a source type: no -o or copower inside
  predicate tsrc_ok(integer t) =
    0 <= t < ty_count && ty_kind_[t] != TY_LFUN && ty_kind_[t] != TY_COPOW &&
    ((0 <= ty_left_[t] < t) ==> chad_tsrc_[ty_left_[t]] == 1) &&
    ((0 <= ty_right_[t] < t) ==> chad_tsrc_[ty_right_[t]] == 1);
  predicate csrc_ok(integer g) =
    0 <= g < ctx_count &&
    (g != CTX_EMPTY ==> chad_csrc_[ctx_parent_[g]] == 1 && chad_tsrc_[ctx_type_[g]] == 1);
  // a source term: source kinds, source types and contexts, source children
  predicate msrc_ok(integer u) =
    0 <= u < tm_count && src_kind(tm_kind_[u]) &&
    chad_tsrc_[tm_ty_[u]] == 1 && chad_csrc_[tm_ctx_[u]] == 1 &&
    (0 <= tm_a_[u] ==> chad_msrc_[tm_a_[u]] == 1) &&
    (0 <= tm_b_[u] ==> chad_msrc_[tm_b_[u]] == 1) &&
    (0 <= tm_c_[u] ==> chad_msrc_[tm_c_[u]] == 1);

  // Size of a source term (shared subterms counted per use, as the macro
  // translates them per use). A variable with de Bruijn index k counts
  // k + 1: its tangent projection walks k + 1 levels of the tuple T G.
  logic integer tsize(integer u) =
    u < 0 ? 0 :
    tm_kind_[u] == TM_VAR ? tm_aux_[u] + 1 :
    1 + (0 <= tm_a_[u] < u ? tsize(tm_a_[u]) : 0)
      + (0 <= tm_b_[u] < u ? tsize(tm_b_[u]) : 0)
      + (0 <= tm_c_[u] < u ? tsize(tm_c_[u]) : 0);

  // The ghost size column: one step of tsize, saturated at CHAD_MAX_TERMS
  // (beyond it the arena cannot grow enough for the bound to matter).
  logic integer sat(integer x) = x < CHAD_MAX_TERMS ? x : CHAD_MAX_TERMS;
  predicate msz_ok(integer u) =
    0 <= u < tm_count && 1 <= chad_msz_[u] <= CHAD_MAX_TERMS &&
    chad_msz_[u] == sat(tm_kind_[u] == TM_VAR ? tm_aux_[u] + 1 :
      1 + (0 <= tm_a_[u] ? chad_msz_[tm_a_[u]] : 0)
        + (0 <= tm_b_[u] ? chad_msz_[tm_b_[u]] : 0)
        + (0 <= tm_c_[u] ? chad_msz_[tm_c_[u]] : 0));

  predicate tsrc_inv =
    \forall integer t; 0 <= t < CHAD_MAX_TYPES && chad_tsrc_[t] == 1 ==> tsrc_ok(t);
  predicate csrc_inv =
    \forall integer g; 0 <= g < CHAD_MAX_CTXS && chad_csrc_[g] == 1 ==> csrc_ok(g);
  predicate msrc_inv =
    \forall integer u; 0 <= u < CHAD_MAX_TERMS && chad_msrc_[u] == 1 ==>
       msrc_ok(u) && msz_ok(u);
  predicate src_inv = tsrc_inv && csrc_inv && msrc_inv;

*/
#ifdef CHAD_SPEC_LEMMAS
/*@
  predicate tm_agree{L1, L2} =
    \at(tm_count, L1) <= \at(tm_count, L2) &&
    \forall integer i; 0 <= i < \at(tm_count, L1) ==>
      \at(tm_kind_[i], L1) == \at(tm_kind_[i], L2) &&
      \at(tm_ctx_[i], L1) == \at(tm_ctx_[i], L2) &&
      \at(tm_ty_[i], L1) == \at(tm_ty_[i], L2) &&
      \at(tm_a_[i], L1) == \at(tm_a_[i], L2) &&
      \at(tm_b_[i], L1) == \at(tm_b_[i], L2) &&
      \at(tm_c_[i], L1) == \at(tm_c_[i], L2) &&
      \at(tm_aux_[i], L1) == \at(tm_aux_[i], L2);
  predicate src_same{L1, L2} =
    (\forall integer i; \at(chad_tsrc_[i], L1) == \at(chad_tsrc_[i], L2)) &&
    (\forall integer i; \at(chad_csrc_[i], L1) == \at(chad_csrc_[i], L2)) &&
    (\forall integer i; \at(chad_msrc_[i], L1) == \at(chad_msrc_[i], L2)) &&
    (\forall integer i; \at(chad_msz_[i], L1) == \at(chad_msz_[i], L2));
  lemma tsrc_frame{L1, L2}:
    ty_agree{L1, L2} && src_same{L1, L2} && tsrc_inv{L1} ==> tsrc_inv{L2};
  lemma csrc_frame{L1, L2}:
    ctx_agree{L1, L2} && src_same{L1, L2} && csrc_inv{L1} ==> csrc_inv{L2};
  lemma msrc_frame{L1, L2}:
    tm_agree{L1, L2} && src_same{L1, L2} && msrc_inv{L1} ==> msrc_inv{L2};


*/
#endif
/*@
  // The recursive definitions the ghost columns compute (types.c's
  // chad_src_columns proves chad_tsrc_[t] == 1 <==> ty_srcr(t), etc.).
  predicate ty_srcr(integer t) =
    0 <= t < ty_count && ty_kind_[t] != TY_LFUN && ty_kind_[t] != TY_COPOW &&
    (0 <= ty_left_[t] < t ==> ty_srcr(ty_left_[t])) &&
    (0 <= ty_right_[t] < t ==> ty_srcr(ty_right_[t]));
  predicate ctx_srcr(integer g) =
    0 <= g < ctx_count &&
    (g != CTX_EMPTY ==> 0 <= ctx_parent_[g] < g && ctx_srcr(ctx_parent_[g]) &&
       ty_srcr(ctx_type_[g]));
  // t is a term of the source language (card §1): the precondition of F
  predicate tm_srcr(integer u) =
    0 <= u < tm_count && src_kind(tm_kind_[u]) &&
    ty_srcr(tm_ty_[u]) && ctx_srcr(tm_ctx_[u]) &&
    (0 <= tm_a_[u] < u ==> tm_srcr(tm_a_[u])) &&
    (0 <= tm_b_[u] < u ==> tm_srcr(tm_b_[u])) &&
    (0 <= tm_c_[u] < u ==> tm_srcr(tm_c_[u]));
*/
/* types.c's ghost lemma: variable k of P G is P of variable k of G */
/*@ ghost void trc_lookup_lemma(int m, int g); */

#endif
