// ADOL-C baselines (tape-based reverse mode) for the MLP, ADBench GMM and
// ADBench BA workloads of bench/run.sh, with the inputs of bench/fast_bench.c
// and its output line. 1 thread (ADOL-C's taping is sequential).
//   adolc_adbench mlp H K      gradient: taping + gradient() (re-taped each time)
//   adolc_adbench gmm DATA K   gradient w.r.t. every real parameter, as above
//   adolc_adbench ba DATA K    Jacobian: one observation taped once
//                              (17 inputs: camera, point, weight, feature; 3
//                              outputs: the two reprojection errors and the
//                              weight error), then jacobian() at every
//                              observation (no observation of ADBench's files
//                              has a zero rotation, so the taped branch holds);
//                              the 2 x 15 blocks and the weight errors'
//                              derivatives are copied into a p x 31 matrix
// Primal: the same template code on doubles.
#include <adolc/adolc.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
static void die(const char *m) {
  fprintf(stderr, "adolc_adbench: %s\n", m);
  exit(3);
}
static double val(double x) { return x; }
static double val(const adouble &x) { return x.getValue(); }

static std::vector<double> vec_data(long n) {
  std::vector<double> x(n);
  for (long i = 0; i < n; i++) x[i] = sin(0.37 * (double)i) + 0.001 * (double)(i % 97);
  return x;
}

// ---- MLP ----------------------------------------------------------------------
template <class T> static T mlp(long h, const T *w1, const T *w2, const T *x, const T &y) {
  T out = 0;
  for (long j = 0; j < h; j++) {
    T a = 0;
    for (long k = 0; k < h; k++) a += w1[j * h + k] * x[k];
    out += w2[j] * tanh(a);
  }
  return (out - y) * (out - y);
}

// ---- GMM (examples/gmm.chad) --------------------------------------------------------
struct Gmm {
  int d, k, n, m;
  double gamma, lgd;
  std::vector<double> alphas, means, icf, x;
};
static Gmm gmm_read(const char *path) {
  Gmm g;
  FILE *f = fopen(path, "r");
  if (!f || fscanf(f, "%d %d %d", &g.d, &g.k, &g.n) != 3) die("bad GMM file");
  int q = g.d * (g.d + 1) / 2;
  g.alphas.resize(g.k), g.means.resize(g.k * g.d), g.icf.resize(g.k * q), g.x.resize((size_t)g.n * g.d);
  for (auto *v : {&g.alphas, &g.means, &g.icf, &g.x})
    for (double &e : *v)
      if (fscanf(f, "%lf", &e) != 1) die("bad GMM data");
  if (fscanf(f, "%lf %d", &g.gamma, &g.m) != 2) die("bad gamma m");
  fclose(f);
  double nn = g.d + g.m + 1;
  g.lgd = 0.25 * g.d * (g.d - 1) * log(M_PI);
  for (int j = 1; j <= g.d; j++) g.lgd += lgamma(0.5 * nn + 0.5 * (1 - j));
  return g;
}
template <class T> static T lse(const T *v, int k) {
  double mx = val(v[0]);   // a constant shift (logsumexp is shift invariant)
  for (int c = 1; c < k; c++) mx = val(v[c]) > mx ? val(v[c]) : mx;
  T s = 0;
  for (int c = 0; c < k; c++) s += exp(v[c] - mx);
  return mx + log(s);
}
// p = alphas (k), means (k d), icf (k q), x (n d), gamma; lgd a constant (gmm.chad computes it)
template <class T> static T gmm(const Gmm &G, const T *p) {
  int d = G.d, k = G.k, n = G.n, q = d * (d + 1) / 2;
  const T *al = p, *me = al + k, *ic = me + k * d, *x = ic + k * q, &gam = x[(size_t)n * d];
  const double lgd = G.lgd;
  std::vector<T> sumq(k), v(k), xc(d);
  for (int c = 0; c < k; c++) {
    sumq[c] = 0;
    for (int j = 0; j < d; j++) sumq[c] += ic[c * q + j];
  }
  T main = 0;
  for (int i = 0; i < n; i++) {
    for (int c = 0; c < k; c++) {
      for (int j = 0; j < d; j++) xc[j] = x[(size_t)i * d + j] - me[c * d + j];
      T s2 = 0;
      for (int r = 0; r < d; r++) {
        T s = exp(ic[c * q + r]) * xc[r];
        for (int j = 0; j < r; j++) s += ic[c * q + d + j * (d - 1) - j * (j - 1) / 2 + (r - j - 1)] * xc[j];
        s2 += s * s;
      }
      v[c] = al[c] + sumq[c] - 0.5 * s2;
    }
    main += lse(v.data(), k);
  }
  T wish = 0;
  for (int c = 0; c < k; c++) {
    T dg = 0, lo = 0;
    for (int j = 0; j < d; j++) dg += exp(2 * ic[c * q + j]);
    for (int j = d; j < q; j++) lo += ic[c * q + j] * ic[c * q + j];
    wish += 0.5 * gam * gam * (dg + lo) - G.m * sumq[c];
  }
  double nr = n, dr = d, nn = dr + G.m + 1;
  T cw = nn * dr * (log(gam) - 0.5 * log(2.0)) - lgd;
  return -nr * dr * 0.5 * log(2 * M_PI) + main - nr * lse(al, k) + wish - k * cw;
}

