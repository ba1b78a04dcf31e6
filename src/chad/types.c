/* CHAD type translations (rules card §3), memoised per type id:
 *   P_fwd, T (tangent), P_rev, C (cotangent), on types and on contexts.
 * Contexts: P G pointwise; T G and C G nested pairs following the snoc list,
 * T () = C () = Unit, T (G, a) = T G * T a. */
#include "chad/chad.h"
#include "chad/kernel.h"
#include "chad_internal.h"

#define TY_DEPTH 1000

/* memo tables hold id + 1; 0 means "not computed yet" */
static int memo_ty[4][CHAD_MAX_TYPES];
static int memo_ctx[4][CHAD_MAX_CTXS];
static int memo_ty_seen;   /* ty_count when last used: a smaller one means ty_init ran */
static int memo_ctx_seen;

void chad_init(void)
{
  for (int m = 0; m < 4; m++) {
    for (int i = 0; i < CHAD_MAX_TYPES; i++)
      memo_ty[m][i] = 0;
    for (int i = 0; i < CHAD_MAX_CTXS; i++)
      memo_ctx[m][i] = 0;
  }
  memo_ty_seen = 0;
  memo_ctx_seen = 0;
}

/* The memo tables are valid as long as every type and context they were
 * computed from is still what it was: the kernel's tables are append-only
 * until ty_init/ctx_init. chad_sync compares a snapshot of the entries seen
 * so far with the kernel's (equal prefixes mean equal meanings, since
 * children have smaller ids) and clears the memo tables on any difference. */
static int snap_ty_k[CHAD_MAX_TYPES], snap_ty_l[CHAD_MAX_TYPES], snap_ty_r[CHAD_MAX_TYPES];
static int snap_ctx_p[CHAD_MAX_CTXS], snap_ctx_t[CHAD_MAX_CTXS];

void chad_sync(void)
{
  int same = ty_count >= memo_ty_seen && ctx_count >= memo_ctx_seen;
  for (int i = 0; same && i < memo_ty_seen; i++)
    same = ty_kind(i) == snap_ty_k[i] && ty_left(i) == snap_ty_l[i] && ty_right(i) == snap_ty_r[i];
  for (int i = 0; same && i < memo_ctx_seen; i++)
    same = ctx_parent(i) == snap_ctx_p[i] && ctx_last(i) == snap_ctx_t[i];
  if (!same)
    chad_init();
  for (int i = memo_ty_seen; i < ty_count; i++) {
    snap_ty_k[i] = ty_kind(i);
    snap_ty_l[i] = ty_left(i);
    snap_ty_r[i] = ty_right(i);
  }
  for (int i = memo_ctx_seen; i < ctx_count; i++) {
    snap_ctx_p[i] = ctx_parent(i);
    snap_ctx_t[i] = ctx_last(i);
  }
  memo_ty_seen = ty_count;
  memo_ctx_seen = ctx_count;
}

/* mode: CHAD_PFWD, CHAD_TAN, CHAD_PREV, CHAD_COT */
/*@ requires depth >= 0;
    decreases TY_DEPTH + 1 - depth; */
static int ty_tr(int mode, int t, int depth)
{
  if (depth > TY_DEPTH)
    return CHAD_E_DEPTH;
  if (t < 0 || t >= ty_count)
    return CHAD_E_ARG;
  if (memo_ty[mode][t] > 0)
    return memo_ty[mode][t] - 1;
  int k = ty_kind(t), l = ty_left(t), r = ty_right(t), res;
  int lin = (mode == CHAD_TAN || mode == CHAD_COT);
  switch (k) {
  case TY_REAL: res = TY_ID_REAL; break;
  case TY_INT: res = lin ? TY_ID_UNIT : TY_ID_INT; break;
  case TY_UNIT: res = TY_ID_UNIT; break;
  case TY_PROD: case TY_SUM: {
    int a = ty_tr(mode, l, depth + 1);
    if (a < 0) return a;
    int b = ty_tr(mode, r, depth + 1);
    if (b < 0) return b;
    res = (k == TY_PROD || lin) ? ty_prod(a, b) : ty_sum(a, b);
    break;
  }
  case TY_ARR: {
    int a = ty_tr(mode, l, depth + 1);
    if (a < 0) return a;
    res = ty_arr(a);
    break;
  }
  case TY_FUN: {
    int pmode = (mode == CHAD_PFWD || mode == CHAD_TAN) ? CHAD_PFWD : CHAD_PREV;
    int pa = ty_tr(pmode, l, depth + 1);
    if (pa < 0) return pa;
    if (mode == CHAD_TAN) {           /* T(a->b) = Pa -> Tb                 */
      int tb = ty_tr(CHAD_TAN, r, depth + 1);
      if (tb < 0) return tb;
      res = ty_fun(pa, tb);
    } else if (mode == CHAD_COT) {    /* C(a->b) = !Pa (x) Cb               */
      int cb = ty_tr(CHAD_COT, r, depth + 1);
      if (cb < 0) return cb;
      res = ty_copow(pa, cb);
    } else {                          /* P(a->b) = Pa -> Pb * (D -o D')     */
      int lmode = (mode == CHAD_PFWD) ? CHAD_TAN : CHAD_COT;
      int pb = ty_tr(mode, r, depth + 1);
      if (pb < 0) return pb;
      int da = ty_tr(lmode, l, depth + 1);
      if (da < 0) return da;
      int db = ty_tr(lmode, r, depth + 1);
      if (db < 0) return db;
      int lf = (mode == CHAD_PFWD) ? ty_lfun(da, db) : ty_lfun(db, da);
      if (lf < 0) return lf;
      int pr = ty_prod(pb, lf);
      if (pr < 0) return pr;
      res = ty_fun(pa, pr);
    }
    break;
  }
  default:
    return CHAD_E_TYPE;                /* -o and copowers are not source types */
  }
  if (res < 0)
    return res;
  memo_ty[mode][t] = res + 1;
  return res;
}

