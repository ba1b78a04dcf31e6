/* The application memo (src/eval/memo.c) and the merge of linear
 * applications (src/eval/linapp.h), in both evaluators:
 *  - the memo keeps every closure's entry however many closures are applied
 *    (no entry lost to another's), and heap_release drops exactly the entries
 *    put after its mark;
 *  - a step's pending applications, however many, are each remembered;
 *  - N = 120 nested local closures (f x = x^(N+1)): the reverse program
 *    evaluated, then its pullback applied in a second call, as libchad's
 *    users do (the second call nests past the small-stack limit: it is
 *    retried on the large stack after a heap_release); without the memo
 *    and the merge this needs 2^N work, here it must fit a 64 MiB heap. The
 *    forward program likewise (the tangent map's two applications per level
 *    merged). Reference: the closed form (N+1) x^N, to 1e-12 (N+1 rounded
 *    products).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad/chad.h"
#include "chad/eval.h"
#include "chad/fast.h"
#include "eval/heap_internal.h"
#include "eval/memo.h"
#include "unit/test_surface_util.h"

static void test_memo_table(void) {
  heap *h = heap_new((size_t)1 << 30);
  enum { M = 20000 };
  static const value *fn[M], *arg[M], *res[M];
  for (int i = 0; i < M; i++) {
    fn[i] = v_real(h, i);
    arg[i] = v_real(h, -i);
    res[i] = v_real(h, 2.0 * i);
    memo_put(h, fn[i], arg[i], res[i]);
  }
  int all = 1;
  for (int i = 0; i < M; i++) all &= memo_get(h, fn[i], arg[i]) == res[i];
  CHECK(all, "every one of %d closures' entries is kept", M);
  CHECK(memo_get(h, fn[0], arg[1]) == NULL, "another argument: no entry");
  memo_put(h, fn[0], arg[1], res[1]);
  CHECK(memo_get(h, fn[0], arg[1]) == res[1] && memo_get(h, fn[0], arg[0]) == NULL,
        "one entry per closure: the last argument");
  heap_mark_t m = heap_mark(h);
  const value *late = v_real(h, 1.0), *late_arg = v_real(h, 2.0);
  memo_put(h, late, late_arg, late);
  memo_put(h, fn[5], late_arg, late); /* an older closure's entry replaced after the mark */
  CHECK(memo_get(h, late, late_arg) == late, "an entry put after the mark");
  heap_release(h, m);
  all = 1;
  for (int i = 1; i < M; i++) all &= i == 5 || memo_get(h, fn[i], arg[i]) == res[i];
  CHECK(all, "heap_release keeps the entries put before its mark");
  CHECK(memo_get(h, late, late_arg) == NULL && memo_get(h, fn[5], late_arg) == NULL,
        "and drops those put after it");
  heap_free(h);
}

/* The table's spread: closures one after another, or at any power-of-two
 * stride (a closure and an array of 2^k bytes a round), reach their entry
 * in a few slots on average; a hash that kept the address order without
 * rotating its blocks would pile every closure of a stride of cap
 * positions onto one slot. The pointers are never read: only compared. */
static void test_memo_spread(void) {
  enum { M = 20000 };
  static const value *fn[M];
  static value res;
  for (int k = 0; k <= 24; k += 4) {
    heap *h = heap_new((size_t)1 << 30);
    uintptr_t base = (uintptr_t)1 << 40, stride = (uintptr_t)16 << k;
    for (int i = 0; i < M; i++) {
      fn[i] = (const value *)(base + (uintptr_t)i * stride);
      memo_put(h, fn[i], &res, &res);
    }
    size_t probes = 0;
    int all = 1;
    for (int i = 0; i < M; i++) {
      probes += memo_probes(h, fn[i]);
      all &= memo_get(h, fn[i], &res) == &res;
    }
    CHECK(all, "stride 16 << %d: every entry found", k);
    CHECK(probes <= (size_t)3 * M, "stride 16 << %d: %.2f slots a lookup on average (at most 3)", k,
          (double)probes / M);
    heap_free(h);
  }
}

/* A freed heap's table serves the next heap: none of its entries is seen
 * there, even for the same closure and argument pointers (values outside
 * any heap here, so they stay valid across both). */
static void test_memo_kept(int M) {
  /* M = 100: one table of 1024 slots, of the first generation, the one a
   * fresh heap's table starts with */
  static value F[20000], A[20000], R[20000];
  if (M > 20000) M = 20000;
  heap_pool_release();
  heap *a = heap_new((size_t)1 << 30);
  for (int i = 0; i < M; i++) memo_put(a, &F[i], &A[i], &R[i]);
  heap_free(a);
  size_t kept = heap_pool_bytes();
  CHECK(kept >= (size_t)M * 3 * sizeof(void *), "the freed heap's table is kept (%zu bytes)", kept);
  heap *b = heap_new((size_t)1 << 30);
  memo_put(b, &F[0], &A[0], &R[1]); /* b's first entry: takes the kept table */
  CHECK(heap_pool_bytes() < kept, "the next heap takes it");
  int none = 1;
  for (int i = 1; i < M; i++) none &= memo_get(b, &F[i], &A[i]) == NULL;
  CHECK(none, "no entry of the freed heap is seen by the next");
  CHECK(memo_get(b, &F[0], &A[0]) == &R[1], "the next heap's own entry");
  heap_free(b);
  heap_pool_release();
  CHECK(heap_pool_bytes() == 0, "heap_pool_release gives the table back");
}