// ---- BA (examples/ba.chad's ba_obs) ------------------------------------------------------
// in: camera 11, point 3, weight, feature 2; out: err_x, err_y, w_err
template <class T> static void ba_obs(const T *in, T *out) {
  const T *cm = in, *X = in + 11, &w = in[14], *feat = in + 15;
  T y[3] = {X[0] - cm[3], X[1] - cm[4], X[2] - cm[5]}, xc[3];
  T sqt = cm[0] * cm[0] + cm[1] * cm[1] + cm[2] * cm[2];
  if (val(sqt) != 0) {
    T th = sqrt(sqt), ct = cos(th), st = sin(th);
    T wv[3] = {cm[0] / th, cm[1] / th, cm[2] / th};
    T cr[3] = {wv[1] * y[2] - wv[2] * y[1], wv[2] * y[0] - wv[0] * y[2], wv[0] * y[1] - wv[1] * y[0]};
    T t = (wv[0] * y[0] + wv[1] * y[1] + wv[2] * y[2]) * (1 - ct);
    for (int j = 0; j < 3; j++) xc[j] = y[j] * ct + cr[j] * st + wv[j] * t;
  } else {
    xc[0] = y[0] + cm[1] * y[2] - cm[2] * y[1];
    xc[1] = y[1] + cm[2] * y[0] - cm[0] * y[2];
    xc[2] = y[2] + cm[0] * y[1] - cm[1] * y[0];
  }
  T p0 = xc[0] / xc[2], p1 = xc[1] / xc[2], rsq = p0 * p0 + p1 * p1;
  T l = 1 + cm[9] * rsq + cm[10] * rsq * rsq;
  out[0] = w * (p0 * l * cm[6] + cm[7] - feat[0]);
  out[1] = w * (p1 * l * cm[6] + cm[8] - feat[1]);
  out[2] = 1 - w * w;
}

