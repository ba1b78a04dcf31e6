/* The scalar real semantics of the primitives in doubles: values and
 * partial derivatives, shared by both double evaluators (src/primitives.c
 * and the fast evaluator's compiled loops), so that they agree by
 * construction. Formulas are chosen to stay accurate over the whole double
 * range (spec/evaluator.md, "Accuracy"): no cancellation in the tails
 * (tanh', sigmoid'), no intermediate overflow or underflow where the true
 * result is a normal double (div's d/dy), logsumexp shifted by its maximum.
 * tests/unit/test_prim_accuracy.c measures each against the certified
 * evaluator. */
#ifndef CHAD_PRIM_SCALAR_H
#define CHAD_PRIM_SCALAR_H

#include <math.h>
#include <stdint.h>
/* quad precision (GCC's libquadmath) where the compiler has it; elsewhere
 * (clang, for the fuzzers) long double, and logsumexp without the retry */
#if defined(__SIZEOF_FLOAT128__) && defined(__x86_64__) && defined(__has_include)
#if __has_include(<quadmath.h>)
#include <quadmath.h>
#define PRIM_HAVE_QUAD 1
#endif
#endif

#include "chad/primitives.h"

#define PRIM_2_SQRTPI 1.12837916709551257390   /* 2 / sqrt(pi) */
#define PRIM_LN2 0.693147180559945309417
#define PRIM_LOG2E 1.44269504088896340736

static inline double prim_sigmoid(double x) {
  if (x >= 0) return 1.0 / (1.0 + exp(-x));
  double e = exp(x);
  return e / (1.0 + e);
}

/* digamma (lgamma's derivative): the recurrence up to 100 and the
 * asymptotic series, in quad precision where it is available (near the
 * root 1.46163... the recurrence cancels; quad keeps ~100 good bits),
 * reflected for x < 0; NaN at the poles 0, -1, -2, ... */
static inline double prim_digamma(double x) {
  if (x <= 0 && x == floor(x)) return NAN;
#ifdef PRIM_HAVE_QUAD
  typedef __float128 R;
#define PRIM_LOG logq
#define PRIM_TAN tanq
#define PRIM_PI M_PIq
#else
  typedef long double R;
#define PRIM_LOG logl
#define PRIM_TAN tanl
#define PRIM_PI 3.141592653589793238462643383279502884L
#endif
  R q = x, acc = 0;
  if (q < 0) {   /* psi(x) = psi(1 - x) - pi / tan(pi x) */
    acc -= PRIM_PI / PRIM_TAN(PRIM_PI * q);
    q = 1 - q;
  }
  while (q < 100) {
    acc -= 1 / q;
    q += 1;
  }
  /* ln q - 1/(2q) - sum_k B_2k / (2k q^2k), k = 1..8 */
  R t = 1 / (q * q);
  R series = t * ((R)1 / 12 - t * ((R)1 / 120 - t * ((R)1 / 252 - t * ((R)1 / 240 - t * ((R)1 / 132 -
             t * ((R)691 / 32760 - t * ((R)1 / 12 - t * (R)3617 / 8160)))))));
  return (double)(acc + PRIM_LOG(q) - 1 / (2 * q) - series);
#undef PRIM_LOG
#undef PRIM_TAN
#undef PRIM_PI
}

/* exp(-x^2) with x^2 split exactly (hi + lo, by fma): erf' without the
 * rounding of x^2 amplified by exp. */
static inline double prim_gauss(double x) {
  double hi = x * x, lo = fma(x, x, -hi);
  if (hi > 746.0) return 0.0;   /* exp(-x^2) below the smallest subnormal */
  return exp(-hi) * (1.0 - lo);
}

static inline double prim_softplus(double x) {
  return x > 0 ? x + log1p(exp(-x)) : log1p(exp(x));
}

