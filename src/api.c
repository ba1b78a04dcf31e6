/* libchad's public API (include/chad.h): glue between the surface language,
 * the kernel, the reference evaluator, CHAD and typed JSON. */
#include "chad.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "chad/chad.h"
#include "chad/eval.h"
#include "chad/fast.h"
#include "chad/json.h"
#include "chad/kernel.h"
#include "chad/primitives.h"
#include "chad/surface.h"
#include "certified/ball.h"
#include "certified/certify.h"

static size_t heap_limit = (size_t)1 << 30;
static chad_evaluator evaluator = CHAD_EVAL_FAST;

void chad_set_heap_limit(size_t bytes) {
  if (bytes > CHAD_MAX_HEAP_LIMIT) bytes = CHAD_MAX_HEAP_LIMIT;
  heap_limit = bytes;
  json_set_mem_limit(bytes);   /* jansson's memory reading JSON, too */
}
size_t api_heap_limit(void) { return heap_limit; }

_Static_assert(CHAD_MAX_DEPTH_CAP == EVAL_MAX_DEPTH_CAP, "one cap of the nesting limit");
void chad_set_max_depth(int levels) { eval_set_max_depth(levels); }

chad_json chad_json_text(const char *text, const char *name) {
  chad_json j = {text, text ? strlen(text) : 0, name};
  return j;
}

char *chad_read_file(const char *path, size_t *len, chad_diag *d) {
  if (!d) return NULL;
  if (!path || !len) {
    diag_set(d, CHAD_EXIT_USAGE, "", 0, 0, "libchad: chad_read_file: %s is NULL",
             !path ? "path" : "len");
    return NULL;
  }
  char *s = diag_read_file(path, 1, CHAD_MAX_JSON_BYTES, len, d);
  if (!s && d->exit_code == CHAD_EXIT_INPUT && d->line > 0)
    snprintf(d->msg, sizeof d->msg, "too large: more than %zu bytes (the limit of a JSON input)",
             CHAD_MAX_JSON_BYTES);
  return s;
}

/* ---- programs ----------------------------------------------------------- */
static int arenas_reset(chad_diag *d) {
  ty_init();
  ctx_init();
  tm_init();
  raw_init();
  op_init();
  if (prims_init() < 0)
    return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "internal: primitive table did not register");
  return 0;
}

/* The programs loaded and not yet freed: chad_free of anything else (a
 * second chad_free) does nothing, and the commands refuse it. */
static chad_prog *live;

static int is_live(const chad_prog *p) {
  for (const chad_prog *q = live; q; q = q->next)
    if (q == p) return 1;
  return 0;
}

static chad_prog *prog_new(surf_program *sp, const char *name) {
  chad_prog *p = calloc(1, sizeof *p);
  if (!p) { surf_free(sp); return NULL; }
  p->sp = sp;
  p->inline_defs = CHAD_INLINE_DEFAULT;
  snprintf(p->file, sizeof p->file, "%s", name);
  p->next = live;
  live = p;
  return p;
}

int api_check(const chad_prog *p, char **out, chad_diag *d) {
  if (!d) return CHAD_EXIT_USAGE;   /* nowhere to say more */
  if (out) *out = NULL;
  if (!p) return diag_set(d, CHAD_EXIT_USAGE, "", 0, 0, "libchad: the program is NULL");
  if (!is_live(p))
    return diag_set(d, CHAD_EXIT_USAGE, "", 0, 0, "libchad: the program was freed (chad_free)");
  if (!out) return diag_set(d, CHAD_EXIT_USAGE, "", 0, 0, "libchad: out is NULL");
  /* Each command elaborates what it needs anew: it starts from empty kernel
   * arenas, so that commands repeated on one program do not fill them, and
   * a program loaded before another one stays usable. */
  return arenas_reset(d);
}