int tr_ty(int mode, int t)
{
  if (mode < 0 || mode > 3)
    return CHAD_E_ARG;
  return ty_tr(mode, t, 0);
}

int chad_ty(int mode, int t)
{
  chad_sync();
  return tr_ty(mode, t);
}

int chad_ty_pfwd(int t) { return chad_ty(CHAD_PFWD, t); }
int chad_ty_tan(int t) { return chad_ty(CHAD_TAN, t); }
int chad_ty_prev(int t) { return chad_ty(CHAD_PREV, t); }
int chad_ty_cot(int t) { return chad_ty(CHAD_COT, t); }

/* Context translation, iterative (contexts can be long): walk up to the
 * nearest memoised ancestor (or the empty context), then back down. */
static int chain_[CHAD_MAX_CTXS];

int chad_ctx(int mode, int g)
{
  chad_sync();
  return tr_ctx(mode, g);
}

int tr_ctx(int mode, int g)
{
  if (mode < 0 || mode > 3)
    return CHAD_E_ARG;
  if (g < 0 || g >= ctx_count)
    return CHAD_E_ARG;
  int lin = (mode == CHAD_TAN || mode == CHAD_COT);
  int n = 0, cur = g;
  while (cur != CTX_EMPTY && memo_ctx[mode][cur] == 0) {
    if (n >= CHAD_MAX_CTXS)
      return CHAD_E_DEPTH;
    chain_[n++] = cur;
    cur = ctx_parent(cur);
    if (cur < 0)
      return CHAD_E_ARG;
  }
  int acc;
  if (cur == CTX_EMPTY)
    acc = lin ? TY_ID_UNIT : CTX_EMPTY;
  else
    acc = memo_ctx[mode][cur] - 1;
  while (n > 0) {
    int c = chain_[--n];
    int a = tr_ty(mode, ctx_last(c));
    if (a < 0)
      return a;
    acc = lin ? ty_prod(acc, a) : ctx_extend(acc, a);
    if (acc < 0)
      return acc;
    memo_ctx[mode][c] = acc + 1;
  }
  return acc;
}

int chad_ctx_pfwd(int g) { return chad_ctx(CHAD_PFWD, g); }
int chad_ctx_tan(int g) { return chad_ctx(CHAD_TAN, g); }
int chad_ctx_prev(int g) { return chad_ctx(CHAD_PREV, g); }
int chad_ctx_cot(int g) { return chad_ctx(CHAD_COT, g); }

/* proj_k v for v : T G (or C G): snd (fst^k v). O(k) nodes. */
int chad_proj_tuple(int v, int k)
{
  int r = v;
  for (int i = 0; i < k && r >= 0; i++)
    r = b_fst(r);
  return b_snd(r);
}

/* onehot_k v : C G with v at position k and zero elsewhere:
 * ((..((0_{C G_{>k}}, v), 0), ..), 0). O(k) nodes. */
static int walk_[CHAD_MAX_CTXS];

int chad_onehot_tuple(int v, int g, int k)
{
  if (v < 0)
    return v;
  if (k < 0 || k >= CHAD_MAX_CTXS)
    return CHAD_E_UNBOUND;
  int d = tm_ctx(v);
  int gk = g;
  for (int i = 0; i < k; i++) {     /* walk_[i] = g with i entries dropped */
    walk_[i] = gk;
    gk = ctx_parent(gk);
    if (gk < 0)
      return CHAD_E_UNBOUND;
  }
  if (gk == CTX_EMPTY)
    return CHAD_E_UNBOUND;
  int res = b_pair(b_zero(d, tr_ctx(CHAD_COT, ctx_parent(gk))), v);
  /* wrap with the zeros of the k inner entries, from entry k-1 down to 0 */
  for (int j = k - 1; j >= 0 && res >= 0; j--)
    res = b_pair(res, b_zero(d, tr_ty(CHAD_COT, ctx_last(walk_[j]))));
  return res;
}
