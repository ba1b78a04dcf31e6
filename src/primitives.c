/* The primitive table (primitives.h): for each primitive its name, arity,
 * signature, primal evaluation, forward derivative Dop (JVP) and transposed
 * derivative DopT (VJP). spec/evaluator.md lists every formula and the
 * choices made at non-differentiable points.
 *
 * Conventions shared by all entries:
 *  - a binary op takes the pair (x, y); its tangent is the pair (dx, dy) and
 *    its DopT returns the pair of cotangents;
 *  - tangents and cotangents may be V_ZERO at any level and array ones
 *    V_SPARSE; they are made dense against the primal argument's shape;
 *  - a zero tangent contributes exactly 0 (never 0 * inf = NaN), so Dop and
 *    DopT are linear even where a partial derivative is infinite;
 *  - integer ops, comparisons and toreal have derivative zero (V_ZERO);
 *  - integer arithmetic is checked: overflow and division by zero are runtime
 *    errors (INT64_MIN / -1 is an overflow error; INT64_MIN % -1 = 0).
 */
#include "chad/primitives.h"

#include <math.h>
#include <string.h>

#include "chad/eval.h"
#include "chad/kernel.h"
#include "certified/ball.h"
#include "prim_scalar.h"

typedef enum {
  SIG_R_R,   /* Real -> Real                        */
  SIG_RR_R,  /* Real * Real -> Real                 */
  SIG_RR_B,  /* Real * Real -> Unit + Unit          */
  SIG_I_I,   /* Int -> Int                          */
  SIG_II_I,  /* Int * Int -> Int                    */
  SIG_II_B,  /* Int * Int -> Unit + Unit            */
  SIG_I_R,   /* Int -> Real                         */
  SIG_R_I,   /* Real -> Int                         */
  SIG_AA_A,  /* Arr Real * Arr Real -> Arr Real     */
  SIG_RA_A,  /* Real * Arr Real -> Arr Real         */
  SIG_AA_R,  /* Arr Real * Arr Real -> Real         */
  SIG_MA_A,  /* Arr (Arr Real) * Arr Real -> Arr Real */
  SIG_A_R    /* Arr Real -> Real                    */
} sig;

typedef struct prim_info {
  const char *name;
  int arity;
  sig s;
} prim_info;

/* Indexed by enum prim: the ONE table. */
static const prim_info PRIMS[P_COUNT] = {
    [P_NEG] = {"neg", 1, SIG_R_R},         [P_ADD] = {"add", 2, SIG_RR_R},
    [P_SUB] = {"sub", 2, SIG_RR_R},        [P_MUL] = {"mul", 2, SIG_RR_R},
    [P_DIV] = {"div", 2, SIG_RR_R},        [P_SIN] = {"sin", 1, SIG_R_R},
    [P_COS] = {"cos", 1, SIG_R_R},         [P_TAN] = {"tan", 1, SIG_R_R},
    [P_EXP] = {"exp", 1, SIG_R_R},         [P_LOG] = {"log", 1, SIG_R_R},
    [P_SQRT] = {"sqrt", 1, SIG_R_R},       [P_TANH] = {"tanh", 1, SIG_R_R},
    [P_SIGMOID] = {"sigmoid", 1, SIG_R_R}, [P_POW] = {"pow", 2, SIG_RR_R},
    [P_MAX] = {"max", 2, SIG_RR_R},        [P_MIN] = {"min", 2, SIG_RR_R},
    [P_ABS] = {"abs", 1, SIG_R_R},         [P_LT] = {"lt", 2, SIG_RR_B},
    [P_LE] = {"le", 2, SIG_RR_B},          [P_EQ] = {"eq", 2, SIG_RR_B},
    [P_INEG] = {"ineg", 1, SIG_I_I},       [P_IADD] = {"iadd", 2, SIG_II_I},
    [P_ISUB] = {"isub", 2, SIG_II_I},      [P_IMUL] = {"imul", 2, SIG_II_I},
    [P_IDIV] = {"idiv", 2, SIG_II_I},      [P_IMOD] = {"imod", 2, SIG_II_I},
    [P_ILT] = {"ilt", 2, SIG_II_B},        [P_ILE] = {"ile", 2, SIG_II_B},
    [P_IEQ] = {"ieq", 2, SIG_II_B},        [P_TOREAL] = {"toreal", 1, SIG_I_R},
    [P_VADD] = {"vadd", 2, SIG_AA_A},      [P_VMUL] = {"vmul", 2, SIG_AA_A},
    [P_VSCALE] = {"vscale", 2, SIG_RA_A},  [P_DOT] = {"dot", 2, SIG_AA_R},
    [P_MATVEC] = {"matvec", 2, SIG_MA_A},  [P_LOGSUMEXP] = {"logsumexp", 1, SIG_A_R},
    [P_LOG1P] = {"log1p", 1, SIG_R_R},     [P_EXPM1] = {"expm1", 1, SIG_R_R},
    [P_SOFTPLUS] = {"softplus", 1, SIG_R_R}, [P_ATAN] = {"atan", 1, SIG_R_R},
    [P_ERF] = {"erf", 1, SIG_R_R},         [P_ERFC] = {"erfc", 1, SIG_R_R},
    [P_LGAMMA] = {"lgamma", 1, SIG_R_R},   [P_SINH] = {"sinh", 1, SIG_R_R},
    [P_COSH] = {"cosh", 1, SIG_R_R},       [P_ASINH] = {"asinh", 1, SIG_R_R},
    [P_ACOSH] = {"acosh", 1, SIG_R_R},     [P_ATANH] = {"atanh", 1, SIG_R_R},
    [P_EXP2] = {"exp2", 1, SIG_R_R},       [P_LOG2] = {"log2", 1, SIG_R_R},
    [P_ATAN2] = {"atan2", 2, SIG_RR_R},    [P_HYPOT] = {"hypot", 2, SIG_RR_R},
    [P_FLOOR] = {"floor", 1, SIG_R_I},     [P_CEIL] = {"ceil", 1, SIG_R_I},
    [P_ROUND] = {"round", 1, SIG_R_I},     [P_TRUNC] = {"trunc", 1, SIG_R_I},
    [P_SIGN] = {"sign", 1, SIG_R_I},
};

