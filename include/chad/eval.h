/* CHAD-C reference evaluator and value utilities (src/eval/).
 *
 * eval_ref evaluates every term kind of kernel.h, source and target, on the
 * values of value.h. It is written for obvious correctness, not speed, but
 * it keeps the costs the CHAD rules promise (rules card §6): zero is O(1),
 * onehot is O(1), plus of sparse array cotangents and of copower bags is
 * O(1), and indexing a sparse cotangent with many entries goes through a
 * per-heap sorted cache, so reverse mode of build/index stays near linear.
 *
 * Representation of linear values (see spec/evaluator.md):
 *  - V_ZERO is the zero of EVERY linear type (Real, Unit, pairs, arrays,
 *    powers, copowers); fst/snd/index/apply/cp_fold of V_ZERO give V_ZERO.
 *  - An array tangent/cotangent is V_ARRAY (dense), V_ZERO (no length) or
 *    V_SPARSE (a length-free sum of (index, value) entries).
 *  - A copower value is V_BAG (entries with key = primal, v = linear) or
 *    V_ZERO.
 *  - V_SPARSE and V_BAG entry lists may contain SPLICE entries
 *    (index == ENTRY_SPLICE): such an entry stands for all entries of its
 *    `v`, itself a V_SPARSE / V_BAG. This is what makes plus O(1). Read
 *    entry lists with entry_iter (below), never by following `next` alone.
 *  - A power (tau -> L) or linear-function value is V_CLOSURE. The sum of two
 *    closures is a V_CLOSURE with term == CLO_PLUS whose env holds the two
 *    summands (index 0 and 1); eval_apply applies both and adds.
 */
#ifndef CHAD_EVAL_H
#define CHAD_EVAL_H

#include <stdio.h>

#include "chad/value.h"

/* ---- runtime errors ----------------------------------------------------- */
typedef struct eval_error {
  int exit_code;   /* CHAD_EXIT_OK, or CHAD_EXIT_RUNTIME after a failure     */
  int term;        /* the term whose evaluation failed, or -1               */
  char msg[256];   /* what went wrong, e.g. "index 5 out of bounds (length 3)" */
  int depth_exceeded; /* 1 when the failure is the nesting limit          */
} eval_error;

void eval_error_clear(eval_error *err);

/* ---- memory kept between evaluations -------------------------------------
 * Freed heaps' chunks are kept for the next heap, up to 1 GiB in all
 * (none under AddressSanitizer, which must see every chunk freed), and so
 * is the last application memo table (at most 512 MiB; also under ASan: its
 * old entries are never read): heap_pool_bytes is what is kept now, and
 * heap_pool_release gives all of it back to the system (src/eval/heap.c,
 * memo.c). */
size_t heap_pool_bytes(void);
void heap_pool_release(void);

/* Nesting limit of eval_ref/eval_apply and of the fast evaluator (tail
 * positions — let body, case branches, function bodies — do not count).
 * Past it: a runtime error. Evaluation first runs on the caller's stack with
 * the limit EVAL_MAX_DEPTH_SMALL_STACK; a term nested deeper is re-evaluated
 * on a thread whose stack has room for the whole limit (eval_stack_bytes:
 * EVAL_STACK_BYTES_PER_LEVEL a level, pages taken only as they are used),
 * up to the limit eval_max_depth() (if that thread cannot be created, the
 * small-stack error stands). The limit is EVAL_DEFAULT_MAX_DEPTH unless
 * eval_set_max_depth sets it, process-wide, from 1 to EVAL_MAX_DEPTH_CAP. */
#define EVAL_DEFAULT_MAX_DEPTH 1000000
#define EVAL_MAX_DEPTH_CAP 4000000
#define EVAL_MAX_DEPTH_SMALL_STACK 5000
/* the deepest frame chain of one level, ASan's large frames included
 * (measured: the 512 MiB stack of 10^5 levels held under ASan) */
#define EVAL_STACK_BYTES_PER_LEVEL ((size_t)5376)
int eval_max_depth(void);
/* depth outside 1..EVAL_MAX_DEPTH_CAP is taken as the nearest bound */
void eval_set_max_depth(int depth);
size_t eval_stack_bytes(void);

