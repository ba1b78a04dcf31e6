/* CHAD derivative values (rules card §6, CHAD Thm. 8.3):
 *  - golden tests: the CHAD paper's Fig. 1 (a), (b) and Fig. 2 (a), (b)
 *    against hand-derived derivatives;
 *  - for every test program at one or more points: primal of F and R equals
 *    the program's value; forward Jacobian (basis tangents) equals reverse
 *    Jacobian (basis cotangents); both equal central finite differences;
 *  - transposition <v, J dx> = <J^T v, dx> through chad_jvp_values and
 *    chad_vjp_values with non-basis directions. */
#include "chad_vals.h"

#include "check.h"

/* Jacobian both ways; returns the forward one (NULL on failure). */
static const value *jacobians(const char *name, int t, const env *params, const value **y)
{
  chad_diag d = {0};
  const value *Jf = NULL, *Jr = NULL, *yf = NULL, *yr = NULL;
  int rc = chad_jacobian_values(H, t, params, CHAD_JAC_FORWARD, &yf, &Jf, &d);
  CHECKM(rc == 0, "%s: forward jacobian: %s", name, d.msg);
  rc = chad_jacobian_values(H, t, params, CHAD_JAC_REVERSE, &yr, &Jr, &d);
  CHECKM(rc == 0, "%s: reverse jacobian: %s", name, d.msg);
  if (!Jf || !Jr)
    return NULL;
  eval_error err;
  eval_error_clear(&err);
  const value *y0 = eval_ref(H, t, params, &err);
  CHECKM(y0 && v_approx_equal(H, y0, yf, 1e-12) == 1, "%s: forward primal = program value", name);
  CHECKM(y0 && v_approx_equal(H, y0, yr, 1e-12) == 1, "%s: reverse primal = program value", name);
  CHECKM(Jf->u.arr.n == Jr->u.arr.n, "%s: jacobian rows", name);
  int bad = 0;
  for (int64_t i = 0; i < Jf->u.arr.n && i < Jr->u.arr.n; i++) {
    CHECKM(Jf->u.arr.elems[i]->u.arr.n == Jr->u.arr.elems[i]->u.arr.n, "%s: cols", name);
    for (int64_t j = 0; j < Jf->u.arr.elems[i]->u.arr.n; j++)
      if (!close_to(jac_at(Jf, (int)i, (int)j), jac_at(Jr, (int)i, (int)j), 1e-10))
        bad++;
  }
  CHECKM(bad == 0, "%s: forward and reverse Jacobians differ in %d entries", name, bad);
  /* finite differences */
  static double J[65536];
  int rows = 0, cols = 0;
  int frc = fd_jacobian(t, params, 1e-6, J, 65536, &rows, &cols);
  CHECKM(frc == 0, "%s: finite differences failed", name);
  if (frc == 0) {
    CHECKM(rows == Jf->u.arr.n, "%s: FD rows", name);
    int fbad = 0;
    for (int i = 0; i < rows && i < Jf->u.arr.n; i++)
      for (int j = 0; j < cols; j++)
        if (!close_to(J[i * cols + j], jac_at(Jf, i, j), 1e-5)) {
          if (fbad++ < 3)
            printf("  %s: J[%d][%d] chad %.10g fd %.10g\n", name, i, j, jac_at(Jf, i, j), J[i * cols + j]);
        }
    CHECKM(fbad == 0, "%s: Jacobian differs from finite differences in %d entries", name, fbad);
    printf("%s: %dx%d Jacobian, forward = reverse = finite differences\n", name, rows, cols);
  }
  if (y)
    *y = yf;
  return Jf;
}

static const env *mkenv(int n, ...)
{
  const value *parts[16];
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++)
    parts[i] = va_arg(ap, const value *);
  va_end(ap);
  return chad_params_env(H, n, parts);
}

