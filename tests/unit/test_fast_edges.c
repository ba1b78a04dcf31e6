/* The fast evaluator (src/fast/) against the reference evaluator where
 * random inputs never go: ties of max and min (the derivative follows the
 * picked argument, x at a tie: spec/evaluator.md §6; a tie of +0 and -0
 * returns x's sign) and logsumexp at
 * entries where an unshifted exp overflows or underflows (|x| >= 1000, up to
 * 1e308). Each program runs compiled (loops of any length compiled: loop
 * minimum 0; the value's loop is compiled, not run by the generic
 * interpreter) and by the reference evaluator: value, J dx (forward CHAD)
 * and J^T v (reverse CHAD), each compared with values by hand. Also the
 * depth limits: of evaluation (both evaluators alike) and of the export of
 * values nested through sparse arrays' entries. And a compiled loop body
 * long enough that its table of constants grows past its first size. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad/chad.h"
#include "chad/eval.h"
#include "chad/fast.h"
#include "chad/kernel.h"
#include "chad/primitives.h"
#include "fast/fast_internal.h"
#include "prim_scalar.h"
#include "unit/chad_progs.h"

#include "check.h"

#define MAXS 16

typedef struct result {
  double val[MAXS], jdx[MAXS], jtv[MAXS];
  int64_t nval, njdx, njtv;
  fast_stats st;   /* of the value's evaluation */
} result;

/* the nesting limit these tests were written for (eval_set_max_depth) */
#define LIMIT 100000

static const value *reals(heap *h, int n, const double *x) {
  value *a = v_array(h, n);
  for (int i = 0; i < n; i++) a->u.arr.elems[i] = v_real(h, x[i]);
  return a;
}

/* value, J dx and J^T v of t (parameters parts[0..n) of types tys) by one
 * evaluator; dx and v flattened. 0 on an evaluation failure. */
static int run(heap *h, int fast, int t, int n, const int *tys, const value **parts,
               const double *dx, const double *v, result *r) {
  memset(r, 0, sizeof *r);
  int g = tm_ctx(t), ty = tm_type(t), cty = TY_ID_UNIT;
  for (int i = 0; i < n; i++) cty = ty_prod(cty, tys[i]);
  const env *e = chad_params_env(h, n, parts);
  const value *ptup = chad_ctx_tuple_make(h, n, parts);
  eval_error err;
  fast_stats_reset();
  const value *val = fast ? eval_fast(h, t, e, &err) : eval_ref(h, t, e, &err);
  if (!val) return 0;
  fast_stats_get(&r->st);
  int f = chad_fwd(t), rv = chad_rev(t);
  if (f < 0 || rv < 0 || tm_ctx(f) != chad_ctx_pfwd(g)) return 0;
  const value *pf = fast ? eval_fast(h, f, e, &err) : eval_ref(h, f, e, &err);
  const value *pr = fast ? eval_fast(h, rv, e, &err) : eval_ref(h, rv, e, &err);
  if (!pf || !pr) return 0;
  int64_t pos = 0;
  const value *tan = chad_unflatten_tangent(h, cty, ptup, dx, &pos);
  pos = 0;
  const value *cot = chad_unflatten_tangent(h, ty, val, v, &pos);
  const value *a = fast ? eval_fast_apply(h, pf->u.pair.b, tan, &err) : eval_apply(h, pf->u.pair.b, tan, &err);
  const value *b = fast ? eval_fast_apply(h, pr->u.pair.b, cot, &err) : eval_apply(h, pr->u.pair.b, cot, &err);
  if (!a || !b) return 0;
  r->nval = chad_flatten_tangent(h, ty, val, val, r->val, MAXS);
  r->njdx = chad_flatten_tangent(h, ty, val, a, r->jdx, MAXS);
  r->njtv = chad_flatten_tangent(h, cty, ptup, b, r->jtv, MAXS);
  return r->nval >= 0 && r->njdx >= 0 && r->njtv >= 0;
}

/* |a - b| <= rel |b| entry by entry, n entries */
static int near(const double *a, const double *b, int64_t n, double rel) {
  for (int64_t i = 0; i < n; i++)
    if (!(fabs(a[i] - b[i]) <= rel * fabs(b[i]))) return 0;
  return 1;
}

/* Both evaluators on t; each must give want_val, want_jdx, want_jtv (to rel;
 * 0: exactly), and a program with a loop must run it compiled. */
