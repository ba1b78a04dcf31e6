/* R(lam (x.t))    = let f = \x. R_{G,x} t in
 *                   ( \x. let (y,dy) = f x in (y, \v. snd (dy v)),
 *                     \w. cp_fold w (x v. fst ((snd (f x)) v)) )
 * (../shared/chad-rules.md, section 5, reverse mode)
 *   rev_lam_inner  \v. snd (dy v), the primal function's cotangent map
 *   rev_lam_pbody  let (y,dy) = f x in (y, \v. snd (dy v)), the primal function's body
 *   rev_lam_prim   the primal  \x. ...  of R(lam)
 *   rev_lam_back   fst (snd (f x) v), one copower element's cotangent of G
 *   rev_lam_lin    the linear half, a fold of rev_lam_back over the copower
 *   rev_lam        the rule: f = \x. R_{G,x} t, then the primal and the linear half
 * Part of reverse.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* \v. snd (snd r v), the cotangent map of R(lam)'s primal function, in e2
 * where level lr holds r = f x : tyq = P tau * (ctau -o cga), cga = C(G,
 * x) = C G * csg: of type ctau -o csg, which is rr (the linear part of
 * P(sigma -> tau) = P sigma -> P tau * (C tau -o C sigma)) by
 * hash-consing. Against the kernel's invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(e2) && 0 <= lr < ctx_len_[e2] && lvl_ty(e2, lr) == tyq;
    requires ty_valid(ctau) && lin(csg);
    requires ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, ctau, cga);
    requires ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_right_[cga] == csg;
    requires ty_valid(rr) && ty_same(rr, TY_LFUN, ctau, csg);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures lam_inner_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == e2 &&
      tm_ty_[\result] == rr;
    ensures lam_inner_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures lam_inner_size: \old(tm_count) <= tm_count <= \old(tm_count) + 6;
    ensures lam_inner_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures lam_inner_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures lam_inner_lvl: \forall integer l; 0 <= l < ctx_len_[e2] ==> lvl_ty(e2, l) == \old(lvl_ty(e2, l));
    ensures env_keep{Pre, Post};
*/
static int rev_lam_inner(int e2, int lr, int ctau)
  /*@ ghost (int tyq, int cga, int csg, int rr) */
{
  //@ ghost int qr = ty_right_[tyq];
  //@ assert q_node: ty_inv && ty_node_ok(tyq) && 0 <= qr < tyq && ty_same(qr, TY_LFUN, ctau, cga);
  int lv = L(e2), e3 = k_ext(e2, ctau);
  if (e3 < 0) return e3;
  //@ assert e3_ctx: ctx_valid(e3) && ctx_is_ext(e3, e2, ctau) && ctx_len_[e3] == lv + 1 && lv == ctx_len_[e2];
  //@ assert e3_lvl: lvl_ty(e3, lv) == ctau && lvl_ty(e3, lr) == tyq;
  //@ assert e3_keep: \forall integer l; 0 <= l < ctx_len_[e2] ==> lvl_ty(e2, l) == \at(lvl_ty(e2, l), Pre);
  //@ ghost Ext: ;
  int vr = V(e3, lr);
  //@ assert vr >= 0 ==> 0 <= vr < tm_count && tm_ctx_[vr] == e3 && tm_ty_[vr] == tyq;
  //@ assert vr >= 0 || vr == CHAD_E_CAPACITY;
  int sr = b_snd(vr);
  //@ assert sr >= 0 ==> 0 <= sr < tm_count && tm_ctx_[sr] == e3 && tm_ty_[sr] == qr;
  //@ assert sr >= 0 || sr == CHAD_E_CAPACITY;
  //@ assert sr >= 0 ==> ty_same(tm_ty_[sr], TY_LFUN, ctau, cga);
  int vv = V(e3, lv);
  //@ assert vv >= 0 ==> 0 <= vv < tm_count && tm_ctx_[vv] == e3 && tm_ty_[vv] == ctau;
  //@ assert vv >= 0 || vv == CHAD_E_CAPACITY;
  int ap = b_lapp(sr, vv);
  //@ assert ap >= 0 ==> 0 <= ap < tm_count && tm_ctx_[ap] == e3 && tm_ty_[ap] == cga;
  //@ assert ap >= 0 || ap == CHAD_E_CAPACITY;
  //@ assert ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_right_[cga] == csg;
  int s2 = b_snd(ap);
  //@ assert s2 >= 0 ==> 0 <= s2 < tm_count && tm_ctx_[s2] == e3 && tm_ty_[s2] == csg;
  //@ assert s2 >= 0 || s2 == CHAD_E_CAPACITY;
  //@ assert s2 >= 0 ==> ty_valid(ctau) && llam_ok(ctau, tm_ctx_[s2], tm_ty_[s2]);
  //@ assert e3_par: ctx_parent_[e3] == e2;
  int r = b_llam(ctau, s2);
  //@ assert r_ctx: r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == e2;
  //@ assert r_ty0: r >= 0 ==> ty_valid(tm_ty_[r]) && ty_same(tm_ty_[r], TY_LFUN, ctau, csg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  /* hash-consing: ctau -o csg is the linear part of P(sigma -> tau) */
  //@ assert rr_same: ty_inv && ty_valid(rr) && ty_same(rr, TY_LFUN, ctau, csg);
  //@ assert r_rr: r >= 0 ==> tm_ty_[r] == rr;
  //@ assert tm_count <= \at(tm_count, Pre) + 6;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert r_keep: \forall integer l; 0 <= l < ctx_len_[e2] ==> lvl_ty(e2, l) == \at(lvl_ty(e2, l), Pre);
  return r;
}

