/* Unit tests of the reference evaluator (src/eval/eval.c) on terms built with
 * the kernel constructors: the value of every term kind, source and target
 * (zero/plus at every linear type, sparse onehot accumulation, bags, lsum,
 * linear functions, Dop/DopT), and every runtime error message. */
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chad/diag.h"
#include "chad/eval.h"
#include "chad/kernel.h"
#include "chad/primitives.h"

#include "check.h"

/* the nesting limit these tests were written for (eval_set_max_depth) */
#define LIMIT 100000

/* A term constructor that must succeed. */
static int ok_(int t, int line) {
  if (t < 0) {
    fprintf(stderr, "%s:%d: term constructor failed (%d)\n", __FILE__, line, t);
    exit(2);
  }
  return t;
}
#define T(x) ok_((x), __LINE__)

static heap *H;
static int R, I, U, AR;

static const value *run(int t) {
  eval_error err;
  const value *v = eval_ref(H, t, NULL, &err);
  if (!v) fprintf(stderr, "  unexpected runtime error: %s\n", err.msg);
  CHECK(v != NULL);
  CHECK(v == NULL || err.exit_code == CHAD_EXIT_OK);
  return v;
}

static double run_real(int t) {
  const value *v = run(t);
  return v && v->kind == V_REAL ? v->u.r : (v && v->kind == V_ZERO ? 0.0 : NAN);
}

static int64_t run_int(int t) {
  const value *v = run(t);
  return v && v->kind == V_INT ? v->u.i : -999999;
}

/* Evaluating t fails with a runtime error whose message contains want. */
static int fails_with(int t, const char *want) {
  eval_error err;
  const value *v = eval_ref(H, t, NULL, &err);
  int ok = v == NULL && err.exit_code == CHAD_EXIT_RUNTIME && strstr(err.msg, want) != NULL &&
           err.term >= 0 && err.term <= t;
  if (!ok) fprintf(stderr, "  expected error \"%s\", got \"%s\"\n", want, v ? "(a value)" : err.msg);
  return ok;
}

static const value *R_(double x) { return v_real(H, x); }
static const value *reals(int n, const double *xs) {
  value *a = v_array(H, n);
  for (int i = 0; i < n; i++) a->u.arr.elems[i] = v_real(H, xs[i]);
  return a;
}

static int rc(int g, double r) { return T(tm_rconst(g, r)); }
static int ic(int g, int64_t n) { return T(tm_iconst(g, n)); }
static int op2(int op, int a, int b) { return T(tm_op(op, T(tm_pair(a, b)))); }
static int var(int g, int k) { return T(tm_var(g, k)); }

/* build n (i. toreal i * scale) in context g */
static int iota(int g, int64_t n, double scale) {
  int gi = ctx_extend(g, I);
  int body = op2(P_MUL, T(tm_op(P_TOREAL, var(gi, 0))), rc(gi, scale));
  return T(tm_build(ic(g, n), body));
}

/* A program around a body neg (... neg base): wrap(body, ctx). */
typedef int (*deep_wrap)(int body, const void *ctx);

/* \y. body applied to 1.0 (body in the context of y) */
static int apply_to_one(int body, const void *ctx) {
  (void)ctx;
  return T(tm_lapp(T(tm_llam(R, body)), rc(CTX_EMPTY, 1)));
}

/* wrap(neg (... neg base)), n negations: the smallest n from LIMIT
 * - 20 on at which it first exceeds the reference evaluator's nesting limit
 * (-1 if none within 40), with the bodies one and two levels shallower in
 * *prev1, *prev2. */
static int first_too_deep(int base, deep_wrap wrap, const void *ctx, int *prev1, int *prev2) {
  int body = base, n1 = -1;
  *prev1 = *prev2 = -1;
  for (int k = 0; k < LIMIT - 20; k++) body = T(tm_op(P_NEG, body));
  for (int n = LIMIT - 20; n < LIMIT + 20 && n1 < 0; n++) {
    eval_error e1;
    if (!eval_ref(H, wrap(body, ctx), NULL, &e1) && strstr(e1.msg, "nested deeper than the limit"))
      n1 = n;
    else {
      *prev2 = *prev1;
      *prev1 = body;
      body = T(tm_op(P_NEG, body));
    }
  }
  return n1;
}

/* the right operand of the fallback test below: (\y. body, [1, 2, 3]) in
 * the context of f, and `let f = F in f <| that` */
typedef struct fallback_ctx { int F, gF; } fallback_ctx;
static int fallback_arg(int body, int gF) {
  return T(tm_pair(T(tm_lam(R, body)), iota(gF, 3, 1)));
}
static int fallback_alone(int body, const void *ctx) {
  const fallback_ctx *c = ctx;
  return T(tm_let(c->F, T(tm_lapp(var(c->gF, 0), fallback_arg(body, c->gF)))));
}

/* ---- source constructs ---------------------------------------------------- */

static void test_source(void) {
  printf("source terms: var let lam app unit pair fst snd inl inr case consts op\n");
  int g0 = CTX_EMPTY, gR = ctx_extend(g0, R), gRR = ctx_extend(gR, R);
  /* let x = 2 in let y = 3 in x - y  == -1 (de Bruijn: x = 1, y = 0) */
  int t = T(tm_let(rc(g0, 2), T(tm_let(rc(gR, 3), op2(P_SUB, var(gRR, 1), var(gRR, 0))))));
  CHECK(run_real(t) == -1.0);
  /* (\x. x * x) 3 == 9 */
  int sq = T(tm_lam(R, op2(P_MUL, var(gR, 0), var(gR, 0))));
  CHECK(run_real(T(tm_app(sq, rc(g0, 3)))) == 9.0);
  /* closures capture their environment: let a = 10 in (\x. x + a) 1 == 11 */
  int addA = T(tm_lam(R, op2(P_ADD, var(gRR, 0), var(gRR, 1))));
  CHECK(run_real(T(tm_let(rc(g0, 10), T(tm_app(addA, rc(gR, 1)))))) == 11.0);
  const value *u = run(T(tm_unit(g0)));
  CHECK(u && u->kind == V_UNIT);
  int p = T(tm_pair(rc(g0, 1.5), ic(g0, 7)));
  CHECK(run_real(T(tm_fst(p))) == 1.5);
  CHECK(run_int(T(tm_snd(p))) == 7);
  const value *pv = run(p);
  CHECK(pv && pv->kind == V_PAIR && pv->u.pair.a->u.r == 1.5 && pv->u.pair.b->u.i == 7);
  /* case inl 4 of inl a -> a * 2 | inr b -> toreal b  == 8; inr 5 -> 5 */
  int gI = ctx_extend(g0, I);
  int onL = op2(P_MUL, var(gR, 0), rc(gR, 2)), onR = T(tm_op(P_TOREAL, var(gI, 0)));
  CHECK(run_real(T(tm_case(T(tm_inl(rc(g0, 4), I)), onL, onR))) == 8.0);
  CHECK(run_real(T(tm_case(T(tm_inr(R, ic(g0, 5))), onL, onR))) == 5.0);
  const value *lv = run(T(tm_inl(rc(g0, 4), I)));
  CHECK(lv && lv->kind == V_INL && lv->u.pair.a->u.r == 4.0);
  const value *rv = run(T(tm_inr(R, ic(g0, 5))));
  CHECK(rv && rv->kind == V_INR && rv->u.pair.a->u.i == 5);
  /* comparison drives case: if 1 < 2 then 10 else 20 */
  int gU = ctx_extend(g0, U);
  int cmp = op2(P_LT, rc(g0, 1), rc(g0, 2));
  CHECK(run_real(T(tm_case(cmp, rc(gU, 10), rc(gU, 20)))) == 10.0);
  CHECK(run_int(op2(P_IADD, ic(g0, 40), ic(g0, 2))) == 42);
  CHECK(run_real(T(tm_rconst(g0, -0.25))) == -0.25);
  /* higher order: (\f. f (f 2)) sq == 16 */
  int F = ty_fun(R, R), gF = ctx_extend(g0, F);
  int twice = T(tm_lam(F, T(tm_app(var(gF, 0), T(tm_app(var(gF, 0), rc(gF, 2)))))));
  CHECK(run_real(T(tm_app(twice, sq))) == 16.0);
}

