/* F(var k)        = (var k, \v. proj_k v)
 * (../shared/chad-rules.md, section 4, forward mode)
 *   fwd_var  the rule: (var k, \v. proj_k v) (f_var, f_proj: forward.c's helpers)
 * Part of forward.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* F(var k) = (x, \v. proj_k v) */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_VAR;
    terminates \true;
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_var(int t, int d, int tg, int depth)
{
  (void)depth;
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  //@ assert node_ok(t);
  //@ assert msz_ok(t);
  int k = (int)tm_aux(t);
  //@ assert var_k: 0 <= k < ctx_len_[g] && tau == ctx_lk(g, k);
  /* the size budget, k + 5 nodes, as its own goal (fwd_size took Z3 14 s
   * alone and failed under the gate's load) */
  //@ assert var_budget: k + 5 <= FWD_K * chad_msz_[t] || CHAD_MAX_TERMS <= FWD_K * chad_msz_[t];
  /*@ assert var_env: env_kind(k) == ENV_LEVEL && 0 <= env_val(k) < ctx_len_[d] &&
        lvl_ty(d, env_val(k)) == trm(CHAD_PFWD, tau); */
  int kind = ENV_LEVEL;
  int lvl = venv_lookup(k, &kind);
  //@ assert var_lvl: lvl == env_val(k) && kind == ENV_LEVEL;
  if (lvl < 0)
    return lvl;
  if (kind != ENV_LEVEL)
    return CHAD_E_ARG;
  //@ ghost tan_lin_lemma();
  //@ assert var_tlin: lin(trm(CHAD_TAN, tau));
  int lv = L(d);
  int d1 = f_ext(d, tg);
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1 >= 0 ==> lvl_ty(d1, lv) == tg && ctx_type_[d1] == tg && ctx_parent_[d1] == d;
  int v = f_var(d1, lv);
  //@ assert v >= 0 || v == CHAD_E_CAPACITY;
  //@ assert v >= 0 ==> tm_ctx_[v] == d1 && tm_ty_[v] == tg;
  int body = f_proj(v, k) /*@ ghost (g, CHAD_TAN) */;
  //@ assert body >= 0 || body == CHAD_E_CAPACITY;
  //@ assert body >= 0 ==> tm_ctx_[body] == d1 && tm_ty_[body] == trm(CHAD_TAN, tau);
  //@ assert var_tlin2: lin(trm(CHAD_TAN, tau));
  //@ assert body >= 0 ==> ty_valid(tg) && llam_ok(tg, tm_ctx_[body], tm_ty_[body]);
  int lam = f_llam(tg, body);
  //@ assert lam >= 0 || lam == CHAD_E_CAPACITY;
  /*@ assert var_lam: lam >= 0 ==> 0 <= lam < tm_count && tm_ctx_[lam] == d &&
        ty_same(tm_ty_[lam], TY_LFUN, tg, trm(CHAD_TAN, tau)); */
  //@ ghost int tyl = lam >= 0 ? tm_ty_[lam] : 0;
  //@ assert var_tyl: lam >= 0 ==> ty_valid(tyl) && ty_same(tyl, TY_LFUN, tg, trm(CHAD_TAN, tau));
  int x = f_var(d, lvl);
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  //@ assert x >= 0 ==> tm_ctx_[x] == d && tm_ty_[x] == trm(CHAD_PFWD, tau);
  //@ assert var_tyl2: lam >= 0 ==> 0 <= lam < tm_count && tm_ty_[lam] == tyl && ty_same(tyl, TY_LFUN, tg, trm(CHAD_TAN, tau));
  //@ assert var_size: tm_count <= \at(tm_count, Pre) + k + 4;
  /*@ assert var_tyl3: lam >= 0 ==> 0 <= tyl < ty_count && ty_kind_[tyl] == TY_LFUN &&
        ty_left_[tyl] == tg && ty_right_[tyl] == trm(CHAD_TAN, tau); */
  int r = f_pair(x, lam);
  //@ assert r >= 0 ==> ty_node_ok(tm_ty_[r]);
  //@ assert var_size2: tm_count <= \at(tm_count, Pre) + k + 5 && tm_count <= CHAD_MAX_TERMS;
  //@ assert var_fin: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  /* fwd_type in steps (as one goal it took Z3 7 s alone, and timed out
   * once the size had its own asserts) */
  //@ assert var_t0: trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau) && trch(CHAD_TAN, g) && tg == trc(CHAD_TAN, g);
  //@ assert var_t1: r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d && ty_valid(tm_ty_[r]) && ty_kind_[tm_ty_[r]] == TY_PROD;
  //@ assert var_t2: r >= 0 ==> ty_left_[tm_ty_[r]] == trm(CHAD_PFWD, tau) && 0 <= ty_right_[tm_ty_[r]] < tm_ty_[r];
  //@ assert var_t3a: r >= 0 ==> lam >= 0 && ty_right_[tm_ty_[r]] == tyl;
  //@ assert var_t3b: lam >= 0 ==> ty_kind_[tyl] == TY_LFUN && ty_left_[tyl] == tg && ty_right_[tyl] == trm(CHAD_TAN, tau);
  //@ assert var_t3: r >= 0 ==> ty_same(ty_right_[tm_ty_[r]], TY_LFUN, tg, trm(CHAD_TAN, tau));
  //@ assert var_type: r >= 0 ==> fwd_ty(tm_ty_[r], g, tau);
  //@ assert var_src: g == tm_ctx_[t] && tau == tm_ty_[t];
  return r;
}
