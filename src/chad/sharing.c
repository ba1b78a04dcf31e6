/* Let-bound sharing (rules card §6): what both CHAD macros build the same
 * way. F(pair a b) and R(pair a b) both end in
 *   let p = (a's translation) in let q = (b's translation) in
 *   ((fst p, fst q), lin)
 * (let_pair_tail), and build their linear halves under one more binder
 * (k_ext). Proved once, in prove-rev.sh's runs, against the kernel's
 * invariant only: the pass invariants carry over by their frame
 * (tables_grow, side_same, env_keep: reverse_spec.h). F(index) and
 * R(index) share let_index_tail (the primal an index instead of a pair),
 * F(let)/R(let) let_let_tail, F(app)/R(app) app_primal and let_app_tail,
 * and the one-child rules let_unary_tail, which is also the innermost
 * `let x in (a, lin)` of every other tail. */
#include "chad/kernel.h"
#include "chad_internal.h"
#include "chad_spec.h"
#include "reverse_spec.h"

/* A primitive's signature under the type translations (rules card §3):
 * op_inv gives ty_tan_[op_dom o] == op_tdom o and ty_tan_[op_cod o] ==
 * op_tcod o; on a type t with tangent s (ty_tan_, first-order), P t = t
 * and T t = C t = s. By induction over t (a recursive ghost lemma
 * function, children first); each step is one entry of memo_ty_inv and
 * hash-consing (ty_eq_lemma). */
/*@ ghost
  /@ requires ty_inv && ty_valid(a) && ty_valid(b) &&
       ty_same(a, ty_kind_[b], ty_left_[b], ty_right_[b]);
     terminates \true;
     assigns \nothing;
     ensures a == b; @/
  void ty_eq_lemma(int a, int b) { }
*/
/*@ ghost
  /@ requires memo_ty_inv && mode_ok(m) && 0 <= t < CHAD_MAX_TYPES && chad_memo_ty_[m][t] != 0;
     terminates \true;
     assigns \nothing;
     ensures tr_ok(m, t, chad_memo_ty_[m][t] - 1); @/
  void fo_memo_step(int m, int t) { }
*/
/*@ ghost
  /@ requires kernel_inv && memo_ty_inv && mode_ok(m);
     requires 0 <= t < ty_count && 0 <= s && ty_tan_[t] == s && trh(m, t);
     terminates \true;
     decreases t;
     assigns \nothing;
     ensures fo_lin: mlin(m) ==> trm(m, t) == s;
     ensures fo_prim: !mlin(m) ==> trm(m, t) == t;
     ensures fo_slin: lin(s); @/
  void fo_tr_lemma(int m, int t, int s)
  {
    fo_memo_step(m, t);
    int s0 = chad_memo_ty_[m][t] - 1;
    /@ assert step: tr_ok(m, t, s0); @/
    /@ assert ty_node_ok(t) && ty_tan_ok(t) && 0 <= s < ty_count; @/
    /@ assert ty_node_ok(s) && ty_node_ok(s0); @/
    int k = ty_kind_[t];
    int lin_mode = m == CHAD_TAN || m == CHAD_COT;
    if (k == TY_PROD || k == TY_SUM) {
      /@ assert two: 0 <= ty_left_[t] < t && 0 <= ty_right_[t] < t && ty_kind_[s] == TY_PROD &&
           ty_tan_[ty_left_[t]] == ty_left_[s] && ty_tan_[ty_right_[t]] == ty_right_[s] &&
           0 <= ty_left_[s] && 0 <= ty_right_[s]; @/
      fo_tr_lemma(m, ty_left_[t], ty_left_[s]);
      fo_tr_lemma(m, ty_right_[t], ty_right_[s]);
      if (lin_mode) {
        /@ assert ty_same(s0, TY_PROD, ty_left_[s], ty_right_[s]); @/
        ty_eq_lemma(s0, s);
      } else {
        /@ assert ty_same(s0, k, ty_left_[t], ty_right_[t]); @/
        ty_eq_lemma(s0, t);
      }
    } else if (k == TY_ARR) {
      /@ assert arr: 0 <= ty_left_[t] < t && ty_kind_[s] == TY_ARR && ty_right_[s] == -1 &&
           ty_right_[t] == -1 && ty_tan_[ty_left_[t]] == ty_left_[s] && 0 <= ty_left_[s]; @/
      fo_tr_lemma(m, ty_left_[t], ty_left_[s]);
      if (lin_mode) {
        /@ assert ty_same(s0, TY_ARR, ty_left_[s], -1); @/
        ty_eq_lemma(s0, s);
      } else {
        /@ assert ty_same(s0, TY_ARR, ty_left_[t], -1); @/
        ty_eq_lemma(s0, t);
      }
    } else {
      /@ assert base: (k == TY_REAL || k == TY_INT || k == TY_UNIT) &&
           ty_left_[t] == -1 && ty_right_[t] == -1; @/
      /@ assert ty_node_ok(TY_ID_REAL) && ty_node_ok(TY_ID_INT) && ty_node_ok(TY_ID_UNIT); @/
      /@ assert s == TY_ID_REAL || s == TY_ID_UNIT; @/
      if (!lin_mode) {
        /@ assert ty_same(s0, k, -1, -1); @/
        ty_eq_lemma(s0, t);
      }
    }
  }
*/

/* b_ext for code that only needs the kernel invariant (the linear halves of
 * F(pair) and R(pair)), with the environment frame */
/*@ requires kernel_inv;
    requires ctx_valid(d) && ty_valid(ty);
    terminates \true;
    assigns CH_CTX_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures \old(ctx_count) <= ctx_count;
    ensures env_keep{Pre, Post};
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures \result >= 0 ==> ctx_is_ext(\result, d, ty) && ctx_len_[\result] == ctx_len_[d] + 1 &&
      ctx_valid(\result) && lvl_ty(\result, ctx_len_[d]) == ty &&
      \forall integer l; 0 <= l < ctx_len_[d] ==> lvl_ty(\result, l) == lvl_ty(d, l);
    ensures \forall integer l; 0 <= l < ctx_len_[d] ==> lvl_ty(d, l) == \old(lvl_ty(d, l));
*/
int k_ext(int d, int ty)
{
  int r = b_ext(d, ty);
  //@ assert tables_grow{Pre, Here};
  //@ assert tm_inv;
  //@ assert \forall integer m, g, e; \at(env_ok(m, g, e), Pre) ==> env_ok(m, g, e);
  return r;
}

/* let p in (prim, lam), in d, where d1 = d, p and prim, lam are in d1
 * (lam a linear map of type ct -o cg: F: T G -o T tau; R: C tau -o C G).
 * The tail of the one-child rules of F and R (fst, snd, sum, length, inl,
 * inr), and the innermost step of the other tails below. */
