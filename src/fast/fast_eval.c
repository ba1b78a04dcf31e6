/* The fast evaluator's interpreter: the reference evaluator's semantics
 * (src/eval/eval.c, spec/evaluator.md) on values that may hold unboxed real
 * arrays, with the loop constructs handed to the loop compiler
 * (fast_compile.c) first. Any construct the compiler declines, or whose
 * compiled run fails, is evaluated here element by element, exactly as
 * eval_ref does it, so errors and their messages are the reference ones. */
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>

#include "chad/diag.h"
#include "chad/eval.h"
#include "chad/fast.h"
#include "chad/kernel.h"
#include "chad/primitives.h"
#include "eval/heap_internal.h"
#include "eval/internal.h"
#include "eval/memo.h"
#include "eval/linapp.h"
#include "fast/fast_internal.h"

/* shorter loops are not worth compiling (tests lower it to compile all) */
static int64_t loop_min_ = 16;
void fast_set_loop_min(int64_t n) { loop_min_ = n < 0 ? 0 : n; }

static const value *need_int(const value *v, const char *what, int64_t *out, eval_error *err) {
  if (v->kind == V_INT) {
    *out = v->u.i;
    return v;
  }
  return eval_fail(err, "internal: %s is a %s value, not an int", what, v_kind_name(v));
}

#define TRY(x)             \
  do {                     \
    if (!(x)) return NULL; \
  } while (0)

static int elem_is_real(int t) { return ty_kind(ty_left(tm_type(t))) == TY_REAL; }

/* sum of an Arr Real value in any representation */
static const value *sum_value(heap *h, const value *a, eval_error *err) {
  double s = 0;
  if (a->kind == FV_RARR || a->kind == FV_ACC) {
    s = fc_sum(as_rarr(a)->d, a->u.arr.n);
  } else if (a->kind == V_ARRAY) {
    for (int64_t i = 0; i < a->u.arr.n; i++) {
      const value *x = a->u.arr.elems[i];
      if (x->kind == V_REAL) s += x->u.r;
      else if (x->kind != V_ZERO)
        return eval_fail(err, "internal: sum of an array holding a %s value", v_kind_name(x));
    }
  } else if (a->kind == V_SPARSE) {
    entry_iter it;
    entry_iter_init(&it, a);
    const entry *e;
    const char *bad = NULL;
    while ((e = entry_iter_next(&it))) {
      if (e->v->kind == V_REAL) s += e->v->u.r;
      else if (e->v->kind != V_ZERO) bad = "non-real";
    }
    int oom = it.oom;
    entry_iter_done(&it);
    if (oom) return eval_oom(err);
    if (bad) return eval_fail(err, "internal: sum of a sparse array holding a %s value", bad);
  } else if (a->kind == FV_DELAY) {
    const fv_delay *dl = as_delay(a);
    if (dl->real && !dl->forced) {
      const value *r = NULL;
      int rc = fc_loop(h, dl->term, dl->env, a->u.arr.n, dl->src, FC_SUM, &r, err);
      if (rc < 0) return NULL;
      if (rc == 1) return r;
    }
    const value *x = dl->real ? fv_force(h, a, err) : fv_export(h, a, err);
    return x ? sum_value(h, x, err) : NULL;
  } else if (a->kind != V_ZERO) {
    return eval_fail(err, "internal: sum of a %s value", v_kind_name(a));
  }
  const value *r = v_real(h, s);
  return r ? r : eval_oom(err);
}

/* Generic build of n elements (n >= 0 already checked). Real elements are
 * stored unboxed. */
static const value *build_generic(heap *h, int t, const env *e, int64_t n, eval_error *err,
                                  int depth) {
  fast_stats_.generic_loops++;
  int real = elem_is_real(t);
  fv_rarr *ra = NULL;
  value *arr = NULL;
  if (real) ra = fv_new_rarr(h, FV_RARR, n);
  else arr = v_array(h, n);
  if (!ra && !arr) return eval_oom(err);
  for (int64_t i = 0; i < n; i++) {
    const value *iv = v_int(h, i);
    const env *e2 = iv ? env_push(h, e, iv) : NULL;
    if (!e2) return eval_oom(err);
    const value *x;
    TRY(x = fe_eval(h, tm_b(t), e2, err, depth + 1));
    if (real) ra->d[i] = x->kind == V_REAL ? x->u.r : 0.0;
    else arr->u.arr.elems[i] = x;
  }
  return real ? &ra->base : arr;
}

