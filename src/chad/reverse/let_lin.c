/* R(let t (x.s))  = let (x,dx) = R t; (y,dy) = R_{G,x} s in
 *                   (y, \v. let (g,gx) = dy v in g + dx gx)
 * (../shared/chad-rules.md, section 5, reverse mode)
 *   rev_let_lin  the linear half  \v. let (g,gx) = dy v in g + dx gx  (the rest in reverse/let.c)
 * Part of reverse.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* The linear half of R(let a (x. b)), in d3 where level lp holds
 * p = R a : P a * (C a -o C G) (type tp) and level lq holds
 * q = R_{G,x} b : P tau * (C tau -o C(G, x)) (type tq), with
 * C(G, x) = C G * C a (cgb):
 *   \v. let g = snd q v in fst g + snd p (snd g)    : C tau -o C G
 * (ct = C tau, cg = C G, ca = C a). Against the kernel's invariant only,
 * as rev_pair_lin. */
/*@ requires kernel_inv;
    requires ctx_valid(d3) && ty_valid(ct) && lin(cg);
    requires ty_valid(cgb) && ty_same(cgb, TY_PROD, cg, ca);
    requires 0 <= lp < ctx_len_[d3] && lvl_ty(d3, lp) == tp && ty_valid(tp) &&
      ty_kind_[tp] == TY_PROD && ty_same(ty_right_[tp], TY_LFUN, ca, cg);
    requires 0 <= lq < ctx_len_[d3] && lvl_ty(d3, lq) == tq && ty_valid(tq) &&
      ty_kind_[tq] == TY_PROD && ty_same(ty_right_[tq], TY_LFUN, ct, cgb);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures let_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d3 &&
      ty_same(tm_ty_[\result], TY_LFUN, ct, cg);
    ensures let_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures let_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 14;
    ensures let_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures let_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures env_keep{Pre, Post};
*/
static int rev_let_lin(int d3, int lp, int lq, int ct)
  /*@ ghost (int cg, int ca, int cgb, int tp, int tq) */
{
  //@ assert ty_inv && ty_node_ok(tp) && ty_node_ok(tq);
  //@ ghost int tsp = ty_right_[tp];
  //@ ghost int tsq = ty_right_[tq];
  //@ assert ty_valid(tsp) && ty_valid(tsq);
  int lv = L(d3), d4 = k_ext(d3, ct);
  if (d4 < 0) return d4;
  //@ ghost E4: ;
  //@ assert d4_lv: lvl_ty(d4, lv) == ct && lv == ctx_len_[d3];
  //@ assert d4_lp: lvl_ty(d4, lp) == tp && lvl_ty(d4, lq) == tq;
  //@ assert d4_ctx: ctx_valid(d4) && ctx_is_ext(d4, d3, ct) && ctx_len_[d4] == lv + 1;
  int vq = b_var(d4, lq);
  //@ assert vq >= 0 ==> tm_ctx_[vq] == d4 && tm_ty_[vq] == tq && 0 <= vq < tm_count;
  //@ assert vq >= 0 || vq == CHAD_E_CAPACITY;
  int sq = b_snd(vq);
  //@ assert sq >= 0 ==> tm_ctx_[sq] == d4 && ty_same(tm_ty_[sq], TY_LFUN, ct, cgb) && 0 <= sq < tm_count;
  //@ assert sq >= 0 || sq == CHAD_E_CAPACITY;
  int v = b_var(d4, lv);
  //@ assert v >= 0 ==> tm_ctx_[v] == d4 && tm_ty_[v] == ct && 0 <= v < tm_count;
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  int gg = b_lapp(sq, v);
  //@ assert gg >= 0 ==> tm_ctx_[gg] == d4 && tm_ty_[gg] == cgb && 0 <= gg < tm_count;
  //@ assert gg >= 0 || gg == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 4;
  if (gg < 0) return gg;
  int lg = L(d4), d5 = k_ext(d4, tm_type(gg));
  if (d5 < 0) return d5;
  //@ assert d5_lg: lvl_ty(d5, lg) == cgb && lg == ctx_len_[d4];
  //@ assert d5_lp: lvl_ty(d5, lp) == tp;
  //@ assert d5_ctx: ctx_valid(d5) && ctx_is_ext(d5, d4, cgb) && ctx_len_[d5] == lg + 1;
  int w1 = b_var(d5, lg);
  //@ assert w1 >= 0 ==> tm_ctx_[w1] == d5 && tm_ty_[w1] == cgb && 0 <= w1 < tm_count;
  //@ assert w1 >= 0 || w1 == CHAD_E_CAPACITY;
  int f = b_fst(w1);
  //@ assert f >= 0 ==> tm_ctx_[f] == d5 && tm_ty_[f] == cg && 0 <= f < tm_count;
  //@ assert f >= 0 || f == CHAD_E_CAPACITY;
  int vp = b_var(d5, lp);
  //@ assert vp >= 0 ==> tm_ctx_[vp] == d5 && tm_ty_[vp] == tp && 0 <= vp < tm_count;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> tm_ctx_[sp] == d5 && ty_same(tm_ty_[sp], TY_LFUN, ca, cg) && 0 <= sp < tm_count;
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  int w2 = b_var(d5, lg);
  //@ assert w2 >= 0 ==> tm_ctx_[w2] == d5 && tm_ty_[w2] == cgb && 0 <= w2 < tm_count;
  //@ assert w2 >= 0 || w2 == CHAD_E_CAPACITY;
  int s = b_snd(w2);
  //@ assert s >= 0 ==> tm_ctx_[s] == d5 && tm_ty_[s] == ca && 0 <= s < tm_count;
  //@ assert s >= 0 || s == CHAD_E_CAPACITY;
  int ap = b_lapp(sp, s);
  //@ assert ap >= 0 ==> tm_ctx_[ap] == d5 && tm_ty_[ap] == cg && 0 <= ap < tm_count;
  //@ assert ap >= 0 || ap == CHAD_E_CAPACITY;
  //@ assert f >= 0 ==> tm_ctx_[f] == d5 && tm_ty_[f] == cg && 0 <= f < tm_count;
  int pl = b_plus(f, ap);
  //@ assert pl >= 0 ==> tm_ctx_[pl] == d5 && tm_ty_[pl] == cg && 0 <= pl < tm_count;
  //@ assert pl >= 0 || pl == CHAD_E_CAPACITY;
  //@ assert tm_ctx_[gg] == d4 && tm_ty_[gg] == cgb && 0 <= gg < tm_count && ctx_is_ext(d5, d4, cgb);
  int body = b_let(gg, pl);
  //@ assert body >= 0 ==> tm_ctx_[body] == d4 && tm_ty_[body] == cg && 0 <= body < tm_count;
  //@ assert body >= 0 || body == CHAD_E_CAPACITY;
  //@ assert ctx_is_ext(d4, d3, ct) && lin(cg);
  //@ assert body >= 0 ==> ty_valid(ct) && 0 <= body < tm_count && llam_ok(ct, tm_ctx_[body], tm_ty_[body]);
  int r = b_llam(ct, body);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d3;
  //@ assert r >= 0 ==> ty_same(tm_ty_[r], TY_LFUN, ct, cg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 14;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}
