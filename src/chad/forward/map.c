/* F(map (x.b) a)  = let (y,dy) = F a; f = \x. F_{G,x} b in
 *                   (map (x. fst (f x)) y,
 *                    \v. let dys = dy v in build (length y) (i. (snd (f y[i])) (v, dys[i])))
 * (../shared/chad-rules.md, section 4, forward mode)
 *   fwd_map_el    (snd (f y[i])) (v, dys[i]), element i's tangent
 *   fwd_map_lin   the linear half  \v. let dys = dy v in build (length y) (i. ...)
 *   fwd_map_body  f = \x. F_{G,x} b mapped over y, and the pair
 *   fwd_map       the rule: F a, y, then fwd_map_body
 * Part of forward.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* snd ps[i] (v, dys[i]), the tangent of F(map)'s element i, in g3 = g2, i
 * (level li) where level lps holds ps : aq = Arr Q, Q = P tau * (tgx -o
 * tt) (tgx = T(G, x) = T G * T sigma), level lv holds v : tg and level
 * ldys holds dys : sb = T(Arr sigma) = Arr tsg. Against the kernel's
 * invariant only; no extension (the caller makes g3). */
/*@ requires kernel_inv;
    requires ctx_valid(g3) && ty_valid(tg) && ty_valid(tt);
    requires ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, tsg);
    requires ty_valid(sb) && ty_same(sb, TY_ARR, tsg, -1);
    requires 0 <= li < ctx_len_[g3] && lvl_ty(g3, li) == TY_ID_INT;
    requires 0 <= lps < ctx_len_[g3] && lvl_ty(g3, lps) == aq;
    requires 0 <= lv < ctx_len_[g3] && lvl_ty(g3, lv) == tg;
    requires 0 <= ldys < ctx_len_[g3] && lvl_ty(g3, ldys) == sb;
    requires ty_valid(aq) && ty_same(aq, TY_ARR, q, -1);
    requires ty_valid(q) && ty_kind_[q] == TY_PROD && ty_same(ty_right_[q], TY_LFUN, tgx, tt);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS;
    ensures kernel_inv;
    ensures fmap_el_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == g3 &&
      tm_ty_[\result] == tt;
    ensures fmap_el_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures fmap_el_size: \old(tm_count) <= tm_count <= \old(tm_count) + 10;
    ensures fmap_el_frame: \old(ty_count) <= ty_count;
    ensures fmap_el_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
*/
static int fwd_map_el(int g3, int li, int lps, int lv, int ldys)
  /*@ ghost (int tg, int tt, int tgx, int tsg, int sb, int aq, int q) */
{
  //@ ghost int qr = ty_right_[q];
  //@ assert q_node: ty_inv && ty_node_ok(q) && 0 <= qr < q && ty_same(qr, TY_LFUN, tgx, tt);
  int a = V(g3, lps);
  //@ assert a >= 0 ==> 0 <= a < tm_count && tm_ctx_[a] == g3 && tm_ty_[a] == aq;
  //@ assert a >= 0 || a == CHAD_E_CAPACITY;
  int i1 = V(g3, li);
  //@ assert i1 >= 0 ==> 0 <= i1 < tm_count && tm_ctx_[i1] == g3 && tm_ty_[i1] == TY_ID_INT;
  //@ assert i1 >= 0 || i1 == CHAD_E_CAPACITY;
  //@ assert a >= 0 ==> arr_ok(tm_ty_[a]) && ty_left_[tm_ty_[a]] == q;
  int x = b_index(a, i1);
  //@ assert x >= 0 ==> 0 <= x < tm_count && tm_ctx_[x] == g3 && tm_ty_[x] == q;
  //@ assert x >= 0 || x == CHAD_E_CAPACITY;
  int s = b_snd(x);
  //@ assert s >= 0 ==> 0 <= s < tm_count && tm_ctx_[s] == g3 && tm_ty_[s] == qr;
  //@ assert s >= 0 || s == CHAD_E_CAPACITY;
  int vv = V(g3, lv);
  //@ assert vv >= 0 ==> 0 <= vv < tm_count && tm_ctx_[vv] == g3 && tm_ty_[vv] == tg;
  //@ assert vv >= 0 || vv == CHAD_E_CAPACITY;
  int dy = V(g3, ldys);
  //@ assert dy >= 0 ==> 0 <= dy < tm_count && tm_ctx_[dy] == g3 && tm_ty_[dy] == sb;
  //@ assert dy >= 0 || dy == CHAD_E_CAPACITY;
  int i2 = V(g3, li);
  //@ assert i2 >= 0 ==> 0 <= i2 < tm_count && tm_ctx_[i2] == g3 && tm_ty_[i2] == TY_ID_INT;
  //@ assert i2 >= 0 || i2 == CHAD_E_CAPACITY;
  //@ assert dy >= 0 ==> arr_ok(tm_ty_[dy]) && ty_left_[tm_ty_[dy]] == tsg;
  int e = b_index(dy, i2);
  //@ assert e >= 0 ==> 0 <= e < tm_count && tm_ctx_[e] == g3 && tm_ty_[e] == tsg;
  //@ assert e >= 0 || e == CHAD_E_CAPACITY;
  //@ assert vv >= 0 ==> 0 <= vv < tm_count && tm_ctx_[vv] == g3 && tm_ty_[vv] == tg;
  int pr = b_pair(vv, e);
  //@ assert pr >= 0 ==> 0 <= pr < tm_count && tm_ctx_[pr] == g3 && ty_same(tm_ty_[pr], TY_PROD, tg, tsg) && ty_valid(tm_ty_[pr]);
  //@ assert pr >= 0 || pr == CHAD_E_CAPACITY;
  /* hash-consing: (v, dys[i]) has the type T(G, x) itself */
  //@ assert tgx_same: ty_inv && ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, tsg);
  //@ assert pr_tgx: pr >= 0 ==> tm_ty_[pr] == tgx;
  //@ assert s >= 0 ==> 0 <= s < tm_count && tm_ctx_[s] == g3 && ty_same(tm_ty_[s], TY_LFUN, tgx, tt);
  int r = b_lapp(s, pr);
  //@ assert r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == g3 && tm_ty_[r] == tt;
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 10;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  return r;
}

