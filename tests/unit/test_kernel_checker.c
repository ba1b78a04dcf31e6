/* Raw terms and the bidirectional checker: accepted programs get the right
 * type in the right context; rejected ones leave the arena unchanged and
 * report the innermost offending raw node with expected/found types. */
#include <stdio.h>
#include "chad/kernel.h"

#include "check.h"

static int R, I, U, RR, ARR_R, F_RR;
static int line;

static void setup(void)
{
  ty_init(); ctx_init(); op_init(); tm_init(); raw_init();
  R = TY_ID_REAL; I = TY_ID_INT; U = TY_ID_UNIT;
  RR = ty_prod(R, R); ARR_R = ty_arr(R); F_RR = ty_fun(R, R);
  line = 1;
}

static int rw(int kind, int a, int b, int c, int ty, int64_t aux)
{
  int r = raw_add(kind, a, b, c, ty, aux, 0.0, line++, 1);
  CHECK(r >= 0);
  return r;
}
static int rvar(int k) { return rw(TM_VAR, -1, -1, -1, -1, k); }
static int rreal(double x) { int r = raw_add(TM_RCONST, -1, -1, -1, -1, 0, x, line++, 1); CHECK(r >= 0); return r; }
static int rinteger(int64_t n) { return rw(TM_ICONST, -1, -1, -1, -1, n); }

/* elaborates and checks success with type ty in ctx g */
static int ok(int r, int g, int exp, int ty)
{
  int t = chk_elab(r, g, exp);
  CHECK(t >= 0 && t < tm_count && tm_type(t) == ty && tm_ctx(t) == g);
  CHECK(chk_err_code == 0);
  return t;
}
/* elaborates and checks failure: code, offending raw node, arena unchanged */
static void bad(int r, int g, int exp, int code, int at)
{
  int n = tm_count;
  int t = chk_elab(r, g, exp);
  CHECK(t == code && chk_err_code == code && chk_err_raw == at && tm_count == n);
  if (!(t == code && chk_err_raw == at))
    printf("  got %d at raw %d line %d (wanted %d at %d line %d)\n", t, chk_err_raw, chk_err_raw >= 0 ? raw_line_[chk_err_raw] : 0, code, at, raw_line_[at]);
}

static void raw_table(void)
{
  printf("raw: kinds, children and annotations are range-checked\n");
  setup();
  int x = rvar(0);
  CHECK(raw_add(TM_ZERO, -1, -1, -1, -1, 0, 0, 1, 1) == CHAD_E_ARG);
  CHECK(raw_add(-1, -1, -1, -1, -1, 0, 0, 1, 1) == CHAD_E_ARG);
  CHECK(raw_add(RAW_ANN + 1, -1, -1, -1, -1, 0, 0, 1, 1) == CHAD_E_ARG);
  CHECK(raw_add(TM_FST, raw_count, -1, -1, -1, 0, 0, 1, 1) == CHAD_E_ARG);
  CHECK(raw_add(TM_FST, -2, -1, -1, -1, 0, 0, 1, 1) == CHAD_E_ARG);
  CHECK(raw_add(RAW_ANN, x, -1, -1, ty_count, 0, 0, 1, 1) == CHAD_E_ARG);
  CHECK(raw_count == 1);
  int a = raw_add(RAW_ANN, x, -1, -1, R, 0, 0, 3, 4);
  CHECK(a == 1 && raw_kind_[a] == RAW_ANN && raw_a_[a] == x && raw_ty_[a] == R &&
        raw_line_[a] == 3 && raw_col_[a] == 4);
}

