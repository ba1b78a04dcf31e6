/* Finite differences good enough to judge derivatives by.
 *
 * Directional derivative of f : R^n -> R^m at x along d:
 *   D(h) = (f(x + h d) - f(x - h d)) / 2h   at h0, h0/2, h0/4,
 *   two Richardson levels  R1 = (4 D(h0/2) - D(h0)) / 3,
 *                          R2 = (4 D(h0/4) - D(h0/2)) / 3,
 * estimate R2 (error O(h^4)), error estimate |R1 - R2| plus a rounding term
 * eps_f * max|f| / (h0/4). The tolerance is a multiple of that estimate.
 *
 * Non-differentiable points. For a smooth f the central differences
 * converge like h^2: |D(h0) - D(h0/2)| ~ 4 |D(h0/2) - D(h0/4)|. When a
 * branch flips inside [x - h0 d, x + h0 d] (a comparison, max/min/abs
 * decision that differs at the two sides) that ratio breaks: the point is
 * reported as non-differentiable and the caller skips and counts it. The
 * decision depends on f alone, never on the derivative under test.
 * A kink exactly at x keeps D(h) constant (max(x,y) at a tie along a
 * direction is homogeneous in h), so the one-sided gap
 *   G(h) = (f(x + h d) - 2 f(x) + f(x - h d)) / h  (= f'' h + O(h^3) if smooth)
 * must also shrink with h: at a kink it stays at the jump of the slopes.
 */
#include <math.h>
#include <string.h>
#include "fd.h"

#define EPS_F 1e-13   /* relative accuracy assumed for one evaluation of f */

/* One attempt at base step h0. */
static int fd_at(pt_fn f, void *c, int n, int m, const double *x, const double *d,
                 double h0, double *deriv, double *tol, int *resolved) {
  double xscale = 0.0;
  for (int i = 0; i < n; i++) xscale = fmax(xscale, fabs(x[i]));
  double xs[PT_FD_MAX], fp[PT_FD_MAX], fm[PT_FD_MAX];
  double D[3][PT_FD_MAX], Gp[3][PT_FD_MAX], f0[PT_FD_MAX], fbig[PT_FD_MAX];
  if (f(c, x, f0) != 0) return PT_FD_ERROR;
  for (int j = 0; j < m; j++) fbig[j] = fabs(f0[j]);
  for (int l = 0; l < 3; l++) {
    double h = h0 / (double)(1 << l);
    for (int i = 0; i < n; i++) xs[i] = x[i] + h * d[i];
    if (f(c, xs, fp) != 0) return PT_FD_ERROR;
    for (int i = 0; i < n; i++) xs[i] = x[i] - h * d[i];
    if (f(c, xs, fm) != 0) return PT_FD_ERROR;
    for (int j = 0; j < m; j++) {
      if (!isfinite(fp[j]) || !isfinite(fm[j])) return PT_FD_ERROR;
      D[l][j] = (fp[j] - fm[j]) / (2.0 * h);
      Gp[l][j] = (fp[j] - 2.0 * f0[j] + fm[j]) / h;
      fbig[j] = fmax(fbig[j], fmax(fabs(fp[j]), fabs(fm[j])));
    }
  }
  int kink = 0;
  double big = 0.0;
  for (int j = 0; j < m; j++) big = fmax(big, fabs((4.0 * D[2][j] - D[1][j]) / 3.0));
  *resolved = 1;
  for (int j = 0; j < m; j++) {
    /* rounding of f: relative to its inputs too (f = x + y near 0 after
     * cancellation still carries the rounding of x and y) */
    double noise = EPS_F * fmax(fbig[j], xscale) / (h0 / 4.0);
    double d1 = fabs(D[0][j] - D[1][j]), d2 = fabs(D[1][j] - D[2][j]);
    double r1 = (4.0 * D[1][j] - D[0][j]) / 3.0, r2 = (4.0 * D[2][j] - D[1][j]) / 3.0;
    deriv[j] = r2;
    tol[j] = 10.0 * (fabs(r1 - r2) + noise) + 1e-12 * fabs(r2);
    /* the estimate must be sharp enough to judge by */
    if (fabs(r1 - r2) > 1e-6 * fmax(fabs(r2), 1e-3 * big) + 4.0 * noise) *resolved = 0;
    /* one-sided slopes must agree in the limit: G(h) ~ h (or h^3) */
    double gnoise = 4.0 * noise, g1 = fabs(Gp[1][j]), g2 = fabs(Gp[2][j]);
    if (g2 > 8.0 * gnoise && (g1 / g2 < 1.5 || g1 / g2 > 10.0)) kink = 1;
    if (d1 <= 8.0 * noise && d2 <= 8.0 * noise) continue;  /* linear to rounding */
    if (d2 <= 2.0 * noise) { if (d1 > 16.0 * noise) kink = 1; continue; }
    double ratio = d1 / d2;
    if (ratio < 2.0 || ratio > 20.0) kink = 1; /* not converging like h^2 (or h^4) */
  }
  return kink ? PT_FD_KINK : PT_FD_OK;
}

/* Step h0 = 1e-3 * max(1, |x|) / |d|, then 10, 100, 1000 times smaller while
 * the estimate is not sharp (a function varying on a scale below the step:
 * sin of a large argument) or a kink sits inside the stencil (it leaves a
 * smaller stencil unless it is at x itself). */
int pt_fd_dir(pt_fn f, void *c, int n, int m, const double *x, const double *d,
              double *deriv, double *tol) {
  double xmax = 1.0, dmax = 0.0;
  for (int i = 0; i < n; i++) {
    if (fabs(x[i]) > xmax) xmax = fabs(x[i]);
    if (fabs(d[i]) > dmax) dmax = fabs(d[i]);
  }
  if (dmax == 0.0) {
    for (int j = 0; j < m; j++) { deriv[j] = 0.0; tol[j] = 0.0; }
    return PT_FD_OK;
  }
  double h0 = 1e-3 * xmax / dmax;
  int st = PT_FD_KINK;
  for (int k = 0; k < 4; k++, h0 /= 10.0) {
    int resolved;
    st = fd_at(f, c, n, m, x, d, h0, deriv, tol, &resolved);
    if (st == PT_FD_ERROR) return st;
    if (st == PT_FD_OK && resolved) return PT_FD_OK;
  }
  return PT_FD_KINK;   /* not differentiable here, or not resolvable */
}
