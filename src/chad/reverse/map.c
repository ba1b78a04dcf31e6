/* R(map (x.b) a)  = let (y,dy) = R a; f = \x. R_{G,x} b in
 *                   (map (x. fst (f x)) y,
 *                    \v. let c = zipWith (x w. (snd (f x)) w) y v in
 *                        lsum (length y) (i. fst c[i]) + dy (map snd c))
 * (../shared/chad-rules.md, section 5, reverse mode)
 *   rev_map_cs    c = zipWith (x w. (snd (f x)) w) y v, the elements' cotangents
 *   rev_map_sum   the sum over the elements of their cotangents of G
 *   rev_map_back  dy of the elements' array cotangents
 *   rev_map_plus  rev_map_sum + rev_map_back, the cotangent of G
 *   rev_map_lin   the linear half  \v. let c = ... in ...
 *   rev_map_body  f = \x. R_{G,x} b mapped over y, and the pair
 *   rev_map       the rule: R a, y, then rev_map_body
 * Part of reverse.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* cs = build (length y) (i. snd ps[i] v[i]), the cotangents of R(map)'s
 * elements, in g1 = d3, v where level ly holds y : yt (an array), level
 * lps holds ps : aq = Arr Q, Q = P tau * (cte -o cga) (cga = C(G, x) =
 * C G * C sigma) and level lv holds v : ct = Arr cte. Against the
 * kernel's invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(g1) && ty_valid(ct) && ty_same(ct, TY_ARR, cte, -1);
    requires 0 <= ly < ctx_len_[g1] && lvl_ty(g1, ly) == yt && arr_ok(yt);
    requires 0 <= lps < ctx_len_[g1] && lvl_ty(g1, lps) == aq;
    requires 0 <= lv < ctx_len_[g1] && lvl_ty(g1, lv) == ct;
    requires ty_valid(aq) && ty_same(aq, TY_ARR, q, -1);
    requires ty_valid(q) && ty_kind_[q] == TY_PROD && ty_same(ty_right_[q], TY_LFUN, cte, cga);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures map_cs_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == g1 &&
      ty_valid(tm_ty_[\result]) && ty_same(tm_ty_[\result], TY_ARR, cga, -1);
    ensures map_cs_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures map_cs_size: \old(tm_count) <= tm_count <= \old(tm_count) + 11;
    ensures map_cs_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures map_cs_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures map_cs_lvl: \forall integer l; 0 <= l < ctx_len_[g1] ==> lvl_ty(g1, l) == \old(lvl_ty(g1, l));
    ensures env_keep{Pre, Post};
*/
static int rev_map_cs(int g1, int ly, int lps, int lv)
  /*@ ghost (int ct, int cte, int cga, int aq, int q, int yt) */
{
  //@ ghost int qr = ty_right_[q];
  //@ assert q_node: ty_inv && ty_node_ok(q) && 0 <= qr < q && ty_same(qr, TY_LFUN, cte, cga);
  int li = L(g1), g2 = k_ext(g1, TY_ID_INT);
  if (g2 < 0) return g2;
  //@ assert g2_ctx: ctx_valid(g2) && ctx_is_ext(g2, g1, TY_ID_INT) && ctx_len_[g2] == li + 1 && li == ctx_len_[g1];
  //@ assert g2_lvl: lvl_ty(g2, li) == TY_ID_INT && lvl_ty(g2, lv) == ct && lvl_ty(g2, lps) == aq;
  //@ assert g1_lvl: lvl_ty(g1, ly) == yt && ctx_valid(g1);
  int vy = V(g1, ly);
  //@ assert vy >= 0 ==> 0 <= vy < tm_count && tm_ctx_[vy] == g1 && tm_ty_[vy] == yt;
  //@ assert vy >= 0 || vy == CHAD_E_CAPACITY;
  int n = b_length(vy);
  //@ assert n >= 0 ==> 0 <= n < tm_count && tm_ctx_[n] == g1 && tm_ty_[n] == TY_ID_INT;
  //@ assert n >= 0 || n == CHAD_E_CAPACITY;
  int a = V(g2, lps);
  //@ assert a >= 0 ==> 0 <= a < tm_count && tm_ctx_[a] == g2 && tm_ty_[a] == aq;
  //@ assert a >= 0 || a == CHAD_E_CAPACITY;
  int i1 = V(g2, li);
  //@ assert i1 >= 0 ==> 0 <= i1 < tm_count && tm_ctx_[i1] == g2 && tm_ty_[i1] == TY_ID_INT;
  //@ assert i1 >= 0 || i1 == CHAD_E_CAPACITY;
  //@ assert a >= 0 ==> arr_ok(tm_ty_[a]) && ty_left_[tm_ty_[a]] == q;
  int x = b_index(a, i1);
  //@ assert x >= 0 ==> 0 <= x < tm_count && tm_ctx_[x] == g2 && tm_ty_[x] == q;
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  int s = b_snd(x);
  //@ assert s >= 0 ==> 0 <= s < tm_count && tm_ctx_[s] == g2 && tm_ty_[s] == qr;
  //@ assert s >= 0 || s == CHAD_E_CAPACITY;
  int vv = V(g2, lv);
  //@ assert vv >= 0 ==> 0 <= vv < tm_count && tm_ctx_[vv] == g2 && tm_ty_[vv] == ct;
  //@ assert vv >= 0 || vv == CHAD_E_CAPACITY;
  int i2 = V(g2, li);
  //@ assert i2 >= 0 ==> 0 <= i2 < tm_count && tm_ctx_[i2] == g2 && tm_ty_[i2] == TY_ID_INT;
  //@ assert i2 >= 0 || i2 == CHAD_E_CAPACITY;
  //@ assert vv >= 0 ==> arr_ok(tm_ty_[vv]) && ty_left_[tm_ty_[vv]] == cte;
  int y = b_index(vv, i2);
  //@ assert y >= 0 ==> 0 <= y < tm_count && tm_ctx_[y] == g2 && tm_ty_[y] == cte;
  //@ assert y >= 0 || y == CHAD_E_CAPACITY;
  //@ assert s >= 0 ==> 0 <= s < tm_count && tm_ctx_[s] == g2 && ty_same(tm_ty_[s], TY_LFUN, cte, cga);
  int ap = b_lapp(s, y);
  //@ assert ap >= 0 ==> 0 <= ap < tm_count && tm_ctx_[ap] == g2 && tm_ty_[ap] == cga;
  //@ assert ap >= 0 || ap == CHAD_E_CAPACITY;
  //@ assert n >= 0 ==> 0 <= n < tm_count && tm_ctx_[n] == g1 && tm_ty_[n] == TY_ID_INT;
  //@ assert ctx_is_ext(g2, g1, TY_ID_INT);
  int r = b_build(n, ap);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == g1 && ty_same(tm_ty_[r], TY_ARR, cga, -1);
  //@ assert r >= 0 ==> ty_valid(tm_ty_[r]);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 11;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* lsum (length y) (j. fst cs[j]), the context part of R(map)'s
 * cotangent, in h1 where level ly holds y : yt (an array) and level lcs
 * holds cs : acs = Arr cga, cga = C G * C sigma. */
/*@ requires kernel_inv;
    requires ctx_valid(h1) && lin(cg);
    requires 0 <= ly < ctx_len_[h1] && lvl_ty(h1, ly) == yt && arr_ok(yt);
    requires 0 <= lcs < ctx_len_[h1] && lvl_ty(h1, lcs) == acs;
    requires ty_valid(acs) && ty_same(acs, TY_ARR, cga, -1);
    requires ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_left_[cga] == cg;
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures map_sum_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == h1 &&
      tm_ty_[\result] == cg;
    ensures map_sum_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures map_sum_size: \old(tm_count) <= tm_count <= \old(tm_count) + 7;
    ensures map_sum_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures map_sum_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures map_sum_lvl: \forall integer l; 0 <= l < ctx_len_[h1] ==> lvl_ty(h1, l) == \old(lvl_ty(h1, l));
    ensures env_keep{Pre, Post};
*/
static int rev_map_sum(int h1, int ly, int lcs)
  /*@ ghost (int cg, int cga, int acs, int yt) */
{
  int lj = L(h1), h2 = k_ext(h1, TY_ID_INT);
  if (h2 < 0) return h2;
  //@ assert h2_ctx: ctx_valid(h2) && ctx_is_ext(h2, h1, TY_ID_INT) && ctx_len_[h2] == lj + 1 && lj == ctx_len_[h1];
  //@ assert h2_lvl: lvl_ty(h2, lj) == TY_ID_INT && lvl_ty(h2, lcs) == acs;
  //@ assert h1_lvl: lvl_ty(h1, ly) == yt && ctx_valid(h1);
  int vy = V(h1, ly);
  //@ assert vy >= 0 ==> 0 <= vy < tm_count && tm_ctx_[vy] == h1 && tm_ty_[vy] == yt;
  //@ assert vy >= 0 || vy == CHAD_E_CAPACITY;
  int n = b_length(vy);
  //@ assert n >= 0 ==> 0 <= n < tm_count && tm_ctx_[n] == h1 && tm_ty_[n] == TY_ID_INT;
  //@ assert n >= 0 || n == CHAD_E_CAPACITY;
  int c = V(h2, lcs);
  //@ assert c >= 0 ==> 0 <= c < tm_count && tm_ctx_[c] == h2 && tm_ty_[c] == acs;
  //@ assert c >= 0 || c == CHAD_E_CAPACITY;
  int j = V(h2, lj);
  //@ assert j >= 0 ==> 0 <= j < tm_count && tm_ctx_[j] == h2 && tm_ty_[j] == TY_ID_INT;
  //@ assert j >= 0 || j == CHAD_E_CAPACITY;
  //@ assert c >= 0 ==> arr_ok(tm_ty_[c]) && ty_left_[tm_ty_[c]] == cga;
  int x = b_index(c, j);
  //@ assert x >= 0 ==> 0 <= x < tm_count && tm_ctx_[x] == h2 && tm_ty_[x] == cga;
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  //@ assert ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_left_[cga] == cg;
  int f = b_fst(x);
  //@ assert f >= 0 ==> 0 <= f < tm_count && tm_ctx_[f] == h2 && tm_ty_[f] == cg;
  //@ assert f >= 0 || f == CHAD_E_CAPACITY;
  //@ assert n >= 0 ==> 0 <= n < tm_count && tm_ctx_[n] == h1 && tm_ty_[n] == TY_ID_INT;
  //@ assert ctx_is_ext(h2, h1, TY_ID_INT) && lin(cg);
  int r = b_lsum(n, f);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == h1 && tm_ty_[r] == cg;
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 7;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* snd p (map (w. snd w) cs), the array part of R(map)'s cotangent passed
 * back through R b's linear half, in h1 where level lp holds p : typ =
 * P(Arr sigma) * (cb -o cg), cb = C(Arr sigma) = Arr csg, and level lcs
 * holds cs : acs = Arr cga, cga = C G * csg (the binder's type). */
/*@ requires kernel_inv;
    requires ctx_valid(h1);
    requires 0 <= lp < ctx_len_[h1] && lvl_ty(h1, lp) == typ;
    requires 0 <= lcs < ctx_len_[h1] && lvl_ty(h1, lcs) == acs;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, cb, cg);
    requires ty_valid(cb) && ty_same(cb, TY_ARR, csg, -1);
    requires ty_valid(acs) && ty_same(acs, TY_ARR, cga, -1);
    requires ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_right_[cga] == csg;
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures map_back_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == h1 &&
      tm_ty_[\result] == cg;
    ensures map_back_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures map_back_size: \old(tm_count) <= tm_count <= \old(tm_count) + 7;
    ensures map_back_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures map_back_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures map_back_lvl: \forall integer l; 0 <= l < ctx_len_[h1] ==> lvl_ty(h1, l) == \old(lvl_ty(h1, l));
    ensures env_keep{Pre, Post};
*/
static int rev_map_back(int h1, int lp, int lcs, int cga)
  /*@ ghost (int cg, int csg, int cb, int acs, int typ) */
{
  //@ ghost int tr = ty_right_[typ];
  //@ assert p_node: ty_inv && ty_node_ok(typ) && 0 <= tr < typ && ty_same(tr, TY_LFUN, cb, cg);
  int lw = L(h1), h3 = k_ext(h1, cga);
  if (h3 < 0) return h3;
  //@ assert h3_ctx: ctx_valid(h3) && ctx_is_ext(h3, h1, cga) && ctx_len_[h3] == lw + 1 && lw == ctx_len_[h1];
  //@ assert h3_lvl: lvl_ty(h3, lw) == cga;
  //@ assert h1_lvl: lvl_ty(h1, lp) == typ && lvl_ty(h1, lcs) == acs && ctx_valid(h1);
  int w = V(h3, lw);
  //@ assert w >= 0 ==> 0 <= w < tm_count && tm_ctx_[w] == h3 && tm_ty_[w] == cga;
  //@ assert w >= 0 || w == CHAD_E_CAPACITY;
  //@ assert ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_right_[cga] == csg;
  int sw = b_snd(w);
  //@ assert sw >= 0 ==> 0 <= sw < tm_count && tm_ctx_[sw] == h3 && tm_ty_[sw] == csg;
  //@ assert sw >= 0 || sw == CHAD_E_CAPACITY;
  int c = V(h1, lcs);
  //@ assert c >= 0 ==> 0 <= c < tm_count && tm_ctx_[c] == h1 && tm_ty_[c] == acs;
  //@ assert c >= 0 || c == CHAD_E_CAPACITY;
  //@ assert c >= 0 ==> arr_ok(tm_ty_[c]) && ty_left_[tm_ty_[c]] == cga;
  //@ assert ctx_is_ext(h3, h1, cga);
  int m = b_map(sw, c);
  //@ assert m >= 0 ==> 0 <= m < tm_count && tm_ctx_[m] == h1 && ty_same(tm_ty_[m], TY_ARR, csg, -1);
  //@ assert m >= 0 ==> ty_valid(tm_ty_[m]);
  //@ assert m >= 0 || m == CHAD_E_CAPACITY;
  /* hash-consing: the array of cotangents has the type C(Arr sigma) itself */
  //@ assert m >= 0 ==> ty_inv && ty_valid(cb) && ty_same(cb, TY_ARR, csg, -1) && ty_same(tm_ty_[m], TY_ARR, csg, -1);
  //@ assert m_cb: m >= 0 ==> tm_ty_[m] == cb;
  int vp = V(h1, lp);
  //@ assert vp >= 0 ==> 0 <= vp < tm_count && tm_ctx_[vp] == h1 && tm_ty_[vp] == typ;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  //@ assert ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_right_[typ] == tr;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> 0 <= sp < tm_count && tm_ctx_[sp] == h1 && tm_ty_[sp] == tr;
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  //@ assert sp >= 0 ==> ty_same(tm_ty_[sp], TY_LFUN, cb, cg);
  //@ assert m >= 0 ==> 0 <= m < tm_count && tm_ctx_[m] == h1 && tm_ty_[m] == cb;
  int r = b_lapp(sp, m);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == h1 && tm_ty_[r] == cg;
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 7;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* lsum (length y) (j. fst cs[j]) + snd p (map (w. snd w) cs), R(map)'s
 * cotangent of G from the elements' cotangents cs (rev_map_sum +
 * rev_map_back), in h1 where level lp holds p : typ, level ly holds y : yt
 * and level lcs holds cs : acs = Arr cga, cga = C G * csg. */
/*@ requires kernel_inv;
    requires ctx_valid(h1) && lin(cg);
    requires 0 <= lp < ctx_len_[h1] && lvl_ty(h1, lp) == typ;
    requires 0 <= ly < ctx_len_[h1] && lvl_ty(h1, ly) == yt && arr_ok(yt);
    requires 0 <= lcs < ctx_len_[h1] && lvl_ty(h1, lcs) == acs;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, cb, cg);
    requires ty_valid(cb) && ty_same(cb, TY_ARR, csg, -1);
    requires ty_valid(acs) && ty_same(acs, TY_ARR, cga, -1);
    requires ty_valid(cga) && ty_same(cga, TY_PROD, cg, csg);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures map_plus_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == h1 &&
      tm_ty_[\result] == cg;
    ensures map_plus_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures map_plus_size: \old(tm_count) <= tm_count <= \old(tm_count) + 15;
    ensures map_plus_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures map_plus_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures map_plus_lvl: \forall integer l; 0 <= l < ctx_len_[h1] ==> lvl_ty(h1, l) == \old(lvl_ty(h1, l));
    ensures env_keep{Pre, Post};
*/
static int rev_map_plus(int h1, int lp, int ly, int lcs, int cga)
  /*@ ghost (int cg, int csg, int cb, int acs, int typ, int yt) */
{
  //@ assert cga_lr: ty_left_[cga] == cg && ty_right_[cga] == csg && ty_kind_[cga] == TY_PROD;
  int p1 = rev_map_sum(h1, ly, lcs) /*@ ghost (cg, cga, acs, yt) */;
  //@ assert p1 >= 0 ==> 0 <= p1 < tm_count && tm_ctx_[p1] == h1 && tm_ty_[p1] == cg;
  //@ assert p1 >= 0 || p1 == CHAD_E_CAPACITY;
  //@ assert p1_size: tm_count <= \at(tm_count, Pre) + 7;
  //@ assert p1_grow: tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert p1_keep: \forall integer l; 0 <= l < ctx_len_[h1] ==> lvl_ty(h1, l) == \at(lvl_ty(h1, l), Pre);
  //@ assert p1_lvl: lvl_ty(h1, lcs) == acs && lvl_ty(h1, lp) == typ && ctx_valid(h1);
  //@ assert p1_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, cb, cg);
  //@ assert p1_cb: ty_valid(cb) && ty_same(cb, TY_ARR, csg, -1) && ty_valid(acs) && ty_same(acs, TY_ARR, cga, -1);
  //@ assert p1_cga: ty_valid(cga) && ty_kind_[cga] == TY_PROD && ty_right_[cga] == csg;
  int p2 = rev_map_back(h1, lp, lcs, cga) /*@ ghost (cg, csg, cb, acs, typ) */;
  //@ assert p2 >= 0 ==> 0 <= p2 < tm_count && tm_ctx_[p2] == h1 && tm_ty_[p2] == cg;
  //@ assert p2 >= 0 || p2 == CHAD_E_CAPACITY;
  //@ assert p2_size: tm_count <= \at(tm_count, Pre) + 14;
  //@ assert p2_grow: tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert p2_keep: \forall integer l; 0 <= l < ctx_len_[h1] ==> lvl_ty(h1, l) == \at(lvl_ty(h1, l), Pre);
  //@ assert p2_keepe: env_keep{Pre, Here};
  //@ assert p1 >= 0 ==> 0 <= p1 < tm_count && tm_ctx_[p1] == h1 && tm_ty_[p1] == cg;
  //@ assert lin(cg);
  int r = b_plus(p1, p2);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == h1 && tm_ty_[r] == cg;
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 15;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The linear half of R(map (x. a) b) (a the body, b the array), in d3
 * where level lp holds p = R b : typ, level ly holds y = fst p : yt and
 * level lps holds ps : aq = Arr Q, Q = P tau * (cte -o cga):
 *   \v. let cs = build (length y) (i. snd ps[i] v[i]) in
 *       lsum (length y) (j. fst cs[j]) + snd p (map (w. snd w) cs)
 * of type ct -o cg, ct = Arr cte. Against the kernel's invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(d3) && lin(ct) && ty_same(ct, TY_ARR, cte, -1) && lin(cg);
    requires 0 <= lp < ctx_len_[d3] && lvl_ty(d3, lp) == typ;
    requires 0 <= ly < ctx_len_[d3] && lvl_ty(d3, ly) == yt && arr_ok(yt);
    requires 0 <= lps < ctx_len_[d3] && lvl_ty(d3, lps) == aq;
    requires ty_valid(aq) && ty_same(aq, TY_ARR, q, -1);
    requires ty_valid(q) && ty_kind_[q] == TY_PROD && ty_same(ty_right_[q], TY_LFUN, cte, cga);
    requires ty_valid(cga) && ty_same(cga, TY_PROD, cg, csg);
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, cb, cg);
    requires ty_valid(cb) && ty_same(cb, TY_ARR, csg, -1);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures map_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d3 &&
      ty_same(tm_ty_[\result], TY_LFUN, ct, cg);
    ensures map_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures map_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 28;
    ensures map_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures map_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures map_lin_lvl: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \old(lvl_ty(d3, l));
    ensures env_keep{Pre, Post};
*/
static int rev_map_lin(int d3, int lp, int ly, int lps, int ct)
  /*@ ghost (int cg, int cte, int cga, int csg, int cb, int typ, int yt, int aq, int q) */
{
  int lv = L(d3), g1 = k_ext(d3, ct);
  if (g1 < 0) return g1;
  //@ assert g1_ctx: ctx_valid(g1) && ctx_is_ext(g1, d3, ct) && ctx_len_[g1] == lv + 1 && lv == ctx_len_[d3];
  //@ assert g1_lvl: lvl_ty(g1, lv) == ct && lvl_ty(g1, lp) == typ && lvl_ty(g1, ly) == yt && lvl_ty(g1, lps) == aq;
  //@ assert g1_keep: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  //@ assert g1_keepe: env_keep{Pre, Here};
  int cs = rev_map_cs(g1, ly, lps, lv) /*@ ghost (ct, cte, cga, aq, q, yt) */;
  //@ assert cs >= 0 ==> 0 <= cs < tm_count && tm_ctx_[cs] == g1 && ty_valid(tm_ty_[cs]) && ty_same(tm_ty_[cs], TY_ARR, cga, -1);
  //@ assert cs >= 0 || cs == CHAD_E_CAPACITY;
  //@ assert cs_size: tm_count <= \at(tm_count, Pre) + 11;
  //@ assert cs_grow: tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert cs_keep: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  //@ assert cs_keepe: env_keep{Pre, Here};
  if (cs < 0) return cs;
  //@ ghost int acs = tm_ty_[cs];
  //@ assert cs_lvl: lvl_ty(g1, lv) == ct && lvl_ty(g1, lp) == typ && lvl_ty(g1, ly) == yt && ctx_valid(g1);
  //@ assert d3_lvl: lvl_ty(d3, lp) == typ && lvl_ty(d3, ly) == yt && lvl_ty(d3, lps) == aq && ctx_valid(d3);
  int lcs = L(g1), h1 = k_ext(g1, tyof(cs));
  //@ assert h1_keep0: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  //@ assert h1_keep0e: env_keep{Pre, Here};
  if (h1 < 0) return h1;
  //@ assert h1_ctx: ctx_valid(h1) && ctx_is_ext(h1, g1, acs) && ctx_len_[h1] == lcs + 1 && lcs == ctx_len_[g1];
  //@ assert h1_lvl: lvl_ty(h1, lcs) == acs && lvl_ty(h1, lp) == typ && lvl_ty(h1, ly) == yt;
  //@ assert h1_keep: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  //@ assert h1_keepe: env_keep{Pre, Here};
  //@ assert acs_ty: ty_valid(acs) && ty_same(acs, TY_ARR, cga, -1) && ty_valid(cga) && ty_kind_[cga] == TY_PROD;
  //@ assert cga_lr: ty_left_[cga] == cg && ty_right_[cga] == csg;
  //@ assert h1_cb: ty_valid(cb) && ty_same(cb, TY_ARR, csg, -1) && lin(cg);
  //@ assert h1_typ: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, cb, cg);
  //@ assert h1_yt: 0 <= ly < ctx_len_[h1] && 0 <= lp < ctx_len_[h1] && 0 <= lcs < ctx_len_[h1] && arr_ok(yt);
  int pl = rev_map_plus(h1, lp, ly, lcs, ty_left(tyof(cs))) /*@ ghost (cg, csg, cb, acs, typ, yt) */;
  //@ assert pl >= 0 ==> 0 <= pl < tm_count && tm_ctx_[pl] == h1 && tm_ty_[pl] == cg;
  //@ assert pl >= 0 || pl == CHAD_E_CAPACITY;
  //@ assert pl_size: tm_count <= \at(tm_count, Pre) + 26;
  //@ assert pl_grow: tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert pl_keep: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  //@ assert pl_keepe: env_keep{Pre, Here};
  //@ assert pl_ext: ctx_is_ext(h1, g1, acs) && ctx_is_ext(g1, d3, ct);
  //@ assert cs >= 0 ==> 0 <= cs < tm_count && tm_ctx_[cs] == g1 && tm_ty_[cs] == acs && ctx_is_ext(h1, g1, acs);
  int lt = b_let(cs, pl);
  //@ assert lt >= 0 ==> 0 <= lt < tm_count && tm_ctx_[lt] == g1 && tm_ty_[lt] == cg;
  //@ assert lt >= 0 || lt == CHAD_E_CAPACITY;
  //@ assert lt >= 0 ==> ty_valid(ct) && llam_ok(ct, tm_ctx_[lt], tm_ty_[lt]);
  //@ assert lt_par: ctx_parent_[g1] == d3 && (lt >= 0 ==> tm_ctx_[lt] == g1 && tm_ty_[lt] == cg);
  int r = b_llam(ct, lt);
  //@ assert r_ctx: r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d3;
  //@ assert r_ty: r >= 0 ==> ty_same(tm_ty_[r], TY_LFUN, ct, cg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 28;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert r_keep: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  //@ assert r_keepe: env_keep{Pre, Here};
  return r;
}

/* R(map)'s recursive call and the rest: the body a (of type tau in ga =
 * G, x : sigma) under its binder in e1 = d2, x (d1 = d, p; d2 = d1, y with
 * y = fst p : pb = P(Arr sigma)), then ps = map (x. q) y in d2, its
 * extension d3, the linear half rev_map_lin, the primal map_primal and the
 * tail let_build_tail (shared with build: let p in let y = fst p in let ps
 * in (prim, lin)). */
/*@ requires REV_INV;
    requires 0 <= a < tm_count && chad_msrc_[a] == 1 && 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[a] == ga && tm_ty_[a] == tau;
    requires 0 < ga < ctx_count && ctx_parent_[ga] == g && ctx_type_[ga] == sg;
    requires env_ok(CHAD_PREV, g, e1);
    requires trh(CHAD_PREV, sg) && trm(CHAD_PREV, sg) == psg && trh(CHAD_COT, sg) && trm(CHAD_COT, sg) == csg;
    requires trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == cte;
    requires lin(ct) && ty_same(ct, TY_ARR, cte, -1) && ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1);
    requires trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg && lin(cg);
    requires ty_valid(pb) && ty_same(pb, TY_ARR, psg, -1) && ty_valid(cb) && ty_same(cb, TY_ARR, csg, -1);
    requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pb &&
      ty_same(ty_right_[typ], TY_LFUN, cb, cg);
    requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_is_ext(d2, d1, pb) &&
      ctx_is_ext(e1, d2, psg);
    requires lp == ctx_len_[d] && ly == lp + 1 && lx == ly + 1;
    requires ctx_len_[d1] == ly && ctx_len_[d2] == lx && ctx_len_[e1] == lx + 1;
    requires 0 <= d < d1 < d2 < e1 < ctx_count;
    requires lvl_ty(d1, lp) == typ && lvl_ty(d2, ly) == pb && lvl_ty(e1, lx) == psg;
    terminates \true;
    decreases REV_M(depth) - 3;
    REV_ASSIGNS;
    REV_FRAME;
    ensures mbody_size: tm_count - \old(tm_count) <= REV_K * chad_msz_[a] + 40;
    ensures mbody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures mbody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pa && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg);
*/
static int rev_map_body(int a, int p, int d1, int d2, int e1, int lp, int ly, int lx, int ct, int depth)
  /*@ ghost (int g, int ga, int sg, int tau, int psg, int csg, int pt, int cte, int pa, int cg,
             int d, int typ, int pb, int cb) */
{
  /* typ's node by name: restated after each call (framing ty_right_[typ]
   * through R a and then its ty_same took 9 s) */
  //@ ghost int rtyp = ty_right_[typ];
  //@ assert p_rtyp: ty_same(typ, TY_PROD, pb, rtyp) && ty_valid(rtyp) && ty_same(rtyp, TY_LFUN, cb, cg);
  //@ assert x_ga: env_ok(CHAD_PREV, ctx_parent_[ga], e1) && trh(CHAD_PREV, ctx_type_[ga]) && trm(CHAD_PREV, ctx_type_[ga]) == psg;
  //@ assert x_lx: 0 <= lx < ctx_len_[e1] && lvl_ty(e1, lx) == psg;
  int q = rev_under(a, e1, lx, depth + 1);
  //@ assert q_keep: env_keep{Pre, Here};
  //@ assert q_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[a];
  if (q < 0) return q;
  //@ assert q_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a];
  //@ assert q_rev: tm_ctx_[q] == e1 && rev_ty(tm_ty_[q], tau, ga) && 0 <= q < tm_count;
  //@ assert q_memo1: trh(CHAD_PREV, tau) && trh(CHAD_COT, tau) && trm(CHAD_PREV, tau) == pt && trm(CHAD_COT, tau) == cte;
  //@ assert q_memo2: trc(CHAD_COT, g) == cg && trh(CHAD_COT, sg) && trm(CHAD_COT, sg) == csg;
  //@ assert q_ga: 0 < ga < ctx_count && ctx_parent_[ga] == g && ctx_type_[ga] == sg && trch(CHAD_COT, ga);
  //@ ghost rev_trc_step(CHAD_COT, ga);
  //@ ghost int cga = chad_memo_ctx_[CHAD_COT][ga] - 1;
  //@ assert q_cga0: trc(CHAD_COT, ga) == cga;
  //@ assert q_cga: ty_valid(cga) && ty_same(cga, TY_PROD, cg, csg);
  //@ ghost int tyq = tm_ty_[q];
  //@ assert q_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, cte, cga);
  //@ ghost int rq = ty_right_[tyq];
  //@ assert q_rq: ty_same(tyq, TY_PROD, pt, rq) && ty_valid(rq) && ty_same(rq, TY_LFUN, cte, cga);
  //@ assert q_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert q_rtyp: ty_same(typ, TY_PROD, pb, rtyp) && ty_valid(rtyp) && ty_same(rtyp, TY_LFUN, cb, cg);
  //@ assert q_typ: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pb && ty_same(ty_right_[typ], TY_LFUN, cb, cg);
  //@ assert q_pb: ty_valid(pb) && ty_same(pb, TY_ARR, psg, -1) && ty_valid(cb) && ty_same(cb, TY_ARR, csg, -1);
  //@ assert q_pa: ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1) && lin(ct) && ty_same(ct, TY_ARR, cte, -1) && lin(cg);
  //@ assert q_ord: 0 <= d < d1 < d2 < e1 < ctx_count;
  //@ assert q_c1: ctx_parent_[d1] == d && ctx_type_[d1] == typ && ctx_len_[d1] == ly;
  //@ assert q_c2: ctx_parent_[d2] == d1 && ctx_type_[d2] == pb && ctx_len_[d2] == lx;
  //@ assert q_c3: ctx_parent_[e1] == d2 && ctx_type_[e1] == psg && ctx_len_[e1] == lx + 1;
  //@ assert q_c0: ctx_valid(d) && ctx_len_[d] == lp;
  //@ assert q_l1: lvl_ty(d1, lp) == typ;
  //@ assert q_l2: lvl_ty(d2, ly) == pb && lvl_ty(d2, lp) == typ;
  //@ ghost Q1: ;
  int vy = V(d2, ly);
  //@ assert vy >= 0 ==> 0 <= vy < tm_count && tm_ctx_[vy] == d2 && tm_ty_[vy] == pb;
  //@ assert vy >= 0 || vy == CHAD_E_CAPACITY;
  //@ assert vy >= 0 ==> arr_ok(tm_ty_[vy]) && ty_left_[tm_ty_[vy]] == psg;
  //@ assert 0 <= q < tm_count && tm_ctx_[q] == e1 && tm_ty_[q] == tyq && ctx_is_ext(e1, d2, psg);
  int ps = b_map(q, vy);
  //@ assert ps >= 0 ==> 0 <= ps < tm_count && tm_ctx_[ps] == d2 && ty_same(tm_ty_[ps], TY_ARR, tyq, -1);
  //@ assert ps >= 0 ==> ty_valid(tm_ty_[ps]);
  //@ assert ps >= 0 || ps == CHAD_E_CAPACITY;
  //@ assert ps_grow: tables_grow{Q1, Here} && side_same{Q1, Here};
  //@ assert ps_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert ps_keep: env_keep{Pre, Here};
  //@ assert ps_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a] + 2;
  if (ps < 0) return ps;
  //@ assert ps_rq: ty_same(tyq, TY_PROD, pt, rq) && ty_valid(rq) && ty_same(rq, TY_LFUN, cte, cga);
  //@ assert ps_rtyp: ty_same(typ, TY_PROD, pb, rtyp) && ty_valid(rtyp) && ty_same(rtyp, TY_LFUN, cb, cg);
  //@ ghost int aq = tm_ty_[ps];
  //@ assert ps_aq: ty_valid(aq) && ty_same(aq, TY_ARR, tyq, -1);
  //@ assert ps_c1: ctx_parent_[d1] == d && ctx_type_[d1] == typ && ctx_len_[d1] == ly;
  //@ assert ps_c2: ctx_parent_[d2] == d1 && ctx_type_[d2] == pb && ctx_len_[d2] == lx;
  //@ assert ps_l2: lvl_ty(d2, ly) == pb && lvl_ty(d2, lp) == typ && ctx_valid(d2);
  int lps = L(d2), d3 = rev_ext(d2, tyof(ps));
  //@ assert d3 >= 0 || d3 == CHAD_E_CAPACITY;
  //@ assert d3_keep: env_keep{Pre, Here};
  //@ assert d3_ret: d3 < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[a] + 40;
  if (d3 < 0) return d3;
  //@ assert d3_ext: ctx_is_ext(d3, d2, aq) && ctx_len_[d3] == lps + 1 && lps == lx && ctx_valid(d3);
  //@ assert d3_lps: lvl_ty(d3, lps) == aq;
  //@ assert d3_old: 0 <= lp < ly < ctx_len_[d2] && lps == ctx_len_[d2];
  //@ assert d3_ly1: lvl_ty(d3, ly) == lvl_ty(d2, ly) && lvl_ty(d3, lp) == lvl_ty(d2, lp);
  //@ assert d3_ly: lvl_ty(d3, ly) == pb && lvl_ty(d3, lp) == typ && 0 <= lp < ly < lps;
  //@ assert d3_rq: ty_same(tyq, TY_PROD, pt, rq) && ty_valid(rq) && ty_same(rq, TY_LFUN, cte, cga);
  //@ assert d3_q: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, cte, cga);
  //@ assert d3_cga: ty_valid(cga) && ty_same(cga, TY_PROD, cg, csg);
  //@ assert d3_ct: lin(ct) && ty_same(ct, TY_ARR, cte, -1) && lin(cg);
  //@ assert d3_pb: arr_ok(pb) && ty_valid(cb) && ty_same(cb, TY_ARR, csg, -1);
  //@ assert d3_rtyp: ty_same(typ, TY_PROD, pb, rtyp) && ty_valid(rtyp) && ty_same(rtyp, TY_LFUN, cb, cg);
  //@ assert d3_typ: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, cb, cg);
  //@ ghost Built: ;
  int lin = rev_map_lin(d3, lp, ly, lps, ct) /*@ ghost (cg, cte, cga, csg, cb, typ, pb, aq, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d3 && ty_same(tm_ty_[lin], TY_LFUN, ct, cg) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_keep: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a] + 30;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert lin_ret: lin < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[a] + 40;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert l_lin: tm_ctx_[lin] == d3 && ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg) && 0 <= lin < tm_count;
  //@ assert l_lvl: lvl_ty(d3, lps) == aq && ctx_valid(d3) && 0 <= lps < ctx_len_[d3];
  //@ assert l_aq: ty_valid(aq) && ty_same(aq, TY_ARR, tyq, -1) && ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt;
  //@ ghost Lin: ;
  int prim = map_primal(d3, lps, tyof(q)) /*@ ghost (aq, pt) */;
  //@ assert prim >= 0 ==> 0 <= prim < tm_count && tm_ctx_[prim] == d3 && ty_valid(tm_ty_[prim]) && ty_same(tm_ty_[prim], TY_ARR, pt, -1);
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  /* hash-consing: the primal's type is P(Arr tau) itself */
  //@ assert prim >= 0 ==> ty_inv && ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1) && ty_same(tm_ty_[prim], TY_ARR, pt, -1);
  //@ assert p_pa: prim >= 0 ==> tm_ty_[prim] == pa;
  //@ assert p_keep: env_keep{Pre, Here};
  //@ assert p_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a] + 34;
  //@ assert p_grow: tables_grow{Lin, Here} && side_same{Lin, Here};
  //@ assert p_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  if (prim < 0) return prim;
  //@ assert t_lin0: tm_ty_[lin] == tyl && tm_ctx_[lin] == d3 && 0 <= lin < tm_count;
  //@ assert t_lin1: ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg);
  //@ assert t_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert t_typ: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pb;
  //@ assert t_ps: 0 <= ps < tm_count && tm_ctx_[ps] == d2 && tm_ty_[ps] == aq;
  //@ assert t_c1: ctx_parent_[d1] == d && ctx_type_[d1] == typ && ctx_len_[d1] == ly;
  //@ assert t_c2: ctx_parent_[d2] == d1 && ctx_type_[d2] == pb && ctx_len_[d2] == lx;
  //@ assert t_c3: ctx_parent_[d3] == d2 && ctx_type_[d3] == aq;
  //@ assert t_c0: ctx_valid(d) && ctx_len_[d] == lp && 0 <= d < d1 < d2 < d3 < ctx_count;
  //@ assert t_e: ctx_is_ext(d1, d, typ) && ctx_is_ext(d2, d1, pb) && ctx_is_ext(d3, d2, aq);
  //@ assert t_l1: lvl_ty(d1, lp) == typ && 0 <= lp < ctx_len_[d1] && ctx_valid(d1) && ctx_valid(d2);
  //@ ghost Tail: ;
  int r = let_build_tail(p, ps, prim, lin, d1, lp) /*@ ghost (d, d2, d3, pb, pa, ct, cg) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pa && ty_same(ty_right_[tyr], TY_LFUN, ct, cg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a] + 40;
  //@ assert tables_grow{Tail, Here} && side_same{Tail, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* R(map (x. a) b), b : Arr sigma, a : tau in G, x : sigma:
 *   let p = R b; y = fst p; ps = map (x. R a) y in
 *   (map (z. fst z) ps,
 *    \v. let cs = build (length y) (i. snd ps[i] v[i]) in
 *        lsum (length y) (j. fst cs[j]) + snd p (map (w. snd w) cs))
 * R b and the extensions (p, y, the binder x) here, R a and the rest in
 * rev_map_body (one recursive call per function). */
/*@ RULE_PRE(t, d, tm_kind_[t] == TM_MAP);
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases REV_M(depth) - 2;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_map(int t, int d, int ct, int depth)
{
  //@ assert node_ok(t) && msrc_ok(t) && msz_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tarr = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t);
  //@ ghost int ga = tm_ctx_[a];
  //@ ghost int tau = tm_ty_[a];
  //@ ghost int tb = tm_ty_[b];
  //@ ghost int sg = ty_left_[tb];
  //@ assert 0 <= a < t && 0 <= b < t && chad_msrc_[a] == 1 && chad_msrc_[b] == 1;
  //@ assert map_src: tm_ctx_[b] == g && arr_ok(tb) && ty_same(tarr, TY_ARR, tau, -1);
  //@ assert map_ga: ctx_is_ext(ga, g, sg) && 0 < ga < ctx_count && ctx_parent_[ga] == g && ctx_type_[ga] == sg;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b]);
  /* the size budget: R b, R a and at most 40 nodes of this rule (or the
   * whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert map_budget: REV_K * chad_msz_[a] + REV_K * chad_msz_[b] + 40 <= REV_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= REV_K * chad_msz_[t]; */
  /*@ ghost int cgv = tm_ctx_[t] == CTX_EMPTY ? TY_ID_UNIT :
        chad_memo_ctx_[CHAD_COT][tm_ctx_[t]] - 1; */
  //@ assert cgv == trc(CHAD_COT, g) && lin(cgv);
  //@ assert memo_ty_inv && trh(CHAD_COT, tarr) && trh(CHAD_PREV, tarr) && ct == chad_memo_ty_[CHAD_COT][tarr] - 1;
  //@ ghost int pa = chad_memo_ty_[CHAD_PREV][tarr] - 1;
  int p = rev(b, d, depth + 1);
  //@ assert pb_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert pb_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  //@ assert pb_rev: tm_ctx_[p] == d && rev_ty(tm_ty_[p], tb, g) && 0 <= p < tm_count;
  //@ assert pb_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b];
  //@ assert pb_arr: trh(CHAD_PREV, tarr) && trm(CHAD_PREV, tarr) == pa && trh(CHAD_COT, tarr) && trm(CHAD_COT, tarr) == ct && trc(CHAD_COT, g) == cgv;
  //@ assert pb_tb: trh(CHAD_PREV, tb) && trh(CHAD_COT, tb);
  //@ ghost rev_tr_step(CHAD_PREV, tb);
  //@ ghost rev_tr_step(CHAD_COT, tb);
  //@ ghost rev_tr_step(CHAD_PREV, tarr);
  //@ ghost rev_tr_step(CHAD_COT, tarr);
  //@ assert pb_sg: trh(CHAD_PREV, sg) && trh(CHAD_COT, sg);
  //@ assert pb_tau: trh(CHAD_PREV, tau) && trh(CHAD_COT, tau);
  //@ ghost int pb = chad_memo_ty_[CHAD_PREV][tb] - 1;
  //@ ghost int cb = chad_memo_ty_[CHAD_COT][tb] - 1;
  //@ ghost int psg = chad_memo_ty_[CHAD_PREV][sg] - 1;
  //@ ghost int csg = chad_memo_ty_[CHAD_COT][sg] - 1;
  //@ ghost int pt = chad_memo_ty_[CHAD_PREV][tau] - 1;
  //@ ghost int cte = chad_memo_ty_[CHAD_COT][tau] - 1;
  //@ assert pb_pb: ty_valid(pb) && ty_same(pb, TY_ARR, psg, -1) && ty_valid(cb) && ty_same(cb, TY_ARR, csg, -1);
  //@ assert pb_pa: ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1);
  //@ assert pb_ct: lin(ct) && ty_same(ct, TY_ARR, cte, -1);
  //@ ghost int typ = tm_ty_[p];
  //@ assert pb_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pb && ty_same(ty_right_[typ], TY_LFUN, cb, cgv);
  //@ assert pb_env: env_ok(CHAD_PREV, g, d) && ctx_valid(d);
  int lp = L(d), d1 = rev_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_len_[d1] == lp + 1 && lp == ctx_len_[d];
  //@ assert d1_lvl: lvl_ty(d1, lp) == typ;
  //@ assert d1_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pb;
  int ly = L(d1), d2 = rev_ext(d1, ty_left(tyof(p)));
  //@ assert d2 >= 0 || d2 == CHAD_E_CAPACITY;
  //@ assert d2_keep: env_keep{Pre, Here};
  if (d2 < 0) return d2;
  //@ assert d2_ext: ctx_is_ext(d2, d1, pb) && ctx_valid(d2) && ctx_len_[d2] == ly + 1 && ly == lp + 1;
  //@ assert d2_lvl: lvl_ty(d2, ly) == pb && lvl_ty(d1, lp) == typ;
  //@ assert d2_pb: ty_valid(pb) && ty_kind_[pb] == TY_ARR && ty_left_[pb] == psg;
  int lx = L(d2), e1 = rev_ext(d2, ty_left(ty_left(tyof(p))));
  //@ assert e1 >= 0 || e1 == CHAD_E_CAPACITY;
  //@ assert e1_keep: env_keep{Pre, Here};
  if (e1 < 0) return e1;
  //@ assert e1_ext: ctx_is_ext(e1, d2, psg) && ctx_valid(e1) && ctx_len_[e1] == lx + 1 && lx == ly + 1;
  //@ assert e1_lvl: lvl_ty(e1, lx) == psg && lvl_ty(d2, ly) == pb && lvl_ty(d1, lp) == typ;
  //@ assert e1_env: env_ok(CHAD_PREV, g, e1);
  //@ assert e1_c: ctx_is_ext(d1, d, typ) && ctx_is_ext(d2, d1, pb) && ctx_valid(d);
  //@ assert e1_ord: 0 <= d < d1 < d2 < e1 < ctx_count;
  //@ assert e1_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert e1_memo: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == cte && trc(CHAD_COT, g) == cgv;
  //@ assert e1_sg: trh(CHAD_PREV, sg) && trm(CHAD_PREV, sg) == psg && trh(CHAD_COT, sg) && trm(CHAD_COT, sg) == csg;
  //@ ghost Body: ;
  int res = rev_map_body(a, p, d1, d2, e1, lp, ly, lx, ct, depth)
    /*@ ghost (g, ga, sg, tau, psg, csg, pt, cte, pa, cgv, d, typ, pb, cb) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= REV_K * chad_msz_[a] + 40;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert res >= 0 || res == CHAD_E_CAPACITY || res == CHAD_E_DEPTH;
  //@ ghost int tyr = res >= 0 ? tm_ty_[res] : 0;
  //@ assert res >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pa && ty_same(ty_right_[tyr], TY_LFUN, ct, cgv);
  //@ assert r_memo1: trh(CHAD_PREV, tarr) && trm(CHAD_PREV, tarr) == pa;
  //@ assert r_memo2: trh(CHAD_COT, tarr) && trm(CHAD_COT, tarr) == ct;
  //@ assert r_memo3: trch(CHAD_COT, g) && trc(CHAD_COT, g) == cgv;
  //@ assert res >= 0 ==> rev_ty(tm_ty_[res], \at(tm_ty_[t], Pre), \at(tm_ctx_[t], Pre));
  return res;
}
