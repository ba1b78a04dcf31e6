/* Value utilities: plus and zero at every linear type, sparse array
 * cotangents (onehot, index, the per-heap sorted cache), copower bags,
 * densification for output, approximate equality, inner product, printing.
 * The representation is described in include/chad/eval.h and
 * spec/evaluator.md. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "chad/diag.h"
#include "chad/eval.h"
#include "eval/heap_internal.h"
#include "eval/internal.h"
#include "certified/ball.h"

void eval_error_clear(eval_error *err) {
  if (!err) return;
  err->exit_code = CHAD_EXIT_OK;
  err->term = -1;
  err->depth_exceeded = 0;
  err->msg[0] = '\0';
}

const value *eval_fail(eval_error *err, const char *fmt, ...) {
  if (!err) return NULL;
  err->exit_code = CHAD_EXIT_RUNTIME;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->msg, sizeof err->msg, fmt, ap);
  va_end(ap);
  return NULL;
}

const value *eval_oom(eval_error *err) {
  return eval_fail(err, "out of memory (heap limit reached)");
}

const char *v_kind_name(const value *v) {
  if (!v) return "nothing";
  switch (v->kind) {
  case V_REAL: return "real";
  case V_INT: return "int";
  case V_UNIT: return "unit";
  case V_PAIR: return "pair";
  case V_INL: return "inl";
  case V_INR: return "inr";
  case V_ARRAY: return "array";
  case V_CLOSURE: return "closure";
  case V_ZERO: return "zero";
  case V_SPARSE: return "sparse array";
  case V_BAG: return "bag";
  }
  return "?";
}

/* ---- entry lists ---------------------------------------------------------- */

static int is_entries(const value *v) { return v && (v->kind == V_SPARSE || v->kind == V_BAG); }

void entry_iter_init(entry_iter *it, const value *v) {
  it->cur = is_entries(v) ? v->u.entries.first : NULL;
  it->stack = NULL;
  it->depth = it->cap = 0;
  it->oom = 0;
}

const entry *entry_iter_next(entry_iter *it) {
  for (;;) {
    while (!it->cur) {
      if (it->depth == 0) return NULL;
      it->cur = it->stack[--it->depth];
    }
    const entry *e = it->cur;
    if (e->index != ENTRY_SPLICE) {
      it->cur = e->next;
      return e;
    }
    /* A splice: visit the spliced list now, its continuation later. */
    if (e->next) {
      if (it->depth == it->cap) {
        size_t cap = it->cap ? 2 * it->cap : 16;
        const entry **s = realloc(it->stack, cap * sizeof *s);
        if (!s) { it->oom = 1; return NULL; }
        it->stack = s;
        it->cap = cap;
      }
      it->stack[it->depth++] = e->next;
    }
    it->cur = is_entries(e->v) ? e->v->u.entries.first : NULL;
  }
}

void entry_iter_done(entry_iter *it) {
  free(it->stack);
  it->stack = NULL;
  it->depth = it->cap = 0;
}

static value *new_entries(heap *h, value_kind k, const entry *first, int64_t count) {
  value *v = heap_alloc(h, sizeof *v);
  if (!v) return NULL;
  v->kind = k;
  v->u.entries.first = first;
  v->u.entries.count = count;
  return v;
}

static entry *new_entry(heap *h, int64_t index, const value *key, const value *v,
                        const entry *next) {
  entry *e = heap_alloc(h, sizeof *e);
  if (!e) return NULL;
  e->index = index;
  e->key = key;
  e->v = v;
  e->next = next;
  return e;
}

#define SMALL_LIST 4

/* Number of physical entries of a list, or SMALL_LIST + 1 if more. */
static int short_len(const entry *e) {
  int n = 0;
  for (; e && n <= SMALL_LIST; e = e->next) n++;
  return n;
}

/* Concatenation of two entry lists of kind k in O(1): a short list is copied
 * in front of the other; otherwise two splice entries refer to both. */
