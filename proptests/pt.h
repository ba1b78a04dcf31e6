/* Property-based tests of CHAD's theorems: shared declarations.
 * See spec/properties.md for the list of properties and what each carries. */
#ifndef PT_PT_H
#define PT_PT_H

#include <stdint.h>
#include <stdio.h>
#include "chad/kernel.h"
#include "chad/value.h"
#include "chad/primitives.h"
#include "prng.h"

/* ---- the type universe the generator draws from (gen.c) -------------- */
typedef struct {
  int R, I, U, B, RR, SRR, AR, AAR, FRR, FRRR;
} pt_types;
extern pt_types T_;
void pt_types_init(void);              /* after ty_init + prims_init */

/* ---- a generated program ---------------------------------------------- */
#define PT_MAX_PARAMS 4
typedef struct {
  int nparams;
  int param_ty[PT_MAX_PARAMS];         /* outermost first: param 0 is var n-1 */
  int ctx;                             /* the parameter context G          */
  int result_ty;
  int len;                             /* the one array length L used      */
  int term;                            /* root in the arena, ctx G         */
} pt_program;

/* Generates a well-typed program of about `size` nodes (gen.c). */
int pt_gen_program(prng *r, int size, pt_program *out);
/* The generator itself, for other uses (prims property, shrinker leaves). */
int pt_gen(prng *r, int len, int g, int ty, int size);

/* ---- a tree copy of a source term, for shrinking (ptree.c) ------------ */
typedef struct ptree {
  int kind, ty, ctx;                   /* as in the arena                  */
  int ann;                             /* lam domain / inl-inr other side  */
  int64_t aux;
  double rval;
  int nkids;
  struct ptree *kid[3];
} ptree;
ptree *pt_extract(int term);
int pt_rebuild(const ptree *p, int g);   /* -> arena index, <0 on failure  */
ptree *pt_copy(const ptree *p);
void pt_free(ptree *p);
int pt_size(const ptree *p);
/* The n-th node in preorder, or NULL. */
ptree **pt_nth(ptree **root, int n);
/* Closed leaf of a type in a context (a constant or zero-like value). */
ptree *pt_strengthen(const ptree *p); /* drop the innermost binder, or NULL */
/* let x = y in b, y a variable: b with y for x (the binder dropped), or NULL */
ptree *pt_inline_var(const ptree *p);
ptree *pt_leaf(int ty, int ctx, int variant, int len); /* NULL: no such variant */

/* ---- values <-> vectors of reals (vec.c) ------------------------------ */
#define PT_MAX_DIM 256
/* Number of real coordinates of a first-order value of type ty. */
int pt_dim(int ty, const value *v);
/* Flattens a first-order primal value into out (returns count). */
int pt_flatten(int ty, const value *v, double *out);
/* Builds a primal value of type ty shaped like `shape` from xs. */
const value *pt_unflatten(heap *h, int ty, const value *shape, const double *xs, int *pos);
/* Random first-order value of ty (arrays of length len). */
const value *pt_random_value(heap *h, prng *r, int ty, int len);
/* Tangent (T ty) value from a vector, shaped like primal `shape`. */
const value *pt_tangent(heap *h, int ty, const value *shape, const double *xs, int *pos);
/* Flattens a tangent/cotangent value of T ty = C ty (first-order ty) shaped
 * like primal `shape`: V_ZERO and V_SPARSE (splice entries included) are
 * densified. -1 on a malformed value. */
int pt_flatten_lin(int ty, const value *shape, const value *lv, double *out);
void pt_print_json(FILE *f, int ty, const value *v);

/* ---- the parameter environment --------------------------------------- */
const env *pt_env(heap *h, const pt_program *p, const value **args);
/* Tangent/cotangent of the whole context: nested pairs from Unit. */
const value *pt_ctx_lin(heap *h, const pt_program *p, const value **args, const double *xs);
int pt_ctx_lin_flatten(const pt_program *p, const value **args, const value *lv, double *out);

/* ---- the interface to the other modules (adapter.c) ------------------- */
/* Evaluates term in env. NULL on a runtime error (*err set). */
/* 1: pt_eval and pt_apply use eval_fast / eval_fast_apply instead of the
 * reference evaluator. */
extern int pt_use_fast;
const value *pt_eval(heap *h, int term, const env *e, const char **err);
/* Applies a function value (closure of lam or llam) to an argument. */
const value *pt_apply(heap *h, const value *f, const value *x, const char **err);
/* Calls fn on each (index, value) entry of the V_SPARSE s, splices
 * followed, until fn returns nonzero; returns that value, 0 after the last
 * entry, -1 if s is not V_SPARSE or memory ran out. */
int pt_sparse_each(const value *s, int (*fn)(void *cx, int64_t index, const value *v), void *cx);
int pt_forward(int term);               /* F t, or <0 */
/* chad_jvp_values / chad_vjp_values: T tau resp. C G, NULL on error */
const value *pt_jvp_values(heap *h, int t, const env *e, const value *tan, const char **err);
const value *pt_vjp_values(heap *h, int t, const env *e, const value *cot, const char **err);
int pt_reverse(int term);               /* R t, or <0 */
int pt_simplify(int term);              /* simplified term, or <0 */
void pt_print_program(FILE *f, const pt_program *p, int term);
int pt_roundtrip(int term, int *ctx, char *why, size_t n); /* print, parse, elaborate */
int pt_elab_text(const char *src, int inline_calls, int *ctx, char *why, size_t n); /* the last def */

/* ---- independent type recomputation (tycheck.c) ----------------------- */
int pt_P(int ty, int reverse);          /* P tau (forward or reverse)     */
int pt_TC(int ty, int reverse);         /* T tau or C tau                 */
int pt_P_ctx(int g, int reverse);
int pt_TC_ctx(int g, int reverse);      /* nested pairs from Unit         */
/* Walks every node reachable from t and recomputes its type and its
 * children's contexts by this file's own rules. 0 if all agree; otherwise
 * -1 and a message in msg. */
int pt_retype(int t, char *msg, size_t n);
int64_t pt_tree_size(int t);            /* nodes, shared ones once per use */
int64_t pt_weighted_size(int t);        /* same, var k weighing k + 1      */

/* ---- self-check of the finite differences (fdcheck.c) ----------------- */
int pt_fd_selfcheck(void);

#endif
