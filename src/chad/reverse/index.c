/* R(index a i)    = let (x,dx) = R a; (j,_) = R i in (x[j], \v. dx (onehot_{length x, j} v))
 * (../shared/chad-rules.md, section 5, reverse mode)
 *   rev_index_body  from R i on: (x[j], linear half); linear half in reverse/index_lin.c
 *   rev_index       the rule: R a, then rev_index_body
 * Part of reverse.c's translation unit (included there, at this
 * place); not compiled or proved on its own. */
/* The second half of R(index a b), from the call R b on: in d1 = d, p (p =
 * R a at level lp),
 *   let q = R b in let p in let q in (fst p [fst q], \v. snd p (onehot (fst q) v))
 * One recursive call per function (as F's fwd_pair_body). */
/*@ requires REV_INV;
    requires 0 <= b < tm_count && chad_msrc_[b] == 1 && 0 <= depth <= CHAD_MAX_DEPTH;
    requires tm_ctx_[b] == g && tm_ty_[b] == TY_ID_INT;
    requires env_ok(CHAD_PREV, g, d1);
    requires trch(CHAD_COT, g) && trc(CHAD_COT, g) == cg && lin(cg);
    requires ty_valid(pa) && ty_kind_[pa] == TY_ARR && ty_left_[pa] == pt;
    requires ty_valid(ca) && ty_same(ca, TY_ARR, ct, -1) && lin(ct);
    requires 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
    requires ctx_valid(d) && ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_len_[d1] == lp + 1;
    requires ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa &&
      ty_same(ty_right_[typ], TY_LFUN, ca, cg);
    terminates \true;
    decreases REV_M(depth) - 3;
    REV_ASSIGNS;
    REV_FRAME;
    ensures ibody_size: tm_count - \old(tm_count) <= REV_K * chad_msz_[b] + 16;
    ensures ibody_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures ibody_type: \result >= 0 ==> \old(tm_count) <= \result < tm_count && tm_ctx_[\result] == d &&
      ty_valid(tm_ty_[\result]) && ty_kind_[tm_ty_[\result]] == TY_PROD &&
      ty_left_[tm_ty_[\result]] == pt && ty_same(ty_right_[tm_ty_[\result]], TY_LFUN, ct, cg);
*/
static int rev_index_body(int b, int p, int d1, int lp, int ct, int depth)
  /*@ ghost (int g, int pa, int ca, int pt, int cg, int d, int typ) */
{
  /* typ's right half named before the call (as rev_app_body) */
  //@ ghost int tyr = ty_right_[typ];
  //@ assert ib_r0: ty_valid(tyr) && ty_same(tyr, TY_LFUN, ca, cg);
  int q = rev(b, d1, depth + 1);
  //@ assert ib_keep: env_keep{Pre, Here};
  //@ assert ib_ret: q < 0 ==> tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[b];
  if (q < 0) return q;
  //@ assert ib_b: tm_ctx_[b] == g && tm_ty_[b] == TY_ID_INT;
  //@ assert ib_rev: tm_ctx_[q] == d1 && rev_ty(tm_ty_[q], TY_ID_INT, g) && 0 <= q < tm_count;
  /* P Int = Int, from one step of memo_inv at Int (R b memoised it) */
  //@ assert ib_int: trh(CHAD_PREV, TY_ID_INT) && ty_inv && ty_kind_[TY_ID_INT] == TY_INT;
  //@ ghost rev_tr_step(CHAD_PREV, TY_ID_INT);
  //@ assert ib_memo: trc(CHAD_COT, g) == cg && trm(CHAD_PREV, TY_ID_INT) == TY_ID_INT;
  //@ ghost int tyq = tm_ty_[q];
  //@ assert ib_qty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == TY_ID_INT;
  /* p's facts after the call, in small steps */
  //@ assert ib_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ assert ib_pk: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa;
  //@ assert ib_tyr: ty_right_[typ] == tyr && ty_same(tyr, TY_LFUN, ca, cg);
  //@ assert ib_pr: ty_same(ty_right_[typ], TY_LFUN, ca, cg);
  //@ assert ib_ca: ty_valid(ca) && ty_same(ca, TY_ARR, ct, -1) && lin(ct) && lin(cg);
  //@ assert ib_pa: ty_valid(pa) && ty_kind_[pa] == TY_ARR && ty_left_[pa] == pt;
  //@ assert ib_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d) && ctx_len_[d1] == lp + 1;
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
  //@ assert ql_ty: ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == TY_ID_INT;
  //@ assert ca_ok: ty_valid(ca) && ty_same(ca, TY_ARR, ct, -1) && lin(ct) && lin(cg);
  //@ ghost Built: ;
  int lin = rev_index_lin(d2, lp, lq, ct) /*@ ghost (cg, ca, typ, tyq) */;
  //@ assert lin >= 0 ==> tm_ctx_[lin] == d2 && ty_same(tm_ty_[lin], TY_LFUN, ct, cg) && 0 <= lin < tm_count;
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  //@ assert lin_env: env_keep{Pre, Here};
  //@ assert lin_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 8;
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
  //@ assert tail_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_valid(tyq) && ty_kind_[tyq] == TY_PROD && ty_left_[tyq] == TY_ID_INT;
  //@ assert tail_pa: ty_valid(pa) && ty_kind_[pa] == TY_ARR && ty_left_[pa] == pt;
  //@ ghost Lin: ;
  int r = let_index_tail(p, q, d2, lp, lq, lin) /*@ ghost (d, d1, pt, pa, ct, cg) */;
  //@ assert r >= 0 ==> tm_ctx_[r] == d && \at(tm_count, Pre) <= r < tm_count;
  //@ assert r >= 0 ==> ty_valid(tm_ty_[r]) && ty_kind_[tm_ty_[r]] == TY_PROD && ty_left_[tm_ty_[r]] == pt && ty_same(ty_right_[tm_ty_[r]], TY_LFUN, ct, cg);
  //@ assert r >= 0 || r == CHAD_E_CAPACITY;
  //@ assert tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[b] + 16;
  //@ assert tables_grow{Lin, Here} && side_same{Lin, Here};
  //@ assert memo_inv && tsrc_inv && csrc_inv && msrc_inv && cot_lin;
  //@ assert env_keep{Pre, Here};
  return r;
}

