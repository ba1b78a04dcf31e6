/* Unit tests of the primitive table (src/primitives.c):
 *  - registration: op codes, signatures, overload alternatives, names;
 *  - every differentiable primitive's Dop against central finite differences
 *    (step scaled to |x|, tolerance from a two-step error estimate), at many
 *    points including 0, negative and large values;
 *  - transpose consistency <v, Dop(x;dx)> = <DopT(x;v), dx>;
 *  - zero and sparse tangents, tie choices, domain edge cases;
 *  - integer ops: checked overflow, division by zero, INT64_MIN / -1.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad/eval.h"
#include "chad/kernel.h"
#include "chad/primitives.h"

#include "check.h"

static heap *H;

/* ---- flat views of values with real leaves ------------------------------- */

static int count_reals(const value *v) {
  switch (v->kind) {
  case V_REAL: return 1;
  case V_PAIR: return count_reals(v->u.pair.a) + count_reals(v->u.pair.b);
  case V_INL: case V_INR: return count_reals(v->u.pair.a);
  case V_ARRAY: {
    int n = 0;
    for (int64_t i = 0; i < v->u.arr.n; i++) n += count_reals(v->u.arr.elems[i]);
    return n;
  }
  default: return 0;
  }
}

static void flatten(const value *v, double *out, int *k) {
  switch (v->kind) {
  case V_REAL: out[(*k)++] = v->u.r; return;
  case V_PAIR: flatten(v->u.pair.a, out, k); flatten(v->u.pair.b, out, k); return;
  case V_INL: case V_INR: flatten(v->u.pair.a, out, k); return;
  case V_ARRAY:
    for (int64_t i = 0; i < v->u.arr.n; i++) flatten(v->u.arr.elems[i], out, k);
    return;
  default: return;
  }
}

/* A value shaped like `shape` with its reals taken from xs (ints kept).
 * As a tangent (tangent = 1) Int leaves become unit. */
static const value *rebuild(const value *shape, const double *xs, int *k, int tangent) {
  switch (shape->kind) {
  case V_REAL: return v_real(H, xs[(*k)++]);
  case V_INT: return tangent ? v_unit(H) : shape;
  case V_PAIR: {
    const value *a = rebuild(shape->u.pair.a, xs, k, tangent);
    const value *b = rebuild(shape->u.pair.b, xs, k, tangent);
    return v_pair(H, a, b);
  }
  case V_ARRAY: {
    value *r = v_array(H, shape->u.arr.n);
    for (int64_t i = 0; i < shape->u.arr.n; i++)
      r->u.arr.elems[i] = rebuild(shape->u.arr.elems[i], xs, k, tangent);
    return r;
  }
  default: return shape;
  }
}

static const value *mk(const value *shape, const double *xs, int tangent) {
  int k = 0;
  return rebuild(shape, xs, &k, tangent);
}

static const value *reals(int n, const double *xs) {
  value *a = v_array(H, n);
  for (int i = 0; i < n; i++) a->u.arr.elems[i] = v_real(H, xs[i]);
  return a;
}

static const value *R(double x) { return v_real(H, x); }
static const value *P(const value *a, const value *b) { return v_pair(H, a, b); }

static double lcg_state = 12345;
static double rnd(void) { /* deterministic in [-1, 1] */
  lcg_state = fmod(lcg_state * 16807.0, 2147483647.0);
  return 2.0 * lcg_state / 2147483647.0 - 1.0;
}

/* ---- finite differences --------------------------------------------------- */