static const value *map_generic(heap *h, int t, const env *e, const value *a, eval_error *err,
                                int depth) {
  fast_stats_.generic_loops++;
  int64_t n = a->u.arr.n;
  int real = elem_is_real(t);
  fv_rarr *ra = NULL;
  value *arr = NULL;
  if (real) ra = fv_new_rarr(h, FV_RARR, n);
  else arr = v_array(h, n);
  if (!ra && !arr) return eval_oom(err);
  for (int64_t i = 0; i < n; i++) {
    const value *x;
    TRY(x = fv_index(h, a, i, err));
    const env *e2 = env_push(h, e, x);
    if (!e2) return eval_oom(err);
    TRY(x = fe_eval(h, tm_a(t), e2, err, depth + 1));
    if (real) ra->d[i] = x->kind == V_REAL ? x->u.r : 0.0;
    else arr->u.arr.elems[i] = x;
  }
  return real ? &ra->base : arr;
}

__attribute__((unused)) static const value *make_delay(heap *h, int body, const env *e, int64_t n, const value *src,
                               eval_error *err) {
  fv_delay *d = heap_alloc(h, sizeof *d);
  if (!d) return eval_oom(err);
  d->base.kind = FV_DELAY;
  d->base.u.arr.n = n;
  d->base.u.arr.elems = NULL;
  d->body = body;
  d->env = e;
  d->src = src;
  d->ncalls = 0;
  d->memo_of = NULL;
  d->memo = NULL;
  d->real = 0;
  d->term = -1;
  d->forced = NULL;
  d->snd_rows = NULL;
  return &d->base;
}

/* A build/map with n elements (map: over a): compiled, delayed, or generic. */
static const value *loop_array(heap *h, int t, const env *e, int64_t n, const value *a,
                               eval_error *err, int depth) {
  const value *out = NULL;
  if (n >= loop_min_) {
    int real = elem_is_real(t);
    int rc = fc_loop(h, t, e, n, a, real ? FC_MAT : FC_CHECK, &out, err);
    if (rc < 0) return NULL;
    if (rc == 1 && real) return out;
    if (rc == 1) return out; /* a delayed array, checked and memoised */
  }
  return tm_kind(t) == TM_MAP ? map_generic(h, t, e, a, err, depth)
                              : build_generic(h, t, e, n, err, depth);
}

static const value *eval_build_len(heap *h, int t, const env *e, int64_t *n, eval_error *err,
                                   int depth) {
  const value *a;
  TRY(a = fe_eval(h, tm_a(t), e, err, depth + 1));
  TRY(need_int(a, "build length", n, err));
  if (*n < 0) return eval_fail(err, "build: negative length %" PRId64, *n);
  return a;
}

static const value *eval_map_src(heap *h, int t, const env *e, eval_error *err, int depth) {
  const value *a;
  TRY(a = fe_eval(h, tm_b(t), e, err, depth + 1));
  if (a->kind == V_ZERO || a->kind == V_SPARSE || a->kind == FV_ACC)
    return eval_fail(err, "map over a length-free (zero or sparse) cotangent array");
  if (a->kind != V_ARRAY && a->kind != FV_RARR && a->kind != FV_DELAY)
    return eval_fail(err, "internal: map over a %s value", v_kind_name(a));
  return a;
}

/* 1 if v (shallowly: scalars and pairs of them) can go to the reference
 * primitives as it is. */
static int plain(const value *v, int depth) {
  if (depth > 4) return 0;
  switch (v->kind) {
  case V_REAL:
  case V_INT:
  case V_UNIT:
  case V_ZERO: return 1;
  case V_PAIR: return plain(v->u.pair.a, depth + 1) && plain(v->u.pair.b, depth + 1);
  case V_INL:
  case V_INR: return plain(v->u.pair.a, depth + 1);
  default: return 0;
  }
}

