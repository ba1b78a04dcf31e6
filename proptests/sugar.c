/* The surface-sugar family: random surface programs that use the
 * conveniences of spec/surface.md §4 / §4.1 (nested patterns in let, fun,
 * case and fold; fst, snd, inl, inr, primitives and library words as
 * functions; concat slice reverse update zip unzip range fold; the
 * real-to-int conversions and the newer primitives), each rendered twice
 * from one tree: with the conveniences, and as the core program a person
 * would write by hand (mode 1). The core form is written here from the
 * spec's table, not produced by the elaborator under test, so the two
 * elaborating to different values or derivatives is a bug in one of them.
 *
 * Domains: every array has a length known here (parameters have length L),
 * so indices, slices and updates are in range by construction; log-like
 * primitives get `let y = e in y * y + 0.5`, atanh `0.5 * sin e`, acosh
 * `1.0 + (y * y + 0.5)`, exp-like ones `sin e`. */
#include <stdlib.h>
#include <ctype.h>
#include <string.h>
#include "sugar.h"

/* ---- the family's types ------------------------------------------------ */
enum { Y_R, Y_I, Y_RR, Y_R3, Y_R3L, Y_SRR, Y_AR, Y_ARR, Y_AAR, Y_PAR, Y_R4, Y_N };
static const char *const ytext[Y_N] = {
  "real", "int", "real * real", "real * (real * real)", "(real * real) * real",
  "(real * real) + real", "[real]", "[real * real]", "[[real]]", "[real] * [real]",
  "(real * real) * (real * real)"};
static int is_prod(int y) { return y == Y_RR || y == Y_R3 || y == Y_R3L || y == Y_PAR || y == Y_R4; }
static int is_arr(int y) { return y == Y_AR || y == Y_ARR || y == Y_AAR; }
static int yleft(int y) { return y == Y_R3L || y == Y_R4 ? Y_RR : y == Y_PAR ? Y_AR : Y_R; }
static int yright(int y) { return y == Y_R3 || y == Y_R4 ? Y_RR : y == Y_PAR ? Y_AR : Y_R; }
static int yelem(int y) { return y == Y_AR ? Y_R : y == Y_ARR ? Y_RR : Y_AR; }
static int yarr(int el) { return el == Y_R ? Y_AR : el == Y_RR ? Y_ARR : Y_AAR; }

const char *sg_type_text(int y) { return ytext[y]; }

int sg_kernel_type(int y) {
  int R = TY_ID_REAL, RR = ty_prod(R, R), AR = ty_arr(R);
  switch (y) {
  case Y_R: return R;
  case Y_I: return TY_ID_INT;
  case Y_RR: return RR;
  case Y_R3: return ty_prod(R, RR);
  case Y_R3L: return ty_prod(RR, R);
  case Y_SRR: return ty_sum(RR, R);
  case Y_AR: return AR;
  case Y_ARR: return ty_arr(RR);
  case Y_AAR: return ty_arr(AR);
  case Y_R4: return ty_prod(RR, RR);
  default: return ty_prod(AR, AR);
  }
}

/* ---- nodes -------------------------------------------------------------- */
enum {
  /* plain: the same text in both forms */
  N_VAR, N_RC, N_BIN, N_PRIM1, N_POS, N_PRIM2, N_CONV, N_FST, N_SND, N_SUM, N_DOT, N_INDEX,
  N_INDEXV, N_INDEXF, N_IF, N_LENR, N_TOREALV, N_PAIR, N_MAPLAM, N_BUILD, N_LIT, N_LET, N_INL,
  N_INR,
  /* conveniences */
  S_TUP3, S_LETPAT, S_FUNPAT, S_MAPPAT, S_CASEPAT, S_INJFUN, S_PROJFUN, S_MAPW, S_CONCAT,
  S_SLICE, S_REVERSE, S_UPDATE, S_ZIP, S_UNZIP, S_RANGE, S_FOLD, S_CONV, S_FUN2, S_WHILE, S_NKINDS
};
const char *const sg_cover_name[] = {
  "tuple3", "let-pattern", "fun-pattern", "map-fun-pattern", "case-pattern", "inl/inr-as-function",
  "fst/snd-as-function", "word-as-function", "concat", "slice", "reverse", "update", "zip", "unzip",
  "range", "fold", "floor/ceil/round/trunc/sign", "two-parameter-fun-pattern", "while"};
int sg_cover_n(void) { return S_NKINDS - S_TUP3; }

#define PAT_MAX 9
#define PT_TUP (-1)   /* pattern entries: a binder id, PT_TUP or PT_WILD */
#define PT_WILD (-2)

struct sx {
  int kind, y, len, len2;  /* len: arrays (outer), PAR (both); len2: AAR inner */
  int nk;
  sx *k[4];
  int iv[4];               /* binder ids, literals, variants */
  double rv;
  const char *name;        /* primitive, operator or word */
  int pat[PAT_MAX], npat;  /* preorder: PT_TUP l r | id | PT_WILD */
  int paty;                /* the pattern's type */
};

static sx *nn(int kind, int y) {
  sx *n = calloc(1, sizeof *n);
  if (!n) { fprintf(stderr, "proptest: out of memory\n"); exit(2); }
  n->kind = kind;
  n->y = y;
  for (int i = 0; i < 4; i++) n->iv[i] = -1;
  return n;
}
static sx *kid(sx *n, sx *c) { n->k[n->nk++] = c; return n; }

static void node_free(sx *n) {
  if (!n) return;
  for (int i = 0; i < n->nk; i++) node_free(n->k[i]);
  free(n);
}
static sx *node_copy(const sx *n) {
  sx *c = nn(0, 0);
  *c = *n;
  for (int i = 0; i < n->nk; i++) c->k[i] = node_copy(n->k[i]);
  return c;
}
static int node_size(const sx *n) {
  int s = 1;
  for (int i = 0; i < n->nk; i++) s += node_size(n->k[i]);
  return s;
}

/* ---- generation ---------------------------------------------------------- */
#define ENV_MAX 64
#define MAX_LEN 6
typedef struct { int id, y, len, len2, bound; } binding;
typedef struct {
  prng *r;
  int L, next_id;
  binding env[ENV_MAX];
  int n;
} gs;

static int fresh(gs *s) { return s->next_id++; }
static void push(gs *s, int id, int y, int len, int len2, int bound) {
  if (s->n < ENV_MAX) s->env[s->n++] = (binding){id, y, len, len2, bound};
}

/* A visible binder of type y (and array length len, when len >= 0), or -1. */
static int pick(gs *s, int y, int len, int len2) {
  int cand[ENV_MAX], nc = 0;
  for (int i = 0; i < s->n; i++)
    if (s->env[i].y == y && (len < 0 || s->env[i].len == len) && (len2 < 0 || s->env[i].len2 == len2))
      cand[nc++] = i;
  return nc ? cand[prng_below(s->r, nc)] : -1;
}
static sx *var_of(gs *s, int i) {
  sx *v = nn(N_VAR, s->env[i].y);
  v->iv[0] = s->env[i].id;
  v->len = s->env[i].len;
  v->len2 = s->env[i].len2;
  return v;
}

static double rconst(gs *s) {
  switch (prng_below(s->r, 5)) {
  case 0: return 1.0;
  case 1: return -1.0;
  case 2: return 0.5;
  default: return (double)(int)(prng_range(s->r, -2.0, 2.0) * 1000) / 1000;
  }
}

static sx *gen(gs *s, int y, int len, int len2, int size);

static sx *leaf(gs *s, int y, int len, int len2) {
  int v = pick(s, y, len, len2);
  if (v >= 0 && prng_chance(s->r, 4, 5)) return var_of(s, v);
  switch (y) {
  case Y_R: {
    int a = pick(s, Y_AR, -1, -1);
    if (a >= 0 && prng_chance(s->r, 1, 2)) {
      sx *n = kid(nn(N_INDEX, Y_R), var_of(s, a));
      n->iv[0] = prng_below(s->r, s->env[a].len);
      return n;
    }
    int p = pick(s, Y_RR, -1, -1);
    if (p >= 0 && prng_chance(s->r, 1, 2)) return kid(nn(prng_chance(s->r, 1, 2) ? N_FST : N_SND, Y_R), var_of(s, p));
    sx *n = nn(N_RC, Y_R);
    n->rv = rconst(s);
    return n;
  }
  case Y_RR: case Y_R3: case Y_R3L: case Y_PAR: case Y_R4: {
    if (y == Y_PAR && prng_chance(s->r, 1, 2)) {
      sx *n = nn(S_UNZIP, y);
      n->len = len >= 0 ? len : 1 + prng_below(s->r, 3);
      n->iv[2] = prng_chance(s->r, 1, 3);
      return kid(n, leaf(s, Y_ARR, n->len, -1));
    }
    sx *n = nn(N_PAIR, y);
    n->len = len;
    return kid(kid(n, leaf(s, yleft(y), len, -1)), leaf(s, yright(y), len, -1));
  }
  case Y_SRR: return kid(nn(N_INL, Y_SRR), leaf(s, Y_RR, -1, -1));
  default: { /* arrays: build n (fun i -> leaf) */
    sx *n = nn(N_BUILD, y);
    n->len = len >= 0 ? len : 1 + prng_below(s->r, 3);
    n->len2 = y == Y_AAR ? (len2 >= 0 ? len2 : 1 + prng_below(s->r, 3)) : -1;
    n->iv[0] = fresh(s);
    int save = s->n;
    push(s, n->iv[0], Y_I, -1, -1, n->len);
    kid(n, leaf(s, yelem(y), n->len2, -1));
    s->n = save;
    return n;
  }
  }
}

