/* R(case t (a.s1) (b.s2)) = let (x,dx) = R t in case x of
 *                   inl a -> let (y,dy) = R_{G,a} s1 in (y, \v. let (g,ga) = dy v in g + dx (ga, 0))
 *                   inr b -> ... dx (0, gb)
 * (../shared/chad-rules.md, section 5, reverse mode)
 *   rev_case_lin     one branch's linear half  \v. let (g,ga) = dy v in g + dx (ga, 0)  (inr: dx (0, gb))
 *   rev_case_branch  one branch: R_{G,a} s1 (or R_{G,b} s2) and its pair
 *   rev_case_last    the inr branch and the case term, given the inl branch
 *   rev_case_body    the inl branch, then rev_case_last
 *   rev_case         the rule: R t, then rev_case_body
 * Part of reverse.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* The linear half of one branch of R(case a b c), in e2 where level lp
 * holds p = R a (type tp = P(A + B) * (ca -o cg), ca = C(A + B) = CA * CB)
 * and level lq holds q = R b (type tq = P tau * (ct -o cgb), cgb = C(G, x)
 * = cg * csd, csd the cotangent of the branch's side):
 *   \v. let g = snd q v in fst g + snd p (snd g, 0)     (side 0)
 *   \v. let g = snd q v in fst g + snd p (0, snd g)     (side 1)
 * with 0 the zero of co, the other side's cotangent. As rev_let_lin, but
 * snd p takes the pair. */
