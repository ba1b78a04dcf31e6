/* F(lam (x.t))    = let f = \x. F_{G,x} t in
 *                   ( \x. let (y,dy) = f x in (y, \u. dy (0, u)),
 *                     \v. \x. (snd (f x)) (v, 0) )
 * (../shared/chad-rules.md, section 4, forward mode)
 *   fwd_lam_inner  \u. dy (0, u), the primal function's tangent map
 *   fwd_lam_pbody  let (y,dy) = f x in (y, \u. dy (0, u)), the primal function's body
 *   fwd_lam_prim   the primal  \x. ...  of F(lam)
 *   fwd_lam_dv     snd (f x) (v, 0), the tangent at one point x
 *   fwd_lam_tan    the linear half  \v. \x. snd (f x) (v, 0)
 *   fwd_lam        the rule: f = \x. F_{G,x} t, then the primal and the linear half
 * Part of forward.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* \u. snd r (0, u), the tangent map of F(lam)'s primal function, in e2
 * where level lr holds r = f x : tyq = P tau * (tga -o tt), tga = T(G, x)
 * = tg * tsg: of type tsg -o tt, which is rr (the linear part of
 * P(sigma -> tau) = P sigma -> P tau * (T sigma -o T tau)) by
 * hash-consing. Against the kernel's invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(e2) && 0 <= lr < ctx_len_[e2] && lvl_ty(e2, lr) == tyq;
    requires ty_valid(tsg) && lin(tg) && lin(tt);
    requires ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, tga, tt);
    requires ty_valid(tga) && ty_same(tga, TY_PROD, tg, tsg);
    requires ty_valid(rr) && ty_same(rr, TY_LFUN, tsg, tt);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures flam_inner_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == e2 &&
      tm_ty_[\result] == rr;
    ensures flam_inner_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures flam_inner_size: \old(tm_count) <= tm_count <= \old(tm_count) + 7;
    ensures flam_inner_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures flam_inner_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures flam_inner_lvl: \forall integer l; 0 <= l < ctx_len_[e2] ==> lvl_ty(e2, l) == \old(lvl_ty(e2, l));
    ensures env_keep{Pre, Post};
*/
static int fwd_lam_inner(int e2, int lr, int tsg, int tg)
  /*@ ghost (int tyq, int tga, int tt, int rr) */
{
  //@ ghost int qr = ty_right_[tyq];
  //@ assert q_node: ty_inv && ty_node_ok(tyq) && 0 <= qr < tyq && ty_same(qr, TY_LFUN, tga, tt);
  int lu = L(e2), e3 = k_ext(e2, tsg);
  if (e3 < 0) return e3;
  //@ assert e3_ctx: ctx_valid(e3) && ctx_is_ext(e3, e2, tsg) && ctx_len_[e3] == lu + 1 && lu == ctx_len_[e2];
  //@ assert e3_lvl: lvl_ty(e3, lu) == tsg && lvl_ty(e3, lr) == tyq;
  //@ assert e3_keep: \forall integer l; 0 <= l < ctx_len_[e2] ==> lvl_ty(e2, l) == \at(lvl_ty(e2, l), Pre);
  int vr = V(e3, lr);
  //@ assert vr >= 0 ==> 0 <= vr < tm_count && tm_ctx_[vr] == e3 && tm_ty_[vr] == tyq;
  //@ assert vr >= 0 || vr == CHAD_E_CAPACITY;
  int sr = b_snd(vr);
  //@ assert sr >= 0 ==> 0 <= sr < tm_count && tm_ctx_[sr] == e3 && tm_ty_[sr] == qr;
  //@ assert sr >= 0 || sr == CHAD_E_CAPACITY;
  //@ assert sr >= 0 ==> ty_same(tm_ty_[sr], TY_LFUN, tga, tt);
  //@ assert ctx_valid(e3) && lin(tg);
  int z = b_zero(e3, tg);
  //@ assert z >= 0 ==> 0 <= z < tm_count && tm_ctx_[z] == e3 && tm_ty_[z] == tg;
  //@ assert z >= 0 || z == CHAD_E_CAPACITY;
  int vu = V(e3, lu);
  //@ assert vu >= 0 ==> 0 <= vu < tm_count && tm_ctx_[vu] == e3 && tm_ty_[vu] == tsg;
  //@ assert vu >= 0 || vu == CHAD_E_CAPACITY;
  //@ assert z >= 0 ==> 0 <= z < tm_count && tm_ctx_[z] == e3 && tm_ty_[z] == tg;
  int zu = b_pair(z, vu);
  //@ assert zu >= 0 ==> 0 <= zu < tm_count && tm_ctx_[zu] == e3 && ty_valid(tm_ty_[zu]) && ty_same(tm_ty_[zu], TY_PROD, tg, tsg);
  //@ assert zu >= 0 || zu == CHAD_E_CAPACITY;
  /* hash-consing: (0, u) has the type T(G, x) itself */
  //@ assert tga_same: ty_inv && ty_valid(tga) && ty_same(tga, TY_PROD, tg, tsg);
  //@ assert zu_tga: zu >= 0 ==> tm_ty_[zu] == tga;
  //@ assert sr >= 0 ==> 0 <= sr < tm_count && tm_ctx_[sr] == e3 && ty_same(tm_ty_[sr], TY_LFUN, tga, tt);
  int du = b_lapp(sr, zu);
  //@ assert du >= 0 ==> 0 <= du < tm_count && tm_ctx_[du] == e3 && tm_ty_[du] == tt;
  //@ assert du >= 0 || du == CHAD_E_CAPACITY;
  //@ assert du >= 0 ==> ty_valid(tsg) && llam_ok(tsg, tm_ctx_[du], tm_ty_[du]);
  //@ assert e3_par: ctx_parent_[e3] == e2;
  int r = b_llam(tsg, du);
  //@ assert r_ctx: r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == e2;
  //@ assert r_ty0: r >= 0 ==> ty_valid(tm_ty_[r]) && ty_same(tm_ty_[r], TY_LFUN, tsg, tt);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  /* hash-consing: tsg -o tt is the linear part of P(sigma -> tau) */
  //@ assert rr_same: ty_inv && ty_valid(rr) && ty_same(rr, TY_LFUN, tsg, tt);
  //@ assert r_rr: r >= 0 ==> tm_ty_[r] == rr;
  //@ assert tm_count <= \at(tm_count, Pre) + 7;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert r_keep: \forall integer l; 0 <= l < ctx_len_[e2] ==> lvl_ty(e2, l) == \at(lvl_ty(e2, l), Pre);
  return r;
}