/* The body of R(lam)'s primal function, in e1 = d1, x (level lf holds f :
 * tyf = psg -> tyq, level lx holds x : psg):
 *   let r = f x in (fst r, \v. snd (snd r v))
 * of type rp = pt * rr, P(sigma -> tau)'s codomain. Against the kernel's
 * invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(e1) && 0 <= lf < ctx_len_[e1] && lvl_ty(e1, lf) == tyf;
    requires 0 <= lx < ctx_len_[e1] && lvl_ty(e1, lx) == psg;
    requires ty_valid(ctau) && lin(csg);
    requires ty_valid(tyf) && ty_same(tyf, TY_FUN, psg, tyq);
    requires ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt &&
      ty_same(ty_right_[tyq], TY_LFUN, ctau, cga);
    requires ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_right_[cga] == csg;
    requires ty_valid(rr) && ty_same(rr, TY_LFUN, ctau, csg);
    requires ty_valid(rp) && ty_same(rp, TY_PROD, pt, rr);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures lam_pbody_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == e1 &&
      tm_ty_[\result] == rp;
    ensures lam_pbody_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures lam_pbody_size: \old(tm_count) <= tm_count <= \old(tm_count) + 13;
    ensures lam_pbody_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures lam_pbody_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures lam_pbody_lvl: \forall integer l; 0 <= l < ctx_len_[e1] ==> lvl_ty(e1, l) == \old(lvl_ty(e1, l));
    ensures env_keep{Pre, Post};
*/
static int rev_lam_pbody(int e1, int lf, int lx, int ctau)
  /*@ ghost (int tyf, int psg, int tyq, int pt, int cga, int csg, int rr, int rp) */
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
  //@ assert e2_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, ctau, cga);
  //@ assert e2_cga: ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_right_[cga] == csg && lin(csg) && ty_valid(ctau);
  //@ assert e2_rr: ty_valid(rr) && ty_same(rr, TY_LFUN, ctau, csg);
  //@ ghost E2: ;
  int inner = rev_lam_inner(e2, lr, ctau) /*@ ghost (tyq, cga, csg, rr) */;
  //@ assert inner >= 0 ==> 0 <= inner < tm_count && tm_ctx_[inner] == e2 && tm_ty_[inner] == rr;
  //@ assert inner >= 0 || inner == CHAD_E_CAPACITY;
  //@ assert i_size: tm_count <= \at(tm_count, Pre) + 9;
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
  //@ assert tm_count <= \at(tm_count, Pre) + 13;
  //@ assert lb_grow: tables_grow{I1, Here} && side_same{I1, Here};
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert lb_keep: \forall integer l; 0 <= l < ctx_len_[e1] ==> lvl_ty(e1, l) == \at(lvl_ty(e1, l), Pre);
  //@ assert lb_keepe: env_keep{Pre, Here};
  return lb;
}