static const value *concat(heap *h, value_kind k, const value *a, const value *b,
                           eval_error *err) {
  int64_t count = a->u.entries.count + b->u.entries.count;
  const entry *fa = a->u.entries.first, *fb = b->u.entries.first;
  if (!fa) return b;
  if (!fb) return a;
  if (short_len(fa) > short_len(fb)) {
    const entry *t = fa;
    fa = fb;
    fb = t;
  }
  const entry *first;
  if (short_len(fa) <= SMALL_LIST) {
    /* copy fa's entries (order kept) in front of fb */
    const entry *src[SMALL_LIST];
    int n = 0;
    for (const entry *e = fa; e; e = e->next) src[n++] = e;
    first = fb;
    for (int i = n - 1; i >= 0; i--) {
      first = new_entry(h, src[i]->index, src[i]->key, src[i]->v, first);
      if (!first) return eval_oom(err);
    }
  } else {
    entry *sb = new_entry(h, ENTRY_SPLICE, NULL, b, NULL);
    if (!sb) return eval_oom(err);
    first = new_entry(h, ENTRY_SPLICE, NULL, a, sb);
    if (!first) return eval_oom(err);
  }
  const value *r = new_entries(h, k, first, count);
  return r ? r : eval_oom(err);
}

const value *v_onehot(heap *h, int64_t j, const value *v, eval_error *err) {
  if (!v) return eval_fail(err, "internal: onehot of nothing");
  if (j < 0) return eval_fail(err, "onehot index %" PRId64 " is negative", j);
  if (v->kind == V_ZERO) return v; /* onehot j 0 = 0 */
  entry *e = new_entry(h, j, NULL, v, NULL);
  if (!e) return eval_oom(err);
  const value *r = new_entries(h, V_SPARSE, e, 1);
  return r ? r : eval_oom(err);
}

const value *v_bag1(heap *h, const value *key, const value *v) {
  if (!key || !v) return NULL;
  entry *e = new_entry(h, 0, key, v, NULL);
  if (!e) return NULL;
  return new_entries(h, V_BAG, e, 1);
}

/* ---- plus ------------------------------------------------------------------ */

static const value *closure_plus(heap *h, const value *a, const value *b, eval_error *err) {
  const env *e = env_push(h, env_push(h, NULL, b), a);
  if (!e) return eval_oom(err);
  value *c = heap_alloc(h, sizeof *c);
  if (!c) return eval_oom(err);
  c->kind = V_CLOSURE;
  c->u.clo.term = CLO_PLUS;
  c->u.clo.env = e;
  return c;
}

/* dense + sparse: a copy of the dense array with the entries added. */
static const value *dense_plus_sparse(heap *h, const value *d, const value *s, eval_error *err) {
  int64_t n = d->u.arr.n;
  value *r = v_array(h, n);
  if (!r) return eval_oom(err);
  for (int64_t i = 0; i < n; i++) r->u.arr.elems[i] = d->u.arr.elems[i];
  entry_iter it;
  entry_iter_init(&it, s);
  const entry *e;
  const value *res = r;
  while ((e = entry_iter_next(&it))) {
    if (e->index < 0 || e->index >= n) {
      res = eval_fail(err, "plus: sparse index %" PRId64 " out of bounds for an array of length %" PRId64,
                      e->index, n);
      break;
    }
    const value *x = v_plus(h, r->u.arr.elems[e->index], e->v, err);
    if (!x) { res = NULL; break; }
    r->u.arr.elems[e->index] = x;
  }
  if (res && it.oom) res = eval_oom(err);
  entry_iter_done(&it);
  return res;
}

