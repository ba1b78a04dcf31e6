/* Benchmark driver: primal and gradient times of CHAD-C programs (surface
 * language, bench/programs/ and examples/) under the fast evaluator, at the
 * thread count of OMP_NUM_THREADS.
 *
 *   fast_bench vec  FILE DEF N K      DEF (x : [real]) : real, x of length N
 *   fast_bench mlp  FILE DEF H K      the two-layer MLP, hidden width H, input H
 *   fast_bench gmm  FILE DEF DATA K   ADBench GMM instance DATA (gmm_dD_KK.txt)
 *
 * Gradient = the CHAD reverse translation evaluated by eval_fast_raw, its
 * pullback applied to 1.0 by eval_fast_apply_raw (one VJP, which also
 * computes the primal). Best of K repetitions, fresh heap each. With REF=1 the
 * reference evaluator is timed too (once). Prints one line:
 *   workload size threads primal_s gradient_s ratio ref_primal_s ref_gradient_s value checksum
 * FAST_BENCH_CPU=1 measures process CPU time instead of wall time;
 * FAST_BENCH_NOSIMPLIFY=1 evaluates chad_rev's output without chad_simplify;
 * FAST_BENCH_WARM=1 keeps freed memory mapped between repetitions.
 */
#include <malloc.h>
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
#include "chad/surface.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(getenv("FAST_BENCH_CPU") ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void die(const char *msg) {
  fprintf(stderr, "fast_bench: %s\n", msg);
  exit(3);
}

/* ---- inputs --------------------------------------------------------------- */
static double *vec_data(long n) {
  double *x = malloc(sizeof(double) * (size_t)(n ? n : 1));
  for (long i = 0; i < n; i++) x[i] = sin(0.37 * (double)i) + 0.001 * (double)(i % 97);
  return x;
}

static const value *boxed_vec(heap *h, long n, const double *x) {
  value *a = v_array(h, n);
  if (!a) die("out of memory");
  for (long i = 0; i < n; i++) a->u.arr.elems[i] = v_real(h, x[i]);
  return a;
}

static const value *boxed_mat(heap *h, long r, long c, const double *x) {
  value *a = v_array(h, r);
  if (!a) die("out of memory");
  for (long i = 0; i < r; i++) a->u.arr.elems[i] = boxed_vec(h, c, x + i * c);
  return a;
}

typedef struct gmm_data {
  int d, k, n, m;
  double *alphas, *means, *icf, *x, gamma, lgd;
} gmm_data;

static void gmm_read(const char *path, gmm_data *g) {
  FILE *f = fopen(path, "r");
  if (!f) die("cannot open the GMM data file");
  if (fscanf(f, "%d %d %d", &g->d, &g->k, &g->n) != 3) die("bad GMM header");
  int d = g->d, k = g->k, n = g->n, q = d * (d + 1) / 2;
  g->alphas = malloc(sizeof(double) * (size_t)k);
  g->means = malloc(sizeof(double) * (size_t)(k * d));
  g->icf = malloc(sizeof(double) * (size_t)(k * q));
  g->x = malloc(sizeof(double) * (size_t)(n * d));
  for (int i = 0; i < k; i++)
    if (fscanf(f, "%lf", &g->alphas[i]) != 1) die("bad alphas");
  for (int i = 0; i < k * d; i++)
    if (fscanf(f, "%lf", &g->means[i]) != 1) die("bad means");
  for (int i = 0; i < k * q; i++)
    if (fscanf(f, "%lf", &g->icf[i]) != 1) die("bad icf");
  for (int i = 0; i < n * d; i++)
    if (fscanf(f, "%lf", &g->x[i]) != 1) die("bad x");
  if (fscanf(f, "%lf %d", &g->gamma, &g->m) != 2) die("bad gamma m");
  fclose(f);
  double nn = d + g->m + 1;
  g->lgd = 0.25 * d * (d - 1) * log(3.14159265358979323846);
  for (int j = 1; j <= d; j++) g->lgd += lgamma(0.5 * nn + 0.5 * (1 - j));
}

/* sum of all reals of a first-order value (a checksum) */
static double checksum(const value *v) {
  switch (v->kind) {
  case V_REAL: return v->u.r;
  case V_PAIR: return checksum(v->u.pair.a) + checksum(v->u.pair.b);
  case V_INL:
  case V_INR: return checksum(v->u.pair.a);
  case V_ARRAY: {
    double s = 0;
    for (int64_t i = 0; i < v->u.arr.n; i++) s += checksum(v->u.arr.elems[i]);
    return s;
  }
  default: return 0;
  }
}

