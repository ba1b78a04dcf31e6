/* The program properties: each carries one theorem or equation of CHAD
 * (spec/properties.md names them). */
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include "props.h"
#include "fd.h"
#include "certified/ball.h"

const char *const pt_prop_name[PR_N] = {
  "primal (fst F t = fst R t = t)",
  "forward correctness (Thm 8.3, F)",
  "reverse correctness (Thm 8.3, R)",
  "transpose consistency <v,J dx> = <J^T v,dx>",
  "forward and reverse Jacobians agree",
  "type preservation (F, R, simplified)",
  "size: output/input nodes (Cor 7.2)",
  "simplifier preserves values",
  "printed program parses back to the same value",
  "the two evaluators agree (fast = reference)",
  "double evaluators vs certified (derived bound)",
  "primitive Dop/DopT vs finite differences",
};

/* spec/chad.md §6: |F t| <= 24 |t|_v and
 * |R t| <= 24 |t|_v, |.| the tree size, |t|_v weighting var k by k + 1. */
double pt_size_bound = 24.0;
double pt_size_max_f, pt_size_max_r;

/* Rounding of sums whose exact value is 0 (a*b - a*b in another order):
 * far below any real derivative error, which is O(1) in these programs. */
#define PT_ABS_FLOOR 1e-14

static void setf(pt_case *c, int k, int st, const char *fmt, ...) {
  c->st[k] = st;
  if (!fmt) { c->msg[k][0] = 0; return; }
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->msg[k], PT_MSG, fmt, ap);
  va_end(ap);
}

/* Evaluates the program at input vector xs: the FD callback. */
static int eval_at(void *cv, const double *xs, double *ys) {
  pt_case *c = cv;
  const value *a[PT_MAX_PARAMS];
  int pos = 0;
  for (int i = 0; i < c->p.nparams; i++)
    a[i] = pt_unflatten(c->h, c->p.param_ty[i], c->args[i], xs, &pos);
  const char *err;
  const value *y = pt_eval(c->h, c->p.term, pt_env(c->h, &c->p, a), &err);
  if (!y) return -1;
  return pt_flatten(c->p.result_ty, y, ys) == c->m ? 0 : -1;
}

int pt_case_prepare(pt_case *c) {
  const char *err;
  c->n = 0;
  for (int i = 0; i < c->p.nparams; i++) {
    int d = pt_dim(c->p.param_ty[i], c->args[i]);
    if (d < 0 || c->n + d > PT_MAX_DIM) return -1;
    c->n += pt_flatten(c->p.param_ty[i], c->args[i], c->x + c->n);
  }
  c->y = pt_eval(c->h, c->p.term, pt_env(c->h, &c->p, c->args), &err);
  if (!c->y) return -1;
  double ys[PT_MAX_DIM];
  int m = pt_dim(c->p.result_ty, c->y);
  if (m < 0 || m > PT_MAX_DIM) return -1;
  c->m = pt_flatten(c->p.result_ty, c->y, ys);
  for (int j = 0; j < c->m; j++)
    if (!isfinite(ys[j]) || fabs(ys[j]) > 1e8) return -1;
  return 0;
}

static int close_rel(double a, double b, double rel, double scale) {
  return fabs(a - b) <= rel * fmax(scale, fmax(fabs(a), fabs(b)));
}

/* Root type of a translation, by the rules card's P/T/C (own code). */
static int expected_root(const pt_program *p, int rev) {
  int tau = p->result_ty, G = p->ctx;
  if (!rev) return ty_prod(pt_P(tau, 0), ty_lfun(pt_TC_ctx(G, 0), pt_TC(tau, 0)));
  return ty_prod(pt_P(tau, 1), ty_lfun(pt_TC(tau, 1), pt_TC_ctx(G, 1)));
}

static int check_types(pt_case *c, int t, int rev, const char *what, char *out, size_t n) {
  char m[300];
  if (t < 0) { snprintf(out, n, "%s refused the program (code %d)", what, t); return -1; }
  if (pt_retype(t, m, sizeof m) < 0) { snprintf(out, n, "%s: %s", what, m); return -1; }
  if (tm_ctx(t) != pt_P_ctx(c->p.ctx, rev)) { snprintf(out, n, "%s: context is not P G", what); return -1; }
  if (tm_type(t) != expected_root(&c->p, rev)) {
    snprintf(out, n, "%s: type is not %s", what,
             rev ? "P tau * (C tau -o C G)" : "P tau * (T G -o T tau)");
    return -1;
  }
  return 0;
}

/* Evaluates a translation and splits it into (primal, linear map). */
static int run_pair(pt_case *c, int t, const value **prim, const value **lin, const char **err) {
  const value *r = pt_eval(c->h, t, pt_env(c->h, &c->p, c->args), err);
  if (!r) return -1;
  if (r->kind != V_PAIR) { *err = "translation did not evaluate to a pair"; return -1; }
  *prim = r->u.pair.a;
  *lin = r->u.pair.b;
  return 0;
}

