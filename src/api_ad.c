/* libchad's derivative commands (fwd, rev, jvp, vjp, grad, jacobian): the
 * CHAD transformations of include/chad/chad.h, fed and printed as JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "chad/chad.h"
#include "chad/json.h"
#include "chad/kernel.h"
#include "certified/ball.h"

/* CHAD transforms source terms: a def written in the target language (a
 * printed derivative: lfun, <|, <+>, ...) is evaluated, not differentiated
 * again. 0, or an input error naming the def. */
static int source_only(chad_prog *p, const fn_info *fi, chad_diag *d) {
  int n = tm_count, top = 0, found = 0;
  int *stack = malloc((size_t)(n > 0 ? n : 1) * sizeof *stack);
  char *seen = calloc((size_t)(n > 0 ? n : 1), 1);
  if (!stack || !seen) {
    free(stack);
    free(seen);
    return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory");
  }
  if (fi->term >= 0 && fi->term < n) {
    stack[top++] = fi->term;
    seen[fi->term] = 1;
  }
  while (top > 0 && !found) {
    int t = stack[--top];
    if (tm_kind(t) >= TM_ZERO) found = 1;
    int ch[3] = {tm_a(t), tm_b(t), tm_c(t)};
    for (int i = 0; i < 3; i++)
      if (ch[i] >= 0 && ch[i] < n && !seen[ch[i]]) {
        seen[ch[i]] = 1;
        stack[top++] = ch[i];
      }
  }
  free(stack);
  free(seen);
  if (!found) return 0;
  return diag_set(d, CHAD_EXIT_INPUT, p->file, fi->line, 1,
                  "'%s' uses the target language (lfun, <|, <+>, ...): CHAD differentiates source "
                  "programs only; evaluate it with chad eval", fi->name);
}

/* ---- printing the transformed program ------------------------------------ */
static int print_transformed(chad_prog *p, const char *fn, int raw, int rev, char **out,
                             chad_diag *d) {
  int k = chad_fn(p, fn, d);
  if (k < 0) return -k;
  fn_info fi;
  int rc = api_elab(p, k, 0, &fi, d);
  if (!rc) rc = source_only(p, &fi, d);
  if (rc) return rc;
  chad_init();
  int t = rev ? chad_rev(fi.term) : chad_fwd(fi.term);
  if (t >= 0 && !raw) t = chad_simplify(t);
  if (t < 0) {
    diag_set(d, t == CHAD_E_CAPACITY ? CHAD_EXIT_RUNTIME : CHAD_EXIT_INPUT, p->file, fi.line, 1,
             "the %s transformation of '%s' failed (kernel error %d%s)",
             rev ? "reverse" : "forward", fi.name, t,
             t == CHAD_E_CAPACITY ? ": an arena is full"
             : t == CHAD_E_DEPTH  ? ": nesting too deep for the transformation's recursion limit"
                                  : "");
    return d->exit_code;
  }
  /* Its context is P G: the parameters, under their own names. */
  char name[300];
  snprintf(name, sizeof name, "%s_%s", fi.name, rev ? "rev" : "fwd");
  char *s = surf_print_def_named(name, fi.n, fi.names, t);
  if (!s) return api_print_failed(d, p->file, fi.line, rev ? "the reverse derivative" : "the forward derivative");
  *out = s;
  return 0;
}

static int print_fwd_impl(chad_prog *p, const char *fn, int raw, char **out, chad_diag *d) {
  int pre = api_check(p, out, d);
  if (pre) return pre;
  return print_transformed(p, fn, raw, 0, out, d);
}
static int print_rev_impl(chad_prog *p, const char *fn, int raw, char **out, chad_diag *d) {
  int pre = api_check(p, out, d);
  if (pre) return pre;
  return print_transformed(p, fn, raw, 1, out, d);
}

/* ---- values -------------------------------------------------------------- */
/* Hands the buffer to *out, or reports it full. */
static int give_buf(chad_buf *b, char **out, chad_diag *d) {
  if (b->oom || !b->data) {
    buf_free(b);
    return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory writing the output");
  }
  *out = b->data;
  buf_init(b);
  return 0;
}

/* {"value": V, "<key>": ... : writes the common head. */
static int head(chad_buf *b, const fn_info *fi, const value *v, const char *key, chad_diag *d) {
  buf_puts(b, "{\"value\": ");
  cert.in_value = 1;
  int rc = json_write_value(b, fi->result, v, "the value", d);
  cert.in_value = 0;
  buf_printf(b, ", \"%s\": ", key);
  return rc;
}

/* The per-parameter entries of a T G / C G tuple as a JSON array. */
static int write_param_tangents(chad_buf *b, const fn_info *fi, const value *tuple,
                                const value *const *argv, const char *what, chad_diag *d) {
  buf_puts(b, "[");
  for (int i = 0; i < fi->n; i++) {
    if (i) buf_puts(b, ", ");
    const value *ti = chad_ctx_tuple_get(tuple, fi->n, i);
    if (!ti)
      return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "internal: %s has no entry %d", what, i);
    char w[300];
    snprintf(w, sizeof w, "the %s of '%s'", what, fi->names[i] ? fi->names[i] : "?");
    int rc = json_write_tangent(b, fi->tys[i], ti, argv[i], w, d);
    if (rc) return rc;
  }
  buf_puts(b, "]");
  return 0;
}