static void test_arrays(void) {
  printf("source terms: iter loop build index length map sum\n");
  int g0 = CTX_EMPTY, gR = ctx_extend(g0, R);
  /* iter 10 (x. x * 2) 1 == 1024; iter 0 returns init */
  int dbl = op2(P_MUL, var(gR, 0), rc(gR, 2));
  CHECK(run_real(T(tm_iter(ic(g0, 10), dbl, rc(g0, 1)))) == 1024.0);
  CHECK(run_real(T(tm_iter(ic(g0, 0), dbl, rc(g0, 3)))) == 3.0);
  /* loop n (x. if x < 100 then inl (x * 2) else inr x) 1: stops at 128
   * after 8 rounds of going on; with 7 rounds of fuel it runs out */
  int RsR = ty_sum(R, R), gRU = ctx_extend(gR, U);
  int go = T(tm_inl(op2(P_MUL, var(gRU, 1), rc(gRU, 2)), R));
  int stop = T(tm_inr(R, var(gRU, 1)));
  int lbody = T(tm_case(op2(P_LT, var(gR, 0), rc(gR, 100)), go, stop));
  CHECK(tm_type(lbody) == RsR);
  CHECK(run_real(T(tm_loop(ic(g0, 8), lbody, rc(g0, 1)))) == 128.0);
  CHECK(run_real(T(tm_loop(ic(g0, 1000), lbody, rc(g0, 1)))) == 128.0);
  CHECK(run_real(T(tm_loop(ic(g0, 1), lbody, rc(g0, 300)))) == 300.0);
  CHECK(fails_with(T(tm_loop(ic(g0, 7), lbody, rc(g0, 1))), "loop ran out of fuel (7 rounds)"));
  CHECK(fails_with(T(tm_loop(ic(g0, 0), lbody, rc(g0, 300))), "loop ran out of fuel (0 rounds)"));
  CHECK(fails_with(T(tm_loop(ic(g0, -2), lbody, rc(g0, 1))), "loop: negative fuel -2"));
  int a = iota(g0, 5, 1.5); /* [0, 1.5, 3, 4.5, 6] */
  const value *av = run(a);
  CHECK(av && av->kind == V_ARRAY && av->u.arr.n == 5 && av->u.arr.elems[4]->u.r == 6.0);
  CHECK(run_real(T(tm_index(a, ic(g0, 3)))) == 4.5);
  CHECK(run_int(T(tm_length(a))) == 5);
  CHECK(run_real(T(tm_sum(a))) == 15.0);
  const value *e = run(iota(g0, 0, 1));
  CHECK(e && e->kind == V_ARRAY && e->u.arr.n == 0);
  CHECK(run_real(T(tm_sum(iota(g0, 0, 1)))) == 0.0);
  /* map (x. x * x) a, summed: 0 + 2.25 + 9 + 20.25 + 36 = 67.5 */
  int m = T(tm_map(op2(P_MUL, var(gR, 0), var(gR, 0)), a));
  CHECK(run_real(T(tm_sum(m))) == 67.5);
  /* the loop variable of build is the index */
  int gI = ctx_extend(g0, I);
  const value *bi = run(T(tm_build(ic(g0, 3), var(gI, 0))));
  CHECK(bi && bi->u.arr.n == 3 && bi->u.arr.elems[2]->kind == V_INT && bi->u.arr.elems[2]->u.i == 2);
  /* matrices: build 2 (i. build 3 (j. i*10+j)) and matvec */
  int gII = ctx_extend(gI, I);
  int entry = T(tm_op(P_TOREAL, op2(P_IADD, op2(P_IMUL, var(gII, 1), ic(gII, 10)), var(gII, 0))));
  int M = T(tm_build(ic(g0, 2), T(tm_build(ic(gI, 3), entry))));
  int mv = op2(P_MATVEC, M, iota(g0, 3, 1));
  const value *mvv = run(mv);
  CHECK(mvv && mvv->u.arr.n == 2 && mvv->u.arr.elems[0]->u.r == 5.0 &&
        mvv->u.arr.elems[1]->u.r == 35.0);
}

/* ---- target constructs ------------------------------------------------------ */

