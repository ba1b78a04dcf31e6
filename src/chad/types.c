/* CHAD type translations (rules card §3), memoised per type id:
 *   P_fwd, T (tangent), P_rev, C (cotangent), on types and on contexts.
 * Contexts: P G pointwise; T G and C G nested pairs following the snoc list,
 * T () = C () = Unit, T (G, a) = T G * T a. */
#include "chad/chad.h"
#include "chad/kernel.h"
#include "chad_internal.h"
#include "chad_spec.h"

#define TY_DEPTH 1000

/* memo tables hold id + 1; 0 means "not computed yet". Their meaning is
 * memo_inv (chad_spec.h): one step of card §3 per filled entry. */
int chad_memo_ty_[4][CHAD_MAX_TYPES];
int chad_memo_ctx_[4][CHAD_MAX_CTXS];

/* ghost columns of chad_spec.h (filled by chad_src_columns below, at F's and R's entry points) */
/*@ ghost int chad_tsrc_[CHAD_MAX_TYPES]; */
/*@ ghost int chad_csrc_[CHAD_MAX_CTXS]; */
/*@ ghost int chad_msrc_[CHAD_MAX_TERMS]; */
/*@ ghost int chad_msz_[CHAD_MAX_TERMS]; */

/*@ terminates \true;
    assigns CH_MEMO_TY, CH_MEMO_CTX;
    ensures memo_inv;
*/
void chad_init(void)
{
  /* one loop per table, the four mode rows cleared in its body: the assigns
   * clause is then a union of rows (CH_MEMO_TY), which the provers check at
   * once; a loop over the mode with a 2-D range timed out */
  /*@ loop invariant 0 <= i <= CHAD_MAX_TYPES;
      loop invariant \forall integer m, j; 0 <= m <= 3 && 0 <= j < i ==>
        chad_memo_ty_[m][j] == 0;
      loop assigns i, CH_MEMO_TY;
      loop variant CHAD_MAX_TYPES - i; */
  for (int i = 0; i < CHAD_MAX_TYPES; i++) {
    chad_memo_ty_[0][i] = 0;
    chad_memo_ty_[1][i] = 0;
    chad_memo_ty_[2][i] = 0;
    chad_memo_ty_[3][i] = 0;
  }
  /* (the type rows are not in this loop's assigns: their zeros are kept) */
  /*@ loop invariant 0 <= i <= CHAD_MAX_CTXS;
      loop invariant \forall integer m, j; 0 <= m <= 3 && 0 <= j < i ==>
        chad_memo_ctx_[m][j] == 0;
      loop assigns i, CH_MEMO_CTX;
      loop variant CHAD_MAX_CTXS - i; */
  for (int i = 0; i < CHAD_MAX_CTXS; i++) {
    chad_memo_ctx_[0][i] = 0;
    chad_memo_ctx_[1][i] = 0;
    chad_memo_ctx_[2][i] = 0;
    chad_memo_ctx_[3][i] = 0;
  }
}

/* The memo tables are valid only for the kernel tables they were computed
 * from, and unproved code may reset those (ty_init/ctx_init) between two
 * public calls. chad_sync therefore clears them at every public entry point:
 * memo_inv then holds of empty tables, whatever happened before. Types and
 * contexts are hash-consed, so a translation recomputed after the clear has
 * the same id as before, and the API clears them before every
 * transformation anyway; within one call the memo is kept. */
/*@ requires kernel_inv; terminates \true;
    assigns CH_MEMO_TY, CH_MEMO_CTX;
    ensures memo_inv;
*/
void chad_sync(void)
{
  chad_init();
}

/* ty_make seen from the translation: appending a type keeps the kernel's
 * invariant, the memo tables' meaning and the ghost columns (frame lemmas
 * of chad_spec.h). */
/*@ requires kernel_inv && memo_inv && src_inv;
    terminates \true;
    assigns CH_TY_LOCS;
    ensures mk_kernel: kernel_inv;
    ensures mk_memo: memo_inv;
    ensures mk_src: src_inv;
    ensures \old(ty_count) <= ty_count <= \old(ty_count) + 1;
    ensures \result >= 0 ==> ty_valid(\result) && ty_same(\result, kind, l, r) &&
      ty_node_ok(\result);
    ensures \result >= 0 || \result == CHAD_E_ARG || \result == CHAD_E_CAPACITY;
    ensures \old(ty_shape(kind, l, r, ty_count)) ==> \result != CHAD_E_ARG;
*/
static int tr_mk(int kind, int l, int r)
{
  int res = ty_make(kind, l, r);
#ifdef CHAD_SPEC_LEMMAS
  /*@ assert ty_agree{Pre, Here} && ctx_agree{Pre, Here} && memo_same{Pre, Here} &&
        tm_agree{Pre, Here} && src_same{Pre, Here}; */
#endif
  /*@ assert mk_frame: \forall integer i; 0 <= i < \at(ty_count, Pre) ==>
        ty_kind_[i] == \at(ty_kind_[i], Pre) && ty_left_[i] == \at(ty_left_[i], Pre) &&
        ty_right_[i] == \at(ty_right_[i], Pre); */
  /*@ assert mk_tr: \forall integer m2, x, s2; \at(tr_ok(m2, x, s2), Pre) ==> tr_ok(m2, x, s2); */
  /*@ assert mk_trc: \forall integer m2, x, s2; \at(trc_ok(m2, x, s2), Pre) ==>
        trc_ok(m2, x, s2); */
  //@ assert mk_tsrc: tsrc_inv;
  //@ assert res >= 0 ==> ty_node_ok(res);
  return res;
}

/* The one writer of chad_memo_ty_: an empty entry is filled with a value
 * satisfying one step of card §3. The other entries keep their step: a
 * step only reads filled entries (trh), which the write does not touch. */
/*@ requires memo_inv && mode_ok(m) && 0 <= t < CHAD_MAX_TYPES && chad_memo_ty_[m][t] == 0;
    requires tr_ok(m, t, s);
    terminates \true;
    assigns chad_memo_ty_[m][t];
    ensures memo_inv;
    ensures chad_memo_ty_[m][t] == s + 1;
*/
static void memo_ty_put(int m, int t, int s)
{
  chad_memo_ty_[m][t] = s + 1;
  /*@ assert put_keep: \forall integer m2, x; mode_ok(m2) && 0 <= x < CHAD_MAX_TYPES &&
        \at(chad_memo_ty_[m2][x], Pre) != 0 ==>
        chad_memo_ty_[m2][x] == \at(chad_memo_ty_[m2][x], Pre); */
  /*@ assert put_trh: \forall integer m2, x; \at(trh(m2, x), Pre) ==>
        trh(m2, x) && trm(m2, x) == \at(trm(m2, x), Pre); */
  /*@ assert put_tr: \forall integer m2, x, s2; \at(tr_ok(m2, x, s2), Pre) ==> tr_ok(m2, x, s2); */
  //@ assert put_ty: memo_ty_inv;
  /*@ assert put_trc: \forall integer m2, g, s2; \at(trc_ok(m2, g, s2), Pre) ==>
        trc_ok(m2, g, s2); */
}

/* The three type nodes of a primal function type's translation, given
 * the translations of its domain a and codomain b (card §3):
 *   P_fwd(a->b) = Pa -> Pb * (Ta -o Tb),  P_rev(a->b) = Pa -> Pb * (Cb -o Ca).
 * A function of its own so that ty_tr's goals do not carry its calls. */
