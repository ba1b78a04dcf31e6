/* The syntactic linearity check (src/chad/linear.c, chad_check_linear) on
 * hand-built target terms: for each rule of the linear fragment, a term it
 * accepts and a term that is not linear in the bound variable, which it
 * must refuse. The outputs of the CHAD macros are all accepted
 * (test_chad_types); here the check must also say no. */
#include "chad_progs.h"

#include "check.h"

/* The context G = (x : Real, n : Int, s : Real + Real) of constants, then
 * the linear variable l : dom; in (G, l): var 0 = l, 1 = s, 2 = n, 3 = x. */
static int G;
static int in_l(int dom) { return ext(G, dom); }
#define L 0
#define S 1
#define N 2
#define X 3

/* chad_check_linear (llam (l : dom). body) == want */
static void expect(int dom, int body, int want, const char *what)
{
  int t = OK(tm_llam(dom, body));
  int got = chad_check_linear(t);
  CHECKM(got == want, "%s: check says %d, want %d", what, got, want);
}

static int dsin(int x, int dx) { return OK(tm_lop_d(P_SIN, x, dx)); }
static int dtsin(int x, int v) { return OK(tm_lop_dt(P_SIN, x, v)); }
static int plus(int a, int b) { return OK(tm_plus(a, b)); }
static int pair(int a, int b) { return OK(tm_pair(a, b)); }

static void test_leaves(void)
{
  int R = R_, g = in_l(R);
  expect(R, var(g, L), 1, "l");
  expect(R, OK(tm_zero(g, R)), 1, "zero");
  expect(R, var(g, X), 0, "x (a constant: not linear in l)");
  expect(R, rc(g, 2.0), 0, "2.0");
  expect(R, plus(var(g, L), var(g, L)), 1, "l <+> l");
  expect(R, plus(var(g, L), var(g, X)), 0, "l <+> x");
  expect(R, plus(var(g, X), var(g, L)), 0, "x <+> l");
  expect(R, pair(var(g, L), OK(tm_zero(g, R))), 1, "(l, zero)");
  expect(R, pair(var(g, L), var(g, X)), 0, "(l, x)");
  expect(R, pair(var(g, X), var(g, L)), 0, "(x, l)");
  int rr = ty_prod(R, R), gp = in_l(rr);
  expect(rr, OK(tm_fst(var(gp, L))), 1, "fst l");
  expect(rr, OK(tm_snd(var(gp, L))), 1, "snd l");
  expect(R, OK(tm_fst(pair(var(g, X), var(g, L)))), 0, "fst (x, l)");
  expect(R, OK(tm_snd(pair(var(g, L), var(g, X)))), 0, "snd (l, x)");
  /* a primitive on l is not in the fragment */
  expect(R, mul(var(g, L), var(g, L)), 0, "l * l");
}

static void test_derivatives(void)
{
  int R = R_, g = in_l(R);
  expect(R, dsin(var(g, X), var(g, L)), 1, "D[sin](x; l)");
  expect(R, dsin(var(g, L), var(g, L)), 0, "D[sin](l; l)");
  expect(R, dsin(var(g, L), OK(tm_zero(g, R))), 0, "D[sin](l; zero)");
  expect(R, dtsin(var(g, X), var(g, L)), 1, "DT[sin](x; l)");
  expect(R, dtsin(var(g, L), var(g, L)), 0, "DT[sin](l; l)");
  expect(R, dtsin(var(g, X), var(g, X)), 0, "DT[sin](x; x)");
  /* l occurs deep in the primal: through each child slot and binder */
  int gy = ext(g, R);  /* let y = ... in: y = 0, l = 1, x = 4 */
  expect(R, dsin(let(var(g, L), var(gy, 0)), var(g, L)), 0, "D[sin](let y = l in y; l)");
  expect(R, dsin(let(var(g, X), var(gy, 1)), var(g, L)), 0, "D[sin](let y = x in l; l)");
  expect(R, dsin(let(var(g, X), var(gy, 0)), var(g, L)), 1, "D[sin](let y = x in y; l)");
  int it = OK(tm_iter(var(g, N), var(gy, 0), var(g, L)));
  expect(R, dsin(it, var(g, L)), 0, "D[sin](iter n (y. y) l; l)");
  int ic3 = OK(tm_iter(var(g, N), var(gy, 0), var(g, X)));
  expect(R, dsin(ic3, var(g, L)), 1, "D[sin](iter n (y. y) x; l)");
  int cs = OK(tm_case(var(g, S), var(gy, 0), var(gy, 1)));
  expect(R, dsin(cs, var(g, L)), 0, "D[sin](case s of a -> a | b -> l; l)");
  /* one-hot and copower singletons: constant index / key, linear value */
  int fl = op1(P_FLOOR, var(g, L));
  expect(R, OK(tm_onehot(var(g, N), var(g, L))), 1, "onehot(n, l)");
  expect(R, OK(tm_onehot(fl, var(g, L))), 0, "onehot(floor l, l)");
  expect(R, OK(tm_cp_single(var(g, X), var(g, L))), 1, "!x (x) l");
  expect(R, OK(tm_cp_single(var(g, L), var(g, L))), 0, "!l (x) l");
}

