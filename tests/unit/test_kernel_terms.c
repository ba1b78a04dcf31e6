/* Term constructors: for every kind a well-typed request succeeds with the
 * right node, and ill-typed ones return CHAD_E_TYPE (or CHAD_E_ARG) leaving
 * the arena unchanged; capacity exhaustion of the term arena. */
#include <stdio.h>
#include "chad/kernel.h"

#include "check.h"

/* a request that must be refused with code e and change nothing (neither
 * the term nor the type table) */
#define REJECT(call, e) do { int n_ = tm_count, t_ = ty_count; int r_ = (call); \
    CHECK(r_ == (e)); CHECK(tm_count == n_); CHECK(ty_count == t_); } while (0)

static int R, I, U, RR, ARR_R, F_RR, L_RR, II;
static int g0, gR, gI, gU, gRR;

static void setup(void)
{
  ty_init(); ctx_init(); op_init(); tm_init(); raw_init();
  R = TY_ID_REAL; I = TY_ID_INT; U = TY_ID_UNIT;
  RR = ty_prod(R, R); II = ty_prod(I, I); ARR_R = ty_arr(R);
  F_RR = ty_fun(R, R); L_RR = ty_lfun(R, R);
  g0 = CTX_EMPTY; gR = ctx_extend(g0, R); gI = ctx_extend(g0, I);
  gU = ctx_extend(g0, U); gRR = ctx_extend(gR, R);
}

/* checks the node just added */
static int node(int t, int kind, int g, int ty, int a, int b, int c)
{
  return t >= 0 && t == tm_count - 1 && tm_kind(t) == kind && tm_ctx(t) == g &&
         tm_type(t) == ty && tm_a(t) == a && tm_b(t) == b && tm_c(t) == c;
}

