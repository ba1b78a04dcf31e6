/* splitmix64: the proptest's own PRNG, so that a seed reproduces a run on
 * every libc. */
#ifndef PT_PRNG_H
#define PT_PRNG_H
#include <stdint.h>

typedef struct { uint64_t s; } prng;

static inline uint64_t prng_next(prng *r) {
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
/* uniform integer in [0, n), n > 0 */
static inline int prng_below(prng *r, int n) {
  return (int)(prng_next(r) % (uint64_t)n);
}
/* uniform double in [0, 1) */
static inline double prng_unit(prng *r) {
  return (double)(prng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}
static inline double prng_range(prng *r, double lo, double hi) {
  return lo + (hi - lo) * prng_unit(r);
}
/* 1 with probability num/den */
static inline int prng_chance(prng *r, int num, int den) {
  return prng_below(r, den) < num;
}
#endif
