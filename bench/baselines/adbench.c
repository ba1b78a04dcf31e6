/* Hand-written C baselines (-O2, OpenMP) for the ADBench workloads and the
 * MLP of bench/run.sh, with the same inputs as bench/fast_bench.c and the
 * same output line:
 *   workload size threads primal_s gradient_s ratio nan nan value checksum
 *
 *   adbench gmm DATA K   examples/gmm.chad's objective (incl. the Wishart
 *                        constant lgd, which gmm.chad computes with lgamma)
 *                        and its gradient by hand, with respect to every
 *                        real parameter (alphas, means, icf, x, gamma), as
 *                        CHAD's VJP computes; checksum = the sum of the
 *                        gradient's entries.
 *   adbench ba DATA K    examples/ba.chad's `ba` objective (per observation,
 *                        gathered inputs) and its Jacobian by hand (p x 31:
 *                        the 2 x 15 blocks and d w_err / d w; r != 0 only).
 *   adbench mlp H K      bench/programs/mlp.chad, hidden = input width H, and
 *                        its gradient with respect to w1, w2, x, y.
 * Best of K repetitions; the gradient computes the primal too (as a VJP). */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(getenv("FAST_BENCH_CPU") ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void die(const char *m) {
  fprintf(stderr, "adbench: %s\n", m);
  exit(3);
}

static void *xmalloc(size_t n) {
  void *p = calloc(n ? n : 1, 1);
  if (!p) die("out of memory");
  return p;
}

static double *vec_data(long n) { /* as bench/fast_bench.c */
  double *x = xmalloc(sizeof(double) * (size_t)n);
  for (long i = 0; i < n; i++) x[i] = sin(0.37 * (double)i) + 0.001 * (double)(i % 97);
  return x;
}

/* ---- GMM ------------------------------------------------------------------ */
typedef struct gmm {
  int d, k, n, m;
  double *alphas, *means, *icf, *x, gamma, lgd;
} gmm;

static void gmm_read(const char *path, gmm *g) {
  FILE *f = fopen(path, "r");
  if (!f) die("cannot open the GMM data file");
  if (fscanf(f, "%d %d %d", &g->d, &g->k, &g->n) != 3) die("bad GMM header");
  int d = g->d, k = g->k, n = g->n, q = d * (d + 1) / 2;
  g->alphas = xmalloc(sizeof(double) * (size_t)k);
  g->means = xmalloc(sizeof(double) * (size_t)(k * d));
  g->icf = xmalloc(sizeof(double) * (size_t)(k * q));
  g->x = xmalloc(sizeof(double) * (size_t)(n * d));
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

/* index in icf[c] of Q[r][i], i < r (examples/gmm.chad's q_index d i r) */
static int qidx(int d, int i, int r) { return d + i * (d - 1) - i * (i - 1) / 2 + (r - i - 1); }

static double lse(const double *v, int k) {
  double mx = v[0];
  for (int c = 1; c < k; c++) mx = v[c] > mx ? v[c] : mx;
  double s = 0;
  for (int c = 0; c < k; c++) s += exp(v[c] - mx);
  return mx + log(s);
}

/* The objective; with grads (alphas, means, icf, x, gamma, lgd) when g != NULL. */
static double gmm_eval(const gmm *G, double *ga, double *gm, double *gi, double *gx, double *gg,
                       double *gl) {
  int d = G->d, k = G->k, n = G->n, q = d * (d + 1) / 2;
  const double pi = 3.14159265358979323846;
  double *sumq = xmalloc(sizeof(double) * (size_t)k);
  for (int c = 0; c < k; c++) {
    sumq[c] = 0;
    for (int j = 0; j < d; j++) sumq[c] += G->icf[c * q + j];
  }
  int grad = ga != NULL;
  int nt = omp_get_max_threads();
  /* per-thread accumulators for the gradients of alphas, means, icf */
  double *acc = grad ? xmalloc(sizeof(double) * (size_t)nt * (size_t)(k + k * d + k * q)) : NULL;
  double main_sum = 0;
#pragma omp parallel reduction(+ : main_sum)
  {
    int tid = omp_get_thread_num();
    double *aa = grad ? acc + (size_t)tid * (size_t)(k + k * d + k * q) : NULL;
    double *am = grad ? aa + k : NULL, *ai = grad ? am + k * d : NULL;
    double *xc = xmalloc(sizeof(double) * (size_t)(k * d)), *qx = xmalloc(sizeof(double) * (size_t)(k * d));
    double *v = xmalloc(sizeof(double) * (size_t)k), *dxc = xmalloc(sizeof(double) * (size_t)d);
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++) {
      const double *xi = G->x + (size_t)i * d;
      for (int c = 0; c < k; c++) {
        const double *ic = G->icf + c * q;
        double *xcc = xc + c * d, *qxc = qx + c * d, s2 = 0;
        for (int j = 0; j < d; j++) xcc[j] = xi[j] - G->means[c * d + j];
        for (int r = 0; r < d; r++) {
          double s = exp(ic[r]) * xcc[r];
          for (int j = 0; j < r; j++) s += ic[qidx(d, j, r)] * xcc[j];
          qxc[r] = s;
          s2 += s * s;
        }
        v[c] = G->alphas[c] + sumq[c] - 0.5 * s2;
      }
      double L = lse(v, k);
      main_sum += L;
      if (!grad) continue;
      for (int c = 0; c < k; c++) {
        double w = exp(v[c] - L); /* d main_i / d v_c */
        const double *ic = G->icf + c * q;
        double *xcc = xc + c * d, *qxc = qx + c * d;
        aa[c] += w;
        for (int j = 0; j < d; j++) {
          ai[c * q + j] += w;
          dxc[j] = 0;
        }
        for (int r = 0; r < d; r++) {
          double dq = -w * qxc[r]; /* d / d qx_r */
          double e = exp(ic[r]);
          ai[c * q + r] += dq * e * xcc[r];
          dxc[r] += dq * e;
          for (int j = 0; j < r; j++) {
            ai[c * q + qidx(d, j, r)] += dq * xcc[j];
            dxc[j] += dq * ic[qidx(d, j, r)];
          }
        }
        for (int j = 0; j < d; j++) {
          am[c * d + j] -= dxc[j];
          gx[(size_t)i * d + j] += dxc[j];
        }
      }
    }
    free(xc);
    free(qx);
    free(v);
    free(dxc);
  }
  double gam = G->gamma, wish = 0, dgam = 0;
  for (int c = 0; c < k; c++) {
    const double *ic = G->icf + c * q;
    double dg = 0, lo = 0;
    for (int j = 0; j < d; j++) dg += exp(2 * ic[j]);
    for (int j = d; j < q; j++) lo += ic[j] * ic[j];
    wish += 0.5 * gam * gam * (dg + lo) - G->m * sumq[c];
    dgam += gam * (dg + lo);
  }
  double nr = n, dr = d, nn = dr + G->m + 1;
  double cw = nn * dr * (log(gam) - 0.5 * log(2.0)) - G->lgd;
  double y = -nr * dr * 0.5 * log(2 * pi) + main_sum - nr * lse(G->alphas, k) + wish - k * cw;
  if (grad) {
    for (int t = 0; t < nt; t++) {
      const double *aa = acc + (size_t)t * (size_t)(k + k * d + k * q);
      for (int c = 0; c < k; c++) ga[c] += aa[c];
      for (int j = 0; j < k * d; j++) gm[j] += aa[k + j];
      for (int j = 0; j < k * q; j++) gi[j] += aa[k + k * d + j];
    }
    double la = lse(G->alphas, k);
    for (int c = 0; c < k; c++) {
      ga[c] -= nr * exp(G->alphas[c] - la);
      for (int j = 0; j < d; j++) gi[c * q + j] += gam * gam * exp(2 * G->icf[c * q + j]) - G->m;
      for (int j = d; j < q; j++) gi[c * q + j] += gam * gam * G->icf[c * q + j];
    }
    *gg = dgam - k * nn * dr / gam;
    *gl = k;
    free(acc);
  }
  free(sumq);
  return y;
}

/* ---- BA ------------------------------------------------------------------- */
static double ba_eval(long p, const double *cam, const double *pt, const double *w,
                      const double *feat, double *reproj, double *werr) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static)
  for (long i = 0; i < p; i++) {
    const double *cm = cam + 11 * i, *X = pt + 3 * i;
    double y[3] = {X[0] - cm[3], X[1] - cm[4], X[2] - cm[5]}, xc[3];
    double sqt = cm[0] * cm[0] + cm[1] * cm[1] + cm[2] * cm[2];
    if (sqt != 0) {
      double th = sqrt(sqt), ct = cos(th), st = sin(th);
      double wv[3] = {cm[0] / th, cm[1] / th, cm[2] / th};
      double cr[3] = {wv[1] * y[2] - wv[2] * y[1], wv[2] * y[0] - wv[0] * y[2],
                      wv[0] * y[1] - wv[1] * y[0]};
      double t = (wv[0] * y[0] + wv[1] * y[1] + wv[2] * y[2]) * (1 - ct);
      for (int j = 0; j < 3; j++) xc[j] = y[j] * ct + cr[j] * st + wv[j] * t;
    } else {
      xc[0] = y[0] + cm[1] * y[2] - cm[2] * y[1];
      xc[1] = y[1] + cm[2] * y[0] - cm[0] * y[2];
      xc[2] = y[2] + cm[0] * y[1] - cm[1] * y[0];
    }
    double p0 = xc[0] / xc[2], p1 = xc[1] / xc[2], rsq = p0 * p0 + p1 * p1;
    double l = 1 + cm[9] * rsq + cm[10] * rsq * rsq;
    reproj[2 * i] = w[i] * (p0 * l * cm[6] + cm[7] - feat[2 * i]);
    reproj[2 * i + 1] = w[i] * (p1 * l * cm[6] + cm[8] - feat[2 * i + 1]);
    werr[i] = 1 - w[i] * w[i];
    s += reproj[2 * i] + reproj[2 * i + 1] + werr[i];
  }
  return s;
}

