/* R(app t s)      = let (g,dg) = R t; (x,dx) = R s; (y,dyx) = g x in
 *                   (y, \v. dg (cp_single x v) + dx (dyx v))
 * (../shared/chad-rules.md, section 5, reverse mode)
 *   rev_app_lin   the linear half (dg's copower single plus dx of dyx's part)
 *   rev_app_body  from R s on: g x and the pair
 *   rev_app       the rule: R t, then rev_app_body
 * Part of reverse.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* The linear half of R(app a b), in d3 where level lp holds p = R a (type
 * typ = P(s->t) * (cf -o cg), cf = C(s->t) = !P s (x) C t), level lq
 * holds q = R b (type tyq = P s * (cs -o cg), cs = C s) and level lr holds
 * r = fst p (fst q) (type tyr = P t * (ct -o cs)):
 *   \v. snd p (cp_single (fst q) v) + snd q (snd r v)    : C t -o C G
 * (ct = C t, cg = C G). Against the kernel's invariant only, as
 * rev_pair_lin. */
/*@ requires kernel_inv;
    requires ctx_valid(d3) && ty_valid(ct) && lin(ct) && lin(cg);
    requires ty_valid(cf) && ty_same(cf, TY_COPOW, ps, ct);
    requires 0 <= lp < ctx_len_[d3] && lvl_ty(d3, lp) == typ && ty_valid(typ) &&
      ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, cf, cg);
    requires 0 <= lq < ctx_len_[d3] && lvl_ty(d3, lq) == tyq && ty_valid(tyq) &&
      ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == ps && ty_same(ty_right_[tyq], TY_LFUN, cs, cg);
    requires 0 <= lr < ctx_len_[d3] && lvl_ty(d3, lr) == tyr && ty_valid(tyr) &&
      ty_kind_[tyr] == TY_PROD && ty_same(ty_right_[tyr], TY_LFUN, ct, cs);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures app_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d3 &&
      ty_same(tm_ty_[\result], TY_LFUN, ct, cg);
    ensures app_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures app_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 16;
    ensures app_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures app_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures app_lin_lvl: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \old(lvl_ty(d3, l));
    ensures env_keep{Pre, Post};
*/
static int rev_app_lin(int d3, int lp, int lq, int lr, int ct)
  /*@ ghost (int cg, int cf, int ps, int cs, int typ, int tyq, int tyr) */
{
  int lv = L(d3), d4 = k_ext(d3, ct);
  if (d4 < 0) return d4;
  //@ assert d4_lv: lvl_ty(d4, lv) == ct && ctx_parent_[d4] == d3 && ctx_type_[d4] == ct;
  //@ assert d4_lp: lvl_ty(d4, lp) == typ && lvl_ty(d4, lq) == tyq && lvl_ty(d4, lr) == tyr;
  int vp = V(d4, lp);
  //@ assert vp >= 0 ==> tm_ctx_[vp] == d4 && tm_ty_[vp] == typ && 0 <= vp < tm_count;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d4 && ty_same(tm_ty_[sp], TY_LFUN, cf, cg) && 0 <= sp < tm_count;
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int vq = V(d4, lq);
  //@ assert vq >= 0 ==> tm_ctx_[vq] == d4 && tm_ty_[vq] == tyq && 0 <= vq < tm_count;
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int xq = b_fst(vq);
  //@ assert xq >= 0 ==> tm_ctx_[xq] == d4 && tm_ty_[xq] == ps && 0 <= xq < tm_count;
  //@ assert xq >= 0 || xq == CHAD_E_CAPACITY;
  int v1 = V(d4, lv);
  //@ assert v1 >= 0 ==> tm_ctx_[v1] == d4 && tm_ty_[v1] == ct && 0 <= v1 < tm_count;
  //@ assert v1 >= 0 || v1 == CHAD_E_CAPACITY;
  //@ assert xq >= 0 ==> tm_ctx_[xq] == d4 && tm_ty_[xq] == ps && 0 <= xq < tm_count;
  int cp = b_cp_single(xq, v1);
  //@ assert cp >= 0 ==> tm_ctx_[cp] == d4 && ty_same(tm_ty_[cp], TY_COPOW, ps, ct) && 0 <= cp < tm_count;
  //@ assert cp >= 0 ==> ty_valid(tm_ty_[cp]) && ty_valid(cf) && ty_same(cf, TY_COPOW, ps, ct);
  /* hash-consing: the copower built here is C(s->t) itself */
  //@ assert cp_id: cp >= 0 ==> tm_ty_[cp] == cf;
  //@ assert cp >= 0 || cp == CHAD_E_CAPACITY;
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d4 && ty_same(tm_ty_[sp], TY_LFUN, cf, cg) && 0 <= sp < tm_count;
  int t1 = b_lapp(sp, cp);
  //@ assert t1 >= 0 ==> tm_ctx_[t1] == d4 && tm_ty_[t1] == cg && 0 <= t1 < tm_count;
  //@ assert t1 >= 0 || t1 == CHAD_E_CAPACITY;
  //@ assert lr_ty1: lvl_ty(d4, lr) == tyr && ty_valid(tyr) && ty_kind_[tyr] == TY_PROD;
  //@ assert lr_ty2: ty_same(ty_right_[tyr], TY_LFUN, ct, cs);
  int vr = V(d4, lr);
  //@ assert vr >= 0 ==> tm_ctx_[vr] == d4 && tm_ty_[vr] == tyr && 0 <= vr < tm_count;
  //@ assert vr >= 0 || vr == CHAD_E_CAPACITY;
  int sr = b_snd(vr);
  //@ assert sr >= 0 ==> tm_ctx_[sr] == d4 && ty_same(tm_ty_[sr], TY_LFUN, ct, cs) && 0 <= sr < tm_count;
  //@ assert sr >= 0 || sr == CHAD_E_CAPACITY;
  int v2 = V(d4, lv);
  //@ assert v2 >= 0 ==> tm_ctx_[v2] == d4 && tm_ty_[v2] == ct && 0 <= v2 < tm_count;
  //@ assert v2 >= 0 || v2 == CHAD_E_CAPACITY;
  int dr = b_lapp(sr, v2);
  //@ assert dr >= 0 ==> tm_ctx_[dr] == d4 && tm_ty_[dr] == cs && 0 <= dr < tm_count;
  //@ assert dr >= 0 || dr == CHAD_E_CAPACITY;
  int vq2 = V(d4, lq);
  //@ assert vq2 >= 0 ==> tm_ctx_[vq2] == d4 && tm_ty_[vq2] == tyq && 0 <= vq2 < tm_count;
  //@ assert vq2 >= 0 || vq2 == CHAD_E_CAPACITY;
  int sq = b_snd(vq2);
  //@ assert sq >= 0 ==> tm_ctx_[sq] == d4 && ty_same(tm_ty_[sq], TY_LFUN, cs, cg) && 0 <= sq < tm_count;
  //@ assert sq >= 0 || sq == CHAD_E_CAPACITY;
  //@ assert dr >= 0 ==> tm_ctx_[dr] == d4 && tm_ty_[dr] == cs && 0 <= dr < tm_count;
  int t2 = b_lapp(sq, dr);
  //@ assert t2 >= 0 ==> tm_ctx_[t2] == d4 && tm_ty_[t2] == cg && 0 <= t2 < tm_count;
  //@ assert t2 >= 0 || t2 == CHAD_E_CAPACITY;
  //@ assert t1 >= 0 ==> tm_ctx_[t1] == d4 && tm_ty_[t1] == cg && 0 <= t1 < tm_count;
  int sum = b_plus(t1, t2);
  //@ assert sum >= 0 ==> tm_ctx_[sum] == d4 && tm_ty_[sum] == cg && 0 <= sum < tm_count;
  //@ assert sum >= 0 || sum == CHAD_E_CAPACITY;
  //@ assert sum >= 0 ==> ty_valid(ct) && llam_ok(ct, tm_ctx_[sum], tm_ty_[sum]);
  int r = b_llam(ct, sum);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d3 && ty_same(tm_ty_[r], TY_LFUN, ct, cg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 16;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The second half of R(app a b), from the call R b on: in d1 = d, p (p =
 * R a at level lp),
 *   let q = R b in let p in let q in let r = fst p (fst q) in
 *   (fst r, \v. snd p (cp_single (fst q) v) + snd q (snd r v))
 * One recursive call per function (as rev_pair_body). */
/*@ requires REV_INV;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[b] == g && tm_ty_[b] == sg;
    requires env_ok(CHAD_PREV, g, d1);
    requires trh(CHAD_PREV, sg) && trm(CHAD_PREV, sg) == ps && trh(CHAD_COT, sg) && trm(CHAD_COT, sg) == cs;
    requires trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg && lin(cg);
    requires ty_valid(pf) && ty_kind_[pf] == TY_FUN && ty_left_[pf] == ps;
    requires ty_valid(pr) && pr == ty_right_[pf] && ty_kind_[pr] == TY_PROD && ty_left_[pr] == pt &&
      ty_same(ty_right_[pr], TY_LFUN, ct, cs);
    requires ty_valid(cf) && ty_same(cf, TY_COPOW, ps, ct) && ty_valid(ct) && lin(ct);
    requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
    requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_len_[d1] == lp + 1;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pf &&
      ty_same(ty_right_[typ], TY_LFUN, cf, cg);
    terminates \true;
    decreases REV_M(depth) - 3;
    REV_ASSIGNS;
    REV_FRAME;
    ensures abody_size: tm_count - \old(tm_count) <= REV_K * chad_msz_[b] + 27;
    ensures abody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures abody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg);
*/
static int rev_app_body(int b, int p, int d1, int lp, int ct, int depth)
  /*@ ghost (int g, int sg, int pf, int ps, int pr, int pt, int cs, int cf, int cg, int d, int typ) */
{
  /* the right halves of pr and typ named before the call, so that after
   * it each is one framed id, not a read through an unchanged entry (the
   * goals below were among the first to fail when kernel_inv grew) */
  //@ ghost int prr = ty_right_[pr];
  //@ ghost int tyr = ty_right_[typ];
  //@ assert ab_r0: ty_valid(prr) && ty_same(prr, TY_LFUN, ct, cs) && ty_valid(tyr) && ty_same(tyr, TY_LFUN, cf, cg);
  int q = rev(b, d1, depth + 1);
  //@ assert ab_keep: env_keep{Pre, Here};
  //@ assert ab_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b];
  if (q < 0) return q;
  //@ assert ab_b: tm_ctx_[b] == g && tm_ty_[b] == sg;
  //@ assert ab_rev: tm_ctx_[q] == d1 && rev_ty(tm_ty_[q], sg, g) && 0 <= q < tm_count;
  //@ assert ab_memo1: trc(CHAD_COT, g) == cg;
  //@ assert ab_memo2: trm(CHAD_PREV, sg) == ps && trm(CHAD_COT, sg) == cs;
  //@ ghost int tyq = tm_ty_[q];
  //@ ghost int qr = ty_right_[tyq];
  //@ assert ab_qty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == ps && ty_same(ty_right_[tyq], TY_LFUN, cs, cg);
  /* p's facts after the call, in small steps */
  //@ assert ab_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert ab_pk: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pf;
  //@ assert ab_tyr: ty_right_[typ] == tyr && ty_valid(tyr) && ty_same(tyr, TY_LFUN, cf, cg);
  //@ assert ab_pr: ty_same(ty_right_[typ], TY_LFUN, cf, cg);
  //@ assert ab_pf: ty_valid(pf) && ty_kind_[pf] == TY_FUN && ty_left_[pf] == ps && ty_right_[pf] == pr;
  //@ assert ab_prr: ty_right_[pr] == prr && ty_valid(prr) && ty_same(prr, TY_LFUN, ct, cs);
  //@ assert ab_pr2: ty_valid(pr) && ty_kind_[pr] == TY_PROD && ty_left_[pr] == pt && ty_same(ty_right_[pr], TY_LFUN, ct, cs);
  //@ assert ab_cf: ty_valid(cf) && ty_same(cf, TY_COPOW, ps, ct) && ty_valid(ct) && lin(ct) && lin(cg);
  //@ assert ab_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d) && ctx_len_[d1] == lp + 1;
  int lq = L(d1), d2 = rev_ext(d1, tyof(q));
  //@ assert d2 >= 0 || d2 == CHAD_E_CAPACITY;
  //@ assert d2_keep: env_keep{Pre, Here};
  //@ assert d2_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b];
  if (d2 < 0) return d2;
  //@ assert d2_len: ctx_len_[d2] == lq + 1 && lq == lp + 1 && ctx_type_[d2] == tyq && ctx_parent_[d2] == d1;
  //@ assert d2_ext: ctx_is_ext(d2, d1, tyq) && ctx_valid(d2);
  //@ assert d2_ext2: ctx_is_ext(d1, d, typ) && ctx_valid(d);
  //@ assert d2_lq: lvl_ty(d2, lq) == tyq;
  //@ assert d2_lp1: lvl_ty(d1, lp) == typ;
  //@ assert d2_lp: lvl_ty(d2, lp) == typ && 0 <= lp < lq < ctx_len_[d2];
  //@ ghost Prim: ;
  int r = app_primal(d2, lp, lq) /*@ ghost (pf, ps, typ, tyq) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d2 && tm_ty_[r] == pr && 0 <= r < tm_count;
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert r_env: env_keep{Pre, Here};
  //@ assert r_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 5;
  //@ assert r_grow: tables_grow{Prim, Here};
  //@ assert r_side: side_same{Prim, Here};
  //@ assert r_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  if (r < 0) return r;
  //@ assert r_lvl: lvl_ty(d2, lp) == typ && lvl_ty(d2, lq) == tyq;
  //@ assert r_ctx: ctx_valid(d2) && ctx_len_[d2] == lq + 1;
  //@ assert r_typ1: ty_valid(typ) && ty_kind_[typ] == TY_PROD;
  //@ assert r_typ2: ty_same(ty_right_[typ], TY_LFUN, cf, cg);
  //@ assert r_tyq1: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == ps;
  //@ assert r_qr: ty_right_[tyq] == qr && ty_same(qr, TY_LFUN, cs, cg);
  //@ assert r_tyq2: ty_same(ty_right_[tyq], TY_LFUN, cs, cg);
  int lr = L(d2), d3 = rev_ext(d2, tyof(r));
  //@ assert d3 >= 0 || d3 == CHAD_E_CAPACITY;
  //@ assert d3_keep: env_keep{Pre, Here};
  //@ assert d3_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b] + 5;
  if (d3 < 0) return d3;
  //@ assert d3_len: ctx_len_[d3] == lr + 1 && lr == lq + 1 && ctx_type_[d3] == pr && ctx_parent_[d3] == d2;
  //@ assert d3_ext: ctx_is_ext(d3, d2, pr) && ctx_valid(d3);
  //@ assert d3_lr: lvl_ty(d3, lr) == pr;
  //@ assert d3_lq: lvl_ty(d3, lq) == tyq;
  //@ assert d3_lp: lvl_ty(d3, lp) == typ;
  //@ assert d3_ty1: ty_valid(typ) && ty_kind_[typ] == TY_PROD;
  //@ assert d3_ty2: ty_same(ty_right_[typ], TY_LFUN, cf, cg);
  //@ assert d3_tyq1: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == ps;
  //@ assert d3_qr: ty_right_[tyq] == qr && ty_same(qr, TY_LFUN, cs, cg);
  //@ assert d3_tyq2: ty_same(ty_right_[tyq], TY_LFUN, cs, cg);
  //@ assert d3_prr: ty_right_[pr] == prr && ty_valid(prr) && ty_same(prr, TY_LFUN, ct, cs);
  //@ assert d3_pr: ty_valid(pr) && ty_kind_[pr] == TY_PROD && ty_same(ty_right_[pr], TY_LFUN, ct, cs);
  //@ assert d3_cf: ty_valid(cf) && ty_same(cf, TY_COPOW, ps, ct) && ty_valid(ct) && lin(ct) && lin(cg);
  //@ ghost Built: ;
  int lin = rev_app_lin(d3, lp, lq, lr, ct) /*@ ghost (cg, cf, ps, cs, typ, tyq, pr) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d3 && ty_same(tm_ty_[lin], TY_LFUN, ct, cg) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_env: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 21;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg);
  //@ assert tail_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert tail_q: 0 <= q < tm_count && tm_ctx_[q] == d1 && tm_ty_[q] == tyq;
  //@ assert tail_r: 0 <= r < tm_count && tm_ctx_[r] == d2 && tm_ty_[r] == pr;
  //@ assert tail_lvl: lvl_ty(d3, lr) == pr && 0 <= lr < ctx_len_[d3];
  //@ assert tail_ext1: ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
  //@ assert tail_ext2: ctx_is_ext(d2, d1, tm_ty_[q]);
  //@ assert tail_ext3: ctx_is_ext(d3, d2, tm_ty_[r]) && ctx_valid(d3);
  //@ assert tail_pr: ty_valid(pr) && ty_kind_[pr] == TY_PROD && ty_left_[pr] == pt;
  //@ ghost Lin: ;
  int res = let_app_tail(p, q, r, d3, lr, lin) /*@ ghost (d, d1, d2, pt, ct, cg) */;
  //@ assert res >= 0 ==> tm_ctx_[res] == d && \at(tm_count, Pre) <= res < tm_count;
  //@ assert res >= 0 ==> ty_valid(tm_ty_[res]) && ty_kind_[tm_ty_[res]] == TY_PROD && ty_left_[tm_ty_[res]] == pt && ty_same(ty_right_[tm_ty_[res]], TY_LFUN, ct, cg);
  //@ assert res >= 0 || res == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 27;
  //@ assert tables_grow{Lin, Here} && side_same{Lin, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert env_keep{Pre, Here};
  return res;
}

/* let p = R a; q = R b; r = fst p (fst q) in
 * (fst r, \v. snd p (cp_single (fst q) v) + snd q (snd r v)) */
/*@ RULE_PRE(t, d, tm_kind_[t] == TM_APP);
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases REV_M(depth) - 2;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_app(int t, int d, int ct, int depth)
{
  //@ assert node_ok(t) && msrc_ok(t) && msz_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t);
  //@ ghost int fa = tm_ty_[a];
  //@ ghost int sg = tm_ty_[b];
  //@ assert tm_ctx_[a] == g && tm_ctx_[b] == g && ty_valid(fa) && ty_kind_[fa] == TY_FUN;
  //@ assert ty_left_[fa] == sg && ty_right_[fa] == tau;
  //@ assert 0 <= a < t && 0 <= b < t && chad_msrc_[a] == 1 && chad_msrc_[b] == 1;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b]);
  /* the size budget: R a, R b and at most 27 nodes of this rule (or the
   * whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert app_budget: REV_K * chad_msz_[a] + REV_K * chad_msz_[b] + 27 <= REV_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= REV_K * chad_msz_[t]; */
  /*@ ghost int cgv = tm_ctx_[t] == CTX_EMPTY ? TY_ID_UNIT :
        chad_memo_ctx_[CHAD_COT][tm_ctx_[t]] - 1; */
  //@ assert cgv == trc(CHAD_COT, g) && lin(cgv);
  //@ assert memo_ty_inv && trh(CHAD_COT, tau) && trh(CHAD_PREV, tau) && ct == chad_memo_ty_[CHAD_COT][tau] - 1;
  //@ assert app_lin: lin(ct);
  //@ ghost int pt = chad_memo_ty_[CHAD_PREV][tau] - 1;
  int p = rev(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  //@ assert pa_rev: tm_ctx_[p] == d && rev_ty(tm_ty_[p], fa, g) && 0 <= p < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a];
  //@ assert pa_memo: trh(CHAD_PREV, fa) && trh(CHAD_COT, fa) && trc(CHAD_COT, g) == cgv && lin(cgv);
  /* P(s->t) and C(s->t): R a memoised s->t (before the call only t was) */
  //@ assert pa_tau: trm(CHAD_PREV, tau) == pt && trm(CHAD_COT, tau) == ct && lin(ct);
  //@ ghost rev_tr_step(CHAD_PREV, fa);
  //@ ghost rev_tr_step(CHAD_COT, fa);
  //@ ghost int pf = chad_memo_ty_[CHAD_PREV][fa] - 1;
  //@ ghost int cf = chad_memo_ty_[CHAD_COT][fa] - 1;
  //@ assert app_sg: trh(CHAD_PREV, sg) && trh(CHAD_COT, sg);
  //@ ghost int ps = chad_memo_ty_[CHAD_PREV][sg] - 1;
  //@ ghost int cs = chad_memo_ty_[CHAD_COT][sg] - 1;
  //@ assert app_cf: ty_valid(cf) && ty_same(cf, TY_COPOW, ps, ct);
  //@ assert app_pf: ty_valid(pf) && ty_kind_[pf] == TY_FUN && ty_left_[pf] == ps;
  //@ ghost int pr = ty_right_[pf];
  //@ assert app_pr: ty_valid(pr) && ty_kind_[pr] == TY_PROD && ty_left_[pr] == pt;
  //@ assert app_pr2: ty_same(ty_right_[pr], TY_LFUN, ct, cs);
  //@ ghost int typ = tm_ty_[p];
  //@ assert pa_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pf && ty_same(ty_right_[typ], TY_LFUN, cf, cgv);
  int lp = L(d), d1 = rev_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_env: env_ok(CHAD_PREV, g, d1) && ctx_len_[d1] == lp + 1 && ctx_type_[d1] == typ;
  //@ assert pa_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d);
  //@ assert d1_b: tm_ctx_[b] == g && tm_ty_[b] == sg && trch(CHAD_COT, g);
  //@ assert d1_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert b_memo: trh(CHAD_PREV, sg) && trm(CHAD_PREV, sg) == ps && trh(CHAD_COT, sg) && trm(CHAD_COT, sg) == cs;
  //@ ghost Body: ;
  int r = rev_app_body(b, p, d1, lp, ct, depth) /*@ ghost (g, sg, pf, ps, pr, pt, cs, cf, cgv, d, typ) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= REV_K * chad_msz_[b] + 27;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert r >= 0 || r == CHAD_E_CAPACITY || r == CHAD_E_DEPTH;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, ct, cgv);
  //@ assert r_memo1: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt;
  //@ assert r_memo2: trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
  //@ assert r_memo3: trch(CHAD_COT, g) && trc(CHAD_COT, g) == cgv;
  //@ assert r >= 0 ==> rev_ty(tm_ty_[r], \at(tm_ty_[t], Pre), \at(tm_ctx_[t], Pre));
  return r;
}
