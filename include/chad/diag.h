/* Diagnostics shared by every module outside the kernel: where an input
 * error is (file:line:col), what it is, and the exit code it maps to. */
#ifndef CHAD_DIAG_H
#define CHAD_DIAG_H

#include <stddef.h>

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
/* Prints "file:line:col: error: msg" (or "file: error: msg", "error: msg"
 * when there is no position) to stderr. */
void diag_print(const chad_diag *d);

/* Reads the whole file `path` ("-" is standard input when dash_is_stdin,
 * else a file named "-"), at most `limit`
 * bytes: a regular file larger than that fails before any reading, any
 * other (a pipe, a device, process substitution) after limit + 1 bytes.
 * Returns a malloc'd buffer of *len bytes plus a NUL, or NULL with d set:
 * exit code 2 (cannot open, cannot read with its reason, or too large, then
 * positioned file:line:col at the first byte past the limit; CR, LF and CRLF
 * end lines), 3 when the host is out of memory. */
char *diag_read_file(const char *path, int dash_is_stdin, size_t limit, size_t *len,
                     chad_diag *d);

/* Line and column (1-based, columns count UTF-8 characters) of byte offset
 * `off` of text; CR, LF and CRLF each end a line. */
void diag_locate(const char *text, size_t len, size_t off, int *line, int *col);

#endif
