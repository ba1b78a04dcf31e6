/* The application memo: per heap, each closure's last argument and result.
 *
 * CHAD's reverse rule for a function (spec/chad.md) pays for a closure's
 * captured variables with a copower fold that applies the closure again,
 * `fold w with (x, v) -> fst (snd (f x) <| v)`, to the very argument `x` of
 * the application whose pullback built the single `(x, v)`, and then applies
 * that result's pullback to the very cotangent `v` that the application's own
 * pullback gets. Evaluated naively, every level of nested local closures runs
 * the levels below it twice: 2^N work for N levels. Values are immutable and
 * evaluation is pure, so applying the same closure value to the same argument
 * value (pointer identity) gives the same result: remembering it makes each
 * closure body run once per argument and such programs linear again.
 *
 * A direct-mapped cache of MEMO_SLOTS entries keyed by the closure: it costs
 * a fixed 2 MiB of host memory (allocated at the first application) and
 * O(1) per application; an entry overwritten by another closure's only
 * costs that closure's body being run again. heap_release empties it (released
 * addresses are reused) in O(1): entries of an older generation are dead. */
#include <stdint.h>
#include <stdlib.h>

#include "eval/heap_internal.h"
#include "eval/memo.h"

#define MEMO_SLOTS ((size_t)1 << 16)

struct memo_slot {
  const value *fn, *arg, *res;
  uint64_t gen;
};

static size_t slot_of(const value *fn) {
  uint64_t x = (uint64_t)(uintptr_t)fn;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)(x & (MEMO_SLOTS - 1));
}

const value *memo_get(const heap *h, const value *fn, const value *arg) {
  if (!h->memo) return NULL;
  const struct memo_slot *s = &h->memo[slot_of(fn)];
  return s->fn == fn && s->arg == arg && s->gen == h->memo_gen ? s->res : NULL;
}

void memo_put(heap *h, const value *fn, const value *arg, const value *res) {
  if (!fn || !arg || !res) return;
  if (!h->memo && !(h->memo = calloc(MEMO_SLOTS, sizeof *h->memo))) return;
  struct memo_slot *s = &h->memo[slot_of(fn)];
  s->fn = fn;
  s->arg = arg;
  s->res = res;
  s->gen = h->memo_gen;
}

void memo_clear(heap *h) { h->memo_gen++; }

void memo_free(heap *h) {
  free(h->memo);
  h->memo = NULL;
}

void memo_pending_push(memo_pending *p, const value *fn, const value *arg) {
  if (p->n == p->cap) {
    size_t cap = 2 * p->cap;
    struct memo_key *k = realloc(p->more, cap * sizeof *k);
    if (!k) return; /* not remembered: only the saving is lost */
    if (!p->more)
      for (size_t i = 0; i < p->n; i++) k[i] = p->first[i];
    p->more = k;
    p->cap = cap;
  }
  struct memo_key *dst = p->more ? p->more : p->first;
  dst[p->n].fn = fn;
  dst[p->n].arg = arg;
  p->n++;
}

void memo_pending_done(heap *h, memo_pending *p, const value *res) {
  const struct memo_key *k = p->more ? p->more : p->first;
  if (res)
    for (size_t i = 0; i < p->n; i++) memo_put(h, k[i].fn, k[i].arg, res);
  free(p->more);
}
