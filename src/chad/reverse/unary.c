/* R(fst t)        = let (x,dx) = R t in (fst x, \v. dx (v, 0))           -- snd alike
 * R(inl t)        = let (x,dx) = R t in (inl x, \v. dx (fst v))          -- inr: snd
 * R(sum a)        = let (x,dx) = R a in (sum x, \v. dx (replicate (length x) v))
 * R(length a)     = (length x, \v. 0)
 * R(op o ts)      = let (x_i,dx_i) = R t_i in (o x, \v. let w = DopT(x; v) in sum_i dx_i w_i)
 * (../shared/chad-rules.md, section 5, reverse mode)
 *   rev_proj_build    fst/snd: (fst x, \v. dx (v, 0)) and (snd x, \v. dx (0, v))
 *   rev_sum_build     sum: (sum x, \v. dx (replicate (length x) v))
 *   rev_length_build  length: (length x, \v. 0)
 *   rev_inj_build     inl/inr: (inl x, \v. dx (fst v)) and (inr x, \v. dx (snd v))
 *   rev_op_build      op o: (o x, \v. dx (DopT(x; v)))
 *   rev_unary         the one-child rules: R t, then the kind's *_build
 * Part of reverse.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* The builders of R's one-child rules: from p = R a (in d, type
 * typ = pa * (ca -o cg), bound at level lp of d1 = d, p) to
 *   let p in (prim, \v. lin)     : pt * (ct -o cg)
 * one per kind, against the kernel's invariant only (as rev_pair_lin: the
 * rule gets the pass invariants back by the frame). Their common
 * precondition: */
/*@ predicate unary_at(integer p, integer d, integer d1, integer lp, integer typ,
                       integer pa, integer ca, integer cg) =
      0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ && ctx_valid(d) &&
      ctx_is_ext(d1, d, typ) && ctx_valid(d1) && 0 <= lp < ctx_len_[d1] && lvl_ty(d1, lp) == typ &&
      ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa &&
      ty_same(ty_right_[typ], TY_LFUN, ca, cg) && ty_valid(pa) && ty_valid(ca) && lin(cg);
*/
#define UNARY_BUILD_POST(k) \
  terminates \true; \
  assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE; \
  ensures kernel_inv; \
  ensures unary_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d && \
    ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD && \
    ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg); \
  ensures unary_codes: \result >= 0 || \result == CHAD_E_CAPACITY; \
  ensures unary_size: \old(tm_count) <= tm_count <= \old(tm_count) + (k); \
  ensures unary_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count; \
  ensures unary_grow: tables_grow{Pre, Post} && side_same{Pre, Post}; \
  ensures env_keep{Pre, Post}

/* R(fst a): (fst (fst p), \v. snd p (v, 0)); R(snd a): (snd (fst p),
 * \v. snd p (0, v)). pa = P(A * B), ca = C(A * B) = CA * CB. */
