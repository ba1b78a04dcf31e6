/* Unit tests of the fast evaluator (src/fast/) against the reference
 * evaluator:
 *  - every program of chad_progs.h, at small and large array sizes, with the
 *    OpenMP threshold at its default and at 0 (every loop parallel): primal
 *    value, and the CHAD reverse (pullback applied to a random cotangent) and
 *    forward (derivative applied to a random tangent) translations;
 *  - array workloads (sum (sin x * x), a build/index program) and that their
 *    loops actually run compiled;
 *  - a memoised map that continues the compile of a delayed build
 *    (prog_adopt_memo): also its value by hand;
 *  - determinism (same bits twice);
 *  - runtime errors (bounds, negative length, division by zero, negative
 *    onehot index, out of memory) reported with the reference exit code and
 *    message.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad/chad.h"
#include "chad/diag.h"
#include "chad/eval.h"
#include "chad/fast.h"
#include "chad/kernel.h"
#include "chad/primitives.h"
#include "unit/chad_progs.h"

#include "check.h"

#define TOL 1e-11

static unsigned long long rng = 88172645463325252ULL;
static double urand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (double)(rng >> 11) / 9007199254740992.0;
}

/* A random primal value of first-order type ty with arrays of length len. */
static const value *rand_val(heap *h, int ty, int len) {
  switch (ty_kind(ty)) {
  case TY_REAL: return v_real(h, 0.5 + urand());
  case TY_INT: return v_int(h, (int64_t)(urand() * len));
  case TY_UNIT: return v_unit(h);
  case TY_PROD: return v_pair(h, rand_val(h, ty_left(ty), len), rand_val(h, ty_right(ty), len));
  case TY_SUM: return urand() < 0.5 ? v_inl(h, rand_val(h, ty_left(ty), len))
                                    : v_inr(h, rand_val(h, ty_right(ty), len));
  case TY_ARR: {
    value *a = v_array(h, len);
    for (int i = 0; i < len; i++) a->u.arr.elems[i] = rand_val(h, ty_left(ty), len);
    return a;
  }
  default: return NULL;
  }
}

/* A random (co)tangent of type T ty shaped like primal. */
static const value *rand_tan(heap *h, int ty, const value *primal) {
  int64_t n = chad_flat_count(ty, primal);
  double *s = malloc(sizeof(double) * (size_t)(n + 1));
  for (int64_t i = 0; i < n; i++) s[i] = urand() - 0.5;
  int64_t pos = 0;
  const value *r = chad_unflatten_tangent(h, ty, primal, s, &pos);
  free(s);
  return r;
}

static int same(heap *h, const value *a, const value *b) {
  if (!a || !b) return 0;
  return v_approx_equal(h, a, b, TOL) == 1;
}

/* Compares eval_fast with eval_ref on the program, its reverse and forward
 * translations, at arrays of length len. */
