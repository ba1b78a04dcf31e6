/* Vector sin and cos of the loop compiler (src/fast/fast_compile.c).
 *
 * One kernel computes both sin and cos of 4 lanes (AVX2 + FMA): the
 * argument is reduced once to r in [-pi/4, pi/4] with x = r + k pi/2, then
 * fdlibm's polynomials for sin and cos on that interval (__kernel_sin,
 * __kernel_cos, the same coefficients) and the quadrant k mod 4 select and
 * sign the results. sin alone, cos alone and sin-and-cos are the same kernel,
 * so the three give bit-identical values: a loop body that needs sin x and
 * cos x (the gradient of anything with sin) pays one reduction and two
 * short polynomials instead of two full libm calls.
 *
 * Reduction: k = nearest(x 2/pi), r = ((x - k P1) - k P2) - k P3 with
 * P1 + P2 + P3 = pi/2 to 159 bits (FMA, each product exact). The first step
 * is exact for |k| < 2^20 (x - k P1 is a multiple of ulp(P1) below 1 in
 * magnitude); a block with an |x| > 2^19 (or not finite) goes through
 * libm's scalar sin and cos instead, exactly. The measured
 * error against libm is in tests/unit/test_fast_vmath.c (at most 2 ulp). */
#include <math.h>
#include <stdint.h>

#include "fast/fast_internal.h"

