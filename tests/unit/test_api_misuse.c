/* libchad's preconditions (include/chad.h): each misuse of the API (NULL
 * for the program, the output, the diagnostic, a source, a path, the
 * options of chad_check_candidate, the paths of chad_vectors; a freed
 * program; a second chad_free) returns the documented usage error
 * CHAD_EXIT_USAGE instead of crashing; inputs over the documented limits are
 * positioned input errors. Run plain and under ASan+UBSan. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad.h"
#include "chad/surface.h"
#include "api_internal.h"
#include "certified/certify.h"

#include "check.h"

static const char src[] = "def sq (x : real) : real = x * x\n";

/* Every command of chad.h on (p, out, d), with valid other arguments. */
enum { NCMD = 11 };
static int command(int k, chad_prog *p, char **out, chad_diag *d) {
  chad_json args = chad_json_text("[2.0]", "<args>");
  chad_json tan = chad_json_text("[1.0]", "<tangent>"), cot = chad_json_text("1.0", "<cotangent>");
  chad_json cand = chad_json_text("{\"value\": 4.0, \"gradient\": [4.0]}", "<candidate>");
  chad_check_opts o = {NULL, &args, &cand, NULL, NULL, CHAD_CHECK_DEFAULT_ULPS, 0, 0, 0};
  switch (k) {
  case 9: return chad_export(p, NULL, "torch", out, d);
  case 10: return chad_check_candidate(p, &o, out, d);
  case 0: return chad_check(p, out, d);
  case 1: return chad_print(p, NULL, out, d);
  case 2: return chad_eval(p, NULL, &args, out, d);
  case 3: return chad_print_fwd(p, NULL, 0, out, d);
  case 4: return chad_print_rev(p, NULL, 0, out, d);
  case 5: return chad_jvp(p, NULL, &args, &tan, out, d);
  case 6: return chad_vjp(p, NULL, &args, &cot, out, d);
  case 7: return chad_grad(p, NULL, &args, out, d);
  default: return chad_jacobian(p, NULL, &args, 1, out, d);
  }
}

