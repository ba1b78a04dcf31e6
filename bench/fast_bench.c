/* Benchmark driver: primal and gradient times of CHAD-C programs (surface
 * language, bench/programs/ and examples/) under the fast evaluator, at the
 * thread count of OMP_NUM_THREADS.
 *
 *   fast_bench vec  FILE DEF N K      DEF (x : [real]) : real, x of length N
 *   fast_bench mlp  FILE DEF H K      the two-layer MLP, hidden width H, input H
 *   fast_bench gmm  FILE DEF DATA K   ADBench GMM instance DATA (gmm_dD_KK.txt)
 *   (FAST_BENCH_INLINE=1: DEF elaborated with SURF_ELAB_INLINE, as chad --inline)
 *   fast_bench ba   FILE DEF DATA K   ADBench BA instance DATA (examples/ba.chad's
 *                                     `ba`): primal = the objective, gradient =
 *                                     its Jacobian (below)
 *
 * BA's Jacobian: the inputs are gathered per observation (as
 * scripts/adbench_ba_to_json.py does), so observation i's outputs depend only
 * on its own 15 inputs and three VJPs (cotangent 1 on every err_x, then
 * every err_y, then every werr) give every observation's 2 x 15 block and the
 * weight error's diagonal: the reverse term is evaluated once and its
 * pullback applied three times; the blocks are copied into a dense p x 31
 * matrix (the time includes that). The checksum is the sum of its entries.
 *
 * Gradient = the CHAD reverse translation evaluated by eval_fast_raw, its
 * pullback applied to 1.0 by eval_fast_apply_raw (one VJP, which also
 * computes the primal). Best of K repetitions, fresh heap each. With REF=1 the
 * reference evaluator is timed too (once). Prints one line:
 *   workload size threads primal_s gradient_s ratio ref_primal_s ref_gradient_s value checksum
 *   primal_heap_bytes gradient_heap_bytes
 * (the last two: the value heap the fast evaluator's primal, and then its
 * gradient, took: a region allocator's bytes handed out, i.e. its peak;
 * not BA).
 * FAST_BENCH_CPU=1 measures process CPU time instead of wall time;
 * FAST_BENCH_NOSIMPLIFY=1 evaluates chad_rev's output without chad_simplify;
 * FAST_BENCH_WARM=1 keeps freed memory mapped between repetitions;
 * FAST_BENCH_HEAP_GB=G sets the heap limit (default 16); FAST_BENCH_STATS=1
 * prints the fast evaluator's loop statistics on stderr; FAST_BENCH_SPLIT=1
 * prints on stderr the best gradient's split into the value pass (the
 * reverse term) and the pullback (not BA); BA_OBS=P keeps the
 * first P observations of a BA instance.
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

/* the fast evaluator's form of a matrix: its rows unboxed, as a vector is
 * (fast_real_array); the evaluator imports it as it is, where a boxed
 * matrix is converted row by row on every call */
static const value *fast_mat(heap *h, long r, long c, const double *x) {
  value *a = v_array(h, r);
  if (!a) die("out of memory");
  for (long i = 0; i < r; i++)
    if (!(a->u.arr.elems[i] = fast_real_array(h, c, x + i * c))) die("out of memory");
  return a;
}
static const value *vec_in(heap *h, int boxed, long n, const double *x) {
  const value *v = boxed ? boxed_vec(h, n, x) : fast_real_array(h, n, x);
  if (!v) die("out of memory");
  return v;
}
static const value *mat_in(heap *h, int boxed, long r, long c, const double *x) {
  return boxed ? boxed_mat(h, r, c, x) : fast_mat(h, r, c, x);
}

typedef struct gmm_data {
  int d, k, n, m;
  double *alphas, *means, *icf, *x, gamma;
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
}

typedef struct ba_data {
  long n, m, p;
  double *cam, *pt, *w, *feat; /* gathered per observation: 11p, 3p, p, 2p */
} ba_data;