/*@ requires kernel_inv && unary_at(p, d, d1, lp, typ, pa, ca, cg);
    requires ty_kind_[pa] == TY_PROD && ty_kind_[ca] == TY_PROD;
    requires lin(ty_left_[ca]) && lin(ty_right_[ca]) && ty_valid(ct);
    requires is_snd == 0 ==> ty_left_[pa] == pt && ty_left_[ca] == ct;
    requires is_snd != 0 ==> ty_right_[pa] == pt && ty_right_[ca] == ct;
    UNARY_BUILD_POST(12);
*/
static int rev_proj_build(int p, int d1, int lp, int ct, int is_snd)
  /*@ ghost (int d, int typ, int pa, int ca, int pt, int cg) */
{
  //@ assert ty_inv && ty_node_ok(ca) && ty_node_ok(pa);
  //@ ghost int cl = ty_left_[ca];
  //@ ghost int cr = ty_right_[ca];
  //@ assert ty_valid(cl) && ty_valid(cr) && lin(cl) && lin(cr) && ty_same(ca, TY_PROD, cl, cr);
  int cav = ty_left(ty_right(tyof(p)));
  //@ assert cav == ca;
  int other = is_snd ? ty_left(cav) : ty_right(cav);
  //@ assert is_snd == 0 ==> other == cr && ct == cl;
  //@ assert is_snd != 0 ==> other == cl && ct == cr;
  //@ assert ty_valid(other) && lin(other);
  int lv = L(d1), d2 = k_ext(d1, ct);
  if (d2 < 0) return d2;
  //@ assert d2_lv: lvl_ty(d2, lv) == ct && ctx_parent_[d2] == d1 && ctx_type_[d2] == ct;
  //@ assert d2_lp: lvl_ty(d2, lp) == typ;
  int vp = V(d2, lp);
  //@ assert vp >= 0 ==> tm_ctx_[vp] == d2 && tm_ty_[vp] == typ && 0 <= vp < tm_count;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int dx = b_snd(vp);
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && ty_same(tm_ty_[dx], TY_LFUN, ca, cg) && 0 <= dx < tm_count;
  //@ assert dx >= 0 || dx == CHAD_E_CAPACITY;
  int v = V(d2, lv);
  //@ assert v >= 0 ==> tm_ctx_[v] == d2 && tm_ty_[v] == ct && 0 <= v < tm_count;
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  int z = b_zero(d2, other);
  //@ assert z >= 0 ==> tm_ctx_[z] == d2 && tm_ty_[z] == other && 0 <= z < tm_count;
  //@ assert z >= 0 || z == CHAD_E_CAPACITY;
  //@ assert v >= 0 ==> tm_ctx_[v] == d2 && tm_ty_[v] == ct && 0 <= v < tm_count;
  int pr = b_pair_side(v, z, is_snd);
  //@ assert pr >= 0 ==> tm_ctx_[pr] == d2 && ty_same(tm_ty_[pr], TY_PROD, cl, cr) && ty_valid(tm_ty_[pr]) && 0 <= pr < tm_count;
  //@ assert ca_same: ty_inv && ty_valid(ca) && ty_same(ca, TY_PROD, cl, cr);
  /* hash-consing: the pair of cotangents is C(A * B) itself */
  //@ assert pr_id: pr >= 0 ==> tm_ty_[pr] == ca;
  //@ assert pr >= 0 || pr == CHAD_E_CAPACITY;
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && ty_same(tm_ty_[dx], TY_LFUN, ca, cg) && 0 <= dx < tm_count;
  int lin = b_lapp(dx, pr);
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d2 && tm_ty_[lin] == cg && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin >= 0 ==> ty_valid(ct) && llam_ok(ct, tm_ctx_[lin], tm_ty_[lin]);
  int lam = b_llam(ct, lin);
  //@ assert lam_at: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, ct, cg);
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
  int prim = b_proj(x, is_snd);
  //@ assert prim >= 0 ==> tm_ctx_[prim] == d1 && tm_ty_[prim] == pt && 0 <= prim < tm_count;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ ghost Prim: ;
  //@ assert lam_at2: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty2: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, ct, cg) && ty_valid(tm_ty_[lam]);
  //@ assert tm_count <= \at(tm_count, Pre) + 10;
  if (prim < 0) return prim;
  if (lam < 0) return lam;
  //@ assert p_at: 0 <= p < tm_count && tm_ctx_[p] == d && ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
  int r = let_unary_tail(p, prim, lam) /*@ ghost (d, d1, pt, ct, cg) */;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* R(sum a) = (sum (fst p), \v. snd p (build (length (fst p)) (i. v))):
 * a : Arr Real, P = C = id on Real and Arr Real (pa = ca = Arr Real). */
/*@ requires kernel_inv && unary_at(p, d, d1, lp, typ, pa, ca, cg);
    requires ty_same(pa, TY_ARR, TY_ID_REAL, -1) && ty_same(ca, TY_ARR, TY_ID_REAL, -1);
    requires pt == TY_ID_REAL && ct == TY_ID_REAL;
    UNARY_BUILD_POST(14);
*/
static int rev_sum_build(int p, int d1, int lp)
  /*@ ghost (int d, int typ, int pa, int ca, int pt, int ct, int cg) */
{
  int lv = L(d1), d2 = k_ext(d1, TY_ID_REAL);
  if (d2 < 0) return d2;
  //@ assert d2_lv: lvl_ty(d2, lv) == TY_ID_REAL && ctx_parent_[d2] == d1 && ctx_type_[d2] == TY_ID_REAL;
  //@ assert d2_lp: lvl_ty(d2, lp) == typ && ctx_valid(d2) && ctx_len_[d2] == lv + 1;
  int vp = V(d2, lp);
  //@ assert vp >= 0 ==> tm_ctx_[vp] == d2 && tm_ty_[vp] == typ && 0 <= vp < tm_count;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int dx = b_snd(vp);
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && ty_same(tm_ty_[dx], TY_LFUN, ca, cg) && 0 <= dx < tm_count;
  //@ assert dx >= 0 || dx == CHAD_E_CAPACITY;
  int vp2 = V(d2, lp);
  //@ assert vp2 >= 0 ==> tm_ctx_[vp2] == d2 && tm_ty_[vp2] == typ && 0 <= vp2 < tm_count;
  //@ assert vp2 >= 0 || vp2 == CHAD_E_CAPACITY;
  int x2 = b_fst(vp2);
  //@ assert x2 >= 0 ==> tm_ctx_[x2] == d2 && tm_ty_[x2] == pa && 0 <= x2 < tm_count;
  //@ assert x2 >= 0 || x2 == CHAD_E_CAPACITY;
  int n = b_length(x2);
  //@ assert n >= 0 ==> tm_ctx_[n] == d2 && tm_ty_[n] == TY_ID_INT && 0 <= n < tm_count;
  //@ assert n >= 0 || n == CHAD_E_CAPACITY;
  int e = k_ext(d2, TY_ID_INT);
  if (e < 0) return e;
  //@ assert e_ext: ctx_is_ext(e, d2, TY_ID_INT) && ctx_valid(e) && lvl_ty(e, lv) == TY_ID_REAL && lv < ctx_len_[e];
  int v = V(e, lv);
  //@ assert v >= 0 ==> tm_ctx_[v] == e && tm_ty_[v] == TY_ID_REAL && 0 <= v < tm_count;
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  //@ assert n >= 0 ==> tm_ctx_[n] == d2 && tm_ty_[n] == TY_ID_INT && 0 <= n < tm_count;
  //@ assert n >= 0 && v >= 0 ==> build_ok(tm_ctx_[n], tm_ty_[n], tm_ctx_[v]);
  int bl = b_build(n, v);
  //@ assert bl >= 0 ==> tm_ctx_[bl] == d2 && ty_same(tm_ty_[bl], TY_ARR, TY_ID_REAL, -1) && ty_valid(tm_ty_[bl]) && 0 <= bl < tm_count;
  /* hash-consing: the built array's type is C(Arr Real) itself */
  //@ assert bl_id: bl >= 0 ==> tm_ty_[bl] == ca;
  //@ assert bl >= 0 || bl == CHAD_E_CAPACITY;
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && ty_same(tm_ty_[dx], TY_LFUN, ca, cg) && 0 <= dx < tm_count;
  int lin = b_lapp(dx, bl);
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d2 && tm_ty_[lin] == cg && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin >= 0 ==> llam_ok(TY_ID_REAL, tm_ctx_[lin], tm_ty_[lin]);
  int lam = b_llam(TY_ID_REAL, lin);
  //@ assert lam_at: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, ct, cg);
  //@ assert lam_ok: lam >= 0 ==> ty_valid(tm_ty_[lam]);
  //@ assert lam >= 0 || lam == CHAD_E_CAPACITY;
  //@ assert cnt_lam: tm_count <= \at(tm_count, Pre) + 9;
  //@ assert d1_lp2: ctx_valid(d1) && 0 <= lp < ctx_len_[d1] && lvl_ty(d1, lp) == typ;
  int vx = V(d1, lp);
  //@ assert vx >= 0 ==> tm_ctx_[vx] == d1 && tm_ty_[vx] == typ && 0 <= vx < tm_count;
  //@ assert vx >= 0 || vx == CHAD_E_CAPACITY;
  int x = b_fst(vx);
  //@ assert x >= 0 ==> tm_ctx_[x] == d1 && tm_ty_[x] == pa && 0 <= x < tm_count;
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  /* sum's side condition on x, stated before the call (framing pa's node
   * through the whole build inside the call's goal took Z3 20 s) */
  //@ assert pa_sum: ty_valid(pa) && ty_same(pa, TY_ARR, TY_ID_REAL, -1);
  //@ assert x_sum: x >= 0 ==> 0 <= x < tm_count && sum_ok(tm_ty_[x]);
  int prim = b_sum(x);
  //@ assert prim >= 0 ==> tm_ctx_[prim] == d1 && tm_ty_[prim] == pt && 0 <= prim < tm_count;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert lam_at2: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty2: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, ct, cg) && ty_valid(tm_ty_[lam]);
  //@ assert tm_count <= \at(tm_count, Pre) + 12;
  if (prim < 0) return prim;
  if (lam < 0) return lam;
  //@ assert p_at: 0 <= p < tm_count && tm_ctx_[p] == d && ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
  int r = let_unary_tail(p, prim, lam) /*@ ghost (d, d1, pt, ct, cg) */;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* R(length a) = (length (fst p), \v. 0): a : Arr A, pa = Arr P A,
 * pt = Int, ct = C Int = Unit. */
/*@ requires kernel_inv && unary_at(p, d, d1, lp, typ, pa, ca, cg);
    requires ty_kind_[pa] == TY_ARR && pt == TY_ID_INT && ct == TY_ID_UNIT;
    UNARY_BUILD_POST(7);
*/
static int rev_length_build(int p, int d1, int lp, int cg)
  /*@ ghost (int d, int typ, int pa, int ca, int pt, int ct) */
{
  int d2 = k_ext(d1, TY_ID_UNIT);
  if (d2 < 0) return d2;
  //@ assert d2_ctx: ctx_parent_[d2] == d1 && ctx_type_[d2] == TY_ID_UNIT && ctx_valid(d2) && 0 < d2;
  //@ assert lin(cg) && ty_valid(cg);
  int z = b_zero(d2, cg);
  //@ assert z >= 0 ==> tm_ctx_[z] == d2 && tm_ty_[z] == cg && 0 <= z < tm_count;
  //@ assert z >= 0 || z == CHAD_E_CAPACITY;
  //@ assert z >= 0 ==> llam_ok(TY_ID_UNIT, tm_ctx_[z], tm_ty_[z]);
  int lam = b_llam(TY_ID_UNIT, z);
  //@ assert lam_at: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, ct, cg);
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
  //@ assert lam_ty2: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, ct, cg) && ty_valid(tm_ty_[lam]);
  //@ assert tm_count <= \at(tm_count, Pre) + 5;
  if (prim < 0) return prim;
  if (lam < 0) return lam;
  //@ assert p_at: 0 <= p < tm_count && tm_ctx_[p] == d && ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
  int r = let_unary_tail(p, prim, lam) /*@ ghost (d, d1, pt, ct, cg) */;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* R(inl a) = (inl (fst p), \v. snd p (fst v)); R(inr a) = (inr (fst p),
 * \v. snd p (snd v)). tau = A + B: pt = PA + PB, ct = CA * CB; a : A
 * (inl) or B (inr); other = P of the other side (PB for inl). */
/*@ requires kernel_inv && unary_at(p, d, d1, lp, typ, pa, ca, cg);
    requires ty_valid(other) && ty_valid(ct) && ty_kind_[ct] == TY_PROD && lin(ct);
    requires is_inr == 0 ==> ty_same(pt, TY_SUM, pa, other) && ty_left_[ct] == ca;
    requires is_inr != 0 ==> ty_same(pt, TY_SUM, other, pa) && ty_right_[ct] == ca;
    requires ty_valid(pt);
    UNARY_BUILD_POST(11);
*/
static int rev_inj_build(int p, int d1, int lp, int ct, int other, int is_inr)
  /*@ ghost (int d, int typ, int pa, int ca, int pt, int cg) */
{
  int lv = L(d1), d2 = k_ext(d1, ct);
  if (d2 < 0) return d2;
  //@ assert d2_lv: lvl_ty(d2, lv) == ct && ctx_parent_[d2] == d1 && ctx_type_[d2] == ct;
  //@ assert d2_lp: lvl_ty(d2, lp) == typ;
  int vp = V(d2, lp);
  //@ assert vp >= 0 ==> tm_ctx_[vp] == d2 && tm_ty_[vp] == typ && 0 <= vp < tm_count;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int dx = b_snd(vp);
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && ty_same(tm_ty_[dx], TY_LFUN, ca, cg) && 0 <= dx < tm_count;
  //@ assert dx >= 0 || dx == CHAD_E_CAPACITY;
  int v = V(d2, lv);
  //@ assert v >= 0 ==> tm_ctx_[v] == d2 && tm_ty_[v] == ct && 0 <= v < tm_count;
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  int pv = b_proj(v, is_inr);
  //@ assert pv >= 0 ==> tm_ctx_[pv] == d2 && tm_ty_[pv] == ca && 0 <= pv < tm_count;
  //@ assert pv >= 0 || pv == CHAD_E_CAPACITY;
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && ty_same(tm_ty_[dx], TY_LFUN, ca, cg) && 0 <= dx < tm_count;
  int lin = b_lapp(dx, pv);
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d2 && tm_ty_[lin] == cg && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin >= 0 ==> ty_valid(ct) && llam_ok(ct, tm_ctx_[lin], tm_ty_[lin]);
  int lam = b_llam(ct, lin);
  //@ assert lam_at: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, ct, cg);
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
  int prim = b_inj(x, other, is_inr);
  //@ assert is_inr == 0 ==> (prim >= 0 ==> tm_ctx_[prim] == d1 && ty_same(tm_ty_[prim], TY_SUM, pa, other) && ty_valid(tm_ty_[prim]));
  //@ assert is_inr != 0 ==> (prim >= 0 ==> tm_ctx_[prim] == d1 && ty_same(tm_ty_[prim], TY_SUM, other, pa) && ty_valid(tm_ty_[prim]));
  //@ assert pt_same: ty_inv && ty_valid(pt) && (is_inr == 0 ==> ty_same(pt, TY_SUM, pa, other)) && (is_inr != 0 ==> ty_same(pt, TY_SUM, other, pa));
  /* hash-consing: the injection's type is P(A + B) itself */
  //@ assert prim_id0: is_inr == 0 ==> (prim >= 0 ==> tm_ty_[prim] == pt);
  //@ assert prim_id1: is_inr != 0 ==> (prim >= 0 ==> tm_ty_[prim] == pt);
  //@ assert prim_id: prim >= 0 ==> tm_ty_[prim] == pt && 0 <= prim < tm_count;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert lam_at2: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty2: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, ct, cg) && ty_valid(tm_ty_[lam]);
  //@ assert tm_count <= \at(tm_count, Pre) + 9;
  if (prim < 0) return prim;
  if (lam < 0) return lam;
  //@ assert p_at: 0 <= p < tm_count && tm_ctx_[p] == d && ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
  int r = let_unary_tail(p, prim, lam) /*@ ghost (d, d1, pt, ct, cg) */;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* R(op o a) = (op o (fst p), \v. snd p (DopT o (fst p) v)). A
 * primitive's signature is first-order with its tangent signature in the
 * op table (op_inv, through ty_tan_), so P and C of it are the table's
 * own types: pa = dom o, ca = tdom o, pt = cod o, ct = tcod o
 * (fo_tr_lemma). */
/*@ requires kernel_inv && memo_ty_inv && unary_at(p, d, d1, lp, typ, pa, ca, cg);
    requires 0 <= o < op_count && ty_valid(ct) && lin(ct);
    requires trh(CHAD_PREV, op_dom_[o]) && pa == trm(CHAD_PREV, op_dom_[o]);
    requires trh(CHAD_COT, op_dom_[o]) && ca == trm(CHAD_COT, op_dom_[o]);
    requires trh(CHAD_PREV, op_cod_[o]) && pt == trm(CHAD_PREV, op_cod_[o]);
    requires trh(CHAD_COT, op_cod_[o]) && ct == trm(CHAD_COT, op_cod_[o]);
    UNARY_BUILD_POST(13);
*/
static int rev_op_build(int p, int d1, int lp, int o, int ct)
  /*@ ghost (int d, int typ, int pa, int ca, int pt, int cg) */
{
  //@ assert op_sig: ty_tan_[op_dom_[o]] == op_tdom_[o] && ty_tan_[op_cod_[o]] == op_tcod_[o];
  //@ assert op_val: ty_valid(op_dom_[o]) && ty_valid(op_cod_[o]) && 0 <= op_tdom_[o] && 0 <= op_tcod_[o];
  //@ ghost fo_tr_lemma(CHAD_PREV, op_dom_[o], op_tdom_[o]);
  //@ ghost fo_tr_lemma(CHAD_COT, op_dom_[o], op_tdom_[o]);
  //@ ghost fo_tr_lemma(CHAD_PREV, op_cod_[o], op_tcod_[o]);
  //@ ghost fo_tr_lemma(CHAD_COT, op_cod_[o], op_tcod_[o]);
  //@ assert op_tys: pa == op_dom_[o] && ca == op_tdom_[o] && pt == op_cod_[o] && ct == op_tcod_[o];
  int lv = L(d1), d2 = k_ext(d1, ct);
  if (d2 < 0) return d2;
  //@ assert d2_lv: lvl_ty(d2, lv) == ct && ctx_parent_[d2] == d1 && ctx_type_[d2] == ct;
  //@ assert d2_lp: lvl_ty(d2, lp) == typ;
  int vp = V(d2, lp);
  //@ assert vp >= 0 ==> tm_ctx_[vp] == d2 && tm_ty_[vp] == typ && 0 <= vp < tm_count;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int dx = b_snd(vp);
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && ty_same(tm_ty_[dx], TY_LFUN, ca, cg) && 0 <= dx < tm_count;
  //@ assert dx >= 0 || dx == CHAD_E_CAPACITY;
  int vq = V(d2, lp);
  //@ assert vq >= 0 ==> tm_ctx_[vq] == d2 && tm_ty_[vq] == typ && 0 <= vq < tm_count;
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int xq = b_fst(vq);
  //@ assert xq >= 0 ==> tm_ctx_[xq] == d2 && tm_ty_[xq] == pa && 0 <= xq < tm_count;
  //@ assert xq >= 0 || xq == CHAD_E_CAPACITY;
  int v = V(d2, lv);
  //@ assert v >= 0 ==> tm_ctx_[v] == d2 && tm_ty_[v] == ct && 0 <= v < tm_count;
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  int dv = b_lop_dt(o, xq, v);
  //@ assert dv >= 0 ==> tm_ctx_[dv] == d2 && tm_ty_[dv] == ca && 0 <= dv < tm_count;
  //@ assert dv >= 0 || dv == CHAD_E_CAPACITY;
  //@ assert dx >= 0 ==> tm_ctx_[dx] == d2 && ty_same(tm_ty_[dx], TY_LFUN, ca, cg) && 0 <= dx < tm_count;
  int lin = b_lapp(dx, dv);
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d2 && tm_ty_[lin] == cg && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin >= 0 ==> ty_valid(ct) && llam_ok(ct, tm_ctx_[lin], tm_ty_[lin]);
  int lam = b_llam(ct, lin);
  //@ assert lam_at: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d1;
  //@ assert lam_ty: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, ct, cg);
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
  //@ assert lam_ty2: lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, ct, cg) && ty_valid(tm_ty_[lam]);
  //@ assert tm_count <= \at(tm_count, Pre) + 11;
  if (prim < 0) return prim;
  if (lam < 0) return lam;
  //@ assert p_at: 0 <= p < tm_count && tm_ctx_[p] == d && ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]);
  int r = let_unary_tail(p, prim, lam) /*@ ghost (d, d1, pt, ct, cg) */;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* one child: let p = R a in (op (fst p), \v. snd p (op' v)) for
 * fst, snd, sum, length, op, inl, inr: R a and p's extension here, the
 * rest in the kind's builder */
/*@ RULE_PRE(t, d, tm_kind_[t] == TM_FST || tm_kind_[t] == TM_SND || tm_kind_[t] == TM_SUM || tm_kind_[t] == TM_LENGTH || tm_kind_[t] == TM_OP || tm_kind_[t] == TM_INL || tm_kind_[t] == TM_INR);
    requires cg == trc(CHAD_COT, tm_ctx_[t]) && ty == tm_ty_[t];
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases REV_M(depth) - 2;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_unary(int t, int d, int cg, int ty, int ct, int depth)
{
  //@ assert node_ok(t) && msrc_ok(t) && msz_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int kind = tm_kind(t);
  int a = tm_a(t);
  //@ ghost int ta = tm_ty_[a];
  //@ assert 0 <= a < t && chad_msrc_[a] == 1 && tm_ctx_[a] == g;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a]);
  /* the size budget: R a and at most 14 nodes of this rule (or the whole
   * arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert un_budget: REV_K * chad_msz_[a] + 14 <= REV_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= REV_K * chad_msz_[t]; */
  //@ assert cg == trc(CHAD_COT, g) && lin(cg);
  //@ assert memo_ty_inv && trh(CHAD_COT, tau) && trh(CHAD_PREV, tau) && ct == chad_memo_ty_[CHAD_COT][tau] - 1;
  //@ assert un_lin: lin(ct) && ty_valid(ct);
  //@ ghost int pt = chad_memo_ty_[CHAD_PREV][tau] - 1;
  int p = rev(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  //@ assert pa_rev: tm_ctx_[p] == d && rev_ty(tm_ty_[p], ta, g) && 0 <= p < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a];
  //@ assert pa_memo: trh(CHAD_PREV, ta) && trh(CHAD_COT, ta) && trc(CHAD_COT, g) == cg && lin(cg);
  //@ assert pa_tau: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
  //@ ghost rev_tr_step(CHAD_PREV, ta);
  //@ ghost rev_tr_step(CHAD_COT, ta);
  //@ ghost rev_tr_step(CHAD_PREV, tau);
  //@ ghost rev_tr_step(CHAD_COT, tau);
  //@ ghost int pa = chad_memo_ty_[CHAD_PREV][ta] - 1;
  //@ ghost int ca = chad_memo_ty_[CHAD_COT][ta] - 1;
  //@ ghost int typ = tm_ty_[p];
  //@ assert pa_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_same(ty_right_[typ], TY_LFUN, ca, cg);
  //@ assert pa_valid: ty_valid(pa) && ty_valid(ca) && ty_valid(pt);
  int lp = L(d), d1 = rev_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d) && ctx_len_[d1] == lp + 1;
  //@ assert d1_lp: lvl_ty(d1, lp) == typ && 0 <= lp < ctx_len_[d1];
  //@ assert d1_at: unary_at(p, d, d1, lp, typ, pa, ca, cg);
  //@ ghost Built: ;
  int r;
  if (kind == TM_FST || kind == TM_SND) {
    //@ assert ty_kind_[ta] == TY_PROD && (kind == TM_FST ? ty_left_[ta] == tau : ty_right_[ta] == tau);
    //@ assert proj_pa: ty_kind_[pa] == TY_PROD && ty_kind_[ca] == TY_PROD;
    //@ assert proj_lin: lin(ty_left_[ca]) && lin(ty_right_[ca]);
    //@ assert proj_fst: kind == TM_FST ==> ty_left_[pa] == pt && ty_left_[ca] == ct;
    //@ assert proj_snd: kind == TM_SND ==> ty_right_[pa] == pt && ty_right_[ca] == ct;
    r = rev_proj_build(p, d1, lp, ct, kind == TM_SND) /*@ ghost (d, typ, pa, ca, pt, cg) */;
  } else if (kind == TM_SUM) {
    //@ assert sum_ok(ta) && tau == TY_ID_REAL;
    //@ assert sum_pa: ty_same(pa, TY_ARR, TY_ID_REAL, -1) && ty_same(ca, TY_ARR, TY_ID_REAL, -1);
    //@ assert sum_pt: pt == TY_ID_REAL && ct == TY_ID_REAL;
    r = rev_sum_build(p, d1, lp) /*@ ghost (d, typ, pa, ca, pt, ct, cg) */;
  } else if (kind == TM_LENGTH) {
    //@ assert arr_ok(ta) && tau == TY_ID_INT;
    //@ assert len_pa: ty_kind_[pa] == TY_ARR && pt == TY_ID_INT && ct == TY_ID_UNIT;
    r = rev_length_build(p, d1, lp, cg) /*@ ghost (d, typ, pa, ca, pt, ct) */;
  } else if (kind == TM_OP) {
    //@ assert op_ok(tm_aux_[t], ta) && tau == op_cod_[tm_aux_[t]];
    //@ assert 0 <= tm_aux_[t] < op_count && ta == op_dom_[tm_aux_[t]];
    r = rev_op_build(p, d1, lp, (int)tm_aux(t), ct) /*@ ghost (d, typ, pa, ca, pt, cg) */;
  } else {
    int is_inr = kind == TM_INR;
    //@ assert ty_kind_[tau] == TY_SUM && (is_inr == 0 ? ty_left_[tau] == ta : ty_right_[tau] == ta);
    int side = is_inr ? ty_left(ty) : ty_right(ty);
    //@ assert 0 <= side < ty_count && trh(CHAD_PREV, side);
    int other = memo_ty_get(CHAD_PREV, side);
    //@ assert inj_other: other == trm(CHAD_PREV, side);
    //@ assert inj_pt: is_inr == 0 ==> ty_same(pt, TY_SUM, pa, other);
    //@ assert inj_pt2: is_inr != 0 ==> ty_same(pt, TY_SUM, other, pa);
    /* other is a child of pt (Z3 took 13 s to get it from memo_ty_inv) */
    //@ assert inj_valid: ty_inv && ty_valid(pt) && ty_node_ok(pt) && ty_valid(other);
    //@ assert inj_ct: ty_kind_[ct] == TY_PROD && (is_inr == 0 ? ty_left_[ct] == ca : ty_right_[ct] == ca);
    r = rev_inj_build(p, d1, lp, ct, other, is_inr) /*@ ghost (d, typ, pa, ca, pt, cg) */;
  }
  //@ assert r_size: tm_count <= \at(tm_count, Built) + 14;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert r_grow: tables_grow{Built, Here} && side_same{Built, Here};
  //@ assert r_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, ct, cg);
  //@ assert r_memo1: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt;
  //@ assert r_memo2: trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
  //@ assert r_memo3: trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg;
  //@ assert r >= 0 ==> rev_ty(tm_ty_[r], \at(tm_ty_[t], Pre), \at(tm_ctx_[t], Pre));
  return r;
}
