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

/* ty_tan_[t]: the id of T t (= C t, rules card §3) for a first-order type
 * t whose tangent type ty_is_tangent has met (so every primitive's domain
 * and codomain, op_inv), else -1. Defined entry by entry from the
 * children's entries (ty_tan_ok, quantified in ty_inv), like ty_lin_, so
 * that appending a type keeps it; an entry is only ever set from -1 to its
 * one possible value. */
/*@ ghost extern int ty_tan_[CHAD_MAX_TYPES]; */

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

  // The tangent s of a triple from its children's tangents: Real -> Real,
  // Int, Unit -> Unit, Arr a -> Arr Ta, a * b and a + b -> Ta * Tb.
  predicate ty_tan_rule(integer k, integer l, integer r, integer s) =
    (k == TY_REAL && s == TY_ID_REAL) ||
    ((k == TY_INT || k == TY_UNIT) && s == TY_ID_UNIT) ||
    (k == TY_ARR && 0 <= ty_tan_[l] && ty_kind_[s] == TY_ARR &&
      ty_left_[s] == ty_tan_[l] && ty_right_[s] == -1) ||
    ((k == TY_PROD || k == TY_SUM) && 0 <= ty_tan_[l] && 0 <= ty_tan_[r] &&
      ty_kind_[s] == TY_PROD && ty_left_[s] == ty_tan_[l] && ty_right_[s] == ty_tan_[r]);
  predicate ty_tan_ok(integer i) =
    ty_tan_[i] == -1 ||
    (0 <= ty_tan_[i] < ty_count && ty_tan_rule(ty_kind_[i], ty_left_[i], ty_right_[i], ty_tan_[i]));

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
    // Its own quantifier, not a conjunct of ty_node_ok, which the proofs
    // name at many points: inside it, every such instance carries the
    // tangent rule, and rules goals that frame type facts across a call
    // then fail (Z3 runs out of memory). Apart it still weighs on goals
    // that carry ty_inv (terms.c's tm_mkty states kernel_inv in parts for
    // it).
    (\forall integer i; 0 <= i < ty_count ==> ty_tan_ok(i)) &&
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

  // s is the tangent type of the first-order type t (rules card §3; on
  // first-order types T and C agree): Real -> Real, Int and Unit -> Unit,
  // a * b and a + b -> Ta * Tb, Arr a -> Arr Ta. The recursion goes to
  // strictly smaller t (the guards).
  predicate fo_tan(integer t, integer s) =
    0 <= t < ty_count && 0 <= s < ty_count &&
    ((ty_kind_[t] == TY_REAL && s == TY_ID_REAL) ||
     (ty_kind_[t] == TY_INT && s == TY_ID_UNIT) ||
     (ty_kind_[t] == TY_UNIT && s == TY_ID_UNIT) ||
     (ty_kind_[t] == TY_ARR && ty_kind_[s] == TY_ARR && ty_right_[s] == -1 &&
      0 <= ty_left_[t] < t && fo_tan(ty_left_[t], ty_left_[s])) ||
     ((ty_kind_[t] == TY_PROD || ty_kind_[t] == TY_SUM) && ty_kind_[s] == TY_PROD &&
      0 <= ty_left_[t] < t && 0 <= ty_right_[t] < t &&
      fo_tan(ty_left_[t], ty_left_[s]) && fo_tan(ty_right_[t], ty_right_[s])));

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

  // g less its last k entries; d extends p when p is d less its last
  // len(d) - len(p) entries.
  logic integer ctx_drop(integer g, integer k) =
    (g <= 0 || k <= 0) ? g :
    (0 <= ctx_parent_[g] < g ? ctx_drop(ctx_parent_[g], k - 1) : g);
  predicate ctx_extends(integer d, integer p) =
    ctx_valid(d) && ctx_valid(p) && ctx_len_[p] <= ctx_len_[d] &&
    ctx_drop(d, ctx_len_[d] - ctx_len_[p]) == p;

  // ======================= primitive ops ===============================
  predicate op_inv =
    0 <= op_count <= CHAD_MAX_OPS &&
    \forall integer o; 0 <= o < op_count ==>
      ty_valid(op_dom_[o]) && ty_valid(op_cod_[o]) &&
      ty_valid(op_tdom_[o]) && ty_valid(op_tcod_[o]) &&
      // the tangent signature is T of the signature, which is first-order
      // (op_register checks it): P, T and C of it are the table's own types
      ty_tan_[op_dom_[o]] == op_tdom_[o] && ty_tan_[op_cod_[o]] == op_tcod_[o] &&
      -1 <= op_alt_[o] < op_count;

  // ======================= terms =======================================
  predicate tm_valid(integer t) = 0 <= t < tm_count;

  // Acceptance conditions of the constructors, on the stored fields of
  // their arguments (context gX and type tX of child X). node_fields_ok
  // below uses the same predicates on a stored node's children, so the
  // constructor contracts and the arena invariant state one rule.
  predicate let_ok(integer ga, integer ta, integer gb) = ctx_is_ext(gb, ga, ta);
  predicate lam_ok(integer dom, integer gb) =
    0 < gb < ctx_count && ctx_type_[gb] == dom;
  predicate llam_ok(integer dom, integer gb, integer tb) =
    lam_ok(dom, gb) && lin(tb);
  predicate app_ok(integer k, integer gf, integer tf, integer gx, integer tx) =
    gf == gx && ty_valid(tf) && ty_kind_[tf] == k && ty_left_[tf] == tx;
  predicate cps_ok(integer ga, integer gb, integer tb) = ga == gb && lin(tb);
  predicate proj_ok(integer tp) = ty_valid(tp) && ty_kind_[tp] == TY_PROD;
  predicate case_ok(integer gs, integer ts, integer gl, integer tl,
                    integer gr, integer tr) =
    ty_valid(ts) && ty_kind_[ts] == TY_SUM &&
    ctx_is_ext(gl, gs, ty_left_[ts]) && ctx_is_ext(gr, gs, ty_right_[ts]) &&
    tl == tr;
  predicate op_ok(integer o, integer ta) = 0 <= o < op_count && ta == op_dom_[o];
  predicate iter_ok(integer gn, integer tn, integer gb, integer tb,
                    integer gi, integer ti) =
    tn == TY_ID_INT && gi == gn && ctx_is_ext(gb, gn, ti) && tb == ti;
  // loop n (x. b) s: b in (G, tau) has type tau + tau
  predicate loop_ok(integer gn, integer tn, integer gb, integer tb,
                    integer gi, integer ti) =
    tn == TY_ID_INT && gi == gn && ctx_is_ext(gb, gn, ti) &&
    ty_valid(tb) && ty_kind_[tb] == TY_SUM && ty_left_[tb] == ti && ty_right_[tb] == ti;
  predicate build_ok(integer gn, integer tn, integer gb) =
    tn == TY_ID_INT && ctx_is_ext(gb, gn, TY_ID_INT);
  predicate lsum_ok(integer gn, integer tn, integer gb, integer tb) =
    build_ok(gn, tn, gb) && lin(tb);
  predicate arr_ok(integer ta) = ty_valid(ta) && ty_kind_[ta] == TY_ARR;
  predicate index_ok(integer ga, integer ta, integer gi, integer ti) =
    arr_ok(ta) && ti == TY_ID_INT && ga == gi;
  predicate map_ok(integer gb, integer ga, integer ta) =
    arr_ok(ta) && ctx_is_ext(gb, ga, ty_left_[ta]);
  predicate sum_ok(integer ta) = arr_ok(ta) && ty_left_[ta] == TY_ID_REAL;
  predicate plus_ok(integer ga, integer ta, integer gb, integer tb) =
    ga == gb && ta == tb && lin(ta);
  predicate cpfold_ok(integer gbag, integer tbag, integer gb, integer tb) =
    ty_valid(tbag) && ty_kind_[tbag] == TY_COPOW &&
    0 < gb < ctx_count && ctx_type_[gb] == ty_right_[tbag] &&
    ctx_is_ext(ctx_parent_[gb], gbag, ty_left_[tbag]) && lin(tb);
  predicate lopd_ok(integer o, integer gx, integer tx, integer gd, integer td) =
    0 <= o < op_count && gx == gd && tx == op_dom_[o] && td == op_tdom_[o];
  predicate lopdt_ok(integer o, integer gx, integer tx, integer gd, integer td) =
    0 <= o < op_count && gx == gd && tx == op_dom_[o] && td == op_tcod_[o];
  predicate onehot_ok(integer gj, integer tj, integer gv, integer tv) =
    gj == gv && tj == TY_ID_INT && lin(tv);

  // Children present (at smaller indices than i) or absent (-1).
  predicate ch0(integer i, integer a, integer b, integer c) =
    a == -1 && b == -1 && c == -1;
  predicate ch1(integer i, integer a, integer b, integer c) =
    0 <= a < i && b == -1 && c == -1;
  predicate ch2(integer i, integer a, integer b, integer c) =
    0 <= a < i && 0 <= b < i && c == -1;
  predicate ch3(integer i, integer a, integer b, integer c) =
    0 <= a < i && 0 <= b < i && 0 <= c < i;

  // The typing rule of a node stored at index i with kind k, context g,
  // type t, children a b c (whose contexts and types are ga ta, gb tb,
  // gc tc) and aux x. It reads the term arena only through its arguments:
  // a LOCAL rule, which appending nodes cannot disturb.
  predicate node_fields_ok(integer i, integer k, integer g, integer t,
                           integer a, integer b, integer c, integer x,
                           integer ga, integer ta, integer gb, integer tb,
                           integer gc, integer tc) =
    ctx_valid(g) && ty_valid(t) && 0 <= k < TM_NKINDS &&
    (k == TM_VAR ==> ch0(i, a, b, c) && 0 <= x < ctx_len_[g] && t == ctx_lk(g, x)) &&
    (k == TM_LET ==> ch2(i, a, b, c) && x == 0 && let_ok(ga, ta, gb) && g == ga && t == tb) &&
    (k == TM_LAM ==> ch1(i, a, b, c) && x == 0 && lam_ok(ty_left_[t], ga) &&
       g == ctx_parent_[ga] && ty_kind_[t] == TY_FUN && ty_right_[t] == ta) &&
    (k == TM_APP ==> ch2(i, a, b, c) && x == 0 && app_ok(TY_FUN, ga, ta, gb, tb) &&
       g == ga && t == ty_right_[ta]) &&
    (k == TM_UNIT ==> ch0(i, a, b, c) && x == 0 && t == TY_ID_UNIT) &&
    (k == TM_PAIR ==> ch2(i, a, b, c) && x == 0 && ga == gb && g == ga &&
       ty_same(t, TY_PROD, ta, tb)) &&
    (k == TM_FST ==> ch1(i, a, b, c) && x == 0 && proj_ok(ta) && g == ga &&
       t == ty_left_[ta]) &&
    (k == TM_SND ==> ch1(i, a, b, c) && x == 0 && proj_ok(ta) && g == ga &&
       t == ty_right_[ta]) &&
    (k == TM_INL ==> ch1(i, a, b, c) && x == 0 && g == ga &&
       ty_kind_[t] == TY_SUM && ty_left_[t] == ta) &&
    (k == TM_INR ==> ch1(i, a, b, c) && x == 0 && g == ga &&
       ty_kind_[t] == TY_SUM && ty_right_[t] == ta) &&
    (k == TM_CASE ==> ch3(i, a, b, c) && x == 0 && case_ok(ga, ta, gb, tb, gc, tc) &&
       g == ga && t == tb) &&
    (k == TM_RCONST ==> ch0(i, a, b, c) && x == 0 && t == TY_ID_REAL) &&
    (k == TM_ICONST ==> ch0(i, a, b, c) && t == TY_ID_INT) &&
    (k == TM_OP ==> ch1(i, a, b, c) && op_ok(x, ta) && g == ga && t == op_cod_[x]) &&
    (k == TM_ITER ==> ch3(i, a, b, c) && x == 0 && iter_ok(ga, ta, gb, tb, gc, tc) &&
       g == ga && t == tc) &&
    (k == TM_LOOP ==> ch3(i, a, b, c) && x == 0 && loop_ok(ga, ta, gb, tb, gc, tc) &&
       g == ga && t == tc) &&
    (k == TM_BUILD ==> ch2(i, a, b, c) && x == 0 && build_ok(ga, ta, gb) && g == ga &&
       ty_same(t, TY_ARR, tb, -1)) &&
    (k == TM_INDEX ==> ch2(i, a, b, c) && x == 0 && index_ok(ga, ta, gb, tb) && g == ga &&
       t == ty_left_[ta]) &&
    (k == TM_LENGTH ==> ch1(i, a, b, c) && x == 0 && arr_ok(ta) && g == ga &&
       t == TY_ID_INT) &&
    (k == TM_MAP ==> ch2(i, a, b, c) && x == 0 && map_ok(ga, gb, tb) && g == gb &&
       ty_same(t, TY_ARR, ta, -1)) &&
    (k == TM_SUM ==> ch1(i, a, b, c) && x == 0 && sum_ok(ta) && g == ga &&
       t == TY_ID_REAL) &&
    (k == TM_ZERO ==> ch0(i, a, b, c) && x == 0 && lin(t)) &&
    (k == TM_PLUS ==> ch2(i, a, b, c) && x == 0 && plus_ok(ga, ta, gb, tb) && g == ga &&
       t == ta) &&
    (k == TM_LLAM ==> ch1(i, a, b, c) && x == 0 && llam_ok(ty_left_[t], ga, ta) &&
       g == ctx_parent_[ga] && ty_kind_[t] == TY_LFUN && ty_right_[t] == ta) &&
    (k == TM_LAPP ==> ch2(i, a, b, c) && x == 0 && app_ok(TY_LFUN, ga, ta, gb, tb) &&
       g == ga && t == ty_right_[ta]) &&
    (k == TM_CP_SINGLE ==> ch2(i, a, b, c) && x == 0 && cps_ok(ga, gb, tb) && g == ga &&
       ty_same(t, TY_COPOW, ta, tb)) &&
    (k == TM_CP_FOLD ==> ch2(i, a, b, c) && x == 0 && cpfold_ok(ga, ta, gb, tb) &&
       g == ga && t == tb) &&
    (k == TM_LSUM ==> ch2(i, a, b, c) && x == 0 && lsum_ok(ga, ta, gb, tb) && g == ga &&
       t == tb) &&
    (k == TM_LOP_D ==> ch2(i, a, b, c) && lopd_ok(x, ga, ta, gb, tb) && g == ga &&
       t == op_tcod_[x]) &&
    (k == TM_LOP_DT ==> ch2(i, a, b, c) && lopdt_ok(x, ga, ta, gb, tb) && g == ga &&
       t == op_tdom_[x]) &&
    (k == TM_ONEHOT ==> ch2(i, a, b, c) && x == 0 && onehot_ok(ga, ta, gb, tb) &&
       g == ga && ty_same(t, TY_ARR, tb, -1));

  // Where a node's children are: absent or below it.
  predicate node_links(integer i) =
    -1 <= tm_a_[i] < i && -1 <= tm_b_[i] < i && -1 <= tm_c_[i] < i;

  predicate node_ok(integer i) =
    node_links(i) &&
    node_fields_ok(i, tm_kind_[i], tm_ctx_[i], tm_ty_[i],
                   tm_a_[i], tm_b_[i], tm_c_[i], tm_aux_[i],
                   tm_ctx_[tm_a_[i]], tm_ty_[tm_a_[i]],
                   tm_ctx_[tm_b_[i]], tm_ty_[tm_b_[i]],
                   tm_ctx_[tm_c_[i]], tm_ty_[tm_c_[i]]);

  // The cheap part of node_ok, kept apart so that provers need not unfold
  // the typing rule to learn that a node's context and type exist.
  predicate tm_wf(integer i) =
    ctx_valid(tm_ctx_[i]) && ty_valid(tm_ty_[i]) && node_links(i);

  predicate tm_inv =
    0 <= tm_count <= CHAD_MAX_TERMS &&
    (\forall integer i; 0 <= i < tm_count ==> tm_wf(i)) &&
    (\forall integer i; 0 <= i < tm_count ==> node_ok(i));

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
