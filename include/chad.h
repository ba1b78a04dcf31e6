/* libchad: the public API of CHAD-C.
 *
 * The same operations as the `chad` command line (README.md), as functions.
 * Every function returns an exit code of chad/diag.h (0 on success) and, on
 * failure, fills the chad_diag (print it with diag_print). Outputs are
 * malloc'd NUL-terminated strings in *out (free them), exactly what the
 * command line prints on stdout.
 *
 * Several programs at once: a chad_prog keeps its program in surface form,
 * and every command elaborates the definition it needs from empty kernel
 * arenas (the arenas are global), so any number of chad_prog objects can be
 * alive and used alternately; a command's output does not depend on which
 * programs were loaded or used before it (tests/unit/test_api_multi.c).
 * One command at a time: libchad is NOT thread safe (the arenas, and the
 * settings chad_set_* below, are process-wide); callers that share it
 * between threads must serialise every call.
 * It needs 8 MiB of stack (a main thread's usual): the parser's recursion
 * takes at most 6 MiB (SURF_MAX_PARSE_STACK of chad/surface.h; deeper
 * nesting is an input error). Every command after loading runs on a thread
 * of its own with a 1 GiB stack (pages taken as used; on the caller's stack
 * if that thread cannot be made), so elaboration, the transformations, the
 * simplifier and the printer recurse up to their depth limits without
 * overflowing the caller's (tests/unit/test_api_stack.c).
 *
 *   chad_diag d;
 *   chad_prog *p = chad_load_file("f.chad", &d);
 *   if (!p) { diag_print(&d); return d.exit_code; }
 *   char *out;
 *   chad_json args = chad_json_text("[1.5, 2]", "<args>");
 *   if (chad_eval(p, NULL, &args, &out, &d) == 0) { puts(out); free(out); }
 *   chad_free(p);
 *
 * Preconditions, checked: d is not NULL (every function that takes one; with
 * d NULL a command returns CHAD_EXIT_USAGE and a loader NULL, saying
 * nothing). The program p is one chad_load_* returned and chad_free has not
 * freed; out, path, len and src are not NULL, nor chad_vectors' spec_path
 * and outdir. A violation is a usage error: the function returns
 * CHAD_EXIT_USAGE (1) (a loader NULL, chad_fn
 * -CHAD_EXIT_USAGE) with d saying "libchad: ... is NULL" or "... was
 * freed", and changes nothing else. fn == NULL means the last definition;
 * args == NULL or args->text == NULL means no --args; a chad_json's name
 * may be NULL ("<args>", "<json>"). chad_free(NULL) and a second chad_free
 * of the same program do nothing (unless a later chad_load_* has returned
 * the same address: the allocator may reuse it); so does diag_print(NULL).
 * Not checkable, so not checked: a chad_json's len must not exceed its
 * text, a pointer must point to what its type says.
 */
#ifndef CHAD_H
#define CHAD_H

#include <stddef.h>

#include "chad/diag.h"

/* The version `chad --version` prints. */
#define CHAD_VERSION "0.1.0"

typedef struct chad_prog chad_prog;

/* A JSON input: the text, its length and the name used in its error messages
 * (the @file path, or "<args>"). text == NULL: not given. */
typedef struct chad_json {
  const char *text;
  size_t len;
  const char *name;
} chad_json;

chad_json chad_json_text(const char *text, const char *name);

/* The largest JSON input (an --args, --tangent or --cotangent file or
 * string): 64 MiB. Larger is an input error (exit 2), found after reading
 * at most one byte more, so a device such as /dev/zero fails fast. */
#define CHAD_MAX_JSON_BYTES ((size_t)64 << 20)   /* = JSON_MAX_TEXT of chad/json.h */

/* Reads a whole file (for @file arguments; "-" is standard input), at most
 * CHAD_MAX_JSON_BYTES (pipes and process substitution work). NULL on error
 * (exit code 2: cannot open, cannot read and why, or too large, positioned
 * at the first byte past the limit; the file named in d); else a malloc'd
 * buffer with *len bytes plus a NUL. */
char *chad_read_file(const char *path, size_t *len, chad_diag *d);

/* Bytes of runtime heap each evaluation may use (default 1 GiB), also the
 * bound on the memory of the JSON inputs being read; exceeding it is a
 * runtime error (exit 3). At most CHAD_MAX_HEAP_LIMIT (512 GiB, so that no
 * allocation asks for more than the sanitizers' allocator can give): a
 * larger value is taken as that. */