chad_prog *chad_load_file(const char *path, chad_diag *d) {
  if (!d) return NULL;
  if (!path) {
    diag_set(d, CHAD_EXIT_USAGE, "", 0, 0, "libchad: chad_load_file: path is NULL");
    return NULL;
  }
  if (arenas_reset(d)) return NULL;
  surf_program *sp = surf_parse_file(path, d);
  if (!sp) return NULL;
  chad_prog *p = prog_new(sp, path);
  if (!p) diag_set(d, CHAD_EXIT_RUNTIME, path, 0, 0, "out of memory");
  return p;
}

chad_prog *chad_load_string(const char *src, size_t len, const char *name, chad_diag *d) {
  if (!d) return NULL;
  if (!src) {
    diag_set(d, CHAD_EXIT_USAGE, "", 0, 0, "libchad: chad_load_string: src is NULL");
    return NULL;
  }
  if (!name) name = "<string>";
  if (arenas_reset(d)) return NULL;
  surf_program *sp = surf_parse_buffer(src, len, name, d);
  if (!sp) return NULL;
  chad_prog *p = prog_new(sp, name);
  if (!p) diag_set(d, CHAD_EXIT_RUNTIME, name, 0, 0, "out of memory");
  return p;
}

void chad_set_inline(chad_prog *p, int mode) {
  if (p && is_live(p))
    p->inline_defs = mode == CHAD_INLINE_DEFAULT ? CHAD_INLINE_DEFAULT
                     : mode != CHAD_INLINE_NEVER ? CHAD_INLINE_ALWAYS : CHAD_INLINE_NEVER;
}

void chad_free(chad_prog *p) {
  chad_prog **q = &live;
  while (*q && *q != p) q = &(*q)->next;
  if (!p || !*q) return;   /* NULL, or not a live program: nothing to do */
  *q = p->next;
  surf_free(p->sp);
  free(p);
}

int chad_fn(const chad_prog *p, const char *fn, chad_diag *d) {
  if (!d) return -CHAD_EXIT_USAGE;
  if (!p || !is_live(p)) {
    diag_set(d, CHAD_EXIT_USAGE, "", 0, 0, "libchad: the program %s",
             p ? "was freed (chad_free)" : "is NULL");
    return -CHAD_EXIT_USAGE;
  }
  int n = surf_def_count(p->sp);
  if (!fn) {
    if (n == 0) {
      diag_set(d, CHAD_EXIT_INPUT, p->file, 1, 1, "the file has no definitions");
      return -CHAD_EXIT_INPUT;
    }
    return n - 1;
  }
  int k = surf_def_find(p->sp, fn);
  if (k < 0) {
    diag_set(d, CHAD_EXIT_USAGE, p->file, 0, 0, "--fn %s: no definition named '%s' in %s", fn, fn, p->file);
    return -CHAD_EXIT_USAGE;
  }
  return k;
}

/* A malloc'd copy of the buffer's text for *out. */
static int give(chad_buf *b, char **out, chad_diag *d) {
  if (b->oom) {
    buf_free(b);
    return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory writing the output");
  }
  if (!b->data) buf_puts(b, "");
  if (b->oom || !b->data) {
    buf_free(b);
    return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory writing the output");
  }
  *out = b->data;   /* ownership passes to the caller */
  buf_init(b);
  return 0;
}

/* A printer's NULL as a diagnostic: a term or type past the printer's
 * depth limit, else out of memory. */
int api_print_failed(chad_diag *d, const char *file, int line, const char *what) {
  if (surf_print_too_deep())
    return diag_set(d, CHAD_EXIT_RUNTIME, file, line, 1,
                    "%s nests deeper than the printer's limit (4000 term levels, 5000 type levels)", what);
  return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory printing %s", what);
}

