/* R(loop n (x.b) s) = thread (x_i, dx_i) through at most n rounds; the round
 *                   let (y,dy) = R_{G,x} b [x := x_i] in case y of
 *                     inl x' -> inl (x', \v. let (g,gx) = dy (v, 0) in g + dx_i gx)
 *                     inr z  -> inr (z,  \v. let (g,gx) = dy (0, v) in g + dx_i gx)
 *                   goes on with inl, stops with the result at inr
 * (C(tau + tau) = C tau * C tau: the unused side's cotangent is zero)
 *   rev_loop_branch  one branch: inj (y, \v. l (v, 0)) or inj (y, \v. l (0, v))
 *   rev_loop_case    let l = \w. let g = snd q w in fst g + snd s (snd g) in
 *                    case fst q of the two branches
 *   rev_loop_last    the round's body R_{G,x} b, the linear map l, the case, loop_tail
 *   rev_loop_body    R s (the start) and the round's contexts, then rev_loop_last
 *   rev_loop         the rule: R n, then rev_loop_body
 * Part of reverse.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* One branch of R(loop)'s case, in e5 = (e3, l), y where level ll holds
 * l : cs -o cg (cs = ct * ct, the cotangent of the body's tau + tau) and
 * level ly holds y : pt: the state st = pt * (ct -o cg), injected on
 * `side` into st + st,
 *   inj_side (y, \v. l (v, 0))   (side 0)   inj_side (y, \v. l (0, v))   (side 1)
 * Against the kernel's invariant only, as rev_let_lin. */
