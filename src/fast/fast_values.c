/* The fast evaluator's values: unboxed real arrays (FV_RARR), dense-backed
 * sparse cotangents (FV_ACC), delayed arrays (FV_DELAY), unboxed bags
 * (FV_BAG), and plus, index and
 * export over them and the ordinary values of value.h. Messages of runtime
 * errors are those of src/eval/values.c, so both evaluators report alike. */
#define _DEFAULT_SOURCE 1 /* madvise, MADV_HUGEPAGE */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "chad/eval.h"
#include "eval/internal.h"
#include "fast/fast_internal.h"

/* asks for transparent huge pages on the whole 2 MiB pages inside a large
 * fresh block, so that writing it costs few page faults (a hint: failure is
 * harmless) */
void fv_hint_huge(void *p, size_t bytes) {
#ifdef MADV_HUGEPAGE
  const uintptr_t huge = (uintptr_t)2 << 20;
  if (p && bytes >= 2 * huge) {
    uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1), e = ((uintptr_t)p + bytes) & ~(huge - 1);
    if (e > a) (void)madvise((void *)a, e - a, MADV_HUGEPAGE);
  }
#else
  (void)p;
  (void)bytes;
#endif
}

void *fv_alloc_big(heap *h, size_t bytes) {
  void *p = heap_alloc(h, bytes);
  fv_hint_huge(p, bytes);
  return p;
}

fv_rarr *fv_new_rarr(heap *h, value_kind k, int64_t n) {
  if (n < 0 || (uint64_t)n > SIZE_MAX / sizeof(double) / 2) return NULL;
  fv_rarr *r = heap_alloc(h, sizeof *r);
  if (!r) return NULL;
  r->d = fv_alloc_big(h, (size_t)n * sizeof(double));
  if (!r->d) return NULL;
  r->base.kind = k;
  r->base.u.arr.n = n;
  r->base.u.arr.elems = NULL;
  return r;
}

const value *fast_real_array(heap *h, int64_t n, const double *src) {
  fv_rarr *r = fv_new_rarr(h, FV_RARR, n);
  if (!r) return NULL;
  if (n > 0) memcpy(r->d, src, (size_t)n * sizeof(double));
  return &r->base;
}

int fv_boxed_real(const value *v) {
  if (!v || v->kind != V_ARRAY) return 0;
  int any = 0;
  for (int64_t i = 0; i < v->u.arr.n; i++) {
    value_kind k = v->u.arr.elems[i]->kind;
    if (k == V_REAL) any = 1;
    else if (k != V_ZERO) return 0;
  }
  return any;
}

/* A boxed array of V_REAL / V_ZERO elements (any, even none) as FV_RARR. */
const value *fv_unbox(heap *h, const value *v) {
  fv_rarr *r = fv_new_rarr(h, FV_RARR, v->u.arr.n);
  if (!r) return NULL;
  for (int64_t i = 0; i < v->u.arr.n; i++) {
    const value *x = v->u.arr.elems[i];
    r->d[i] = x->kind == V_REAL ? x->u.r : 0.0;
  }
  return &r->base;
}

static int boxed_real_or_zero(const value *v) {
  if (!v || v->kind != V_ARRAY) return 0;
  for (int64_t i = 0; i < v->u.arr.n; i++) {
    value_kind k = v->u.arr.elems[i]->kind;
    if (k != V_REAL && k != V_ZERO) return 0;
  }
  return 1;
}

int fast_real_array_get(heap *h, const value *v, int64_t *n, const double **d) {
  if (!v) return 0;
  if (v->kind == FV_DELAY && as_delay(v)->real && !(v = fv_force(h, v, NULL))) return 0;
  if (v->kind == FV_RARR || v->kind == FV_ACC) {
    *n = v->u.arr.n;
    *d = as_rarr(v)->d;
    return 1;
  }
  if (boxed_real_or_zero(v)) {
    const value *u = fv_unbox(h, v);
    if (!u) return 0;
    *n = u->u.arr.n;
    *d = as_rarr(u)->d;
    return 1;
  }
  return 0;
}

/* A V_SPARSE whose entries are all real (or zero) as FV_ACC; NULL if some
 * entry is not real or an index is negative (then the generic route). */