static int real_arr(heap *h, const value *v, int64_t *n, const double **d) {
  if (v->kind == FV_DELAY && as_delay(v)->real && !(v = fv_force(h, v, NULL))) return 0;
  if (v->kind == FV_RARR) {
    *n = v->u.arr.n;
    *d = as_rarr(v)->d;
    return 1;
  }
  if (v->kind == V_ARRAY && fv_boxed_real(v)) return fast_real_array_get(h, v, n, d);
  return 0;
}

/* Fast versions of the element-wise kernels on unboxed arrays; NULL with no
 * error when they do not apply (then the reference primitive runs). */
static const value *fast_kernel(heap *h, int op, const value *x, eval_error *err, int *done) {
  *done = 0;
  if (x->kind != V_PAIR) return NULL;
  const value *p = x->u.pair.a, *q = x->u.pair.b;
  int64_t n, m;
  const double *a, *b;
  if (op == P_VSCALE) {
    if (p->kind != V_REAL || !real_arr(h, q, &n, &b)) return NULL;
    fv_rarr *r = fv_new_rarr(h, FV_RARR, n);
    *done = 1;
    if (!r) return eval_oom(err);
    double s = p->u.r;
    for (int64_t i = 0; i < n; i++) r->d[i] = s * b[i];
    return &r->base;
  }
  if (op != P_DOT && op != P_VADD && op != P_VMUL) return NULL;
  if (!real_arr(h, p, &n, &a) || !real_arr(h, q, &m, &b)) return NULL;
  *done = 1;
  if (n != m)
    return eval_fail(err, "%s: array primitive applied to arrays of different lengths",
                     prim_name(op));
  if (op == P_DOT) {
    double s = 0;
    for (int64_t i = 0; i < n; i++) s += a[i] * b[i];
    const value *r = v_real(h, s);
    return r ? r : eval_oom(err);
  }
  fv_rarr *r = fv_new_rarr(h, FV_RARR, n);
  if (!r) return eval_oom(err);
  if (op == P_VADD)
    for (int64_t i = 0; i < n; i++) r->d[i] = a[i] + b[i];
  else
    for (int64_t i = 0; i < n; i++) r->d[i] = a[i] * b[i];
  return &r->base;
}

static const value *op_eval(heap *h, int op, const value *a, eval_error *err) {
  int done;
  const value *r = fast_kernel(h, op, a, err, &done);
  if (done) return r;
  if (!plain(a, 0) && !(a = fv_export(h, a, err))) return NULL;
  const char *perr = NULL;
  r = prim_eval(h, op, a, &perr);
  if (!r) return eval_fail(err, "%s: %s", prim_name(op), perr ? perr : "failed");
  return fv_import(h, r) ? fv_import(h, r) : r;
}

static const value *lop_eval(heap *h, int kind, int op, const value *a, const value *b,
                             eval_error *err) {
  if (!plain(a, 0) && !(a = fv_export(h, a, err))) return NULL;
  if (!plain(b, 0) && !(b = fv_export(h, b, err))) return NULL;
  const char *perr = NULL;
  const value *r = kind == TM_LOP_D ? prim_dop(h, op, a, b, &perr) : prim_dopT(h, op, a, b, &perr);
  if (!r)
    return eval_fail(err, "%s of %s: %s", kind == TM_LOP_D ? "Dop" : "DopT", prim_name(op),
                     perr ? perr : "failed");
  return r;
}

static const value *fe_eval_lin(heap *h, int term, const env *e, eval_error *err, int depth,
                           lin_app *defer);
static const value *ev_body(heap *h, int *tp, const env *e, eval_error *err, int depth,
                            memo_pending *pd, lin_app *defer, plus_tail *pt);
static const lin_ops ops = {ev_body, fe_eval_lin, fe_eval, fe_apply, fv_plus};

#define t (*tp)
/* pd collects the closure applications entered as tail calls: they all have
 * the result of this call (the application memo, memo.c). defer, when not
 * NULL, takes a linear application in tail position instead of running it
 * (then the result is LIN_DEFERRED: linapp.h). */
