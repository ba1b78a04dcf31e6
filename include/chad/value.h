/* Runtime values of the source and target languages, shared by the
 * evaluators, the JSON reader/writer, the derivative commands and the tests.
 *
 * Values are immutable and live in a heap (a region): everything allocated
 * during one job is freed at once by heap_free. Allocation respects the
 * heap's byte limit; running out is a reported runtime error, never UB.
 */
#ifndef CHAD_VALUE_H
#define CHAD_VALUE_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
  V_REAL,    /* r                                                           */
  V_INT,     /* i                                                           */
  V_UNIT,
  V_PAIR,    /* a, b                                                        */
  V_INL,     /* a                                                           */
  V_INR,     /* a                                                           */
  V_ARRAY,   /* n, elems: a dense array                                     */
  V_CLOSURE, /* term (TM_LAM or TM_LLAM), env: a function value             */
  V_ZERO,    /* the zero of any linear type; for arrays it has no length    */
  V_SPARSE,  /* array cotangent: sum of (index, value) entries, length-free */
  V_BAG      /* copower: a bag of (primal, linear) pairs                    */
} value_kind;

typedef struct value value;
typedef struct env env;
/* A certified real: an Arb ball held by the heap (src/certified/ball.h). */
struct ball_real;

/* An environment: a persistent snoc list, de Bruijn index 0 first. */
struct env {
  const value *v;
  const env *next;
};

/* An entry of a sparse array cotangent or of a copower bag: a linked list.
 * Order is not observable (plus is concatenation, see rules card §6). */
typedef struct entry {
  int64_t index;           /* V_SPARSE: the array index                     */
  const value *key;        /* V_BAG: the primal (tau) component             */
  const value *v;          /* the linear component                          */
  const struct entry *next;
} entry;

struct value {
  value_kind kind;
  union {
    /* V_REAL: r is the double; in a heap in ball mode (certified
     * evaluation) ball, when not NULL, is the real's enclosure and r only
     * its midpoint rounded, for display. ball == NULL: r exactly. */
    struct { double r; const struct ball_real *ball; };
    int64_t i;
    struct { const value *a, *b; } pair;   /* V_PAIR; V_INL/V_INR use a    */
    struct { int64_t n; const value **elems; } arr;
    struct { int term; const env *env; } clo;
    struct { const entry *first; int64_t count; } entries; /* SPARSE, BAG  */
  } u;
};

typedef struct heap heap;

heap *heap_new(size_t limit_bytes);     /* NULL if the host malloc fails   */
void heap_free(heap *h);
/* Allocation; NULL when the heap's limit is reached (callers report it). */
void *heap_alloc(heap *h, size_t bytes);
size_t heap_used(const heap *h);

/* Constructors; NULL when out of memory. */
const value *v_real(heap *h, double r);
const value *v_int(heap *h, int64_t i);
const value *v_unit(heap *h);
const value *v_pair(heap *h, const value *a, const value *b);
const value *v_inl(heap *h, const value *a);
const value *v_inr(heap *h, const value *a);
const value *v_zero(heap *h);
/* An array of n elements, all NULL: fill elems[i] before it is read. */
value *v_array(heap *h, int64_t n);
const env *env_push(heap *h, const env *e, const value *v);

#endif
