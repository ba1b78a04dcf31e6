/* libFuzzer harness for the typed JSON reader and writer (src/json.c).
 *
 * Input: one selector byte, then JSON text. The selector picks a type and a
 * mode. Properties checked beyond "no crash, no leak, no UB":
 *  - an input error has a place (line, col >= 1) and the right file name;
 *  - whatever reads successfully writes successfully, and reading the written
 *    text back writes the same text again (write . read is idempotent);
 *  - the zero tangent at any read value is written densely without error.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad/eval.h"
#include "chad/json.h"
#include "chad/kernel.h"

#define NTYPES 12
static int types[NTYPES];

static void init_types(void) {
  int R = TY_ID_REAL, I = TY_ID_INT, U = TY_ID_UNIT;
  ty_init();
  types[0] = R;
  types[1] = I;
  types[2] = U;
  types[3] = ty_sum(U, U);
  types[4] = ty_prod(R, I);
  types[5] = ty_sum(R, ty_arr(I));
  types[6] = ty_arr(R);
  types[7] = ty_arr(ty_arr(R));
  types[8] = ty_arr(ty_prod(R, ty_sum(I, U)));
  types[9] = ty_prod(ty_prod(R, ty_arr(R)), ty_arr(ty_arr(I)));
  types[10] = ty_sum(ty_prod(R, R), ty_sum(U, ty_arr(R)));
  types[11] = ty_arr(ty_sum(ty_arr(R), R));
}

static void check_place(const chad_diag *d, const char *file) {
  if (d->exit_code == CHAD_EXIT_INPUT && (d->line < 1 || d->col < 1 || strcmp(d->file, file)))
    abort();
}

/* Writes v; returns the text (malloc'd) or NULL. Non-finite numbers cannot
 * be read, so any write failure of a read value is a bug. */
static char *write_or_die(int ty, const value *v) {
  chad_buf b;
  chad_diag d;
  buf_init(&b);
  if (json_write_value(&b, ty, v, "v", &d)) abort();
  return b.data;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int ready;
  if (!ready) { init_types(); ready = 1; }
  if (size < 1) return 0;
  int sel = data[0];
  int ty = types[sel % NTYPES];
  int mode = (sel / NTYPES) % 3;   /* 0 value, 1 parameter list, 2 tangent */
  const char *text = (const char *)data + 1;
  size_t len = size - 1;
  heap *h = heap_new((size_t)16 << 20);
  if (!h) return 0;
  chad_diag d;
  memset(&d, 0, sizeof d);
  json_doc *doc = json_doc_parse(text, len, "<f>", &d);
  if (!doc) { check_place(&d, "<f>"); heap_free(h); return 0; }
  if (mode == 1) {
    int tys[2] = {ty, types[(sel / 7) % NTYPES]};
    const char *names[2] = {"a", "b"};
    const value *out[2];
    if (json_doc_params(h, doc, 2, tys, names, out, &d) == 0) {
      free(write_or_die(tys[0], out[0]));
      free(write_or_die(tys[1], out[1]));
    } else {
      check_place(&d, "<f>");
    }
  } else if (mode == 2) {
    /* a tangent at the primal read from the same text, if it is one */
    const value *shape = json_doc_value(h, doc, ty, "p", &d);
    const value *t = json_doc_tangent(h, doc, ty, shape, "t", &d);
    if (t && shape) {
      chad_buf b;
      buf_init(&b);
      if (json_write_tangent(&b, ty, t, shape, "t", &d)) abort();
      buf_free(&b);
    } else if (!t) {
      check_place(&d, "<f>");
    }
  } else {
    const value *v = json_doc_value(h, doc, ty, "v", &d);
    if (!v) {
      check_place(&d, "<f>");
    } else {
      char *s1 = write_or_die(ty, v);
      json_doc *doc2 = json_doc_parse(s1, strlen(s1), "<w>", &d);
      if (!doc2) abort();
      const value *v2 = json_doc_value(h, doc2, ty, "v", &d);
      if (!v2) abort();
      char *s2 = write_or_die(ty, v2);
      if (strcmp(s1, s2) != 0) abort();
      chad_buf b;
      buf_init(&b);
      if (json_write_tangent(&b, ty, v_zero(h), v, "z", &d)) abort();
      buf_free(&b);
      free(s1);
      free(s2);
      json_doc_free(doc2);
    }
  }
  json_doc_free(doc);
  heap_free(h);
  return 0;
}
