/* The term arena. Every constructor checks the typing rule of its kind
 * (spec/kernel.md; node_fields_ok in kernel_spec.h) against the stored
 * contexts and types of its children and appends one node, or returns a
 * negative CHAD_E_* code and leaves the arena unchanged.
 *
 * Contract shape of every constructor (proved by WP): on success exactly
 * one node is appended, with the stated kind, context, type, children and
 * aux, and every node of the arena is still well typed (tm_inv); on failure
 * tm_count and ty_count are unchanged; CHAD_E_ARG and CHAD_E_TYPE are
 * returned exactly when the arguments are out of range, resp. when they are
 * in range but the typing rule fails. */
#include "chad/kernel.h"
#include "kernel_spec.h"

int tm_count;
int tm_kind_[CHAD_MAX_TERMS];
int tm_ctx_[CHAD_MAX_TERMS];
int tm_ty_[CHAD_MAX_TERMS];
int tm_a_[CHAD_MAX_TERMS];
int tm_b_[CHAD_MAX_TERMS];
int tm_c_[CHAD_MAX_TERMS];
int64_t tm_aux_[CHAD_MAX_TERMS];
double tm_rval_[CHAD_MAX_TERMS];

/* Specification shorthands (expanded inside the ACSL comments). */
#define TM_LOCS tm_count, tm_kind_[tm_count], tm_ctx_[tm_count], tm_ty_[tm_count], \
  tm_a_[tm_count], tm_b_[tm_count], tm_c_[tm_count], tm_aux_[tm_count], tm_rval_[tm_count]
#define TY_LOCS ty_count, ty_kind_[ty_count], ty_left_[ty_count], ty_right_[ty_count], \
  ty_lin_[ty_count], ty_tan_[ty_count]
#define NEW_NODE(k, g_, a_, b_, c_, x_) (\result == \old(tm_count) && \
  tm_count == \old(tm_count) + 1 && tm_kind_[\result] == (k) && tm_ctx_[\result] == (g_) && \
  tm_a_[\result] == (a_) && tm_b_[\result] == (b_) && tm_c_[\result] == (c_) && \
  tm_aux_[\result] == (x_))
/* Types are only ever appended (the checker and the CHAD macros rely on it). */
#define TY_GROW (\old(ty_count) <= ty_count)
#define UNCHANGED (\result < 0 ==> tm_count == \old(tm_count) && ty_count == \old(ty_count)) && \
  TY_GROW
#define FULL (\result == CHAD_E_CAPACITY ==> \
  \old(tm_count) == CHAD_MAX_TERMS || \old(ty_count) == CHAD_MAX_TYPES)
#define CODES(e) (\result >= 0 || \result == CHAD_E_ARG || \result == (e) || \
  \result == CHAD_E_CAPACITY)

#define TM_OK(t) (0 <= (t) && (t) < tm_count)
#define CTX_OK(g) (0 <= (g) && (g) < ctx_count)
#define TY_OK(t) (0 <= (t) && (t) < ty_count)
#define OP_OK(o) (0 <= (o) && (o) < op_count)
#define FULL_ARENA (tm_count >= CHAD_MAX_TERMS)

/*@ terminates \true;
    assigns tm_count;
    ensures tm_inv && tm_count == 0;
*/
void tm_init(void) { tm_count = 0; }

/* The one place that writes the arena: appends a node whose typing rule
 * holds (the caller has checked it), so the invariant is kept. Callers
 * assert tm_wf of the children before the call: without it cvc5 ran to its
 * quick limit on the ctx_valid/ty_valid and typing preconditions of 14
 * call sites (instances of tm_inv's quantifier it did not find). */
/*@ requires kernel_inv;
    requires 0 <= tm_count < CHAD_MAX_TERMS;
    requires -1 <= a < tm_count && -1 <= b < tm_count && -1 <= c < tm_count;
    requires ctx_valid(g) && ty_valid(ty);
    requires node_fields_ok(tm_count, kind, g, ty, a, b, c, aux,
      tm_ctx_[a], tm_ty_[a], tm_ctx_[b], tm_ty_[b], tm_ctx_[c], tm_ty_[c]);
    terminates \true;
    assigns TM_LOCS;
    ensures push_ty: ty_inv;
    ensures push_ctx: ctx_inv;
    ensures push_op: op_inv;
    ensures push_tm: tm_inv;
    ensures push_count: \result == \old(tm_count) && tm_count == \old(tm_count) + 1;
    ensures push_fields: tm_kind_[\result] == kind && tm_ctx_[\result] == g &&
      tm_ty_[\result] == ty && tm_a_[\result] == a && tm_b_[\result] == b &&
      tm_c_[\result] == c && tm_aux_[\result] == aux;
    ensures push_rval: tm_rval_[\result] == r;
*/
static int tm_push(int kind, int g, int ty, int a, int b, int c, int64_t aux,
                   double r)
{
  int n = tm_count;
  tm_kind_[n] = kind;
  tm_ctx_[n] = g;
  tm_ty_[n] = ty;
  tm_a_[n] = a;
  tm_b_[n] = b;
  tm_c_[n] = c;
  tm_aux_[n] = aux;
  tm_rval_[n] = r;
  tm_count = n + 1;
  //@ assert links: \forall integer i; 0 <= i < n ==> node_links(i);
  //@ assert wf: \forall integer i; 0 <= i <= n ==> tm_wf(i);
  //@ assert old: \forall integer i; 0 <= i < n ==> node_ok(i);
  //@ assert tm_wf(n);
  return n;
}

