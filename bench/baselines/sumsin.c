/* Hand-written C baseline (-O2, OpenMP) for f(x) = sum (sin x_i * x_i) and
 * its gradient df/dx_i = cos x_i * x_i + sin x_i; also the build/index
 * program f(x) = sum x_i x_{(i+1) mod n}. Same output format as
 * bench/fast_bench.c: workload n threads primal_s gradient_s ratio value check */
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

int main(int argc, char **argv) {
  if (argc < 4) return 1;
  const char *w = argv[1];
  long n = atol(argv[2]);
  int k = atoi(argv[3]);
  int bi = !strcmp(w, "buildidx");
  double *x = malloc(sizeof(double) * (size_t)n), *g = malloc(sizeof(double) * (size_t)n);
  for (long i = 0; i < n; i++) x[i] = sin(0.37 * (double)i) + 0.001 * (double)(i % 97);
  double bp = 1e30, bg = 1e30, y = 0, check = 0;
  for (int r = 0; r < k; r++) {
    double t0 = now(), s = 0;
    if (bi) {
#pragma omp parallel for reduction(+ : s) schedule(static)
      for (long i = 0; i < n; i++) s += x[i] * x[(i + 1) % n];
    } else {
#pragma omp parallel for reduction(+ : s) schedule(static)
      for (long i = 0; i < n; i++) s += sin(x[i]) * x[i];
    }
    double t1 = now();
    y = s;
    double t2 = now();
    s = 0; /* the gradient computes the primal too, as a VJP does */
    if (bi) {
#pragma omp parallel for reduction(+ : s) schedule(static)
      for (long i = 0; i < n; i++) {
        s += x[i] * x[(i + 1) % n];
        g[i] = x[(i + 1) % n] + x[(i + n - 1) % n];
      }
    } else {
#pragma omp parallel for reduction(+ : s) schedule(static)
      for (long i = 0; i < n; i++) {
        double si = sin(x[i]);
        s += si * x[i];
        g[i] = cos(x[i]) * x[i] + si;
      }
    }
    double t3 = now();
    check = 0;
    for (long i = 0; i < n; i++) check += g[i];
    if (t1 - t0 < bp) bp = t1 - t0;
    if (t3 - t2 < bg) bg = t3 - t2;
    (void)s;
  }
  printf("%s %ld %d %.6g %.6g %.3f %.12g %.12g\n", w, n, omp_get_max_threads(), bp, bg, bg / bp, y,
         check);
  free(x);
  free(g);
  return 0;
}
