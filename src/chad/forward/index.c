/* F(index a i)    = let (x,dx) = F a; (j,_) = F i in (x[j], \v. (dx v)[j])
 * (../shared/chad-rules.md, section 4, forward mode)
 *   fwd_index_lin   the linear half  \v. (dx v)[j]
 *   fwd_index_body  from F i on: (x[j], linear half)
 *   fwd_index       the rule: F a, then fwd_index_body
 * Part of forward.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* The linear half of F(index a b), in d2 where level lp holds p = F a (type
 * typ = P(Arr tau) * (T G -o sa), sa = T(Arr tau) = Arr T tau) and level
 * lq holds q = F b (type tyq = Int * _):   \v. (snd p v)[fst q]
 * of type T G -o T tau, with tg = T G and tt = T tau. Against the
 * kernel's invariant only, with raw builders (as fwd_pair_lin). */
/*@ requires kernel_inv;
    requires ctx_valid(d2) && ty_valid(tg) && ty_valid(tt) && lin(tt);
    requires ty_valid(sa) && ty_kind_[sa] == TY_ARR && ty_left_[sa] == tt;
    requires 0 <= lp < ctx_len_[d2] && lvl_ty(d2, lp) == typ && ty_valid(typ) &&
      ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, tg, sa);
    requires 0 <= lq < ctx_len_[d2] && lvl_ty(d2, lq) == tyq && ty_valid(tyq) &&
      ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == TY_ID_INT;
    terminates \true;
    assigns CH_TM_LOCS, CH_TMS_LOCS, CH_TYS_LOCS, CH_CTX_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures fidx_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d2 &&
      ty_same(tm_ty_[\result], TY_LFUN, tg, tt);
    ensures fidx_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures fidx_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 8;
    ensures fidx_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures fidx_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures fidx_lin_lvl: \forall integer l; 0 <= l < ctx_len_[d2] ==> lvl_ty(d2, l) == \old(lvl_ty(d2, l));
    ensures env_keep{Pre, Post};
*/
static int fwd_index_lin(int d2, int lp, int lq, int tg) /*@ ghost (int tt, int sa, int typ, int tyq) */
{
  int lv = L(d2), d3 = k_ext(d2, tg);
  if (d3 < 0) return d3;
  //@ assert lvl_ty(d3, lv) == tg && lvl_ty(d3, lp) == lvl_ty(d2, lp) && lvl_ty(d3, lq) == lvl_ty(d2, lq);
  int vp = V(d3, lp);
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d3 && ty_same(tm_ty_[sp], TY_LFUN, tg, sa);
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int v1 = V(d3, lv);
  //@ assert v1 >= 0 ==> tm_ctx_[v1] == d3 && tm_ty_[v1] == tg;
  //@ assert v1 >= 0 || v1 == CHAD_E_CAPACITY;
  int da = b_lapp(sp, v1);
  //@ assert da >= 0 ==> tm_ctx_[da] == d3 && tm_ty_[da] == sa && 0 <= da < tm_count;
  //@ assert da >= 0 || da == CHAD_E_CAPACITY;
  int vq = V(d3, lq);
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int jq = b_fst(vq);
  //@ assert jq >= 0 ==> tm_ctx_[jq] == d3 && tm_ty_[jq] == TY_ID_INT && 0 <= jq < tm_count;
  //@ assert jq >= 0 || jq == CHAD_E_CAPACITY;
  //@ assert da >= 0 ==> tm_ctx_[da] == d3 && tm_ty_[da] == sa && 0 <= da < tm_count;
  //@ assert da >= 0 && jq >= 0 ==> index_ok(tm_ctx_[da], tm_ty_[da], tm_ctx_[jq], tm_ty_[jq]);
  int di = b_index(da, jq);
  //@ assert di >= 0 ==> tm_ctx_[di] == d3 && tm_ty_[di] == tt && 0 <= di < tm_count;
  //@ assert di >= 0 || di == CHAD_E_CAPACITY;
  //@ assert di >= 0 ==> ty_valid(tg) && 0 <= di < tm_count && llam_ok(tg, tm_ctx_[di], tm_ty_[di]);
  //@ assert ctx_parent_[d3] == d2;
  int r = b_llam(tg, di);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d2;
  //@ assert r >= 0 ==> ty_same(tm_ty_[r], TY_LFUN, tg, tt);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The second half of F(index a b), from the call F b on: in d1 = d, p (p =
 * F a at level lp),
 *   let q = F b in let p in let q in (fst p [fst q], \v. (snd p v)[fst q])
 * One recursive call per function, as fwd_pair_body. */
