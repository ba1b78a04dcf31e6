#ifndef PT_PROPS_H
#define PT_PROPS_H
#include "pt.h"

enum {
  PR_PRIMAL, PR_FWD, PR_REV, PR_TRANSPOSE, PR_JACOBIAN, PR_TYPES, PR_SIZE,
  PR_SIMPLIFY, PR_ROUNDTRIP, PR_EVALS, PR_CERT, PR_PRIMS, PR_N
};
enum { ST_NONE = 0, ST_PASS, ST_FAIL, ST_SKIP };
extern const char *const pt_prop_name[PR_N];

#define PT_MSG 600
typedef struct {
  pt_program p;
  heap *h;
  const value *args[PT_MAX_PARAMS];
  int n, m;                          /* input and output dimensions */
  double x[PT_MAX_DIM], dx[PT_MAX_DIM], v[PT_MAX_DIM];
  const value *y;                    /* the program's value at args */
  int zero_jac;                      /* J dx came out exactly 0 */
  int st[PR_N];
  char msg[PR_N][PT_MSG];
} pt_case;

/* Evaluates the program at args; 0 if it is a usable test case (no runtime
 * error, finite output), -1 otherwise. */
int pt_case_prepare(pt_case *c);
/* Runs the properties in mask (bit k = property k) on c; fills st and msg. */
void pt_case_check(pt_case *c, unsigned mask);

/* t2 means c's program: value, J dx and J^T v in the reference and the
 * fast evaluator, and on balls if `balls` (props.c). ST_PASS or ST_FAIL. */
int pt_case_same(pt_case *c, int t2, int balls, int *ball_skipped, char *why, size_t n);

/* Primitive property (prims.c): `count` checks of Dop and DopT. */
void pt_prop_prims(prng *r, int count, int *pass, int *fail, int *skip, int verbose);

/* Size bound of spec/chad.md (output nodes / input nodes). */
extern double pt_size_bound;
extern double pt_size_max_f, pt_size_max_r;   /* largest ratios seen */

/* Counts each row's status of one program (rows 0 .. n-1, skip_row left
 * out; -1 for none) into pass/skip/fail; returns the first failing row
 * with fewer than max_reports reports so far (its report to print), or -1. */
int pt_tally(const int *st, int n, int skip_row, long *pass, long *skip, long *fail,
             long *reported, long max_reports);
#endif