/* A pattern over type y into n->pat: a name, `_` or (at a product) a tuple. */
static void gen_pat(gs *s, sx *n, int y, int top) {
  if (n->npat + 3 < PAT_MAX && is_prod(y) && (top || prng_chance(s->r, 1, 2))) {
    n->pat[n->npat++] = PT_TUP;
    gen_pat(s, n, yleft(y), 0);
    gen_pat(s, n, yright(y), 0);
    return;
  }
  if (!top && prng_chance(s->r, 1, 6)) { n->pat[n->npat++] = PT_WILD; return; }
  n->pat[n->npat++] = fresh(s);
}
/* Pushes the pattern's binders from position *pos, of type y; len: arrays. */
static void push_pat(gs *s, const sx *n, int *pos, int y, int len) {
  int e = n->pat[(*pos)++];
  if (e == PT_TUP) {
    push_pat(s, n, pos, yleft(y), len);
    push_pat(s, n, pos, yright(y), len);
  } else if (e >= 0) {
    push(s, e, y, is_arr(y) ? len : -1, -1, -1);
  }
}
static void bind_pat(gs *s, sx *n, int y, int len) {
  n->paty = y;
  gen_pat(s, n, y, 1);
  int pos = 0;
  push_pat(s, n, &pos, y, len);
}

static int want_len(gs *s) { return 1 + prng_below(s->r, 4); }

/* A word applied to fewer arguments than its arity (a third of the time):
 * iv[2] set, iv[3] the let-bound function's binder. */
static void maybe_partial(gs *s, sx *n) {
  n->iv[2] = prng_below(s->r, 3) == 0;
  if (n->iv[2]) n->iv[3] = fresh(s);
}

static sx *gen_pos(gs *s, int size) {
  sx *n = nn(N_POS, Y_R);
  n->iv[0] = fresh(s);
  return kid(n, gen(s, Y_R, -1, -1, size));
}
static sx *prim1(const char *name, sx *a) {
  sx *n = kid(nn(N_PRIM1, Y_R), a);
  n->name = name;
  return n;
}
static sx *bin(const char *op, sx *a, sx *b) {
  sx *n = kid(kid(nn(N_BIN, Y_R), a), b);
  n->name = op;
  return n;
}
static sx *rc(double v) {
  sx *n = nn(N_RC, Y_R);
  n->rv = v;
  return n;
}

/* An array of type y and length len (any when < 0), inner length len2. */
static sx *gen_arr(gs *s, int y, int len, int len2, int size) {
  int el = yelem(y), m = size - 1;
  if (len < 0) len = want_len(s);
  if (y == Y_AAR && len2 < 0) len2 = want_len(s);
  sx *n;
  for (int tries = 0; tries < 4; tries++) {
    /* arrays of arrays: mostly a word as a function (map reverse, map (concat a)) */
    switch (y == Y_AAR && prng_chance(s->r, 1, 2) ? 6 : prng_below(s->r, 12)) {
    case 0: /* concat */
      if (len < 2) break;
      if (y == Y_AAR) break;
      { int l1 = 1 + prng_below(s->r, len - 1);
        n = nn(S_CONCAT, y); n->len = len; maybe_partial(s, n);
        return kid(kid(n, gen(s, y, l1, -1, m / 2)), gen(s, y, len - l1, -1, m - m / 2)); }
    case 1: { /* slice */
      if (y == Y_AAR) break;
      int extra = prng_below(s->r, 3), st = prng_below(s->r, extra + 1);
      if (len + extra > MAX_LEN) break;
      n = nn(S_SLICE, y); n->len = len; n->iv[0] = st; n->iv[1] = len; maybe_partial(s, n);
      return kid(n, gen(s, y, len + extra, -1, m));
    }
    case 2: /* reverse, also as a function */
      n = nn(S_REVERSE, y); n->len = len; n->len2 = len2; n->iv[2] = prng_below(s->r, 3) == 0;
      return kid(n, gen(s, y, len, len2, m));
    case 3: /* update, also partially applied */
      if (y == Y_AAR) break;
      n = nn(S_UPDATE, y); n->len = len; n->iv[0] = prng_below(s->r, len); n->iv[2] = prng_below(s->r, 3) == 0;
      if (n->iv[2]) n->iv[3] = fresh(s);
      return kid(kid(n, gen(s, y, len, -1, m / 2)), gen(s, el, -1, -1, m - m / 2));
    case 4: /* zip */
      if (y != Y_ARR) break;
      { int l2 = len + (prng_chance(s->r, 1, 3) && len < MAX_LEN ? 1 : 0);
        n = nn(S_ZIP, y); n->len = len; maybe_partial(s, n);
        if (prng_chance(s->r, 1, 2)) return kid(kid(n, gen(s, Y_AR, len, -1, m / 2)), gen(s, Y_AR, l2, -1, m - m / 2));
        return kid(kid(n, gen(s, Y_AR, l2, -1, m / 2)), gen(s, Y_AR, len, -1, m - m / 2)); }
    case 5: /* range */
      if (y != Y_AR) break;
      n = nn(S_RANGE, y); n->len = len; n->iv[0] = len; n->iv[2] = prng_chance(s->r, 1, 3);
      return n;
    case 6: { /* a word as a function in map */
      if (y == Y_ARR) break;
      n = nn(S_MAPW, y); n->len = len; n->len2 = len2;
      if (y == Y_AR) {
        int w = prng_below(s->r, 5);
        if (w == 4) { n->name = "length"; return kid(n, gen(s, Y_AAR, len, -1, m)); }
        if (w == 0) { n->name = prng_chance(s->r, 1, 2) ? "fst" : "snd"; return kid(n, gen(s, Y_ARR, len, -1, m)); }
        if (w == 1) { n->name = "sum"; return kid(n, gen(s, Y_AAR, len, -1, m)); }
        if (w == 2) { /* a positive first argument: hypot is not differentiable at (0, 0) */
          n->name = "hypot";
          return kid(kid(n, gen(s, Y_AR, len, -1, m / 2)), gen_pos(s, m - m / 2 - 1));
        }
        static const char *const un[] = {"sin", "softplus", "atan", "tanh", "erf", "asinh", "sigmoid", "erfc"};
        n->name = un[prng_below(s->r, 8)];
        return kid(n, gen(s, Y_AR, len, -1, m));
      }
      if (y == Y_AAR) {
        if (len2 < 2 || prng_chance(s->r, 1, 2)) { n->name = "reverse"; return kid(n, gen(s, Y_AAR, len, len2, m)); }
        int l1 = 1 + prng_below(s->r, len2 - 1);
        n->name = "concat";
        return kid(kid(n, gen(s, Y_AAR, len, len2 - l1, m / 2)), gen(s, Y_AR, l1, -1, m - m / 2));
      }
      break;
    }
    case 7: { /* map with a pattern */
      if (y != Y_AR) break;
      n = nn(S_MAPPAT, y); n->len = len;
      kid(n, gen(s, Y_ARR, len, -1, m / 2));
      int save = s->n;
      bind_pat(s, n, Y_RR, -1);
      kid(n, gen(s, Y_R, -1, -1, m - m / 2));
      s->n = save;
      return n;
    }
    case 8: { /* fold with an array accumulator */
      if (y == Y_AAR) break;
      goto fold;
    }
    case 9: { /* map (fun x -> e) a */
      if (y == Y_AAR) break;
      n = nn(N_MAPLAM, y); n->len = len;
      int sy = prng_chance(s->r, 1, 2) ? Y_R : Y_RR;
      kid(n, gen(s, yarr(sy), len, -1, m / 2));
      n->iv[0] = fresh(s);
      int save = s->n;
      push(s, n->iv[0], sy, -1, -1, -1);
      kid(n, gen(s, el, -1, -1, m - m / 2));
      s->n = save;
      return n;
    }
    case 10: { /* build */
      n = nn(N_BUILD, y); n->len = len; n->len2 = len2; n->iv[0] = fresh(s);
      int save = s->n;
      push(s, n->iv[0], Y_I, -1, -1, len);
      kid(n, gen(s, el, len2, -1, m));
      s->n = save;
      return n;
    }
    default: { /* literal */
      if (y != Y_AR || len > 3) break;
      n = nn(N_LIT, y); n->len = len;
      for (int i = 0; i < len; i++) kid(n, gen(s, Y_R, -1, -1, m / len));
      return n;
    }
    }
  }
  return leaf(s, y, len, len2);
fold: {
    n = nn(S_FOLD, y); n->len = len;
    int cnt = prng_below(s->r, 4);
    n->iv[1] = prng_below(s->r, 3) == 0;   /* partially applied */
    if (n->iv[1]) n->iv[3] = fresh(s);
    int a = pick(s, Y_AR, -1, -1);
    kid(n, gen(s, y, len, -1, m / 2));      /* init */
    if (a >= 0 && prng_chance(s->r, 1, 2)) { cnt = s->env[a].len; kid(n, var_of(s, a)); }
    n->iv[2] = cnt;
    n->iv[0] = fresh(s);
    int save = s->n;
    push(s, n->iv[0], Y_I, -1, -1, cnt);
    n->paty = y;
    n->pat[n->npat++] = fresh(s);
    push(s, n->pat[0], y, len, -1, -1);
    sx *body = gen(s, y, len, -1, m - m / 2);
    s->n = save;
    /* the body after the init (and count), so k[nk-1] is the body */
    return kid(n, body);
  }
}

