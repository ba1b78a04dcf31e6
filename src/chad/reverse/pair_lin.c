/* R(pair t s)     = let (x,dx) = R t; (y,dy) = R s in ((x,y), \v. dx (fst v) + dy (snd v))
 * (../shared/chad-rules.md, section 5, reverse mode)
 *   rev_pair_lin  the linear half  \v. dx (fst v) + dy (snd v)  (the rest in reverse/pair.c)
 * Part of reverse.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* The linear half of R(pair a b), in d2 where level lp holds p = R a and
 * level lq holds q = R b:   \v. snd p (fst v) + snd q (snd v)
 * of type C(a * b) -o C G, with ct = C(a * b) = C a * C b. */
/*@ requires kernel_inv;
    requires ctx_valid(d2) && ty_valid(ct) && ty_kind_[ct] == TY_PROD && lin(cg);
    requires lin_at(d2, lp, ty_left_[ct], cg) && lin_at(d2, lq, ty_right_[ct], cg);
    terminates \true;
    assigns CH_TM_LOCS, CH_TMS_LOCS, CH_TYS_LOCS, CH_CTX_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures pair_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d2 &&
      ty_same(tm_ty_[\result], TY_LFUN, ct, cg);
    ensures pair_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures pair_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 12;
    ensures pair_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures pair_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures pair_lin_lvl: \forall integer l; 0 <= l < ctx_len_[d2] ==> lvl_ty(d2, l) == \old(lvl_ty(d2, l));
    ensures env_keep{Pre, Post};
*/
static int rev_pair_lin(int d2, int lp, int lq, int ct) /*@ ghost (int cg) */
{
  //@ ghost int ca = ty_left_[ct];
  //@ ghost int cb = ty_right_[ct];
  //@ assert ty_node_ok(ct);
  int lv = L(d2), d3 = k_ext(d2, ct);
  if (d3 < 0) return d3;
  //@ assert lvl_ty(d3, lv) == ct && lvl_ty(d3, lp) == lvl_ty(d2, lp) && lvl_ty(d3, lq) == lvl_ty(d2, lq);
  int vp = V(d3, lp);
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d3 && ty_same(tm_ty_[sp], TY_LFUN, ca, cg);
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int v1 = V(d3, lv);
  //@ assert v1 >= 0 ==> tm_ctx_[v1] == d3 && tm_ty_[v1] == ct;
  //@ assert v1 >= 0 || v1 == CHAD_E_CAPACITY;
  int x1 = b_fst(v1);
  //@ assert x1 >= 0 ==> tm_ctx_[x1] == d3 && tm_ty_[x1] == ca;
  //@ assert x1 >= 0 || x1 == CHAD_E_CAPACITY;
  int l1 = b_lapp(sp, x1);
  //@ assert l1 >= 0 ==> tm_ctx_[l1] == d3 && tm_ty_[l1] == cg;
  //@ assert l1 >= 0 || l1 == CHAD_E_CAPACITY;
  int vq = V(d3, lq);
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int sq = b_snd(vq);
  //@ assert sq >= 0 ==> tm_ctx_[sq] == d3 && ty_same(tm_ty_[sq], TY_LFUN, cb, cg);
  //@ assert sq >= 0 || sq == CHAD_E_CAPACITY;
  int v2 = V(d3, lv);
  //@ assert v2 >= 0 ==> tm_ctx_[v2] == d3 && tm_ty_[v2] == ct;
  //@ assert v2 >= 0 || v2 == CHAD_E_CAPACITY;
  int x2 = b_snd(v2);
  //@ assert x2 >= 0 ==> tm_ctx_[x2] == d3 && tm_ty_[x2] == cb;
  //@ assert x2 >= 0 || x2 == CHAD_E_CAPACITY;
  int l2 = b_lapp(sq, x2);
  //@ assert l2 >= 0 ==> tm_ctx_[l2] == d3 && tm_ty_[l2] == cg;
  //@ assert l2 >= 0 || l2 == CHAD_E_CAPACITY;
  int sum = b_plus(l1, l2);
  //@ assert sum >= 0 ==> tm_ctx_[sum] == d3 && tm_ty_[sum] == cg;
  //@ assert sum >= 0 || sum == CHAD_E_CAPACITY;
  //@ assert sum >= 0 ==> ty_valid(ct) && 0 <= sum < tm_count && llam_ok(ct, tm_ctx_[sum], tm_ty_[sum]);
  //@ assert ctx_parent_[d3] == d2;
  int r = b_llam(ct, sum);
  /* pair_lin_type in steps: as one goal it ran Z3 and cvc5 to their 30 s
   * limits before CVC4 proved it (66 CPU-s of rev-fns) */
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d2;
  //@ assert r >= 0 ==> ty_same(tm_ty_[r], TY_LFUN, ct, cg);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d2 && ty_same(tm_ty_[r], TY_LFUN, ct, cg);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}
