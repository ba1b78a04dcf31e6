/* Diagnostics shared by every module outside the kernel: where an input
 * error is (file:line:col), what it is, and the exit code it maps to. */
#ifndef CHAD_DIAG_H
#define CHAD_DIAG_H

/* Documented exit codes of the `chad` command line (see --help, README). */
enum chad_exit {
  CHAD_EXIT_OK = 0,
  CHAD_EXIT_USAGE = 1,    /* bad command line                             */
  CHAD_EXIT_INPUT = 2,    /* parse, type or JSON error in the input       */
  CHAD_EXIT_RUNTIME = 3,  /* evaluation error: bounds, div by zero, OOM   */
  CHAD_EXIT_NONDIFF = 4,  /* certified: not differentiable (or undefined) at
                             the point; stdout has the per-entry answer    */
  CHAD_EXIT_UNDECIDED = 5 /* certified: undecided at the precision cap     */
};

typedef struct chad_diag {
  int exit_code;          /* one of chad_exit; CHAD_EXIT_OK when no error */
  char file[256];         /* "" when not about a file                     */
  int line, col;          /* 1-based; 0 when unknown                      */
  char msg[512];          /* what was expected and what was found         */
} chad_diag;

/* Sets d and returns d->exit_code. */
int diag_set(chad_diag *d, int exit_code, const char *file, int line, int col,
             const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Prints "file:line:col: error: msg" (or "error: msg") to stderr. */
void diag_print(const chad_diag *d);

#endif
