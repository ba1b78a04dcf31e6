/* Unit tests of the property tests' own value <-> vector code
 * (proptests/vec.c), which turns the tangents and cotangents the evaluators
 * return into vectors of reals: a value it calls malformed must be one.
 *
 * The evaluators' sparse array cotangents may contain splice entries
 * (include/chad/eval.h): v_plus joins two entry lists of more than 4 entries
 * each in O(1) by two ENTRY_SPLICE entries. vec.c once walked the entry list
 * by `next` alone, so every such cotangent was reported as "malformed
 * cotangent value" (proptest seed 14045980580, program 8413).
 *
 * vec.c and adapter.c (its one contact with libchad) are compiled into this
 * test, so that the release and the sanitized unit suites both run them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../proptests/vec.c"
#include "../../proptests/adapter.c"

#include "check.h"

static heap *H;
static int R, AR, AAR;

static const value *nz(const value *v) {
  if (!v) {
    fprintf(stderr, "test_proptest_vec: a value constructor failed\n");
    exit(2);
  }
  return v;
}

static const value *reals(int n, const double *xs) {
  value *a = v_array(H, n);
  if (!a) nz(NULL);
  for (int i = 0; i < n; i++) a->u.arr.elems[i] = nz(v_real(H, xs[i]));
  return a;
}

static const value *plus(const value *a, const value *b) {
  eval_error err;
  eval_error_clear(&err);
  return nz(v_plus(H, a, b, &err));
}

static const value *onehot(int64_t j, const value *v) {
  eval_error err;
  eval_error_clear(&err);
  return nz(v_onehot(H, j, v, &err));
}

/* k one-hot cotangents "x at index j" summed one by one: k physical entries. */
static const value *repeated(int k, int64_t j, const value *x) {
  const value *s = nz(v_zero(H));
  for (int i = 0; i < k; i++) s = plus(s, onehot(j, x));
  return s;
}

static int close_to(const double *got, const double *want, int n) {
  for (int i = 0; i < n; i++)
    if (fabs(got[i] - want[i]) > 1e-12 * fmax(1.0, fabs(want[i]))) {
      fprintf(stderr, "  slot %d: %.17g, want %.17g\n", i, got[i], want[i]);
      return 0;
    }
  return 1;
}

/* The one-parameter program p (x : ty) with argument x. */
static pt_program one_param(int ty, int term, int ctx) {
  pt_program p;
  memset(&p, 0, sizeof p);
  p.nparams = 1;
  p.param_ty[0] = ty;
  p.ctx = ctx;
  p.result_ty = term >= 0 ? tm_type(term) : ty;
  p.term = term;
  return p;
}

static void test_spliced_sparse(void) {
  printf("sparse cotangents joined by splice entries are flattened, not rejected\n");
  double out[PT_MAX_DIM];
  const value *x = reals(3, (double[]){1, 2, 3});
  /* 5 + 5 entries: v_plus joins them by splices */
  const value *s = plus(repeated(5, 0, nz(v_real(H, 1.0))), repeated(5, 2, nz(v_real(H, 2.0))));
  CHECK(s->kind == V_SPARSE && s->u.entries.count == 10);
  CHECK(s->u.entries.first->index == ENTRY_SPLICE); /* the case under test */
  CHECK(pt_flatten_lin(AR, x, s, out) == 3 && close_to(out, (double[]){5, 0, 10}, 3));
  /* the cotangent of the context (Unit, C [real]) */
  pt_program p = one_param(AR, -1, ctx_extend(CTX_EMPTY, AR));
  const value *args[1] = {x};
  const value *g = nz(v_pair(H, nz(v_unit(H)), s));
  CHECK(pt_ctx_lin_flatten(&p, args, g, out) == 3 && close_to(out, (double[]){5, 0, 10}, 3));
  /* splices of splices: (5 + 5) + (5 + 5) */
  const value *s2 = plus(s, plus(repeated(5, 1, nz(v_real(H, 0.5))), repeated(5, 1, nz(v_real(H, 0.25)))));
  CHECK(s2->u.entries.first->index == ENTRY_SPLICE);
  CHECK(pt_flatten_lin(AR, x, s2, out) == 3 && close_to(out, (double[]){5, 3.75, 10}, 3));

  /* arrays of arrays: outer and inner lists both spliced */
  value *m = v_array(H, 2);
  if (!m) nz(NULL);
  m->u.arr.elems[0] = reals(3, (double[]){1, 2, 3});
  m->u.arr.elems[1] = reals(3, (double[]){4, 5, 6});
  const value *outer = plus(repeated(5, 1, s), repeated(5, 0, onehot(1, nz(v_real(H, 1.0)))));
  CHECK(outer->u.entries.first->index == ENTRY_SPLICE);
  CHECK(pt_flatten_lin(AAR, m, outer, out) == 6 &&
        close_to(out, (double[]){0, 5, 0, 25, 0, 50}, 6));
  /* a dense outer array of spliced rows */
  value *d = v_array(H, 2);
  if (!d) nz(NULL);
  d->u.arr.elems[0] = s;
  d->u.arr.elems[1] = nz(v_zero(H));
  CHECK(pt_flatten_lin(AAR, m, d, out) == 6 && close_to(out, (double[]){5, 0, 10, 0, 0, 0}, 6));
}

