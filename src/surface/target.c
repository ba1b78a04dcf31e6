/* Surface language: elaboration of defs that use the target language (the
 * syntax `chad fwd` and `chad rev` print: lfun, <|, <+>, zero{t}, D[op],
 * DT[op], single, fold, lsum, onehot, the types a -o b and !a (x) b).
 *
 * The kernel checker (chk_elab) elaborates source raw terms only, so a def
 * with target syntax is elaborated here instead, straight into the term
 * arena with the kernel's term builders (tm_*), which check every typing
 * rule of kernel.h and refuse an ill-typed node. Types flow bottom-up, with
 * an expected type passed down where a construct needs one (an unannotated
 * fun or the other side of inl/inr); the printer annotates everything else.
 * Unproved, like the rest of src/surface; spec/surface.md §6. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad/primitives.h"
#include "surface_internal.h"

typedef struct {
  const surf_program *prog;
  chad_diag *d;
  int g;          /* the context of the term being elaborated       */
  int level;      /* its length                                     */
  int *def_level; /* level of each let-bound def, -1 if not bound   */
  int depth;
  int *pos;       /* (term, line, col) of each term made            */
  int npos, cappos;
} telab;

#define TEL_MAX_DEPTH CHAD_MAX_CHECK_DEPTH

static int tfail(telab *E, const snode *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int tfail(telab *E, const snode *n, const char *fmt, ...)
{
  if (E->d->exit_code != CHAD_EXIT_OK)
    return -1; /* the first error stands */
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  diag_set(E->d, CHAD_EXIT_INPUT, E->prog->file, n ? n->line : 0, n ? n->col : 0, "%s", msg);
  return -1;
}

/* The host out of memory is a runtime error (exit 3), not the input's fault. */
static int toom(telab *E, const snode *n)
{
  if (E->d->exit_code == CHAD_EXIT_OK)
    diag_set(E->d, CHAD_EXIT_RUNTIME, E->prog->file, n ? n->line : 0, n ? n->col : 0,
             "out of memory while elaborating");
  return -1;
}

/* "expected E, found F" with both types printed */
static int tmismatch(telab *E, const snode *n, const char *what, int exp, int found)
{
  char *e = surf_print_type(exp), *f = surf_print_type(found);
  tfail(E, n, "type mismatch: %s%sexpected %s, found %s", what ? what : "", what ? ": " : "",
        e ? e : "?", f ? f : "?");
  free(e);
  free(f);
  return -1;
}

/* A kernel type; target types (a -o b, !a (x) b, arrays of them) allowed. */
static int ttype(telab *E, const stype *t)
{
  int l, r, res;
  switch (t->kind) {
  case TY_REAL: return TY_ID_REAL;
  case TY_INT: return TY_ID_INT;
  case TY_UNIT: return TY_ID_UNIT;
  case TY_ARR:
    l = ttype(E, t->l);
    if (l < 0)
      return l;
    res = ty_arr(l);
    break;
  default:
    l = ttype(E, t->l);
    if (l < 0)
      return l;
    r = ttype(E, t->r);
    if (r < 0)
      return r;
    res = ty_make(t->kind, l, r);
    break;
  }
  if (res < 0) {
    diag_set(E->d, CHAD_EXIT_INPUT, E->prog->file, t->line, t->col,
             res == CHAD_E_CAPACITY ? "too many distinct types (kernel type table full)"
                                    : "not a valid type here (for example a copower of a type that is not linear)");
    return -1;
  }
  return res;
}

/* The result of a term builder: a term, or an error at n. */
static int built(telab *E, const snode *n, int t, const char *what)
{
  if (t >= 0) {
    if (E->npos == E->cappos) {
      int cap = E->cappos ? 2 * E->cappos : 256;
      int *q = realloc(E->pos, (size_t)cap * 3 * sizeof *q);
      if (!q)
        return t; /* positions are a courtesy: go on without */
      E->pos = q;
      E->cappos = cap;
    }
    E->pos[3 * E->npos] = t;
    E->pos[3 * E->npos + 1] = n->line;
    E->pos[3 * E->npos + 2] = n->col;
    E->npos++;
    return t;
  }
  if (t == CHAD_E_CAPACITY)
    return tfail(E, n, "program too large: the term arena is full");
  return tfail(E, n, "ill-typed %s (the kernel refuses it: error %d)", what, t);
}

static int tel(telab *E, const snode *n, int exp);

/* n elaborated under one more binder b of type ty */
static int tel_under(telab *E, sbinder *b, int ty, const snode *n, int exp)
{
  int g = E->g;
  int g2 = ctx_extend(g, ty);
  if (g2 < 0)
    return tfail(E, n, "too many contexts (kernel context table full)");
  if (b)
    b->level = E->level;
  E->g = g2;
  E->level++;
  int r = tel(E, n, exp);
  E->level--;
  E->g = g;
  return r;
}

static int need_kind(telab *E, const snode *n, int t, int kind, const char *what)
{
  if (t < 0)
    return -1;
  if (ty_kind_[tm_type(t)] != kind) {
    char *f = surf_print_type(tm_type(t));
    tfail(E, n, "type mismatch: expected %s, found %s", what, f ? f : "?");
    free(f);
    return -1;
  }
  return t;
}

/* t must have type exp (when exp >= 0) */
static int need_type(telab *E, const snode *n, int t, int exp, const char *what)
{
  if (t < 0 || exp < 0 || tm_type(t) == exp)
    return t;
  return tmismatch(E, n, what, exp, tm_type(t));
}

/* The op applied to arg: op_alt_ (the integer version of an overloaded
 * operator) when the argument has its domain. */
static int tel_op(telab *E, const snode *n, int op, int arg)
{
  if (arg < 0)
    return -1;
  int at = tm_type(arg);
  if (op >= 0 && op < op_count && op_dom_[op] != at && op_alt_[op] >= 0 && op_dom_[op_alt_[op]] == at)
    op = op_alt_[op];
  if (op < 0 || op >= op_count)
    return tfail(E, n, "unknown primitive");
  if (op_dom_[op] != at)
    return tmismatch(E, n, n->what ? n->what : prim_name(op), op_dom_[op], at);
  return built(E, n, tm_op(op, arg), "primitive application");
}

static int tel_lam(telab *E, const snode *n, int exp)
{
  int lin = n->kind == TM_LLAM, fk = lin ? TY_LFUN : TY_FUN;
  int dom;
  if (n->eta_op >= 0) {
    int d = n->eta_op < op_count ? op_dom_[n->eta_op] : -1;
    if (d < 0)
      return tfail(E, n, "primitive not registered (prims_init)");
    dom = n->eta_side == 0 ? d : n->eta_side == 1 ? ty_left_[d] : ty_right_[d];
  } else if (n->ty) {
    if ((dom = ttype(E, n->ty)) < 0)
      return -1;
  } else if (exp >= 0 && ty_kind_[exp] == fk) {
    dom = ty_left_[exp];
  } else if (n->role == ROLE_KW_FUN) {
    return tfail(E, n, "'%s' used as a function: the type of its argument cannot be inferred here", n->what);
  } else {
    return tfail(E, n, "missing type annotation: write %s (x : real) -> ...", lin ? "lfun" : "fun");
  }
  int bexp = exp >= 0 && ty_kind_[exp] == fk && ty_left_[exp] == dom ? ty_right_[exp] : -1;
  int body = tel_under(E, n->ba, dom, n->a, bexp);
  if (body < 0)
    return -1;
  return built(E, n, lin ? tm_llam(dom, body) : tm_lam(dom, body), lin ? "lfun" : "fun");
}

/* let x1 = e1 in ... let xn = en in body: iteratively (chains are long) */
static int tel_let(telab *E, const snode *n, int exp)
{
  int len = 0;
  const snode *m;
  for (m = n; m->kind == TM_LET; m = m->b)
    len++;
  int *bound = malloc((size_t)len * 2 * sizeof *bound);
  if (!bound)
    return toom(E, n);
  int *gs = bound + len;
  int g0 = E->g, lv0 = E->level, i = 0, r = 0;
  for (m = n; m->kind == TM_LET; m = m->b) {
    r = tel(E, m->a, -1);
    if (r < 0)
      break;
    bound[i] = r;
    gs[i] = E->g;
    i++;
    int g2 = ctx_extend(E->g, tm_type(r));
    if (g2 < 0) {
      r = tfail(E, m, "too many contexts (kernel context table full)");
      break;
    }
    if (m->bb)
      m->bb->level = E->level;
    E->g = g2;
    E->level++;
  }
  if (r >= 0)
    r = tel(E, m, exp);
  const snode **chain = r >= 0 ? malloc((size_t)len * sizeof *chain) : NULL;
  if (r >= 0 && !chain)
    r = toom(E, n);
  if (r >= 0) {
    int j = 0;
    for (m = n; m->kind == TM_LET; m = m->b)
      chain[j++] = m;
    for (j = len - 1; j >= 0 && r >= 0; j--)
      r = built(E, chain[j], tm_let(bound[j], r), "let");
  }
  free(chain);
  free(bound);
  E->g = g0;
  E->level = lv0;
  return r;
}

static int tel_case(telab *E, const snode *n, int exp)
{
  int s = need_kind(E, n->a, tel(E, n->a, -1), TY_SUM, "a sum type (such as bool)");
  if (s < 0)
    return -1;
  int st = tm_type(s);
  int l = tel_under(E, n->bb, ty_left_[st], n->b, exp);
  if (l < 0)
    return -1;
  int r = need_type(E, n->c, tel_under(E, n->bc, ty_right_[st], n->c, tm_type(l)), tm_type(l),
                    "the branches of case (or if) have different types");
  if (r < 0)
    return -1;
  return built(E, n, tm_case(s, l, r), "case");
}

static int tel_fold(telab *E, const snode *n, int exp)
{
  int w = need_kind(E, n->a, tel(E, n->a, -1), TY_COPOW, "a copower !a (x) b");
  if (w < 0)
    return -1;
  int wt = tm_type(w);
  int xt = ttype(E, n->ty), vt = xt >= 0 ? ttype(E, n->ty2) : -1;
  if (xt < 0 || vt < 0)
    return -1;
  if (xt != ty_left_[wt] || vt != ty_right_[wt])
    return tmismatch(E, n, "the parameters of fold", wt, ty_make(TY_COPOW, xt, vt));
  int g = E->g, g1 = ctx_extend(g, xt), g2 = g1 >= 0 ? ctx_extend(g1, vt) : -1;
  if (g2 < 0)
    return tfail(E, n, "too many contexts (kernel context table full)");
  n->bb->level = E->level;
  n->bc->level = E->level + 1;
  E->g = g2;
  E->level += 2;
  int body = tel(E, n->b, exp);
  E->level -= 2;
  E->g = g;
  if (body < 0)
    return -1;
  return built(E, n, tm_cp_fold(w, body), "fold");
}

static int tel_body(telab *E, const snode *n, int exp)
{
  int a, b, c, t;
  switch (n->kind) {
  case TM_VAR:
    return built(E, n, tm_var(E->g, E->level - 1 - n->var->level), "variable");
  case SN_DEFREF: {
    int lv = E->def_level[n->aux];
    if (lv < 0)
      return tfail(E, n, "internal error: def '%s' is not in scope", n->what);
    return built(E, n, tm_var(E->g, E->level - 1 - lv), "variable");
  }
  case RAW_ANN: {
    if ((t = ttype(E, n->ty)) < 0)
      return -1;
    if (exp >= 0 && t != exp)
      return tmismatch(E, n, NULL, exp, t);
    return need_type(E, n->a, tel(E, n->a, t), t, NULL);
  }
  case TM_UNIT: return built(E, n, tm_unit(E->g), "()");
  case TM_RCONST: return built(E, n, tm_rconst(E->g, n->rval), "real");
  case TM_ICONST: return built(E, n, tm_iconst(E->g, n->aux), "integer");
  case TM_LET: return tel_let(E, n, exp);
  case TM_LAM: case TM_LLAM: return tel_lam(E, n, exp);
  case TM_APP: case TM_LAPP: {
    int lin = n->kind == TM_LAPP;
    a = need_kind(E, n->a, tel(E, n->a, -1), lin ? TY_LFUN : TY_FUN, lin ? "a linear function (a -o b)" : "a function");
    if (a < 0)
      return -1;
    int dom = ty_left_[tm_type(a)];
    b = need_type(E, n->b, tel(E, n->b, dom), dom, lin ? "the argument of <|" : "the argument");
    if (b < 0)
      return -1;
    return built(E, n, lin ? tm_lapp(a, b) : tm_app(a, b), lin ? "<|" : "application");
  }
  case TM_PAIR: {
    int pe = exp >= 0 && ty_kind_[exp] == TY_PROD;
    if ((a = tel(E, n->a, pe ? ty_left_[exp] : -1)) < 0 || (b = tel(E, n->b, pe ? ty_right_[exp] : -1)) < 0)
      return -1;
    return built(E, n, tm_pair(a, b), "pair");
  }
  case TM_FST: case TM_SND:
    a = need_kind(E, n->a, tel(E, n->a, -1), TY_PROD, "a pair");
    if (a < 0)
      return -1;
    return built(E, n, n->kind == TM_FST ? tm_fst(a) : tm_snd(a), n->kind == TM_FST ? "fst" : "snd");
  case TM_INL: case TM_INR: {
    int left = n->kind == TM_INL, other = -1;
    if (n->ty) {
      if ((other = ttype(E, n->ty)) < 0)
        return -1;
    } else if (exp >= 0 && ty_kind_[exp] == TY_SUM) {
      other = left ? ty_right_[exp] : ty_left_[exp];
    } else {
      return tfail(E, n, "cannot infer the other side of this %s: annotate it, as in (%s e : real + int)",
                   left ? "inl" : "inr", left ? "inl" : "inr");
    }
    int se = exp >= 0 && ty_kind_[exp] == TY_SUM ? (left ? ty_left_[exp] : ty_right_[exp]) : -1;
    if ((a = tel(E, n->a, se)) < 0)
      return -1;
    return built(E, n, left ? tm_inl(a, other) : tm_inr(other, a), left ? "inl" : "inr");
  }
  case TM_CASE: return tel_case(E, n, exp);
  case TM_OP: return tel_op(E, n, (int)n->aux, tel(E, n->a, -1));
  case TM_ITER:
    if ((a = need_type(E, n->a, tel(E, n->a, TY_ID_INT), TY_ID_INT, "the count of iter")) < 0 ||
        (c = tel(E, n->c, exp)) < 0)
      return -1;
    b = need_type(E, n->b, tel_under(E, n->bb, tm_type(c), n->b, tm_type(c)), tm_type(c), "the body of iter");
    if (b < 0)
      return -1;
    return built(E, n, tm_iter(a, b, c), "iter");
  case TM_LOOP: {
    if ((a = need_type(E, n->a, tel(E, n->a, TY_ID_INT), TY_ID_INT, "the fuel of loop")) < 0 ||
        (c = tel(E, n->c, exp)) < 0)
      return -1;
    int ts = ty_sum(tm_type(c), tm_type(c));
    if (ts < 0)
      return built(E, n, ts, "loop");
    b = need_type(E, n->b, tel_under(E, n->bb, tm_type(c), n->b, ts), ts, "the body of loop");
    if (b < 0)
      return -1;
    return built(E, n, tm_loop(a, b, c), "loop");
  }
  case TM_BUILD: case TM_LSUM: {
    int lsum = n->kind == TM_LSUM;
    if ((a = need_type(E, n->a, tel(E, n->a, TY_ID_INT), TY_ID_INT, lsum ? "the count of lsum" : "the length of build")) < 0)
      return -1;
    int be = lsum ? exp : exp >= 0 && ty_kind_[exp] == TY_ARR ? ty_left_[exp] : -1;
    if ((b = tel_under(E, n->bb, TY_ID_INT, n->b, be)) < 0)
      return -1;
    return built(E, n, lsum ? tm_lsum(a, b) : tm_build(a, b), lsum ? "lsum" : "build");
  }
  case TM_INDEX:
    if ((a = need_kind(E, n->a, tel(E, n->a, -1), TY_ARR, "an array")) < 0 ||
        (b = need_type(E, n->b, tel(E, n->b, TY_ID_INT), TY_ID_INT, "the index")) < 0)
      return -1;
    return built(E, n, tm_index(a, b), "indexing");
  case TM_LENGTH:
    if ((a = need_kind(E, n->a, tel(E, n->a, -1), TY_ARR, "an array")) < 0)
      return -1;
    return built(E, n, tm_length(a), "length");
  case TM_SUM:
    if ((a = need_type(E, n->a, tel(E, n->a, -1), ty_arr(TY_ID_REAL), "the argument of sum")) < 0)
      return -1;
    return built(E, n, tm_sum(a), "sum");
  case TM_MAP: {
    if ((b = need_kind(E, n->b, tel(E, n->b, -1), TY_ARR, "an array")) < 0)
      return -1;
    int me = exp >= 0 && ty_kind_[exp] == TY_ARR ? ty_left_[exp] : -1;
    if ((a = tel_under(E, n->ba, ty_left_[tm_type(b)], n->a, me)) < 0)
      return -1;
    return built(E, n, tm_map(a, b), "map");
  }
  case TM_ZERO:
    if ((t = ttype(E, n->ty)) < 0)
      return -1;
    if (!ty_is_linear(t)) {
      char *s = surf_print_type(t);
      tfail(E, n, "zero{%s}: not a linear type (one with zero and <+>)", s ? s : "?");
      free(s);
      return -1;
    }
    return built(E, n, tm_zero(E->g, t), "zero");
  case TM_PLUS:
    if ((a = tel(E, n->a, exp)) < 0)
      return -1;
    if (!ty_is_linear(tm_type(a))) {
      char *s = surf_print_type(tm_type(a));
      tfail(E, n, "type mismatch: '<+>' needs a linear type (one with zero and <+>), found %s", s ? s : "?");
      free(s);
      return -1;
    }
    if ((b = need_type(E, n->b, tel(E, n->b, tm_type(a)), tm_type(a), "the operands of <+>")) < 0)
      return -1;
    return built(E, n, tm_plus(a, b), "<+>");
  case TM_CP_SINGLE: {
    int ce = exp >= 0 && ty_kind_[exp] == TY_COPOW;
    if ((a = tel(E, n->a, ce ? ty_left_[exp] : -1)) < 0 || (b = tel(E, n->b, ce ? ty_right_[exp] : -1)) < 0)
      return -1;
    return built(E, n, tm_cp_single(a, b), "single");
  }
  case TM_CP_FOLD: return tel_fold(E, n, exp);
  case TM_ONEHOT:
    if ((a = need_type(E, n->a, tel(E, n->a, TY_ID_INT), TY_ID_INT, "the index of onehot")) < 0 ||
        (b = tel(E, n->b, exp >= 0 && ty_kind_[exp] == TY_ARR ? ty_left_[exp] : -1)) < 0)
      return -1;
    return built(E, n, tm_onehot(a, b), "onehot");
  case TM_LOP_D: case TM_LOP_DT: {
    int op = (int)n->aux, dt = n->kind == TM_LOP_DT;
    if (op < 0 || op >= op_count)
      return tfail(E, n, "primitive not registered (prims_init)");
    if ((a = need_type(E, n->a, tel(E, n->a, op_dom_[op]), op_dom_[op], "the point of D[op]")) < 0)
      return -1;
    if ((b = tel(E, n->b, dt ? op_tcod_[op] : op_tdom_[op])) < 0)
      return -1;
    if ((b = need_type(E, n->b, b, dt ? op_tcod_[op] : op_tdom_[op], dt ? "the cotangent of DT[op]" : "the tangent of D[op]")) < 0)
      return -1;
    return built(E, n, dt ? tm_lop_dt(op, a, b) : tm_lop_d(op, a, b), dt ? "DT[op]" : "D[op]");
  }
  default:
    return tfail(E, n, "internal error: node kind %d", n->kind);
  }
}

static int tel(telab *E, const snode *n, int exp)
{
  if (++E->depth > TEL_MAX_DEPTH) {
    E->depth--;
    return tfail(E, n, "expression nested too deeply for the checker (limit %d)", TEL_MAX_DEPTH);
  }
  int r = tel_body(E, n, exp);
  E->depth--;
  return r;
}

/* def j as `fun (y1 : t1) -> ... -> (body : result)` in the current context */
static int tel_def_value(telab *E, const sdef *dj)
{
  int g = E->g, lv = E->level;
  int *tys = malloc(((size_t)dj->nparams + 1) * sizeof *tys);
  if (!tys)
    return toom(E, NULL);
  int r = 0;
  for (int i = 0; i < dj->nparams && r >= 0; i++) {
    if ((tys[i] = ttype(E, dj->ptypes[i])) < 0) {
      r = -1;
      break;
    }
    int g2 = ctx_extend(E->g, tys[i]);
    if (g2 < 0) {
      r = tfail(E, dj->body, "too many contexts (kernel context table full)");
      break;
    }
    dj->params[i]->level = E->level++;
    E->g = g2;
  }
  int res = -1;
  if (r >= 0 && dj->result && (res = ttype(E, dj->result)) < 0)
    r = -1;
  if (r >= 0)
    r = need_type(E, dj->body, tel(E, dj->body, res), res, "the body of the def against its declared result type");
  E->g = g;
  E->level = lv;
  for (int i = dj->nparams - 1; i >= 0 && r >= 0; i--) {
    r = tm_lam(tys[i], r);
    if (r < 0)
      r = tfail(E, dj->body, "ill-typed def value (error %d)", r);
  }
  free(tys);
  return r;
}

int surf_elab_target(const surf_program *p, int k, const char *need, int g, int result, int *term,
                     chad_diag *d)
{
  const sdef *dk = &p->defs[k];
  int *def_level = malloc(((size_t)p->ndefs + 1) * sizeof *def_level);
  int *bound = malloc(((size_t)k + 1) * sizeof *bound);
  telab E = {p, d, g, dk->nparams, def_level, 0, NULL, 0, 0};
  int start = tm_count;
  int rc = CHAD_EXIT_INPUT, nbound = 0, t = -1;
  if (!def_level || !bound) {
    diag_set(d, CHAD_EXIT_RUNTIME, p->file, dk->line, dk->col, "out of memory while elaborating");
    goto out;
  }
  for (int j = 0; j < p->ndefs; j++)
    def_level[j] = -1;
  for (int i = 0; i < dk->nparams; i++)
    dk->params[i]->level = i;
  for (int j = 0; j < k; j++) {
    if (!need[j])
      continue;
    int r = tel_def_value(&E, &p->defs[j]);
    if (r < 0)
      goto out;
    bound[nbound++] = r;
    int g2 = ctx_extend(E.g, tm_type(r));
    if (g2 < 0) {
      tfail(&E, p->defs[j].body, "too many contexts (kernel context table full)");
      goto out;
    }
    def_level[j] = E.level++;
    E.g = g2;
  }
  t = need_type(&E, dk->body, tel(&E, dk->body, result), result, "the body of the def against its declared result type");
  /* let d1 = D1 in ... let dm = Dm in body, inside out */
  for (int i = nbound - 1; i >= 0 && t >= 0; i--) {
    t = tm_let(bound[i], t);
    if (t < 0)
      tfail(&E, dk->body, "ill-typed let of a def (error %d)", t);
  }
  if (t < 0)
    goto out;
  surf_positions_set(start, E.npos, E.pos);
  *term = t;
  rc = CHAD_EXIT_OK;
out:
  free(E.pos);
  free(def_level);
  free(bound);
  if (rc != CHAD_EXIT_OK && d->exit_code != CHAD_EXIT_OK)
    rc = d->exit_code; /* exit 3 when out of memory */
  return rc;
}
