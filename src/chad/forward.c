/* Forward-mode CHAD (rules card §4): F(t) for G |- t : tau is a term in
 * P G of type P tau * (T G -o T tau).
 *
 * Sharing (card §6): every subterm's translation is emitted exactly once and
 * let-bound (`let p = F t in ...`); its primal (fst p) and its linear map
 * (snd p) are projections of that one variable. Subterms are translated
 * straight into the target context that the surrounding binders create: the
 * environment (chad_internal.h) maps each source variable to its level there.
 *
 * Variables are referred to by level: V(d, l) is the variable at level l of
 * target context d; L(d) is the level the next binder of d gets. */
#include "chad/chad.h"
#include "chad/kernel.h"
#include "chad_internal.h"
#include "chad_spec.h"
#include "reverse_spec.h"

#define V(d, l) b_var((d), (l))
#define L(d) b_lvl(d)

/* The size bound of Cor. 7.2: F(t) adds at most FWD_K * tsize(t) nodes.
 * The largest per-node cost is case's (4 nodes + 15 per branch); a
 * variable with index k costs k + 5 nodes for its weight k + 1. */
#define FWD_K 34

/* Recursion measures (WP `decreases`): fwd(t, d, x) calls fwd_rule with
 * the same x, which calls the rule of t's kind with the same x; a rule
 * calls f_sub and fwd_under with x + 1 (or its *_body with x, which does);
 * F(case)'s fwd_case_body and fwd_case_last call fwd_case_branch with
 * x + 1, which calls fwd_under with x + 2. With the offsets fwd 0,
 * fwd_rule -1, rule -2, *_body -3, fwd_case_last -4, f_sub and fwd_under
 * +1, fwd_case_branch 0 the measure decreases on every edge of the call
 * graph. */
#define FWD_M(x) (5 * (CHAD_MAX_DEPTH + 2 - (x)))

/* ---- the contract of F, shared by fwd and its per-kind helpers ----------
 * t: a source node (kind, type and context source, children too), d: the
 * target context, env_ok: every source variable of t's context G is a
 * level of d holding its primal. On success: a node of d of type
 * P tau * (T G -o T tau) (fwd_ty, chad_spec.h); on failure only capacity or
 * depth; at most FWD_K * tsize(t) nodes appended. */
#define FWD_REQ \
  requires kernel_inv && memo_inv && src_inv; \
  requires 0 <= t < tm_count && chad_msrc_[t] == 1; \
  requires 0 <= depth
/* the helpers get a valid target context; fwd also a failed one */
#define FWD_ENV requires env_ok(CHAD_PFWD, tm_ctx_[t], d)
#define FWD_TG requires trch(CHAD_TAN, tm_ctx_[t]) && tg == trc(CHAD_TAN, tm_ctx_[t]) && \
  ty_valid(tg) && trh(CHAD_PFWD, tm_ty_[t]) && trh(CHAD_TAN, tm_ty_[t])
#define FWD_ASSIGNS \
  assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_TR_CTX_STATE, CH_EXT_STATE, venv_sp, \
    venv_kind_[venv_sp .. CHAD_ENV_CAP - 1], venv_val_[venv_sp .. CHAD_ENV_CAP - 1]
#define FWD_ENS \
  ensures kernel_inv && memo_inv && src_inv && venv_wf; \
  ensures venv_sp == \old(venv_sp) && venv_cur == \old(venv_cur); \
  ensures memo_grows{Pre, Post}; \
  ensures \old(tm_count) <= tm_count && \old(ty_count) <= ty_count && \
    \old(ctx_count) <= ctx_count; \
  ensures env_keep{Pre, Post}; \
  ensures fwd_size: tm_count - \old(tm_count) <= FWD_K * chad_msz_[t]; \
  ensures fwd_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH; \
  ensures fwd_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d && \
    fwd_ty(tm_ty_[\result], tm_ctx_[t], tm_ty_[t])

/* ---- the pass seen from F: builders that keep F's invariant --------------
 * FWD_INV is the invariant every rule keeps (kernel, memo tables, ghost
 * source columns). The builders of build.c keep kernel_inv only; each
 * wrapper below is a builder plus the frame of the other invariants over
 * its append, proved once here with the frame lemmas of reverse_spec.h
 * (tables_grow / side_same), so that the rules never need a frame. */
#define FWD_INV (kernel_inv && memo_inv && src_inv)
#define F_OKCAP (\result >= 0 || \result == CHAD_E_CAPACITY)
/* the common part of a term builder's contract, seen from the pass */
#define F_TM_POST ensures FWD_INV; ensures CH_UNCHANGED; ensures CH_GROW1; \
  ensures \old(ty_count) <= ty_count

/*@
  // Every memoised tangent translation is a linear type (it has zero and
  // plus). Not part of the one-step tr_ok; obtained by induction over the
  // type table in the ghost lemma function tan_lin_lemma.
  predicate tan_lin = \forall integer t; 0 <= t < CHAD_MAX_TYPES && trh(CHAD_TAN, t) ==>
    lin(trm(CHAD_TAN, t));
*/

/* One step of memo_inv at a given entry, as a call: the solvers did not
 * find the instance of the quantified invariant at a constant mode (the
 * assertion tr_ok(CHAD_TAN, i, ...) timed out), while the postcondition of
 * a call is substituted, not instantiated. */
/*@ ghost
  /@ requires memo_ty_inv && mode_ok(m) && 0 <= t < CHAD_MAX_TYPES && chad_memo_ty_[m][t] != 0;
     terminates \true;
     assigns \nothing;
     ensures tr_ok(m, t, chad_memo_ty_[m][t] - 1); @/
  void tr_step(int m, int t) { }
*/
/*@ ghost
  /@ requires memo_ctx_inv && mode_ok(m) && 0 < g < CHAD_MAX_CTXS && chad_memo_ctx_[m][g] != 0;
     terminates \true;
     assigns \nothing;
     ensures trc_ok(m, g, chad_memo_ctx_[m][g] - 1); @/
  void trc_step(int m, int g) { }
*/

/*@ ghost
  /@ requires kernel_inv && memo_inv;
     terminates \true;
     assigns \nothing;
     ensures tan_lin; @/
  void tan_lin_lemma(void)
  {
    /@ loop invariant 0 <= i <= ty_count;
       loop invariant \forall integer t; 0 <= t < i && trh(CHAD_TAN, t) ==> lin(trm(CHAD_TAN, t));
       loop assigns i;
       loop variant ty_count - i; @/
    for (int i = 0; i < ty_count; i++) {
      /@ assert ty_node_ok(i); @/
      if (chad_memo_ty_[CHAD_TAN][i] != 0) {
        tr_step(CHAD_TAN, i);
        int s = chad_memo_ty_[CHAD_TAN][i] - 1;
        int k = ty_kind_[i], l = ty_left_[i], r = ty_right_[i];
        /@ assert step: tr_ok(CHAD_TAN, i, s); @/
        /@ assert ty_node_ok(s); @/
        /@ assert base: k == TY_REAL || k == TY_INT || k == TY_UNIT ==>
             s == TY_ID_REAL || s == TY_ID_UNIT; @/
        /@ assert ty_node_ok(TY_ID_REAL) && ty_node_ok(TY_ID_UNIT); @/
        /@ assert two: k == TY_PROD || k == TY_SUM ==> 0 <= l < i && 0 <= r < i &&
             ty_same(s, TY_PROD, trm(CHAD_TAN, l), trm(CHAD_TAN, r)) &&
             lin(trm(CHAD_TAN, l)) && lin(trm(CHAD_TAN, r)); @/
        /@ assert arr: k == TY_ARR ==> 0 <= l < i && ty_same(s, TY_ARR, trm(CHAD_TAN, l), -1) &&
             lin(trm(CHAD_TAN, l)); @/
        /@ assert fun: k == TY_FUN ==> 0 <= r < i && ty_kind_[s] == TY_FUN &&
             ty_right_[s] == trm(CHAD_TAN, r) && lin(trm(CHAD_TAN, r)); @/
        /@ assert lin(s); @/
      }
    }
    /@ assert \forall integer t; 0 <= t < CHAD_MAX_TYPES && trh(CHAD_TAN, t) ==> t < ty_count; @/
  }
*/

/*@
  // ... and so is every memoised T G (nested pairs of them, Unit at the end).
  predicate tan_lin_ctx = \forall integer g; 0 <= g < CHAD_MAX_CTXS && trch(CHAD_TAN, g) ==>
    lin(trc(CHAD_TAN, g));
*/

/*@ ghost
  /@ requires kernel_inv && memo_inv && tan_lin;
     terminates \true;
     assigns \nothing;
     ensures tan_lin_ctx; @/
  void tan_lin_ctx_lemma(void)
  {
    /@ assert ty_inv && ty_node_ok(TY_ID_UNIT); @/
    /@ loop invariant 1 <= j <= CHAD_MAX_CTXS;
       loop invariant \forall integer g; 0 <= g < j && trch(CHAD_TAN, g) ==> lin(trc(CHAD_TAN, g));
       loop assigns j;
       loop variant CHAD_MAX_CTXS - j; @/
    for (int j = 1; j < CHAD_MAX_CTXS; j++) {
      if (chad_memo_ctx_[CHAD_TAN][j] != 0) {
        trc_step(CHAD_TAN, j);
        /@ assert j < ctx_count && ctx_node_ok(j); @/
        /@ assert ty_node_ok(trc(CHAD_TAN, j)); @/
        /@ assert lin(trc(CHAD_TAN, ctx_parent_[j])) && lin(trm(CHAD_TAN, ctx_type_[j])); @/
      }
    }
  }
*/

/*@ requires FWD_INV;
    requires d < 0 || ctx_valid(d);
    requires ty < 0 || ty_valid(ty);
    terminates \true;
    assigns CH_CTX_LOCS, CH_EXT_STATE;
    ensures FWD_INV;
    ensures d < 0 ==> \result == d;
    ensures d >= 0 && ty < 0 ==> \result == ty;
    ensures d >= 0 && ty >= 0 ==> F_OKCAP;
    ensures \result >= 0 ==> ctx_is_ext(\result, d, ty) && ctx_len_[\result] == ctx_len_[d] + 1 &&
      ctx_valid(\result);
    ensures \old(ctx_count) <= ctx_count;
    ensures env_keep{Pre, Post};
    ensures \result >= 0 ==> lvl_ty(\result, ctx_len_[d]) == ty &&
      \forall integer l; 0 <= l < ctx_len_[d] ==> lvl_ty(\result, l) == lvl_ty(d, l);
    ensures \result >= 0 ==> \forall integer m, g; \old(env_ok(m, g, d)) ==> env_ok(m, g, \result);
    ensures \old(ctx_valid(d)) ==>
      \forall integer l; 0 <= l < ctx_len_[d] ==> lvl_ty(d, l) == \old(lvl_ty(d, l));
*/
static int f_ext(int d, int ty)
{
  int r = b_ext(d, ty);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert tm_inv;
  //@ assert kernel_inv;
  //@ assert memo_inv;
  //@ assert tsrc_inv;
  //@ assert csrc_inv;
  //@ assert msrc_inv;
  //@ assert \forall integer m, g, e; \at(env_ok(m, g, e), Pre) ==> env_ok(m, g, e);
  return r;
}

/* the variable at level lvl of d */
/*@ requires FWD_INV;
    terminates \true;
    assigns CH_TM_LOCS;
    F_TM_POST;
    ensures d < 0 ==> \result == d; ensures d >= 0 && lvl < 0 ==> \result == lvl;
    ensures \result >= 0 ==> \old(ctx_valid(d)) && 0 <= lvl < ctx_len_[d] &&
      CH_NEW(TM_VAR, d, -1, -1, -1, ctx_len_[d] - 1 - lvl) &&
      tm_ty_[\result] == lvl_ty(d, lvl);
    ensures ctx_valid(d) && 0 <= lvl < ctx_len_[d] ==> F_OKCAP;
*/
static int f_var(int d, int lvl)
{
  int r = b_var(d, lvl);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  /*@ assert \forall integer u; 0 <= u < CHAD_MAX_TERMS && chad_msrc_[u] == 1 ==>
        \at(msrc_ok(u) && msz_ok(u), Pre); */
  //@ assert \forall integer u; 0 <= u < CHAD_MAX_TERMS && chad_msrc_[u] == 1 ==> msrc_ok(u);
  //@ assert \forall integer u; 0 <= u < CHAD_MAX_TERMS && chad_msrc_[u] == 1 ==> msz_ok(u);
  //@ assert msrc_inv;
  return r;
}

/*@ requires FWD_INV;
    terminates \true; assigns CH_TM_LOCS, CH_TY_LOCS;
    F_TM_POST;
    ensures dom < 0 ==> \result == dom; ensures dom >= 0 && body < 0 ==> \result == body;
    ensures \result >= 0 ==>
      CH_NEW(TM_LLAM, ctx_parent_[\old(tm_ctx_[body])], body, -1, -1, 0) &&
      ty_same(tm_ty_[\result], TY_LFUN, dom, \old(tm_ty_[body]));
    ensures \old(ty_valid(dom) && 0 <= body < tm_count && llam_ok(dom, tm_ctx_[body], tm_ty_[body])) ==>
      F_OKCAP;
*/
static int f_llam(int dom, int body)
{
  int r = b_llam(dom, body);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert memo_inv;
  //@ assert tsrc_inv;
  //@ assert csrc_inv;
  /*@ assert \forall integer u; 0 <= u < CHAD_MAX_TERMS && chad_msrc_[u] == 1 ==>
        \at(msrc_ok(u) && msz_ok(u), Pre); */
  //@ assert msrc_inv;
  return r;
}

/*@ requires FWD_INV;
    terminates \true; assigns CH_TM_LOCS, CH_TY_LOCS;
    F_TM_POST;
    ensures a < 0 ==> \result == a; ensures a >= 0 && b < 0 ==> \result == b;
    ensures \result >= 0 ==> CH_NEW(TM_PAIR, \old(tm_ctx_[a]), a, b, -1, 0) &&
      ty_same(tm_ty_[\result], TY_PROD, \old(tm_ty_[a]), \old(tm_ty_[b]));
    ensures \old(0 <= a < tm_count && 0 <= b < tm_count && tm_ctx_[a] == tm_ctx_[b]) ==> F_OKCAP;
*/
static int f_pair(int a, int b)
{
  int r = b_pair(a, b);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert memo_inv;
  //@ assert tsrc_inv;
  //@ assert csrc_inv;
  /*@ assert \forall integer u; 0 <= u < CHAD_MAX_TERMS && chad_msrc_[u] == 1 ==>
        \at(msrc_ok(u) && msz_ok(u), Pre); */
  //@ assert msrc_inv;
  return r;
}

/*@ requires FWD_INV;
    terminates \true; assigns CH_TM_LOCS;
    F_TM_POST;
    ensures d < 0 ==> \result == d; ensures d >= 0 && ty < 0 ==> \result == ty;
    ensures \result >= 0 ==> CH_NEW(TM_ZERO, d, -1, -1, -1, 0) && tm_ty_[\result] == ty;
    ensures ctx_valid(d) && lin(ty) ==> F_OKCAP;
*/
static int f_zero(int d, int ty)
{
  int r = b_zero(d, ty);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  /*@ assert \forall integer u; 0 <= u < CHAD_MAX_TERMS && chad_msrc_[u] == 1 ==>
        \at(msrc_ok(u) && msz_ok(u), Pre); */
  //@ assert msrc_inv;
  return r;
}

/* proj_k v (types.c) seen from the pass */
/*@ requires FWD_INV;
    requires mode_ok(m) && mlin(m) && 0 <= g < ctx_count && trch(m, g) && 0 <= k < ctx_len_[g];
    requires v < 0 || (0 <= v < tm_count && tm_ty_[v] == trc(m, g));
    terminates \true;
    assigns CH_TMS_LOCS;
    ensures FWD_INV;
    ensures \old(tm_count) <= tm_count <= \old(tm_count) + k + 1;
    ensures v < 0 ==> \result == v;
    ensures v >= 0 ==> F_OKCAP;
    ensures \result >= 0 ==> 0 <= \result < tm_count &&
      tm_ctx_[\result] == \old(tm_ctx_[v]) && tm_ty_[\result] == trm(m, ctx_lk(g, k));
*/
static int f_proj(int v, int k) /*@ ghost (int g, int m) */
{
  int r = chad_proj_tuple(v, k) /*@ ghost (g, m) */;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  /*@ assert \forall integer u; 0 <= u < CHAD_MAX_TERMS && chad_msrc_[u] == 1 ==>
        \at(msrc_ok(u) && msz_ok(u), Pre); */
  //@ assert msrc_inv;
  return r;
}

/* rconst r in d (the double stays in this function's goals) */
/*@ requires kernel_inv;
    requires 0 <= t < tm_count && ctx_valid(d);
    terminates \true;
    assigns CH_TM_LOCS;
    ensures kernel_inv;
    ensures F_OKCAP;
    ensures \result < 0 ==> tm_count == \old(tm_count);
    ensures \result >= 0 ==> CH_NEW(TM_RCONST, d, -1, -1, -1, 0) && tm_ty_[\result] == TY_ID_REAL;
*/
static int f_rconst(int t, int d)
{
  return tm_rconst(d, tm_rval_[t]);
}

/* The contract shared by const_copy and f_const_prim: in context d, a copy
 * of the constant node t (unit, rconst or iconst), its type unchanged. */
#define CONST_REQ requires 0 <= t < tm_count && ctx_valid(d); \
  requires tm_kind_[t] == TM_UNIT || tm_kind_[t] == TM_RCONST || tm_kind_[t] == TM_ICONST; \
  terminates \true; \
  assigns CH_TM_LOCS
#define CONST_ENS ensures F_OKCAP; \
  ensures \result < 0 ==> tm_count == \old(tm_count); \
  ensures \result >= 0 ==> \result == \old(tm_count) && tm_count == \old(tm_count) + 1; \
  ensures \result >= 0 ==> tm_ctx_[\result] == d; \
  ensures \result >= 0 ==> tm_ty_[\result] == \old(tm_ty_[t])

/* The primal of a constant: the same constant in d (P tau = tau for Unit,
 * Real, Int). Kernel-level only (no pass invariant), so that f_const_prim
 * below sees one call and one path: with the three branches there, its
 * frame step (assert_8, msz_ok kept) timed out with every prover in a
 * full run. */
/*@ requires kernel_inv;
    CONST_REQ;
    ensures kernel_inv;
    CONST_ENS;
*/
#define CC_NEW(r) ((r) >= 0 ==> (r) == \at(tm_count, Pre) && \
  tm_count == \at(tm_count, Pre) + 1 && tm_ctx_[(r)] == d && tm_ty_[(r)] == ty)
static int const_copy(int t, int d)
{
  //@ assert node_ok(t);
  //@ ghost int ty = tm_ty_[t];
  int k = tm_kind(t);
  int r;
  /* each branch states the result's node (CC_NEW); after the join Z3
     took 23 s on that postcondition without them */
  if (k == TM_UNIT) {
    //@ assert ty == TY_ID_UNIT;
    r = b_unit(d);
    //@ assert CC_NEW(r);
  } else if (k == TM_RCONST) {
    //@ assert ty == TY_ID_REAL;
    r = f_rconst(t, d);
    //@ assert CC_NEW(r);
  } else {
    //@ assert ty == TY_ID_INT;
    r = tm_iconst(d, tm_aux(t));
    //@ assert CC_NEW(r);
  }
  return r;
}
#undef CC_NEW

/* The primal of a constant, seen from the pass: const_copy plus the frame
 * of the pass invariant (as in f_pair, f_zero). */
/*@ requires FWD_INV;
    CONST_REQ;
    ensures FWD_INV;
    CONST_ENS;
*/
static int f_const_prim(int t, int d)
{
  int r = const_copy(t, d);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  /*@ assert \forall integer u; 0 <= u < CHAD_MAX_TERMS && chad_msrc_[u] == 1 ==>
        \at(msrc_ok(u) && msz_ok(u), Pre); */
  //@ assert msrc_inv;
  return r;
}

/*@ requires tm_inv; terminates \true; assigns \nothing;
    ensures t < 0 ==> \result == t;
    ensures tm_valid(t) ==> \result == tm_ty_[t];
    ensures t >= 0 && !tm_valid(t) ==> \result == CHAD_E_ARG; */
static int tyof(int t) { return t < 0 ? t : tm_type(t); }

static int fwd(int t, int d, int depth);

/* F of a direct child (same source context), seen from the rule: fwd's
 * contract plus "the environment still maps G into d" (an instance of
 * env_keep{Pre, Post}), so that the rule can go on in d. */
/*@ FWD_REQ;
    requires depth <= CHAD_MAX_DEPTH + 1;
    requires env_ok(CHAD_PFWD, tm_ctx_[t], d);
    terminates \true;
    decreases FWD_M(depth) + 1;
    FWD_ASSIGNS;
    FWD_ENS;
    ensures env_ok(CHAD_PFWD, tm_ctx_[t], d);
*/
static int f_sub(int t, int d, int depth)
{
  int r = fwd(t, d, depth);
  return r;
}

/* Translates child t (whose context is G extended by one binder) in target
 * ctx d (which holds P G) under that binder, which sits at target level
 * lvl of d. */
/*@ FWD_REQ;
    requires 0 < tm_ctx_[t] < ctx_count;
    requires d < 0 || env_ok(CHAD_PFWD, ctx_parent_[tm_ctx_[t]], d);
    requires d >= 0 && lvl >= 0 ==> 0 <= lvl < ctx_len_[d] &&
      trh(CHAD_PFWD, ctx_type_[tm_ctx_[t]]) &&
      lvl_ty(d, lvl) == trm(CHAD_PFWD, ctx_type_[tm_ctx_[t]]);
    requires d >= 0 || d == CHAD_E_CAPACITY;
    requires lvl >= 0 || lvl == CHAD_E_CAPACITY;
    requires venv_wf;
    terminates \true;
    decreases FWD_M(depth) + 1;
    FWD_ASSIGNS;
    FWD_ENS;
    ensures under_lvl: d >= 0 ==> ctx_len_[d] == \old(ctx_len_[d]) &&
      \forall integer l; lvl_ty(d, l) == \old(lvl_ty(d, l));
    ensures under_grow: tables_grow{Pre, Post};
*/
static int fwd_under(int t, int d, int lvl, int depth)
{
  //@ assert msz_ok(t);
  /* env_keep{Pre, Post} on every path, each its own goal (as rev_under) */
  if (depth > CHAD_MAX_DEPTH) {
    //@ assert env_keep{Pre, Here};
    //@ assert FWD_INV && venv_wf;
    return CHAD_E_DEPTH;
  }
  if (d < 0) {
    //@ assert env_keep{Pre, Here};
    //@ assert FWD_INV && venv_wf;
    return d;
  }
  if (lvl < 0) {
    //@ assert env_keep{Pre, Here};
    //@ assert FWD_INV && venv_wf;
    return lvl;
  }
  //@ assert venv_wf;
  //@ ghost int n0 = ctx_count;
  //@ ghost int gc = tm_ctx_[t];
  //@ assert ctx_inv && ctx_node_ok(gc);
  //@ assert 0 <= ctx_parent_[gc] < gc && ctx_len_[gc] == ctx_len_[ctx_parent_[gc]] + 1;
  //@ assert ctx_lk(gc, 0) == ctx_type_[gc];
  //@ assert \forall integer k; 1 <= k ==> ctx_lk(gc, k) == ctx_lk(ctx_parent_[gc], k - 1);
  int e = venv_push(ENV_LEVEL, lvl);
  if (e < 0) {
    //@ assert env_same{Pre, Here} && env_tables{Pre, Here};
    //@ assert env_keep{Pre, Here};
    //@ assert FWD_INV && venv_wf;
    return e;
  }
  //@ ghost Pushed: ;
  /*@ assert \forall integer i; 0 <= i < \at(venv_sp, Pre) ==>
        venv_kind_[i] == \at(venv_kind_[i], Pre) && venv_val_[i] == \at(venv_val_[i], Pre); */
  //@ assert env_kind(0) == ENV_LEVEL && env_val(0) == lvl;
  /*@ assert \forall integer k; 1 <= k < ctx_len_[gc] ==>
        env_kind(k) == ENV_LEVEL && 0 <= env_val(k) < ctx_len_[d] &&
        trh(CHAD_PFWD, ctx_lk(gc, k)) && lvl_ty(d, env_val(k)) == trm(CHAD_PFWD, ctx_lk(gc, k)); */
  //@ assert env_ok(CHAD_PFWD, gc, d);
  int r = fwd(t, d, depth + 1);
  //@ assert venv_sp == \at(venv_sp, Pushed) && venv_sp > venv_cur.base;
  /*@ assert \forall integer i; 0 <= i < \at(venv_sp, Pushed) ==>
        venv_kind_[i] == \at(venv_kind_[i], Pushed) && venv_val_[i] == \at(venv_val_[i], Pushed); */
  venv_pop();
  //@ assert venv_sp == \at(venv_sp, Pre) && venv_cur == \at(venv_cur, Pre);
  /*@ assert \forall integer i; 0 <= i < \at(venv_sp, Pre) ==>
        venv_kind_[i] == \at(venv_kind_[i], Pre) && venv_val_[i] == \at(venv_val_[i], Pre); */
  /* env_keep{Pre, Here} in steps, as in rev_under: the entry pushed is
   * popped, so the environment is Pre's again; the tables it reads only
   * grew (the lookups of older contexts by induction, parents first) */
  //@ assert under_same: env_same{Pre, Here};
  //@ assert under_len: \forall integer h; 0 <= h < \at(ctx_count, Pre) ==> ctx_len_[h] == \at(ctx_len_[h], Pre);
  /*@ ghost
    int h = 0;
    /@ loop invariant 0 <= h <= n0;
       loop invariant \forall integer h2, k; 0 <= h2 < h ==>
         ctx_lk(h2, k) == \at(ctx_lk(h2, k), Pre);
       loop assigns h;
       loop variant n0 - h;
    @/
    for (h = 0; h < n0; h++) {
      /@ assert \let hh = h; ctx_parent_[hh] == \at(ctx_parent_[hh], Pre); @/
      /@ assert \let hh = h; ctx_type_[hh] == \at(ctx_type_[hh], Pre); @/
      /@ assert \let hh = h; \forall integer k; ctx_lk(hh, k) == \at(ctx_lk(hh, k), Pre); @/
    }
  */
  //@ assert under_lk: \forall integer h, k; 0 <= h < \at(ctx_count, Pre) ==> ctx_lk(h, k) == \at(ctx_lk(h, k), Pre);
  //@ assert under_memo: memo_grows{Pre, Here};
  //@ assert under_tables: env_tables{Pre, Here};
  //@ assert under_keep: env_keep{Pre, Here};
  /* the levels of d (a context of Pre: env_ok) are unchanged: the rule
   * goes on in d after the call */
  //@ assert under_dlen: ctx_len_[d] == \at(ctx_len_[d], Pre) && 0 <= d < \at(ctx_count, Pre);
  //@ assert under_dlk: \forall integer k; ctx_lk(d, k) == \at(ctx_lk(d, k), Pre);
  //@ assert under_dlvl: \forall integer l; lvl_ty(d, l) == \at(lvl_ty(d, l), Pre);
  //@ assert under_tg: tables_grow{Pre, Here};
  //@ assert under_inv: FWD_INV;
  //@ assert under_wf: venv_wf;
  return r;
}

/* F(var k) = (x, \v. proj_k v) */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_VAR;
    terminates \true;
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_var(int t, int d, int tg, int depth)
{
  (void)depth;
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  //@ assert node_ok(t);
  //@ assert msz_ok(t);
  int k = (int)tm_aux(t);
  //@ assert var_k: 0 <= k < ctx_len_[g] && tau == ctx_lk(g, k);
  /* the size budget, k + 5 nodes, as its own goal (fwd_size took Z3 14 s
   * alone and failed under the gate's load) */
  //@ assert var_budget: k + 5 <= FWD_K * chad_msz_[t] || CHAD_MAX_TERMS <= FWD_K * chad_msz_[t];
  /*@ assert var_env: env_kind(k) == ENV_LEVEL && 0 <= env_val(k) < ctx_len_[d] &&
        lvl_ty(d, env_val(k)) == trm(CHAD_PFWD, tau); */
  int kind = ENV_LEVEL;
  int lvl = venv_lookup(k, &kind);
  //@ assert var_lvl: lvl == env_val(k) && kind == ENV_LEVEL;
  if (lvl < 0)
    return lvl;
  if (kind != ENV_LEVEL)
    return CHAD_E_ARG;
  //@ ghost tan_lin_lemma();
  //@ assert var_tlin: lin(trm(CHAD_TAN, tau));
  int lv = L(d);
  int d1 = f_ext(d, tg);
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1 >= 0 ==> lvl_ty(d1, lv) == tg && ctx_type_[d1] == tg && ctx_parent_[d1] == d;
  int v = f_var(d1, lv);
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  //@ assert v >= 0 ==> tm_ctx_[v] == d1 && tm_ty_[v] == tg;
  int body = f_proj(v, k) /*@ ghost (g, CHAD_TAN) */;
  //@ assert body >= 0 || body == CHAD_E_CAPACITY;
  //@ assert body >= 0 ==> tm_ctx_[body] == d1 && tm_ty_[body] == trm(CHAD_TAN, tau);
  //@ assert var_tlin2: lin(trm(CHAD_TAN, tau));
  //@ assert body >= 0 ==> ty_valid(tg) && llam_ok(tg, tm_ctx_[body], tm_ty_[body]);
  int lam = f_llam(tg, body);
  //@ assert lam >= 0 || lam == CHAD_E_CAPACITY;
  /*@ assert var_lam: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d &&
        ty_same(tm_ty_[lam], TY_LFUN, tg, trm(CHAD_TAN, tau)); */
  //@ ghost int tyl = lam >= 0 ? tm_ty_[lam] : 0;
  //@ assert var_tyl: lam >= 0 ==> ty_valid(tyl) && ty_same(tyl, TY_LFUN, tg, trm(CHAD_TAN, tau));
  int x = f_var(d, lvl);
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  //@ assert x >= 0 ==> tm_ctx_[x] == d && tm_ty_[x] == trm(CHAD_PFWD, tau);
  //@ assert var_tyl2: lam >= 0 ==> 0 <= lam < tm_count && tm_ty_[lam] == tyl && ty_same(tyl, TY_LFUN, tg, trm(CHAD_TAN, tau));
  //@ assert var_size: tm_count <= \at(tm_count, Pre) + k + 4;
  /*@ assert var_tyl3: lam >= 0 ==> 0 <= tyl < ty_count && ty_kind_[tyl] == TY_LFUN &&
        ty_left_[tyl] == tg && ty_right_[tyl] == trm(CHAD_TAN, tau); */
  int r = f_pair(x, lam);
  //@ assert r >= 0 ==> ty_node_ok(tm_ty_[r]);
  //@ assert var_size2: tm_count <= \at(tm_count, Pre) + k + 5 && tm_count <= CHAD_MAX_TERMS;
  //@ assert var_fin: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  /* fwd_type in steps (as one goal it took Z3 7 s alone, and timed out
   * once the size had its own asserts) */
  //@ assert var_t0: trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau) && trch(CHAD_TAN, g) && tg == trc(CHAD_TAN, g);
  //@ assert var_t1: r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d && ty_valid(tm_ty_[r]) && ty_kind_[tm_ty_[r]] == TY_PROD;
  //@ assert var_t2: r >= 0 ==> ty_left_[tm_ty_[r]] == trm(CHAD_PFWD, tau) && 0 <= ty_right_[tm_ty_[r]] < tm_ty_[r];
  //@ assert var_t3a: r >= 0 ==> lam >= 0 && ty_right_[tm_ty_[r]] == tyl;
  //@ assert var_t3b: lam >= 0 ==> ty_kind_[tyl] == TY_LFUN && ty_left_[tyl] == tg && ty_right_[tyl] == trm(CHAD_TAN, tau);
  //@ assert var_t3: r >= 0 ==> ty_same(ty_right_[tm_ty_[r]], TY_LFUN, tg, trm(CHAD_TAN, tau));
  //@ assert var_type: r >= 0 ==> fwd_ty(tm_ty_[r], g, tau);
  //@ assert var_src: g == tm_ctx_[t] && tau == tm_ty_[t];
  return r;
}

/* F(c) = (c, \v. 0) for unit and the constants */
/*@ FWD_REQ; FWD_ENV; FWD_TG;
    requires tm_kind_[t] == TM_UNIT || tm_kind_[t] == TM_RCONST || tm_kind_[t] == TM_ICONST;
    terminates \true;
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_const(int t, int d, int tg, int depth)
{
  (void)depth;
  //@ assert node_ok(t);
  //@ assert msz_ok(t);
  //@ ghost int tau = tm_ty_[t];
  //@ assert ty_inv && ty_node_ok(tau);
  //@ assert tau == TY_ID_UNIT || tau == TY_ID_REAL || tau == TY_ID_INT;
  //@ ghost tr_step(CHAD_PFWD, tau);
  //@ ghost tr_step(CHAD_TAN, tau);
  //@ assert const_p: trm(CHAD_PFWD, tau) == tau;
  //@ assert const_t: trm(CHAD_TAN, tau) == TY_ID_UNIT || trm(CHAD_TAN, tau) == TY_ID_REAL;
  //@ assert ty_node_ok(TY_ID_UNIT);
  //@ assert ty_node_ok(TY_ID_REAL);
  //@ assert const_lin: lin(trm(CHAD_TAN, tau));
  int prim = f_const_prim(t, d);
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert prim >= 0 ==> tm_ctx_[prim] == d && tm_ty_[prim] == trm(CHAD_PFWD, tau);
  /* T Real = Real, T Int = T Unit = Unit (card §3) */
  int tt = tm_kind(t) == TM_RCONST ? TY_ID_REAL : TY_ID_UNIT;
  //@ assert tt == trm(CHAD_TAN, tau);
  int d1 = f_ext(d, tg);
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1 >= 0 ==> ctx_type_[d1] == tg && ctx_parent_[d1] == d;
  int z = f_zero(d1, tt);
  //@ assert z >= 0 || z == CHAD_E_CAPACITY;
  //@ assert z >= 0 ==> tm_ctx_[z] == d1 && tm_ty_[z] == trm(CHAD_TAN, tau);
  int lam = f_llam(tg, z);
  //@ assert lam >= 0 || lam == CHAD_E_CAPACITY;
  /*@ assert const_lam: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d &&
        ty_same(tm_ty_[lam], TY_LFUN, tg, trm(CHAD_TAN, tau)); */
  //@ assert const_size: tm_count <= \at(tm_count, Pre) + 3;
  int r = f_pair(prim, lam);
  //@ assert r >= 0 ==> ty_node_ok(tm_ty_[r]);
  return r;
}

/* The linear half of F(pair a b), in d2 where level lp holds p = F a and
 * level lq holds q = F b:   \v. (snd p v, snd q v)
 * of type T G -o T(a * b), with tg = T G and tt = T(a * b) = T a * T b.
 * Against the kernel's invariant only, with raw builders (as R's
 * rev_pair_lin): the rule gets the pass invariants back by the frame. */
