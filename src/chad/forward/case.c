/* F(case t (a.s1) (b.s2)) = let (x,dx) = F t in case x of
 *                   inl a -> let (y,dy) = F_{G,a} s1 in (y, \v. dy (v, fst (dx v)))
 *                   inr b -> let (y,dy) = F_{G,b} s2 in (y, \v. dy (v, snd (dx v)))
 * (../shared/chad-rules.md, section 4, forward mode)
 *   fwd_case_lin     one branch's linear half  \v. dy (v, fst (dx v))  (inr: snd)
 *   fwd_case_branch  one branch: F_{G,a} s1 (or F_{G,b} s2) and its pair
 *   fwd_case_last    the inr branch and the case term, given the inl branch
 *   fwd_case_body    the inl branch, then fwd_case_last
 *   fwd_case         the rule: F t, then fwd_case_body
 * Part of forward.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* The linear half of one branch of F(case a b c), in e2 where level lp
 * holds p = F a (type typ = P(A + B) * (T G -o sa), sa = T(A + B) = T A *
 * T B) and level lq holds q = F_{G,x} b (type tyq = P tau * (tgx -o tt),
 * tgx = T(G, x) = T G * ssd, ssd the tangent of the branch's side):
 *   \v. snd q (v, fst (snd p v))     (side 0)
 *   \v. snd q (v, snd (snd p v))     (side 1)
 * of type T G -o T tau. As fwd_let_lin, with the projection. */