static void accepts(void)
{
  printf("checker: well-typed programs elaborate with the right types\n");
  setup();
  int rr = ty_prod(R, R), ii = ty_prod(I, I);
  int add = op_register(rr, R, rr, R);
  int iadd = op_register(ii, I, ty_prod(U, U), U); /* T(Int * Int) = Unit * Unit */
  CHECK(op_set_alt(add, iadd) == 0);

  /* \x:Real. x + x */
  int x = rvar(0);
  int p = rw(TM_PAIR, x, x, -1, -1, 0);
  int o = rw(TM_OP, p, -1, -1, -1, add);
  int lam = rw(TM_LAM, o, -1, -1, R, 0);
  int t = ok(lam, CTX_EMPTY, -1, F_RR);
  CHECK(tm_kind(t) == TM_LAM);
  /* same lambda without annotation, checked against Real -> Real */
  int lam2 = rw(TM_LAM, o, -1, -1, -1, 0);
  ok(lam2, CTX_EMPTY, F_RR, F_RR);
  /* overloaded +: integer arguments pick the alternative */
  int one = rinteger(1);
  int p2 = rw(TM_PAIR, one, one, -1, -1, 0);
  int o2 = rw(TM_OP, p2, -1, -1, -1, add);
  int t2 = ok(o2, CTX_EMPTY, -1, I);
  CHECK(tm_aux(t2) == iadd);
  /* let y = 2.0 in (\x. x) y */
  int two = rreal(2.0);
  int idb = rvar(0);
  int id = rw(TM_LAM, idb, -1, -1, R, 0);
  int y = rvar(0);
  int ap = rw(TM_APP, id, y, -1, -1, 0);
  int let = rw(TM_LET, two, ap, -1, -1, 0);
  ok(let, CTX_EMPTY, R, R);
  /* fst, snd, unit */
  int u = rw(TM_UNIT, -1, -1, -1, -1, 0);
  int pu = rw(TM_PAIR, two, u, -1, -1, 0);
  ok(rw(TM_FST, pu, -1, -1, -1, 0), CTX_EMPTY, -1, R);
  ok(rw(TM_SND, pu, -1, -1, -1, 0), CTX_EMPTY, -1, U);
  /* inl with annotation, inr from expected type, case */
  int il = rw(TM_INL, two, -1, -1, I, 0);
  int s = ty_sum(R, I);
  ok(il, CTX_EMPTY, -1, s);
  int ir = rw(TM_INR, one, -1, -1, -1, 0);
  ok(ir, CTX_EMPTY, s, s);
  int cl = rvar(0);
  int toreal = op_register(I, R, U, R);
  int cr = rw(TM_OP, rvar(0), -1, -1, -1, toreal);
  int cs = rw(TM_CASE, il, cl, cr, -1, 0);
  ok(cs, CTX_EMPTY, -1, R);
  ok(cs, CTX_EMPTY, R, R);
  /* iter 3 (x. x + x) 1.0 */
  int three = rinteger(3);
  int xx = rw(TM_OP, rw(TM_PAIR, rvar(0), rvar(0), -1, -1, 0), -1, -1, -1, add);
  int it = rw(TM_ITER, three, xx, rreal(1.0), -1, 0);
  ok(it, CTX_EMPTY, -1, R);
  /* loop 3 (x. inr (x + x)) 1.0: the body is checked against Real + Real,
   * so inr needs no annotation */
  int lp = rw(TM_LOOP, three, rw(TM_INR, xx, -1, -1, -1, 0), rreal(1.0), -1, 0);
  ok(lp, CTX_EMPTY, -1, R);
  ok(lp, CTX_EMPTY, R, R);
  /* build 3 (i. toreal i), index, length, map, sum */
  int bu = rw(TM_BUILD, three, rw(TM_OP, rvar(0), -1, -1, -1, toreal), -1, -1, 0);
  ok(bu, CTX_EMPTY, -1, ARR_R);
  ok(rw(TM_INDEX, bu, one, -1, -1, 0), CTX_EMPTY, -1, R);
  ok(rw(TM_LENGTH, bu, -1, -1, -1, 0), CTX_EMPTY, -1, I);
  int mp = rw(TM_MAP, rw(TM_PAIR, rvar(0), rvar(0), -1, -1, 0), bu, -1, -1, 0);
  ok(mp, CTX_EMPTY, -1, ty_arr(RR));
  ok(rw(TM_SUM, bu, -1, -1, -1, 0), CTX_EMPTY, -1, R);
  /* annotation */
  ok(rw(RAW_ANN, two, -1, -1, R, 0), CTX_EMPTY, -1, R);
  /* a free variable in a non-empty context */
  int g = ctx_extend(ctx_extend(CTX_EMPTY, I), R);
  ok(rvar(1), g, -1, I);
  ok(rvar(0), g, R, R);
  /* nested array of arrays is first order: fine */
  int bb = rw(TM_BUILD, three, bu, -1, -1, 0);
  ok(bb, CTX_EMPTY, -1, ty_arr(ARR_R));
}