static const value *ev_body(heap *h, int *tp, const env *e, eval_error *err, int depth,
                            memo_pending *pd, lin_app *defer, plus_tail *pt) {
  if (depth > eval_max_depth()) {
    if (err) err->depth_exceeded = 1;
    return eval_fail(err, "evaluation nested deeper than the limit of %d", eval_max_depth());
  }
  for (;;) {
    if (t < 0 || t >= tm_count) return eval_fail(err, "internal: no term %d", t);
    const value *a, *b, *r;
    int64_t n = 0;
    switch ((enum tm_kind)tm_kind(t)) {
    case TM_VAR: {
      const env *p = e;
      for (int64_t k = tm_aux(t); p && k > 0; k--) p = p->next;
      if (!p) return eval_fail(err, "internal: unbound variable %" PRId64, tm_aux(t));
      return p->v;
    }
    case TM_LET:
      TRY(a = fe_eval(h, tm_a(t), e, err, depth + 1));
      if (!(e = env_push(h, e, a))) return eval_oom(err);
      t = tm_b(t);
      continue;
    case TM_LAM:
    case TM_LLAM: {
      value *c = heap_alloc(h, sizeof *c);
      if (!c) return eval_oom(err);
      c->kind = V_CLOSURE;
      c->u.clo.term = t;
      c->u.clo.env = e;
      return c;
    }
    case TM_APP:
    case TM_LAPP:
      TRY(a = fe_eval(h, tm_a(t), e, err, depth + 1));
      TRY(b = fe_eval(h, tm_b(t), e, err, depth + 1));
      if (a->kind == V_CLOSURE && a->u.clo.term >= 0) {
        if ((r = memo_get(h, a, b))) return r;
        if (defer && tm_kind(a->u.clo.term) == TM_LLAM) {
          defer->fn = a;
          defer->arg = b;
          return LIN_DEFERRED;
        }
        memo_pending_push(pd, a, b);
        if (!(e = env_push(h, a->u.clo.env, b))) return eval_oom(err);
        t = tm_a(a->u.clo.term);
        continue;
      }
      return fe_apply(h, a, b, err, depth + 1);
    case TM_UNIT: return v_unit(h);
    case TM_PAIR:
      TRY(a = fe_eval(h, tm_a(t), e, err, depth + 1));
      TRY(b = fe_eval(h, tm_b(t), e, err, depth + 1));
      r = v_pair(h, a, b);
      return r ? r : eval_oom(err);
    case TM_FST:
    case TM_SND:
      TRY(a = fe_eval(h, tm_a(t), e, err, depth + 1));
      if (a->kind == V_ZERO) return a;
      if (a->kind != V_PAIR)
        return eval_fail(err, "internal: projection of a %s value", v_kind_name(a));
      return tm_kind(t) == TM_FST ? a->u.pair.a : a->u.pair.b;
    case TM_INL:
    case TM_INR:
      TRY(a = fe_eval(h, tm_a(t), e, err, depth + 1));
      r = tm_kind(t) == TM_INL ? v_inl(h, a) : v_inr(h, a);
      return r ? r : eval_oom(err);
    case TM_CASE:
      TRY(a = fe_eval(h, tm_a(t), e, err, depth + 1));
      if (a->kind != V_INL && a->kind != V_INR)
        return eval_fail(err, "internal: case of a %s value", v_kind_name(a));
      if (!(e = env_push(h, e, a->u.pair.a))) return eval_oom(err);
      t = a->kind == V_INL ? tm_b(t) : tm_c(t);
      continue;
    case TM_RCONST:
      r = v_real(h, tm_rval(t));
      return r ? r : eval_oom(err);
    case TM_ICONST:
      r = v_int(h, tm_aux(t));
      return r ? r : eval_oom(err);
    case TM_OP:
      TRY(a = fe_eval(h, tm_a(t), e, err, depth + 1));
      return op_eval(h, (int)tm_aux(t), a, err);
    case TM_ITER: {
      TRY(a = fe_eval(h, tm_a(t), e, err, depth + 1));
      TRY(need_int(a, "iteration count", &n, err));
      if (n < 0) return eval_fail(err, "iter: negative iteration count %" PRId64, n);
      const value *s;
      TRY(s = fe_eval(h, tm_c(t), e, err, depth + 1));
      for (int64_t i = 0; i < n; i++) {
        const env *e2 = env_push(h, e, s);
        if (!e2) return eval_oom(err);
        TRY(s = fe_eval(h, tm_b(t), e2, err, depth + 1));
      }
      return s;
    }
    case TM_LOOP: {
      TRY(a = fe_eval(h, tm_a(t), e, err, depth + 1));
      TRY(need_int(a, "loop fuel", &n, err));
      if (n < 0) return eval_fail(err, "loop: negative fuel %" PRId64, n);
      const value *s;
      TRY(s = fe_eval(h, tm_c(t), e, err, depth + 1));
      for (int64_t i = 0; i < n; i++) {
        const env *e2 = env_push(h, e, s);
        if (!e2) return eval_oom(err);
        TRY(s = fe_eval(h, tm_b(t), e2, err, depth + 1));
        if (s->kind == V_INR) return s->u.pair.a;
        if (s->kind != V_INL) return eval_fail(err, "internal: loop body gave a %s value", v_kind_name(s));
        s = s->u.pair.a;
      }
      return eval_fail(err, "loop ran out of fuel (%" PRId64 " rounds)", n);
    }
    case TM_BUILD:
      TRY(eval_build_len(h, t, e, &n, err, depth));
      return loop_array(h, t, e, n, NULL, err, depth);
    case TM_MAP:
      TRY(a = eval_map_src(h, t, e, err, depth));
      return loop_array(h, t, e, a->u.arr.n, a, err, depth);
    case TM_INDEX:
      TRY(a = fe_eval(h, tm_a(t), e, err, depth + 1));
      TRY(b = fe_eval(h, tm_b(t), e, err, depth + 1));
      TRY(need_int(b, "array index", &n, err));
      return fv_index(h, a, n, err);
    case TM_LENGTH:
      TRY(a = fe_eval(h, tm_a(t), e, err, depth + 1));
      if (a->kind == V_ARRAY || a->kind == FV_RARR || a->kind == FV_DELAY) {
        r = v_int(h, a->u.arr.n);
        return r ? r : eval_oom(err);
      }
      if (a->kind == V_ZERO || a->kind == V_SPARSE || a->kind == FV_ACC)
        return eval_fail(err, "length of a length-free (zero or sparse) cotangent array");
      return eval_fail(err, "internal: length of a %s value", v_kind_name(a));
    case TM_SUM: {
      int s = tm_a(t), sk = tm_kind(s);
      if ((sk == TM_BUILD || sk == TM_MAP) && elem_is_real(s)) {
        /* sum (build ...) / sum (map ...): fused, the array is never stored */
        const value *src = NULL;
        if (sk == TM_BUILD) TRY(eval_build_len(h, s, e, &n, err, depth + 1));
        else {
          TRY(src = eval_map_src(h, s, e, err, depth + 1));
          n = src->u.arr.n;
        }
        if (n >= loop_min_) {
          int rc = fc_loop(h, s, e, n, src, FC_SUM, &r, err);
          if (rc < 0) return NULL;
          if (rc == 1) return r;
        }
        TRY(a = sk == TM_MAP ? map_generic(h, s, e, src, err, depth + 1)
                             : build_generic(h, s, e, n, err, depth + 1));
        return sum_value(h, a, err);
      }
      TRY(a = fe_eval(h, s, e, err, depth + 1));
      return sum_value(h, a, err);
    }
    case TM_ZERO: return v_zero(h);
    case TM_PLUS: /* operands ending in one linear closure: applied once, to the sum */
      return lin_plus(&ops, h, t, e, err, depth, pt);
    case TM_CP_SINGLE:
      TRY(a = fe_eval(h, tm_a(t), e, err, depth + 1));
      TRY(b = fe_eval(h, tm_b(t), e, err, depth + 1));
      r = v_bag1(h, a, b);
      return r ? r : eval_oom(err);
    case TM_CP_FOLD: {
      TRY(a = fe_eval(h, tm_a(t), e, err, depth + 1));
      if (a->kind == V_ZERO) return a;
      if (a->kind == FV_BAG) {
        /* unboxed entries: the body compiled as an lsum over them; else boxed */
        const double *key, *val;
        if (a->u.arr.n >= loop_min_) {
          int fl = fv_bag_flat(h, a, &key, &val, &n);
          if (fl < 0) return eval_oom(err);
          if (fl == 1) {
            int rc = fc_fold(h, t, e, n, key, val, &r, err);
            if (rc < 0) return NULL;
            if (rc == 1) return r;
          }
        }
        TRY(a = fv_export(h, a, err));
        if (a->kind == V_ZERO) return a;
      }
      if (a->kind != V_BAG) return eval_fail(err, "internal: cp_fold of a %s value", v_kind_name(a));
      const value *acc = v_zero(h);
      entry_iter it;
      entry_iter_init(&it, a);
      const entry *en;
      while (acc && (en = entry_iter_next(&it))) {
        const env *e2 = env_push(h, env_push(h, e, en->key), en->v);
        if (!e2) {
          acc = eval_oom(err);
          break;
        }
        const value *x = fe_eval(h, tm_b(t), e2, err, depth + 1);
        acc = x ? fv_plus(h, acc, x, err) : NULL;
      }
      if (acc && it.oom) acc = eval_oom(err);
      entry_iter_done(&it);
      return acc;
    }
    case TM_LSUM: {
      TRY(a = fe_eval(h, tm_a(t), e, err, depth + 1));
      TRY(need_int(a, "lsum count", &n, err));
      if (n < 0) return eval_fail(err, "lsum: negative count %" PRId64, n);
      if (n >= loop_min_) {
        int rc = fc_loop(h, t, e, n, NULL, FC_LSUM, &r, err);
        if (rc < 0) return NULL;
        if (rc == 1) return r;
      }
      fast_stats_.generic_loops++;
      const value *acc = v_zero(h);
      for (int64_t i = 0; i < n; i++) {
        const value *iv = v_int(h, i);
        const env *e2 = iv ? env_push(h, e, iv) : NULL;
        if (!e2) return eval_oom(err);
        const value *x;
        TRY(x = fe_eval(h, tm_b(t), e2, err, depth + 1));
        TRY(acc = fv_plus(h, acc, x, err));
      }
      return acc;
    }
    case TM_LOP_D:
    case TM_LOP_DT:
      TRY(a = fe_eval(h, tm_a(t), e, err, depth + 1));
      TRY(b = fe_eval(h, tm_b(t), e, err, depth + 1));
      return lop_eval(h, tm_kind(t), (int)tm_aux(t), a, b, err);
    case TM_ONEHOT:
      TRY(a = fe_eval(h, tm_a(t), e, err, depth + 1));
      TRY(b = fe_eval(h, tm_b(t), e, err, depth + 1));
      TRY(need_int(a, "onehot index", &n, err));
      return fv_onehot(h, n, b, err);
    case TM_NKINDS: break;
    }
    return eval_fail(err, "internal: term %d has unknown kind %d", t, tm_kind(t));
  }
}
#undef t

