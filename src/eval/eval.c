/* The reference evaluator: a direct, environment-based interpreter of every
 * term kind of kernel.h (source and target). Tail positions (let body, case
 * branches, the body of an applied closure) loop instead of recursing, so
 * only genuine nesting counts towards the nesting limit. The semantics of each
 * construct is in spec/evaluator.md. */
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>

#include "chad/diag.h"
#include "chad/eval.h"
#include "chad/kernel.h"
#include "chad/primitives.h"
#include "eval/internal.h"
#include "eval/memo.h"
#include "eval/linapp.h"
#include "certified/ball.h"

/* the nesting limit (include/chad/eval.h); process-wide, set before evaluating */
static int max_depth = EVAL_DEFAULT_MAX_DEPTH;
int eval_max_depth(void) { return max_depth; }
void eval_set_max_depth(int depth) {
  max_depth = depth < 1 ? 1 : depth > EVAL_MAX_DEPTH_CAP ? EVAL_MAX_DEPTH_CAP : depth;
}
/* the whole limit's frames, and a MiB for what runs outside them */
size_t eval_stack_bytes(void) { return (size_t)max_depth * EVAL_STACK_BYTES_PER_LEVEL + ((size_t)1 << 20); }

static const value *ev(heap *h, int t, const env *e, eval_error *err, int depth);
static const value *apply(heap *h, const value *fn, const value *arg, eval_error *err,
                          int depth);

static const value *need_int(const value *v, const char *what, int64_t *out, eval_error *err) {
  if (v->kind == V_INT) {
    *out = v->u.i;
    return v;
  }
  return eval_fail(err, "internal: %s is a %s value, not an int", what, v_kind_name(v));
}

/* sum of an Arr Real value: dense, zero (0) or sparse (sum of the entries). */
static const value *sum_array(heap *h, const value *a, eval_error *err) {
  if (heap_is_ball(h)) {
    /* ball mode: the enclosure of the exact sum */
    const value *acc = v_zero(h);
    if (a->kind == V_ARRAY)
      for (int64_t i = 0; acc && i < a->u.arr.n; i++) acc = v_plus(h, acc, a->u.arr.elems[i], err);
    else if (a->kind == V_SPARSE) {
      entry_iter it;
      entry_iter_init(&it, a);
      const entry *e;
      while (acc && (e = entry_iter_next(&it))) acc = v_plus(h, acc, e->v, err);
      if (acc && it.oom) acc = eval_oom(err);
      entry_iter_done(&it);
    } else if (a->kind != V_ZERO)
      return eval_fail(err, "internal: sum of a %s value", v_kind_name(a));
    if (acc && acc->kind == V_ZERO) acc = v_real(h, 0.0);
    return acc ? acc : (err && err->msg[0] ? NULL : eval_oom(err));
  }
  double s = 0;
  if (a->kind == V_ARRAY) {
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
      else if (e->v->kind != V_ZERO) bad = v_kind_name(e->v);
    }
    int oom = it.oom;
    entry_iter_done(&it);
    if (oom) return eval_oom(err);
    if (bad) return eval_fail(err, "internal: sum of a sparse array holding a %s value", bad);
  } else if (a->kind != V_ZERO) {
    return eval_fail(err, "internal: sum of a %s value", v_kind_name(a));
  }
  const value *r = v_real(h, s);
  return r ? r : eval_oom(err);
}

#define TRY(x)                 \
  do {                         \
    if (!(x)) return NULL;     \
  } while (0)

/* ev_body evaluates *tp; it updates *tp as it follows tail positions, so
 * that on failure ev can record the innermost failing term. */
static const value *ev_lin(heap *h, int term, const env *e, eval_error *err, int depth,
                           lin_app *defer);
static const value *ev_body(heap *h, int *tp, const env *e, eval_error *err, int depth,
                            memo_pending *pd, lin_app *defer, plus_tail *pt);
static const lin_ops ops = {ev_body, ev_lin, ev, apply, v_plus};

#define t (*tp)
/* pd collects the closure applications entered as tail calls: they all have
 * the result of this call (the application memo, memo.c). defer, when not
 * NULL, takes a linear application in tail position instead of running it
 * (then the result is LIN_DEFERRED: linapp.h). */
