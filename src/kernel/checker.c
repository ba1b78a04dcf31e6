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
  ty_lin_[ty_count .. CHAD_MAX_TYPES - 1], \
  ctx_count, ctx_parent_[ctx_count .. CHAD_MAX_CTXS - 1], \
  ctx_type_[ctx_count .. CHAD_MAX_CTXS - 1], ctx_len_[ctx_count .. CHAD_MAX_CTXS - 1]

/* Records the error and truncates the arena back to `saved` (append-only,
 * so the nodes below saved are the ones that were there). */
/*@ requires kernel_inv;
    requires 0 <= saved <= tm_count;
    terminates \true;
    assigns chk_err_code, chk_err_raw, chk_err_expected, chk_err_found, tm_count;
    ensures kernel_inv;
    ensures tm_count == saved && \result == code && chk_err_code == code;
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
            ty_lin_[ty_count];
    ensures kernel_inv;
    ensures \old(ty_count) <= ty_count;
    ensures \result >= 0 ==> ty_valid(\result) && ty_same(\result, TY_ARR, TY_ID_REAL, -1);
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
*/
static int chk_arr_real(void)
{
  return ty_arr(TY_ID_REAL);
}

/* Elaborates child c of raw node r into `var`, returning from elab on
 * failure; a missing child is r's fault. (A macro, so that elab is the only
 * recursive function.) */
#define CHILD(var, c, g_, exp_) do {                                \
    if ((c) < 0 || (c) >= r)                                        \
      return fail(CHAD_E_ARG, r, exp, -1, saved);                   \
    var = elab((c), (g_), (exp_), depth + 1);                       \
    if (var < 0) {                                                  \
      tm_count = saved;                                             \
      return var;                                                   \
    }                                                               \
  } while (0)

/* A constructor refused (it cannot for well-formed input except for
 * capacity) or the built node's type differs from the expected one. */
/*@ requires kernel_inv;
    requires 0 <= saved <= tm_count;
    requires t >= 0 ==> tm_valid(t);
    requires exp == -1 || ty_valid(exp);
    terminates \true;
    assigns chk_err_code, chk_err_raw, chk_err_expected, chk_err_found, tm_count;
    ensures kernel_inv;
    ensures \result >= 0 ==> \result == t && tm_count == \old(tm_count) &&
      (exp >= 0 ==> tm_ty_[t] == exp);
    ensures \result < 0 ==> tm_count == saved && chk_err_code == \result;
*/
static int done(int r, int t, int exp, int saved)
{
  if (t < 0)
    return fail(t, r, exp, -1, saved);
  if (exp >= 0 && tm_ty_[t] != exp)
    return fail(CHAD_E_TYPE, r, exp, tm_ty_[t], saved);
  return t;
}

