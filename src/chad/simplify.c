/* Simplifier for CHAD output (in the style of the CHAD paper, appendix B):
 * makes printed derivatives readable without adding work. Every node is
 * rebuilt through the kernel constructors, so types are preserved by
 * construction; every rewrite is a beta/eta-free equation of the target
 * language that holds for values:
 *
 *  - let floating:     let x = (let y = a in b) in c  ~>  let y = a in let x = b in c
 *  - a + (let y = u in b) ~> let y = u in a + b  (a small: it is copied)
 *  - let splitting:    let x = (a, b) in c  ~>  let x1 = a in let x2 = b in c[x := (x1, x2)]
 *  - let inlining:     trivial bound terms (variables, constants, zero, unit,
 *                      projections and pairs of those) always; terms used
 *                      once, unless that use is under a lambda or loop body
 *                      (work duplication) and the term is not itself a
 *                      lambda; unused lets are dropped
 *  - beta:             (llam v. b) x and (lam x. b) a become a let
 *  - projections:      fst (a, b) ~> a, snd (a, b) ~> b, fst/snd (let .. in e)
 *                      ~> let .. in fst/snd e, fst/snd 0 ~> 0
 *  - zero/plus:        0 + a ~> a, a + 0 ~> a, (0, 0) ~> 0,
 *                      (a, b) + (c, d) ~> (a + c, b + d), f 0 ~> 0 for linear
 *                      f, 0 x ~> 0, Dop(x; 0) ~> 0, DopT(x; 0) ~> 0, 0[i] ~> 0,
 *                      onehot j 0 ~> 0, cp_fold 0 ~> 0, lsum n (i. 0) ~> 0,
 *                      llam v. 0 ~> 0, lam x. 0 ~> 0 (at linear types)
 *
 * Rounds repeat until the size stops shrinking (at most SIMP_ROUNDS). On any
 * failure (capacity, depth) chad_simplify returns its input unchanged, which
 * is always a correct answer.
 *
 * The environment is persistent (cells in a global arena): a source variable
 * maps to a target level, to a term to inline (weakened on use by
 * re-simplifying it with an identity environment), or, past the end, to the
 * identity on the first n levels. */
#include <limits.h>

#include "chad/chad.h"
#include "chad/kernel.h"
#include "chad_internal.h"
#include "chad_spec.h"

#define SIMP_ROUNDS 6
#define SIMP_DEPTH 6000
#define ECELLS (1 << 20)
#define PEND_CAP (1 << 18)
#define COUNT_BUDGET 200000

enum { EC_LEVEL = 0, EC_TERM = 1, EC_IDBASE = 2 };
static int ec_kind[ECELLS], ec_val[ECELLS], ec_next[ECELLS];
static int ec_count;
static int pend_[PEND_CAP];
static int pend_top;
static int cnt_uses, cnt_under, cnt_budget;
/* Use counts of the binders of a round's input, computed in one pass
 * (memo keyed by the binder's body node, valid for the current stamp).
 * Nodes made during the round are counted on demand (count_rec). */
static int memo_uses_[CHAD_MAX_TERMS], memo_under_[CHAD_MAX_TERMS];
static unsigned memo_stamp_[CHAD_MAX_TERMS];
static unsigned cur_stamp;
#define PRE_STACK (SIMP_DEPTH + 8)
static int pre_uses_[PRE_STACK], pre_under_[PRE_STACK], pre_lam_[PRE_STACK];
static int pre_sp, pre_failed;

/* What the proof of the engine needs (proofs/README.md "What is proved",
 * the simplifier): every env cell points to an older one (so a lookup walks down
 * and stops), and the three stacks stay in bounds. Nothing here is about
 * meaning: the result's context and type are checked by chad_simplify. */
/*@ predicate ec_ok = 0 <= ec_count <= ECELLS &&
      \forall integer i; 0 <= i < ec_count ==> ec_next[i] < i;
    predicate simp_ok = ec_ok && 0 <= pend_top <= PEND_CAP && 0 <= pre_sp <= PRE_STACK;
    // a cell argument: none (negative) or an existing cell
    predicate cell_arg(integer e) = e < ec_count;
*/
/* everything the engine writes: the kernel's tables (appends only, through
 * the proved constructors), its own state, and build.c's size stack */
#define SIMP_STATE CH_TMS_LOCS, CH_TYS_LOCS, CH_CTXS_LOCS, CH_EXT_STATE, SIMP_OWN
/* the simplifier's own state */
#define SIMP_OWN \
  ec_kind[0 .. ECELLS - 1], ec_val[0 .. ECELLS - 1], ec_next[0 .. ECELLS - 1], ec_count, \
  pend_[0 .. PEND_CAP - 1], pend_top, cnt_uses, cnt_under, cnt_budget, \
  memo_uses_[0 .. CHAD_MAX_TERMS - 1], memo_under_[0 .. CHAD_MAX_TERMS - 1], \
  memo_stamp_[0 .. CHAD_MAX_TERMS - 1], cur_stamp, \
  pre_uses_[0 .. PRE_STACK - 1], pre_under_[0 .. PRE_STACK - 1], \
  pre_lam_[0 .. PRE_STACK - 1], pre_sp, pre_failed
