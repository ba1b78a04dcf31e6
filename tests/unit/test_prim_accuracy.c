/* Accuracy of the double evaluators (fast and reference) against the
 * certified evaluator: every real primitive's value, forward derivative
 * (jvp) and transposed derivative (vjp) over a grid that includes the
 * tails, subnormals, near-overflow arguments and domain edges. For each
 * primitive and evaluator it prints the worst error in ulps of the
 * correctly rounded result, and fails when one exceeds the stated bound
 * (spec/evaluator.md, "Accuracy"):
 *   - a finite correctly rounded result: at most MAX_ULPS ulps away;
 *   - an infinite one (overflow): the same infinity;
 *   - where the certified evaluator finds no value ("undefined": a domain
 *     edge such as sqrt' at 0, or a pole), not compared here (the
 *     command-line tests check those answers).
 */
#include <float.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad.h"

/* libm (glibc) is within 1 ulp for these functions and libmvec within 4;
 * a derivative composes at most three such steps. */
#define MAX_ULPS 8.0

static int failures = 0;
static int npoints = 1;   /* grid points of the program being checked */

/* Distance of c from the correctly rounded r in ulps of r. */
static double ulps(double c, double r) {
  if (c == r) return 0;
  if (isnan(c) || isnan(r) || isinf(c) || isinf(r)) return INFINITY;
  double ar = fabs(r);
  double u = nextafter(ar, INFINITY) - ar;
  return fabs(c - r) / u;
}

/* The grid: magnitudes from the smallest subnormal to DBL_MAX, both signs,
 * and the double nearest the minimum of lgamma (the root of digamma, its
 * derivative, which is -9.2e-17 there: an error absolute rather than
 * relative to the result, such as one in digamma's asymptotic series,
 * shows there by many ulps). */
static int grid(double *xs, int cap) {
  static const double special[] = {
      0.0,     4.9406564584124654e-324, 1e-310, 2.2250738585072014e-308, 1e-300, 1e-200,
      1e-100,  1e-30,  1e-20, 1e-16, 1e-8,  1e-4,  0.1,   0.25,  0.5,    0.75,  1.0,
      1.25,    1.4616321449683622,   1.5,    2.0,   3.0,   5.0,   7.5,   10.0,  17.0,  19.5,
      20.0,    25.0,   36.0,  40.0,  50.0,  100.0, 300.0, 354.0, 500.0, 700.0, 709.78, 710.0,
      745.0,   1000.0, 1e5,   1e10,  1e16,  1e22,  1e100, 1e200, 1e300, DBL_MAX};
  int n = 0;
  for (size_t i = 0; i < sizeof special / sizeof special[0] && n + 2 <= cap; i++) {
    xs[n++] = special[i];
    if (special[i] != 0) xs[n++] = -special[i];
  }
  return n;
}

static char *grid_json(const double *xs, int n) {
  size_t cap = (size_t)n * 32 + 16;
  char *s = malloc(cap);
  size_t len = 0;
  len += (size_t)snprintf(s + len, cap - len, "[[");
  for (int i = 0; i < n; i++)
    len += (size_t)snprintf(s + len, cap - len, "%s%.17g", i ? ", " : "", xs[i]);
  snprintf(s + len, cap - len, "]]");
  return s;
}

/* "[1.0, ..., 1.0]" (n entries); wrapped: "[[1.0, ..., 1.0]]". */
static char *ones_(int n, int wrapped) {
  size_t cap = (size_t)n * 6 + 16;
  char *s = malloc(cap);
  size_t len = (size_t)snprintf(s, cap, "%s", wrapped ? "[[" : "[");
  for (int i = 0; i < n; i++) len += (size_t)snprintf(s + len, cap - len, "%s1.0", i ? ", " : "");
  snprintf(s + len, cap - len, "%s", wrapped ? "]]" : "]");
  return s;
}
static char *ones(int n) { return ones_(n, 1); }
static char *zeros(int n) {
  char *s = ones_(n, 0);
  for (char *q = s; *q; q++)
    if (*q == '1') *q = '0';
  return s;
}

/* Runs one command on the program; returns the JSON array at `key` of its
 * output (or the whole output when key is NULL). */
