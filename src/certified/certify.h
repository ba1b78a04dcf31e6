/* The certified evaluator's driver: reruns a command on balls at rising
 * precision, explores the branches of the points where it is not
 * differentiable, and reports per entry (spec/certified.md). */
#ifndef CHAD_CERTIFIED_CERTIFY_H
#define CHAD_CERTIFIED_CERTIFY_H

#include "chad/diag.h"

#define CERT_DEFAULT_MAX_PREC 4096

typedef struct certify_cmd {
  /* One run of the command; its heap must be in ball mode (the API's
   * heaps are while the driver runs). */
  int (*run)(void *ctx, char **out, chad_diag *d);
  /* A primal evaluation of the same function at the same arguments: the
   * lookup run that finds the source terms of branch points. May be NULL. */
  int (*lookup)(void *ctx, char **out, chad_diag *d);
  /* file:line:col of a source term; 0 when known. May be NULL. */
  int (*position)(void *ctx, int term, int *line, int *col);
  void *ctx;
  const char *file;
  int deriv;     /* a derivative command: ties are branch points          */
  int bare;      /* the output is a bare JSON value (eval), not an object */
  int progress;  /* print each precision step on stderr                   */
} certify_cmd;

/* Runs cmd certified. Returns 0, CHAD_EXIT_NONDIFF or CHAD_EXIT_UNDECIDED
 * with *out set (stdout's text), or another exit code with d set. */
int certify_run(const certify_cmd *cmd, char **out, chad_diag *d);

void certify_set_max_prec(long bits);
long certify_max_prec(void);
void certify_set_certificate(int on);

#endif
