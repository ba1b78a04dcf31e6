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
  /* the certified verdicts are answers, not errors */
  const char *kind = d->exit_code == CHAD_EXIT_NONDIFF || d->exit_code == CHAD_EXIT_UNDECIDED
                         ? "" : "error: ";
  if (d->file[0] && d->line > 0)
    fprintf(stderr, "%s:%d:%d: %s%s\n", d->file, d->line, d->col, kind, d->msg);
  else if (d->file[0])
    fprintf(stderr, "%s: %s%s\n", d->file, kind, d->msg);
  else
    fprintf(stderr, "%s%s\n", kind, d->msg);
}


