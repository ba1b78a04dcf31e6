/* Self-check of the finite-difference judge, run before the properties:
 * known derivatives must be found within the tolerance, and known
 * non-differentiable points must be reported as such. A judge that fails
 * here would make every property meaningless, so the run stops. */
#include <math.h>
#include "pt.h"
#include "fd.h"

static int fn_id;
static int f_known(void *c, const double *x, double *y) {
  (void)c;
  switch (fn_id) {
  case 0: y[0] = sin(x[0]) * exp(x[1]); y[1] = x[0] * x[1] * x[1]; return 0;
  case 1: y[0] = fabs(x[0]); return 0;                         /* kink at 0 */
  case 2: y[0] = fmax(x[0], x[1]); return 0;                   /* tie */
  case 3: y[0] = x[0] < 0.0 ? 1.0 : 2.0 + x[0]; return 0;      /* jump */
  case 4: y[0] = fabs(x[0] - 3e-4); return 0;                  /* kink near x */
  case 5: y[0] = log(x[0] * x[0] + 0.5) / (1 + x[0] * x[0]); return 0;
  case 6: y[0] = exp(exp(x[0])); return 0;                     /* steep, smooth */
  default: return -1;
  }
}

int pt_fd_selfcheck(void) {
  double d[4], tol[4];
  int bad = 0;
  /* smooth: derivative along (0.3, -0.7) at (0.4, 0.2) */
  fn_id = 0;
  double x0[2] = {0.4, 0.2}, dir[2] = {0.3, -0.7};
  int s = pt_fd_dir(f_known, 0, 2, 2, x0, dir, d, tol);
  double e0 = cos(0.4) * exp(0.2) * 0.3 + sin(0.4) * exp(0.2) * -0.7;
  double e1 = 0.2 * 0.2 * 0.3 + 2 * 0.4 * 0.2 * -0.7;
  if (s != PT_FD_OK || fabs(d[0] - e0) > tol[0] || fabs(d[1] - e1) > tol[1] || tol[0] > 1e-6) bad |= 1;
  fn_id = 5;
  double x5 = 0.7, one = 1.0;
  s = pt_fd_dir(f_known, 0, 1, 1, &x5, &one, d, tol);
  double u = x5 * x5 + 0.5, w = 1 + x5 * x5;
  double e5 = (2 * x5 / u) / w - log(u) * 2 * x5 / (w * w);
  if (s != PT_FD_OK || fabs(d[0] - e5) > tol[0]) bad |= 2;
  fn_id = 6;
  double x6 = 1.5;
  s = pt_fd_dir(f_known, 0, 1, 1, &x6, &one, d, tol);
  if (s != PT_FD_OK || fabs(d[0] - exp(exp(x6)) * exp(x6)) > tol[0]) bad |= 4;
  /* non-differentiable points must be detected */
  double z = 0.0, t2[2] = {1.0, 1.0}, dd2[2] = {0.5, -0.25};
  fn_id = 1; if (pt_fd_dir(f_known, 0, 1, 1, &z, &one, d, tol) != PT_FD_KINK) bad |= 8;
  fn_id = 2; if (pt_fd_dir(f_known, 0, 2, 1, t2, dd2, d, tol) != PT_FD_KINK) bad |= 16;
  fn_id = 3; if (pt_fd_dir(f_known, 0, 1, 1, &z, &one, d, tol) != PT_FD_KINK) bad |= 32;
  /* a kink inside the first stencil but not at x: smaller steps resolve it */
  fn_id = 4;
  if (pt_fd_dir(f_known, 0, 1, 1, &z, &one, d, tol) != PT_FD_OK || fabs(d[0] + 1.0) > tol[0]) bad |= 64;
  if (bad) printf("finite-difference self-check FAILED (mask %d)\n", bad);
  else printf("finite-difference self-check: 4 derivatives found within tolerance (one with a kink inside the first stencil), 3 kinds of non-differentiable point detected\n");
  return bad ? -1 : 0;
}