static int elab(const char *src) {
  chad_diag d;
  surf_program *p = surf_parse_string(src, "memo", &d);
  int t = -1, g;
  int ok = p && surf_elab_def(p, 0, &t, &g, &d) == CHAD_EXIT_OK;
  CHECK(ok, "the program elaborates: %s", d.msg);
  surf_free(p);
  return ok ? t : -1;
}

/* (real, C G) or (real, T G -o real): the real part of a derivative */
static double real_of(heap *h, const value *v) {
  if (v && v->kind == V_PAIR) v = v->u.pair.b; /* C G = unit * real */
  if (v && v->kind == V_ZERO) return 0.0;
  v = fast_export(h, v, NULL);
  return v && v->kind == V_REAL ? v->u.r : NAN;
}

static void test_nested(int n) {
  size_t cap = (size_t)n * 80 + 256;
  char *src = malloc(cap);
  size_t k = (size_t)snprintf(src, cap, "def f (x : real) : real =\n");
  for (int i = 0; i < n; i++) k += (size_t)snprintf(src + k, cap - k, "  let g%d = fun (a%d : real) ->\n", i, i);
  k += (size_t)snprintf(src + k, cap - k, "  x\n");
  for (int i = n - 1; i >= 0; i--) k += (size_t)snprintf(src + k, cap - k, "  * a%d in g%d x\n", i, i);
  int t = elab(src);
  free(src);
  if (t < 0) return;
  int rt = chad_simplify(chad_rev(t)), ft = chad_simplify(chad_fwd(t));
  CHECK(rt >= 0 && ft >= 0, "the transformations succeed");
  if (rt < 0 || ft < 0) return;
  double x = 1.001, want = (n + 1) * pow(x, n);
  for (int fast = 0; fast < 2; fast++) {
    heap *h = heap_new((size_t)64 << 20);
    const env *e = env_push(h, NULL, v_real(h, x));
    eval_error err;
    /* reverse: the pullback in a second call */
    const value *p = fast ? eval_fast_raw(h, rt, e, &err) : eval_ref(h, rt, e, &err);
    const value *g = p && p->kind == V_PAIR
                         ? (fast ? eval_fast_apply_raw(h, p->u.pair.b, v_real(h, 1.0), &err)
                                 : eval_apply(h, p->u.pair.b, v_real(h, 1.0), &err))
                         : NULL;
    double gr = g ? real_of(h, g) : NAN;
    CHECK(g && fabs(gr - want) <= 1e-12 * want, "%s: gradient of %d nested closures in 64 MiB: %.17g, want %.17g (%s)",
          fast ? "fast" : "ref", n, gr, want, g ? "" : err.msg);
    /* forward: the tangent map in a second call, applied to (unit, 1) */
    const value *q = fast ? eval_fast_raw(h, ft, e, &err) : eval_ref(h, ft, e, &err);
    const value *dt = v_pair(h, v_unit(h), v_real(h, 1.0));
    const value *tv = q && q->kind == V_PAIR
                          ? (fast ? eval_fast_apply_raw(h, q->u.pair.b, dt, &err)
                                  : eval_apply(h, q->u.pair.b, dt, &err))
                          : NULL;
    double tr = tv ? real_of(h, tv) : NAN;
    CHECK(tv && fabs(tr - want) <= 1e-12 * want, "%s: JVP of %d nested closures in 64 MiB: %.17g, want %.17g (%s)",
          fast ? "fast" : "ref", n, tr, want, tv ? "" : err.msg);
    heap_free(h);
  }
}

/* The pending applications of one evaluation step (the tail calls it
 * entered), more than fit inline (4) and than the first host buffer (8):
 * the capacity follows the count, and each is remembered with the result. */
static void test_pending(void) {
  heap *h = heap_new((size_t)1 << 24);
  enum { P = 100 };
  const value *fn[P], *arg[P], *res = v_real(h, 7.0);
  memo_pending pd = MEMO_PENDING_INIT;
  int cap_ok = 1;
  for (int i = 0; i < P; i++) {
    fn[i] = v_real(h, i);
    arg[i] = v_real(h, -i);
    memo_pending_push(&pd, fn[i], arg[i]);
    cap_ok &= pd.n == (size_t)i + 1 && pd.cap >= pd.n;
  }
  CHECK(cap_ok, "%d pending applications: the capacity follows the count (n %zu, cap %zu)", P, pd.n, pd.cap);
  memo_pending_done(h, &pd, res);
  int all = 1;
  for (int i = 0; i < P; i++) all &= memo_get(h, fn[i], arg[i]) == res;
  CHECK(all, "each of %d pending applications remembered with the step's result", P);
  heap_free(h);
}

int main(void) {
  surf_test_init();
  chad_init();
  printf("application memo and linear merge: the memo's table, nested closures in both evaluators\n");
  test_memo_table();
  test_memo_spread();
  test_memo_kept(100);
  test_memo_kept(20000);
  test_pending();
  test_nested(120);
  printf("test_eval_memo: %d checks, %d failed\n", n_checks, n_failed);
  return n_failed ? 1 : 0;
}