/* The body of F(lam)'s primal function, in e1 = d1, x (level lf holds f :
 * tyf = psg -> tyq, level lx holds x : psg):
 *   let r = f x in (fst r, \u. snd r (0, u))
 * of type rp = pt * rr, P(sigma -> tau)'s codomain. Against the kernel's
 * invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(e1) && 0 <= lf < ctx_len_[e1] && lvl_ty(e1, lf) == tyf;
    requires 0 <= lx < ctx_len_[e1] && lvl_ty(e1, lx) == psg;
    requires ty_valid(tsg) && lin(tg) && lin(tt);
    requires ty_valid(tyf) && ty_same(tyf, TY_FUN, psg, tyq);
    requires ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt &&
      ty_same(ty_right_[tyq], TY_LFUN, tga, tt);
    requires ty_valid(tga) && ty_same(tga, TY_PROD, tg, tsg);
    requires ty_valid(rr) && ty_same(rr, TY_LFUN, tsg, tt);
    requires ty_valid(rp) && ty_same(rp, TY_PROD, pt, rr);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures flam_pbody_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == e1 &&
      tm_ty_[\result] == rp;
    ensures flam_pbody_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures flam_pbody_size: \old(tm_count) <= tm_count <= \old(tm_count) + 14;
    ensures flam_pbody_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures flam_pbody_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures flam_pbody_lvl: \forall integer l; 0 <= l < ctx_len_[e1] ==> lvl_ty(e1, l) == \old(lvl_ty(e1, l));
    ensures env_keep{Pre, Post};
*/
static int fwd_lam_pbody(int e1, int lf, int lx, int tsg, int tg)
  /*@ ghost (int tyf, int psg, int tyq, int pt, int tga, int tt, int rr, int rp) */
{
  int r = lam_apply(e1, lf, lx) /*@ ghost (tyf, psg, tyq) */;
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == e1 && tm_ty_[r] == tyq;
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert r_grow: tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert r_keep: \forall integer l; 0 <= l < ctx_len_[e1] ==> lvl_ty(e1, l) == \at(lvl_ty(e1, l), Pre);
  //@ assert r_keepe: env_keep{Pre, Here};
  if (r < 0) return r;
  //@ assert r_ctx: ctx_valid(e1);
  int lr = L(e1), e2 = k_ext(e1, tyof(r));
  if (e2 < 0) return e2;
  //@ assert e2_ctx: ctx_valid(e2) && ctx_is_ext(e2, e1, tyq) && ctx_len_[e2] == lr + 1 && lr == ctx_len_[e1];
  //@ assert e2_lvl: lvl_ty(e2, lr) == tyq;
  //@ assert e2_keep: \forall integer l; 0 <= l < ctx_len_[e1] ==> lvl_ty(e1, l) == \at(lvl_ty(e1, l), Pre);
  //@ assert e2_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, tga, tt);
  //@ assert e2_tga: ty_valid(tga) && ty_same(tga, TY_PROD, tg, tsg) && lin(tg) && lin(tt) && ty_valid(tsg);
  //@ assert e2_rr: ty_valid(rr) && ty_same(rr, TY_LFUN, tsg, tt);
  //@ ghost E2: ;
  int inner = fwd_lam_inner(e2, lr, tsg, tg) /*@ ghost (tyq, tga, tt, rr) */;
  //@ assert inner >= 0 ==> 0 <= inner < tm_count && tm_ctx_[inner] == e2 && tm_ty_[inner] == rr;
  //@ assert inner >= 0 || inner == CHAD_E_CAPACITY;
  //@ assert i_size: tm_count <= \at(tm_count, Pre) + 10;
  //@ assert i_grow: tables_grow{E2, Here} && side_same{E2, Here};
  //@ assert i_keep: \forall integer l; 0 <= l < ctx_len_[e1] ==> lvl_ty(e1, l) == \at(lvl_ty(e1, l), Pre);
  //@ assert i_keepe: env_keep{Pre, Here};
  if (inner < 0) return inner;
  //@ assert i_lvl: lvl_ty(e2, lr) == tyq && ctx_valid(e2) && ctx_is_ext(e2, e1, tyq) && 0 <= lr < ctx_len_[e2];
  //@ assert i_r: 0 <= r < tm_count && tm_ctx_[r] == e1 && tm_ty_[r] == tyq;
  //@ assert i_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_valid(rp) && ty_same(rp, TY_PROD, pt, rr);
  //@ ghost I1: ;
  int lb = lam_pair_let(r, e2, lr, inner) /*@ ghost (e1, tyq, pt, rr, rp) */;
  //@ assert lb >= 0 ==> 0 <= lb < tm_count && tm_ctx_[lb] == e1 && tm_ty_[lb] == rp;
  //@ assert lb >= 0 || lb == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 14;
  //@ assert lb_grow: tables_grow{I1, Here} && side_same{I1, Here};
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert lb_keep: \forall integer l; 0 <= l < ctx_len_[e1] ==> lvl_ty(e1, l) == \at(lvl_ty(e1, l), Pre);
  //@ assert lb_keepe: env_keep{Pre, Here};
  return lb;
}