static int valid_op(int op) { return op >= 0 && op < P_COUNT; }

const char *prim_name(int op) { return valid_op(op) ? PRIMS[op].name : NULL; }

int prim_by_name(const char *name) {
  if (!name) return -1;
  for (int i = 0; i < P_COUNT; i++)
    if (strcmp(PRIMS[i].name, name) == 0) return i;
  return -1;
}

int prim_arity(int op) { return valid_op(op) ? PRIMS[op].arity : -1; }

/* ---- registration with the kernel ------------------------------------- */

int prims_init(void) {
  op_init();
  const int R = TY_ID_REAL, I = TY_ID_INT, U = TY_ID_UNIT;
  int A = ty_arr(R);
  int RR = ty_prod(R, R), II = ty_prod(I, I), UU = ty_prod(U, U);
  int B = ty_sum(U, U), AA = ty_prod(A, A), RA = ty_prod(R, A);
  int M = ty_arr(A), MA = ty_prod(M, A);
  int all[] = {A, RR, II, UU, B, AA, RA, M, MA};
  for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
    if (all[k] < 0) return all[k];
  /* dom, cod, tdom = T dom, tcod = T cod (rules card §3; T Int = Unit,
   * T(Unit + Unit) = Unit * Unit). */
  for (int op = 0; op < P_COUNT; op++) {
    int dom, cod, tdom, tcod;
    switch (PRIMS[op].s) {
    case SIG_R_R: dom = R, cod = R, tdom = R, tcod = R; break;
    case SIG_RR_R: dom = RR, cod = R, tdom = RR, tcod = R; break;
    case SIG_RR_B: dom = RR, cod = B, tdom = RR, tcod = UU; break;
    case SIG_I_I: dom = I, cod = I, tdom = U, tcod = U; break;
    case SIG_II_I: dom = II, cod = I, tdom = UU, tcod = U; break;
    case SIG_II_B: dom = II, cod = B, tdom = UU, tcod = UU; break;
    case SIG_I_R: dom = I, cod = R, tdom = U, tcod = R; break;
    case SIG_R_I: dom = R, cod = I, tdom = R, tcod = U; break;
    case SIG_AA_A: dom = AA, cod = A, tdom = AA, tcod = A; break;
    case SIG_RA_A: dom = RA, cod = A, tdom = RA, tcod = A; break;
    case SIG_AA_R: dom = AA, cod = R, tdom = AA, tcod = R; break;
    case SIG_MA_A: dom = MA, cod = A, tdom = MA, tcod = A; break;
    case SIG_A_R: dom = A, cod = R, tdom = A, tcod = R; break;
    default: return CHAD_E_ARG;
    }
    int code = op_register(dom, cod, tdom, tcod);
    if (code < 0) return code;
    if (code != op) return CHAD_E_ARG; /* op codes must be the enum values */
  }
  static const int alts[][2] = {{P_ADD, P_IADD}, {P_SUB, P_ISUB}, {P_MUL, P_IMUL},
                                {P_DIV, P_IDIV}, {P_NEG, P_INEG}, {P_LT, P_ILT},
                                {P_LE, P_ILE},   {P_EQ, P_IEQ}};
  for (size_t k = 0; k < sizeof alts / sizeof alts[0]; k++) {
    int rc = op_set_alt(alts[k][0], alts[k][1]);
    if (rc < 0) return rc;
  }
  return 0;
}