static void source(void)
{
  printf("terms: source constructors accept and reject\n");
  setup();
  int x = tm_var(gR, 0);
  CHECK(node(x, TM_VAR, gR, R, -1, -1, -1) && tm_aux(x) == 0);
  int y = tm_var(gRR, 1);
  CHECK(node(y, TM_VAR, gRR, R, -1, -1, -1) && tm_aux(y) == 1);
  REJECT(tm_var(gR, 1), CHAD_E_UNBOUND);
  REJECT(tm_var(gR, -1), CHAD_E_UNBOUND);
  REJECT(tm_var(ctx_count, 0), CHAD_E_ARG);

  int r0 = tm_rconst(g0, 2.5);
  CHECK(node(r0, TM_RCONST, g0, R, -1, -1, -1) && tm_rval(r0) == 2.5);
  int i0 = tm_iconst(g0, 7);
  CHECK(node(i0, TM_ICONST, g0, I, -1, -1, -1) && tm_aux(i0) == 7);
  int u0 = tm_unit(g0);
  CHECK(node(u0, TM_UNIT, g0, U, -1, -1, -1));
  REJECT(tm_unit(-1), CHAD_E_ARG);
  REJECT(tm_rconst(ctx_count, 1.0), CHAD_E_ARG);

  /* let x = 2.5 in x */
  int l = tm_let(r0, x);
  CHECK(node(l, TM_LET, g0, R, r0, x, -1));
  REJECT(tm_let(i0, x), CHAD_E_TYPE);        /* body ctx is (., Real) */
  REJECT(tm_let(r0, r0), CHAD_E_TYPE);       /* body ctx not an extension */
  REJECT(tm_let(r0, tm_count), CHAD_E_ARG);

  int lam = tm_lam(R, x);
  CHECK(node(lam, TM_LAM, g0, F_RR, x, -1, -1));
  REJECT(tm_lam(I, x), CHAD_E_TYPE);
  REJECT(tm_lam(R, r0), CHAD_E_TYPE);        /* body in the empty context */
  REJECT(tm_lam(ty_count, x), CHAD_E_ARG);

  int app = tm_app(lam, r0);
  CHECK(node(app, TM_APP, g0, R, lam, r0, -1));
  REJECT(tm_app(lam, i0), CHAD_E_TYPE);
  REJECT(tm_app(r0, r0), CHAD_E_TYPE);
  REJECT(tm_app(lam, x), CHAD_E_TYPE);       /* contexts differ */

  int p = tm_pair(r0, i0);
  CHECK(node(p, TM_PAIR, g0, ty_prod(R, I), r0, i0, -1));
  REJECT(tm_pair(r0, x), CHAD_E_TYPE);
  REJECT(tm_pair(r0, tm_count), CHAD_E_ARG);  /* either child not a term */
  REJECT(tm_pair(tm_count, r0), CHAD_E_ARG);
  int f = tm_fst(p), s = tm_snd(p);
  CHECK(f >= 0 && tm_kind(f) == TM_FST && tm_ctx(f) == g0 && tm_type(f) == R &&
        tm_a(f) == p && tm_b(f) == -1);
  CHECK(node(s, TM_SND, g0, I, p, -1, -1));
  REJECT(tm_fst(r0), CHAD_E_TYPE);
  REJECT(tm_snd(i0), CHAD_E_TYPE);

  int il = tm_inl(r0, I);
  CHECK(node(il, TM_INL, g0, ty_sum(R, I), r0, -1, -1));
  int ir = tm_inr(R, i0);
  CHECK(node(ir, TM_INR, g0, ty_sum(R, I), i0, -1, -1));
  REJECT(tm_inl(r0, -1), CHAD_E_ARG);
  REJECT(tm_inr(ty_count, i0), CHAD_E_ARG);

  /* case il (a. a) (b. toreal-free: 1.0 in ctx (., Int)) */
  int bl = tm_var(gR, 0);
  int br = tm_rconst(gI, 1.0);
  int cs = tm_case(il, bl, br);
  CHECK(node(cs, TM_CASE, g0, R, il, bl, br));
  REJECT(tm_case(r0, bl, br), CHAD_E_TYPE);     /* scrutinee not a sum */
  REJECT(tm_case(il, br, bl), CHAD_E_TYPE);     /* branch contexts swapped */
  int bi = tm_var(gI, 0);
  REJECT(tm_case(il, bl, bi), CHAD_E_TYPE);     /* branch types differ */

  int rr = ty_prod(R, R);
  int add = op_register(rr, R, rr, R);
  int pr = tm_pair(r0, r0);
  int op = tm_op(add, pr);
  CHECK(node(op, TM_OP, g0, R, pr, -1, -1) && tm_aux(op) == add);
  REJECT(tm_op(add, r0), CHAD_E_TYPE);
  REJECT(tm_op(op_count, pr), CHAD_E_ARG);

  /* iter n (x. x) 2.5 */
  int it = tm_iter(i0, x, r0);
  CHECK(node(it, TM_ITER, g0, R, i0, x, r0));
  REJECT(tm_iter(r0, x, r0), CHAD_E_TYPE);      /* n not Int */
  REJECT(tm_iter(i0, x, i0), CHAD_E_TYPE);      /* body ctx (., Real) but init Int */
  int rI = tm_rconst(gI, 0.0);
  REJECT(tm_iter(i0, rI, i0), CHAD_E_TYPE);     /* body Real, init Int */
  CHECK(tm_type(tm_iter(i0, bi, i0)) == I);

  /* loop n (x. inr x) 2.5: the body answers Real + Real */
  int RsR = ty_sum(R, R);
  int stop = tm_inr(R, x);
  int lp = tm_loop(i0, stop, r0);
  CHECK(node(lp, TM_LOOP, g0, R, i0, stop, r0));
  REJECT(tm_loop(r0, stop, r0), CHAD_E_TYPE);     /* fuel not Int */
  REJECT(tm_loop(i0, x, r0), CHAD_E_TYPE);        /* body Real, not Real + Real */
  REJECT(tm_loop(i0, stop, i0), CHAD_E_TYPE);     /* body ctx (., Real) but start Int */
  int stopI = tm_inr(I, x);
  REJECT(tm_loop(i0, stopI, r0), CHAD_E_TYPE);    /* body Int + Real */
  REJECT(tm_loop(-1, stop, r0), CHAD_E_ARG);
  CHECK(tm_type(stop) == RsR);

  /* build n (i. toreal-less body 1.0) */
  int body = tm_rconst(gI, 1.0);
  int bu = tm_build(i0, body);
  CHECK(node(bu, TM_BUILD, g0, ARR_R, i0, body, -1));
  REJECT(tm_build(r0, body), CHAD_E_TYPE);
  REJECT(tm_build(i0, x), CHAD_E_TYPE);          /* body ctx (., Real) */

  int ix = tm_index(bu, i0);
  CHECK(node(ix, TM_INDEX, g0, R, bu, i0, -1));
  REJECT(tm_index(bu, r0), CHAD_E_TYPE);
  REJECT(tm_index(r0, i0), CHAD_E_TYPE);
  int ln = tm_length(bu);
  CHECK(node(ln, TM_LENGTH, g0, I, bu, -1, -1));
  REJECT(tm_length(i0), CHAD_E_TYPE);

  /* map (x. (x, x)) bu */
  int xx = tm_pair(x, x);
  int mp = tm_map(xx, bu);
  CHECK(node(mp, TM_MAP, g0, ty_arr(RR), xx, bu, -1));
  REJECT(tm_map(body, bu), CHAD_E_TYPE);         /* body ctx (., Int) */
  REJECT(tm_map(xx, r0), CHAD_E_TYPE);

  int sm = tm_sum(bu);
  CHECK(node(sm, TM_SUM, g0, R, bu, -1, -1));
  REJECT(tm_sum(mp), CHAD_E_TYPE);
  REJECT(tm_sum(r0), CHAD_E_TYPE);
}

