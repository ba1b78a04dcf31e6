/* Primitive operations: the one table (src/primitives.c) that gives each
 * primitive its name, signature, primal evaluation, forward derivative Dop
 * (JVP) and transposed derivative DopT (VJP). Adding a primitive is one enum
 * value here plus one entry there.
 *
 * Every op takes ONE argument (rules card §1, op o (t,...,t)): a unary op its
 * value, a binary op the pair (x, y). The kernel knows only the signatures,
 * registered by prims_init(); op codes are the enum values below.
 */
#ifndef CHAD_PRIMITIVES_H
#define CHAD_PRIMITIVES_H

#include "chad/value.h"

enum prim {
  /* Real -> Real / Real * Real -> Real */
  P_NEG, P_ADD, P_SUB, P_MUL, P_DIV,
  P_SIN, P_COS, P_TAN, P_EXP, P_LOG, P_SQRT, P_TANH, P_SIGMOID,
  P_POW, P_MAX, P_MIN, P_ABS,
  /* Real * Real -> Unit + Unit (true = inl (), false = inr ()) */
  P_LT, P_LE, P_EQ,
  /* integers */
  P_INEG, P_IADD, P_ISUB, P_IMUL, P_IDIV, P_IMOD, P_ILT, P_ILE, P_IEQ,
  P_TOREAL,
  /* array kernels */
  P_VADD, P_VMUL,      /* Arr Real * Arr Real -> Arr Real (element-wise)   */
  P_VSCALE,            /* Real * Arr Real -> Arr Real                      */
  P_DOT,               /* Arr Real * Arr Real -> Real                      */
  P_MATVEC,            /* Arr (Arr Real) * Arr Real -> Arr Real            */
  P_LOGSUMEXP,         /* Arr Real -> Real                                 */
  /* more Real -> Real: the functions AD systems are tested on */
  P_LOG1P, P_EXPM1, P_SOFTPLUS, P_ATAN, P_ERF, P_ERFC, P_LGAMMA, P_SINH, P_COSH,
  P_ASINH, P_ACOSH, P_ATANH, P_EXP2, P_LOG2,
  /* more Real * Real -> Real */
  P_ATAN2,             /* atan2 y x, the angle of the point (x, y)         */
  P_HYPOT,
  /* Real -> Int: derivative zero; a jump at each integer (round: each
   * half-integer; sign: 0) */
  P_FLOOR, P_CEIL, P_ROUND, P_TRUNC, P_SIGN,
  P_COUNT
};

/* Registers every signature with the kernel (op_register) in enum order,
 * and the integer variant of each overloaded operator (op_alt_). Call after
 * ty_init(). Returns 0, or a negative CHAD_E_* code. */
int prims_init(void);

const char *prim_name(int op);          /* surface name: "add", "sin", ...   */
int prim_by_name(const char *name);     /* -1 when no such primitive          */
int prim_arity(int op);                 /* surface arguments: 1 or 2          */

/* Runtime, on the reference evaluator's values. Each returns NULL and sets
 * *err to a static message on a runtime error (e.g. integer division by zero,
 * length mismatch) or when the heap is exhausted. Tangent and cotangent
 * arguments may be V_ZERO (and array ones V_SPARSE). */
const value *prim_eval(heap *h, int op, const value *x, const char **err);
const value *prim_dop(heap *h, int op, const value *x, const value *dx, const char **err);
const value *prim_dopT(heap *h, int op, const value *x, const value *v, const char **err);

#endif
