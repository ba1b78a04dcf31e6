/* Type preservation, checked independently of the kernel's checker: the type
 * translations P, T, C of the rules card (§3) written again here, and a walk
 * over every node of a term that recomputes the node's type and its
 * children's contexts from the children's stored types by this file's own
 * typing rules (rules card §1-2). Only ty_make-style constructors and
 * accessors of the kernel are used, never its node checker. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "pt.h"

/* ---- own primitive signatures (primitives.h comments) ----------------- */
static void own_sig(int op, int *dom, int *cod) {
  int R = TY_ID_REAL, I = TY_ID_INT, U = TY_ID_UNIT;
  int RR = ty_prod(R, R), II = ty_prod(I, I), B = ty_sum(U, U);
  int AR = ty_arr(R), AAR = ty_arr(AR);
  *dom = -1; *cod = -1;
  switch (op) {
  case P_NEG: case P_SIN: case P_COS: case P_TAN: case P_EXP: case P_LOG:
  case P_SQRT: case P_TANH: case P_SIGMOID: case P_ABS:
  case P_LOG1P: case P_EXPM1: case P_SOFTPLUS: case P_ATAN: case P_ERF: case P_ERFC:
  case P_LGAMMA: case P_SINH: case P_COSH: case P_ASINH: case P_ACOSH: case P_ATANH:
  case P_EXP2: case P_LOG2: *dom = R; *cod = R; break;
  case P_ADD: case P_SUB: case P_MUL: case P_DIV: case P_POW: case P_MAX:
  case P_MIN: case P_ATAN2: case P_HYPOT: *dom = RR; *cod = R; break;
  case P_LT: case P_LE: case P_EQ: *dom = RR; *cod = B; break;
  case P_INEG: *dom = I; *cod = I; break;
  case P_IADD: case P_ISUB: case P_IMUL: case P_IDIV: case P_IMOD: *dom = II; *cod = I; break;
  case P_ILT: case P_ILE: case P_IEQ: *dom = II; *cod = B; break;
  case P_TOREAL: *dom = I; *cod = R; break;
  case P_FLOOR: case P_CEIL: case P_ROUND: case P_TRUNC: case P_SIGN: *dom = R; *cod = I; break;
  case P_VADD: case P_VMUL: *dom = ty_prod(AR, AR); *cod = AR; break;
  case P_VSCALE: *dom = ty_prod(R, AR); *cod = AR; break;
  case P_DOT: *dom = ty_prod(AR, AR); *cod = R; break;
  case P_MATVEC: *dom = ty_prod(AAR, AR); *cod = AR; break;
  case P_LOGSUMEXP: *dom = AR; *cod = R; break;
  default: break;
  }
}

/* ---- P, T, C (rules card §3) ----------------------------------------- */
int pt_P(int ty, int rev) {
  switch (ty_kind(ty)) {
  case TY_REAL: case TY_INT: case TY_UNIT: return ty;
  case TY_PROD: return ty_prod(pt_P(ty_left(ty), rev), pt_P(ty_right(ty), rev));
  case TY_SUM: return ty_sum(pt_P(ty_left(ty), rev), pt_P(ty_right(ty), rev));
  case TY_ARR: return ty_arr(pt_P(ty_left(ty), rev));
  case TY_FUN: {
    int a = ty_left(ty), b = ty_right(ty);
    int lin = rev ? ty_lfun(pt_TC(b, 1), pt_TC(a, 1)) : ty_lfun(pt_TC(a, 0), pt_TC(b, 0));
    return ty_fun(pt_P(a, rev), ty_prod(pt_P(b, rev), lin));
  }
  default: return -1;
  }
}

int pt_TC(int ty, int rev) {
  switch (ty_kind(ty)) {
  case TY_REAL: return TY_ID_REAL;
  case TY_INT: case TY_UNIT: return TY_ID_UNIT;
  case TY_PROD: case TY_SUM: return ty_prod(pt_TC(ty_left(ty), rev), pt_TC(ty_right(ty), rev));
  case TY_ARR: return ty_arr(pt_TC(ty_left(ty), rev));
  case TY_FUN:
    if (rev) return ty_copow(pt_P(ty_left(ty), 1), pt_TC(ty_right(ty), 1));
    return ty_fun(pt_P(ty_left(ty), 0), pt_TC(ty_right(ty), 0));
  default: return -1;
  }
}

