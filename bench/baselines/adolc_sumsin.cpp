// ADOL-C baseline (tape-based reverse mode) for the same workloads.
// usage: adolc_sumsin WORKLOAD N K ; output as bench/fast_bench.c. The
// primal is a plain double evaluation; the gradient time is taping plus
// gradient() (ADOL-C must re-tape when the input changes in general).
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

int main(int argc, char **argv) {
  if (argc < 4) return 1;
  const char *w = argv[1];
  long n = atol(argv[2]);
  int k = atoi(argv[3]);
  bool bi = !strcmp(w, "buildidx");
  std::vector<double> x(n), g(n);
  for (long i = 0; i < n; i++) x[i] = sin(0.37 * (double)i) + 0.001 * (double)(i % 97);
  double bp = 1e30, bg = 1e30, y = 0, chk = 0;
  for (int r = 0; r < k; r++) {
    double t0 = now(), s = 0;
    for (long i = 0; i < n; i++) s += bi ? x[i] * x[(i + 1) % n] : sin(x[i]) * x[i];
    double t1 = now();
    y = s;
    double t2 = now();
    {
      std::vector<adouble> ax(n);
      adouble as = 0;
      double yy;
      trace_on(1);
      for (long i = 0; i < n; i++) ax[i] <<= x[i];
      for (long i = 0; i < n; i++) as += bi ? ax[i] * ax[(i + 1) % n] : sin(ax[i]) * ax[i];
      as >>= yy;
      trace_off();
      gradient(1, (int)n, x.data(), g.data());
    }
    double t3 = now();
    chk = 0;
    for (long i = 0; i < n; i++) chk += g[i];
    if (t1 - t0 < bp) bp = t1 - t0;
    if (t3 - t2 < bg) bg = t3 - t2;
  }
  printf("%s %ld 1 %.6g %.6g %.3f %.12g %.12g\n", w, n, bp, bg, bg / bp, y, chk);
  return 0;
}
