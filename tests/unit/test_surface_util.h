/* Helpers shared by the surface-language unit tests. */
#ifndef TEST_SURFACE_UTIL_H
#define TEST_SURFACE_UTIL_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad/diag.h"
#include "chad/kernel.h"
#include "chad/primitives.h"
#include "chad/surface.h"

static int n_checks, n_failed;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    n_checks++;                                                                \
    if (!(cond)) {                                                             \
      n_failed++;                                                              \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                     \
      fprintf(stderr, __VA_ARGS__);                                            \
      fprintf(stderr, "\n");                                                   \
    }                                                                          \
  } while (0)

static void surf_test_init(void)
{
  ty_init();
  ctx_init();
  tm_init();
  raw_init();
  op_init();
  if (prims_init() < 0) {
    fprintf(stderr, "prims_init failed\n");
    exit(2);
  }
}

/* ---- a compact rendering of arena terms for exact structural asserts ---- */
typedef struct {
  char *s;
  size_t n, cap;
} tbuf;

static void tb_put(tbuf *b, const char *s)
{
  size_t k = strlen(s);
  if (b->n + k + 1 > b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 256;
    while (cap < b->n + k + 1)
      cap *= 2;
    char *x = realloc(b->s, cap);
    if (!x)
      abort();
    b->s = x;
    b->cap = cap;
  }
  memcpy(b->s + b->n, s, k + 1);
  b->n += k;
}

static void sexp_rec(tbuf *b, int t)
{
  static const char *names[TM_NKINDS] = {
    "var", "let", "lam", "app", "unit", "pair", "fst", "snd", "inl", "inr",
    "case", "r", "i", "op", "iter", "loop", "build", "index", "length", "map", "sum",
    "zero", "plus", "llam", "lapp", "single", "fold", "lsum", "D", "DT", "onehot"};
  char tmp[128];
  int k = tm_kind(t);
  switch (k) {
  case TM_VAR: snprintf(tmp, sizeof tmp, "#%" PRId64, tm_aux(t)); tb_put(b, tmp); return;
  case TM_UNIT: tb_put(b, "()"); return;
  case TM_RCONST: snprintf(tmp, sizeof tmp, "%gr", tm_rval(t)); tb_put(b, tmp); return;
  case TM_ICONST: snprintf(tmp, sizeof tmp, "%" PRId64, tm_aux(t)); tb_put(b, tmp); return;
  case TM_OP: tb_put(b, prim_name((int)tm_aux(t))); break;
  case TM_PAIR: break;
  case TM_LAM: {
    char *ty = surf_print_type(ty_left(tm_type(t)));
    snprintf(tmp, sizeof tmp, "lam[%s]", ty);
    free(ty);
    tb_put(b, tmp);
    break;
  }
  default: tb_put(b, k >= 0 && k < TM_NKINDS ? names[k] : "?"); break;
  }
  tb_put(b, "(");
  int ch[3] = {tm_a(t), tm_b(t), tm_c(t)};
  int first = 1;
  for (int i = 0; i < 3; i++) {
    if (ch[i] < 0)
      continue;
    if (!first)
      tb_put(b, ",");
    first = 0;
    sexp_rec(b, ch[i]);
  }
  tb_put(b, ")");
}

/* caller frees */
__attribute__((unused)) static char *sexp(int t)
{
  tbuf b = {0};
  sexp_rec(&b, t);
  return b.s;
}

/* Structural equality of two arena terms: kinds, types, contexts,
 * constants and children. */
__attribute__((unused)) static int tm_same(int a, int b)
{
  if (a == b)
    return 1;
  if (a < 0 || b < 0)
    return 0;
  if (tm_kind(a) != tm_kind(b) || tm_type(a) != tm_type(b) || tm_ctx(a) != tm_ctx(b) ||
      tm_aux(a) != tm_aux(b))
    return 0;
  double x = tm_rval(a), y = tm_rval(b);
  if (memcmp(&x, &y, sizeof x) != 0)
    return 0;
  return tm_same(tm_a(a), tm_a(b)) && tm_same(tm_b(a), tm_b(b)) && tm_same(tm_c(a), tm_c(b));
}

/* Parses src and elaborates its def `name` (the last def when name is
 * NULL). Returns the exit code; d is filled on error. */
__attribute__((unused)) static int elab_src(const char *src, const char *name, int *term, int *ctx, chad_diag *d)
{
  surf_program *p = surf_parse_string(src, "t.chad", d);
  if (!p)
    return d->exit_code;
  int k = name ? surf_def_find(p, name) : surf_def_count(p) - 1;
  int rc = surf_elab_def(p, k, term, ctx, d);
  surf_free(p);
  return rc;
}

#endif
