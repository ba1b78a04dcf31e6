/* Hash-consed type table: every (kind, left, right) triple appears at most
 * once, so structural equality of types is equality of indices. Children
 * always sit at smaller indices than their parent. */
#include "chad/kernel.h"
#include "kernel_spec.h"

int ty_count;
int ty_kind_[CHAD_MAX_TYPES];
int ty_left_[CHAD_MAX_TYPES];
int ty_right_[CHAD_MAX_TYPES];
/*@ ghost int ty_lin_[CHAD_MAX_TYPES]; */
/*@ ghost int ty_tan_[CHAD_MAX_TYPES]; */

/* Appends a triple; its ghost linearity follows from its children's. */
/*@ requires 0 <= ty_count < CHAD_MAX_TYPES;
    requires ty_shape(kind, left, right, ty_count);
    terminates \true;
    assigns ty_count, ty_kind_[ty_count], ty_left_[ty_count], ty_right_[ty_count],
            ty_lin_[ty_count], ty_tan_[ty_count];
    ensures ty_count == \old(ty_count) + 1;
    ensures ty_same(\old(ty_count), kind, left, right);
    ensures ty_node_ok(\old(ty_count));
    ensures ty_tan_[\old(ty_count)] == -1;
*/
static void ty_push(int kind, int left, int right)
{
  ty_kind_[ty_count] = kind;
  ty_left_[ty_count] = left;
  ty_right_[ty_count] = right;
  /*@ ghost
    ty_lin_[ty_count] =
      (kind == TY_REAL || kind == TY_UNIT) ? 1 :
      kind == TY_ARR ? (ty_lin_[left] == 1 ? 1 : 0) :
      kind == TY_PROD ? ((ty_lin_[left] == 1 && ty_lin_[right] == 1) ? 1 : 0) :
      (kind == TY_FUN || kind == TY_LFUN || kind == TY_COPOW) ?
        (ty_lin_[right] == 1 ? 1 : 0) : 0;
    ty_tan_[ty_count] = -1;
  */
  ty_count++;
}

/*@ terminates \true;
    assigns ty_count, ty_kind_[0..2], ty_left_[0..2], ty_right_[0..2], ty_lin_[0..2], ty_tan_[0..2];
    ensures ty_inv;
    ensures ty_count == 3;
*/
void ty_init(void)
{
  ty_count = 0;
  ty_push(TY_REAL, -1, -1);
  ty_push(TY_INT, -1, -1);
  ty_push(TY_UNIT, -1, -1);
}

/* The shape a kind needs: base kinds have no children, ARR one, the others
 * two, each an existing type. */
/*@ requires 0 <= ty_count;
    terminates \true;
    assigns \nothing;
    ensures \result == 1 <==> ty_shape(kind, left, right, ty_count);
    ensures \result == 0 || \result == 1;
*/
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

/* Hash-consing constructor: the existing index of (kind, left, right), or a
 * new entry. */
/*@ requires ty_inv;
    terminates \true;
    assigns ty_count, ty_kind_[ty_count], ty_left_[ty_count], ty_right_[ty_count],
            ty_lin_[ty_count], ty_tan_[ty_count];
    ensures ty_inv;
    ensures \old(ty_count) <= ty_count <= \old(ty_count) + 1;
    ensures \result == CHAD_E_ARG <==> !\old(ty_shape(kind, left, right, ty_count));
    ensures \result >= 0 ==> ty_valid(\result) && ty_same(\result, kind, left, right);
    ensures \result == CHAD_E_CAPACITY ==> \old(ty_count) == CHAD_MAX_TYPES &&
      \forall integer i; 0 <= i < ty_count ==> !ty_same(i, kind, left, right);
    ensures \result >= 0 || \result == CHAD_E_ARG || \result == CHAD_E_CAPACITY;
    ensures \result < 0 ==> ty_count == \old(ty_count);
    ensures ty_count == \old(ty_count) || \result == \old(ty_count);
    ensures \old(op_inv) ==> op_inv;
*/
int ty_make(int kind, int left, int right)
{
  if (!ty_shape_ok(kind, left, right))
    return CHAD_E_ARG;
  /*@ loop invariant 0 <= i <= ty_count;
      loop invariant \forall integer j; 0 <= j < i ==> !ty_same(j, kind, left, right);
      loop assigns i;
      loop variant ty_count - i;
  */
  for (int i = 0; i < ty_count; i++) {
    if (ty_kind_[i] == kind && ty_left_[i] == left && ty_right_[i] == right)
      return i;
  }
  if (ty_count >= CHAD_MAX_TYPES)
    return CHAD_E_CAPACITY;
  ty_push(kind, left, right);
  return ty_count - 1;
}