/* Reads a JSON option into a document (NULL with d set on error). */
static json_doc *doc_of(const chad_json *j, chad_diag *d) {
  return json_doc_parse(j->text, j->len, j->name ? j->name : "<json>", d);
}

static int jvp_impl(chad_prog *p, const char *fn, const chad_json *args, const chad_json *tangent,
             char **out, chad_diag *d) {
  int pre = api_check(p, out, d);
  if (pre) return pre;
  if (api_certified_wanted()) return api_certified(API_JVP, p, fn, args, tangent, 0, out, d);
  fn_info fi;
  heap *h;
  const value *argv[SURF_MAX_PARAMS], *tans[SURF_MAX_PARAMS];
  const env *e;
  chad_buf b;
  buf_init(&b);
  int rc = api_setup(p, fn, args, &fi, &h, argv, &e, d);
  if (!rc) rc = source_only(p, &fi, d);
  if (!rc && (!tangent || !tangent->text))
    rc = diag_set(d, CHAD_EXIT_USAGE, "", 0, 0, "jvp needs --tangent");
  if (!rc) {
    json_doc *doc = doc_of(tangent, d);
    if (!doc) rc = d->exit_code;
    else {
      rc = json_doc_param_tangents(h, doc, fi.n, fi.tys, fi.names, argv, tans, d);
      json_doc_free(doc);
    }
  }
  const value *tuple = NULL, *v = NULL, *dv = NULL;
  if (!rc) {
    tuple = chad_ctx_tuple_make(h, fi.n, tans);
    if (!tuple) rc = diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "heap limit reached");
  }
  if (!rc) {
    chad_init();
    api_values_evaluator();
    rc = chad_jvp_values(h, fi.term, e, tuple, &v, &dv, d);
  }
  if (!rc) rc = head(&b, &fi, v, "tangent", d);
  if (!rc) rc = json_write_tangent(&b, fi.result, dv, v, "the tangent", d);
  if (!rc) {
    buf_puts(&b, "}\n");
    rc = give_buf(&b, out, d);
  }
  if (rc) api_place(p, &fi, d);
  buf_free(&b);
  if (h) heap_free(h);
  return api_rerun_as_written(API_JVP, p, fn, args, tangent, 0, rc, out, d);
}

/* vjp at cotangent ct (already a value) or, when ct is NULL, read from cot. */
static int vjp_common(chad_prog *p, const char *fn, const chad_json *args, const chad_json *cot,
                      int grad, char **out, chad_diag *d) {
  int pre = api_check(p, out, d);
  if (pre) return pre;
  fn_info fi;
  heap *h;
  const value *argv[SURF_MAX_PARAMS];
  const env *e;
  chad_buf b;
  buf_init(&b);
  int rc = api_setup(p, fn, args, &fi, &h, argv, &e, d);
  if (!rc) rc = source_only(p, &fi, d);
  if (!rc && grad && ty_kind(fi.result) != TY_REAL) {
    char *s = surf_print_type(fi.result);
    rc = diag_set(d, CHAD_EXIT_INPUT, p->file, fi.line, 1,
                  "grad needs a real-valued function, but '%s' returns %s (use vjp or jacobian)",
                  fi.name, s ? s : "?");
    free(s);
  }
  if (!rc && !grad && (!cot || !cot->text))
    rc = diag_set(d, CHAD_EXIT_USAGE, "", 0, 0, "vjp needs --cotangent");
  /* The primal result first: it shapes the cotangent (array lengths). */
  const value *primal = NULL, *ct = NULL;
  if (!rc) {
    eval_error err;
    eval_error_clear(&err);
    cert.uncounted = cert.active;   /* the derivative program evaluates the primal again */
    primal = api_eval(h, fi.term, e, &err);
    cert.uncounted = 0;
    if (!primal) rc = api_runtime_error(p, &fi, &err, d);
  }
  if (!rc) {
    if (grad) {
      ct = v_real(h, 1.0);
      if (!ct) rc = diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "heap limit reached");
    } else {
      json_doc *doc = doc_of(cot, d);
      if (!doc) rc = d->exit_code;
      else {
        ct = json_doc_tangent(h, doc, fi.result, primal, "the cotangent", d);
        if (!ct) rc = d->exit_code;
        json_doc_free(doc);
      }
    }
  }
  const value *v = NULL, *g = NULL;
  if (!rc) {
    chad_init();
    api_values_evaluator();
    rc = chad_vjp_values(h, fi.term, e, ct, &v, &g, d);
  }
  if (!rc) rc = head(&b, &fi, v, grad ? "gradient" : "cotangent", d);
  if (!rc) rc = write_param_tangents(&b, &fi, g, argv, grad ? "gradient" : "cotangent", d);
  if (!rc) {
    buf_puts(&b, "}\n");
    rc = give_buf(&b, out, d);
  }
  if (rc) api_place(p, &fi, d);
  buf_free(&b);
  if (h) heap_free(h);
  return rc;
}

