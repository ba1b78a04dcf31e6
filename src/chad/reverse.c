/* Reverse-mode CHAD (rules card §5): R(t) for G |- t : tau is a term in
 * P G of type P tau * (C tau -o C G). Same sharing discipline and level
 * environment as forward.c. Array cotangents are length-free: R(index) uses
 * TM_ONEHOT (O(1)), zero of C (Arr a) is one TM_ZERO node. */
#include "chad/chad.h"
#include "chad/kernel.h"
#include "chad_internal.h"
#include "chad_spec.h"
#include "reverse_spec.h"

#define V(d, l) b_var((d), (l))
#define L(d) b_lvl(d)

/*@ requires tm_inv; terminates \true; assigns \nothing;
    ensures t < 0 ==> \result == t;
    ensures 0 <= t < tm_count ==> \result == tm_ty_[t]; */
static int tyof(int t) { return t < 0 ? t : tm_type(t); }

static int rev(int t, int d, int depth);

/* One step of memo_inv at one entry, as a call: its postcondition is
 * substituted, where the solvers did not find the instance of the
 * quantified invariant at a constant mode (as F's tr_step, forward.c). */
/*@ ghost
  /@ requires memo_ty_inv && mode_ok(m) && 0 <= t < CHAD_MAX_TYPES && chad_memo_ty_[m][t] != 0;
     terminates \true;
     assigns \nothing;
     ensures tr_ok(m, t, chad_memo_ty_[m][t] - 1); @/
  void rev_tr_step(int m, int t) { }
*/
/*@ ghost
  /@ requires memo_ctx_inv && mode_ok(m) && 0 < g < CHAD_MAX_CTXS && chad_memo_ctx_[m][g] != 0;
     terminates \true;
     assigns \nothing;
     ensures trc_ok(m, g, chad_memo_ctx_[m][g] - 1); @/
  void rev_trc_step(int m, int g) { }
*/

/* Lemma (by induction over the type and context tables, children first):
 * every memoised cotangent translation is a linear type. C Real = Real,
 * C Int = C Unit = Unit, C(a*b) = C(a+b) = Ca * Cb, C(Arr a) = Arr Ca,
 * C(a->b) = !P a (x) Cb: linear when the children's C are (ty_lin_rule);
 * C G = C G' * C tau, ending in Unit. */
/*@ ghost
  /@ requires kernel_inv && memo_inv;
     terminates \true;
     assigns \nothing;
     ensures cot_lin; @/
  void cot_lin_lemma(void)
  {
    /@ loop invariant 0 <= i <= ty_count;
       loop invariant \forall integer t; 0 <= t < i && trh(CHAD_COT, t) ==> lin(trm(CHAD_COT, t));
       loop assigns i;
       loop variant ty_count - i; @/
    for (int i = 0; i < ty_count; i++) {
      /@ assert ty_node_ok(i); @/
      if (chad_memo_ty_[CHAD_COT][i] != 0) {
        rev_tr_step(CHAD_COT, i);
        int s = chad_memo_ty_[CHAD_COT][i] - 1;
        int k = ty_kind_[i], l = ty_left_[i], r = ty_right_[i];
        /@ assert step: tr_ok(CHAD_COT, i, s); @/
        /@ assert ty_node_ok(s); @/
        /@ assert base: k == TY_REAL || k == TY_INT || k == TY_UNIT ==>
             s == TY_ID_REAL || s == TY_ID_UNIT; @/
        /@ assert ty_node_ok(TY_ID_REAL) && ty_node_ok(TY_ID_UNIT); @/
        /@ assert two: k == TY_PROD || k == TY_SUM ==> 0 <= l < i && 0 <= r < i &&
             ty_same(s, TY_PROD, trm(CHAD_COT, l), trm(CHAD_COT, r)) &&
             lin(trm(CHAD_COT, l)) && lin(trm(CHAD_COT, r)); @/
        /@ assert arr: k == TY_ARR ==> 0 <= l < i && ty_same(s, TY_ARR, trm(CHAD_COT, l), -1) &&
             lin(trm(CHAD_COT, l)); @/
        /@ assert fun: k == TY_FUN ==> 0 <= r < i && ty_kind_[s] == TY_COPOW &&
             ty_right_[s] == trm(CHAD_COT, r) && lin(trm(CHAD_COT, r)); @/
        /@ assert lin(s); @/
      }
    }
    /@ assert \forall integer t; 0 <= t < CHAD_MAX_TYPES && trh(CHAD_COT, t) ==> t < ty_count; @/
    /@ assert ty_inv && ty_node_ok(TY_ID_UNIT); @/
    /@ loop invariant 1 <= j <= CHAD_MAX_CTXS;
       loop invariant \forall integer g; 0 <= g < j && trch(CHAD_COT, g) ==> lin(trc(CHAD_COT, g));
       loop assigns j;
       loop variant CHAD_MAX_CTXS - j; @/
    for (int j = 1; j < CHAD_MAX_CTXS; j++) {
      if (chad_memo_ctx_[CHAD_COT][j] != 0) {
        rev_trc_step(CHAD_COT, j);
        /@ assert j < ctx_count && ctx_node_ok(j); @/
        /@ assert ty_node_ok(trc(CHAD_COT, j)); @/
        /@ assert lin(trc(CHAD_COT, ctx_parent_[j])) && lin(trm(CHAD_COT, ctx_type_[j])); @/
      }
    }
  }
*/

