/* libchad's public API (include/chad.h): loading from a string, each
 * command's output, exit codes, and that a second load starts afresh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad.h"

#include "check.h"

static const char src[] =
    "def sq (x : real) : real = x * x\n"
    "def f (x : real, v : [real]) : real = sq x * sum v\n";

/* out must equal want; frees out. */
static int is(int rc, char *out, const char *want) {
  int ok = rc == 0 && out && strcmp(out, want) == 0;
  if (!ok) printf("  rc %d, got <%s>, want <%s>\n", rc, out ? out : "(null)", want);
  free(out);
  return ok;
}

int main(void) {
  chad_diag d;
  char *out = NULL;
  int rc;
  printf("load a string, check and eval it\n");
  chad_prog *p = chad_load_string(src, strlen(src), "mem.chad", &d);
  CHECK(p != NULL);
  if (!p) return 1;
  rc = chad_check(p, &out, &d);
  CHECK(is(rc, out, "sq : real -> real\nf : real -> [real] -> real\n"));
  out = NULL;
  chad_json args = chad_json_text("[3, [1, 2]]", "<args>");
  rc = chad_eval(p, NULL, &args, &out, &d);
  CHECK(is(rc, out, "27\n"));
  out = NULL;
  chad_json one = chad_json_text("{\"x\": 1.5}", "<args>");
  rc = chad_eval(p, "sq", &one, &out, &d);
  CHECK(is(rc, out, "2.25\n"));
  printf("derivatives: grad, jvp, vjp, jacobian\n");
  out = NULL;
  rc = chad_grad(p, NULL, &args, &out, &d);
  CHECK(is(rc, out, "{\"value\": 27, \"gradient\": [18, [9, 9]]}\n"));
  out = NULL;
  chad_json tan = chad_json_text("[1, [0, 1]]", "<tangent>");
  rc = chad_jvp(p, NULL, &args, &tan, &out, &d);
  CHECK(is(rc, out, "{\"value\": 27, \"tangent\": 27}\n"));
  out = NULL;
  chad_json cot = chad_json_text("2", "<cotangent>");
  rc = chad_vjp(p, NULL, &args, &cot, &out, &d);
  CHECK(is(rc, out,
           "{\"value\": 27, \"cotangent\": [36, [18, 18]]}\n"));
  out = NULL;
  rc = chad_jacobian(p, NULL, &args, 1, &out, &d);
  CHECK(is(rc, out,
           "{\"value\": 27, \"jacobian\": [[18, 9, 9]]}\n"));
  printf("errors: exit codes and places\n");
  out = NULL;
  CHECK(chad_eval(p, "nope", &args, &out, &d) == CHAD_EXIT_USAGE && !out);
  chad_json bad = chad_json_text("[3, [1, \"a\"]]", "<args>");
  CHECK(chad_eval(p, NULL, &bad, &out, &d) == CHAD_EXIT_INPUT && !out && d.line == 1 &&
        d.col == 9 && strcmp(d.file, "<args>") == 0);
  chad_json none = {NULL, 0, NULL};
  CHECK(chad_eval(p, NULL, &none, &out, &d) == CHAD_EXIT_USAGE);
  chad_free(p);
  printf("a second program replaces the first\n");
  const char src2[] = "def g (n : int) : int = n / 0\n";
  p = chad_load_string(src2, strlen(src2), "two.chad", &d);
  CHECK(p != NULL);
  if (p) {
    chad_json n = chad_json_text("[4]", "<args>");
    CHECK(chad_eval(p, NULL, &n, &out, &d) == CHAD_EXIT_RUNTIME && strcmp(d.file, "two.chad") == 0 &&
          d.line == 1);
    CHECK(chad_eval(p, "sq", &n, &out, &d) == CHAD_EXIT_USAGE);
    chad_free(p);
  }
  const char src3[] = "def h (x : real) : int = x\n";
  CHECK((p = chad_load_string(src3, strlen(src3), "three.chad", &d)) != NULL);
  if (p) {
    CHECK(chad_check(p, &out, &d) == CHAD_EXIT_INPUT && d.line == 1 && d.col > 0);
    chad_free(p);
  }
  CHECK(chad_load_string("def (", 5, "four.chad", &d) == NULL && d.exit_code == CHAD_EXIT_INPUT &&
        strcmp(d.file, "four.chad") == 0 && d.line == 1);
  printf("inlining: the default inlines evaluation only, with a fallback\n");
  p = chad_load_string(src, strlen(src), "mem.chad", &d);
  CHECK(p != NULL);
  if (p) {
    char *written = NULL, *inlined = NULL;
    CHECK(chad_print(p, "f", &written, &d) == 0 && written && strstr(written, "sq x"));
    chad_set_inline(p, CHAD_INLINE_ALWAYS);
    CHECK(chad_print(p, "f", &inlined, &d) == 0 && inlined && !strstr(inlined, "sq x"));
    for (int mode = CHAD_INLINE_NEVER; written && inlined && mode <= CHAD_INLINE_DEFAULT; mode++) {
      chad_set_inline(p, mode);
      out = NULL;
      rc = chad_grad(p, NULL, &args, &out, &d);
      CHECK(is(rc, out, "{\"value\": 27, \"gradient\": [18, [9, 9]]}\n"));
      out = NULL;
      rc = chad_print(p, "f", &out, &d);
      CHECK(is(rc, out, mode == CHAD_INLINE_ALWAYS ? inlined : written));
    }
    free(written);
    free(inlined);
    chad_free(p);
  }
  /* each def calls the previous one three times: 3^12 copies inlined */
  char big[2048];
  size_t n = (size_t)snprintf(big, sizeof big, "def f0 (x : real) : real = sin x\n");
  for (int i = 1; i <= 12; i++)
    n += (size_t)snprintf(big + n, sizeof big - n, "def f%d (x : real) : real = f%d (f%d x) - f%d x\n",
                          i, i - 1, i - 1, i - 1);
  p = chad_load_string(big, n, "big.chad", &d);
  CHECK(p != NULL);
  if (p) {
    chad_json half = chad_json_text("[0.5]", "<args>");
    char *dflt = NULL, *never = NULL;
    CHECK(chad_eval(p, NULL, &half, &dflt, &d) == 0 && dflt);
    chad_set_inline(p, CHAD_INLINE_NEVER);
    CHECK(chad_eval(p, NULL, &half, &never, &d) == 0 && never && dflt && strcmp(dflt, never) == 0);
    chad_set_inline(p, CHAD_INLINE_ALWAYS);
    out = NULL;
    CHECK(chad_eval(p, NULL, &half, &out, &d) == CHAD_EXIT_INPUT && !out &&
          strstr(d.msg, "too large"));
    free(dflt);
    free(never);
    chad_free(p);
  }
  printf("test_api: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
