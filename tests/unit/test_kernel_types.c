/* Types, contexts and op signatures: hash-consing, shapes, predicates,
 * lookups and capacity exhaustion. */
#include <stdio.h>
#include "chad/kernel.h"

#include "check.h"

static void types(void)
{
  printf("types: base indices, hash-consing, shapes, predicates\n");
  ty_init();
  CHECK(ty_count == 3);
  CHECK(ty_kind(TY_ID_REAL) == TY_REAL && ty_kind(TY_ID_INT) == TY_INT &&
        ty_kind(TY_ID_UNIT) == TY_UNIT);
  CHECK(ty_make(TY_REAL, -1, -1) == TY_ID_REAL);
  CHECK(ty_make(TY_UNIT, -1, -1) == TY_ID_UNIT);
  int p = ty_prod(TY_ID_REAL, TY_ID_INT);
  CHECK(p == 3 && ty_count == 4);
  CHECK(ty_prod(TY_ID_REAL, TY_ID_INT) == p && ty_count == 4);
  CHECK(ty_prod(TY_ID_INT, TY_ID_REAL) != p);
  CHECK(ty_sum(TY_ID_REAL, TY_ID_INT) != p);
  int a = ty_arr(p);
  CHECK(a > p && ty_arr(p) == a && ty_right(a) == -1 && ty_left(a) == p);
  CHECK(ty_equal(p, p) == 1 && ty_equal(p, a) == 0 && ty_equal(p, 99999) == 0);
  /* bad shapes */
  int n = ty_count;
  CHECK(ty_make(TY_REAL, 0, -1) == CHAD_E_ARG);
  CHECK(ty_make(TY_ARR, -1, -1) == CHAD_E_ARG);
  CHECK(ty_make(TY_ARR, 0, 0) == CHAD_E_ARG);
  CHECK(ty_make(TY_PROD, 0, n) == CHAD_E_ARG);
  CHECK(ty_make(TY_NKINDS, -1, -1) == CHAD_E_ARG);
  CHECK(ty_make(-1, -1, -1) == CHAD_E_ARG);
  CHECK(ty_count == n);
  CHECK(ty_kind(-1) == CHAD_E_ARG && ty_left(n) == CHAD_E_ARG);
  /* first order */
  int f = ty_fun(TY_ID_REAL, TY_ID_REAL);
  CHECK(ty_is_first_order(TY_ID_REAL) && ty_is_first_order(a));
  CHECK(ty_is_first_order(ty_sum(p, TY_ID_UNIT)));
  CHECK(!ty_is_first_order(f) && !ty_is_first_order(ty_prod(TY_ID_REAL, f)));
  CHECK(!ty_is_first_order(ty_arr(f)));
  CHECK(!ty_is_first_order(ty_lfun(TY_ID_REAL, TY_ID_REAL)));
  CHECK(!ty_is_first_order(ty_copow(TY_ID_REAL, TY_ID_REAL)));
  CHECK(!ty_is_first_order(-1));
  /* linear */
  CHECK(ty_is_linear(TY_ID_REAL) && ty_is_linear(TY_ID_UNIT));
  CHECK(!ty_is_linear(TY_ID_INT));
  CHECK(!ty_is_linear(ty_sum(TY_ID_REAL, TY_ID_REAL)));
  CHECK(ty_is_linear(ty_prod(TY_ID_REAL, ty_arr(TY_ID_REAL))));
  CHECK(!ty_is_linear(p));
  CHECK(ty_is_linear(ty_fun(TY_ID_INT, TY_ID_REAL)));
  CHECK(!ty_is_linear(ty_fun(TY_ID_REAL, TY_ID_INT)));
  CHECK(ty_is_linear(ty_lfun(TY_ID_REAL, TY_ID_REAL)));
  CHECK(ty_is_linear(ty_copow(TY_ID_INT, TY_ID_REAL)));
  CHECK(!ty_is_linear(ty_copow(TY_ID_REAL, TY_ID_INT)));
  CHECK(!ty_is_linear(ty_arr(TY_ID_INT)));
  CHECK(!ty_is_linear(12345));
}