/* b_ext, seen from the pass: it keeps every invariant of the pass and the
 * environment, and the levels of d keep their types in the extension. */
/*@ requires REV_INV;
    requires d == CHAD_E_CAPACITY || ctx_valid(d);
    requires ty < 0 || ty_valid(ty);
    terminates \true;
    assigns CH_CTX_LOCS, CH_EXT_STATE;
    ensures REV_INV;
    ensures d < 0 ==> \result == d;
    ensures d >= 0 && ty < 0 ==> \result == ty;
    ensures d >= 0 && ty >= 0 ==> \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures \result >= 0 ==> ctx_is_ext(\result, d, ty) && ctx_len_[\result] == ctx_len_[d] + 1 &&
      ctx_valid(\result);
    ensures \old(ctx_count) <= ctx_count;
    ensures \result >= 0 ==> lvl_ty(\result, ctx_len_[d]) == ty &&
      \forall integer l; 0 <= l < ctx_len_[d] ==> lvl_ty(\result, l) == lvl_ty(d, l);
    ensures \forall integer m, g, e; \old(env_ok(m, g, e)) ==> env_ok(m, g, e);
    ensures \result >= 0 ==> \forall integer m, g; \old(env_ok(m, g, d)) ==> env_ok(m, g, \result);
    ensures env_keep{Pre, Post};
*/
static int rev_ext(int d, int ty)
{
  int r = b_ext(d, ty);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert tm_inv;
  //@ assert kernel_inv;
  //@ assert memo_inv;
  //@ assert tsrc_inv;
  //@ assert csrc_inv;
  //@ assert msrc_inv;
  //@ assert src_inv;
  //@ assert cot_lin;
  //@ assert \forall integer m, g, e; \at(env_ok(m, g, e), Pre) ==> env_ok(m, g, e);
  return r;
}

/* Recursion measures (WP `decreases`): rev(t, d, x) calls rev_rule with
 * the same x, which calls the rule of t's kind with the same x; a rule
 * calls rev and rev_under with x + 1 (or its *_body with x, which does);
 * R(case)'s rev_case_body and rev_case_last call rev_case_branch with
 * x + 1, which calls rev_under with x + 2. Every call lowers REV_M(x) = 5 *
 * (CHAD_MAX_DEPTH + 2 - x) plus a per-function offset (rev_rule -1, rule
 * -2, *_body -3, rev_case_last -4, rev_under +1, rev_case_branch 0), so the
 * measure decreases on every edge of the call graph. */
#define REV_M(x) (5 * (CHAD_MAX_DEPTH + 2 - (x)))