static void test_applications(void)
{
  int R = R_;
  /* linear application: a constant map to a linear argument, or a linear
   * map to a constant argument; not both linear */
  int lf = ty_lfun(R, R), gf = in_l(lf);
  expect(lf, OK(tm_lapp(var(gf, L), var(gf, X))), 1, "l <| x (l : R -o R)");
  expect(lf, OK(tm_lapp(var(gf, L), OK(tm_lapp(var(gf, L), var(gf, X))))), 0, "l <| (l <| x)");
  int g = in_l(R), gu = ext(g, R);
  int id = OK(tm_llam(R, var(gu, 0)));
  expect(R, OK(tm_lapp(id, var(g, L))), 1, "(lfun u -> u) <| l");
  expect(R, OK(tm_lapp(id, var(g, X))), 0, "(lfun u -> u) <| x");
  /* power application: a linear power at a constant argument */
  int pw = ty_fun(R, R), gw = in_l(pw);
  expect(pw, OK(tm_app(var(gw, L), var(gw, X))), 1, "l x (l : R -> R)");
  expect(pw, OK(tm_app(var(gw, L), OK(tm_app(var(gw, L), var(gw, X))))), 0, "l (l x)");
  /* indexing a linear array by a constant index */
  int a = A_, ga = in_l(a);
  int l0 = OK(tm_index(var(ga, L), var(ga, N)));
  expect(a, l0, 1, "l[n]");
  expect(a, OK(tm_index(var(ga, L), op1(P_FLOOR, l0))), 0, "l[floor l[n]]");
  expect(a, OK(tm_sum(var(ga, L))), 1, "sum l");
}

