/* R(var k)        = (var k, \v. onehot_k v)
 * (../shared/chad-rules.md, section 5, reverse mode)
 *   r_var           var k (b_var with the pass's frame)
 *   r_onehot        onehot_k v (chad_onehot_tuple with the pass's frame)
 *   rev_onehot_lin  the linear half  \v. onehot_k v
 *   rev_var         the rule: (var k, \v. onehot_k v)
 * Part of reverse.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* b_var seen from the pass (the frame proved once here, as for r_pair) */
/*@ requires REV_INV;
    terminates \true; assigns CH_TM_LOCS;
    ensures REV_INV;
    ensures CH_UNCHANGED; ensures CH_GROW1; ensures \old(ty_count) == ty_count;
    ensures d < 0 ==> \result == d;
    ensures \result >= 0 ==> 0 <= lvl < ctx_len_[d] && \result == \old(tm_count) &&
      tm_count == \old(tm_count) + 1 &&
      tm_ctx_[\result] == d && tm_ty_[\result] == lvl_ty(d, lvl);
    ensures ctx_valid(d) && 0 <= lvl < ctx_len_[d] ==> OKCAP;
*/
static int r_var(int d, int lvl)
{
  int r = b_var(d, lvl);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert memo_inv;
  //@ assert tsrc_inv;
  //@ assert csrc_inv;
  /*@ assert \forall integer u; 0 <= u < CHAD_MAX_TERMS && chad_msrc_[u] == 1 ==>
        \at(msrc_ok(u) && msz_ok(u), Pre); */
  //@ assert msrc_inv;
  //@ assert cot_lin;
  return r;
}

/* chad_onehot_tuple seen from the pass (the frame proved once here) */
/*@ requires REV_INV;
    requires 0 < g < ctx_count && trch(CHAD_COT, g) && 0 <= k < ctx_len_[g];
    requires v < 0 || (0 <= v < tm_count && ctx_valid(tm_ctx_[v]) &&
      trh(CHAD_COT, ctx_lk(g, k)) && tm_ty_[v] == trm(CHAD_COT, ctx_lk(g, k)));
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, chad_chain_[0 .. CHAD_MAX_CTXS - 1];
    ensures REV_INV;
    ensures \old(tm_count) <= tm_count <= \old(tm_count) + 2 * k + 2;
    ensures \old(ty_count) <= ty_count;
    ensures v < 0 ==> \result == v;
    ensures v >= 0 ==> \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures \result >= 0 ==> \old(tm_count) <= \result < tm_count &&
      tm_ctx_[\result] == \old(tm_ctx_[v]) && tm_ty_[\result] == trc(CHAD_COT, g);
*/
static int r_onehot(int v, int g, int k)
{
  //@ assert memo_inv && cot_lin;
  int r = chad_onehot_tuple(v, g, k);
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert memo_inv;
  /* tsrc_inv and msrc_inv over the callee's range appends: without the two
   * field frames below (older entries unchanged) each timed out (20 s, all
   * three provers); with them Z3 answers at once */
  /*@ assert \forall integer x; 0 <= x < CHAD_MAX_TYPES && chad_tsrc_[x] == 1 ==>
        \at(tsrc_ok(x), Pre); */
  /*@ assert \forall integer x; 0 <= x < \at(ty_count, Pre) ==> ty_kind_[x] == \at(ty_kind_[x], Pre) &&
        ty_left_[x] == \at(ty_left_[x], Pre) && ty_right_[x] == \at(ty_right_[x], Pre); */
  //@ assert tsrc_inv;
  //@ assert csrc_inv;
  /*@ assert \forall integer u; 0 <= u < CHAD_MAX_TERMS && chad_msrc_[u] == 1 ==>
        \at(msrc_ok(u) && msz_ok(u), Pre); */
  /*@ assert \forall integer u; 0 <= u < \at(tm_count, Pre) ==> tm_kind_[u] == \at(tm_kind_[u], Pre) &&
        tm_ctx_[u] == \at(tm_ctx_[u], Pre) && tm_ty_[u] == \at(tm_ty_[u], Pre) &&
        tm_a_[u] == \at(tm_a_[u], Pre) && tm_b_[u] == \at(tm_b_[u], Pre) &&
        tm_c_[u] == \at(tm_c_[u], Pre) && tm_aux_[u] == \at(tm_aux_[u], Pre); */
  //@ assert msrc_inv;
  //@ assert cot_lin;
  return r;
}