/* ---- reading arguments ------------------------------------------------- */

static const char *E_OOM = "out of memory (heap limit reached)";
static const char *E_SHAPE = "primitive applied to a value of the wrong shape";

/* A Real argument, primal or tangent: V_REAL, or V_ZERO read as 0. */
static int get_real(const value *v, double *out) {
  if (!v) return 0;
  if (v->kind == V_REAL) { *out = v->u.r; return 1; }
  if (v->kind == V_ZERO) { *out = 0.0; return 1; }
  return 0;
}

static int get_int(const value *v, int64_t *out) {
  if (!v) return 0;
  if (v->kind == V_INT) { *out = v->u.i; return 1; }
  if (v->kind == V_ZERO) { *out = 0; return 1; }
  return 0;
}

/* Components of a pair; V_ZERO (of a pair type) has zero components. */
static int get_pair(const value *v, const value **a, const value **b) {
  if (!v) return 0;
  if (v->kind == V_PAIR) { *a = v->u.pair.a; *b = v->u.pair.b; return 1; }
  if (v->kind == V_ZERO) { *a = v; *b = v; return 1; }
  return 0;
}

/* A primal Arr Real: its length and a fresh copy of its elements. */
static double *primal_reals(heap *h, const value *v, int64_t *n, const char **err) {
  if (!v || v->kind != V_ARRAY) {
    *err = (v && v->kind == V_ZERO) ? "array primitive applied to a length-free zero array"
                                    : E_SHAPE;
    return NULL;
  }
  *n = v->u.arr.n;
  double *out = heap_alloc(h, (size_t)(*n > 0 ? *n : 1) * sizeof(double));
  if (!out) { *err = E_OOM; return NULL; }
  for (int64_t i = 0; i < *n; i++)
    if (!get_real(v->u.arr.elems[i], &out[i])) { *err = E_SHAPE; return NULL; }
  return out;
}

/* out[0..n) += the Arr Real tangent dv (V_ZERO, dense of length n, sparse). */
static int add_tangent_reals(const value *dv, int64_t n, double *out, const char **err) {
  if (!dv) { *err = E_SHAPE; return 0; }
  switch (dv->kind) {
  case V_ZERO: return 1;
  case V_ARRAY:
    if (dv->u.arr.n != n) { *err = "tangent array length differs from the argument's"; return 0; }
    for (int64_t i = 0; i < n; i++) {
      double d;
      if (!get_real(dv->u.arr.elems[i], &d)) { *err = E_SHAPE; return 0; }
      out[i] += d;
    }
    return 1;
  case V_SPARSE: {
    entry_iter it;
    entry_iter_init(&it, dv);
    const entry *e;
    int ok = 1;
    while (ok && (e = entry_iter_next(&it))) {
      double d;
      if (e->index < 0 || e->index >= n) { *err = "sparse tangent index out of bounds"; ok = 0; }
      else if (!get_real(e->v, &d)) { *err = E_SHAPE; ok = 0; }
      else out[e->index] += d;
    }
    if (ok && it.oom) { *err = E_OOM; ok = 0; }
    entry_iter_done(&it);
    return ok;
  }
  default: *err = E_SHAPE; return 0;
  }
}

/* A dense copy of an Arr Real tangent of length n. */
static double *tangent_reals(heap *h, const value *dv, int64_t n, const char **err) {
  double *out = heap_alloc(h, (size_t)(n > 0 ? n : 1) * sizeof(double));
  if (!out) { *err = E_OOM; return NULL; }
  for (int64_t i = 0; i < n; i++) out[i] = 0.0;
  return add_tangent_reals(dv, n, out, err) ? out : NULL;
}