/* ty_make, seen from the term arena: adding a type keeps every node well
 * typed (node_fields_ok only reads types below ty_count). */
/*@ requires kernel_inv;
    terminates \true;
    assigns TY_LOCS;
    ensures kernel_inv;
    ensures \old(ty_count) <= ty_count <= \old(ty_count) + 1;
    ensures \result >= 0 ==> ty_valid(\result) && ty_same(\result, kind, left, right);
    ensures \result < 0 ==> ty_count == \old(ty_count);
    ensures \result >= 0 || \result == CHAD_E_ARG || \result == CHAD_E_CAPACITY;
    ensures \old(ty_shape(kind, left, right, ty_count)) ==> \result != CHAD_E_ARG;
    ensures \result == CHAD_E_CAPACITY ==> \old(ty_count) == CHAD_MAX_TYPES;
*/
static int tm_mkty(int kind, int left, int right)
{
  int r = ty_make(kind, left, right);
  /* kernel_inv one part at a time: as one goal, with ty_inv's quantifier
   * over the ghost tangent column among the hypotheses, it timed out */
  //@ assert mk_ty: ty_inv;
  //@ assert mk_ctx: ctx_inv;
  //@ assert mk_op: op_inv;
  //@ assert mk_wf: \forall integer i; 0 <= i < tm_count ==> tm_wf(i);
  //@ assert mk_ok: \forall integer i; 0 <= i < tm_count ==> node_ok(i);
  return r;
}

#define IS_EXT(e, g, t) (0 < (e) && (e) < ctx_count && ctx_parent_[e] == (g) && \
                         ctx_type_[e] == (t))

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !ctx_valid(g);
    ensures \result == CHAD_E_UNBOUND <==> ctx_valid(g) && !(0 <= k < ctx_len_[g]);
    ensures \result >= 0 ==> NEW_NODE(TM_VAR, g, -1, -1, -1, k) &&
      tm_ty_[\result] == ctx_lk(g, k);
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_UNBOUND);
*/
int tm_var(int g, int k)
{
  if (!CTX_OK(g))
    return CHAD_E_ARG;
  int t = ctx_lookup(g, k);
  if (t < 0)
    return t;
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  return tm_push(TM_VAR, g, t, -1, -1, -1, k, 0.0);
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !\old(tm_valid(bound) && tm_valid(body));
    ensures \result == CHAD_E_TYPE <==>
      \old(tm_valid(bound) && tm_valid(body) && !let_ok(tm_ctx_[bound], tm_ty_[bound], tm_ctx_[body]));
    ensures \result >= 0 ==> NEW_NODE(TM_LET, \old(tm_ctx_[bound]), bound, body, -1, 0) &&
      tm_ty_[\result] == \old(tm_ty_[body]);
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_TYPE);
*/
int tm_let(int bound, int body)
{
  if (!TM_OK(bound) || !TM_OK(body))
    return CHAD_E_ARG;
  int g = tm_ctx_[bound];
  if (!IS_EXT(tm_ctx_[body], g, tm_ty_[bound]))
    return CHAD_E_TYPE;
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  //@ assert tm_wf(bound) && tm_wf(body);
  int node = tm_push(TM_LET, g, tm_ty_[body], bound, body, -1, 0, 0.0);
  //@ assert kernel_inv;
  return node;
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS, TY_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !\old(ty_valid(dom) && tm_valid(body));
    ensures \result == CHAD_E_TYPE <==>
      \old(ty_valid(dom) && tm_valid(body) && !lam_ok(dom, tm_ctx_[body]));
    ensures \result >= 0 ==>
      NEW_NODE(TM_LAM, ctx_parent_[\old(tm_ctx_[body])], body, -1, -1, 0) &&
      ty_same(tm_ty_[\result], TY_FUN, dom, \old(tm_ty_[body]));
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_TYPE);
    ensures TY_GROW;
*/
int tm_lam(int dom, int body)
{
  if (!TY_OK(dom) || !TM_OK(body))
    return CHAD_E_ARG;
  //@ assert tm_wf(body);
  int e = tm_ctx_[body];
  if (e <= 0 || e >= ctx_count || ctx_type_[e] != dom)
    return CHAD_E_TYPE;
  //@ assert ctx_node_ok(e);
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  int t = tm_mkty(TY_FUN, dom, tm_ty_[body]);
  if (t < 0)
    return t;
  int node = tm_push(TM_LAM, ctx_parent_[e], t, body, -1, -1, 0, 0.0);
  //@ assert kernel_inv;
  return node;
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS, TY_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !\old(ty_valid(dom) && tm_valid(body));
    ensures \result == CHAD_E_TYPE <==>
      \old(ty_valid(dom) && tm_valid(body) && !llam_ok(dom, tm_ctx_[body], tm_ty_[body]));
    ensures \result >= 0 ==>
      NEW_NODE(TM_LLAM, ctx_parent_[\old(tm_ctx_[body])], body, -1, -1, 0) &&
      ty_same(tm_ty_[\result], TY_LFUN, dom, \old(tm_ty_[body]));
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_TYPE);
    ensures TY_GROW;
