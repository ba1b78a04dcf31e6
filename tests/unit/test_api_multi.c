/* Several programs alive at once (include/chad.h): each command elaborates
 * its definition from empty arenas, so two chad_prog objects loaded one
 * after the other can be used alternately, every command on each giving
 * the same output as on that program alone. Also: a program loaded after
 * a parse error, the certified evaluator's reruns, interleaved, and that
 * repeated commands give back the memory they take. */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad.h"

#include "check.h"

static const char src_a[] =
    "def sq (x : real) : real = x * x\n"
    "def f (x : real, v : [real]) : real = sq x * sum v\n";
static const char src_b[] =
    "def g (p : real * real) : real = sin (fst p) * snd p\n"
    "def h (x : real, n : int) : real = iter n (fun (a : real) -> a * x) 1.0\n"
    "def ab (x : real) : real = abs x\n";

/* out must equal want; frees out. IS(call, want): the call first, then out. */
#define IS(call, want) is_call((call), &out, (want))
static int is(int rc, char *out, const char *want) {
  int ok = rc == 0 && out && strcmp(out, want) == 0;
  if (!ok) printf("  rc %d, got <%s>, want <%s>\n", rc, out ? out : "(null)", want);
  free(out);
  return ok;
}

static int is_call(int rc, char **out, const char *want) {
  int ok = is(rc, *out, want);
  *out = NULL;
  return ok;
}

/* The outputs of one round of commands on a and b, in a fixed order. */
enum { NOUT = 8 };
static void round_of(chad_prog *a, chad_prog *b, char *outs[NOUT], int rcs[NOUT]) {
  chad_diag d;
  chad_json fa = chad_json_text("[3, [1, 2]]", "<args>");
  chad_json gb = chad_json_text("[[0.5, 2]]", "<args>");
  chad_json hb = chad_json_text("[1.5, 3]", "<args>");
  chad_json tb = chad_json_text("[[1, 0]]", "<tangent>");
  for (int i = 0; i < NOUT; i++) outs[i] = NULL;
  rcs[0] = chad_eval(a, NULL, &fa, &outs[0], &d);
  rcs[1] = chad_eval(b, "g", &gb, &outs[1], &d);
  rcs[2] = chad_grad(a, "f", &fa, &outs[2], &d);
  rcs[3] = chad_grad(b, "h", &hb, &outs[3], &d);
  rcs[4] = chad_check(a, &outs[4], &d);
  rcs[5] = chad_jvp(b, "g", &gb, &tb, &outs[5], &d);
  rcs[6] = chad_jacobian(a, "f", &fa, 1, &outs[6], &d);
  rcs[7] = chad_check(b, &outs[7], &d);
}

/* Every command of the API, once, on a and b, outputs freed; with each
 * evaluator (ev), and the vjp and jvp on a too. */
static void all_commands(chad_prog *a, chad_prog *b) {
  chad_diag d;
  char *outs[NOUT];
  int rcs[NOUT];
  round_of(a, b, outs, rcs);
  for (int i = 0; i < NOUT; i++) free(outs[i]);
  chad_json fa = chad_json_text("[3, [1, 2]]", "<args>");
  chad_json ct = chad_json_text("2", "<cotangent>");
  chad_json ta = chad_json_text("[1, [1, 0]]", "<tangent>");
  char *o[8] = {NULL};
  chad_vjp(a, "f", &fa, &ct, &o[0], &d);
  chad_jvp(a, "f", &fa, &ta, &o[1], &d);
  chad_jacobian(a, "f", &fa, 0, &o[2], &d);
  chad_print_fwd(a, "f", 0, &o[3], &d);
  chad_print_rev(a, "f", 1, &o[4], &d);
  chad_print(a, "f", &o[5], &d);
  chad_export(a, "f", "torch", &o[6], &d);
  chad_eval(a, "f", &fa, &o[7], &d);
  for (int i = 0; i < 8; i++) free(o[i]);
}

/* glibc's bytes in use: a command that leaks its heap, buffer or JSON
 * document makes them grow with every call. (Under AddressSanitizer, whose
 * allocator glibc's counters do not see, the check is vacuous; its leak
 * checker covers that build.) */
static size_t in_use(void) { return mallinfo2().uordblks; }

static void test_no_growth(chad_prog *a, chad_prog *b) {
  printf("repeated commands give back their memory (each evaluator)\n");
  chad_evaluator evs[3] = {CHAD_EVAL_FAST, CHAD_EVAL_REF, CHAD_EVAL_BALL};
  for (int e = 0; e < 3; e++) {
    chad_set_evaluator(evs[e]);
    all_commands(a, b); /* warm up: caches and memos filled once */
    size_t before = in_use();
    for (int r = 0; r < 10; r++) all_commands(a, b);
    size_t after = in_use();
    CHECKM(after <= before + 65536, "evaluator %d: %zu bytes in use after 10 more rounds, %zu before", e,
           after, before);
  }
  chad_set_evaluator(CHAD_EVAL_FAST);
}

