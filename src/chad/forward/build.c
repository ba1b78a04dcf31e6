/* F(build n (i.b))  = let (m,_) = F n; f = \i. F_{G,i} b; ps = build m (i. f i) in
 *                   (build m (i. fst ps[i]), \v. build m (i. (snd ps[i]) (v, ())))
 * (../shared/chad-rules.md, section 4, forward mode)
 *   fwd_build_lin   the linear half  \v. build m (i. snd ps[i] (v, 0))
 *   fwd_build_body  ps = build m (i. f i) and the pair
 *   fwd_build       the rule: F n, m, then fwd_build_body
 * Part of forward.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* The linear half of F(build a (i. b)), in d3 where level lm holds m : Int
 * and level lps holds ps : aq = Arr Q, Q = P tau * (tgx -o tt) (the
 * body's translation at each index; tgx = T(G, i) = T G * Unit, tt =
 * T tau):
 *   \v. build m (i. snd ps[i] (v, 0))    : tg -o st, st = Arr tt
 * Against the kernel's invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(d3) && ty_valid(tg) && ty_valid(tt) && lin(st) && ty_same(st, TY_ARR, tt, -1);
    requires ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, TY_ID_UNIT);
    requires 0 <= lm < ctx_len_[d3] && lvl_ty(d3, lm) == TY_ID_INT;
    requires 0 <= lps < ctx_len_[d3] && lvl_ty(d3, lps) == aq;
    requires ty_valid(aq) && ty_same(aq, TY_ARR, q, -1);
    requires ty_valid(q) && ty_kind_[q] == TY_PROD && ty_same(ty_right_[q], TY_LFUN, tgx, tt);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures fbuild_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d3 &&
      ty_same(tm_ty_[\result], TY_LFUN, tg, st);
    ensures fbuild_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures fbuild_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 11;
    ensures fbuild_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures fbuild_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures fbuild_lin_lvl: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \old(lvl_ty(d3, l));
    ensures env_keep{Pre, Post};
*/
static int fwd_build_lin(int d3, int lm, int lps, int tg)
  /*@ ghost (int tt, int st, int tgx, int aq, int q) */
{
  //@ ghost int qr = ty_right_[q];
  //@ assert q_node: ty_inv && ty_node_ok(q) && 0 <= qr < q && ty_same(qr, TY_LFUN, tgx, tt);
  int lv = L(d3), g1 = k_ext(d3, tg);
  if (g1 < 0) return g1;
  //@ assert g1_ctx: ctx_valid(g1) && ctx_is_ext(g1, d3, tg) && ctx_len_[g1] == lv + 1 && lv == ctx_len_[d3];
  //@ assert g1_lvl: lvl_ty(g1, lv) == tg && lvl_ty(g1, lm) == TY_ID_INT && lvl_ty(g1, lps) == aq;
  int li = L(g1), g2 = k_ext(g1, TY_ID_INT);
  if (g2 < 0) return g2;
  //@ assert g2_ctx: ctx_valid(g2) && ctx_is_ext(g2, g1, TY_ID_INT) && ctx_len_[g2] == li + 1 && li == ctx_len_[g1];
  //@ assert g2_lvl: lvl_ty(g2, li) == TY_ID_INT && lvl_ty(g2, lv) == tg && lvl_ty(g2, lps) == aq;
  //@ assert g2_keep: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  //@ ghost Exts: ;
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
  //@ assert vv >= 0 ==> 0 <= vv < tm_count && tm_ctx_[vv] == g2 && tm_ty_[vv] == tg;
  //@ assert vv >= 0 || vv == CHAD_E_CAPACITY;
  //@ assert ctx_valid(g2) && lin(TY_ID_UNIT);
  int z = b_zero(g2, TY_ID_UNIT);
  //@ assert z >= 0 ==> 0 <= z < tm_count && tm_ctx_[z] == g2 && tm_ty_[z] == TY_ID_UNIT;
  //@ assert z >= 0 || z == CHAD_E_CAPACITY;
  //@ assert vv >= 0 ==> 0 <= vv < tm_count && tm_ctx_[vv] == g2 && tm_ty_[vv] == tg;
  int pr = b_pair(vv, z);
  //@ assert pr >= 0 ==> 0 <= pr < tm_count && tm_ctx_[pr] == g2 && ty_same(tm_ty_[pr], TY_PROD, tg, TY_ID_UNIT) && ty_valid(tm_ty_[pr]);
  //@ assert pr >= 0 || pr == CHAD_E_CAPACITY;
  /* hash-consing: (v, 0) has the type T(G, i) itself */
  //@ assert tgx_same: ty_inv && ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, TY_ID_UNIT);
  //@ assert pr_tgx: pr >= 0 ==> tm_ty_[pr] == tgx;
  //@ assert s >= 0 ==> 0 <= s < tm_count && tm_ctx_[s] == g2 && ty_same(tm_ty_[s], TY_LFUN, tgx, tt);
  int ap = b_lapp(s, pr);
  //@ assert ap >= 0 ==> 0 <= ap < tm_count && tm_ctx_[ap] == g2 && tm_ty_[ap] == tt;
  //@ assert ap >= 0 || ap == CHAD_E_CAPACITY;
  //@ assert n >= 0 ==> 0 <= n < tm_count && tm_ctx_[n] == g1 && tm_ty_[n] == TY_ID_INT;
  //@ assert ctx_is_ext(g2, g1, TY_ID_INT);
  int bl = b_build(n, ap);
  //@ assert bl >= 0 ==> 0 <= bl < tm_count && tm_ctx_[bl] == g1 && ty_same(tm_ty_[bl], TY_ARR, tt, -1);
  //@ assert bl >= 0 || bl == CHAD_E_CAPACITY;
  /* hash-consing: the array's type is T(Arr tau) itself */
  //@ assert bl >= 0 ==> ty_valid(tm_ty_[bl]);
  //@ assert st_same: ty_inv && ty_valid(st) && ty_same(st, TY_ARR, tt, -1);
  //@ assert bl_st: bl >= 0 ==> tm_ty_[bl] == st;
  //@ assert bl >= 0 ==> ty_valid(tg) && llam_ok(tg, tm_ctx_[bl], tm_ty_[bl]);
  int r = b_llam(tg, bl);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d3 && ty_same(tm_ty_[r], TY_LFUN, tg, st);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 11;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert r_ctx: ctx_count == \at(ctx_count, Exts) && ctx_len_[d3] == \at(ctx_len_[d3], Exts);
  //@ assert r_keep: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  return r;
}