/*@ requires kernel_inv;
    requires ctx_valid(e5) && ty_valid(ct) && lin(ct) && lin(cg) && ty_valid(cg);
    requires ty_valid(cs) && ty_same(cs, TY_PROD, ct, ct);
    requires ty_valid(tl) && ty_same(tl, TY_LFUN, cs, cg);
    requires ty_valid(st) && ty_kind_[st] == TY_PROD && ty_left_[st] == pt &&
      ty_same(ty_right_[st], TY_LFUN, ct, cg);
    requires 0 <= ll < ctx_len_[e5] && lvl_ty(e5, ll) == tl;
    requires 0 <= ly < ctx_len_[e5] && lvl_ty(e5, ly) == pt;
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures lbr_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == e5 &&
      ty_valid(tm_ty_[\result]) && ty_same(tm_ty_[\result], TY_SUM, st, st);
    ensures lbr_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures lbr_size: \old(tm_count) <= tm_count <= \old(tm_count) + 9;
    ensures lbr_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures lbr_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures lbr_lvl: \forall integer l; 0 <= l < ctx_len_[e5] ==> lvl_ty(e5, l) == \old(lvl_ty(e5, l));
    ensures env_keep{Pre, Post};
*/
static int rev_loop_branch(int e5, int ll, int ly, int side, int ct, int st)
  /*@ ghost (int cg, int cs, int tl, int pt) */
{
  //@ ghost int sr = ty_right_[st];
  //@ assert sr_pre: ty_valid(sr) && ty_same(sr, TY_LFUN, ct, cg);
  int lv = L(e5), e6 = k_ext(e5, ct);
  if (e6 < 0) return e6;
  //@ assert e6_ctx: ctx_valid(e6) && ctx_is_ext(e6, e5, ct) && ctx_len_[e6] == lv + 1 && lv == ctx_len_[e5];
  //@ assert e6_lvl: lvl_ty(e6, lv) == ct && lvl_ty(e6, ll) == tl;
  int vl = b_var(e6, ll);
  //@ assert vl >= 0 ==> 0 <= vl < tm_count && tm_ctx_[vl] == e6 && tm_ty_[vl] == tl;
  //@ assert vl >= 0 || vl == CHAD_E_CAPACITY;
  int vv = b_var(e6, lv);
  //@ assert vv >= 0 ==> 0 <= vv < tm_count && tm_ctx_[vv] == e6 && tm_ty_[vv] == ct;
  //@ assert vv >= 0 || vv == CHAD_E_CAPACITY;
  int z = b_zero(e6, ct);
  //@ assert z >= 0 ==> 0 <= z < tm_count && tm_ctx_[z] == e6 && tm_ty_[z] == ct;
  //@ assert z >= 0 || z == CHAD_E_CAPACITY;
  int arg = b_pair_side(vv, z, side);
  //@ assert arg >= 0 ==> 0 <= arg < tm_count && tm_ctx_[arg] == e6;
  //@ assert arg >= 0 ==> ty_valid(tm_ty_[arg]) && ty_same(tm_ty_[arg], TY_PROD, ct, ct);
  //@ assert cs_u: ty_inv && ty_valid(cs) && ty_same(cs, TY_PROD, ct, ct);
  //@ assert arg >= 0 ==> tm_ty_[arg] == cs;
  //@ assert arg >= 0 || arg == CHAD_E_CAPACITY;
  int ap = b_lapp(vl, arg);
  //@ assert ap >= 0 ==> 0 <= ap < tm_count && tm_ctx_[ap] == e6 && tm_ty_[ap] == cg;
  //@ assert ap >= 0 || ap == CHAD_E_CAPACITY;
  //@ assert ap >= 0 ==> ty_valid(ct) && 0 <= ap < tm_count && llam_ok(ct, tm_ctx_[ap], tm_ty_[ap]);
  //@ assert ctx_parent_[e6] == e5;
  int lam = b_llam(ct, ap);
  //@ assert lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == e5;
  //@ assert lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, ct, cg);
  //@ assert sr_grow: tables_grow{Pre, Here};
  //@ assert sr_here: ty_right_[st] == sr && ty_valid(sr) && ty_same(sr, TY_LFUN, ct, cg);
  //@ ghost int a0 = lam >= 0 ? tm_ty_[lam] : sr;
  //@ assert sr_inv: lam >= 0 ==> ty_unique && ty_valid(a0) && ty_valid(sr);
  //@ assert sr_lt: lam >= 0 && a0 < sr ==> !ty_same(sr, ty_kind_[a0], ty_left_[a0], ty_right_[a0]);
  //@ assert sr_gt: lam >= 0 && sr < a0 ==> !ty_same(a0, ty_kind_[sr], ty_left_[sr], ty_right_[sr]);
  //@ assert lam >= 0 ==> tm_ty_[lam] == sr;
  //@ assert lam >= 0 || lam == CHAD_E_CAPACITY;
  //@ assert y_lvl: lvl_ty(e5, ly) == pt && 0 <= ly < ctx_len_[e5];
  int vy = b_var(e5, ly);
  //@ assert vy >= 0 ==> 0 <= vy < tm_count && tm_ctx_[vy] == e5 && tm_ty_[vy] == pt;
  //@ assert vy >= 0 || vy == CHAD_E_CAPACITY;
  int pr = b_pair(vy, lam);
  /* hash-consing: (y, \v. ...) has the state's type st */
  //@ assert pr >= 0 ==> 0 <= pr < tm_count && tm_ctx_[pr] == e5;
  //@ assert pr >= 0 ==> ty_valid(tm_ty_[pr]) && ty_same(tm_ty_[pr], TY_PROD, pt, sr);
  //@ assert st_ok: ty_inv && ty_valid(st) && ty_same(st, TY_PROD, pt, sr);
  //@ assert pr >= 0 ==> tm_ty_[pr] == st;
  //@ assert pr >= 0 || pr == CHAD_E_CAPACITY;
  int r = b_inj(pr, st, side);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == e5 && ty_same(tm_ty_[r], TY_SUM, st, st);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* R(loop)'s round answer in e3 = e2, q (level lq holds q : tyq =
 * (pt + pt) * (cs -o C(G, x))), with lin : cs -o cg in e3:
 *   let l = lin in case fst q of inl y -> rev_loop_branch 0 | inr y -> rev_loop_branch 1
 * of type st + st. */
