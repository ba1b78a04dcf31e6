/* CHAD-C surface language: files of definitions, parsed, resolved and
 * lowered to raw terms (kernel.h), elaborated by the kernel checker, and the
 * pretty-printer of arena terms and types. Grammar and every desugaring:
 * spec/surface.md.
 *
 * Usage:
 *   ty_init(); ctx_init(); tm_init(); raw_init(); op_init(); prims_init();
 *   chad_diag d;
 *   surf_program *p = surf_parse_file("f.chad", &d);   // NULL: diag_print(&d)
 *   int k = surf_def_find(p, "f"), term, ctx;
 *   if (surf_elab_def(p, k, &term, &ctx, &d) != CHAD_EXIT_OK) diag_print(&d);
 *   char *s = surf_print_def(p, k, term);  ... free(s);
 *   surf_free(p);
 *
 * Parsing needs prims_init() (primitive names are resolved while parsing);
 * it does not touch the kernel arenas. Every error is a chad_diag with
 * exit_code CHAD_EXIT_INPUT and, when about the input, file:line:col.
 */
#ifndef CHAD_SURFACE_H
#define CHAD_SURFACE_H

#include <stddef.h>
#include <stdio.h>

#include "chad/diag.h"

/* Limits (checked, reported as input errors). */
#define SURF_MAX_DEPTH   1000     /* expression / type nesting depth       */
#define SURF_MAX_IDENT   64       /* characters in an identifier           */
#define SURF_MAX_NUMBER  64       /* characters in a numeric literal       */
#define SURF_MAX_SOURCE  (32u << 20) /* bytes of one source file (32 MiB) */
/* memory of one program's syntax tree (256 MiB): its parse fails with
 * "program too large" beyond it, so no source takes more */
#define SURF_MAX_PARSE_MEM ((size_t)256 << 20)
/* stack of the parser's recursion (6 MiB): nesting past it is "nested too
 * deeply"; the 4000 levels of the parser's limit take about 4 MiB in an
 * optimised build, about 5.5 MiB under ASan. So parsing needs a stack of
 * 8 MiB, the usual main thread's. */
#define SURF_MAX_PARSE_STACK ((size_t)6 << 20)
#define SURF_MAX_DEFS    1048576  /* definitions in one file               */
#define SURF_MAX_PARAMS  256      /* parameters of one definition          */

typedef struct surf_program surf_program;

/* Parse a whole file / a buffer of len bytes (need not be NUL-terminated;
 * `file` names it in diagnostics). NULL on error, with *d filled. */
surf_program *surf_parse_file(const char *path, chad_diag *d);
surf_program *surf_parse_buffer(const char *src, size_t len, const char *file,
                                chad_diag *d);
surf_program *surf_parse_string(const char *src, const char *file, chad_diag *d);
void surf_free(surf_program *p);

/* The definitions, in file order (0-based). */
int surf_def_count(const surf_program *p);
int surf_def_find(const surf_program *p, const char *name);   /* -1: none */
const char *surf_def_name(const surf_program *p, int k);
int surf_def_line(const surf_program *p, int k);
int surf_def_nparams(const surf_program *p, int k);
const char *surf_def_param_name(const surf_program *p, int k, int i);
/* Kernel types (need ty_init()); a negative CHAD_E_* code on failure.
 * surf_def_result_type is -1 when the def declares no result type. */
int surf_def_param_type(const surf_program *p, int k, int i);
int surf_def_result_type(const surf_program *p, int k);
/* The context of def k: its parameter types, x1 outermost ... xn innermost
 * (de Bruijn index 0 = last parameter). Negative CHAD_E_* on failure. */
int surf_def_ctx(const surf_program *p, int k);

/* Elaborate def k into the kernel term arena. The term is
 *   let d1 = <def d1 as nested fun> in ... let dm = ... in body_k
 * in the context of def k's parameters, where d1..dm are exactly the
 * earlier defs that def k uses, directly or through other defs. The raw
 * arena is scratch space: this calls raw_init() first.
 * Returns CHAD_EXIT_OK and sets *term, *ctx; or CHAD_EXIT_INPUT with a
 * file:line:col diagnostic (type errors name expected and found types in
 * surface syntax). */
int surf_elab_def(const surf_program *p, int k, int *term, int *ctx,
                  chad_diag *d);