/*@ requires kernel_inv && memo_inv && src_inv;
    requires mode == CHAD_PFWD || mode == CHAD_PREV;
    requires ty_valid(pa) && ty_valid(pb) && ty_valid(da) && ty_valid(db);
    terminates \true;
    assigns CH_TYS_LOCS;
    ensures kernel_inv && memo_inv && src_inv;
    ensures \old(ty_count) <= ty_count;
    ensures \result >= 0 ==> ty_valid(\result) && ty_kind_[\result] == TY_FUN &&
      ty_left_[\result] == pa && 0 <= ty_right_[\result] < \result &&
      ty_kind_[ty_right_[\result]] == TY_PROD && ty_left_[ty_right_[\result]] == pb &&
      0 <= ty_right_[ty_right_[\result]] < ty_right_[\result] &&
      (mode == CHAD_PFWD ==> ty_same(ty_right_[ty_right_[\result]], TY_LFUN, da, db)) &&
      (mode == CHAD_PREV ==> ty_same(ty_right_[ty_right_[\result]], TY_LFUN, db, da));
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
*/
static int tr_fun_p(int mode, int pa, int pb, int da, int db)
{
  int lf = (mode == CHAD_PFWD) ? tr_mk(TY_LFUN, da, db) : tr_mk(TY_LFUN, db, da);
  if (lf < 0)
    return lf;
  /*@ assert p_lf: (mode == CHAD_PFWD ==> ty_same(lf, TY_LFUN, da, db)) &&
        (mode == CHAD_PREV ==> ty_same(lf, TY_LFUN, db, da)); */
  int pr = tr_mk(TY_PROD, pb, lf);
  if (pr < 0)
    return pr;
  /*@ assert p_pr: ty_same(pr, TY_PROD, pb, lf) && 0 <= lf < pr &&
        (mode == CHAD_PFWD ==> ty_same(lf, TY_LFUN, da, db)) &&
        (mode == CHAD_PREV ==> ty_same(lf, TY_LFUN, db, da)); */
  int res = tr_mk(TY_FUN, pa, pr);
  /*@ assert p_res: res >= 0 ==> ty_same(res, TY_FUN, pa, pr) && 0 <= pr < res &&
        ty_same(pr, TY_PROD, pb, lf) && 0 <= lf < pr &&
        (mode == CHAD_PFWD ==> ty_same(lf, TY_LFUN, da, db)) &&
        (mode == CHAD_PREV ==> ty_same(lf, TY_LFUN, db, da)); */
  return res;
}

/* mode: CHAD_PFWD, CHAD_TAN, CHAD_PREV, CHAD_COT. On success the result is
 * the memoised mode-m translation of t (memo_inv gives its shape, card §3);
 * on a source type only capacity or depth can fail. */
#define TR_TY_SPEC \
    assigns CH_TYS_LOCS, CH_MEMO_TY; \
    ensures kernel_inv && memo_inv && src_inv; \
    ensures \old(ty_count) <= ty_count; \
    ensures memo_grows{Pre, Post}
