/* Pretty-printer of types and arena terms in the surface syntax. Source
 * terms print in a form that parses back to the same arena structure;
 * target terms use the extra notation of spec/surface.md (printing only). */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad/primitives.h"
#include "surface_internal.h"

/* ---- growable string ------------------------------------------------------ */
typedef struct {
  char *s;
  size_t n, cap;
  int oom;
  int deep;   /* a part nested past the printer's depth limit was not printed */
} sbuf;

/* Why the last printer of this thread returned NULL (surf_print_too_deep). */
static _Thread_local int last_too_deep;

static void put_n(sbuf *b, const char *s, size_t n)
{
  if (b->oom)
    return;
  if (b->n + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + n + 1)
      cap *= 2;
    char *x = realloc(b->s, cap);
    if (!x) {
      b->oom = 1;
      return;
    }
    b->s = x;
    b->cap = cap;
  }
  memcpy(b->s + b->n, s, n);
  b->n += n;
  b->s[b->n] = 0;
}

static void put(sbuf *b, const char *s) { put_n(b, s, strlen(s)); }

static void putf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(sbuf *b, const char *fmt, ...)
{
  char tmp[128];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n >= 0)
    put_n(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static char *finish(sbuf *b)
{
  last_too_deep = b->deep && !b->oom;
  if (b->deep) {
    free(b->s);
    return NULL;
  }
  if (b->oom || !b->s) {
    if (!b->oom && !b->s) {
      char *e = malloc(1);
      if (e)
        e[0] = 0;
      return e;
    }
    free(b->s);
    return NULL;
  }
  return b->s;
}

/* Nesting the printers follow by recursion (on the caller's stack, as the
 * kernel's passes): past it the printer gives no text, rather than text that
 * would not parse back (surf_print_too_deep). */
#define PRINT_MAX_TYPE_DEPTH 5000
#define PRINT_MAX_DEPTH 4000

/* ---- types ------------------------------------------------------------------ */
/* levels: 0 -> and -o (right assoc), 1 +, 2 * and copower, 3 atoms */
static int is_bool(int t)
{
  return t >= 0 && t < ty_count && ty_kind_[t] == TY_SUM && ty_left_[t] == TY_ID_UNIT &&
         ty_right_[t] == TY_ID_UNIT;
}

/* Type names. A derivative spells out its contexts' types, which grow by
 * one entry a binder: printed in full, a chain of n lets would print O(n^2)
 * characters of types. When the printer writes a derivative as a def D
 * (surf_print_def_named), each type of more than TYPE_NAME_NODES nodes is
 * written once, as `def type D_Tk = ...` before the def (its own large
 * parts by their names), and by its name everywhere else; the parser reads
 * the names back (spec/surface.md §6). A source def (surf_print_def) prints
 * its types in full, as written. */
#define TYPE_NAME_NODES 24
typedef struct {
  const char *def_name;
  int ntys;             /* ty_count when the def's printing began */
  int *name;            /* per type: 0, or k for D_Tk */
  int *size;            /* per type: node count (capped), 0 unknown */
  int *stack, nstack, capstack;
  sbuf decls;
  int count;
} type_names;
static _Thread_local type_names *tnames;

static void pr_type(sbuf *b, int t, int prec, int depth);

static int tn_push(type_names *N, int t)
{
  if (N->nstack == N->capstack) {
    int cap = N->capstack ? 2 * N->capstack : 64;
    int *s = realloc(N->stack, (size_t)cap * sizeof *s);
    if (!s)
      return -1;
    N->stack = s;
    N->capstack = cap;
  }
  N->stack[N->nstack++] = t;
  return 0;
}

static int ty_children(int t, int *c)
{
  switch (ty_kind_[t]) {
  case TY_ARR: c[0] = ty_left_[t]; return 1;
  case TY_PROD: case TY_SUM: case TY_FUN: case TY_LFUN: case TY_COPOW:
    c[0] = ty_left_[t], c[1] = ty_right_[t];
    return 2;
  default: return 0;
  }
}

static int tn_valid(const type_names *N, int t) { return t >= 0 && t < N->ntys; }

/* Node count of t, capped at 2^20; iterative (types nest as deep as a
 * program's binders). -1 when out of memory. */
static int tn_size(type_names *N, int t)
{
  if (!tn_valid(N, t))
    return 1;
  if (N->size[t])
    return N->size[t];
  int base = N->nstack;
  if (tn_push(N, t) < 0)
    return -1;
  while (N->nstack > base) {
    int u = N->stack[N->nstack - 1], c[2], nc = ty_children(u, c), todo = 0;
    for (int i = 0; i < nc; i++)
      if (tn_valid(N, c[i]) && !N->size[c[i]]) {
        if (tn_push(N, c[i]) < 0)
          return -1;
        todo = 1;
      }
    if (todo)
      continue;
    long n = 1;
    for (int i = 0; i < nc; i++)
      n += tn_valid(N, c[i]) ? N->size[c[i]] : 1;
    N->size[u] = n > (1 << 20) ? 1 << 20 : (int)n;
    N->nstack--;
  }
  return N->size[t];
}

/* Names t and its large parts not yet named, the parts first (so each
 * definition prints only names and small types). 0, or -1 out of memory. */
static int tn_name(type_names *N, int t)
{
  int base = N->nstack;
  if (tn_push(N, t) < 0)
    return -1;
  while (N->nstack > base) {
    int u = N->stack[N->nstack - 1], c[2], nc = ty_children(u, c), todo = 0;
    if (N->name[u]) {
      N->nstack--;
      continue;
    }
    for (int i = 0; i < nc; i++) {
      int sz = tn_size(N, c[i]);
      if (sz < 0)
        return -1;
      if (tn_valid(N, c[i]) && sz > TYPE_NAME_NODES && !N->name[c[i]]) {
        if (tn_push(N, c[i]) < 0)
          return -1;
        todo = 1;
      }
    }
    if (todo)
      continue;
    /* u's parts are named or small: its definition is shallow */
    put(&N->decls, "def type ");
    put(&N->decls, N->def_name);
    putf(&N->decls, "_T%d = ", N->count + 1);
    N->name[u] = -1; /* printed structurally below, not by name */
    pr_type(&N->decls, u, 0, 0);
    N->name[u] = ++N->count;
    put(&N->decls, "\n");
    N->nstack--;
  }
  return N->decls.oom ? -1 : 0;
}

static void pr_type(sbuf *b, int t, int prec, int depth)
{
  if (t < 0 || t >= ty_count) {
    put(b, "<bad type>");
    return;
  }
  if (depth > PRINT_MAX_TYPE_DEPTH) {
    b->deep = 1;
    return;
  }
  type_names *N = tnames;
  if (N && tn_valid(N, t) && N->name[t] >= 0) {
    int sz = tn_size(N, t);
    if (sz < 0 || (sz > TYPE_NAME_NODES && !N->name[t] && tn_name(N, t) < 0)) {
      b->oom = 1;
      return;
    }
    if (N->name[t] > 0) {
      put(b, N->def_name);
      putf(b, "_T%d", N->name[t]);
      return;
    }
  }
  if (N && tn_valid(N, t) && N->name[t] < 0)
    N->name[t] = 0; /* only the outermost node of a definition */
  int k = ty_kind_[t], l = ty_left_[t], r = ty_right_[t], lv;
  switch (k) {
  case TY_REAL: put(b, "real"); return;
  case TY_INT: put(b, "int"); return;
  case TY_UNIT: put(b, "unit"); return;
  case TY_ARR:
    put(b, "[");
    pr_type(b, l, 0, depth + 1);
    put(b, "]");
    return;
  default: break;
  }
  if (is_bool(t)) {
    put(b, "bool");
    return;
  }
  lv = (k == TY_FUN || k == TY_LFUN) ? 0 : k == TY_SUM ? 1 : 2;
  if (lv < prec)
    put(b, "(");
  if (k == TY_COPOW) {
    put(b, "!");
    pr_type(b, l, 3, depth + 1);
    put(b, " (x) ");
    pr_type(b, r, 3, depth + 1);
  } else {
    pr_type(b, l, lv + 1, depth + 1);
    put(b, k == TY_FUN ? " -> " : k == TY_LFUN ? " -o " : k == TY_SUM ? " + " : " * ");
    pr_type(b, r, lv, depth + 1);
  }
  if (lv < prec)
    put(b, ")");
}

char *surf_print_type(int ty)
{
  sbuf b = {0};
  pr_type(&b, ty, 0, 0);
  return finish(&b);
}

/* ---- terms --------------------------------------------------------------------- */
enum {
  P_OPEN = 0, P_OR, P_AND, P_CMP, P_ADDL, P_MULL, P_PREFIX, P_LAPP, P_APP,
  P_POST, P_ATOM
};

typedef struct {
  sbuf b;
  const char **stack;   /* names by de Bruijn level */
  int n, cap;
  char **owned;         /* fresh names to free */
  int nowned, capowned;
  const char *const *given;
  int ngiven;
  const char *const *hints; /* names for the outermost let chain */
  int nhints, hint_next;
  int counter[16];
  int indent;
  int depth;
  int flat;             /* inside an attempt to print on one line */
} printer;

/* Indentation stops growing at INDENT_MAX columns: the syntax does not depend
 * on it, and a chain of n nested lets would otherwise print O(n^2) spaces. */
#define INDENT_MAX 40

static void nl(printer *P)
{
  put(&P->b, "\n");
  int n = P->indent < INDENT_MAX ? P->indent : INDENT_MAX;
  for (int i = 0; i < n; i++)
    put(&P->b, " ");
}

static int taken(const printer *P, const char *s)
{
  if (surf_is_keyword(s) || prim_by_name(s) >= 0)
    return 1;
  for (int i = 0; i < P->ngiven; i++)
    if (P->given[i] && strcmp(P->given[i], s) == 0)
      return 1;
  for (int i = 0; i < P->nhints; i++)
    if (P->hints[i] && strcmp(P->hints[i], s) == 0)
      return 1;
  return 0;
}

/* The next hint for a let of the outermost chain, if usable: not a keyword
 * or primitive, not a given name, not an earlier hint. */
static const char *take_hint(printer *P)
{
  if (P->hint_next >= P->nhints)
    return NULL;
  int i = P->hint_next++;
  const char *h = P->hints[i];
  if (!h || surf_is_keyword(h) || prim_by_name(h) >= 0)
    return NULL;
  for (int j = 0; j < P->ngiven; j++)
    if (P->given[j] && strcmp(P->given[j], h) == 0)
      return NULL;
  for (int j = 0; j < i; j++)
    if (P->hints[j] && strcmp(P->hints[j], h) == 0)
      return NULL;
  return h;
}

/* A fresh name suggesting the type: x real, i int, u unit, p pair, s sum,
 * f function, a array, l linear function, w copower. */
static const char *fresh(printer *P, int ty)
{
  static const char *base[TY_NKINDS] = {
    [TY_REAL] = "x", [TY_INT] = "i", [TY_UNIT] = "u", [TY_PROD] = "p",
    [TY_SUM] = "s", [TY_FUN] = "f", [TY_ARR] = "a", [TY_LFUN] = "l",
    [TY_COPOW] = "w",
  };
  int k = ty >= 0 && ty < ty_count ? ty_kind_[ty] : TY_REAL;
  if (is_bool(ty))
    k = TY_SUM;
  char buf[32];
  for (;;) {
    int c = P->counter[k]++;
    if (c == 0)
      snprintf(buf, sizeof buf, "%s", base[k]);
    else
      snprintf(buf, sizeof buf, "%s%d", base[k], c);
    if (!taken(P, buf))
      break;
  }
  if (P->nowned == P->capowned) {
    int cap = P->capowned ? 2 * P->capowned : 32;
    char **o = realloc(P->owned, (size_t)cap * sizeof *o);
    if (!o) {
      P->b.oom = 1;
      return "?";
    }
    P->owned = o;
    P->capowned = cap;
  }
  char *s = malloc(strlen(buf) + 1);
  if (!s) {
    P->b.oom = 1;
    return "?";
  }
  strcpy(s, buf);
  P->owned[P->nowned++] = s;
  return s;
}

static void push_name(printer *P, const char *s)
{
  if (P->n == P->cap) {
    int cap = P->cap ? 2 * P->cap : 64;
    const char **x = realloc(P->stack, (size_t)cap * sizeof *x);
    if (!x) {
      P->b.oom = 1;
      return;
    }
    P->stack = x;
    P->cap = cap;
  }
  P->stack[P->n++] = s;
}

static void pop_names(printer *P, int k)
{
  P->n -= k;
  if (P->n < 0)
    P->n = 0;
}

static const char *var_name(const printer *P, int64_t k)
{
  if (k < 0 || k >= P->n)
    return "<unbound>";
  return P->stack[P->n - 1 - k];
}

/* Number of binders child c (0 = a, 1 = b, 2 = c) of a node of kind k has. */
static int binders_of(int k, int c)
{
  switch (k) {
  case TM_LET: case TM_ITER: case TM_LOOP: case TM_BUILD: case TM_LSUM: return c == 1;
  case TM_LAM: case TM_MAP: case TM_LLAM: return c == 0;
  case TM_CASE: return c >= 1;
  case TM_CP_FOLD: return c == 1 ? 2 : 0;
  default: return 0;
  }
}

/* Does t mention the variable bound k binders above it? Conservative (1)
 * when too deep to tell. */
static int mentions(int t, int k, int depth)
{
  if (t < 0 || t >= tm_count)
    return 0;
  if (depth > PRINT_MAX_DEPTH)
    return 1;
  int kind = tm_kind_[t];
  if (kind == TM_VAR)
    return tm_aux_[t] == k;
  int ch[3] = {tm_a_[t], tm_b_[t], tm_c_[t]};
  for (int c = 0; c < 3; c++)
    if (ch[c] >= 0 && mentions(ch[c], k + binders_of(kind, c), depth + 1))
      return 1;
  return 0;
}

/* Small terms print on one line. */
static int tm_size(int t, int budget)
{
  if (t < 0 || t >= tm_count || budget <= 0)
    return 0;
  int s = 1;
  int ch[3] = {tm_a_[t], tm_b_[t], tm_c_[t]};
  for (int c = 0; c < 3; c++)
    if (ch[c] >= 0)
      s += tm_size(ch[c], budget - s);
  return s;
}

static void pr(printer *P, int t, int prec);

/* ---- layout: print on one line when it fits, else as an indented block -- */
#define LINE_WIDTH 100
#define INLINE_NODES 48 /* only terms this small are tried inline: bounded retries */

typedef struct {
  size_t n;
  int counter[16];
  int nowned, nstack, depth;
} mark;

static mark save(const printer *P)
{
  mark m;
  m.n = P->b.n;
  memcpy(m.counter, P->counter, sizeof m.counter);
  m.nowned = P->nowned;
  m.nstack = P->n;
  m.depth = P->depth;
  return m;
}

static void restore(printer *P, const mark *m)
{
  if (!P->b.oom && P->b.s) {
    P->b.n = m->n;
    P->b.s[m->n] = 0;
  }
  memcpy(P->counter, m->counter, sizeof m->counter);
  while (P->nowned > m->nowned)
    free(P->owned[--P->nowned]);
  P->n = m->nstack;
  P->depth = m->depth;
}

/* Did the text since m stay on one line that is not too long? */
static int fits(const printer *P, const mark *m)
{
  if (P->b.oom || !P->b.s)
    return 1;
  if (memchr(P->b.s + m->n, '\n', P->b.n - m->n))
    return 0;
  size_t start = m->n;
  while (start > 0 && P->b.s[start - 1] != '\n')
    start--;
  return P->b.n - start <= LINE_WIDTH;
}

/* " body" on this line if it fits, else a new line indented by two. */
/* While P->flat is set (an attempt to print on one line), nothing inside
 * tries again: each node is printed at most once per enclosing failed
 * attempt, so layout costs O(size * INLINE_NODES). */
static void pr_body(printer *P, int t, int prec)
{
  if (P->flat) {
    put(&P->b, " ");
    pr(P, t, prec);
    return;
  }
  if (tm_size(t, INLINE_NODES) < INLINE_NODES) {
    mark m = save(P);
    P->flat = 1;
    put(&P->b, " ");
    pr(P, t, prec);
    P->flat = 0;
    if (fits(P, &m))
      return;
    restore(P, &m);
  }
  P->indent += 2;
  nl(P);
  pr(P, t, prec);
  P->indent -= 2;
}

static void open_paren(printer *P, int lv, int prec) { if (lv < prec) put(&P->b, "("); }
static void close_paren(printer *P, int lv, int prec) { if (lv < prec) put(&P->b, ")"); }

static void pr_real(printer *P, double r, int prec)
{
  char buf[64];
  if (isnan(r)) {
    put(&P->b, "nan");
    return;
  }
  if (isinf(r)) {
    put(&P->b, r > 0 ? "inf" : "(-inf)");
    return;
  }
  for (int d = 1; d <= 17; d++) {
    snprintf(buf, sizeof buf, "%.*g", d, r);
    if (strtod(buf, NULL) == r)
      break;
  }
  if (!strpbrk(buf, ".e")) /* "2" would read back as an int; 1e+20 is a real */
    strcat(buf, ".0");
  int neg = buf[0] == '-';
  open_paren(P, neg ? P_PREFIX : P_ATOM, prec);
  put(&P->b, buf);
  close_paren(P, neg ? P_PREFIX : P_ATOM, prec);
}

static int prim_shadowed(const printer *P, const char *name)
{
  for (int i = 0; i < P->n; i++)
    if (P->stack[i] && strcmp(P->stack[i], name) == 0)
      return 1;
  return 0;
}

/* The infix spelling of op (if it parses back to op), its level, and
 * whether it is the unary minus. */
static const char *infix_of(int op, int *lv)
{
  static const struct { int op, real, lv; const char *s; } tab[] = {
    {P_ADD, -1, P_ADDL, "+"}, {P_SUB, -1, P_ADDL, "-"}, {P_MUL, -1, P_MULL, "*"},
    {P_DIV, -1, P_MULL, "/"}, {P_IMOD, -1, P_MULL, "%"}, {P_LT, -1, P_CMP, "<"},
    {P_LE, -1, P_CMP, "<="}, {P_EQ, -1, P_CMP, "=="},
    {P_IADD, P_ADD, P_ADDL, "+"}, {P_ISUB, P_SUB, P_ADDL, "-"}, {P_IMUL, P_MUL, P_MULL, "*"},
    {P_IDIV, P_DIV, P_MULL, "/"}, {P_ILT, P_LT, P_CMP, "<"}, {P_ILE, P_LE, P_CMP, "<="},
    {P_IEQ, P_EQ, P_CMP, "=="},
  };
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
    if (tab[i].op == op) {
      if (tab[i].real >= 0 && !(tab[i].real < op_count && op_alt_[tab[i].real] == op))
        return NULL;
      *lv = tab[i].lv;
      return tab[i].s;
    }
  return NULL;
}

static const char *usable_prim_name(const printer *P, int op)
{
  const char *name = prim_name(op);
  if (!name || prim_by_name(name) != op || surf_is_keyword(name) || prim_shadowed(P, name))
    return NULL;
  return name;
}

static void pr_op(printer *P, int t, int prec)
{
  int op = (int)tm_aux_[t], arg = tm_a_[t], lv;
  int pair = arg >= 0 && tm_kind_[arg] == TM_PAIR;
  const char *sym = infix_of(op, &lv);
  if (sym && pair) {
    int cmp = lv == P_CMP;
    open_paren(P, lv, prec);
    pr(P, tm_a_[arg], cmp ? lv + 1 : lv);
    putf(&P->b, " %s ", sym);
    pr(P, tm_b_[arg], lv + 1);
    close_paren(P, lv, prec);
    return;
  }
  if (op == P_NEG || (op == P_INEG && op_alt_[P_NEG] == P_INEG)) {
    open_paren(P, P_PREFIX, prec);
    put(&P->b, "-");
    int k = arg >= 0 ? tm_kind_[arg] : -1;
    /* -2 would read back as the literal -2, not neg 2 */
    if (k == TM_RCONST || k == TM_ICONST || (k == TM_OP && (tm_aux_[arg] == P_NEG || tm_aux_[arg] == P_INEG)))
      pr(P, arg, P_ATOM + 1);
    else
      pr(P, arg, P_PREFIX);
    close_paren(P, P_PREFIX, prec);
    return;
  }
  const char *name = usable_prim_name(P, op);
  int arity = name ? prim_arity(op) : 0;
  open_paren(P, P_APP, prec);
  if (name && arity == 2 && pair) {
    put(&P->b, name);
    put(&P->b, " ");
    pr(P, tm_a_[arg], P_POST);
    put(&P->b, " ");
    pr(P, tm_b_[arg], P_POST);
  } else if (name && arity == 1) {
    put(&P->b, name);
    put(&P->b, " ");
    pr(P, arg, P_POST);
  } else {
    const char *n2 = prim_name(op);
    if (n2)
      putf(&P->b, "@%s ", n2);
    else
      putf(&P->b, "@op%d ", op);
    pr(P, arg, P_POST);
  }
  close_paren(P, P_APP, prec);
}

/* fun (x : t) (y : u) -> body, and lfun alike */
static void pr_lams(printer *P, int t, int prec)
{
  int kind = tm_kind_[t];
  open_paren(P, P_OPEN, prec);
  put(&P->b, kind == TM_LAM ? "fun" : "lfun");
  int pushed = 0;
  while (t >= 0 && tm_kind_[t] == kind) {
    int dom = ty_left_[tm_ty_[t]];
    const char *x = fresh(P, dom);
    put(&P->b, " (");
    put(&P->b, x);
    put(&P->b, " : ");
    pr_type(&P->b, dom, 0, 0);
    put(&P->b, ")");
    push_name(P, x);
    pushed++;
    t = tm_a_[t];
  }
  put(&P->b, " ->");
  pr_body(P, t, P_OPEN);
  pop_names(P, pushed);
  close_paren(P, P_OPEN, prec);
}

static void pr_let(printer *P, int t, int prec)
{
  open_paren(P, P_OPEN, prec);
  int pushed = 0;
  int hinted = P->depth == 1 && P->hint_next == 0;
  while (t >= 0 && tm_kind_[t] == TM_LET) {
    int bound = tm_a_[t];
    const char *x = hinted ? take_hint(P) : NULL;
    if (!x)
      x = fresh(P, tm_ty_[bound]);
    put(&P->b, "let ");
    put(&P->b, x);
    put(&P->b, " =");
    mark m = save(P);
    int done = 0;
    if (P->flat || tm_kind_[bound] == TM_LAM || tm_size(bound, INLINE_NODES) < INLINE_NODES) {
      int outer = P->flat;
      int try = !outer && tm_kind_[bound] != TM_LAM;
      if (try)
        P->flat = 1;
      put(&P->b, " ");
      P->indent += 2;
      pr(P, bound, P_OPEN);
      P->indent -= 2;
      put(&P->b, " in");
      if (try)
        P->flat = 0;
      done = !try || fits(P, &m);
      if (!done)
        restore(P, &m);
    }
    if (!done) {
      P->indent += 2;
      nl(P);
      pr(P, bound, P_OPEN);
      P->indent -= 2;
      nl(P);
      put(&P->b, "in");
    }
    nl(P);
    push_name(P, x);
    pushed++;
    t = tm_b_[t];
  }
  pr(P, t, P_OPEN);
  pop_names(P, pushed);
  close_paren(P, P_OPEN, prec);
}

/* `(kw arg1 arg2 ...)` at application level */
static void pr_kw(printer *P, const char *kw, int prec, int a, int b)
{
  open_paren(P, P_APP, prec);
  put(&P->b, kw);
  put(&P->b, " ");
  pr(P, a, P_POST);
  if (b >= 0) {
    put(&P->b, " ");
    pr(P, b, P_POST);
  }
  close_paren(P, P_APP, prec);
}

/* (fun (x : t) -> body) as the function argument of build/map/iter/lsum,
 * where body is child `body` with one binder of type ty */
static void pr_binder_fun(printer *P, int body, int ty, int annotate)
{
  const char *x = fresh(P, ty);
  put(&P->b, "(fun ");
  if (annotate) {
    put(&P->b, "(");
    put(&P->b, x);
    put(&P->b, " : ");
    pr_type(&P->b, ty, 0, 0);
    put(&P->b, ")");
  } else {
    put(&P->b, x);
  }
  push_name(P, x);
  put(&P->b, " ->");
  pr_body(P, body, P_OPEN);
  put(&P->b, ")");
  pop_names(P, 1);
}

static void pr_case(printer *P, int t, int prec)
{
  int s = tm_a_[t], l = tm_b_[t], r = tm_c_[t];
  int sty = tm_ty_[s];
  open_paren(P, P_OPEN, prec);
  mark m0 = save(P);
  int outer_flat = P->flat;
  int small = outer_flat || tm_size(t, INLINE_NODES) < INLINE_NODES;
  if (small)
    P->flat = 1;
  if (is_bool(sty) && !mentions(l, 0, 0) && !mentions(r, 0, 0)) {
  retry_if:
    put(&P->b, "if ");
    pr(P, s, P_OPEN);
    push_name(P, "_");
    put(&P->b, " then");
    if (small) {
      put(&P->b, " ");
      pr(P, l, P_OPEN);
      put(&P->b, " else ");
      pr(P, r, P_OPEN);
      P->flat = outer_flat;
      if (!outer_flat && !fits(P, &m0)) {
        restore(P, &m0);
        small = 0;
        goto retry_if;
      }
    } else {
      P->indent += 2;
      nl(P);
      pr(P, l, P_OPEN);
      P->indent -= 2;
      nl(P);
      put(&P->b, "else");
      if (tm_kind_[r] == TM_CASE) {
        put(&P->b, " ");
        pr(P, r, P_OPEN);
      } else {
        P->indent += 2;
        nl(P);
        pr(P, r, P_OPEN);
        P->indent -= 2;
      }
    }
    pop_names(P, 1);
    close_paren(P, P_OPEN, prec);
    return;
  }
retry_case:
  put(&P->b, "case ");
  pr(P, s, P_OPEN);
  put(&P->b, " of");
  const char *a = fresh(P, ty_left_[sty]);
  if (small)
    put(&P->b, " ");
  else {
    P->indent += 2;
    nl(P);
  }
  put(&P->b, "inl ");
  put(&P->b, a);
  put(&P->b, " -> ");
  push_name(P, a);
  pr(P, l, P_OR);
  pop_names(P, 1);
  const char *b = fresh(P, ty_right_[sty]);
  if (small)
    put(&P->b, " | ");
  else {
    P->indent -= 2;
    nl(P);
    put(&P->b, "| ");
  }
  put(&P->b, "inr ");
  put(&P->b, b);
  put(&P->b, " -> ");
  push_name(P, b);
  pr(P, r, P_OPEN);
  pop_names(P, 1);
  P->flat = outer_flat;
  if (small && !outer_flat && !fits(P, &m0)) {
    restore(P, &m0);
    small = 0;
    goto retry_case;
  }
  close_paren(P, P_OPEN, prec);
}

static void pr(printer *P, int t, int prec)
{
  if (t < 0 || t >= tm_count) {
    put(&P->b, "<bad term>");
    return;
  }
  if (++P->depth > PRINT_MAX_DEPTH) {
    P->b.deep = 1;
    P->depth--;
    return;
  }
  int a = tm_a_[t], b = tm_b_[t], c = tm_c_[t], ty = tm_ty_[t];
  switch (tm_kind_[t]) {
  case TM_VAR: put(&P->b, var_name(P, tm_aux_[t])); break;
  case TM_LET: pr_let(P, t, prec); break;
  case TM_LAM: case TM_LLAM: pr_lams(P, t, prec); break;
  case TM_APP:
    open_paren(P, P_APP, prec);
    pr(P, a, P_APP);
    put(&P->b, " ");
    pr(P, b, P_POST);
    close_paren(P, P_APP, prec);
    break;
  case TM_UNIT: put(&P->b, "()"); break;
  case TM_PAIR:
    put(&P->b, "(");
    pr(P, a, P_OPEN);
    while (b >= 0 && tm_kind_[b] == TM_PAIR) {
      put(&P->b, ", ");
      pr(P, tm_a_[b], P_OPEN);
      b = tm_b_[b];
    }
    put(&P->b, ", ");
    pr(P, b, P_OPEN);
    put(&P->b, ")");
    break;
  case TM_FST: pr_kw(P, "fst", prec, a, -1); break;
  case TM_SND: pr_kw(P, "snd", prec, a, -1); break;
  case TM_INL: case TM_INR:
    if (is_bool(ty) && tm_kind_[a] == TM_UNIT) {
      put(&P->b, tm_kind_[t] == TM_INL ? "true" : "false");
      break;
    }
    put(&P->b, tm_kind_[t] == TM_INL ? "(inl " : "(inr ");
    pr(P, a, P_POST);
    put(&P->b, " : ");
    pr_type(&P->b, ty, 0, 0);
    put(&P->b, ")");
    break;
  case TM_CASE: pr_case(P, t, prec); break;
  case TM_RCONST: pr_real(P, tm_rval_[t], prec); break;
  case TM_ICONST:
    open_paren(P, tm_aux_[t] < 0 ? P_PREFIX : P_ATOM, prec);
    putf(&P->b, "%" PRId64, tm_aux_[t]);
    close_paren(P, tm_aux_[t] < 0 ? P_PREFIX : P_ATOM, prec);
    break;
  case TM_OP: pr_op(P, t, prec); break;
  case TM_ITER:
  case TM_LOOP:
    open_paren(P, P_APP, prec);
    put(&P->b, tm_kind_[t] == TM_ITER ? "iter " : "loop ");
    pr(P, a, P_POST);
    put(&P->b, " ");
    pr_binder_fun(P, b, ty, 1);
    put(&P->b, " ");
    pr(P, c, P_POST);
    close_paren(P, P_APP, prec);
    break;
  case TM_BUILD:
  case TM_LSUM:
    open_paren(P, P_APP, prec);
    put(&P->b, tm_kind_[t] == TM_BUILD ? "build " : "lsum ");
    pr(P, a, P_POST);
    put(&P->b, " ");
    pr_binder_fun(P, b, TY_ID_INT, 0);
    close_paren(P, P_APP, prec);
    break;
  case TM_INDEX:
    open_paren(P, P_POST, prec);
    pr(P, a, P_POST);
    put(&P->b, "[");
    pr(P, b, P_OPEN);
    put(&P->b, "]");
    close_paren(P, P_POST, prec);
    break;
  case TM_LENGTH: pr_kw(P, "length", prec, a, -1); break;
  case TM_MAP:
    open_paren(P, P_APP, prec);
    put(&P->b, "map ");
    pr_binder_fun(P, a, ty_left_[tm_ty_[b]], 1);
    put(&P->b, " ");
    pr(P, b, P_POST);
    close_paren(P, P_APP, prec);
    break;
  case TM_SUM: pr_kw(P, "sum", prec, a, -1); break;
  /* target language */
  case TM_ZERO:
    put(&P->b, "zero{");
    pr_type(&P->b, ty, 0, 0);
    put(&P->b, "}");
    break;
  case TM_PLUS:
    open_paren(P, P_ADDL, prec);
    pr(P, a, P_ADDL);
    put(&P->b, " <+> ");
    pr(P, b, P_ADDL + 1);
    close_paren(P, P_ADDL, prec);
    break;
  case TM_LAPP:
    open_paren(P, P_LAPP, prec);
    pr(P, a, P_LAPP);
    put(&P->b, " <| ");
    pr(P, b, P_APP);
    close_paren(P, P_LAPP, prec);
    break;
  case TM_CP_SINGLE: pr_kw(P, "single", prec, a, b); break;
  case TM_ONEHOT: pr_kw(P, "onehot", prec, a, b); break;
  case TM_CP_FOLD: {
    int wty = tm_ty_[a];
    const char *x = fresh(P, ty_left_[wty]);
    const char *v = fresh(P, ty_right_[wty]);
    open_paren(P, P_OPEN, prec);
    put(&P->b, "fold ");
    pr(P, a, P_APP);
    putf(&P->b, " with (%s : ", x);
    pr_type(&P->b, ty_left_[wty], 0, 0);
    putf(&P->b, ") (%s : ", v);
    pr_type(&P->b, ty_right_[wty], 0, 0);
    put(&P->b, ") ->");
    push_name(P, x);
    push_name(P, v);
    P->indent += 2;
    nl(P);
    pr(P, b, P_OPEN);
    P->indent -= 2;
    pop_names(P, 2);
    close_paren(P, P_OPEN, prec);
    break;
  }
  case TM_LOP_D:
  case TM_LOP_DT: {
    const char *name = prim_name((int)tm_aux_[t]);
    if (name)
      putf(&P->b, "%s[%s](", tm_kind_[t] == TM_LOP_D ? "D" : "DT", name);
    else
      putf(&P->b, "%s[op%" PRId64 "](", tm_kind_[t] == TM_LOP_D ? "D" : "DT", tm_aux_[t]);
    pr(P, a, P_OPEN);
    put(&P->b, "; ");
    pr(P, b, P_OPEN);
    put(&P->b, ")");
    break;
  }
  default:
    putf(&P->b, "<term kind %d>", tm_kind_[t]);
    break;
  }
  P->depth--;
}

static char *print_with(int term, int nnames, const char *const *names, const char *def_name,
                        int name_types, int nhints, const char *const *hints)
{
  printer P = {0};
  P.given = names;
  P.ngiven = nnames;
  P.hints = hints;
  P.nhints = nhints;
  int g = term >= 0 && term < tm_count ? tm_ctx_[term] : 0;
  int len = g >= 0 && g < ctx_count ? ctx_len_[g] : 0;
  /* the context's types, outermost first */
  int *tys = malloc(((size_t)len + 1) * sizeof *tys);
  if (!tys)
    return NULL;
  for (int i = len - 1, h = g; i >= 0 && h > 0; i--, h = ctx_parent_[h])
    tys[i] = ctx_type_[h];
  for (int i = 0; i < len; i++)
    push_name(&P, i < nnames && names[i] ? names[i] : fresh(&P, tys[i]));
  type_names N = {def_name, ty_count, NULL, NULL, NULL, 0, 0, {0}, 0};
  if (def_name && name_types) {
    N.name = calloc((size_t)ty_count + 1, sizeof *N.name);
    N.size = calloc((size_t)ty_count + 1, sizeof *N.size);
    if (!N.name || !N.size)
      P.b.oom = 1;
    else
      tnames = &N;
  }
  if (def_name) {
    putf(&P.b, "def %s (", def_name);
    for (int i = 0; i < len; i++) {
      if (i)
        put(&P.b, ", ");
      putf(&P.b, "%s : ", P.stack[i]);
      pr_type(&P.b, tys[i], 0, 0);
    }
    put(&P.b, ") : ");
    pr_type(&P.b, term >= 0 && term < tm_count ? tm_ty_[term] : -1, 0, 0);
    put(&P.b, " =");
    P.indent = 2;
    nl(&P);
  }
  pr(&P, term, P_OPEN);
  if (def_name)
    put(&P.b, "\n");
  tnames = NULL;
  if (N.count) {
    /* the type definitions go first */
    put_n(&N.decls, P.b.s ? P.b.s : "", P.b.n);
    N.decls.oom |= P.b.oom;
    N.decls.deep |= P.b.deep;
    free(P.b.s);
    P.b = N.decls;
  } else
    free(N.decls.s);
  free(N.name);
  free(N.size);
  free(N.stack);
  free(tys);
  free(P.stack);
  for (int i = 0; i < P.nowned; i++)
    free(P.owned[i]);
  free(P.owned);
  return finish(&P.b);
}

char *surf_print_term(int term, int nnames, const char *const *names)
{
  return print_with(term, nnames, names, NULL, 0, 0, NULL);
}

char *surf_print_def_named(const char *name, int nparams, const char *const *param_names, int term)
{
  return print_with(term, nparams, param_names, name, 1, 0, NULL);
}

char *surf_print_def(const surf_program *p, int k, int term)
{
  if (!p || k < 0 || k >= p->ndefs)
    return NULL;
  const sdef *d = &p->defs[k];
  const char **names = malloc(((size_t)d->nparams + 1) * sizeof *names);
  if (!names)
    return NULL;
  for (int i = 0; i < d->nparams; i++)
    names[i] = d->params[i]->name;
  /* the outermost lets of surf_elab_def's term bind the defs def k uses:
   * name them after those defs */
  char *need = calloc((size_t)k + 1, 1);
  const char **hints = malloc(((size_t)k + 1) * sizeof *hints);
  int nh = 0;
  if (need && hints) {
    need[k] = 1;
    for (int j = k; j >= 0; j--)
      if (need[j])
        for (int u = 0; u < p->defs[j].nuses; u++)
          need[p->defs[j].uses[u]] = 1;
    for (int j = 0; j < k; j++)
      if (need[j])
        hints[nh++] = p->defs[j].name;
  }
  char *s = print_with(term, d->nparams, names, d->name, 0, nh, hints);
  free(need);
  free(hints);
  free(names);
  return s;
}

int surf_print_too_deep(void) { return last_too_deep; }

int surf_fprint(FILE *f, char *s)
{
  if (!s)
    return -1;
  int r = fputs(s, f);
  free(s);
  return r < 0 ? -1 : 0;
}