static void test_malformed(void) {
  printf("malformed (co)tangents are still rejected, inside splices too\n");
  double out[PT_MAX_DIM];
  const value *x = reals(3, (double[]){1, 2, 3});
  const value *one = nz(v_real(H, 1.0));
  /* index 3 of a length-3 array, at the top and behind a splice */
  CHECK(pt_flatten_lin(AR, x, onehot(3, one), out) == -1);
  const value *bad = plus(repeated(5, 0, one), plus(repeated(4, 1, one), onehot(3, one)));
  CHECK(bad->u.entries.first->index == ENTRY_SPLICE);
  CHECK(pt_flatten_lin(AR, x, bad, out) == -1);
  /* a dense array of another length; a non-real element behind a splice */
  CHECK(pt_flatten_lin(AR, x, reals(2, (double[]){1, 2}), out) == -1);
  const value *notreal = plus(repeated(5, 0, one), repeated(5, 1, nz(v_unit(H))));
  CHECK(notreal->u.entries.first->index == ENTRY_SPLICE);
  CHECK(pt_flatten_lin(AR, x, notreal, out) == -1);
  /* a real where an array is expected */
  CHECK(pt_flatten_lin(AR, x, one, out) == -1);
}

/* The proptest's rev_apply path (props.c): eval R t, apply its linear half
 * to a dense cotangent, flatten the context cotangent. Both evaluators. */
static void rev_path(const char *src, const value *x, double cot, const double *want, int n) {
  chad_diag d;
  surf_program *sp = surf_parse_string(src, "<test>", &d);
  CHECK(sp != NULL);
  if (!sp) return;
  int t = -1, g = -1;
  int rc = surf_elab_def(sp, surf_def_count(sp) - 1, &t, &g, &d);
  surf_free(sp);
  CHECK(rc == CHAD_EXIT_OK);
  if (rc != CHAD_EXIT_OK) return;
  int r = chad_rev(t);
  CHECK(r >= 0);
  if (r < 0) return;
  pt_program p = one_param(AR, t, g);
  const value *args[1] = {x};
  for (int fast = 0; fast <= 1; fast++) {
    pt_use_fast = fast;
    const char *err = "";
    const value *y = pt_eval(H, t, pt_env(H, &p, args), &err);
    const value *pair = pt_eval(H, r, pt_env(H, &p, args), &err);
    CHECK(y && pair && pair->kind == V_PAIR);
    if (!y || !pair || pair->kind != V_PAIR) continue;
    double vs[PT_MAX_DIM];
    for (int j = 0; j < PT_MAX_DIM; j++) vs[j] = cot;
    int pos = 0;
    const value *ct = pt_tangent(H, p.result_ty, y, vs, &pos);
    const value *gv = pt_apply(H, pair->u.pair.b, ct, &err);
    CHECK(gv != NULL);
    if (!gv) { fprintf(stderr, "  apply failed: %s\n", err); continue; }
    double out[PT_MAX_DIM];
    int k = pt_ctx_lin_flatten(&p, args, gv, out);
    if (k != n) fprintf(stderr, "  %s evaluator: pt_ctx_lin_flatten returned %d, want %d\n",
                        fast ? "fast" : "reference", k, n);
    CHECK(k == n && close_to(out, want, n));
  }
  pt_use_fast = 0;
}

static void test_reverse_programs(void) {
  printf("reverse derivatives whose cotangents are joined by splices\n");
  const value *x = reals(3, (double[]){1, 2, 3});
  /* the smallest program: two sums of 5 one-hot cotangents each */
  rev_path("def prog (x : [real]) : real =\n"
           "  sum (build 5 (fun i -> x[0])) + sum (build 5 (fun i -> x[0]))\n",
           x, 2.0, (double[]){20, 0, 0}, 3);
  /* proptest seed 14045980580, program 8413 (shrunk): arrays of arrays */
  rev_path("def prog (x1 : [real]) : [real] =\n"
           "  build (length x1) (fun i ->\n"
           "    logsumexp (build (length x1) (fun i1 ->\n"
           "      sum (map (fun (a : [real]) ->\n"
           "        let a1 = a in\n"
           "        a1[0]) (map (fun (x : real) -> x1) (build 3 (fun i2 -> -1.0)))))))\n",
           x, 1.0, (double[]){9, 0, 0}, 3);
}

int main(void) {
  ty_init();
  ctx_init();
  tm_init();
  raw_init();
  op_init();
  if (prims_init() < 0) {
    fprintf(stderr, "prims_init failed\n");
    return 1;
  }
  chad_init();
  R = TY_ID_REAL;
  AR = ty_arr(R);
  AAR = ty_arr(AR);
  H = heap_new((size_t)1 << 28);
  if (!H) return 2;
  test_spliced_sparse();
  test_malformed();
  test_reverse_programs();
  heap_free(H);
  printf("test_proptest_vec: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
