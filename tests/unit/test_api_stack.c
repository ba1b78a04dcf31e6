/* libchad's commands run on a large stack of their own (src/api_stack.c):
 * called from a thread with a 256 KiB stack, every command on a chain of 1000
 * lets (whose elaboration and transformations recurse about 400 bytes of
 * stack per let: 512 KiB are needed on the caller's stack without it)
 * answers, and as on the main thread. Run plain and under ASan+UBSan. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad.h"

#include "check.h"

#define NLETS 1000
#define SMALL_STACK ((size_t)256 << 10)
enum { NCMD = 10 };
static const char *names[NCMD] = {"check", "print", "eval", "fwd", "rev", "jvp", "vjp", "grad", "jacobian", "export"};

static chad_prog *prog;

static int command(int k, char **out, chad_diag *d) {
  chad_json args = chad_json_text("[[0.5]]", "<args>");
  chad_json tan = chad_json_text("[[1.0]]", "<tangent>"), cot = chad_json_text("1.0", "<cotangent>");
  switch (k) {
  case 0: return chad_check(prog, out, d);
  case 1: return chad_print(prog, NULL, out, d);
  case 2: return chad_eval(prog, NULL, &args, out, d);
  case 3: return chad_print_fwd(prog, NULL, 0, out, d);
  case 4: return chad_print_rev(prog, NULL, 0, out, d);
  case 5: return chad_jvp(prog, NULL, &args, &tan, out, d);
  case 6: return chad_vjp(prog, NULL, &args, &cot, out, d);
  case 7: return chad_grad(prog, NULL, &args, out, d);
  case 8: return chad_jacobian(prog, NULL, &args, 1, out, d);
  default: return chad_export(prog, NULL, "torch", out, d);
  }
}

typedef struct { int k, rc; char *out; chad_diag d; } job;
static void *on_small_stack(void *p) {
  job *j = p;
  j->rc = command(j->k, &j->out, &j->d);
  return NULL;
}

int main(void) {
  size_t cap = (size_t)NLETS * 40 + 256, n = 0;
  char *src = malloc(cap);
  if (!src) return 1;
  n += (size_t)snprintf(src + n, cap - n, "def f (v : [real]) : real =\n  let y = v[0] + 1.0001 in\n");
  n += (size_t)snprintf(src + n, cap - n, "  let y0 = y * 1.0001 in\n");
  for (int k = 1; k < NLETS; k++)
    n += (size_t)snprintf(src + n, cap - n, "  let y%d = y%d * 1.0001 in\n", k, k - 1);
  snprintf(src + n, cap - n, "  y%d\n", NLETS - 1);
  chad_diag d;
  prog = chad_load_string(src, strlen(src), "chain.chad", &d);
  CHECK(prog != NULL);
  if (!prog) return 1;
  for (int k = 0; k < NCMD; k++) {
    char *want = NULL;
    chad_diag dw;
    int rw = command(k, &want, &dw);
    job j = {k, -1, NULL, {0}};
    pthread_attr_t a;
    pthread_t th;
    int started = pthread_attr_init(&a) == 0 && pthread_attr_setstacksize(&a, SMALL_STACK) == 0 &&
                  pthread_create(&th, &a, on_small_stack, &j) == 0;
    pthread_attr_destroy(&a);
    CHECKM(started, "%s: no thread", names[k]);
    if (started) pthread_join(th, NULL);
    CHECKM(rw == 0 && j.rc == 0, "%s: exit %d on the main thread (%s), %d on a 256 KiB stack (%s)", names[k], rw,
           rw ? dw.msg : "", j.rc, j.rc ? j.d.msg : "");
    CHECKM(want && j.out && *want && strcmp(want, j.out) == 0, "%s: the outputs differ", names[k]);
    free(want);
    free(j.out);
  }
  chad_free(prog);
  free(src);
  printf("test_api_stack: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