static void both(heap *h, const char *name, int t, int n, const int *tys, const value **parts,
                 const double *dx, const double *v, const double *want_val, int64_t nv,
                 const double *want_jdx, const double *want_jtv, int64_t nc, double rel, int loop) {
  for (int fast = 0; fast < 2; fast++) {
    result r;
    const char *ev = fast ? "fast" : "reference";
    int ok = run(h, fast, t, n, tys, parts, dx, v, &r);
    CHECKM(ok, "%s (%s): evaluation failed", name, ev);
    if (!ok) continue;
    CHECKM(r.nval == nv && near(r.val, want_val, nv, rel), "%s (%s): value", name, ev);
    CHECKM(r.njdx == nv && near(r.jdx, want_jdx, nv, rel), "%s (%s): J dx", name, ev);
    CHECKM(r.njtv == nc && near(r.jtv, want_jtv, nc, rel), "%s (%s): J^T v", name, ev);
    if (fast && loop)
      CHECKM(r.st.compiled_loops >= 1 && r.st.generic_loops == 0,
             "%s: loops compiled %lld, generic %lld", name, (long long)r.st.compiled_loops,
             (long long)r.st.generic_loops);
    if (failures && getenv("FAST_TEST_VERBOSE"))
      for (int64_t i = 0; i < nc; i++) fprintf(stderr, "  %s jtv[%lld] = %.17g\n", ev, (long long)i, r.jtv[i]);
  }
}

/* x : Arr R, y : Arr R |- build (length x) (i. op x[i] y[i]) */
static int prog_loop2(int op) {
  int g = ext(ext(CTX_EMPTY, A_), A_), gi = ext(g, I_);   /* i 0, y 1, x 2 */
  int xi = OK(tm_index(var(gi, 2), var(gi, 0))), yi = OK(tm_index(var(gi, 1), var(gi, 0)));
  return OK(tm_build(OK(tm_length(var(g, 1))), op2(op, xi, yi)));
}

/* x : R, y : R |- op x y */
static int prog_scalar2(int op) {
  int g = ext(ext(CTX_EMPTY, R_), R_);
  return op2(op, var(g, 1), var(g, 0));
}

static void test_ties(heap *h) {
  printf("max and min at ties: the derivative follows x, both evaluators\n");
  int tys[2] = {A_, A_};
  /* ties at 0 and 3; x > y at 1, x < y at 2 */
  double xs[4] = {1, 2, 3, 4}, ys[4] = {1, 1, 5, 4};
  const value *parts[2] = {reals(h, 4, xs), reals(h, 4, ys)};
  double dx[8] = {1, 2, 3, 4, 10, 20, 30, 40}, v[4] = {1, 1, 1, 1};
  /* max picks x where x >= y: at 0, 1, 3 */
  double mv[4] = {1, 2, 5, 4}, mj[4] = {1, 2, 30, 4}, mt[8] = {1, 1, 0, 1, 0, 0, 1, 0};
  both(h, "max x[i] y[i]", prog_loop2(P_MAX), 2, tys, parts, dx, v, mv, 4, mj, mt, 8, 0, 1);
  /* min picks x where x <= y: at 0, 2, 3 */
  double nv[4] = {1, 1, 3, 4}, nj[4] = {1, 20, 3, 4}, nt[8] = {1, 0, 1, 1, 0, 1, 0, 0};
  both(h, "min x[i] y[i]", prog_loop2(P_MIN), 2, tys, parts, dx, v, nv, 4, nj, nt, 8, 0, 1);
  /* all ties: every entry follows x */
  const value *tied[2] = {reals(h, 4, xs), reals(h, 4, xs)};
  double tv[4] = {1, 2, 3, 4}, tj[4] = {1, 2, 3, 4}, tt[8] = {1, 1, 1, 1, 0, 0, 0, 0};
  both(h, "max at ties", prog_loop2(P_MAX), 2, tys, tied, dx, v, tv, 4, tj, tt, 8, 0, 1);
  both(h, "min at ties", prog_loop2(P_MIN), 2, tys, tied, dx, v, tv, 4, tj, tt, 8, 0, 1);
  /* scalars (outside a loop) at a tie */
  int rt[2] = {R_, R_};
  const value *sp[2] = {v_real(h, 2.0), v_real(h, 2.0)};
  double sdx[2] = {1, 10}, sv[1] = {3}, s_val[1] = {2}, s_j[1] = {1}, s_t[2] = {3, 0};
  both(h, "max 2 2", prog_scalar2(P_MAX), 2, rt, sp, sdx, sv, s_val, 1, s_j, s_t, 2, 0, 0);
  both(h, "min 2 2", prog_scalar2(P_MIN), 2, rt, sp, sdx, sv, s_val, 1, s_j, s_t, 2, 0, 0);
}