static const value *ev_body(heap *h, int *tp, const env *e, eval_error *err, int depth,
                            memo_pending *pd, lin_app *defer, plus_tail *pt) {
  if (depth > max_depth) {
    if (err) err->depth_exceeded = 1;
    return eval_fail(err, "evaluation nested deeper than the limit of %d", max_depth);
  }
  for (;;) {
    if (t < 0 || t >= tm_count) return eval_fail(err, "internal: no term %d", t);
    const value *a, *b, *r;
    int64_t n = 0;
    const char *perr = NULL;
    switch ((enum tm_kind)tm_kind(t)) {
    case TM_VAR: {
      const env *p = e;
      for (int64_t k = tm_aux(t); p && k > 0; k--) p = p->next;
      if (!p) return eval_fail(err, "internal: unbound variable %" PRId64, tm_aux(t));
      return p->v;
    }
    case TM_LET:
      TRY(a = ev(h, tm_a(t), e, err, depth + 1));
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
      TRY(a = ev(h, tm_a(t), e, err, depth + 1));
      TRY(b = ev(h, tm_b(t), e, err, depth + 1));
      if (a->kind == V_CLOSURE && a->u.clo.term >= 0) {
        if ((r = memo_get(h, a, b))) return r;
        if (defer && tm_kind(a->u.clo.term) == TM_LLAM) {
          defer->fn = a;
          defer->arg = b;
          return LIN_DEFERRED;
        }
        memo_pending_push(pd, a, b);
        /* tail call into the closure's body */
        if (!(e = env_push(h, a->u.clo.env, b))) return eval_oom(err);
        t = tm_a(a->u.clo.term);
        continue;
      }
      return apply(h, a, b, err, depth + 1);
    case TM_UNIT: return v_unit(h);
    case TM_PAIR:
      TRY(a = ev(h, tm_a(t), e, err, depth + 1));
      TRY(b = ev(h, tm_b(t), e, err, depth + 1));
      r = v_pair(h, a, b);
      return r ? r : eval_oom(err);
    case TM_FST:
    case TM_SND:
      TRY(a = ev(h, tm_a(t), e, err, depth + 1));
      if (a->kind == V_ZERO) return a; /* the zero of a product */
      if (a->kind != V_PAIR)
        return eval_fail(err, "internal: projection of a %s value", v_kind_name(a));
      return tm_kind(t) == TM_FST ? a->u.pair.a : a->u.pair.b;
    case TM_INL:
    case TM_INR:
      TRY(a = ev(h, tm_a(t), e, err, depth + 1));
      r = tm_kind(t) == TM_INL ? v_inl(h, a) : v_inr(h, a);
      return r ? r : eval_oom(err);
    case TM_CASE:
      TRY(a = ev(h, tm_a(t), e, err, depth + 1));
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
      TRY(a = ev(h, tm_a(t), e, err, depth + 1));
      cert.cur_term = t;   /* certified runs name the site of a branch */
      r = prim_eval(h, (int)tm_aux(t), a, &perr);
      if (!r) return eval_fail(err, "%s: %s", prim_name((int)tm_aux(t)), perr ? perr : "failed");
      return r;
    case TM_ITER: {
      TRY(a = ev(h, tm_a(t), e, err, depth + 1));
      TRY(need_int(a, "iteration count", &n, err));
      if (n < 0) return eval_fail(err, "iter: negative iteration count %" PRId64, n);
      const value *s;
      TRY(s = ev(h, tm_c(t), e, err, depth + 1));
      for (int64_t i = 0; i < n; i++) {
        const env *e2 = env_push(h, e, s);
        if (!e2) return eval_oom(err);
        TRY(s = ev(h, tm_b(t), e2, err, depth + 1));
      }
      return s;
    }
    case TM_LOOP: {
      TRY(a = ev(h, tm_a(t), e, err, depth + 1));
      TRY(need_int(a, "loop fuel", &n, err));
      if (n < 0) return eval_fail(err, "loop: negative fuel %" PRId64, n);
      const value *s;
      TRY(s = ev(h, tm_c(t), e, err, depth + 1));
      for (int64_t i = 0; i < n; i++) {
        const env *e2 = env_push(h, e, s);
        if (!e2) return eval_oom(err);
        TRY(s = ev(h, tm_b(t), e2, err, depth + 1));
        if (s->kind == V_INR) return s->u.pair.a;
        if (s->kind != V_INL) return eval_fail(err, "internal: loop body gave a %s value", v_kind_name(s));
        s = s->u.pair.a;
      }
      return eval_fail(err, "loop ran out of fuel (%" PRId64 " rounds)", n);
    }
    case TM_BUILD: {
      TRY(a = ev(h, tm_a(t), e, err, depth + 1));
      TRY(need_int(a, "build length", &n, err));
      if (n < 0) return eval_fail(err, "build: negative length %" PRId64, n);
      value *arr = v_array(h, n);
      if (!arr) return eval_oom(err);
      for (int64_t i = 0; i < n; i++) {
        const value *iv = v_int(h, i);
        const env *e2 = iv ? env_push(h, e, iv) : NULL;
        if (!e2) return eval_oom(err);
        TRY(arr->u.arr.elems[i] = ev(h, tm_b(t), e2, err, depth + 1));
      }
      return arr;
    }
    case TM_INDEX:
      TRY(a = ev(h, tm_a(t), e, err, depth + 1));
      TRY(b = ev(h, tm_b(t), e, err, depth + 1));
      TRY(need_int(b, "array index", &n, err));
      return v_index(h, a, n, err);
    case TM_LENGTH:
      TRY(a = ev(h, tm_a(t), e, err, depth + 1));
      if (a->kind == V_ARRAY) {
        r = v_int(h, a->u.arr.n);
        return r ? r : eval_oom(err);
      }
      if (a->kind == V_ZERO || a->kind == V_SPARSE)
        return eval_fail(err, "length of a length-free (zero or sparse) cotangent array");
      return eval_fail(err, "internal: length of a %s value", v_kind_name(a));
    case TM_MAP: {
      TRY(a = ev(h, tm_b(t), e, err, depth + 1));
      if (a->kind == V_ZERO || a->kind == V_SPARSE)
        return eval_fail(err, "map over a length-free (zero or sparse) cotangent array");
      if (a->kind != V_ARRAY) return eval_fail(err, "internal: map over a %s value", v_kind_name(a));
      value *arr = v_array(h, a->u.arr.n);
      if (!arr) return eval_oom(err);
      for (int64_t i = 0; i < a->u.arr.n; i++) {
        const env *e2 = env_push(h, e, a->u.arr.elems[i]);
        if (!e2) return eval_oom(err);
        TRY(arr->u.arr.elems[i] = ev(h, tm_a(t), e2, err, depth + 1));
      }
      return arr;
    }
    case TM_SUM:
      TRY(a = ev(h, tm_a(t), e, err, depth + 1));
      return sum_array(h, a, err);
    case TM_ZERO: return v_zero(h);
    case TM_PLUS: /* operands ending in one linear closure: applied once, to the sum */
      return lin_plus(&ops, h, t, e, err, depth, pt);
    case TM_CP_SINGLE:
      TRY(a = ev(h, tm_a(t), e, err, depth + 1));
      TRY(b = ev(h, tm_b(t), e, err, depth + 1));
      r = v_bag1(h, a, b);
      return r ? r : eval_oom(err);
    case TM_CP_FOLD: {
      TRY(a = ev(h, tm_a(t), e, err, depth + 1));
      if (a->kind == V_ZERO) return a;
      if (a->kind != V_BAG) return eval_fail(err, "internal: cp_fold of a %s value", v_kind_name(a));
      /* sum over the bag of body with x (index 1) and v (index 0) bound */
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
        const value *x = ev(h, tm_b(t), e2, err, depth + 1);
        acc = x ? v_plus(h, acc, x, err) : NULL;
      }
      if (acc && it.oom) acc = eval_oom(err);
      entry_iter_done(&it);
      return acc;
    }
    case TM_LSUM: {
      TRY(a = ev(h, tm_a(t), e, err, depth + 1));
      TRY(need_int(a, "lsum count", &n, err));
      if (n < 0) return eval_fail(err, "lsum: negative count %" PRId64, n);
      const value *acc = v_zero(h);
      for (int64_t i = 0; i < n; i++) {
        const value *iv = v_int(h, i);
        const env *e2 = iv ? env_push(h, e, iv) : NULL;
        if (!e2) return eval_oom(err);
        const value *x;
        TRY(x = ev(h, tm_b(t), e2, err, depth + 1));
        TRY(acc = v_plus(h, acc, x, err));
      }
      return acc;
    }
    case TM_LOP_D:
    case TM_LOP_DT: {
      TRY(a = ev(h, tm_a(t), e, err, depth + 1));
      TRY(b = ev(h, tm_b(t), e, err, depth + 1));
      int op = (int)tm_aux(t);
      r = tm_kind(t) == TM_LOP_D ? prim_dop(h, op, a, b, &perr) : prim_dopT(h, op, a, b, &perr);
      if (!r)
        return eval_fail(err, "%s of %s: %s", tm_kind(t) == TM_LOP_D ? "Dop" : "DopT",
                         prim_name(op), perr ? perr : "failed");
      return r;
    }
    case TM_ONEHOT:
      TRY(a = ev(h, tm_a(t), e, err, depth + 1));
      TRY(b = ev(h, tm_b(t), e, err, depth + 1));
      TRY(need_int(a, "onehot index", &n, err));
      return v_onehot(h, n, b, err);
    case TM_NKINDS: break;
    }
    return eval_fail(err, "internal: term %d has unknown kind %d", t, tm_kind(t));
  }
}
#undef t