const value *v_plus(heap *h, const value *a, const value *b, eval_error *err) {
  if (!a || !b) return eval_fail(err, "internal: plus of nothing");
  if (a->kind == V_ZERO) return b;
  if (b->kind == V_ZERO) return a;
  if (a->kind == V_ARRAY && b->kind == V_SPARSE) return dense_plus_sparse(h, a, b, err);
  if (a->kind == V_SPARSE && b->kind == V_ARRAY) return dense_plus_sparse(h, b, a, err);
  if (a->kind != b->kind)
    return eval_fail(err, "plus of values of different shapes (%s and %s)", v_kind_name(a),
                     v_kind_name(b));
  switch (a->kind) {
  case V_REAL: {
    const value *r = heap_is_ball(h) ? ball_add_values(h, a, b) : v_real(h, a->u.r + b->u.r);
    return r ? r : eval_oom(err);
  }
  case V_UNIT: return a;
  case V_PAIR: {
    const value *x = v_plus(h, a->u.pair.a, b->u.pair.a, err);
    if (!x) return NULL;
    const value *y = v_plus(h, a->u.pair.b, b->u.pair.b, err);
    if (!y) return NULL;
    const value *p = v_pair(h, x, y);
    return p ? p : eval_oom(err);
  }
  case V_ARRAY: {
    int64_t n = a->u.arr.n;
    if (b->u.arr.n != n)
      return eval_fail(err, "plus of arrays of different lengths (%" PRId64 " and %" PRId64 ")", n,
                       b->u.arr.n);
    value *r = v_array(h, n);
    if (!r) return eval_oom(err);
    for (int64_t i = 0; i < n; i++) {
      const value *x = v_plus(h, a->u.arr.elems[i], b->u.arr.elems[i], err);
      if (!x) return NULL;
      r->u.arr.elems[i] = x;
    }
    return r;
  }
  case V_SPARSE:
  case V_BAG: return concat(h, a->kind, a, b, err);
  case V_CLOSURE: return closure_plus(h, a, b, err);
  default:
    return eval_fail(err, "plus of %s values (not of a linear type)", v_kind_name(a));
  }
}

/* ---- sparse tables (sum per index, sorted) and the per-heap cache ---------- */

typedef struct {
  int64_t idx;
  size_t ord;
  const value *v;
} raw_entry;

static int cmp_raw(const void *p, const void *q) {
  const raw_entry *a = p, *b = q;
  if (a->idx != b->idx) return a->idx < b->idx ? -1 : 1;
  return a->ord < b->ord ? -1 : a->ord > b->ord;
}

static size_t ptr_hash(const void *p, size_t cap) {
  uint64_t x = (uint64_t)(uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)(x & (cap - 1));
}

static const sparse_table *cache_get(heap *h, const value *key) {
  if (!h->cache_cap) return NULL;
  for (size_t i = ptr_hash(key, h->cache_cap);; i = (i + 1) & (h->cache_cap - 1)) {
    if (!h->cache_keys[i]) return NULL;
    if (h->cache_keys[i] == key) return h->cache_vals[i];
  }
}

/* Returns 0 when the host is out of memory (the table is then just not cached). */
static int cache_put(heap *h, const value *key, const sparse_table *t) {
  if (2 * (h->cache_n + 1) > h->cache_cap) {
    size_t cap = h->cache_cap ? 2 * h->cache_cap : 64;
    const value **keys = calloc(cap, sizeof *keys);
    const sparse_table **vals = calloc(cap, sizeof *vals);
    if (!keys || !vals) {
      free(keys);
      free(vals);
      return 0;
    }
    for (size_t i = 0; i < h->cache_cap; i++) {
      if (!h->cache_keys[i]) continue;
      size_t j = ptr_hash(h->cache_keys[i], cap);
      while (keys[j]) j = (j + 1) & (cap - 1);
      keys[j] = h->cache_keys[i];
      vals[j] = h->cache_vals[i];
    }
    free(h->cache_keys);
    free(h->cache_vals);
    h->cache_keys = keys;
    h->cache_vals = vals;
    h->cache_cap = cap;
  }
  size_t j = ptr_hash(key, h->cache_cap);
  while (h->cache_keys[j]) j = (j + 1) & (h->cache_cap - 1);
  h->cache_keys[j] = key;
  h->cache_vals[j] = t;
  h->cache_n++;
  return 1;
}

/* The summed, sorted table of a V_SPARSE value, built once per value:
 * O(k log k) for k entries; later lookups are binary searches. */
