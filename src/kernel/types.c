/* Hash-consed type table: every (kind, left, right) triple appears at most
 * once, so structural equality of types is equality of indices. Children
 * always sit at smaller indices than their parent. */
#include "chad/kernel.h"

int ty_count;
int ty_kind_[CHAD_MAX_TYPES];
int ty_left_[CHAD_MAX_TYPES];
int ty_right_[CHAD_MAX_TYPES];

static void ty_push(int kind, int left, int right)
{
  ty_kind_[ty_count] = kind;
  ty_left_[ty_count] = left;
  ty_right_[ty_count] = right;
  ty_count++;
}

void ty_init(void)
{
  ty_count = 0;
  ty_push(TY_REAL, -1, -1);
  ty_push(TY_INT, -1, -1);
  ty_push(TY_UNIT, -1, -1);
}

/* The shape a kind needs: base kinds have no children, ARR one, the others
 * two, each an existing type. */
static int ty_shape_ok(int kind, int left, int right)
{
  if (kind == TY_REAL || kind == TY_INT || kind == TY_UNIT)
    return left == -1 && right == -1;
  if (kind == TY_ARR)
    return 0 <= left && left < ty_count && right == -1;
  if (kind == TY_PROD || kind == TY_SUM || kind == TY_FUN ||
      kind == TY_LFUN || kind == TY_COPOW)
    return 0 <= left && left < ty_count && 0 <= right && right < ty_count;
  return 0;
}

int ty_make(int kind, int left, int right)
{
  if (!ty_shape_ok(kind, left, right))
    return CHAD_E_ARG;
  for (int i = 0; i < ty_count; i++) {
    if (ty_kind_[i] == kind && ty_left_[i] == left && ty_right_[i] == right)
      return i;
  }
  if (ty_count >= CHAD_MAX_TYPES)
    return CHAD_E_CAPACITY;
  ty_push(kind, left, right);
  return ty_count - 1;
}

int ty_prod(int a, int b) { return ty_make(TY_PROD, a, b); }
int ty_sum(int a, int b) { return ty_make(TY_SUM, a, b); }
int ty_fun(int a, int b) { return ty_make(TY_FUN, a, b); }
int ty_arr(int a) { return ty_make(TY_ARR, a, -1); }
int ty_lfun(int a, int b) { return ty_make(TY_LFUN, a, b); }
int ty_copow(int a, int b) { return ty_make(TY_COPOW, a, b); }

/* Hash-consing makes structural equality index equality. */
int ty_equal(int a, int b)
{
  if (a < 0 || a >= ty_count || b < 0 || b >= ty_count)
    return 0;
  return a == b;
}

int ty_is_first_order(int t)
{
  if (t < 0 || t >= ty_count)
    return 0;
  switch (ty_kind_[t]) {
  case TY_REAL: case TY_INT: case TY_UNIT:
    return 1;
  case TY_ARR:
    return ty_is_first_order(ty_left_[t]);
  case TY_PROD: case TY_SUM:
    return ty_is_first_order(ty_left_[t]) && ty_is_first_order(ty_right_[t]);
  default:
    return 0;
  }
}

int ty_is_linear(int t)
{
  if (t < 0 || t >= ty_count)
    return 0;
  switch (ty_kind_[t]) {
  case TY_REAL: case TY_UNIT:
    return 1;
  case TY_ARR:
    return ty_is_linear(ty_left_[t]);
  case TY_PROD:
    return ty_is_linear(ty_left_[t]) && ty_is_linear(ty_right_[t]);
  case TY_FUN: case TY_LFUN: case TY_COPOW:
    return ty_is_linear(ty_right_[t]);
  default:
    return 0;
  }
}

int ty_kind(int t) { return (t < 0 || t >= ty_count) ? CHAD_E_ARG : ty_kind_[t]; }
int ty_left(int t) { return (t < 0 || t >= ty_count) ? CHAD_E_ARG : ty_left_[t]; }
int ty_right(int t) { return (t < 0 || t >= ty_count) ? CHAD_E_ARG : ty_right_[t]; }
