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

#define V(d, l) b_var((d), (l))
#define L(d) b_lvl(d)

static int tyof(int t) { return t < 0 ? t : tm_type(t); }

static int fwd(int t, int d, int depth);

/* Translates child c in target ctx d under one more source binder that sits
 * at target level lvl. */
/*@ requires depth >= 0;
    decreases CHAD_MAX_DEPTH + 1 - depth; */
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
    decreases CHAD_MAX_DEPTH + 1 - depth; */
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

/*@ requires depth >= 0;
    decreases CHAD_MAX_DEPTH + 1 - depth; */
static int fwd(int t, int d, int depth)
{
  if (depth > CHAD_MAX_DEPTH)
    return CHAD_E_DEPTH;
  if (d < 0)
    return d;
  int g = tm_ctx(t);
  if (g < 0)
    return g;
  int tg = tr_ctx(CHAD_TAN, g);           /* T G */
  if (tg < 0)
    return tg;
  int ty = tm_type(t);
  int a = tm_a(t), b = tm_b(t), c = tm_c(t);
  int dn = depth + 1;

  switch (tm_kind(t)) {
  case TM_VAR: {                   /* (x, \v. proj_k v) */
    int kind = ENV_LEVEL;
    int lvl = venv_lookup((int)tm_aux(t), &kind);
    if (lvl < 0)
      return lvl;
    if (kind != ENV_LEVEL)
      return CHAD_E_ARG;
    int lv = L(d), d1 = b_ext(d, tg);
    int body = chad_proj_tuple(V(d1, lv), (int)tm_aux(t));
    return b_pair(V(d, lvl), b_llam(tg, body));
  }
  case TM_UNIT: case TM_RCONST: case TM_ICONST: {   /* (c, \v. 0) */
    int k = tm_kind(t);
    int prim = k == TM_UNIT ? b_unit(d)
             : k == TM_RCONST ? tm_rconst(d, tm_rval(t)) : tm_iconst(d, tm_aux(t));
    int d1 = b_ext(d, tg);
    return b_pair(prim, b_llam(tg, b_zero(d1, tr_ty(CHAD_TAN, ty))));
  }
  case TM_LET: {
    /* let p = F a; x = fst p; q = F_{G,x} b in (fst q, \v. snd q (v, snd p v)) */
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
  case TM_LAM: {
    /* let f = \x. F_{G,x} a in
     * ( \x. let r = f x in (fst r, \u. snd r (0, u)),  \v. \x. snd (f x) (v, 0) ) */
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
  case TM_APP: {
    /* let p = F a; q = F b; r = fst p (fst q) in
     * (fst r, \v. (snd p v) (fst q) + snd r (snd q v)) */
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
  case TM_PAIR: {
    /* let p = F a; q = F b in ((fst p, fst q), \v. (snd p v, snd q v)) */
    int p = fwd(a, d, dn);
    if (p < 0) return p;
    int lp = L(d), d1 = b_ext(d, tyof(p));
    int q = fwd(b, d1, dn);
    if (q < 0) return q;
    int lq = L(d1), d2 = b_ext(d1, tyof(q));
    int lv = L(d2), d3 = b_ext(d2, tg);
    int lin = b_llam(tg, b_pair(b_lapp(b_snd(V(d3, lp)), V(d3, lv)),
                                b_lapp(b_snd(V(d3, lq)), V(d3, lv))));
    return b_let(p, b_let(q, b_pair(b_pair(b_fst(V(d2, lp)), b_fst(V(d2, lq))), lin)));
  }
  case TM_FST: case TM_SND: case TM_SUM: case TM_LENGTH: case TM_OP:
  case TM_INL: case TM_INR: {
    /* one child: let p = F a in (op (fst p), \v. op' (snd p v)) */
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
  case TM_CASE: {
    /* let p = F a in case fst p of
     *   inl x -> let q = F b in (fst q, \v. snd q (v, fst (snd p v)))
     *   inr y -> let q = F c in (fst q, \v. snd q (v, snd (snd p v))) */
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
  case TM_ITER: {
    /* let pn = F a; ps = F c in
     * iter (fst pn) (s. let x = fst s; q = F b in
     *                   (fst q, \v. snd q (v, snd s v))) ps */
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
  case TM_BUILD: {
    /* let pn = F a; m = fst pn; ps = build m (i. F b) in
     * (build m (i. fst ps[i]), \v. build m (i. snd ps[i] (v, ()))) */
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
  case TM_INDEX: {
    /* let p = F a; q = F b in (fst p [fst q], \v. (snd p v)[fst q]) */
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
  case TM_MAP: {
    /* let p = F b; y = fst p; ps = map (x. F a) y in
     * (map (z. fst z) ps,
     *  \v. let dys = snd p v in build (length y) (i. snd ps[i] (v, dys[i]))) */
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
  default:
    return CHAD_E_TYPE;              /* not a source-language term */
  }
}

int chad_fwd_in(int t, int d)
{
  chad_sync();
  int g = tm_ctx(t);
  if (g < 0)
    return g;
  int n = ctx_length(g);
  if (d < 0 || d >= ctx_count || ctx_length(d) < n)
    return CHAD_E_ARG;
  /* d must extend P G: its prefix of length n is P G (contexts are
   * hash-consed, so equal contexts have equal ids) */
  int pg = tr_ctx(CHAD_PFWD, g), pre = d;
  for (int i = ctx_length(d); i > n && pre >= 0; i--)
    pre = ctx_parent(pre);
  if (pg < 0)
    return pg;
  if (pre != pg)
    return CHAD_E_ARG;
  venv_frame old = venv_open(n);
  int r = fwd(t, d, 0);
  venv_restore(old);
  return r;
}

int chad_fwd(int t)
{
  int g = tm_ctx(t);
  if (g < 0)
    return g;
  int pg = tr_ctx(CHAD_PFWD, g);
  if (pg < 0)
    return pg;
  return chad_fwd_in(t, pg);
}