/* The linear half of R(var k): \v. onehot_k v : C tau -o C G, in d (v is
 * the new last level of d1 = d, C tau). Its own function so that the frame
 * of rev_ext is carried by this contract (see rev_zero_lin). */
/*@ requires REV_INV;
    requires ctx_valid(d) && lin(ct);
    requires 0 < g < ctx_count && trch(CHAD_COT, g) && 0 <= k < ctx_len_[g];
    requires trh(CHAD_COT, ctx_lk(g, k)) && ct == trm(CHAD_COT, ctx_lk(g, k));
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTX_LOCS, CH_EXT_STATE,
      chad_chain_[0 .. CHAD_MAX_CTXS - 1];
    ensures REV_INV;
    ensures \old(tm_count) <= tm_count <= \old(tm_count) + 2 * k + 4;
    ensures \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures env_keep{Pre, Post};
    ensures \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_same(tm_ty_[\result], TY_LFUN, ct, trc(CHAD_COT, g));
    ensures \result >= 0 || \result == CHAD_E_CAPACITY;
*/
static int rev_onehot_lin(int d, int g, int k, int ct)
{
  int lv = L(d);
  //@ ghost int n0 = ctx_count;
  int d1 = rev_ext(d, ct);
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  /* g's lookups after the extension: the older entries are unchanged (the
   * assigns clause), so by induction on the context, parents first */
  /*@ ghost
    int h = 0;
    /@ loop invariant 0 <= h <= n0;
       loop invariant \forall integer h2, k2; 0 <= h2 < h ==>
         ctx_lk(h2, k2) == \at(ctx_lk(h2, k2), Pre);
       loop assigns h;
       loop variant n0 - h;
    @/
    for (h = 0; h < n0; h++) {
      /@ assert \let hh = h; ctx_parent_[hh] == \at(ctx_parent_[hh], Pre); @/
      /@ assert \let hh = h; ctx_type_[hh] == \at(ctx_type_[hh], Pre); @/
      /@ assert \let hh = h; \forall integer k2; ctx_lk(hh, k2) == \at(ctx_lk(hh, k2), Pre); @/
    }
  */
  //@ assert ctx_lk(g, k) == \at(ctx_lk(g, k), Pre);
  //@ assert d1 >= 0 ==> ctx_valid(d1) && ctx_len_[d1] == lv + 1 && lvl_ty(d1, lv) == ct;
  int v = r_var(d1, lv);
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  //@ assert v >= 0 ==> 0 <= v < tm_count && tm_ctx_[v] == d1 && ctx_valid(d1) && tm_ty_[v] == ct;
  //@ assert trh(CHAD_COT, ctx_lk(g, k)) && ct == trm(CHAD_COT, ctx_lk(g, k));
  int body = r_onehot(v, g, k);
  //@ assert body >= 0 || body == CHAD_E_CAPACITY;
  //@ assert body >= 0 ==> tm_ctx_[body] == d1 && tm_ty_[body] == trc(CHAD_COT, g) && 0 <= body < tm_count;
  //@ assert cot_lin && lin(trc(CHAD_COT, g));
  //@ assert body >= 0 ==> llam_ok(ct, tm_ctx_[body], tm_ty_[body]);
  int lam = r_llam(ct, body);
  return lam;
}

