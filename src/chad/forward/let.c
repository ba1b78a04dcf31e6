/* F(let t (x.s))  = let (x,dx) = F t in let (y,dy) = F_{G,x} s in (y, \v. dy (v, dx v))
 * (../shared/chad-rules.md, section 4, forward mode)
 *   fwd_let_lin   the linear half  \v. dy (v, dx v)
 *   fwd_let_body  from F_{G,x} s on: (y, linear half)
 *   fwd_let       the rule: F t, x = fst, then fwd_let_body
 * Part of forward.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* The linear half of F(let a (x. b)), in d3 where level lp holds p = F a
 * (type typ = P a * (T G -o T a)) and level lq holds q = F_{G,x} b (type
 * tyq = P b * (T(G, x) -o T b)):   \v. snd q (v, snd p v)
 * of type T G -o T b, with tg = T G, ta = T a, tgx = T(G, x) = T G * T a
 * and tt = T b. Against the kernel's invariant only, with raw builders
 * (as fwd_pair_lin): the rule gets the pass invariants back by the frame. */
/*@ requires kernel_inv;
    requires ctx_valid(d3) && ty_valid(tg) && ty_valid(ta) && ty_valid(tt) && lin(tt);
    requires ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, ta);
    requires 0 <= lp < ctx_len_[d3] && lvl_ty(d3, lp) == typ && ty_valid(typ) &&
      ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, tg, ta);
    requires 0 <= lq < ctx_len_[d3] && lvl_ty(d3, lq) == tyq && ty_valid(tyq) &&
      ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, tgx, tt);
    terminates \true;
    assigns CH_TM_LOCS, CH_TMS_LOCS, CH_TYS_LOCS, CH_CTX_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures flet_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d3 &&
      ty_same(tm_ty_[\result], TY_LFUN, tg, tt);
    ensures flet_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures flet_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 10;
    ensures flet_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures flet_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures flet_lin_lvl: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \old(lvl_ty(d3, l));
    ensures env_keep{Pre, Post};
*/
static int fwd_let_lin(int d3, int lp, int lq, int tg) /*@ ghost (int ta, int tgx, int tt, int typ, int tyq) */
{
  int lv = L(d3), d4 = k_ext(d3, tg);
  if (d4 < 0) return d4;
  //@ assert lvl_ty(d4, lv) == tg && lvl_ty(d4, lp) == lvl_ty(d3, lp) && lvl_ty(d4, lq) == lvl_ty(d3, lq);
  int vq = V(d4, lq);
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int sq = b_snd(vq);
  //@ assert sq >= 0 ==> tm_ctx_[sq] == d4 && ty_same(tm_ty_[sq], TY_LFUN, tgx, tt);
  //@ assert sq >= 0 || sq == CHAD_E_CAPACITY;
  int v1 = V(d4, lv);
  //@ assert v1 >= 0 ==> tm_ctx_[v1] == d4 && tm_ty_[v1] == tg;
  //@ assert v1 >= 0 || v1 == CHAD_E_CAPACITY;
  int vp = V(d4, lp);
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d4 && ty_same(tm_ty_[sp], TY_LFUN, tg, ta);
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int v2 = V(d4, lv);
  //@ assert v2 >= 0 ==> tm_ctx_[v2] == d4 && tm_ty_[v2] == tg;
  //@ assert v2 >= 0 || v2 == CHAD_E_CAPACITY;
  int dx = b_lapp(sp, v2);
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d4 && tm_ty_[dx] == ta;
  //@ assert dx >= 0 || dx == CHAD_E_CAPACITY;
  //@ assert v1 >= 0 ==> tm_ctx_[v1] == d4 && tm_ty_[v1] == tg;
  int arg = b_pair(v1, dx);
  //@ assert arg >= 0 ==> tm_ctx_[arg] == d4 && ty_same(tm_ty_[arg], TY_PROD, tg, ta) && ty_valid(tm_ty_[arg]);
  //@ assert arg >= 0 || arg == CHAD_E_CAPACITY;
  //@ assert ty_inv && ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, ta);
  //@ assert arg >= 0 ==> tm_ty_[arg] == tgx;
  //@ assert sq >= 0 ==> tm_ctx_[sq] == d4 && ty_same(tm_ty_[sq], TY_LFUN, tgx, tt);
  int dy = b_lapp(sq, arg);
  //@ assert dy >= 0 ==> tm_ctx_[dy] == d4 && tm_ty_[dy] == tt;
  //@ assert dy >= 0 || dy == CHAD_E_CAPACITY;
  //@ assert dy >= 0 ==> ty_valid(tg) && 0 <= dy < tm_count && llam_ok(tg, tm_ctx_[dy], tm_ty_[dy]);
  //@ assert ctx_parent_[d4] == d3;
  int r = b_llam(tg, dy);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d3;
  //@ assert r >= 0 ==> ty_same(tm_ty_[r], TY_LFUN, tg, tt);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d3 && ty_same(tm_ty_[r], TY_LFUN, tg, tt);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The second half of F(let a (x. b)), from the call F_{G,x} b on: in d2 =
 * d, p, x (p = F a at level lp of d1 = d, p; x : P a at level lx),
 *   let q = F_{G,x} b in let p in let x = fst p in let q in (fst q, \v. snd q (v, snd p v))
 * Its own function so that the facts about p and x cross the recursive
 * call in a small goal (in one function with F a, the frame goals after
 * F b timed out: only one recursive call per function). */
/*@ requires kernel_inv && memo_inv && src_inv;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= depth <= CHAD_MAX_DEPTH;
    requires 0 < gb < ctx_count && gb == tm_ctx_[b] && ctx_parent_[gb] == g && ctx_type_[gb] == ta;
    requires env_ok(CHAD_PFWD, g, d2);
    requires trh(CHAD_PFWD, ta) && trm(CHAD_PFWD, ta) == pa && trh(CHAD_TAN, ta) && trm(CHAD_TAN, ta) == sa;
    requires trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg && ty_valid(tg) && ty_valid(sa);
    requires tau == tm_ty_[b] && trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau) &&
      trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt && ty_valid(tt) && lin(tt);
    requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
    requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_is_ext(d2, d1, pa) && ctx_valid(d2);
    requires lp == ctx_len_[d] && ctx_len_[d1] == lp + 1 && lx == lp + 1 && ctx_len_[d2] == lx + 1;
    requires lvl_ty(d2, lp) == typ && lvl_ty(d2, lx) == pa;
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
    ensures lbody_size: tm_count - \old(tm_count) <= FWD_K * chad_msz_[b] + 18;
    ensures lbody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures lbody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, tg, tt);
*/
static int fwd_let_body(int b, int p, int d1, int d2, int lp, int lx, int tg, int depth)
  /*@ ghost (int g, int gb, int ta, int tau, int pa, int sa, int pt, int tt,
             int d, int typ) */
{
  //@ ghost int rtp = ty_right_[typ];
  //@ assert qb_rtp0: ty_node_ok(typ) && ty_valid(rtp) && ty_same(rtp, TY_LFUN, tg, sa);
  int q = fwd_under(b, d2, lx, depth + 1);
  //@ assert qb_keep: env_keep{Pre, Here};
  //@ assert qb_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b];
  if (q < 0) return q;
  //@ assert qb_b: tm_ctx_[b] == gb && tm_ty_[b] == tau;
  //@ assert qb_fwd: tm_ctx_[q] == d2 && fwd_ty(tm_ty_[q], gb, tau) && 0 <= q < tm_count;
  //@ ghost int tyq = tm_ty_[q];
  //@ ghost int tgx = chad_memo_ctx_[CHAD_TAN][gb] - 1;
  //@ assert qb_tgx: trch(CHAD_TAN, gb) && trc(CHAD_TAN, gb) == tgx && 0 < gb;
  //@ ghost trc_step(CHAD_TAN, gb);
  //@ assert qb_memo1: trm(CHAD_PFWD, ta) == pa && trm(CHAD_TAN, ta) == sa && trc(CHAD_TAN, g) == tg;
  //@ assert qb_memo2: trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt;
  //@ assert qb_tgx2: ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, sa);
  //@ assert qb_qty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, tgx, tt);
  /* p's and x's facts after the call, in small steps */
  //@ assert qb_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert qb_len: ctx_len_[d] == lp && ctx_len_[d1] == lp + 1 && lx == lp + 1;
  //@ assert qb_grow: tables_grow{Pre, Here};
  //@ assert qb_pk: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa;
  //@ assert qb_pr1: ty_right_[typ] == rtp;
  //@ assert qb_pr2: ty_valid(rtp) && ty_same(rtp, TY_LFUN, tg, sa);
  //@ assert qb_pr: ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  //@ assert qb_tt: ty_valid(tt) && lin(tt) && ty_valid(tg) && ty_valid(sa);
  //@ assert qb_ext: ctx_is_ext(d1, d, typ) && ctx_is_ext(d2, d1, pa) && ctx_valid(d2) && ctx_valid(d);
  //@ assert qb_len2: ctx_len_[d2] == lx + 1;
  //@ assert qb_lvl: lvl_ty(d2, lp) == typ && lvl_ty(d2, lx) == pa;
  int lq = L(d2), d3 = f_ext(d2, tyof(q));
  //@ assert d3 >= 0 || d3 == CHAD_E_CAPACITY;
  //@ assert d3_keep: env_keep{Pre, Here};
  //@ assert d3_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b];
  if (d3 < 0) return d3;
  //@ assert d3_len: ctx_len_[d3] == lq + 1 && lq == lx + 1 && ctx_parent_[d3] == d2 && ctx_type_[d3] == tyq;
  //@ assert d3_ext: ctx_is_ext(d3, d2, tyq) && ctx_valid(d3);
  //@ assert d3_ext2: ctx_is_ext(d2, d1, pa) && ctx_is_ext(d1, d, typ) && ctx_valid(d);
  //@ assert d3_lq: lvl_ty(d3, lq) == tyq;
  //@ assert d3_lp: lvl_ty(d3, lp) == typ && 0 <= lp < lq < ctx_len_[d3];
  //@ assert d3_pty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  //@ assert d3_pty2: ty_valid(typ) && ty_same(typ, TY_PROD, pa, rtp);
  //@ assert d3_qty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, tgx, tt);
  //@ assert d3_tgx: ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, sa);
  //@ ghost Built: ;
  int lin = fwd_let_lin(d3, lp, lq, tg) /*@ ghost (sa, tgx, tt, typ, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d3 && ty_same(tm_ty_[lin], TY_LFUN, tg, tt) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_env: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 10;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert ty_valid(tyl) && ty_same(tyl, TY_LFUN, tg, tt);
  //@ assert tail_q: 0 <= q < tm_count && tm_ctx_[q] == d2 && tm_ty_[q] == tyq && lvl_ty(d3, lq) == tyq;
  //@ assert tail_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  /* p's type across the linear half: one step of lemma ty_same_keep */
  //@ assert tail_pty1: ty_valid(typ) && ty_same(typ, TY_PROD, pa, rtp);
  //@ assert tail_pty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa;
  //@ assert tail_ext: ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]) && ctx_is_ext(d2, d1, pa) && ctx_is_ext(d3, d2, tm_ty_[q]);
  //@ assert tail_len: ctx_len_[d1] == ctx_len_[d] + 1 && lp == ctx_len_[d] && ctx_len_[d2] == ctx_len_[d1] + 1 && ctx_len_[d3] == ctx_len_[d2] + 1 && lq == ctx_len_[d2];
  //@ assert tail_qty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt;
  //@ ghost Lin: ;
  int r = let_let_tail(p, q, d1, d3, lp, lq, lin) /*@ ghost (d, d2, pa, pt, tg, tt) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ assert r >= 0 ==> ty_valid(tm_ty_[r]) && ty_kind_[tm_ty_[r]] == TY_PROD && ty_left_[tm_ty_[r]] == pt && ty_same(ty_right_[tm_ty_[r]], TY_LFUN, tg, tt);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 18;
  //@ assert tables_grow{Lin, Here} && side_same{Lin, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* F(let a (x. b)) =
 *   let p = F a; x = fst p; q = F_{G,x} b in (fst q, \v. snd q (v, snd p v)) */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_LET; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases FWD_M(depth) - 2;
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_let(int t, int d, int tg, int depth)
{
  //@ assert node_ok(t) && msz_ok(t) && msrc_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t);
  //@ ghost int ta = tm_ty_[a];
  //@ ghost int gb = tm_ctx_[b];
  //@ assert 0 <= a < t && 0 <= b < t && chad_msrc_[a] == 1 && chad_msrc_[b] == 1;
  //@ assert tm_ctx_[a] == g && ctx_is_ext(gb, g, ta) && tau == tm_ty_[b];
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b]);
  /* the size budget: F a, F b and at most 18 nodes of this rule (or the
   * whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert let_budget: FWD_K * chad_msz_[a] + FWD_K * chad_msz_[b] + 18 <= FWD_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= FWD_K * chad_msz_[t]; */
  //@ ghost int pt = chad_memo_ty_[CHAD_PFWD][tau] - 1;
  //@ ghost int tt = chad_memo_ty_[CHAD_TAN][tau] - 1;
  //@ ghost tan_lin_lemma();
  //@ assert let_lin: lin(tt) && ty_valid(tt) && ty_valid(tg);
  int p = f_sub(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  //@ assert pa_fwd: tm_ctx_[p] == d && fwd_ty(tm_ty_[p], g, ta) && 0 <= p < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a];
  //@ ghost int pa = chad_memo_ty_[CHAD_PFWD][ta] - 1;
  //@ ghost int sa = chad_memo_ty_[CHAD_TAN][ta] - 1;
  //@ assert pa_memo: trh(CHAD_PFWD, ta) && trh(CHAD_TAN, ta) && trm(CHAD_PFWD, ta) == pa && trm(CHAD_TAN, ta) == sa && trc(CHAD_TAN, g) == tg;
  //@ ghost int typ = tm_ty_[p];
  //@ assert pa_ty: ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  //@ assert pa_valid: ty_valid(typ) && ty_valid(ty_right_[typ]) && ty_valid(sa);
  //@ assert pa_tt: ty_valid(tt) && lin(tt) && trm(CHAD_TAN, tau) == tt && trm(CHAD_PFWD, tau) == pt;
  int lp = L(d), d1 = f_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_env: env_ok(CHAD_PFWD, g, d1) && ctx_len_[d1] == lp + 1 && lvl_ty(d1, lp) == typ;
  //@ assert d1_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d) && lp == ctx_len_[d];
  /* x = fst p : P a, the binder of b (the tail builds x itself) */
  int px = ty_left(tyof(p));
  //@ assert px == pa;
  int lx = L(d1), d2 = f_ext(d1, px);
  //@ assert d2 >= 0 || d2 == CHAD_E_CAPACITY;
  //@ assert d2_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert d2_keep: env_keep{Pre, Here};
  if (d2 < 0) return d2;
  //@ assert d2_env: env_ok(CHAD_PFWD, g, d2) && ctx_len_[d2] == lx + 1 && lx == lp + 1;
  //@ assert d2_lx: lx == ctx_len_[d1] && ctx_len_[d1] == lp + 1 && px == pa;
  //@ assert d2_top: lvl_ty(d2, ctx_len_[d1]) == px;
  //@ assert d2_lvl1: lvl_ty(d2, lx) == pa && 0 <= lp < ctx_len_[d1];
  //@ assert d2_lvl2: lvl_ty(d1, lp) == typ;
  //@ assert d2_lvl: lvl_ty(d2, lx) == pa && lvl_ty(d2, lp) == typ;
  //@ assert d2_ext: ctx_is_ext(d2, d1, pa) && ctx_valid(d2) && ctx_is_ext(d1, d, typ) && ctx_valid(d);
  //@ assert d2_b: ctx_parent_[gb] == g && ctx_type_[gb] == ta && 0 < gb < ctx_count;
  //@ assert d2_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert d2_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  //@ assert d2_memo: trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau) && trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt;
  //@ assert d2_tg: trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg && ty_valid(tg) && ty_valid(sa);
  //@ assert d2_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a];
  //@ assert d2_len: lp == ctx_len_[d] && ctx_len_[d1] == lp + 1 && ctx_len_[d2] == lx + 1;
  //@ ghost Body: ;
  int r = fwd_let_body(b, p, d1, d2, lp, lx, tg, depth) /*@ ghost (g, gb, ta, tau, pa, sa, pt, tt, d, typ) */;
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
  //@ assert let_type: r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d && fwd_ty(tm_ty_[r], tm_ctx_[t], tm_ty_[t]);
  return r;
}