/* The primal of F(lam), in d1 = d, f (level lf holds f = \x. F_{G,x} a :
 * tyf = P sigma -> tyq):
 *   \x. let r = f x in (fst r, \u. snd r (0, u))
 * of type P(sigma -> tau) = pf = psg -> R, R = pt * rr, by hash-consing.
 * Against the kernel's invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(d1) && 0 <= lf < ctx_len_[d1] && lvl_ty(d1, lf) == tyf;
    requires ty_valid(psg) && ty_valid(tsg) && lin(tg) && lin(tt);
    requires ty_valid(tyf) && ty_same(tyf, TY_FUN, psg, tyq);
    requires ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt &&
      ty_same(ty_right_[tyq], TY_LFUN, tga, tt);
    requires ty_valid(tga) && ty_same(tga, TY_PROD, tg, tsg);
    requires ty_valid(pf) && ty_same(pf, TY_FUN, psg, rp) && ty_valid(rp) &&
      ty_same(rp, TY_PROD, pt, rr) && ty_valid(rr) && ty_same(rr, TY_LFUN, tsg, tt);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures flam_prim_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d1 &&
      tm_ty_[\result] == pf;
    ensures flam_prim_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures flam_prim_size: \old(tm_count) <= tm_count <= \old(tm_count) + 15;
    ensures flam_prim_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures flam_prim_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures flam_prim_lvl: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \old(lvl_ty(d1, l));
    ensures env_keep{Pre, Post};
*/
static int fwd_lam_prim(int d1, int lf, int psg, int tsg, int tg)
  /*@ ghost (int tyf, int tyq, int pt, int tga, int tt, int pf, int rp, int rr) */
{
  int lx = L(d1), e1 = k_ext(d1, psg);
  if (e1 < 0) return e1;
  //@ assert e1_ctx: ctx_valid(e1) && ctx_is_ext(e1, d1, psg) && ctx_len_[e1] == lx + 1 && lx == ctx_len_[d1];
  //@ assert e1_lvl: lvl_ty(e1, lx) == psg && lvl_ty(e1, lf) == tyf;
  //@ assert e1_keep: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  int lb = fwd_lam_pbody(e1, lf, lx, tsg, tg) /*@ ghost (tyf, psg, tyq, pt, tga, tt, rr, rp) */;
  //@ assert lb >= 0 ==> 0 <= lb < tm_count && tm_ctx_[lb] == e1 && tm_ty_[lb] == rp;
  //@ assert lb >= 0 || lb == CHAD_E_CAPACITY;
  //@ assert b_size: tm_count <= \at(tm_count, Pre) + 14;
  //@ assert b_grow: tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert b_keep: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  //@ assert b_keepe: env_keep{Pre, Here};
  //@ assert e1_par: ctx_parent_[e1] == d1 && ctx_type_[e1] == psg && 0 < e1 < ctx_count && ty_valid(psg);
  /* b_lam's side condition, stated before the call (inside the call's goal
   * it took the solvers 9 s) */
  //@ assert lb_ok: lb >= 0 ==> 0 <= lb < tm_count && lam_ok(psg, tm_ctx_[lb]);
  int prim = b_lam(psg, lb);
  //@ assert p_ctx: prim >= 0 ==> 0 <= prim < tm_count && tm_ctx_[prim] == d1;
  //@ assert p_ty0: prim >= 0 ==> ty_valid(tm_ty_[prim]) && ty_same(tm_ty_[prim], TY_FUN, psg, rp);
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  /* hash-consing: the function's type is P(sigma -> tau) itself */
  //@ assert pf_same: ty_inv && ty_valid(pf) && ty_same(pf, TY_FUN, psg, rp);
  //@ assert p_pf: prim >= 0 ==> tm_ty_[prim] == pf;
  //@ assert tm_count <= \at(tm_count, Pre) + 15;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert p_keep: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  //@ assert p_keepe: env_keep{Pre, Here};
  return prim;
}