static json_t *run(chad_prog *p, chad_evaluator ev, const char *cmd, const char *args,
                   const char *extra, const char *key) {
  chad_set_evaluator(ev);
  chad_json a = chad_json_text(args, "<args>"), x = chad_json_text(extra, "<extra>");
  char *out = NULL;
  chad_diag d;
  int rc;
  if (strcmp(cmd, "eval") == 0) rc = chad_eval(p, NULL, &a, &out, &d);
  else if (strcmp(cmd, "jvp") == 0) rc = chad_jvp(p, NULL, &a, &x, &out, &d);
  else rc = chad_vjp(p, NULL, &a, &x, &out, &d);
  if (rc != 0 && !(rc == CHAD_EXIT_NONDIFF && out) && getenv("ACCURACY_DEBUG"))
    fprintf(stderr, "%s %s failed (%d): %s\n", ev == CHAD_EVAL_BALL ? "certified" : "double", cmd, rc, d.msg);
  if (rc != 0 && !(ev == CHAD_EVAL_BALL && rc == CHAD_EXIT_NONDIFF && out)) {
    /* the double evaluators reject non-finite outputs: compare nothing */
    free(out);
    return NULL;
  }
  json_error_t je;
  json_t *j = json_loads(out, JSON_DECODE_ANY, &je);
  free(out);
  if (!j) return NULL;
  if (!key) {   /* eval: the array itself */
    return j;
  }
  json_t *v = json_object_get(j, key);
  /* vjp: one array per parameter, flattened in order */
  json_t *flat = json_array();
  size_t i;
  json_t *e;
  json_array_foreach(v, i, e) {
    if (json_is_array(e)) json_array_extend(flat, e);
    else json_array_append(flat, e);
  }
  json_decref(j);
  return flat;
}

/* The double evaluators refuse a whole output with a non-finite number in
 * it, so they are run one grid point at a time: a refused point is JSON
 * null (its value is an infinity or NaN). args/extra hold nparams arrays
 * of npoints numbers (extra: one per parameter for jvp, the result's
 * cotangent for vjp). */
static json_t *run_points(chad_prog *p, chad_evaluator ev, const char *cmd, json_t *args,
                          json_t *extra, const char *key) {
  json_t *all = json_array();
  size_t np = json_array_size(json_array_get(args, 0));
  for (size_t i = 0; i < np; i++) {
    json_t *a1 = json_array(), *x1;
    for (size_t k = 0; k < json_array_size(args); k++)
      json_array_append_new(a1, json_pack("[O]", json_array_get(json_array_get(args, k), i)));
    if (strcmp(cmd, "vjp") == 0) x1 = json_pack("[O]", json_array_get(extra, i));
    else {
      x1 = json_array();
      for (size_t k = 0; k < json_array_size(extra); k++)
        json_array_append_new(x1, json_pack("[O]", json_array_get(json_array_get(extra, k), i)));
    }
    char *as = json_dumps(a1, 0), *xs = json_dumps(x1, 0);
    json_t *r = run(p, ev, cmd, as, xs, key);
    /* entries per point: one per parameter for vjp, one otherwise */
    size_t per = strcmp(cmd, "vjp") == 0 ? json_array_size(args) : 1;
    for (size_t k = 0; k < per; k++)
      json_array_append_new(all, r && json_array_size(r) == per ? json_incref(json_array_get(r, k))
                                                                : json_null());
    json_decref(r);
    free(as);
    free(xs);
    json_decref(a1);
    json_decref(x1);
  }
  if (strcmp(cmd, "vjp") == 0 && json_array_size(args) == 2) {
    /* reorder (gx_i, gy_i) pairs as [gx..., gy...] like the certified run */
    json_t *o = json_array();
    for (size_t i = 0; i < json_array_size(all); i += 2) json_array_append(o, json_array_get(all, i));
    for (size_t i = 1; i < json_array_size(all); i += 2) json_array_append(o, json_array_get(all, i));
    json_decref(all);
    all = o;
  }
  return all;
}