static const value *sparse_to_acc(heap *h, const value *s, int *oom) {
  entry_iter it;
  entry_iter_init(&it, s);
  const entry *e;
  int64_t m = 0;
  int ok = 1;
  while ((e = entry_iter_next(&it))) {
    if (e->index < 0 || e->index > ((int64_t)1 << 40) ||
        (e->v->kind != V_REAL && e->v->kind != V_ZERO)) {
      ok = 0;
      break;
    }
    if (e->index + 1 > m) m = e->index + 1;
  }
  if (it.oom) *oom = 1;
  entry_iter_done(&it);
  if (!ok || *oom) return NULL;
  fv_rarr *r = fv_new_rarr(h, FV_ACC, m);
  if (!r) {
    *oom = 1;
    return NULL;
  }
  memset(r->d, 0, (size_t)m * sizeof(double));
  entry_iter_init(&it, s);
  while ((e = entry_iter_next(&it)))
    if (e->v->kind == V_REAL) r->d[e->index] += e->v->u.r;
  if (it.oom) *oom = 1;
  entry_iter_done(&it);
  return *oom ? NULL : &r->base;
}

/* Either side of a real-array plus as an unboxed array (RARR or ACC), or NULL
 * when it is not one (no error set; *oom on memory failure). */
static const value *real_side(heap *h, const value *v, int *oom) {
  if (v->kind == FV_DELAY && as_delay(v)->real) {
    const value *f = fv_force(h, v, NULL);
    if (!f) *oom = 1;
    return f;
  }
  if (v->kind == FV_RARR || v->kind == FV_ACC) return v;
  if (v->kind == V_ARRAY && boxed_real_or_zero(v)) {
    const value *u = fv_unbox(h, v);
    if (!u) *oom = 1;
    return u;
  }
  if (v->kind == V_SPARSE) return sparse_to_acc(h, v, oom);
  return NULL;
}

static const value *plus_real_arrays(heap *h, const value *a, const value *b, eval_error *err) {
  if (a->kind == FV_ACC && b->kind == FV_RARR) {
    const value *t = a;
    a = b;
    b = t;
  }
  int64_t na = a->u.arr.n, nb = b->u.arr.n;
  const double *da = as_rarr(a)->d, *db = as_rarr(b)->d;
  if (a->kind == FV_RARR && b->kind == FV_RARR) {
    if (na != nb)
      return eval_fail(err, "plus of arrays of different lengths (%" PRId64 " and %" PRId64 ")", na,
                       nb);
    fv_rarr *r = fv_new_rarr(h, FV_RARR, na);
    if (!r) return eval_oom(err);
    for (int64_t i = 0; i < na; i++) r->d[i] = da[i] + db[i];
    return &r->base;
  }
  if (a->kind == FV_RARR) { /* dense + sparse: the sparse part must fit */
    if (nb > na)
      return eval_fail(err, "plus: sparse index %" PRId64 " out of bounds for an array of length %" PRId64,
                       nb - 1, na);
    fv_rarr *r = fv_new_rarr(h, FV_RARR, na);
    if (!r) return eval_oom(err);
    for (int64_t i = 0; i < na; i++) r->d[i] = da[i] + (i < nb ? db[i] : 0.0);
    return &r->base;
  }
  int64_t m = na > nb ? na : nb;
  fv_rarr *r = fv_new_rarr(h, FV_ACC, m);
  if (!r) return eval_oom(err);
  for (int64_t i = 0; i < m; i++) r->d[i] = (i < na ? da[i] : 0.0) + (i < nb ? db[i] : 0.0);
  return &r->base;
}

/* ---- unboxed bags ----------------------------------------------------------- */

const value *fv_bag_leaf(heap *h, int64_t n, const double *key, const double *val) {
  fv_bag *b = heap_alloc(h, sizeof *b);
  if (!b) return NULL;
  b->base.kind = FV_BAG;
  b->base.u.arr.n = n;
  b->base.u.arr.elems = NULL;
  b->key = key;
  b->val = val;
  b->l = b->r = NULL;
  return &b->base;
}

static int is_bag(const value *v) { return v->kind == V_BAG || v->kind == FV_BAG; }
static int64_t bag_count(const value *v) {
  return v->kind == FV_BAG ? v->u.arr.n : (int64_t)v->u.entries.count;
}

