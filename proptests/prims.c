/* Property: each primitive's Dop (JVP) and DopT (VJP) against finite
 * differences of its primal evaluation, at random points inside its domain
 * and at edge values (0, +-1, tiny and large arguments, ties of max/min,
 * abs at 0). Points where the primitive is not differentiable (ties, abs 0)
 * are detected by the finite differences and counted as skipped. */
#include <math.h>
#include <string.h>
#include "props.h"
#include "fd.h"
#include "chad/eval.h"

typedef struct {
  heap *h;
  int op, dom, cod;
  const value *shape;
  int m;
} pcase;

static int prim_at(void *cv, const double *xs, double *ys) {
  pcase *c = cv;
  int pos = 0;
  const value *x = pt_unflatten(c->h, c->dom, c->shape, xs, &pos);
  const char *err;
  const value *y = prim_eval(c->h, c->op, x, &err);
  if (!y) return -1;
  return pt_flatten(c->cod, y, ys) == c->m ? 0 : -1;
}

static const int smooth_ops[] = {
  P_NEG, P_ADD, P_SUB, P_MUL, P_DIV, P_SIN, P_COS, P_TAN, P_EXP, P_LOG, P_SQRT,
  P_TANH, P_SIGMOID, P_POW, P_MAX, P_MIN, P_ABS,
  P_VADD, P_VMUL, P_VSCALE, P_DOT, P_MATVEC, P_LOGSUMEXP,
  P_LOG1P, P_EXPM1, P_SOFTPLUS, P_ATAN, P_ERF, P_ERFC, P_LGAMMA, P_SINH, P_COSH,
  P_ASINH, P_ACOSH, P_ATANH, P_EXP2, P_LOG2, P_ATAN2, P_HYPOT
};
static const int discrete_ops[] = {
  P_LT, P_LE, P_EQ, P_INEG, P_IADD, P_ISUB, P_IMUL, P_IDIV, P_IMOD, P_ILT, P_ILE, P_IEQ, P_TOREAL
};
#define NSMOOTH ((int)(sizeof smooth_ops / sizeof smooth_ops[0]))
#define NDISC ((int)(sizeof discrete_ops / sizeof discrete_ops[0]))

static double edge(prng *r) {
  static const double e[] = {0.0, 1.0, -1.0, 0.5, -0.5, 1e-6, -1e-6, 3.0, -3.0, 10.0};
  return e[prng_below(r, 10)];
}

/* A point of op's domain, written into x (flat), maybe at an edge. */
static void point(prng *r, int op, double *x, int n, int use_edge) {
  for (int i = 0; i < n; i++) x[i] = use_edge ? edge(r) : prng_range(r, -3, 3);
  switch (op) {
  case P_TAN: x[0] = use_edge ? fmod(x[0], 1.4) : prng_range(r, -1.4, 1.4); break;
  case P_EXP: if (fabs(x[0]) > 10) x[0] = 10; break;
  case P_LOG: case P_SQRT:
    x[0] = use_edge ? (prng_chance(r, 1, 2) ? 1e-3 : 1.0) : prng_range(r, 0.01, 10); break;
  case P_DIV: if (fabs(x[1]) < 0.1) x[1] = use_edge ? 1.0 : 0.1 + fabs(x[1]); break;
  case P_POW: x[0] = use_edge ? (prng_chance(r, 1, 2) ? 1.0 : 0.01) : prng_range(r, 0.05, 4); break;
  case P_MAX: case P_MIN: if (use_edge && prng_chance(r, 1, 2)) x[1] = x[0]; break; /* tie */
  case P_ABS: if (use_edge && prng_chance(r, 1, 2)) x[0] = 0.0; break;
  case P_LOG1P: x[0] = use_edge ? 1e-3 : prng_range(r, -0.9, 5); break;
  case P_LGAMMA: x[0] = use_edge ? 1.0 : prng_range(r, 0.1, 6); break;
  case P_LOG2: x[0] = use_edge ? 1.0 : prng_range(r, 0.01, 10); break;
  case P_ACOSH: x[0] = use_edge ? 2.0 : prng_range(r, 1.05, 5); break;
  case P_ATANH: x[0] = use_edge ? 0.5 : prng_range(r, -0.9, 0.9); break;
  case P_ERF: case P_ERFC: case P_SINH: case P_COSH: case P_EXP2: case P_EXPM1:
    if (fabs(x[0]) > 5) x[0] = 5;
    break;
  case P_ATAN2: case P_HYPOT:   /* away from the origin and atan2's branch cut */
    if (fabs(x[0]) + fabs(x[1]) < 0.1) x[1] = 1.0;
    if (op == P_ATAN2 && x[1] < 0 && fabs(x[0]) < 0.1) x[0] = 0.5;
    break;
  default: break;
  }
}

