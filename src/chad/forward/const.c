/* F(unit)         = (unit, \v. 0)
 * (../shared/chad-rules.md, section 4, forward mode)
 *   fwd_const  the rule, for unit and the constants: (c, \v. 0) (primal: f_const_prim in forward.c)
 * Part of forward.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* F(c) = (c, \v. 0) for unit and the constants */
/*@ FWD_REQ; FWD_ENV; FWD_TG;
    requires tm_kind_[t] == TM_UNIT || tm_kind_[t] == TM_RCONST || tm_kind_[t] == TM_ICONST;
    terminates \true;
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_const(int t, int d, int tg, int depth)
{
  (void)depth;
  //@ assert node_ok(t);
  //@ assert msz_ok(t);
  //@ ghost int tau = tm_ty_[t];
  //@ assert ty_inv && ty_node_ok(tau);
  //@ assert tau == TY_ID_UNIT || tau == TY_ID_REAL || tau == TY_ID_INT;
  //@ ghost tr_step(CHAD_PFWD, tau);
  //@ ghost tr_step(CHAD_TAN, tau);
  //@ assert const_p: trm(CHAD_PFWD, tau) == tau;
  //@ assert const_t: trm(CHAD_TAN, tau) == TY_ID_UNIT || trm(CHAD_TAN, tau) == TY_ID_REAL;
  //@ assert ty_node_ok(TY_ID_UNIT);
  //@ assert ty_node_ok(TY_ID_REAL);
  //@ assert const_lin: lin(trm(CHAD_TAN, tau));
  int prim = f_const_prim(t, d);
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert prim >= 0 ==> tm_ctx_[prim] == d && tm_ty_[prim] == trm(CHAD_PFWD, tau);
  /* T Real = Real, T Int = T Unit = Unit (card §3) */
  int tt = tm_kind(t) == TM_RCONST ? TY_ID_REAL : TY_ID_UNIT;
  //@ assert tt == trm(CHAD_TAN, tau);
  int d1 = f_ext(d, tg);
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1 >= 0 ==> ctx_type_[d1] == tg && ctx_parent_[d1] == d;
  int z = f_zero(d1, tt);
  //@ assert z >= 0 || z == CHAD_E_CAPACITY;
  //@ assert z >= 0 ==> tm_ctx_[z] == d1 && tm_ty_[z] == trm(CHAD_TAN, tau);
  int lam = f_llam(tg, z);
  //@ assert lam >= 0 || lam == CHAD_E_CAPACITY;
  /*@ assert const_lam: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d &&
        ty_same(tm_ty_[lam], TY_LFUN, tg, trm(CHAD_TAN, tau)); */
  //@ assert const_size: tm_count <= \at(tm_count, Pre) + 3;
  int r = f_pair(prim, lam);
  //@ assert r >= 0 ==> ty_node_ok(tm_ty_[r]);
  return r;
}