static void compare_prog(heap *h, const char *name, int t, int len) {
  int g = tm_ctx(t), n = ctx_length(g);
  if (getenv("FAST_TEST_VERBOSE")) fprintf(stderr, "%s len %d heap %zu\n", name, len, heap_used(h));
  const value *parts[16];
  int tys[16];
  for (int i = 0; i < n; i++) { /* declaration order: outermost first */
    int c = g;
    for (int k = 0; k < n - 1 - i; k++) c = ctx_parent(c);
    tys[i] = ctx_last(c);
    parts[i] = rand_val(h, tys[i], len);
  }
  const env *e = chad_params_env(h, n, parts);
  eval_error er, ef;
  const value *vr = eval_ref(h, t, e, &er), *vf = eval_fast(h, t, e, &ef);
  CHECK(vr && vf);
  if (!same(h, vr, vf)) {
    failures++;
    fprintf(stderr, "%s (len %d): primal differs: ", name, len);
    v_fprint(stderr, vr);
    fprintf(stderr, " vs ");
    v_fprint(stderr, vf);
    fprintf(stderr, "\n");
  }
  checks++;
  if (!vr || !vf) return;
  const value *primal_tuple = chad_ctx_tuple_make(h, n, parts);

  /* reverse */
  int rt = chad_rev(t);
  CHECK(rt >= 0);
  if (rt >= 0) {
    const value *pr = eval_ref(h, rt, e, &er), *pf = eval_fast(h, rt, e, &ef);
    CHECK(pr && pf && pr->kind == V_PAIR && pf->kind == V_PAIR);
    if (pr && pf && pr->kind == V_PAIR && pf->kind == V_PAIR) {
      CHECK(same(h, pr->u.pair.a, pf->u.pair.a));
      const value *ct = rand_tan(h, tm_type(t), vr);
      const value *cr = eval_apply(h, pr->u.pair.b, ct, &er);
      const value *cf = eval_fast_apply(h, pf->u.pair.b, ct, &ef);
      CHECK(cr && cf);
      if (cr && cf) {
        const value *dr = v_densify(h, cr, primal_tuple, &er);
        const value *df = v_densify(h, cf, primal_tuple, &ef);
        /* the raw route: the pullback keeps the fast representation
         * (delayed and memoised arrays, unboxed accumulators) */
        const value *praw = eval_fast_raw(h, rt, e, &ef);
        const value *craw = praw ? eval_fast_apply_raw(h, praw->u.pair.b, ct, &ef) : NULL;
        const value *xraw = craw ? fast_export(h, craw, &ef) : NULL;
        const value *draw = xraw ? v_densify(h, xraw, primal_tuple, &ef) : NULL;
        if (!same(h, dr, draw)) {
          failures++;
          fprintf(stderr, "%s (len %d): reverse (raw route) differs\n", name, len);
        }
        checks++;
        if (!same(h, dr, df)) {
          failures++;
          fprintf(stderr, "%s (len %d): reverse differs: ", name, len);
          v_fprint(stderr, dr);
          fprintf(stderr, " vs ");
          v_fprint(stderr, df);
          fprintf(stderr, "\n");
        }
        checks++;
      }
    }
  }
  /* forward */
  int ft = chad_fwd(t);
  CHECK(ft >= 0);
  if (ft >= 0) {
    const value *pr = eval_ref(h, ft, e, &er), *pf = eval_fast(h, ft, e, &ef);
    CHECK(pr && pf && pr->kind == V_PAIR && pf->kind == V_PAIR);
    if (pr && pf && pr->kind == V_PAIR && pf->kind == V_PAIR) {
      CHECK(same(h, pr->u.pair.a, pf->u.pair.a));
      const value *tp[16];
      for (int i = 0; i < n; i++) tp[i] = rand_tan(h, tys[i], parts[i]);
      const value *tan = chad_ctx_tuple_make(h, n, tp);
      const value *tr = eval_apply(h, pr->u.pair.b, tan, &er);
      const value *tf = eval_fast_apply(h, pf->u.pair.b, tan, &ef);
      CHECK(tr && tf);
      if (tr && tf) {
        const value *dr = v_densify(h, tr, vr, &er), *df = v_densify(h, tf, vr, &ef);
        if (!same(h, dr, df)) {
          failures++;
          fprintf(stderr, "%s (len %d): forward differs\n", name, len);
        }
        checks++;
      }
    }
  }
}

/* x : Arr R |- sum (build (length x) (i. sin x[i] * x[i])) */
static int prog_sumsin(void) {
  int g = ext(CTX_EMPTY, A_);
  int gi = ext(g, I_);
  int xi = OK(tm_index(var(gi, 1), var(gi, 0)));
  int el = mul(op1(P_SIN, xi), OK(tm_index(var(gi, 1), var(gi, 0))));
  return OK(tm_sum(OK(tm_build(OK(tm_length(var(g, 0))), el))));
}

/* x : Arr R |- map (z. sin z * z) x, summed with an lsum-free sum */
static int prog_mapsin(void) {
  int g = ext(CTX_EMPTY, A_);
  int gz = ext(g, R_);
  return OK(tm_sum(OK(tm_map(mul(op1(P_SIN, var(gz, 0)), var(gz, 0)), var(g, 0)))));
}

/* A cheap Real build (delayed by the fast evaluator) consumed by generic
 * code: x : Arr R |- let y = build (length x) (i. x[i] * 2) in
 *   dot (y, y) + y[3] + sum (map (z. z * y[1]) y) */
