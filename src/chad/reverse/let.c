/* R(let t (x.s))  = let (x,dx) = R t; (y,dy) = R_{G,x} s in
 *                   (y, \v. let (g,gx) = dy v in g + dx gx)
 * (../shared/chad-rules.md, section 5, reverse mode)
 *   rev_let_body  from R_{G,x} s on: the pair (y, linear half); linear half in reverse/let_lin.c
 *   rev_let       the rule: R t, x = fst, then rev_let_body
 * Part of reverse.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* The second half of R(let a (x. b)), from the call R_{G,x} b on: in
 * d2 = d, p, x (p = R a at level lp, x = fst p at level lx),
 *   let q = R_{G,x} b in let p in let x = fst p in let q in
 *   (fst q, \v. let g = snd q v in fst g + snd p (snd g))
 * One recursive call per function (as rev_pair_body): in one function
 * with R a, d2's entry after the second call (d3_p2) failed under the
 * full gate's load. */
/*@ requires REV_INV;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[b] == gb && tm_ty_[b] == tau;
    requires 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == ta;
    requires env_ok(CHAD_PREV, g, d2);
    requires trh(CHAD_PREV, ta) && trm(CHAD_PREV, ta) == pa && trh(CHAD_COT, ta) && trm(CHAD_COT, ta) == ca;
    requires trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
    requires trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg && lin(cg);
    requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa &&
      ty_same(ty_right_[typ], TY_LFUN, ca, cg);
    requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_len_[d1] == lp + 1 && lp == ctx_len_[d];
    requires ctx_is_ext(d2, d1, pa) && ctx_valid(d2) && ctx_len_[d2] == lx + 1 && lx == lp + 1;
    requires 0 <= d < d1 < d2 < ctx_count;
    terminates \true;
    decreases REV_M(depth) - 3;
    REV_ASSIGNS;
    REV_FRAME;
    ensures lbody_size: tm_count - \old(tm_count) <= REV_K * chad_msz_[b] + 22;
    ensures lbody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures lbody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg);
*/
static int rev_let_body(int b, int p, int d1, int d2, int lp, int lx, int ct, int depth)
  /*@ ghost (int g, int gb, int ta, int tau, int pa, int ca, int pt, int cg, int d, int typ) */
{
  /* the lengths of d, d1, d2 as ghost copies: after the call they are
   * restated one at a time (as one conjunction they timed out) */
  //@ ghost int n0 = ctx_len_[d];
  //@ ghost int n1 = ctx_len_[d1];
  //@ ghost int n2 = ctx_len_[d2];
  //@ ghost int tpr = ty_right_[typ];
  //@ assert x2_tpr: ty_inv && ty_node_ok(typ) && 0 <= tpr < typ && ty_same(tpr, TY_LFUN, ca, cg);
  //@ assert x2_lvl0: lvl_ty(d2, ctx_len_[d1]) == pa;
  //@ assert x2_lvl: 0 <= lx < ctx_len_[d2] && lvl_ty(d2, lx) == pa;
  //@ assert x2_gb: env_ok(CHAD_PREV, ctx_parent_[gb], d2) && trh(CHAD_PREV, ctx_type_[gb]) && trm(CHAD_PREV, ctx_type_[gb]) == pa;
  int q = rev_under(b, d2, lx, depth + 1);
  //@ assert q_keep: env_keep{Pre, Here};
  //@ assert q_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b];
  if (q < 0) return q;
  //@ assert q_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b];
  //@ ghost Q1: ;
  //@ assert q_rev: tm_ctx_[q] == d2 && rev_ty(tm_ty_[q], tau, gb) && 0 <= q < tm_count;
  //@ assert q_memo1: trm(CHAD_PREV, ta) == pa && trm(CHAD_COT, ta) == ca && trc(CHAD_COT, g) == cg;
  //@ assert q_memo2: trh(CHAD_PREV, tau) && trh(CHAD_COT, tau) && trm(CHAD_PREV, tau) == pt && trm(CHAD_COT, tau) == ct;
  //@ assert q_gb: 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == ta && trch(CHAD_COT, gb);
  //@ ghost rev_trc_step(CHAD_COT, gb);
  //@ ghost int cgb = chad_memo_ctx_[CHAD_COT][gb] - 1;
  //@ assert q_cgb0: trc(CHAD_COT, gb) == cgb;
  //@ assert q_cgb: ty_valid(cgb) && ty_same(cgb, TY_PROD, cg, ca);
  //@ ghost int tyq = tm_ty_[q];
  //@ assert q_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt && ty_same(ty_right_[tyq], TY_LFUN, ct, cgb);
  //@ assert q_p: tm_ty_[p] == typ && ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa;
  //@ assert q_pty0: ty_right_[typ] == tpr;
  //@ assert q_pty1: ty_same(tpr, TY_LFUN, ca, cg);
  //@ assert q_pty: ty_same(ty_right_[typ], TY_LFUN, ca, cg);
  //@ assert q_ord: 0 <= d < d1 < d2 < ctx_count;
  //@ assert q_ext1a: ctx_is_ext(d1, d, typ);
  //@ assert q_n0: ctx_len_[d] == n0;
  //@ assert q_n1: ctx_len_[d1] == n1;
  //@ assert q_n2: ctx_len_[d2] == n2;
  //@ assert q_ext1b: ctx_len_[d1] == lp + 1 && lp == ctx_len_[d] && ctx_valid(d);
  //@ assert q_ext2a: ctx_is_ext(d2, d1, pa);
  //@ assert q_ext2b: ctx_len_[d2] == lx + 1 && lx == lp + 1;
  //@ assert q_ext2: ctx_is_ext(d2, d1, pa) && ctx_len_[d2] == lx + 1 && lx == lp + 1;
  //@ assert q_lvl1: lvl_ty(d1, lp) == typ;
  //@ assert q_lvl2: lvl_ty(d2, lp) == typ;
  int lq = L(d2), d3 = rev_ext(d2, tyof(q));
  //@ assert d3 >= 0 || d3 == CHAD_E_CAPACITY;
  //@ assert d3_keep: env_keep{Pre, Here};
  //@ assert d3_ret: d3 < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b] + 22;
  if (d3 < 0) return d3;
  //@ assert d3_ext: ctx_is_ext(d3, d2, tyq) && ctx_len_[d3] == lq + 1 && lq == lx + 1 && ctx_valid(d3);
  //@ assert d3_lq: lq == ctx_len_[d2] && 0 <= lp < lq;
  //@ assert d3_lvl0: lvl_ty(d3, ctx_len_[d2]) == tyq;
  //@ assert d3_lvlq: lvl_ty(d3, lq) == tyq;
  //@ assert d3_lvlp0: lvl_ty(d3, lp) == lvl_ty(d2, lp);
  /* lvl_ty(d2, lp) in this state, from the entries (lemma lvl_ty_ext) */
  //@ assert d3_n0: ctx_len_[d] == n0;
  //@ assert d3_n1: ctx_len_[d1] == n1;
  //@ assert d3_n2: ctx_len_[d2] == n2;
  //@ assert d3_p1: ctx_parent_[d1] == d && ctx_type_[d1] == typ;
  //@ assert d3_p2: ctx_parent_[d2] == d1 && ctx_type_[d2] == pa;
  //@ assert d3_e1a: ctx_is_ext(d1, d, typ);
  //@ assert d3_e1b: ctx_is_ext(d2, d1, pa);
  //@ assert d3_e1: ctx_is_ext(d1, d, typ) && ctx_is_ext(d2, d1, pa) && ctx_valid(d);
  //@ assert d3_l1: lvl_ty(d1, lp) == typ;
  //@ assert d3_l2: lvl_ty(d2, lp) == lvl_ty(d1, lp);
  //@ assert d3_lvlp: lvl_ty(d3, lp) == typ;
  //@ assert d3_lvl: lvl_ty(d3, lq) == tyq && lvl_ty(d3, lp) == typ;
  //@ assert d3_ord: 0 <= d < d1 < d2 < d3 < ctx_count;
  //@ assert d3_len: 0 <= lp < ctx_len_[d3] && 0 <= lq < ctx_len_[d3];
  //@ assert d3_ct: ty_valid(ct) && lin(cg);
  //@ assert b_n0: ctx_len_[d] == n0;
  //@ assert b_n1: ctx_len_[d1] == n1;
  //@ assert b_n2: ctx_len_[d2] == n2;
  //@ assert b_e1: ctx_is_ext(d1, d, typ);
  //@ assert b_e2: ctx_is_ext(d2, d1, pa);
  //@ assert b_t2: ctx_parent_[d2] == d1 && ctx_type_[d2] == pa;
  //@ ghost int ty2 = ctx_type_[d2];
  //@ assert b_typ: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa;
  //@ ghost Built: ;
  int lin = rev_let_lin(d3, lp, lq, ct) /*@ ghost (cg, ca, cgb, typ, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d3 && ty_same(tm_ty_[lin], TY_LFUN, ct, cg) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_keep: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 14;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert lin_ret: lin < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b] + 22;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg);
  //@ assert l_p: tm_ctx_[p] == d && 0 <= p < tm_count && tm_ty_[p] == typ;
  //@ assert l_q: tm_ctx_[q] == d2 && 0 <= q < tm_count && tm_ty_[q] == tyq;
  //@ assert l_typ: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa;
  //@ assert l_tyq: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pt;
  //@ assert l_ord: 0 <= d < d1 < d2 < d3 < ctx_count;
  //@ assert l_ext1a: ctx_valid(d) && ctx_is_ext(d1, d, typ);
  //@ assert l_n0: ctx_len_[d] == n0;
  //@ assert l_n1: ctx_len_[d1] == n1;
  //@ assert l_n2: ctx_len_[d2] == n2;
  //@ assert l_ext1b: ctx_len_[d1] == ctx_len_[d] + 1 && lp == ctx_len_[d];
  //@ assert l_p2: ctx_parent_[d2] == d1;
  //@ assert l_t2a: ctx_type_[d2] == ty2;
  //@ assert l_t2: ctx_type_[d2] == pa;
  //@ assert l_ext2a: ctx_is_ext(d2, d1, pa);
  //@ assert l_ext2b: ctx_len_[d2] == ctx_len_[d1] + 1;
  //@ assert l_ext1: ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_len_[d1] == ctx_len_[d] + 1 && lp == ctx_len_[d];
  //@ assert l_ext2: ctx_is_ext(d2, d1, pa) && ctx_len_[d2] == ctx_len_[d1] + 1;
  //@ assert l_ext3: ctx_is_ext(d3, d2, tyq) && ctx_len_[d3] == ctx_len_[d2] + 1 && lq == ctx_len_[d2];
  //@ ghost Lin: ;
  int r = let_let_tail(p, q, d1, d3, lp, lq, lin) /*@ ghost (d, d2, pa, pt, ct, cg) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, ct, cg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 22;
  //@ assert tables_grow{Lin, Here} && side_same{Lin, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* let p = R a; x = fst p; q = R_{G,x} b in
 * (fst q, \v. let g = snd q v in fst g + snd p (snd g)) */
/*@ RULE_PRE(t, d, tm_kind_[t] == TM_LET);
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases REV_M(depth) - 2;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_let(int t, int d, int ct, int depth)
{
  //@ assert node_ok(t) && msrc_ok(t) && msz_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t);
  //@ ghost int ta = tm_ty_[a];
  //@ ghost int gb = tm_ctx_[b];
  //@ assert 0 <= a < t && 0 <= b < t && chad_msrc_[a] == 1 && chad_msrc_[b] == 1;
  //@ assert let_src: tm_ctx_[a] == g && ctx_is_ext(gb, g, ta) && tm_ty_[b] == tau;
  //@ assert let_gb: 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == ta;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b]);
  /* the size budget: R a, R b and at most 22 nodes of this rule (or the
   * whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert let_budget: REV_K * chad_msz_[a] + REV_K * chad_msz_[b] + 22 <= REV_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= REV_K * chad_msz_[t]; */
  /*@ ghost int cgv = tm_ctx_[t] == CTX_EMPTY ? TY_ID_UNIT :
        chad_memo_ctx_[CHAD_COT][tm_ctx_[t]] - 1; */
  //@ assert cgv == trc(CHAD_COT, g) && lin(cgv);
  //@ assert memo_ty_inv && trh(CHAD_COT, tau) && trh(CHAD_PREV, tau) && ct == chad_memo_ty_[CHAD_COT][tau] - 1;
  //@ ghost int pt = chad_memo_ty_[CHAD_PREV][tau] - 1;
  int p = rev(a, d, depth + 1);
  if (p < 0) return p;
  //@ ghost P1: ;
  //@ assert pa_rev: tm_ctx_[p] == d && rev_ty(tm_ty_[p], ta, g) && 0 <= p < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a];
  //@ assert pa_memo: trh(CHAD_PREV, ta) && trh(CHAD_COT, ta) && trc(CHAD_COT, g) == cgv;
  //@ assert pa_memo2: trm(CHAD_PREV, tau) == pt && trm(CHAD_COT, tau) == ct;
  //@ ghost int pa = chad_memo_ty_[CHAD_PREV][ta] - 1;
  //@ ghost int ca = chad_memo_ty_[CHAD_COT][ta] - 1;
  //@ ghost int typ = tm_ty_[p];
  //@ assert pa_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_same(ty_right_[typ], TY_LFUN, ca, cgv);
  //@ assert pa_env: env_ok(CHAD_PREV, g, d) && ctx_valid(d);
  //@ ghost int tpr = ty_right_[typ];
  //@ assert pa_tpr: ty_inv && ty_node_ok(typ) && 0 <= tpr < typ && ty_same(tpr, TY_LFUN, ca, cgv);
  int lp = L(d), d1 = rev_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_keep: env_keep{Pre, Here};
  //@ assert d1_ret: d1 < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  if (d1 < 0) return d1;
  //@ assert d1_ext: ctx_is_ext(d1, d, typ) && ctx_len_[d1] == lp + 1 && lp == ctx_len_[d] && ctx_valid(d1);
  //@ assert d1_env: env_ok(CHAD_PREV, g, d1);
  //@ assert d1_p: tm_ty_[p] == typ && ty_valid(typ) && ty_left_[typ] == pa;
  int px = ty_left(tyof(p));
  //@ assert px == pa && ty_valid(pa);
  int lx = L(d1), d2 = rev_ext(d1, px);
  //@ assert d2 >= 0 || d2 == CHAD_E_CAPACITY;
  //@ assert d2_keep: env_keep{Pre, Here};
  //@ assert d2_ret: d2 < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  if (d2 < 0) return d2;
  //@ assert d2_ext: ctx_is_ext(d2, d1, pa) && ctx_len_[d2] == lx + 1 && lx == lp + 1 && ctx_valid(d2);
  //@ assert d2_env: env_ok(CHAD_PREV, g, d2);
  //@ assert d2_lx: lx == ctx_len_[d1] && 0 <= lx < ctx_len_[d2];
  //@ assert d2_lvl0: lvl_ty(d2, ctx_len_[d1]) == px;
  //@ assert d2_lvl: lvl_ty(d2, lx) == pa;
  //@ assert d2_node: ctx_inv && ctx_node_ok(d1) && ctx_node_ok(d2);
  //@ assert d2_ord: 0 <= d < d1 < d2 < ctx_count && typ < ty_count;
  //@ assert d2_gb: 0 < gb < ctx_count && ctx_parent_[gb] == g && ctx_type_[gb] == ta;
  //@ assert d2_memo: trh(CHAD_PREV, ta) && trm(CHAD_PREV, ta) == pa;
  //@ assert x2_len: ctx_len_[d2] == lx + 1 && lx == lp + 1 && lp == ctx_len_[d];
  //@ assert x2_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert x2_b: tm_ctx_[b] == gb && tm_ty_[b] == tau && trch(CHAD_COT, g);
  //@ assert x2_ta: trh(CHAD_PREV, ta) && trm(CHAD_PREV, ta) == pa && trh(CHAD_COT, ta) && trm(CHAD_COT, ta) == ca;
  //@ assert x2_tau: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt && trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
  //@ ghost Body: ;
  int r = rev_let_body(b, p, d1, d2, lp, lx, ct, depth) /*@ ghost (g, gb, ta, tau, pa, ca, pt, cgv, d, typ) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= REV_K * chad_msz_[b] + 22;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert r >= 0 || r == CHAD_E_CAPACITY || r == CHAD_E_DEPTH;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, ct, cgv);
  //@ assert r_memo1: trh(CHAD_PREV, tau) && trm(CHAD_PREV, tau) == pt;
  //@ assert r_memo2: trh(CHAD_COT, tau) && trm(CHAD_COT, tau) == ct;
  //@ assert r_memo3: trch(CHAD_COT, g) && trc(CHAD_COT, g) == cgv;
  //@ assert r >= 0 ==> rev_ty(tm_ty_[r], \at(tm_ty_[t], Pre), \at(tm_ctx_[t], Pre));
  return r;
}