/* A tie of +0 and -0: max and min pick x, so the sign of the result is x's
 * (the one case where picking x or y changes the value). */
static void test_signed_zeros(heap *h) {
  printf("max and min of +0 and -0 return x (its sign), both evaluators\n");
  int tys[2] = {A_, A_};
  double xs[2] = {0.0, -0.0}, ys[2] = {-0.0, 0.0};
  const value *parts[2] = {reals(h, 2, xs), reals(h, 2, ys)};
  double dx[4] = {1, 2, 3, 4}, v[2] = {1, 1};
  int ops[2] = {P_MAX, P_MIN};
  for (int k = 0; k < 2; k++)
    for (int fast = 0; fast < 2; fast++) {
      result r;
      int ok = run(h, fast, prog_loop2(ops[k]), 2, tys, parts, dx, v, &r);
      CHECKM(ok && r.nval == 2 && r.val[0] == 0.0 && !signbit(r.val[0]) && r.val[1] == 0.0 && signbit(r.val[1]),
             "%s (+0, -0), (-0, +0) (%s): want (+0, -0)", k ? "min" : "max", fast ? "fast" : "reference");
      int rt[2] = {R_, R_};
      const value *sp[2] = {v_real(h, -0.0), v_real(h, 0.0)};
      double sdx[2] = {1, 2}, sv[1] = {1};
      ok = run(h, fast, prog_scalar2(ops[k]), 2, rt, sp, sdx, sv, &r);
      CHECKM(ok && r.nval == 1 && r.val[0] == 0.0 && signbit(r.val[0]),
             "%s -0 +0 (%s): want -0", k ? "min" : "max", fast ? "fast" : "reference");
    }
}

/* v : Arr R |- logsumexp v */
static int prog_lse(void) {
  int g = ext(CTX_EMPTY, A_);
  return op1(P_LOGSUMEXP, var(g, 0));
}

/* m : Arr (Arr R) |- build (length m) (i. logsumexp m[i]) */
static int prog_lse_rows(void) {
  int g = ext(CTX_EMPTY, ty_arr(A_)), gi = ext(g, I_);
  return OK(tm_build(OK(tm_length(var(g, 0))), op1(P_LOGSUMEXP, OK(tm_index(var(gi, 1), var(gi, 0))))));
}

static void test_logsumexp(heap *h) {
  printf("logsumexp where exp overflows or underflows: shifted by the maximum, both evaluators\n");
  /* the scalar formula both evaluators share reads its n entries only: a
   * NaN just past them does not turn logsumexp (1, +inf) into NaN */
  double past[3] = {1.0, INFINITY, NAN};
  CHECKM(prim_lse(past, 2) == INFINITY, "logsumexp (1, inf) = %g", prim_lse(past, 2));
  double past2[3] = {-INFINITY, -INFINITY, NAN};
  CHECKM(prim_lse(past2, 2) == -INFINITY, "logsumexp (-inf, -inf) = %g", prim_lse(past2, 2));
  /* by hand: logsumexp (c, c, c - 1) = c + log (2 + e^-1); its gradient
   * softmax = (1, 1, e^-1) / (2 + e^-1). The double formulas below are
   * within a few ulps of the real numbers: tolerance 1e-13 relative. */
  double e1 = exp(-1.0), s = 2.0 + e1, l = log(s);
  int tys[1] = {A_};
  double big[3] = {1000, 1000, 999}, small[3] = {-1000, -1000, -1001}, huge[3] = {1e308, 1e308, 0};
  double dx[3] = {1, 2, 4}, v[1] = {2};
  double jdx = (1 + 2 + 4 * e1) / s, jtv[3] = {2 / s, 2 / s, 2 * e1 / s};
  const value *pb[1] = {reals(h, 3, big)};
  double vb[1] = {1000 + l}, jb[1] = {jdx};
  both(h, "logsumexp (1000, 1000, 999)", prog_lse(), 1, tys, pb, dx, v, vb, 1, jb, jtv, 3, 1e-13, 0);
  const value *ps[1] = {reals(h, 3, small)};
  double vs[1] = {-1000 + l};
  both(h, "logsumexp (-1000, -1000, -1001)", prog_lse(), 1, tys, ps, dx, v, vs, 1, jb, jtv, 3, 1e-13, 0);
  /* (1e308, 1e308, 0): 1e308 + log 2 rounds to 1e308; softmax (1/2, 1/2, 0) */
  const value *ph[1] = {reals(h, 3, huge)};
  double vh[1] = {1e308}, jh[1] = {1.5}, th[3] = {1, 1, 0};
  both(h, "logsumexp (1e308, 1e308, 0)", prog_lse(), 1, tys, ph, dx, v, vh, 1, jh, th, 3, 1e-13, 0);
  /* the three rows in one compiled loop */
  int mt[1] = {ty_arr(A_)};
  value *m = v_array(h, 3);
  m->u.arr.elems[0] = reals(h, 3, big);
  m->u.arr.elems[1] = reals(h, 3, small);
  m->u.arr.elems[2] = reals(h, 3, huge);
  const value *pm[1] = {m};
  double mdx[9] = {1, 2, 4, 1, 2, 4, 1, 2, 4}, mv[3] = {2, 2, 2};
  double want_v[3] = {1000 + l, -1000 + l, 1e308}, want_j[3] = {jdx, jdx, 1.5};
  double want_t[9] = {jtv[0], jtv[1], jtv[2], jtv[0], jtv[1], jtv[2], 1, 1, 0};
  both(h, "logsumexp of each row", prog_lse_rows(), 1, mt, pm, mdx, mv, want_v, 3, want_j, want_t, 9, 1e-13, 1);
}