/* Central difference of op at x along dx with step h (flattened output). */
static int central(int op, const value *x, const double *xv, const double *dxv, int nin,
                   double h, double *out, int nout) {
  double *xp = malloc(sizeof(double) * nin), *xm = malloc(sizeof(double) * nin);
  double *fp = malloc(sizeof(double) * nout), *fm = malloc(sizeof(double) * nout);
  for (int i = 0; i < nin; i++) {
    xp[i] = xv[i] + h * dxv[i];
    xm[i] = xv[i] - h * dxv[i];
  }
  const char *err = NULL;
  const value *yp = prim_eval(H, op, mk(x, xp, 0), &err);
  const value *ym = prim_eval(H, op, mk(x, xm, 0), &err);
  int ok = yp && ym;
  if (ok) {
    int k = 0;
    flatten(yp, fp, &k);
    k = 0;
    flatten(ym, fm, &k);
    for (int i = 0; i < nout; i++) out[i] = (fp[i] - fm[i]) / (2 * h);
  }
  free(xp); free(xm); free(fp); free(fm);
  return ok;
}

static int fd_points;

/* Checks Dop and DopT of op at primal point x against finite differences
 * along random directions, and transposition. */
static void check_point(int op, const value *x) {
  const char *err = NULL;
  const value *y = prim_eval(H, op, x, &err);
  CHECK(y != NULL);
  if (!y) return;
  int nin = count_reals(x), nout = count_reals(y);
  double *xv = malloc(sizeof(double) * (nin + 1)), *dxv = malloc(sizeof(double) * (nin + 1));
  double *jv = malloc(sizeof(double) * (nout + 1)), *f1 = malloc(sizeof(double) * (nout + 1));
  double *f2 = malloc(sizeof(double) * (nout + 1)), *vv = malloc(sizeof(double) * (nout + 1));
  double *wv = malloc(sizeof(double) * (nin + 1));
  int k = 0;
  flatten(x, xv, &k);
  for (int dir = 0; dir < 3; dir++) {
    /* each component's step scales with its own magnitude */
    for (int i = 0; i < nin; i++) dxv[i] = rnd() * fmax(fabs(xv[i]), 1e-3);
    eval_error ee;
    const value *dy = prim_dop(H, op, x, mk(x, dxv, 1), &err);
    CHECK(dy != NULL);
    if (!dy) break;
    const value *dyd = v_densify(H, dy, y, &ee);
    CHECK(dyd != NULL);
    if (!dyd) break;
    k = 0;
    flatten(dyd, jv, &k);
    CHECK(k == nout);
    double h = 1e-5;
    int ok = central(op, x, xv, dxv, nin, h, f1, nout) &&
             central(op, x, xv, dxv, nin, h / 2, f2, nout);
    CHECK(ok);
    for (int i = 0; ok && i < nout; i++) {
      /* f2 has about a quarter of f1's truncation error: |f1 - f2| bounds it. */
      double est = fabs(f1[i] - f2[i]);
      double tol = 4 * est + 1e-7 * fmax(1.0, fabs(f2[i]));
      if (!(fabs(jv[i] - f2[i]) <= tol)) {
        fprintf(stderr, "  %s: Dop %.17g vs finite difference %.17g (tol %.3g) at ", prim_name(op),
                jv[i], f2[i], tol);
        v_fprint(stderr, x);
        fputc('\n', stderr);
      }
      CHECK(fabs(jv[i] - f2[i]) <= tol);
      if (!(est <= 1e-4 * fmax(1.0, fabs(f2[i])))) {
        fprintf(stderr, "  %s: finite differences unstable (%.3g) at ", prim_name(op), est);
        v_fprint(stderr, x);
        fputc('\n', stderr);
      }
      CHECK(est <= 1e-4 * fmax(1.0, fabs(f2[i]))); /* the point is smooth enough */
    }
    /* transposition: <v, J dx> = <J^T v, dx> */
    for (int i = 0; i < nout; i++) vv[i] = rnd();
    const value *ct = prim_dopT(H, op, x, mk(y, vv, 1), &err);
    CHECK(ct != NULL);
    if (!ct) break;
    const value *ctd = v_densify(H, ct, x, &ee);
    CHECK(ctd != NULL);
    if (!ctd) break;
    k = 0;
    flatten(ctd, wv, &k);
    CHECK(k == nin);
    double lhs = 0, rhs = 0, mag = 0;
    for (int i = 0; i < nout; i++) lhs += vv[i] * jv[i], mag += fabs(vv[i] * jv[i]);
    for (int i = 0; i < nin; i++) rhs += wv[i] * dxv[i], mag += fabs(wv[i] * dxv[i]);
    CHECK(fabs(lhs - rhs) <= 1e-12 * fmax(1.0, mag));
    fd_points++;
  }
  free(xv); free(dxv); free(jv); free(f1); free(f2); free(vv); free(wv);
}