static double vmaxabs_(const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s = fmax(s, fabs(a[i]));
  return s;
}

static int dom_len(prng *r) { return 1 + prng_below(r, 3); }

/* One check of a smooth primitive; returns ST_PASS / ST_FAIL / ST_SKIP. */
static int check_smooth(prng *r, int op, int use_edge, char *why, size_t wn) {
  pcase c;
  c.h = heap_new((size_t)16 << 20);
  if (!c.h) return ST_SKIP;
  c.op = op;
  c.dom = op_dom_[op];
  c.cod = op_cod_[op];
  c.shape = pt_random_value(c.h, r, c.dom, dom_len(r));
  int n = pt_dim(c.dom, c.shape), pos = 0;
  double x[PT_MAX_DIM], dx[PT_MAX_DIM], v[PT_MAX_DIM], d[PT_MAX_DIM], tol[PT_MAX_DIM];
  double a[PT_MAX_DIM], b[PT_MAX_DIM], e[PT_MAX_DIM];
  point(r, op, x, n, use_edge);
  const value *xv = pt_unflatten(c.h, c.dom, c.shape, x, &pos);
  c.shape = xv;
  const char *err = "";
  const value *y = prim_eval(c.h, op, xv, &err);
  int st = ST_PASS;
  if (!y) { snprintf(why, wn, "%s: primal failed inside its domain: %s", prim_name(op), err); st = ST_FAIL; goto out; }
  c.m = pt_dim(c.cod, y);
  for (int i = 0; i < n; i++) dx[i] = prng_range(r, -1, 1);
  for (int j = 0; j < c.m; j++) v[j] = prng_range(r, -1, 1);
  pos = 0;
  const value *dxv = pt_tangent(c.h, c.dom, xv, dx, &pos);
  pos = 0;
  const value *vv = pt_tangent(c.h, c.cod, y, v, &pos);
  const value *jd = prim_dop(c.h, op, xv, dxv, &err);
  if (!jd || pt_flatten_lin(c.cod, y, jd, a) != c.m) {
    snprintf(why, wn, "%s: Dop failed: %s", prim_name(op), jd ? "malformed" : err); st = ST_FAIL; goto out;
  }
  const value *jt = prim_dopT(c.h, op, xv, vv, &err);
  if (!jt || pt_flatten_lin(c.dom, xv, jt, b) != n) {
    snprintf(why, wn, "%s: DopT failed: %s", prim_name(op), jt ? "malformed" : err); st = ST_FAIL; goto out;
  }
  /* zero in, zero out */
  const value *z = prim_dop(c.h, op, xv, v_zero(c.h), &err);
  double zz[PT_MAX_DIM];
  if (!z || pt_flatten_lin(c.cod, y, z, zz) != c.m || vmaxabs_(zz, c.m) != 0.0) {
    snprintf(why, wn, "%s: Dop(x; 0) is not 0", prim_name(op)); st = ST_FAIL; goto out;
  }
  z = prim_dopT(c.h, op, xv, v_zero(c.h), &err);
  if (!z || pt_flatten_lin(c.dom, xv, z, zz) != n || vmaxabs_(zz, n) != 0.0) {
    snprintf(why, wn, "%s: DopT(x; 0) is not 0", prim_name(op)); st = ST_FAIL; goto out;
  }
  /* Dop against a directional difference */
  int s = pt_fd_dir(prim_at, &c, n, c.m, x, dx, d, tol);
  if (s != PT_FD_OK) { st = ST_SKIP; goto out; }
  for (int j = 0; j < c.m; j++)
    if (!(fabs(a[j] - d[j]) <= tol[j])) {
      snprintf(why, wn, "%s at x[0]=%.17g: Dop slot %d = %.17g, finite differences %.17g +- %.3g",
               prim_name(op), x[0], j, a[j], d[j], tol[j]);
      st = ST_FAIL; goto out;
    }
  /* DopT against the columns of the finite-difference Jacobian */
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < n; k++) e[k] = k == i;
    s = pt_fd_dir(prim_at, &c, n, c.m, x, e, d, tol);
    if (s != PT_FD_OK) { st = ST_SKIP; goto out; }
    double vjp = 0, vt = 0;
    for (int j = 0; j < c.m; j++) { vjp += v[j] * d[j]; vt += fabs(v[j]) * tol[j]; }
    if (!(fabs(b[i] - vjp) <= vt + 1e-15 * fabs(vjp))) {
      snprintf(why, wn, "%s at x[0]=%.17g: DopT slot %d = %.17g, finite differences %.17g +- %.3g",
               prim_name(op), x[0], i, b[i], vjp, vt);
      st = ST_FAIL; goto out;
    }
  }
  /* and the two are transposes of each other */
  double l = 0, rr = 0, sc = 0;
  for (int j = 0; j < c.m; j++) { l += v[j] * a[j]; sc += fabs(v[j] * a[j]); }
  for (int i = 0; i < n; i++) { rr += b[i] * dx[i]; sc += fabs(b[i] * dx[i]); }
  if (!(fabs(l - rr) <= 1e-12 * sc)) {
    snprintf(why, wn, "%s: <v, Dop dx> = %.17g but <DopT v, dx> = %.17g", prim_name(op), l, rr);
    st = ST_FAIL;
  }
