/* Value-level derivatives for the command line and the tests: JVP and VJP
 * of a term at given parameter values, per-parameter access to the nested
 * T G / C G tuples, flattening of first-order (co)tangents, Jacobians.
 *
 * The derivative term is built once per call in the context (P G, D) where D
 * is the tangent T G (or cotangent C tau):
 *     let p = F(t) in (fst p, snd p d)        (forward)
 *     let p = R(t) in (fst p, snd p d)        (reverse)
 * and evaluated by the reference evaluator (eval.h), or the fast one
 * (chad/fast.h) after chad_values_use_fast(1), with the parameter
 * environment extended by d. Parameters must have first-order types (then
 * P a = a, so the primal environment is the user's). */
#include <stdint.h>
#include <stdlib.h>

#include "chad/chad.h"
#include "chad/diag.h"
#include "chad/eval.h"
#include "chad/fast.h"
#include "chad/kernel.h"
#include "chad_internal.h"
#include "eval/heap_internal.h"
#include "certified/ball.h"

static const char *code_name(int rc)
{
  switch (rc) {
  case CHAD_E_CAPACITY: return "an arena is full";
  case CHAD_E_TYPE: return "ill-typed (internal error or not a source term)";
  case CHAD_E_ARG: return "bad argument";
  case CHAD_E_UNBOUND: return "unbound variable";
  case CHAD_E_DEPTH: return "nesting too deep";
  default: return "error";
  }
}

#define DERIV_SIMPLIFY_MAX 50000

/* mode 0: forward (d : T G), 1: reverse (d : C tau). Returns the term. */
static int deriv_term(int t, int rev, chad_diag *dg)
{
  int g = tm_ctx(t);
  if (g < 0) {
    diag_set(dg, CHAD_EXIT_USAGE, "", 0, 0, "no such term %d", t);
    return g;
  }
  for (int c = g; c != CTX_EMPTY; c = ctx_parent(c))
    if (!ty_is_first_order(ctx_last(c))) {
      diag_set(dg, CHAD_EXIT_INPUT, "", 0, 0,
               "derivatives at values need parameters of first-order type");
      return CHAD_E_TYPE;
    }
  if (!ty_is_first_order(tm_type(t))) {
    diag_set(dg, CHAD_EXIT_INPUT, "", 0, 0,
             "derivatives at values need a result of first-order type");
    return CHAD_E_TYPE;
  }
  int pg = chad_ctx(rev ? CHAD_PREV : CHAD_PFWD, g);
  int dty = rev ? chad_ty_cot(tm_type(t)) : chad_ctx_tan(g);
  int d = b_ext(pg, dty);
  int lvd = ctx_length(g);
  int p = rev ? chad_rev_in(t, d) : chad_fwd_in(t, d);
  /* The simplified derivative does the same work minus the administrative
   * redexes (GMM: 2x faster, half the memory). The simplifier's use counts
   * cost up to quadratic time in the term size, so very large terms are
   * evaluated as they are. chad_simplify returns its input on failure. */
  int64_t psize = p >= 0 ? chad_term_size(p) : -1;
  if (psize >= 0 && psize <= DERIV_SIMPLIFY_MAX)   /* too large or failed: as it is */
    p = chad_simplify(p);
  int lp = b_lvl(d), d1 = b_ext(d, p < 0 ? p : tm_type(p));
  int res = b_let(p, b_pair(b_fst(b_var(d1, lp)),
                            b_lapp(b_snd(b_var(d1, lp)), b_var(d1, lvd))));
  if (res < 0)
    diag_set(dg, CHAD_EXIT_RUNTIME, "", 0, 0, "%s mode transformation failed: %s",
             rev ? "reverse" : "forward", code_name(res));
  return res;
}

/* The evaluator of the derivative terms: eval_ref (0, the default) or
 * eval_fast (1), chosen by the caller (the API's --eval). */
static int use_fast = 0;
void chad_values_use_fast(int on) { use_fast = on != 0; }