/* ---- tests ------------------------------------------------------------------ */

static void test_registration(void) {
  printf("registration: op codes = enum values, signatures, alternatives, names\n");
  CHECK(op_count == P_COUNT);
  int Rt = TY_ID_REAL, I = TY_ID_INT, U = TY_ID_UNIT, A = ty_arr(Rt);
  CHECK(op_dom_[P_SIN] == Rt && op_cod_[P_SIN] == Rt);
  CHECK(op_dom_[P_ADD] == ty_prod(Rt, Rt) && op_tdom_[P_ADD] == ty_prod(Rt, Rt));
  CHECK(op_cod_[P_LT] == ty_sum(U, U) && op_tcod_[P_LT] == ty_prod(U, U));
  CHECK(op_dom_[P_IADD] == ty_prod(I, I) && op_tdom_[P_IADD] == ty_prod(U, U) &&
        op_tcod_[P_IADD] == U);
  CHECK(op_dom_[P_TOREAL] == I && op_tdom_[P_TOREAL] == U && op_tcod_[P_TOREAL] == Rt);
  CHECK(op_dom_[P_MATVEC] == ty_prod(ty_arr(A), A) && op_cod_[P_MATVEC] == A);
  CHECK(op_dom_[P_VSCALE] == ty_prod(Rt, A) && op_cod_[P_LOGSUMEXP] == Rt);
  CHECK(op_alt_[P_ADD] == P_IADD && op_alt_[P_SUB] == P_ISUB && op_alt_[P_MUL] == P_IMUL &&
        op_alt_[P_DIV] == P_IDIV && op_alt_[P_NEG] == P_INEG && op_alt_[P_LT] == P_ILT &&
        op_alt_[P_LE] == P_ILE && op_alt_[P_EQ] == P_IEQ && op_alt_[P_SIN] == -1);
  for (int op = 0; op < P_COUNT; op++) {
    CHECK(prim_name(op) != NULL && prim_by_name(prim_name(op)) == op);
    CHECK(prim_arity(op) == 1 || prim_arity(op) == 2);
    /* arity 2 <=> the domain is a pair */
    CHECK((prim_arity(op) == 2) == (ty_kind(op_dom_[op]) == TY_PROD));
  }
  CHECK(prim_by_name("nosuch") == -1 && prim_by_name(NULL) == -1 && prim_name(P_COUNT) == NULL);
  CHECK(prim_arity(-1) == -1);
  CHECK(strcmp(prim_name(P_LOGSUMEXP), "logsumexp") == 0 && prim_arity(P_MATVEC) == 2);
}

static void test_scalar_fd(void) {
  printf("scalar real ops: Dop vs finite differences and DopT transposition\n");
  static const double pts[] = {0.0, 0.3, -0.7, 1.3, -2.5, 7.0, -9.0, 123.4, -250.0, 1e-3};
  int unary[] = {P_NEG, P_SIN, P_COS, P_TAN, P_EXP, P_LOG, P_SQRT, P_TANH, P_SIGMOID, P_ABS};
  for (size_t u = 0; u < sizeof unary / sizeof unary[0]; u++) {
    int op = unary[u];
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
      double x = pts[i];
      if ((op == P_LOG || op == P_SQRT) && x <= 0) continue;       /* domain */
      if (op == P_ABS && x == 0) continue;                          /* kink */
      if (op == P_EXP && x > 100) continue;                         /* overflow */
      if (op == P_TAN && fabs(cos(x)) < 0.1) continue;              /* pole */
      if ((op == P_SIN || op == P_COS || op == P_TAN) && fabs(x) > 200) continue;
      check_point(op, R(x));
    }
  }
  int binary[] = {P_ADD, P_SUB, P_MUL, P_DIV, P_POW, P_MAX, P_MIN};
  for (size_t b = 0; b < sizeof binary / sizeof binary[0]; b++) {
    int op = binary[b];
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++)
      for (size_t j = 0; j < sizeof pts / sizeof pts[0]; j += 3) {
        double x = pts[i], y = pts[(i + j + 1) % 10];
        if (op == P_DIV && y == 0) continue;
        if (op == P_POW) { x = fabs(x) + 0.5; y = fmod(y, 4.0); }   /* x > 0 */
        if ((op == P_MAX || op == P_MIN) && fabs(x - y) < 1e-2) continue; /* tie */
        check_point(op, P(R(x), R(y)));
      }
  }
  printf("  %d finite-difference directions checked so far\n", fd_points);
}

