/* Private to src/eval: the heap's layout and the sparse-index cache. */
#ifndef CHAD_EVAL_HEAP_INTERNAL_H
#define CHAD_EVAL_HEAP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "chad/value.h"

struct chunk;

/* A V_SPARSE value summed per index and sorted, so that indexing it is a
 * binary search (built once per sparse value that is indexed). */
typedef struct sparse_table {
  int64_t n;
  const int64_t *idx;
  const value **val;
} sparse_table;

struct heap {
  size_t limit, used;
  struct chunk *chunks;
  /* open-addressing map: sparse value -> its table (host malloc memory) */
  const value **cache_keys;
  const sparse_table **cache_vals;
  size_t cache_cap, cache_n;
  /* the application memo (memo.c): open addressing, keyed by closure */
  struct memo_slot *memo;
  size_t memo_cap, memo_n;
  uint64_t memo_gen;       /* slots of another generation are free */
  uint64_t memo_seq;       /* entries put so far (heap_mark keeps it)  */
  /* ball mode (src/certified/ball.h): the Arb balls of its reals */
  struct ball_store *balls;
};

/* A point in the region to roll back to: everything allocated after
 * heap_mark is freed by heap_release (used to discard a failed attempt). */
typedef struct heap_mark_t {
  struct chunk *chunk;
  size_t chunk_used, used;
  uint64_t memo_seq;
} heap_mark_t;
heap_mark_t heap_mark(const heap *h);
/* Frees what was allocated since m; clears the sparse-table cache and drops
 * the application memo's entries put since m (they may refer to freed
 * memory). */
void heap_release(heap *h, heap_mark_t m);

#endif