static int vjp_impl(chad_prog *p, const char *fn, const chad_json *args, const chad_json *cotangent,
             char **out, chad_diag *d) {
  if (api_certified_wanted()) return api_certified(API_VJP, p, fn, args, cotangent, 0, out, d);
  int rc = vjp_common(p, fn, args, cotangent, 0, out, d);
  return api_rerun_as_written(API_VJP, p, fn, args, cotangent, 0, rc, out, d);
}

static int grad_impl(chad_prog *p, const char *fn, const chad_json *args, char **out, chad_diag *d) {
  if (api_certified_wanted()) return api_certified(API_GRAD, p, fn, args, NULL, 0, out, d);
  int rc = vjp_common(p, fn, args, NULL, 1, out, d);
  return api_rerun_as_written(API_GRAD, p, fn, args, NULL, 0, rc, out, d);
}

static int jacobian_impl(chad_prog *p, const char *fn, const chad_json *args, int reverse,
                  char **out, chad_diag *d) {
  int pre = api_check(p, out, d);
  if (pre) return pre;
  if (api_certified_wanted()) return api_certified(API_JACOBIAN, p, fn, args, NULL, reverse, out, d);
  fn_info fi;
  heap *h;
  const value *argv[SURF_MAX_PARAMS];
  const env *e;
  chad_buf b;
  buf_init(&b);
  int rc = api_setup(p, fn, args, &fi, &h, argv, &e, d);
  if (!rc) rc = source_only(p, &fi, d);
  const value *v = NULL, *jac = NULL;
  if (!rc) {
    chad_init();
    api_values_evaluator();
    rc = chad_jacobian_values(h, fi.term, e, reverse ? CHAD_JAC_REVERSE : CHAD_JAC_FORWARD, &v,
                              &jac, d);
  }
  if (!rc) rc = head(&b, &fi, v, "jacobian", d);
  if (!rc) rc = json_write_value(&b, ty_arr(ty_arr(TY_ID_REAL)), jac, "the jacobian", d);
  if (!rc) {
    buf_puts(&b, "}\n");
    rc = give_buf(&b, out, d);
  }
  if (rc) api_place(p, &fi, d);
  buf_free(&b);
  if (h) heap_free(h);
  return api_rerun_as_written(API_JACOBIAN, p, fn, args, NULL, reverse, rc, out, d);
}

/* ---- the public commands, each on a large stack (api_stack.c) ---------- */
static int print_fwd_run(api_call *c) { return print_fwd_impl(c->p, c->fn, c->flag, c->out, c->d); }
int chad_print_fwd(chad_prog *p, const char *fn, int raw, char **out, chad_diag *d) {
  api_call c = {print_fwd_run, p, fn, NULL, NULL, raw, out, d, 0};
  return api_deep(&c);
}
static int print_rev_run(api_call *c) { return print_rev_impl(c->p, c->fn, c->flag, c->out, c->d); }
int chad_print_rev(chad_prog *p, const char *fn, int raw, char **out, chad_diag *d) {
  api_call c = {print_rev_run, p, fn, NULL, NULL, raw, out, d, 0};
  return api_deep(&c);
}
static int jvp_run(api_call *c) { return jvp_impl(c->p, c->fn, c->a, c->b, c->out, c->d); }
int chad_jvp(chad_prog *p, const char *fn, const chad_json *args, const chad_json *tangent,
             char **out, chad_diag *d) {
  api_call c = {jvp_run, p, fn, args, tangent, 0, out, d, 0};
  return api_deep(&c);
}
static int vjp_run(api_call *c) { return vjp_impl(c->p, c->fn, c->a, c->b, c->out, c->d); }
int chad_vjp(chad_prog *p, const char *fn, const chad_json *args, const chad_json *cotangent,
             char **out, chad_diag *d) {
  api_call c = {vjp_run, p, fn, args, cotangent, 0, out, d, 0};
  return api_deep(&c);
}
static int grad_run(api_call *c) { return grad_impl(c->p, c->fn, c->a, c->out, c->d); }
int chad_grad(chad_prog *p, const char *fn, const chad_json *args, char **out, chad_diag *d) {
  api_call c = {grad_run, p, fn, args, NULL, 0, out, d, 0};
  return api_deep(&c);
}
static int jacobian_run(api_call *c) { return jacobian_impl(c->p, c->fn, c->a, c->flag, c->out, c->d); }
int chad_jacobian(chad_prog *p, const char *fn, const chad_json *args, int reverse,
                  char **out, chad_diag *d) {
  api_call c = {jacobian_run, p, fn, args, NULL, reverse, out, d, 0};
  return api_deep(&c);
}