/*@ requires REV_INV;
    requires 0 <= c < tm_count && chad_msrc_[c] == 1;
    requires 0 < tm_ctx_[c] < ctx_count;
    requires d < 0 || env_ok(CHAD_PREV, ctx_parent_[tm_ctx_[c]], d);
    requires d >= 0 && lvl >= 0 ==> 0 <= lvl < ctx_len_[d] &&
      trh(CHAD_PREV, ctx_type_[tm_ctx_[c]]) &&
      lvl_ty(d, lvl) == trm(CHAD_PREV, ctx_type_[tm_ctx_[c]]);
    requires d >= 0 || d == CHAD_E_CAPACITY;
    requires lvl >= 0 || lvl == CHAD_E_CAPACITY;
    requires depth >= 0;
    terminates \true;
    decreases REV_M(depth) + 1;
    REV_ASSIGNS;
    REV_FRAME;
    ensures \result >= 0 ==> \old(tm_count) <= \result < tm_count &&
      tm_ctx_[\result] == d && rev_ty(tm_ty_[\result], \old(tm_ty_[c]), \old(tm_ctx_[c]));
    ensures \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures tm_count - \old(tm_count) <= REV_K * chad_msz_[c];
*/
static int rev_under(int c, int d, int lvl, int depth)
{
  /* env_keep{Pre, Post} on every path, each its own goal: as one
   * postcondition goal Z3 had run to its 30 s limit (cvc5: 3.4 s) */
  if (depth > CHAD_MAX_DEPTH) {
    //@ assert env_keep{Pre, Here};
    return CHAD_E_DEPTH;
  }
  if (d < 0) {
    //@ assert env_keep{Pre, Here};
    return d;
  }
  if (lvl < 0) {
    //@ assert env_keep{Pre, Here};
    return lvl;
  }
  //@ assert venv_wf;
  //@ ghost int n0 = ctx_count;
  //@ ghost int gc = tm_ctx_[c];
  //@ assert ctx_inv && ctx_node_ok(gc);
  //@ assert 0 <= ctx_parent_[gc] < gc && ctx_len_[gc] == ctx_len_[ctx_parent_[gc]] + 1;
  //@ assert ctx_lk(gc, 0) == ctx_type_[gc];
  //@ assert \forall integer k; 1 <= k ==> ctx_lk(gc, k) == ctx_lk(ctx_parent_[gc], k - 1);
  int e = venv_push(ENV_LEVEL, lvl);
  if (e < 0) {
    //@ assert env_same{Pre, Here} && env_tables{Pre, Here};
    //@ assert env_keep{Pre, Here};
    return e;
  }
  //@ ghost Pushed: ;
  /*@ assert \forall integer i; 0 <= i < \at(venv_sp, Pre) ==>
        venv_kind_[i] == \at(venv_kind_[i], Pre) && venv_val_[i] == \at(venv_val_[i], Pre); */
  //@ assert env_kind(0) == ENV_LEVEL && env_val(0) == lvl;
  /*@ assert \forall integer k; 1 <= k < ctx_len_[gc] ==>
        env_kind(k) == ENV_LEVEL && 0 <= env_val(k) < ctx_len_[d] &&
        trh(CHAD_PREV, ctx_lk(gc, k)) && lvl_ty(d, env_val(k)) == trm(CHAD_PREV, ctx_lk(gc, k)); */
  //@ assert env_ok(CHAD_PREV, gc, d);
  int r = rev(c, d, depth + 1);
  //@ assert venv_sp == \at(venv_sp, Pushed) && venv_sp > venv_cur.base;
  /*@ assert \forall integer i; 0 <= i < \at(venv_sp, Pushed) ==>
        venv_kind_[i] == \at(venv_kind_[i], Pushed) && venv_val_[i] == \at(venv_val_[i], Pushed); */
  venv_pop();
  //@ assert venv_sp == \at(venv_sp, Pre) && venv_cur == \at(venv_cur, Pre);
  /*@ assert \forall integer i; 0 <= i < \at(venv_sp, Pre) ==>
        venv_kind_[i] == \at(venv_kind_[i], Pre) && venv_val_[i] == \at(venv_val_[i], Pre); */
  /* env_keep{Pre, Here} in steps: the entry pushed is popped, so the
   * environment is Pre's again; the tables it reads only grew */
  //@ assert under_same: env_same{Pre, Here};
  //@ assert under_len: \forall integer h; 0 <= h < \at(ctx_count, Pre) ==> ctx_len_[h] == \at(ctx_len_[h], Pre);
  /* the lookups of older contexts: their entries are unchanged (the
   * assigns clauses), so by induction on the context, parents first */
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
  return r;
}