int pt_P_ctx(int g, int rev) {
  if (ctx_length(g) == 0) return CTX_EMPTY;
  return ctx_extend(pt_P_ctx(ctx_parent(g), rev), pt_P(ctx_last(g), rev));
}

int pt_TC_ctx(int g, int rev) {
  if (ctx_length(g) == 0) return TY_ID_UNIT;
  return ty_prod(pt_TC_ctx(ctx_parent(g), rev), pt_TC(ctx_last(g), rev));
}

/* Linear types (rules card §2), plus L -o L' (the zero map and pointwise
 * plus make it a commutative monoid too; the kernel and evaluator allow it
 * and the simplifier produces zero at such types). */
static int own_linear(int ty) {
  switch (ty_kind(ty)) {
  case TY_REAL: case TY_UNIT: return 1;
  case TY_PROD: return own_linear(ty_left(ty)) && own_linear(ty_right(ty));
  case TY_ARR: return own_linear(ty_left(ty));
  case TY_FUN: case TY_COPOW: case TY_LFUN: return own_linear(ty_right(ty));
  default: return 0;
  }
}

/* own lookup: walk the snoc list */
static int own_lookup(int g, int64_t k) {
  while (k > 0 && g >= 0 && ctx_length(g) > 0) { g = ctx_parent(g); k--; }
  if (g < 0 || ctx_length(g) == 0) return -1;
  return ctx_last(g);
}

/* is h the context (g, ty)? */
static int extends(int h, int g, int ty) {
  return ctx_length(h) > 0 && ctx_parent(h) == g && ctx_last(h) == ty;
}

static int *seen;
static int seen_cap, stamp;

static int mark(int t) {
  if (!seen || seen_cap < tm_count) {
    free(seen);
    seen_cap = CHAD_MAX_TERMS;
    seen = calloc((size_t)seen_cap, sizeof *seen);
    if (!seen) { fprintf(stderr, "proptest: out of memory\n"); exit(4); }
    stamp = 0;
  }
  if (seen[t] == stamp) return 0;
  seen[t] = stamp;
  return 1;
}

static char *emsg;
static size_t emsg_n;
static int bad(int t, const char *fmt, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  snprintf(emsg, emsg_n, "node %d (kind %d): %s", t, tm_kind(t), buf);
  return -1;
}

