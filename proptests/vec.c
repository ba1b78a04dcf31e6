/* First-order values <-> vectors of reals: inputs, tangents, cotangents.
 * Tangent and cotangent values may use the evaluator's length-free zero
 * (V_ZERO) and sparse array cotangents (V_SPARSE, read through
 * pt_sparse_each: their entry lists may contain splices); they are densified
 * here against the shape of the primal value. */
#include <stdlib.h>
#include "certified/ball.h"
#include "pt.h"

static void oom(void) {
  fprintf(stderr, "proptest: heap exhausted while building a test value\n");
  exit(4);
}
static const value *nn(const value *v) { if (!v) oom(); return v; }

int pt_dim(int ty, const value *v) {
  switch (ty_kind(ty)) {
  case TY_REAL: return 1;
  case TY_INT: case TY_UNIT: return 0;
  case TY_PROD: {
    if (!v || v->kind != V_PAIR) return -1;
    int a = pt_dim(ty_left(ty), v->u.pair.a), b = pt_dim(ty_right(ty), v->u.pair.b);
    return (a < 0 || b < 0) ? -1 : a + b;
  }
  case TY_ARR: {
    if (!v || v->kind != V_ARRAY) return -1;
    int n = 0;
    for (int64_t i = 0; i < v->u.arr.n; i++) {
      int d = pt_dim(ty_left(ty), v->u.arr.elems[i]);
      if (d < 0) return -1;
      n += d;
    }
    return n;
  }
  default: return -1;
  }
}

/* What a real contributes when flattened: 0 its double (the midpoint of a
 * ball), 1 the radius of its ball (0 for a double) as an upper bound. */
int pt_flatten_radius = 0;

static double real_part(const value *v) {
  if (pt_flatten_radius) return v->u.ball ? mag_get_d(arb_radref(&v->u.ball->b)) : 0.0;
  return v->u.r;
}

int pt_flatten(int ty, const value *v, double *out) {
  switch (ty_kind(ty)) {
  case TY_REAL:
    if (!v || v->kind != V_REAL) return -1;
    out[0] = real_part(v);
    return 1;
  case TY_INT: case TY_UNIT: return 0;
  case TY_PROD: {
    if (!v || v->kind != V_PAIR) return -1;
    int a = pt_flatten(ty_left(ty), v->u.pair.a, out);
    if (a < 0) return -1;
    int b = pt_flatten(ty_right(ty), v->u.pair.b, out + a);
    return b < 0 ? -1 : a + b;
  }
  case TY_ARR: {
    if (!v || v->kind != V_ARRAY) return -1;
    int n = 0;
    for (int64_t i = 0; i < v->u.arr.n; i++) {
      int d = pt_flatten(ty_left(ty), v->u.arr.elems[i], out + n);
      if (d < 0) return -1;
      n += d;
    }
    return n;
  }
  default: return -1;
  }
}

const value *pt_unflatten(heap *h, int ty, const value *shape, const double *xs, int *pos) {
  switch (ty_kind(ty)) {
  case TY_REAL: return nn(v_real(h, xs[(*pos)++]));
  case TY_INT: case TY_UNIT: return shape;
  case TY_PROD: {
    const value *a = pt_unflatten(h, ty_left(ty), shape->u.pair.a, xs, pos);
    const value *b = pt_unflatten(h, ty_right(ty), shape->u.pair.b, xs, pos);
    return nn(v_pair(h, a, b));
  }
  case TY_ARR: {
    value *a = v_array(h, shape->u.arr.n);
    if (!a) oom();
    for (int64_t i = 0; i < shape->u.arr.n; i++)
      a->u.arr.elems[i] = pt_unflatten(h, ty_left(ty), shape->u.arr.elems[i], xs, pos);
    return a;
  }
  default: return shape;
  }
}

const value *pt_random_value(heap *h, prng *r, int ty, int len) {
  switch (ty_kind(ty)) {
  case TY_REAL: return nn(v_real(h, prng_range(r, -2.0, 2.0)));
  case TY_INT: return nn(v_int(h, prng_below(r, 4)));
  case TY_UNIT: return nn(v_unit(h));
  case TY_PROD: {
    const value *a = pt_random_value(h, r, ty_left(ty), len);
    const value *b = pt_random_value(h, r, ty_right(ty), len);
    return nn(v_pair(h, a, b));
  }
  case TY_ARR: {
    value *a = v_array(h, len);
    if (!a) oom();
    for (int i = 0; i < len; i++) a->u.arr.elems[i] = pt_random_value(h, r, ty_left(ty), len);
    return a;
  }
  default: return nn(v_unit(h));
  }
}

const value *pt_tangent(heap *h, int ty, const value *shape, const double *xs, int *pos) {
  switch (ty_kind(ty)) {
  case TY_REAL: return nn(v_real(h, xs[(*pos)++]));
  case TY_INT: case TY_UNIT: return nn(v_unit(h));
  case TY_PROD: {
    const value *a = pt_tangent(h, ty_left(ty), shape->u.pair.a, xs, pos);
    const value *b = pt_tangent(h, ty_right(ty), shape->u.pair.b, xs, pos);
    return nn(v_pair(h, a, b));
  }
  case TY_ARR: {
    value *a = v_array(h, shape->u.arr.n);
    if (!a) oom();
    for (int64_t i = 0; i < shape->u.arr.n; i++)
      a->u.arr.elems[i] = pt_tangent(h, ty_left(ty), shape->u.arr.elems[i], xs, pos);
    return a;
  }
  default: return nn(v_unit(h));
  }
}

static int add_lin(int ty, const value *shape, const value *lv, double *out);