/*@ requires ty_inv; terminates \true;
    assigns ty_count, ty_kind_[ty_count], ty_left_[ty_count], ty_right_[ty_count], ty_lin_[ty_count], ty_tan_[ty_count];
    ensures ty_inv;
    ensures \old(ty_count) <= ty_count <= \old(ty_count) + 1;
    ensures \result >= 0 ==> ty_valid(\result) && ty_same(\result, TY_PROD, a, b);
    ensures \result < 0 ==> ty_count == \old(ty_count);
    ensures \result >= 0 || \result == CHAD_E_ARG || \result == CHAD_E_CAPACITY;
    ensures \old(ty_valid(a) && ty_valid(b)) ==> \result != CHAD_E_ARG;
*/
int ty_prod(int a, int b) { return ty_make(TY_PROD, a, b); }
/*@ requires ty_inv; terminates \true;
    assigns ty_count, ty_kind_[ty_count], ty_left_[ty_count], ty_right_[ty_count], ty_lin_[ty_count], ty_tan_[ty_count];
    ensures ty_inv;
    ensures \old(ty_count) <= ty_count <= \old(ty_count) + 1;
    ensures \result >= 0 ==> ty_valid(\result) && ty_same(\result, TY_SUM, a, b);
    ensures \result < 0 ==> ty_count == \old(ty_count);
    ensures \result >= 0 || \result == CHAD_E_ARG || \result == CHAD_E_CAPACITY;
    ensures \old(ty_valid(a) && ty_valid(b)) ==> \result != CHAD_E_ARG;
*/
int ty_sum(int a, int b) { return ty_make(TY_SUM, a, b); }
/*@ requires ty_inv; terminates \true;
    assigns ty_count, ty_kind_[ty_count], ty_left_[ty_count], ty_right_[ty_count], ty_lin_[ty_count], ty_tan_[ty_count];
    ensures ty_inv;
    ensures \old(ty_count) <= ty_count <= \old(ty_count) + 1;
    ensures \result >= 0 ==> ty_valid(\result) && ty_same(\result, TY_FUN, a, b);
    ensures \result < 0 ==> ty_count == \old(ty_count);
    ensures \result >= 0 || \result == CHAD_E_ARG || \result == CHAD_E_CAPACITY;
    ensures \old(ty_valid(a) && ty_valid(b)) ==> \result != CHAD_E_ARG;
*/
int ty_fun(int a, int b) { return ty_make(TY_FUN, a, b); }
/*@ requires ty_inv; terminates \true;
    assigns ty_count, ty_kind_[ty_count], ty_left_[ty_count], ty_right_[ty_count], ty_lin_[ty_count], ty_tan_[ty_count];
    ensures ty_inv;
    ensures \old(ty_count) <= ty_count <= \old(ty_count) + 1;
    ensures \result >= 0 ==> ty_valid(\result) && ty_same(\result, TY_ARR, a, -1);
    ensures \result < 0 ==> ty_count == \old(ty_count);
    ensures \result >= 0 || \result == CHAD_E_ARG || \result == CHAD_E_CAPACITY;
    ensures \old(ty_valid(a)) ==> \result != CHAD_E_ARG;
    ensures \old(op_inv) ==> op_inv;
*/
int ty_arr(int a) { return ty_make(TY_ARR, a, -1); }
/*@ requires ty_inv; terminates \true;
    assigns ty_count, ty_kind_[ty_count], ty_left_[ty_count], ty_right_[ty_count], ty_lin_[ty_count], ty_tan_[ty_count];
    ensures ty_inv;
    ensures \old(ty_count) <= ty_count <= \old(ty_count) + 1;
    ensures \result >= 0 ==> ty_valid(\result) && ty_same(\result, TY_LFUN, a, b);
    ensures \result < 0 ==> ty_count == \old(ty_count);
    ensures \result >= 0 || \result == CHAD_E_ARG || \result == CHAD_E_CAPACITY;
    ensures \old(ty_valid(a) && ty_valid(b)) ==> \result != CHAD_E_ARG;
*/
int ty_lfun(int a, int b) { return ty_make(TY_LFUN, a, b); }
/*@ requires ty_inv; terminates \true;
    assigns ty_count, ty_kind_[ty_count], ty_left_[ty_count], ty_right_[ty_count], ty_lin_[ty_count], ty_tan_[ty_count];
    ensures ty_inv;
    ensures \old(ty_count) <= ty_count <= \old(ty_count) + 1;
    ensures \result >= 0 ==> ty_valid(\result) && ty_same(\result, TY_COPOW, a, b);
    ensures \result < 0 ==> ty_count == \old(ty_count);
    ensures \result >= 0 || \result == CHAD_E_ARG || \result == CHAD_E_CAPACITY;
    ensures \old(ty_valid(a) && ty_valid(b)) ==> \result != CHAD_E_ARG;
*/
int ty_copow(int a, int b) { return ty_make(TY_COPOW, a, b); }

