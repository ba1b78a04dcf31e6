/* Forward-mode CHAD (rules card §4): F(t) for G |- t : tau is a term in
 * P G of type P tau * (T G -o T tau).
 *
 * Sharing (card §6): every subterm's translation is emitted exactly once and
 * let-bound (`let p = F t in ...`); its primal (fst p) and its linear map
 * (snd p) are projections of that one variable. Subterms are translated
 * straight into the target context that the surrounding binders create: the
 * environment (chad_internal.h) maps each source variable to its level there.
 *
 * Variables are referred to by level: V(d, l) is the variable at level l of
 * target context d; L(d) is the level the next binder of d gets. */
#include "chad/chad.h"
#include "chad/kernel.h"
#include "chad_internal.h"
#include "chad_spec.h"

#define V(d, l) b_var((d), (l))
#define L(d) b_lvl(d)

/* The size bound of Cor. 7.2: F(t) adds at most FWD_K * tsize(t) nodes.
 * The largest per-node cost is case's (4 nodes + 15 per branch); a
 * variable with index k costs k + 5 nodes for its weight k + 1. */
#define FWD_K 34

/* ---- the contract of F, shared by fwd and its per-kind helpers ----------
 * t: a source node (kind, type and context source, children too), d: the
 * target context, env_ok: every source variable of t's context G is a
 * level of d holding its primal. On success: a node of d of type
 * P tau * (T G -o T tau) (fwd_ty, chad_spec.h); on failure only capacity or
 * depth; at most FWD_K * tsize(t) nodes appended. */
#define FWD_REQ \
  requires kernel_inv && memo_inv && src_inv; \
  requires 0 <= t < tm_count && chad_msrc_[t] == 1; \
  requires 0 <= depth
/* the helpers get a valid target context; fwd also a failed one */
#define FWD_ENV requires env_ok(CHAD_PFWD, tm_ctx_[t], d)
#define FWD_TG requires trch(CHAD_TAN, tm_ctx_[t]) && tg == trc(CHAD_TAN, tm_ctx_[t]) && \
  ty_valid(tg) && trh(CHAD_PFWD, tm_ty_[t]) && trh(CHAD_TAN, tm_ty_[t])
#define FWD_ASSIGNS \
  assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_TR_CTX_STATE, CH_EXT_STATE, venv_sp, \
    venv_kind_[venv_sp .. CHAD_ENV_CAP - 1], venv_val_[venv_sp .. CHAD_ENV_CAP - 1]
#define FWD_ENS \
  ensures kernel_inv && memo_inv && src_inv && venv_wf; \
  ensures venv_sp == \old(venv_sp) && venv_cur == \old(venv_cur); \
  ensures memo_grows{Pre, Post}; \
  ensures \old(tm_count) <= tm_count && \old(ty_count) <= ty_count && \
    \old(ctx_count) <= ctx_count; \
  ensures \forall integer h, k; 0 <= h < \old(ctx_count) ==> \
    ctx_lk(h, k) == \at(ctx_lk(h, k), Pre); \
  ensures fwd_size: tm_count - \old(tm_count) <= FWD_K * chad_msz_[t]; \
  ensures fwd_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH; \
  ensures fwd_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d && \
    fwd_ty(tm_ty_[\result], tm_ctx_[t], tm_ty_[t])

/*@ requires tm_inv; terminates \true; assigns \nothing;
    ensures t < 0 ==> \result == t;
    ensures tm_valid(t) ==> \result == tm_ty_[t];
    ensures t >= 0 && !tm_valid(t) ==> \result == CHAD_E_ARG; */
static int tyof(int t) { return t < 0 ? t : tm_type(t); }

static int fwd(int t, int d, int depth);

/* Translates child c in target ctx d under one more source binder that sits
 * at target level lvl. */
/*@ requires depth >= 0;
    decreases 2 * (CHAD_MAX_DEPTH + 1 - depth); */
static int fwd_under(int c, int d, int lvl, int depth)
{
  if (depth > CHAD_MAX_DEPTH)
    return CHAD_E_DEPTH;
  if (d < 0)
    return d;
  if (lvl < 0)
    return lvl;
  int e = venv_push(ENV_LEVEL, lvl);
  if (e < 0)
    return e;
  int r = fwd(c, d, depth + 1);
  venv_pop();
  return r;
}

/* One branch of F(case): in d1 (p at level lp), the branch body translated
 * under its binder, then (fst q, \v. snd q (v, fst/snd (snd p v))). */
/*@ requires depth >= 0;
    decreases 2 * (CHAD_MAX_DEPTH + 1 - depth); */