static void rejects(void)
{
  printf("checker: errors name the innermost offending raw node\n");
  setup();
  int rr = ty_prod(R, R);
  int add = op_register(rr, R, rr, R);
  int two = rreal(2.0), one = rinteger(1);
  int n0 = tm_count;

  int v = rvar(0);
  bad(v, CTX_EMPTY, -1, CHAD_E_UNBOUND, v);
  /* unannotated lambda in infer mode */
  int lam = rw(TM_LAM, v, -1, -1, -1, 0);
  bad(lam, CTX_EMPTY, -1, CHAD_E_NOTE, lam);
  bad(lam, CTX_EMPTY, R, CHAD_E_NOTE, lam);
  /* expected/found recorded */
  int pr = rw(TM_PAIR, two, two, -1, -1, 0);
  int n = tm_count;
  CHECK(chk_elab(pr, CTX_EMPTY, R) == CHAD_E_TYPE && tm_count == n);
  CHECK(chk_err_raw == pr && chk_err_expected == R && chk_err_found == RR);
  /* innermost: (2.0, 1) + ... the op's argument is the culprit */
  int bad_arg = rw(TM_PAIR, two, one, -1, -1, 0);
  int o = rw(TM_OP, bad_arg, -1, -1, -1, add);
  int lam2 = rw(TM_LAM, o, -1, -1, R, 0);
  bad(lam2, CTX_EMPTY, -1, CHAD_E_TYPE, bad_arg);
  CHECK(chk_err_expected == rr && chk_err_found == ty_prod(R, I));
  /* check against expected deep inside: let x = 1 in (x : checked Real) */
  int x = rvar(0);
  int let = rw(TM_LET, one, x, -1, -1, 0);
  bad(let, CTX_EMPTY, R, CHAD_E_TYPE, x);
  CHECK(chk_err_expected == R && chk_err_found == I);
  /* loop whose body is not a sum: the body is the culprit, checked against
   * Real + Real */
  int lb = rvar(0);
  int lp = rw(TM_LOOP, one, lb, two, -1, 0);
  bad(lp, CTX_EMPTY, -1, CHAD_E_TYPE, lb);
  CHECK(chk_err_expected == ty_sum(R, R) && chk_err_found == R);
  /* loop fuel not an int */
  int lf = rw(TM_LOOP, two, rw(TM_INR, rvar(0), -1, -1, -1, 0), two, -1, 0);
  bad(lf, CTX_EMPTY, -1, CHAD_E_TYPE, two);
  /* app of a non-function */
  int ap = rw(TM_APP, two, two, -1, -1, 0);
  bad(ap, CTX_EMPTY, -1, CHAD_E_TYPE, two);
  /* fst of a non-pair */
  bad(rw(TM_FST, two, -1, -1, -1, 0), CTX_EMPTY, -1, CHAD_E_TYPE, two);
  /* inl without any annotation */
  int il = rw(TM_INL, two, -1, -1, -1, 0);
  bad(il, CTX_EMPTY, -1, CHAD_E_NOTE, il);
  /* case on a non-sum; case with branches of different types */
  int cs = rw(TM_CASE, two, rvar(0), rvar(0), -1, 0);
  bad(cs, CTX_EMPTY, -1, CHAD_E_TYPE, two);
  int il2 = rw(TM_INL, two, -1, -1, I, 0);
  int brr = rvar(0), bri = rvar(0);
  int cs2 = rw(TM_CASE, il2, brr, bri, -1, 0);
  bad(cs2, CTX_EMPTY, -1, CHAD_E_TYPE, bri);
  CHECK(chk_err_expected == R && chk_err_found == I);
  /* iter with a Real count */
  int it = rw(TM_ITER, two, rvar(0), two, -1, 0);
  bad(it, CTX_EMPTY, -1, CHAD_E_TYPE, two);
  /* build of closures: arrays of functions are not source */
  int idl = rw(TM_LAM, rvar(0), -1, -1, R, 0);
  int bu = rw(TM_BUILD, one, idl, -1, -1, 0);
  bad(bu, CTX_EMPTY, -1, CHAD_E_TYPE, idl);
  /* map over a non-array */
  bad(rw(TM_MAP, rvar(0), two, -1, -1, 0), CTX_EMPTY, -1, CHAD_E_TYPE, two);
  /* sum of Arr Int */
  /* (checking pushes Arr Real into the build: the body is the culprit) */
  int ib = rvar(0);
  int bi = rw(TM_BUILD, one, ib, -1, -1, 0);
  int sm = rw(TM_SUM, bi, -1, -1, -1, 0);
  bad(sm, CTX_EMPTY, -1, CHAD_E_TYPE, ib);
  CHECK(chk_err_expected == R && chk_err_found == I);
  /* length of a non-array */
  bad(rw(TM_LENGTH, one, -1, -1, -1, 0), CTX_EMPTY, -1, CHAD_E_TYPE, one);
  /* annotations with target types or arrays of functions are refused */
  int a1 = rw(RAW_ANN, two, -1, -1, ty_lfun(R, R), 0);
  bad(a1, CTX_EMPTY, -1, CHAD_E_TYPE, a1);
  int a2 = rw(TM_LAM, rvar(0), -1, -1, ty_arr(F_RR), 0);
  bad(a2, CTX_EMPTY, -1, CHAD_E_TYPE, a2);
  bad(two, CTX_EMPTY, ty_copow(R, R), CHAD_E_TYPE, two);
  /* annotation disagrees with expected */
  int a3 = rw(RAW_ANN, two, -1, -1, R, 0);
  bad(a3, CTX_EMPTY, I, CHAD_E_TYPE, a3);
  /* missing child */
  int m = rw(TM_FST, -1, -1, -1, -1, 0);
  bad(m, CTX_EMPTY, -1, CHAD_E_ARG, m);
  /* op code out of range */
  int ob = rw(TM_OP, two, -1, -1, -1, 40);
  bad(ob, CTX_EMPTY, -1, CHAD_E_ARG, ob);
  /* bad arguments */
  CHECK(chk_elab(raw_count, CTX_EMPTY, -1) == CHAD_E_ARG);
  CHECK(chk_elab(two, ctx_count, -1) == CHAD_E_ARG);
  CHECK(chk_elab(two, CTX_EMPTY, ty_count) == CHAD_E_ARG);
  /* a failure after successful subterms truncates them: (1.0, x) */
  int late = rw(TM_PAIR, two, rvar(3), -1, -1, 0);
  bad(late, CTX_EMPTY, -1, CHAD_E_UNBOUND, late - 1);
  CHECK(tm_count == n0);
}

static void depth(void)
{
  printf("checker: depth limit gives CHAD_E_DEPTH, not a crash\n");
  setup();
  /* fst (r, ()) nested: depth grows by 2 per level, work stays linear */
  int u = rw(TM_UNIT, -1, -1, -1, -1, 0);
  int r = rreal(1.0);
  for (int i = 0; i < CHAD_MAX_CHECK_DEPTH / 2 + 5; i++)
    r = rw(TM_FST, rw(TM_PAIR, r, u, -1, -1, 0), -1, -1, -1, 0);
  int n = tm_count;
  CHECK(chk_elab(r, CTX_EMPTY, -1) == CHAD_E_DEPTH && tm_count == n);
  /* just under the limit succeeds */
  int s = rreal(1.0);
  for (int i = 0; i < CHAD_MAX_CHECK_DEPTH / 2 - 1; i++)
    s = rw(TM_FST, rw(TM_PAIR, s, u, -1, -1, 0), -1, -1, -1, 0);
  CHECK(chk_elab(s, CTX_EMPTY, R) >= 0);
}

int main(void)
{
  raw_table();
  accepts();
  rejects();
  depth();
  printf("test_kernel_checker: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
