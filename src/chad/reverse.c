/* Reverse-mode CHAD (rules card §5): R(t) for G |- t : tau is a term in
 * P G of type P tau * (C tau -o C G). Same sharing discipline and level
 * environment as forward.c. Array cotangents are length-free: R(index) uses
 * TM_ONEHOT (O(1)), zero of C (Arr a) is one TM_ZERO node. */
#include "chad/chad.h"
#include "chad/kernel.h"
#include "chad_internal.h"

#define V(d, l) b_var((d), (l))
#define L(d) b_lvl(d)

static int tyof(int t) { return t < 0 ? t : tm_type(t); }

static int rev(int t, int d, int depth);

/*@ requires depth >= 0;
    decreases CHAD_MAX_DEPTH + 1 - depth; */
static int rev_under(int c, int d, int lvl, int depth)
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
  int r = rev(c, d, depth + 1);
  venv_pop();
  return r;
}

/* One branch of R(case): (fst q, \v. let g = snd q v in fst g + snd p (snd g, 0))
 * (or (0, snd g) on the right), in d1 with p at level lp. */
/*@ requires depth >= 0;
    decreases CHAD_MAX_DEPTH + 1 - depth; */
static int rev_case_branch(int side, int body, int st, int d1, int lp, int ct, int depth)
{
  if (depth > CHAD_MAX_DEPTH)
    return CHAD_E_DEPTH;
  int sty = side == 0 ? ty_left(st) : ty_right(st);
  int oty = side == 0 ? ty_right(st) : ty_left(st);
  int lx = L(d1), e1 = b_ext(d1, tr_ty(CHAD_PREV, sty));
  int q = rev_under(body, e1, lx, depth + 1);
  if (q < 0) return q;
  int lq = L(e1), e2 = b_ext(e1, tyof(q));
  int lv = L(e2), e3 = b_ext(e2, ct);
  int gg = b_lapp(b_snd(V(e3, lq)), V(e3, lv));
  int lg = L(e3), e4 = b_ext(e3, tyof(gg));
  int z = b_zero(e4, tr_ty(CHAD_COT, oty));
  int sv = b_snd(V(e4, lg));
  int arg = side == 0 ? b_pair(sv, z) : b_pair(z, sv);
  int lin = b_llam(ct, b_let(gg, b_plus(b_fst(V(e4, lg)),
                                        b_lapp(b_snd(V(e4, lp)), arg))));
  return b_let(q, b_pair(b_fst(V(e2, lq)), lin));
}

/*@ requires depth >= 0;
    decreases CHAD_MAX_DEPTH + 1 - depth; */
