/* Benchmark driver: primal and gradient times of CHAD-C workloads under the
 * fast evaluator, at the thread count given by OMP_NUM_THREADS.
 *
 *   fast_bench sumsin N K     f(x) = sum (build (length x) (i. sin x[i] * x[i]))
 *   fast_bench buildidx N K   f(x) = sum (build n (i. x[i] * x[(i+1) mod n]))
 *   fast_bench mlp N K        two-layer MLP loss, N inputs (see below)
 *
 * The programs are built with the kernel constructors; the gradient is the
 * CHAD reverse translation evaluated by eval_fast_raw, its pullback applied
 * to 1.0 (eval_fast_apply_raw): the result is a dense gradient (unboxed).
 * Prints one line: workload n threads primal_s gradient_s ratio check
 * (best of K repetitions each; check = a checksum of the gradient).
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chad/chad.h"
#include "chad/eval.h"
#include "chad/fast.h"
#include "chad/kernel.h"
#include "chad/primitives.h"

static int R_, I_, A_;
static int OK_(int x, int line) {
  if (x < 0) {
    fprintf(stderr, "fast_bench.c:%d: term construction failed (%d)\n", line, x);
    exit(2);
  }
  return x;
}
#define OK(x) OK_((x), __LINE__)
static int var(int g, int k) { return OK(tm_var(g, k)); }
static int op2(int o, int a, int b) { return OK(tm_op(o, OK(tm_pair(a, b)))); }

static double now(void) {
  struct timespec ts;
  clock_gettime(getenv("FAST_BENCH_CPU") ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int prog_sumsin(void) {
  int g = OK(ctx_extend(CTX_EMPTY, A_));
  int gi = OK(ctx_extend(g, I_));
  int xi = OK(tm_index(var(gi, 1), var(gi, 0)));
  int el = op2(P_MUL, OK(tm_op(P_SIN, xi)), OK(tm_index(var(gi, 1), var(gi, 0))));
  return OK(tm_sum(OK(tm_build(OK(tm_length(var(g, 0))), el))));
}

static int prog_buildidx(void) {
  int g = OK(ctx_extend(CTX_EMPTY, A_));
  int gn = OK(ctx_extend(g, I_));
  int gi = OK(ctx_extend(gn, I_));
  int j = op2(P_IMOD, op2(P_IADD, var(gi, 0), OK(tm_iconst(gi, 1))), var(gi, 1));
  int el = op2(P_MUL, OK(tm_index(var(gi, 2), var(gi, 0))), OK(tm_index(var(gi, 2), j)));
  int b = OK(tm_build(var(gn, 0), el));
  int gb = OK(ctx_extend(gn, A_));
  return OK(tm_let(OK(tm_length(var(g, 0))), OK(tm_let(b, OK(tm_sum(var(gb, 0)))))));
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: fast_bench sumsin|buildidx N K\n");
    return 1;
  }
  const char *w = argv[1];
  long n = atol(argv[2]);
  int k = atoi(argv[3]);
  ty_init();
  ctx_init();
  tm_init();
  if (prims_init() < 0) return 2;
  chad_init();
  R_ = TY_ID_REAL;
  I_ = TY_ID_INT;
  A_ = ty_arr(TY_ID_REAL);
  (void)R_;
  int t = !strcmp(w, "sumsin") ? prog_sumsin() : !strcmp(w, "buildidx") ? prog_buildidx() : -1;
  if (t < 0) {
    fprintf(stderr, "unknown workload %s\n", w);
    return 1;
  }
  int rt = OK(chad_rev(t));
  double *x = malloc(sizeof(double) * (size_t)n);
  for (long i = 0; i < n; i++) x[i] = sin(0.37 * (double)i) + 0.001 * (double)(i % 97);
  double best_p = 1e30, best_g = 1e30, primal = 0, check = 0;
  for (int rep = 0; rep < k; rep++) {
    heap *h = heap_new((size_t)1 << 34);
    const value *xv = fast_real_array(h, n, x);
    const env *e = env_push(h, NULL, xv);
    eval_error err;
    double t0 = now();
    const value *y = eval_fast_raw(h, t, e, &err);
    double t1 = now();
    if (!y) {
      fprintf(stderr, "primal failed: %s\n", err.msg);
      return 3;
    }
    primal = y->u.r;
    double t2 = now();
    const value *p = eval_fast_raw(h, rt, e, &err);
    double t2b = now();
    const value *g = p ? eval_fast_apply_raw(h, p->u.pair.b, v_real(h, 1.0), &err) : NULL;
    double t3 = now();
    if (getenv("FAST_BENCH_SPLIT"))
      fprintf(stderr, "forward part %.6f s, pullback %.6f s\n", t2b - t2, t3 - t2b);
    if (!g || g->kind != V_PAIR) {
      fprintf(stderr, "gradient failed: %s\n", err.msg);
      return 3;
    }
    int64_t m;
    const double *d;
    check = 0;
    if (fast_real_array_get(h, g->u.pair.b, &m, &d))
      for (int64_t i = 0; i < m; i++) check += d[i];
    else
      check = NAN;
    if (t1 - t0 < best_p) best_p = t1 - t0;
    if (t3 - t2 < best_g) best_g = t3 - t2;
    heap_free(h);
  }
  printf("%s %ld %d %.6g %.6g %.3f %.12g %.12g\n", w, n, omp_get_max_threads(), best_p, best_g,
         best_g / best_p, primal, check);
  free(x);
  return 0;
}