static void test_zero_plus(void) {
  printf("target terms: zero and plus at every linear type\n");
  int g0 = CTX_EMPTY, gR = ctx_extend(g0, R);
  int RR = ty_prod(R, R), FR = ty_fun(R, R), LR = ty_lfun(R, R), CP = ty_copow(R, R);
  int types[] = {R, U, RR, AR, FR, LR, CP, ty_arr(ty_prod(R, AR))};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
    const value *z = run(T(tm_zero(g0, types[i])));
    CHECK(z && z->kind == V_ZERO);
    /* zero + zero = zero */
    const value *zz = run(T(tm_plus(T(tm_zero(g0, types[i])), T(tm_zero(g0, types[i])))));
    CHECK(zz && v_is_zero(H, zz));
  }
  CHECK(!v_is_zero(H, NULL)); /* no value denotes no zero */
  /* Real */
  CHECK(run_real(T(tm_plus(rc(g0, 1.25), rc(g0, 2)))) == 3.25);
  CHECK(run_real(T(tm_plus(T(tm_zero(g0, R)), rc(g0, 2)))) == 2.0);
  /* Unit */
  const value *uu = run(T(tm_plus(T(tm_unit(g0)), T(tm_unit(g0)))));
  CHECK(uu && (uu->kind == V_UNIT || uu->kind == V_ZERO));
  /* pairs, with zero components and projections of zero */
  int p1 = T(tm_pair(rc(g0, 1), T(tm_zero(g0, R))));
  int p2 = T(tm_pair(rc(g0, 2), rc(g0, 5)));
  const value *pp = run(T(tm_plus(p1, p2)));
  CHECK(pp && pp->kind == V_PAIR && pp->u.pair.a->u.r == 3.0 && pp->u.pair.b->u.r == 5.0);
  CHECK(run_real(T(tm_fst(T(tm_zero(g0, RR))))) == 0.0);
  const value *sz = run(T(tm_snd(T(tm_zero(g0, RR)))));
  CHECK(sz && sz->kind == V_ZERO);
  /* arrays: dense + dense, dense + sparse, sparse + sparse, zero + dense */
  const value *dd = run(T(tm_plus(iota(g0, 3, 1), iota(g0, 3, 10))));
  double want1[] = {0, 11, 22};
  CHECK(dd && v_approx_equal(H, dd, reals(3, want1), 0) == 1 && dd->kind == V_ARRAY);
  int oh = T(tm_onehot(ic(g0, 1), rc(g0, 100)));
  const value *ds = run(T(tm_plus(iota(g0, 3, 1), oh)));
  double want2[] = {0, 101, 2};
  CHECK(ds && ds->kind == V_ARRAY && v_approx_equal(H, ds, reals(3, want2), 0) == 1);
  const value *sd = run(T(tm_plus(oh, iota(g0, 3, 1))));
  CHECK(sd && sd->kind == V_ARRAY && v_approx_equal(H, sd, reals(3, want2), 0) == 1);
  const value *ss = run(T(tm_plus(oh, T(tm_onehot(ic(g0, 1), rc(g0, 5))))));
  CHECK(ss && ss->kind == V_SPARSE && ss->u.entries.count == 2);
  const value *ssi = run(T(tm_index(T(tm_plus(oh, T(tm_onehot(ic(g0, 1), rc(g0, 5))))), ic(g0, 1))));
  CHECK(ssi && ssi->kind == V_REAL && ssi->u.r == 105.0);
  const value *zd = run(T(tm_plus(T(tm_zero(g0, AR)), iota(g0, 2, 1))));
  CHECK(zd && zd->kind == V_ARRAY && zd->u.arr.n == 2);
  /* power R -> R: pointwise sum of closures, applied */
  int sq = T(tm_lam(R, op2(P_MUL, var(gR, 0), var(gR, 0))));
  int tw = T(tm_lam(R, op2(P_MUL, var(gR, 0), rc(gR, 2))));
  int fsum = T(tm_plus(sq, tw));
  CHECK(run_real(T(tm_app(fsum, rc(g0, 3)))) == 15.0);
  CHECK(run_real(T(tm_app(T(tm_plus(fsum, T(tm_zero(g0, FR)))), rc(g0, 3)))) == 15.0);
  CHECK(run_real(T(tm_app(T(tm_zero(g0, FR)), rc(g0, 3)))) == 0.0);
  /* linear functions R -o R */
  int l3 = T(tm_llam(R, op2(P_MUL, rc(gR, 3), var(gR, 0))));
  int l4 = T(tm_llam(R, op2(P_MUL, var(gR, 0), rc(gR, 4))));
  CHECK(run_real(T(tm_lapp(T(tm_plus(l3, l4)), rc(g0, 2)))) == 14.0);
  CHECK(run_real(T(tm_lapp(l3, rc(g0, 2)))) == 6.0);
  const value *lz = run(T(tm_lapp(T(tm_zero(g0, LR)), rc(g0, 2))));
  CHECK(lz && lz->kind == V_ZERO);
  /* copower: bags concatenate; cp_fold sums the body over the bag */
  int b1 = T(tm_cp_single(rc(g0, 1), rc(g0, 2)));
  int b2 = T(tm_cp_single(rc(g0, 3), rc(g0, 4)));
  int bag = T(tm_plus(b1, b2));
  const value *bv = run(bag);
  CHECK(bv && bv->kind == V_BAG && bv->u.entries.count == 2);
  int gRR = ctx_extend(gR, R); /* ((G, x:R), v:R): v = 0, x = 1 */
  int fold_body = op2(P_SUB, op2(P_MUL, var(gRR, 1), var(gRR, 0)), var(gRR, 0));
  CHECK(run_real(T(tm_cp_fold(bag, fold_body))) == (1 * 2 - 2) + (3 * 4 - 4));
  CHECK(run_real(T(tm_cp_fold(T(tm_zero(g0, CP)), fold_body))) == 0.0);
  const value *bz = run(T(tm_plus(b1, T(tm_zero(g0, CP)))));
  CHECK(bz && bz->kind == V_BAG && bz->u.entries.count == 1);
  /* comparing bags of bags (lists spliced into lists, walked with a host
   * stack) frees what it allocates: repeated, it leaves the bytes in use as
   * they were (glibc's count of its own allocations; under ASan, whose
   * allocator glibc does not count, LeakSanitizer checks the same at exit) */
  int bb = T(tm_plus(T(tm_plus(bag, b1)), T(tm_plus(b2, bag))));
  const value *bbv = run(T(tm_plus(bb, bb))), *bbw = run(T(tm_plus(bb, bb)));
  CHECK(bbv && bbw && bbv->kind == V_BAG && bbv->u.entries.count == 12);
  CHECK(bbv && bbw && v_approx_equal(H, bbv, bbw, 0) == 1);
  size_t before = mallinfo2().uordblks;
  for (int k = 0; k < 50; k++) CHECK(bbv && bbw && v_approx_equal(H, bbv, bbw, 0) == 1);
  CHECK(mallinfo2().uordblks == before);
}