static int rev(int t, int d, int depth)
{
  if (depth > CHAD_MAX_DEPTH)
    return CHAD_E_DEPTH;
  if (d < 0)
    return d;
  int g = tm_ctx(t);
  if (g < 0)
    return g;
  int cg = tr_ctx(CHAD_COT, g);           /* C G */
  if (cg < 0)
    return cg;
  int ty = tm_type(t);
  int ct = tr_ty(CHAD_COT, ty);                 /* C tau */
  if (ct < 0)
    return ct;
  int a = tm_a(t), b = tm_b(t), c = tm_c(t);
  int dn = depth + 1;

  switch (tm_kind(t)) {
  case TM_VAR: {                   /* (x, \v. onehot_k v) */
    int kind = ENV_LEVEL;
    int lvl = venv_lookup((int)tm_aux(t), &kind);
    if (lvl < 0)
      return lvl;
    if (kind != ENV_LEVEL)
      return CHAD_E_ARG;
    int lv = L(d), d1 = b_ext(d, ct);
    int body = chad_onehot_tuple(V(d1, lv), g, (int)tm_aux(t));
    return b_pair(V(d, lvl), b_llam(ct, body));
  }
  case TM_UNIT: case TM_RCONST: case TM_ICONST: {   /* (c, \v. 0) */
    int k = tm_kind(t);
    int prim = k == TM_UNIT ? b_unit(d)
             : k == TM_RCONST ? tm_rconst(d, tm_rval(t)) : tm_iconst(d, tm_aux(t));
    int d1 = b_ext(d, ct);
    return b_pair(prim, b_llam(ct, b_zero(d1, cg)));
  }
  case TM_LET: {
    /* let p = R a; x = fst p; q = R_{G,x} b in
     * (fst q, \v. let g = snd q v in fst g + snd p (snd g)) */
    int p = rev(a, d, dn);
    if (p < 0) return p;
    int lp = L(d), d1 = b_ext(d, tyof(p));
    int x = b_fst(V(d1, lp));
    int lx = L(d1), d2 = b_ext(d1, tyof(x));
    int q = rev_under(b, d2, lx, dn);
    if (q < 0) return q;
    int lq = L(d2), d3 = b_ext(d2, tyof(q));
    int lv = L(d3), d4 = b_ext(d3, ct);
    int gg = b_lapp(b_snd(V(d4, lq)), V(d4, lv));
    int lg = L(d4), d5 = b_ext(d4, tyof(gg));
    int lin = b_llam(ct, b_let(gg, b_plus(b_fst(V(d5, lg)),
                                          b_lapp(b_snd(V(d5, lp)), b_snd(V(d5, lg))))));
    return b_let(p, b_let(x, b_let(q, b_pair(b_fst(V(d3, lq)), lin))));
  }
  case TM_LAM: {
    /* let f = \x. R_{G,x} a in
     * ( \x. let r = f x in (fst r, \v. snd (snd r v)),
     *   \w. cp_fold w (x v. fst (snd (f x) v)) ) */
    int sg = ty_left(ty), tau = ty_right(ty);
    int psg = tr_ty(CHAD_PREV, sg), ctau = tr_ty(CHAD_COT, tau);
    int lx0 = L(d), dx = b_ext(d, psg);
    int q = rev_under(a, dx, lx0, dn);
    if (q < 0) return q;
    int f = b_lam(psg, q);
    int lf = L(d), d1 = b_ext(d, tyof(f));
    int lx1 = L(d1), e1 = b_ext(d1, psg);
    int r = b_app(V(e1, lf), V(e1, lx1));
    int lr = L(e1), e2 = b_ext(e1, tyof(r));
    int lv = L(e2), e3 = b_ext(e2, ctau);
    int inner = b_llam(ctau, b_snd(b_lapp(b_snd(V(e3, lr)), V(e3, lv))));
    int prim = b_lam(psg, b_let(r, b_pair(b_fst(V(e2, lr)), inner)));
    int lw = L(d1), g1 = b_ext(d1, ct);
    int lx2 = L(g1), g2 = b_ext(g1, psg);
    int lv2 = L(g2), g3 = b_ext(g2, ctau);
    int fold = b_cp_fold(V(g1, lw),
                         b_fst(b_lapp(b_snd(b_app(V(g3, lf), V(g3, lx2))), V(g3, lv2))));
    return b_let(f, b_pair(prim, b_llam(ct, fold)));
  }
  case TM_APP: {
    /* let p = R a; q = R b; r = fst p (fst q) in
     * (fst r, \v. snd p (cp_single (fst q) v) + snd q (snd r v)) */
    int p = rev(a, d, dn);
    if (p < 0) return p;
    int lp = L(d), d1 = b_ext(d, tyof(p));
    int q = rev(b, d1, dn);
    if (q < 0) return q;
    int lq = L(d1), d2 = b_ext(d1, tyof(q));
    int r = b_app(b_fst(V(d2, lp)), b_fst(V(d2, lq)));
    int lr = L(d2), d3 = b_ext(d2, tyof(r));
    int lv = L(d3), d4 = b_ext(d3, ct);
    int lin = b_llam(ct, b_plus(
        b_lapp(b_snd(V(d4, lp)), b_cp_single(b_fst(V(d4, lq)), V(d4, lv))),
        b_lapp(b_snd(V(d4, lq)), b_lapp(b_snd(V(d4, lr)), V(d4, lv)))));
    return b_let(p, b_let(q, b_let(r, b_pair(b_fst(V(d3, lr)), lin))));
  }
  case TM_PAIR: {
    /* let p = R a; q = R b in ((fst p, fst q), \v. snd p (fst v) + snd q (snd v)) */
    int p = rev(a, d, dn);
    if (p < 0) return p;
    int lp = L(d), d1 = b_ext(d, tyof(p));
    int q = rev(b, d1, dn);
    if (q < 0) return q;
    int lq = L(d1), d2 = b_ext(d1, tyof(q));
    int lv = L(d2), d3 = b_ext(d2, ct);
    int lin = b_llam(ct, b_plus(b_lapp(b_snd(V(d3, lp)), b_fst(V(d3, lv))),
                                b_lapp(b_snd(V(d3, lq)), b_snd(V(d3, lv)))));
    return b_let(p, b_let(q, b_pair(b_pair(b_fst(V(d2, lp)), b_fst(V(d2, lq))), lin)));
  }
  case TM_FST: case TM_SND: case TM_SUM: case TM_LENGTH: case TM_OP:
  case TM_INL: case TM_INR: {
    /* one child: let p = R a in (op (fst p), \v. snd p (op' v)) */
    int p = rev(a, d, dn);
    if (p < 0) return p;
    int lp = L(d), d1 = b_ext(d, tyof(p));
    int lv = L(d1), d2 = b_ext(d1, ct);
    int x = b_fst(V(d1, lp));
    int v = V(d2, lv);
    int dx = b_snd(V(d2, lp));
    int at = tm_type(a);
    int prim, lin;
    switch (tm_kind(t)) {
    case TM_FST:
      prim = b_fst(x);
      lin = b_lapp(dx, b_pair(v, b_zero(d2, tr_ty(CHAD_COT, ty_right(at)))));
      break;
    case TM_SND:
      prim = b_snd(x);
      lin = b_lapp(dx, b_pair(b_zero(d2, tr_ty(CHAD_COT, ty_left(at))), v));
      break;
    case TM_SUM: {                 /* \v. snd p (build (length (fst p)) (i. v)) */
      prim = b_sum(x);
      int e = b_ext(d2, TY_ID_INT);
      lin = b_lapp(dx, b_build(b_length(b_fst(V(d2, lp))), V(e, lv)));
      break;
    }
    case TM_LENGTH:
      prim = b_length(x);
      lin = b_zero(d2, cg);
      break;
    case TM_OP: {
      int o = (int)tm_aux(t);
      prim = b_op(o, x);
      lin = b_lapp(dx, b_lop_dt(o, b_fst(V(d2, lp)), v));
      break;
    }
    case TM_INL:
      prim = b_inl(x, tr_ty(CHAD_PREV, ty_right(ty)));
      lin = b_lapp(dx, b_fst(v));
      break;
    default:
      prim = b_inr(tr_ty(CHAD_PREV, ty_left(ty)), x);
      lin = b_lapp(dx, b_snd(v));
      break;
    }
    return b_let(p, b_pair(prim, b_llam(ct, lin)));
  }
  case TM_CASE: {
    /* let p = R a in case fst p of
     *   inl x -> let q = R b in (fst q, \v. let g = snd q v in fst g + snd p (snd g, 0))
     *   inr y -> ... snd p (0, snd g) */
    int p = rev(a, d, dn);
    if (p < 0) return p;
    int lp = L(d), d1 = b_ext(d, tyof(p));
    int st = tm_type(a);
    int br0 = rev_case_branch(0, b, st, d1, lp, ct, depth + 1);
    if (br0 < 0) return br0;
    int br1 = rev_case_branch(1, c, st, d1, lp, ct, depth + 1);
    if (br1 < 0) return br1;
    return b_let(p, b_case(b_fst(V(d1, lp)), br0, br1));
  }
  case TM_ITER: {
    /* let pn = R a; ps = R c in
     * iter (fst pn) (s. let x = fst s; q = R b in
     *     (fst q, \v. let g = snd q v in fst g + snd s (snd g))) ps */
    int pn = rev(a, d, dn);
    if (pn < 0) return pn;
    int ln = L(d), d1 = b_ext(d, tyof(pn));
    int ps = rev(c, d1, dn);
    if (ps < 0) return ps;
    int ls = L(d1), d2 = b_ext(d1, tyof(ps));
    int lc = L(d2), e1 = b_ext(d2, tyof(ps));
    int x = b_fst(V(e1, lc));
    int lx = L(e1), e2 = b_ext(e1, tyof(x));
    int q = rev_under(b, e2, lx, dn);
    if (q < 0) return q;
    int lq = L(e2), e3 = b_ext(e2, tyof(q));
    int lv = L(e3), e4 = b_ext(e3, ct);
    int gg = b_lapp(b_snd(V(e4, lq)), V(e4, lv));
    int lg = L(e4), e5 = b_ext(e4, tyof(gg));
    int lin = b_llam(ct, b_let(gg, b_plus(b_fst(V(e5, lg)),
                                          b_lapp(b_snd(V(e5, lc)), b_snd(V(e5, lg))))));
    int body = b_let(x, b_let(q, b_pair(b_fst(V(e3, lq)), lin)));
    return b_let(pn, b_let(ps, b_iter(b_fst(V(d2, ln)), body, V(d2, ls))));
  }
  case TM_BUILD: {
    /* let pn = R a; m = fst pn; ps = build m (i. R b) in
     * (build m (i. fst ps[i]), \v. lsum m (i. fst (snd ps[i] v[i]))) */
    int pn = rev(a, d, dn);
    if (pn < 0) return pn;
    int ln = L(d), d1 = b_ext(d, tyof(pn));
    int m = b_fst(V(d1, ln));
    int lm = L(d1), d2 = b_ext(d1, TY_ID_INT);
    int li = L(d2), e1 = b_ext(d2, TY_ID_INT);
    int q = rev_under(b, e1, li, dn);
    if (q < 0) return q;
    int ps = b_build(V(d2, lm), q);
    int lps = L(d2), d3 = b_ext(d2, tyof(ps));
    int li2 = L(d3), f1 = b_ext(d3, TY_ID_INT);
    int prim = b_build(V(d3, lm), b_fst(b_index(V(f1, lps), V(f1, li2))));
    int lv = L(d3), g1 = b_ext(d3, ct);
    int li3 = L(g1), g2 = b_ext(g1, TY_ID_INT);
    int tan = b_llam(ct, b_lsum(V(g1, lm),
                                b_fst(b_lapp(b_snd(b_index(V(g2, lps), V(g2, li3))),
                                             b_index(V(g2, lv), V(g2, li3))))));
    return b_let(pn, b_let(m, b_let(ps, b_pair(prim, tan))));
  }
  case TM_INDEX: {
    /* let p = R a; q = R b in (fst p [fst q], \v. snd p (onehot (fst q) v)) */
    int p = rev(a, d, dn);
    if (p < 0) return p;
    int lp = L(d), d1 = b_ext(d, tyof(p));
    int q = rev(b, d1, dn);
    if (q < 0) return q;
    int lq = L(d1), d2 = b_ext(d1, tyof(q));
    int lv = L(d2), d3 = b_ext(d2, ct);
    int prim = b_index(b_fst(V(d2, lp)), b_fst(V(d2, lq)));
    int lin = b_llam(ct, b_lapp(b_snd(V(d3, lp)), b_onehot(b_fst(V(d3, lq)), V(d3, lv))));
    return b_let(p, b_let(q, b_pair(prim, lin)));
  }
  case TM_MAP: {
    /* let p = R b; y = fst p; ps = map (x. R a) y in
     * (map (z. fst z) ps,
     *  \v. let cs = build (length y) (i. snd ps[i] v[i]) in
     *      lsum (length y) (i. fst cs[i]) + snd p (map (z. snd z) cs)) */
    int p = rev(b, d, dn);
    if (p < 0) return p;
    int sg = ty_left(tm_type(b));
    int lp = L(d), d1 = b_ext(d, tyof(p));
    int y = b_fst(V(d1, lp));
    int ly = L(d1), d2 = b_ext(d1, tyof(y));
    int lx = L(d2), e1 = b_ext(d2, tr_ty(CHAD_PREV, sg));
    int q = rev_under(a, e1, lx, dn);
    if (q < 0) return q;
    int ps = b_map(q, V(d2, ly));
    int lps = L(d2), d3 = b_ext(d2, tyof(ps));
    int lz = L(d3), f1 = b_ext(d3, tyof(q));
    int prim = b_map(b_fst(V(f1, lz)), V(d3, lps));
    int lv = L(d3), g1 = b_ext(d3, ct);
    int li = L(g1), g2 = b_ext(g1, TY_ID_INT);
    int cs = b_build(b_length(V(g1, ly)),
                     b_lapp(b_snd(b_index(V(g2, lps), V(g2, li))),
                            b_index(V(g2, lv), V(g2, li))));
    int lcs = L(g1), h1 = b_ext(g1, tyof(cs));
    int lj = L(h1), h2 = b_ext(h1, TY_ID_INT);
    int part1 = b_lsum(b_length(V(h1, ly)), b_fst(b_index(V(h2, lcs), V(h2, lj))));
    int cel = cs < 0 ? cs : ty_left(tm_type(cs));
    int lw = L(h1), h3 = b_ext(h1, cel);
    int part2 = b_lapp(b_snd(V(h1, lp)), b_map(b_snd(V(h3, lw)), V(h1, lcs)));
    int tan = b_llam(ct, b_let(cs, b_plus(part1, part2)));
    return b_let(p, b_let(y, b_let(ps, b_pair(prim, tan))));
  }
  default:
    return CHAD_E_TYPE;
  }
}

int chad_rev_in(int t, int d)
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
  int pg = tr_ctx(CHAD_PREV, g), pre = d;
  for (int i = ctx_length(d); i > n && pre >= 0; i--)
    pre = ctx_parent(pre);
  if (pg < 0)
    return pg;
  if (pre != pg)
    return CHAD_E_ARG;
  venv_frame old = venv_open(n);
  int r = rev(t, d, 0);
  venv_restore(old);
  return r;
}

int chad_rev(int t)
{
  int g = tm_ctx(t);
  if (g < 0)
    return g;
  int pg = tr_ctx(CHAD_PREV, g);
  if (pg < 0)
    return pg;
  return chad_rev_in(t, pg);
}