/* snd (f x) (v, 0), F(lam)'s tangent at one point x, in g2 where level lf
 * holds f : tyf = psg -> tyq (tyq = P tau * (tga -o tt), tga = tg * tsg),
 * level lx holds x : psg and level lv holds v : tg. Against the kernel's
 * invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(g2) && lin(tsg);
    requires 0 <= lf < ctx_len_[g2] && lvl_ty(g2, lf) == tyf;
    requires 0 <= lx < ctx_len_[g2] && lvl_ty(g2, lx) == psg;
    requires 0 <= lv < ctx_len_[g2] && lvl_ty(g2, lv) == tg;
    requires ty_valid(tyf) && ty_same(tyf, TY_FUN, psg, tyq);
    requires ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, tga, tt);
    requires ty_valid(tga) && ty_same(tga, TY_PROD, tg, tsg);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS;
    ensures kernel_inv;
    ensures flam_dv_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == g2 &&
      tm_ty_[\result] == tt;
    ensures flam_dv_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures flam_dv_size: \old(tm_count) <= tm_count <= \old(tm_count) + 8;
    ensures flam_dv_frame: \old(ty_count) <= ty_count;
    ensures flam_dv_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
*/
static int fwd_lam_dv(int g2, int lf, int lx, int lv, int tsg)
  /*@ ghost (int tyf, int psg, int tyq, int tga, int tg, int tt) */
{
  //@ ghost int qr = ty_right_[tyq];
  //@ assert q_node: ty_inv && ty_node_ok(tyq) && 0 <= qr < tyq && ty_same(qr, TY_LFUN, tga, tt);
  int wf = V(g2, lf);
  //@ assert wf >= 0 ==> 0 <= wf < tm_count && tm_ctx_[wf] == g2 && tm_ty_[wf] == tyf;
  //@ assert wf >= 0 || wf == CHAD_E_CAPACITY;
  int wx = V(g2, lx);
  //@ assert wx >= 0 ==> 0 <= wx < tm_count && tm_ctx_[wx] == g2 && tm_ty_[wx] == psg;
  //@ assert wx >= 0 || wx == CHAD_E_CAPACITY;
  //@ assert ty_valid(tyf) && ty_kind_[tyf] == TY_FUN && ty_left_[tyf] == psg && ty_right_[tyf] == tyq;
  int fx = b_app(wf, wx);
  //@ assert fx >= 0 ==> 0 <= fx < tm_count && tm_ctx_[fx] == g2 && tm_ty_[fx] == tyq;
  //@ assert fx >= 0 || fx == CHAD_E_CAPACITY;
  int sf = b_snd(fx);
  //@ assert sf >= 0 ==> 0 <= sf < tm_count && tm_ctx_[sf] == g2 && tm_ty_[sf] == qr;
  //@ assert sf >= 0 || sf == CHAD_E_CAPACITY;
  //@ assert sf >= 0 ==> ty_same(tm_ty_[sf], TY_LFUN, tga, tt);
  int wv = V(g2, lv);
  //@ assert wv >= 0 ==> 0 <= wv < tm_count && tm_ctx_[wv] == g2 && tm_ty_[wv] == tg;
  //@ assert wv >= 0 || wv == CHAD_E_CAPACITY;
  //@ assert ctx_valid(g2) && lin(tsg);
  int z = b_zero(g2, tsg);
  //@ assert z >= 0 ==> 0 <= z < tm_count && tm_ctx_[z] == g2 && tm_ty_[z] == tsg;
  //@ assert z >= 0 || z == CHAD_E_CAPACITY;
  //@ assert wv >= 0 ==> 0 <= wv < tm_count && tm_ctx_[wv] == g2 && tm_ty_[wv] == tg;
  int vz = b_pair(wv, z);
  //@ assert vz >= 0 ==> 0 <= vz < tm_count && tm_ctx_[vz] == g2 && ty_valid(tm_ty_[vz]) && ty_same(tm_ty_[vz], TY_PROD, tg, tsg);
  //@ assert vz >= 0 || vz == CHAD_E_CAPACITY;
  /* hash-consing: (v, 0) has the type T(G, x) itself */
  //@ assert tga_same: ty_inv && ty_valid(tga) && ty_same(tga, TY_PROD, tg, tsg);
  //@ assert vz_tga: vz >= 0 ==> tm_ty_[vz] == tga;
  //@ assert sf >= 0 ==> 0 <= sf < tm_count && tm_ctx_[sf] == g2 && ty_same(tm_ty_[sf], TY_LFUN, tga, tt);
  int r = b_lapp(sf, vz);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == g2 && tm_ty_[r] == tt;
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 8;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The linear half of F(lam), in d1 = d, f (level lf holds f : tyf):
 *   \v. \x. snd (f x) (v, 0)
 * of type tg -o stf, stf = T(sigma -> tau) = P sigma -> T tau (by
 * hash-consing). Against the kernel's invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(d1) && 0 <= lf < ctx_len_[d1] && lvl_ty(d1, lf) == tyf;
    requires ty_valid(psg) && ty_valid(tg) && lin(tsg);
    requires lin(stf) && ty_same(stf, TY_FUN, psg, tt);
    requires ty_valid(tyf) && ty_same(tyf, TY_FUN, psg, tyq);
    requires ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, tga, tt);
    requires ty_valid(tga) && ty_same(tga, TY_PROD, tg, tsg);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures flam_tan_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d1 &&
      ty_valid(tm_ty_[\result]) && ty_same(tm_ty_[\result], TY_LFUN, tg, stf);
    ensures flam_tan_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures flam_tan_size: \old(tm_count) <= tm_count <= \old(tm_count) + 10;
    ensures flam_tan_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures flam_tan_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures flam_tan_lvl: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \old(lvl_ty(d1, l));
    ensures env_keep{Pre, Post};