/* ADBench's compressed BA format: "n m p", one camera (11), one point (3),
 * one weight, one feature (2), replicated; observation i sees camera i % n
 * and point i % m. BA_OBS=P keeps the first P observations. */
static void ba_read(const char *path, ba_data *b) {
  FILE *f = fopen(path, "r");
  if (!f) die("cannot open the BA data file");
  double v[17];
  if (fscanf(f, "%ld %ld %ld", &b->n, &b->m, &b->p) != 3) die("bad BA header");
  for (int i = 0; i < 17; i++)
    if (fscanf(f, "%lf", &v[i]) != 1) die("bad BA data");
  fclose(f);
  if (getenv("BA_OBS") && atol(getenv("BA_OBS")) < b->p) b->p = atol(getenv("BA_OBS"));
  long p = b->p;
  if (p <= 0 || b->n <= 0 || b->m <= 0) die("bad BA sizes");
  b->cam = malloc(sizeof(double) * (size_t)(11 * p));
  b->pt = malloc(sizeof(double) * (size_t)(3 * p));
  b->w = malloc(sizeof(double) * (size_t)p);
  b->feat = malloc(sizeof(double) * (size_t)(2 * p));
  if (!b->cam || !b->pt || !b->w || !b->feat) die("out of memory");
  for (long i = 0; i < p; i++) {
    memcpy(b->cam + 11 * i, v, 11 * sizeof(double));   /* camera i % n: all equal */
    memcpy(b->pt + 3 * i, v + 11, 3 * sizeof(double)); /* point i % m: all equal  */
    b->w[i] = v[14];
    memcpy(b->feat + 2 * i, v + 15, 2 * sizeof(double));
  }
}

