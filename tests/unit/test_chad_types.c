/* CHAD type preservation: the type translations on hand-computed examples,
 * and every forward/reverse output has exactly the type the rules card
 * states, built independently: F(t) : P tau * (T G -o T tau) in P G,
 * R(t) : P tau * (C tau -o C G) in P G. Also: non-source terms are refused. */
#include "chad_progs.h"

#include "check.h"

static void test_type_translations(void)
{
  int R = R_, I = I_, U = U_;
  int fr = ty_fun(R, R);
  CHECKM(chad_ty_pfwd(fr) == ty_fun(R, ty_prod(R, ty_lfun(R, R))), "P_fwd(R->R)");
  CHECKM(chad_ty_prev(fr) == ty_fun(R, ty_prod(R, ty_lfun(R, R))), "P_rev(R->R)");
  CHECKM(chad_ty_tan(fr) == ty_fun(R, R), "T(R->R) = R -> R");
  CHECKM(chad_ty_cot(fr) == ty_copow(R, R), "C(R->R) = !R (x) R");
  int fi = ty_fun(I, ty_arr(R));
  CHECKM(chad_ty_pfwd(fi) == ty_fun(I, ty_prod(ty_arr(R), ty_lfun(U, ty_arr(R)))), "P_fwd(I->Arr R)");
  CHECKM(chad_ty_prev(fi) == ty_fun(I, ty_prod(ty_arr(R), ty_lfun(ty_arr(R), U))), "P_rev(I->Arr R)");
  CHECKM(chad_ty_cot(fi) == ty_copow(I, ty_arr(R)), "C(I -> Arr R)");
  CHECKM(chad_ty_tan(ty_sum(I, R)) == ty_prod(U, R), "T(Int + Real) = Unit * Real");
  CHECKM(chad_ty_cot(ty_sum(I, R)) == ty_prod(U, R), "C(Int + Real)");
  CHECKM(chad_ty_pfwd(ty_sum(I, R)) == ty_sum(I, R), "P(Int + Real)");
  CHECKM(chad_ty_tan(ty_arr(ty_prod(I, R))) == ty_arr(ty_prod(U, R)), "T(Arr (Int*Real))");
  /* higher order: P_fwd((R->R)->R) = (R -> R*(R-oR)) -> R * ((R->R) -o R) */
  int hf = ty_fun(fr, R);
  int pfr = chad_ty_pfwd(fr);
  CHECKM(chad_ty_pfwd(hf) == ty_fun(pfr, ty_prod(R, ty_lfun(ty_fun(R, R), R))), "P_fwd((R->R)->R)");
  CHECKM(chad_ty_prev(hf) == ty_fun(pfr, ty_prod(R, ty_lfun(R, ty_copow(R, R)))), "P_rev((R->R)->R)");
  CHECKM(chad_ty(CHAD_TAN, ty_lfun(R, R)) == CHAD_E_TYPE, "-o is not a source type");
  /* contexts: T (((), Int), Real) = (Unit * Unit) * Real */
  int g = ctx_extend(ctx_extend(CTX_EMPTY, I), R);
  CHECKM(chad_ctx_tan(g) == ty_prod(ty_prod(U, U), R), "T G nested pairs");
  CHECKM(chad_ctx_cot(g) == ty_prod(ty_prod(U, U), R), "C G nested pairs");
  CHECKM(chad_ctx_tan(CTX_EMPTY) == U, "T () = Unit");
  int gf = ctx_extend(g, fr);
  CHECKM(chad_ctx_pfwd(gf) == ctx_extend(g, pfr), "P G pointwise");
  CHECKM(chad_ctx_cot(gf) == ty_prod(ty_prod(ty_prod(U, U), R), ty_copow(R, R)), "C G with a function");
  printf("type translations on examples: checked\n");
}

