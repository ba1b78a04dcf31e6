/* The proptest's only contact with the other modules: the reference
 * evaluator (eval.h), the CHAD macros and simplifier (chad.h) and the
 * printer (surface.h). */
#include <stdlib.h>
#include "pt.h"
#include "chad/eval.h"
#include "chad/chad.h"
#include "chad/surface.h"

static char errbuf[300];

const value *pt_eval(heap *h, int term, const env *e, const char **err) {
  eval_error ee;
  eval_error_clear(&ee);
  const value *v = eval_ref(h, term, e, &ee);
  if (!v) {
    snprintf(errbuf, sizeof errbuf, "%s", ee.msg);
    *err = errbuf;
  }
  return v;
}

const value *pt_apply(heap *h, const value *f, const value *x, const char **err) {
  eval_error ee;
  eval_error_clear(&ee);
  const value *v = eval_apply(h, f, x, &ee);
  if (!v) {
    snprintf(errbuf, sizeof errbuf, "%s", ee.msg);
    *err = errbuf;
  }
  return v;
}

int pt_forward(int t) { return chad_fwd(t); }
int pt_reverse(int t) { return chad_rev(t); }
int pt_simplify(int t) { return chad_simplify(t); }

void pt_print_program(FILE *f, const pt_program *p, int term) {
  const char *names[PT_MAX_PARAMS] = {"x1", "x2", "x3", "x4"};
  (void)p;
  char *s = surf_print_def_named("prog", ctx_length(tm_ctx(term)), names, term);
  if (s) { fputs(s, f); free(s); }
  else fputs("<printer failed>\n", f);
}