/*@ requires kernel_inv;
    requires ctx_valid(e3) && ty_valid(ct) && lin(ct) && lin(cg) && ty_valid(cg);
    requires ty_valid(cs) && ty_same(cs, TY_PROD, ct, ct);
    requires ty_valid(st) && ty_kind_[st] == TY_PROD && ty_left_[st] == pt &&
      ty_same(ty_right_[st], TY_LFUN, ct, cg);
    requires 0 <= lq < ctx_len_[e3] && lvl_ty(e3, lq) == tyq && ty_valid(tyq) &&
      ty_kind_[tyq] == TY_PROD && ty_valid(ty_left_[tyq]) && ty_same(ty_left_[tyq], TY_SUM, pt, pt);
    requires 0 <= lin < tm_count && tm_ctx_[lin] == e3 && ty_valid(tm_ty_[lin]) &&
      ty_same(tm_ty_[lin], TY_LFUN, cs, cg);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures lcase_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == e3 &&
      ty_valid(tm_ty_[\result]) && ty_same(tm_ty_[\result], TY_SUM, st, st);
    ensures lcase_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures lcase_size: \old(tm_count) <= tm_count <= \old(tm_count) + 22;
    ensures lcase_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures lcase_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures env_keep{Pre, Post};
*/
static int rev_loop_case(int e3, int lq, int lin, int ct, int st)
  /*@ ghost (int cg, int cs, int pt, int tyq) */
{
  //@ ghost int tl = tm_ty_[lin];
  int ll = L(e3), e4 = k_ext(e3, tyof(lin));
  if (e4 < 0) return e4;
  //@ assert e4_ctx: ctx_valid(e4) && ctx_is_ext(e4, e3, tl) && ctx_len_[e4] == ll + 1 && ll == ctx_len_[e3];
  //@ assert e4_lvl: lvl_ty(e4, ll) == tl && lvl_ty(e4, lq) == tyq;
  int vq = b_var(e4, lq);
  //@ assert vq >= 0 ==> 0 <= vq < tm_count && tm_ctx_[vq] == e4 && tm_ty_[vq] == tyq;
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int fq = b_fst(vq);
  //@ assert fq >= 0 ==> 0 <= fq < tm_count && tm_ctx_[fq] == e4 && ty_same(tm_ty_[fq], TY_SUM, pt, pt);
  //@ assert fq >= 0 || fq == CHAD_E_CAPACITY;
  if (fq < 0) return fq;
  int ly = L(e4), e5 = k_ext(e4, ty_left(tyof(fq)));
  if (e5 < 0) return e5;
  //@ assert e5_ctx: ctx_valid(e5) && ctx_is_ext(e5, e4, pt) && ctx_len_[e5] == ly + 1 && ly == ctx_len_[e4];
  //@ assert e5_lvl: lvl_ty(e5, ly) == pt && lvl_ty(e5, ll) == tl;
  //@ ghost B0: ;
  int br0 = rev_loop_branch(e5, ll, ly, 0, ct, st) /*@ ghost (cg, cs, tl, pt) */;
  //@ assert br0 >= 0 ==> 0 <= br0 < tm_count && tm_ctx_[br0] == e5 && ty_same(tm_ty_[br0], TY_SUM, st, st);
  //@ assert br0 >= 0 || br0 == CHAD_E_CAPACITY;
  if (br0 < 0) return br0;
  //@ assert e5_lvl2: lvl_ty(e5, ly) == pt && lvl_ty(e5, ll) == tl;
  int br1 = rev_loop_branch(e5, ll, ly, 1, ct, st) /*@ ghost (cg, cs, tl, pt) */;
  //@ assert br1 >= 0 ==> 0 <= br1 < tm_count && tm_ctx_[br1] == e5 && ty_same(tm_ty_[br1], TY_SUM, st, st);
  //@ assert br1 >= 0 || br1 == CHAD_E_CAPACITY;
  //@ assert fq_ok: 0 <= fq < tm_count && tm_ctx_[fq] == e4 && ty_same(tm_ty_[fq], TY_SUM, pt, pt);
  //@ assert br0_ok: 0 <= br0 < tm_count && tm_ctx_[br0] == e5 && ty_same(tm_ty_[br0], TY_SUM, st, st);
  //@ assert br_ty: br1 >= 0 ==> ty_inv && ty_valid(tm_ty_[br0]) && ty_valid(tm_ty_[br1]) && ty_same(tm_ty_[br0], TY_SUM, st, st) && ty_same(tm_ty_[br1], TY_SUM, st, st);
  //@ assert br_same: br1 >= 0 ==> tm_ty_[br1] == tm_ty_[br0];
  //@ assert e5_ext: ctx_is_ext(e5, e4, ty_left_[tm_ty_[fq]]) && ctx_is_ext(e5, e4, ty_right_[tm_ty_[fq]]);
  //@ assert cs_ok: br1 >= 0 ==> case_ok(tm_ctx_[fq], tm_ty_[fq], tm_ctx_[br0], tm_ty_[br0], tm_ctx_[br1], tm_ty_[br1]);
  //@ ghost int tb0 = tm_ty_[br0];
  int cs0 = b_case(fq, br0, br1);
  //@ assert cs0 >= 0 ==> 0 <= cs0 < tm_count && tm_ctx_[cs0] == e4 && tm_ty_[cs0] == tb0;
  //@ assert tb0_ok: ty_same(tb0, TY_SUM, st, st);
  //@ assert cs0 >= 0 ==> 0 <= cs0 < tm_count && tm_ctx_[cs0] == e4 && ty_same(tm_ty_[cs0], TY_SUM, st, st);
  //@ assert cs0 >= 0 || cs0 == CHAD_E_CAPACITY;
  //@ assert lin_ok: 0 <= lin < tm_count && tm_ctx_[lin] == e3 && tm_ty_[lin] == tl && ctx_is_ext(e4, e3, tl);
  int r = b_let(lin, cs0);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == e3 && ty_same(tm_ty_[r], TY_SUM, st, st);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* R(loop)'s last recursive call and the rest: the body b (of type tau + tau in
 * gb = G, x : tau) under its binder in e2 = e1, x : pt, where d1 = d, pn;
 * d2 = d1, ps; e1 = d2, s (s : st = ps's type, the iteration state
 * P tau * (C tau -o C G)); then the linear map of the round
 *   l = \w. let g = snd q w in fst g + snd s (snd g)   : C tau * C tau -o C G
 * (rev_let_lin, with s in the place of p), the case on fst q
 * (rev_loop_case) and the tail loop_tail. Gets depth + 1 from
 * rev_loop_body (offset 0), as the case branches. */