/*@ requires kernel_inv && memo_inv && src_inv;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[b] == g && tm_ty_[b] == TY_ID_INT;
    requires env_ok(CHAD_PFWD, g, d1);
    requires trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg && ty_valid(tg);
    requires ty_valid(pa) && ty_kind_[pa] == TY_ARR && ty_left_[pa] == pt;
    requires ty_valid(sa) && ty_kind_[sa] == TY_ARR && ty_left_[sa] == tt && lin(tt);
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
    ensures ibody_size: tm_count - \old(tm_count) <= FWD_K * chad_msz_[b] + 16;
    ensures ibody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures ibody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, tg, tt);
*/
static int fwd_index_body(int b, int p, int d1, int lp, int tg, int depth)
  /*@ ghost (int g, int pa, int sa, int pt, int tt, int d, int typ) */
{
  int q = f_sub(b, d1, depth + 1);
  //@ assert ib_keep: env_keep{Pre, Here};
  //@ assert ib_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[b];
  if (q < 0) return q;
  //@ assert ib_b: tm_ctx_[b] == g && tm_ty_[b] == TY_ID_INT;
  //@ assert ib_fwd: tm_ctx_[q] == d1 && fwd_ty(tm_ty_[q], g, TY_ID_INT) && 0 <= q < tm_count;
  /* P Int = Int, from one step of memo_inv at Int (F b memoised it) */
  //@ assert ib_int: trh(CHAD_PFWD, TY_ID_INT) && ty_inv && ty_kind_[TY_ID_INT] == TY_INT;
  //@ ghost tr_step(CHAD_PFWD, TY_ID_INT);
  //@ assert ib_memo: trc(CHAD_TAN, g) == tg && trm(CHAD_PFWD, TY_ID_INT) == TY_ID_INT;
  //@ ghost int tyq = tm_ty_[q];
  //@ assert ib_qty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == TY_ID_INT;
  /* p's facts after the call, in small steps */
  //@ assert ib_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert ib_pk: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa;
  //@ assert ib_pr: ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  //@ assert ib_sa: ty_valid(sa) && ty_kind_[sa] == TY_ARR && ty_left_[sa] == tt && lin(tt);
  //@ assert ib_pa: ty_valid(pa) && ty_kind_[pa] == TY_ARR && ty_left_[pa] == pt && ty_valid(tg);
  //@ assert ib_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d) && ctx_len_[d1] == lp + 1;
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
  //@ assert ql_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == TY_ID_INT;
  //@ assert sa_ok: ty_valid(sa) && ty_kind_[sa] == TY_ARR && ty_left_[sa] == tt && lin(tt) && ty_valid(tt);
  //@ ghost Built: ;
  int lin = fwd_index_lin(d2, lp, lq, tg) /*@ ghost (tt, sa, typ, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d2 && ty_same(tm_ty_[lin], TY_LFUN, tg, tt) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_env: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 8;
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
  //@ assert tail_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == TY_ID_INT;
  //@ assert tail_pa: ty_valid(pa) && ty_kind_[pa] == TY_ARR && ty_left_[pa] == pt;
  //@ ghost Lin: ;
  int r = let_index_tail(p, q, d2, lp, lq, lin) /*@ ghost (d, d1, pt, pa, tg, tt) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ assert r >= 0 ==> ty_valid(tm_ty_[r]) && ty_kind_[tm_ty_[r]] == TY_PROD && ty_left_[tm_ty_[r]] == pt && ty_same(ty_right_[tm_ty_[r]], TY_LFUN, tg, tt);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b] + 16;
  //@ assert tables_grow{Lin, Here} && side_same{Lin, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* F(index a b) = let p = F a; q = F b in (fst p [fst q], \v. (snd p v)[fst q]) */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_INDEX; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases FWD_M(depth) - 2;
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_index(int t, int d, int tg, int depth)
{
  //@ assert node_ok(t) && msz_ok(t) && msrc_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t);
  //@ ghost int ta0 = tm_ty_[a];
  //@ assert tm_ctx_[a] == g && tm_ctx_[b] == g && arr_ok(ta0) && tm_ty_[b] == TY_ID_INT && tau == ty_left_[ta0];
  //@ assert 0 <= a < t && 0 <= b < t && chad_msrc_[a] == 1 && chad_msrc_[b] == 1;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b]);
  /* the size budget: F a, F b and at most 16 nodes of this rule (or the
   * whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert idx_budget: FWD_K * chad_msz_[a] + FWD_K * chad_msz_[b] + 16 <= FWD_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= FWD_K * chad_msz_[t]; */
  //@ assert ty_node_ok(ta0) && 0 <= tau < ta0;
  //@ assert trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau);
  //@ ghost int pt = chad_memo_ty_[CHAD_PFWD][tau] - 1;
  //@ ghost int tt = chad_memo_ty_[CHAD_TAN][tau] - 1;
  int p = f_sub(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  /* F a's type from its contract in three steps: a's entries are older
   * than the call, so kept (as one goal the provers ran out of memory
   * with the loop's larger kernel invariant) */
  //@ assert pa_a: tm_ctx_[a] == g && tm_ty_[a] == ta0;
  //@ assert pa_f0: 0 <= p < tm_count && tm_ctx_[p] == d && fwd_ty(tm_ty_[p], tm_ctx_[a], tm_ty_[a]);
  //@ assert pa_fwd: tm_ctx_[p] == d && fwd_ty(tm_ty_[p], g, ta0) && 0 <= p < tm_count;
  //@ ghost tan_lin_lemma();
  //@ assert idx_lin: lin(tt);
  /* P(Arr tau) = Arr P tau, T(Arr tau) = Arr T tau: F a memoised Arr tau */
  //@ assert pa_tau: trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt && lin(tt);
  //@ ghost tr_step(CHAD_PFWD, ta0);
  //@ ghost tr_step(CHAD_TAN, ta0);
  //@ ghost int pa = chad_memo_ty_[CHAD_PFWD][ta0] - 1;
  //@ ghost int sa = chad_memo_ty_[CHAD_TAN][ta0] - 1;
  //@ assert idx_pa: ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1);
  //@ assert idx_sa: ty_valid(sa) && ty_same(sa, TY_ARR, tt, -1);
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a];
  //@ assert pa_memo: trm(CHAD_PFWD, ta0) == pa && trm(CHAD_TAN, ta0) == sa && trc(CHAD_TAN, g) == tg;
  //@ assert pa_memo3: trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau) && trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt;
  //@ ghost int typ = tm_ty_[p];
  //@ assert pa_ty: ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  //@ assert pa_valid: ty_valid(typ) && ty_valid(ty_right_[typ]);
  //@ assert pa_sa: ty_valid(sa) && ty_kind_[sa] == TY_ARR && ty_left_[sa] == tt && lin(tt);
  //@ assert pa_pa: ty_valid(pa) && ty_kind_[pa] == TY_ARR && ty_left_[pa] == pt && ty_valid(tg);
  int lp = L(d), d1 = f_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_env: env_ok(CHAD_PFWD, g, d1) && ctx_len_[d1] == lp + 1 && ctx_type_[d1] == typ;
  //@ assert pa_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d);
  //@ assert d1_b: tm_ctx_[b] == g && tm_ty_[b] == TY_ID_INT && trch(CHAD_TAN, g) && ty_valid(tg);
  //@ assert d1_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert b_memo: trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau) && trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt;
  //@ ghost Body: ;
  int r = fwd_index_body(b, p, d1, lp, tg, depth) /*@ ghost (g, pa, sa, pt, tt, d, typ) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= FWD_K * chad_msz_[b] + 16;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert r >= 0 || r == CHAD_E_CAPACITY || r == CHAD_E_DEPTH;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, tg, tt);
  //@ assert r >= 0 ==> ty_node_ok(tyr) && 0 <= ty_right_[tyr] < tyr;
  /* the translations after the call, in three steps (as one goal Z3 took 11 s) */
  //@ assert r_memo1: trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt;
  //@ assert r_memo2: trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt;
  //@ assert r_memo3: trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg;
  //@ assert r >= 0 ==> fwd_ty(tm_ty_[r], g, tau);
  //@ assert tm_ctx_[t] == g && tm_ty_[t] == tau;
  //@ assert idx_type: r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d && fwd_ty(tm_ty_[r], tm_ctx_[t], tm_ty_[t]);
  return r;
}