static int check_node(int t) {
  int g = tm_ctx(t), ty = tm_type(t), k = tm_kind(t);
  int a = tm_a(t), b = tm_b(t), c = tm_c(t);
  int ta = a >= 0 ? tm_type(a) : -1, tb = b >= 0 ? tm_type(b) : -1, tc = c >= 0 ? tm_type(c) : -1;
  for (int i = 0; i < 3; i++) {
    int ch = i == 0 ? a : i == 1 ? b : c;
    if (ch >= t) return bad(t, "child %d not at a smaller index", ch);
  }
  /* children not under a binder live in g */
#define SAME(x) do { if ((x) >= 0 && tm_ctx(x) != g) return bad(t, "child context differs"); } while (0)
  switch (k) {
  case TM_VAR: return own_lookup(g, tm_aux(t)) == ty ? 0 : bad(t, "var type");
  case TM_LET: SAME(a);
    if (!extends(tm_ctx(b), g, ta)) return bad(t, "let body context");
    return tb == ty ? 0 : bad(t, "let type");
  case TM_LAM:
    if (ctx_length(tm_ctx(a)) == 0 || ctx_parent(tm_ctx(a)) != g) return bad(t, "lam body context");
    return (ty_kind(ty) == TY_FUN && ty_left(ty) == ctx_last(tm_ctx(a)) && ty_right(ty) == ta) ? 0 : bad(t, "lam type");
  case TM_APP: SAME(a); SAME(b);
    return (ty_kind(ta) == TY_FUN && ty_left(ta) == tb && ty_right(ta) == ty) ? 0 : bad(t, "app type");
  case TM_UNIT: return ty == TY_ID_UNIT ? 0 : bad(t, "unit type");
  case TM_PAIR: SAME(a); SAME(b);
    return (ty_kind(ty) == TY_PROD && ty_left(ty) == ta && ty_right(ty) == tb) ? 0 : bad(t, "pair type");
  case TM_FST: SAME(a); return (ty_kind(ta) == TY_PROD && ty_left(ta) == ty) ? 0 : bad(t, "fst type");
  case TM_SND: SAME(a); return (ty_kind(ta) == TY_PROD && ty_right(ta) == ty) ? 0 : bad(t, "snd type");
  case TM_INL: SAME(a); return (ty_kind(ty) == TY_SUM && ty_left(ty) == ta) ? 0 : bad(t, "inl type");
  case TM_INR: SAME(a); return (ty_kind(ty) == TY_SUM && ty_right(ty) == ta) ? 0 : bad(t, "inr type");
  case TM_CASE: SAME(a);
    if (ty_kind(ta) != TY_SUM) return bad(t, "case scrutinee not a sum");
    if (!extends(tm_ctx(b), g, ty_left(ta)) || !extends(tm_ctx(c), g, ty_right(ta))) return bad(t, "case branch context");
    return (tb == ty && tc == ty) ? 0 : bad(t, "case type");
  case TM_RCONST: return ty == TY_ID_REAL ? 0 : bad(t, "rconst type");
  case TM_ICONST: return ty == TY_ID_INT ? 0 : bad(t, "iconst type");
  case TM_OP: {
    SAME(a);
    int dom, cod;
    own_sig((int)tm_aux(t), &dom, &cod);
    if (dom < 0) return bad(t, "unknown op %lld", (long long)tm_aux(t));
    return (ta == dom && ty == cod) ? 0 : bad(t, "op %s signature", prim_name((int)tm_aux(t)));
  }
  case TM_ITER: SAME(a); SAME(c);
    if (ta != TY_ID_INT || !extends(tm_ctx(b), g, ty)) return bad(t, "iter count/body context");
    return (tb == ty && tc == ty) ? 0 : bad(t, "iter type");
  case TM_LOOP: SAME(a); SAME(c);
    if (ta != TY_ID_INT || !extends(tm_ctx(b), g, ty)) return bad(t, "loop fuel/body context");
    return (ty_kind(tb) == TY_SUM && ty_left(tb) == ty && ty_right(tb) == ty && tc == ty) ? 0 : bad(t, "loop type");
  case TM_BUILD: SAME(a);
    if (ta != TY_ID_INT || !extends(tm_ctx(b), g, TY_ID_INT)) return bad(t, "build size/body context");
    return (ty_kind(ty) == TY_ARR && ty_left(ty) == tb) ? 0 : bad(t, "build type");
  case TM_INDEX: SAME(a); SAME(b);
    return (ty_kind(ta) == TY_ARR && ty_left(ta) == ty && tb == TY_ID_INT) ? 0 : bad(t, "index type");
  case TM_LENGTH: SAME(a); return (ty_kind(ta) == TY_ARR && ty == TY_ID_INT) ? 0 : bad(t, "length type");
  case TM_MAP: SAME(b);
    if (ty_kind(tb) != TY_ARR || !extends(tm_ctx(a), g, ty_left(tb))) return bad(t, "map body context");
    return (ty_kind(ty) == TY_ARR && ty_left(ty) == ta) ? 0 : bad(t, "map type");
  case TM_SUM: SAME(a); return (ta == ty_arr(TY_ID_REAL) && ty == TY_ID_REAL) ? 0 : bad(t, "sum type");
  case TM_ZERO: return own_linear(ty) ? 0 : bad(t, "zero of a non-linear type");
  case TM_PLUS: SAME(a); SAME(b);
    return (own_linear(ty) && ta == ty && tb == ty) ? 0 : bad(t, "plus type");
  case TM_LLAM:
    if (ctx_length(tm_ctx(a)) == 0 || ctx_parent(tm_ctx(a)) != g) return bad(t, "llam body context");
    return (ty_kind(ty) == TY_LFUN && ty_left(ty) == ctx_last(tm_ctx(a)) && ty_right(ty) == ta &&
            own_linear(ty_left(ty)) && own_linear(ta)) ? 0 : bad(t, "llam type");
  case TM_LAPP: SAME(a); SAME(b);
    return (ty_kind(ta) == TY_LFUN && ty_left(ta) == tb && ty_right(ta) == ty) ? 0 : bad(t, "lapp type");
  case TM_CP_SINGLE: SAME(a); SAME(b);
    return (ty_kind(ty) == TY_COPOW && ty_left(ty) == ta && ty_right(ty) == tb && own_linear(tb)) ? 0 : bad(t, "cp_single type");
  case TM_CP_FOLD: {
    SAME(a);
    if (ty_kind(ta) != TY_COPOW) return bad(t, "cp_fold of a non-copower");
    int h = tm_ctx(b);
    if (ctx_length(h) < 2 || ctx_last(h) != ty_right(ta) || !extends(ctx_parent(h), g, ty_left(ta)))
      return bad(t, "cp_fold body context");
    return (tb == ty && own_linear(ty)) ? 0 : bad(t, "cp_fold type");
  }
  case TM_LSUM: SAME(a);
    if (ta != TY_ID_INT || !extends(tm_ctx(b), g, TY_ID_INT)) return bad(t, "lsum size/body context");
    return (tb == ty && own_linear(ty)) ? 0 : bad(t, "lsum type");
  case TM_LOP_D: case TM_LOP_DT: {
    SAME(a); SAME(b);
    int dom, cod;
    own_sig((int)tm_aux(t), &dom, &cod);
    if (dom < 0) return bad(t, "unknown op");
    int tdom = pt_TC(dom, 0), tcod = pt_TC(cod, 0);
    if (k == TM_LOP_D) return (ta == dom && tb == tdom && ty == tcod) ? 0 : bad(t, "Dop %s types", prim_name((int)tm_aux(t)));
    return (ta == dom && tb == tcod && ty == tdom) ? 0 : bad(t, "DopT %s types", prim_name((int)tm_aux(t)));
  }
  case TM_ONEHOT: SAME(a); SAME(b);
    return (ta == TY_ID_INT && ty_kind(ty) == TY_ARR && ty_left(ty) == tb && own_linear(tb)) ? 0 : bad(t, "onehot type");
  default: return bad(t, "unknown kind");
  }
#undef SAME
}

