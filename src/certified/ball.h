/* Ball arithmetic for the certified evaluator (spec/certified.md).
 *
 * A heap can be put in ball mode: its reals are then Arb balls (struct
 * ball_real, held by the heap and cleared by heap_free), and the reference
 * evaluator, the primitives (ball_prim_*), the linear algebra on values and
 * the JSON writer compute on enclosures instead of doubles. Doubles read
 * from JSON and real literals stay V_REAL with ball == NULL: exact balls.
 *
 * One certified run (certify.c) sets the process-wide `cert`: its working
 * precision, whether it evaluates a derivative (then a comparison of equal
 * numbers, a tie of max/min and abs at 0 are branch points), and the branch
 * choices to take; the run reports back through the same struct: the first
 * unresolved branch point, whether anything was undecided at this
 * precision, and where undefined values were born. In a tangent run the
 * reals of the primal program also carry their partials with respect to
 * the seeded inputs, and each tie taken records its difference's.
 */
#ifndef CHAD_CERTIFIED_BALL_H
#define CHAD_CERTIFIED_BALL_H

#include <arb.h>

#include "chad/json.h"
#include "chad/value.h"

struct ball_real {
  arb_struct b;
  /* In a tangent run (cert.tan_n > 0): the partial derivatives of this real
   * with respect to the seeded input coordinates, cert.tan_n balls; NULL
   * when they are all exactly 0 (a constant). A non-finite entry: unknown.
   * tan[ntan] is 1 when they assume the side of a tie (ball.c, tie_choice). */
  arb_ptr tan;
  slong ntan;
};

/* Kinds of branch point: how a tie is broken (choice 0 / choice 1). */
enum cert_site_kind {
  CS_CMP,    /* lt/le/eq of equal numbers: 0 taken true, 1 taken false    */
  CS_MAX,    /* max of equal numbers: 0 takes the first, 1 the second     */
  CS_MIN,    /* min of equal numbers: 0 takes the first, 1 the second     */
  CS_ABS,    /* abs at 0: 0 the left side (x < 0), 1 the right side       */
  CS_JUMP,   /* floor/ceil/round/trunc/sign at a jump: 0 from below, 1 above */
  CS_DOMAIN  /* not a branch: where an undefined value was born (op)      */
};

#define CERT_MAX_CHOICES 6   /* ties explored per point: 2^6 branch runs  */
#define CERT_MAX_EVENTS 4

typedef struct cert_site {
  int kind;        /* enum cert_site_kind                                 */
  int op;          /* the primitive (enum prim)                           */
  arf_struct key;  /* the tied value / the argument (exact)               */
  int occ;         /* branch points: the occurrence of (kind, key) in the run,
                      1, 2, ...: two ties at one value are two branch points */
  int choice;      /* the branch taken (CS_DOMAIN: unused)                */
  int term;        /* source term found by the lookup run, or -1          */
  const char *why; /* CS_DOMAIN: what is undefined                        */
} cert_site;

typedef struct cert_state {
  int active;      /* heaps handed out by the API are in ball mode        */
  slong prec;      /* working precision, bits                             */
  int deriv;       /* derivative command: ties are branch points          */
  int lookup;      /* lookup run: find the source terms of `sites`        */
  int n_choices;
  cert_site choices[CERT_MAX_CHOICES];
  /* outcome of the run */
  int tie;         /* an unresolved branch point stopped the run          */
  cert_site tie_site;
  int imprecise;   /* something could not be decided at this precision   */
  int n_events;
  cert_site events[CERT_MAX_EVENTS];
  int cur_term;    /* the TM_OP being evaluated (eval.c sets it)         */
  /* the JSON writer's count of what it wrote */
  int unroundable, undefined, infinite;
  int in_value;    /* writing the primal value, not a derivative          */
  int certificate; /* write enclosures into `cert_buf`                    */
  chad_buf *cert_buf;
  int n_written;
  /* a tangent run (certify.c, spec/certified.md §3): the inputs' real
   * coordinates are seeded with tan_n tangent directions (ball.c,
   * seed_entry) and every primal real carries its directional derivatives;
   * at each tie taken by a choice, tie_grad[i] receives its difference's */
  slong tan_n;
  slong tan_total;   /* set by the seeding: the inputs' real coordinates */
  arb_ptr tie_grad[CERT_MAX_CHOICES];
  int tie_grad_set[CERT_MAX_CHOICES];
  /* primal ties whose partials took the side of the choices of their kind
   * and value, counted at the first such choice */
  int quiet_hits[CERT_MAX_CHOICES];
  int uncounted;   /* a pass of the primal that repeats the derivative's (vjp's first) */
  int derived_used; /* a tie's difference depended on such a side            */
} cert_state;

extern cert_state cert;

/* Ball storage of a heap (heap.c calls these). */
struct ball_store;
struct ball_store *ball_store_new(void);
void ball_store_free(struct ball_store *s);
/* Puts h in ball mode (its store is cleared by heap_free). 0, or -1 on OOM. */
int heap_enable_balls(heap *h);
int heap_is_ball(const heap *h);

/* A V_REAL holding a copy of x; NULL when out of memory. */
const value *v_ball(heap *h, const arb_t x);
/* The enclosure of a real value (V_REAL exact or ball, V_ZERO as 0). 0 if
 * v is not a real. */
int ball_get(const value *v, arb_t out);
/* a + b for two real values, in ball mode. */
const value *ball_add_values(heap *h, const value *a, const value *b);
/* The sum of n reals. */

/* Tangent runs: the real coordinates of the arguments, in JSON order,
 * replaced by balls seeded with cert.tan_n tangent directions (cut to the
 * number of coordinates when there are fewer: then the unit vectors;
 * cert.tan_total set).
 * Returns 0, or -1 when out of memory. */
int ball_seed_args(heap *h, int n, const value **argv);

/* Forgets the occurrence counts of branch points (at the start of a run). */
void ball_reset_occurrences(void);

/* Primitives in ball mode (the same contracts as prim_eval/_dop/_dopT). */
const value *ball_prim_eval(heap *h, int op, const value *x, const char **err);
const value *ball_prim_dop(heap *h, int op, const value *x, const value *dx, const char **err);
const value *ball_prim_dopT(heap *h, int op, const value *x, const value *v, const char **err);

/* Writes x as JSON: its correctly rounded double when the ball allows it,
 * else "undecided" / "undefined" / "+infinity" / "-infinity", counting each
 * in cert; with cert.certificate, appends its enclosure to cert.cert_buf. */
void ball_write_json(chad_buf *b, const arb_t x);

/* Messages of a stopped run (the evaluator's error text). */
#define CERT_MSG_TIE "certified: branch point"
#define CERT_MSG_UNDECIDED "certified: undecided at this precision"

#endif
