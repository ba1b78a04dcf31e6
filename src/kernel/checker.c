/* Bidirectional elaboration of raw source terms into the typed arena.
 * expected = -1 infers; otherwise the result must have type expected.
 * Every node is built by a tm_* constructor, so the arena stays well typed
 * whatever the checker does; on failure the arena is truncated back to its
 * size at entry and chk_err_* name the innermost offending raw node. */
#include "chad/kernel.h"
#include "kernel_spec.h"

int chk_err_code;
int chk_err_raw;
int chk_err_expected;
int chk_err_found;

/* The checker's error codes (kernel.h). */
/*@ predicate chk_code(integer c) = CHAD_E_NOTE <= c <= CHAD_E_CAPACITY; */

/* Source types: no -o, no copower, arrays only of first-order types. */
/*@ requires ty_inv;
    terminates \true;
    decreases t;
    assigns \nothing;
    ensures \result == 1 <==> ty_src(t);
    ensures \result == 0 || \result == 1;
*/
static int ty_is_source(int t)
{
  if (t < 0 || t >= ty_count)
    return 0;
  //@ assert ty_node_ok(t);
  switch (ty_kind_[t]) {
  case TY_REAL: case TY_INT: case TY_UNIT:
    return 1;
  case TY_ARR:
    return ty_is_first_order(ty_left_[t]);
  case TY_PROD: case TY_SUM: case TY_FUN:
    return ty_is_source(ty_left_[t]) && ty_is_source(ty_right_[t]);
  default:
    return 0;
  }
}

/* Everything the checker may write: errors and the tails of the arenas. */
#define CHK_LOCS chk_err_code, chk_err_raw, chk_err_expected, chk_err_found, \
  tm_count, tm_kind_[tm_count .. CHAD_MAX_TERMS - 1], \
  tm_ctx_[tm_count .. CHAD_MAX_TERMS - 1], tm_ty_[tm_count .. CHAD_MAX_TERMS - 1], \
  tm_a_[tm_count .. CHAD_MAX_TERMS - 1], tm_b_[tm_count .. CHAD_MAX_TERMS - 1], \
  tm_c_[tm_count .. CHAD_MAX_TERMS - 1], tm_aux_[tm_count .. CHAD_MAX_TERMS - 1], \
  tm_rval_[tm_count .. CHAD_MAX_TERMS - 1], \
  ty_count, ty_kind_[ty_count .. CHAD_MAX_TYPES - 1], \
  ty_left_[ty_count .. CHAD_MAX_TYPES - 1], ty_right_[ty_count .. CHAD_MAX_TYPES - 1], \
  ty_lin_[ty_count .. CHAD_MAX_TYPES - 1], ty_tan_[ty_count .. CHAD_MAX_TYPES - 1], \
  ctx_count, ctx_parent_[ctx_count .. CHAD_MAX_CTXS - 1], \
  ctx_type_[ctx_count .. CHAD_MAX_CTXS - 1], ctx_len_[ctx_count .. CHAD_MAX_CTXS - 1]

/* Records the error and truncates the arena back to `saved` (append-only,
 * so the nodes below saved are the ones that were there). */
/*@ requires kernel_inv;
    requires 0 <= saved <= tm_count;
    requires chk_code(code);
    terminates \true;
    assigns chk_err_code, chk_err_raw, chk_err_expected, chk_err_found, tm_count;
    ensures kernel_inv;
    ensures tm_count == saved && \result == code && chk_err_code == code;
    ensures chk_err_raw == r;
*/
static int fail(int code, int r, int expected, int found, int saved)
{
  chk_err_code = code;
  chk_err_raw = r;
  chk_err_expected = expected;
  chk_err_found = found;
  tm_count = saved;
  return code;
}

/* ctx_extend and ty_arr seen from the term arena: growing those tables
 * keeps every node well typed (for ctx_extend through its guarantee that
 * older contexts keep their lookup function). */
/*@ requires kernel_inv;
    requires ctx_valid(g) && ty_valid(t);
    terminates \true;
    assigns ctx_count, ctx_parent_[ctx_count], ctx_type_[ctx_count], ctx_len_[ctx_count];
    ensures kernel_inv;
    ensures \old(ctx_count) <= ctx_count;
    ensures \result >= 0 ==> ctx_is_ext(\result, g, t);
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
*/
static int chk_extend(int g, int t)
{
  int e = ctx_extend(g, t);
  /*@ assert \forall integer i; 0 <= i < tm_count ==>
        ctx_lk(tm_ctx_[i], tm_aux_[i]) == \at(ctx_lk(tm_ctx_[i], tm_aux_[i]), Pre); */
  return e;
}

