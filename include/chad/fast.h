/* CHAD-C fast evaluator (src/fast/, spec/fast-evaluator.md).
 *
 * eval_fast has the shape and the results of eval_ref (include/chad/eval.h):
 * every term kind, the same values (value.h) out, the same runtime errors.
 * Inside, real arrays are unboxed (double *), and the bodies of build, map,
 * sum and lsum that are scalar arithmetic over the index, the element and
 * captured values are compiled into a register bytecode run in a tight loop,
 * in parallel with OpenMP when the loop is large enough (OMP_NUM_THREADS is
 * respected). Sums are reduced in a fixed order, so results are
 * deterministic for a fixed thread count and agree with eval_ref up to the
 * reassociation of sums. A compiled loop that meets a runtime error (bounds,
 * division by zero, ...) is abandoned and the construct is re-evaluated by
 * the generic path, which reports the error exactly as eval_ref does.
 *
 * Not thread-safe: one eval_fast at a time per process (it runs its own
 * OpenMP regions).
 */
#ifndef CHAD_FAST_H
#define CHAD_FAST_H

#include <stdint.h>

#include "chad/eval.h"
#include "chad/value.h"

/* Evaluates term in environment e (index 0 = innermost), like eval_ref. The
 * result uses only the value kinds of value.h. NULL on a runtime error, with
 * err filled (CHAD_EXIT_RUNTIME). */
const value *eval_fast(heap *h, int term, const env *e, eval_error *err);
/* Applies a function value (as eval_apply) with the fast evaluator. */
const value *eval_fast_apply(heap *h, const value *fn, const value *arg, eval_error *err);

/* ---- unboxed interface (benchmarks, the CLI's --eval fast) -------------- */
/* eval_fast_raw / eval_fast_apply_raw return values that may hold the fast
 * evaluator's private array kinds: pass them back to the fast evaluator, read
 * real arrays with fast_real_array, or convert with fast_export. */
const value *eval_fast_raw(heap *h, int term, const env *e, eval_error *err);
const value *eval_fast_apply_raw(heap *h, const value *fn, const value *arg, eval_error *err);
/* A real array value holding a copy of src[0..n) (unboxed). NULL on OOM. */
const value *fast_real_array(heap *h, int64_t n, const double *src);
/* If v is a real array (unboxed, or boxed with real elements, or a dense-backed
 * sparse cotangent), sets *n and *d (for boxed arrays a copy in h) and returns
 * 1; else 0. */
int fast_real_array_get(heap *h, const value *v, int64_t *n, const double **d);
/* The same value in the representation of value.h only. */
const value *fast_export(heap *h, const value *v, eval_error *err);

/* Tuning and statistics (tests, benchmarks). */
void fast_set_par_threshold(int64_t work);   /* default 32768 operations  */
void fast_set_loop_min(int64_t n);           /* default 16 elements: shorter
                                                loops are interpreted        */
typedef struct fast_stats {
  int64_t compiled_loops;   /* loops run as bytecode                       */
  int64_t generic_loops;    /* loops run by the generic interpreter        */
  int64_t bailouts;         /* compiled loops abandoned for the generic path */
  int64_t sparse_loops;     /* pullback loops run over their nonzero cotangents only */
} fast_stats;
void fast_stats_get(fast_stats *s);
void fast_stats_reset(void);

#endif