out:
  heap_free(c.h);
  return st;
}

/* Comparisons, integer ops, toreal: derivative zero (T Int = Unit). */
static int check_discrete(prng *r, int op, char *why, size_t wn) {
  heap *h = heap_new((size_t)1 << 20);
  if (!h) return ST_SKIP;
  int dom = op_dom_[op], cod = op_cod_[op], st = ST_PASS;
  const value *x = pt_random_value(h, r, dom, 1), *err_v;
  const char *err = "";
  if (op == P_IDIV || op == P_IMOD) x = v_pair(h, x->u.pair.a, v_int(h, 1 + prng_below(r, 3)));
  const value *y = prim_eval(h, op, x, &err);
  if (!y) { snprintf(why, wn, "%s: primal failed: %s", prim_name(op), err); st = ST_FAIL; goto out; }
  int pos = 0;
  double dx[4] = {prng_range(r, -1, 1), prng_range(r, -1, 1), 0, 0};
  const value *dxv = ty_kind(dom) == TY_SUM ? v_zero(h) : pt_tangent(h, dom, x, dx, &pos);
  err_v = prim_dop(h, op, x, dxv, &err);
  if (!err_v || v_is_zero(h, err_v) != 1) { snprintf(why, wn, "%s: Dop is not zero", prim_name(op)); st = ST_FAIL; goto out; }
  pos = 0;
  const value *vv = (op == P_TOREAL) ? v_real(h, prng_range(r, -1, 1))
                    : ty_kind(cod) == TY_SUM ? v_pair(h, v_unit(h), v_unit(h)) : v_unit(h);
  err_v = prim_dopT(h, op, x, vv, &err);
  if (!err_v || v_is_zero(h, err_v) != 1) { snprintf(why, wn, "%s: DopT is not zero", prim_name(op)); st = ST_FAIL; }
out:
  heap_free(h);
  return st;
}

void pt_prop_prims(prng *r, int count, int *pass, int *fail, int *skip, int verbose) {
  char why[500];
  int reported = 0;
  for (int i = 0; i < count; i++) {
    int st, op;
    if (prng_chance(r, 1, 8)) {
      op = discrete_ops[prng_below(r, NDISC)];
      st = check_discrete(r, op, why, sizeof why);
    } else {
      op = smooth_ops[prng_below(r, NSMOOTH)];
      st = check_smooth(r, op, prng_chance(r, 1, 4), why, sizeof why);
    }
    if (st == ST_PASS) (*pass)++;
    else if (st == ST_SKIP) (*skip)++;
    else {
      (*fail)++;
      if (verbose && reported++ < 5) printf("FAIL %s\n  %s\n", pt_prop_name[PR_PRIMS], why);
    }
  }
}