/* J dx through a forward derivative value. */
static int fwd_apply(pt_case *c, const value *lin, const double *dx, double *out, const char **err) {
  const value *tan = pt_ctx_lin(c->h, &c->p, c->args, dx);
  const value *r = pt_apply(c->h, lin, tan, err);
  if (!r) return -1;
  if (pt_flatten_lin(c->p.result_ty, c->y, r, out) != c->m) { *err = "malformed tangent value"; return -1; }
  return 0;
}

/* J^T v through a reverse derivative value. */
static int rev_apply(pt_case *c, const value *lin, const double *v, double *out, const char **err) {
  int pos = 0;
  const value *cot = pt_tangent(c->h, c->p.result_ty, c->y, v, &pos);
  const value *r = pt_apply(c->h, lin, cot, err);
  if (!r) return -1;
  if (pt_ctx_lin_flatten(&c->p, c->args, r, out) != c->n) { *err = "malformed cotangent value"; return -1; }
  return 0;
}

static double vmaxabs(const double *a, int n);

static int primal_close(pt_case *c, const value *p, double rel, char *why, size_t n) {
  double a[PT_MAX_DIM], b[PT_MAX_DIM];
  if (pt_dim(c->p.result_ty, p) != c->m) { snprintf(why, n, "primal has another shape"); return 0; }
  pt_flatten(c->p.result_ty, c->y, a);
  pt_flatten(c->p.result_ty, p, b);
  for (int j = 0; j < c->m; j++)
    if (!close_rel(a[j], b[j], rel, rel < 1e-12 ? 1e-300 : 1e-3 * vmaxabs(a, c->m))) {
      snprintf(why, n, "slot %d: %.17g instead of %.17g", j, b[j], a[j]);
      return 0;
    }
  return 1;
}

/* The translations' primal is computed by the same operations as t's:
 * equal up to 1e-12. */
static int primal_equal(pt_case *c, const value *p, char *why, size_t n) {
  return primal_close(c, p, 1e-12, why, n);
}

static double vmaxabs(const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s = fmax(s, fabs(a[i]));
  return s;
}

/* The simplifier on the source program itself: same context, type, value. */
static int simplify_source(pt_case *c, char *why, size_t n) {
  int st = pt_simplify(c->p.term);
  char m[300];
  if (st < 0) { snprintf(why, n, "refused (code %d)", st); return -1; }
  if (pt_retype(st, m, sizeof m) < 0) { snprintf(why, n, "ill-typed: %s", m); return -1; }
  if (tm_ctx(st) != c->p.ctx || tm_type(st) != c->p.result_ty) { snprintf(why, n, "context or type changed"); return -1; }
  const char *err;
  const value *y = pt_eval(c->h, st, pt_env(c->h, &c->p, c->args), &err);
  if (!y) { snprintf(why, n, "evaluation failed: %s", err); return -1; }
  return primal_equal(c, y, why, n) ? 0 : -1;
}

extern int pt_flatten_radius;
extern int pt_use_fast;

/* t's value, J dx and J^T v evaluated on balls at prec bits: midpoints in
 * y, jd, jt and radii in ry, rjd, rjt. 0; 1 when the point is a branch
 * point, undecided at this precision or undefined (no verdict); -1 on an
 * evaluation error. */
static int ball_results(pt_case *c, int F, int R, slong prec, double *y, double *jd, double *jt,
                        double *ry, double *rjd, double *rjt, const char **err) {
  heap *saved = c->h, *hb = heap_new((size_t)1 << 28);
  if (!hb || heap_enable_balls(hb) < 0) { heap_free(hb); *err = "out of memory"; return -1; }
  cert.prec = prec;
  cert.deriv = 1;
  cert.tie = cert.imprecise = 0;
  cert.n_events = 0;
  c->h = hb;
  int rc = 0;
  const value *v, *pf, *lf, *pr, *lr;
  if (!(v = pt_eval(hb, c->p.term, pt_env(hb, &c->p, c->args), err)) ||
      run_pair(c, F, &pf, &lf, err) < 0 || run_pair(c, R, &pr, &lr, err) < 0)
    rc = -1;
  for (int part = 0; part < 2 && rc == 0; part++) {
    pt_flatten_radius = part;
    if (pt_flatten(c->p.result_ty, v, part ? ry : y) != c->m ||
        fwd_apply(c, lf, c->dx, part ? rjd : jd, err) < 0 ||
        rev_apply(c, lr, c->v, part ? rjt : jt, err) < 0)
      rc = -1;
  }
  pt_flatten_radius = 0;
  if (cert.tie || cert.imprecise || cert.n_events) rc = 1;
  for (int j = 0; j < c->m && rc == 0; j++)
    if (!isfinite(y[j]) || !isfinite(jd[j]) || !isfinite(ry[j]) || !isfinite(rjd[j])) rc = 1;
  for (int i = 0; i < c->n && rc == 0; i++)
    if (!isfinite(jt[i]) || !isfinite(rjt[i])) rc = 1;
  c->h = saved;
  heap_free(hb);
  cert.deriv = 0;
  cert.tie = cert.imprecise = 0;
  cert.n_events = 0;
  cert.prec = 64;
  return rc;
}

