/* Shared by src/api.c and src/api_ad.c (the derivative commands). */
#ifndef CHAD_API_INTERNAL_H
#define CHAD_API_INTERNAL_H

#include "chad.h"
#include "chad/eval.h"
#include "chad/surface.h"
#include "chad/value.h"

struct chad_prog {
  surf_program *sp;
  char file[256];
  int inline_defs;   /* chad_set_inline: a CHAD_INLINE_* mode              */
  struct chad_prog *next;   /* the list of live programs (api.c)       */
};

/* The preconditions of a command (chad.h): d, p (loaded, not freed) and out
 * not NULL; sets *out = NULL. 0, or CHAD_EXIT_USAGE with d set (if d is). */
int api_check(const chad_prog *p, char **out, chad_diag *d);

/* A definition, elaborated. */
typedef struct fn_info {
  int k;                                 /* index of the def              */
  const char *name;
  int line;
  int term, ctx;                         /* elaborated body and context   */
  int n;                                 /* number of parameters          */
  const char *names[SURF_MAX_PARAMS];
  int tys[SURF_MAX_PARAMS];
  int result;                            /* type of term                  */
} fn_info;

size_t api_heap_limit(void);
int api_heap(heap **h, chad_diag *d);
/* evaluating: the command evaluates k (it inlines under CHAD_INLINE_DEFAULT)
 * rather than printing it. */
int api_elab(chad_prog *p, int k, int evaluating, fn_info *fi, chad_diag *d);
/* Resolves fn, elaborates it, checks that its parameters and result have a
 * JSON form, creates the heap (*h; the caller frees it even on failure),
 * reads args into argv[0..n-1] and builds the environment *e. */
int api_setup(chad_prog *p, const char *fn, const chad_json *args, fn_info *fi, heap **h,
              const value **argv, const env **e, chad_diag *d);
/* eval_fast or eval_ref, as chad_set_evaluator says (values of value.h). */
const value *api_eval(heap *h, int term, const env *e, eval_error *err);
/* The settings of chad_set_evaluator and chad_set_certificate. */
chad_evaluator api_evaluator(void);
int api_certificate(void);
/* Makes chad_*_values (derivs.c) use the same evaluator. */
void api_values_evaluator(void);
/* Certified mode (CHAD_EVAL_BALL): the public command runs through the
 * certified driver (src/certified/certify.h), which calls it back. */
enum { API_EVAL, API_JVP, API_VJP, API_GRAD, API_JACOBIAN };
int api_certified_wanted(void);
int api_certified(int kind, chad_prog *p, const char *fn, const chad_json *args,
                  const chad_json *extra, int reverse, char **out, chad_diag *d);
/* Under CHAD_INLINE_DEFAULT, a command whose inlined definition made a
 * kernel arena fill or a recursion limit trip (the transformations' output
 * grows with the inlined term; the fixed arenas hold the program as written)
 * runs again on the program as written. Returns rc when that does not apply,
 * else the rerun's exit code. kind: API_*. */
int api_rerun_as_written(int kind, chad_prog *p, const char *fn, const chad_json *args,
                         const chad_json *extra, int reverse, int rc, char **out, chad_diag *d);
int api_runtime_error(chad_prog *p, const fn_info *fi, const eval_error *err, chad_diag *d);
/* Gives a diagnostic without a place the place of def fi (file:line:1). */
void api_place(chad_prog *p, const fn_info *fi, chad_diag *d);

/* A public command and its arguments, run by api_deep (src/api_stack.c) on
 * a thread with a large stack: run(c) is the command's body, rc its result. */
typedef struct api_call {
  int (*run)(struct api_call *c);
  chad_prog *p;
  const char *fn;
  const void *a, *b;   /* the command's JSON inputs or options */
  int flag;            /* raw, reverse                         */
  char **out;
  chad_diag *d;
  int rc;
} api_call;
int api_deep(api_call *c);

/* The diagnostic of a printer that returned NULL (surf_print_too_deep). */
int api_print_failed(chad_diag *d, const char *file, int line, const char *what);

#endif
