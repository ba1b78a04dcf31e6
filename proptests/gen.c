/* Type-directed, sized generator of well-typed source programs, built
 * directly with the kernel constructors (tm_*), so every node it makes has
 * passed the kernel's typing rule.
 *
 * Invariants that keep evaluation inside the primitives' domains:
 *  - every array in a program has the same length L (params and builds), so
 *    vadd/vmul/dot/matvec never see a length mismatch;
 *  - index positions are reduced with imod(i, length a); Int expressions are
 *    non-negative except through isub/ineg (rare): a program that then
 *    fails at runtime is discarded and regenerated (counted);
 *  - log, sqrt, pow's base and div's denominator get y*y + 0.5 (let-bound y);
 *  - tan gets sin(e), inside (-pi/2, pi/2).
 */
#include <stdlib.h>
#include "pt.h"

pt_types T_;

void pt_types_init(void) {
  T_.R = TY_ID_REAL;
  T_.I = TY_ID_INT;
  T_.U = TY_ID_UNIT;
  T_.B = ty_sum(T_.U, T_.U);
  T_.RR = ty_prod(T_.R, T_.R);
  T_.SRR = ty_sum(T_.R, T_.RR);
  T_.AR = ty_arr(T_.R);
  T_.AAR = ty_arr(T_.AR);
  T_.FRR = ty_fun(T_.R, T_.R);
  T_.FRRR = ty_fun(T_.R, T_.FRR);
}

typedef struct {
  prng *r;
  int len;
} gst;

static int ck(int t, const char *what) {
  if (t < 0) {
    fprintf(stderr, "proptest: generator bug: %s refused (%d)\n", what, t);
    exit(4);
  }
  return t;
}

static int gen(gst *s, int g, int ty, int size);

static int pair_of(int a, int b) { return ck(tm_pair(a, b), "pair"); }
static int op1(int o, int a) { return ck(tm_op(o, a), prim_name(o)); }
static int op2(int o, int a, int b) { return ck(tm_op(o, pair_of(a, b)), prim_name(o)); }

/* A variable of type ty in g chosen at random, or -1. */
static int pick_var(gst *s, int g, int ty) {
  int n = ctx_length(g), cand[64], nc = 0;
  for (int k = 0; k < n && nc < 64; k++)
    if (ctx_lookup(g, k) == ty) cand[nc++] = k;
  if (nc == 0) return -1;
  return ck(tm_var(g, cand[prng_below(s->r, nc)]), "var");
}

static double rand_const(gst *s) {
  switch (prng_below(s->r, 6)) {
  case 0: return 0.0;
  case 1: return 1.0;
  case 2: return -1.0;
  case 3: return 0.5;
  default: return prng_range(s->r, -2.0, 2.0);
  }
}

static int leaf(gst *s, int g, int ty);

/* A non-negative Int expression. */
static int gen_int(gst *s, int g, int size) {
  int v = pick_var(s, g, T_.I);
  if (size <= 1 || prng_chance(s->r, 1, 3)) {
    if (v >= 0 && prng_chance(s->r, 2, 3)) return v;
    return ck(tm_iconst(g, prng_below(s->r, 4)), "iconst");
  }
  switch (prng_below(s->r, 6)) {
  case 5: /* may go negative: a program that then indexes out of range is
             discarded before testing (counted) */
    if (prng_chance(s->r, 1, 2)) return op2(P_ISUB, gen_int(s, g, size / 2), gen_int(s, g, size / 2));
    return op1(P_INEG, gen_int(s, g, size - 1));
  case 0: return op2(P_IADD, gen_int(s, g, size / 2), gen_int(s, g, size / 2));
  case 1: return op2(P_IMUL, gen_int(s, g, size / 2), ck(tm_iconst(g, prng_below(s->r, 3)), "iconst"));
  case 2: return op2(P_IDIV, gen_int(s, g, size - 1), ck(tm_iconst(g, 1 + prng_below(s->r, 3)), "iconst"));
  case 3: return op2(P_IMOD, gen_int(s, g, size - 1), ck(tm_iconst(g, 1 + prng_below(s->r, 3)), "iconst"));
  default: return ck(tm_length(gen(s, g, T_.AR, size - 1)), "length");
  }
}

