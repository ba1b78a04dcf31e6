/* F(fst t)        = let (x,dx) = F t in (fst x, \v. fst (dx v))          -- snd alike
 * F(inl t)        = let (x,dx) = F t in (inl x, \v. (dx v, 0))           -- inr alike
 * F(sum a)        = let (x,dx) = F a in (sum x, \v. sum (dx v))
 * F(length a)     = (length x, \v. ())
 * F(op o ts)      = let (x_i,dx_i) = F t_i in (o x, \v. Dop(x; dx_1 v, ..., dx_k v))
 * (../shared/chad-rules.md, section 4, forward mode)
 *   fwd_proj_build    fst/snd: (fst x, \v. fst (dx v)) and snd alike
 *   fwd_sum_build     sum: (sum x, \v. sum (dx v))
 *   fwd_length_build  length: (length x, \v. ())
 *   fwd_inj_build     inl/inr: (inl x, \v. (dx v, 0)) and (inr x, \v. (0, dx v))
 *   fwd_op_build      op o: (o x, \v. Dop(x; dx v))
 *   fwd_unary         the one-child rules: F t, then the kind's *_build
 * Part of forward.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* The builders of F's one-child rules: from p = F a (in d, type
 * typ = pa * (tg -o sa), bound at level lp of d1 = d, p) to
 *   let p in (prim, \v. lin)     : pt * (tg -o tt)
 * one per kind, against the kernel's invariant only (as fwd_pair_lin).
 * Their common precondition: */
/*@ predicate funary_at(integer p, integer d, integer d1, integer lp, integer typ,
                        integer pa, integer sa, integer tg) =
      0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ && ctx_valid(d) &&
      ctx_is_ext(d1, d, typ) && ctx_valid(d1) && 0 <= lp < ctx_len_[d1] && lvl_ty(d1, lp) == typ &&
      ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa &&
      ty_same(ty_right_[typ], TY_LFUN, tg, sa) && ty_valid(pa) && ty_valid(sa) && ty_valid(tg);
*/
#define FUNARY_BUILD_POST(k) \
  terminates \true; \
  assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE; \
  ensures kernel_inv; \
  ensures funary_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d && \
    ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD && \
    ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, tg, tt); \
  ensures funary_codes: \result >= 0 || \result == CHAD_E_CAPACITY; \
  ensures funary_size: \old(tm_count) <= tm_count <= \old(tm_count) + (k); \
  ensures funary_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count; \
  ensures funary_grow: tables_grow{Pre, Post} && side_same{Pre, Post}; \
  ensures env_keep{Pre, Post}

/* F(fst a) = (fst (fst p), \v. fst (snd p v)); F(snd a) alike with snd.
 * pa = P(A * B), sa = T(A * B) = TA * TB. */