static void test_outputs(void)
{
  prog ps[N_PROGS];
  int n = build_progs(ps);
  for (int i = 0; i < n; i++) {
    int t = ps[i].term, g = tm_ctx(t), ty = tm_type(t);
    int f = chad_fwd(t), r = chad_rev(t);
    CHECKM(f >= 0, "%s: chad_fwd failed %d", ps[i].name, f);
    CHECKM(r >= 0, "%s: chad_rev failed %d", ps[i].name, r);
    if (f < 0 || r < 0)
      continue;
    int fexp = ty_prod(chad_ty_pfwd(ty), ty_lfun(chad_ctx_tan(g), chad_ty_tan(ty)));
    int rexp = ty_prod(chad_ty_prev(ty), ty_lfun(chad_ty_cot(ty), chad_ctx_cot(g)));
    CHECKM(tm_type(f) == fexp, "%s: forward type", ps[i].name);
    CHECKM(tm_ctx(f) == chad_ctx_pfwd(g), "%s: forward context", ps[i].name);
    CHECKM(tm_type(r) == rexp, "%s: reverse type", ps[i].name);
    CHECKM(tm_ctx(r) == chad_ctx_prev(g), "%s: reverse context", ps[i].name);
    CHECKM(chad_check_linear(f) == 1, "%s: forward linear maps are linear", ps[i].name);
    CHECKM(chad_check_linear(r) == 1, "%s: reverse linear maps are linear", ps[i].name);
    int s = chad_simplify(f), sr = chad_simplify(r);
    CHECKM(chad_check_linear(s) == 1 && chad_check_linear(sr) == 1,
           "%s: simplified linear maps are linear", ps[i].name);
    CHECKM(s >= 0 && tm_type(s) == fexp && tm_ctx(s) == tm_ctx(f), "%s: simplified forward type", ps[i].name);
    CHECKM(sr >= 0 && tm_type(sr) == rexp && tm_ctx(sr) == tm_ctx(r), "%s: simplified reverse type", ps[i].name);
  }
  printf("forward/reverse/simplified output types and linearity of %d programs: checked\n", n);
}

static void test_handwritten(void)
{
  /* fig1a: x:R |- t : R*(R*R). F : (R*(R*R)) * ((Unit*R) -o R*(R*R)) */
  int t = prog_fig1a();
  int out = ty_prod(R_, ty_prod(R_, R_));
  int f = chad_fwd(t);
  CHECKM(f >= 0 && tm_type(f) == ty_prod(out, ty_lfun(ty_prod(U_, R_), out)), "fig1a forward type by hand");
  /* fig2b: x1:R, x2:Arr R |- t : R.  R : R * (R -o (Unit*R)*Arr R) */
  t = prog_fig2b();
  int r = chad_rev(t);
  CHECKM(r >= 0 && tm_type(r) == ty_prod(R_, ty_lfun(R_, ty_prod(ty_prod(U_, R_), A_))),
         "fig2b reverse type by hand");
  /* a target-only term is not a source term */
  int z = tm_zero(CTX_EMPTY, R_);
  CHECKM(chad_fwd(z) == CHAD_E_TYPE && chad_rev(z) == CHAD_E_TYPE, "zero is refused");
  CHECKM(chad_fwd(-1) < 0 && chad_rev(tm_count + 5) < 0, "bad term ids are refused");
  /* the linearity check can fail: \v. v * v and \v. v + 1 are not linear */
  int gv = ext(CTX_EMPTY, R_);
  int sq = tm_llam(R_, mul(var(gv, 0), var(gv, 0)));
  int aff = tm_llam(R_, tm_plus(var(gv, 0), rc(gv, 1.0)));
  int good = tm_llam(R_, tm_plus(var(gv, 0), tm_lop_d(P_SIN, rc(gv, 1.0), var(gv, 0))));
  CHECKM(chad_check_linear(sq) == 0, "v * v is not linear");
  CHECKM(chad_check_linear(aff) == 0, "v + 1 is not linear");
  CHECKM(chad_check_linear(good) == 1, "v + Dsin(1; v) is linear");
  printf("hand-written expected types and refusals: checked\n");
}

/* x:R |- neg (neg (... x)) n deep */
static int neg_chain(int n)
{
  int g = ext(CTX_EMPTY, R_);
  int t = var(g, 0);
  for (int i = 0; i < n; i++)
    t = op1(P_NEG, t);
  return t;
}

