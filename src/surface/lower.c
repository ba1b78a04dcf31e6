/* Surface language: lowering of a parsed def to a raw term (de Bruijn
 * indices, source positions, annotations) and its elaboration by the
 * kernel checker, with type errors mapped back to file:line:col in surface
 * syntax. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad/primitives.h"
#include "surface_internal.h"

int surf_type_to_kernel(const stype *t, const char *file, chad_diag *d)
{
  int l, r, res;
  switch (t->kind) {
  case TY_REAL: return TY_ID_REAL;
  case TY_INT: return TY_ID_INT;
  case TY_UNIT: return TY_ID_UNIT;
  case TY_ARR:
    l = surf_type_to_kernel(t->l, file, d);
    if (l < 0)
      return l;
    if (!ty_is_first_order(l)) {
      if (d)
        diag_set(d, CHAD_EXIT_INPUT, file, t->line, t->col,
                 "array elements must be first-order (no functions inside an array)");
      return CHAD_E_TYPE;
    }
    res = ty_arr(l);
    break;
  default:
    l = surf_type_to_kernel(t->l, file, d);
    if (l < 0)
      return l;
    r = surf_type_to_kernel(t->r, file, d);
    if (r < 0)
      return r;
    res = ty_make(t->kind, l, r);
    break;
  }
  if (res < 0 && d)
    diag_set(d, CHAD_EXIT_INPUT, file, t->line, t->col, "too many distinct types (kernel type table full)");
  return res;
}

/* ---- lowering ------------------------------------------------------------ */
typedef struct {
  const surf_program *prog;
  chad_diag *d;
  int level;            /* number of binders in scope                       */
  int *def_level;       /* level of each let-bound def, -1 if not bound     */
  const snode **origin; /* raw node -> the tree node it came from           */
  int *parent;          /* raw node -> raw parent, -1 at the root           */
  int cap;              /* capacity of origin and parent                    */
  int inline_defs;      /* SURF_ELAB_INLINE: inline full applications of defs */
  int inline_depth;     /* sum of the depths of the bodies being inlined    */
  const char *elab_name; /* the def being elaborated (for messages)         */
} lowerer;

/* Records where raw node r came from; grows the side tables. */
static int track(lowerer *L, int r, const snode *n)
{
  if (r >= L->cap) {
    int cap = L->cap ? L->cap : 1024;
    while (cap <= r)
      cap *= 2;
    const snode **o = realloc(L->origin, (size_t)cap * sizeof *o);
    if (o)
      L->origin = o;
    int *pa = realloc(L->parent, (size_t)cap * sizeof *pa);
    if (pa)
      L->parent = pa;
    if (!o || !pa) {
      diag_set(L->d, CHAD_EXIT_RUNTIME, L->prog->file, n ? n->line : 0, n ? n->col : 0,
               "out of memory while elaborating");
      return -1;
    }
    L->cap = cap;
  }
  L->origin[r] = n;
  L->parent[r] = -1;
  int ch[3] = {raw_a_[r], raw_b_[r], raw_c_[r]};
  for (int i = 0; i < 3; i++)
    if (ch[i] >= 0)
      L->parent[ch[i]] = r;
  return r;
}

static int raw_node(lowerer *L, const snode *n, int kind, int a, int b, int c, int ty,
                    int64_t aux, double rval)
{
  int r = raw_add(kind, a, b, c, ty, aux, rval, n ? n->line : 0, n ? n->col : 0);
  if (r < 0) {
    diag_set(L->d, CHAD_EXIT_INPUT, L->prog->file, n ? n->line : 0, n ? n->col : 0,
             r == CHAD_E_CAPACITY ? "program too large: the raw term arena is full (%d nodes)"
                                  : "internal error: raw_add refused a node (%d)",
             r == CHAD_E_CAPACITY ? CHAD_MAX_RAW : r);
    return -1;
  }
  return track(L, r, n);
}

static int lower(lowerer *L, const snode *n);

/* Does child c (0 = a, 1 = b, 2 = c) of a raw node of this kind sit under
 * one binder? */
static int binds(int kind, int c)
{
  switch (kind) {
  case TM_LET: case TM_ITER: case TM_LOOP: case TM_BUILD: return c == 1;
  case TM_LAM: case TM_MAP: return c == 0;
  case TM_CASE: return c >= 1;
  default: return 0;
  }
}

/* Lowers child c of `parent` (binder b, which may be NULL for a binder
 * nobody names: the level still counts). */
static int lower_under(lowerer *L, const snode *parent, int c, const snode *n, sbinder *b)
{
  if (!binds(parent->kind, c))
    return lower(L, n);
  if (b)
    b->level = L->level;
  L->level++;
  int r = lower(L, n);
  L->level--;
  return r;
}

static int ann_type(lowerer *L, const stype *t)
{
  if (!t)
    return -1;
  int k = surf_type_to_kernel(t, L->prog->file, L->d);
  return k < 0 ? -2 : k;
}