/* The primal of R(lam), in d1 = d, f (level lf holds f = \x. R_{G,x} a :
 * tyf = P sigma -> tyq):
 *   \x. let r = f x in (fst r, \v. snd (snd r v))
 * of type P(sigma -> tau) = pa = psg -> R, R = pt * rr, by hash-consing.
 * Against the kernel's invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(d1) && 0 <= lf < ctx_len_[d1] && lvl_ty(d1, lf) == tyf;
    requires ty_valid(psg) && ty_valid(ctau) && lin(csg);
    requires ty_valid(tyf) && ty_same(tyf, TY_FUN, psg, tyq);
    requires ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt &&
      ty_same(ty_right_[tyq], TY_LFUN, ctau, cga);
    requires ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_right_[cga] == csg;
    requires ty_valid(pa) && ty_same(pa, TY_FUN, psg, rp) && ty_valid(rp) &&
      ty_same(rp, TY_PROD, pt, rr) && ty_valid(rr) && ty_same(rr, TY_LFUN, ctau, csg);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures lam_prim_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d1 &&
      tm_ty_[\result] == pa;
    ensures lam_prim_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures lam_prim_size: \old(tm_count) <= tm_count <= \old(tm_count) + 14;
    ensures lam_prim_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures lam_prim_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures lam_prim_lvl: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \old(lvl_ty(d1, l));
    ensures env_keep{Pre, Post};
*/
static int rev_lam_prim(int d1, int lf, int psg, int ctau)
  /*@ ghost (int tyf, int tyq, int pt, int cga, int csg, int pa, int rp, int rr) */
{
  int lx = L(d1), e1 = k_ext(d1, psg);
  if (e1 < 0) return e1;
  //@ assert e1_ctx: ctx_valid(e1) && ctx_is_ext(e1, d1, psg) && ctx_len_[e1] == lx + 1 && lx == ctx_len_[d1];
  //@ assert e1_lvl: lvl_ty(e1, lx) == psg && lvl_ty(e1, lf) == tyf;
  //@ assert e1_keep: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  //@ ghost E1: ;
  int lb = rev_lam_pbody(e1, lf, lx, ctau) /*@ ghost (tyf, psg, tyq, pt, cga, csg, rr, rp) */;
  //@ assert lb >= 0 ==> 0 <= lb < tm_count && tm_ctx_[lb] == e1 && tm_ty_[lb] == rp;
  //@ assert lb >= 0 || lb == CHAD_E_CAPACITY;
  //@ assert b_size: tm_count <= \at(tm_count, Pre) + 13;
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
  //@ assert pa_same: ty_inv && ty_valid(pa) && ty_same(pa, TY_FUN, psg, rp);
  //@ assert p_pa: prim >= 0 ==> tm_ty_[prim] == pa;
  //@ assert tm_count <= \at(tm_count, Pre) + 14;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert p_keep: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  //@ assert p_keepe: env_keep{Pre, Here};
  return prim;
}