static int fwd_case_branch(int side, int body, int st, int d1, int lp, int tg, int depth)
{
  if (depth > CHAD_MAX_DEPTH)
    return CHAD_E_DEPTH;
  int pty = tr_ty(CHAD_PFWD, side == 0 ? ty_left(st) : ty_right(st));
  int lx = L(d1), e1 = b_ext(d1, pty);
  int q = fwd_under(body, e1, lx, depth + 1);
  if (q < 0) return q;
  int lq = L(e1), e2 = b_ext(e1, tyof(q));
  int lv = L(e2), e3 = b_ext(e2, tg);
  int dsc = b_lapp(b_snd(V(e3, lp)), V(e3, lv));
  int part = side == 0 ? b_fst(dsc) : b_snd(dsc);
  int lin = b_llam(tg, b_lapp(b_snd(V(e3, lq)), b_pair(V(e3, lv), part)));
  return b_let(q, b_pair(b_fst(V(e2, lq)), lin));
}

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
  //@ assert node_ok(t);
  //@ assert msz_ok(t);
  int k = (int)tm_aux(t);
  int kind = ENV_LEVEL;
  int lvl = venv_lookup(k, &kind);
  if (lvl < 0)
    return lvl;
  if (kind != ENV_LEVEL)
    return CHAD_E_ARG;
  int lv = L(d), d1 = b_ext(d, tg);
  int body = chad_proj_tuple(V(d1, lv), k) /*@ ghost (g, CHAD_TAN) */;
  return b_pair(V(d, lvl), b_llam(tg, body));
}

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
  int k = tm_kind(t);
  int prim = k == TM_UNIT ? b_unit(d)
           : k == TM_RCONST ? tm_rconst(d, tm_rval(t)) : tm_iconst(d, tm_aux(t));
  int d1 = b_ext(d, tg);
  return b_pair(prim, b_llam(tg, b_zero(d1, tr_ty(CHAD_TAN, tm_type(t)))));
}

/* F(pair a b) = let p = F a; q = F b in ((fst p, fst q), \v. (snd p v, snd q v)) */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_PAIR; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases 2 * (CHAD_MAX_DEPTH + 1 - depth);
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_pair(int t, int d, int tg, int depth)
{
  //@ assert node_ok(t) && msz_ok(t) && msrc_ok(t);
  //@ ghost int g = tm_ctx_[t];
  //@ ghost int ty = tm_ty_[t];
  int a = tm_a(t), b = tm_b(t), dn = depth + 1;
  //@ assert tm_ctx_[a] == g && tm_ctx_[b] == g && ty_same(ty, TY_PROD, tm_ty_[a], tm_ty_[b]);
  //@ assert tr_ok(CHAD_PFWD, ty, trm(CHAD_PFWD, ty)) && tr_ok(CHAD_TAN, ty, trm(CHAD_TAN, ty));
  int p = fwd(a, d, dn);
  if (p < 0) return p;
  //@ assert env_ok(CHAD_PFWD, g, d);
  //@ assert tr_ok(CHAD_PFWD, ty, trm(CHAD_PFWD, ty)) && tr_ok(CHAD_TAN, ty, trm(CHAD_TAN, ty));
  int lp = L(d), d1 = b_ext(d, tyof(p));
  //@ assert d1 >= 0 ==> env_ok(CHAD_PFWD, g, d1) && lvl_ty(d1, lp) == tm_ty_[p];
  int q = fwd(b, d1, dn);
  if (q < 0) return q;
  //@ assert tm_ctx_[q] == d1 && lvl_ty(d1, lp) == tm_ty_[p];
  int lq = L(d1), d2 = b_ext(d1, tyof(q));
  //@ assert d2 >= 0 ==> lvl_ty(d2, lp) == tm_ty_[p] && lvl_ty(d2, lq) == tm_ty_[q];
  int lv = L(d2), d3 = b_ext(d2, tg);
  /*@ assert d3 >= 0 ==> lvl_ty(d3, lp) == tm_ty_[p] && lvl_ty(d3, lq) == tm_ty_[q] &&
        lvl_ty(d3, lv) == tg; */
  int lin = b_llam(tg, b_pair(b_lapp(b_snd(V(d3, lp)), V(d3, lv)),
                              b_lapp(b_snd(V(d3, lq)), V(d3, lv))));
  //@ assert lin >= 0 || lin == CHAD_E_CAPACITY;
  /*@ assert lin >= 0 ==> tm_ctx_[lin] == d2 && ty_kind_[tm_ty_[lin]] == TY_LFUN &&
        ty_left_[tm_ty_[lin]] == tg && ty_same(ty_right_[tm_ty_[lin]], TY_PROD,
          trm(CHAD_TAN, tm_ty_[a]), trm(CHAD_TAN, tm_ty_[b])); */
  int prim = b_pair(b_fst(V(d2, lp)), b_fst(V(d2, lq)));
  //@ assert prim >= 0 || prim == CHAD_E_CAPACITY;
  /*@ assert pair_prim_ty: prim >= 0 ==> tm_ctx_[prim] == d2 && ty_same(tm_ty_[prim], TY_PROD,
        trm(CHAD_PFWD, tm_ty_[a]), trm(CHAD_PFWD, tm_ty_[b])); */
  return b_let(p, b_let(q, b_pair(prim, lin)));
}