/* Elaborates def k and fills a fn_info (term, parameter names and types). */
int api_elab(chad_prog *p, int k, int evaluating, fn_info *fi, chad_diag *d) {
  memset(fi, 0, sizeof *fi);
  /* Each command starts from empty arenas: the program lives in its
   * surface form (p->sp), and the terms of an earlier command are garbage,
   * so repeated commands (the certified evaluator's reruns, a binding's
   * calls) never fill the arenas. */
  int rc0 = arenas_reset(d);
  if (rc0) return rc0;
  fi->k = k;
  fi->name = surf_def_name(p->sp, k);
  fi->line = surf_def_line(p->sp, k);
  fi->n = surf_def_nparams(p->sp, k);
  if (fi->n < 0 || fi->n > SURF_MAX_PARAMS)
    return diag_set(d, CHAD_EXIT_INPUT, p->file, fi->line, 1, "too many parameters");
  /* CHAD_INLINE_DEFAULT: a command that evaluates inlines (same numbers,
   * no copowers: far less time and memory), falling back to the program as
   * written past the inlining limits; one that prints shows it as written. */
  unsigned flags = p->inline_defs == CHAD_INLINE_ALWAYS ? SURF_ELAB_INLINE
                   : p->inline_defs == CHAD_INLINE_DEFAULT && evaluating
                       ? SURF_ELAB_INLINE | SURF_ELAB_INLINE_FALLBACK
                       : 0u;
  int rc = surf_elab_def_opts(p->sp, k, flags, &fi->term, &fi->ctx, d);
  if (rc) return rc;
  for (int i = 0; i < fi->n; i++) {
    fi->names[i] = surf_def_param_name(p->sp, k, i);
    fi->tys[i] = surf_def_param_type(p->sp, k, i);
    if (fi->tys[i] < 0)
      return diag_set(d, CHAD_EXIT_INPUT, p->file, fi->line, 1,
                      "the type of parameter '%s' cannot be built (kernel error %d)",
                      fi->names[i] ? fi->names[i] : "?", fi->tys[i]);
  }
  fi->result = tm_type(fi->term);
  return 0;
}

/* The type of def k's value: its curried parameters, then its result. */
static int def_value_type(chad_prog *p, int k, int result, chad_diag *d) {
  int ty = result;
  for (int i = surf_def_nparams(p->sp, k) - 1; i >= 0 && ty >= 0; i--) {
    int pt = surf_def_param_type(p->sp, k, i);
    ty = pt < 0 ? pt : ty_fun(pt, ty);
  }
  if (ty < 0)
    return diag_set(d, CHAD_EXIT_INPUT, p->file, surf_def_line(p->sp, k), 1, "type table full"), -1;
  return ty;
}

/* Every def's type in one pass, each def's body elaborated once with the
 * defs it uses as typed variables (surf_elab_def_sig): linear in the
 * program. 1 when a def has target syntax (then check_impl elaborates
 * each def whole, with the defs it uses, as the other commands do), else
 * 0 or the exit code of an error. */
static int check_sigs(chad_prog *p, chad_buf *b, chad_diag *d) {
  int n = surf_def_count(p->sp);
  int *def_ty = malloc(((size_t)n + 1) * sizeof *def_ty);
  if (!def_ty) return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory");
  int rc = 0;
  for (int k = 0; k < n && !rc; k++) {
    int term, ctx;
    /* A def's terms are garbage once its type is known; the types and
     * contexts (def_ty among them) stay. */
    tm_init();
    rc = surf_elab_def_sig(p->sp, k, def_ty, &term, &ctx, d);
    if (rc == -1) { rc = 1; break; }
    if (rc) break;
    if ((def_ty[k] = def_value_type(p, k, tm_type(term), d)) < 0) { rc = d->exit_code; break; }
    char *s = surf_print_type(def_ty[k]);
    if (!s) { rc = api_print_failed(d, p->file, surf_def_line(p->sp, k), "the definition's type"); break; }
    buf_printf(b, "%s : %s\n", surf_def_name(p->sp, k), s);
    free(s);
  }
  free(def_ty);
  return rc;
}

