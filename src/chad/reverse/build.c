/* R(build n (i.b))  = let (m,_) = R n; f = \i. R_{G,i} b; ps = build m (i. f i) in
 *                   (build m (i. fst ps[i]), \v. lsum m (i. fst ((snd ps[i]) v[i])))
 * (../shared/chad-rules.md, section 5, reverse mode)
 *   rev_build_lin   the linear half, a sum over i of the elements' cotangents of G
 *   rev_build_body  ps = build m (i. f i) and the pair
 *   rev_build       the rule: R n, m, then rev_build_body
 * Part of reverse.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* The linear half of R(build a (i. b)), in d3 where level lm holds m : Int
 * and level lps holds ps : aq = Arr Q, Q = P tau * (cte -o cgb) (the
 * body's translation at each index; cte = C tau, cgb = C(G, i) = C G *
 * Unit):
 *   \v. lsum m (i. fst (snd ps[i] v[i]))    : ct -o cg, ct = Arr cte
 * Against the kernel's invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(d3) && lin(ct) && ty_same(ct, TY_ARR, cte, -1) && lin(cg);
    requires 0 <= lm < ctx_len_[d3] && lvl_ty(d3, lm) == TY_ID_INT;
    requires 0 <= lps < ctx_len_[d3] && lvl_ty(d3, lps) == aq;
    requires ty_valid(aq) && ty_same(aq, TY_ARR, q, -1);
    requires ty_valid(q) && ty_kind_[q] == TY_PROD && ty_same(ty_right_[q], TY_LFUN, cte, cgb);
    requires ty_valid(cgb) && ty_kind_[cgb] == TY_PROD && ty_left_[cgb] == cg;
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures build_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d3 &&
      ty_same(tm_ty_[\result], TY_LFUN, ct, cg);
    ensures build_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures build_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 12;
    ensures build_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures build_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures build_lin_lvl: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \old(lvl_ty(d3, l));
    ensures env_keep{Pre, Post};
*/
static int rev_build_lin(int d3, int lm, int lps, int ct)
  /*@ ghost (int cg, int cte, int cgb, int aq, int q) */
{
  //@ ghost int qr = ty_right_[q];
  //@ assert q_node: ty_inv && ty_node_ok(q) && 0 <= qr < q && ty_same(qr, TY_LFUN, cte, cgb);
  int lv = L(d3), g1 = k_ext(d3, ct);
  if (g1 < 0) return g1;
  //@ assert g1_ctx: ctx_valid(g1) && ctx_is_ext(g1, d3, ct) && ctx_len_[g1] == lv + 1 && lv == ctx_len_[d3];
  //@ assert g1_lvl: lvl_ty(g1, lv) == ct && lvl_ty(g1, lm) == TY_ID_INT && lvl_ty(g1, lps) == aq;
  int li = L(g1), g2 = k_ext(g1, TY_ID_INT);
  if (g2 < 0) return g2;
  //@ assert g2_ctx: ctx_valid(g2) && ctx_is_ext(g2, g1, TY_ID_INT) && ctx_len_[g2] == li + 1 && li == ctx_len_[g1];
  //@ assert g2_lvl: lvl_ty(g2, li) == TY_ID_INT && lvl_ty(g2, lv) == ct && lvl_ty(g2, lps) == aq;
  //@ assert g1_lvl2: lvl_ty(g1, lm) == TY_ID_INT && ctx_valid(g1);
  int n = V(g1, lm);
  //@ assert n >= 0 ==> 0 <= n < tm_count && tm_ctx_[n] == g1 && tm_ty_[n] == TY_ID_INT;
  //@ assert n >= 0 || n == CHAD_E_CAPACITY;
  int a = V(g2, lps);
  //@ assert a >= 0 ==> 0 <= a < tm_count && tm_ctx_[a] == g2 && tm_ty_[a] == aq;
  //@ assert a >= 0 || a == CHAD_E_CAPACITY;
  int i1 = V(g2, li);
  //@ assert i1 >= 0 ==> 0 <= i1 < tm_count && tm_ctx_[i1] == g2 && tm_ty_[i1] == TY_ID_INT;
  //@ assert i1 >= 0 || i1 == CHAD_E_CAPACITY;
  //@ assert a >= 0 ==> arr_ok(tm_ty_[a]) && ty_left_[tm_ty_[a]] == q;
  int x = b_index(a, i1);
  //@ assert x >= 0 ==> 0 <= x < tm_count && tm_ctx_[x] == g2 && tm_ty_[x] == q;
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  int s = b_snd(x);
  //@ assert s >= 0 ==> 0 <= s < tm_count && tm_ctx_[s] == g2 && tm_ty_[s] == qr;
  //@ assert s >= 0 || s == CHAD_E_CAPACITY;
  int vv = V(g2, lv);
  //@ assert vv >= 0 ==> 0 <= vv < tm_count && tm_ctx_[vv] == g2 && tm_ty_[vv] == ct;
  //@ assert vv >= 0 || vv == CHAD_E_CAPACITY;
  int i2 = V(g2, li);
  //@ assert i2 >= 0 ==> 0 <= i2 < tm_count && tm_ctx_[i2] == g2 && tm_ty_[i2] == TY_ID_INT;
  //@ assert i2 >= 0 || i2 == CHAD_E_CAPACITY;
  //@ assert vv >= 0 ==> arr_ok(tm_ty_[vv]) && ty_left_[tm_ty_[vv]] == cte;
  int y = b_index(vv, i2);
  //@ assert y >= 0 ==> 0 <= y < tm_count && tm_ctx_[y] == g2 && tm_ty_[y] == cte;
  //@ assert y >= 0 || y == CHAD_E_CAPACITY;
  //@ assert s >= 0 ==> 0 <= s < tm_count && tm_ctx_[s] == g2 && ty_same(tm_ty_[s], TY_LFUN, cte, cgb);
  int ap = b_lapp(s, y);
  //@ assert ap >= 0 ==> 0 <= ap < tm_count && tm_ctx_[ap] == g2 && tm_ty_[ap] == cgb;
  //@ assert ap >= 0 || ap == CHAD_E_CAPACITY;
  int f = b_fst(ap);
  //@ assert f >= 0 ==> 0 <= f < tm_count && tm_ctx_[f] == g2 && tm_ty_[f] == cg;
  //@ assert f >= 0 || f == CHAD_E_CAPACITY;
  //@ assert n >= 0 ==> 0 <= n < tm_count && tm_ctx_[n] == g1 && tm_ty_[n] == TY_ID_INT;
  //@ assert ctx_is_ext(g2, g1, TY_ID_INT) && lin(cg);
  int ls = b_lsum(n, f);
  //@ assert ls >= 0 ==> 0 <= ls < tm_count && tm_ctx_[ls] == g1 && tm_ty_[ls] == cg;
  //@ assert ls >= 0 || ls == CHAD_E_CAPACITY;
  //@ assert ls >= 0 ==> ty_valid(ct) && llam_ok(ct, tm_ctx_[ls], tm_ty_[ls]);
  int r = b_llam(ct, ls);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d3 && ty_same(tm_ty_[r], TY_LFUN, ct, cg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 12;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* R(build)'s recursive call and the rest: the body b (of type tau in gb =
 * G, i : Int) under its binder in e1 = d2, i (d1 = d, pn; d2 = d1, m),
 * then ps = build m (i. q) in d2, its extension d3, the linear half
 * rev_build_lin, the primal build_primal and the tail let_build_tail. */
/*@ requires REV_INV;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[b] == gb && tm_ty_[b] == tau;
    requires 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == TY_ID_INT;
    requires env_ok(CHAD_PREV, g, e1);
    requires trh(CHAD_PREV, TY_ID_INT) && trm(CHAD_PREV, TY_ID_INT) == TY_ID_INT;
    requires trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == cte;
    requires lin(ct) && ty_same(ct, TY_ARR, cte, -1) && ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1);
    requires trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg && lin(cg);
    requires 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
    requires ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
    requires ctx_valid(d) && ctx_is_ext(d1, d, typn) && ctx_is_ext(d2, d1, TY_ID_INT) &&
      ctx_is_ext(e1, d2, TY_ID_INT);
    requires ln == ctx_len_[d] && lm == ln + 1 && li == lm + 1;
    requires ctx_len_[d1] == lm && ctx_len_[d2] == li && ctx_len_[e1] == li + 1;
    requires 0 <= d < d1 < d2 < e1 < ctx_count;
    requires lvl_ty(d1, ln) == typn && lvl_ty(d2, lm) == TY_ID_INT && lvl_ty(e1, li) == TY_ID_INT;
    terminates \true;
    decreases REV_M(depth) - 3;
    REV_ASSIGNS;
    REV_FRAME;
    ensures bbody_size: tm_count - \old(tm_count) <= REV_K * chad_msz_[b] + 26;
    ensures bbody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures bbody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pa && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg);
*/
static int rev_build_body(int b, int pn, int d1, int d2, int e1, int ln, int lm, int li, int ct, int depth)
  /*@ ghost (int g, int gb, int tau, int pt, int cte, int pa, int cg, int d, int typn) */
{
  //@ assert x_gb: env_ok(CHAD_PREV, ctx_parent_[gb], e1) && trh(CHAD_PREV, ctx_type_[gb]) && trm(CHAD_PREV, ctx_type_[gb]) == TY_ID_INT;
  //@ assert x_li: 0 <= li < ctx_len_[e1] && lvl_ty(e1, li) == TY_ID_INT;
  int q = rev_under(b, e1, li, depth + 1);
  //@ assert q_keep: env_keep{Pre, Here};
  //@ assert q_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b];
  if (q < 0) return q;
  //@ assert q_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b];
  //@ assert q_rev: tm_ctx_[q] == e1 && rev_ty(tm_ty_[q], tau, gb) && 0 <= q < tm_count;
  //@ assert q_memo1: trh(CHAD_PREV, tau) && trh(CHAD_COT, tau) && trm(CHAD_PREV, tau) == pt && trm(CHAD_COT, tau) == cte;
  //@ assert q_memo2: trc(CHAD_COT, g) == cg;
  //@ assert q_gb: 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == TY_ID_INT && trch(CHAD_COT, gb);
  //@ ghost rev_trc_step(CHAD_COT, gb);
  //@ ghost int cgb = chad_memo_ctx_[CHAD_COT][gb] - 1;
  //@ assert q_cgb0: trc(CHAD_COT, gb) == cgb;
  //@ assert q_cgb: ty_valid(cgb) && ty_kind_[cgb] == TY_PROD && ty_left_[cgb] == cg;
  //@ ghost int tyq = tm_ty_[q];
  //@ assert q_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, cte, cgb);
  //@ assert q_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert q_typn: ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
  //@ assert q_pa: ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1) && lin(ct) && ty_same(ct, TY_ARR, cte, -1) && lin(cg);
  //@ assert q_ord: 0 <= d < d1 < d2 < e1 < ctx_count;
  //@ assert q_c1: ctx_parent_[d1] == d && ctx_type_[d1] == typn && ctx_len_[d1] == lm;
  //@ assert q_c2: ctx_parent_[d2] == d1 && ctx_type_[d2] == TY_ID_INT && ctx_len_[d2] == li;
  //@ assert q_c3: ctx_parent_[e1] == d2 && ctx_type_[e1] == TY_ID_INT && ctx_len_[e1] == li + 1;
  //@ assert q_c0: ctx_valid(d) && ctx_len_[d] == ln;
  //@ assert q_l1: lvl_ty(d1, ln) == typn;
  //@ assert q_l2: lvl_ty(d2, lm) == TY_ID_INT;
  //@ ghost Q1: ;
  int vm = V(d2, lm);
  //@ assert vm >= 0 ==> 0 <= vm < tm_count && tm_ctx_[vm] == d2 && tm_ty_[vm] == TY_ID_INT;
  //@ assert vm >= 0 || vm == CHAD_E_CAPACITY;
  //@ assert 0 <= q < tm_count && tm_ctx_[q] == e1 && tm_ty_[q] == tyq && ctx_is_ext(e1, d2, TY_ID_INT);
  int ps = b_build(vm, q);
  //@ assert ps >= 0 ==> 0 <= ps < tm_count && tm_ctx_[ps] == d2 && ty_same(tm_ty_[ps], TY_ARR, tyq, -1);
  //@ assert ps >= 0 ==> ty_valid(tm_ty_[ps]);
  //@ assert ps >= 0 || ps == CHAD_E_CAPACITY;
  //@ assert ps_grow: tables_grow{Q1, Here} && side_same{Q1, Here};
  //@ assert ps_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert ps_keep: env_keep{Pre, Here};
  //@ assert ps_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 2;
  if (ps < 0) return ps;
  //@ ghost int aq = tm_ty_[ps];
  //@ assert ps_aq: ty_valid(aq) && ty_same(aq, TY_ARR, tyq, -1);
  //@ assert ps_c1: ctx_parent_[d1] == d && ctx_type_[d1] == typn && ctx_len_[d1] == lm;
  //@ assert ps_c2: ctx_parent_[d2] == d1 && ctx_type_[d2] == TY_ID_INT && ctx_len_[d2] == li;
  //@ assert ps_l2: lvl_ty(d2, lm) == TY_ID_INT && ctx_valid(d2);
  int lps = L(d2), d3 = rev_ext(d2, tyof(ps));
  //@ assert d3 >= 0 || d3 == CHAD_E_CAPACITY;
  //@ assert d3_keep: env_keep{Pre, Here};
  //@ assert d3_ret: d3 < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b] + 26;
  if (d3 < 0) return d3;
  //@ assert d3_ext: ctx_is_ext(d3, d2, aq) && ctx_len_[d3] == lps + 1 && lps == li && ctx_valid(d3);
  //@ assert d3_lps: lvl_ty(d3, lps) == aq;
  //@ assert d3_lm: lvl_ty(d3, lm) == TY_ID_INT && 0 <= lm < lps;
  //@ assert d3_q: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, cte, cgb);
  //@ assert d3_cgb: ty_valid(cgb) && ty_kind_[cgb] == TY_PROD && ty_left_[cgb] == cg;
  //@ assert d3_ct: lin(ct) && ty_same(ct, TY_ARR, cte, -1) && lin(cg);
  //@ ghost Built: ;
  int lin = rev_build_lin(d3, lm, lps, ct) /*@ ghost (cg, cte, cgb, aq, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d3 && ty_same(tm_ty_[lin], TY_LFUN, ct, cg) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_keep: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 14;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert lin_ret: lin < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b] + 26;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert l_lin: tm_ctx_[lin] == d3 && ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg) && 0 <= lin < tm_count;
  //@ assert l_lvl: lvl_ty(d3, lm) == TY_ID_INT && lvl_ty(d3, lps) == aq && ctx_valid(d3) && 0 <= lm < ctx_len_[d3] && 0 <= lps < ctx_len_[d3];
  //@ assert l_aq: ty_valid(aq) && ty_same(aq, TY_ARR, tyq, -1) && ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt;
  //@ ghost Lin: ;
  int prim = build_primal(d3, lm, lps) /*@ ghost (aq, tyq, pt) */;
  //@ assert prim >= 0 ==> 0 <= prim < tm_count && tm_ctx_[prim] == d3 && ty_valid(tm_ty_[prim]) && ty_same(tm_ty_[prim], TY_ARR, pt, -1);
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  /* hash-consing: the primal's type is P(Arr tau) itself */
  //@ assert p_pa: prim >= 0 ==> tm_ty_[prim] == pa;
  //@ assert p_keep: env_keep{Pre, Here};
  //@ assert p_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 20;
  //@ assert p_grow: tables_grow{Lin, Here} && side_same{Lin, Here};
  //@ assert p_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  if (prim < 0) return prim;
  //@ assert t_lin0: tm_ty_[lin] == tyl && tm_ctx_[lin] == d3 && 0 <= lin < tm_count;
  //@ assert t_lin1: ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg);
  //@ assert t_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert t_typn: ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
  //@ assert t_ps: 0 <= ps < tm_count && tm_ctx_[ps] == d2 && tm_ty_[ps] == aq;
  //@ assert t_c1: ctx_parent_[d1] == d && ctx_type_[d1] == typn && ctx_len_[d1] == lm;
  //@ assert t_c2: ctx_parent_[d2] == d1 && ctx_type_[d2] == TY_ID_INT && ctx_len_[d2] == li;
  //@ assert t_c3: ctx_parent_[d3] == d2 && ctx_type_[d3] == aq;
  //@ assert t_c0: ctx_valid(d) && ctx_len_[d] == ln && 0 <= d < d1 < d2 < d3 < ctx_count;
  //@ assert t_e: ctx_is_ext(d1, d, typn) && ctx_is_ext(d2, d1, TY_ID_INT) && ctx_is_ext(d3, d2, aq);
  //@ assert t_l1: lvl_ty(d1, ln) == typn && 0 <= ln < ctx_len_[d1] && ctx_valid(d1) && ctx_valid(d2);
  //@ ghost Tail: ;
  int r = let_build_tail(pn, ps, prim, lin, d1, ln) /*@ ghost (d, d2, d3, TY_ID_INT, pa, ct, cg) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pa && ty_same(ty_right_[tyr], TY_LFUN, ct, cg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 26;
  //@ assert tables_grow{Tail, Here} && side_same{Tail, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* let pn = R a; m = fst pn; ps = build m (i. R b) in
 * (build m (i. fst ps[i]), \v. lsum m (i. fst (snd ps[i] v[i])))
 * R a and the extensions (pn, m, the binder i) here, R b and the rest in
 * rev_build_body (one recursive call per function). */
/*@ RULE_PRE(t, d, tm_kind_[t] == TM_BUILD);
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases REV_M(depth) - 2;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_build(int t, int d, int ct, int depth)
{
  //@ assert node_ok(t) && msrc_ok(t) && msz_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tarr = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t);
  //@ ghost int gb = tm_ctx_[b];
  //@ ghost int tau = tm_ty_[b];
  //@ assert 0 <= a < t && 0 <= b < t && chad_msrc_[a] == 1 && chad_msrc_[b] == 1;
  //@ assert build_src: tm_ctx_[a] == g && tm_ty_[a] == TY_ID_INT && ty_same(tarr, TY_ARR, tau, -1);
  //@ assert build_gb: ctx_is_ext(gb, g, TY_ID_INT) && 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == TY_ID_INT;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b]);
  /* the size budget: R a, R b and at most 26 nodes of this rule (or the
   * whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert build_budget: REV_K * chad_msz_[a] + REV_K * chad_msz_[b] + 26 <= REV_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= REV_K * chad_msz_[t]; */
  /*@ ghost int cgv = tm_ctx_[t] == CTX_EMPTY ? TY_ID_UNIT :
        chad_memo_ctx_[CHAD_COT][tm_ctx_[t]] - 1; */
  //@ assert cgv == trc(CHAD_COT, g) && lin(cgv);
  //@ assert memo_ty_inv && trh(CHAD_COT, tarr) && trh(CHAD_PREV, tarr) && ct == chad_memo_ty_[CHAD_COT][tarr] - 1;
  //@ ghost int pa = chad_memo_ty_[CHAD_PREV][tarr] - 1;
  int pn = rev(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (pn < 0) return pn;
  //@ assert pa_rev: tm_ctx_[pn] == d && rev_ty(tm_ty_[pn], TY_ID_INT, g) && 0 <= pn < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a];
  //@ assert pa_arr: trh(CHAD_PREV, tarr) && trm(CHAD_PREV, tarr) == pa && trh(CHAD_COT, tarr) && trm(CHAD_COT, tarr) == ct && trc(CHAD_COT, g) == cgv;
  //@ ghost rev_tr_step(CHAD_PREV, TY_ID_INT);
  //@ ghost rev_tr_step(CHAD_PREV, tarr);
  //@ ghost rev_tr_step(CHAD_COT, tarr);
  //@ assert pa_int: trh(CHAD_PREV, TY_ID_INT) && trm(CHAD_PREV, TY_ID_INT) == TY_ID_INT;
  //@ assert pa_tau: trh(CHAD_PREV, tau) && trh(CHAD_COT, tau);
  //@ ghost int pt = chad_memo_ty_[CHAD_PREV][tau] - 1;
  //@ ghost int cte = chad_memo_ty_[CHAD_COT][tau] - 1;
  //@ assert pa_pa: ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1);
  //@ assert pa_ct: lin(ct) && ty_same(ct, TY_ARR, cte, -1);
  //@ ghost int typn = tm_ty_[pn];
  //@ assert pa_ty: ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
  //@ assert pa_env: env_ok(CHAD_PREV, g, d) && ctx_valid(d);
  int ln = L(d), d1 = rev_ext(d, tyof(pn));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_ext: ctx_is_ext(d1, d, typn) && ctx_valid(d1) && ctx_len_[d1] == ln + 1 && ln == ctx_len_[d];
  //@ assert d1_lvl: lvl_ty(d1, ln) == typn;
  int lm = L(d1), d2 = rev_ext(d1, TY_ID_INT);
  //@ assert d2 >= 0 || d2 == CHAD_E_CAPACITY;
  //@ assert d2_keep: env_keep{Pre, Here};
  if (d2 < 0) return d2;
  //@ assert d2_ext: ctx_is_ext(d2, d1, TY_ID_INT) && ctx_valid(d2) && ctx_len_[d2] == lm + 1 && lm == ln + 1;
  //@ assert d2_lvl: lvl_ty(d2, lm) == TY_ID_INT && lvl_ty(d1, ln) == typn;
  int li = L(d2), e1 = rev_ext(d2, TY_ID_INT);
  //@ assert e1 >= 0 || e1 == CHAD_E_CAPACITY;
  //@ assert e1_keep: env_keep{Pre, Here};
  if (e1 < 0) return e1;
  //@ assert e1_ext: ctx_is_ext(e1, d2, TY_ID_INT) && ctx_valid(e1) && ctx_len_[e1] == li + 1 && li == lm + 1;
  //@ assert e1_lvl: lvl_ty(e1, li) == TY_ID_INT && lvl_ty(d2, lm) == TY_ID_INT && lvl_ty(d1, ln) == typn;
  //@ assert e1_env: env_ok(CHAD_PREV, g, e1);
  //@ assert e1_c: ctx_is_ext(d1, d, typn) && ctx_is_ext(d2, d1, TY_ID_INT) && ctx_valid(d);
  /* the three context nodes named first (proof-guide: instantiate, then use) */
  //@ assert e1_n: ctx_node_ok(e1) && ctx_node_ok(d2) && ctx_node_ok(d1);
  //@ assert e1_ord: 0 <= d < d1 < d2 < e1 < ctx_count;
  //@ assert e1_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert e1_memo: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == cte && trc(CHAD_COT, g) == cgv;
  //@ ghost Body: ;
  int res = rev_build_body(b, pn, d1, d2, e1, ln, lm, li, ct, depth)
    /*@ ghost (g, gb, tau, pt, cte, pa, cgv, d, typn) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= REV_K * chad_msz_[b] + 26;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert res >= 0 || res == CHAD_E_CAPACITY || res == CHAD_E_DEPTH;
  //@ ghost int tyr = res >= 0 ? tm_ty_[res] : 0;
  //@ assert res >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pa && ty_same(ty_right_[tyr], TY_LFUN, ct, cgv);
  //@ assert r_memo1: trh(CHAD_PREV, tarr) && trm(CHAD_PREV, tarr) == pa;
  //@ assert r_memo2: trh(CHAD_COT, tarr) && trm(CHAD_COT, tarr) == ct;
  //@ assert r_memo3: trch(CHAD_COT, g) && trc(CHAD_COT, g) == cgv;
  //@ assert res >= 0 ==> rev_ty(tm_ty_[res], \at(tm_ty_[t], Pre), \at(tm_ctx_[t], Pre));
  return res;
}
