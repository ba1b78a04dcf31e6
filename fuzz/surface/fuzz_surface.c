/* libFuzzer harness for the surface front end: parse, elaborate every def
 * (at most 16), print each elaborated def and parse it back. Aborts (a
 * finding) when an error has no file:line:col position, when an error is
 * not an input error, or when a printed def does not parse back to the same
 * term. With FUZZ_CHAD=1 in the environment, each elaborated def also goes
 * through the forward and reverse CHAD transformations and the simplifier,
 * whose results must print with every variable bound. Build and run:
 * make fuzz-surface (fuzz/run.sh). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad/chad.h"
#include "chad/diag.h"
#include "chad/kernel.h"
#include "chad/primitives.h"
#include "chad/surface.h"

static void init_all(void)
{
  ty_init();
  ctx_init();
  tm_init();
  raw_init();
  op_init();
  if (prims_init() < 0)
    abort();
  chad_init();
}

static void check_target(int t)
{
  if (t < 0)
    return; /* capacity or depth: a reported failure, not a crash */
  char *s = surf_print_term(t, 0, NULL);
  if (!s || strstr(s, "<unbound>") || strstr(s, "<bad") || strstr(s, "<term kind")) {
    fprintf(stderr, "bad target print:\n%s\n", s ? s : "(null)");
    abort();
  }
  free(s);
}

static int same(int a, int b)
{
  if (a == b)
    return 1;
  if (a < 0 || b < 0)
    return 0;
  double x = tm_rval(a), y = tm_rval(b);
  return tm_kind(a) == tm_kind(b) && tm_type(a) == tm_type(b) && tm_ctx(a) == tm_ctx(b) &&
         tm_aux(a) == tm_aux(b) && memcmp(&x, &y, sizeof x) == 0 && same(tm_a(a), tm_a(b)) &&
         same(tm_b(a), tm_b(b)) && same(tm_c(a), tm_c(b));
}

static void check_diag(const chad_diag *d, const char *what)
{
  if (d->exit_code != CHAD_EXIT_INPUT || d->line < 1 || d->col < 1 || !d->msg[0] ||
      strstr(d->msg, "internal error")) {
    fprintf(stderr, "%s: bad diagnostic: exit %d at %d:%d: %s\n", what, d->exit_code, d->line, d->col,
            d->msg);
    abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static int calls;
  if (calls++ % 256 == 0)
    init_all();
  else {
    tm_init(); /* terms are per input; types and contexts may accumulate */
    raw_init();
  }
  chad_diag d;
  surf_program *p = surf_parse_buffer((const char *)data, size, "fuzz.chad", &d);
  if (!p) {
    check_diag(&d, "parse");
    return 0;
  }
  for (int k = 0; k < surf_def_count(p) && k < 16; k++) {
    int term, ctx;
    if (surf_elab_def(p, k, &term, &ctx, &d) != CHAD_EXIT_OK) {
      check_diag(&d, "elaborate");
      continue;
    }
    char *text = surf_print_def(p, k, term);
    if (!text)
      abort();
    surf_program *q = surf_parse_string(text, "printed.chad", &d);
    int term2, ctx2;
    if (!q || surf_elab_def(q, 0, &term2, &ctx2, &d) != CHAD_EXIT_OK || ctx2 != ctx || !same(term, term2)) {
      fprintf(stderr, "printed def does not round-trip (%s):\n%s\n", q ? d.msg : d.msg, text);
      abort();
    }
    surf_free(q);
    free(text);
    static int with_chad = -1;
    if (with_chad < 0)
      with_chad = getenv("FUZZ_CHAD") != NULL;
    if (with_chad) {
      int f = chad_fwd(term), r = chad_rev(term);
      check_target(f);
      check_target(r);
      if (f >= 0)
        check_target(chad_simplify(f));
      if (r >= 0)
        check_target(chad_simplify(r));
    }
  }
  surf_free(p);
  return 0;
}