/*@ requires kernel_inv && memo_inv && src_inv && mode_ok(mode) && depth >= 0;
    terminates \true;
    decreases TY_DEPTH + 1 - depth;
    TR_TY_SPEC;
    ensures \forall integer m, u; mode_ok(m) && t < u < CHAD_MAX_TYPES ==>
      chad_memo_ty_[m][u] == \old(chad_memo_ty_[m][u]);
    ensures \result >= 0 ==> trh(mode, t) && trm(mode, t) == \result && ty_valid(\result);
    ensures \old(0 <= t < ty_count && chad_tsrc_[t] == 1) ==>
      \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
*/
static int ty_tr(int mode, int t, int depth)
{
  if (depth > TY_DEPTH)
    return CHAD_E_DEPTH;
  if (t < 0 || t >= ty_count)
    return CHAD_E_ARG;
  if (chad_memo_ty_[mode][t] > 0)
    return chad_memo_ty_[mode][t] - 1;
  //@ assert chad_memo_ty_[mode][t] != 0 ==> tr_ok(mode, t, chad_memo_ty_[mode][t] - 1);
  //@ assert empty: chad_memo_ty_[mode][t] == 0;
  //@ assert ty_node_ok(t);
  int k = ty_kind_[t], l = ty_left_[t], r = ty_right_[t], res;
  int lin = (mode == CHAD_TAN || mode == CHAD_COT);
  switch (k) {
  case TY_REAL: res = TY_ID_REAL; break;
  case TY_INT: res = lin ? TY_ID_UNIT : TY_ID_INT; break;
  case TY_UNIT: res = TY_ID_UNIT; break;
  case TY_PROD: case TY_SUM: {
    int a = ty_tr(mode, l, depth + 1);
    if (a < 0) return a;
    //@ assert still_empty: chad_memo_ty_[mode][t] == 0;
    //@ assert grows: memo_grows{Pre, Here};
    /*@ assert above: \forall integer m, u; mode_ok(m) && t < u < CHAD_MAX_TYPES ==>
          chad_memo_ty_[m][u] == \at(chad_memo_ty_[m][u], Pre); */
    int b = ty_tr(mode, r, depth + 1);
    if (b < 0) return b;
    //@ assert still_empty: chad_memo_ty_[mode][t] == 0;
    //@ assert grows: memo_grows{Pre, Here};
    /*@ assert above: \forall integer m, u; mode_ok(m) && t < u < CHAD_MAX_TYPES ==>
          chad_memo_ty_[m][u] == \at(chad_memo_ty_[m][u], Pre); */
    //@ assert trh(mode, l) && trm(mode, l) == a && trh(mode, r) && trm(mode, r) == b;
    res = (k == TY_PROD || lin) ? tr_mk(TY_PROD, a, b) : tr_mk(TY_SUM, a, b);
    /*@ assert tr_prodsum: res >= 0 ==> trh(mode, l) && trh(mode, r) &&
          ty_same(res, (k == TY_PROD || lin != 0) ? TY_PROD : TY_SUM, trm(mode, l), trm(mode, r)); */
    break;
  }
  case TY_ARR: {
    int a = ty_tr(mode, l, depth + 1);
    if (a < 0) return a;
    //@ assert still_empty: chad_memo_ty_[mode][t] == 0;
    //@ assert grows: memo_grows{Pre, Here};
    /*@ assert above: \forall integer m, u; mode_ok(m) && t < u < CHAD_MAX_TYPES ==>
          chad_memo_ty_[m][u] == \at(chad_memo_ty_[m][u], Pre); */
    res = tr_mk(TY_ARR, a, -1);
    //@ assert res >= 0 ==> trh(mode, l) && ty_same(res, TY_ARR, trm(mode, l), -1);
    break;
  }
  case TY_FUN: {
    int pmode = (mode == CHAD_PFWD || mode == CHAD_TAN) ? CHAD_PFWD : CHAD_PREV;
    int pa = ty_tr(pmode, l, depth + 1);
    if (pa < 0) return pa;
    //@ assert still_empty: chad_memo_ty_[mode][t] == 0;
    //@ assert grows: memo_grows{Pre, Here};
    /*@ assert above: \forall integer m, u; mode_ok(m) && t < u < CHAD_MAX_TYPES ==>
          chad_memo_ty_[m][u] == \at(chad_memo_ty_[m][u], Pre); */
    if (mode == CHAD_TAN) {           /* T(a->b) = Pa -> Tb                 */
      int tb = ty_tr(CHAD_TAN, r, depth + 1);
      if (tb < 0) return tb;
      //@ assert still_empty: chad_memo_ty_[mode][t] == 0;
      //@ assert grows: memo_grows{Pre, Here};
      /*@ assert above: \forall integer m, u; mode_ok(m) && t < u < CHAD_MAX_TYPES ==>
            chad_memo_ty_[m][u] == \at(chad_memo_ty_[m][u], Pre); */
      res = tr_mk(TY_FUN, pa, tb);
      /*@ assert res >= 0 ==> trh(CHAD_PFWD, l) && trh(CHAD_TAN, r) &&
            ty_same(res, TY_FUN, trm(CHAD_PFWD, l), trm(CHAD_TAN, r)); */
    } else if (mode == CHAD_COT) {    /* C(a->b) = !Pa (x) Cb               */
      int cb = ty_tr(CHAD_COT, r, depth + 1);
      if (cb < 0) return cb;
      //@ assert still_empty: chad_memo_ty_[mode][t] == 0;
      //@ assert grows: memo_grows{Pre, Here};
      /*@ assert above: \forall integer m, u; mode_ok(m) && t < u < CHAD_MAX_TYPES ==>
            chad_memo_ty_[m][u] == \at(chad_memo_ty_[m][u], Pre); */
      res = tr_mk(TY_COPOW, pa, cb);
      /*@ assert res >= 0 ==> trh(CHAD_PREV, l) && trh(CHAD_COT, r) &&
            ty_same(res, TY_COPOW, trm(CHAD_PREV, l), trm(CHAD_COT, r)); */
    } else {                          /* P(a->b) = Pa -> Pb * (D -o D')     */
      int lmode = (mode == CHAD_PFWD) ? CHAD_TAN : CHAD_COT;
      int pb = ty_tr(mode, r, depth + 1);
      if (pb < 0) return pb;
      //@ assert still_empty: chad_memo_ty_[mode][t] == 0;
      //@ assert grows: memo_grows{Pre, Here};
      /*@ assert above: \forall integer m, u; mode_ok(m) && t < u < CHAD_MAX_TYPES ==>
            chad_memo_ty_[m][u] == \at(chad_memo_ty_[m][u], Pre); */
      //@ assert p_pa: trh(mode, l) && trm(mode, l) == pa && trh(mode, r) && trm(mode, r) == pb;
      int da = ty_tr(lmode, l, depth + 1);
      if (da < 0) return da;
      //@ assert still_empty: chad_memo_ty_[mode][t] == 0;
      //@ assert grows: memo_grows{Pre, Here};
      /*@ assert above: \forall integer m, u; mode_ok(m) && t < u < CHAD_MAX_TYPES ==>
            chad_memo_ty_[m][u] == \at(chad_memo_ty_[m][u], Pre); */
      /*@ assert p_da: trh(mode, l) && trm(mode, l) == pa && trh(mode, r) && trm(mode, r) == pb &&
            trh(lmode, l) && trm(lmode, l) == da; */
      int db = ty_tr(lmode, r, depth + 1);
      if (db < 0) return db;
      //@ assert still_empty: chad_memo_ty_[mode][t] == 0;
      //@ assert grows: memo_grows{Pre, Here};
      /*@ assert above: \forall integer m, u; mode_ok(m) && t < u < CHAD_MAX_TYPES ==>
            chad_memo_ty_[m][u] == \at(chad_memo_ty_[m][u], Pre); */
      //@ assert p_db: trh(lmode, r) && trm(lmode, r) == db;
      //@ assert p_old1: trh(mode, l) && trm(mode, l) == pa;
      //@ assert p_old2: trh(mode, r) && trm(mode, r) == pb;
      //@ assert p_old3v: chad_memo_ty_[lmode][l] == da + 1;
      //@ assert p_old3: trh(lmode, l) && trm(lmode, l) == da;
      /*@ assert p_memo: trh(mode, l) && trm(mode, l) == pa && trh(mode, r) && trm(mode, r) == pb &&
            trh(lmode, l) && trm(lmode, l) == da && trh(lmode, r) && trm(lmode, r) == db; */
      res = tr_fun_p(mode, pa, pb, da, db);
      /*@ assert p_memo2: trh(mode, l) && trm(mode, l) == pa && trh(mode, r) && trm(mode, r) == pb &&
            trh(lmode, l) && trm(lmode, l) == da && trh(lmode, r) && trm(lmode, r) == db; */
      /*@ assert res >= 0 ==> trh(mode, l) && trh(mode, r) && trh(lmode, l) &&
            trh(lmode, r) && ty_kind_[res] == TY_FUN && ty_left_[res] == trm(mode, l) &&
            0 <= ty_right_[res] < res && ty_kind_[ty_right_[res]] == TY_PROD &&
            ty_left_[ty_right_[res]] == trm(mode, r) &&
            0 <= ty_right_[ty_right_[res]] < ty_right_[res] &&
            (mode == CHAD_PFWD ==> ty_same(ty_right_[ty_right_[res]], TY_LFUN, trm(lmode, l), trm(lmode, r))) &&
            (mode == CHAD_PREV ==> ty_same(ty_right_[ty_right_[res]], TY_LFUN, trm(lmode, r), trm(lmode, l))); */
    }
    break;
  }
  default:
    return CHAD_E_TYPE;                /* -o and copowers are not source types */
  }
  if (res < 0)
    return res;
  //@ assert chad_memo_ty_[mode][t] == 0;
  //@ assert ty_kind_[t] == k && ty_left_[t] == l && ty_right_[t] == r && ty_valid(res);
  //@ assert tr_step: tr_ok(mode, t, res);
  memo_ty_put(mode, t, res);
  //@ assert put_grows: memo_grows{Pre, Here};
  return res;
}

/*@ requires kernel_inv && memo_inv && src_inv;
    terminates \true;
    TR_TY_SPEC;
    ensures \result >= 0 ==> mode_ok(mode) && trh(mode, t) && trm(mode, t) == \result &&
      ty_valid(\result);
    ensures \old(mode_ok(mode) && 0 <= t < ty_count && chad_tsrc_[t] == 1) ==>
      \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
*/
int tr_ty(int mode, int t)
{
  if (mode < 0 || mode > 3)
    return CHAD_E_ARG;
  return ty_tr(mode, t, 0);
}

/* The public type translations: chad_sync clears the memo tables, then
 * the memoised translation. src_inv is a ghost
 * invariant (it holds of the zero-initialised ghost columns and every
 * function keeps it). */
#define CHAD_TY_SPEC(m) \
    requires kernel_inv && src_inv; \
    terminates \true; \
    assigns CH_TYS_LOCS, CH_TR_CTX_STATE; \
    ensures kernel_inv && memo_inv && src_inv; \
    ensures \old(ty_count) <= ty_count; \
    ensures \result >= 0 ==> mode_ok(m) && trh(m, t) && trm(m, t) == \result && \
      ty_valid(\result); \
    ensures \old(mode_ok(m) && 0 <= t < ty_count && chad_tsrc_[t] == 1) ==> \
      \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH
/*@ CHAD_TY_SPEC(mode); */
int chad_ty(int mode, int t)
{
  chad_sync();
  return tr_ty(mode, t);
}

/*@ CHAD_TY_SPEC(CHAD_PFWD); */
int chad_ty_pfwd(int t) { return chad_ty(CHAD_PFWD, t); }
/*@ CHAD_TY_SPEC(CHAD_TAN); */
int chad_ty_tan(int t) { return chad_ty(CHAD_TAN, t); }
/*@ CHAD_TY_SPEC(CHAD_PREV); */
int chad_ty_prev(int t) { return chad_ty(CHAD_PREV, t); }
/*@ CHAD_TY_SPEC(CHAD_COT); */
int chad_ty_cot(int t) { return chad_ty(CHAD_COT, t); }