static void type_capacity(void)
{
  printf("types: filling the table gives CHAD_E_CAPACITY and changes nothing\n");
  ty_init();
  int t = TY_ID_REAL, last = -1;
  while (1) {
    int u = ty_arr(t);
    if (u < 0) { last = u; break; }
    t = u;
  }
  CHECK(last == CHAD_E_CAPACITY);
  CHECK(ty_count == CHAD_MAX_TYPES);
  CHECK(ty_prod(TY_ID_REAL, TY_ID_REAL) == CHAD_E_CAPACITY);
  CHECK(ty_count == CHAD_MAX_TYPES);
  /* existing types are still found when the table is full */
  CHECK(ty_arr(TY_ID_REAL) == 3);
  CHECK(ty_is_first_order(t) == 1); /* deep recursion on a full table */
  CHECK(ty_is_linear(t) == 1);
}

static void contexts(void)
{
  printf("contexts: hash-consing, lengths, lookups, capacity\n");
  ty_init();
  ctx_init();
  CHECK(ctx_count == 1 && ctx_length(CTX_EMPTY) == 0 && ctx_parent(CTX_EMPTY) == -1);
  CHECK(ctx_last(CTX_EMPTY) == CHAD_E_ARG);
  int g1 = ctx_extend(CTX_EMPTY, TY_ID_REAL);
  int g2 = ctx_extend(g1, TY_ID_INT);
  CHECK(g1 == 1 && g2 == 2);
  CHECK(ctx_extend(CTX_EMPTY, TY_ID_REAL) == g1 && ctx_extend(g1, TY_ID_INT) == g2);
  CHECK(ctx_count == 3);
  CHECK(ctx_extend(g1, TY_ID_REAL) == 3);
  CHECK(ctx_length(g2) == 2 && ctx_parent(g2) == g1 && ctx_last(g2) == TY_ID_INT);
  CHECK(ctx_lookup(g2, 0) == TY_ID_INT && ctx_lookup(g2, 1) == TY_ID_REAL);
  CHECK(ctx_lookup(g2, 2) == CHAD_E_UNBOUND && ctx_lookup(g2, -1) == CHAD_E_UNBOUND);
  CHECK(ctx_lookup(CTX_EMPTY, 0) == CHAD_E_UNBOUND);
  CHECK(ctx_lookup(99, 0) == CHAD_E_ARG && ctx_lookup(-1, 0) == CHAD_E_ARG);
  CHECK(ctx_extend(g2, 99) == CHAD_E_ARG && ctx_extend(ctx_count, 0) == CHAD_E_ARG);
  /* the first id past the last context, and -1, are no context */
  CHECK(ctx_length(ctx_count) == CHAD_E_ARG && ctx_length(-1) == CHAD_E_ARG);
  CHECK(ctx_parent(ctx_count) == CHAD_E_ARG && ctx_parent(-1) == CHAD_E_ARG);
  /* prefixes: g2 = (Real, Int) less 0, 1, 2 entries; lengths out of range */
  CHECK(ctx_prefix(g2, 2) == g2 && ctx_prefix(g2, 1) == g1 && ctx_prefix(g2, 0) == CTX_EMPTY);
  CHECK(ctx_prefix(CTX_EMPTY, 0) == CTX_EMPTY && ctx_prefix(3, 1) == g1);
  CHECK(ctx_prefix(g2, 3) == CHAD_E_ARG && ctx_prefix(g2, -1) == CHAD_E_ARG);
  CHECK(ctx_prefix(-1, 0) == CHAD_E_ARG && ctx_prefix(ctx_count, 0) == CHAD_E_ARG);
  int n = ctx_count;
  CHECK(ctx_extend(-1, 0) == CHAD_E_ARG && ctx_count == n);
  int g = CTX_EMPTY, r = 0;
  while ((r = ctx_extend(g, TY_ID_UNIT)) >= 0)
    g = r;
  CHECK(r == CHAD_E_CAPACITY && ctx_count == CHAD_MAX_CTXS);
  CHECK(ctx_lookup(g, ctx_length(g) - 1) == TY_ID_UNIT);
  CHECK(ctx_extend(g1, TY_ID_INT) == g2); /* found although full */
}