/* A primal matrix Arr (Arr Real) whose rows all have length m. */
static double *primal_matrix(heap *h, const value *v, int64_t m, int64_t *rows,
                             const char **err) {
  if (!v || v->kind != V_ARRAY) { *err = E_SHAPE; return NULL; }
  *rows = v->u.arr.n;
  if (*rows > 0 && m > 0 && (uint64_t)*rows > SIZE_MAX / sizeof(double) / (uint64_t)m) {
    *err = E_OOM;
    return NULL;
  }
  double *out = heap_alloc(h, (size_t)(*rows * m > 0 ? *rows * m : 1) * sizeof(double));
  if (!out) { *err = E_OOM; return NULL; }
  for (int64_t i = 0; i < *rows; i++) {
    const value *row = v->u.arr.elems[i];
    if (!row || row->kind != V_ARRAY) { *err = E_SHAPE; return NULL; }
    if (row->u.arr.n != m) { *err = "matvec: a matrix row's length differs from the vector's"; return NULL; }
    for (int64_t j = 0; j < m; j++)
      if (!get_real(row->u.arr.elems[j], &out[i * m + j])) { *err = E_SHAPE; return NULL; }
  }
  return out;
}

/* A dense copy of a matrix tangent (rows x m): zero/dense/sparse outside,
 * zero/dense/sparse rows. */
static double *tangent_matrix(heap *h, const value *dv, int64_t rows, int64_t m,
                              const char **err) {
  double *out = heap_alloc(h, (size_t)(rows * m > 0 ? rows * m : 1) * sizeof(double));
  if (!out) { *err = E_OOM; return NULL; }
  for (int64_t k = 0; k < rows * m; k++) out[k] = 0.0;
  if (!dv) { *err = E_SHAPE; return NULL; }
  if (dv->kind == V_ZERO) return out;
  if (dv->kind == V_ARRAY) {
    if (dv->u.arr.n != rows) { *err = "tangent matrix has the wrong number of rows"; return NULL; }
    for (int64_t i = 0; i < rows; i++)
      if (!add_tangent_reals(dv->u.arr.elems[i], m, out + i * m, err)) return NULL;
    return out;
  }
  if (dv->kind == V_SPARSE) {
    entry_iter it;
    entry_iter_init(&it, dv);
    const entry *e;
    int ok = 1;
    while (ok && (e = entry_iter_next(&it))) {
      if (e->index < 0 || e->index >= rows) { *err = "sparse tangent index out of bounds"; ok = 0; }
      else ok = add_tangent_reals(e->v, m, out + e->index * m, err);
    }
    if (ok && it.oom) { *err = E_OOM; ok = 0; }
    entry_iter_done(&it);
    return ok ? out : NULL;
  }
  *err = E_SHAPE;
  return NULL;
}

/* ---- building results --------------------------------------------------- */

static const value *mk_real(heap *h, double r, const char **err) {
  const value *v = v_real(h, r);
  if (!v) *err = E_OOM;
  return v;
}

static const value *mk_reals(heap *h, const double *xs, int64_t n, const char **err) {
  value *a = v_array(h, n);
  if (!a) { *err = E_OOM; return NULL; }
  for (int64_t i = 0; i < n; i++) {
    const value *r = v_real(h, xs[i]);
    if (!r) { *err = E_OOM; return NULL; }
    a->u.arr.elems[i] = r;
  }
  return a;
}

static const value *mk_matrix(heap *h, const double *xs, int64_t rows, int64_t m,
                              const char **err) {
  value *a = v_array(h, rows);
  if (!a) { *err = E_OOM; return NULL; }
  for (int64_t i = 0; i < rows; i++) {
    const value *r = mk_reals(h, xs + i * m, m, err);
    if (!r) return NULL;
    a->u.arr.elems[i] = r;
  }
  return a;
}

static const value *mk_pair(heap *h, const value *a, const value *b, const char **err) {
  if (!a || !b) return NULL;
  const value *p = v_pair(h, a, b);
  if (!p) *err = E_OOM;
  return p;
}

static const value *mk_bool(heap *h, int b, const char **err) {
  const value *v = b ? v_inl(h, v_unit(h)) : v_inr(h, v_unit(h));
  if (!v) *err = E_OOM;
  return v;
}