static void golden(void)
{
  /* Fig 1 (a): y = 2x, z = 2x^2, w = cos(2x^2); dy = 2, dz = 4x, dw = -sin(2x^2) 4x */
  double x = 0.7;
  const value *y;
  const value *J = jacobians("fig1a", prog_fig1a(), mkenv(1, vr(x)), &y);
  if (J) {
    CHECKM(close_to(jac_at(J, 0, 0), 2.0, 1e-14), "fig1a dy");
    CHECKM(close_to(jac_at(J, 1, 0), 4 * x, 1e-14), "fig1a dz");
    CHECKM(close_to(jac_at(J, 2, 0), -sin(2 * x * x) * 4 * x, 1e-14), "fig1a dw");
    CHECKM(close_to(y->u.pair.b->u.pair.b->u.r, cos(2 * x * x), 1e-14), "fig1a w");
  }
  /* Fig 1 (b): v = sin w, w = y x3 + x4, y = x1 x4 + 2 x2. */
  double x1 = 0.3, x2 = -1.2, x3 = 0.8, x4 = 1.1;
  J = jacobians("fig1b", prog_fig1b(), mkenv(4, vr(x1), vr(x2), vr(x3), vr(x4)), &y);
  if (J) {
    double yy = x1 * x4 + 2 * x2, w = yy * x3 + x4, wb = cos(w), yb = x3 * wb;
    double g[4] = {yb * x4, 2 * yb, yy * wb, x1 * yb + wb};
    for (int i = 0; i < 4; i++)
      CHECKM(close_to(jac_at(J, 0, i), g[i], 1e-14), "fig1b x%d'", i + 1);
    CHECKM(close_to(y->u.r, sin(w), 1e-14), "fig1b value");
  }
  /* The reverse derivative at one cotangent through chad_vjp_values. */
  {
    int t = prog_fig1b();
    chad_diag d = {0};
    const value *val, *cg;
    int rc = chad_vjp_values(H, t, mkenv(4, vr(x1), vr(x2), vr(x3), vr(x4)), vr(2.0), &val, &cg, &d);
    CHECKM(rc == 0, "fig1b vjp: %s", d.msg);
    if (rc == 0) {
      double yy = x1 * x4 + 2 * x2, w = yy * x3 + x4, wb = 2 * cos(w), yb = x3 * wb;
      double g[4] = {yb * x4, 2 * yb, yy * wb, x1 * yb + wb};
      for (int i = 0; i < 4; i++) {
        const value *p = chad_ctx_tuple_get(cg, 4, i);
        eval_error err;
        eval_error_clear(&err);
        p = p ? v_densify(H, p, vr(0), &err) : NULL;
        CHECKM(p && p->kind == V_REAL && close_to(p->u.r, g[i], 1e-14), "fig1b vjp x%d'", i + 1);
      }
    }
  }
  /* Fig 2 (a): ys_i = x^2 + 1 for n = 3; d ys_i / dx = 2x (n is an Int: no column) */
  x = 1.3;
  J = jacobians("fig2a", prog_fig2a(), mkenv(2, vi(3), vr(x)), &y);
  if (J) {
    CHECKM(J->u.arr.n == 3 && J->u.arr.elems[0]->u.arr.n == 1, "fig2a shape 3x1");
    for (int i = 0; i < 3 && i < J->u.arr.n; i++)
      CHECKM(close_to(jac_at(J, i, 0), 2 * x, 1e-14), "fig2a row %d", i);
    CHECKM(y->kind == V_ARRAY && y->u.arr.n == 3 && close_to(y->u.arr.elems[2]->u.r, x * x + 1, 1e-14), "fig2a value");
  }
  /* Fig 2 (b): w = x1 * sum x2; grad = (sum x2, x1, x1, x1) */
  x1 = 1.5;
  J = jacobians("fig2b", prog_fig2b(), mkenv(2, vr(x1), varr(3, 1.0, 2.0, 3.0)), &y);
  if (J) {
    CHECKM(close_to(jac_at(J, 0, 0), 6.0, 1e-14), "fig2b x1'");
    for (int i = 1; i < 4; i++)
      CHECKM(close_to(jac_at(J, 0, i), x1, 1e-14), "fig2b x2'[%d]", i - 1);
    CHECKM(close_to(y->u.r, 9.0, 1e-14), "fig2b value");
  }
  printf("golden: CHAD paper Fig. 1 (a), (b), Fig. 2 (a), (b) match hand-derived derivatives\n");
}

/* <v, J dx> = <J^T v, dx> with non-basis directions, through the value API */
static void transpose_check(const char *name, int t, const env *params)
{
  const value *pv[16];
  int pty[16];
  int g = tm_ctx(t), n = params_of(g, params, pv, pty);
  double slots[4096];
  for (int i = 0; i < 4096; i++)
    slots[i] = sin(1.7 * i + 0.3);
  const value *parts[16];
  int64_t pos = 0;
  for (int k = 0; k < n; k++)
    parts[k] = chad_unflatten_tangent(H, pty[k], pv[k], slots, &pos);
  const value *dx = chad_ctx_tuple_make(H, n, parts);
  chad_diag d = {0};
  const value *y, *dy, *y2, *cg;
  int rc = chad_jvp_values(H, t, params, dx, &y, &dy, &d);
  CHECKM(rc == 0, "%s: jvp: %s", name, d.msg);
  if (rc) return;
  double vs[4096];
  for (int i = 0; i < 4096; i++)
    vs[i] = cos(0.9 * i + 0.1);
  int64_t p2 = 0;
  const value *v = chad_unflatten_tangent(H, tm_type(t), y, vs, &p2);
  rc = chad_vjp_values(H, t, params, v, &y2, &cg, &d);
  CHECKM(rc == 0, "%s: vjp: %s", name, d.msg);
  if (rc) return;
  double lhs = v_dot(H, v, dy), rhs = 0;
  for (int k = 0; k < n; k++)
    rhs += v_dot(H, chad_ctx_tuple_get(cg, n, k), parts[k]);
  CHECKM(close_to(lhs, rhs, 1e-10), "%s: <v, J dx> = %.15g but <J^T v, dx> = %.15g", name, lhs, rhs);
}

