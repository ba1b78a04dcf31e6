/* F(pair t s)     = let (x,dx) = F t; (y,dy) = F s in ((x,y), \v. (dx v, dy v))
 * (../shared/chad-rules.md, section 4, forward mode)
 *   fwd_pair_lin   the linear half  \v. (dx v, dy v)
 *   fwd_pair_body  from F s on: ((x,y), linear half)
 *   fwd_pair       the rule: F t, then fwd_pair_body
 * Part of forward.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* The linear half of F(pair a b), in d2 where level lp holds p = F a and
 * level lq holds q = F b:   \v. (snd p v, snd q v)
 * of type T G -o T(a * b), with tg = T G and tt = T(a * b) = T a * T b.
 * Against the kernel's invariant only, with raw builders (as R's
 * rev_pair_lin): the rule gets the pass invariants back by the frame. */
/*@ requires kernel_inv;
    requires ctx_valid(d2) && ty_valid(tg) && ty_valid(tt) && ty_kind_[tt] == TY_PROD && lin(tt);
    requires 0 <= lp < ctx_len_[d2] && lvl_ty(d2, lp) == typ && ty_valid(typ) &&
      ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, tg, ty_left_[tt]);
    requires 0 <= lq < ctx_len_[d2] && lvl_ty(d2, lq) == tyq && ty_valid(tyq) &&
      ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, tg, ty_right_[tt]);
    terminates \true;
    assigns CH_TM_LOCS, CH_TMS_LOCS, CH_TYS_LOCS, CH_CTX_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures fpair_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d2 &&
      ty_same(tm_ty_[\result], TY_LFUN, tg, tt);
    ensures fpair_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures fpair_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 10;
    ensures fpair_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures fpair_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures fpair_lin_lvl: \forall integer l; 0 <= l < ctx_len_[d2] ==> lvl_ty(d2, l) == \old(lvl_ty(d2, l));
    ensures env_keep{Pre, Post};
*/
static int fwd_pair_lin(int d2, int lp, int lq, int tg) /*@ ghost (int tt, int typ, int tyq) */
{
  //@ ghost int ta = ty_left_[tt];
  //@ ghost int tb = ty_right_[tt];
  //@ assert ty_node_ok(tt) && ty_same(tt, TY_PROD, ta, tb);
  int lv = L(d2), d3 = k_ext(d2, tg);
  if (d3 < 0) return d3;
  //@ assert lvl_ty(d3, lv) == tg && lvl_ty(d3, lp) == lvl_ty(d2, lp) && lvl_ty(d3, lq) == lvl_ty(d2, lq);
  int vp = V(d3, lp);
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d3 && ty_same(tm_ty_[sp], TY_LFUN, tg, ta);
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int v1 = V(d3, lv);
  //@ assert v1 >= 0 ==> tm_ctx_[v1] == d3 && tm_ty_[v1] == tg;
  //@ assert v1 >= 0 || v1 == CHAD_E_CAPACITY;
  int da = b_lapp(sp, v1);
  //@ assert da >= 0 ==> tm_ctx_[da] == d3 && tm_ty_[da] == ta;
  //@ assert da >= 0 || da == CHAD_E_CAPACITY;
  int vq = V(d3, lq);
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int sq = b_snd(vq);
  //@ assert sq >= 0 ==> tm_ctx_[sq] == d3 && ty_same(tm_ty_[sq], TY_LFUN, tg, tb);
  //@ assert sq >= 0 || sq == CHAD_E_CAPACITY;
  int v2 = V(d3, lv);
  //@ assert v2 >= 0 ==> tm_ctx_[v2] == d3 && tm_ty_[v2] == tg;
  //@ assert v2 >= 0 || v2 == CHAD_E_CAPACITY;
  int db = b_lapp(sq, v2);
  //@ assert db >= 0 ==> tm_ctx_[db] == d3 && tm_ty_[db] == tb;
  //@ assert db >= 0 || db == CHAD_E_CAPACITY;
  //@ assert da >= 0 ==> tm_ctx_[da] == d3 && tm_ty_[da] == ta;
  int dab = b_pair(da, db);
  //@ assert dab >= 0 ==> tm_ctx_[dab] == d3 && ty_same(tm_ty_[dab], TY_PROD, ta, tb) && ty_valid(tm_ty_[dab]);
  //@ assert dab >= 0 || dab == CHAD_E_CAPACITY;
  //@ assert ty_inv && ty_valid(tt) && ty_same(tt, TY_PROD, ta, tb);
  //@ assert dab >= 0 ==> tm_ty_[dab] == tt;
  //@ assert dab >= 0 ==> ty_valid(tg) && 0 <= dab < tm_count && llam_ok(tg, tm_ctx_[dab], tm_ty_[dab]);
  //@ assert ctx_parent_[d3] == d2;
  int r = b_llam(tg, dab);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d2;
  //@ assert r >= 0 ==> ty_same(tm_ty_[r], TY_LFUN, tg, tt);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d2 && ty_same(tm_ty_[r], TY_LFUN, tg, tt);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The second half of F(pair a b), from the call F b on: in d1 = d, p (p =
 * F a at level lp),
 *   let q = F b in let p in let q in ((fst p, fst q), \v. (snd p v, snd q v))
 * Its own function so that the facts about p cross the recursive call in a
 * small goal (one recursive call per function, as fwd_let_body: in one
 * function with F a, these frame goals were the ones that failed under
 * load). */