/* One entry of a sparse array cotangent, added into its element's slots. */
typedef struct {
  int elem_ty;
  const value *shape;   /* the primal array */
  const int *off;       /* off[i]: first slot of element i */
  double *out;
} sparse_add;

static int add_entry(void *cx, int64_t index, const value *v) {
  const sparse_add *a = cx;
  if (index < 0 || index >= a->shape->u.arr.n) return -1;
  return add_lin(a->elem_ty, a->shape->u.arr.elems[index], v, a->out + a->off[index]) < 0 ? -1 : 0;
}

/* Adds the linear value lv (of T ty, shaped like primal `shape`) into out. */
static int add_lin(int ty, const value *shape, const value *lv, double *out) {
  if (!lv) return -1;
  int d = pt_dim(ty, shape);
  if (d < 0) return -1;
  if (lv->kind == V_ZERO) return d;
  switch (ty_kind(ty)) {
  case TY_REAL:
    if (lv->kind != V_REAL) return -1;
    out[0] += real_part(lv);
    return 1;
  case TY_INT: case TY_UNIT:
    return lv->kind == V_UNIT ? 0 : -1;
  case TY_PROD: {
    if (lv->kind != V_PAIR) return -1;
    int a = add_lin(ty_left(ty), shape->u.pair.a, lv->u.pair.a, out);
    if (a < 0) return -1;
    int b = add_lin(ty_right(ty), shape->u.pair.b, lv->u.pair.b, out + a);
    return b < 0 ? -1 : d;
  }
  case TY_ARR: {
    int64_t n = shape->u.arr.n;
    int off[PT_MAX_DIM + 1];
    if (n > PT_MAX_DIM) return -1;
    off[0] = 0;
    for (int64_t i = 0; i < n; i++) off[i + 1] = off[i] + pt_dim(ty_left(ty), shape->u.arr.elems[i]);
    if (lv->kind == V_ARRAY) {
      if (lv->u.arr.n != n) return -1;
      for (int64_t i = 0; i < n; i++)
        if (add_lin(ty_left(ty), shape->u.arr.elems[i], lv->u.arr.elems[i], out + off[i]) < 0) return -1;
      return d;
    }
    if (lv->kind == V_SPARSE) {
      /* through the evaluator's iterator: the list may hold splice entries */
      sparse_add a = {ty_left(ty), shape, off, out};
      return pt_sparse_each(lv, add_entry, &a) == 0 ? d : -1;
    }
    return -1;
  }
  default: return -1;
  }
}

int pt_flatten_lin(int ty, const value *shape, const value *lv, double *out) {
  int d = pt_dim(ty, shape);
  if (d < 0) return -1;
  for (int i = 0; i < d; i++) out[i] = 0.0;
  return add_lin(ty, shape, lv, out);
}

void pt_print_json(FILE *f, int ty, const value *v) {
  if (!v) { fputs("null", f); return; }
  switch (v->kind) {
  case V_REAL: fprintf(f, "%.17g", v->u.r); break;
  case V_INT: fprintf(f, "%lld", (long long)v->u.i); break;
  case V_UNIT: case V_ZERO: fputs("null", f); break;
  case V_PAIR:
    fputc('[', f); pt_print_json(f, ty_left(ty), v->u.pair.a); fputs(", ", f);
    pt_print_json(f, ty_right(ty), v->u.pair.b); fputc(']', f);
    break;
  case V_INL: fputs("{\"inl\": ", f); pt_print_json(f, ty_left(ty), v->u.pair.a); fputc('}', f); break;
  case V_INR: fputs("{\"inr\": ", f); pt_print_json(f, ty_right(ty), v->u.pair.a); fputc('}', f); break;
  case V_ARRAY:
    fputc('[', f);
    for (int64_t i = 0; i < v->u.arr.n; i++) {
      if (i) fputs(", ", f);
      pt_print_json(f, ty_left(ty), v->u.arr.elems[i]);
    }
    fputc(']', f);
    break;
  default: fputs("\"<non-first-order>\"", f);
  }
}

const env *pt_env(heap *h, const pt_program *p, const value **args) {
  const env *e = NULL;
  for (int i = 0; i < p->nparams; i++) {
    e = env_push(h, e, args[i]);
    if (!e) oom();
  }
  return e;
}

const value *pt_ctx_lin(heap *h, const pt_program *p, const value **args, const double *xs) {
  const value *u = nn(v_unit(h));
  int pos = 0;
  for (int i = 0; i < p->nparams; i++)
    u = nn(v_pair(h, u, pt_tangent(h, p->param_ty[i], args[i], xs, &pos)));
  return u;
}

/* C G = (((Unit, C t0), C t1), ...): peel from the innermost (last) param. */
static int ctx_add(const pt_program *p, const value **args, int upto, const value *lv, double *out, const int *off) {
  if (upto == 0) return (lv && (lv->kind == V_UNIT || lv->kind == V_ZERO)) ? 0 : -1;
  if (!lv) return -1;
  if (lv->kind == V_ZERO) return 0;
  if (lv->kind != V_PAIR) return -1;
  if (ctx_add(p, args, upto - 1, lv->u.pair.a, out, off) < 0) return -1;
  return add_lin(p->param_ty[upto - 1], args[upto - 1], lv->u.pair.b, out + off[upto - 1]) < 0 ? -1 : 0;
}

int pt_ctx_lin_flatten(const pt_program *p, const value **args, const value *lv, double *out) {
  int off[PT_MAX_PARAMS + 1];
  off[0] = 0;
  for (int i = 0; i < p->nparams; i++) off[i + 1] = off[i] + pt_dim(p->param_ty[i], args[i]);
  for (int i = 0; i < off[p->nparams]; i++) out[i] = 0.0;
  if (ctx_add(p, args, p->nparams, lv, out, off) < 0) return -1;
  return off[p->nparams];
}