int main(int argc, char **argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: fast_bench vec|mlp|gmm FILE DEF SIZE|DATA K\n");
    return 1;
  }
  const char *mode = argv[1], *file = argv[2], *def = argv[3], *size = argv[4];
  int k = atoi(argv[5]);
  /* FAST_BENCH_WARM=1: glibc keeps freed memory in the process, so later
   * repetitions reuse mapped pages (as a long-running process would) */
  if (getenv("FAST_BENCH_WARM")) {
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
  }
  ty_init();
  ctx_init();
  tm_init();
  raw_init();
  if (prims_init() < 0) return 2;
  chad_init();
  chad_diag d = {0};
  surf_program *p = surf_parse_file(file, &d);
  if (!p) {
    diag_print(&d);
    return 2;
  }
  int di = surf_def_find(p, def), t = -1, g = -1;
  if (di < 0 || surf_elab_def(p, di, &t, &g, &d) != CHAD_EXIT_OK) {
    diag_print(&d);
    return 2;
  }
  int rt = chad_rev(t);
  if (rt < 0) die("chad_rev failed");
  /* the derivative the system uses (chad_vjp_values): simplified */
  if (!getenv("FAST_BENCH_NOSIMPLIFY")) rt = chad_simplify(rt);
  int np = surf_def_nparams(p, di);

  /* parameters are rebuilt in every repetition's heap */
  long n = 0;
  double *xv = NULL, *w1 = NULL, *w2 = NULL;
  gmm_data gd;
  memset(&gd, 0, sizeof gd);
  char label[64];
  if (!strcmp(mode, "vec")) {
    n = atol(size);
    xv = vec_data(n);
    snprintf(label, sizeof label, "%ld", n);
  } else if (!strcmp(mode, "mlp")) {
    n = atol(size);
    xv = vec_data(n);
    w1 = vec_data(n * n);
    w2 = vec_data(n);
    for (long i = 0; i < n * n; i++) w1[i] *= 1.0 / sqrt((double)n);
    snprintf(label, sizeof label, "%ldx%ld", n, n);
  } else if (!strcmp(mode, "gmm")) {
    gmm_read(size, &gd);
    snprintf(label, sizeof label, "d%d_K%d_n%d", gd.d, gd.k, gd.n);
  } else {
    die("unknown mode");
  }

  double bp = 1e30, bg = 1e30, rp = NAN, rg = NAN, y = 0, chk = 0;
  for (int rep = 0; rep < k + 1; rep++) {
    int ref = rep == k; /* the last round: the reference evaluator, if asked */
    if (ref && !getenv("REF")) break;
    heap *h = heap_new((size_t)1 << 34);
    const value *parts[8];
    if (!strcmp(mode, "vec")) {
      parts[0] = ref ? boxed_vec(h, n, xv) : fast_real_array(h, n, xv);
    } else if (!strcmp(mode, "mlp")) {
      parts[0] = boxed_mat(h, n, n, w1);
      parts[1] = boxed_vec(h, n, w2);
      parts[2] = boxed_vec(h, n, xv);
      parts[3] = v_real(h, 0.5);
    } else {
      int q = gd.d * (gd.d + 1) / 2;
      parts[0] = boxed_vec(h, gd.k, gd.alphas);
      parts[1] = boxed_mat(h, gd.k, gd.d, gd.means);
      parts[2] = boxed_mat(h, gd.k, q, gd.icf);
      parts[3] = boxed_mat(h, gd.n, gd.d, gd.x);
      parts[4] = v_real(h, gd.gamma);
      parts[5] = v_int(h, gd.m);
      parts[6] = v_real(h, gd.lgd);
    }
    const env *e = chad_params_env(h, np, parts);
    eval_error err;
    double t0 = now();
    const value *yv = ref ? eval_ref(h, t, e, &err) : eval_fast_raw(h, t, e, &err);
    double t1 = now();
    if (!yv || yv->kind != V_REAL) die(err.msg);
    y = yv->u.r;
    double t2 = now();
    const value *pv = ref ? eval_ref(h, rt, e, &err) : eval_fast_raw(h, rt, e, &err);
    const value *gv = !pv ? NULL
                      : ref ? eval_apply(h, pv->u.pair.b, v_real(h, 1.0), &err)
                            : eval_fast_apply_raw(h, pv->u.pair.b, v_real(h, 1.0), &err);
    double t3 = now();
    if (!gv) die(err.msg);
    if (ref) {
      rp = t1 - t0;
      rg = t3 - t2;
    } else {
      if (t1 - t0 < bp) bp = t1 - t0;
      if (t3 - t2 < bg) bg = t3 - t2;
      /* checksum of the dense gradient (not timed) */
      const value *ex = getenv("FAST_BENCH_NOCHECK") ? NULL : fast_export(h, gv, &err);
      if (!strcmp(mode, "vec")) parts[0] = boxed_vec(h, n, xv); /* a shape of value.h */
      const value *dense = ex ? v_densify(h, ex, chad_ctx_tuple_make(h, np, parts), &err) : NULL;
      chk = dense ? checksum(dense) : NAN;
    }
    heap_free(h);
  }
  printf("%s %s %d %.6g %.6g %.3f %.6g %.6g %.12g %.12g\n", def, label, omp_get_max_threads(), bp,
         bg, bg / bp, rp, rg, y, chk);
  surf_free(p);
  return 0;
}