static void scalar_sincos(double *s, double *c, const double *a, int len) {
  for (int k = 0; k < len; k++) {
    if (s) s[k] = sin(a[k]);
    if (c) c[k] = cos(a[k]);
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define VT __attribute__((target("avx2,fma")))

/* pi/2 = P1 + P2 + P3 (P1: 53 bits, P2 and P3 the next 53 each) */
static const double P1 = 1.5707963267948966, P2 = 6.123233995736766e-17, P3 = -1.4973849048591698e-33;
static const double TWO_OVER_PI = 0.63661977236758138;
static const double BIG = 524288.0; /* 2^19: larger arguments go to libm */

/* fdlibm k_sin.c, k_cos.c */
static const double S1 = -1.66666666666666324348e-01, S2 = 8.33333333332248946124e-03,
                    S3 = -1.98412698298579493134e-04, S4 = 2.75573137070700676789e-06,
                    S5 = -2.50507602534068634195e-08, S6 = 1.58969099521155010221e-10;
static const double C1 = 4.16666666666666019037e-02, C2 = -1.38888888888741095749e-03,
                    C3 = 2.48015872894767294178e-05, C4 = -2.75573143513906633035e-07,
                    C5 = 2.08757232129817482790e-09, C6 = -1.13596475577881948265e-11;

/* 4 lanes: *so = sin x, *co = cos x, for |x| <= BIG */
VT static inline void sincos4(__m256d x, __m256d *so, __m256d *co) {
  /* k = nearest (x 2/pi) by the shifter 1.5 2^52: its low bits are k as an
   * integer (|k| < 2^20) */
  const __m256d shifter = _mm256_set1_pd(6755399441055744.0);
  __m256d kb = _mm256_fmadd_pd(x, _mm256_set1_pd(TWO_OVER_PI), shifter);
  __m256d k = _mm256_sub_pd(kb, shifter);
  __m256d r = _mm256_fnmadd_pd(k, _mm256_set1_pd(P1), x);
  r = _mm256_fnmadd_pd(k, _mm256_set1_pd(P2), r);
  __m256d r2 = r; /* -0 for x = -0, which the next step (P3 < 0) makes +0 */
  r = _mm256_fnmadd_pd(k, _mm256_set1_pd(P3), r);
  __m256d z = _mm256_mul_pd(r, r);
  /* sin r = r + r z (S1 + z (S2 + ... + z S6)), fdlibm's order: r + v (S1 + z w) */
  __m256d w = _mm256_fmadd_pd(z, _mm256_set1_pd(S6), _mm256_set1_pd(S5));
  w = _mm256_fmadd_pd(z, w, _mm256_set1_pd(S4));
  w = _mm256_fmadd_pd(z, w, _mm256_set1_pd(S3));
  w = _mm256_fmadd_pd(z, w, _mm256_set1_pd(S2));
  __m256d v = _mm256_mul_pd(z, r);
  __m256d s = _mm256_fmadd_pd(v, _mm256_fmadd_pd(z, w, _mm256_set1_pd(S1)), r);
  /* sin r has the sign of r (and of r2: |k P3| < 2^-90 is far below any
   * nonzero |r2|); only x = -0 loses it above (-0 + +0) */
  s = _mm256_or_pd(s, _mm256_and_pd(r2, _mm256_set1_pd(-0.0)));
  /* cos r = (1 - z/2) + z q: fdlibm's polynomial, without its correction
   * of the rounding of 1 - z/2 (half an ulp more, for one FMA less) */
  __m256d q = _mm256_fmadd_pd(z, _mm256_set1_pd(C6), _mm256_set1_pd(C5));
  q = _mm256_fmadd_pd(z, q, _mm256_set1_pd(C4));
  q = _mm256_fmadd_pd(z, q, _mm256_set1_pd(C3));
  q = _mm256_fmadd_pd(z, q, _mm256_set1_pd(C2));
  q = _mm256_fmadd_pd(z, q, _mm256_set1_pd(C1));
  q = _mm256_mul_pd(z, q);
  __m256d c = _mm256_fmadd_pd(z, q, _mm256_fnmadd_pd(z, _mm256_set1_pd(0.5), _mm256_set1_pd(1.0)));
  /* quadrant n = k mod 4: sin x = s, c, -s, -c; cos x = c, -s, -c, s */
  __m256i n = _mm256_castpd_si256(kb); /* the low bits: k mod 4 */
  __m256d sw = _mm256_castsi256_pd(_mm256_slli_epi64(n, 63)); /* sign bit = bit 0 of n */
  __m256d rs = _mm256_blendv_pd(s, c, sw), rc = _mm256_blendv_pd(c, s, sw);
  __m256i sgs = _mm256_slli_epi64(_mm256_and_si256(n, _mm256_set1_epi64x(2)), 62);
  __m256i sgc = _mm256_slli_epi64(_mm256_and_si256(_mm256_add_epi64(n, _mm256_set1_epi64x(1)),
                                                   _mm256_set1_epi64x(2)), 62);
  *so = _mm256_xor_pd(rs, _mm256_castsi256_pd(sgs));
  *co = _mm256_xor_pd(rc, _mm256_castsi256_pd(sgc));
}

/* 1 iff every |a[k]| <= BIG (NaN and infinities are not) */
VT static int all_small(const double *a, int len) {
  const __m256d absmask = _mm256_castsi256_pd(_mm256_set1_epi64x(INT64_MAX)), big = _mm256_set1_pd(BIG);
  __m256d bad = _mm256_setzero_pd();
  int k = 0;
  /* not-less-or-equal: true for NaN (unordered) and for inf */
  for (; k + 4 <= len; k += 4)
    bad = _mm256_or_pd(bad, _mm256_cmp_pd(_mm256_and_pd(_mm256_loadu_pd(a + k), absmask), big, _CMP_NLE_UQ));
  if (_mm256_movemask_pd(bad)) return 0;
  for (; k < len; k++)
    if (!(fabs(a[k]) <= BIG)) return 0;
  return 1;
}

/* s or c may be NULL (that result is not wanted) */
VT static void sincos_avx2(double *s, double *c, const double *a, int len) {
  if (!all_small(a, len)) {
    scalar_sincos(s, c, a, len);
    return;
  }
  int k = 0;
  __m256d vs, vc;
  if (s && c) {
    for (; k + 4 <= len; k += 4) {
      sincos4(_mm256_loadu_pd(a + k), &vs, &vc);
      _mm256_storeu_pd(s + k, vs);
      _mm256_storeu_pd(c + k, vc);
    }
  } else {
    double *d = s ? s : c;
    for (; k + 4 <= len; k += 4) {
      sincos4(_mm256_loadu_pd(a + k), &vs, &vc);
      _mm256_storeu_pd(d + k, s ? vs : vc);
    }
  }
  if (k < len) { /* the tail through the same kernel, padded */
    double in[4] = {0, 0, 0, 0}, os[4], oc[4];
    for (int j = 0; k + j < len; j++) in[j] = a[k + j];
    sincos4(_mm256_loadu_pd(in), &vs, &vc);
    _mm256_storeu_pd(os, vs);
    _mm256_storeu_pd(oc, vc);
    for (int j = 0; k + j < len; j++) {
      if (s) s[k + j] = os[j];
      if (c) c[k + j] = oc[j];
    }
  }
}

static int vk_state; /* 0 unknown, 1 the AVX2 + FMA kernel, 2 libm */
static int use_vk(void) {
  if (vk_state == 0) {
    __builtin_cpu_init();
    vk_state = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 1 : 2;
  }
  return vk_state == 1;
}

int fv_sincos_vector(void) { return use_vk(); }

void fv_sincos(double *s, double *c, const double *a, int len) {
  if (use_vk()) sincos_avx2(s, c, a, len);
  else scalar_sincos(s, c, a, len);
}
#else
int fv_sincos_vector(void) { return 0; }
void fv_sincos(double *s, double *c, const double *a, int len) { scalar_sincos(s, c, a, len); }
#endif