/*@ requires kernel_inv;
    terminates \true;
    assigns ty_count, ty_kind_[ty_count], ty_left_[ty_count], ty_right_[ty_count],
            ty_lin_[ty_count], ty_tan_[ty_count];
    ensures kernel_inv;
    ensures \old(ty_count) <= ty_count;
    ensures \result >= 0 ==> ty_valid(\result) && ty_same(\result, TY_ARR, TY_ID_REAL, -1);
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
*/
static int chk_arr_real(void)
{
  return ty_arr(TY_ID_REAL);
}

/* ty_sum(t, t), the type of a loop body, seen from the term arena. */
/*@ requires kernel_inv;
    requires ty_valid(t);
    terminates \true;
    assigns ty_count, ty_kind_[ty_count], ty_left_[ty_count], ty_right_[ty_count],
            ty_lin_[ty_count], ty_tan_[ty_count];
    ensures kernel_inv;
    ensures \old(ty_count) <= ty_count;
    ensures \result >= 0 ==> ty_valid(\result) && ty_same(\result, TY_SUM, t, t);
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
*/
static int chk_sum_twice(int t)
{
  return ty_sum(t, t);
}

/* The checker's contract, shared by elab and its per-kind helpers. */
#define ELAB_REQ kernel_inv && 0 <= r < raw_count <= CHAD_MAX_RAW && \
  ctx_valid(g) && (exp == -1 || ty_valid(exp))
#define ELAB_ENS(e_) ensures kernel_inv; \
  ensures \result >= 0 ==> tm_valid(\result) && tm_ctx_[\result] == g && \
    ((e_) >= 0 ==> tm_ty_[\result] == (e_)); \
  ensures \result >= 0 ==> \old(tm_count) <= tm_count; \
  ensures \result < 0 ==> chk_err_code == \result && chk_code(\result) && \
    0 <= chk_err_raw < raw_count; \
  ensures \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count
/* Every helper below runs with depth < CHAD_MAX_CHECK_DEPTH (elab checks
 * it) and knows the annotation is a valid type when present (elab checks
 * that it is a source type). */
#define ELAB_KIND_REQ ELAB_REQ && 0 <= depth < CHAD_MAX_CHECK_DEPTH

static int elab(int r, int g, int exp, int depth);

/* Truncates the arena back to `saved` after a failed child elaboration
 * (which already recorded the error). */
/*@ requires kernel_inv;
    requires 0 <= saved <= tm_count;
    terminates \true;
    assigns tm_count;
    ensures kernel_inv;
    ensures tm_count == saved && \result == code;
*/
static int undo(int code, int saved)
{
  tm_count = saved;
  return code;
}

/* Elaborates child c of raw node r in context g against expected type e; a
 * missing child is r's fault (reported with r's expected type exp). On
 * failure the arena is truncated back to `saved` (elab's entry size). */
/*@ requires ELAB_REQ;
    requires 0 <= depth < CHAD_MAX_CHECK_DEPTH;
    requires e == -1 || ty_valid(e);
    requires 0 <= saved <= tm_count;
    terminates \true;
    decreases 3 * r;
    assigns CHK_LOCS;
    ensures kernel_inv;
    ensures \result >= 0 ==> tm_valid(\result) && tm_ctx_[\result] == g &&
      (e >= 0 ==> tm_ty_[\result] == e);
    ensures \result >= 0 ==> \old(tm_count) <= tm_count && 0 <= c < r;
    ensures \result < 0 ==> tm_count == saved && chk_err_code == \result &&
      chk_code(\result) && 0 <= chk_err_raw < raw_count;
    ensures \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
*/
static int child(int r, int c, int g, int e, int exp, int depth, int saved)
{
  if (c < 0 || c >= r)
    return fail(CHAD_E_ARG, r, exp, -1, saved);
  int v = elab(c, g, e, depth + 1);
  if (v < 0)
    return undo(v, saved);
  return v;
}

/* A constructor refused (it cannot for well-formed input except for
 * capacity) or the built node's type differs from the expected one. */
