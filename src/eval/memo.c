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
 * closure body run once per argument, and the 2^N goes.
 *
 * One entry per closure (its last argument), in an open-addressing table
 * that grows with the closures applied: no entry is ever lost to another
 * closure's (a lossy cache is not enough: with hundreds of levels two of
 * them collide, and every collision doubles the work again). Its host
 * memory is at most MEMO_LIMIT_SHARE of the heap's limit, then it only
 * updates entries. heap_release drops the entries put after its mark (the
 * addresses they name are reused); the older ones must stay: a pullback
 * evaluated after a mark (the evaluators' retry on a larger stack) re-applies
 * closures applied before it, and losing those entries runs them all again
 * (100 nested closures: 23 MiB of heap instead of 0.4 MiB). A slot of an
 * older generation is free, so that emptying is O(1).
 *
 * A freed heap's table is kept for the next heap (one table, at most
 * MEMO_KEEP_BYTES): every slot in it is of a generation older than the
 * next heap's, so it is empty to that heap without being cleared, and its
 * pages are touched already (a gradient of 10^5 rounds of a closure fills a
 * table of 10 MiB, whose fresh pages were a seventh of its time). */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "eval/heap_internal.h"
#include "eval/memo.h"

#define MEMO_LIMIT_SHARE 8 /* the table takes at most limit / 8 bytes */

struct memo_slot {
  const value *fn, *arg, *res;
  uint64_t gen, seq; /* seq: h->memo_seq when put */
};

/* A closure's home slot keeps the heap's address order: the heap's 16-byte
 * positions are cut into blocks of cap positions, a block maps onto the
 * table one to one (two closures of one block never share a home slot), and
 * each block is rotated by a hash of its number (closures of different
 * blocks meet like random keys). Closures made one after another, as a
 * loop's rounds make them, then sit in slots a short stride apart: a
 * pullback that visits them in order walks the table instead of missing the
 * cache and the TLB at every lookup, as a hash of the whole address did
 * (a while of 10^6 rounds: gradient/primal 4.3 with this, 7 with that). */
static size_t slot_of(const value *fn, size_t cap) {
  uint64_t pos = (uint64_t)(uintptr_t)fn >> 4;
  uint64_t x = pos >> __builtin_ctzll((unsigned long long)cap);
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)((pos + x) & (cap - 1));
}

/* fn's slot, or the free slot where it would go (linear probing; slots of
 * older generations are free) */
static struct memo_slot *find(const heap *h, const value *fn) {
  for (size_t i = slot_of(fn, h->memo_cap);; i = (i + 1) & (h->memo_cap - 1)) {
    struct memo_slot *s = &h->memo[i];
    if (s->gen != h->memo_gen || s->fn == fn) return s;
  }
}

/* linear probing: the slot find stops at, counted from fn's home slot */
size_t memo_probes(const heap *h, const value *fn) {
  if (!h->memo_cap) return 0;
  size_t at = (size_t)(find(h, fn) - h->memo);
  return ((at - slot_of(fn, h->memo_cap)) & (h->memo_cap - 1)) + 1;
}

const value *memo_get(const heap *h, const value *fn, const value *arg) {
  if (!h->memo_cap) return NULL;
  const struct memo_slot *s = find(h, fn);
  return s->gen == h->memo_gen && s->fn == fn && s->arg == arg ? s->res : NULL;
}

#define MEMO_KEEP_BYTES ((size_t)512 << 20)
static pthread_mutex_t keep_lock = PTHREAD_MUTEX_INITIALIZER;
static struct memo_slot *kept; /* a freed heap's table, or NULL */
static size_t kept_cap;
static uint64_t kept_gen;      /* its slots' generations are at most this */

