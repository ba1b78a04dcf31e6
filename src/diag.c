#include "chad/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int diag_set(chad_diag *d, int exit_code, const char *file, int line, int col,
             const char *fmt, ...) {
  va_list ap;
  d->exit_code = exit_code;
  snprintf(d->file, sizeof d->file, "%s", file ? file : "");
  d->line = line;
  d->col = col;
  va_start(ap, fmt);
  vsnprintf(d->msg, sizeof d->msg, fmt, ap);
  va_end(ap);
  return exit_code;
}

void diag_print(const chad_diag *d) {
  if (d->file[0] && d->line > 0)
    fprintf(stderr, "%s:%d:%d: error: %s\n", d->file, d->line, d->col, d->msg);
  else if (d->file[0])
    fprintf(stderr, "%s: error: %s\n", d->file, d->msg);
  else
    fprintf(stderr, "error: %s\n", d->msg);
}