/*@ requires kernel_inv;
    requires 0 <= saved <= tm_count;
    requires t >= 0 ==> tm_valid(t);
    requires t >= 0 || chk_code(t);
    terminates \true;
    assigns chk_err_code, chk_err_raw, chk_err_expected, chk_err_found, tm_count;
    ensures kernel_inv;
    ensures \result >= 0 ==> \result == t && tm_count == \old(tm_count) &&
      (exp >= 0 ==> tm_ty_[t] == exp);
    ensures \result < 0 ==> tm_count == saved && chk_err_code == \result &&
      chk_code(\result) && chk_err_raw == r;
*/
static int done(int r, int t, int exp, int saved)
{
  if (t < 0)
    return fail(t, r, exp, -1, saved);
  if (exp >= 0 && tm_ty_[t] != exp)
    return fail(CHAD_E_TYPE, r, exp, tm_ty_[t], saved);
  return t;
}

/* Variables and constants: no children. */
/*@ requires ELAB_REQ;
    terminates \true;
    assigns CHK_LOCS;
    ensures \result < 0 ==> tm_count == \old(tm_count);
    ELAB_ENS(exp);
*/
static int elab_leaf(int r, int g, int exp)
{
  int saved = tm_count;
  int t;
  switch (raw_kind_[r]) {
  case TM_VAR:
    if (raw_aux_[r] < 0 || raw_aux_[r] >= ctx_len_[g])
      return fail(CHAD_E_UNBOUND, r, exp, -1, saved);
    t = tm_var(g, (int)raw_aux_[r]);
    break;
  case TM_UNIT:
    t = tm_unit(g);
    break;
  case TM_RCONST:
    t = tm_rconst(g, raw_rval_[r]);
    break;
  default:
    t = tm_iconst(g, raw_aux_[r]);
    break;
  }
  return done(r, t, exp, saved);
}

/* The per-kind rules: each calls child (hence elab) on smaller raw
 * indices, so the measure 3r+1 (elab: 3r+2, child of r: 3r) decreases. */
#define ELAB_KIND_SPEC requires ELAB_KIND_REQ; \
    terminates \true; \
    decreases 3 * r + 1; \
    assigns CHK_LOCS; \
    ensures \result < 0 ==> tm_count == \old(tm_count); \
    ELAB_ENS(exp);
#define ELAB_ANN_SPEC requires ann < 0 || ty_valid(ann); ELAB_KIND_SPEC

/*@ ELAB_KIND_SPEC */
static int elab_let(int r, int g, int exp, int depth)
{
  int saved = tm_count;
  int a = child(r, raw_a_[r], g, -1, exp, depth, saved);
  if (a < 0) return a;
  //@ assert tm_wf(a);
  int g2 = chk_extend(g, tm_ty_[a]);
  if (g2 < 0) return fail(g2, r, exp, -1, saved);
  int b = child(r, raw_b_[r], g2, exp, exp, depth, saved);
  if (b < 0) return b;
  return done(r, tm_let(a, b), exp, saved);
}

/*@ ELAB_ANN_SPEC */
static int elab_lam(int r, int g, int exp, int depth, int ann)
{
  int saved = tm_count;
  int t = ann;
  //@ assert exp >= 0 ==> ty_node_ok(exp);
  if (t < 0 && exp >= 0 && ty_kind_[exp] == TY_FUN)
    t = ty_left_[exp];
  if (t < 0)
    return fail(CHAD_E_NOTE, r, exp, -1, saved);
  int g2 = chk_extend(g, t);
  if (g2 < 0) return fail(g2, r, exp, -1, saved);
  int e = (exp >= 0 && ty_kind_[exp] == TY_FUN && ty_left_[exp] == t) ? ty_right_[exp] : -1;
  int a = child(r, raw_a_[r], g2, e, exp, depth, saved);
  if (a < 0) return a;
  //@ assert tm_valid(a) && ctx_parent_[tm_ctx_[a]] == g;
  int n = tm_lam(t, a);
  //@ assert n >= 0 ==> tm_valid(n) && tm_ctx_[n] == g;
  return done(r, n, exp, saved);
}

/*@ ELAB_KIND_SPEC */
static int elab_app(int r, int g, int exp, int depth)
{
  int saved = tm_count;
  int ra = raw_a_[r];
  int a = child(r, ra, g, -1, exp, depth, saved);
  if (a < 0) return a;
  //@ assert tm_wf(a);
  int t = tm_ty_[a];
  if (ty_kind_[t] != TY_FUN)
    return fail(CHAD_E_TYPE, ra, -1, t, saved);
  //@ assert ty_node_ok(t);
  int b = child(r, raw_b_[r], g, ty_left_[t], exp, depth, saved);
  if (b < 0) return b;
  return done(r, tm_app(a, b), exp, saved);
}