static void test_linear_ops(void) {
  printf("target terms: lsum, onehot, index of zero/sparse, lop_d, lop_dt\n");
  int g0 = CTX_EMPTY, gI = ctx_extend(g0, I);
  /* lsum 0 is zero; lsum 4 (i. toreal i) = 6 */
  const value *z = run(T(tm_lsum(ic(g0, 0), T(tm_op(P_TOREAL, var(gI, 0))))));
  CHECK(z && z->kind == V_ZERO);
  CHECK(run_real(T(tm_lsum(ic(g0, 4), T(tm_op(P_TOREAL, var(gI, 0)))))) == 6.0);
  /* lsum 4 (i. onehot i (toreal i * 2)) densifies to [0, 2, 4, 6] */
  int oh = T(tm_onehot(var(gI, 0), op2(P_MUL, T(tm_op(P_TOREAL, var(gI, 0))), rc(gI, 2))));
  const value *acc = run(T(tm_lsum(ic(g0, 4), oh)));
  CHECK(acc && acc->kind == V_SPARSE && acc->u.entries.count == 4);
  eval_error err;
  const value *shape = run(iota(g0, 4, 0));
  const value *dense = v_densify(H, acc, shape, &err);
  double want[] = {0, 2, 4, 6};
  CHECK(dense && dense->kind == V_ARRAY && v_approx_equal(H, dense, reals(4, want), 0) == 1);
  /* index of zero is zero; index of sparse sums matching entries */
  const value *iz = run(T(tm_index(T(tm_zero(g0, AR)), ic(g0, 7))));
  CHECK(iz && iz->kind == V_ZERO);
  CHECK(run_real(T(tm_index(T(tm_lsum(ic(g0, 4), oh)), ic(g0, 3)))) == 6.0);
  CHECK(run_real(T(tm_index(T(tm_lsum(ic(g0, 4), oh)), ic(g0, 9)))) == 0.0);
  CHECK(run_real(T(tm_sum(T(tm_lsum(ic(g0, 4), oh))))) == 12.0);
  CHECK(run_real(T(tm_sum(T(tm_zero(g0, AR))))) == 0.0);
  /* lop_d / lop_dt of mul at (2, 3) */
  int x = T(tm_pair(rc(g0, 2), rc(g0, 3)));
  CHECK(run_real(T(tm_lop_d(P_MUL, x, T(tm_pair(rc(g0, 1), rc(g0, 0)))))) == 3.0);
  CHECK(run_real(T(tm_lop_d(P_MUL, x, T(tm_pair(rc(g0, 0), rc(g0, 1)))))) == 2.0);
  const value *ct = run(T(tm_lop_dt(P_MUL, x, rc(g0, 10))));
  CHECK(ct && ct->kind == V_PAIR && ct->u.pair.a->u.r == 30.0 && ct->u.pair.b->u.r == 20.0);
  const value *dz = run(T(tm_lop_d(P_SIN, rc(g0, 1), T(tm_zero(g0, R)))));
  CHECK(dz && v_is_zero(H, dz));
  /* Dop of an array kernel with a sparse tangent */
  int vx = T(tm_pair(iota(g0, 3, 1), iota(g0, 3, 2)));
  int dvx = T(tm_pair(T(tm_onehot(ic(g0, 2), rc(g0, 1))), T(tm_zero(g0, AR))));
  CHECK(run_real(T(tm_lop_d(P_DOT, vx, dvx))) == 4.0); /* d/da2 (a.b) = b2 = 4 */
}

/* Reverse-mode pattern: ct = lsum n (i. onehot i (w i)), then read back with
 * build n (i. ct[i]). Both must stay near linear (no O(n^2)). */
static void test_sparse_scaling(void) {
  printf("sparse accumulation: lsum of n onehots and n reads stay near linear\n");
  int g0 = CTX_EMPTY, gI = ctx_extend(g0, I);
  const int64_t n = 200000;
  int oh = T(tm_onehot(var(gI, 0), T(tm_op(P_TOREAL, var(gI, 0)))));
  int acc = T(tm_lsum(ic(g0, n), oh));
  size_t before = heap_used(H);
  clock_t t0 = clock();
  const value *av = run(acc);
  CHECK(av && av->kind == V_SPARSE && av->u.entries.count == n);
  CHECK(heap_used(H) - before < (size_t)n * 256); /* O(1) memory per entry */
  /* let ct = acc in build n (i. ct[i] * 2) summed: 2 * n(n-1)/2 */
  int gA = ctx_extend(g0, AR), gAI = ctx_extend(gA, I);
  int rd = T(tm_build(ic(gA, n), op2(P_MUL, T(tm_index(var(gAI, 1), var(gAI, 0))), rc(gAI, 2))));
  double s = run_real(T(tm_let(acc, T(tm_sum(rd)))));
  CHECK(s == (double)n * (double)(n - 1));
  double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  /* speed is measured in bench/, not asserted here (the machine is shared);
   * the memory bound above is the deterministic check of O(1) per entry */
  printf("  n = %lld: %.2f s\n", (long long)n, secs);
  /* a long left-nested sum of large sparse values (splices) iterates fine */
  const value *big = v_zero(H);
  for (int k = 0; k < 20000 && big; k++) {
    const value *part = v_zero(H);
    for (int j = 0; j < 6; j++) part = v_plus(H, part, v_onehot(H, j, R_(1), NULL), NULL);
    big = v_plus(H, big, part, NULL);
  }
  CHECK(big && big->kind == V_SPARSE && big->u.entries.count == 120000);
  eval_error err;
  const value *d = v_densify(H, big, reals(6, (double[]){0, 0, 0, 0, 0, 0}), &err);
  CHECK(d && d->u.arr.elems[5]->u.r == 20000.0);
}

