/* Private to src/eval: helpers shared by the evaluator's files. */
#ifndef CHAD_EVAL_INTERNAL_H
#define CHAD_EVAL_INTERNAL_H

#include "chad/eval.h"
#include "eval/heap_internal.h"

/* Sets err (CHAD_EXIT_RUNTIME, printf-style message); returns NULL. */
const value *eval_fail(eval_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
const value *eval_oom(eval_error *err);
/* The depth a first, small-stack attempt starts at: it leaves it
 * EVAL_MAX_DEPTH_SMALL_STACK levels, or the whole limit if that is less
 * (then 0, and no deep retry is needed). */
int eval_small_stack_start(void);
/* Runs fn(arg) on a thread with eval_stack_bytes() of stack and waits for
 * it: 1; 0 with err set (the nesting limit's error) when no such thread
 * could be started. */
int eval_run_deep(void *(*fn)(void *), void *arg, eval_error *err);
const sparse_table *sparse_table_of(heap *h, const value *s, eval_error *err);

#endif
