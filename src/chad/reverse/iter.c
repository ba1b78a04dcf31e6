/* R(iter n (x.b) s) = thread (x_i, dx_i) through n rounds:
 *                   (x_{i+1}, dx_{i+1}) = let (y,dy) = R_{G,x} b [x := x_i] in
 *                                         (y, \v. let (g,gx) = dy v in g + dx_i gx)
 * (../shared/chad-rules.md, section 5, reverse mode)
 *   rev_iter_last  the round's body R_{G,x} b and the iter term
 *   rev_iter_body  R s (the start) and the round's contexts, then rev_iter_last
 *   rev_iter       the rule: R n, then rev_iter_body
 * Part of reverse.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* R(iter)'s last recursive call and the rest: the body b (of type tau in
 * gb = G, x : tau) under its binder in e2 = e1, x : pt, where d1 = d, pn;
 * d2 = d1, ps; e1 = d2, s (s : st = ps's type, the iteration state
 * P tau * (C tau -o C G)); then the linear half
 *   \v. let g = snd q v in fst g + snd s (snd g)
 * (rev_let_lin, with s in the place of p) and the tail iter_tail. Gets
 * depth + 1 from rev_iter_body (offset 0), as the case branches. */
/*@ requires REV_INV;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= depth <= CHAD_MAX_DEPTH + 1;
    requires tm_ctx_[b] == gb && tm_ty_[b] == tau;
    requires 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == tau;
    requires env_ok(CHAD_PREV, g, e2);
    requires trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
    requires trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg && lin(cg);
    requires 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
    requires ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
    requires 0 <= ps < tm_count && tm_ctx_[ps] == d1 && tm_ty_[ps] == st;
    requires ty_valid(st) && ty_kind_[st] == TY_PROD && ty_left_[st] == pt &&
      ty_same(ty_right_[st], TY_LFUN, ct, cg);
    requires ctx_valid(d) && ctx_is_ext(d1, d, typn) && ctx_is_ext(d2, d1, st) &&
      ctx_is_ext(e1, d2, st) && ctx_is_ext(e2, e1, pt);
    requires ln == ctx_len_[d] && ls == ln + 1 && lc == ls + 1 && lx == lc + 1;
    requires ctx_len_[d1] == ls && ctx_len_[d2] == lc && ctx_len_[e1] == lx && ctx_len_[e2] == lx + 1;
    requires 0 <= d < d1 < d2 < e1 < e2 < ctx_count;
    requires lvl_ty(d2, ln) == typn && lvl_ty(d2, ls) == st && lvl_ty(e1, lc) == st &&
      lvl_ty(e2, lc) == st && lvl_ty(e2, lx) == pt;
    terminates \true;
    decreases REV_M(depth);
    REV_ASSIGNS;
    REV_FRAME;
    ensures ilast_size: tm_count - \old(tm_count) <= REV_K * chad_msz_[b] + 27;
    ensures ilast_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures ilast_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      tm_ty_[\result] == st;
*/
static int rev_iter_last(int b, int pn, int ps, int d2, int e1, int e2, int ln, int ls, int lc, int lx,
                         int ct, int depth)
  /*@ ghost (int g, int gb, int tau, int pt, int cg, int d, int d1, int typn, int st) */
{
  //@ ghost int sr = ty_right_[st];
  //@ assert x_sr: ty_inv && ty_node_ok(st) && 0 <= sr < st && ty_same(sr, TY_LFUN, ct, cg);
  //@ assert x_gb: env_ok(CHAD_PREV, ctx_parent_[gb], e2) && trh(CHAD_PREV, ctx_type_[gb]) && trm(CHAD_PREV, ctx_type_[gb]) == pt;
  //@ assert x_lx: 0 <= lx < ctx_len_[e2] && lvl_ty(e2, lx) == pt;
  int q = rev_under(b, e2, lx, depth + 1);
  //@ assert q_keep: env_keep{Pre, Here};
  //@ assert q_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b];
  if (q < 0) return q;
  //@ assert q_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b];
  //@ assert q_rev: tm_ctx_[q] == e2 && rev_ty(tm_ty_[q], tau, gb) && 0 <= q < tm_count;
  //@ assert q_memo1: trh(CHAD_PREV, tau) && trh(CHAD_COT, tau) && trm(CHAD_PREV, tau) == pt && trm(CHAD_COT, tau) == ct;
  //@ assert q_memo2: trc(CHAD_COT, g) == cg;
  //@ assert q_gb: 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == tau && trch(CHAD_COT, gb);
  //@ ghost rev_trc_step(CHAD_COT, gb);
  //@ ghost int cgb = chad_memo_ctx_[CHAD_COT][gb] - 1;
  //@ assert q_cgb0: trc(CHAD_COT, gb) == cgb;
  //@ assert q_cgb: ty_valid(cgb) && ty_same(cgb, TY_PROD, cg, ct);
  //@ ghost int tyq = tm_ty_[q];
  //@ assert q_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, ct, cgb);
  //@ assert q_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert q_ps: 0 <= ps < tm_count && tm_ctx_[ps] == d1 && tm_ty_[ps] == st;
  //@ assert q_typn: ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
  //@ assert q_st0: ty_right_[st] == sr && ty_same(sr, TY_LFUN, ct, cg);
  //@ assert q_st: ty_valid(st) && ty_kind_[st] == TY_PROD && ty_left_[st] == pt;
  //@ assert q_ord: 0 <= d < d1 < d2 < e1 < e2 < ctx_count;
  //@ assert q_c1: ctx_parent_[d1] == d && ctx_type_[d1] == typn && ctx_len_[d1] == ls;
  //@ assert q_c2: ctx_parent_[d2] == d1 && ctx_type_[d2] == st && ctx_len_[d2] == lc;
  //@ assert q_c3: ctx_parent_[e1] == d2 && ctx_type_[e1] == st && ctx_len_[e1] == lx;
  //@ assert q_c4: ctx_parent_[e2] == e1 && ctx_type_[e2] == pt && ctx_len_[e2] == lx + 1;
  //@ assert q_c0: ctx_valid(d) && ctx_len_[d] == ln;
  //@ assert q_l1: lvl_ty(d2, ln) == typn;
  //@ assert q_l2: lvl_ty(d2, ls) == st;
  //@ assert q_l3: lvl_ty(e1, lc) == st;
  //@ assert q_l4: lvl_ty(e2, lc) == st;
  int lq = L(e2), e3 = rev_ext(e2, tyof(q));
  //@ assert e3 >= 0 || e3 == CHAD_E_CAPACITY;
  //@ assert e3_keep: env_keep{Pre, Here};
  //@ assert e3_ret: e3 < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b] + 27;
  if (e3 < 0) return e3;
  //@ assert e3_ext: ctx_is_ext(e3, e2, tyq) && ctx_len_[e3] == lq + 1 && lq == lx + 1 && ctx_valid(e3);
  //@ assert e3_lq: lvl_ty(e3, lq) == tyq;
  //@ assert e3_lc0: lvl_ty(e3, lc) == lvl_ty(e2, lc);
  //@ assert e3_lc: lvl_ty(e3, lc) == st && 0 <= lc < lq;
  //@ assert e3_c1: ctx_parent_[d1] == d && ctx_type_[d1] == typn && ctx_len_[d1] == ls;
  //@ assert e3_c2: ctx_parent_[d2] == d1 && ctx_type_[d2] == st && ctx_len_[d2] == lc;
  //@ assert e3_c3: ctx_parent_[e1] == d2 && ctx_type_[e1] == st && ctx_len_[e1] == lx;
  //@ assert e3_c4: ctx_parent_[e2] == e1 && ctx_type_[e2] == pt && ctx_len_[e2] == lx + 1;
  //@ assert e3_c0: ctx_len_[d] == ln;
  //@ assert e3_l1: lvl_ty(d2, ln) == typn;
  //@ assert e3_l2: lvl_ty(d2, ls) == st;
  //@ assert e3_l3: lvl_ty(e1, lc) == st;
  //@ assert e3_st: ty_valid(st) && ty_kind_[st] == TY_PROD && ty_same(ty_right_[st], TY_LFUN, ct, cg);
  //@ assert e3_ct: ty_valid(ct) && lin(cg) && ty_valid(cgb) && ty_same(cgb, TY_PROD, cg, ct);
  //@ ghost Built: ;
  int lin = rev_let_lin(e3, lc, lq, ct) /*@ ghost (cg, ct, cgb, st, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == e3 && ty_same(tm_ty_[lin], TY_LFUN, ct, cg) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_keep: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 14;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert lin_ret: lin < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b] + 27;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert t_lin: ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg);
  //@ assert t_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert t_ps: 0 <= ps < tm_count && tm_ctx_[ps] == d1 && tm_ty_[ps] == st;
  //@ assert t_q: 0 <= q < tm_count && tm_ctx_[q] == e2 && tm_ty_[q] == tyq;
  //@ assert t_typn: ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
  //@ assert t_st0: ty_right_[st] == sr;
  //@ assert t_st: ty_valid(st) && ty_kind_[st] == TY_PROD && ty_left_[st] == pt && ty_same(ty_right_[st], TY_LFUN, ct, cg);
  //@ assert t_tyq: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt;
  //@ assert t_c1: ctx_parent_[d1] == d && ctx_type_[d1] == typn && ctx_len_[d1] == ls;
  //@ assert t_c2: ctx_parent_[d2] == d1 && ctx_type_[d2] == st && ctx_len_[d2] == lc;
  //@ assert t_c3: ctx_parent_[e1] == d2 && ctx_type_[e1] == st && ctx_len_[e1] == lx;
  //@ assert t_c4: ctx_parent_[e2] == e1 && ctx_type_[e2] == pt && ctx_len_[e2] == lx + 1;
  //@ assert t_c5: ctx_parent_[e3] == e2 && ctx_type_[e3] == tyq && ctx_len_[e3] == lq + 1;
  //@ assert t_c0: ctx_valid(d) && ctx_len_[d] == ln && 0 <= d < d1 < d2 < e1 < e2 < e3 < ctx_count;
  //@ assert t_e: ctx_is_ext(d1, d, typn) && ctx_is_ext(d2, d1, st) && ctx_is_ext(e1, d2, st) && ctx_is_ext(e2, e1, pt) && ctx_is_ext(e3, e2, tyq);
  //@ assert t_l1: lvl_ty(d2, ln) == typn;
  //@ assert t_l2: lvl_ty(d2, ls) == st;
  //@ assert t_l3: lvl_ty(e1, lc) == st;
  //@ assert t_l4: lvl_ty(e3, lq) == tyq;
  //@ ghost Tail: ;
  int r = iter_tail(pn, ps, q, lin, d2, e1, e3, ln, ls, lc, lq) /*@ ghost (d, d1, e2, pt, ct, cg) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && tm_ty_[r] == st && \at(tm_count, Pre) <= r < tm_count;
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 27;
  //@ assert tables_grow{Tail, Here} && side_same{Tail, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* R(iter)'s second recursive call: ps = R c in d1 = d, pn, then the
 * contexts of the iteration (d2 = d1, ps; e1 = d2, s; e2 = e1, x) and
 * rev_iter_last. */
/*@ requires REV_INV;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= c < tm_count && chad_msrc_[c] == 1;
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[b] == gb && tm_ty_[b] == tau && tm_ctx_[c] == g && tm_ty_[c] == tau;
    requires 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == tau;
    requires env_ok(CHAD_PREV, g, d1);
    requires trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
    requires trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg && lin(cg);
    requires 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
    requires ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
    requires ctx_valid(d) && ctx_is_ext(d1, d, typn) && ctx_valid(d1) && ctx_len_[d1] == ln + 1 && ln == ctx_len_[d];
    requires 0 <= d < d1 < ctx_count;
    terminates \true;
    decreases REV_M(depth) - 3;
    REV_ASSIGNS;
    REV_FRAME;
    ensures ibody_size: tm_count - \old(tm_count) <= REV_K * chad_msz_[c] + REV_K * chad_msz_[b] + 27;
    ensures ibody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures ibody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg);
*/
static int rev_iter_body(int b, int c, int pn, int d1, int ln, int ct, int depth)
  /*@ ghost (int g, int gb, int tau, int pt, int cg, int d, int typn) */
{
  //@ ghost int n0 = ctx_len_[d];
  //@ ghost int n1 = ctx_len_[d1];
  //@ assert s_env: env_ok(CHAD_PREV, tm_ctx_[c], d1);
  int ps = rev(c, d1, depth + 1);
  //@ assert ps_keep: env_keep{Pre, Here};
  //@ assert ps_ret: ps < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[c];
  if (ps < 0) return ps;
  //@ assert ps_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[c];
  //@ assert ps_rev: tm_ctx_[ps] == d1 && rev_ty(tm_ty_[ps], tau, g) && 0 <= ps < tm_count;
  //@ assert ps_memo: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct && trc(CHAD_COT, g) == cg;
  //@ ghost int st = tm_ty_[ps];
  //@ assert ps_st: ty_valid(st) && ty_kind_[st] == TY_PROD && ty_left_[st] == pt && ty_same(ty_right_[st], TY_LFUN, ct, cg);
  //@ ghost int sr = ty_right_[st];
  //@ assert ps_sr: ty_inv && ty_node_ok(st) && 0 <= sr < st && ty_same(sr, TY_LFUN, ct, cg);
  //@ assert ps_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert ps_typn: ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
  //@ assert ps_n0: ctx_len_[d] == n0;
  //@ assert ps_n1: ctx_len_[d1] == n1;
  //@ assert ps_d1: ctx_is_ext(d1, d, typn) && ctx_valid(d) && ctx_valid(d1) && ctx_len_[d1] == ln + 1 && ln == ctx_len_[d];
  //@ assert ps_env: env_ok(CHAD_PREV, g, d1);
  int ls = L(d1), d2 = rev_ext(d1, tyof(ps));
  //@ assert d2 >= 0 || d2 == CHAD_E_CAPACITY;
  //@ assert d2_keep: env_keep{Pre, Here};
  //@ assert d2_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[c] + REV_K * chad_msz_[b] + 27;
  if (d2 < 0) return d2;
  //@ assert d2_ext: ctx_is_ext(d2, d1, st) && ctx_valid(d2) && ctx_len_[d2] == ls + 1 && ls == ln + 1;
  //@ assert d2_l1: lvl_ty(d2, ls) == st && lvl_ty(d2, ln) == lvl_ty(d1, ln);
  //@ assert d2_l2: lvl_ty(d1, ln) == typn;
  //@ assert d2_l3: lvl_ty(d2, ln) == typn;
  int lc = L(d2), e1 = rev_ext(d2, tyof(ps));
  //@ assert e1 >= 0 || e1 == CHAD_E_CAPACITY;
  //@ assert e1_keep: env_keep{Pre, Here};
  if (e1 < 0) return e1;
  //@ assert e1_ext: ctx_is_ext(e1, d2, st) && ctx_valid(e1) && ctx_len_[e1] == lc + 1 && lc == ls + 1;
  //@ assert e1_l1: lvl_ty(e1, lc) == st;
  //@ assert e1_l2: lvl_ty(d2, ln) == typn && lvl_ty(d2, ls) == st;
  int px = ty_left(tyof(ps));
  //@ assert px == pt && ty_valid(pt);
  int lx = L(e1), e2 = rev_ext(e1, px);
  //@ assert e2 >= 0 || e2 == CHAD_E_CAPACITY;
  //@ assert e2_keep: env_keep{Pre, Here};
  if (e2 < 0) return e2;
  //@ assert e2_ext: ctx_is_ext(e2, e1, pt) && ctx_valid(e2) && ctx_len_[e2] == lx + 1 && lx == lc + 1;
  //@ assert e2_top: lvl_ty(e2, ctx_len_[e1]) == px && lx == ctx_len_[e1];
  //@ assert e2_lc: 0 <= lc < ctx_len_[e1] && lvl_ty(e2, lc) == lvl_ty(e1, lc);
  //@ assert e2_l1: lvl_ty(e2, lx) == pt && lvl_ty(e2, lc) == lvl_ty(e1, lc);
  //@ assert e2_l2: lvl_ty(e2, lc) == st;
  //@ assert e2_l3: lvl_ty(e1, lc) == st && lvl_ty(d2, ln) == typn && lvl_ty(d2, ls) == st;
  //@ assert e2_env: env_ok(CHAD_PREV, g, e2);
  //@ assert e2_c: ctx_is_ext(d1, d, typn) && ctx_is_ext(d2, d1, st) && ctx_is_ext(e1, d2, st) && ctx_valid(d);
  //@ assert e2_len: ln == ctx_len_[d] && ctx_len_[d1] == ls && ctx_len_[d2] == lc && ctx_len_[e1] == lx;
  /* the order one link at a time (all at once, the provers gave up) */
  //@ assert e2_o1: ctx_node_ok(d1) && 0 <= d < d1;
  //@ assert e2_o2: ctx_node_ok(d2) && d1 < d2;
  //@ assert e2_o3: ctx_node_ok(e1) && d2 < e1;
  //@ assert e2_o4: ctx_node_ok(e2) && e1 < e2 < ctx_count;
  //@ assert e2_ord: 0 <= d < d1 < d2 < e1 < e2 < ctx_count;
  //@ assert e2_ps: 0 <= ps < tm_count && tm_ctx_[ps] == d1 && tm_ty_[ps] == st;
  //@ assert e2_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ assert e2_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[c];
  //@ ghost Last: ;
  int r = rev_iter_last(b, pn, ps, d2, e1, e2, ln, ls, lc, lx, ct, depth + 1)
    /*@ ghost (g, gb, tau, pt, cg, d, d1, typn, st) */;
  //@ assert r_size: tm_count - \at(tm_count, Last) <= REV_K * chad_msz_[b] + 27;
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert r >= 0 ==> tm_ty_[r] == st && tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ assert r_st: ty_valid(st) && ty_kind_[st] == TY_PROD && ty_left_[st] == pt && ty_right_[st] == sr && ty_same(sr, TY_LFUN, ct, cg);
  return r;
}

/* let pn = R a; ps = R c in
 * iter (fst pn) (s. let x = fst s; q = R b in
 *     (fst q, \v. let g = snd q v in fst g + snd s (snd g))) ps
 * R a and pn's extension here, R c in rev_iter_body, R b and the rest in
 * rev_iter_last (one recursive call per function), the tail in iter_tail.
 * The state s : P tau * (C tau -o C G) carries the pullback so far. */
/*@ RULE_PRE(t, d, tm_kind_[t] == TM_ITER);
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases REV_M(depth) - 2;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_iter(int t, int d, int ct, int depth)
{
  //@ assert node_ok(t) && msrc_ok(t) && msz_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t), c = tm_c(t);
  //@ ghost int gb = tm_ctx_[b];
  //@ assert 0 <= a < t && 0 <= b < t && 0 <= c < t;
  //@ assert chad_msrc_[a] == 1 && chad_msrc_[b] == 1 && chad_msrc_[c] == 1;
  //@ assert iter_src: tm_ctx_[a] == g && tm_ty_[a] == TY_ID_INT && tm_ctx_[c] == g && tm_ty_[c] == tau && tm_ty_[b] == tau;
  //@ assert iter_gb: ctx_is_ext(gb, g, tau) && 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == tau;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b] + chad_msz_[c]);
  /* the size budget: R a, R c, R b and at most 27 nodes of this rule (or
   * the whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && 1 <= chad_msz_[c] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert iter_budget: REV_K * chad_msz_[a] + REV_K * chad_msz_[b] + REV_K * chad_msz_[c] + 27 <=
        REV_K * chad_msz_[t] || CHAD_MAX_TERMS <= REV_K * chad_msz_[t]; */
  /*@ ghost int cgv = tm_ctx_[t] == CTX_EMPTY ? TY_ID_UNIT :
        chad_memo_ctx_[CHAD_COT][tm_ctx_[t]] - 1; */
  //@ assert cgv == trc(CHAD_COT, g) && lin(cgv);
  //@ assert memo_ty_inv && trh(CHAD_COT, tau) && trh(CHAD_PREV, tau) && ct == chad_memo_ty_[CHAD_COT][tau] - 1;
  //@ ghost int pt = chad_memo_ty_[CHAD_PREV][tau] - 1;
  int pn = rev(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (pn < 0) return pn;
  //@ assert pa_rev: tm_ctx_[pn] == d && rev_ty(tm_ty_[pn], TY_ID_INT, g) && 0 <= pn < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a];
  //@ assert pa_tau: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct && trc(CHAD_COT, g) == cgv;
  //@ ghost rev_tr_step(CHAD_PREV, TY_ID_INT);
  //@ assert pa_int: trh(CHAD_PREV, TY_ID_INT) && trm(CHAD_PREV, TY_ID_INT) == TY_ID_INT;
  //@ ghost int typn = tm_ty_[pn];
  //@ assert pa_ty: ty_valid(typn) && ty_kind_[typn] == TY_PROD && ty_left_[typn] == TY_ID_INT;
  //@ assert pa_env: env_ok(CHAD_PREV, g, d) && ctx_valid(d);
  int ln = L(d), d1 = rev_ext(d, tyof(pn));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_ext: ctx_is_ext(d1, d, typn) && ctx_valid(d1) && ctx_valid(d) && ctx_len_[d1] == ln + 1 && ln == ctx_len_[d];
  //@ assert d1_ord: 0 <= d < d1 < ctx_count;
  //@ assert d1_env: env_ok(CHAD_PREV, g, d1);
  //@ assert d1_pn: 0 <= pn < tm_count && tm_ctx_[pn] == d && tm_ty_[pn] == typn;
  //@ ghost Body: ;
  int res = rev_iter_body(b, c, pn, d1, ln, ct, depth) /*@ ghost (g, gb, tau, pt, cgv, d, typn) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= REV_K * chad_msz_[c] + REV_K * chad_msz_[b] + 27;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert res >= 0 || res == CHAD_E_CAPACITY || res == CHAD_E_DEPTH;
  //@ ghost int tyr = res >= 0 ? tm_ty_[res] : 0;
  //@ assert res >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, ct, cgv);
  //@ assert r_memo1: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt;
  //@ assert r_memo2: trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
  //@ assert r_memo3: trch(CHAD_COT, g) && trc(CHAD_COT, g) == cgv;
  //@ assert res >= 0 ==> rev_ty(tm_ty_[res], \at(tm_ty_[t], Pre), \at(tm_ctx_[t], Pre));
  return res;
}