static int run(heap *h, int term, const env *params, const value *dv,
               const value **out_value, const value **out_d, chad_diag *dg)
{
  const env *e = env_push(h, params, dv);
  if (!e)
    return diag_set(dg, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory (heap limit reached)");
  eval_error err;
  eval_error_clear(&err);
  const value *r;
  if (use_fast) {
    /* raw, then one export of the result: the pullback stays unboxed */
    r = eval_fast_raw(h, term, e, &err);
    if (r)
      r = fast_export(h, r, &err);
  } else {
    r = eval_ref(h, term, e, &err);
  }
  if (!r)
    return diag_set(dg, CHAD_EXIT_RUNTIME, "", 0, 0, "%s", err.msg);
  if (r->kind != V_PAIR)
    return diag_set(dg, CHAD_EXIT_RUNTIME, "", 0, 0, "internal: derivative is not a pair");
  *out_value = r->u.pair.a;
  *out_d = r->u.pair.b;
  return CHAD_EXIT_OK;
}

int chad_jvp_values(heap *h, int t, const env *params, const value *tangent,
                    const value **out_value, const value **out_tangent, chad_diag *d)
{
  int term = deriv_term(t, 0, d);
  if (term < 0)
    return d->exit_code;
  return run(h, term, params, tangent, out_value, out_tangent, d);
}

int chad_vjp_values(heap *h, int t, const env *params, const value *cotangent,
                    const value **out_value, const value **out_cot, chad_diag *d)
{
  int term = deriv_term(t, 1, d);
  if (term < 0)
    return d->exit_code;
  return run(h, term, params, cotangent, out_value, out_cot, d);
}

/* ---- context tuples --------------------------------------------------- */
const value *chad_ctx_tuple_get(const value *tuple, int n, int i)
{
  if (!tuple || i < 0 || i >= n)
    return NULL;
  const value *v = tuple;
  for (int k = 0; k < n - 1 - i; k++) {
    if (v->kind == V_ZERO)
      return v;
    if (v->kind != V_PAIR)
      return NULL;
    v = v->u.pair.a;
  }
  if (v->kind == V_ZERO)
    return v;
  if (v->kind != V_PAIR)
    return NULL;
  return v->u.pair.b;
}

const value *chad_ctx_tuple_make(heap *h, int n, const value *const *parts)
{
  const value *acc = v_unit(h);
  for (int i = 0; i < n && acc; i++)
    acc = parts[i] ? v_pair(h, acc, parts[i]) : NULL;
  return acc;
}

const env *chad_params_env(heap *h, int n, const value *const *parts)
{
  const env *e = NULL;
  for (int i = 0; i < n; i++) {
    e = env_push(h, e, parts[i]);
    if (!e)
      return NULL;
  }
  return e;
}

/* ---- flattening -------------------------------------------------------- */
#define FLAT_DEPTH 1000

static int64_t flat_count(int ty, const value *p, int depth)
{
  if (depth > FLAT_DEPTH || !p)
    return -1;
  switch (ty_kind(ty)) {
  case TY_REAL: return 1;
  case TY_INT: case TY_UNIT: return 0;
  case TY_PROD: {
    if (p->kind != V_PAIR) return -1;
    int64_t a = flat_count(ty_left(ty), p->u.pair.a, depth + 1);
    int64_t b = flat_count(ty_right(ty), p->u.pair.b, depth + 1);
    return (a < 0 || b < 0) ? -1 : a + b;
  }
  case TY_SUM:
    if (p->kind == V_INL) return flat_count(ty_left(ty), p->u.pair.a, depth + 1);
    if (p->kind == V_INR) return flat_count(ty_right(ty), p->u.pair.a, depth + 1);
    return -1;
  case TY_ARR: {
    if (p->kind != V_ARRAY) return -1;
    int64_t s = 0;
    for (int64_t i = 0; i < p->u.arr.n; i++) {
      int64_t c = flat_count(ty_left(ty), p->u.arr.elems[i], depth + 1);
      if (c < 0) return -1;
      s += c;
    }
    return s;
  }
  default:
    return -1;
  }
}

int64_t chad_flat_count(int ty, const value *primal) { return flat_count(ty, primal, 0); }

/* Certified runs (ball mode): the flattened reals' enclosures, beside the
 * doubles (flat_balls[k] for out[k]). */
static arb_ptr flat_balls;

/* dv dense (after v_densify) but V_ZERO still accepted anywhere. */
static int flat_write(int ty, const value *p, const value *dv, double *out, int64_t cap,
                      int64_t *pos, int depth)
{
  if (depth > FLAT_DEPTH || !p || !dv)
    return -1;
  int z = dv->kind == V_ZERO;
  switch (ty_kind(ty)) {
  case TY_REAL:
    if (*pos >= cap) return -1;
    if (!z && dv->kind != V_REAL) return -1;
    if (flat_balls) ball_get(dv, flat_balls + *pos);
    out[(*pos)++] = z ? 0.0 : dv->u.r;
    return 0;
  case TY_INT: case TY_UNIT:
    return 0;
  case TY_PROD: case TY_SUM: {
    if (!z && dv->kind != V_PAIR) return -1;
    const value *da = z ? dv : dv->u.pair.a, *db = z ? dv : dv->u.pair.b;
    if (ty_kind(ty) == TY_PROD) {
      if (p->kind != V_PAIR) return -1;
      if (flat_write(ty_left(ty), p->u.pair.a, da, out, cap, pos, depth + 1) < 0) return -1;
      return flat_write(ty_right(ty), p->u.pair.b, db, out, cap, pos, depth + 1);
    }
    if (p->kind == V_INL) return flat_write(ty_left(ty), p->u.pair.a, da, out, cap, pos, depth + 1);
    if (p->kind == V_INR) return flat_write(ty_right(ty), p->u.pair.a, db, out, cap, pos, depth + 1);
    return -1;
  }
  case TY_ARR:
    if (p->kind != V_ARRAY || (!z && (dv->kind != V_ARRAY || dv->u.arr.n != p->u.arr.n)))
      return -1;
    for (int64_t i = 0; i < p->u.arr.n; i++)
      if (flat_write(ty_left(ty), p->u.arr.elems[i], z ? dv : dv->u.arr.elems[i], out, cap,
                     pos, depth + 1) < 0)
        return -1;
    return 0;
  default:
    return -1;
  }
}

int64_t chad_flatten_tangent(heap *h, int ty, const value *primal, const value *dv,
                             double *out, int64_t cap)
{
  eval_error err;
  eval_error_clear(&err);
  const value *dense = v_densify(h, dv, primal, &err);
  if (!dense)
    return -1;
  int64_t pos = 0;
  if (flat_write(ty, primal, dense, out, cap, &pos, 0) < 0)
    return -1;
  return pos;
}

static const value *unflat(heap *h, int ty, const value *p, const double *s, int64_t *pos,
                           int depth)
{
  if (depth > FLAT_DEPTH || !p)
    return NULL;
  switch (ty_kind(ty)) {
  case TY_REAL: return v_real(h, s[(*pos)++]);
  case TY_INT: case TY_UNIT: return v_unit(h);
  case TY_PROD: {
    if (p->kind != V_PAIR) return NULL;
    const value *a = unflat(h, ty_left(ty), p->u.pair.a, s, pos, depth + 1);
    const value *b = a ? unflat(h, ty_right(ty), p->u.pair.b, s, pos, depth + 1) : NULL;
    return b ? v_pair(h, a, b) : NULL;
  }
  case TY_SUM: {
    const value *z = v_zero(h);
    if (!z) return NULL;
    if (p->kind == V_INL) {
      const value *a = unflat(h, ty_left(ty), p->u.pair.a, s, pos, depth + 1);
      return a ? v_pair(h, a, z) : NULL;
    }
    if (p->kind == V_INR) {
      const value *b = unflat(h, ty_right(ty), p->u.pair.a, s, pos, depth + 1);
      return b ? v_pair(h, z, b) : NULL;
    }
    return NULL;
  }
  case TY_ARR: {
    if (p->kind != V_ARRAY) return NULL;
    value *arr = v_array(h, p->u.arr.n);
    if (!arr) return NULL;
    for (int64_t i = 0; i < p->u.arr.n; i++) {
      arr->u.arr.elems[i] = unflat(h, ty_left(ty), p->u.arr.elems[i], s, pos, depth + 1);
      if (!arr->u.arr.elems[i]) return NULL;
    }
    return arr;
  }
  default:
    return NULL;
  }
}

const value *chad_unflatten_tangent(heap *h, int ty, const value *primal,
                                    const double *slots, int64_t *pos)
{
  return unflat(h, ty, primal, slots, pos, 0);
}

/* ---- Jacobians ------------------------------------------------------------ */
#define JAC_MAX_PARAMS 256

int chad_jacobian_values(heap *h, int t, const env *params, int mode,
                         const value **out_value, const value **out_jac, chad_diag *d)
{
  int g = tm_ctx(t);
  if (g < 0)
    return diag_set(d, CHAD_EXIT_USAGE, "", 0, 0, "no such term %d", t);
  int n = ctx_length(g);
  if (n > JAC_MAX_PARAMS)
    return diag_set(d, CHAD_EXIT_INPUT, "", 0, 0, "more than %d parameters", JAC_MAX_PARAMS);
  const value *pv[JAC_MAX_PARAMS];
  int pty[JAC_MAX_PARAMS];
  const env *e = params;
  int c = g;
  for (int k = n - 1; k >= 0; k--) {      /* env index 0 = parameter n-1 */
    if (!e)
      return diag_set(d, CHAD_EXIT_USAGE, "", 0, 0, "too few parameter values");
    pv[k] = e->v;
    pty[k] = ctx_last(c);
    c = ctx_parent(c);
    e = e->next;
  }
  int fterm = deriv_term(t, mode == CHAD_JAC_REVERSE, d);
  if (fterm < 0)
    return d->exit_code;
  int64_t nin = 0, off[JAC_MAX_PARAMS + 1];
  for (int k = 0; k < n; k++) {
    int64_t cnt = chad_flat_count(pty[k], pv[k]);
    if (cnt < 0)
      return diag_set(d, CHAD_EXIT_INPUT, "", 0, 0, "parameter %d does not fit its type", k);
    off[k] = nin;
    nin += cnt;
  }
  off[n] = nin;
  /* the primal value, from a zero (co)tangent run */
  const value *zero = v_zero(h), *y = NULL, *dy = NULL;
  if (!zero)
    return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory (heap limit reached)");
  int rc = run(h, fterm, params, zero, &y, &dy, d);
  if (rc)
    return rc;
  int ty = tm_type(t);
  int64_t nout = chad_flat_count(ty, y);
  if (nout < 0)
    return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "internal: result does not fit its type");
  /* Each column (forward) or row (reverse) is one run of the derivative
   * term; its values are garbage once flattened, so the heap is rolled back
   * after each and the entries are kept in a host matrix: memory is that of
   * one run, not of nin (or nout) runs. */
  if (nout > 0 && nin > INT64_MAX / nout / (int64_t)sizeof(double))
    return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "Jacobian too large");
  double *buf = heap_alloc(h, sizeof(double) * (size_t)(nin + nout + 1) * 2);
  double *jac = malloc(sizeof(double) * (size_t)(nout * nin + 1));
  if (!buf || !jac) {
    free(jac);
    return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory (heap limit reached)");
  }
  double *basis = buf, *col = buf + nin + nout + 1;
  /* ball mode: the entries' enclosures, kept beside the doubles */
  int balls = heap_is_ball(h);
  arb_ptr colb = balls ? _arb_vec_init(nin + nout + 1) : NULL;
  arb_ptr jacb = balls ? _arb_vec_init(nout * nin + 1) : NULL;
