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
 * One entry per closure (the last argument), so the memo never holds more
 * entries than there are closures in the heap; it lives in host memory, at
 * most MEMO_MAX_BYTES_PER_LIMIT of the heap's limit (then it only
 * overwrites), and is emptied by heap_release, since released addresses are
 * reused. */
#include <stdint.h>
#include <stdlib.h>

#include "eval/heap_internal.h"
#include "eval/memo.h"

/* the table may use up to limit / 8 bytes of host memory */
#define MEMO_MAX_BYTES_PER_LIMIT 8

struct memo_slot {
  const value *fn, *arg, *res;
};

static size_t slot_of(const value *fn, size_t cap) {
  uint64_t x = (uint64_t)(uintptr_t)fn;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)(x & (cap - 1));
}

const value *memo_get(const heap *h, const value *fn, const value *arg) {
  if (!h->memo_cap) return NULL;
  for (size_t i = slot_of(fn, h->memo_cap);; i = (i + 1) & (h->memo_cap - 1)) {
    const struct memo_slot *s = &h->memo[i];
    if (!s->fn) return NULL;
    if (s->fn == fn) return s->arg == arg ? s->res : NULL;
  }
}

static int grow(heap *h) {
  size_t cap = h->memo_cap ? 2 * h->memo_cap : 256;
  if (cap > SIZE_MAX / sizeof(struct memo_slot) ||
      cap * sizeof(struct memo_slot) > h->limit / MEMO_MAX_BYTES_PER_LIMIT)
    return 0;
  struct memo_slot *t = calloc(cap, sizeof *t);
  if (!t) return 0;
  for (size_t i = 0; i < h->memo_cap; i++) {
    if (!h->memo[i].fn) continue;
    size_t j = slot_of(h->memo[i].fn, cap);
    while (t[j].fn) j = (j + 1) & (cap - 1);
    t[j] = h->memo[i];
  }
  free(h->memo);
  h->memo = t;
  h->memo_cap = cap;
  return 1;
}

void memo_put(heap *h, const value *fn, const value *arg, const value *res) {
  if (!fn || !arg || !res) return;
  if (h->memo_cap) {
    size_t i = slot_of(fn, h->memo_cap);
    for (; h->memo[i].fn; i = (i + 1) & (h->memo_cap - 1))
      if (h->memo[i].fn == fn) {
        h->memo[i].arg = arg;
        h->memo[i].res = res;
        return;
      }
  }
  /* a new closure: at most half full, else grow (or, at the cap, forget) */
  if (2 * (h->memo_n + 1) > h->memo_cap && !grow(h)) return;
  size_t i = slot_of(fn, h->memo_cap);
  while (h->memo[i].fn) i = (i + 1) & (h->memo_cap - 1);
  h->memo[i].fn = fn;
  h->memo[i].arg = arg;
  h->memo[i].res = res;
  h->memo_n++;
}

void memo_clear(heap *h) {
  if (h->memo_n)
    for (size_t i = 0; i < h->memo_cap; i++) h->memo[i].fn = NULL;
  h->memo_n = 0;
}

void memo_free(heap *h) {
  free(h->memo);
  h->memo = NULL;
  h->memo_cap = h->memo_n = 0;
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