const value *fe_eval(heap *h, int t, const env *e, eval_error *err, int depth) {
  return fe_eval_lin(h, t, e, err, depth, NULL);
}

static const value *fe_eval_lin(heap *h, int t, const env *e, eval_error *err, int depth,
                           lin_app *defer) {
  return lin_eval(&ops, h, t, e, err, depth, defer);
}

const value *fe_apply(heap *h, const value *fn, const value *arg, eval_error *err, int depth) {
  if (!fn || !arg) return eval_fail(err, "internal: application of nothing");
  if (fn->kind == V_ZERO) return fn;
  if (fn->kind != V_CLOSURE)
    return eval_fail(err, "internal: application of a %s value", v_kind_name(fn));
  if (fn->u.clo.term != CLO_PLUS) {
    const value *r = memo_get(h, fn, arg);
    if (r) return r;
    const env *e = env_push(h, fn->u.clo.env, arg);
    if (!e) return eval_oom(err);
    r = fe_eval(h, tm_a(fn->u.clo.term), e, err, depth);
    memo_put(h, fn, arg, r);
    return r;
  }
  size_t cap = 16, top = 0;
  const value **stack = malloc(cap * sizeof *stack);
  if (!stack) return eval_oom(err);
  stack[top++] = fn;
  const value *acc = v_zero(h);
  while (acc && top > 0) {
    const value *f = stack[--top];
    if (f->kind == V_CLOSURE && f->u.clo.term == CLO_PLUS) {
      if (top + 2 > cap) {
        const value **s = realloc(stack, 2 * cap * sizeof *s);
        if (!s) {
          acc = eval_oom(err);
          break;
        }
        stack = s;
        cap *= 2;
      }
      stack[top++] = f->u.clo.env->next->v;
      stack[top++] = f->u.clo.env->v;
      continue;
    }
    const value *x = fe_apply(h, f, arg, err, depth);
    acc = x ? fv_plus(h, acc, x, err) : NULL;
  }
  free(stack);
  return acc;
}