static void test_array_fd(void) {
  printf("array kernels: Dop vs finite differences and DopT transposition\n");
  double a[] = {0.5, -1.25, 3.0, 0.0, 2.2}, b[] = {-0.3, 0.8, 1.5, -2.0, 10.0};
  double c[] = {100.0, -3.0, 99.5, 0.0, 100.0};
  for (int n = 0; n <= 5; n++) {
    const value *A = reals(n, a), *B = reals(n, b), *C = reals(n, c);
    check_point(P_VADD, P(A, B));
    check_point(P_VMUL, P(A, B));
    check_point(P_DOT, P(A, B));
    check_point(P_VSCALE, P(R(-1.7), B));
    check_point(P_VSCALE, P(R(0.0), A));
    if (n > 0) { /* logsumexp [] = -inf: no finite differences there */
      check_point(P_LOGSUMEXP, A);
      check_point(P_LOGSUMEXP, C); /* large values: stable formula */
    }
    for (int rows = 0; rows <= 3; rows++) {
      value *M = v_array(H, rows);
      for (int i = 0; i < rows; i++) M->u.arr.elems[i] = reals(n, i % 2 ? b : c);
      check_point(P_MATVEC, P(M, A));
    }
  }
  printf("  %d finite-difference directions checked in all\n", fd_points);
}

static int is_err(const value *r, const char *err, const char *want) {
  return r == NULL && err != NULL && strstr(err, want) != NULL;
}

