/* libFuzzer harness for the derivative commands on generated programs.
 *
 * The property tests' generator (proptests/gen.c: well-typed, sized source
 * programs built with the kernel's constructors) draws its choices from
 * the fuzzer's bytes (fuzz/deriv/bytes_prng.h), so libFuzzer steers the
 * program's structure and reaches deep and large programs. Each program is
 * printed as source, loaded with libchad (include/chad.h) like any user's
 * file, and run through eval (fast and ref), fwd, rev, jvp, vjp, grad and
 * jacobian (both modes), with arguments, tangent and cotangent drawn from
 * the same bytes. Properties beyond "no crash, no leak, no UB": the printed
 * program loads and type checks; every command ends with 0 or a placed
 * runtime error (3), never 1 or 2 (the inputs are well formed); eval's fast
 * and ref results agree, and the forward and reverse Jacobians agree, to
 * 1e-6 relative to the largest entry. Run with `make fuzz-deriv`. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad.h"
#include "chad/json.h"
#include "chad/kernel.h"
#include "chad/primitives.h"
#include "chad/surface.h"
#include "pt.h"

/* A JSON value of type ty (arrays of length len), numbers from r. */
static void json_of(chad_buf *b, prng *r, int ty, int len, int tangent) {
  switch (ty_kind(ty)) {
  case TY_REAL: buf_printf(b, "%.17g", prng_range(r, -2.0, 2.0)); return;
  case TY_INT: buf_puts(b, tangent ? "null" : "1"); return;
  case TY_UNIT: buf_puts(b, "null"); return;
  case TY_PROD:
    buf_puts(b, "[");
    json_of(b, r, ty_left(ty), len, tangent);
    buf_puts(b, ", ");
    json_of(b, r, ty_right(ty), len, tangent);
    buf_puts(b, "]");
    return;
  case TY_ARR:
    buf_puts(b, "[");
    for (int i = 0; i < len; i++) {
      if (i) buf_puts(b, ", ");
      json_of(b, r, ty_left(ty), len, tangent);
    }
    buf_puts(b, "]");
    return;
  default: buf_puts(b, "null"); return;
  }
}

static void fail(const char *what, const char *src, const chad_diag *d, const char *more) {
  fprintf(stderr, "%s: exit %d: %s:%d:%d: %s\n%s\nprogram:\n%s\n", what, d->exit_code, d->file,
          d->line, d->col, d->msg, more ? more : "", src);
  abort();
}

/* 0, or a runtime error with a place: anything else is a finding. */
static int show = -1; /* FUZZ_DERIV_SHOW=1: print each program and exit code */

static void expect_ok_or_runtime(int rc, const char *out, const chad_diag *d, const char *what,
                                 const char *src) {
  if (show) fprintf(stderr, "  %s: %d%s%s\n", what, rc, rc ? ": " : "", rc ? d->msg : "");
  if (rc == 0 && out) return;
  if (rc == CHAD_EXIT_RUNTIME && d->file[0] && d->line >= 1) return;
  fail(what, src, d, NULL);
}

/* The numbers of a JSON text, in order (at most cap). */
static int numbers(const char *s, double *x, int cap) {
  int n = 0;
  while (*s && n < cap) {
    if ((*s >= '0' && *s <= '9') || *s == '-') {
      char *e;
      x[n++] = strtod(s, &e);
      s = e;
    } else {
      s++;
    }
  }
  return n;
}

/* Two JSON outputs of the same shape agree to 1e-6 relative to their
 * largest number. */