/* let y = e in y*y + 0.5 : a positive Real. */
static int positive(gst *s, int g, int size) {
  int e = gen(s, g, T_.R, size);
  int g1 = ctx_extend(g, T_.R);
  int y = ck(tm_var(g1, 0), "var");
  int body = op2(P_ADD, op2(P_MUL, y, ck(tm_var(g1, 0), "var")), ck(tm_rconst(g1, 0.5), "rconst"));
  return ck(tm_let(e, body), "let");
}

static int gen_real(gst *s, int g, int size) {
  int n = size - 1;
  switch (prng_below(s->r, 24)) {
  case 0: return op1(P_NEG, gen(s, g, T_.R, n));
  case 1: return op1(P_SIN, gen(s, g, T_.R, n));
  case 2: return op1(P_COS, gen(s, g, T_.R, n));
  case 3: return op1(P_TANH, gen(s, g, T_.R, n));
  case 4: return op1(P_SIGMOID, gen(s, g, T_.R, n));
  case 5: return op1(P_EXP, op1(P_SIN, gen(s, g, T_.R, n - 1)));
  case 6: return op1(P_LOG, positive(s, g, n - 1));
  case 7: return op1(P_SQRT, positive(s, g, n - 1));
  case 8: return op1(P_TAN, op1(P_SIN, gen(s, g, T_.R, n - 1)));
  case 9: return op1(P_ABS, gen(s, g, T_.R, n));
  case 10: return op2(P_ADD, gen(s, g, T_.R, n / 2), gen(s, g, T_.R, n - n / 2));
  case 11: return op2(P_SUB, gen(s, g, T_.R, n / 2), gen(s, g, T_.R, n - n / 2));
  case 12: return op2(P_MUL, gen(s, g, T_.R, n / 2), gen(s, g, T_.R, n - n / 2));
  case 13: return op2(P_DIV, gen(s, g, T_.R, n / 2), positive(s, g, n - n / 2 - 1));
  case 14: return op2(P_POW, positive(s, g, n / 2 - 1), op1(P_SIN, gen(s, g, T_.R, n - n / 2 - 1)));
  case 15: return op2(prng_chance(s->r, 1, 2) ? P_MAX : P_MIN, gen(s, g, T_.R, n / 2), gen(s, g, T_.R, n - n / 2));
  case 16: return op1(P_TOREAL, gen_int(s, g, n));
  case 17: return ck(tm_sum(gen(s, g, T_.AR, n)), "sum");
  case 18: return op2(P_DOT, gen(s, g, T_.AR, n / 2), gen(s, g, T_.AR, n - n / 2));
  case 19: return op1(P_LOGSUMEXP, gen(s, g, T_.AR, n));
  case 20: {   /* the other smooth primitives, each on a part of its domain */
    switch (prng_below(s->r, 12)) {
    case 0: return op1(P_LOG1P, positive(s, g, n - 1));
    case 1: return op1(P_EXPM1, op1(P_SIN, gen(s, g, T_.R, n - 1)));
    case 2: return op1(P_SOFTPLUS, gen(s, g, T_.R, n));
    case 3: return op1(P_ATAN, gen(s, g, T_.R, n));
    case 4: return op1(prng_chance(s->r, 1, 2) ? P_ERF : P_ERFC, gen(s, g, T_.R, n));
    case 5: return op1(P_LGAMMA, positive(s, g, n - 1));
    case 6: return op1(prng_chance(s->r, 1, 2) ? P_SINH : P_COSH, op1(P_SIN, gen(s, g, T_.R, n - 1)));
    case 7: return op1(P_ASINH, gen(s, g, T_.R, n));
    case 8: return op1(P_EXP2, op1(P_SIN, gen(s, g, T_.R, n - 1)));
    case 9: return op1(P_LOG2, positive(s, g, n - 1));
    case 10: return op2(P_HYPOT, positive(s, g, n / 2 - 1), gen(s, g, T_.R, n - n / 2));
    default: return op2(P_ATAN2, gen(s, g, T_.R, n / 2), positive(s, g, n - n / 2 - 1));
    }
  }
  default: {
    int v = pick_var(s, g, T_.R);
    if (v >= 0) return v;
    return ck(tm_rconst(g, rand_const(s)), "rconst");
  }
  }
}

