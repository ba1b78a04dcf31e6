/* ACSL specification of the kernel (Frama-C/WP, see proofs/README.md and
 * spec/kernel.md). For the C compiler this file is only comments.
 *
 * Every table has a LOCAL invariant: a predicate on one entry against
 * entries at smaller indices (its children), quantified over the table.
 * Appending an entry preserves such an invariant without induction; where a
 * recursive logic definition must survive an append (ctx_lk), a ghost loop
 * does the induction (contexts.c). */
#ifndef CHAD_KERNEL_SPEC_H
#define CHAD_KERNEL_SPEC_H

#include "chad/kernel.h"

/* ty_lin_[t] == 1 iff type t is linear (has zero and plus, rules card §2).
 * A ghost column of the type table, defined entry by entry from the
 * children's column (ty_node_ok), so that appending a type cannot change it
 * for older types. ty_is_linear computes it. */
/*@ ghost extern int ty_lin_[CHAD_MAX_TYPES]; */

/*@
  // ======================= types =======================================
  predicate ty_valid(integer t) = 0 <= t < ty_count;

  predicate ty_base(integer k) = k == TY_REAL || k == TY_INT || k == TY_UNIT;
  predicate ty_binary(integer k) =
    k == TY_PROD || k == TY_SUM || k == TY_FUN || k == TY_LFUN || k == TY_COPOW;

  // The shape of a triple (kind, left, right) stored at index n: children
  // exist at smaller indices, unused children are -1.
  predicate ty_shape(integer k, integer l, integer r, integer n) =
    (ty_base(k) && l == -1 && r == -1) ||
    (k == TY_ARR && 0 <= l < n && r == -1) ||
    (ty_binary(k) && 0 <= l < n && 0 <= r < n);

  // Linearity of a triple from its children's linearity (rules card §2):
  // Real, Unit, L*L, Arr L, tau -> L, L -o L, !tau (x) L.
  predicate ty_lin_rule(integer k, integer l, integer r) =
    k == TY_REAL || k == TY_UNIT ||
    (k == TY_ARR && ty_lin_[l] == 1) ||
    (k == TY_PROD && ty_lin_[l] == 1 && ty_lin_[r] == 1) ||
    ((k == TY_FUN || k == TY_LFUN || k == TY_COPOW) && ty_lin_[r] == 1);

  predicate ty_node_ok(integer i) =
    ty_shape(ty_kind_[i], ty_left_[i], ty_right_[i], i) &&
    (ty_lin_[i] == 0 || ty_lin_[i] == 1) &&
    (ty_lin_[i] == 1 <==> ty_lin_rule(ty_kind_[i], ty_left_[i], ty_right_[i]));

  predicate ty_same(integer i, integer k, integer l, integer r) =
    ty_kind_[i] == k && ty_left_[i] == l && ty_right_[i] == r;

  // Hash-consing: no triple is stored twice.
  predicate ty_unique =
    \forall integer i, j; 0 <= i < j < ty_count ==>
      !ty_same(j, ty_kind_[i], ty_left_[i], ty_right_[i]);

  predicate ty_inv =
    3 <= ty_count <= CHAD_MAX_TYPES &&
    ty_same(TY_ID_REAL, TY_REAL, -1, -1) && ty_same(TY_ID_INT, TY_INT, -1, -1) &&
    ty_same(TY_ID_UNIT, TY_UNIT, -1, -1) &&
    (\forall integer i; 0 <= i < ty_count ==> ty_node_ok(i)) &&
    ty_unique;

  predicate lin(integer t) = ty_valid(t) && ty_lin_[t] == 1;

  // Structural equality of two types of the table (recursive; the guards
  // make the recursion go to strictly smaller indices).
  predicate ty_seq(integer a, integer b) =
    0 <= a < ty_count && 0 <= b < ty_count && ty_kind_[a] == ty_kind_[b] &&
    ((0 <= ty_left_[a] < a && 0 <= ty_left_[b] < b) ?
        ty_seq(ty_left_[a], ty_left_[b]) : ty_left_[a] == ty_left_[b]) &&
    ((0 <= ty_right_[a] < a && 0 <= ty_right_[b] < b) ?
        ty_seq(ty_right_[a], ty_right_[b]) : ty_right_[a] == ty_right_[b]);

  // First-order types: no ->, -o or copower inside.
  predicate ty_fo(integer t) =
    0 <= t < ty_count &&
    (ty_base(ty_kind_[t]) ||
     (ty_kind_[t] == TY_ARR && 0 <= ty_left_[t] < t && ty_fo(ty_left_[t])) ||
     ((ty_kind_[t] == TY_PROD || ty_kind_[t] == TY_SUM) &&
      0 <= ty_left_[t] < t && 0 <= ty_right_[t] < t &&
      ty_fo(ty_left_[t]) && ty_fo(ty_right_[t])));

  // Source types (rules card §1): no -o or copower, arrays of first-order
  // elements only.
  predicate ty_src(integer t) =
    0 <= t < ty_count &&
    (ty_base(ty_kind_[t]) ||
     (ty_kind_[t] == TY_ARR && 0 <= ty_left_[t] < t && ty_fo(ty_left_[t])) ||
     ((ty_kind_[t] == TY_PROD || ty_kind_[t] == TY_SUM || ty_kind_[t] == TY_FUN) &&
      0 <= ty_left_[t] < t && 0 <= ty_right_[t] < t &&
      ty_src(ty_left_[t]) && ty_src(ty_right_[t])));

  // ======================= contexts ====================================
  predicate ctx_valid(integer g) = 0 <= g < ctx_count;

  predicate ctx_node_ok(integer i) =
    0 <= ctx_parent_[i] < i && 0 <= ctx_type_[i] < ty_count &&
    ctx_len_[i] == ctx_len_[ctx_parent_[i]] + 1 && 0 < ctx_len_[i] <= i;

  predicate ctx_unique =
    \forall integer i, j; 0 < i < j < ctx_count ==>
      !(ctx_parent_[i] == ctx_parent_[j] && ctx_type_[i] == ctx_type_[j]);

  predicate ctx_inv =
    1 <= ctx_count <= CHAD_MAX_CTXS &&
    ctx_parent_[0] == -1 && ctx_type_[0] == -1 && ctx_len_[0] == 0 &&
    (\forall integer i; 0 < i < ctx_count ==> ctx_node_ok(i)) &&
    ctx_unique;

  // e is the context (g, t)
  predicate ctx_is_ext(integer e, integer g, integer t) =
    0 < e < ctx_count && ctx_parent_[e] == g && ctx_type_[e] == t;

  // Type of de Bruijn variable k in g (-1 when there is none).
  logic integer ctx_lk(integer g, integer k) =
    (g <= 0 || k < 0) ? -1 :
    k == 0 ? ctx_type_[g] :
    (0 <= ctx_parent_[g] < g ? ctx_lk(ctx_parent_[g], k - 1) : -1);

  // ======================= primitive ops ===============================
  predicate op_inv =
    0 <= op_count <= CHAD_MAX_OPS &&
    \forall integer o; 0 <= o < op_count ==>
      ty_valid(op_dom_[o]) && ty_valid(op_cod_[o]) &&
      ty_valid(op_tdom_[o]) && ty_valid(op_tcod_[o]) &&
      -1 <= op_alt_[o] < op_count;

  // ======================= terms =======================================
  predicate tm_valid(integer t) = 0 <= t < tm_count;

  // Acceptance conditions of the constructors, on their arguments (which
  // are existing nodes, types, ops). node_ok below uses the same predicates
  // on a stored node's children.
  predicate let_ok(integer a, integer b) =
    ctx_is_ext(tm_ctx_[b], tm_ctx_[a], tm_ty_[a]);
  predicate lam_ok(integer dom, integer body) =
    0 < tm_ctx_[body] < ctx_count && ctx_type_[tm_ctx_[body]] == dom;
  predicate llam_ok(integer dom, integer body) =
    lam_ok(dom, body) && lin(tm_ty_[body]);
  predicate app_ok(integer k, integer f, integer x) =
    tm_ctx_[f] == tm_ctx_[x] && ty_valid(tm_ty_[f]) &&
    ty_kind_[tm_ty_[f]] == k && ty_left_[tm_ty_[f]] == tm_ty_[x];
  predicate same_ctx(integer a, integer b) = tm_ctx_[a] == tm_ctx_[b];
  predicate cps_ok(integer a, integer b) = same_ctx(a, b) && lin(tm_ty_[b]);
  predicate proj_ok(integer p) =
    ty_valid(tm_ty_[p]) && ty_kind_[tm_ty_[p]] == TY_PROD;
  predicate case_ok(integer s, integer l, integer r) =
    ty_valid(tm_ty_[s]) && ty_kind_[tm_ty_[s]] == TY_SUM &&
    ctx_is_ext(tm_ctx_[l], tm_ctx_[s], ty_left_[tm_ty_[s]]) &&
    ctx_is_ext(tm_ctx_[r], tm_ctx_[s], ty_right_[tm_ty_[s]]) &&
    tm_ty_[l] == tm_ty_[r];
  predicate op_ok(integer o, integer a) =
    0 <= o < op_count && tm_ty_[a] == op_dom_[o];
  predicate iter_ok(integer n, integer body, integer init) =
    tm_ty_[n] == TY_ID_INT && tm_ctx_[init] == tm_ctx_[n] &&
    ctx_is_ext(tm_ctx_[body], tm_ctx_[n], tm_ty_[init]) &&
    tm_ty_[body] == tm_ty_[init];
  predicate build_ok(integer n, integer body) =
    tm_ty_[n] == TY_ID_INT && ctx_is_ext(tm_ctx_[body], tm_ctx_[n], TY_ID_INT);
  predicate lsum_ok(integer n, integer body) =
    build_ok(n, body) && lin(tm_ty_[body]);
  predicate arr_ok(integer a) =
    ty_valid(tm_ty_[a]) && ty_kind_[tm_ty_[a]] == TY_ARR;
  predicate index_ok(integer a, integer i) =
    arr_ok(a) && tm_ty_[i] == TY_ID_INT && same_ctx(a, i);
  predicate map_ok(integer body, integer arr) =
    arr_ok(arr) && ctx_is_ext(tm_ctx_[body], tm_ctx_[arr], ty_left_[tm_ty_[arr]]);
  predicate sum_ok(integer a) = arr_ok(a) && ty_left_[tm_ty_[a]] == TY_ID_REAL;
  predicate plus_ok(integer a, integer b) =
    same_ctx(a, b) && tm_ty_[a] == tm_ty_[b] && lin(tm_ty_[a]);
  predicate cpfold_ok(integer bag, integer body) =
    ty_valid(tm_ty_[bag]) && ty_kind_[tm_ty_[bag]] == TY_COPOW &&
    0 < tm_ctx_[body] < ctx_count &&
    ctx_type_[tm_ctx_[body]] == ty_right_[tm_ty_[bag]] &&
    ctx_is_ext(ctx_parent_[tm_ctx_[body]], tm_ctx_[bag], ty_left_[tm_ty_[bag]]) &&
    lin(tm_ty_[body]);
  predicate lopd_ok(integer o, integer x, integer d) =
    0 <= o < op_count && same_ctx(x, d) &&
    tm_ty_[x] == op_dom_[o] && tm_ty_[d] == op_tdom_[o];
  predicate lopdt_ok(integer o, integer x, integer d) =
    0 <= o < op_count && same_ctx(x, d) &&
    tm_ty_[x] == op_dom_[o] && tm_ty_[d] == op_tcod_[o];
  predicate onehot_ok(integer j, integer v) =
    same_ctx(j, v) && tm_ty_[j] == TY_ID_INT && lin(tm_ty_[v]);

  // Children present (at smaller indices) or absent (-1).
  predicate ch1(integer i) =
    0 <= tm_a_[i] < i && tm_b_[i] == -1 && tm_c_[i] == -1;
  predicate ch2(integer i) =
    0 <= tm_a_[i] < i && 0 <= tm_b_[i] < i && tm_c_[i] == -1;
  predicate ch3(integer i) =
    0 <= tm_a_[i] < i && 0 <= tm_b_[i] < i && 0 <= tm_c_[i] < i;
  predicate ch0(integer i) =
    tm_a_[i] == -1 && tm_b_[i] == -1 && tm_c_[i] == -1;

  // The typing rule of node i, against its children's stored fields only.
  predicate node_ok(integer i) =
    ctx_valid(tm_ctx_[i]) && ty_valid(tm_ty_[i]) &&
    \let k = tm_kind_[i]; \let g = tm_ctx_[i]; \let t = tm_ty_[i];
    \let a = tm_a_[i]; \let b = tm_b_[i]; \let c = tm_c_[i];
    \let x = tm_aux_[i];
    (k == TM_VAR ==> ch0(i) && 0 <= x < ctx_len_[g] && t == ctx_lk(g, x)) &&
    (k == TM_LET ==> ch2(i) && x == 0 && let_ok(a, b) && g == tm_ctx_[a] && t == tm_ty_[b]) &&
    (k == TM_LAM ==> ch1(i) && x == 0 && lam_ok(ty_left_[t], a) &&
       g == ctx_parent_[tm_ctx_[a]] && ty_kind_[t] == TY_FUN && ty_right_[t] == tm_ty_[a]) &&
    (k == TM_APP ==> ch2(i) && x == 0 && app_ok(TY_FUN, a, b) && g == tm_ctx_[a] &&
       t == ty_right_[tm_ty_[a]]) &&
    (k == TM_UNIT ==> ch0(i) && x == 0 && t == TY_ID_UNIT) &&
    (k == TM_PAIR ==> ch2(i) && x == 0 && same_ctx(a, b) && g == tm_ctx_[a] &&
       ty_same(t, TY_PROD, tm_ty_[a], tm_ty_[b])) &&
    (k == TM_FST ==> ch1(i) && x == 0 && proj_ok(a) && g == tm_ctx_[a] &&
       t == ty_left_[tm_ty_[a]]) &&
    (k == TM_SND ==> ch1(i) && x == 0 && proj_ok(a) && g == tm_ctx_[a] &&
       t == ty_right_[tm_ty_[a]]) &&
    (k == TM_INL ==> ch1(i) && x == 0 && g == tm_ctx_[a] &&
       ty_kind_[t] == TY_SUM && ty_left_[t] == tm_ty_[a]) &&
    (k == TM_INR ==> ch1(i) && x == 0 && g == tm_ctx_[a] &&
       ty_kind_[t] == TY_SUM && ty_right_[t] == tm_ty_[a]) &&
    (k == TM_CASE ==> ch3(i) && x == 0 && case_ok(a, b, c) && g == tm_ctx_[a] &&
       t == tm_ty_[b]) &&
    (k == TM_RCONST ==> ch0(i) && x == 0 && t == TY_ID_REAL) &&
    (k == TM_ICONST ==> ch0(i) && t == TY_ID_INT) &&
    (k == TM_OP ==> ch1(i) && op_ok(x, a) && g == tm_ctx_[a] && t == op_cod_[x]) &&
    (k == TM_ITER ==> ch3(i) && x == 0 && iter_ok(a, b, c) && g == tm_ctx_[a] &&
       t == tm_ty_[c]) &&
    (k == TM_BUILD ==> ch2(i) && x == 0 && build_ok(a, b) && g == tm_ctx_[a] &&
       ty_same(t, TY_ARR, tm_ty_[b], -1)) &&
    (k == TM_INDEX ==> ch2(i) && x == 0 && index_ok(a, b) && g == tm_ctx_[a] &&
       t == ty_left_[tm_ty_[a]]) &&
    (k == TM_LENGTH ==> ch1(i) && x == 0 && arr_ok(a) && g == tm_ctx_[a] &&
       t == TY_ID_INT) &&
    (k == TM_MAP ==> ch2(i) && x == 0 && map_ok(a, b) && g == tm_ctx_[b] &&
       ty_same(t, TY_ARR, tm_ty_[a], -1)) &&
    (k == TM_SUM ==> ch1(i) && x == 0 && sum_ok(a) && g == tm_ctx_[a] &&
       t == TY_ID_REAL) &&
    (k == TM_ZERO ==> ch0(i) && x == 0 && lin(t)) &&
    (k == TM_PLUS ==> ch2(i) && x == 0 && plus_ok(a, b) && g == tm_ctx_[a] &&
       t == tm_ty_[a]) &&
    (k == TM_LLAM ==> ch1(i) && x == 0 && llam_ok(ty_left_[t], a) &&
       g == ctx_parent_[tm_ctx_[a]] && ty_kind_[t] == TY_LFUN && ty_right_[t] == tm_ty_[a]) &&
    (k == TM_LAPP ==> ch2(i) && x == 0 && app_ok(TY_LFUN, a, b) && g == tm_ctx_[a] &&
       t == ty_right_[tm_ty_[a]]) &&
    (k == TM_CP_SINGLE ==> ch2(i) && x == 0 && cps_ok(a, b) && g == tm_ctx_[a] &&
       ty_same(t, TY_COPOW, tm_ty_[a], tm_ty_[b])) &&
    (k == TM_CP_FOLD ==> ch2(i) && x == 0 && cpfold_ok(a, b) && g == tm_ctx_[a] &&
       t == tm_ty_[b]) &&
    (k == TM_LSUM ==> ch2(i) && x == 0 && lsum_ok(a, b) && g == tm_ctx_[a] &&
       t == tm_ty_[b]) &&
    (k == TM_LOP_D ==> ch2(i) && lopd_ok(x, a, b) && g == tm_ctx_[a] &&
       t == op_tcod_[x]) &&
    (k == TM_LOP_DT ==> ch2(i) && lopdt_ok(x, a, b) && g == tm_ctx_[a] &&
       t == op_tdom_[x]) &&
    (k == TM_ONEHOT ==> ch2(i) && x == 0 && onehot_ok(a, b) && g == tm_ctx_[a] &&
       ty_same(t, TY_ARR, tm_ty_[b], -1)) &&
    0 <= k < TM_NKINDS;

  predicate tm_inv =
    0 <= tm_count <= CHAD_MAX_TERMS &&
    \forall integer i; 0 <= i < tm_count ==> node_ok(i);

  predicate kernel_inv = ty_inv && ctx_inv && op_inv && tm_inv;

  // ======================= raw terms ===================================
  predicate raw_kind_ok(integer k) = (TM_VAR <= k <= TM_SUM) || k == RAW_ANN;
  predicate raw_child_ok(integer x, integer n) = -1 <= x < n;
  predicate raw_node_ok(integer i) =
    raw_kind_ok(raw_kind_[i]) && raw_child_ok(raw_a_[i], i) &&
    raw_child_ok(raw_b_[i], i) && raw_child_ok(raw_c_[i], i) &&
    -1 <= raw_ty_[i];
  predicate raw_inv =
    0 <= raw_count <= CHAD_MAX_RAW &&
    \forall integer i; 0 <= i < raw_count ==> raw_node_ok(i);
*/

#endif