static inline double prim_real1(int op, double x) {
  switch (op) {
  case P_NEG: return -x;
  case P_SIN: return sin(x);
  case P_COS: return cos(x);
  case P_TAN: return tan(x);
  case P_EXP: return exp(x);
  case P_LOG: return log(x);
  case P_SQRT: return sqrt(x);
  case P_TANH: return tanh(x);
  case P_SIGMOID: return prim_sigmoid(x);
  case P_ABS: return fabs(x);
  case P_LOG1P: return log1p(x);
  case P_EXPM1: return expm1(x);
  case P_SOFTPLUS: return prim_softplus(x);
  case P_ATAN: return atan(x);
  case P_ERF: return erf(x);
  case P_ERFC: return erfc(x);
  case P_LGAMMA: return lgamma(x);     /* log |Gamma(x)|, as C */
  case P_SINH: return sinh(x);
  case P_COSH: return cosh(x);
  case P_ASINH: return asinh(x);
  case P_ACOSH: return acosh(x);
  case P_ATANH: return atanh(x);
  case P_EXP2: return exp2(x);
  case P_LOG2: return log2(x);
  default: return NAN;
  }
}

/* f'(x) for the unary real ops. */
static inline double prim_deriv1(int op, double x) {
  switch (op) {
  case P_NEG: return -1.0;
  case P_SIN: return cos(x);
  case P_COS: return -sin(x);
  case P_TAN: { double c = cos(x); return 1.0 / (c * c); }   /* sec^2, no tan^2 overflow */
  case P_EXP: return exp(x);
  case P_LOG: return 1.0 / x;                 /* inf at 0, NaN below */
  case P_SQRT: return 0.5 / sqrt(x);          /* +inf at 0, NaN for x < 0 */
  case P_TANH: {
    /* sech^2 x = 4t / (1 + t)^2 with t = exp(-2|x|): 1 - tanh^2 cancels */
    double t = exp(-2.0 * fabs(x)), u = 1.0 + t;
    return 4.0 * t / u / u;
  }
  case P_SIGMOID: {
    /* s (1 - s) = e / (1 + e)^2 with e = exp(-|x|): no cancellation */
    double e = exp(-fabs(x)), u = 1.0 + e;
    return e / u / u;
  }
  case P_ABS: return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0; /* abs'(0) = 0 */
  case P_LOG1P: return 1.0 / (1.0 + x);
  case P_EXPM1: return exp(x);
  case P_SOFTPLUS: return prim_sigmoid(x);
  case P_ATAN: {   /* 1 / (1 + x^2), as t^2 / (1 + t^2), t = 1/x, where x^2 overflows */
    if (fabs(x) < 0x1p500) return 1.0 / (1.0 + x * x);
    double t = 1.0 / x;
    return t * t / (1.0 + t * t);
  }
  case P_ERF: return PRIM_2_SQRTPI * prim_gauss(x);
  case P_ERFC: return -PRIM_2_SQRTPI * prim_gauss(x);
  case P_LGAMMA: return prim_digamma(x);
  case P_SINH: return cosh(x);
  case P_COSH: return sinh(x);
  case P_ASINH: return 1.0 / hypot(1.0, x);
  case P_ACOSH:   /* 1 / sqrt((x - 1)(x + 1)): no cancellation near 1 */
    return x > 0x1p30 ? 1.0 / x : 1.0 / sqrt((x - 1.0) * (x + 1.0));
  case P_ATANH: return 1.0 / ((1.0 - x) * (1.0 + x));
  case P_EXP2: return exp2(x) * PRIM_LN2;
  case P_LOG2: return PRIM_LOG2E / x;
  default: return NAN;
  }
}

static inline double prim_real2(int op, double x, double y) {
  switch (op) {
  case P_ADD: return x + y;
  case P_SUB: return x - y;
  case P_MUL: return x * y;
  case P_DIV: return x / y;
  case P_POW: return pow(x, y);
  case P_MAX: return x >= y ? x : y;  /* picks x at ties */
  case P_MIN: return x <= y ? x : y;  /* picks x at ties */
  case P_ATAN2: return atan2(x, y);   /* atan2 y x: the operands are (y, x) */
  case P_HYPOT: return hypot(x, y);
  default: return NAN;
  }
}

