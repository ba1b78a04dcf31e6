/* A tree copy of a source term, so that the shrinker can edit a failing
 * program and rebuild it in a fresh arena (after tm_init) through the same
 * checked constructors. */
#include <stdlib.h>
#include "pt.h"

static ptree *node_new(void) {
  ptree *p = calloc(1, sizeof *p);
  if (!p) { fprintf(stderr, "proptest: out of memory\n"); exit(4); }
  return p;
}

ptree *pt_extract(int t) {
  ptree *p = node_new();
  p->kind = tm_kind(t);
  p->ty = tm_type(t);
  p->ctx = tm_ctx(t);
  p->aux = tm_aux(t);
  p->rval = tm_rval(t);
  p->ann = -1;
  if (p->kind == TM_LAM) p->ann = ty_left(p->ty);
  if (p->kind == TM_INL) p->ann = ty_right(p->ty);
  if (p->kind == TM_INR) p->ann = ty_left(p->ty);
  int ks[3] = {tm_a(t), tm_b(t), tm_c(t)};
  for (int i = 0; i < 3; i++)
    if (ks[i] >= 0) p->kid[p->nkids++] = pt_extract(ks[i]);
  return p;
}

ptree *pt_copy(const ptree *p) {
  ptree *q = node_new();
  *q = *p;
  for (int i = 0; i < p->nkids; i++) q->kid[i] = pt_copy(p->kid[i]);
  return q;
}

void pt_free(ptree *p) {
  if (!p) return;
  for (int i = 0; i < p->nkids; i++) pt_free(p->kid[i]);
  free(p);
}

int pt_size(const ptree *p) {
  int n = 1;
  for (int i = 0; i < p->nkids; i++) n += pt_size(p->kid[i]);
  return n;
}

static ptree **nth(ptree **root, int *n) {
  if (*n == 0) return root;
  (*n)--;
  for (int i = 0; i < (*root)->nkids; i++) {
    ptree **r = nth(&(*root)->kid[i], n);
    if (r) return r;
  }
  return NULL;
}

ptree **pt_nth(ptree **root, int n) { return nth(root, &n); }

#define RB(k, g) do { c[k] = pt_rebuild(p->kid[k], (g)); if (c[k] < 0) return c[k]; } while (0)

int pt_rebuild(const ptree *p, int g) {
  int c[3] = {-1, -1, -1};
  switch (p->kind) {
  case TM_VAR: return tm_var(g, (int)p->aux);
  case TM_LET: RB(0, g); RB(1, ctx_extend(g, tm_type(c[0]))); return tm_let(c[0], c[1]);
  case TM_LAM: RB(0, ctx_extend(g, p->ann)); return tm_lam(p->ann, c[0]);
  case TM_APP: RB(0, g); RB(1, g); return tm_app(c[0], c[1]);
  case TM_UNIT: return tm_unit(g);
  case TM_PAIR: RB(0, g); RB(1, g); return tm_pair(c[0], c[1]);
  case TM_FST: RB(0, g); return tm_fst(c[0]);
  case TM_SND: RB(0, g); return tm_snd(c[0]);
  case TM_INL: RB(0, g); return tm_inl(c[0], p->ann);
  case TM_INR: RB(0, g); return tm_inr(p->ann, c[0]);
  case TM_CASE: {
    RB(0, g);
    int st = tm_type(c[0]);
    RB(1, ctx_extend(g, ty_left(st)));
    RB(2, ctx_extend(g, ty_right(st)));
    return tm_case(c[0], c[1], c[2]);
  }
  case TM_RCONST: return tm_rconst(g, p->rval);
  case TM_ICONST: return tm_iconst(g, p->aux);
  case TM_OP: RB(0, g); return tm_op((int)p->aux, c[0]);
  case TM_ITER: RB(0, g); RB(2, g); RB(1, ctx_extend(g, tm_type(c[2]))); return tm_iter(c[0], c[1], c[2]);
  case TM_LOOP: RB(0, g); RB(2, g); RB(1, ctx_extend(g, tm_type(c[2]))); return tm_loop(c[0], c[1], c[2]);
  case TM_BUILD: RB(0, g); RB(1, ctx_extend(g, TY_ID_INT)); return tm_build(c[0], c[1]);
  case TM_INDEX: RB(0, g); RB(1, g); return tm_index(c[0], c[1]);
  case TM_LENGTH: RB(0, g); return tm_length(c[0]);
  case TM_MAP: RB(1, g); RB(0, ctx_extend(g, ty_left(tm_type(c[1])))); return tm_map(c[0], c[1]);
  case TM_SUM: RB(0, g); return tm_sum(c[0]);
  default: return CHAD_E_ARG;
  }
}

