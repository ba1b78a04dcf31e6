/* libchad's commands when an allocation fails: for every k, the k-th call
 * of realloc during a command fails (a realloc that fails leaves its block
 * as it was), and the command must either succeed with its usual output
 * or fail with an "out of memory" error and no output, and give back
 * every byte it took (glibc's bytes in use the same after as before; the
 * program runs itself again with glibc's per-thread cache off, whose
 * blocks glibc counts as in use). Then the k-th malloc, with calls
 * inlined: the same outcome and the same bytes in use. And a command
 * refused for a type with no JSON form gives back its bytes. The error's
 * exit code is CHAD_EXIT_RUNTIME, parsing's and elaboration's included
 * (README's table of exit codes puts the host out of memory under 3); a
 * load with each malloc failing in turn is checked the same way first.
 * malloc and realloc are replaced in this program by ones that forward to
 * glibc's (__libc_malloc, __libc_realloc) unless a failure is due. Under
 * AddressSanitizer, whose allocator glibc's must not be mixed with,
 * nothing is replaced and the test only says so. */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
int main(void) {
  printf("test_api_oom: not run under AddressSanitizer (it replaces malloc and realloc)\n");
  return 0;
}
#else

#include "chad.h"

#include "check.h"

void *__libc_malloc(size_t n);
void *__libc_realloc(void *p, size_t n);

static long fail_in;  /* > 0: the fail_in-th realloc (or malloc) from now fails; 0: none */
static int fail_malloc; /* the count is of mallocs, not reallocs */
static long reallocs, mallocs; /* seen */

void *realloc(void *p, size_t n) {
  reallocs++;
  if (!fail_malloc && fail_in > 0 && --fail_in == 0) return NULL;
  return __libc_realloc(p, n);
}
void *malloc(size_t n) {
  mallocs++;
  if (fail_malloc && fail_in > 0 && --fail_in == 0) return NULL;
  return __libc_malloc(n);
}

static size_t in_use(void) { return mallinfo2().uordblks; }

static const char src[] =
    "def sq (x : real) : real = x * x\n"
    "def f (x : real, v : [real], p : real * real) : real =\n"
    "  let s = sum (map (fun (a : real) -> sq a * fst p + exp a) v) in\n"
    "  if x > 0.0 then s * x + sin (snd p) else s - log (1.0 + sq x)\n";

/* export of f to TARGET with the k-th realloc (or malloc) failing (k = 0:
 * none); its bytes in use checked when MEM */
static void export_failing(chad_prog *p, const char *target, long k, const char *whole, int mem) {
  chad_diag d;
  char *out = NULL;
  size_t before = in_use();
  fail_in = k;
  int rc = chad_export(p, "f", target, &out, &d);
  int failed = fail_in == 0 && k > 0; /* the failure was due within the command */
  fail_in = 0;
  int oom = rc == CHAD_EXIT_RUNTIME; /* elaboration's too: the host out of memory is exit 3 */
  CHECKM((rc == 0 && out && strcmp(out, whole) == 0) || (oom && !out && failed && strstr(d.msg, "out of memory")),
         "%s, %s %ld failing: rc %d, output %s: %s", target, fail_malloc ? "malloc" : "realloc", k, rc,
         out ? "given" : "none", d.msg);
  free(out);
  size_t after = in_use();
  if (mem) CHECKM(after == before, "%s, %s %ld failing: %zu bytes in use after, %zu before", target,
                  fail_malloc ? "malloc" : "realloc", k, after, before);
}

/* export of f to each target with each realloc (or malloc) it makes,
 * counted in *seen (at least min), failing in turn */
static void export_each_failing(chad_prog *p, const char *how, long *seen, long min) {
  static const char *const targets[] = {"torch", "adolc"};
  const char *what = fail_malloc ? "malloc" : "realloc";
  for (int t = 0; t < 2; t++) {
    printf("export --to %s%s: each %s of the command failing in turn\n", targets[t], how, what);
    chad_diag d;
    char *whole = NULL;
    CHECK(chad_export(p, "f", targets[t], &whole, &d) == 0 && whole); /* warm-up: caches filled once */
    if (!whole) continue;
    *seen = 0;
    export_failing(p, targets[t], 0, whole, 1);
    long n = *seen;
    CHECKM(n >= min, "%s%s: %ld %ss in an export", targets[t], how, n, what);
    for (long k = 1; k <= n; k++) export_failing(p, targets[t], k, whole, 1);
    free(whole);
  }
}