#include "reverse/pair_lin.c"

#include "reverse/let_lin.c"

#include "reverse/index_lin.c"

/* ---- one function per rule (card §5). Each gets the source node t, the
 * target context d, g = ctx of t, cg = C g, ty = type of t, ct = C ty. ---- */

/* b_llam and b_pair seen from the pass: they may append a type, and keep
 * every invariant of the pass (the frame is proved once here, not in each
 * rule, where the solvers did not find it among the states of a rule). */
#define OKCAP (\result >= 0 || \result == CHAD_E_CAPACITY)
/*@ requires REV_INV;
    terminates \true; assigns CH_TM_LOCS, CH_TY_LOCS;
    ensures REV_INV;
    ensures CH_UNCHANGED; ensures CH_GROW1; ensures \old(ty_count) <= ty_count;
    ensures dom < 0 ==> \result == dom; ensures dom >= 0 && body < 0 ==> \result == body;
    ensures \result >= 0 ==>
      CH_NEW(TM_LLAM, ctx_parent_[\old(tm_ctx_[body])], body, -1, -1, 0) &&
      ty_same(tm_ty_[\result], TY_LFUN, dom, \old(tm_ty_[body]));
    ensures \old(ty_valid(dom) && 0 <= body < tm_count && llam_ok(dom, tm_ctx_[body], tm_ty_[body])) ==> OKCAP;
*/
static int r_llam(int dom, int body)
{
  int r = b_llam(dom, body);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert memo_inv;
  //@ assert tsrc_inv;
  //@ assert csrc_inv;
  /*@ assert \forall integer u; 0 <= u < CHAD_MAX_TERMS && chad_msrc_[u] == 1 ==>
        \at(msrc_ok(u) && msz_ok(u), Pre); */
  //@ assert msrc_inv;
  //@ assert cot_lin;
  return r;
}

/*@ requires REV_INV;
    terminates \true; assigns CH_TM_LOCS, CH_TY_LOCS;
    ensures REV_INV;
    ensures CH_UNCHANGED; ensures CH_GROW1; ensures \old(ty_count) <= ty_count;
    ensures a < 0 ==> \result == a; ensures a >= 0 && b < 0 ==> \result == b;
    ensures \result >= 0 ==> CH_NEW(TM_PAIR, \old(tm_ctx_[a]), a, b, -1, 0) &&
      ty_same(tm_ty_[\result], TY_PROD, \old(tm_ty_[a]), \old(tm_ty_[b]));
    ensures \old(0 <= a < tm_count && 0 <= b < tm_count && tm_ctx_[a] == tm_ctx_[b]) ==> OKCAP;
*/
static int r_pair(int a, int b)
{
  int r = b_pair(a, b);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert memo_inv;
  //@ assert tsrc_inv;
  //@ assert csrc_inv;
  /*@ assert \forall integer u; 0 <= u < CHAD_MAX_TERMS && chad_msrc_[u] == 1 ==>
        \at(msrc_ok(u) && msz_ok(u), Pre); */
  //@ assert msrc_inv;
  //@ assert cot_lin;
  return r;
}

#include "reverse/var.c"

#include "reverse/const.c"

#include "reverse/let.c"

#include "reverse/lam.c"

#include "reverse/app.c"

#include "reverse/pair.c"

#include "reverse/unary.c"

#include "reverse/case.c"

#include "reverse/iter.c"

#include "reverse/loop.c"

#include "reverse/build.c"

#include "reverse/index.c"

#include "reverse/map.c"

/* The rule of t's kind, once rev has the translations (split from rev so
 * that the per-rule paths are proved without rev's translation states). */