/* plus of two bags, one of them unboxed: their concatenation, O(1) */
static const value *bag_cat(heap *h, const value *a, const value *b, eval_error *err) {
  fv_bag *c = heap_alloc(h, sizeof *c);
  if (!c) return eval_oom(err);
  c->base.kind = FV_BAG;
  c->base.u.arr.n = bag_count(a) + bag_count(b);
  c->base.u.arr.elems = NULL;
  c->key = c->val = NULL;
  c->l = a;
  c->r = b;
  return &c->base;
}

/* Calls f on every unboxed leaf of bag v (walked with an explicit stack: a
 * long sum of bags nests deep); a boxed part with entries makes it return 0
 * at once; -1 out of memory. */
static int bag_leaves(const value *v, void (*f)(const fv_bag *, void *), void *cl) {
  size_t cap = 64, top = 0;
  const value **st = malloc(cap * sizeof *st);
  if (!st) return -1;
  st[top++] = v;
  int rc = 1;
  while (rc == 1 && top > 0) {
    const value *x = st[--top];
    if (x->kind == V_BAG) {
      if (x->u.entries.count > 0) rc = 0;
      continue;
    }
    const fv_bag *b = as_bag(x);
    if (!b->l) {
      if (x->u.arr.n > 0) f(b, cl);
      continue;
    }
    if (top + 2 > cap) {
      const value **ns = realloc(st, 2 * cap * sizeof *ns);
      if (!ns) {
        rc = -1;
        break;
      }
      st = ns;
      cap *= 2;
    }
    st[top++] = b->r;
    st[top++] = b->l;
  }
  free(st);
  return rc;
}

struct flat { const fv_bag *one; int nleaves; double *key, *val; int64_t at; };
static void flat_count(const fv_bag *b, void *cl) {
  struct flat *f = cl;
  f->one = b;
  f->nleaves++;
}
static void flat_copy(const fv_bag *b, void *cl) {
  struct flat *f = cl;
  memcpy(f->key + f->at, b->key, (size_t)b->base.u.arr.n * sizeof(double));
  memcpy(f->val + f->at, b->val, (size_t)b->base.u.arr.n * sizeof(double));
  f->at += b->base.u.arr.n;
}

int fv_bag_flat(heap *h, const value *v, const double **key, const double **val, int64_t *n) {
  struct flat f = {NULL, 0, NULL, NULL, 0};
  if (v->kind != FV_BAG) return 0;
  int rc = bag_leaves(v, flat_count, &f);
  if (rc != 1) return rc;
  *n = v->u.arr.n;
  if (f.nleaves <= 1) {
    *key = f.one ? f.one->key : NULL;
    *val = f.one ? f.one->val : NULL;
    return 1;
  }
  if ((uint64_t)*n > SIZE_MAX / sizeof(double) / 4 ||
      !(f.key = fv_alloc_big(h, (size_t)*n * sizeof(double))) ||
      !(f.val = fv_alloc_big(h, (size_t)*n * sizeof(double))))
    return -1;
  if (bag_leaves(v, flat_copy, &f) != 1) return -1;
  *key = f.key;
  *val = f.val;
  return 1;
}