static int agree(const char *a, const char *b) {
  static double x[4096], y[4096];
  int n = numbers(a, x, 4096), m = numbers(b, y, 4096);
  if (n != m) return 0;
  double big = 1.0;
  for (int i = 0; i < n; i++) big = fmax(big, fmax(fabs(x[i]), fabs(y[i])));
  for (int i = 0; i < n; i++)
    if (!(fabs(x[i] - y[i]) <= 1e-6 * big)) return 0;
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int init;
  if (!init) {
    init = 1;
    chad_set_heap_limit((size_t)64 << 20);
  }
  if (size < 2) return 0;
  /* the kernel's arenas, as chad_load_* leaves them, for the generator */
  ty_init();
  ctx_init();
  tm_init();
  raw_init();
  op_init();
  if (prims_init() < 0) abort();
  pt_types_init();
  /* the stream's seed is the first byte only (the size), not a hash of the
   * whole input: a mutation of byte k changes draw k alone (what the later
   * draws decide can still change with the structure above them) */
  prng r = {data[0], data + 1, size - 1, 0};
  pt_program pg;
  /* mostly small programs (4..99 nodes, where most bugs show and inputs
   * run fast); the top 32 values of the first byte ask for large ones
   * (100..410 nodes: deeper terms, longer chains; within the per-input time bound) */
  int size_nodes = data[0] < 224 ? 4 + data[0] % 96 : 100 + (data[0] - 224) * 10;
  if (pt_gen_program(&r, size_nodes, &pg) < 0) return 0; /* an arena full: not this harness's */
  const char *names[PT_MAX_PARAMS] = {"x1", "x2", "x3", "x4"};
  char *src = surf_print_def_named("f", pg.nparams, names, pg.term);
  if (!src) abort();
  if (show < 0) show = getenv("FUZZ_DERIV_SHOW") != NULL;
  if (show) fprintf(stderr, "%s", src);
  /* arguments, a tangent per parameter, a cotangent of the result */
  chad_buf ab, tb, cb;
  buf_init(&ab);
  buf_init(&tb);
  buf_init(&cb);
  buf_puts(&ab, "[");
  buf_puts(&tb, "[");
  for (int i = 0; i < pg.nparams; i++) {
    if (i) {
      buf_puts(&ab, ", ");
      buf_puts(&tb, ", ");
    }
    json_of(&ab, &r, pg.param_ty[i], pg.len, 0);
    json_of(&tb, &r, pg.param_ty[i], pg.len, 1);
  }
  buf_puts(&ab, "]");
  buf_puts(&tb, "]");
  json_of(&cb, &r, pg.result_ty, pg.len, 1);
  int real_result = pg.result_ty == TY_ID_REAL;
  if (ab.oom || tb.oom || cb.oom) abort();

  chad_diag d;
  chad_prog *p = chad_load_string(src, strlen(src), "gen.chad", &d); /* resets the arenas */
  if (!p) fail("load", src, &d, NULL);
  char *out = NULL;
  if (chad_check(p, &out, &d)) fail("check", src, &d, NULL);
  free(out);
  chad_json args = chad_json_text(ab.data, "<args>"), tan = chad_json_text(tb.data, "<tangent>"),
            cot = chad_json_text(cb.data, "<cotangent>");
  chad_set_inline(p, data[0] >> 7);
  /* eval: fast and ref agree */
  char *ev[2] = {NULL, NULL};
  int erc[2];
  for (int k = 0; k < 2; k++) {
    chad_set_evaluator(k ? CHAD_EVAL_REF : CHAD_EVAL_FAST);
    erc[k] = chad_eval(p, NULL, &args, &ev[k], &d);
    expect_ok_or_runtime(erc[k], ev[k], &d, k ? "eval --eval ref" : "eval --eval fast", src);
  }
  if (erc[0] == 0 && erc[1] == 0 && !agree(ev[0], ev[1])) {
    fprintf(stderr, "fast: %s\nref: %s\nargs: %s\n", ev[0], ev[1], ab.data);
    fail("eval: fast and ref disagree", src, &d, NULL);
  }
  free(ev[0]);
  free(ev[1]);
  chad_set_evaluator((data[0] >> 6) & 1 ? CHAD_EVAL_REF : CHAD_EVAL_FAST);
  int rc;
  for (int raw = 0; raw < 2; raw++) {
    out = NULL;
    if ((rc = chad_print_fwd(p, NULL, raw, &out, &d))) expect_ok_or_runtime(rc, out, &d, "fwd", src);
    free(out);
    out = NULL;
    if ((rc = chad_print_rev(p, NULL, raw, &out, &d))) expect_ok_or_runtime(rc, out, &d, "rev", src);
    free(out);
  }
  out = NULL;
  expect_ok_or_runtime(chad_jvp(p, NULL, &args, &tan, &out, &d), out, &d, "jvp", src);
  free(out);
  out = NULL;
  expect_ok_or_runtime(chad_vjp(p, NULL, &args, &cot, &out, &d), out, &d, "vjp", src);
  free(out);
  if (real_result) {
    out = NULL;
    expect_ok_or_runtime(chad_grad(p, NULL, &args, &out, &d), out, &d, "grad", src);
    free(out);
  }
  char *jac[2] = {NULL, NULL};
  int jrc[2];
  for (int k = 0; k < 2; k++) {
    jrc[k] = chad_jacobian(p, NULL, &args, k, &jac[k], &d);
    expect_ok_or_runtime(jrc[k], jac[k], &d, k ? "jacobian --mode rev" : "jacobian --mode fwd", src);
  }
  if (jrc[0] == 0 && jrc[1] == 0 && !agree(jac[0], jac[1])) {
    fprintf(stderr, "fwd: %s\nrev: %s\nargs: %s\n", jac[0], jac[1], ab.data);
    fail("jacobian: fwd and rev disagree", src, &d, NULL);
  }
  free(jac[0]);
  free(jac[1]);
  chad_free(p);
  buf_free(&ab);
  buf_free(&tb);
  buf_free(&cb);
  free(src);
  return 0;
}