*/
int tm_llam(int dom, int body)
{
  if (!TY_OK(dom) || !TM_OK(body))
    return CHAD_E_ARG;
  //@ assert tm_wf(body);
  int e = tm_ctx_[body];
  if (e <= 0 || e >= ctx_count || ctx_type_[e] != dom || !ty_is_linear(tm_ty_[body]))
    return CHAD_E_TYPE;
  //@ assert ctx_node_ok(e);
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  int t = tm_mkty(TY_LFUN, dom, tm_ty_[body]);
  if (t < 0)
    return t;
  return tm_push(TM_LLAM, ctx_parent_[e], t, body, -1, -1, 0, 0.0);
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !\old(tm_valid(f) && tm_valid(x));
    ensures \result == CHAD_E_TYPE <==>
      \old(tm_valid(f) && tm_valid(x) && !app_ok(TY_FUN, tm_ctx_[f], tm_ty_[f], tm_ctx_[x], tm_ty_[x]));
    ensures \result >= 0 ==> NEW_NODE(TM_APP, \old(tm_ctx_[f]), f, x, -1, 0) &&
      tm_ty_[\result] == ty_right_[\old(tm_ty_[f])];
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_TYPE);
*/
int tm_app(int f, int x)
{
  if (!TM_OK(f) || !TM_OK(x))
    return CHAD_E_ARG;
  //@ assert tm_wf(f);
  int tf = tm_ty_[f];
  if (tm_ctx_[f] != tm_ctx_[x] || ty_kind_[tf] != TY_FUN || ty_left_[tf] != tm_ty_[x])
    return CHAD_E_TYPE;
  //@ assert ty_node_ok(tf);
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  return tm_push(TM_APP, tm_ctx_[f], ty_right_[tf], f, x, -1, 0, 0.0);
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !\old(tm_valid(f) && tm_valid(x));
    ensures \result == CHAD_E_TYPE <==>
      \old(tm_valid(f) && tm_valid(x) && !app_ok(TY_LFUN, tm_ctx_[f], tm_ty_[f], tm_ctx_[x], tm_ty_[x]));
    ensures \result >= 0 ==> NEW_NODE(TM_LAPP, \old(tm_ctx_[f]), f, x, -1, 0) &&
      tm_ty_[\result] == ty_right_[\old(tm_ty_[f])];
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_TYPE);
*/
int tm_lapp(int f, int x)
{
  if (!TM_OK(f) || !TM_OK(x))
    return CHAD_E_ARG;
  //@ assert tm_wf(f);
  int tf = tm_ty_[f];
  if (tm_ctx_[f] != tm_ctx_[x] || ty_kind_[tf] != TY_LFUN || ty_left_[tf] != tm_ty_[x])
    return CHAD_E_TYPE;
  //@ assert ty_node_ok(tf);
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  return tm_push(TM_LAPP, tm_ctx_[f], ty_right_[tf], f, x, -1, 0, 0.0);
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !ctx_valid(g);
    ensures \result >= 0 ==> NEW_NODE(TM_UNIT, g, -1, -1, -1, 0) &&
      tm_ty_[\result] == TY_ID_UNIT;
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_ARG);
*/
int tm_unit(int g)
{
  if (!CTX_OK(g))
    return CHAD_E_ARG;
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  return tm_push(TM_UNIT, g, TY_ID_UNIT, -1, -1, -1, 0, 0.0);
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS, TY_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !\old(tm_valid(a) && tm_valid(b));
    ensures \result == CHAD_E_TYPE <==>
      \old(tm_valid(a) && tm_valid(b) && tm_ctx_[a] != tm_ctx_[b]);
    ensures \result >= 0 ==> NEW_NODE(TM_PAIR, \old(tm_ctx_[a]), a, b, -1, 0) &&
      ty_same(tm_ty_[\result], TY_PROD, \old(tm_ty_[a]), \old(tm_ty_[b]));
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_TYPE);
    ensures TY_GROW;
*/
int tm_pair(int a, int b)
{
  if (!TM_OK(a) || !TM_OK(b))
    return CHAD_E_ARG;
  if (tm_ctx_[a] != tm_ctx_[b])
    return CHAD_E_TYPE;
  //@ assert tm_wf(a) && tm_wf(b);
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  int t = tm_mkty(TY_PROD, tm_ty_[a], tm_ty_[b]);
  if (t < 0)
    return t;
  return tm_push(TM_PAIR, tm_ctx_[a], t, a, b, -1, 0, 0.0);
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS, TY_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !\old(tm_valid(x) && tm_valid(v));
    ensures \result == CHAD_E_TYPE <==>
      \old(tm_valid(x) && tm_valid(v) && !cps_ok(tm_ctx_[x], tm_ctx_[v], tm_ty_[v]));
    ensures \result >= 0 ==> NEW_NODE(TM_CP_SINGLE, \old(tm_ctx_[x]), x, v, -1, 0) &&
      ty_same(tm_ty_[\result], TY_COPOW, \old(tm_ty_[x]), \old(tm_ty_[v]));
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_TYPE);
    ensures TY_GROW;