/* Observation i's Jacobian by hand (reverse mode of ba_eval's formula,
 * r != 0 branch): row c = 0, 1 of d err_c / d (camera 11, point 3, weight)
 * into J[0..15) and J[15..30), d w_err / d w into J[30]. */
static void ba_jac_obs(const double *cm, const double *X, double w, const double *feat,
                       double *J) {
  double y[3] = {X[0] - cm[3], X[1] - cm[4], X[2] - cm[5]};
  double r[3] = {cm[0], cm[1], cm[2]};
  double sqt = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  double th = sqrt(sqt), ct = cos(th), st = sin(th);
  double wv[3] = {r[0] / th, r[1] / th, r[2] / th};
  double cr[3] = {wv[1] * y[2] - wv[2] * y[1], wv[2] * y[0] - wv[0] * y[2], wv[0] * y[1] - wv[1] * y[0]};
  double wy = wv[0] * y[0] + wv[1] * y[1] + wv[2] * y[2], t = wy * (1 - ct), xc[3];
  for (int j = 0; j < 3; j++) xc[j] = y[j] * ct + cr[j] * st + wv[j] * t;
  double p[2] = {xc[0] / xc[2], xc[1] / xc[2]}, rsq = p[0] * p[0] + p[1] * p[1];
  double k0 = cm[9], k1 = cm[10], l = 1 + k0 * rsq + k1 * rsq * rsq, f = cm[6];
  for (int c = 0; c < 2; c++) {
    double *row = J + 15 * c;
    for (int j = 0; j < 15; j++) row[j] = 0;
    double dproj = w; /* seed 1 on err_c = w (p_c l f + x0_c - feat_c) */
    row[14] = p[c] * l * f + cm[7 + c] - feat[c];
    row[6] = dproj * p[c] * l;     /* f   */
    row[7 + c] = dproj;            /* x0_c */
    double dl = dproj * p[c] * f, dp[2] = {0, 0};
    dp[c] = dproj * l * f;
    double drsq = dl * (k0 + 2 * k1 * rsq);
    row[9] = dl * rsq;
    row[10] = dl * rsq * rsq;
    dp[0] += drsq * 2 * p[0];
    dp[1] += drsq * 2 * p[1];
    double a[3] = {dp[0] / xc[2], dp[1] / xc[2], -(dp[0] * p[0] + dp[1] * p[1]) / xc[2]}; /* d xc */
    double dy[3], dw[3];
    /* xc = y ct + (w x y) st + w t */
    double axw[3] = {a[1] * wv[2] - a[2] * wv[1], a[2] * wv[0] - a[0] * wv[2], a[0] * wv[1] - a[1] * wv[0]};
    double yxa[3] = {y[1] * a[2] - y[2] * a[1], y[2] * a[0] - y[0] * a[2], y[0] * a[1] - y[1] * a[0]};
    double dct = 0, dst = 0, dt = 0;
    for (int j = 0; j < 3; j++) {
      dy[j] = a[j] * ct + st * axw[j];
      dw[j] = st * yxa[j] + a[j] * t;
      dct += a[j] * y[j];
      dst += a[j] * cr[j];
      dt += a[j] * wv[j];
    }
    /* t = (w . y)(1 - ct) */
    for (int j = 0; j < 3; j++) {
      dw[j] += dt * (1 - ct) * y[j];
      dy[j] += dt * (1 - ct) * wv[j];
    }
    dct -= dt * wy;
    double dth = -st * dct + ct * dst;
    /* w = r / th, th = sqrt (r . r) */
    double dwr = dw[0] * r[0] + dw[1] * r[1] + dw[2] * r[2];
    dth -= dwr / (th * th);
    double dsqt = dth / (2 * th);
    for (int j = 0; j < 3; j++) {
      row[j] = dw[j] / th + 2 * r[j] * dsqt; /* rotation */
      row[3 + j] = -dy[j];                   /* centre   */
      row[11 + j] = dy[j];                   /* point    */
    }
  }
  J[30] = -2 * w;
}

