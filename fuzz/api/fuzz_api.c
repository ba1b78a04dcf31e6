/* libFuzzer harness for libchad's public API (include/chad.h): what a
 * program embedding the library, or the command line, does with untrusted
 * text.
 *
 * Input: one selector byte, then up to three NUL-separated parts: the
 * program source, the --args JSON and the --tangent / --cotangent JSON.
 * The selector picks the command (check, print, eval, fwd, rev, jvp, vjp,
 * grad, jacobian), the evaluator, --inline, the jacobian's mode, --fn (the
 * last definition, or "f"), and whether the JSON parts are given at all.
 * Properties beyond "no crash, no leak, no UB" (ASan + UBSan): every
 * command returns a documented exit code (0..3); success gives an output;
 * an input error (2) has a file and a line:col; a runtime error (3) has a
 * place; the heap limit (64 MiB here) bounds the memory. Run with
 * `make fuzz-api` (fuzz/run.sh). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad.h"

static void check(int rc, const char *out, const chad_diag *d, const char *what) {
  if (rc < 0 || rc > 3) {
    fprintf(stderr, "%s: exit code %d outside the documented 0..3\n", what, rc);
    abort();
  }
  if (rc == 0 && !out) {
    fprintf(stderr, "%s: success without an output\n", what);
    abort();
  }
  if (rc == CHAD_EXIT_INPUT && (!d->file[0] || d->line < 1 || d->col < 1 || !d->msg[0])) {
    fprintf(stderr, "%s: input error without a position: '%s' %d:%d: %s\n", what, d->file,
            d->line, d->col, d->msg);
    abort();
  }
  if (rc == CHAD_EXIT_RUNTIME && (!d->file[0] || d->line < 1 || !d->msg[0])) {
    fprintf(stderr, "%s: runtime error without a place: '%s' %d:%d: %s\n", what, d->file,
            d->line, d->col, d->msg);
    abort();
  }
  if (rc != 0 && d->exit_code != rc) {
    fprintf(stderr, "%s: returned %d but the diagnostic says %d\n", what, rc, d->exit_code);
    abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int init;
  if (!init) {
    init = 1;
    chad_set_heap_limit((size_t)64 << 20);
  }
  if (size < 1) return 0;
  unsigned sel = data[0];
  const char *text = (const char *)data + 1;
  size_t n = size - 1;
  /* split at NUL bytes: source, args, tangent */
  const char *part[3] = {text, NULL, NULL};
  size_t len[3] = {n, 0, 0};
  for (int k = 0; k < 2 && part[k]; k++) {
    const char *z = memchr(part[k], '\0', len[k]);
    if (!z) break;
    size_t rest = len[k] - (size_t)(z - part[k]) - 1;
    len[k] = (size_t)(z - part[k]);
    part[k + 1] = z + 1;
    len[k + 1] = rest;
  }
  chad_diag d;
  chad_prog *p = chad_load_string(part[0], len[0], "fuzz.chad", &d);
  if (!p) {
    check(d.exit_code, "", &d, "load");
    if (d.exit_code != CHAD_EXIT_INPUT && d.exit_code != CHAD_EXIT_RUNTIME) abort();
    return 0;
  }
  chad_set_evaluator(sel & 16 ? CHAD_EVAL_REF : CHAD_EVAL_FAST);
  chad_set_inline(p, (sel >> 5) & 1);
  const char *fn = sel & 64 ? "f" : NULL;
  chad_json args = {part[1], len[1], "<args>"}, tan = {part[2], len[2], "<tangent>"};
  const chad_json *a = part[1] ? &args : NULL, *t = part[2] ? &tan : NULL;
  char *out = NULL;
  int rc;
  const char *what;
  switch ((sel & 15) % 9) {
  case 0: what = "check"; rc = chad_check(p, &out, &d); break;
  case 1: what = "print"; rc = chad_print(p, fn, &out, &d); break;
  case 2: what = "eval"; rc = chad_eval(p, fn, a, &out, &d); break;
  case 3: what = "fwd"; rc = chad_print_fwd(p, fn, sel >> 7, &out, &d); break;
  case 4: what = "rev"; rc = chad_print_rev(p, fn, sel >> 7, &out, &d); break;
  case 5: what = "jvp"; rc = chad_jvp(p, fn, a, t, &out, &d); break;
  case 6: what = "vjp"; rc = chad_vjp(p, fn, a, t, &out, &d); break;
  case 7: what = "grad"; rc = chad_grad(p, fn, a, &out, &d); break;
  default: what = "jacobian"; rc = chad_jacobian(p, fn, a, sel >> 7, &out, &d); break;
  }
  /* a usage error (1) is a missing --args/--tangent or an unknown --fn */
  check(rc, out, &d, what);
  free(out);
  chad_free(p);
  chad_free(p); /* documented harmless */
  return 0;
}
