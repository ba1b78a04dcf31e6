/* F(app t s)      = let (g,dg) = F t; (x,dx) = F s; (y,dyx) = g x in
 *                   (y, \v. (dg v) x + dyx (dx v))
 * (../shared/chad-rules.md, section 4, forward mode)
 *   fwd_app_lin   the linear half  \v. dg v x + dyx (dx v)
 *   fwd_app_body  from F s on: g x and the pair
 *   fwd_app       the rule: F t, then fwd_app_body
 * Part of forward.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* The linear half of F(app a b), in d3 where level lp holds p = F a (type
 * typ = P(s->t) * (T G -o tf), tf = T(s->t) = P s -> T t), level lq holds
 * q = F b (type tyq = P s * (T G -o T s)) and level lr holds
 * r = fst p (fst q) (type tyr = P t * (T s -o T t)):
 *   \v. (snd p v) (fst q) + snd r (snd q v)
 * of type T G -o T t, tg = T G and tt = T t. Against the kernel's
 * invariant only, with raw builders (as fwd_pair_lin). */
/*@ requires kernel_inv;
    requires ctx_valid(d3) && ty_valid(tg) && ty_valid(tt) && lin(tt);
    requires ty_valid(tf) && ty_same(tf, TY_FUN, ps, tt);
    requires 0 <= lp < ctx_len_[d3] && lvl_ty(d3, lp) == typ && ty_valid(typ) &&
      ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, tg, tf);
    requires 0 <= lq < ctx_len_[d3] && lvl_ty(d3, lq) == tyq && ty_valid(tyq) &&
      ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == ps && ty_same(ty_right_[tyq], TY_LFUN, tg, ts);
    requires 0 <= lr < ctx_len_[d3] && lvl_ty(d3, lr) == tyr && ty_valid(tyr) &&
      ty_kind_[tyr] == TY_PROD && ty_same(ty_right_[tyr], TY_LFUN, ts, tt);
    terminates \true;
    assigns CH_TM_LOCS, CH_TMS_LOCS, CH_TYS_LOCS, CH_CTX_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures fapp_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d3 &&
      ty_same(tm_ty_[\result], TY_LFUN, tg, tt);
    ensures fapp_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures fapp_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 16;
    ensures fapp_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures fapp_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures fapp_lin_lvl: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \old(lvl_ty(d3, l));
    ensures env_keep{Pre, Post};
*/
static int fwd_app_lin(int d3, int lp, int lq, int lr, int tg)
  /*@ ghost (int tt, int tf, int ps, int ts, int typ, int tyq, int tyr) */
{
  int lv = L(d3), d4 = k_ext(d3, tg);
  if (d4 < 0) return d4;
  //@ assert d4_lv: lvl_ty(d4, lv) == tg && ctx_parent_[d4] == d3 && ctx_type_[d4] == tg;
  //@ assert d4_lp: lvl_ty(d4, lp) == typ && lvl_ty(d4, lq) == tyq && lvl_ty(d4, lr) == tyr;
  int vp = V(d4, lp);
  //@ assert vp >= 0 ==> tm_ctx_[vp] == d4 && tm_ty_[vp] == typ && 0 <= vp < tm_count;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d4 && ty_same(tm_ty_[sp], TY_LFUN, tg, tf) && 0 <= sp < tm_count;
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int v1 = V(d4, lv);
  //@ assert v1 >= 0 ==> tm_ctx_[v1] == d4 && tm_ty_[v1] == tg && 0 <= v1 < tm_count;
  //@ assert v1 >= 0 || v1 == CHAD_E_CAPACITY;
  int dg = b_lapp(sp, v1);
  //@ assert dg >= 0 ==> tm_ctx_[dg] == d4 && tm_ty_[dg] == tf && 0 <= dg < tm_count;
  //@ assert dg >= 0 || dg == CHAD_E_CAPACITY;
  int vq = V(d4, lq);
  //@ assert vq >= 0 ==> tm_ctx_[vq] == d4 && tm_ty_[vq] == tyq && 0 <= vq < tm_count;
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int xq = b_fst(vq);
  //@ assert xq >= 0 ==> tm_ctx_[xq] == d4 && tm_ty_[xq] == ps && 0 <= xq < tm_count;
  //@ assert xq >= 0 || xq == CHAD_E_CAPACITY;
  //@ assert dg >= 0 ==> tm_ctx_[dg] == d4 && tm_ty_[dg] == tf && 0 <= dg < tm_count;
  int t1 = b_app(dg, xq);
  //@ assert t1 >= 0 ==> tm_ctx_[t1] == d4 && tm_ty_[t1] == tt && 0 <= t1 < tm_count;
  //@ assert t1 >= 0 || t1 == CHAD_E_CAPACITY;
  int vq2 = V(d4, lq);
  //@ assert vq2 >= 0 ==> tm_ctx_[vq2] == d4 && tm_ty_[vq2] == tyq && 0 <= vq2 < tm_count;
  //@ assert vq2 >= 0 || vq2 == CHAD_E_CAPACITY;
  int sq = b_snd(vq2);
  //@ assert sq >= 0 ==> tm_ctx_[sq] == d4 && ty_same(tm_ty_[sq], TY_LFUN, tg, ts) && 0 <= sq < tm_count;
  //@ assert sq >= 0 || sq == CHAD_E_CAPACITY;
  int v2 = V(d4, lv);
  //@ assert v2 >= 0 ==> tm_ctx_[v2] == d4 && tm_ty_[v2] == tg && 0 <= v2 < tm_count;
  //@ assert v2 >= 0 || v2 == CHAD_E_CAPACITY;
  int dx = b_lapp(sq, v2);
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d4 && tm_ty_[dx] == ts && 0 <= dx < tm_count;
  //@ assert dx >= 0 || dx == CHAD_E_CAPACITY;
  int vr = V(d4, lr);
  //@ assert vr >= 0 ==> tm_ctx_[vr] == d4 && tm_ty_[vr] == tyr && 0 <= vr < tm_count;
  //@ assert vr >= 0 || vr == CHAD_E_CAPACITY;
  int sr = b_snd(vr);
  //@ assert sr >= 0 ==> tm_ctx_[sr] == d4 && ty_same(tm_ty_[sr], TY_LFUN, ts, tt) && 0 <= sr < tm_count;
  //@ assert sr >= 0 || sr == CHAD_E_CAPACITY;
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d4 && tm_ty_[dx] == ts && 0 <= dx < tm_count;
  int t2 = b_lapp(sr, dx);
  //@ assert t2 >= 0 ==> tm_ctx_[t2] == d4 && tm_ty_[t2] == tt && 0 <= t2 < tm_count;
  //@ assert t2 >= 0 || t2 == CHAD_E_CAPACITY;
  //@ assert t1 >= 0 ==> tm_ctx_[t1] == d4 && tm_ty_[t1] == tt && 0 <= t1 < tm_count;
  int sum = b_plus(t1, t2);
  //@ assert sum >= 0 ==> tm_ctx_[sum] == d4 && tm_ty_[sum] == tt && 0 <= sum < tm_count;
  //@ assert sum >= 0 || sum == CHAD_E_CAPACITY;
  //@ assert sum >= 0 ==> ty_valid(tg) && llam_ok(tg, tm_ctx_[sum], tm_ty_[sum]);
  int r = b_llam(tg, sum);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d3 && ty_same(tm_ty_[r], TY_LFUN, tg, tt);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 16;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The second half of F(app a b), from the call F b on: in d1 = d, p (p =
 * F a at level lp),
 *   let q = F b in let p in let q in let r = fst p (fst q) in
 *   (fst r, \v. (snd p v) (fst q) + snd r (snd q v))
 * One recursive call per function (as fwd_pair_body). */
/*@ requires kernel_inv && memo_inv && src_inv;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[b] == g && tm_ty_[b] == sg;
    requires env_ok(CHAD_PFWD, g, d1);
    requires trh(CHAD_PFWD, sg) && trm(CHAD_PFWD, sg) == ps && trh(CHAD_TAN, sg) && trm(CHAD_TAN, sg) == ts;
    requires trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg && ty_valid(tg);
    requires ty_valid(pf) && ty_kind_[pf] == TY_FUN && ty_left_[pf] == ps;
    requires ty_valid(pr) && pr == ty_right_[pf] && ty_kind_[pr] == TY_PROD && ty_left_[pr] == pt &&
      ty_same(ty_right_[pr], TY_LFUN, ts, tt);
    requires ty_valid(tf) && ty_same(tf, TY_FUN, ps, tt) && ty_valid(tt) && lin(tt);
    requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
    requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_len_[d1] == lp + 1;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pf &&
      ty_same(ty_right_[typ], TY_LFUN, tg, tf);
    terminates \true;
    decreases FWD_M(depth) - 3;
    FWD_ASSIGNS;
    ensures kernel_inv && memo_inv && src_inv && venv_wf;
    ensures venv_sp == \old(venv_sp) && venv_cur == \old(venv_cur);
    ensures memo_grows{Pre, Post};
    ensures \old(tm_count) <= tm_count && \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures env_keep{Pre, Post};
    ensures abody_size: tm_count - \old(tm_count) <= FWD_K * chad_msz_[b] + 27;
    ensures abody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures abody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, tg, tt);
*/
static int fwd_app_body(int b, int p, int d1, int lp, int tg, int depth)
  /*@ ghost (int g, int sg, int pf, int ps, int pr, int pt, int ts, int tt, int tf, int d, int typ) */
{
  /* the right halves of pr and typ named before the call, as in
   * rev_app_body */
  //@ ghost int prr = ty_right_[pr];
  //@ ghost int tyr = ty_right_[typ];
  //@ assert ab_r0: ty_valid(prr) && ty_same(prr, TY_LFUN, ts, tt) && ty_valid(tyr) && ty_same(tyr, TY_LFUN, tg, tf);
  int q = f_sub(b, d1, depth + 1);
  //@ assert ab_keep: env_keep{Pre, Here};
  //@ assert ab_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b];
  if (q < 0) return q;
  //@ assert ab_b: tm_ctx_[b] == g && tm_ty_[b] == sg;
  //@ assert ab_fwd: tm_ctx_[q] == d1 && fwd_ty(tm_ty_[q], g, sg) && 0 <= q < tm_count;
  //@ assert ab_memo1: trc(CHAD_TAN, g) == tg;
  //@ assert ab_memo2: trm(CHAD_PFWD, sg) == ps && trm(CHAD_TAN, sg) == ts;
  //@ ghost int tyq = tm_ty_[q];
  //@ ghost int qr = ty_right_[tyq];
  //@ assert ab_qty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == ps && ty_same(ty_right_[tyq], TY_LFUN, tg, ts);
  /* p's facts after the call, in small steps */
  //@ assert ab_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert ab_pk: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pf;
  //@ assert ab_tyr: ty_right_[typ] == tyr && ty_valid(tyr) && ty_same(tyr, TY_LFUN, tg, tf);
  //@ assert ab_pr: ty_same(ty_right_[typ], TY_LFUN, tg, tf);
  //@ assert ab_pf: ty_valid(pf) && ty_kind_[pf] == TY_FUN && ty_left_[pf] == ps && ty_right_[pf] == pr;
  //@ assert ab_prr: ty_right_[pr] == prr && ty_valid(prr) && ty_same(prr, TY_LFUN, ts, tt);
  //@ assert ab_pr2: ty_valid(pr) && ty_kind_[pr] == TY_PROD && ty_left_[pr] == pt && ty_same(ty_right_[pr], TY_LFUN, ts, tt);
  //@ assert ab_tf: ty_valid(tf) && ty_same(tf, TY_FUN, ps, tt) && ty_valid(tt) && lin(tt) && ty_valid(tg);
  //@ assert ab_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d) && ctx_len_[d1] == lp + 1;
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
  //@ ghost Prim: ;
  int r = app_primal(d2, lp, lq) /*@ ghost (pf, ps, typ, tyq) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d2 && tm_ty_[r] == pr && 0 <= r < tm_count;
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert r_env: env_keep{Pre, Here};
  //@ assert r_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 5;
  //@ assert r_grow: tables_grow{Prim, Here};
  //@ assert r_side: side_same{Prim, Here};
  //@ assert r_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv;
  if (r < 0) return r;
  //@ assert r_lvl: lvl_ty(d2, lp) == typ && lvl_ty(d2, lq) == tyq;
  //@ assert r_ctx: ctx_valid(d2) && ctx_len_[d2] == lq + 1;
  int lr = L(d2), d3 = f_ext(d2, tyof(r));
  //@ assert d3 >= 0 || d3 == CHAD_E_CAPACITY;
  //@ assert d3_keep: env_keep{Pre, Here};
  //@ assert d3_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b] + 5;
  if (d3 < 0) return d3;
  //@ assert d3_len: ctx_len_[d3] == lr + 1 && lr == lq + 1 && ctx_type_[d3] == pr && ctx_parent_[d3] == d2;
  //@ assert d3_ext: ctx_is_ext(d3, d2, pr) && ctx_valid(d3);
  //@ assert d3_lr: lvl_ty(d3, lr) == pr;
  //@ assert d3_lq: lvl_ty(d3, lq) == tyq;
  //@ assert d3_lp: lvl_ty(d3, lp) == typ;
  //@ assert d3_tyr: ty_right_[typ] == tyr && ty_same(tyr, TY_LFUN, tg, tf);
  //@ assert d3_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, tg, tf);
  //@ assert d3_qr: ty_right_[tyq] == qr && ty_same(qr, TY_LFUN, tg, ts);
  //@ assert d3_tyq: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == ps && ty_same(ty_right_[tyq], TY_LFUN, tg, ts);
  //@ assert d3_prr: ty_right_[pr] == prr && ty_valid(prr) && ty_same(prr, TY_LFUN, ts, tt);
  //@ assert d3_pr: ty_valid(pr) && ty_kind_[pr] == TY_PROD && ty_same(ty_right_[pr], TY_LFUN, ts, tt);
  //@ assert d3_tf: ty_valid(tf) && ty_same(tf, TY_FUN, ps, tt) && ty_valid(tt) && lin(tt) && ty_valid(tg);
  //@ ghost Built: ;
  int lin = fwd_app_lin(d3, lp, lq, lr, tg) /*@ ghost (tt, tf, ps, ts, typ, tyq, pr) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d3 && ty_same(tm_ty_[lin], TY_LFUN, tg, tt) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_env: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 21;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert ty_valid(tyl) && ty_same(tyl, TY_LFUN, tg, tt);
  //@ assert tail_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert tail_q: 0 <= q < tm_count && tm_ctx_[q] == d1 && tm_ty_[q] == tyq;
  //@ assert tail_r: 0 <= r < tm_count && tm_ctx_[r] == d2 && tm_ty_[r] == pr;
  //@ assert tail_lvl: lvl_ty(d3, lr) == pr && 0 <= lr < ctx_len_[d3];
  //@ assert tail_ext1: ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
  //@ assert tail_ext2: ctx_is_ext(d2, d1, tm_ty_[q]);
  //@ assert tail_ext3: ctx_is_ext(d3, d2, tm_ty_[r]) && ctx_valid(d3);
  //@ assert tail_pr: ty_valid(pr) && ty_kind_[pr] == TY_PROD && ty_left_[pr] == pt;
  //@ ghost Lin: ;
  int res = let_app_tail(p, q, r, d3, lr, lin) /*@ ghost (d, d1, d2, pt, tg, tt) */;
  //@ assert res >= 0 ==> tm_ctx_[res] == d && \at(tm_count, Pre) <= res < tm_count;
  //@ assert res >= 0 ==> ty_valid(tm_ty_[res]) && ty_kind_[tm_ty_[res]] == TY_PROD && ty_left_[tm_ty_[res]] == pt && ty_same(ty_right_[tm_ty_[res]], TY_LFUN, tg, tt);
  //@ assert res >= 0 || res == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 27;
  //@ assert tables_grow{Lin, Here} && side_same{Lin, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv;
  //@ assert env_keep{Pre, Here};
  return res;
}

/* F(app a b) = let p = F a; q = F b; r = fst p (fst q) in
 *   (fst r, \v. (snd p v) (fst q) + snd r (snd q v)) */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_APP; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases FWD_M(depth) - 2;
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_app(int t, int d, int tg, int depth)
{
  //@ assert node_ok(t) && msz_ok(t) && msrc_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t);
  //@ ghost int fa = tm_ty_[a];
  //@ ghost int sg = tm_ty_[b];
  //@ assert tm_ctx_[a] == g && tm_ctx_[b] == g && ty_valid(fa) && ty_kind_[fa] == TY_FUN;
  //@ assert ty_left_[fa] == sg && ty_right_[fa] == tau;
  //@ assert 0 <= a < t && 0 <= b < t && chad_msrc_[a] == 1 && chad_msrc_[b] == 1;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b]);
  /* the size budget: F a, F b and at most 27 nodes of this rule (or the
   * whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert app_budget: FWD_K * chad_msz_[a] + FWD_K * chad_msz_[b] + 27 <= FWD_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= FWD_K * chad_msz_[t]; */
  //@ assert trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau);
  //@ ghost int pt = chad_memo_ty_[CHAD_PFWD][tau] - 1;
  //@ ghost int tt = chad_memo_ty_[CHAD_TAN][tau] - 1;
  //@ ghost tan_lin_lemma();
  //@ assert app_lin: lin(tt);
  int p = f_sub(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  //@ assert pa_fwd: tm_ctx_[p] == d && fwd_ty(tm_ty_[p], g, fa) && 0 <= p < tm_count;
  /* P(s->t) and T(s->t): F a memoised s->t (before the call only t was) */
  //@ assert pa_tau: trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt && lin(tt);
  //@ ghost tr_step(CHAD_PFWD, fa);
  //@ ghost tr_step(CHAD_TAN, fa);
  //@ ghost int pf = chad_memo_ty_[CHAD_PFWD][fa] - 1;
  //@ ghost int tf = chad_memo_ty_[CHAD_TAN][fa] - 1;
  //@ assert app_sg: trh(CHAD_PFWD, sg) && trh(CHAD_TAN, sg);
  //@ ghost int ps = chad_memo_ty_[CHAD_PFWD][sg] - 1;
  //@ ghost int ts = chad_memo_ty_[CHAD_TAN][sg] - 1;
  //@ assert app_tf: ty_valid(tf) && ty_same(tf, TY_FUN, ps, tt);
  //@ assert app_pf: ty_valid(pf) && ty_kind_[pf] == TY_FUN && ty_left_[pf] == ps;
  //@ ghost int pr = ty_right_[pf];
  //@ assert app_pr: ty_valid(pr) && ty_kind_[pr] == TY_PROD && ty_left_[pr] == pt;
  //@ assert app_pr2: ty_same(ty_right_[pr], TY_LFUN, ts, tt);
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a];
  //@ assert pa_memo: trm(CHAD_PFWD, fa) == pf && trm(CHAD_TAN, fa) == tf && trc(CHAD_TAN, g) == tg;
  //@ ghost int typ = tm_ty_[p];
  //@ assert pa_ty: ty_kind_[typ] == TY_PROD && ty_left_[typ] == pf && ty_same(ty_right_[typ], TY_LFUN, tg, tf);
  //@ assert pa_valid: ty_valid(typ) && ty_valid(ty_right_[typ]);
  int lp = L(d), d1 = f_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_env: env_ok(CHAD_PFWD, g, d1) && ctx_len_[d1] == lp + 1 && ctx_type_[d1] == typ;
  //@ assert pa_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d);
  //@ assert d1_b: tm_ctx_[b] == g && tm_ty_[b] == sg && trch(CHAD_TAN, g) && ty_valid(tg);
  //@ assert d1_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert b_memo: trh(CHAD_PFWD, sg) && trm(CHAD_PFWD, sg) == ps && trh(CHAD_TAN, sg) && trm(CHAD_TAN, sg) == ts;
  //@ assert b_memo2: trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau) && trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt;
  //@ ghost Body: ;
  int r = fwd_app_body(b, p, d1, lp, tg, depth) /*@ ghost (g, sg, pf, ps, pr, pt, ts, tt, tf, d, typ) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= FWD_K * chad_msz_[b] + 27;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert r >= 0 || r == CHAD_E_CAPACITY || r == CHAD_E_DEPTH;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, tg, tt);
  //@ assert r >= 0 ==> ty_node_ok(tyr) && 0 <= ty_right_[tyr] < tyr;
  //@ assert r_memo1: trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt;
  //@ assert r_memo2: trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt;
  //@ assert r_memo3: trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg;
  //@ assert r >= 0 ==> fwd_ty(tm_ty_[r], g, tau);
  //@ assert tm_ctx_[t] == g && tm_ty_[t] == tau;
  //@ assert app_type: r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d && fwd_ty(tm_ty_[r], tm_ctx_[t], tm_ty_[t]);
  return r;
}