/*@ requires kernel_inv;
    requires ctx_valid(d2) && ty_valid(tg) && ty_valid(tt) && ty_kind_[tt] == TY_PROD && lin(tt);
    requires 0 <= lp < ctx_len_[d2] && lvl_ty(d2, lp) == typ && ty_valid(typ) &&
      ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, tg, ty_left_[tt]);
    requires 0 <= lq < ctx_len_[d2] && lvl_ty(d2, lq) == tyq && ty_valid(tyq) &&
      ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, tg, ty_right_[tt]);
    terminates \true;
    assigns CH_TM_LOCS, CH_TMS_LOCS, CH_TYS_LOCS, CH_CTX_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures fpair_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d2 &&
      ty_same(tm_ty_[\result], TY_LFUN, tg, tt);
    ensures fpair_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures fpair_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 10;
    ensures fpair_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures fpair_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures fpair_lin_lvl: \forall integer l; 0 <= l < ctx_len_[d2] ==> lvl_ty(d2, l) == \old(lvl_ty(d2, l));
    ensures env_keep{Pre, Post};
*/
static int fwd_pair_lin(int d2, int lp, int lq, int tg) /*@ ghost (int tt, int typ, int tyq) */
{
  //@ ghost int ta = ty_left_[tt];
  //@ ghost int tb = ty_right_[tt];
  //@ assert ty_node_ok(tt) && ty_same(tt, TY_PROD, ta, tb);
  int lv = L(d2), d3 = k_ext(d2, tg);
  if (d3 < 0) return d3;
  //@ assert lvl_ty(d3, lv) == tg && lvl_ty(d3, lp) == lvl_ty(d2, lp) && lvl_ty(d3, lq) == lvl_ty(d2, lq);
  int vp = V(d3, lp);
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d3 && ty_same(tm_ty_[sp], TY_LFUN, tg, ta);
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int v1 = V(d3, lv);
  //@ assert v1 >= 0 ==> tm_ctx_[v1] == d3 && tm_ty_[v1] == tg;
  //@ assert v1 >= 0 || v1 == CHAD_E_CAPACITY;
  int da = b_lapp(sp, v1);
  //@ assert da >= 0 ==> tm_ctx_[da] == d3 && tm_ty_[da] == ta;
  //@ assert da >= 0 || da == CHAD_E_CAPACITY;
  int vq = V(d3, lq);
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int sq = b_snd(vq);
  //@ assert sq >= 0 ==> tm_ctx_[sq] == d3 && ty_same(tm_ty_[sq], TY_LFUN, tg, tb);
  //@ assert sq >= 0 || sq == CHAD_E_CAPACITY;
  int v2 = V(d3, lv);
  //@ assert v2 >= 0 ==> tm_ctx_[v2] == d3 && tm_ty_[v2] == tg;
  //@ assert v2 >= 0 || v2 == CHAD_E_CAPACITY;
  int db = b_lapp(sq, v2);
  //@ assert db >= 0 ==> tm_ctx_[db] == d3 && tm_ty_[db] == tb;
  //@ assert db >= 0 || db == CHAD_E_CAPACITY;
  //@ assert da >= 0 ==> tm_ctx_[da] == d3 && tm_ty_[da] == ta;
  int dab = b_pair(da, db);
  //@ assert dab >= 0 ==> tm_ctx_[dab] == d3 && ty_same(tm_ty_[dab], TY_PROD, ta, tb) && ty_valid(tm_ty_[dab]);
  //@ assert dab >= 0 || dab == CHAD_E_CAPACITY;
  //@ assert ty_inv && ty_valid(tt) && ty_same(tt, TY_PROD, ta, tb);
  //@ assert dab >= 0 ==> tm_ty_[dab] == tt;
  //@ assert dab >= 0 ==> ty_valid(tg) && 0 <= dab < tm_count && llam_ok(tg, tm_ctx_[dab], tm_ty_[dab]);
  //@ assert ctx_parent_[d3] == d2;
  int r = b_llam(tg, dab);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d2;
  //@ assert r >= 0 ==> ty_same(tm_ty_[r], TY_LFUN, tg, tt);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d2 && ty_same(tm_ty_[r], TY_LFUN, tg, tt);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The second half of F(pair a b), from the call F b on: in d1 = d, p (p =
 * F a at level lp),
 *   let q = F b in let p in let q in ((fst p, fst q), \v. (snd p v, snd q v))
 * Its own function so that the facts about p cross the recursive call in a
 * small goal (one recursive call per function, as fwd_let_body: in one
 * function with F a, these frame goals were the ones that failed under
 * load). */
/*@ requires kernel_inv && memo_inv && src_inv;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[b] == g && tm_ty_[b] == tb;
    requires env_ok(CHAD_PFWD, g, d1);
    requires trh(CHAD_PFWD, tb) && trm(CHAD_PFWD, tb) == pb && trh(CHAD_TAN, tb) && trm(CHAD_TAN, tb) == sb;
    requires trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg && ty_valid(tg);
    requires ty_valid(pt) && ty_same(pt, TY_PROD, pa, pb);
    requires ty_valid(tt) && ty_same(tt, TY_PROD, sa, sb) && lin(tt);
    requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
    requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_len_[d1] == lp + 1;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa &&
      ty_same(ty_right_[typ], TY_LFUN, tg, sa);
    terminates \true;
    decreases FWD_M(depth) - 3;
    FWD_ASSIGNS;
    ensures kernel_inv && memo_inv && src_inv && venv_wf;
    ensures venv_sp == \old(venv_sp) && venv_cur == \old(venv_cur);
    ensures memo_grows{Pre, Post};
    ensures \old(tm_count) <= tm_count && \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures env_keep{Pre, Post};
    ensures pbody_size: tm_count - \old(tm_count) <= FWD_K * chad_msz_[b] + 18;
    ensures pbody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures pbody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, tg, tt);
*/
static int fwd_pair_body(int b, int p, int d1, int lp, int tg, int depth)
  /*@ ghost (int g, int tb, int pa, int pb, int sa, int sb, int pt, int tt, int d, int typ) */
{
  int q = f_sub(b, d1, depth + 1);
  //@ assert pb_keep: env_keep{Pre, Here};
  //@ assert pb_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b];
  if (q < 0) return q;
  //@ assert pb_b: tm_ctx_[b] == g && tm_ty_[b] == tb;
  //@ assert pb_fwd: tm_ctx_[q] == d1 && fwd_ty(tm_ty_[q], g, tb) && 0 <= q < tm_count;
  //@ assert pb_memo1: trc(CHAD_TAN, g) == tg;
  //@ assert pb_memo2: trm(CHAD_PFWD, tb) == pb && trm(CHAD_TAN, tb) == sb;
  //@ ghost int tyq = tm_ty_[q];
  //@ assert pb_qty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pb && ty_same(ty_right_[tyq], TY_LFUN, tg, sb);
  /* p's facts after the call, in small steps */
  //@ assert pb_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert pb_pk: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa;
  //@ assert pb_pr: ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  //@ assert pb_tt: ty_valid(tt) && ty_same(tt, TY_PROD, sa, sb) && lin(tt);
  //@ assert pb_pt: ty_valid(pt) && ty_same(pt, TY_PROD, pa, pb) && ty_valid(tg);
  //@ assert pb_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d) && ctx_len_[d1] == lp + 1;
  int lq = L(d1), d2 = f_ext(d1, tyof(q));
  //@ assert d2 >= 0 || d2 == CHAD_E_CAPACITY;
  //@ assert d2_keep: env_keep{Pre, Here};
  //@ assert d2_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b];
  if (d2 < 0) return d2;
  //@ assert d2_len: ctx_len_[d2] == lq + 1 && lq == lp + 1 && ctx_type_[d2] == tyq && ctx_parent_[d2] == d1;
  //@ assert d2_ext: ctx_is_ext(d2, d1, tyq) && ctx_valid(d2);
  //@ assert d2_ext2: ctx_is_ext(d1, d, typ) && ctx_valid(d);
  //@ assert d2_lq: lvl_ty(d2, lq) == tyq;
  //@ assert d2_lp1: lvl_ty(d1, lp) == typ;
  //@ assert d2_lp: lvl_ty(d2, lp) == typ && 0 <= lp < lq < ctx_len_[d2];
  //@ assert pl_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  //@ assert ql_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, tg, sb);
  //@ assert tt_ok: ty_valid(tt) && ty_kind_[tt] == TY_PROD && ty_left_[tt] == sa && ty_right_[tt] == sb && lin(tt);
  //@ ghost Built: ;
  int lin = fwd_pair_lin(d2, lp, lq, tg) /*@ ghost (tt, typ, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d2 && ty_same(tm_ty_[lin], TY_LFUN, tg, tt) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_env: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 10;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert ty_valid(tyl) && ty_same(tyl, TY_LFUN, tg, tt);
  //@ assert tail_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert tail_q: 0 <= q < tm_count && tm_ctx_[q] == d1 && tm_ty_[q] == tyq;
  //@ assert tail_lvl: lvl_ty(d2, lp) == typ && lvl_ty(d2, lq) == tyq;
  //@ assert tail_ext: ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]) && ctx_is_ext(d2, d1, tm_ty_[q]) && ctx_valid(d2);
  //@ assert tail_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pb;
  //@ assert tail_pt: ty_valid(pt) && ty_same(pt, TY_PROD, pa, pb);
  //@ ghost Lin: ;
  int r = let_pair_tail(p, q, d2, lp, lq, lin) /*@ ghost (d, d1, pt, pa, pb, tg, tt) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ assert r >= 0 ==> ty_valid(tm_ty_[r]) && ty_kind_[tm_ty_[r]] == TY_PROD && ty_left_[tm_ty_[r]] == pt && ty_same(ty_right_[tm_ty_[r]], TY_LFUN, tg, tt);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 18;
  //@ assert tables_grow{Lin, Here} && side_same{Lin, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* F(pair a b) = let p = F a; q = F b in ((fst p, fst q), \v. (snd p v, snd q v)) */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_PAIR; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases FWD_M(depth) - 2;
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_pair(int t, int d, int tg, int depth)
{
  //@ assert node_ok(t) && msz_ok(t) && msrc_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t);
  //@ assert 0 <= a < t && 0 <= b < t && chad_msrc_[a] == 1 && chad_msrc_[b] == 1;
  //@ assert tm_ctx_[a] == g && tm_ctx_[b] == g && ty_same(tau, TY_PROD, tm_ty_[a], tm_ty_[b]);
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b]);
  /* the size budget: F a, F b and at most 18 nodes of this rule (or the
   * whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert pair_budget: FWD_K * chad_msz_[a] + FWD_K * chad_msz_[b] + 18 <= FWD_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= FWD_K * chad_msz_[t]; */
  //@ ghost int ta0 = tm_ty_[a];
  //@ ghost int tb0 = tm_ty_[b];
  //@ ghost tr_step(CHAD_PFWD, tau);
  //@ ghost tr_step(CHAD_TAN, tau);
  //@ assert trh(CHAD_PFWD, ta0) && trh(CHAD_PFWD, tb0) && trh(CHAD_TAN, ta0) && trh(CHAD_TAN, tb0);
  //@ ghost int pt = chad_memo_ty_[CHAD_PFWD][tau] - 1;
  //@ ghost int tt = chad_memo_ty_[CHAD_TAN][tau] - 1;
  //@ ghost int pa = chad_memo_ty_[CHAD_PFWD][ta0] - 1;
  //@ ghost int pb = chad_memo_ty_[CHAD_PFWD][tb0] - 1;
  //@ ghost int sa = chad_memo_ty_[CHAD_TAN][ta0] - 1;
  //@ ghost int sb = chad_memo_ty_[CHAD_TAN][tb0] - 1;
  //@ assert pair_p: ty_valid(pt) && ty_same(pt, TY_PROD, pa, pb);
  //@ assert pair_t: ty_valid(tt) && ty_same(tt, TY_PROD, sa, sb);
  //@ ghost tan_lin_lemma();
  //@ assert pair_lin: lin(tt);
  int p = f_sub(a, d, depth + 1);
  /* the size bound on each path, each its own goal (as one postcondition
   * over all paths it timed out under load) */
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  //@ assert pa_fwd: tm_ctx_[p] == d && fwd_ty(tm_ty_[p], g, ta0) && 0 <= p < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a];
  //@ assert pa_memo: trm(CHAD_PFWD, ta0) == pa && trm(CHAD_TAN, ta0) == sa && trc(CHAD_TAN, g) == tg;
  //@ assert pa_memo2: trh(CHAD_PFWD, tb0) && trh(CHAD_TAN, tb0) && trm(CHAD_PFWD, tb0) == pb && trm(CHAD_TAN, tb0) == sb;
  //@ ghost int typ = tm_ty_[p];
  //@ assert pa_ty: ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  //@ assert pa_valid: ty_valid(typ) && ty_valid(ty_right_[typ]);
  //@ assert pa_tt: ty_valid(tt) && ty_same(tt, TY_PROD, sa, sb) && lin(tt);
  //@ assert pa_pt: ty_valid(pt) && ty_same(pt, TY_PROD, pa, pb) && ty_valid(tg);
  int lp = L(d), d1 = f_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_env: env_ok(CHAD_PFWD, g, d1) && ctx_len_[d1] == lp + 1 && ctx_type_[d1] == typ;
  //@ assert pa_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d);
  //@ assert d1_b: tm_ctx_[b] == g && tm_ty_[b] == tb0 && trch(CHAD_TAN, g) && ty_valid(tg);
  //@ assert d1_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ ghost Body: ;
  int r = fwd_pair_body(b, p, d1, lp, tg, depth) /*@ ghost (g, tb0, pa, pb, sa, sb, pt, tt, d, typ) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= FWD_K * chad_msz_[b] + 18;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert r >= 0 || r == CHAD_E_CAPACITY || r == CHAD_E_DEPTH;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, tg, tt);
  //@ assert r >= 0 ==> ty_node_ok(tyr) && 0 <= ty_right_[tyr] < tyr;
  //@ assert trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau) && trch(CHAD_TAN, g) && trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt && trc(CHAD_TAN, g) == tg;
  //@ assert r >= 0 ==> fwd_ty(tm_ty_[r], g, tau);
  //@ assert tm_ctx_[t] == g && tm_ty_[t] == tau;
  //@ assert pair_type: r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d && fwd_ty(tm_ty_[r], tm_ctx_[t], tm_ty_[t]);
  return r;
}

/* The linear half of F(let a (x. b)), in d3 where level lp holds p = F a
 * (type typ = P a * (T G -o T a)) and level lq holds q = F_{G,x} b (type
 * tyq = P b * (T(G, x) -o T b)):   \v. snd q (v, snd p v)
 * of type T G -o T b, with tg = T G, ta = T a, tgx = T(G, x) = T G * T a
 * and tt = T b. Against the kernel's invariant only, with raw builders
 * (as fwd_pair_lin): the rule gets the pass invariants back by the frame. */