/* The linear half of F(map (x. a) b) (a the body, b the array), in d3
 * where level lp holds p = F b : typ = P(Arr sigma) * (tg -o sb), sb =
 * T(Arr sigma) = Arr tsg, level ly holds y = fst p : yt and level lps
 * holds ps : aq = Arr Q, Q = P tau * (tgx -o tt):
 *   \v. let dys = snd p v in build (length y) (i. snd ps[i] (v, dys[i]))
 * of type tg -o st, st = Arr tt. Against the kernel's invariant only. */
/*@ requires kernel_inv;
    requires ctx_valid(d3) && ty_valid(tg) && ty_valid(tt) && lin(st) && ty_same(st, TY_ARR, tt, -1);
    requires ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, tsg);
    requires ty_valid(sb) && lin(sb) && ty_same(sb, TY_ARR, tsg, -1);
    requires 0 <= lp < ctx_len_[d3] && lvl_ty(d3, lp) == typ;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, tg, sb);
    requires 0 <= ly < ctx_len_[d3] && lvl_ty(d3, ly) == yt && arr_ok(yt);
    requires 0 <= lps < ctx_len_[d3] && lvl_ty(d3, lps) == aq;
    requires ty_valid(aq) && ty_same(aq, TY_ARR, q, -1);
    requires ty_valid(q) && ty_kind_[q] == TY_PROD && ty_same(ty_right_[q], TY_LFUN, tgx, tt);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE;
    ensures kernel_inv;
    ensures fmap_lin_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d3 &&
      ty_same(tm_ty_[\result], TY_LFUN, tg, st);
    ensures fmap_lin_codes: \result >= 0 || \result == CHAD_E_CAPACITY;
    ensures fmap_lin_size: \old(tm_count) <= tm_count <= \old(tm_count) + 19;
    ensures fmap_lin_frame: \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures fmap_lin_grow: tables_grow{Pre, Post} && side_same{Pre, Post};
    ensures fmap_lin_lvl: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \old(lvl_ty(d3, l));
    ensures env_keep{Pre, Post};
*/
static int fwd_map_lin(int d3, int lp, int ly, int lps, int tg)
  /*@ ghost (int tt, int st, int tgx, int tsg, int sb, int typ, int yt, int aq, int q) */
{
  //@ ghost int tr = ty_right_[typ];
  //@ assert p_node: ty_inv && ty_node_ok(typ) && 0 <= tr < typ && ty_same(tr, TY_LFUN, tg, sb);
  int lv = L(d3), g1 = k_ext(d3, tg);
  if (g1 < 0) return g1;
  //@ assert g1_ctx: ctx_valid(g1) && ctx_is_ext(g1, d3, tg) && ctx_len_[g1] == lv + 1 && lv == ctx_len_[d3];
  //@ assert g1_lvl: lvl_ty(g1, lv) == tg && lvl_ty(g1, lp) == typ && lvl_ty(g1, ly) == yt && lvl_ty(g1, lps) == aq;
  //@ assert g1_keep: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  //@ ghost G1: ;
  int vp = V(g1, lp);
  //@ assert vp >= 0 ==> 0 <= vp < tm_count && tm_ctx_[vp] == g1 && tm_ty_[vp] == typ;
  //@ assert vp >= 0 || vp == CHAD_E_CAPACITY;
  //@ assert ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_right_[typ] == tr;
  int sp = b_snd(vp);
  //@ assert sp >= 0 ==> 0 <= sp < tm_count && tm_ctx_[sp] == g1 && tm_ty_[sp] == tr;
  //@ assert sp >= 0 || sp == CHAD_E_CAPACITY;
  //@ assert sp >= 0 ==> ty_same(tm_ty_[sp], TY_LFUN, tg, sb);
  int v1 = V(g1, lv);
  //@ assert v1 >= 0 ==> 0 <= v1 < tm_count && tm_ctx_[v1] == g1 && tm_ty_[v1] == tg;
  //@ assert v1 >= 0 || v1 == CHAD_E_CAPACITY;
  int dys = b_lapp(sp, v1);
  //@ assert dys >= 0 ==> 0 <= dys < tm_count && tm_ctx_[dys] == g1 && tm_ty_[dys] == sb;
  //@ assert dys >= 0 || dys == CHAD_E_CAPACITY;
  //@ assert dys_grow: tables_grow{G1, Here} && side_same{G1, Here};
  //@ assert dys_keep: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  //@ assert dys_lvl: lvl_ty(g1, lv) == tg && lvl_ty(g1, ly) == yt && lvl_ty(g1, lps) == aq && ctx_valid(g1);
  if (dys < 0) return dys;
  int ldys = L(g1), g2 = k_ext(g1, tyof(dys));
  //@ assert g2_keep0: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  if (g2 < 0) return g2;
  //@ assert g2_ctx: ctx_valid(g2) && ctx_is_ext(g2, g1, sb) && ctx_len_[g2] == ldys + 1 && ldys == ctx_len_[g1];
  //@ assert g2_lvl: lvl_ty(g2, ldys) == sb && lvl_ty(g2, lv) == tg && lvl_ty(g2, ly) == yt && lvl_ty(g2, lps) == aq;
  int li = L(g2), g3 = k_ext(g2, TY_ID_INT);
  //@ assert g3_keep0: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  if (g3 < 0) return g3;
  //@ assert g3_ctx: ctx_valid(g3) && ctx_is_ext(g3, g2, TY_ID_INT) && ctx_len_[g3] == li + 1 && li == ctx_len_[g2];
  //@ assert g3_lvl: lvl_ty(g3, li) == TY_ID_INT && lvl_ty(g3, ldys) == sb && lvl_ty(g3, lv) == tg && lvl_ty(g3, lps) == aq;
  //@ assert g3_keep: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  //@ assert g3_g2: lvl_ty(g2, ly) == yt && ctx_valid(g2);
  //@ ghost Exts: ;
  int el = fwd_map_el(g3, li, lps, lv, ldys) /*@ ghost (tg, tt, tgx, tsg, sb, aq, q) */;
  //@ assert el >= 0 ==> 0 <= el < tm_count && tm_ctx_[el] == g3 && tm_ty_[el] == tt;
  //@ assert el >= 0 || el == CHAD_E_CAPACITY;
  //@ assert el_ctx: ctx_count == \at(ctx_count, Exts);
  //@ assert el_lvl: lvl_ty(g2, ly) == yt && ctx_valid(g2);
  int vy = V(g2, ly);
  //@ assert vy >= 0 ==> 0 <= vy < tm_count && tm_ctx_[vy] == g2 && tm_ty_[vy] == yt;
  //@ assert vy >= 0 || vy == CHAD_E_CAPACITY;
  int n = b_length(vy);
  //@ assert n >= 0 ==> 0 <= n < tm_count && tm_ctx_[n] == g2 && tm_ty_[n] == TY_ID_INT;
  //@ assert n >= 0 || n == CHAD_E_CAPACITY;
  //@ assert el >= 0 ==> 0 <= el < tm_count && tm_ctx_[el] == g3 && tm_ty_[el] == tt;
  //@ assert ctx_is_ext(g3, g2, TY_ID_INT);
  int bl = b_build(n, el);
  //@ assert bl >= 0 ==> 0 <= bl < tm_count && tm_ctx_[bl] == g2 && ty_same(tm_ty_[bl], TY_ARR, tt, -1);
  //@ assert bl >= 0 || bl == CHAD_E_CAPACITY;
  /* hash-consing: the array's type is T(Arr tau) itself */
  //@ assert bl >= 0 ==> ty_valid(tm_ty_[bl]);
  //@ assert st_same: ty_inv && ty_valid(st) && ty_same(st, TY_ARR, tt, -1);
  //@ assert bl_st: bl >= 0 ==> tm_ty_[bl] == st;
  //@ assert dys >= 0 ==> 0 <= dys < tm_count && tm_ctx_[dys] == g1 && tm_ty_[dys] == sb && ctx_is_ext(g2, g1, sb);
  int lt = b_let(dys, bl);
  //@ assert lt >= 0 ==> 0 <= lt < tm_count && tm_ctx_[lt] == g1 && tm_ty_[lt] == st;
  //@ assert lt >= 0 || lt == CHAD_E_CAPACITY;
  //@ assert lt >= 0 ==> ty_valid(tg) && llam_ok(tg, tm_ctx_[lt], tm_ty_[lt]);
  //@ assert lt_par: ctx_parent_[g1] == d3 && (lt >= 0 ==> tm_ctx_[lt] == g1 && tm_ty_[lt] == st);
  int r = b_llam(tg, lt);
  //@ assert r_ctx0: r >= 0 ==> 0 <= r < tm_count && tm_ctx_[r] == d3;
  //@ assert r_ty: r >= 0 ==> ty_same(tm_ty_[r], TY_LFUN, tg, st);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + 19;
  //@ assert tables_grow{Pre, Here} && side_same{Pre, Here};
  //@ assert r_ctx: ctx_count == \at(ctx_count, Exts) && ctx_len_[d3] == \at(ctx_len_[d3], Exts);
  //@ assert r_keep: \forall integer l; 0 <= l < ctx_len_[d3] ==> lvl_ty(d3, l) == \at(lvl_ty(d3, l), Pre);
  return r;
}

