/* Syntactic linearity check (rules card §2: "a separate check that every
 * llam body is linear in its variable is a welcome extra").
 *
 * lin(e): e denotes a function jointly linear in the variables of a set S
 * (marked by level), every other variable being a constant.
 * occ(e): some variable of S occurs in e.
 * The rules follow the target language's linear fragment: variables, zero,
 * plus, pairs, projections, linear application with a constant function or a
 * constant argument, power application to a constant, Dop/DopT with a
 * constant primal, lets (constant bound term, or linear bound term used
 * linearly and the variable itself not used again), case on a constant,
 * index by a constant, build/lsum/onehot/cp_single with constant index or
 * length, map/cp_fold over a linear array/bag with a body linear in the
 * element, sum, linear and ordinary lambdas whose body is linear. */
#include "chad/chad.h"
#include "chad/kernel.h"
#include "chad_internal.h"

#define LIN_DEPTH 6000

/* S, the set of linear variables, by target level: lin_mark_[l] == 1 when
 * the variable at level l is in S. Levels of binders inside the term are set
 * explicitly before each descent, so stale marks never matter. */
static unsigned char lin_mark_[CHAD_MAX_CTXS + 1];

static int level_of_var(int e)
{
  return ctx_length(tm_ctx(e)) - 1 - (int)tm_aux(e);
}

/* level of the first binder a child of e adds (the length of e's context) */
static int binder_level(int e) { return ctx_length(tm_ctx(e)); }

static int set_mark(int lvl, int on)
{
  if (lvl < 0 || lvl > CHAD_MAX_CTXS)
    return 0;
  lin_mark_[lvl] = (unsigned char)on;
  return 1;
}

/* some variable of S occurs in e */
/*@ requires depth >= 0;
    decreases LIN_DEPTH + 1 - depth; */
static int occ(int e, int depth)
{
  if (depth > LIN_DEPTH)
    return 1;                           /* conservative: "occurs" */
  int kind = tm_kind(e);
  if (kind == TM_VAR) {
    int l = level_of_var(e);
    return l >= 0 && l <= CHAD_MAX_CTXS && lin_mark_[l];
  }
  if (kind == TM_UNIT || kind == TM_RCONST || kind == TM_ICONST || kind == TM_ZERO)
    return 0;
  int bl = binder_level(e);
  /* binders of children are not in S; the three children are unrolled
   * (no loop around the recursive calls keeps the variant simple) */
  int a = tm_a(e), b = tm_b(e), c = tm_c(e);
  if (a >= 0) {
    if (!set_mark(bl, 0) || !set_mark(bl + 1, 0) || occ(a, depth + 1))
      return 1;
  }
  if (b >= 0) {
    if (!set_mark(bl, 0) || !set_mark(bl + 1, 0) || occ(b, depth + 1))
      return 1;
  }
  if (c >= 0) {
    if (!set_mark(bl, 0) || !set_mark(bl + 1, 0) || occ(c, depth + 1))
      return 1;
  }
  return 0;
}

/* child c of e with the first binder below e in S iff first_in */
static int lin(int e, int depth);
/*@ requires depth >= 0;
    decreases LIN_DEPTH + 1 - depth; */
static int lin_child(int e, int c, int first_in, int depth)
{
  if (depth > LIN_DEPTH)
    return 0;
  int bl = binder_level(e);
  if (!set_mark(bl, first_in) || !set_mark(bl + 1, 0))
    return 0;
  return lin(c, depth + 1);
}

/* e is jointly linear in the variables of S */
/*@ requires depth >= 0;
    decreases LIN_DEPTH + 1 - depth; */
static int lin(int e, int depth)
{
  if (depth > LIN_DEPTH)
    return 0;
  int dn = depth + 1;
  int a = tm_a(e), b = tm_b(e), c = tm_c(e);
  switch (tm_kind(e)) {
  case TM_VAR: {
    int l = level_of_var(e);
    return l >= 0 && l <= CHAD_MAX_CTXS && lin_mark_[l];
  }
  case TM_ZERO: case TM_UNIT: return 1;
  case TM_PLUS: case TM_PAIR: return lin(a, dn) && lin(b, dn);
  case TM_FST: case TM_SND: case TM_SUM: return lin(a, dn);
  case TM_LAPP:
    return (!occ(a, dn) && lin(b, dn)) || (lin(a, dn) && !occ(b, dn));
  case TM_APP: case TM_INDEX: return lin(a, dn) && !occ(b, dn);
  case TM_LOP_D: case TM_LOP_DT: case TM_ONEHOT: case TM_CP_SINGLE:
    return !occ(a, dn) && lin(b, dn);
  case TM_LET: {                        /* a linear bound term joins S */
    int oa = occ(a, dn);
    if (oa && !lin(a, dn)) return 0;
    return lin_child(e, b, oa, dn);
  }
  case TM_CASE:
    return !occ(a, dn) && lin_child(e, b, 0, dn) && lin_child(e, c, 0, dn);
  case TM_BUILD: case TM_LSUM: return !occ(a, dn) && lin_child(e, b, 0, dn);
  case TM_MAP: {                        /* map (x. a) b */
    int ob = occ(b, dn);
    if (ob && !lin(b, dn)) return 0;
    return lin_child(e, a, ob, dn);
  }
  case TM_CP_FOLD: {                    /* body's linear variable is the 2nd binder */
    int obag = occ(a, dn);
    if (obag && !lin(a, dn)) return 0;
    int bl = binder_level(e);
    if (!set_mark(bl, 0) || !set_mark(bl + 1, obag)) return 0;
    return lin(b, dn);
  }
  case TM_LAM: case TM_LLAM: return lin_child(e, a, 0, dn);
  case TM_ITER: case TM_LOOP:           /* linear state, body jointly linear */
    return !occ(a, dn) && lin(c, dn) && lin_child(e, b, 1, dn);
  default: return 0;
  }
}

/* checks one linear binder: llam body in its variable, cp_fold body in its
 * linear variable, with no other variable in S */
static int check_binder(int u)
{
  int bl = binder_level(u);
  if (bl < 0 || bl + 1 > CHAD_MAX_CTXS)
    return 0;
  for (int l = 0; l <= bl + 1; l++)
    lin_mark_[l] = 0;
  if (tm_kind(u) == TM_LLAM) {
    lin_mark_[bl] = 1;
    return lin(tm_a(u), 0);
  }
  lin_mark_[bl + 1] = 1;
  return lin(tm_b(u), 0);
}

static int walk_stack_[CHAD_MAX_TERMS];

/* 1 when every llam body in t is linear in its variable and every cp_fold
 * body is linear in its linear variable; 0 otherwise; negative on error. */
int chad_check_linear(int t)
{
  if (t < 0 || t >= tm_count)
    return CHAD_E_ARG;
  int sp = 0;
  walk_stack_[sp++] = t;
  while (sp > 0) {
    int u = walk_stack_[--sp];
    int kind = tm_kind(u);
    if ((kind == TM_LLAM || kind == TM_CP_FOLD) && !check_binder(u))
      return 0;
    if (kind == TM_VAR || kind == TM_UNIT || kind == TM_RCONST || kind == TM_ICONST ||
        kind == TM_ZERO)
      continue;
    int ch[3] = {tm_a(u), tm_b(u), tm_c(u)};
    for (int i = 0; i < 3; i++)
      if (ch[i] >= 0) {
        if (sp >= CHAD_MAX_TERMS)
          return CHAD_E_CAPACITY;
        walk_stack_[sp++] = ch[i];
      }
  }
  return 1;
}
