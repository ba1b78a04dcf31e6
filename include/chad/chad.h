/* CHAD: forward and reverse mode automatic differentiation as a
 * source-to-source transformation on kernel terms (rules card §3-§6,
 * spec/chad.md).
 *
 * Term-level API (kernel style: indices >= 0, negative CHAD_E_* on failure;
 * on failure some unused nodes may remain in the arena).
 *   chad_fwd(t): t in G of type tau  ->  a term in P_fwd G of type
 *                P_fwd tau * (T G -o T tau)
 *   chad_rev(t): t in G of type tau  ->  a term in P_rev G of type
 *                P_rev tau * (C tau -o C G)
 * T G and C G are nested pairs following the snoc context:
 *   T () = Unit, T (G, a) = T G * T a   (the OUTERMOST parameter is nested
 *   deepest; the innermost, de Bruijn 0, is the outer `snd`).
 *
 * Value-level API for the command line: see the second half.
 */
#ifndef CHAD_CHAD_H
#define CHAD_CHAD_H

#include "chad/diag.h"
#include "chad/value.h"

/* translation modes for chad_ty / chad_ctx */
enum chad_mode { CHAD_PFWD = 0, CHAD_TAN = 1, CHAD_PREV = 2, CHAD_COT = 3 };

/* Clears the memo tables of the type translations. Call after ty_init(). */
void chad_init(void);

/* Type translations (rules card §3). Source types only (no -o, no copower). */
int chad_ty(int mode, int ty);
int chad_ty_pfwd(int ty);
int chad_ty_tan(int ty);
int chad_ty_prev(int ty);
int chad_ty_cot(int ty);
/* On contexts: P returns a context id, T and C return a type id. */
int chad_ctx(int mode, int g);
int chad_ctx_pfwd(int g);
int chad_ctx_tan(int g);
int chad_ctx_prev(int g);
int chad_ctx_cot(int g);

/* The transformations (forward.c, reverse.c). */
int chad_fwd(int t);
int chad_rev(int t);
/* The same, emitted into target context d, which must extend P G (the first
 * ctx_length(G) entries of d are P G, else CHAD_E_ARG): used to wrap the
 * translation in more binders without weakening. */
int chad_fwd_in(int t, int d);
int chad_rev_in(int t, int d);

/* Simplifier (simplify.c): a term of the same context and type, same value,
 * no more work; readable derivatives. */
int chad_simplify(int t);

/* Syntactic linearity (linear.c): 1 when every llam body of t is linear in
 * its variable (and every cp_fold body in its linear variable), 0 if not,
 * negative CHAD_E_* on error. */
int chad_check_linear(int t);

/* Number of nodes of the tree below t (shared nodes counted per use). */
int64_t chad_term_size(int t);

/* ======================================================================= */
/* Value level (derivs.c).  t is a term in context G (the parameters, all of */
/* first-order type) of first-order type tau. params is the environment of  */
/* primal parameter values (de Bruijn 0 = innermost = last parameter first, */
/* as in value.h). Every function returns CHAD_EXIT_OK (0) or an exit code  */
/* with d set. Values are allocated in h.                                   */
/* ======================================================================= */

/* Forward mode: tangent : T G (nested pairs as above). */
int chad_jvp_values(heap *h, int t, const env *params, const value *tangent,
                    const value **out_value, const value **out_tangent, chad_diag *d);
/* Reverse mode: cotangent : C tau. out_cot : C G (nested pairs). */
int chad_vjp_values(heap *h, int t, const env *params, const value *cotangent,
                    const value **out_value, const value **out_cot, chad_diag *d);

/* Nested T G / C G tuple <-> per-parameter values. n = ctx_length(G);
 * index i counts parameters from the OUTERMOST (i = 0) to the innermost
 * (i = n-1), i.e. in declaration order. */
const value *chad_ctx_tuple_get(const value *tuple, int n, int i);
const value *chad_ctx_tuple_make(heap *h, int n, const value *const *parts);
/* params env from values in declaration order (parts[0] outermost). */
const env *chad_params_env(heap *h, int n, const value *const *parts);

/* Flattening of first-order values by type: the Real slots, in order
 * (pairs left to right, arrays by index, a sum's active side only, Int and
 * Unit have none). `primal` gives the shape (array lengths, sum sides). */
int64_t chad_flat_count(int ty, const value *primal);
/* Writes the Real slots of a (co)tangent dv of type T ty = C ty, shaped like
 * primal (dv may contain V_ZERO and V_SPARSE). Returns slots written or -1. */
int64_t chad_flatten_tangent(heap *h, int ty, const value *primal, const value *dv,
                             double *out, int64_t cap);
/* Builds the (co)tangent of type T ty shaped like primal from slots. */
const value *chad_unflatten_tangent(heap *h, int ty, const value *primal,
                                    const double *slots, int64_t *pos);

enum chad_jac_mode { CHAD_JAC_FORWARD = 0, CHAD_JAC_REVERSE = 1 };
/* Jacobian at params: an Arr (Arr Real) value with one row per output slot
 * and one column per input slot (input slots of all parameters in
 * declaration order). Forward: one JVP per input slot (basis tangents);
 * reverse: one VJP per output slot (basis cotangents). */
int chad_jacobian_values(heap *h, int t, const env *params, int mode,
                         const value **out_value, const value **out_jac, chad_diag *d);

#endif
