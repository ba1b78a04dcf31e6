/* Typed JSON <-> values (src/json.c): shapes by type, located errors,
 * number formatting, non-finite output, dense (co)tangent output. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad/eval.h"
#include "chad/json.h"
#include "chad/kernel.h"

#include "check.h"

static heap *h;

/* Reads text as type ty; returns the value or NULL with d set. */
static const value *rd(const char *text, int ty, chad_diag *d) {
  json_doc *doc = json_doc_parse(text, strlen(text), "<t>", d);
  if (!doc) return NULL;
  const value *v = json_doc_value(h, doc, ty, "x", d);
  json_doc_free(doc);
  return v;
}

/* Writes v of type ty; returns a malloc'd string, or NULL with d set. */
static char *wr(int ty, const value *v, chad_diag *d) {
  chad_buf b;
  buf_init(&b);
  if (json_write_value(&b, ty, v, "r", d)) { buf_free(&b); return NULL; }
  return b.data;
}

/* read then write: the normal form of text at ty ("" when reading fails) */
static int roundtrip(const char *text, int ty, const char *want) {
  chad_diag d;
  const value *v = rd(text, ty, &d);
  if (!v) { printf("  read failed: %s\n", d.msg); return 0; }
  char *s = wr(ty, v, &d);
  int ok = s && strcmp(s, want) == 0;
  if (!ok) printf("  %s -> %s, want %s\n", text, s ? s : "(error)", want);
  free(s);
  return ok;
}

/* An input error at line:col whose message contains frag. */
static int err_at(const char *text, int ty, int line, int col, const char *frag) {
  chad_diag d;
  memset(&d, 0, sizeof d);
  const value *v = rd(text, ty, &d);
  int ok = !v && d.exit_code == CHAD_EXIT_INPUT && d.line == line && d.col == col &&
           strcmp(d.file, "<t>") == 0 && strstr(d.msg, frag);
  if (!ok) printf("  %s: got %s:%d:%d %s\n", text, d.file, d.line, d.col, d.msg);
  return ok;
}

static void shapes(int R, int I, int U) {
  printf("reading and writing each type's JSON shape\n");
  int pair = ty_prod(R, I), sum = ty_sum(R, ty_arr(I)), boolean = ty_sum(U, U);
  CHECK(roundtrip("1.5", R, "1.5"));
  CHECK(roundtrip("2", R, "2"));                 /* integer literal for a real */
  CHECK(roundtrip("0.1", R, "0.10000000000000001")); /* 17 significant digits */
  CHECK(roundtrip("-0.0", R, "-0.0"));  /* "-0" would read back as 0 */
  CHECK(roundtrip("1e300", R, "1.0000000000000001e+300"));
  CHECK(roundtrip("-42", I, "-42"));
  CHECK(roundtrip("9007199254740993", I, "9007199254740993")); /* not through double */
  CHECK(roundtrip("null", U, "null"));
  CHECK(roundtrip("[1, 2]", pair, "[1, 2]"));
  CHECK(roundtrip("{\"inl\": 3}", sum, "{\"inl\": 3}"));
  CHECK(roundtrip("{\"inr\": [1,2]}", sum, "{\"inr\": [1, 2]}"));
  CHECK(roundtrip("true", boolean, "true"));
  CHECK(roundtrip("{\"inr\": null}", boolean, "false"));
  CHECK(roundtrip("[]", ty_arr(R), "[]"));
  CHECK(roundtrip(" [[1],[2.5,3]] ", ty_arr(ty_arr(R)), "[[1], [2.5, 3]]"));
}