static int check_impl(chad_prog *p, char **out, chad_diag *d) {
  int pre = api_check(p, out, d);
  if (pre) return pre;
  chad_buf b;
  buf_init(&b);
  /* --inline asks that each def's inlined elaboration be checked too */
  int sig = p->inline_defs == CHAD_INLINE_ALWAYS ? 1 : check_sigs(p, &b, d);
  if (sig == 0) return give(&b, out, d);
  buf_free(&b);
  if (sig != 1) return sig;
  buf_init(&b);
  diag_set(d, CHAD_EXIT_OK, "", 0, 0, "%s", "");
  int n = surf_def_count(p->sp);
  for (int k = 0; k < n; k++) {
    fn_info fi;
    int rc = api_elab(p, k, 1, &fi, d);
    if (rc) { buf_free(&b); return rc; }
    /* The definition's type: its curried parameters, then its result. */
    int ty = fi.result;
    for (int i = fi.n - 1; i >= 0 && ty >= 0; i--) ty = ty_fun(fi.tys[i], ty);
    if (ty < 0) {
      buf_free(&b);
      return diag_set(d, CHAD_EXIT_INPUT, p->file, fi.line, 1, "type table full");
    }
    char *s = surf_print_type(ty);
    if (!s) { buf_free(&b); return api_print_failed(d, p->file, fi.line, "the definition's type"); }
    buf_printf(&b, "%s : %s\n", fi.name, s);
    free(s);
  }
  return give(&b, out, d);
}

static int print_impl(chad_prog *p, const char *fn, char **out, chad_diag *d) {
  int pre = api_check(p, out, d);
  if (pre) return pre;
  chad_buf b;
  buf_init(&b);
  int first = 0, last = surf_def_count(p->sp) - 1;
  if (fn) {
    first = last = chad_fn(p, fn, d);
    if (first < 0) return -first;
  }
  for (int k = first; k <= last; k++) {
    fn_info fi;
    int rc = api_elab(p, k, 0, &fi, d);
    if (rc) { buf_free(&b); return rc; }
    char *s = surf_print_def(p->sp, k, fi.term);
    if (!s) { buf_free(&b); return api_print_failed(d, p->file, fi.line, "the elaborated definition"); }
    if (k > first) buf_puts(&b, "\n");
    buf_puts(&b, s);
    free(s);
  }
  return give(&b, out, d);
}

/* ---- evaluation --------------------------------------------------------- */
void chad_set_evaluator(chad_evaluator ev) {
  evaluator = ev == CHAD_EVAL_REF || ev == CHAD_EVAL_BALL ? ev : CHAD_EVAL_FAST;
}
void chad_set_max_prec(long bits) {
  certify_set_max_prec(bits > CHAD_MAX_PREC_CAP ? CHAD_MAX_PREC_CAP : bits);   /* and at least 64 */
}
static int certificate_on = 0;
void chad_set_certificate(int on) {
  certificate_on = on != 0;
  certify_set_certificate(on);
}
chad_evaluator api_evaluator(void) { return evaluator; }
int api_certificate(void) { return certificate_on; }

/* Ball mode runs on the reference evaluator. */
const value *api_eval(heap *h, int term, const env *e, eval_error *err) {
  return evaluator == CHAD_EVAL_FAST && !cert.active ? eval_fast(h, term, e, err)
                                                     : eval_ref(h, term, e, err);
}

void api_values_evaluator(void) { chad_values_use_fast(evaluator == CHAD_EVAL_FAST && !cert.active); }

/* ---- certified commands ------------------------------------------------------ */
typedef struct cert_ctx {
  int kind;
  chad_prog *p;
  const char *fn;
  const chad_json *args, *extra;
  int reverse;
} cert_ctx;

static int cert_cmd_run(void *c, char **out, chad_diag *d) {
  cert_ctx *x = c;
  switch (x->kind) {
  case API_EVAL: return chad_eval(x->p, x->fn, x->args, out, d);
  case API_JVP: return chad_jvp(x->p, x->fn, x->args, x->extra, out, d);
  case API_VJP: return chad_vjp(x->p, x->fn, x->args, x->extra, out, d);
  case API_GRAD: return chad_grad(x->p, x->fn, x->args, out, d);
  default: return chad_jacobian(x->p, x->fn, x->args, x->reverse, out, d);
  }
}

