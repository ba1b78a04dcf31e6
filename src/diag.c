#include "chad/diag.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int diag_set(chad_diag *d, int exit_code, const char *file, int line, int col,
             const char *fmt, ...) {
  va_list ap;
  if (!d) return exit_code;   /* a library caller gave no diagnostic: nowhere to say more */
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
  if (!d) return;
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

void diag_locate(const char *text, size_t len, size_t off, int *line, int *col) {
  int l = 1, c = 1;
  for (size_t i = 0; i < off && i < len; i++) {
    unsigned char ch = (unsigned char)text[i];
    if (ch == '\n' || (ch == '\r' && (i + 1 >= len || text[i + 1] != '\n'))) {
      if (l < INT_MAX) l++;
      c = 1;
    } else if (ch != '\r' && (ch & 0xC0) != 0x80 && c < INT_MAX) {
      c++;
    }
  }
  *line = l;
  *col = c;
}

char *diag_read_file(const char *path, int dash_is_stdin, size_t limit, size_t *len,
                     chad_diag *d) {
  int is_stdin = dash_is_stdin && strcmp(path, "-") == 0;
  const char *name = is_stdin ? "<stdin>" : path;
  FILE *f = is_stdin ? stdin : fopen(path, "rb");
  if (!f) {
    diag_set(d, CHAD_EXIT_INPUT, name, 0, 0, "cannot open: %s", strerror(errno));
    return NULL;
  }
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    if (!is_stdin) fclose(f);
    diag_set(d, CHAD_EXIT_INPUT, name, 0, 0, "cannot read: %s", strerror(EISDIR));
    return NULL;
  }
  /* at most limit + 1 bytes: one past the limit says it is too large */
  size_t cap = limit < 65536 ? limit + 1 : 65536, n = 0;
  char *s = malloc(cap + 1);
  int err = 0;
  while (s) {
    errno = 0;
    size_t got = fread(s + n, 1, cap - n, f);
    n += got;
    if (got == 0 || n > limit) {
      if (ferror(f)) err = errno ? errno : EIO;
      break;
    }
    if (n == cap) {
      size_t ncap = cap > limit / 2 ? limit + 1 : cap * 2;
      char *t = realloc(s, ncap + 1);
      if (!t) { free(s); s = NULL; break; }
      s = t;
      cap = ncap;
    }
  }
  if (!is_stdin) fclose(f);
  else clearerr(f);
  if (!s) {
    diag_set(d, CHAD_EXIT_RUNTIME, name, 0, 0, "out of memory reading the file");
    return NULL;
  }
  if (err) {
    free(s);
    diag_set(d, CHAD_EXIT_INPUT, name, 0, 0, "cannot read: %s", strerror(err));
    return NULL;
  }
  if (n > limit) {
    int line, col;
    diag_locate(s, n, limit, &line, &col);
    free(s);
    diag_set(d, CHAD_EXIT_INPUT, name, line, col, "too large: more than %zu bytes", limit);
    return NULL;
  }
  s[n] = '\0';
  *len = n;
  return s;
}