/* x:R |- iter (iter (... (iter 1 (fun k -> k) 0) ...) (fun k -> k) 0) (fun k -> k) 0,
 * n deep through the count: the passes count depth through an iteration's
 * count like through any other child */
static int iter_count_chain(int n)
{
  int g = ext(CTX_EMPTY, R_);
  int gk = ext(g, I_);
  int t = tm_iconst(g, 1);
  for (int i = 0; i < n; i++)
    t = tm_iter(t, tm_var(gk, 0), tm_iconst(g, 0));
  return t;
}

/* xs:[R] |- sum (map (fun y -> neg (... (neg y))) xs), n negations: the
 * body of a map is three levels below the root */
static int map_neg_chain(int n)
{
  int g0 = ext(CTX_EMPTY, A_), g1 = ext(g0, R_);
  int t = var(g1, 0);
  for (int i = 0; i < n; i++)
    t = op1(P_NEG, t);
  return OK(tm_sum(OK(tm_map(t, var(g0, 0)))));
}

static void test_limits(void)
{
  int chain = iter_count_chain(5000);
  CHECKM(chain >= 0 && tm_type(chain) == I_, "5000 iterations nested in the count position: an int term");
  CHECKM(chad_fwd(chain) == CHAD_E_DEPTH, "iterations nested 5000 deep in the count: forward reports the depth limit");
  CHECKM(chad_rev(chain) == CHAD_E_DEPTH, "iterations nested 5000 deep in the count: reverse reports the depth limit");
  int short_chain = iter_count_chain(100);
  CHECKM(chad_fwd(short_chain) >= 0 && chad_rev(short_chain) >= 0, "iterations nested 100 deep: translated");
  int deep = neg_chain(5000);
  CHECKM(chad_fwd(deep) == CHAD_E_DEPTH, "5000-deep term: forward reports the depth limit");
  CHECKM(chad_rev(deep) == CHAD_E_DEPTH, "5000-deep term: reverse reports the depth limit");
  /* a map's body counts its depth like any other child: 3997 negations
   * under sum (map ...) are 4000 levels, translated; 3998 are not */
  for (int n = 3997; n <= 3998; n++) {
    int mc = map_neg_chain(n);
    int fm = chad_fwd(mc), rm = chad_rev(mc);
    if (n == 3997)
      CHECKM(fm >= 0 && rm >= 0, "%d negations in a map's body: translated (%d, %d)", n, fm, rm);
    else
      CHECKM(fm == CHAD_E_DEPTH && rm == CHAD_E_DEPTH, "%d negations in a map's body: forward %d, reverse %d, "
             "not the depth limit", n, fm, rm);
  }
  int ok = neg_chain(3000);
  int f = chad_fwd(ok), r = chad_rev(ok);
  CHECKM(f >= 0 && r >= 0, "3000-deep term is translated");
  int s = chad_simplify(f);
  CHECKM(s >= 0 && tm_type(s) == tm_type(f) && tm_ctx(s) == tm_ctx(f),
         "simplifier on a deep term returns a term of the same type (maybe its input)");
  /* value-level API refuses function-typed parameters with a clear error */
  int g = ext(CTX_EMPTY, ty_fun(R_, R_));
  int t = app(var(g, 0), rc(g, 1.0));
  heap *h = heap_new(1 << 20);
  chad_diag d = {0};
  const value *y, *dy;
  int rc2 = chad_jvp_values(h, t, NULL, NULL, &y, &dy, &d);
  CHECKM(rc2 == CHAD_EXIT_INPUT && d.exit_code == CHAD_EXIT_INPUT, "function parameter refused");
  rc2 = chad_vjp_values(h, -7, NULL, NULL, &y, &dy, &d);
  CHECKM(rc2 == CHAD_EXIT_USAGE, "bad term id refused by chad_vjp_values");
  heap_free(h);
  /* but a function-typed parameter is fine for the term-level transformation */
  f = chad_fwd(t);
  r = chad_rev(t);
  CHECKM(f >= 0 && tm_ctx(f) == chad_ctx_pfwd(g), "function parameter: forward in P G");
  CHECKM(r >= 0 && tm_type(r) == ty_prod(R_, ty_lfun(R_, ty_prod(U_, ty_copow(R_, R_)))),
         "function parameter: reverse cotangent is a copower");
  /* chad_fwd_in / chad_rev_in into a context that extends P G, and not */
  int t1 = prog_fig1a();
  int pg = chad_ctx_pfwd(tm_ctx(t1));
  int dd = ctx_extend(ctx_extend(pg, I_), R_);
  int f1 = chad_fwd_in(t1, dd), r1 = chad_rev_in(t1, dd);
  CHECKM(f1 >= 0 && tm_ctx(f1) == dd && tm_type(f1) == tm_type(chad_fwd(t1)), "fwd_in an extension");
  CHECKM(r1 >= 0 && tm_ctx(r1) == dd && tm_type(r1) == tm_type(chad_rev(t1)), "rev_in an extension");
  int wrong = ctx_extend(ctx_extend(CTX_EMPTY, I_), R_);
  CHECKM(chad_fwd_in(t1, wrong) == CHAD_E_ARG && chad_rev_in(t1, wrong) == CHAD_E_ARG,
         "a context that does not extend P G is refused");
  printf("depth limits, refusals of the value API, function-typed parameters: checked\n");
}