static void errors(int R, int I, int U) {
  printf("shape errors are located at the offending value\n");
  int pr = ty_prod(R, ty_prod(R, R));
  CHECK(err_at("\"a\"", R, 1, 1, "expected a number"));
  CHECK(err_at("1.5", I, 1, 1, "expected an integer"));
  CHECK(err_at("0", U, 1, 1, "expected null"));
  CHECK(err_at("[1, [2, \"x\"]]", pr, 1, 9, "expected a number"));
  CHECK(err_at("[1,\n  [2, 3, 4]]", pr, 2, 3, "pair"));
  CHECK(err_at("{\"inl\": 1, \"inr\": 2}", ty_sum(R, R), 1, 1, "inl"));
  CHECK(err_at("{\"left\": 1}", ty_sum(R, R), 1, 1, "\"inl\" or \"inr\""));
  CHECK(err_at("{\"inr\": \"s\"}", ty_sum(R, R), 1, 9, "expected a number"));
  CHECK(err_at("[1, 2, {\"k\": 1}]", ty_arr(R), 1, 8, "found an object"));
  CHECK(err_at("[\"a,]\\\"\", 5]", ty_arr(I), 1, 2, "found a string"));
  CHECK(err_at("true", ty_sum(R, U), 1, 1, "expected {\"inl\""));
  printf("syntax errors carry jansson's line and column\n");
  chad_diag d;
  CHECK(!rd("[1,\n 2,]", ty_arr(R), &d) && d.exit_code == CHAD_EXIT_INPUT && d.line == 2 &&
        d.col > 0 && strstr(d.msg, "invalid JSON"));
  CHECK(!rd("", R, &d) && d.exit_code == CHAD_EXIT_INPUT && d.line >= 1 && d.col >= 1);
  CHECK(!rd("{\"a\":1,\"a\":2}", R, &d) && strstr(d.msg, "duplicate"));
  CHECK(!rd("1e999", R, &d) && d.exit_code == CHAD_EXIT_INPUT);
  CHECK(!rd("99999999999999999999", I, &d) && d.exit_code == CHAD_EXIT_INPUT);
}

