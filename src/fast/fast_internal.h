/* Private to src/fast: the fast evaluator's extra value kinds and the
 * interface between its interpreter (fast_eval.c), its values
 * (fast_values.c) and its loop compiler (fast_compile.c).
 *
 * Extra kinds never leave src/fast through eval_fast (fast_export removes
 * them). They carry a struct value as their first member, so a value * can
 * point at them:
 *  - FV_RARR: a dense Arr Real, unboxed: u.arr.n elements in d.
 *  - FV_ACC: an Arr Real cotangent meaning the length-free sum of the entries
 *    (j, d[j]) for j < u.arr.n (a V_SPARSE made dense up to its largest
 *    index; it has no length of its own).
 *  - FV_DELAY: a build or map whose elements are computed when indexed
 *    (u.arr.n elements; element i = body in env extended by i, or by src[i]
 *    for a map). Only made after a check run has shown that evaluating
 *    every element eagerly cannot fail, so delaying changes no error.
 *  - FV_BAG: a copower !Real (x) Real (a bag) made by a compiled lsum: the
 *    entries (key[i], val[i]) for i < u.arr.n, unboxed; or, when l != NULL,
 *    the concatenation of the bags l and r (FV_BAG or V_BAG), so that plus
 *    stays O(1) as for V_BAG.
 */
#ifndef CHAD_FAST_INTERNAL_H
#define CHAD_FAST_INTERNAL_H

#include "chad/eval.h"
#include "chad/fast.h"
#include "chad/value.h"

#define FV_RARR ((value_kind)40)
#define FV_ACC ((value_kind)41)
#define FV_DELAY ((value_kind)42)
#define FV_BAG ((value_kind)43)

typedef struct fv_rarr {
  value base;       /* kind FV_RARR or FV_ACC; base.u.arr.n = length     */
  double *d;
} fv_rarr;

typedef struct fv_delay {
  value base;       /* kind FV_DELAY; base.u.arr.n = length              */
  int body;         /* term, in context (env, Int) or (env, elem)        */
  const env *env;
  const value *src; /* NULL for build; the mapped array for map          */
  /* Memo of the body's expensive real instructions (transcendental
   * functions and their derivatives), computed once for every element by the
   * check run: the k-th such instruction the compiler emits for the body
   * (k < ncalls) is replaced by a load of memo[memo_of[k]][i] when memo_of[k]
   * >= 0. ncalls == 0: no memo. */
  int ncalls;
  const int *memo_of;
  double *const *memo;
  /* real == 1: an Arr Real delayed because its compiled body is cheap and
   * cannot fail (it reads memo or unboxed arrays sequentially); term is the
   * build/map, and forced caches its materialisation (fv_force). */
  int real, term;
  const value *forced;
  /* A build of pairs consumed as CHAD's transpose of map consumes it,
   * lsum n (i. fst X[i]) and then map snd X: the compiled lsum also stores
   * every snd X[i] (an Arr Real cotangent) as a row, here, so the map
   * returns them instead of computing every element again. NULL: none. */
  const value *snd_rows;
} fv_delay;

typedef struct fv_bag {
  value base;       /* kind FV_BAG; base.u.arr.n = number of entries      */
  const double *key, *val; /* a leaf: n entries                           */
  const value *l, *r;      /* a concatenation (l != NULL): two bags       */
} fv_bag;

static inline const fv_rarr *as_rarr(const value *v) { return (const fv_rarr *)(const void *)v; }
static inline const fv_delay *as_delay(const value *v) { return (const fv_delay *)(const void *)v; }
static inline const fv_bag *as_bag(const value *v) { return (const fv_bag *)(const void *)v; }
static inline int is_private(const value *v) {
  return v->kind == FV_RARR || v->kind == FV_ACC || v->kind == FV_DELAY || v->kind == FV_BAG;
}