static const value *ev(heap *h, int t, const env *e, eval_error *err, int depth) {
  return ev_lin(h, t, e, err, depth, NULL);
}

static const value *ev_lin(heap *h, int t, const env *e, eval_error *err, int depth,
                           lin_app *defer) {
  return lin_eval(&ops, h, t, e, err, depth, defer);
}

/* Applies fn to arg. A CLO_PLUS closure is a tree of summands: it is walked
 * with an explicit stack so that long sums do not nest the C stack. */
static const value *apply(heap *h, const value *fn, const value *arg, eval_error *err,
                          int depth) {
  if (!fn || !arg) return eval_fail(err, "internal: application of nothing");
  if (fn->kind == V_ZERO) return fn; /* the zero power / zero linear map */
  if (fn->kind != V_CLOSURE)
    return eval_fail(err, "internal: application of a %s value", v_kind_name(fn));
  if (fn->u.clo.term != CLO_PLUS) {
    const value *r = memo_get(h, fn, arg);
    if (r) return r;
    const env *e = env_push(h, fn->u.clo.env, arg);
    if (!e) return eval_oom(err);
    r = ev(h, tm_a(fn->u.clo.term), e, err, depth);
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
    const value *x = apply(h, f, arg, err, depth);
    acc = x ? v_plus(h, acc, x, err) : NULL;
  }
  free(stack);
  return acc;
}