/* fst (snd (f x) v), the cotangent of G from one element (x, v) of R(lam)'s
 * copower cotangent, in g3 where level lf holds f : tyf = psg -> tyq
 * (tyq = P tau * (ctau -o cga), cga = C G * _), level lx holds x : psg and
 * level lv holds v : ctau. Against the kernel's invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(g3);
    requires 0 <= lf < ctx_len_[g3] && lvl_ty(g3, lf) == tyf;
    requires 0 <= lx < ctx_len_[g3] && lvl_ty(g3, lx) == psg;
    requires 0 <= lv < ctx_len_[g3] && lvl_ty(g3, lv) == ctau;
    requires ty_valid(tyf) && ty_same(tyf, TY_FUN, psg, tyq);
    requires ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, ctau, cga);
    requires ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_left_[cga] == cg;
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS;
    ensures kernel_inv;
    ensures lam_back_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == g3 &&
      tm_ty_[\result] == cg;
    ensures lam_back_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures lam_back_size: \old(tm_count) <= tm_count <= \old(tm_count) + 7;
    ensures lam_back_frame: \old(ty_count) <= ty_count;
    ensures lam_back_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
*/
static int rev_lam_back(int g3, int lf, int lx, int lv)
  /*@ ghost (int tyf, int psg, int tyq, int ctau, int cga, int cg) */
{
  //@ ghost int qr = ty_right_[tyq];
  //@ assert q_node: ty_inv && ty_node_ok(tyq) && 0 <= qr < tyq && ty_same(qr, TY_LFUN, ctau, cga);
  int wf = V(g3, lf);
  //@ assert wf >= 0 ==> 0 <= wf < tm_count && tm_ctx_[wf] == g3 && tm_ty_[wf] == tyf;
  //@ assert wf >= 0 || wf == CHAD_E_CAPACITY;
  int wx = V(g3, lx);
  //@ assert wx >= 0 ==> 0 <= wx < tm_count && tm_ctx_[wx] == g3 && tm_ty_[wx] == psg;
  //@ assert wx >= 0 || wx == CHAD_E_CAPACITY;
  //@ assert ty_valid(tyf) && ty_kind_[tyf] == TY_FUN && ty_left_[tyf] == psg && ty_right_[tyf] == tyq;
  int fx = b_app(wf, wx);
  //@ assert fx >= 0 ==> 0 <= fx < tm_count && tm_ctx_[fx] == g3 && tm_ty_[fx] == tyq;
  //@ assert fx >= 0 || fx == CHAD_E_CAPACITY;
  int sf = b_snd(fx);
  //@ assert sf >= 0 ==> 0 <= sf < tm_count && tm_ctx_[sf] == g3 && tm_ty_[sf] == qr;
  //@ assert sf >= 0 || sf == CHAD_E_CAPACITY;
  //@ assert sf >= 0 ==> ty_same(tm_ty_[sf], TY_LFUN, ctau, cga);
  int vv = V(g3, lv);
  //@ assert vv >= 0 ==> 0 <= vv < tm_count && tm_ctx_[vv] == g3 && tm_ty_[vv] == ctau;
  //@ assert vv >= 0 || vv == CHAD_E_CAPACITY;
  int ap = b_lapp(sf, vv);
  //@ assert ap >= 0 ==> 0 <= ap < tm_count && tm_ctx_[ap] == g3 && tm_ty_[ap] == cga;
  //@ assert ap >= 0 || ap == CHAD_E_CAPACITY;
  //@ assert ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_left_[cga] == cg;
  int r = b_fst(ap);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == g3 && tm_ty_[r] == cg;
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 7;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The linear half of R(lam), in d1 = d, f (level lf holds f : tyf):
 *   \w. cp_fold w (x v. fst (snd (f x) v))
 * of type ct -o cg, ct = C(sigma -> tau) = !psg (x) ctau (a copower).
 * Against the kernel's invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(d1) && 0 <= lf < ctx_len_[d1] && lvl_ty(d1, lf) == tyf;
    requires ty_valid(psg) && ty_valid(ctau) && lin(cg);
    requires lin(ct) && ty_same(ct, TY_COPOW, psg, ctau);
    requires ty_valid(tyf) && ty_same(tyf, TY_FUN, psg, tyq);
    requires ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, ctau, cga);
    requires ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_left_[cga] == cg;
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures lam_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d1 &&
      ty_valid(tm_ty_[\result]) && ty_same(tm_ty_[\result], TY_LFUN, ct, cg);
    ensures lam_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures lam_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 10;
    ensures lam_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures lam_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures lam_lin_lvl: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \old(lvl_ty(d1, l));
    ensures env_keep{Pre, Post};
