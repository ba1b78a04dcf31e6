/* The certified evaluator at ties (spec/certified.md §3), through the
 * library: a tie whose difference has a nonzero gradient is a branch point
 * nearby points leave (not differentiable, exit 4, every limit realized);
 * one whose difference's gradient is 0 leaves the differentiability
 * undecided (exit 5, "differentiable": "undecided", the limits listed, none
 * realized); a realized limit whose value differs from the function's at
 * the point is a discontinuity. In forward and reverse mode. Run plain and
 * under ASan+UBSan. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad.h"

#include "check.h"

static const char src[] =
    "def ab (x : real) : real = abs x\n"
    "def mx (x : real, y : real) : real = max x y\n"
    "def step (x : real) : real = if x > 0.0 then x else 0.0\n"
    "def relu (x : real) : real = max x 0.0\n"
    "def rr (x : real) : real = max (max x 0.0) 0.0\n"
    "def deg (x : real) : real = if x - x <= 0.0 then 2.0 * x else 3.0 * x\n"
    "def touch (x : real) : real = if x * x <= 0.0 then 2.0 * x else 3.0 * x\n"
    "def one (x : real, y : real) : real = if x > 1.0 then x * y else 2.0 * y\n"
    "def oned (x : real, y : real) : real = if y - y > 0.0 then x * y else 2.0 * y\n"
    "def fl (x : real) : real = toreal (floor x) * x\n"
    "def fld (x : real) : real = toreal (floor (x - x + 2.0)) * x\n"
    "def jump (x : real) : real = if x == 0.0 then 1.0 else x\n"
    "def cut (y : real, x : real) : real = atan2 y x\n"
    "def cutd (y : real, x : real) : real = atan2 (y - y) x\n"
    "def same (x : real) : real = if x > 0.0 then 2.0 * x else x + x\n"
    /* 20 inputs: the tangent runs seed 8 pseudo-random directions */
    "def wide (v : [real]) : real = if v[3] > v[7] then v[3] * v[0] else v[7] + v[19]\n"
    "def wided (v : [real]) : real = if sum v - sum v > 0.0 then v[3] * v[0] else v[7] + v[19]\n";

#define WIDE "[[1.0, 2.0, 3.0, 0.5, 5.0, 6.0, 7.0, 0.5, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, " \
             "15.0, 16.0, 17.0, 18.0, 19.0, 2.5]]"

typedef struct tcase {
  const char *fn, *args;
  int rc;            /* the exit code, grad and jvp alike                 */
  const char *has;   /* a substring of grad's output                      */
} tcase;

static const tcase cases[] = {
    {"ab", "[0.0]", CHAD_EXIT_NONDIFF, "\"gradient\": [-1]}, \"realized\": true}"},
    {"mx", "[1.0, 1.0]", CHAD_EXIT_NONDIFF, "\"gradient\": [0, 1]}, \"realized\": true}"},
    {"step", "[0.0]", CHAD_EXIT_NONDIFF, "\"not_differentiable\": true"},
    {"relu", "[0.0]", CHAD_EXIT_NONDIFF, "\"gradient\": [0]}, \"realized\": true}"},
    {"rr", "[0.0]", CHAD_EXIT_NONDIFF, "\"gradient\": [1]}, \"realized\": true}"},
    {"deg", "[1.0]", CHAD_EXIT_UNDECIDED, "\"gradient\": [3]}, \"realized\": false}"},
    {"touch", "[0.0]", CHAD_EXIT_UNDECIDED, "\"differentiable\": \"undecided\""},
    {"one", "[1.0, 3.0]", CHAD_EXIT_NONDIFF, "\"gradient\": [0, 2]}, \"realized\": true}"},
    {"oned", "[1.0, 3.0]", CHAD_EXIT_UNDECIDED, "\"gradient\": [3, 1]}, \"realized\": false}"},
    {"fl", "[2.0]", CHAD_EXIT_NONDIFF, "\"gradient\": [2]}, \"realized\": true}"},
    {"fld", "[1.5]", CHAD_EXIT_UNDECIDED, "\"differentiable\": \"undecided\""},
    {"jump", "[0.0]", CHAD_EXIT_NONDIFF, "\"not_differentiable\": true"},
    {"cut", "[0.0, -1.0]", CHAD_EXIT_NONDIFF, "\"realized\": true"},
    {"cutd", "[1.0, -1.0]", CHAD_EXIT_UNDECIDED, "\"differentiable\": \"undecided\""},
    {"same", "[0.0]", 0, "{\"value\": 0, \"gradient\": [2]}"},
    {"wide", WIDE, CHAD_EXIT_NONDIFF, "\"realized\": true"},
    {"wided", WIDE, CHAD_EXIT_UNDECIDED, "\"differentiable\": \"undecided\""},
};