/* T on first-order types, written independently of src/chad */
static int tan_ref(int t)
{
  switch (ty_kind(t)) {
  case TY_REAL: return R_;
  case TY_INT: case TY_UNIT: return U_;
  case TY_PROD: case TY_SUM: return ty_prod(tan_ref(ty_left(t)), tan_ref(ty_right(t)));
  case TY_ARR: return ty_arr(tan_ref(ty_left(t)));
  default: return -1;
  }
}

/* The kernel's tables are reset (ty_init...) WITHOUT chad_init, and the
 * same type ids are reused for other types: the memo tables must notice. */
static void test_reset(void)
{
  int k = ty_fun(ty_arr(ty_arr(ty_arr(R_))), ty_prod(R_, I_));   /* a fresh id */
  int before = chad_ty_tan(k);
  CHECKM(before >= 0 && ty_kind(before) == TY_FUN, "a translation before the reset");
  int seen_ty = ty_count, seen_ctx = ctx_count;
  ty_init(); ctx_init(); tm_init();
  CHECKM(prims_init() == 0, "prims_init after reset");
  /* occupy ids in another order than before */
  int odd = ty_sum(ty_arr(U_), ty_prod(I_, ty_arr(ty_arr(I_))));
  /* and grow both tables past their old sizes, so that counting alone
   * cannot tell that they were reset */
  while (ty_count <= seen_ty && odd >= 0)
    odd = ty_prod(odd, I_);
  for (int c = CTX_EMPTY; ctx_count <= seen_ctx && c >= 0;)
    c = ctx_extend(c, U_);
  CHECKM(odd >= 0 && ty_count > seen_ty && ctx_count > seen_ctx, "tables regrown");
  /* id k is now a product (or a base/array type): its tangent is no function */
  CHECKM(ty_kind(k) != TY_FUN, "id reused by another type");
  int tk = chad_ty_tan(k);
  CHECKM(tk >= 0 && tk == tan_ref(k), "tangent of the reused id is recomputed");
  A_ = ty_arr(R_);
  int t = prog_fig1a();
  int out = ty_prod(R_, ty_prod(R_, R_));
  int f = chad_fwd(t), r = chad_rev(t);
  CHECKM(f >= 0 && tm_type(f) == ty_prod(out, ty_lfun(ty_prod(U_, R_), out)), "forward after reset");
  CHECKM(r >= 0 && tm_type(r) == ty_prod(out, ty_lfun(out, ty_prod(U_, R_))), "reverse after reset");
  CHECKM(chad_ty_tan(ty_fun(R_, I_)) == ty_fun(R_, U_), "T after reset");
  printf("kernel reset without chad_init: the memo tables are cleared at the next call\n");
}

int main(void)
{
  prog_setup();
  test_type_translations();
  test_outputs();
  test_handwritten();
  test_limits();
  test_reset();
  printf("test_chad_types: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