static void ops(void)
{
  printf("ops: registration, alternatives, capacity\n");
  ty_init();
  op_init();
  int rr = ty_prod(TY_ID_REAL, TY_ID_REAL), ii = ty_prod(TY_ID_INT, TY_ID_INT);
  int add = op_register(rr, TY_ID_REAL, rr, TY_ID_REAL);
  /* T(Int * Int) = Unit * Unit, T Int = Unit */
  int uu = ty_prod(TY_ID_UNIT, TY_ID_UNIT);
  int iadd = op_register(ii, TY_ID_INT, uu, TY_ID_UNIT);
  CHECK(add == 0 && iadd == 1 && op_count == 2);
  /* the tangent signature must be T of the signature (T Int = Unit,
   * T(a + b) = Ta * Tb), and the signature first-order */
  CHECK(ty_is_tangent(ii, uu) == 1 && ty_is_tangent(rr, rr) == 1 && ty_is_tangent(ii, TY_ID_UNIT) == 0);
  CHECK(ty_is_tangent(ty_sum(TY_ID_UNIT, TY_ID_UNIT), uu) == 1);
  CHECK(ty_is_tangent(ty_sum(TY_ID_UNIT, TY_ID_UNIT), ty_sum(TY_ID_UNIT, TY_ID_UNIT)) == 0);
  CHECK(ty_is_tangent(ty_arr(rr), ty_arr(rr)) == 1 && ty_is_tangent(ty_arr(ii), ty_arr(ii)) == 0);
  CHECK(ty_is_tangent(ty_fun(TY_ID_REAL, TY_ID_REAL), ty_fun(TY_ID_REAL, TY_ID_REAL)) == 0);
  CHECK(op_register(ii, TY_ID_INT, TY_ID_UNIT, TY_ID_UNIT) == CHAD_E_ARG);
  CHECK(op_register(TY_ID_INT, TY_ID_REAL, TY_ID_UNIT, TY_ID_UNIT) == CHAD_E_ARG);
  CHECK(op_register(ty_fun(TY_ID_REAL, TY_ID_REAL), TY_ID_REAL,
                    ty_fun(TY_ID_REAL, TY_ID_REAL), TY_ID_REAL) == CHAD_E_ARG);
  CHECK(op_count == 2);
  CHECK(op_alt_[add] == -1 && op_dom_[iadd] == ii && op_tcod_[add] == TY_ID_REAL);
  CHECK(op_set_alt(add, iadd) == 0 && op_alt_[add] == iadd);
  CHECK(op_set_alt(add, 7) == CHAD_E_ARG && op_set_alt(5, 0) == CHAD_E_ARG);
  /* the first id past the last operation, as either argument, is none */
  CHECK(op_set_alt(add, op_count) == CHAD_E_ARG && op_set_alt(op_count, add) == CHAD_E_ARG);
  CHECK(op_set_alt(add, add) == CHAD_E_ARG);
  CHECK(op_set_alt(add, -2) == CHAD_E_ARG && op_alt_[add] == iadd); /* -1 (none) is the least */
  CHECK(op_set_alt(add, -1) == 0 && op_alt_[add] == -1);            /* ... and is accepted */
  CHECK(op_set_alt(add, iadd) == 0 && op_alt_[add] == iadd);
  CHECK(op_register(-1, 0, 0, 0) == CHAD_E_ARG && op_register(0, 0, 0, ty_count) == CHAD_E_ARG);
  CHECK(op_count == 2);
  while (op_count < CHAD_MAX_OPS)
    CHECK(op_register(0, 0, 0, 0) >= 0);
  CHECK(op_register(0, 0, 0, 0) == CHAD_E_CAPACITY && op_count == CHAD_MAX_OPS);
}

int main(void)
{
  types();
  type_capacity();
  contexts();
  ops();
  printf("test_kernel_types: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