/* F(build)'s recursive call and the rest: the body b (of type tau in gb =
 * G, i : Int) under its binder in e1 = d2, i (d1 = d, pn; d2 = d1, m),
 * then ps = build m (i. q) in d2, its extension d3, the linear half
 * fwd_build_lin, the primal build_primal and the tail let_build_tail. */
/*@ requires kernel_inv && memo_inv && src_inv && venv_wf;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[b] == gb && tm_ty_[b] == tau;
    requires 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == TY_ID_INT;
    requires env_ok(CHAD_PFWD, g, e1);
    requires trh(CHAD_PFWD, TY_ID_INT) && trm(CHAD_PFWD, TY_ID_INT) == TY_ID_INT;
    requires trh(CHAD_TAN, TY_ID_INT) && trm(CHAD_TAN, TY_ID_INT) == TY_ID_UNIT;
    requires trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt && trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt;
    requires ty_valid(tt) && lin(st) && ty_same(st, TY_ARR, tt, -1) && ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1);
    requires trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg && ty_valid(tg);
    requires 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
    requires ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
    requires ctx_valid(d) && ctx_is_ext(d1, d, typn) && ctx_is_ext(d2, d1, TY_ID_INT) &&
      ctx_is_ext(e1, d2, TY_ID_INT);
    requires ln == ctx_len_[d] && lm == ln + 1 && li == lm + 1;
    requires ctx_len_[d1] == lm && ctx_len_[d2] == li && ctx_len_[e1] == li + 1;
    requires 0 <= d < d1 < d2 < e1 < ctx_count;
    requires lvl_ty(d1, ln) == typn && lvl_ty(d2, lm) == TY_ID_INT && lvl_ty(e1, li) == TY_ID_INT;
    terminates \true;
    decreases FWD_M(depth) - 3;
    FWD_ASSIGNS;
    ensures kernel_inv && memo_inv && src_inv && venv_wf;
    ensures venv_sp == \old(venv_sp) && venv_cur == \old(venv_cur);
    ensures memo_grows{Pre, Post};
    ensures \old(tm_count) <= tm_count && \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures env_keep{Pre, Post};
    ensures fbbody_size: tm_count - \old(tm_count) <= FWD_K * chad_msz_[b] + 25;
    ensures fbbody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures fbbody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pa && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, tg, st);
*/
static int fwd_build_body(int b, int pn, int d1, int d2, int e1, int ln, int lm, int li, int tg, int depth)
  /*@ ghost (int g, int gb, int tau, int pt, int tt, int pa, int st, int d, int typn) */
{
  //@ assert x_gb: env_ok(CHAD_PFWD, ctx_parent_[gb], e1) && trh(CHAD_PFWD, ctx_type_[gb]) && trm(CHAD_PFWD, ctx_type_[gb]) == TY_ID_INT;
  //@ assert x_li: 0 <= li < ctx_len_[e1] && lvl_ty(e1, li) == TY_ID_INT;
  int q = fwd_under(b, e1, li, depth + 1);
  //@ assert q_keep: env_keep{Pre, Here};
  //@ assert q_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b];
  if (q < 0) return q;
  //@ assert q_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b];
  //@ assert q_fwd: tm_ctx_[q] == e1 && fwd_ty(tm_ty_[q], gb, tau) && 0 <= q < tm_count;
  //@ ghost int tyq = tm_ty_[q];
  //@ ghost int tgx = chad_memo_ctx_[CHAD_TAN][gb] - 1;
  //@ assert q_tgx: trch(CHAD_TAN, gb) && trc(CHAD_TAN, gb) == tgx && 0 < gb;
  //@ ghost trc_step(CHAD_TAN, gb);
  //@ assert q_memo1: trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt && trc(CHAD_TAN, g) == tg;
  //@ assert q_memo2: trm(CHAD_TAN, TY_ID_INT) == TY_ID_UNIT;
  //@ assert q_tgx2: ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, TY_ID_UNIT);
  //@ assert q_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, tgx, tt);
  //@ assert q_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert q_typn: ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
  //@ assert q_pa: ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1) && lin(st) && ty_same(st, TY_ARR, tt, -1) && ty_valid(tg) && ty_valid(tt);
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
  //@ assert ps_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  //@ assert ps_keep: env_keep{Pre, Here};
  //@ assert ps_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 2;
  if (ps < 0) return ps;
  //@ ghost int aq = tm_ty_[ps];
  //@ assert ps_aq: ty_valid(aq) && ty_same(aq, TY_ARR, tyq, -1);
  //@ assert ps_c1: ctx_parent_[d1] == d && ctx_type_[d1] == typn && ctx_len_[d1] == lm;
  //@ assert ps_c2: ctx_parent_[d2] == d1 && ctx_type_[d2] == TY_ID_INT && ctx_len_[d2] == li;
  //@ assert ps_l2: lvl_ty(d2, lm) == TY_ID_INT && ctx_valid(d2);
  int lps = L(d2), d3 = f_ext(d2, tyof(ps));
  //@ assert d3 >= 0 || d3 == CHAD_E_CAPACITY;
  //@ assert d3_keep: env_keep{Pre, Here};
  //@ assert d3_ret: d3 < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b] + 25;
  if (d3 < 0) return d3;
  //@ assert d3_ext: ctx_is_ext(d3, d2, aq) && ctx_len_[d3] == lps + 1 && lps == li && ctx_valid(d3);
  //@ assert d3_lps: lvl_ty(d3, lps) == aq;
  //@ assert d3_lm: lvl_ty(d3, lm) == TY_ID_INT && 0 <= lm < lps;
  //@ assert d3_q: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, tgx, tt);
  //@ assert d3_tgx: ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, TY_ID_UNIT);
  //@ assert d3_st: lin(st) && ty_same(st, TY_ARR, tt, -1) && ty_valid(tg) && ty_valid(tt);
  //@ ghost Built: ;
  int lin = fwd_build_lin(d3, lm, lps, tg) /*@ ghost (tt, st, tgx, aq, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d3 && ty_same(tm_ty_[lin], TY_LFUN, tg, st) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_keep: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 13;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  //@ assert lin_ret: lin < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b] + 25;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert l_lin: tm_ctx_[lin] == d3 && ty_valid(tyl) && ty_same(tyl, TY_LFUN, tg, st) && 0 <= lin < tm_count;
  //@ assert l_lvl: lvl_ty(d3, lm) == TY_ID_INT && lvl_ty(d3, lps) == aq && ctx_valid(d3) && 0 <= lm < ctx_len_[d3] && 0 <= lps < ctx_len_[d3];
  //@ assert l_aq: ty_valid(aq) && ty_same(aq, TY_ARR, tyq, -1) && ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt;
  //@ ghost Lin: ;
  int prim = build_primal(d3, lm, lps) /*@ ghost (aq, tyq, pt) */;
  //@ assert prim >= 0 ==> 0 <= prim < tm_count && tm_ctx_[prim] == d3 && ty_valid(tm_ty_[prim]) && ty_same(tm_ty_[prim], TY_ARR, pt, -1);
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  /* hash-consing: the primal's type is P(Arr tau) itself */
  //@ assert p_pa: prim >= 0 ==> tm_ty_[prim] == pa;
  //@ assert p_keep: env_keep{Pre, Here};
  //@ assert p_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 19;
  //@ assert p_grow: tables_grow{Lin, Here} && side_same{Lin, Here};
  //@ assert p_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  if (prim < 0) return prim;
  //@ assert t_lin0: tm_ty_[lin] == tyl && tm_ctx_[lin] == d3 && 0 <= lin < tm_count;
  //@ assert t_lin1: ty_valid(tyl) && ty_same(tyl, TY_LFUN, tg, st);
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
  int r = let_build_tail(pn, ps, prim, lin, d1, ln) /*@ ghost (d, d2, d3, TY_ID_INT, pa, tg, st) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pa && ty_same(ty_right_[tyr], TY_LFUN, tg, st);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 25;
  //@ assert tables_grow{Tail, Here} && side_same{Tail, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* F(build a (i. b)) = let pn = F a; m = fst pn; ps = build m (i. F b) in
 *   (build m (i. fst ps[i]), \v. build m (i. snd ps[i] (v, 0)))
 * F a and the extensions (pn, m, the binder i) here, F b and the rest in
 * fwd_build_body (one recursive call per function). */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_BUILD; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases FWD_M(depth) - 2;
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_build(int t, int d, int tg, int depth)
{
  //@ assert node_ok(t) && msz_ok(t) && msrc_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tarr = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t);
  //@ ghost int gb = tm_ctx_[b];
  //@ ghost int tau = tm_ty_[b];
  //@ assert 0 <= a < t && 0 <= b < t && chad_msrc_[a] == 1 && chad_msrc_[b] == 1;
  //@ assert build_src: tm_ctx_[a] == g && tm_ty_[a] == TY_ID_INT && ty_same(tarr, TY_ARR, tau, -1);
  //@ assert build_gb: ctx_is_ext(gb, g, TY_ID_INT) && 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == TY_ID_INT;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b]);
  /* the size budget: F a, F b and at most 25 nodes of this rule (or the
   * whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert build_budget: FWD_K * chad_msz_[a] + FWD_K * chad_msz_[b] + 25 <= FWD_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= FWD_K * chad_msz_[t]; */
  //@ ghost int pa = chad_memo_ty_[CHAD_PFWD][tarr] - 1;
  //@ ghost int st = chad_memo_ty_[CHAD_TAN][tarr] - 1;
  //@ ghost tan_lin_lemma();
  //@ assert build_lin: lin(st) && ty_valid(st) && ty_valid(tg);
  int pn = f_sub(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (pn < 0) return pn;
  //@ assert pa_fwd: tm_ctx_[pn] == d && fwd_ty(tm_ty_[pn], g, TY_ID_INT) && 0 <= pn < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a];
  //@ assert pa_arr: trh(CHAD_PFWD, tarr) && trm(CHAD_PFWD, tarr) == pa && trh(CHAD_TAN, tarr) && trm(CHAD_TAN, tarr) == st && lin(st) && trc(CHAD_TAN, g) == tg;
  //@ ghost tr_step(CHAD_PFWD, TY_ID_INT);
  //@ ghost tr_step(CHAD_TAN, TY_ID_INT);
  //@ ghost tr_step(CHAD_PFWD, tarr);
  //@ ghost tr_step(CHAD_TAN, tarr);
  //@ assert pa_int: trh(CHAD_PFWD, TY_ID_INT) && trm(CHAD_PFWD, TY_ID_INT) == TY_ID_INT;
  //@ assert pa_tint: trh(CHAD_TAN, TY_ID_INT) && trm(CHAD_TAN, TY_ID_INT) == TY_ID_UNIT;
  //@ assert pa_tau: trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau);
  //@ ghost int pt = chad_memo_ty_[CHAD_PFWD][tau] - 1;
  //@ ghost int tt = chad_memo_ty_[CHAD_TAN][tau] - 1;
  //@ assert pa_pa: ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1);
  //@ assert pa_st: ty_same(st, TY_ARR, tt, -1) && ty_valid(tt);
  //@ ghost int typn = tm_ty_[pn];
  //@ assert pa_ty: ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
  int ln = L(d), d1 = f_ext(d, tyof(pn));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_ext: ctx_is_ext(d1, d, typn) && ctx_valid(d1) && ctx_len_[d1] == ln + 1 && ln == ctx_len_[d];
  //@ assert d1_lvl: lvl_ty(d1, ln) == typn;
  int lm = L(d1), d2 = f_ext(d1, TY_ID_INT);
  //@ assert d2 >= 0 || d2 == CHAD_E_CAPACITY;
  //@ assert d2_keep: env_keep{Pre, Here};
  if (d2 < 0) return d2;
  //@ assert d2_ext: ctx_is_ext(d2, d1, TY_ID_INT) && ctx_valid(d2) && ctx_len_[d2] == lm + 1 && lm == ln + 1;
  //@ assert d2_top: lvl_ty(d2, ctx_len_[d1]) == TY_ID_INT && lm == ctx_len_[d1];
  //@ assert d2_lvl: lvl_ty(d2, lm) == TY_ID_INT && lvl_ty(d1, ln) == typn;
  int li = L(d2), e1 = f_ext(d2, TY_ID_INT);
  //@ assert e1 >= 0 || e1 == CHAD_E_CAPACITY;
  //@ assert e1_keep: env_keep{Pre, Here};
  if (e1 < 0) return e1;
  //@ assert e1_ext: ctx_is_ext(e1, d2, TY_ID_INT) && ctx_valid(e1) && ctx_len_[e1] == li + 1 && li == lm + 1;
  //@ assert e1_top: lvl_ty(e1, ctx_len_[d2]) == TY_ID_INT && li == ctx_len_[d2];
  //@ assert e1_lvl: lvl_ty(e1, li) == TY_ID_INT && lvl_ty(d2, lm) == TY_ID_INT && lvl_ty(d1, ln) == typn;
  //@ assert e1_env: env_ok(CHAD_PFWD, g, e1);
  //@ assert e1_c: ctx_is_ext(d1, d, typn) && ctx_is_ext(d2, d1, TY_ID_INT) && ctx_valid(d);
  //@ assert e1_nodes: ctx_inv && ctx_node_ok(e1) && ctx_node_ok(d2) && ctx_node_ok(d1) && ctx_valid(d);
  //@ assert e1_ord: 0 <= d < d1 < d2 < e1 < ctx_count;
  //@ assert e1_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert e1_memo: trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt && trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt && trc(CHAD_TAN, g) == tg;
  //@ assert e1_venv: venv_wf;
  //@ ghost Body: ;
  int res = fwd_build_body(b, pn, d1, d2, e1, ln, lm, li, tg, depth)
    /*@ ghost (g, gb, tau, pt, tt, pa, st, d, typn) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= FWD_K * chad_msz_[b] + 25;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert res >= 0 || res == CHAD_E_CAPACITY || res == CHAD_E_DEPTH;
  //@ ghost int tyr = res >= 0 ? tm_ty_[res] : 0;
  //@ assert res >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pa && ty_same(ty_right_[tyr], TY_LFUN, tg, st);
  //@ assert res >= 0 ==> ty_node_ok(tyr) && 0 <= ty_right_[tyr] < tyr;
  //@ assert trh(CHAD_PFWD, tarr) && trh(CHAD_TAN, tarr) && trch(CHAD_TAN, g) && trm(CHAD_PFWD, tarr) == pa && trm(CHAD_TAN, tarr) == st && trc(CHAD_TAN, g) == tg;
  //@ assert res >= 0 ==> fwd_ty(tm_ty_[res], g, tarr);
  //@ assert tm_ctx_[t] == g && tm_ty_[t] == tarr;
  //@ assert build_type: res >= 0 ==> 0 <= res < tm_count && tm_ctx_[res] == d && fwd_ty(tm_ty_[res], tm_ctx_[t], tm_ty_[t]);
  return res;
}