static int walk(int t) {
  if (t < 0 || t >= tm_count) return bad(t < 0 ? 0 : t, "dangling child %d", t);
  if (!mark(t)) return 0;
  int ks[3] = {tm_a(t), tm_b(t), tm_c(t)};
  for (int i = 0; i < 3; i++)
    if (ks[i] >= 0 && walk(ks[i]) < 0) return -1;
  return check_node(t);
}

int pt_retype(int t, char *msg, size_t n) {
  emsg = msg; emsg_n = n;
  msg[0] = 0;
  mark(0);
  stamp++;
  return walk(t);
}

/* Tree size (a shared node counted once per use) and the input measure of
 * spec/chad.md: node count where `var k` weighs k + 1 (the rules' proj_k
 * and onehot_k are k projections / pairs deep). */
static int64_t tree_size(int t, int weighted) {
  int64_t n = (weighted && tm_kind(t) == TM_VAR) ? tm_aux(t) + 1 : 1;
  int ks[3] = {tm_a(t), tm_b(t), tm_c(t)};
  for (int i = 0; i < 3; i++)
    if (ks[i] >= 0) n += tree_size(ks[i], weighted);
  return n;
}
int64_t pt_tree_size(int t) { return tree_size(t, 0); }
int64_t pt_weighted_size(int t) { return tree_size(t, 1); }