*/
int tm_cp_single(int x, int v)
{
  if (!TM_OK(x) || !TM_OK(v))
    return CHAD_E_ARG;
  //@ assert tm_wf(x) && tm_wf(v);
  if (tm_ctx_[x] != tm_ctx_[v] || !ty_is_linear(tm_ty_[v]))
    return CHAD_E_TYPE;
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  int t = tm_mkty(TY_COPOW, tm_ty_[x], tm_ty_[v]);
  if (t < 0)
    return t;
  //@ assert cps_ok(tm_ctx_[x], tm_ctx_[v], tm_ty_[v]) && ty_same(t, TY_COPOW, tm_ty_[x], tm_ty_[v]);
  return tm_push(TM_CP_SINGLE, tm_ctx_[x], t, x, v, -1, 0, 0.0);
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !\old(tm_valid(p));
    ensures \result == CHAD_E_TYPE <==> \old(tm_valid(p) && !proj_ok(tm_ty_[p]));
    ensures \result >= 0 ==> NEW_NODE(TM_FST, \old(tm_ctx_[p]), p, -1, -1, 0) &&
      tm_ty_[\result] == ty_left_[\old(tm_ty_[p])];
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_TYPE);
*/
int tm_fst(int p)
{
  if (!TM_OK(p))
    return CHAD_E_ARG;
  //@ assert tm_wf(p);
  int tp = tm_ty_[p];
  if (ty_kind_[tp] != TY_PROD)
    return CHAD_E_TYPE;
  //@ assert ty_node_ok(tp);
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  return tm_push(TM_FST, tm_ctx_[p], ty_left_[tp], p, -1, -1, 0, 0.0);
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !\old(tm_valid(p));
    ensures \result == CHAD_E_TYPE <==> \old(tm_valid(p) && !proj_ok(tm_ty_[p]));
    ensures \result >= 0 ==> NEW_NODE(TM_SND, \old(tm_ctx_[p]), p, -1, -1, 0) &&
      tm_ty_[\result] == ty_right_[\old(tm_ty_[p])];
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_TYPE);
*/
int tm_snd(int p)
{
  if (!TM_OK(p))
    return CHAD_E_ARG;
  //@ assert tm_wf(p);
  int tp = tm_ty_[p];
  if (ty_kind_[tp] != TY_PROD)
    return CHAD_E_TYPE;
  //@ assert ty_node_ok(tp);
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  return tm_push(TM_SND, tm_ctx_[p], ty_right_[tp], p, -1, -1, 0, 0.0);
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS, TY_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !\old(tm_valid(x) && ty_valid(right_ty));
    ensures \result >= 0 ==> NEW_NODE(TM_INL, \old(tm_ctx_[x]), x, -1, -1, 0) &&
      ty_same(tm_ty_[\result], TY_SUM, \old(tm_ty_[x]), right_ty);
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_ARG);
    ensures TY_GROW;
*/
int tm_inl(int x, int right_ty)
{
  if (!TM_OK(x) || !TY_OK(right_ty))
    return CHAD_E_ARG;
  //@ assert tm_wf(x);
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  int t = tm_mkty(TY_SUM, tm_ty_[x], right_ty);
  if (t < 0)
    return t;
  return tm_push(TM_INL, tm_ctx_[x], t, x, -1, -1, 0, 0.0);
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS, TY_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !\old(tm_valid(x) && ty_valid(left_ty));
    ensures \result >= 0 ==> NEW_NODE(TM_INR, \old(tm_ctx_[x]), x, -1, -1, 0) &&
      ty_same(tm_ty_[\result], TY_SUM, left_ty, \old(tm_ty_[x]));
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_ARG);
    ensures TY_GROW;