static void all_programs(void)
{
  struct { const char *name; int term; const env *e; } cases[] = {
    {"hof", prog_hof(), mkenv(1, vr(0.4))},
    {"closure", prog_closure(), mkenv(2, vr(0.9), vr(-0.6))},
    {"case(inl)", prog_case(), mkenv(1, vr(0.3))},
    {"case(inr)", prog_case(), mkenv(1, vr(1.2))},
    {"sums(x<0)", prog_sums(), mkenv(1, vr(-0.7))},
    {"sums(x>0)", prog_sums(), mkenv(1, vr(0.8))},
    {"iter", prog_iter(), mkenv(1, vr(0.6))},
    {"iter_pair", prog_iter_pair(), mkenv(2, vr(0.5), vr(0.3))},
    {"build_index", prog_build_index(), mkenv(1, varr(4, 0.5, -1.0, 2.0, 0.25))},
    {"map_sum", prog_map_sum(), mkenv(2, vr(0.7), varr(3, 1.0, -0.5, 2.0))},
    {"misc", prog_misc(), mkenv(3, vp(vr(1.5), vr(-2.0)), vi(1), varr(3, 0.3, 0.4, 0.5))},
    {"array_prims", prog_array_prims(),
     mkenv(2, vrows(3, varr(3, 1.0, 2.0, 0.5), varr(3, 0.1, -1.0, 0.3), varr(3, 0.2, 0.2, -0.4)),
           varr(3, 0.2, 0.4, -0.1))},
    {"nested", prog_nested(), mkenv(1, varr(3, 0.5, 1.5, -1.0))},
    {"sum_out(inl)", prog_sum_out(), mkenv(1, vr(-0.4))},
    {"sum_out(inr)", prog_sum_out(), mkenv(1, vr(0.9))},
    {"arr_pairs", prog_arr_pairs(), mkenv(2, vr(0.6), varr(3, 1.0, -2.0, 0.5))},
    {"fig1a", prog_fig1a(), mkenv(1, vr(-0.4))},
    {"fig2a", prog_fig2a(), mkenv(2, vi(4), vr(-0.3))},
    {"fig2b", prog_fig2b(), mkenv(2, vr(-0.5), varr(2, 4.0, 0.5))},
  };
  int n = (int)(sizeof cases / sizeof cases[0]);
  for (int i = 0; i < n; i++) {
    jacobians(cases[i].name, cases[i].term, cases[i].e, NULL);
    transpose_check(cases[i].name, cases[i].term, cases[i].e);
  }
  printf("%d program/point pairs: primal agreement, forward = reverse Jacobian, finite differences, transposition\n", n);
}