static void test_edges(void) {
  printf("edge values: ties, kinks, domain errors, zero and sparse tangents\n");
  const char *err = NULL;
  eval_error ee;
  /* max picks x at ties, min picks x at ties: derivative flows to x */
  const value *d = prim_dop(H, P_MAX, P(R(2), R(2)), P(R(1), R(0)), &err);
  CHECK(d && d->kind == V_REAL && d->u.r == 1.0);
  d = prim_dop(H, P_MAX, P(R(2), R(2)), P(R(0), R(1)), &err);
  CHECK(d && d->u.r == 0.0);
  d = prim_dopT(H, P_MIN, P(R(-1), R(-1)), R(5), &err);
  CHECK(d && d->kind == V_PAIR && d->u.pair.a->u.r == 5.0 && d->u.pair.b->u.r == 0.0);
  /* abs'(0) = 0 */
  d = prim_dop(H, P_ABS, R(0), R(1), &err);
  CHECK(d && d->u.r == 0.0);
  d = prim_dopT(H, P_ABS, R(-3), R(2), &err);
  CHECK(d && d->u.r == -2.0);
  /* sqrt' at 0 is +inf; sqrt is not differentiable there, so a zero
   * tangent or cotangent gives NaN too (forward and reverse mode agree) */
  d = prim_dop(H, P_SQRT, R(0), R(1), &err);
  CHECK(d && isinf(d->u.r) && d->u.r > 0);
  d = prim_dop(H, P_SQRT, R(0), R(0), &err);
  CHECK(d && isnan(d->u.r));
  d = prim_dopT(H, P_SQRT, R(0), R(0), &err);
  CHECK(d && isnan(d->u.r));
  /* away from 0 a zero tangent gives exactly 0, and other primitives keep
   * "a zero tangent contributes exactly 0" where their partial is infinite */
  d = prim_dop(H, P_SQRT, R(4), R(0), &err);
  CHECK(d && d->u.r == 0.0);
  d = prim_dop(H, P_LOG, R(0), R(0), &err);
  CHECK(d && d->u.r == 0.0);
  /* invalid input gives NaN like C */
  d = prim_eval(H, P_LOG, R(-1), &err);
  CHECK(d && isnan(d->u.r));
  d = prim_eval(H, P_SQRT, R(-4), &err);
  CHECK(d && isnan(d->u.r));
  d = prim_eval(H, P_LOG, R(0), &err);
  CHECK(d && isinf(d->u.r) && d->u.r < 0);
  d = prim_eval(H, P_DIV, P(R(1), R(0)), &err);
  CHECK(d && isinf(d->u.r));
  /* pow: d/dy at x = 0 is 0; d/dx of x^0 is 0 */
  d = prim_dopT(H, P_POW, P(R(0), R(2)), R(1), &err);
  CHECK(d && d->u.pair.a->u.r == 0.0 && d->u.pair.b->u.r == 0.0);
  d = prim_dopT(H, P_POW, P(R(0), R(0)), R(1), &err);
  CHECK(d && d->u.pair.a->u.r == 0.0);
  d = prim_eval(H, P_POW, P(R(2), R(10)), &err);
  CHECK(d && d->u.r == 1024.0);
  /* sigmoid is stable at large |x| */
  d = prim_eval(H, P_SIGMOID, R(-800), &err);
  CHECK(d && d->u.r == 0.0 && !isnan(d->u.r));
  d = prim_eval(H, P_SIGMOID, R(800), &err);
  CHECK(d && d->u.r == 1.0);
  d = prim_dop(H, P_SIGMOID, R(-800), R(1), &err);
  CHECK(d && d->u.r == 0.0);
  /* comparisons: inl () is true */
  d = prim_eval(H, P_LT, P(R(1), R(2)), &err);
  CHECK(d && d->kind == V_INL);
  d = prim_eval(H, P_LE, P(R(2), R(2)), &err);
  CHECK(d && d->kind == V_INL);
  d = prim_eval(H, P_EQ, P(R(2), R(3)), &err);
  CHECK(d && d->kind == V_INR);
  d = prim_eval(H, P_LT, P(R(2), R(2)), &err);
  CHECK(d && d->kind == V_INR);
  d = prim_dop(H, P_LT, P(R(1), R(2)), P(R(1), R(1)), &err);
  CHECK(d && v_is_zero(H, d));
  d = prim_dopT(H, P_EQ, P(R(1), R(2)), P(v_unit(H), v_unit(H)), &err);
  CHECK(d && v_is_zero(H, d));
  /* V_ZERO tangents are accepted everywhere and give zero */
  for (int op = 0; op < P_COUNT; op++) {
    const value *x;
    double three[] = {1, 2, 3};
    switch (ty_kind(op_dom_[op])) {
    case TY_REAL: x = R(0.5); break;
    case TY_INT: x = v_int(H, 3); break;
    case TY_ARR: x = reals(3, three); break;
    default:
      if (op == P_MATVEC) {
        value *M = v_array(H, 2);
        M->u.arr.elems[0] = reals(3, three);
        M->u.arr.elems[1] = reals(3, three);
        x = P(M, reals(3, three));
      } else if (op == P_VSCALE) x = P(R(2), reals(3, three));
      else if (ty_left(op_dom_[op]) == TY_ID_INT) x = P(v_int(H, 7), v_int(H, 2));
      else if (ty_kind(ty_left(op_dom_[op])) == TY_ARR) x = P(reals(3, three), reals(3, three));
      else x = P(R(0.5), R(1.5));
    }
    const value *y = prim_eval(H, op, x, &err);
    CHECK(y != NULL);
    d = prim_dop(H, op, x, v_zero(H), &err);
    CHECK(d && v_is_zero(H, d));
    d = prim_dopT(H, op, x, v_zero(H), &err);
    CHECK(d && v_is_zero(H, d));
  }
  /* sparse tangents equal their dense versions */
  double xa[] = {1, 2, 3, 4}, ya[] = {-1, 0.5, 2, 1};
  const value *X = reals(4, xa), *Y = reals(4, ya);
  const value *sp = v_plus(H, v_onehot(H, 2, R(1.5), &ee), v_onehot(H, 0, R(-2), &ee), &ee);
  double dense[] = {-2, 0, 1.5, 0};
  const value *dn = reals(4, dense);
  const value *d1 = prim_dop(H, P_VMUL, P(X, Y), P(sp, v_zero(H)), &err);
  const value *d2 = prim_dop(H, P_VMUL, P(X, Y), P(dn, reals(4, (double[]){0, 0, 0, 0})), &err);
  CHECK(d1 && d2 && v_approx_equal(H, d1, d2, 0) == 1);
  d1 = prim_dopT(H, P_LOGSUMEXP, X, R(1), &err);
  d2 = prim_dop(H, P_DOT, P(X, Y), P(sp, sp), &err);
  CHECK(d1 && d2 && d2->u.r == -2 * -1 + 1.5 * 2 + -2 * 1 + 1.5 * 3);
  d1 = prim_dopT(H, P_VSCALE, P(R(2), X), sp, &err);
  CHECK(d1 && d1->u.pair.a->u.r == 1.5 * 3 - 2 * 1);
  /* sparse index out of range is an error, not a silent drop */
  err = NULL;
  d = prim_dop(H, P_VADD, P(X, Y), P(v_onehot(H, 4, R(1), &ee), v_zero(H)), &err);
  CHECK(is_err(d, err, "out of bounds"));
  /* length mismatches */
  err = NULL;
  d = prim_eval(H, P_VADD, P(X, reals(3, xa)), &err);
  CHECK(is_err(d, err, "different lengths"));
  err = NULL;
  d = prim_eval(H, P_DOT, P(X, reals(2, xa)), &err);
  CHECK(is_err(d, err, "different lengths"));
  err = NULL;
  d = prim_dop(H, P_VMUL, P(X, Y), P(reals(3, xa), v_zero(H)), &err);
  CHECK(is_err(d, err, "length"));
  value *M = v_array(H, 2);
  M->u.arr.elems[0] = reals(4, xa);
  M->u.arr.elems[1] = reals(3, xa);
  err = NULL;
  d = prim_eval(H, P_MATVEC, P(M, X), &err);
  CHECK(is_err(d, err, "row"));
  err = NULL;
  d = prim_eval(H, P_LOGSUMEXP, v_zero(H), &err);
  CHECK(is_err(d, err, "length-free"));
  /* logsumexp: stable for large entries, -inf for empty */
  d = prim_eval(H, P_LOGSUMEXP, reals(2, (double[]){1000, 1000}), &err);
  CHECK(d && fabs(d->u.r - (1000 + log(2.0))) < 1e-12);
  d = prim_eval(H, P_LOGSUMEXP, reals(0, NULL), &err);
  CHECK(d && isinf(d->u.r) && d->u.r < 0);
  d = prim_eval(H, P_LOGSUMEXP, reals(2, (double[]){-INFINITY, -INFINITY}), &err);
  CHECK(d && isinf(d->u.r) && d->u.r < 0);
  d = prim_dopT(H, P_LOGSUMEXP, reals(2, (double[]){-1000, -1000}), R(1), &err);
  CHECK(d && fabs(d->u.arr.elems[0]->u.r - 0.5) < 1e-15);
  /* wrong shapes are errors */
  err = NULL;
  d = prim_eval(H, P_SIN, v_int(H, 1), &err);
  CHECK(is_err(d, err, "wrong shape"));
  err = NULL;
  d = prim_eval(H, -1, R(1), &err);
  CHECK(is_err(d, err, "unknown"));
}