#define JAC_FREE() do { free(jac); if (balls) { _arb_vec_clear(colb, nin + nout + 1); \
                         _arb_vec_clear(jacb, nout * nin + 1); } } while (0)
  int64_t outer = mode == CHAD_JAC_REVERSE ? nout : nin;
  for (int64_t j = 0; j < outer; j++) {
    heap_mark_t mark = heap_mark(h);
    for (int64_t k = 0; k < nin + nout; k++)
      basis[k] = 0.0;
    basis[j] = 1.0;
    const value *dv;
    if (mode == CHAD_JAC_REVERSE) {
      int64_t pos = 0;
      dv = chad_unflatten_tangent(h, ty, y, basis, &pos);
    } else {
      const value *parts[JAC_MAX_PARAMS];
      int64_t pos = 0;
      dv = NULL;
      int ok = 1;
      for (int k = 0; k < n && ok; k++)
        ok = (parts[k] = chad_unflatten_tangent(h, pty[k], pv[k], basis, &pos)) != NULL;
      if (ok)
        dv = chad_ctx_tuple_make(h, n, parts);
    }
    if (!dv) {
      JAC_FREE();
      return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory (heap limit reached)");
    }
    const value *yy, *res;
    rc = run(h, fterm, params, dv, &yy, &res, d);
    if (rc) {
      JAC_FREE();
      return rc;
    }
    if (mode == CHAD_JAC_REVERSE) {       /* row j: C G split per parameter */
      for (int k = 0; k < n; k++) {
        const value *part = chad_ctx_tuple_get(res, n, k);
        flat_balls = balls ? colb + off[k] : NULL;
        int64_t fl = part ? chad_flatten_tangent(h, pty[k], pv[k], part, col + off[k], nin - off[k]) : -1;
        flat_balls = NULL;
        if (fl < 0) {
          JAC_FREE();
          return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0,
                          "internal: cotangent of parameter %d has the wrong shape", k);
        }
      }
      for (int64_t k = 0; k < nin; k++) {
        jac[j * nin + k] = col[k];
        if (balls) arb_set(jacb + j * nin + k, colb + k);
      }
    } else {                              /* column j */
      flat_balls = colb;
      int64_t fl = chad_flatten_tangent(h, ty, y, res, col, nout);
      flat_balls = NULL;
      if (fl < 0) {
        JAC_FREE();
        return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0,
                        "internal: tangent of the result has the wrong shape");
      }
      for (int64_t i = 0; i < nout; i++) {
        jac[i * nin + j] = col[i];
        if (balls) arb_set(jacb + i * nin + j, colb + i);
      }
    }
    heap_release(h, mark);
  }
  value *rows = v_array(h, nout);
  for (int64_t i = 0; rows && i < nout; i++) {
    value *row = v_array(h, nin);
    rows->u.arr.elems[i] = row;
    for (int64_t k = 0; row && k < nin; k++)
      if (!(row->u.arr.elems[k] = balls ? v_ball(h, jacb + i * nin + k) : v_real(h, jac[i * nin + k])))
        row = NULL;
    if (!row)
      rows = NULL;
  }
  JAC_FREE();
#undef JAC_FREE
  if (!rows)
    return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory (heap limit reached)");
  *out_value = y;
  *out_jac = rows;
  return CHAD_EXIT_OK;
}