/* a simplifier function keeps the kernel's invariant and its own, appends
 * only, and keeps every existing cell */
#define SIMP_KEEP ensures kernel_inv && simp_ok; ensures \old(ec_count) <= ec_count; \
  ensures SIMP_GROWS
#define SIMP_GROWS \old(tm_count) <= tm_count && \old(ty_count) <= ty_count && \
  \old(ctx_count) <= ctx_count
/* SIMP_STATE in a loop's assigns: the tables above their counts at Pre */
#define SIMP_LOOP_STATE CH_TMS_FROM(\at(tm_count, Pre)), CH_TYS_FROM(\at(ty_count, Pre)), \
  CH_CTXS_FROM(\at(ctx_count, Pre)), CH_EXT_STATE, SIMP_OWN

/*@ requires ec_ok && next < ec_count; terminates \true;
    assigns ec_kind[ec_count], ec_val[ec_count], ec_next[ec_count], ec_count;
    ensures ec_ok && \old(ec_count) <= ec_count;
    ensures \result == CHAD_E_CAPACITY || (\result == \old(ec_count) &&
      ec_count == \result + 1 && ec_kind[\result] == kind && ec_val[\result] == val);
*/
static int ec_new(int kind, int val, int next)
{
  if (ec_count >= ECELLS)
    return CHAD_E_CAPACITY;
  ec_kind[ec_count] = kind;
  ec_val[ec_count] = val;
  ec_next[ec_count] = next;
  return ec_count++;
}

/* returns the cell describing var k (an EC_LEVEL/EC_TERM cell, or an IDBASE
 * cell with *lvl set), or a negative code */
/*@ requires ec_ok && cell_arg(e) && \valid(lvl); terminates \true;
    assigns *lvl;
    ensures \result == CHAD_E_UNBOUND || 0 <= \result < ec_count;
*/
static int ec_lookup(int e, int k, int *lvl)
{
  if (k < 0)
    return CHAD_E_UNBOUND;
  /*@ loop invariant e < ec_count && k >= 0;
      loop assigns e, k, *lvl;
      loop variant e; */
  while (e >= 0) {
    if (ec_kind[e] == EC_IDBASE) {
      if (k >= ec_val[e])
        return CHAD_E_UNBOUND;
      *lvl = ec_val[e] - 1 - k;
      return e;
    }
    if (k == 0)
      return e;
    k--;
    e = ec_next[e];
  }
  return CHAD_E_UNBOUND;
}

/*@ requires kernel_inv; terminates \true; assigns \nothing; */
static int is_zero(int t) { return t >= 0 && tm_kind(t) == TM_ZERO; }

/*@ requires kernel_inv && depth >= 0; terminates \true;
    decreases 5 - depth; assigns \nothing; */
static int trivial(int t, int depth)
{
  if (t < 0 || depth > 4)
    return 0;
  switch (tm_kind(t)) {
  case TM_VAR: case TM_RCONST: case TM_ICONST: case TM_UNIT: case TM_ZERO:
    return 1;
  case TM_FST: case TM_SND:
    return trivial(tm_a(t), depth + 1);
  case TM_PAIR:
    return trivial(tm_a(t), depth + 1) && trivial(tm_b(t), depth + 1);
  default:
    return 0;
  }
}

/*@ requires kernel_inv; terminates \true; assigns \nothing; */
static int is_value(int t)
{
  int k = tm_kind(t);
  return k == TM_LAM || k == TM_LLAM;
}

/* ---- use counts -------------------------------------------------------- */
/* binders a child adds, and whether it is a lambda or loop body */
/*@ requires \valid(loop); terminates \true; assigns *loop;
    ensures 0 <= \result <= 2 && 0 <= *loop <= 1; */
static int child_binders(int kind, int which, int *loop)
{
  *loop = 0;
  switch (kind) {
  case TM_LET: return which == 1;
  case TM_LAM: case TM_LLAM: *loop = which == 0; return which == 0;
  case TM_CASE: return which >= 1;
  case TM_ITER: case TM_LOOP: case TM_BUILD: case TM_LSUM: *loop = which == 1; return which == 1;
  case TM_MAP: *loop = which == 0; return which == 0;
  case TM_CP_FOLD: *loop = which == 1; return which == 1 ? 2 : 0;
  default: return 0;
  }
}

/*@ terminates \true; assigns \nothing; */
static int leafy(int k)
{
  return k == TM_VAR || k == TM_ICONST || k == TM_RCONST || k == TM_UNIT || k == TM_ZERO;
}

static void count_rec(int t, int k, int under, int depth);

