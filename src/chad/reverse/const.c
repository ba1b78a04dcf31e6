/* R(unit)         = (unit, \v. 0)
 * (../shared/chad-rules.md, section 5, reverse mode)
 *   rev_rconst      the primal of a real constant
 *   rev_const_prim  the primal of unit and the constants (the same constant)
 *   rev_zero_lin    the linear half  \v. 0
 *   rev_const       the rule, for unit, rconst r and iconst n: (c, \v. 0)
 * Part of reverse.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* rconst r in d (the double stays in this function's goals) */
/*@ requires kernel_inv;
    requires 0 <= t < tm_count && ctx_valid(d);
    terminates \true;
    assigns CH_TM_LOCS;
    ensures kernel_inv;
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures \result < 0 ==> tm_count == \old(tm_count);
    ensures \result >= 0 ==> \result == \old(tm_count) && tm_count == \old(tm_count) + 1 &&
      tm_ctx_[\result] == d && tm_ty_[\result] == TY_ID_REAL;
*/
static int rev_rconst(int t, int d)
{
  return tm_rconst(d, tm_rval_[t]);
}

/* The primal of a constant: the same constant in d (P tau = tau for Unit,
 * Real, Int). A function of its own so that the double it copies stays out
 * of the rule's proof goals. */
/*@ requires kernel_inv;
    requires 0 <= t < tm_count && ctx_valid(d);
    requires tm_kind_[t] == TM_UNIT || tm_kind_[t] == TM_RCONST || tm_kind_[t] == TM_ICONST;
    terminates \true;
    assigns CH_TM_LOCS;
    ensures kernel_inv;
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures \result < 0 ==> tm_count == \old(tm_count);
    ensures \result >= 0 ==> \result == \old(tm_count) && tm_count == \old(tm_count) + 1 &&
      tm_ctx_[\result] == d && tm_ty_[\result] == \old(tm_ty_[t]);
*/
static int rev_const_prim(int t, int d)
{
  //@ assert node_ok(t);
  //@ ghost int ty = tm_ty_[t];
  int k = tm_kind(t);
  int r;
  if (k == TM_UNIT) {
    //@ assert ty == TY_ID_UNIT;
    r = b_unit(d);
  } else if (k == TM_RCONST) {
    //@ assert ty == TY_ID_REAL;
    r = rev_rconst(t, d);
  } else {
    //@ assert ty == TY_ID_INT;
    r = tm_iconst(d, tm_aux(t));
  }
  //@ assert prim_ty: r >= 0 ==> tm_ty_[r] == ty;
  return r;
}

/* The linear half of R(unit | rconst | iconst): \v. 0 of type C tau -o C G,
 * in d. A function of its own so that the frame of rev_ext (the
 * environment, the lookups) is carried by this small contract rather than
 * found by the solvers among the many states of the rule. */
/*@ requires REV_INV;
    requires ctx_valid(d) && lin(ct) && lin(cg);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTX_LOCS, CH_EXT_STATE;
    ensures REV_INV;
    ensures \old(tm_count) <= tm_count <= \old(tm_count) + 2;
    ensures \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures env_keep{Pre, Post};
    ensures \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_same(tm_ty_[\result], TY_LFUN, ct, cg);
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
*/
static int rev_zero_lin(int d, int cg, int ct)
{
  int d1 = rev_ext(d, ct);
  //@ ghost Ext: ;
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1 >= 0 ==> ctx_is_ext(d1, d, ct) && ctx_valid(d1);
  //@ assert lin(ct) && lin(cg);
  int z = b_zero(d1, cg);
  //@ assert z >= 0 ==> tm_ctx_[z] == d1 && tm_ty_[z] == cg && 0 <= z < tm_count;
  //@ assert z >= 0 || z == CHAD_E_CAPACITY;
  //@ assert tables_grow{Ext, Here} && side_same{Ext, Here};
  //@ assert memo_inv;
  //@ assert tsrc_inv;
  //@ assert msrc_inv;
  //@ assert csrc_inv;
  //@ assert cot_lin;
  //@ assert lin(ct) && lin(cg);
  int lam = r_llam(ct, z);
  return lam;
}

/* R(unit | rconst r | iconst n) = (c, \v. 0) */
/*@ RULE_PRE(t, d, tm_kind_[t] == TM_UNIT || tm_kind_[t] == TM_RCONST || tm_kind_[t] == TM_ICONST);
    requires cg == trc(CHAD_COT, tm_ctx_[t]);
    terminates \true;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_const(int t, int d, int cg, int ct)
{
  //@ assert node_ok(t) && msrc_ok(t) && msz_ok(t);
  //@ assert ty_inv && ty_node_ok(tm_ty_[t]);
  //@ assert tm_ty_[t] == TY_ID_UNIT || tm_ty_[t] == TY_ID_REAL || tm_ty_[t] == TY_ID_INT;
  //@ assert memo_ty_inv && trh(CHAD_PREV, tm_ty_[t]);
  //@ ghost int pt = chad_memo_ty_[CHAD_PREV][tm_ty_[t]] - 1;
  //@ assert pt == tm_ty_[t];
  //@ assert lin(ct) && lin(cg);
  int prim = rev_const_prim(t, d);
  //@ assert prim >= 0 ==> \at(tm_count, Pre) <= prim < tm_count && tm_ctx_[prim] == d && tm_ty_[prim] == pt;
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 1;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert memo_inv;
  //@ assert tsrc_inv;
  //@ assert csrc_inv;
  //@ assert msrc_inv;
  //@ assert cot_lin;
  //@ assert lin(ct) && lin(cg);
  //@ ghost Prim: ;
  int lam = rev_zero_lin(d, cg, ct);
  //@ assert lam >= 0 ==> tm_ctx_[lam] == d && ty_same(tm_ty_[lam], TY_LFUN, ct, cg) && 0 <= lam < tm_count;
  //@ assert lam >= 0 ==> ty_valid(tm_ty_[lam]);
  //@ assert lam >= 0 || lam == CHAD_E_CAPACITY;
  /* the pair's operands as r_pair's contract reads them (Z3 had needed
   * its full limit for the two asserts after the call) */
  //@ assert prim >= 0 ==> 0 <= prim < tm_count && tm_ctx_[prim] == d && tm_ty_[prim] == pt;
  //@ assert prim >= 0 && lam >= 0 ==> tm_ctx_[prim] == tm_ctx_[lam];
  //@ ghost Lam: ;
  int r = r_pair(prim, lam);
  //@ assert r >= 0 ==> tm_ctx_[r] == d && ty_same(tm_ty_[r], TY_PROD, pt, tm_ty_[lam]);
  //@ assert r >= 0 ==> \at(tm_count, Pre) <= r < tm_count && ty_valid(tm_ty_[r]);
  //@ assert r >= 0 ==> tm_ty_[lam] == \at(tm_ty_[lam], Lam) && tm_ty_[lam] < \at(ty_count, Lam);
  //@ assert r >= 0 ==> ty_same(ty_right_[tm_ty_[r]], TY_LFUN, ct, cg);
  //@ assert r >= 0 ==> ty_left_[tm_ty_[r]] == trm(CHAD_PREV, \at(tm_ty_[t], Pre));
  //@ assert r >= 0 ==> rev_ty(tm_ty_[r], \at(tm_ty_[t], Pre), \at(tm_ctx_[t], Pre));
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 4;
  return r;
}