*/
int tm_inr(int left_ty, int x)
{
  if (!TM_OK(x) || !TY_OK(left_ty))
    return CHAD_E_ARG;
  //@ assert tm_wf(x);
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  int t = tm_mkty(TY_SUM, left_ty, tm_ty_[x]);
  if (t < 0)
    return t;
  return tm_push(TM_INR, tm_ctx_[x], t, x, -1, -1, 0, 0.0);
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==>
      !\old(tm_valid(scrut) && tm_valid(on_left) && tm_valid(on_right));
    ensures \result == CHAD_E_TYPE <==>
      \old(tm_valid(scrut) && tm_valid(on_left) && tm_valid(on_right) &&
           !case_ok(tm_ctx_[scrut], tm_ty_[scrut], tm_ctx_[on_left], tm_ty_[on_left],
                   tm_ctx_[on_right], tm_ty_[on_right]));
    ensures \result >= 0 ==>
      NEW_NODE(TM_CASE, \old(tm_ctx_[scrut]), scrut, on_left, on_right, 0) &&
      tm_ty_[\result] == \old(tm_ty_[on_left]);
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_TYPE);
*/
int tm_case(int scrut, int on_left, int on_right)
{
  if (!TM_OK(scrut) || !TM_OK(on_left) || !TM_OK(on_right))
    return CHAD_E_ARG;
  //@ assert tm_wf(scrut) && tm_wf(on_left);
  int g = tm_ctx_[scrut];
  int ts = tm_ty_[scrut];
  if (ty_kind_[ts] != TY_SUM ||
      !IS_EXT(tm_ctx_[on_left], g, ty_left_[ts]) ||
      !IS_EXT(tm_ctx_[on_right], g, ty_right_[ts]) ||
      tm_ty_[on_left] != tm_ty_[on_right])
    return CHAD_E_TYPE;
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  return tm_push(TM_CASE, g, tm_ty_[on_left], scrut, on_left, on_right, 0, 0.0);
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !ctx_valid(g);
    ensures \result >= 0 ==> NEW_NODE(TM_RCONST, g, -1, -1, -1, 0) &&
      tm_ty_[\result] == TY_ID_REAL && tm_rval_[\result] == r;
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_ARG);
*/
int tm_rconst(int g, double r)
{
  if (!CTX_OK(g))
    return CHAD_E_ARG;
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  return tm_push(TM_RCONST, g, TY_ID_REAL, -1, -1, -1, 0, r);
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !ctx_valid(g);
    ensures \result >= 0 ==> NEW_NODE(TM_ICONST, g, -1, -1, -1, n) &&
      tm_ty_[\result] == TY_ID_INT;
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_ARG);
*/
int tm_iconst(int g, int64_t n)
{
  if (!CTX_OK(g))
    return CHAD_E_ARG;
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  return tm_push(TM_ICONST, g, TY_ID_INT, -1, -1, -1, n, 0.0);
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !(0 <= op < op_count && \old(tm_valid(arg)));
    ensures \result == CHAD_E_TYPE <==>
      0 <= op < op_count && \old(tm_valid(arg) && tm_ty_[arg] != op_dom_[op]);
    ensures \result >= 0 ==> NEW_NODE(TM_OP, \old(tm_ctx_[arg]), arg, -1, -1, op) &&
      tm_ty_[\result] == op_cod_[op];
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_TYPE);
*/
int tm_op(int op, int arg)
{
  if (!OP_OK(op) || !TM_OK(arg))
    return CHAD_E_ARG;
  if (tm_ty_[arg] != op_dom_[op])
    return CHAD_E_TYPE;
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  //@ assert tm_wf(arg);
  return tm_push(TM_OP, tm_ctx_[arg], op_cod_[op], arg, -1, -1, op, 0.0);
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !\old(tm_valid(n) && tm_valid(body) && tm_valid(init));
    ensures \result == CHAD_E_TYPE <==>
      \old(tm_valid(n) && tm_valid(body) && tm_valid(init) && !iter_ok(tm_ctx_[n], tm_ty_[n], tm_ctx_[body], tm_ty_[body],
                                      tm_ctx_[init], tm_ty_[init]));
    ensures \result >= 0 ==> NEW_NODE(TM_ITER, \old(tm_ctx_[n]), n, body, init, 0) &&
      tm_ty_[\result] == \old(tm_ty_[init]);
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_TYPE);
*/
int tm_iter(int n, int body, int init)
{
  if (!TM_OK(n) || !TM_OK(body) || !TM_OK(init))
    return CHAD_E_ARG;
  int g = tm_ctx_[n];
  int t = tm_ty_[init];
  if (tm_ty_[n] != TY_ID_INT || tm_ctx_[init] != g ||
      !IS_EXT(tm_ctx_[body], g, t) || tm_ty_[body] != t)
    return CHAD_E_TYPE;
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  /* hint: without it cvc5 needed 8.3 s for tm_push's typing precondition */
  //@ assert iter_ok(g, tm_ty_[n], tm_ctx_[body], tm_ty_[body], tm_ctx_[init], t);
  //@ assert tm_wf(n) && tm_wf(body) && tm_wf(init);
  int node = tm_push(TM_ITER, g, t, n, body, init, 0, 0.0);
  //@ assert kernel_inv;
  return node;
}

/* loop n (x. b) s: the body answers tau + tau (inl: go on, inr: stop). */
/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !\old(tm_valid(n) && tm_valid(body) && tm_valid(init));
    ensures \result == CHAD_E_TYPE <==>
      \old(tm_valid(n) && tm_valid(body) && tm_valid(init) && !loop_ok(tm_ctx_[n], tm_ty_[n], tm_ctx_[body], tm_ty_[body],
                                      tm_ctx_[init], tm_ty_[init]));
    ensures \result >= 0 ==> NEW_NODE(TM_LOOP, \old(tm_ctx_[n]), n, body, init, 0) &&
      tm_ty_[\result] == \old(tm_ty_[init]);
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_TYPE);
*/
int tm_loop(int n, int body, int init)
{
  if (!TM_OK(n) || !TM_OK(body) || !TM_OK(init))
    return CHAD_E_ARG;
  //@ assert tm_wf(n) && tm_wf(body) && tm_wf(init);
  int g = tm_ctx_[n];
  int t = tm_ty_[init];
  int tb = tm_ty_[body];
  if (tm_ty_[n] != TY_ID_INT || tm_ctx_[init] != g ||
      !IS_EXT(tm_ctx_[body], g, t) || ty_kind_[tb] != TY_SUM ||
      ty_left_[tb] != t || ty_right_[tb] != t)
    return CHAD_E_TYPE;
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  //@ assert loop_ok(g, tm_ty_[n], tm_ctx_[body], tb, tm_ctx_[init], t);
  int node = tm_push(TM_LOOP, g, t, n, body, init, 0, 0.0);
  //@ assert kernel_inv;
  return node;
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS, TY_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !\old(tm_valid(n) && tm_valid(body));
    ensures \result == CHAD_E_TYPE <==>
      \old(tm_valid(n) && tm_valid(body) && !build_ok(tm_ctx_[n], tm_ty_[n], tm_ctx_[body]));
    ensures \result >= 0 ==> NEW_NODE(TM_BUILD, \old(tm_ctx_[n]), n, body, -1, 0) &&
      ty_same(tm_ty_[\result], TY_ARR, \old(tm_ty_[body]), -1);
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_TYPE);
    ensures TY_GROW;