int main(int argc, char **argv) {
  if (argc < 4) die("usage: adolc_adbench mlp|gmm|ba H|DATA K");
  const char *w = argv[1];
  int K = atoi(argv[3]);
  double bp = 1e30, bg = 1e30, y = 0, chk = 0;
  char label[64];
  std::vector<double> p, g;
  if (!strcmp(w, "mlp") || !strcmp(w, "gmm")) {
    bool is_mlp = !strcmp(w, "mlp");
    long h = 0;
    Gmm G{};
    if (is_mlp) {
      h = atol(argv[2]);
      snprintf(label, sizeof label, "%ldx%ld", h, h);
      std::vector<double> w1 = vec_data(h * h), v = vec_data(h);
      for (double &e : w1) e *= 1.0 / sqrt((double)h);
      p = w1;
      p.insert(p.end(), v.begin(), v.end());  // w2
      p.insert(p.end(), v.begin(), v.end());  // x
      p.push_back(0.5);                       // y
    } else {
      G = gmm_read(argv[2]);
      snprintf(label, sizeof label, "d%d_K%d_n%d", G.d, G.k, G.n);
      for (auto *v : {&G.alphas, &G.means, &G.icf, &G.x}) p.insert(p.end(), v->begin(), v->end());
      p.push_back(G.gamma);
    }
    long np = (long)p.size();
    g.resize(np);
    auto prim = [&](const auto *q) {
      return is_mlp ? mlp(h, q, q + h * h, q + h * h + h, q[h * h + 2 * h]) : gmm(G, q);
    };
    for (int r = 0; r < K; r++) {
      double t0 = now();
      y = prim(p.data());
      double t1 = now();
      {
        std::vector<adouble> ap(np);
        double yy;
        trace_on(1);
        for (long i = 0; i < np; i++) ap[i] <<= p[i];
        adouble out = prim(ap.data());
        out >>= yy;
        trace_off();
        gradient(1, (int)np, p.data(), g.data());
      }
      double t3 = now();
      chk = 0;
      for (double e : g) chk += e;
      if (t1 - t0 < bp) bp = t1 - t0;
      if (t3 - t1 < bg) bg = t3 - t1;
    }
  } else if (!strcmp(w, "ba")) {
    FILE *f = fopen(argv[2], "r");
    long n, m, np;
    double v[17];
    if (!f || fscanf(f, "%ld %ld %ld", &n, &m, &np) != 3) die("bad BA file");
    for (double &e : v)
      if (fscanf(f, "%lf", &e) != 1) die("bad BA data");
    fclose(f);
    if (getenv("BA_OBS") && atol(getenv("BA_OBS")) < np) np = atol(getenv("BA_OBS"));
    snprintf(label, sizeof label, "n%ld_m%ld_p%ld", n, m, np);
    std::vector<double> in((size_t)np * 17), err((size_t)np * 3), jac((size_t)np * 31);
    for (long i = 0; i < np; i++) memcpy(&in[i * 17], v, sizeof v);  // gathered, all equal
    double **J = myalloc2(3, 17);
    for (int r = 0; r < K; r++) {
      double t0 = now(), s = 0;
      for (long i = 0; i < np; i++) {
        ba_obs(&in[i * 17], &err[i * 3]);
        s += err[i * 3] + err[i * 3 + 1] + err[i * 3 + 2];
      }
      double t1 = now();
      y = s;
      {
        std::vector<adouble> ai(17), ao(3);
        double yy[3];
        trace_on(2);
        for (int j = 0; j < 17; j++) ai[j] <<= in[j];
        ba_obs(ai.data(), ao.data());
        for (int j = 0; j < 3; j++) ao[j] >>= yy[j];
        trace_off();
      }
      for (long i = 0; i < np; i++) {
        jacobian(2, 3, 17, &in[i * 17], J);
        double *row = &jac[i * 31];
        memcpy(row, J[0], 15 * sizeof(double));
        memcpy(row + 15, J[1], 15 * sizeof(double));
        row[30] = J[2][14];
      }
      double t3 = now();
      chk = 0;
      for (double e : jac) chk += e;
      if (t1 - t0 < bp) bp = t1 - t0;
      if (t3 - t1 < bg) bg = t3 - t1;
    }
    myfree2(J);
  } else {
    die("unknown workload");
  }
  printf("%s %s 1 %.6g %.6g %.3f nan nan %.12g %.12g\n", w, label, bp, bg, bg / bp, y, chk);
  return 0;
}
