#ifndef PT_FD_H
#define PT_FD_H
#define PT_FD_MAX 256
enum { PT_FD_OK = 0, PT_FD_KINK = 1, PT_FD_ERROR = -1 };
/* f(c, x, y): evaluates y = f(x); 0 on success. */
typedef int (*pt_fn)(void *c, const double *x, double *y);
/* deriv[j], tol[j] for each of the m outputs; see fd.c. */
int pt_fd_dir(pt_fn f, void *c, int n, int m, const double *x, const double *d,
              double *deriv, double *tol);
#endif