/* Context translation, iterative (contexts can be long): walk up to the
 * nearest memoised ancestor (or the empty context), then back down. */
int chad_chain_[CHAD_MAX_CTXS];


/* The one writer of chad_memo_ctx_ (as memo_ty_put for types). */
/*@ requires memo_inv && mode_ok(m) && 0 < g < CHAD_MAX_CTXS && chad_memo_ctx_[m][g] == 0;
    requires trc_ok(m, g, s);
    terminates \true;
    assigns chad_memo_ctx_[m][g];
    ensures memo_inv;
    ensures chad_memo_ctx_[m][g] == s + 1;
*/
static void memo_ctx_put(int m, int g, int s)
{
  chad_memo_ctx_[m][g] = s + 1;
  /*@ assert put_keep: \forall integer m2, x; mode_ok(m2) && 0 < x < CHAD_MAX_CTXS &&
        \at(chad_memo_ctx_[m2][x], Pre) != 0 ==>
        chad_memo_ctx_[m2][x] == \at(chad_memo_ctx_[m2][x], Pre); */
  /*@ assert put_trch: \forall integer m2, x; \at(trch(m2, x), Pre) ==>
        trch(m2, x) && trc(m2, x) == \at(trc(m2, x), Pre); */
  /*@ assert put_trc: \forall integer m2, x, s2; \at(trc_ok(m2, x, s2), Pre) ==>
        trc_ok(m2, x, s2); */
}

/* b_ext seen from the translation: appending a context keeps the kernel's
 * invariant, the memo tables' meaning and the ghost columns (every entry
 * they describe is older than the new context). */
/*@ requires kernel_inv && memo_inv && src_inv;
    terminates \true;
    assigns CH_CTX_LOCS, CH_EXT_STATE;
    ensures ext_kernel: kernel_inv;
    ensures ext_memo: memo_inv;
    ensures ext_src: src_inv;
    ensures \old(ctx_count) <= ctx_count <= \old(ctx_count) + 1;
    ensures d < 0 ==> \result == d;
    ensures d >= 0 && ty < 0 ==> \result == ty;
    ensures \result >= 0 ==> ctx_is_ext(\result, d, ty) && ctx_len_[\result] == ctx_len_[d] + 1;
    ensures ctx_valid(d) && ty_valid(ty) ==> \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures \result < 0 ==> ctx_count == \old(ctx_count);
    ensures \forall integer h, k; 0 <= h < \old(ctx_count) ==>
      ctx_lk(h, k) == \at(ctx_lk(h, k), Pre);
*/
static int tr_ext(int d, int ty)
{
  int res = b_ext(d, ty);
  /*@ assert ext_frame: \forall integer i; 0 <= i < \at(ctx_count, Pre) ==>
        ctx_parent_[i] == \at(ctx_parent_[i], Pre) && ctx_type_[i] == \at(ctx_type_[i], Pre) &&
        ctx_len_[i] == \at(ctx_len_[i], Pre); */
  /*@ assert ext_trc: \forall integer m2, x, s2; \at(trc_ok(m2, x, s2), Pre) ==>
        trc_ok(m2, x, s2); */
  //@ assert ext_csrc: csrc_inv;
  return res;
}

/* One step of tr_ctx's way down: c's parent is translated (acc); translate
 * c's type, extend acc by it and memoise the result for c. A function of
 * its own so that the loop's goals do not carry the step's calls. */
/*@ requires kernel_inv && memo_inv && src_inv && mode_ok(mode);
    requires 0 < c < ctx_count && chad_memo_ctx_[mode][c] == 0;
    requires trch(mode, ctx_parent_[c]) && acc == trc(mode, ctx_parent_[c]);
    requires mlin(mode) ? ty_valid(acc) : ctx_valid(acc);
    requires !mlin(mode) ==> ctx_len_[acc] == ctx_len_[ctx_parent_[c]];
    terminates \true;
    assigns CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE, CH_TR_TY_STATE, chad_memo_ctx_[mode][c];
    ensures kernel_inv && memo_inv && src_inv;
    ensures \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures step_grows: memo_grows{Pre, Post};
    ensures \forall integer h, k; 0 <= h < \old(ctx_count) ==>
      ctx_lk(h, k) == \at(ctx_lk(h, k), Pre);
    ensures \result >= 0 ==> trch(mode, c) && trc(mode, c) == \result;
    ensures \result >= 0 && mlin(mode) ==> ty_valid(\result);
    ensures \result >= 0 && !mlin(mode) ==> ctx_valid(\result) && ctx_len_[\result] == ctx_len_[c];
    ensures \old(chad_csrc_[c]) == 1 ==>
      \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
*/
static int tr_ctx_step(int mode, int c, int acc)
{
  //@ assert ctx_node_ok(c);
  //@ assert chad_csrc_[c] == 1 ==> csrc_ok(c);
  int lin = (mode == CHAD_TAN || mode == CHAD_COT);
  int a = tr_ty(mode, ctx_type_[c]);
  /* memo_grows stays a predicate (not unfolded): chaining the opaque
   * predicate proves at once, while the same step over the unfolded
   * quantifiers timed out with every prover */
  //@ assert tr_grows: memo_grows{Pre, Here};
  if (a < 0)
    return a;
  int r = lin ? tr_mk(TY_PROD, acc, a) : tr_ext(acc, a);
  //@ assert mk_grows: memo_grows{Pre, Here};
  if (r < 0)
    return r;
  //@ assert chad_memo_ctx_[mode][c] == 0;
  //@ assert trc_ok(mode, c, r);
  /*@ ghost Put: ; */
  memo_ctx_put(mode, c, r);
  //@ assert put_local: memo_grows{Put, Here};
  //@ assert put_grows: memo_grows{Pre, Here};
  return r;
}

/* On success: the memoised mode-m translation of g (trc: a context for the
 * primal modes, a type for the linear ones); on a source context only
 * capacity or depth can fail. */