/* fast_values.c */
fv_rarr *fv_new_rarr(heap *h, value_kind k, int64_t n); /* d uninitialised */
void *fv_alloc_big(heap *h, size_t bytes); /* heap_alloc, huge pages when large */
void fv_hint_huge(void *p, size_t bytes);  /* a fresh block's huge pages, asked for */
/* 1 iff v is a boxed V_ARRAY whose elements are all V_REAL/V_ZERO with at
 * least one V_REAL, or n == 0 is NOT enough (type unknown). */
int fv_boxed_real(const value *v);
const value *fv_unbox(heap *h, const value *v);  /* boxed real array -> RARR */
const value *fv_plus(heap *h, const value *a, const value *b, eval_error *err);
const value *fv_index(heap *h, const value *arr, int64_t j, eval_error *err);
const value *fv_onehot(heap *h, int64_t j, const value *v, eval_error *err);
/* An unboxed bag leaf of n entries (key and val: heap arrays, kept). */
const value *fv_bag_leaf(heap *h, int64_t n, const double *key, const double *val);
/* The entries of a bag made only of unboxed leaves (and empty V_BAGs), in
 * one pair of arrays (the leaf's own when there is one; else copied into the
 * heap): 1; 0 when a boxed entry is met; -1 out of memory. */
int fv_bag_flat(heap *h, const value *v, const double **key, const double **val, int64_t *n);
const value *fv_export(heap *h, const value *v, eval_error *err);
const value *fv_import(heap *h, const value *v);
const env *fv_import_env(heap *h, const env *e);
void fv_reset_memo(void);     /* forget the sparse-export memo */

/* fast_eval.c */
const value *fe_eval(heap *h, int t, const env *e, eval_error *err, int depth);
const value *fe_apply(heap *h, const value *fn, const value *arg, eval_error *err, int depth);
/* A real delayed array materialised (FV_RARR, cached); other values as they are. */
const value *fv_force(heap *h, const value *v, eval_error *err);

/* fast_compile.c: try to run loop construct t (TM_BUILD, TM_MAP or
 * TM_LSUM) compiled; n is its evaluated length, arr the evaluated mapped
 * array (TM_MAP). Modes: FC_MAT materialises a build/map of Real elements
 * (FV_RARR), FC_SUM returns the sum of its elements (V_REAL), FC_CHECK only
 * checks that evaluating every element eagerly cannot fail, FC_LSUM returns
 * the lsum. Returns 1 with *out set; 0 when it cannot be compiled or a
 * runtime error occurred (the caller then evaluates t generically, which
 * reports the error as eval_ref does); -1 with err set when out of memory. */
enum { FC_MAT = 0, FC_SUM = 1, FC_CHECK = 2, FC_LSUM = 3, FC_MAT_NODELAY = 4, FC_FOLD = 5 };
/* FC_FOLD: t is a TM_CP_FOLD over an unboxed bag of n entries whose keys
 * and values are key and val (fc_fold); the result is laid out as lsum's. */
int fc_fold(heap *h, int t, const env *e, int64_t n, const double *key, const double *val,
            const value **out, eval_error *err);
/* FC_CHECK on success sets *out to the FV_DELAY of t (with its memo). */
int fc_loop(heap *h, int t, const env *e, int64_t n, const value *arr, int mode,
            const value **out, eval_error *err);
/* sum over an unboxed array, fixed-order blocked reduction */
double fc_sum(const double *d, int64_t n);

/* fast_vmath.c: s[k] = sin a[k], c[k] = cos a[k] for k < len (s or c may be
 * NULL), at most 2 ulp from libm (4 lanes, AVX2 + FMA, when the CPU has them;
 * libm otherwise); fv_sincos_vector: 1 iff the vector kernel runs */
void fv_sincos(double *s, double *c, const double *a, int len);
int fv_sincos_vector(void);

extern fast_stats fast_stats_;
extern int64_t fast_par_threshold_;
extern unsigned fast_epoch_; /* incremented by every public evaluation call */

#endif