/* F(let a (x. b)) =
 *   let p = F a; x = fst p; q = F_{G,x} b in (fst q, \v. snd q (v, snd p v)) */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_LET; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases 2 * (CHAD_MAX_DEPTH + 1 - depth);
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_let(int t, int d, int tg, int depth)
{
  int a = tm_a(t), b = tm_b(t), dn = depth + 1;
  int p = fwd(a, d, dn);
  if (p < 0) return p;
  int lp = L(d), d1 = b_ext(d, tyof(p));
  int x = b_fst(V(d1, lp));
  int lx = L(d1), d2 = b_ext(d1, tyof(x));
  int q = fwd_under(b, d2, lx, dn);
  if (q < 0) return q;
  int lq = L(d2), d3 = b_ext(d2, tyof(q));
  int lv = L(d3), d4 = b_ext(d3, tg);
  int lin = b_llam(tg, b_lapp(b_snd(V(d4, lq)),
                              b_pair(V(d4, lv), b_lapp(b_snd(V(d4, lp)), V(d4, lv)))));
  return b_let(p, b_let(x, b_let(q, b_pair(b_fst(V(d3, lq)), lin))));
}

/* F(lam (x. a)) = let f = \x. F_{G,x} a in
 *   ( \x. let r = f x in (fst r, \u. snd r (0, u)),  \v. \x. snd (f x) (v, 0) ) */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_LAM; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases 2 * (CHAD_MAX_DEPTH + 1 - depth);
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_lam(int t, int d, int tg, int depth)
{
  int a = tm_a(t), ty = tm_type(t), dn = depth + 1;
  int sg = ty_left(ty);
  int psg = tr_ty(CHAD_PFWD, sg), tsg = tr_ty(CHAD_TAN, sg);
  int lx0 = L(d), dx = b_ext(d, psg);
  int q = fwd_under(a, dx, lx0, dn);
  if (q < 0) return q;
  int f = b_lam(psg, q);
  int lf = L(d), d1 = b_ext(d, tyof(f));
  int lx1 = L(d1), e1 = b_ext(d1, psg);
  int r = b_app(V(e1, lf), V(e1, lx1));
  int lr = L(e1), e2 = b_ext(e1, tyof(r));
  int lu = L(e2), e3 = b_ext(e2, tsg);
  int inner = b_llam(tsg, b_lapp(b_snd(V(e3, lr)), b_pair(b_zero(e3, tg), V(e3, lu))));
  int prim = b_lam(psg, b_let(r, b_pair(b_fst(V(e2, lr)), inner)));
  int lv = L(d1), g1 = b_ext(d1, tg);
  int lx2 = L(g1), g2 = b_ext(g1, psg);
  int tan = b_llam(tg, b_lam(psg, b_lapp(b_snd(b_app(V(g2, lf), V(g2, lx2))),
                                         b_pair(V(g2, lv), b_zero(g2, tsg)))));
  return b_let(f, b_pair(prim, tan));
}

/* F(app a b) = let p = F a; q = F b; r = fst p (fst q) in
 *   (fst r, \v. (snd p v) (fst q) + snd r (snd q v)) */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_APP; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases 2 * (CHAD_MAX_DEPTH + 1 - depth);
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_app(int t, int d, int tg, int depth)
{
  int a = tm_a(t), b = tm_b(t), dn = depth + 1;
  int p = fwd(a, d, dn);
  if (p < 0) return p;
  int lp = L(d), d1 = b_ext(d, tyof(p));
  int q = fwd(b, d1, dn);
  if (q < 0) return q;
  int lq = L(d1), d2 = b_ext(d1, tyof(q));
  int r = b_app(b_fst(V(d2, lp)), b_fst(V(d2, lq)));
  int lr = L(d2), d3 = b_ext(d2, tyof(r));
  int lv = L(d3), d4 = b_ext(d3, tg);
  int lin = b_llam(tg, b_plus(
      b_app(b_lapp(b_snd(V(d4, lp)), V(d4, lv)), b_fst(V(d4, lq))),
      b_lapp(b_snd(V(d4, lr)), b_lapp(b_snd(V(d4, lq)), V(d4, lv)))));
  return b_let(p, b_let(q, b_let(r, b_pair(b_fst(V(d3, lr)), lin))));
}