/*@ requires kernel_inv && memo_inv && src_inv;
    terminates \true;
    assigns CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE, CH_TR_CTX_STATE;
    ensures kernel_inv && memo_inv && src_inv;
    ensures \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures ctx_grows: memo_grows{Pre, Post};
    ensures \forall integer h, k; 0 <= h < \old(ctx_count) ==>
      ctx_lk(h, k) == \at(ctx_lk(h, k), Pre);
    ensures \result >= 0 ==> mode_ok(mode) && 0 <= g < ctx_count && trch(mode, g) &&
      trc(mode, g) == \result;
    ensures \result >= 0 && mlin(mode) ==> ty_valid(\result);
    ensures \result >= 0 && !mlin(mode) ==> ctx_valid(\result) &&
      ctx_len_[\result] == ctx_len_[g];
    ensures \old(mode_ok(mode) && 0 <= g < ctx_count && chad_csrc_[g] == 1) ==>
      \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
*/
int tr_ctx(int mode, int g)
{
  if (mode < 0 || mode > 3)
    return CHAD_E_ARG;
  if (g < 0 || g >= ctx_count)
    return CHAD_E_ARG;
  int lin = (mode == CHAD_TAN || mode == CHAD_COT);
  int n = 0, cur = g;
  /*@ loop invariant 0 <= n <= CHAD_MAX_CTXS && 0 <= cur < ctx_count;
      loop invariant n == 0 ==> cur == g;
      loop invariant n > 0 ==> chad_chain_[0] == g && ctx_parent_[chad_chain_[n - 1]] == cur;
      loop invariant \forall integer i; 0 <= i < n ==>
        0 < chad_chain_[i] < ctx_count && cur < chad_chain_[i] &&
        chad_memo_ctx_[mode][chad_chain_[i]] == 0;
      loop invariant \forall integer i; 0 <= i < n - 1 ==>
        ctx_parent_[chad_chain_[i]] == chad_chain_[i + 1];
      loop invariant \forall integer i, j; 0 <= i < j < n ==> chad_chain_[j] < chad_chain_[i];
      loop invariant chad_csrc_[g] == 1 ==> chad_csrc_[cur] == 1;
      loop invariant chad_csrc_[g] == 1 ==>
        \forall integer i; 0 <= i < n ==> chad_csrc_[chad_chain_[i]] == 1;
      loop assigns n, cur, chad_chain_[0 .. CHAD_MAX_CTXS-1];
      loop variant cur; */
  while (cur != CTX_EMPTY && chad_memo_ctx_[mode][cur] == 0) {
    if (n >= CHAD_MAX_CTXS)
      return CHAD_E_DEPTH;
    //@ assert ctx_node_ok(cur);
    //@ assert chad_csrc_[cur] == 1 ==> csrc_ok(cur);
    chad_chain_[n++] = cur;
    cur = ctx_parent_[cur];
  }
  int acc;
  if (cur == CTX_EMPTY)
    acc = lin ? TY_ID_UNIT : CTX_EMPTY;
  else
    acc = chad_memo_ctx_[mode][cur] - 1;
  //@ assert cur != CTX_EMPTY ==> trc_ok(mode, cur, chad_memo_ctx_[mode][cur] - 1);
  //@ ghost int gcur = cur;
  /*@ loop invariant 0 <= n <= \at(n, LoopEntry);
      loop invariant kernel_inv && memo_inv && src_inv;
      loop invariant \at(ty_count, Pre) <= ty_count && \at(ctx_count, Pre) <= ctx_count;
      loop invariant grows: memo_grows{Pre, Here};
      loop invariant \forall integer h, k; 0 <= h < \at(ctx_count, Pre) ==>
        ctx_lk(h, k) == \at(ctx_lk(h, k), Pre);
      loop invariant 0 <= gcur < \at(ctx_count, Pre) && trch(mode, gcur) && acc == trc(mode, gcur);
      loop invariant acc_valid: mlin(mode) ? ty_valid(acc) : ctx_valid(acc);
      loop invariant acc_len: !mlin(mode) ==> ctx_len_[acc] == ctx_len_[gcur];
      loop invariant n == 0 ==> gcur == g;
      loop invariant n > 0 ==> ctx_parent_[chad_chain_[n - 1]] == gcur;
      loop invariant \forall integer i; 0 <= i < n ==>
        0 < chad_chain_[i] < \at(ctx_count, Pre) && gcur < chad_chain_[i] &&
        chad_memo_ctx_[mode][chad_chain_[i]] == 0;
      loop invariant \forall integer i; 0 <= i < n - 1 ==>
        ctx_parent_[chad_chain_[i]] == chad_chain_[i + 1];
      loop invariant \forall integer i, j; 0 <= i < j < n ==> chad_chain_[j] < chad_chain_[i];
      loop invariant chad_csrc_[g] == 1 ==> chad_csrc_[gcur] == 1;
      loop invariant chad_csrc_[g] == 1 ==>
        \forall integer i; 0 <= i < n ==> chad_csrc_[chad_chain_[i]] == 1;
      loop assigns n, acc, gcur, CH_EXT_STATE, CH_TYS_FROM(\at(ty_count, Pre)),
        CH_CTXS_FROM(\at(ctx_count, Pre)),
        CH_MEMO_TY, CH_MEMO_CTX;
      loop variant n; */
  while (n > 0) {
    int c = chad_chain_[--n];
    acc = tr_ctx_step(mode, c, acc);
    //@ assert step_grows: memo_grows{Pre, Here};
    if (acc < 0)
      return acc;
    //@ ghost gcur = c;
  }
  return acc;
}

/* The public context translations (as chad_ty). */
#define CHAD_CTX_SPEC(m) \
    requires kernel_inv && src_inv; \
    terminates \true; \
    assigns CH_TYS_LOCS, CH_CTXS_LOCS, CH_TR_CTX_STATE, CH_EXT_STATE; \
    ensures kernel_inv && memo_inv && src_inv; \
    ensures \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count; \
    ensures \result >= 0 ==> mode_ok(m) && 0 <= g < ctx_count && trch(m, g) && \
      trc(m, g) == \result; \
    ensures \result >= 0 && mlin(m) ==> ty_valid(\result); \
    ensures \result >= 0 && !mlin(m) ==> ctx_valid(\result) && \
      ctx_len_[\result] == ctx_len_[g]; \
    ensures \old(mode_ok(m) && 0 <= g < ctx_count && chad_csrc_[g] == 1) ==> \
      \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH
/*@ CHAD_CTX_SPEC(mode); */
int chad_ctx(int mode, int g)
{
  chad_sync();
  return tr_ctx(mode, g);
}

/*@ CHAD_CTX_SPEC(CHAD_PFWD); */
int chad_ctx_pfwd(int g) { return chad_ctx(CHAD_PFWD, g); }
/*@ CHAD_CTX_SPEC(CHAD_TAN); */
int chad_ctx_tan(int g) { return chad_ctx(CHAD_TAN, g); }
/*@ CHAD_CTX_SPEC(CHAD_PREV); */
int chad_ctx_prev(int g) { return chad_ctx(CHAD_PREV, g); }
/*@ CHAD_CTX_SPEC(CHAD_COT); */
int chad_ctx_cot(int g) { return chad_ctx(CHAD_COT, g); }

/* The ghost source columns (chad_spec.h's src_inv): which types, contexts
 * and terms are source (tm_srcr, recursive) and each term's size (tsize),
 * one table entry at a time from its children's entries. The entry points
 * of F and R fill them first; they are ghost, so this compiles to nothing. */