/* helpers of the value API: tuple get/make, params env, flatten/unflatten */
static void helpers(void)
{
  const value *parts[3] = {vr(1.0), vi(7), varr(2, 3.0, 4.0)};
  const value *tup = chad_ctx_tuple_make(H, 3, parts);
  int ok = tup != NULL;
  for (int i = 0; ok && i < 3; i++)
    ok = chad_ctx_tuple_get(tup, 3, i) == parts[i];
  CHECKM(ok, "tuple make/get round trip, declaration order");
  CHECKM(chad_ctx_tuple_get(tup, 3, 3) == NULL && chad_ctx_tuple_get(tup, 3, -1) == NULL, "tuple index bounds");
  const value *z = v_zero(H);
  CHECKM(chad_ctx_tuple_get(z, 3, 1) == z, "a zero tuple gives zero parts");
  const env *e = chad_params_env(H, 3, parts);
  CHECKM(e && e->v == parts[2] && e->next->v == parts[1] && e->next->next->v == parts[0],
         "params env: index 0 is the last parameter");
  /* Real slots of (Real * Int) * (Arr (Real + Real)) with [inl 1, inr 2] */
  int ty = ty_prod(ty_prod(R_, I_), ty_arr(ty_sum(R_, R_)));
  value *arr = v_array(H, 2);
  arr->u.arr.elems[0] = v_inl(H, vr(1.0));
  arr->u.arr.elems[1] = v_inr(H, vr(2.0));
  const value *prim = vp(vp(vr(5.0), vi(3)), arr);
  CHECKM(chad_flat_count(ty, prim) == 3, "three Real slots");
  /* A shape that does not fit its type counts -1, also at a function type. */
  CHECKM(chad_flat_count(ty_fun(R_, R_), vr(1.0)) == -1, "a function type has no slots: -1");
  CHECKM(chad_flat_count(ty_prod(R_, A_), vp(vr(1.0), vr(2.0))) == -1, "a pair not fitting on its right: -1");
  /* The flattening depth limit (1000 levels): a real under 1000 alternating
   * inl/inr is counted, under 1001 refused; each injection counts a level. */
  int sty = R_;
  const value *sv = vr(1.0);
  for (int i = 0; i < 1001; i++) {
    if (i == 1000)
      CHECKM(chad_flat_count(sty, sv) == 1, "1000 nested injections: one Real slot");
    sty = i % 2 ? ty_sum(U_, sty) : ty_sum(sty, U_);
    sv = i % 2 ? v_inr(H, sv) : v_inl(H, sv);
  }
  CHECKM(chad_flat_count(sty, sv) == -1, "1001 nested injections: past the depth limit, -1");
  /* ... and through either side of pairs: a real under 1000 pairs, each
   * with a real on its other side, is 1001 slots, under 1001 refused */
  for (int side = 0; side < 2; side++) {
    int pty = R_;
    const value *pv = vr(1.0);
    for (int i = 0; i < 1001; i++) {
      if (i == 1000)
        CHECKM(chad_flat_count(pty, pv) == 1001, "1000 nested pairs (%s): 1001 Real slots",
               side ? "right" : "left");
      pty = side ? ty_prod(R_, pty) : ty_prod(pty, R_);
      pv = side ? vp(vr(1.0), pv) : vp(pv, vr(1.0));
    }
    CHECKM(chad_flat_count(pty, pv) == -1, "1001 nested pairs (%s): past the depth limit, -1",
           side ? "right" : "left");
  }
  double slots[3] = {0.5, -1.5, 2.5}, back[3] = {0, 0, 0};
  int64_t pos = 0;
  const value *tan = chad_unflatten_tangent(H, ty, prim, slots, &pos);
  CHECKM(tan && pos == 3, "unflatten consumes three slots");
  int64_t n = tan ? chad_flatten_tangent(H, ty, prim, tan, back, 3) : -1;
  CHECKM(n == 3 && back[0] == 0.5 && back[1] == -1.5 && back[2] == 2.5, "flatten(unflatten) = id");
  CHECKM(chad_flatten_tangent(H, ty, prim, v_zero(H), back, 3) == 3 && back[0] == 0 && back[2] == 0,
         "zero flattens to zeros");
  CHECKM(chad_flatten_tangent(H, ty, prim, tan, back, 2) < 0, "capacity respected");
  /* Jacobians with no output slots (an Int result) and with no parameters */
  int ga = ext(CTX_EMPTY, A_);
  int len = OK(tm_length(var(ga, 0)));
  const value *y = NULL, *J = NULL;
  chad_diag d = {0};
  for (int mode = 0; mode < 2; mode++) {
    int rc = chad_jacobian_values(H, len, chad_params_env(H, 1, (const value *[]){varr(2, 1.0, 2.0)}),
                                  mode, &y, &J, &d);
    CHECKM(rc == 0 && J && J->u.arr.n == 0 && y->kind == V_INT && y->u.i == 2,
           "Int result: value 2, Jacobian with no rows (%s)", d.msg);
  }
  int closed = op1(P_SIN, rc(CTX_EMPTY, 1.0));
  for (int mode = 0; mode < 2; mode++) {
    int rc2 = chad_jacobian_values(H, closed, NULL, mode, &y, &J, &d);
    CHECKM(rc2 == 0 && J && J->u.arr.n == 1 && J->u.arr.elems[0]->u.arr.n == 0 &&
           close_to(y->u.r, sin(1.0), 1e-15), "no parameters: 1x0 Jacobian (%s)", d.msg);
  }
  printf("value API helpers: tuples, parameter environments, flatten/unflatten, empty Jacobians\n");
}

int main(void)
{
  prog_setup();
  H = heap_new((size_t)1 << 28);
  helpers();
  golden();
  all_programs();
  heap_free(H);
  printf("test_chad_values: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