/*@ requires REV_INV;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= depth <= CHAD_MAX_DEPTH + 1;
    requires tm_ctx_[b] == gb && tm_ty_[b] == tbs && ty_valid(tbs) && ty_same(tbs, TY_SUM, tau, tau);
    requires 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == tau;
    requires env_ok(CHAD_PREV, g, e2);
    requires trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
    requires trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg && lin(cg);
    requires 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
    requires ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
    requires 0 <= ps < tm_count && tm_ctx_[ps] == d1 && tm_ty_[ps] == st;
    requires ty_valid(st) && ty_kind_[st] == TY_PROD && ty_left_[st] == pt &&
      ty_same(ty_right_[st], TY_LFUN, ct, cg);
    requires ctx_valid(d) && ctx_is_ext(d1, d, typn) && ctx_is_ext(d2, d1, st) &&
      ctx_is_ext(e1, d2, st) && ctx_is_ext(e2, e1, pt);
    requires ln == ctx_len_[d] && ls == ln + 1 && lc == ls + 1 && lx == lc + 1;
    requires ctx_len_[d1] == ls && ctx_len_[d2] == lc && ctx_len_[e1] == lx && ctx_len_[e2] == lx + 1;
    requires 0 <= d < d1 < d2 < e1 < e2 < ctx_count;
    requires lvl_ty(d2, ln) == typn && lvl_ty(d2, ls) == st && lvl_ty(e1, lc) == st &&
      lvl_ty(e2, lc) == st && lvl_ty(e2, lx) == pt;
    terminates \true;
    decreases REV_M(depth);
    REV_ASSIGNS;
    REV_FRAME;
    ensures llast_size: tm_count - \old(tm_count) <= REV_K * chad_msz_[b] + 46;
    ensures llast_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures llast_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      tm_ty_[\result] == st;
*/
static int rev_loop_last(int b, int pn, int ps, int d2, int e1, int e2, int ln, int ls, int lc, int lx,
                         int ct, int depth)
  /*@ ghost (int g, int gb, int tau, int pt, int cg, int d, int d1, int typn, int st, int tbs) */
{
  //@ ghost int sr = ty_right_[st];
  //@ assert x_sr: ty_inv && ty_node_ok(st) && 0 <= sr < st && ty_same(sr, TY_LFUN, ct, cg);
  //@ assert x_gb: env_ok(CHAD_PREV, ctx_parent_[gb], e2) && trh(CHAD_PREV, ctx_type_[gb]) && trm(CHAD_PREV, ctx_type_[gb]) == pt;
  //@ assert x_lx: 0 <= lx < ctx_len_[e2] && lvl_ty(e2, lx) == pt;
  int q = rev_under(b, e2, lx, depth + 1);
  //@ assert q_keep: env_keep{Pre, Here};
  //@ assert q_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b];
  if (q < 0) return q;
  //@ assert q_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b];
  //@ assert q_rev: tm_ctx_[q] == e2 && rev_ty(tm_ty_[q], tbs, gb) && 0 <= q < tm_count;
  //@ ghost rev_tr_step(CHAD_PREV, tbs);
  //@ ghost rev_tr_step(CHAD_COT, tbs);
  //@ ghost int psum = chad_memo_ty_[CHAD_PREV][tbs] - 1;
  int cs = ty_left(ty_right(tyof(q)));
  //@ assert q_psum: trh(CHAD_PREV, tbs) && trm(CHAD_PREV, tbs) == psum && ty_valid(psum) && ty_same(psum, TY_SUM, pt, pt);
  //@ assert q_cs: trh(CHAD_COT, tbs) && trm(CHAD_COT, tbs) == cs && ty_valid(cs) && ty_same(cs, TY_PROD, ct, ct) && lin(ct);
  //@ assert q_gb: 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == tau && trch(CHAD_COT, gb);
  //@ ghost rev_trc_step(CHAD_COT, gb);
  //@ ghost int cgb = chad_memo_ctx_[CHAD_COT][gb] - 1;
  //@ assert q_cgb: ty_valid(cgb) && ty_same(cgb, TY_PROD, cg, ct);
  //@ ghost int tyq = tm_ty_[q];
  //@ assert q_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == psum && ty_same(ty_right_[tyq], TY_LFUN, cs, cgb);
  //@ assert q_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert q_ps: 0 <= ps < tm_count && tm_ctx_[ps] == d1 && tm_ty_[ps] == st;
  //@ assert q_st: ty_valid(st) && ty_kind_[st] == TY_PROD && ty_left_[st] == pt && ty_same(ty_right_[st], TY_LFUN, ct, cg);
  //@ assert q_c1: ctx_parent_[d1] == d && ctx_type_[d1] == typn && ctx_len_[d1] == ls;
  //@ assert q_c2: ctx_parent_[d2] == d1 && ctx_type_[d2] == st && ctx_len_[d2] == lc;
  //@ assert q_c3: ctx_parent_[e1] == d2 && ctx_type_[e1] == st && ctx_len_[e1] == lx;
  //@ assert q_c4: ctx_parent_[e2] == e1 && ctx_type_[e2] == pt && ctx_len_[e2] == lx + 1;
  //@ assert q_c0: ctx_valid(d) && ctx_len_[d] == ln;
  //@ assert q_l1: lvl_ty(d2, ln) == typn;
  //@ assert q_l2: lvl_ty(d2, ls) == st;
  //@ assert q_l3: lvl_ty(e1, lc) == st;
  //@ assert q_l4: lvl_ty(e2, lc) == st;
  //@ assert pre_lc: 0 <= lc < ctx_len_[e2] && ctx_len_[e2] == lx + 1;
  int lq = L(e2), e3 = rev_ext(e2, tyof(q));
  //@ assert e3 >= 0 || e3 == CHAD_E_CAPACITY;
  //@ assert e3_keep: env_keep{Pre, Here};
  if (e3 < 0) return e3;
  //@ assert e3_ext: ctx_is_ext(e3, e2, tyq) && ctx_len_[e3] == lq + 1 && lq == lx + 1 && ctx_valid(e3);
  //@ assert e3_lq: lvl_ty(e3, lq) == tyq;
  //@ assert e3_lc0: lvl_ty(e3, lc) == lvl_ty(e2, lc);
  //@ assert e3_lc: lvl_ty(e3, lc) == st && 0 <= lc < lq;
  //@ assert e3_l: lvl_ty(d2, ln) == typn && lvl_ty(d2, ls) == st && lvl_ty(e1, lc) == st;
  //@ ghost Built: ;
  int lin = rev_let_lin(e3, lc, lq, cs) /*@ ghost (cg, ct, cgb, st, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == e3 && ty_same(tm_ty_[lin], TY_LFUN, cs, cg) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_keep: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 14;
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  if (lin < 0) return lin;
  //@ assert c_lq: lvl_ty(e3, lq) == tyq && 0 <= lq < ctx_len_[e3];
  //@ assert c_tyq: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == psum && ty_valid(psum) && ty_same(psum, TY_SUM, pt, pt);
  //@ assert c_st: 0 <= ps < tm_count && tm_ty_[ps] == st && ty_valid(st) && ty_kind_[st] == TY_PROD && ty_left_[st] == pt && ty_same(ty_right_[st], TY_LFUN, ct, cg);
  //@ assert c_cs: ty_valid(cs) && ty_same(cs, TY_PROD, ct, ct) && ty_valid(ct) && lin(ct) && lin(cg) && ty_valid(cg) && ctx_valid(e3);
  //@ ghost Case: ;
  int cs0 = rev_loop_case(e3, lq, lin, ct, tyof(ps)) /*@ ghost (cg, cs, pt, tyq) */;
  //@ assert cs0 >= 0 ==> 0 <= cs0 < tm_count && tm_ctx_[cs0] == e3 && ty_same(tm_ty_[cs0], TY_SUM, st, st);
  //@ assert cs0 >= 0 || cs0 == CHAD_E_CAPACITY;
  //@ assert c_keep: env_keep{Pre, Here};
  //@ assert c_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 36;
  //@ assert c_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  if (cs0 < 0) return cs0;
  //@ assert t_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert t_ps: 0 <= ps < tm_count && tm_ctx_[ps] == d1 && tm_ty_[ps] == st;
  //@ assert t_q: 0 <= q < tm_count && tm_ctx_[q] == e2 && tm_ty_[q] == tyq;
  //@ assert t_typn: ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
  //@ assert t_e: ctx_is_ext(d1, d, typn) && ctx_is_ext(d2, d1, st) && ctx_is_ext(e1, d2, st) && ctx_is_ext(e2, e1, pt) && ctx_is_ext(e3, e2, tyq);
  //@ assert t_c1: ctx_parent_[d1] == d && ctx_type_[d1] == typn && ctx_len_[d1] == ls;
  //@ assert t_c2: ctx_parent_[d2] == d1 && ctx_type_[d2] == st && ctx_len_[d2] == lc;
  //@ assert t_c3: ctx_parent_[e1] == d2 && ctx_type_[e1] == st && ctx_len_[e1] == lx;
  //@ assert t_c4: ctx_parent_[e2] == e1 && ctx_type_[e2] == pt && ctx_len_[e2] == lx + 1;
  //@ assert t_c0: ctx_valid(d) && ctx_len_[d] == ln && 0 <= d < d1 < d2 < e1 < e2 < e3 < ctx_count;
  //@ assert t_l1: lvl_ty(d2, ln) == typn;
  //@ assert t_l2: lvl_ty(d2, ls) == st;
  //@ assert t_l3: lvl_ty(e1, lc) == st;
  //@ assert t_st: ty_valid(st) && ty_kind_[st] == TY_PROD && ty_left_[st] == pt;
  //@ assert t_e1: ctx_valid(e1) && ctx_valid(d2) && 0 <= lc < ctx_len_[e1] && lvl_ty(e1, lc) == st && 0 <= ln < ctx_len_[d2] && 0 <= ls < ctx_len_[d2];
  //@ assert t_cs: 0 <= cs0 < tm_count && tm_ctx_[cs0] == e3 && ty_valid(tm_ty_[cs0]) && ty_same(tm_ty_[cs0], TY_SUM, st, st);
  //@ ghost Tail: ;
  int r = loop_tail(pn, ps, q, cs0, d2, e1, ln, ls, lc) /*@ ghost (d, d1, e2, e3, pt) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && tm_ty_[r] == st && \at(tm_count, Pre) <= r < tm_count;
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 46;
  //@ assert tables_grow{Tail, Here} && side_same{Tail, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* R(loop)'s second recursive call: ps = R c in d1 = d, pn, then the
 * contexts of the iteration (d2 = d1, ps; e1 = d2, s; e2 = e1, x) and
 * rev_loop_last. */
/*@ requires REV_INV;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= c < tm_count && chad_msrc_[c] == 1;
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[b] == gb && tm_ty_[b] == tbs && ty_valid(tbs) && ty_same(tbs, TY_SUM, tau, tau) &&
      tm_ctx_[c] == g && tm_ty_[c] == tau;
    requires 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == tau;
    requires env_ok(CHAD_PREV, g, d1);
    requires trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
    requires trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg && lin(cg);
    requires 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
    requires ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
    requires ctx_valid(d) && ctx_is_ext(d1, d, typn) && ctx_valid(d1) && ctx_len_[d1] == ln + 1 && ln == ctx_len_[d];
    requires 0 <= d < d1 < ctx_count;
    terminates \true;
    decreases REV_M(depth) - 3;
    REV_ASSIGNS;
    REV_FRAME;
    ensures lbody_size: tm_count - \old(tm_count) <= REV_K * chad_msz_[c] + REV_K * chad_msz_[b] + 46;
    ensures lbody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures lbody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg);
*/
static int rev_loop_body(int b, int c, int pn, int d1, int ln, int ct, int depth)
  /*@ ghost (int g, int gb, int tau, int pt, int cg, int d, int typn, int tbs) */
{
  //@ ghost int n0 = ctx_len_[d];
  //@ ghost int n1 = ctx_len_[d1];
  //@ assert s_env: env_ok(CHAD_PREV, tm_ctx_[c], d1);
  int ps = rev(c, d1, depth + 1);
  //@ assert ps_keep: env_keep{Pre, Here};
  //@ assert ps_ret: ps < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[c];
  if (ps < 0) return ps;
  //@ assert ps_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[c];
  //@ assert ps_rev: tm_ctx_[ps] == d1 && rev_ty(tm_ty_[ps], tau, g) && 0 <= ps < tm_count;
  //@ assert ps_memo: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct && trc(CHAD_COT, g) == cg;
  //@ ghost int st = tm_ty_[ps];
  //@ assert ps_st: ty_valid(st) && ty_kind_[st] == TY_PROD && ty_left_[st] == pt && ty_same(ty_right_[st], TY_LFUN, ct, cg);
  //@ ghost int sr = ty_right_[st];
  //@ assert ps_sr: ty_inv && ty_node_ok(st) && 0 <= sr < st && ty_same(sr, TY_LFUN, ct, cg);
  //@ assert ps_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert ps_typn: ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
  //@ assert ps_n0: ctx_len_[d] == n0;
  //@ assert ps_n1: ctx_len_[d1] == n1;
  //@ assert ps_d1: ctx_is_ext(d1, d, typn) && ctx_valid(d) && ctx_valid(d1) && ctx_len_[d1] == ln + 1 && ln == ctx_len_[d];
  //@ assert ps_env: env_ok(CHAD_PREV, g, d1);
  int ls = L(d1), d2 = rev_ext(d1, tyof(ps));
  //@ assert d2 >= 0 || d2 == CHAD_E_CAPACITY;
  //@ assert d2_keep: env_keep{Pre, Here};
  //@ assert d2_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[c] + REV_K * chad_msz_[b] + 46;
  if (d2 < 0) return d2;
  //@ assert d2_ext: ctx_is_ext(d2, d1, st) && ctx_valid(d2) && ctx_len_[d2] == ls + 1 && ls == ln + 1;
  //@ assert d2_l1: lvl_ty(d2, ls) == st && lvl_ty(d2, ln) == lvl_ty(d1, ln);
  //@ assert d2_l2: lvl_ty(d1, ln) == typn;
  //@ assert d2_l3: lvl_ty(d2, ln) == typn;
  int lc = L(d2), e1 = rev_ext(d2, tyof(ps));
  //@ assert e1 >= 0 || e1 == CHAD_E_CAPACITY;
  //@ assert e1_keep: env_keep{Pre, Here};
  if (e1 < 0) return e1;
  //@ assert e1_ext: ctx_is_ext(e1, d2, st) && ctx_valid(e1) && ctx_len_[e1] == lc + 1 && lc == ls + 1;
  //@ assert e1_l1: lvl_ty(e1, lc) == st;
  //@ assert e1_l2: lvl_ty(d2, ln) == typn && lvl_ty(d2, ls) == st;
  int px = ty_left(tyof(ps));
  //@ assert px == pt && ty_valid(pt);
  int lx = L(e1), e2 = rev_ext(e1, px);
  //@ assert e2 >= 0 || e2 == CHAD_E_CAPACITY;
  //@ assert e2_keep: env_keep{Pre, Here};
  if (e2 < 0) return e2;
  //@ assert e2_ext: ctx_is_ext(e2, e1, pt) && ctx_valid(e2) && ctx_len_[e2] == lx + 1 && lx == lc + 1;
  //@ assert e2_top: lvl_ty(e2, ctx_len_[e1]) == px && lx == ctx_len_[e1];
  //@ assert e2_lc: 0 <= lc < ctx_len_[e1] && lvl_ty(e2, lc) == lvl_ty(e1, lc);
  //@ assert e2_l1: lvl_ty(e2, lx) == pt && lvl_ty(e2, lc) == lvl_ty(e1, lc);
  //@ assert e2_l2: lvl_ty(e2, lc) == st;
  //@ assert e2_l3: lvl_ty(e1, lc) == st && lvl_ty(d2, ln) == typn && lvl_ty(d2, ls) == st;
  //@ assert e2_env: env_ok(CHAD_PREV, g, e2);
  //@ assert e2_c: ctx_is_ext(d1, d, typn) && ctx_is_ext(d2, d1, st) && ctx_is_ext(e1, d2, st) && ctx_valid(d);
  //@ assert e2_len: ln == ctx_len_[d] && ctx_len_[d1] == ls && ctx_len_[d2] == lc && ctx_len_[e1] == lx;
  //@ assert e2_par: ctx_parent_[d1] == d && ctx_parent_[d2] == d1 && ctx_parent_[e1] == d2 && ctx_parent_[e2] == e1 && 0 < d1 && 0 < d2 && 0 < e1 && 0 < e2 < ctx_count;
  //@ assert e2_nodes: ctx_node_ok(d1) && ctx_node_ok(d2) && ctx_node_ok(e1) && ctx_node_ok(e2);
  //@ assert e2_ord: 0 <= d < d1 < d2 < e1 < e2 < ctx_count;
  //@ assert e2_ps: 0 <= ps < tm_count && tm_ctx_[ps] == d1 && tm_ty_[ps] == st;
  //@ assert e2_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert e2_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[c];
  //@ ghost Last: ;
  int r = rev_loop_last(b, pn, ps, d2, e1, e2, ln, ls, lc, lx, ct, depth + 1)
    /*@ ghost (g, gb, tau, pt, cg, d, d1, typn, st, tbs) */;
  //@ assert r_size: tm_count - \at(tm_count, Last) <= REV_K * chad_msz_[b] + 46;
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert r >= 0 ==> tm_ty_[r] == st && tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ assert r_st: ty_valid(st) && ty_kind_[st] == TY_PROD && ty_left_[st] == pt && ty_right_[st] == sr && ty_same(sr, TY_LFUN, ct, cg);
  return r;
}

/* let pn = R a; ps = R c in
 * loop (fst pn) (s. let x = fst s; q = R b in
 *     let l = \w. let g = snd q w in fst g + snd s (snd g) in
 *     case fst q of inl y -> inl (y, \v. l (v, 0)) | inr y -> inr (y, \v. l (0, v))) ps
 * R a and pn's extension here, R c in rev_loop_body, R b and the rest in
 * rev_loop_last (one recursive call per function), the tail in loop_tail.
 * The state s : P tau * (C tau -o C G) carries the pullback so far. */
/*@ RULE_PRE(t, d, tm_kind_[t] == TM_LOOP);
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases REV_M(depth) - 2;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_loop(int t, int d, int ct, int depth)
{
  //@ assert node_ok(t) && msrc_ok(t) && msz_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t), c = tm_c(t);
  //@ ghost int gb = tm_ctx_[b];
  //@ assert 0 <= a < t && 0 <= b < t && 0 <= c < t;
  //@ assert chad_msrc_[a] == 1 && chad_msrc_[b] == 1 && chad_msrc_[c] == 1;
  //@ assert loop_src: tm_ctx_[a] == g && tm_ty_[a] == TY_ID_INT && tm_ctx_[c] == g && tm_ty_[c] == tau;
  //@ ghost int tbs = tm_ty_[b];
  //@ assert loop_tbs: ty_valid(tbs) && ty_same(tbs, TY_SUM, tau, tau);
  //@ assert loop_gb: ctx_is_ext(gb, g, tau) && 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == tau;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b] + chad_msz_[c]);
  /* the size budget: R a, R c, R b and at most 46 nodes of this rule (or
   * the whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && 1 <= chad_msz_[c] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert loop_budget: REV_K * chad_msz_[a] + REV_K * chad_msz_[b] + REV_K * chad_msz_[c] + 46 <=
        REV_K * chad_msz_[t] || CHAD_MAX_TERMS <= REV_K * chad_msz_[t]; */
  /*@ ghost int cgv = tm_ctx_[t] == CTX_EMPTY ? TY_ID_UNIT :
        chad_memo_ctx_[CHAD_COT][tm_ctx_[t]] - 1; */
  //@ assert cgv == trc(CHAD_COT, g) && lin(cgv);
  //@ assert memo_ty_inv && trh(CHAD_COT, tau) && trh(CHAD_PREV, tau) && ct == chad_memo_ty_[CHAD_COT][tau] - 1;
  //@ ghost int pt = chad_memo_ty_[CHAD_PREV][tau] - 1;
  int pn = rev(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (pn < 0) return pn;
  //@ assert pa_rev: tm_ctx_[pn] == d && rev_ty(tm_ty_[pn], TY_ID_INT, g) && 0 <= pn < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a];
  //@ assert pa_tau: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct && trc(CHAD_COT, g) == cgv;
  //@ ghost rev_tr_step(CHAD_PREV, TY_ID_INT);
  //@ assert pa_int: trh(CHAD_PREV, TY_ID_INT) && trm(CHAD_PREV, TY_ID_INT) == TY_ID_INT;
  //@ ghost int typn = tm_ty_[pn];
  //@ assert pa_ty: ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
  //@ assert pa_env: env_ok(CHAD_PREV, g, d) && ctx_valid(d);
  int ln = L(d), d1 = rev_ext(d, tyof(pn));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_ext: ctx_is_ext(d1, d, typn) && ctx_valid(d1) && ctx_valid(d) && ctx_len_[d1] == ln + 1 && ln == ctx_len_[d];
  //@ assert d1_ord: 0 <= d < d1 < ctx_count;
  //@ assert d1_env: env_ok(CHAD_PREV, g, d1);
  //@ assert d1_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ ghost Body: ;
  int res = rev_loop_body(b, c, pn, d1, ln, ct, depth) /*@ ghost (g, gb, tau, pt, cgv, d, typn, tbs) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= REV_K * chad_msz_[c] + REV_K * chad_msz_[b] + 46;
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
