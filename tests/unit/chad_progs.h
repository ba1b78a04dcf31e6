/* Source programs shared by the CHAD unit tests (test_chad*.c), built
 * directly with the kernel constructors (de Bruijn indices). Each builder
 * returns a term in its own parameter context; every parameter has a
 * first-order type. Call prog_setup() first (kernel + primitives). */
#ifndef CHAD_TEST_PROGS_H
#define CHAD_TEST_PROGS_H

#include <stdio.h>
#include <stdlib.h>

#include "chad/chad.h"
#include "chad/kernel.h"
#include "chad/primitives.h"

static int R_, I_, U_, A_;

static void prog_setup(void)
{
  ty_init();
  ctx_init();
  tm_init();
  if (prims_init() < 0) {
    fprintf(stderr, "prims_init failed\n");
    exit(2);
  }
  chad_init();
  R_ = TY_ID_REAL; I_ = TY_ID_INT; U_ = TY_ID_UNIT; A_ = ty_arr(TY_ID_REAL);
}

/* ---- tiny construction helpers (abort on a construction failure) ------ */
static int ok_(int x, const char *what, int line)
{
  if (x < 0) {
    fprintf(stderr, "chad_progs.h:%d: building %s failed: %d\n", line, what, x);
    exit(2);
  }
  return x;
}
#define OK(x) ok_((x), #x, __LINE__)
static int ext(int g, int t) { return OK(ctx_extend(g, t)); }
static int var(int g, int k) { return OK(tm_var(g, k)); }
static int rc(int g, double r) { return OK(tm_rconst(g, r)); }
static int ic(int g, long n) { return OK(tm_iconst(g, n)); }
static int op1(int o, int a) { return OK(tm_op(o, a)); }
static int op2(int o, int a, int b) { return OK(tm_op(o, OK(tm_pair(a, b)))); }
static int mul(int a, int b) { return op2(P_MUL, a, b); }
static int add(int a, int b) { return op2(P_ADD, a, b); }
static int let(int a, int b) { return OK(tm_let(a, b)); }
static int lam(int dom, int b) { return OK(tm_lam(dom, b)); }
static int app(int f, int x) { return OK(tm_app(f, x)); }

typedef struct prog {
  const char *name;
  int term;
} prog;

/* Fig. 1 (a) of the CHAD paper: x:R |- let y = 2*x; z = x*y; w = cos z in (y,(z,w)) */
static int prog_fig1a(void)
{
  int g0 = ext(CTX_EMPTY, R_), g1 = ext(g0, R_), g2 = ext(g1, R_), g3 = ext(g2, R_);
  int y = mul(rc(g0, 2.0), var(g0, 0));
  int z = mul(var(g1, 1), var(g1, 0));
  int w = op1(P_COS, var(g2, 0));
  int body = OK(tm_pair(var(g3, 2), OK(tm_pair(var(g3, 1), var(g3, 0)))));
  return let(y, let(z, let(w, body)));
}

/* Fig. 1 (b): x1 x2 x3 x4 : R |- let y = x1*x4 + 2*x2; z = y*x3; w = z + x4 in sin w */
static int prog_fig1b(void)
{
  int g = ext(ext(ext(ext(CTX_EMPTY, R_), R_), R_), R_);   /* x1..x4, x4 = var 0 */
  int y = add(mul(var(g, 3), var(g, 0)), mul(rc(g, 2.0), var(g, 2)));
  int gy = ext(g, R_);
  int z = mul(var(gy, 0), var(gy, 2));                    /* y * x3 */
  int gz = ext(gy, R_);
  int w = add(var(gz, 0), var(gz, 2));                    /* z + x4 */
  int gw = ext(gz, R_);
  int v = op1(P_SIN, var(gw, 0));
  return let(y, let(z, let(w, v)));
}