const value *fv_force(heap *h, const value *v, eval_error *err) {
  if (!v || v->kind != FV_DELAY || !as_delay(v)->real) return v;
  fv_delay *dl = (fv_delay *)(void *)v; /* allocated mutable; forced is a cache */
  if (dl->forced) return dl->forced;
  const value *out = NULL;
  int rc = fc_loop(h, dl->term, dl->env, v->u.arr.n, dl->src, FC_MAT_NODELAY, &out, err);
  if (rc < 0) return NULL;
  if (rc == 0)
    out = tm_kind(dl->term) == TM_MAP ? map_generic(h, dl->term, dl->env, dl->src, err, 0)
                                      : build_generic(h, dl->term, dl->env, v->u.arr.n, err, 0);
  dl->forced = out;
  return out;
}

/* ---- public API ------------------------------------------------------------ */

/* As the reference evaluator (eval.c): a first attempt on the caller's
 * stack with the small nesting limit; a term nested deeper is evaluated
 * again from scratch on a thread with a stack for the full limit
 * (eval_run_deep), so that deep derivative programs (the pullback of a long
 * iter) neither overflow the caller's stack nor fail early. */
typedef struct fjob {
  heap *h;
  int term;                /* >= 0: evaluate term in e; < 0: apply fn to arg */
  const env *e;
  const value *fn, *arg;
  eval_error *err;
  int start_depth;
  const value *result;
} fjob;