/* sum (build (floor (sum (build (floor ... 1.0 ...) (fun i -> 1.0)))) (fun i -> 1.0)), n
 * deep through the lengths: each level nests three evaluations (the sum's
 * build length, floor, its argument), so 33333 levels are within the depth
 * limit of LIMIT = 100000 (main sets it) and 33334 are not, for both evaluators:
 * they count depth alike on the fused path of a sum of a build (measured on
 * both; a step that stops counting moves the fast evaluator's boundary) */
static int length_chain(int n)
{
  int gi = ctx_extend(CTX_EMPTY, I_);
  int t = tm_rconst(CTX_EMPTY, 1.0);
  for (int k = 0; k < n && t >= 0; k++)
    t = tm_sum(tm_build(tm_op(P_FLOOR, t), tm_rconst(gi, 1.0)));
  return t;
}

/* lsum (floor (lsum (floor ... 1.0 ...) (fun i -> 1.0))) (fun i -> 1.0), n
 * deep through the counts: two evaluations a level (the count, which is the
 * floor, and its argument), so 50000 levels are within the limit and 50001
 * are not, for both evaluators (measured on both) */
static int lsum_chain(int n)
{
  int gi = ctx_extend(CTX_EMPTY, I_);
  int t = tm_rconst(CTX_EMPTY, 1.0);
  for (int k = 0; k < n && t >= 0; k++)
    t = tm_lsum(tm_op(P_FLOOR, t), tm_rconst(gi, 1.0));
  return t;
}

/* a term nested n levels through one operand of one construct */
enum nest { NEST_ONEHOT_INDEX, NEST_DOP_POINT, NEST_DOP_TANGENT, NEST_DOPT_COTANGENT, NEST_SINGLE_POINT };

static const char *nest_name(enum nest k) {
  return k == NEST_ONEHOT_INDEX ? "a onehot nested through its index (ineg (... (ineg 0)))"
       : k == NEST_DOP_POINT ? "Dsin nested through its point (Dsin (... (Dsin 0.5 1.0) ...) 1.0)"
       : k == NEST_DOP_TANGENT ? "Dsin 0.5 nested through its tangent"
       : k == NEST_DOPT_COTANGENT ? "DsinT 0.5 nested through its cotangent"
                                  : "fold (single t 1.0) ((k, v). Dsin k v) nested through t";
}

/* the innermost term (nest_seed), one wrap around t (nest_wrap), and the
 * term evaluated (nest_last: the onehot is put around its index chain only
 * at the end) */