*/
static int rev_lam_lin(int d1, int lf, int psg, int ctau, int ct)
  /*@ ghost (int tyf, int tyq, int cga, int cg) */
{
  int lw = L(d1), g1 = k_ext(d1, ct);
  if (g1 < 0) return g1;
  //@ assert g1_ctx: ctx_valid(g1) && ctx_is_ext(g1, d1, ct) && ctx_len_[g1] == lw + 1 && lw == ctx_len_[d1];
  //@ assert g1_lvl: lvl_ty(g1, lw) == ct && lvl_ty(g1, lf) == tyf;
  //@ assert g1_keep: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  int lx = L(g1), g2 = k_ext(g1, psg);
  //@ assert g2_keep0: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  if (g2 < 0) return g2;
  //@ assert g2_ctx: ctx_valid(g2) && ctx_is_ext(g2, g1, psg) && ctx_len_[g2] == lx + 1 && lx == ctx_len_[g1];
  //@ assert g2_lvl: lvl_ty(g2, lx) == psg && lvl_ty(g2, lw) == ct && lvl_ty(g2, lf) == tyf;
  int lv = L(g2), g3 = k_ext(g2, ctau);
  //@ assert g3_keep0: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  if (g3 < 0) return g3;
  //@ assert g3_ctx: ctx_valid(g3) && ctx_is_ext(g3, g2, ctau) && ctx_len_[g3] == lv + 1 && lv == ctx_len_[g2];
  //@ assert g3_lvl: lvl_ty(g3, lv) == ctau && lvl_ty(g3, lx) == psg && lvl_ty(g3, lf) == tyf;
  //@ assert g3_keep: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  //@ assert g3_g1: lvl_ty(g1, lw) == ct && ctx_valid(g1);
  //@ ghost Exts: ;
  int body = rev_lam_back(g3, lf, lx, lv) /*@ ghost (tyf, psg, tyq, ctau, cga, cg) */;
  //@ assert body >= 0 ==> 0 <= body < tm_count && tm_ctx_[body] == g3 && tm_ty_[body] == cg;
  //@ assert body >= 0 || body == CHAD_E_CAPACITY;
  //@ assert b_ctx: ctx_count == \at(ctx_count, Exts);
  //@ assert b_lvl: lvl_ty(g1, lw) == ct && ctx_valid(g1);
  int w = V(g1, lw);
  //@ assert w >= 0 ==> 0 <= w < tm_count && tm_ctx_[w] == g1 && tm_ty_[w] == ct;
  //@ assert w >= 0 || w == CHAD_E_CAPACITY;
  //@ assert body >= 0 ==> 0 <= body < tm_count && tm_ctx_[body] == g3 && tm_ty_[body] == cg;
  //@ assert fold_ok: 0 < g3 && ctx_type_[g3] == ctau && ctx_parent_[g3] == g2 && ctx_is_ext(g2, g1, psg) && lin(cg);
  //@ assert fold_ct: ty_valid(ct) && ty_kind_[ct] == TY_COPOW && ty_left_[ct] == psg && ty_right_[ct] == ctau;
  //@ assert fold_pre: w >= 0 && body >= 0 ==> cpfold_ok(tm_ctx_[w], tm_ty_[w], tm_ctx_[body], tm_ty_[body]);
  //@ assert fold_neg: (w < 0 ==> w == CHAD_E_CAPACITY) && (body < 0 ==> body == CHAD_E_CAPACITY);
  int fold = b_cp_fold(w, body);
  //@ assert fold >= 0 ==> 0 <= fold < tm_count && tm_ctx_[fold] == g1 && tm_ty_[fold] == cg;
  //@ assert fold >= 0 || fold == CHAD_E_CAPACITY;
  //@ assert fold >= 0 ==> ty_valid(ct) && llam_ok(ct, tm_ctx_[fold], tm_ty_[fold]);
  //@ assert g1_par: ctx_parent_[g1] == d1;
  int r = b_llam(ct, fold);
  //@ assert r_ctx: r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d1;
  //@ assert r_ty: r >= 0 ==> ty_valid(tm_ty_[r]) && ty_same(tm_ty_[r], TY_LFUN, ct, cg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 10;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert r_cnt: ctx_count == \at(ctx_count, Exts) && ctx_len_[d1] == \at(ctx_len_[d1], Exts);
  //@ assert r_keep: \forall integer l; 0 <= l < ctx_len_[d1] ==> lvl_ty(d1, l) == \at(lvl_ty(d1, l), Pre);
  return r;
}

/* R(lam (x. a)), of type sigma -> tau, a : tau in ga = G, x : sigma:
 *   let f = \x. R_{G,x} a in
 *   ( \x. let r = f x in (fst r, \v. snd (snd r v)),
 *     \w. cp_fold w (x v. fst (snd (f x) v)) )
 * R a under the binder (the one recursive call) and f here; the primal
 * rev_lam_prim, the linear half rev_lam_lin and the tail let_unary_tail
 * (let f in (prim, lin), shared with the one-child rules). P sigma and
 * C tau are read from the memo table (memoised with sigma -> tau). */
