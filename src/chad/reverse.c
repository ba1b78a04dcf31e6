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

/* The linear half of R(pair a b), in d2 where level lp holds p = R a and
 * level lq holds q = R b:   \v. snd p (fst v) + snd q (snd v)
 * of type C(a * b) -o C G, with ct = C(a * b) = C a * C b. */
/*@ requires kernel_inv;
    requires ctx_valid(d2) && ty_valid(ct) && ty_kind_[ct] == TY_PROD && lin(cg);
    requires lin_at(d2, lp, ty_left_[ct], cg) && lin_at(d2, lq, ty_right_[ct], cg);
    terminates \true;
    assigns CH_TM_LOCS, CH_TMS_LOCS, CH_TYS_LOCS, CH_CTX_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures pair_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d2 &&
      ty_same(tm_ty_[\result], TY_LFUN, ct, cg);
    ensures pair_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures pair_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 12;
    ensures pair_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures pair_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures pair_lin_lvl: \forall integer l; 0 <= l < ctx_len_[d2] ==> lvl_ty(d2, l) == \old(lvl_ty(d2, l));
    ensures env_keep{Pre, Post};
*/
static int rev_pair_lin(int d2, int lp, int lq, int ct) /*@ ghost (int cg) */
{
  //@ ghost int ca = ty_left_[ct];
  //@ ghost int cb = ty_right_[ct];
  //@ assert ty_node_ok(ct);
  int lv = L(d2), d3 = k_ext(d2, ct);
  if (d3 < 0) return d3;
  //@ assert lvl_ty(d3, lv) == ct && lvl_ty(d3, lp) == lvl_ty(d2, lp) && lvl_ty(d3, lq) == lvl_ty(d2, lq);
  int vp = V(d3, lp);
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d3 && ty_same(tm_ty_[sp], TY_LFUN, ca, cg);
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int v1 = V(d3, lv);
  //@ assert v1 >= 0 ==> tm_ctx_[v1] == d3 && tm_ty_[v1] == ct;
  //@ assert v1 >= 0 || v1 == CHAD_E_CAPACITY;
  int x1 = b_fst(v1);
  //@ assert x1 >= 0 ==> tm_ctx_[x1] == d3 && tm_ty_[x1] == ca;
  //@ assert x1 >= 0 || x1 == CHAD_E_CAPACITY;
  int l1 = b_lapp(sp, x1);
  //@ assert l1 >= 0 ==> tm_ctx_[l1] == d3 && tm_ty_[l1] == cg;
  //@ assert l1 >= 0 || l1 == CHAD_E_CAPACITY;
  int vq = V(d3, lq);
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int sq = b_snd(vq);
  //@ assert sq >= 0 ==> tm_ctx_[sq] == d3 && ty_same(tm_ty_[sq], TY_LFUN, cb, cg);
  //@ assert sq >= 0 || sq == CHAD_E_CAPACITY;
  int v2 = V(d3, lv);
  //@ assert v2 >= 0 ==> tm_ctx_[v2] == d3 && tm_ty_[v2] == ct;
  //@ assert v2 >= 0 || v2 == CHAD_E_CAPACITY;
  int x2 = b_snd(v2);
  //@ assert x2 >= 0 ==> tm_ctx_[x2] == d3 && tm_ty_[x2] == cb;
  //@ assert x2 >= 0 || x2 == CHAD_E_CAPACITY;
  int l2 = b_lapp(sq, x2);
  //@ assert l2 >= 0 ==> tm_ctx_[l2] == d3 && tm_ty_[l2] == cg;
  //@ assert l2 >= 0 || l2 == CHAD_E_CAPACITY;
  int sum = b_plus(l1, l2);
  //@ assert sum >= 0 ==> tm_ctx_[sum] == d3 && tm_ty_[sum] == cg;
  //@ assert sum >= 0 || sum == CHAD_E_CAPACITY;
  //@ assert sum >= 0 ==> ty_valid(ct) && 0 <= sum < tm_count && llam_ok(ct, tm_ctx_[sum], tm_ty_[sum]);
  //@ assert ctx_parent_[d3] == d2;
  int r = b_llam(ct, sum);
  /* pair_lin_type in steps: as one goal it ran Z3 and cvc5 to their 30 s
   * limits before CVC4 proved it (66 CPU-s of rev-fns) */
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d2;
  //@ assert r >= 0 ==> ty_same(tm_ty_[r], TY_LFUN, ct, cg);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d2 && ty_same(tm_ty_[r], TY_LFUN, ct, cg);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The linear half of R(let a (x. b)), in d3 where level lp holds
 * p = R a : P a * (C a -o C G) (type tp) and level lq holds
 * q = R_{G,x} b : P tau * (C tau -o C(G, x)) (type tq), with
 * C(G, x) = C G * C a (cgb):
 *   \v. let g = snd q v in fst g + snd p (snd g)    : C tau -o C G
 * (ct = C tau, cg = C G, ca = C a). Against the kernel's invariant only,
 * as rev_pair_lin. */
/*@ requires kernel_inv;
    requires ctx_valid(d3) && ty_valid(ct) && lin(cg);
    requires ty_valid(cgb) && ty_same(cgb, TY_PROD, cg, ca);
    requires 0 <= lp < ctx_len_[d3] && lvl_ty(d3, lp) == tp && ty_valid(tp) &&
      ty_kind_[tp] == TY_PROD && ty_same(ty_right_[tp], TY_LFUN, ca, cg);
    requires 0 <= lq < ctx_len_[d3] && lvl_ty(d3, lq) == tq && ty_valid(tq) &&
      ty_kind_[tq] == TY_PROD && ty_same(ty_right_[tq], TY_LFUN, ct, cgb);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures let_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d3 &&
      ty_same(tm_ty_[\result], TY_LFUN, ct, cg);
    ensures let_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures let_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 14;
    ensures let_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures let_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures env_keep{Pre, Post};
*/
static int rev_let_lin(int d3, int lp, int lq, int ct)
  /*@ ghost (int cg, int ca, int cgb, int tp, int tq) */
{
  //@ assert ty_inv && ty_node_ok(tp) && ty_node_ok(tq);
  //@ ghost int tsp = ty_right_[tp];
  //@ ghost int tsq = ty_right_[tq];
  //@ assert ty_valid(tsp) && ty_valid(tsq);
  int lv = L(d3), d4 = k_ext(d3, ct);
  if (d4 < 0) return d4;
  //@ ghost E4: ;
  //@ assert d4_lv: lvl_ty(d4, lv) == ct && lv == ctx_len_[d3];
  //@ assert d4_lp: lvl_ty(d4, lp) == tp && lvl_ty(d4, lq) == tq;
  //@ assert d4_ctx: ctx_valid(d4) && ctx_is_ext(d4, d3, ct) && ctx_len_[d4] == lv + 1;
  int vq = b_var(d4, lq);
  //@ assert vq >= 0 ==> tm_ctx_[vq] == d4 && tm_ty_[vq] == tq && 0 <= vq < tm_count;
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int sq = b_snd(vq);
  //@ assert sq >= 0 ==> tm_ctx_[sq] == d4 && ty_same(tm_ty_[sq], TY_LFUN, ct, cgb) && 0 <= sq < tm_count;
  //@ assert sq >= 0 || sq == CHAD_E_CAPACITY;
  int v = b_var(d4, lv);
  //@ assert v >= 0 ==> tm_ctx_[v] == d4 && tm_ty_[v] == ct && 0 <= v < tm_count;
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  int gg = b_lapp(sq, v);
  //@ assert gg >= 0 ==> tm_ctx_[gg] == d4 && tm_ty_[gg] == cgb && 0 <= gg < tm_count;
  //@ assert gg >= 0 || gg == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 4;
  if (gg < 0) return gg;
  int lg = L(d4), d5 = k_ext(d4, tm_type(gg));
  if (d5 < 0) return d5;
  //@ assert d5_lg: lvl_ty(d5, lg) == cgb && lg == ctx_len_[d4];
  //@ assert d5_lp: lvl_ty(d5, lp) == tp;
  //@ assert d5_ctx: ctx_valid(d5) && ctx_is_ext(d5, d4, cgb) && ctx_len_[d5] == lg + 1;
  int w1 = b_var(d5, lg);
  //@ assert w1 >= 0 ==> tm_ctx_[w1] == d5 && tm_ty_[w1] == cgb && 0 <= w1 < tm_count;
  //@ assert w1 >= 0 || w1 == CHAD_E_CAPACITY;
  int f = b_fst(w1);
  //@ assert f >= 0 ==> tm_ctx_[f] == d5 && tm_ty_[f] == cg && 0 <= f < tm_count;
  //@ assert f >= 0 || f == CHAD_E_CAPACITY;
  int vp = b_var(d5, lp);
  //@ assert vp >= 0 ==> tm_ctx_[vp] == d5 && tm_ty_[vp] == tp && 0 <= vp < tm_count;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d5 && ty_same(tm_ty_[sp], TY_LFUN, ca, cg) && 0 <= sp < tm_count;
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int w2 = b_var(d5, lg);
  //@ assert w2 >= 0 ==> tm_ctx_[w2] == d5 && tm_ty_[w2] == cgb && 0 <= w2 < tm_count;
  //@ assert w2 >= 0 || w2 == CHAD_E_CAPACITY;
  int s = b_snd(w2);
  //@ assert s >= 0 ==> tm_ctx_[s] == d5 && tm_ty_[s] == ca && 0 <= s < tm_count;
  //@ assert s >= 0 || s == CHAD_E_CAPACITY;
  int ap = b_lapp(sp, s);
  //@ assert ap >= 0 ==> tm_ctx_[ap] == d5 && tm_ty_[ap] == cg && 0 <= ap < tm_count;
  //@ assert ap >= 0 || ap == CHAD_E_CAPACITY;
  //@ assert f >= 0 ==> tm_ctx_[f] == d5 && tm_ty_[f] == cg && 0 <= f < tm_count;
  int pl = b_plus(f, ap);
  //@ assert pl >= 0 ==> tm_ctx_[pl] == d5 && tm_ty_[pl] == cg && 0 <= pl < tm_count;
  //@ assert pl >= 0 || pl == CHAD_E_CAPACITY;
  //@ assert tm_ctx_[gg] == d4 && tm_ty_[gg] == cgb && 0 <= gg < tm_count && ctx_is_ext(d5, d4, cgb);
  int body = b_let(gg, pl);
  //@ assert body >= 0 ==> tm_ctx_[body] == d4 && tm_ty_[body] == cg && 0 <= body < tm_count;
  //@ assert body >= 0 || body == CHAD_E_CAPACITY;
  //@ assert ctx_is_ext(d4, d3, ct) && lin(cg);
  //@ assert body >= 0 ==> ty_valid(ct) && 0 <= body < tm_count && llam_ok(ct, tm_ctx_[body], tm_ty_[body]);
  int r = b_llam(ct, body);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d3;
  //@ assert r >= 0 ==> ty_same(tm_ty_[r], TY_LFUN, ct, cg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 14;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The linear half of R(index a b), in d2 where level lp holds p = R a
 * (type tp = P(Arr tau) * (ca -o cg), ca = C(Arr tau) = Arr C tau) and
 * level lq holds q = R b (type tq = Int * _):
 *   \v. snd p (onehot (fst q) v)    : C tau -o C G
 * (ct = C tau, cg = C G). Against the kernel's invariant only, as
 * rev_pair_lin. */
/*@ requires kernel_inv;
    requires ctx_valid(d2) && lin(ct) && lin(cg);
    requires ty_valid(ca) && ty_same(ca, TY_ARR, ct, -1);
    requires 0 <= lp < ctx_len_[d2] && lvl_ty(d2, lp) == tp && ty_valid(tp) &&
      ty_kind_[tp] == TY_PROD && ty_same(ty_right_[tp], TY_LFUN, ca, cg);
    requires 0 <= lq < ctx_len_[d2] && lvl_ty(d2, lq) == tq && ty_valid(tq) &&
      ty_kind_[tq] == TY_PROD && ty_left_[tq] == TY_ID_INT;
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures idx_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d2 &&
      ty_same(tm_ty_[\result], TY_LFUN, ct, cg);
    ensures idx_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures idx_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 8;
    ensures idx_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures idx_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures idx_lin_lvl: \forall integer l; 0 <= l < ctx_len_[d2] ==> lvl_ty(d2, l) == \old(lvl_ty(d2, l));
    ensures env_keep{Pre, Post};
*/
static int rev_index_lin(int d2, int lp, int lq, int ct) /*@ ghost (int cg, int ca, int tp, int tq) */
{
  int lv = L(d2), d3 = k_ext(d2, ct);
  if (d3 < 0) return d3;
  //@ assert lvl_ty(d3, lv) == ct && lvl_ty(d3, lp) == tp && lvl_ty(d3, lq) == tq;
  int vp = V(d3, lp);
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d3 && ty_same(tm_ty_[sp], TY_LFUN, ca, cg) && 0 <= sp < tm_count;
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int vq = V(d3, lq);
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int jq = b_fst(vq);
  //@ assert jq >= 0 ==> tm_ctx_[jq] == d3 && tm_ty_[jq] == TY_ID_INT && 0 <= jq < tm_count;
  //@ assert jq >= 0 || jq == CHAD_E_CAPACITY;
  int v = V(d3, lv);
  //@ assert v >= 0 ==> tm_ctx_[v] == d3 && tm_ty_[v] == ct && 0 <= v < tm_count;
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  //@ assert jq >= 0 && v >= 0 ==> onehot_ok(tm_ctx_[jq], tm_ty_[jq], tm_ctx_[v], tm_ty_[v]);
  int oh = b_onehot(jq, v);
  //@ assert oh >= 0 ==> tm_ctx_[oh] == d3 && ty_same(tm_ty_[oh], TY_ARR, ct, -1) && ty_valid(tm_ty_[oh]) && 0 <= oh < tm_count;
  //@ assert oh >= 0 || oh == CHAD_E_CAPACITY;
  //@ assert ty_inv && ty_valid(ca) && ty_same(ca, TY_ARR, ct, -1);
  //@ assert oh >= 0 ==> tm_ty_[oh] == ca;
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d3 && ty_same(tm_ty_[sp], TY_LFUN, ca, cg) && 0 <= sp < tm_count;
  int ap = b_lapp(sp, oh);
  //@ assert ap >= 0 ==> tm_ctx_[ap] == d3 && tm_ty_[ap] == cg && 0 <= ap < tm_count;
  //@ assert ap >= 0 || ap == CHAD_E_CAPACITY;
  //@ assert ap >= 0 ==> ty_valid(ct) && 0 <= ap < tm_count && llam_ok(ct, tm_ctx_[ap], tm_ty_[ap]);
  //@ assert ctx_parent_[d3] == d2;
  int r = b_llam(ct, ap);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d2;
  //@ assert r >= 0 ==> ty_same(tm_ty_[r], TY_LFUN, ct, cg);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

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

/* b_var seen from the pass (the frame proved once here, as for r_pair) */
/*@ requires REV_INV;
    terminates \true; assigns CH_TM_LOCS;
    ensures REV_INV;
    ensures CH_UNCHANGED; ensures CH_GROW1; ensures \old(ty_count) == ty_count;
    ensures d < 0 ==> \result == d;
    ensures \result >= 0 ==> 0 <= lvl < ctx_len_[d] && \result == \old(tm_count) &&
      tm_count == \old(tm_count) + 1 &&
      tm_ctx_[\result] == d && tm_ty_[\result] == lvl_ty(d, lvl);
    ensures ctx_valid(d) && 0 <= lvl < ctx_len_[d] ==> OKCAP;
*/
static int r_var(int d, int lvl)
{
  int r = b_var(d, lvl);
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

/* chad_onehot_tuple seen from the pass (the frame proved once here) */
/*@ requires REV_INV;
    requires 0 < g < ctx_count && trch(CHAD_COT, g) && 0 <= k < ctx_len_[g];
    requires v < 0 || (0 <= v < tm_count && ctx_valid(tm_ctx_[v]) &&
      trh(CHAD_COT, ctx_lk(g, k)) && tm_ty_[v] == trm(CHAD_COT, ctx_lk(g, k)));
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, chad_chain_[0 .. CHAD_MAX_CTXS - 1];
    ensures REV_INV;
    ensures \old(tm_count) <= tm_count <= \old(tm_count) + 2 * k + 2;
    ensures \old(ty_count) <= ty_count;
    ensures v < 0 ==> \result == v;
    ensures v >= 0 ==> \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures \result >= 0 ==> \old(tm_count) <= \result < tm_count &&
      tm_ctx_[\result] == \old(tm_ctx_[v]) && tm_ty_[\result] == trc(CHAD_COT, g);
*/
static int r_onehot(int v, int g, int k)
{
  //@ assert memo_inv && cot_lin;
  int r = chad_onehot_tuple(v, g, k);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert memo_inv;
  /* tsrc_inv and msrc_inv over the callee's range appends: without the two
   * field frames below (older entries unchanged) each timed out (20 s, all
   * three provers); with them Z3 answers at once */
  /*@ assert \forall integer x; 0 <= x < CHAD_MAX_TYPES && chad_tsrc_[x] == 1 ==>
        \at(tsrc_ok(x), Pre); */
  /*@ assert \forall integer x; 0 <= x < \at(ty_count, Pre) ==> ty_kind_[x] == \at(ty_kind_[x], Pre) &&
        ty_left_[x] == \at(ty_left_[x], Pre) && ty_right_[x] == \at(ty_right_[x], Pre); */
  //@ assert tsrc_inv;
  //@ assert csrc_inv;
  /*@ assert \forall integer u; 0 <= u < CHAD_MAX_TERMS && chad_msrc_[u] == 1 ==>
        \at(msrc_ok(u) && msz_ok(u), Pre); */
  /*@ assert \forall integer u; 0 <= u < \at(tm_count, Pre) ==> tm_kind_[u] == \at(tm_kind_[u], Pre) &&
        tm_ctx_[u] == \at(tm_ctx_[u], Pre) && tm_ty_[u] == \at(tm_ty_[u], Pre) &&
        tm_a_[u] == \at(tm_a_[u], Pre) && tm_b_[u] == \at(tm_b_[u], Pre) &&
        tm_c_[u] == \at(tm_c_[u], Pre) && tm_aux_[u] == \at(tm_aux_[u], Pre); */
  //@ assert msrc_inv;
  //@ assert cot_lin;
  return r;
}

/* The linear half of R(var k): \v. onehot_k v : C tau -o C G, in d (v is
 * the new last level of d1 = d, C tau). Its own function so that the frame
 * of rev_ext is carried by this contract (see rev_zero_lin). */
/*@ requires REV_INV;
    requires ctx_valid(d) && lin(ct);
    requires 0 < g < ctx_count && trch(CHAD_COT, g) && 0 <= k < ctx_len_[g];
    requires trh(CHAD_COT, ctx_lk(g, k)) && ct == trm(CHAD_COT, ctx_lk(g, k));
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTX_LOCS, CH_EXT_STATE,
      chad_chain_[0 .. CHAD_MAX_CTXS - 1];
    ensures REV_INV;
    ensures \old(tm_count) <= tm_count <= \old(tm_count) + 2 * k + 4;
    ensures \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures env_keep{Pre, Post};
    ensures \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_same(tm_ty_[\result], TY_LFUN, ct, trc(CHAD_COT, g));
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
*/
static int rev_onehot_lin(int d, int g, int k, int ct)
{
  int lv = L(d);
  //@ ghost int n0 = ctx_count;
  int d1 = rev_ext(d, ct);
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  /* g's lookups after the extension: the older entries are unchanged (the
   * assigns clause), so by induction on the context, parents first */
  /*@ ghost
    int h = 0;
    /@ loop invariant 0 <= h <= n0;
       loop invariant \forall integer h2, k2; 0 <= h2 < h ==>
         ctx_lk(h2, k2) == \at(ctx_lk(h2, k2), Pre);
       loop assigns h;
       loop variant n0 - h;
    @/
    for (h = 0; h < n0; h++) {
      /@ assert \let hh = h; ctx_parent_[hh] == \at(ctx_parent_[hh], Pre); @/
      /@ assert \let hh = h; ctx_type_[hh] == \at(ctx_type_[hh], Pre); @/
      /@ assert \let hh = h; \forall integer k2; ctx_lk(hh, k2) == \at(ctx_lk(hh, k2), Pre); @/
    }
  */
  //@ assert ctx_lk(g, k) == \at(ctx_lk(g, k), Pre);
  //@ assert d1 >= 0 ==> ctx_valid(d1) && ctx_len_[d1] == lv + 1 && lvl_ty(d1, lv) == ct;
  int v = r_var(d1, lv);
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  //@ assert v >= 0 ==> 0 <= v < tm_count && tm_ctx_[v] == d1 && ctx_valid(d1) && tm_ty_[v] == ct;
  //@ assert trh(CHAD_COT, ctx_lk(g, k)) && ct == trm(CHAD_COT, ctx_lk(g, k));
  int body = r_onehot(v, g, k);
  //@ assert body >= 0 || body == CHAD_E_CAPACITY;
  //@ assert body >= 0 ==> tm_ctx_[body] == d1 && tm_ty_[body] == trc(CHAD_COT, g) && 0 <= body < tm_count;
  //@ assert cot_lin && lin(trc(CHAD_COT, g));
  //@ assert body >= 0 ==> llam_ok(ct, tm_ctx_[body], tm_ty_[body]);
  int lam = r_llam(ct, body);
  return lam;
}

/* R(var k) = (x, \v. onehot_k v), x the level of k in d */
/*@ RULE_PRE(t, d, tm_kind_[t] == TM_VAR);
    requires g == tm_ctx_[t];
    terminates \true;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_var(int t, int d, int g, int ct)
{
  //@ assert node_ok(t) && msrc_ok(t) && msz_ok(t);
  //@ assert 0 <= tm_aux_[t] < ctx_len_[g] && tm_ty_[t] == ctx_lk(g, tm_aux_[t]);
  //@ assert ctx_valid(g) && ctx_len_[g] <= g < CHAD_MAX_CTXS;
  int k = (int)tm_aux(t);
  int kind = ENV_LEVEL;
  //@ assert env_kind(k) == ENV_LEVEL && 0 <= env_val(k) < ctx_len_[d];
  //@ assert trh(CHAD_PREV, ctx_lk(g, k)) && lvl_ty(d, env_val(k)) == trm(CHAD_PREV, ctx_lk(g, k));
  //@ assert k < env_n + venv_cur.idlen;
  int lvl = venv_lookup(k, &kind);
  //@ assert lvl == env_val(k) && kind == ENV_LEVEL;
  if (lvl < 0)
    return lvl;
  if (kind != ENV_LEVEL)
    return CHAD_E_ARG;
  //@ assert 0 < g && trch(CHAD_COT, g) && lin(ct) && lin(trc(CHAD_COT, g));
  //@ ghost int tau = tm_ty_[t];
  //@ assert lvl_ty(d, lvl) == trm(CHAD_PREV, tau);
  int lam = rev_onehot_lin(d, g, k, ct);
  //@ ghost Lin: ;
  //@ assert lam >= 0 || lam == CHAD_E_CAPACITY;
  //@ assert lam >= 0 ==> tm_ctx_[lam] == d && 0 <= lam < tm_count;
  //@ assert lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, ct, trc(CHAD_COT, g)) && ty_valid(tm_ty_[lam]);
  //@ assert \let l = lvl; ctx_len_[d] == \at(ctx_len_[d], Pre) && lvl_ty(d, l) == \at(lvl_ty(d, l), Pre);
  int x = r_var(d, lvl);
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  //@ assert x >= 0 ==> tm_ctx_[x] == d && tm_ty_[x] == trm(CHAD_PREV, tau) && 0 <= x < tm_count;
  //@ assert lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, ct, trc(CHAD_COT, g)) && ty_valid(tm_ty_[lam]);
  //@ ghost Lam: ;
  int r = r_pair(x, lam);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  /* the result type in steps (as for rev_const) */
  //@ assert r >= 0 ==> tm_ctx_[r] == d && ty_same(tm_ty_[r], TY_PROD, trm(CHAD_PREV, tau), tm_ty_[lam]);
  //@ assert r >= 0 ==> \at(tm_count, Pre) <= r < tm_count && ty_valid(tm_ty_[r]);
  //@ assert r >= 0 ==> tm_ty_[lam] == \at(tm_ty_[lam], Lam) && tm_ty_[lam] < \at(ty_count, Lam);
  //@ assert r >= 0 ==> ty_same(ty_right_[tm_ty_[r]], TY_LFUN, ct, trc(CHAD_COT, g));
  //@ assert r >= 0 ==> ty_left_[tm_ty_[r]] == trm(CHAD_PREV, \at(tm_ty_[t], Pre));
  //@ assert r >= 0 ==> rev_ty(tm_ty_[r], \at(tm_ty_[t], Pre), \at(tm_ctx_[t], Pre));
  //@ assert tm_count <= \at(tm_count, Pre) + 2 * k + 6;
  //@ assert chad_msz_[t] == sat(k + 1);
  /* the size bound: Z3 had run to its 30 s limit on it (cvc5: 2.2 s) */
  //@ assert 2 * k + 6 <= REV_K * chad_msz_[t];
  //@ assert tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  return r;
}

/* rconst r in d (the double stays in this function's goals) */
/*@ requires kernel_inv;
    requires 0 <= t < tm_count && ctx_valid(d);
    terminates \true;
    assigns CH_TM_LOCS;
    ensures kernel_inv;
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures \result < 0 ==> tm_count == \old(tm_count);
    ensures \result >= 0 ==> \result == \old(tm_count) && tm_count == \old(tm_count) + 1 &&
      tm_ctx_[\result] == d && tm_ty_[\result] == TY_ID_REAL;
*/
static int rev_rconst(int t, int d)
{
  return tm_rconst(d, tm_rval_[t]);
}

/* The primal of a constant: the same constant in d (P tau = tau for Unit,
 * Real, Int). A function of its own so that the double it copies stays out
 * of the rule's proof goals. */
/*@ requires kernel_inv;
    requires 0 <= t < tm_count && ctx_valid(d);
    requires tm_kind_[t] == TM_UNIT || tm_kind_[t] == TM_RCONST || tm_kind_[t] == TM_ICONST;
    terminates \true;
    assigns CH_TM_LOCS;
    ensures kernel_inv;
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures \result < 0 ==> tm_count == \old(tm_count);
    ensures \result >= 0 ==> \result == \old(tm_count) && tm_count == \old(tm_count) + 1 &&
      tm_ctx_[\result] == d && tm_ty_[\result] == \old(tm_ty_[t]);
*/
static int rev_const_prim(int t, int d)
{
  //@ assert node_ok(t);
  //@ ghost int ty = tm_ty_[t];
  int k = tm_kind(t);
  int r;
  if (k == TM_UNIT) {
    //@ assert ty == TY_ID_UNIT;
    r = b_unit(d);
  } else if (k == TM_RCONST) {
    //@ assert ty == TY_ID_REAL;
    r = rev_rconst(t, d);
  } else {
    //@ assert ty == TY_ID_INT;
    r = tm_iconst(d, tm_aux(t));
  }
  //@ assert prim_ty: r >= 0 ==> tm_ty_[r] == ty;
  return r;
}

/* The linear half of R(unit | rconst | iconst): \v. 0 of type C tau -o C G,
 * in d. A function of its own so that the frame of rev_ext (the
 * environment, the lookups) is carried by this small contract rather than
 * found by the solvers among the many states of the rule. */
/*@ requires REV_INV;
    requires ctx_valid(d) && lin(ct) && lin(cg);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTX_LOCS, CH_EXT_STATE;
    ensures REV_INV;
    ensures \old(tm_count) <= tm_count <= \old(tm_count) + 2;
    ensures \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures env_keep{Pre, Post};
    ensures \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_same(tm_ty_[\result], TY_LFUN, ct, cg);
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
*/
static int rev_zero_lin(int d, int cg, int ct)
{
  int d1 = rev_ext(d, ct);
  //@ ghost Ext: ;
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1 >= 0 ==> ctx_is_ext(d1, d, ct) && ctx_valid(d1);
  //@ assert lin(ct) && lin(cg);
  int z = b_zero(d1, cg);
  //@ assert z >= 0 ==> tm_ctx_[z] == d1 && tm_ty_[z] == cg && 0 <= z < tm_count;
  //@ assert z >= 0 || z == CHAD_E_CAPACITY;
  //@ assert tables_grow{Ext, Here} && side_same{Ext, Here};
  //@ assert memo_inv;
  //@ assert tsrc_inv;
  //@ assert msrc_inv;
  //@ assert csrc_inv;
  //@ assert cot_lin;
  //@ assert lin(ct) && lin(cg);
  int lam = r_llam(ct, z);
  return lam;
}

/* R(unit | rconst r | iconst n) = (c, \v. 0) */
/*@ RULE_PRE(t, d, tm_kind_[t] == TM_UNIT || tm_kind_[t] == TM_RCONST || tm_kind_[t] == TM_ICONST);
    requires cg == trc(CHAD_COT, tm_ctx_[t]);
    terminates \true;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_const(int t, int d, int cg, int ct)
{
  //@ assert node_ok(t) && msrc_ok(t) && msz_ok(t);
  //@ assert ty_inv && ty_node_ok(tm_ty_[t]);
  //@ assert tm_ty_[t] == TY_ID_UNIT || tm_ty_[t] == TY_ID_REAL || tm_ty_[t] == TY_ID_INT;
  //@ assert memo_ty_inv && trh(CHAD_PREV, tm_ty_[t]);
  //@ ghost int pt = chad_memo_ty_[CHAD_PREV][tm_ty_[t]] - 1;
  //@ assert pt == tm_ty_[t];
  //@ assert lin(ct) && lin(cg);
  int prim = rev_const_prim(t, d);
  //@ assert prim >= 0 ==> \at(tm_count, Pre) <= prim < tm_count && tm_ctx_[prim] == d && tm_ty_[prim] == pt;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 1;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert memo_inv;
  //@ assert tsrc_inv;
  //@ assert csrc_inv;
  //@ assert msrc_inv;
  //@ assert cot_lin;
  //@ assert lin(ct) && lin(cg);
  //@ ghost Prim: ;
  int lam = rev_zero_lin(d, cg, ct);
  //@ assert lam >= 0 ==> tm_ctx_[lam] == d && ty_same(tm_ty_[lam], TY_LFUN, ct, cg) && 0 <= lam < tm_count;
  //@ assert lam >= 0 ==> ty_valid(tm_ty_[lam]);
  //@ assert lam >= 0 || lam == CHAD_E_CAPACITY;
  /* the pair's operands as r_pair's contract reads them (Z3 had needed
   * its full limit for the two asserts after the call) */
  //@ assert prim >= 0 ==> 0 <= prim < tm_count && tm_ctx_[prim] == d && tm_ty_[prim] == pt;
  //@ assert prim >= 0 && lam >= 0 ==> tm_ctx_[prim] == tm_ctx_[lam];
  //@ ghost Lam: ;
  int r = r_pair(prim, lam);
  //@ assert r >= 0 ==> tm_ctx_[r] == d && ty_same(tm_ty_[r], TY_PROD, pt, tm_ty_[lam]);
  //@ assert r >= 0 ==> \at(tm_count, Pre) <= r < tm_count && ty_valid(tm_ty_[r]);
  //@ assert r >= 0 ==> tm_ty_[lam] == \at(tm_ty_[lam], Lam) && tm_ty_[lam] < \at(ty_count, Lam);
  //@ assert r >= 0 ==> ty_same(ty_right_[tm_ty_[r]], TY_LFUN, ct, cg);
  //@ assert r >= 0 ==> ty_left_[tm_ty_[r]] == trm(CHAD_PREV, \at(tm_ty_[t], Pre));
  //@ assert r >= 0 ==> rev_ty(tm_ty_[r], \at(tm_ty_[t], Pre), \at(tm_ctx_[t], Pre));
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 4;
  return r;
}

/* The second half of R(let a (x. b)), from the call R_{G,x} b on: in
 * d2 = d, p, x (p = R a at level lp, x = fst p at level lx),
 *   let q = R_{G,x} b in let p in let x = fst p in let q in
 *   (fst q, \v. let g = snd q v in fst g + snd p (snd g))
 * One recursive call per function (as rev_pair_body): in one function
 * with R a, d2's entry after the second call (d3_p2) failed under the
 * full gate's load. */
/*@ requires REV_INV;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[b] == gb && tm_ty_[b] == tau;
    requires 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == ta;
    requires env_ok(CHAD_PREV, g, d2);
    requires trh(CHAD_PREV, ta) && trm(CHAD_PREV, ta) == pa && trh(CHAD_COT, ta) && trm(CHAD_COT, ta) == ca;
    requires trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
    requires trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg && lin(cg);
    requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa &&
      ty_same(ty_right_[typ], TY_LFUN, ca, cg);
    requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_len_[d1] == lp + 1 && lp == ctx_len_[d];
    requires ctx_is_ext(d2, d1, pa) && ctx_valid(d2) && ctx_len_[d2] == lx + 1 && lx == lp + 1;
    requires 0 <= d < d1 < d2 < ctx_count;
    terminates \true;
    decreases REV_M(depth) - 3;
    REV_ASSIGNS;
    REV_FRAME;
    ensures lbody_size: tm_count - \old(tm_count) <= REV_K * chad_msz_[b] + 22;
    ensures lbody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures lbody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg);
*/
static int rev_let_body(int b, int p, int d1, int d2, int lp, int lx, int ct, int depth)
  /*@ ghost (int g, int gb, int ta, int tau, int pa, int ca, int pt, int cg, int d, int typ) */
{
  /* the lengths of d, d1, d2 as ghost copies: after the call they are
   * restated one at a time (as one conjunction they timed out) */
  //@ ghost int n0 = ctx_len_[d];
  //@ ghost int n1 = ctx_len_[d1];
  //@ ghost int n2 = ctx_len_[d2];
  //@ ghost int tpr = ty_right_[typ];
  //@ assert x2_tpr: ty_inv && ty_node_ok(typ) && 0 <= tpr < typ && ty_same(tpr, TY_LFUN, ca, cg);
  //@ assert x2_lvl0: lvl_ty(d2, ctx_len_[d1]) == pa;
  //@ assert x2_lvl: 0 <= lx < ctx_len_[d2] && lvl_ty(d2, lx) == pa;
  //@ assert x2_gb: env_ok(CHAD_PREV, ctx_parent_[gb], d2) && trh(CHAD_PREV, ctx_type_[gb]) && trm(CHAD_PREV, ctx_type_[gb]) == pa;
  int q = rev_under(b, d2, lx, depth + 1);
  //@ assert q_keep: env_keep{Pre, Here};
  //@ assert q_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b];
  if (q < 0) return q;
  //@ assert q_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b];
  //@ ghost Q1: ;
  //@ assert q_rev: tm_ctx_[q] == d2 && rev_ty(tm_ty_[q], tau, gb) && 0 <= q < tm_count;
  //@ assert q_memo1: trm(CHAD_PREV, ta) == pa && trm(CHAD_COT, ta) == ca && trc(CHAD_COT, g) == cg;
  //@ assert q_memo2: trh(CHAD_PREV, tau) && trh(CHAD_COT, tau) && trm(CHAD_PREV, tau) == pt && trm(CHAD_COT, tau) == ct;
  //@ assert q_gb: 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == ta && trch(CHAD_COT, gb);
  //@ ghost rev_trc_step(CHAD_COT, gb);
  //@ ghost int cgb = chad_memo_ctx_[CHAD_COT][gb] - 1;
  //@ assert q_cgb0: trc(CHAD_COT, gb) == cgb;
  //@ assert q_cgb: ty_valid(cgb) && ty_same(cgb, TY_PROD, cg, ca);
  //@ ghost int tyq = tm_ty_[q];
  //@ assert q_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, ct, cgb);
  //@ assert q_p: tm_ty_[p] == typ && ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa;
  //@ assert q_pty0: ty_right_[typ] == tpr;
  //@ assert q_pty1: ty_same(tpr, TY_LFUN, ca, cg);
  //@ assert q_pty: ty_same(ty_right_[typ], TY_LFUN, ca, cg);
  //@ assert q_ord: 0 <= d < d1 < d2 < ctx_count;
  //@ assert q_ext1a: ctx_is_ext(d1, d, typ);
  //@ assert q_n0: ctx_len_[d] == n0;
  //@ assert q_n1: ctx_len_[d1] == n1;
  //@ assert q_n2: ctx_len_[d2] == n2;
  //@ assert q_ext1b: ctx_len_[d1] == lp + 1 && lp == ctx_len_[d] && ctx_valid(d);
  //@ assert q_ext2a: ctx_is_ext(d2, d1, pa);
  //@ assert q_ext2b: ctx_len_[d2] == lx + 1 && lx == lp + 1;
  //@ assert q_ext2: ctx_is_ext(d2, d1, pa) && ctx_len_[d2] == lx + 1 && lx == lp + 1;
  //@ assert q_lvl1: lvl_ty(d1, lp) == typ;
  //@ assert q_lvl2: lvl_ty(d2, lp) == typ;
  int lq = L(d2), d3 = rev_ext(d2, tyof(q));
  //@ assert d3 >= 0 || d3 == CHAD_E_CAPACITY;
  //@ assert d3_keep: env_keep{Pre, Here};
  //@ assert d3_ret: d3 < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b] + 22;
  if (d3 < 0) return d3;
  //@ assert d3_ext: ctx_is_ext(d3, d2, tyq) && ctx_len_[d3] == lq + 1 && lq == lx + 1 && ctx_valid(d3);
  //@ assert d3_lq: lq == ctx_len_[d2] && 0 <= lp < lq;
  //@ assert d3_lvl0: lvl_ty(d3, ctx_len_[d2]) == tyq;
  //@ assert d3_lvlq: lvl_ty(d3, lq) == tyq;
  //@ assert d3_lvlp0: lvl_ty(d3, lp) == lvl_ty(d2, lp);
  /* lvl_ty(d2, lp) in this state, from the entries (lemma lvl_ty_ext) */
  //@ assert d3_n0: ctx_len_[d] == n0;
  //@ assert d3_n1: ctx_len_[d1] == n1;
  //@ assert d3_n2: ctx_len_[d2] == n2;
  //@ assert d3_p1: ctx_parent_[d1] == d && ctx_type_[d1] == typ;
  //@ assert d3_p2: ctx_parent_[d2] == d1 && ctx_type_[d2] == pa;
  //@ assert d3_e1a: ctx_is_ext(d1, d, typ);
  //@ assert d3_e1b: ctx_is_ext(d2, d1, pa);
  //@ assert d3_e1: ctx_is_ext(d1, d, typ) && ctx_is_ext(d2, d1, pa) && ctx_valid(d);
  //@ assert d3_l1: lvl_ty(d1, lp) == typ;
  //@ assert d3_l2: lvl_ty(d2, lp) == lvl_ty(d1, lp);
  //@ assert d3_lvlp: lvl_ty(d3, lp) == typ;
  //@ assert d3_lvl: lvl_ty(d3, lq) == tyq && lvl_ty(d3, lp) == typ;
  //@ assert d3_ord: 0 <= d < d1 < d2 < d3 < ctx_count;
  //@ assert d3_len: 0 <= lp < ctx_len_[d3] && 0 <= lq < ctx_len_[d3];
  //@ assert d3_ct: ty_valid(ct) && lin(cg);
  //@ assert b_n0: ctx_len_[d] == n0;
  //@ assert b_n1: ctx_len_[d1] == n1;
  //@ assert b_n2: ctx_len_[d2] == n2;
  //@ assert b_e1: ctx_is_ext(d1, d, typ);
  //@ assert b_e2: ctx_is_ext(d2, d1, pa);
  //@ assert b_t2: ctx_parent_[d2] == d1 && ctx_type_[d2] == pa;
  //@ ghost int ty2 = ctx_type_[d2];
  //@ assert b_typ: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa;
  //@ ghost Built: ;
  int lin = rev_let_lin(d3, lp, lq, ct) /*@ ghost (cg, ca, cgb, typ, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d3 && ty_same(tm_ty_[lin], TY_LFUN, ct, cg) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_keep: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 14;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert lin_ret: lin < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b] + 22;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg);
  //@ assert l_p: tm_ctx_[p] == d && 0 <= p < tm_count && tm_ty_[p] == typ;
  //@ assert l_q: tm_ctx_[q] == d2 && 0 <= q < tm_count && tm_ty_[q] == tyq;
  //@ assert l_typ: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa;
  //@ assert l_tyq: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt;
  //@ assert l_ord: 0 <= d < d1 < d2 < d3 < ctx_count;
  //@ assert l_ext1a: ctx_valid(d) && ctx_is_ext(d1, d, typ);
  //@ assert l_n0: ctx_len_[d] == n0;
  //@ assert l_n1: ctx_len_[d1] == n1;
  //@ assert l_n2: ctx_len_[d2] == n2;
  //@ assert l_ext1b: ctx_len_[d1] == ctx_len_[d] + 1 && lp == ctx_len_[d];
  //@ assert l_p2: ctx_parent_[d2] == d1;
  //@ assert l_t2a: ctx_type_[d2] == ty2;
  //@ assert l_t2: ctx_type_[d2] == pa;
  //@ assert l_ext2a: ctx_is_ext(d2, d1, pa);
  //@ assert l_ext2b: ctx_len_[d2] == ctx_len_[d1] + 1;
  //@ assert l_ext1: ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_len_[d1] == ctx_len_[d] + 1 && lp == ctx_len_[d];
  //@ assert l_ext2: ctx_is_ext(d2, d1, pa) && ctx_len_[d2] == ctx_len_[d1] + 1;
  //@ assert l_ext3: ctx_is_ext(d3, d2, tyq) && ctx_len_[d3] == ctx_len_[d2] + 1 && lq == ctx_len_[d2];
  //@ ghost Lin: ;
  int r = let_let_tail(p, q, d1, d3, lp, lq, lin) /*@ ghost (d, d2, pa, pt, ct, cg) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, ct, cg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 22;
  //@ assert tables_grow{Lin, Here} && side_same{Lin, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* let p = R a; x = fst p; q = R_{G,x} b in
 * (fst q, \v. let g = snd q v in fst g + snd p (snd g)) */
/*@ RULE_PRE(t, d, tm_kind_[t] == TM_LET);
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases REV_M(depth) - 2;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_let(int t, int d, int ct, int depth)
{
  //@ assert node_ok(t) && msrc_ok(t) && msz_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t);
  //@ ghost int ta = tm_ty_[a];
  //@ ghost int gb = tm_ctx_[b];
  //@ assert 0 <= a < t && 0 <= b < t && chad_msrc_[a] == 1 && chad_msrc_[b] == 1;
  //@ assert let_src: tm_ctx_[a] == g && ctx_is_ext(gb, g, ta) && tm_ty_[b] == tau;
  //@ assert let_gb: 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == ta;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b]);
  /* the size budget: R a, R b and at most 22 nodes of this rule (or the
   * whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert let_budget: REV_K * chad_msz_[a] + REV_K * chad_msz_[b] + 22 <= REV_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= REV_K * chad_msz_[t]; */
  /*@ ghost int cgv = tm_ctx_[t] == CTX_EMPTY ? TY_ID_UNIT :
        chad_memo_ctx_[CHAD_COT][tm_ctx_[t]] - 1; */
  //@ assert cgv == trc(CHAD_COT, g) && lin(cgv);
  //@ assert memo_ty_inv && trh(CHAD_COT, tau) && trh(CHAD_PREV, tau) && ct == chad_memo_ty_[CHAD_COT][tau] - 1;
  //@ ghost int pt = chad_memo_ty_[CHAD_PREV][tau] - 1;
  int p = rev(a, d, depth + 1);
  if (p < 0) return p;
  //@ ghost P1: ;
  //@ assert pa_rev: tm_ctx_[p] == d && rev_ty(tm_ty_[p], ta, g) && 0 <= p < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a];
  //@ assert pa_memo: trh(CHAD_PREV, ta) && trh(CHAD_COT, ta) && trc(CHAD_COT, g) == cgv;
  //@ assert pa_memo2: trm(CHAD_PREV, tau) == pt && trm(CHAD_COT, tau) == ct;
  //@ ghost int pa = chad_memo_ty_[CHAD_PREV][ta] - 1;
  //@ ghost int ca = chad_memo_ty_[CHAD_COT][ta] - 1;
  //@ ghost int typ = tm_ty_[p];
  //@ assert pa_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_same(ty_right_[typ], TY_LFUN, ca, cgv);
  //@ assert pa_env: env_ok(CHAD_PREV, g, d) && ctx_valid(d);
  //@ ghost int tpr = ty_right_[typ];
  //@ assert pa_tpr: ty_inv && ty_node_ok(typ) && 0 <= tpr < typ && ty_same(tpr, TY_LFUN, ca, cgv);
  int lp = L(d), d1 = rev_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_keep: env_keep{Pre, Here};
  //@ assert d1_ret: d1 < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  if (d1 < 0) return d1;
  //@ assert d1_ext: ctx_is_ext(d1, d, typ) && ctx_len_[d1] == lp + 1 && lp == ctx_len_[d] && ctx_valid(d1);
  //@ assert d1_env: env_ok(CHAD_PREV, g, d1);
  //@ assert d1_p: tm_ty_[p] == typ && ty_valid(typ) && ty_left_[typ] == pa;
  int px = ty_left(tyof(p));
  //@ assert px == pa && ty_valid(pa);
  int lx = L(d1), d2 = rev_ext(d1, px);
  //@ assert d2 >= 0 || d2 == CHAD_E_CAPACITY;
  //@ assert d2_keep: env_keep{Pre, Here};
  //@ assert d2_ret: d2 < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  if (d2 < 0) return d2;
  //@ assert d2_ext: ctx_is_ext(d2, d1, pa) && ctx_len_[d2] == lx + 1 && lx == lp + 1 && ctx_valid(d2);
  //@ assert d2_env: env_ok(CHAD_PREV, g, d2);
  //@ assert d2_lx: lx == ctx_len_[d1] && 0 <= lx < ctx_len_[d2];
  //@ assert d2_lvl0: lvl_ty(d2, ctx_len_[d1]) == px;
  //@ assert d2_lvl: lvl_ty(d2, lx) == pa;
  //@ assert d2_node: ctx_inv && ctx_node_ok(d1) && ctx_node_ok(d2);
  //@ assert d2_ord: 0 <= d < d1 < d2 < ctx_count && typ < ty_count;
  //@ assert d2_gb: 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == ta;
  //@ assert d2_memo: trh(CHAD_PREV, ta) && trm(CHAD_PREV, ta) == pa;
  //@ assert x2_len: ctx_len_[d2] == lx + 1 && lx == lp + 1 && lp == ctx_len_[d];
  //@ assert x2_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert x2_b: tm_ctx_[b] == gb && tm_ty_[b] == tau && trch(CHAD_COT, g);
  //@ assert x2_ta: trh(CHAD_PREV, ta) && trm(CHAD_PREV, ta) == pa && trh(CHAD_COT, ta) && trm(CHAD_COT, ta) == ca;
  //@ assert x2_tau: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
  //@ ghost Body: ;
  int r = rev_let_body(b, p, d1, d2, lp, lx, ct, depth) /*@ ghost (g, gb, ta, tau, pa, ca, pt, cgv, d, typ) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= REV_K * chad_msz_[b] + 22;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert r >= 0 || r == CHAD_E_CAPACITY || r == CHAD_E_DEPTH;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, ct, cgv);
  //@ assert r_memo1: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt;
  //@ assert r_memo2: trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
  //@ assert r_memo3: trch(CHAD_COT, g) && trc(CHAD_COT, g) == cgv;
  //@ assert r >= 0 ==> rev_ty(tm_ty_[r], \at(tm_ty_[t], Pre), \at(tm_ctx_[t], Pre));
  return r;
}

/* \v. snd (snd r v), the cotangent map of R(lam)'s primal function, in e2
 * where level lr holds r = f x : tyq = P tau * (ctau -o cga), cga = C(G,
 * x) = C G * csg: of type ctau -o csg, which is rr (the linear part of
 * P(sigma -> tau) = P sigma -> P tau * (C tau -o C sigma)) by
 * hash-consing. Against the kernel's invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(e2) && 0 <= lr < ctx_len_[e2] && lvl_ty(e2, lr) == tyq;
    requires ty_valid(ctau) && lin(csg);
    requires ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, ctau, cga);
    requires ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_right_[cga] == csg;
    requires ty_valid(rr) && ty_same(rr, TY_LFUN, ctau, csg);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures lam_inner_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == e2 &&
      tm_ty_[\result] == rr;
    ensures lam_inner_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures lam_inner_size: \old(tm_count) <= tm_count <= \old(tm_count) + 6;
    ensures lam_inner_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures lam_inner_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures lam_inner_lvl: \forall integer l; 0 <= l < ctx_len_[e2] ==> lvl_ty(e2, l) == \old(lvl_ty(e2, l));
    ensures env_keep{Pre, Post};
*/
static int rev_lam_inner(int e2, int lr, int ctau)
  /*@ ghost (int tyq, int cga, int csg, int rr) */
{
  //@ ghost int qr = ty_right_[tyq];
  //@ assert q_node: ty_inv && ty_node_ok(tyq) && 0 <= qr < tyq && ty_same(qr, TY_LFUN, ctau, cga);
  int lv = L(e2), e3 = k_ext(e2, ctau);
  if (e3 < 0) return e3;
  //@ assert e3_ctx: ctx_valid(e3) && ctx_is_ext(e3, e2, ctau) && ctx_len_[e3] == lv + 1 && lv == ctx_len_[e2];
  //@ assert e3_lvl: lvl_ty(e3, lv) == ctau && lvl_ty(e3, lr) == tyq;
  //@ assert e3_keep: \forall integer l; 0 <= l < ctx_len_[e2] ==> lvl_ty(e2, l) == \at(lvl_ty(e2, l), Pre);
  //@ ghost Ext: ;
  int vr = V(e3, lr);
  //@ assert vr >= 0 ==> 0 <= vr < tm_count && tm_ctx_[vr] == e3 && tm_ty_[vr] == tyq;
  //@ assert vr >= 0 || vr == CHAD_E_CAPACITY;
  int sr = b_snd(vr);
  //@ assert sr >= 0 ==> 0 <= sr < tm_count && tm_ctx_[sr] == e3 && tm_ty_[sr] == qr;
  //@ assert sr >= 0 || sr == CHAD_E_CAPACITY;
  //@ assert sr >= 0 ==> ty_same(tm_ty_[sr], TY_LFUN, ctau, cga);
  int vv = V(e3, lv);
  //@ assert vv >= 0 ==> 0 <= vv < tm_count && tm_ctx_[vv] == e3 && tm_ty_[vv] == ctau;
  //@ assert vv >= 0 || vv == CHAD_E_CAPACITY;
  int ap = b_lapp(sr, vv);
  //@ assert ap >= 0 ==> 0 <= ap < tm_count && tm_ctx_[ap] == e3 && tm_ty_[ap] == cga;
  //@ assert ap >= 0 || ap == CHAD_E_CAPACITY;
  //@ assert ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_right_[cga] == csg;
  int s2 = b_snd(ap);
  //@ assert s2 >= 0 ==> 0 <= s2 < tm_count && tm_ctx_[s2] == e3 && tm_ty_[s2] == csg;
  //@ assert s2 >= 0 || s2 == CHAD_E_CAPACITY;
  //@ assert s2 >= 0 ==> ty_valid(ctau) && llam_ok(ctau, tm_ctx_[s2], tm_ty_[s2]);
  //@ assert e3_par: ctx_parent_[e3] == e2;
  int r = b_llam(ctau, s2);
  //@ assert r_ctx: r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == e2;
  //@ assert r_ty0: r >= 0 ==> ty_valid(tm_ty_[r]) && ty_same(tm_ty_[r], TY_LFUN, ctau, csg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  /* hash-consing: ctau -o csg is the linear part of P(sigma -> tau) */
  //@ assert rr_same: ty_inv && ty_valid(rr) && ty_same(rr, TY_LFUN, ctau, csg);
  //@ assert r_rr: r >= 0 ==> tm_ty_[r] == rr;
  //@ assert tm_count <= \at(tm_count, Pre) + 6;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert r_keep: \forall integer l; 0 <= l < ctx_len_[e2] ==> lvl_ty(e2, l) == \at(lvl_ty(e2, l), Pre);
  return r;
}

/* The body of R(lam)'s primal function, in e1 = d1, x (level lf holds f :
 * tyf = psg -> tyq, level lx holds x : psg):
 *   let r = f x in (fst r, \v. snd (snd r v))
 * of type rp = pt * rr, P(sigma -> tau)'s codomain. Against the kernel's
 * invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(e1) && 0 <= lf < ctx_len_[e1] && lvl_ty(e1, lf) == tyf;
    requires 0 <= lx < ctx_len_[e1] && lvl_ty(e1, lx) == psg;
    requires ty_valid(ctau) && lin(csg);
    requires ty_valid(tyf) && ty_same(tyf, TY_FUN, psg, tyq);
    requires ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt &&
      ty_same(ty_right_[tyq], TY_LFUN, ctau, cga);
    requires ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_right_[cga] == csg;
    requires ty_valid(rr) && ty_same(rr, TY_LFUN, ctau, csg);
    requires ty_valid(rp) && ty_same(rp, TY_PROD, pt, rr);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures lam_pbody_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == e1 &&
      tm_ty_[\result] == rp;
    ensures lam_pbody_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures lam_pbody_size: \old(tm_count) <= tm_count <= \old(tm_count) + 13;
    ensures lam_pbody_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures lam_pbody_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures lam_pbody_lvl: \forall integer l; 0 <= l < ctx_len_[e1] ==> lvl_ty(e1, l) == \old(lvl_ty(e1, l));
    ensures env_keep{Pre, Post};
*/
static int rev_lam_pbody(int e1, int lf, int lx, int ctau)
  /*@ ghost (int tyf, int psg, int tyq, int pt, int cga, int csg, int rr, int rp) */
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
  //@ assert e2_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, ctau, cga);
  //@ assert e2_cga: ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_right_[cga] == csg && lin(csg) && ty_valid(ctau);
  //@ assert e2_rr: ty_valid(rr) && ty_same(rr, TY_LFUN, ctau, csg);
  //@ ghost E2: ;
  int inner = rev_lam_inner(e2, lr, ctau) /*@ ghost (tyq, cga, csg, rr) */;
  //@ assert inner >= 0 ==> 0 <= inner < tm_count && tm_ctx_[inner] == e2 && tm_ty_[inner] == rr;
  //@ assert inner >= 0 || inner == CHAD_E_CAPACITY;
  //@ assert i_size: tm_count <= \at(tm_count, Pre) + 9;
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
  //@ assert tm_count <= \at(tm_count, Pre) + 13;
  //@ assert lb_grow: tables_grow{I1, Here} && side_same{I1, Here};
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert lb_keep: \forall integer l; 0 <= l < ctx_len_[e1] ==> lvl_ty(e1, l) == \at(lvl_ty(e1, l), Pre);
  //@ assert lb_keepe: env_keep{Pre, Here};
  return lb;
}

/* The primal of R(lam), in d1 = d, f (level lf holds f = \x. R_{G,x} a :
 * tyf = P sigma -> tyq):
 *   \x. let r = f x in (fst r, \v. snd (snd r v))
 * of type P(sigma -> tau) = pa = psg -> R, R = pt * rr, by hash-consing.
 * Against the kernel's invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(d1) && 0 <= lf < ctx_len_[d1] && lvl_ty(d1, lf) == tyf;
    requires ty_valid(psg) && ty_valid(ctau) && lin(csg);
    requires ty_valid(tyf) && ty_same(tyf, TY_FUN, psg, tyq);
    requires ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt &&
      ty_same(ty_right_[tyq], TY_LFUN, ctau, cga);
    requires ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_right_[cga] == csg;
    requires ty_valid(pa) && ty_same(pa, TY_FUN, psg, rp) && ty_valid(rp) &&
      ty_same(rp, TY_PROD, pt, rr) && ty_valid(rr) && ty_same(rr, TY_LFUN, ctau, csg);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures lam_prim_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d1 &&
      tm_ty_[\result] == pa;
    ensures lam_prim_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures lam_prim_size: \old(tm_count) <= tm_count <= \old(tm_count) + 14;
    ensures lam_prim_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures lam_prim_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures lam_prim_lvl: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \old(lvl_ty(d1, l));
    ensures env_keep{Pre, Post};
*/
static int rev_lam_prim(int d1, int lf, int psg, int ctau)
  /*@ ghost (int tyf, int tyq, int pt, int cga, int csg, int pa, int rp, int rr) */
{
  int lx = L(d1), e1 = k_ext(d1, psg);
  if (e1 < 0) return e1;
  //@ assert e1_ctx: ctx_valid(e1) && ctx_is_ext(e1, d1, psg) && ctx_len_[e1] == lx + 1 && lx == ctx_len_[d1];
  //@ assert e1_lvl: lvl_ty(e1, lx) == psg && lvl_ty(e1, lf) == tyf;
  //@ assert e1_keep: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  //@ ghost E1: ;
  int lb = rev_lam_pbody(e1, lf, lx, ctau) /*@ ghost (tyf, psg, tyq, pt, cga, csg, rr, rp) */;
  //@ assert lb >= 0 ==> 0 <= lb < tm_count && tm_ctx_[lb] == e1 && tm_ty_[lb] == rp;
  //@ assert lb >= 0 || lb == CHAD_E_CAPACITY;
  //@ assert b_size: tm_count <= \at(tm_count, Pre) + 13;
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
  //@ assert pa_same: ty_inv && ty_valid(pa) && ty_same(pa, TY_FUN, psg, rp);
  //@ assert p_pa: prim >= 0 ==> tm_ty_[prim] == pa;
  //@ assert tm_count <= \at(tm_count, Pre) + 14;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert p_keep: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  //@ assert p_keepe: env_keep{Pre, Here};
  return prim;
}

/* fst (snd (f x) v), the cotangent of G from one element (x, v) of R(lam)'s
 * copower cotangent, in g3 where level lf holds f : tyf = psg -> tyq
 * (tyq = P tau * (ctau -o cga), cga = C G * _), level lx holds x : psg and
 * level lv holds v : ctau. Against the kernel's invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(g3);
    requires 0 <= lf < ctx_len_[g3] && lvl_ty(g3, lf) == tyf;
    requires 0 <= lx < ctx_len_[g3] && lvl_ty(g3, lx) == psg;
    requires 0 <= lv < ctx_len_[g3] && lvl_ty(g3, lv) == ctau;
    requires ty_valid(tyf) && ty_same(tyf, TY_FUN, psg, tyq);
    requires ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, ctau, cga);
    requires ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_left_[cga] == cg;
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS;
    ensures kernel_inv;
    ensures lam_back_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == g3 &&
      tm_ty_[\result] == cg;
    ensures lam_back_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures lam_back_size: \old(tm_count) <= tm_count <= \old(tm_count) + 7;
    ensures lam_back_frame: \old(ty_count) <= ty_count;
    ensures lam_back_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
*/
static int rev_lam_back(int g3, int lf, int lx, int lv)
  /*@ ghost (int tyf, int psg, int tyq, int ctau, int cga, int cg) */
{
  //@ ghost int qr = ty_right_[tyq];
  //@ assert q_node: ty_inv && ty_node_ok(tyq) && 0 <= qr < tyq && ty_same(qr, TY_LFUN, ctau, cga);
  int wf = V(g3, lf);
  //@ assert wf >= 0 ==> 0 <= wf < tm_count && tm_ctx_[wf] == g3 && tm_ty_[wf] == tyf;
  //@ assert wf >= 0 || wf == CHAD_E_CAPACITY;
  int wx = V(g3, lx);
  //@ assert wx >= 0 ==> 0 <= wx < tm_count && tm_ctx_[wx] == g3 && tm_ty_[wx] == psg;
  //@ assert wx >= 0 || wx == CHAD_E_CAPACITY;
  //@ assert ty_valid(tyf) && ty_kind_[tyf] == TY_FUN && ty_left_[tyf] == psg && ty_right_[tyf] == tyq;
  int fx = b_app(wf, wx);
  //@ assert fx >= 0 ==> 0 <= fx < tm_count && tm_ctx_[fx] == g3 && tm_ty_[fx] == tyq;
  //@ assert fx >= 0 || fx == CHAD_E_CAPACITY;
  int sf = b_snd(fx);
  //@ assert sf >= 0 ==> 0 <= sf < tm_count && tm_ctx_[sf] == g3 && tm_ty_[sf] == qr;
  //@ assert sf >= 0 || sf == CHAD_E_CAPACITY;
  //@ assert sf >= 0 ==> ty_same(tm_ty_[sf], TY_LFUN, ctau, cga);
  int vv = V(g3, lv);
  //@ assert vv >= 0 ==> 0 <= vv < tm_count && tm_ctx_[vv] == g3 && tm_ty_[vv] == ctau;
  //@ assert vv >= 0 || vv == CHAD_E_CAPACITY;
  int ap = b_lapp(sf, vv);
  //@ assert ap >= 0 ==> 0 <= ap < tm_count && tm_ctx_[ap] == g3 && tm_ty_[ap] == cga;
  //@ assert ap >= 0 || ap == CHAD_E_CAPACITY;
  //@ assert ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_left_[cga] == cg;
  int r = b_fst(ap);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == g3 && tm_ty_[r] == cg;
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 7;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The linear half of R(lam), in d1 = d, f (level lf holds f : tyf):
 *   \w. cp_fold w (x v. fst (snd (f x) v))
 * of type ct -o cg, ct = C(sigma -> tau) = !psg (x) ctau (a copower).
 * Against the kernel's invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(d1) && 0 <= lf < ctx_len_[d1] && lvl_ty(d1, lf) == tyf;
    requires ty_valid(psg) && ty_valid(ctau) && lin(cg);
    requires lin(ct) && ty_same(ct, TY_COPOW, psg, ctau);
    requires ty_valid(tyf) && ty_same(tyf, TY_FUN, psg, tyq);
    requires ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, ctau, cga);
    requires ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_left_[cga] == cg;
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures lam_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d1 &&
      ty_valid(tm_ty_[\result]) && ty_same(tm_ty_[\result], TY_LFUN, ct, cg);
    ensures lam_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures lam_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 10;
    ensures lam_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures lam_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures lam_lin_lvl: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \old(lvl_ty(d1, l));
    ensures env_keep{Pre, Post};
*/
static int rev_lam_lin(int d1, int lf, int psg, int ctau, int ct)
  /*@ ghost (int tyf, int tyq, int cga, int cg) */
{
  int lw = L(d1), g1 = k_ext(d1, ct);
  if (g1 < 0) return g1;
  //@ assert g1_ctx: ctx_valid(g1) && ctx_is_ext(g1, d1, ct) && ctx_len_[g1] == lw + 1 && lw == ctx_len_[d1];
  //@ assert g1_lvl: lvl_ty(g1, lw) == ct && lvl_ty(g1, lf) == tyf;
  //@ assert g1_keep: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  int lx = L(g1), g2 = k_ext(g1, psg);
  //@ assert g2_keep0: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  if (g2 < 0) return g2;
  //@ assert g2_ctx: ctx_valid(g2) && ctx_is_ext(g2, g1, psg) && ctx_len_[g2] == lx + 1 && lx == ctx_len_[g1];
  //@ assert g2_lvl: lvl_ty(g2, lx) == psg && lvl_ty(g2, lw) == ct && lvl_ty(g2, lf) == tyf;
  int lv = L(g2), g3 = k_ext(g2, ctau);
  //@ assert g3_keep0: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  if (g3 < 0) return g3;
  //@ assert g3_ctx: ctx_valid(g3) && ctx_is_ext(g3, g2, ctau) && ctx_len_[g3] == lv + 1 && lv == ctx_len_[g2];
  //@ assert g3_lvl: lvl_ty(g3, lv) == ctau && lvl_ty(g3, lx) == psg && lvl_ty(g3, lf) == tyf;
  //@ assert g3_keep: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  //@ assert g3_g1: lvl_ty(g1, lw) == ct && ctx_valid(g1);
  //@ ghost Exts: ;
  int body = rev_lam_back(g3, lf, lx, lv) /*@ ghost (tyf, psg, tyq, ctau, cga, cg) */;
  //@ assert body >= 0 ==> 0 <= body < tm_count && tm_ctx_[body] == g3 && tm_ty_[body] == cg;
  //@ assert body >= 0 || body == CHAD_E_CAPACITY;
  //@ assert b_ctx: ctx_count == \at(ctx_count, Exts);
  //@ assert b_lvl: lvl_ty(g1, lw) == ct && ctx_valid(g1);
  int w = V(g1, lw);
  //@ assert w >= 0 ==> 0 <= w < tm_count && tm_ctx_[w] == g1 && tm_ty_[w] == ct;
  //@ assert w >= 0 || w == CHAD_E_CAPACITY;
  //@ assert body >= 0 ==> 0 <= body < tm_count && tm_ctx_[body] == g3 && tm_ty_[body] == cg;
  //@ assert fold_ok: 0 < g3 && ctx_type_[g3] == ctau && ctx_parent_[g3] == g2 && ctx_is_ext(g2, g1, psg) && lin(cg);
  //@ assert fold_ct: ty_valid(ct) && ty_kind_[ct] == TY_COPOW && ty_left_[ct] == psg && ty_right_[ct] == ctau;
  //@ assert fold_pre: w >= 0 && body >= 0 ==> cpfold_ok(tm_ctx_[w], tm_ty_[w], tm_ctx_[body], tm_ty_[body]);
  //@ assert fold_neg: (w < 0 ==> w == CHAD_E_CAPACITY) && (body < 0 ==> body == CHAD_E_CAPACITY);
  int fold = b_cp_fold(w, body);
  //@ assert fold >= 0 ==> 0 <= fold < tm_count && tm_ctx_[fold] == g1 && tm_ty_[fold] == cg;
  //@ assert fold >= 0 || fold == CHAD_E_CAPACITY;
  //@ assert fold >= 0 ==> ty_valid(ct) && llam_ok(ct, tm_ctx_[fold], tm_ty_[fold]);
  //@ assert g1_par: ctx_parent_[g1] == d1;
  int r = b_llam(ct, fold);
  //@ assert r_ctx: r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d1;
  //@ assert r_ty: r >= 0 ==> ty_valid(tm_ty_[r]) && ty_same(tm_ty_[r], TY_LFUN, ct, cg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 10;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert r_cnt: ctx_count == \at(ctx_count, Exts) && ctx_len_[d1] == \at(ctx_len_[d1], Exts);
  //@ assert r_keep: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  return r;
}

/* R(lam (x. a)), of type sigma -> tau, a : tau in ga = G, x : sigma:
 *   let f = \x. R_{G,x} a in
 *   ( \x. let r = f x in (fst r, \v. snd (snd r v)),
 *     \w. cp_fold w (x v. fst (snd (f x) v)) )
 * R a under the binder (the one recursive call) and f here; the primal
 * rev_lam_prim, the linear half rev_lam_lin and the tail let_unary_tail
 * (let f in (prim, lin), shared with the one-child rules). P sigma and
 * C tau are read from the memo table (memoised with sigma -> tau). */
/*@ RULE_PRE(t, d, tm_kind_[t] == TM_LAM);
    requires ty == tm_ty_[t];
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases REV_M(depth) - 2;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_lam(int t, int d, int ty, int ct, int depth)
{
  //@ assert node_ok(t) && msrc_ok(t) && msz_ok(t);
  //@ ghost int g = tm_ctx_[t];
  int a = tm_a(t);
  //@ ghost int ga = tm_ctx_[a];
  //@ ghost int tau = tm_ty_[a];
  int sg = ty_left(ty), tau_ = ty_right(ty);
  //@ assert lam_src: 0 < ga < ctx_count && ctx_type_[ga] == sg && ctx_parent_[ga] == g;
  //@ assert lam_ty: ty_valid(ty) && ty_kind_[ty] == TY_FUN && ty_right_[ty] == tau && tau_ == tau;
  //@ assert 0 <= a < t && chad_msrc_[a] == 1;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a]);
  /* the size budget: R a and at most 27 nodes of this rule (or the whole
   * arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert lam_budget: REV_K * chad_msz_[a] + 27 <= REV_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= REV_K * chad_msz_[t]; */
  /*@ ghost int cgv = tm_ctx_[t] == CTX_EMPTY ? TY_ID_UNIT :
        chad_memo_ctx_[CHAD_COT][tm_ctx_[t]] - 1; */
  //@ assert cgv == trc(CHAD_COT, g) && lin(cgv);
  //@ assert memo_ty_inv && trh(CHAD_COT, ty) && trh(CHAD_PREV, ty) && ct == chad_memo_ty_[CHAD_COT][ty] - 1;
  //@ ghost rev_tr_step(CHAD_PREV, ty);
  //@ ghost rev_tr_step(CHAD_COT, ty);
  //@ ghost int pa = chad_memo_ty_[CHAD_PREV][ty] - 1;
  //@ assert lam_memo: trh(CHAD_PREV, sg) && trh(CHAD_PREV, tau) && trh(CHAD_COT, sg) && trh(CHAD_COT, tau);
  int psg = memo_ty_get(CHAD_PREV, sg);
  int ctau = memo_ty_get(CHAD_COT, tau_);
  //@ ghost int pt = chad_memo_ty_[CHAD_PREV][tau] - 1;
  //@ ghost int csg = chad_memo_ty_[CHAD_COT][sg] - 1;
  //@ assert lam_psg: psg == trm(CHAD_PREV, sg) && ctau == trm(CHAD_COT, tau) && ty_valid(psg) && ty_valid(ctau);
  //@ ghost rev_tr_step(CHAD_PREV, sg);
  //@ ghost rev_tr_step(CHAD_COT, sg);
  //@ ghost cot_lin_lemma();
  //@ assert lam_csg: lin(csg) && lin(ct) && ty_same(ct, TY_COPOW, psg, ctau);
  /*@ assert lam_pa: ty_valid(pa) && ty_kind_[pa] == TY_FUN && ty_left_[pa] == psg &&
        0 <= ty_right_[pa] < pa && ty_kind_[ty_right_[pa]] == TY_PROD &&
        ty_left_[ty_right_[pa]] == pt && 0 <= ty_right_[ty_right_[pa]] < ty_right_[pa] &&
        ty_same(ty_right_[ty_right_[pa]], TY_LFUN, ctau, csg); */
  //@ ghost int rp = ty_right_[pa];
  //@ ghost int rr = ty_right_[rp];
  //@ assert lam_pa2: ty_same(pa, TY_FUN, psg, rp) && ty_valid(rp) && ty_same(rp, TY_PROD, pt, rr) && ty_valid(rr) && ty_same(rr, TY_LFUN, ctau, csg);
  //@ assert lam_env: env_ok(CHAD_PREV, g, d) && ctx_valid(d);
  int lx = L(d), dx = rev_ext(d, psg);
  //@ assert dx >= 0 || dx == CHAD_E_CAPACITY;
  //@ assert dx_keep: env_keep{Pre, Here};
  //@ assert dx_grows: memo_grows{Pre, Here};
  if (dx < 0) return dx;
  //@ assert dx_ext: ctx_is_ext(dx, d, psg) && ctx_valid(dx) && ctx_len_[dx] == lx + 1 && lx == ctx_len_[d];
  //@ assert dx_lvl: lvl_ty(dx, lx) == psg && env_ok(CHAD_PREV, g, dx);
  //@ assert x_ga: env_ok(CHAD_PREV, ctx_parent_[ga], dx) && trh(CHAD_PREV, ctx_type_[ga]) && trm(CHAD_PREV, ctx_type_[ga]) == psg;
  int q = rev_under(a, dx, lx, depth + 1);
  //@ assert q_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert q_keep: env_keep{Pre, Here};
  //@ assert q_grows: memo_grows{Pre, Here};
  if (q < 0) return q;
  //@ assert q_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a];
  //@ assert q_rev: tm_ctx_[q] == dx && rev_ty(tm_ty_[q], tau, ga) && 0 <= q < tm_count;
  //@ assert q_memo: trm(CHAD_PREV, tau) == pt && trm(CHAD_COT, tau) == ctau && trc(CHAD_COT, g) == cgv && trm(CHAD_COT, sg) == csg;
  //@ assert q_ga: trch(CHAD_COT, ga);
  //@ ghost rev_trc_step(CHAD_COT, ga);
  //@ ghost int cga = chad_memo_ctx_[CHAD_COT][ga] - 1;
  //@ assert q_cga0: trc(CHAD_COT, ga) == cga;
  //@ assert q_cga: ty_valid(cga) && ty_same(cga, TY_PROD, cgv, csg);
  //@ ghost int tyq = tm_ty_[q];
  //@ assert q_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, ctau, cga);
  //@ ghost int tqr = ty_right_[tyq];
  //@ assert q_ty2: ty_same(tyq, TY_PROD, pt, tqr) && ty_valid(tqr) && ty_same(tqr, TY_LFUN, ctau, cga);
  //@ assert q_dx: ctx_parent_[dx] == d && ctx_type_[dx] == psg && 0 < dx < ctx_count && ty_valid(psg);
  /* C(sigma -> tau) and C G, read at the top: restated after each call
   * (framed from the top through five calls, p_ct failed in full runs
   * with every prover, 1.5 s alone) */
  //@ assert q_ct: lin(ct) && ty_same(ct, TY_COPOW, psg, ctau) && lin(cgv) && ty_valid(psg) && ty_valid(ctau);
  //@ assert q_pa2: ty_valid(pa) && ty_same(pa, TY_FUN, psg, rp) && ty_valid(rp) && ty_same(rp, TY_PROD, pt, rr) && ty_valid(rr) && ty_same(rr, TY_LFUN, ctau, csg);
  //@ ghost Q1: ;
  int f = b_lam(psg, q);
  //@ assert f >= 0 ==> 0 <= f < tm_count && tm_ctx_[f] == d && ty_valid(tm_ty_[f]) && ty_same(tm_ty_[f], TY_FUN, psg, tyq);
  //@ assert f >= 0 || f == CHAD_E_CAPACITY;
  //@ assert f_grow: tables_grow{Q1, Here} && side_same{Q1, Here};
  //@ assert f_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert f_keep: env_keep{Pre, Here};
  //@ assert f_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a] + 1;
  //@ assert f_grows: memo_grows{Pre, Here};
  //@ assert f_ct: lin(ct) && ty_same(ct, TY_COPOW, psg, ctau) && lin(cgv) && ty_valid(psg) && ty_valid(ctau);
  //@ assert f_pa2: ty_valid(pa) && ty_same(pa, TY_FUN, psg, rp) && ty_valid(rp) && ty_same(rp, TY_PROD, pt, rr) && ty_valid(rr) && ty_same(rr, TY_LFUN, ctau, csg);
  if (f < 0) return f;
  //@ ghost int tyf = tm_ty_[f];
  //@ assert f_env: ctx_valid(d);
  int lf = L(d), d1 = rev_ext(d, tyof(f));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_keep: env_keep{Pre, Here};
  //@ assert d1_ret: d1 < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert d1_grows: memo_grows{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_ext: ctx_is_ext(d1, d, tyf) && ctx_valid(d1) && ctx_len_[d1] == lf + 1 && lf == ctx_len_[d];
  //@ assert d1_lvl: lvl_ty(d1, lf) == tyf;
  //@ assert d1_f: ty_valid(tyf) && ty_same(tyf, TY_FUN, psg, tyq);
  //@ assert d1_q2: ty_valid(tyq) && ty_same(tyq, TY_PROD, pt, tqr) && ty_valid(tqr) && ty_same(tqr, TY_LFUN, ctau, cga);
  //@ assert d1_q: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, ctau, cga);
  //@ assert d1_cga: ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_right_[cga] == csg && ty_left_[cga] == cgv;
  //@ assert d1_ty: ty_valid(psg) && ty_valid(ctau) && lin(csg) && lin(cgv);
  //@ assert d1_pa2: ty_valid(pa) && ty_same(pa, TY_FUN, psg, rp) && ty_valid(rp) && ty_same(rp, TY_PROD, pt, rr) && ty_valid(rr) && ty_same(rr, TY_LFUN, ctau, csg);
  //@ assert d1_ct: lin(ct) && ty_same(ct, TY_COPOW, psg, ctau) && lin(cgv) && ty_valid(psg) && ty_valid(ctau);
  //@ ghost D1: ;
  int prim = rev_lam_prim(d1, lf, psg, ctau) /*@ ghost (tyf, tyq, pt, cga, csg, pa, rp, rr) */;
  //@ assert prim >= 0 ==> 0 <= prim < tm_count && tm_ctx_[prim] == d1 && tm_ty_[prim] == pa;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert p_keep: env_keep{Pre, Here};
  //@ assert p_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a] + 15;
  //@ assert p_grow: tables_grow{D1, Here} && side_same{D1, Here};
  //@ assert p_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert p_ret: prim < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert p_grows: memo_grows{Pre, Here};
  if (prim < 0) return prim;
  //@ assert p_fn: 0 <= f < tm_count && tm_ctx_[f] == d && tm_ty_[f] == tyf && ctx_is_ext(d1, d, tyf);
  //@ assert p_lvl: lvl_ty(d1, lf) == tyf && ctx_valid(d1) && 0 <= lf < ctx_len_[d1];
  //@ assert p_f: ty_valid(tyf) && ty_same(tyf, TY_FUN, psg, tyq);
  //@ assert p_q2: ty_valid(tyq) && ty_same(tyq, TY_PROD, pt, tqr) && ty_valid(tqr) && ty_same(tqr, TY_LFUN, ctau, cga);
  //@ assert p_q: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, ctau, cga);
  //@ assert p_cga: ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_left_[cga] == cgv;
  //@ assert p_ct: lin(ct) && ty_same(ct, TY_COPOW, psg, ctau) && lin(cgv) && ty_valid(psg) && ty_valid(ctau);
  //@ ghost P1: ;
  int lin = rev_lam_lin(d1, lf, psg, ctau, ct) /*@ ghost (tyf, tyq, cga, cgv) */;
  //@ assert lin >= 0 ==> 0 <= lin < tm_count && tm_ctx_[lin] == d1 && ty_valid(tm_ty_[lin]) && ty_same(tm_ty_[lin], TY_LFUN, ct, cgv);
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert l_keep: env_keep{Pre, Here};
  //@ assert l_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a] + 25;
  //@ assert l_grow: tables_grow{P1, Here} && side_same{P1, Here};
  //@ assert l_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert l_ret: lin < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert l_grows: memo_grows{Pre, Here};
  if (lin < 0) return lin;
  //@ assert l_fn: 0 <= f < tm_count && tm_ctx_[f] == d && tm_ty_[f] == tyf && ctx_is_ext(d1, d, tyf);
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert t_lin: 0 <= lin < tm_count && tm_ctx_[lin] == d1 && ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cgv);
  //@ assert t_prim: 0 <= prim < tm_count && tm_ctx_[prim] == d1 && tm_ty_[prim] == pa;
  //@ assert t_f: 0 <= f < tm_count && tm_ctx_[f] == d && tm_ty_[f] == tyf && ctx_valid(d) && ctx_is_ext(d1, d, tyf);
  //@ ghost Tail: ;
  int r = let_unary_tail(f, prim, lin) /*@ ghost (d, d1, pa, ct, cgv) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pa && ty_same(ty_right_[tyr], TY_LFUN, ct, cgv);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert r_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a] + 27;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert tables_grow{Tail, Here} && side_same{Tail, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert env_keep{Pre, Here};
  //@ assert r_memo1: trh(CHAD_PREV, ty) && trm(CHAD_PREV, ty) == pa;
  //@ assert r_memo2: trh(CHAD_COT, ty) && trm(CHAD_COT, ty) == ct;
  //@ assert r_memo3: trch(CHAD_COT, g) && trc(CHAD_COT, g) == cgv;
  //@ assert r >= 0 ==> rev_ty(tm_ty_[r], \at(tm_ty_[t], Pre), \at(tm_ctx_[t], Pre));
  return r;
}

/* The linear half of R(app a b), in d3 where level lp holds p = R a (type
 * typ = P(s->t) * (cf -o cg), cf = C(s->t) = !P s (x) C t), level lq
 * holds q = R b (type tyq = P s * (cs -o cg), cs = C s) and level lr holds
 * r = fst p (fst q) (type tyr = P t * (ct -o cs)):
 *   \v. snd p (cp_single (fst q) v) + snd q (snd r v)    : C t -o C G
 * (ct = C t, cg = C G). Against the kernel's invariant only, as
 * rev_pair_lin. */
/*@ requires kernel_inv;
    requires ctx_valid(d3) && ty_valid(ct) && lin(ct) && lin(cg);
    requires ty_valid(cf) && ty_same(cf, TY_COPOW, ps, ct);
    requires 0 <= lp < ctx_len_[d3] && lvl_ty(d3, lp) == typ && ty_valid(typ) &&
      ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, cf, cg);
    requires 0 <= lq < ctx_len_[d3] && lvl_ty(d3, lq) == tyq && ty_valid(tyq) &&
      ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == ps && ty_same(ty_right_[tyq], TY_LFUN, cs, cg);
    requires 0 <= lr < ctx_len_[d3] && lvl_ty(d3, lr) == tyr && ty_valid(tyr) &&
      ty_kind_[tyr] == TY_PROD && ty_same(ty_right_[tyr], TY_LFUN, ct, cs);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures app_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d3 &&
      ty_same(tm_ty_[\result], TY_LFUN, ct, cg);
    ensures app_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures app_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 16;
    ensures app_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures app_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures app_lin_lvl: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \old(lvl_ty(d3, l));
    ensures env_keep{Pre, Post};
*/
static int rev_app_lin(int d3, int lp, int lq, int lr, int ct)
  /*@ ghost (int cg, int cf, int ps, int cs, int typ, int tyq, int tyr) */
{
  int lv = L(d3), d4 = k_ext(d3, ct);
  if (d4 < 0) return d4;
  //@ assert d4_lv: lvl_ty(d4, lv) == ct && ctx_parent_[d4] == d3 && ctx_type_[d4] == ct;
  //@ assert d4_lp: lvl_ty(d4, lp) == typ && lvl_ty(d4, lq) == tyq && lvl_ty(d4, lr) == tyr;
  int vp = V(d4, lp);
  //@ assert vp >= 0 ==> tm_ctx_[vp] == d4 && tm_ty_[vp] == typ && 0 <= vp < tm_count;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d4 && ty_same(tm_ty_[sp], TY_LFUN, cf, cg) && 0 <= sp < tm_count;
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int vq = V(d4, lq);
  //@ assert vq >= 0 ==> tm_ctx_[vq] == d4 && tm_ty_[vq] == tyq && 0 <= vq < tm_count;
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int xq = b_fst(vq);
  //@ assert xq >= 0 ==> tm_ctx_[xq] == d4 && tm_ty_[xq] == ps && 0 <= xq < tm_count;
  //@ assert xq >= 0 || xq == CHAD_E_CAPACITY;
  int v1 = V(d4, lv);
  //@ assert v1 >= 0 ==> tm_ctx_[v1] == d4 && tm_ty_[v1] == ct && 0 <= v1 < tm_count;
  //@ assert v1 >= 0 || v1 == CHAD_E_CAPACITY;
  //@ assert xq >= 0 ==> tm_ctx_[xq] == d4 && tm_ty_[xq] == ps && 0 <= xq < tm_count;
  int cp = b_cp_single(xq, v1);
  //@ assert cp >= 0 ==> tm_ctx_[cp] == d4 && ty_same(tm_ty_[cp], TY_COPOW, ps, ct) && 0 <= cp < tm_count;
  //@ assert cp >= 0 ==> ty_valid(tm_ty_[cp]) && ty_valid(cf) && ty_same(cf, TY_COPOW, ps, ct);
  /* hash-consing: the copower built here is C(s->t) itself */
  //@ assert cp_id: cp >= 0 ==> tm_ty_[cp] == cf;
  //@ assert cp >= 0 || cp == CHAD_E_CAPACITY;
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d4 && ty_same(tm_ty_[sp], TY_LFUN, cf, cg) && 0 <= sp < tm_count;
  int t1 = b_lapp(sp, cp);
  //@ assert t1 >= 0 ==> tm_ctx_[t1] == d4 && tm_ty_[t1] == cg && 0 <= t1 < tm_count;
  //@ assert t1 >= 0 || t1 == CHAD_E_CAPACITY;
  //@ assert lr_ty1: lvl_ty(d4, lr) == tyr && ty_valid(tyr) && ty_kind_[tyr] == TY_PROD;
  //@ assert lr_ty2: ty_same(ty_right_[tyr], TY_LFUN, ct, cs);
  int vr = V(d4, lr);
  //@ assert vr >= 0 ==> tm_ctx_[vr] == d4 && tm_ty_[vr] == tyr && 0 <= vr < tm_count;
  //@ assert vr >= 0 || vr == CHAD_E_CAPACITY;
  int sr = b_snd(vr);
  //@ assert sr >= 0 ==> tm_ctx_[sr] == d4 && ty_same(tm_ty_[sr], TY_LFUN, ct, cs) && 0 <= sr < tm_count;
  //@ assert sr >= 0 || sr == CHAD_E_CAPACITY;
  int v2 = V(d4, lv);
  //@ assert v2 >= 0 ==> tm_ctx_[v2] == d4 && tm_ty_[v2] == ct && 0 <= v2 < tm_count;
  //@ assert v2 >= 0 || v2 == CHAD_E_CAPACITY;
  int dr = b_lapp(sr, v2);
  //@ assert dr >= 0 ==> tm_ctx_[dr] == d4 && tm_ty_[dr] == cs && 0 <= dr < tm_count;
  //@ assert dr >= 0 || dr == CHAD_E_CAPACITY;
  int vq2 = V(d4, lq);
  //@ assert vq2 >= 0 ==> tm_ctx_[vq2] == d4 && tm_ty_[vq2] == tyq && 0 <= vq2 < tm_count;
  //@ assert vq2 >= 0 || vq2 == CHAD_E_CAPACITY;
  int sq = b_snd(vq2);
  //@ assert sq >= 0 ==> tm_ctx_[sq] == d4 && ty_same(tm_ty_[sq], TY_LFUN, cs, cg) && 0 <= sq < tm_count;
  //@ assert sq >= 0 || sq == CHAD_E_CAPACITY;
  //@ assert dr >= 0 ==> tm_ctx_[dr] == d4 && tm_ty_[dr] == cs && 0 <= dr < tm_count;
  int t2 = b_lapp(sq, dr);
  //@ assert t2 >= 0 ==> tm_ctx_[t2] == d4 && tm_ty_[t2] == cg && 0 <= t2 < tm_count;
  //@ assert t2 >= 0 || t2 == CHAD_E_CAPACITY;
  //@ assert t1 >= 0 ==> tm_ctx_[t1] == d4 && tm_ty_[t1] == cg && 0 <= t1 < tm_count;
  int sum = b_plus(t1, t2);
  //@ assert sum >= 0 ==> tm_ctx_[sum] == d4 && tm_ty_[sum] == cg && 0 <= sum < tm_count;
  //@ assert sum >= 0 || sum == CHAD_E_CAPACITY;
  //@ assert sum >= 0 ==> ty_valid(ct) && llam_ok(ct, tm_ctx_[sum], tm_ty_[sum]);
  int r = b_llam(ct, sum);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d3 && ty_same(tm_ty_[r], TY_LFUN, ct, cg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 16;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The second half of R(app a b), from the call R b on: in d1 = d, p (p =
 * R a at level lp),
 *   let q = R b in let p in let q in let r = fst p (fst q) in
 *   (fst r, \v. snd p (cp_single (fst q) v) + snd q (snd r v))
 * One recursive call per function (as rev_pair_body). */
/*@ requires REV_INV;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[b] == g && tm_ty_[b] == sg;
    requires env_ok(CHAD_PREV, g, d1);
    requires trh(CHAD_PREV, sg) && trm(CHAD_PREV, sg) == ps && trh(CHAD_COT, sg) && trm(CHAD_COT, sg) == cs;
    requires trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg && lin(cg);
    requires ty_valid(pf) && ty_kind_[pf] == TY_FUN && ty_left_[pf] == ps;
    requires ty_valid(pr) && pr == ty_right_[pf] && ty_kind_[pr] == TY_PROD && ty_left_[pr] == pt &&
      ty_same(ty_right_[pr], TY_LFUN, ct, cs);
    requires ty_valid(cf) && ty_same(cf, TY_COPOW, ps, ct) && ty_valid(ct) && lin(ct);
    requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
    requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_len_[d1] == lp + 1;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pf &&
      ty_same(ty_right_[typ], TY_LFUN, cf, cg);
    terminates \true;
    decreases REV_M(depth) - 3;
    REV_ASSIGNS;
    REV_FRAME;
    ensures abody_size: tm_count - \old(tm_count) <= REV_K * chad_msz_[b] + 27;
    ensures abody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures abody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg);
*/
static int rev_app_body(int b, int p, int d1, int lp, int ct, int depth)
  /*@ ghost (int g, int sg, int pf, int ps, int pr, int pt, int cs, int cf, int cg, int d, int typ) */
{
  /* the right halves of pr and typ named before the call, so that after
   * it each is one framed id, not a read through an unchanged entry (the
   * goals below were among the first to fail when kernel_inv grew) */
  //@ ghost int prr = ty_right_[pr];
  //@ ghost int tyr = ty_right_[typ];
  //@ assert ab_r0: ty_valid(prr) && ty_same(prr, TY_LFUN, ct, cs) && ty_valid(tyr) && ty_same(tyr, TY_LFUN, cf, cg);
  int q = rev(b, d1, depth + 1);
  //@ assert ab_keep: env_keep{Pre, Here};
  //@ assert ab_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b];
  if (q < 0) return q;
  //@ assert ab_b: tm_ctx_[b] == g && tm_ty_[b] == sg;
  //@ assert ab_rev: tm_ctx_[q] == d1 && rev_ty(tm_ty_[q], sg, g) && 0 <= q < tm_count;
  //@ assert ab_memo1: trc(CHAD_COT, g) == cg;
  //@ assert ab_memo2: trm(CHAD_PREV, sg) == ps && trm(CHAD_COT, sg) == cs;
  //@ ghost int tyq = tm_ty_[q];
  //@ ghost int qr = ty_right_[tyq];
  //@ assert ab_qty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == ps && ty_same(ty_right_[tyq], TY_LFUN, cs, cg);
  /* p's facts after the call, in small steps */
  //@ assert ab_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert ab_pk: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pf;
  //@ assert ab_tyr: ty_right_[typ] == tyr && ty_valid(tyr) && ty_same(tyr, TY_LFUN, cf, cg);
  //@ assert ab_pr: ty_same(ty_right_[typ], TY_LFUN, cf, cg);
  //@ assert ab_pf: ty_valid(pf) && ty_kind_[pf] == TY_FUN && ty_left_[pf] == ps && ty_right_[pf] == pr;
  //@ assert ab_prr: ty_right_[pr] == prr && ty_valid(prr) && ty_same(prr, TY_LFUN, ct, cs);
  //@ assert ab_pr2: ty_valid(pr) && ty_kind_[pr] == TY_PROD && ty_left_[pr] == pt && ty_same(ty_right_[pr], TY_LFUN, ct, cs);
  //@ assert ab_cf: ty_valid(cf) && ty_same(cf, TY_COPOW, ps, ct) && ty_valid(ct) && lin(ct) && lin(cg);
  //@ assert ab_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d) && ctx_len_[d1] == lp + 1;
  int lq = L(d1), d2 = rev_ext(d1, tyof(q));
  //@ assert d2 >= 0 || d2 == CHAD_E_CAPACITY;
  //@ assert d2_keep: env_keep{Pre, Here};
  //@ assert d2_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b];
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
  //@ assert r_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 5;
  //@ assert r_grow: tables_grow{Prim, Here};
  //@ assert r_side: side_same{Prim, Here};
  //@ assert r_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  if (r < 0) return r;
  //@ assert r_lvl: lvl_ty(d2, lp) == typ && lvl_ty(d2, lq) == tyq;
  //@ assert r_ctx: ctx_valid(d2) && ctx_len_[d2] == lq + 1;
  //@ assert r_typ1: ty_valid(typ) && ty_kind_[typ] == TY_PROD;
  //@ assert r_typ2: ty_same(ty_right_[typ], TY_LFUN, cf, cg);
  //@ assert r_tyq1: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == ps;
  //@ assert r_qr: ty_right_[tyq] == qr && ty_same(qr, TY_LFUN, cs, cg);
  //@ assert r_tyq2: ty_same(ty_right_[tyq], TY_LFUN, cs, cg);
  int lr = L(d2), d3 = rev_ext(d2, tyof(r));
  //@ assert d3 >= 0 || d3 == CHAD_E_CAPACITY;
  //@ assert d3_keep: env_keep{Pre, Here};
  //@ assert d3_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b] + 5;
  if (d3 < 0) return d3;
  //@ assert d3_len: ctx_len_[d3] == lr + 1 && lr == lq + 1 && ctx_type_[d3] == pr && ctx_parent_[d3] == d2;
  //@ assert d3_ext: ctx_is_ext(d3, d2, pr) && ctx_valid(d3);
  //@ assert d3_lr: lvl_ty(d3, lr) == pr;
  //@ assert d3_lq: lvl_ty(d3, lq) == tyq;
  //@ assert d3_lp: lvl_ty(d3, lp) == typ;
  //@ assert d3_ty1: ty_valid(typ) && ty_kind_[typ] == TY_PROD;
  //@ assert d3_ty2: ty_same(ty_right_[typ], TY_LFUN, cf, cg);
  //@ assert d3_tyq1: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == ps;
  //@ assert d3_qr: ty_right_[tyq] == qr && ty_same(qr, TY_LFUN, cs, cg);
  //@ assert d3_tyq2: ty_same(ty_right_[tyq], TY_LFUN, cs, cg);
  //@ assert d3_prr: ty_right_[pr] == prr && ty_valid(prr) && ty_same(prr, TY_LFUN, ct, cs);
  //@ assert d3_pr: ty_valid(pr) && ty_kind_[pr] == TY_PROD && ty_same(ty_right_[pr], TY_LFUN, ct, cs);
  //@ assert d3_cf: ty_valid(cf) && ty_same(cf, TY_COPOW, ps, ct) && ty_valid(ct) && lin(ct) && lin(cg);
  //@ ghost Built: ;
  int lin = rev_app_lin(d3, lp, lq, lr, ct) /*@ ghost (cg, cf, ps, cs, typ, tyq, pr) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d3 && ty_same(tm_ty_[lin], TY_LFUN, ct, cg) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_env: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 21;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg);
  //@ assert tail_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert tail_q: 0 <= q < tm_count && tm_ctx_[q] == d1 && tm_ty_[q] == tyq;
  //@ assert tail_r: 0 <= r < tm_count && tm_ctx_[r] == d2 && tm_ty_[r] == pr;
  //@ assert tail_lvl: lvl_ty(d3, lr) == pr && 0 <= lr < ctx_len_[d3];
  //@ assert tail_ext1: ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
  //@ assert tail_ext2: ctx_is_ext(d2, d1, tm_ty_[q]);
  //@ assert tail_ext3: ctx_is_ext(d3, d2, tm_ty_[r]) && ctx_valid(d3);
  //@ assert tail_pr: ty_valid(pr) && ty_kind_[pr] == TY_PROD && ty_left_[pr] == pt;
  //@ ghost Lin: ;
  int res = let_app_tail(p, q, r, d3, lr, lin) /*@ ghost (d, d1, d2, pt, ct, cg) */;
  //@ assert res >= 0 ==> tm_ctx_[res] == d && \at(tm_count, Pre) <= res < tm_count;
  //@ assert res >= 0 ==> ty_valid(tm_ty_[res]) && ty_kind_[tm_ty_[res]] == TY_PROD && ty_left_[tm_ty_[res]] == pt && ty_same(ty_right_[tm_ty_[res]], TY_LFUN, ct, cg);
  //@ assert res >= 0 || res == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 27;
  //@ assert tables_grow{Lin, Here} && side_same{Lin, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert env_keep{Pre, Here};
  return res;
}

/* let p = R a; q = R b; r = fst p (fst q) in
 * (fst r, \v. snd p (cp_single (fst q) v) + snd q (snd r v)) */
/*@ RULE_PRE(t, d, tm_kind_[t] == TM_APP);
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases REV_M(depth) - 2;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_app(int t, int d, int ct, int depth)
{
  //@ assert node_ok(t) && msrc_ok(t) && msz_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t);
  //@ ghost int fa = tm_ty_[a];
  //@ ghost int sg = tm_ty_[b];
  //@ assert tm_ctx_[a] == g && tm_ctx_[b] == g && ty_valid(fa) && ty_kind_[fa] == TY_FUN;
  //@ assert ty_left_[fa] == sg && ty_right_[fa] == tau;
  //@ assert 0 <= a < t && 0 <= b < t && chad_msrc_[a] == 1 && chad_msrc_[b] == 1;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b]);
  /* the size budget: R a, R b and at most 27 nodes of this rule (or the
   * whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert app_budget: REV_K * chad_msz_[a] + REV_K * chad_msz_[b] + 27 <= REV_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= REV_K * chad_msz_[t]; */
  /*@ ghost int cgv = tm_ctx_[t] == CTX_EMPTY ? TY_ID_UNIT :
        chad_memo_ctx_[CHAD_COT][tm_ctx_[t]] - 1; */
  //@ assert cgv == trc(CHAD_COT, g) && lin(cgv);
  //@ assert memo_ty_inv && trh(CHAD_COT, tau) && trh(CHAD_PREV, tau) && ct == chad_memo_ty_[CHAD_COT][tau] - 1;
  //@ assert app_lin: lin(ct);
  //@ ghost int pt = chad_memo_ty_[CHAD_PREV][tau] - 1;
  int p = rev(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  //@ assert pa_rev: tm_ctx_[p] == d && rev_ty(tm_ty_[p], fa, g) && 0 <= p < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a];
  //@ assert pa_memo: trh(CHAD_PREV, fa) && trh(CHAD_COT, fa) && trc(CHAD_COT, g) == cgv && lin(cgv);
  /* P(s->t) and C(s->t): R a memoised s->t (before the call only t was) */
  //@ assert pa_tau: trm(CHAD_PREV, tau) == pt && trm(CHAD_COT, tau) == ct && lin(ct);
  //@ ghost rev_tr_step(CHAD_PREV, fa);
  //@ ghost rev_tr_step(CHAD_COT, fa);
  //@ ghost int pf = chad_memo_ty_[CHAD_PREV][fa] - 1;
  //@ ghost int cf = chad_memo_ty_[CHAD_COT][fa] - 1;
  //@ assert app_sg: trh(CHAD_PREV, sg) && trh(CHAD_COT, sg);
  //@ ghost int ps = chad_memo_ty_[CHAD_PREV][sg] - 1;
  //@ ghost int cs = chad_memo_ty_[CHAD_COT][sg] - 1;
  //@ assert app_cf: ty_valid(cf) && ty_same(cf, TY_COPOW, ps, ct);
  //@ assert app_pf: ty_valid(pf) && ty_kind_[pf] == TY_FUN && ty_left_[pf] == ps;
  //@ ghost int pr = ty_right_[pf];
  //@ assert app_pr: ty_valid(pr) && ty_kind_[pr] == TY_PROD && ty_left_[pr] == pt;
  //@ assert app_pr2: ty_same(ty_right_[pr], TY_LFUN, ct, cs);
  //@ ghost int typ = tm_ty_[p];
  //@ assert pa_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pf && ty_same(ty_right_[typ], TY_LFUN, cf, cgv);
  int lp = L(d), d1 = rev_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_env: env_ok(CHAD_PREV, g, d1) && ctx_len_[d1] == lp + 1 && ctx_type_[d1] == typ;
  //@ assert pa_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d);
  //@ assert d1_b: tm_ctx_[b] == g && tm_ty_[b] == sg && trch(CHAD_COT, g);
  //@ assert d1_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert b_memo: trh(CHAD_PREV, sg) && trm(CHAD_PREV, sg) == ps && trh(CHAD_COT, sg) && trm(CHAD_COT, sg) == cs;
  //@ ghost Body: ;
  int r = rev_app_body(b, p, d1, lp, ct, depth) /*@ ghost (g, sg, pf, ps, pr, pt, cs, cf, cgv, d, typ) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= REV_K * chad_msz_[b] + 27;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert r >= 0 || r == CHAD_E_CAPACITY || r == CHAD_E_DEPTH;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, ct, cgv);
  //@ assert r_memo1: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt;
  //@ assert r_memo2: trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
  //@ assert r_memo3: trch(CHAD_COT, g) && trc(CHAD_COT, g) == cgv;
  //@ assert r >= 0 ==> rev_ty(tm_ty_[r], \at(tm_ty_[t], Pre), \at(tm_ctx_[t], Pre));
  return r;
}

/* The second half of R(pair a b), from the call R b on: in d1 = d, p (p =
 * R a at level lp),
 *   let q = R b in let p in let q in ((fst p, fst q), \v. snd p (fst v) + snd q (snd v))
 * One recursive call per function (as rev_index_body): in one function
 * with R a, the frame goals after the second call (ensures_8) failed
 * under the full gate's load. */
/*@ requires REV_INV;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[b] == g && tm_ty_[b] == tb;
    requires env_ok(CHAD_PREV, g, d1);
    requires trh(CHAD_PREV, tb) && trm(CHAD_PREV, tb) == pb && trh(CHAD_COT, tb) && trm(CHAD_COT, tb) == cb;
    requires trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg && lin(cg);
    requires ty_valid(pt) && ty_same(pt, TY_PROD, pa, pb);
    requires ty_valid(ct) && ty_same(ct, TY_PROD, ca, cb);
    requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
    requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_len_[d1] == lp + 1;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa &&
      ty_same(ty_right_[typ], TY_LFUN, ca, cg);
    terminates \true;
    decreases REV_M(depth) - 3;
    REV_ASSIGNS;
    REV_FRAME;
    ensures pbody_size: tm_count - \old(tm_count) <= REV_K * chad_msz_[b] + 20;
    ensures pbody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures pbody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg);
*/
static int rev_pair_body(int b, int p, int d1, int lp, int ct, int depth)
  /*@ ghost (int g, int tb, int pa, int pb, int ca, int cb, int pt, int cg, int d, int typ) */
{
  int q = rev(b, d1, depth + 1);
  //@ assert pb_keep: env_keep{Pre, Here};
  //@ assert pb_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b];
  if (q < 0) return q;
  //@ assert pb_b: tm_ctx_[b] == g && tm_ty_[b] == tb;
  //@ assert pb_rev: tm_ctx_[q] == d1 && rev_ty(tm_ty_[q], tb, g) && 0 <= q < tm_count;
  //@ assert pb_memo1: trc(CHAD_COT, g) == cg;
  //@ assert pb_memo2: trm(CHAD_PREV, tb) == pb && trm(CHAD_COT, tb) == cb;
  //@ ghost int tyq = tm_ty_[q];
  //@ assert pb_qty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pb && ty_same(ty_right_[tyq], TY_LFUN, cb, cg);
  /* p's facts after the call, in small steps */
  //@ assert pb_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert pb_pk: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa;
  //@ assert pb_pr: ty_same(ty_right_[typ], TY_LFUN, ca, cg);
  //@ assert pb_ct: ty_valid(ct) && ty_same(ct, TY_PROD, ca, cb) && lin(cg);
  //@ assert pb_pt: ty_valid(pt) && ty_same(pt, TY_PROD, pa, pb);
  //@ assert pb_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d) && ctx_len_[d1] == lp + 1;
  int lq = L(d1), d2 = rev_ext(d1, tyof(q));
  //@ assert d2 >= 0 || d2 == CHAD_E_CAPACITY;
  //@ assert d2_keep: env_keep{Pre, Here};
  //@ assert d2_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b];
  if (d2 < 0) return d2;
  //@ assert d2_len: ctx_len_[d2] == lq + 1 && lq == lp + 1 && ctx_type_[d2] == tyq && ctx_parent_[d2] == d1;
  //@ assert d2_ext: ctx_is_ext(d2, d1, tyq) && ctx_valid(d2);
  //@ assert d2_ext2: ctx_is_ext(d1, d, typ) && ctx_valid(d);
  //@ assert d2_lq: lvl_ty(d2, lq) == tyq;
  //@ assert d2_lp1: lvl_ty(d1, lp) == typ;
  //@ assert d2_lp: lvl_ty(d2, lp) == typ && 0 <= lp < lq < ctx_len_[d2];
  //@ assert pl_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, ca, cg);
  //@ assert ql_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, cb, cg);
  //@ assert pl_at: lin_at(d2, lp, ca, cg);
  //@ assert ql_at: lin_at(d2, lq, cb, cg);
  //@ assert ct_ok: ty_valid(ct) && ty_kind_[ct] == TY_PROD && ty_left_[ct] == ca && ty_right_[ct] == cb && lin(cg);
  //@ ghost Built: ;
  int lin = rev_pair_lin(d2, lp, lq, ct) /*@ ghost (cg) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d2 && ty_same(tm_ty_[lin], TY_LFUN, ct, cg) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_env: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 12;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg);
  //@ assert tail_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert tail_q: 0 <= q < tm_count && tm_ctx_[q] == d1 && tm_ty_[q] == tyq;
  //@ assert tail_lvl: lvl_ty(d2, lp) == typ && lvl_ty(d2, lq) == tyq;
  //@ assert tail_ext: ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]) && ctx_is_ext(d2, d1, tm_ty_[q]) && ctx_valid(d2);
  //@ assert tail_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pb;
  //@ assert tail_pt: ty_valid(pt) && ty_same(pt, TY_PROD, pa, pb);
  //@ ghost Lin: ;
  int r = let_pair_tail(p, q, d2, lp, lq, lin) /*@ ghost (d, d1, pt, pa, pb, ct, cg) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ assert r >= 0 ==> ty_valid(tm_ty_[r]) && ty_kind_[tm_ty_[r]] == TY_PROD && ty_left_[tm_ty_[r]] == pt && ty_same(ty_right_[tm_ty_[r]], TY_LFUN, ct, cg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 20;
  //@ assert tables_grow{Lin, Here} && side_same{Lin, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* let p = R a; q = R b in ((fst p, fst q), \v. snd p (fst v) + snd q (snd v)) */
/*@ RULE_PRE(t, d, tm_kind_[t] == TM_PAIR);
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases REV_M(depth) - 2;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_pair(int t, int d, int ct, int depth)
{
  //@ assert node_ok(t) && msrc_ok(t) && msz_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t);
  //@ assert 0 <= a < t && 0 <= b < t && chad_msrc_[a] == 1 && chad_msrc_[b] == 1;
  //@ assert tm_ctx_[a] == g && tm_ctx_[b] == g && ty_same(tau, TY_PROD, tm_ty_[a], tm_ty_[b]);
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b]);
  /* the size budget: R a, R b and at most 20 nodes of this rule (or the
   * whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert pair_budget: REV_K * chad_msz_[a] + REV_K * chad_msz_[b] + 20 <= REV_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= REV_K * chad_msz_[t]; */
  //@ ghost int ta = tm_ty_[a];
  //@ ghost int tb = tm_ty_[b];
  /*@ ghost int cgv = tm_ctx_[t] == CTX_EMPTY ? TY_ID_UNIT :
        chad_memo_ctx_[CHAD_COT][tm_ctx_[t]] - 1; */
  //@ assert cgv == trc(CHAD_COT, g) && lin(cgv);
  //@ assert memo_ty_inv && trh(CHAD_COT, tau) && trh(CHAD_PREV, tau) && ct == chad_memo_ty_[CHAD_COT][tau] - 1;
  //@ assert cot_tr: tr_ok(CHAD_COT, tau, chad_memo_ty_[CHAD_COT][tau] - 1);
  //@ assert tr_ok(CHAD_COT, tau, ct);
  //@ assert tr_ok(CHAD_PREV, tau, chad_memo_ty_[CHAD_PREV][tau] - 1);
  //@ assert trh(CHAD_COT, ta) && trh(CHAD_COT, tb) && trh(CHAD_PREV, ta) && trh(CHAD_PREV, tb);
  //@ assert ty_same(ct, TY_PROD, trm(CHAD_COT, ta), trm(CHAD_COT, tb)) && ty_valid(ct);
  //@ assert ty_same(trm(CHAD_PREV, tau), TY_PROD, trm(CHAD_PREV, ta), trm(CHAD_PREV, tb));
  //@ ghost int pt = chad_memo_ty_[CHAD_PREV][tau] - 1;
  //@ ghost int pa = chad_memo_ty_[CHAD_PREV][ta] - 1;
  //@ ghost int pb = chad_memo_ty_[CHAD_PREV][tb] - 1;
  //@ ghost int ca = chad_memo_ty_[CHAD_COT][ta] - 1;
  //@ ghost int cb = chad_memo_ty_[CHAD_COT][tb] - 1;
  //@ assert pair_p: ty_valid(pt) && ty_same(pt, TY_PROD, pa, pb);
  //@ assert pair_c: ty_valid(ct) && ty_same(ct, TY_PROD, ca, cb);
  int p = rev(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  //@ assert pa_rev: tm_ctx_[p] == d && rev_ty(tm_ty_[p], ta, g) && 0 <= p < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a];
  //@ assert pa_memo: trm(CHAD_PREV, ta) == pa && trm(CHAD_COT, ta) == ca && trc(CHAD_COT, g) == cgv && lin(cgv);
  //@ assert pa_memo2: trh(CHAD_PREV, tb) && trh(CHAD_COT, tb) && trm(CHAD_PREV, tb) == pb && trm(CHAD_COT, tb) == cb;
  //@ assert pa_memo3: trh(CHAD_PREV, tau) && trh(CHAD_COT, tau) && trm(CHAD_PREV, tau) == pt && trm(CHAD_COT, tau) == ct;
  //@ ghost int typ = tm_ty_[p];
  //@ assert pa_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_same(ty_right_[typ], TY_LFUN, ca, cgv);
  //@ assert pa_pt: ty_valid(pt) && ty_same(pt, TY_PROD, pa, pb) && ty_valid(ct) && ty_same(ct, TY_PROD, ca, cb);
  int lp = L(d), d1 = rev_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_env: env_ok(CHAD_PREV, g, d1) && ctx_len_[d1] == lp + 1 && ctx_type_[d1] == typ;
  //@ assert pa_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d);
  //@ assert d1_b: tm_ctx_[b] == g && tm_ty_[b] == tb && trch(CHAD_COT, g);
  //@ assert d1_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert b_memo: trh(CHAD_PREV, tau) && trh(CHAD_COT, tau) && trm(CHAD_PREV, tau) == pt && trm(CHAD_COT, tau) == ct;
  //@ ghost Body: ;
  int r = rev_pair_body(b, p, d1, lp, ct, depth) /*@ ghost (g, tb, pa, pb, ca, cb, pt, cgv, d, typ) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= REV_K * chad_msz_[b] + 20;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert r >= 0 || r == CHAD_E_CAPACITY || r == CHAD_E_DEPTH;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, ct, cgv);
  //@ assert r_memo1: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt;
  //@ assert r_memo2: trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
  //@ assert r_memo3: trch(CHAD_COT, g) && trc(CHAD_COT, g) == cgv;
  //@ assert r >= 0 ==> rev_ty(tm_ty_[r], \at(tm_ty_[t], Pre), \at(tm_ctx_[t], Pre));
  return r;
}

/* The builders of R's one-child rules: from p = R a (in d, type
 * typ = pa * (ca -o cg), bound at level lp of d1 = d, p) to
 *   let p in (prim, \v. lin)     : pt * (ct -o cg)
 * one per kind, against the kernel's invariant only (as rev_pair_lin: the
 * rule gets the pass invariants back by the frame). Their common
 * precondition: */
/*@ predicate unary_at(integer p, integer d, integer d1, integer lp, integer typ,
                       integer pa, integer ca, integer cg) =
      0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ && ctx_valid(d) &&
      ctx_is_ext(d1, d, typ) && ctx_valid(d1) && 0 <= lp < ctx_len_[d1] && lvl_ty(d1, lp) == typ &&
      ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa &&
      ty_same(ty_right_[typ], TY_LFUN, ca, cg) && ty_valid(pa) && ty_valid(ca) && lin(cg);
*/
#define UNARY_BUILD_POST(k) \
  terminates \true; \
  assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE; \
  ensures kernel_inv; \
  ensures unary_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d && \
    ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD && \
    ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg); \
  ensures unary_codes: \result >= 0 || \result == CHAD_E_CAPACITY; \
  ensures unary_size: \old(tm_count) <= tm_count <= \old(tm_count) + (k); \
  ensures unary_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count; \
  ensures unary_grow: tables_grow{Pre, Post} && side_same{Pre, Post}; \
  ensures env_keep{Pre, Post}

/* R(fst a): (fst (fst p), \v. snd p (v, 0)); R(snd a): (snd (fst p),
 * \v. snd p (0, v)). pa = P(A * B), ca = C(A * B) = CA * CB. */
/*@ requires kernel_inv && unary_at(p, d, d1, lp, typ, pa, ca, cg);
    requires ty_kind_[pa] == TY_PROD && ty_kind_[ca] == TY_PROD;
    requires lin(ty_left_[ca]) && lin(ty_right_[ca]) && ty_valid(ct);
    requires is_snd == 0 ==> ty_left_[pa] == pt && ty_left_[ca] == ct;
    requires is_snd != 0 ==> ty_right_[pa] == pt && ty_right_[ca] == ct;
    UNARY_BUILD_POST(12);
*/
static int rev_proj_build(int p, int d1, int lp, int ct, int is_snd)
  /*@ ghost (int d, int typ, int pa, int ca, int pt, int cg) */
{
  //@ assert ty_inv && ty_node_ok(ca) && ty_node_ok(pa);
  //@ ghost int cl = ty_left_[ca];
  //@ ghost int cr = ty_right_[ca];
  //@ assert ty_valid(cl) && ty_valid(cr) && lin(cl) && lin(cr) && ty_same(ca, TY_PROD, cl, cr);
  int cav = ty_left(ty_right(tyof(p)));
  //@ assert cav == ca;
  int other = is_snd ? ty_left(cav) : ty_right(cav);
  //@ assert is_snd == 0 ==> other == cr && ct == cl;
  //@ assert is_snd != 0 ==> other == cl && ct == cr;
  //@ assert ty_valid(other) && lin(other);
  int lv = L(d1), d2 = k_ext(d1, ct);
  if (d2 < 0) return d2;
  //@ assert d2_lv: lvl_ty(d2, lv) == ct && ctx_parent_[d2] == d1 && ctx_type_[d2] == ct;
  //@ assert d2_lp: lvl_ty(d2, lp) == typ;
  int vp = V(d2, lp);
  //@ assert vp >= 0 ==> tm_ctx_[vp] == d2 && tm_ty_[vp] == typ && 0 <= vp < tm_count;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int dx = b_snd(vp);
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && ty_same(tm_ty_[dx], TY_LFUN, ca, cg) && 0 <= dx < tm_count;
  //@ assert dx >= 0 || dx == CHAD_E_CAPACITY;
  int v = V(d2, lv);
  //@ assert v >= 0 ==> tm_ctx_[v] == d2 && tm_ty_[v] == ct && 0 <= v < tm_count;
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  int z = b_zero(d2, other);
  //@ assert z >= 0 ==> tm_ctx_[z] == d2 && tm_ty_[z] == other && 0 <= z < tm_count;
  //@ assert z >= 0 || z == CHAD_E_CAPACITY;
  //@ assert v >= 0 ==> tm_ctx_[v] == d2 && tm_ty_[v] == ct && 0 <= v < tm_count;
  int pr = b_pair_side(v, z, is_snd);
  //@ assert pr >= 0 ==> tm_ctx_[pr] == d2 && ty_same(tm_ty_[pr], TY_PROD, cl, cr) && ty_valid(tm_ty_[pr]) && 0 <= pr < tm_count;
  //@ assert ca_same: ty_inv && ty_valid(ca) && ty_same(ca, TY_PROD, cl, cr);
  /* hash-consing: the pair of cotangents is C(A * B) itself */
  //@ assert pr_id: pr >= 0 ==> tm_ty_[pr] == ca;
  //@ assert pr >= 0 || pr == CHAD_E_CAPACITY;
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && ty_same(tm_ty_[dx], TY_LFUN, ca, cg) && 0 <= dx < tm_count;
  int lin = b_lapp(dx, pr);
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d2 && tm_ty_[lin] == cg && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin >= 0 ==> ty_valid(ct) && llam_ok(ct, tm_ctx_[lin], tm_ty_[lin]);
  int lam = b_llam(ct, lin);
  //@ assert lam_at: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, ct, cg);
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
  int prim = b_proj(x, is_snd);
  //@ assert prim >= 0 ==> tm_ctx_[prim] == d1 && tm_ty_[prim] == pt && 0 <= prim < tm_count;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ ghost Prim: ;
  //@ assert lam_at2: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty2: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, ct, cg) && ty_valid(tm_ty_[lam]);
  //@ assert tm_count <= \at(tm_count, Pre) + 10;
  if (prim < 0) return prim;
  if (lam < 0) return lam;
  //@ assert p_at: 0 <= p < tm_count && tm_ctx_[p] == d && ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
  int r = let_unary_tail(p, prim, lam) /*@ ghost (d, d1, pt, ct, cg) */;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* R(sum a) = (sum (fst p), \v. snd p (build (length (fst p)) (i. v))):
 * a : Arr Real, P = C = id on Real and Arr Real (pa = ca = Arr Real). */
/*@ requires kernel_inv && unary_at(p, d, d1, lp, typ, pa, ca, cg);
    requires ty_same(pa, TY_ARR, TY_ID_REAL, -1) && ty_same(ca, TY_ARR, TY_ID_REAL, -1);
    requires pt == TY_ID_REAL && ct == TY_ID_REAL;
    UNARY_BUILD_POST(14);
*/
static int rev_sum_build(int p, int d1, int lp)
  /*@ ghost (int d, int typ, int pa, int ca, int pt, int ct, int cg) */
{
  int lv = L(d1), d2 = k_ext(d1, TY_ID_REAL);
  if (d2 < 0) return d2;
  //@ assert d2_lv: lvl_ty(d2, lv) == TY_ID_REAL && ctx_parent_[d2] == d1 && ctx_type_[d2] == TY_ID_REAL;
  //@ assert d2_lp: lvl_ty(d2, lp) == typ && ctx_valid(d2) && ctx_len_[d2] == lv + 1;
  int vp = V(d2, lp);
  //@ assert vp >= 0 ==> tm_ctx_[vp] == d2 && tm_ty_[vp] == typ && 0 <= vp < tm_count;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int dx = b_snd(vp);
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && ty_same(tm_ty_[dx], TY_LFUN, ca, cg) && 0 <= dx < tm_count;
  //@ assert dx >= 0 || dx == CHAD_E_CAPACITY;
  int vp2 = V(d2, lp);
  //@ assert vp2 >= 0 ==> tm_ctx_[vp2] == d2 && tm_ty_[vp2] == typ && 0 <= vp2 < tm_count;
  //@ assert vp2 >= 0 || vp2 == CHAD_E_CAPACITY;
  int x2 = b_fst(vp2);
  //@ assert x2 >= 0 ==> tm_ctx_[x2] == d2 && tm_ty_[x2] == pa && 0 <= x2 < tm_count;
  //@ assert x2 >= 0 || x2 == CHAD_E_CAPACITY;
  int n = b_length(x2);
  //@ assert n >= 0 ==> tm_ctx_[n] == d2 && tm_ty_[n] == TY_ID_INT && 0 <= n < tm_count;
  //@ assert n >= 0 || n == CHAD_E_CAPACITY;
  int e = k_ext(d2, TY_ID_INT);
  if (e < 0) return e;
  //@ assert e_ext: ctx_is_ext(e, d2, TY_ID_INT) && ctx_valid(e) && lvl_ty(e, lv) == TY_ID_REAL && lv < ctx_len_[e];
  int v = V(e, lv);
  //@ assert v >= 0 ==> tm_ctx_[v] == e && tm_ty_[v] == TY_ID_REAL && 0 <= v < tm_count;
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  //@ assert n >= 0 ==> tm_ctx_[n] == d2 && tm_ty_[n] == TY_ID_INT && 0 <= n < tm_count;
  //@ assert n >= 0 && v >= 0 ==> build_ok(tm_ctx_[n], tm_ty_[n], tm_ctx_[v]);
  int bl = b_build(n, v);
  //@ assert bl >= 0 ==> tm_ctx_[bl] == d2 && ty_same(tm_ty_[bl], TY_ARR, TY_ID_REAL, -1) && ty_valid(tm_ty_[bl]) && 0 <= bl < tm_count;
  /* hash-consing: the built array's type is C(Arr Real) itself */
  //@ assert bl_id: bl >= 0 ==> tm_ty_[bl] == ca;
  //@ assert bl >= 0 || bl == CHAD_E_CAPACITY;
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && ty_same(tm_ty_[dx], TY_LFUN, ca, cg) && 0 <= dx < tm_count;
  int lin = b_lapp(dx, bl);
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d2 && tm_ty_[lin] == cg && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin >= 0 ==> llam_ok(TY_ID_REAL, tm_ctx_[lin], tm_ty_[lin]);
  int lam = b_llam(TY_ID_REAL, lin);
  //@ assert lam_at: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, ct, cg);
  //@ assert lam_ok: lam >= 0 ==> ty_valid(tm_ty_[lam]);
  //@ assert lam >= 0 || lam == CHAD_E_CAPACITY;
  //@ assert cnt_lam: tm_count <= \at(tm_count, Pre) + 9;
  //@ assert d1_lp2: ctx_valid(d1) && 0 <= lp < ctx_len_[d1] && lvl_ty(d1, lp) == typ;
  int vx = V(d1, lp);
  //@ assert vx >= 0 ==> tm_ctx_[vx] == d1 && tm_ty_[vx] == typ && 0 <= vx < tm_count;
  //@ assert vx >= 0 || vx == CHAD_E_CAPACITY;
  int x = b_fst(vx);
  //@ assert x >= 0 ==> tm_ctx_[x] == d1 && tm_ty_[x] == pa && 0 <= x < tm_count;
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  /* sum's side condition on x, stated before the call (framing pa's node
   * through the whole build inside the call's goal took Z3 20 s) */
  //@ assert pa_sum: ty_valid(pa) && ty_same(pa, TY_ARR, TY_ID_REAL, -1);
  //@ assert x_sum: x >= 0 ==> 0 <= x < tm_count && sum_ok(tm_ty_[x]);
  int prim = b_sum(x);
  //@ assert prim >= 0 ==> tm_ctx_[prim] == d1 && tm_ty_[prim] == pt && 0 <= prim < tm_count;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert lam_at2: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty2: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, ct, cg) && ty_valid(tm_ty_[lam]);
  //@ assert tm_count <= \at(tm_count, Pre) + 12;
  if (prim < 0) return prim;
  if (lam < 0) return lam;
  //@ assert p_at: 0 <= p < tm_count && tm_ctx_[p] == d && ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
  int r = let_unary_tail(p, prim, lam) /*@ ghost (d, d1, pt, ct, cg) */;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* R(length a) = (length (fst p), \v. 0): a : Arr A, pa = Arr P A,
 * pt = Int, ct = C Int = Unit. */
/*@ requires kernel_inv && unary_at(p, d, d1, lp, typ, pa, ca, cg);
    requires ty_kind_[pa] == TY_ARR && pt == TY_ID_INT && ct == TY_ID_UNIT;
    UNARY_BUILD_POST(7);
*/
static int rev_length_build(int p, int d1, int lp, int cg)
  /*@ ghost (int d, int typ, int pa, int ca, int pt, int ct) */
{
  int d2 = k_ext(d1, TY_ID_UNIT);
  if (d2 < 0) return d2;
  //@ assert d2_ctx: ctx_parent_[d2] == d1 && ctx_type_[d2] == TY_ID_UNIT && ctx_valid(d2) && 0 < d2;
  //@ assert lin(cg) && ty_valid(cg);
  int z = b_zero(d2, cg);
  //@ assert z >= 0 ==> tm_ctx_[z] == d2 && tm_ty_[z] == cg && 0 <= z < tm_count;
  //@ assert z >= 0 || z == CHAD_E_CAPACITY;
  //@ assert z >= 0 ==> llam_ok(TY_ID_UNIT, tm_ctx_[z], tm_ty_[z]);
  int lam = b_llam(TY_ID_UNIT, z);
  //@ assert lam_at: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, ct, cg);
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
  //@ assert lam_ty2: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, ct, cg) && ty_valid(tm_ty_[lam]);
  //@ assert tm_count <= \at(tm_count, Pre) + 5;
  if (prim < 0) return prim;
  if (lam < 0) return lam;
  //@ assert p_at: 0 <= p < tm_count && tm_ctx_[p] == d && ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
  int r = let_unary_tail(p, prim, lam) /*@ ghost (d, d1, pt, ct, cg) */;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* R(inl a) = (inl (fst p), \v. snd p (fst v)); R(inr a) = (inr (fst p),
 * \v. snd p (snd v)). tau = A + B: pt = PA + PB, ct = CA * CB; a : A
 * (inl) or B (inr); other = P of the other side (PB for inl). */
/*@ requires kernel_inv && unary_at(p, d, d1, lp, typ, pa, ca, cg);
    requires ty_valid(other) && ty_valid(ct) && ty_kind_[ct] == TY_PROD && lin(ct);
    requires is_inr == 0 ==> ty_same(pt, TY_SUM, pa, other) && ty_left_[ct] == ca;
    requires is_inr != 0 ==> ty_same(pt, TY_SUM, other, pa) && ty_right_[ct] == ca;
    requires ty_valid(pt);
    UNARY_BUILD_POST(11);
*/
static int rev_inj_build(int p, int d1, int lp, int ct, int other, int is_inr)
  /*@ ghost (int d, int typ, int pa, int ca, int pt, int cg) */
{
  int lv = L(d1), d2 = k_ext(d1, ct);
  if (d2 < 0) return d2;
  //@ assert d2_lv: lvl_ty(d2, lv) == ct && ctx_parent_[d2] == d1 && ctx_type_[d2] == ct;
  //@ assert d2_lp: lvl_ty(d2, lp) == typ;
  int vp = V(d2, lp);
  //@ assert vp >= 0 ==> tm_ctx_[vp] == d2 && tm_ty_[vp] == typ && 0 <= vp < tm_count;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int dx = b_snd(vp);
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && ty_same(tm_ty_[dx], TY_LFUN, ca, cg) && 0 <= dx < tm_count;
  //@ assert dx >= 0 || dx == CHAD_E_CAPACITY;
  int v = V(d2, lv);
  //@ assert v >= 0 ==> tm_ctx_[v] == d2 && tm_ty_[v] == ct && 0 <= v < tm_count;
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  int pv = b_proj(v, is_inr);
  //@ assert pv >= 0 ==> tm_ctx_[pv] == d2 && tm_ty_[pv] == ca && 0 <= pv < tm_count;
  //@ assert pv >= 0 || pv == CHAD_E_CAPACITY;
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && ty_same(tm_ty_[dx], TY_LFUN, ca, cg) && 0 <= dx < tm_count;
  int lin = b_lapp(dx, pv);
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d2 && tm_ty_[lin] == cg && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin >= 0 ==> ty_valid(ct) && llam_ok(ct, tm_ctx_[lin], tm_ty_[lin]);
  int lam = b_llam(ct, lin);
  //@ assert lam_at: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, ct, cg);
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
  int prim = b_inj(x, other, is_inr);
  //@ assert is_inr == 0 ==> (prim >= 0 ==> tm_ctx_[prim] == d1 && ty_same(tm_ty_[prim], TY_SUM, pa, other) && ty_valid(tm_ty_[prim]));
  //@ assert is_inr != 0 ==> (prim >= 0 ==> tm_ctx_[prim] == d1 && ty_same(tm_ty_[prim], TY_SUM, other, pa) && ty_valid(tm_ty_[prim]));
  //@ assert pt_same: ty_inv && ty_valid(pt) && (is_inr == 0 ==> ty_same(pt, TY_SUM, pa, other)) && (is_inr != 0 ==> ty_same(pt, TY_SUM, other, pa));
  /* hash-consing: the injection's type is P(A + B) itself */
  //@ assert prim_id0: is_inr == 0 ==> (prim >= 0 ==> tm_ty_[prim] == pt);
  //@ assert prim_id1: is_inr != 0 ==> (prim >= 0 ==> tm_ty_[prim] == pt);
  //@ assert prim_id: prim >= 0 ==> tm_ty_[prim] == pt && 0 <= prim < tm_count;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert lam_at2: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty2: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, ct, cg) && ty_valid(tm_ty_[lam]);
  //@ assert tm_count <= \at(tm_count, Pre) + 9;
  if (prim < 0) return prim;
  if (lam < 0) return lam;
  //@ assert p_at: 0 <= p < tm_count && tm_ctx_[p] == d && ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
  int r = let_unary_tail(p, prim, lam) /*@ ghost (d, d1, pt, ct, cg) */;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* R(op o a) = (op o (fst p), \v. snd p (DopT o (fst p) v)). A
 * primitive's signature is first-order with its tangent signature in the
 * op table (op_inv, through ty_tan_), so P and C of it are the table's
 * own types: pa = dom o, ca = tdom o, pt = cod o, ct = tcod o
 * (fo_tr_lemma). */
/*@ requires kernel_inv && memo_ty_inv && unary_at(p, d, d1, lp, typ, pa, ca, cg);
    requires 0 <= o < op_count && ty_valid(ct) && lin(ct);
    requires trh(CHAD_PREV, op_dom_[o]) && pa == trm(CHAD_PREV, op_dom_[o]);
    requires trh(CHAD_COT, op_dom_[o]) && ca == trm(CHAD_COT, op_dom_[o]);
    requires trh(CHAD_PREV, op_cod_[o]) && pt == trm(CHAD_PREV, op_cod_[o]);
    requires trh(CHAD_COT, op_cod_[o]) && ct == trm(CHAD_COT, op_cod_[o]);
    UNARY_BUILD_POST(13);
*/
static int rev_op_build(int p, int d1, int lp, int o, int ct)
  /*@ ghost (int d, int typ, int pa, int ca, int pt, int cg) */
{
  //@ assert op_sig: ty_tan_[op_dom_[o]] == op_tdom_[o] && ty_tan_[op_cod_[o]] == op_tcod_[o];
  //@ assert op_val: ty_valid(op_dom_[o]) && ty_valid(op_cod_[o]) && 0 <= op_tdom_[o] && 0 <= op_tcod_[o];
  //@ ghost fo_tr_lemma(CHAD_PREV, op_dom_[o], op_tdom_[o]);
  //@ ghost fo_tr_lemma(CHAD_COT, op_dom_[o], op_tdom_[o]);
  //@ ghost fo_tr_lemma(CHAD_PREV, op_cod_[o], op_tcod_[o]);
  //@ ghost fo_tr_lemma(CHAD_COT, op_cod_[o], op_tcod_[o]);
  //@ assert op_tys: pa == op_dom_[o] && ca == op_tdom_[o] && pt == op_cod_[o] && ct == op_tcod_[o];
  int lv = L(d1), d2 = k_ext(d1, ct);
  if (d2 < 0) return d2;
  //@ assert d2_lv: lvl_ty(d2, lv) == ct && ctx_parent_[d2] == d1 && ctx_type_[d2] == ct;
  //@ assert d2_lp: lvl_ty(d2, lp) == typ;
  int vp = V(d2, lp);
  //@ assert vp >= 0 ==> tm_ctx_[vp] == d2 && tm_ty_[vp] == typ && 0 <= vp < tm_count;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int dx = b_snd(vp);
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && ty_same(tm_ty_[dx], TY_LFUN, ca, cg) && 0 <= dx < tm_count;
  //@ assert dx >= 0 || dx == CHAD_E_CAPACITY;
  int vq = V(d2, lp);
  //@ assert vq >= 0 ==> tm_ctx_[vq] == d2 && tm_ty_[vq] == typ && 0 <= vq < tm_count;
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int xq = b_fst(vq);
  //@ assert xq >= 0 ==> tm_ctx_[xq] == d2 && tm_ty_[xq] == pa && 0 <= xq < tm_count;
  //@ assert xq >= 0 || xq == CHAD_E_CAPACITY;
  int v = V(d2, lv);
  //@ assert v >= 0 ==> tm_ctx_[v] == d2 && tm_ty_[v] == ct && 0 <= v < tm_count;
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  int dv = b_lop_dt(o, xq, v);
  //@ assert dv >= 0 ==> tm_ctx_[dv] == d2 && tm_ty_[dv] == ca && 0 <= dv < tm_count;
  //@ assert dv >= 0 || dv == CHAD_E_CAPACITY;
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && ty_same(tm_ty_[dx], TY_LFUN, ca, cg) && 0 <= dx < tm_count;
  int lin = b_lapp(dx, dv);
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d2 && tm_ty_[lin] == cg && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin >= 0 ==> ty_valid(ct) && llam_ok(ct, tm_ctx_[lin], tm_ty_[lin]);
  int lam = b_llam(ct, lin);
  //@ assert lam_at: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, ct, cg);
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
  //@ assert lam_ty2: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, ct, cg) && ty_valid(tm_ty_[lam]);
  //@ assert tm_count <= \at(tm_count, Pre) + 11;
  if (prim < 0) return prim;
  if (lam < 0) return lam;
  //@ assert p_at: 0 <= p < tm_count && tm_ctx_[p] == d && ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
  int r = let_unary_tail(p, prim, lam) /*@ ghost (d, d1, pt, ct, cg) */;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* one child: let p = R a in (op (fst p), \v. snd p (op' v)) for
 * fst, snd, sum, length, op, inl, inr: R a and p's extension here, the
 * rest in the kind's builder */
/*@ RULE_PRE(t, d, tm_kind_[t] == TM_FST || tm_kind_[t] == TM_SND || tm_kind_[t] == TM_SUM || tm_kind_[t] == TM_LENGTH || tm_kind_[t] == TM_OP || tm_kind_[t] == TM_INL || tm_kind_[t] == TM_INR);
    requires cg == trc(CHAD_COT, tm_ctx_[t]) && ty == tm_ty_[t];
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases REV_M(depth) - 2;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_unary(int t, int d, int cg, int ty, int ct, int depth)
{
  //@ assert node_ok(t) && msrc_ok(t) && msz_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int kind = tm_kind(t);
  int a = tm_a(t);
  //@ ghost int ta = tm_ty_[a];
  //@ assert 0 <= a < t && chad_msrc_[a] == 1 && tm_ctx_[a] == g;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a]);
  /* the size budget: R a and at most 14 nodes of this rule (or the whole
   * arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert un_budget: REV_K * chad_msz_[a] + 14 <= REV_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= REV_K * chad_msz_[t]; */
  //@ assert cg == trc(CHAD_COT, g) && lin(cg);
  //@ assert memo_ty_inv && trh(CHAD_COT, tau) && trh(CHAD_PREV, tau) && ct == chad_memo_ty_[CHAD_COT][tau] - 1;
  //@ assert un_lin: lin(ct) && ty_valid(ct);
  //@ ghost int pt = chad_memo_ty_[CHAD_PREV][tau] - 1;
  int p = rev(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  //@ assert pa_rev: tm_ctx_[p] == d && rev_ty(tm_ty_[p], ta, g) && 0 <= p < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a];
  //@ assert pa_memo: trh(CHAD_PREV, ta) && trh(CHAD_COT, ta) && trc(CHAD_COT, g) == cg && lin(cg);
  //@ assert pa_tau: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
  //@ ghost rev_tr_step(CHAD_PREV, ta);
  //@ ghost rev_tr_step(CHAD_COT, ta);
  //@ ghost rev_tr_step(CHAD_PREV, tau);
  //@ ghost rev_tr_step(CHAD_COT, tau);
  //@ ghost int pa = chad_memo_ty_[CHAD_PREV][ta] - 1;
  //@ ghost int ca = chad_memo_ty_[CHAD_COT][ta] - 1;
  //@ ghost int typ = tm_ty_[p];
  //@ assert pa_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_same(ty_right_[typ], TY_LFUN, ca, cg);
  //@ assert pa_valid: ty_valid(pa) && ty_valid(ca) && ty_valid(pt);
  int lp = L(d), d1 = rev_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d) && ctx_len_[d1] == lp + 1;
  //@ assert d1_lp: lvl_ty(d1, lp) == typ && 0 <= lp < ctx_len_[d1];
  //@ assert d1_at: unary_at(p, d, d1, lp, typ, pa, ca, cg);
  //@ ghost Built: ;
  int r;
  if (kind == TM_FST || kind == TM_SND) {
    //@ assert ty_kind_[ta] == TY_PROD && (kind == TM_FST ? ty_left_[ta] == tau : ty_right_[ta] == tau);
    //@ assert proj_pa: ty_kind_[pa] == TY_PROD && ty_kind_[ca] == TY_PROD;
    //@ assert proj_lin: lin(ty_left_[ca]) && lin(ty_right_[ca]);
    //@ assert proj_fst: kind == TM_FST ==> ty_left_[pa] == pt && ty_left_[ca] == ct;
    //@ assert proj_snd: kind == TM_SND ==> ty_right_[pa] == pt && ty_right_[ca] == ct;
    r = rev_proj_build(p, d1, lp, ct, kind == TM_SND) /*@ ghost (d, typ, pa, ca, pt, cg) */;
  } else if (kind == TM_SUM) {
    //@ assert sum_ok(ta) && tau == TY_ID_REAL;
    //@ assert sum_pa: ty_same(pa, TY_ARR, TY_ID_REAL, -1) && ty_same(ca, TY_ARR, TY_ID_REAL, -1);
    //@ assert sum_pt: pt == TY_ID_REAL && ct == TY_ID_REAL;
    r = rev_sum_build(p, d1, lp) /*@ ghost (d, typ, pa, ca, pt, ct, cg) */;
  } else if (kind == TM_LENGTH) {
    //@ assert arr_ok(ta) && tau == TY_ID_INT;
    //@ assert len_pa: ty_kind_[pa] == TY_ARR && pt == TY_ID_INT && ct == TY_ID_UNIT;
    r = rev_length_build(p, d1, lp, cg) /*@ ghost (d, typ, pa, ca, pt, ct) */;
  } else if (kind == TM_OP) {
    //@ assert op_ok(tm_aux_[t], ta) && tau == op_cod_[tm_aux_[t]];
    //@ assert 0 <= tm_aux_[t] < op_count && ta == op_dom_[tm_aux_[t]];
    r = rev_op_build(p, d1, lp, (int)tm_aux(t), ct) /*@ ghost (d, typ, pa, ca, pt, cg) */;
  } else {
    int is_inr = kind == TM_INR;
    //@ assert ty_kind_[tau] == TY_SUM && (is_inr == 0 ? ty_left_[tau] == ta : ty_right_[tau] == ta);
    int side = is_inr ? ty_left(ty) : ty_right(ty);
    //@ assert 0 <= side < ty_count && trh(CHAD_PREV, side);
    int other = memo_ty_get(CHAD_PREV, side);
    //@ assert inj_other: other == trm(CHAD_PREV, side);
    //@ assert inj_pt: is_inr == 0 ==> ty_same(pt, TY_SUM, pa, other);
    //@ assert inj_pt2: is_inr != 0 ==> ty_same(pt, TY_SUM, other, pa);
    /* other is a child of pt (Z3 took 13 s to get it from memo_ty_inv) */
    //@ assert inj_valid: ty_inv && ty_valid(pt) && ty_node_ok(pt) && ty_valid(other);
    //@ assert inj_ct: ty_kind_[ct] == TY_PROD && (is_inr == 0 ? ty_left_[ct] == ca : ty_right_[ct] == ca);
    r = rev_inj_build(p, d1, lp, ct, other, is_inr) /*@ ghost (d, typ, pa, ca, pt, cg) */;
  }
  //@ assert r_size: tm_count <= \at(tm_count, Built) + 14;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert r_grow: tables_grow{Built, Here} && side_same{Built, Here};
  //@ assert r_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, ct, cg);
  //@ assert r_memo1: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt;
  //@ assert r_memo2: trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
  //@ assert r_memo3: trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg;
  //@ assert r >= 0 ==> rev_ty(tm_ty_[r], \at(tm_ty_[t], Pre), \at(tm_ctx_[t], Pre));
  return r;
}

/* The linear half of one branch of R(case a b c), in e2 where level lp
 * holds p = R a (type tp = P(A + B) * (ca -o cg), ca = C(A + B) = CA * CB)
 * and level lq holds q = R b (type tq = P tau * (ct -o cgb), cgb = C(G, x)
 * = cg * csd, csd the cotangent of the branch's side):
 *   \v. let g = snd q v in fst g + snd p (snd g, 0)     (side 0)
 *   \v. let g = snd q v in fst g + snd p (0, snd g)     (side 1)
 * with 0 the zero of co, the other side's cotangent. As rev_let_lin, but
 * snd p takes the pair. */
/*@ requires kernel_inv;
    requires ctx_valid(e2) && ty_valid(ct) && lin(cg) && lin(co);
    requires ty_valid(ca) && ty_kind_[ca] == TY_PROD;
    requires side == 0 ==> ty_same(ca, TY_PROD, csd, co);
    requires side != 0 ==> ty_same(ca, TY_PROD, co, csd);
    requires ty_valid(cgb) && ty_same(cgb, TY_PROD, cg, csd);
    requires 0 <= lp < ctx_len_[e2] && lvl_ty(e2, lp) == tp && ty_valid(tp) &&
      ty_kind_[tp] == TY_PROD && ty_same(ty_right_[tp], TY_LFUN, ca, cg);
    requires 0 <= lq < ctx_len_[e2] && lvl_ty(e2, lq) == tq && ty_valid(tq) &&
      ty_kind_[tq] == TY_PROD && ty_same(ty_right_[tq], TY_LFUN, ct, cgb);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures case_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == e2 &&
      ty_same(tm_ty_[\result], TY_LFUN, ct, cg);
    ensures case_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures case_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 16;
    ensures case_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures case_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures env_keep{Pre, Post};
*/
static int rev_case_lin(int e2, int lp, int lq, int ct, int side, int co)
  /*@ ghost (int cg, int ca, int csd, int cgb, int tp, int tq) */
{
  //@ assert ty_inv && ty_node_ok(tp) && ty_node_ok(tq);
  //@ ghost int tsp = ty_right_[tp];
  //@ ghost int tsq = ty_right_[tq];
  //@ assert ty_valid(tsp) && ty_valid(tsq);
  //@ assert csd_ok: ty_valid(csd) && ty_valid(co);
  int lv = L(e2), e3 = k_ext(e2, ct);
  if (e3 < 0) return e3;
  //@ assert e3_lv: lvl_ty(e3, lv) == ct && lv == ctx_len_[e2];
  //@ assert e3_lp: lvl_ty(e3, lp) == tp && lvl_ty(e3, lq) == tq;
  //@ assert e3_ctx: ctx_valid(e3) && ctx_is_ext(e3, e2, ct) && ctx_len_[e3] == lv + 1;
  int vq = b_var(e3, lq);
  //@ assert vq >= 0 ==> tm_ctx_[vq] == e3 && tm_ty_[vq] == tq && 0 <= vq < tm_count;
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int sq = b_snd(vq);
  //@ assert sq >= 0 ==> tm_ctx_[sq] == e3 && ty_same(tm_ty_[sq], TY_LFUN, ct, cgb) && 0 <= sq < tm_count;
  //@ assert sq >= 0 || sq == CHAD_E_CAPACITY;
  int v = b_var(e3, lv);
  //@ assert v >= 0 ==> tm_ctx_[v] == e3 && tm_ty_[v] == ct && 0 <= v < tm_count;
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  int gg = b_lapp(sq, v);
  //@ assert gg >= 0 ==> tm_ctx_[gg] == e3 && tm_ty_[gg] == cgb && 0 <= gg < tm_count;
  //@ assert gg >= 0 || gg == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 4;
  if (gg < 0) return gg;
  int lg = L(e3), e4 = k_ext(e3, tm_type(gg));
  if (e4 < 0) return e4;
  //@ assert e4_lg: lvl_ty(e4, lg) == cgb && lg == ctx_len_[e3];
  //@ assert e4_lp: lvl_ty(e4, lp) == tp;
  //@ assert e4_ctx: ctx_valid(e4) && ctx_is_ext(e4, e3, cgb) && ctx_len_[e4] == lg + 1;
  int w1 = b_var(e4, lg);
  //@ assert w1 >= 0 ==> tm_ctx_[w1] == e4 && tm_ty_[w1] == cgb && 0 <= w1 < tm_count;
  //@ assert w1 >= 0 || w1 == CHAD_E_CAPACITY;
  int f = b_fst(w1);
  //@ assert f >= 0 ==> tm_ctx_[f] == e4 && tm_ty_[f] == cg && 0 <= f < tm_count;
  //@ assert f >= 0 || f == CHAD_E_CAPACITY;
  int vp = b_var(e4, lp);
  //@ assert vp >= 0 ==> tm_ctx_[vp] == e4 && tm_ty_[vp] == tp && 0 <= vp < tm_count;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == e4 && ty_same(tm_ty_[sp], TY_LFUN, ca, cg) && 0 <= sp < tm_count;
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int w2 = b_var(e4, lg);
  //@ assert w2 >= 0 ==> tm_ctx_[w2] == e4 && tm_ty_[w2] == cgb && 0 <= w2 < tm_count;
  //@ assert w2 >= 0 || w2 == CHAD_E_CAPACITY;
  int s = b_snd(w2);
  //@ assert s >= 0 ==> tm_ctx_[s] == e4 && tm_ty_[s] == csd && 0 <= s < tm_count;
  //@ assert s >= 0 || s == CHAD_E_CAPACITY;
  //@ assert ctx_valid(e4) && lin(co);
  int z = b_zero(e4, co);
  //@ assert z >= 0 ==> tm_ctx_[z] == e4 && tm_ty_[z] == co && 0 <= z < tm_count;
  //@ assert z >= 0 || z == CHAD_E_CAPACITY;
  //@ assert s >= 0 ==> tm_ctx_[s] == e4 && tm_ty_[s] == csd && 0 <= s < tm_count;
  int arg = b_pair_side(s, z, side);
  //@ assert arg_0: side == 0 ==> (arg >= 0 ==> tm_ctx_[arg] == e4 && ty_same(tm_ty_[arg], TY_PROD, csd, co) && ty_valid(tm_ty_[arg]));
  //@ assert arg_1: side != 0 ==> (arg >= 0 ==> tm_ctx_[arg] == e4 && ty_same(tm_ty_[arg], TY_PROD, co, csd) && ty_valid(tm_ty_[arg]));
  /* hash-consing: the pair's type is C(A + B) itself */
  //@ assert ca_0: side == 0 ==> ty_same(ca, TY_PROD, csd, co);
  //@ assert ca_1: side != 0 ==> ty_same(ca, TY_PROD, co, csd);
  //@ assert arg_ca: arg >= 0 ==> tm_ty_[arg] == ca && tm_ctx_[arg] == e4 && 0 <= arg < tm_count;
  //@ assert arg >= 0 || arg == CHAD_E_CAPACITY;
  //@ assert sp >= 0 ==> tm_ctx_[sp] == e4 && ty_same(tm_ty_[sp], TY_LFUN, ca, cg) && 0 <= sp < tm_count;
  int ap = b_lapp(sp, arg);
  //@ assert ap >= 0 ==> tm_ctx_[ap] == e4 && tm_ty_[ap] == cg && 0 <= ap < tm_count;
  //@ assert ap >= 0 || ap == CHAD_E_CAPACITY;
  //@ assert f >= 0 ==> tm_ctx_[f] == e4 && tm_ty_[f] == cg && 0 <= f < tm_count;
  int pl = b_plus(f, ap);
  //@ assert pl >= 0 ==> tm_ctx_[pl] == e4 && tm_ty_[pl] == cg && 0 <= pl < tm_count;
  //@ assert pl >= 0 || pl == CHAD_E_CAPACITY;
  //@ assert tm_ctx_[gg] == e3 && tm_ty_[gg] == cgb && 0 <= gg < tm_count && ctx_is_ext(e4, e3, cgb);
  int body = b_let(gg, pl);
  //@ assert body >= 0 ==> tm_ctx_[body] == e3 && tm_ty_[body] == cg && 0 <= body < tm_count;
  //@ assert body >= 0 || body == CHAD_E_CAPACITY;
  //@ assert ctx_is_ext(e3, e2, ct) && lin(cg);
  //@ assert body >= 0 ==> ty_valid(ct) && 0 <= body < tm_count && llam_ok(ct, tm_ctx_[body], tm_ty_[body]);
  int r = b_llam(ct, body);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == e2;
  //@ assert r >= 0 ==> ty_same(tm_ty_[r], TY_LFUN, ct, cg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 16;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* One branch of R(case a b c), in d1 = d, p (p = R a at level lp, of type
 * typ = P(A + B) * (ca -o cg)): the branch body, of type tau in gb = G, x
 * with x : sty (the sum's side), translated under its binder, then
 *   let q = R b in (fst q, lin)          in e1 = d1, x : P sty
 * with lin = rev_case_lin. One recursive call (rev_under). */
/*@ requires REV_INV;
    requires 0 <= body < tm_count && chad_msrc_[body] == 1 && 0 <= depth <= CHAD_MAX_DEPTH + 1;
    requires tm_ctx_[body] == gb && tm_ty_[body] == tau;
    requires 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == sty;
    requires env_ok(CHAD_PREV, g, d1);
    requires ty_valid(st) && ty_kind_[st] == TY_SUM;
    requires side == 0 ==> ty_left_[st] == sty && ty_right_[st] == oty;
    requires side != 0 ==> ty_right_[st] == sty && ty_left_[st] == oty;
    requires trh(CHAD_PREV, sty) && trm(CHAD_PREV, sty) == psd;
    requires trh(CHAD_COT, sty) && trm(CHAD_COT, sty) == csd && trh(CHAD_COT, oty);
    requires ty_valid(ca);
    requires side == 0 ==> ty_same(ca, TY_PROD, csd, trm(CHAD_COT, oty));
    requires side != 0 ==> ty_same(ca, TY_PROD, trm(CHAD_COT, oty), csd);
    requires trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
    requires trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg && lin(cg);
    requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, ca, cg);
    requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_len_[d1] == lp + 1 && lp == ctx_len_[d];
    requires 0 <= d < d1 < ctx_count;
    terminates \true;
    decreases REV_M(depth);
    REV_ASSIGNS;
    REV_FRAME;
    ensures br_size: tm_count - \old(tm_count) <= REV_K * chad_msz_[body] + 20;
    ensures br_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures br_ctx: \result >= 0 ==> \old(tm_count) <= \result < tm_count &&
      ctx_is_ext(tm_ctx_[\result], d1, psd);
    ensures br_type: \result >= 0 ==> ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg);
*/
static int rev_case_branch(int side, int body, int d1, int lp, int st, int ct, int depth)
  /*@ ghost (int p, int g, int gb, int sty, int oty, int tau, int psd, int csd, int ca, int pt, int cg, int d, int typ) */
{
  //@ ghost int n0 = ctx_len_[d];
  //@ ghost int n1 = ctx_len_[d1];
  //@ ghost int tpr = ty_right_[typ];
  //@ assert b_tpr: ty_inv && ty_node_ok(typ) && 0 <= tpr < typ && ty_same(tpr, TY_LFUN, ca, cg);
  int sty_c = side == 0 ? ty_left(st) : ty_right(st);
  int oty_c = side == 0 ? ty_right(st) : ty_left(st);
  //@ assert sty_c == sty && oty_c == oty;
  //@ assert 0 <= sty < CHAD_MAX_TYPES && 0 <= oty < CHAD_MAX_TYPES;
  int psd_c = memo_ty_get(CHAD_PREV, sty_c);
  int co = memo_ty_get(CHAD_COT, oty_c);
  //@ assert b_psd: psd_c == psd;
  //@ assert b_co: co == trm(CHAD_COT, oty) && lin(co) && lin(csd);
  //@ assert b_psdv: ty_valid(psd);
  //@ assert b_ca0: side == 0 ==> ty_valid(ca) && ty_same(ca, TY_PROD, csd, co);
  //@ assert b_ca1: side != 0 ==> ty_valid(ca) && ty_same(ca, TY_PROD, co, csd);
  int lx = L(d1), e1 = rev_ext(d1, psd_c);
  //@ assert e1 >= 0 || e1 == CHAD_E_CAPACITY;
  //@ assert e1_keep: env_keep{Pre, Here};
  //@ assert e1_ret: e1 < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[body] + 20;
  if (e1 < 0) return e1;
  //@ assert e1_ext: ctx_is_ext(e1, d1, psd) && ctx_len_[e1] == lx + 1 && lx == lp + 1 && ctx_valid(e1);
  //@ assert e1_env: env_ok(CHAD_PREV, g, e1);
  //@ assert e1_lx: lx == ctx_len_[d1] && 0 <= lx < ctx_len_[e1];
  //@ assert e1_lvl0: lvl_ty(e1, ctx_len_[d1]) == psd;
  //@ assert e1_lvl: lvl_ty(e1, lx) == psd;
  //@ assert e1_ord: 0 <= d < d1 < e1 < ctx_count;
  //@ ghost int ne1 = ctx_len_[e1];
  //@ assert x_gb: env_ok(CHAD_PREV, ctx_parent_[gb], e1) && trh(CHAD_PREV, ctx_type_[gb]) && trm(CHAD_PREV, ctx_type_[gb]) == psd;
  int q = rev_under(body, e1, lx, depth + 1);
  //@ assert q_keep: env_keep{Pre, Here};
  //@ assert q_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[body];
  if (q < 0) return q;
  //@ assert q_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[body];
  //@ assert q_rev: tm_ctx_[q] == e1 && rev_ty(tm_ty_[q], tau, gb) && 0 <= q < tm_count;
  //@ assert q_memo1: trm(CHAD_PREV, sty) == psd && trm(CHAD_COT, sty) == csd && trc(CHAD_COT, g) == cg;
  //@ assert q_memo2: trh(CHAD_PREV, tau) && trh(CHAD_COT, tau) && trm(CHAD_PREV, tau) == pt && trm(CHAD_COT, tau) == ct;
  //@ assert q_memo3: trm(CHAD_COT, oty) == co;
  //@ assert q_gb: 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == sty && trch(CHAD_COT, gb);
  //@ ghost rev_trc_step(CHAD_COT, gb);
  //@ ghost int cgb = chad_memo_ctx_[CHAD_COT][gb] - 1;
  //@ assert q_cgb0: trc(CHAD_COT, gb) == cgb;
  //@ assert q_cgb: ty_valid(cgb) && ty_same(cgb, TY_PROD, cg, csd);
  //@ ghost int tyq = tm_ty_[q];
  //@ assert q_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, ct, cgb);
  //@ assert q_p: tm_ty_[p] == typ && ty_valid(typ) && ty_kind_[typ] == TY_PROD;
  //@ assert q_pty0: ty_right_[typ] == tpr;
  //@ assert q_pty1: ty_same(tpr, TY_LFUN, ca, cg);
  //@ assert q_pty: ty_same(ty_right_[typ], TY_LFUN, ca, cg);
  //@ assert q_ca: ty_valid(ca) && ty_kind_[ca] == TY_PROD;
  //@ assert q_ord: 0 <= d < d1 < e1 < ctx_count;
  //@ assert q_ext1a: ctx_is_ext(d1, d, typ);
  //@ assert q_n0: ctx_len_[d] == n0;
  //@ assert q_n1: ctx_len_[d1] == n1;
  //@ assert q_ne1: ctx_len_[e1] == ne1;
  //@ assert q_ext1b: ctx_len_[d1] == lp + 1 && lp == ctx_len_[d] && ctx_valid(d);
  //@ assert q_ext2a: ctx_is_ext(e1, d1, psd);
  //@ assert q_ext2b: ctx_len_[e1] == lx + 1 && lx == lp + 1;
  //@ assert q_lvl1: lvl_ty(d1, lp) == typ;
  //@ assert q_lvl2: lvl_ty(e1, lp) == typ;
  int lq = L(e1), e2 = rev_ext(e1, tyof(q));
  //@ assert e2 >= 0 || e2 == CHAD_E_CAPACITY;
  //@ assert e2_keep: env_keep{Pre, Here};
  //@ assert e2_ret: e2 < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[body] + 20;
  if (e2 < 0) return e2;
  //@ assert e2_ext: ctx_is_ext(e2, e1, tyq) && ctx_len_[e2] == lq + 1 && lq == lx + 1 && ctx_valid(e2);
  //@ assert e2_lq: lq == ctx_len_[e1] && 0 <= lp < lq;
  //@ assert e2_lvl0: lvl_ty(e2, ctx_len_[e1]) == tyq;
  //@ assert e2_lvlq: lvl_ty(e2, lq) == tyq;
  //@ assert e2_lvlp0: lvl_ty(e2, lp) == lvl_ty(e1, lp);
  //@ assert e2_n0: ctx_len_[d] == n0;
  //@ assert e2_n1: ctx_len_[d1] == n1;
  //@ assert e2_ne1: ctx_len_[e1] == ne1;
  //@ assert e2_p1: ctx_parent_[d1] == d && ctx_type_[d1] == typ;
  //@ assert e2_p2: ctx_parent_[e1] == d1 && ctx_type_[e1] == psd;
  //@ assert e2_l1: lvl_ty(d1, lp) == typ;
  //@ assert e2_l2: lvl_ty(e1, lp) == lvl_ty(d1, lp);
  //@ assert e2_lvlp: lvl_ty(e2, lp) == typ;
  //@ assert e2_lvl: lvl_ty(e2, lq) == tyq && lvl_ty(e2, lp) == typ;
  //@ assert e2_len: 0 <= lp < ctx_len_[e2] && 0 <= lq < ctx_len_[e2];
  //@ assert e2_ct: ty_valid(ct) && lin(cg) && lin(co);
  //@ assert e2_ca0: side == 0 ==> ty_same(ca, TY_PROD, csd, co);
  //@ assert e2_ca1: side != 0 ==> ty_same(ca, TY_PROD, co, csd);
  //@ ghost Built: ;
  int lin = rev_case_lin(e2, lp, lq, ct, side, co) /*@ ghost (cg, ca, csd, cgb, typ, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == e2 && ty_same(tm_ty_[lin], TY_LFUN, ct, cg) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_keep: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[body] + 16;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert lin_ret: lin < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[body] + 20;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert l_lin: tm_ctx_[lin] == e2 && ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg) && 0 <= lin < tm_count;
  //@ assert l_lvlq: lvl_ty(e2, lq) == tyq && 0 <= lq < ctx_len_[e2] && ctx_valid(e2);
  int vq = b_var(e2, lq);
  //@ assert vq >= 0 ==> tm_ctx_[vq] == e2 && tm_ty_[vq] == tyq && 0 <= vq < tm_count;
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  //@ assert vq_prod: vq >= 0 ==> ty_valid(tm_ty_[vq]) && ty_kind_[tm_ty_[vq]] == TY_PROD && ty_left_[tm_ty_[vq]] == pt;
  int prim = b_fst(vq);
  //@ assert prim >= 0 ==> tm_ctx_[prim] == e2 && tm_ty_[prim] == pt && 0 <= prim < tm_count;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert p_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[body] + 18;
  //@ assert p_grow: tables_grow{Built, Here} && side_same{Built, Here};
  //@ assert p_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[body] + 20;
  //@ assert p_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert p_keep: env_keep{Pre, Here};
  if (prim < 0) return prim;
  //@ assert t_lin0: tm_ty_[lin] == tyl && tm_ctx_[lin] == e2 && 0 <= lin < tm_count;
  //@ assert t_lin1: ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg);
  //@ assert t_q: 0 <= q < tm_count && tm_ctx_[q] == e1 && tm_ty_[q] == tyq && ctx_valid(e1) && ctx_is_ext(e2, e1, tyq);
  //@ assert t_e1: ctx_is_ext(e1, d1, psd);
  //@ ghost Tail: ;
  int r = let_unary_tail(q, prim, lin) /*@ ghost (e1, e2, pt, ct, cg) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == e1 && \at(tm_count, Pre) <= r < tm_count;
  //@ assert r_e1: ctx_is_ext(e1, d1, psd);
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, ct, cg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[body] + 20;
  //@ assert tables_grow{Tail, Here} && side_same{Tail, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* The common contract of rev_case_body and rev_case_last: p = R a
 * (a : A + B = st in G) at level lp of d1 = d, p; ps = P(A + B) = P A +
 * P B, ca = C(A + B) = C A * C B. */
#define CASE_PRE \
  requires REV_INV; \
  requires ty_valid(st) && ty_kind_[st] == TY_SUM && ty_left_[st] == l && ty_right_[st] == r; \
  requires trh(CHAD_PREV, l) && trm(CHAD_PREV, l) == psl && trh(CHAD_PREV, r) && trm(CHAD_PREV, r) == psr; \
  requires trh(CHAD_COT, l) && trm(CHAD_COT, l) == csl && trh(CHAD_COT, r) && trm(CHAD_COT, r) == csr; \
  requires ty_valid(ps) && ty_same(ps, TY_SUM, psl, psr) && ty_valid(ca) && ty_same(ca, TY_PROD, csl, csr); \
  requires trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct; \
  requires trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg && lin(cg); \
  requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ; \
  requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == ps && \
    ty_same(ty_right_[typ], TY_LFUN, ca, cg); \
  requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_len_[d1] == lp + 1 && \
    lp == ctx_len_[d] && 0 <= d < d1 < ctx_count; \
  requires env_ok(CHAD_PREV, g, d1); \
  requires 0 <= depth <= CHAD_MAX_DEPTH
#define CASE_POST \
  REV_ASSIGNS; \
  REV_FRAME; \
  ensures \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH; \
  ensures case_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d && \
    ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD && \
    ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg)

/* R(case)'s right branch and the tail, given the left branch br0 */
/*@ CASE_PRE;
    requires 0 <= c < tm_count && chad_msrc_[c] == 1 && tm_ctx_[c] == gc && tm_ty_[c] == tau;
    requires 0 < gc < ctx_count && ctx_parent_[gc] == g && ctx_type_[gc] == r;
    requires 0 <= br0 < tm_count && ctx_is_ext(tm_ctx_[br0], d1, psl);
    requires ty_valid(tm_ty_[br0]) && ty_kind_[tm_ty_[br0]] == TY_PROD &&
      ty_left_[tm_ty_[br0]] == pt && ty_same(ty_right_[tm_ty_[br0]], TY_LFUN, ct, cg);
    terminates \true;
    decreases REV_M(depth) - 4;
    CASE_POST;
    ensures last_size: tm_count - \old(tm_count) <= REV_K * chad_msz_[c] + 24;
*/
static int rev_case_last(int c, int p, int d1, int lp, int st, int br0, int ct, int depth)
  /*@ ghost (int g, int gc, int l, int r, int tau, int ps, int psl, int psr, int csl, int csr,
             int ca, int pt, int cg, int d, int typ) */
{
  //@ ghost int n0 = ctx_len_[d];
  //@ ghost int n1 = ctx_len_[d1];
  //@ ghost int g0 = tm_ctx_[br0];
  //@ ghost int ty0 = tm_ty_[br0];
  //@ ghost int x0 = ty_right_[ty0];
  //@ assert l_x0: ty_inv && ty_node_ok(ty0) && 0 <= x0 < ty0 && ty_same(x0, TY_LFUN, ct, cg);
  //@ assert l_g0: ctx_is_ext(g0, d1, psl) && 0 < g0 < ctx_count;
  //@ ghost int tpr = ty_right_[typ];
  //@ assert l_tpr: ty_node_ok(typ) && 0 <= tpr < typ && ty_same(tpr, TY_LFUN, ca, cg);
  //@ assert l_ca: ty_same(ca, TY_PROD, trm(CHAD_COT, l), csr);
  int br1 = rev_case_branch(1, c, d1, lp, st, ct, depth + 1)
    /*@ ghost (p, g, gc, r, l, tau, psr, csr, ca, pt, cg, d, typ) */;
  //@ assert b1_keep: env_keep{Pre, Here};
  //@ assert b1_ret: br1 < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[c] + 24;
  if (br1 < 0) return br1;
  //@ assert b1_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[c] + 20;
  //@ ghost int ty1 = tm_ty_[br1];
  //@ ghost int x1 = ty_right_[ty1];
  //@ assert b1_ctx: ctx_is_ext(tm_ctx_[br1], d1, psr);
  //@ assert b1_x1: ty_node_ok(ty1) && 0 <= x1 < ty1 && ty_same(x1, TY_LFUN, ct, cg);
  //@ assert b1_br0: tm_ctx_[br0] == g0 && tm_ty_[br0] == ty0 && 0 <= br0 < br1;
  //@ assert b1_x0: ty_right_[ty0] == x0 && ty_same(x0, TY_LFUN, ct, cg);
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
  //@ assert res >= 0 ==> ty_valid(ty0) && ty_kind_[ty0] == TY_PROD && ty_left_[ty0] == pt && ty_same(ty_right_[ty0], TY_LFUN, ct, cg);
  //@ assert res >= 0 || res == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[c] + 24;
  //@ assert tables_grow{Tail, Here} && side_same{Tail, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert env_keep{Pre, Here};
  return res;
}

/* R(case)'s left branch, then rev_case_last */
/*@ CASE_PRE;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && tm_ctx_[b] == gb && tm_ty_[b] == tau;
    requires 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == l;
    requires 0 <= c < tm_count && chad_msrc_[c] == 1 && tm_ctx_[c] == gc && tm_ty_[c] == tau;
    requires 0 < gc < ctx_count && ctx_parent_[gc] == g && ctx_type_[gc] == r;
    terminates \true;
    decreases REV_M(depth) - 3;
    CASE_POST;
    ensures body_size: tm_count - \old(tm_count) <= REV_K * chad_msz_[b] + REV_K * chad_msz_[c] + 44;
*/
static int rev_case_body(int b, int c, int p, int d1, int lp, int st, int ct, int depth)
  /*@ ghost (int g, int gb, int gc, int l, int r, int tau, int ps, int psl, int psr, int csl, int csr,
             int ca, int pt, int cg, int d, int typ) */
{
  //@ ghost int n0 = ctx_len_[d];
  //@ ghost int n1 = ctx_len_[d1];
  //@ ghost int tpr = ty_right_[typ];
  //@ assert c_tpr: ty_inv && ty_node_ok(typ) && 0 <= tpr < typ && ty_same(tpr, TY_LFUN, ca, cg);
  //@ assert c_ps: ty_node_ok(ps) && ty_same(ps, TY_SUM, psl, psr);
  //@ assert c_ca: ty_same(ca, TY_PROD, csl, trm(CHAD_COT, r));
  int br0 = rev_case_branch(0, b, d1, lp, st, ct, depth + 1)
    /*@ ghost (p, g, gb, l, r, tau, psl, csl, ca, pt, cg, d, typ) */;
  //@ assert b0_keep: env_keep{Pre, Here};
  //@ assert b0_ret: br0 < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b] + REV_K * chad_msz_[c] + 44;
  if (br0 < 0) return br0;
  //@ assert b0_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 20;
  //@ assert b0_ctx: ctx_is_ext(tm_ctx_[br0], d1, psl) && 0 <= br0 < tm_count;
  //@ assert b0_ty: ty_valid(tm_ty_[br0]) && ty_kind_[tm_ty_[br0]] == TY_PROD && ty_left_[tm_ty_[br0]] == pt && ty_same(ty_right_[tm_ty_[br0]], TY_LFUN, ct, cg);
  //@ assert b0_memo1: trm(CHAD_PREV, l) == psl && trm(CHAD_PREV, r) == psr && trm(CHAD_COT, l) == csl && trm(CHAD_COT, r) == csr;
  //@ assert b0_memo2: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
  //@ assert b0_memo3: trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg;
  //@ assert b0_tpr: ty_right_[typ] == tpr && ty_same(tpr, TY_LFUN, ca, cg);
  //@ assert b0_ps: ty_same(ps, TY_SUM, psl, psr) && ty_valid(ps);
  //@ assert b0_ca: ty_same(ca, TY_PROD, csl, csr);
  //@ assert b0_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert b0_n0: ctx_len_[d] == n0;
  //@ assert b0_n1: ctx_len_[d1] == n1;
  //@ assert b0_d1: ctx_is_ext(d1, d, typ) && ctx_len_[d1] == lp + 1 && lp == ctx_len_[d] && ctx_valid(d) && ctx_valid(d1);
  //@ assert b0_env: env_ok(CHAD_PREV, g, d1);
  //@ assert b0_c: 0 <= c < tm_count && chad_msrc_[c] == 1 && tm_ctx_[c] == gc && tm_ty_[c] == tau;
  //@ assert b0_gc: 0 < gc < ctx_count && ctx_parent_[gc] == g && ctx_type_[gc] == r;
  //@ ghost Last: ;
  int res = rev_case_last(c, p, d1, lp, st, br0, ct, depth)
    /*@ ghost (g, gc, l, r, tau, ps, psl, psr, csl, csr, ca, pt, cg, d, typ) */;
  //@ assert tm_count - \at(tm_count, Last) <= REV_K * chad_msz_[c] + 24;
  //@ assert env_keep{Pre, Here};
  return res;
}

/* let p = R a in case fst p of
 *   inl x -> let q = R b in (fst q, \v. let g = snd q v in fst g + snd p (snd g, 0))
 *   inr y -> ... snd p (0, snd g)
 * R a and p's extension here, the branches in rev_case_body and
 * rev_case_last (one recursive call per function), the tail in case_tail. */
/*@ RULE_PRE(t, d, tm_kind_[t] == TM_CASE);
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases REV_M(depth) - 2;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_case(int t, int d, int ct, int depth)
{
  //@ assert node_ok(t) && msrc_ok(t) && msz_ok(t);
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
  /* the size budget: R a, R b, R c and at most 44 nodes of this rule (or
   * the whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && 1 <= chad_msz_[c] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert case_budget: REV_K * chad_msz_[a] + REV_K * chad_msz_[b] + REV_K * chad_msz_[c] + 44 <=
        REV_K * chad_msz_[t] || CHAD_MAX_TERMS <= REV_K * chad_msz_[t]; */
  /*@ ghost int cgv = tm_ctx_[t] == CTX_EMPTY ? TY_ID_UNIT :
        chad_memo_ctx_[CHAD_COT][tm_ctx_[t]] - 1; */
  //@ assert cgv == trc(CHAD_COT, g) && lin(cgv);
  //@ assert memo_ty_inv && trh(CHAD_COT, tau) && trh(CHAD_PREV, tau) && ct == chad_memo_ty_[CHAD_COT][tau] - 1;
  //@ ghost int pt = chad_memo_ty_[CHAD_PREV][tau] - 1;
  int p = rev(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  //@ assert pa_rev: tm_ctx_[p] == d && rev_ty(tm_ty_[p], ta, g) && 0 <= p < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a];
  //@ assert pa_memo: trh(CHAD_PREV, ta) && trh(CHAD_COT, ta) && trc(CHAD_COT, g) == cgv;
  //@ assert pa_tau: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
  //@ ghost rev_tr_step(CHAD_PREV, ta);
  //@ ghost rev_tr_step(CHAD_COT, ta);
  //@ ghost int ps = chad_memo_ty_[CHAD_PREV][ta] - 1;
  //@ ghost int ca = chad_memo_ty_[CHAD_COT][ta] - 1;
  //@ assert pa_l: trh(CHAD_PREV, l) && trh(CHAD_PREV, r) && trh(CHAD_COT, l) && trh(CHAD_COT, r);
  //@ ghost int psl = chad_memo_ty_[CHAD_PREV][l] - 1;
  //@ ghost int psr = chad_memo_ty_[CHAD_PREV][r] - 1;
  //@ ghost int csl = chad_memo_ty_[CHAD_COT][l] - 1;
  //@ ghost int csr = chad_memo_ty_[CHAD_COT][r] - 1;
  //@ assert pa_ps: ty_valid(ps) && ty_same(ps, TY_SUM, psl, psr);
  //@ assert pa_ca: ty_valid(ca) && ty_same(ca, TY_PROD, csl, csr);
  //@ ghost int typ = tm_ty_[p];
  //@ assert pa_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == ps && ty_same(ty_right_[typ], TY_LFUN, ca, cgv);
  //@ assert pa_env: env_ok(CHAD_PREV, g, d) && ctx_valid(d);
  int lp = L(d), d1 = rev_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d) && ctx_len_[d1] == lp + 1 && lp == ctx_len_[d];
  //@ assert d1_ord: 0 <= d < d1 < ctx_count;
  //@ assert d1_env: env_ok(CHAD_PREV, g, d1);
  int st = tm_type(a);
  //@ assert st == ta;
  //@ ghost Body: ;
  int res = rev_case_body(b, c, p, d1, lp, st, ct, depth)
    /*@ ghost (g, gb, gc, l, r, tau, ps, psl, psr, csl, csr, ca, pt, cgv, d, typ) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= REV_K * chad_msz_[b] + REV_K * chad_msz_[c] + 44;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert res >= 0 || res == CHAD_E_CAPACITY || res == CHAD_E_DEPTH;
  //@ ghost int tyr = res >= 0 ? tm_ty_[res] : 0;
  //@ assert res >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, ct, cgv);
  //@ assert r_memo1: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt;
  //@ assert r_memo2: trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
  //@ assert r_memo3: trch(CHAD_COT, g) && trc(CHAD_COT, g) == cgv;
  //@ assert res >= 0 ==> rev_ty(tm_ty_[res], \at(tm_ty_[t], Pre), \at(tm_ctx_[t], Pre));
  return res;
}

/* R(iter)'s last recursive call and the rest: the body b (of type tau in
 * gb = G, x : tau) under its binder in e2 = e1, x : pt, where d1 = d, pn;
 * d2 = d1, ps; e1 = d2, s (s : st = ps's type, the iteration state
 * P tau * (C tau -o C G)); then the linear half
 *   \v. let g = snd q v in fst g + snd s (snd g)
 * (rev_let_lin, with s in the place of p) and the tail iter_tail. Gets
 * depth + 1 from rev_iter_body (offset 0), as the case branches. */
/*@ requires REV_INV;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= depth <= CHAD_MAX_DEPTH + 1;
    requires tm_ctx_[b] == gb && tm_ty_[b] == tau;
    requires 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == tau;
    requires env_ok(CHAD_PREV, g, e2);
    requires trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
    requires trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg && lin(cg);
    requires 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
    requires ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
    requires 0 <= ps < tm_count && tm_ctx_[ps] == d1 && tm_ty_[ps] == st;
    requires ty_valid(st) && ty_kind_[st] == TY_PROD && ty_left_[st] == pt &&
      ty_same(ty_right_[st], TY_LFUN, ct, cg);
    requires ctx_valid(d) && ctx_is_ext(d1, d, typn) && ctx_is_ext(d2, d1, st) &&
      ctx_is_ext(e1, d2, st) && ctx_is_ext(e2, e1, pt);
    requires ln == ctx_len_[d] && ls == ln + 1 && lc == ls + 1 && lx == lc + 1;
    requires ctx_len_[d1] == ls && ctx_len_[d2] == lc && ctx_len_[e1] == lx && ctx_len_[e2] == lx + 1;
    requires 0 <= d < d1 < d2 < e1 < e2 < ctx_count;
    requires lvl_ty(d2, ln) == typn && lvl_ty(d2, ls) == st && lvl_ty(e1, lc) == st &&
      lvl_ty(e2, lc) == st && lvl_ty(e2, lx) == pt;
    terminates \true;
    decreases REV_M(depth);
    REV_ASSIGNS;
    REV_FRAME;
    ensures ilast_size: tm_count - \old(tm_count) <= REV_K * chad_msz_[b] + 27;
    ensures ilast_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures ilast_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      tm_ty_[\result] == st;
*/
static int rev_iter_last(int b, int pn, int ps, int d2, int e1, int e2, int ln, int ls, int lc, int lx,
                         int ct, int depth)
  /*@ ghost (int g, int gb, int tau, int pt, int cg, int d, int d1, int typn, int st) */
{
  //@ ghost int sr = ty_right_[st];
  //@ assert x_sr: ty_inv && ty_node_ok(st) && 0 <= sr < st && ty_same(sr, TY_LFUN, ct, cg);
  //@ assert x_gb: env_ok(CHAD_PREV, ctx_parent_[gb], e2) && trh(CHAD_PREV, ctx_type_[gb]) && trm(CHAD_PREV, ctx_type_[gb]) == pt;
  //@ assert x_lx: 0 <= lx < ctx_len_[e2] && lvl_ty(e2, lx) == pt;
  int q = rev_under(b, e2, lx, depth + 1);
  //@ assert q_keep: env_keep{Pre, Here};
  //@ assert q_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b];
  if (q < 0) return q;
  //@ assert q_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b];
  //@ assert q_rev: tm_ctx_[q] == e2 && rev_ty(tm_ty_[q], tau, gb) && 0 <= q < tm_count;
  //@ assert q_memo1: trh(CHAD_PREV, tau) && trh(CHAD_COT, tau) && trm(CHAD_PREV, tau) == pt && trm(CHAD_COT, tau) == ct;
  //@ assert q_memo2: trc(CHAD_COT, g) == cg;
  //@ assert q_gb: 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == tau && trch(CHAD_COT, gb);
  //@ ghost rev_trc_step(CHAD_COT, gb);
  //@ ghost int cgb = chad_memo_ctx_[CHAD_COT][gb] - 1;
  //@ assert q_cgb0: trc(CHAD_COT, gb) == cgb;
  //@ assert q_cgb: ty_valid(cgb) && ty_same(cgb, TY_PROD, cg, ct);
  //@ ghost int tyq = tm_ty_[q];
  //@ assert q_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, ct, cgb);
  //@ assert q_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert q_ps: 0 <= ps < tm_count && tm_ctx_[ps] == d1 && tm_ty_[ps] == st;
  //@ assert q_typn: ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
  //@ assert q_st0: ty_right_[st] == sr && ty_same(sr, TY_LFUN, ct, cg);
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
  int lq = L(e2), e3 = rev_ext(e2, tyof(q));
  //@ assert e3 >= 0 || e3 == CHAD_E_CAPACITY;
  //@ assert e3_keep: env_keep{Pre, Here};
  //@ assert e3_ret: e3 < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b] + 27;
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
  //@ assert e3_st: ty_valid(st) && ty_kind_[st] == TY_PROD && ty_same(ty_right_[st], TY_LFUN, ct, cg);
  //@ assert e3_ct: ty_valid(ct) && lin(cg) && ty_valid(cgb) && ty_same(cgb, TY_PROD, cg, ct);
  //@ ghost Built: ;
  int lin = rev_let_lin(e3, lc, lq, ct) /*@ ghost (cg, ct, cgb, st, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == e3 && ty_same(tm_ty_[lin], TY_LFUN, ct, cg) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_keep: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 14;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert lin_ret: lin < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b] + 27;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert t_lin: ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg);
  //@ assert t_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert t_ps: 0 <= ps < tm_count && tm_ctx_[ps] == d1 && tm_ty_[ps] == st;
  //@ assert t_q: 0 <= q < tm_count && tm_ctx_[q] == e2 && tm_ty_[q] == tyq;
  //@ assert t_typn: ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
  //@ assert t_st0: ty_right_[st] == sr;
  //@ assert t_st: ty_valid(st) && ty_kind_[st] == TY_PROD && ty_left_[st] == pt && ty_same(ty_right_[st], TY_LFUN, ct, cg);
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
  int r = iter_tail(pn, ps, q, lin, d2, e1, e3, ln, ls, lc, lq) /*@ ghost (d, d1, e2, pt, ct, cg) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && tm_ty_[r] == st && \at(tm_count, Pre) <= r < tm_count;
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 27;
  //@ assert tables_grow{Tail, Here} && side_same{Tail, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* R(iter)'s second recursive call: ps = R c in d1 = d, pn, then the
 * contexts of the iteration (d2 = d1, ps; e1 = d2, s; e2 = e1, x) and
 * rev_iter_last. */
/*@ requires REV_INV;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= c < tm_count && chad_msrc_[c] == 1;
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[b] == gb && tm_ty_[b] == tau && tm_ctx_[c] == g && tm_ty_[c] == tau;
    requires 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == tau;
    requires env_ok(CHAD_PREV, g, d1);
    requires trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
    requires trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg && lin(cg);
    requires 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
    requires ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
    requires ctx_valid(d) && ctx_is_ext(d1, d, typn) && ctx_valid(d1) && ctx_len_[d1] == ln + 1 && ln == ctx_len_[d];
    requires 0 <= d < d1 < ctx_count;
    terminates \true;
    decreases REV_M(depth) - 3;
    REV_ASSIGNS;
    REV_FRAME;
    ensures ibody_size: tm_count - \old(tm_count) <= REV_K * chad_msz_[c] + REV_K * chad_msz_[b] + 27;
    ensures ibody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures ibody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg);
*/
static int rev_iter_body(int b, int c, int pn, int d1, int ln, int ct, int depth)
  /*@ ghost (int g, int gb, int tau, int pt, int cg, int d, int typn) */
{
  //@ ghost int n0 = ctx_len_[d];
  //@ ghost int n1 = ctx_len_[d1];
  //@ assert s_env: env_ok(CHAD_PREV, tm_ctx_[c], d1);
  int ps = rev(c, d1, depth + 1);
  //@ assert ps_keep: env_keep{Pre, Here};
  //@ assert ps_ret: ps < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[c];
  if (ps < 0) return ps;
  //@ assert ps_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[c];
  //@ assert ps_rev: tm_ctx_[ps] == d1 && rev_ty(tm_ty_[ps], tau, g) && 0 <= ps < tm_count;
  //@ assert ps_memo: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct && trc(CHAD_COT, g) == cg;
  //@ ghost int st = tm_ty_[ps];
  //@ assert ps_st: ty_valid(st) && ty_kind_[st] == TY_PROD && ty_left_[st] == pt && ty_same(ty_right_[st], TY_LFUN, ct, cg);
  //@ ghost int sr = ty_right_[st];
  //@ assert ps_sr: ty_inv && ty_node_ok(st) && 0 <= sr < st && ty_same(sr, TY_LFUN, ct, cg);
  //@ assert ps_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert ps_typn: ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
  //@ assert ps_n0: ctx_len_[d] == n0;
  //@ assert ps_n1: ctx_len_[d1] == n1;
  //@ assert ps_d1: ctx_is_ext(d1, d, typn) && ctx_valid(d) && ctx_valid(d1) && ctx_len_[d1] == ln + 1 && ln == ctx_len_[d];
  //@ assert ps_env: env_ok(CHAD_PREV, g, d1);
  int ls = L(d1), d2 = rev_ext(d1, tyof(ps));
  //@ assert d2 >= 0 || d2 == CHAD_E_CAPACITY;
  //@ assert d2_keep: env_keep{Pre, Here};
  //@ assert d2_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[c] + REV_K * chad_msz_[b] + 27;
  if (d2 < 0) return d2;
  //@ assert d2_ext: ctx_is_ext(d2, d1, st) && ctx_valid(d2) && ctx_len_[d2] == ls + 1 && ls == ln + 1;
  //@ assert d2_l1: lvl_ty(d2, ls) == st && lvl_ty(d2, ln) == lvl_ty(d1, ln);
  //@ assert d2_l2: lvl_ty(d1, ln) == typn;
  //@ assert d2_l3: lvl_ty(d2, ln) == typn;
  int lc = L(d2), e1 = rev_ext(d2, tyof(ps));
  //@ assert e1 >= 0 || e1 == CHAD_E_CAPACITY;
  //@ assert e1_keep: env_keep{Pre, Here};
  if (e1 < 0) return e1;
  //@ assert e1_ext: ctx_is_ext(e1, d2, st) && ctx_valid(e1) && ctx_len_[e1] == lc + 1 && lc == ls + 1;
  //@ assert e1_l1: lvl_ty(e1, lc) == st;
  //@ assert e1_l2: lvl_ty(d2, ln) == typn && lvl_ty(d2, ls) == st;
  int px = ty_left(tyof(ps));
  //@ assert px == pt && ty_valid(pt);
  int lx = L(e1), e2 = rev_ext(e1, px);
  //@ assert e2 >= 0 || e2 == CHAD_E_CAPACITY;
  //@ assert e2_keep: env_keep{Pre, Here};
  if (e2 < 0) return e2;
  //@ assert e2_ext: ctx_is_ext(e2, e1, pt) && ctx_valid(e2) && ctx_len_[e2] == lx + 1 && lx == lc + 1;
  //@ assert e2_top: lvl_ty(e2, ctx_len_[e1]) == px && lx == ctx_len_[e1];
  //@ assert e2_lc: 0 <= lc < ctx_len_[e1] && lvl_ty(e2, lc) == lvl_ty(e1, lc);
  //@ assert e2_l1: lvl_ty(e2, lx) == pt && lvl_ty(e2, lc) == lvl_ty(e1, lc);
  //@ assert e2_l2: lvl_ty(e2, lc) == st;
  //@ assert e2_l3: lvl_ty(e1, lc) == st && lvl_ty(d2, ln) == typn && lvl_ty(d2, ls) == st;
  //@ assert e2_env: env_ok(CHAD_PREV, g, e2);
  //@ assert e2_c: ctx_is_ext(d1, d, typn) && ctx_is_ext(d2, d1, st) && ctx_is_ext(e1, d2, st) && ctx_valid(d);
  //@ assert e2_len: ln == ctx_len_[d] && ctx_len_[d1] == ls && ctx_len_[d2] == lc && ctx_len_[e1] == lx;
  //@ assert e2_ord: 0 <= d < d1 < d2 < e1 < e2 < ctx_count;
  //@ assert e2_ps: 0 <= ps < tm_count && tm_ctx_[ps] == d1 && tm_ty_[ps] == st;
  //@ assert e2_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert e2_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[c];
  //@ ghost Last: ;
  int r = rev_iter_last(b, pn, ps, d2, e1, e2, ln, ls, lc, lx, ct, depth + 1)
    /*@ ghost (g, gb, tau, pt, cg, d, d1, typn, st) */;
  //@ assert r_size: tm_count - \at(tm_count, Last) <= REV_K * chad_msz_[b] + 27;
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert r >= 0 ==> tm_ty_[r] == st && tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ assert r_st: ty_valid(st) && ty_kind_[st] == TY_PROD && ty_left_[st] == pt && ty_right_[st] == sr && ty_same(sr, TY_LFUN, ct, cg);
  return r;
}

/* let pn = R a; ps = R c in
 * iter (fst pn) (s. let x = fst s; q = R b in
 *     (fst q, \v. let g = snd q v in fst g + snd s (snd g))) ps
 * R a and pn's extension here, R c in rev_iter_body, R b and the rest in
 * rev_iter_last (one recursive call per function), the tail in iter_tail.
 * The state s : P tau * (C tau -o C G) carries the pullback so far. */
/*@ RULE_PRE(t, d, tm_kind_[t] == TM_ITER);
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases REV_M(depth) - 2;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_iter(int t, int d, int ct, int depth)
{
  //@ assert node_ok(t) && msrc_ok(t) && msz_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t), c = tm_c(t);
  //@ ghost int gb = tm_ctx_[b];
  //@ assert 0 <= a < t && 0 <= b < t && 0 <= c < t;
  //@ assert chad_msrc_[a] == 1 && chad_msrc_[b] == 1 && chad_msrc_[c] == 1;
  //@ assert iter_src: tm_ctx_[a] == g && tm_ty_[a] == TY_ID_INT && tm_ctx_[c] == g && tm_ty_[c] == tau && tm_ty_[b] == tau;
  //@ assert iter_gb: ctx_is_ext(gb, g, tau) && 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == tau;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b] + chad_msz_[c]);
  /* the size budget: R a, R c, R b and at most 27 nodes of this rule (or
   * the whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && 1 <= chad_msz_[c] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert iter_budget: REV_K * chad_msz_[a] + REV_K * chad_msz_[b] + REV_K * chad_msz_[c] + 27 <=
        REV_K * chad_msz_[t] || CHAD_MAX_TERMS <= REV_K * chad_msz_[t]; */
  /*@ ghost int cgv = tm_ctx_[t] == CTX_EMPTY ? TY_ID_UNIT :
        chad_memo_ctx_[CHAD_COT][tm_ctx_[t]] - 1; */
  //@ assert cgv == trc(CHAD_COT, g) && lin(cgv);
  //@ assert memo_ty_inv && trh(CHAD_COT, tau) && trh(CHAD_PREV, tau) && ct == chad_memo_ty_[CHAD_COT][tau] - 1;
  //@ ghost int pt = chad_memo_ty_[CHAD_PREV][tau] - 1;
  int pn = rev(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (pn < 0) return pn;
  //@ assert pa_rev: tm_ctx_[pn] == d && rev_ty(tm_ty_[pn], TY_ID_INT, g) && 0 <= pn < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a];
  //@ assert pa_tau: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct && trc(CHAD_COT, g) == cgv;
  //@ ghost rev_tr_step(CHAD_PREV, TY_ID_INT);
  //@ assert pa_int: trh(CHAD_PREV, TY_ID_INT) && trm(CHAD_PREV, TY_ID_INT) == TY_ID_INT;
  //@ ghost int typn = tm_ty_[pn];
  //@ assert pa_ty: ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
  //@ assert pa_env: env_ok(CHAD_PREV, g, d) && ctx_valid(d);
  int ln = L(d), d1 = rev_ext(d, tyof(pn));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_ext: ctx_is_ext(d1, d, typn) && ctx_valid(d1) && ctx_valid(d) && ctx_len_[d1] == ln + 1 && ln == ctx_len_[d];
  //@ assert d1_ord: 0 <= d < d1 < ctx_count;
  //@ assert d1_env: env_ok(CHAD_PREV, g, d1);
  //@ assert d1_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ ghost Body: ;
  int res = rev_iter_body(b, c, pn, d1, ln, ct, depth) /*@ ghost (g, gb, tau, pt, cgv, d, typn) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= REV_K * chad_msz_[c] + REV_K * chad_msz_[b] + 27;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert res >= 0 || res == CHAD_E_CAPACITY || res == CHAD_E_DEPTH;
  //@ ghost int tyr = res >= 0 ? tm_ty_[res] : 0;
  //@ assert res >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, ct, cgv);
  //@ assert r_memo1: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt;
  //@ assert r_memo2: trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
  //@ assert r_memo3: trch(CHAD_COT, g) && trc(CHAD_COT, g) == cgv;
  //@ assert res >= 0 ==> rev_ty(tm_ty_[res], \at(tm_ty_[t], Pre), \at(tm_ctx_[t], Pre));
  return res;
}

/* The linear half of R(build a (i. b)), in d3 where level lm holds m : Int
 * and level lps holds ps : aq = Arr Q, Q = P tau * (cte -o cgb) (the
 * body's translation at each index; cte = C tau, cgb = C(G, i) = C G *
 * Unit):
 *   \v. lsum m (i. fst (snd ps[i] v[i]))    : ct -o cg, ct = Arr cte
 * Against the kernel's invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(d3) && lin(ct) && ty_same(ct, TY_ARR, cte, -1) && lin(cg);
    requires 0 <= lm < ctx_len_[d3] && lvl_ty(d3, lm) == TY_ID_INT;
    requires 0 <= lps < ctx_len_[d3] && lvl_ty(d3, lps) == aq;
    requires ty_valid(aq) && ty_same(aq, TY_ARR, q, -1);
    requires ty_valid(q) && ty_kind_[q] == TY_PROD && ty_same(ty_right_[q], TY_LFUN, cte, cgb);
    requires ty_valid(cgb) && ty_kind_[cgb] == TY_PROD && ty_left_[cgb] == cg;
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures build_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d3 &&
      ty_same(tm_ty_[\result], TY_LFUN, ct, cg);
    ensures build_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures build_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 12;
    ensures build_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures build_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures build_lin_lvl: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \old(lvl_ty(d3, l));
    ensures env_keep{Pre, Post};
*/
static int rev_build_lin(int d3, int lm, int lps, int ct)
  /*@ ghost (int cg, int cte, int cgb, int aq, int q) */
{
  //@ ghost int qr = ty_right_[q];
  //@ assert q_node: ty_inv && ty_node_ok(q) && 0 <= qr < q && ty_same(qr, TY_LFUN, cte, cgb);
  int lv = L(d3), g1 = k_ext(d3, ct);
  if (g1 < 0) return g1;
  //@ assert g1_ctx: ctx_valid(g1) && ctx_is_ext(g1, d3, ct) && ctx_len_[g1] == lv + 1 && lv == ctx_len_[d3];
  //@ assert g1_lvl: lvl_ty(g1, lv) == ct && lvl_ty(g1, lm) == TY_ID_INT && lvl_ty(g1, lps) == aq;
  int li = L(g1), g2 = k_ext(g1, TY_ID_INT);
  if (g2 < 0) return g2;
  //@ assert g2_ctx: ctx_valid(g2) && ctx_is_ext(g2, g1, TY_ID_INT) && ctx_len_[g2] == li + 1 && li == ctx_len_[g1];
  //@ assert g2_lvl: lvl_ty(g2, li) == TY_ID_INT && lvl_ty(g2, lv) == ct && lvl_ty(g2, lps) == aq;
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
  //@ assert vv >= 0 ==> 0 <= vv < tm_count && tm_ctx_[vv] == g2 && tm_ty_[vv] == ct;
  //@ assert vv >= 0 || vv == CHAD_E_CAPACITY;
  int i2 = V(g2, li);
  //@ assert i2 >= 0 ==> 0 <= i2 < tm_count && tm_ctx_[i2] == g2 && tm_ty_[i2] == TY_ID_INT;
  //@ assert i2 >= 0 || i2 == CHAD_E_CAPACITY;
  //@ assert vv >= 0 ==> arr_ok(tm_ty_[vv]) && ty_left_[tm_ty_[vv]] == cte;
  int y = b_index(vv, i2);
  //@ assert y >= 0 ==> 0 <= y < tm_count && tm_ctx_[y] == g2 && tm_ty_[y] == cte;
  //@ assert y >= 0 || y == CHAD_E_CAPACITY;
  //@ assert s >= 0 ==> 0 <= s < tm_count && tm_ctx_[s] == g2 && ty_same(tm_ty_[s], TY_LFUN, cte, cgb);
  int ap = b_lapp(s, y);
  //@ assert ap >= 0 ==> 0 <= ap < tm_count && tm_ctx_[ap] == g2 && tm_ty_[ap] == cgb;
  //@ assert ap >= 0 || ap == CHAD_E_CAPACITY;
  int f = b_fst(ap);
  //@ assert f >= 0 ==> 0 <= f < tm_count && tm_ctx_[f] == g2 && tm_ty_[f] == cg;
  //@ assert f >= 0 || f == CHAD_E_CAPACITY;
  //@ assert n >= 0 ==> 0 <= n < tm_count && tm_ctx_[n] == g1 && tm_ty_[n] == TY_ID_INT;
  //@ assert ctx_is_ext(g2, g1, TY_ID_INT) && lin(cg);
  int ls = b_lsum(n, f);
  //@ assert ls >= 0 ==> 0 <= ls < tm_count && tm_ctx_[ls] == g1 && tm_ty_[ls] == cg;
  //@ assert ls >= 0 || ls == CHAD_E_CAPACITY;
  //@ assert ls >= 0 ==> ty_valid(ct) && llam_ok(ct, tm_ctx_[ls], tm_ty_[ls]);
  int r = b_llam(ct, ls);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d3 && ty_same(tm_ty_[r], TY_LFUN, ct, cg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 12;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* R(build)'s recursive call and the rest: the body b (of type tau in gb =
 * G, i : Int) under its binder in e1 = d2, i (d1 = d, pn; d2 = d1, m),
 * then ps = build m (i. q) in d2, its extension d3, the linear half
 * rev_build_lin, the primal build_primal and the tail let_build_tail. */
/*@ requires REV_INV;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[b] == gb && tm_ty_[b] == tau;
    requires 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == TY_ID_INT;
    requires env_ok(CHAD_PREV, g, e1);
    requires trh(CHAD_PREV, TY_ID_INT) && trm(CHAD_PREV, TY_ID_INT) == TY_ID_INT;
    requires trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == cte;
    requires lin(ct) && ty_same(ct, TY_ARR, cte, -1) && ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1);
    requires trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg && lin(cg);
    requires 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
    requires ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
    requires ctx_valid(d) && ctx_is_ext(d1, d, typn) && ctx_is_ext(d2, d1, TY_ID_INT) &&
      ctx_is_ext(e1, d2, TY_ID_INT);
    requires ln == ctx_len_[d] && lm == ln + 1 && li == lm + 1;
    requires ctx_len_[d1] == lm && ctx_len_[d2] == li && ctx_len_[e1] == li + 1;
    requires 0 <= d < d1 < d2 < e1 < ctx_count;
    requires lvl_ty(d1, ln) == typn && lvl_ty(d2, lm) == TY_ID_INT && lvl_ty(e1, li) == TY_ID_INT;
    terminates \true;
    decreases REV_M(depth) - 3;
    REV_ASSIGNS;
    REV_FRAME;
    ensures bbody_size: tm_count - \old(tm_count) <= REV_K * chad_msz_[b] + 26;
    ensures bbody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures bbody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pa && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg);
*/
static int rev_build_body(int b, int pn, int d1, int d2, int e1, int ln, int lm, int li, int ct, int depth)
  /*@ ghost (int g, int gb, int tau, int pt, int cte, int pa, int cg, int d, int typn) */
{
  //@ assert x_gb: env_ok(CHAD_PREV, ctx_parent_[gb], e1) && trh(CHAD_PREV, ctx_type_[gb]) && trm(CHAD_PREV, ctx_type_[gb]) == TY_ID_INT;
  //@ assert x_li: 0 <= li < ctx_len_[e1] && lvl_ty(e1, li) == TY_ID_INT;
  int q = rev_under(b, e1, li, depth + 1);
  //@ assert q_keep: env_keep{Pre, Here};
  //@ assert q_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b];
  if (q < 0) return q;
  //@ assert q_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b];
  //@ assert q_rev: tm_ctx_[q] == e1 && rev_ty(tm_ty_[q], tau, gb) && 0 <= q < tm_count;
  //@ assert q_memo1: trh(CHAD_PREV, tau) && trh(CHAD_COT, tau) && trm(CHAD_PREV, tau) == pt && trm(CHAD_COT, tau) == cte;
  //@ assert q_memo2: trc(CHAD_COT, g) == cg;
  //@ assert q_gb: 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == TY_ID_INT && trch(CHAD_COT, gb);
  //@ ghost rev_trc_step(CHAD_COT, gb);
  //@ ghost int cgb = chad_memo_ctx_[CHAD_COT][gb] - 1;
  //@ assert q_cgb0: trc(CHAD_COT, gb) == cgb;
  //@ assert q_cgb: ty_valid(cgb) && ty_kind_[cgb] == TY_PROD && ty_left_[cgb] == cg;
  //@ ghost int tyq = tm_ty_[q];
  //@ assert q_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, cte, cgb);
  //@ assert q_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert q_typn: ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
  //@ assert q_pa: ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1) && lin(ct) && ty_same(ct, TY_ARR, cte, -1) && lin(cg);
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
  //@ assert ps_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert ps_keep: env_keep{Pre, Here};
  //@ assert ps_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 2;
  if (ps < 0) return ps;
  //@ ghost int aq = tm_ty_[ps];
  //@ assert ps_aq: ty_valid(aq) && ty_same(aq, TY_ARR, tyq, -1);
  //@ assert ps_c1: ctx_parent_[d1] == d && ctx_type_[d1] == typn && ctx_len_[d1] == lm;
  //@ assert ps_c2: ctx_parent_[d2] == d1 && ctx_type_[d2] == TY_ID_INT && ctx_len_[d2] == li;
  //@ assert ps_l2: lvl_ty(d2, lm) == TY_ID_INT && ctx_valid(d2);
  int lps = L(d2), d3 = rev_ext(d2, tyof(ps));
  //@ assert d3 >= 0 || d3 == CHAD_E_CAPACITY;
  //@ assert d3_keep: env_keep{Pre, Here};
  //@ assert d3_ret: d3 < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b] + 26;
  if (d3 < 0) return d3;
  //@ assert d3_ext: ctx_is_ext(d3, d2, aq) && ctx_len_[d3] == lps + 1 && lps == li && ctx_valid(d3);
  //@ assert d3_lps: lvl_ty(d3, lps) == aq;
  //@ assert d3_lm: lvl_ty(d3, lm) == TY_ID_INT && 0 <= lm < lps;
  //@ assert d3_q: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, cte, cgb);
  //@ assert d3_cgb: ty_valid(cgb) && ty_kind_[cgb] == TY_PROD && ty_left_[cgb] == cg;
  //@ assert d3_ct: lin(ct) && ty_same(ct, TY_ARR, cte, -1) && lin(cg);
  //@ ghost Built: ;
  int lin = rev_build_lin(d3, lm, lps, ct) /*@ ghost (cg, cte, cgb, aq, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d3 && ty_same(tm_ty_[lin], TY_LFUN, ct, cg) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_keep: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 14;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert lin_ret: lin < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b] + 26;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert l_lin: tm_ctx_[lin] == d3 && ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg) && 0 <= lin < tm_count;
  //@ assert l_lvl: lvl_ty(d3, lm) == TY_ID_INT && lvl_ty(d3, lps) == aq && ctx_valid(d3) && 0 <= lm < ctx_len_[d3] && 0 <= lps < ctx_len_[d3];
  //@ assert l_aq: ty_valid(aq) && ty_same(aq, TY_ARR, tyq, -1) && ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt;
  //@ ghost Lin: ;
  int prim = build_primal(d3, lm, lps) /*@ ghost (aq, tyq, pt) */;
  //@ assert prim >= 0 ==> 0 <= prim < tm_count && tm_ctx_[prim] == d3 && ty_valid(tm_ty_[prim]) && ty_same(tm_ty_[prim], TY_ARR, pt, -1);
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  /* hash-consing: the primal's type is P(Arr tau) itself */
  //@ assert p_pa: prim >= 0 ==> tm_ty_[prim] == pa;
  //@ assert p_keep: env_keep{Pre, Here};
  //@ assert p_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 20;
  //@ assert p_grow: tables_grow{Lin, Here} && side_same{Lin, Here};
  //@ assert p_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  if (prim < 0) return prim;
  //@ assert t_lin0: tm_ty_[lin] == tyl && tm_ctx_[lin] == d3 && 0 <= lin < tm_count;
  //@ assert t_lin1: ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg);
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
  int r = let_build_tail(pn, ps, prim, lin, d1, ln) /*@ ghost (d, d2, d3, TY_ID_INT, pa, ct, cg) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pa && ty_same(ty_right_[tyr], TY_LFUN, ct, cg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 26;
  //@ assert tables_grow{Tail, Here} && side_same{Tail, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* let pn = R a; m = fst pn; ps = build m (i. R b) in
 * (build m (i. fst ps[i]), \v. lsum m (i. fst (snd ps[i] v[i])))
 * R a and the extensions (pn, m, the binder i) here, R b and the rest in
 * rev_build_body (one recursive call per function). */
/*@ RULE_PRE(t, d, tm_kind_[t] == TM_BUILD);
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases REV_M(depth) - 2;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_build(int t, int d, int ct, int depth)
{
  //@ assert node_ok(t) && msrc_ok(t) && msz_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tarr = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t);
  //@ ghost int gb = tm_ctx_[b];
  //@ ghost int tau = tm_ty_[b];
  //@ assert 0 <= a < t && 0 <= b < t && chad_msrc_[a] == 1 && chad_msrc_[b] == 1;
  //@ assert build_src: tm_ctx_[a] == g && tm_ty_[a] == TY_ID_INT && ty_same(tarr, TY_ARR, tau, -1);
  //@ assert build_gb: ctx_is_ext(gb, g, TY_ID_INT) && 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == TY_ID_INT;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b]);
  /* the size budget: R a, R b and at most 26 nodes of this rule (or the
   * whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert build_budget: REV_K * chad_msz_[a] + REV_K * chad_msz_[b] + 26 <= REV_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= REV_K * chad_msz_[t]; */
  /*@ ghost int cgv = tm_ctx_[t] == CTX_EMPTY ? TY_ID_UNIT :
        chad_memo_ctx_[CHAD_COT][tm_ctx_[t]] - 1; */
  //@ assert cgv == trc(CHAD_COT, g) && lin(cgv);
  //@ assert memo_ty_inv && trh(CHAD_COT, tarr) && trh(CHAD_PREV, tarr) && ct == chad_memo_ty_[CHAD_COT][tarr] - 1;
  //@ ghost int pa = chad_memo_ty_[CHAD_PREV][tarr] - 1;
  int pn = rev(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (pn < 0) return pn;
  //@ assert pa_rev: tm_ctx_[pn] == d && rev_ty(tm_ty_[pn], TY_ID_INT, g) && 0 <= pn < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a];
  //@ assert pa_arr: trh(CHAD_PREV, tarr) && trm(CHAD_PREV, tarr) == pa && trh(CHAD_COT, tarr) && trm(CHAD_COT, tarr) == ct && trc(CHAD_COT, g) == cgv;
  //@ ghost rev_tr_step(CHAD_PREV, TY_ID_INT);
  //@ ghost rev_tr_step(CHAD_PREV, tarr);
  //@ ghost rev_tr_step(CHAD_COT, tarr);
  //@ assert pa_int: trh(CHAD_PREV, TY_ID_INT) && trm(CHAD_PREV, TY_ID_INT) == TY_ID_INT;
  //@ assert pa_tau: trh(CHAD_PREV, tau) && trh(CHAD_COT, tau);
  //@ ghost int pt = chad_memo_ty_[CHAD_PREV][tau] - 1;
  //@ ghost int cte = chad_memo_ty_[CHAD_COT][tau] - 1;
  //@ assert pa_pa: ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1);
  //@ assert pa_ct: lin(ct) && ty_same(ct, TY_ARR, cte, -1);
  //@ ghost int typn = tm_ty_[pn];
  //@ assert pa_ty: ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
  //@ assert pa_env: env_ok(CHAD_PREV, g, d) && ctx_valid(d);
  int ln = L(d), d1 = rev_ext(d, tyof(pn));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_ext: ctx_is_ext(d1, d, typn) && ctx_valid(d1) && ctx_len_[d1] == ln + 1 && ln == ctx_len_[d];
  //@ assert d1_lvl: lvl_ty(d1, ln) == typn;
  int lm = L(d1), d2 = rev_ext(d1, TY_ID_INT);
  //@ assert d2 >= 0 || d2 == CHAD_E_CAPACITY;
  //@ assert d2_keep: env_keep{Pre, Here};
  if (d2 < 0) return d2;
  //@ assert d2_ext: ctx_is_ext(d2, d1, TY_ID_INT) && ctx_valid(d2) && ctx_len_[d2] == lm + 1 && lm == ln + 1;
  //@ assert d2_lvl: lvl_ty(d2, lm) == TY_ID_INT && lvl_ty(d1, ln) == typn;
  int li = L(d2), e1 = rev_ext(d2, TY_ID_INT);
  //@ assert e1 >= 0 || e1 == CHAD_E_CAPACITY;
  //@ assert e1_keep: env_keep{Pre, Here};
  if (e1 < 0) return e1;
  //@ assert e1_ext: ctx_is_ext(e1, d2, TY_ID_INT) && ctx_valid(e1) && ctx_len_[e1] == li + 1 && li == lm + 1;
  //@ assert e1_lvl: lvl_ty(e1, li) == TY_ID_INT && lvl_ty(d2, lm) == TY_ID_INT && lvl_ty(d1, ln) == typn;
  //@ assert e1_env: env_ok(CHAD_PREV, g, e1);
  //@ assert e1_c: ctx_is_ext(d1, d, typn) && ctx_is_ext(d2, d1, TY_ID_INT) && ctx_valid(d);
  /* the three context nodes named first (proof-guide: instantiate, then use) */
  //@ assert e1_n: ctx_node_ok(e1) && ctx_node_ok(d2) && ctx_node_ok(d1);
  //@ assert e1_ord: 0 <= d < d1 < d2 < e1 < ctx_count;
  //@ assert e1_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert e1_memo: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == cte && trc(CHAD_COT, g) == cgv;
  //@ ghost Body: ;
  int res = rev_build_body(b, pn, d1, d2, e1, ln, lm, li, ct, depth)
    /*@ ghost (g, gb, tau, pt, cte, pa, cgv, d, typn) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= REV_K * chad_msz_[b] + 26;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert res >= 0 || res == CHAD_E_CAPACITY || res == CHAD_E_DEPTH;
  //@ ghost int tyr = res >= 0 ? tm_ty_[res] : 0;
  //@ assert res >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pa && ty_same(ty_right_[tyr], TY_LFUN, ct, cgv);
  //@ assert r_memo1: trh(CHAD_PREV, tarr) && trm(CHAD_PREV, tarr) == pa;
  //@ assert r_memo2: trh(CHAD_COT, tarr) && trm(CHAD_COT, tarr) == ct;
  //@ assert r_memo3: trch(CHAD_COT, g) && trc(CHAD_COT, g) == cgv;
  //@ assert res >= 0 ==> rev_ty(tm_ty_[res], \at(tm_ty_[t], Pre), \at(tm_ctx_[t], Pre));
  return res;
}

/* The second half of R(index a b), from the call R b on: in d1 = d, p (p =
 * R a at level lp),
 *   let q = R b in let p in let q in (fst p [fst q], \v. snd p (onehot (fst q) v))
 * One recursive call per function (as F's fwd_pair_body). */
/*@ requires REV_INV;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[b] == g && tm_ty_[b] == TY_ID_INT;
    requires env_ok(CHAD_PREV, g, d1);
    requires trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg && lin(cg);
    requires ty_valid(pa) && ty_kind_[pa] == TY_ARR && ty_left_[pa] == pt;
    requires ty_valid(ca) && ty_same(ca, TY_ARR, ct, -1) && lin(ct);
    requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
    requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_len_[d1] == lp + 1;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa &&
      ty_same(ty_right_[typ], TY_LFUN, ca, cg);
    terminates \true;
    decreases REV_M(depth) - 3;
    REV_ASSIGNS;
    REV_FRAME;
    ensures ibody_size: tm_count - \old(tm_count) <= REV_K * chad_msz_[b] + 16;
    ensures ibody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures ibody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg);
*/
static int rev_index_body(int b, int p, int d1, int lp, int ct, int depth)
  /*@ ghost (int g, int pa, int ca, int pt, int cg, int d, int typ) */
{
  /* typ's right half named before the call (as rev_app_body) */
  //@ ghost int tyr = ty_right_[typ];
  //@ assert ib_r0: ty_valid(tyr) && ty_same(tyr, TY_LFUN, ca, cg);
  int q = rev(b, d1, depth + 1);
  //@ assert ib_keep: env_keep{Pre, Here};
  //@ assert ib_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b];
  if (q < 0) return q;
  //@ assert ib_b: tm_ctx_[b] == g && tm_ty_[b] == TY_ID_INT;
  //@ assert ib_rev: tm_ctx_[q] == d1 && rev_ty(tm_ty_[q], TY_ID_INT, g) && 0 <= q < tm_count;
  /* P Int = Int, from one step of memo_inv at Int (R b memoised it) */
  //@ assert ib_int: trh(CHAD_PREV, TY_ID_INT) && ty_inv && ty_kind_[TY_ID_INT] == TY_INT;
  //@ ghost rev_tr_step(CHAD_PREV, TY_ID_INT);
  //@ assert ib_memo: trc(CHAD_COT, g) == cg && trm(CHAD_PREV, TY_ID_INT) == TY_ID_INT;
  //@ ghost int tyq = tm_ty_[q];
  //@ assert ib_qty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == TY_ID_INT;
  /* p's facts after the call, in small steps */
  //@ assert ib_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert ib_pk: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa;
  //@ assert ib_tyr: ty_right_[typ] == tyr && ty_same(tyr, TY_LFUN, ca, cg);
  //@ assert ib_pr: ty_same(ty_right_[typ], TY_LFUN, ca, cg);
  //@ assert ib_ca: ty_valid(ca) && ty_same(ca, TY_ARR, ct, -1) && lin(ct) && lin(cg);
  //@ assert ib_pa: ty_valid(pa) && ty_kind_[pa] == TY_ARR && ty_left_[pa] == pt;
  //@ assert ib_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d) && ctx_len_[d1] == lp + 1;
  int lq = L(d1), d2 = rev_ext(d1, tyof(q));
  //@ assert d2 >= 0 || d2 == CHAD_E_CAPACITY;
  //@ assert d2_keep: env_keep{Pre, Here};
  //@ assert d2_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b];
  if (d2 < 0) return d2;
  //@ assert d2_len: ctx_len_[d2] == lq + 1 && lq == lp + 1 && ctx_type_[d2] == tyq && ctx_parent_[d2] == d1;
  //@ assert d2_ext: ctx_is_ext(d2, d1, tyq) && ctx_valid(d2);
  //@ assert d2_ext2: ctx_is_ext(d1, d, typ) && ctx_valid(d);
  //@ assert d2_lq: lvl_ty(d2, lq) == tyq;
  //@ assert d2_lp1: lvl_ty(d1, lp) == typ;
  //@ assert d2_lp: lvl_ty(d2, lp) == typ && 0 <= lp < lq < ctx_len_[d2];
  //@ assert pl_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, ca, cg);
  //@ assert ql_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == TY_ID_INT;
  //@ assert ca_ok: ty_valid(ca) && ty_same(ca, TY_ARR, ct, -1) && lin(ct) && lin(cg);
  //@ ghost Built: ;
  int lin = rev_index_lin(d2, lp, lq, ct) /*@ ghost (cg, ca, typ, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d2 && ty_same(tm_ty_[lin], TY_LFUN, ct, cg) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_env: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 8;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg);
  //@ assert tail_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert tail_q: 0 <= q < tm_count && tm_ctx_[q] == d1 && tm_ty_[q] == tyq;
  //@ assert tail_lvl: lvl_ty(d2, lp) == typ && lvl_ty(d2, lq) == tyq;
  //@ assert tail_ext: ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]) && ctx_is_ext(d2, d1, tm_ty_[q]) && ctx_valid(d2);
  //@ assert tail_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == TY_ID_INT;
  //@ assert tail_pa: ty_valid(pa) && ty_kind_[pa] == TY_ARR && ty_left_[pa] == pt;
  //@ ghost Lin: ;
  int r = let_index_tail(p, q, d2, lp, lq, lin) /*@ ghost (d, d1, pt, pa, ct, cg) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ assert r >= 0 ==> ty_valid(tm_ty_[r]) && ty_kind_[tm_ty_[r]] == TY_PROD && ty_left_[tm_ty_[r]] == pt && ty_same(ty_right_[tm_ty_[r]], TY_LFUN, ct, cg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 16;
  //@ assert tables_grow{Lin, Here} && side_same{Lin, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* let p = R a; q = R b in (fst p [fst q], \v. snd p (onehot (fst q) v)) */
/*@ RULE_PRE(t, d, tm_kind_[t] == TM_INDEX);
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases REV_M(depth) - 2;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_index(int t, int d, int ct, int depth)
{
  //@ assert node_ok(t) && msrc_ok(t) && msz_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t);
  //@ ghost int ta0 = tm_ty_[a];
  //@ assert tm_ctx_[a] == g && tm_ctx_[b] == g && arr_ok(ta0) && tm_ty_[b] == TY_ID_INT && tau == ty_left_[ta0];
  //@ assert 0 <= a < t && 0 <= b < t && chad_msrc_[a] == 1 && chad_msrc_[b] == 1;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b]);
  /* the size budget: R a, R b and at most 16 nodes of this rule (or the
   * whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert idx_budget: REV_K * chad_msz_[a] + REV_K * chad_msz_[b] + 16 <= REV_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= REV_K * chad_msz_[t]; */
  /*@ ghost int cgv = tm_ctx_[t] == CTX_EMPTY ? TY_ID_UNIT :
        chad_memo_ctx_[CHAD_COT][tm_ctx_[t]] - 1; */
  //@ assert cgv == trc(CHAD_COT, g) && lin(cgv);
  //@ assert memo_ty_inv && trh(CHAD_COT, tau) && trh(CHAD_PREV, tau) && ct == chad_memo_ty_[CHAD_COT][tau] - 1;
  //@ assert idx_lin: lin(ct);
  //@ ghost int pt = chad_memo_ty_[CHAD_PREV][tau] - 1;
  int p = rev(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  //@ assert pa_rev: tm_ctx_[p] == d && rev_ty(tm_ty_[p], ta0, g) && 0 <= p < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a];
  //@ assert pa_memo: trh(CHAD_PREV, ta0) && trh(CHAD_COT, ta0) && trc(CHAD_COT, g) == cgv && lin(cgv);
  /* P(Arr tau) = Arr P tau, C(Arr tau) = Arr C tau: R a memoised Arr tau */
  //@ assert pa_tau: trm(CHAD_PREV, tau) == pt && trm(CHAD_COT, tau) == ct && lin(ct);
  //@ assert ty_node_ok(ta0) && 0 <= tau < ta0 && ty_kind_[ta0] == TY_ARR;
  //@ ghost rev_tr_step(CHAD_PREV, ta0);
  //@ ghost rev_tr_step(CHAD_COT, ta0);
  //@ ghost int pa = chad_memo_ty_[CHAD_PREV][ta0] - 1;
  //@ ghost int ca = chad_memo_ty_[CHAD_COT][ta0] - 1;
  //@ assert idx_pa: ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1);
  //@ assert idx_ca: ty_valid(ca) && ty_same(ca, TY_ARR, ct, -1);
  //@ ghost int typ = tm_ty_[p];
  //@ assert pa_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_same(ty_right_[typ], TY_LFUN, ca, cgv);
  int lp = L(d), d1 = rev_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_env: env_ok(CHAD_PREV, g, d1) && ctx_len_[d1] == lp + 1 && ctx_type_[d1] == typ;
  //@ assert pa_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d);
  //@ assert d1_b: tm_ctx_[b] == g && tm_ty_[b] == TY_ID_INT && trch(CHAD_COT, g);
  //@ assert d1_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ ghost Body: ;
  int r = rev_index_body(b, p, d1, lp, ct, depth) /*@ ghost (g, pa, ca, pt, cgv, d, typ) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= REV_K * chad_msz_[b] + 16;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert r >= 0 || r == CHAD_E_CAPACITY || r == CHAD_E_DEPTH;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, ct, cgv);
  //@ assert trh(CHAD_PREV, tau) && trh(CHAD_COT, tau) && trch(CHAD_COT, g) && trm(CHAD_PREV, tau) == pt && trm(CHAD_COT, tau) == ct && trc(CHAD_COT, g) == cgv;
  //@ assert r >= 0 ==> rev_ty(tm_ty_[r], \at(tm_ty_[t], Pre), \at(tm_ctx_[t], Pre));
  return r;
}

/* cs = build (length y) (i. snd ps[i] v[i]), the cotangents of R(map)'s
 * elements, in g1 = d3, v where level ly holds y : yt (an array), level
 * lps holds ps : aq = Arr Q, Q = P tau * (cte -o cga) (cga = C(G, x) =
 * C G * C sigma) and level lv holds v : ct = Arr cte. Against the
 * kernel's invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(g1) && ty_valid(ct) && ty_same(ct, TY_ARR, cte, -1);
    requires 0 <= ly < ctx_len_[g1] && lvl_ty(g1, ly) == yt && arr_ok(yt);
    requires 0 <= lps < ctx_len_[g1] && lvl_ty(g1, lps) == aq;
    requires 0 <= lv < ctx_len_[g1] && lvl_ty(g1, lv) == ct;
    requires ty_valid(aq) && ty_same(aq, TY_ARR, q, -1);
    requires ty_valid(q) && ty_kind_[q] == TY_PROD && ty_same(ty_right_[q], TY_LFUN, cte, cga);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures map_cs_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == g1 &&
      ty_valid(tm_ty_[\result]) && ty_same(tm_ty_[\result], TY_ARR, cga, -1);
    ensures map_cs_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures map_cs_size: \old(tm_count) <= tm_count <= \old(tm_count) + 11;
    ensures map_cs_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures map_cs_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures map_cs_lvl: \forall integer l; 0 <= l < ctx_len_[g1] ==> lvl_ty(g1, l) == \old(lvl_ty(g1, l));
    ensures env_keep{Pre, Post};
*/
static int rev_map_cs(int g1, int ly, int lps, int lv)
  /*@ ghost (int ct, int cte, int cga, int aq, int q, int yt) */
{
  //@ ghost int qr = ty_right_[q];
  //@ assert q_node: ty_inv && ty_node_ok(q) && 0 <= qr < q && ty_same(qr, TY_LFUN, cte, cga);
  int li = L(g1), g2 = k_ext(g1, TY_ID_INT);
  if (g2 < 0) return g2;
  //@ assert g2_ctx: ctx_valid(g2) && ctx_is_ext(g2, g1, TY_ID_INT) && ctx_len_[g2] == li + 1 && li == ctx_len_[g1];
  //@ assert g2_lvl: lvl_ty(g2, li) == TY_ID_INT && lvl_ty(g2, lv) == ct && lvl_ty(g2, lps) == aq;
  //@ assert g1_lvl: lvl_ty(g1, ly) == yt && ctx_valid(g1);
  int vy = V(g1, ly);
  //@ assert vy >= 0 ==> 0 <= vy < tm_count && tm_ctx_[vy] == g1 && tm_ty_[vy] == yt;
  //@ assert vy >= 0 || vy == CHAD_E_CAPACITY;
  int n = b_length(vy);
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
  //@ assert vv >= 0 ==> 0 <= vv < tm_count && tm_ctx_[vv] == g2 && tm_ty_[vv] == ct;
  //@ assert vv >= 0 || vv == CHAD_E_CAPACITY;
  int i2 = V(g2, li);
  //@ assert i2 >= 0 ==> 0 <= i2 < tm_count && tm_ctx_[i2] == g2 && tm_ty_[i2] == TY_ID_INT;
  //@ assert i2 >= 0 || i2 == CHAD_E_CAPACITY;
  //@ assert vv >= 0 ==> arr_ok(tm_ty_[vv]) && ty_left_[tm_ty_[vv]] == cte;
  int y = b_index(vv, i2);
  //@ assert y >= 0 ==> 0 <= y < tm_count && tm_ctx_[y] == g2 && tm_ty_[y] == cte;
  //@ assert y >= 0 || y == CHAD_E_CAPACITY;
  //@ assert s >= 0 ==> 0 <= s < tm_count && tm_ctx_[s] == g2 && ty_same(tm_ty_[s], TY_LFUN, cte, cga);
  int ap = b_lapp(s, y);
  //@ assert ap >= 0 ==> 0 <= ap < tm_count && tm_ctx_[ap] == g2 && tm_ty_[ap] == cga;
  //@ assert ap >= 0 || ap == CHAD_E_CAPACITY;
  //@ assert n >= 0 ==> 0 <= n < tm_count && tm_ctx_[n] == g1 && tm_ty_[n] == TY_ID_INT;
  //@ assert ctx_is_ext(g2, g1, TY_ID_INT);
  int r = b_build(n, ap);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == g1 && ty_same(tm_ty_[r], TY_ARR, cga, -1);
  //@ assert r >= 0 ==> ty_valid(tm_ty_[r]);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 11;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* lsum (length y) (j. fst cs[j]), the context part of R(map)'s
 * cotangent, in h1 where level ly holds y : yt (an array) and level lcs
 * holds cs : acs = Arr cga, cga = C G * C sigma. */
/*@ requires kernel_inv;
    requires ctx_valid(h1) && lin(cg);
    requires 0 <= ly < ctx_len_[h1] && lvl_ty(h1, ly) == yt && arr_ok(yt);
    requires 0 <= lcs < ctx_len_[h1] && lvl_ty(h1, lcs) == acs;
    requires ty_valid(acs) && ty_same(acs, TY_ARR, cga, -1);
    requires ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_left_[cga] == cg;
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures map_sum_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == h1 &&
      tm_ty_[\result] == cg;
    ensures map_sum_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures map_sum_size: \old(tm_count) <= tm_count <= \old(tm_count) + 7;
    ensures map_sum_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures map_sum_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures map_sum_lvl: \forall integer l; 0 <= l < ctx_len_[h1] ==> lvl_ty(h1, l) == \old(lvl_ty(h1, l));
    ensures env_keep{Pre, Post};
*/
static int rev_map_sum(int h1, int ly, int lcs)
  /*@ ghost (int cg, int cga, int acs, int yt) */
{
  int lj = L(h1), h2 = k_ext(h1, TY_ID_INT);
  if (h2 < 0) return h2;
  //@ assert h2_ctx: ctx_valid(h2) && ctx_is_ext(h2, h1, TY_ID_INT) && ctx_len_[h2] == lj + 1 && lj == ctx_len_[h1];
  //@ assert h2_lvl: lvl_ty(h2, lj) == TY_ID_INT && lvl_ty(h2, lcs) == acs;
  //@ assert h1_lvl: lvl_ty(h1, ly) == yt && ctx_valid(h1);
  int vy = V(h1, ly);
  //@ assert vy >= 0 ==> 0 <= vy < tm_count && tm_ctx_[vy] == h1 && tm_ty_[vy] == yt;
  //@ assert vy >= 0 || vy == CHAD_E_CAPACITY;
  int n = b_length(vy);
  //@ assert n >= 0 ==> 0 <= n < tm_count && tm_ctx_[n] == h1 && tm_ty_[n] == TY_ID_INT;
  //@ assert n >= 0 || n == CHAD_E_CAPACITY;
  int c = V(h2, lcs);
  //@ assert c >= 0 ==> 0 <= c < tm_count && tm_ctx_[c] == h2 && tm_ty_[c] == acs;
  //@ assert c >= 0 || c == CHAD_E_CAPACITY;
  int j = V(h2, lj);
  //@ assert j >= 0 ==> 0 <= j < tm_count && tm_ctx_[j] == h2 && tm_ty_[j] == TY_ID_INT;
  //@ assert j >= 0 || j == CHAD_E_CAPACITY;
  //@ assert c >= 0 ==> arr_ok(tm_ty_[c]) && ty_left_[tm_ty_[c]] == cga;
  int x = b_index(c, j);
  //@ assert x >= 0 ==> 0 <= x < tm_count && tm_ctx_[x] == h2 && tm_ty_[x] == cga;
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  //@ assert ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_left_[cga] == cg;
  int f = b_fst(x);
  //@ assert f >= 0 ==> 0 <= f < tm_count && tm_ctx_[f] == h2 && tm_ty_[f] == cg;
  //@ assert f >= 0 || f == CHAD_E_CAPACITY;
  //@ assert n >= 0 ==> 0 <= n < tm_count && tm_ctx_[n] == h1 && tm_ty_[n] == TY_ID_INT;
  //@ assert ctx_is_ext(h2, h1, TY_ID_INT) && lin(cg);
  int r = b_lsum(n, f);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == h1 && tm_ty_[r] == cg;
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 7;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* snd p (map (w. snd w) cs), the array part of R(map)'s cotangent passed
 * back through R b's linear half, in h1 where level lp holds p : typ =
 * P(Arr sigma) * (cb -o cg), cb = C(Arr sigma) = Arr csg, and level lcs
 * holds cs : acs = Arr cga, cga = C G * csg (the binder's type). */
/*@ requires kernel_inv;
    requires ctx_valid(h1);
    requires 0 <= lp < ctx_len_[h1] && lvl_ty(h1, lp) == typ;
    requires 0 <= lcs < ctx_len_[h1] && lvl_ty(h1, lcs) == acs;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, cb, cg);
    requires ty_valid(cb) && ty_same(cb, TY_ARR, csg, -1);
    requires ty_valid(acs) && ty_same(acs, TY_ARR, cga, -1);
    requires ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_right_[cga] == csg;
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures map_back_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == h1 &&
      tm_ty_[\result] == cg;
    ensures map_back_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures map_back_size: \old(tm_count) <= tm_count <= \old(tm_count) + 7;
    ensures map_back_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures map_back_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures map_back_lvl: \forall integer l; 0 <= l < ctx_len_[h1] ==> lvl_ty(h1, l) == \old(lvl_ty(h1, l));
    ensures env_keep{Pre, Post};
*/
static int rev_map_back(int h1, int lp, int lcs, int cga)
  /*@ ghost (int cg, int csg, int cb, int acs, int typ) */
{
  //@ ghost int tr = ty_right_[typ];
  //@ assert p_node: ty_inv && ty_node_ok(typ) && 0 <= tr < typ && ty_same(tr, TY_LFUN, cb, cg);
  int lw = L(h1), h3 = k_ext(h1, cga);
  if (h3 < 0) return h3;
  //@ assert h3_ctx: ctx_valid(h3) && ctx_is_ext(h3, h1, cga) && ctx_len_[h3] == lw + 1 && lw == ctx_len_[h1];
  //@ assert h3_lvl: lvl_ty(h3, lw) == cga;
  //@ assert h1_lvl: lvl_ty(h1, lp) == typ && lvl_ty(h1, lcs) == acs && ctx_valid(h1);
  int w = V(h3, lw);
  //@ assert w >= 0 ==> 0 <= w < tm_count && tm_ctx_[w] == h3 && tm_ty_[w] == cga;
  //@ assert w >= 0 || w == CHAD_E_CAPACITY;
  //@ assert ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_right_[cga] == csg;
  int sw = b_snd(w);
  //@ assert sw >= 0 ==> 0 <= sw < tm_count && tm_ctx_[sw] == h3 && tm_ty_[sw] == csg;
  //@ assert sw >= 0 || sw == CHAD_E_CAPACITY;
  int c = V(h1, lcs);
  //@ assert c >= 0 ==> 0 <= c < tm_count && tm_ctx_[c] == h1 && tm_ty_[c] == acs;
  //@ assert c >= 0 || c == CHAD_E_CAPACITY;
  //@ assert c >= 0 ==> arr_ok(tm_ty_[c]) && ty_left_[tm_ty_[c]] == cga;
  //@ assert ctx_is_ext(h3, h1, cga);
  int m = b_map(sw, c);
  //@ assert m >= 0 ==> 0 <= m < tm_count && tm_ctx_[m] == h1 && ty_same(tm_ty_[m], TY_ARR, csg, -1);
  //@ assert m >= 0 ==> ty_valid(tm_ty_[m]);
  //@ assert m >= 0 || m == CHAD_E_CAPACITY;
  /* hash-consing: the array of cotangents has the type C(Arr sigma) itself */
  //@ assert m >= 0 ==> ty_inv && ty_valid(cb) && ty_same(cb, TY_ARR, csg, -1) && ty_same(tm_ty_[m], TY_ARR, csg, -1);
  //@ assert m_cb: m >= 0 ==> tm_ty_[m] == cb;
  int vp = V(h1, lp);
  //@ assert vp >= 0 ==> 0 <= vp < tm_count && tm_ctx_[vp] == h1 && tm_ty_[vp] == typ;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  //@ assert ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_right_[typ] == tr;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> 0 <= sp < tm_count && tm_ctx_[sp] == h1 && tm_ty_[sp] == tr;
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  //@ assert sp >= 0 ==> ty_same(tm_ty_[sp], TY_LFUN, cb, cg);
  //@ assert m >= 0 ==> 0 <= m < tm_count && tm_ctx_[m] == h1 && tm_ty_[m] == cb;
  int r = b_lapp(sp, m);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == h1 && tm_ty_[r] == cg;
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 7;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* lsum (length y) (j. fst cs[j]) + snd p (map (w. snd w) cs), R(map)'s
 * cotangent of G from the elements' cotangents cs (rev_map_sum +
 * rev_map_back), in h1 where level lp holds p : typ, level ly holds y : yt
 * and level lcs holds cs : acs = Arr cga, cga = C G * csg. */
/*@ requires kernel_inv;
    requires ctx_valid(h1) && lin(cg);
    requires 0 <= lp < ctx_len_[h1] && lvl_ty(h1, lp) == typ;
    requires 0 <= ly < ctx_len_[h1] && lvl_ty(h1, ly) == yt && arr_ok(yt);
    requires 0 <= lcs < ctx_len_[h1] && lvl_ty(h1, lcs) == acs;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, cb, cg);
    requires ty_valid(cb) && ty_same(cb, TY_ARR, csg, -1);
    requires ty_valid(acs) && ty_same(acs, TY_ARR, cga, -1);
    requires ty_valid(cga) && ty_same(cga, TY_PROD, cg, csg);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures map_plus_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == h1 &&
      tm_ty_[\result] == cg;
    ensures map_plus_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures map_plus_size: \old(tm_count) <= tm_count <= \old(tm_count) + 15;
    ensures map_plus_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures map_plus_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures map_plus_lvl: \forall integer l; 0 <= l < ctx_len_[h1] ==> lvl_ty(h1, l) == \old(lvl_ty(h1, l));
    ensures env_keep{Pre, Post};
*/
static int rev_map_plus(int h1, int lp, int ly, int lcs, int cga)
  /*@ ghost (int cg, int csg, int cb, int acs, int typ, int yt) */
{
  //@ assert cga_lr: ty_left_[cga] == cg && ty_right_[cga] == csg && ty_kind_[cga] == TY_PROD;
  int p1 = rev_map_sum(h1, ly, lcs) /*@ ghost (cg, cga, acs, yt) */;
  //@ assert p1 >= 0 ==> 0 <= p1 < tm_count && tm_ctx_[p1] == h1 && tm_ty_[p1] == cg;
  //@ assert p1 >= 0 || p1 == CHAD_E_CAPACITY;
  //@ assert p1_size: tm_count <= \at(tm_count, Pre) + 7;
  //@ assert p1_grow: tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert p1_keep: \forall integer l; 0 <= l < ctx_len_[h1] ==> lvl_ty(h1, l) == \at(lvl_ty(h1, l), Pre);
  //@ assert p1_lvl: lvl_ty(h1, lcs) == acs && lvl_ty(h1, lp) == typ && ctx_valid(h1);
  //@ assert p1_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, cb, cg);
  //@ assert p1_cb: ty_valid(cb) && ty_same(cb, TY_ARR, csg, -1) && ty_valid(acs) && ty_same(acs, TY_ARR, cga, -1);
  //@ assert p1_cga: ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_right_[cga] == csg;
  int p2 = rev_map_back(h1, lp, lcs, cga) /*@ ghost (cg, csg, cb, acs, typ) */;
  //@ assert p2 >= 0 ==> 0 <= p2 < tm_count && tm_ctx_[p2] == h1 && tm_ty_[p2] == cg;
  //@ assert p2 >= 0 || p2 == CHAD_E_CAPACITY;
  //@ assert p2_size: tm_count <= \at(tm_count, Pre) + 14;
  //@ assert p2_grow: tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert p2_keep: \forall integer l; 0 <= l < ctx_len_[h1] ==> lvl_ty(h1, l) == \at(lvl_ty(h1, l), Pre);
  //@ assert p2_keepe: env_keep{Pre, Here};
  //@ assert p1 >= 0 ==> 0 <= p1 < tm_count && tm_ctx_[p1] == h1 && tm_ty_[p1] == cg;
  //@ assert lin(cg);
  int r = b_plus(p1, p2);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == h1 && tm_ty_[r] == cg;
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 15;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The linear half of R(map (x. a) b) (a the body, b the array), in d3
 * where level lp holds p = R b : typ, level ly holds y = fst p : yt and
 * level lps holds ps : aq = Arr Q, Q = P tau * (cte -o cga):
 *   \v. let cs = build (length y) (i. snd ps[i] v[i]) in
 *       lsum (length y) (j. fst cs[j]) + snd p (map (w. snd w) cs)
 * of type ct -o cg, ct = Arr cte. Against the kernel's invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(d3) && lin(ct) && ty_same(ct, TY_ARR, cte, -1) && lin(cg);
    requires 0 <= lp < ctx_len_[d3] && lvl_ty(d3, lp) == typ;
    requires 0 <= ly < ctx_len_[d3] && lvl_ty(d3, ly) == yt && arr_ok(yt);
    requires 0 <= lps < ctx_len_[d3] && lvl_ty(d3, lps) == aq;
    requires ty_valid(aq) && ty_same(aq, TY_ARR, q, -1);
    requires ty_valid(q) && ty_kind_[q] == TY_PROD && ty_same(ty_right_[q], TY_LFUN, cte, cga);
    requires ty_valid(cga) && ty_same(cga, TY_PROD, cg, csg);
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, cb, cg);
    requires ty_valid(cb) && ty_same(cb, TY_ARR, csg, -1);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures map_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d3 &&
      ty_same(tm_ty_[\result], TY_LFUN, ct, cg);
    ensures map_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures map_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 28;
    ensures map_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures map_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures map_lin_lvl: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \old(lvl_ty(d3, l));
    ensures env_keep{Pre, Post};
*/
static int rev_map_lin(int d3, int lp, int ly, int lps, int ct)
  /*@ ghost (int cg, int cte, int cga, int csg, int cb, int typ, int yt, int aq, int q) */
{
  int lv = L(d3), g1 = k_ext(d3, ct);
  if (g1 < 0) return g1;
  //@ assert g1_ctx: ctx_valid(g1) && ctx_is_ext(g1, d3, ct) && ctx_len_[g1] == lv + 1 && lv == ctx_len_[d3];
  //@ assert g1_lvl: lvl_ty(g1, lv) == ct && lvl_ty(g1, lp) == typ && lvl_ty(g1, ly) == yt && lvl_ty(g1, lps) == aq;
  //@ assert g1_keep: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  //@ assert g1_keepe: env_keep{Pre, Here};
  int cs = rev_map_cs(g1, ly, lps, lv) /*@ ghost (ct, cte, cga, aq, q, yt) */;
  //@ assert cs >= 0 ==> 0 <= cs < tm_count && tm_ctx_[cs] == g1 && ty_valid(tm_ty_[cs]) && ty_same(tm_ty_[cs], TY_ARR, cga, -1);
  //@ assert cs >= 0 || cs == CHAD_E_CAPACITY;
  //@ assert cs_size: tm_count <= \at(tm_count, Pre) + 11;
  //@ assert cs_grow: tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert cs_keep: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  //@ assert cs_keepe: env_keep{Pre, Here};
  if (cs < 0) return cs;
  //@ ghost int acs = tm_ty_[cs];
  //@ assert cs_lvl: lvl_ty(g1, lv) == ct && lvl_ty(g1, lp) == typ && lvl_ty(g1, ly) == yt && ctx_valid(g1);
  //@ assert d3_lvl: lvl_ty(d3, lp) == typ && lvl_ty(d3, ly) == yt && lvl_ty(d3, lps) == aq && ctx_valid(d3);
  int lcs = L(g1), h1 = k_ext(g1, tyof(cs));
  //@ assert h1_keep0: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  //@ assert h1_keep0e: env_keep{Pre, Here};
  if (h1 < 0) return h1;
  //@ assert h1_ctx: ctx_valid(h1) && ctx_is_ext(h1, g1, acs) && ctx_len_[h1] == lcs + 1 && lcs == ctx_len_[g1];
  //@ assert h1_lvl: lvl_ty(h1, lcs) == acs && lvl_ty(h1, lp) == typ && lvl_ty(h1, ly) == yt;
  //@ assert h1_keep: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  //@ assert h1_keepe: env_keep{Pre, Here};
  //@ assert acs_ty: ty_valid(acs) && ty_same(acs, TY_ARR, cga, -1) && ty_valid(cga) && ty_kind_[cga] == TY_PROD;
  //@ assert cga_lr: ty_left_[cga] == cg && ty_right_[cga] == csg;
  //@ assert h1_cb: ty_valid(cb) && ty_same(cb, TY_ARR, csg, -1) && lin(cg);
  //@ assert h1_typ: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, cb, cg);
  //@ assert h1_yt: 0 <= ly < ctx_len_[h1] && 0 <= lp < ctx_len_[h1] && 0 <= lcs < ctx_len_[h1] && arr_ok(yt);
  int pl = rev_map_plus(h1, lp, ly, lcs, ty_left(tyof(cs))) /*@ ghost (cg, csg, cb, acs, typ, yt) */;
  //@ assert pl >= 0 ==> 0 <= pl < tm_count && tm_ctx_[pl] == h1 && tm_ty_[pl] == cg;
  //@ assert pl >= 0 || pl == CHAD_E_CAPACITY;
  //@ assert pl_size: tm_count <= \at(tm_count, Pre) + 26;
  //@ assert pl_grow: tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert pl_keep: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  //@ assert pl_keepe: env_keep{Pre, Here};
  //@ assert pl_ext: ctx_is_ext(h1, g1, acs) && ctx_is_ext(g1, d3, ct);
  //@ assert cs >= 0 ==> 0 <= cs < tm_count && tm_ctx_[cs] == g1 && tm_ty_[cs] == acs && ctx_is_ext(h1, g1, acs);
  int lt = b_let(cs, pl);
  //@ assert lt >= 0 ==> 0 <= lt < tm_count && tm_ctx_[lt] == g1 && tm_ty_[lt] == cg;
  //@ assert lt >= 0 || lt == CHAD_E_CAPACITY;
  //@ assert lt >= 0 ==> ty_valid(ct) && llam_ok(ct, tm_ctx_[lt], tm_ty_[lt]);
  //@ assert lt_par: ctx_parent_[g1] == d3 && (lt >= 0 ==> tm_ctx_[lt] == g1 && tm_ty_[lt] == cg);
  int r = b_llam(ct, lt);
  //@ assert r_ctx: r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d3;
  //@ assert r_ty: r >= 0 ==> ty_same(tm_ty_[r], TY_LFUN, ct, cg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 28;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert r_keep: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  //@ assert r_keepe: env_keep{Pre, Here};
  return r;
}

/* R(map)'s recursive call and the rest: the body a (of type tau in ga =
 * G, x : sigma) under its binder in e1 = d2, x (d1 = d, p; d2 = d1, y with
 * y = fst p : pb = P(Arr sigma)), then ps = map (x. q) y in d2, its
 * extension d3, the linear half rev_map_lin, the primal map_primal and the
 * tail let_build_tail (shared with build: let p in let y = fst p in let ps
 * in (prim, lin)). */
/*@ requires REV_INV;
    requires 0 <= a < tm_count && chad_msrc_[a] == 1 && 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[a] == ga && tm_ty_[a] == tau;
    requires 0 < ga < ctx_count && ctx_parent_[ga] == g && ctx_type_[ga] == sg;
    requires env_ok(CHAD_PREV, g, e1);
    requires trh(CHAD_PREV, sg) && trm(CHAD_PREV, sg) == psg && trh(CHAD_COT, sg) && trm(CHAD_COT, sg) == csg;
    requires trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == cte;
    requires lin(ct) && ty_same(ct, TY_ARR, cte, -1) && ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1);
    requires trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg && lin(cg);
    requires ty_valid(pb) && ty_same(pb, TY_ARR, psg, -1) && ty_valid(cb) && ty_same(cb, TY_ARR, csg, -1);
    requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pb &&
      ty_same(ty_right_[typ], TY_LFUN, cb, cg);
    requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_is_ext(d2, d1, pb) &&
      ctx_is_ext(e1, d2, psg);
    requires lp == ctx_len_[d] && ly == lp + 1 && lx == ly + 1;
    requires ctx_len_[d1] == ly && ctx_len_[d2] == lx && ctx_len_[e1] == lx + 1;
    requires 0 <= d < d1 < d2 < e1 < ctx_count;
    requires lvl_ty(d1, lp) == typ && lvl_ty(d2, ly) == pb && lvl_ty(e1, lx) == psg;
    terminates \true;
    decreases REV_M(depth) - 3;
    REV_ASSIGNS;
    REV_FRAME;
    ensures mbody_size: tm_count - \old(tm_count) <= REV_K * chad_msz_[a] + 40;
    ensures mbody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures mbody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pa && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg);
*/
static int rev_map_body(int a, int p, int d1, int d2, int e1, int lp, int ly, int lx, int ct, int depth)
  /*@ ghost (int g, int ga, int sg, int tau, int psg, int csg, int pt, int cte, int pa, int cg,
             int d, int typ, int pb, int cb) */
{
  /* typ's node by name: restated after each call (framing ty_right_[typ]
   * through R a and then its ty_same took 9 s) */
  //@ ghost int rtyp = ty_right_[typ];
  //@ assert p_rtyp: ty_same(typ, TY_PROD, pb, rtyp) && ty_valid(rtyp) && ty_same(rtyp, TY_LFUN, cb, cg);
  //@ assert x_ga: env_ok(CHAD_PREV, ctx_parent_[ga], e1) && trh(CHAD_PREV, ctx_type_[ga]) && trm(CHAD_PREV, ctx_type_[ga]) == psg;
  //@ assert x_lx: 0 <= lx < ctx_len_[e1] && lvl_ty(e1, lx) == psg;
  int q = rev_under(a, e1, lx, depth + 1);
  //@ assert q_keep: env_keep{Pre, Here};
  //@ assert q_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[a];
  if (q < 0) return q;
  //@ assert q_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a];
  //@ assert q_rev: tm_ctx_[q] == e1 && rev_ty(tm_ty_[q], tau, ga) && 0 <= q < tm_count;
  //@ assert q_memo1: trh(CHAD_PREV, tau) && trh(CHAD_COT, tau) && trm(CHAD_PREV, tau) == pt && trm(CHAD_COT, tau) == cte;
  //@ assert q_memo2: trc(CHAD_COT, g) == cg && trh(CHAD_COT, sg) && trm(CHAD_COT, sg) == csg;
  //@ assert q_ga: 0 < ga < ctx_count && ctx_parent_[ga] == g && ctx_type_[ga] == sg && trch(CHAD_COT, ga);
  //@ ghost rev_trc_step(CHAD_COT, ga);
  //@ ghost int cga = chad_memo_ctx_[CHAD_COT][ga] - 1;
  //@ assert q_cga0: trc(CHAD_COT, ga) == cga;
  //@ assert q_cga: ty_valid(cga) && ty_same(cga, TY_PROD, cg, csg);
  //@ ghost int tyq = tm_ty_[q];
  //@ assert q_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, cte, cga);
  //@ ghost int rq = ty_right_[tyq];
  //@ assert q_rq: ty_same(tyq, TY_PROD, pt, rq) && ty_valid(rq) && ty_same(rq, TY_LFUN, cte, cga);
  //@ assert q_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert q_rtyp: ty_same(typ, TY_PROD, pb, rtyp) && ty_valid(rtyp) && ty_same(rtyp, TY_LFUN, cb, cg);
  //@ assert q_typ: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pb && ty_same(ty_right_[typ], TY_LFUN, cb, cg);
  //@ assert q_pb: ty_valid(pb) && ty_same(pb, TY_ARR, psg, -1) && ty_valid(cb) && ty_same(cb, TY_ARR, csg, -1);
  //@ assert q_pa: ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1) && lin(ct) && ty_same(ct, TY_ARR, cte, -1) && lin(cg);
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
  //@ assert ps_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert ps_keep: env_keep{Pre, Here};
  //@ assert ps_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a] + 2;
  if (ps < 0) return ps;
  //@ assert ps_rq: ty_same(tyq, TY_PROD, pt, rq) && ty_valid(rq) && ty_same(rq, TY_LFUN, cte, cga);
  //@ assert ps_rtyp: ty_same(typ, TY_PROD, pb, rtyp) && ty_valid(rtyp) && ty_same(rtyp, TY_LFUN, cb, cg);
  //@ ghost int aq = tm_ty_[ps];
  //@ assert ps_aq: ty_valid(aq) && ty_same(aq, TY_ARR, tyq, -1);
  //@ assert ps_c1: ctx_parent_[d1] == d && ctx_type_[d1] == typ && ctx_len_[d1] == ly;
  //@ assert ps_c2: ctx_parent_[d2] == d1 && ctx_type_[d2] == pb && ctx_len_[d2] == lx;
  //@ assert ps_l2: lvl_ty(d2, ly) == pb && lvl_ty(d2, lp) == typ && ctx_valid(d2);
  int lps = L(d2), d3 = rev_ext(d2, tyof(ps));
  //@ assert d3 >= 0 || d3 == CHAD_E_CAPACITY;
  //@ assert d3_keep: env_keep{Pre, Here};
  //@ assert d3_ret: d3 < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[a] + 40;
  if (d3 < 0) return d3;
  //@ assert d3_ext: ctx_is_ext(d3, d2, aq) && ctx_len_[d3] == lps + 1 && lps == lx && ctx_valid(d3);
  //@ assert d3_lps: lvl_ty(d3, lps) == aq;
  //@ assert d3_old: 0 <= lp < ly < ctx_len_[d2] && lps == ctx_len_[d2];
  //@ assert d3_ly1: lvl_ty(d3, ly) == lvl_ty(d2, ly) && lvl_ty(d3, lp) == lvl_ty(d2, lp);
  //@ assert d3_ly: lvl_ty(d3, ly) == pb && lvl_ty(d3, lp) == typ && 0 <= lp < ly < lps;
  //@ assert d3_rq: ty_same(tyq, TY_PROD, pt, rq) && ty_valid(rq) && ty_same(rq, TY_LFUN, cte, cga);
  //@ assert d3_q: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, cte, cga);
  //@ assert d3_cga: ty_valid(cga) && ty_same(cga, TY_PROD, cg, csg);
  //@ assert d3_ct: lin(ct) && ty_same(ct, TY_ARR, cte, -1) && lin(cg);
  //@ assert d3_pb: arr_ok(pb) && ty_valid(cb) && ty_same(cb, TY_ARR, csg, -1);
  //@ assert d3_rtyp: ty_same(typ, TY_PROD, pb, rtyp) && ty_valid(rtyp) && ty_same(rtyp, TY_LFUN, cb, cg);
  //@ assert d3_typ: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, cb, cg);
  //@ ghost Built: ;
  int lin = rev_map_lin(d3, lp, ly, lps, ct) /*@ ghost (cg, cte, cga, csg, cb, typ, pb, aq, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d3 && ty_same(tm_ty_[lin], TY_LFUN, ct, cg) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_keep: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a] + 30;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert lin_ret: lin < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[a] + 40;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert l_lin: tm_ctx_[lin] == d3 && ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg) && 0 <= lin < tm_count;
  //@ assert l_lvl: lvl_ty(d3, lps) == aq && ctx_valid(d3) && 0 <= lps < ctx_len_[d3];
  //@ assert l_aq: ty_valid(aq) && ty_same(aq, TY_ARR, tyq, -1) && ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt;
  //@ ghost Lin: ;
  int prim = map_primal(d3, lps, tyof(q)) /*@ ghost (aq, pt) */;
  //@ assert prim >= 0 ==> 0 <= prim < tm_count && tm_ctx_[prim] == d3 && ty_valid(tm_ty_[prim]) && ty_same(tm_ty_[prim], TY_ARR, pt, -1);
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  /* hash-consing: the primal's type is P(Arr tau) itself */
  //@ assert prim >= 0 ==> ty_inv && ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1) && ty_same(tm_ty_[prim], TY_ARR, pt, -1);
  //@ assert p_pa: prim >= 0 ==> tm_ty_[prim] == pa;
  //@ assert p_keep: env_keep{Pre, Here};
  //@ assert p_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a] + 34;
  //@ assert p_grow: tables_grow{Lin, Here} && side_same{Lin, Here};
  //@ assert p_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  if (prim < 0) return prim;
  //@ assert t_lin0: tm_ty_[lin] == tyl && tm_ctx_[lin] == d3 && 0 <= lin < tm_count;
  //@ assert t_lin1: ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg);
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
  int r = let_build_tail(p, ps, prim, lin, d1, lp) /*@ ghost (d, d2, d3, pb, pa, ct, cg) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pa && ty_same(ty_right_[tyr], TY_LFUN, ct, cg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a] + 40;
  //@ assert tables_grow{Tail, Here} && side_same{Tail, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* R(map (x. a) b), b : Arr sigma, a : tau in G, x : sigma:
 *   let p = R b; y = fst p; ps = map (x. R a) y in
 *   (map (z. fst z) ps,
 *    \v. let cs = build (length y) (i. snd ps[i] v[i]) in
 *        lsum (length y) (j. fst cs[j]) + snd p (map (w. snd w) cs))
 * R b and the extensions (p, y, the binder x) here, R a and the rest in
 * rev_map_body (one recursive call per function). */
/*@ RULE_PRE(t, d, tm_kind_[t] == TM_MAP);
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases REV_M(depth) - 2;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_map(int t, int d, int ct, int depth)
{
  //@ assert node_ok(t) && msrc_ok(t) && msz_ok(t);
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
  /* the size budget: R b, R a and at most 40 nodes of this rule (or the
   * whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert map_budget: REV_K * chad_msz_[a] + REV_K * chad_msz_[b] + 40 <= REV_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= REV_K * chad_msz_[t]; */
  /*@ ghost int cgv = tm_ctx_[t] == CTX_EMPTY ? TY_ID_UNIT :
        chad_memo_ctx_[CHAD_COT][tm_ctx_[t]] - 1; */
  //@ assert cgv == trc(CHAD_COT, g) && lin(cgv);
  //@ assert memo_ty_inv && trh(CHAD_COT, tarr) && trh(CHAD_PREV, tarr) && ct == chad_memo_ty_[CHAD_COT][tarr] - 1;
  //@ ghost int pa = chad_memo_ty_[CHAD_PREV][tarr] - 1;
  int p = rev(b, d, depth + 1);
  //@ assert pb_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert pb_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  //@ assert pb_rev: tm_ctx_[p] == d && rev_ty(tm_ty_[p], tb, g) && 0 <= p < tm_count;
  //@ assert pb_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b];
  //@ assert pb_arr: trh(CHAD_PREV, tarr) && trm(CHAD_PREV, tarr) == pa && trh(CHAD_COT, tarr) && trm(CHAD_COT, tarr) == ct && trc(CHAD_COT, g) == cgv;
  //@ assert pb_tb: trh(CHAD_PREV, tb) && trh(CHAD_COT, tb);
  //@ ghost rev_tr_step(CHAD_PREV, tb);
  //@ ghost rev_tr_step(CHAD_COT, tb);
  //@ ghost rev_tr_step(CHAD_PREV, tarr);
  //@ ghost rev_tr_step(CHAD_COT, tarr);
  //@ assert pb_sg: trh(CHAD_PREV, sg) && trh(CHAD_COT, sg);
  //@ assert pb_tau: trh(CHAD_PREV, tau) && trh(CHAD_COT, tau);
  //@ ghost int pb = chad_memo_ty_[CHAD_PREV][tb] - 1;
  //@ ghost int cb = chad_memo_ty_[CHAD_COT][tb] - 1;
  //@ ghost int psg = chad_memo_ty_[CHAD_PREV][sg] - 1;
  //@ ghost int csg = chad_memo_ty_[CHAD_COT][sg] - 1;
  //@ ghost int pt = chad_memo_ty_[CHAD_PREV][tau] - 1;
  //@ ghost int cte = chad_memo_ty_[CHAD_COT][tau] - 1;
  //@ assert pb_pb: ty_valid(pb) && ty_same(pb, TY_ARR, psg, -1) && ty_valid(cb) && ty_same(cb, TY_ARR, csg, -1);
  //@ assert pb_pa: ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1);
  //@ assert pb_ct: lin(ct) && ty_same(ct, TY_ARR, cte, -1);
  //@ ghost int typ = tm_ty_[p];
  //@ assert pb_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pb && ty_same(ty_right_[typ], TY_LFUN, cb, cgv);
  //@ assert pb_env: env_ok(CHAD_PREV, g, d) && ctx_valid(d);
  int lp = L(d), d1 = rev_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_len_[d1] == lp + 1 && lp == ctx_len_[d];
  //@ assert d1_lvl: lvl_ty(d1, lp) == typ;
  //@ assert d1_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pb;
  int ly = L(d1), d2 = rev_ext(d1, ty_left(tyof(p)));
  //@ assert d2 >= 0 || d2 == CHAD_E_CAPACITY;
  //@ assert d2_keep: env_keep{Pre, Here};
  if (d2 < 0) return d2;
  //@ assert d2_ext: ctx_is_ext(d2, d1, pb) && ctx_valid(d2) && ctx_len_[d2] == ly + 1 && ly == lp + 1;
  //@ assert d2_lvl: lvl_ty(d2, ly) == pb && lvl_ty(d1, lp) == typ;
  //@ assert d2_pb: ty_valid(pb) && ty_kind_[pb] == TY_ARR && ty_left_[pb] == psg;
  int lx = L(d2), e1 = rev_ext(d2, ty_left(ty_left(tyof(p))));
  //@ assert e1 >= 0 || e1 == CHAD_E_CAPACITY;
  //@ assert e1_keep: env_keep{Pre, Here};
  if (e1 < 0) return e1;
  //@ assert e1_ext: ctx_is_ext(e1, d2, psg) && ctx_valid(e1) && ctx_len_[e1] == lx + 1 && lx == ly + 1;
  //@ assert e1_lvl: lvl_ty(e1, lx) == psg && lvl_ty(d2, ly) == pb && lvl_ty(d1, lp) == typ;
  //@ assert e1_env: env_ok(CHAD_PREV, g, e1);
  //@ assert e1_c: ctx_is_ext(d1, d, typ) && ctx_is_ext(d2, d1, pb) && ctx_valid(d);
  //@ assert e1_ord: 0 <= d < d1 < d2 < e1 < ctx_count;
  //@ assert e1_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert e1_memo: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == cte && trc(CHAD_COT, g) == cgv;
  //@ assert e1_sg: trh(CHAD_PREV, sg) && trm(CHAD_PREV, sg) == psg && trh(CHAD_COT, sg) && trm(CHAD_COT, sg) == csg;
  //@ ghost Body: ;
  int res = rev_map_body(a, p, d1, d2, e1, lp, ly, lx, ct, depth)
    /*@ ghost (g, ga, sg, tau, psg, csg, pt, cte, pa, cgv, d, typ, pb, cb) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= REV_K * chad_msz_[a] + 40;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert res >= 0 || res == CHAD_E_CAPACITY || res == CHAD_E_DEPTH;
  //@ ghost int tyr = res >= 0 ? tm_ty_[res] : 0;
  //@ assert res >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pa && ty_same(ty_right_[tyr], TY_LFUN, ct, cgv);
  //@ assert r_memo1: trh(CHAD_PREV, tarr) && trm(CHAD_PREV, tarr) == pa;
  //@ assert r_memo2: trh(CHAD_COT, tarr) && trm(CHAD_COT, tarr) == ct;
  //@ assert r_memo3: trch(CHAD_COT, g) && trc(CHAD_COT, g) == cgv;
  //@ assert res >= 0 ==> rev_ty(tm_ty_[res], \at(tm_ty_[t], Pre), \at(tm_ctx_[t], Pre));
  return res;
}

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
