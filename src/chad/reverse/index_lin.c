/* R(index a i)    = let (x,dx) = R a; (j,_) = R i in (x[j], \v. dx (onehot_{length x, j} v))
 * (../shared/chad-rules.md, section 5, reverse mode)
 *   rev_index_lin  the linear half  \v. dx (onehot_{length x, j} v)  (the rest in reverse/index.c)
 * Part of reverse.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* The linear half of R(index a b), in d2 where level lp holds p = R a
 * (type tp = P(Arr tau) * (ca -o cg), ca = C(Arr tau) = Arr C tau) and
 * level lq holds q = R b (type tq = Int * _):
 *   \v. snd p (onehot (fst q) v)    : C tau -o C G
 * (ct = C tau, cg = C G). Against the kernel's invariant only, as
 * rev_pair_lin. */
/*@ requires kernel_inv;
    requires ctx_valid(d2) && lin(ct) && lin(cg);
    requires ty_valid(ca) && ty_same(ca, TY_ARR, ct, -1);
    requires 0 <= lp < ctx_len_[d2] && lvl_ty(d2, lp) == tp && ty_valid(tp) &&
      ty_kind_[tp] == TY_PROD && ty_same(ty_right_[tp], TY_LFUN, ca, cg);
    requires 0 <= lq < ctx_len_[d2] && lvl_ty(d2, lq) == tq && ty_valid(tq) &&
      ty_kind_[tq] == TY_PROD && ty_left_[tq] == TY_ID_INT;
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures idx_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d2 &&
      ty_same(tm_ty_[\result], TY_LFUN, ct, cg);
    ensures idx_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures idx_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 8;
    ensures idx_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures idx_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures idx_lin_lvl: \forall integer l; 0 <= l < ctx_len_[d2] ==> lvl_ty(d2, l) == \old(lvl_ty(d2, l));
    ensures env_keep{Pre, Post};
*/
static int rev_index_lin(int d2, int lp, int lq, int ct) /*@ ghost (int cg, int ca, int tp, int tq) */
{
  int lv = L(d2), d3 = k_ext(d2, ct);
  if (d3 < 0) return d3;
  //@ assert lvl_ty(d3, lv) == ct && lvl_ty(d3, lp) == tp && lvl_ty(d3, lq) == tq;
  int vp = V(d3, lp);
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d3 && ty_same(tm_ty_[sp], TY_LFUN, ca, cg) && 0 <= sp < tm_count;
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int vq = V(d3, lq);
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int jq = b_fst(vq);
  //@ assert jq >= 0 ==> tm_ctx_[jq] == d3 && tm_ty_[jq] == TY_ID_INT && 0 <= jq < tm_count;
  //@ assert jq >= 0 || jq == CHAD_E_CAPACITY;
  int v = V(d3, lv);
  //@ assert v >= 0 ==> tm_ctx_[v] == d3 && tm_ty_[v] == ct && 0 <= v < tm_count;
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  //@ assert jq >= 0 && v >= 0 ==> onehot_ok(tm_ctx_[jq], tm_ty_[jq], tm_ctx_[v], tm_ty_[v]);
  int oh = b_onehot(jq, v);
  //@ assert oh >= 0 ==> tm_ctx_[oh] == d3 && ty_same(tm_ty_[oh], TY_ARR, ct, -1) && ty_valid(tm_ty_[oh]) && 0 <= oh < tm_count;
  //@ assert oh >= 0 || oh == CHAD_E_CAPACITY;
  //@ assert ty_inv && ty_valid(ca) && ty_same(ca, TY_ARR, ct, -1);
  //@ assert oh >= 0 ==> tm_ty_[oh] == ca;
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d3 && ty_same(tm_ty_[sp], TY_LFUN, ca, cg) && 0 <= sp < tm_count;
  int ap = b_lapp(sp, oh);
  //@ assert ap >= 0 ==> tm_ctx_[ap] == d3 && tm_ty_[ap] == cg && 0 <= ap < tm_count;
  //@ assert ap >= 0 || ap == CHAD_E_CAPACITY;
  //@ assert ap >= 0 ==> ty_valid(ct) && 0 <= ap < tm_count && llam_ok(ct, tm_ctx_[ap], tm_ty_[ap]);
  //@ assert ctx_parent_[d3] == d2;
  int r = b_llam(ct, ap);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d2;
  //@ assert r >= 0 ==> ty_same(tm_ty_[r], TY_LFUN, ct, cg);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}