/* let p = R a; q = R b in (fst p [fst q], \v. snd p (onehot (fst q) v)) */
/*@ RULE_PRE(t, d, tm_kind_[t] == TM_INDEX);
    requires 0 <= depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases REV_M(depth) - 2;
    REV_ASSIGNS;
    REV_POST(t, d);
*/
static int rev_index(int t, int d, int ct, int depth)
{
  //@ assert node_ok(t) && msrc_ok(t) && msz_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int tau = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t);
  //@ ghost int ta0 = tm_ty_[a];
  //@ assert tm_ctx_[a] == g && tm_ctx_[b] == g && arr_ok(ta0) && tm_ty_[b] == TY_ID_INT && tau == ty_left_[ta0];
  //@ assert 0 <= a < t && 0 <= b < t && chad_msrc_[a] == 1 && chad_msrc_[b] == 1;
  //@ assert chad_msz_[t] == sat(1 + chad_msz_[a] + chad_msz_[b]);
  /* the size budget: R a, R b and at most 16 nodes of this rule (or the
   * whole arena, when the source size saturates) */
  //@ assert 1 <= chad_msz_[a] && 1 <= chad_msz_[b] && tm_count <= CHAD_MAX_TERMS;
  /*@ assert idx_budget: REV_K * chad_msz_[a] + REV_K * chad_msz_[b] + 16 <= REV_K * chad_msz_[t] ||
        CHAD_MAX_TERMS <= REV_K * chad_msz_[t]; */
  /*@ ghost int cgv = tm_ctx_[t] == CTX_EMPTY ? TY_ID_UNIT :
        chad_memo_ctx_[CHAD_COT][tm_ctx_[t]] - 1; */
  //@ assert cgv == trc(CHAD_COT, g) && lin(cgv);
  //@ assert memo_ty_inv && trh(CHAD_COT, tau) && trh(CHAD_PREV, tau) && ct == chad_memo_ty_[CHAD_COT][tau] - 1;
  //@ assert idx_lin: lin(ct);
  //@ ghost int pt = chad_memo_ty_[CHAD_PREV][tau] - 1;
  int p = rev(a, d, depth + 1);
  //@ assert pa_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert pa_keep: env_keep{Pre, Here};
  if (p < 0) return p;
  //@ assert pa_rev: tm_ctx_[p] == d && rev_ty(tm_ty_[p], ta0, g) && 0 <= p < tm_count;
  //@ assert pa_size: tm_count <= \at(tm_count, Pre) + REV_K * chad_msz_[a];
  //@ assert pa_memo: trh(CHAD_PREV, ta0) && trh(CHAD_COT, ta0) && trc(CHAD_COT, g) == cgv && lin(cgv);
  /* P(Arr tau) = Arr P tau, C(Arr tau) = Arr C tau: R a memoised Arr tau */
  //@ assert pa_tau: trm(CHAD_PREV, tau) == pt && trm(CHAD_COT, tau) == ct && lin(ct);
  //@ assert ty_node_ok(ta0) && 0 <= tau < ta0 && ty_kind_[ta0] == TY_ARR;
  //@ ghost rev_tr_step(CHAD_PREV, ta0);
  //@ ghost rev_tr_step(CHAD_COT, ta0);
  //@ ghost int pa = chad_memo_ty_[CHAD_PREV][ta0] - 1;
  //@ ghost int ca = chad_memo_ty_[CHAD_COT][ta0] - 1;
  //@ assert idx_pa: ty_valid(pa) && ty_same(pa, TY_ARR, pt, -1);
  //@ assert idx_ca: ty_valid(ca) && ty_same(ca, TY_ARR, ct, -1);
  //@ ghost int typ = tm_ty_[p];
  //@ assert pa_ty: ty_valid(typ) && ty_kind_[typ] == TY_PROD && ty_left_[typ] == pa && ty_same(ty_right_[typ], TY_LFUN, ca, cgv);
  int lp = L(d), d1 = rev_ext(d, tyof(p));
  //@ assert d1 >= 0 || d1 == CHAD_E_CAPACITY;
  //@ assert d1_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert d1_keep: env_keep{Pre, Here};
  if (d1 < 0) return d1;
  //@ assert d1_env: env_ok(CHAD_PREV, g, d1) && ctx_len_[d1] == lp + 1 && ctx_type_[d1] == typ;
  //@ assert pa_ext: ctx_is_ext(d1, d, typ) && ctx_valid(d1) && ctx_valid(d);
  //@ assert d1_b: tm_ctx_[b] == g && tm_ty_[b] == TY_ID_INT && trch(CHAD_COT, g);
  //@ assert d1_p: 0 <= p < tm_count && tm_ctx_[p] == d && tm_ty_[p] == typ;
  //@ ghost Body: ;
  int r = rev_index_body(b, p, d1, lp, ct, depth) /*@ ghost (g, pa, ca, pt, cgv, d, typ) */;
  //@ assert r_size: tm_count - \at(tm_count, Body) <= REV_K * chad_msz_[b] + 16;
  //@ assert r_ret: tm_count - \at(tm_count, Pre) <= REV_K * chad_msz_[t];
  //@ assert r_grows: memo_grows{Pre, Here};
  //@ assert r_keep: env_keep{Pre, Here};
  //@ assert r >= 0 || r == CHAD_E_CAPACITY || r == CHAD_E_DEPTH;
  //@ ghost int tyr = r >= 0 ? tm_ty_[r] : 0;
  //@ assert r >= 0 ==> ty_valid(tyr) && ty_kind_[tyr] == TY_PROD && ty_left_[tyr] == pt && ty_same(ty_right_[tyr], TY_LFUN, ct, cgv);
  //@ assert trh(CHAD_PREV, tau) && trh(CHAD_COT, tau) && trch(CHAD_COT, g) && trm(CHAD_PREV, tau) == pt && trm(CHAD_COT, tau) == ct && trc(CHAD_COT, g) == cgv;
  //@ assert r >= 0 ==> rev_ty(tm_ty_[r], \at(tm_ty_[t], Pre), \at(tm_ctx_[t], Pre));
  return r;
}