/* One child: let p = F a in (op (fst p), \v. op' (snd p v)) for fst, snd,
 * sum, length, op, inl, inr. */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires depth <= CHAD_MAX_DEPTH;
    requires tm_kind_[t] == TM_FST || tm_kind_[t] == TM_SND || tm_kind_[t] == TM_SUM ||
      tm_kind_[t] == TM_LENGTH || tm_kind_[t] == TM_OP || tm_kind_[t] == TM_INL ||
      tm_kind_[t] == TM_INR;
    terminates \true;
    decreases 2 * (CHAD_MAX_DEPTH + 1 - depth);
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_unary(int t, int d, int tg, int depth)
{
  int a = tm_a(t), ty = tm_type(t), dn = depth + 1;
  int p = fwd(a, d, dn);
  if (p < 0) return p;
  int lp = L(d), d1 = b_ext(d, tyof(p));
  int lv = L(d1), d2 = b_ext(d1, tg);
  int x = b_fst(V(d1, lp));
  int dxv = b_lapp(b_snd(V(d2, lp)), V(d2, lv));
  int prim, lin;
  switch (tm_kind(t)) {
  case TM_FST: prim = b_fst(x); lin = b_fst(dxv); break;
  case TM_SND: prim = b_snd(x); lin = b_snd(dxv); break;
  case TM_SUM: prim = b_sum(x); lin = b_sum(dxv); break;
  case TM_LENGTH: prim = b_length(x); lin = b_zero(d2, TY_ID_UNIT); break;
  case TM_OP: {
    int o = (int)tm_aux(t);
    prim = b_op(o, x);
    lin = b_lop_d(o, b_fst(V(d2, lp)), dxv);
    break;
  }
  case TM_INL: {
    int rt = ty_right(ty);
    prim = b_inl(x, tr_ty(CHAD_PFWD, rt));
    lin = b_pair(dxv, b_zero(d2, tr_ty(CHAD_TAN, rt)));
    break;
  }
  default: {
    int lt = ty_left(ty);
    prim = b_inr(tr_ty(CHAD_PFWD, lt), x);
    lin = b_pair(b_zero(d2, tr_ty(CHAD_TAN, lt)), dxv);
    break;
  }
  }
  return b_let(p, b_pair(prim, b_llam(tg, lin)));
}

/* F(case a (x. b) (y. c)) = let p = F a in case fst p of
 *   inl x -> let q = F b in (fst q, \v. snd q (v, fst (snd p v)))
 *   inr y -> let q = F c in (fst q, \v. snd q (v, snd (snd p v))) */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_CASE; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases 2 * (CHAD_MAX_DEPTH + 1 - depth);
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_case(int t, int d, int tg, int depth)
{
  int a = tm_a(t), b = tm_b(t), c = tm_c(t), dn = depth + 1;
  int p = fwd(a, d, dn);
  if (p < 0) return p;
  int lp = L(d), d1 = b_ext(d, tyof(p));
  int st = tm_type(a);
  int br0 = fwd_case_branch(0, b, st, d1, lp, tg, dn);
  if (br0 < 0) return br0;
  int br1 = fwd_case_branch(1, c, st, d1, lp, tg, dn);
  if (br1 < 0) return br1;
  return b_let(p, b_case(b_fst(V(d1, lp)), br0, br1));
}

/* F(iter a (x. b) c) = let pn = F a; ps = F c in
 *   iter (fst pn) (s. let x = fst s; q = F b in (fst q, \v. snd q (v, snd s v))) ps */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_ITER; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases 2 * (CHAD_MAX_DEPTH + 1 - depth);
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_iter(int t, int d, int tg, int depth)
{
  int a = tm_a(t), b = tm_b(t), c = tm_c(t), dn = depth + 1;
  int pn = fwd(a, d, dn);
  if (pn < 0) return pn;
  int ln = L(d), d1 = b_ext(d, tyof(pn));
  int ps = fwd(c, d1, dn);
  if (ps < 0) return ps;
  int ls = L(d1), d2 = b_ext(d1, tyof(ps));
  int lc = L(d2), e1 = b_ext(d2, tyof(ps));
  int x = b_fst(V(e1, lc));
  int lx = L(e1), e2 = b_ext(e1, tyof(x));
  int q = fwd_under(b, e2, lx, dn);
  if (q < 0) return q;
  int lq = L(e2), e3 = b_ext(e2, tyof(q));
  int lv = L(e3), e4 = b_ext(e3, tg);
  int lin = b_llam(tg, b_lapp(b_snd(V(e4, lq)),
                              b_pair(V(e4, lv), b_lapp(b_snd(V(e4, lc)), V(e4, lv)))));
  int body = b_let(x, b_let(q, b_pair(b_fst(V(e3, lq)), lin)));
  return b_let(pn, b_let(ps, b_iter(b_fst(V(d2, ln)), body, V(d2, ls))));
}