static void test_apply_and_utils(void) {
  printf("eval_apply, densify, equality, dot, printing, heap limit\n");
  int g0 = CTX_EMPTY, gR = ctx_extend(g0, R);
  eval_error err;
  const value *sq = run(T(tm_lam(R, op2(P_MUL, var(gR, 0), var(gR, 0)))));
  const value *r = eval_apply(H, sq, R_(5), &err);
  CHECK(r && r->u.r == 25.0);
  r = eval_apply(H, v_zero(H), R_(5), &err);
  CHECK(r && r->kind == V_ZERO);
  /* a long sum of closures is applied without deep recursion */
  const value *f = v_zero(H);
  for (int k = 0; k < 100000 && f; k++) f = v_plus(H, f, sq, &err);
  r = f ? eval_apply(H, f, R_(2), &err) : NULL;
  CHECK(r && r->kind == V_REAL && r->u.r == 400000.0);
  r = eval_apply(H, R_(1), R_(2), &err);
  CHECK(r == NULL && err.exit_code == CHAD_EXIT_RUNTIME && strstr(err.msg, "application"));
  /* a missing function or argument (either one) is an error, not a crash */
  r = eval_apply(H, sq, NULL, &err);
  CHECK(r == NULL && strstr(err.msg, "application of nothing"));
  r = eval_apply(H, NULL, R_(2), &err);
  CHECK(r == NULL && strstr(err.msg, "application of nothing"));
  /* densify against primal shapes: Int -> unit, sums -> pairs */
  const value *shape = v_pair(H, v_int(H, 3), v_inl(H, reals(2, (double[]){1, 2})));
  const value *d = v_densify(H, v_zero(H), shape, &err);
  CHECK(d && d->kind == V_PAIR && d->u.pair.a->kind == V_UNIT);
  CHECK(d && d->u.pair.b->kind == V_PAIR && d->u.pair.b->u.pair.a->kind == V_ARRAY &&
        d->u.pair.b->u.pair.a->u.arr.n == 2 && d->u.pair.b->u.pair.b->kind == V_ZERO);
  /* densify errors */
  d = v_densify(H, v_onehot(H, 5, R_(1), &err), reals(3, (double[]){0, 0, 0}), &err);
  CHECK(d == NULL && strstr(err.msg, "sparse index 5 out of bounds (array length 3)"));
  d = v_densify(H, reals(2, (double[]){0, 0}), reals(3, (double[]){0, 0, 0}), &err);
  CHECK(d == NULL && strstr(err.msg, "length 2 where length 3"));
  d = v_densify(H, R_(1), v_unit(H), &err);
  CHECK(d == NULL && strstr(err.msg, "real value where"));
  d = v_densify(H, sq, sq, &err);
  CHECK(d == NULL && strstr(err.msg, "cannot make"));
  /* equality with tolerance and representations */
  CHECK(v_approx_equal(H, R_(1.0), R_(1.0 + 1e-12), 1e-9) == 1);
  CHECK(v_approx_equal(H, R_(1.0), R_(1.001), 1e-9) == 0);
  CHECK(v_approx_equal(H, R_(NAN), R_(NAN), 0) == 1);
  CHECK(v_approx_equal(H, v_zero(H), reals(2, (double[]){0, 0}), 0) == 1);
  CHECK(v_approx_equal(H, v_zero(H), reals(2, (double[]){0, 1}), 0) == 0);
  const value *sp = v_plus(H, v_onehot(H, 1, R_(2), &err), v_onehot(H, 1, R_(3), &err), &err);
  CHECK(v_approx_equal(H, sp, reals(3, (double[]){0, 5, 0}), 0) == 1);
  CHECK(v_approx_equal(H, reals(3, (double[]){0, 5, 0}), sp, 0) == 1);
  CHECK(v_approx_equal(H, sp, reals(1, (double[]){0}), 0) == 0);
  CHECK(v_approx_equal(H, sp, v_onehot(H, 1, R_(5), &err), 0) == 1);
  CHECK(v_approx_equal(H, sp, v_onehot(H, 2, R_(5), &err), 0) == 0);
  CHECK(v_approx_equal(H, v_int(H, 1), v_int(H, 2), 0) == 0);
  /* dot */
  CHECK(v_dot(H, sp, reals(3, (double[]){1, 2, 3})) == 10.0);
  CHECK(v_dot(H, v_pair(H, R_(2), v_unit(H)), v_pair(H, R_(3), v_zero(H))) == 6.0);
  CHECK(isnan(v_dot(H, reals(1, (double[]){1}), reals(2, (double[]){1, 2}))));
  /* printing */
  char *buf = NULL;
  size_t len = 0;
  FILE *mf = open_memstream(&buf, &len);
  v_fprint(mf, v_pair(H, reals(2, (double[]){1.5, -2}), v_inl(H, v_unit(H))));
  fputc('|', mf);
  v_fprint(mf, v_onehot(H, 3, R_(1), &err));
  fputc('|', mf);
  v_fprint(mf, v_bag1(H, v_int(H, 4), v_zero(H)));
  fclose(mf);
  CHECK(buf && strcmp(buf, "([1.5, -2], inl ())|sparse{3: 1}|bag{(4, 0)}") == 0);
  /* approximate equality of bags compares keys and values */
  const value *b1 = v_bag1(H, v_int(H, 4), R_(1.0)), *b2 = v_bag1(H, v_int(H, 4), R_(2.0));
  CHECK(v_approx_equal(H, b1, v_bag1(H, v_int(H, 4), R_(1.0)), 1e-12) == 1);
  CHECK(v_approx_equal(H, b1, b2, 1e-12) == 0);
  CHECK(v_approx_equal(H, b1, v_bag1(H, v_int(H, 5), R_(1.0)), 1e-12) == 0);
  /* every entry, not only the first: bags of two that differ in the second */
  const value *bb1 = v_plus(H, b1, v_bag1(H, v_int(H, 5), R_(1.0)), &err);
  const value *bb2 = v_plus(H, b1, v_bag1(H, v_int(H, 5), R_(3.0)), &err);
  CHECK(bb1 && bb2 && v_approx_equal(H, bb1, v_plus(H, b1, v_bag1(H, v_int(H, 5), R_(1.0)), &err), 1e-12) == 1);
  CHECK(bb1 && bb2 && v_approx_equal(H, bb1, bb2, 1e-12) == 0);
  if (buf) printf("  printed: %s\n", buf);
  free(buf);
  /* heap limit */
  heap *small = heap_new(1000);
  CHECK(small && heap_alloc(small, 800) != NULL && heap_alloc(small, 800) == NULL);
  CHECK(heap_used(small) >= 800 && heap_used(small) <= 1000);
  CHECK(v_array(small, 1000) == NULL);
  CHECK(v_array(small, -1) == NULL && v_array(H, INT64_MAX) == NULL);
  heap_free(small);
}

