/* Value helpers for the CHAD value tests: building parameter values,
 * flattening/perturbing primal Real slots, finite differences. */
#ifndef CHAD_TEST_VALS_H
#define CHAD_TEST_VALS_H

#include <math.h>
#include <stdarg.h>

#include "chad/eval.h"
#include "chad_progs.h"

static heap *H;

__attribute__((unused)) static const value *vr(double r) { return v_real(H, r); }
__attribute__((unused)) static const value *vi(long i) { return v_int(H, i); }
__attribute__((unused)) static const value *vp(const value *a, const value *b) { return v_pair(H, a, b); }
__attribute__((unused)) static const value *varr(int n, ...)
{
  value *a = v_array(H, n);
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++)
    a->u.arr.elems[i] = v_real(H, va_arg(ap, double));
  va_end(ap);
  return a;
}
__attribute__((unused)) static const value *vrows(int n, ...)
{
  value *a = v_array(H, n);
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++)
    a->u.arr.elems[i] = va_arg(ap, const value *);
  va_end(ap);
  return a;
}

/* Real slots of a primal value, in chad_flat order. */
__attribute__((unused)) static void flat_primal(int ty, const value *v, double *out, int *pos)
{
  switch (ty_kind(ty)) {
  case TY_REAL: out[(*pos)++] = v->u.r; break;
  case TY_PROD:
    flat_primal(ty_left(ty), v->u.pair.a, out, pos);
    flat_primal(ty_right(ty), v->u.pair.b, out, pos);
    break;
  case TY_SUM:
    flat_primal(v->kind == V_INL ? ty_left(ty) : ty_right(ty), v->u.pair.a, out, pos);
    break;
  case TY_ARR:
    for (int64_t i = 0; i < v->u.arr.n; i++)
      flat_primal(ty_left(ty), v->u.arr.elems[i], out, pos);
    break;
  default: break;
  }
}

/* A copy of v with Real slot number *j (counting down) increased by eps. */
__attribute__((unused)) static const value *perturb(int ty, const value *v, int *j, double eps)
{
  switch (ty_kind(ty)) {
  case TY_REAL: {
    double r = v->u.r + ((*j) == 0 ? eps : 0.0);
    (*j)--;
    return vr(r);
  }
  case TY_PROD:
  {
    const value *a = perturb(ty_left(ty), v->u.pair.a, j, eps);   /* left first */
    return vp(a, perturb(ty_right(ty), v->u.pair.b, j, eps));
  }
  case TY_SUM:
    return v->kind == V_INL ? v_inl(H, perturb(ty_left(ty), v->u.pair.a, j, eps))
                            : v_inr(H, perturb(ty_right(ty), v->u.pair.a, j, eps));
  case TY_ARR: {
    value *a = v_array(H, v->u.arr.n);
    for (int64_t i = 0; i < v->u.arr.n; i++)
      a->u.arr.elems[i] = perturb(ty_left(ty), v->u.arr.elems[i], j, eps);
    return a;
  }
  default:
    return v;
  }
}

/* Parameters of context g as an array in declaration order. */
__attribute__((unused)) static int params_of(int g, const env *e, const value **pv, int *pty)
{
  int n = ctx_length(g), c = g;
  for (int k = n - 1; k >= 0; k--) {
    pv[k] = e->v;
    pty[k] = ctx_last(c);
    c = ctx_parent(c);
    e = e->next;
  }
  return n;
}

/* Central finite-difference Jacobian of t at params; returns rows*cols in J
 * (row-major, at most cap entries), or -1. */
__attribute__((unused)) static int fd_jacobian(int t, const env *params, double eps, double *J, int cap, int *rows, int *cols)
{
  const value *pv[16];
  int pty[16];
  int n = params_of(tm_ctx(t), params, pv, pty);
  int nin = 0;
  for (int k = 0; k < n; k++)
    nin += (int)chad_flat_count(pty[k], pv[k]);
  eval_error err;
  eval_error_clear(&err);
  const value *y = eval_ref(H, t, params, &err);
  if (!y) return -1;
  int ty = tm_type(t);
  int nout = (int)chad_flat_count(ty, y);
  if (nout * nin > cap) return -1;
  double ya[4096], yb[4096];
  int col = 0;
  for (int k = 0; k < n; k++) {
    int cnt = (int)chad_flat_count(pty[k], pv[k]);
    for (int s = 0; s < cnt; s++, col++) {
      const value *pp[16], *pm[16];
      for (int q = 0; q < n; q++) pp[q] = pm[q] = pv[q];
      int j1 = s, j2 = s;
      pp[k] = perturb(pty[k], pv[k], &j1, eps);
      pm[k] = perturb(pty[k], pv[k], &j2, -eps);
      const value *y1 = eval_ref(H, t, chad_params_env(H, n, pp), &err);
      const value *y2 = eval_ref(H, t, chad_params_env(H, n, pm), &err);
      if (!y1 || !y2) return -1;
      int p1 = 0, p2 = 0;
      flat_primal(ty, y1, ya, &p1);
      flat_primal(ty, y2, yb, &p2);
      if (p1 != nout || p2 != nout) return -1;   /* branch changed shape */
      for (int i = 0; i < nout; i++)
        J[i * nin + col] = (ya[i] - yb[i]) / (2 * eps);
    }
  }
  *rows = nout;
  *cols = nin;
  return 0;
}

__attribute__((unused)) static double jac_at(const value *J, int i, int j) { return J->u.arr.elems[i]->u.arr.elems[j]->u.r; }

__attribute__((unused)) static int close_to(double a, double b, double tol)
{
  double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
  return fabs(a - b) <= tol * (m > 1 ? m : 1);
}

#endif