/* F(build a (i. b)) = let pn = F a; m = fst pn; ps = build m (i. F b) in
 *   (build m (i. fst ps[i]), \v. build m (i. snd ps[i] (v, ()))) */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_BUILD; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases 2 * (CHAD_MAX_DEPTH + 1 - depth);
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_build(int t, int d, int tg, int depth)
{
  int a = tm_a(t), b = tm_b(t), dn = depth + 1;
  int pn = fwd(a, d, dn);
  if (pn < 0) return pn;
  int ln = L(d), d1 = b_ext(d, tyof(pn));
  int m = b_fst(V(d1, ln));
  int lm = L(d1), d2 = b_ext(d1, TY_ID_INT);
  int li = L(d2), e1 = b_ext(d2, TY_ID_INT);
  int q = fwd_under(b, e1, li, dn);
  if (q < 0) return q;
  int ps = b_build(V(d2, lm), q);
  int lps = L(d2), d3 = b_ext(d2, tyof(ps));
  int li2 = L(d3), f1 = b_ext(d3, TY_ID_INT);
  int prim = b_build(V(d3, lm), b_fst(b_index(V(f1, lps), V(f1, li2))));
  int lv = L(d3), g1 = b_ext(d3, tg);
  int li3 = L(g1), g2 = b_ext(g1, TY_ID_INT);
  int tan = b_llam(tg, b_build(V(g1, lm),
                               b_lapp(b_snd(b_index(V(g2, lps), V(g2, li3))),
                                      b_pair(V(g2, lv), b_zero(g2, TY_ID_UNIT)))));
  return b_let(pn, b_let(m, b_let(ps, b_pair(prim, tan))));
}

/* F(index a b) = let p = F a; q = F b in (fst p [fst q], \v. (snd p v)[fst q]) */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_INDEX; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases 2 * (CHAD_MAX_DEPTH + 1 - depth);
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_index(int t, int d, int tg, int depth)
{
  int a = tm_a(t), b = tm_b(t), dn = depth + 1;
  int p = fwd(a, d, dn);
  if (p < 0) return p;
  int lp = L(d), d1 = b_ext(d, tyof(p));
  int q = fwd(b, d1, dn);
  if (q < 0) return q;
  int lq = L(d1), d2 = b_ext(d1, tyof(q));
  int lv = L(d2), d3 = b_ext(d2, tg);
  int prim = b_index(b_fst(V(d2, lp)), b_fst(V(d2, lq)));
  int lin = b_llam(tg, b_index(b_lapp(b_snd(V(d3, lp)), V(d3, lv)), b_fst(V(d3, lq))));
  return b_let(p, b_let(q, b_pair(prim, lin)));
}

/* F(map (x. a) b) = let p = F b; y = fst p; ps = map (x. F a) y in
 *   (map (z. fst z) ps,
 *    \v. let dys = snd p v in build (length y) (i. snd ps[i] (v, dys[i]))) */