*/
int tm_build(int n, int body)
{
  if (!TM_OK(n) || !TM_OK(body))
    return CHAD_E_ARG;
  int g = tm_ctx_[n];
  if (tm_ty_[n] != TY_ID_INT || !IS_EXT(tm_ctx_[body], g, TY_ID_INT))
    return CHAD_E_TYPE;
  //@ assert tm_wf(n) && tm_wf(body);
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  int t = tm_mkty(TY_ARR, tm_ty_[body], -1);
  if (t < 0)
    return t;
  int node = tm_push(TM_BUILD, g, t, n, body, -1, 0, 0.0);
  //@ assert kernel_inv;
  return node;
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !\old(tm_valid(n) && tm_valid(body));
    ensures \result == CHAD_E_TYPE <==>
      \old(tm_valid(n) && tm_valid(body) && !lsum_ok(tm_ctx_[n], tm_ty_[n], tm_ctx_[body], tm_ty_[body]));
    ensures \result >= 0 ==> NEW_NODE(TM_LSUM, \old(tm_ctx_[n]), n, body, -1, 0) &&
      tm_ty_[\result] == \old(tm_ty_[body]);
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_TYPE);
*/
int tm_lsum(int n, int body)
{
  if (!TM_OK(n) || !TM_OK(body))
    return CHAD_E_ARG;
  int g = tm_ctx_[n];
  if (tm_ty_[n] != TY_ID_INT || !IS_EXT(tm_ctx_[body], g, TY_ID_INT) ||
      !ty_is_linear(tm_ty_[body]))
    return CHAD_E_TYPE;
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  //@ assert tm_wf(n) && tm_wf(body);
  return tm_push(TM_LSUM, g, tm_ty_[body], n, body, -1, 0, 0.0);
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !\old(tm_valid(arr) && tm_valid(i));
    ensures \result == CHAD_E_TYPE <==>
      \old(tm_valid(arr) && tm_valid(i) && !index_ok(tm_ctx_[arr], tm_ty_[arr], tm_ctx_[i], tm_ty_[i]));
    ensures \result >= 0 ==> NEW_NODE(TM_INDEX, \old(tm_ctx_[arr]), arr, i, -1, 0) &&
      tm_ty_[\result] == ty_left_[\old(tm_ty_[arr])];
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_TYPE);
*/
int tm_index(int arr, int i)
{
  if (!TM_OK(arr) || !TM_OK(i))
    return CHAD_E_ARG;
  //@ assert tm_wf(arr);
  int ta = tm_ty_[arr];
  if (ty_kind_[ta] != TY_ARR || tm_ty_[i] != TY_ID_INT ||
      tm_ctx_[arr] != tm_ctx_[i])
    return CHAD_E_TYPE;
  //@ assert ty_node_ok(ta);
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  return tm_push(TM_INDEX, tm_ctx_[arr], ty_left_[ta], arr, i, -1, 0, 0.0);
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !\old(tm_valid(arr));
    ensures \result == CHAD_E_TYPE <==> \old(tm_valid(arr) && !arr_ok(tm_ty_[arr]));
    ensures \result >= 0 ==> NEW_NODE(TM_LENGTH, \old(tm_ctx_[arr]), arr, -1, -1, 0) &&
      tm_ty_[\result] == TY_ID_INT;
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_TYPE);
*/
int tm_length(int arr)
{
  if (!TM_OK(arr))
    return CHAD_E_ARG;
  //@ assert tm_wf(arr);
  if (ty_kind_[tm_ty_[arr]] != TY_ARR)
    return CHAD_E_TYPE;
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  return tm_push(TM_LENGTH, tm_ctx_[arr], TY_ID_INT, arr, -1, -1, 0, 0.0);
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS, TY_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !\old(tm_valid(body) && tm_valid(arr));
    ensures \result == CHAD_E_TYPE <==>
      \old(tm_valid(body) && tm_valid(arr) && !map_ok(tm_ctx_[body], tm_ctx_[arr], tm_ty_[arr]));
    ensures \result >= 0 ==> NEW_NODE(TM_MAP, \old(tm_ctx_[arr]), body, arr, -1, 0) &&
      ty_same(tm_ty_[\result], TY_ARR, \old(tm_ty_[body]), -1);
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_TYPE);
    ensures TY_GROW;