/* |a - m| within the derived bound: 32 times the 53-bit radius (the
 * first-order bound of a 53-bit evaluation's rounding error, with room for
 * libm's few ulps per operation and the fast evaluator's reassociated sums)
 * plus 8 ulps of the certified value m. */
static int within(double a, double m, double r53) {
  double ulp = nextafter(fabs(m), INFINITY) - fabs(m);
  return fabs(a - m) <= 32 * r53 + 8 * ulp;
}

void pt_case_check(pt_case *c, unsigned mask) {
  char why[400];
  const char *err = "";
  int t = c->p.term;
  for (int k = 0; k < PR_N; k++) setf(c, k, ST_NONE, NULL);
  /* ---- the printed program means the same program ------------------------- */
  if (mask & (1u << PR_ROUNDTRIP)) {
    int g2 = -1;
    int t2 = pt_roundtrip(t, &g2, why, sizeof why);
    const value *y2;
    if (t2 < 0) setf(c, PR_ROUNDTRIP, ST_FAIL, "%s", why);
    else if (g2 != c->p.ctx || tm_type(t2) != c->p.result_ty)
      setf(c, PR_ROUNDTRIP, ST_FAIL, "printed program has another context or type");
    else if (!(y2 = pt_eval(c->h, t2, pt_env(c->h, &c->p, c->args), &err)))
      setf(c, PR_ROUNDTRIP, ST_FAIL, "printed program fails: %s", err);
    else if (!primal_equal(c, y2, why, sizeof why))
      setf(c, PR_ROUNDTRIP, ST_FAIL, "printed program's value differs: %s", why);
    else setf(c, PR_ROUNDTRIP, ST_PASS, NULL);
  }

  int F = pt_forward(t), R = pt_reverse(t);

  /* ---- type preservation ------------------------------------------- */
  if (pt_retype(t, why, sizeof why) < 0) {   /* the generator's own output */
    setf(c, PR_TYPES, ST_FAIL, "source program: %s", why);
    return;
  }
  int fok = check_types(c, F, 0, "F t", why, sizeof why) == 0;
  if (!fok && (mask & (1u << PR_TYPES))) setf(c, PR_TYPES, ST_FAIL, "%s", why);
  int rok = check_types(c, R, 1, "R t", why, sizeof why) == 0;
  if (!rok && (mask & (1u << PR_TYPES)) && c->st[PR_TYPES] != ST_FAIL) setf(c, PR_TYPES, ST_FAIL, "%s", why);
  if (!fok || !rok) {
    for (int k = 0; k < PR_N; k++)
      if ((mask & (1u << k)) && c->st[k] == ST_NONE && k != PR_PRIMS)
        setf(c, k, ST_FAIL, "translation ill-typed or refused: %s", why);
    return;
  }
  int SF = -1, SR = -1;
  if (mask & ((1u << PR_SIMPLIFY) | (1u << PR_TYPES))) {
    SF = pt_simplify(F);
    SR = pt_simplify(R);
    if (mask & (1u << PR_TYPES)) {
      if (check_types(c, SF, 0, "simplify (F t)", why, sizeof why) < 0 ||
          check_types(c, SR, 1, "simplify (R t)", why, sizeof why) < 0)
        setf(c, PR_TYPES, ST_FAIL, "%s", why);
      else setf(c, PR_TYPES, ST_PASS, NULL);
    }
  }

  /* ---- size --------------------------------------------------------- */
  if (mask & (1u << PR_SIZE)) {
    int64_t nt = pt_weighted_size(t), nf = pt_tree_size(F), nr = pt_tree_size(R);
    double rf = (double)nf / nt, rr = (double)nr / nt;
    if (rf > pt_size_max_f) pt_size_max_f = rf;
    if (rr > pt_size_max_r) pt_size_max_r = rr;
    if (rf <= pt_size_bound && rr <= pt_size_bound) setf(c, PR_SIZE, ST_PASS, NULL);
    else setf(c, PR_SIZE, ST_FAIL, "input %lld (weighted), F %lld (x%.1f), R %lld (x%.1f), bound x%.0f",
              (long long)nt, (long long)nf, rf, (long long)nr, rr, pt_size_bound);
  }

  unsigned need_eval = (1u << PR_PRIMAL) | (1u << PR_FWD) | (1u << PR_REV) | (1u << PR_TRANSPOSE) |
                       (1u << PR_JACOBIAN) | (1u << PR_SIMPLIFY) | (1u << PR_EVALS);
  if (!(mask & need_eval)) return;

  const value *pf, *lf, *pr, *lr;
  if (run_pair(c, F, &pf, &lf, &err) < 0 || run_pair(c, R, &pr, &lr, &err) < 0) {
    for (int k = 0; k < PR_N; k++)
      if ((mask & need_eval & (1u << k)))
        setf(c, k, ST_FAIL, "evaluating the translation failed: %s", err);
    return;
  }

  /* ---- primal --------------------------------------------------------- */
  if (mask & (1u << PR_PRIMAL)) {
    if (!primal_equal(c, pf, why, sizeof why)) setf(c, PR_PRIMAL, ST_FAIL, "fst (F t): %s", why);
    else if (!primal_equal(c, pr, why, sizeof why)) setf(c, PR_PRIMAL, ST_FAIL, "fst (R t): %s", why);
    else setf(c, PR_PRIMAL, ST_PASS, NULL);
  }

  /* ---- AD results on dx and v ----------------------------------------- */
  double jdx[PT_MAX_DIM], jtv[PT_MAX_DIM];
  int fwd_ok = fwd_apply(c, lf, c->dx, jdx, &err) == 0;
  c->zero_jac = fwd_ok && vmaxabs(jdx, c->m) == 0.0;
  if (!fwd_ok) {
    for (int k = PR_FWD; k <= PR_SIMPLIFY; k++)
      if ((mask & (1u << k)) && k != PR_REV && k != PR_TYPES && k != PR_SIZE)
        setf(c, k, ST_FAIL, "applying snd (F t) to a tangent failed: %s", err);
  }
  int rev_ok = rev_apply(c, lr, c->v, jtv, &err) == 0;
  if (!rev_ok) {
    for (int k = PR_REV; k <= PR_SIMPLIFY; k++)
      if ((mask & (1u << k)) && k != PR_TYPES && k != PR_SIZE && c->st[k] == ST_NONE)
        setf(c, k, ST_FAIL, "applying snd (R t) to a cotangent failed: %s", err);
  }

  /* ---- forward correctness ------------------------------------------- */
  if ((mask & (1u << PR_FWD)) && fwd_ok) {
    double d[PT_FD_MAX], tol[PT_FD_MAX];
    int s = pt_fd_dir(eval_at, c, c->n, c->m, c->x, c->dx, d, tol);
    if (s != PT_FD_OK) setf(c, PR_FWD, ST_SKIP, NULL);
    else {
      setf(c, PR_FWD, ST_PASS, NULL);
      for (int j = 0; j < c->m; j++)
        if (!(fabs(jdx[j] - d[j]) <= tol[j])) {
          setf(c, PR_FWD, ST_FAIL, "output slot %d: J dx = %.17g, finite differences %.17g +- %.3g",
               j, jdx[j], d[j], tol[j]);
          break;
        }
      /* the command line's path: chad_jvp_values */
      double cj[PT_MAX_DIM];
      const value *tv = pt_jvp_values(c->h, c->p.term, pt_env(c->h, &c->p, c->args),
                                      pt_ctx_lin(c->h, &c->p, c->args, c->dx), &err);
      if (c->st[PR_FWD] == ST_PASS) {
        if (!tv || pt_flatten_lin(c->p.result_ty, c->y, tv, cj) != c->m)
          setf(c, PR_FWD, ST_FAIL, "chad_jvp_values failed: %s", tv ? "malformed tangent" : err);
        else
          for (int j = 0; j < c->m; j++)
            if (!(fabs(cj[j] - d[j]) <= tol[j])) {
              setf(c, PR_FWD, ST_FAIL, "chad_jvp_values, output slot %d: %.17g, finite differences %.17g +- %.3g",
                   j, cj[j], d[j], tol[j]);
              break;
            }
      }
    }
  }

  /* ---- reverse correctness ------------------------------------------- */
  if ((mask & (1u << PR_REV)) && rev_ok) {
    double e[PT_FD_MAX], d[PT_FD_MAX], tol[PT_FD_MAX], fdvjp[PT_MAX_DIM], fdtol[PT_MAX_DIM];
    int skip = 0;
    setf(c, PR_REV, ST_PASS, NULL);
    for (int i = 0; i < c->n && !skip; i++) {
      for (int k = 0; k < c->n; k++) e[k] = k == i;
      int s = pt_fd_dir(eval_at, c, c->n, c->m, c->x, e, d, tol);
      if (s != PT_FD_OK) { skip = 1; break; }
      double vjp = 0, vtol = 0;
      for (int j = 0; j < c->m; j++) { vjp += c->v[j] * d[j]; vtol += fabs(c->v[j]) * tol[j]; }
      fdvjp[i] = vjp;
      fdtol[i] = vtol;
      if (!(fabs(jtv[i] - vjp) <= vtol + 1e-15 * fabs(vjp)) && c->st[PR_REV] == ST_PASS)
        setf(c, PR_REV, ST_FAIL, "input slot %d: (J^T v) = %.17g, finite differences %.17g +- %.3g",
             i, jtv[i], vjp, vtol);
    }
    if (skip) setf(c, PR_REV, ST_SKIP, NULL);
    else if (c->st[PR_REV] == ST_PASS) {
      /* the command line's path: chad_vjp_values, against the same columns */
      double cg[PT_MAX_DIM];
      int pos = 0;
      const value *gv = pt_vjp_values(c->h, c->p.term, pt_env(c->h, &c->p, c->args),
                                      pt_tangent(c->h, c->p.result_ty, c->y, c->v, &pos), &err);
      if (!gv || pt_ctx_lin_flatten(&c->p, c->args, gv, cg) != c->n)
        setf(c, PR_REV, ST_FAIL, "chad_vjp_values failed: %s", gv ? "malformed cotangent" : err);
      else
        for (int i = 0; i < c->n; i++)
          if (!(fabs(cg[i] - fdvjp[i]) <= fdtol[i] + 1e-15 * fabs(fdvjp[i]))) {
            setf(c, PR_REV, ST_FAIL, "chad_vjp_values, input slot %d: %.17g, finite differences %.17g +- %.3g",
                 i, cg[i], fdvjp[i], fdtol[i]);
            break;
          }
    }
  }

  /* ---- transpose consistency ------------------------------------------ */
  if ((mask & (1u << PR_TRANSPOSE)) && fwd_ok && rev_ok) {
    double l = 0, r = 0, sc = 0;
    for (int j = 0; j < c->m; j++) { l += c->v[j] * jdx[j]; sc += fabs(c->v[j] * jdx[j]); }
    for (int i = 0; i < c->n; i++) { r += jtv[i] * c->dx[i]; sc += fabs(jtv[i] * c->dx[i]); }
    double n1v = 0, n1dx = 0;
    for (int j = 0; j < c->m; j++) n1v += fabs(c->v[j]);
    for (int i = 0; i < c->n; i++) n1dx += fabs(c->dx[i]);
    if (fabs(l - r) <= 1e-10 * sc + PT_ABS_FLOOR * n1v * n1dx) setf(c, PR_TRANSPOSE, ST_PASS, NULL);
    else setf(c, PR_TRANSPOSE, ST_FAIL, "<v, J dx> = %.17g but <J^T v, dx> = %.17g", l, r);
  }

  /* ---- Jacobians ------------------------------------------------------ */
  if ((mask & (1u << PR_JACOBIAN)) && fwd_ok && rev_ok) {
    static double JF[PT_MAX_DIM][PT_MAX_DIM], JR[PT_MAX_DIM][PT_MAX_DIM];
    double e[PT_MAX_DIM], col[PT_MAX_DIM];
    int ok = 1;
    for (int i = 0; i < c->n && ok; i++) {
      for (int k = 0; k < c->n; k++) e[k] = k == i;
      if (fwd_apply(c, lf, e, col, &err) < 0) { ok = 0; break; }
      for (int j = 0; j < c->m; j++) JF[j][i] = col[j];
    }
    for (int j = 0; j < c->m && ok; j++) {
      for (int k = 0; k < c->m; k++) e[k] = k == j;
      if (rev_apply(c, lr, e, JR[j], &err) < 0) ok = 0;
    }
    if (!ok) setf(c, PR_JACOBIAN, ST_FAIL, "computing a Jacobian failed: %s", err);
    else {
      double big = 0;
      for (int j = 0; j < c->m; j++) big = fmax(big, fmax(vmaxabs(JF[j], c->n), vmaxabs(JR[j], c->n)));
      setf(c, PR_JACOBIAN, ST_PASS, NULL);
      for (int j = 0; j < c->m && c->st[PR_JACOBIAN] == ST_PASS; j++)
        for (int i = 0; i < c->n; i++)
          if (!(fabs(JF[j][i] - JR[j][i]) <= 1e-10 * (fabs(JF[j][i]) + fabs(JR[j][i])) + 1e-13 * big + PT_ABS_FLOOR)) {
            setf(c, PR_JACOBIAN, ST_FAIL, "entry (%d,%d): forward %.17g, reverse %.17g", j, i, JF[j][i], JR[j][i]);
            break;
          }
    }
  }

  /* ---- simplifier ------------------------------------------------------ */
  if ((mask & (1u << PR_SIMPLIFY)) && fwd_ok && rev_ok) {
    const value *spf, *slf, *spr, *slr;
    double sj[PT_MAX_DIM];
    if (SF < 0 || SR < 0) setf(c, PR_SIMPLIFY, ST_FAIL, "simplifier refused (F: %d, R: %d)", SF, SR);
    else if (run_pair(c, SF, &spf, &slf, &err) < 0 || run_pair(c, SR, &spr, &slr, &err) < 0)
      setf(c, PR_SIMPLIFY, ST_FAIL, "evaluating the simplified term failed: %s", err);
    else if (!primal_equal(c, spf, why, sizeof why) || !primal_equal(c, spr, why, sizeof why))
      setf(c, PR_SIMPLIFY, ST_FAIL, "simplified primal differs: %s", why);
    else if (simplify_source(c, why, sizeof why) < 0)
      setf(c, PR_SIMPLIFY, ST_FAIL, "simplify t: %s", why);
    else if (fwd_apply(c, slf, c->dx, sj, &err) < 0)
      setf(c, PR_SIMPLIFY, ST_FAIL, "simplified forward derivative failed: %s", err);
    else {
      setf(c, PR_SIMPLIFY, ST_PASS, NULL);
      double sc = vmaxabs(jdx, c->m);
      for (int j = 0; j < c->m; j++)
        if (!close_rel(sj[j], jdx[j], 1e-10, 1e-3 * sc)) {
          setf(c, PR_SIMPLIFY, ST_FAIL, "simplified F: tangent slot %d is %.17g, unsimplified %.17g", j, sj[j], jdx[j]);
          break;
        }
      if (c->st[PR_SIMPLIFY] == ST_PASS) {
        if (rev_apply(c, slr, c->v, sj, &err) < 0)
          setf(c, PR_SIMPLIFY, ST_FAIL, "simplified reverse derivative failed: %s", err);
        else {
          sc = vmaxabs(jtv, c->n);
          for (int i = 0; i < c->n; i++)
            if (!close_rel(sj[i], jtv[i], 1e-10, 1e-3 * sc)) {
              setf(c, PR_SIMPLIFY, ST_FAIL, "simplified R: cotangent slot %d is %.17g, unsimplified %.17g", i, sj[i], jtv[i]);
              break;
            }
        }
      }
    }
  }

  /* ---- the two evaluators agree ---------------------------------------
   * t, F t and R t evaluated, and the linear maps applied, by eval_fast; the
   * results must be those of the reference evaluator up to the
   * reassociation of sums (main.c makes the fast evaluator compile every
   * loop and run it in parallel, so the small programs reach its fast paths). */
  if ((mask & (1u << PR_EVALS)) && fwd_ok && rev_ok) {
    const value *yf, *fpf, *flf, *fpr, *flr;
    double fj[PT_MAX_DIM];
    pt_use_fast = 1;
    if (!(yf = pt_eval(c->h, c->p.term, pt_env(c->h, &c->p, c->args), &err)))
      setf(c, PR_EVALS, ST_FAIL, "eval_fast of t failed: %s", err);
    else if (!primal_close(c, yf, 1e-10, why, sizeof why))
      setf(c, PR_EVALS, ST_FAIL, "eval_fast: value of t differs: %s", why);
    else if (run_pair(c, F, &fpf, &flf, &err) < 0 || run_pair(c, R, &fpr, &flr, &err) < 0)
      setf(c, PR_EVALS, ST_FAIL, "eval_fast of F t or R t failed: %s", err);
    else if (!primal_close(c, fpf, 1e-10, why, sizeof why) || !primal_close(c, fpr, 1e-10, why, sizeof why))
      setf(c, PR_EVALS, ST_FAIL, "eval_fast: primal of F t or R t differs: %s", why);
    else if (fwd_apply(c, flf, c->dx, fj, &err) < 0)
      setf(c, PR_EVALS, ST_FAIL, "eval_fast: applying snd (F t) failed: %s", err);
    else {
      setf(c, PR_EVALS, ST_PASS, NULL);
      double sc = vmaxabs(jdx, c->m);
      for (int j = 0; j < c->m; j++)
        if (!close_rel(fj[j], jdx[j], 1e-10, 1e-12 * sc)) {
          setf(c, PR_EVALS, ST_FAIL, "eval_fast: tangent slot %d is %.17g, reference %.17g", j, fj[j], jdx[j]);
          break;
        }
      if (c->st[PR_EVALS] == ST_PASS) {
        if (rev_apply(c, flr, c->v, fj, &err) < 0)
          setf(c, PR_EVALS, ST_FAIL, "eval_fast: applying snd (R t) failed: %s", err);
        else {
          sc = vmaxabs(jtv, c->n);
          for (int i = 0; i < c->n; i++)
            if (!close_rel(fj[i], jtv[i], 1e-10, 1e-12 * sc)) {
              setf(c, PR_EVALS, ST_FAIL, "eval_fast: cotangent slot %d is %.17g, reference %.17g", i, fj[i], jtv[i]);
              break;
            }
        }
      }
    }
    pt_use_fast = 0;
  }

  /* ---- the double evaluators against the certified one -----------------
   * t, J dx and J^T v on balls at 256 bits (the certified values, used when
   * their radius is below 2^-100 of them) and at 53 bits (the error bound);
   * the reference evaluator's and the fast one's results must lie within
   * the bound. Branch points, undefined values and undecided comparisons
   * give no verdict (skip). */
  if ((mask & (1u << PR_CERT)) && fwd_ok && rev_ok) {
    static double by[PT_MAX_DIM], bd[PT_MAX_DIM], bt[PT_MAX_DIM], rby[PT_MAX_DIM], rbd[PT_MAX_DIM], rbt[PT_MAX_DIM];
    static double sy[PT_MAX_DIM], sd[PT_MAX_DIM], st[PT_MAX_DIM], ry[PT_MAX_DIM], rd[PT_MAX_DIM], rt[PT_MAX_DIM];
    int b1 = ball_results(c, F, R, 256, by, bd, bt, rby, rbd, rbt, &err);
    int b2 = b1 ? b1 : ball_results(c, F, R, 53, sy, sd, st, ry, rd, rt, &err);
    if (b1 < 0 || b2 < 0) setf(c, PR_CERT, ST_FAIL, "ball evaluation failed: %s", err);
    else if (b1 || b2) setf(c, PR_CERT, ST_SKIP, NULL);
    else {
      setf(c, PR_CERT, ST_PASS, NULL);
      double yv[2][PT_MAX_DIM], dv[2][PT_MAX_DIM], tv[2][PT_MAX_DIM];
      const value *pf2, *lf2, *pr2, *lr2, *y2;
      for (int fast = 0; fast < 2 && c->st[PR_CERT] == ST_PASS; fast++) {
        pt_use_fast = fast;
        if (!(y2 = pt_eval(c->h, c->p.term, pt_env(c->h, &c->p, c->args), &err)) ||
            pt_flatten(c->p.result_ty, y2, yv[fast]) != c->m ||
            run_pair(c, F, &pf2, &lf2, &err) < 0 || run_pair(c, R, &pr2, &lr2, &err) < 0 ||
            fwd_apply(c, lf2, c->dx, dv[fast], &err) < 0 || rev_apply(c, lr2, c->v, tv[fast], &err) < 0)
          setf(c, PR_CERT, ST_FAIL, "%s evaluator failed: %s", fast ? "fast" : "reference", err);
        pt_use_fast = 0;
        const char *ev = fast ? "fast" : "reference";
        for (int j = 0; j < c->m && c->st[PR_CERT] == ST_PASS; j++) {
          if (rby[j] > 0x1p-100 * fabs(by[j]) + 1e-300 || rbd[j] > 0x1p-100 * fabs(bd[j]) + 1e-300) {
            setf(c, PR_CERT, ST_SKIP, NULL);
            break;
          }
          if (!within(yv[fast][j], by[j], ry[j]))
            setf(c, PR_CERT, ST_FAIL, "%s value slot %d: %.17g, certified %.17g (bound %.3g)", ev, j,
                 yv[fast][j], by[j], 32 * ry[j]);
          else if (!within(dv[fast][j], bd[j], rd[j]))
            setf(c, PR_CERT, ST_FAIL, "%s J dx slot %d: %.17g, certified %.17g (bound %.3g)", ev, j,
                 dv[fast][j], bd[j], 32 * rd[j]);
        }
        for (int i = 0; i < c->n && c->st[PR_CERT] == ST_PASS; i++) {
          if (rbt[i] > 0x1p-100 * fabs(bt[i]) + 1e-300) {
            setf(c, PR_CERT, ST_SKIP, NULL);
            break;
          }
          if (!within(tv[fast][i], bt[i], rt[i]))
            setf(c, PR_CERT, ST_FAIL, "%s J^T v slot %d: %.17g, certified %.17g (bound %.3g)", ev, i,
                 tv[fast][i], bt[i], 32 * rt[i]);
        }
      }
    }
  }
}