/*@ requires kernel_inv;
    requires 0 <= p < tm_count && tm_ctx_[p] == d && ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
    requires 0 <= prim < tm_count && tm_ctx_[prim] == d1 && tm_ty_[prim] == pt;
    requires 0 <= lam < tm_count && tm_ctx_[lam] == d1 && ty_valid(tm_ty_[lam]) &&
      ty_same(tm_ty_[lam], TY_LFUN, ct, cg);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS;
    ensures kernel_inv;
    ensures \old(tm_count) <= tm_count <= \old(tm_count) + 2 && \old(ty_count) <= ty_count;
    ensures tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg);
    // lam's own type id: the callers need not re-derive it by hash-consing
    ensures lin_id: \result >= 0 ==> ty_right_[tm_ty_[\result]] == \old(tm_ty_[lam]);
*/
int let_unary_tail(int p, int prim, int lam)
  /*@ ghost (int d, int d1, int pt, int ct, int cg) */
{
  //@ ghost int tyl = tm_ty_[lam];
  //@ assert ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg);
  int res = b_pair(prim, lam);
  //@ assert res >= 0 ==> 0 <= res < tm_count && tm_ctx_[res] == d1 && ty_same(tm_ty_[res], TY_PROD, pt, tyl);
  //@ assert res >= 0 ==> ty_valid(tm_ty_[res]);
  //@ assert res >= 0 || res == CHAD_E_CAPACITY;
  //@ assert ctx_is_ext(d1, d, tm_ty_[p]) && tm_ctx_[p] == d && 0 <= p < tm_count;
  int r = b_let(p, res);
  //@ assert r >= 0 ==> tm_ctx_[r] == d && tm_ty_[r] == tm_ty_[res] && ty_same(tm_ty_[r], TY_PROD, pt, tyl) && ty_valid(tm_ty_[r]);
  //@ assert ty_same(tyl, TY_LFUN, ct, cg);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The let-and-pair tail of F(pair a b) and R(pair a b):
 *   let p in let q in ((fst p, fst q), lin)
 * in d, where d1 = d, p (level lp) and d2 = d1, q (level lq), lin in d2 a
 * linear map of type ct -o cg (F: T G -o T(a*b); R: C(a*b) -o C G).
 * Its own function so that its builder steps are proved in a small
 * context (in rev_pair, after two recursive calls, they timed out). */
/*@ requires kernel_inv;
    requires 0 <= p < tm_count && tm_ctx_[p] == d && 0 <= q < tm_count && tm_ctx_[q] == d1;
    requires ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]) && ctx_is_ext(d2, d1, tm_ty_[q]);
    requires ctx_valid(d2) && 0 <= lp < lq < ctx_len_[d2];
    requires lvl_ty(d2, lp) == tm_ty_[p] && lvl_ty(d2, lq) == tm_ty_[q];
    requires ty_valid(tm_ty_[p]) && ty_kind_[tm_ty_[p]] == TY_PROD && ty_left_[tm_ty_[p]] == pa;
    requires ty_valid(tm_ty_[q]) && ty_kind_[tm_ty_[q]] == TY_PROD && ty_left_[tm_ty_[q]] == pb;
    requires ty_valid(pt) && ty_same(pt, TY_PROD, pa, pb);
    requires 0 <= lin < tm_count && tm_ctx_[lin] == d2 && ty_valid(tm_ty_[lin]) &&
      ty_same(tm_ty_[lin], TY_LFUN, ct, cg);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS;
    ensures kernel_inv;
    ensures \old(tm_count) <= tm_count <= \old(tm_count) + 8 && \old(ty_count) <= ty_count;
    ensures tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg);
*/
int let_pair_tail(int p, int q, int d2, int lp, int lq, int lin)
  /*@ ghost (int d, int d1, int pt, int pa, int pb, int ct, int cg) */
{
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg);
  int vp = b_var(d2, lp);
  int fp = b_fst(vp);
  //@ assert fp >= 0 ==> 0 <= fp < tm_count && tm_ctx_[fp] == d2 && tm_ty_[fp] == pa;
  //@ assert fp >= 0 || fp == CHAD_E_CAPACITY;
  int vq = b_var(d2, lq);
  int fq = b_fst(vq);
  //@ assert fq >= 0 ==> 0 <= fq < tm_count && tm_ctx_[fq] == d2 && tm_ty_[fq] == pb;
  //@ assert fq >= 0 || fq == CHAD_E_CAPACITY;
  //@ assert fp >= 0 ==> 0 <= fp < tm_count && tm_ctx_[fp] == d2 && tm_ty_[fp] == pa;
  int pr = b_pair(fp, fq);
  //@ assert pr >= 0 ==> 0 <= pr < tm_count && tm_ctx_[pr] == d2 && ty_same(tm_ty_[pr], TY_PROD, pa, pb);
  //@ assert pr >= 0 ==> ty_valid(tm_ty_[pr]);
  //@ assert ty_valid(pt) && ty_same(pt, TY_PROD, pa, pb);
  //@ assert ty_inv;
  //@ assert pr >= 0 ==> tm_ty_[pr] == pt;
  //@ assert pr >= 0 || pr == CHAD_E_CAPACITY;
  if (pr < 0) return pr;
  //@ assert 0 <= lin < tm_count && tm_ctx_[lin] == d2 && tm_ty_[lin] == tyl && ty_valid(tyl);
  //@ assert ctx_is_ext(d2, d1, tm_ty_[q]) && tm_ctx_[q] == d1 && 0 <= q < tm_count && ctx_valid(d1);
  int l2 = let_unary_tail(q, pr, lin) /*@ ghost (d1, d2, pt, ct, cg) */;
  //@ assert l2 >= 0 ==> 0 <= l2 < tm_count && tm_ctx_[l2] == d1 && ty_same(tm_ty_[l2], TY_PROD, pt, tyl) && ty_valid(tm_ty_[l2]);
  //@ assert l2 >= 0 || l2 == CHAD_E_CAPACITY;
  //@ assert ctx_is_ext(d1, d, tm_ty_[p]) && tm_ctx_[p] == d && 0 <= p < tm_count;
  int r = b_let(p, l2);
  //@ assert r >= 0 ==> tm_ctx_[r] == d && tm_ty_[r] == tm_ty_[l2] && ty_same(tm_ty_[r], TY_PROD, pt, tyl) && ty_valid(tm_ty_[r]);
  //@ assert ty_same(tyl, TY_LFUN, ct, cg);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The let tail of F(let a (x. b)) and R(let a (x. b)):
 *   let p in let x = fst p in let q in (fst q, lin)
 * in d, where d1 = d, p (level lp; p's type pa * _), d2 = d1, x (x : pa)
 * and d3 = d2, q (level lq; q's type pt * _), lin in d3 a linear map of
 * type ct -o cg (F: T G -o T tau; R: C tau -o C G). The two variables it
 * reads are the last levels of d1 and d3 (the context entries, not the
 * recursive lookups, are what survive the calls before it). */
/*@ requires kernel_inv;
    requires 0 <= p < tm_count && tm_ctx_[p] == d && 0 <= q < tm_count && tm_ctx_[q] == d2;
    requires ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]) && ctx_len_[d1] == ctx_len_[d] + 1 &&
      lp == ctx_len_[d];
    requires ty_valid(tm_ty_[p]) && ty_kind_[tm_ty_[p]] == TY_PROD && ty_left_[tm_ty_[p]] == pa;
    requires ctx_is_ext(d2, d1, pa) && ctx_len_[d2] == ctx_len_[d1] + 1;
    requires ctx_is_ext(d3, d2, tm_ty_[q]) && ctx_len_[d3] == ctx_len_[d2] + 1 && lq == ctx_len_[d2];
    requires ty_valid(tm_ty_[q]) && ty_kind_[tm_ty_[q]] == TY_PROD && ty_left_[tm_ty_[q]] == pt;
    requires 0 <= lin < tm_count && tm_ctx_[lin] == d3 && ty_valid(tm_ty_[lin]) &&
      ty_same(tm_ty_[lin], TY_LFUN, ct, cg);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS;
    ensures kernel_inv;
    ensures \old(tm_count) <= tm_count <= \old(tm_count) + 8 && \old(ty_count) <= ty_count;
    ensures tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg);
*/
int let_let_tail(int p, int q, int d1, int d3, int lp, int lq, int lin)
  /*@ ghost (int d, int d2, int pa, int pt, int ct, int cg) */
{
  //@ ghost int tyl = tm_ty_[lin];
  //@ ghost int typ = tm_ty_[p];
  //@ ghost int tyq = tm_ty_[q];
  //@ assert ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg);
  //@ assert ctx_inv && ctx_valid(d1) && ctx_valid(d2) && ctx_valid(d3);
  //@ assert lvl_q: lvl_ty(d3, lq) == tyq;
  //@ assert lvl_p: lvl_ty(d1, lp) == typ;
  int vq = b_var(d3, lq);
  //@ assert vq >= 0 ==> 0 <= vq < tm_count && tm_ctx_[vq] == d3 && tm_ty_[vq] == tyq;
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int fq = b_fst(vq);
  //@ assert fq >= 0 ==> 0 <= fq < tm_count && tm_ctx_[fq] == d3 && tm_ty_[fq] == pt;
  //@ assert fq >= 0 || fq == CHAD_E_CAPACITY;
  if (fq < 0) return fq;
  //@ assert 0 <= lin < tm_count && tm_ctx_[lin] == d3 && tm_ty_[lin] == tyl;
  //@ assert ctx_is_ext(d3, d2, tm_ty_[q]) && tm_ctx_[q] == d2 && 0 <= q < tm_count && ctx_valid(d2);
  //@ ghost Inner: ;
  int l3 = let_unary_tail(q, fq, lin) /*@ ghost (d2, d3, pt, ct, cg) */;
  //@ assert inner_grow: tables_grow{Inner, Here};
  //@ assert inner_p: 0 <= p < tm_count && tm_ty_[p] == \at(tm_ty_[p], Inner) && tm_ctx_[p] == \at(tm_ctx_[p], Inner);
  //@ assert l3 >= 0 ==> 0 <= l3 < tm_count && tm_ctx_[l3] == d2 && ty_same(tm_ty_[l3], TY_PROD, pt, tyl) && ty_valid(tm_ty_[l3]);
  //@ assert l3 >= 0 || l3 == CHAD_E_CAPACITY;
  //@ assert tm_ty_[p] == typ && lvl_ty(d1, lp) == typ && 0 <= lp < ctx_len_[d1];
  int vp = b_var(d1, lp);
  //@ assert vp >= 0 ==> 0 <= vp < tm_count && tm_ctx_[vp] == d1 && tm_ty_[vp] == typ;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int x = b_fst(vp);
  //@ assert x >= 0 ==> 0 <= x < tm_count && tm_ctx_[x] == d1 && tm_ty_[x] == pa;
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  //@ assert l3 >= 0 ==> 0 <= l3 < tm_count && tm_ctx_[l3] == d2;
  //@ assert ctx_is_ext(d2, d1, pa);
  int l2 = b_let(x, l3);
  //@ assert l2 >= 0 ==> 0 <= l2 < tm_count && tm_ctx_[l2] == d1 && ty_same(tm_ty_[l2], TY_PROD, pt, tyl);
  //@ assert l2 >= 0 ==> ty_valid(tm_ty_[l2]);
  //@ assert l2 >= 0 || l2 == CHAD_E_CAPACITY;
  //@ assert ctx_is_ext(d1, d, tm_ty_[p]) && tm_ctx_[p] == d && 0 <= p < tm_count;
  int r = b_let(p, l2);
  //@ assert r >= 0 ==> tm_ctx_[r] == d && ty_same(tm_ty_[r], TY_PROD, pt, tyl) && ty_valid(tm_ty_[r]);
  //@ assert ty_same(tyl, TY_LFUN, ct, cg);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The let-and-index tail of F(index a b) and R(index a b):
 *   let p in let q in (fst p [fst q], lin)
 * in d, where d1 = d, p (level lp; p's type pa * _ with pa = Arr pt) and
 * d2 = d1, q (level lq; q's type Int * _), lin in d2 a linear map of type
 * ct -o cg (F: T G -o T tau; R: C tau -o C G). As let_pair_tail, with
 * the primal an index instead of a pair. */
/*@ requires kernel_inv;
    requires 0 <= p < tm_count && tm_ctx_[p] == d && 0 <= q < tm_count && tm_ctx_[q] == d1;
    requires ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]) && ctx_is_ext(d2, d1, tm_ty_[q]);
    requires ctx_valid(d2) && 0 <= lp < lq < ctx_len_[d2];
    requires lvl_ty(d2, lp) == tm_ty_[p] && lvl_ty(d2, lq) == tm_ty_[q];
    requires ty_valid(tm_ty_[p]) && ty_kind_[tm_ty_[p]] == TY_PROD && ty_left_[tm_ty_[p]] == pa;
    requires ty_valid(tm_ty_[q]) && ty_kind_[tm_ty_[q]] == TY_PROD && ty_left_[tm_ty_[q]] == TY_ID_INT;
    requires ty_valid(pa) && ty_kind_[pa] == TY_ARR && ty_left_[pa] == pt;
    requires 0 <= lin < tm_count && tm_ctx_[lin] == d2 && ty_valid(tm_ty_[lin]) &&
      ty_same(tm_ty_[lin], TY_LFUN, ct, cg);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS;
    ensures kernel_inv;
    ensures \old(tm_count) <= tm_count <= \old(tm_count) + 8 && \old(ty_count) <= ty_count;
    ensures tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg);
*/
int let_index_tail(int p, int q, int d2, int lp, int lq, int lin)
  /*@ ghost (int d, int d1, int pt, int pa, int ct, int cg) */
{
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg);
  //@ assert ty_inv && ty_node_ok(pa) && 0 <= pt < pa && ty_valid(pt);
  int vp = b_var(d2, lp);
  int fp = b_fst(vp);
  //@ assert fp >= 0 ==> 0 <= fp < tm_count && tm_ctx_[fp] == d2 && tm_ty_[fp] == pa;
  //@ assert fp >= 0 || fp == CHAD_E_CAPACITY;
  int vq = b_var(d2, lq);
  int fq = b_fst(vq);
  //@ assert fq >= 0 ==> 0 <= fq < tm_count && tm_ctx_[fq] == d2 && tm_ty_[fq] == TY_ID_INT;
  //@ assert fq >= 0 || fq == CHAD_E_CAPACITY;
  //@ assert fp >= 0 ==> 0 <= fp < tm_count && tm_ctx_[fp] == d2 && tm_ty_[fp] == pa;
  //@ assert fp >= 0 && fq >= 0 ==> index_ok(tm_ctx_[fp], tm_ty_[fp], tm_ctx_[fq], tm_ty_[fq]);
  int ix = b_index(fp, fq);
  //@ assert ix >= 0 ==> 0 <= ix < tm_count && tm_ctx_[ix] == d2 && tm_ty_[ix] == pt;
  //@ assert ix >= 0 || ix == CHAD_E_CAPACITY;
  if (ix < 0) return ix;
  //@ assert 0 <= lin < tm_count && tm_ctx_[lin] == d2 && tm_ty_[lin] == tyl && ty_valid(tyl);
  //@ assert ctx_is_ext(d2, d1, tm_ty_[q]) && tm_ctx_[q] == d1 && 0 <= q < tm_count && ctx_valid(d1);
  int l2 = let_unary_tail(q, ix, lin) /*@ ghost (d1, d2, pt, ct, cg) */;
  //@ assert l2 >= 0 ==> 0 <= l2 < tm_count && tm_ctx_[l2] == d1 && ty_same(tm_ty_[l2], TY_PROD, pt, tyl) && ty_valid(tm_ty_[l2]);
  //@ assert l2 >= 0 || l2 == CHAD_E_CAPACITY;
  //@ assert ctx_is_ext(d1, d, tm_ty_[p]) && tm_ctx_[p] == d && 0 <= p < tm_count;
  int r = b_let(p, l2);
  //@ assert r >= 0 ==> tm_ctx_[r] == d && tm_ty_[r] == tm_ty_[l2] && ty_same(tm_ty_[r], TY_PROD, pt, tyl) && ty_valid(tm_ty_[r]);
  //@ assert ty_same(tyl, TY_LFUN, ct, cg);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The primal of F(app a b) and R(app a b): (fst p) (fst q) in d2, where p
 * is at level lp (p's type pf * _, pf = ps -> pr) and q at level lq (q's
 * type ps * _). pr is P tau * (T sigma -o T tau) in F and
 * P tau * (C tau -o C sigma) in R: the caller binds it as r and reads both
 * halves. */
/*@ requires kernel_inv;
    requires ctx_valid(d2) && 0 <= lp < ctx_len_[d2] && 0 <= lq < ctx_len_[d2];
    requires lvl_ty(d2, lp) == typ && ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pf;
    requires lvl_ty(d2, lq) == tyq && ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == ps;
    requires ty_valid(pf) && ty_kind_[pf] == TY_FUN && ty_left_[pf] == ps;
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS;
    ensures kernel_inv;
    ensures \old(tm_count) <= tm_count <= \old(tm_count) + 5 && \old(ty_count) <= ty_count;
    ensures tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d2 &&
      tm_ty_[\result] == \old(ty_right_[pf]);
*/
int app_primal(int d2, int lp, int lq)
  /*@ ghost (int pf, int ps, int typ, int tyq) */
{
  //@ ghost int pr = ty_right_[pf];
  int vp = b_var(d2, lp);
  //@ assert vp >= 0 ==> 0 <= vp < tm_count && tm_ctx_[vp] == d2 && tm_ty_[vp] == typ;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int fp = b_fst(vp);
  //@ assert fp >= 0 ==> 0 <= fp < tm_count && tm_ctx_[fp] == d2 && tm_ty_[fp] == pf;
  //@ assert fp >= 0 || fp == CHAD_E_CAPACITY;
  int vq = b_var(d2, lq);
  //@ assert vq >= 0 ==> 0 <= vq < tm_count && tm_ctx_[vq] == d2 && tm_ty_[vq] == tyq;
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int fq = b_fst(vq);
  //@ assert fq >= 0 ==> 0 <= fq < tm_count && tm_ctx_[fq] == d2 && tm_ty_[fq] == ps;
  //@ assert fq >= 0 || fq == CHAD_E_CAPACITY;
  //@ assert fp >= 0 ==> 0 <= fp < tm_count && tm_ctx_[fp] == d2 && tm_ty_[fp] == pf;
  //@ assert ty_valid(pf) && ty_kind_[pf] == TY_FUN && ty_left_[pf] == ps && ty_right_[pf] == pr;
  int r = b_app(fp, fq);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d2 && tm_ty_[r] == pr;
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The let tail of F(app a b) and R(app a b):
 *   let p in let q in let r in (fst r, lin)
 * in d, where d1 = d, p; d2 = d1, q; d3 = d2, r (level lr; r's type
 * pt * _, r = app_primal's term); lin in d3 a linear map of type ct -o cg
 * (F: T G -o T tau; R: C tau -o C G). */
/*@ requires kernel_inv;
    requires 0 <= p < tm_count && tm_ctx_[p] == d && 0 <= q < tm_count && tm_ctx_[q] == d1;
    requires 0 <= r < tm_count && tm_ctx_[r] == d2;
    requires ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]) && ctx_is_ext(d2, d1, tm_ty_[q]) &&
      ctx_is_ext(d3, d2, tm_ty_[r]);
    requires ctx_valid(d3) && 0 <= lr < ctx_len_[d3] && lvl_ty(d3, lr) == tm_ty_[r];
    requires ty_valid(tm_ty_[r]) && ty_kind_[tm_ty_[r]] == TY_PROD && ty_left_[tm_ty_[r]] == pt;
    requires 0 <= lin < tm_count && tm_ctx_[lin] == d3 && ty_valid(tm_ty_[lin]) &&
      ty_same(tm_ty_[lin], TY_LFUN, ct, cg);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS;
    ensures kernel_inv;
    ensures \old(tm_count) <= tm_count <= \old(tm_count) + 6 && \old(ty_count) <= ty_count;
    ensures tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg);
*/
int let_app_tail(int p, int q, int r, int d3, int lr, int lin)
  /*@ ghost (int d, int d1, int d2, int pt, int ct, int cg) */
{
  //@ ghost int tyl = tm_ty_[lin];
  //@ ghost int tyr = tm_ty_[r];
  //@ assert ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg);
  int vr = b_var(d3, lr);
  //@ assert vr >= 0 ==> 0 <= vr < tm_count && tm_ctx_[vr] == d3 && tm_ty_[vr] == tyr;
  //@ assert vr >= 0 || vr == CHAD_E_CAPACITY;
  int fr = b_fst(vr);
  //@ assert fr >= 0 ==> 0 <= fr < tm_count && tm_ctx_[fr] == d3 && tm_ty_[fr] == pt;
  //@ assert fr >= 0 || fr == CHAD_E_CAPACITY;
  if (fr < 0) return fr;
  //@ assert 0 <= lin < tm_count && tm_ctx_[lin] == d3 && tm_ty_[lin] == tyl && ty_valid(tyl);
  //@ assert ctx_is_ext(d3, d2, tm_ty_[r]) && tm_ctx_[r] == d2 && 0 <= r < tm_count && ctx_valid(d2);
  int l3 = let_unary_tail(r, fr, lin) /*@ ghost (d2, d3, pt, ct, cg) */;
  //@ assert l3 >= 0 ==> 0 <= l3 < tm_count && tm_ctx_[l3] == d2 && ty_same(tm_ty_[l3], TY_PROD, pt, tyl) && ty_valid(tm_ty_[l3]);
  //@ assert l3 >= 0 || l3 == CHAD_E_CAPACITY;
  //@ assert ctx_is_ext(d2, d1, tm_ty_[q]) && tm_ctx_[q] == d1 && 0 <= q < tm_count;
  int l2 = b_let(q, l3);
  //@ assert l2 >= 0 ==> 0 <= l2 < tm_count && tm_ctx_[l2] == d1 && tm_ty_[l2] == tm_ty_[l3] && ty_same(tm_ty_[l2], TY_PROD, pt, tyl);
  //@ assert l2 >= 0 ==> ty_valid(tm_ty_[l2]);
  //@ assert l2 >= 0 || l2 == CHAD_E_CAPACITY;
  //@ assert ctx_is_ext(d1, d, tm_ty_[p]) && tm_ctx_[p] == d && 0 <= p < tm_count;
  int l1 = b_let(p, l2);
  //@ assert l1 >= 0 ==> tm_ctx_[l1] == d && tm_ty_[l1] == tm_ty_[l2] && ty_same(tm_ty_[l1], TY_PROD, pt, tyl) && ty_valid(tm_ty_[l1]);
  //@ assert ty_same(tyl, TY_LFUN, ct, cg);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return l1;
}

/* The tail of F(case a b c) and R(case a b c):
 *   let p in case fst p of inl -> br0 | inr -> br1
 * in d, where d1 = d, p (level lp); p's primal ps = P(A + B) is a sum and
 * the branches br0, br1 (one type) are in d1 extended with its sides. */
/*@ requires kernel_inv;
    requires 0 <= p < tm_count && tm_ctx_[p] == d && ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
    requires ctx_valid(d1) && 0 <= lp < ctx_len_[d1] && lvl_ty(d1, lp) == tm_ty_[p];
    requires ty_valid(tm_ty_[p]) && ty_kind_[tm_ty_[p]] == TY_PROD && ty_left_[tm_ty_[p]] == ps;
    requires ty_valid(ps) && ty_kind_[ps] == TY_SUM;
    requires 0 <= br0 < tm_count && ctx_is_ext(tm_ctx_[br0], d1, ty_left_[ps]);
    requires 0 <= br1 < tm_count && ctx_is_ext(tm_ctx_[br1], d1, ty_right_[ps]);
    requires tm_ty_[br1] == tm_ty_[br0];
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS;
    ensures kernel_inv;
    ensures \old(tm_count) <= tm_count <= \old(tm_count) + 4 && \old(ty_count) <= ty_count;
    ensures tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      tm_ty_[\result] == \old(tm_ty_[br0]);
*/
int case_tail(int p, int d1, int lp, int br0, int br1)
  /*@ ghost (int d, int ps) */
{
  //@ ghost int tyb = tm_ty_[br0];
  //@ ghost int typ = tm_ty_[p];
  int vp = b_var(d1, lp);
  //@ assert vp >= 0 ==> 0 <= vp < tm_count && tm_ctx_[vp] == d1 && tm_ty_[vp] == typ;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int fp = b_fst(vp);
  //@ assert fp >= 0 ==> 0 <= fp < tm_count && tm_ctx_[fp] == d1 && tm_ty_[fp] == ps;
  //@ assert fp >= 0 || fp == CHAD_E_CAPACITY;
  //@ assert ctx_is_ext(tm_ctx_[br0], d1, ty_left_[ps]) && ctx_is_ext(tm_ctx_[br1], d1, ty_right_[ps]);
  //@ assert tm_ty_[br0] == tyb && tm_ty_[br1] == tyb && 0 <= br0 < tm_count && 0 <= br1 < tm_count;
  int cs = b_case(fp, br0, br1);
  //@ assert cs >= 0 ==> 0 <= cs < tm_count && tm_ctx_[cs] == d1 && tm_ty_[cs] == tyb;
  //@ assert cs >= 0 || cs == CHAD_E_CAPACITY;
  //@ assert ctx_is_ext(d1, d, tm_ty_[p]) && tm_ctx_[p] == d && 0 <= p < tm_count;
  int r = b_let(p, cs);
  //@ assert r >= 0 ==> tm_ctx_[r] == d && tm_ty_[r] == tyb;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The tail of F(iter a (x. b) c) and R(iter a (x. b) c):
 *   let pn in let ps in iter (fst pn) (s. let x = fst s in let q in (fst q, lin)) ps
 * in d, where d1 = d, pn (level ln); d2 = d1, ps (level ls); e1 = d2, s
 * (level lc, s : S = ps's type, the state P tau * (linear map)); e2 = e1,
 * x (x : pt = P tau); e3 = e2, q (level lq, q's type pt * _); lin in e3 a
 * linear map of type ct -o cg (F: T G -o T tau; R: C tau -o C G), so that
 * the iteration body (fst q, lin) has the state's type S again. */
/*@ requires kernel_inv;
    requires 0 <= pn < tm_count && tm_ctx_[pn] == d && ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[pn]);
    requires 0 <= ps < tm_count && tm_ctx_[ps] == d1 && ctx_is_ext(d2, d1, tm_ty_[ps]);
    requires ctx_valid(d2) && 0 <= ln < ctx_len_[d2] && lvl_ty(d2, ln) == tm_ty_[pn];
    requires 0 <= ls < ctx_len_[d2] && lvl_ty(d2, ls) == tm_ty_[ps];
    requires ty_valid(tm_ty_[pn]) && ty_kind_[tm_ty_[pn]] == TY_PROD && ty_left_[tm_ty_[pn]] == TY_ID_INT;
    requires ty_valid(tm_ty_[ps]) && ty_kind_[tm_ty_[ps]] == TY_PROD && ty_left_[tm_ty_[ps]] == pt &&
      ty_same(ty_right_[tm_ty_[ps]], TY_LFUN, ct, cg);
    requires ctx_is_ext(e1, d2, tm_ty_[ps]) && ctx_valid(e1) && 0 <= lc < ctx_len_[e1] &&
      lvl_ty(e1, lc) == tm_ty_[ps];
    requires ctx_is_ext(e2, e1, pt);
    requires 0 <= q < tm_count && tm_ctx_[q] == e2 && ctx_is_ext(e3, e2, tm_ty_[q]);
    requires ctx_valid(e3) && 0 <= lq < ctx_len_[e3] && lvl_ty(e3, lq) == tm_ty_[q];
    requires ty_valid(tm_ty_[q]) && ty_kind_[tm_ty_[q]] == TY_PROD && ty_left_[tm_ty_[q]] == pt;
    requires 0 <= lin < tm_count && tm_ctx_[lin] == e3 && ty_valid(tm_ty_[lin]) &&
      ty_same(tm_ty_[lin], TY_LFUN, ct, cg);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS;
    ensures kernel_inv;
    ensures \old(tm_count) <= tm_count <= \old(tm_count) + 13 && \old(ty_count) <= ty_count;
    ensures tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      tm_ty_[\result] == \old(tm_ty_[ps]);
*/
int iter_tail(int pn, int ps, int q, int lin, int d2, int e1, int e3, int ln, int ls, int lc, int lq)
  /*@ ghost (int d, int d1, int e2, int pt, int ct, int cg) */
{
  //@ ghost int st = tm_ty_[ps];
  //@ ghost int tyn = tm_ty_[pn];
  //@ ghost int tyq = tm_ty_[q];
  //@ ghost int tyl = tm_ty_[lin];
  //@ ghost int sr = ty_right_[st];
  //@ assert s_node: ty_inv && ty_node_ok(st) && 0 <= sr < st && ty_same(sr, TY_LFUN, ct, cg);
  //@ assert s_same: ty_same(st, TY_PROD, pt, sr) && ty_valid(st);
  //@ assert l_same: ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg);
  int vq = b_var(e3, lq);
  //@ assert vq >= 0 ==> 0 <= vq < tm_count && tm_ctx_[vq] == e3 && tm_ty_[vq] == tyq;
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int fq = b_fst(vq);
  //@ assert fq >= 0 ==> 0 <= fq < tm_count && tm_ctx_[fq] == e3 && tm_ty_[fq] == pt;
  //@ assert fq >= 0 || fq == CHAD_E_CAPACITY;
  if (fq < 0) return fq;
  //@ assert 0 <= lin < tm_count && tm_ctx_[lin] == e3 && tm_ty_[lin] == tyl && ty_valid(tyl);
  //@ assert ctx_is_ext(e3, e2, tm_ty_[q]) && tm_ctx_[q] == e2 && 0 <= q < tm_count && ctx_valid(e2);
  //@ ghost Inner: ;
  int inner = let_unary_tail(q, fq, lin) /*@ ghost (e2, e3, pt, ct, cg) */;
  //@ assert inner >= 0 ==> 0 <= inner < tm_count && tm_ctx_[inner] == e2 && ty_valid(tm_ty_[inner]) && ty_kind_[tm_ty_[inner]] == TY_PROD && ty_left_[tm_ty_[inner]] == pt && ty_same(ty_right_[tm_ty_[inner]], TY_LFUN, ct, cg);
  //@ assert inner >= 0 || inner == CHAD_E_CAPACITY;
  /* hash-consing: the body's type is the state's type S */
  //@ assert i_sr: inner >= 0 ==> ty_right_[tm_ty_[inner]] == sr;
  //@ assert i_st: inner >= 0 ==> tm_ty_[inner] == st;
  //@ assert i_ctx: ctx_valid(e1) && ctx_is_ext(e2, e1, pt) && lvl_ty(e1, lc) == st && 0 <= lc < ctx_len_[e1];
  int vs = b_var(e1, lc);
  //@ assert vs >= 0 ==> 0 <= vs < tm_count && tm_ctx_[vs] == e1 && tm_ty_[vs] == st;
  //@ assert vs >= 0 || vs == CHAD_E_CAPACITY;
  int x = b_fst(vs);
  //@ assert x >= 0 ==> 0 <= x < tm_count && tm_ctx_[x] == e1 && tm_ty_[x] == pt;
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  //@ assert inner >= 0 ==> 0 <= inner < tm_count && tm_ctx_[inner] == e2 && tm_ty_[inner] == st;
  int body = b_let(x, inner);
  //@ assert body >= 0 ==> 0 <= body < tm_count && tm_ctx_[body] == e1 && tm_ty_[body] == st;
  //@ assert body >= 0 || body == CHAD_E_CAPACITY;
  //@ assert n_ctx: ctx_valid(d2) && lvl_ty(d2, ln) == tyn && 0 <= ln < ctx_len_[d2];
  int vn = b_var(d2, ln);
  //@ assert vn >= 0 ==> 0 <= vn < tm_count && tm_ctx_[vn] == d2 && tm_ty_[vn] == tyn;
  //@ assert vn >= 0 || vn == CHAD_E_CAPACITY;
  int n = b_fst(vn);
  //@ assert n >= 0 ==> 0 <= n < tm_count && tm_ctx_[n] == d2 && tm_ty_[n] == TY_ID_INT;
  //@ assert n >= 0 || n == CHAD_E_CAPACITY;
  //@ assert s_ctx: lvl_ty(d2, ls) == st && 0 <= ls < ctx_len_[d2];
  int init = b_var(d2, ls);
  //@ assert init >= 0 ==> 0 <= init < tm_count && tm_ctx_[init] == d2 && tm_ty_[init] == st;
  //@ assert init >= 0 || init == CHAD_E_CAPACITY;
  //@ assert body >= 0 ==> 0 <= body < tm_count && tm_ctx_[body] == e1 && tm_ty_[body] == st;
  //@ assert n >= 0 ==> 0 <= n < tm_count && tm_ctx_[n] == d2 && tm_ty_[n] == TY_ID_INT;
  //@ assert ctx_is_ext(e1, d2, st);
  int it = b_iter(n, body, init);
  //@ assert it >= 0 ==> 0 <= it < tm_count && tm_ctx_[it] == d2 && tm_ty_[it] == st;
  //@ assert it >= 0 || it == CHAD_E_CAPACITY;
  //@ assert ctx_is_ext(d2, d1, tm_ty_[ps]) && tm_ctx_[ps] == d1 && 0 <= ps < tm_count;
  int l2 = b_let(ps, it);
  //@ assert l2 >= 0 ==> 0 <= l2 < tm_count && tm_ctx_[l2] == d1 && tm_ty_[l2] == st;
  //@ assert l2 >= 0 || l2 == CHAD_E_CAPACITY;
  //@ assert ctx_is_ext(d1, d, tm_ty_[pn]) && tm_ctx_[pn] == d && 0 <= pn < tm_count;
  int l1 = b_let(pn, l2);
  //@ assert l1 >= 0 ==> tm_ctx_[l1] == d && tm_ty_[l1] == st;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return l1;
}

/* The tail of F(loop a (x. b) c) and R(loop a (x. b) c), as iter_tail:
 *   let pn in let ps in loop (fst pn) (s. let x = fst s in let q in cs) ps
 * in d, with the contexts of iter_tail (d1 = d, pn; d2 = d1, ps; e1 = d2,
 * s; e2 = e1, x; e3 = e2, q) and cs in e3 the round's answer, of type
 * S + S (S = ps's type, the state P tau * (linear map)): inl to go on,
 * inr to stop. */
/*@ requires kernel_inv;
    requires 0 <= pn < tm_count && tm_ctx_[pn] == d && ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[pn]);
    requires 0 <= ps < tm_count && tm_ctx_[ps] == d1 && ctx_is_ext(d2, d1, tm_ty_[ps]);
    requires ctx_valid(d2) && 0 <= ln < ctx_len_[d2] && lvl_ty(d2, ln) == tm_ty_[pn];
    requires 0 <= ls < ctx_len_[d2] && lvl_ty(d2, ls) == tm_ty_[ps];
    requires ty_valid(tm_ty_[pn]) && ty_kind_[tm_ty_[pn]] == TY_PROD && ty_left_[tm_ty_[pn]] == TY_ID_INT;
    requires ty_valid(tm_ty_[ps]) && ty_kind_[tm_ty_[ps]] == TY_PROD && ty_left_[tm_ty_[ps]] == pt;
    requires ctx_is_ext(e1, d2, tm_ty_[ps]) && ctx_valid(e1) && 0 <= lc < ctx_len_[e1] &&
      lvl_ty(e1, lc) == tm_ty_[ps];
    requires ctx_is_ext(e2, e1, pt);
    requires 0 <= q < tm_count && tm_ctx_[q] == e2 && ctx_is_ext(e3, e2, tm_ty_[q]);
    requires 0 <= cs < tm_count && tm_ctx_[cs] == e3 && ty_valid(tm_ty_[cs]) &&
      ty_same(tm_ty_[cs], TY_SUM, tm_ty_[ps], tm_ty_[ps]);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS;
    ensures kernel_inv;
    ensures \old(tm_count) <= tm_count <= \old(tm_count) + 10 && \old(ty_count) <= ty_count;
    ensures tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      tm_ty_[\result] == \old(tm_ty_[ps]);
*/
int loop_tail(int pn, int ps, int q, int cs, int d2, int e1, int ln, int ls, int lc)
  /*@ ghost (int d, int d1, int e2, int e3, int pt) */
{
  //@ ghost int st = tm_ty_[ps];
  //@ ghost int tyn = tm_ty_[pn];
  //@ ghost int tys = tm_ty_[cs];
  //@ assert s_sum: ty_valid(tys) && ty_same(tys, TY_SUM, st, st);
  //@ assert q_ctx: ctx_is_ext(e3, e2, tm_ty_[q]) && tm_ctx_[q] == e2 && 0 <= q < tm_count && tm_ctx_[cs] == e3;
  int inner = b_let(q, cs);
  //@ assert inner >= 0 ==> 0 <= inner < tm_count && tm_ctx_[inner] == e2 && tm_ty_[inner] == tys;
  //@ assert inner >= 0 || inner == CHAD_E_CAPACITY;
  //@ assert i_ctx: ctx_valid(e1) && ctx_is_ext(e2, e1, pt) && lvl_ty(e1, lc) == st && 0 <= lc < ctx_len_[e1];
  int vs = b_var(e1, lc);
  //@ assert vs >= 0 ==> 0 <= vs < tm_count && tm_ctx_[vs] == e1 && tm_ty_[vs] == st;
  //@ assert vs >= 0 || vs == CHAD_E_CAPACITY;
  int x = b_fst(vs);
  //@ assert x >= 0 ==> 0 <= x < tm_count && tm_ctx_[x] == e1 && tm_ty_[x] == pt;
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  //@ assert inner >= 0 ==> 0 <= inner < tm_count && tm_ctx_[inner] == e2 && tm_ty_[inner] == tys;
  int body = b_let(x, inner);
  //@ assert body >= 0 ==> 0 <= body < tm_count && tm_ctx_[body] == e1 && tm_ty_[body] == tys;
  //@ assert body >= 0 || body == CHAD_E_CAPACITY;
  //@ assert n_ctx: ctx_valid(d2) && lvl_ty(d2, ln) == tyn && 0 <= ln < ctx_len_[d2];
  int vn = b_var(d2, ln);
  //@ assert vn >= 0 ==> 0 <= vn < tm_count && tm_ctx_[vn] == d2 && tm_ty_[vn] == tyn;
  //@ assert vn >= 0 || vn == CHAD_E_CAPACITY;
  int n = b_fst(vn);
  //@ assert n >= 0 ==> 0 <= n < tm_count && tm_ctx_[n] == d2 && tm_ty_[n] == TY_ID_INT;
  //@ assert n >= 0 || n == CHAD_E_CAPACITY;
  //@ assert s_ctx: lvl_ty(d2, ls) == st && 0 <= ls < ctx_len_[d2];
  int init = b_var(d2, ls);
  //@ assert init >= 0 ==> 0 <= init < tm_count && tm_ctx_[init] == d2 && tm_ty_[init] == st;
  //@ assert init >= 0 || init == CHAD_E_CAPACITY;
  //@ assert body >= 0 ==> 0 <= body < tm_count && tm_ctx_[body] == e1 && tm_ty_[body] == tys;
  //@ assert n >= 0 ==> 0 <= n < tm_count && tm_ctx_[n] == d2 && tm_ty_[n] == TY_ID_INT;
  //@ assert ctx_is_ext(e1, d2, st);
  //@ assert ty_kind_[tys] == TY_SUM && ty_left_[tys] == st && ty_right_[tys] == st;
  int lp = b_loop(n, body, init);
  //@ assert lp >= 0 ==> 0 <= lp < tm_count && tm_ctx_[lp] == d2 && tm_ty_[lp] == st;
  //@ assert lp >= 0 || lp == CHAD_E_CAPACITY;
  //@ assert ctx_is_ext(d2, d1, tm_ty_[ps]) && tm_ctx_[ps] == d1 && 0 <= ps < tm_count;
  int l2 = b_let(ps, lp);
  //@ assert l2 >= 0 ==> 0 <= l2 < tm_count && tm_ctx_[l2] == d1 && tm_ty_[l2] == st;
  //@ assert l2 >= 0 || l2 == CHAD_E_CAPACITY;
  //@ assert ctx_is_ext(d1, d, tm_ty_[pn]) && tm_ctx_[pn] == d && 0 <= pn < tm_count;
  int l1 = b_let(pn, l2);
  //@ assert l1 >= 0 ==> tm_ctx_[l1] == d && tm_ty_[l1] == st;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return l1;
}

/* build m (i. fst ps[i]), the primal of F(build) and R(build), in d3
 * where level lm holds m : Int and level lps holds ps : Arr Q, Q =
 * pt * _ (the body's translations, one per index). */
/*@ requires kernel_inv;
    requires ctx_valid(d3) && 0 <= lm < ctx_len_[d3] && lvl_ty(d3, lm) == TY_ID_INT;
    requires 0 <= lps < ctx_len_[d3] && lvl_ty(d3, lps) == aq;
    requires ty_valid(aq) && ty_same(aq, TY_ARR, q, -1);
    requires ty_valid(q) && ty_kind_[q] == TY_PROD && ty_left_[q] == pt;
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures \old(tm_count) <= tm_count <= \old(tm_count) + 6 && \old(ty_count) <= ty_count;
    ensures \old(ctx_count) <= ctx_count;
    ensures tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures env_keep{Pre, Post};
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d3 &&
      ty_valid(tm_ty_[\result]) && ty_same(tm_ty_[\result], TY_ARR, pt, -1);
*/
int build_primal(int d3, int lm, int lps)
  /*@ ghost (int aq, int q, int pt) */
{
  int li = b_lvl(d3), f1 = k_ext(d3, TY_ID_INT);
  if (f1 < 0) return f1;
  //@ assert f1_ctx: ctx_valid(f1) && ctx_is_ext(f1, d3, TY_ID_INT) && ctx_len_[f1] == li + 1 && li == ctx_len_[d3];
  //@ assert f1_lvl: lvl_ty(f1, li) == TY_ID_INT && lvl_ty(f1, lps) == aq;
  //@ assert d3_lvl: lvl_ty(d3, lm) == TY_ID_INT && ctx_valid(d3);
  int n = b_var(d3, lm);
  //@ assert n >= 0 ==> 0 <= n < tm_count && tm_ctx_[n] == d3 && tm_ty_[n] == TY_ID_INT;
  //@ assert n >= 0 || n == CHAD_E_CAPACITY;
  int a = b_var(f1, lps);
  //@ assert a >= 0 ==> 0 <= a < tm_count && tm_ctx_[a] == f1 && tm_ty_[a] == aq;
  //@ assert a >= 0 || a == CHAD_E_CAPACITY;
  int i = b_var(f1, li);
  //@ assert i >= 0 ==> 0 <= i < tm_count && tm_ctx_[i] == f1 && tm_ty_[i] == TY_ID_INT;
  //@ assert i >= 0 || i == CHAD_E_CAPACITY;
  //@ assert a >= 0 ==> arr_ok(tm_ty_[a]) && ty_left_[tm_ty_[a]] == q;
  int x = b_index(a, i);
  //@ assert x >= 0 ==> 0 <= x < tm_count && tm_ctx_[x] == f1 && tm_ty_[x] == q;
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  int f = b_fst(x);
  //@ assert f >= 0 ==> 0 <= f < tm_count && tm_ctx_[f] == f1 && tm_ty_[f] == pt;
  //@ assert f >= 0 || f == CHAD_E_CAPACITY;
  //@ assert n >= 0 ==> 0 <= n < tm_count && tm_ctx_[n] == d3 && tm_ty_[n] == TY_ID_INT;
  //@ assert ctx_is_ext(f1, d3, TY_ID_INT);
  int r = b_build(n, f);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d3 && ty_same(tm_ty_[r], TY_ARR, pt, -1);
  //@ assert r >= 0 ==> ty_valid(tm_ty_[r]);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* f x, in e1 where level lf holds f : tyf = psg -> tyq and level lx
 * holds x : psg: the application that F(lam) and R(lam) build in their
 * primal and in their linear half. */
/*@ requires kernel_inv;
    requires ctx_valid(e1) && 0 <= lf < ctx_len_[e1] && lvl_ty(e1, lf) == tyf;
    requires 0 <= lx < ctx_len_[e1] && lvl_ty(e1, lx) == psg;
    requires ty_valid(tyf) && ty_same(tyf, TY_FUN, psg, tyq);
    terminates \true;
    assigns CH_TMS_LOCS;
    ensures kernel_inv;
    ensures \old(tm_count) <= tm_count <= \old(tm_count) + 3 && ty_count == \old(ty_count);
    ensures tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == e1 &&
      tm_ty_[\result] == tyq;
*/
int lam_apply(int e1, int lf, int lx)
  /*@ ghost (int tyf, int psg, int tyq) */
{
  int vf = b_var(e1, lf);
  //@ assert vf >= 0 ==> 0 <= vf < tm_count && tm_ctx_[vf] == e1 && tm_ty_[vf] == tyf;
  //@ assert vf >= 0 || vf == CHAD_E_CAPACITY;
  int vx = b_var(e1, lx);
  //@ assert vx >= 0 ==> 0 <= vx < tm_count && tm_ctx_[vx] == e1 && tm_ty_[vx] == psg;
  //@ assert vx >= 0 || vx == CHAD_E_CAPACITY;
  //@ assert ty_valid(tyf) && ty_kind_[tyf] == TY_FUN && ty_left_[tyf] == psg && ty_right_[tyf] == tyq;
  //@ assert vf >= 0 ==> 0 <= vf < tm_count && tm_ctx_[vf] == e1 && tm_ty_[vf] == tyf;
  int r = b_app(vf, vx);
  //@ assert r >= 0 ==> \at(tm_count, Pre) <= r < tm_count && tm_ctx_[r] == e1 && tm_ty_[r] == tyq;
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* let r in (fst r, inner), the body of F(lam)'s and R(lam)'s primal
 * function, in e1 where r = f x : tyq = pt * _; e2 = e1, r (level lr);
 * inner (the linear part) in e2 of type rr; the pair's type is rp = pt *
 * rr (P(sigma -> tau)'s codomain) by hash-consing. */
/*@ requires kernel_inv;
    requires 0 <= r < tm_count && tm_ctx_[r] == e1 && tm_ty_[r] == tyq;
    requires ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt;
    requires ctx_valid(e2) && ctx_is_ext(e2, e1, tyq) && 0 <= lr < ctx_len_[e2] && lvl_ty(e2, lr) == tyq;
    requires 0 <= inner < tm_count && tm_ctx_[inner] == e2 && tm_ty_[inner] == rr;
    requires ty_valid(rp) && ty_same(rp, TY_PROD, pt, rr);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS;
    ensures kernel_inv;
    ensures \old(tm_count) <= tm_count <= \old(tm_count) + 4 && \old(ty_count) <= ty_count;
    ensures tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == e1 &&
      tm_ty_[\result] == rp;
*/
int lam_pair_let(int r, int e2, int lr, int inner)
  /*@ ghost (int e1, int tyq, int pt, int rr, int rp) */
{
  int wr = b_var(e2, lr);
  //@ assert wr >= 0 ==> 0 <= wr < tm_count && tm_ctx_[wr] == e2 && tm_ty_[wr] == tyq;
  //@ assert wr >= 0 || wr == CHAD_E_CAPACITY;
  int yr = b_fst(wr);
  //@ assert yr >= 0 ==> 0 <= yr < tm_count && tm_ctx_[yr] == e2 && tm_ty_[yr] == pt;
  //@ assert yr >= 0 || yr == CHAD_E_CAPACITY;
  //@ assert 0 <= inner < tm_count && tm_ctx_[inner] == e2 && tm_ty_[inner] == rr;
  int py = b_pair(yr, inner);
  //@ assert py >= 0 ==> 0 <= py < tm_count && tm_ctx_[py] == e2 && ty_valid(tm_ty_[py]) && ty_same(tm_ty_[py], TY_PROD, pt, rr);
  //@ assert py >= 0 || py == CHAD_E_CAPACITY;
  /* hash-consing: pt * rr is rp itself */
  //@ assert rp_same: ty_inv && ty_valid(rp) && ty_same(rp, TY_PROD, pt, rr);
  //@ assert py_rp: py >= 0 ==> tm_ty_[py] == rp;
  //@ assert 0 <= r < tm_count && tm_ctx_[r] == e1 && tm_ty_[r] == tyq && ctx_is_ext(e2, e1, tyq);
  int lb = b_let(r, py);
  //@ assert lb >= 0 ==> \at(tm_count, Pre) <= lb < tm_count && tm_ctx_[lb] == e1 && tm_ty_[lb] == rp;
  //@ assert lb >= 0 || lb == CHAD_E_CAPACITY;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return lb;
}

/* map (z. fst z) ps, the primal of F(map) and R(map), in d3 where level
 * lps holds ps : Arr q, q = pt * _ (the body's translations, one per
 * element). */
/*@ requires kernel_inv;
    requires ctx_valid(d3) && 0 <= lps < ctx_len_[d3] && lvl_ty(d3, lps) == aq;
    requires ty_valid(aq) && ty_same(aq, TY_ARR, q, -1);
    requires ty_valid(q) && ty_kind_[q] == TY_PROD && ty_left_[q] == pt;
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures \old(tm_count) <= tm_count <= \old(tm_count) + 4 && \old(ty_count) <= ty_count;
    ensures \old(ctx_count) <= ctx_count;
    ensures tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures env_keep{Pre, Post};
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d3 &&
      ty_valid(tm_ty_[\result]) && ty_same(tm_ty_[\result], TY_ARR, pt, -1);
*/
int map_primal(int d3, int lps, int q)
  /*@ ghost (int aq, int pt) */
{
  int lz = b_lvl(d3), f1 = k_ext(d3, q);
  if (f1 < 0) return f1;
  //@ assert f1_ctx: ctx_valid(f1) && ctx_is_ext(f1, d3, q) && ctx_len_[f1] == lz + 1 && lz == ctx_len_[d3];
  //@ assert f1_lvl: lvl_ty(f1, lz) == q;
  //@ assert d3_lvl: lvl_ty(d3, lps) == aq && ctx_valid(d3);
  int z = b_var(f1, lz);
  //@ assert z >= 0 ==> 0 <= z < tm_count && tm_ctx_[z] == f1 && tm_ty_[z] == q;
  //@ assert z >= 0 || z == CHAD_E_CAPACITY;
  //@ assert ty_valid(q) && ty_kind_[q] == TY_PROD && ty_left_[q] == pt;
  int f = b_fst(z);
  //@ assert f >= 0 ==> 0 <= f < tm_count && tm_ctx_[f] == f1 && tm_ty_[f] == pt;
  //@ assert f >= 0 || f == CHAD_E_CAPACITY;
  int a = b_var(d3, lps);
  //@ assert a >= 0 ==> 0 <= a < tm_count && tm_ctx_[a] == d3 && tm_ty_[a] == aq;
  //@ assert a >= 0 || a == CHAD_E_CAPACITY;
  //@ assert a >= 0 ==> arr_ok(tm_ty_[a]) && ty_left_[tm_ty_[a]] == q;
  //@ assert ctx_is_ext(f1, d3, q);
  int r = b_map(f, a);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d3 && ty_same(tm_ty_[r], TY_ARR, pt, -1);
  //@ assert r >= 0 ==> ty_valid(tm_ty_[r]);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The let tail of F(build), R(build), F(map) and R(map):
 *   let pn in let m = fst pn in let ps in (prim, lin)
 * in d, where d1 = d, pn (level ln, pn : tm * _); d2 = d1, m : tm (Int
 * for build, the primal array for map); d3 = d2, ps; prim and lin in d3,
 * lin a linear map of type ct -o cg. */
/*@ requires kernel_inv;
    requires 0 <= pn < tm_count && tm_ctx_[pn] == d && ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[pn]);
    requires ty_valid(tm_ty_[pn]) && ty_kind_[tm_ty_[pn]] == TY_PROD && ty_left_[tm_ty_[pn]] == tm;
    requires ctx_valid(d1) && 0 <= ln < ctx_len_[d1] && lvl_ty(d1, ln) == tm_ty_[pn];
    requires ctx_is_ext(d2, d1, tm) && ctx_valid(d2);
    requires 0 <= ps < tm_count && tm_ctx_[ps] == d2 && ctx_is_ext(d3, d2, tm_ty_[ps]);
    requires 0 <= prim < tm_count && tm_ctx_[prim] == d3 && tm_ty_[prim] == tp;
    requires 0 <= lin < tm_count && tm_ctx_[lin] == d3 && ty_valid(tm_ty_[lin]) &&
      ty_same(tm_ty_[lin], TY_LFUN, ct, cg);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS;
    ensures kernel_inv;
    ensures \old(tm_count) <= tm_count <= \old(tm_count) + 6 && \old(ty_count) <= ty_count;
    ensures tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == tp && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg);
*/
int let_build_tail(int pn, int ps, int prim, int lin, int d1, int ln)
  /*@ ghost (int d, int d2, int d3, int tm, int tp, int ct, int cg) */
{
  //@ ghost int tyl = tm_ty_[lin];
  //@ ghost int tyn = tm_ty_[pn];
  //@ assert ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg);
  int l3 = let_unary_tail(ps, prim, lin) /*@ ghost (d2, d3, tp, ct, cg) */;
  //@ assert l3 >= 0 ==> 0 <= l3 < tm_count && tm_ctx_[l3] == d2 && ty_valid(tm_ty_[l3]) && ty_kind_[tm_ty_[l3]] == TY_PROD && ty_left_[tm_ty_[l3]] == tp && ty_same(ty_right_[tm_ty_[l3]], TY_LFUN, ct, cg);
  //@ assert l3 >= 0 || l3 == CHAD_E_CAPACITY;
  if (l3 < 0) return l3;
  //@ ghost int ty3 = tm_ty_[l3];
  //@ assert n_lvl: ctx_valid(d1) && lvl_ty(d1, ln) == tyn && 0 <= ln < ctx_len_[d1];
  int vn = b_var(d1, ln);
  //@ assert vn >= 0 ==> 0 <= vn < tm_count && tm_ctx_[vn] == d1 && tm_ty_[vn] == tyn;
  //@ assert vn >= 0 || vn == CHAD_E_CAPACITY;
  int m = b_fst(vn);
  //@ assert m >= 0 ==> 0 <= m < tm_count && tm_ctx_[m] == d1 && tm_ty_[m] == tm;
  //@ assert m >= 0 || m == CHAD_E_CAPACITY;
  //@ assert 0 <= l3 < tm_count && tm_ctx_[l3] == d2 && tm_ty_[l3] == ty3 && ctx_is_ext(d2, d1, tm);
  int l2 = b_let(m, l3);
  //@ assert l2 >= 0 ==> 0 <= l2 < tm_count && tm_ctx_[l2] == d1 && tm_ty_[l2] == ty3;
  //@ assert l2 >= 0 || l2 == CHAD_E_CAPACITY;
  //@ assert ctx_is_ext(d1, d, tm_ty_[pn]) && tm_ctx_[pn] == d && 0 <= pn < tm_count;
  int l1 = b_let(pn, l2);
  //@ assert l1 >= 0 ==> tm_ctx_[l1] == d && tm_ty_[l1] == ty3;
  //@ assert ty_valid(ty3) && ty_kind_[ty3] == TY_PROD && ty_left_[ty3] == tp && ty_same(ty_right_[ty3], TY_LFUN, ct, cg);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return l1;
}