/*@ RULE_PRE(t, d, \true);
    requires g == tm_ctx_[t] && cg == trc(CHAD_COT, g) && ty == tm_ty_[t];
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases REV_M(depth) - 1;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_rule(int t, int d, int g, int cg, int ty, int ct, int depth)
{
  int r;
  switch (tm_kind(t)) {
  case TM_VAR: r = rev_var(t, d, g, ct); break;
  case TM_UNIT: case TM_RCONST: case TM_ICONST: r = rev_const(t, d, cg, ct); break;
  case TM_LET: r = rev_let(t, d, ct, depth); break;
  case TM_LAM: r = rev_lam(t, d, ty, ct, depth); break;
  case TM_APP: r = rev_app(t, d, ct, depth); break;
  case TM_PAIR: r = rev_pair(t, d, ct, depth); break;
  case TM_FST: case TM_SND: case TM_SUM: case TM_LENGTH: case TM_OP:
  case TM_INL: case TM_INR:
    r = rev_unary(t, d, cg, ty, ct, depth); break;
  case TM_CASE: r = rev_case(t, d, ct, depth); break;
  case TM_ITER: r = rev_iter(t, d, ct, depth); break;
  case TM_LOOP: r = rev_loop(t, d, ct, depth); break;
  case TM_BUILD: r = rev_build(t, d, ct, depth); break;
  case TM_INDEX: r = rev_index(t, d, ct, depth); break;
  case TM_MAP: r = rev_map(t, d, ct, depth); break;
  default: r = CHAD_E_TYPE; break;
  }
  return r;
}

/*@ REV_PRE(t, d);
    requires depth >= 0;
    terminates \true;
    decreases REV_M(depth);
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev(int t, int d, int depth)
{
  if (depth > CHAD_MAX_DEPTH)
    return CHAD_E_DEPTH;
  if (d < 0)
    return d;
  int g = tm_ctx(t);
  //@ assert src_inv && msrc_ok(t) && 0 <= g < ctx_count && chad_csrc_[g] == 1;
  //@ assert chad_tsrc_[tm_ty_[t]] == 1;
  /* the translations may memoise new cotangent types before they fail:
   * cot_lin (part of REV_INV) is re-established on every path after them.
   * On each path its result code and the environment frame, each its own
   * goal (as one postcondition over all paths they timed out). */
  int cg = tr_ctx(CHAD_COT, g);           /* C G */
  if (cg < 0) {
    //@ ghost cot_lin_lemma();
    //@ assert cg == CHAD_E_CAPACITY || cg == CHAD_E_DEPTH;
    //@ assert env_keep{Pre, Here};
    return cg;
  }
  int ty = tm_type(t);
  int pt = tr_ty(CHAD_PREV, ty);          /* P tau: memoised for the contract */
  if (pt < 0) {
    //@ ghost cot_lin_lemma();
    //@ assert pt == CHAD_E_CAPACITY || pt == CHAD_E_DEPTH;
    //@ assert env_keep{Pre, Here};
    return pt;
  }
  int ct = tr_ty(CHAD_COT, ty);           /* C tau */
  //@ ghost cot_lin_lemma();
  //@ assert ct < 0 ==> ct == CHAD_E_CAPACITY || ct == CHAD_E_DEPTH;
  //@ assert env_keep{Pre, Here};
  if (ct < 0)
    return ct;
  return rev_rule(t, d, g, cg, ty, ct, depth);
}

/* R(t) into d, with the ghost columns and the memo fresh and pg = P G:
 * d must extend P G, i.e. its prefix of length |G| is pg (contexts are
 * hash-consed, so an equal prefix has the same id); source variable k is
 * then level |G|-1-k of d (the identity environment). As fwd_entry. */