/* Hash-consing makes structural equality index equality. The ghost loop is
 * the induction (over the table, children first) showing that, under the
 * uniqueness invariant, ty_seq(i, j) holds exactly when i == j. */
/*@ requires ty_inv;
    terminates \true;
    assigns \nothing;
    ensures \result == 1 <==> ty_seq(a, b);
    ensures \result == 0 || \result == 1;
*/
int ty_equal(int a, int b)
{
  /*@ ghost
    /@ loop invariant 0 <= k <= ty_count;
       loop invariant \forall integer i, j; 0 <= i < k && 0 <= j < k ==>
         (ty_seq(i, j) <==> i == j);
       loop assigns k;
       loop variant ty_count - k;
    @/
    for (int k = 0; k < ty_count; k++) {
      /@ assert ty_node_ok(k); @/
      /@ loop invariant 0 <= j <= k;
         loop invariant \forall integer i; 0 <= i < j ==> !ty_seq(i, k) && !ty_seq(k, i);
         loop assigns j;
         loop variant k - j;
      @/
      for (int j = 0; j < k; j++) {
        /@ assert ty_node_ok(j); @/
        /@ assert !ty_same(k, ty_kind_[j], ty_left_[j], ty_right_[j]); @/
        /@ assert ty_seq(j, k) ==> ty_kind_[j] == ty_kind_[k]; @/
        /@ assert ty_seq(j, k) ==> ty_left_[j] == ty_left_[k]; @/
        /@ assert ty_seq(j, k) ==> ty_right_[j] == ty_right_[k]; @/
        /@ assert !ty_seq(j, k); @/
        /@ assert ty_seq(k, j) ==> ty_kind_[j] == ty_kind_[k]; @/
        /@ assert ty_seq(k, j) ==> ty_left_[j] == ty_left_[k]; @/
        /@ assert ty_seq(k, j) ==> ty_right_[j] == ty_right_[k]; @/
        /@ assert !ty_seq(k, j); @/
      }
      /@ assert ty_seq(k, k); @/
    }
  */
  if (a < 0 || a >= ty_count || b < 0 || b >= ty_count)
    return 0;
  return a == b;
}