const sparse_table *sparse_table_of(heap *h, const value *s, eval_error *err) {
  const sparse_table *cached = cache_get(h, s);
  if (cached) return cached;
  int64_t k = s->u.entries.count;
  if (k < 0 || (uint64_t)k > SIZE_MAX / sizeof(raw_entry)) return eval_oom(err), NULL;
  raw_entry *raw = malloc((size_t)(k > 0 ? k : 1) * sizeof *raw);
  if (!raw) return eval_oom(err), NULL;
  entry_iter it;
  entry_iter_init(&it, s);
  const entry *e;
  size_t n = 0;
  while ((e = entry_iter_next(&it)) && n < (size_t)k) {
    raw[n].idx = e->index;
    raw[n].ord = n;
    raw[n].v = e->v;
    n++;
  }
  int oom = it.oom;
  entry_iter_done(&it);
  if (oom) {
    free(raw);
    return eval_oom(err), NULL;
  }
  qsort(raw, n, sizeof *raw, cmp_raw);
  sparse_table *t = heap_alloc(h, sizeof *t);
  int64_t *idx = heap_alloc(h, (n ? n : 1) * sizeof *idx);
  const value **val = heap_alloc(h, (n ? n : 1) * sizeof *val);
  if (!t || !idx || !val) {
    free(raw);
    return eval_oom(err), NULL;
  }
  int64_t m = 0;
  for (size_t i = 0; i < n; i++) {
    if (m > 0 && idx[m - 1] == raw[i].idx) {
      const value *x = v_plus(h, val[m - 1], raw[i].v, err);
      if (!x) {
        free(raw);
        return NULL;
      }
      val[m - 1] = x;
    } else {
      idx[m] = raw[i].idx;
      val[m] = raw[i].v;
      m++;
    }
  }
  free(raw);
  t->n = m;
  t->idx = idx;
  t->val = val;
  cache_put(h, s, t);
  return t;
}

static const value *table_lookup(const sparse_table *t, int64_t j) {
  int64_t lo = 0, hi = t->n;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (t->idx[mid] < j) lo = mid + 1;
    else hi = mid;
  }
  return (lo < t->n && t->idx[lo] == j) ? t->val[lo] : NULL;
}

/* Sparse values with at most this many entries are scanned, not tabled. */
#define SCAN_LIMIT 8

const value *v_index(heap *h, const value *arr, int64_t j, eval_error *err) {
  if (!arr) return eval_fail(err, "internal: index of nothing");
  switch (arr->kind) {
  case V_ARRAY:
    if (j < 0 || j >= arr->u.arr.n)
      return eval_fail(err, "index %" PRId64 " out of bounds (array length %" PRId64 ")", j,
                       arr->u.arr.n);
    return arr->u.arr.elems[j];
  case V_ZERO:
    if (j < 0) return eval_fail(err, "index %" PRId64 " out of bounds (negative)", j);
    return arr;
  case V_SPARSE: {
    if (j < 0) return eval_fail(err, "index %" PRId64 " out of bounds (negative)", j);
    if (arr->u.entries.count > SCAN_LIMIT) {
      const sparse_table *t = sparse_table_of(h, arr, err);
      if (!t) return NULL;
      const value *x = table_lookup(t, j);
      return x ? x : v_zero(h);
    }
    const value *acc = v_zero(h);
    entry_iter it;
    entry_iter_init(&it, arr);
    const entry *e;
    while (acc && (e = entry_iter_next(&it)))
      if (e->index == j) acc = v_plus(h, acc, e->v, err);
    if (acc && it.oom) acc = eval_oom(err);
    entry_iter_done(&it);
    return acc;
  }
  default: return eval_fail(err, "index of a %s value (not an array)", v_kind_name(arr));
  }
}

/* ---- densify -------------------------------------------------------------- */