static ptree *mk(int kind, int ty, int ctx) {
  ptree *p = node_new();
  p->kind = kind; p->ty = ty; p->ctx = ctx; p->ann = -1;
  return p;
}
static ptree *mk1(int kind, int ty, int ctx, ptree *a) {
  ptree *p = mk(kind, ty, ctx);
  p->kid[p->nkids++] = a;
  return p;
}

/* Closed "small" terms of each type. variant 0: zero-like constant,
 * variant 1: one-like constant, variant 2+k: variable k if it has type ty. */
ptree *pt_leaf(int ty, int g, int variant, int len) {
  if (variant >= 2) {
    int k = variant - 2;
    if (k >= ctx_length(g) || ctx_lookup(g, k) != ty) return NULL;
    ptree *p = mk(TM_VAR, ty, g);
    p->aux = k;
    return p;
  }
  ptree *p, *a, *b;
  switch (ty_kind(ty)) {
  case TY_REAL: p = mk(TM_RCONST, ty, g); p->rval = variant ? 1.0 : 0.0; return p;
  case TY_INT: p = mk(TM_ICONST, ty, g); p->aux = variant; return p;
  case TY_UNIT: if (variant) return NULL; return mk(TM_UNIT, ty, g);
  case TY_PROD:
    a = pt_leaf(ty_left(ty), g, variant, len);
    b = pt_leaf(ty_right(ty), g, variant, len);
    if (!a || !b) { pt_free(a); pt_free(b); a = pt_leaf(ty_left(ty), g, 0, len); b = pt_leaf(ty_right(ty), g, 0, len); }
    if (!a || !b) { pt_free(a); pt_free(b); return NULL; }
    p = mk(TM_PAIR, ty, g); p->kid[0] = a; p->kid[1] = b; p->nkids = 2;
    return p;
  case TY_SUM:
    a = pt_leaf(variant ? ty_right(ty) : ty_left(ty), g, 0, len);
    if (!a) return NULL;
    if (variant == 0) { p = mk1(TM_INL, ty, g, a); p->ann = ty_right(ty); }
    else { p = mk1(TM_INR, ty, g, a); p->ann = ty_left(ty); }
    return p;
  case TY_ARR: {
    int gi = ctx_extend(g, TY_ID_INT);
    ptree *n = mk(TM_ICONST, TY_ID_INT, g);
    n->aux = len;
    p = mk(TM_BUILD, ty, g);
    p->kid[0] = n;
    p->kid[1] = pt_leaf(ty_left(ty), gi, variant, len);
    if (!p->kid[1]) p->kid[1] = pt_leaf(ty_left(ty), gi, 0, len);
    p->nkids = 2;
    if (!p->kid[1]) { p->nkids = 1; pt_free(p); return NULL; }
    return p;
  }
  case TY_FUN: {
    if (variant) return NULL;
    a = pt_leaf(ty_right(ty), ctx_extend(g, ty_left(ty)), 0, len);
    if (!a) return NULL;
    p = mk1(TM_LAM, ty, g, a);
    p->ann = ty_left(ty);
    return p;
  }
  default: return NULL;
  }
}

/* Does child i of a node of this kind sit under one more binder? */
static int binds(int kind, int i) {
  switch (kind) {
  case TM_LET: case TM_ITER: case TM_LOOP: case TM_BUILD: return i == 1;
  case TM_LAM: case TM_MAP: return i == 0;
  case TM_CASE: return i >= 1;
  default: return 0;
  }
}

static ptree *strengthen(const ptree *p, int depth) {
  if (p->kind == TM_VAR) {
    if (p->aux == depth) return NULL;           /* uses the dropped binder */
    ptree *q = pt_copy(p);
    if (q->aux > depth) q->aux--;
    return q;
  }
  ptree *q = node_new();
  *q = *p;
  for (int i = 0; i < p->nkids; i++) {
    q->kid[i] = strengthen(p->kid[i], depth + binds(p->kind, i));
    if (!q->kid[i]) {
      for (int j = 0; j < i; j++) pt_free(q->kid[j]);
      free(q);
      return NULL;
    }
  }
  return q;
}

ptree *pt_strengthen(const ptree *p) { return strengthen(p, 0); }

/* p (under depth binders inside a let's body) with the let's binder, var
 * depth, replaced by var k of the let's context (var k + depth here), and
 * the variables bound outside the let one binder nearer */
static ptree *subst_var(const ptree *p, int depth, int64_t k) {
  ptree *q = node_new();
  *q = *p;
  if (p->kind == TM_VAR) {
    if (p->aux == depth) q->aux = k + depth;
    else if (p->aux > depth) q->aux--;
    return q;
  }
  for (int i = 0; i < p->nkids; i++) q->kid[i] = subst_var(p->kid[i], depth + binds(p->kind, i), k);
  return q;
}

ptree *pt_inline_var(const ptree *p) {
  if (p->kind != TM_LET || p->nkids != 2 || p->kid[0]->kind != TM_VAR) return NULL;
  return subst_var(p->kid[1], 0, p->kid[0]->aux);
}
