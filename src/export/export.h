/* Exporters: a definition of the language as a program of another system,
 * computing the same function there (spec/export.md). */
#ifndef CHAD_EXPORT_H
#define CHAD_EXPORT_H

#include "chad/json.h"

/* Writes into b a Python module computing `term` (the elaborated body of a
 * definition with n parameters of types tys, named names) with PyTorch.
 * `source` names the file in the module's header. Returns 0, or -1 when a
 * construct cannot be exported (*unsupported names it; NULL: out of memory). */
int export_torch(const char *name, int n, const char *const *names, const int *tys, int term,
                 const char *source, chad_buf *b, const char **unsupported);

/* Writes into b a C++ program computing `term` over ADOL-C's adouble, with
 * a driver that tapes it and runs ADOL-C's forward and reverse modes
 * (spec/export.md). Returns 0, or -1 as export_torch. */
int export_adolc(const char *name, int n, const char *const *names, const int *tys, int term,
                 const char *source, chad_buf *b, const char **unsupported);

#endif