/*@ requires kernel_inv;
    requires ctx_valid(e2) && ty_valid(tg) && ty_valid(ssd) && ty_valid(tt) && lin(tt);
    requires ty_valid(sa) && ty_kind_[sa] == TY_PROD;
    requires side == 0 ==> ty_left_[sa] == ssd;
    requires side != 0 ==> ty_right_[sa] == ssd;
    requires ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, ssd);
    requires 0 <= lp < ctx_len_[e2] && lvl_ty(e2, lp) == typ && ty_valid(typ) &&
      ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, tg, sa);
    requires 0 <= lq < ctx_len_[e2] && lvl_ty(e2, lq) == tyq && ty_valid(tyq) &&
      ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, tgx, tt);
    terminates \true;
    assigns CH_TM_LOCS, CH_TMS_LOCS, CH_TYS_LOCS, CH_CTX_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures fcase_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == e2 &&
      ty_same(tm_ty_[\result], TY_LFUN, tg, tt);
    ensures fcase_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures fcase_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 11;
    ensures fcase_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures fcase_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures env_keep{Pre, Post};
*/
static int fwd_case_lin(int e2, int lp, int lq, int tg, int side)
  /*@ ghost (int sa, int ssd, int tgx, int tt, int typ, int tyq) */
{
  int lv = L(e2), e3 = k_ext(e2, tg);
  if (e3 < 0) return e3;
  //@ assert lvl_ty(e3, lv) == tg && lvl_ty(e3, lp) == lvl_ty(e2, lp) && lvl_ty(e3, lq) == lvl_ty(e2, lq);
  int vq = V(e3, lq);
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int sq = b_snd(vq);
  //@ assert sq >= 0 ==> tm_ctx_[sq] == e3 && ty_same(tm_ty_[sq], TY_LFUN, tgx, tt);
  //@ assert sq >= 0 || sq == CHAD_E_CAPACITY;
  int v1 = V(e3, lv);
  //@ assert v1 >= 0 ==> tm_ctx_[v1] == e3 && tm_ty_[v1] == tg;
  //@ assert v1 >= 0 || v1 == CHAD_E_CAPACITY;
  int vp = V(e3, lp);
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == e3 && ty_same(tm_ty_[sp], TY_LFUN, tg, sa);
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int v2 = V(e3, lv);
  //@ assert v2 >= 0 ==> tm_ctx_[v2] == e3 && tm_ty_[v2] == tg;
  //@ assert v2 >= 0 || v2 == CHAD_E_CAPACITY;
  int dsc = b_lapp(sp, v2);
  //@ assert dsc >= 0 ==> tm_ctx_[dsc] == e3 && tm_ty_[dsc] == sa;
  //@ assert dsc >= 0 || dsc == CHAD_E_CAPACITY;
  int part = b_proj(dsc, side);
  //@ assert part >= 0 ==> tm_ctx_[part] == e3 && tm_ty_[part] == ssd;
  //@ assert part >= 0 || part == CHAD_E_CAPACITY;
  //@ assert v1 >= 0 ==> tm_ctx_[v1] == e3 && tm_ty_[v1] == tg;
  int arg = b_pair(v1, part);
  //@ assert arg >= 0 ==> tm_ctx_[arg] == e3 && ty_same(tm_ty_[arg], TY_PROD, tg, ssd) && ty_valid(tm_ty_[arg]);
  //@ assert arg >= 0 || arg == CHAD_E_CAPACITY;
  //@ assert ty_inv && ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, ssd);
  //@ assert arg >= 0 ==> tm_ty_[arg] == tgx;
  //@ assert sq >= 0 ==> tm_ctx_[sq] == e3 && ty_same(tm_ty_[sq], TY_LFUN, tgx, tt);
  int dy = b_lapp(sq, arg);
  //@ assert dy >= 0 ==> tm_ctx_[dy] == e3 && tm_ty_[dy] == tt;
  //@ assert dy >= 0 || dy == CHAD_E_CAPACITY;
  //@ assert dy >= 0 ==> ty_valid(tg) && 0 <= dy < tm_count && llam_ok(tg, tm_ctx_[dy], tm_ty_[dy]);
  //@ assert ctx_parent_[e3] == e2;
  int r = b_llam(tg, dy);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == e2;
  //@ assert r >= 0 ==> ty_same(tm_ty_[r], TY_LFUN, tg, tt);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == e2 && ty_same(tm_ty_[r], TY_LFUN, tg, tt);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* One branch of F(case a b c), in d1 = d, p (p = F a at level lp, of type
 * typ = P(A + B) * (T G -o sa)): the branch body, of type tau in gb = G, x
 * with x : sty (the sum's side), translated under its binder, then
 *   let q = F b in (fst q, lin)          in e1 = d1, x : P sty
 * with lin = fwd_case_lin. One recursive call (fwd_under). */
/*@ requires kernel_inv && memo_inv && src_inv && venv_wf;
    requires 0 <= body < tm_count && chad_msrc_[body] == 1 && 0 <= depth <= CHAD_MAX_DEPTH + 1;
    requires tm_ctx_[body] == gb && tm_ty_[body] == tau;
    requires 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == sty;
    requires env_ok(CHAD_PFWD, g, d1);
    requires ty_valid(st) && ty_kind_[st] == TY_SUM;
    requires side == 0 ==> ty_left_[st] == sty;
    requires side != 0 ==> ty_right_[st] == sty;
    requires trh(CHAD_PFWD, sty) && trm(CHAD_PFWD, sty) == psd;
    requires trh(CHAD_TAN, sty) && trm(CHAD_TAN, sty) == ssd;
    requires ty_valid(sa) && ty_kind_[sa] == TY_PROD;
    requires side == 0 ==> ty_left_[sa] == ssd;
    requires side != 0 ==> ty_right_[sa] == ssd;
    requires trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt && trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt;
    requires ty_valid(tt) && lin(tt);
    requires trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg && ty_valid(tg);
    requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, tg, sa);
    requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_len_[d1] == lp + 1 && lp == ctx_len_[d];
    requires lvl_ty(d1, lp) == typ;
    requires 0 <= d < d1 < ctx_count;
    terminates \true;
    decreases FWD_M(depth);
    FWD_ASSIGNS;
    ensures kernel_inv && memo_inv && src_inv && venv_wf;
    ensures venv_sp == \old(venv_sp) && venv_cur == \old(venv_cur);
    ensures memo_grows{Pre, Post};
    ensures \old(tm_count) <= tm_count && \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures env_keep{Pre, Post};
    ensures br_size: tm_count - \old(tm_count) <= FWD_K * chad_msz_[body] + 15;
    ensures br_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures br_ctx: \result >= 0 ==> \old(tm_count) <= \result < tm_count &&
      ctx_is_ext(tm_ctx_[\result], d1, psd);
    ensures br_type: \result >= 0 ==> ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, tg, tt);
*/
static int fwd_case_branch(int side, int body, int d1, int lp, int st, int tg, int depth)
  /*@ ghost (int p, int g, int gb, int sty, int tau, int psd, int ssd, int sa, int pt, int tt, int d, int typ) */
{
  //@ ghost int rtp = ty_right_[typ];
  //@ assert b_rtp: ty_inv && ty_node_ok(typ) && ty_valid(rtp) && ty_same(rtp, TY_LFUN, tg, sa);
  int sty_c = side == 0 ? ty_left(st) : ty_right(st);
  //@ assert sty_c == sty && 0 <= sty < CHAD_MAX_TYPES;
  int psd_c = memo_ty_get(CHAD_PFWD, sty_c);
  //@ assert b_psd: psd_c == psd && ty_valid(psd);
  int lx = L(d1), e1 = f_ext(d1, psd_c);
  //@ assert e1 >= 0 || e1 == CHAD_E_CAPACITY;
  //@ assert e1_keep: env_keep{Pre, Here};
  //@ assert e1_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[body];
  if (e1 < 0) return e1;
  //@ assert e1_env: env_ok(CHAD_PFWD, g, e1) && ctx_len_[e1] == lx + 1 && lx == lp + 1;
  //@ assert e1_lx: lx == ctx_len_[d1] && ctx_len_[d1] == lp + 1;
  //@ assert e1_top: lvl_ty(e1, ctx_len_[d1]) == psd;
  //@ assert e1_lvl1: lvl_ty(e1, lx) == psd && 0 <= lp < ctx_len_[d1];
  //@ assert e1_lvl2: lvl_ty(d1, lp) == typ;
  //@ assert e1_lvl: lvl_ty(e1, lx) == psd && lvl_ty(e1, lp) == typ;
  //@ assert e1_ext: ctx_is_ext(e1, d1, psd) && ctx_valid(e1) && ctx_is_ext(d1, d, typ) && ctx_valid(d);
  //@ assert e1_gb: env_ok(CHAD_PFWD, ctx_parent_[gb], e1) && trh(CHAD_PFWD, ctx_type_[gb]) && trm(CHAD_PFWD, ctx_type_[gb]) == psd;
  int q = fwd_under(body, e1, lx, depth + 1);
  //@ assert qb_keep: env_keep{Pre, Here};
  //@ assert qb_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[body];
  if (q < 0) return q;
  //@ assert qb_b: tm_ctx_[body] == gb && tm_ty_[body] == tau;
  //@ assert qb_fwd: tm_ctx_[q] == e1 && fwd_ty(tm_ty_[q], gb, tau) && 0 <= q < tm_count;
  //@ ghost int tyq = tm_ty_[q];
  //@ ghost int tgx = chad_memo_ctx_[CHAD_TAN][gb] - 1;
  //@ assert qb_tgx: trch(CHAD_TAN, gb) && trc(CHAD_TAN, gb) == tgx && 0 < gb;
  //@ ghost trc_step(CHAD_TAN, gb);
  //@ assert qb_memo1: trm(CHAD_PFWD, sty) == psd && trm(CHAD_TAN, sty) == ssd && trc(CHAD_TAN, g) == tg;
  //@ assert qb_memo2: trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt;
  //@ assert qb_tgx2: ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, ssd);
  //@ assert qb_qty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, tgx, tt);
  //@ assert qb_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert qb_len: ctx_len_[d] == lp && ctx_len_[d1] == lp + 1 && lx == lp + 1;
  //@ assert qb_grow: tables_grow{Pre, Here};
  //@ assert qb_pk: ty_valid(typ) && ty_kind_[typ] == TY_PROD;
  //@ assert qb_pr1: ty_right_[typ] == rtp;
  //@ assert qb_pr2: ty_valid(rtp) && ty_same(rtp, TY_LFUN, tg, sa);
  //@ assert qb_pr: ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  //@ assert qb_tt: ty_valid(tt) && lin(tt) && ty_valid(tg) && ty_valid(ssd);
  //@ assert qb_sa: ty_valid(sa) && ty_kind_[sa] == TY_PROD;
  //@ assert qb_ext: ctx_is_ext(d1, d, typ) && ctx_is_ext(e1, d1, psd) && ctx_valid(e1) && ctx_valid(d);
  //@ assert qb_len2: ctx_len_[e1] == lx + 1;
  //@ assert qb_lvl: lvl_ty(e1, lp) == typ && lvl_ty(e1, lx) == psd;
  int lq = L(e1), e2 = f_ext(e1, tyof(q));
  //@ assert e2 >= 0 || e2 == CHAD_E_CAPACITY;
  //@ assert e2_keep: env_keep{Pre, Here};
  //@ assert e2_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[body];
  if (e2 < 0) return e2;
  //@ assert e2_len: ctx_len_[e2] == lq + 1 && lq == lx + 1 && ctx_parent_[e2] == e1 && ctx_type_[e2] == tyq;
  //@ assert e2_ext: ctx_is_ext(e2, e1, tyq) && ctx_valid(e2);
  //@ assert e2_ext2: ctx_is_ext(e1, d1, psd) && ctx_is_ext(d1, d, typ) && ctx_valid(d);
  //@ assert e2_lq: lvl_ty(e2, lq) == tyq;
  //@ assert e2_lp: lvl_ty(e2, lp) == typ && 0 <= lp < lq < ctx_len_[e2];
  //@ assert e2_pty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  //@ assert e2_qty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, tgx, tt);
  //@ assert e2_tgx: ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, ssd);
  //@ assert e2_sa0: side == 0 ==> ty_left_[sa] == ssd;
  //@ assert e2_sa1: side != 0 ==> ty_right_[sa] == ssd;
  //@ ghost Built: ;
  int lin = fwd_case_lin(e2, lp, lq, tg, side) /*@ ghost (sa, ssd, tgx, tt, typ, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == e2 && ty_same(tm_ty_[lin], TY_LFUN, tg, tt) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_env: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[body] + 11;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert l_lin: tm_ctx_[lin] == e2 && ty_valid(tyl) && ty_same(tyl, TY_LFUN, tg, tt) && 0 <= lin < tm_count;
  //@ assert l_lvlq: lvl_ty(e2, lq) == tyq && 0 <= lq < ctx_len_[e2] && ctx_valid(e2);
  int vq = V(e2, lq);
  //@ assert vq >= 0 ==> tm_ctx_[vq] == e2 && tm_ty_[vq] == tyq && 0 <= vq < tm_count;
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  //@ assert vq_prod: vq >= 0 ==> ty_valid(tm_ty_[vq]) && ty_kind_[tm_ty_[vq]] == TY_PROD && ty_left_[tm_ty_[vq]] == pt;
  int prim = b_fst(vq);
  //@ assert prim >= 0 ==> tm_ctx_[prim] == e2 && tm_ty_[prim] == pt && 0 <= prim < tm_count;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert p_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[body] + 13;
  //@ assert p_grow: tables_grow{Built, Here} && side_same{Built, Here};
  //@ assert p_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  //@ assert p_keep: env_keep{Pre, Here};
  if (prim < 0) return prim;
  //@ assert t_lin0: tm_ty_[lin] == tyl && tm_ctx_[lin] == e2 && 0 <= lin < tm_count;
  //@ assert t_lin1: ty_valid(tyl) && ty_same(tyl, TY_LFUN, tg, tt);
  //@ assert t_lin: tm_ctx_[lin] == e2 && ty_valid(tm_ty_[lin]) && ty_same(tm_ty_[lin], TY_LFUN, tg, tt) && 0 <= lin < tm_count;
  //@ assert t_q: 0 <= q < tm_count && tm_ctx_[q] == e1 && tm_ty_[q] == tyq && ctx_valid(e1) && ctx_is_ext(e2, e1, tyq);
  //@ assert t_e1: ctx_is_ext(e1, d1, psd);
  //@ ghost Tail: ;
  int r = let_unary_tail(q, prim, lin) /*@ ghost (e1, e2, pt, tg, tt) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == e1 && \at(tm_count, Pre) <= r < tm_count;
  //@ assert r_e1: ctx_is_ext(e1, d1, psd);
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, tg, tt);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[body] + 15;
  //@ assert tables_grow{Tail, Here} && side_same{Tail, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* The common contract of fwd_case_body and fwd_case_last: p = F a (a :
 * A + B = st in G) at level lp of d1 = d, p; ps = P(A + B) = P A + P B,
 * sa = T(A + B) = T A * T B. */
#define FCASE_PRE \
  requires kernel_inv && memo_inv && src_inv; \
  requires ty_valid(st) && ty_kind_[st] == TY_SUM && ty_left_[st] == l && ty_right_[st] == r; \
  requires trh(CHAD_PFWD, l) && trm(CHAD_PFWD, l) == psl && trh(CHAD_PFWD, r) && trm(CHAD_PFWD, r) == psr; \
  requires trh(CHAD_TAN, l) && trm(CHAD_TAN, l) == ssl && trh(CHAD_TAN, r) && trm(CHAD_TAN, r) == ssr; \
  requires ty_valid(ps) && ty_same(ps, TY_SUM, psl, psr) && ty_valid(sa) && ty_same(sa, TY_PROD, ssl, ssr); \
  requires trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt && trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt; \
  requires ty_valid(tt) && lin(tt); \
  requires trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg && ty_valid(tg); \
  requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ; \
  requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == ps && \
    ty_same(ty_right_[typ], TY_LFUN, tg, sa); \
  requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_len_[d1] == lp + 1 && \
    lp == ctx_len_[d] && 0 <= d < d1 < ctx_count && lvl_ty(d1, lp) == typ; \
  requires env_ok(CHAD_PFWD, g, d1); \
  requires 0 <= depth <= CHAD_MAX_DEPTH
#define FCASE_POST \
  FWD_ASSIGNS; \
  ensures kernel_inv && memo_inv && src_inv && venv_wf; \
  ensures venv_sp == \old(venv_sp) && venv_cur == \old(venv_cur); \
  ensures memo_grows{Pre, Post}; \
  ensures \old(tm_count) <= tm_count && \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count; \
  ensures env_keep{Pre, Post}; \
  ensures \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH; \
  ensures fcase_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d && \
    ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD && \
    ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, tg, tt)

/* F(case)'s right branch and the tail, given the left branch br0 */
/*@ FCASE_PRE;
    requires 0 <= c < tm_count && chad_msrc_[c] == 1 && tm_ctx_[c] == gc && tm_ty_[c] == tau;
    requires 0 < gc < ctx_count && ctx_parent_[gc] == g && ctx_type_[gc] == r;
    requires 0 <= br0 < tm_count && ctx_is_ext(tm_ctx_[br0], d1, psl);
    requires ty_valid(tm_ty_[br0]) && ty_kind_[tm_ty_[br0]] == TY_PROD &&
      ty_left_[tm_ty_[br0]] == pt && ty_same(ty_right_[tm_ty_[br0]], TY_LFUN, tg, tt);
    terminates \true;
    decreases FWD_M(depth) - 4;
    FCASE_POST;
    ensures flast_size: tm_count - \old(tm_count) <= FWD_K * chad_msz_[c] + 19;
*/
static int fwd_case_last(int c, int p, int d1, int lp, int st, int br0, int tg, int depth)
  /*@ ghost (int g, int gc, int l, int r, int tau, int ps, int psl, int psr, int ssl, int ssr,
             int sa, int pt, int tt, int d, int typ) */
{
  //@ ghost int n0 = ctx_len_[d];
  //@ ghost int n1 = ctx_len_[d1];
  //@ ghost int g0 = tm_ctx_[br0];
  //@ ghost int ty0 = tm_ty_[br0];
  //@ ghost int x0 = ty_right_[ty0];
  //@ assert l_x0: ty_inv && ty_node_ok(ty0) && 0 <= x0 < ty0 && ty_same(x0, TY_LFUN, tg, tt);
  //@ assert l_g0: ctx_is_ext(g0, d1, psl) && 0 < g0 < ctx_count;
  //@ ghost int tpr = ty_right_[typ];
  //@ assert l_tpr: ty_node_ok(typ) && 0 <= tpr < typ && ty_same(tpr, TY_LFUN, tg, sa);
  //@ assert l_sa: ty_right_[sa] == ssr && ty_kind_[sa] == TY_PROD;
  //@ assert l_venv: venv_wf;
  int br1 = fwd_case_branch(1, c, d1, lp, st, tg, depth + 1)
    /*@ ghost (p, g, gc, r, tau, psr, ssr, sa, pt, tt, d, typ) */;
  //@ assert b1_keep: env_keep{Pre, Here};
  //@ assert b1_ret: br1 < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[c] + 19;
  if (br1 < 0) return br1;
  //@ assert b1_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[c] + 15;
  //@ ghost int ty1 = tm_ty_[br1];
  //@ ghost int x1 = ty_right_[ty1];
  //@ assert b1_ctx: ctx_is_ext(tm_ctx_[br1], d1, psr);
  //@ assert b1_x1: ty_node_ok(ty1) && 0 <= x1 < ty1 && ty_same(x1, TY_LFUN, tg, tt);
  //@ assert b1_br0: tm_ctx_[br0] == g0 && tm_ty_[br0] == ty0 && 0 <= br0 < br1;
  //@ assert b1_x0: ty_right_[ty0] == x0 && ty_same(x0, TY_LFUN, tg, tt);
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
  //@ assert res >= 0 ==> ty_valid(ty0) && ty_kind_[ty0] == TY_PROD && ty_left_[ty0] == pt && ty_same(ty_right_[ty0], TY_LFUN, tg, tt);
  //@ assert res >= 0 || res == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[c] + 19;
  //@ assert tables_grow{Tail, Here} && side_same{Tail, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv;
  //@ assert env_keep{Pre, Here};
  return res;
}

/* F(case)'s left branch, then fwd_case_last */
/*@ FCASE_PRE;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && tm_ctx_[b] == gb && tm_ty_[b] == tau;
    requires 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == l;
    requires 0 <= c < tm_count && chad_msrc_[c] == 1 && tm_ctx_[c] == gc && tm_ty_[c] == tau;
    requires 0 < gc < ctx_count && ctx_parent_[gc] == g && ctx_type_[gc] == r;
    terminates \true;
    decreases FWD_M(depth) - 3;
    FCASE_POST;
    ensures fbody_size: tm_count - \old(tm_count) <= FWD_K * chad_msz_[b] + FWD_K * chad_msz_[c] + 34;
*/
static int fwd_case_body(int b, int c, int p, int d1, int lp, int st, int tg, int depth)
  /*@ ghost (int g, int gb, int gc, int l, int r, int tau, int ps, int psl, int psr, int ssl, int ssr,
             int sa, int pt, int tt, int d, int typ) */
{
  //@ ghost int n0 = ctx_len_[d];
  //@ ghost int n1 = ctx_len_[d1];
  //@ ghost int tpr = ty_right_[typ];
  //@ assert c_tpr: ty_inv && ty_node_ok(typ) && 0 <= tpr < typ && ty_same(tpr, TY_LFUN, tg, sa);
  //@ assert c_ps: ty_node_ok(ps) && ty_same(ps, TY_SUM, psl, psr);
  //@ assert c_sa: ty_left_[sa] == ssl && ty_kind_[sa] == TY_PROD;
  //@ assert c_venv: venv_wf;
  int br0 = fwd_case_branch(0, b, d1, lp, st, tg, depth + 1)
    /*@ ghost (p, g, gb, l, tau, psl, ssl, sa, pt, tt, d, typ) */;
  //@ assert b0_keep: env_keep{Pre, Here};
  //@ assert b0_ret: br0 < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b] + FWD_K * chad_msz_[c] + 34;
  if (br0 < 0) return br0;
  //@ assert b0_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 15;
  //@ assert b0_ctx: ctx_is_ext(tm_ctx_[br0], d1, psl) && 0 <= br0 < tm_count;
  //@ assert b0_ty: ty_valid(tm_ty_[br0]) && ty_kind_[tm_ty_[br0]] == TY_PROD && ty_left_[tm_ty_[br0]] == pt && ty_same(ty_right_[tm_ty_[br0]], TY_LFUN, tg, tt);
  //@ assert b0_memo1: trm(CHAD_PFWD, l) == psl && trm(CHAD_PFWD, r) == psr && trm(CHAD_TAN, l) == ssl && trm(CHAD_TAN, r) == ssr;
  //@ assert b0_memo2: trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt && trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt;
  //@ assert b0_memo3: trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg;
  //@ assert b0_tpr: ty_right_[typ] == tpr && ty_same(tpr, TY_LFUN, tg, sa);
  //@ assert b0_ps: ty_same(ps, TY_SUM, psl, psr) && ty_valid(ps);
  //@ assert b0_sa: ty_same(sa, TY_PROD, ssl, ssr) && ty_valid(sa);
  //@ assert b0_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert b0_n0: ctx_len_[d] == n0;
  //@ assert b0_n1: ctx_len_[d1] == n1;
  //@ assert b0_d1: ctx_is_ext(d1, d, typ) && ctx_len_[d1] == lp + 1 && lp == ctx_len_[d] && ctx_valid(d) && ctx_valid(d1);
  //@ assert b0_lvl: lvl_ty(d1, lp) == typ;
  //@ assert b0_env: env_ok(CHAD_PFWD, g, d1);
  //@ assert b0_c: 0 <= c < tm_count && chad_msrc_[c] == 1 && tm_ctx_[c] == gc && tm_ty_[c] == tau;
  //@ assert b0_gc: 0 < gc < ctx_count && ctx_parent_[gc] == g && ctx_type_[gc] == r;
  //@ ghost Last: ;
  int res = fwd_case_last(c, p, d1, lp, st, br0, tg, depth)
    /*@ ghost (g, gc, l, r, tau, ps, psl, psr, ssl, ssr, sa, pt, tt, d, typ) */;
  //@ assert tm_count - \at(tm_count, Last) <= FWD_K * chad_msz_[c] + 19;
  //@ assert env_keep{Pre, Here};
  return res;
}

/* F(case a (x. b) (y. c)) = let p = F a in case fst p of
 *   inl x -> let q = F b in (fst q, \v. snd q (v, fst (snd p v)))
 *   inr y -> let q = F c in (fst q, \v. snd q (v, snd (snd p v)))
 * F a and p's extension here, the branches in fwd_case_body and
 * fwd_case_last (one recursive call per function), the tail in case_tail. */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_CASE; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases FWD_M(depth) - 2;
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_case(int t, int d, int tg, int depth)
{
  //@ assert node_ok(t) && msz_ok(t) && msrc_ok(t);
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
  /* the size budget: F a, F b, F c and at most 34 nodes of this rule (or
   * the whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && 1 <= chad_msz_[c] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert case_budget: FWD_K * chad_msz_[a] + FWD_K * chad_msz_[b] + FWD_K * chad_msz_[c] + 34 <=
        FWD_K * chad_msz_[t] || CHAD_MAX_TERMS <= FWD_K * chad_msz_[t]; */
  //@ ghost int pt = chad_memo_ty_[CHAD_PFWD][tau] - 1;
  //@ ghost int tt = chad_memo_ty_[CHAD_TAN][tau] - 1;
  //@ ghost tan_lin_lemma();
  //@ assert case_lin: lin(tt) && ty_valid(tt) && ty_valid(tg);
  int p = f_sub(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  //@ assert pa_fwd: tm_ctx_[p] == d && fwd_ty(tm_ty_[p], g, ta) && 0 <= p < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a];
  //@ assert pa_tau: trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt && trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt && lin(tt);
  //@ ghost tr_step(CHAD_PFWD, ta);
  //@ ghost tr_step(CHAD_TAN, ta);
  //@ ghost int ps = chad_memo_ty_[CHAD_PFWD][ta] - 1;
  //@ ghost int sa = chad_memo_ty_[CHAD_TAN][ta] - 1;
  //@ assert pa_l: trh(CHAD_PFWD, l) && trh(CHAD_PFWD, r) && trh(CHAD_TAN, l) && trh(CHAD_TAN, r);
  //@ ghost int psl = chad_memo_ty_[CHAD_PFWD][l] - 1;
  //@ ghost int psr = chad_memo_ty_[CHAD_PFWD][r] - 1;
  //@ ghost int ssl = chad_memo_ty_[CHAD_TAN][l] - 1;
  //@ ghost int ssr = chad_memo_ty_[CHAD_TAN][r] - 1;
  //@ assert pa_ps: ty_valid(ps) && ty_same(ps, TY_SUM, psl, psr);
  //@ assert pa_sa: ty_valid(sa) && ty_same(sa, TY_PROD, ssl, ssr);
  //@ assert pa_memo: trc(CHAD_TAN, g) == tg;
  //@ ghost int typ = tm_ty_[p];
  //@ assert pa_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == ps && ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  int lp = L(d), d1 = f_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_env: env_ok(CHAD_PFWD, g, d1) && ctx_len_[d1] == lp + 1 && lvl_ty(d1, lp) == typ;
  //@ assert d1_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d) && lp == ctx_len_[d];
  //@ assert d1_ord: 0 <= d < d1 < ctx_count;
  int st = tm_type(a);
  //@ assert st == ta;
  //@ ghost Body: ;
  int res = fwd_case_body(b, c, p, d1, lp, st, tg, depth)
    /*@ ghost (g, gb, gc, l, r, tau, ps, psl, psr, ssl, ssr, sa, pt, tt, d, typ) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= FWD_K * chad_msz_[b] + FWD_K * chad_msz_[c] + 34;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert res >= 0 || res == CHAD_E_CAPACITY || res == CHAD_E_DEPTH;
  //@ ghost int tyr = res >= 0 ? tm_ty_[res] : 0;
  //@ assert res >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, tg, tt);
  //@ assert res >= 0 ==> ty_node_ok(tyr) && 0 <= ty_right_[tyr] < tyr;
  //@ assert trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau) && trch(CHAD_TAN, g) && trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt && trc(CHAD_TAN, g) == tg;
  //@ assert res >= 0 ==> fwd_ty(tm_ty_[res], g, tau);
  //@ assert tm_ctx_[t] == g && tm_ty_[t] == tau;
  //@ assert case_type: res >= 0 ==> 0 <= res < tm_count && tm_ctx_[res] == d && fwd_ty(tm_ty_[res], tm_ctx_[t], tm_ty_[t]);
  return res;
}