const value *fv_plus(heap *h, const value *a, const value *b, eval_error *err) {
  if (!a || !b) return eval_fail(err, "internal: plus of nothing");
  if (a->kind == V_ZERO) return b;
  if (b->kind == V_ZERO) return a;
  if ((a->kind == FV_BAG || b->kind == FV_BAG) && is_bag(a) && is_bag(b)) return bag_cat(h, a, b, err);
  int priv = is_private(a) || is_private(b);
  /* real arrays, any mix of representations */
  if (a->kind == FV_RARR || a->kind == FV_ACC || b->kind == FV_RARR || b->kind == FV_ACC ||
      (a->kind == FV_DELAY && as_delay(a)->real) || (b->kind == FV_DELAY && as_delay(b)->real) ||
      (a->kind == V_ARRAY && b->kind == V_ARRAY && fv_boxed_real(a) && fv_boxed_real(b))) {
    int oom = 0;
    const value *ra = real_side(h, a, &oom), *rb = oom ? NULL : real_side(h, b, &oom);
    if (oom) return eval_oom(err);
    if (ra && rb) return plus_real_arrays(h, ra, rb, err);
  }
  if (a->kind == V_PAIR && b->kind == V_PAIR) {
    const value *x = fv_plus(h, a->u.pair.a, b->u.pair.a, err);
    if (!x) return NULL;
    const value *y = fv_plus(h, a->u.pair.b, b->u.pair.b, err);
    if (!y) return NULL;
    const value *p = v_pair(h, x, y);
    return p ? p : eval_oom(err);
  }
  if (a->kind == V_ARRAY && b->kind == V_ARRAY) {
    int64_t n = a->u.arr.n;
    if (b->u.arr.n != n)
      return eval_fail(err, "plus of arrays of different lengths (%" PRId64 " and %" PRId64 ")", n,
                       b->u.arr.n);
    value *r = v_array(h, n);
    if (!r) return eval_oom(err);
    for (int64_t i = 0; i < n; i++) {
      const value *x = fv_plus(h, a->u.arr.elems[i], b->u.arr.elems[i], err);
      if (!x) return NULL;
      r->u.arr.elems[i] = x;
    }
    return r;
  }
  if ((a->kind == V_ARRAY && b->kind == V_SPARSE) || (a->kind == V_SPARSE && b->kind == V_ARRAY)) {
    const value *d = a->kind == V_ARRAY ? a : b, *s = a->kind == V_ARRAY ? b : a;
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
      const value *x = fv_plus(h, r->u.arr.elems[e->index], e->v, err);
      if (!x) {
        res = NULL;
        break;
      }
      r->u.arr.elems[e->index] = x;
    }
    if (res && it.oom) res = eval_oom(err);
    entry_iter_done(&it);
    return res;
  }
  if (!priv) return v_plus(h, a, b, err); /* reals, units, sparse, bags, closures */
  if (a->kind == FV_DELAY || b->kind == FV_DELAY) {
    const value *x = fv_export(h, a, err), *y = x ? fv_export(h, b, err) : NULL;
    return y ? fv_plus(h, x, y, err) : NULL;
  }
  return v_plus(h, a, b, err);
}

/* Export memo for indexing sparse values: the last one exported. Reset by
 * every public evaluation call (a later heap may reuse the addresses). */
static const value *last_sparse_in, *last_sparse_out;
static const heap *last_sparse_heap;
void fv_reset_memo(void) {
  last_sparse_in = last_sparse_out = NULL;
  last_sparse_heap = NULL;
}

const value *fv_index(heap *h, const value *arr, int64_t j, eval_error *err) {
  if (!arr) return eval_fail(err, "internal: index of nothing");
  if (arr->kind == FV_DELAY && as_delay(arr)->real && !(arr = fv_force(h, arr, err))) return NULL;
  if (arr->kind == FV_RARR || arr->kind == FV_DELAY) {
    if (j < 0 || j >= arr->u.arr.n)
      return eval_fail(err, "index %" PRId64 " out of bounds (array length %" PRId64 ")", j,
                       arr->u.arr.n);
    if (arr->kind == FV_RARR) {
      const value *r = v_real(h, as_rarr(arr)->d[j]);
      return r ? r : eval_oom(err);
    }
    const fv_delay *dl = as_delay(arr);
    const value *x;
    if (dl->src) {
      x = fv_index(h, dl->src, j, err);
      if (!x) return NULL;
    } else if (!(x = v_int(h, j))) {
      return eval_oom(err);
    }
    const env *e2 = env_push(h, dl->env, x);
    if (!e2) return eval_oom(err);
    return fe_eval(h, dl->body, e2, err, 0);
  }
  if (arr->kind == FV_ACC) {
    if (j < 0) return eval_fail(err, "index %" PRId64 " out of bounds (negative)", j);
    if (j >= arr->u.arr.n) return v_zero(h);
    const value *r = v_real(h, as_rarr(arr)->d[j]);
    return r ? r : eval_oom(err);
  }
  if (arr->kind == V_SPARSE) {
    if (j < 0) return eval_fail(err, "index %" PRId64 " out of bounds (negative)", j);
    if (last_sparse_in != arr || last_sparse_heap != h) {
      const value *x = fv_export(h, arr, err);
      if (!x) return NULL;
      last_sparse_in = arr;
      last_sparse_out = x;
      last_sparse_heap = h;
    }
    return v_index(h, last_sparse_out, j, err);
  }
  return v_index(h, arr, j, err);
}

const value *fv_onehot(heap *h, int64_t j, const value *v, eval_error *err) {
  return v_onehot(h, j, v, err);
}