/* child `which` of a node of kind `kind` (skipped when absent) */
/* counts saturate at 2: callers only tell 0, 1 and more apart */
/*@ requires kernel_inv && depth >= 0 && 0 <= k <= 2 * depth; terminates \true;
    decreases SIMP_DEPTH + 1 - depth;
    assigns cnt_uses, cnt_under, cnt_budget; */
static void count_child(int kind, int which, int child, int k, int under, int depth)
{
  if (child < 0)
    return;
  if (depth > SIMP_DEPTH) {
    cnt_uses = 2;
    cnt_under = 1;
    return;
  }
  int loop;
  int nb = child_binders(kind, which, &loop);
  count_rec(child, k + nb, under | loop, depth + 1);
}

/*@ requires kernel_inv && depth >= 0 && 0 <= k <= 2 * depth; terminates \true;
    decreases SIMP_DEPTH + 1 - depth;
    assigns cnt_uses, cnt_under, cnt_budget; */
static void count_rec(int t, int k, int under, int depth)
{
  if (cnt_budget <= 0 || depth > SIMP_DEPTH) {
    cnt_uses = 2;
    cnt_under = 1;
    return;
  }
  cnt_budget--;
  int kind = tm_kind(t);
  if (kind == TM_VAR) {
    if (tm_aux(t) == k) {
      if (cnt_uses < 2)
        cnt_uses++;
      cnt_under |= under;
    }
    return;
  }
  if (leafy(kind))
    return;
  /* children unrolled: no loop around the recursive calls */
  count_child(kind, 0, tm_a(t), k, under, depth + 1);
  if (cnt_uses >= 2 && cnt_under)
    return;
  count_child(kind, 1, tm_b(t), k, under, depth + 1);
  if (cnt_uses >= 2 && cnt_under)
    return;
  count_child(kind, 2, tm_c(t), k, under, depth + 1);
}

static void precount(int t, int lamdepth, int depth);

/* precount and precount_child: the count stack back where it was */
#define PRECOUNT_SPEC \
    requires kernel_inv && 0 <= pre_sp <= PRE_STACK && depth >= 0 && 0 <= lamdepth <= depth; \
    terminates \true; \
    decreases SIMP_DEPTH + 1 - depth; \
    assigns pre_uses_[0 .. PRE_STACK - 1], pre_under_[0 .. PRE_STACK - 1], \
      pre_lam_[0 .. PRE_STACK - 1], pre_sp, pre_failed, \
      memo_uses_[0 .. CHAD_MAX_TERMS - 1], memo_under_[0 .. CHAD_MAX_TERMS - 1], \
      memo_stamp_[0 .. CHAD_MAX_TERMS - 1]; \
    ensures pre_sp == \old(pre_sp)

/*@ requires 0 <= pre_sp <= PRE_STACK; terminates \true;
    assigns pre_uses_[pre_sp], pre_under_[pre_sp], pre_lam_[pre_sp], pre_sp;
    ensures 0 <= pre_sp <= PRE_STACK;
    ensures on && \old(pre_sp) < PRE_STACK ==> pre_sp == \old(pre_sp) + 1;
    ensures !(on && \old(pre_sp) < PRE_STACK) ==> pre_sp == \old(pre_sp); */
static void pre_push(int lam, int on)
{
  if (!on || pre_sp >= PRE_STACK)
    return;
  pre_uses_[pre_sp] = 0;
  pre_under_[pre_sp] = 0;
  pre_lam_[pre_sp] = lam;
  pre_sp++;
}

/* child `which` of a node of kind `kind`: push its binders, count, record
 * the counts of a let / lambda binder, pop */
/*@ PRECOUNT_SPEC; */
static void precount_child(int kind, int which, int child, int lamdepth, int depth)
{
  if (child < 0 || pre_failed)
    return;
  if (depth > SIMP_DEPTH) {
    pre_failed = 1;
    return;
  }
  int loop;
  int nb = child_binders(kind, which, &loop);
  if (pre_sp + nb > PRE_STACK) {
    pre_failed = 1;
    return;
  }
  pre_push(lamdepth + loop, nb >= 1);     /* nb <= 2 binders */
  pre_push(lamdepth + loop, nb >= 2);
  precount(child, lamdepth + loop, depth + 1);
  if (nb == 1 && (kind == TM_LET || kind == TM_LAM || kind == TM_LLAM) && !pre_failed &&
      child < CHAD_MAX_TERMS) {
    memo_uses_[child] = pre_uses_[pre_sp - 1];
    memo_under_[child] = pre_under_[pre_sp - 1];
    memo_stamp_[child] = cur_stamp;
  }
  pre_sp -= nb;
}


/*@ PRECOUNT_SPEC; */
static void precount(int t, int lamdepth, int depth)
{
  if (depth > SIMP_DEPTH || pre_failed) {
    pre_failed = 1;
    return;
  }
  int kind = tm_kind(t);
  if (kind == TM_VAR) {
    int64_t k = tm_aux(t);
    if (0 <= k && k < pre_sp) {
      int i = pre_sp - 1 - (int)k;
      if (pre_uses_[i] < 2)
        pre_uses_[i]++;
      if (lamdepth > pre_lam_[i])
        pre_under_[i] = 1;
    }
    return;
  }
  if (leafy(kind))
    return;
  precount_child(kind, 0, tm_a(t), lamdepth, depth + 1);
  precount_child(kind, 1, tm_b(t), lamdepth, depth + 1);
  precount_child(kind, 2, tm_c(t), lamdepth, depth + 1);
}