/* p * d where a zero tangent d contributes exactly zero. */
static double lin(double p, double d) { return d == 0.0 ? 0.0 : p * d; }
/* The same for a unary op, except sqrt: sqrt is not differentiable at 0
 * (sqrt'(0) = +inf), and inf * 0 stays NaN there, so that forward and
 * reverse mode both report the non-finite derivative (sqrt (x * x) and
 * 0.0 * sqrt x at 0) instead of each dropping it on a different side. */
static double lin1(int op, double p, double d) { return op == P_SQRT ? p * d : lin(p, d); }

/* ---- scalar real functions: src/prim_scalar.h --------------------------- */
#define real1 prim_real1
#define deriv1 prim_deriv1
#define real2 prim_real2
#define deriv2 prim_deriv2

/* ---- integer ops (checked) ---------------------------------------------- */

static const value *int_op(heap *h, int op, const value *x, const char **err) {
  int64_t a = 0, b = 0, r = 0;
  if (PRIMS[op].arity == 1) {
    if (!get_int(x, &a)) { *err = E_SHAPE; return NULL; }
  } else {
    const value *xa, *xb;
    if (!get_pair(x, &xa, &xb) || !get_int(xa, &a) || !get_int(xb, &b)) {
      *err = E_SHAPE;
      return NULL;
    }
  }
  switch (op) {
  case P_INEG:
    if (a == INT64_MIN) { *err = "integer overflow in ineg"; return NULL; }
    r = -a;
    break;
  case P_IADD:
    if (__builtin_add_overflow(a, b, &r)) { *err = "integer overflow in iadd"; return NULL; }
    break;
  case P_ISUB:
    if (__builtin_sub_overflow(a, b, &r)) { *err = "integer overflow in isub"; return NULL; }
    break;
  case P_IMUL:
    if (__builtin_mul_overflow(a, b, &r)) { *err = "integer overflow in imul"; return NULL; }
    break;
  case P_IDIV:
    if (b == 0) { *err = "integer division by zero"; return NULL; }
    if (a == INT64_MIN && b == -1) { *err = "integer overflow in idiv"; return NULL; }
    r = a / b; /* truncates toward zero (C) */
    break;
  case P_IMOD:
    if (b == 0) { *err = "integer modulo by zero"; return NULL; }
    r = (b == -1) ? 0 : a % b; /* sign of the dividend (C); avoids MIN % -1 */
    break;
  case P_ILT: return mk_bool(h, a < b, err);
  case P_ILE: return mk_bool(h, a <= b, err);
  case P_IEQ: return mk_bool(h, a == b, err);
  case P_TOREAL: return mk_real(h, (double)a, err);
  default: *err = E_SHAPE; return NULL;
  }
  const value *v = v_int(h, r);
  if (!v) *err = E_OOM;
  return v;
}

/* ---- array kernels -------------------------------------------------------- */

/* The two primal arrays of an Arr Real * Arr Real argument, equal lengths. */
static int two_arrays(heap *h, const value *x, double **a, double **b, int64_t *n,
                      const char **err) {
  const value *xa, *xb;
  int64_t na, nb;
  if (!get_pair(x, &xa, &xb)) { *err = E_SHAPE; return 0; }
  if (!(*a = primal_reals(h, xa, &na, err))) return 0;
  if (!(*b = primal_reals(h, xb, &nb, err))) return 0;
  if (na != nb) { *err = "array primitive applied to arrays of different lengths"; return 0; }
  *n = na;
  return 1;
}

#define lse prim_lse
#define softmax prim_softmax