static sx *gen_real(gs *s, int size) {
  int m = size - 1;
  sx *n;
  switch (prng_below(s->r, 32)) {
  case 0: case 1: { static const char *const ops[] = {"+", "-", "*"};
    return bin(ops[prng_below(s->r, 3)], gen(s, Y_R, -1, -1, m / 2), gen(s, Y_R, -1, -1, m - m / 2)); }
  case 2: { static const char *const un[] = {"sin", "cos", "tanh", "softplus", "atan", "erf", "erfc", "asinh", "sigmoid"};
    return prim1(un[prng_below(s->r, 9)], gen(s, Y_R, -1, -1, m)); }
  case 3: { static const char *const lg[] = {"log1p", "lgamma", "log2", "sqrt", "log"};
    return prim1(lg[prng_below(s->r, 5)], gen_pos(s, m - 1)); }
  case 4: { static const char *const ex[] = {"expm1", "sinh", "cosh", "exp2", "exp"};
    return prim1(ex[prng_below(s->r, 5)], prim1("sin", gen(s, Y_R, -1, -1, m - 1))); }
  case 5:
    if (prng_chance(s->r, 1, 2)) return prim1("atanh", bin("*", rc(0.5), prim1("sin", gen(s, Y_R, -1, -1, m - 2))));
    return prim1("acosh", bin("+", rc(1.0), gen_pos(s, m - 2)));
  case 6: n = nn(N_PRIM2, Y_R); n->name = prng_chance(s->r, 1, 2) ? "atan2" : "hypot";
    return kid(kid(n, gen(s, Y_R, -1, -1, m / 2)), gen_pos(s, m - m / 2 - 1));
  case 7: { static const char *const cv[] = {"floor", "ceil", "round", "trunc", "sign"};
    n = nn(S_CONV, Y_R); n->name = cv[prng_below(s->r, 5)];
    return kid(n, gen(s, Y_R, -1, -1, m)); }
  case 8: return kid(nn(N_SUM, Y_R), gen(s, Y_AR, -1, -1, m));
  case 9: { int l = want_len(s);
    return kid(kid(nn(N_DOT, Y_R), gen(s, Y_AR, l, -1, m / 2)), gen(s, Y_AR, l, -1, m - m / 2)); }
  case 10: n = kid(nn(N_IF, Y_R), gen(s, Y_R, -1, -1, m / 4));
    kid(n, gen(s, Y_R, -1, -1, m / 4));
    kid(n, gen(s, Y_R, -1, -1, m / 4));
    return kid(n, gen(s, Y_R, -1, -1, m / 4));
  case 11: return kid(nn(N_LENR, Y_R), gen(s, prng_chance(s->r, 1, 2) ? Y_AR : Y_ARR, -1, -1, m));
  case 12: { /* an index from data */
    sx *a = gen(s, Y_AR, -1, -1, m / 2);
    n = kid(kid(nn(N_INDEXF, Y_R), a), gen(s, Y_R, -1, -1, m - m / 2));
    return n; }
  case 13: { /* an int binder as an index or a real */
    int cand[ENV_MAX], nc = 0;
    for (int i = 0; i < s->n; i++)
      if (s->env[i].y == Y_I) cand[nc++] = i;
    if (!nc) break;
    int i = cand[prng_below(s->r, nc)];
    if (s->env[i].bound > 0 && prng_chance(s->r, 2, 3)) {
      n = kid(nn(N_INDEXV, Y_R), gen(s, Y_AR, s->env[i].bound, -1, m));
      n->iv[0] = s->env[i].id;
      return n;
    }
    n = nn(N_TOREALV, Y_R);
    n->iv[0] = s->env[i].id;
    return n; }
  case 14: case 15: { /* a projection: plain, or fst / snd as a function */
    int proj = prng_chance(s->r, 1, 2);
    if (prng_chance(s->r, 1, 2)) return kid(nn(proj ? N_FST : N_SND, Y_R), gen(s, Y_RR, -1, -1, m));
    n = nn(S_PROJFUN, Y_R); n->name = proj ? "fst" : "snd"; n->iv[1] = prng_chance(s->r, 1, 2);
    if (n->iv[1]) n->iv[0] = fresh(s);
    return kid(n, gen(s, Y_RR, -1, -1, m)); }
  case 16: case 17: { /* case with patterns */
    n = nn(S_CASEPAT, Y_R);
    n->iv[1] = prng_chance(s->r, 1, 3);   /* annotated patterns */
    kid(n, gen(s, Y_SRR, -1, -1, m / 3));
    int save = s->n;
    bind_pat(s, n, Y_RR, -1);
    kid(n, gen(s, Y_R, -1, -1, m / 3));
    s->n = save;
    n->iv[0] = prng_chance(s->r, 1, 5) ? PT_WILD : fresh(s);
    if (n->iv[0] >= 0) push(s, n->iv[0], Y_R, -1, -1, -1);
    kid(n, gen(s, Y_R, -1, -1, m - 2 * (m / 3)));
    s->n = save;
    return n; }
  case 18: case 19: case 20: { /* let with a pattern */
    static const int py[] = {Y_RR, Y_R3, Y_R3L, Y_PAR, Y_R4};
    int y = py[prng_below(s->r, 5)];
    int l = y == Y_PAR ? want_len(s) : -1;
    n = nn(S_LETPAT, Y_R); n->len = l; n->iv[1] = prng_below(s->r, 4) % 3;
    kid(n, gen(s, y, l, -1, m / 2));
    int save = s->n;
    bind_pat(s, n, y, l);
    kid(n, gen(s, Y_R, -1, -1, m - m / 2));
    s->n = save;
    return n; }
  case 21: case 22: { /* fun with a pattern, applied */
    static const int py[] = {Y_RR, Y_R3, Y_R3L, Y_R4};
    int y = py[prng_below(s->r, 4)];
    n = nn(S_FUNPAT, Y_R); n->iv[1] = prng_below(s->r, 3);
    if (n->iv[1] == 2) n->iv[0] = fresh(s);
    kid(n, gen(s, y, -1, -1, m / 2));
    int save = s->n;
    bind_pat(s, n, y, -1);
    kid(n, gen(s, Y_R, -1, -1, m - m / 2));
    s->n = save;
    return n; }
  case 25: case 26: { /* a pattern and a plain parameter: fun P (x : real) -> e, or a local def */
    static const int py[] = {Y_RR, Y_R3, Y_R3L, Y_R4};
    int y = py[prng_below(s->r, 4)];
    n = nn(S_FUN2, Y_R); n->iv[1] = prng_chance(s->r, 1, 2);
    if (n->iv[1]) n->iv[3] = fresh(s);
    kid(n, gen(s, y, -1, -1, m / 3));
    kid(n, gen(s, Y_R, -1, -1, m / 3));
    int save = s->n;
    bind_pat(s, n, y, -1);
    n->iv[0] = fresh(s);
    push(s, n->iv[0], Y_R, -1, -1, -1);
    kid(n, gen(s, Y_R, -1, -1, m - 2 * (m / 3)));
    s->n = save;
    return n; }
  case 23: { /* fold with a real or a pair accumulator */
    int y = prng_chance(s->r, 1, 2) ? Y_R : Y_RR;
    n = nn(S_FOLD, y);
    int cnt = prng_below(s->r, 4);
    n->iv[1] = prng_below(s->r, 3) == 0;
    if (n->iv[1]) n->iv[3] = fresh(s);
    kid(n, gen(s, y, -1, -1, m / 2));
    int a = pick(s, Y_AR, -1, -1);
    if (a >= 0 && prng_chance(s->r, 1, 2)) { cnt = s->env[a].len; kid(n, var_of(s, a)); }
    n->iv[2] = cnt;
    n->iv[0] = fresh(s);
    int save = s->n;
    push(s, n->iv[0], Y_I, -1, -1, cnt);
    if (y == Y_RR) bind_pat(s, n, Y_RR, -1);
    else { n->paty = y; n->pat[n->npat++] = fresh(s); push(s, n->pat[0], y, -1, -1, -1); }
    kid(n, gen(s, y, -1, -1, m - m / 2));
    s->n = save;
    if (y == Y_R) return n;
    sx *p = kid(nn(prng_chance(s->r, 1, 2) ? N_FST : N_SND, Y_R), n);
    return p; }
  case 27: { /* a bounded while over a real state x: go on while x < x0 + k, each round
             * adds 1 + t * t (t computed from x), so at most k + 1 rounds, the fuel;
             * a state past 2^53, where adding 1 is lost, runs out of fuel in both
             * forms and the program is discarded */
    n = nn(S_WHILE, Y_R);
    n->iv[1] = 1 + prng_below(s->r, 3);
    n->iv[2] = prng_chance(s->r, 1, 3);   /* cond and step as let-bound functions */
    kid(n, gen(s, Y_R, -1, -1, m / 3));
    n->iv[0] = fresh(s);
    int save = s->n;
    push(s, n->iv[0], Y_R, -1, -1, -1);
    kid(n, gen(s, Y_R, -1, -1, m - m / 3));
    s->n = save;
    return n; }
  case 24: { /* an element of an array */
    int l = want_len(s);
    n = kid(nn(N_INDEX, Y_R), gen(s, Y_AR, l, -1, m));
    n->iv[0] = prng_below(s->r, l);
    return n; }
  default: break;
  }
  return leaf(s, Y_R, -1, -1);
}