int api_rerun_as_written(int kind, chad_prog *p, const char *fn, const chad_json *args,
                         const chad_json *extra, int reverse, int rc, char **out, chad_diag *d) {
  /* misuse (NULL or freed arguments) was reported by the command itself */
  if (rc == CHAD_EXIT_OK || !d || !out || !p || !is_live(p) ||
      p->inline_defs != CHAD_INLINE_DEFAULT || !surf_elab_inlined() ||
      (!strstr(d->msg, "arena is full") && !strstr(d->msg, "too deep")))
    return rc;
  free(*out);
  *out = NULL;
  cert_ctx x = {kind, p, fn, args, extra, reverse};
  p->inline_defs = CHAD_INLINE_NEVER;
  rc = cert_cmd_run(&x, out, d);
  p->inline_defs = CHAD_INLINE_DEFAULT;
  return rc;
}

static int cert_cmd_lookup(void *c, char **out, chad_diag *d) {
  cert_ctx *x = c;
  return chad_eval(x->p, x->fn, x->args, out, d);
}

static int cert_cmd_position(void *c, int term, int *line, int *col) {
  (void)c;
  return surf_term_position(term, line, col);
}

int api_certified_wanted(void) { return evaluator == CHAD_EVAL_BALL && !cert.active; }

int api_certified(int kind, chad_prog *p, const char *fn, const chad_json *args,
                  const chad_json *extra, int reverse, char **out, chad_diag *d) {
  cert_ctx x = {kind, p, fn, args, extra, reverse};
  certify_cmd cmd = {cert_cmd_run, cert_cmd_lookup, cert_cmd_position, &x, p->file,
                     kind != API_EVAL, kind == API_EVAL, 0};
  *out = NULL;
  int rc = certify_run(&cmd, out, d);
  if (rc && rc != CHAD_EXIT_NONDIFF && rc != CHAD_EXIT_UNDECIDED) {
    free(*out);
    *out = NULL;
  }
  if (rc) {
    int k = chad_fn(p, fn, d) ;
    (void)k;
  }
  return rc;
}

/* At the failing expression when the evaluator names a term of the program
 * (eval, and the primal of the derivative commands), else at the definition. */
int api_runtime_error(chad_prog *p, const fn_info *fi, const eval_error *err, chad_diag *d) {
  int line = fi->line, col = 1;
  if (surf_term_position(err->term, &line, &col) != 0) {
    line = fi->line;
    col = 1;
  }
  return diag_set(d, CHAD_EXIT_RUNTIME, p->file, line, col, "runtime error in '%s': %s",
                  fi->name, err->msg[0] ? err->msg : "evaluation failed");
}

void api_place(chad_prog *p, const fn_info *fi, chad_diag *d) {
  if (d->file[0]) return;
  snprintf(d->file, sizeof d->file, "%s", p->file);
  d->line = fi->line > 0 ? fi->line : 1;
  d->col = 1;
}

int api_heap(heap **h, chad_diag *d) {
  *h = heap_new(heap_limit);
  if (!*h || (cert.active && heap_enable_balls(*h) < 0))
    return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory creating the heap");
  return 0;
}

/* Every parameter and the result must have a JSON form. */
static int check_json_types(chad_prog *p, const fn_info *fi, chad_diag *d) {
  for (int i = 0; i < fi->n; i++)
    if (!json_type_ok(fi->tys[i])) {
      char *s = surf_print_type(fi->tys[i]);
      diag_set(d, CHAD_EXIT_INPUT, p->file, fi->line, 1,
               "parameter '%s' of '%s' has type %s, which has no JSON form (functions cannot be "
               "given as arguments)", fi->names[i] ? fi->names[i] : "?", fi->name, s ? s : "?");
      free(s);
      return CHAD_EXIT_INPUT;
    }
  if (!json_type_ok(fi->result)) {
    char *s = surf_print_type(fi->result);
    diag_set(d, CHAD_EXIT_INPUT, p->file, fi->line, 1,
             "the result of '%s' has type %s, which has no JSON form (a function cannot be "
             "printed: apply it inside the program)", fi->name, s ? s : "?");
    free(s);
    return CHAD_EXIT_INPUT;
  }
  return 0;
}