/*@ ELAB_KIND_SPEC */
static int elab_pair(int r, int g, int exp, int depth)
{
  int saved = tm_count;
  //@ assert exp >= 0 ==> ty_node_ok(exp);
  int e = exp >= 0 && ty_kind_[exp] == TY_PROD;
  int a = child(r, raw_a_[r], g, e ? ty_left_[exp] : -1, exp, depth, saved);
  if (a < 0) return a;
  int b = child(r, raw_b_[r], g, e ? ty_right_[exp] : -1, exp, depth, saved);
  if (b < 0) return b;
  return done(r, tm_pair(a, b), exp, saved);
}

/* fst and snd */
/*@ ELAB_KIND_SPEC */
static int elab_proj(int r, int g, int exp, int depth)
{
  int saved = tm_count;
  int ra = raw_a_[r];
  int a = child(r, ra, g, -1, exp, depth, saved);
  if (a < 0) return a;
  //@ assert tm_wf(a);
  if (ty_kind_[tm_ty_[a]] != TY_PROD)
    return fail(CHAD_E_TYPE, ra, -1, tm_ty_[a], saved);
  return done(r, raw_kind_[r] == TM_FST ? tm_fst(a) : tm_snd(a), exp, saved);
}

/* inl and inr: the other side comes from the annotation or exp. */
/*@ ELAB_ANN_SPEC */
static int elab_inj(int r, int g, int exp, int depth, int ann)
{
  int saved = tm_count;
  int left = raw_kind_[r] == TM_INL;
  //@ assert exp >= 0 ==> ty_node_ok(exp);
  int e = exp >= 0 && ty_kind_[exp] == TY_SUM;
  int t = ann >= 0 ? ann : e ? (left ? ty_right_[exp] : ty_left_[exp]) : -1;
  if (t < 0)
    return fail(CHAD_E_NOTE, r, exp, -1, saved);
  int a = child(r, raw_a_[r], g,
                e ? (left ? ty_left_[exp] : ty_right_[exp]) : -1, exp, depth, saved);
  if (a < 0) return a;
  return done(r, left ? tm_inl(a, t) : tm_inr(t, a), exp, saved);
}

/*@ ELAB_KIND_SPEC */
static int elab_case(int r, int g, int exp, int depth)
{
  int saved = tm_count;
  int ra = raw_a_[r];
  int a = child(r, ra, g, -1, exp, depth, saved);
  if (a < 0) return a;
  //@ assert tm_wf(a);
  int t = tm_ty_[a];
  if (ty_kind_[t] != TY_SUM)
    return fail(CHAD_E_TYPE, ra, -1, t, saved);
  //@ assert ty_node_ok(t);
  int g2 = chk_extend(g, ty_left_[t]);
  if (g2 < 0) return fail(g2, r, exp, -1, saved);
  int b = child(r, raw_b_[r], g2, exp, exp, depth, saved);
  if (b < 0) return b;
  //@ assert tm_wf(b) && tm_valid(a) && tm_ctx_[a] == g;
  g2 = chk_extend(g, ty_right_[t]);
  if (g2 < 0) return fail(g2, r, exp, -1, saved);
  int c = child(r, raw_c_[r], g2, tm_ty_[b], exp, depth, saved);
  if (c < 0) return c;
  //@ assert tm_valid(a) && tm_ctx_[a] == g;
  int n = tm_case(a, b, c);
  //@ assert n >= 0 ==> tm_valid(n) && tm_ctx_[n] == g;
  return done(r, n, exp, saved);
}

/* A primitive op; its argument type may select the op's alternative (the
 * integer version of an overloaded op). */
/*@ ELAB_KIND_SPEC */
static int elab_op(int r, int g, int exp, int depth)
{
  int saved = tm_count;
  if (raw_aux_[r] < 0 || raw_aux_[r] >= op_count)
    return fail(CHAD_E_ARG, r, exp, -1, saved);
  int o = (int)raw_aux_[r];
  int ra = raw_a_[r];
  int a = child(r, ra, g, -1, exp, depth, saved);
  if (a < 0) return a;
  int t = tm_ty_[a];
  if (t != op_dom_[o]) {
    int alt = op_alt_[o];
    if (alt >= 0 && alt < op_count && t == op_dom_[alt])
      o = alt;
    else
      return fail(CHAD_E_TYPE, ra, op_dom_[o], t, saved);
  }
  return done(r, tm_op(o, a), exp, saved);
}