static void test_binders(void)
{
  int R = R_, g = in_l(R), gy = ext(g, R);  /* in (G, l, y): y = 0, l = 1, x = 4 */
  /* let: a linear bound term joins the linear variables */
  expect(R, let(var(g, L), var(gy, 0)), 1, "let y = l in y");
  expect(R, let(var(g, L), plus(var(gy, 0), var(gy, 1))), 1, "let y = l in y <+> l");
  expect(R, let(dsin(var(g, L), var(g, L)), var(gy, 0)), 0, "let y = D[sin](l; l) in y");
  expect(R, let(var(g, L), dsin(var(gy, 0), var(gy, 1))), 0, "let y = l in D[sin](y; l)");
  expect(R, let(var(g, X), dsin(var(gy, 0), var(gy, 1))), 1, "let y = x in D[sin](y; l)");
  expect(R, let(var(g, X), var(gy, 0)), 0, "let y = x in y");
  /* case on a constant, each branch linear; the branch's binder is not */
  int gz = ext(g, R);
  expect(R, OK(tm_case(var(g, S), var(gy, 1), var(gz, 1))), 1, "case s of a -> l | b -> l");
  expect(R, OK(tm_case(var(g, S), var(gy, 1), var(gz, 0))), 0, "case s of a -> l | b -> b");
  expect(R, OK(tm_case(var(g, S), var(gy, 0), var(gz, 1))), 0, "case s of a -> a | b -> l");
  /* build and lsum: a constant length, a body linear (its index is not) */
  int gi = ext(g, I_);
  expect(R, OK(tm_build(var(g, N), var(gi, 1))), 1, "build n (i. l)");
  expect(R, OK(tm_build(var(g, N), var(gi, 4))), 0, "build n (i. x)");
  expect(R, OK(tm_lsum(var(g, N), var(gi, 1))), 1, "lsum n (i. l)");
  expect(R, OK(tm_lsum(var(g, N), dsin(var(gi, 1), var(gi, 1)))), 0, "lsum n (i. D[sin](l; l))");
  expect(R, OK(tm_build(op1(P_FLOOR, var(g, L)), var(gi, 1))), 0, "build (floor l) (i. l)");
  /* map over a linear array: the element joins the linear variables */
  int a = A_, ga = in_l(a), ge = ext(ga, R);
  expect(a, OK(tm_map(var(ge, 0), var(ga, L))), 1, "map (e. e) l");
  expect(a, OK(tm_map(dsin(var(ge, 0), var(ge, 0)), var(ga, L))), 0, "map (e. D[sin](e; e)) l");
  expect(a, OK(tm_map(dsin(var(ge, 4), var(ge, 0)), var(ga, L))), 1, "map (e. D[sin](x; e)) l");
  expect(a, OK(tm_map(var(ge, 0), OK(tm_build(var(ga, N), var(ext(ga, I_), 4))))), 0,
         "map (e. e) (build n (i. x))");
  /* iter: a constant count, a linear initial state, a body linear in the
   * state and the linear variables */
  expect(R, OK(tm_iter(var(g, N), plus(var(gy, 0), var(gy, 1)), var(g, L))), 1, "iter n (y. y <+> l) l");
  expect(R, OK(tm_iter(var(g, N), dsin(var(gy, 0), var(gy, 0)), var(g, L))), 0, "iter n (y. D[sin](y; y)) l");
  expect(R, OK(tm_iter(var(g, N), var(gy, 0), var(g, X))), 0, "iter n (y. y) x");
  expect(R, OK(tm_iter(op1(P_FLOOR, var(g, L)), var(gy, 0), var(g, L))), 0, "iter (floor l) (y. y) l");
  /* a lambda under the linear variable: its body linear */
  int gp = ext(g, R);
  expect(R, lam(R, var(gp, 1)), 1, "fun p -> l");
  expect(R, lam(R, dsin(var(gp, 1), var(gp, 1))), 0, "fun p -> D[sin](l; l)");
  /* an inner linear lambda is checked in its own variable too */
  expect(R, OK(tm_llam(R, OK(tm_zero(gp, R)))), 1, "lfun p -> zero");
  expect(R, OK(tm_llam(R, var(gp, 1))), 0, "lfun p -> l (linear in l, constant in p)");
  expect(R, OK(tm_llam(R, dsin(var(gp, 4), var(gp, 0)))), 0, "lfun p -> D[sin](x; p) (constant in l)");
}