static int gen_bool(gst *s, int g, int size) {
  int n = size - 1;
  switch (prng_below(s->r, 7)) {
  case 0: return op2(P_LT, gen(s, g, T_.R, n / 2), gen(s, g, T_.R, n - n / 2));
  case 1: return op2(P_LE, gen(s, g, T_.R, n / 2), gen(s, g, T_.R, n - n / 2));
  case 2: return op2(P_EQ, gen(s, g, T_.R, n / 2), gen(s, g, T_.R, n - n / 2));
  case 3: return op2(P_ILT, gen_int(s, g, n / 2), gen_int(s, g, n - n / 2));
  case 4: return op2(P_ILE, gen_int(s, g, n / 2), gen_int(s, g, n - n / 2));
  case 5: return op2(P_IEQ, gen_int(s, g, n / 2), gen_int(s, g, n - n / 2));
  default: return prng_chance(s->r, 1, 2) ? ck(tm_inl(ck(tm_unit(g), "unit"), T_.U), "inl")
                                          : ck(tm_inr(T_.U, ck(tm_unit(g), "unit")), "inr");
  }
}

/* The array size of a build: the program's L, or the length of an array
 * already in scope (also L). */
static int array_size(gst *s, int g) {
  int a = pick_var(s, g, T_.AR);
  if (a >= 0 && prng_chance(s->r, 1, 2)) return ck(tm_length(a), "length");
  return ck(tm_iconst(g, s->len), "iconst");
}

static int gen_array(gst *s, int g, int ty, int size) {
  int el = ty_left(ty), n = size - 1;
  int k = prng_below(s->r, el == T_.R ? 9 : 4);
  if (k <= 1) { /* build */
    int m = array_size(s, g);
    return ck(tm_build(m, gen(s, ctx_extend(g, T_.I), el, n)), "build");
  }
  if (k <= 3) { /* map over an array of R or of Arr R */
    int sig = (el == T_.R || prng_chance(s->r, 1, 2)) ? T_.R : T_.AR;
    if (prng_chance(s->r, 1, 4)) sig = T_.AR;
    int body = gen(s, ctx_extend(g, sig), el, n / 2);
    return ck(tm_map(body, gen(s, g, ty_arr(sig), n - n / 2)), "map");
  }
  switch (k) {
  case 4: return op2(P_VADD, gen(s, g, T_.AR, n / 2), gen(s, g, T_.AR, n - n / 2));
  case 5: return op2(P_VMUL, gen(s, g, T_.AR, n / 2), gen(s, g, T_.AR, n - n / 2));
  case 6: return op2(P_VSCALE, gen(s, g, T_.R, n / 2), gen(s, g, T_.AR, n - n / 2));
  case 7: return op2(P_MATVEC, gen(s, g, T_.AAR, n / 2), gen(s, g, T_.AR, n - n / 2));
  default: {
    int m = array_size(s, g);
    return ck(tm_build(m, gen(s, ctx_extend(g, T_.I), el, n)), "build");
  }
  }
}

static int let_type(gst *s) {
  switch (prng_below(s->r, 13)) {
  case 12: return ty_arr(T_.RR);   /* arrays of pairs */
  case 0: case 1: case 2: case 3: return T_.R;
  case 4: case 5: return T_.AR;
  case 6: return T_.RR;
  case 7: case 8: return T_.FRR;
  case 9: return T_.I;
  case 10: return T_.B;
  default: return T_.FRRR;
  }
}

static int arg_type(gst *s) {
  switch (prng_below(s->r, 8)) {
  case 0: case 1: case 2: case 3: return T_.R;
  case 4: return T_.AR;
  case 5: return T_.RR;
  case 6: return T_.FRR; /* higher-order: (R -> R) -> ... */
  default: return T_.I;
  }
}