const value *v_densify(heap *h, const value *v, const value *shape, eval_error *err) {
  if (!v || !shape) return eval_fail(err, "internal: densify of nothing");
  switch (shape->kind) {
  case V_REAL:
    if (v->kind == V_REAL) return v;
    if (v->kind == V_ZERO) {
      const value *r = v_real(h, 0.0);
      return r ? r : eval_oom(err);
    }
    break;
  case V_INT:
  case V_UNIT:
    if (v->kind == V_UNIT || v->kind == V_ZERO) return v_unit(h);
    break;
  case V_PAIR:
    if (v->kind == V_PAIR || v->kind == V_ZERO) {
      const value *a = v_densify(h, v->kind == V_PAIR ? v->u.pair.a : v, shape->u.pair.a, err);
      if (!a) return NULL;
      const value *b = v_densify(h, v->kind == V_PAIR ? v->u.pair.b : v, shape->u.pair.b, err);
      if (!b) return NULL;
      const value *p = v_pair(h, a, b);
      return p ? p : eval_oom(err);
    }
    break;
  case V_INL:
  case V_INR:
    /* A primal sum shapes a pair tangent; only the taken side is known. */
    if (v->kind == V_PAIR || v->kind == V_ZERO) {
      const value *l = v->kind == V_PAIR ? v->u.pair.a : v;
      const value *r = v->kind == V_PAIR ? v->u.pair.b : v;
      if (shape->kind == V_INL) l = v_densify(h, l, shape->u.pair.a, err);
      else r = v_densify(h, r, shape->u.pair.a, err);
      if (!l || !r) return NULL;
      const value *p = v_pair(h, l, r);
      return p ? p : eval_oom(err);
    }
    break;
  case V_ARRAY: {
    int64_t n = shape->u.arr.n;
    if (v->kind == V_ARRAY && v->u.arr.n != n)
      return eval_fail(err, "array of length %" PRId64 " where length %" PRId64 " was expected",
                       v->u.arr.n, n);
    if (v->kind != V_ARRAY && v->kind != V_ZERO && v->kind != V_SPARSE) break;
    value *r = v_array(h, n);
    if (!r) return eval_oom(err);
    for (int64_t i = 0; i < n; i++)
      r->u.arr.elems[i] = v->kind == V_ARRAY ? v->u.arr.elems[i] : v_zero(h);
    if (v->kind == V_SPARSE) {
      entry_iter it;
      entry_iter_init(&it, v);
      const entry *e;
      int ok = 1;
      while (ok && (e = entry_iter_next(&it))) {
        if (e->index < 0 || e->index >= n) {
          eval_fail(err, "sparse index %" PRId64 " out of bounds (array length %" PRId64 ")",
                    e->index, n);
          ok = 0;
        } else {
          const value *x = v_plus(h, r->u.arr.elems[e->index], e->v, err);
          if (!x) ok = 0;
          else r->u.arr.elems[e->index] = x;
        }
      }
      if (ok && it.oom) ok = 0, eval_oom(err);
      entry_iter_done(&it);
      if (!ok) return NULL;
    }
    for (int64_t i = 0; i < n; i++) {
      const value *x = v_densify(h, r->u.arr.elems[i], shape->u.arr.elems[i], err);
      if (!x) return NULL;
      r->u.arr.elems[i] = x;
    }
    return r;
  }
  default:
    return eval_fail(err, "cannot make a %s value dense (no first-order shape)",
                     v_kind_name(shape));
  }
  return eval_fail(err, "a %s value where a value shaped like a %s was expected", v_kind_name(v),
                   v_kind_name(shape));
}

/* ---- zero test, equality, inner product ----------------------------------- */

int v_is_zero(heap *h, const value *v) {
  if (!v) return 0;
  switch (v->kind) {
  case V_ZERO:
  case V_UNIT: return 1;
  case V_REAL: return v->u.ball ? arb_is_zero(&v->u.ball->b) : v->u.r == 0.0;
  case V_INT: return v->u.i == 0;
  case V_PAIR: return v_is_zero(h, v->u.pair.a) && v_is_zero(h, v->u.pair.b);
  case V_ARRAY:
    for (int64_t i = 0; i < v->u.arr.n; i++)
      if (!v_is_zero(h, v->u.arr.elems[i])) return 0;
    return 1;
  case V_SPARSE: {
    eval_error err;
    const sparse_table *t = sparse_table_of(h, v, &err);
    if (!t) return 0;
    for (int64_t i = 0; i < t->n; i++)
      if (!v_is_zero(h, t->val[i])) return 0;
    return 1;
  }
  case V_BAG: {
    entry_iter it;
    entry_iter_init(&it, v);
    const entry *e;
    int z = 1;
    while (z && (e = entry_iter_next(&it))) z = v_is_zero(h, e->v);
    if (it.oom) z = 0;
    entry_iter_done(&it);
    return z;
  }
  default: return 0;
  }
}