/* The def applied by n when n is a full application `f a1 ... an` (n >= 1
 * arguments, exactly f's parameter count) of a def f; else -1. */
static int full_def_app(const surf_program *p, const snode *n)
{
  int count = 0;
  const snode *h = n;
  for (; h->kind == TM_APP; h = h->a)
    count++;
  if (count == 0 || h->kind != SN_DEFREF || h->aux < 0 || h->aux >= p->ndefs)
    return -1;
  return p->defs[h->aux].nparams == count ? (int)h->aux : -1;
}

/* Inlines the full application n of def f:
 *   let y1 = (a1 : t1) in ... let yn = (an : tn) in (body_f : result_f)
 * Arguments are bound first, in order, so evaluation order and errors are
 * those of the call; the annotations check them as the call would. Levels
 * make the indices right: each ai is lowered under the i-1 earlier lets,
 * f's parameters get the levels of the lets only after every argument is
 * lowered (an argument may itself inline a call of f). */
static int too_large(lowerer *L, const snode *n, const sdef *df)
{
  diag_set(L->d, CHAD_EXIT_INPUT, L->prog->file, n->line, n->col,
           "--inline: inlining the calls in '%s' makes it too large (more than %d raw term nodes, "
           "reached at this call of '%s'); run without --inline",
           L->elab_name, SURF_MAX_INLINE_RAW, df->name);
  return -1;
}

static int lower_inlined(lowerer *L, const snode *n, int f)
{
  const sdef *df = &L->prog->defs[f];
  int np = df->nparams;
  if (raw_count > SURF_MAX_INLINE_RAW)
    return too_large(L, n, df);
  /* nested inlined bodies nest their depths (this bounds the C stack too) */
  if (L->inline_depth + df->body->depth + np > CHAD_MAX_CHECK_DEPTH) {
    diag_set(L->d, CHAD_EXIT_INPUT, L->prog->file, n->line, n->col,
             "--inline: inlining the calls in '%s' nests too deeply (more than %d levels, "
             "reached at this call of '%s'); run without --inline",
             L->elab_name, CHAD_MAX_CHECK_DEPTH, df->name);
    return -1;
  }
  const snode **apps = malloc((size_t)np * sizeof *apps);
  int *bounds = malloc((size_t)np * sizeof *bounds);
  int r = -1, base = L->level, i;
  if (!apps || !bounds) {
    diag_set(L->d, CHAD_EXIT_RUNTIME, L->prog->file, n->line, n->col, "out of memory while elaborating");
    goto out;
  }
  /* apps[i] is the APP node whose argument is a_{i+1} */
  const snode *m = n;
  for (i = np - 1; i >= 0; i--, m = m->a)
    apps[i] = m;
  for (i = 0; i < np; i++) {
    r = lower(L, apps[i]->b);
    if (r < 0)
      goto out;
    int ty = ann_type(L, df->ptypes[i]);
    if (ty == -2 || (ty >= 0 && (r = raw_node(L, apps[i]->b, RAW_ANN, r, -1, -1, ty, 0, 0)) < 0)) {
      r = -1;
      goto out;
    }
    bounds[i] = r;
    L->level++;
  }
  for (i = 0; i < np; i++)
    df->params[i]->level = base + i;
  L->inline_depth += df->body->depth + np;
  r = lower(L, df->body);
  L->inline_depth -= df->body->depth + np;
  if (r >= 0 && df->result) {
    int ty = ann_type(L, df->result);
    r = ty == -2 ? -1 : raw_node(L, df->body, RAW_ANN, r, -1, -1, ty, 0, 0);
  }
  for (i = np - 1; i >= 0 && r >= 0; i--)
    r = raw_node(L, apps[i], TM_LET, bounds[i], r, -1, -1, 0, 0);
  if (r >= 0 && raw_count > SURF_MAX_INLINE_RAW)
    r = too_large(L, n, df);
out:
  L->level = base;
  free(apps);
  free(bounds);
  return r < 0 ? -1 : r;
}