static int gen(gst *s, int g, int ty, int size) {
  if (size <= 1) return leaf(s, g, ty);
  int n = size - 1;
  int k = prng_below(s->r, 100);
  int fo = ty_is_first_order(ty);
  if (k < 8) {
    int v = pick_var(s, g, ty);
    if (v >= 0) return v;
  } else if (k < 20) { /* let-sharing */
    int sig = let_type(s);
    int b = gen(s, g, sig, n / 2);
    return ck(tm_let(b, gen(s, ctx_extend(g, sig), ty, n - n / 2)), "let");
  } else if (k < 28) { /* application; partial when ty is a function */
    int sig = arg_type(s);
    int f = gen(s, g, ty_fun(sig, ty), n / 2 + 1);
    return ck(tm_app(f, gen(s, g, sig, n - n / 2)), "app");
  } else if (k < 31) { /* projections */
    int other = prng_chance(s->r, 1, 2) ? T_.R : T_.U;
    if (prng_chance(s->r, 1, 2))
      return ck(tm_fst(gen(s, g, ty_prod(ty, other), n)), "fst");
    return ck(tm_snd(gen(s, g, ty_prod(other, ty), n)), "snd");
  } else if (k < 38) { /* case on a comparison or a sum */
    if (prng_chance(s->r, 2, 3)) {
      int sc = gen_bool(s, g, n / 3);
      int gu = ctx_extend(g, T_.U);
      return ck(tm_case(sc, gen(s, gu, ty, n / 3), gen(s, gu, ty, n / 3)), "case");
    }
    int sc = gen(s, g, T_.SRR, n / 3);
    return ck(tm_case(sc, gen(s, ctx_extend(g, T_.R), ty, n / 3),
                      gen(s, ctx_extend(g, T_.RR), ty, n / 3)), "case");
  } else if (k < 42 && ty != T_.I && (fo || prng_chance(s->r, 1, 2))) { /* iter, also of functions */
    int cnt = ck(tm_iconst(g, prng_below(s->r, 4)), "iconst");
    int body = gen(s, ctx_extend(g, ty), ty, n / 2);
    return ck(tm_iter(cnt, body, gen(s, g, ty, n - n / 2)), "iter");
  } else if (k < 45 && ty != T_.I && (fo || prng_chance(s->r, 1, 2))) {
    /* loop with a data-dependent exit that stops by round cnt + 1 (its
     * fuel): the state (x, i) counts the rounds; while i < cnt, a random
     * condition chooses between going on with (step, i + 1) and stopping */
    int cnt = prng_below(s->r, 4), st = ty_prod(ty, T_.I);
    int g1 = ctx_extend(g, st), g2 = ctx_extend(g1, ty), g3 = ctx_extend(g2, T_.I);
    int gu = ctx_extend(g3, T_.U), gu2 = ctx_extend(gu, T_.U), ss = ty_sum(st, st);
    /* in g3: x = 1, i = 0; in gu: x = 2, i = 1; in gu2: x = 3, i = 2 */
    int go = ck(tm_inl(pair_of(gen(s, gu2, ty, n / 3), op2(P_IADD, ck(tm_var(gu2, 2), "var"),
                                                            ck(tm_iconst(gu2, 1), "iconst"))), st), "inl");
    int stop2 = ck(tm_inr(st, pair_of(ck(tm_var(gu2, 3), "var"), ck(tm_var(gu2, 2), "var"))), "inr");
    int round = ck(tm_case(gen_bool(s, gu, n / 3), go, stop2), "case");
    int stop = ck(tm_inr(st, pair_of(ck(tm_var(gu, 2), "var"), ck(tm_var(gu, 1), "var"))), "inr");
    int more = op2(P_ILT, ck(tm_var(g3, 0), "var"), ck(tm_iconst(g3, cnt), "iconst"));
    int body = ck(tm_case(more, round, stop), "case");
    body = ck(tm_let(ck(tm_snd(ck(tm_var(g2, 1), "var")), "snd"), body), "let");
    body = ck(tm_let(ck(tm_fst(ck(tm_var(g1, 0), "var")), "fst"), body), "let");
    if (tm_type(body) != ss) ck(-1, "loop body type");
    int init = pair_of(gen(s, g, ty, n - n / 3 - n / 3), ck(tm_iconst(g, 0), "iconst"));
    return ck(tm_fst(ck(tm_loop(ck(tm_iconst(g, cnt + 1), "iconst"), body, init), "loop")), "fst");
  } else if (k < 49 && (ty == T_.R || ty == T_.AR || ty == T_.RR)) { /* index, in range */
    int a = gen(s, g, ty_arr(ty), n / 2);
    int g1 = ctx_extend(g, ty_arr(ty));
    int i = op2(P_IMOD, gen_int(s, g1, n - n / 2),
                ck(tm_length(ck(tm_var(g1, 0), "var")), "length"));
    return ck(tm_let(a, ck(tm_index(ck(tm_var(g1, 0), "var"), i), "index")), "let");
  }
  switch (ty_kind(ty)) {
  case TY_REAL: return gen_real(s, g, size);
  case TY_INT: return gen_int(s, g, size);
  case TY_UNIT: return ck(tm_unit(g), "unit");
  case TY_PROD: return pair_of(gen(s, g, ty_left(ty), n / 2), gen(s, g, ty_right(ty), n - n / 2));
  case TY_SUM:
    if (ty == T_.B && prng_chance(s->r, 2, 3)) return gen_bool(s, g, size);
    if (prng_chance(s->r, 1, 2))
      return ck(tm_inl(gen(s, g, ty_left(ty), n), ty_right(ty)), "inl");
    return ck(tm_inr(ty_left(ty), gen(s, g, ty_right(ty), n)), "inr");
  case TY_ARR: return gen_array(s, g, ty, size);
  case TY_FUN:
    return ck(tm_lam(ty_left(ty), gen(s, ctx_extend(g, ty_left(ty)), ty_right(ty), n)), "lam");
  default:
    fprintf(stderr, "proptest: generator asked for a non-source type\n");
    exit(4);
  }
}