/*@ ELAB_KIND_SPEC */
static int elab_iter(int r, int g, int exp, int depth)
{
  int saved = tm_count;
  int a = child(r, raw_a_[r], g, TY_ID_INT, exp, depth, saved);
  if (a < 0) return a;
  int c = child(r, raw_c_[r], g, exp, exp, depth, saved);
  if (c < 0) return c;
  //@ assert tm_wf(c);
  int g2 = chk_extend(g, tm_ty_[c]);
  if (g2 < 0) return fail(g2, r, exp, -1, saved);
  int b = child(r, raw_b_[r], g2, tm_ty_[c], exp, depth, saved);
  if (b < 0) return b;
  return done(r, tm_iter(a, b, c), exp, saved);
}

/* loop n (x. b) s: s gives tau, b is checked against tau + tau. */
/*@ ELAB_KIND_SPEC */
static int elab_loop(int r, int g, int exp, int depth)
{
  int saved = tm_count;
  int a = child(r, raw_a_[r], g, TY_ID_INT, exp, depth, saved);
  if (a < 0) return a;
  int c = child(r, raw_c_[r], g, exp, exp, depth, saved);
  if (c < 0) return c;
  //@ assert tm_wf(c);
  int g2 = chk_extend(g, tm_ty_[c]);
  if (g2 < 0) return fail(g2, r, exp, -1, saved);
  int ts = chk_sum_twice(tm_ty_[c]);
  if (ts < 0) return fail(ts, r, exp, -1, saved);
  int b = child(r, raw_b_[r], g2, ts, exp, depth, saved);
  if (b < 0) return b;
  return done(r, tm_loop(a, b, c), exp, saved);
}

/*@ ELAB_KIND_SPEC */
static int elab_build(int r, int g, int exp, int depth)
{
  int saved = tm_count;
  int a = child(r, raw_a_[r], g, TY_ID_INT, exp, depth, saved);
  if (a < 0) return a;
  int g2 = chk_extend(g, TY_ID_INT);
  if (g2 < 0) return fail(g2, r, exp, -1, saved);
  //@ assert exp >= 0 ==> ty_node_ok(exp);
  int e = (exp >= 0 && ty_kind_[exp] == TY_ARR) ? ty_left_[exp] : -1;
  int rb = raw_b_[r];
  int b = child(r, rb, g2, e, exp, depth, saved);
  if (b < 0) return b;
  //@ assert tm_wf(b);
  if (!ty_is_first_order(tm_ty_[b]))
    return fail(CHAD_E_TYPE, rb, -1, tm_ty_[b], saved);
  return done(r, tm_build(a, b), exp, saved);
}

/* index and length: the first child must be an array. */
/*@ ELAB_KIND_SPEC */
static int elab_arr(int r, int g, int exp, int depth)
{
  int saved = tm_count;
  int ra = raw_a_[r];
  int a = child(r, ra, g, -1, exp, depth, saved);
  if (a < 0) return a;
  //@ assert tm_wf(a);
  if (ty_kind_[tm_ty_[a]] != TY_ARR)
    return fail(CHAD_E_TYPE, ra, -1, tm_ty_[a], saved);
  if (raw_kind_[r] == TM_LENGTH)
    return done(r, tm_length(a), exp, saved);
  int b = child(r, raw_b_[r], g, TY_ID_INT, exp, depth, saved);
  if (b < 0) return b;
  return done(r, tm_index(a, b), exp, saved);
}

/*@ ELAB_KIND_SPEC */
static int elab_map(int r, int g, int exp, int depth)
{
  int saved = tm_count;
  int rb = raw_b_[r];
  int b = child(r, rb, g, -1, exp, depth, saved);
  if (b < 0) return b;
  //@ assert tm_wf(b);
  int t = tm_ty_[b];
  if (ty_kind_[t] != TY_ARR)
    return fail(CHAD_E_TYPE, rb, -1, t, saved);
  //@ assert ty_node_ok(t);
  int g2 = chk_extend(g, ty_left_[t]);
  if (g2 < 0) return fail(g2, r, exp, -1, saved);
  //@ assert exp >= 0 ==> ty_node_ok(exp);
  int e = (exp >= 0 && ty_kind_[exp] == TY_ARR) ? ty_left_[exp] : -1;
  int ra = raw_a_[r];
  int a = child(r, ra, g2, e, exp, depth, saved);
  if (a < 0) return a;
  //@ assert tm_wf(a) && tm_valid(b) && tm_ctx_[b] == g;
  if (!ty_is_first_order(tm_ty_[a]))
    return fail(CHAD_E_TYPE, ra, -1, tm_ty_[a], saved);
  int n = tm_map(a, b);
  //@ assert n >= 0 ==> tm_valid(n) && tm_ctx_[n] == g;
  return done(r, n, exp, saved);
}

