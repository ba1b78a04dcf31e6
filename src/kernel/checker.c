/* Bidirectional elaboration of raw source terms into the typed arena.
 * expected = -1 infers; otherwise the result must have type expected.
 * Every node is built by a tm_* constructor, so the arena stays well typed
 * whatever the checker does; on failure the arena is truncated back to its
 * size at entry and chk_err_* name the innermost offending raw node. */
#include "chad/kernel.h"

int chk_err_code;
int chk_err_raw;
int chk_err_expected;
int chk_err_found;

/* Source types: no -o, no copower, arrays only of first-order types. */
static int ty_is_source(int t)
{
  if (t < 0 || t >= ty_count)
    return 0;
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

static int fail(int code, int r, int expected, int found, int saved)
{
  chk_err_code = code;
  chk_err_raw = r;
  chk_err_expected = expected;
  chk_err_found = found;
  tm_count = saved;
  return code;
}

static int elab(int r, int g, int exp, int depth);

/* Elaborates child c of raw node r; a missing child is r's fault. */
static int child(int r, int c, int g, int exp, int depth, int saved)
{
  if (c < 0 || c >= r)
    return fail(CHAD_E_ARG, r, exp, -1, saved);
  int t = elab(c, g, exp, depth + 1);
  if (t < 0)
    tm_count = saved;
  return t;
}

/* A constructor refused (it cannot for well-formed input except for
 * capacity) or the built node's type differs from the expected one. */
static int done(int r, int t, int exp, int saved)
{
  if (t < 0)
    return fail(t, r, exp, -1, saved);
  if (exp >= 0 && tm_ty_[t] != exp)
    return fail(CHAD_E_TYPE, r, exp, tm_ty_[t], saved);
  return t;
}

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
  switch (kind) {
  case TM_VAR:
    if (raw_aux_[r] < 0 || raw_aux_[r] >= ctx_len_[g])
      return fail(CHAD_E_UNBOUND, r, exp, -1, saved);
    return done(r, tm_var(g, (int)raw_aux_[r]), exp, saved);
  case TM_LET:
    a = child(r, ra, g, -1, depth, saved);
    if (a < 0) return a;
    g2 = ctx_extend(g, tm_ty_[a]);
    if (g2 < 0) return fail(g2, r, exp, -1, saved);
    b = child(r, rb, g2, exp, depth, saved);
    if (b < 0) return b;
    return done(r, tm_let(a, b), exp, saved);
  case TM_LAM:
    t = ann;
    if (t < 0 && exp >= 0 && ty_kind_[exp] == TY_FUN)
      t = ty_left_[exp];
    if (t < 0)
      return fail(CHAD_E_NOTE, r, exp, -1, saved);
    g2 = ctx_extend(g, t);
    if (g2 < 0) return fail(g2, r, exp, -1, saved);
    e = (exp >= 0 && ty_kind_[exp] == TY_FUN && ty_left_[exp] == t) ? ty_right_[exp] : -1;
    a = child(r, ra, g2, e, depth, saved);
    if (a < 0) return a;
    return done(r, tm_lam(t, a), exp, saved);
  case TM_APP:
    a = child(r, ra, g, -1, depth, saved);
    if (a < 0) return a;
    t = tm_ty_[a];
    if (ty_kind_[t] != TY_FUN)
      return fail(CHAD_E_TYPE, ra, -1, t, saved);
    b = child(r, rb, g, ty_left_[t], depth, saved);
    if (b < 0) return b;
    return done(r, tm_app(a, b), exp, saved);
  case TM_UNIT:
    return done(r, tm_unit(g), exp, saved);
  case TM_PAIR:
    e = (exp >= 0 && ty_kind_[exp] == TY_PROD);
    a = child(r, ra, g, e ? ty_left_[exp] : -1, depth, saved);
    if (a < 0) return a;
    b = child(r, rb, g, e ? ty_right_[exp] : -1, depth, saved);
    if (b < 0) return b;
    return done(r, tm_pair(a, b), exp, saved);
  case TM_FST:
  case TM_SND:
    a = child(r, ra, g, -1, depth, saved);
    if (a < 0) return a;
    if (ty_kind_[tm_ty_[a]] != TY_PROD)
      return fail(CHAD_E_TYPE, ra, -1, tm_ty_[a], saved);
    return done(r, kind == TM_FST ? tm_fst(a) : tm_snd(a), exp, saved);
  case TM_INL:
  case TM_INR:
    e = (exp >= 0 && ty_kind_[exp] == TY_SUM);
    t = ann;
    if (t < 0 && e)
      t = kind == TM_INL ? ty_right_[exp] : ty_left_[exp];
    if (t < 0)
      return fail(CHAD_E_NOTE, r, exp, -1, saved);
    a = child(r, ra, g, e ? (kind == TM_INL ? ty_left_[exp] : ty_right_[exp]) : -1,
              depth, saved);
    if (a < 0) return a;
    return done(r, kind == TM_INL ? tm_inl(a, t) : tm_inr(t, a), exp, saved);
  case TM_CASE:
    a = child(r, ra, g, -1, depth, saved);
    if (a < 0) return a;
    t = tm_ty_[a];
    if (ty_kind_[t] != TY_SUM)
      return fail(CHAD_E_TYPE, ra, -1, t, saved);
    g2 = ctx_extend(g, ty_left_[t]);
    if (g2 < 0) return fail(g2, r, exp, -1, saved);
    b = child(r, rb, g2, exp, depth, saved);
    if (b < 0) return b;
    g2 = ctx_extend(g, ty_right_[t]);
    if (g2 < 0) return fail(g2, r, exp, -1, saved);
    c = child(r, rc, g2, tm_ty_[b], depth, saved);
    if (c < 0) return c;
    return done(r, tm_case(a, b, c), exp, saved);
  case TM_RCONST:
    return done(r, tm_rconst(g, raw_rval_[r]), exp, saved);
  case TM_ICONST:
    return done(r, tm_iconst(g, raw_aux_[r]), exp, saved);
  case TM_OP: {
    int o = raw_aux_[r] >= 0 && raw_aux_[r] < op_count ? (int)raw_aux_[r] : -1;
    if (o < 0)
      return fail(CHAD_E_ARG, r, exp, -1, saved);
    a = child(r, ra, g, -1, depth, saved);
    if (a < 0) return a;
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
    a = child(r, ra, g, TY_ID_INT, depth, saved);
    if (a < 0) return a;
    c = child(r, rc, g, exp, depth, saved);
    if (c < 0) return c;
    g2 = ctx_extend(g, tm_ty_[c]);
    if (g2 < 0) return fail(g2, r, exp, -1, saved);
    b = child(r, rb, g2, tm_ty_[c], depth, saved);
    if (b < 0) return b;
    return done(r, tm_iter(a, b, c), exp, saved);
  case TM_BUILD:
    a = child(r, ra, g, TY_ID_INT, depth, saved);
    if (a < 0) return a;
    g2 = ctx_extend(g, TY_ID_INT);
    if (g2 < 0) return fail(g2, r, exp, -1, saved);
    e = (exp >= 0 && ty_kind_[exp] == TY_ARR) ? ty_left_[exp] : -1;
    b = child(r, rb, g2, e, depth, saved);
    if (b < 0) return b;
    if (!ty_is_first_order(tm_ty_[b]))
      return fail(CHAD_E_TYPE, rb, -1, tm_ty_[b], saved);
    return done(r, tm_build(a, b), exp, saved);
  case TM_INDEX:
    a = child(r, ra, g, -1, depth, saved);
    if (a < 0) return a;
    if (ty_kind_[tm_ty_[a]] != TY_ARR)
      return fail(CHAD_E_TYPE, ra, -1, tm_ty_[a], saved);
    b = child(r, rb, g, TY_ID_INT, depth, saved);
    if (b < 0) return b;
    return done(r, tm_index(a, b), exp, saved);
  case TM_LENGTH:
    a = child(r, ra, g, -1, depth, saved);
    if (a < 0) return a;
    if (ty_kind_[tm_ty_[a]] != TY_ARR)
      return fail(CHAD_E_TYPE, ra, -1, tm_ty_[a], saved);
    return done(r, tm_length(a), exp, saved);
  case TM_MAP:
    b = child(r, rb, g, -1, depth, saved);
    if (b < 0) return b;
    t = tm_ty_[b];
    if (ty_kind_[t] != TY_ARR)
      return fail(CHAD_E_TYPE, rb, -1, t, saved);
    g2 = ctx_extend(g, ty_left_[t]);
    if (g2 < 0) return fail(g2, r, exp, -1, saved);
    e = (exp >= 0 && ty_kind_[exp] == TY_ARR) ? ty_left_[exp] : -1;
    a = child(r, ra, g2, e, depth, saved);
    if (a < 0) return a;
    if (!ty_is_first_order(tm_ty_[a]))
      return fail(CHAD_E_TYPE, ra, -1, tm_ty_[a], saved);
    return done(r, tm_map(a, b), exp, saved);
  case TM_SUM:
    t = ty_arr(TY_ID_REAL);
    if (t < 0) return fail(t, r, exp, -1, saved);
    a = child(r, ra, g, t, depth, saved);
    if (a < 0) return a;
    return done(r, tm_sum(a), exp, saved);
  case RAW_ANN:
    if (ann < 0)
      return fail(CHAD_E_NOTE, r, exp, -1, saved);
    a = child(r, ra, g, ann, depth, saved);
    if (a < 0) return a;
    return done(r, a, exp, saved);
  default:
    return fail(CHAD_E_ARG, r, exp, -1, saved);
  }
}

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