/* Fig. 2 (a): n:Int, x:R |- let f = \z. x*z + 1; zs = build n (i. x) in map (z. f z) zs */
static int prog_fig2a(void)
{
  int g = ext(ext(CTX_EMPTY, I_), R_);                    /* x = 0, n = 1 */
  int gz = ext(g, R_);
  int f = lam(R_, add(mul(var(gz, 1), var(gz, 0)), rc(gz, 1.0)));
  int gf = ext(g, ty_fun(R_, R_));                        /* f = 0, x = 1, n = 2 */
  int gi = ext(gf, I_);
  int zs = OK(tm_build(var(gf, 2), var(gi, 2)));
  int gzs = ext(gf, A_);                                  /* zs = 0, f = 1 */
  int gm = ext(gzs, R_);
  int body = OK(tm_map(app(var(gm, 2), var(gm, 0)), var(gzs, 0)));
  return let(f, let(zs, body));
}

/* Fig. 2 (b): x1:R, x2:Arr R |- let f = \x2i. x1*x2i; ys = map (x2i. f x2i) x2 in sum ys */
static int prog_fig2b(void)
{
  int g = ext(ext(CTX_EMPTY, R_), A_);                    /* x2 = 0, x1 = 1 */
  int gz = ext(g, R_);
  int f = lam(R_, mul(var(gz, 2), var(gz, 0)));
  int gf = ext(g, ty_fun(R_, R_));                        /* f 0, x2 1, x1 2 */
  int gm = ext(gf, R_);
  int ys = OK(tm_map(app(var(gm, 1), var(gm, 0)), var(gf, 1)));
  int gy = ext(gf, A_);
  return let(f, let(ys, OK(tm_sum(var(gy, 0)))));
}

/* Passing a function to a function: x:R |- let h = \g. g (g x) in h (\z. sin (z*x)) */
static int prog_hof(void)
{
  int g = ext(CTX_EMPTY, R_);
  int fr = ty_fun(R_, R_);
  int gg = ext(g, fr);                                    /* g 0, x 1 */
  int h = lam(fr, app(var(gg, 0), app(var(gg, 0), var(gg, 1))));
  int gh = ext(g, ty_fun(fr, R_));                        /* h 0, x 1 */
  int gz = ext(gh, R_);                                   /* z 0, h 1, x 2 */
  int arg = lam(R_, op1(P_SIN, mul(var(gz, 0), var(gz, 2))));
  return let(h, app(var(gh, 0), arg));
}

/* Returning a closure: x:R, y:R |- let mk = \a. \b. a*b + sin a in (mk x) y */
static int prog_closure(void)
{
  int g = ext(ext(CTX_EMPTY, R_), R_);                    /* y 0, x 1 */
  int ga = ext(g, R_), gb = ext(ga, R_);                  /* b 0, a 1 */
  int mk = lam(R_, lam(R_, add(mul(var(gb, 1), var(gb, 0)), op1(P_SIN, var(gb, 1)))));
  int gm = ext(g, ty_fun(R_, ty_fun(R_, R_)));            /* mk 0, y 1, x 2 */
  return let(mk, app(app(var(gm, 0), var(gm, 2)), var(gm, 1)));
}

/* Branching on a sum: x:R |- case lt (x, 0.5) of inl _ -> x*x*x | inr _ -> sin x * x */
static int prog_case(void)
{
  int g = ext(CTX_EMPTY, R_);
  int c = op2(P_LT, var(g, 0), rc(g, 0.5));
  int gu = ext(g, U_);
  int l = mul(mul(var(gu, 1), var(gu, 1)), var(gu, 1));
  int r = mul(op1(P_SIN, var(gu, 1)), var(gu, 1));
  return OK(tm_case(c, l, r));
}

/* Sums built and consumed: x:R |- case (case lt (x,0) of inl _ -> inr (x*2)
 *                                      | inr _ -> inl (x*x)) of inl a -> a + x | inr b -> b * x
 * (inner value has type R + R) */
static int prog_sums(void)
{
  int g = ext(CTX_EMPTY, R_);
  int c = op2(P_LT, var(g, 0), rc(g, 0.0));
  int gu = ext(g, U_);
  int l = OK(tm_inr(R_, mul(var(gu, 1), rc(gu, 2.0))));
  int r = OK(tm_inl(mul(var(gu, 1), var(gu, 1)), R_));
  int s = OK(tm_case(c, l, r));
  int ga = ext(g, R_);
  return OK(tm_case(s, add(var(ga, 0), var(ga, 1)), mul(var(ga, 0), var(ga, 1))));
}

