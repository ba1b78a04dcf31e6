/* Typed JSON <-> runtime values; see include/chad/json.h for the shapes.
 *
 * jansson parses and validates the text; it keeps no positions of values, so
 * an error about a value's shape is located by re-scanning the (already
 * valid) text along the path of array/object ordinals that led to it. */
#include "json_text.h"
#include "certified/ball.h"
#include "chad/json.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad/eval.h"
#include "chad/kernel.h"

/* ======================================================================= */
/* Output buffer                                                           */
/* ======================================================================= */
void buf_init(chad_buf *b) { memset(b, 0, sizeof *b); }

void buf_free(chad_buf *b) {
  free(b->data);
  buf_init(b);
}

static int buf_reserve(chad_buf *b, size_t extra) {
  if (b->oom) return 0;
  if (extra > SIZE_MAX / 2 - b->len) { b->oom = 1; return 0; }
  if (b->len + extra + 1 <= b->cap) return 1;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + extra + 1) cap *= 2;
  char *p = realloc(b->data, cap);
  if (!p) { b->oom = 1; return 0; }
  b->data = p;
  b->cap = cap;
  return 1;
}

void buf_puts(chad_buf *b, const char *s) {
  size_t n = strlen(s);
  if (!buf_reserve(b, n)) return;
  memcpy(b->data + b->len, s, n + 1);
  b->len += n;
}

void buf_printf(chad_buf *b, const char *fmt, ...) {
  char small[128];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) { b->oom = 1; return; }
  if ((size_t)n < sizeof small) { buf_puts(b, small); return; }
  if (!buf_reserve(b, (size_t)n)) return;
  va_start(ap, fmt);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

/* ======================================================================= */
/* Documents                                                               */
/* ======================================================================= */
struct json_doc {
  json_t *root;
  char *text;
  size_t len;
  char file[256];
  int ints_as_real;   /* parsed with JSON_DECODE_INT_AS_REAL (an integer
                         literal beyond int64): ints are read from the text */
};

/* jansson's memory, counted against a budget (json_set_mem_limit): a JSON
 * text of small numbers takes ~37 bytes of jansson per byte of text, so
 * without a budget a 64 MiB input could take 2.5 GB. Installed around
 * json_loadb and json_decref only (the documents' json_t are all made and
 * freed by them), so a host program's own jansson use is left alone. */
static size_t json_mem_limit = (size_t)1 << 30, json_mem_used;
static int json_mem_over;

void json_set_mem_limit(size_t bytes) { json_mem_limit = bytes; }

typedef union { size_t n; max_align_t align; } mem_head;

static void *counted_malloc(size_t n) {
  /* json_mem_used <= json_mem_limit always: no wrap below */
  if (n > json_mem_limit - json_mem_used || json_mem_limit - json_mem_used - n < sizeof(mem_head)) {
    json_mem_over = 1;
    return NULL;
  }
  mem_head *h = malloc(sizeof *h + n);
  if (!h) return NULL;
  h->n = n + sizeof *h;
  json_mem_used += h->n;
  return h + 1;
}

static void counted_free(void *p) {
  if (!p) return;
  mem_head *h = (mem_head *)p - 1;
  json_mem_used -= h->n;
  free(h);
}

static json_malloc_t saved_malloc;
static json_free_t saved_free;
static void counted_on(void) {
  json_get_alloc_funcs(&saved_malloc, &saved_free);
  json_set_alloc_funcs(counted_malloc, counted_free);
}
static void counted_off(void) { json_set_alloc_funcs(saved_malloc, saved_free); }

json_t *json_tree_parse(const char *text, size_t len, const char *file, int *ints_as_real,
                        chad_diag *d) {
  json_error_t err;
  *ints_as_real = 0;
  if (len > JSON_MAX_TEXT) {
    int line, col;
    diag_locate(text, len, JSON_MAX_TEXT, &line, &col);
    diag_set(d, CHAD_EXIT_INPUT, file, line, col, "too large: more than %zu bytes (the limit of a JSON input)",
             JSON_MAX_TEXT);
    return NULL;
  }
  json_mem_over = 0;
  counted_on();
  json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &err);
  if (!root && !json_mem_over && strstr(err.text, "too big")) {
    /* an integer literal beyond int64 (jansson's "too big integer"): a
     * valid number for a real; read every number as a double, and ints
     * again from the text (json_int_literal) */
    json_error_t err2;
    root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL,
                      &err2);
    *ints_as_real = root != NULL;
  }
  counted_off();
  if (!root && json_mem_over) {
    diag_set(d, CHAD_EXIT_RUNTIME, file, 1, 1,
             "heap limit reached while reading JSON (%zu bytes of text)", len);
    return NULL;
  }
  if (!root) {
    /* jansson's column is that of the last character it read; a premature
     * end of input has column 0 on a fresh line: report it as column 1. */
    int line = err.line > 0 ? err.line : 1, col = err.column > 0 ? err.column : 1;
    /* jansson counts LF only: with a lone CR, the line of its last character */
    if (err.position > 0 && memchr(text, '\r', len))
      diag_locate(text, len, (size_t)err.position - 1, &line, &col);
    diag_set(d, CHAD_EXIT_INPUT, file, line, col, "invalid JSON: %s", err.text);
    return NULL;
  }
  return root;
}