/* ---- export: remove the private kinds ------------------------------------- */

typedef struct memo {
  const value **key, **val;
  size_t cap, n;
} memo;

static size_t mhash(const void *p, size_t cap) {
  uint64_t x = (uint64_t)(uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)(x & (cap - 1));
}

static const value *memo_get(memo *m, const value *k) {
  if (!m->cap) return NULL;
  for (size_t i = mhash(k, m->cap);; i = (i + 1) & (m->cap - 1)) {
    if (!m->key[i]) return NULL;
    if (m->key[i] == k) return m->val[i];
  }
}

static int memo_put(memo *m, const value *k, const value *v) {
  if (2 * (m->n + 1) > m->cap) {
    size_t nc = m->cap ? 2 * m->cap : 256;
    const value **nk = calloc(nc, sizeof *nk), **nv = calloc(nc, sizeof *nv);
    if (!nk || !nv) {
      free(nk);
      free(nv);
      return 0;
    }
    for (size_t i = 0; i < m->cap; i++)
      if (m->key[i]) {
        size_t j = mhash(m->key[i], nc);
        while (nk[j]) j = (j + 1) & (nc - 1);
        nk[j] = m->key[i];
        nv[j] = m->val[i];
      }
    free(m->key);
    free(m->val);
    m->key = nk;
    m->val = nv;
    m->cap = nc;
  }
  size_t j = mhash(k, m->cap);
  while (m->key[j]) j = (j + 1) & (m->cap - 1);
  m->key[j] = k;
  m->val[j] = v;
  m->n++;
  return 1;
}

static const value *ex(heap *h, const value *v, eval_error *err, memo *m, int depth);

static const env *ex_env(heap *h, const env *e, eval_error *err, memo *m, int depth) {
  if (!e) return NULL;
  /* iterate: collect the chain, export from the end */
  size_t n = 0;
  for (const env *p = e; p; p = p->next) n++;
  const env **chain = malloc(n * sizeof *chain);
  const value **vals = malloc(n * sizeof *vals);
  if (!chain || !vals) {
    free(chain);
    free(vals);
    eval_oom(err);
    return (const env *)-1;
  }
  size_t i = 0;
  for (const env *p = e; p; p = p->next) chain[i++] = p;
  int changed = 0;
  for (i = 0; i < n; i++) {
    vals[i] = ex(h, chain[i]->v, err, m, depth + 1);
    if (!vals[i]) {
      free(chain);
      free(vals);
      return (const env *)-1;
    }
    if (vals[i] != chain[i]->v) changed = 1;
  }
  const env *r = e;
  if (changed) {
    r = NULL;
    for (i = n; i-- > 0;) {
      r = env_push(h, r, vals[i]);
      if (!r) {
        eval_oom(err);
        r = (const env *)-1;
        break;
      }
    }
  }
  free(chain);
  free(vals);
  return r;
}

static const value *ex_entries(heap *h, const value *v, eval_error *err, memo *m, int depth) {
  entry_iter it;
  entry_iter_init(&it, v);
  const entry *e;
  int64_t count = 0;
  entry *first = NULL, *last = NULL;
  const value *res = v;
  while ((e = entry_iter_next(&it))) {
    const value *k = e->key ? ex(h, e->key, err, m, depth + 1) : NULL;
    const value *x = ex(h, e->v, err, m, depth + 1);
    entry *ne = heap_alloc(h, sizeof *ne);
    if ((e->key && !k) || !x || !ne) {
      if (!ne) eval_oom(err);
      res = NULL;
      break;
    }
    ne->index = e->index;
    ne->key = k;
    ne->v = x;
    ne->next = NULL;
    if (last) last->next = ne;
    else first = ne;
    last = ne;
    count++;
  }
  if (res && it.oom) res = eval_oom(err);
  entry_iter_done(&it);
  if (!res) return NULL;
  value *r = heap_alloc(h, sizeof *r);
  if (!r) return eval_oom(err);
  r->kind = v->kind;
  r->u.entries.first = first;
  r->u.entries.count = count;
  return r;
}

