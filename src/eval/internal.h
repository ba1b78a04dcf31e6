/* Private to src/eval: helpers shared by the evaluator's files. */
#ifndef CHAD_EVAL_INTERNAL_H
#define CHAD_EVAL_INTERNAL_H

#include "chad/eval.h"
#include "eval/heap_internal.h"

/* Sets err (CHAD_EXIT_RUNTIME, printf-style message); returns NULL. */
const value *eval_fail(eval_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
const value *eval_oom(eval_error *err);
const sparse_table *sparse_table_of(heap *h, const value *s, eval_error *err);

#endif
