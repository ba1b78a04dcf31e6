/* The value heap: a region allocator with a byte limit, and the value
 * constructors of value.h. Everything allocated in a heap is freed at once by
 * heap_free; values are immutable once built.
 *
 * Freed chunks are kept in a process-wide pool (at most POOL_BYTES) and
 * handed to the next heap: a caller that evaluates again and again (a
 * gradient in a loop) then writes into pages it has already touched, instead
 * of taking every page fault of a fresh region each time. */
#include "chad/eval.h"
#include "chad/value.h"
#include "eval/heap_internal.h"
#include "eval/memo.h"
#include "certified/ball.h"

#include <pthread.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>

#define CHUNK_MIN ((size_t)64 * 1024)
#define ALIGN ((size_t)alignof(max_align_t))

struct chunk {
  struct chunk *prev;
  size_t size, used;
  alignas(max_align_t) unsigned char data[];
};

/* The pool: chunks of CHUNK_MIN bytes on one list, larger ones in a small
 * table taken best fit (a large chunk is reused for a need of at least half
 * its size, so a small need does not pin a large block). Under
 * AddressSanitizer there is no pool: every chunk goes back to free, so a
 * value used after its heap is freed is still reported. */
#define POOL_BYTES ((size_t)1024 << 20)
#define POOL_BIG 64
#if defined(__SANITIZE_ADDRESS__)
#define POOL_ON 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POOL_ON 0
#endif
#endif
#ifndef POOL_ON
#define POOL_ON 1
#endif
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct chunk *pool_small;          /* linked through prev */
static struct chunk *pool_big[POOL_BIG];
static size_t pool_bytes;

static struct chunk *chunk_get(size_t size) {
  struct chunk *c = NULL;
  if (POOL_ON) {
    pthread_mutex_lock(&pool_lock);
    if (size == CHUNK_MIN && pool_small) {
      c = pool_small;
      pool_small = c->prev;
    } else if (size > CHUNK_MIN) {
      int best = -1;
      for (int i = 0; i < POOL_BIG; i++)
        if (pool_big[i] && pool_big[i]->size >= size && pool_big[i]->size / 2 <= size &&
            (best < 0 || pool_big[i]->size < pool_big[best]->size))
          best = i;
      if (best >= 0) {
        c = pool_big[best];
        pool_big[best] = NULL;
      }
    }
    if (c) pool_bytes -= c->size;
    pthread_mutex_unlock(&pool_lock);
  }
  if (!c) {
    if (size > SIZE_MAX - sizeof(struct chunk)) return NULL;
    c = malloc(sizeof(struct chunk) + size);
    if (!c) return NULL;
    c->size = size;
  }
  c->used = 0;
  return c;
}

static void chunk_put(struct chunk *c) {
  if (POOL_ON) {
    pthread_mutex_lock(&pool_lock);
    int kept = 0;
    if (pool_bytes <= POOL_BYTES && c->size <= POOL_BYTES - pool_bytes) {
      if (c->size == CHUNK_MIN) {
        c->prev = pool_small;
        pool_small = c;
        kept = 1;
      } else {
        for (int i = 0; i < POOL_BIG && !kept; i++)
          if (!pool_big[i]) {
            pool_big[i] = c;
            kept = 1;
          }
      }
      if (kept) pool_bytes += c->size;
    }
    pthread_mutex_unlock(&pool_lock);
    if (kept) return;
  }
  free(c);
}

void heap_pool_release(void) {
  pthread_mutex_lock(&pool_lock);
  while (pool_small) {
    struct chunk *p = pool_small->prev;
    free(pool_small);
    pool_small = p;
  }
  for (int i = 0; i < POOL_BIG; i++) {
    free(pool_big[i]);
    pool_big[i] = NULL;
  }
  pool_bytes = 0;
  pthread_mutex_unlock(&pool_lock);
  memo_kept_release();
}

size_t heap_pool_bytes(void) {
  pthread_mutex_lock(&pool_lock);
  size_t b = pool_bytes;
  pthread_mutex_unlock(&pool_lock);
  return b + memo_kept_bytes();
}

heap *heap_new(size_t limit_bytes) {
  heap *h = calloc(1, sizeof *h);
  if (!h) return NULL;
  h->limit = limit_bytes;
  return h;
}

void heap_free(heap *h) {
  if (!h) return;
  struct chunk *c = h->chunks;
  while (c) {
    struct chunk *p = c->prev;
    chunk_put(c);
    c = p;
  }
  free(h->cache_keys);
  free(h->cache_vals);
  memo_free(h);
  ball_store_free(h->balls);
  free(h);
}

