/* Hash-consed contexts: snoc lists stored as (parent, last type) pairs, each
 * pair at most once, parents at smaller indices. Context 0 is empty. */
#include "chad/kernel.h"
#include "kernel_spec.h"

int ctx_count;
int ctx_parent_[CHAD_MAX_CTXS];
int ctx_type_[CHAD_MAX_CTXS];
int ctx_len_[CHAD_MAX_CTXS];

/*@ terminates \true;
    assigns ctx_count, ctx_parent_[0], ctx_type_[0], ctx_len_[0];
    ensures ctx_inv;
    ensures ctx_count == 1;
*/
void ctx_init(void)
{
  ctx_parent_[0] = -1;
  ctx_type_[0] = -1;
  ctx_len_[0] = 0;
  ctx_count = 1;
}

/* (g, t), found or appended. Appending leaves the lookup function of every
 * older context unchanged (proved by the ghost loop: induction on the
 * context index, parents first). */
/*@ requires ctx_inv && ty_inv;
    terminates \true;
    assigns ctx_count, ctx_parent_[ctx_count], ctx_type_[ctx_count], ctx_len_[ctx_count];
    ensures ctx_inv;
    ensures \old(ctx_count) <= ctx_count <= \old(ctx_count) + 1;
    ensures \result == CHAD_E_ARG <==> !\old(ctx_valid(g) && ty_valid(t));
    ensures \result >= 0 ==> ctx_is_ext(\result, g, t) && ctx_len_[\result] == ctx_len_[g] + 1;
    ensures \result >= 0 || \result == CHAD_E_ARG || \result == CHAD_E_CAPACITY;
    ensures \result < 0 ==> ctx_count == \old(ctx_count);
    ensures \forall integer h, k; 0 <= h < \old(ctx_count) ==>
      ctx_lk(h, k) == \at(ctx_lk(h, k), Pre);
*/
int ctx_extend(int g, int t)
{
  if (g < 0 || g >= ctx_count || t < 0 || t >= ty_count)
    return CHAD_E_ARG;
  /*@ loop invariant 1 <= i <= ctx_count;
      loop invariant \forall integer j; 0 < j < i ==> !(ctx_parent_[j] == g && ctx_type_[j] == t);
      loop assigns i;
      loop variant ctx_count - i;
  */
  for (int i = 1; i < ctx_count; i++) {
    if (ctx_parent_[i] == g && ctx_type_[i] == t)
      return i;
  }
  if (ctx_count >= CHAD_MAX_CTXS)
    return CHAD_E_CAPACITY;
  //@ assert g == 0 || ctx_node_ok(g);
  ctx_parent_[ctx_count] = g;
  ctx_type_[ctx_count] = t;
  ctx_len_[ctx_count] = ctx_len_[g] + 1;
  ctx_count++;
  /* ctx_inv piece by piece: one goal for all of it timed out under load. */
  //@ assert ctx_node_ok(ctx_count - 1);
  //@ assert \forall integer i; 0 < i < ctx_count - 1 ==> ctx_node_ok(i);
  //@ assert ctx_unique;
  /*@ ghost
    int h = 0;
    /@ loop invariant 0 <= h <= ctx_count - 1;
       loop invariant \forall integer h2, k; 0 <= h2 < h ==>
         ctx_lk(h2, k) == \at(ctx_lk(h2, k), Pre);
       loop assigns h;
       loop variant ctx_count - 1 - h;
    @/
    for (h = 0; h < ctx_count - 1; h++) {
      /@ assert \let hh = h; ctx_parent_[hh] == \at(ctx_parent_[hh], Pre); @/
      /@ assert \let hh = h; ctx_type_[hh] == \at(ctx_type_[hh], Pre); @/
      /@ assert h > 0 ==> 0 <= ctx_parent_[h] < h; @/
      /@ assert \let hh = h; \forall integer k; ctx_lk(hh, k) == \at(ctx_lk(hh, k), Pre); @/
    }
  */
  return ctx_count - 1;
}