static void test_copowers(void)
{
  int R = R_, cp = ty_copow(R, R), gc = in_l(cp);
  int gk = ext(gc, R), gv = ext(gk, R);  /* in (G, l, k, v): v = 0, k = 1, l = 2, x = 5 */
  expect(cp, OK(tm_cp_fold(var(gc, L), var(gv, 0))), 1, "fold l ((k, v). v)");
  expect(cp, OK(tm_cp_fold(var(gc, L), dsin(var(gv, 1), var(gv, 0)))), 1, "fold l ((k, v). D[sin](k; v))");
  expect(cp, OK(tm_cp_fold(var(gc, L), dsin(var(gv, 0), var(gv, 0)))), 0, "fold l ((k, v). D[sin](v; v))");
  expect(cp, OK(tm_cp_fold(var(gc, L), var(gv, 1))), 0, "fold l ((k, v). k)");
  expect(cp, OK(tm_cp_fold(var(gc, L), var(gv, 5))), 0, "fold l ((k, v). x)");
  /* a fold over a constant bag: its body linear in l (the fold's own check:
   * linear in v with l not linear there, fails for a body using only l) */
  int g = in_l(R), gk2 = ext(g, R), gv2 = ext(gk2, R);
  int bag = OK(tm_cp_single(var(g, X), var(g, X)));
  expect(R, OK(tm_cp_fold(bag, plus(var(gv2, 0), var(gv2, 2)))), 0, "fold (!x (x) x) ((k, v). v <+> l)");
  /* the fold node itself, outside any llam */
  int g0 = G, gk0 = ext(g0, R), gv0 = ext(gk0, R);
  int bag0 = OK(tm_cp_single(var(g0, 2), var(g0, 2)));
  CHECK(chad_check_linear(OK(tm_cp_fold(bag0, var(gv0, 0)))) == 1);
  CHECK(chad_check_linear(OK(tm_cp_fold(bag0, mul(var(gv0, 0), var(gv0, 0))))) == 0);
  /* a non-linear llam deep inside an ordinary term is found */
  int gl = ext(g0, R);
  int bad = OK(tm_llam(R, mul(var(gl, 0), var(gl, 0))));
  CHECK(chad_check_linear(pair(var(g0, 2), OK(tm_fst(pair(bad, var(g0, 2)))))) == 0);
  CHECK(chad_check_linear(pair(var(g0, 2), var(g0, 2))) == 1);
  CHECK(chad_check_linear(-1) == CHAD_E_ARG && chad_check_linear(tm_count) == CHAD_E_ARG);
}

/* l <+> (l <+> ... (l <+> l)): k pluses, the innermost l at depth k below
 * the llam's body. The check descends at most 6000 levels (LIN_DEPTH) and
 * is conservative past it: "not linear". */
static int plus_chain(int g, int k)
{
  int t = var(g, L);
  for (int i = 0; i < k; i++)
    t = plus(var(g, L), t);
  return t;
}

/* A constant primal k levels deep through the first, second or third child
 * of its nodes: sin (sin ... x), x <+> (x <+> ... x), iter n (y. y) (iter ... x) */
static int deep_const(int g, int k, int child)
{
  int t = var(g, X), gy = ext(g, R_);
  for (int i = 0; i < k; i++)
    t = child == 0 ? op1(P_SIN, t) : child == 1 ? plus(var(g, X), t)
                   : OK(tm_iter(var(g, N), var(gy, 0), t));
  return t;
}

static void test_depth_limit(void)
{
  int R = R_, g = in_l(R);
  expect(R, plus_chain(g, 6000), 1, "6000 nested pluses (the depth limit)");
  expect(R, plus_chain(g, 6001), 0, "6001 nested pluses (past the limit: refused)");
  /* "l occurs" past the limit, through each child slot */
  for (int c = 0; c < 3; c++) {
    CHECKM(chad_check_linear(OK(tm_llam(R, dsin(deep_const(g, 5900, c), var(g, L))))) == 1,
           "D[sin](c; l), c constant 5900 deep through child %d", c);
    CHECKM(chad_check_linear(OK(tm_llam(R, dsin(deep_const(g, 6100, c), var(g, L))))) == 0,
           "D[sin](c; l), c 6100 deep through child %d: refused", c);
  }
}

/* Term 0 (the arena's first) as a child: the walks test ids with >= 0 */
static void test_first_term(void)
{
  int R = R_, g = in_l(R);
  int l0 = var(g, L);
  CHECKM(l0 == 0, "the first term built is term 0 (got %d)", l0);
  expect(R, dsin(OK(tm_fst(pair(l0, var(g, X)))), var(g, L)), 0, "D[sin](fst (l, x); l), l term 0");
  expect(R, dsin(OK(tm_snd(pair(var(g, X), l0))), var(g, L)), 0, "D[sin](snd (x, l); l), l term 0");
}

int main(void)
{
  prog_setup();
  G = ext(ext(ext(CTX_EMPTY, R_), I_), ty_sum(R_, R_));
  test_first_term();
  test_leaves();
  test_derivatives();
  test_applications();
  test_binders();
  test_copowers();
  test_depth_limit();
  printf("test_chad_linear: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