static void params(int R, int I) {
  printf("parameter lists: array or object keyed by name\n");
  int tys[2] = {R, ty_arr(I)};
  const char *names[2] = {"x", "ys"};
  const value *out[2];
  chad_diag d;
  json_doc *doc = json_doc_parse("[2.5, [1, 2]]", 13, "<args>", &d);
  CHECK(doc && json_doc_params(h, doc, 2, tys, names, out, &d) == 0 && out[0]->u.r == 2.5 &&
        out[1]->u.arr.n == 2 && out[1]->u.arr.elems[1]->u.i == 2);
  json_doc_free(doc);
  const char *obj = "{\"ys\": [7], \"x\": 1}";
  doc = json_doc_parse(obj, strlen(obj), "<args>", &d);
  CHECK(doc && json_doc_params(h, doc, 2, tys, names, out, &d) == 0 && out[0]->u.r == 1.0 &&
        out[1]->u.arr.elems[0]->u.i == 7);
  json_doc_free(doc);
  struct { const char *text; int line, col; const char *frag; } bad[] = {
      {"[1]", 1, 1, "array of 2 values"},
      {"{\"x\": 1}", 1, 1, "missing parameter 'ys'"},
      {"{\"x\": 1, \"z\": 2, \"ys\": []}", 1, 10, "argument: no parameter is named 'z'"},
      {"{\"x\": 1,\n \"ys\": [1, 2.5]}", 2, 12, "argument 'ys'"},
      {"[1, [1, true]]", 1, 9, "argument 'ys'"},
      {"5", 1, 1, "or an object keyed by parameter name"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    memset(&d, 0, sizeof d);
    doc = json_doc_parse(bad[i].text, strlen(bad[i].text), "<args>", &d);
    int rc = doc ? json_doc_params(h, doc, 2, tys, names, out, &d) : -1;
    int ok = rc == CHAD_EXIT_INPUT && d.line == bad[i].line && d.col == bad[i].col &&
             strstr(d.msg, bad[i].frag) && strcmp(d.file, "<args>") == 0;
    if (!ok) printf("  %s: got %d %d:%d %s\n", bad[i].text, rc, d.line, d.col, d.msg);
    CHECK(ok);
    json_doc_free(doc);
  }
}

static void output(int R, int I) {
  printf("non-finite and function outputs are errors\n");
  chad_diag d;
  int arr = ty_arr(R);
  value *a = v_array(h, 2);
  a->u.arr.elems[0] = v_real(h, 1);
  a->u.arr.elems[1] = v_real(h, NAN);
  CHECK(!wr(arr, a, &d) && d.exit_code == CHAD_EXIT_RUNTIME && strstr(d.msg, "r[1]") &&
        strstr(d.msg, "nan"));
  CHECK(!wr(R, v_real(h, -INFINITY), &d) && d.exit_code == CHAD_EXIT_RUNTIME &&
        strstr(d.msg, "-inf"));
  CHECK(!wr(ty_fun(R, R), v_real(h, 1), &d) && d.exit_code == CHAD_EXIT_INPUT &&
        strstr(d.msg, "function"));
  CHECK(!json_type_ok(ty_prod(R, ty_fun(I, R))) && json_type_ok(ty_arr(ty_sum(R, I))));
}

static char *wt(int ty, const value *v, const value *shape) {
  chad_buf b;
  chad_diag d;
  buf_init(&b);
  if (json_write_tangent(&b, ty, v, shape, "g", &d)) {
    printf("  tangent write failed: %s\n", d.msg);
    buf_free(&b);
    return NULL;
  }
  return b.data;
}

static int streq_free(char *s, const char *want) {
  int ok = s && strcmp(s, want) == 0;
  if (!ok) printf("  got %s, want %s\n", s ? s : "(null)", want);
  free(s);
  return ok;
}

/* Reads text as a tangent of ty at the primal shape: its flat coordinates
 * (json_flat_add: the present side of a sum only) into flat[0..n), or an
 * input error whose column and message are checked (col 0: a success). */
static int rd_tan(int ty, const value *shape, const char *text, double *flat, int64_t n,
                  int col, const char *frag) {
  chad_diag d;
  memset(&d, 0, sizeof d);
  json_doc *doc = json_doc_parse(text, strlen(text), "<tangent>", &d);
  const value *t = doc ? json_doc_tangent(h, doc, ty, shape, "tangent", &d) : NULL;
  json_doc_free(doc);
  if (col) {
    int ok = !t && d.exit_code == CHAD_EXIT_INPUT && d.col == col && strstr(d.msg, frag);
    if (!ok) printf("  %s: want an error at column %d (%s), got %s\n", text, col, frag, t ? "a value" : d.msg);
    return ok;
  }
  if (!t) { printf("  %s: %s\n", text, d.msg); return 0; }
  if (json_flat_count(ty, shape) != n) return 0;
  for (int64_t k = 0; k < n; k++) flat[k] = 0.0;
  return json_flat_add(ty, t, shape, flat) == NULL;
}

/* A sum's tangent [left, right]: the present side is read against its
 * primal (an array of the primal's length), the side that is not present
 * has no primal to fit and contributes nothing. */
static void sum_tangents(int R) {
  printf("a sum's tangent: the present side fits the primal, the other side is not used\n");
  chad_diag d;
  int ar = ty_arr(R), st = ty_sum(ar, ar);
  const value *inl = rd("{\"inl\": [1, 2]}", st, &d), *inr = rd("{\"inr\": [1, 2]}", st, &d);
  CHECK(inl && inr);
  double f[2] = {0, 0};
  CHECK(rd_tan(st, inl, "[[0.5, -1], null]", f, 2, 0, "") && f[0] == 0.5 && f[1] == -1);
  CHECK(rd_tan(st, inr, "[null, [0.25, 4]]", f, 2, 0, "") && f[0] == 0.25 && f[1] == 4);
  /* the side not present: any length, and not one of the coordinates */
  CHECK(rd_tan(st, inl, "[[0.5, -1], [7, 8, 9]]", f, 2, 0, "") && f[0] == 0.5 && f[1] == -1);
  CHECK(rd_tan(st, inr, "[[7, 8, 9], [0.25, 4]]", f, 2, 0, "") && f[0] == 0.25 && f[1] == 4);
  CHECK(rd_tan(st, inr, "[[7], [0.25, 4]]", f, 2, 0, "") && f[0] == 0.25 && f[1] == 4);
  /* the present side of the wrong length: an error at that side */
  CHECK(rd_tan(st, inl, "[[0.5, -1, 3], null]", f, 2, 2, "length 2"));
  CHECK(rd_tan(st, inr, "[null, [0.25, 4, 1]]", f, 2, 8, "length 2"));
  CHECK(rd_tan(st, inr, "[[1, 2], [0.25]]", f, 2, 10, "length 2"));
  CHECK(rd_tan(st, inl, "[1, 2, 3]", f, 2, 1, "a sum's tangent"));
}

static void tangents(int R, int I) {
  printf("tangents are written densely, shaped like the primal\n");
  chad_diag d;
  eval_error err;
  eval_error_clear(&err);
  int ty = ty_prod(ty_arr(R), ty_prod(I, R));
  const value *shape = rd("[[1, 2, 3], [4, 5]]", ty, &d);
  CHECK(shape != NULL);
  CHECK(streq_free(wt(ty, v_zero(h), shape), "[[0, 0, 0], [null, 0]]"));
  /* sparse with a repeated index, through plus (splice entries) */
  const value *s = v_plus(h, v_onehot(h, 2, v_real(h, 1.5), &err),
                          v_plus(h, v_onehot(h, 0, v_real(h, 1), &err),
                                 v_onehot(h, 2, v_real(h, 0.25), &err), &err), &err);
  CHECK(s && err.exit_code == 0);
  CHECK(streq_free(wt(ty, v_pair(h, s, v_pair(h, v_unit(h), v_real(h, -2))), shape),
                   "[[1, 0, 1.75], [null, -2]]"));
  const value *oob = v_onehot(h, 3, v_real(h, 1), &err);
  chad_buf b;
  buf_init(&b);
  CHECK(json_write_tangent(&b, ty, v_pair(h, oob, v_zero(h)), shape, "g", &d) ==
        CHAD_EXIT_RUNTIME && strstr(d.msg, "out of bounds"));
  buf_free(&b);
  /* a sum's tangent: [left, right], the unused side zero */
  int st = ty_sum(ty_arr(R), R);
  const value *inl = rd("{\"inl\": [1, 2]}", st, &d);
  CHECK(streq_free(wt(st, v_zero(h), inl), "[[0, 0], 0]"));
  printf("tangents are read against the primal's shape\n");
  json_doc *doc = json_doc_parse("[[0.5, null, 1], null]", 22, "<tangent>", &d);
  const value *t = doc ? json_doc_tangent(h, doc, ty, shape, "tangent", &d) : NULL;
  CHECK(t && streq_free(wt(ty, t, shape), "[[0.5, 0, 1], [null, 0]]"));
  json_doc_free(doc);
  doc = json_doc_parse("[[1, 2], null]", 14, "<tangent>", &d);
  CHECK(doc && !json_doc_tangent(h, doc, ty, shape, "tangent", &d) && d.line == 1 &&
        d.col == 2 && strstr(d.msg, "length 3"));
  json_doc_free(doc);
  sum_tangents(R);
  printf("flattened coordinates and basis tangents\n");
  CHECK(json_flat_count(ty, shape) == 4);
  /* a shape that does not fit its type: -1, never a count */
  CHECK(json_flat_count(ty_prod(R, ty_arr(R)), v_pair(h, v_real(h, 1.0), v_real(h, 2.0))) == -1);
  CHECK(json_flat_count(ty_fun(R, R), v_real(h, 1.0)) == -1);
  for (int64_t k = 0; k < 4; k++) {
    const value *e = json_basis_tangent(h, ty, shape, k);
    double flat[4] = {0, 0, 0, 0};
    CHECK(e && json_flat_add(ty, e, shape, flat) == NULL);
    for (int64_t j = 0; j < 4; j++) CHECK(flat[j] == (j == k ? 1.0 : 0.0));
  }
}

int main(void) {
  ty_init();
  h = heap_new((size_t)64 << 20);
  int R = TY_ID_REAL, I = TY_ID_INT, U = TY_ID_UNIT;
  shapes(R, I, U);
  errors(R, I, U);
  params(R, I);
  output(R, I);
  tangents(R, I);
  heap_free(h);
  printf("test_json: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
