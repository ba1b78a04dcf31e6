/* Surface language: lexer and parser. Parsing resolves every name (to a
 * binder, an earlier def or a primitive) and applies every desugaring, so
 * the result is a tree of raw-term kinds ready for lowering (lower.c).
 * Grammar: spec/surface.md. Errors leave through longjmp to the entry
 * point, which frees the partial program. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad/primitives.h"
#include "surface_internal.h"

/* ======================================================================= */
/* Region allocator                                                         */
/* ======================================================================= */
void *surf_alloc(surf_region *r, size_t bytes)
{
  bytes = (bytes + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
  surf_chunk *c = r->first;
  if (!c || c->cap - c->used < bytes) {
    size_t cap = bytes > 65536 ? bytes : 65536;
    if (cap > SURF_MAX_PARSE_MEM || r->total > SURF_MAX_PARSE_MEM - cap) {
      r->over = 1;
      return NULL;
    }
    c = malloc(sizeof(surf_chunk) + cap);
    if (!c)
      return NULL;
    c->next = r->first;
    c->used = 0;
    c->cap = cap;
    r->first = c;
    r->total += cap;
  }
  void *p = (char *)c->data + c->used;
  c->used += bytes;
  memset(p, 0, bytes);
  return p;
}

void surf_region_free(surf_region *r)
{
  surf_chunk *c = r->first;
  while (c) {
    surf_chunk *n = c->next;
    free(c);
    c = n;
  }
  r->first = NULL;
  r->total = 0;
  r->over = 0;
}

/* ======================================================================= */
/* Tokens                                                                   */
/* ======================================================================= */
enum tok {
  T_EOF, T_IDENT, T_INT, T_REAL,
  K_DEF, K_LET, K_IN, K_FUN, K_CASE, K_OF, K_INL, K_INR, K_IF, K_THEN,
  K_ELSE, K_FST, K_SND, K_TRUE, K_FALSE, K_NOT, K_ITER, K_LOOP, K_BUILD, K_MAP,
  K_SUM, K_LENGTH, K_REAL, K_INT, K_UNIT, K_BOOL,
  S_LPAREN, S_RPAREN, S_LBRACK, S_RBRACK, S_COMMA, S_COLON, S_EQ, S_ARROW,
  S_BAR, S_PLUS, S_MINUS, S_STAR, S_SLASH, S_PERCENT, S_LT, S_LE, S_EQEQ,
  S_GT, S_GE, S_ANDAND, S_OROR, S_AT, S_POW,
  /* target language: { } ; <| <+> ! */
  S_LBRACE, S_RBRACE, S_SEMI, S_LAPP, S_LPLUS, S_BANG,
  T_NKINDS
};

static const char *const keyword_text[] = {
  [K_DEF] = "def", [K_LET] = "let", [K_IN] = "in", [K_FUN] = "fun",
  [K_CASE] = "case", [K_OF] = "of", [K_INL] = "inl", [K_INR] = "inr",
  [K_IF] = "if", [K_THEN] = "then", [K_ELSE] = "else", [K_FST] = "fst",
  [K_SND] = "snd", [K_TRUE] = "true", [K_FALSE] = "false", [K_NOT] = "not",
  [K_ITER] = "iter", [K_LOOP] = "loop", [K_BUILD] = "build", [K_MAP] = "map", [K_SUM] = "sum",
  [K_LENGTH] = "length", [K_REAL] = "real", [K_INT] = "int",
  [K_UNIT] = "unit", [K_BOOL] = "bool",
};

static const char *const symbol_text[] = {
  [S_LPAREN] = "(", [S_RPAREN] = ")", [S_LBRACK] = "[", [S_RBRACK] = "]",
  [S_COMMA] = ",", [S_COLON] = ":", [S_EQ] = "=", [S_ARROW] = "->",
  [S_BAR] = "|", [S_PLUS] = "+", [S_MINUS] = "-", [S_STAR] = "*",
  [S_SLASH] = "/", [S_PERCENT] = "%", [S_LT] = "<", [S_LE] = "<=",
  [S_EQEQ] = "==", [S_GT] = ">", [S_GE] = ">=", [S_ANDAND] = "&&",
  [S_OROR] = "||", [S_AT] = "@", [S_POW] = "**",
  [S_LBRACE] = "{", [S_RBRACE] = "}", [S_SEMI] = ";", [S_LAPP] = "<|", [S_LPLUS] = "<+>",
  [S_BANG] = "!",
};

int surf_is_keyword(const char *s)
{
  for (int k = K_DEF; k <= K_BOOL; k++)
    if (strcmp(s, keyword_text[k]) == 0)
      return 1;
  return 0;
}

typedef struct {
  int kind;
  int line, col;
  int space_before;      /* whitespace or comment right before the token */
  const char *text;      /* into the source */
  size_t len;
  uint64_t imag;         /* T_INT: magnitude (<= 2^63) */
  double rval;           /* T_REAL */
} token;

typedef struct {
  const char *name;      /* NULL: a hidden binder, not visible by name */
  sbinder *b;
} scope_entry;

typedef struct {
  const char *src;
  size_t len, pos;
  int line, col;
  token cur, nxt;
  int have_nxt;
  surf_program *prog;
  chad_diag *d;
  jmp_buf fail;
  int depth;             /* parser recursion depth */
  uintptr_t stack_base;  /* frame address at surf_parse_buffer's entry */
  scope_entry *scope;
  int nscope, capscope;
  int cur_def;
  int saw_target;        /* the def being parsed uses the target language */
  int *uses;
  int nuses, capuses;
  /* type names (`def type NAME = t`): an open-addressing index into
   * tname/tdef, thcap a power of two at least twice ntypes */
  const char **tname;
  stype **tdef;
  int *tline;
  int ntypes, captypes;
  int *thash, thcap;
} parser;

static void perr(parser *p, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5), noreturn));
static void perr(parser *p, int line, int col, const char *fmt, ...)
{
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  diag_set(p->d, CHAD_EXIT_INPUT, p->prog->file, line, col, "%s", msg);
  longjmp(p->fail, 1);
}

/* The host out of memory is a runtime error (exit 3), not the input's fault. */
static void poom(parser *p, int line, int col) __attribute__((noreturn));
static void poom(parser *p, int line, int col)
{
  diag_set(p->d, CHAD_EXIT_RUNTIME, p->prog->file, line, col, "out of memory while parsing");
  longjmp(p->fail, 1);
}

static void *palloc(parser *p, size_t n)
{
  void *x = surf_alloc(&p->prog->mem, n);
  if (!x && p->prog->mem.over)
    perr(p, p->cur.line, p->cur.col,
         "program too large: parsing it needs more than %d MiB (the parser's limit)",
         (int)(SURF_MAX_PARSE_MEM >> 20));
  if (!x)
    poom(p, p->cur.line, p->cur.col);
  return x;
}

static char *pstrdup(parser *p, const char *s, size_t n)
{
  char *x = palloc(p, n + 1);
  memcpy(x, s, n);
  x[n] = 0;
  return x;
}

/* A token for messages: "'foo'", "end of file", "number 12". */
static const char *tok_desc(const token *t, char *buf, size_t n)
{
  switch (t->kind) {
  case T_EOF: return "end of file";
  case T_IDENT: snprintf(buf, n, "'%.*s'", (int)t->len, t->text); return buf;
  case T_INT:
  case T_REAL: snprintf(buf, n, "number %.*s", (int)t->len, t->text); return buf;
  default:
    if (t->kind >= K_DEF && t->kind <= K_BOOL)
      snprintf(buf, n, "keyword '%s'", keyword_text[t->kind]);
    else
      snprintf(buf, n, "'%s'", symbol_text[t->kind]);
    return buf;
  }
}

/* ======================================================================= */
/* Lexer                                                                    */
/* ======================================================================= */
static int at(parser *p, size_t k) { return p->pos + k < p->len ? (unsigned char)p->src[p->pos + k] : -1; }

static void advance(parser *p, size_t k)
{
  for (size_t i = 0; i < k && p->pos < p->len; i++) {
    /* LF, CRLF and a lone CR each end a line */
    if (p->src[p->pos] == '\n' ||
        (p->src[p->pos] == '\r' && (p->pos + 1 >= p->len || p->src[p->pos + 1] != '\n'))) {
      p->line++;
      p->col = 1;
    } else {
      p->col++;
    }
    p->pos++;
  }
}

static int is_ident_start(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int is_ident_char(int c) { return is_ident_start(c) || (c >= '0' && c <= '9') || c == '\''; }
static int is_digit(int c) { return c >= '0' && c <= '9'; }

/* Skips blanks and comments; returns 1 if anything was skipped. */
static int skip_space(parser *p)
{
  int skipped = 0;
  for (;;) {
    int c = at(p, 0);
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      advance(p, 1);
      skipped = 1;
    } else if (c == '#') {
      while (at(p, 0) != -1 && at(p, 0) != '\n' && at(p, 0) != '\r')
        advance(p, 1);
      skipped = 1;
    } else if (c == '(' && at(p, 1) == '*') {
      /* nested block comment (* ... *) */
      int line = p->line, col = p->col, nest = 0;
      do {
        if (at(p, 0) == -1)
          perr(p, line, col, "unterminated comment: '(*' has no matching '*)'");
        if (at(p, 0) == '(' && at(p, 1) == '*') {
          nest++;
          advance(p, 2);
        } else if (at(p, 0) == '*' && at(p, 1) == ')') {
          nest--;
          advance(p, 2);
        } else {
          advance(p, 1);
        }
      } while (nest > 0);
      skipped = 1;
    } else {
      return skipped;
    }
  }
}

static void lex(parser *p, token *t)
{
  t->space_before = skip_space(p);
  t->line = p->line;
  t->col = p->col;
  t->text = p->src + p->pos;
  t->len = 0;
  int c = at(p, 0);
  if (c == -1) {
    t->kind = T_EOF;
    return;
  }
  if (is_ident_start(c)) {
    size_t n = 0;
    while (is_ident_char(at(p, n)))
      n++;
    if (n > SURF_MAX_IDENT)
      perr(p, t->line, t->col, "identifier too long (%zu characters, limit %d)", n, SURF_MAX_IDENT);
    t->len = n;
    t->kind = T_IDENT;
    for (int k = K_DEF; k <= K_BOOL; k++)
      if (strlen(keyword_text[k]) == n && memcmp(keyword_text[k], t->text, n) == 0)
        t->kind = k;
    advance(p, n);
    return;
  }
  /* a real may start with its point (.5), but not right after a name or a
   * number (x.5, 1.2.3 stay errors) */
  int lead_dot = c == '.' && is_digit(at(p, 1)) &&
                 !(p->pos > 0 && (is_ident_char((unsigned char)p->src[p->pos - 1]) || p->src[p->pos - 1] == '.'));
  if (is_digit(c) || lead_dot) {
    size_t n = 0;
    int real = 0;
    while (is_digit(at(p, n)))
      n++;
    if (at(p, n) == '.' && is_digit(at(p, n + 1))) {
      real = 1;
      n++;
      while (is_digit(at(p, n)))
        n++;
    }
    if (at(p, n) == 'e' || at(p, n) == 'E') {
      size_t m = n + 1;
      if (at(p, m) == '+' || at(p, m) == '-')
        m++;
      if (!is_digit(at(p, m)))
        perr(p, t->line, t->col, "malformed number: exponent needs digits");
      while (is_digit(at(p, m)))
        m++;
      n = m;
      real = 1;
    }
    if (is_ident_char(at(p, n)) || at(p, n) == '.')
      perr(p, t->line, t->col, "malformed number: '%c' right after the digits", at(p, n));
    if (n > SURF_MAX_NUMBER)
      perr(p, t->line, t->col, "number too long (%zu characters, limit %d)", n, SURF_MAX_NUMBER);
    char buf[SURF_MAX_NUMBER + 1];
    memcpy(buf, t->text, n);
    buf[n] = 0;
    t->len = n;
    if (real) {
      t->kind = T_REAL;
      errno = 0;
      t->rval = strtod(buf, NULL);
      if (!isfinite(t->rval))
        perr(p, t->line, t->col, "real literal %s is out of range", buf);
    } else {
      t->kind = T_INT;
      uint64_t v = 0;
      for (size_t i = 0; i < n; i++) {
        unsigned dgt = (unsigned)(buf[i] - '0');
        if (v > (UINT64_C(1) << 63) / 10 || v * 10 + dgt > (UINT64_C(1) << 63))
          perr(p, t->line, t->col, "integer literal %s is out of range (64-bit)", buf);
        v = v * 10 + dgt;
      }
      t->imag = v;
    }
    advance(p, n);
    return;
  }
  if (c == '<' && at(p, 1) == '+' && at(p, 2) == '>') {
    t->kind = S_LPLUS;
    t->len = 3;
    advance(p, 3);
    return;
  }
  static const struct { const char *s; int k; } two[] = {
    {"->", S_ARROW}, {"<=", S_LE}, {">=", S_GE}, {"==", S_EQEQ},
    {"&&", S_ANDAND}, {"||", S_OROR}, {"**", S_POW}, {"<|", S_LAPP},
  };
  for (size_t i = 0; i < sizeof two / sizeof two[0]; i++)
    if (c == two[i].s[0] && at(p, 1) == two[i].s[1]) {
      t->kind = two[i].k;
      t->len = 2;
      advance(p, 2);
      return;
    }
  int k = -1;
  switch (c) {
  case '(': k = S_LPAREN; break;
  case ')': k = S_RPAREN; break;
  case '[': k = S_LBRACK; break;
  case ']': k = S_RBRACK; break;
  case ',': k = S_COMMA; break;
  case ':': k = S_COLON; break;
  case '=': k = S_EQ; break;
  case '|': k = S_BAR; break;
  case '+': k = S_PLUS; break;
  case '-': k = S_MINUS; break;
  case '*': k = S_STAR; break;
  case '/': k = S_SLASH; break;
  case '%': k = S_PERCENT; break;
  case '<': k = S_LT; break;
  case '>': k = S_GT; break;
  case '@': k = S_AT; break;
  case '{': k = S_LBRACE; break;
  case '}': k = S_RBRACE; break;
  case ';': k = S_SEMI; break;
  case '!': k = S_BANG; break;
  default: break;
  }
  if (k < 0) {
    if (c == '*' || c == ')')
      perr(p, t->line, t->col, "unexpected '%c'", c);
    if (c == '^')
      perr(p, t->line, t->col, "unexpected character '^': a power is written x ** y (or pow x y)");
    if (c > 32 && c < 127)
      perr(p, t->line, t->col, "unexpected character '%c'", c);
    perr(p, t->line, t->col, "unexpected byte 0x%02x", (unsigned)c);
  }
  t->kind = k;
  t->len = 1;
  advance(p, 1);
}