/*@ FWD_REQ; FWD_ENV; FWD_TG; requires tm_kind_[t] == TM_MAP; requires depth <= CHAD_MAX_DEPTH;
    terminates \true;
    decreases 2 * (CHAD_MAX_DEPTH + 1 - depth);
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd_map(int t, int d, int tg, int depth)
{
  int a = tm_a(t), b = tm_b(t), dn = depth + 1;
  int p = fwd(b, d, dn);
  if (p < 0) return p;
  int sg = ty_left(tm_type(b));
  int lp = L(d), d1 = b_ext(d, tyof(p));
  int y = b_fst(V(d1, lp));
  int ly = L(d1), d2 = b_ext(d1, tyof(y));
  int lx = L(d2), e1 = b_ext(d2, tr_ty(CHAD_PFWD, sg));
  int q = fwd_under(a, e1, lx, dn);
  if (q < 0) return q;
  int ps = b_map(q, V(d2, ly));
  int lps = L(d2), d3 = b_ext(d2, tyof(ps));
  int lz = L(d3), f1 = b_ext(d3, tyof(q));
  int prim = b_map(b_fst(V(f1, lz)), V(d3, lps));
  int lv = L(d3), g1 = b_ext(d3, tg);
  int dys = b_lapp(b_snd(V(g1, lp)), V(g1, lv));
  int ldys = L(g1), g2 = b_ext(g1, tyof(dys));
  int li = L(g2), g3 = b_ext(g2, TY_ID_INT);
  int el = b_lapp(b_snd(b_index(V(g3, lps), V(g3, li))),
                  b_pair(V(g3, lv), b_index(V(g3, ldys), V(g3, li))));
  int tan = b_llam(tg, b_let(dys, b_build(b_length(V(g2, ly)), el)));
  return b_let(p, b_let(y, b_let(ps, b_pair(prim, tan))));
}

/*@ FWD_REQ;
    requires d == CHAD_E_CAPACITY || env_ok(CHAD_PFWD, tm_ctx_[t], d);
    terminates \true;
    decreases 2 * (CHAD_MAX_DEPTH + 1 - depth) + 1;
    FWD_ASSIGNS;
    FWD_ENS;
*/
static int fwd(int t, int d, int depth)
{
  if (depth > CHAD_MAX_DEPTH)
    return CHAD_E_DEPTH;
  if (d < 0)
    return d;
  int g = tm_ctx(t);
  if (g < 0)
    return g;
  //@ assert msrc_ok(t);
  int tg = tr_ctx(CHAD_TAN, g);           /* T G */
  if (tg < 0)
    return tg;
  /* P tau and T tau: the result type P tau * (T G -o T tau) is built by
   * the constructors; translating here fills the memo tables that state
   * what the translations are (a hit after the first time). */
  int pt = tr_ty(CHAD_PFWD, tm_type(t));
  if (pt < 0)
    return pt;
  int tt = tr_ty(CHAD_TAN, tm_type(t));
  if (tt < 0)
    return tt;
  switch (tm_kind(t)) {
  case TM_VAR: return fwd_var(t, d, tg, depth);
  case TM_UNIT: case TM_RCONST: case TM_ICONST: return fwd_const(t, d, tg, depth);
  case TM_LET: return fwd_let(t, d, tg, depth);
  case TM_LAM: return fwd_lam(t, d, tg, depth);
  case TM_APP: return fwd_app(t, d, tg, depth);
  case TM_PAIR: return fwd_pair(t, d, tg, depth);
  case TM_FST: case TM_SND: case TM_SUM: case TM_LENGTH: case TM_OP:
  case TM_INL: case TM_INR:
    return fwd_unary(t, d, tg, depth);
  case TM_CASE: return fwd_case(t, d, tg, depth);
  case TM_ITER: return fwd_iter(t, d, tg, depth);
  case TM_BUILD: return fwd_build(t, d, tg, depth);
  case TM_INDEX: return fwd_index(t, d, tg, depth);
  case TM_MAP: return fwd_map(t, d, tg, depth);
  default:
    return CHAD_E_TYPE;              /* not a source-language term */
  }
}

/* Fills the ghost columns of chad_spec.h for the current tables: source
 * types, contexts and terms, and term sizes; each loop proves its column
 * equal to the recursive definition (the induction, one index at a time). */
