/* Grading a candidate (another tool's value and derivatives) against the
 * certified evaluator: `chad check FILE --args JSON --candidate JSON`
 * (spec/verdict.md).
 *
 * Each real of the candidate gets a verdict: correct (within the tolerance of
 * the correctly rounded reference), wrong (with its error in ulps and its
 * correct digits), acceptable (at a point where the derivative does not
 * exist, inside the convex hull of the one-sided results: Clarke's
 * generalized gradient), outside the domain (the reference is undefined) or
 * undecided (the precision cap was reached). Not proved: ordinary C, tested
 * by tests/certified/check.sh.
 */
#ifndef CHAD_VERDICT_H
#define CHAD_VERDICT_H

#include <chad.h>   /* include/chad.h, not chad/chad.h beside this file */

/* Exit code of `chad check --candidate` when some entry is wrong. The other
 * outcomes: 0 every entry correct or acceptable; CHAD_EXIT_NONDIFF (4) none
 * wrong but some outside the domain; CHAD_EXIT_UNDECIDED (5) none wrong, none
 * outside the domain, some undecided. */
#define CHAD_EXIT_WRONG 6

#define CHAD_CHECK_DEFAULT_ULPS 2

typedef struct chad_check_opts {
  const char *fn;               /* the definition (NULL: the last one)          */
  const chad_json *args;        /* its arguments, as for chad_eval              */
  const chad_json *candidate;   /* the candidate object (spec/verdict.md)       */
  const chad_json *tangent;     /* direction of a top-level "tangent" (or NULL) */
  const chad_json *cotangent;   /* direction of a top-level "cotangent"         */
  long ulps;                    /* tolerance in ulps (used when rtol <= 0)      */
  double rtol;                  /* > 0: relative tolerance instead of ulps      */
  int f32;                      /* grade against the reference rounded to float32 */
  int json;                     /* output JSON instead of the table             */
} chad_check_opts;

/* p, out and d as for every command (chad.h: a NULL or freed program is a
 * usage error). Runs the certified evaluator (chad_set_evaluator(CHAD_EVAL_BALL) with
 * certificates; the evaluator and certificate settings are restored after)
 * for each part of the candidate and grades every entry. Returns 0,
 * CHAD_EXIT_NONDIFF, CHAD_EXIT_UNDECIDED or CHAD_EXIT_WRONG with the report in
 * *out (malloc'd), or 1/2/3 with d set (usage, input, runtime errors). */
int chad_check_candidate(chad_prog *p, const chad_check_opts *o, char **out, chad_diag *d);

#endif