static int reals_close(double a, double b, double tol) {
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  if (isinf(a) || isinf(b)) return a == b;
  double s = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
  if (s < 1.0) s = 1.0;
  return fabs(a - b) <= tol * s;
}

int v_approx_equal(heap *h, const value *a, const value *b, double tol) {
  if (!a || !b) return 0;
  if (a->kind == V_ZERO) return v_is_zero(h, b);
  if (b->kind == V_ZERO) return v_is_zero(h, a);
  if (a->kind == V_ARRAY && b->kind == V_SPARSE) {
    const value *t = a;
    a = b;
    b = t;
  }
  if (a->kind == V_SPARSE && (b->kind == V_ARRAY || b->kind == V_SPARSE)) {
    eval_error err;
    const sparse_table *ta = sparse_table_of(h, a, &err);
    if (!ta) return -1;
    if (b->kind == V_ARRAY) {
      for (int64_t i = 0; i < ta->n; i++)
        if ((ta->idx[i] < 0 || ta->idx[i] >= b->u.arr.n) && !v_is_zero(h, ta->val[i])) return 0;
      for (int64_t i = 0; i < b->u.arr.n; i++) {
        const value *x = table_lookup(ta, i);
        int r = v_approx_equal(h, x ? x : v_zero(h), b->u.arr.elems[i], tol);
        if (r != 1) return r;
      }
      return 1;
    }
    const sparse_table *tb = sparse_table_of(h, b, &err);
    if (!tb) return -1;
    int64_t i = 0, j = 0;
    while (i < ta->n || j < tb->n) {
      const value *x = v_zero(h), *y = v_zero(h);
      if (j >= tb->n || (i < ta->n && ta->idx[i] < tb->idx[j])) x = ta->val[i++];
      else if (i >= ta->n || tb->idx[j] < ta->idx[i]) y = tb->val[j++];
      else x = ta->val[i++], y = tb->val[j++];
      int r = v_approx_equal(h, x, y, tol);
      if (r != 1) return r;
    }
    return 1;
  }
  if (a->kind != b->kind) return 0;
  switch (a->kind) {
  case V_REAL: return reals_close(a->u.r, b->u.r, tol);
  case V_INT: return a->u.i == b->u.i;
  case V_UNIT: return 1;
  case V_PAIR: {
    int r = v_approx_equal(h, a->u.pair.a, b->u.pair.a, tol);
    return r == 1 ? v_approx_equal(h, a->u.pair.b, b->u.pair.b, tol) : r;
  }
  case V_INL:
  case V_INR: return v_approx_equal(h, a->u.pair.a, b->u.pair.a, tol);
  case V_ARRAY:
    if (a->u.arr.n != b->u.arr.n) return 0;
    for (int64_t i = 0; i < a->u.arr.n; i++) {
      int r = v_approx_equal(h, a->u.arr.elems[i], b->u.arr.elems[i], tol);
      if (r != 1) return r;
    }
    return 1;
  case V_CLOSURE: return a->u.clo.term == b->u.clo.term && a->u.clo.env == b->u.clo.env;
  case V_BAG: {
    entry_iter ia, ib;
    entry_iter_init(&ia, a);
    entry_iter_init(&ib, b);
    int r = 1;
    for (;;) {
      const entry *x = entry_iter_next(&ia), *y = entry_iter_next(&ib);
      if (!x || !y) {
        if (x || y) r = 0;
        break;
      }
      r = v_approx_equal(h, x->key, y->key, tol);
      if (r == 1) r = v_approx_equal(h, x->v, y->v, tol);
      if (r != 1) break;
    }
    if (ia.oom || ib.oom) r = -1;
    entry_iter_done(&ia);
    entry_iter_done(&ib);
    return r;
  }
  default: return 0;
  }
}