/* uses of var 0 of `body`; *under set when a use sits in a lambda/loop body */
/*@ requires kernel_inv && \valid(under); terminates \true;
    assigns *under, cnt_uses, cnt_under, cnt_budget; */
static int count_uses(int body, int *under)
{
  if (body >= 0 && body < CHAD_MAX_TERMS && memo_stamp_[body] == cur_stamp) {
    *under = memo_under_[body];
    return memo_uses_[body];
  }
  cnt_uses = 0;
  cnt_under = 0;
  cnt_budget = COUNT_BUDGET;
  count_rec(body, 0, 0, 0);
  *under = cnt_under;
  return cnt_uses;
}

/* ---- smart constructors ------------------------------------------------- */
/*@ requires kernel_inv; terminates \true; assigns CH_TMS_LOCS, CH_TYS_LOCS;
    ensures kernel_inv && SIMP_GROWS; */
static int zero_like(int d, int ty) { return ty_is_linear(ty) ? b_zero(d, ty) : -1; }

/*@ requires kernel_inv && depth >= 0; terminates \true;
    decreases SIMP_DEPTH + 1 - depth;
    assigns CH_TMS_LOCS, CH_TYS_LOCS;
    ensures kernel_inv && SIMP_GROWS; */
static int s_proj(int kind, int p, int depth)
{
  if (p < 0)
    return p;
  if (depth > SIMP_DEPTH)
    return kind == TM_FST ? b_fst(p) : b_snd(p);
  int pk = tm_kind(p);
  if (pk == TM_PAIR)
    return kind == TM_FST ? tm_a(p) : tm_b(p);
  if (pk == TM_ZERO) {
    int ty = tm_type(p);
    return b_zero(tm_ctx(p), kind == TM_FST ? ty_left(ty) : ty_right(ty));
  }
  if (pk == TM_LET) {
    int inner = s_proj(kind, tm_b(p), depth + 1);
    return b_let(tm_a(p), inner);
  }
  return kind == TM_FST ? b_fst(p) : b_snd(p);
}

/*@ requires kernel_inv; terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS;
    ensures kernel_inv && SIMP_GROWS; */
static int s_pair(int a, int b)
{
  if (is_zero(a) && is_zero(b)) {
    int t = b_pair(a, b);
    if (t < 0)
      return t;
    int z = zero_like(tm_ctx(a), tm_type(t));
    return z >= 0 ? z : t;
  }
  return b_pair(a, b);
}

/*@ requires kernel_inv && depth >= 0; terminates \true;
    decreases SIMP_DEPTH + 1 - depth;
    assigns CH_TMS_LOCS, CH_TYS_LOCS;
    ensures kernel_inv && SIMP_GROWS; */
static int s_plus(int a, int b, int depth)
{
  if (is_zero(a))
    return b;
  if (is_zero(b))
    return a;
  if (tm_kind(a) == TM_PAIR && tm_kind(b) == TM_PAIR && depth <= SIMP_DEPTH) {
    int l = s_plus(tm_a(a), tm_a(b), depth + 1);            /* componentwise */
    return s_pair(l, s_plus(tm_b(a), tm_b(b), depth + 1));
  }
  return b_plus(a, b);
}

/* ---- the simplifier ---------------------------------------------------- */
static int simp(int t, int d, int e, int depth);

/*@ requires kernel_inv && simp_ok && depth >= 0; terminates \true;
    decreases SIMP_DEPTH + 1 - depth;
    assigns SIMP_STATE;
    SIMP_KEEP; */
static int weaken(int u, int d, int depth)
{
  if (depth > SIMP_DEPTH)
    return CHAD_E_DEPTH;
  int cu = tm_ctx(u);
  if (cu == d)
    return u;
  int base = ec_new(EC_IDBASE, ctx_length(cu), -1);
  if (base < 0)
    return base;
  return simp(u, d, base, depth + 1);
}

/* decides how a simplified term u (in d) bound to a variable with `uses`
 * uses is made available: returns an env cell (TERM to inline, or LEVEL after
 * pushing a pending let), and the context after it in *dout */
/*@ requires kernel_inv && simp_ok && cell_arg(e) && \valid(dout); terminates \true;
    assigns SIMP_STATE, *dout;
    SIMP_KEEP;
    ensures \result < 0 || \result < ec_count; */