/*@ requires ty_inv;
    terminates \true;
    decreases t;
    assigns \nothing;
    ensures \result == 1 <==> ty_fo(t);
    ensures \result == 0 || \result == 1;
*/
int ty_is_first_order(int t)
{
  if (t < 0 || t >= ty_count)
    return 0;
  //@ assert ty_node_ok(t);
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

/* Whether s is the tangent type of the first-order type t (fo_tan):
 * op_register's check of a primitive's signature. On success it records
 * s as t's tangent (the ghost column ty_tan_, children first). */
/*@ requires ty_inv;
    terminates \true;
    decreases t;
    assigns ty_tan_[0 .. ty_count - 1];
    ensures ty_inv;
    ensures tan_mono: \forall integer i; 0 <= \old(ty_tan_[i]) ==> ty_tan_[i] == \old(ty_tan_[i]);
    ensures \result == 1 <==> fo_tan(t, s);
    ensures tan_set: \result == 1 ==> ty_tan_[t] == s;
    ensures \result == 0 || \result == 1;
*/
int ty_is_tangent(int t, int s)
{
  if (t < 0 || t >= ty_count || s < 0 || s >= ty_count)
    return 0;
  //@ assert ty_node_ok(t) && ty_node_ok(s);
  int ok;
  switch (ty_kind_[t]) {
  case TY_REAL:
    ok = s == TY_ID_REAL;
    break;
  case TY_INT: case TY_UNIT:
    ok = s == TY_ID_UNIT;
    break;
  case TY_ARR:
    ok = ty_kind_[s] == TY_ARR && ty_right_[s] == -1 && ty_is_tangent(ty_left_[t], ty_left_[s]);
    break;
  case TY_PROD: case TY_SUM:
    ok = ty_kind_[s] == TY_PROD && ty_is_tangent(ty_left_[t], ty_left_[s]) &&
         ty_is_tangent(ty_right_[t], ty_right_[s]);
    break;
  default:
    ok = 0;
    break;
  }
  if (ok) {
    /* an entry already set is s itself (hash-consing); an unset one is no
     * set entry's child, so setting it keeps every entry's rule */
    //@ assert tan_rule: ty_tan_rule(ty_kind_[t], ty_left_[t], ty_right_[t], s);
    //@ assert tan_same: ty_tan_[t] >= 0 ==> ty_tan_[t] == s;
    /*@ assert tan_free: ty_tan_[t] < 0 ==> \forall integer i; 0 <= i < ty_count &&
          ty_tan_[i] >= 0 ==> ty_left_[i] != t && ty_right_[i] != t; */
    //@ assert tan_all: \forall integer i; 0 <= i < ty_count ==> ty_tan_ok(i);
    //@ ghost ty_tan_[t] = s;
    //@ assert tan_t: ty_tan_ok(t);
    //@ assert tan_others: \forall integer i; 0 <= i < ty_count && i != t ==> ty_tan_ok(i);
    //@ assert node_all: \forall integer i; 0 <= i < ty_count ==> ty_node_ok(i);
  }
  return ok;
}

/*@ requires ty_inv;
    terminates \true;
    decreases t;
    assigns \nothing;
    ensures \result == 1 <==> lin(t);
    ensures \result == 0 || \result == 1;
*/
int ty_is_linear(int t)
{
  if (t < 0 || t >= ty_count)
    return 0;
  //@ assert ty_node_ok(t);
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

/*@ requires ty_inv; terminates \true; assigns \nothing;
    ensures ty_valid(t) ==> \result == ty_kind_[t];
    ensures !ty_valid(t) ==> \result == CHAD_E_ARG;
*/
int ty_kind(int t) { return (t < 0 || t >= ty_count) ? CHAD_E_ARG : ty_kind_[t]; }
/*@ requires ty_inv; terminates \true; assigns \nothing;
    ensures ty_valid(t) ==> \result == ty_left_[t];
    ensures !ty_valid(t) ==> \result == CHAD_E_ARG;
*/
int ty_left(int t) { return (t < 0 || t >= ty_count) ? CHAD_E_ARG : ty_left_[t]; }
/*@ requires ty_inv; terminates \true; assigns \nothing;
    ensures ty_valid(t) ==> \result == ty_right_[t];
    ensures !ty_valid(t) ==> \result == CHAD_E_ARG;
*/
int ty_right(int t) { return (t < 0 || t >= ty_count) ? CHAD_E_ARG : ty_right_[t]; }