static int lower(lowerer *L, const snode *n)
{
  int a = -1, b = -1, c = -1, ty;
  if (L->inline_defs && n->kind == TM_APP) {
    int f = full_def_app(L->prog, n);
    if (f >= 0)
      return lower_inlined(L, n, f);
  }
  switch (n->kind) {
  case TM_VAR:
    return raw_node(L, n, TM_VAR, -1, -1, -1, -1, L->level - 1 - n->var->level, 0);
  case SN_DEFREF: {
    int lv = L->def_level[n->aux];
    if (lv < 0) {
      diag_set(L->d, CHAD_EXIT_INPUT, L->prog->file, n->line, n->col,
               "internal error: def '%s' is not in scope", n->what);
      return -1;
    }
    return raw_node(L, n, TM_VAR, -1, -1, -1, -1, L->level - 1 - lv, 0);
  }
  case TM_LAM:
    if (n->eta_op >= 0) {
      int dom = n->eta_op < op_count ? op_dom_[n->eta_op] : -1;
      if (dom < 0) {
        diag_set(L->d, CHAD_EXIT_INPUT, L->prog->file, n->line, n->col,
                 "primitive '%s' is not registered (prims_init)", n->a && n->a->what ? n->a->what : "?");
        return -1;
      }
      ty = n->eta_side == 0 ? dom : n->eta_side == 1 ? ty_left_[dom] : ty_right_[dom];
    } else {
      ty = ann_type(L, n->ty);
      if (ty == -2)
        return -1;
    }
    a = lower_under(L, n, 0, n->a, n->ba);
    if (a < 0)
      return -1;
    return raw_node(L, n, TM_LAM, a, -1, -1, ty, 0, 0);
  case TM_LET: {
    /* a chain of lets, iteratively: bound terms in order (each binder
     * entering scope after its bound term), then the body, then the LET
     * nodes inside out (children sit at smaller raw indices) */
    int len = 0;
    const snode *m = n;
    for (; m->kind == TM_LET; m = m->b)
      len++;
    int *bounds = malloc((size_t)len * sizeof *bounds);
    if (!bounds) {
      diag_set(L->d, CHAD_EXIT_RUNTIME, L->prog->file, n->line, n->col, "out of memory while elaborating");
      return -1;
    }
    int i = 0, r = 0;
    for (m = n; m->kind == TM_LET; m = m->b) {
      r = lower(L, m->a);
      if (r < 0)
        break;
      bounds[i++] = r;
      if (m->bb)
        m->bb->level = L->level;
      L->level++;
    }
    if (r >= 0)
      r = lower(L, m);
    L->level -= i;
    if (r >= 0) {
      const snode **chain = malloc((size_t)len * sizeof *chain);
      if (!chain) {
        diag_set(L->d, CHAD_EXIT_RUNTIME, L->prog->file, n->line, n->col, "out of memory while elaborating");
        r = -1;
      } else {
        int j = 0;
        for (m = n; m->kind == TM_LET; m = m->b)
          chain[j++] = m;
        for (j = len - 1; j >= 0 && r >= 0; j--)
          r = raw_node(L, chain[j], TM_LET, bounds[j], r, -1, -1, 0, 0);
        free(chain);
      }
    }
    free(bounds);
    return r < 0 ? -1 : r;
  }
  default:
    break;
  }
  if (n->a && (a = lower_under(L, n, 0, n->a, n->ba)) < 0)
    return -1;
  if (n->b && (b = lower_under(L, n, 1, n->b, n->bb)) < 0)
    return -1;
  if (n->c && (c = lower_under(L, n, 2, n->c, n->bc)) < 0)
    return -1;
  ty = ann_type(L, n->ty);
  if (ty == -2)
    return -1;
  return raw_node(L, n, n->kind, a, b, c, ty, n->aux, n->rval);
}

/* ---- diagnostics for checker errors ---------------------------------------- */
static const char *kind_needs(int kind)
{
  switch (kind) {
  case TM_APP: return "a function";
  case TM_FST: case TM_SND: return "a pair";
  case TM_CASE: return "a sum type (such as bool)";
  case TM_INDEX: case TM_LENGTH: case TM_MAP: return "an array";
  default: return NULL;
  }
}

/* The name of the function an application applies, for hints: a def, a
 * variable or a primitive; NULL when it has none. */
static const char *applied_name(const snode *app)
{
  const snode *h = app;
  while (h && h->kind == TM_APP)
    h = h->a;
  if (!h)
    return NULL;
  if (h->kind == SN_DEFREF)
    return h->what;
  if (h->kind == TM_VAR)
    return h->var ? h->var->name : NULL;
  /* a primitive, eta-expanded: fun x -> (fun y ->) op (x, y) */
  while (h && h->kind == TM_LAM && h->role == ROLE_ETA)
    h = h->a;
  return h && h->kind == TM_OP && h->role == ROLE_PRIM_CALL ? h->what : NULL;
}

/* A hint for a call whose argument has the wrong shape because of the way
 * the function takes its arguments: a tuple given to a function of several
 * parameters (`f (a, b)` for `def f (x : real, y : real)`, which is called
 * `f a b`), or arguments one by one to a function of one tuple parameter
 * (`g a b` for `def g (p : real * real)`). Writes into buf (empty: none). */
static void call_shape_hint(lowerer *L, int rawi, int par, const snode *n, char *buf, size_t len)
{
  buf[0] = 0;
  const snode *pn = L->origin[par];
  if (!pn || pn->kind != TM_APP || rawi != raw_b_[par] || chk_err_expected < 0 || chk_err_found < 0)
    return;
  const char *f = applied_name(pn);
  int exp_prod = ty_kind_[chk_err_expected] == TY_PROD, fnd_prod = ty_kind_[chk_err_found] == TY_PROD;
  if (n && n->kind == TM_PAIR && fnd_prod && !exp_prod) {
    snprintf(buf, len, "; '%s' takes its arguments one at a time: write %s a b, not %s (a, b)",
             f ? f : "the function", f ? f : "f", f ? f : "f");
    return;
  }
  int gp = L->parent[par];
  if (exp_prod && !fnd_prod && gp >= 0 && raw_kind_[gp] == TM_APP && raw_a_[gp] == par)
    snprintf(buf, len, "; '%s' takes one argument, a tuple: write %s (a, b), not %s a b",
             f ? f : "the function", f ? f : "f", f ? f : "f");
}


