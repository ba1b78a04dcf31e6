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

#include "chad/value.h"

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

#endif