*/
static int fwd_lam_tan(int d1, int lf, int psg, int tsg, int tg)
  /*@ ghost (int tyf, int tyq, int tga, int tt, int stf) */
{
  int lv = L(d1), g1 = k_ext(d1, tg);
  if (g1 < 0) return g1;
  //@ assert g1_ctx: ctx_valid(g1) && ctx_is_ext(g1, d1, tg) && ctx_len_[g1] == lv + 1 && lv == ctx_len_[d1];
  //@ assert g1_lvl: lvl_ty(g1, lv) == tg && lvl_ty(g1, lf) == tyf;
  //@ assert g1_keep: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  int lx = L(g1), g2 = k_ext(g1, psg);
  //@ assert g2_keep0: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  if (g2 < 0) return g2;
  //@ assert g2_ctx: ctx_valid(g2) && ctx_is_ext(g2, g1, psg) && ctx_len_[g2] == lx + 1 && lx == ctx_len_[g1];
  //@ assert g2_lvl: lvl_ty(g2, lx) == psg && lvl_ty(g2, lv) == tg && lvl_ty(g2, lf) == tyf;
  //@ assert g2_keep: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  //@ ghost Exts: ;
  int dv = fwd_lam_dv(g2, lf, lx, lv, tsg) /*@ ghost (tyf, psg, tyq, tga, tg, tt) */;
  //@ assert dv >= 0 ==> 0 <= dv < tm_count && tm_ctx_[dv] == g2 && tm_ty_[dv] == tt;
  //@ assert dv >= 0 || dv == CHAD_E_CAPACITY;
  //@ assert dv_ctx: ctx_count == \at(ctx_count, Exts);
  //@ assert g2_par: ctx_parent_[g2] == g1 && ctx_type_[g2] == psg && 0 < g2 < ctx_count && ty_valid(psg);
  int fl = b_lam(psg, dv);
  //@ assert fl_ctx: fl >= 0 ==> 0 <= fl < tm_count && tm_ctx_[fl] == g1;
  //@ assert fl_ty0: fl >= 0 ==> ty_valid(tm_ty_[fl]) && ty_same(tm_ty_[fl], TY_FUN, psg, tt);
  //@ assert fl >= 0 || fl == CHAD_E_CAPACITY;
  /* hash-consing: the function's type is T(sigma -> tau) itself */
  //@ assert stf_same: ty_inv && ty_valid(stf) && ty_same(stf, TY_FUN, psg, tt);
  //@ assert fl_stf: fl >= 0 ==> tm_ty_[fl] == stf;
  //@ assert fl >= 0 ==> ty_valid(tg) && llam_ok(tg, tm_ctx_[fl], tm_ty_[fl]);
  //@ assert g1_par: ctx_parent_[g1] == d1;
  int r = b_llam(tg, fl);
  //@ assert r_ctx: r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d1;
  //@ assert r_ty: r >= 0 ==> ty_valid(tm_ty_[r]) && ty_same(tm_ty_[r], TY_LFUN, tg, stf);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 10;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert r_cnt: ctx_count == \at(ctx_count, Exts) && ctx_len_[d1] == \at(ctx_len_[d1], Exts);
  //@ assert r_keep: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  return r;
}