/* For a library word used as a function (spec/surface.md §4): an
 * eta-expansion with its missing parameter annotated, for the error that
 * asks for one, or (usage) its arity and usage; NULL for a keyword. */
static const char *word_info(const char *w, int usage)
{
  static const char *const ex[][3] = {
    {"concat", "fun (b : [real]) -> concat a b", "2 arguments: concat a b"},
    {"slice", "fun (n : int) -> slice a i n", "3 arguments: slice a start len"},
    {"reverse", "fun (a : [real]) -> reverse a", "an argument: reverse a"},
    {"update", "fun (v : real) -> update a i v", "3 arguments: update a i v"},
    {"zip", "fun (b : [real]) -> zip a b", "2 arguments: zip a b"},
    {"unzip", "fun (a : [real * real]) -> unzip a", "an argument: unzip a"},
    {"range", "fun (n : int) -> range n", "an argument: range n"},
    {"fold", "fun (init : real) -> fold n f init", "3 arguments: fold n (fun i acc -> e) init"},
  };
  for (size_t k = 0; k < sizeof ex / sizeof ex[0]; k++)
    if (strcmp(w, ex[k][0]) == 0)
      return ex[k][usage ? 2 : 1];
  return NULL;
}
static void type_error(lowerer *L, int rawi)
{
  const snode *n = (rawi >= 0 && rawi < raw_count) ? L->origin[rawi] : NULL;
  int line = rawi >= 0 && rawi < raw_count ? raw_line_[rawi] : 0;
  int col = rawi >= 0 && rawi < raw_count ? raw_col_[rawi] : 0;
  int par = rawi >= 0 && rawi < raw_count ? L->parent[rawi] : -1;
  const snode *pn = par >= 0 ? L->origin[par] : NULL;
  char *exp = chk_err_expected >= 0 ? surf_print_type(chk_err_expected) : NULL;
  char *fnd = chk_err_found >= 0 ? surf_print_type(chk_err_found) : NULL;
  const char *file = L->prog->file;
  const char *E = exp ? exp : "?", *F = fnd ? fnd : "?";
  switch (chk_err_code) {
  case CHAD_E_TYPE:
    if (pn && pn->kind == TM_OP && rawi == raw_a_[par] && chk_err_expected >= 0) {
      const char *w = pn->what ? pn->what : "?";
      if (pn->role == ROLE_OPERATOR && strcmp(w, "-") == 0 && pn->a && pn->a->kind != TM_PAIR)
        diag_set(L->d, CHAD_EXIT_INPUT, file, pn->line, pn->col,
                 "type mismatch: unary '-' expects real or int, found %s", F);
      else if (pn->role == ROLE_OPERATOR && chk_err_found >= 0 && ty_kind_[chk_err_found] == TY_PROD &&
               ty_left_[chk_err_found] != ty_right_[chk_err_found]) {
        /* a hint where it applies: an int beside a real, or `f -x` read as
         * the subtraction f - x */
        int l = ty_left_[chk_err_found], r = ty_right_[chk_err_found];
        int mixed = (l == TY_ID_INT && r == TY_ID_REAL) || (l == TY_ID_REAL && r == TY_ID_INT);
        int fun_minus = strcmp(w, "-") == 0 && ty_kind_[l] == TY_FUN;
        diag_set(L->d, CHAD_EXIT_INPUT, file, pn->line, pn->col,
                 "type mismatch: the operands of '%s' have different types: found %s%s", w, F,
                 mixed ? " (write 2.0, not 2, for a real)"
                 : fun_minus ? " (this '-' subtracts: to apply a function to a negative number, "
                               "write f (-2.0))"
                             : "");
      }
      else
        diag_set(L->d, CHAD_EXIT_INPUT, file, pn->line, pn->col,
                 "type mismatch: '%s' expects %s, found %s", w, E, F);
    } else if (chk_err_expected < 0 && pn && kind_needs(pn->kind) && rawi != raw_b_[par]) {
      diag_set(L->d, CHAD_EXIT_INPUT, file, line, col, "type mismatch: expected %s, found %s",
               kind_needs(pn->kind), F);
    } else if (chk_err_expected < 0 && n && (n->kind == TM_BUILD || n->kind == TM_MAP)) {
      diag_set(L->d, CHAD_EXIT_INPUT, file, line, col,
               "array elements must be first-order, found %s", F);
    } else if (chk_err_expected < 0 && pn && (pn->kind == TM_BUILD || pn->kind == TM_MAP)) {
      diag_set(L->d, CHAD_EXIT_INPUT, file, line, col,
               "array elements must be first-order, found %s", F);
    } else if (n && n->kind == RAW_ANN && n->ty && chk_err_found == chk_err_expected) {
      diag_set(L->d, CHAD_EXIT_INPUT, file, line, col, "not a source type: %s", F);
    } else if (chk_err_expected >= 0) {
      char hint[200] = "";
      if (par >= 0)
        call_shape_hint(L, rawi, par, n, hint, sizeof hint);
      diag_set(L->d, CHAD_EXIT_INPUT, file, line, col, "type mismatch: expected %s, found %s%s", E, F, hint);
    } else {
      diag_set(L->d, CHAD_EXIT_INPUT, file, line, col, "type error: found %s", F);
    }
    break;
  case CHAD_E_NOTE:
    if (n && (n->kind == TM_INL || n->kind == TM_INR))
      diag_set(L->d, CHAD_EXIT_INPUT, file, line, col,
               "cannot infer the other side of this %s: annotate it, as in (%s e : real + int)",
               n->kind == TM_INL ? "inl" : "inr", n->kind == TM_INL ? "inl" : "inr");
    else if (n && n->kind == TM_LAM && n->role == ROLE_KW_FUN) {
      int pair = strcmp(n->what, "fst") == 0 || strcmp(n->what, "snd") == 0;
      int inj = strcmp(n->what, "inl") == 0 || strcmp(n->what, "inr") == 0;
      if (inj)
        diag_set(L->d, CHAD_EXIT_INPUT, file, line, col,
                 "'%s' used as a function: the types of its argument and result cannot be inferred here; "
                 "write fun (x : real) -> (%s x : real + real)", n->what, n->what);
      else if (word_info(n->what, 0) && exp && ty_kind_[chk_err_expected] != TY_FUN)
        diag_set(L->d, CHAD_EXIT_INPUT, file, line, col,
                 "'%s' needs %s: applied to fewer it is a function, but %s is expected here", n->what,
                 word_info(n->what, 1), exp);
      else if (word_info(n->what, 0))
        diag_set(L->d, CHAD_EXIT_INPUT, file, line, col,
                 "'%s' not applied to all its arguments: the types of the missing ones cannot be inferred here; "
                 "apply it, or write a fun with annotated parameters, as in %s", n->what, word_info(n->what, 0));
      else
        diag_set(L->d, CHAD_EXIT_INPUT, file, line, col,
               "'%s' used as a function: the type of its argument cannot be inferred here; write fun %s -> %s %c",
               n->what, pair ? "(p : real * real)" : "(a : [real])", n->what, pair ? 'p' : 'a');
    } else if (n && n->kind == TM_LAM)
      diag_set(L->d, CHAD_EXIT_INPUT, file, line, col,
               "missing type annotation: the parameter's type cannot be inferred here; write fun (x : real) -> ...");
    else
      diag_set(L->d, CHAD_EXIT_INPUT, file, line, col, "missing type annotation");
    break;
  case CHAD_E_DEPTH:
    diag_set(L->d, CHAD_EXIT_INPUT, file, line, col, "expression nested too deeply for the checker (limit %d)",
             CHAD_MAX_CHECK_DEPTH);
    break;
  case CHAD_E_CAPACITY:
    diag_set(L->d, CHAD_EXIT_INPUT, file, line, col, "program too large: a kernel arena is full");
    break;
  default:
    diag_set(L->d, CHAD_EXIT_INPUT, file, line, col, "internal error: the checker failed with code %d",
             chk_err_code);
    break;
  }
  free(exp);
  free(fnd);
}