/* Partial derivatives (d/dx, d/dy) of the binary real ops. */
static inline void prim_deriv2(int op, double x, double y, double *px, double *py) {
  switch (op) {
  case P_ADD: *px = 1.0; *py = 1.0; return;
  case P_SUB: *px = 1.0; *py = -1.0; return;
  case P_MUL: *px = y; *py = x; return;
  case P_DIV: {
    *px = 1.0 / y;
    /* -x / y^2: y^2 over- or underflows for |y| outside 2^(+-500) */
    double ay = fabs(y);
    *py = ay > 0x1p-500 && ay < 0x1p500 ? -x / (y * y) : -(x / y) / y;
    return;
  }
  case P_POW:
    /* d/dx = y x^(y-1); d/dy = x^y log x for x > 0, 0 at x = 0 (the limit
     * from the right for y > 0), NaN for x < 0 (no real logarithm). */
    *px = y == 0.0 ? 0.0 : y * pow(x, y - 1.0);
    if ((*px == 0.0 || isinf(*px)) && x != 0.0 && y != 0.0) {
      /* x^(y-1) over- or underflowed: (y / x) x^y may not */
      double alt = (y / x) * pow(x, y);
      if (isfinite(alt) && alt != 0.0) *px = alt;
    }
    *py = x > 0 ? (x == 1.0 ? 0.0 : pow(x, y) * log(x)) : x == 0.0 ? 0.0 : NAN;
    return;
  case P_MAX: *px = x >= y ? 1.0 : 0.0; *py = x >= y ? 0.0 : 1.0; return;
  case P_MIN: *px = x <= y ? 1.0 : 0.0; *py = x <= y ? 0.0 : 1.0; return;
  case P_ATAN2: {   /* of atan2(a, b): (b, -a) / (a^2 + b^2), as (b/h)/h */
    double h = hypot(x, y);
    *px = y / h / h;
    *py = -x / h / h;
    return;
  }
  case P_HYPOT: {
    double h = hypot(x, y);
    *px = x / h;
    *py = y / h;
    return;
  }
  default: *px = NAN; *py = NAN; return;
  }
}

/* logsumexp = m + log1p(sum_{i != k} exp(x_i - m)), m = x_k the maximum:
 * exact for one dominant entry, no overflow for entries near 1e308, and
 * entries of -inf contribute 0. Empty or all -inf: -inf; +inf or NaN
 * dominate. */
static inline double prim_lse(const double *x, int64_t n) {
  double m = -INFINITY;
  int64_t k = -1;
  for (int64_t i = 0; i < n; i++)
    if (x[i] > m) { m = x[i]; k = i; }
  if (n == 0 || m == -INFINITY || isinf(m) || isnan(m)) {
    if (n == 0 || m == -INFINITY) return -INFINITY;
    double s = 0;
    for (int64_t i = 0; i < n; i++) s += x[i];
    return isnan(s) ? NAN : m;
  }
  double s = 0;
  for (int64_t i = 0; i < n; i++)
    if (i != k) s += exp(x[i] - m);
  double r = m + log1p(s);
#ifdef PRIM_HAVE_QUAD
  /* m and log1p(s) cancel (the result is near 0 while m is not): the sum
   * again in quad precision, where the cancellation leaves ~60 bits */
  if (fabs(r) < 0x1p-20 * fabs(m)) {
    __float128 q = 0;
    for (int64_t i = 0; i < n; i++)
      if (i != k) q += expq((__float128)x[i] - (__float128)m);
    r = (double)((__float128)m + log1pq(q));
  }
#endif
  return r;
}

/* softmax_i = exp(x_i - m) / sum_j exp(x_j - m) with m = max (accurate even
 * for large |x|); all zero when the max is -inf (empty / all -inf), NaN when
 * it is +inf or NaN. */
static inline void prim_softmax(const double *x, int64_t n, double *out) {
  double m = -INFINITY;
  for (int64_t i = 0; i < n; i++)
    if (x[i] > m || isnan(x[i])) m = isnan(m) ? m : x[i];
  if (m == -INFINITY) {
    for (int64_t i = 0; i < n; i++) out[i] = 0.0;
    return;
  }
  double s = 0;
  for (int64_t i = 0; i < n; i++) s += exp(x[i] - m);
  for (int64_t i = 0; i < n; i++) out[i] = exp(x[i] - m) / s;
}

#endif