static void test_entries(void) {
  printf("entry lists: splices, iteration order, nested sparse, shape errors of plus\n");
  eval_error err;
  /* two bags of 6 entries each are joined by splices; iteration sees all 12
   * in order, and cp_fold-like sums agree */
  const value *b1 = v_zero(H), *b2 = v_zero(H);
  for (int k = 0; k < 6; k++) {
    b1 = v_plus(H, b1, v_bag1(H, v_int(H, k), R_(k)), &err);
    b2 = v_plus(H, b2, v_bag1(H, v_int(H, 10 + k), R_(10 + k)), &err);
  }
  const value *b = v_plus(H, b1, b2, &err);
  CHECK(b && b->kind == V_BAG && b->u.entries.count == 12);
  CHECK(b && b->u.entries.first->index == ENTRY_SPLICE); /* O(1) join */
  entry_iter it;
  entry_iter_init(&it, b);
  const entry *e;
  int n = 0, seen[16] = {0}, all_once = 1;
  double total = 0;
  while ((e = entry_iter_next(&it))) { /* bag order is not observable */
    n++;
    if (e->key->u.i < 0 || e->key->u.i >= 16 || seen[e->key->u.i]++) all_once = 0;
    total += e->v->u.r;
  }
  CHECK(!it.oom);
  entry_iter_done(&it);
  CHECK(n == 12 && all_once && total == 15 + 75);
  /* a short list is copied in front instead (no splice) */
  const value *s3 = v_plus(H, v_onehot(H, 0, R_(1), &err), v_onehot(H, 1, R_(2), &err), &err);
  CHECK(s3 && s3->u.entries.first->index != ENTRY_SPLICE && s3->u.entries.count == 2);
  /* Arr (Arr Real) cotangent: onehot 1 (onehot 2 5) + dense matrix */
  value *m = v_array(H, 2);
  m->u.arr.elems[0] = reals(3, (double[]){1, 2, 3});
  m->u.arr.elems[1] = reals(3, (double[]){4, 5, 6});
  const value *nested = v_onehot(H, 1, v_onehot(H, 2, R_(5), &err), &err);
  const value *sum = v_plus(H, m, nested, &err);
  CHECK(sum && sum->kind == V_ARRAY && v_index(H, v_index(H, sum, 1, &err), 2, &err)->u.r == 11.0);
  const value *dn = v_densify(H, v_plus(H, nested, nested, &err), m, &err);
  CHECK(dn && dn->u.arr.elems[0]->kind == V_ARRAY && dn->u.arr.elems[0]->u.arr.elems[0]->u.r == 0 &&
        dn->u.arr.elems[1]->u.arr.elems[2]->u.r == 10.0);
  const value *bad = v_densify(H, v_onehot(H, 1, v_onehot(H, 3, R_(5), &err), &err), m, &err);
  CHECK(bad == NULL && strstr(err.msg, "sparse index 3 out of bounds (array length 3)"));
  /* plus of values that are not of one linear type */
  CHECK(v_plus(H, R_(1), v_unit(H), &err) == NULL &&
        strstr(err.msg, "plus of values of different shapes (real and unit)"));
  CHECK(v_plus(H, v_int(H, 1), v_int(H, 2), &err) == NULL &&
        strstr(err.msg, "plus of int values (not of a linear type)"));
  CHECK(v_index(H, R_(1), 0, &err) == NULL && strstr(err.msg, "index of a real value"));
  /* a sparse value with many entries is indexed through its cached table */
  const value *many = v_zero(H);
  for (int k = 0; k < 50; k++) many = v_plus(H, many, v_onehot(H, k % 10, R_(1), &err), &err);
  const value *x7 = v_index(H, many, 7, &err);
  CHECK(x7 && x7->kind == V_REAL && x7->u.r == 5.0);
  CHECK(v_index(H, many, 7, &err) == x7); /* same table, same summed value */
  const value *x11 = v_index(H, many, 11, &err);
  CHECK(x11 && x11->kind == V_ZERO);
  /* printing a closure sum */
  char *buf = NULL;
  size_t len = 0;
  FILE *mf = open_memstream(&buf, &len);
  const value *c1 = v_plus(H, v_zero(H), v_zero(H), &err);
  v_fprint(mf, c1);
  fclose(mf);
  CHECK(buf && strcmp(buf, "0") == 0);
  free(buf);
}

/* neg (let _ = build 100 (i. 1) in neg (let _ = ... in 0)), `levels` deep:
 * every level allocates on the way down. */
static int deep_allocating(int levels) {
  int *gl = malloc(sizeof(int) * (levels + 1));
  gl[0] = CTX_EMPTY;
  for (int k = 1; k <= levels; k++) gl[k] = ctx_extend(gl[k - 1], AR);
  int inner = rc(gl[levels], 0);
  for (int k = levels - 1; k >= 0; k--) {
    int gk1 = ctx_extend(gl[k], I);
    inner = T(tm_op(P_NEG, T(tm_let(T(tm_build(ic(gl[k], 100), rc(gk1, 1))), inner))));
  }
  free(gl);
  return inner;
}