/*@ requires kernel_inv;
    terminates \true;
    assigns chad_tsrc_[0 .. CHAD_MAX_TYPES - 1], chad_csrc_[0 .. CHAD_MAX_CTXS - 1],
            chad_msrc_[0 .. CHAD_MAX_TERMS - 1], chad_msz_[0 .. CHAD_MAX_TERMS - 1];
    ensures src_inv;
    ensures \forall integer u; 0 <= u < tm_count ==>
      (chad_msrc_[u] == 1 <==> tm_srcr(u)) && chad_msz_[u] == sat(tsize(u));
*/
void chad_src_columns(void)
{
  /*@ ghost
    /@ loop invariant 0 <= i <= CHAD_MAX_TYPES;
       loop invariant \forall integer j; 0 <= j < i && j < ty_count ==>
         (chad_tsrc_[j] == 1 <==> ty_srcr(j));
       loop invariant \forall integer j; 0 <= j < i && chad_tsrc_[j] == 1 ==> tsrc_ok(j);
       loop invariant \forall integer j; 0 <= j < i && j >= ty_count ==> chad_tsrc_[j] == 0;
       loop assigns i, chad_tsrc_[0 .. CHAD_MAX_TYPES - 1];
       loop variant CHAD_MAX_TYPES - i;
    @/
    for (int i = 0; i < CHAD_MAX_TYPES; i++) {
      if (i < ty_count) {
        /@ assert ty_node_ok(i); @/
        int l = ty_left_[i], r = ty_right_[i];
        chad_tsrc_[i] = (ty_kind_[i] != TY_LFUN && ty_kind_[i] != TY_COPOW &&
                         (l < 0 || chad_tsrc_[l] == 1) && (r < 0 || chad_tsrc_[r] == 1)) ? 1 : 0;
      } else
        chad_tsrc_[i] = 0;
    }
    /@ loop invariant 0 <= i <= CHAD_MAX_CTXS;
       loop invariant \forall integer j; 0 <= j < i && j < ctx_count ==>
         (chad_csrc_[j] == 1 <==> ctx_srcr(j));
       loop invariant \forall integer j; 0 <= j < i && chad_csrc_[j] == 1 ==> csrc_ok(j);
       loop invariant \forall integer j; 0 <= j < i && j >= ctx_count ==> chad_csrc_[j] == 0;
       loop assigns i, chad_csrc_[0 .. CHAD_MAX_CTXS - 1];
       loop variant CHAD_MAX_CTXS - i;
    @/
    for (int i = 0; i < CHAD_MAX_CTXS; i++) {
      if (i == 0)
        chad_csrc_[i] = 1;
      else if (i < ctx_count) {
        /@ assert ctx_node_ok(i); @/
        chad_csrc_[i] = (chad_csrc_[ctx_parent_[i]] == 1 &&
                         chad_tsrc_[ctx_type_[i]] == 1) ? 1 : 0;
      } else
        chad_csrc_[i] = 0;
    }
    /@ loop invariant 0 <= i <= CHAD_MAX_TERMS;
       loop invariant \forall integer j; 0 <= j < i && j < tm_count ==>
         (chad_msrc_[j] == 1 <==> tm_srcr(j));
       loop invariant \forall integer j; 0 <= j < i && j < tm_count ==> msz_ok(j);
       loop invariant \forall integer j; 0 <= j < i && j < tm_count ==>
         chad_msz_[j] == sat(tsize(j));
       loop invariant \forall integer j; 0 <= j < i && chad_msrc_[j] == 1 ==> msrc_ok(j);
       loop invariant \forall integer j; 0 <= j < i && j >= tm_count ==> chad_msrc_[j] == 0;
       loop assigns i, chad_msrc_[0 .. CHAD_MAX_TERMS - 1], chad_msz_[0 .. CHAD_MAX_TERMS - 1];
       loop variant CHAD_MAX_TERMS - i;
    @/
    for (int i = 0; i < CHAD_MAX_TERMS; i++) {
      if (i < tm_count) {
        /@ assert tm_wf(i) && node_ok(i); @/
        int a = tm_a_[i], b = tm_b_[i], c = tm_c_[i], k = tm_kind_[i];
        /@ assert a < i && b < i && c < i; @/
        /@ assert a >= 0 ==> (chad_msrc_[a] == 1 <==> tm_srcr(a)) && msz_ok(a) &&
             chad_msz_[a] == sat(tsize(a)) && 1 <= tsize(a); @/
        /@ assert b >= 0 ==> (chad_msrc_[b] == 1 <==> tm_srcr(b)) && msz_ok(b) &&
             chad_msz_[b] == sat(tsize(b)) && 1 <= tsize(b); @/
        /@ assert c >= 0 ==> (chad_msrc_[c] == 1 <==> tm_srcr(c)) && msz_ok(c) &&
             chad_msz_[c] == sat(tsize(c)) && 1 <= tsize(c); @/
        chad_msrc_[i] = (TM_VAR <= k && k <= TM_SUM && chad_tsrc_[tm_ty_[i]] == 1 &&
                         chad_csrc_[tm_ctx_[i]] == 1 &&
                         (a < 0 || chad_msrc_[a] == 1) && (b < 0 || chad_msrc_[b] == 1) &&
                         (c < 0 || chad_msrc_[c] == 1)) ? 1 : 0;
        /@ assert src_i: chad_msrc_[i] == 1 <==> tm_srcr(i); @/
        if (k == TM_VAR)
          chad_msz_[i] = (int)tm_aux_[i] + 1 < CHAD_MAX_TERMS ? (int)tm_aux_[i] + 1 : CHAD_MAX_TERMS;
        else {
          int sz = 1 + (a < 0 ? 0 : chad_msz_[a]) + (b < 0 ? 0 : chad_msz_[b]) +
                   (c < 0 ? 0 : chad_msz_[c]);
          chad_msz_[i] = sz < CHAD_MAX_TERMS ? sz : CHAD_MAX_TERMS;
        }
        /@ assert msz_i: msz_ok(i); @/
        /@ assert tsize_i: chad_msz_[i] == sat(tsize(i)); @/
      } else {
        chad_msrc_[i] = 0;
        chad_msz_[i] = 1;
      }
    }
  */
}

/* Lemma (induction along G, no logic lemma): where P G is memoised, each
 * variable k of G has a memoised translation, and variable k of P G is it.
 * The entry points of F and R get env_ok from it. */
/*@ ghost
  /@ requires kernel_inv && memo_inv && (m == CHAD_PFWD || m == CHAD_PREV);
     requires 0 <= g < ctx_count && trch(m, g);
     terminates \true;
     assigns \nothing;
     ensures \forall integer k; 0 <= k < ctx_len_[g] ==>
       trh(m, ctx_lk(g, k)) && ctx_lk(trc(m, g), k) == trm(m, ctx_lk(g, k)); @/
  void trc_lookup_lemma(int m, int g)
  {
    int pg = g == CTX_EMPTY ? CTX_EMPTY : chad_memo_ctx_[m][g] - 1;
    int cg = g, cp = pg;
    int n = ctx_len_[g];
    /@ loop invariant 0 <= i <= n && pg == trc(m, g);
       loop invariant 0 <= cg < ctx_count && trch(m, cg) && cp == trc(m, cg);
       loop invariant ctx_len_[cg] == n - i;
       loop invariant \forall integer j; i <= j ==> ctx_lk(g, j) == ctx_lk(cg, j - i);
       loop invariant \forall integer j; i <= j ==> ctx_lk(pg, j) == ctx_lk(cp, j - i);
       loop invariant \forall integer j; 0 <= j < i ==>
         trh(m, ctx_lk(g, j)) && ctx_lk(pg, j) == trm(m, ctx_lk(g, j));
       loop assigns i, cg, cp;
       loop variant n - i;
    @/
    for (int i = 0; i < n; i++) {
      /@ assert 0 < cg && ctx_node_ok(cg); @/
      /@ assert trc_ok(m, cg, chad_memo_ctx_[m][cg] - 1); @/
      /@ assert 0 < cp && ctx_node_ok(cp); @/
      /@ assert step_i: trh(m, ctx_type_[cg]) && ctx_type_[cp] == trm(m, ctx_type_[cg]); @/
      /@ assert lk_i: ctx_lk(g, i) == ctx_type_[cg] && ctx_lk(pg, i) == ctx_type_[cp]; @/
      /@ assert \forall integer j; 0 <= j ==> ctx_lk(cg, j + 1) == ctx_lk(ctx_parent_[cg], j); @/
      /@ assert \forall integer j; 0 <= j ==> ctx_lk(cp, j + 1) == ctx_lk(ctx_parent_[cp], j); @/
      cg = ctx_parent_[cg];
      cp = ctx_parent_[cp];
    }
  }
*/

/* proj_k v for v : T G (or C G): snd (fst^k v). O(k) nodes.
 * Ghost arguments: the source context g and the linear mode m with
 * v : trc(m, g); the result has the type of variable k, translated. */