/*@ requires kernel_inv;
    requires 0 <= r < raw_count <= CHAD_MAX_RAW;
    requires ctx_valid(g);
    requires exp == -1 || ty_valid(exp);
    requires 0 <= depth <= CHAD_MAX_CHECK_DEPTH;
    terminates \true;
    decreases r;
    assigns CHK_LOCS;
    ensures kernel_inv;
    ensures \result >= 0 ==> tm_valid(\result) && tm_ctx_[\result] == g &&
      (exp >= 0 ==> tm_ty_[\result] == exp);
    ensures \result >= 0 ==> \old(tm_count) <= tm_count;
    ensures \result < 0 ==> tm_count == \old(tm_count) && chk_err_code == \result;
    ensures \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
*/
static int elab(int r, int g, int exp, int depth)
{
  int saved = tm_count;
  if (depth >= CHAD_MAX_CHECK_DEPTH)
    return fail(CHAD_E_DEPTH, r, exp, -1, saved);
  int kind = raw_kind_[r];
  int ra = raw_a_[r], rb = raw_b_[r], rc = raw_c_[r];
  int ann = raw_ty_[r];
  int a, b, c, t, e, g2;
  if (ann >= 0 && !ty_is_source(ann))
    return fail(CHAD_E_TYPE, r, exp, ann, saved);
  //@ assert exp >= 0 ==> ty_node_ok(exp);
  switch (kind) {
  case TM_VAR:
    if (raw_aux_[r] < 0 || raw_aux_[r] >= ctx_len_[g])
      return fail(CHAD_E_UNBOUND, r, exp, -1, saved);
    return done(r, tm_var(g, (int)raw_aux_[r]), exp, saved);
  case TM_LET:
    CHILD(a, ra, g, -1);
    //@ assert tm_wf(a);
    g2 = chk_extend(g, tm_ty_[a]);
    if (g2 < 0) return fail(g2, r, exp, -1, saved);
    CHILD(b, rb, g2, exp);
    return done(r, tm_let(a, b), exp, saved);
  case TM_LAM:
    t = ann;
    if (t < 0 && exp >= 0 && ty_kind_[exp] == TY_FUN)
      t = ty_left_[exp];
    if (t < 0)
      return fail(CHAD_E_NOTE, r, exp, -1, saved);
    g2 = chk_extend(g, t);
    if (g2 < 0) return fail(g2, r, exp, -1, saved);
    e = (exp >= 0 && ty_kind_[exp] == TY_FUN && ty_left_[exp] == t) ? ty_right_[exp] : -1;
    CHILD(a, ra, g2, e);
    return done(r, tm_lam(t, a), exp, saved);
  case TM_APP:
    CHILD(a, ra, g, -1);
    //@ assert tm_wf(a);
    t = tm_ty_[a];
    if (ty_kind_[t] != TY_FUN)
      return fail(CHAD_E_TYPE, ra, -1, t, saved);
    //@ assert ty_node_ok(t);
    CHILD(b, rb, g, ty_left_[t]);
    return done(r, tm_app(a, b), exp, saved);
  case TM_UNIT:
    return done(r, tm_unit(g), exp, saved);
  case TM_PAIR:
    e = exp >= 0 && ty_kind_[exp] == TY_PROD;
    CHILD(a, ra, g, e ? ty_left_[exp] : -1);
    CHILD(b, rb, g, e ? ty_right_[exp] : -1);
    return done(r, tm_pair(a, b), exp, saved);
  case TM_FST:
    CHILD(a, ra, g, -1);
    //@ assert tm_wf(a);
    if (ty_kind_[tm_ty_[a]] != TY_PROD)
      return fail(CHAD_E_TYPE, ra, -1, tm_ty_[a], saved);
    return done(r, tm_fst(a), exp, saved);
  case TM_SND:
    CHILD(a, ra, g, -1);
    //@ assert tm_wf(a);
    if (ty_kind_[tm_ty_[a]] != TY_PROD)
      return fail(CHAD_E_TYPE, ra, -1, tm_ty_[a], saved);
    return done(r, tm_snd(a), exp, saved);
  case TM_INL:
    e = exp >= 0 && ty_kind_[exp] == TY_SUM;
    t = ann >= 0 ? ann : e ? ty_right_[exp] : -1;
    if (t < 0)
      return fail(CHAD_E_NOTE, r, exp, -1, saved);
    CHILD(a, ra, g, e ? ty_left_[exp] : -1);
    return done(r, tm_inl(a, t), exp, saved);
  case TM_INR:
    e = exp >= 0 && ty_kind_[exp] == TY_SUM;
    t = ann >= 0 ? ann : e ? ty_left_[exp] : -1;
    if (t < 0)
      return fail(CHAD_E_NOTE, r, exp, -1, saved);
    CHILD(a, ra, g, e ? ty_right_[exp] : -1);
    return done(r, tm_inr(t, a), exp, saved);
  case TM_CASE:
    CHILD(a, ra, g, -1);
    //@ assert tm_wf(a);
    t = tm_ty_[a];
    if (ty_kind_[t] != TY_SUM)
      return fail(CHAD_E_TYPE, ra, -1, t, saved);
    //@ assert ty_node_ok(t);
    g2 = chk_extend(g, ty_left_[t]);
    if (g2 < 0) return fail(g2, r, exp, -1, saved);
    CHILD(b, rb, g2, exp);
    //@ assert tm_wf(b);
    g2 = chk_extend(g, ty_right_[t]);
    if (g2 < 0) return fail(g2, r, exp, -1, saved);
    CHILD(c, rc, g2, tm_ty_[b]);
    return done(r, tm_case(a, b, c), exp, saved);
  case TM_RCONST:
    return done(r, tm_rconst(g, raw_rval_[r]), exp, saved);
  case TM_ICONST:
    return done(r, tm_iconst(g, raw_aux_[r]), exp, saved);
  case TM_OP: {
    if (raw_aux_[r] < 0 || raw_aux_[r] >= op_count)
      return fail(CHAD_E_ARG, r, exp, -1, saved);
    int o = (int)raw_aux_[r];
    CHILD(a, ra, g, -1);
    t = tm_ty_[a];
    if (t != op_dom_[o]) {
      int alt = op_alt_[o];
      if (alt >= 0 && alt < op_count && t == op_dom_[alt])
        o = alt;
      else
        return fail(CHAD_E_TYPE, ra, op_dom_[o], t, saved);
    }
    return done(r, tm_op(o, a), exp, saved);
  }
  case TM_ITER:
    CHILD(a, ra, g, TY_ID_INT);
    CHILD(c, rc, g, exp);
    //@ assert tm_wf(c);
    g2 = chk_extend(g, tm_ty_[c]);
    if (g2 < 0) return fail(g2, r, exp, -1, saved);
    CHILD(b, rb, g2, tm_ty_[c]);
    return done(r, tm_iter(a, b, c), exp, saved);
  case TM_BUILD:
    CHILD(a, ra, g, TY_ID_INT);
    g2 = chk_extend(g, TY_ID_INT);
    if (g2 < 0) return fail(g2, r, exp, -1, saved);
    e = (exp >= 0 && ty_kind_[exp] == TY_ARR) ? ty_left_[exp] : -1;
    CHILD(b, rb, g2, e);
    if (!ty_is_first_order(tm_ty_[b]))
      return fail(CHAD_E_TYPE, rb, -1, tm_ty_[b], saved);
    return done(r, tm_build(a, b), exp, saved);
  case TM_INDEX:
    CHILD(a, ra, g, -1);
    //@ assert tm_wf(a);
    if (ty_kind_[tm_ty_[a]] != TY_ARR)
      return fail(CHAD_E_TYPE, ra, -1, tm_ty_[a], saved);
    CHILD(b, rb, g, TY_ID_INT);
    return done(r, tm_index(a, b), exp, saved);
  case TM_LENGTH:
    CHILD(a, ra, g, -1);
    //@ assert tm_wf(a);
    if (ty_kind_[tm_ty_[a]] != TY_ARR)
      return fail(CHAD_E_TYPE, ra, -1, tm_ty_[a], saved);
    return done(r, tm_length(a), exp, saved);
  case TM_MAP:
    CHILD(b, rb, g, -1);
    //@ assert tm_wf(b);
    t = tm_ty_[b];
    if (ty_kind_[t] != TY_ARR)
      return fail(CHAD_E_TYPE, rb, -1, t, saved);
    //@ assert ty_node_ok(t);
    g2 = chk_extend(g, ty_left_[t]);
    if (g2 < 0) return fail(g2, r, exp, -1, saved);
    e = (exp >= 0 && ty_kind_[exp] == TY_ARR) ? ty_left_[exp] : -1;
    CHILD(a, ra, g2, e);
    if (!ty_is_first_order(tm_ty_[a]))
      return fail(CHAD_E_TYPE, ra, -1, tm_ty_[a], saved);
    return done(r, tm_map(a, b), exp, saved);
  case TM_SUM:
    t = chk_arr_real();
    if (t < 0) return fail(t, r, exp, -1, saved);
    CHILD(a, ra, g, t);
    return done(r, tm_sum(a), exp, saved);
  case RAW_ANN:
    if (ann < 0)
      return fail(CHAD_E_NOTE, r, exp, -1, saved);
    CHILD(a, ra, g, ann);
    return done(r, a, exp, saved);
  default:
    return fail(CHAD_E_ARG, r, exp, -1, saved);
  }
}

/*@ requires kernel_inv;
    requires 0 <= raw_count <= CHAD_MAX_RAW;
    terminates \true;
    assigns CHK_LOCS;
    ensures kernel_inv;
    ensures \result >= 0 ==> tm_valid(\result) && tm_ctx_[\result] == g &&
      (expected >= 0 ==> tm_ty_[\result] == expected);
    ensures \result < 0 ==> tm_count == \old(tm_count) && chk_err_code == \result;
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