/*@ requires kernel_inv;
    terminates \true;
    assigns chad_tsrc_[0 .. CHAD_MAX_TYPES - 1], chad_csrc_[0 .. CHAD_MAX_CTXS - 1],
            chad_msrc_[0 .. CHAD_MAX_TERMS - 1], chad_msz_[0 .. CHAD_MAX_TERMS - 1];
    ensures src_inv;
    ensures \forall integer u; 0 <= u < tm_count ==>
      (chad_msrc_[u] == 1 <==> tm_srcr(u)) && chad_msz_[u] == sat(tsize(u));
*/
static void src_columns(void)
{
  /*@ ghost
    /@ loop invariant 0 <= i <= CHAD_MAX_TYPES;
       loop invariant \forall integer j; 0 <= j < i && j < ty_count ==>
         (chad_tsrc_[j] == 1 <==> ty_srcr(j));
       loop invariant \forall integer j; 0 <= j < i && chad_tsrc_[j] == 1 ==> tsrc_ok(j);
       loop invariant \forall integer j; 0 <= j < i && j >= ty_count ==> chad_tsrc_[j] == 0;
       loop assigns i, chad_tsrc_[0 .. CHAD_MAX_TYPES - 1];
       loop variant CHAD_MAX_TYPES - i;
    @/
    for (int i = 0; i < CHAD_MAX_TYPES; i++) {
      if (i < ty_count) {
        /@ assert ty_node_ok(i); @/
        int l = ty_left_[i], r = ty_right_[i];
        chad_tsrc_[i] = (ty_kind_[i] != TY_LFUN && ty_kind_[i] != TY_COPOW &&
                         (l < 0 || chad_tsrc_[l] == 1) && (r < 0 || chad_tsrc_[r] == 1)) ? 1 : 0;
      } else
        chad_tsrc_[i] = 0;
    }
    /@ loop invariant 0 <= i <= CHAD_MAX_CTXS;
       loop invariant \forall integer j; 0 <= j < i && j < ctx_count ==>
         (chad_csrc_[j] == 1 <==> ctx_srcr(j));
       loop invariant \forall integer j; 0 <= j < i && chad_csrc_[j] == 1 ==> csrc_ok(j);
       loop invariant \forall integer j; 0 <= j < i && j >= ctx_count ==> chad_csrc_[j] == 0;
       loop assigns i, chad_csrc_[0 .. CHAD_MAX_CTXS - 1];
       loop variant CHAD_MAX_CTXS - i;
    @/
    for (int i = 0; i < CHAD_MAX_CTXS; i++) {
      if (i == 0)
        chad_csrc_[i] = 1;
      else if (i < ctx_count) {
        /@ assert ctx_node_ok(i); @/
        chad_csrc_[i] = (chad_csrc_[ctx_parent_[i]] == 1 &&
                         chad_tsrc_[ctx_type_[i]] == 1) ? 1 : 0;
      } else
        chad_csrc_[i] = 0;
    }
    /@ loop invariant 0 <= i <= CHAD_MAX_TERMS;
       loop invariant \forall integer j; 0 <= j < i && j < tm_count ==>
         (chad_msrc_[j] == 1 <==> tm_srcr(j)) && msz_ok(j) && chad_msz_[j] == sat(tsize(j));
       loop invariant \forall integer j; 0 <= j < i && chad_msrc_[j] == 1 ==> msrc_ok(j);
       loop invariant \forall integer j; 0 <= j < i && j >= tm_count ==> chad_msrc_[j] == 0;
       loop assigns i, chad_msrc_[0 .. CHAD_MAX_TERMS - 1], chad_msz_[0 .. CHAD_MAX_TERMS - 1];
       loop variant CHAD_MAX_TERMS - i;
    @/
    for (int i = 0; i < CHAD_MAX_TERMS; i++) {
      if (i < tm_count) {
        /@ assert tm_wf(i) && node_ok(i); @/
        int a = tm_a_[i], b = tm_b_[i], c = tm_c_[i], k = tm_kind_[i];
        chad_msrc_[i] = (TM_VAR <= k && k <= TM_SUM && chad_tsrc_[tm_ty_[i]] == 1 &&
                         chad_csrc_[tm_ctx_[i]] == 1 &&
                         (a < 0 || chad_msrc_[a] == 1) && (b < 0 || chad_msrc_[b] == 1) &&
                         (c < 0 || chad_msrc_[c] == 1)) ? 1 : 0;
        if (k == TM_VAR)
          chad_msz_[i] = (int)tm_aux_[i] + 1 < CHAD_MAX_TERMS ? (int)tm_aux_[i] + 1 : CHAD_MAX_TERMS;
        else {
          int sz = 1 + (a < 0 ? 0 : chad_msz_[a]) + (b < 0 ? 0 : chad_msz_[b]) +
                   (c < 0 ? 0 : chad_msz_[c]);
          chad_msz_[i] = sz < CHAD_MAX_TERMS ? sz : CHAD_MAX_TERMS;
        }
      } else {
        chad_msrc_[i] = 0;
        chad_msz_[i] = 1;
      }
    }
  */
}