/* F(lam (x. a)), of type sigma -> tau, a : tau in ga = G, x : sigma:
 *   let f = \x. F_{G,x} a in
 *   ( \x. let r = f x in (fst r, \u. snd r (0, u)),
 *     \v. \x. snd (f x) (v, 0) )
 * F a under the binder (the one recursive call) and f here; the primal
 * fwd_lam_prim, the linear half fwd_lam_tan and the tail let_unary_tail
 * (let f in (prim, tan), shared with the one-child rules). P sigma and
 * T sigma are read from the memo table (memoised with sigma -> tau). */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_LAM; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases FWD_M(depth) - 2;
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_lam(int t, int d, int tg, int depth)
{
  //@ assert node_ok(t) && msz_ok(t) && msrc_ok(t);
  //@ ghost int g = tm_ctx_[t];
  int a = tm_a(t), ty = tm_type(t);
  //@ ghost int ga = tm_ctx_[a];
  //@ ghost int tau = tm_ty_[a];
  int sg = ty_left(ty);
  //@ assert lam_src: 0 < ga < ctx_count && ctx_type_[ga] == sg && ctx_parent_[ga] == g;
  //@ assert lam_ty: ty_valid(ty) && ty_kind_[ty] == TY_FUN && ty_right_[ty] == tau && ty_node_ok(ty);
  //@ assert 0 <= a < t && chad_msrc_[a] == 1;
  //@ assert lam_sz: chad_msz_[t] == sat(1 + chad_msz_[a]);
  /* the size budget: F a and at most 28 nodes of this rule (or the whole
   * arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert lam_budget: FWD_K * chad_msz_[a] + 28 <= FWD_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= FWD_K * chad_msz_[t]; */
  //@ ghost tr_step(CHAD_PFWD, ty);
  //@ ghost tr_step(CHAD_TAN, ty);
  //@ ghost int pf = chad_memo_ty_[CHAD_PFWD][ty] - 1;
  //@ ghost int stf = chad_memo_ty_[CHAD_TAN][ty] - 1;
  //@ assert lam_memo: trh(CHAD_PFWD, sg) && trh(CHAD_PFWD, tau) && trh(CHAD_TAN, sg) && trh(CHAD_TAN, tau);
  int psg = memo_ty_get(CHAD_PFWD, sg);
  int tsg = memo_ty_get(CHAD_TAN, sg);
  //@ ghost int pt = chad_memo_ty_[CHAD_PFWD][tau] - 1;
  //@ ghost int tt = chad_memo_ty_[CHAD_TAN][tau] - 1;
  //@ assert lam_psg: psg == trm(CHAD_PFWD, sg) && tsg == trm(CHAD_TAN, sg) && ty_valid(psg) && ty_valid(tsg);
  //@ ghost tan_lin_lemma();
  //@ ghost tan_lin_ctx_lemma();
  //@ assert lam_lin: lin(tt) && lin(tsg) && lin(tg) && lin(stf);
  //@ assert lam_stf: ty_same(stf, TY_FUN, psg, tt);
  /*@ assert lam_pf: ty_valid(pf) && ty_kind_[pf] == TY_FUN && ty_left_[pf] == psg &&
        0 <= ty_right_[pf] < pf && ty_kind_[ty_right_[pf]] == TY_PROD &&
        ty_left_[ty_right_[pf]] == pt && 0 <= ty_right_[ty_right_[pf]] < ty_right_[pf] &&
        ty_same(ty_right_[ty_right_[pf]], TY_LFUN, tsg, tt); */
  //@ ghost int rp = ty_right_[pf];
  //@ ghost int rr = ty_right_[rp];
  //@ assert lam_pf2: ty_same(pf, TY_FUN, psg, rp) && ty_valid(rp) && ty_same(rp, TY_PROD, pt, rr) && ty_valid(rr) && ty_same(rr, TY_LFUN, tsg, tt);
  int lx = L(d), dx = f_ext(d, psg);
  //@ assert dx >= 0 || dx == CHAD_E_CAPACITY;
  //@ assert dx_keep: env_keep{Pre, Here};
  //@ assert dx_grows: memo_grows{Pre, Here};
  //@ assert dx_inv: kernel_inv && memo_inv && src_inv && venv_wf;
  if (dx < 0) return dx;
  //@ assert dx_ext: ctx_is_ext(dx, d, psg) && ctx_valid(dx) && ctx_len_[dx] == lx + 1 && lx == ctx_len_[d];
  //@ assert dx_lvl: lvl_ty(dx, lx) == psg && env_ok(CHAD_PFWD, g, dx);
  //@ assert x_ga: env_ok(CHAD_PFWD, ctx_parent_[ga], dx) && trh(CHAD_PFWD, ctx_type_[ga]) && trm(CHAD_PFWD, ctx_type_[ga]) == psg;
  //@ assert dx_venv: venv_wf;
  int q = fwd_under(a, dx, lx, depth + 1);
  //@ assert q_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert q_keep: env_keep{Pre, Here};
  //@ assert q_grows: memo_grows{Pre, Here};
  //@ assert q_inv: kernel_inv && memo_inv && src_inv && venv_wf;
  if (q < 0) return q;
  //@ assert q_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a];
  //@ assert q_fwd: tm_ctx_[q] == dx && fwd_ty(tm_ty_[q], ga, tau) && 0 <= q < tm_count;
  //@ ghost int tyq = tm_ty_[q];
  //@ ghost int tga = chad_memo_ctx_[CHAD_TAN][ga] - 1;
  //@ assert q_tga: trch(CHAD_TAN, ga) && trc(CHAD_TAN, ga) == tga && 0 < ga;
  //@ ghost trc_step(CHAD_TAN, ga);
  //@ assert q_memo1: trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt && trc(CHAD_TAN, g) == tg;
  //@ assert q_memo2: trh(CHAD_TAN, sg) && trm(CHAD_TAN, sg) == tsg;
  //@ assert q_tga2: ty_valid(tga) && ty_same(tga, TY_PROD, tg, tsg);
  //@ assert q_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, tga, tt);
  //@ ghost int tqr = ty_right_[tyq];
  //@ assert q_ty2: ty_same(tyq, TY_PROD, pt, tqr) && ty_valid(tqr) && ty_same(tqr, TY_LFUN, tga, tt);
  //@ assert q_dx: ctx_parent_[dx] == d && ctx_type_[dx] == psg && 0 < dx < ctx_count && ty_valid(psg);
  /* the types read from the memo at the top, restated after each call so
   * that no goal frames them through more than one */
  //@ assert q_lin: ty_valid(psg) && ty_valid(tsg) && lin(tt) && lin(tsg) && lin(tg) && lin(stf);
  //@ assert q_stf: ty_valid(stf) && ty_same(stf, TY_FUN, psg, tt);
  //@ ghost Q1: ;
  int f = b_lam(psg, q);
  //@ assert f >= 0 ==> 0 <= f < tm_count && tm_ctx_[f] == d && ty_valid(tm_ty_[f]) && ty_same(tm_ty_[f], TY_FUN, psg, tyq);
  //@ assert f >= 0 || f == CHAD_E_CAPACITY;
  //@ assert f_grow: tables_grow{Q1, Here} && side_same{Q1, Here};
  //@ assert f_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  /* the linear types framed through b_lam one at a time (as p_ty2a/b) */
  //@ assert f_lin1: 0 <= tsg < \at(ty_count, Q1) && \at(ty_lin_[tsg], Q1) == 1 && ty_lin_[tsg] == 1;
  //@ assert f_lin2: 0 <= stf < \at(ty_count, Q1) && \at(ty_lin_[stf], Q1) == 1 && ty_lin_[stf] == 1;
  //@ assert f_lin3: 0 <= tt < \at(ty_count, Q1) && \at(ty_lin_[tt], Q1) == 1 && ty_lin_[tt] == 1;
  //@ assert f_lin4: 0 <= tg < \at(ty_count, Q1) && \at(ty_lin_[tg], Q1) == 1 && ty_lin_[tg] == 1;
  //@ assert f_lin5: 0 <= psg < \at(ty_count, Q1) && \at(ty_count, Q1) <= ty_count;
  //@ assert f_lin: ty_valid(psg) && ty_valid(tsg) && lin(tt) && lin(tsg) && lin(tg) && lin(stf);
  //@ assert f_stf: ty_valid(stf) && ty_same(stf, TY_FUN, psg, tt);
  //@ assert f_keep: env_keep{Pre, Here};
  //@ assert f_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a] + 1;
  //@ assert f_grows: memo_grows{Pre, Here};
  //@ assert f_inv2: kernel_inv && src_inv;
  if (f < 0) return f;
  //@ ghost int tyf = tm_ty_[f];
  //@ assert f_env: ctx_valid(d);
  int lf = L(d), d1 = f_ext(d, tyof(f));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_keep: env_keep{Pre, Here};
  //@ assert d1_ret: d1 < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert d1_grows: memo_grows{Pre, Here};
  //@ assert d1_inv: kernel_inv && memo_inv && src_inv && venv_wf;
  if (d1 < 0) return d1;
  //@ assert d1_ext: ctx_is_ext(d1, d, tyf) && ctx_valid(d1) && ctx_len_[d1] == lf + 1 && lf == ctx_len_[d];
  //@ assert d1_lvl: lvl_ty(d1, lf) == tyf;
  //@ assert d1_f: ty_valid(tyf) && ty_same(tyf, TY_FUN, psg, tyq);
  //@ assert d1_q2: ty_valid(tyq) && ty_same(tyq, TY_PROD, pt, tqr) && ty_valid(tqr) && ty_same(tqr, TY_LFUN, tga, tt);
  //@ assert d1_q: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, tga, tt);
  //@ assert d1_tga: ty_valid(tga) && ty_same(tga, TY_PROD, tg, tsg);
  //@ assert d1_ty: ty_valid(psg) && ty_valid(tsg) && lin(tsg) && lin(tg) && lin(tt) && lin(stf) && ty_same(stf, TY_FUN, psg, tt);
  //@ assert d1_pf2: ty_valid(pf) && ty_same(pf, TY_FUN, psg, rp) && ty_valid(rp) && ty_same(rp, TY_PROD, pt, rr) && ty_valid(rr) && ty_same(rr, TY_LFUN, tsg, tt);
  //@ ghost D1: ;
  int prim = fwd_lam_prim(d1, lf, psg, tsg, tg) /*@ ghost (tyf, tyq, pt, tga, tt, pf, rp, rr) */;
  //@ assert prim >= 0 ==> 0 <= prim < tm_count && tm_ctx_[prim] == d1 && tm_ty_[prim] == pf;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert p_keep: env_keep{Pre, Here};
  //@ assert p_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a] + 16;
  //@ assert p_grow: tables_grow{D1, Here} && side_same{D1, Here};
  //@ assert p_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  //@ assert p_ret: prim < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert p_grows: memo_grows{Pre, Here};
  //@ assert p_inv2: kernel_inv && src_inv;
  if (prim < 0) return prim;
  //@ assert p_fn: 0 <= f < tm_count && tm_ctx_[f] == d && tm_ty_[f] == tyf && ctx_is_ext(d1, d, tyf);
  //@ assert p_lvl: lvl_ty(d1, lf) == tyf && ctx_valid(d1) && 0 <= lf < ctx_len_[d1];
  //@ assert p_f: ty_valid(tyf) && ty_same(tyf, TY_FUN, psg, tyq);
  //@ assert p_q2: ty_valid(tyq) && ty_same(tyq, TY_PROD, pt, tqr) && ty_valid(tqr) && ty_same(tqr, TY_LFUN, tga, tt);
  //@ assert p_q: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, tga, tt);
  //@ assert p_tga: ty_valid(tga) && ty_same(tga, TY_PROD, tg, tsg);
  //@ assert p_ty1: ty_valid(psg) && ty_valid(tg);
  /* the two linear types, framed one at a time through fwd_lam_prim's
   * growth (as one goal it took Z3 11 s) */
  //@ assert p_ty2a: 0 <= tsg < \at(ty_count, D1) && \at(ty_lin_[tsg], D1) == 1 && ty_lin_[tsg] == 1;
  //@ assert p_ty2b: 0 <= stf < \at(ty_count, D1) && \at(ty_lin_[stf], D1) == 1 && ty_lin_[stf] == 1;
  //@ assert p_ty2: lin(tsg) && lin(stf);
  //@ assert p_ty3: ty_valid(stf) && ty_same(stf, TY_FUN, psg, tt);
  //@ ghost P1: ;
  int tan = fwd_lam_tan(d1, lf, psg, tsg, tg) /*@ ghost (tyf, tyq, tga, tt, stf) */;
  //@ assert tan >= 0 ==> 0 <= tan < tm_count && tm_ctx_[tan] == d1 && ty_valid(tm_ty_[tan]) && ty_same(tm_ty_[tan], TY_LFUN, tg, stf);
  //@ assert tan >= 0 || tan == CHAD_E_CAPACITY;
  //@ assert l_keep: env_keep{Pre, Here};
  //@ assert l_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a] + 26;
  //@ assert l_grow: tables_grow{P1, Here} && side_same{P1, Here};
  //@ assert l_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  //@ assert l_ret: tan < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert l_grows: memo_grows{Pre, Here};
  //@ assert l_inv2: kernel_inv && src_inv;
  if (tan < 0) return tan;
  //@ assert l_fn: 0 <= f < tm_count && tm_ctx_[f] == d && tm_ty_[f] == tyf && ctx_is_ext(d1, d, tyf);
  //@ ghost int tyl = tm_ty_[tan];
  //@ assert t_tan: 0 <= tan < tm_count && tm_ctx_[tan] == d1 && ty_valid(tyl) && ty_same(tyl, TY_LFUN, tg, stf);
  //@ assert t_prim: 0 <= prim < tm_count && tm_ctx_[prim] == d1 && tm_ty_[prim] == pf;
  //@ assert t_f: 0 <= f < tm_count && tm_ctx_[f] == d && tm_ty_[f] == tyf && ctx_valid(d) && ctx_is_ext(d1, d, tyf);
  //@ ghost Tail: ;
  int res = let_unary_tail(f, prim, tan) /*@ ghost (d, d1, pf, tg, stf) */;
  //@ assert res >= 0 ==> tm_ctx_[res] == d && \at(tm_count, Pre) <= res < tm_count;
  //@ ghost int tyr = res >= 0 ? tm_ty_[res] : 0;
  //@ assert res >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pf && ty_same(ty_right_[tyr], TY_LFUN, tg, stf);
  //@ assert res >= 0 ==> ty_node_ok(tyr) && 0 <= ty_right_[tyr] < tyr;
  //@ assert res >= 0 || res == CHAD_E_CAPACITY;
  //@ assert r_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a] + 28;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert tables_grow{Tail, Here} && side_same{Tail, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  //@ assert r_inv: kernel_inv && memo_inv && src_inv && venv_wf;
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert env_keep{Pre, Here};
  //@ assert trh(CHAD_PFWD, ty) && trh(CHAD_TAN, ty) && trch(CHAD_TAN, g) && trm(CHAD_PFWD, ty) == pf && trm(CHAD_TAN, ty) == stf && trc(CHAD_TAN, g) == tg;
  //@ assert res >= 0 ==> fwd_ty(tm_ty_[res], g, ty);
  //@ assert tm_ctx_[t] == g && tm_ty_[t] == ty;
  //@ assert lam_type: res >= 0 ==> 0 <= res < tm_count && tm_ctx_[res] == d && fwd_ty(tm_ty_[res], tm_ctx_[t], tm_ty_[t]);
  return res;
}