int surf_def_ctx(const surf_program *p, int k)
{
  if (!p || k < 0 || k >= p->ndefs)
    return CHAD_E_ARG;
  int g = CTX_EMPTY;
  for (int i = 0; i < p->defs[k].nparams; i++) {
    int t = surf_type_to_kernel(p->defs[k].ptypes[i], NULL, NULL);
    if (t < 0)
      return t;
    g = ctx_extend(g, t);
    if (g < 0)
      return g;
  }
  return g;
}

/* Lowers def j as `fun (y1 : t1) -> ... -> (body : result)` at the current
 * level (its own parameters are bound inside). */
static int lower_def_value(lowerer *L, const sdef *dj)
{
  for (int i = 0; i < dj->nparams; i++)
    dj->params[i]->level = L->level + i;
  L->level += dj->nparams;
  int r = lower(L, dj->body);
  L->level -= dj->nparams;
  if (r < 0)
    return -1;
  if (dj->result) {
    int ty = ann_type(L, dj->result);
    if (ty == -2)
      return -1;
    r = raw_node(L, dj->body, RAW_ANN, r, -1, -1, ty, 0, 0);
    if (r < 0)
      return -1;
  }
  for (int i = dj->nparams - 1; i >= 0; i--) {
    int ty = ann_type(L, dj->ptypes[i]);
    if (ty == -2)
      return -1;
    r = raw_add(TM_LAM, r, -1, -1, ty, 0, 0, dj->line, dj->col);
    if (r < 0) {
      diag_set(L->d, CHAD_EXIT_INPUT, L->prog->file, dj->line, dj->col,
               "program too large: the raw term arena is full");
      return -1;
    }
    if (track(L, r, NULL) < 0)
      return -1;
  }
  return r;
}

