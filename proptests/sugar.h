/* The surface-sugar family of the property tests (sugar.c): random surface
 * programs that use the conveniences of spec/surface.md §4 and §4.1, each
 * paired with a core program written by hand from the same tree. */
#ifndef PT_SUGAR_H
#define PT_SUGAR_H
#include "pt.h"

typedef struct sx sx;                  /* a node of a generated program */

typedef struct {
  int nparams;
  int param_y[PT_MAX_PARAMS];          /* the family's own types (sugar.c) */
  int result_y;
  int len;                             /* the length of every parameter array */
  int nbinders;                        /* binder ids 0 .. nbinders-1 */
  uint64_t nameseed;                   /* which binders take a word's name */
  sx *body;
} sg_program;

/* Generates a program of about `size` nodes. */
void sg_gen(prng *r, int size, sg_program *out);
void sg_free(sg_program *p);
sg_program sg_copy(const sg_program *p);
int sg_size(const sg_program *p);
/* The program as a def named `name`: mode 0 with the conveniences, mode 1
 * the hand-desugared core form. malloc'd text. */
char *sg_render(const sg_program *p, int mode, const char *name);
/* Kernel types of the parameters and the result (after ty_init), and
 * their surface syntax. */
int sg_kernel_type(int y);
const char *sg_type_text(int y);
/* Shrinking: the number of candidate replacements at this step is bounded
 * by `budget`; calls `fails` on each smaller candidate and keeps the first
 * that still fails, until none does. */
void sg_shrink(sg_program *p, int (*fails)(void *cx, const sg_program *cand), void *cx, int budget);
/* Coverage: counts of the conveniences used, by name. */
void sg_cover(const sg_program *p, long *counts);
extern const char *const sg_cover_name[];
int sg_cover_n(void);
#endif