/*@ requires ctx_inv && ty_inv;
    terminates \true;
    assigns \nothing;
    ensures !ctx_valid(g) <==> \result == CHAD_E_ARG;
    ensures ctx_valid(g) && !(0 <= k < ctx_len_[g]) <==> \result == CHAD_E_UNBOUND;
    ensures ctx_valid(g) && 0 <= k < ctx_len_[g] ==>
      \result == ctx_lk(g, k) && ty_valid(\result);
*/
int ctx_lookup(int g, int k)
{
  if (g < 0 || g >= ctx_count)
    return CHAD_E_ARG;
  if (k < 0 || k >= ctx_len_[g])
    return CHAD_E_UNBOUND;
  /*@ loop invariant 0 < g < ctx_count && 0 <= k < ctx_len_[g];
      loop invariant ctx_lk(g, k) == ctx_lk(\at(g, Pre), \at(k, Pre));
      loop assigns g, k;
      loop variant k;
  */
  while (k > 0) {
    //@ assert ctx_node_ok(g);
    g = ctx_parent_[g];
    k--;
  }
  //@ assert ctx_node_ok(g);
  return ctx_type_[g];
}

/*@ requires ctx_inv; terminates \true; assigns \nothing;
    ensures ctx_valid(g) ==> \result == ctx_len_[g];
    ensures !ctx_valid(g) ==> \result == CHAD_E_ARG;
*/
int ctx_length(int g) { return (g < 0 || g >= ctx_count) ? CHAD_E_ARG : ctx_len_[g]; }
/*@ requires ctx_inv; terminates \true; assigns \nothing;
    ensures ctx_valid(g) ==> \result == ctx_parent_[g];
    ensures !ctx_valid(g) ==> \result == CHAD_E_ARG;
*/
int ctx_parent(int g) { return (g < 0 || g >= ctx_count) ? CHAD_E_ARG : ctx_parent_[g]; }
/*@ requires ctx_inv; terminates \true; assigns \nothing;
    ensures 0 < g < ctx_count ==> \result == ctx_type_[g];
    ensures !(0 < g < ctx_count) ==> \result == CHAD_E_ARG;
*/
int ctx_last(int g) { return (g <= 0 || g >= ctx_count) ? CHAD_E_ARG : ctx_type_[g]; }

/* The prefix of g of length n: g less its last len(g) - n entries, so
 * variable j of the prefix is variable (len(g) - n) + j of g. The entry
 * points of the CHAD macros check with it that a target context extends
 * P G (contexts are hash-consed: an equal prefix has the same id). */
/*@ requires ctx_inv; terminates \true; assigns \nothing;
    ensures !(ctx_valid(g) && 0 <= n <= ctx_len_[g]) <==> \result == CHAD_E_ARG;
    ensures ctx_valid(g) && 0 <= n <= ctx_len_[g] ==>
      ctx_valid(\result) && ctx_len_[\result] == n &&
      \result == ctx_drop(g, ctx_len_[g] - n) &&
      \forall integer j; 0 <= j ==> ctx_lk(g, (ctx_len_[g] - n) + j) == ctx_lk(\result, j);
*/
int ctx_prefix(int g, int n)
{
  if (g < 0 || g >= ctx_count || n < 0 || n > ctx_len_[g])
    return CHAD_E_ARG;
  int p = g;
  /*@ loop invariant 0 <= p < ctx_count && n <= ctx_len_[p] <= ctx_len_[g];
      loop invariant ctx_drop(g, ctx_len_[g] - n) == ctx_drop(p, ctx_len_[p] - n);
      loop invariant \forall integer j; 0 <= j ==>
        ctx_lk(g, (ctx_len_[g] - ctx_len_[p]) + j) == ctx_lk(p, j);
      loop assigns p;
      loop variant ctx_len_[p];
  */
  while (ctx_len_[p] > n) {
    //@ assert p > 0 && ctx_node_ok(p);
    //@ assert \forall integer j; 0 <= j ==> ctx_lk(p, j + 1) == ctx_lk(ctx_parent_[p], j);
    /*@ assert \forall integer j; 0 <= j ==>
          ctx_lk(g, (ctx_len_[g] - ctx_len_[p]) + (j + 1)) == ctx_lk(ctx_parent_[p], j); */
    p = ctx_parent_[p];
  }
  return p;
}