/* F(map)'s recursive call and the rest: the body a (of type tau in ga =
 * G, x : sigma) under its binder in e1 = d2, x (d1 = d, p; d2 = d1, y with
 * y = fst p : pb = P(Arr sigma)), then ps = map (x. q) y in d2, its
 * extension d3, the linear half fwd_map_lin, the primal map_primal and the
 * tail let_build_tail (shared with build: let p in let y = fst p in let ps
 * in (prim, lin)). */
/*@ requires kernel_inv && memo_inv && src_inv && venv_wf;
    requires 0 <= a < tm_count && chad_msrc_[a] == 1 && 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[a] == ga && tm_ty_[a] == tau;
    requires 0 < ga < ctx_count && ctx_parent_[ga] == g && ctx_type_[ga] == sg;
    requires env_ok(CHAD_PFWD, g, e1);
    requires trh(CHAD_PFWD, sg) && trm(CHAD_PFWD, sg) == psg && trh(CHAD_TAN, sg) && trm(CHAD_TAN, sg) == tsg;
    requires trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt && trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt;
    requires ty_valid(tt) && lin(st) && ty_same(st, TY_ARR, tt, -1) && ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1);
    requires trch(CHAD_TAN, g) && trc(CHAD_TAN, g) == tg && ty_valid(tg);
    requires ty_valid(pb) && ty_same(pb, TY_ARR, psg, -1) && ty_valid(sb) && lin(sb) && ty_same(sb, TY_ARR, tsg, -1);
    requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pb &&
      ty_same(ty_right_[typ], TY_LFUN, tg, sb);
    requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_is_ext(d2, d1, pb) &&
      ctx_is_ext(e1, d2, psg);
    requires lp == ctx_len_[d] && ly == lp + 1 && lx == ly + 1;
    requires ctx_len_[d1] == ly && ctx_len_[d2] == lx && ctx_len_[e1] == lx + 1;
    requires 0 <= d < d1 < d2 < e1 < ctx_count;
    requires lvl_ty(d1, lp) == typ && lvl_ty(d2, ly) == pb && lvl_ty(e1, lx) == psg;
    terminates \true;
    decreases FWD_M(depth) - 3;
    FWD_ASSIGNS;
    ensures kernel_inv && memo_inv && src_inv && venv_wf;
    ensures venv_sp == \old(venv_sp) && venv_cur == \old(venv_cur);
    ensures memo_grows{Pre, Post};
    ensures \old(tm_count) <= tm_count && \old(ty_count) <= ty_count && \old(ctx_count) <= ctx_count;
    ensures env_keep{Pre, Post};
    ensures fmbody_size: tm_count - \old(tm_count) <= FWD_K * chad_msz_[a] + 31;
    ensures fmbody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures fmbody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pa && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, tg, st);
*/
static int fwd_map_body(int a, int p, int d1, int d2, int e1, int lp, int ly, int lx, int tg, int depth)
  /*@ ghost (int g, int ga, int sg, int tau, int psg, int tsg, int pt, int tt, int pa, int st,
             int d, int typ, int pb, int sb) */
{
  //@ assert x_ga: env_ok(CHAD_PFWD, ctx_parent_[ga], e1) && trh(CHAD_PFWD, ctx_type_[ga]) && trm(CHAD_PFWD, ctx_type_[ga]) == psg;
  //@ assert x_lx: 0 <= lx < ctx_len_[e1] && lvl_ty(e1, lx) == psg;
  /* typ's right half named before the call (as rev_app_body) */
  //@ ghost int tpr = ty_right_[typ];
  //@ assert x_tpr: ty_valid(tpr) && ty_same(tpr, TY_LFUN, tg, sb);
  int q = fwd_under(a, e1, lx, depth + 1);
  //@ assert q_keep: env_keep{Pre, Here};
  //@ assert q_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[a];
  if (q < 0) return q;
  //@ assert q_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a];
  //@ assert q_fwd: tm_ctx_[q] == e1 && fwd_ty(tm_ty_[q], ga, tau) && 0 <= q < tm_count;
  //@ ghost int tyq = tm_ty_[q];
  //@ ghost int tgx = chad_memo_ctx_[CHAD_TAN][ga] - 1;
  //@ assert q_tgx: trch(CHAD_TAN, ga) && trc(CHAD_TAN, ga) == tgx && 0 < ga;
  //@ ghost trc_step(CHAD_TAN, ga);
  //@ assert q_memo1: trm(CHAD_PFWD, tau) == pt && trm(CHAD_TAN, tau) == tt && trc(CHAD_TAN, g) == tg;
  //@ assert q_memo2: trh(CHAD_TAN, sg) && trm(CHAD_TAN, sg) == tsg;
  //@ assert q_tgx2: ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, tsg);
  //@ assert q_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, tgx, tt);
  //@ assert q_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert q_tpr: ty_right_[typ] == tpr && ty_valid(tpr) && ty_same(tpr, TY_LFUN, tg, sb);
  //@ assert q_typ: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pb && ty_same(ty_right_[typ], TY_LFUN, tg, sb);
  //@ assert q_pb: ty_valid(pb) && ty_same(pb, TY_ARR, psg, -1) && ty_valid(sb) && lin(sb) && ty_same(sb, TY_ARR, tsg, -1);
  //@ assert q_pa: ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1) && lin(st) && ty_same(st, TY_ARR, tt, -1) && ty_valid(tg) && ty_valid(tt);
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
  //@ assert ps_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  //@ assert ps_keep: env_keep{Pre, Here};
  //@ assert ps_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a] + 2;
  if (ps < 0) return ps;
  //@ ghost int aq = tm_ty_[ps];
  //@ assert ps_aq: ty_valid(aq) && ty_same(aq, TY_ARR, tyq, -1);
  //@ assert ps_c1: ctx_parent_[d1] == d && ctx_type_[d1] == typ && ctx_len_[d1] == ly;
  //@ assert ps_c2: ctx_parent_[d2] == d1 && ctx_type_[d2] == pb && ctx_len_[d2] == lx;
  //@ assert ps_l2: lvl_ty(d2, ly) == pb && lvl_ty(d2, lp) == typ && ctx_valid(d2);
  int lps = L(d2), d3 = f_ext(d2, tyof(ps));
  //@ assert d3 >= 0 || d3 == CHAD_E_CAPACITY;
  //@ assert d3_keep: env_keep{Pre, Here};
  //@ assert d3_ret: d3 < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[a] + 31;
  if (d3 < 0) return d3;
  //@ assert d3_ext: ctx_is_ext(d3, d2, aq) && ctx_len_[d3] == lps + 1 && lps == lx && ctx_valid(d3);
  //@ assert d3_lps: lvl_ty(d3, lps) == aq;
  //@ assert d3_ly: lvl_ty(d3, ly) == pb && lvl_ty(d3, lp) == typ && 0 <= lp < ly < lps;
  //@ assert d3_q0: 0 <= q < tm_count && tm_ty_[q] == tyq;
  //@ assert d3_q: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, tgx, tt);
  //@ assert d3_tgx: ty_valid(tgx) && ty_same(tgx, TY_PROD, tg, tsg);
  //@ assert d3_st: lin(st) && ty_same(st, TY_ARR, tt, -1) && ty_valid(tg) && ty_valid(tt);
  //@ assert d3_pb: arr_ok(pb) && ty_valid(sb) && lin(sb) && ty_same(sb, TY_ARR, tsg, -1);
  //@ assert d3_tpr: ty_right_[typ] == tpr && ty_same(tpr, TY_LFUN, tg, sb);
  //@ assert d3_typ: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, tg, sb);
  //@ ghost Built: ;
  int lin = fwd_map_lin(d3, lp, ly, lps, tg) /*@ ghost (tt, st, tgx, tsg, sb, typ, pb, aq, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d3 && ty_same(tm_ty_[lin], TY_LFUN, tg, st) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_keep: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a] + 21;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  //@ assert lin_ret: lin < 0 ==> tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[a] + 31;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert l_lin: tm_ctx_[lin] == d3 && ty_valid(tyl) && ty_same(tyl, TY_LFUN, tg, st) && 0 <= lin < tm_count;
  //@ assert l_lvl: lvl_ty(d3, lps) == aq && ctx_valid(d3) && 0 <= lps < ctx_len_[d3];
  //@ assert l_aq: ty_valid(aq) && ty_same(aq, TY_ARR, tyq, -1) && ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt;
  //@ assert l_q: 0 <= q < tm_count && tm_ty_[q] == tyq;
  //@ ghost Lin: ;
  int tq = tyof(q);
  /* in two steps: as one goal it was the fragile one of this function */
  //@ assert l_tq1: tq == tyq;
  //@ assert l_tq: tq == tyq && ty_valid(tq) && ty_kind_[tq] == TY_PROD && ty_left_[tq] == pt;
  int prim = map_primal(d3, lps, tq) /*@ ghost (aq, pt) */;
  //@ assert prim >= 0 ==> 0 <= prim < tm_count && tm_ctx_[prim] == d3 && ty_valid(tm_ty_[prim]) && ty_same(tm_ty_[prim], TY_ARR, pt, -1);
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  /* hash-consing: the primal's type is P(Arr tau) itself */
  //@ assert prim >= 0 ==> ty_inv && ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1) && ty_same(tm_ty_[prim], TY_ARR, pt, -1);
  //@ assert p_pa: prim >= 0 ==> tm_ty_[prim] == pa;
  //@ assert p_keep: env_keep{Pre, Here};
  //@ assert p_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a] + 25;
  //@ assert p_grow: tables_grow{Lin, Here} && side_same{Lin, Here};
  //@ assert p_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  if (prim < 0) return prim;
  //@ assert t_lin0: tm_ty_[lin] == tyl && tm_ctx_[lin] == d3 && 0 <= lin < tm_count;
  //@ assert t_lin1: ty_valid(tyl) && ty_same(tyl, TY_LFUN, tg, st);
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
  int r = let_build_tail(p, ps, prim, lin, d1, lp) /*@ ghost (d, d2, d3, pb, pa, tg, st) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pa && ty_same(ty_right_[tyr], TY_LFUN, tg, st);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[a] + 31;
  //@ assert tables_grow{Tail, Here} && side_same{Tail, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && venv_wf;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* F(map (x. a) b), b : Arr sigma, a : tau in G, x : sigma:
 *   let p = F b; y = fst p; ps = map (x. F a) y in
 *   (map (z. fst z) ps,
 *    \v. let dys = snd p v in build (length y) (i. snd ps[i] (v, dys[i])))
 * F b and the extensions (p, y, the binder x) here, F a and the rest in
 * fwd_map_body (one recursive call per function). */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_MAP; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases FWD_M(depth) - 2;
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_map(int t, int d, int tg, int depth)
{
  //@ assert node_ok(t) && msz_ok(t) && msrc_ok(t);
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
  /* the size budget: F b, F a and at most 31 nodes of this rule (or the
   * whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert map_budget: FWD_K * chad_msz_[a] + FWD_K * chad_msz_[b] + 31 <= FWD_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= FWD_K * chad_msz_[t]; */
  //@ ghost int pa = chad_memo_ty_[CHAD_PFWD][tarr] - 1;
  //@ ghost int st = chad_memo_ty_[CHAD_TAN][tarr] - 1;
  //@ ghost tan_lin_lemma();
  //@ assert map_lin: lin(st) && ty_valid(st) && ty_valid(tg);
  int p = f_sub(b, d, depth + 1);
  //@ assert pb_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert pb_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  //@ assert pb_fwd: tm_ctx_[p] == d && fwd_ty(tm_ty_[p], g, tb) && 0 <= p < tm_count;
  //@ assert pb_size: tm_count <= \at(tm_count, Pre) + FWD_K * chad_msz_[b];
  //@ assert pb_arr: trh(CHAD_PFWD, tarr) && trm(CHAD_PFWD, tarr) == pa && trh(CHAD_TAN, tarr) && trm(CHAD_TAN, tarr) == st && lin(st) && trc(CHAD_TAN, g) == tg;
  //@ assert pb_tb: trh(CHAD_PFWD, tb) && trh(CHAD_TAN, tb);
  //@ ghost tr_step(CHAD_PFWD, tb);
  //@ ghost tr_step(CHAD_TAN, tb);
  //@ ghost tr_step(CHAD_PFWD, tarr);
  //@ ghost tr_step(CHAD_TAN, tarr);
  //@ assert pb_sg: trh(CHAD_PFWD, sg) && trh(CHAD_TAN, sg);
  //@ assert pb_tau: trh(CHAD_PFWD, tau) && trh(CHAD_TAN, tau);
  //@ ghost int pb = chad_memo_ty_[CHAD_PFWD][tb] - 1;
  //@ ghost int sb = chad_memo_ty_[CHAD_TAN][tb] - 1;
  //@ ghost int psg = chad_memo_ty_[CHAD_PFWD][sg] - 1;
  //@ ghost int tsg = chad_memo_ty_[CHAD_TAN][sg] - 1;
  //@ ghost int pt = chad_memo_ty_[CHAD_PFWD][tau] - 1;
  //@ ghost int tt = chad_memo_ty_[CHAD_TAN][tau] - 1;
  //@ assert pb_pb: ty_valid(pb) && ty_same(pb, TY_ARR, psg, -1) && ty_valid(sb) && ty_same(sb, TY_ARR, tsg, -1);
  //@ ghost tan_lin_lemma();
  //@ assert pb_sblin: lin(sb);
  //@ assert pb_pa: ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1);
  //@ assert pb_st: ty_same(st, TY_ARR, tt, -1) && ty_valid(tt);
  //@ ghost int typ = tm_ty_[p];
  //@ assert pb_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pb && ty_same(ty_right_[typ], TY_LFUN, tg, sb);
  int lp = L(d), d1 = f_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_len_[d1] == lp + 1 && lp == ctx_len_[d];
  //@ assert d1_lvl: lvl_ty(d1, lp) == typ;
  //@ assert d1_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pb;
  int ly = L(d1), d2 = f_ext(d1, ty_left(tyof(p)));
  //@ assert d2 >= 0 || d2 == CHAD_E_CAPACITY;
  //@ assert d2_keep: env_keep{Pre, Here};
  if (d2 < 0) return d2;
  //@ assert d2_ext: ctx_is_ext(d2, d1, pb) && ctx_valid(d2) && ctx_len_[d2] == ly + 1 && ly == lp + 1;
  //@ assert d2_top: lvl_ty(d2, ctx_len_[d1]) == pb && ly == ctx_len_[d1];
  //@ assert d2_lvl: lvl_ty(d2, ly) == pb && lvl_ty(d1, lp) == typ;
  //@ assert d2_pb: ty_valid(pb) && ty_kind_[pb] == TY_ARR && ty_left_[pb] == psg;
  int lx = L(d2), e1 = f_ext(d2, ty_left(ty_left(tyof(p))));
  //@ assert e1 >= 0 || e1 == CHAD_E_CAPACITY;
  //@ assert e1_keep: env_keep{Pre, Here};
  if (e1 < 0) return e1;
  //@ assert e1_ext: ctx_is_ext(e1, d2, psg) && ctx_valid(e1) && ctx_len_[e1] == lx + 1 && lx == ly + 1;
  //@ assert e1_top: lvl_ty(e1, ctx_len_[d2]) == psg && lx == ctx_len_[d2];
  //@ assert e1_lvl: lvl_ty(e1, lx) == psg && lvl_ty(d2, ly) == pb && lvl_ty(d1, lp) == typ;
  //@ assert e1_env: env_ok(CHAD_PFWD, g, e1);
  //@ assert e1_c: ctx_is_ext(d1, d, typ) && ctx_is_ext(d2, d1, pb) && ctx_valid(d);
  //@ assert e1_nodes: ctx_inv && ctx_node_ok(e1) && ctx_node_ok(d2) && ctx_node_ok(d1) && ctx_valid(d);
  //@ assert e1_ord: 0 <= d < d1 < d2 < e1 < ctx_count;
  //@ assert e1_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert e1_memo: trh(CHAD_PFWD, tau) && trm(CHAD_PFWD, tau) == pt && trh(CHAD_TAN, tau) && trm(CHAD_TAN, tau) == tt && trc(CHAD_TAN, g) == tg;
  //@ assert e1_sg: trh(CHAD_PFWD, sg) && trm(CHAD_PFWD, sg) == psg && trh(CHAD_TAN, sg) && trm(CHAD_TAN, sg) == tsg;
  //@ assert e1_venv: venv_wf;
  //@ ghost Body: ;
  int res = fwd_map_body(a, p, d1, d2, e1, lp, ly, lx, tg, depth)
    /*@ ghost (g, ga, sg, tau, psg, tsg, pt, tt, pa, st, d, typ, pb, sb) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= FWD_K * chad_msz_[a] + 31;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= FWD_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert res >= 0 || res == CHAD_E_CAPACITY || res == CHAD_E_DEPTH;
  //@ ghost int tyr = res >= 0 ? tm_ty_[res] : 0;
  //@ assert res >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pa && ty_same(ty_right_[tyr], TY_LFUN, tg, st);
  //@ assert res >= 0 ==> ty_node_ok(tyr) && 0 <= ty_right_[tyr] < tyr;
  //@ assert trh(CHAD_PFWD, tarr) && trh(CHAD_TAN, tarr) && trch(CHAD_TAN, g) && trm(CHAD_PFWD, tarr) == pa && trm(CHAD_TAN, tarr) == st && trc(CHAD_TAN, g) == tg;
  //@ assert res >= 0 ==> fwd_ty(tm_ty_[res], g, tarr);
  //@ assert tm_ctx_[t] == g && tm_ty_[t] == tarr;
  //@ assert map_type: res >= 0 ==> 0 <= res < tm_count && tm_ctx_[res] == d && fwd_ty(tm_ty_[res], tm_ctx_[t], tm_ty_[t]);
  return res;
}