/*@ requires kernel_inv && memo_inv;
    requires mode_ok(m) && mlin(m) && 0 <= g < ctx_count && trch(m, g) && 0 <= k < ctx_len_[g];
    requires v < 0 || (0 <= v < tm_count && tm_ty_[v] == trc(m, g));
    terminates \true;
    assigns CH_TMS_LOCS;
    ensures kernel_inv;
    ensures \old(tm_count) <= tm_count <= \old(tm_count) + k + 1;
    ensures v < 0 ==> \result == v;
    ensures v >= 0 ==> \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures \result >= 0 ==> 0 <= \result < tm_count &&
      tm_ctx_[\result] == \old(tm_ctx_[v]) && tm_ty_[\result] == trm(m, ctx_lk(g, k));
*/
int chad_proj_tuple(int v, int k) /*@ ghost (int g, int m) */
{
  int r = v, i = 0;
  //@ ghost int gi = g;
  /*@ loop invariant 0 <= i <= k;
      loop invariant kernel_inv;
      loop invariant \at(tm_count, Pre) <= tm_count <= \at(tm_count, Pre) + i;
      loop invariant 0 <= gi < ctx_count && trch(m, gi) && ctx_len_[gi] == ctx_len_[g] - i;
      loop invariant ctx_lk(g, k) == ctx_lk(gi, k - i);
      loop invariant v < 0 ==> r == v;
      loop invariant v >= 0 ==> r >= 0 || r == CHAD_E_CAPACITY;
      loop invariant r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == \at(tm_ctx_[v], Pre) &&
        tm_ty_[r] == trc(m, gi);
      loop assigns i, r, gi, CH_TMS_FROM(\at(tm_count, Pre));
      loop variant k - i; */
  for (; i < k && r >= 0; i++) {
    //@ assert ctx_node_ok(gi);
    //@ assert trc_ok(m, gi, chad_memo_ctx_[m][gi] - 1);
    r = b_fst(r);
    //@ ghost gi = ctx_parent_[gi];
  }
  //@ assert r >= 0 ==> i == k && ctx_lk(g, k) == ctx_lk(gi, 0);
  //@ assert r >= 0 ==> 0 < gi && ctx_node_ok(gi) && ctx_lk(gi, 0) == ctx_type_[gi];
  //@ assert r >= 0 ==> trc_ok(m, gi, chad_memo_ctx_[m][gi] - 1);
  /*@ assert r >= 0 ==> proj_ok(tm_ty_[r]) &&
        ty_right_[tm_ty_[r]] == trm(m, ctx_lk(g, k)); */
  return b_snd(r);
}

/* onehot_k v : C G with v at position k and zero elsewhere:
 * ((..((0_{C G_{>k}}, v), 0), ..), 0). O(k) nodes.
 * Reverse mode (rev_var) calls it after tr_ctx(CHAD_COT, g), so C g, the
 * C of every ancestor of g and the C of every type in g are memoised
 * (memo_inv: each filled entry's components are filled): they are read
 * from the memo table (cot_memo_ctx, cot_memo_ty) instead of calling
 * tr_ctx / tr_ty again, so that this function changes no table but the
 * term and type tables. The walk down g is kept in chad_chain_, tr_ctx's
 * scratch array (not live across calls, and not used here while tr_ctx
 * runs), which rev's assigns clause already lists. */

/* C g from the memo table; CHAD_E_UNBOUND when not memoised */
/*@ requires ctx_inv && 0 <= g < ctx_count;
    requires g == CTX_EMPTY || chad_memo_ctx_[CHAD_COT][g] >= 0;
    terminates \true; assigns \nothing;
    ensures trch(CHAD_COT, g) ==> \result == trc(CHAD_COT, g);
    ensures !trch(CHAD_COT, g) ==> \result == CHAD_E_UNBOUND;
*/
static int cot_memo_ctx(int g)
{
  if (g == CTX_EMPTY)
    return TY_ID_UNIT;
  int x = chad_memo_ctx_[CHAD_COT][g];
  return x != 0 ? x - 1 : CHAD_E_UNBOUND;
}

/* C t from the memo table; CHAD_E_UNBOUND when not memoised */
/*@ requires 0 <= t < CHAD_MAX_TYPES && chad_memo_ty_[CHAD_COT][t] >= 0;
    terminates \true; assigns \nothing;
    ensures trh(CHAD_COT, t) ==> \result == trm(CHAD_COT, t);
    ensures !trh(CHAD_COT, t) ==> \result == CHAD_E_UNBOUND;
*/
static int cot_memo_ty(int t)
{
  int x = chad_memo_ty_[CHAD_COT][t];
  return x != 0 ? x - 1 : CHAD_E_UNBOUND;
}

/* mode m's translation of t from the memo table; CHAD_E_UNBOUND when not
 * memoised. The one-child rules of F and R read the other side of a sum
 * with it (memoised with the sum, by memo_inv). */
/*@ requires memo_ty_inv && mode_ok(m) && 0 <= t < CHAD_MAX_TYPES;
    terminates \true; assigns \nothing;
    ensures trh(m, t) ==> \result == trm(m, t);
    ensures !trh(m, t) ==> \result == CHAD_E_UNBOUND;
*/
int memo_ty_get(int m, int t)
{
  //@ assert chad_memo_ty_[m][t] != 0 ==> tr_ok(m, t, chad_memo_ty_[m][t] - 1);
  int x = chad_memo_ty_[m][t];
  return x != 0 ? x - 1 : CHAD_E_UNBOUND;
}

/* The cotangent translations are linear types: the body of reverse_spec.h's
 * cot_lin (which this file does not include). */
#define COT_LIN_BODY \
  (\forall integer t; 0 <= t < CHAD_MAX_TYPES && trh(CHAD_COT, t) ==> lin(trm(CHAD_COT, t))) && \
  (\forall integer g; 0 <= g < CHAD_MAX_CTXS && trch(CHAD_COT, g) ==> lin(trc(CHAD_COT, g)))