/*@ ELAB_KIND_SPEC */
static int elab_sum(int r, int g, int exp, int depth)
{
  int saved = tm_count;
  int t = chk_arr_real();
  if (t < 0) return fail(t, r, exp, -1, saved);
  int a = child(r, raw_a_[r], g, t, exp, depth, saved);
  if (a < 0) return a;
  return done(r, tm_sum(a), exp, saved);
}

/* A type ascription: the child is checked against it, no node is added. */
/*@ ELAB_ANN_SPEC */
static int elab_ann(int r, int g, int exp, int depth, int ann)
{
  int saved = tm_count;
  if (ann < 0)
    return fail(CHAD_E_NOTE, r, exp, -1, saved);
  int a = child(r, raw_a_[r], g, ann, exp, depth, saved);
  if (a < 0) return a;
  return done(r, a, exp, saved);
}

/*@ requires ELAB_REQ;
    requires 0 <= depth <= CHAD_MAX_CHECK_DEPTH;
    terminates \true;
    decreases 3 * r + 2;
    assigns CHK_LOCS;
    ensures \result < 0 ==> tm_count == \old(tm_count);
    ELAB_ENS(exp);
*/
static int elab(int r, int g, int exp, int depth)
{
  int saved = tm_count;
  if (depth >= CHAD_MAX_CHECK_DEPTH)
    return fail(CHAD_E_DEPTH, r, exp, -1, saved);
  int ann = raw_ty_[r];
  if (ann >= 0 && !ty_is_source(ann))
    return fail(CHAD_E_TYPE, r, exp, ann, saved);
  int t;
  switch (raw_kind_[r]) {
  case TM_VAR: case TM_UNIT: case TM_RCONST: case TM_ICONST:
    t = elab_leaf(r, g, exp); break;
  case TM_LET: t = elab_let(r, g, exp, depth); break;
  case TM_LAM: t = elab_lam(r, g, exp, depth, ann); break;
  case TM_APP: t = elab_app(r, g, exp, depth); break;
  case TM_PAIR: t = elab_pair(r, g, exp, depth); break;
  case TM_FST: case TM_SND: t = elab_proj(r, g, exp, depth); break;
  case TM_INL: case TM_INR: t = elab_inj(r, g, exp, depth, ann); break;
  case TM_CASE: t = elab_case(r, g, exp, depth); break;
  case TM_OP: t = elab_op(r, g, exp, depth); break;
  case TM_ITER: t = elab_iter(r, g, exp, depth); break;
  case TM_LOOP: t = elab_loop(r, g, exp, depth); break;
  case TM_BUILD: t = elab_build(r, g, exp, depth); break;
  case TM_INDEX: case TM_LENGTH: t = elab_arr(r, g, exp, depth); break;
  case TM_MAP: t = elab_map(r, g, exp, depth); break;
  case TM_SUM: t = elab_sum(r, g, exp, depth); break;
  case RAW_ANN: t = elab_ann(r, g, exp, depth, ann); break;
  default: t = fail(CHAD_E_ARG, r, exp, -1, saved); break;
  }
  return t;
}

/*@ requires kernel_inv;
    requires 0 <= raw_count <= CHAD_MAX_RAW;
    terminates \true;
    assigns CHK_LOCS;
    ensures kernel_inv;
    ensures \result >= 0 ==> tm_valid(\result) && tm_ctx_[\result] == g &&
      (expected >= 0 ==> tm_ty_[\result] == expected);
    ensures \result < 0 ==> tm_count == \old(tm_count) && chk_err_code == \result;
    ensures \result < 0 ==> chk_code(\result) &&
      (chk_err_raw == raw || 0 <= chk_err_raw < raw_count);
*/
int chk_elab(int raw, int g, int expected)
{
  chk_err_code = 0;
  chk_err_raw = -1;
  chk_err_expected = -1;
  chk_err_found = -1;
  int saved = tm_count;
  if (raw < 0 || raw >= raw_count || g < 0 || g >= ctx_count ||
      expected < -1 || expected >= ty_count)
    return fail(CHAD_E_ARG, raw, expected, -1, saved);
  if (expected >= 0 && !ty_is_source(expected))
    return fail(CHAD_E_TYPE, raw, expected, expected, saved);
  return elab(raw, g, expected, 0);
}