static int bind_simplified(int u, int d, int e, int uses, int under, int *dout)
{
  if (u < 0)
    return u;
  if (uses == 0 || trivial(u, 0) || (uses == 1 && (!under || is_value(u)))) {
    *dout = d;
    return ec_new(EC_TERM, u, e);
  }
  if (pend_top >= PEND_CAP)
    return CHAD_E_CAPACITY;
  pend_[pend_top++] = u;
  int lvl = b_lvl(d);
  *dout = b_ext(d, tm_type(u));
  if (*dout < 0)
    return *dout;
  return ec_new(EC_LEVEL, lvl, e);
}

/* The value of source term B (env eb, target ctx d) as a term usable in
 * *dout, after pushing pending lets; `uses`/`under` describe its variable. */
/*@ requires kernel_inv && simp_ok && depth >= 0 && cell_arg(eb) && \valid(dout); terminates \true;
    decreases SIMP_DEPTH + 1 - depth;
    assigns SIMP_STATE, *dout;
    SIMP_KEEP; */
static int bind(int B, int eb, int d, int uses, int under, int *dout, int depth)
{
  if (depth > SIMP_DEPTH)
    return CHAD_E_DEPTH;
  int k = tm_kind(B);
  if (k == TM_LET) {                     /* float */
    int d1;
    int in_under;
    int in_uses = count_uses(tm_b(B), &in_under);
    int sa = simp(tm_a(B), d, eb, depth + 1);
    int cell = bind_simplified(sa, d, eb, in_uses, in_under, &d1);
    if (cell < 0)
      return cell;
    return bind(tm_b(B), cell, d1, uses, under, dout, depth + 1);
  }
  if (k == TM_PAIR && uses > 0) {        /* split */
    int d1, d2;
    int pa = bind(tm_a(B), eb, d, 2, 1, &d1, depth + 1);
    if (pa < 0)
      return pa;
    int pb = bind(tm_b(B), eb, d1, 2, 1, &d2, depth + 1);
    if (pb < 0)
      return pb;
    int wa = weaken(pa, d2, depth + 1);
    *dout = d2;
    return s_pair(wa, pb);
  }
  int u = simp(B, d, eb, depth + 1);
  if (u < 0)
    return u;
  int cell = bind_simplified(u, d, eb, uses, under, dout);
  if (cell < 0)
    return cell;
  if (ec_kind[cell] == EC_TERM)
    return u;
  return b_var(*dout, ec_val[cell]);
}

/* wraps body with the pending lets above mark */
/*@ requires kernel_inv && simp_ok && 0 <= mark <= PEND_CAP; terminates \true;
    assigns CH_TMS_LOCS, CH_TYS_LOCS, pend_top;
    ensures kernel_inv && simp_ok && SIMP_GROWS; */
static int wrap(int body, int mark)
{
  /*@ loop invariant kernel_inv && 0 <= pend_top <= PEND_CAP;
      loop invariant \at(tm_count, Pre) <= tm_count && \at(ty_count, Pre) <= ty_count;
      loop assigns body, pend_top, CH_TMS_FROM(\at(tm_count, Pre)), CH_TYS_FROM(\at(ty_count, Pre));
      loop variant pend_top; */
  while (pend_top > mark && body >= 0)
    body = b_let(pend_[--pend_top], body);
  pend_top = mark;
  return body;
}

/* let-like: bound source term B (env eb) for the body C (source, env ec
 * extended by the bound variable), counts from C */
/*@ requires kernel_inv && simp_ok && depth >= 0 && cell_arg(eb) && cell_arg(ec); terminates \true;
    decreases SIMP_DEPTH + 1 - depth;
    assigns SIMP_STATE;
    SIMP_KEEP; */
static int simp_let(int B, int eb, int C, int ec, int d, int depth)
{
  if (depth > SIMP_DEPTH)
    return CHAD_E_DEPTH;
  int mark = pend_top, d1;
  int under, uses = count_uses(C, &under);
  int u = bind(B, eb, d, uses, under, &d1, depth + 1);
  if (u < 0) {
    pend_top = mark;
    return u;
  }
  int cell;
  int64_t ux = tm_aux(u);
  int l1 = b_lvl(d1);
  if (tm_kind(u) == TM_VAR && tm_ctx(u) == d1 && 0 <= ux && ux < l1)
    cell = ec_new(EC_LEVEL, l1 - 1 - (int)ux, ec);
  else
    cell = ec_new(EC_TERM, u, ec);
  int body = cell < 0 ? cell : simp(C, d1, cell, depth + 1);
  return wrap(body, mark);
}

/* beta with an already simplified argument x (in d) and a simplified
 * lambda f (in d): body of f under [var 0 := x] */
/*@ requires kernel_inv && simp_ok && depth >= 0; terminates \true;
    decreases SIMP_DEPTH + 1 - depth;
    assigns SIMP_STATE;
    SIMP_KEEP; */
static int beta(int f, int x, int d, int depth)
{
  if (depth > SIMP_DEPTH)
    return CHAD_E_DEPTH;
  int under, uses = count_uses(tm_a(f), &under);
  int base = ec_new(EC_IDBASE, ctx_length(d), -1);
  if (base < 0)
    return base;
  int mark = pend_top, d1;
  int cell = bind_simplified(x, d, base, uses, under, &d1);
  if (cell < 0)
    return cell;
  return wrap(simp(tm_a(f), d1, cell, depth + 1), mark);
}