/* ---- MLP ------------------------------------------------------------------ */
static double mlp_eval(long h, const double *w1, const double *w2, const double *x, double yv,
                       double *hid, double *g1, double *g2, double *gx, double *gy) {
  double out = 0;
#pragma omp parallel for reduction(+ : out) schedule(static)
  for (long j = 0; j < h; j++) {
    double a = 0;
    for (long k = 0; k < h; k++) a += w1[j * h + k] * x[k];
    hid[j] = tanh(a);
    out += w2[j] * hid[j];
  }
  double loss = (out - yv) * (out - yv);
  if (!g1) return loss;
  double g = 2 * (out - yv);
  *gy = -g;
  for (long k = 0; k < h; k++) gx[k] = 0;
#pragma omp parallel
  {
    double *gxl = xmalloc(sizeof(double) * (size_t)h);
#pragma omp for schedule(static)
    for (long j = 0; j < h; j++) {
      g2[j] = g * hid[j];
      double da = g * w2[j] * (1 - hid[j] * hid[j]);
      for (long k = 0; k < h; k++) {
        g1[j * h + k] = da * x[k];
        gxl[k] += da * w1[j * h + k];
      }
    }
#pragma omp critical
    for (long k = 0; k < h; k++) gx[k] += gxl[k];
    free(gxl);
  }
  return loss;
}