static sx *gen(gs *s, int y, int len, int len2, int size) {
  if (size <= 1) return leaf(s, y, len, len2);
  int m = size - 1;
  int k = prng_below(s->r, 100);
  if (k < 8) {
    int v = pick(s, y, len, len2);
    if (v >= 0) return var_of(s, v);
  } else if (k < 16) { /* a plain let */
    static const int ly[] = {Y_R, Y_R, Y_RR, Y_AR, Y_ARR};
    int sy = ly[prng_below(s->r, 5)];
    int l = is_arr(sy) ? want_len(s) : -1;
    sx *n = nn(N_LET, y);
    n->len = len; n->len2 = len2;
    n->iv[0] = fresh(s);
    kid(n, gen(s, sy, l, -1, m / 2));
    int save = s->n;
    push(s, n->iv[0], sy, l, -1, -1);
    sx *b = gen(s, y, len, len2, m - m / 2);
    s->n = save;
    kid(n, b);
    n->len = b->len; n->len2 = b->len2;
    return n;
  }
  switch (y) {
  case Y_R: return gen_real(s, size);
  case Y_RR: case Y_R3: case Y_R3L: case Y_PAR: case Y_R4: {
    if (y == Y_R3 && prng_chance(s->r, 1, 2)) {
      sx *n = nn(S_TUP3, y);
      for (int i = 0; i < 3; i++) kid(n, gen(s, Y_R, -1, -1, m / 3));
      return n;
    }
    if (y == Y_RR && prng_chance(s->r, 1, 4)) {
      int l = want_len(s);
      sx *n = kid(nn(N_INDEX, Y_RR), gen(s, Y_ARR, l, -1, m));
      n->iv[0] = prng_below(s->r, l);
      return n;
    }
    if (y == Y_PAR && prng_chance(s->r, 2, 3)) {
      if (len < 0) len = want_len(s);
      sx *n = nn(S_UNZIP, y);
      n->len = len;
      n->iv[2] = prng_chance(s->r, 1, 3);
      return kid(n, gen(s, Y_ARR, len, -1, m));
    }
    if (y == Y_PAR && len < 0) len = want_len(s);
    sx *n = nn(N_PAIR, y);
    n->len = len;
    return kid(kid(n, gen(s, yleft(y), len, -1, m / 2)), gen(s, yright(y), len, -1, m - m / 2));
  }
  case Y_SRR: {
    if (prng_chance(s->r, 1, 2)) {
      sx *n = nn(S_INJFUN, y);
      n->iv[0] = prng_chance(s->r, 1, 2);
      return kid(n, gen(s, n->iv[0] ? Y_R : Y_RR, -1, -1, m));
    }
    if (prng_chance(s->r, 1, 2)) return kid(nn(N_INL, y), gen(s, Y_RR, -1, -1, m));
    return kid(nn(N_INR, y), gen(s, Y_R, -1, -1, m));
  }
  default: return gen_arr(s, y, len, len2, size);
  }
}

void sg_gen(prng *r, int size, sg_program *p) {
  static const int py[] = {Y_R, Y_R, Y_R, Y_RR, Y_R3, Y_AR, Y_AR, Y_ARR, Y_AAR, Y_R4};
  static const int ry[] = {Y_R, Y_R, Y_R, Y_RR, Y_R3, Y_AR, Y_ARR, Y_R4};
  gs s = {0};
  s.r = r;
  s.L = 1 + prng_below(r, 3);
  p->len = s.L;
  p->nparams = 1 + prng_below(r, 3);
  for (int i = 0; i < p->nparams; i++) {
    p->param_y[i] = py[prng_below(r, 10)];
    int y = p->param_y[i];
    push(&s, fresh(&s), y, is_arr(y) ? s.L : -1, y == Y_AAR ? s.L : -1, -1);
  }
  p->result_y = ry[prng_below(r, 8)];
  p->body = gen(&s, p->result_y, -1, -1, size);
  p->nbinders = s.next_id;
  p->nameseed = prng_next(r);
}

void sg_free(sg_program *p) { node_free(p->body); p->body = NULL; }
sg_program sg_copy(const sg_program *p) {
  sg_program c = *p;
  c.body = node_copy(p->body);
  return c;
}
int sg_size(const sg_program *p) { return node_size(p->body); }

/* ---- rendering ----------------------------------------------------------- */
typedef struct {
  char *b;
  size_t n, cap;
  int mode, hidden;
} sb;