double v_dot(heap *h, const value *a, const value *b) {
  if (!a || !b) return NAN;
  if (a->kind == V_ZERO || b->kind == V_ZERO) return 0.0;
  if (a->kind == V_SPARSE && b->kind != V_SPARSE) {
    const value *t = a;
    a = b;
    b = t;
  }
  if (b->kind == V_SPARSE && (a->kind == V_ARRAY || a->kind == V_SPARSE)) {
    /* sum over b's entries of <a[idx], entry> */
    eval_error err;
    entry_iter it;
    entry_iter_init(&it, b);
    const entry *e;
    double s = 0;
    while ((e = entry_iter_next(&it))) {
      if (a->kind == V_ARRAY && (e->index < 0 || e->index >= a->u.arr.n)) {
        s = NAN;
        break;
      }
      const value *x = v_index(h, a, e->index, &err);
      s += x ? v_dot(h, x, e->v) : NAN;
    }
    if (it.oom) s = NAN;
    entry_iter_done(&it);
    return s;
  }
  if (a->kind != b->kind) return NAN;
  switch (a->kind) {
  case V_REAL: return a->u.r * b->u.r;
  case V_INT:
  case V_UNIT: return 0.0;
  case V_PAIR: return v_dot(h, a->u.pair.a, b->u.pair.a) + v_dot(h, a->u.pair.b, b->u.pair.b);
  case V_ARRAY: {
    if (a->u.arr.n != b->u.arr.n) return NAN;
    double s = 0;
    for (int64_t i = 0; i < a->u.arr.n; i++) s += v_dot(h, a->u.arr.elems[i], b->u.arr.elems[i]);
    return s;
  }
  default: return NAN;
  }
}

/* ---- printing --------------------------------------------------------------- */

void v_fprint(FILE *f, const value *v) {
  if (!v) {
    fputs("<null>", f);
    return;
  }
  switch (v->kind) {
  case V_REAL: fprintf(f, "%.17g", v->u.r); return;
  case V_INT: fprintf(f, "%" PRId64, v->u.i); return;
  case V_UNIT: fputs("()", f); return;
  case V_PAIR:
    fputc('(', f);
    v_fprint(f, v->u.pair.a);
    fputs(", ", f);
    v_fprint(f, v->u.pair.b);
    fputc(')', f);
    return;
  case V_INL:
  case V_INR:
    fputs(v->kind == V_INL ? "inl " : "inr ", f);
    v_fprint(f, v->u.pair.a);
    return;
  case V_ARRAY:
    fputc('[', f);
    for (int64_t i = 0; i < v->u.arr.n; i++) {
      if (i) fputs(", ", f);
      v_fprint(f, v->u.arr.elems[i]);
    }
    fputc(']', f);
    return;
  case V_CLOSURE:
    if (v->u.clo.term == CLO_PLUS) {
      fputs("<closure ", f);
      v_fprint(f, v->u.clo.env->v);
      fputs(" + ", f);
      v_fprint(f, v->u.clo.env->next->v);
      fputc('>', f);
    } else {
      fprintf(f, "<closure t%d>", v->u.clo.term);
    }
    return;
  case V_ZERO: fputc('0', f); return;
  case V_SPARSE:
  case V_BAG: {
    fputs(v->kind == V_SPARSE ? "sparse{" : "bag{", f);
    entry_iter it;
    entry_iter_init(&it, v);
    const entry *e;
    int first = 1;
    while ((e = entry_iter_next(&it))) {
      if (!first) fputs(", ", f);
      first = 0;
      if (v->kind == V_SPARSE) {
        fprintf(f, "%" PRId64 ": ", e->index);
        v_fprint(f, e->v);
      } else {
        fputc('(', f);
        v_fprint(f, e->key);
        fputs(", ", f);
        v_fprint(f, e->v);
        fputc(')', f);
      }
    }
    if (it.oom) fputs("...<out of memory>", f);
    entry_iter_done(&it);
    fputc('}', f);
    return;
  }
  }
}