static double num(json_t *v, int *kind) {
  /* kind: 0 number, 1 +inf, 2 -inf, 3 no value, 4 refused (non-finite) */
  *kind = 0;
  if (json_is_null(v)) { *kind = 4; return NAN; }
  if (json_is_number(v)) return json_number_value(v);
  const char *s = json_string_value(v);
  if (s && strcmp(s, "+infinity") == 0) { *kind = 1; return INFINITY; }
  if (s && strcmp(s, "-infinity") == 0) { *kind = 2; return -INFINITY; }
  *kind = 3;
  return NAN;
}

/* Compares candidate arrays (fast, ref) against the certified one. */
/* skip[i]: some certified entry at grid point i (value or derivative) is
 * not finite, so the double evaluators refuse the whole point. */
static char skip[4096];

static void compare(const char *op, const char *what, json_t *cert, json_t *cand, const char *ev,
                    const double *xs, const double *ys) {
  if (!cert) {
    printf("FAIL %s %s: no certified result\n", op, what);
    failures++;
    return;
  }
  double worst = 0;
  int worst_i = -1, compared = 0;
  size_t n = json_array_size(cert);
  for (size_t i = 0; i < n; i++) {
    int k;
    double r = num(json_array_get(cert, i), &k);
    if (k == 3) continue;                    /* no value: a domain edge */
    if (!cand) continue;                     /* the double evaluator refused (non-finite) */
    int kc;
    double c = num(json_array_get(cand, i), &kc);
    compared++;
    /* a refused point is right only where the true result overflows */
    if (kc == 4 && skip[i % (size_t)npoints]) { compared--; continue; }
    double e = kc == 4 ? (k == 1 || k == 2 ? 0 : INFINITY) : ulps(c, r);
    if (e > MAX_ULPS && getenv("ACCURACY_DEBUG"))
      fprintf(stderr, "  %s %s %s [%zu]: %.17g, certified %.17g\n", op, what, ev, i, c, r);
    if (e > worst) { worst = e; worst_i = (int)i; }
  }
  int bad = worst > MAX_ULPS;
  printf("%s %-9s %-5s %-4s worst %8.3g ulps over %d points", bad ? "FAIL" : "ok  ", op, what, ev,
         worst, compared);
  if (worst_i >= 0) {
    worst_i %= npoints;
    if (ys) printf(" (at x = %.17g, y = %.17g)", xs[worst_i], ys[worst_i]);
    else printf(" (at x = %.17g)", xs[worst_i]);
  }
  printf("\n");
  if (bad) failures++;
}

/* tan: the tangent of the jvp run; tan2 (binary ops): a second one, so
 * that each partial derivative is compared on its own. */
static void check_program(const char *op, const char *src, const char *args, const char *tan,
                          const char *tan2, const char *cot, const double *xs, const double *ys) {
  chad_diag d;
  npoints = 0;
  for (const char *q = cot; *q; q++) npoints += *q == ',';
  npoints++;
  chad_prog *p = chad_load_string(src, strlen(src), "<accuracy>", &d);
  if (!p) {
    printf("FAIL %s: program does not load: %s\n", op, d.msg);
    failures++;
    return;
  }
  static const char *const cmds[] = {"eval", "jvp", "jvp", "vjp"};
  static const char *const keys[] = {NULL, "tangent", "tangent", "cotangent"};
  memset(skip, 0, sizeof skip);
  for (int c = 0; c < 4; c++) {
    if (c == 2 && !tan2) continue;
    const char *extra = c == 3 ? cot : c == 2 ? tan2 : tan;
    json_t *cert = run(p, CHAD_EVAL_BALL, cmds[c], args, extra, keys[c]);
    for (size_t i = 0; cert && i < json_array_size(cert); i++)
      if (!json_is_number(json_array_get(cert, i))) skip[i % (size_t)npoints] = 1;
    json_error_t je;
    json_t *ja = json_loads(args, 0, &je), *jx = json_loads(extra, 0, &je);
    json_t *fast = run_points(p, CHAD_EVAL_FAST, cmds[c], ja, jx, keys[c]);
    json_t *ref = run_points(p, CHAD_EVAL_REF, cmds[c], ja, jx, keys[c]);
    json_decref(ja);
    json_decref(jx);
    static const char *const names[] = {"value", "jvp", "jvp-y", "vjp"};
    compare(op, names[c], cert, ref, "ref", xs, ys);
    compare(op, names[c], cert, fast, "fast", xs, ys);
    json_decref(cert);
    json_decref(fast);
    json_decref(ref);
  }
  chad_free(p);
}