int api_setup(chad_prog *p, const char *fn, const chad_json *args, fn_info *fi, heap **h,
              const value **argv, const env **e, chad_diag *d) {
  *h = NULL;
  memset(fi, 0, sizeof *fi);
  int k = chad_fn(p, fn, d);
  if (k < 0) return -k;
  int rc = api_elab(p, k, 1, fi, d);
  if (!rc) rc = check_json_types(p, fi, d);
  if (rc) return rc;
  if (fi->n > 0 && (!args || !args->text))
    return diag_set(d, CHAD_EXIT_USAGE, "", 0, 0, "--args: '%s' takes %d parameter%s: give them with --args",
                    fi->name, fi->n, fi->n == 1 ? "" : "s");
  if ((rc = api_heap(h, d))) return rc;
  if (args && args->text) {
    json_doc *doc = json_doc_parse(args->text, args->len, args->name ? args->name : "<args>", d);
    if (!doc) return d->exit_code;
    rc = json_doc_params(*h, doc, fi->n, fi->tys, fi->names, argv, d);
    json_doc_free(doc);
    if (rc) return rc;
    /* a tangent run of the certified driver: the inputs carry unit tangents */
    if (cert.active && cert.tan_n && ball_seed_args(*h, fi->n, argv))
      return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "heap limit reached");
  }
  /* The def's context lists x1 outermost, so x1 is pushed first. */
  *e = NULL;
  for (int i = 0; i < fi->n; i++) {
    *e = env_push(*h, *e, argv[i]);
    if (!*e) return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "heap limit reached");
  }
  return 0;
}

static int eval_impl(chad_prog *p, const char *fn, const chad_json *args, char **out, chad_diag *d) {
  int pre = api_check(p, out, d);
  if (pre) return pre;
  if (api_certified_wanted()) return api_certified(API_EVAL, p, fn, args, NULL, 0, out, d);
  fn_info fi;
  heap *h;
  const value *argv[SURF_MAX_PARAMS];
  const env *e;
  int rc = api_setup(p, fn, args, &fi, &h, argv, &e, d);
  if (rc == CHAD_EXIT_RUNTIME) api_place(p, &fi, d);   /* the heap limit, at the def */
  if (!rc) {
    eval_error err;
    eval_error_clear(&err);
    const value *v = api_eval(h, fi.term, e, &err);
    if (!v) rc = api_runtime_error(p, &fi, &err, d);
    else {
      chad_buf b;
      buf_init(&b);
      cert.in_value = 1;
      rc = json_write_value(&b, fi.result, v, "the result", d);
      cert.in_value = 0;
      if (rc) api_place(p, &fi, d);
      buf_puts(&b, "\n");
      if (!rc) rc = give(&b, out, d);
      buf_free(&b);
    }
  }
  if (h) heap_free(h);
  return api_rerun_as_written(API_EVAL, p, fn, args, NULL, 0, rc, out, d);
}

/* ---- the public commands, each on a large stack (api_stack.c) ---------- */
static int check_run(api_call *c) { return check_impl(c->p, c->out, c->d); }
int chad_check(chad_prog *p, char **out, chad_diag *d) {
  api_call c = {check_run, p, NULL, NULL, NULL, 0, out, d, 0};
  return api_deep(&c);
}
static int print_run(api_call *c) { return print_impl(c->p, c->fn, c->out, c->d); }
int chad_print(chad_prog *p, const char *fn, char **out, chad_diag *d) {
  api_call c = {print_run, p, fn, NULL, NULL, 0, out, d, 0};
  return api_deep(&c);
}
static int eval_run(api_call *c) { return eval_impl(c->p, c->fn, c->a, c->out, c->d); }
int chad_eval(chad_prog *p, const char *fn, const chad_json *args, char **out, chad_diag *d) {
  api_call c = {eval_run, p, fn, args, NULL, 0, out, d, 0};
  return api_deep(&c);
}