/*@ requires kernel_inv && funary_at(p, d, d1, lp, typ, pa, sa, tg);
    requires ty_kind_[pa] == TY_PROD && ty_kind_[sa] == TY_PROD;
    requires is_snd == 0 ==> ty_left_[pa] == pt && ty_left_[sa] == tt;
    requires is_snd != 0 ==> ty_right_[pa] == pt && ty_right_[sa] == tt;
    requires lin(tt);
    FUNARY_BUILD_POST(11);
*/
static int fwd_proj_build(int p, int d1, int lp, int tg, int is_snd)
  /*@ ghost (int d, int typ, int pa, int sa, int pt, int tt) */
{
  int lv = L(d1), d2 = k_ext(d1, tg);
  if (d2 < 0) return d2;
  //@ assert d2_lv: lvl_ty(d2, lv) == tg && ctx_parent_[d2] == d1 && ctx_type_[d2] == tg;
  //@ assert d2_lp: lvl_ty(d2, lp) == typ;
  int vp = V(d2, lp);
  //@ assert vp >= 0 ==> tm_ctx_[vp] == d2 && tm_ty_[vp] == typ && 0 <= vp < tm_count;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d2 && ty_same(tm_ty_[sp], TY_LFUN, tg, sa) && 0 <= sp < tm_count;
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int v = V(d2, lv);
  //@ assert v >= 0 ==> tm_ctx_[v] == d2 && tm_ty_[v] == tg && 0 <= v < tm_count;
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  int dx = b_lapp(sp, v);
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && tm_ty_[dx] == sa && 0 <= dx < tm_count;
  //@ assert dx >= 0 || dx == CHAD_E_CAPACITY;
  int lin = b_proj(dx, is_snd);
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d2 && tm_ty_[lin] == tt && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin >= 0 ==> llam_ok(tg, tm_ctx_[lin], tm_ty_[lin]);
  int lam = b_llam(tg, lin);
  //@ assert lam_at: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, tg, tt);
  //@ assert lam_ok: lam >= 0 ==> ty_valid(tm_ty_[lam]);
  //@ assert lam >= 0 || lam == CHAD_E_CAPACITY;
  //@ assert cnt_lam: tm_count <= \at(tm_count, Pre) + 6;
  //@ assert d1_lp2: ctx_valid(d1) && 0 <= lp < ctx_len_[d1] && lvl_ty(d1, lp) == typ;
  int vx = V(d1, lp);
  //@ assert vx >= 0 ==> tm_ctx_[vx] == d1 && tm_ty_[vx] == typ && 0 <= vx < tm_count;
  //@ assert vx >= 0 || vx == CHAD_E_CAPACITY;
  int x = b_fst(vx);
  //@ assert x >= 0 ==> tm_ctx_[x] == d1 && tm_ty_[x] == pa && 0 <= x < tm_count;
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  int prim = b_proj(x, is_snd);
  //@ assert prim >= 0 ==> tm_ctx_[prim] == d1 && tm_ty_[prim] == pt && 0 <= prim < tm_count;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert lam_at2: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty2: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, tg, tt) && ty_valid(tm_ty_[lam]);
  //@ assert tm_count <= \at(tm_count, Pre) + 9;
  if (prim < 0) return prim;
  if (lam < 0) return lam;
  //@ assert p_at: 0 <= p < tm_count && tm_ctx_[p] == d && ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
  int r = let_unary_tail(p, prim, lam) /*@ ghost (d, d1, pt, tg, tt) */;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* F(sum a) = (sum (fst p), \v. sum (snd p v)): a : Arr Real, P = T = id on
 * Real and Arr Real (pa = sa = Arr Real). */
/*@ requires kernel_inv && funary_at(p, d, d1, lp, typ, pa, sa, tg);
    requires ty_same(pa, TY_ARR, TY_ID_REAL, -1) && ty_same(sa, TY_ARR, TY_ID_REAL, -1);
    requires pt == TY_ID_REAL && tt == TY_ID_REAL;
    FUNARY_BUILD_POST(11);
*/
static int fwd_sum_build(int p, int d1, int lp, int tg)
  /*@ ghost (int d, int typ, int pa, int sa, int pt, int tt) */
{
  int lv = L(d1), d2 = k_ext(d1, tg);
  if (d2 < 0) return d2;
  //@ assert d2_lv: lvl_ty(d2, lv) == tg && ctx_parent_[d2] == d1 && ctx_type_[d2] == tg;
  //@ assert d2_lp: lvl_ty(d2, lp) == typ;
  int vp = V(d2, lp);
  //@ assert vp >= 0 ==> tm_ctx_[vp] == d2 && tm_ty_[vp] == typ && 0 <= vp < tm_count;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d2 && ty_same(tm_ty_[sp], TY_LFUN, tg, sa) && 0 <= sp < tm_count;
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int v = V(d2, lv);
  //@ assert v >= 0 ==> tm_ctx_[v] == d2 && tm_ty_[v] == tg && 0 <= v < tm_count;
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  int dx = b_lapp(sp, v);
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && tm_ty_[dx] == sa && 0 <= dx < tm_count;
  //@ assert dx >= 0 || dx == CHAD_E_CAPACITY;
  //@ assert dx >= 0 ==> sum_ok(tm_ty_[dx]);
  int lin = b_sum(dx);
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d2 && tm_ty_[lin] == tt && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin >= 0 ==> llam_ok(tg, tm_ctx_[lin], tm_ty_[lin]);
  int lam = b_llam(tg, lin);
  //@ assert lam_at: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, tg, tt);
  //@ assert lam_ok: lam >= 0 ==> ty_valid(tm_ty_[lam]);
  //@ assert lam >= 0 || lam == CHAD_E_CAPACITY;
  //@ assert cnt_lam: tm_count <= \at(tm_count, Pre) + 6;
  //@ assert d1_lp2: ctx_valid(d1) && 0 <= lp < ctx_len_[d1] && lvl_ty(d1, lp) == typ;
  int vx = V(d1, lp);
  //@ assert vx >= 0 ==> tm_ctx_[vx] == d1 && tm_ty_[vx] == typ && 0 <= vx < tm_count;
  //@ assert vx >= 0 || vx == CHAD_E_CAPACITY;
  int x = b_fst(vx);
  //@ assert x >= 0 ==> tm_ctx_[x] == d1 && tm_ty_[x] == pa && 0 <= x < tm_count;
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  int prim = b_sum(x);
  //@ assert prim >= 0 ==> tm_ctx_[prim] == d1 && tm_ty_[prim] == pt && 0 <= prim < tm_count;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert lam_at2: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty2: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, tg, tt) && ty_valid(tm_ty_[lam]);
  //@ assert tm_count <= \at(tm_count, Pre) + 9;
  if (prim < 0) return prim;
  if (lam < 0) return lam;
  //@ assert p_at: 0 <= p < tm_count && tm_ctx_[p] == d && ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
  int r = let_unary_tail(p, prim, lam) /*@ ghost (d, d1, pt, tg, tt) */;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* F(length a) = (length (fst p), \v. ()): a : Arr A, pa = Arr P A,
 * pt = Int, tt = T Int = Unit. */
/*@ requires kernel_inv && funary_at(p, d, d1, lp, typ, pa, sa, tg);
    requires ty_kind_[pa] == TY_ARR && pt == TY_ID_INT && tt == TY_ID_UNIT;
    FUNARY_BUILD_POST(7);
*/
static int fwd_length_build(int p, int d1, int lp, int tg)
  /*@ ghost (int d, int typ, int pa, int sa, int pt, int tt) */
{
  int d2 = k_ext(d1, tg);
  if (d2 < 0) return d2;
  //@ assert d2_ctx: ctx_parent_[d2] == d1 && ctx_type_[d2] == tg && ctx_valid(d2) && 0 < d2;
  //@ assert lin(TY_ID_UNIT);
  int z = b_zero(d2, TY_ID_UNIT);
  //@ assert z >= 0 ==> tm_ctx_[z] == d2 && tm_ty_[z] == tt && 0 <= z < tm_count;
  //@ assert z >= 0 || z == CHAD_E_CAPACITY;
  //@ assert z >= 0 ==> llam_ok(tg, tm_ctx_[z], tm_ty_[z]);
  int lam = b_llam(tg, z);
  //@ assert lam_at: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, tg, tt);
  //@ assert lam_ok: lam >= 0 ==> ty_valid(tm_ty_[lam]);
  //@ assert lam >= 0 || lam == CHAD_E_CAPACITY;
  //@ assert cnt_lam: tm_count <= \at(tm_count, Pre) + 2;
  //@ assert d1_lp2: ctx_valid(d1) && 0 <= lp < ctx_len_[d1] && lvl_ty(d1, lp) == typ;
  int vx = V(d1, lp);
  //@ assert vx >= 0 ==> tm_ctx_[vx] == d1 && tm_ty_[vx] == typ && 0 <= vx < tm_count;
  //@ assert vx >= 0 || vx == CHAD_E_CAPACITY;
  int x = b_fst(vx);
  //@ assert x >= 0 ==> tm_ctx_[x] == d1 && tm_ty_[x] == pa && 0 <= x < tm_count;
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  int prim = b_length(x);
  //@ assert prim >= 0 ==> tm_ctx_[prim] == d1 && tm_ty_[prim] == pt && 0 <= prim < tm_count;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert lam_at2: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty2: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, tg, tt) && ty_valid(tm_ty_[lam]);
  //@ assert tm_count <= \at(tm_count, Pre) + 5;
  if (prim < 0) return prim;
  if (lam < 0) return lam;
  //@ assert p_at: 0 <= p < tm_count && tm_ctx_[p] == d && ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
  int r = let_unary_tail(p, prim, lam) /*@ ghost (d, d1, pt, tg, tt) */;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* F(inl a) = (inl (fst p), \v. (snd p v, 0)); F(inr a) = (inr (fst p),
 * \v. (0, snd p v)). tau = A + B: pt = PA + PB, tt = TA * TB; a : A (inl)
 * or B (inr); po, so = P and T of the other side. */
/*@ requires kernel_inv && funary_at(p, d, d1, lp, typ, pa, sa, tg);
    requires ty_valid(po) && ty_valid(so) && lin(so) && ty_valid(pt) && ty_valid(tt);
    requires is_inr == 0 ==> ty_same(pt, TY_SUM, pa, po) && ty_same(tt, TY_PROD, sa, so);
    requires is_inr != 0 ==> ty_same(pt, TY_SUM, po, pa) && ty_same(tt, TY_PROD, so, sa);
    requires lin(tt);
    FUNARY_BUILD_POST(12);
*/
static int fwd_inj_build(int p, int d1, int lp, int tg, int po, int so, int is_inr)
  /*@ ghost (int d, int typ, int pa, int sa, int pt, int tt) */
{
  int lv = L(d1), d2 = k_ext(d1, tg);
  if (d2 < 0) return d2;
  //@ assert d2_lv: lvl_ty(d2, lv) == tg && ctx_parent_[d2] == d1 && ctx_type_[d2] == tg;
  //@ assert d2_lp: lvl_ty(d2, lp) == typ;
  int vp = V(d2, lp);
  //@ assert vp >= 0 ==> tm_ctx_[vp] == d2 && tm_ty_[vp] == typ && 0 <= vp < tm_count;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d2 && ty_same(tm_ty_[sp], TY_LFUN, tg, sa) && 0 <= sp < tm_count;
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int v = V(d2, lv);
  //@ assert v >= 0 ==> tm_ctx_[v] == d2 && tm_ty_[v] == tg && 0 <= v < tm_count;
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  int dx = b_lapp(sp, v);
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && tm_ty_[dx] == sa && 0 <= dx < tm_count;
  //@ assert dx >= 0 || dx == CHAD_E_CAPACITY;
  int z = b_zero(d2, so);
  //@ assert z >= 0 ==> tm_ctx_[z] == d2 && tm_ty_[z] == so && 0 <= z < tm_count;
  //@ assert z >= 0 || z == CHAD_E_CAPACITY;
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && tm_ty_[dx] == sa && 0 <= dx < tm_count;
  int lin = b_pair_side(dx, z, is_inr);
  //@ assert is_inr == 0 ==> (lin >= 0 ==> tm_ctx_[lin] == d2 && ty_same(tm_ty_[lin], TY_PROD, sa, so) && ty_valid(tm_ty_[lin]));
  //@ assert is_inr != 0 ==> (lin >= 0 ==> tm_ctx_[lin] == d2 && ty_same(tm_ty_[lin], TY_PROD, so, sa) && ty_valid(tm_ty_[lin]));
  //@ assert tt_same: ty_inv && ty_valid(tt) && (is_inr == 0 ==> ty_same(tt, TY_PROD, sa, so)) && (is_inr != 0 ==> ty_same(tt, TY_PROD, so, sa));
  /* hash-consing: the pair of tangents is T(A + B) itself */
  //@ assert lin_id0: is_inr == 0 ==> (lin >= 0 ==> tm_ty_[lin] == tt);
  //@ assert lin_id1: is_inr != 0 ==> (lin >= 0 ==> tm_ty_[lin] == tt);
  //@ assert lin_id: lin >= 0 ==> tm_ty_[lin] == tt && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin >= 0 ==> llam_ok(tg, tm_ctx_[lin], tm_ty_[lin]);
  int lam = b_llam(tg, lin);
  //@ assert lam_at: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, tg, tt);
  //@ assert lam_ok: lam >= 0 ==> ty_valid(tm_ty_[lam]);
  //@ assert lam >= 0 || lam == CHAD_E_CAPACITY;
  //@ assert cnt_lam: tm_count <= \at(tm_count, Pre) + 7;
  //@ assert d1_lp2: ctx_valid(d1) && 0 <= lp < ctx_len_[d1] && lvl_ty(d1, lp) == typ;
  int vx = V(d1, lp);
  //@ assert vx >= 0 ==> tm_ctx_[vx] == d1 && tm_ty_[vx] == typ && 0 <= vx < tm_count;
  //@ assert vx >= 0 || vx == CHAD_E_CAPACITY;
  int x = b_fst(vx);
  //@ assert x >= 0 ==> tm_ctx_[x] == d1 && tm_ty_[x] == pa && 0 <= x < tm_count;
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  int prim = b_inj(x, po, is_inr);
  //@ assert is_inr == 0 ==> (prim >= 0 ==> tm_ctx_[prim] == d1 && ty_same(tm_ty_[prim], TY_SUM, pa, po) && ty_valid(tm_ty_[prim]));
  //@ assert is_inr != 0 ==> (prim >= 0 ==> tm_ctx_[prim] == d1 && ty_same(tm_ty_[prim], TY_SUM, po, pa) && ty_valid(tm_ty_[prim]));
  //@ assert pt_same: ty_inv && ty_valid(pt) && (is_inr == 0 ==> ty_same(pt, TY_SUM, pa, po)) && (is_inr != 0 ==> ty_same(pt, TY_SUM, po, pa));
  /* hash-consing: the injection's type is P(A + B) itself */
  //@ assert prim_id0: is_inr == 0 ==> (prim >= 0 ==> tm_ty_[prim] == pt);
  //@ assert prim_id1: is_inr != 0 ==> (prim >= 0 ==> tm_ty_[prim] == pt);
  //@ assert prim_id: prim >= 0 ==> tm_ty_[prim] == pt && 0 <= prim < tm_count;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert lam_at2: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty2: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, tg, tt) && ty_valid(tm_ty_[lam]);
  //@ assert tm_count <= \at(tm_count, Pre) + 10;
  if (prim < 0) return prim;
  if (lam < 0) return lam;
  //@ assert p_at: 0 <= p < tm_count && tm_ctx_[p] == d && ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
  int r = let_unary_tail(p, prim, lam) /*@ ghost (d, d1, pt, tg, tt) */;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* F(op o a) = (op o (fst p), \v. Dop o (fst p) (snd p v)). A
 * primitive's signature is first-order with its tangent signature in the
 * op table (op_inv, through ty_tan_), so P and T of it are the table's
 * own types: pa = dom o, sa = tdom o, pt = cod o, tt = tcod o
 * (fo_tr_lemma). */
/*@ requires kernel_inv && memo_ty_inv && funary_at(p, d, d1, lp, typ, pa, sa, tg);
    requires 0 <= o < op_count;
    requires trh(CHAD_PFWD, op_dom_[o]) && pa == trm(CHAD_PFWD, op_dom_[o]);
    requires trh(CHAD_TAN, op_dom_[o]) && sa == trm(CHAD_TAN, op_dom_[o]);
    requires trh(CHAD_PFWD, op_cod_[o]) && pt == trm(CHAD_PFWD, op_cod_[o]);
    requires trh(CHAD_TAN, op_cod_[o]) && tt == trm(CHAD_TAN, op_cod_[o]);
    FUNARY_BUILD_POST(13);
*/
static int fwd_op_build(int p, int d1, int lp, int o, int tg)
  /*@ ghost (int d, int typ, int pa, int sa, int pt, int tt) */
{
  //@ assert op_sig: ty_tan_[op_dom_[o]] == op_tdom_[o] && ty_tan_[op_cod_[o]] == op_tcod_[o];
  //@ assert op_val: ty_valid(op_dom_[o]) && ty_valid(op_cod_[o]) && 0 <= op_tdom_[o] && 0 <= op_tcod_[o];
  //@ ghost fo_tr_lemma(CHAD_PFWD, op_dom_[o], op_tdom_[o]);
  //@ ghost fo_tr_lemma(CHAD_TAN, op_dom_[o], op_tdom_[o]);
  //@ ghost fo_tr_lemma(CHAD_PFWD, op_cod_[o], op_tcod_[o]);
  //@ ghost fo_tr_lemma(CHAD_TAN, op_cod_[o], op_tcod_[o]);
  //@ assert op_tys: pa == op_dom_[o] && sa == op_tdom_[o] && pt == op_cod_[o] && tt == op_tcod_[o];
  //@ assert tt_lin: lin(tt);
  int lv = L(d1), d2 = k_ext(d1, tg);
  if (d2 < 0) return d2;
  //@ assert d2_lv: lvl_ty(d2, lv) == tg && ctx_parent_[d2] == d1 && ctx_type_[d2] == tg;
  //@ assert d2_lp: lvl_ty(d2, lp) == typ;
  int vp = V(d2, lp);
  //@ assert vp >= 0 ==> tm_ctx_[vp] == d2 && tm_ty_[vp] == typ && 0 <= vp < tm_count;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d2 && ty_same(tm_ty_[sp], TY_LFUN, tg, sa) && 0 <= sp < tm_count;
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int v = V(d2, lv);
  //@ assert v >= 0 ==> tm_ctx_[v] == d2 && tm_ty_[v] == tg && 0 <= v < tm_count;
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  int dx = b_lapp(sp, v);
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && tm_ty_[dx] == sa && 0 <= dx < tm_count;
  //@ assert dx >= 0 || dx == CHAD_E_CAPACITY;
  int vq = V(d2, lp);
  //@ assert vq >= 0 ==> tm_ctx_[vq] == d2 && tm_ty_[vq] == typ && 0 <= vq < tm_count;
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int xq = b_fst(vq);
  //@ assert xq >= 0 ==> tm_ctx_[xq] == d2 && tm_ty_[xq] == pa && 0 <= xq < tm_count;
  //@ assert xq >= 0 || xq == CHAD_E_CAPACITY;
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && tm_ty_[dx] == sa && 0 <= dx < tm_count;
  int lin = b_lop_d(o, xq, dx);
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d2 && tm_ty_[lin] == tt && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin >= 0 ==> ty_valid(tg) && llam_ok(tg, tm_ctx_[lin], tm_ty_[lin]);
  int lam = b_llam(tg, lin);
  //@ assert lam_at: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, tg, tt);
  //@ assert lam_ok: lam >= 0 ==> ty_valid(tm_ty_[lam]);
  //@ assert lam >= 0 || lam == CHAD_E_CAPACITY;
  //@ assert cnt_lam: tm_count <= \at(tm_count, Pre) + 8;
  //@ assert d1_lp2: ctx_valid(d1) && 0 <= lp < ctx_len_[d1] && lvl_ty(d1, lp) == typ;
  int vx = V(d1, lp);
  //@ assert vx >= 0 ==> tm_ctx_[vx] == d1 && tm_ty_[vx] == typ && 0 <= vx < tm_count;
  //@ assert vx >= 0 || vx == CHAD_E_CAPACITY;
  int x = b_fst(vx);
  //@ assert x >= 0 ==> tm_ctx_[x] == d1 && tm_ty_[x] == pa && 0 <= x < tm_count;
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  int prim = b_op(o, x);
  //@ assert prim >= 0 ==> tm_ctx_[prim] == d1 && tm_ty_[prim] == pt && 0 <= prim < tm_count;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert lam_at2: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty2: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, tg, tt) && ty_valid(tm_ty_[lam]);
  //@ assert tm_count <= \at(tm_count, Pre) + 11;
  if (prim < 0) return prim;
  if (lam < 0) return lam;
  //@ assert p_at: 0 <= p < tm_count && tm_ctx_[p] == d && ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
  int r = let_unary_tail(p, prim, lam) /*@ ghost (d, d1, pt, tg, tt) */;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* One child: let p = F a in (op (fst p), \v. op' (snd p v)) for fst, snd,
 * sum, length, op, inl, inr: F a and p's extension here, the rest in the
 * kind's builder. */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires depth <= CHAD_MAX_DEPTH;
    requires tm_kind_[t] == TM_FST || tm_kind_[t] == TM_SND || tm_kind_[t] == TM_SUM ||
      tm_kind_[t] == TM_LENGTH || tm_kind_[t] == TM_OP || tm_kind_[t] == TM_INL ||
      tm_kind_[t] == TM_INR;
    terminates \true;
    decreases FWD_M(depth) - 2;
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_unary(int t, int d, int tg, int depth)
{
  //@ assert node_ok(t) && msz_ok(t) && msrc_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int kind = tm_kind(t);
  int a = tm_a(t), ty = tm_type(t);
  //@ ghost int ta = tm_ty_[a];
  //@ assert 0 <= a < t && chad_msrc_[a] == 1 && tm_ctx_[a] == g && ty == tau;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a]);
  /* the size budget: F a and at most 13 nodes of this rule (or the whole
   * arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert un_budget: FWD_K * chad_msz_[a] + 13 <= FWD_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= FWD_K * chad_msz_[t]; */
  //@ assert trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau);
  //@ ghost int pt = chad_memo_ty_[CHAD_PFWD][tau] - 1;
  //@ ghost int tt = chad_memo_ty_[CHAD_TAN][tau] - 1;
  //@ ghost tan_lin_lemma();
  //@ assert un_lin: lin(tt);
  int p = f_sub(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  //@ assert pa_fwd: tm_ctx_[p] == d && fwd_ty(tm_ty_[p], g, ta) && 0 <= p < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a];
  //@ assert pa_tau: trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt && trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt && lin(tt);
  //@ ghost tr_step(CHAD_PFWD, ta);
  //@ ghost tr_step(CHAD_TAN, ta);
  //@ ghost tr_step(CHAD_PFWD, tau);
  //@ ghost tr_step(CHAD_TAN, tau);
  //@ ghost int pa = chad_memo_ty_[CHAD_PFWD][ta] - 1;
  //@ ghost int sa = chad_memo_ty_[CHAD_TAN][ta] - 1;
  //@ assert pa_memo: trm(CHAD_PFWD, ta) == pa && trm(CHAD_TAN, ta) == sa && trc(CHAD_TAN, g) == tg;
  //@ ghost int typ = tm_ty_[p];
  //@ assert pa_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_same(ty_right_[typ], TY_LFUN, tg, sa);
  //@ assert pa_valid: ty_valid(pa) && ty_valid(sa) && ty_valid(pt) && ty_valid(tt) && ty_valid(tg);
  int lp = L(d), d1 = f_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d) && ctx_len_[d1] == lp + 1;
  //@ assert d1_lp: lvl_ty(d1, lp) == typ && 0 <= lp < ctx_len_[d1];
  //@ assert d1_at: funary_at(p, d, d1, lp, typ, pa, sa, tg);
  //@ ghost Built: ;
  int r;
  if (kind == TM_FST || kind == TM_SND) {
    //@ assert ty_kind_[ta] == TY_PROD && (kind == TM_FST ? ty_left_[ta] == tau : ty_right_[ta] == tau);
    //@ assert proj_pa: ty_kind_[pa] == TY_PROD && ty_kind_[sa] == TY_PROD;
    //@ assert proj_fst: kind == TM_FST ==> ty_left_[pa] == pt && ty_left_[sa] == tt;
    //@ assert proj_snd: kind == TM_SND ==> ty_right_[pa] == pt && ty_right_[sa] == tt;
    r = fwd_proj_build(p, d1, lp, tg, kind == TM_SND) /*@ ghost (d, typ, pa, sa, pt, tt) */;
  } else if (kind == TM_SUM) {
    //@ assert sum_ok(ta) && tau == TY_ID_REAL;
    //@ assert sum_pa: ty_same(pa, TY_ARR, TY_ID_REAL, -1) && ty_same(sa, TY_ARR, TY_ID_REAL, -1);
    //@ assert sum_pt: pt == TY_ID_REAL && tt == TY_ID_REAL;
    r = fwd_sum_build(p, d1, lp, tg) /*@ ghost (d, typ, pa, sa, pt, tt) */;
  } else if (kind == TM_LENGTH) {
    //@ assert arr_ok(ta) && tau == TY_ID_INT;
    //@ assert len_pa: ty_kind_[pa] == TY_ARR && pt == TY_ID_INT && tt == TY_ID_UNIT;
    r = fwd_length_build(p, d1, lp, tg) /*@ ghost (d, typ, pa, sa, pt, tt) */;
  } else if (kind == TM_OP) {
    //@ assert op_ok(tm_aux_[t], ta) && tau == op_cod_[tm_aux_[t]];
    //@ assert 0 <= tm_aux_[t] < op_count && ta == op_dom_[tm_aux_[t]];
    r = fwd_op_build(p, d1, lp, (int)tm_aux(t), tg) /*@ ghost (d, typ, pa, sa, pt, tt) */;
  } else {
    int is_inr = kind == TM_INR;
    //@ assert ty_kind_[tau] == TY_SUM && (is_inr == 0 ? ty_left_[tau] == ta : ty_right_[tau] == ta);
    int side = is_inr ? ty_left(ty) : ty_right(ty);
    //@ assert 0 <= side < ty_count && trh(CHAD_PFWD, side) && trh(CHAD_TAN, side);
    int po = memo_ty_get(CHAD_PFWD, side);
    int so = memo_ty_get(CHAD_TAN, side);
    //@ ghost tan_lin_lemma();
    //@ assert inj_po: po == trm(CHAD_PFWD, side) && ty_valid(po);
    //@ assert inj_so: so == trm(CHAD_TAN, side) && ty_valid(so);
    //@ assert inj_lin: lin(so);
    //@ assert inj_pt: is_inr == 0 ==> ty_same(pt, TY_SUM, pa, po) && ty_same(tt, TY_PROD, sa, so);
    //@ assert inj_pt2: is_inr != 0 ==> ty_same(pt, TY_SUM, po, pa) && ty_same(tt, TY_PROD, so, sa);
    r = fwd_inj_build(p, d1, lp, tg, po, so, is_inr) /*@ ghost (d, typ, pa, sa, pt, tt) */;
  }
  //@ assert r_size: tm_count <= \at(tm_count, Built) + 13;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert r_grow: tables_grow{Built, Here} && side_same{Built, Here};
  //@ assert r_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv;
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, tg, tt);
  //@ assert r >= 0 ==> ty_node_ok(tyr) && 0 <= ty_right_[tyr] < tyr;
  //@ assert r_memo1: trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt;
  //@ assert r_memo2: trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt;
  //@ assert r_memo3: trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg;
  //@ assert r >= 0 ==> fwd_ty(tm_ty_[r], g, tau);
  //@ assert tm_ctx_[t] == g && tm_ty_[t] == tau;
  //@ assert un_type: r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d && fwd_ty(tm_ty_[r], tm_ctx_[t], tm_ty_[t]);
  return r;
}
