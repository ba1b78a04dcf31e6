/* The application memo (memo.c): a closure's last argument and its result,
 * per heap, so that CHAD's copower folds do not re-run closures. Shared by
 * the reference (and so the certified) evaluator and the fast evaluator. */
#ifndef CHAD_EVAL_MEMO_H
#define CHAD_EVAL_MEMO_H

#include <stddef.h>
#include <stdint.h>

#include "chad/value.h"

/* The remembered result of applying closure fn to arg (same pointers), or NULL. */
const value *memo_get(const heap *h, const value *fn, const value *arg);
/* Remembers fn arg = res (replacing fn's previous entry). */
void memo_put(heap *h, const value *fn, const value *arg, const value *res);
/* The slots a lookup of fn reads (1: its home slot), for tests of the
 * table's spread. */
size_t memo_probes(const heap *h, const value *fn);
/* heap_release to a mark taken after `seq` entries: the entries put since
 * are dropped (the values they name may be freed); the older ones stay. */
void memo_release(heap *h, uint64_t seq);
void memo_free(heap *h);    /* heap_free: the table is kept for the next heap */
/* The kept table's bytes; gives it back to the system (heap_pool_release). */
size_t memo_kept_bytes(void);
void memo_kept_release(void);

/* The applications an evaluation step entered as tail calls: each has the
 * step's final result, remembered by memo_pending_done. */
#define MEMO_PENDING_INLINE 4
struct memo_key {
  const value *fn, *arg;
};
typedef struct memo_pending {
  struct memo_key first[MEMO_PENDING_INLINE];
  struct memo_key *more; /* host memory once there are more than fit in first */
  size_t n, cap;
} memo_pending;
#define MEMO_PENDING_INIT {.more = NULL, .n = 0, .cap = MEMO_PENDING_INLINE}
void memo_pending_push(memo_pending *p, const value *fn, const value *arg);
/* Remembers each pending application = res (when res is not NULL); frees p. */
void memo_pending_done(heap *h, memo_pending *p, const value *res);

#endif