static int prog_delay_uses(void) {
  int g = ext(CTX_EMPTY, A_);
  int gi = ext(g, I_);
  int y = OK(tm_build(OK(tm_length(var(g, 0))), mul(OK(tm_index(var(gi, 1), var(gi, 0))), rc(gi, 2.0))));
  int gy = ext(g, A_);                                    /* y 0, x 1 */
  int gz = ext(gy, R_);                                   /* z 0, y 1, x 2 */
  int d = op2(P_DOT, var(gy, 0), var(gy, 0));
  int y3 = OK(tm_index(var(gy, 0), ic(gy, 3)));
  int m = OK(tm_sum(OK(tm_map(mul(var(gz, 0), OK(tm_index(var(gz, 1), ic(gz, 1)))), var(gy, 0)))));
  return let(y, add(add(d, y3), m));
}

/* Runtime errors: both evaluators fail with the same code and message. */
static void same_error(heap *h, const char *what, int t, const env *e) {
  eval_error er, ef;
  const value *vr = eval_ref(h, t, e, &er), *vf = eval_fast(h, t, e, &ef);
  CHECK(!vr && !vf);
  CHECK(er.exit_code == CHAD_EXIT_RUNTIME && ef.exit_code == CHAD_EXIT_RUNTIME);
  if (strcmp(er.msg, ef.msg) != 0) {
    failures++;
    fprintf(stderr, "%s: messages differ: '%s' vs '%s'\n", what, er.msg, ef.msg);
  }
  checks++;
}

static const value *arr_of(heap *h, int n, double base) {
  value *a = v_array(h, n);
  for (int i = 0; i < n; i++) a->u.arr.elems[i] = v_real(h, base + 0.001 * i);
  return a;
}

/* A map whose body has an expensive call, over a build whose cheap body that
 * cannot fail has expensive calls of its own (so the build is delayed
 * without a check run and its compile is continued by the map's check run),
 * the map's elements pairs (so the map is delayed with a memo):
 *   x : Arr R |- map (p. fst p)
 *                  (map (a. (log (sum a), 1.0))
 *                     (build 20 (i. let y = exp (sin (sum x)) in x)))
 * Every element is log (sum x); the memo of the middle map must hold its own
 * call (log), not the build's (sin, exp): proptest seed 14214800772,
 * program 9426 (its F t and R t). */
static int prog_adopt_memo(void) {
  int g = ext(CTX_EMPTY, A_);                             /* x 0 */
  int gi = ext(g, I_);                                    /* i 0, x 1 */
  int giy = ext(gi, R_);                                  /* y 0, i 1, x 2 */
  int y = op1(P_EXP, op1(P_SIN, OK(tm_sum(var(gi, 1)))));
  int b = OK(tm_build(ic(g, 20), let(y, var(giy, 2))));
  int ga = ext(g, A_);                                    /* a 0, x 1 */
  int m1 = OK(tm_map(OK(tm_pair(op1(P_LOG, OK(tm_sum(var(ga, 0)))), rc(ga, 1.0))), b));
  int gp = ext(g, ty_prod(R_, R_));                       /* p 0, x 1 */
  return OK(tm_map(OK(tm_fst(var(gp, 0))), m1));
}

/* The value of prog_adopt_memo by hand: the delayed array's memo replay
 * must load log (sum x), not sin (sum x) or exp (sin (sum x)). */
static void test_adopt_memo(heap *h) {
  int t = prog_adopt_memo();
  const value *x = arr_of(h, 3, 0.5); /* sum 1.503 */
  const env *e = env_push(h, NULL, x);
  double want = log(0.5 + 0.501 + 0.502);
  for (int lm = 0; lm < 2; lm++) {
    fast_set_loop_min(lm ? 0 : 16);
    eval_error ef;
    const value *vf = eval_fast(h, t, e, &ef);
    CHECK(vf && vf->kind == V_ARRAY && vf->u.arr.n == 20);
    if (vf && vf->kind == V_ARRAY)
      for (int64_t i = 0; i < vf->u.arr.n; i++) {
        const value *el = vf->u.arr.elems[i];
        CHECK(el->kind == V_REAL && fabs(el->u.r - want) <= 1e-15);
        if (el->kind == V_REAL && fabs(el->u.r - want) > 1e-15) {
          fprintf(stderr, "adopt_memo (loop min %d): element %lld is %.17g, want %.17g\n", lm ? 0 : 16,
                  (long long)i, el->u.r, want);
          break;
        }
      }
  }
  fast_set_loop_min(16);
}