/*@ requires kernel_inv;
    requires ctx_valid(d3) && ty_valid(tg) && ty_valid(ta) && ty_valid(tt) && lin(tt);
    requires ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, ta);
    requires 0 <= lp < ctx_len_[d3] && lvl_ty(d3, lp) == typ && ty_valid(typ) &&
      ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, tg, ta);
    requires 0 <= lq < ctx_len_[d3] && lvl_ty(d3, lq) == tyq && ty_valid(tyq) &&
      ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, tgx, tt);
    terminates \true;
    assigns CH_TM_LOCS, CH_TMS_LOCS, CH_TYS_LOCS, CH_CTX_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures flet_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d3 &&
      ty_same(tm_ty_[\result], TY_LFUN, tg, tt);
    ensures flet_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures flet_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 10;
    ensures flet_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures flet_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures flet_lin_lvl: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \old(lvl_ty(d3, l));
    ensures env_keep{Pre, Post};
*/
static int fwd_let_lin(int d3, int lp, int lq, int tg) /*@ ghost (int ta, int tgx, int tt, int typ, int tyq) */
{
  int lv = L(d3), d4 = k_ext(d3, tg);
  if (d4 < 0) return d4;
  //@ assert lvl_ty(d4, lv) == tg && lvl_ty(d4, lp) == lvl_ty(d3, lp) && lvl_ty(d4, lq) == lvl_ty(d3, lq);
  int vq = V(d4, lq);
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int sq = b_snd(vq);
  //@ assert sq >= 0 ==> tm_ctx_[sq] == d4 && ty_same(tm_ty_[sq], TY_LFUN, tgx, tt);
  //@ assert sq >= 0 || sq == CHAD_E_CAPACITY;
  int v1 = V(d4, lv);
  //@ assert v1 >= 0 ==> tm_ctx_[v1] == d4 && tm_ty_[v1] == tg;
  //@ assert v1 >= 0 || v1 == CHAD_E_CAPACITY;
  int vp = V(d4, lp);
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d4 && ty_same(tm_ty_[sp], TY_LFUN, tg, ta);
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int v2 = V(d4, lv);
  //@ assert v2 >= 0 ==> tm_ctx_[v2] == d4 && tm_ty_[v2] == tg;
  //@ assert v2 >= 0 || v2 == CHAD_E_CAPACITY;
  int dx = b_lapp(sp, v2);
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d4 && tm_ty_[dx] == ta;
  //@ assert dx >= 0 || dx == CHAD_E_CAPACITY;
  //@ assert v1 >= 0 ==> tm_ctx_[v1] == d4 && tm_ty_[v1] == tg;
  int arg = b_pair(v1, dx);
  //@ assert arg >= 0 ==> tm_ctx_[arg] == d4 && ty_same(tm_ty_[arg], TY_PROD, tg, ta) && ty_valid(tm_ty_[arg]);
  //@ assert arg >= 0 || arg == CHAD_E_CAPACITY;
  //@ assert ty_inv && ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, ta);
  //@ assert arg >= 0 ==> tm_ty_[arg] == tgx;
  //@ assert sq >= 0 ==> tm_ctx_[sq] == d4 && ty_same(tm_ty_[sq], TY_LFUN, tgx, tt);
  int dy = b_lapp(sq, arg);
  //@ assert dy >= 0 ==> tm_ctx_[dy] == d4 && tm_ty_[dy] == tt;
  //@ assert dy >= 0 || dy == CHAD_E_CAPACITY;
  //@ assert dy >= 0 ==> ty_valid(tg) && 0 <= dy < tm_count && llam_ok(tg, tm_ctx_[dy], tm_ty_[dy]);
  //@ assert ctx_parent_[d4] == d3;
  int r = b_llam(tg, dy);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d3;
  //@ assert r >= 0 ==> ty_same(tm_ty_[r], TY_LFUN, tg, tt);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d3 && ty_same(tm_ty_[r], TY_LFUN, tg, tt);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The second half of F(let a (x. b)), from the call F_{G,x} b on: in d2 =
 * d, p, x (p = F a at level lp of d1 = d, p; x : P a at level lx),
 *   let q = F_{G,x} b in let p in let x = fst p in let q in (fst q, \v. snd q (v, snd p v))
 * Its own function so that the facts about p and x cross the recursive
 * call in a small goal (in one function with F a, the frame goals after
 * F b timed out: only one recursive call per function). */
/*@ requires kernel_inv && memo_inv && src_inv;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= depth <= CHAD_MAX_DEPTH;
    requires 0 < gb < ctx_count && gb == tm_ctx_[b] && ctx_parent_[gb] == g && ctx_type_[gb] == ta;
    requires env_ok(CHAD_PFWD, g, d2);
    requires trh(CHAD_PFWD, ta) && trm(CHAD_PFWD, ta) == pa && trh(CHAD_TAN, ta) && trm(CHAD_TAN, ta) == sa;
    requires trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg && ty_valid(tg) && ty_valid(sa);
    requires tau == tm_ty_[b] && trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau) &&
      trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt && ty_valid(tt) && lin(tt);
    requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
    requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_is_ext(d2, d1, pa) && ctx_valid(d2);
    requires lp == ctx_len_[d] && ctx_len_[d1] == lp + 1 && lx == lp + 1 && ctx_len_[d2] == lx + 1;
    requires lvl_ty(d2, lp) == typ && lvl_ty(d2, lx) == pa;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa &&
      ty_same(ty_right_[typ], TY_LFUN, tg, sa);
    terminates \true;
    decreases FWD_M(depth) - 3;
    FWD_ASSIGNS;
    ensures kernel_inv && memo_inv && src_inv && venv_wf;
    ensures venv_sp == \old(venv_sp) && venv_cur == \old(venv_cur);
    ensures memo_grows{Pre, Post};
    ensures \old(tm_count) <= tm_count && \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures env_keep{Pre, Post};
    ensures lbody_size: tm_count - \old(tm_count) <= FWD_K * chad_msz_[b] + 18;
    ensures lbody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures lbody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, tg, tt);
*/
static int fwd_let_body(int b, int p, int d1, int d2, int lp, int lx, int tg, int depth)
  /*@ ghost (int g, int gb, int ta, int tau, int pa, int sa, int pt, int tt,
             int d, int typ) */
{
  //@ ghost int rtp = ty_right_[typ];
  //@ assert qb_rtp0: ty_node_ok(typ) && ty_valid(rtp) && ty_same(rtp, TY_LFUN, tg, sa);
  int q = fwd_under(b, d2, lx, depth + 1);
  //@ assert qb_keep: env_keep{Pre, Here};
  //@ assert qb_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b];
  if (q < 0) return q;
  //@ assert qb_b: tm_ctx_[b] == gb && tm_ty_[b] == tau;
  //@ assert qb_fwd: tm_ctx_[q] == d2 && fwd_ty(tm_ty_[q], gb, tau) && 0 <= q < tm_count;
  //@ ghost int tyq = tm_ty_[q];
  //@ ghost int tgx = chad_memo_ctx_[CHAD_TAN][gb] - 1;
  //@ assert qb_tgx: trch(CHAD_TAN, gb) && trc(CHAD_TAN, gb) == tgx && 0 < gb;
  //@ ghost trc_step(CHAD_TAN, gb);
  //@ assert qb_memo1: trm(CHAD_PFWD, ta) == pa && trm(CHAD_TAN, ta) == sa && trc(CHAD_TAN, g) == tg;
  //@ assert qb_memo2: trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt;
  //@ assert qb_tgx2: ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, sa);
  //@ assert qb_qty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, tgx, tt);
  /* p's and x's facts after the call, in small steps */
  //@ assert qb_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert qb_len: ctx_len_[d] == lp && ctx_len_[d1] == lp + 1 && lx == lp + 1;
  //@ assert qb_grow: tables_grow{Pre, Here};
  //@ assert qb_pk: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa;
  //@ assert qb_pr1: ty_right_[typ] == rtp;
  //@ assert qb_pr2: ty_valid(rtp) && ty_same(rtp, TY_LFUN, tg, sa);
  //@ assert qb_pr: ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  //@ assert qb_tt: ty_valid(tt) && lin(tt) && ty_valid(tg) && ty_valid(sa);
  //@ assert qb_ext: ctx_is_ext(d1, d, typ) && ctx_is_ext(d2, d1, pa) && ctx_valid(d2) && ctx_valid(d);
  //@ assert qb_len2: ctx_len_[d2] == lx + 1;
  //@ assert qb_lvl: lvl_ty(d2, lp) == typ && lvl_ty(d2, lx) == pa;
  int lq = L(d2), d3 = f_ext(d2, tyof(q));
  //@ assert d3 >= 0 || d3 == CHAD_E_CAPACITY;
  //@ assert d3_keep: env_keep{Pre, Here};
  //@ assert d3_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b];
  if (d3 < 0) return d3;
  //@ assert d3_len: ctx_len_[d3] == lq + 1 && lq == lx + 1 && ctx_parent_[d3] == d2 && ctx_type_[d3] == tyq;
  //@ assert d3_ext: ctx_is_ext(d3, d2, tyq) && ctx_valid(d3);
  //@ assert d3_ext2: ctx_is_ext(d2, d1, pa) && ctx_is_ext(d1, d, typ) && ctx_valid(d);
  //@ assert d3_lq: lvl_ty(d3, lq) == tyq;
  //@ assert d3_lp: lvl_ty(d3, lp) == typ && 0 <= lp < lq < ctx_len_[d3];
  //@ assert d3_pty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  //@ assert d3_pty2: ty_valid(typ) && ty_same(typ, TY_PROD, pa, rtp);
  //@ assert d3_qty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, tgx, tt);
  //@ assert d3_tgx: ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, sa);
  //@ ghost Built: ;
  int lin = fwd_let_lin(d3, lp, lq, tg) /*@ ghost (sa, tgx, tt, typ, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d3 && ty_same(tm_ty_[lin], TY_LFUN, tg, tt) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_env: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 10;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert ty_valid(tyl) && ty_same(tyl, TY_LFUN, tg, tt);
  //@ assert tail_q: 0 <= q < tm_count && tm_ctx_[q] == d2 && tm_ty_[q] == tyq && lvl_ty(d3, lq) == tyq;
  //@ assert tail_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  /* p's type across the linear half: one step of lemma ty_same_keep */
  //@ assert tail_pty1: ty_valid(typ) && ty_same(typ, TY_PROD, pa, rtp);
  //@ assert tail_pty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa;
  //@ assert tail_ext: ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]) && ctx_is_ext(d2, d1, pa) && ctx_is_ext(d3, d2, tm_ty_[q]);
  //@ assert tail_len: ctx_len_[d1] == ctx_len_[d] + 1 && lp == ctx_len_[d] && ctx_len_[d2] == ctx_len_[d1] + 1 && ctx_len_[d3] == ctx_len_[d2] + 1 && lq == ctx_len_[d2];
  //@ assert tail_qty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt;
  //@ ghost Lin: ;
  int r = let_let_tail(p, q, d1, d3, lp, lq, lin) /*@ ghost (d, d2, pa, pt, tg, tt) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ assert r >= 0 ==> ty_valid(tm_ty_[r]) && ty_kind_[tm_ty_[r]] == TY_PROD && ty_left_[tm_ty_[r]] == pt && ty_same(ty_right_[tm_ty_[r]], TY_LFUN, tg, tt);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 18;
  //@ assert tables_grow{Lin, Here} && side_same{Lin, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* F(let a (x. b)) =
 *   let p = F a; x = fst p; q = F_{G,x} b in (fst q, \v. snd q (v, snd p v)) */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_LET; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases FWD_M(depth) - 2;
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_let(int t, int d, int tg, int depth)
{
  //@ assert node_ok(t) && msz_ok(t) && msrc_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t);
  //@ ghost int ta = tm_ty_[a];
  //@ ghost int gb = tm_ctx_[b];
  //@ assert 0 <= a < t && 0 <= b < t && chad_msrc_[a] == 1 && chad_msrc_[b] == 1;
  //@ assert tm_ctx_[a] == g && ctx_is_ext(gb, g, ta) && tau == tm_ty_[b];
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b]);
  /* the size budget: F a, F b and at most 18 nodes of this rule (or the
   * whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert let_budget: FWD_K * chad_msz_[a] + FWD_K * chad_msz_[b] + 18 <= FWD_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= FWD_K * chad_msz_[t]; */
  //@ ghost int pt = chad_memo_ty_[CHAD_PFWD][tau] - 1;
  //@ ghost int tt = chad_memo_ty_[CHAD_TAN][tau] - 1;
  //@ ghost tan_lin_lemma();
  //@ assert let_lin: lin(tt) && ty_valid(tt) && ty_valid(tg);
  int p = f_sub(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  //@ assert pa_fwd: tm_ctx_[p] == d && fwd_ty(tm_ty_[p], g, ta) && 0 <= p < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a];
  //@ ghost int pa = chad_memo_ty_[CHAD_PFWD][ta] - 1;
  //@ ghost int sa = chad_memo_ty_[CHAD_TAN][ta] - 1;
  //@ assert pa_memo: trh(CHAD_PFWD, ta) && trh(CHAD_TAN, ta) && trm(CHAD_PFWD, ta) == pa && trm(CHAD_TAN, ta) == sa && trc(CHAD_TAN, g) == tg;
  //@ ghost int typ = tm_ty_[p];
  //@ assert pa_ty: ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  //@ assert pa_valid: ty_valid(typ) && ty_valid(ty_right_[typ]) && ty_valid(sa);
  //@ assert pa_tt: ty_valid(tt) && lin(tt) && trm(CHAD_TAN, tau) == tt && trm(CHAD_PFWD, tau) == pt;
  int lp = L(d), d1 = f_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_env: env_ok(CHAD_PFWD, g, d1) && ctx_len_[d1] == lp + 1 && lvl_ty(d1, lp) == typ;
  //@ assert d1_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d) && lp == ctx_len_[d];
  /* x = fst p : P a, the binder of b (the tail builds x itself) */
  int px = ty_left(tyof(p));
  //@ assert px == pa;
  int lx = L(d1), d2 = f_ext(d1, px);
  //@ assert d2 >= 0 || d2 == CHAD_E_CAPACITY;
  //@ assert d2_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert d2_keep: env_keep{Pre, Here};
  if (d2 < 0) return d2;
  //@ assert d2_env: env_ok(CHAD_PFWD, g, d2) && ctx_len_[d2] == lx + 1 && lx == lp + 1;
  //@ assert d2_lx: lx == ctx_len_[d1] && ctx_len_[d1] == lp + 1 && px == pa;
  //@ assert d2_top: lvl_ty(d2, ctx_len_[d1]) == px;
  //@ assert d2_lvl1: lvl_ty(d2, lx) == pa && 0 <= lp < ctx_len_[d1];
  //@ assert d2_lvl2: lvl_ty(d1, lp) == typ;
  //@ assert d2_lvl: lvl_ty(d2, lx) == pa && lvl_ty(d2, lp) == typ;
  //@ assert d2_ext: ctx_is_ext(d2, d1, pa) && ctx_valid(d2) && ctx_is_ext(d1, d, typ) && ctx_valid(d);
  //@ assert d2_b: ctx_parent_[gb] == g && ctx_type_[gb] == ta && 0 < gb < ctx_count;
  //@ assert d2_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert d2_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  //@ assert d2_memo: trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau) && trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt;
  //@ assert d2_tg: trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg && ty_valid(tg) && ty_valid(sa);
  //@ assert d2_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a];
  //@ assert d2_len: lp == ctx_len_[d] && ctx_len_[d1] == lp + 1 && ctx_len_[d2] == lx + 1;
  //@ ghost Body: ;
  int r = fwd_let_body(b, p, d1, d2, lp, lx, tg, depth) /*@ ghost (g, gb, ta, tau, pa, sa, pt, tt, d, typ) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= FWD_K * chad_msz_[b] + 18;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert r >= 0 || r == CHAD_E_CAPACITY || r == CHAD_E_DEPTH;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, tg, tt);
  //@ assert r >= 0 ==> ty_node_ok(tyr) && 0 <= ty_right_[tyr] < tyr;
  //@ assert trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau) && trch(CHAD_TAN, g) && trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt && trc(CHAD_TAN, g) == tg;
  //@ assert r >= 0 ==> fwd_ty(tm_ty_[r], g, tau);
  //@ assert tm_ctx_[t] == g && tm_ty_[t] == tau;
  //@ assert let_type: r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d && fwd_ty(tm_ty_[r], tm_ctx_[t], tm_ty_[t]);
  return r;
}

/* \u. snd r (0, u), the tangent map of F(lam)'s primal function, in e2
 * where level lr holds r = f x : tyq = P tau * (tga -o tt), tga = T(G, x)
 * = tg * tsg: of type tsg -o tt, which is rr (the linear part of
 * P(sigma -> tau) = P sigma -> P tau * (T sigma -o T tau)) by
 * hash-consing. Against the kernel's invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(e2) && 0 <= lr < ctx_len_[e2] && lvl_ty(e2, lr) == tyq;
    requires ty_valid(tsg) && lin(tg) && lin(tt);
    requires ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, tga, tt);
    requires ty_valid(tga) && ty_same(tga, TY_PROD, tg, tsg);
    requires ty_valid(rr) && ty_same(rr, TY_LFUN, tsg, tt);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures flam_inner_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == e2 &&
      tm_ty_[\result] == rr;
    ensures flam_inner_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures flam_inner_size: \old(tm_count) <= tm_count <= \old(tm_count) + 7;
    ensures flam_inner_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures flam_inner_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures flam_inner_lvl: \forall integer l; 0 <= l < ctx_len_[e2] ==> lvl_ty(e2, l) == \old(lvl_ty(e2, l));
    ensures env_keep{Pre, Post};
*/
static int fwd_lam_inner(int e2, int lr, int tsg, int tg)
  /*@ ghost (int tyq, int tga, int tt, int rr) */
{
  //@ ghost int qr = ty_right_[tyq];
  //@ assert q_node: ty_inv && ty_node_ok(tyq) && 0 <= qr < tyq && ty_same(qr, TY_LFUN, tga, tt);
  int lu = L(e2), e3 = k_ext(e2, tsg);
  if (e3 < 0) return e3;
  //@ assert e3_ctx: ctx_valid(e3) && ctx_is_ext(e3, e2, tsg) && ctx_len_[e3] == lu + 1 && lu == ctx_len_[e2];
  //@ assert e3_lvl: lvl_ty(e3, lu) == tsg && lvl_ty(e3, lr) == tyq;
  //@ assert e3_keep: \forall integer l; 0 <= l < ctx_len_[e2] ==> lvl_ty(e2, l) == \at(lvl_ty(e2, l), Pre);
  int vr = V(e3, lr);
  //@ assert vr >= 0 ==> 0 <= vr < tm_count && tm_ctx_[vr] == e3 && tm_ty_[vr] == tyq;
  //@ assert vr >= 0 || vr == CHAD_E_CAPACITY;
  int sr = b_snd(vr);
  //@ assert sr >= 0 ==> 0 <= sr < tm_count && tm_ctx_[sr] == e3 && tm_ty_[sr] == qr;
  //@ assert sr >= 0 || sr == CHAD_E_CAPACITY;
  //@ assert sr >= 0 ==> ty_same(tm_ty_[sr], TY_LFUN, tga, tt);
  //@ assert ctx_valid(e3) && lin(tg);
  int z = b_zero(e3, tg);
  //@ assert z >= 0 ==> 0 <= z < tm_count && tm_ctx_[z] == e3 && tm_ty_[z] == tg;
  //@ assert z >= 0 || z == CHAD_E_CAPACITY;
  int vu = V(e3, lu);
  //@ assert vu >= 0 ==> 0 <= vu < tm_count && tm_ctx_[vu] == e3 && tm_ty_[vu] == tsg;
  //@ assert vu >= 0 || vu == CHAD_E_CAPACITY;
  //@ assert z >= 0 ==> 0 <= z < tm_count && tm_ctx_[z] == e3 && tm_ty_[z] == tg;
  int zu = b_pair(z, vu);
  //@ assert zu >= 0 ==> 0 <= zu < tm_count && tm_ctx_[zu] == e3 && ty_valid(tm_ty_[zu]) && ty_same(tm_ty_[zu], TY_PROD, tg, tsg);
  //@ assert zu >= 0 || zu == CHAD_E_CAPACITY;
  /* hash-consing: (0, u) has the type T(G, x) itself */
  //@ assert tga_same: ty_inv && ty_valid(tga) && ty_same(tga, TY_PROD, tg, tsg);
  //@ assert zu_tga: zu >= 0 ==> tm_ty_[zu] == tga;
  //@ assert sr >= 0 ==> 0 <= sr < tm_count && tm_ctx_[sr] == e3 && ty_same(tm_ty_[sr], TY_LFUN, tga, tt);
  int du = b_lapp(sr, zu);
  //@ assert du >= 0 ==> 0 <= du < tm_count && tm_ctx_[du] == e3 && tm_ty_[du] == tt;
  //@ assert du >= 0 || du == CHAD_E_CAPACITY;
  //@ assert du >= 0 ==> ty_valid(tsg) && llam_ok(tsg, tm_ctx_[du], tm_ty_[du]);
  //@ assert e3_par: ctx_parent_[e3] == e2;
  int r = b_llam(tsg, du);
  //@ assert r_ctx: r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == e2;
  //@ assert r_ty0: r >= 0 ==> ty_valid(tm_ty_[r]) && ty_same(tm_ty_[r], TY_LFUN, tsg, tt);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  /* hash-consing: tsg -o tt is the linear part of P(sigma -> tau) */
  //@ assert rr_same: ty_inv && ty_valid(rr) && ty_same(rr, TY_LFUN, tsg, tt);
  //@ assert r_rr: r >= 0 ==> tm_ty_[r] == rr;
  //@ assert tm_count <= \at(tm_count, Pre) + 7;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert r_keep: \forall integer l; 0 <= l < ctx_len_[e2] ==> lvl_ty(e2, l) == \at(lvl_ty(e2, l), Pre);
  return r;
}

/* The body of F(lam)'s primal function, in e1 = d1, x (level lf holds f :
 * tyf = psg -> tyq, level lx holds x : psg):
 *   let r = f x in (fst r, \u. snd r (0, u))
 * of type rp = pt * rr, P(sigma -> tau)'s codomain. Against the kernel's
 * invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(e1) && 0 <= lf < ctx_len_[e1] && lvl_ty(e1, lf) == tyf;
    requires 0 <= lx < ctx_len_[e1] && lvl_ty(e1, lx) == psg;
    requires ty_valid(tsg) && lin(tg) && lin(tt);
    requires ty_valid(tyf) && ty_same(tyf, TY_FUN, psg, tyq);
    requires ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt &&
      ty_same(ty_right_[tyq], TY_LFUN, tga, tt);
    requires ty_valid(tga) && ty_same(tga, TY_PROD, tg, tsg);
    requires ty_valid(rr) && ty_same(rr, TY_LFUN, tsg, tt);
    requires ty_valid(rp) && ty_same(rp, TY_PROD, pt, rr);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures flam_pbody_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == e1 &&
      tm_ty_[\result] == rp;
    ensures flam_pbody_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures flam_pbody_size: \old(tm_count) <= tm_count <= \old(tm_count) + 14;
    ensures flam_pbody_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures flam_pbody_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures flam_pbody_lvl: \forall integer l; 0 <= l < ctx_len_[e1] ==> lvl_ty(e1, l) == \old(lvl_ty(e1, l));
    ensures env_keep{Pre, Post};
*/
static int fwd_lam_pbody(int e1, int lf, int lx, int tsg, int tg)
  /*@ ghost (int tyf, int psg, int tyq, int pt, int tga, int tt, int rr, int rp) */
{
  int r = lam_apply(e1, lf, lx) /*@ ghost (tyf, psg, tyq) */;
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == e1 && tm_ty_[r] == tyq;
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert r_grow: tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert r_keep: \forall integer l; 0 <= l < ctx_len_[e1] ==> lvl_ty(e1, l) == \at(lvl_ty(e1, l), Pre);
  //@ assert r_keepe: env_keep{Pre, Here};
  if (r < 0) return r;
  //@ assert r_ctx: ctx_valid(e1);
  int lr = L(e1), e2 = k_ext(e1, tyof(r));
  if (e2 < 0) return e2;
  //@ assert e2_ctx: ctx_valid(e2) && ctx_is_ext(e2, e1, tyq) && ctx_len_[e2] == lr + 1 && lr == ctx_len_[e1];
  //@ assert e2_lvl: lvl_ty(e2, lr) == tyq;
  //@ assert e2_keep: \forall integer l; 0 <= l < ctx_len_[e1] ==> lvl_ty(e1, l) == \at(lvl_ty(e1, l), Pre);
  //@ assert e2_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, tga, tt);
  //@ assert e2_tga: ty_valid(tga) && ty_same(tga, TY_PROD, tg, tsg) && lin(tg) && lin(tt) && ty_valid(tsg);
  //@ assert e2_rr: ty_valid(rr) && ty_same(rr, TY_LFUN, tsg, tt);
  //@ ghost E2: ;
  int inner = fwd_lam_inner(e2, lr, tsg, tg) /*@ ghost (tyq, tga, tt, rr) */;
  //@ assert inner >= 0 ==> 0 <= inner < tm_count && tm_ctx_[inner] == e2 && tm_ty_[inner] == rr;
  //@ assert inner >= 0 || inner == CHAD_E_CAPACITY;
  //@ assert i_size: tm_count <= \at(tm_count, Pre) + 10;
  //@ assert i_grow: tables_grow{E2, Here} && side_same{E2, Here};
  //@ assert i_keep: \forall integer l; 0 <= l < ctx_len_[e1] ==> lvl_ty(e1, l) == \at(lvl_ty(e1, l), Pre);
  //@ assert i_keepe: env_keep{Pre, Here};
  if (inner < 0) return inner;
  //@ assert i_lvl: lvl_ty(e2, lr) == tyq && ctx_valid(e2) && ctx_is_ext(e2, e1, tyq) && 0 <= lr < ctx_len_[e2];
  //@ assert i_r: 0 <= r < tm_count && tm_ctx_[r] == e1 && tm_ty_[r] == tyq;
  //@ assert i_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_valid(rp) && ty_same(rp, TY_PROD, pt, rr);
  //@ ghost I1: ;
  int lb = lam_pair_let(r, e2, lr, inner) /*@ ghost (e1, tyq, pt, rr, rp) */;
  //@ assert lb >= 0 ==> 0 <= lb < tm_count && tm_ctx_[lb] == e1 && tm_ty_[lb] == rp;
  //@ assert lb >= 0 || lb == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 14;
  //@ assert lb_grow: tables_grow{I1, Here} && side_same{I1, Here};
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert lb_keep: \forall integer l; 0 <= l < ctx_len_[e1] ==> lvl_ty(e1, l) == \at(lvl_ty(e1, l), Pre);
  //@ assert lb_keepe: env_keep{Pre, Here};
  return lb;
}

/* The primal of F(lam), in d1 = d, f (level lf holds f = \x. F_{G,x} a :
 * tyf = P sigma -> tyq):
 *   \x. let r = f x in (fst r, \u. snd r (0, u))
 * of type P(sigma -> tau) = pf = psg -> R, R = pt * rr, by hash-consing.
 * Against the kernel's invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(d1) && 0 <= lf < ctx_len_[d1] && lvl_ty(d1, lf) == tyf;
    requires ty_valid(psg) && ty_valid(tsg) && lin(tg) && lin(tt);
    requires ty_valid(tyf) && ty_same(tyf, TY_FUN, psg, tyq);
    requires ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt &&
      ty_same(ty_right_[tyq], TY_LFUN, tga, tt);
    requires ty_valid(tga) && ty_same(tga, TY_PROD, tg, tsg);
    requires ty_valid(pf) && ty_same(pf, TY_FUN, psg, rp) && ty_valid(rp) &&
      ty_same(rp, TY_PROD, pt, rr) && ty_valid(rr) && ty_same(rr, TY_LFUN, tsg, tt);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures flam_prim_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d1 &&
      tm_ty_[\result] == pf;
    ensures flam_prim_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures flam_prim_size: \old(tm_count) <= tm_count <= \old(tm_count) + 15;
    ensures flam_prim_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures flam_prim_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures flam_prim_lvl: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \old(lvl_ty(d1, l));
    ensures env_keep{Pre, Post};
*/
static int fwd_lam_prim(int d1, int lf, int psg, int tsg, int tg)
  /*@ ghost (int tyf, int tyq, int pt, int tga, int tt, int pf, int rp, int rr) */
{
  int lx = L(d1), e1 = k_ext(d1, psg);
  if (e1 < 0) return e1;
  //@ assert e1_ctx: ctx_valid(e1) && ctx_is_ext(e1, d1, psg) && ctx_len_[e1] == lx + 1 && lx == ctx_len_[d1];
  //@ assert e1_lvl: lvl_ty(e1, lx) == psg && lvl_ty(e1, lf) == tyf;
  //@ assert e1_keep: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  int lb = fwd_lam_pbody(e1, lf, lx, tsg, tg) /*@ ghost (tyf, psg, tyq, pt, tga, tt, rr, rp) */;
  //@ assert lb >= 0 ==> 0 <= lb < tm_count && tm_ctx_[lb] == e1 && tm_ty_[lb] == rp;
  //@ assert lb >= 0 || lb == CHAD_E_CAPACITY;
  //@ assert b_size: tm_count <= \at(tm_count, Pre) + 14;
  //@ assert b_grow: tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert b_keep: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  //@ assert b_keepe: env_keep{Pre, Here};
  //@ assert e1_par: ctx_parent_[e1] == d1 && ctx_type_[e1] == psg && 0 < e1 < ctx_count && ty_valid(psg);
  /* b_lam's side condition, stated before the call (inside the call's goal
   * it took the solvers 9 s) */
  //@ assert lb_ok: lb >= 0 ==> 0 <= lb < tm_count && lam_ok(psg, tm_ctx_[lb]);
  int prim = b_lam(psg, lb);
  //@ assert p_ctx: prim >= 0 ==> 0 <= prim < tm_count && tm_ctx_[prim] == d1;
  //@ assert p_ty0: prim >= 0 ==> ty_valid(tm_ty_[prim]) && ty_same(tm_ty_[prim], TY_FUN, psg, rp);
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  /* hash-consing: the function's type is P(sigma -> tau) itself */
  //@ assert pf_same: ty_inv && ty_valid(pf) && ty_same(pf, TY_FUN, psg, rp);
  //@ assert p_pf: prim >= 0 ==> tm_ty_[prim] == pf;
  //@ assert tm_count <= \at(tm_count, Pre) + 15;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert p_keep: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  //@ assert p_keepe: env_keep{Pre, Here};
  return prim;
}

/* snd (f x) (v, 0), F(lam)'s tangent at one point x, in g2 where level lf
 * holds f : tyf = psg -> tyq (tyq = P tau * (tga -o tt), tga = tg * tsg),
 * level lx holds x : psg and level lv holds v : tg. Against the kernel's
 * invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(g2) && lin(tsg);
    requires 0 <= lf < ctx_len_[g2] && lvl_ty(g2, lf) == tyf;
    requires 0 <= lx < ctx_len_[g2] && lvl_ty(g2, lx) == psg;
    requires 0 <= lv < ctx_len_[g2] && lvl_ty(g2, lv) == tg;
    requires ty_valid(tyf) && ty_same(tyf, TY_FUN, psg, tyq);
    requires ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, tga, tt);
    requires ty_valid(tga) && ty_same(tga, TY_PROD, tg, tsg);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS;
    ensures kernel_inv;
    ensures flam_dv_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == g2 &&
      tm_ty_[\result] == tt;
    ensures flam_dv_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures flam_dv_size: \old(tm_count) <= tm_count <= \old(tm_count) + 8;
    ensures flam_dv_frame: \old(ty_count) <= ty_count;
    ensures flam_dv_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
*/
static int fwd_lam_dv(int g2, int lf, int lx, int lv, int tsg)
  /*@ ghost (int tyf, int psg, int tyq, int tga, int tg, int tt) */
{
  //@ ghost int qr = ty_right_[tyq];
  //@ assert q_node: ty_inv && ty_node_ok(tyq) && 0 <= qr < tyq && ty_same(qr, TY_LFUN, tga, tt);
  int wf = V(g2, lf);
  //@ assert wf >= 0 ==> 0 <= wf < tm_count && tm_ctx_[wf] == g2 && tm_ty_[wf] == tyf;
  //@ assert wf >= 0 || wf == CHAD_E_CAPACITY;
  int wx = V(g2, lx);
  //@ assert wx >= 0 ==> 0 <= wx < tm_count && tm_ctx_[wx] == g2 && tm_ty_[wx] == psg;
  //@ assert wx >= 0 || wx == CHAD_E_CAPACITY;
  //@ assert ty_valid(tyf) && ty_kind_[tyf] == TY_FUN && ty_left_[tyf] == psg && ty_right_[tyf] == tyq;
  int fx = b_app(wf, wx);
  //@ assert fx >= 0 ==> 0 <= fx < tm_count && tm_ctx_[fx] == g2 && tm_ty_[fx] == tyq;
  //@ assert fx >= 0 || fx == CHAD_E_CAPACITY;
  int sf = b_snd(fx);
  //@ assert sf >= 0 ==> 0 <= sf < tm_count && tm_ctx_[sf] == g2 && tm_ty_[sf] == qr;
  //@ assert sf >= 0 || sf == CHAD_E_CAPACITY;
  //@ assert sf >= 0 ==> ty_same(tm_ty_[sf], TY_LFUN, tga, tt);
  int wv = V(g2, lv);
  //@ assert wv >= 0 ==> 0 <= wv < tm_count && tm_ctx_[wv] == g2 && tm_ty_[wv] == tg;
  //@ assert wv >= 0 || wv == CHAD_E_CAPACITY;
  //@ assert ctx_valid(g2) && lin(tsg);
  int z = b_zero(g2, tsg);
  //@ assert z >= 0 ==> 0 <= z < tm_count && tm_ctx_[z] == g2 && tm_ty_[z] == tsg;
  //@ assert z >= 0 || z == CHAD_E_CAPACITY;
  //@ assert wv >= 0 ==> 0 <= wv < tm_count && tm_ctx_[wv] == g2 && tm_ty_[wv] == tg;
  int vz = b_pair(wv, z);
  //@ assert vz >= 0 ==> 0 <= vz < tm_count && tm_ctx_[vz] == g2 && ty_valid(tm_ty_[vz]) && ty_same(tm_ty_[vz], TY_PROD, tg, tsg);
  //@ assert vz >= 0 || vz == CHAD_E_CAPACITY;
  /* hash-consing: (v, 0) has the type T(G, x) itself */
  //@ assert tga_same: ty_inv && ty_valid(tga) && ty_same(tga, TY_PROD, tg, tsg);
  //@ assert vz_tga: vz >= 0 ==> tm_ty_[vz] == tga;
  //@ assert sf >= 0 ==> 0 <= sf < tm_count && tm_ctx_[sf] == g2 && ty_same(tm_ty_[sf], TY_LFUN, tga, tt);
  int r = b_lapp(sf, vz);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == g2 && tm_ty_[r] == tt;
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 8;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The linear half of F(lam), in d1 = d, f (level lf holds f : tyf):
 *   \v. \x. snd (f x) (v, 0)
 * of type tg -o stf, stf = T(sigma -> tau) = P sigma -> T tau (by
 * hash-consing). Against the kernel's invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(d1) && 0 <= lf < ctx_len_[d1] && lvl_ty(d1, lf) == tyf;
    requires ty_valid(psg) && ty_valid(tg) && lin(tsg);
    requires lin(stf) && ty_same(stf, TY_FUN, psg, tt);
    requires ty_valid(tyf) && ty_same(tyf, TY_FUN, psg, tyq);
    requires ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, tga, tt);
    requires ty_valid(tga) && ty_same(tga, TY_PROD, tg, tsg);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures flam_tan_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d1 &&
      ty_valid(tm_ty_[\result]) && ty_same(tm_ty_[\result], TY_LFUN, tg, stf);
    ensures flam_tan_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures flam_tan_size: \old(tm_count) <= tm_count <= \old(tm_count) + 10;
    ensures flam_tan_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures flam_tan_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures flam_tan_lvl: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \old(lvl_ty(d1, l));
    ensures env_keep{Pre, Post};
*/
static int fwd_lam_tan(int d1, int lf, int psg, int tsg, int tg)
  /*@ ghost (int tyf, int tyq, int tga, int tt, int stf) */
{
  int lv = L(d1), g1 = k_ext(d1, tg);
  if (g1 < 0) return g1;
  //@ assert g1_ctx: ctx_valid(g1) && ctx_is_ext(g1, d1, tg) && ctx_len_[g1] == lv + 1 && lv == ctx_len_[d1];
  //@ assert g1_lvl: lvl_ty(g1, lv) == tg && lvl_ty(g1, lf) == tyf;
  //@ assert g1_keep: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  int lx = L(g1), g2 = k_ext(g1, psg);
  //@ assert g2_keep0: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  if (g2 < 0) return g2;
  //@ assert g2_ctx: ctx_valid(g2) && ctx_is_ext(g2, g1, psg) && ctx_len_[g2] == lx + 1 && lx == ctx_len_[g1];
  //@ assert g2_lvl: lvl_ty(g2, lx) == psg && lvl_ty(g2, lv) == tg && lvl_ty(g2, lf) == tyf;
  //@ assert g2_keep: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  //@ ghost Exts: ;
  int dv = fwd_lam_dv(g2, lf, lx, lv, tsg) /*@ ghost (tyf, psg, tyq, tga, tg, tt) */;
  //@ assert dv >= 0 ==> 0 <= dv < tm_count && tm_ctx_[dv] == g2 && tm_ty_[dv] == tt;
  //@ assert dv >= 0 || dv == CHAD_E_CAPACITY;
  //@ assert dv_ctx: ctx_count == \at(ctx_count, Exts);
  //@ assert g2_par: ctx_parent_[g2] == g1 && ctx_type_[g2] == psg && 0 < g2 < ctx_count && ty_valid(psg);
  int fl = b_lam(psg, dv);
  //@ assert fl_ctx: fl >= 0 ==> 0 <= fl < tm_count && tm_ctx_[fl] == g1;
  //@ assert fl_ty0: fl >= 0 ==> ty_valid(tm_ty_[fl]) && ty_same(tm_ty_[fl], TY_FUN, psg, tt);
  //@ assert fl >= 0 || fl == CHAD_E_CAPACITY;
  /* hash-consing: the function's type is T(sigma -> tau) itself */
  //@ assert stf_same: ty_inv && ty_valid(stf) && ty_same(stf, TY_FUN, psg, tt);
  //@ assert fl_stf: fl >= 0 ==> tm_ty_[fl] == stf;
  //@ assert fl >= 0 ==> ty_valid(tg) && llam_ok(tg, tm_ctx_[fl], tm_ty_[fl]);
  //@ assert g1_par: ctx_parent_[g1] == d1;
  int r = b_llam(tg, fl);
  //@ assert r_ctx: r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d1;
  //@ assert r_ty: r >= 0 ==> ty_valid(tm_ty_[r]) && ty_same(tm_ty_[r], TY_LFUN, tg, stf);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 10;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert r_cnt: ctx_count == \at(ctx_count, Exts) && ctx_len_[d1] == \at(ctx_len_[d1], Exts);
  //@ assert r_keep: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  return r;
}

/* F(lam (x. a)), of type sigma -> tau, a : tau in ga = G, x : sigma:
 *   let f = \x. F_{G,x} a in
 *   ( \x. let r = f x in (fst r, \u. snd r (0, u)),
 *     \v. \x. snd (f x) (v, 0) )
 * F a under the binder (the one recursive call) and f here; the primal
 * fwd_lam_prim, the linear half fwd_lam_tan and the tail let_unary_tail
 * (let f in (prim, tan), shared with the one-child rules). P sigma and
 * T sigma are read from the memo table (memoised with sigma -> tau). */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_LAM; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases FWD_M(depth) - 2;
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_lam(int t, int d, int tg, int depth)
{
  //@ assert node_ok(t) && msz_ok(t) && msrc_ok(t);
  //@ ghost int g = tm_ctx_[t];
  int a = tm_a(t), ty = tm_type(t);
  //@ ghost int ga = tm_ctx_[a];
  //@ ghost int tau = tm_ty_[a];
  int sg = ty_left(ty);
  //@ assert lam_src: 0 < ga < ctx_count && ctx_type_[ga] == sg && ctx_parent_[ga] == g;
  //@ assert lam_ty: ty_valid(ty) && ty_kind_[ty] == TY_FUN && ty_right_[ty] == tau && ty_node_ok(ty);
  //@ assert 0 <= a < t && chad_msrc_[a] == 1;
  //@ assert lam_sz: chad_msz_[t] == sat(1 + chad_msz_[a]);
  /* the size budget: F a and at most 28 nodes of this rule (or the whole
   * arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert lam_budget: FWD_K * chad_msz_[a] + 28 <= FWD_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= FWD_K * chad_msz_[t]; */
  //@ ghost tr_step(CHAD_PFWD, ty);
  //@ ghost tr_step(CHAD_TAN, ty);
  //@ ghost int pf = chad_memo_ty_[CHAD_PFWD][ty] - 1;
  //@ ghost int stf = chad_memo_ty_[CHAD_TAN][ty] - 1;
  //@ assert lam_memo: trh(CHAD_PFWD, sg) && trh(CHAD_PFWD, tau) && trh(CHAD_TAN, sg) && trh(CHAD_TAN, tau);
  int psg = memo_ty_get(CHAD_PFWD, sg);
  int tsg = memo_ty_get(CHAD_TAN, sg);
  //@ ghost int pt = chad_memo_ty_[CHAD_PFWD][tau] - 1;
  //@ ghost int tt = chad_memo_ty_[CHAD_TAN][tau] - 1;
  //@ assert lam_psg: psg == trm(CHAD_PFWD, sg) && tsg == trm(CHAD_TAN, sg) && ty_valid(psg) && ty_valid(tsg);
  //@ ghost tan_lin_lemma();
  //@ ghost tan_lin_ctx_lemma();
  //@ assert lam_lin: lin(tt) && lin(tsg) && lin(tg) && lin(stf);
  //@ assert lam_stf: ty_same(stf, TY_FUN, psg, tt);
  /*@ assert lam_pf: ty_valid(pf) && ty_kind_[pf] == TY_FUN && ty_left_[pf] == psg &&
        0 <= ty_right_[pf] < pf && ty_kind_[ty_right_[pf]] == TY_PROD &&
        ty_left_[ty_right_[pf]] == pt && 0 <= ty_right_[ty_right_[pf]] < ty_right_[pf] &&
        ty_same(ty_right_[ty_right_[pf]], TY_LFUN, tsg, tt); */
  //@ ghost int rp = ty_right_[pf];
  //@ ghost int rr = ty_right_[rp];
  //@ assert lam_pf2: ty_same(pf, TY_FUN, psg, rp) && ty_valid(rp) && ty_same(rp, TY_PROD, pt, rr) && ty_valid(rr) && ty_same(rr, TY_LFUN, tsg, tt);
  int lx = L(d), dx = f_ext(d, psg);
  //@ assert dx >= 0 || dx == CHAD_E_CAPACITY;
  //@ assert dx_keep: env_keep{Pre, Here};
  //@ assert dx_grows: memo_grows{Pre, Here};
  //@ assert dx_inv: kernel_inv && memo_inv && src_inv && venv_wf;
  if (dx < 0) return dx;
  //@ assert dx_ext: ctx_is_ext(dx, d, psg) && ctx_valid(dx) && ctx_len_[dx] == lx + 1 && lx == ctx_len_[d];
  //@ assert dx_lvl: lvl_ty(dx, lx) == psg && env_ok(CHAD_PFWD, g, dx);
  //@ assert x_ga: env_ok(CHAD_PFWD, ctx_parent_[ga], dx) && trh(CHAD_PFWD, ctx_type_[ga]) && trm(CHAD_PFWD, ctx_type_[ga]) == psg;
  //@ assert dx_venv: venv_wf;
  int q = fwd_under(a, dx, lx, depth + 1);
  //@ assert q_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert q_keep: env_keep{Pre, Here};
  //@ assert q_grows: memo_grows{Pre, Here};
  //@ assert q_inv: kernel_inv && memo_inv && src_inv && venv_wf;
  if (q < 0) return q;
  //@ assert q_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a];
  //@ assert q_fwd: tm_ctx_[q] == dx && fwd_ty(tm_ty_[q], ga, tau) && 0 <= q < tm_count;
  //@ ghost int tyq = tm_ty_[q];
  //@ ghost int tga = chad_memo_ctx_[CHAD_TAN][ga] - 1;
  //@ assert q_tga: trch(CHAD_TAN, ga) && trc(CHAD_TAN, ga) == tga && 0 < ga;
  //@ ghost trc_step(CHAD_TAN, ga);
  //@ assert q_memo1: trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt && trc(CHAD_TAN, g) == tg;
  //@ assert q_memo2: trh(CHAD_TAN, sg) && trm(CHAD_TAN, sg) == tsg;
  //@ assert q_tga2: ty_valid(tga) && ty_same(tga, TY_PROD, tg, tsg);
  //@ assert q_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, tga, tt);
  //@ ghost int tqr = ty_right_[tyq];
  //@ assert q_ty2: ty_same(tyq, TY_PROD, pt, tqr) && ty_valid(tqr) && ty_same(tqr, TY_LFUN, tga, tt);
  //@ assert q_dx: ctx_parent_[dx] == d && ctx_type_[dx] == psg && 0 < dx < ctx_count && ty_valid(psg);
  /* the types read from the memo at the top, restated after each call so
   * that no goal frames them through more than one */
  //@ assert q_lin: ty_valid(psg) && ty_valid(tsg) && lin(tt) && lin(tsg) && lin(tg) && lin(stf);
  //@ assert q_stf: ty_valid(stf) && ty_same(stf, TY_FUN, psg, tt);
  //@ ghost Q1: ;
  int f = b_lam(psg, q);
  //@ assert f >= 0 ==> 0 <= f < tm_count && tm_ctx_[f] == d && ty_valid(tm_ty_[f]) && ty_same(tm_ty_[f], TY_FUN, psg, tyq);
  //@ assert f >= 0 || f == CHAD_E_CAPACITY;
  //@ assert f_grow: tables_grow{Q1, Here} && side_same{Q1, Here};
  //@ assert f_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  /* the linear types framed through b_lam one at a time (as p_ty2a/b) */
  //@ assert f_lin1: 0 <= tsg < \at(ty_count, Q1) && \at(ty_lin_[tsg], Q1) == 1 && ty_lin_[tsg] == 1;
  //@ assert f_lin2: 0 <= stf < \at(ty_count, Q1) && \at(ty_lin_[stf], Q1) == 1 && ty_lin_[stf] == 1;
  //@ assert f_lin3: 0 <= tt < \at(ty_count, Q1) && \at(ty_lin_[tt], Q1) == 1 && ty_lin_[tt] == 1;
  //@ assert f_lin4: 0 <= tg < \at(ty_count, Q1) && \at(ty_lin_[tg], Q1) == 1 && ty_lin_[tg] == 1;
  //@ assert f_lin5: 0 <= psg < \at(ty_count, Q1) && \at(ty_count, Q1) <= ty_count;
  //@ assert f_lin: ty_valid(psg) && ty_valid(tsg) && lin(tt) && lin(tsg) && lin(tg) && lin(stf);
  //@ assert f_stf: ty_valid(stf) && ty_same(stf, TY_FUN, psg, tt);
  //@ assert f_keep: env_keep{Pre, Here};
  //@ assert f_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a] + 1;
  //@ assert f_grows: memo_grows{Pre, Here};
  //@ assert f_inv2: kernel_inv && src_inv;
  if (f < 0) return f;
  //@ ghost int tyf = tm_ty_[f];
  //@ assert f_env: ctx_valid(d);
  int lf = L(d), d1 = f_ext(d, tyof(f));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_keep: env_keep{Pre, Here};
  //@ assert d1_ret: d1 < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert d1_grows: memo_grows{Pre, Here};
  //@ assert d1_inv: kernel_inv && memo_inv && src_inv && venv_wf;
  if (d1 < 0) return d1;
  //@ assert d1_ext: ctx_is_ext(d1, d, tyf) && ctx_valid(d1) && ctx_len_[d1] == lf + 1 && lf == ctx_len_[d];
  //@ assert d1_lvl: lvl_ty(d1, lf) == tyf;
  //@ assert d1_f: ty_valid(tyf) && ty_same(tyf, TY_FUN, psg, tyq);
  //@ assert d1_q2: ty_valid(tyq) && ty_same(tyq, TY_PROD, pt, tqr) && ty_valid(tqr) && ty_same(tqr, TY_LFUN, tga, tt);
  //@ assert d1_q: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, tga, tt);
  //@ assert d1_tga: ty_valid(tga) && ty_same(tga, TY_PROD, tg, tsg);
  //@ assert d1_ty: ty_valid(psg) && ty_valid(tsg) && lin(tsg) && lin(tg) && lin(tt) && lin(stf) && ty_same(stf, TY_FUN, psg, tt);
  //@ assert d1_pf2: ty_valid(pf) && ty_same(pf, TY_FUN, psg, rp) && ty_valid(rp) && ty_same(rp, TY_PROD, pt, rr) && ty_valid(rr) && ty_same(rr, TY_LFUN, tsg, tt);
  //@ ghost D1: ;
  int prim = fwd_lam_prim(d1, lf, psg, tsg, tg) /*@ ghost (tyf, tyq, pt, tga, tt, pf, rp, rr) */;
  //@ assert prim >= 0 ==> 0 <= prim < tm_count && tm_ctx_[prim] == d1 && tm_ty_[prim] == pf;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert p_keep: env_keep{Pre, Here};
  //@ assert p_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a] + 16;
  //@ assert p_grow: tables_grow{D1, Here} && side_same{D1, Here};
  //@ assert p_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  //@ assert p_ret: prim < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert p_grows: memo_grows{Pre, Here};
  //@ assert p_inv2: kernel_inv && src_inv;
  if (prim < 0) return prim;
  //@ assert p_fn: 0 <= f < tm_count && tm_ctx_[f] == d && tm_ty_[f] == tyf && ctx_is_ext(d1, d, tyf);
  //@ assert p_lvl: lvl_ty(d1, lf) == tyf && ctx_valid(d1) && 0 <= lf < ctx_len_[d1];
  //@ assert p_f: ty_valid(tyf) && ty_same(tyf, TY_FUN, psg, tyq);
  //@ assert p_q2: ty_valid(tyq) && ty_same(tyq, TY_PROD, pt, tqr) && ty_valid(tqr) && ty_same(tqr, TY_LFUN, tga, tt);
  //@ assert p_q: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, tga, tt);
  //@ assert p_tga: ty_valid(tga) && ty_same(tga, TY_PROD, tg, tsg);
  //@ assert p_ty1: ty_valid(psg) && ty_valid(tg);
  /* the two linear types, framed one at a time through fwd_lam_prim's
   * growth (as one goal it took Z3 11 s) */
  //@ assert p_ty2a: 0 <= tsg < \at(ty_count, D1) && \at(ty_lin_[tsg], D1) == 1 && ty_lin_[tsg] == 1;
  //@ assert p_ty2b: 0 <= stf < \at(ty_count, D1) && \at(ty_lin_[stf], D1) == 1 && ty_lin_[stf] == 1;
  //@ assert p_ty2: lin(tsg) && lin(stf);
  //@ assert p_ty3: ty_valid(stf) && ty_same(stf, TY_FUN, psg, tt);
  //@ ghost P1: ;
  int tan = fwd_lam_tan(d1, lf, psg, tsg, tg) /*@ ghost (tyf, tyq, tga, tt, stf) */;
  //@ assert tan >= 0 ==> 0 <= tan < tm_count && tm_ctx_[tan] == d1 && ty_valid(tm_ty_[tan]) && ty_same(tm_ty_[tan], TY_LFUN, tg, stf);
  //@ assert tan >= 0 || tan == CHAD_E_CAPACITY;
  //@ assert l_keep: env_keep{Pre, Here};
  //@ assert l_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a] + 26;
  //@ assert l_grow: tables_grow{P1, Here} && side_same{P1, Here};
  //@ assert l_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  //@ assert l_ret: tan < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert l_grows: memo_grows{Pre, Here};
  //@ assert l_inv2: kernel_inv && src_inv;
  if (tan < 0) return tan;
  //@ assert l_fn: 0 <= f < tm_count && tm_ctx_[f] == d && tm_ty_[f] == tyf && ctx_is_ext(d1, d, tyf);
  //@ ghost int tyl = tm_ty_[tan];
  //@ assert t_tan: 0 <= tan < tm_count && tm_ctx_[tan] == d1 && ty_valid(tyl) && ty_same(tyl, TY_LFUN, tg, stf);
  //@ assert t_prim: 0 <= prim < tm_count && tm_ctx_[prim] == d1 && tm_ty_[prim] == pf;
  //@ assert t_f: 0 <= f < tm_count && tm_ctx_[f] == d && tm_ty_[f] == tyf && ctx_valid(d) && ctx_is_ext(d1, d, tyf);
  //@ ghost Tail: ;
  int res = let_unary_tail(f, prim, tan) /*@ ghost (d, d1, pf, tg, stf) */;
  //@ assert res >= 0 ==> tm_ctx_[res] == d && \at(tm_count, Pre) <= res < tm_count;
  //@ ghost int tyr = res >= 0 ? tm_ty_[res] : 0;
  //@ assert res >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pf && ty_same(ty_right_[tyr], TY_LFUN, tg, stf);
  //@ assert res >= 0 ==> ty_node_ok(tyr) && 0 <= ty_right_[tyr] < tyr;
  //@ assert res >= 0 || res == CHAD_E_CAPACITY;
  //@ assert r_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a] + 28;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert tables_grow{Tail, Here} && side_same{Tail, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  //@ assert r_inv: kernel_inv && memo_inv && src_inv && venv_wf;
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert env_keep{Pre, Here};
  //@ assert trh(CHAD_PFWD, ty) && trh(CHAD_TAN, ty) && trch(CHAD_TAN, g) && trm(CHAD_PFWD, ty) == pf && trm(CHAD_TAN, ty) == stf && trc(CHAD_TAN, g) == tg;
  //@ assert res >= 0 ==> fwd_ty(tm_ty_[res], g, ty);
  //@ assert tm_ctx_[t] == g && tm_ty_[t] == ty;
  //@ assert lam_type: res >= 0 ==> 0 <= res < tm_count && tm_ctx_[res] == d && fwd_ty(tm_ty_[res], tm_ctx_[t], tm_ty_[t]);
  return res;
}

/* The linear half of F(app a b), in d3 where level lp holds p = F a (type
 * typ = P(s->t) * (T G -o tf), tf = T(s->t) = P s -> T t), level lq holds
 * q = F b (type tyq = P s * (T G -o T s)) and level lr holds
 * r = fst p (fst q) (type tyr = P t * (T s -o T t)):
 *   \v. (snd p v) (fst q) + snd r (snd q v)
 * of type T G -o T t, tg = T G and tt = T t. Against the kernel's
 * invariant only, with raw builders (as fwd_pair_lin). */
/*@ requires kernel_inv;
    requires ctx_valid(d3) && ty_valid(tg) && ty_valid(tt) && lin(tt);
    requires ty_valid(tf) && ty_same(tf, TY_FUN, ps, tt);
    requires 0 <= lp < ctx_len_[d3] && lvl_ty(d3, lp) == typ && ty_valid(typ) &&
      ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, tg, tf);
    requires 0 <= lq < ctx_len_[d3] && lvl_ty(d3, lq) == tyq && ty_valid(tyq) &&
      ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == ps && ty_same(ty_right_[tyq], TY_LFUN, tg, ts);
    requires 0 <= lr < ctx_len_[d3] && lvl_ty(d3, lr) == tyr && ty_valid(tyr) &&
      ty_kind_[tyr] == TY_PROD && ty_same(ty_right_[tyr], TY_LFUN, ts, tt);
    terminates \true;
    assigns CH_TM_LOCS, CH_TMS_LOCS, CH_TYS_LOCS, CH_CTX_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures fapp_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d3 &&
      ty_same(tm_ty_[\result], TY_LFUN, tg, tt);
    ensures fapp_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures fapp_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 16;
    ensures fapp_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures fapp_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures fapp_lin_lvl: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \old(lvl_ty(d3, l));
    ensures env_keep{Pre, Post};
*/
static int fwd_app_lin(int d3, int lp, int lq, int lr, int tg)
  /*@ ghost (int tt, int tf, int ps, int ts, int typ, int tyq, int tyr) */
{
  int lv = L(d3), d4 = k_ext(d3, tg);
  if (d4 < 0) return d4;
  //@ assert d4_lv: lvl_ty(d4, lv) == tg && ctx_parent_[d4] == d3 && ctx_type_[d4] == tg;
  //@ assert d4_lp: lvl_ty(d4, lp) == typ && lvl_ty(d4, lq) == tyq && lvl_ty(d4, lr) == tyr;
  int vp = V(d4, lp);
  //@ assert vp >= 0 ==> tm_ctx_[vp] == d4 && tm_ty_[vp] == typ && 0 <= vp < tm_count;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d4 && ty_same(tm_ty_[sp], TY_LFUN, tg, tf) && 0 <= sp < tm_count;
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int v1 = V(d4, lv);
  //@ assert v1 >= 0 ==> tm_ctx_[v1] == d4 && tm_ty_[v1] == tg && 0 <= v1 < tm_count;
  //@ assert v1 >= 0 || v1 == CHAD_E_CAPACITY;
  int dg = b_lapp(sp, v1);
  //@ assert dg >= 0 ==> tm_ctx_[dg] == d4 && tm_ty_[dg] == tf && 0 <= dg < tm_count;
  //@ assert dg >= 0 || dg == CHAD_E_CAPACITY;
  int vq = V(d4, lq);
  //@ assert vq >= 0 ==> tm_ctx_[vq] == d4 && tm_ty_[vq] == tyq && 0 <= vq < tm_count;
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int xq = b_fst(vq);
  //@ assert xq >= 0 ==> tm_ctx_[xq] == d4 && tm_ty_[xq] == ps && 0 <= xq < tm_count;
  //@ assert xq >= 0 || xq == CHAD_E_CAPACITY;
  //@ assert dg >= 0 ==> tm_ctx_[dg] == d4 && tm_ty_[dg] == tf && 0 <= dg < tm_count;
  int t1 = b_app(dg, xq);
  //@ assert t1 >= 0 ==> tm_ctx_[t1] == d4 && tm_ty_[t1] == tt && 0 <= t1 < tm_count;
  //@ assert t1 >= 0 || t1 == CHAD_E_CAPACITY;
  int vq2 = V(d4, lq);
  //@ assert vq2 >= 0 ==> tm_ctx_[vq2] == d4 && tm_ty_[vq2] == tyq && 0 <= vq2 < tm_count;
  //@ assert vq2 >= 0 || vq2 == CHAD_E_CAPACITY;
  int sq = b_snd(vq2);
  //@ assert sq >= 0 ==> tm_ctx_[sq] == d4 && ty_same(tm_ty_[sq], TY_LFUN, tg, ts) && 0 <= sq < tm_count;
  //@ assert sq >= 0 || sq == CHAD_E_CAPACITY;
  int v2 = V(d4, lv);
  //@ assert v2 >= 0 ==> tm_ctx_[v2] == d4 && tm_ty_[v2] == tg && 0 <= v2 < tm_count;
  //@ assert v2 >= 0 || v2 == CHAD_E_CAPACITY;
  int dx = b_lapp(sq, v2);
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d4 && tm_ty_[dx] == ts && 0 <= dx < tm_count;
  //@ assert dx >= 0 || dx == CHAD_E_CAPACITY;
  int vr = V(d4, lr);
  //@ assert vr >= 0 ==> tm_ctx_[vr] == d4 && tm_ty_[vr] == tyr && 0 <= vr < tm_count;
  //@ assert vr >= 0 || vr == CHAD_E_CAPACITY;
  int sr = b_snd(vr);
  //@ assert sr >= 0 ==> tm_ctx_[sr] == d4 && ty_same(tm_ty_[sr], TY_LFUN, ts, tt) && 0 <= sr < tm_count;
  //@ assert sr >= 0 || sr == CHAD_E_CAPACITY;
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d4 && tm_ty_[dx] == ts && 0 <= dx < tm_count;
  int t2 = b_lapp(sr, dx);
  //@ assert t2 >= 0 ==> tm_ctx_[t2] == d4 && tm_ty_[t2] == tt && 0 <= t2 < tm_count;
  //@ assert t2 >= 0 || t2 == CHAD_E_CAPACITY;
  //@ assert t1 >= 0 ==> tm_ctx_[t1] == d4 && tm_ty_[t1] == tt && 0 <= t1 < tm_count;
  int sum = b_plus(t1, t2);
  //@ assert sum >= 0 ==> tm_ctx_[sum] == d4 && tm_ty_[sum] == tt && 0 <= sum < tm_count;
  //@ assert sum >= 0 || sum == CHAD_E_CAPACITY;
  //@ assert sum >= 0 ==> ty_valid(tg) && llam_ok(tg, tm_ctx_[sum], tm_ty_[sum]);
  int r = b_llam(tg, sum);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d3 && ty_same(tm_ty_[r], TY_LFUN, tg, tt);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 16;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The second half of F(app a b), from the call F b on: in d1 = d, p (p =
 * F a at level lp),
 *   let q = F b in let p in let q in let r = fst p (fst q) in
 *   (fst r, \v. (snd p v) (fst q) + snd r (snd q v))
 * One recursive call per function (as fwd_pair_body). */
/*@ requires kernel_inv && memo_inv && src_inv;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[b] == g && tm_ty_[b] == sg;
    requires env_ok(CHAD_PFWD, g, d1);
    requires trh(CHAD_PFWD, sg) && trm(CHAD_PFWD, sg) == ps && trh(CHAD_TAN, sg) && trm(CHAD_TAN, sg) == ts;
    requires trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg && ty_valid(tg);
    requires ty_valid(pf) && ty_kind_[pf] == TY_FUN && ty_left_[pf] == ps;
    requires ty_valid(pr) && pr == ty_right_[pf] && ty_kind_[pr] == TY_PROD && ty_left_[pr] == pt &&
      ty_same(ty_right_[pr], TY_LFUN, ts, tt);
    requires ty_valid(tf) && ty_same(tf, TY_FUN, ps, tt) && ty_valid(tt) && lin(tt);
    requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
    requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_len_[d1] == lp + 1;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pf &&
      ty_same(ty_right_[typ], TY_LFUN, tg, tf);
    terminates \true;
    decreases FWD_M(depth) - 3;
    FWD_ASSIGNS;
    ensures kernel_inv && memo_inv && src_inv && venv_wf;
    ensures venv_sp == \old(venv_sp) && venv_cur == \old(venv_cur);
    ensures memo_grows{Pre, Post};
    ensures \old(tm_count) <= tm_count && \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures env_keep{Pre, Post};
    ensures abody_size: tm_count - \old(tm_count) <= FWD_K * chad_msz_[b] + 27;
    ensures abody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures abody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, tg, tt);
*/
static int fwd_app_body(int b, int p, int d1, int lp, int tg, int depth)
  /*@ ghost (int g, int sg, int pf, int ps, int pr, int pt, int ts, int tt, int tf, int d, int typ) */
{
  /* the right halves of pr and typ named before the call, as in
   * rev_app_body */
  //@ ghost int prr = ty_right_[pr];
  //@ ghost int tyr = ty_right_[typ];
  //@ assert ab_r0: ty_valid(prr) && ty_same(prr, TY_LFUN, ts, tt) && ty_valid(tyr) && ty_same(tyr, TY_LFUN, tg, tf);
  int q = f_sub(b, d1, depth + 1);
  //@ assert ab_keep: env_keep{Pre, Here};
  //@ assert ab_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b];
  if (q < 0) return q;
  //@ assert ab_b: tm_ctx_[b] == g && tm_ty_[b] == sg;
  //@ assert ab_fwd: tm_ctx_[q] == d1 && fwd_ty(tm_ty_[q], g, sg) && 0 <= q < tm_count;
  //@ assert ab_memo1: trc(CHAD_TAN, g) == tg;
  //@ assert ab_memo2: trm(CHAD_PFWD, sg) == ps && trm(CHAD_TAN, sg) == ts;
  //@ ghost int tyq = tm_ty_[q];
  //@ ghost int qr = ty_right_[tyq];
  //@ assert ab_qty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == ps && ty_same(ty_right_[tyq], TY_LFUN, tg, ts);
  /* p's facts after the call, in small steps */
  //@ assert ab_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert ab_pk: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pf;
  //@ assert ab_tyr: ty_right_[typ] == tyr && ty_valid(tyr) && ty_same(tyr, TY_LFUN, tg, tf);
  //@ assert ab_pr: ty_same(ty_right_[typ], TY_LFUN, tg, tf);
  //@ assert ab_pf: ty_valid(pf) && ty_kind_[pf] == TY_FUN && ty_left_[pf] == ps && ty_right_[pf] == pr;
  //@ assert ab_prr: ty_right_[pr] == prr && ty_valid(prr) && ty_same(prr, TY_LFUN, ts, tt);
  //@ assert ab_pr2: ty_valid(pr) && ty_kind_[pr] == TY_PROD && ty_left_[pr] == pt && ty_same(ty_right_[pr], TY_LFUN, ts, tt);
  //@ assert ab_tf: ty_valid(tf) && ty_same(tf, TY_FUN, ps, tt) && ty_valid(tt) && lin(tt) && ty_valid(tg);
  //@ assert ab_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d) && ctx_len_[d1] == lp + 1;
  int lq = L(d1), d2 = f_ext(d1, tyof(q));
  //@ assert d2 >= 0 || d2 == CHAD_E_CAPACITY;
  //@ assert d2_keep: env_keep{Pre, Here};
  //@ assert d2_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b];
  if (d2 < 0) return d2;
  //@ assert d2_len: ctx_len_[d2] == lq + 1 && lq == lp + 1 && ctx_type_[d2] == tyq && ctx_parent_[d2] == d1;
  //@ assert d2_ext: ctx_is_ext(d2, d1, tyq) && ctx_valid(d2);
  //@ assert d2_ext2: ctx_is_ext(d1, d, typ) && ctx_valid(d);
  //@ assert d2_lq: lvl_ty(d2, lq) == tyq;
  //@ assert d2_lp1: lvl_ty(d1, lp) == typ;
  //@ assert d2_lp: lvl_ty(d2, lp) == typ && 0 <= lp < lq < ctx_len_[d2];
  //@ ghost Prim: ;
  int r = app_primal(d2, lp, lq) /*@ ghost (pf, ps, typ, tyq) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d2 && tm_ty_[r] == pr && 0 <= r < tm_count;
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert r_env: env_keep{Pre, Here};
  //@ assert r_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 5;
  //@ assert r_grow: tables_grow{Prim, Here};
  //@ assert r_side: side_same{Prim, Here};
  //@ assert r_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv;
  if (r < 0) return r;
  //@ assert r_lvl: lvl_ty(d2, lp) == typ && lvl_ty(d2, lq) == tyq;
  //@ assert r_ctx: ctx_valid(d2) && ctx_len_[d2] == lq + 1;
  int lr = L(d2), d3 = f_ext(d2, tyof(r));
  //@ assert d3 >= 0 || d3 == CHAD_E_CAPACITY;
  //@ assert d3_keep: env_keep{Pre, Here};
  //@ assert d3_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b] + 5;
  if (d3 < 0) return d3;
  //@ assert d3_len: ctx_len_[d3] == lr + 1 && lr == lq + 1 && ctx_type_[d3] == pr && ctx_parent_[d3] == d2;
  //@ assert d3_ext: ctx_is_ext(d3, d2, pr) && ctx_valid(d3);
  //@ assert d3_lr: lvl_ty(d3, lr) == pr;
  //@ assert d3_lq: lvl_ty(d3, lq) == tyq;
  //@ assert d3_lp: lvl_ty(d3, lp) == typ;
  //@ assert d3_tyr: ty_right_[typ] == tyr && ty_same(tyr, TY_LFUN, tg, tf);
  //@ assert d3_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, tg, tf);
  //@ assert d3_qr: ty_right_[tyq] == qr && ty_same(qr, TY_LFUN, tg, ts);
  //@ assert d3_tyq: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == ps && ty_same(ty_right_[tyq], TY_LFUN, tg, ts);
  //@ assert d3_prr: ty_right_[pr] == prr && ty_valid(prr) && ty_same(prr, TY_LFUN, ts, tt);
  //@ assert d3_pr: ty_valid(pr) && ty_kind_[pr] == TY_PROD && ty_same(ty_right_[pr], TY_LFUN, ts, tt);
  //@ assert d3_tf: ty_valid(tf) && ty_same(tf, TY_FUN, ps, tt) && ty_valid(tt) && lin(tt) && ty_valid(tg);
  //@ ghost Built: ;
  int lin = fwd_app_lin(d3, lp, lq, lr, tg) /*@ ghost (tt, tf, ps, ts, typ, tyq, pr) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d3 && ty_same(tm_ty_[lin], TY_LFUN, tg, tt) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_env: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 21;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert ty_valid(tyl) && ty_same(tyl, TY_LFUN, tg, tt);
  //@ assert tail_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert tail_q: 0 <= q < tm_count && tm_ctx_[q] == d1 && tm_ty_[q] == tyq;
  //@ assert tail_r: 0 <= r < tm_count && tm_ctx_[r] == d2 && tm_ty_[r] == pr;
  //@ assert tail_lvl: lvl_ty(d3, lr) == pr && 0 <= lr < ctx_len_[d3];
  //@ assert tail_ext1: ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
  //@ assert tail_ext2: ctx_is_ext(d2, d1, tm_ty_[q]);
  //@ assert tail_ext3: ctx_is_ext(d3, d2, tm_ty_[r]) && ctx_valid(d3);
  //@ assert tail_pr: ty_valid(pr) && ty_kind_[pr] == TY_PROD && ty_left_[pr] == pt;
  //@ ghost Lin: ;
  int res = let_app_tail(p, q, r, d3, lr, lin) /*@ ghost (d, d1, d2, pt, tg, tt) */;
  //@ assert res >= 0 ==> tm_ctx_[res] == d && \at(tm_count, Pre) <= res < tm_count;
  //@ assert res >= 0 ==> ty_valid(tm_ty_[res]) && ty_kind_[tm_ty_[res]] == TY_PROD && ty_left_[tm_ty_[res]] == pt && ty_same(ty_right_[tm_ty_[res]], TY_LFUN, tg, tt);
  //@ assert res >= 0 || res == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 27;
  //@ assert tables_grow{Lin, Here} && side_same{Lin, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv;
  //@ assert env_keep{Pre, Here};
  return res;
}

/* F(app a b) = let p = F a; q = F b; r = fst p (fst q) in
 *   (fst r, \v. (snd p v) (fst q) + snd r (snd q v)) */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_APP; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases FWD_M(depth) - 2;
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_app(int t, int d, int tg, int depth)
{
  //@ assert node_ok(t) && msz_ok(t) && msrc_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t);
  //@ ghost int fa = tm_ty_[a];
  //@ ghost int sg = tm_ty_[b];
  //@ assert tm_ctx_[a] == g && tm_ctx_[b] == g && ty_valid(fa) && ty_kind_[fa] == TY_FUN;
  //@ assert ty_left_[fa] == sg && ty_right_[fa] == tau;
  //@ assert 0 <= a < t && 0 <= b < t && chad_msrc_[a] == 1 && chad_msrc_[b] == 1;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b]);
  /* the size budget: F a, F b and at most 27 nodes of this rule (or the
   * whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert app_budget: FWD_K * chad_msz_[a] + FWD_K * chad_msz_[b] + 27 <= FWD_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= FWD_K * chad_msz_[t]; */
  //@ assert trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau);
  //@ ghost int pt = chad_memo_ty_[CHAD_PFWD][tau] - 1;
  //@ ghost int tt = chad_memo_ty_[CHAD_TAN][tau] - 1;
  //@ ghost tan_lin_lemma();
  //@ assert app_lin: lin(tt);
  int p = f_sub(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  //@ assert pa_fwd: tm_ctx_[p] == d && fwd_ty(tm_ty_[p], g, fa) && 0 <= p < tm_count;
  /* P(s->t) and T(s->t): F a memoised s->t (before the call only t was) */
  //@ assert pa_tau: trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt && lin(tt);
  //@ ghost tr_step(CHAD_PFWD, fa);
  //@ ghost tr_step(CHAD_TAN, fa);
  //@ ghost int pf = chad_memo_ty_[CHAD_PFWD][fa] - 1;
  //@ ghost int tf = chad_memo_ty_[CHAD_TAN][fa] - 1;
  //@ assert app_sg: trh(CHAD_PFWD, sg) && trh(CHAD_TAN, sg);
  //@ ghost int ps = chad_memo_ty_[CHAD_PFWD][sg] - 1;
  //@ ghost int ts = chad_memo_ty_[CHAD_TAN][sg] - 1;
  //@ assert app_tf: ty_valid(tf) && ty_same(tf, TY_FUN, ps, tt);
  //@ assert app_pf: ty_valid(pf) && ty_kind_[pf] == TY_FUN && ty_left_[pf] == ps;
  //@ ghost int pr = ty_right_[pf];
  //@ assert app_pr: ty_valid(pr) && ty_kind_[pr] == TY_PROD && ty_left_[pr] == pt;
  //@ assert app_pr2: ty_same(ty_right_[pr], TY_LFUN, ts, tt);
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a];
  //@ assert pa_memo: trm(CHAD_PFWD, fa) == pf && trm(CHAD_TAN, fa) == tf && trc(CHAD_TAN, g) == tg;
  //@ ghost int typ = tm_ty_[p];
  //@ assert pa_ty: ty_kind_[typ] == TY_PROD && ty_left_[typ] == pf && ty_same(ty_right_[typ], TY_LFUN, tg, tf);
  //@ assert pa_valid: ty_valid(typ) && ty_valid(ty_right_[typ]);
  int lp = L(d), d1 = f_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_env: env_ok(CHAD_PFWD, g, d1) && ctx_len_[d1] == lp + 1 && ctx_type_[d1] == typ;
  //@ assert pa_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d);
  //@ assert d1_b: tm_ctx_[b] == g && tm_ty_[b] == sg && trch(CHAD_TAN, g) && ty_valid(tg);
  //@ assert d1_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert b_memo: trh(CHAD_PFWD, sg) && trm(CHAD_PFWD, sg) == ps && trh(CHAD_TAN, sg) && trm(CHAD_TAN, sg) == ts;
  //@ assert b_memo2: trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau) && trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt;
  //@ ghost Body: ;
  int r = fwd_app_body(b, p, d1, lp, tg, depth) /*@ ghost (g, sg, pf, ps, pr, pt, ts, tt, tf, d, typ) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= FWD_K * chad_msz_[b] + 27;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert r >= 0 || r == CHAD_E_CAPACITY || r == CHAD_E_DEPTH;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, tg, tt);
  //@ assert r >= 0 ==> ty_node_ok(tyr) && 0 <= ty_right_[tyr] < tyr;
  //@ assert r_memo1: trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt;
  //@ assert r_memo2: trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt;
  //@ assert r_memo3: trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg;
  //@ assert r >= 0 ==> fwd_ty(tm_ty_[r], g, tau);
  //@ assert tm_ctx_[t] == g && tm_ty_[t] == tau;
  //@ assert app_type: r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d && fwd_ty(tm_ty_[r], tm_ctx_[t], tm_ty_[t]);
  return r;
}

/* The builders of F's one-child rules: from p = F a (in d, type
 * typ = pa * (tg -o sa), bound at level lp of d1 = d, p) to
 *   let p in (prim, \v. lin)     : pt * (tg -o tt)
 * one per kind, against the kernel's invariant only (as fwd_pair_lin).
 * Their common precondition: */
/*@ predicate funary_at(integer p, integer d, integer d1, integer lp, integer typ,
                        integer pa, integer sa, integer tg) =
      0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ && ctx_valid(d) &&
      ctx_is_ext(d1, d, typ) && ctx_valid(d1) && 0 <= lp < ctx_len_[d1] && lvl_ty(d1, lp) == typ &&
      ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa &&
      ty_same(ty_right_[typ], TY_LFUN, tg, sa) && ty_valid(pa) && ty_valid(sa) && ty_valid(tg);
*/
#define FUNARY_BUILD_POST(k) \
  terminates \true; \
  assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE; \
  ensures kernel_inv; \
  ensures funary_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d && \
    ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD && \
    ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, tg, tt); \
  ensures funary_codes: \result >= 0 || \result == CHAD_E_CAPACITY; \
  ensures funary_size: \old(tm_count) <= tm_count <= \old(tm_count) + (k); \
  ensures funary_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count; \
  ensures funary_grow: tables_grow{Pre, Post} && side_same{Pre, Post}; \
  ensures env_keep{Pre, Post}

/* F(fst a) = (fst (fst p), \v. fst (snd p v)); F(snd a) alike with snd.
 * pa = P(A * B), sa = T(A * B) = TA * TB. */
/*@ requires kernel_inv && funary_at(p, d, d1, lp, typ, pa, sa, tg);
    requires ty_kind_[pa] == TY_PROD && ty_kind_[sa] == TY_PROD;
    requires is_snd == 0 ==> ty_left_[pa] == pt && ty_left_[sa] == tt;
    requires is_snd != 0 ==> ty_right_[pa] == pt && ty_right_[sa] == tt;
    requires lin(tt);
    FUNARY_BUILD_POST(11);
*/
static int fwd_proj_build(int p, int d1, int lp, int tg, int is_snd)
  /*@ ghost (int d, int typ, int pa, int sa, int pt, int tt) */
{
  int lv = L(d1), d2 = k_ext(d1, tg);
  if (d2 < 0) return d2;
  //@ assert d2_lv: lvl_ty(d2, lv) == tg && ctx_parent_[d2] == d1 && ctx_type_[d2] == tg;
  //@ assert d2_lp: lvl_ty(d2, lp) == typ;
  int vp = V(d2, lp);
  //@ assert vp >= 0 ==> tm_ctx_[vp] == d2 && tm_ty_[vp] == typ && 0 <= vp < tm_count;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d2 && ty_same(tm_ty_[sp], TY_LFUN, tg, sa) && 0 <= sp < tm_count;
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int v = V(d2, lv);
  //@ assert v >= 0 ==> tm_ctx_[v] == d2 && tm_ty_[v] == tg && 0 <= v < tm_count;
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  int dx = b_lapp(sp, v);
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && tm_ty_[dx] == sa && 0 <= dx < tm_count;
  //@ assert dx >= 0 || dx == CHAD_E_CAPACITY;
  int lin = b_proj(dx, is_snd);
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d2 && tm_ty_[lin] == tt && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin >= 0 ==> llam_ok(tg, tm_ctx_[lin], tm_ty_[lin]);
  int lam = b_llam(tg, lin);
  //@ assert lam_at: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, tg, tt);
  //@ assert lam_ok: lam >= 0 ==> ty_valid(tm_ty_[lam]);
  //@ assert lam >= 0 || lam == CHAD_E_CAPACITY;
  //@ assert cnt_lam: tm_count <= \at(tm_count, Pre) + 6;
  //@ assert d1_lp2: ctx_valid(d1) && 0 <= lp < ctx_len_[d1] && lvl_ty(d1, lp) == typ;
  int vx = V(d1, lp);
  //@ assert vx >= 0 ==> tm_ctx_[vx] == d1 && tm_ty_[vx] == typ && 0 <= vx < tm_count;
  //@ assert vx >= 0 || vx == CHAD_E_CAPACITY;
  int x = b_fst(vx);
  //@ assert x >= 0 ==> tm_ctx_[x] == d1 && tm_ty_[x] == pa && 0 <= x < tm_count;
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  int prim = b_proj(x, is_snd);
  //@ assert prim >= 0 ==> tm_ctx_[prim] == d1 && tm_ty_[prim] == pt && 0 <= prim < tm_count;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert lam_at2: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty2: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, tg, tt) && ty_valid(tm_ty_[lam]);
  //@ assert tm_count <= \at(tm_count, Pre) + 9;
  if (prim < 0) return prim;
  if (lam < 0) return lam;
  //@ assert p_at: 0 <= p < tm_count && tm_ctx_[p] == d && ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
  int r = let_unary_tail(p, prim, lam) /*@ ghost (d, d1, pt, tg, tt) */;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* F(sum a) = (sum (fst p), \v. sum (snd p v)): a : Arr Real, P = T = id on
 * Real and Arr Real (pa = sa = Arr Real). */
/*@ requires kernel_inv && funary_at(p, d, d1, lp, typ, pa, sa, tg);
    requires ty_same(pa, TY_ARR, TY_ID_REAL, -1) && ty_same(sa, TY_ARR, TY_ID_REAL, -1);
    requires pt == TY_ID_REAL && tt == TY_ID_REAL;
    FUNARY_BUILD_POST(11);
*/
static int fwd_sum_build(int p, int d1, int lp, int tg)
  /*@ ghost (int d, int typ, int pa, int sa, int pt, int tt) */
{
  int lv = L(d1), d2 = k_ext(d1, tg);
  if (d2 < 0) return d2;
  //@ assert d2_lv: lvl_ty(d2, lv) == tg && ctx_parent_[d2] == d1 && ctx_type_[d2] == tg;
  //@ assert d2_lp: lvl_ty(d2, lp) == typ;
  int vp = V(d2, lp);
  //@ assert vp >= 0 ==> tm_ctx_[vp] == d2 && tm_ty_[vp] == typ && 0 <= vp < tm_count;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d2 && ty_same(tm_ty_[sp], TY_LFUN, tg, sa) && 0 <= sp < tm_count;
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int v = V(d2, lv);
  //@ assert v >= 0 ==> tm_ctx_[v] == d2 && tm_ty_[v] == tg && 0 <= v < tm_count;
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  int dx = b_lapp(sp, v);
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && tm_ty_[dx] == sa && 0 <= dx < tm_count;
  //@ assert dx >= 0 || dx == CHAD_E_CAPACITY;
  //@ assert dx >= 0 ==> sum_ok(tm_ty_[dx]);
  int lin = b_sum(dx);
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d2 && tm_ty_[lin] == tt && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin >= 0 ==> llam_ok(tg, tm_ctx_[lin], tm_ty_[lin]);
  int lam = b_llam(tg, lin);
  //@ assert lam_at: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, tg, tt);
  //@ assert lam_ok: lam >= 0 ==> ty_valid(tm_ty_[lam]);
  //@ assert lam >= 0 || lam == CHAD_E_CAPACITY;
  //@ assert cnt_lam: tm_count <= \at(tm_count, Pre) + 6;
  //@ assert d1_lp2: ctx_valid(d1) && 0 <= lp < ctx_len_[d1] && lvl_ty(d1, lp) == typ;
  int vx = V(d1, lp);
  //@ assert vx >= 0 ==> tm_ctx_[vx] == d1 && tm_ty_[vx] == typ && 0 <= vx < tm_count;
  //@ assert vx >= 0 || vx == CHAD_E_CAPACITY;
  int x = b_fst(vx);
  //@ assert x >= 0 ==> tm_ctx_[x] == d1 && tm_ty_[x] == pa && 0 <= x < tm_count;
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  int prim = b_sum(x);
  //@ assert prim >= 0 ==> tm_ctx_[prim] == d1 && tm_ty_[prim] == pt && 0 <= prim < tm_count;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert lam_at2: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty2: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, tg, tt) && ty_valid(tm_ty_[lam]);
  //@ assert tm_count <= \at(tm_count, Pre) + 9;
  if (prim < 0) return prim;
  if (lam < 0) return lam;
  //@ assert p_at: 0 <= p < tm_count && tm_ctx_[p] == d && ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
  int r = let_unary_tail(p, prim, lam) /*@ ghost (d, d1, pt, tg, tt) */;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* F(length a) = (length (fst p), \v. ()): a : Arr A, pa = Arr P A,
 * pt = Int, tt = T Int = Unit. */
/*@ requires kernel_inv && funary_at(p, d, d1, lp, typ, pa, sa, tg);
    requires ty_kind_[pa] == TY_ARR && pt == TY_ID_INT && tt == TY_ID_UNIT;
    FUNARY_BUILD_POST(7);
*/
static int fwd_length_build(int p, int d1, int lp, int tg)
  /*@ ghost (int d, int typ, int pa, int sa, int pt, int tt) */
{
  int d2 = k_ext(d1, tg);
  if (d2 < 0) return d2;
  //@ assert d2_ctx: ctx_parent_[d2] == d1 && ctx_type_[d2] == tg && ctx_valid(d2) && 0 < d2;
  //@ assert lin(TY_ID_UNIT);
  int z = b_zero(d2, TY_ID_UNIT);
  //@ assert z >= 0 ==> tm_ctx_[z] == d2 && tm_ty_[z] == tt && 0 <= z < tm_count;
  //@ assert z >= 0 || z == CHAD_E_CAPACITY;
  //@ assert z >= 0 ==> llam_ok(tg, tm_ctx_[z], tm_ty_[z]);
  int lam = b_llam(tg, z);
  //@ assert lam_at: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, tg, tt);
  //@ assert lam_ok: lam >= 0 ==> ty_valid(tm_ty_[lam]);
  //@ assert lam >= 0 || lam == CHAD_E_CAPACITY;
  //@ assert cnt_lam: tm_count <= \at(tm_count, Pre) + 2;
  //@ assert d1_lp2: ctx_valid(d1) && 0 <= lp < ctx_len_[d1] && lvl_ty(d1, lp) == typ;
  int vx = V(d1, lp);
  //@ assert vx >= 0 ==> tm_ctx_[vx] == d1 && tm_ty_[vx] == typ && 0 <= vx < tm_count;
  //@ assert vx >= 0 || vx == CHAD_E_CAPACITY;
  int x = b_fst(vx);
  //@ assert x >= 0 ==> tm_ctx_[x] == d1 && tm_ty_[x] == pa && 0 <= x < tm_count;
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  int prim = b_length(x);
  //@ assert prim >= 0 ==> tm_ctx_[prim] == d1 && tm_ty_[prim] == pt && 0 <= prim < tm_count;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert lam_at2: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty2: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, tg, tt) && ty_valid(tm_ty_[lam]);
  //@ assert tm_count <= \at(tm_count, Pre) + 5;
  if (prim < 0) return prim;
  if (lam < 0) return lam;
  //@ assert p_at: 0 <= p < tm_count && tm_ctx_[p] == d && ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
  int r = let_unary_tail(p, prim, lam) /*@ ghost (d, d1, pt, tg, tt) */;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* F(inl a) = (inl (fst p), \v. (snd p v, 0)); F(inr a) = (inr (fst p),
 * \v. (0, snd p v)). tau = A + B: pt = PA + PB, tt = TA * TB; a : A (inl)
 * or B (inr); po, so = P and T of the other side. */
/*@ requires kernel_inv && funary_at(p, d, d1, lp, typ, pa, sa, tg);
    requires ty_valid(po) && ty_valid(so) && lin(so) && ty_valid(pt) && ty_valid(tt);
    requires is_inr == 0 ==> ty_same(pt, TY_SUM, pa, po) && ty_same(tt, TY_PROD, sa, so);
    requires is_inr != 0 ==> ty_same(pt, TY_SUM, po, pa) && ty_same(tt, TY_PROD, so, sa);
    requires lin(tt);
    FUNARY_BUILD_POST(12);
*/
static int fwd_inj_build(int p, int d1, int lp, int tg, int po, int so, int is_inr)
  /*@ ghost (int d, int typ, int pa, int sa, int pt, int tt) */
{
  int lv = L(d1), d2 = k_ext(d1, tg);
  if (d2 < 0) return d2;
  //@ assert d2_lv: lvl_ty(d2, lv) == tg && ctx_parent_[d2] == d1 && ctx_type_[d2] == tg;
  //@ assert d2_lp: lvl_ty(d2, lp) == typ;
  int vp = V(d2, lp);
  //@ assert vp >= 0 ==> tm_ctx_[vp] == d2 && tm_ty_[vp] == typ && 0 <= vp < tm_count;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d2 && ty_same(tm_ty_[sp], TY_LFUN, tg, sa) && 0 <= sp < tm_count;
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int v = V(d2, lv);
  //@ assert v >= 0 ==> tm_ctx_[v] == d2 && tm_ty_[v] == tg && 0 <= v < tm_count;
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  int dx = b_lapp(sp, v);
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && tm_ty_[dx] == sa && 0 <= dx < tm_count;
  //@ assert dx >= 0 || dx == CHAD_E_CAPACITY;
  int z = b_zero(d2, so);
  //@ assert z >= 0 ==> tm_ctx_[z] == d2 && tm_ty_[z] == so && 0 <= z < tm_count;
  //@ assert z >= 0 || z == CHAD_E_CAPACITY;
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && tm_ty_[dx] == sa && 0 <= dx < tm_count;
  int lin = b_pair_side(dx, z, is_inr);
  //@ assert is_inr == 0 ==> (lin >= 0 ==> tm_ctx_[lin] == d2 && ty_same(tm_ty_[lin], TY_PROD, sa, so) && ty_valid(tm_ty_[lin]));
  //@ assert is_inr != 0 ==> (lin >= 0 ==> tm_ctx_[lin] == d2 && ty_same(tm_ty_[lin], TY_PROD, so, sa) && ty_valid(tm_ty_[lin]));
  //@ assert tt_same: ty_inv && ty_valid(tt) && (is_inr == 0 ==> ty_same(tt, TY_PROD, sa, so)) && (is_inr != 0 ==> ty_same(tt, TY_PROD, so, sa));
  /* hash-consing: the pair of tangents is T(A + B) itself */
  //@ assert lin_id0: is_inr == 0 ==> (lin >= 0 ==> tm_ty_[lin] == tt);
  //@ assert lin_id1: is_inr != 0 ==> (lin >= 0 ==> tm_ty_[lin] == tt);
  //@ assert lin_id: lin >= 0 ==> tm_ty_[lin] == tt && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin >= 0 ==> llam_ok(tg, tm_ctx_[lin], tm_ty_[lin]);
  int lam = b_llam(tg, lin);
  //@ assert lam_at: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, tg, tt);
  //@ assert lam_ok: lam >= 0 ==> ty_valid(tm_ty_[lam]);
  //@ assert lam >= 0 || lam == CHAD_E_CAPACITY;
  //@ assert cnt_lam: tm_count <= \at(tm_count, Pre) + 7;
  //@ assert d1_lp2: ctx_valid(d1) && 0 <= lp < ctx_len_[d1] && lvl_ty(d1, lp) == typ;
  int vx = V(d1, lp);
  //@ assert vx >= 0 ==> tm_ctx_[vx] == d1 && tm_ty_[vx] == typ && 0 <= vx < tm_count;
  //@ assert vx >= 0 || vx == CHAD_E_CAPACITY;
  int x = b_fst(vx);
  //@ assert x >= 0 ==> tm_ctx_[x] == d1 && tm_ty_[x] == pa && 0 <= x < tm_count;
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  int prim = b_inj(x, po, is_inr);
  //@ assert is_inr == 0 ==> (prim >= 0 ==> tm_ctx_[prim] == d1 && ty_same(tm_ty_[prim], TY_SUM, pa, po) && ty_valid(tm_ty_[prim]));
  //@ assert is_inr != 0 ==> (prim >= 0 ==> tm_ctx_[prim] == d1 && ty_same(tm_ty_[prim], TY_SUM, po, pa) && ty_valid(tm_ty_[prim]));
  //@ assert pt_same: ty_inv && ty_valid(pt) && (is_inr == 0 ==> ty_same(pt, TY_SUM, pa, po)) && (is_inr != 0 ==> ty_same(pt, TY_SUM, po, pa));
  /* hash-consing: the injection's type is P(A + B) itself */
  //@ assert prim_id0: is_inr == 0 ==> (prim >= 0 ==> tm_ty_[prim] == pt);
  //@ assert prim_id1: is_inr != 0 ==> (prim >= 0 ==> tm_ty_[prim] == pt);
  //@ assert prim_id: prim >= 0 ==> tm_ty_[prim] == pt && 0 <= prim < tm_count;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert lam_at2: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty2: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, tg, tt) && ty_valid(tm_ty_[lam]);
  //@ assert tm_count <= \at(tm_count, Pre) + 10;
  if (prim < 0) return prim;
  if (lam < 0) return lam;
  //@ assert p_at: 0 <= p < tm_count && tm_ctx_[p] == d && ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
  int r = let_unary_tail(p, prim, lam) /*@ ghost (d, d1, pt, tg, tt) */;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* F(op o a) = (op o (fst p), \v. Dop o (fst p) (snd p v)). A
 * primitive's signature is first-order with its tangent signature in the
 * op table (op_inv, through ty_tan_), so P and T of it are the table's
 * own types: pa = dom o, sa = tdom o, pt = cod o, tt = tcod o
 * (fo_tr_lemma). */
/*@ requires kernel_inv && memo_ty_inv && funary_at(p, d, d1, lp, typ, pa, sa, tg);
    requires 0 <= o < op_count;
    requires trh(CHAD_PFWD, op_dom_[o]) && pa == trm(CHAD_PFWD, op_dom_[o]);
    requires trh(CHAD_TAN, op_dom_[o]) && sa == trm(CHAD_TAN, op_dom_[o]);
    requires trh(CHAD_PFWD, op_cod_[o]) && pt == trm(CHAD_PFWD, op_cod_[o]);
    requires trh(CHAD_TAN, op_cod_[o]) && tt == trm(CHAD_TAN, op_cod_[o]);
    FUNARY_BUILD_POST(13);
*/
static int fwd_op_build(int p, int d1, int lp, int o, int tg)
  /*@ ghost (int d, int typ, int pa, int sa, int pt, int tt) */
{
  //@ assert op_sig: ty_tan_[op_dom_[o]] == op_tdom_[o] && ty_tan_[op_cod_[o]] == op_tcod_[o];
  //@ assert op_val: ty_valid(op_dom_[o]) && ty_valid(op_cod_[o]) && 0 <= op_tdom_[o] && 0 <= op_tcod_[o];
  //@ ghost fo_tr_lemma(CHAD_PFWD, op_dom_[o], op_tdom_[o]);
  //@ ghost fo_tr_lemma(CHAD_TAN, op_dom_[o], op_tdom_[o]);
  //@ ghost fo_tr_lemma(CHAD_PFWD, op_cod_[o], op_tcod_[o]);
  //@ ghost fo_tr_lemma(CHAD_TAN, op_cod_[o], op_tcod_[o]);
  //@ assert op_tys: pa == op_dom_[o] && sa == op_tdom_[o] && pt == op_cod_[o] && tt == op_tcod_[o];
  //@ assert tt_lin: lin(tt);
  int lv = L(d1), d2 = k_ext(d1, tg);
  if (d2 < 0) return d2;
  //@ assert d2_lv: lvl_ty(d2, lv) == tg && ctx_parent_[d2] == d1 && ctx_type_[d2] == tg;
  //@ assert d2_lp: lvl_ty(d2, lp) == typ;
  int vp = V(d2, lp);
  //@ assert vp >= 0 ==> tm_ctx_[vp] == d2 && tm_ty_[vp] == typ && 0 <= vp < tm_count;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d2 && ty_same(tm_ty_[sp], TY_LFUN, tg, sa) && 0 <= sp < tm_count;
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int v = V(d2, lv);
  //@ assert v >= 0 ==> tm_ctx_[v] == d2 && tm_ty_[v] == tg && 0 <= v < tm_count;
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  int dx = b_lapp(sp, v);
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && tm_ty_[dx] == sa && 0 <= dx < tm_count;
  //@ assert dx >= 0 || dx == CHAD_E_CAPACITY;
  int vq = V(d2, lp);
  //@ assert vq >= 0 ==> tm_ctx_[vq] == d2 && tm_ty_[vq] == typ && 0 <= vq < tm_count;
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int xq = b_fst(vq);
  //@ assert xq >= 0 ==> tm_ctx_[xq] == d2 && tm_ty_[xq] == pa && 0 <= xq < tm_count;
  //@ assert xq >= 0 || xq == CHAD_E_CAPACITY;
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && tm_ty_[dx] == sa && 0 <= dx < tm_count;
  int lin = b_lop_d(o, xq, dx);
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d2 && tm_ty_[lin] == tt && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin >= 0 ==> ty_valid(tg) && llam_ok(tg, tm_ctx_[lin], tm_ty_[lin]);
  int lam = b_llam(tg, lin);
  //@ assert lam_at: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, tg, tt);
  //@ assert lam_ok: lam >= 0 ==> ty_valid(tm_ty_[lam]);
  //@ assert lam >= 0 || lam == CHAD_E_CAPACITY;
  //@ assert cnt_lam: tm_count <= \at(tm_count, Pre) + 8;
  //@ assert d1_lp2: ctx_valid(d1) && 0 <= lp < ctx_len_[d1] && lvl_ty(d1, lp) == typ;
  int vx = V(d1, lp);
  //@ assert vx >= 0 ==> tm_ctx_[vx] == d1 && tm_ty_[vx] == typ && 0 <= vx < tm_count;
  //@ assert vx >= 0 || vx == CHAD_E_CAPACITY;
  int x = b_fst(vx);
  //@ assert x >= 0 ==> tm_ctx_[x] == d1 && tm_ty_[x] == pa && 0 <= x < tm_count;
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  int prim = b_op(o, x);
  //@ assert prim >= 0 ==> tm_ctx_[prim] == d1 && tm_ty_[prim] == pt && 0 <= prim < tm_count;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert lam_at2: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty2: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, tg, tt) && ty_valid(tm_ty_[lam]);
  //@ assert tm_count <= \at(tm_count, Pre) + 11;
  if (prim < 0) return prim;
  if (lam < 0) return lam;
  //@ assert p_at: 0 <= p < tm_count && tm_ctx_[p] == d && ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
  int r = let_unary_tail(p, prim, lam) /*@ ghost (d, d1, pt, tg, tt) */;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* One child: let p = F a in (op (fst p), \v. op' (snd p v)) for fst, snd,
 * sum, length, op, inl, inr: F a and p's extension here, the rest in the
 * kind's builder. */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires depth <= CHAD_MAX_DEPTH;
    requires tm_kind_[t] == TM_FST || tm_kind_[t] == TM_SND || tm_kind_[t] == TM_SUM ||
      tm_kind_[t] == TM_LENGTH || tm_kind_[t] == TM_OP || tm_kind_[t] == TM_INL ||
      tm_kind_[t] == TM_INR;
    terminates \true;
    decreases FWD_M(depth) - 2;
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_unary(int t, int d, int tg, int depth)
{
  //@ assert node_ok(t) && msz_ok(t) && msrc_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int kind = tm_kind(t);
  int a = tm_a(t), ty = tm_type(t);
  //@ ghost int ta = tm_ty_[a];
  //@ assert 0 <= a < t && chad_msrc_[a] == 1 && tm_ctx_[a] == g && ty == tau;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a]);
  /* the size budget: F a and at most 13 nodes of this rule (or the whole
   * arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert un_budget: FWD_K * chad_msz_[a] + 13 <= FWD_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= FWD_K * chad_msz_[t]; */
  //@ assert trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau);
  //@ ghost int pt = chad_memo_ty_[CHAD_PFWD][tau] - 1;
  //@ ghost int tt = chad_memo_ty_[CHAD_TAN][tau] - 1;
  //@ ghost tan_lin_lemma();
  //@ assert un_lin: lin(tt);
  int p = f_sub(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  //@ assert pa_fwd: tm_ctx_[p] == d && fwd_ty(tm_ty_[p], g, ta) && 0 <= p < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a];
  //@ assert pa_tau: trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt && trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt && lin(tt);
  //@ ghost tr_step(CHAD_PFWD, ta);
  //@ ghost tr_step(CHAD_TAN, ta);
  //@ ghost tr_step(CHAD_PFWD, tau);
  //@ ghost tr_step(CHAD_TAN, tau);
  //@ ghost int pa = chad_memo_ty_[CHAD_PFWD][ta] - 1;
  //@ ghost int sa = chad_memo_ty_[CHAD_TAN][ta] - 1;
  //@ assert pa_memo: trm(CHAD_PFWD, ta) == pa && trm(CHAD_TAN, ta) == sa && trc(CHAD_TAN, g) == tg;
  //@ ghost int typ = tm_ty_[p];
  //@ assert pa_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  //@ assert pa_valid: ty_valid(pa) && ty_valid(sa) && ty_valid(pt) && ty_valid(tt) && ty_valid(tg);
  int lp = L(d), d1 = f_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d) && ctx_len_[d1] == lp + 1;
  //@ assert d1_lp: lvl_ty(d1, lp) == typ && 0 <= lp < ctx_len_[d1];
  //@ assert d1_at: funary_at(p, d, d1, lp, typ, pa, sa, tg);
  //@ ghost Built: ;
  int r;
  if (kind == TM_FST || kind == TM_SND) {
    //@ assert ty_kind_[ta] == TY_PROD && (kind == TM_FST ? ty_left_[ta] == tau : ty_right_[ta] == tau);
    //@ assert proj_pa: ty_kind_[pa] == TY_PROD && ty_kind_[sa] == TY_PROD;
    //@ assert proj_fst: kind == TM_FST ==> ty_left_[pa] == pt && ty_left_[sa] == tt;
    //@ assert proj_snd: kind == TM_SND ==> ty_right_[pa] == pt && ty_right_[sa] == tt;
    r = fwd_proj_build(p, d1, lp, tg, kind == TM_SND) /*@ ghost (d, typ, pa, sa, pt, tt) */;
  } else if (kind == TM_SUM) {
    //@ assert sum_ok(ta) && tau == TY_ID_REAL;
    //@ assert sum_pa: ty_same(pa, TY_ARR, TY_ID_REAL, -1) && ty_same(sa, TY_ARR, TY_ID_REAL, -1);
    //@ assert sum_pt: pt == TY_ID_REAL && tt == TY_ID_REAL;
    r = fwd_sum_build(p, d1, lp, tg) /*@ ghost (d, typ, pa, sa, pt, tt) */;
  } else if (kind == TM_LENGTH) {
    //@ assert arr_ok(ta) && tau == TY_ID_INT;
    //@ assert len_pa: ty_kind_[pa] == TY_ARR && pt == TY_ID_INT && tt == TY_ID_UNIT;
    r = fwd_length_build(p, d1, lp, tg) /*@ ghost (d, typ, pa, sa, pt, tt) */;
  } else if (kind == TM_OP) {
    //@ assert op_ok(tm_aux_[t], ta) && tau == op_cod_[tm_aux_[t]];
    //@ assert 0 <= tm_aux_[t] < op_count && ta == op_dom_[tm_aux_[t]];
    r = fwd_op_build(p, d1, lp, (int)tm_aux(t), tg) /*@ ghost (d, typ, pa, sa, pt, tt) */;
  } else {
    int is_inr = kind == TM_INR;
    //@ assert ty_kind_[tau] == TY_SUM && (is_inr == 0 ? ty_left_[tau] == ta : ty_right_[tau] == ta);
    int side = is_inr ? ty_left(ty) : ty_right(ty);
    //@ assert 0 <= side < ty_count && trh(CHAD_PFWD, side) && trh(CHAD_TAN, side);
    int po = memo_ty_get(CHAD_PFWD, side);
    int so = memo_ty_get(CHAD_TAN, side);
    //@ ghost tan_lin_lemma();
    //@ assert inj_po: po == trm(CHAD_PFWD, side) && ty_valid(po);
    //@ assert inj_so: so == trm(CHAD_TAN, side) && ty_valid(so);
    //@ assert inj_lin: lin(so);
    //@ assert inj_pt: is_inr == 0 ==> ty_same(pt, TY_SUM, pa, po) && ty_same(tt, TY_PROD, sa, so);
    //@ assert inj_pt2: is_inr != 0 ==> ty_same(pt, TY_SUM, po, pa) && ty_same(tt, TY_PROD, so, sa);
    r = fwd_inj_build(p, d1, lp, tg, po, so, is_inr) /*@ ghost (d, typ, pa, sa, pt, tt) */;
  }
  //@ assert r_size: tm_count <= \at(tm_count, Built) + 13;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert r_grow: tables_grow{Built, Here} && side_same{Built, Here};
  //@ assert r_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv;
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, tg, tt);
  //@ assert r >= 0 ==> ty_node_ok(tyr) && 0 <= ty_right_[tyr] < tyr;
  //@ assert r_memo1: trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt;
  //@ assert r_memo2: trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt;
  //@ assert r_memo3: trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg;
  //@ assert r >= 0 ==> fwd_ty(tm_ty_[r], g, tau);
  //@ assert tm_ctx_[t] == g && tm_ty_[t] == tau;
  //@ assert un_type: r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d && fwd_ty(tm_ty_[r], tm_ctx_[t], tm_ty_[t]);
  return r;
}

/* The linear half of one branch of F(case a b c), in e2 where level lp
 * holds p = F a (type typ = P(A + B) * (T G -o sa), sa = T(A + B) = T A *
 * T B) and level lq holds q = F_{G,x} b (type tyq = P tau * (tgx -o tt),
 * tgx = T(G, x) = T G * ssd, ssd the tangent of the branch's side):
 *   \v. snd q (v, fst (snd p v))     (side 0)
 *   \v. snd q (v, snd (snd p v))     (side 1)
 * of type T G -o T tau. As fwd_let_lin, with the projection. */
/*@ requires kernel_inv;
    requires ctx_valid(e2) && ty_valid(tg) && ty_valid(ssd) && ty_valid(tt) && lin(tt);
    requires ty_valid(sa) && ty_kind_[sa] == TY_PROD;
    requires side == 0 ==> ty_left_[sa] == ssd;
    requires side != 0 ==> ty_right_[sa] == ssd;
    requires ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, ssd);
    requires 0 <= lp < ctx_len_[e2] && lvl_ty(e2, lp) == typ && ty_valid(typ) &&
      ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, tg, sa);
    requires 0 <= lq < ctx_len_[e2] && lvl_ty(e2, lq) == tyq && ty_valid(tyq) &&
      ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, tgx, tt);
    terminates \true;
    assigns CH_TM_LOCS, CH_TMS_LOCS, CH_TYS_LOCS, CH_CTX_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures fcase_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == e2 &&
      ty_same(tm_ty_[\result], TY_LFUN, tg, tt);
    ensures fcase_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures fcase_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 11;
    ensures fcase_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures fcase_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures env_keep{Pre, Post};
*/
static int fwd_case_lin(int e2, int lp, int lq, int tg, int side)
  /*@ ghost (int sa, int ssd, int tgx, int tt, int typ, int tyq) */
{
  int lv = L(e2), e3 = k_ext(e2, tg);
  if (e3 < 0) return e3;
  //@ assert lvl_ty(e3, lv) == tg && lvl_ty(e3, lp) == lvl_ty(e2, lp) && lvl_ty(e3, lq) == lvl_ty(e2, lq);
  int vq = V(e3, lq);
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int sq = b_snd(vq);
  //@ assert sq >= 0 ==> tm_ctx_[sq] == e3 && ty_same(tm_ty_[sq], TY_LFUN, tgx, tt);
  //@ assert sq >= 0 || sq == CHAD_E_CAPACITY;
  int v1 = V(e3, lv);
  //@ assert v1 >= 0 ==> tm_ctx_[v1] == e3 && tm_ty_[v1] == tg;
  //@ assert v1 >= 0 || v1 == CHAD_E_CAPACITY;
  int vp = V(e3, lp);
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == e3 && ty_same(tm_ty_[sp], TY_LFUN, tg, sa);
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int v2 = V(e3, lv);
  //@ assert v2 >= 0 ==> tm_ctx_[v2] == e3 && tm_ty_[v2] == tg;
  //@ assert v2 >= 0 || v2 == CHAD_E_CAPACITY;
  int dsc = b_lapp(sp, v2);
  //@ assert dsc >= 0 ==> tm_ctx_[dsc] == e3 && tm_ty_[dsc] == sa;
  //@ assert dsc >= 0 || dsc == CHAD_E_CAPACITY;
  int part = b_proj(dsc, side);
  //@ assert part >= 0 ==> tm_ctx_[part] == e3 && tm_ty_[part] == ssd;
  //@ assert part >= 0 || part == CHAD_E_CAPACITY;
  //@ assert v1 >= 0 ==> tm_ctx_[v1] == e3 && tm_ty_[v1] == tg;
  int arg = b_pair(v1, part);
  //@ assert arg >= 0 ==> tm_ctx_[arg] == e3 && ty_same(tm_ty_[arg], TY_PROD, tg, ssd) && ty_valid(tm_ty_[arg]);
  //@ assert arg >= 0 || arg == CHAD_E_CAPACITY;
  //@ assert ty_inv && ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, ssd);
  //@ assert arg >= 0 ==> tm_ty_[arg] == tgx;
  //@ assert sq >= 0 ==> tm_ctx_[sq] == e3 && ty_same(tm_ty_[sq], TY_LFUN, tgx, tt);
  int dy = b_lapp(sq, arg);
  //@ assert dy >= 0 ==> tm_ctx_[dy] == e3 && tm_ty_[dy] == tt;
  //@ assert dy >= 0 || dy == CHAD_E_CAPACITY;
  //@ assert dy >= 0 ==> ty_valid(tg) && 0 <= dy < tm_count && llam_ok(tg, tm_ctx_[dy], tm_ty_[dy]);
  //@ assert ctx_parent_[e3] == e2;
  int r = b_llam(tg, dy);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == e2;
  //@ assert r >= 0 ==> ty_same(tm_ty_[r], TY_LFUN, tg, tt);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == e2 && ty_same(tm_ty_[r], TY_LFUN, tg, tt);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* One branch of F(case a b c), in d1 = d, p (p = F a at level lp, of type
 * typ = P(A + B) * (T G -o sa)): the branch body, of type tau in gb = G, x
 * with x : sty (the sum's side), translated under its binder, then
 *   let q = F b in (fst q, lin)          in e1 = d1, x : P sty
 * with lin = fwd_case_lin. One recursive call (fwd_under). */
/*@ requires kernel_inv && memo_inv && src_inv && venv_wf;
    requires 0 <= body < tm_count && chad_msrc_[body] == 1 && 0 <= depth <= CHAD_MAX_DEPTH + 1;
    requires tm_ctx_[body] == gb && tm_ty_[body] == tau;
    requires 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == sty;
    requires env_ok(CHAD_PFWD, g, d1);
    requires ty_valid(st) && ty_kind_[st] == TY_SUM;
    requires side == 0 ==> ty_left_[st] == sty;
    requires side != 0 ==> ty_right_[st] == sty;
    requires trh(CHAD_PFWD, sty) && trm(CHAD_PFWD, sty) == psd;
    requires trh(CHAD_TAN, sty) && trm(CHAD_TAN, sty) == ssd;
    requires ty_valid(sa) && ty_kind_[sa] == TY_PROD;
    requires side == 0 ==> ty_left_[sa] == ssd;
    requires side != 0 ==> ty_right_[sa] == ssd;
    requires trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt && trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt;
    requires ty_valid(tt) && lin(tt);
    requires trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg && ty_valid(tg);
    requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, tg, sa);
    requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_len_[d1] == lp + 1 && lp == ctx_len_[d];
    requires lvl_ty(d1, lp) == typ;
    requires 0 <= d < d1 < ctx_count;
    terminates \true;
    decreases FWD_M(depth);
    FWD_ASSIGNS;
    ensures kernel_inv && memo_inv && src_inv && venv_wf;
    ensures venv_sp == \old(venv_sp) && venv_cur == \old(venv_cur);
    ensures memo_grows{Pre, Post};
    ensures \old(tm_count) <= tm_count && \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures env_keep{Pre, Post};
    ensures br_size: tm_count - \old(tm_count) <= FWD_K * chad_msz_[body] + 15;
    ensures br_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures br_ctx: \result >= 0 ==> \old(tm_count) <= \result < tm_count &&
      ctx_is_ext(tm_ctx_[\result], d1, psd);
    ensures br_type: \result >= 0 ==> ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, tg, tt);
*/
static int fwd_case_branch(int side, int body, int d1, int lp, int st, int tg, int depth)
  /*@ ghost (int p, int g, int gb, int sty, int tau, int psd, int ssd, int sa, int pt, int tt, int d, int typ) */
{
  //@ ghost int rtp = ty_right_[typ];
  //@ assert b_rtp: ty_inv && ty_node_ok(typ) && ty_valid(rtp) && ty_same(rtp, TY_LFUN, tg, sa);
  int sty_c = side == 0 ? ty_left(st) : ty_right(st);
  //@ assert sty_c == sty && 0 <= sty < CHAD_MAX_TYPES;
  int psd_c = memo_ty_get(CHAD_PFWD, sty_c);
  //@ assert b_psd: psd_c == psd && ty_valid(psd);
  int lx = L(d1), e1 = f_ext(d1, psd_c);
  //@ assert e1 >= 0 || e1 == CHAD_E_CAPACITY;
  //@ assert e1_keep: env_keep{Pre, Here};
  //@ assert e1_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[body];
  if (e1 < 0) return e1;
  //@ assert e1_env: env_ok(CHAD_PFWD, g, e1) && ctx_len_[e1] == lx + 1 && lx == lp + 1;
  //@ assert e1_lx: lx == ctx_len_[d1] && ctx_len_[d1] == lp + 1;
  //@ assert e1_top: lvl_ty(e1, ctx_len_[d1]) == psd;
  //@ assert e1_lvl1: lvl_ty(e1, lx) == psd && 0 <= lp < ctx_len_[d1];
  //@ assert e1_lvl2: lvl_ty(d1, lp) == typ;
  //@ assert e1_lvl: lvl_ty(e1, lx) == psd && lvl_ty(e1, lp) == typ;
  //@ assert e1_ext: ctx_is_ext(e1, d1, psd) && ctx_valid(e1) && ctx_is_ext(d1, d, typ) && ctx_valid(d);
  //@ assert e1_gb: env_ok(CHAD_PFWD, ctx_parent_[gb], e1) && trh(CHAD_PFWD, ctx_type_[gb]) && trm(CHAD_PFWD, ctx_type_[gb]) == psd;
  int q = fwd_under(body, e1, lx, depth + 1);
  //@ assert qb_keep: env_keep{Pre, Here};
  //@ assert qb_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[body];
  if (q < 0) return q;
  //@ assert qb_b: tm_ctx_[body] == gb && tm_ty_[body] == tau;
  //@ assert qb_fwd: tm_ctx_[q] == e1 && fwd_ty(tm_ty_[q], gb, tau) && 0 <= q < tm_count;
  //@ ghost int tyq = tm_ty_[q];
  //@ ghost int tgx = chad_memo_ctx_[CHAD_TAN][gb] - 1;
  //@ assert qb_tgx: trch(CHAD_TAN, gb) && trc(CHAD_TAN, gb) == tgx && 0 < gb;
  //@ ghost trc_step(CHAD_TAN, gb);
  //@ assert qb_memo1: trm(CHAD_PFWD, sty) == psd && trm(CHAD_TAN, sty) == ssd && trc(CHAD_TAN, g) == tg;
  //@ assert qb_memo2: trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt;
  //@ assert qb_tgx2: ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, ssd);
  //@ assert qb_qty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, tgx, tt);
  //@ assert qb_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert qb_len: ctx_len_[d] == lp && ctx_len_[d1] == lp + 1 && lx == lp + 1;
  //@ assert qb_grow: tables_grow{Pre, Here};
  //@ assert qb_pk: ty_valid(typ) && ty_kind_[typ] == TY_PROD;
  //@ assert qb_pr1: ty_right_[typ] == rtp;
  //@ assert qb_pr2: ty_valid(rtp) && ty_same(rtp, TY_LFUN, tg, sa);
  //@ assert qb_pr: ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  //@ assert qb_tt: ty_valid(tt) && lin(tt) && ty_valid(tg) && ty_valid(ssd);
  //@ assert qb_sa: ty_valid(sa) && ty_kind_[sa] == TY_PROD;
  //@ assert qb_ext: ctx_is_ext(d1, d, typ) && ctx_is_ext(e1, d1, psd) && ctx_valid(e1) && ctx_valid(d);
  //@ assert qb_len2: ctx_len_[e1] == lx + 1;
  //@ assert qb_lvl: lvl_ty(e1, lp) == typ && lvl_ty(e1, lx) == psd;
  int lq = L(e1), e2 = f_ext(e1, tyof(q));
  //@ assert e2 >= 0 || e2 == CHAD_E_CAPACITY;
  //@ assert e2_keep: env_keep{Pre, Here};
  //@ assert e2_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[body];
  if (e2 < 0) return e2;
  //@ assert e2_len: ctx_len_[e2] == lq + 1 && lq == lx + 1 && ctx_parent_[e2] == e1 && ctx_type_[e2] == tyq;
  //@ assert e2_ext: ctx_is_ext(e2, e1, tyq) && ctx_valid(e2);
  //@ assert e2_ext2: ctx_is_ext(e1, d1, psd) && ctx_is_ext(d1, d, typ) && ctx_valid(d);
  //@ assert e2_lq: lvl_ty(e2, lq) == tyq;
  //@ assert e2_lp: lvl_ty(e2, lp) == typ && 0 <= lp < lq < ctx_len_[e2];
  //@ assert e2_pty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  //@ assert e2_qty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, tgx, tt);
  //@ assert e2_tgx: ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, ssd);
  //@ assert e2_sa0: side == 0 ==> ty_left_[sa] == ssd;
  //@ assert e2_sa1: side != 0 ==> ty_right_[sa] == ssd;
  //@ ghost Built: ;
  int lin = fwd_case_lin(e2, lp, lq, tg, side) /*@ ghost (sa, ssd, tgx, tt, typ, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == e2 && ty_same(tm_ty_[lin], TY_LFUN, tg, tt) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_env: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[body] + 11;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert l_lin: tm_ctx_[lin] == e2 && ty_valid(tyl) && ty_same(tyl, TY_LFUN, tg, tt) && 0 <= lin < tm_count;
  //@ assert l_lvlq: lvl_ty(e2, lq) == tyq && 0 <= lq < ctx_len_[e2] && ctx_valid(e2);
  int vq = V(e2, lq);
  //@ assert vq >= 0 ==> tm_ctx_[vq] == e2 && tm_ty_[vq] == tyq && 0 <= vq < tm_count;
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  //@ assert vq_prod: vq >= 0 ==> ty_valid(tm_ty_[vq]) && ty_kind_[tm_ty_[vq]] == TY_PROD && ty_left_[tm_ty_[vq]] == pt;
  int prim = b_fst(vq);
  //@ assert prim >= 0 ==> tm_ctx_[prim] == e2 && tm_ty_[prim] == pt && 0 <= prim < tm_count;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert p_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[body] + 13;
  //@ assert p_grow: tables_grow{Built, Here} && side_same{Built, Here};
  //@ assert p_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  //@ assert p_keep: env_keep{Pre, Here};
  if (prim < 0) return prim;
  //@ assert t_lin0: tm_ty_[lin] == tyl && tm_ctx_[lin] == e2 && 0 <= lin < tm_count;
  //@ assert t_lin1: ty_valid(tyl) && ty_same(tyl, TY_LFUN, tg, tt);
  //@ assert t_lin: tm_ctx_[lin] == e2 && ty_valid(tm_ty_[lin]) && ty_same(tm_ty_[lin], TY_LFUN, tg, tt) && 0 <= lin < tm_count;
  //@ assert t_q: 0 <= q < tm_count && tm_ctx_[q] == e1 && tm_ty_[q] == tyq && ctx_valid(e1) && ctx_is_ext(e2, e1, tyq);
  //@ assert t_e1: ctx_is_ext(e1, d1, psd);
  //@ ghost Tail: ;
  int r = let_unary_tail(q, prim, lin) /*@ ghost (e1, e2, pt, tg, tt) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == e1 && \at(tm_count, Pre) <= r < tm_count;
  //@ assert r_e1: ctx_is_ext(e1, d1, psd);
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, tg, tt);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[body] + 15;
  //@ assert tables_grow{Tail, Here} && side_same{Tail, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* The common contract of fwd_case_body and fwd_case_last: p = F a (a :
 * A + B = st in G) at level lp of d1 = d, p; ps = P(A + B) = P A + P B,
 * sa = T(A + B) = T A * T B. */
#define FCASE_PRE \
  requires kernel_inv && memo_inv && src_inv; \
  requires ty_valid(st) && ty_kind_[st] == TY_SUM && ty_left_[st] == l && ty_right_[st] == r; \
  requires trh(CHAD_PFWD, l) && trm(CHAD_PFWD, l) == psl && trh(CHAD_PFWD, r) && trm(CHAD_PFWD, r) == psr; \
  requires trh(CHAD_TAN, l) && trm(CHAD_TAN, l) == ssl && trh(CHAD_TAN, r) && trm(CHAD_TAN, r) == ssr; \
  requires ty_valid(ps) && ty_same(ps, TY_SUM, psl, psr) && ty_valid(sa) && ty_same(sa, TY_PROD, ssl, ssr); \
  requires trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt && trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt; \
  requires ty_valid(tt) && lin(tt); \
  requires trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg && ty_valid(tg); \
  requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ; \
  requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == ps && \
    ty_same(ty_right_[typ], TY_LFUN, tg, sa); \
  requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_len_[d1] == lp + 1 && \
    lp == ctx_len_[d] && 0 <= d < d1 < ctx_count && lvl_ty(d1, lp) == typ; \
  requires env_ok(CHAD_PFWD, g, d1); \
  requires 0 <= depth <= CHAD_MAX_DEPTH
#define FCASE_POST \
  FWD_ASSIGNS; \
  ensures kernel_inv && memo_inv && src_inv && venv_wf; \
  ensures venv_sp == \old(venv_sp) && venv_cur == \old(venv_cur); \
  ensures memo_grows{Pre, Post}; \
  ensures \old(tm_count) <= tm_count && \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count; \
  ensures env_keep{Pre, Post}; \
  ensures \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH; \
  ensures fcase_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d && \
    ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD && \
    ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, tg, tt)

/* F(case)'s right branch and the tail, given the left branch br0 */
/*@ FCASE_PRE;
    requires 0 <= c < tm_count && chad_msrc_[c] == 1 && tm_ctx_[c] == gc && tm_ty_[c] == tau;
    requires 0 < gc < ctx_count && ctx_parent_[gc] == g && ctx_type_[gc] == r;
    requires 0 <= br0 < tm_count && ctx_is_ext(tm_ctx_[br0], d1, psl);
    requires ty_valid(tm_ty_[br0]) && ty_kind_[tm_ty_[br0]] == TY_PROD &&
      ty_left_[tm_ty_[br0]] == pt && ty_same(ty_right_[tm_ty_[br0]], TY_LFUN, tg, tt);
    terminates \true;
    decreases FWD_M(depth) - 4;
    FCASE_POST;
    ensures flast_size: tm_count - \old(tm_count) <= FWD_K * chad_msz_[c] + 19;
*/
static int fwd_case_last(int c, int p, int d1, int lp, int st, int br0, int tg, int depth)
  /*@ ghost (int g, int gc, int l, int r, int tau, int ps, int psl, int psr, int ssl, int ssr,
             int sa, int pt, int tt, int d, int typ) */
{
  //@ ghost int n0 = ctx_len_[d];
  //@ ghost int n1 = ctx_len_[d1];
  //@ ghost int g0 = tm_ctx_[br0];
  //@ ghost int ty0 = tm_ty_[br0];
  //@ ghost int x0 = ty_right_[ty0];
  //@ assert l_x0: ty_inv && ty_node_ok(ty0) && 0 <= x0 < ty0 && ty_same(x0, TY_LFUN, tg, tt);
  //@ assert l_g0: ctx_is_ext(g0, d1, psl) && 0 < g0 < ctx_count;
  //@ ghost int tpr = ty_right_[typ];
  //@ assert l_tpr: ty_node_ok(typ) && 0 <= tpr < typ && ty_same(tpr, TY_LFUN, tg, sa);
  //@ assert l_sa: ty_right_[sa] == ssr && ty_kind_[sa] == TY_PROD;
  //@ assert l_venv: venv_wf;
  int br1 = fwd_case_branch(1, c, d1, lp, st, tg, depth + 1)
    /*@ ghost (p, g, gc, r, tau, psr, ssr, sa, pt, tt, d, typ) */;
  //@ assert b1_keep: env_keep{Pre, Here};
  //@ assert b1_ret: br1 < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[c] + 19;
  if (br1 < 0) return br1;
  //@ assert b1_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[c] + 15;
  //@ ghost int ty1 = tm_ty_[br1];
  //@ ghost int x1 = ty_right_[ty1];
  //@ assert b1_ctx: ctx_is_ext(tm_ctx_[br1], d1, psr);
  //@ assert b1_x1: ty_node_ok(ty1) && 0 <= x1 < ty1 && ty_same(x1, TY_LFUN, tg, tt);
  //@ assert b1_br0: tm_ctx_[br0] == g0 && tm_ty_[br0] == ty0 && 0 <= br0 < br1;
  //@ assert b1_x0: ty_right_[ty0] == x0 && ty_same(x0, TY_LFUN, tg, tt);
  /* hash-consing: the two branches have one type */
  //@ assert b1_xx: x1 == x0;
  //@ assert b1_t0: ty_same(ty0, TY_PROD, pt, x0);
  //@ assert b1_t1: ty_same(ty1, TY_PROD, pt, x0);
  //@ assert b1_tt: ty1 == ty0;
  //@ assert b1_g0: ctx_is_ext(g0, d1, psl);
  //@ assert b1_n0: ctx_len_[d] == n0;
  //@ assert b1_n1: ctx_len_[d1] == n1;
  //@ assert b1_d1: ctx_is_ext(d1, d, typ) && ctx_len_[d1] == lp + 1 && ctx_valid(d) && ctx_valid(d1);
  //@ assert b1_lvl: lvl_ty(d1, lp) == typ && 0 <= lp < ctx_len_[d1];
  //@ assert b1_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert b1_ps: ty_valid(ps) && ty_kind_[ps] == TY_SUM && ty_left_[ps] == psl && ty_right_[ps] == psr;
  //@ assert b1_typ: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == ps;
  //@ ghost Tail: ;
  int res = case_tail(p, d1, lp, br0, br1) /*@ ghost (d, ps) */;
  //@ assert res >= 0 ==> tm_ctx_[res] == d && tm_ty_[res] == ty0 && \at(tm_count, Pre) <= res < tm_count;
  //@ assert res >= 0 ==> ty_valid(ty0) && ty_kind_[ty0] == TY_PROD && ty_left_[ty0] == pt && ty_same(ty_right_[ty0], TY_LFUN, tg, tt);
  //@ assert res >= 0 || res == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[c] + 19;
  //@ assert tables_grow{Tail, Here} && side_same{Tail, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv;
  //@ assert env_keep{Pre, Here};
  return res;
}

/* F(case)'s left branch, then fwd_case_last */
/*@ FCASE_PRE;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && tm_ctx_[b] == gb && tm_ty_[b] == tau;
    requires 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == l;
    requires 0 <= c < tm_count && chad_msrc_[c] == 1 && tm_ctx_[c] == gc && tm_ty_[c] == tau;
    requires 0 < gc < ctx_count && ctx_parent_[gc] == g && ctx_type_[gc] == r;
    terminates \true;
    decreases FWD_M(depth) - 3;
    FCASE_POST;
    ensures fbody_size: tm_count - \old(tm_count) <= FWD_K * chad_msz_[b] + FWD_K * chad_msz_[c] + 34;
*/
static int fwd_case_body(int b, int c, int p, int d1, int lp, int st, int tg, int depth)
  /*@ ghost (int g, int gb, int gc, int l, int r, int tau, int ps, int psl, int psr, int ssl, int ssr,
             int sa, int pt, int tt, int d, int typ) */
{
  //@ ghost int n0 = ctx_len_[d];
  //@ ghost int n1 = ctx_len_[d1];
  //@ ghost int tpr = ty_right_[typ];
  //@ assert c_tpr: ty_inv && ty_node_ok(typ) && 0 <= tpr < typ && ty_same(tpr, TY_LFUN, tg, sa);
  //@ assert c_ps: ty_node_ok(ps) && ty_same(ps, TY_SUM, psl, psr);
  //@ assert c_sa: ty_left_[sa] == ssl && ty_kind_[sa] == TY_PROD;
  //@ assert c_venv: venv_wf;
  int br0 = fwd_case_branch(0, b, d1, lp, st, tg, depth + 1)
    /*@ ghost (p, g, gb, l, tau, psl, ssl, sa, pt, tt, d, typ) */;
  //@ assert b0_keep: env_keep{Pre, Here};
  //@ assert b0_ret: br0 < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b] + FWD_K * chad_msz_[c] + 34;
  if (br0 < 0) return br0;
  //@ assert b0_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 15;
  //@ assert b0_ctx: ctx_is_ext(tm_ctx_[br0], d1, psl) && 0 <= br0 < tm_count;
  //@ assert b0_ty: ty_valid(tm_ty_[br0]) && ty_kind_[tm_ty_[br0]] == TY_PROD && ty_left_[tm_ty_[br0]] == pt && ty_same(ty_right_[tm_ty_[br0]], TY_LFUN, tg, tt);
  //@ assert b0_memo1: trm(CHAD_PFWD, l) == psl && trm(CHAD_PFWD, r) == psr && trm(CHAD_TAN, l) == ssl && trm(CHAD_TAN, r) == ssr;
  //@ assert b0_memo2: trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt && trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt;
  //@ assert b0_memo3: trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg;
  //@ assert b0_tpr: ty_right_[typ] == tpr && ty_same(tpr, TY_LFUN, tg, sa);
  //@ assert b0_ps: ty_same(ps, TY_SUM, psl, psr) && ty_valid(ps);
  //@ assert b0_sa: ty_same(sa, TY_PROD, ssl, ssr) && ty_valid(sa);
  //@ assert b0_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert b0_n0: ctx_len_[d] == n0;
  //@ assert b0_n1: ctx_len_[d1] == n1;
  //@ assert b0_d1: ctx_is_ext(d1, d, typ) && ctx_len_[d1] == lp + 1 && lp == ctx_len_[d] && ctx_valid(d) && ctx_valid(d1);
  //@ assert b0_lvl: lvl_ty(d1, lp) == typ;
  //@ assert b0_env: env_ok(CHAD_PFWD, g, d1);
  //@ assert b0_c: 0 <= c < tm_count && chad_msrc_[c] == 1 && tm_ctx_[c] == gc && tm_ty_[c] == tau;
  //@ assert b0_gc: 0 < gc < ctx_count && ctx_parent_[gc] == g && ctx_type_[gc] == r;
  //@ ghost Last: ;
  int res = fwd_case_last(c, p, d1, lp, st, br0, tg, depth)
    /*@ ghost (g, gc, l, r, tau, ps, psl, psr, ssl, ssr, sa, pt, tt, d, typ) */;
  //@ assert tm_count - \at(tm_count, Last) <= FWD_K * chad_msz_[c] + 19;
  //@ assert env_keep{Pre, Here};
  return res;
}

/* F(case a (x. b) (y. c)) = let p = F a in case fst p of
 *   inl x -> let q = F b in (fst q, \v. snd q (v, fst (snd p v)))
 *   inr y -> let q = F c in (fst q, \v. snd q (v, snd (snd p v)))
 * F a and p's extension here, the branches in fwd_case_body and
 * fwd_case_last (one recursive call per function), the tail in case_tail. */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_CASE; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases FWD_M(depth) - 2;
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_case(int t, int d, int tg, int depth)
{
  //@ assert node_ok(t) && msz_ok(t) && msrc_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t), c = tm_c(t);
  //@ ghost int ta = tm_ty_[a];
  //@ ghost int gb = tm_ctx_[b];
  //@ ghost int gc = tm_ctx_[c];
  //@ assert 0 <= a < t && 0 <= b < t && 0 <= c < t;
  //@ assert chad_msrc_[a] == 1 && chad_msrc_[b] == 1 && chad_msrc_[c] == 1;
  //@ assert case_src: tm_ctx_[a] == g && tm_ty_[b] == tau && tm_ty_[c] == tau;
  //@ assert case_sum: ty_valid(ta) && ty_kind_[ta] == TY_SUM;
  //@ ghost int l = ty_left_[ta];
  //@ ghost int r = ty_right_[ta];
  //@ assert case_gb: ctx_is_ext(gb, g, l) && ctx_is_ext(gc, g, r);
  //@ assert case_gb2: 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == l;
  //@ assert case_gc2: 0 < gc < ctx_count && ctx_parent_[gc] == g && ctx_type_[gc] == r;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b] + chad_msz_[c]);
  /* the size budget: F a, F b, F c and at most 34 nodes of this rule (or
   * the whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && 1 <= chad_msz_[c] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert case_budget: FWD_K * chad_msz_[a] + FWD_K * chad_msz_[b] + FWD_K * chad_msz_[c] + 34 <=
        FWD_K * chad_msz_[t] || CHAD_MAX_TERMS <= FWD_K * chad_msz_[t]; */
  //@ ghost int pt = chad_memo_ty_[CHAD_PFWD][tau] - 1;
  //@ ghost int tt = chad_memo_ty_[CHAD_TAN][tau] - 1;
  //@ ghost tan_lin_lemma();
  //@ assert case_lin: lin(tt) && ty_valid(tt) && ty_valid(tg);
  int p = f_sub(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  //@ assert pa_fwd: tm_ctx_[p] == d && fwd_ty(tm_ty_[p], g, ta) && 0 <= p < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a];
  //@ assert pa_tau: trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt && trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt && lin(tt);
  //@ ghost tr_step(CHAD_PFWD, ta);
  //@ ghost tr_step(CHAD_TAN, ta);
  //@ ghost int ps = chad_memo_ty_[CHAD_PFWD][ta] - 1;
  //@ ghost int sa = chad_memo_ty_[CHAD_TAN][ta] - 1;
  //@ assert pa_l: trh(CHAD_PFWD, l) && trh(CHAD_PFWD, r) && trh(CHAD_TAN, l) && trh(CHAD_TAN, r);
  //@ ghost int psl = chad_memo_ty_[CHAD_PFWD][l] - 1;
  //@ ghost int psr = chad_memo_ty_[CHAD_PFWD][r] - 1;
  //@ ghost int ssl = chad_memo_ty_[CHAD_TAN][l] - 1;
  //@ ghost int ssr = chad_memo_ty_[CHAD_TAN][r] - 1;
  //@ assert pa_ps: ty_valid(ps) && ty_same(ps, TY_SUM, psl, psr);
  //@ assert pa_sa: ty_valid(sa) && ty_same(sa, TY_PROD, ssl, ssr);
  //@ assert pa_memo: trc(CHAD_TAN, g) == tg;
  //@ ghost int typ = tm_ty_[p];
  //@ assert pa_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == ps && ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  int lp = L(d), d1 = f_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_env: env_ok(CHAD_PFWD, g, d1) && ctx_len_[d1] == lp + 1 && lvl_ty(d1, lp) == typ;
  //@ assert d1_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d) && lp == ctx_len_[d];
  //@ assert d1_ord: 0 <= d < d1 < ctx_count;
  int st = tm_type(a);
  //@ assert st == ta;
  //@ ghost Body: ;
  int res = fwd_case_body(b, c, p, d1, lp, st, tg, depth)
    /*@ ghost (g, gb, gc, l, r, tau, ps, psl, psr, ssl, ssr, sa, pt, tt, d, typ) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= FWD_K * chad_msz_[b] + FWD_K * chad_msz_[c] + 34;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert res >= 0 || res == CHAD_E_CAPACITY || res == CHAD_E_DEPTH;
  //@ ghost int tyr = res >= 0 ? tm_ty_[res] : 0;
  //@ assert res >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, tg, tt);
  //@ assert res >= 0 ==> ty_node_ok(tyr) && 0 <= ty_right_[tyr] < tyr;
  //@ assert trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau) && trch(CHAD_TAN, g) && trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt && trc(CHAD_TAN, g) == tg;
  //@ assert res >= 0 ==> fwd_ty(tm_ty_[res], g, tau);
  //@ assert tm_ctx_[t] == g && tm_ty_[t] == tau;
  //@ assert case_type: res >= 0 ==> 0 <= res < tm_count && tm_ctx_[res] == d && fwd_ty(tm_ty_[res], tm_ctx_[t], tm_ty_[t]);
  return res;
}

/* F(iter)'s last recursive call and the rest: the body b (of type tau in
 * gb = G, x : tau) under its binder in e2 = e1, x : pt, where d1 = d, pn;
 * d2 = d1, ps; e1 = d2, s (s : st = ps's type, the iteration state
 * P tau * (T G -o T tau)); then the linear half \v. snd q (v, snd s v)
 * (fwd_let_lin, with s in the place of p) and the tail iter_tail. Gets
 * depth + 1 from fwd_iter_body (offset 0), as the case branches. */
/*@ requires kernel_inv && memo_inv && src_inv && venv_wf;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= depth <= CHAD_MAX_DEPTH + 1;
    requires tm_ctx_[b] == gb && tm_ty_[b] == tau;
    requires 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == tau;
    requires env_ok(CHAD_PFWD, g, e2);
    requires trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt && trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt;
    requires ty_valid(tt) && lin(tt);
    requires trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg && ty_valid(tg);
    requires 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
    requires ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
    requires 0 <= ps < tm_count && tm_ctx_[ps] == d1 && tm_ty_[ps] == st;
    requires ty_valid(st) && ty_kind_[st] == TY_PROD && ty_left_[st] == pt &&
      ty_same(ty_right_[st], TY_LFUN, tg, tt);
    requires ctx_valid(d) && ctx_is_ext(d1, d, typn) && ctx_is_ext(d2, d1, st) &&
      ctx_is_ext(e1, d2, st) && ctx_is_ext(e2, e1, pt);
    requires ln == ctx_len_[d] && ls == ln + 1 && lc == ls + 1 && lx == lc + 1;
    requires ctx_len_[d1] == ls && ctx_len_[d2] == lc && ctx_len_[e1] == lx && ctx_len_[e2] == lx + 1;
    requires 0 <= d < d1 < d2 < e1 < e2 < ctx_count;
    requires lvl_ty(d2, ln) == typn && lvl_ty(d2, ls) == st && lvl_ty(e1, lc) == st &&
      lvl_ty(e2, lc) == st && lvl_ty(e2, lx) == pt;
    terminates \true;
    decreases FWD_M(depth);
    FWD_ASSIGNS;
    ensures kernel_inv && memo_inv && src_inv && venv_wf;
    ensures venv_sp == \old(venv_sp) && venv_cur == \old(venv_cur);
    ensures memo_grows{Pre, Post};
    ensures \old(tm_count) <= tm_count && \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures env_keep{Pre, Post};
    ensures filast_size: tm_count - \old(tm_count) <= FWD_K * chad_msz_[b] + 23;
    ensures filast_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures filast_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      tm_ty_[\result] == st;
*/
static int fwd_iter_last(int b, int pn, int ps, int d2, int e1, int e2, int ln, int ls, int lc, int lx,
                         int tg, int depth)
  /*@ ghost (int g, int gb, int tau, int pt, int tt, int d, int d1, int typn, int st) */
{
  //@ ghost int sr = ty_right_[st];
  //@ assert x_sr: ty_inv && ty_node_ok(st) && 0 <= sr < st && ty_same(sr, TY_LFUN, tg, tt);
  //@ assert x_gb: env_ok(CHAD_PFWD, ctx_parent_[gb], e2) && trh(CHAD_PFWD, ctx_type_[gb]) && trm(CHAD_PFWD, ctx_type_[gb]) == pt;
  //@ assert x_lx: 0 <= lx < ctx_len_[e2] && lvl_ty(e2, lx) == pt;
  int q = fwd_under(b, e2, lx, depth + 1);
  //@ assert q_keep: env_keep{Pre, Here};
  //@ assert q_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b];
  if (q < 0) return q;
  //@ assert q_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b];
  //@ assert q_fwd: tm_ctx_[q] == e2 && fwd_ty(tm_ty_[q], gb, tau) && 0 <= q < tm_count;
  //@ ghost int tyq = tm_ty_[q];
  //@ ghost int tgx = chad_memo_ctx_[CHAD_TAN][gb] - 1;
  //@ assert q_tgx: trch(CHAD_TAN, gb) && trc(CHAD_TAN, gb) == tgx && 0 < gb;
  //@ ghost trc_step(CHAD_TAN, gb);
  //@ assert q_memo1: trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt && trc(CHAD_TAN, g) == tg;
  //@ assert q_tgx2: ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, tt);
  //@ assert q_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, tgx, tt);
  //@ assert q_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert q_ps: 0 <= ps < tm_count && tm_ctx_[ps] == d1 && tm_ty_[ps] == st;
  //@ assert q_typn: ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
  //@ assert q_st0: ty_right_[st] == sr && ty_same(sr, TY_LFUN, tg, tt);
  //@ assert q_st: ty_valid(st) && ty_kind_[st] == TY_PROD && ty_left_[st] == pt;
  //@ assert q_ord: 0 <= d < d1 < d2 < e1 < e2 < ctx_count;
  //@ assert q_c1: ctx_parent_[d1] == d && ctx_type_[d1] == typn && ctx_len_[d1] == ls;
  //@ assert q_c2: ctx_parent_[d2] == d1 && ctx_type_[d2] == st && ctx_len_[d2] == lc;
  //@ assert q_c3: ctx_parent_[e1] == d2 && ctx_type_[e1] == st && ctx_len_[e1] == lx;
  //@ assert q_c4: ctx_parent_[e2] == e1 && ctx_type_[e2] == pt && ctx_len_[e2] == lx + 1;
  //@ assert q_c0: ctx_valid(d) && ctx_len_[d] == ln;
  //@ assert q_l1: lvl_ty(d2, ln) == typn;
  //@ assert q_l2: lvl_ty(d2, ls) == st;
  //@ assert q_l3: lvl_ty(e1, lc) == st;
  //@ assert q_l4: lvl_ty(e2, lc) == st;
  int lq = L(e2), e3 = f_ext(e2, tyof(q));
  //@ assert e3 >= 0 || e3 == CHAD_E_CAPACITY;
  //@ assert e3_keep: env_keep{Pre, Here};
  //@ assert e3_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b];
  if (e3 < 0) return e3;
  //@ assert e3_ext: ctx_is_ext(e3, e2, tyq) && ctx_len_[e3] == lq + 1 && lq == lx + 1 && ctx_valid(e3);
  //@ assert e3_lq: lvl_ty(e3, lq) == tyq;
  //@ assert e3_lc0: lvl_ty(e3, lc) == lvl_ty(e2, lc);
  //@ assert e3_lc: lvl_ty(e3, lc) == st && 0 <= lc < lq;
  //@ assert e3_c1: ctx_parent_[d1] == d && ctx_type_[d1] == typn && ctx_len_[d1] == ls;
  //@ assert e3_c2: ctx_parent_[d2] == d1 && ctx_type_[d2] == st && ctx_len_[d2] == lc;
  //@ assert e3_c3: ctx_parent_[e1] == d2 && ctx_type_[e1] == st && ctx_len_[e1] == lx;
  //@ assert e3_c4: ctx_parent_[e2] == e1 && ctx_type_[e2] == pt && ctx_len_[e2] == lx + 1;
  //@ assert e3_c0: ctx_len_[d] == ln;
  //@ assert e3_l1: lvl_ty(d2, ln) == typn;
  //@ assert e3_l2: lvl_ty(d2, ls) == st;
  //@ assert e3_l3: lvl_ty(e1, lc) == st;
  //@ assert e3_st: ty_valid(st) && ty_kind_[st] == TY_PROD && ty_same(ty_right_[st], TY_LFUN, tg, tt);
  //@ assert e3_tt: ty_valid(tt) && lin(tt) && ty_valid(tg) && ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, tt);
  //@ ghost Built: ;
  int lin = fwd_let_lin(e3, lc, lq, tg) /*@ ghost (tt, tgx, tt, st, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == e3 && ty_same(tm_ty_[lin], TY_LFUN, tg, tt) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_keep: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 10;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert t_lin: ty_valid(tyl) && ty_same(tyl, TY_LFUN, tg, tt);
  //@ assert t_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert t_ps: 0 <= ps < tm_count && tm_ctx_[ps] == d1 && tm_ty_[ps] == st;
  //@ assert t_q: 0 <= q < tm_count && tm_ctx_[q] == e2 && tm_ty_[q] == tyq;
  //@ assert t_typn: ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
  //@ assert t_st0: ty_right_[st] == sr;
  //@ assert t_st: ty_valid(st) && ty_kind_[st] == TY_PROD && ty_left_[st] == pt && ty_same(ty_right_[st], TY_LFUN, tg, tt);
  //@ assert t_tyq: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt;
  //@ assert t_c1: ctx_parent_[d1] == d && ctx_type_[d1] == typn && ctx_len_[d1] == ls;
  //@ assert t_c2: ctx_parent_[d2] == d1 && ctx_type_[d2] == st && ctx_len_[d2] == lc;
  //@ assert t_c3: ctx_parent_[e1] == d2 && ctx_type_[e1] == st && ctx_len_[e1] == lx;
  //@ assert t_c4: ctx_parent_[e2] == e1 && ctx_type_[e2] == pt && ctx_len_[e2] == lx + 1;
  //@ assert t_c5: ctx_parent_[e3] == e2 && ctx_type_[e3] == tyq && ctx_len_[e3] == lq + 1;
  //@ assert t_c0: ctx_valid(d) && ctx_len_[d] == ln && 0 <= d < d1 < d2 < e1 < e2 < e3 < ctx_count;
  //@ assert t_e: ctx_is_ext(d1, d, typn) && ctx_is_ext(d2, d1, st) && ctx_is_ext(e1, d2, st) && ctx_is_ext(e2, e1, pt) && ctx_is_ext(e3, e2, tyq);
  //@ assert t_l1: lvl_ty(d2, ln) == typn;
  //@ assert t_l2: lvl_ty(d2, ls) == st;
  //@ assert t_l3: lvl_ty(e1, lc) == st;
  //@ assert t_l4: lvl_ty(e3, lq) == tyq;
  //@ ghost Tail: ;
  int r = iter_tail(pn, ps, q, lin, d2, e1, e3, ln, ls, lc, lq) /*@ ghost (d, d1, e2, pt, tg, tt) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && tm_ty_[r] == st && \at(tm_count, Pre) <= r < tm_count;
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 23;
  //@ assert tables_grow{Tail, Here} && side_same{Tail, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* F(iter)'s second recursive call: ps = F c in d1 = d, pn, then the
 * contexts of the iteration (d2 = d1, ps; e1 = d2, s; e2 = e1, x) and
 * fwd_iter_last. */
/*@ requires kernel_inv && memo_inv && src_inv;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= c < tm_count && chad_msrc_[c] == 1;
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[b] == gb && tm_ty_[b] == tau && tm_ctx_[c] == g && tm_ty_[c] == tau;
    requires 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == tau;
    requires env_ok(CHAD_PFWD, g, d1);
    requires trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt && trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt;
    requires ty_valid(tt) && lin(tt);
    requires trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg && ty_valid(tg);
    requires 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
    requires ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
    requires ctx_valid(d) && ctx_is_ext(d1, d, typn) && ctx_valid(d1) && ctx_len_[d1] == ln + 1 && ln == ctx_len_[d];
    requires 0 <= d < d1 < ctx_count;
    terminates \true;
    decreases FWD_M(depth) - 3;
    FWD_ASSIGNS;
    ensures kernel_inv && memo_inv && src_inv && venv_wf;
    ensures venv_sp == \old(venv_sp) && venv_cur == \old(venv_cur);
    ensures memo_grows{Pre, Post};
    ensures \old(tm_count) <= tm_count && \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures env_keep{Pre, Post};
    ensures fibody_size: tm_count - \old(tm_count) <= FWD_K * chad_msz_[c] + FWD_K * chad_msz_[b] + 23;
    ensures fibody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures fibody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, tg, tt);
*/
static int fwd_iter_body(int b, int c, int pn, int d1, int ln, int tg, int depth)
  /*@ ghost (int g, int gb, int tau, int pt, int tt, int d, int typn) */
{
  //@ ghost int n0 = ctx_len_[d];
  //@ ghost int n1 = ctx_len_[d1];
  //@ assert s_env: env_ok(CHAD_PFWD, tm_ctx_[c], d1);
  int ps = f_sub(c, d1, depth + 1);
  //@ assert ps_keep: env_keep{Pre, Here};
  //@ assert ps_ret: ps < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[c];
  if (ps < 0) return ps;
  //@ assert ps_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[c];
  //@ assert ps_fwd: tm_ctx_[ps] == d1 && fwd_ty(tm_ty_[ps], g, tau) && 0 <= ps < tm_count;
  //@ assert ps_memo: trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt && trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt && trc(CHAD_TAN, g) == tg;
  //@ ghost int st = tm_ty_[ps];
  //@ assert ps_st: ty_valid(st) && ty_kind_[st] == TY_PROD && ty_left_[st] == pt && ty_same(ty_right_[st], TY_LFUN, tg, tt);
  //@ ghost int sr = ty_right_[st];
  //@ assert ps_sr: ty_inv && ty_node_ok(st) && 0 <= sr < st && ty_same(sr, TY_LFUN, tg, tt);
  //@ assert ps_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert ps_typn: ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
  //@ assert ps_n0: ctx_len_[d] == n0;
  //@ assert ps_n1: ctx_len_[d1] == n1;
  //@ assert ps_d1: ctx_is_ext(d1, d, typn) && ctx_valid(d) && ctx_valid(d1) && ctx_len_[d1] == ln + 1 && ln == ctx_len_[d];
  //@ assert ps_env: env_ok(CHAD_PFWD, g, d1);
  //@ assert ps_tt: ty_valid(tt) && lin(tt) && ty_valid(tg);
  int ls = L(d1), d2 = f_ext(d1, tyof(ps));
  //@ assert d2 >= 0 || d2 == CHAD_E_CAPACITY;
  //@ assert d2_keep: env_keep{Pre, Here};
  //@ assert d2_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[c] + FWD_K * chad_msz_[b] + 23;
  if (d2 < 0) return d2;
  //@ assert d2_ext: ctx_is_ext(d2, d1, st) && ctx_valid(d2) && ctx_len_[d2] == ls + 1 && ls == ln + 1;
  //@ assert d2_l1: lvl_ty(d2, ls) == st && lvl_ty(d2, ln) == lvl_ty(d1, ln);
  //@ assert d2_l2: lvl_ty(d1, ln) == typn;
  //@ assert d2_l3: lvl_ty(d2, ln) == typn;
  int lc = L(d2), e1 = f_ext(d2, tyof(ps));
  //@ assert e1 >= 0 || e1 == CHAD_E_CAPACITY;
  //@ assert e1_keep: env_keep{Pre, Here};
  if (e1 < 0) return e1;
  //@ assert e1_ext: ctx_is_ext(e1, d2, st) && ctx_valid(e1) && ctx_len_[e1] == lc + 1 && lc == ls + 1;
  //@ assert e1_l1: lvl_ty(e1, lc) == st;
  //@ assert e1_l2: lvl_ty(d2, ln) == typn && lvl_ty(d2, ls) == st;
  int px = ty_left(tyof(ps));
  //@ assert px == pt && ty_valid(pt);
  int lx = L(e1), e2 = f_ext(e1, px);
  //@ assert e2 >= 0 || e2 == CHAD_E_CAPACITY;
  //@ assert e2_keep: env_keep{Pre, Here};
  if (e2 < 0) return e2;
  //@ assert e2_ext: ctx_is_ext(e2, e1, pt) && ctx_valid(e2) && ctx_len_[e2] == lx + 1 && lx == lc + 1;
  //@ assert e2_top: lvl_ty(e2, ctx_len_[e1]) == px && lx == ctx_len_[e1];
  //@ assert e2_lc: 0 <= lc < ctx_len_[e1] && lvl_ty(e2, lc) == lvl_ty(e1, lc);
  //@ assert e2_l1: lvl_ty(e2, lx) == pt && lvl_ty(e2, lc) == lvl_ty(e1, lc);
  //@ assert e2_l2: lvl_ty(e2, lc) == st;
  //@ assert e2_l3: lvl_ty(e1, lc) == st && lvl_ty(d2, ln) == typn && lvl_ty(d2, ls) == st;
  //@ assert e2_env: env_ok(CHAD_PFWD, g, e2);
  //@ assert e2_c: ctx_is_ext(d1, d, typn) && ctx_is_ext(d2, d1, st) && ctx_is_ext(e1, d2, st) && ctx_valid(d);
  //@ assert e2_len: ln == ctx_len_[d] && ctx_len_[d1] == ls && ctx_len_[d2] == lc && ctx_len_[e1] == lx;
  //@ assert e2_ord: 0 <= d < d1 < d2 < e1 < e2 < ctx_count;
  //@ assert e2_ps: 0 <= ps < tm_count && tm_ctx_[ps] == d1 && tm_ty_[ps] == st;
  //@ assert e2_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert e2_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[c];
  //@ assert e2_venv: venv_wf;
  //@ assert e2_st: ty_valid(st) && ty_kind_[st] == TY_PROD && ty_left_[st] == pt && ty_right_[st] == sr && ty_same(sr, TY_LFUN, tg, tt);
  //@ ghost Last: ;
  int r = fwd_iter_last(b, pn, ps, d2, e1, e2, ln, ls, lc, lx, tg, depth + 1)
    /*@ ghost (g, gb, tau, pt, tt, d, d1, typn, st) */;
  //@ assert r_size: tm_count - \at(tm_count, Last) <= FWD_K * chad_msz_[b] + 23;
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert r >= 0 ==> tm_ty_[r] == st && tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ assert r_st1: ty_valid(st) && ty_kind_[st] == TY_PROD;
  //@ assert r_st2: ty_left_[st] == pt && ty_right_[st] == sr;
  //@ assert r_st3: ty_same(sr, TY_LFUN, tg, tt);
  return r;
}

/* F(iter a (x. b) c) = let pn = F a; ps = F c in
 *   iter (fst pn) (s. let x = fst s; q = F b in (fst q, \v. snd q (v, snd s v))) ps
 * F a and pn's extension here, F c in fwd_iter_body, F b and the rest in
 * fwd_iter_last (one recursive call per function), the tail in iter_tail.
 * The state s : P tau * (T G -o T tau) carries the pushforward so far. */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_ITER; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases FWD_M(depth) - 2;
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_iter(int t, int d, int tg, int depth)
{
  //@ assert node_ok(t) && msz_ok(t) && msrc_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t), c = tm_c(t);
  //@ ghost int gb = tm_ctx_[b];
  //@ assert 0 <= a < t && 0 <= b < t && 0 <= c < t;
  //@ assert chad_msrc_[a] == 1 && chad_msrc_[b] == 1 && chad_msrc_[c] == 1;
  //@ assert iter_src: tm_ctx_[a] == g && tm_ty_[a] == TY_ID_INT && tm_ctx_[c] == g && tm_ty_[c] == tau && tm_ty_[b] == tau;
  //@ assert iter_gb: ctx_is_ext(gb, g, tau) && 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == tau;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b] + chad_msz_[c]);
  /* the size budget: F a, F c, F b and at most 23 nodes of this rule (or
   * the whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && 1 <= chad_msz_[c] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert iter_budget: FWD_K * chad_msz_[a] + FWD_K * chad_msz_[b] + FWD_K * chad_msz_[c] + 23 <=
        FWD_K * chad_msz_[t] || CHAD_MAX_TERMS <= FWD_K * chad_msz_[t]; */
  //@ ghost int pt = chad_memo_ty_[CHAD_PFWD][tau] - 1;
  //@ ghost int tt = chad_memo_ty_[CHAD_TAN][tau] - 1;
  //@ ghost tan_lin_lemma();
  //@ assert iter_lin: lin(tt) && ty_valid(tt) && ty_valid(tg);
  int pn = f_sub(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (pn < 0) return pn;
  //@ assert pa_fwd: tm_ctx_[pn] == d && fwd_ty(tm_ty_[pn], g, TY_ID_INT) && 0 <= pn < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a];
  //@ assert pa_tau: trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt && trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt && lin(tt) && trc(CHAD_TAN, g) == tg;
  //@ ghost tr_step(CHAD_PFWD, TY_ID_INT);
  //@ assert pa_int: trh(CHAD_PFWD, TY_ID_INT) && trm(CHAD_PFWD, TY_ID_INT) == TY_ID_INT;
  //@ ghost int typn = tm_ty_[pn];
  //@ assert pa_ty: ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
  int ln = L(d), d1 = f_ext(d, tyof(pn));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_env: env_ok(CHAD_PFWD, g, d1) && ctx_len_[d1] == ln + 1;
  //@ assert d1_ext: ctx_is_ext(d1, d, typn) && ctx_valid(d1) && ctx_valid(d) && ln == ctx_len_[d];
  //@ assert d1_ord: 0 <= d < d1 < ctx_count;
  //@ assert d1_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ ghost Body: ;
  int res = fwd_iter_body(b, c, pn, d1, ln, tg, depth) /*@ ghost (g, gb, tau, pt, tt, d, typn) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= FWD_K * chad_msz_[c] + FWD_K * chad_msz_[b] + 23;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert res >= 0 || res == CHAD_E_CAPACITY || res == CHAD_E_DEPTH;
  //@ ghost int tyr = res >= 0 ? tm_ty_[res] : 0;
  //@ assert res >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, tg, tt);
  //@ assert res >= 0 ==> ty_node_ok(tyr) && 0 <= ty_right_[tyr] < tyr;
  //@ assert trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau) && trch(CHAD_TAN, g) && trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt && trc(CHAD_TAN, g) == tg;
  //@ assert res >= 0 ==> fwd_ty(tm_ty_[res], g, tau);
  //@ assert tm_ctx_[t] == g && tm_ty_[t] == tau;
  //@ assert iter_type: res >= 0 ==> 0 <= res < tm_count && tm_ctx_[res] == d && fwd_ty(tm_ty_[res], tm_ctx_[t], tm_ty_[t]);
  return res;
}

/* The linear half of F(build a (i. b)), in d3 where level lm holds m : Int
 * and level lps holds ps : aq = Arr Q, Q = P tau * (tgx -o tt) (the
 * body's translation at each index; tgx = T(G, i) = T G * Unit, tt =
 * T tau):
 *   \v. build m (i. snd ps[i] (v, 0))    : tg -o st, st = Arr tt
 * Against the kernel's invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(d3) && ty_valid(tg) && ty_valid(tt) && lin(st) && ty_same(st, TY_ARR, tt, -1);
    requires ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, TY_ID_UNIT);
    requires 0 <= lm < ctx_len_[d3] && lvl_ty(d3, lm) == TY_ID_INT;
    requires 0 <= lps < ctx_len_[d3] && lvl_ty(d3, lps) == aq;
    requires ty_valid(aq) && ty_same(aq, TY_ARR, q, -1);
    requires ty_valid(q) && ty_kind_[q] == TY_PROD && ty_same(ty_right_[q], TY_LFUN, tgx, tt);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures fbuild_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d3 &&
      ty_same(tm_ty_[\result], TY_LFUN, tg, st);
    ensures fbuild_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures fbuild_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 11;
    ensures fbuild_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures fbuild_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures fbuild_lin_lvl: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \old(lvl_ty(d3, l));
    ensures env_keep{Pre, Post};
*/
static int fwd_build_lin(int d3, int lm, int lps, int tg)
  /*@ ghost (int tt, int st, int tgx, int aq, int q) */
{
  //@ ghost int qr = ty_right_[q];
  //@ assert q_node: ty_inv && ty_node_ok(q) && 0 <= qr < q && ty_same(qr, TY_LFUN, tgx, tt);
  int lv = L(d3), g1 = k_ext(d3, tg);
  if (g1 < 0) return g1;
  //@ assert g1_ctx: ctx_valid(g1) && ctx_is_ext(g1, d3, tg) && ctx_len_[g1] == lv + 1 && lv == ctx_len_[d3];
  //@ assert g1_lvl: lvl_ty(g1, lv) == tg && lvl_ty(g1, lm) == TY_ID_INT && lvl_ty(g1, lps) == aq;
  int li = L(g1), g2 = k_ext(g1, TY_ID_INT);
  if (g2 < 0) return g2;
  //@ assert g2_ctx: ctx_valid(g2) && ctx_is_ext(g2, g1, TY_ID_INT) && ctx_len_[g2] == li + 1 && li == ctx_len_[g1];
  //@ assert g2_lvl: lvl_ty(g2, li) == TY_ID_INT && lvl_ty(g2, lv) == tg && lvl_ty(g2, lps) == aq;
  //@ assert g2_keep: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  //@ ghost Exts: ;
  //@ assert g1_lvl2: lvl_ty(g1, lm) == TY_ID_INT && ctx_valid(g1);
  int n = V(g1, lm);
  //@ assert n >= 0 ==> 0 <= n < tm_count && tm_ctx_[n] == g1 && tm_ty_[n] == TY_ID_INT;
  //@ assert n >= 0 || n == CHAD_E_CAPACITY;
  int a = V(g2, lps);
  //@ assert a >= 0 ==> 0 <= a < tm_count && tm_ctx_[a] == g2 && tm_ty_[a] == aq;
  //@ assert a >= 0 || a == CHAD_E_CAPACITY;
  int i1 = V(g2, li);
  //@ assert i1 >= 0 ==> 0 <= i1 < tm_count && tm_ctx_[i1] == g2 && tm_ty_[i1] == TY_ID_INT;
  //@ assert i1 >= 0 || i1 == CHAD_E_CAPACITY;
  //@ assert a >= 0 ==> arr_ok(tm_ty_[a]) && ty_left_[tm_ty_[a]] == q;
  int x = b_index(a, i1);
  //@ assert x >= 0 ==> 0 <= x < tm_count && tm_ctx_[x] == g2 && tm_ty_[x] == q;
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  int s = b_snd(x);
  //@ assert s >= 0 ==> 0 <= s < tm_count && tm_ctx_[s] == g2 && tm_ty_[s] == qr;
  //@ assert s >= 0 || s == CHAD_E_CAPACITY;
  int vv = V(g2, lv);
  //@ assert vv >= 0 ==> 0 <= vv < tm_count && tm_ctx_[vv] == g2 && tm_ty_[vv] == tg;
  //@ assert vv >= 0 || vv == CHAD_E_CAPACITY;
  //@ assert ctx_valid(g2) && lin(TY_ID_UNIT);
  int z = b_zero(g2, TY_ID_UNIT);
  //@ assert z >= 0 ==> 0 <= z < tm_count && tm_ctx_[z] == g2 && tm_ty_[z] == TY_ID_UNIT;
  //@ assert z >= 0 || z == CHAD_E_CAPACITY;
  //@ assert vv >= 0 ==> 0 <= vv < tm_count && tm_ctx_[vv] == g2 && tm_ty_[vv] == tg;
  int pr = b_pair(vv, z);
  //@ assert pr >= 0 ==> 0 <= pr < tm_count && tm_ctx_[pr] == g2 && ty_same(tm_ty_[pr], TY_PROD, tg, TY_ID_UNIT) && ty_valid(tm_ty_[pr]);
  //@ assert pr >= 0 || pr == CHAD_E_CAPACITY;
  /* hash-consing: (v, 0) has the type T(G, i) itself */
  //@ assert tgx_same: ty_inv && ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, TY_ID_UNIT);
  //@ assert pr_tgx: pr >= 0 ==> tm_ty_[pr] == tgx;
  //@ assert s >= 0 ==> 0 <= s < tm_count && tm_ctx_[s] == g2 && ty_same(tm_ty_[s], TY_LFUN, tgx, tt);
  int ap = b_lapp(s, pr);
  //@ assert ap >= 0 ==> 0 <= ap < tm_count && tm_ctx_[ap] == g2 && tm_ty_[ap] == tt;
  //@ assert ap >= 0 || ap == CHAD_E_CAPACITY;
  //@ assert n >= 0 ==> 0 <= n < tm_count && tm_ctx_[n] == g1 && tm_ty_[n] == TY_ID_INT;
  //@ assert ctx_is_ext(g2, g1, TY_ID_INT);
  int bl = b_build(n, ap);
  //@ assert bl >= 0 ==> 0 <= bl < tm_count && tm_ctx_[bl] == g1 && ty_same(tm_ty_[bl], TY_ARR, tt, -1);
  //@ assert bl >= 0 || bl == CHAD_E_CAPACITY;
  /* hash-consing: the array's type is T(Arr tau) itself */
  //@ assert bl >= 0 ==> ty_valid(tm_ty_[bl]);
  //@ assert st_same: ty_inv && ty_valid(st) && ty_same(st, TY_ARR, tt, -1);
  //@ assert bl_st: bl >= 0 ==> tm_ty_[bl] == st;
  //@ assert bl >= 0 ==> ty_valid(tg) && llam_ok(tg, tm_ctx_[bl], tm_ty_[bl]);
  int r = b_llam(tg, bl);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d3 && ty_same(tm_ty_[r], TY_LFUN, tg, st);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 11;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert r_ctx: ctx_count == \at(ctx_count, Exts) && ctx_len_[d3] == \at(ctx_len_[d3], Exts);
  //@ assert r_keep: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  return r;
}

/* F(build)'s recursive call and the rest: the body b (of type tau in gb =
 * G, i : Int) under its binder in e1 = d2, i (d1 = d, pn; d2 = d1, m),
 * then ps = build m (i. q) in d2, its extension d3, the linear half
 * fwd_build_lin, the primal build_primal and the tail let_build_tail. */
/*@ requires kernel_inv && memo_inv && src_inv && venv_wf;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[b] == gb && tm_ty_[b] == tau;
    requires 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == TY_ID_INT;
    requires env_ok(CHAD_PFWD, g, e1);
    requires trh(CHAD_PFWD, TY_ID_INT) && trm(CHAD_PFWD, TY_ID_INT) == TY_ID_INT;
    requires trh(CHAD_TAN, TY_ID_INT) && trm(CHAD_TAN, TY_ID_INT) == TY_ID_UNIT;
    requires trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt && trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt;
    requires ty_valid(tt) && lin(st) && ty_same(st, TY_ARR, tt, -1) && ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1);
    requires trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg && ty_valid(tg);
    requires 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
    requires ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
    requires ctx_valid(d) && ctx_is_ext(d1, d, typn) && ctx_is_ext(d2, d1, TY_ID_INT) &&
      ctx_is_ext(e1, d2, TY_ID_INT);
    requires ln == ctx_len_[d] && lm == ln + 1 && li == lm + 1;
    requires ctx_len_[d1] == lm && ctx_len_[d2] == li && ctx_len_[e1] == li + 1;
    requires 0 <= d < d1 < d2 < e1 < ctx_count;
    requires lvl_ty(d1, ln) == typn && lvl_ty(d2, lm) == TY_ID_INT && lvl_ty(e1, li) == TY_ID_INT;
    terminates \true;
    decreases FWD_M(depth) - 3;
    FWD_ASSIGNS;
    ensures kernel_inv && memo_inv && src_inv && venv_wf;
    ensures venv_sp == \old(venv_sp) && venv_cur == \old(venv_cur);
    ensures memo_grows{Pre, Post};
    ensures \old(tm_count) <= tm_count && \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures env_keep{Pre, Post};
    ensures fbbody_size: tm_count - \old(tm_count) <= FWD_K * chad_msz_[b] + 25;
    ensures fbbody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures fbbody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pa && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, tg, st);
*/
static int fwd_build_body(int b, int pn, int d1, int d2, int e1, int ln, int lm, int li, int tg, int depth)
  /*@ ghost (int g, int gb, int tau, int pt, int tt, int pa, int st, int d, int typn) */
{
  //@ assert x_gb: env_ok(CHAD_PFWD, ctx_parent_[gb], e1) && trh(CHAD_PFWD, ctx_type_[gb]) && trm(CHAD_PFWD, ctx_type_[gb]) == TY_ID_INT;
  //@ assert x_li: 0 <= li < ctx_len_[e1] && lvl_ty(e1, li) == TY_ID_INT;
  int q = fwd_under(b, e1, li, depth + 1);
  //@ assert q_keep: env_keep{Pre, Here};
  //@ assert q_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b];
  if (q < 0) return q;
  //@ assert q_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b];
  //@ assert q_fwd: tm_ctx_[q] == e1 && fwd_ty(tm_ty_[q], gb, tau) && 0 <= q < tm_count;
  //@ ghost int tyq = tm_ty_[q];
  //@ ghost int tgx = chad_memo_ctx_[CHAD_TAN][gb] - 1;
  //@ assert q_tgx: trch(CHAD_TAN, gb) && trc(CHAD_TAN, gb) == tgx && 0 < gb;
  //@ ghost trc_step(CHAD_TAN, gb);
  //@ assert q_memo1: trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt && trc(CHAD_TAN, g) == tg;
  //@ assert q_memo2: trm(CHAD_TAN, TY_ID_INT) == TY_ID_UNIT;
  //@ assert q_tgx2: ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, TY_ID_UNIT);
  //@ assert q_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, tgx, tt);
  //@ assert q_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert q_typn: ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
  //@ assert q_pa: ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1) && lin(st) && ty_same(st, TY_ARR, tt, -1) && ty_valid(tg) && ty_valid(tt);
  //@ assert q_ord: 0 <= d < d1 < d2 < e1 < ctx_count;
  //@ assert q_c1: ctx_parent_[d1] == d && ctx_type_[d1] == typn && ctx_len_[d1] == lm;
  //@ assert q_c2: ctx_parent_[d2] == d1 && ctx_type_[d2] == TY_ID_INT && ctx_len_[d2] == li;
  //@ assert q_c3: ctx_parent_[e1] == d2 && ctx_type_[e1] == TY_ID_INT && ctx_len_[e1] == li + 1;
  //@ assert q_c0: ctx_valid(d) && ctx_len_[d] == ln;
  //@ assert q_l1: lvl_ty(d1, ln) == typn;
  //@ assert q_l2: lvl_ty(d2, lm) == TY_ID_INT;
  //@ ghost Q1: ;
  int vm = V(d2, lm);
  //@ assert vm >= 0 ==> 0 <= vm < tm_count && tm_ctx_[vm] == d2 && tm_ty_[vm] == TY_ID_INT;
  //@ assert vm >= 0 || vm == CHAD_E_CAPACITY;
  //@ assert 0 <= q < tm_count && tm_ctx_[q] == e1 && tm_ty_[q] == tyq && ctx_is_ext(e1, d2, TY_ID_INT);
  int ps = b_build(vm, q);
  //@ assert ps >= 0 ==> 0 <= ps < tm_count && tm_ctx_[ps] == d2 && ty_same(tm_ty_[ps], TY_ARR, tyq, -1);
  //@ assert ps >= 0 ==> ty_valid(tm_ty_[ps]);
  //@ assert ps >= 0 || ps == CHAD_E_CAPACITY;
  //@ assert ps_grow: tables_grow{Q1, Here} && side_same{Q1, Here};
  //@ assert ps_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  //@ assert ps_keep: env_keep{Pre, Here};
  //@ assert ps_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 2;
  if (ps < 0) return ps;
  //@ ghost int aq = tm_ty_[ps];
  //@ assert ps_aq: ty_valid(aq) && ty_same(aq, TY_ARR, tyq, -1);
  //@ assert ps_c1: ctx_parent_[d1] == d && ctx_type_[d1] == typn && ctx_len_[d1] == lm;
  //@ assert ps_c2: ctx_parent_[d2] == d1 && ctx_type_[d2] == TY_ID_INT && ctx_len_[d2] == li;
  //@ assert ps_l2: lvl_ty(d2, lm) == TY_ID_INT && ctx_valid(d2);
  int lps = L(d2), d3 = f_ext(d2, tyof(ps));
  //@ assert d3 >= 0 || d3 == CHAD_E_CAPACITY;
  //@ assert d3_keep: env_keep{Pre, Here};
  //@ assert d3_ret: d3 < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b] + 25;
  if (d3 < 0) return d3;
  //@ assert d3_ext: ctx_is_ext(d3, d2, aq) && ctx_len_[d3] == lps + 1 && lps == li && ctx_valid(d3);
  //@ assert d3_lps: lvl_ty(d3, lps) == aq;
  //@ assert d3_lm: lvl_ty(d3, lm) == TY_ID_INT && 0 <= lm < lps;
  //@ assert d3_q: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, tgx, tt);
  //@ assert d3_tgx: ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, TY_ID_UNIT);
  //@ assert d3_st: lin(st) && ty_same(st, TY_ARR, tt, -1) && ty_valid(tg) && ty_valid(tt);
  //@ ghost Built: ;
  int lin = fwd_build_lin(d3, lm, lps, tg) /*@ ghost (tt, st, tgx, aq, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d3 && ty_same(tm_ty_[lin], TY_LFUN, tg, st) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_keep: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 13;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  //@ assert lin_ret: lin < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b] + 25;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert l_lin: tm_ctx_[lin] == d3 && ty_valid(tyl) && ty_same(tyl, TY_LFUN, tg, st) && 0 <= lin < tm_count;
  //@ assert l_lvl: lvl_ty(d3, lm) == TY_ID_INT && lvl_ty(d3, lps) == aq && ctx_valid(d3) && 0 <= lm < ctx_len_[d3] && 0 <= lps < ctx_len_[d3];
  //@ assert l_aq: ty_valid(aq) && ty_same(aq, TY_ARR, tyq, -1) && ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt;
  //@ ghost Lin: ;
  int prim = build_primal(d3, lm, lps) /*@ ghost (aq, tyq, pt) */;
  //@ assert prim >= 0 ==> 0 <= prim < tm_count && tm_ctx_[prim] == d3 && ty_valid(tm_ty_[prim]) && ty_same(tm_ty_[prim], TY_ARR, pt, -1);
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  /* hash-consing: the primal's type is P(Arr tau) itself */
  //@ assert p_pa: prim >= 0 ==> tm_ty_[prim] == pa;
  //@ assert p_keep: env_keep{Pre, Here};
  //@ assert p_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 19;
  //@ assert p_grow: tables_grow{Lin, Here} && side_same{Lin, Here};
  //@ assert p_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  if (prim < 0) return prim;
  //@ assert t_lin0: tm_ty_[lin] == tyl && tm_ctx_[lin] == d3 && 0 <= lin < tm_count;
  //@ assert t_lin1: ty_valid(tyl) && ty_same(tyl, TY_LFUN, tg, st);
  //@ assert t_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert t_typn: ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
  //@ assert t_ps: 0 <= ps < tm_count && tm_ctx_[ps] == d2 && tm_ty_[ps] == aq;
  //@ assert t_c1: ctx_parent_[d1] == d && ctx_type_[d1] == typn && ctx_len_[d1] == lm;
  //@ assert t_c2: ctx_parent_[d2] == d1 && ctx_type_[d2] == TY_ID_INT && ctx_len_[d2] == li;
  //@ assert t_c3: ctx_parent_[d3] == d2 && ctx_type_[d3] == aq;
  //@ assert t_c0: ctx_valid(d) && ctx_len_[d] == ln && 0 <= d < d1 < d2 < d3 < ctx_count;
  //@ assert t_e: ctx_is_ext(d1, d, typn) && ctx_is_ext(d2, d1, TY_ID_INT) && ctx_is_ext(d3, d2, aq);
  //@ assert t_l1: lvl_ty(d1, ln) == typn && 0 <= ln < ctx_len_[d1] && ctx_valid(d1) && ctx_valid(d2);
  //@ ghost Tail: ;
  int r = let_build_tail(pn, ps, prim, lin, d1, ln) /*@ ghost (d, d2, d3, TY_ID_INT, pa, tg, st) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pa && ty_same(ty_right_[tyr], TY_LFUN, tg, st);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 25;
  //@ assert tables_grow{Tail, Here} && side_same{Tail, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* F(build a (i. b)) = let pn = F a; m = fst pn; ps = build m (i. F b) in
 *   (build m (i. fst ps[i]), \v. build m (i. snd ps[i] (v, 0)))
 * F a and the extensions (pn, m, the binder i) here, F b and the rest in
 * fwd_build_body (one recursive call per function). */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_BUILD; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases FWD_M(depth) - 2;
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_build(int t, int d, int tg, int depth)
{
  //@ assert node_ok(t) && msz_ok(t) && msrc_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tarr = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t);
  //@ ghost int gb = tm_ctx_[b];
  //@ ghost int tau = tm_ty_[b];
  //@ assert 0 <= a < t && 0 <= b < t && chad_msrc_[a] == 1 && chad_msrc_[b] == 1;
  //@ assert build_src: tm_ctx_[a] == g && tm_ty_[a] == TY_ID_INT && ty_same(tarr, TY_ARR, tau, -1);
  //@ assert build_gb: ctx_is_ext(gb, g, TY_ID_INT) && 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == TY_ID_INT;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b]);
  /* the size budget: F a, F b and at most 25 nodes of this rule (or the
   * whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert build_budget: FWD_K * chad_msz_[a] + FWD_K * chad_msz_[b] + 25 <= FWD_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= FWD_K * chad_msz_[t]; */
  //@ ghost int pa = chad_memo_ty_[CHAD_PFWD][tarr] - 1;
  //@ ghost int st = chad_memo_ty_[CHAD_TAN][tarr] - 1;
  //@ ghost tan_lin_lemma();
  //@ assert build_lin: lin(st) && ty_valid(st) && ty_valid(tg);
  int pn = f_sub(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (pn < 0) return pn;
  //@ assert pa_fwd: tm_ctx_[pn] == d && fwd_ty(tm_ty_[pn], g, TY_ID_INT) && 0 <= pn < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a];
  //@ assert pa_arr: trh(CHAD_PFWD, tarr) && trm(CHAD_PFWD, tarr) == pa && trh(CHAD_TAN, tarr) && trm(CHAD_TAN, tarr) == st && lin(st) && trc(CHAD_TAN, g) == tg;
  //@ ghost tr_step(CHAD_PFWD, TY_ID_INT);
  //@ ghost tr_step(CHAD_TAN, TY_ID_INT);
  //@ ghost tr_step(CHAD_PFWD, tarr);
  //@ ghost tr_step(CHAD_TAN, tarr);
  //@ assert pa_int: trh(CHAD_PFWD, TY_ID_INT) && trm(CHAD_PFWD, TY_ID_INT) == TY_ID_INT;
  //@ assert pa_tint: trh(CHAD_TAN, TY_ID_INT) && trm(CHAD_TAN, TY_ID_INT) == TY_ID_UNIT;
  //@ assert pa_tau: trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau);
  //@ ghost int pt = chad_memo_ty_[CHAD_PFWD][tau] - 1;
  //@ ghost int tt = chad_memo_ty_[CHAD_TAN][tau] - 1;
  //@ assert pa_pa: ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1);
  //@ assert pa_st: ty_same(st, TY_ARR, tt, -1) && ty_valid(tt);
  //@ ghost int typn = tm_ty_[pn];
  //@ assert pa_ty: ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
  int ln = L(d), d1 = f_ext(d, tyof(pn));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_ext: ctx_is_ext(d1, d, typn) && ctx_valid(d1) && ctx_len_[d1] == ln + 1 && ln == ctx_len_[d];
  //@ assert d1_lvl: lvl_ty(d1, ln) == typn;
  int lm = L(d1), d2 = f_ext(d1, TY_ID_INT);
  //@ assert d2 >= 0 || d2 == CHAD_E_CAPACITY;
  //@ assert d2_keep: env_keep{Pre, Here};
  if (d2 < 0) return d2;
  //@ assert d2_ext: ctx_is_ext(d2, d1, TY_ID_INT) && ctx_valid(d2) && ctx_len_[d2] == lm + 1 && lm == ln + 1;
  //@ assert d2_top: lvl_ty(d2, ctx_len_[d1]) == TY_ID_INT && lm == ctx_len_[d1];
  //@ assert d2_lvl: lvl_ty(d2, lm) == TY_ID_INT && lvl_ty(d1, ln) == typn;
  int li = L(d2), e1 = f_ext(d2, TY_ID_INT);
  //@ assert e1 >= 0 || e1 == CHAD_E_CAPACITY;
  //@ assert e1_keep: env_keep{Pre, Here};
  if (e1 < 0) return e1;
  //@ assert e1_ext: ctx_is_ext(e1, d2, TY_ID_INT) && ctx_valid(e1) && ctx_len_[e1] == li + 1 && li == lm + 1;
  //@ assert e1_top: lvl_ty(e1, ctx_len_[d2]) == TY_ID_INT && li == ctx_len_[d2];
  //@ assert e1_lvl: lvl_ty(e1, li) == TY_ID_INT && lvl_ty(d2, lm) == TY_ID_INT && lvl_ty(d1, ln) == typn;
  //@ assert e1_env: env_ok(CHAD_PFWD, g, e1);
  //@ assert e1_c: ctx_is_ext(d1, d, typn) && ctx_is_ext(d2, d1, TY_ID_INT) && ctx_valid(d);
  //@ assert e1_nodes: ctx_inv && ctx_node_ok(e1) && ctx_node_ok(d2) && ctx_node_ok(d1) && ctx_valid(d);
  //@ assert e1_ord: 0 <= d < d1 < d2 < e1 < ctx_count;
  //@ assert e1_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert e1_memo: trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt && trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt && trc(CHAD_TAN, g) == tg;
  //@ assert e1_venv: venv_wf;
  //@ ghost Body: ;
  int res = fwd_build_body(b, pn, d1, d2, e1, ln, lm, li, tg, depth)
    /*@ ghost (g, gb, tau, pt, tt, pa, st, d, typn) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= FWD_K * chad_msz_[b] + 25;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert res >= 0 || res == CHAD_E_CAPACITY || res == CHAD_E_DEPTH;
  //@ ghost int tyr = res >= 0 ? tm_ty_[res] : 0;
  //@ assert res >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pa && ty_same(ty_right_[tyr], TY_LFUN, tg, st);
  //@ assert res >= 0 ==> ty_node_ok(tyr) && 0 <= ty_right_[tyr] < tyr;
  //@ assert trh(CHAD_PFWD, tarr) && trh(CHAD_TAN, tarr) && trch(CHAD_TAN, g) && trm(CHAD_PFWD, tarr) == pa && trm(CHAD_TAN, tarr) == st && trc(CHAD_TAN, g) == tg;
  //@ assert res >= 0 ==> fwd_ty(tm_ty_[res], g, tarr);
  //@ assert tm_ctx_[t] == g && tm_ty_[t] == tarr;
  //@ assert build_type: res >= 0 ==> 0 <= res < tm_count && tm_ctx_[res] == d && fwd_ty(tm_ty_[res], tm_ctx_[t], tm_ty_[t]);
  return res;
}

/* The linear half of F(index a b), in d2 where level lp holds p = F a (type
 * typ = P(Arr tau) * (T G -o sa), sa = T(Arr tau) = Arr T tau) and level
 * lq holds q = F b (type tyq = Int * _):   \v. (snd p v)[fst q]
 * of type T G -o T tau, with tg = T G and tt = T tau. Against the
 * kernel's invariant only, with raw builders (as fwd_pair_lin). */
/*@ requires kernel_inv;
    requires ctx_valid(d2) && ty_valid(tg) && ty_valid(tt) && lin(tt);
    requires ty_valid(sa) && ty_kind_[sa] == TY_ARR && ty_left_[sa] == tt;
    requires 0 <= lp < ctx_len_[d2] && lvl_ty(d2, lp) == typ && ty_valid(typ) &&
      ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, tg, sa);
    requires 0 <= lq < ctx_len_[d2] && lvl_ty(d2, lq) == tyq && ty_valid(tyq) &&
      ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == TY_ID_INT;
    terminates \true;
    assigns CH_TM_LOCS, CH_TMS_LOCS, CH_TYS_LOCS, CH_CTX_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures fidx_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d2 &&
      ty_same(tm_ty_[\result], TY_LFUN, tg, tt);
    ensures fidx_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures fidx_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 8;
    ensures fidx_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures fidx_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures fidx_lin_lvl: \forall integer l; 0 <= l < ctx_len_[d2] ==> lvl_ty(d2, l) == \old(lvl_ty(d2, l));
    ensures env_keep{Pre, Post};
*/
static int fwd_index_lin(int d2, int lp, int lq, int tg) /*@ ghost (int tt, int sa, int typ, int tyq) */
{
  int lv = L(d2), d3 = k_ext(d2, tg);
  if (d3 < 0) return d3;
  //@ assert lvl_ty(d3, lv) == tg && lvl_ty(d3, lp) == lvl_ty(d2, lp) && lvl_ty(d3, lq) == lvl_ty(d2, lq);
  int vp = V(d3, lp);
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d3 && ty_same(tm_ty_[sp], TY_LFUN, tg, sa);
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int v1 = V(d3, lv);
  //@ assert v1 >= 0 ==> tm_ctx_[v1] == d3 && tm_ty_[v1] == tg;
  //@ assert v1 >= 0 || v1 == CHAD_E_CAPACITY;
  int da = b_lapp(sp, v1);
  //@ assert da >= 0 ==> tm_ctx_[da] == d3 && tm_ty_[da] == sa && 0 <= da < tm_count;
  //@ assert da >= 0 || da == CHAD_E_CAPACITY;
  int vq = V(d3, lq);
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int jq = b_fst(vq);
  //@ assert jq >= 0 ==> tm_ctx_[jq] == d3 && tm_ty_[jq] == TY_ID_INT && 0 <= jq < tm_count;
  //@ assert jq >= 0 || jq == CHAD_E_CAPACITY;
  //@ assert da >= 0 ==> tm_ctx_[da] == d3 && tm_ty_[da] == sa && 0 <= da < tm_count;
  //@ assert da >= 0 && jq >= 0 ==> index_ok(tm_ctx_[da], tm_ty_[da], tm_ctx_[jq], tm_ty_[jq]);
  int di = b_index(da, jq);
  //@ assert di >= 0 ==> tm_ctx_[di] == d3 && tm_ty_[di] == tt && 0 <= di < tm_count;
  //@ assert di >= 0 || di == CHAD_E_CAPACITY;
  //@ assert di >= 0 ==> ty_valid(tg) && 0 <= di < tm_count && llam_ok(tg, tm_ctx_[di], tm_ty_[di]);
  //@ assert ctx_parent_[d3] == d2;
  int r = b_llam(tg, di);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d2;
  //@ assert r >= 0 ==> ty_same(tm_ty_[r], TY_LFUN, tg, tt);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The second half of F(index a b), from the call F b on: in d1 = d, p (p =
 * F a at level lp),
 *   let q = F b in let p in let q in (fst p [fst q], \v. (snd p v)[fst q])
 * One recursive call per function, as fwd_pair_body. */
/*@ requires kernel_inv && memo_inv && src_inv;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[b] == g && tm_ty_[b] == TY_ID_INT;
    requires env_ok(CHAD_PFWD, g, d1);
    requires trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg && ty_valid(tg);
    requires ty_valid(pa) && ty_kind_[pa] == TY_ARR && ty_left_[pa] == pt;
    requires ty_valid(sa) && ty_kind_[sa] == TY_ARR && ty_left_[sa] == tt && lin(tt);
    requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
    requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_len_[d1] == lp + 1;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa &&
      ty_same(ty_right_[typ], TY_LFUN, tg, sa);
    terminates \true;
    decreases FWD_M(depth) - 3;
    FWD_ASSIGNS;
    ensures kernel_inv && memo_inv && src_inv && venv_wf;
    ensures venv_sp == \old(venv_sp) && venv_cur == \old(venv_cur);
    ensures memo_grows{Pre, Post};
    ensures \old(tm_count) <= tm_count && \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures env_keep{Pre, Post};
    ensures ibody_size: tm_count - \old(tm_count) <= FWD_K * chad_msz_[b] + 16;
    ensures ibody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures ibody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, tg, tt);
*/
static int fwd_index_body(int b, int p, int d1, int lp, int tg, int depth)
  /*@ ghost (int g, int pa, int sa, int pt, int tt, int d, int typ) */
{
  int q = f_sub(b, d1, depth + 1);
  //@ assert ib_keep: env_keep{Pre, Here};
  //@ assert ib_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b];
  if (q < 0) return q;
  //@ assert ib_b: tm_ctx_[b] == g && tm_ty_[b] == TY_ID_INT;
  //@ assert ib_fwd: tm_ctx_[q] == d1 && fwd_ty(tm_ty_[q], g, TY_ID_INT) && 0 <= q < tm_count;
  /* P Int = Int, from one step of memo_inv at Int (F b memoised it) */
  //@ assert ib_int: trh(CHAD_PFWD, TY_ID_INT) && ty_inv && ty_kind_[TY_ID_INT] == TY_INT;
  //@ ghost tr_step(CHAD_PFWD, TY_ID_INT);
  //@ assert ib_memo: trc(CHAD_TAN, g) == tg && trm(CHAD_PFWD, TY_ID_INT) == TY_ID_INT;
  //@ ghost int tyq = tm_ty_[q];
  //@ assert ib_qty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == TY_ID_INT;
  /* p's facts after the call, in small steps */
  //@ assert ib_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert ib_pk: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa;
  //@ assert ib_pr: ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  //@ assert ib_sa: ty_valid(sa) && ty_kind_[sa] == TY_ARR && ty_left_[sa] == tt && lin(tt);
  //@ assert ib_pa: ty_valid(pa) && ty_kind_[pa] == TY_ARR && ty_left_[pa] == pt && ty_valid(tg);
  //@ assert ib_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d) && ctx_len_[d1] == lp + 1;
  int lq = L(d1), d2 = f_ext(d1, tyof(q));
  //@ assert d2 >= 0 || d2 == CHAD_E_CAPACITY;
  //@ assert d2_keep: env_keep{Pre, Here};
  //@ assert d2_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b];
  if (d2 < 0) return d2;
  //@ assert d2_len: ctx_len_[d2] == lq + 1 && lq == lp + 1 && ctx_type_[d2] == tyq && ctx_parent_[d2] == d1;
  //@ assert d2_ext: ctx_is_ext(d2, d1, tyq) && ctx_valid(d2);
  //@ assert d2_ext2: ctx_is_ext(d1, d, typ) && ctx_valid(d);
  //@ assert d2_lq: lvl_ty(d2, lq) == tyq;
  //@ assert d2_lp1: lvl_ty(d1, lp) == typ;
  //@ assert d2_lp: lvl_ty(d2, lp) == typ && 0 <= lp < lq < ctx_len_[d2];
  //@ assert pl_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  //@ assert ql_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == TY_ID_INT;
  //@ assert sa_ok: ty_valid(sa) && ty_kind_[sa] == TY_ARR && ty_left_[sa] == tt && lin(tt) && ty_valid(tt);
  //@ ghost Built: ;
  int lin = fwd_index_lin(d2, lp, lq, tg) /*@ ghost (tt, sa, typ, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d2 && ty_same(tm_ty_[lin], TY_LFUN, tg, tt) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_env: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 8;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert ty_valid(tyl) && ty_same(tyl, TY_LFUN, tg, tt);
  //@ assert tail_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert tail_q: 0 <= q < tm_count && tm_ctx_[q] == d1 && tm_ty_[q] == tyq;
  //@ assert tail_lvl: lvl_ty(d2, lp) == typ && lvl_ty(d2, lq) == tyq;
  //@ assert tail_ext: ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]) && ctx_is_ext(d2, d1, tm_ty_[q]) && ctx_valid(d2);
  //@ assert tail_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == TY_ID_INT;
  //@ assert tail_pa: ty_valid(pa) && ty_kind_[pa] == TY_ARR && ty_left_[pa] == pt;
  //@ ghost Lin: ;
  int r = let_index_tail(p, q, d2, lp, lq, lin) /*@ ghost (d, d1, pt, pa, tg, tt) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ assert r >= 0 ==> ty_valid(tm_ty_[r]) && ty_kind_[tm_ty_[r]] == TY_PROD && ty_left_[tm_ty_[r]] == pt && ty_same(ty_right_[tm_ty_[r]], TY_LFUN, tg, tt);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 16;
  //@ assert tables_grow{Lin, Here} && side_same{Lin, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* F(index a b) = let p = F a; q = F b in (fst p [fst q], \v. (snd p v)[fst q]) */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_INDEX; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases FWD_M(depth) - 2;
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_index(int t, int d, int tg, int depth)
{
  //@ assert node_ok(t) && msz_ok(t) && msrc_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t);
  //@ ghost int ta0 = tm_ty_[a];
  //@ assert tm_ctx_[a] == g && tm_ctx_[b] == g && arr_ok(ta0) && tm_ty_[b] == TY_ID_INT && tau == ty_left_[ta0];
  //@ assert 0 <= a < t && 0 <= b < t && chad_msrc_[a] == 1 && chad_msrc_[b] == 1;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b]);
  /* the size budget: F a, F b and at most 16 nodes of this rule (or the
   * whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert idx_budget: FWD_K * chad_msz_[a] + FWD_K * chad_msz_[b] + 16 <= FWD_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= FWD_K * chad_msz_[t]; */
  //@ assert ty_node_ok(ta0) && 0 <= tau < ta0;
  //@ assert trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau);
  //@ ghost int pt = chad_memo_ty_[CHAD_PFWD][tau] - 1;
  //@ ghost int tt = chad_memo_ty_[CHAD_TAN][tau] - 1;
  //@ ghost tan_lin_lemma();
  //@ assert idx_lin: lin(tt);
  int p = f_sub(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  //@ assert pa_fwd: tm_ctx_[p] == d && fwd_ty(tm_ty_[p], g, ta0) && 0 <= p < tm_count;
  /* P(Arr tau) = Arr P tau, T(Arr tau) = Arr T tau: F a memoised Arr tau */
  //@ assert pa_tau: trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt && lin(tt);
  //@ ghost tr_step(CHAD_PFWD, ta0);
  //@ ghost tr_step(CHAD_TAN, ta0);
  //@ ghost int pa = chad_memo_ty_[CHAD_PFWD][ta0] - 1;
  //@ ghost int sa = chad_memo_ty_[CHAD_TAN][ta0] - 1;
  //@ assert idx_pa: ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1);
  //@ assert idx_sa: ty_valid(sa) && ty_same(sa, TY_ARR, tt, -1);
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a];
  //@ assert pa_memo: trm(CHAD_PFWD, ta0) == pa && trm(CHAD_TAN, ta0) == sa && trc(CHAD_TAN, g) == tg;
  //@ assert pa_memo3: trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau) && trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt;
  //@ ghost int typ = tm_ty_[p];
  //@ assert pa_ty: ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  //@ assert pa_valid: ty_valid(typ) && ty_valid(ty_right_[typ]);
  //@ assert pa_sa: ty_valid(sa) && ty_kind_[sa] == TY_ARR && ty_left_[sa] == tt && lin(tt);
  //@ assert pa_pa: ty_valid(pa) && ty_kind_[pa] == TY_ARR && ty_left_[pa] == pt && ty_valid(tg);
  int lp = L(d), d1 = f_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_env: env_ok(CHAD_PFWD, g, d1) && ctx_len_[d1] == lp + 1 && ctx_type_[d1] == typ;
  //@ assert pa_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d);
  //@ assert d1_b: tm_ctx_[b] == g && tm_ty_[b] == TY_ID_INT && trch(CHAD_TAN, g) && ty_valid(tg);
  //@ assert d1_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert b_memo: trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau) && trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt;
  //@ ghost Body: ;
  int r = fwd_index_body(b, p, d1, lp, tg, depth) /*@ ghost (g, pa, sa, pt, tt, d, typ) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= FWD_K * chad_msz_[b] + 16;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert r >= 0 || r == CHAD_E_CAPACITY || r == CHAD_E_DEPTH;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, tg, tt);
  //@ assert r >= 0 ==> ty_node_ok(tyr) && 0 <= ty_right_[tyr] < tyr;
  /* the translations after the call, in three steps (as one goal Z3 took 11 s) */
  //@ assert r_memo1: trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt;
  //@ assert r_memo2: trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt;
  //@ assert r_memo3: trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg;
  //@ assert r >= 0 ==> fwd_ty(tm_ty_[r], g, tau);
  //@ assert tm_ctx_[t] == g && tm_ty_[t] == tau;
  //@ assert idx_type: r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d && fwd_ty(tm_ty_[r], tm_ctx_[t], tm_ty_[t]);
  return r;
}

/* snd ps[i] (v, dys[i]), the tangent of F(map)'s element i, in g3 = g2, i
 * (level li) where level lps holds ps : aq = Arr Q, Q = P tau * (tgx -o
 * tt) (tgx = T(G, x) = T G * T sigma), level lv holds v : tg and level
 * ldys holds dys : sb = T(Arr sigma) = Arr tsg. Against the kernel's
 * invariant only; no extension (the caller makes g3). */
/*@ requires kernel_inv;
    requires ctx_valid(g3) && ty_valid(tg) && ty_valid(tt);
    requires ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, tsg);
    requires ty_valid(sb) && ty_same(sb, TY_ARR, tsg, -1);
    requires 0 <= li < ctx_len_[g3] && lvl_ty(g3, li) == TY_ID_INT;
    requires 0 <= lps < ctx_len_[g3] && lvl_ty(g3, lps) == aq;
    requires 0 <= lv < ctx_len_[g3] && lvl_ty(g3, lv) == tg;
    requires 0 <= ldys < ctx_len_[g3] && lvl_ty(g3, ldys) == sb;
    requires ty_valid(aq) && ty_same(aq, TY_ARR, q, -1);
    requires ty_valid(q) && ty_kind_[q] == TY_PROD && ty_same(ty_right_[q], TY_LFUN, tgx, tt);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS;
    ensures kernel_inv;
    ensures fmap_el_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == g3 &&
      tm_ty_[\result] == tt;
    ensures fmap_el_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures fmap_el_size: \old(tm_count) <= tm_count <= \old(tm_count) + 10;
    ensures fmap_el_frame: \old(ty_count) <= ty_count;
    ensures fmap_el_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
*/
static int fwd_map_el(int g3, int li, int lps, int lv, int ldys)
  /*@ ghost (int tg, int tt, int tgx, int tsg, int sb, int aq, int q) */
{
  //@ ghost int qr = ty_right_[q];
  //@ assert q_node: ty_inv && ty_node_ok(q) && 0 <= qr < q && ty_same(qr, TY_LFUN, tgx, tt);
  int a = V(g3, lps);
  //@ assert a >= 0 ==> 0 <= a < tm_count && tm_ctx_[a] == g3 && tm_ty_[a] == aq;
  //@ assert a >= 0 || a == CHAD_E_CAPACITY;
  int i1 = V(g3, li);
  //@ assert i1 >= 0 ==> 0 <= i1 < tm_count && tm_ctx_[i1] == g3 && tm_ty_[i1] == TY_ID_INT;
  //@ assert i1 >= 0 || i1 == CHAD_E_CAPACITY;
  //@ assert a >= 0 ==> arr_ok(tm_ty_[a]) && ty_left_[tm_ty_[a]] == q;
  int x = b_index(a, i1);
  //@ assert x >= 0 ==> 0 <= x < tm_count && tm_ctx_[x] == g3 && tm_ty_[x] == q;
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  int s = b_snd(x);
  //@ assert s >= 0 ==> 0 <= s < tm_count && tm_ctx_[s] == g3 && tm_ty_[s] == qr;
  //@ assert s >= 0 || s == CHAD_E_CAPACITY;
  int vv = V(g3, lv);
  //@ assert vv >= 0 ==> 0 <= vv < tm_count && tm_ctx_[vv] == g3 && tm_ty_[vv] == tg;
  //@ assert vv >= 0 || vv == CHAD_E_CAPACITY;
  int dy = V(g3, ldys);
  //@ assert dy >= 0 ==> 0 <= dy < tm_count && tm_ctx_[dy] == g3 && tm_ty_[dy] == sb;
  //@ assert dy >= 0 || dy == CHAD_E_CAPACITY;
  int i2 = V(g3, li);
  //@ assert i2 >= 0 ==> 0 <= i2 < tm_count && tm_ctx_[i2] == g3 && tm_ty_[i2] == TY_ID_INT;
  //@ assert i2 >= 0 || i2 == CHAD_E_CAPACITY;
  //@ assert dy >= 0 ==> arr_ok(tm_ty_[dy]) && ty_left_[tm_ty_[dy]] == tsg;
  int e = b_index(dy, i2);
  //@ assert e >= 0 ==> 0 <= e < tm_count && tm_ctx_[e] == g3 && tm_ty_[e] == tsg;
  //@ assert e >= 0 || e == CHAD_E_CAPACITY;
  //@ assert vv >= 0 ==> 0 <= vv < tm_count && tm_ctx_[vv] == g3 && tm_ty_[vv] == tg;
  int pr = b_pair(vv, e);
  //@ assert pr >= 0 ==> 0 <= pr < tm_count && tm_ctx_[pr] == g3 && ty_same(tm_ty_[pr], TY_PROD, tg, tsg) && ty_valid(tm_ty_[pr]);
  //@ assert pr >= 0 || pr == CHAD_E_CAPACITY;
  /* hash-consing: (v, dys[i]) has the type T(G, x) itself */
  //@ assert tgx_same: ty_inv && ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, tsg);
  //@ assert pr_tgx: pr >= 0 ==> tm_ty_[pr] == tgx;
  //@ assert s >= 0 ==> 0 <= s < tm_count && tm_ctx_[s] == g3 && ty_same(tm_ty_[s], TY_LFUN, tgx, tt);
  int r = b_lapp(s, pr);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == g3 && tm_ty_[r] == tt;
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 10;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The linear half of F(map (x. a) b) (a the body, b the array), in d3
 * where level lp holds p = F b : typ = P(Arr sigma) * (tg -o sb), sb =
 * T(Arr sigma) = Arr tsg, level ly holds y = fst p : yt and level lps
 * holds ps : aq = Arr Q, Q = P tau * (tgx -o tt):
 *   \v. let dys = snd p v in build (length y) (i. snd ps[i] (v, dys[i]))
 * of type tg -o st, st = Arr tt. Against the kernel's invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(d3) && ty_valid(tg) && ty_valid(tt) && lin(st) && ty_same(st, TY_ARR, tt, -1);
    requires ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, tsg);
    requires ty_valid(sb) && lin(sb) && ty_same(sb, TY_ARR, tsg, -1);
    requires 0 <= lp < ctx_len_[d3] && lvl_ty(d3, lp) == typ;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, tg, sb);
    requires 0 <= ly < ctx_len_[d3] && lvl_ty(d3, ly) == yt && arr_ok(yt);
    requires 0 <= lps < ctx_len_[d3] && lvl_ty(d3, lps) == aq;
    requires ty_valid(aq) && ty_same(aq, TY_ARR, q, -1);
    requires ty_valid(q) && ty_kind_[q] == TY_PROD && ty_same(ty_right_[q], TY_LFUN, tgx, tt);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures fmap_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d3 &&
      ty_same(tm_ty_[\result], TY_LFUN, tg, st);
    ensures fmap_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures fmap_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 19;
    ensures fmap_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures fmap_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures fmap_lin_lvl: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \old(lvl_ty(d3, l));
    ensures env_keep{Pre, Post};
*/
static int fwd_map_lin(int d3, int lp, int ly, int lps, int tg)
  /*@ ghost (int tt, int st, int tgx, int tsg, int sb, int typ, int yt, int aq, int q) */
{
  //@ ghost int tr = ty_right_[typ];
  //@ assert p_node: ty_inv && ty_node_ok(typ) && 0 <= tr < typ && ty_same(tr, TY_LFUN, tg, sb);
  int lv = L(d3), g1 = k_ext(d3, tg);
  if (g1 < 0) return g1;
  //@ assert g1_ctx: ctx_valid(g1) && ctx_is_ext(g1, d3, tg) && ctx_len_[g1] == lv + 1 && lv == ctx_len_[d3];
  //@ assert g1_lvl: lvl_ty(g1, lv) == tg && lvl_ty(g1, lp) == typ && lvl_ty(g1, ly) == yt && lvl_ty(g1, lps) == aq;
  //@ assert g1_keep: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  //@ ghost G1: ;
  int vp = V(g1, lp);
  //@ assert vp >= 0 ==> 0 <= vp < tm_count && tm_ctx_[vp] == g1 && tm_ty_[vp] == typ;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  //@ assert ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_right_[typ] == tr;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> 0 <= sp < tm_count && tm_ctx_[sp] == g1 && tm_ty_[sp] == tr;
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  //@ assert sp >= 0 ==> ty_same(tm_ty_[sp], TY_LFUN, tg, sb);
  int v1 = V(g1, lv);
  //@ assert v1 >= 0 ==> 0 <= v1 < tm_count && tm_ctx_[v1] == g1 && tm_ty_[v1] == tg;
  //@ assert v1 >= 0 || v1 == CHAD_E_CAPACITY;
  int dys = b_lapp(sp, v1);
  //@ assert dys >= 0 ==> 0 <= dys < tm_count && tm_ctx_[dys] == g1 && tm_ty_[dys] == sb;
  //@ assert dys >= 0 || dys == CHAD_E_CAPACITY;
  //@ assert dys_grow: tables_grow{G1, Here} && side_same{G1, Here};
  //@ assert dys_keep: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  //@ assert dys_lvl: lvl_ty(g1, lv) == tg && lvl_ty(g1, ly) == yt && lvl_ty(g1, lps) == aq && ctx_valid(g1);
  if (dys < 0) return dys;
  int ldys = L(g1), g2 = k_ext(g1, tyof(dys));
  //@ assert g2_keep0: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  if (g2 < 0) return g2;
  //@ assert g2_ctx: ctx_valid(g2) && ctx_is_ext(g2, g1, sb) && ctx_len_[g2] == ldys + 1 && ldys == ctx_len_[g1];
  //@ assert g2_lvl: lvl_ty(g2, ldys) == sb && lvl_ty(g2, lv) == tg && lvl_ty(g2, ly) == yt && lvl_ty(g2, lps) == aq;
  int li = L(g2), g3 = k_ext(g2, TY_ID_INT);
  //@ assert g3_keep0: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  if (g3 < 0) return g3;
  //@ assert g3_ctx: ctx_valid(g3) && ctx_is_ext(g3, g2, TY_ID_INT) && ctx_len_[g3] == li + 1 && li == ctx_len_[g2];
  //@ assert g3_lvl: lvl_ty(g3, li) == TY_ID_INT && lvl_ty(g3, ldys) == sb && lvl_ty(g3, lv) == tg && lvl_ty(g3, lps) == aq;
  //@ assert g3_keep: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  //@ assert g3_g2: lvl_ty(g2, ly) == yt && ctx_valid(g2);
  //@ ghost Exts: ;
  int el = fwd_map_el(g3, li, lps, lv, ldys) /*@ ghost (tg, tt, tgx, tsg, sb, aq, q) */;
  //@ assert el >= 0 ==> 0 <= el < tm_count && tm_ctx_[el] == g3 && tm_ty_[el] == tt;
  //@ assert el >= 0 || el == CHAD_E_CAPACITY;
  //@ assert el_ctx: ctx_count == \at(ctx_count, Exts);
  //@ assert el_lvl: lvl_ty(g2, ly) == yt && ctx_valid(g2);
  int vy = V(g2, ly);
  //@ assert vy >= 0 ==> 0 <= vy < tm_count && tm_ctx_[vy] == g2 && tm_ty_[vy] == yt;
  //@ assert vy >= 0 || vy == CHAD_E_CAPACITY;
  int n = b_length(vy);
  //@ assert n >= 0 ==> 0 <= n < tm_count && tm_ctx_[n] == g2 && tm_ty_[n] == TY_ID_INT;
  //@ assert n >= 0 || n == CHAD_E_CAPACITY;
  //@ assert el >= 0 ==> 0 <= el < tm_count && tm_ctx_[el] == g3 && tm_ty_[el] == tt;
  //@ assert ctx_is_ext(g3, g2, TY_ID_INT);
  int bl = b_build(n, el);
  //@ assert bl >= 0 ==> 0 <= bl < tm_count && tm_ctx_[bl] == g2 && ty_same(tm_ty_[bl], TY_ARR, tt, -1);
  //@ assert bl >= 0 || bl == CHAD_E_CAPACITY;
  /* hash-consing: the array's type is T(Arr tau) itself */
  //@ assert bl >= 0 ==> ty_valid(tm_ty_[bl]);
  //@ assert st_same: ty_inv && ty_valid(st) && ty_same(st, TY_ARR, tt, -1);
  //@ assert bl_st: bl >= 0 ==> tm_ty_[bl] == st;
  //@ assert dys >= 0 ==> 0 <= dys < tm_count && tm_ctx_[dys] == g1 && tm_ty_[dys] == sb && ctx_is_ext(g2, g1, sb);
  int lt = b_let(dys, bl);
  //@ assert lt >= 0 ==> 0 <= lt < tm_count && tm_ctx_[lt] == g1 && tm_ty_[lt] == st;
  //@ assert lt >= 0 || lt == CHAD_E_CAPACITY;
  //@ assert lt >= 0 ==> ty_valid(tg) && llam_ok(tg, tm_ctx_[lt], tm_ty_[lt]);
  //@ assert lt_par: ctx_parent_[g1] == d3 && (lt >= 0 ==> tm_ctx_[lt] == g1 && tm_ty_[lt] == st);
  int r = b_llam(tg, lt);
  //@ assert r_ctx0: r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d3;
  //@ assert r_ty: r >= 0 ==> ty_same(tm_ty_[r], TY_LFUN, tg, st);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 19;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert r_ctx: ctx_count == \at(ctx_count, Exts) && ctx_len_[d3] == \at(ctx_len_[d3], Exts);
  //@ assert r_keep: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  return r;
}

/* F(map)'s recursive call and the rest: the body a (of type tau in ga =
 * G, x : sigma) under its binder in e1 = d2, x (d1 = d, p; d2 = d1, y with
 * y = fst p : pb = P(Arr sigma)), then ps = map (x. q) y in d2, its
 * extension d3, the linear half fwd_map_lin, the primal map_primal and the
 * tail let_build_tail (shared with build: let p in let y = fst p in let ps
 * in (prim, lin)). */
/*@ requires kernel_inv && memo_inv && src_inv && venv_wf;
    requires 0 <= a < tm_count && chad_msrc_[a] == 1 && 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[a] == ga && tm_ty_[a] == tau;
    requires 0 < ga < ctx_count && ctx_parent_[ga] == g && ctx_type_[ga] == sg;
    requires env_ok(CHAD_PFWD, g, e1);
    requires trh(CHAD_PFWD, sg) && trm(CHAD_PFWD, sg) == psg && trh(CHAD_TAN, sg) && trm(CHAD_TAN, sg) == tsg;
    requires trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt && trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt;
    requires ty_valid(tt) && lin(st) && ty_same(st, TY_ARR, tt, -1) && ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1);
    requires trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg && ty_valid(tg);
    requires ty_valid(pb) && ty_same(pb, TY_ARR, psg, -1) && ty_valid(sb) && lin(sb) && ty_same(sb, TY_ARR, tsg, -1);
    requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pb &&
      ty_same(ty_right_[typ], TY_LFUN, tg, sb);
    requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_is_ext(d2, d1, pb) &&
      ctx_is_ext(e1, d2, psg);
    requires lp == ctx_len_[d] && ly == lp + 1 && lx == ly + 1;
    requires ctx_len_[d1] == ly && ctx_len_[d2] == lx && ctx_len_[e1] == lx + 1;
    requires 0 <= d < d1 < d2 < e1 < ctx_count;
    requires lvl_ty(d1, lp) == typ && lvl_ty(d2, ly) == pb && lvl_ty(e1, lx) == psg;
    terminates \true;
    decreases FWD_M(depth) - 3;
    FWD_ASSIGNS;
    ensures kernel_inv && memo_inv && src_inv && venv_wf;
    ensures venv_sp == \old(venv_sp) && venv_cur == \old(venv_cur);
    ensures memo_grows{Pre, Post};
    ensures \old(tm_count) <= tm_count && \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures env_keep{Pre, Post};
    ensures fmbody_size: tm_count - \old(tm_count) <= FWD_K * chad_msz_[a] + 31;
    ensures fmbody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures fmbody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pa && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, tg, st);
*/
static int fwd_map_body(int a, int p, int d1, int d2, int e1, int lp, int ly, int lx, int tg, int depth)
  /*@ ghost (int g, int ga, int sg, int tau, int psg, int tsg, int pt, int tt, int pa, int st,
             int d, int typ, int pb, int sb) */
{
  //@ assert x_ga: env_ok(CHAD_PFWD, ctx_parent_[ga], e1) && trh(CHAD_PFWD, ctx_type_[ga]) && trm(CHAD_PFWD, ctx_type_[ga]) == psg;
  //@ assert x_lx: 0 <= lx < ctx_len_[e1] && lvl_ty(e1, lx) == psg;
  /* typ's right half named before the call (as rev_app_body) */
  //@ ghost int tpr = ty_right_[typ];
  //@ assert x_tpr: ty_valid(tpr) && ty_same(tpr, TY_LFUN, tg, sb);
  int q = fwd_under(a, e1, lx, depth + 1);
  //@ assert q_keep: env_keep{Pre, Here};
  //@ assert q_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[a];
  if (q < 0) return q;
  //@ assert q_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a];
  //@ assert q_fwd: tm_ctx_[q] == e1 && fwd_ty(tm_ty_[q], ga, tau) && 0 <= q < tm_count;
  //@ ghost int tyq = tm_ty_[q];
  //@ ghost int tgx = chad_memo_ctx_[CHAD_TAN][ga] - 1;
  //@ assert q_tgx: trch(CHAD_TAN, ga) && trc(CHAD_TAN, ga) == tgx && 0 < ga;
  //@ ghost trc_step(CHAD_TAN, ga);
  //@ assert q_memo1: trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt && trc(CHAD_TAN, g) == tg;
  //@ assert q_memo2: trh(CHAD_TAN, sg) && trm(CHAD_TAN, sg) == tsg;
  //@ assert q_tgx2: ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, tsg);
  //@ assert q_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, tgx, tt);
  //@ assert q_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert q_tpr: ty_right_[typ] == tpr && ty_valid(tpr) && ty_same(tpr, TY_LFUN, tg, sb);
  //@ assert q_typ: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pb && ty_same(ty_right_[typ], TY_LFUN, tg, sb);
  //@ assert q_pb: ty_valid(pb) && ty_same(pb, TY_ARR, psg, -1) && ty_valid(sb) && lin(sb) && ty_same(sb, TY_ARR, tsg, -1);
  //@ assert q_pa: ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1) && lin(st) && ty_same(st, TY_ARR, tt, -1) && ty_valid(tg) && ty_valid(tt);
  //@ assert q_ord: 0 <= d < d1 < d2 < e1 < ctx_count;
  //@ assert q_c1: ctx_parent_[d1] == d && ctx_type_[d1] == typ && ctx_len_[d1] == ly;
  //@ assert q_c2: ctx_parent_[d2] == d1 && ctx_type_[d2] == pb && ctx_len_[d2] == lx;
  //@ assert q_c3: ctx_parent_[e1] == d2 && ctx_type_[e1] == psg && ctx_len_[e1] == lx + 1;
  //@ assert q_c0: ctx_valid(d) && ctx_len_[d] == lp;
  //@ assert q_l1: lvl_ty(d1, lp) == typ;
  //@ assert q_l2: lvl_ty(d2, ly) == pb && lvl_ty(d2, lp) == typ;
  //@ ghost Q1: ;
  int vy = V(d2, ly);
  //@ assert vy >= 0 ==> 0 <= vy < tm_count && tm_ctx_[vy] == d2 && tm_ty_[vy] == pb;
  //@ assert vy >= 0 || vy == CHAD_E_CAPACITY;
  //@ assert vy >= 0 ==> arr_ok(tm_ty_[vy]) && ty_left_[tm_ty_[vy]] == psg;
  //@ assert 0 <= q < tm_count && tm_ctx_[q] == e1 && tm_ty_[q] == tyq && ctx_is_ext(e1, d2, psg);
  int ps = b_map(q, vy);
  //@ assert ps >= 0 ==> 0 <= ps < tm_count && tm_ctx_[ps] == d2 && ty_same(tm_ty_[ps], TY_ARR, tyq, -1);
  //@ assert ps >= 0 ==> ty_valid(tm_ty_[ps]);
  //@ assert ps >= 0 || ps == CHAD_E_CAPACITY;
  //@ assert ps_grow: tables_grow{Q1, Here} && side_same{Q1, Here};
  //@ assert ps_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  //@ assert ps_keep: env_keep{Pre, Here};
  //@ assert ps_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a] + 2;
  if (ps < 0) return ps;
  //@ ghost int aq = tm_ty_[ps];
  //@ assert ps_aq: ty_valid(aq) && ty_same(aq, TY_ARR, tyq, -1);
  //@ assert ps_c1: ctx_parent_[d1] == d && ctx_type_[d1] == typ && ctx_len_[d1] == ly;
  //@ assert ps_c2: ctx_parent_[d2] == d1 && ctx_type_[d2] == pb && ctx_len_[d2] == lx;
  //@ assert ps_l2: lvl_ty(d2, ly) == pb && lvl_ty(d2, lp) == typ && ctx_valid(d2);
  int lps = L(d2), d3 = f_ext(d2, tyof(ps));
  //@ assert d3 >= 0 || d3 == CHAD_E_CAPACITY;
  //@ assert d3_keep: env_keep{Pre, Here};
  //@ assert d3_ret: d3 < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[a] + 31;
  if (d3 < 0) return d3;
  //@ assert d3_ext: ctx_is_ext(d3, d2, aq) && ctx_len_[d3] == lps + 1 && lps == lx && ctx_valid(d3);
  //@ assert d3_lps: lvl_ty(d3, lps) == aq;
  //@ assert d3_ly: lvl_ty(d3, ly) == pb && lvl_ty(d3, lp) == typ && 0 <= lp < ly < lps;
  //@ assert d3_q0: 0 <= q < tm_count && tm_ty_[q] == tyq;
  //@ assert d3_q: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, tgx, tt);
  //@ assert d3_tgx: ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, tsg);
  //@ assert d3_st: lin(st) && ty_same(st, TY_ARR, tt, -1) && ty_valid(tg) && ty_valid(tt);
  //@ assert d3_pb: arr_ok(pb) && ty_valid(sb) && lin(sb) && ty_same(sb, TY_ARR, tsg, -1);
  //@ assert d3_tpr: ty_right_[typ] == tpr && ty_same(tpr, TY_LFUN, tg, sb);
  //@ assert d3_typ: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, tg, sb);
  //@ ghost Built: ;
  int lin = fwd_map_lin(d3, lp, ly, lps, tg) /*@ ghost (tt, st, tgx, tsg, sb, typ, pb, aq, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d3 && ty_same(tm_ty_[lin], TY_LFUN, tg, st) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_keep: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a] + 21;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  //@ assert lin_ret: lin < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[a] + 31;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert l_lin: tm_ctx_[lin] == d3 && ty_valid(tyl) && ty_same(tyl, TY_LFUN, tg, st) && 0 <= lin < tm_count;
  //@ assert l_lvl: lvl_ty(d3, lps) == aq && ctx_valid(d3) && 0 <= lps < ctx_len_[d3];
  //@ assert l_aq: ty_valid(aq) && ty_same(aq, TY_ARR, tyq, -1) && ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt;
  //@ assert l_q: 0 <= q < tm_count && tm_ty_[q] == tyq;
  //@ ghost Lin: ;
  int tq = tyof(q);
  /* in two steps: as one goal it was the fragile one of this function */
  //@ assert l_tq1: tq == tyq;
  //@ assert l_tq: tq == tyq && ty_valid(tq) && ty_kind_[tq] == TY_PROD && ty_left_[tq] == pt;
  int prim = map_primal(d3, lps, tq) /*@ ghost (aq, pt) */;
  //@ assert prim >= 0 ==> 0 <= prim < tm_count && tm_ctx_[prim] == d3 && ty_valid(tm_ty_[prim]) && ty_same(tm_ty_[prim], TY_ARR, pt, -1);
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  /* hash-consing: the primal's type is P(Arr tau) itself */
  //@ assert prim >= 0 ==> ty_inv && ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1) && ty_same(tm_ty_[prim], TY_ARR, pt, -1);
  //@ assert p_pa: prim >= 0 ==> tm_ty_[prim] == pa;
  //@ assert p_keep: env_keep{Pre, Here};
  //@ assert p_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a] + 25;
  //@ assert p_grow: tables_grow{Lin, Here} && side_same{Lin, Here};
  //@ assert p_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  if (prim < 0) return prim;
  //@ assert t_lin0: tm_ty_[lin] == tyl && tm_ctx_[lin] == d3 && 0 <= lin < tm_count;
  //@ assert t_lin1: ty_valid(tyl) && ty_same(tyl, TY_LFUN, tg, st);
  //@ assert t_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert t_typ: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pb;
  //@ assert t_ps: 0 <= ps < tm_count && tm_ctx_[ps] == d2 && tm_ty_[ps] == aq;
  //@ assert t_c1: ctx_parent_[d1] == d && ctx_type_[d1] == typ && ctx_len_[d1] == ly;
  //@ assert t_c2: ctx_parent_[d2] == d1 && ctx_type_[d2] == pb && ctx_len_[d2] == lx;
  //@ assert t_c3: ctx_parent_[d3] == d2 && ctx_type_[d3] == aq;
  //@ assert t_c0: ctx_valid(d) && ctx_len_[d] == lp && 0 <= d < d1 < d2 < d3 < ctx_count;
  //@ assert t_e: ctx_is_ext(d1, d, typ) && ctx_is_ext(d2, d1, pb) && ctx_is_ext(d3, d2, aq);
  //@ assert t_l1: lvl_ty(d1, lp) == typ && 0 <= lp < ctx_len_[d1] && ctx_valid(d1) && ctx_valid(d2);
  //@ ghost Tail: ;
  int r = let_build_tail(p, ps, prim, lin, d1, lp) /*@ ghost (d, d2, d3, pb, pa, tg, st) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pa && ty_same(ty_right_[tyr], TY_LFUN, tg, st);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a] + 31;
  //@ assert tables_grow{Tail, Here} && side_same{Tail, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* F(map (x. a) b), b : Arr sigma, a : tau in G, x : sigma:
 *   let p = F b; y = fst p; ps = map (x. F a) y in
 *   (map (z. fst z) ps,
 *    \v. let dys = snd p v in build (length y) (i. snd ps[i] (v, dys[i])))
 * F b and the extensions (p, y, the binder x) here, F a and the rest in
 * fwd_map_body (one recursive call per function). */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_MAP; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases FWD_M(depth) - 2;
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_map(int t, int d, int tg, int depth)
{
  //@ assert node_ok(t) && msz_ok(t) && msrc_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tarr = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t);
  //@ ghost int ga = tm_ctx_[a];
  //@ ghost int tau = tm_ty_[a];
  //@ ghost int tb = tm_ty_[b];
  //@ ghost int sg = ty_left_[tb];
  //@ assert 0 <= a < t && 0 <= b < t && chad_msrc_[a] == 1 && chad_msrc_[b] == 1;
  //@ assert map_src: tm_ctx_[b] == g && arr_ok(tb) && ty_same(tarr, TY_ARR, tau, -1);
  //@ assert map_ga: ctx_is_ext(ga, g, sg) && 0 < ga < ctx_count && ctx_parent_[ga] == g && ctx_type_[ga] == sg;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b]);
  /* the size budget: F b, F a and at most 31 nodes of this rule (or the
   * whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert map_budget: FWD_K * chad_msz_[a] + FWD_K * chad_msz_[b] + 31 <= FWD_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= FWD_K * chad_msz_[t]; */
  //@ ghost int pa = chad_memo_ty_[CHAD_PFWD][tarr] - 1;
  //@ ghost int st = chad_memo_ty_[CHAD_TAN][tarr] - 1;
  //@ ghost tan_lin_lemma();
  //@ assert map_lin: lin(st) && ty_valid(st) && ty_valid(tg);
  int p = f_sub(b, d, depth + 1);
  //@ assert pb_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert pb_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  //@ assert pb_fwd: tm_ctx_[p] == d && fwd_ty(tm_ty_[p], g, tb) && 0 <= p < tm_count;
  //@ assert pb_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b];
  //@ assert pb_arr: trh(CHAD_PFWD, tarr) && trm(CHAD_PFWD, tarr) == pa && trh(CHAD_TAN, tarr) && trm(CHAD_TAN, tarr) == st && lin(st) && trc(CHAD_TAN, g) == tg;
  //@ assert pb_tb: trh(CHAD_PFWD, tb) && trh(CHAD_TAN, tb);
  //@ ghost tr_step(CHAD_PFWD, tb);
  //@ ghost tr_step(CHAD_TAN, tb);
  //@ ghost tr_step(CHAD_PFWD, tarr);
  //@ ghost tr_step(CHAD_TAN, tarr);
  //@ assert pb_sg: trh(CHAD_PFWD, sg) && trh(CHAD_TAN, sg);
  //@ assert pb_tau: trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau);
  //@ ghost int pb = chad_memo_ty_[CHAD_PFWD][tb] - 1;
  //@ ghost int sb = chad_memo_ty_[CHAD_TAN][tb] - 1;
  //@ ghost int psg = chad_memo_ty_[CHAD_PFWD][sg] - 1;
  //@ ghost int tsg = chad_memo_ty_[CHAD_TAN][sg] - 1;
  //@ ghost int pt = chad_memo_ty_[CHAD_PFWD][tau] - 1;
  //@ ghost int tt = chad_memo_ty_[CHAD_TAN][tau] - 1;
  //@ assert pb_pb: ty_valid(pb) && ty_same(pb, TY_ARR, psg, -1) && ty_valid(sb) && ty_same(sb, TY_ARR, tsg, -1);
  //@ ghost tan_lin_lemma();
  //@ assert pb_sblin: lin(sb);
  //@ assert pb_pa: ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1);
  //@ assert pb_st: ty_same(st, TY_ARR, tt, -1) && ty_valid(tt);
  //@ ghost int typ = tm_ty_[p];
  //@ assert pb_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pb && ty_same(ty_right_[typ], TY_LFUN, tg, sb);
  int lp = L(d), d1 = f_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_len_[d1] == lp + 1 && lp == ctx_len_[d];
  //@ assert d1_lvl: lvl_ty(d1, lp) == typ;
  //@ assert d1_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pb;
  int ly = L(d1), d2 = f_ext(d1, ty_left(tyof(p)));
  //@ assert d2 >= 0 || d2 == CHAD_E_CAPACITY;
  //@ assert d2_keep: env_keep{Pre, Here};
  if (d2 < 0) return d2;
  //@ assert d2_ext: ctx_is_ext(d2, d1, pb) && ctx_valid(d2) && ctx_len_[d2] == ly + 1 && ly == lp + 1;
  //@ assert d2_top: lvl_ty(d2, ctx_len_[d1]) == pb && ly == ctx_len_[d1];
  //@ assert d2_lvl: lvl_ty(d2, ly) == pb && lvl_ty(d1, lp) == typ;
  //@ assert d2_pb: ty_valid(pb) && ty_kind_[pb] == TY_ARR && ty_left_[pb] == psg;
  int lx = L(d2), e1 = f_ext(d2, ty_left(ty_left(tyof(p))));
  //@ assert e1 >= 0 || e1 == CHAD_E_CAPACITY;
  //@ assert e1_keep: env_keep{Pre, Here};
  if (e1 < 0) return e1;
  //@ assert e1_ext: ctx_is_ext(e1, d2, psg) && ctx_valid(e1) && ctx_len_[e1] == lx + 1 && lx == ly + 1;
  //@ assert e1_top: lvl_ty(e1, ctx_len_[d2]) == psg && lx == ctx_len_[d2];
  //@ assert e1_lvl: lvl_ty(e1, lx) == psg && lvl_ty(d2, ly) == pb && lvl_ty(d1, lp) == typ;
  //@ assert e1_env: env_ok(CHAD_PFWD, g, e1);
  //@ assert e1_c: ctx_is_ext(d1, d, typ) && ctx_is_ext(d2, d1, pb) && ctx_valid(d);
  //@ assert e1_nodes: ctx_inv && ctx_node_ok(e1) && ctx_node_ok(d2) && ctx_node_ok(d1) && ctx_valid(d);
  //@ assert e1_ord: 0 <= d < d1 < d2 < e1 < ctx_count;
  //@ assert e1_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert e1_memo: trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt && trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt && trc(CHAD_TAN, g) == tg;
  //@ assert e1_sg: trh(CHAD_PFWD, sg) && trm(CHAD_PFWD, sg) == psg && trh(CHAD_TAN, sg) && trm(CHAD_TAN, sg) == tsg;
  //@ assert e1_venv: venv_wf;
  //@ ghost Body: ;
  int res = fwd_map_body(a, p, d1, d2, e1, lp, ly, lx, tg, depth)
    /*@ ghost (g, ga, sg, tau, psg, tsg, pt, tt, pa, st, d, typ, pb, sb) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= FWD_K * chad_msz_[a] + 31;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert res >= 0 || res == CHAD_E_CAPACITY || res == CHAD_E_DEPTH;
  //@ ghost int tyr = res >= 0 ? tm_ty_[res] : 0;
  //@ assert res >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pa && ty_same(ty_right_[tyr], TY_LFUN, tg, st);
  //@ assert res >= 0 ==> ty_node_ok(tyr) && 0 <= ty_right_[tyr] < tyr;
  //@ assert trh(CHAD_PFWD, tarr) && trh(CHAD_TAN, tarr) && trch(CHAD_TAN, g) && trm(CHAD_PFWD, tarr) == pa && trm(CHAD_TAN, tarr) == st && trc(CHAD_TAN, g) == tg;
  //@ assert res >= 0 ==> fwd_ty(tm_ty_[res], g, tarr);
  //@ assert tm_ctx_[t] == g && tm_ty_[t] == tarr;
  //@ assert map_type: res >= 0 ==> 0 <= res < tm_count && tm_ctx_[res] == d && fwd_ty(tm_ty_[res], tm_ctx_[t], tm_ty_[t]);
  return res;
}

/* The rule of t's kind, once fwd has the translations (split from fwd so
 * that the per-rule paths are proved without fwd's translation states). */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases FWD_M(depth) - 1;
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_rule(int t, int d, int tg, int depth)
{
  int r;
  switch (tm_kind(t)) {
  case TM_VAR: r = fwd_var(t, d, tg, depth); break;
  case TM_UNIT: case TM_RCONST: case TM_ICONST: r = fwd_const(t, d, tg, depth); break;
  case TM_LET: r = fwd_let(t, d, tg, depth); break;
  case TM_LAM: r = fwd_lam(t, d, tg, depth); break;
  case TM_APP: r = fwd_app(t, d, tg, depth); break;
  case TM_PAIR: r = fwd_pair(t, d, tg, depth); break;
  case TM_FST: case TM_SND: case TM_SUM: case TM_LENGTH: case TM_OP:
  case TM_INL: case TM_INR:
    r = fwd_unary(t, d, tg, depth); break;
  case TM_CASE: r = fwd_case(t, d, tg, depth); break;
  case TM_ITER: r = fwd_iter(t, d, tg, depth); break;
  case TM_BUILD: r = fwd_build(t, d, tg, depth); break;
  case TM_INDEX: r = fwd_index(t, d, tg, depth); break;
  case TM_MAP: r = fwd_map(t, d, tg, depth); break;
  default: r = CHAD_E_TYPE; break;   /* not a source-language term */
  }
  return r;
}

/*@ FWD_REQ;
    requires d == CHAD_E_CAPACITY || env_ok(CHAD_PFWD, tm_ctx_[t], d);
    requires venv_wf;
    terminates \true;
    decreases FWD_M(depth);
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd(int t, int d, int depth)
{
  if (depth > CHAD_MAX_DEPTH)
    return CHAD_E_DEPTH;
  if (d < 0)
    return d;
  int g = tm_ctx(t);
  //@ assert src_inv && msrc_ok(t) && 0 <= g < ctx_count && chad_csrc_[g] == 1;
  //@ assert chad_tsrc_[tm_ty_[t]] == 1;
  /* On each failed translation its result code and the environment
   * frame, each its own goal (as in rev: as one postcondition over all
   * paths the frame timed out). P tau and T tau: the result type
   * P tau * (T G -o T tau) is built by the constructors; translating here
   * fills the memo tables that state what the translations are (a hit
   * after the first time). */
  int tg = tr_ctx(CHAD_TAN, g);           /* T G */
  if (tg < 0) {
    //@ assert tg == CHAD_E_CAPACITY || tg == CHAD_E_DEPTH;
    //@ assert env_keep{Pre, Here};
    return tg;
  }
  int pt = tr_ty(CHAD_PFWD, tm_type(t));
  if (pt < 0) {
    //@ assert pt == CHAD_E_CAPACITY || pt == CHAD_E_DEPTH;
    //@ assert env_keep{Pre, Here};
    return pt;
  }
  int tt = tr_ty(CHAD_TAN, tm_type(t));
  //@ assert tt < 0 ==> tt == CHAD_E_CAPACITY || tt == CHAD_E_DEPTH;
  //@ assert env_keep{Pre, Here};
  if (tt < 0)
    return tt;
  /* the frame of the rule's path asserted here, not left to the
   * postcondition over all paths: Z3 needed 1.7 s of its 2 s quick limit
   * there, and it ran out when the gate ran its jobs side by side */
  //@ ghost Tr: ;
  int r = fwd_rule(t, d, tg, depth);
  //@ assert env_keep{Tr, Here};
  //@ assert env_keep{Pre, Here};
  return r;
}

/* F(t) into d, with the ghost columns and the memo fresh and pg = P G:
 * d must extend P G, i.e. its prefix of length |G| is pg (contexts are
 * hash-consed, so an equal prefix has the same id); source variable k is
 * then level |G|-1-k of d (the identity environment). */
/*@ requires kernel_inv && memo_inv && src_inv && venv_wf;
    requires 0 <= t < tm_count && chad_msrc_[t] == 1;
    requires trch(CHAD_PFWD, tm_ctx_[t]) && pg == trc(CHAD_PFWD, tm_ctx_[t]);
    requires ctx_valid(pg) && ctx_len_[pg] == ctx_len_[tm_ctx_[t]];
    terminates \true;
    FWD_ASSIGNS, venv_cur;
    ensures kernel_inv && memo_inv && src_inv && venv_wf;
    ensures venv_sp == \old(venv_sp) && venv_cur == \old(venv_cur);
    ensures memo_grows{Pre, Post};
    ensures trch(CHAD_PFWD, tm_ctx_[t]) && pg == trc(CHAD_PFWD, tm_ctx_[t]);
    ensures \old(tm_count) <= tm_count;
    ensures tm_count - \old(tm_count) <= FWD_K * chad_msz_[t];
    ensures \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH ||
      \result == CHAD_E_ARG;
    ensures \result == CHAD_E_ARG <==> !\old(ctx_extends(d, pg));
    ensures \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d &&
      fwd_ty(tm_ty_[\result], tm_ctx_[t], tm_ty_[t]);
*/
static int fwd_entry(int t, int d, int pg)
{
  int g = tm_ctx(t);
  int n = ctx_length(g);
  if (ctx_prefix(d, n) != pg) {
    //@ assert no_ext: !ctx_extends(d, pg);
    return CHAD_E_ARG;
  }
  //@ assert ext: ctx_extends(d, pg);
  //@ ghost trc_lookup_lemma(CHAD_PFWD, g);
  venv_frame old = venv_open(n);
  //@ assert \forall integer k; 0 <= k < n ==> lvl_ty(d, n - 1 - k) == ctx_lk(d, (ctx_len_[d] - n) + k);
  //@ assert env_ok(CHAD_PFWD, g, d);
  int r = fwd(t, d, 0);
  //@ assert r_code: r >= 0 || r == CHAD_E_CAPACITY || r == CHAD_E_DEPTH;
  venv_restore(old);
  return r;
}

/* The public entry points: t a source term of the arena (tm_srcr, which
 * the checker's output is). They fill the ghost source columns, revalidate
 * the memo (chad_sync) and translate G. */
#define FWD_ENTRY_SPEC \
    requires kernel_inv && venv_wf; \
    requires tm_srcr(t); \
    terminates \true; \
    FWD_ASSIGNS, venv_cur, \
      chad_tsrc_[0 .. CHAD_MAX_TYPES - 1], chad_csrc_[0 .. CHAD_MAX_CTXS - 1], \
      chad_msrc_[0 .. CHAD_MAX_TERMS - 1], chad_msz_[0 .. CHAD_MAX_TERMS - 1]; \
    ensures kernel_inv && memo_inv && venv_wf; \
    ensures venv_sp == \old(venv_sp) && venv_cur == \old(venv_cur)

/* F(t) emitted into d, which must extend P G (CHAD_E_ARG if not). */
/*@ FWD_ENTRY_SPEC;
    ensures fwd_in_size: tm_count - \old(tm_count) <= FWD_K * \old(tsize(t));
    ensures fwd_in_codes: \result >= 0 || \result == CHAD_E_CAPACITY ||
      \result == CHAD_E_DEPTH || \result == CHAD_E_ARG;
    ensures fwd_in_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d &&
      trch(CHAD_PFWD, tm_ctx_[t]) &&
      fwd_ty(tm_ty_[\result], tm_ctx_[t], tm_ty_[t]);
*/
int chad_fwd_in(int t, int d)
{
  //@ assert g_ok: tm_wf(t) && 0 <= tm_ctx_[t] < ctx_count;
  chad_src_columns();
  //@ assert src_sz: 1 <= chad_msz_[t] <= tsize(t);
  chad_sync();
  int g = tm_ctx(t);
  //@ assert 0 <= g < ctx_count;
  if (g < 0)
    return g;    /* not reached for a source term: kept for callers without the contract */
  //@ assert msrc_ok(t) && chad_csrc_[g] == 1;
  int pg = tr_ctx(CHAD_PFWD, g);
  if (pg < 0)
    return pg;
  return fwd_entry(t, d, pg);
}

/* F(t) in P G itself. */
/*@ FWD_ENTRY_SPEC;
    ensures fwd_top_size: tm_count - \old(tm_count) <= FWD_K * \old(tsize(t));
    ensures fwd_top_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures fwd_top_type: \result >= 0 ==> 0 <= \result < tm_count &&
      trch(CHAD_PFWD, tm_ctx_[t]) && tm_ctx_[\result] == trc(CHAD_PFWD, tm_ctx_[t]) &&
      fwd_ty(tm_ty_[\result], tm_ctx_[t], tm_ty_[t]);
*/
int chad_fwd(int t)
{
  //@ assert g_ok: tm_wf(t) && 0 <= tm_ctx_[t] < ctx_count;
  chad_src_columns();
  //@ assert src_sz: 1 <= chad_msz_[t] <= tsize(t);
  chad_sync();        /* before the first translation: the memo may be stale */
  int g = tm_ctx(t);
  //@ assert 0 <= g < ctx_count;
  if (g < 0)
    return g;    /* not reached for a source term: kept for callers without the contract */
  //@ assert msrc_ok(t) && chad_csrc_[g] == 1;
  int pg = tr_ctx(CHAD_PFWD, g);
  if (pg < 0)
    return pg;
  //@ assert ctx_extends(pg, pg);
  return fwd_entry(t, pg, pg);
}