/* The same with options (flags: an OR of SURF_ELAB_*; 0 = surf_elab_def).
 * SURF_ELAB_INLINE inlines every full application `f a1 ... an` (n >= 1,
 * exactly f's parameter count) of a def f, recursively, as
 *   let y1 = (a1 : t1) in ... let yn = (an : tn) in (body_f : result_f)
 * (arguments bound first, in order: same evaluation order and errors).
 * Partial applications, defs used as values and defs without parameters
 * stay let-bound as above, and only the defs still used so are bound.
 * When inlining would make the raw term exceed SURF_MAX_INLINE_RAW nodes
 * (or nest inlined bodies deeper than CHAD_MAX_CHECK_DEPTH), it fails with
 * an input error at the call (file:line:col). With SURF_ELAB_INLINE_FALLBACK
 * as well, any failure of the inlined elaboration (those limits, a type
 * error) elaborates def k as written instead (flags 0): past the limits
 * without error, and an ill-typed def with the diagnostics of flags 0. */
#define SURF_ELAB_INLINE    1u
#define SURF_ELAB_INLINE_FALLBACK 2u
#define SURF_MAX_INLINE_RAW 262144
int surf_elab_def_opts(const surf_program *p, int k, unsigned flags, int *term,
                       int *ctx, chad_diag *d);
/* Def k's body alone, with the earlier defs it uses directly as context
 * variables of the kernel types def_ty[j] (those of their values, as the
 * elaboration of def j gave them): the context is def k's parameters, then
 * those defs in order. Its size is that of def k's body, so elaborating
 * every def of a program this way, in order, is linear in the program
 * (`chad check`), where surf_elab_def binds the defs used, transitively, in
 * each def's term. The same diagnostics as surf_elab_def; -1 (and no
 * diagnostic) when def k has target syntax: elaborate it with
 * surf_elab_def. */
int surf_elab_def_sig(const surf_program *p, int k, const int *def_ty, int *term, int *ctx,
                      chad_diag *d);
/* 1 when the latest surf_elab_def_opts inlined (SURF_ELAB_INLINE, no
 * fallback to the def as written), else 0. */
int surf_elab_inlined(void);

/* The source position (line, col) of a term made by the latest successful
 * surf_elab_def*: found by walking the raw and elaborated trees together.
 * Returns 0, or -1 for a term of no known position (e.g. one built by the
 * CHAD transformations). Used to name the place of a runtime event. */
int surf_term_position(int term, int *line, int *col);

/* ---- printing ---------------------------------------------------------- */
/* All printers return a malloc'd NUL-terminated string (free it), or NULL
 * when the host is out of memory or the term or type nests deeper than the
 * printer's limit (4000 term levels, 5000 type levels), which
 * surf_print_too_deep tells apart. */

/* A type in surface syntax: real int unit bool, a * b, a + b, a -> b, [a];
 * target types a -o b (linear functions) and !a (x) b (copowers). */
char *surf_print_type(int ty);

/* Any arena term (source and target kinds). names[i] names the context
 * entry of de Bruijn level i (0 = outermost), for i < nnames; missing names
 * are invented. Binders get fresh readable names that never clash with
 * context names, keywords or primitive names. Terms print in a syntax that
 * parses back (surf_parse + surf_elab_def) to the same arena structure;
 * target-language terms too (spec/surface.md §6), except non-finite
 * constants. */
char *surf_print_term(int term, int nnames, const char *const *names);

/* "def name (x1 : t1, ..., xn : tn) : result =\n  body\n" for a term whose
 * context is def k's parameters (e.g. surf_elab_def's result). */
char *surf_print_def(const surf_program *p, int k, int term);

/* The same for an arbitrary name, parameter names and context: a closed
 * def that parses back to `term` (what `chad fwd` / `chad rev` print). Each
 * type of more than 24 nodes is printed once, as `def type NAME_Tk = ...`
 * before the def, and by its name elsewhere (spec/surface.md §6). */
char *surf_print_def_named(const char *name, int nparams,
                           const char *const *param_names, int term);

/* After a printer of this thread returned NULL: 1 if the term or type was
 * too deep to print, 0 if the host ran out of memory. */
int surf_print_too_deep(void);

/* fputs the string of one of the printers, then free it. */
int surf_fprint(FILE *f, char *s);

#endif