int main(int argc, char **argv) {
  if (argc < 4) die("usage: adbench gmm|ba|mlp DATA|H K");
  const char *w = argv[1], *arg = argv[2];
  int K = atoi(argv[3]);
  double bp = 1e30, bg = 1e30, y = 0, chk = NAN;
  char label[64];
  if (!strcmp(w, "gmm")) {
    gmm G;
    gmm_read(arg, &G);
    snprintf(label, sizeof label, "d%d_K%d_n%d", G.d, G.k, G.n);
    int q = G.d * (G.d + 1) / 2;
    for (int r = 0; r < K; r++) {
      double t0 = now();
      y = gmm_eval(&G, NULL, NULL, NULL, NULL, NULL, NULL);
      double t1 = now();
      double *ga = xmalloc(sizeof(double) * (size_t)G.k), *gm = xmalloc(sizeof(double) * (size_t)(G.k * G.d));
      double *gi = xmalloc(sizeof(double) * (size_t)(G.k * q)), *gx = xmalloc(sizeof(double) * (size_t)(G.n * G.d));
      double gg = 0, gl = 0;
      double t2 = now();
      gmm_eval(&G, ga, gm, gi, gx, &gg, &gl);
      double t3 = now();
      chk = gg; /* gl, d y / d lgd, is not a parameter's */
      for (int i = 0; i < G.k; i++) chk += ga[i];
      for (int i = 0; i < G.k * G.d; i++) chk += gm[i];
      for (int i = 0; i < G.k * q; i++) chk += gi[i];
      for (int i = 0; i < G.n * G.d; i++) chk += gx[i];
      free(ga), free(gm), free(gi), free(gx);
      if (t1 - t0 < bp) bp = t1 - t0;
      if (t3 - t2 < bg) bg = t3 - t2;
    }
  } else if (!strcmp(w, "ba")) {
    FILE *f = fopen(arg, "r");
    long n, m, p;
    double v[17];
    if (!f || fscanf(f, "%ld %ld %ld", &n, &m, &p) != 3) die("bad BA file");
    for (int i = 0; i < 17; i++)
      if (fscanf(f, "%lf", &v[i]) != 1) die("bad BA data");
    fclose(f);
    if (getenv("BA_OBS") && atol(getenv("BA_OBS")) < p) p = atol(getenv("BA_OBS"));
    snprintf(label, sizeof label, "n%ld_m%ld_p%ld", n, m, p);
    double *cam = xmalloc(sizeof(double) * (size_t)(11 * p)), *pt = xmalloc(sizeof(double) * (size_t)(3 * p));
    double *wt = xmalloc(sizeof(double) * (size_t)p), *feat = xmalloc(sizeof(double) * (size_t)(2 * p));
    for (long i = 0; i < p; i++) {
      memcpy(cam + 11 * i, v, 11 * sizeof(double));
      memcpy(pt + 3 * i, v + 11, 3 * sizeof(double));
      wt[i] = v[14];
      memcpy(feat + 2 * i, v + 15, 2 * sizeof(double));
    }
    double *re = xmalloc(sizeof(double) * (size_t)(2 * p)), *we = xmalloc(sizeof(double) * (size_t)p);
    double *jac = xmalloc(sizeof(double) * (size_t)(31 * p));
    for (int r = 0; r < K; r++) {
      double t0 = now();
      y = ba_eval(p, cam, pt, wt, feat, re, we);
      double t1 = now();
      if (t1 - t0 < bp) bp = t1 - t0;
      /* the Jacobian (it does not need the objective's values) */
      double t2 = now();
#pragma omp parallel for schedule(static)
      for (long i = 0; i < p; i++) ba_jac_obs(cam + 11 * i, pt + 3 * i, wt[i], feat + 2 * i, jac + 31 * i);
      double t3 = now();
      if (t3 - t2 < bg) bg = t3 - t2;
    }
    chk = 0;
    for (long i = 0; i < 31 * p; i++) chk += jac[i];
    if (getenv("BA_DUMP")) /* observation 0's row of the Jacobian (tests) */
      for (int j = 0; j < 31; j++) fprintf(stderr, "%.17g\n", jac[j]);
  } else if (!strcmp(w, "mlp")) {
    long h = atol(arg);
    snprintf(label, sizeof label, "%ldx%ld", h, h);
    double *x = vec_data(h), *w1 = vec_data(h * h), *w2 = vec_data(h);
    for (long i = 0; i < h * h; i++) w1[i] *= 1.0 / sqrt((double)h);
    double *hid = xmalloc(sizeof(double) * (size_t)h);
    for (int r = 0; r < K; r++) {
      double t0 = now();
      y = mlp_eval(h, w1, w2, x, 0.5, hid, NULL, NULL, NULL, NULL);
      double t1 = now();
      double *g1 = xmalloc(sizeof(double) * (size_t)(h * h)), *g2 = xmalloc(sizeof(double) * (size_t)h);
      double *gx = xmalloc(sizeof(double) * (size_t)h), gy = 0;
      double t2 = now();
      mlp_eval(h, w1, w2, x, 0.5, hid, g1, g2, gx, &gy);
      double t3 = now();
      chk = gy;
      for (long i = 0; i < h * h; i++) chk += g1[i];
      for (long i = 0; i < h; i++) chk += g2[i] + gx[i];
      free(g1), free(g2), free(gx);
      if (t1 - t0 < bp) bp = t1 - t0;
      if (t3 - t2 < bg) bg = t3 - t2;
    }
  } else {
    die("unknown workload");
  }
  printf("%s %s %d %.6g %.6g %.3f nan nan %.12g %.12g\n", w, label, omp_get_max_threads(), bp, bg,
         bg / bp, y, chk);
  return 0;
}
