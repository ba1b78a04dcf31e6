/* Reverse mode of build/index code runs in linear time (rules card §6).
 *
 * Program (a : Arr Real, n = length a):
 *     sum (build n (i. a[i] * a[(7 i + 3) mod n]))
 * builds an array of length n with 2n index operations. Its reverse
 * derivative sends a one-hot cotangent (TM_ONEHOT, O(1)) back into a for each
 * index; the cotangent of a is made dense once, at the end. We time the
 * whole VJP (transformation + evaluation + densification) for
 * n = 1e3, 1e4, 1e5 and print the time per element: it stays flat when
 * reverse mode is linear (a dense one-hot per index would make it grow
 * like n), and the ratio to the primal evaluation's time. The gradient is
 * checked against the closed form. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "chad/chad.h"
#include "chad/eval.h"
#include "chad/kernel.h"
#include "chad/primitives.h"

static int must(int x, const char *what)
{
  if (x < 0) {
    fprintf(stderr, "rev_build_index: building %s failed (%d)\n", what, x);
    exit(2);
  }
  return x;
}

static int program(void)
{
  int A = ty_arr(TY_ID_REAL);
  int g = must(ctx_extend(CTX_EMPTY, A), "ctx");
  int gn = must(ctx_extend(g, TY_ID_INT), "ctx");          /* n 0, a 1 */
  int gi = must(ctx_extend(gn, TY_ID_INT), "ctx");         /* i 0, n 1, a 2 */
  int i = must(tm_var(gi, 0), "i"), n = must(tm_var(gi, 1), "n"), a = must(tm_var(gi, 2), "a");
  int seven_i = must(tm_op(P_IMUL, must(tm_pair(must(tm_iconst(gi, 7), "7"), i), "p")), "7i");
  int j = must(tm_op(P_IADD, must(tm_pair(seven_i, must(tm_iconst(gi, 3), "3")), "p")), "+3");
  j = must(tm_op(P_IMOD, must(tm_pair(j, n), "p")), "mod");
  int el = must(tm_op(P_MUL, must(tm_pair(must(tm_index(a, i), "a[i]"), must(tm_index(a, j), "a[j]")), "p")), "mul");
  int b = must(tm_build(must(tm_var(gn, 0), "n"), el), "build");
  int body = must(tm_sum(b), "sum");
  return must(tm_let(must(tm_length(must(tm_var(g, 0), "a")), "length"), body), "let");
}

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
  long max_n = argc > 1 ? atol(argv[1]) : 100000;
  ty_init(); ctx_init(); tm_init();
  if (prims_init() < 0) return 2;
  chad_init();
  int t = program();
  printf("%10s %12s %14s %12s  %s\n", "n", "seconds", "us/element", "vs primal", "gradient check");
  int status = 0;
  for (long n = 1000; n <= max_n; n *= 10) {
    heap *h = heap_new((size_t)4 << 30);
    if (!h) return 2;
    value *arr = v_array(h, n);
    for (long k = 0; k < n; k++)
      arr->u.arr.elems[k] = v_real(h, sin(0.37 * (double)k) + 1.5);
    const env *e = env_push(h, NULL, arr);
    eval_error perr;
    eval_error_clear(&perr);
    double tp0 = now();
    const value *prim = eval_ref(h, t, e, &perr);
    double tp = now() - tp0;
    if (!prim) {
      fprintf(stderr, "n=%ld: primal: %s\n", n, perr.msg);
      heap_free(h);
      return 3;
    }
    double t0 = now();
    chad_diag d = {0};
    const value *val = NULL, *cg = NULL;
    int rc = chad_vjp_values(h, t, e, v_real(h, 1.0), &val, &cg, &d);
    if (rc) {
      fprintf(stderr, "n=%ld: %s\n", n, d.msg);
      heap_free(h);
      return 3;
    }
    eval_error err;
    eval_error_clear(&err);
    const value *ga = v_densify(h, chad_ctx_tuple_get(cg, 1, 0), arr, &err);
    double t1 = now();
    if (!ga) {
      fprintf(stderr, "n=%ld: densify: %s\n", n, err.msg);
      heap_free(h);
      return 3;
    }
    /* d/da_k = sum over i with i = k of a[j(i)] + sum over i with j(i) = k of a[i] */
    double *exp = calloc((size_t)n, sizeof *exp);
    for (long q = 0; q < n; q++) {
      long jj = (7 * q + 3) % n;
      exp[q] += arr->u.arr.elems[jj]->u.r;
      exp[jj] += arr->u.arr.elems[q]->u.r;
    }
    double maxerr = 0;
    for (long q = 0; q < n; q++) {
      double diff = fabs(ga->u.arr.elems[q]->u.r - exp[q]);
      if (diff > maxerr) maxerr = diff;
    }
    free(exp);
    int ok = maxerr < 1e-9;
    if (!ok) status = 1;
    printf("%10ld %12.4f %14.3f %11.1fx  %s (max error %.2g)\n", n, t1 - t0,
           1e6 * (t1 - t0) / (double)n, (t1 - t0) / (tp > 0 ? tp : 1e-9), ok ? "ok" : "WRONG", maxerr);
    fflush(stdout);
    heap_free(h);
  }
  return status;
}