int main(int argc, char **argv) {
  (void)argc;
  if (!getenv("CHAD_TEST_OOM_NO_TCACHE")) { /* once: again without the cache, so bytes in use are exact */
    const char *t = getenv("GLIBC_TUNABLES");
    char tun[512];
    snprintf(tun, sizeof tun, "%s%sglibc.malloc.tcache_count=0", t ? t : "", t ? ":" : "");
    setenv("GLIBC_TUNABLES", tun, 1);
    setenv("CHAD_TEST_OOM_NO_TCACHE", "1", 1);
    execv("/proc/self/exe", argv);
    perror("test_api_oom: execv /proc/self/exe");
    return 1;
  }
  chad_diag d;
  /* loading (parsing) with each malloc failing in turn: the program or an
   * "out of memory" error with exit code 3, and every byte given back */
  printf("load: each malloc of the command failing in turn\n");
  chad_free(chad_load_string(src, strlen(src), "oom.chad", &d)); /* warm-up */
  fail_malloc = 1;
  for (long k = 1;; k++) {
    size_t before = in_use();
    fail_in = k;
    chad_prog *q = chad_load_string(src, strlen(src), "oom.chad", &d);
    int failed = fail_in == 0;
    fail_in = 0;
    CHECKM(q ? !failed : (failed && d.exit_code == CHAD_EXIT_RUNTIME && strstr(d.msg, "out of memory")),
           "load, malloc %ld failing: %s (exit %d: %s)", k, q ? "loaded" : "refused", q ? 0 : d.exit_code,
           q ? "" : d.msg);
    chad_free(q);
    CHECKM(in_use() == before, "load, malloc %ld failing: %zu bytes in use after, %zu before", k, in_use(), before);
    if (!failed) break; /* every malloc of a load has failed once */
  }
  fail_malloc = 0;
  chad_prog *p = chad_load_string(src, strlen(src), "oom.chad", &d);
  CHECK(p != NULL);
  if (!p) return 1;
  /* each realloc failing in turn (the output buffer grows from 256 bytes);
   * then each malloc, with the calls inlined (the elaboration that copies a
   * called def's body): the error and the bytes in use */
  export_each_failing(p, "", &reallocs, 4);
  chad_set_inline(p, CHAD_INLINE_ALWAYS);
  fail_malloc = 1;
  export_each_failing(p, " --inline", &mallocs, 10);
  fail_malloc = 0;
  chad_free(p);
  /* a command refused for a parameter or result with no JSON form gives
   * back what it allocated for its message (the type printed) */
  printf("eval of a def with a function parameter, then a function result: refused, memory given back\n");
  static const char hsrc[] = "def h (g : real -> real) : real = g 1.0\n"
                             "def k (x : real) : real -> real = fun (y : real) -> x * y\n";
  chad_prog *q = chad_load_string(hsrc, strlen(hsrc), "nojson.chad", &d);
  CHECK(q != NULL);
  static const char *const fns[] = {"h", "k"};
  for (int i = 0; q && i < 2; i++) {
    chad_json a = chad_json_text("[1.0]", "<args>");
    char *out = NULL;
    int rc0 = chad_eval(q, fns[i], &a, &out, &d); /* warm-up */
    free(out);
    out = NULL;
    size_t before = in_use();
    int rc = chad_eval(q, fns[i], &a, &out, &d);
    size_t after = in_use();
    CHECKM(rc0 == CHAD_EXIT_INPUT && rc == CHAD_EXIT_INPUT && !out && strstr(d.msg, "no JSON form"),
           "%s: rc %d: %s", fns[i], rc, d.msg);
    CHECKM(after == before, "%s refused: %zu bytes in use after, %zu before", fns[i], after, before);
    free(out);
  }
  chad_free(q);
  printf("test_api_oom: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
#endif