static int grow(heap *h) {
  size_t cap = h->memo_cap ? 2 * h->memo_cap : 1024;
  if (cap > SIZE_MAX / sizeof(struct memo_slot) ||
      cap * sizeof(struct memo_slot) > h->limit / MEMO_LIMIT_SHARE)
    return 0;
  uint64_t gen = h->memo_gen + 1; /* >= 1: calloc's slots (gen 0) are free */
  struct memo_slot *t = NULL;
  pthread_mutex_lock(&keep_lock);
  if (kept && kept_cap >= cap && kept_cap * sizeof(struct memo_slot) <= h->limit / MEMO_LIMIT_SHARE) {
    t = kept;
    cap = kept_cap;
    if (kept_gen >= gen) gen = kept_gen + 1; /* every kept slot is free */
    kept = NULL;
  }
  pthread_mutex_unlock(&keep_lock);
  if (!t && !(t = calloc(cap, sizeof *t))) return 0;
  for (size_t i = 0; i < h->memo_cap; i++) {
    const struct memo_slot *o = &h->memo[i];
    if (o->gen != h->memo_gen) continue;
    size_t j = slot_of(o->fn, cap);
    while (t[j].gen == gen) j = (j + 1) & (cap - 1);
    t[j] = *o;
    t[j].gen = gen;
  }
  free(h->memo);
  h->memo = t;
  h->memo_cap = cap;
  h->memo_gen = gen;
  return 1;
}

void memo_put(heap *h, const value *fn, const value *arg, const value *res) {
  if (!fn || !arg || !res) return;
  struct memo_slot *s = h->memo_cap ? find(h, fn) : NULL;
  if (!s || s->gen != h->memo_gen) {
    /* a new closure: at most half full, else grow (at the cap: not kept) */
    if (2 * (h->memo_n + 1) > h->memo_cap) {
      if (!grow(h)) return;
      s = find(h, fn);
    }
    h->memo_n++;
  }
  s->fn = fn;
  s->arg = arg;
  s->res = res;
  s->gen = h->memo_gen;
  s->seq = ++h->memo_seq;
}

void memo_release(heap *h, uint64_t seq) {
  if (seq == h->memo_seq) return; /* nothing put since the mark */
  struct memo_slot *keep = NULL;
  size_t nkeep = 0;
  if (seq > 0 && h->memo_n > 0 && (keep = malloc(h->memo_n * sizeof *keep)))
    for (size_t i = 0; i < h->memo_cap; i++)
      if (h->memo[i].gen == h->memo_gen && h->memo[i].seq <= seq) keep[nkeep++] = h->memo[i];
  /* empty (O(1)), then the older entries again, with their order kept */
  h->memo_gen++;
  h->memo_n = 0;
  h->memo_seq = seq;
  for (size_t i = 0; i < nkeep; i++) {
    struct memo_slot *s = find(h, keep[i].fn);
    *s = keep[i];
    s->gen = h->memo_gen;
    h->memo_n++;
  }
  free(keep);
}

void memo_free(heap *h) {
  struct memo_slot *drop = h->memo;
  if (drop && h->memo_cap * sizeof *drop <= MEMO_KEEP_BYTES) {
    pthread_mutex_lock(&keep_lock);
    if (!kept || kept_cap < h->memo_cap) { /* keep the larger */
      struct memo_slot *old = kept;
      kept = drop;
      kept_cap = h->memo_cap;
      kept_gen = h->memo_gen;
      drop = old;
    }
    pthread_mutex_unlock(&keep_lock);
  }
  free(drop);
  h->memo = NULL;
  h->memo_cap = h->memo_n = 0;
}

size_t memo_kept_bytes(void) {
  pthread_mutex_lock(&keep_lock);
  size_t b = kept ? kept_cap * sizeof *kept : 0;
  pthread_mutex_unlock(&keep_lock);
  return b;
}

void memo_kept_release(void) {
  pthread_mutex_lock(&keep_lock);
  free(kept);
  kept = NULL;
  kept_cap = 0;
  pthread_mutex_unlock(&keep_lock);
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