/* F(t) emitted into d, which must extend P G. */
/*@ requires kernel_inv && venv_wf;
    requires tm_srcr(t);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_TR_CTX_STATE, CH_EXT_STATE, venv_sp,
      venv_cur, venv_kind_[venv_sp .. CHAD_ENV_CAP - 1], venv_val_[venv_sp .. CHAD_ENV_CAP - 1],
      chad_tsrc_[0 .. CHAD_MAX_TYPES - 1], chad_csrc_[0 .. CHAD_MAX_CTXS - 1],
      chad_msrc_[0 .. CHAD_MAX_TERMS - 1], chad_msz_[0 .. CHAD_MAX_TERMS - 1];
    ensures kernel_inv && memo_inv && venv_wf;
    ensures venv_sp == \old(venv_sp) && venv_cur == \old(venv_cur);
    ensures fwd_in_size: tm_count - \old(tm_count) <= FWD_K * \old(tsize(t));
    ensures fwd_in_codes: \result >= 0 || \result == CHAD_E_CAPACITY ||
      \result == CHAD_E_DEPTH || \result == CHAD_E_ARG;
    ensures fwd_in_type: \result >= 0 ==> 0 <= \result < tm_count && tm_ctx_[\result] == d &&
      fwd_ty(tm_ty_[\result], tm_ctx_[t], tm_ty_[t]);
*/
int chad_fwd_in(int t, int d)
{
  src_columns();
  chad_sync();
  int g = tm_ctx(t);
  if (g < 0)
    return g;
  //@ assert msrc_ok(t);
  int n = ctx_length(g);
  if (d < 0 || d >= ctx_count || ctx_length(d) < n)
    return CHAD_E_ARG;
  /* d must extend P G: its prefix of length n is P G (contexts are
   * hash-consed, so equal contexts have equal ids) */
  int pg = tr_ctx(CHAD_PFWD, g), pre = d;
  /*@ loop invariant 0 <= pre < ctx_count && n <= i <= ctx_len_[d] && ctx_len_[pre] == i;
      loop invariant \forall integer j; 0 <= j ==>
        ctx_lk(d, (ctx_len_[d] - i) + j) == ctx_lk(pre, j);
      loop assigns i, pre;
      loop variant i; */
  for (int i = ctx_length(d); i > n && pre >= 0; i--) {
    //@ assert ctx_node_ok(pre);
    pre = ctx_parent(pre);
  }
  if (pg < 0)
    return pg;
  if (pre != pg)
    return CHAD_E_ARG;
  /* the identity environment: source variable k is level n-1-k of d */
  /*@ ghost
    int cg = g, cp = pg;
    /@ loop invariant 0 <= i <= n;
       loop invariant 0 <= cg < ctx_count && trch(CHAD_PFWD, cg) && cp == trc(CHAD_PFWD, cg);
       loop invariant ctx_len_[cg] == n - i;
       loop invariant \forall integer j; 0 <= j ==> ctx_lk(g, i + j) == ctx_lk(cg, j);
       loop invariant \forall integer j; 0 <= j ==> ctx_lk(pg, i + j) == ctx_lk(cp, j);
       loop invariant \forall integer j; 0 <= j < i ==>
         trh(CHAD_PFWD, ctx_lk(g, j)) && ctx_lk(pg, j) == trm(CHAD_PFWD, ctx_lk(g, j));
       loop assigns i, cg, cp;
       loop variant n - i;
    @/
    for (int i = 0; i < n; i++) {
      /@ assert ctx_node_ok(cg); @/
      /@ assert trc_ok(CHAD_PFWD, cg, chad_memo_ctx_[CHAD_PFWD][cg] - 1); @/
      /@ assert ctx_node_ok(cp); @/
      cg = ctx_parent_[cg];
      cp = ctx_parent_[cp];
    }
  */
  venv_frame old = venv_open(n);
  //@ assert env_ok(CHAD_PFWD, g, d);
  int r = fwd(t, d, 0);
  venv_restore(old);
  return r;
}

/*@ requires kernel_inv && venv_wf;
    requires tm_srcr(t);
    terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_TR_CTX_STATE, CH_EXT_STATE, venv_sp,
      venv_cur, venv_kind_[venv_sp .. CHAD_ENV_CAP - 1], venv_val_[venv_sp .. CHAD_ENV_CAP - 1],
      chad_tsrc_[0 .. CHAD_MAX_TYPES - 1], chad_csrc_[0 .. CHAD_MAX_CTXS - 1],
      chad_msrc_[0 .. CHAD_MAX_TERMS - 1], chad_msz_[0 .. CHAD_MAX_TERMS - 1];
    ensures kernel_inv && memo_inv && venv_wf;
    ensures venv_sp == \old(venv_sp) && venv_cur == \old(venv_cur);
    ensures fwd_top_size: tm_count - \old(tm_count) <= FWD_K * \old(tsize(t));
    ensures fwd_top_codes: \result >= 0 || \result == CHAD_E_CAPACITY || \result == CHAD_E_DEPTH;
    ensures fwd_top_type: \result >= 0 ==> 0 <= \result < tm_count &&
      trch(CHAD_PFWD, tm_ctx_[t]) && tm_ctx_[\result] == trc(CHAD_PFWD, tm_ctx_[t]) &&
      fwd_ty(tm_ty_[\result], tm_ctx_[t], tm_ty_[t]);
*/
int chad_fwd(int t)
{
  src_columns();
  chad_sync();        /* before the first translation: the memo may be stale */
  int g = tm_ctx(t);
  if (g < 0)
    return g;
  //@ assert msrc_ok(t);
  int pg = tr_ctx(CHAD_PFWD, g);
  if (pg < 0)
    return pg;
  return chad_fwd_in(t, pg);
}
