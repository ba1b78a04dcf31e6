/* Typed JSON <-> runtime values (jansson underneath).
 *
 * The JSON shape of a value is fixed by its source type (README, "JSON
 * conventions"):
 *   Real        a number (an integer literal is accepted)
 *   Int         an integer
 *   Unit        null
 *   a * b       a 2-element array [a, b]
 *   a + b       {"inl": a} or {"inr": b}; Unit + Unit also true (inl) / false (inr)
 *   Arr a       an array
 *   a -> b      no JSON form (an error)
 * Tangents and cotangents of a first-order type t (T t = C t, rules card §3)
 * are written "like t's (co)tangent type": Real a number, Int and Unit null,
 * a * b and a + b a 2-element array (for a sum: [left, right], the unused side
 * zero), Arr a an array as long as the primal.
 *
 * Every error is reported in a chad_diag: input errors (syntax, shape) with
 * CHAD_EXIT_INPUT and file:line:col of the offending JSON value, heap
 * exhaustion and non-finite output numbers with CHAD_EXIT_RUNTIME.
 */
#ifndef CHAD_JSON_H
#define CHAD_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "chad/diag.h"
#include "chad/value.h"

/* ---- a growable output buffer ------------------------------------------ */
typedef struct chad_buf {
  char *data;   /* NUL-terminated; NULL until the first append */
  size_t len, cap;
  int oom;      /* set when an append failed; data stays valid   */
} chad_buf;

void buf_init(chad_buf *b);
void buf_free(chad_buf *b);
void buf_puts(chad_buf *b, const char *s);
void buf_printf(chad_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- reading ------------------------------------------------------------ */
/* A parsed JSON document, remembering its text so that any value in it can be
 * located (file:line:col) in error messages. */
typedef struct json_doc json_doc;

/* The largest JSON text json_doc_parse takes (64 MiB; CHAD_MAX_JSON_BYTES
 * of chad.h): more is an input error positioned at the first byte past it. */
#define JSON_MAX_TEXT ((size_t)64 << 20)
/* Bytes jansson may hold for the documents being read (default 1 GiB; the
 * heap limit, chad_set_heap_limit): more is a runtime error (exit 3). */
void json_set_mem_limit(size_t bytes);
/* Parses a whole document (any JSON value at top level; duplicate object keys
 * rejected). `file` names it in messages ("<args>" or the @file path).
 * NULL on error, with d set. */
json_doc *json_doc_parse(const char *text, size_t len, const char *file, chad_diag *d);
void json_doc_free(json_doc *doc);

/* The parser under json_doc_parse, for a reader that walks jansson's tree
 * itself (chad check --candidate): the same size limit, memory budget,
 * duplicate keys rejected, error positions (a lone CR ends a line) and
 * integer literals beyond int64 accepted. When the text has one, every
 * number is parsed as a JSON real and *ints_as_real is set: an int is then
 * read from its literal (json_int_literal). NULL on error, with d set.
 * Free the tree with json_tree_free (it was allocated within the budget). */
struct json_t;
struct json_t *json_tree_parse(const char *text, size_t len, const char *file, int *ints_as_real,
                               chad_diag *d);
void json_tree_free(struct json_t *root);
/* The integer literal at `at` (n bytes before the text's end): 0 with *x
 * set; 1 when it is a real literal (a fraction or an exponent); 2 when it
 * is beyond int64. */
int json_int_literal(const char *at, size_t n, int64_t *x);

/* Reads a document's top-level value as a value of source type `ty` (first
 * order). `what` names it in messages ("the cotangent"). NULL on error. */
const value *json_doc_value(heap *h, const json_doc *doc, int ty, const char *what,
                            chad_diag *d);

/* Reads a parameter list: the top level is an array of n values in order or
 * an object keyed by the parameter names (names[i] may be NULL for an unnamed
 * parameter: then only the array form can give it). Types tys[i] are first
 * order. Fills out[0..n-1]. Returns 0, or the exit code with d set. */
int json_doc_params(heap *h, const json_doc *doc, int n, const int *tys,
                    const char *const *names, const value **out, chad_diag *d);

/* The same for tangents: entry i has type T(tys[i]) and must fit the primal
 * shapes[i] (array lengths). */
int json_doc_param_tangents(heap *h, const json_doc *doc, int n, const int *tys,
                            const char *const *names, const value *const *shapes,
                            const value **out, chad_diag *d);

/* Reads the top-level value as a (co)tangent of source type ty shaped like the
 * primal `shape` (may be NULL when ty has no arrays). NULL on error. */
const value *json_doc_tangent(heap *h, const json_doc *doc, int ty, const value *shape,
                              const char *what, chad_diag *d);

/* ---- writing ------------------------------------------------------------ */
/* Appends v (of first-order source type ty) as JSON; reals as %.17g.
 * Non-finite reals and function values are errors (CHAD_EXIT_RUNTIME),
 * `what` names the value in the message. Returns 0 or the exit code. */
int json_write_value(chad_buf *b, int ty, const value *v, const char *what, chad_diag *d);

/* Appends a tangent/cotangent v of source type ty (so of type T ty = C ty),
 * made dense: V_ZERO and V_SPARSE are expanded using the primal `shape`
 * (array lengths; may be NULL, then a zero array is written as []). */
int json_write_tangent(chad_buf *b, int ty, const value *v, const value *shape,
                       const char *what, chad_diag *d);

/* 1 iff values of type ty have a JSON form (first order, no linear types). */
int json_type_ok(int ty);

/* ---- flattened tangent coordinates (for Jacobians) ---------------------- */
/* The real coordinates of a tangent of source type ty at the primal `shape`,
 * in JSON order (int and unit have none; of a sum only the primal's side).
 * Count: -1 if shape does not fit ty. */
int64_t json_flat_count(int ty, const value *shape);
/* Adds the tangent v (of T ty, at shape) into out[0..count-1]. NULL, or a
 * static message when v does not fit. */
const char *json_flat_add(int ty, const value *v, const value *shape, double *out);
/* The tangent at shape that is 1 at coordinate k and 0 elsewhere (V_ZERO in
 * every part that does not contain k). NULL when out of heap. */
const value *json_basis_tangent(heap *h, int ty, const value *shape, int64_t k);

#endif