void json_tree_free(json_t *root) {
  counted_on();
  json_decref(root);
  counted_off();
}

int json_int_literal(const char *at, size_t n, int64_t *x) {
  size_t k = 0;
  while (k < n && (at[k] == '-' || (at[k] >= '0' && at[k] <= '9'))) k++;
  if (k < n && (at[k] == '.' || at[k] == 'e' || at[k] == 'E')) return 1;
  errno = 0;
  long long v = strtoll(at, NULL, 10);
  if (errno == ERANGE) return 2;
  *x = (int64_t)v;
  return 0;
}

json_doc *json_doc_parse(const char *text, size_t len, const char *file, chad_diag *d) {
  int ints_as_real;
  json_t *root = json_tree_parse(text, len, file, &ints_as_real, d);
  if (!root) return NULL;
  json_doc *doc = calloc(1, sizeof *doc);
  char *copy = malloc(len + 1);
  if (!doc || !copy) {
    free(doc);
    free(copy);
    json_tree_free(root);
    diag_set(d, CHAD_EXIT_RUNTIME, file, 0, 0, "out of memory reading JSON");
    return NULL;
  }
  memcpy(copy, text, len);
  copy[len] = '\0';
  doc->root = root;
  doc->ints_as_real = ints_as_real;
  doc->text = copy;
  doc->len = len;
  snprintf(doc->file, sizeof doc->file, "%s", file);
  return doc;
}

void json_doc_free(json_doc *doc) {
  if (!doc) return;
  json_tree_free(doc->root);
  free(doc->text);
  free(doc);
}

/* ---- locating a value in the text ------------------------------------- */
/* Position of the value reached from the root by path[0..depth-1], each an
 * ordinal among an array's elements or an object's members. The text is
 * valid JSON (jansson accepted it), so the scan is simple. */
static const char *locate(const json_doc *doc, const int *path, int depth, int at_key, int *line,
                          int *col) {
  json_cursor c = {doc->text, doc->text + doc->len, 1, 1};
  json_cur_ws(&c);
  for (int k = 0; k < depth && c.p < c.end; k++) {
    int object = *c.p == '{';
    json_cur_adv(&c);
    json_cur_ws(&c);
    for (int i = 0; i <= path[k] && c.p < c.end; i++) {
      if (object) {
        if (i == path[k] && k == depth - 1 && at_key) break;   /* the member's key */
        json_cur_string(&c);
        json_cur_ws(&c);
        json_cur_adv(&c);        /* ':' */
        json_cur_ws(&c);
      }
      if (i == path[k]) break;
      json_cur_value(&c);
      json_cur_ws(&c);
      json_cur_adv(&c);          /* ',' */
      json_cur_ws(&c);
    }
  }
  *line = c.line;
  *col = c.col;
  return c.p;
}

/* ======================================================================= */
/* Reading                                                                 */
/* ======================================================================= */
#define MAX_PATH (JSON_PARSER_MAX_DEPTH + 8)

typedef struct reader {
  heap *h;
  const json_doc *doc;
  chad_diag *d;
  const char *what;      /* "parameter 'x'", "the cotangent", ...        */
  int path[MAX_PATH];
  int depth;
  int at_key;            /* locate the last object member's key, not value */
  int failed;
} reader;

static const char *json_kind_name(const json_t *j) {
  switch (json_typeof(j)) {
  case JSON_OBJECT: return "an object";
  case JSON_ARRAY: return "an array";
  case JSON_STRING: return "a string";
  case JSON_INTEGER: return "an integer";
  case JSON_REAL: return "a real number";
  case JSON_TRUE: return "true";
  case JSON_FALSE: return "false";
  case JSON_NULL: return "null";
  }
  return "a JSON value";
}

