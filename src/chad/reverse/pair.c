/* R(pair t s)     = let (x,dx) = R t; (y,dy) = R s in ((x,y), \v. dx (fst v) + dy (snd v))
 * (../shared/chad-rules.md, section 5, reverse mode)
 *   rev_pair_body  from R s on: ((x,y), linear half); linear half in reverse/pair_lin.c
 *   rev_pair       the rule: R t, then rev_pair_body
 * Part of reverse.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* The second half of R(pair a b), from the call R b on: in d1 = d, p (p =
 * R a at level lp),
 *   let q = R b in let p in let q in ((fst p, fst q), \v. snd p (fst v) + snd q (snd v))
 * One recursive call per function (as rev_index_body): in one function
 * with R a, the frame goals after the second call (ensures_8) failed
 * under the full gate's load. */
/*@ requires REV_INV;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[b] == g && tm_ty_[b] == tb;
    requires env_ok(CHAD_PREV, g, d1);
    requires trh(CHAD_PREV, tb) && trm(CHAD_PREV, tb) == pb && trh(CHAD_COT, tb) && trm(CHAD_COT, tb) == cb;
    requires trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg && lin(cg);
    requires ty_valid(pt) && ty_same(pt, TY_PROD, pa, pb);
    requires ty_valid(ct) && ty_same(ct, TY_PROD, ca, cb);
    requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
    requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_len_[d1] == lp + 1;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa &&
      ty_same(ty_right_[typ], TY_LFUN, ca, cg);
    terminates \true;
    decreases REV_M(depth) - 3;
    REV_ASSIGNS;
    REV_FRAME;
    ensures pbody_size: tm_count - \old(tm_count) <= REV_K * chad_msz_[b] + 20;
    ensures pbody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures pbody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg);
*/
static int rev_pair_body(int b, int p, int d1, int lp, int ct, int depth)
  /*@ ghost (int g, int tb, int pa, int pb, int ca, int cb, int pt, int cg, int d, int typ) */
{
  int q = rev(b, d1, depth + 1);
  //@ assert pb_keep: env_keep{Pre, Here};
  //@ assert pb_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b];
  if (q < 0) return q;
  //@ assert pb_b: tm_ctx_[b] == g && tm_ty_[b] == tb;
  //@ assert pb_rev: tm_ctx_[q] == d1 && rev_ty(tm_ty_[q], tb, g) && 0 <= q < tm_count;
  //@ assert pb_memo1: trc(CHAD_COT, g) == cg;
  //@ assert pb_memo2: trm(CHAD_PREV, tb) == pb && trm(CHAD_COT, tb) == cb;
  //@ ghost int tyq = tm_ty_[q];
  //@ assert pb_qty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pb && ty_same(ty_right_[tyq], TY_LFUN, cb, cg);
  /* p's facts after the call, in small steps */
  //@ assert pb_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert pb_pk: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa;
  //@ assert pb_pr: ty_same(ty_right_[typ], TY_LFUN, ca, cg);
  //@ assert pb_ct: ty_valid(ct) && ty_same(ct, TY_PROD, ca, cb) && lin(cg);
  //@ assert pb_pt: ty_valid(pt) && ty_same(pt, TY_PROD, pa, pb);
  //@ assert pb_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d) && ctx_len_[d1] == lp + 1;
  int lq = L(d1), d2 = rev_ext(d1, tyof(q));
  //@ assert d2 >= 0 || d2 == CHAD_E_CAPACITY;
  //@ assert d2_keep: env_keep{Pre, Here};
  //@ assert d2_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b];
  if (d2 < 0) return d2;
  //@ assert d2_len: ctx_len_[d2] == lq + 1 && lq == lp + 1 && ctx_type_[d2] == tyq && ctx_parent_[d2] == d1;
  //@ assert d2_ext: ctx_is_ext(d2, d1, tyq) && ctx_valid(d2);
  //@ assert d2_ext2: ctx_is_ext(d1, d, typ) && ctx_valid(d);
  //@ assert d2_lq: lvl_ty(d2, lq) == tyq;
  //@ assert d2_lp1: lvl_ty(d1, lp) == typ;
  //@ assert d2_lp: lvl_ty(d2, lp) == typ && 0 <= lp < lq < ctx_len_[d2];
  //@ assert pl_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_same(ty_right_[typ], TY_LFUN, ca, cg);
  //@ assert ql_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_same(ty_right_[tyq], TY_LFUN, cb, cg);
  //@ assert pl_at: lin_at(d2, lp, ca, cg);
  //@ assert ql_at: lin_at(d2, lq, cb, cg);
  //@ assert ct_ok: ty_valid(ct) && ty_kind_[ct] == TY_PROD && ty_left_[ct] == ca && ty_right_[ct] == cb && lin(cg);
  //@ ghost Built: ;
  int lin = rev_pair_lin(d2, lp, lq, ct) /*@ ghost (cg) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d2 && ty_same(tm_ty_[lin], TY_LFUN, ct, cg) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_env: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 12;
  //@ assert lin_grow: tables_grow{Built, Here};
  //@ assert lin_side: side_same{Built, Here};
  //@ assert lin_inv: memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  if (lin < 0) return lin;
  //@ ghost int tyl = tm_ty_[lin];
  //@ assert ty_valid(tyl) && ty_same(tyl, TY_LFUN, ct, cg);
  //@ assert tail_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert tail_q: 0 <= q < tm_count && tm_ctx_[q] == d1 && tm_ty_[q] == tyq;
  //@ assert tail_lvl: lvl_ty(d2, lp) == typ && lvl_ty(d2, lq) == tyq;
  //@ assert tail_ext: ctx_valid(d) && ctx_is_ext(d1, d, tm_ty_[p]) && ctx_is_ext(d2, d1, tm_ty_[q]) && ctx_valid(d2);
  //@ assert tail_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == pb;
  //@ assert tail_pt: ty_valid(pt) && ty_same(pt, TY_PROD, pa, pb);
  //@ ghost Lin: ;
  int r = let_pair_tail(p, q, d2, lp, lq, lin) /*@ ghost (d, d1, pt, pa, pb, ct, cg) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ assert r >= 0 ==> ty_valid(tm_ty_[r]) && ty_kind_[tm_ty_[r]] == TY_PROD && ty_left_[tm_ty_[r]] == pt && ty_same(ty_right_[tm_ty_[r]], TY_LFUN, ct, cg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 20;
  //@ assert tables_grow{Lin, Here} && side_same{Lin, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* let p = R a; q = R b in ((fst p, fst q), \v. snd p (fst v) + snd q (snd v)) */
/*@ RULE_PRE(t, d, tm_kind_[t] == TM_PAIR);
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases REV_M(depth) - 2;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_pair(int t, int d, int ct, int depth)
{
  //@ assert node_ok(t) && msrc_ok(t) && msz_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t);
  //@ assert 0 <= a < t && 0 <= b < t && chad_msrc_[a] == 1 && chad_msrc_[b] == 1;
  //@ assert tm_ctx_[a] == g && tm_ctx_[b] == g && ty_same(tau, TY_PROD, tm_ty_[a], tm_ty_[b]);
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b]);
  /* the size budget: R a, R b and at most 20 nodes of this rule (or the
   * whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert pair_budget: REV_K * chad_msz_[a] + REV_K * chad_msz_[b] + 20 <= REV_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= REV_K * chad_msz_[t]; */
  //@ ghost int ta = tm_ty_[a];
  //@ ghost int tb = tm_ty_[b];
  /*@ ghost int cgv = tm_ctx_[t] == CTX_EMPTY ? TY_ID_UNIT :
        chad_memo_ctx_[CHAD_COT][tm_ctx_[t]] - 1; */
  //@ assert cgv == trc(CHAD_COT, g) && lin(cgv);
  //@ assert memo_ty_inv && trh(CHAD_COT, tau) && trh(CHAD_PREV, tau) && ct == chad_memo_ty_[CHAD_COT][tau] - 1;
  //@ assert cot_tr: tr_ok(CHAD_COT, tau, chad_memo_ty_[CHAD_COT][tau] - 1);
  //@ assert tr_ok(CHAD_COT, tau, ct);
  //@ assert tr_ok(CHAD_PREV, tau, chad_memo_ty_[CHAD_PREV][tau] - 1);
  //@ assert trh(CHAD_COT, ta) && trh(CHAD_COT, tb) && trh(CHAD_PREV, ta) && trh(CHAD_PREV, tb);
  //@ assert ty_same(ct, TY_PROD, trm(CHAD_COT, ta), trm(CHAD_COT, tb)) && ty_valid(ct);
  //@ assert ty_same(trm(CHAD_PREV, tau), TY_PROD, trm(CHAD_PREV, ta), trm(CHAD_PREV, tb));
  //@ ghost int pt = chad_memo_ty_[CHAD_PREV][tau] - 1;
  //@ ghost int pa = chad_memo_ty_[CHAD_PREV][ta] - 1;
  //@ ghost int pb = chad_memo_ty_[CHAD_PREV][tb] - 1;
  //@ ghost int ca = chad_memo_ty_[CHAD_COT][ta] - 1;
  //@ ghost int cb = chad_memo_ty_[CHAD_COT][tb] - 1;
  //@ assert pair_p: ty_valid(pt) && ty_same(pt, TY_PROD, pa, pb);
  //@ assert pair_c: ty_valid(ct) && ty_same(ct, TY_PROD, ca, cb);
  int p = rev(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  //@ assert pa_rev: tm_ctx_[p] == d && rev_ty(tm_ty_[p], ta, g) && 0 <= p < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a];
  //@ assert pa_memo: trm(CHAD_PREV, ta) == pa && trm(CHAD_COT, ta) == ca && trc(CHAD_COT, g) == cgv && lin(cgv);
  //@ assert pa_memo2: trh(CHAD_PREV, tb) && trh(CHAD_COT, tb) && trm(CHAD_PREV, tb) == pb && trm(CHAD_COT, tb) == cb;
  //@ assert pa_memo3: trh(CHAD_PREV, tau) && trh(CHAD_COT, tau) && trm(CHAD_PREV, tau) == pt && trm(CHAD_COT, tau) == ct;
  //@ ghost int typ = tm_ty_[p];
  //@ assert pa_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_same(ty_right_[typ], TY_LFUN, ca, cgv);
  //@ assert pa_pt: ty_valid(pt) && ty_same(pt, TY_PROD, pa, pb) && ty_valid(ct) && ty_same(ct, TY_PROD, ca, cb);
  int lp = L(d), d1 = rev_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_env: env_ok(CHAD_PREV, g, d1) && ctx_len_[d1] == lp + 1 && ctx_type_[d1] == typ;
  //@ assert pa_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d);
  //@ assert d1_b: tm_ctx_[b] == g && tm_ty_[b] == tb && trch(CHAD_COT, g);
  //@ assert d1_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert b_memo: trh(CHAD_PREV, tau) && trh(CHAD_COT, tau) && trm(CHAD_PREV, tau) == pt && trm(CHAD_COT, tau) == ct;
  //@ ghost Body: ;
  int r = rev_pair_body(b, p, d1, lp, ct, depth) /*@ ghost (g, tb, pa, pb, ca, cb, pt, cgv, d, typ) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= REV_K * chad_msz_[b] + 20;
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