/* Evaluation first runs on the caller's stack with the limit
 * EVAL_MAX_DEPTH_SMALL_STACK (cheap: no thread). Only if that limit is hit is
 * it re-run from scratch on a thread whose stack holds the full limit
 * (eval_run_deep), so that deep terms fit whatever the caller's stack is
 * (ASan frames are large). Evaluation is pure, so re-running is safe; the
 * first attempt's allocations are released before the retry. */
typedef struct job {
  heap *h;
  int term;             /* >= 0: evaluate term in e; < 0: apply fn to arg */
  const env *e;
  const value *fn, *arg;
  eval_error *err;
  int start_depth;      /* depth already used up                          */
  const value *result;
} job;

static void run_job(job *j) {
  eval_error_clear(j->err);
  if (j->term >= 0) j->result = ev(j->h, j->term, j->e, j->err, j->start_depth);
  else j->result = apply(j->h, j->fn, j->arg, j->err, j->start_depth);
}

static void *job_thread(void *p) {
  run_job(p);
  return NULL;
}

int eval_small_stack_start(void) {
  return max_depth > EVAL_MAX_DEPTH_SMALL_STACK ? max_depth - EVAL_MAX_DEPTH_SMALL_STACK : 0;
}

int eval_run_deep(void *(*fn)(void *), void *arg, eval_error *err) {
  pthread_attr_t attr;
  pthread_t th;
  int started = pthread_attr_init(&attr) == 0;
  if (started) {
    started = pthread_attr_setstacksize(&attr, eval_stack_bytes()) == 0 &&
              pthread_create(&th, &attr, fn, arg) == 0;
    pthread_attr_destroy(&attr);
  }
  if (!started) {
    eval_fail(err, "term nested deeper than %d levels, and no thread with a stack of %zu MiB "
              "could be started to evaluate it (a lower nesting limit needs less)",
              EVAL_MAX_DEPTH_SMALL_STACK, eval_stack_bytes() >> 20);
    err->depth_exceeded = 1;
    return 0;
  }
  pthread_join(th, NULL);
  return 1;
}

static void run_with_stack_fallback(job *j) {
  heap_mark_t mark = heap_mark(j->h);
  j->start_depth = eval_small_stack_start();
  run_job(j);
  if (j->result || !j->err->depth_exceeded || j->start_depth == 0) return;
  heap_release(j->h, mark); /* the failed attempt's values are garbage */
  /* set before the thread starts: the thread reads it at once */
  j->start_depth = 0;
  eval_run_deep(job_thread, j, j->err);
}

const value *eval_ref(heap *h, int term, const env *e, eval_error *err) {
  eval_error local;
  if (!err) err = &local;
  eval_error_clear(err);
  if (term < 0) return eval_fail(err, "internal: no term %d", term);
  job j = {h, term, e, NULL, NULL, err, 0, NULL};
  run_with_stack_fallback(&j);
  const value *r = j.result;
  if (!r) {
    if (err->exit_code == CHAD_EXIT_OK) eval_fail(err, "evaluation failed");
    if (err->term < 0) err->term = term;
  }
  return r;
}

const value *eval_apply(heap *h, const value *fn, const value *arg, eval_error *err) {
  eval_error local;
  if (!err) err = &local;
  eval_error_clear(err);
  job j = {h, -1, NULL, fn, arg, err, 0, NULL};
  run_with_stack_fallback(&j);
  const value *r = j.result;
  if (!r && err->exit_code == CHAD_EXIT_OK) eval_fail(err, "evaluation failed");
  return r;
}
