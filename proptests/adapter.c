/* The proptest's only contact with the other modules: the reference
 * evaluator (eval.h), the CHAD macros and simplifier (chad.h) and the
 * printer (surface.h). */
#include <stdlib.h>
#include "pt.h"
#include "chad/eval.h"
#include "chad/chad.h"
#include "chad/fast.h"
#if defined(__has_include)
#if __has_include("chad/surface.h")
#include "chad/surface.h"
#define PT_HAVE_SURFACE 1
#endif
#endif

static char errbuf[600];

/* Which evaluator pt_eval and pt_apply use: the reference one, or the fast
 * one (the property "the two evaluators agree"). */
int pt_use_fast;

const value *pt_eval(heap *h, int term, const env *e, const char **err) {
  eval_error ee;
  eval_error_clear(&ee);
  const value *v = pt_use_fast ? eval_fast(h, term, e, &ee) : eval_ref(h, term, e, &ee);
  if (!v) {
    snprintf(errbuf, sizeof errbuf, "%s", ee.msg);
    *err = errbuf;
  }
  return v;
}

const value *pt_apply(heap *h, const value *f, const value *x, const char **err) {
  eval_error ee;
  eval_error_clear(&ee);
  const value *v = pt_use_fast ? eval_fast_apply(h, f, x, &ee) : eval_apply(h, f, x, &ee);
  if (!v) {
    snprintf(errbuf, sizeof errbuf, "%s", ee.msg);
    *err = errbuf;
  }
  return v;
}

/* The value-level API the command line uses (jvp, vjp): a second path to
 * the same derivatives, checked against the same finite differences. */
const value *pt_jvp_values(heap *h, int t, const env *e, const value *tan, const char **err) {
  const value *y, *dy;
  chad_diag d;
  if (chad_jvp_values(h, t, e, tan, &y, &dy, &d) != 0) {
    snprintf(errbuf, sizeof errbuf, "%s", d.msg);
    *err = errbuf;
    return NULL;
  }
  return dy;
}

const value *pt_vjp_values(heap *h, int t, const env *e, const value *cot, const char **err) {
  const value *y, *g;
  chad_diag d;
  if (chad_vjp_values(h, t, e, cot, &y, &g, &d) != 0) {
    snprintf(errbuf, sizeof errbuf, "%s", d.msg);
    *err = errbuf;
    return NULL;
  }
  return g;
}

/* The entries of a V_SPARSE through entry_iter: v_plus joins two long
 * entry lists by ENTRY_SPLICE entries that stand for a whole sublist
 * (chad/eval.h), so the list must not be walked by `next` alone. */
int pt_sparse_each(const value *s, int (*fn)(void *cx, int64_t index, const value *v), void *cx) {
  if (!s || s->kind != V_SPARSE) return -1;
  entry_iter it;
  entry_iter_init(&it, s);
  const entry *e;
  int r = 0;
  while (r == 0 && (e = entry_iter_next(&it))) r = fn(cx, e->index, e->v);
  if (r == 0 && it.oom) r = -1;
  entry_iter_done(&it);
  return r;
}

int pt_forward(int t) { return chad_fwd(t); }
int pt_reverse(int t) { return chad_rev(t); }
int pt_simplify(int t) { return chad_simplify(t); }

/* Fallback when the surface printer is absent: a de Bruijn s-expression. */
static void sexp(FILE *f, int t) {
  static const char *kn[] = {"var", "let", "lam", "app", "unit", "pair", "fst", "snd", "inl", "inr",
                             "case", "rconst", "iconst", "op", "iter", "loop", "build", "index", "length", "map", "sum"};
  int k = tm_kind(t);
  if (k == TM_VAR) { fprintf(f, "#%lld", (long long)tm_aux(t)); return; }
  if (k == TM_RCONST) { fprintf(f, "%.17g", tm_rval(t)); return; }
  if (k == TM_ICONST) { fprintf(f, "%lldi", (long long)tm_aux(t)); return; }
  if (k == TM_UNIT) { fputs("()", f); return; }
  fprintf(f, "(%s", k < TM_ZERO ? kn[k] : "?");
  if (k == TM_OP) fprintf(f, " %s", prim_name((int)tm_aux(t)));
  int ks[3] = {tm_a(t), tm_b(t), tm_c(t)};
  for (int i = 0; i < 3; i++)
    if (ks[i] >= 0) { fputc(' ', f); sexp(f, ks[i]); }
  fputc(')', f);
}

void pt_print_program(FILE *f, const pt_program *p, int term) {
  (void)p;
#ifdef PT_HAVE_SURFACE
  const char *names[PT_MAX_PARAMS] = {"x1", "x2", "x3", "x4"};
  char *s = surf_print_def_named("prog", ctx_length(tm_ctx(term)), names, term);
  if (s) { fputs(s, f); free(s); return; }
#endif
  fputs("    ", f);
  sexp(f, term);
  fputs("\n", f);
}

/* Prints term as a def, parses it back and elaborates it: the reproduction
 * files of failures must mean the program that failed. Returns the new
 * term (in context *ctx), or -1 with a message. */
int pt_roundtrip(int term, int *ctx, char *why, size_t n) {
#ifdef PT_HAVE_SURFACE
  const char *names[PT_MAX_PARAMS] = {"x1", "x2", "x3", "x4"};
  char *src = surf_print_def_named("prog", ctx_length(tm_ctx(term)), names, term);
  if (!src) { snprintf(why, n, "printer failed"); return -1; }
  chad_diag d;
  surf_program *p = surf_parse_string(src, "<printed>", &d);
  if (!p) { snprintf(why, n, "printed program does not parse: %d:%d: %s", d.line, d.col, d.msg); free(src); return -1; }
  int t = -1;
  if (surf_elab_def(p, surf_def_count(p) - 1, &t, ctx, &d) != CHAD_EXIT_OK) {
    snprintf(why, n, "printed program does not type check: %d:%d: %s", d.line, d.col, d.msg);
    t = -1;
  }
  surf_free(p);
  free(src);
  return t;
#else
  (void)term; (void)ctx;
  snprintf(why, n, "no surface printer");
  return -1;
#endif
}

/* Parses src and elaborates its last def (inline: with SURF_ELAB_INLINE,
 * and then it must have inlined; else as written): the sugar family's
 * programs. The term (context in *ctx), or -1 with the positioned message
 * in why. */
int pt_elab_text(const char *src, int inline_calls, int *ctx, char *why, size_t n) {
#ifdef PT_HAVE_SURFACE
  chad_diag d;
  surf_program *p = surf_parse_string(src, "<generated>", &d);
  if (!p) { snprintf(why, n, "does not parse: %d:%d: %s", d.line, d.col, d.msg); return -1; }
  int t = -1;
  if (surf_elab_def_opts(p, surf_def_count(p) - 1, inline_calls ? SURF_ELAB_INLINE : 0, &t, ctx, &d) !=
      CHAD_EXIT_OK) {
    snprintf(why, n, "does not elaborate: %d:%d: %s", d.line, d.col, d.msg);
    t = -1;
  } else if (inline_calls && !surf_elab_inlined()) {
    snprintf(why, n, "was not inlined");
    t = -1;
  }
  surf_free(p);
  return t;
#else
  (void)src; (void)ctx; (void)inline_calls;
  snprintf(why, n, "no surface front end");
  return -1;
#endif
}