static void target(void)
{
  printf("terms: target constructors accept and reject\n");
  setup();
  int r0 = tm_rconst(g0, 1.0), i0 = tm_iconst(g0, 3);
  int z = tm_zero(g0, RR);
  CHECK(node(z, TM_ZERO, g0, RR, -1, -1, -1));
  CHECK(tm_zero(g0, ty_fun(I, R)) >= 0);
  CHECK(tm_zero(g0, L_RR) >= 0);
  CHECK(tm_zero(g0, ty_copow(ty_fun(R, R), R)) >= 0);
  CHECK(tm_zero(g0, ty_arr(ty_arr(R))) >= 0);
  CHECK(tm_zero(g0, U) >= 0);
  /* the argument types first, so that REJECT sees the request alone */
  int sRR = ty_sum(R, R), fRI = ty_fun(R, I), cRI = ty_copow(R, I);
  REJECT(tm_zero(g0, I), CHAD_E_TYPE);
  REJECT(tm_zero(g0, sRR), CHAD_E_TYPE);
  REJECT(tm_zero(g0, II), CHAD_E_TYPE);
  REJECT(tm_zero(g0, fRI), CHAD_E_TYPE);
  REJECT(tm_zero(g0, cRI), CHAD_E_TYPE);
  REJECT(tm_zero(g0, ty_count), CHAD_E_ARG);

  int pl = tm_plus(r0, r0);
  CHECK(node(pl, TM_PLUS, g0, R, r0, r0, -1));
  REJECT(tm_plus(i0, i0), CHAD_E_TYPE);
  REJECT(tm_plus(r0, z), CHAD_E_TYPE);

  int v = tm_var(gR, 0);
  int ll = tm_llam(R, v);
  CHECK(node(ll, TM_LLAM, g0, L_RR, v, -1, -1));
  int vi = tm_var(gI, 0);
  REJECT(tm_llam(I, vi), CHAD_E_TYPE);           /* body Int: not linear */
  REJECT(tm_llam(I, v), CHAD_E_TYPE);

  int la = tm_lapp(ll, r0);
  CHECK(node(la, TM_LAPP, g0, R, ll, r0, -1));
  REJECT(tm_lapp(ll, i0), CHAD_E_TYPE);
  int lam = tm_lam(R, v);
  REJECT(tm_lapp(lam, r0), CHAD_E_TYPE);         /* -> is not -o */
  REJECT(tm_app(ll, r0), CHAD_E_TYPE);

  int cp = tm_cp_single(i0, r0);
  CHECK(node(cp, TM_CP_SINGLE, g0, ty_copow(I, R), i0, r0, -1));
  REJECT(tm_cp_single(r0, i0), CHAD_E_TYPE);     /* Int not linear */

  /* cp_fold cp (x v. v) in ((., Int), Real) */
  int gIR = ctx_extend(gI, R);
  int vb = tm_var(gIR, 0);
  int cf = tm_cp_fold(cp, vb);
  CHECK(node(cf, TM_CP_FOLD, g0, R, cp, vb, -1));
  int xb = tm_var(gIR, 1);
  REJECT(tm_cp_fold(cp, xb), CHAD_E_TYPE);       /* result Int, not linear */
  int gRR2 = ctx_extend(gR, R);
  int wrong = tm_var(gRR2, 0);
  REJECT(tm_cp_fold(cp, wrong), CHAD_E_TYPE);    /* wrong ctx */
  REJECT(tm_cp_fold(r0, vb), CHAD_E_TYPE);

  int lbody = tm_rconst(gI, 2.0);
  int ls = tm_lsum(i0, lbody);
  CHECK(node(ls, TM_LSUM, g0, R, i0, lbody, -1));
  REJECT(tm_lsum(i0, vi), CHAD_E_TYPE);          /* Int body */
  REJECT(tm_lsum(r0, lbody), CHAD_E_TYPE);

  int sn = op_register(R, R, R, R);
  int cmp = op_register(RR, ty_sum(U, U), RR, ty_prod(U, U)); /* T(Unit + Unit) = Unit * Unit */
  int d = tm_lop_d(sn, r0, r0);
  CHECK(node(d, TM_LOP_D, g0, R, r0, r0, -1) && tm_aux(d) == sn);
  int pr = tm_pair(r0, r0);
  int u0 = tm_unit(g0);
  int d2 = tm_lop_d(cmp, pr, pr);
  CHECK(node(d2, TM_LOP_D, g0, ty_prod(U, U), pr, pr, -1));
  int uu0 = tm_pair(u0, u0);
  int dt = tm_lop_dt(cmp, pr, uu0);
  CHECK(node(dt, TM_LOP_DT, g0, RR, pr, uu0, -1) && tm_aux(dt) == cmp);
  REJECT(tm_lop_dt(cmp, pr, u0), CHAD_E_TYPE);   /* Unit is not T(Unit + Unit) */
  REJECT(tm_lop_d(cmp, pr, u0), CHAD_E_TYPE);
  REJECT(tm_lop_dt(cmp, pr, pr), CHAD_E_TYPE);
  REJECT(tm_lop_d(sn, i0, r0), CHAD_E_TYPE);
  REJECT(tm_lop_d(op_count, r0, r0), CHAD_E_ARG);

  int oh = tm_onehot(i0, r0);
  CHECK(node(oh, TM_ONEHOT, g0, ARR_R, i0, r0, -1));
  REJECT(tm_onehot(r0, r0), CHAD_E_TYPE);
  REJECT(tm_onehot(i0, i0), CHAD_E_TYPE);

  /* arrays of closures are allowed in the arena (target language) */
  int cl = tm_lam(R, v);
  int ab = tm_build(i0, tm_lam(R, tm_var(ctx_extend(gI, R), 0)));
  CHECK(cl >= 0 && ab >= 0 && tm_type(ab) == ty_arr(F_RR));
}

static void accessors_and_capacity(void)
{
  printf("terms: accessors out of range, capacity exhaustion\n");
  setup();
  CHECK(tm_kind(0) == CHAD_E_ARG && tm_type(-1) == CHAD_E_ARG && tm_aux(5) == CHAD_E_ARG);
  CHECK(tm_rval(3) == 0.0);
  int last = 0;
  while ((last = tm_unit(g0)) >= 0)
    ;
  CHECK(last == CHAD_E_CAPACITY && tm_count == CHAD_MAX_TERMS);
  int n = tm_count;
  CHECK(tm_pair(0, 1) == CHAD_E_CAPACITY && tm_count == n);
  CHECK(tm_lam(U, 0) == CHAD_E_TYPE && tm_count == n);
  tm_init();
  CHECK(tm_count == 0);
}

int main(void)
{
  source();
  target();
  accessors_and_capacity();
  printf("test_kernel_terms: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