/*@ requires kernel_inv && memo_inv && src_inv && venv_wf;
    requires 0 <= t < tm_count && chad_msrc_[t] == 1;
    requires trch(CHAD_PREV, tm_ctx_[t]) && pg == trc(CHAD_PREV, tm_ctx_[t]);
    requires ctx_valid(pg) && ctx_len_[pg] == ctx_len_[tm_ctx_[t]];
    terminates \true;
    REV_ASSIGNS, venv_cur;
    ensures kernel_inv && memo_inv && src_inv && venv_wf;
    ensures venv_sp == \old(venv_sp) && venv_cur == \old(venv_cur);
    ensures memo_grows{Pre, Post};
    ensures trch(CHAD_PREV, tm_ctx_[t]) && pg == trc(CHAD_PREV, tm_ctx_[t]);
    ensures \old(tm_count) <= tm_count;
    ensures tm_count - \old(tm_count) <= REV_K * chad_msz_[t];
    ensures \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH ||
      \result == CHAD_E_ARG;
    ensures \result == CHAD_E_ARG <==> !\old(ctx_extends(d, pg));
    ensures \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      rev_ty(tm_ty_[\result], tm_ty_[t], tm_ctx_[t]);
*/
static int rev_entry(int t, int d, int pg)
{
  int g = tm_ctx(t);
  int n = ctx_length(g);
  if (ctx_prefix(d, n) != pg) {
    //@ assert no_ext: !ctx_extends(d, pg);
    return CHAD_E_ARG;
  }
  //@ assert ext: ctx_extends(d, pg);
  //@ ghost trc_lookup_lemma(CHAD_PREV, g);
  //@ ghost cot_lin_lemma();
  venv_frame old = venv_open(n);
  //@ assert \forall integer k; 0 <= k < n ==> lvl_ty(d, n - 1 - k) == ctx_lk(d, (ctx_len_[d] - n) + k);
  //@ assert env_ok(CHAD_PREV, g, d);
  int r = rev(t, d, 0);
  //@ assert r_code: r >= 0 || r == CHAD_E_CAPACITY || r == CHAD_E_DEPTH;
  venv_restore(old);
  return r;
}

/* The public entry points: t a source term of the arena (tm_srcr, which
 * the checker's output is). They fill the ghost source columns, revalidate
 * the memo (chad_sync) and translate G. */
#define REV_ENTRY_SPEC \
    requires kernel_inv && venv_wf; \
    requires tm_srcr(t); \
    terminates \true; \
    REV_ASSIGNS, venv_cur, \
      chad_tsrc_[0 .. CHAD_MAX_TYPES - 1], chad_csrc_[0 .. CHAD_MAX_CTXS - 1], \
      chad_msrc_[0 .. CHAD_MAX_TERMS - 1], chad_msz_[0 .. CHAD_MAX_TERMS - 1]; \
    ensures kernel_inv && memo_inv && venv_wf; \
    ensures venv_sp == \old(venv_sp) && venv_cur == \old(venv_cur)

/* R(t) emitted into d, which must extend P G (CHAD_E_ARG if not). */
/*@ REV_ENTRY_SPEC;
    ensures rev_in_size: tm_count - \old(tm_count) <= REV_K * \old(tsize(t));
    ensures rev_in_codes: \result >= 0 || \result == CHAD_E_CAPACITY ||
      \result == CHAD_E_DEPTH || \result == CHAD_E_ARG;
    ensures rev_in_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count &&
      tm_ctx_[\result] == d &&
      trch(CHAD_PREV, tm_ctx_[t]) &&
      rev_ty(tm_ty_[\result], tm_ty_[t], tm_ctx_[t]);
*/
int chad_rev_in(int t, int d)
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
  int pg = tr_ctx(CHAD_PREV, g);
  if (pg < 0)
    return pg;
  return rev_entry(t, d, pg);
}

/* R(t) in P G itself. */
/*@ REV_ENTRY_SPEC;
    ensures rev_top_size: tm_count - \old(tm_count) <= REV_K * \old(tsize(t));
    ensures rev_top_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures rev_top_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count &&
      trch(CHAD_PREV, tm_ctx_[t]) && tm_ctx_[\result] == trc(CHAD_PREV, tm_ctx_[t]) &&
      rev_ty(tm_ty_[\result], tm_ty_[t], tm_ctx_[t]);
*/
int chad_rev(int t)
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
  int pg = tr_ctx(CHAD_PREV, g);
  if (pg < 0)
    return pg;
  //@ assert ctx_extends(pg, pg);
  return rev_entry(t, pg, pg);
}