/* an unboxed bag as a V_BAG: its entries boxed, its boxed parts spliced */
static const value *ex_bag(heap *h, const value *v, eval_error *err, memo *m, int depth) {
  size_t cap = 64, top = 0;
  const value **st = malloc(cap * sizeof *st);
  if (!st) return eval_oom(err);
  st[top++] = v;
  const entry *first = NULL;
  const value *res = v;
  while (res && top > 0) {
    const value *x = st[--top];
    if (x->kind == V_BAG) {
      const value *y = ex(h, x, err, m, depth + 1);
      entry *e = y ? heap_alloc(h, sizeof *e) : NULL;
      if (!e) {
        res = y ? eval_oom(err) : NULL;
        break;
      }
      e->index = ENTRY_SPLICE;
      e->key = NULL;
      e->v = y;
      e->next = first;
      first = e;
      continue;
    }
    const fv_bag *b = as_bag(x);
    if (b->l) {
      if (top + 2 > cap) {
        const value **ns = realloc(st, 2 * cap * sizeof *ns);
        if (!ns) {
          res = eval_oom(err);
          break;
        }
        st = ns;
        cap *= 2;
      }
      st[top++] = b->l; /* r is prepended first: the list keeps the order l, r */
      st[top++] = b->r;
      continue;
    }
    int64_t n = x->u.arr.n;
    entry *es = n ? heap_alloc(h, (size_t)n * sizeof *es) : NULL;
    value *cells = n ? heap_alloc(h, 2 * (size_t)n * sizeof *cells) : NULL;
    if (n && (!es || !cells)) {
      res = eval_oom(err);
      break;
    }
    for (int64_t i = n; i-- > 0;) {
      cells[2 * i].kind = V_REAL;
      cells[2 * i].u.r = b->key[i];
      cells[2 * i + 1].kind = V_REAL;
      cells[2 * i + 1].u.r = b->val[i];
      es[i].index = 0;
      es[i].key = &cells[2 * i];
      es[i].v = &cells[2 * i + 1];
      es[i].next = first;
      first = &es[i];
    }
  }
  free(st);
  if (!res) return NULL;
  if (!first) return v_zero(h);
  value *r = heap_alloc(h, sizeof *r);
  if (!r) return eval_oom(err);
  r->kind = V_BAG;
  r->u.entries.first = first;
  r->u.entries.count = v->u.arr.n;
  return r;
}

static const value *ex_node(heap *h, const value *v, eval_error *err, memo *m, int depth) {
  switch ((int)v->kind) {
  case FV_RARR: {
    int64_t n = v->u.arr.n;
    value *r = v_array(h, n);
    value *cells = n ? heap_alloc(h, (size_t)n * sizeof *cells) : NULL;
    if (!r || (n && !cells)) return eval_oom(err);
    for (int64_t i = 0; i < n; i++) {
      cells[i].kind = V_REAL;
      cells[i].u.r = as_rarr(v)->d[i];
      r->u.arr.elems[i] = &cells[i];
    }
    return r;
  }
  case FV_ACC: {
    int64_t n = v->u.arr.n;
    if (n == 0) return v_zero(h);
    entry *es = heap_alloc(h, (size_t)n * sizeof *es);
    value *cells = heap_alloc(h, (size_t)n * sizeof *cells);
    value *r = heap_alloc(h, sizeof *r);
    if (!es || !cells || !r) return eval_oom(err);
    for (int64_t i = 0; i < n; i++) {
      cells[i].kind = V_REAL;
      cells[i].u.r = as_rarr(v)->d[i];
      es[i].index = i;
      es[i].key = NULL;
      es[i].v = &cells[i];
      es[i].next = i + 1 < n ? &es[i + 1] : NULL;
    }
    r->kind = V_SPARSE;
    r->u.entries.first = es;
    r->u.entries.count = n;
    return r;
  }
  case FV_DELAY: {
    if (as_delay(v)->real) {
      const value *f = fv_force(h, v, err);
      return f ? ex(h, f, err, m, depth + 1) : NULL;
    }
    int64_t n = v->u.arr.n;
    value *r = v_array(h, n);
    if (!r) return eval_oom(err);
    for (int64_t i = 0; i < n; i++) {
      const value *x = fv_index(h, v, i, err);
      if (!x || !(x = ex(h, x, err, m, depth + 1))) return NULL;
      r->u.arr.elems[i] = x;
    }
    return r;
  }
  case V_PAIR:
  case V_INL:
  case V_INR: {
    const value *a = ex(h, v->u.pair.a, err, m, depth + 1);
    if (!a) return NULL;
    const value *b = v->kind == V_PAIR ? ex(h, v->u.pair.b, err, m, depth + 1) : NULL;
    if (v->kind == V_PAIR && !b) return NULL;
    if (a == v->u.pair.a && (v->kind != V_PAIR || b == v->u.pair.b)) return v;
    const value *r = v->kind == V_PAIR ? v_pair(h, a, b) : v->kind == V_INL ? v_inl(h, a) : v_inr(h, a);
    return r ? r : eval_oom(err);
  }
  case V_ARRAY: {
    int64_t n = v->u.arr.n, i;
    const value *x = NULL;
    for (i = 0; i < n; i++) {
      if (!(x = ex(h, v->u.arr.elems[i], err, m, depth + 1))) return NULL;
      if (x != v->u.arr.elems[i]) break;
    }
    if (i == n) return v;
    value *r = v_array(h, n);
    if (!r) return eval_oom(err);
    for (int64_t k = 0; k < i; k++) r->u.arr.elems[k] = v->u.arr.elems[k];
    r->u.arr.elems[i] = x;
    for (i++; i < n; i++)
      if (!(r->u.arr.elems[i] = ex(h, v->u.arr.elems[i], err, m, depth + 1))) return NULL;
    return r;
  }
  case V_SPARSE:
  case V_BAG: return ex_entries(h, v, err, m, depth);
  case FV_BAG: return ex_bag(h, v, err, m, depth);
  case V_CLOSURE: {
    const env *e = ex_env(h, v->u.clo.env, err, m, depth);
    if (e == (const env *)-1) return NULL;
    if (e == v->u.clo.env) return v;
    value *c = heap_alloc(h, sizeof *c);
    if (!c) return eval_oom(err);
    c->kind = V_CLOSURE;
    c->u.clo.term = v->u.clo.term;
    c->u.clo.env = e;
    return c;
  }
  default: return v;
  }
}