/* a case branch: body under one binder of type bty */
/*@ requires kernel_inv && simp_ok && depth >= 0 && cell_arg(e); terminates \true;
    decreases SIMP_DEPTH + 1 - depth;
    assigns SIMP_STATE;
    SIMP_KEEP; */
static int simp_branch(int body, int bty, int d, int e, int depth)
{
  if (depth > SIMP_DEPTH)
    return CHAD_E_DEPTH;
  int lvl = b_lvl(d), d1 = b_ext(d, bty);
  int cell = ec_new(EC_LEVEL, lvl, e);
  if (cell < 0)
    return cell;
  return simp(body, d1, cell, depth + 1);
}

/* a + (let y = u in b) ~> let y = u in a + b (a weakened; only when a is
 * small, so copying it stays cheap), and symmetrically */
#define FLOAT_MAX 64

/* 1 when the tree below t has at most FLOAT_MAX nodes (stops early) */
/*@ requires kernel_inv; terminates \true; assigns \nothing; */
static int small_term(int t)
{
  int stack[FLOAT_MAX + 4];
  int sp = 0, n = 0;
  stack[sp++] = t;
  /*@ loop invariant 0 <= sp <= FLOAT_MAX + 3 && 0 <= n <= FLOAT_MAX;
      loop assigns sp, n, stack[0 .. FLOAT_MAX + 3];
      loop variant FLOAT_MAX - n; */
  while (sp > 0) {
    int u = stack[--sp];
    if (++n > FLOAT_MAX)
      return 0;
    if (leafy(tm_kind(u)))
      continue;
    int ch[3] = {tm_a(u), tm_b(u), tm_c(u)};
    /*@ loop invariant 0 <= i <= 3 && 0 <= sp <= FLOAT_MAX + 3;
        loop assigns i, sp, stack[0 .. FLOAT_MAX + 3];
        loop variant 3 - i; */
    for (int i = 0; i < 3; i++)
      if (ch[i] >= 0) {
        if (sp >= FLOAT_MAX + 3)
          return 0;
        stack[sp++] = ch[i];
      }
  }
  return 1;
}

/*@ requires kernel_inv && simp_ok && depth >= 0; terminates \true;
    decreases SIMP_DEPTH + 1 - depth;
    assigns SIMP_STATE;
    SIMP_KEEP; */
static int plus_float(int x, int y, int depth)
{
  if (x < 0 || y < 0)
    return x < 0 ? x : y;
  if (depth > SIMP_DEPTH)
    return CHAD_E_DEPTH;
  if (tm_kind(y) == TM_LET && small_term(x)) {
    int body = tm_b(y);
    return b_let(tm_a(y), plus_float(weaken(x, tm_ctx(body), depth + 1), body, depth + 1));
  }
  if (tm_kind(x) == TM_LET && small_term(y)) {
    int body = tm_b(x);
    return b_let(tm_a(x), plus_float(body, weaken(y, tm_ctx(body), depth + 1), depth + 1));
  }
  return s_plus(x, y, depth + 1);
}

static int simp_loop(int kind, int t, int d, int e, int depth);

/*@ requires kernel_inv && simp_ok && depth >= 0 && cell_arg(e); terminates \true;
    decreases SIMP_DEPTH + 1 - depth;
    assigns SIMP_STATE;
    SIMP_KEEP; */