static void next(parser *p)
{
  if (p->have_nxt) {
    p->cur = p->nxt;
    p->have_nxt = 0;
  } else {
    lex(p, &p->cur);
  }
}

static const token *peek(parser *p)
{
  if (!p->have_nxt) {
    lex(p, &p->nxt);
    p->have_nxt = 1;
  }
  return &p->nxt;
}

static void expect(parser *p, int kind, const char *context)
{
  if (p->cur.kind != kind) {
    char b[128];
    const char *want = kind >= S_LPAREN ? symbol_text[kind] : kind >= K_DEF ? keyword_text[kind] : "a name";
    perr(p, p->cur.line, p->cur.col, "expected '%s'%s%s, found %s", want,
         context ? " " : "", context ? context : "", tok_desc(&p->cur, b, sizeof b));
  }
  next(p);
}

static void closing(parser *p, int kind, int oline, int ocol)
{
  if (p->cur.kind != kind) {
    char b[128];
    perr(p, p->cur.line, p->cur.col, "expected '%s' to close the '%s' at %d:%d, found %s",
         symbol_text[kind], kind == S_RPAREN ? "(" : "[", oline, ocol,
         tok_desc(&p->cur, b, sizeof b));
  }
  next(p);
}

/* Parser recursion (parentheses, operators, types) is bounded separately
 * from the tree depth (SURF_MAX_DEPTH, checked in mk): printing a term of
 * depth d needs up to ~3d levels of it. */
#define SURF_MAX_PARSE_DEPTH (4 * SURF_MAX_DEPTH)
static void enter(parser *p)
{
  if (++p->depth > SURF_MAX_PARSE_DEPTH)
    perr(p, p->cur.line, p->cur.col, "expression nested too deeply (parser limit %d)", SURF_MAX_PARSE_DEPTH);
  /* The stack the recursion has taken (frame addresses as integers, either
   * direction of growth): a level takes about 1 KB in an optimised build,
   * more with sanitizers, so the limit of levels alone does not keep an
   * instrumented build (or a smaller stack) from overflowing. */
  uintptr_t here = (uintptr_t)__builtin_frame_address(0);
  uintptr_t used = here < p->stack_base ? p->stack_base - here : here - p->stack_base;
  if (used > SURF_MAX_PARSE_STACK)
    perr(p, p->cur.line, p->cur.col, "expression nested too deeply (parser stack limit %d MiB)",
         (int)(SURF_MAX_PARSE_STACK >> 20));
}

/* Error helpers kept out of line so that the recursive parsing functions
 * have small stack frames. */
static void err_found(parser *p, int line, int col, const char *prefix, const token *t)
    __attribute__((noinline, noreturn));
static void err_found(parser *p, int line, int col, const char *prefix, const token *t)
{
  char b[128];
  perr(p, line, col, "%s%s", prefix, tok_desc(t, b, sizeof b));
}
static void leave(parser *p) { p->depth--; }

/* ======================================================================= */
/* Tree construction                                                        */
/* ======================================================================= */
#define SN_EMPTY_ARRAY (-1) /* `[]`: legal only directly under an annotation */

static stype *mk_ty(parser *p, int kind, stype *l, stype *r, int line, int col)
{
  stype *t = palloc(p, sizeof *t);
  t->kind = kind;
  t->l = l;
  t->r = r;
  t->line = line;
  t->col = col;
  return t;
}

static snode *mk(parser *p, int kind, int line, int col, snode *a, snode *b, snode *c)
{
  snode *ch[3] = {a, b, c};
  int depth = 0;
  for (int i = 0; i < 3; i++) {
    if (!ch[i])
      continue;
    if (ch[i]->kind == SN_EMPTY_ARRAY)
      perr(p, ch[i]->line, ch[i]->col,
           "an empty array literal needs a type annotation, as in ([] : [real])");
    /* the body of a let is lowered and printed iteratively: a chain of
     * lets is long, not deep */
    int dc = kind == TM_LET && i == 1 ? ch[i]->depth - 1 : ch[i]->depth;
    if (dc > depth)
      depth = dc;
  }
  if (depth + 1 > SURF_MAX_DEPTH)
    perr(p, line, col, "expression nested too deeply (limit %d)", SURF_MAX_DEPTH);
  snode *n = palloc(p, sizeof *n);
  n->kind = kind;
  n->line = line;
  n->col = col;
  n->depth = depth + 1;
  n->a = a;
  n->b = b;
  n->c = c;
  n->eta_op = -1;
  return n;
}

static sbinder *mk_binder(parser *p, const char *name)
{
  sbinder *b = palloc(p, sizeof *b);
  b->name = name;
  return b;
}

static snode *mk_var(parser *p, sbinder *b, int line, int col)
{
  snode *n = mk(p, TM_VAR, line, col, NULL, NULL, NULL);
  n->var = b;
  return n;
}

static snode *mk_op(parser *p, int op, snode *arg, int role, const char *what, int line, int col)
{
  snode *n = mk(p, TM_OP, line, col, arg, NULL, NULL);
  n->aux = op;
  n->role = role;
  n->what = what;
  return n;
}

static snode *mk_op2(parser *p, int op, snode *x, snode *y, int role, const char *what, int line, int col)
{
  snode *pr = mk(p, TM_PAIR, line, col, x, y, NULL);
  pr->role = role;
  pr->what = what;
  return mk_op(p, op, pr, role, what, line, col);
}

static snode *mk_bool(parser *p, int v, int line, int col)
{
  snode *u = mk(p, TM_UNIT, line, col, NULL, NULL, NULL);
  snode *n = mk(p, v ? TM_INL : TM_INR, line, col, u, NULL, NULL);
  n->ty = mk_ty(p, TY_UNIT, NULL, NULL, line, col);
  return n;
}

/* if c then t else e: case on a bool with binders nobody can name */
static snode *mk_if(parser *p, snode *c, snode *t, snode *e, const char *what, int line, int col)
{
  snode *n = mk(p, TM_CASE, line, col, c, t, e);
  n->bb = mk_binder(p, NULL);
  n->bc = mk_binder(p, NULL);
  n->role = ROLE_COND;
  n->what = what;
  return n;
}

static void push_scope(parser *p, const char *name, sbinder *b)
{
  if (p->nscope == p->capscope) {
    int cap = p->capscope ? 2 * p->capscope : 64;
    scope_entry *s = realloc(p->scope, (size_t)cap * sizeof *s);
    if (!s)
      poom(p, p->cur.line, p->cur.col);
    p->scope = s;
    p->capscope = cap;
  }
  p->scope[p->nscope].name = name;
  p->scope[p->nscope].b = b;
  p->nscope++;
}

static void note_use(parser *p, int def)
{
  for (int i = 0; i < p->nuses; i++)
    if (p->uses[i] == def)
      return;
  if (p->nuses == p->capuses) {
    int cap = p->capuses ? 2 * p->capuses : 16;
    int *u = realloc(p->uses, (size_t)cap * sizeof *u);
    if (!u)
      poom(p, p->cur.line, p->cur.col);
    p->uses = u;
    p->capuses = cap;
  }
  p->uses[p->nuses++] = def;
}

/* ======================================================================= */
/* Types                                                                    */
/* ======================================================================= */
static stype *parse_type(parser *p);

/* Is token t the identifier w? */
static int is_word(const token *t, const char *w)
{
  return t->kind == T_IDENT && t->len == strlen(w) && memcmp(t->text, w, t->len) == 0;
}

