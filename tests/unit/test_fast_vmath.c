/* The fast evaluator's vector sin and cos (src/fast/fast_vmath.c), which
 * compiled loop bodies use where they need both sin x and cos x:
 *
 * - accuracy: at most 2 ulp from the true value (long double sinl/cosl as
 *   the reference, 11 bits more precise) on random arguments of every
 *   magnitude up to 2^19 (vector path) and beyond (libm path), and next
 *   to multiples of pi/2 (a tiny reduced argument); the libm path
 *   bit-identical to libm;
 * - special values: signed zeros keep their sign in sin, cos 0 = 1, NaN and
 *   infinities give NaN, subnormals;
 * - lanes are independent: every prefix length (the padded tail) gives the
 *   values of a full block, and sin only / cos only give those of both.
 * Random arguments come from a seeded generator; the seed is printed. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fast/fast_internal.h"

#include "check.h"

static uint64_t rng;
static uint64_t next(void) { /* splitmix64 */
  uint64_t z = (rng += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
static double unif(void) { return (double)(next() >> 11) * 0x1p-53; }

/* |got - want| in units of the last place of the double nearest want */
static double ulps(double got, long double want) {
  double w = (double)want;
  if (w == 0.0) return got == 0.0 ? 0.0 : 1e30;
  int e;
  frexp(w, &e);
  double ulp = ldexp(1.0, e - 53);
  if (ulp == 0.0) ulp = 0x1p-1074;
  return (double)(fabsl((long double)got - want) / (long double)ulp);
}

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

#define N 4096
#define PI_D 3.14159265358979323846

int main(int argc, char **argv) {
  rng = argc > 1 ? strtoull(argv[1], NULL, 10) : (uint64_t)time(NULL);
  printf("test_fast_vmath: seed %llu (rerun: test_fast_vmath SEED)\n", (unsigned long long)rng);
  static double a[N], s[N], c[N], s2[N], c2[N];

  /* accuracy per magnitude; past 2^19 the libm path, bit for bit */
  const double mags[] = {1e-300, 1e-10, 0.5, 1.0, 3.2, 10.0, 100.0, 1e4, 524288.0, 1e6, 1e22};
  for (size_t m = 0; m < sizeof mags / sizeof *mags; m++) {
    for (int i = 0; i < N; i++) a[i] = mags[m] * (2.0 * unif() - 1.0);
    fv_sincos(s, c, a, N);
    double ms = 0, mc = 0;
    int libm_same = 1;
    for (int i = 0; i < N; i++) {
      double es = ulps(s[i], sinl((long double)a[i])), ec = ulps(c[i], cosl((long double)a[i]));
      if (es > ms) ms = es;
      if (ec > mc) mc = ec;
      if (!same_bits(s[i], sin(a[i])) || !same_bits(c[i], cos(a[i]))) libm_same = 0;
    }
    CHECKM(ms <= 2.0 && mc <= 2.0, "|x| <= %g: sin %.2f ulp, cos %.2f ulp", mags[m], ms, mc);
    if (mags[m] > 524288.0) CHECKM(libm_same, "|x| <= %g: the libm path", mags[m]);
    printf("  |x| <= %-8g max error: sin %.2f ulp, cos %.2f ulp\n", mags[m], ms, mc);
  }

  /* arguments next to multiples of pi/2 (the reduced argument tiny: the
   * reduction's precision) */
  {
    double ms = 0, mc = 0;
    for (int i = 0; i < N; i++) a[i] = (double)((long double)(next() % 333000 + 1) * 1.57079632679489661923132169163975144L);
    fv_sincos(s, c, a, N);
    for (int i = 0; i < N; i++) {
      double es = ulps(s[i], sinl((long double)a[i])), ec = ulps(c[i], cosl((long double)a[i]));
      if (es > ms) ms = es;
      if (ec > mc) mc = ec;
    }
    CHECKM(ms <= 2.0 && mc <= 2.0, "next to k pi/2: sin %.2f ulp, cos %.2f ulp", ms, mc);
    printf("  next to k pi/2   max error: sin %.2f ulp, cos %.2f ulp\n", ms, mc);
  }

  /* a block with one large argument goes through libm whole */
  for (int i = 0; i < 128; i++) a[i] = 2.0 * unif() - 1.0;
  a[77] = 3e9;
  fv_sincos(s, c, a, 128);
  int all_libm = 1;
  for (int i = 0; i < 128; i++)
    if (!same_bits(s[i], sin(a[i])) || !same_bits(c[i], cos(a[i]))) all_libm = 0;
  CHECK(all_libm);

  /* special values */
  const double sp[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 0x1p-1074, -0x1p-1074, 0x1p-1022};
  double ss[8], cs[8];
  fv_sincos(ss, cs, sp, 8);
  CHECK(ss[0] == 0.0 && !signbit(ss[0]) && cs[0] == 1.0);
  CHECK(ss[1] == 0.0 && signbit(ss[1]) && cs[1] == 1.0);
  CHECK(isnan(ss[2]) && isnan(cs[2]) && isnan(ss[3]) && isnan(cs[3]) && isnan(ss[4]) && isnan(cs[4]));
  /* tiny arguments: sin x = x, cos x = 1 (a block without NaN: the vector path) */
  const double tiny[4] = {0x1p-1074, -0x1p-1074, 0x1p-1022, -0.0};
  fv_sincos(ss, cs, tiny, 4);
  CHECK(same_bits(ss[0], 0x1p-1074) && same_bits(ss[1], -0x1p-1074) && same_bits(ss[2], 0x1p-1022));
  CHECK(same_bits(ss[3], -0.0) && cs[0] == 1.0 && cs[3] == 1.0);
  /* exact quadrant points: within 1 ulp of the true values */
  const double q[4] = {PI_D / 2, PI_D, 3 * PI_D / 2, -PI_D / 2};
  fv_sincos(ss, cs, q, 4);
  CHECK(ss[0] == 1.0 && cs[1] == -1.0 && ss[2] == -1.0 && ss[3] == -1.0);
  for (int i = 0; i < 4; i++)
    CHECKM(ulps(ss[i], sinl((long double)q[i])) <= 2.0 && ulps(cs[i], cosl((long double)q[i])) <= 2.0,
           "quadrant point %d", i);

  /* lanes: prefixes (padded tails) and single results equal the full block */
  for (int i = 0; i < 128; i++) a[i] = 40.0 * (2.0 * unif() - 1.0);
  fv_sincos(s, c, a, 128);
  int lanes_ok = 1;
  for (int len = 0; len <= 13; len++) {
    memset(s2, 0, sizeof s2);
    memset(c2, 0, sizeof c2);
    fv_sincos(s2, c2, a + 3, len);
    for (int i = 0; i < len; i++)
      if (!same_bits(s2[i], s[3 + i]) || !same_bits(c2[i], c[3 + i])) lanes_ok = 0;
    if (s2[len] != 0.0 || c2[len] != 0.0) lanes_ok = 0; /* nothing written past len */
  }
  CHECK(lanes_ok);
  fv_sincos(s2, NULL, a, 128);
  fv_sincos(NULL, c2, a, 128);
  int single_ok = 1;
  for (int i = 0; i < 128; i++)
    if (!same_bits(s2[i], s[i]) || !same_bits(c2[i], c[i])) single_ok = 0;
  CHECK(single_ok);

  printf("test_fast_vmath: %d checks, %d failures (vector sin/cos: %s)\n", checks, failures,
         fv_sincos_vector() ? "AVX2 + FMA kernel" : "libm (no AVX2 + FMA on this CPU)");
  return failures != 0;
}