static const value *array_eval(heap *h, int op, const value *x, const char **err) {
  double *a, *b;
  int64_t n, m, rows;
  const value *xa, *xb;
  switch (op) {
  case P_VADD:
  case P_VMUL:
    if (!two_arrays(h, x, &a, &b, &n, err)) return NULL;
    for (int64_t i = 0; i < n; i++) a[i] = op == P_VADD ? a[i] + b[i] : a[i] * b[i];
    return mk_reals(h, a, n, err);
  case P_DOT: {
    if (!two_arrays(h, x, &a, &b, &n, err)) return NULL;
    double s = 0;
    for (int64_t i = 0; i < n; i++) s += a[i] * b[i];
    return mk_real(h, s, err);
  }
  case P_VSCALE: {
    double s;
    if (!get_pair(x, &xa, &xb) || !get_real(xa, &s)) { *err = E_SHAPE; return NULL; }
    if (!(a = primal_reals(h, xb, &n, err))) return NULL;
    for (int64_t i = 0; i < n; i++) a[i] *= s;
    return mk_reals(h, a, n, err);
  }
  case P_MATVEC: {
    if (!get_pair(x, &xa, &xb)) { *err = E_SHAPE; return NULL; }
    if (!(b = primal_reals(h, xb, &m, err))) return NULL;
    if (!(a = primal_matrix(h, xa, m, &rows, err))) return NULL;
    double *y = heap_alloc(h, (size_t)(rows > 0 ? rows : 1) * sizeof(double));
    if (!y) { *err = E_OOM; return NULL; }
    for (int64_t i = 0; i < rows; i++) {
      double s = 0;
      for (int64_t j = 0; j < m; j++) s += a[i * m + j] * b[j];
      y[i] = s;
    }
    return mk_reals(h, y, rows, err);
  }
  case P_LOGSUMEXP:
    if (!(a = primal_reals(h, x, &n, err))) return NULL;
    return mk_real(h, lse(a, n), err);
  default: *err = E_SHAPE; return NULL;
  }
}

/* Dop of the array kernels. */
static const value *array_dop(heap *h, int op, const value *x, const value *dx,
                              const char **err) {
  double *a, *b, *da, *db;
  int64_t n, m, rows;
  const value *xa, *xb, *dxa, *dxb;
  if (op != P_LOGSUMEXP && !get_pair(dx, &dxa, &dxb)) { *err = E_SHAPE; return NULL; }
  switch (op) {
  case P_VADD:
  case P_VMUL:
  case P_DOT: {
    if (!two_arrays(h, x, &a, &b, &n, err)) return NULL;
    if (!(da = tangent_reals(h, dxa, n, err)) || !(db = tangent_reals(h, dxb, n, err)))
      return NULL;
    if (op == P_DOT) {
      double s = 0;
      for (int64_t i = 0; i < n; i++) s += lin(b[i], da[i]) + lin(a[i], db[i]);
      return mk_real(h, s, err);
    }
    for (int64_t i = 0; i < n; i++)
      da[i] = op == P_VADD ? da[i] + db[i] : lin(b[i], da[i]) + lin(a[i], db[i]);
    return mk_reals(h, da, n, err);
  }
  case P_VSCALE: {
    double s, ds;
    if (!get_pair(x, &xa, &xb) || !get_real(xa, &s) || !get_real(dxa, &ds)) {
      *err = E_SHAPE;
      return NULL;
    }
    if (!(a = primal_reals(h, xb, &n, err)) || !(db = tangent_reals(h, dxb, n, err)))
      return NULL;
    for (int64_t i = 0; i < n; i++) db[i] = lin(a[i], ds) + lin(s, db[i]);
    return mk_reals(h, db, n, err);
  }
  case P_MATVEC: {
    if (!get_pair(x, &xa, &xb)) { *err = E_SHAPE; return NULL; }
    if (!(b = primal_reals(h, xb, &m, err)) || !(a = primal_matrix(h, xa, m, &rows, err)) ||
        !(da = tangent_matrix(h, dxa, rows, m, err)) || !(db = tangent_reals(h, dxb, m, err)))
      return NULL;
    double *y = heap_alloc(h, (size_t)(rows > 0 ? rows : 1) * sizeof(double));
    if (!y) { *err = E_OOM; return NULL; }
    for (int64_t i = 0; i < rows; i++) {
      double s = 0;
      for (int64_t j = 0; j < m; j++) s += lin(b[j], da[i * m + j]) + lin(a[i * m + j], db[j]);
      y[i] = s;
    }
    return mk_reals(h, y, rows, err);
  }
  case P_LOGSUMEXP: {
    if (!(a = primal_reals(h, x, &n, err)) || !(da = tangent_reals(h, dx, n, err)))
      return NULL;
    double *sm = heap_alloc(h, (size_t)(n > 0 ? n : 1) * sizeof(double));
    if (!sm) { *err = E_OOM; return NULL; }
    softmax(a, n, sm);
    double s = 0;
    for (int64_t i = 0; i < n; i++) s += lin(sm[i], da[i]);
    return mk_real(h, s, err);
  }
  default: *err = E_SHAPE; return NULL;
  }
}