/*@ RULE_PRE(t, d, tm_kind_[t] == TM_LAM);
    requires ty == tm_ty_[t];
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases REV_M(depth) - 2;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_lam(int t, int d, int ty, int ct, int depth)
{
  //@ assert node_ok(t) && msrc_ok(t) && msz_ok(t);
  //@ ghost int g = tm_ctx_[t];
  int a = tm_a(t);
  //@ ghost int ga = tm_ctx_[a];
  //@ ghost int tau = tm_ty_[a];
  int sg = ty_left(ty), tau_ = ty_right(ty);
  //@ assert lam_src: 0 < ga < ctx_count && ctx_type_[ga] == sg && ctx_parent_[ga] == g;
  //@ assert lam_ty: ty_valid(ty) && ty_kind_[ty] == TY_FUN && ty_right_[ty] == tau && tau_ == tau;
  //@ assert 0 <= a < t && chad_msrc_[a] == 1;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a]);
  /* the size budget: R a and at most 27 nodes of this rule (or the whole
   * arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert lam_budget: REV_K * chad_msz_[a] + 27 <= REV_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= REV_K * chad_msz_[t]; */
  /*@ ghost int cgv = tm_ctx_[t] == CTX_EMPTY ? TY_ID_UNIT :
        chad_memo_ctx_[CHAD_COT][tm_ctx_[t]] - 1; */
  //@ assert cgv == trc(CHAD_COT, g) && lin(cgv);
  //@ assert memo_ty_inv && trh(CHAD_COT, ty) && trh(CHAD_PREV, ty) && ct == chad_memo_ty_[CHAD_COT][ty] - 1;
  //@ ghost rev_tr_step(CHAD_PREV, ty);
  //@ ghost rev_tr_step(CHAD_COT, ty);
  //@ ghost int pa = chad_memo_ty_[CHAD_PREV][ty] - 1;
  //@ assert lam_memo: trh(CHAD_PREV, sg) && trh(CHAD_PREV, tau) && trh(CHAD_COT, sg) && trh(CHAD_COT, tau);
  int psg = memo_ty_get(CHAD_PREV, sg);
  int ctau = memo_ty_get(CHAD_COT, tau_);
  //@ ghost int pt = chad_memo_ty_[CHAD_PREV][tau] - 1;
  //@ ghost int csg = chad_memo_ty_[CHAD_COT][sg] - 1;
  //@ assert lam_psg: psg == trm(CHAD_PREV, sg) && ctau == trm(CHAD_COT, tau) && ty_valid(psg) && ty_valid(ctau);
  //@ ghost rev_tr_step(CHAD_PREV, sg);
  //@ ghost rev_tr_step(CHAD_COT, sg);
  //@ ghost cot_lin_lemma();
  //@ assert lam_csg: lin(csg) && lin(ct) && ty_same(ct, TY_COPOW, psg, ctau);
  /*@ assert lam_pa: ty_valid(pa) && ty_kind_[pa] == TY_FUN && ty_left_[pa] == psg &&
        0 <= ty_right_[pa] < pa && ty_kind_[ty_right_[pa]] == TY_PROD &&
        ty_left_[ty_right_[pa]] == pt && 0 <= ty_right_[ty_right_[pa]] < ty_right_[pa] &&
        ty_same(ty_right_[ty_right_[pa]], TY_LFUN, ctau, csg); */
  //@ ghost int rp = ty_right_[pa];
  //@ ghost int rr = ty_right_[rp];
  //@ assert lam_pa2: ty_same(pa, TY_FUN, psg, rp) && ty_valid(rp) && ty_same(rp, TY_PROD, pt, rr) && ty_valid(rr) && ty_same(rr, TY_LFUN, ctau, csg);
  //@ assert lam_env: env_ok(CHAD_PREV, g, d) && ctx_valid(d);
  int lx = L(d), dx = rev_ext(d, psg);
  //@ assert dx >= 0 || dx == CHAD_E_CAPACITY;
  //@ assert dx_keep: env_keep{Pre, Here};
  //@ assert dx_grows: memo_grows{Pre, Here};
  if (dx < 0) return dx;
  //@ assert dx_ext: ctx_is_ext(dx, d, psg) && ctx_valid(dx) && ctx_len_[dx] == lx + 1 && lx == ctx_len_[d];
  //@ assert dx_lvl: lvl_ty(dx, lx) == psg && env_ok(CHAD_PREV, g, dx);
  //@ assert x_ga: env_ok(CHAD_PREV, ctx_parent_[ga], dx) && trh(CHAD_PREV, ctx_type_[ga]) && trm(CHAD_PREV, ctx_type_[ga]) == psg;
  int q = rev_under(a, dx, lx, depth + 1);
  //@ assert q_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert q_keep: env_keep{Pre, Here};
  //@ assert q_grows: memo_grows{Pre, Here};
  if (q < 0) return q;
  //@ assert q_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a];
  //@ assert q_rev: tm_ctx_[q] == dx && rev_ty(tm_ty_[q], tau, ga) && 0 <= q < tm_count;
  //@ assert q_memo: trm(CHAD_PREV, tau) == pt && trm(CHAD_COT, tau) == ctau && trc(CHAD_COT, g) == cgv && trm(CHAD_COT, sg) == csg;
  //@ assert q_ga: trch(CHAD_COT, ga);
  //@ ghost rev_trc_step(CHAD_COT, ga);
  //@ ghost int cga = chad_memo_ctx_[CHAD_COT][ga] - 1;
  //@ assert q_cga0: trc(CHAD_COT, ga) == cga;
  //@ assert q_cga: ty_valid(cga) && ty_same(cga, TY_PROD, cgv, csg);
  //@ ghost int tyq = tm_ty_[q];
  //@ assert q_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, ctau, cga);
  //@ ghost int tqr = ty_right_[tyq];
  //@ assert q_ty2: ty_same(tyq, TY_PROD, pt, tqr) && ty_valid(tqr) && ty_same(tqr, TY_LFUN, ctau, cga);
  //@ assert q_dx: ctx_parent_[dx] == d && ctx_type_[dx] == psg && 0 < dx < ctx_count && ty_valid(psg);
  /* C(sigma -> tau) and C G, read at the top: restated after each call
   * (framed from the top through five calls, p_ct failed in full runs
   * with every prover, 1.5 s alone) */
  //@ assert q_ct: lin(ct) && ty_same(ct, TY_COPOW, psg, ctau) && lin(cgv) && ty_valid(psg) && ty_valid(ctau);
  //@ assert q_pa2: ty_valid(pa) && ty_same(pa, TY_FUN, psg, rp) && ty_valid(rp) && ty_same(rp, TY_PROD, pt, rr) && ty_valid(rr) && ty_same(rr, TY_LFUN, ctau, csg);
  //@ ghost Q1: ;
  int f = b_lam(psg, q);
  //@ assert f >= 0 ==> 0 <= f < tm_count && tm_ctx_[f] == d && ty_valid(tm_ty_[f]) && ty_same(tm_ty_[f], TY_FUN, psg, tyq);
  //@ assert f >= 0 || f == CHAD_E_CAPACITY;
  //@ assert f_grow: tables_grow{Q1, Here} && side_same{Q1, Here};
  //@ assert f_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert f_keep: env_keep{Pre, Here};
  //@ assert f_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a] + 1;
  //@ assert f_grows: memo_grows{Pre, Here};
  //@ assert f_ct: lin(ct) && ty_same(ct, TY_COPOW, psg, ctau) && lin(cgv) && ty_valid(psg) && ty_valid(ctau);
  //@ assert f_pa2: ty_valid(pa) && ty_same(pa, TY_FUN, psg, rp) && ty_valid(rp) && ty_same(rp, TY_PROD, pt, rr) && ty_valid(rr) && ty_same(rr, TY_LFUN, ctau, csg);
  if (f < 0) return f;
  //@ ghost int tyf = tm_ty_[f];
  //@ assert f_env: ctx_valid(d);
  int lf = L(d), d1 = rev_ext(d, tyof(f));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_keep: env_keep{Pre, Here};
  //@ assert d1_ret: d1 < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert d1_grows: memo_grows{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_ext: ctx_is_ext(d1, d, tyf) && ctx_valid(d1) && ctx_len_[d1] == lf + 1 && lf == ctx_len_[d];
  //@ assert d1_lvl: lvl_ty(d1, lf) == tyf;
  //@ assert d1_f: ty_valid(tyf) && ty_same(tyf, TY_FUN, psg, tyq);
  //@ assert d1_q2: ty_valid(tyq) && ty_same(tyq, TY_PROD, pt, tqr) && ty_valid(tqr) && ty_same(tqr, TY_LFUN, ctau, cga);
  //@ assert d1_q: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, ctau, cga);
  //@ assert d1_cga: ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_right_[cga] == csg && ty_left_[cga] == cgv;
  //@ assert d1_ty: ty_valid(psg) && ty_valid(ctau) && lin(csg) && lin(cgv);
  //@ assert d1_pa2: ty_valid(pa) && ty_same(pa, TY_FUN, psg, rp) && ty_valid(rp) && ty_same(rp, TY_PROD, pt, rr) && ty_valid(rr) && ty_same(rr, TY_LFUN, ctau, csg);
  //@ assert d1_ct: lin(ct) && ty_same(ct, TY_COPOW, psg, ctau) && lin(cgv) && ty_valid(psg) && ty_valid(ctau);
  //@ ghost D1: ;
  int prim = rev_lam_prim(d1, lf, psg, ctau) /*@ ghost (tyf, tyq, pt, cga, csg, pa, rp, rr) */;
  //@ assert prim >= 0 ==> 0 <= prim < tm_count && tm_ctx_[prim] == d1 && tm_ty_[prim] == pa;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert p_keep: env_keep{Pre, Here};
  //@ assert p_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a] + 15;
  //@ assert p_grow: tables_grow{D1, Here} && side_same{D1, Here};
  //@ assert p_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert p_ret: prim < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert p_grows: memo_grows{Pre, Here};
  if (prim < 0) return prim;
  //@ assert p_fn: 0 <= f < tm_count && tm_ctx_[f] == d && tm_ty_[f] == tyf && ctx_is_ext(d1, d, tyf);
  //@ assert p_lvl: lvl_ty(d1, lf) == tyf && ctx_valid(d1) && 0 <= lf < ctx_len_[d1];
  //@ assert p_f: ty_valid(tyf) && ty_same(tyf, TY_FUN, psg, tyq);
  //@ assert p_q2: ty_valid(tyq) && ty_same(tyq, TY_PROD, pt, tqr) && ty_valid(tqr) && ty_same(tqr, TY_LFUN, ctau, cga);
  //@ assert p_q: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, ctau, cga);
  //@ assert p_cga: ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_left_[cga] == cgv;
  //@ assert p_ct: lin(ct) && ty_same(ct, TY_COPOW, psg, ctau) && lin(cgv) && ty_valid(psg) && ty_valid(ctau);
  //@ ghost P1: ;
  int lin = rev_lam_lin(d1, lf, psg, ctau, ct) /*@ ghost (tyf, tyq, cga, cgv) */;
  //@ assert lin >= 0 ==> 0 <= lin < tm_count && tm_ctx_[lin] == d1 && ty_valid(tm_ty_[lin]) && ty_same(tm_ty_[lin], TY_LFUN, ct, cgv);
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert l_keep: env_keep{Pre, Here};
  //@ assert l_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a] + 25;
  //@ assert l_grow: tables_grow{P1, Here} && side_same{P1, Here};
  //@ assert l_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert l_ret: lin < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert l_grows: memo_grows{Pre, Here};
  if (lin < 0) return lin;
  //@ assert l_fn: 0 <= f < tm_count && tm_ctx_[f] == d && tm_ty_[f] == tyf && ctx_is_ext(d1, d, tyf);
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert t_lin: 0 <= lin < tm_count && tm_ctx_[lin] == d1 && ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cgv);
  //@ assert t_prim: 0 <= prim < tm_count && tm_ctx_[prim] == d1 && tm_ty_[prim] == pa;
  //@ assert t_f: 0 <= f < tm_count && tm_ctx_[f] == d && tm_ty_[f] == tyf && ctx_valid(d) && ctx_is_ext(d1, d, tyf);
  //@ ghost Tail: ;
  int r = let_unary_tail(f, prim, lin) /*@ ghost (d, d1, pa, ct, cgv) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pa && ty_same(ty_right_[tyr], TY_LFUN, ct, cgv);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert r_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a] + 27;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert tables_grow{Tail, Here} && side_same{Tail, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert env_keep{Pre, Here};
  //@ assert r_memo1: trh(CHAD_PREV, ty) && trm(CHAD_PREV, ty) == pa;
  //@ assert r_memo2: trh(CHAD_COT, ty) && trm(CHAD_COT, ty) == ct;
  //@ assert r_memo3: trch(CHAD_COT, g) && trc(CHAD_COT, g) == cgv;
  //@ assert r >= 0 ==> rev_ty(tm_ty_[r], \at(tm_ty_[t], Pre), \at(tm_ctx_[t], Pre));
  return r;
}