/* Iteration: x:R |- iter 3 (s. s*x + sin s) x */
static int prog_iter(void)
{
  int g = ext(CTX_EMPTY, R_);
  int gs = ext(g, R_);
  int body = add(mul(var(gs, 0), var(gs, 1)), op1(P_SIN, var(gs, 0)));
  return OK(tm_iter(ic(g, 3), body, var(g, 0)));
}

/* Iteration over a pair with a closure inside the body:
 * x:R, y:R |- fst (iter 4 (s. let f = \z. z * snd s in (f (fst s) + y, sin (fst s))) (x, y)) */
static int prog_iter_pair(void)
{
  int g = ext(ext(CTX_EMPTY, R_), R_);                    /* y 0, x 1 */
  int rr = ty_prod(R_, R_);
  int gs = ext(g, rr);                                    /* s 0, y 1, x 2 */
  int gz = ext(gs, R_);                                   /* z 0, s 1 */
  int f = lam(R_, mul(var(gz, 0), OK(tm_snd(var(gz, 1)))));
  int gf = ext(gs, ty_fun(R_, R_));                       /* f 0, s 1, y 2 */
  int body = OK(tm_pair(add(app(var(gf, 0), OK(tm_fst(var(gf, 1)))), var(gf, 2)),
                        op1(P_SIN, OK(tm_fst(var(gf, 1))))));
  int it = OK(tm_iter(ic(g, 4), let(f, body), OK(tm_pair(var(g, 1), var(g, 0)))));
  return OK(tm_fst(it));
}

/* Build and index: a:Arr R |- let n = length a; b = build n (i. a[i] * a[(i+1) mod n]) in sum b */
static int prog_build_index(void)
{
  int g = ext(CTX_EMPTY, A_);
  int n = OK(tm_length(var(g, 0)));
  int gn = ext(g, I_);                                    /* n 0, a 1 */
  int gi = ext(gn, I_);                                   /* i 0, n 1, a 2 */
  int j = op2(P_IMOD, op2(P_IADD, var(gi, 0), ic(gi, 1)), var(gi, 1));
  int el = mul(OK(tm_index(var(gi, 2), var(gi, 0))), OK(tm_index(var(gi, 2), j)));
  int b = OK(tm_build(var(gn, 0), el));
  int gb = ext(gn, A_);
  return let(n, let(b, OK(tm_sum(var(gb, 0)))));
}

/* Map and sum with a captured variable, array output:
 * x:R, a:Arr R |- (sum (map (z. x*z*z) a), map (z. exp (z*x)) a) */
static int prog_map_sum(void)
{
  int g = ext(ext(CTX_EMPTY, R_), A_);                    /* a 0, x 1 */
  int gz = ext(g, R_);                                    /* z 0, a 1, x 2 */
  int m1 = OK(tm_map(mul(mul(var(gz, 2), var(gz, 0)), var(gz, 0)), var(g, 0)));
  int m2 = OK(tm_map(op1(P_EXP, mul(var(gz, 0), var(gz, 2))), var(g, 0)));
  return OK(tm_pair(OK(tm_sum(m1)), m2));
}

/* Projections, unit, length, iconst, toreal, Int parameter:
 * p:R*R, k:Int, a:Arr R |- let u = () in fst p * snd p + toreal (length a + k) * a[k] */
static int prog_misc(void)
{
  int g = ext(ext(ext(CTX_EMPTY, ty_prod(R_, R_)), I_), A_); /* a 0, k 1, p 2 */
  int gu = ext(g, U_);                                        /* u 0, a 1, k 2, p 3 */
  int prod = mul(OK(tm_fst(var(gu, 3))), OK(tm_snd(var(gu, 3))));
  int len = op2(P_IADD, OK(tm_length(var(gu, 1))), var(gu, 2));
  int t2 = mul(op1(P_TOREAL, len), OK(tm_index(var(gu, 1), var(gu, 2))));
  return let(OK(tm_unit(g)), add(prod, t2));
}