static void test_errors(heap *h) {
  int big = 5000;
  const value *x = arr_of(h, big, 0.1);
  const env *e = env_push(h, NULL, x);
  int g = ext(CTX_EMPTY, A_), gi = ext(g, I_);
  /* build (length x) (i. x[i+1]) : out of bounds at the last element */
  int el = OK(tm_index(var(gi, 1), op2(P_IADD, var(gi, 0), ic(gi, 1))));
  same_error(h, "bounds", OK(tm_build(OK(tm_length(var(g, 0))), el)), e);
  same_error(h, "bounds in sum", OK(tm_sum(OK(tm_build(OK(tm_length(var(g, 0))), el)))), e);
  /* negative length */
  same_error(h, "negative length", OK(tm_build(ic(g, -3), rc(gi, 1.0))), e);
  /* integer division by zero inside a compiled body: 1 / (i - 4000) */
  int q = op2(P_IDIV, ic(gi, 1), op2(P_ISUB, var(gi, 0), ic(gi, 4000)));
  same_error(h, "idiv", OK(tm_build(OK(tm_length(var(g, 0))), op1(P_TOREAL, q))), e);
  /* negative onehot index in an lsum: lsum n (i. onehot (i - 10) 1.0) */
  int oh = OK(tm_onehot(op2(P_ISUB, var(gi, 0), ic(gi, 10)), rc(gi, 1.0)));
  same_error(h, "onehot", OK(tm_lsum(OK(tm_length(var(g, 0))), oh)), e);
  /* dense-backed sparse cotangents (an lsum of onehots, compiled) used in
   * every way the reference allows and forbids:
   * s = lsum n (i. onehot (i + 3) x[i]) */
  {
    int gs = ext(g, ty_arr(R_));                          /* s 0, x 1 */
    int gsi = ext(gs, I_);                                /* i 0, s 1, x 2 */
    int sterm = OK(tm_lsum(OK(tm_length(var(g, 0))),
                           OK(tm_onehot(op2(P_IADD, var(gi, 0), ic(gi, 3)),
                                        OK(tm_index(var(gi, 1), var(gi, 0)))))));
    int dense = OK(tm_build(OK(tm_length(var(gs, 1))), rc(gsi, 1.0)));
    int dense_long = OK(tm_build(op2(P_IADD, OK(tm_length(var(gs, 1))), ic(gs, 3)), rc(gsi, 1.0)));
    /* in bounds: s + (a dense array 3 longer), s[2], s[n+2], s[n+10] */
    int ok_use = OK(tm_pair(OK(tm_plus(var(gs, 0), dense_long)),
                 OK(tm_pair(OK(tm_index(var(gs, 0), ic(gs, 2))),
                 OK(tm_pair(OK(tm_index(var(gs, 0), op2(P_IADD, OK(tm_length(var(gs, 1))), ic(gs, 2)))),
                            OK(tm_index(var(gs, 0), op2(P_IADD, OK(tm_length(var(gs, 1))), ic(gs, 10))))))))));
    int t_ok = let(sterm, ok_use);
    eval_error er, ef;
    const value *vr = eval_ref(h, t_ok, e, &er), *vf = eval_fast(h, t_ok, e, &ef);
    CHECK(vr && vf && same(h, vr, vf));
    /* plus with a dense array too short for the largest index */
    same_error(h, "sparse + short dense", let(sterm, OK(tm_plus(var(gs, 0), dense))), e);
    /* length and map of a length-free cotangent */
    same_error(h, "length of sparse", let(sterm, OK(tm_length(var(gs, 0)))), e);
    int gz = ext(gs, R_);
    same_error(h, "map over sparse", let(sterm, OK(tm_map(var(gz, 0), var(gs, 0)))), e);
    same_error(h, "negative index of sparse", let(sterm, OK(tm_index(var(gs, 0), ic(gs, -1)))), e);
  }
  /* onehots far beyond the loop (i * 1000003): the compiled lsum gives up
   * (its dense accumulator would be huge) and the sparse generic path runs */
  {
    int far = OK(tm_lsum(OK(tm_length(var(g, 0))),
                         OK(tm_onehot(op2(P_IMUL, var(gi, 0), ic(gi, 1000003)), rc(gi, 1.5)))));
    eval_error er, ef;
    const value *vr = eval_ref(h, far, e, &er), *vf = eval_fast(h, far, e, &ef);
    CHECK(vr && vf && same(h, vr, vf));
  }
  /* out of memory: a tiny heap */
  heap *small = heap_new(64 * 1024);
  const value *xs = arr_of(h, big, 0.1); /* lives in h */
  const env *es = env_push(small, NULL, xs);
  eval_error ef;
  const value *r = eval_fast(small, OK(tm_build(OK(tm_length(var(g, 0))), OK(tm_index(var(gi, 1), var(gi, 0))))), es, &ef);
  CHECK(!r && ef.exit_code == CHAD_EXIT_RUNTIME && strstr(ef.msg, "out of memory"));
  heap_free(small);
}