static void fjob_run(fjob *j) {
  eval_error_clear(j->err);
  fast_epoch_++;
  fv_reset_memo();
  if (j->term >= 0) {
    const env *ie = fv_import_env(j->h, j->e);
    j->result = j->e && !ie ? eval_oom(j->err) : fe_eval(j->h, j->term, ie, j->err, j->start_depth);
  } else {
    const value *a = fv_import(j->h, j->arg);
    j->result = !a ? eval_oom(j->err) : fe_apply(j->h, j->fn, a, j->err, j->start_depth);
  }
}

static void *fjob_thread(void *p) {
  fjob_run(p);
  return NULL;
}

static void fjob_with_stack_fallback(fjob *j) {
  heap_mark_t mark = heap_mark(j->h);
  j->start_depth = eval_small_stack_start();
  fjob_run(j);
  if (j->result || !j->err->depth_exceeded || j->start_depth == 0) return;
  heap_release(j->h, mark);   /* the first attempt's values are garbage */
  j->start_depth = 0;
  eval_run_deep(fjob_thread, j, j->err);
}

const value *eval_fast_raw(heap *h, int term, const env *e, eval_error *err) {
  eval_error local;
  if (!err) err = &local;
  fjob j = {h, term, e, NULL, NULL, err, 0, NULL};
  fjob_with_stack_fallback(&j);
  const value *r = j.result;
  if (!r) {
    if (err->exit_code == CHAD_EXIT_OK) eval_fail(err, "evaluation failed");
    if (err->term < 0) err->term = term;
  }
  return r;
}

const value *eval_fast(heap *h, int term, const env *e, eval_error *err) {
  const value *r = eval_fast_raw(h, term, e, err);
  return r ? fv_export(h, r, err) : NULL;
}

const value *eval_fast_apply_raw(heap *h, const value *fn, const value *arg, eval_error *err) {
  eval_error local;
  if (!err) err = &local;
  fjob j = {h, -1, NULL, fn, arg, err, 0, NULL};
  fjob_with_stack_fallback(&j);
  const value *r = j.result;
  if (!r && err->exit_code == CHAD_EXIT_OK) eval_fail(err, "evaluation failed");
  return r;
}

const value *eval_fast_apply(heap *h, const value *fn, const value *arg, eval_error *err) {
  const value *r = eval_fast_apply_raw(h, fn, arg, err);
  return r ? fv_export(h, r, err) : NULL;
}