int heap_enable_balls(heap *h) {
  if (!h) return -1;
  if (!h->balls) h->balls = ball_store_new();
  return h->balls ? 0 : -1;
}
int heap_is_ball(const heap *h) { return h && h->balls; }
struct ball_store *heap_ball_store(heap *h) { return h ? h->balls : NULL; }

void *heap_alloc(heap *h, size_t bytes) {
  if (!h) return NULL;
  if (bytes == 0) bytes = 1;
  if (bytes > SIZE_MAX - ALIGN) return NULL;
  size_t need = (bytes + ALIGN - 1) / ALIGN * ALIGN;
  /* The limit counts bytes handed out, so it is independent of chunking. */
  if (need > h->limit || h->used > h->limit - need) return NULL;
  struct chunk *c = h->chunks;
  if (!c || c->size - c->used < need) {
    struct chunk *n = chunk_get(need > CHUNK_MIN ? need : CHUNK_MIN);
    if (!n) return NULL;
    n->prev = c;
    h->chunks = n;
    c = n;
  }
  void *p = c->data + c->used;
  c->used += need;
  h->used += need;
  return p;
}

size_t heap_used(const heap *h) { return h ? h->used : 0; }

heap_mark_t heap_mark(const heap *h) {
  heap_mark_t m = {h->chunks, h->chunks ? h->chunks->used : 0, h->used, h->memo_seq};
  return m;
}

void heap_release(heap *h, heap_mark_t m) {
  while (h->chunks && h->chunks != m.chunk) {
    struct chunk *p = h->chunks->prev;
    chunk_put(h->chunks);
    h->chunks = p;
  }
  if (h->chunks) h->chunks->used = m.chunk_used;
  h->used = m.used;
  for (size_t i = 0; i < h->cache_cap; i++) {
    h->cache_keys[i] = NULL;
    h->cache_vals[i] = NULL;
  }
  h->cache_n = 0;
  memo_release(h, m.memo_seq);
}

static value *alloc_value(heap *h, value_kind k) {
  value *v = heap_alloc(h, sizeof *v);
  if (v) v->kind = k;
  return v;
}

const value *v_real(heap *h, double r) {
  value *v = alloc_value(h, V_REAL);
  if (v) {
    v->u.r = r;
    v->u.ball = NULL;
  }
  return v;
}

const value *v_int(heap *h, int64_t i) {
  value *v = alloc_value(h, V_INT);
  if (v) v->u.i = i;
  return v;
}

/* Unit and zero carry no data: one shared immutable instance each. */
static const value unit_value = {.kind = V_UNIT};
static const value zero_value = {.kind = V_ZERO};

const value *v_unit(heap *h) {
  (void)h;
  return &unit_value;
}

const value *v_zero(heap *h) {
  (void)h;
  return &zero_value;
}

const value *v_pair(heap *h, const value *a, const value *b) {
  if (!a || !b) return NULL;
  value *v = alloc_value(h, V_PAIR);
  if (v) {
    v->u.pair.a = a;
    v->u.pair.b = b;
  }
  return v;
}

static const value *v_inj(heap *h, value_kind k, const value *a) {
  if (!a) return NULL;
  value *v = alloc_value(h, k);
  if (v) {
    v->u.pair.a = a;
    v->u.pair.b = NULL;
  }
  return v;
}

const value *v_inl(heap *h, const value *a) { return v_inj(h, V_INL, a); }
const value *v_inr(heap *h, const value *a) { return v_inj(h, V_INR, a); }

value *v_array(heap *h, int64_t n) {
  if (n < 0 || (uint64_t)n > SIZE_MAX / sizeof(const value *)) return NULL;
  value *v = alloc_value(h, V_ARRAY);
  if (!v) return NULL;
  v->u.arr.n = n;
  v->u.arr.elems = NULL;
  if (n > 0) {
    const value **e = heap_alloc(h, (size_t)n * sizeof *e);
    if (!e) return NULL;
    for (int64_t i = 0; i < n; i++) e[i] = NULL;
    v->u.arr.elems = e;
  }
  return v;
}

const env *env_push(heap *h, const env *e, const value *v) {
  if (!v) return NULL;
  env *n = heap_alloc(h, sizeof *n);
  if (!n) return NULL;
  n->v = v;
  n->next = e;
  return n;
}