int main(void) {
  chad_diag d;
  chad_prog *p = chad_load_string(src, strlen(src), "ties.chad", &d);
  CHECK(p != NULL);
  if (!p) return 1;
  chad_set_evaluator(CHAD_EVAL_BALL);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const tcase *c = &cases[i];
    chad_json a = chad_json_text(c->args, "<args>");
    char *out = NULL;
    int rc = chad_grad(p, c->fn, &a, &out, &d);
    CHECKM(rc == c->rc, "grad %s at %s: exit %d, want %d (%s)", c->fn, c->args, rc, c->rc, d.msg);
    CHECKM(out && strstr(out, c->has), "grad %s at %s: %s lacks %s", c->fn, c->args,
           out ? out : "(none)", c->has);
    /* never both verdicts; undecided exactly when the exit says so */
    CHECKM(!out || !(strstr(out, "\"not_differentiable\"") && strstr(out, "\"undecided\"")),
           "grad %s: both verdicts", c->fn);
    if (rc == CHAD_EXIT_UNDECIDED) {
      CHECKM(strstr(d.msg, "differentiability undecided at this point"), "%s: %s", c->fn, d.msg);
      /* these ties are all degenerate: no limit is proved realized */
      CHECKM(out && !strstr(out, "\"realized\": true"), "%s: a realized limit", c->fn);
    }
    if (rc == CHAD_EXIT_NONDIFF)
      CHECKM(strstr(d.msg, "not differentiable at this point"), "%s: %s", c->fn, d.msg);
    free(out);
    /* forward mode: the same outcome, along the first input */
    const char *tv = strchr(c->args, ',') ? "[1.0, 0.0]" : "[1.0]";
    if (c->args[1] == '[')   /* WIDE: along v[3] */
      tv = "[[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, "
           "0.0, 0.0]]";
    chad_json t = chad_json_text(tv, "<tangent>");
    out = NULL;
    rc = chad_jvp(p, c->fn, &a, &t, &out, &d);
    CHECKM(rc == c->rc, "jvp %s at %s: exit %d, want %d (%s)", c->fn, c->args, rc, c->rc, d.msg);
    free(out);
  }
  chad_set_evaluator(CHAD_EVAL_FAST);

  /* grading at an undecided point (spec/verdict.md §4): in the hull of the
   * results undecided, whether the true 2 or the wrong 3; outside it wrong */
  static const struct { const char *cand; int rc; const char *has; } grades[] = {
      {"{\"gradient\": [2.0]}", CHAD_EXIT_UNDECIDED, "\"verdict\": \"undecided\""},
      {"{\"gradient\": [3.0]}", CHAD_EXIT_UNDECIDED, "\"differentiable\": \"undecided\""},
      {"{\"gradient\": [4.0]}", CHAD_EXIT_WRONG, "\"verdict\": \"wrong\""},
  };
  for (size_t i = 0; i < sizeof grades / sizeof grades[0]; i++) {
    chad_json a = chad_json_text("[1.0]", "<args>"), c = chad_json_text(grades[i].cand, "<candidate>");
    chad_check_opts o = {"deg", &a, &c, NULL, NULL, CHAD_CHECK_DEFAULT_ULPS, 0, 0, 1};
    char *out = NULL;
    int rc = chad_check_candidate(p, &o, &out, &d);
    CHECKM(rc == grades[i].rc, "check deg %s: exit %d, want %d", grades[i].cand, rc, grades[i].rc);
    CHECKM(out && strstr(out, grades[i].has) && !strstr(out, "\"acceptable\": 1"), "check deg %s: %s",
           grades[i].cand, out ? out : "(none)");
    free(out);
  }
  chad_free(p);
  printf("test_ties: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
