/* chad_check_candidate (include/chad.h) through the library: the
 * exit codes of its verdicts, its preconditions, the JSON report, and that
 * the evaluator and certificate settings are restored after it (a later
 * chad_grad runs on the evaluator set before, without a certificate). Run
 * plain and under ASan+UBSan. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad.h"

#include "check.h"

static const char src[] =
    "def th (x : real) : real = tanh x\n"
    "def ab (x : real) : real = abs x\n"
    "def sq (x : real) : real = sqrt (x * x)\n";

static int grade(chad_prog *p, const char *fn, const char *args, const char *cand, int json,
                 char **out, chad_diag *d) {
  chad_json a = chad_json_text(args, "<args>"), c = chad_json_text(cand, "<candidate>");
  chad_check_opts o = {fn, &a, &c, NULL, NULL, CHAD_CHECK_DEFAULT_ULPS, 0, 0, json};
  return chad_check_candidate(p, &o, out, d);
}

int main(void) {
  chad_diag d;
  char *out = NULL;
  chad_prog *p = chad_load_string(src, strlen(src), "mem.chad", &d);
  CHECK(p != NULL);
  if (!p) return 1;

  printf("verdicts: correct 0, wrong 6, acceptable 0, outside the domain 4\n");
  CHECK(grade(p, "th", "[20.0]", "{\"gradient\": [1.6993417021166355e-17]}", 0, &out, &d) == 0);
  CHECK(out && strstr(out, "OK: 1 correct of 1 entry"));
  free(out);
  CHECK(grade(p, "th", "[20.0]", "{\"gradient\": [0.0]}", 1, &out, &d) == CHAD_EXIT_WRONG);
  CHECK(out && strstr(out, "\"verdict\": \"wrong\"") && strstr(out, "\"path\": \"gradient[0]\""));
  free(out);
  CHECK(grade(p, "ab", "[0.0]", "{\"gradient\": [0.0]}", 1, &out, &d) == 0);
  CHECK(out && strstr(out, "\"acceptable\"") && strstr(out, "minimal-norm"));
  free(out);
  CHECK(grade(p, "sq", "[0.0]", "{\"gradient\": [0.0]}", 0, &out, &d) == CHAD_EXIT_NONDIFF);
  CHECK(out && strstr(out, "outside the domain"));
  free(out);

  printf("input errors: no report, the diagnostic placed in the candidate\n");
  out = (char *)"sentinel";
  memset(&d, 0, sizeof d);
  CHECK(grade(p, "th", "[20.0]", "{\"gradient\": [1, 2]}", 0, &out, &d) == CHAD_EXIT_INPUT);
  CHECK(out == NULL && strcmp(d.file, "<candidate>") == 0 && d.line == 1 && d.col == 14);

  printf("preconditions: NULL program, output, options; a candidate is needed\n");
  chad_json a = chad_json_text("[1.0]", "<args>");
  chad_check_opts none = {"th", &a, NULL, NULL, NULL, 2, 0, 0, 0};
  CHECK(chad_check_candidate(NULL, &none, &out, &d) == CHAD_EXIT_USAGE);
  CHECK(chad_check_candidate(p, &none, NULL, &d) == CHAD_EXIT_USAGE);
  CHECK(chad_check_candidate(p, NULL, &out, &d) == CHAD_EXIT_USAGE);
  CHECK(chad_check_candidate(p, &none, &out, &d) == CHAD_EXIT_USAGE && strstr(d.msg, "--candidate"));

  printf("settings restored: chad_grad afterwards uses the evaluator set before\n");
  chad_set_evaluator(CHAD_EVAL_REF);
  a = chad_json_text("[0.0]", "<args>");
  char *before = NULL;
  CHECK(chad_grad(p, "ab", &a, &before, &d) == 0);
  CHECK(grade(p, "th", "[20.0]", "{\"value\": 1.0}", 0, &out, &d) == 0);
  free(out);
  out = NULL;
  /* abs at 0: the certified evaluator would exit 4 (and add a certificate);
   * the reference evaluator takes a branch and prints the same as before */
  CHECK(chad_grad(p, "ab", &a, &out, &d) == 0);
  CHECK(out && before && strcmp(out, before) == 0 && !strstr(out, "certificate"));
  free(out);
  free(before);

  chad_free(p);
  printf("test_verdict: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