/*@ requires kernel_inv && memo_inv && COT_LIN_BODY;
    requires 0 < g < ctx_count && trch(CHAD_COT, g) && 0 <= k < ctx_len_[g];
    requires v < 0 || (0 <= v < tm_count && ctx_valid(tm_ctx_[v]) &&
      trh(CHAD_COT, ctx_lk(g, k)) && tm_ty_[v] == trm(CHAD_COT, ctx_lk(g, k)));
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, chad_chain_[0 .. CHAD_MAX_CTXS - 1];
    ensures kernel_inv;
    ensures onehot_size: \old(tm_count) <= tm_count <= \old(tm_count) + 2 * k + 2;
    ensures \old(ty_count) <= ty_count;
    ensures onehot_neg: v < 0 ==> \result == v;
    ensures onehot_codes: v >= 0 ==> \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures onehot_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count &&
      tm_ctx_[\result] == \old(tm_ctx_[v]) && tm_ty_[\result] == trc(CHAD_COT, g);
*/
int chad_onehot_tuple(int v, int g, int k)
{
  if (v < 0)
    return v;
  if (k < 0 || k >= CHAD_MAX_CTXS || g <= 0 || g >= ctx_count)
    return CHAD_E_UNBOUND;
  /* the memo entries are >= 0 (memo_inv: a filled entry is 1 + a type
   * index), so cot_memo_ty's `entry - 1` cannot overflow; the memo tables
   * are not written below, so this holds to the end */
  /*@ assert memo_ty_nonneg: \forall integer t; 0 <= t < CHAD_MAX_TYPES ==>
        chad_memo_ty_[CHAD_COT][t] >= 0; */
  int d = tm_ctx(v);
  int gk = g, i = 0;
  chad_chain_[0] = g;
  /*@ loop invariant 0 <= i <= k;
      loop invariant 0 < gk < ctx_count && trch(CHAD_COT, gk);
      loop invariant ctx_len_[gk] == ctx_len_[g] - i;
      loop invariant ctx_lk(g, k) == ctx_lk(gk, k - i);
      loop invariant chad_chain_[0] == g && chad_chain_[i] == gk;
      loop invariant \forall integer x; 0 <= x < i ==>
        0 < chad_chain_[x] < ctx_count && trch(CHAD_COT, chad_chain_[x]) &&
        ctx_parent_[chad_chain_[x]] == chad_chain_[x + 1];
      loop assigns i, gk, chad_chain_[1 .. CHAD_MAX_CTXS - 1];
      loop variant k - i; */
  for (; i < k; i++) {     /* chad_chain_[i] = g with i entries dropped */
    //@ assert ctx_node_ok(gk);
    //@ assert trc_ok(CHAD_COT, gk, chad_memo_ctx_[CHAD_COT][gk] - 1);
    gk = ctx_parent(gk);
    //@ assert ctx_len_[gk] == ctx_len_[g] - i - 1 && ctx_len_[gk] > 0;
    if (gk <= 0)
      return CHAD_E_UNBOUND;
    chad_chain_[i + 1] = gk;
  }
  //@ assert ctx_node_ok(gk) && ctx_lk(gk, 0) == ctx_type_[gk];
  //@ assert trc_ok(CHAD_COT, gk, chad_memo_ctx_[CHAD_COT][gk] - 1);
  //@ assert trch(CHAD_COT, ctx_parent_[gk]);
  /*@ assert ctx_parent_[gk] != CTX_EMPTY ==>
        trc_ok(CHAD_COT, ctx_parent_[gk], chad_memo_ctx_[CHAD_COT][ctx_parent_[gk]] - 1); */
  //@ assert ctx_parent_[gk] == CTX_EMPTY || chad_memo_ctx_[CHAD_COT][ctx_parent_[gk]] >= 0;
  int cz = cot_memo_ctx(ctx_parent(gk));
  //@ assert cz == trc(CHAD_COT, ctx_parent_[gk]) && lin(cz);
  int z0 = b_zero(d, cz);
  int res = b_pair(z0, v);
  /*@ assert res >= 0 ==> ty_valid(tm_ty_[res]) && ty_valid(trc(CHAD_COT, gk)) &&
        ty_same(tm_ty_[res], TY_PROD, cz, trm(CHAD_COT, ctx_type_[gk])) &&
        ty_same(trc(CHAD_COT, gk), TY_PROD, cz, trm(CHAD_COT, ctx_type_[gk])); */
  //@ ghost int a0 = res >= 0 ? tm_ty_[res] : 0;
  //@ ghost int b0 = chad_memo_ctx_[CHAD_COT][gk] - 1;
  //@ assert res >= 0 ==> ty_unique && ty_valid(a0) && ty_valid(b0);
  //@ assert res >= 0 && a0 < b0 ==> !ty_same(b0, ty_kind_[a0], ty_left_[a0], ty_right_[a0]);
  //@ assert res >= 0 && b0 < a0 ==> !ty_same(a0, ty_kind_[b0], ty_left_[b0], ty_right_[b0]);
  //@ assert res >= 0 ==> a0 == b0;
  //@ assert res >= 0 ==> tm_ty_[res] == trc(CHAD_COT, gk);
  //@ assert chad_chain_[k] == gk;
  int j = k - 1;
  /*@ loop invariant -1 <= j <= k - 1;
      loop invariant kernel_inv;
      loop invariant \at(ty_count, Pre) <= ty_count;
      loop invariant \at(tm_count, Pre) <= tm_count <= \at(tm_count, Pre) + 2 * (k - 1 - j) + 2;
      loop invariant res >= 0 || res == CHAD_E_CAPACITY;
      loop invariant res >= 0 ==> \at(tm_count, Pre) <= res < tm_count && tm_ctx_[res] == d &&
        tm_ty_[res] == trc(CHAD_COT, chad_chain_[j + 1]);
      loop assigns j, res, CH_TMS_FROM(\at(tm_count, Pre)), CH_TYS_FROM(\at(ty_count, Pre));
      loop variant j + 1; */
  for (; j >= 0 && res >= 0; j--) {
    //@ assert ctx_inv;
    //@ ghost int w = chad_chain_[j];
    //@ assert 0 < w < ctx_count && trch(CHAD_COT, w) && ctx_parent_[w] == chad_chain_[j + 1];
    //@ assert ctx_node_ok(w);
    //@ assert \let x = w; \at(trc_ok(CHAD_COT, x, chad_memo_ctx_[CHAD_COT][x] - 1), Pre);
    /*@ assert \let x = w; \at(ty_valid(trc(CHAD_COT, x)) && trh(CHAD_COT, ctx_type_[x]) &&
          ty_same(trc(CHAD_COT, x), TY_PROD, trc(CHAD_COT, ctx_parent_[x]), trm(CHAD_COT, ctx_type_[x])) &&
          lin(trm(CHAD_COT, ctx_type_[x])), Pre); */
    //@ assert trh(CHAD_COT, ctx_type_[w]) && ty_valid(trc(CHAD_COT, w));
    //@ assert ty_same(trc(CHAD_COT, w), TY_PROD, trc(CHAD_COT, ctx_parent_[w]), trm(CHAD_COT, ctx_type_[w]));
    //@ assert lin(trm(CHAD_COT, ctx_type_[w]));
    //@ assert 0 <= ctx_type_[w] < CHAD_MAX_TYPES && chad_memo_ty_[CHAD_COT][ctx_type_[w]] >= 0;
    int cw = cot_memo_ty(ctx_last(chad_chain_[j]));
    //@ assert cw == trm(CHAD_COT, ctx_type_[w]) && lin(cw);
    int z = b_zero(d, cw);
    int r2 = b_pair(res, z);
    /*@ assert r2 >= 0 ==> ty_valid(tm_ty_[r2]) && ty_valid(trc(CHAD_COT, w)) &&
          ty_same(tm_ty_[r2], TY_PROD, trc(CHAD_COT, ctx_parent_[w]), cw) &&
          ty_same(trc(CHAD_COT, w), TY_PROD, trc(CHAD_COT, ctx_parent_[w]), cw); */
    //@ ghost int a1 = r2 >= 0 ? tm_ty_[r2] : 0;
    //@ ghost int b1 = chad_memo_ctx_[CHAD_COT][w] - 1;
    //@ assert r2 >= 0 ==> ty_unique && ty_valid(a1) && ty_valid(b1);
    //@ assert r2 >= 0 && a1 < b1 ==> !ty_same(b1, ty_kind_[a1], ty_left_[a1], ty_right_[a1]);
    //@ assert r2 >= 0 && b1 < a1 ==> !ty_same(a1, ty_kind_[b1], ty_left_[b1], ty_right_[b1]);
    //@ assert r2 >= 0 ==> a1 == b1;
    //@ assert r2 >= 0 ==> tm_ty_[r2] == trc(CHAD_COT, w);
    res = r2;
  }
  //@ assert res >= 0 ==> j == -1;
  //@ assert res >= 0 ==> tm_ty_[res] == trc(CHAD_COT, chad_chain_[0]) && chad_chain_[0] == g;
  return res;
}