static int simp(int t, int d, int e, int depth)
{
  if (depth > SIMP_DEPTH)
    return CHAD_E_DEPTH;
  if (d < 0)
    return d;
  int kind = tm_kind(t);
  if (kind < 0)
    return kind;
  int a = tm_a(t), b = tm_b(t), c = tm_c(t), ty = tm_type(t);
  int dn = depth + 1;
  switch (kind) {
  case TM_VAR: {
    int lvl = 0;
    int cell = ec_lookup(e, (int)tm_aux(t), &lvl);
    if (cell < 0)
      return cell;
    if (ec_kind[cell] == EC_IDBASE)
      return b_var(d, lvl);
    if (ec_kind[cell] == EC_LEVEL)
      return b_var(d, ec_val[cell]);
    return weaken(ec_val[cell], d, dn);
  }
  case TM_UNIT: return b_unit(d);
  case TM_RCONST: return tm_rconst(d, tm_rval(t));
  case TM_ICONST: return tm_iconst(d, tm_aux(t));
  case TM_ZERO: return b_zero(d, ty);
  case TM_LET:
    return simp_let(a, e, b, e, d, dn);
  case TM_LAM: case TM_LLAM: {
    int dom = ty_left(ty);
    int lvl = b_lvl(d), d1 = b_ext(d, dom);
    int cell = ec_new(EC_LEVEL, lvl, e);
    if (cell < 0)
      return cell;
    int body = simp(a, d1, cell, dn);
    if (is_zero(body) && ty_is_linear(ty))
      return b_zero(d, ty);
    return kind == TM_LAM ? b_lam(dom, body) : b_llam(dom, body);
  }
  case TM_APP: case TM_LAPP: {
    int f = simp(a, d, e, dn);
    int x = simp(b, d, e, dn);
    if (f < 0 || x < 0)
      return f < 0 ? f : x;
    if (kind == TM_LAPP && (is_zero(f) || is_zero(x)))
      return b_zero(d, ty);
    if (kind == TM_APP && is_zero(f))
      return b_zero(d, ty);
    if (tm_kind(f) == (kind == TM_APP ? TM_LAM : TM_LLAM))
      return beta(f, x, d, dn);
    return kind == TM_APP ? b_app(f, x) : b_lapp(f, x);
  }
  case TM_PAIR: {
    int x = simp(a, d, e, dn);
    return s_pair(x, simp(b, d, e, dn));
  }
  case TM_FST: case TM_SND:
    return s_proj(kind, simp(a, d, e, dn), dn);
  case TM_PLUS: {
    int x = simp(a, d, e, dn);
    return plus_float(x, simp(b, d, e, dn), dn);
  }
  case TM_INL: return b_inl(simp(a, d, e, dn), ty_right(ty));
  case TM_INR: return b_inr(ty_left(ty), simp(a, d, e, dn));
  case TM_OP: return b_op((int)tm_aux(t), simp(a, d, e, dn));
  case TM_LENGTH: return b_length(simp(a, d, e, dn));
  case TM_SUM: {
    int x = simp(a, d, e, dn);
    return is_zero(x) ? b_zero(d, ty) : b_sum(x);
  }
  case TM_INDEX: {
    int x = simp(a, d, e, dn);
    int i = simp(b, d, e, dn);
    if (is_zero(x) && ty_is_linear(ty))
      return i < 0 ? i : b_zero(d, ty);
    return b_index(x, i);
  }
  case TM_LOP_D: case TM_LOP_DT: {
    int x = simp(a, d, e, dn);
    int v = simp(b, d, e, dn);
    if (is_zero(v))
      return x < 0 ? x : b_zero(d, ty);
    return kind == TM_LOP_D ? b_lop_d((int)tm_aux(t), x, v) : b_lop_dt((int)tm_aux(t), x, v);
  }
  case TM_ONEHOT: {
    int j = simp(a, d, e, dn);
    int v = simp(b, d, e, dn);
    if (is_zero(v))
      return j < 0 ? j : b_zero(d, ty);
    return b_onehot(j, v);
  }
  case TM_CP_SINGLE: {
    int x = simp(a, d, e, dn);
    int v = simp(b, d, e, dn);
    if (is_zero(v))
      return x < 0 ? x : b_zero(d, ty);
    return b_cp_single(x, v);
  }
  case TM_CASE: {
    int s = simp(a, d, e, dn);
    if (s < 0)
      return s;
    int st = tm_type(s);
    int br0 = simp_branch(b, ty_left(st), d, e, dn);
    int br1 = simp_branch(c, ty_right(st), d, e, dn);
    return b_case(s, br0, br1);
  }
  case TM_ITER: case TM_LOOP: case TM_BUILD: case TM_LSUM: case TM_MAP:
    return simp_loop(kind, t, d, e, dn);
  case TM_CP_FOLD: {
    int bag = simp(a, d, e, dn);
    if (bag < 0)
      return bag;
    if (is_zero(bag))
      return b_zero(d, ty);
    int bt = tm_type(bag);
    int l1 = b_lvl(d), d1 = b_ext(d, ty_left(bt));
    int l2 = b_lvl(d1), d2 = b_ext(d1, ty_right(bt));
    int c1 = ec_new(EC_LEVEL, l1, e);
    int c2 = c1 < 0 ? c1 : ec_new(EC_LEVEL, l2, c1);
    if (c2 < 0)
      return c2;
    int body = simp(b, d2, c2, dn);
    return is_zero(body) ? b_zero(d, ty) : b_cp_fold(bag, body);
  }
  default:
    return CHAD_E_TYPE;
  }
}

/* iter, loop, build, lsum, map: one loop body with one binder; n / init / array
 * simplified in d (a function of its own: inside simp's switch, WP's
 * assigns goals on the temporaries of this case did not prove) */
/*@ requires kernel_inv && simp_ok && depth >= 0 && cell_arg(e); terminates \true;
    decreases SIMP_DEPTH + 1 - depth;
    assigns SIMP_STATE;
    SIMP_KEEP; */