static const value *ex(heap *h, const value *v, eval_error *err, memo *m, int depth) {
  if (!v) return eval_fail(err, "internal: export of nothing");
  if (v->kind == V_REAL || v->kind == V_INT || v->kind == V_UNIT || v->kind == V_ZERO) return v;
  if (depth > eval_max_depth()) return eval_fail(err, "value nested deeper than the limit of %d", eval_max_depth());
  const value *r = memo_get(m, v);
  if (r) return r;
  r = ex_node(h, v, err, m, depth);
  if (r && !memo_put(m, v, r)) return eval_oom(err);
  return r;
}

const value *fv_export(heap *h, const value *v, eval_error *err) {
  memo m = {0};
  const value *r = ex(h, v, err, &m, 0);
  free(m.key);
  free(m.val);
  return r;
}

const value *fast_export(heap *h, const value *v, eval_error *err) { return fv_export(h, v, err); }

/* ---- import: unbox real arrays of the input ------------------------------- */

const value *fv_import(heap *h, const value *v) {
  if (!v) return NULL;
  switch (v->kind) {
  case V_ARRAY: {
    if (fv_boxed_real(v)) return fv_unbox(h, v);
    int64_t n = v->u.arr.n, i;
    for (i = 0; i < n; i++)
      if (v->u.arr.elems[i]->kind == V_ARRAY || v->u.arr.elems[i]->kind == V_PAIR) break;
    if (i == n) return v;
    value *r = v_array(h, n);
    if (!r) return NULL;
    for (i = 0; i < n; i++)
      if (!(r->u.arr.elems[i] = fv_import(h, v->u.arr.elems[i]))) return NULL;
    return r;
  }
  case V_PAIR: {
    const value *a = fv_import(h, v->u.pair.a), *b = fv_import(h, v->u.pair.b);
    if (!a || !b) return NULL;
    if (a == v->u.pair.a && b == v->u.pair.b) return v;
    return v_pair(h, a, b);
  }
  default: return v;
  }
}

const env *fv_import_env(heap *h, const env *e) {
  if (!e) return NULL;
  const env *rest = fv_import_env(h, e->next);
  if (e->next && !rest) return NULL;
  const value *x = fv_import(h, e->v);
  if (!x) return NULL;
  if (x == e->v && rest == e->next) return e;
  return env_push(h, rest, x);
}