/* R(var k) = (x, \v. onehot_k v), x the level of k in d */
/*@ RULE_PRE(t, d, tm_kind_[t] == TM_VAR);
    requires g == tm_ctx_[t];
    terminates \true;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_var(int t, int d, int g, int ct)
{
  //@ assert node_ok(t) && msrc_ok(t) && msz_ok(t);
  //@ assert 0 <= tm_aux_[t] < ctx_len_[g] && tm_ty_[t] == ctx_lk(g, tm_aux_[t]);
  //@ assert ctx_valid(g) && ctx_len_[g] <= g < CHAD_MAX_CTXS;
  int k = (int)tm_aux(t);
  int kind = ENV_LEVEL;
  //@ assert env_kind(k) == ENV_LEVEL && 0 <= env_val(k) < ctx_len_[d];
  //@ assert trh(CHAD_PREV, ctx_lk(g, k)) && lvl_ty(d, env_val(k)) == trm(CHAD_PREV, ctx_lk(g, k));
  //@ assert k < env_n + venv_cur.idlen;
  int lvl = venv_lookup(k, &kind);
  //@ assert lvl == env_val(k) && kind == ENV_LEVEL;
  if (lvl < 0)
    return lvl;
  if (kind != ENV_LEVEL)
    return CHAD_E_ARG;
  //@ assert 0 < g && trch(CHAD_COT, g) && lin(ct) && lin(trc(CHAD_COT, g));
  //@ ghost int tau = tm_ty_[t];
  //@ assert lvl_ty(d, lvl) == trm(CHAD_PREV, tau);
  int lam = rev_onehot_lin(d, g, k, ct);
  //@ ghost Lin: ;
  //@ assert lam >= 0 || lam == CHAD_E_CAPACITY;
  //@ assert lam >= 0 ==> tm_ctx_[lam] == d && 0 <= lam < tm_count;
  //@ assert lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, ct, trc(CHAD_COT, g)) && ty_valid(tm_ty_[lam]);
  //@ assert \let l = lvl; ctx_len_[d] == \at(ctx_len_[d], Pre) && lvl_ty(d, l) == \at(lvl_ty(d, l), Pre);
  int x = r_var(d, lvl);
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  //@ assert x >= 0 ==> tm_ctx_[x] == d && tm_ty_[x] == trm(CHAD_PREV, tau) && 0 <= x < tm_count;
  //@ assert lam >= 0 ==> ty_same(tm_ty_[lam], TY_LFUN, ct, trc(CHAD_COT, g)) && ty_valid(tm_ty_[lam]);
  //@ ghost Lam: ;
  int r = r_pair(x, lam);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  /* the result type in steps (as for rev_const) */
  //@ assert r >= 0 ==> tm_ctx_[r] == d && ty_same(tm_ty_[r], TY_PROD, trm(CHAD_PREV, tau), tm_ty_[lam]);
  //@ assert r >= 0 ==> \at(tm_count, Pre) <= r < tm_count && ty_valid(tm_ty_[r]);
  //@ assert r >= 0 ==> tm_ty_[lam] == \at(tm_ty_[lam], Lam) && tm_ty_[lam] < \at(ty_count, Lam);
  //@ assert r >= 0 ==> ty_same(ty_right_[tm_ty_[r]], TY_LFUN, ct, trc(CHAD_COT, g));
  //@ assert r >= 0 ==> ty_left_[tm_ty_[r]] == trm(CHAD_PREV, \at(tm_ty_[t], Pre));
  //@ assert r >= 0 ==> rev_ty(tm_ty_[r], \at(tm_ty_[t], Pre), \at(tm_ctx_[t], Pre));
  //@ assert tm_count <= \at(tm_count, Pre) + 2 * k + 6;
  //@ assert chad_msz_[t] == sat(k + 1);
  /* the size bound: Z3 had run to its 30 s limit on it (cvc5: 2.2 s) */
  //@ assert 2 * k + 6 <= REV_K * chad_msz_[t];
  //@ assert tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  return r;
}