int main(void) {
  chad_diag d;
  char *out;
  printf("NULL diagnostic, program or output: CHAD_EXIT_USAGE for every command\n");
  chad_prog *p = chad_load_string(src, strlen(src), "mem.chad", &d);
  CHECK(p != NULL);
  if (!p) return 1;
  for (int k = 0; k < NCMD; k++) {
    out = (char *)"sentinel";
    CHECKM(command(k, p, &out, NULL) == CHAD_EXIT_USAGE, "command %d, d NULL", k);
    memset(&d, 0, sizeof d);
    out = (char *)"sentinel";
    CHECKM(command(k, NULL, &out, &d) == CHAD_EXIT_USAGE && d.exit_code == CHAD_EXIT_USAGE &&
               strstr(d.msg, "the program is NULL") && out == NULL,
           "command %d, p NULL: %s", k, d.msg);
    memset(&d, 0, sizeof d);
    CHECKM(command(k, p, NULL, &d) == CHAD_EXIT_USAGE && strstr(d.msg, "out is NULL"),
           "command %d, out NULL: %s", k, d.msg);
    out = NULL;
    CHECKM(command(k, p, &out, &d) == 0 && out != NULL, "command %d works: %s", k, d.msg);
    free(out);
  }
  CHECK(chad_fn(NULL, NULL, &d) == -CHAD_EXIT_USAGE && d.exit_code == CHAD_EXIT_USAGE);
  CHECK(chad_fn(p, NULL, NULL) == -CHAD_EXIT_USAGE);
  CHECK(chad_fn(p, NULL, &d) == 0);
  chad_set_inline(NULL, 1); /* nothing to do */
  memset(&d, 0, sizeof d);
  out = (char *)"sentinel";
  CHECK(chad_export(p, NULL, NULL, &out, &d) == CHAD_EXIT_USAGE && out == NULL && strstr(d.msg, "targets"));
  CHECK(chad_export(p, NULL, NULL, &out, NULL) == CHAD_EXIT_USAGE);
  memset(&d, 0, sizeof d);
  out = (char *)"sentinel";
  CHECK(chad_check_candidate(p, NULL, &out, &d) == CHAD_EXIT_USAGE && out == NULL &&
        strstr(d.msg, "the options are NULL"));
  CHECK(chad_check_candidate(p, NULL, &out, NULL) == CHAD_EXIT_USAGE);

  printf("chad_vectors: NULL spec, output folder or diagnostic\n");
  memset(&d, 0, sizeof d);
  CHECK(chad_vectors(NULL, "/nonexistent", 0, &d) == CHAD_EXIT_USAGE && strstr(d.msg, "spec_path is NULL"));
  memset(&d, 0, sizeof d);
  CHECK(chad_vectors("vectors/spec.json", NULL, 0, &d) == CHAD_EXIT_USAGE && strstr(d.msg, "outdir is NULL"));
  CHECK(chad_vectors("/nonexistent/spec.json", "/nonexistent/out", 0, NULL) == CHAD_EXIT_USAGE);
  memset(&d, 0, sizeof d);
  CHECK(chad_vectors("/nonexistent/spec.json", "/nonexistent/out", 0, &d) == CHAD_EXIT_INPUT &&
        strcmp(d.file, "/nonexistent/spec.json") == 0 && strstr(d.msg, "cannot open"));

  printf("settings out of range: the nearest bound\n");
  chad_set_max_prec(LONG_MAX);
  CHECK(certify_max_prec() == CHAD_MAX_PREC_CAP);
  chad_set_max_prec(-5);
  CHECK(certify_max_prec() == 64);
  chad_set_max_prec(4096);
  chad_set_heap_limit(SIZE_MAX);
  CHECK(api_heap_limit() == CHAD_MAX_HEAP_LIMIT);
  chad_set_heap_limit((size_t)1 << 30);

  printf("diag_set and diag_print with a NULL diagnostic: nothing\n");
  CHECK(diag_set(NULL, CHAD_EXIT_INPUT, "f", 1, 1, "x") == CHAD_EXIT_INPUT);
  diag_print(NULL);

  printf("NULL source, path, name or length\n");
  CHECK(chad_load_string(NULL, 3, "x", &d) == NULL && d.exit_code == CHAD_EXIT_USAGE &&
        strstr(d.msg, "src is NULL"));
  CHECK(chad_load_string(src, strlen(src), "x", NULL) == NULL);
  CHECK(chad_load_file(NULL, &d) == NULL && d.exit_code == CHAD_EXIT_USAGE && strstr(d.msg, "path is NULL"));
  CHECK(chad_load_file("mem.chad", NULL) == NULL);
  size_t len = 0;
  CHECK(chad_read_file(NULL, &len, &d) == NULL && d.exit_code == CHAD_EXIT_USAGE);
  CHECK(chad_read_file("-", NULL, &d) == NULL && d.exit_code == CHAD_EXIT_USAGE);
  CHECK(chad_read_file("-", &len, NULL) == NULL);
  CHECK(chad_read_file("/nonexistent/x.json", &len, &d) == NULL && d.exit_code == CHAD_EXIT_INPUT &&
        strstr(d.msg, "cannot open"));
  /* a program named NULL is "<string>"; a JSON input named NULL is "<args>" */
  chad_prog *q = chad_load_string("def f = 1.0 +", 13, NULL, &d);
  CHECK(q == NULL && d.exit_code == CHAD_EXIT_INPUT && strcmp(d.file, "<string>") == 0 && d.line == 1);
  chad_json noname = {"[1.0", 4, NULL};
  out = NULL;
  CHECK(chad_eval(p, NULL, &noname, &out, &d) == CHAD_EXIT_INPUT && strcmp(d.file, "<args>") == 0 &&
        out == NULL);
  /* a missing tangent or cotangent */
  chad_json args = chad_json_text("[2.0]", NULL);
  CHECK(chad_jvp(p, NULL, &args, NULL, &out, &d) == CHAD_EXIT_USAGE);
  CHECK(chad_vjp(p, NULL, &args, NULL, &out, &d) == CHAD_EXIT_USAGE);

  printf("a freed program: refused; a second chad_free does nothing\n");
  chad_free(p);
  for (int k = 0; k < NCMD; k++) {
    memset(&d, 0, sizeof d);
    out = NULL;
    CHECKM(command(k, p, &out, &d) == CHAD_EXIT_USAGE && strstr(d.msg, "was freed") && out == NULL,
           "command %d on a freed program: %s", k, d.msg);
  }
  CHECK(chad_fn(p, NULL, &d) == -CHAD_EXIT_USAGE && strstr(d.msg, "was freed"));
  chad_set_inline(p, 1);
  chad_free(p);
  chad_free(NULL);
  /* two programs alive at once: each freed once, in any order */
  chad_prog *a = chad_load_string(src, strlen(src), "a", &d), *b = chad_load_string(src, strlen(src), "b", &d);
  CHECK(a && b);
  chad_free(a);
  out = NULL;
  CHECK(command(0, b, &out, &d) == 0);
  free(out);
  chad_free(b);
  chad_free(a);

  printf("commands repeated on one program, and on a program loaded before another\n");
  a = chad_load_string(src, strlen(src), "a", &d);
  b = chad_load_string("def g (v : [real]) : real = sum v", 33, "b", &d);
  CHECK(a && b);
  int bad = 0;
  for (int i = 0; i < 3000 && a; i++) {
    chad_json x = chad_json_text("[3.0]", "<args>");
    out = NULL;
    if (chad_grad(a, NULL, &x, &out, &d) != 0 || strcmp(out, "{\"value\": 9, \"gradient\": [6]}\n") != 0) {
      bad++;
      if (bad == 1) printf("  call %d: %s\n", i, out ? out : d.msg);
    }
    free(out);
  }
  CHECK(bad == 0);
  out = NULL;
  chad_json vx = chad_json_text("[[1.0, 2.0]]", "<args>");
  CHECK(b && chad_grad(b, NULL, &vx, &out, &d) == 0 && strcmp(out, "{\"value\": 3, \"gradient\": [[1, 1]]}\n") == 0);
  free(out);
  chad_free(a);
  chad_free(b);

  printf("inputs over the documented limits: positioned input errors\n");
  size_t big = SURF_MAX_SOURCE + 1;
  char *s = malloc(big);
  CHECK(s != NULL);
  if (s) {
    memset(s, ' ', big);
    s[0] = '\r'; /* a lone CR: line 2 */
    q = chad_load_string(s, big, "big.chad", &d);
    CHECK(q == NULL && d.exit_code == CHAD_EXIT_INPUT && d.line == 2 &&
          d.col == (int)SURF_MAX_SOURCE && strstr(d.msg, "source too large"));
    free(s);
  }
  p = chad_load_string(src, strlen(src), "mem.chad", &d);
  CHECK(p != NULL);
  big = CHAD_MAX_JSON_BYTES + 1;
  s = malloc(big);
  if (p && s) {
    memset(s, ' ', big);
    s[0] = '[';
    chad_json j = {s, big, "<args>"};
    out = NULL;
    CHECK(chad_eval(p, NULL, &j, &out, &d) == CHAD_EXIT_INPUT && d.line == 1 &&
          d.col == (int)CHAD_MAX_JSON_BYTES + 1 && strstr(d.msg, "too large"));
    /* the candidate of chad_check_candidate too */
    chad_json a = chad_json_text("[2.0]", "<args>");
    j.name = "<candidate>";
    chad_check_opts o = {NULL, &a, &j, NULL, NULL, CHAD_CHECK_DEFAULT_ULPS, 0, 0, 0};
    CHECK(chad_check_candidate(p, &o, &out, &d) == CHAD_EXIT_INPUT && out == NULL &&
          strcmp(d.file, "<candidate>") == 0 && d.line == 1 && d.col == (int)CHAD_MAX_JSON_BYTES + 1 &&
          strstr(d.msg, "too large"));
  }
  free(s);
  /* jansson's memory counts against the heap limit */
  if (p) {
    chad_set_heap_limit((size_t)1 << 20);
    size_t n = 200000;
    char *t = malloc(2 * n + 8);
    CHECK(t != NULL);
    if (t) {
      t[0] = '[';
      for (size_t i = 0; i < n; i++) memcpy(t + 1 + 2 * i, "0,", 2);
      memcpy(t + 1 + 2 * n, "0]", 3);
      chad_prog *v = chad_load_string("def n (v : [real]) : real = sum v", 33, "v.chad", &d);
      char *w = malloc(2 * n + 16);
      if (v && w) {
        snprintf(w, 2 * n + 16, "[%s]", t);
        chad_json j = chad_json_text(w, "<args>");
        out = NULL;
        CHECK(chad_eval(v, NULL, &j, &out, &d) == CHAD_EXIT_RUNTIME && strstr(d.msg, "heap limit"));
        chad_set_heap_limit((size_t)1 << 30);
        out = NULL;
        CHECK(chad_eval(v, NULL, &j, &out, &d) == 0 && out && strcmp(out, "0\n") == 0);
        free(out);
      }
      free(w);
      chad_free(v);
      free(t);
    }
    chad_set_heap_limit((size_t)1 << 30);
  }
  /* Heap limits from 0 up, by 8 bytes: a heap that holds the arguments read
   * (64 booleans, dearer in the heap than in jansson) but not their
   * environment is an error placed at the definition (2 such limits now). */
  {
    const char *ls = "\ndef f (v : [bool]) : int = length v";
    chad_prog *q = chad_load_string(ls, strlen(ls), "lim.chad", &d);
    char bools[2 + 5 * 64 + 2] = "[[";
    for (int i = 0; i < 64; i++) strcat(bools, i ? ",true" : "true");
    strcat(bools, "]]");
    chad_json j = chad_json_text(bools, "<args>");
    int at_def = 0, ok = 0;
    for (size_t lim = 0; q && lim <= 65536 && !ok; lim += 8) {
      chad_set_heap_limit(lim);
      out = NULL;
      memset(&d, 0, sizeof d);
      int rc = chad_eval(q, NULL, &j, &out, &d);
      if (rc == 0) {
        ok = 1;
        free(out);
      } else if (rc == CHAD_EXIT_RUNTIME && strcmp(d.msg, "heap limit reached") == 0) {
        at_def++;
        CHECK(strcmp(d.file, "lim.chad") == 0 && d.line == 2 && d.col == 1);
      }
    }
    CHECKM(ok && at_def > 0, "heap limits: %d placed at the definition, then success: %d", at_def, ok);
    chad_free(q);
    chad_set_heap_limit((size_t)1 << 30);
  }
  chad_free(p);
  printf("test_api_misuse: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