/* DopT of the array kernels: the cotangent of the argument. */
static const value *array_dopT(heap *h, int op, const value *x, const value *v,
                               const char **err) {
  double *a, *b, *cv;
  int64_t n, m, rows;
  const value *xa, *xb;
  switch (op) {
  case P_VADD:
  case P_VMUL: {
    if (!two_arrays(h, x, &a, &b, &n, err) || !(cv = tangent_reals(h, v, n, err))) return NULL;
    if (op == P_VADD) {
      const value *c = mk_reals(h, cv, n, err);
      return mk_pair(h, c, c, err);
    }
    double *ca = heap_alloc(h, (size_t)(n > 0 ? n : 1) * sizeof(double));
    if (!ca) { *err = E_OOM; return NULL; }
    for (int64_t i = 0; i < n; i++) {
      ca[i] = lin(b[i], cv[i]);
      cv[i] = lin(a[i], cv[i]);
    }
    return mk_pair(h, mk_reals(h, ca, n, err), mk_reals(h, cv, n, err), err);
  }
  case P_DOT: {
    double w;
    if (!get_real(v, &w)) { *err = E_SHAPE; return NULL; }
    if (!two_arrays(h, x, &a, &b, &n, err)) return NULL;
    for (int64_t i = 0; i < n; i++) {
      double ai = a[i];
      a[i] = lin(b[i], w);
      b[i] = lin(ai, w);
    }
    return mk_pair(h, mk_reals(h, a, n, err), mk_reals(h, b, n, err), err);
  }
  case P_VSCALE: {
    double s, cs = 0;
    if (!get_pair(x, &xa, &xb) || !get_real(xa, &s)) { *err = E_SHAPE; return NULL; }
    if (!(a = primal_reals(h, xb, &n, err)) || !(cv = tangent_reals(h, v, n, err))) return NULL;
    for (int64_t i = 0; i < n; i++) {
      cs += lin(a[i], cv[i]);
      cv[i] = lin(s, cv[i]);
    }
    return mk_pair(h, mk_real(h, cs, err), mk_reals(h, cv, n, err), err);
  }
  case P_MATVEC: {
    if (!get_pair(x, &xa, &xb)) { *err = E_SHAPE; return NULL; }
    if (!(b = primal_reals(h, xb, &m, err)) || !(a = primal_matrix(h, xa, m, &rows, err)) ||
        !(cv = tangent_reals(h, v, rows, err)))
      return NULL;
    double *cm = heap_alloc(h, (size_t)(rows * m > 0 ? rows * m : 1) * sizeof(double));
    double *cx = heap_alloc(h, (size_t)(m > 0 ? m : 1) * sizeof(double));
    if (!cm || !cx) { *err = E_OOM; return NULL; }
    for (int64_t j = 0; j < m; j++) cx[j] = 0.0;
    for (int64_t i = 0; i < rows; i++)
      for (int64_t j = 0; j < m; j++) {
        cm[i * m + j] = lin(b[j], cv[i]);
        cx[j] += lin(a[i * m + j], cv[i]);
      }
    return mk_pair(h, mk_matrix(h, cm, rows, m, err), mk_reals(h, cx, m, err), err);
  }
  case P_LOGSUMEXP: {
    double w;
    if (!get_real(v, &w)) { *err = E_SHAPE; return NULL; }
    if (!(a = primal_reals(h, x, &n, err))) return NULL;
    double *sm = heap_alloc(h, (size_t)(n > 0 ? n : 1) * sizeof(double));
    if (!sm) { *err = E_OOM; return NULL; }
    softmax(a, n, sm);
    for (int64_t i = 0; i < n; i++) sm[i] = lin(sm[i], w);
    return mk_reals(h, sm, n, err);
  }
  default: *err = E_SHAPE; return NULL;
  }
}

/* ---- the three entry points ------------------------------------------- */