/*@ requires kernel_inv && memo_inv && src_inv;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[b] == g && tm_ty_[b] == tb;
    requires env_ok(CHAD_PFWD, g, d1);
    requires trh(CHAD_PFWD, tb) && trm(CHAD_PFWD, tb) == pb && trh(CHAD_TAN, tb) && trm(CHAD_TAN, tb) == sb;
    requires trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg && ty_valid(tg);
    requires ty_valid(pt) && ty_same(pt, TY_PROD, pa, pb);
    requires ty_valid(tt) && ty_same(tt, TY_PROD, sa, sb) && lin(tt);
    requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
    requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_len_[d1] == lp + 1;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa &&
      ty_same(ty_right_[typ], TY_LFUN, tg, sa);
    terminates \true;
    decreases FWD_M(depth) - 3;
    FWD_ASSIGNS;
    ensures kernel_inv && memo_inv && src_inv && venv_wf;
    ensures venv_sp == \old(venv_sp) && venv_cur == \old(venv_cur);
    ensures memo_grows{Pre, Post};
    ensures \old(tm_count) <= tm_count && \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures env_keep{Pre, Post};
    ensures pbody_size: tm_count - \old(tm_count) <= FWD_K * chad_msz_[b] + 18;
    ensures pbody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures pbody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, tg, tt);
*/
static int fwd_pair_body(int b, int p, int d1, int lp, int tg, int depth)
  /*@ ghost (int g, int tb, int pa, int pb, int sa, int sb, int pt, int tt, int d, int typ) */
{
  int q = f_sub(b, d1, depth + 1);
  //@ assert pb_keep: env_keep{Pre, Here};
  //@ assert pb_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b];
  if (q < 0) return q;
  //@ assert pb_b: tm_ctx_[b] == g && tm_ty_[b] == tb;
  //@ assert pb_fwd: tm_ctx_[q] == d1 && fwd_ty(tm_ty_[q], g, tb) && 0 <= q < tm_count;
  //@ assert pb_memo1: trc(CHAD_TAN, g) == tg;
  //@ assert pb_memo2: trm(CHAD_PFWD, tb) == pb && trm(CHAD_TAN, tb) == sb;
  //@ ghost int tyq = tm_ty_[q];
  //@ assert pb_qty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pb && ty_same(ty_right_[tyq], TY_LFUN, tg, sb);
  /* p's facts after the call, in small steps */
  //@ assert pb_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert pb_pk: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa;
  //@ assert pb_pr: ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  //@ assert pb_tt: ty_valid(tt) && ty_same(tt, TY_PROD, sa, sb) && lin(tt);
  //@ assert pb_pt: ty_valid(pt) && ty_same(pt, TY_PROD, pa, pb) && ty_valid(tg);
  //@ assert pb_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d) && ctx_len_[d1] == lp + 1;
  int lq = L(d1), d2 = f_ext(d1, tyof(q));
  //@ assert d2 >= 0 || d2 == CHAD_E_CAPACITY;
  //@ assert d2_keep: env_keep{Pre, Here};
  //@ assert d2_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b];
  if (d2 < 0) return d2;
  //@ assert d2_len: ctx_len_[d2] == lq + 1 && lq == lp + 1 && ctx_type_[d2] == tyq && ctx_parent_[d2] == d1;
  //@ assert d2_ext: ctx_is_ext(d2, d1, tyq) && ctx_valid(d2);
  //@ assert d2_ext2: ctx_is_ext(d1, d, typ) && ctx_valid(d);
  //@ assert d2_lq: lvl_ty(d2, lq) == tyq;
  //@ assert d2_lp1: lvl_ty(d1, lp) == typ;
  //@ assert d2_lp: lvl_ty(d2, lp) == typ && 0 <= lp < lq < ctx_len_[d2];
  //@ assert pl_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  //@ assert ql_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, tg, sb);
  //@ assert tt_ok: ty_valid(tt) && ty_kind_[tt] == TY_PROD && ty_left_[tt] == sa && ty_right_[tt] == sb && lin(tt);
  //@ ghost Built: ;
  int lin = fwd_pair_lin(d2, lp, lq, tg) /*@ ghost (tt, typ, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d2 && ty_same(tm_ty_[lin], TY_LFUN, tg, tt) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_env: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 10;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert ty_valid(tyl) && ty_same(tyl, TY_LFUN, tg, tt);
  //@ assert tail_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert tail_q: 0 <= q < tm_count && tm_ctx_[q] == d1 && tm_ty_[q] == tyq;
  //@ assert tail_lvl: lvl_ty(d2, lp) == typ && lvl_ty(d2, lq) == tyq;
  //@ assert tail_ext: ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]) && ctx_is_ext(d2, d1, tm_ty_[q]) && ctx_valid(d2);
  //@ assert tail_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pb;
  //@ assert tail_pt: ty_valid(pt) && ty_same(pt, TY_PROD, pa, pb);
  //@ ghost Lin: ;
  int r = let_pair_tail(p, q, d2, lp, lq, lin) /*@ ghost (d, d1, pt, pa, pb, tg, tt) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ assert r >= 0 ==> ty_valid(tm_ty_[r]) && ty_kind_[tm_ty_[r]] == TY_PROD && ty_left_[tm_ty_[r]] == pt && ty_same(ty_right_[tm_ty_[r]], TY_LFUN, tg, tt);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 18;
  //@ assert tables_grow{Lin, Here} && side_same{Lin, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* F(pair a b) = let p = F a; q = F b in ((fst p, fst q), \v. (snd p v, snd q v)) */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_PAIR; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases FWD_M(depth) - 2;
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_pair(int t, int d, int tg, int depth)
{
  //@ assert node_ok(t) && msz_ok(t) && msrc_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t);
  //@ assert 0 <= a < t && 0 <= b < t && chad_msrc_[a] == 1 && chad_msrc_[b] == 1;
  //@ assert tm_ctx_[a] == g && tm_ctx_[b] == g && ty_same(tau, TY_PROD, tm_ty_[a], tm_ty_[b]);
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b]);
  /* the size budget: F a, F b and at most 18 nodes of this rule (or the
   * whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert pair_budget: FWD_K * chad_msz_[a] + FWD_K * chad_msz_[b] + 18 <= FWD_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= FWD_K * chad_msz_[t]; */
  //@ ghost int ta0 = tm_ty_[a];
  //@ ghost int tb0 = tm_ty_[b];
  //@ ghost tr_step(CHAD_PFWD, tau);
  //@ ghost tr_step(CHAD_TAN, tau);
  //@ assert trh(CHAD_PFWD, ta0) && trh(CHAD_PFWD, tb0) && trh(CHAD_TAN, ta0) && trh(CHAD_TAN, tb0);
  //@ ghost int pt = chad_memo_ty_[CHAD_PFWD][tau] - 1;
  //@ ghost int tt = chad_memo_ty_[CHAD_TAN][tau] - 1;
  //@ ghost int pa = chad_memo_ty_[CHAD_PFWD][ta0] - 1;
  //@ ghost int pb = chad_memo_ty_[CHAD_PFWD][tb0] - 1;
  //@ ghost int sa = chad_memo_ty_[CHAD_TAN][ta0] - 1;
  //@ ghost int sb = chad_memo_ty_[CHAD_TAN][tb0] - 1;
  //@ assert pair_p: ty_valid(pt) && ty_same(pt, TY_PROD, pa, pb);
  //@ assert pair_t: ty_valid(tt) && ty_same(tt, TY_PROD, sa, sb);
  //@ ghost tan_lin_lemma();
  //@ assert pair_lin: lin(tt);
  int p = f_sub(a, d, depth + 1);
  /* the size bound on each path, each its own goal (as one postcondition
   * over all paths it timed out under load) */
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  //@ assert pa_fwd: tm_ctx_[p] == d && fwd_ty(tm_ty_[p], g, ta0) && 0 <= p < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a];
  //@ assert pa_memo: trm(CHAD_PFWD, ta0) == pa && trm(CHAD_TAN, ta0) == sa && trc(CHAD_TAN, g) == tg;
  //@ assert pa_memo2: trh(CHAD_PFWD, tb0) && trh(CHAD_TAN, tb0) && trm(CHAD_PFWD, tb0) == pb && trm(CHAD_TAN, tb0) == sb;
  //@ ghost int typ = tm_ty_[p];
  //@ assert pa_ty: ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  //@ assert pa_valid: ty_valid(typ) && ty_valid(ty_right_[typ]);
  //@ assert pa_tt: ty_valid(tt) && ty_same(tt, TY_PROD, sa, sb) && lin(tt);
  //@ assert pa_pt: ty_valid(pt) && ty_same(pt, TY_PROD, pa, pb) && ty_valid(tg);
  int lp = L(d), d1 = f_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_env: env_ok(CHAD_PFWD, g, d1) && ctx_len_[d1] == lp + 1 && ctx_type_[d1] == typ;
  //@ assert pa_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d);
  //@ assert d1_b: tm_ctx_[b] == g && tm_ty_[b] == tb0 && trch(CHAD_TAN, g) && ty_valid(tg);
  //@ assert d1_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ ghost Body: ;
  int r = fwd_pair_body(b, p, d1, lp, tg, depth) /*@ ghost (g, tb0, pa, pb, sa, sb, pt, tt, d, typ) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= FWD_K * chad_msz_[b] + 18;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert r >= 0 || r == CHAD_E_CAPACITY || r == CHAD_E_DEPTH;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, tg, tt);
  //@ assert r >= 0 ==> ty_node_ok(tyr) && 0 <= ty_right_[tyr] < tyr;
  //@ assert trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau) && trch(CHAD_TAN, g) && trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt && trc(CHAD_TAN, g) == tg;
  //@ assert r >= 0 ==> fwd_ty(tm_ty_[r], g, tau);
  //@ assert tm_ctx_[t] == g && tm_ty_[t] == tau;
  //@ assert pair_type: r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d && fwd_ty(tm_ty_[r], tm_ctx_[t], tm_ty_[t]);
  return r;
}