/* logsumexp and its gradient (softmax) on arrays with entries near
 * overflow, of very different magnitudes, and of one dominant entry. */
static void check_logsumexp(void) {
  static const char *const arrays[] = {
      "[[1e308, 1e308]]", "[[0.0, -1000.0]]", "[[1.0, 1e-20]]", "[[-745.0, -745.0, -745.0]]",
      "[[700.0, 0.0, -700.0]]", "[[1e-300, -1e-300]]", "[[40.0, 0.0]]", "[[-0.69314718055994529, -0.69314718055994529]]",
      "[[3.0, 2.0, 1.0, 0.5, -1.0, -20.0]]"};
  const char *src = "def f (xs : [real]) : real = logsumexp xs\n";
  chad_diag d;
  chad_prog *p = chad_load_string(src, strlen(src), "<accuracy>", &d);
  for (int c = 0; c < 2; c++) {
    double worst[2] = {0, 0};
    int compared = 0;
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++) {
      const char *cmd = c == 0 ? "eval" : "vjp", *key = c == 0 ? NULL : "cotangent";
      json_t *cert = run(p, CHAD_EVAL_BALL, cmd, arrays[k], "1.0", key);
      json_t *cand[2] = {run(p, CHAD_EVAL_REF, cmd, arrays[k], "1.0", key),
                         run(p, CHAD_EVAL_FAST, cmd, arrays[k], "1.0", key)};
      if (cert && !json_is_array(cert)) {   /* eval of a real: one number */
        json_t *w = json_pack("[O]", cert);
        json_decref(cert);
        cert = w;
        for (int e = 0; e < 2; e++)
          if (cand[e]) { w = json_pack("[O]", cand[e]); json_decref(cand[e]); cand[e] = w; }
      }
      for (int e = 0; e < 2; e++) {
        if (!cert || !cand[e] || json_array_size(cert) != json_array_size(cand[e])) {
          printf("FAIL logsumexp %s: no result for %s\n", cmd, arrays[k]);
          failures++;
          continue;
        }
        for (size_t i = 0; i < json_array_size(cert); i++) {
          int kr, kc;
          double r = num(json_array_get(cert, i), &kr), x = num(json_array_get(cand[e], i), &kc);
          double u = kr == 0 ? ulps(x, r) : 0;
          if (u > worst[e]) worst[e] = u;
          if (getenv("ACCURACY_DEBUG") && u > MAX_ULPS)
            fprintf(stderr, "  logsumexp %s %s [%zu]: %.17g, certified %.17g\n", cmd, arrays[k], i, x, r);
          compared++;
        }
        json_decref(cand[e]);
      }
      json_decref(cert);
    }
    for (int e = 0; e < 2; e++) {
      int bad = worst[e] > MAX_ULPS;
      printf("%s logsumexp %-5s %-4s worst %8.3g ulps over %d entries\n", bad ? "FAIL" : "ok  ",
             c == 0 ? "value" : "vjp", e == 0 ? "ref" : "fast", worst[e], compared / 2);
      if (bad) failures++;
    }
  }
  chad_free(p);
}