static const value *ii(int64_t a, int64_t b) { return P(v_int(H, a), v_int(H, b)); }

static void test_int(void) {
  printf("integer ops: values, checked overflow, division by zero, zero derivatives\n");
  const char *err = NULL;
  const value *r;
#define IRES(op, a, b) ((r = prim_eval(H, op, ii(a, b), &err)) ? r->u.i : -424242)
  CHECK(IRES(P_IADD, 2, 3) == 5 && IRES(P_ISUB, 2, 3) == -1 && IRES(P_IMUL, -4, 3) == -12);
  CHECK(IRES(P_IDIV, 7, 2) == 3 && IRES(P_IDIV, -7, 2) == -3);   /* truncation */
  CHECK(IRES(P_IMOD, 7, 3) == 1 && IRES(P_IMOD, -7, 3) == -1);   /* sign of dividend */
  CHECK(IRES(P_IMOD, INT64_MIN, -1) == 0);
  CHECK(IRES(P_IDIV, INT64_MAX, -1) == -INT64_MAX);
  r = prim_eval(H, P_INEG, v_int(H, 5), &err);
  CHECK(r && r->u.i == -5);
  r = prim_eval(H, P_TOREAL, v_int(H, -3), &err);
  CHECK(r && r->kind == V_REAL && r->u.r == -3.0);
  r = prim_eval(H, P_ILT, ii(1, 2), &err);
  CHECK(r && r->kind == V_INL);
  r = prim_eval(H, P_ILE, ii(2, 2), &err);
  CHECK(r && r->kind == V_INL);
  r = prim_eval(H, P_IEQ, ii(2, 3), &err);
  CHECK(r && r->kind == V_INR);
  struct { int op; int64_t a, b; const char *msg; } bad[] = {
      {P_IDIV, 1, 0, "division by zero"},       {P_IMOD, 1, 0, "modulo by zero"},
      {P_IDIV, INT64_MIN, -1, "overflow in idiv"}, {P_IADD, INT64_MAX, 1, "overflow in iadd"},
      {P_ISUB, INT64_MIN, 1, "overflow in isub"}, {P_IMUL, INT64_MAX / 2 + 1, 2, "overflow in imul"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    err = NULL;
    r = prim_eval(H, bad[i].op, ii(bad[i].a, bad[i].b), &err);
    CHECK(is_err(r, err, bad[i].msg));
  }
  err = NULL;
  r = prim_eval(H, P_INEG, v_int(H, INT64_MIN), &err);
  CHECK(is_err(r, err, "overflow in ineg"));
  int zero_ops[] = {P_INEG, P_IADD, P_IDIV, P_ILT, P_TOREAL};
  for (size_t i = 0; i < sizeof zero_ops / sizeof zero_ops[0]; i++) {
    int op = zero_ops[i];
    const value *x = prim_arity(op) == 2 ? ii(6, 3) : v_int(H, 6);
    const value *dx = prim_arity(op) == 2 ? P(v_unit(H), v_unit(H)) : v_unit(H);
    r = prim_dop(H, op, x, dx, &err);
    CHECK(r && v_is_zero(H, r));
    r = prim_dopT(H, op, x, op == P_TOREAL ? R(2.5) : v_unit(H), &err);
    CHECK(r && v_is_zero(H, r));
  }
}

static void test_oom(void) {
  printf("heap exhaustion is an error, not a crash\n");
  heap *small = heap_new(64);
  const char *err = NULL;
  double xs[] = {1, 2, 3, 4, 5, 6, 7, 8};
  const value *X = reals(8, xs);
  const value *r = prim_eval(small, P_VADD, P(X, X), &err);
  CHECK(is_err(r, err, "out of memory"));
  heap_free(small);
}

int main(void) {
  ty_init();
  ctx_init();
  tm_init();
  CHECK(prims_init() == 0);
  CHECK(prims_init() == 0); /* idempotent */
  H = heap_new((size_t)256 << 20);
  test_registration();
  test_scalar_fd();
  test_array_fd();
  test_edges();
  test_int();
  test_oom();
  heap_free(H);
  printf("test_primitives: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