static int leaf(gst *s, int g, int ty) {
  if (prng_chance(s->r, 7, 8)) {
    int v = pick_var(s, g, ty);
    if (v >= 0) return v;
  }
  if (ty == T_.R && prng_chance(s->r, 3, 4)) {
    /* reach an input through a pair or an array rather than a constant */
    int v = pick_var(s, g, T_.RR);
    if (v >= 0) return ck(prng_chance(s->r, 1, 2) ? tm_fst(v) : tm_snd(v), "proj");
    v = pick_var(s, g, T_.AR);
    if (v >= 0) return ck(tm_sum(v), "sum");
  }
  switch (ty_kind(ty)) {
  case TY_REAL: return ck(tm_rconst(g, rand_const(s)), "rconst");
  case TY_INT: return ck(tm_iconst(g, prng_below(s->r, 3)), "iconst");
  case TY_UNIT: return ck(tm_unit(g), "unit");
  case TY_PROD: return pair_of(leaf(s, g, ty_left(ty)), leaf(s, g, ty_right(ty)));
  case TY_SUM:
    if (prng_chance(s->r, 1, 2)) return ck(tm_inl(leaf(s, g, ty_left(ty)), ty_right(ty)), "inl");
    return ck(tm_inr(ty_left(ty), leaf(s, g, ty_right(ty))), "inr");
  case TY_ARR:
    return ck(tm_build(array_size(s, g), leaf(s, ctx_extend(g, T_.I), ty_left(ty))), "build");
  case TY_FUN:
    return ck(tm_lam(ty_left(ty), leaf(s, ctx_extend(g, ty_left(ty)), ty_right(ty))), "lam");
  default:
    fprintf(stderr, "proptest: generator asked for a non-source type\n");
    exit(4);
  }
}

int pt_gen(prng *r, int len, int g, int ty, int size) {
  gst s = {r, len};
  return gen(&s, g, ty, size);
}

static int weighted(prng *r, const int *tys, const int *w, int n) {
  int tot = 0;
  for (int i = 0; i < n; i++) tot += w[i];
  int k = prng_below(r, tot);
  for (int i = 0; i < n; i++) {
    if (k < w[i]) return tys[i];
    k -= w[i];
  }
  return tys[0];
}

int pt_gen_program(prng *r, int size, pt_program *p) {
  int ptys[4] = {T_.R, T_.RR, T_.AR, T_.AAR}, pw[4] = {6, 1, 3, 1};
  int rtys[4] = {T_.R, T_.RR, T_.AR, ty_prod(T_.R, T_.AR)}, rw[4] = {6, 1, 2, 1};
  p->nparams = 1 + prng_below(r, 3);
  p->len = 1 + prng_below(r, 3);
  int g = CTX_EMPTY;
  for (int i = 0; i < p->nparams; i++) {
    p->param_ty[i] = weighted(r, ptys, pw, 4);
    g = ctx_extend(g, p->param_ty[i]);
  }
  p->ctx = g;
  p->result_ty = weighted(r, rtys, rw, 4);
  p->term = pt_gen(r, p->len, g, p->result_ty, size);
  return p->term;
}