/* With inlining: marks in need[] every def that n still uses as a value
 * (not as the head of a full application), looking through the bodies of
 * the defs it inlines; scanned[f] records an inlined body already seen.
 * An explicit stack, not recursion: a chain of defs each calling the one
 * before nests its inlined bodies as deep as the chain is long. Returns 0,
 * or -1 out of memory. */
static int scan_value_uses(const surf_program *p, const snode *root, char *need, char *scanned)
{
  size_t cap = 64, top = 0;
  const snode **st = malloc(cap * sizeof *st);
  if (!st)
    return -1;
  st[top++] = root;
  while (top > 0) {
    const snode *n = st[--top];
    while (n) {
      /* at most three pushes per node below: room for them first */
      if (cap - top < 3 + (size_t)SURF_MAX_PARAMS) {
        const snode **g = realloc(st, 2 * (cap + SURF_MAX_PARAMS) * sizeof *st);
        if (!g) {
          free(st);
          return -1;
        }
        st = g;
        cap = 2 * (cap + SURF_MAX_PARAMS);
      }
      int f = n->kind == TM_APP ? full_def_app(p, n) : -1;
      if (f >= 0) {
        const snode *m = n;
        for (int i = 0; i < p->defs[f].nparams; i++, m = m->a)
          if (m->b)
            st[top++] = m->b;
        if (scanned[f])
          break;
        scanned[f] = 1;
        n = p->defs[f].body;
        continue;
      }
      if (n->kind == SN_DEFREF && n->aux >= 0 && n->aux < p->ndefs)
        need[n->aux] = 1;
      if (n->a)
        st[top++] = n->a;
      if (n->b)
        st[top++] = n->b;
      n = n->c;
    }
  }
  free(st);
  return 0;
}

/* ---- positions of elaborated terms ------------------------------------------ */
/* line and column per term in [pos_lo, pos_hi); line 0: none known */
typedef struct term_pos { int line, col; } term_pos;
static term_pos *pos_of;
static int pos_lo, pos_hi;

/* The elaborated tree mirrors the raw one but for annotations, so the two
 * are walked together; a kind that differs ends the walk of that branch. */
static void map_positions(int raw_root, int term_root, int lo)
{
  free(pos_of);
  pos_lo = lo;
  pos_hi = tm_count;
  pos_of = calloc((size_t)(pos_hi - pos_lo + 1), sizeof *pos_of);
  size_t cap = 64, top = 0;
  int *st = malloc(cap * 2 * sizeof *st);
  if (!pos_of || !st) {
    free(st);
    pos_hi = pos_lo;
    return;
  }
  st[top * 2] = raw_root, st[top * 2 + 1] = term_root, top++;
  while (top > 0) {
    top--;
    int r = st[top * 2], t = st[top * 2 + 1];
    while (r >= 0 && r < raw_count && raw_kind_[r] == RAW_ANN)
      r = raw_a_[r];
    if (r < 0 || r >= raw_count || t < pos_lo || t >= pos_hi || raw_kind_[r] != tm_kind(t))
      continue;
    if (!pos_of[t - pos_lo].line && raw_line_[r] > 0)
      pos_of[t - pos_lo] = (term_pos){raw_line_[r], raw_col_[r]};
    int rc[3] = {raw_a_[r], raw_b_[r], raw_c_[r]}, tc[3] = {tm_a(t), tm_b(t), tm_c(t)};
    for (int i = 0; i < 3; i++) {
      if (rc[i] < 0 || tc[i] < 0)
        continue;
      if (top == cap) {
        int *n = realloc(st, cap * 4 * sizeof *st);
        if (!n)
          break;
        st = n;
        cap *= 2;
      }
      st[top * 2] = rc[i], st[top * 2 + 1] = tc[i], top++;
    }
  }
  free(st);
}

void surf_positions_set(int lo, int n, const int *tlc)
{
  free(pos_of);
  pos_lo = lo;
  pos_hi = tm_count > lo ? tm_count : lo;
  pos_of = calloc((size_t)(pos_hi - pos_lo + 1), sizeof *pos_of);
  if (!pos_of) {
    pos_hi = pos_lo;
    return;
  }
  for (int i = 0; i < n; i++) {
    int t = tlc[3 * i], line = tlc[3 * i + 1], col = tlc[3 * i + 2];
    if (t >= pos_lo && t < pos_hi && line > 0)
      pos_of[t - pos_lo] = (term_pos){line, col};
  }
}

int surf_term_position(int term, int *line, int *col)
{
  if (!pos_of || term < pos_lo || term >= pos_hi || !pos_of[term - pos_lo].line)
    return -1;
  *line = pos_of[term - pos_lo].line;
  *col = pos_of[term - pos_lo].col;
  return 0;
}