static void test_errors(void) {
  printf("runtime errors: messages and exit code\n");
  int g0 = CTX_EMPTY, gR = ctx_extend(g0, R), gI = ctx_extend(g0, I);
  int a = iota(g0, 3, 1);
  CHECK(fails_with(T(tm_index(a, ic(g0, 5))), "index 5 out of bounds (array length 3)"));
  CHECK(fails_with(T(tm_index(a, ic(g0, -1))), "index -1 out of bounds"));
  CHECK(fails_with(T(tm_index(T(tm_zero(g0, AR)), ic(g0, -2))), "index -2 out of bounds"));
  CHECK(fails_with(T(tm_iter(ic(g0, -1), var(gR, 0), rc(g0, 1))),
                   "iter: negative iteration count -1"));
  CHECK(fails_with(T(tm_build(ic(g0, -2), rc(gI, 0))), "build: negative length -2"));
  CHECK(fails_with(T(tm_lsum(ic(g0, -3), rc(gI, 0))), "lsum: negative count -3"));
  CHECK(fails_with(op2(P_IDIV, ic(g0, 1), ic(g0, 0)), "idiv: integer division by zero"));
  CHECK(fails_with(op2(P_IMOD, ic(g0, 1), ic(g0, 0)), "imod: integer modulo by zero"));
  CHECK(fails_with(op2(P_IDIV, ic(g0, INT64_MIN), ic(g0, -1)), "idiv: integer overflow"));
  CHECK(fails_with(op2(P_IMUL, ic(g0, INT64_MAX), ic(g0, 2)), "imul: integer overflow"));
  CHECK(fails_with(op2(P_VADD, a, iota(g0, 2, 1)), "vadd: array primitive applied to arrays of different lengths"));
  CHECK(fails_with(T(tm_lop_d(P_VADD, T(tm_pair(a, a)), T(tm_pair(iota(g0, 2, 1), a)))),
                   "Dop of vadd"));
  CHECK(fails_with(T(tm_lop_dt(P_DOT, T(tm_pair(a, iota(g0, 4, 1))), rc(g0, 1))), "DopT of dot"));
  CHECK(fails_with(T(tm_length(T(tm_zero(g0, AR)))), "length of a length-free"));
  CHECK(fails_with(T(tm_map(var(gR, 0), T(tm_onehot(ic(g0, 0), rc(g0, 1))))),
                   "map over a length-free"));
  CHECK(fails_with(T(tm_onehot(ic(g0, -1), rc(g0, 1))), "onehot index -1 is negative"));
  CHECK(fails_with(T(tm_plus(a, iota(g0, 2, 1))), "plus of arrays of different lengths (3 and 2)"));
  CHECK(fails_with(T(tm_plus(a, T(tm_onehot(ic(g0, 3), rc(g0, 1))))),
                   "plus: sparse index 3 out of bounds for an array of length 3"));
  /* the failing term is recorded: the index node, not the let around it */
  eval_error err;
  int bad = T(tm_index(a, ic(g0, 9)));
  int t = T(tm_let(rc(g0, 1), T(tm_index(iota(gR, 3, 1), ic(gR, 9)))));
  CHECK(eval_ref(H, t, NULL, &err) == NULL && err.term != t && tm_kind(err.term) == TM_INDEX);
  CHECK(eval_ref(H, bad, NULL, &err) == NULL && err.term == bad);
  /* f <| A <+> f <| B, one closure f: merged as f <| (A <+> B), where B
   * fails first (a negative build length); retried in the reference order,
   * f <| A fails first (index 5 of a length-2 array): that error and term. */
  int gA = ctx_extend(g0, AR), gF = ctx_extend(g0, ty_lfun(AR, R));
  int at5 = T(tm_index(var(gA, 0), ic(gA, 5)));
  int bneg = T(tm_build(ic(gF, -2), rc(ctx_extend(gF, I), 0)));
  int fab = T(tm_let(T(tm_llam(AR, at5)), T(tm_plus(T(tm_lapp(var(gF, 0), iota(gF, 2, 1))),
                                                    T(tm_lapp(var(gF, 0), bneg))))));
  CHECK(eval_ref(H, fab, NULL, &err) == NULL && err.term == at5 &&
        strstr(err.msg, "index 5 out of bounds (array length 2)"));
  /* out of memory */
  heap *small = heap_new(4096);
  const value *v = eval_ref(small, iota(g0, 100000, 1), NULL, &err);
  CHECK(v == NULL && err.exit_code == CHAD_EXIT_RUNTIME && strstr(err.msg, "out of memory"));
  heap_free(small);
  /* recursion depth: neg (neg (... 1)) nested beyond the limit fails, just
   * within it evaluates (on the evaluator's own big stack, also under ASan) */
  int deep = rc(g0, 1);
  for (int k = 0; k < LIMIT - 10; k++) deep = T(tm_op(P_NEG, deep));
  CHECK(run_real(deep) == 1.0);
  for (int k = 0; k < 20; k++) deep = T(tm_op(P_NEG, deep));
  CHECK(fails_with(deep, "nested deeper than the limit"));
  /* the same through `<+>` (lin_plus), nested in its left operand and in its
   * right: each operand one level deeper, so the limit is met alike */
  for (int side = 0; side < 2; side++) {
    int one = rc(g0, 1), sum = one;
    for (int k = 0; k < LIMIT - 10; k++) sum = T(side ? tm_plus(one, sum) : tm_plus(sum, one));
    CHECK(run_real(sum) == (double)(LIMIT - 9));
    for (int k = 0; k < 20; k++) sum = T(side ? tm_plus(one, sum) : tm_plus(sum, one));
    CHECK(fails_with(sum, "nested deeper than the limit"));
  }
  /* ... and in the reference order that `<+>` falls back to when the merged
   * evaluation fails: `f <| 1.0 <+> b`, b an index out of bounds, f's body
   * neg (... neg y) nested n deep. The merge defers f <| 1.0 (its body not
   * yet run) and fails at b; the fallback then runs f <| 1.0 one level
   * below the <+>. So where f <| 1.0 alone first exceeds the limit (n1),
   * inside the <+> it does one level earlier (n1 - 1), and n1 - 2 reaches b */
  {
    int gl = ctx_extend(g0, R);
    int bad = T(tm_index(iota(g0, 2, 1), ic(g0, 5)));
    int prev1, prev2, n1 = first_too_deep(var(gl, 0), apply_to_one, NULL, &prev1, &prev2);
    CHECK(n1 > LIMIT - 20 + 1);
    if (n1 > LIMIT - 20 + 1) {
      CHECK(fails_with(T(tm_plus(T(tm_lapp(T(tm_llam(R, prev1)), rc(g0, 1))), bad)), "nested deeper than the limit"));
      CHECK(fails_with(T(tm_plus(T(tm_lapp(T(tm_llam(R, prev2)), rc(g0, 1))), bad)), "index 5 out of bounds"));
    }
  }
  /* ... and for the right operand: `f <| 1.0 <+> g <| 1.0`, f the
   * identity, g's body neg (... neg b) nested n deep over b an index out of
   * bounds. The merge defers both (two closures) and applies each one level
   * below the <+>: where g <| 1.0 alone first exceeds the limit (n1), the
   * <+> does at n1 - 1, and at n1 - 2 it reaches b, whose error the
   * reference order (the fallback, g <| 1.0 again as deep) reports */
  {
    int gl = ctx_extend(g0, R);
    int f = T(tm_lapp(T(tm_llam(R, var(gl, 0))), rc(g0, 1)));
    int prev1, prev2, n1 = first_too_deep(T(tm_index(iota(gl, 2, 1), ic(gl, 5))), apply_to_one, NULL, &prev1, &prev2);
    CHECK(n1 > LIMIT - 20 + 1);
    if (n1 > LIMIT - 20 + 1) {
      CHECK(fails_with(T(tm_plus(f, T(tm_lapp(T(tm_llam(R, prev1)), rc(g0, 1))))), "nested deeper than the limit"));
      CHECK(fails_with(T(tm_plus(f, T(tm_lapp(T(tm_llam(R, prev2)), rc(g0, 1))))), "index 5 out of bounds"));
    }
  }
  /* ... and for the right operand where only the fallback goes deep:
   * `let f = F in f <| A <+> f <| B`, F = \p. (fst p) 1.0 on pairs of a
   * power R -> R and an array. One closure, so the merge adds A and B
   * first, and fails (arrays of lengths 2 and 3) before F runs; the
   * fallback (the reference order, which never adds A and B) then runs
   * f <| A and f <| B one level below the <+>, and f <| B calls B's
   * function, neg (... neg y) nested n deep. So where `let f = F in
   * f <| B` first exceeds the limit (n1), the <+> does at n1 - 1, and at
   * n1 - 2 it evaluates: 1 + (-1)^(n1 - 2) */
  {
    int L = ty_prod(ty_fun(R, R), AR), gF = ctx_extend(g0, ty_lfun(L, R));
    int gp = ctx_extend(g0, L), gy = ctx_extend(gF, R);
    int F = T(tm_llam(L, T(tm_app(T(tm_fst(var(gp, 0))), rc(gp, 1)))));
    int A = T(tm_pair(T(tm_lam(R, var(gy, 0))), iota(gF, 2, 1)));
    fallback_ctx fc = {F, gF};
    int prev1, prev2, n1 = first_too_deep(var(gy, 0), fallback_alone, &fc, &prev1, &prev2);
    CHECK(n1 > LIMIT - 20 + 1);
    if (n1 > LIMIT - 20 + 1) {
      int sum1 = T(tm_let(F, T(tm_plus(T(tm_lapp(var(gF, 0), A)), T(tm_lapp(var(gF, 0), fallback_arg(prev1, gF)))))));
      int sum2 = T(tm_let(F, T(tm_plus(T(tm_lapp(var(gF, 0), A)), T(tm_lapp(var(gF, 0), fallback_arg(prev2, gF)))))));
      CHECK(fails_with(sum1, "nested deeper than the limit"));
      CHECK(run_real(sum2) == ((n1 - 2) % 2 ? 0.0 : 2.0));
    }
  }
  /* a deep term is re-run on the big stack after the small-stack attempt; the
   * attempt's allocations are released first, so a term whose single run
   * fits the heap limit (but not two runs) still evaluates. The single-run
   * cost of 6000 levels is twice that of 3000 levels (which need no retry). */
  {
    size_t used3000 = 0;
    for (int pass = 0; pass < 2; pass++) {
      int inner = deep_allocating(pass == 0 ? 3000 : 6000);
      heap *hp = heap_new(pass == 0 ? (size_t)1 << 30 : 3 * used3000);
      eval_error e2;
      const value *dv = eval_ref(hp, inner, NULL, &e2);
      CHECK(dv != NULL && dv->kind == V_REAL && dv->u.r == 0.0);
      if (!dv) fprintf(stderr, "  %s\n", e2.msg);
      if (pass == 0) used3000 = heap_used(hp);
      heap_free(hp);
    }
  }
  /* ... but long let chains (let x1 = 1 in let x2 = x1 in ... xn) are not */
  int n = 12000; /* > LIMIT_SMALL_STACK; kernel ctx_extend is slow for more */
  int *gs = malloc(sizeof(int) * (n + 1));
  gs[0] = g0;
  for (int k = 1; k <= n; k++) gs[k] = ctx_extend(gs[k - 1], R);
  int body = var(gs[n], 0);
  for (int k = n - 1; k >= 0; k--) body = T(tm_let(k == 0 ? rc(g0, 1) : var(gs[k], 0), body));
  free(gs);
  CHECK(run_real(body) == 1.0);
}