/* Array primitives and a matrix: m:Arr (Arr R), v:Arr R |-
 *   logsumexp (vadd (matvec (m, v), vscale (dot (v, v), v))) */
static int prog_array_prims(void)
{
  int g = ext(ext(CTX_EMPTY, ty_arr(A_)), A_);            /* v 0, m 1 */
  int mv = op2(P_MATVEC, var(g, 1), var(g, 0));
  int sc = op2(P_VSCALE, op2(P_DOT, var(g, 0), var(g, 0)), var(g, 0));
  return op1(P_LOGSUMEXP, op2(P_VADD, mv, sc));
}

/* Nested build (a matrix) and map over rows: a:Arr R |-
 *   sum (map (r. sum r) (build (length a) (i. map (z. z * a[i]) a))) */
static int prog_nested(void)
{
  int g = ext(CTX_EMPTY, A_);
  int gi = ext(g, I_);                                    /* i 0, a 1 */
  int gz = ext(gi, R_);                                   /* z 0, i 1, a 2 */
  int row = OK(tm_map(mul(var(gz, 0), OK(tm_index(var(gz, 2), var(gz, 1)))), var(gi, 1)));
  int mat = OK(tm_build(OK(tm_length(var(g, 0))), row));
  int gr = ext(g, A_);
  int sums = OK(tm_map(OK(tm_sum(var(gr, 0))), mat));
  return OK(tm_sum(sums));
}

/* A sum-typed result: x:R |- case lt (x, 0) of inl _ -> inl (x*x) | inr _ -> inr (x, sin x) */
static int prog_sum_out(void)
{
  int g = ext(CTX_EMPTY, R_);
  int c = op2(P_LT, var(g, 0), rc(g, 0.0));
  int gu = ext(g, U_);
  int rr = ty_prod(R_, R_);
  int l = OK(tm_inl(mul(var(gu, 1), var(gu, 1)), rr));
  int r = OK(tm_inr(R_, OK(tm_pair(var(gu, 1), op1(P_SIN, var(gu, 1))))));
  return OK(tm_case(c, l, r));
}

/* An array of pairs: x:R, a:Arr R |- map (z. (z*x, (z, 2))) a   (Int inside) */
static int prog_arr_pairs(void)
{
  int g = ext(ext(CTX_EMPTY, R_), A_);                    /* a 0, x 1 */
  int gz = ext(g, R_);
  int el = OK(tm_pair(mul(var(gz, 0), var(gz, 2)), OK(tm_pair(var(gz, 0), ic(gz, 2)))));
  return OK(tm_map(el, var(g, 0)));
}

/* The list of all programs. */
#define N_PROGS 17
__attribute__((unused)) static int build_progs(prog *ps)
{
  int n = 0;
  ps[n++] = (prog){"fig1a", prog_fig1a()};
  ps[n++] = (prog){"fig1b", prog_fig1b()};
  ps[n++] = (prog){"fig2a", prog_fig2a()};
  ps[n++] = (prog){"fig2b", prog_fig2b()};
  ps[n++] = (prog){"hof", prog_hof()};
  ps[n++] = (prog){"closure", prog_closure()};
  ps[n++] = (prog){"case", prog_case()};
  ps[n++] = (prog){"sums", prog_sums()};
  ps[n++] = (prog){"iter", prog_iter()};
  ps[n++] = (prog){"iter_pair", prog_iter_pair()};
  ps[n++] = (prog){"build_index", prog_build_index()};
  ps[n++] = (prog){"map_sum", prog_map_sum()};
  ps[n++] = (prog){"misc", prog_misc()};
  ps[n++] = (prog){"array_prims", prog_array_prims()};
  ps[n++] = (prog){"nested", prog_nested()};
  ps[n++] = (prog){"sum_out", prog_sum_out()};
  ps[n++] = (prog){"arr_pairs", prog_arr_pairs()};
  return n;
}

#endif