static int nest_seed(enum nest k) {
  return k == NEST_ONEHOT_INDEX ? tm_iconst(CTX_EMPTY, 0) : tm_rconst(CTX_EMPTY, k == NEST_DOP_POINT ? 0.5 : 1.0);
}
static int nest_wrap(enum nest k, int t) {
  if (k == NEST_ONEHOT_INDEX) return tm_op(P_INEG, t);
  if (k == NEST_DOP_POINT) return tm_lop_d(P_SIN, t, tm_rconst(CTX_EMPTY, 1.0));
  if (k == NEST_SINGLE_POINT) { /* two levels a wrap: the fold's bag, the single's point */
    int gkv = ctx_extend(ctx_extend(CTX_EMPTY, TY_ID_REAL), TY_ID_REAL);
    int body = tm_lop_d(P_SIN, tm_var(gkv, 1), tm_var(gkv, 0));
    return tm_cp_fold(tm_cp_single(t, tm_rconst(CTX_EMPTY, 1.0)), body);
  }
  return k == NEST_DOP_TANGENT ? tm_lop_d(P_SIN, tm_rconst(CTX_EMPTY, 0.5), t)
                               : tm_lop_dt(P_SIN, tm_rconst(CTX_EMPTY, 0.5), t);
}
static int nest_last(enum nest k, int t) {
  return k == NEST_ONEHOT_INDEX ? tm_onehot(t, tm_rconst(CTX_EMPTY, 1.0)) : t;
}

/* where the reference evaluator first meets the depth limit on the nesting
 * k, the fast one does too, and one level less both evaluate: an evaluator
 * that stops counting depth through that operand fails here */
static void nest_alike(enum nest k, int limit) {
  printf("depth limit %d: %s, both evaluators alike\n", limit, nest_name(k));
  prog_setup();
  eval_set_max_depth(limit);
  int t = nest_seed(k), n1 = -1, per = k == NEST_SINGLE_POINT ? 2 : 1; /* levels a wrap */
  int from = (limit - 5) / per, to = (limit + 5) / per + 1;
  for (int i = 0; i < from && t >= 0; i++) t = nest_wrap(k, t);
  for (int n = from; n < to && n1 < 0 && t >= 0; n++) {
    int top = nest_last(k, t);
    eval_error er, ef;
    memset(&er, 0, sizeof er);
    memset(&ef, 0, sizeof ef);
    heap *h = heap_new((size_t)1 << 26); /* one per level count: the chains' values fill it */
    int heap_ok = h != NULL;
    const value *vr = h && top >= 0 ? eval_ref(h, top, NULL, &er) : NULL;
    const value *vf = h && top >= 0 ? eval_fast(h, top, NULL, &ef) : NULL;
    heap_free(h);
    if (!vr) {
      n1 = n;
      CHECKM(heap_ok && top >= 0 && !vf && strstr(er.msg, "nested deeper") && strstr(ef.msg, "nested deeper"),
             "%d wraps: past the depth limit (reference: %s; fast: %s)", n, er.msg, vf ? "a value" : ef.msg);
    } else
      CHECKM(vf != NULL, "%d wraps: within the limit (fast: %s)", n, vf ? "ok" : ef.msg);
    t = nest_wrap(k, t);
  }
  CHECKM(n1 > from, "the limit met past %d wraps (%d)", from, n1);
  eval_set_max_depth(LIMIT);
}

static void test_depth_limit(heap *h) {
  for (int chain = 0; chain < 2; chain++)
  for (int n = chain ? 50000 : 33333; n <= (chain ? 50001 : 33334); n++) {
    int last = chain ? 50000 : 33333; /* the deepest within the limit */
    if (n == last)
      printf("depth limit: %s, both evaluators alike\n",
             chain ? "an lsum nested through its count" : "a sum of a build nested through its length");
    prog_setup();
    int t = chain ? lsum_chain(n) : length_chain(n);
    CHECKM(t >= 0, "%d levels built", n);
    if (t < 0) continue;
    eval_error er, ef;
    memset(&er, 0, sizeof er);
    memset(&ef, 0, sizeof ef);
    const value *vr = eval_ref(h, t, NULL, &er), *vf = eval_fast(h, t, NULL, &ef);
    if (n == last)
      CHECKM(vr && vf && vr->kind == V_REAL && vr->u.r == 1.0 && vf->kind == V_REAL && vf->u.r == 1.0,
             "%d levels evaluate to 1 (reference %s, fast %s)", n, vr ? "ok" : er.msg, vf ? "ok" : ef.msg);
    else
      CHECKM(!vr && !vf && strstr(er.msg, "nested deeper") && strstr(ef.msg, "nested deeper"),
             "%d levels: past the depth limit (reference: %s; fast: %s)", n, vr ? "a value" : er.msg,
             vf ? "a value" : ef.msg);
  }
  /* the onehot at the whole limit (the deep evaluation's thread), the
   * others at a tenth of it (the same count, in a tenth of the time) */
  nest_alike(NEST_ONEHOT_INDEX, LIMIT);
  nest_alike(NEST_DOP_POINT, LIMIT / 10);
  nest_alike(NEST_DOP_TANGENT, LIMIT / 10);
  nest_alike(NEST_DOPT_COTANGENT, LIMIT / 10);
  nest_alike(NEST_SINGLE_POINT, LIMIT / 10);
}
/* fv_export's depth limit through the entries of sparse arrays: a chain of n
 * one-entry sparse arrays around a real, the outermost at depth 0, so the
 * innermost array is at depth n - 1: LIMIT + 1 arrays are exported,
 * one more is refused. Run on a thread with the evaluators' deep stack. */
