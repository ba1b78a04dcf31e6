/* The exporters' shared emitter (emit.h). */
#include "export/emit.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

emitter emit_start(chad_buf *b, const char *indent_unit) {
  emitter E = {b, indent_unit, 0, 0, NULL, 0, 0, NULL};
  return E;
}

const char *emit_finish(emitter *E) {
  while (E->depth > 0) emit_pop(E);
  free(E->env);
  E->env = NULL;
  E->cap = 0;
  return E->unsupported;
}

void emit_line(emitter *E, const char *fmt, ...) {
  char tmp[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  for (int i = 0; i < E->indent; i++) buf_puts(E->b, E->indent_unit);
  buf_puts(E->b, tmp);
  buf_puts(E->b, "\n");
}

void emit_fresh(emitter *E, char *name, const char *stem) {
  snprintf(name, EMIT_NAME_LEN, "%s%d", stem, E->next++);
}

int emit_push(emitter *E, const char *name) {
  if (E->depth == E->cap) {
    int cap = E->cap ? E->cap * 2 : 64;
    char **n = realloc(E->env, (size_t)cap * sizeof *n);
    if (!n) return -1;
    E->env = n;
    E->cap = cap;
  }
  E->env[E->depth] = strdup(name);
  if (!E->env[E->depth]) return -1;
  E->depth++;
  return 0;
}

void emit_pop(emitter *E) { free(E->env[--E->depth]); }

const char *emit_var(const emitter *E, int64_t k) {
  return k >= 0 && k < E->depth ? E->env[E->depth - 1 - k] : "_unbound";
}

int emit_unsupported(emitter *E, const char *what) {
  if (!E->unsupported) E->unsupported = what;
  return -1;
}
