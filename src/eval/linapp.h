/* Merging linear applications under `plus`.
 *
 * CHAD's forward rule for an application (spec/chad.md) makes the tangent
 * map of `f x` the sum `snd (f x) <| (dctx, 0) <+> snd (f x) <| (0, dx)`: the
 * callee's tangent map applied twice, once per part of the tangent. Nested
 * local closures then run level k+1's map twice per run of level k's: 2^N.
 * A linear map L satisfies L u + L v = L (u + v), so an evaluator that finds
 * both operands of a `plus` ending in an application of the same linear
 * closure (after the application memo, memo.c, made the two `snd (f x)` one
 * value) applies it once, to the sum.
 *
 * The operands are evaluated with a lin_app slot: an application of a linear
 * closure (TM_LLAM) in tail position is not run but recorded there, and the
 * evaluation returns LIN_DEFERRED. If the merged evaluation fails at all, the
 * `plus` is evaluated again in the reference order (operand by operand), so
 * that errors are exactly the reference's. */
#ifndef CHAD_EVAL_LINAPP_H
#define CHAD_EVAL_LINAPP_H

#include <stdlib.h>

#include "chad/kernel.h"
#include "chad/value.h"
#include "eval/internal.h"
#include "eval/memo.h"

typedef struct lin_app {
  const value *fn, *arg;
} lin_app;

static const value lin_deferred_value = {.kind = V_UNIT};
#define LIN_DEFERRED (&lin_deferred_value)

/* A `plus` in tail position whose left operand is a value a and whose right
 * operand ends in a linear application f <| v (CHAD's pullback of iter and
 * of a chain of closures: `ctx <+> previous <| ct`, one level per step):
 * the evaluation step returns PLUS_TAIL with a, f and v, and its caller
 * goes on with f v as a tail call, adding a to that result afterwards (a
 * stack of addends in host memory). So a chain of n pullbacks runs in a
 * loop, not n nested C frames. The order of evaluation (a, then f and v,
 * then the application, then the sum a + result) is the reference's, so
 * values and errors are the same. */
typedef struct plus_tail {
  const value *addend, *fn, *arg;
} plus_tail;
static const value plus_tail_value = {.kind = V_UNIT};
#define PLUS_TAIL (&plus_tail_value)

/* One evaluator's functions, for the two steps below that the reference
 * evaluator (eval.c) and the fast one (fast_eval.c) share: each passes a
 * constant table, so the calls are direct once the steps are inlined. */
typedef struct lin_ops {
  /* one evaluation step of term *tp (a tail call moves *tp on) */
  const value *(*body)(heap *h, int *tp, const env *e, eval_error *err, int depth, memo_pending *pd,
                       lin_app *defer, plus_tail *pt);
  const value *(*eval_lin)(heap *h, int t, const env *e, eval_error *err, int depth, lin_app *defer);
  const value *(*eval)(heap *h, int t, const env *e, eval_error *err, int depth);
  const value *(*apply)(heap *h, const value *fn, const value *arg, eval_error *err, int depth);
  const value *(*plus)(heap *h, const value *a, const value *b, eval_error *err);
} lin_ops;

/* A pending addend of a PLUS_TAIL and the tail calls entered before it. */
typedef struct tail_frame {
  const value *addend;
  memo_pending pd;
} tail_frame;

/* `plus a b` (term t): operands ending in one linear closure applied once,
 * to the sum; a value plus a linear application in tail position (pt not
 * NULL) returned as PLUS_TAIL. If the merged evaluation fails, the plus is
 * evaluated again in the reference order, for the reference's error. */
static inline const value *lin_plus(const lin_ops *O, heap *h, int t, const env *e, eval_error *err,
                                    int depth, plus_tail *pt) {
  lin_app da = {NULL, NULL}, db = {NULL, NULL};
  const value *a, *b, *r = NULL;
  if ((a = O->eval_lin(h, tm_a(t), e, err, depth + 1, &da)) &&
      (b = O->eval_lin(h, tm_b(t), e, err, depth + 1, &db))) {
    if (a == LIN_DEFERRED && b == LIN_DEFERRED && da.fn == db.fn) {
      const value *s = O->plus(h, da.arg, db.arg, err);
      r = s ? O->apply(h, da.fn, s, err, depth + 1) : NULL;
    } else if (pt && a != LIN_DEFERRED && b == LIN_DEFERRED) {
      pt->addend = a; /* the caller applies db and adds a */
      pt->fn = db.fn;
      pt->arg = db.arg;
      return PLUS_TAIL;
    } else {
      if (a == LIN_DEFERRED) a = O->apply(h, da.fn, da.arg, err, depth + 1);
      if (a && b == LIN_DEFERRED) b = O->apply(h, db.fn, db.arg, err, depth + 1);
      r = a && b ? O->plus(h, a, b, err) : NULL;
    }
  }
  if (r || (err && err->depth_exceeded)) return r;
  eval_error_clear(err);
  if (!(a = O->eval(h, tm_a(t), e, err, depth + 1))) return NULL;
  if (!(b = O->eval(h, tm_b(t), e, err, depth + 1))) return NULL;
  return O->plus(h, a, b, err);
}

/* Evaluates term t: evaluation steps, each PLUS_TAIL continued as a tail
 * call with its addend on a stack, the sums taken innermost first
 * (a_1 + (a_2 + (... + r))); the memo records each tail call's result. */
static inline const value *lin_eval(const lin_ops *O, heap *h, int t, const env *e, eval_error *err,
                                    int depth, lin_app *defer) {
  int cur = t;
  memo_pending pd = MEMO_PENDING_INIT;
  plus_tail pt;
  tail_frame *fr = NULL;
  size_t nfr = 0, capfr = 0;
  const value *r;
  for (;;) {
    /* an operand evaluated for a merge (defer) keeps the plain rule */
    r = O->body(h, &cur, e, err, depth, &pd, defer, defer ? NULL : &pt);
    if (r != PLUS_TAIL) break;
    if (nfr == capfr) {
      size_t nc = capfr ? 2 * capfr : 16;
      tail_frame *nf = realloc(fr, nc * sizeof *nf);
      if (!nf) {
        r = eval_oom(err);
        break;
      }
      fr = nf;
      capfr = nc;
    }
    fr[nfr].addend = pt.addend;
    fr[nfr++].pd = pd;
    pd = (memo_pending)MEMO_PENDING_INIT;
    /* pt.fn pt.arg as a tail call (as TM_APP does) */
    if ((r = memo_get(h, pt.fn, pt.arg))) break;
    memo_pending_push(&pd, pt.fn, pt.arg);
    if (!(e = env_push(h, pt.fn->u.clo.env, pt.arg))) {
      r = eval_oom(err);
      break;
    }
    cur = tm_a(pt.fn->u.clo.term);
  }
  if (!r && err && err->term < 0) err->term = cur;
  while (nfr > 0) {
    memo_pending_done(h, &pd, r);
    nfr--;
    r = r ? O->plus(h, fr[nfr].addend, r, err) : NULL;
    pd = fr[nfr].pd;
  }
  free(fr);
  memo_pending_done(h, &pd, r == LIN_DEFERRED ? NULL : r);
  return r;
}

#endif