/* ---- evaluation ---------------------------------------------------------- */
/* Evaluates arena term `term` in environment e (index 0 = innermost). NULL on
 * a runtime error, with err filled (exit code CHAD_EXIT_RUNTIME). */
const value *eval_ref(heap *h, int term, const env *e, eval_error *err);
/* Applies a function value (V_CLOSURE of TM_LAM/TM_LLAM/CLO_PLUS, or V_ZERO
 * as the zero power / zero linear map, which returns V_ZERO) to arg. */
const value *eval_apply(heap *h, const value *fn, const value *arg, eval_error *err);

/* clo.term of a closure that is the pointwise sum of the two closures held
 * in its env (env->v and env->next->v). */
#define CLO_PLUS (-2)
/* entry.index of a splice entry (see above). */
#define ENTRY_SPLICE (-1)

/* ---- linear algebra on values ------------------------------------------- */
/* a + b at any linear type (either may be V_ZERO). Runtime errors: dense
 * arrays of different lengths; values that are not of one linear type. */
const value *v_plus(heap *h, const value *a, const value *b, eval_error *err);
/* The one-entry sparse array cotangent "v at index j" (j >= 0). */
const value *v_onehot(heap *h, int64_t j, const value *v, eval_error *err);
/* Element j of a dense, zero or sparse array (j >= 0). Dense: bounds checked.
 * Zero: V_ZERO. Sparse: the sum of the entries with index j (V_ZERO if none). */
const value *v_index(heap *h, const value *arr, int64_t j, eval_error *err);
/* A bag of one (key, v) pair. */
const value *v_bag1(heap *h, const value *key, const value *v);

/* Makes a tangent/cotangent value dense, shaped like `shape`, which is either
 * a dense value of the same (tangent) type or the PRIMAL value the tangent
 * belongs to (V_INT shapes a Unit tangent; V_INL/V_INR shape a pair tangent
 * of which only the taken side's shape is known: the other side is densified
 * as far as its own structure allows, so a V_ZERO there stays V_ZERO).
 * V_ZERO becomes zeros, V_SPARSE becomes a dense array of shape's length.
 * Runtime errors: sparse index outside [0, length), dense length mismatch,
 * a value of another shape, functions/bags (no dense form). */
const value *v_densify(heap *h, const value *v, const value *shape, eval_error *err);

/* ---- entry lists (V_SPARSE, V_BAG) --------------------------------------- */
typedef struct entry_iter {
  const entry *cur;
  const entry **stack;  /* malloc'ed; pending continuations of splices */
  size_t depth, cap;
  int oom;              /* set when the stack could not grow            */
} entry_iter;
/* v must be V_SPARSE or V_BAG (anything else iterates nothing). */
void entry_iter_init(entry_iter *it, const value *v);
/* Next non-splice entry, or NULL at the end (check it->oom then). */
const entry *entry_iter_next(entry_iter *it);
void entry_iter_done(entry_iter *it);

/* ---- tests and debugging -------------------------------------------------- */
/* Structural equality; reals are equal when |a-b| <= tol * max(1,|a|,|b|)
 * (NaN equals NaN; same-signed infinities are equal). V_ZERO equals any value
 * that is all zeros; V_SPARSE is compared by its summed entries; closures
 * only by identity (term and env pointer). Bags: equal entry lists in order.
 * Returns 1 if equal, 0 if not (-1 if memory ran out while comparing). */
int v_approx_equal(heap *h, const value *a, const value *b, double tol);
/* 1 iff v denotes zero (V_ZERO, 0.0, unit, pairs/arrays/entries of zeros). */
int v_is_zero(heap *h, const value *v);
/* "real", "int", "unit", "pair", "inl", "inr", "array", "closure", "zero",
 * "sparse array", "bag" (for error messages). */
const char *v_kind_name(const value *v);
/* Prints v in a readable form: 1.5, 3, (), (a, b), inl a, [a, b],
 * 0 (V_ZERO), sparse{2: a, 7: b}, bag{(k, v), ...}, <closure t12>. */
void v_fprint(FILE *f, const value *v);
/* Inner product of two tangent values of one type (reals multiplied, ints
 * and units contribute 0; V_ZERO and V_SPARSE understood). Arrays of
 * different lengths: NAN. Used by transpose-consistency tests. */
double v_dot(heap *h, const value *a, const value *b);

#endif