static const value *rd_fail(reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const value *rd_fail(reader *r, const char *fmt, ...) {
  if (r->failed) return NULL;
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  int line, col;
  locate(r->doc, r->path, r->depth, r->at_key, &line, &col);
  diag_set(r->d, CHAD_EXIT_INPUT, r->doc->file, line, col, "%s: %s", r->what, msg);
  r->failed = 1;
  return NULL;
}

static const value *rd_oom(reader *r) {
  if (!r->failed) {
    int line, col;
    locate(r->doc, r->path, r->depth, 0, &line, &col);
    diag_set(r->d, CHAD_EXIT_RUNTIME, r->doc->file, line, col,
             "%s: heap limit reached while reading JSON", r->what);
  }
  r->failed = 1;
  return NULL;
}

static int rd_push(reader *r, int ordinal) {
  if (r->depth >= MAX_PATH) { rd_fail(r, "nested too deeply"); return 0; }
  r->path[r->depth++] = ordinal;
  return 1;
}

static int is_unit_sum(int ty) {
  return ty_kind(ty) == TY_SUM && ty_kind(ty_left(ty)) == TY_UNIT &&
         ty_kind(ty_right(ty)) == TY_UNIT;
}

static const value *rd_value(reader *r, int ty, const json_t *j);

static const value *rd_child(reader *r, int ty, const json_t *j, int ordinal) {
  if (!rd_push(r, ordinal)) return NULL;
  const value *v = rd_value(r, ty, j);
  r->depth--;
  return v;
}

static const value *rd_value(reader *r, int ty, const json_t *j) {
  const value *v = NULL;
  switch (ty_kind(ty)) {
  case TY_REAL:
    if (json_is_real(j)) v = v_real(r->h, json_real_value(j));
    else if (json_is_integer(j)) v = v_real(r->h, (double)json_integer_value(j));
    else return rd_fail(r, "expected a number (real), found %s", json_kind_name(j));
    break;
  case TY_INT:
    if (r->doc->ints_as_real && json_is_real(j)) { /* the literal, from the text */
      int line, col;
      const char *at = locate(r->doc, r->path, r->depth, 0, &line, &col);
      int64_t x = 0;
      int lit = json_int_literal(at, (size_t)(r->doc->text + r->doc->len - at), &x);
      if (lit == 1) return rd_fail(r, "expected an integer, found a real number");
      if (lit == 2) return rd_fail(r, "integer out of the 64-bit range [-2^63, 2^63 - 1]");
      v = v_int(r->h, x);
      break;
    }
    if (!json_is_integer(j))
      return rd_fail(r, "expected an integer, found %s", json_kind_name(j));
    v = v_int(r->h, (int64_t)json_integer_value(j));
    break;
  case TY_UNIT:
    if (!json_is_null(j)) return rd_fail(r, "expected null (unit), found %s", json_kind_name(j));
    v = v_unit(r->h);
    break;
  case TY_PROD: {
    if (!json_is_array(j) || json_array_size(j) != 2)
      return rd_fail(r, "expected a pair [a, b], found %s%s", json_kind_name(j),
                     json_is_array(j) ? " of another length" : "");
    const value *a = rd_child(r, ty_left(ty), json_array_get(j, 0), 0);
    if (!a) return NULL;
    const value *b = rd_child(r, ty_right(ty), json_array_get(j, 1), 1);
    if (!b) return NULL;
    v = v_pair(r->h, a, b);
    break;
  }
  case TY_SUM: {
    if (is_unit_sum(ty) && json_is_boolean(j)) {
      const value *u = v_unit(r->h);
      if (!u) return rd_oom(r);
      v = json_is_true(j) ? v_inl(r->h, u) : v_inr(r->h, u);
      break;
    }
    if (!json_is_object(j) || json_object_size(j) != 1)
      return rd_fail(r, "expected {\"inl\": v} or {\"inr\": v}%s, found %s",
                     is_unit_sum(ty) ? " or a boolean" : "", json_kind_name(j));
    const char *key = json_object_iter_key(json_object_iter((json_t *)j));
    const json_t *x = json_object_iter_value(json_object_iter((json_t *)j));
    int left = strcmp(key, "inl") == 0;
    if (!left && strcmp(key, "inr") != 0)
      return rd_fail(r, "expected the key \"inl\" or \"inr\"");
    const value *a = rd_child(r, left ? ty_left(ty) : ty_right(ty), x, 0);
    if (!a) return NULL;
    v = left ? v_inl(r->h, a) : v_inr(r->h, a);
    break;
  }
  case TY_ARR: {
    if (!json_is_array(j)) return rd_fail(r, "expected an array, found %s", json_kind_name(j));
    size_t n = json_array_size(j);
    if (n > (size_t)INT32_MAX) return rd_fail(r, "array too long");
    value *arr = v_array(r->h, (int64_t)n);
    if (!arr) return rd_oom(r);
    for (size_t i = 0; i < n; i++) {
      const value *e = rd_child(r, ty_left(ty), json_array_get(j, i), (int)i);
      if (!e) return NULL;
      arr->u.arr.elems[i] = e;
    }
    v = arr;
    break;
  }
  default:
    return rd_fail(r, "a value of a function or linear type has no JSON form");
  }
  if (!v) return rd_oom(r);
  return v;
}

/* Tangent/cotangent of source type ty, fitting the primal shape (or NULL).
 * null stands for the zero of any tangent type. */
static const value *rd_tangent(reader *r, int ty, const value *shape, const json_t *j);

static const value *rd_tchild(reader *r, int ty, const value *shape, const json_t *j, int ord) {
  if (!rd_push(r, ord)) return NULL;
  const value *v = rd_tangent(r, ty, shape, j);
  r->depth--;
  return v;
}

static const value *rd_tangent(reader *r, int ty, const value *shape, const json_t *j) {
  const value *v = NULL;
  int k = ty_kind(ty);
  if (json_is_null(j)) {
    v = (k == TY_INT || k == TY_UNIT) ? v_unit(r->h) : v_zero(r->h);
    return v ? v : rd_oom(r);
  }
  switch (k) {
  case TY_REAL:
    if (json_is_real(j)) v = v_real(r->h, json_real_value(j));
    else if (json_is_integer(j)) v = v_real(r->h, (double)json_integer_value(j));
    else return rd_fail(r, "expected a number (real tangent), found %s", json_kind_name(j));
    break;
  case TY_INT:
  case TY_UNIT:
    return rd_fail(r, "expected null (the tangent of int and unit), found %s", json_kind_name(j));
  case TY_PROD:
  case TY_SUM: {
    if (!json_is_array(j) || json_array_size(j) != 2)
      return rd_fail(r, "expected a pair [a, b]%s, found %s",
                     k == TY_SUM ? " (a sum's tangent: [left, right])" : "", json_kind_name(j));
    const value *sa = NULL, *sb = NULL;
    if (shape && k == TY_PROD && shape->kind == V_PAIR) { sa = shape->u.pair.a; sb = shape->u.pair.b; }
    if (shape && shape->kind == V_INL) sa = shape->u.pair.a;
    if (shape && shape->kind == V_INR) sb = shape->u.pair.a;
    const value *a = rd_tchild(r, ty_left(ty), sa, json_array_get(j, 0), 0);
    if (!a) return NULL;
    const value *b = rd_tchild(r, ty_right(ty), sb, json_array_get(j, 1), 1);
    if (!b) return NULL;
    v = v_pair(r->h, a, b);
    break;
  }
  case TY_ARR: {
    if (!json_is_array(j)) return rd_fail(r, "expected an array, found %s", json_kind_name(j));
    size_t n = json_array_size(j);
    if (n > (size_t)INT32_MAX) return rd_fail(r, "array too long");
    if (shape && shape->kind == V_ARRAY && (int64_t)n != shape->u.arr.n)
      return rd_fail(r, "expected an array of length %" PRId64 " (as the primal), found length %zu",
                     shape->u.arr.n, n);
    value *arr = v_array(r->h, (int64_t)n);
    if (!arr) return rd_oom(r);
    for (size_t i = 0; i < n; i++) {
      const value *se = shape && shape->kind == V_ARRAY ? shape->u.arr.elems[i] : NULL;
      const value *e = rd_tchild(r, ty_left(ty), se, json_array_get(j, i), (int)i);
      if (!e) return NULL;
      arr->u.arr.elems[i] = e;
    }
    v = arr;
    break;
  }
  default:
    return rd_fail(r, "a value of a function or linear type has no JSON form");
  }
  if (!v) return rd_oom(r);
  return v;
}

static void rd_start(reader *r, heap *h, const json_doc *doc, const char *what, chad_diag *d) {
  r->h = h;
  r->doc = doc;
  r->d = d;
  r->what = what;
  r->depth = 0;
  r->at_key = 0;
  r->failed = 0;
}

const value *json_doc_value(heap *h, const json_doc *doc, int ty, const char *what, chad_diag *d) {
  reader *r = malloc(sizeof *r);
  if (!r) { diag_set(d, CHAD_EXIT_RUNTIME, doc->file, 0, 0, "out of memory"); return NULL; }
  rd_start(r, h, doc, what, d);
  const value *v = rd_value(r, ty, doc->root);
  free(r);
  return v;
}

const value *json_doc_tangent(heap *h, const json_doc *doc, int ty, const value *shape,
                              const char *what, chad_diag *d) {
  reader *r = malloc(sizeof *r);
  if (!r) { diag_set(d, CHAD_EXIT_RUNTIME, doc->file, 0, 0, "out of memory"); return NULL; }
  rd_start(r, h, doc, what, d);
  const value *v = rd_tangent(r, ty, shape, doc->root);
  free(r);
  return v;
}

/* Shared by json_doc_params and json_doc_param_tangents. */
static int read_params(heap *h, const json_doc *doc, int n, const int *tys,
                       const char *const *names, const value *const *shapes,
                       const value **out, chad_diag *d, const char *noun) {
  reader *r = malloc(sizeof *r);
  if (!r) return diag_set(d, CHAD_EXIT_RUNTIME, doc->file, 0, 0, "out of memory");
  char what[300];
  const json_t *root = doc->root;
  int rc = 0;
  rd_start(r, h, doc, noun, d);
  if (shapes && json_is_null(root)) {
    /* null is the zero of any tangent: here of every parameter's */
    for (int i = 0; i < n; i++) {
      r->what = noun;
      if (!(out[i] = rd_tangent(r, tys[i], shapes[i], root))) { rc = d->exit_code; goto done; }
    }
  } else if (json_is_array(root)) {
    if (json_array_size(root) != (size_t)n) {
      rd_fail(r, "expected an array of %d value%s (one per parameter), found %zu", n,
              n == 1 ? "" : "s", json_array_size(root));
      rc = d->exit_code;
      goto done;
    }
    for (int i = 0; i < n; i++) {
      if (names && names[i]) snprintf(what, sizeof what, "%s '%s'", noun, names[i]);
      else snprintf(what, sizeof what, "%s %d", noun, i + 1);
      r->what = what;
      const json_t *j = json_array_get(root, (size_t)i);
      out[i] = shapes ? rd_tchild(r, tys[i], shapes[i], j, i) : rd_child(r, tys[i], j, i);
      if (!out[i]) { rc = d->exit_code; goto done; }
    }
  } else if (json_is_object(root)) {
    /* Every key must name a parameter; every parameter must be given. */
    const char *key;
    json_t *j;
    int ord = 0;
    json_object_foreach((json_t *)root, key, j) {
      int found = -1;
      for (int i = 0; i < n; i++)
        if (names && names[i] && strcmp(names[i], key) == 0) found = i;
      if (found < 0) {
        r->depth = 1;
        r->path[0] = ord;
        r->at_key = 1;
        r->what = noun;
        rd_fail(r, "no parameter is named '%s'", key);
        rc = d->exit_code;
        goto done;
      }
      snprintf(what, sizeof what, "%s '%s'", noun, key);
      r->what = what;
      out[found] = shapes ? rd_tchild(r, tys[found], shapes[found], j, ord)
                          : rd_child(r, tys[found], j, ord);
      if (!out[found]) { rc = d->exit_code; goto done; }
      ord++;
    }
    for (int i = 0; i < n; i++) {
      if (!names || !names[i] || !json_object_get(root, names[i])) {
        r->what = noun;
        r->depth = 0;
        if (names && names[i]) rd_fail(r, "missing parameter '%s'", names[i]);
        else rd_fail(r, "parameter %d has no name: give the parameters as an array", i + 1);
        rc = d->exit_code;
        goto done;
      }
    }
  } else {
    rd_fail(r, "expected an array of the %d parameter value%s or an object keyed by parameter "
            "name, found %s", n, n == 1 ? "" : "s", json_kind_name(root));
    rc = d->exit_code;
  }
done:
  free(r);
  return rc;
}

int json_doc_params(heap *h, const json_doc *doc, int n, const int *tys,
                    const char *const *names, const value **out, chad_diag *d) {
  return read_params(h, doc, n, tys, names, NULL, out, d, "argument");
}

int json_doc_param_tangents(heap *h, const json_doc *doc, int n, const int *tys,
                            const char *const *names, const value *const *shapes,
                            const value **out, chad_diag *d) {
  /* shapes must be non-NULL to select the tangent reader; a NULL entry is fine */
  static const value *const none[1] = {NULL};
  return read_params(h, doc, n, tys, names, shapes ? shapes : none, out, d, "tangent");
}

/* ======================================================================= */
/* Writing                                                                 */
/* ======================================================================= */
int json_type_ok(int ty) {
  switch (ty_kind(ty)) {
  case TY_REAL: case TY_INT: case TY_UNIT: return 1;
  case TY_PROD: case TY_SUM: return json_type_ok(ty_left(ty)) && json_type_ok(ty_right(ty));
  case TY_ARR: return json_type_ok(ty_left(ty));
  default: return 0;
  }
}

typedef struct writer {
  chad_buf *b;
  chad_diag *d;
  const char *what;
  chad_buf path;   /* e.g. "[1][0]", for messages */
  int failed;
} writer;

static int wr_fail(writer *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int wr_fail(writer *w, const char *fmt, ...) {
  if (w->failed) return 0;
  char msg[300];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  diag_set(w->d, CHAD_EXIT_RUNTIME, "", 0, 0, "%s%s: %s", w->what,
           w->path.data ? w->path.data : "", msg);
  w->failed = 1;
  return 0;
}

/* Certified runs: the tangent being written is summed in balls, beside
 * the doubles (flat_ball[i] for flat_base[i]). */
static double *flat_base;
static arb_ptr flat_ball;
static int64_t flat_n;

static int wr_ball_value(writer *w, const value *v) {
  arb_t x;
  arb_init(x);
  ball_get(v, x);
  ball_write_json(w->b, x);
  arb_clear(x);
  return 1;
}

static int wr_real(writer *w, double x) {
  if (!isfinite(x))
    return wr_fail(w, "the number %s has no JSON form", isnan(x) ? "nan" : x > 0 ? "inf" : "-inf");
  /* "-0" would read back as the integer 0: keep the sign of zero. */
  if (x == 0 && signbit(x)) buf_puts(w->b, "-0.0");
  else buf_printf(w->b, "%.17g", x);
  return 1;
}

static size_t wr_enter(writer *w, int64_t i) {
  size_t mark = w->path.len;
  buf_printf(&w->path, "[%" PRId64 "]", i);
  return mark;
}
static void wr_leave(writer *w, size_t mark) {
  if (w->path.data && !w->path.oom) { w->path.len = mark; w->path.data[mark] = '\0'; }
}

static int wr_value(writer *w, int ty, const value *v) {
  if (!v) return wr_fail(w, "missing value");
  switch (ty_kind(ty)) {
  case TY_REAL:
    if (v->kind != V_ZERO && v->kind != V_REAL) return wr_fail(w, "internal: expected a real value");
    if (cert.active) return wr_ball_value(w, v);
    if (v->kind == V_ZERO) return wr_real(w, 0.0);
    return wr_real(w, v->u.r);
  case TY_INT:
    if (v->kind != V_INT) return wr_fail(w, "internal: expected an int value");
    buf_printf(w->b, "%" PRId64, v->u.i);
    return 1;
  case TY_UNIT:
    buf_puts(w->b, "null");
    return 1;
  case TY_PROD: {
    /* the zero of a pair type (a result of the target language): zeros */
    int zero = v->kind == V_ZERO;
    if (v->kind != V_PAIR && !zero) return wr_fail(w, "internal: expected a pair value");
    size_t m;
    buf_puts(w->b, "[");
    m = wr_enter(w, 0);
    if (!wr_value(w, ty_left(ty), zero ? v : v->u.pair.a)) return 0;
    wr_leave(w, m);
    buf_puts(w->b, ", ");
    m = wr_enter(w, 1);
    if (!wr_value(w, ty_right(ty), zero ? v : v->u.pair.b)) return 0;
    wr_leave(w, m);
    buf_puts(w->b, "]");
    return 1;
  }
  case TY_SUM: {
    if (v->kind != V_INL && v->kind != V_INR) return wr_fail(w, "internal: expected inl/inr");
    int left = v->kind == V_INL;
    if (is_unit_sum(ty)) { buf_puts(w->b, left ? "true" : "false"); return 1; }
    buf_puts(w->b, left ? "{\"inl\": " : "{\"inr\": ");
    size_t m = w->path.len;
    buf_puts(&w->path, left ? ".inl" : ".inr");
    if (!wr_value(w, left ? ty_left(ty) : ty_right(ty), v->u.pair.a)) return 0;
    wr_leave(w, m);
    buf_puts(w->b, "}");
    return 1;
  }
  case TY_ARR: {
    if (v->kind == V_ZERO || v->kind == V_SPARSE)
      return wr_fail(w, "a zero or sparse cotangent array has no length, so no JSON form; add (<+>) a dense "
                        "array of the right length, e.g. map (fun (a : real) -> 0.0) x");
    if (v->kind != V_ARRAY) return wr_fail(w, "internal: expected an array value");
    buf_puts(w->b, "[");
    for (int64_t i = 0; i < v->u.arr.n; i++) {
      if (i) buf_puts(w->b, ", ");
      size_t m = wr_enter(w, i);
      if (!wr_value(w, ty_left(ty), v->u.arr.elems[i])) return 0;
      wr_leave(w, m);
    }
    buf_puts(w->b, "]");
    return 1;
  }
  default:
    return wr_fail(w, "a function value has no JSON form");
  }
}

static int wr_finish(writer *w, int ok) {
  int oom = w->b->oom || w->path.oom;
  buf_free(&w->path);
  if (!ok) return w->d->exit_code;
  if (oom) return diag_set(w->d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory writing JSON");
  return 0;
}

int json_write_value(chad_buf *b, int ty, const value *v, const char *what, chad_diag *d) {
  writer w = {b, d, what, {0}, 0};
  if (!json_type_ok(ty)) {
    buf_free(&w.path);
    return diag_set(d, CHAD_EXIT_INPUT, "", 0, 0,
                    "%s is of a function type, which has no JSON form", what);
  }
  return wr_finish(&w, wr_value(&w, ty, v));
}

/* ---- tangents: flatten onto the primal's reals, then write densely ----- */
/* Number of real coordinates of a value of source type ty shaped like shape
 * (the flattened tangent space, in JSON order). -1 if shape does not fit. */
static int64_t flat_count(int ty, const value *shape) {
  switch (ty_kind(ty)) {
  case TY_REAL: return 1;
  case TY_INT: case TY_UNIT: return 0;
  case TY_PROD: {
    if (!shape || shape->kind != V_PAIR) return -1;
    int64_t a = flat_count(ty_left(ty), shape->u.pair.a);
    int64_t b = flat_count(ty_right(ty), shape->u.pair.b);
    return a < 0 || b < 0 ? -1 : a + b;
  }
  case TY_SUM:
    if (!shape) return -1;
    if (shape->kind == V_INL) return flat_count(ty_left(ty), shape->u.pair.a);
    if (shape->kind == V_INR) return flat_count(ty_right(ty), shape->u.pair.a);
    return -1;
  case TY_ARR: {
    if (!shape || shape->kind != V_ARRAY) return -1;
    int64_t s = 0;
    for (int64_t i = 0; i < shape->u.arr.n; i++) {
      int64_t e = flat_count(ty_left(ty), shape->u.arr.elems[i]);
      if (e < 0) return -1;
      s += e;
    }
    return s;
  }
  default: return -1;
  }
}

/* Adds the tangent v (of T ty, shaped like shape) into out[0..]. Returns 0 on
 * success, or a static message. */
static const char *flat_add(int ty, const value *v, const value *shape, double *out) {
  if (!v) return "missing tangent";
  if (v->kind == V_ZERO) return NULL;
  switch (ty_kind(ty)) {
  case TY_REAL:
    if (v->kind != V_REAL) return "a real tangent is not a number";
    out[0] += v->u.r;
    if (flat_ball && out >= flat_base && out < flat_base + flat_n) {
      arb_t x;
      arb_init(x);
      ball_get(v, x);
      arb_add(flat_ball + (out - flat_base), flat_ball + (out - flat_base), x, cert.prec);
      arb_clear(x);
    }
    return NULL;
  case TY_INT: case TY_UNIT:
    return NULL;
  case TY_PROD: {
    if (v->kind != V_PAIR) return "a pair tangent is not a pair";
    const char *e = flat_add(ty_left(ty), v->u.pair.a, shape->u.pair.a, out);
    if (e) return e;
    return flat_add(ty_right(ty), v->u.pair.b, shape->u.pair.b,
                    out + flat_count(ty_left(ty), shape->u.pair.a));
  }
  case TY_SUM:
    /* T(a+b) = Ta * Tb: only the side of the primal has coordinates; the
     * other side is zero by the CHAD rules and is not observable. */
    if (v->kind != V_PAIR) return "a sum tangent is not a pair";
    if (shape->kind == V_INL) return flat_add(ty_left(ty), v->u.pair.a, shape->u.pair.a, out);
    return flat_add(ty_right(ty), v->u.pair.b, shape->u.pair.a, out);
  case TY_ARR: {
    int et = ty_left(ty);
    int64_t n = shape->u.arr.n;
    if (v->kind == V_ARRAY) {
      if (v->u.arr.n != n) return "an array tangent's length differs from the primal's";
      int64_t off = 0;
      for (int64_t i = 0; i < n; i++) {
        const char *e = flat_add(et, v->u.arr.elems[i], shape->u.arr.elems[i], out + off);
        if (e) return e;
        off += flat_count(et, shape->u.arr.elems[i]);
      }
      return NULL;
    }
    if (v->kind == V_SPARSE) {
      /* offsets of each element, computed once for this array */
      int64_t *offs = malloc((size_t)(n + 1) * sizeof *offs);
      if (!offs) return "out of memory";
      offs[0] = 0;
      for (int64_t i = 0; i < n; i++) offs[i + 1] = offs[i] + flat_count(et, shape->u.arr.elems[i]);
      const char *err = NULL;
      entry_iter it;
      entry_iter_init(&it, v);   /* follows the evaluator's splice entries */
      for (const entry *en; !err && (en = entry_iter_next(&it));) {
        if (en->index < 0 || en->index >= n) err = "a sparse cotangent index is out of bounds";
        else err = flat_add(et, en->v, shape->u.arr.elems[en->index], out + offs[en->index]);
      }
      if (!err && it.oom) err = "out of memory";
      entry_iter_done(&it);
      free(offs);
      return err;
    }
    return "an array tangent is not an array";
  }
  default:
    return "a tangent of a function type has no JSON form";
  }
}

/* Writes the dense tangent from flat[*pos..] following shape. A NULL shape
 * (the unused side of a sum) is written as zero. */
static int wr_flat(writer *w, int ty, const value *shape, const double *flat, int64_t *pos) {
  switch (ty_kind(ty)) {
  case TY_REAL:
    if (flat_ball) {
      if (!shape) {
        arb_t z;
        arb_init(z);
        ball_write_json(w->b, z);
        arb_clear(z);
        return 1;
      }
      ball_write_json(w->b, flat_ball + (*pos)++);
      return 1;
    }
    if (!shape) return wr_real(w, 0.0);
    return wr_real(w, flat[(*pos)++]);
  case TY_INT: case TY_UNIT:
    buf_puts(w->b, "null");
    return 1;
  case TY_PROD: {
    buf_puts(w->b, "[");
    size_t m = wr_enter(w, 0);
    if (!wr_flat(w, ty_left(ty), shape ? shape->u.pair.a : NULL, flat, pos)) return 0;
    wr_leave(w, m);
    buf_puts(w->b, ", ");
    m = wr_enter(w, 1);
    if (!wr_flat(w, ty_right(ty), shape ? shape->u.pair.b : NULL, flat, pos)) return 0;
    wr_leave(w, m);
    buf_puts(w->b, "]");
    return 1;
  }
  case TY_SUM: {
    const value *sa = shape && shape->kind == V_INL ? shape->u.pair.a : NULL;
    const value *sb = shape && shape->kind == V_INR ? shape->u.pair.a : NULL;
    buf_puts(w->b, "[");
    size_t m = wr_enter(w, 0);
    if (!wr_flat(w, ty_left(ty), sa, flat, pos)) return 0;
    wr_leave(w, m);
    buf_puts(w->b, ", ");
    m = wr_enter(w, 1);
    if (!wr_flat(w, ty_right(ty), sb, flat, pos)) return 0;
    wr_leave(w, m);
    buf_puts(w->b, "]");
    return 1;
  }
  case TY_ARR: {
    buf_puts(w->b, "[");
    int64_t n = shape ? shape->u.arr.n : 0;
    for (int64_t i = 0; i < n; i++) {
      if (i) buf_puts(w->b, ", ");
      size_t m = wr_enter(w, i);
      if (!wr_flat(w, ty_left(ty), shape->u.arr.elems[i], flat, pos)) return 0;
      wr_leave(w, m);
    }
    buf_puts(w->b, "]");
    return 1;
  }
  default:
    return wr_fail(w, "a tangent of a function type has no JSON form");
  }
}

int json_write_tangent(chad_buf *b, int ty, const value *v, const value *shape,
                       const char *what, chad_diag *d) {
  writer w = {b, d, what, {0}, 0};
  if (!json_type_ok(ty)) {
    buf_free(&w.path);
    return diag_set(d, CHAD_EXIT_INPUT, "", 0, 0,
                    "%s is of a function type, which has no JSON form", what);
  }
  int64_t n = flat_count(ty, shape);
  if (n < 0) {
    buf_free(&w.path);
    return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "%s: internal: primal shape does not fit its type", what);
  }
  double *flat = calloc((size_t)n + 1, sizeof *flat);
  if (!flat) {
    buf_free(&w.path);
    return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "%s: out of memory", what);
  }
  if (cert.active) {
    flat_base = flat;
    flat_n = n;
    flat_ball = _arb_vec_init(n + 1);
  }
  const char *err = flat_add(ty, v, shape, flat);
  int ok = err ? wr_fail(&w, "%s", err) : 1;
  int64_t pos = 0;
  if (ok) ok = wr_flat(&w, ty, shape, flat, &pos);
  if (flat_ball) _arb_vec_clear(flat_ball, n + 1);
  flat_ball = NULL;
  flat_base = NULL;
  free(flat);
  return wr_finish(&w, ok);
}

int64_t json_flat_count(int ty, const value *shape) { return flat_count(ty, shape); }

const char *json_flat_add(int ty, const value *v, const value *shape, double *out) {
  return flat_add(ty, v, shape, out);
}

const value *json_basis_tangent(heap *h, int ty, const value *shape, int64_t k) {
  switch (ty_kind(ty)) {
  case TY_REAL: return v_real(h, 1.0);  /* the caller only descends to k */
  case TY_INT: case TY_UNIT: return v_unit(h);
  case TY_PROD: {
    int64_t na = flat_count(ty_left(ty), shape->u.pair.a);
    const value *a, *b;
    if (k < na) {
      a = json_basis_tangent(h, ty_left(ty), shape->u.pair.a, k);
      b = v_zero(h);
    } else {
      a = v_zero(h);
      b = json_basis_tangent(h, ty_right(ty), shape->u.pair.b, k - na);
    }
    return a && b ? v_pair(h, a, b) : NULL;
  }
  case TY_SUM: {
    const value *x = shape->kind == V_INL
                         ? json_basis_tangent(h, ty_left(ty), shape->u.pair.a, k) : v_zero(h);
    const value *y = shape->kind == V_INR
                         ? json_basis_tangent(h, ty_right(ty), shape->u.pair.a, k) : v_zero(h);
    return x && y ? v_pair(h, x, y) : NULL;
  }
  case TY_ARR: {
    int64_t n = shape->u.arr.n;
    value *arr = v_array(h, n);
    if (!arr) return NULL;
    const value *z = v_zero(h);
    if (!z) return NULL;
    int64_t off = 0;
    for (int64_t i = 0; i < n; i++) {
      int64_t c = flat_count(ty_left(ty), shape->u.arr.elems[i]);
      if (k >= off && k < off + c) {
        arr->u.arr.elems[i] = json_basis_tangent(h, ty_left(ty), shape->u.arr.elems[i], k - off);
        if (!arr->u.arr.elems[i]) return NULL;
      } else {
        arr->u.arr.elems[i] = z;
      }
      off += c;
    }
    return arr;
  }
  default: return NULL;
  }
}