static void test_workloads(heap *h) {
  int ts[2] = {prog_sumsin(), prog_mapsin()};
  for (int k = 0; k < 2; k++) {
    const value *x = arr_of(h, 100000, -2.0);
    const env *e = env_push(h, NULL, x);
    eval_error er, ef;
    fast_stats_reset();
    const value *vr = eval_ref(h, ts[k], e, &er), *vf = eval_fast(h, ts[k], e, &ef);
    fast_stats st;
    fast_stats_get(&st);
    CHECK(vr && vf && same(h, vr, vf));
    CHECK(st.compiled_loops >= 1 && st.generic_loops == 0);
    /* gradient through CHAD reverse, compiled: lsum accumulates densely */
    int rt = chad_rev(ts[k]);
    /* raw: the pullback closure keeps the fast representation (delayed
     * arrays, unboxed arrays) that an exported closure would lose */
    const value *pr = eval_ref(h, rt, e, &er), *pf = eval_fast_raw(h, rt, e, &ef);
    const value *one = v_real(h, 1.0);
    fast_stats_reset();
    const value *gf = fast_export(h, eval_fast_apply_raw(h, pf->u.pair.b, one, &ef), &ef);
    fast_stats_get(&st);
    const value *gr = eval_apply(h, pr->u.pair.b, one, &er);
    const value *shape = v_pair(h, v_unit(h), x);
    CHECK(gr && gf && same(h, v_densify(h, gr, shape, &er), v_densify(h, gf, shape, &ef)));
    CHECK(st.generic_loops == 0);
    if (st.generic_loops) fprintf(stderr, "workload %d: %lld generic loops in the gradient\n", k, (long long)st.generic_loops);
    /* determinism: the same bits twice (all loops parallel) */
    fast_set_par_threshold(0);
    const value *a1 = eval_fast(h, ts[k], e, &ef), *a2 = eval_fast(h, ts[k], e, &ef);
    CHECK(a1 && a2 && a1->kind == V_REAL && a2->kind == V_REAL && a1->u.r == a2->u.r);
    fast_set_par_threshold(32768);
  }
}

int main(void) {
  prog_setup();
  heap *h = heap_new((size_t)1 << 31);
  prog ps[N_PROGS];
  int np = build_progs(ps);
  int lens[3] = {1, 7, 3000};
  for (int th = 0; th < 2; th++) {
    fast_set_par_threshold(th ? 0 : 32768);
    for (int i = 0; i < np; i++)
      for (int l = 0; l < 3; l++) {
        int len = lens[l];
        if ((!strcmp(ps[i].name, "nested") || !strcmp(ps[i].name, "array_prims")) && len > 100) len = 60;
        compare_prog(h, ps[i].name, ps[i].term, len);
      }
  }
  fast_set_par_threshold(32768);
  compare_prog(h, "sumsin", prog_sumsin(), 5000);
  compare_prog(h, "mapsin", prog_mapsin(), 5000);
  compare_prog(h, "delay_uses", prog_delay_uses(), 5000);
  fast_set_par_threshold(0);
  compare_prog(h, "sumsin (parallel)", prog_sumsin(), 5000);
  for (int i = 0; i < np; i++)
    if (!strcmp(ps[i].name, "build_index") || !strcmp(ps[i].name, "map_sum"))
      compare_prog(h, ps[i].name, ps[i].term, 5000);
  compare_prog(h, "delay_uses (parallel)", prog_delay_uses(), 5000);
  fast_set_par_threshold(32768);
  for (int l = 0; l < 3; l++) compare_prog(h, "adopt_memo", prog_adopt_memo(), lens[l]);
  test_adopt_memo(h);
  test_workloads(h);
  test_errors(h);
  heap_free(h);
  printf("test_fast: %d checks, %d failures (eval_fast vs eval_ref on %d programs (raw and exported routes), "
         "reverse and forward CHAD, errors, determinism)\n",
         checks, failures, np + 4);
  return failures ? 1 : 0;
}