/* Reads the real array a (boxed or not) into dst[0..n). */
static void read_reals(heap *h, const value *a, long n, double *dst, long stride) {
  int64_t len;
  const double *src;
  if (a->kind == V_ZERO) {
    for (long i = 0; i < n; i++) dst[i * stride] = 0.0;
    return;
  }
  if (!fast_real_array_get(h, a, &len, &src)) {
    /* the reference evaluator's sparse cotangents: densify first */
    eval_error err;
    double *zs = calloc((size_t)(n ? n : 1), sizeof(double));
    if (!zs) die("out of memory");
    const value *ex = fast_export(h, a, &err);
    const value *dn = ex ? v_densify(h, ex, boxed_vec(h, n, zs), &err) : NULL;
    free(zs);
    if (!dn || !fast_real_array_get(h, dn, &len, &src)) die("BA: cotangent is not a real array");
  }
  if (len != n) die("BA: cotangent of the wrong length");
  for (long i = 0; i < n; i++) dst[i * stride] = src[i];
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

/* the program's arguments: boxed (value.h, for the reference evaluator and
 * for densifying the gradient) or in the fast evaluator's unboxed form (its
 * inputs when timed, as C and PyTorch get plain arrays) */
static void set_parts(heap *h, const char *mode, int boxed, long n, const double *xv,
                      const double *w1, const double *w2, const gmm_data *gd,
                      const ba_data *bd, const value **parts) {
  if (!strcmp(mode, "vec")) {
    parts[0] = vec_in(h, boxed, n, xv);
  } else if (!strcmp(mode, "mlp")) {
    parts[0] = mat_in(h, boxed, n, n, w1);
    parts[1] = vec_in(h, boxed, n, w2);
    parts[2] = vec_in(h, boxed, n, xv);
    parts[3] = v_real(h, 0.5);
  } else if (!strcmp(mode, "ba")) {
    const double *src[4] = {bd->cam, bd->pt, bd->w, bd->feat};
    const long len[4] = {11 * bd->p, 3 * bd->p, bd->p, 2 * bd->p};
    for (int j = 0; j < 4; j++) parts[j] = vec_in(h, boxed, len[j], src[j]);
  } else {
    int q = gd->d * (gd->d + 1) / 2;
    parts[0] = vec_in(h, boxed, gd->k, gd->alphas);
    parts[1] = mat_in(h, boxed, gd->k, gd->d, gd->means);
    parts[2] = mat_in(h, boxed, gd->k, q, gd->icf);
    parts[3] = mat_in(h, boxed, gd->n, gd->d, gd->x);
    parts[4] = v_real(h, gd->gamma);
    parts[5] = v_int(h, gd->m);
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
  /* FAST_BENCH_INLINE=1: elaborate as `chad --inline` does (calls of defs
   * inlined, so no function-typed let for CHAD to turn into copowers) */
  unsigned elab_flags = getenv("FAST_BENCH_INLINE") && *getenv("FAST_BENCH_INLINE") ? SURF_ELAB_INLINE : 0u;
  if (di < 0 || surf_elab_def_opts(p, di, elab_flags, &t, &g, &d) != CHAD_EXIT_OK) {
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
  ba_data bd;
  memset(&bd, 0, sizeof bd);
  double *jac = NULL;
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
  } else if (!strcmp(mode, "ba")) {
    ba_read(size, &bd);
    snprintf(label, sizeof label, "n%ld_m%ld_p%ld", bd.n, bd.m, bd.p);
    jac = malloc(sizeof(double) * (size_t)(31 * bd.p));
    if (!jac) die("out of memory");
  } else {
    die("unknown mode");
  }

  double bgv = NAN; /* the value pass (reverse term) of the best gradient */
  double bp = 1e30, bg = 1e30, rp = NAN, rg = NAN, y = 0, chk = 0;
  size_t heap_p = 0, heap_g = 0; /* bytes of the value heap: primal, gradient */
  for (int rep = 0; rep < k + 1; rep++) {
    int ref = rep == k; /* the last round: the reference evaluator, if asked */
    if (ref && !(getenv("REF") && *getenv("REF"))) break;
    /* FAST_BENCH_HEAP_GB: the heap limit (default 16 GiB) */
    long gb = getenv("FAST_BENCH_HEAP_GB") ? atol(getenv("FAST_BENCH_HEAP_GB")) : 16;
    heap *h = heap_new((size_t)(gb > 0 ? gb : 16) << 30);
    const value *parts[8];
    set_parts(h, mode, ref, n, xv, w1, w2, &gd, &bd, parts);
    const env *e = chad_params_env(h, np, parts);
    eval_error err;
    double t0 = now();
    const value *yv = ref ? eval_ref(h, t, e, &err) : eval_fast_raw(h, t, e, &err);
    if (yv && !ref && !strcmp(mode, "ba")) {
      /* the objective's arrays may be delayed (computed when read): force
       * them, inside the timing */
      int64_t len;
      const double *dd;
      if (yv->kind != V_PAIR || !fast_real_array_get(h, yv->u.pair.a, &len, &dd) ||
          !fast_real_array_get(h, yv->u.pair.b, &len, &dd))
        die("BA: the objective is not a pair of real arrays");
    }
    double t1 = now();
    if (!strcmp(mode, "ba")) {
      if (!yv) die(err.msg);
      if (ref) {
        rp = t1 - t0;
      } else if (t1 - t0 < bp) {
        bp = t1 - t0;
      }
      /* the objective's sum (not timed) */
      const value *ex = fast_export(h, yv, &err);
      if (!ex) die(err.msg);
      y = checksum(ex);
      double t2 = now();
      const value *pv = ref ? eval_ref(h, rt, e, &err) : eval_fast_raw(h, rt, e, &err);
      if (!pv || pv->kind != V_PAIR) die(pv ? "BA: reverse term is not a pair" : err.msg);
      /* seeds: 1 on every err_x (even entries of reproj_err), on every
       * err_y (odd entries), on every w_err */
      double *od = malloc(sizeof(double) * (size_t)(2 * bd.p));
      if (!od) die("out of memory");
      const value *seed[3];
      for (int s = 0; s < 2; s++) {
        for (long i = 0; i < 2 * bd.p; i++) od[i] = (i % 2) == s ? 1.0 : 0.0;
        seed[s] = ref ? boxed_vec(h, 2 * bd.p, od) : fast_real_array(h, 2 * bd.p, od);
      }
      for (long i = 0; i < bd.p; i++) od[i] = 1.0;
      seed[2] = ref ? boxed_vec(h, bd.p, od) : fast_real_array(h, bd.p, od);
      free(od);
      const value *z = v_zero(h);
      if (!seed[0] || !seed[1] || !seed[2] || !z) die("out of memory");
      double *tmp = malloc(sizeof(double) * (size_t)(11 * bd.p));
      if (!tmp) die("out of memory");
      for (int s = 0; s < 3; s++) {
        const value *ct = s < 2 ? v_pair(h, seed[s], z) : v_pair(h, z, seed[2]);
        const value *gv = ref ? eval_apply(h, pv->u.pair.b, ct, &err)
                              : eval_fast_apply_raw(h, pv->u.pair.b, ct, &err);
        if (!gv) die(err.msg);
        /* row s of every observation's block: 11 camera, 3 point, 1 weight */
        const value *gc = chad_ctx_tuple_get(gv, 4, 0), *gp = chad_ctx_tuple_get(gv, 4, 1),
                    *gw = chad_ctx_tuple_get(gv, 4, 2);
        if (!gc || !gp || !gw) die("BA: bad cotangent tuple");
        if (s < 2) {
          read_reals(h, gc, 11 * bd.p, tmp, 1);
          for (long i = 0; i < bd.p; i++) memcpy(jac + 31 * i + 15 * s, tmp + 11 * i, 11 * sizeof(double));
          read_reals(h, gp, 3 * bd.p, tmp, 1);
          for (long i = 0; i < bd.p; i++) memcpy(jac + 31 * i + 15 * s + 11, tmp + 3 * i, 3 * sizeof(double));
          read_reals(h, gw, bd.p, jac + 15 * s + 14, 31);
        } else {
          read_reals(h, gw, bd.p, jac + 30, 31);
        }
      }
      free(tmp);
      double t3 = now();
      if (ref) {
        rg = t3 - t2;
      } else {
        if (t3 - t2 < bg) bg = t3 - t2;
        chk = 0;
        for (long i = 0; i < 31 * bd.p; i++) chk += jac[i];
      }
      heap_free(h);
      continue;
    }
    if (!yv || yv->kind != V_REAL) die(err.msg);
    y = yv->u.r;
    size_t used_p = heap_used(h);
    double t2 = now();
    const value *pv = ref ? eval_ref(h, rt, e, &err) : eval_fast_raw(h, rt, e, &err);
    double t2b = now();
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
      if (t3 - t2 < bg) {
        bg = t3 - t2;
        bgv = t2b - t2;
      }
      heap_p = used_p;
      heap_g = heap_used(h) - used_p;
      /* checksum of the dense gradient (not timed) */
      const value *ex = getenv("FAST_BENCH_NOCHECK") ? NULL : fast_export(h, gv, &err);
      set_parts(h, mode, 1, n, xv, w1, w2, &gd, &bd, parts); /* shapes of value.h */
      const value *dense = ex ? v_densify(h, ex, chad_ctx_tuple_make(h, np, parts), &err) : NULL;
      chk = dense ? checksum(dense) : NAN;
    }
    heap_free(h);
  }
  if (getenv("FAST_BENCH_SPLIT"))
    fprintf(stderr, "fast_bench: best gradient %.6g s = value pass %.6g s + pullback %.6g s\n", bg, bgv, bg - bgv);
  if (getenv("FAST_BENCH_STATS")) {
    fast_stats st;
    fast_stats_get(&st);
    fprintf(stderr, "fast_bench: %lld compiled loops, %lld generic loops, %lld bailouts\n",
            (long long)st.compiled_loops, (long long)st.generic_loops, (long long)st.bailouts);
  }
  printf("%s %s %d %.6g %.6g %.3f %.6g %.6g %.12g %.12g %zu %zu\n", def, label, omp_get_max_threads(), bp,
         bg, bg / bp, rp, rg, y, chk, heap_p, heap_g);
  surf_free(p);
  return 0;
}