int main(void) {
  chad_diag d;
  char *out = NULL;
  printf("two programs loaded, commands interleaved\n");
  chad_prog *a = chad_load_string(src_a, strlen(src_a), "a.chad", &d);
  chad_prog *b = chad_load_string(src_b, strlen(src_b), "b.chad", &d);
  CHECK(a && b);
  if (!a || !b) return 1;

  char *o1[NOUT], *o2[NOUT];
  int r1[NOUT], r2[NOUT];
  round_of(a, b, o1, r1);
  static const char *const want[NOUT] = {
      "27\n",
      "0.95885107720840601\n",
      "{\"value\": 27, \"gradient\": [18, [9, 9]]}\n",
      "{\"value\": 3.375, \"gradient\": [6.75, null]}\n",
      "sq : real -> real\nf : real -> [real] -> real\n",
      "{\"value\": 0.95885107720840601, \"tangent\": 1.7551651237807455}\n",
      "{\"value\": 27, \"jacobian\": [[18, 9, 9]]}\n",
      "g : real * real -> real\nh : real -> int -> real\nab : real -> real\n",
  };
  for (int i = 0; i < NOUT; i++) {
    CHECKM(r1[i] == 0 && o1[i] && strcmp(o1[i], want[i]) == 0, "command %d: rc %d, got <%s>", i,
           r1[i], o1[i] ? o1[i] : "(null)");
  }

  printf("the same round again gives the same outputs (nothing accumulates)\n");
  round_of(a, b, o2, r2);
  for (int i = 0; i < NOUT; i++) {
    CHECKM(r2[i] == r1[i] && o1[i] && o2[i] && strcmp(o1[i], o2[i]) == 0, "command %d", i);
    free(o1[i]);
    free(o2[i]);
  }

  printf("each program alone gives the same outputs as interleaved\n");
  {
    chad_prog *b2 = chad_load_string(src_b, strlen(src_b), "b.chad", &d);
    CHECK(b2 != NULL);
    chad_json gb = chad_json_text("[[0.5, 2]]", "<args>");
    if (b2) CHECK(IS(chad_eval(b2, "g", &gb, &out, &d), want[1]));
    out = NULL;
    /* a is still usable after b2 was loaded and used */
    chad_json fa = chad_json_text("[3, [1, 2]]", "<args>");
    CHECK(IS(chad_eval(a, NULL, &fa, &out, &d), want[0]));
    out = NULL;
    chad_free(b2);
  }

  printf("a failed load in between leaves the live programs usable\n");
  CHECK(chad_load_string("def (", 5, "bad.chad", &d) == NULL && d.exit_code == CHAD_EXIT_INPUT);
  {
    chad_json hb = chad_json_text("[2, 4]", "<args>");
    CHECK(IS(chad_eval(b, "h", &hb, &out, &d), "16\n"));
    out = NULL;
  }

  printf("a runtime error in one program, then the other\n");
  {
    chad_json bad = chad_json_text("[1, []]", "<args>");
    CHECK(chad_eval(a, "f", &bad, &out, &d) == 0);   /* sum [] = 0: no error */
    free(out);
    out = NULL;
    chad_json wrong = chad_json_text("[1]", "<args>");
    CHECK(chad_eval(a, "f", &wrong, &out, &d) == CHAD_EXIT_INPUT && out == NULL);
    chad_json gb = chad_json_text("[[0.5, 2]]", "<args>");
    CHECK(IS(chad_eval(b, "g", &gb, &out, &d), want[1]));
    out = NULL;
  }

  printf("certified (ball) commands interleaved: a kink in b, a gradient in a\n");
  chad_set_evaluator(CHAD_EVAL_BALL);
  {
    chad_json z = chad_json_text("[0]", "<args>");
    int rc = chad_grad(b, "ab", &z, &out, &d);
    CHECK(rc == CHAD_EXIT_NONDIFF && out && strstr(out, "\"not_differentiable\": true") &&
          strstr(out, "b.chad:3:"));
    free(out);
    out = NULL;
    chad_json fa = chad_json_text("[3, [1, 2]]", "<args>");
    CHECK(IS(chad_grad(a, "f", &fa, &out, &d), "{\"value\": 27, \"gradient\": [18, [9, 9]]}\n"));
    out = NULL;
    chad_json one = chad_json_text("[1]", "<args>");
    CHECK(IS(chad_grad(b, "ab", &one, &out, &d), "{\"value\": 1, \"gradient\": [1]}\n"));
    out = NULL;
  }
  chad_set_evaluator(CHAD_EVAL_FAST);

  printf("the first definition (index 0) is found by every command\n");
  {
    chad_json x = chad_json_text("[3]", "<args>");
    CHECK(IS(chad_eval(a, "sq", &x, &out, &d), "9\n"));
    out = NULL;
    CHECK(chad_export(a, "sq", "torch", &out, &d) == 0 && out && strstr(out, "\ndef sq(p0):"));
    free(out);
    out = NULL;
    CHECK(chad_print_rev(a, "sq", 0, &out, &d) == 0 && out && strstr(out, "def sq_rev"));
    free(out);
    out = NULL;
    /* without --raw the transformation goes through the simplifier: shorter */
    char *simp = NULL, *raw = NULL;
    CHECK(chad_print_rev(a, "f", 0, &simp, &d) == 0 && chad_print_rev(a, "f", 1, &raw, &d) == 0 &&
          simp && raw && strlen(simp) < strlen(raw));
    free(simp);
    free(raw);
    simp = raw = NULL;
    CHECK(chad_print_fwd(a, "f", 0, &simp, &d) == 0 && chad_print_fwd(a, "f", 1, &raw, &d) == 0 &&
          simp && raw && strlen(simp) < strlen(raw));
    free(simp);
    free(raw);
  }

  test_no_growth(a, b);
  chad_free(a);
  chad_free(b);
  printf("test_api_multi: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