/* the nesting limit's setting: the default, its bounds, and limits below
 * the small-stack attempt's (no deep retry), each met one level after the
 * one before */
static void test_depth_setting(void) {
  CHECK(eval_max_depth() == EVAL_DEFAULT_MAX_DEPTH);
  eval_set_max_depth(0);
  CHECK(eval_max_depth() == 1);
  eval_set_max_depth(EVAL_MAX_DEPTH_CAP + 1);
  CHECK(eval_max_depth() == EVAL_MAX_DEPTH_CAP);
  CHECK(eval_stack_bytes() >= (size_t)EVAL_MAX_DEPTH_CAP * EVAL_STACK_BYTES_PER_LEVEL);
  int first_fail[2] = {-1, -1};
  for (int k = 0; k < 2; k++) {
    eval_set_max_depth(30 + k);
    /* neg (... neg 1), n deep: the first n that fails */
    int t = rc(CTX_EMPTY, 1);
    for (int n = 0; n <= 40 && first_fail[k] < 0; n++, t = T(tm_op(P_NEG, t))) {
      eval_error e;
      if (eval_ref(H, t, NULL, &e)) continue;
      first_fail[k] = n;
      CHECK(e.depth_exceeded && strstr(e.msg, k ? "limit of 31" : "limit of 30"));
    }
  }
  CHECK(first_fail[0] > 0 && first_fail[1] == first_fail[0] + 1);
  eval_set_max_depth(EVAL_DEFAULT_MAX_DEPTH);
}

/* The pool of freed chunks: a freed heap's memory serves the next heap
 * (not under AddressSanitizer, which needs every chunk freed), up to its cap;
 * the byte limit still counts what is handed out. */
#if defined(__SANITIZE_ADDRESS__)
#define POOL_EXPECTED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POOL_EXPECTED 0
#endif
#endif
#ifndef POOL_EXPECTED
#define POOL_EXPECTED 1
#endif
static void test_heap_pool(void) {
  const size_t mib = (size_t)1 << 20;
  heap_pool_release();
  CHECK(heap_pool_bytes() == 0);
  heap *a = heap_new((size_t)1 << 30);
  unsigned char *p = heap_alloc(a, mib);
  CHECK(p && heap_alloc(a, 100));
  if (p) memset(p, 0xab, mib);
  heap_free(a);
  if (!POOL_EXPECTED) {
    CHECK(heap_pool_bytes() == 0);
    return;
  }
  size_t kept = heap_pool_bytes();
  CHECK(kept >= mib + 100);
  /* the same sizes again take the same memory back */
  heap *b = heap_new((size_t)1 << 30);
  unsigned char *q = heap_alloc(b, mib);
  CHECK(q == p);
  CHECK(heap_pool_bytes() <= kept - mib);
  /* a small need does not take a block more than twice its size */
  heap_free(b);
  b = heap_new((size_t)1 << 30);
  kept = heap_pool_bytes();
  CHECK(heap_alloc(b, mib / 4) != p);
  CHECK(heap_pool_bytes() == kept);
  heap_free(b);
  /* the limit counts what is handed out, whatever chunk it comes from */
  heap *c = heap_new(mib / 2);
  CHECK(heap_alloc(c, mib / 4) != NULL);
  CHECK(heap_alloc(c, mib / 2) == NULL);
  heap_free(c);
  /* the cap: 1200 MiB of freed heaps keep at most 1024 MiB (the blocks
   * are never written: address space, not memory) */
  heap *big[3];
  for (int i = 0; i < 3; i++) {
    big[i] = heap_new((size_t)1 << 30);
    CHECK(heap_alloc(big[i], 400 * mib) != NULL);
  }
  for (int i = 0; i < 3; i++) heap_free(big[i]);
  CHECK(heap_pool_bytes() <= 1024 * mib);
  CHECK(heap_pool_bytes() >= 800 * mib);
  heap_pool_release();
  CHECK(heap_pool_bytes() == 0);
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0); /* progress lines appear as they happen */
  ty_init();
  ctx_init();
  tm_init();
  raw_init();
  if (prims_init() != 0) {
    fprintf(stderr, "prims_init failed\n");
    return 1;
  }
  R = TY_ID_REAL;
  I = TY_ID_INT;
  U = TY_ID_UNIT;
  AR = ty_arr(R);
  H = heap_new((size_t)1 << 30);
  test_depth_setting();
  test_heap_pool();
  eval_set_max_depth(LIMIT);
  test_source();
  test_arrays();
  test_zero_plus();
  test_linear_ops();
  test_sparse_scaling();
  test_apply_and_utils();
  test_entries();
  test_errors();
  heap_free(H);
  printf("test_eval: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