/* Whether t2 (in c's context, at c's type) means c's program: its value,
 * J dx and J^T v equal c's in the reference and in the fast evaluator
 * (1e-10 relative to the vector's size: the two terms run the same
 * operations, but their derivatives may sum in another order), and on
 * balls at 256 bits (when `balls`) the two enclosures overlap. Balls give
 * no verdict at a branch point or an undecided comparison (*ball_skipped
 * set). ST_PASS or ST_FAIL with a message in why. */
int pt_case_same(pt_case *c, int t2, int balls, int *ball_skipped, char *why, size_t n) {
  const char *err = "";
  int t1 = c->p.term;
  int F1 = pt_forward(t1), R1 = pt_reverse(t1), F2 = pt_forward(t2), R2 = pt_reverse(t2);
  *ball_skipped = 0;
  if (F1 < 0 || R1 < 0 || F2 < 0 || R2 < 0) {
    snprintf(why, n, "a translation was refused (F %d, R %d; core F %d, R %d)", F1, R1, F2, R2);
    return ST_FAIL;
  }
  static double a[3][PT_MAX_DIM], b[3][PT_MAX_DIM];
  static const char *const what[3] = {"value", "J dx", "J^T v"};
  int dims[3] = {c->m, c->m, c->n};
  for (int fast = 0; fast < 2; fast++) {
    const char *ev = fast ? "fast" : "reference";
    int ts[2] = {t1, t2}, Fs[2] = {F1, F2}, Rs[2] = {R1, R2};
    for (int s = 0; s < 2; s++) {
      double (*o)[PT_MAX_DIM] = s ? b : a;
      const value *y, *pf, *lf, *pr, *lr;
      pt_use_fast = fast;
      int ok = (y = pt_eval(c->h, ts[s], pt_env(c->h, &c->p, c->args), &err)) != NULL &&
               pt_dim(c->p.result_ty, y) == c->m && pt_flatten(c->p.result_ty, y, o[0]) == c->m &&
               run_pair(c, Fs[s], &pf, &lf, &err) == 0 && run_pair(c, Rs[s], &pr, &lr, &err) == 0 &&
               fwd_apply(c, lf, c->dx, o[1], &err) == 0 && rev_apply(c, lr, c->v, o[2], &err) == 0;
      pt_use_fast = 0;
      if (!ok) {
        snprintf(why, n, "%s evaluator on the %s form failed: %s", ev, s ? "core" : "sugared", err);
        return ST_FAIL;
      }
    }
    for (int q = 0; q < 3; q++) {
      double sc = fmax(vmaxabs(a[q], dims[q]), vmaxabs(b[q], dims[q]));
      for (int j = 0; j < dims[q]; j++)
        if (!close_rel(a[q][j], b[q][j], 1e-10, 1e-12 * sc) && !(fabs(a[q][j] - b[q][j]) <= PT_ABS_FLOOR)) {
          snprintf(why, n, "%s evaluator, %s slot %d: sugared %.17g, core %.17g", ev, what[q], j, a[q][j], b[q][j]);
          return ST_FAIL;
        }
    }
  }
  if (!balls) return ST_PASS;
  static double m1[3][PT_MAX_DIM], r1[3][PT_MAX_DIM], m2[3][PT_MAX_DIM], r2[3][PT_MAX_DIM];
  int b1 = ball_results(c, F1, R1, 256, m1[0], m1[1], m1[2], r1[0], r1[1], r1[2], &err);
  if (b1 < 0) { snprintf(why, n, "ball evaluation of the sugared form failed: %s", err); return ST_FAIL; }
  c->p.term = t2;
  int b2 = b1 ? b1 : ball_results(c, F2, R2, 256, m2[0], m2[1], m2[2], r2[0], r2[1], r2[2], &err);
  c->p.term = t1;
  if (b2 < 0) { snprintf(why, n, "ball evaluation of the core form failed: %s", err); return ST_FAIL; }
  if (b1 || b2) { *ball_skipped = 1; return ST_PASS; }
  for (int q = 0; q < 3; q++)
    for (int j = 0; j < dims[q]; j++)
      if (!(fabs(m1[q][j] - m2[q][j]) <= r1[q][j] + r2[q][j])) {
        snprintf(why, n, "balls at 256 bits, %s slot %d: sugared %.17g +- %.3g, core %.17g +- %.3g (disjoint)",
                 what[q], j, m1[q][j], r1[q][j], m2[q][j], r2[q][j]);
        return ST_FAIL;
      }
  return ST_PASS;
}

int pt_tally(const int *st, int n, int skip_row, long *pass, long *skip, long *fail,
             long *reported, long max_reports) {
  int first_fail = -1;
  for (int k = 0; k < n; k++) {
    if (k == skip_row) continue;
    if (st[k] == ST_PASS) pass[k]++;
    else if (st[k] == ST_SKIP) skip[k]++;
    else if (st[k] == ST_FAIL) {
      fail[k]++;
      if (first_fail < 0 && reported[k] < max_reports) first_fail = k;
      reported[k]++;
    }
  }
  return first_fail;
}