int main(void) {
  double xs[256];
  int n = grid(xs, 256);
  char *args = grid_json(xs, n), *tan = ones(n), *cot = ones_(n, 0);
  static const char *const unary[] = {"neg", "sin", "cos", "tan", "exp", "log", "sqrt", "tanh",
                                      "sigmoid", "abs", "log1p", "expm1", "softplus", "atan",
                                      "erf", "erfc", "lgamma", "sinh", "cosh", "asinh", "acosh",
                                      "atanh", "exp2", "log2"};
  for (size_t k = 0; k < sizeof unary / sizeof unary[0]; k++) {
    /* abs at 0 is a kink: the grid for abs leaves 0 out */
    char src[256];
    snprintf(src, sizeof src, "def f (xs : [real]) : [real] = map (fun (x : real) -> %s x) xs\n",
             unary[k]);
    if (strcmp(unary[k], "abs") == 0) {
      char *a2 = grid_json(xs + 1, n - 1), *t2 = ones(n - 1), *c2 = ones_(n - 1, 0);
      check_program(unary[k], src, a2, t2, NULL, c2, xs + 1, NULL);
      free(a2);
      free(t2);
      free(c2);
    } else {
      check_program(unary[k], src, args, tan, NULL, cot, xs, NULL);
    }
  }
  /* binary ops on pairs of grid points: x against a few y's each */
  static const double yv[] = {-3.0, -0.5, 1e-300, 0.5, 1.0, 2.5, 1e10, 1e300};
  double bx[2048], by[2048];
  int m = 0;
  for (int i = 0; i < n; i++)
    for (size_t j = 0; j < sizeof yv / sizeof yv[0]; j++) {
      bx[m] = xs[i];
      by[m] = yv[j];
      m++;
    }
  static const char *const binary[] = {"add", "sub", "mul", "div", "pow", "max", "min", "atan2", "hypot"};
  static const char *const infix[] = {"+", "-", "*", "/", NULL, NULL, NULL, NULL, NULL};
  char *bxs = grid_json(bx, m), *bys = grid_json(by, m);
  size_t cap = strlen(bxs) + strlen(bys) + 16;
  char *bargs = malloc(cap);
  /* [[xs], [ys]] */
  snprintf(bargs, cap, "[%.*s, %.*s]", (int)strlen(bxs) - 2, bxs + 1, (int)strlen(bys) - 2, bys + 1);
  char *t1 = ones_(m, 0);
  char *z1 = zeros(m);
  char *btan = malloc(2 * strlen(t1) + 8), *btan2 = malloc(2 * strlen(t1) + 8);
  sprintf(btan, "[%s, %s]", t1, z1);
  sprintf(btan2, "[%s, %s]", z1, t1);
  for (size_t k = 0; k < sizeof binary / sizeof binary[0]; k++) {
    char src[512], body[64];
    if (infix[k]) snprintf(body, sizeof body, "xs[i] %s ys[i]", infix[k]);
    else snprintf(body, sizeof body, "%s xs[i] ys[i]", binary[k]);
    snprintf(src, sizeof src,
             "def f (xs : [real], ys : [real]) : [real] = build (length xs) (fun (i : int) -> %s)\n",
             body);
    /* ties of max/min (x = y) are kinks: the y's are not on the x grid but
     * 1.0, 0.5, 2.5 are; those points are left out for max and min */
    if (strcmp(binary[k], "max") == 0 || strcmp(binary[k], "min") == 0) {
      double cx[2048], cy[2048];
      int mm = 0;
      for (int i = 0; i < m; i++)
        if (bx[i] != by[i]) { cx[mm] = bx[i]; cy[mm] = by[i]; mm++; }
      char *a1 = grid_json(cx, mm), *a2 = grid_json(cy, mm), *o = ones_(mm, 0);
      size_t c2 = strlen(a1) + strlen(a2) + 16;
      char *aa = malloc(c2), *tt = malloc(2 * strlen(o) + 8);
      snprintf(aa, c2, "[%.*s, %.*s]", (int)strlen(a1) - 2, a1 + 1, (int)strlen(a2) - 2, a2 + 1);
      char *z = zeros(mm), *tt2 = malloc(2 * strlen(o) + 8);
      sprintf(tt, "[%s, %s]", o, z);
      sprintf(tt2, "[%s, %s]", z, o);
      check_program(binary[k], src, aa, tt, tt2, o, cx, cy);
      free(z);
      free(tt2);
      free(a1); free(a2); free(o); free(aa); free(tt);
    } else {
      check_program(binary[k], src, bargs, btan, btan2, t1, bx, by);
    }
  }
  free(bxs);
  free(bys);
  free(bargs);
  free(t1);
  free(z1);
  free(btan);
  free(btan2);
  free(args);
  free(tan);
  free(cot);
  check_logsumexp();
  printf("prim-accuracy: %s\n", failures ? "FAILED" : "all within bounds");
  return failures ? 1 : 0;
}