*/
int tm_map(int body, int arr)
{
  if (!TM_OK(body) || !TM_OK(arr))
    return CHAD_E_ARG;
  //@ assert tm_wf(arr) && tm_wf(body);
  int g = tm_ctx_[arr];
  int ta = tm_ty_[arr];
  if (ty_kind_[ta] != TY_ARR || !IS_EXT(tm_ctx_[body], g, ty_left_[ta]))
    return CHAD_E_TYPE;
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  int t = tm_mkty(TY_ARR, tm_ty_[body], -1);
  if (t < 0)
    return t;
  return tm_push(TM_MAP, g, t, body, arr, -1, 0, 0.0);
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !\old(tm_valid(arr));
    ensures \result == CHAD_E_TYPE <==> \old(tm_valid(arr) && !sum_ok(tm_ty_[arr]));
    ensures \result >= 0 ==> NEW_NODE(TM_SUM, \old(tm_ctx_[arr]), arr, -1, -1, 0) &&
      tm_ty_[\result] == TY_ID_REAL;
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_TYPE);
*/
int tm_sum(int arr)
{
  if (!TM_OK(arr))
    return CHAD_E_ARG;
  //@ assert tm_wf(arr);
  int ta = tm_ty_[arr];
  if (ty_kind_[ta] != TY_ARR || ty_left_[ta] != TY_ID_REAL)
    return CHAD_E_TYPE;
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  return tm_push(TM_SUM, tm_ctx_[arr], TY_ID_REAL, arr, -1, -1, 0, 0.0);
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !(ctx_valid(g) && ty_valid(ty));
    ensures \result == CHAD_E_TYPE <==> ctx_valid(g) && ty_valid(ty) && !lin(ty);
    ensures \result >= 0 ==> NEW_NODE(TM_ZERO, g, -1, -1, -1, 0) && tm_ty_[\result] == ty;
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_TYPE);
*/
int tm_zero(int g, int ty)
{
  if (!CTX_OK(g) || !TY_OK(ty))
    return CHAD_E_ARG;
  if (!ty_is_linear(ty))
    return CHAD_E_TYPE;
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  return tm_push(TM_ZERO, g, ty, -1, -1, -1, 0, 0.0);
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !\old(tm_valid(a) && tm_valid(b));
    ensures \result == CHAD_E_TYPE <==> \old(tm_valid(a) && tm_valid(b) && !plus_ok(tm_ctx_[a], tm_ty_[a], tm_ctx_[b], tm_ty_[b]));
    ensures \result >= 0 ==> NEW_NODE(TM_PLUS, \old(tm_ctx_[a]), a, b, -1, 0) &&
      tm_ty_[\result] == \old(tm_ty_[a]);
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_TYPE);
*/
int tm_plus(int a, int b)
{
  if (!TM_OK(a) || !TM_OK(b))
    return CHAD_E_ARG;
  //@ assert tm_wf(a);
  if (tm_ctx_[a] != tm_ctx_[b] || tm_ty_[a] != tm_ty_[b] ||
      !ty_is_linear(tm_ty_[a]))
    return CHAD_E_TYPE;
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  return tm_push(TM_PLUS, tm_ctx_[a], tm_ty_[a], a, b, -1, 0, 0.0);
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !\old(tm_valid(bag) && tm_valid(body));
    ensures \result == CHAD_E_TYPE <==>
      \old(tm_valid(bag) && tm_valid(body) && !cpfold_ok(tm_ctx_[bag], tm_ty_[bag], tm_ctx_[body], tm_ty_[body]));
    ensures \result >= 0 ==> NEW_NODE(TM_CP_FOLD, \old(tm_ctx_[bag]), bag, body, -1, 0) &&
      tm_ty_[\result] == \old(tm_ty_[body]);
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_TYPE);
*/
int tm_cp_fold(int bag, int body)
{
  if (!TM_OK(bag) || !TM_OK(body))
    return CHAD_E_ARG;
  //@ assert tm_wf(bag) && tm_wf(body);
  int g = tm_ctx_[bag];
  int tb = tm_ty_[bag];
  int e = tm_ctx_[body];
  if (ty_kind_[tb] != TY_COPOW || e <= 0 || e >= ctx_count ||
      ctx_type_[e] != ty_right_[tb] ||
      !IS_EXT(ctx_parent_[e], g, ty_left_[tb]) ||
      !ty_is_linear(tm_ty_[body]))
    return CHAD_E_TYPE;
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  return tm_push(TM_CP_FOLD, g, tm_ty_[body], bag, body, -1, 0, 0.0);
}

/* Dop(x; dx) : tcod with dx : tdom. */
/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==>
      !(0 <= op < op_count && \old(tm_valid(x) && tm_valid(dx)));
    ensures \result == CHAD_E_TYPE <==>
      0 <= op < op_count && \old(tm_valid(x) && tm_valid(dx) && !lopd_ok(op, tm_ctx_[x], tm_ty_[x], tm_ctx_[dx], tm_ty_[dx]));
    ensures \result >= 0 ==> NEW_NODE(TM_LOP_D, \old(tm_ctx_[x]), x, dx, -1, op) &&
      tm_ty_[\result] == op_tcod_[op];
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_TYPE);
*/
int tm_lop_d(int op, int x, int dx)
{
  if (!OP_OK(op) || !TM_OK(x) || !TM_OK(dx))
    return CHAD_E_ARG;
  if (tm_ctx_[x] != tm_ctx_[dx] || tm_ty_[x] != op_dom_[op] || tm_ty_[dx] != op_tdom_[op])
    return CHAD_E_TYPE;
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  //@ assert tm_wf(x) && tm_wf(dx);
  return tm_push(TM_LOP_D, tm_ctx_[x], op_tcod_[op], x, dx, -1, op, 0.0);
}

