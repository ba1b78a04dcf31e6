/* What every exporter shares: the emitter's state as it walks an elaborated
 * term (the output, the indentation, fresh names, the de Bruijn
 * environment of the target's variable names, the first construct that
 * cannot be exported). Each target (torch.c, adolc.c) owns the syntax. */
#ifndef CHAD_EXPORT_EMIT_H
#define CHAD_EXPORT_EMIT_H

#include <stdint.h>

#include "chad/json.h"

#define EMIT_NAME_LEN 40 /* a fresh name or a literal, with its NUL */

typedef struct emitter {
  chad_buf *b;
  const char *indent_unit;  /* one level of indentation: "    " or "  "   */
  int indent;
  int next;                 /* fresh variable counter                     */
  char **env;               /* de Bruijn: env[depth - 1 - k] is var k     */
  int depth, cap;
  const char *unsupported;  /* the first construct that cannot be exported */
} emitter;

/* An emitter writing into b, indenting by indent_unit. */
emitter emit_start(chad_buf *b, const char *indent_unit);
/* Frees the environment; returns the construct that could not be exported. */
const char *emit_finish(emitter *E);

/* One line at the current indentation (longer lines are cut at 4095 bytes). */
void emit_line(emitter *E, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A fresh name stem0, stem1, ... into name (EMIT_NAME_LEN bytes). */
void emit_fresh(emitter *E, char *name, const char *stem);
/* Binds the next variable to name; -1 when out of memory. */
int emit_push(emitter *E, const char *name);
void emit_pop(emitter *E);
/* The target name of de Bruijn variable k. */
const char *emit_var(const emitter *E, int64_t k);
/* Records `what` as the reason the export fails (the first one wins); -1. */
int emit_unsupported(emitter *E, const char *what);

#endif