/* Def dk's context (its parameters' types) and declared result type (-1
 * if none). 0, or the exit code of a diagnostic. */
static int def_signature(const surf_program *p, const sdef *dk, int *g, int *result, chad_diag *d)
{
  *g = CTX_EMPTY;
  for (int i = 0; i < dk->nparams; i++) {
    int t = surf_type_to_kernel(dk->ptypes[i], p->file, d);
    if (t < 0)
      return CHAD_EXIT_INPUT;
    *g = ctx_extend(*g, t);
    if (*g < 0)
      return diag_set(d, CHAD_EXIT_INPUT, p->file, dk->line, dk->col,
                      "too many contexts (kernel context table full)");
  }
  *result = -1;
  if (dk->result && (*result = surf_type_to_kernel(dk->result, p->file, d)) < 0)
    return CHAD_EXIT_INPUT;
  return 0;
}

int surf_elab_def(const surf_program *p, int k, int *term, int *ctx, chad_diag *d)
{
  return surf_elab_def_opts(p, k, 0u, term, ctx, d);
}

static int elab_def(const surf_program *p, int k, unsigned flags, int *term, int *ctx,
                    chad_diag *d)
{
  diag_set(d, CHAD_EXIT_OK, p ? p->file : "", 0, 0, "%s", "");
  if (!p || k < 0 || k >= p->ndefs)
    return diag_set(d, CHAD_EXIT_INPUT, p ? p->file : "", 0, 0, "no def number %d", k);
  const sdef *dk = &p->defs[k];
  int g, result;
  int sr = def_signature(p, dk, &g, &result, d);
  if (sr)
    return sr;

  /* the defs def k needs, directly or not: a reverse sweep suffices since a
   * def only uses earlier ones */
  char *need = calloc((size_t)k + 1, 1);
  char *scanned = calloc((size_t)k + 1, 1);
  int *def_level = malloc(((size_t)p->ndefs + 1) * sizeof *def_level);
  int *bound = malloc(((size_t)k + 1) * sizeof *bound);
  int rc = CHAD_EXIT_INPUT;
  lowerer L = {p, d, 0, def_level, NULL, NULL, 0, (flags & SURF_ELAB_INLINE) != 0, 0, dk->name};
  if (!need || !scanned || !def_level || !bound) {
    diag_set(d, CHAD_EXIT_RUNTIME, p->file, dk->line, dk->col, "out of memory while elaborating");
    goto out;
  }
  need[k] = 1;
  if (L.inline_defs) {
    /* only the defs still used as values are let-bound; a def's value is
     * lowered with inlining too, so its body is scanned the same way */
    for (int j = k; j >= 0; j--)
      if (need[j] && scan_value_uses(p, p->defs[j].body, need, scanned) < 0) {
        diag_set(d, CHAD_EXIT_RUNTIME, p->file, dk->line, dk->col, "out of memory while elaborating");
        goto out;
      }
  } else {
    for (int j = k; j >= 0; j--)
      if (need[j])
        for (int u = 0; u < p->defs[j].nuses; u++)
          need[p->defs[j].uses[u]] = 1;
  }
  for (int j = 0; j < p->ndefs; j++)
    def_level[j] = -1;

  /* target syntax: elaborated by target.c, without inlining; with
   * inlining, scanned[] holds the defs reached only through full calls */
  int target = 0;
  for (int j = 0; j <= k; j++)
    target |= (need[j] || scanned[j]) && p->defs[j].target;
  if (target) {
    if (L.inline_defs) {
      /* inlining's scan may have left out defs used in full applications */
      for (int j = k; j >= 0; j--)
        if (need[j])
          for (int u = 0; u < p->defs[j].nuses; u++)
            need[p->defs[j].uses[u]] = 1;
    }
    rc = surf_elab_target(p, k, need, g, result, term, d);
    if (rc == CHAD_EXIT_OK)
      *ctx = g;
    goto out;
  }

  raw_init();
  for (int i = 0; i < dk->nparams; i++)
    dk->params[i]->level = i;
  L.level = dk->nparams;
  int nbound = 0;
  for (int j = 0; j < k; j++) {
    if (!need[j])
      continue;
    int r = lower_def_value(&L, &p->defs[j]);
    if (r < 0)
      goto out;
    bound[nbound++] = r;
    def_level[j] = L.level++;
  }
  int body = lower(&L, dk->body);
  if (body < 0)
    goto out;
  if (dk->result && (body = raw_node(&L, dk->body, RAW_ANN, body, -1, -1, result, 0, 0)) < 0)
    goto out;
  /* let d1 = F1 in ... let dm = Fm in body, built inside out */
  for (int i = nbound - 1, j = k - 1; i >= 0; i--) {
    while (!need[j])
      j--;
    body = raw_add(TM_LET, bound[i], body, -1, -1, 0, 0, p->defs[j].line, p->defs[j].col);
    if (body < 0) {
      diag_set(d, CHAD_EXIT_INPUT, p->file, p->defs[j].line, p->defs[j].col,
               "program too large: the raw term arena is full");
      goto out;
    }
    if (track(&L, body, NULL) < 0)
      goto out;
    j--;
  }
  int tm_before = tm_count;
  int t = chk_elab(body, g, -1);
  if (t < 0) {
    type_error(&L, chk_err_raw);
    goto out;
  }
  map_positions(body, t, tm_before);
  *term = t;
  *ctx = g;
  rc = CHAD_EXIT_OK;
out:
  free(need);
  free(scanned);
  free(def_level);
  free(L.origin);
  free(L.parent);
  free(bound);
  if (rc != CHAD_EXIT_OK && d->exit_code != CHAD_EXIT_OK)
    rc = d->exit_code; /* exit 3 when out of memory */
  return rc;
}