static unsigned type_name_hash(const char *s, size_t n)
{
  unsigned h = 2166136261u;
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

/* The index of the type name s[0..n), or -1. */
static int type_lookup(const parser *p, const char *s, size_t n)
{
  if (!p->thcap)
    return -1;
  for (unsigned i = type_name_hash(s, n) & (unsigned)(p->thcap - 1);; i = (i + 1) & (unsigned)(p->thcap - 1)) {
    int k = p->thash[i];
    if (k < 0)
      return -1;
    if (strlen(p->tname[k]) == n && memcmp(p->tname[k], s, n) == 0)
      return k;
  }
}

static void type_index_put(parser *p, int k)
{
  const char *s = p->tname[k];
  unsigned i = type_name_hash(s, strlen(s)) & (unsigned)(p->thcap - 1);
  while (p->thash[i] >= 0)
    i = (i + 1) & (unsigned)(p->thcap - 1);
  p->thash[i] = k;
}

/* def type NAME = t: NAME stands for t in the types that follow. The
 * printer writes these for the large types of a derivative (spec/surface.md
 * §6), so that its size stays linear in the program's. */
static void parse_type_decl(parser *p, int line, int col)
{
  next(p); /* the word `type` */
  int nl = p->cur.line, nc = p->cur.col;
  const char *name = pstrdup(p, p->cur.text, p->cur.len);
  int dup = type_lookup(p, p->cur.text, p->cur.len);
  if (dup >= 0)
    perr(p, nl, nc, "type '%s' is already defined at line %d", name, p->tline[dup]);
  if (p->ntypes == SURF_MAX_DEFS)
    perr(p, line, col, "too many type names in one file (limit %d)", SURF_MAX_DEFS);
  next(p);
  expect(p, S_EQ, "after the name of the type");
  stype *t = parse_type(p);
  if (p->ntypes == p->captypes) {
    int cap = p->captypes ? 2 * p->captypes : 16;
    const char **tn = realloc(p->tname, (size_t)cap * sizeof *tn);
    if (tn)
      p->tname = tn;
    stype **td = realloc(p->tdef, (size_t)cap * sizeof *td);
    if (td)
      p->tdef = td;
    int *tl = realloc(p->tline, (size_t)cap * sizeof *tl);
    if (tl)
      p->tline = tl;
    int *th = malloc((size_t)cap * 2 * sizeof *th);
    if (!tn || !td || !tl || !th) {
      free(th);
      poom(p, line, col);
    }
    free(p->thash);
    p->thash = th;
    p->thcap = cap * 2;
    p->captypes = cap;
    for (int i = 0; i < p->thcap; i++)
      p->thash[i] = -1;
    for (int k = 0; k < p->ntypes; k++)
      type_index_put(p, k);
  }
  p->tname[p->ntypes] = name;
  p->tdef[p->ntypes] = t;
  p->tline[p->ntypes] = nl;
  type_index_put(p, p->ntypes++);
  if (p->cur.kind != K_DEF && p->cur.kind != T_EOF) {
    char b[128];
    perr(p, p->cur.line, p->cur.col, "expected 'def' or end of file after the type '%s', found %s", name,
         tok_desc(&p->cur, b, sizeof b));
  }
}

static stype *parse_type_atom(parser *p)
{
  int line = p->cur.line, col = p->cur.col;
  stype *t;
  int named;
  switch (p->cur.kind) {
  case T_IDENT:
    /* a type name: its definition, shared (types live in the program's
     * region, freed whole) */
    if ((named = type_lookup(p, p->cur.text, p->cur.len)) < 0)
      err_found(p, line, col, "expected a type (real, int, unit, bool, [t], (t), a type name), found ",
                &p->cur);
    next(p);
    return p->tdef[named];
  case K_REAL: next(p); return mk_ty(p, TY_REAL, NULL, NULL, line, col);
  case K_INT: next(p); return mk_ty(p, TY_INT, NULL, NULL, line, col);
  case K_UNIT: next(p); return mk_ty(p, TY_UNIT, NULL, NULL, line, col);
  case K_BOOL:
    next(p);
    return mk_ty(p, TY_SUM, mk_ty(p, TY_UNIT, NULL, NULL, line, col),
                 mk_ty(p, TY_UNIT, NULL, NULL, line, col), line, col);
  case S_LBRACK:
    next(p);
    t = parse_type(p);
    closing(p, S_RBRACK, line, col);
    return mk_ty(p, TY_ARR, t, NULL, line, col);
  case S_LPAREN:
    next(p);
    t = parse_type(p);
    closing(p, S_RPAREN, line, col);
    return t;
  case S_BANG: {
    /* target: the copower !a (x) b */
    next(p);
    stype *l = parse_type_atom(p);
    int ol = p->cur.line, oc = p->cur.col;
    expect(p, S_LPAREN, "in the copower type !a (x) b");
    if (!is_word(&p->cur, "x"))
      err_found(p, p->cur.line, p->cur.col, "expected 'x' in the copower type !a (x) b, found ", &p->cur);
    next(p);
    closing(p, S_RPAREN, ol, oc);
    stype *r = parse_type_atom(p);
    p->saw_target = 1;
    return mk_ty(p, TY_COPOW, l, r, line, col);
  }
  default:
    err_found(p, line, col, "expected a type (real, int, unit, bool, [t], (t)), found ", &p->cur);
  }
}

/* t ::= s ['->' t];  s ::= q ['+' s];  q ::= atom ['*' q]   (all right assoc) */
static stype *parse_type_prec(parser *p, int level)
{
  if (level == 0)
    enter(p);
  int line = p->cur.line, col = p->cur.col;
  stype *l = level == 2 ? parse_type_atom(p) : parse_type_prec(p, level + 1);
  static const int sym[3] = {S_ARROW, S_PLUS, S_STAR};
  static const int kind[3] = {TY_FUN, TY_SUM, TY_PROD};
  if (p->cur.kind == sym[level]) {
    next(p);
    stype *r = parse_type_prec(p, level);
    l = mk_ty(p, kind[level], l, r, line, col);
  } else if (level == 0 && p->cur.kind == S_MINUS && is_word(peek(p), "o") && !peek(p)->space_before) {
    /* target: the linear function type a -o b (right associative, as ->) */
    next(p);
    next(p);
    stype *r = parse_type_prec(p, level);
    l = mk_ty(p, TY_LFUN, l, r, line, col);
    p->saw_target = 1;
  }
  if (level == 0)
    leave(p);
  return l;
}

static stype *parse_type(parser *p) { return parse_type_prec(p, 0); }

/* ======================================================================= */
/* Expressions                                                              */
/* ======================================================================= */
static snode *parse_expr(parser *p);
static snode *parse_postfix(parser *p);
static void **grow(parser *p, void **old, int n, int *cap);

static int starts_atom(const parser *p)
{
  switch (p->cur.kind) {
  case T_IDENT: case T_INT: case T_REAL: case S_LPAREN: case S_LBRACK:
  case K_TRUE: case K_FALSE:
  case K_FST: case K_SND: case K_SUM: case K_LENGTH: /* as functions */
  case K_INL: case K_INR:
    return 1;
  default:
    return 0;
  }
}

/* The value `default(t)` of a first-order type, used to build empty arrays. */
static snode *default_value(parser *p, const stype *t, int line, int col)
{
  snode *n;
  switch (t->kind) {
  case TY_REAL: n = mk(p, TM_RCONST, line, col, NULL, NULL, NULL); return n;
  case TY_INT: return mk(p, TM_ICONST, line, col, NULL, NULL, NULL);
  case TY_UNIT: return mk(p, TM_UNIT, line, col, NULL, NULL, NULL);
  case TY_PROD:
    return mk(p, TM_PAIR, line, col, default_value(p, t->l, line, col),
              default_value(p, t->r, line, col), NULL);
  case TY_SUM:
    n = mk(p, TM_INL, line, col, default_value(p, t->l, line, col), NULL, NULL);
    n->ty = (stype *)t->r;
    return n;
  case TY_ARR:
    n = mk(p, TM_BUILD, line, col, mk(p, TM_ICONST, line, col, NULL, NULL, NULL),
           default_value(p, t->l, line, col), NULL);
    n->bb = mk_binder(p, NULL);
    return n;
  default:
    perr(p, t->line, t->col, "array elements must be first-order (no functions inside an array)");
  }
}

/* Elements lo..hi-1 of an array literal as a balanced if-tree on index i:
 * linear size, logarithmic depth. */
static snode *literal_tree(parser *p, void *const *el, int lo, int hi, sbinder *i, int line, int col)
{
  if (hi - lo == 1)
    return (snode *)el[lo];
  int mid = lo + (hi - lo) / 2;
  snode *k = mk(p, TM_ICONST, line, col, NULL, NULL, NULL);
  k->aux = mid;
  k->role = ROLE_ARRAY_LIT;
  snode *c = mk_op2(p, P_LT, mk_var(p, i, line, col), k, ROLE_ARRAY_LIT, "<", line, col);
  snode *n = mk_if(p, c, literal_tree(p, el, lo, mid, i, line, col),
                   literal_tree(p, el, mid, hi, i, line, col), "array literal", line, col);
  n->role = ROLE_ARRAY_LIT;
  return n;
}

static snode *parse_array_literal(parser *p)
{
  int line = p->cur.line, col = p->cur.col;
  next(p); /* [ */
  if (p->cur.kind == S_RBRACK) {
    next(p);
    return mk(p, SN_EMPTY_ARRAY, line, col, NULL, NULL, NULL);
  }
  sbinder *i = mk_binder(p, NULL); /* the index: hidden, elements cannot name it */
  void **el = NULL;
  int n = 0, cap = 0;
  for (;;) {
    el = grow(p, el, n, &cap);
    el[n++] = parse_expr(p);
    if (p->cur.kind != S_COMMA)
      break;
    next(p);
  }
  closing(p, S_RBRACK, line, col);
  snode *k = mk(p, TM_ICONST, line, col, NULL, NULL, NULL);
  k->aux = n;
  snode *b = mk(p, TM_BUILD, line, col, k, literal_tree(p, el, 0, n, i, line, col), NULL);
  b->bb = i;
  b->role = ROLE_ARRAY_LIT;
  return b;
}

/* Splits a function argument of build/map/iter into binder, body and
 * parameter annotation: a literal `fun x -> e` directly, anything else f by
 * eta-expansion to `x. f x`. */
static void function_arg(parser *p, snode *f, sbinder **b, snode **body, stype **ann)
{
  if (f->kind == TM_LAM && (f->role == ROLE_PLAIN || f->role == ROLE_KW_FUN)) {
    *b = f->ba;
    *body = f->a;
    *ann = f->ty;
    return;
  }
  sbinder *x = mk_binder(p, NULL);
  snode *app = mk(p, TM_APP, f->line, f->col, f, mk_var(p, x, f->line, f->col), NULL);
  app->role = ROLE_ETA;
  *b = x;
  *body = app;
  *ann = NULL;
}

static void err_need_arg(parser *p, const char *what, const char *usage) __attribute__((noinline, noreturn));
static void err_need_arg(parser *p, const char *what, const char *usage)
{
  char b[128];
  perr(p, p->cur.line, p->cur.col, "'%s' needs %s, found %s", what, usage, tok_desc(&p->cur, b, sizeof b));
}

static snode *need_arg(parser *p, const char *what, const char *usage)
{
  if (!starts_atom(p))
    err_need_arg(p, what, usage);
  return parse_postfix(p);
}

/* A primitive used as a value or applied to fewer arguments than its arity:
 * eta-expand, taking parameter types from the primitive's signature. */
static snode *prim_eta(parser *p, int op, const char *name, int line, int col)
{
  int arity = prim_arity(op);
  sbinder *x = mk_binder(p, NULL);
  if (arity == 2) {
    sbinder *y = mk_binder(p, NULL);
    snode *body = mk_op2(p, op, mk_var(p, x, line, col), mk_var(p, y, line, col),
                         ROLE_PRIM_CALL, name, line, col);
    snode *inner = mk(p, TM_LAM, line, col, body, NULL, NULL);
    inner->ba = y;
    inner->eta_op = op;
    inner->eta_side = 2;
    inner->role = ROLE_ETA;
    snode *outer = mk(p, TM_LAM, line, col, inner, NULL, NULL);
    outer->ba = x;
    outer->eta_op = op;
    outer->eta_side = 1;
    outer->role = ROLE_ETA;
    return outer;
  }
  snode *body = mk_op(p, op, mk_var(p, x, line, col), ROLE_PRIM_CALL, name, line, col);
  snode *lam = mk(p, TM_LAM, line, col, body, NULL, NULL);
  lam->ba = x;
  lam->eta_op = op;
  lam->eta_side = 0;
  lam->role = ROLE_ETA;
  return lam;
}

/* fst, snd, sum, length, inl or inr used as a function (not applied: `map sum m`):
 * `fun x -> fst x`, the parameter's type taken from where the function is
 * used (map's array, an expected function type). */
static snode *kw_fun(parser *p, int kw, int line, int col)
{
  static const int kind_of[] = {[K_FST] = TM_FST, [K_SND] = TM_SND, [K_SUM] = TM_SUM, [K_LENGTH] = TM_LENGTH,
                                [K_INL] = TM_INL, [K_INR] = TM_INR};
  sbinder *x = mk_binder(p, NULL);
  snode *body = mk(p, kind_of[kw], line, col, mk_var(p, x, line, col), NULL, NULL);
  snode *lam = mk(p, TM_LAM, line, col, body, NULL, NULL);
  lam->ba = x;
  lam->role = ROLE_KW_FUN;
  lam->what = keyword_text[kw];
  return lam;
}

/* Edit distance, capped: names are at most SURF_MAX_IDENT long. */
static int edit_distance(const char *a, const char *b)
{
  size_t n = strlen(a), m = strlen(b);
  int row[SURF_MAX_IDENT + 2];
  if (n > SURF_MAX_IDENT || m > SURF_MAX_IDENT)
    return 99;
  for (size_t j = 0; j <= m; j++)
    row[j] = (int)j;
  for (size_t i = 1; i <= n; i++) {
    int diag = row[0];
    row[0] = (int)i;
    for (size_t j = 1; j <= m; j++) {
      int up = row[j];
      int best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[m];
}

/* A visible name close to an unknown one, for "did you mean". */
static const char *nearest_name(parser *p, const char *name) __attribute__((noinline));
static const char *nearest_name(parser *p, const char *name)
{
  const char *best = NULL;
  int bd = strlen(name) <= 3 ? 1 : 2;
  for (int i = p->nscope - 1; i >= 0; i--)
    if (p->scope[i].name) {
      int d = edit_distance(name, p->scope[i].name);
      if (d <= bd && (!best || d < bd)) {
        best = p->scope[i].name;
        bd = d;
      }
    }
  for (int k = p->cur_def - 1; k >= 0; k--) {
    int d = edit_distance(name, p->prog->defs[k].name);
    if (d <= bd && (!best || d < bd)) {
      best = p->prog->defs[k].name;
      bd = d;
    }
  }
  for (int op = 0; op < P_COUNT; op++) {
    const char *pn = prim_name(op);
    if (!pn)
      continue;
    int d = edit_distance(name, pn);
    if (d <= bd && (!best || d < bd)) {
      best = pn;
      bd = d;
    }
  }
  return best;
}

/* The index of the defs' names (surface_internal.h): FNV-1a, linear probing. */
static size_t name_hash(const char *s)
{
  size_t h = 2166136261u;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

/* The def named name among defs [0, limit), or -1. */
static int def_lookup(const surf_program *pr, const char *name, int limit)
{
  if (!pr || !pr->hidx)
    return -1;
  size_t mask = (size_t)pr->hcap - 1;
  for (size_t i = name_hash(name) & mask;; i = (i + 1) & mask) {
    int k = pr->hidx[i];
    if (k < 0)
      return -1;
    if (strcmp(pr->defs[k].name, name) == 0)
      return k < limit ? k : -1;
  }
}

/* Enters def k (its name unique) in the index; 0, or -1 out of memory. */
static int def_index_add(surf_program *pr, int k)
{
  if (2 * (size_t)(k + 1) > (size_t)pr->hcap) {
    int cap = pr->hcap ? 2 * pr->hcap : 64;
    int *h = malloc((size_t)cap * sizeof *h);
    if (!h)
      return -1;
    for (int i = 0; i < cap; i++)
      h[i] = -1;
    free(pr->hidx);
    pr->hidx = h;
    pr->hcap = cap;
    for (int j = 0; j < k; j++)
      def_index_add(pr, j);   /* no growth: 2 * (j + 1) <= cap */
  }
  size_t mask = (size_t)pr->hcap - 1, i = name_hash(pr->defs[k].name) & mask;
  while (pr->hidx[i] >= 0)
    i = (i + 1) & mask;
  pr->hidx[i] = k;
  return 0;
}

/* The library words (below, parse_lib) with their arities and usages. */
static const struct { const char *name; int arity; const char *usage; } lib_words[] = {
  {"concat", 2, "2 arguments: concat a b"},
  {"slice", 3, "3 arguments: slice a start len"},
  {"reverse", 1, "an argument: reverse a"},
  {"update", 3, "3 arguments: update a i v"},
  {"zip", 2, "2 arguments: zip a b"},
  {"unzip", 1, "an argument: unzip a"},
  {"range", 1, "an argument: range n"},
  {"while", 4, "4 arguments: while cond step init fuel"},
  {"fold", 3, "3 arguments: fold n (fun i acc -> e) init"}, /* last: parse_app */
};
#define N_LIB_WORDS ((int)(sizeof lib_words / sizeof lib_words[0]))
static snode *lib_applied(parser *p, int k, snode **a, int given, int line, int col);

/* Resolution of a name: binder, earlier def or primitive. *prim is set to
 * the op code when the name is a primitive (and NULL is returned). */
static snode *resolve(parser *p, const token *t, int *prim)
{
  char name[SURF_MAX_IDENT + 1];
  memcpy(name, t->text, t->len);
  name[t->len] = 0;
  *prim = -1;
  if (strcmp(name, "_") == 0)
    perr(p, t->line, t->col, "'_' cannot be used as a variable");
  for (int i = p->nscope - 1; i >= 0; i--)
    if (p->scope[i].name && strcmp(p->scope[i].name, name) == 0)
      return mk_var(p, p->scope[i].b, t->line, t->col);
  int k = def_lookup(p->prog, name, p->cur_def);
  if (k >= 0) {
    note_use(p, k);
    snode *n = mk(p, SN_DEFREF, t->line, t->col, NULL, NULL, NULL);
    n->aux = k;
    n->what = p->prog->defs[k].name;
    return n;
  }
  int op = prim_by_name(name);
  if (op >= 0) {
    *prim = op;
    return NULL;
  }
  for (int k = 0; k < N_LIB_WORDS; k++)
    if (strcmp(name, lib_words[k].name) == 0) { /* used as a function: `map reverse m` */
      snode *a[4];
      return lib_applied(p, k, a, 0, t->line, t->col);
    }
  if (strcmp(name, p->prog->defs[p->cur_def].name) == 0)
    perr(p, t->line, t->col, "'%s' refers to the def being defined: recursion is not supported (use iter)", name);
  const char *near = nearest_name(p, name);
  if (near)
    perr(p, t->line, t->col, "unknown variable '%s' (did you mean '%s'?)", name, near);
  perr(p, t->line, t->col, "unknown variable '%s'", name);
}

/* Is name bound here (a binder in scope, an earlier def, a primitive)? */
static int name_visible(parser *p, const token *t)
{
  char name[SURF_MAX_IDENT + 1];
  memcpy(name, t->text, t->len);
  name[t->len] = 0;
  for (int i = p->nscope - 1; i >= 0; i--)
    if (p->scope[i].name && strcmp(p->scope[i].name, name) == 0)
      return 1;
  if (def_lookup(p->prog, name, p->cur_def) >= 0)
    return 1;
  return prim_by_name(name) >= 0;
}

/* A word of the target language (lfun, fold, with, single, onehot, lsum,
 * zero, D, DT): the current token, when no binder, def or primitive of that
 * name is visible (so a program may still name a variable `single`). */
static int target_word(parser *p, const char *w)
{
  return is_word(&p->cur, w) && !name_visible(p, &p->cur);
}

/* zero{t}, D[op](x; dx) or DT[op](x; v) starts here */
static int target_atom_start(parser *p)
{
  if (p->cur.kind != T_IDENT)
    return 0;
  int open = target_word(p, "zero") ? S_LBRACE : (target_word(p, "D") || target_word(p, "DT")) ? S_LBRACK : -1;
  return open >= 0 && peek(p)->kind == open && !peek(p)->space_before;
}

/* A region-allocated growable array of pointers (no malloc: errors leave
 * through longjmp, and the region is freed with the program). */
static void **grow(parser *p, void **old, int n, int *cap)
{
  if (n < *cap)
    return old;
  if (*cap > (1 << 24))
    perr(p, p->cur.line, p->cur.col, "too many elements");
  int nc = *cap ? 2 * *cap : 8;
  void **a = palloc(p, (size_t)nc * sizeof *a);
  if (n)
    memcpy(a, old, (size_t)n * sizeof *a);
  *cap = nc;
  return a;
}

/* (e1, e2, ..., ek) = (e1, (e2, (..., ek))); e1 is parsed, cur is ',' */
static snode *parse_tuple_rest(parser *p, snode *first, int line, int col)
{
  void **el = NULL;
  int k = 0, cap = 0;
  el = grow(p, el, k, &cap);
  el[k++] = first;
  while (p->cur.kind == S_COMMA) {
    next(p);
    el = grow(p, el, k, &cap);
    el[k++] = parse_expr(p);
  }
  closing(p, S_RPAREN, line, col);
  snode *n = el[k - 1];
  for (int i = k - 2; i >= 0; i--)
    n = mk(p, TM_PAIR, line, col, el[i], n, NULL);
  return n;
}

static snode *parse_target_atom(parser *p);

static snode *parse_atom(parser *p)
{
  token t = p->cur;
  int line = t.line, col = t.col;
  snode *n;
  switch (t.kind) {
  case T_IDENT: {
    int op;
    if (target_atom_start(p))
      return parse_target_atom(p);
    next(p);
    n = resolve(p, &t, &op);
    if (!n)
      n = prim_eta(p, op, prim_name(op), line, col);
    return n;
  }
  case T_INT:
    next(p);
    if (t.imag > (uint64_t)INT64_MAX)
      perr(p, line, col, "integer literal %.*s is out of range (64-bit)", (int)t.len, t.text);
    n = mk(p, TM_ICONST, line, col, NULL, NULL, NULL);
    n->aux = (int64_t)t.imag;
    return n;
  case T_REAL:
    next(p);
    n = mk(p, TM_RCONST, line, col, NULL, NULL, NULL);
    n->rval = t.rval;
    return n;
  case K_TRUE: next(p); return mk_bool(p, 1, line, col);
  case K_FALSE: next(p); return mk_bool(p, 0, line, col);
  case K_FST: case K_SND: case K_SUM: case K_LENGTH: case K_INL: case K_INR:
    next(p);
    return kw_fun(p, t.kind, line, col);
  case S_LBRACK: return parse_array_literal(p);
  case S_LPAREN: {
    next(p);
    if (p->cur.kind == S_RPAREN) {
      next(p);
      return mk(p, TM_UNIT, line, col, NULL, NULL, NULL);
    }
    enter(p);
    n = parse_expr(p);
    if (p->cur.kind == S_COLON) {
      int aline = p->cur.line, acol = p->cur.col;
      next(p);
      stype *ty = parse_type(p);
      closing(p, S_RPAREN, line, col);
      if (n->kind == SN_EMPTY_ARRAY) {
        if (ty->kind != TY_ARR)
          perr(p, ty->line, ty->col, "an empty array literal must be annotated with an array type [t]");
        snode *k = mk(p, TM_ICONST, n->line, n->col, NULL, NULL, NULL);
        snode *e = mk(p, TM_BUILD, n->line, n->col, k, default_value(p, ty->l, n->line, n->col), NULL);
        e->bb = mk_binder(p, NULL);
        e->role = ROLE_ARRAY_LIT;
        n = e;
      }
      snode *a = mk(p, RAW_ANN, aline, acol, n, NULL, NULL);
      a->ty = ty;
      leave(p);
      return a;
    }
    if (p->cur.kind == S_COMMA) {
      n = parse_tuple_rest(p, n, line, col);
      leave(p);
      return n;
    }
    closing(p, S_RPAREN, line, col);
    leave(p);
    return n;
  }
  default:
    err_found(p, line, col, "expected an expression, found ", &t);
  }
}

/* zero{t} | D[op](x; dx) | DT[op](x; v) */
static snode *parse_target_atom(parser *p)
{
  int line = p->cur.line, col = p->cur.col;
  int zero = is_word(&p->cur, "zero"), dt = is_word(&p->cur, "DT");
  p->saw_target = 1;
  next(p);
  if (zero) {
    next(p); /* { */
    stype *ty = parse_type(p);
    int cl = p->cur.line, cc = p->cur.col;
    if (p->cur.kind != S_RBRACE)
      err_found(p, cl, cc, "expected '}' to close zero{t}, found ", &p->cur);
    next(p);
    snode *n = mk(p, TM_ZERO, line, col, NULL, NULL, NULL);
    n->ty = ty;
    return n;
  }
  next(p); /* [ */
  if (p->cur.kind != T_IDENT)
    err_found(p, p->cur.line, p->cur.col, "expected the name of a primitive in D[op], found ", &p->cur);
  char name[SURF_MAX_IDENT + 1];
  memcpy(name, p->cur.text, p->cur.len);
  name[p->cur.len] = 0;
  int op = prim_by_name(name);
  if (op < 0)
    perr(p, p->cur.line, p->cur.col, "unknown primitive '%s'", name);
  next(p);
  closing(p, S_RBRACK, line, col + (dt ? 2 : 1));
  int ol = p->cur.line, oc = p->cur.col;
  expect(p, S_LPAREN, dt ? "after DT[op] (DT[op](x; v))" : "after D[op] (D[op](x; dx))");
  enter(p);
  snode *x = parse_expr(p);
  expect(p, S_SEMI, dt ? "between the point and the cotangent of DT[op](x; v)" : "between the point and the tangent of D[op](x; dx)");
  snode *v = parse_expr(p);
  leave(p);
  closing(p, S_RPAREN, ol, oc);
  snode *n = mk(p, dt ? TM_LOP_DT : TM_LOP_D, line, col, x, v, NULL);
  n->aux = op;
  n->what = prim_name(op);
  return n;
}

static snode *parse_postfix(parser *p)
{
  snode *a = parse_atom(p);
  while (p->cur.kind == S_LBRACK && !p->cur.space_before) {
    int line = p->cur.line, col = p->cur.col;
    next(p);
    enter(p);
    snode *i = parse_expr(p);
    leave(p);
    closing(p, S_RBRACK, line, col);
    a = mk(p, TM_INDEX, line, col, a, i, NULL);
  }
  return a;
}

/* @name e: the primitive applied to its single (tuple) argument */
static snode *parse_at(parser *p, int line, int col) __attribute__((noinline));
static snode *parse_at(parser *p, int line, int col)
{
  next(p);
  if (p->cur.kind != T_IDENT)
    perr(p, p->cur.line, p->cur.col, "'@' must be followed by the name of a primitive");
  char name[SURF_MAX_IDENT + 1];
  memcpy(name, p->cur.text, p->cur.len);
  name[p->cur.len] = 0;
  int op = prim_by_name(name);
  if (op < 0)
    perr(p, p->cur.line, p->cur.col, "unknown primitive '%s'", name);
  next(p);
  const char *pn = prim_name(op);
  snode *x = need_arg(p, pn ? pn : "@", "an argument");
  return mk_op(p, op, x, ROLE_PRIM_CALL, pn, line, col);
}

/* ---- array operations and fold: library words -----------------------------
 * concat, slice, reverse, update, zip, unzip, range and fold are not
 * keywords: like the target words they have their meaning only where no
 * binder, def or primitive of that name is visible. Applied to all their
 * arguments, each desugars to build / index / length / map / iter /
 * if (spec/surface.md §4); arguments are let-bound first, in order, so each
 * is evaluated once and before the operation, and their variables carry the
 * argument's position (type errors point at the argument); the nodes made
 * carry the word's position (an index out of bounds points at it). */

/* The library word the current token is (its index), or -1. */
static int lib_word(parser *p)
{
  if (p->cur.kind != T_IDENT)
    return -1;
  for (int k = 0; k < N_LIB_WORDS; k++)
    if (is_word(&p->cur, lib_words[k].name))
      return name_visible(p, &p->cur) ? -1 : k;
  return -1;
}

static snode *mk_let(parser *p, sbinder *x, snode *e, snode *body, int line, int col)
{
  snode *n = mk(p, TM_LET, line, col, e, body, NULL);
  n->bb = x;
  return n;
}

static snode *mk_int(parser *p, int64_t v, int line, int col)
{
  snode *n = mk(p, TM_ICONST, line, col, NULL, NULL, NULL);
  n->aux = v;
  return n;
}

static snode *mk_iop(parser *p, int op, snode *x, snode *y, const char *what, int line, int col)
{
  return mk_op2(p, op, x, y, ROLE_OPERATOR, what, line, col);
}

static snode *mk_build(parser *p, snode *n, sbinder *i, snode *body, int line, int col)
{
  snode *b = mk(p, TM_BUILD, line, col, n, body, NULL);
  b->bb = i;
  return b;
}

/* fold n f init = snd (iter n (q. let i = fst q in let acc = snd q in
 * (i + 1, f i acc)) (0, init)), with f's body used directly when f is a
 * literal fun i acc -> e (its annotation of acc checks init). */
static snode *desugar_fold(parser *p, snode *n, snode *f, snode *init, int line, int col)
{
  sbinder *bi, *bacc;
  snode *body;
  if (f->kind == TM_LAM && f->role == ROLE_PLAIN && f->a->kind == TM_LAM && f->a->role == ROLE_PLAIN) {
    if (f->ty && f->ty->kind != TY_INT)
      perr(p, f->ty->line, f->ty->col, "the index of fold has type int");
    bi = f->ba;
    bacc = f->a->ba;
    body = f->a->a;
    if (f->a->ty) {
      snode *an = mk(p, RAW_ANN, f->a->ty->line, f->a->ty->col, init, NULL, NULL);
      an->ty = f->a->ty;
      an->role = ROLE_PARAM_ANN;
      init = an;
    }
  } else {
    bi = mk_binder(p, NULL);
    bacc = mk_binder(p, NULL);
    snode *a1 = mk(p, TM_APP, f->line, f->col, f, mk_var(p, bi, f->line, f->col), NULL);
    a1->role = ROLE_ETA;
    body = mk(p, TM_APP, f->line, f->col, a1, mk_var(p, bacc, f->line, f->col), NULL);
    body->role = ROLE_ETA;
  }
  sbinder *q = mk_binder(p, NULL);
  snode *step = mk(p, TM_PAIR, line, col,
                   mk_iop(p, P_IADD, mk_var(p, bi, line, col), mk_int(p, 1, line, col), "+", line, col), body, NULL);
  snode *acc = mk(p, TM_SND, line, col, mk_var(p, q, line, col), NULL, NULL);
  snode *ix = mk(p, TM_FST, line, col, mk_var(p, q, line, col), NULL, NULL);
  snode *lb = mk_let(p, bi, ix, mk_let(p, bacc, acc, step, line, col), line, col);
  snode *it = mk(p, TM_ITER, line, col, n, lb, mk(p, TM_PAIR, line, col, mk_int(p, 0, line, col), init, NULL));
  it->bb = q;
  return mk(p, TM_SND, line, col, it, NULL, NULL);
}

/* f applied to x inside a loop body: a literal fun (y : t) -> e becomes
 * let y = x in e (no closure; its annotation is returned in *ann), anything
 * else the application f x. */
static snode *apply_in_body(parser *p, snode *f, sbinder *x, stype **ann, int line, int col)
{
  if (f->kind == TM_LAM && f->role == ROLE_PLAIN) {
    if (f->ty && !*ann)
      *ann = f->ty;
    return mk_let(p, f->ba, mk_var(p, x, f->line, f->col), f->a, f->line, f->col);
  }
  snode *app = mk(p, TM_APP, f->line, f->col, f, mk_var(p, x, line, col), NULL);
  app->role = ROLE_ETA;
  return app;
}

/* while cond step init fuel = loop fuel (x. if cond x then inl (step x)
 * else inr x) init: at most fuel rounds, the first state where cond is
 * false; out of fuel is a runtime error. A literal fun for cond or step is
 * used directly (its parameter annotation checks init); any other cond or
 * step is evaluated at each round (it is a pure expression). */
static snode *desugar_while(parser *p, snode *cond, snode *step, snode *init, snode *fuel, int line, int col)
{
  sbinder *x = mk_binder(p, NULL);
  stype *ann = NULL;
  snode *c = apply_in_body(p, cond, x, &ann, line, col);
  snode *go = mk(p, TM_INL, line, col, apply_in_body(p, step, x, &ann, line, col), NULL, NULL);
  snode *stop = mk(p, TM_INR, line, col, mk_var(p, x, line, col), NULL, NULL);
  if (ann) {
    snode *an = mk(p, RAW_ANN, ann->line, ann->col, init, NULL, NULL);
    an->ty = ann;
    an->role = ROLE_PARAM_ANN;
    init = an;
  }
  snode *lp = mk(p, TM_LOOP, line, col, fuel, mk_if(p, c, go, stop, "while", line, col), init);
  lp->bb = x;
  return lp;
}

/* The library word k applied to its arguments a[0..arity-1]. */
static snode *desugar_lib(parser *p, int k, snode **a, int line, int col)
{
  const char *w = lib_words[k].name;
  int ar = lib_words[k].arity;
  if (strcmp(w, "fold") == 0)
    return desugar_fold(p, a[0], a[1], a[2], line, col);
  if (strcmp(w, "while") == 0)
    return desugar_while(p, a[0], a[1], a[2], a[3], line, col);
  /* x[j] = the j-th argument, let-bound in front (built at the end) */
  sbinder *xb[3];
  for (int j = 0; j < ar; j++) {
    xb[j] = mk_binder(p, NULL);
  }
#define X(j) mk_var(p, xb[j], a[j]->line, a[j]->col)
#define V(b) mk_var(p, b, line, col)
#define I(v) mk_int(p, v, line, col)
#define IDX(arr, i) mk(p, TM_INDEX, line, col, arr, i, NULL)
#define LEN(arr) mk(p, TM_LENGTH, line, col, arr, NULL, NULL)
  sbinder *i = mk_binder(p, NULL), *m = mk_binder(p, NULL), *n = mk_binder(p, NULL);
  snode *r;
  if (strcmp(w, "concat") == 0) {
    /* let m = length a in build (m + length b) (i. if i < m then a[i] else b[i - m]) */
    snode *el = mk_if(p, mk_iop(p, P_ILT, V(i), V(m), "<", line, col), IDX(X(0), V(i)),
                      IDX(X(1), mk_iop(p, P_ISUB, V(i), V(m), "-", line, col)), "concat", line, col);
    r = mk_let(p, m, LEN(X(0)),
               mk_build(p, mk_iop(p, P_IADD, V(m), LEN(X(1)), "+", line, col), i, el, line, col), line, col);
  } else if (strcmp(w, "slice") == 0) {
    /* build len (i. a[start + i]) */
    r = mk_build(p, X(2), i, IDX(X(0), mk_iop(p, P_IADD, X(1), V(i), "+", line, col)), line, col);
  } else if (strcmp(w, "reverse") == 0) {
    /* let n = length a in build n (i. a[n - 1 - i]) */
    snode *j = mk_iop(p, P_ISUB, mk_iop(p, P_ISUB, V(n), I(1), "-", line, col), V(i), "-", line, col);
    r = mk_let(p, n, LEN(X(0)), mk_build(p, V(n), i, IDX(X(0), j), line, col), line, col);
  } else if (strcmp(w, "update") == 0) {
    /* let _ = a[j] in build (length a) (i. if i == j then v else a[i]):
     * the index checks j's bounds */
    snode *el = mk_if(p, mk_iop(p, P_IEQ, V(i), X(1), "==", line, col), X(2), IDX(X(0), V(i)), "update", line,
                      col);
    r = mk_let(p, mk_binder(p, NULL), IDX(X(0), X(1)), mk_build(p, LEN(X(0)), i, el, line, col), line, col);
  } else if (strcmp(w, "zip") == 0) {
    /* let m = length a in let n = length b in
     * build (if m < n then m else n) (i. (a[i], b[i])): the shorter length */
    snode *len = mk_if(p, mk_iop(p, P_ILT, V(m), V(n), "<", line, col), V(m), V(n), "zip", line, col);
    snode *el = mk(p, TM_PAIR, line, col, IDX(X(0), V(i)), IDX(X(1), V(i)), NULL);
    r = mk_let(p, m, LEN(X(0)), mk_let(p, n, LEN(X(1)), mk_build(p, len, i, el, line, col), line, col), line, col);
  } else if (strcmp(w, "unzip") == 0) {
    /* (map (q. fst q) a, map (q. snd q) a) */
    sbinder *q1 = mk_binder(p, NULL), *q2 = mk_binder(p, NULL);
    snode *m1 = mk(p, TM_MAP, line, col, mk(p, TM_FST, line, col, V(q1), NULL, NULL), X(0), NULL);
    m1->ba = q1;
    snode *m2 = mk(p, TM_MAP, line, col, mk(p, TM_SND, line, col, V(q2), NULL, NULL), X(0), NULL);
    m2->ba = q2;
    r = mk(p, TM_PAIR, line, col, m1, m2, NULL);
  } else { /* range */
    r = mk_build(p, X(0), i, V(i), line, col);
  }
#undef X
#undef V
#undef I
#undef IDX
#undef LEN
  for (int j = ar - 1; j >= 0; j--)
    r = mk_let(p, xb[j], a[j], r, line, col);
  return r;
}

/* Library word k applied to its first `given` arguments a[]: desugared, under
 * one lambda per missing argument. */
static snode *lib_applied(parser *p, int k, snode **a, int given, int line, int col)
{
  sbinder *miss[4];
  int ar = lib_words[k].arity;
  for (int j = given; j < ar; j++) {
    miss[j] = mk_binder(p, NULL);
    a[j] = mk_var(p, miss[j], line, col);
  }
  snode *r = desugar_lib(p, k, a, line, col);
  for (int j = ar - 1; j >= given; j--) {
    snode *lam = mk(p, TM_LAM, line, col, r, NULL, NULL);
    lam->ba = miss[j];
    lam->role = ROLE_KW_FUN;
    lam->what = lib_words[k].name;
    r = lam;
  }
  return r;
}

/* A library word applied to its arguments (cur is the word). Applied to
 * fewer (`map reverse m`, `map (concat a) m`), it is its eta-expansion
 * `fun b -> concat a b`: one lambda per missing argument, whose parameter
 * types come from where the function is used, as for `fst` used as a
 * function; the given arguments are evaluated at each application. */
static snode *parse_lib(parser *p, int k)
{
  int line = p->cur.line, col = p->cur.col;
  next(p);
  snode *a[4];
  int given = 0;
  while (given < lib_words[k].arity && starts_atom(p))
    a[given++] = parse_postfix(p);
  return lib_applied(p, k, a, given, line, col);
}

static snode *parse_fold_rest(parser *p, snode *w, int line, int col);

static snode *parse_app(parser *p)
{
  int line = p->cur.line, col = p->cur.col;
  snode *head, *x, *y, *z, *body;
  sbinder *b;
  stype *ann;
  int kw = p->cur.kind;
  switch (kw) {
  case K_FST: case K_SND: case K_SUM: case K_LENGTH: {
    static const int kind_of[] = {[K_FST] = TM_FST, [K_SND] = TM_SND, [K_SUM] = TM_SUM, [K_LENGTH] = TM_LENGTH};
    next(p);
    if (!starts_atom(p)) {
      head = kw_fun(p, kw, line, col);
      break;
    }
    x = parse_postfix(p);
    head = mk(p, kind_of[kw], line, col, x, NULL, NULL);
    break;
  }
  case K_INL: case K_INR:
    next(p);
    if (!starts_atom(p)) {
      head = kw_fun(p, kw, line, col);
      break;
    }
    x = parse_postfix(p);
    head = mk(p, kw == K_INL ? TM_INL : TM_INR, line, col, x, NULL, NULL);
    break;
  case K_BUILD:
    next(p);
    x = need_arg(p, "build", "2 arguments: build n (fun i -> e)");
    y = need_arg(p, "build", "2 arguments: build n (fun i -> e)");
    function_arg(p, y, &b, &body, &ann);
    if (ann && ann->kind != TY_INT)
      perr(p, ann->line, ann->col, "the index of build has type int");
    head = mk(p, TM_BUILD, line, col, x, body, NULL);
    head->bb = b;
    break;
  case K_MAP:
    next(p);
    x = need_arg(p, "map", "2 arguments: map (fun (x : t) -> e) a");
    y = need_arg(p, "map", "2 arguments: map (fun (x : t) -> e) a");
    function_arg(p, x, &b, &body, &ann);
    if (ann) {
      snode *an = mk(p, RAW_ANN, ann->line, ann->col, y, NULL, NULL);
      an->ty = mk_ty(p, TY_ARR, ann, NULL, ann->line, ann->col);
      an->role = ROLE_PARAM_ANN;
      y = an;
    }
    head = mk(p, TM_MAP, line, col, body, y, NULL);
    head->ba = b;
    break;
  case K_ITER:
    next(p);
    x = need_arg(p, "iter", "3 arguments: iter n (fun (x : t) -> e) e0");
    y = need_arg(p, "iter", "3 arguments: iter n (fun (x : t) -> e) e0");
    z = need_arg(p, "iter", "3 arguments: iter n (fun (x : t) -> e) e0");
    function_arg(p, y, &b, &body, &ann);
    if (ann) {
      snode *an = mk(p, RAW_ANN, ann->line, ann->col, z, NULL, NULL);
      an->ty = ann;
      an->role = ROLE_PARAM_ANN;
      z = an;
    }
    head = mk(p, TM_ITER, line, col, x, body, z);
    head->bb = b;
    break;
  case K_LOOP:
    /* loop n (fun (x : t) -> e) s: e : t + t, inl to go on, inr to stop */
    next(p);
    x = need_arg(p, "loop", "3 arguments: loop n (fun (x : t) -> e) s");
    y = need_arg(p, "loop", "3 arguments: loop n (fun (x : t) -> e) s");
    z = need_arg(p, "loop", "3 arguments: loop n (fun (x : t) -> e) s");
    function_arg(p, y, &b, &body, &ann);
    if (ann) {
      snode *an = mk(p, RAW_ANN, ann->line, ann->col, z, NULL, NULL);
      an->ty = ann;
      an->role = ROLE_PARAM_ANN;
      z = an;
    }
    head = mk(p, TM_LOOP, line, col, x, body, z);
    head->bb = b;
    break;
  case S_AT:
    head = parse_at(p, line, col);
    break;
  case T_IDENT: {
    if (target_atom_start(p)) {
      head = parse_postfix(p);
      break;
    }
    if (target_word(p, "fold")) {
      /* fold w with (x : t) (v : L) -> e (target), or fold n f init: the
       * application-level expression after the word tells them apart */
      next(p);
      enter(p); /* fold fold fold ...: bounded like parentheses */
      snode *w = parse_app(p);
      leave(p);
      if (target_word(p, "with")) {
        head = parse_fold_rest(p, w, line, col);
        break;
      }
      int app1 = w->kind == TM_APP && w->role == ROLE_PLAIN;
      int app2 = app1 && w->a->kind == TM_APP && w->a->role == ROLE_PLAIN;
      if (app2 && w->a->a->kind == TM_APP && w->a->a->role == ROLE_PLAIN)
        perr(p, line, col, "'fold' needs 3 arguments: fold n (fun i acc -> e) init");
      if (app2) {
        head = desugar_fold(p, w->a->a, w->a->b, w->b, line, col);
        break;
      }
      /* fold n f, fold n: a function of the missing arguments */
      snode *a[4] = {app1 ? w->a : w, app1 ? w->b : NULL, NULL, NULL};
      head = lib_applied(p, N_LIB_WORDS - 1, a, app1 ? 2 : 1, line, col);
      break;
    }
    {
      int k = lib_word(p);
      if (k >= 0) {
        head = parse_lib(p, k);
        break;
      }
    }
    if (target_word(p, "single") || target_word(p, "onehot")) {
      /* single x v: a one-entry copower; onehot j v: a one-hot array */
      int one = is_word(&p->cur, "onehot");
      const char *w = one ? "onehot" : "single";
      p->saw_target = 1;
      next(p);
      x = need_arg(p, w, one ? "2 arguments: onehot j v" : "2 arguments: single x v");
      y = need_arg(p, w, one ? "2 arguments: onehot j v" : "2 arguments: single x v");
      head = mk(p, one ? TM_ONEHOT : TM_CP_SINGLE, line, col, x, y, NULL);
      break;
    }
    if (target_word(p, "lsum")) {
      /* lsum n (fun i -> e): the sum of e over i < n, in a linear type */
      p->saw_target = 1;
      next(p);
      x = need_arg(p, "lsum", "2 arguments: lsum n (fun i -> e)");
      y = need_arg(p, "lsum", "2 arguments: lsum n (fun i -> e)");
      function_arg(p, y, &b, &body, &ann);
      if (ann && ann->kind != TY_INT)
        perr(p, ann->line, ann->col, "the index of lsum has type int");
      head = mk(p, TM_LSUM, line, col, x, body, NULL);
      head->bb = b;
      break;
    }
    token t = p->cur;
    int op;
    next(p);
    head = resolve(p, &t, &op);
    if (head) {
      while (p->cur.kind == S_LBRACK && !p->cur.space_before) {
        /* same as parse_postfix for an identifier already consumed */
        int l2 = p->cur.line, c2 = p->cur.col;
        next(p);
        enter(p);
        snode *i = parse_expr(p);
        leave(p);
        closing(p, S_RBRACK, l2, c2);
        head = mk(p, TM_INDEX, l2, c2, head, i, NULL);
      }
      break;
    }
    const char *name = prim_name(op);
    int arity = prim_arity(op);
    if (p->cur.kind == S_LBRACK && !p->cur.space_before)
      perr(p, p->cur.line, p->cur.col, "the primitive '%s' cannot be indexed", name);
    if (!starts_atom(p)) {
      head = prim_eta(p, op, name, line, col);
    } else if (arity == 2) {
      x = parse_postfix(p);
      if (!starts_atom(p)) {
        head = mk(p, TM_APP, line, col, prim_eta(p, op, name, line, col), x, NULL);
        head->role = ROLE_ETA;
      } else {
        y = parse_postfix(p);
        head = mk_op2(p, op, x, y, ROLE_PRIM_CALL, name, line, col);
      }
    } else {
      x = parse_postfix(p);
      head = mk_op(p, op, x, ROLE_PRIM_CALL, name, line, col);
    }
    break;
  }
  default:
    head = parse_postfix(p);
    break;
  }
  while (starts_atom(p) && !target_word(p, "with")) {
    int l2 = p->cur.line, c2 = p->cur.col;
    x = parse_postfix(p);
    head = mk(p, TM_APP, l2, c2, head, x, NULL);
  }
  return head;
}

/* f <| x: linear application, left associative, looser than application */
static snode *parse_lapp(parser *p)
{
  snode *l = parse_app(p);
  while (p->cur.kind == S_LAPP) {
    int line = p->cur.line, col = p->cur.col;
    p->saw_target = 1;
    next(p);
    snode *r = parse_app(p);
    l = mk(p, TM_LAPP, line, col, l, r, NULL);
  }
  return l;
}

static snode *parse_pow_rest(parser *p, snode *l);

static snode *parse_unary(parser *p)
{
  int line = p->cur.line, col = p->cur.col;
  snode *n;
  if (p->cur.kind == S_MINUS) {
    const token *t = peek(p);
    if (t->kind == T_INT || t->kind == T_REAL) {
      /* a negative literal */
      next(p);
      token lit = p->cur;
      next(p);
      if (p->cur.kind == S_POW) {
        /* -2.0 ** y is -(2.0 ** y) */
        if (lit.kind == T_INT) {
          if (lit.imag > (uint64_t)INT64_MAX)
            perr(p, lit.line, lit.col, "integer literal %.*s is out of range (64-bit)", (int)lit.len, lit.text);
          n = mk(p, TM_ICONST, lit.line, lit.col, NULL, NULL, NULL);
          n->aux = (int64_t)lit.imag;
        } else {
          n = mk(p, TM_RCONST, lit.line, lit.col, NULL, NULL, NULL);
          n->rval = lit.rval;
        }
        return mk_op(p, P_NEG, parse_pow_rest(p, n), ROLE_OPERATOR, "-", line, col);
      }
      if (lit.kind == T_INT) {
        n = mk(p, TM_ICONST, line, col, NULL, NULL, NULL);
        n->aux = lit.imag == (UINT64_C(1) << 63) ? INT64_MIN : -(int64_t)lit.imag;
      } else {
        n = mk(p, TM_RCONST, line, col, NULL, NULL, NULL);
        n->rval = -lit.rval;
      }
      return n;
    }
    next(p);
    enter(p);
    snode *x = parse_unary(p);
    leave(p);
    return mk_op(p, P_NEG, x, ROLE_OPERATOR, "-", line, col);
  }
  if (p->cur.kind == K_NOT) {
    next(p);
    enter(p);
    snode *x = parse_unary(p);
    leave(p);
    return mk_if(p, x, mk_bool(p, 0, line, col), mk_bool(p, 1, line, col), "not", line, col);
  }
  return parse_pow_rest(p, parse_lapp(p));
}

/* x ** y = pow x y: binds tighter than prefix '-' on its left (-x ** 2 is
 * -(x ** 2)), right associative, its right operand a prefix expression
 * (x ** -1.0). l is parsed; cur may be '**'. */
static snode *parse_pow_rest(parser *p, snode *l)
{
  if (p->cur.kind != S_POW)
    return l;
  int line = p->cur.line, col = p->cur.col;
  next(p);
  enter(p);
  snode *r = parse_unary(p);
  leave(p);
  return mk_op2(p, P_POW, l, r, ROLE_OPERATOR, "**", line, col);
}

static snode *parse_mul(parser *p)
{
  snode *l = parse_unary(p);
  for (;;) {
    int k = p->cur.kind, line = p->cur.line, col = p->cur.col;
    int op = k == S_STAR ? P_MUL : k == S_SLASH ? P_DIV : k == S_PERCENT ? P_IMOD : -1;
    if (op < 0)
      return l;
    next(p);
    snode *r = parse_unary(p);
    l = mk_op2(p, op, l, r, ROLE_OPERATOR, symbol_text[k], line, col);
  }
}

static snode *parse_add(parser *p)
{
  snode *l = parse_mul(p);
  for (;;) {
    int k = p->cur.kind, line = p->cur.line, col = p->cur.col;
    int op = k == S_PLUS ? P_ADD : k == S_MINUS ? P_SUB : -1;
    if (k == S_LPLUS) {
      /* a <+> b: the monoid plus of a linear type */
      p->saw_target = 1;
      next(p);
      snode *r = parse_mul(p);
      l = mk(p, TM_PLUS, line, col, l, r, NULL);
      continue;
    }
    if (op < 0)
      return l;
    next(p);
    snode *r = parse_mul(p);
    l = mk_op2(p, op, l, r, ROLE_OPERATOR, symbol_text[k], line, col);
  }
}

static int is_cmp(int k) { return k == S_LT || k == S_LE || k == S_EQEQ || k == S_GT || k == S_GE; }

static snode *parse_cmp(parser *p)
{
  snode *l = parse_add(p);
  int k = p->cur.kind, line = p->cur.line, col = p->cur.col;
  if (!is_cmp(k))
    return l;
  next(p);
  snode *r = parse_add(p);
  if (is_cmp(p->cur.kind))
    perr(p, p->cur.line, p->cur.col, "comparisons do not chain: write a < b && b < c");
  switch (k) {
  case S_LT: return mk_op2(p, P_LT, l, r, ROLE_OPERATOR, "<", line, col);
  case S_LE: return mk_op2(p, P_LE, l, r, ROLE_OPERATOR, "<=", line, col);
  case S_EQEQ: return mk_op2(p, P_EQ, l, r, ROLE_OPERATOR, "==", line, col);
  case S_GT: return mk_op2(p, P_LT, r, l, ROLE_OPERATOR, ">", line, col);
  default: return mk_op2(p, P_LE, r, l, ROLE_OPERATOR, ">=", line, col);
  }
}

static snode *parse_and(parser *p)
{
  snode *l = parse_cmp(p);
  while (p->cur.kind == S_ANDAND) {
    int line = p->cur.line, col = p->cur.col;
    next(p);
    snode *r = parse_cmp(p);
    l = mk_if(p, l, r, mk_bool(p, 0, line, col), "&&", line, col);
  }
  return l;
}

static snode *parse_or(parser *p)
{
  snode *l = parse_and(p);
  while (p->cur.kind == S_OROR) {
    int line = p->cur.line, col = p->cur.col;
    next(p);
    snode *r = parse_and(p);
    l = mk_if(p, l, mk_bool(p, 1, line, col), r, "||", line, col);
  }
  return l;
}

/* A binder name: an identifier or `_` (hidden). */
static const char *binder_name(parser *p, const char *what)
{
  if (p->cur.kind != T_IDENT) {
    char b[128];
    perr(p, p->cur.line, p->cur.col, "expected a variable name %s, found %s", what,
         tok_desc(&p->cur, b, sizeof b));
  }
  const char *name = p->cur.len == 1 && p->cur.text[0] == '_' ? NULL : pstrdup(p, p->cur.text, p->cur.len);
  next(p);
  return name;
}

/* ---- patterns: binder | (p1, ..., pk) | (p : t) ------------------------
 * A tuple pattern nests to the right as tuples do, gets a hidden binder for
 * the value it matches, and is destructured by lets of fst/snd (destructure). */
typedef struct spat {
  sbinder *b;            /* the binder of the value matched (hidden for a tuple) */
  stype *t;              /* annotation, or NULL */
  struct spat *l, *r;    /* a tuple: its two components */
  const char *name;      /* a leaf: its name (NULL for `_`) */
  int line, col;
} spat;

#define MAX_PAT_LEAVES 256

static spat *pat_any(parser *p, const char *what, int *leaves);

/* (e1 [: t1], ..., ek [: tk]) with cur after '('; *leaves counts the
 * names so far: at most MAX_PAT_LEAVES, which also bounds the pattern's
 * depth (the recursions over it below) */
static spat *pat_paren(parser *p, int line, int col, const char *what, int *leaves)
{
  void **el = NULL;
  int k = 0, cap = 0;
  enter(p);
  for (;;) {
    spat *e = pat_any(p, what, leaves);
    if (p->cur.kind == S_COLON) {
      next(p);
      stype *t = parse_type(p);
      if (e->t)
        perr(p, t->line, t->col, "this pattern is already annotated");
      e->t = t;
    }
    el = grow(p, el, k, &cap);
    el[k++] = e;
    if (p->cur.kind != S_COMMA)
      break;
    next(p);
  }
  closing(p, S_RPAREN, line, col);
  leave(p);
  spat *n = el[k - 1];
  for (int i = k - 2; i >= 0; i--) {
    spat *t = palloc(p, sizeof *t);
    t->l = el[i];
    t->r = n;
    t->b = mk_binder(p, NULL);
    t->line = line;
    t->col = col;
    n = t;
  }
  return n;
}

static spat *pat_any(parser *p, const char *what, int *leaves)
{
  int line = p->cur.line, col = p->cur.col;
  if (p->cur.kind == S_LPAREN) {
    next(p);
    return pat_paren(p, line, col, what, leaves);
  }
  if (++*leaves > MAX_PAT_LEAVES)
    perr(p, line, col, "too many names in one pattern (limit %d)", MAX_PAT_LEAVES);
  spat *n = palloc(p, sizeof *n);
  n->name = binder_name(p, what);
  n->b = mk_binder(p, n->name);
  n->line = line;
  n->col = col;
  return n;
}

static spat *parse_pattern(parser *p, const char *what)
{
  int leaves = 0;
  return pat_any(p, what, &leaves);
}

/* a pattern whose '(' at line:col has been read */
static spat *parse_pattern_paren(parser *p, int line, int col, const char *what)
{
  int leaves = 0;
  return pat_paren(p, line, col, what, &leaves);
}

/* The type a pattern fixes: its annotation, or a tuple's component types
 * when both are known; NULL when it fixes none. */
static stype *pattern_type(parser *p, const spat *s)
{
  if (s->t)
    return s->t;
  if (!s->l)
    return NULL;
  stype *l = pattern_type(p, s->l), *r = pattern_type(p, s->r);
  return l && r ? mk_ty(p, TY_PROD, l, r, s->line, s->col) : NULL;
}

/* Puts a pattern's names in scope, left to right; a name bound twice is an
 * error at its second occurrence. */
static void push_pattern(parser *p, const spat *s, const char **seen, int *nseen)
{
  if (s->l) {
    push_pattern(p, s->l, seen, nseen);
    push_pattern(p, s->r, seen, nseen);
    return;
  }
  if (s->name) {
    for (int i = 0; i < *nseen; i++)
      if (strcmp(seen[i], s->name) == 0)
        perr(p, s->line, s->col, "the pattern binds '%s' twice", s->name);
    seen[(*nseen)++] = s->name; /* at most MAX_PAT_LEAVES (pat_any) */
  }
  push_scope(p, s->name, s->b);
}

static void bind_pattern(parser *p, const spat *s)
{
  const char *seen[MAX_PAT_LEAVES];
  int n = 0;
  push_pattern(p, s, seen, &n);
}

/* body under the lets that take a tuple pattern apart, its own binder being
 * bound by the enclosing construct: for (l, r) matched by q,
 * let l = fst q in let r = snd q in D(l, D(r, body)) (l, r the components'
 * binders, hidden when they are tuples themselves); a component's
 * annotation checks its projection. */
static snode *destructure(parser *p, const spat *s, snode *body)
{
  if (!s->l)
    return body;
  body = destructure(p, s->l, destructure(p, s->r, body));
  snode *fs = mk(p, TM_FST, s->line, s->col, mk_var(p, s->b, s->line, s->col), NULL, NULL);
  snode *sn = mk(p, TM_SND, s->line, s->col, mk_var(p, s->b, s->line, s->col), NULL, NULL);
  fs->role = sn->role = ROLE_LET_PAIR;
  snode *pe[2] = {fs, sn};
  const spat *ps[2] = {s->l, s->r};
  for (int i = 0; i < 2; i++)
    if (ps[i]->t) {
      snode *a = mk(p, RAW_ANN, ps[i]->t->line, ps[i]->t->col, pe[i], NULL, NULL);
      a->ty = ps[i]->t;
      pe[i] = a;
    }
  snode *l3 = mk(p, TM_LET, s->line, s->col, pe[1], body, NULL);
  l3->bb = s->r->b;
  snode *l2 = mk(p, TM_LET, s->line, s->col, pe[0], l3, NULL);
  l2->bb = s->l->b;
  l2->role = l3->role = ROLE_LET_PAIR;
  return l2;
}

/* One `let ... in` header of a chain: what parse_let_chain needs to build
 * the LET nodes once the final body is known. */
typedef struct let_frame {
  int line, col;
  spat *pat;           /* let (a, (b, c)) = e: the pattern */
  snode *e;            /* bound expression */
  sbinder *xb;         /* let x: x; a pattern: its binder */
} let_frame;

static snode *parse_expr_nolet(parser *p);
static void **parse_params(parser *p, int *count, const char *ctx);
static snode *wrap_lams(parser *p, void **ps, int n, snode *body, int line, int col);

/* let h1 in let h2 in ... body: the chain is parsed iteratively (a long
 * straight-line program is not deep nesting), then built inside out. */
static snode *parse_let_chain(parser *p)
{
  int saved = p->nscope;
  void **frames = NULL;
  int n = 0, cap = 0;
  while (p->cur.kind == K_LET) {
    frames = grow(p, frames, n, &cap);
    let_frame *f = palloc(p, sizeof *f);
    frames[n++] = f;
    f->line = p->cur.line;
    f->col = p->cur.col;
    next(p); /* let */
    if (p->cur.kind == S_LPAREN) {
      /* let (a, (b, c)) = e in body  =  let q = e in D(q, body) */
      spat *pt = parse_pattern(p, "in the pattern");
      expect(p, S_EQ, "after the pattern");
      f->e = parse_expr(p);
      if (pt->t) {
        snode *a = mk(p, RAW_ANN, pt->t->line, pt->t->col, f->e, NULL, NULL);
        a->ty = pt->t;
        f->e = a;
      }
      expect(p, K_IN, "after the bound expression of let");
      f->pat = pt;
      f->xb = pt->b;
      bind_pattern(p, pt);
      continue;
    }
    int xl = p->cur.line, xc = p->cur.col;
    const char *x = binder_name(p, "after let");
    if (p->cur.kind == T_IDENT || p->cur.kind == S_LPAREN) {
      /* let f (x : t) ... : r = e in b  =  let f = fun (x : t) ... -> (e : r) in b */
      int saved_fn = p->nscope, np;
      void **ps = parse_params(p, &np, "in the parameters of a local function");
      stype *res = NULL;
      int rl = 0, rc = 0;
      if (p->cur.kind == S_COLON) {
        rl = p->cur.line;
        rc = p->cur.col;
        next(p);
        res = parse_type(p);
      }
      expect(p, S_EQ, "after the parameters of a local function");
      snode *e = parse_expr(p);
      if (res) {
        snode *a = mk(p, RAW_ANN, rl, rc, e, NULL, NULL);
        a->ty = res;
        e = a;
      }
      p->nscope = saved_fn;
      f->e = wrap_lams(p, ps, np, e, xl, xc);
      expect(p, K_IN, "after the body of a local function");
      f->xb = mk_binder(p, x);
      push_scope(p, x, f->xb);
      continue;
    }
    stype *ann = NULL;
    int aline = 0, acol = 0;
    if (p->cur.kind == S_COLON) {
      aline = p->cur.line;
      acol = p->cur.col;
      next(p);
      ann = parse_type(p);
    }
    expect(p, S_EQ, "after the name bound by let");
    f->e = parse_expr(p);
    if (ann) {
      snode *a = mk(p, RAW_ANN, aline, acol, f->e, NULL, NULL);
      a->ty = ann;
      f->e = a;
    }
    expect(p, K_IN, "after the bound expression of let");
    f->xb = mk_binder(p, x);
    push_scope(p, x, f->xb);
  }
  snode *body = parse_expr_nolet(p);
  p->nscope = saved;
  for (int i = n - 1; i >= 0; i--) {
    let_frame *f = frames[i];
    if (f->pat && f->pat->l) {
      body = mk(p, TM_LET, f->line, f->col, f->e, destructure(p, f->pat, body), NULL);
      body->bb = f->xb;
      body->role = ROLE_LET_PAIR;
    } else {
      body = mk(p, TM_LET, f->line, f->col, f->e, body, NULL);
      body->bb = f->xb;
    }
  }
  return body;
}

/* Parameters of fun and of a local function: binder | (binder : type), one
 * or more, pushed on the scope. */
typedef struct fparam { sbinder *b; stype *t; spat *pat; int line, col; } fparam;

/* tuples: patterns allowed ((x, y) destructured by wrap_lams); lfun and
 * fold ... with take names only */
static void **parse_params_p(parser *p, int *count, const char *ctx, int tuples)
{
  void **ps = NULL;
  int n = 0, cap = 0;
  do {
    if (n == SURF_MAX_PARAMS)
      perr(p, p->cur.line, p->cur.col, "too many parameters (limit %d)", SURF_MAX_PARAMS);
    ps = grow(p, ps, n, &cap);
    fparam *fp = palloc(p, sizeof *fp);
    fp->line = p->cur.line;
    fp->col = p->cur.col;
    if (p->cur.kind == S_LPAREN) {
      int pl = p->cur.line, pc = p->cur.col;
      next(p);
      if (!tuples) {
        const char *x = binder_name(p, "in a parameter");
        expect(p, S_COLON, "after the parameter name ((x : t))");
        fp->t = parse_type(p);
        closing(p, S_RPAREN, pl, pc);
        fp->b = mk_binder(p, x);
        push_scope(p, x, fp->b);
      } else {
        spat *pt = parse_pattern_paren(p, pl, pc, "in a parameter");
        fp->pat = pt;
        fp->b = pt->b;
        fp->t = pattern_type(p, pt);
        bind_pattern(p, pt);
      }
    } else {
      const char *x = binder_name(p, ctx);
      fp->b = mk_binder(p, x);
      push_scope(p, x, fp->b);
    }
    ps[n++] = fp;
  } while (p->cur.kind == T_IDENT || p->cur.kind == S_LPAREN);
  *count = n;
  return ps;
}

static void **parse_params(parser *p, int *count, const char *ctx)
{
  return parse_params_p(p, count, ctx, 1);
}

static snode *wrap_lams(parser *p, void **ps, int n, snode *body, int line, int col)
{
  for (int i = n - 1; i >= 0; i--) {
    const fparam *fp = ps[i];
    if (fp->pat)
      body = destructure(p, fp->pat, body);
    body = mk(p, TM_LAM, i == 0 ? line : fp->line, i == 0 ? col : fp->col, body, NULL, NULL);
    body->ba = fp->b;
    body->ty = fp->t;
  }
  return body;
}

static snode *parse_fun(parser *p)
{
  int line = p->cur.line, col = p->cur.col;
  next(p); /* fun */
  int saved = p->nscope, n;
  void **ps = parse_params(p, &n, "after fun");
  expect(p, S_ARROW, "after the parameters of fun");
  snode *body = parse_expr(p);
  p->nscope = saved;
  return wrap_lams(p, ps, n, body, line, col);
}

/* lfun (x : L) ... -> e: a linear function; every parameter annotated */
static snode *parse_lfun(parser *p)
{
  int line = p->cur.line, col = p->cur.col;
  p->saw_target = 1;
  next(p); /* lfun */
  int saved = p->nscope, n;
  void **ps = parse_params_p(p, &n, "after lfun", 0);
  for (int i = 0; i < n; i++)
    if (!((fparam *)ps[i])->t)
      perr(p, ((fparam *)ps[i])->line, ((fparam *)ps[i])->col,
           "the parameters of lfun need types: lfun (x : real) -> ...");
  expect(p, S_ARROW, "after the parameters of lfun");
  snode *body = parse_expr(p);
  p->nscope = saved;
  body = wrap_lams(p, ps, n, body, line, col);
  for (snode *m = body; n > 0; m = m->a, n--)
    m->kind = TM_LLAM;
  return body;
}

/* fold w with (x : t) (v : L) -> e: e summed over the entries (x, v) of the
 * copower w */
static snode *parse_fold_rest(parser *p, snode *w, int line, int col)
{
  p->saw_target = 1;
  next(p); /* with */
  int saved = p->nscope, n;
  void **ps = parse_params_p(p, &n, "after fold ... with", 0);
  if (n != 2 || !((fparam *)ps[0])->t || !((fparam *)ps[1])->t)
    perr(p, line, col, "fold takes two annotated parameters: fold w with (x : t) (v : L) -> e");
  expect(p, S_ARROW, "after the parameters of fold");
  snode *body = parse_expr(p);
  p->nscope = saved;
  snode *f = mk(p, TM_CP_FOLD, line, col, w, body, NULL);
  f->bb = ((fparam *)ps[0])->b;
  f->bc = ((fparam *)ps[1])->b;
  f->ty = ((fparam *)ps[0])->t;
  f->ty2 = ((fparam *)ps[1])->t;
  return f;
}

/* A case branch's pattern: a name, `_` or a parenthesised pattern. An
 * annotated one, (P : t), is matched by a hidden binder h and checked by
 * a let in case_branch: the marker is a node whose l is P and r NULL. */
static spat *case_pattern(parser *p, const char *what)
{
  spat *pt = parse_pattern(p, what);
  if (pt->t) {
    spat *h = palloc(p, sizeof *h);
    *h = *pt;
    h->b = mk_binder(p, NULL);
    h->name = NULL;
    h->t = NULL;
    h->l = pt;
    h->r = NULL;
    return h;
  }
  return pt;
}

/* The branch's body, its pattern in scope: an annotated pattern (P : t)
 * is let q = (h : t) in D(q, P, e); a tuple is destructured. */
static snode *case_branch(parser *p, spat *pt)
{
  if (pt->l && !pt->r) {
    spat *x = pt->l;
    bind_pattern(p, x);
    snode *e = destructure(p, x, parse_expr(p));
    snode *a = mk(p, RAW_ANN, x->t->line, x->t->col, mk_var(p, pt->b, x->line, x->col), NULL, NULL);
    a->ty = x->t;
    snode *n = mk(p, TM_LET, x->line, x->col, a, e, NULL);
    n->bb = x->b;
    return n;
  }
  bind_pattern(p, pt);
  return destructure(p, pt, parse_expr(p));
}

static snode *parse_case(parser *p)
{
  int line = p->cur.line, col = p->cur.col;
  next(p); /* case */
  snode *s = parse_expr(p);
  expect(p, K_OF, "after the scrutinee of case");
  if (p->cur.kind == S_BAR)
    next(p);
  expect(p, K_INL, "(case e of inl a -> e1 | inr b -> e2)");
  int saved = p->nscope;
  spat *pa = case_pattern(p, "after inl");
  expect(p, S_ARROW, "after 'inl a'");
  snode *l = case_branch(p, pa);
  p->nscope = saved;
  expect(p, S_BAR, "before the inr branch of case");
  expect(p, K_INR, "(case e of inl a -> e1 | inr b -> e2)");
  spat *pb = case_pattern(p, "after inr");
  expect(p, S_ARROW, "after 'inr b'");
  snode *r = case_branch(p, pb);
  p->nscope = saved;
  sbinder *ab = pa->b, *bb = pb->b;
  snode *n = mk(p, TM_CASE, line, col, s, l, r);
  n->bb = ab;
  n->bc = bb;
  return n;
}

static snode *parse_if(parser *p)
{
  int line = p->cur.line, col = p->cur.col;
  next(p); /* if */
  snode *c = parse_expr(p);
  expect(p, K_THEN, "after the condition of if");
  snode *t = parse_expr(p);
  expect(p, K_ELSE, "(if c then e1 else e2)");
  snode *e = parse_expr(p);
  return mk_if(p, c, t, e, "if", line, col);
}

static snode *parse_expr_nolet(parser *p)
{
  switch (p->cur.kind) {
  case K_FUN: return parse_fun(p);
  case K_CASE: return parse_case(p);
  case K_IF: return parse_if(p);
  case T_IDENT:
    if (target_word(p, "lfun"))
      return parse_lfun(p);
    return parse_or(p);
  default: return parse_or(p);
  }
}

static snode *parse_expr(parser *p)
{
  snode *n;
  enter(p);
  switch (p->cur.kind) {
  case K_LET: n = parse_let_chain(p); break;
  case K_FUN: n = parse_fun(p); break;
  case K_CASE: n = parse_case(p); break;
  case K_IF: n = parse_if(p); break;
  case T_IDENT:
    n = target_word(p, "lfun") ? parse_lfun(p) : parse_or(p);
    break;
  default: n = parse_or(p); break;
  }
  leave(p);
  return n;
}

/* ======================================================================= */
/* Definitions                                                              */
/* ======================================================================= */
static void parse_def(parser *p)
{
  int line = p->cur.line, col = p->cur.col;
  expect(p, K_DEF, "at the start of a definition");
  if (is_word(&p->cur, "type") && peek(p)->kind == T_IDENT) {
    parse_type_decl(p, line, col);
    return;
  }
  if (p->cur.kind != T_IDENT) {
    char b[128];
    perr(p, p->cur.line, p->cur.col, "expected the name of the def, found %s", tok_desc(&p->cur, b, sizeof b));
  }
  surf_program *pr = p->prog;
  if (pr->ndefs == SURF_MAX_DEFS)
    perr(p, line, col, "too many defs in one file (limit %d)", SURF_MAX_DEFS);
  if (pr->ndefs == pr->cap) {
    int cap = pr->cap ? 2 * pr->cap : 16;
    sdef *d = realloc(pr->defs, (size_t)cap * sizeof *d);
    if (!d)
      poom(p, line, col);
    pr->defs = d;
    pr->cap = cap;
  }
  sdef *d = &pr->defs[pr->ndefs];
  memset(d, 0, sizeof *d);
  d->name = pstrdup(p, p->cur.text, p->cur.len);
  d->line = line;
  d->col = col;
  if (strcmp(d->name, "_") == 0)
    perr(p, p->cur.line, p->cur.col, "a def cannot be named '_'");
  int dup = def_lookup(pr, d->name, pr->ndefs);
  if (dup >= 0)
    perr(p, p->cur.line, p->cur.col, "'%s' is already defined at line %d", d->name, pr->defs[dup].line);
  if (def_index_add(pr, pr->ndefs) < 0)
    poom(p, line, col);
  next(p);
  p->cur_def = pr->ndefs;
  pr->ndefs++; /* visible to resolve() for the recursion message only */
  p->nscope = 0;
  p->nuses = 0;
  p->saw_target = 0;
  sbinder *bs[SURF_MAX_PARAMS];
  stype *ts[SURF_MAX_PARAMS];
  int n = 0;
  if (p->cur.kind == S_LPAREN) {
    int pl = p->cur.line, pc = p->cur.col;
    next(p);
    if (p->cur.kind != S_RPAREN) {
      for (;;) {
        if (n == SURF_MAX_PARAMS)
          perr(p, p->cur.line, p->cur.col, "too many parameters (limit %d)", SURF_MAX_PARAMS);
        int xl = p->cur.line, xc = p->cur.col;
        const char *x = binder_name(p, "in the parameter list");
        if (!x)
          perr(p, xl, xc, "a def's parameters need names");
        for (int i = 0; i < n; i++)
          if (strcmp(bs[i]->name, x) == 0)
            perr(p, xl, xc, "parameter '%s' appears twice", x);
        if (p->cur.kind != S_COLON)
          perr(p, p->cur.line, p->cur.col, "parameter '%s' needs a type: (%s : real)", x, x);
        next(p);
        ts[n] = parse_type(p);
        bs[n] = mk_binder(p, x);
        push_scope(p, x, bs[n]);
        n++;
        if (p->cur.kind != S_COMMA)
          break;
        next(p);
      }
    }
    closing(p, S_RPAREN, pl, pc);
  }
  if (p->cur.kind == S_COLON) {
    next(p);
    d->result = parse_type(p);
  }
  expect(p, S_EQ, "before the body of the def");
  d->body = parse_expr(p);
  if (d->body->kind == SN_EMPTY_ARRAY)
    perr(p, d->body->line, d->body->col,
         "an empty array literal needs a type annotation, as in ([] : [real])");
  if (p->cur.kind != K_DEF && p->cur.kind != T_EOF) {
    char b[128];
    perr(p, p->cur.line, p->cur.col, "expected 'def' or end of file after the body of '%s', found %s",
         d->name, tok_desc(&p->cur, b, sizeof b));
  }
  d->target = p->saw_target;
  d->nparams = n;
  d->params = palloc(p, (size_t)(n ? n : 1) * sizeof *d->params);
  d->ptypes = palloc(p, (size_t)(n ? n : 1) * sizeof *d->ptypes);
  memcpy(d->params, bs, (size_t)n * sizeof *bs);
  memcpy(d->ptypes, ts, (size_t)n * sizeof *ts);
  d->nuses = p->nuses;
  d->uses = palloc(p, (size_t)(p->nuses ? p->nuses : 1) * sizeof *d->uses);
  if (p->nuses)
    memcpy(d->uses, p->uses, (size_t)p->nuses * sizeof *p->uses);
}

static void parser_free(parser *p)
{
  free(p->scope);
  free(p->uses);
  free(p->tname);
  free(p->tdef);
  free(p->tline);
  free(p->thash);
  free(p);
}

surf_program *surf_parse_buffer(const char *src, size_t len, const char *file, chad_diag *d)
{
  diag_set(d, CHAD_EXIT_OK, file, 0, 0, "%s", "");
  if (len > SURF_MAX_SOURCE) {
    int line, col;
    diag_locate(src, len, SURF_MAX_SOURCE, &line, &col);
    diag_set(d, CHAD_EXIT_INPUT, file, line, col,
             "source too large: more than %u bytes (the limit of a program)", SURF_MAX_SOURCE);
    return NULL;
  }
  surf_program *prog = calloc(1, sizeof *prog);
  parser *p = calloc(1, sizeof *p);
  if (!prog || !p) {
    free(prog);
    free(p);
    diag_set(d, CHAD_EXIT_RUNTIME, file, 0, 0, "out of memory while parsing");
    return NULL;
  }
  snprintf(prog->file, sizeof prog->file, "%s", file ? file : "");
  p->src = src;
  p->len = len;
  p->stack_base = (uintptr_t)__builtin_frame_address(0);
  p->line = 1;
  p->col = 1;
  p->prog = prog;
  p->d = d;
  if (setjmp(p->fail)) {
    parser_free(p);
    surf_free(prog);
    return NULL;
  }
  next(p);
  while (p->cur.kind != T_EOF)
    parse_def(p);
  parser_free(p);
  return prog;
}

surf_program *surf_parse_string(const char *src, const char *file, chad_diag *d)
{
  return surf_parse_buffer(src, strlen(src), file, d);
}

surf_program *surf_parse_file(const char *path, chad_diag *d)
{
  size_t n;
  char *buf = diag_read_file(path, 0, SURF_MAX_SOURCE, &n, d);
  if (!buf) {
    if (d->exit_code == CHAD_EXIT_INPUT && d->line > 0)
      snprintf(d->msg, sizeof d->msg, "source too large: more than %u bytes (the limit of a program)",
               SURF_MAX_SOURCE);
    return NULL;
  }
  surf_program *p = surf_parse_buffer(buf, n, path, d);
  free(buf);
  return p;
}

void surf_free(surf_program *p)
{
  if (!p)
    return;
  surf_region_free(&p->mem);
  free(p->defs);
  free(p->hidx);
  free(p);
}

/* ---- accessors ------------------------------------------------------------ */
int surf_def_count(const surf_program *p) { return p ? p->ndefs : 0; }

int surf_def_find(const surf_program *p, const char *name)
{
  return p && name ? def_lookup(p, name, p->ndefs) : -1;
}

static int def_ok(const surf_program *p, int k) { return p && k >= 0 && k < p->ndefs; }

const char *surf_def_name(const surf_program *p, int k) { return def_ok(p, k) ? p->defs[k].name : NULL; }
int surf_def_line(const surf_program *p, int k) { return def_ok(p, k) ? p->defs[k].line : 0; }
int surf_def_nparams(const surf_program *p, int k) { return def_ok(p, k) ? p->defs[k].nparams : -1; }

const char *surf_def_param_name(const surf_program *p, int k, int i)
{
  if (!def_ok(p, k) || i < 0 || i >= p->defs[k].nparams)
    return NULL;
  return p->defs[k].params[i]->name;
}

int surf_def_param_type(const surf_program *p, int k, int i)
{
  if (!def_ok(p, k) || i < 0 || i >= p->defs[k].nparams)
    return CHAD_E_ARG;
  return surf_type_to_kernel(p->defs[k].ptypes[i], NULL, NULL);
}

int surf_def_result_type(const surf_program *p, int k)
{
  if (!def_ok(p, k))
    return CHAD_E_ARG;
  if (!p->defs[k].result)
    return -1;
  return surf_type_to_kernel(p->defs[k].result, NULL, NULL);
}