const value *prim_eval(heap *h, int op, const value *x, const char **err) {
  if (!valid_op(op)) { *err = "unknown primitive"; return NULL; }
  if (heap_is_ball(h) && PRIMS[op].s != SIG_I_I && PRIMS[op].s != SIG_II_I &&
      PRIMS[op].s != SIG_II_B)
    return ball_prim_eval(h, op, x, err);
  switch (PRIMS[op].s) {
  case SIG_R_R: {
    double a;
    if (!get_real(x, &a)) { *err = E_SHAPE; return NULL; }
    return mk_real(h, real1(op, a), err);
  }
  case SIG_RR_R:
  case SIG_RR_B: {
    const value *xa, *xb;
    double a, b;
    if (!get_pair(x, &xa, &xb) || !get_real(xa, &a) || !get_real(xb, &b)) {
      *err = E_SHAPE;
      return NULL;
    }
    if (PRIMS[op].s == SIG_RR_R) return mk_real(h, real2(op, a, b), err);
    return mk_bool(h, op == P_LT ? a < b : op == P_LE ? a <= b : a == b, err);
  }
  case SIG_I_I:
  case SIG_II_I:
  case SIG_II_B:
  case SIG_I_R: return int_op(h, op, x, err);
  case SIG_R_I: {
    double a;
    if (!get_real(x, &a)) { *err = E_SHAPE; return NULL; }
    double r = op == P_FLOOR ? floor(a) : op == P_CEIL ? ceil(a) : op == P_ROUND ? round(a)
             : op == P_TRUNC ? trunc(a) : (a > 0) - (a < 0);
    /* -2^63 <= r < 2^63: the doubles that convert to int64 */
    if (!(r >= -0x1p63 && r < 0x1p63)) {
      *err = isnan(a) ? "conversion of NaN to an integer" : "conversion to an integer out of the 64-bit range";
      return NULL;
    }
    const value *v = v_int(h, (int64_t)r);
    if (!v) *err = E_OOM;
    return v;
  }
  default: return array_eval(h, op, x, err);
  }
}

const value *prim_dop(heap *h, int op, const value *x, const value *dx, const char **err) {
  if (!valid_op(op)) { *err = "unknown primitive"; return NULL; }
  if (heap_is_ball(h)) return ball_prim_dop(h, op, x, dx, err);
  if (!dx) { *err = E_SHAPE; return NULL; }
  switch (PRIMS[op].s) {
  case SIG_R_R: {
    double a, d;
    if (!get_real(x, &a) || !get_real(dx, &d)) { *err = E_SHAPE; return NULL; }
    if (dx->kind == V_ZERO) return v_zero(h);
    return mk_real(h, lin1(op, deriv1(op, a), d), err);
  }
  case SIG_RR_R: {
    const value *xa, *xb, *da, *db;
    double a, b, u, w, pa, pb;
    if (!get_pair(x, &xa, &xb) || !get_real(xa, &a) || !get_real(xb, &b) ||
        !get_pair(dx, &da, &db) || !get_real(da, &u) || !get_real(db, &w)) {
      *err = E_SHAPE;
      return NULL;
    }
    if (dx->kind == V_ZERO) return v_zero(h);
    deriv2(op, a, b, &pa, &pb);
    return mk_real(h, lin(pa, u) + lin(pb, w), err);
  }
  case SIG_RR_B:
  case SIG_I_I:
  case SIG_II_I:
  case SIG_II_B:
  case SIG_I_R:
  case SIG_R_I: return v_zero(h); /* piecewise constant, or from or to Int */
  default: return array_dop(h, op, x, dx, err);
  }
}

const value *prim_dopT(heap *h, int op, const value *x, const value *v, const char **err) {
  if (!valid_op(op)) { *err = "unknown primitive"; return NULL; }
  if (heap_is_ball(h)) return ball_prim_dopT(h, op, x, v, err);
  if (!v) { *err = E_SHAPE; return NULL; }
  switch (PRIMS[op].s) {
  case SIG_R_R: {
    double a, w;
    if (!get_real(x, &a) || !get_real(v, &w)) { *err = E_SHAPE; return NULL; }
    if (v->kind == V_ZERO) return v_zero(h);
    return mk_real(h, lin1(op, deriv1(op, a), w), err);
  }
  case SIG_RR_R: {
    const value *xa, *xb;
    double a, b, w, pa, pb;
    if (!get_pair(x, &xa, &xb) || !get_real(xa, &a) || !get_real(xb, &b) || !get_real(v, &w)) {
      *err = E_SHAPE;
      return NULL;
    }
    if (v->kind == V_ZERO) return v_zero(h);
    deriv2(op, a, b, &pa, &pb);
    return mk_pair(h, mk_real(h, lin(pa, w), err), mk_real(h, lin(pb, w), err), err);
  }
  case SIG_RR_B:
  case SIG_I_I:
  case SIG_II_I:
  case SIG_II_B:
  case SIG_I_R:
  case SIG_R_I: return v_zero(h);
  default:
    if (v->kind == V_ZERO) return v_zero(h);
    return array_dopT(h, op, x, v, err);
  }
}