/* surf_elab_def_sig's def levels: -1 but for the defs the def being
 * elaborated uses, during the call; grown to the largest program seen, so
 * a def costs its body and its uses, not the number of defs. */
static int *sig_level;
static int sig_cap;

int surf_elab_def_sig(const surf_program *p, int k, const int *def_ty, int *term, int *ctx,
                      chad_diag *d)
{
  diag_set(d, CHAD_EXIT_OK, p ? p->file : "", 0, 0, "%s", "");
  if (!p || k < 0 || k >= p->ndefs || !def_ty)
    return diag_set(d, CHAD_EXIT_INPUT, p ? p->file : "", 0, 0, "no def number %d", k);
  const sdef *dk = &p->defs[k];
  if (dk->target)
    return -1;
  if (p->ndefs > sig_cap) {
    int *g = realloc(sig_level, (size_t)p->ndefs * sizeof *g);
    if (!g)
      return diag_set(d, CHAD_EXIT_RUNTIME, p->file, dk->line, dk->col,
                      "out of memory while elaborating");
    for (int j = sig_cap; j < p->ndefs; j++)
      g[j] = -1;
    sig_level = g;
    sig_cap = p->ndefs;
  }
  int g, result;
  int sr = def_signature(p, dk, &g, &result, d);
  if (sr)
    return sr;
  raw_init();
  for (int i = 0; i < dk->nparams; i++)
    dk->params[i]->level = i;
  lowerer L = {p, d, dk->nparams, sig_level, NULL, NULL, 0, 0, 0, dk->name};
  int rc = CHAD_EXIT_INPUT, nset = 0;
  for (; nset < dk->nuses; nset++) {
    int j = dk->uses[nset];
    if (j < 0 || j >= k || sig_level[j] >= 0)
      continue;   /* not an earlier def, or listed twice */
    if ((g = ctx_extend(g, def_ty[j])) < 0) {
      diag_set(d, CHAD_EXIT_INPUT, p->file, dk->line, dk->col,
               "too many contexts (kernel context table full)");
      goto out;
    }
    sig_level[j] = L.level++;
  }
  int body = lower(&L, dk->body);
  if (body < 0)
    goto out;
  if (dk->result && (body = raw_node(&L, dk->body, RAW_ANN, body, -1, -1, result, 0, 0)) < 0)
    goto out;
  int tm_before = tm_count;
  int t = chk_elab(body, g, -1);
  if (t < 0) {
    type_error(&L, chk_err_raw);
    goto out;
  }
  map_positions(body, t, tm_before);
  *term = t;
  *ctx = g;
  rc = CHAD_EXIT_OK;
out:
  for (int u = 0; u < nset; u++)
    if (dk->uses[u] >= 0 && dk->uses[u] < sig_cap)
      sig_level[dk->uses[u]] = -1;
  free(L.origin);
  free(L.parent);
  if (rc != CHAD_EXIT_OK && d->exit_code != CHAD_EXIT_OK)
    rc = d->exit_code;
  return rc;
}

static int last_inlined;   /* surf_elab_inlined */

int surf_elab_inlined(void)
{
  return last_inlined;
}

int surf_elab_def_opts(const surf_program *p, int k, unsigned flags, int *term, int *ctx,
                       chad_diag *d)
{
  last_inlined = (flags & SURF_ELAB_INLINE) != 0;
  int rc = elab_def(p, k, flags, term, ctx, d);
  /* Any failure, not only the limits: an ill-typed program then gets the
   * diagnostics of the program as written (a type error inside an inlined
   * body would otherwise be found, and phrased, at another place). The
   * raw arena is reset by the next attempt; kernel terms of a failed type
   * check are unreachable garbage, cleared with the arenas by the next
   * command. */
  if (rc != CHAD_EXIT_OK && last_inlined && (flags & SURF_ELAB_INLINE_FALLBACK)) {
    last_inlined = 0;
    rc = elab_def(p, k, flags & ~(SURF_ELAB_INLINE | SURF_ELAB_INLINE_FALLBACK), term, ctx, d);
  }
  return rc;
}