#define CHAD_MAX_HEAP_LIMIT ((size_t)1 << 39)
void chad_set_heap_limit(size_t bytes);

/* The nesting limit of evaluation in levels (default 1000000): a term or
 * value nested deeper is a runtime error (exit 3). Deep evaluations run on a
 * thread whose stack holds the whole limit, about 5 KiB a level, taken only
 * as it is used; a lower limit needs less address space. 1 to
 * CHAD_MAX_DEPTH_CAP; a value outside is taken as the nearest bound.
 * Process-wide, like the heap limit. */
#define CHAD_MAX_DEPTH_CAP 4000000
void chad_set_max_depth(int levels);

/* The evaluator every evaluating command uses (eval, jvp, vjp, grad,
 * jacobian): CHAD_EVAL_FAST (the default; chad/fast.h: unboxed arrays,
 * compiled loops, OpenMP threads as OMP_NUM_THREADS says) or CHAD_EVAL_REF
 * (the reference evaluator, chad/eval.h). Both give the same results up to
 * the order in which sums are added. Process-wide, like the heap limit. */
typedef enum chad_evaluator { CHAD_EVAL_FAST = 0, CHAD_EVAL_REF = 1, CHAD_EVAL_BALL = 2 } chad_evaluator;
void chad_set_evaluator(chad_evaluator ev);

/* CHAD_EVAL_BALL, the certified evaluator (spec/certified.md): the reference
 * evaluator on Arb balls, rerun at 64, 128, ... bits up to the cap (default
 * 4096) until every real of the result rounds correctly to a double. Its
 * outputs are those correctly rounded doubles; "undecided" where the cap was
 * reached (exit CHAD_EXIT_UNDECIDED); at a point where a derivative does not
 * exist, exit CHAD_EXIT_NONDIFF with the per-entry answer or the one-sided
 * results of each branch in *out. With chad_set_certificate(1) each output
 * carries "certificate": every real's enclosure (exact decimal midpoint and
 * radius) and the precision used. */
/* The cap is taken within [64, CHAD_MAX_PREC_CAP] (a value outside is the
 * nearest bound): beyond 2^20 bits one evaluation's Arb numbers, which the
 * heap limit does not count, could exhaust the host. */
#define CHAD_MAX_PREC_CAP 1048576L
void chad_set_max_prec(long bits);
void chad_set_certificate(int on);

/* Parse a program (not yet type checked: each command elaborates what it
 * needs, so an ill-typed definition is reported by the command using it).
 * A program is at most SURF_MAX_SOURCE bytes (4 MiB, chad/surface.h): more
 * is an input error (exit 2) positioned at the first byte past it. */
chad_prog *chad_load_file(const char *path, chad_diag *d);
chad_prog *chad_load_string(const char *src, size_t len, const char *name, chad_diag *d);
void chad_free(chad_prog *p);

/* Inlining full applications of defs (SURF_ELAB_INLINE in chad/surface.h):
 * the same values and derivatives, but no let-bound functions for CHAD to
 * turn into copowers, so far less time and memory.
 *   CHAD_INLINE_DEFAULT (a program's mode when loaded): the commands that
 *     evaluate (eval, jvp, vjp, grad, jacobian, check, check_candidate)
 *     inline; where the inlined form would exceed the inlining limits they
 *     use the program as written, without error. The printing commands
 *     (print, print_fwd, print_rev, export) use the program as written.
 *   CHAD_INLINE_NEVER (chad --no-inline): every command, as written.
 *   CHAD_INLINE_ALWAYS (chad --inline; any other nonzero mode): every
 *     command inlines; past the limits, an input error (exit 2). */
enum { CHAD_INLINE_NEVER = 0, CHAD_INLINE_ALWAYS = 1, CHAD_INLINE_DEFAULT = 2 };
void chad_set_inline(chad_prog *p, int mode);

/* The function a command acts on: `fn`, or the last definition when NULL.
 * Returns its index, or minus an exit code: -CHAD_EXIT_USAGE when no
 * definition is called fn, -CHAD_EXIT_INPUT when the file has none. */
int chad_fn(const chad_prog *p, const char *fn, chad_diag *d);

/* chad check: type checks every definition; one line "name : type" each. */
int chad_check(chad_prog *p, char **out, chad_diag *d);