/* DopT(x; v) : tdom with v : tcod. */
/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==>
      !(0 <= op < op_count && \old(tm_valid(x) && tm_valid(v)));
    ensures \result == CHAD_E_TYPE <==>
      0 <= op < op_count && \old(tm_valid(x) && tm_valid(v) && !lopdt_ok(op, tm_ctx_[x], tm_ty_[x], tm_ctx_[v], tm_ty_[v]));
    ensures \result >= 0 ==> NEW_NODE(TM_LOP_DT, \old(tm_ctx_[x]), x, v, -1, op) &&
      tm_ty_[\result] == op_tdom_[op];
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_TYPE);
*/
int tm_lop_dt(int op, int x, int v)
{
  if (!OP_OK(op) || !TM_OK(x) || !TM_OK(v))
    return CHAD_E_ARG;
  if (tm_ctx_[x] != tm_ctx_[v] || tm_ty_[x] != op_dom_[op] || tm_ty_[v] != op_tcod_[op])
    return CHAD_E_TYPE;
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  //@ assert tm_wf(x) && tm_wf(v);
  return tm_push(TM_LOP_DT, tm_ctx_[x], op_tdom_[op], x, v, -1, op, 0.0);
}

/*@ requires kernel_inv; terminates \true;
    assigns TM_LOCS, TY_LOCS;
    ensures kernel_inv;
    ensures \result == CHAD_E_ARG <==> !\old(tm_valid(j) && tm_valid(v));
    ensures \result == CHAD_E_TYPE <==> \old(tm_valid(j) && tm_valid(v) && !onehot_ok(tm_ctx_[j], tm_ty_[j], tm_ctx_[v], tm_ty_[v]));
    ensures \result >= 0 ==> NEW_NODE(TM_ONEHOT, \old(tm_ctx_[j]), j, v, -1, 0) &&
      ty_same(tm_ty_[\result], TY_ARR, \old(tm_ty_[v]), -1);
    ensures FULL; ensures UNCHANGED; ensures CODES(CHAD_E_TYPE);
    ensures TY_GROW;
*/
int tm_onehot(int j, int v)
{
  if (!TM_OK(j) || !TM_OK(v))
    return CHAD_E_ARG;
  //@ assert tm_wf(v);
  if (tm_ctx_[j] != tm_ctx_[v] || tm_ty_[j] != TY_ID_INT ||
      !ty_is_linear(tm_ty_[v]))
    return CHAD_E_TYPE;
  if (FULL_ARENA)
    return CHAD_E_CAPACITY;
  int t = tm_mkty(TY_ARR, tm_ty_[v], -1);
  if (t < 0)
    return t;
  return tm_push(TM_ONEHOT, tm_ctx_[j], t, j, v, -1, 0, 0.0);
}

/*@ requires tm_inv; terminates \true; assigns \nothing;
    ensures tm_valid(t) ==> \result == tm_kind_[t];
    ensures !tm_valid(t) ==> \result == CHAD_E_ARG; */
int tm_kind(int t) { return TM_OK(t) ? tm_kind_[t] : CHAD_E_ARG; }
/*@ requires tm_inv; terminates \true; assigns \nothing;
    ensures tm_valid(t) ==> \result == tm_ctx_[t];
    ensures !tm_valid(t) ==> \result == CHAD_E_ARG; */
int tm_ctx(int t) { return TM_OK(t) ? tm_ctx_[t] : CHAD_E_ARG; }
/*@ requires tm_inv; terminates \true; assigns \nothing;
    ensures tm_valid(t) ==> \result == tm_ty_[t];
    ensures !tm_valid(t) ==> \result == CHAD_E_ARG; */
int tm_type(int t) { return TM_OK(t) ? tm_ty_[t] : CHAD_E_ARG; }
/*@ requires tm_inv; terminates \true; assigns \nothing;
    ensures tm_valid(t) ==> \result == tm_a_[t];
    ensures !tm_valid(t) ==> \result == CHAD_E_ARG; */
int tm_a(int t) { return TM_OK(t) ? tm_a_[t] : CHAD_E_ARG; }
/*@ requires tm_inv; terminates \true; assigns \nothing;
    ensures tm_valid(t) ==> \result == tm_b_[t];
    ensures !tm_valid(t) ==> \result == CHAD_E_ARG; */
int tm_b(int t) { return TM_OK(t) ? tm_b_[t] : CHAD_E_ARG; }
/*@ requires tm_inv; terminates \true; assigns \nothing;
    ensures tm_valid(t) ==> \result == tm_c_[t];
    ensures !tm_valid(t) ==> \result == CHAD_E_ARG; */
int tm_c(int t) { return TM_OK(t) ? tm_c_[t] : CHAD_E_ARG; }
/*@ requires tm_inv; terminates \true; assigns \nothing;
    ensures tm_valid(t) ==> \result == tm_aux_[t];
    ensures !tm_valid(t) ==> \result == CHAD_E_ARG; */
int64_t tm_aux(int t) { return TM_OK(t) ? tm_aux_[t] : CHAD_E_ARG; }
/*@ requires tm_inv; terminates \true; assigns \nothing;
    ensures tm_valid(t) ==> \result == tm_rval_[t];
    ensures !tm_valid(t) ==> \result == 0.0; */
double tm_rval(int t) { return TM_OK(t) ? tm_rval_[t] : 0.0; }