/*@ requires kernel_inv;
    requires ctx_valid(e2) && ty_valid(ct) && lin(cg) && lin(co);
    requires ty_valid(ca) && ty_kind_[ca] == TY_PROD;
    requires side == 0 ==> ty_same(ca, TY_PROD, csd, co);
    requires side != 0 ==> ty_same(ca, TY_PROD, co, csd);
    requires ty_valid(cgb) && ty_same(cgb, TY_PROD, cg, csd);
    requires 0 <= lp < ctx_len_[e2] && lvl_ty(e2, lp) == tp && ty_valid(tp) &&
      ty_kind_[tp] == TY_PROD && ty_same(ty_right_[tp], TY_LFUN, ca, cg);
    requires 0 <= lq < ctx_len_[e2] && lvl_ty(e2, lq) == tq && ty_valid(tq) &&
      ty_kind_[tq] == TY_PROD && ty_same(ty_right_[tq], TY_LFUN, ct, cgb);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures case_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == e2 &&
      ty_same(tm_ty_[\result], TY_LFUN, ct, cg);
    ensures case_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures case_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 16;
    ensures case_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures case_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures env_keep{Pre, Post};
*/
static int rev_case_lin(int e2, int lp, int lq, int ct, int side, int co)
  /*@ ghost (int cg, int ca, int csd, int cgb, int tp, int tq) */
{
  //@ assert ty_inv && ty_node_ok(tp) && ty_node_ok(tq);
  //@ ghost int tsp = ty_right_[tp];
  //@ ghost int tsq = ty_right_[tq];
  //@ assert ty_valid(tsp) && ty_valid(tsq);
  //@ assert csd_ok: ty_valid(csd) && ty_valid(co);
  int lv = L(e2), e3 = k_ext(e2, ct);
  if (e3 < 0) return e3;
  //@ assert e3_lv: lvl_ty(e3, lv) == ct && lv == ctx_len_[e2];
  //@ assert e3_lp: lvl_ty(e3, lp) == tp && lvl_ty(e3, lq) == tq;
  //@ assert e3_ctx: ctx_valid(e3) && ctx_is_ext(e3, e2, ct) && ctx_len_[e3] == lv + 1;
  int vq = b_var(e3, lq);
  //@ assert vq >= 0 ==> tm_ctx_[vq] == e3 && tm_ty_[vq] == tq && 0 <= vq < tm_count;
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int sq = b_snd(vq);
  //@ assert sq >= 0 ==> tm_ctx_[sq] == e3 && ty_same(tm_ty_[sq], TY_LFUN, ct, cgb) && 0 <= sq < tm_count;
  //@ assert sq >= 0 || sq == CHAD_E_CAPACITY;
  int v = b_var(e3, lv);
  //@ assert v >= 0 ==> tm_ctx_[v] == e3 && tm_ty_[v] == ct && 0 <= v < tm_count;
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  int gg = b_lapp(sq, v);
  //@ assert gg >= 0 ==> tm_ctx_[gg] == e3 && tm_ty_[gg] == cgb && 0 <= gg < tm_count;
  //@ assert gg >= 0 || gg == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 4;
  if (gg < 0) return gg;
  int lg = L(e3), e4 = k_ext(e3, tm_type(gg));
  if (e4 < 0) return e4;
  //@ assert e4_lg: lvl_ty(e4, lg) == cgb && lg == ctx_len_[e3];
  //@ assert e4_lp: lvl_ty(e4, lp) == tp;
  //@ assert e4_ctx: ctx_valid(e4) && ctx_is_ext(e4, e3, cgb) && ctx_len_[e4] == lg + 1;
  int w1 = b_var(e4, lg);
  //@ assert w1 >= 0 ==> tm_ctx_[w1] == e4 && tm_ty_[w1] == cgb && 0 <= w1 < tm_count;
  //@ assert w1 >= 0 || w1 == CHAD_E_CAPACITY;
  int f = b_fst(w1);
  //@ assert f >= 0 ==> tm_ctx_[f] == e4 && tm_ty_[f] == cg && 0 <= f < tm_count;
  //@ assert f >= 0 || f == CHAD_E_CAPACITY;
  int vp = b_var(e4, lp);
  //@ assert vp >= 0 ==> tm_ctx_[vp] == e4 && tm_ty_[vp] == tp && 0 <= vp < tm_count;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == e4 && ty_same(tm_ty_[sp], TY_LFUN, ca, cg) && 0 <= sp < tm_count;
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int w2 = b_var(e4, lg);
  //@ assert w2 >= 0 ==> tm_ctx_[w2] == e4 && tm_ty_[w2] == cgb && 0 <= w2 < tm_count;
  //@ assert w2 >= 0 || w2 == CHAD_E_CAPACITY;
  int s = b_snd(w2);
  //@ assert s >= 0 ==> tm_ctx_[s] == e4 && tm_ty_[s] == csd && 0 <= s < tm_count;
  //@ assert s >= 0 || s == CHAD_E_CAPACITY;
  //@ assert ctx_valid(e4) && lin(co);
  int z = b_zero(e4, co);
  //@ assert z >= 0 ==> tm_ctx_[z] == e4 && tm_ty_[z] == co && 0 <= z < tm_count;
  //@ assert z >= 0 || z == CHAD_E_CAPACITY;
  //@ assert s >= 0 ==> tm_ctx_[s] == e4 && tm_ty_[s] == csd && 0 <= s < tm_count;
  int arg = b_pair_side(s, z, side);
  //@ assert arg_0: side == 0 ==> (arg >= 0 ==> tm_ctx_[arg] == e4 && ty_same(tm_ty_[arg], TY_PROD, csd, co) && ty_valid(tm_ty_[arg]));
  //@ assert arg_1: side != 0 ==> (arg >= 0 ==> tm_ctx_[arg] == e4 && ty_same(tm_ty_[arg], TY_PROD, co, csd) && ty_valid(tm_ty_[arg]));
  /* hash-consing: the pair's type is C(A + B) itself */
  //@ assert ca_0: side == 0 ==> ty_same(ca, TY_PROD, csd, co);
  //@ assert ca_1: side != 0 ==> ty_same(ca, TY_PROD, co, csd);
  //@ assert arg_ca: arg >= 0 ==> tm_ty_[arg] == ca && tm_ctx_[arg] == e4 && 0 <= arg < tm_count;
  //@ assert arg >= 0 || arg == CHAD_E_CAPACITY;
  //@ assert sp >= 0 ==> tm_ctx_[sp] == e4 && ty_same(tm_ty_[sp], TY_LFUN, ca, cg) && 0 <= sp < tm_count;
  int ap = b_lapp(sp, arg);
  //@ assert ap >= 0 ==> tm_ctx_[ap] == e4 && tm_ty_[ap] == cg && 0 <= ap < tm_count;
  //@ assert ap >= 0 || ap == CHAD_E_CAPACITY;
  //@ assert f >= 0 ==> tm_ctx_[f] == e4 && tm_ty_[f] == cg && 0 <= f < tm_count;
  int pl = b_plus(f, ap);
  //@ assert pl >= 0 ==> tm_ctx_[pl] == e4 && tm_ty_[pl] == cg && 0 <= pl < tm_count;
  //@ assert pl >= 0 || pl == CHAD_E_CAPACITY;
  //@ assert tm_ctx_[gg] == e3 && tm_ty_[gg] == cgb && 0 <= gg < tm_count && ctx_is_ext(e4, e3, cgb);
  int body = b_let(gg, pl);
  //@ assert body >= 0 ==> tm_ctx_[body] == e3 && tm_ty_[body] == cg && 0 <= body < tm_count;
  //@ assert body >= 0 || body == CHAD_E_CAPACITY;
  //@ assert ctx_is_ext(e3, e2, ct) && lin(cg);
  //@ assert body >= 0 ==> ty_valid(ct) && 0 <= body < tm_count && llam_ok(ct, tm_ctx_[body], tm_ty_[body]);
  int r = b_llam(ct, body);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == e2;
  //@ assert r >= 0 ==> ty_same(tm_ty_[r], TY_LFUN, ct, cg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 16;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* One branch of R(case a b c), in d1 = d, p (p = R a at level lp, of type
 * typ = P(A + B) * (ca -o cg)): the branch body, of type tau in gb = G, x
 * with x : sty (the sum's side), translated under its binder, then
 *   let q = R b in (fst q, lin)          in e1 = d1, x : P sty
 * with lin = rev_case_lin. One recursive call (rev_under). */
/*@ requires REV_INV;
    requires 0 <= body < tm_count && chad_msrc_[body] == 1 && 0 <= depth <= CHAD_MAX_DEPTH + 1;
    requires tm_ctx_[body] == gb && tm_ty_[body] == tau;
    requires 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == sty;
    requires env_ok(CHAD_PREV, g, d1);
    requires ty_valid(st) && ty_kind_[st] == TY_SUM;
    requires side == 0 ==> ty_left_[st] == sty && ty_right_[st] == oty;
    requires side != 0 ==> ty_right_[st] == sty && ty_left_[st] == oty;
    requires trh(CHAD_PREV, sty) && trm(CHAD_PREV, sty) == psd;
    requires trh(CHAD_COT, sty) && trm(CHAD_COT, sty) == csd && trh(CHAD_COT, oty);
    requires ty_valid(ca);
    requires side == 0 ==> ty_same(ca, TY_PROD, csd, trm(CHAD_COT, oty));
    requires side != 0 ==> ty_same(ca, TY_PROD, trm(CHAD_COT, oty), csd);
    requires trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
    requires trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg && lin(cg);
    requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, ca, cg);
    requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_len_[d1] == lp + 1 && lp == ctx_len_[d];
    requires 0 <= d < d1 < ctx_count;
    terminates \true;
    decreases REV_M(depth);
    REV_ASSIGNS;
    REV_FRAME;
    ensures br_size: tm_count - \old(tm_count) <= REV_K * chad_msz_[body] + 20;
    ensures br_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures br_ctx: \result >= 0 ==> \old(tm_count) <= \result < tm_count &&
      ctx_is_ext(tm_ctx_[\result], d1, psd);
    ensures br_type: \result >= 0 ==> ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg);
*/
static int rev_case_branch(int side, int body, int d1, int lp, int st, int ct, int depth)
  /*@ ghost (int p, int g, int gb, int sty, int oty, int tau, int psd, int csd, int ca, int pt, int cg, int d, int typ) */
{
  //@ ghost int n0 = ctx_len_[d];
  //@ ghost int n1 = ctx_len_[d1];
  //@ ghost int tpr = ty_right_[typ];
  //@ assert b_tpr: ty_inv && ty_node_ok(typ) && 0 <= tpr < typ && ty_same(tpr, TY_LFUN, ca, cg);
  int sty_c = side == 0 ? ty_left(st) : ty_right(st);
  int oty_c = side == 0 ? ty_right(st) : ty_left(st);
  //@ assert sty_c == sty && oty_c == oty;
  //@ assert 0 <= sty < CHAD_MAX_TYPES && 0 <= oty < CHAD_MAX_TYPES;
  int psd_c = memo_ty_get(CHAD_PREV, sty_c);
  int co = memo_ty_get(CHAD_COT, oty_c);
  //@ assert b_psd: psd_c == psd;
  //@ assert b_co: co == trm(CHAD_COT, oty) && lin(co) && lin(csd);
  //@ assert b_psdv: ty_valid(psd);
  //@ assert b_ca0: side == 0 ==> ty_valid(ca) && ty_same(ca, TY_PROD, csd, co);
  //@ assert b_ca1: side != 0 ==> ty_valid(ca) && ty_same(ca, TY_PROD, co, csd);
  int lx = L(d1), e1 = rev_ext(d1, psd_c);
  //@ assert e1 >= 0 || e1 == CHAD_E_CAPACITY;
  //@ assert e1_keep: env_keep{Pre, Here};
  //@ assert e1_ret: e1 < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[body] + 20;
  if (e1 < 0) return e1;
  //@ assert e1_ext: ctx_is_ext(e1, d1, psd) && ctx_len_[e1] == lx + 1 && lx == lp + 1 && ctx_valid(e1);
  //@ assert e1_env: env_ok(CHAD_PREV, g, e1);
  //@ assert e1_lx: lx == ctx_len_[d1] && 0 <= lx < ctx_len_[e1];
  //@ assert e1_lvl0: lvl_ty(e1, ctx_len_[d1]) == psd;
  //@ assert e1_lvl: lvl_ty(e1, lx) == psd;
  //@ assert e1_ord: 0 <= d < d1 < e1 < ctx_count;
  //@ ghost int ne1 = ctx_len_[e1];
  //@ assert x_gb: env_ok(CHAD_PREV, ctx_parent_[gb], e1) && trh(CHAD_PREV, ctx_type_[gb]) && trm(CHAD_PREV, ctx_type_[gb]) == psd;
  int q = rev_under(body, e1, lx, depth + 1);
  //@ assert q_keep: env_keep{Pre, Here};
  //@ assert q_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[body];
  if (q < 0) return q;
  //@ assert q_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[body];
  //@ assert q_rev: tm_ctx_[q] == e1 && rev_ty(tm_ty_[q], tau, gb) && 0 <= q < tm_count;
  //@ assert q_memo1: trm(CHAD_PREV, sty) == psd && trm(CHAD_COT, sty) == csd && trc(CHAD_COT, g) == cg;
  //@ assert q_memo2: trh(CHAD_PREV, tau) && trh(CHAD_COT, tau) && trm(CHAD_PREV, tau) == pt && trm(CHAD_COT, tau) == ct;
  //@ assert q_memo3: trm(CHAD_COT, oty) == co;
  //@ assert q_gb: 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == sty && trch(CHAD_COT, gb);
  //@ ghost rev_trc_step(CHAD_COT, gb);
  //@ ghost int cgb = chad_memo_ctx_[CHAD_COT][gb] - 1;
  //@ assert q_cgb0: trc(CHAD_COT, gb) == cgb;
  //@ assert q_cgb: ty_valid(cgb) && ty_same(cgb, TY_PROD, cg, csd);
  //@ ghost int tyq = tm_ty_[q];
  //@ assert q_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, ct, cgb);
  //@ assert q_p: tm_ty_[p] == typ && ty_valid(typ) && ty_kind_[typ] == TY_PROD;
  //@ assert q_pty0: ty_right_[typ] == tpr;
  //@ assert q_pty1: ty_same(tpr, TY_LFUN, ca, cg);
  //@ assert q_pty: ty_same(ty_right_[typ], TY_LFUN, ca, cg);
  //@ assert q_ca: ty_valid(ca) && ty_kind_[ca] == TY_PROD;
  //@ assert q_ord: 0 <= d < d1 < e1 < ctx_count;
  //@ assert q_ext1a: ctx_is_ext(d1, d, typ);
  //@ assert q_n0: ctx_len_[d] == n0;
  //@ assert q_n1: ctx_len_[d1] == n1;
  //@ assert q_ne1: ctx_len_[e1] == ne1;
  //@ assert q_ext1b: ctx_len_[d1] == lp + 1 && lp == ctx_len_[d] && ctx_valid(d);
  //@ assert q_ext2a: ctx_is_ext(e1, d1, psd);
  //@ assert q_ext2b: ctx_len_[e1] == lx + 1 && lx == lp + 1;
  //@ assert q_lvl1: lvl_ty(d1, lp) == typ;
  //@ assert q_lvl2: lvl_ty(e1, lp) == typ;
  int lq = L(e1), e2 = rev_ext(e1, tyof(q));
  //@ assert e2 >= 0 || e2 == CHAD_E_CAPACITY;
  //@ assert e2_keep: env_keep{Pre, Here};
  //@ assert e2_ret: e2 < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[body] + 20;
  if (e2 < 0) return e2;
  //@ assert e2_ext: ctx_is_ext(e2, e1, tyq) && ctx_len_[e2] == lq + 1 && lq == lx + 1 && ctx_valid(e2);
  //@ assert e2_lq: lq == ctx_len_[e1] && 0 <= lp < lq;
  //@ assert e2_lvl0: lvl_ty(e2, ctx_len_[e1]) == tyq;
  //@ assert e2_lvlq: lvl_ty(e2, lq) == tyq;
  //@ assert e2_lvlp0: lvl_ty(e2, lp) == lvl_ty(e1, lp);
  //@ assert e2_n0: ctx_len_[d] == n0;
  //@ assert e2_n1: ctx_len_[d1] == n1;
  //@ assert e2_ne1: ctx_len_[e1] == ne1;
  //@ assert e2_p1: ctx_parent_[d1] == d && ctx_type_[d1] == typ;
  //@ assert e2_p2: ctx_parent_[e1] == d1 && ctx_type_[e1] == psd;
  //@ assert e2_l1: lvl_ty(d1, lp) == typ;
  //@ assert e2_l2: lvl_ty(e1, lp) == lvl_ty(d1, lp);
  //@ assert e2_lvlp: lvl_ty(e2, lp) == typ;
  //@ assert e2_lvl: lvl_ty(e2, lq) == tyq && lvl_ty(e2, lp) == typ;
  //@ assert e2_len: 0 <= lp < ctx_len_[e2] && 0 <= lq < ctx_len_[e2];
  //@ assert e2_ct: ty_valid(ct) && lin(cg) && lin(co);
  //@ assert e2_ca0: side == 0 ==> ty_same(ca, TY_PROD, csd, co);
  //@ assert e2_ca1: side != 0 ==> ty_same(ca, TY_PROD, co, csd);
  //@ ghost Built: ;
  int lin = rev_case_lin(e2, lp, lq, ct, side, co) /*@ ghost (cg, ca, csd, cgb, typ, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == e2 && ty_same(tm_ty_[lin], TY_LFUN, ct, cg) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_keep: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[body] + 16;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert lin_ret: lin < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[body] + 20;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert l_lin: tm_ctx_[lin] == e2 && ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg) && 0 <= lin < tm_count;
  //@ assert l_lvlq: lvl_ty(e2, lq) == tyq && 0 <= lq < ctx_len_[e2] && ctx_valid(e2);
  int vq = b_var(e2, lq);
  //@ assert vq >= 0 ==> tm_ctx_[vq] == e2 && tm_ty_[vq] == tyq && 0 <= vq < tm_count;
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  //@ assert vq_prod: vq >= 0 ==> ty_valid(tm_ty_[vq]) && ty_kind_[tm_ty_[vq]] == TY_PROD && ty_left_[tm_ty_[vq]] == pt;
  int prim = b_fst(vq);
  //@ assert prim >= 0 ==> tm_ctx_[prim] == e2 && tm_ty_[prim] == pt && 0 <= prim < tm_count;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert p_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[body] + 18;
  //@ assert p_grow: tables_grow{Built, Here} && side_same{Built, Here};
  //@ assert p_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[body] + 20;
  //@ assert p_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert p_keep: env_keep{Pre, Here};
  if (prim < 0) return prim;
  //@ assert t_lin0: tm_ty_[lin] == tyl && tm_ctx_[lin] == e2 && 0 <= lin < tm_count;
  //@ assert t_lin1: ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg);
  //@ assert t_q: 0 <= q < tm_count && tm_ctx_[q] == e1 && tm_ty_[q] == tyq && ctx_valid(e1) && ctx_is_ext(e2, e1, tyq);
  //@ assert t_e1: ctx_is_ext(e1, d1, psd);
  //@ ghost Tail: ;
  int r = let_unary_tail(q, prim, lin) /*@ ghost (e1, e2, pt, ct, cg) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == e1 && \at(tm_count, Pre) <= r < tm_count;
  //@ assert r_e1: ctx_is_ext(e1, d1, psd);
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, ct, cg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[body] + 20;
  //@ assert tables_grow{Tail, Here} && side_same{Tail, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* The common contract of rev_case_body and rev_case_last: p = R a
 * (a : A + B = st in G) at level lp of d1 = d, p; ps = P(A + B) = P A +
 * P B, ca = C(A + B) = C A * C B. */
#define CASE_PRE \
  requires REV_INV; \
  requires ty_valid(st) && ty_kind_[st] == TY_SUM && ty_left_[st] == l && ty_right_[st] == r; \
  requires trh(CHAD_PREV, l) && trm(CHAD_PREV, l) == psl && trh(CHAD_PREV, r) && trm(CHAD_PREV, r) == psr; \
  requires trh(CHAD_COT, l) && trm(CHAD_COT, l) == csl && trh(CHAD_COT, r) && trm(CHAD_COT, r) == csr; \
  requires ty_valid(ps) && ty_same(ps, TY_SUM, psl, psr) && ty_valid(ca) && ty_same(ca, TY_PROD, csl, csr); \
  requires trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct; \
  requires trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg && lin(cg); \
  requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ; \
  requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == ps && \
    ty_same(ty_right_[typ], TY_LFUN, ca, cg); \
  requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_len_[d1] == lp + 1 && \
    lp == ctx_len_[d] && 0 <= d < d1 < ctx_count; \
  requires env_ok(CHAD_PREV, g, d1); \
  requires 0 <= depth <= CHAD_MAX_DEPTH
#define CASE_POST \
  REV_ASSIGNS; \
  REV_FRAME; \
  ensures \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH; \
  ensures case_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d && \
    ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD && \
    ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg)

/* R(case)'s right branch and the tail, given the left branch br0 */
/*@ CASE_PRE;
    requires 0 <= c < tm_count && chad_msrc_[c] == 1 && tm_ctx_[c] == gc && tm_ty_[c] == tau;
    requires 0 < gc < ctx_count && ctx_parent_[gc] == g && ctx_type_[gc] == r;
    requires 0 <= br0 < tm_count && ctx_is_ext(tm_ctx_[br0], d1, psl);
    requires ty_valid(tm_ty_[br0]) && ty_kind_[tm_ty_[br0]] == TY_PROD &&
      ty_left_[tm_ty_[br0]] == pt && ty_same(ty_right_[tm_ty_[br0]], TY_LFUN, ct, cg);
    terminates \true;
    decreases REV_M(depth) - 4;
    CASE_POST;
    ensures last_size: tm_count - \old(tm_count) <= REV_K * chad_msz_[c] + 24;
*/
static int rev_case_last(int c, int p, int d1, int lp, int st, int br0, int ct, int depth)
  /*@ ghost (int g, int gc, int l, int r, int tau, int ps, int psl, int psr, int csl, int csr,
             int ca, int pt, int cg, int d, int typ) */
{
  //@ ghost int n0 = ctx_len_[d];
  //@ ghost int n1 = ctx_len_[d1];
  //@ ghost int g0 = tm_ctx_[br0];
  //@ ghost int ty0 = tm_ty_[br0];
  //@ ghost int x0 = ty_right_[ty0];
  //@ assert l_x0: ty_inv && ty_node_ok(ty0) && 0 <= x0 < ty0 && ty_same(x0, TY_LFUN, ct, cg);
  //@ assert l_g0: ctx_is_ext(g0, d1, psl) && 0 < g0 < ctx_count;
  //@ ghost int tpr = ty_right_[typ];
  //@ assert l_tpr: ty_node_ok(typ) && 0 <= tpr < typ && ty_same(tpr, TY_LFUN, ca, cg);
  //@ assert l_ca: ty_same(ca, TY_PROD, trm(CHAD_COT, l), csr);
  int br1 = rev_case_branch(1, c, d1, lp, st, ct, depth + 1)
    /*@ ghost (p, g, gc, r, l, tau, psr, csr, ca, pt, cg, d, typ) */;
  //@ assert b1_keep: env_keep{Pre, Here};
  //@ assert b1_ret: br1 < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[c] + 24;
  if (br1 < 0) return br1;
  //@ assert b1_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[c] + 20;
  //@ ghost int ty1 = tm_ty_[br1];
  //@ ghost int x1 = ty_right_[ty1];
  //@ assert b1_ctx: ctx_is_ext(tm_ctx_[br1], d1, psr);
  //@ assert b1_x1: ty_node_ok(ty1) && 0 <= x1 < ty1 && ty_same(x1, TY_LFUN, ct, cg);
  //@ assert b1_br0: tm_ctx_[br0] == g0 && tm_ty_[br0] == ty0 && 0 <= br0 < br1;
  //@ assert b1_x0: ty_right_[ty0] == x0 && ty_same(x0, TY_LFUN, ct, cg);
  /* hash-consing: the two branches have one type */
  //@ assert b1_xx: x1 == x0;
  //@ assert b1_t0: ty_same(ty0, TY_PROD, pt, x0);
  //@ assert b1_t1: ty_same(ty1, TY_PROD, pt, x0);
  //@ assert b1_tt: ty1 == ty0;
  //@ assert b1_g0: ctx_is_ext(g0, d1, psl);
  //@ assert b1_n0: ctx_len_[d] == n0;
  //@ assert b1_n1: ctx_len_[d1] == n1;
  //@ assert b1_d1: ctx_is_ext(d1, d, typ) && ctx_len_[d1] == lp + 1 && ctx_valid(d) && ctx_valid(d1);
  //@ assert b1_lvl: lvl_ty(d1, lp) == typ && 0 <= lp < ctx_len_[d1];
  //@ assert b1_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert b1_ps: ty_valid(ps) && ty_kind_[ps] == TY_SUM && ty_left_[ps] == psl && ty_right_[ps] == psr;
  //@ assert b1_typ: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == ps;
  //@ ghost Tail: ;
  int res = case_tail(p, d1, lp, br0, br1) /*@ ghost (d, ps) */;
  //@ assert res >= 0 ==> tm_ctx_[res] == d && tm_ty_[res] == ty0 && \at(tm_count, Pre) <= res < tm_count;
  //@ assert res >= 0 ==> ty_valid(ty0) && ty_kind_[ty0] == TY_PROD && ty_left_[ty0] == pt && ty_same(ty_right_[ty0], TY_LFUN, ct, cg);
  //@ assert res >= 0 || res == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[c] + 24;
  //@ assert tables_grow{Tail, Here} && side_same{Tail, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert env_keep{Pre, Here};
  return res;
}

/* R(case)'s left branch, then rev_case_last */
/*@ CASE_PRE;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && tm_ctx_[b] == gb && tm_ty_[b] == tau;
    requires 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == l;
    requires 0 <= c < tm_count && chad_msrc_[c] == 1 && tm_ctx_[c] == gc && tm_ty_[c] == tau;
    requires 0 < gc < ctx_count && ctx_parent_[gc] == g && ctx_type_[gc] == r;
    terminates \true;
    decreases REV_M(depth) - 3;
    CASE_POST;
    ensures body_size: tm_count - \old(tm_count) <= REV_K * chad_msz_[b] + REV_K * chad_msz_[c] + 44;
*/
static int rev_case_body(int b, int c, int p, int d1, int lp, int st, int ct, int depth)
  /*@ ghost (int g, int gb, int gc, int l, int r, int tau, int ps, int psl, int psr, int csl, int csr,
             int ca, int pt, int cg, int d, int typ) */
{
  //@ ghost int n0 = ctx_len_[d];
  //@ ghost int n1 = ctx_len_[d1];
  //@ ghost int tpr = ty_right_[typ];
  //@ assert c_tpr: ty_inv && ty_node_ok(typ) && 0 <= tpr < typ && ty_same(tpr, TY_LFUN, ca, cg);
  //@ assert c_ps: ty_node_ok(ps) && ty_same(ps, TY_SUM, psl, psr);
  //@ assert c_ca: ty_same(ca, TY_PROD, csl, trm(CHAD_COT, r));
  int br0 = rev_case_branch(0, b, d1, lp, st, ct, depth + 1)
    /*@ ghost (p, g, gb, l, r, tau, psl, csl, ca, pt, cg, d, typ) */;
  //@ assert b0_keep: env_keep{Pre, Here};
  //@ assert b0_ret: br0 < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b] + REV_K * chad_msz_[c] + 44;
  if (br0 < 0) return br0;
  //@ assert b0_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 20;
  //@ assert b0_ctx: ctx_is_ext(tm_ctx_[br0], d1, psl) && 0 <= br0 < tm_count;
  //@ assert b0_ty: ty_valid(tm_ty_[br0]) && ty_kind_[tm_ty_[br0]] == TY_PROD && ty_left_[tm_ty_[br0]] == pt && ty_same(ty_right_[tm_ty_[br0]], TY_LFUN, ct, cg);
  //@ assert b0_memo1: trm(CHAD_PREV, l) == psl && trm(CHAD_PREV, r) == psr && trm(CHAD_COT, l) == csl && trm(CHAD_COT, r) == csr;
  //@ assert b0_memo2: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
  //@ assert b0_memo3: trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg;
  //@ assert b0_tpr: ty_right_[typ] == tpr && ty_same(tpr, TY_LFUN, ca, cg);
  //@ assert b0_ps: ty_same(ps, TY_SUM, psl, psr) && ty_valid(ps);
  //@ assert b0_ca: ty_same(ca, TY_PROD, csl, csr);
  //@ assert b0_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert b0_n0: ctx_len_[d] == n0;
  //@ assert b0_n1: ctx_len_[d1] == n1;
  //@ assert b0_d1: ctx_is_ext(d1, d, typ) && ctx_len_[d1] == lp + 1 && lp == ctx_len_[d] && ctx_valid(d) && ctx_valid(d1);
  //@ assert b0_env: env_ok(CHAD_PREV, g, d1);
  //@ assert b0_c: 0 <= c < tm_count && chad_msrc_[c] == 1 && tm_ctx_[c] == gc && tm_ty_[c] == tau;
  //@ assert b0_gc: 0 < gc < ctx_count && ctx_parent_[gc] == g && ctx_type_[gc] == r;
  //@ ghost Last: ;
  int res = rev_case_last(c, p, d1, lp, st, br0, ct, depth)
    /*@ ghost (g, gc, l, r, tau, ps, psl, psr, csl, csr, ca, pt, cg, d, typ) */;
  //@ assert tm_count - \at(tm_count, Last) <= REV_K * chad_msz_[c] + 24;
  //@ assert env_keep{Pre, Here};
  return res;
}

/* let p = R a in case fst p of
 *   inl x -> let q = R b in (fst q, \v. let g = snd q v in fst g + snd p (snd g, 0))
 *   inr y -> ... snd p (0, snd g)
 * R a and p's extension here, the branches in rev_case_body and
 * rev_case_last (one recursive call per function), the tail in case_tail. */
/*@ RULE_PRE(t, d, tm_kind_[t] == TM_CASE);
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases REV_M(depth) - 2;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_case(int t, int d, int ct, int depth)
{
  //@ assert node_ok(t) && msrc_ok(t) && msz_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t), c = tm_c(t);
  //@ ghost int ta = tm_ty_[a];
  //@ ghost int gb = tm_ctx_[b];
  //@ ghost int gc = tm_ctx_[c];
  //@ assert 0 <= a < t && 0 <= b < t && 0 <= c < t;
  //@ assert chad_msrc_[a] == 1 && chad_msrc_[b] == 1 && chad_msrc_[c] == 1;
  //@ assert case_src: tm_ctx_[a] == g && tm_ty_[b] == tau && tm_ty_[c] == tau;
  //@ assert case_sum: ty_valid(ta) && ty_kind_[ta] == TY_SUM;
  //@ ghost int l = ty_left_[ta];
  //@ ghost int r = ty_right_[ta];
  //@ assert case_gb: ctx_is_ext(gb, g, l) && ctx_is_ext(gc, g, r);
  //@ assert case_gb2: 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == l;
  //@ assert case_gc2: 0 < gc < ctx_count && ctx_parent_[gc] == g && ctx_type_[gc] == r;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b] + chad_msz_[c]);
  /* the size budget: R a, R b, R c and at most 44 nodes of this rule (or
   * the whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && 1 <= chad_msz_[c] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert case_budget: REV_K * chad_msz_[a] + REV_K * chad_msz_[b] + REV_K * chad_msz_[c] + 44 <=
        REV_K * chad_msz_[t] || CHAD_MAX_TERMS <= REV_K * chad_msz_[t]; */
  /*@ ghost int cgv = tm_ctx_[t] == CTX_EMPTY ? TY_ID_UNIT :
        chad_memo_ctx_[CHAD_COT][tm_ctx_[t]] - 1; */
  //@ assert cgv == trc(CHAD_COT, g) && lin(cgv);
  //@ assert memo_ty_inv && trh(CHAD_COT, tau) && trh(CHAD_PREV, tau) && ct == chad_memo_ty_[CHAD_COT][tau] - 1;
  //@ ghost int pt = chad_memo_ty_[CHAD_PREV][tau] - 1;
  int p = rev(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  //@ assert pa_rev: tm_ctx_[p] == d && rev_ty(tm_ty_[p], ta, g) && 0 <= p < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a];
  //@ assert pa_memo: trh(CHAD_PREV, ta) && trh(CHAD_COT, ta) && trc(CHAD_COT, g) == cgv;
  //@ assert pa_tau: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
  //@ ghost rev_tr_step(CHAD_PREV, ta);
  //@ ghost rev_tr_step(CHAD_COT, ta);
  //@ ghost int ps = chad_memo_ty_[CHAD_PREV][ta] - 1;
  //@ ghost int ca = chad_memo_ty_[CHAD_COT][ta] - 1;
  //@ assert pa_l: trh(CHAD_PREV, l) && trh(CHAD_PREV, r) && trh(CHAD_COT, l) && trh(CHAD_COT, r);
  //@ ghost int psl = chad_memo_ty_[CHAD_PREV][l] - 1;
  //@ ghost int psr = chad_memo_ty_[CHAD_PREV][r] - 1;
  //@ ghost int csl = chad_memo_ty_[CHAD_COT][l] - 1;
  //@ ghost int csr = chad_memo_ty_[CHAD_COT][r] - 1;
  //@ assert pa_ps: ty_valid(ps) && ty_same(ps, TY_SUM, psl, psr);
  //@ assert pa_ca: ty_valid(ca) && ty_same(ca, TY_PROD, csl, csr);
  //@ ghost int typ = tm_ty_[p];
  //@ assert pa_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == ps && ty_same(ty_right_[typ], TY_LFUN, ca, cgv);
  //@ assert pa_env: env_ok(CHAD_PREV, g, d) && ctx_valid(d);
  int lp = L(d), d1 = rev_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d) && ctx_len_[d1] == lp + 1 && lp == ctx_len_[d];
  //@ assert d1_ord: 0 <= d < d1 < ctx_count;
  //@ assert d1_env: env_ok(CHAD_PREV, g, d1);
  int st = tm_type(a);
  //@ assert st == ta;
  //@ ghost Body: ;
  int res = rev_case_body(b, c, p, d1, lp, st, ct, depth)
    /*@ ghost (g, gb, gc, l, r, tau, ps, psl, psr, csl, csr, ca, pt, cgv, d, typ) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= REV_K * chad_msz_[b] + REV_K * chad_msz_[c] + 44;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert res >= 0 || res == CHAD_E_CAPACITY || res == CHAD_E_DEPTH;
  //@ ghost int tyr = res >= 0 ? tm_ty_[res] : 0;
  //@ assert res >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, ct, cgv);
  //@ assert r_memo1: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt;
  //@ assert r_memo2: trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
  //@ assert r_memo3: trch(CHAD_COT, g) && trc(CHAD_COT, g) == cgv;
  //@ assert res >= 0 ==> rev_ty(tm_ty_[res], \at(tm_ty_[t], Pre), \at(tm_ctx_[t], Pre));
  return res;
}