/* chad print: the elaborated definition `fn` (NULL: every definition). */
int chad_print(chad_prog *p, const char *fn, char **out, chad_diag *d);

/* chad eval: the result of `fn` applied to args (a JSON array of the
 * parameters in order, or an object keyed by parameter name; may be absent
 * when fn has no parameters), as JSON. */
int chad_eval(chad_prog *p, const char *fn, const chad_json *args, char **out, chad_diag *d);

/* ---- derivatives (CHAD forward and reverse mode) ------------------------ */
/* chad fwd / chad rev: the transformed program of `fn`, printed. raw != 0
 * prints the transformation's output as is; otherwise simplified when the
 * transformation offers it. */
int chad_print_fwd(chad_prog *p, const char *fn, int raw, char **out, chad_diag *d);
int chad_print_rev(chad_prog *p, const char *fn, int raw, char **out, chad_diag *d);

/* {"value": V, "tangent": DT}: forward mode at args in direction tangent
 * (shaped like args: one tangent per parameter, null for int and unit). */
int chad_jvp(chad_prog *p, const char *fn, const chad_json *args, const chad_json *tangent,
             char **out, chad_diag *d);
/* {"value": V, "cotangent": G}: reverse mode at args for the output
 * cotangent; G has one entry per parameter (null for int and unit). */
int chad_vjp(chad_prog *p, const char *fn, const chad_json *args, const chad_json *cotangent,
             char **out, chad_diag *d);
/* {"value": V, "gradient": G}: vjp with cotangent 1 for a real result. */
int chad_grad(chad_prog *p, const char *fn, const chad_json *args, char **out, chad_diag *d);
/* {"value": V, "jacobian": M}: M[i][j] = d output_i / d input_j, over the
 * flattened real coordinates (JSON order) of the result and the parameters.
 * reverse != 0: one vjp per row; else one jvp per column. */
int chad_jacobian(chad_prog *p, const char *fn, const chad_json *args, int reverse,
                  char **out, chad_diag *d);

/* chad export --to TARGET: definition `fn` as a program of another system
 * computing the same function. TARGET "torch": a Python module over
 * PyTorch; "adolc": a C++ program over ADOL-C (spec/export.md). Exit 2 when the definition uses a construct the
 * target has no counterpart for (the message names it). */
int chad_export(chad_prog *p, const char *fn, const char *target, char **out, chad_diag *d);

/* ---- grading a candidate (chad check --candidate, spec/verdict.md) ------
 * Another tool's value and derivatives of a definition, graded entry by entry
 * against the certified evaluator: each real correct (within the tolerance
 * of the correctly rounded reference), wrong (with its error in ulps and its
 * correct digits), acceptable (at a point where the derivative does not
 * exist, inside the convex hull of the one-sided results: Clarke's
 * generalized gradient), outside the domain (the reference is undefined) or
 * undecided (the precision cap was reached). Code: src/verdict.c (not
 * proved; tests/certified/check.sh, tests/unit/test_verdict.c). */

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
  int json;                     /* output JSON (spec/verdict.md §6) instead of the table */
} chad_check_opts;

/* p, out and d as for every command (a NULL or freed program is a usage
 * error; so is a NULL o). Runs the certified evaluator (CHAD_EVAL_BALL with
 * certificates; the evaluator and certificate settings are restored after)
 * for each part of the candidate and grades every entry. Returns 0,
 * CHAD_EXIT_NONDIFF, CHAD_EXIT_UNDECIDED or CHAD_EXIT_WRONG with the report in
 * *out (malloc'd), or 1/2/3 with d set (usage, input, runtime errors).
 * The candidate is read like the other JSON inputs: at most
 * CHAD_MAX_JSON_BYTES, its memory within the heap limit, an integer beyond
 * int64 a valid number for a real. */
int chad_check_candidate(chad_prog *p, const chad_check_opts *o, char **out, chad_diag *d);

/* chad vectors OUTDIR: the certified test-vector suite defined by the JSON
 * file spec_path (vectors/spec.json, read with chad_read_file's bound), one
 * file per group and index.json,
 * written into outdir (spec/vectors.md). progress: a line on stderr every
 * 25 vectors. Deterministic: the same definition gives the same bytes.
 * Leaves the evaluator at CHAD_EVAL_FAST and certificates off. */
int chad_vectors(const char *spec_path, const char *outdir, int progress, chad_diag *d);

#endif