typedef struct export_job {
  heap *h;
  const value *v, *r;
  eval_error err;
} export_job;

static void *export_run(void *p) {
  export_job *j = p;
  j->r = fv_export(j->h, j->v, &j->err);
  return NULL;
}

static const value *sparse_chain(heap *h, int n) {
  const value *v = v_real(h, 1.0);
  for (int k = 0; k < n && v; k++) {
    entry *e = heap_alloc(h, sizeof *e);
    value *s = heap_alloc(h, sizeof *s);
    if (!e || !s) return NULL;
    *e = (entry){0, NULL, v, NULL};
    s->kind = V_SPARSE;
    s->u.entries.first = e;
    s->u.entries.count = 1;
    v = s;
  }
  return v;
}

static void test_export_depth(void) {
  printf("export depth limit: sparse arrays nested through their entries\n");
  for (int n = LIMIT + 1; n <= LIMIT + 2; n++) {
    export_job j = {heap_new((size_t)1 << 28), NULL, NULL, {0}};
    j.v = sparse_chain(j.h, n);
    pthread_attr_t a;
    pthread_t th;
    int attr = j.v && pthread_attr_init(&a) == 0;
    int started = attr && pthread_attr_setstacksize(&a, eval_stack_bytes()) == 0 &&
                  pthread_create(&th, &a, export_run, &j) == 0;
    CHECKM(started, "%d nested sparse arrays built, export thread started", n);
    if (started) pthread_join(th, NULL);
    if (attr) pthread_attr_destroy(&a);
    if (started && n == LIMIT + 1)
      CHECKM(j.r && j.r->kind == V_SPARSE, "%d nested sparse arrays exported (%s)", n, j.r ? "ok" : j.err.msg);
    else if (started)
      CHECKM(!j.r && strstr(j.err.msg, "nested deeper"), "%d nested sparse arrays: past the depth limit (%s)", n,
             j.r ? "a value" : j.err.msg);
    heap_free(j.h);
  }
}

/* x : Arr R |- build (length x) (i. (x[i] + x[i] + ... + x[i]) * 2.0), the
 * sum of K + 1 terms nested to the left: the constant's register comes
 * after the K sums', past the compiled loop's first table of constants
 * (256 registers), whose growth must then reach it */
static void test_many_registers(heap *h) {
  enum { K = 1100 };
  printf("a loop body with %d operations before its constant: compiled, both evaluators\n", K);
  prog_setup();
  int g = ext(CTX_EMPTY, A_), gi = ext(g, I_);
  int xi = OK(tm_index(var(gi, 1), var(gi, 0)));
  int s = xi;
  for (int k = 0; k < K && s >= 0; k++) s = op2(P_ADD, s, xi);
  int t = OK(tm_build(OK(tm_length(var(g, 0))), op2(P_MUL, s, OK(tm_rconst(gi, 2.0)))));
  int tys[1] = {A_};
  double xs[3] = {1, 2, 3}, dx[3] = {1, -1, 0.5}, v[3] = {1, 2, 3};
  const value *parts[1] = {reals(h, 3, xs)};
  double c = 2.0 * (K + 1), want[3], wj[3], wt[3];
  for (int i = 0; i < 3; i++) {
    want[i] = c * xs[i];
    wj[i] = c * dx[i];
    wt[i] = c * v[i];
  }
  both(h, "a sum of 1101 x[i] times 2", t, 1, tys, parts, dx, v, want, 3, wj, wt, 3, 0, 1);
}

int main(void) {
  prog_setup();
  heap *h = heap_new((size_t)1 << 26);
  fast_set_loop_min(0);
  eval_set_max_depth(LIMIT);
  test_ties(h);
  test_signed_zeros(h);
  test_logsumexp(h);
  test_depth_limit(h);
  test_export_depth();
  test_many_registers(h);
  heap_free(h);
  printf("test_fast_edges: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