static int simp_loop(int kind, int t, int d, int e, int depth)
{
  if (depth > SIMP_DEPTH)
    return CHAD_E_DEPTH;
  int a = tm_a(t), b = tm_b(t), c = tm_c(t), ty = tm_type(t);
  int dn = depth + 1;
  int src_n = a, src_body = b;
  if (kind == TM_MAP) {
    src_n = b;
    src_body = a;
  }
  int n = simp(src_n, d, e, dn);
  if (n < 0)
    return n;
  int init = 0;
  if (kind == TM_ITER || kind == TM_LOOP)
    init = simp(c, d, e, dn);
  if (init < 0)
    return init;
  int bty = TY_ID_INT;
  if (kind == TM_ITER || kind == TM_LOOP)
    bty = ty;
  else if (kind == TM_MAP)
    bty = ty_left(tm_type(n));
  int lvl = b_lvl(d), d1 = b_ext(d, bty);
  int cell = ec_new(EC_LEVEL, lvl, e);
  if (cell < 0)
    return cell;
  int body = simp(src_body, d1, cell, dn);
  if (kind == TM_ITER)
    return b_iter(n, body, init);
  if (kind == TM_LOOP)
    return b_loop(n, body, init);
  if (kind == TM_BUILD)
    return b_build(n, body);
  if (kind == TM_MAP)
    return b_map(body, n);
  if (is_zero(body))
    return b_zero(d, ty);
  return b_lsum(n, body);
}

/*@ requires kernel_inv; terminates \true;
    assigns SIMP_STATE;
    ensures kernel_inv && SIMP_GROWS; */
static int simplify_round(int t)
{
  int g = tm_ctx(t);
  if (g < 0)
    return g;
  ec_count = 0;
  pend_top = 0;
  /* a new stamp invalidates every memoised count (on wrap-around, clear) */
  if (cur_stamp == UINT_MAX) {
    /*@ loop invariant 0 <= i <= CHAD_MAX_TERMS;
        loop assigns i, memo_stamp_[0 .. CHAD_MAX_TERMS - 1];
        loop variant CHAD_MAX_TERMS - i; */
    for (int i = 0; i < CHAD_MAX_TERMS; i++)
      memo_stamp_[i] = 0;
    cur_stamp = 1;
  } else {
    cur_stamp++;
  }
  pre_sp = 0;
  pre_failed = 0;
  precount(t, 0, 0);
  int base = ec_new(EC_IDBASE, ctx_length(g), -1);
  if (base < 0)
    return base;
  return simp(t, g, base, 0);
}

/* The rewriting engine: rounds of simplify_round until the size stops
 * shrinking. Proved: it appends to the kernel's tables only through the
 * kernel constructors, keeps the kernel invariant, stays in bounds and
 * terminates. That the rewrites keep the meaning is tested (proptest
 * "simplifier preserves values"); the result's context and type are
 * checked by chad_simplify. */
/*@ requires kernel_inv;
    terminates \true;
    assigns SIMP_STATE, CHAD_SIZE_STACK;
    ensures kernel_inv;
    ensures \old(tm_count) <= tm_count;
*/
static int simplify_engine(int t)
{
  int best = t;
  int64_t best_size = chad_term_size(t);
  /*@ loop invariant 0 <= round <= SIMP_ROUNDS && kernel_inv;
      loop invariant \at(tm_count, Pre) <= tm_count && \at(ty_count, Pre) <= ty_count &&
        \at(ctx_count, Pre) <= ctx_count;
      loop assigns round, best, best_size, SIMP_LOOP_STATE, CHAD_SIZE_STACK;
      loop variant SIMP_ROUNDS - round; */
  for (int round = 0; round < SIMP_ROUNDS; round++) {
    int s = simplify_round(best);
    if (s < 0 || tm_type(s) != tm_type(t) || tm_ctx(s) != tm_ctx(t))
      break;
    int64_t sz = chad_term_size(s);
    if (sz < 0 || sz >= best_size) {
      if (sz >= 0 && sz == best_size)
        best = s;
      break;
    }
    best = s;
    best_size = sz;
  }
  return best;
}

/* The simplifier's guarantee, proved (WP): the result is a node of the
 * arena with exactly the input's context and type, and every node stays
 * well typed. It is obtained by a final check, not by proving the engine:
 * an engine result whose context or type differs (which would be a bug)
 * is replaced by the input, always a correct answer. */
/*@ requires kernel_inv;
    terminates \true;
    assigns SIMP_STATE, CHAD_SIZE_STACK;
    ensures simp_inv: kernel_inv;
    ensures simp_arg: !(0 <= t < \old(tm_count)) <==> \result == CHAD_E_ARG;
    ensures simp_type: 0 <= t < \old(tm_count) ==>
      0 <= \result < tm_count && tm_ctx_[\result] == \old(tm_ctx_[t]) &&
      tm_ty_[\result] == \old(tm_ty_[t]);
*/
int chad_simplify(int t)
{
  if (t < 0 || t >= tm_count)
    return CHAD_E_ARG;
  int g = tm_ctx(t), ty = tm_type(t);
  int s = simplify_engine(t);
  if (s < 0 || s >= tm_count || tm_ctx(s) != g || tm_type(s) != ty)
    return t;
  return s;
}