static void put(sb *o, const char *s) {
  size_t l = strlen(s);
  if (o->n + l + 1 > o->cap) {
    o->cap = 2 * (o->n + l + 1);
    o->b = realloc(o->b, o->cap);
    if (!o->b) { fprintf(stderr, "proptest: out of memory\n"); exit(2); }
  }
  memcpy(o->b + o->n, s, l + 1);
  o->n += l;
}
static void putf(sb *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void putf(sb *o, const char *fmt, ...) {
  char tmp[256];
  va_list ap;
  va_start(ap, fmt);
  int len = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (len >= 0 && (size_t)len < sizeof tmp) { put(o, tmp); return; }
  char *big = malloc((size_t)len + 1);   /* a long argument text */
  if (!big || len < 0) { fprintf(stderr, "proptest: out of memory\n"); exit(2); }
  va_start(ap, fmt);
  vsnprintf(big, (size_t)len + 1, fmt, ap);
  va_end(ap);
  put(o, big);
  free(big);
}
static int hid(sb *o) { return o->hidden++; }

static void render(sb *o, const sx *n);
static int intro(const sx *n, int *out);
static char *render_def(const sg_program *p, int mode, const char *name);

/* The pattern from *pos: mode 0 text. ann: annotate the top-level components. */
static void put_pat(sb *o, const sx *n, int *pos, int y, int ann_components) {
  int e = n->pat[(*pos)++];
  if (e == PT_WILD) put(o, "_");
  else if (e >= 0) putf(o, "v%d", e);
  else {
    put(o, "(");
    put_pat(o, n, pos, yleft(y), 0);
    if (ann_components) putf(o, " : %s", ytext[yleft(y)]);
    put(o, ", ");
    put_pat(o, n, pos, yright(y), 0);
    if (ann_components) putf(o, " : %s", ytext[yright(y)]);
    put(o, ")");
  }
}
/* The hand desugaring D(q, P, .) of a pattern: the lets, up to the body. */
static void put_destructure(sb *o, const char *q, const sx *n, int *pos, int y) {
  int e = n->pat[(*pos)++];
  if (e == PT_WILD) return;
  if (e >= 0) { putf(o, "let v%d = %s in ", e, q); return; }
  const char *side[2] = {"fst", "snd"};
  int ys[2] = {yleft(y), yright(y)};
  for (int i = 0; i < 2; i++) {
    int c = n->pat[*pos];
    if (c == PT_WILD) { (*pos)++; continue; }
    if (c >= 0) { (*pos)++; putf(o, "let v%d = %s %s in ", c, side[i], q); continue; }
    char h[32];
    snprintf(h, sizeof h, "h%d", hid(o));
    putf(o, "let %s = %s %s in ", h, side[i], q);
    put_destructure(o, h, n, pos, ys[i]);
  }
}

static void rk(sb *o, const sx *n, int i) { put(o, "("); render(o, n->k[i]); put(o, ")"); }

/* Core forms of the library words (spec/surface.md §4.1), on the texts of
 * their arguments. */
static void core_concat(sb *o, const char *a, const char *b) {
  int x = hid(o), y = hid(o), m = hid(o), i = hid(o);
  putf(o, "(let h%d = ", x); put(o, a); putf(o, " in let h%d = ", y); put(o, b);
  putf(o, " in let h%d = length h%d in build (h%d + length h%d) (fun (h%d : int) -> "
          "if h%d < h%d then h%d[h%d] else h%d[h%d - h%d]))", m, x, m, y, i, i, m, x, i, y, i, m);
}
static void core_zip(sb *o, const char *a, const char *b) {
  int x = hid(o), y = hid(o), m = hid(o), k = hid(o), i = hid(o);
  putf(o, "(let h%d = ", x); put(o, a); putf(o, " in let h%d = ", y); put(o, b);
  putf(o, " in let h%d = length h%d in let h%d = length h%d in build (if h%d < h%d then h%d else h%d) "
          "(fun (h%d : int) -> (h%d[h%d], h%d[h%d])))", m, x, k, y, m, k, m, k, i, x, i, y, i);
}
static void core_reverse(sb *o, const char *a) {
  int x = hid(o), m = hid(o), i = hid(o);
  putf(o, "(let h%d = ", x); put(o, a);
  putf(o, " in let h%d = length h%d in build h%d (fun (h%d : int) -> h%d[h%d - 1 - h%d]))", m, x, m, i, x, m, i);
}
static void core_update(sb *o, const char *a, int j, const char *v) {
  int x = hid(o), w = hid(o), c = hid(o), i = hid(o);
  putf(o, "(let h%d = ", x); put(o, a); putf(o, " in let h%d = ", w); put(o, v);
  putf(o, " in let h%d = h%d[%d] in build (length h%d) (fun (h%d : int) -> if h%d == %d then h%d else h%d[h%d]))",
       c, x, j, x, i, i, j, w, x, i);
}
/* Renders child i into a fresh string. */
static char *kid_text(sb *o, const sx *n, int i) {
  sb t = {0};
  t.mode = o->mode;
  t.hidden = o->hidden;
  put(&t, "(");
  render(&t, n->k[i]);
  put(&t, ")");
  o->hidden = t.hidden;
  return t.b;
}

static void render(sb *o, const sx *n) {
  int core = o->mode == 1;
  switch (n->kind) {
  case N_VAR: putf(o, "v%d", n->iv[0]); return;
  case N_RC: putf(o, "%.17g", n->rv); if (n->rv == (double)(long long)n->rv) put(o, ".0"); return;
  case N_BIN: rk(o, n, 0); putf(o, " %s ", n->name); rk(o, n, 1); return;
  case N_PRIM1: putf(o, "%s ", n->name); rk(o, n, 0); return;
  case N_POS: putf(o, "(let v%d = ", n->iv[0]); render(o, n->k[0]);
    putf(o, " in v%d * v%d + 0.5)", n->iv[0], n->iv[0]); return;
  case N_PRIM2: putf(o, "%s ", n->name); rk(o, n, 0); put(o, " "); rk(o, n, 1); return;
  case N_FST: put(o, "fst "); rk(o, n, 0); return;
  case N_SND: put(o, "snd "); rk(o, n, 0); return;
  case N_SUM: put(o, "sum "); rk(o, n, 0); return;
  case N_DOT: put(o, "dot "); rk(o, n, 0); put(o, " "); rk(o, n, 1); return;
  case N_INDEX: rk(o, n, 0); putf(o, "[%d]", n->iv[0]); return;
  case N_INDEXV: rk(o, n, 0); putf(o, "[v%d]", n->iv[0]); return;
  case N_INDEXF: /* floor of data, reduced into range */
    rk(o, n, 0); put(o, "[((floor "); rk(o, n, 1);
    putf(o, ") %% %d + %d) %% %d]", n->k[0]->len, n->k[0]->len, n->k[0]->len); return;
  case N_IF: put(o, "(if "); rk(o, n, 0); put(o, " < "); rk(o, n, 1); put(o, " then "); render(o, n->k[2]);
    put(o, " else "); render(o, n->k[3]); put(o, ")"); return;
  case N_LENR: put(o, "toreal (length "); rk(o, n, 0); put(o, ")"); return;
  case N_TOREALV: putf(o, "toreal v%d", n->iv[0]); return;
  case N_PAIR: put(o, "("); render(o, n->k[0]); put(o, ", "); render(o, n->k[1]); put(o, ")"); return;
  case N_MAPLAM: putf(o, "map (fun (v%d : %s) -> ", n->iv[0], ytext[yelem(n->k[0]->y)]);
    render(o, n->k[1]); put(o, ") "); rk(o, n, 0); return;
  case N_BUILD: putf(o, "build %d (fun (v%d : int) -> ", n->len, n->iv[0]); render(o, n->k[0]); put(o, ")"); return;
  case N_LIT: put(o, "[");
    for (int i = 0; i < n->nk; i++) { if (i) put(o, ", "); render(o, n->k[i]); }
    put(o, "]"); return;
  case N_LET: putf(o, "(let v%d = ", n->iv[0]); render(o, n->k[0]); put(o, " in "); render(o, n->k[1]); put(o, ")"); return;
  case N_INL: put(o, "(inl "); rk(o, n, 0); putf(o, " : %s)", ytext[Y_SRR]); return;
  case N_INR: put(o, "(inr "); rk(o, n, 0); putf(o, " : %s)", ytext[Y_SRR]); return;

  case S_TUP3:
    put(o, "("); render(o, n->k[0]); put(o, core ? ", (" : ", "); render(o, n->k[1]); put(o, ", ");
    render(o, n->k[2]); put(o, core ? "))" : ")"); return;
  case S_LETPAT: {
    int pos = 0;
    if (!core) {
      put(o, "(let ");
      if (n->iv[1] == 1) { put(o, "("); put_pat(o, n, &pos, n->paty, 0); putf(o, " : %s)", ytext[n->paty]); }
      else put_pat(o, n, &pos, n->paty, n->iv[1] == 2);
      put(o, " = "); render(o, n->k[0]); put(o, " in "); render(o, n->k[1]); put(o, ")");
      return;
    }
    int q = hid(o);
    char h[32];
    snprintf(h, sizeof h, "h%d", q);
    putf(o, "(let %s = ", h); render(o, n->k[0]); put(o, " in ");
    put_destructure(o, h, n, &pos, n->paty);
    render(o, n->k[1]); put(o, ")");
    return;
  }
  case S_FUNPAT: case S_MAPPAT: {
    int pos = 0, mp = n->kind == S_MAPPAT;
    int arg = 0, body = 1;   /* kids: the argument (or mapped array), the body */
    if (!core) {
      if (mp) put(o, "map (fun ");
      else if (n->iv[1] == 2) putf(o, "(let v%d : %s -> real = fun ", n->iv[0], ytext[n->paty]);
      else put(o, "((fun ");
      if (mp) put_pat(o, n, &pos, n->paty, 0);
      else if (n->iv[1] == 0) { put(o, "("); put_pat(o, n, &pos, n->paty, 0); putf(o, " : %s)", ytext[n->paty]); }
      else if (n->iv[1] == 1) put_pat(o, n, &pos, n->paty, 1);
      else put_pat(o, n, &pos, n->paty, 0);
      put(o, " -> "); render(o, n->k[body]);
      if (mp) { put(o, ") "); rk(o, n, arg); }
      else if (n->iv[1] == 2) { putf(o, " in v%d ", n->iv[0]); rk(o, n, arg); put(o, ")"); }
      else { put(o, ") "); rk(o, n, arg); put(o, ")"); }
      return;
    }
    int q = hid(o);
    char h[32];
    snprintf(h, sizeof h, "h%d", q);
    if (mp) put(o, "map ");
    else if (n->iv[1] == 2) putf(o, "(let v%d = ", n->iv[0]);
    else put(o, "(");
    putf(o, "(fun (%s : %s) -> ", h, ytext[n->paty]);
    put_destructure(o, h, n, &pos, n->paty);
    render(o, n->k[body]); put(o, ")");
    if (mp) { put(o, " "); rk(o, n, arg); }
    else if (n->iv[1] == 2) { putf(o, " in v%d ", n->iv[0]); rk(o, n, arg); put(o, ")"); }
    else { put(o, " "); rk(o, n, arg); put(o, ")"); }
    return;
  }
  case S_CASEPAT: {
    int pos = 0;
    put(o, "(case "); rk(o, n, 0); put(o, " of inl ");
    if (!core && n->iv[1]) {
      put(o, "("); put_pat(o, n, &pos, n->paty, 0); putf(o, " : %s) -> ", ytext[n->paty]); render(o, n->k[1]);
    } else if (!core) { put_pat(o, n, &pos, n->paty, 0); put(o, " -> "); render(o, n->k[1]); }
    else {
      char h[32];
      snprintf(h, sizeof h, "h%d", hid(o));
      putf(o, "%s -> (", h);
      put_destructure(o, h, n, &pos, n->paty);
      render(o, n->k[1]); put(o, ")");
    }
    if (!core && n->iv[1]) {
      if (n->iv[0] >= 0) putf(o, " | inr (v%d : real) -> ", n->iv[0]);
      else put(o, " | inr (_ : real) -> ");
    } else if (n->iv[0] >= 0) putf(o, " | inr v%d -> ", n->iv[0]);
    else if (!core) put(o, " | inr _ -> ");
    else putf(o, " | inr h%d -> ", hid(o));
    render(o, n->k[2]); put(o, ")");
    return;
  }
  case S_FUN2: { /* kids: the pattern's argument, x's argument, the body */
    int pos = 0;
    if (!core) {
      if (n->iv[1]) putf(o, "(let v%d (", n->iv[3]);
      else put(o, "((fun (");
      put_pat(o, n, &pos, n->paty, 0);
      putf(o, " : %s) (v%d : real) ", ytext[n->paty], n->iv[0]);
      if (n->iv[1]) { put(o, ": real = "); render(o, n->k[2]); putf(o, " in v%d ", n->iv[3]); }
      else { put(o, "-> "); render(o, n->k[2]); put(o, ") "); }
      rk(o, n, 0); put(o, " "); rk(o, n, 1); put(o, ")");
      return;
    }
    char h[32];
    snprintf(h, sizeof h, "h%d", hid(o));
    if (n->iv[1]) putf(o, "(let v%d = ", n->iv[3]);
    else put(o, "(");
    putf(o, "(fun (%s : %s) -> fun (v%d : real) -> ", h, ytext[n->paty], n->iv[0]);
    put_destructure(o, h, n, &pos, n->paty);
    render(o, n->k[2]); put(o, ")");
    if (n->iv[1]) putf(o, " in v%d", n->iv[3]);
    put(o, " "); rk(o, n, 0); put(o, " "); rk(o, n, 1); put(o, ")");
    return;
  }
  case S_INJFUN: {
    const char *w = n->iv[0] ? "inr" : "inl";
    int from = n->iv[0] ? Y_R : Y_RR;
    if (!core) putf(o, "((%s : %s -> %s) ", w, ytext[from], ytext[Y_SRR]);
    else { int h = hid(o); putf(o, "((fun (h%d : %s) -> (%s h%d : %s)) ", h, ytext[from], w, h, ytext[Y_SRR]); }
    rk(o, n, 0); put(o, ")");
    return;
  }
  case S_PROJFUN: {
    if (!core) {
      if (n->iv[1]) putf(o, "(let v%d : real * real -> real = %s in v%d ", n->iv[0], n->name, n->iv[0]);
      else putf(o, "((%s : real * real -> real) ", n->name);
    } else {
      int h = hid(o);
      if (n->iv[1]) putf(o, "(let v%d = fun (h%d : real * real) -> %s h%d in v%d ", n->iv[0], h, n->name, h, n->iv[0]);
      else putf(o, "((fun (h%d : real * real) -> %s h%d) ", h, n->name, h);
    }
    rk(o, n, 0); put(o, ")");
    return;
  }
  case S_CONV: /* the conversion itself is a primitive: the same text; it is
                  here for coverage counts */
    putf(o, "toreal (%s ", n->name); rk(o, n, 0); put(o, ")"); return;
  case S_MAPW: {
    int el = yelem(n->k[0]->y);
    if (!core) {
      if (!strcmp(n->name, "hypot")) { put(o, "map (hypot "); rk(o, n, 1); put(o, ") "); }
      else if (!strcmp(n->name, "concat")) { put(o, "map (concat "); rk(o, n, 1); put(o, ") "); }
      else if (!strcmp(n->name, "length")) put(o, "map toreal (map length ");
      else putf(o, "map %s ", n->name);
      rk(o, n, 0);
      if (!strcmp(n->name, "length")) put(o, ")");
      return;
    }
    int h = hid(o);
    char hv[32];
    snprintf(hv, sizeof hv, "h%d", h);
    if (!strcmp(n->name, "length")) {
      int t = hid(o);
      putf(o, "map (fun (h%d : int) -> toreal h%d) (map (fun (%s : [real]) -> length %s) ", t, t, hv, hv);
      rk(o, n, 0);
      put(o, ")");
      return;
    }
    putf(o, "map (fun (%s : %s) -> ", hv, ytext[el]);
    if (!strcmp(n->name, "hypot")) { put(o, "hypot "); rk(o, n, 1); putf(o, " %s", hv); }
    else if (!strcmp(n->name, "concat")) { char *b = kid_text(o, n, 1); core_concat(o, b, hv); free(b); }
    else if (!strcmp(n->name, "reverse")) core_reverse(o, hv);
    else putf(o, "%s %s", n->name, hv);
    put(o, ") "); rk(o, n, 0);
    return;
  }
  case S_CONCAT: case S_ZIP: {
    const char *w = n->kind == S_CONCAT ? "concat" : "zip";
    int from = n->kind == S_CONCAT ? n->y : Y_AR;
    if (!core) {
      if (n->iv[2]) { putf(o, "(let v%d : %s -> %s = %s ", n->iv[3], ytext[from], ytext[n->y], w); rk(o, n, 0);
        putf(o, " in v%d ", n->iv[3]); rk(o, n, 1); put(o, ")"); }
      else { putf(o, "%s ", w); rk(o, n, 0); put(o, " "); rk(o, n, 1); }
      return;
    }
    char *a = kid_text(o, n, 0);
    if (n->iv[2]) {
      char hv[32];
      snprintf(hv, sizeof hv, "h%d", hid(o));
      putf(o, "(let v%d = fun (%s : %s) -> ", n->iv[3], hv, ytext[from]);
      (n->kind == S_CONCAT ? core_concat : core_zip)(o, a, hv);
      putf(o, " in v%d ", n->iv[3]); rk(o, n, 1); put(o, ")");
    } else {
      char *b = kid_text(o, n, 1);
      (n->kind == S_CONCAT ? core_concat : core_zip)(o, a, b);
      free(b);
    }
    free(a);
    return;
  }
  case S_SLICE: {
    if (!core) {
      if (n->iv[2]) { putf(o, "(let v%d : int -> %s = slice ", n->iv[3], ytext[n->y]); rk(o, n, 0);
        putf(o, " %d in v%d %d)", n->iv[0], n->iv[3], n->iv[1]); }
      else { put(o, "slice "); rk(o, n, 0); putf(o, " %d %d", n->iv[0], n->iv[1]); }
      return;
    }
    int x = hid(o), i = hid(o);
    if (n->iv[2]) {
      int l = hid(o);
      putf(o, "(let v%d = fun (h%d : int) -> (let h%d = ", n->iv[3], l, x); render(o, n->k[0]);
      putf(o, " in build h%d (fun (h%d : int) -> h%d[%d + h%d])) in v%d %d)", l, i, x, n->iv[0], i, n->iv[3], n->iv[1]);
      return;
    }
    putf(o, "(let h%d = ", x); render(o, n->k[0]);
    putf(o, " in build %d (fun (h%d : int) -> h%d[%d + h%d]))", n->iv[1], i, x, n->iv[0], i);
    return;
  }
  case S_REVERSE: {
    if (!core) {
      if (n->iv[2]) putf(o, "((reverse : %s -> %s) ", ytext[n->y], ytext[n->y]);
      else put(o, "(reverse ");
      rk(o, n, 0); put(o, ")");
      return;
    }
    if (n->iv[2]) {
      int h = hid(o);
      char hv[32];
      snprintf(hv, sizeof hv, "h%d", h);
      putf(o, "((fun (%s : %s) -> ", hv, ytext[n->y]); core_reverse(o, hv); put(o, ") "); rk(o, n, 0); put(o, ")");
      return;
    }
    char *a = kid_text(o, n, 0);
    core_reverse(o, a);
    free(a);
    return;
  }
  case S_UPDATE: {
    int el = yelem(n->y);
    if (!core) {
      if (n->iv[2]) { putf(o, "(let v%d : %s -> %s = update ", n->iv[3], ytext[el], ytext[n->y]); rk(o, n, 0);
        putf(o, " %d in v%d ", n->iv[0], n->iv[3]); rk(o, n, 1); put(o, ")"); }
      else { put(o, "update "); rk(o, n, 0); putf(o, " %d ", n->iv[0]); rk(o, n, 1); }
      return;
    }
    char *a = kid_text(o, n, 0);
    if (n->iv[2]) {
      int h = hid(o);
      char hv[32];
      snprintf(hv, sizeof hv, "h%d", h);
      putf(o, "(let v%d = fun (%s : %s) -> ", n->iv[3], hv, ytext[el]);
      core_update(o, a, n->iv[0], hv);
      putf(o, " in v%d ", n->iv[3]); rk(o, n, 1); put(o, ")");
    } else {
      char *v = kid_text(o, n, 1);
      core_update(o, a, n->iv[0], v);
      free(v);
    }
    free(a);
    return;
  }
  case S_UNZIP: {
    if (!core) {
      put(o, n->iv[2] ? "((unzip : [real * real] -> [real] * [real]) " : "(unzip "); rk(o, n, 0); put(o, ")");
      return;
    }
    int x = hid(o), q = hid(o), r = hid(o);
    if (n->iv[2]) putf(o, "((fun (h%d : [real * real]) -> ", x);
    else { putf(o, "(let h%d = ", x); render(o, n->k[0]); put(o, " in "); }
    putf(o, "(map (fun (h%d : real * real) -> fst h%d) h%d, map (fun (h%d : real * real) -> snd h%d) h%d))",
         q, q, x, r, r, x);
    if (n->iv[2]) { put(o, " "); rk(o, n, 0); put(o, ")"); }
    return;
  }
  case S_RANGE: {
    if (!core) {
      if (n->iv[2]) putf(o, "map toreal ((range : int -> [int]) %d)", n->iv[0]);
      else putf(o, "map toreal (range %d)", n->iv[0]);
      return;
    }
    int y = hid(o), x = hid(o), i = hid(o);
    putf(o, "map (fun (h%d : int) -> toreal h%d) ", y, y);
    if (n->iv[2]) putf(o, "((fun (h%d : int) -> build h%d (fun (h%d : int) -> h%d)) %d)", x, x, i, i, n->iv[0]);
    else putf(o, "(let h%d = %d in build h%d (fun (h%d : int) -> h%d))", x, n->iv[0], x, i, i);
    return;
  }
  case S_FOLD: {
    /* kids: init, [count array], body */
    const sx *body = n->k[n->nk - 1];
    int has_arr = n->nk == 3;
    sb cb = {0};   /* the count: a literal or (length a) */
    if (has_arr) { char *arr = kid_text(o, n, 1); put(&cb, "(length "); put(&cb, arr); put(&cb, ")"); free(arr); }
    else putf(&cb, "%d", n->iv[2]);
    const char *cnt = cb.b;
    int pos = 0;
    if (!core) {
      if (n->iv[1]) putf(o, "(let v%d : %s -> %s = fold %s (fun v%d ", n->iv[3], ytext[n->y], ytext[n->y], cnt, n->iv[0]);
      else putf(o, "(fold %s (fun v%d ", cnt, n->iv[0]);
      put_pat(o, n, &pos, n->paty, 0);
      put(o, " -> "); render(o, body); put(o, ")");
      if (n->iv[1]) putf(o, " in v%d ", n->iv[3]); else put(o, " ");
      rk(o, n, 0); put(o, ")");
      free(cb.b);
      return;
    }
    char z[32];
    int hz = -1;
    if (n->iv[1]) {
      hz = hid(o);
      snprintf(z, sizeof z, "h%d", hz);
      putf(o, "(let v%d = fun (%s : %s) -> ", n->iv[3], z, ytext[n->y]);
    }
    int q = hid(o), a = hid(o);
    char hq[32], ha[32];
    snprintf(hq, sizeof hq, "h%d", q);
    snprintf(ha, sizeof ha, "h%d", a);
    putf(o, "snd (iter %s (fun (%s : int * (%s)) -> let v%d = fst %s in let %s = snd %s in (v%d + 1, ",
         cnt, hq, ytext[n->y], n->iv[0], hq, ha, hq, n->iv[0]);
    put_destructure(o, ha, n, &pos, n->paty);
    render(o, body);
    put(o, ")) (0, ");
    if (n->iv[1]) putf(o, "%s))", z);
    else { render(o, n->k[0]); put(o, "))"); }
    if (n->iv[1]) { putf(o, " in v%d ", n->iv[3]); rk(o, n, 0); put(o, ")"); }
    free(cb.b);
    return;
  }
  case S_WHILE: {
    /* kids: the start x0, the step's term t (in x); the state goes on while
     * x < x0 + k, each round x + 1.0 + t * t; fuel k + 1 */
    int k = n->iv[1], x = n->iv[0], a = hid(o), t = hid(o);
    putf(o, "(let h%d = ", a); render(o, n->k[0]); put(o, " in ");
    if (core) {
      putf(o, "loop %d (fun (v%d : real) -> if v%d < h%d + %d.0 then (inl (let h%d = ", k + 1, x, x, a, k, t);
      render(o, n->k[1]);
      putf(o, " in v%d + 1.0 + h%d * h%d) : real + real) else (inr v%d : real + real)) h%d)", x, t, t, x, a);
      return;
    }
    char cond[160];
    snprintf(cond, sizeof cond, "fun (v%d : real) -> v%d < h%d + %d.0", x, x, a, k);
    if (n->iv[2]) {
      int c = hid(o), st = hid(o);
      putf(o, "let h%d = %s in let h%d = fun (v%d : real) -> let h%d = ", c, cond, st, x, t);
      render(o, n->k[1]);
      putf(o, " in v%d + 1.0 + h%d * h%d in while h%d h%d h%d %d)", x, t, t, c, st, a, k + 1);
      return;
    }
    putf(o, "while (%s) (fun (v%d : real) -> let h%d = ", cond, x, t);
    render(o, n->k[1]);
    putf(o, " in v%d + 1.0 + h%d * h%d) h%d %d)", x, t, t, a, k + 1);
    return;
  }
  default: put(o, "?"); return;
  }
}

/* ---- binders named like words --------------------------------------------
 * Library words, target-language words and primitive names are not
 * keywords: a binder may take such a name, and then the name means the
 * binder in its scope (spec/surface.md §1). Some binders are renamed so:
 * each word at most once per program (so no binder shadows another), and
 * only where the binding node's subtree (which holds the binder's scope)
 * does not use the word itself, in either form. */
static const char *const word_names[] = {
  "concat", "slice", "reverse", "update", "zip", "unzip", "range", "fold", "lfun", "single",
  "onehot", "lsum", "with", "zero", "D", "DT", "sin", "hypot", "floor", "dot", "toreal", "erf", "softplus",
  "while"};
#define NWORDS ((int)(sizeof word_names / sizeof word_names[0]))

static int uses_word(const sx *n, const char *w) {
  static const struct { int kind; const char *w; } fixed[] = {
    {S_CONCAT, "concat"}, {S_SLICE, "slice"}, {S_REVERSE, "reverse"}, {S_UPDATE, "update"}, {S_ZIP, "zip"},
    {S_UNZIP, "unzip"}, {S_RANGE, "range"}, {S_RANGE, "toreal"}, {S_FOLD, "fold"}, {N_DOT, "dot"},
    {N_INDEXF, "floor"}, {N_LENR, "toreal"}, {N_TOREALV, "toreal"}, {S_CONV, "toreal"}, {S_MAPW, "toreal"},
    {S_MAPW, "hypot"}, {S_WHILE, "while"}};
  if (n->name && !strcmp(n->name, w)) return 1;
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    if (fixed[i].kind == n->kind && !strcmp(fixed[i].w, w)) return 1;
  for (int i = 0; i < n->nk; i++)
    if (uses_word(n->k[i], w)) return 1;
  return 0;
}

/* Binders of n that the text names (intro, plus let-bound functions). */
static int named_binders(const sx *n, int *out) {
  int c = intro(n, out);
  if ((n->kind == S_FUNPAT && n->iv[1] == 2) || (n->kind == S_PROJFUN && n->iv[1])) out[c++] = n->iv[0];
  if ((n->kind == S_UPDATE || n->kind == S_CONCAT || n->kind == S_ZIP || n->kind == S_SLICE || n->kind == S_FOLD ||
       n->kind == S_FUN2) &&
      n->iv[3] >= 0 && (n->kind == S_FOLD || n->kind == S_FUN2 ? n->iv[1] : n->iv[2]))
    out[c++] = n->iv[3];
  return c;
}

typedef struct { int id; int word; } renaming;
static void choose_names(const sx *n, prng *r, int *taken, renaming *out, int *nout) {
  int b[20], nb = named_binders(n, b);
  for (int i = 0; i < nb && *nout < NWORDS; i++) {
    if (!prng_chance(r, 1, 4)) continue;
    int w = prng_below(r, NWORDS);
    if (taken[w] || uses_word(n, word_names[w])) continue;
    taken[w] = 1;
    out[(*nout)++] = (renaming){b[i], w};
  }
  for (int i = 0; i < n->nk; i++) choose_names(n->k[i], r, taken, out, nout);
}

/* Replaces the tokens v<id> of the renamed binders. */
static char *apply_names(char *text, const renaming *rn, int nr) {
  if (!nr) return text;
  sb o = {0};
  put(&o, "");
  for (const char *c = text; *c;) {
    int ident_before = c > text && (isalnum((unsigned char)c[-1]) || c[-1] == '_' || c[-1] == '\'');
    if (*c == 'v' && !ident_before && isdigit((unsigned char)c[1])) {
      char *end;
      long id = strtol(c + 1, &end, 10);
      if (!isalnum((unsigned char)*end) && *end != '_' && *end != '\'') {
        const char *w = NULL;
        for (int i = 0; i < nr; i++)
          if (rn[i].id == id) w = word_names[rn[i].word];
        if (w) { put(&o, w); c = end; continue; }
      }
    }
    char one[2] = {*c++, 0};
    put(&o, one);
  }
  free(text);
  return o.b;
}

char *sg_render(const sg_program *p, int mode, const char *name) {
  prng nr = {p->nameseed};
  int taken[NWORDS] = {0}, nrn = 0;
  renaming rn[NWORDS];
  if (p->nameseed) {
    /* the parameters' scope is the whole body */
    for (int i = 0; i < p->nparams && nrn < NWORDS; i++) {
      int w = prng_below(&nr, NWORDS);
      if (prng_chance(&nr, 1, 4) && !taken[w] && !uses_word(p->body, word_names[w])) {
        taken[w] = 1;
        rn[nrn++] = (renaming){i, w};
      }
    }
    choose_names(p->body, &nr, taken, rn, &nrn);
  }
  return apply_names(render_def(p, mode, name), rn, nrn);
}

static char *render_def(const sg_program *p, int mode, const char *name) {
  sb o = {0};
  o.mode = mode;
  putf(&o, "def %s (", name);
  for (int i = 0; i < p->nparams; i++) putf(&o, "%sv%d : %s", i ? ", " : "", i, ytext[p->param_y[i]]);
  putf(&o, ") : %s =\n  ", ytext[p->result_y]);
  render(&o, p->body);
  put(&o, "\n");
  return o.b;
}

/* ---- coverage ------------------------------------------------------------ */
static void cover(const sx *n, long *counts) {
  if (n->kind >= S_TUP3) counts[n->kind - S_TUP3]++;
  for (int i = 0; i < n->nk; i++) cover(n->k[i], counts);
}
void sg_cover(const sg_program *p, long *counts) { cover(p->body, counts); }

/* ---- shrinking ----------------------------------------------------------- */
/* Binders a node introduces (over any of its children). */
static int intro(const sx *n, int *out) {
  int c = 0;
  switch (n->kind) {
  case N_POS: case N_MAPLAM: case N_BUILD: case N_LET: out[c++] = n->iv[0]; break;
  case S_CASEPAT: if (n->iv[0] >= 0) out[c++] = n->iv[0]; break;
  case S_FOLD: case S_FUN2: case S_WHILE: out[c++] = n->iv[0]; break;
  default: break;
  }
  for (int i = 0; i < n->npat; i++)
    if (n->pat[i] >= 0) out[c++] = n->pat[i];
  return c;
}
static int has(const int *set, int n, int x) {
  for (int i = 0; i < n; i++)
    if (set[i] == x) return 1;
  return 0;
}
#define SET_MAX 512
/* Every variable of t is in allowed or bound inside t. */
static int closed_in(const sx *t, const int *allowed, int na, int *inside, int ni) {
  int b[16];
  int nb = intro(t, b);
  for (int i = 0; i < nb && ni < SET_MAX; i++) inside[ni++] = b[i];
  if ((t->kind == N_VAR || t->kind == N_INDEXV || t->kind == N_TOREALV) &&
      !has(allowed, na, t->iv[0]) && !has(inside, ni, t->iv[0]))
    return 0;
  for (int i = 0; i < t->nk; i++)
    if (!closed_in(t->k[i], allowed, na, inside, ni)) return 0;
  return 1;
}

/* The slot of the pos-th node in preorder and the binders of its strict
 * ancestors (and the parameters) in allowed. */
static sx **nth(sx **slot, int *pos, int *allowed, int *na) {
  if ((*pos)-- == 0) return slot;
  sx *n = *slot;
  int save = *na, b[16], nb = intro(n, b);
  for (int i = 0; i < nb && *na < SET_MAX; i++) allowed[(*na)++] = b[i];
  for (int i = 0; i < n->nk; i++) {
    sx **r = nth(&n->k[i], pos, allowed, na);
    if (r) return r;
  }
  *na = save;
  return NULL;
}

/* A leaf of n's type and length made of the given binders or constants. */
static sx *shrink_leaf(const sg_program *p, const sx *n, int variant) {
  if (variant == 0 && n->y == Y_R) return rc(0.0);
  if (variant == 1 && n->y == Y_R) return rc(1.0);
  /* a parameter of the same type and length */
  int seen = 0;
  for (int i = 0; i < p->nparams; i++) {
    int y = p->param_y[i];
    int len = is_arr(y) ? p->len : -1, len2 = y == Y_AAR ? p->len : -1;
    if (y == n->y && (!is_arr(y) || (len == n->len && (y != Y_AAR || len2 == n->len2))) && seen++ == variant - 2) {
      sx *v = nn(N_VAR, y);
      v->iv[0] = i;
      v->len = len;
      v->len2 = len2;
      return v;
    }
  }
  if (variant == 6 && n->y != Y_R) {  /* constants: build n (fun i -> c), (c, c), ... */
    prng r = {(uint64_t)variant};
    gs s = {0};
    s.r = &r;
    s.next_id = p->nbinders + 1000;
    return leaf(&s, n->y, n->len, n->len2);
  }
  return NULL;
}

void sg_shrink(sg_program *p, int (*fails)(void *cx, const sg_program *cand), void *cx, int budget) {
  static int allowed[SET_MAX], inside[SET_MAX];
  for (int improved = 1; improved && budget > 0;) {
    improved = 0;
    int size = node_size(p->body);
    for (int pos = 0; pos < size && !improved && budget > 0; pos++) {
      int k = pos, na = 0;
      for (int i = 0; i < p->nparams; i++) allowed[na++] = i;
      sx **slot = nth(&p->body, &k, allowed, &na);
      if (!slot) break;
      sx *node = *slot;
      int nsize = node_size(node);
      sx *cand[12];
      int nc = 0;
      /* children and grandchildren of the same type and length */
      for (int i = 0; i < node->nk && nc < 10; i++)
        for (int j = -1; j < node->k[i]->nk && nc < 10; j++) {
          sx *c = j < 0 ? node->k[i] : node->k[i]->k[j];
          if (c->y == node->y && (!is_arr(c->y) || (c->len == node->len && c->len2 == node->len2)) &&
              closed_in(c, allowed, na, inside, 0))
            cand[nc++] = node_copy(c);
        }
      for (int v = 0; v < 7 && nc < 12; v++) {
        sx *l = shrink_leaf(p, node, v);
        if (l) cand[nc++] = l;
      }
      for (int i = 0; i < nc; i++) {
        if (!improved && node_size(cand[i]) < nsize && budget-- > 0) {
          sx *old = *slot;
          *slot = cand[i];
          if (fails(cx, p)) {
            node_free(old);
            cand[i] = NULL;
            improved = 1;
          } else {
            *slot = old;
          }
        }
        node_free(cand[i]);
      }
    }
  }
}
