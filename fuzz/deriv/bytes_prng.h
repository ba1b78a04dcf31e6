/* The property-test generator's PRNG (proptests/prng.h), fed by the
 * fuzzer's bytes: each draw consumes one byte, which decides it together
 * with a splitmix64 stream seeded by the input's first byte only, so that
 * libFuzzer's mutation of byte k changes draw k of the generator (one
 * choice of its structure, or one number) and leaves the other draws as
 * they were. The byte is both the draw's low 8 bits (prng_below) and its
 * high 8 bits (prng_unit, prng_range: the number's leading bits). Past the
 * input's end the stream alone goes on, still deterministic.
 * Force-included (-include) before proptests/pt.h, whose prng.h it
 * replaces (same guard, same interface). */
#ifndef PT_PRNG_H
#define PT_PRNG_H
#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint64_t s;
  const uint8_t *data;
  size_t n, pos;
} prng;

static inline uint64_t prng_mix(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
static inline uint64_t prng_next(prng *r) {
  uint64_t z = prng_mix(&r->s);
  /* prng_below(n) for n dividing 256 is the byte's choice alone; for other
   * n the byte and the draw's fixed place in the stream decide it */
  if (r->pos < r->n) {
    uint64_t b = r->data[r->pos++];
    z = (z & ~((uint64_t)0xFF << 56 | 0xFF)) | b << 56 | b;
  }
  return z;
}
static inline int prng_below(prng *r, int n) { return (int)(prng_next(r) % (uint64_t)n); }
static inline double prng_unit(prng *r) {
  return (double)(prng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}
static inline double prng_range(prng *r, double lo, double hi) { return lo + (hi - lo) * prng_unit(r); }
static inline int prng_chance(prng *r, int num, int den) { return prng_below(r, den) < num; }
#endif
