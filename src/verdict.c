/* chad check --candidate: grading another tool's value and derivatives
 * against the certified evaluator (include/chad.h, spec/verdict.md).
 *
 * For each part of the candidate (value, gradient, jacobian, tangent,
 * cotangent, jvp, vjp) the matching command is run on the certified
 * evaluator with certificates; its output and the candidate are walked side
 * by side, and every real gets a verdict. At a point where the derivative
 * does not exist the candidate's part is tested for membership in the convex
 * hull of the one-sided results (an exact linear program over rationals).
 */
#include "json_text.h"
#include "chad.h"

#include <arb.h>
#include <ctype.h>
#include <float.h>
#include <flint/fmpq.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api_internal.h"
#include "chad/json.h"
#include "chad/kernel.h"

enum { VD_CORRECT, VD_ACCEPTABLE, VD_WRONG, VD_DOMAIN, VD_UNDECIDED };
static const char *const vd_name[] = {"correct", "acceptable", "wrong", "outside the domain",
                                      "undecided"};
static const char *const vd_key[] = {"correct", "acceptable", "wrong", "outside_domain",
                                     "undecided"};

/* ---- entries ------------------------------------------------------------- */
typedef struct vd_entry {
  char *path;
  int verdict;
  int real;          /* a real entry; else discrete (int, bool, sum side)   */
  double cand;       /* real entries: the candidate (as graded: f32 rounded)  */
  char *cand_txt;    /* discrete entries: the candidate as text             */
  char *ref_txt;     /* the reference as text                                */
  int has_ref;       /* ref is a number (finite or infinite)                 */
  double ref;        /* the reference at the grading precision              */
  char *mid, *rad;   /* its enclosure, or NULL                               */
  int has_ulps;
  uint64_t ulps;
  double digits;     /* correct digits; INFINITY: exact; NAN: not computed  */
  int kink;          /* index of its kink, or -1                              */
  int nlim;          /* at a kink: the one-sided values                       */
  double *lim;
  char *note;
} vd_entry;

typedef struct kink {
  char *part;
  json_t *ref;       /* the not-differentiable output (a reference)          */
  int verdict;       /* VD_ACCEPTABLE or VD_WRONG (or VD_CORRECT: no varying) */
  char *conventions; /* the conventions the candidate matches, as text       */
  int keys;          /* and as bits: 1 one-sided, 2 average, 4 minimal-norm */
  int nvary;
  int undecided;     /* differentiability undecided (spec/verdict.md §4)      */
} kink;

typedef struct step {   /* a step of a path in the candidate's text */
  int idx;              /* array index (key == NULL)                 */
  const char *key;      /* object member                             */
} step;

#define MAX_DEPTH 512

typedef struct ctx {
  const chad_check_opts *o;
  chad_prog *p;
  chad_diag *d;
  const char *cfile;   /* the candidate's name in messages */
  const char *ctext;   /* its text (NaN tokens replaced)   */
  size_t clen;
  int ints_as_real;    /* json_tree_parse read every number as a real */
  vd_entry *e;
  int n, cap;
  kink *k;
  int nk, capk;
  char path[4096];
  size_t plen;
  step steps[MAX_DEPTH];
  int depth;
  int oom;
} ctx;

static char *xstrdup(ctx *c, const char *s) {
  char *r = strdup(s ? s : "");
  if (!r) c->oom = 1;
  return r;
}

static char *xprintf(ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *xprintf(ctx *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (!s) { c->oom = 1; return NULL; }
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

static vd_entry *new_entry(ctx *c) {
  if (c->n == c->cap) {
    int cap = c->cap ? 2 * c->cap : 64;
    vd_entry *e = realloc(c->e, sizeof *e * (size_t)cap);
    if (!e) { c->oom = 1; return NULL; }
    c->e = e;
    c->cap = cap;
  }
  vd_entry *e = &c->e[c->n++];
  memset(e, 0, sizeof *e);
  e->path = xstrdup(c, c->path);
  e->digits = NAN;
  e->kink = -1;
  return e;
}

static void entry_free(vd_entry *e) {
  free(e->path);
  free(e->cand_txt);
  free(e->ref_txt);
  free(e->mid);
  free(e->rad);
  free(e->lim);
  free(e->note);
}

/* ---- paths (for the report and for the candidate's positions) -------------- */
static size_t path_push_idx(ctx *c, int i) {
  size_t m = c->plen;
  int w = snprintf(c->path + m, sizeof c->path - m, "[%d]", i);
  if (w > 0 && (size_t)w < sizeof c->path - m) c->plen += (size_t)w;
  if (c->depth < MAX_DEPTH) c->steps[c->depth] = (step){i, NULL};
  c->depth++;
  return m;
}
static size_t path_push_key(ctx *c, const char *key) {
  size_t m = c->plen;
  int w = snprintf(c->path + m, sizeof c->path - m, "%s%s", m ? "." : "", key);
  if (w > 0 && (size_t)w < sizeof c->path - m) c->plen += (size_t)w;
  if (c->depth < MAX_DEPTH) c->steps[c->depth] = (step){0, key};
  c->depth++;
  return m;
}
static void path_pop(ctx *c, size_t m) {
  c->plen = m;
  c->path[m] = '\0';
  c->depth--;
}

/* ---- locating a value in the candidate's text (valid JSON) ------------------ */
/* The cursor at the value reached by steps[0..depth-1] (at_key: at the last
 * member's key). */
static json_cursor locate(const ctx *c, int depth, int at_key) {
  json_cursor u = {c->ctext, c->ctext + c->clen, 1, 1};
  json_cur_ws(&u);
  if (depth > MAX_DEPTH) depth = MAX_DEPTH;
  for (int k = 0; k < depth && u.p < u.end; k++) {
    const step *s = &c->steps[k];
    if (*u.p != '[' && *u.p != '{') break;
    int object = *u.p == '{';
    json_cur_adv(&u);
    json_cur_ws(&u);
    for (int i = 0; u.p < u.end && *u.p != ']' && *u.p != '}'; i++) {
      if (object) {
        const char *ks = u.p + 1;
        json_cursor save = u;
        json_cur_string(&u);
        size_t kl = (size_t)(u.p - ks) - 1;
        int match = s->key && strlen(s->key) == kl && strncmp(ks, s->key, kl) == 0;
        if (match && k == depth - 1 && at_key) return save;
        json_cur_ws(&u);
        json_cur_adv(&u);   /* ':' */
        json_cur_ws(&u);
        if (match) break;
      } else if (i == s->idx) break;
      json_cur_value(&u);
      json_cur_ws(&u);
      if (u.p < u.end && *u.p == ',') json_cur_adv(&u);
      json_cur_ws(&u);
    }
  }
  return u;
}

static int cand_error(ctx *c, int at_key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int cand_error(ctx *c, int at_key, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  json_cursor u = locate(c, c->depth, at_key);
  return diag_set(c->d, CHAD_EXIT_INPUT, c->cfile, u.line, u.col, "the candidate's %s: %s",
                  c->path[0] ? c->path : "top level", msg);
}

static const char *kind_name(const json_t *j) {
  switch (json_typeof(j)) {
  case JSON_OBJECT: return "an object";
  case JSON_ARRAY: return "an array";
  case JSON_STRING: return "a string";
  case JSON_INTEGER: case JSON_REAL: return "a number";
  case JSON_TRUE: return "true";
  case JSON_FALSE: return "false";
  default: return "null";
  }
}

/* ---- non-standard numbers -------------------------------------------------- */
/* Python's json.dumps writes NaN, Infinity and -Infinity, which are not JSON:
 * outside strings they are replaced by strings of the same length (so
 * positions stay), read back as the numbers below. */
#define SENT_NAN "\"~\""
#define SENT_PINF "\"+~~~~~\""
#define SENT_MINF "\"-~~~~~~\""

static int word_at(const char *s, size_t i, size_t n, const char *w) {
  size_t l = strlen(w);
  if (i + l > n || strncmp(s + i, w, l) != 0) return 0;
  if (i > 0 && (isalnum((unsigned char)s[i - 1]) || s[i - 1] == '_')) return 0;
  if (i + l < n && (isalnum((unsigned char)s[i + l]) || s[i + l] == '_')) return 0;
  return 1;
}

static void replace_nonstandard(char *s, size_t n) {
  int in_str = 0;
  for (size_t i = 0; i < n; i++) {
    if (in_str) {
      if (s[i] == '\\') i++;
      else if (s[i] == '"') in_str = 0;
      continue;
    }
    if (s[i] == '"') { in_str = 1; continue; }
    if (word_at(s, i, n, "NaN")) { memcpy(s + i, SENT_NAN, 3); i += 2; }
    else if (s[i] == '-' && word_at(s, i + 1, n, "Infinity")) { memcpy(s + i, SENT_MINF, 9); i += 8; }
    else if (word_at(s, i, n, "Infinity")) { memcpy(s + i, SENT_PINF, 8); i += 7; }
  }
}

/* A candidate number: a JSON number, a replaced token, or one of the strings
 * nan, inf, +inf, -inf, infinity, +infinity, -infinity (any case). */
static int cand_number(const json_t *j, double *x) {
  if (json_is_number(j)) { *x = json_number_value(j); return 1; }
  if (!json_is_string(j)) return 0;
  const char *s = json_string_value(j);
  if (strcmp(s, "~") == 0 || strcasecmp(s, "nan") == 0) { *x = NAN; return 1; }
  if (strcmp(s, "+~~~~~") == 0 || strcasecmp(s, "inf") == 0 || strcasecmp(s, "+inf") == 0 ||
      strcasecmp(s, "infinity") == 0 || strcasecmp(s, "+infinity") == 0) {
    *x = INFINITY;
    return 1;
  }
  if (strcmp(s, "-~~~~~~") == 0 || strcasecmp(s, "-inf") == 0 || strcasecmp(s, "-infinity") == 0) {
    *x = -INFINITY;
    return 1;
  }
  return 0;
}

static void fmt_num(char *b, size_t n, double x) {
  if (isnan(x)) snprintf(b, n, "nan");
  else if (isinf(x)) snprintf(b, n, x > 0 ? "+inf" : "-inf");
  else if (x == 0 && signbit(x)) snprintf(b, n, "-0.0");
  else snprintf(b, n, "%.17g", x);
}

/* ---- exact decimals, float32 rounding ------------------------------------- */
/* An exact decimal ("-0.00123", "42", "+infinity") as an arf. 0 on failure. */
static int arf_from_decimal(arf_t x, const char *s) {
  if (strcmp(s, "+infinity") == 0) { arf_pos_inf(x); return 1; }
  if (strcmp(s, "-infinity") == 0) { arf_neg_inf(x); return 1; }
  int neg = *s == '-';
  if (*s == '-' || *s == '+') s++;
  size_t n = strlen(s);
  char *digits = malloc(n + 1);
  if (!digits) return 0;
  size_t nd = 0;
  ulong frac = 0;
  int seen_point = 0;
  for (const char *q = s; *q; q++) {
    if (*q == '.' && !seen_point) { seen_point = 1; continue; }
    if (!isdigit((unsigned char)*q)) { free(digits); return 0; }
    digits[nd++] = *q;
    if (seen_point) frac++;
  }
  digits[nd] = '\0';
  if (nd == 0) { free(digits); return 0; }
  fmpz_t m, f, r;
  fmpz_init(m);
  fmpz_init(f);
  fmpz_init(r);
  int ok = fmpz_set_str(m, digits, 10) == 0;
  free(digits);
  if (ok) {
    /* m / 10^frac = (m / 5^frac) 2^-frac, exact for a dyadic number */
    fmpz_ui_pow_ui(f, 5, frac);
    fmpz_fdiv_qr(m, r, m, f);
    ok = fmpz_is_zero(r);
    if (ok) {
      if (neg) fmpz_neg(m, m);
      fmpz_set_si(f, -(slong)frac);
      arf_set_fmpz_2exp(x, m, f);
    }
  }
  fmpz_clear(m);
  fmpz_clear(f);
  fmpz_clear(r);
  return ok;
}

/* x rounded to the nearest float32 (ties to even), with float32's
 * subnormals and its overflow to infinity. */
static float arf_to_f32(const arf_t x) {
  if (arf_is_zero(x)) return 0.0f;
  if (arf_is_pos_inf(x)) return INFINITY;
  if (arf_is_neg_inf(x)) return -INFINITY;
  float r;
  arf_t t;
  arf_init(t);
  if (arf_cmpabs_2exp_si(x, -126) < 0) {   /* below the normal range: a multiple of 2^-149 */
    fmpz_t q;
    fmpz_init(q);
    arf_mul_2exp_si(t, x, 149);
    arf_get_fmpz(q, t, ARF_RND_NEAR);
    r = ldexpf((float)fmpz_get_si(q), -149);   /* |q| <= 2^23: exact */
    if (r == 0 && arf_sgn(x) < 0) r = -0.0f;
    fmpz_clear(q);
  } else {
    arf_set_round(t, x, 24, ARF_RND_NEAR);
    if (arf_cmpabs_2exp_si(t, 128) >= 0) r = arf_sgn(t) > 0 ? INFINITY : -INFINITY;
    else r = (float)arf_get_d(t, ARF_RND_DOWN);   /* 24 bits, in range: exact */
  }
  arf_clear(t);
  return r;
}

/* The float32 rounding of the exact value enclosed by [mid +- rad]: both ends
 * must round to the same float32. 1 and *out, or 0 when they do not. */
static int enclosure_f32(const char *mid, const char *rad, float *out) {
  arf_t m, r, lo, hi;
  arf_init(m);
  arf_init(r);
  arf_init(lo);
  arf_init(hi);
  int ok = arf_from_decimal(m, mid) && arf_from_decimal(r, rad);
  if (ok) {
    arf_sub(lo, m, r, ARF_PREC_EXACT, ARF_RND_DOWN);
    arf_add(hi, m, r, ARF_PREC_EXACT, ARF_RND_DOWN);
    float a = arf_to_f32(lo), b = arf_to_f32(hi);
    if (a == 0 && b == 0) *out = 0.0f;
    else if (a == b && signbit(a) == signbit(b)) *out = a;
    else ok = 0;
  }
  arf_clear(m);
  arf_clear(r);
  arf_clear(lo);
  arf_clear(hi);
  return ok;
}

/* -log10 of the relative error of c against the exact midpoint (the absolute
 * error when it is 0), as NIST StRD's "correct digits". */
static double correct_digits(double c, const char *mid) {
  if (!isfinite(c)) return NAN;
  arf_t m, t;
  arf_init(m);
  arf_init(t);
  double dig = NAN;
  if (arf_from_decimal(m, mid) && arf_is_finite(m)) {
    arf_set_d(t, c);
    arf_sub(t, t, m, 64, ARF_RND_NEAR);
    arf_abs(t, t);
    if (!arf_is_zero(m)) {
      arf_abs(m, m);
      arf_div(t, t, m, 64, ARF_RND_NEAR);
    }
    if (arf_is_zero(t)) dig = INFINITY;
    else {
      fmpz_t man, e;
      fmpz_init(man);
      fmpz_init(e);
      arf_get_fmpz_2exp(man, e, t);
      dig = -(log10(fmpz_get_d(man)) + (double)fmpz_get_si(e) * log10(2.0));
      fmpz_clear(man);
      fmpz_clear(e);
      if (!(dig > 0)) dig = 0;
    }
  }
  arf_clear(m);
  arf_clear(t);
  return dig;
}

/* ---- ulps -------------------------------------------------------------------- */
static int64_t ord64(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  if (u >> 63) return -(int64_t)(u & 0x7fffffffffffffffULL);
  return (int64_t)u;
}
static double unord64(int64_t o) {
  uint64_t u = o < 0 ? ((uint64_t)(-o) | 0x8000000000000000ULL) : (uint64_t)o;
  double x;
  memcpy(&x, &u, sizeof x);
  return x;
}
static int64_t ord32(float x) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  if (u >> 31) return -(int64_t)(u & 0x7fffffffU);
  return (int64_t)u;
}
static float unord32(int64_t o) {
  uint32_t u = o < 0 ? ((uint32_t)(-o) | 0x80000000U) : (uint32_t)o;
  float x;
  memcpy(&x, &u, sizeof x);
  return x;
}
static uint64_t ord_dist(int64_t a, int64_t b) {
  return a >= b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
}
/* Distance in ulps of the grading precision (both already in it). */
static uint64_t ulps_between(const ctx *c, double a, double b) {
  if (c->o->f32) return ord_dist(ord32((float)a), ord32((float)b));
  return ord_dist(ord64(a), ord64(b));
}
/* The candidate as graded: a float32 rounding of it with --precision f32. */
static double as_graded(const ctx *c, double x) { return c->o->f32 ? (double)(float)x : x; }

/* [lo, hi]: the numbers the tolerance accepts around a finite candidate x. */
static void tol_box(const ctx *c, double x, double *lo, double *hi) {
  if (c->o->rtol > 0) {
    double t = c->o->rtol * fabs(x);
    *lo = x - t;
    *hi = x + t;
    return;
  }
  long n = c->o->ulps;
  if (c->o->f32) {
    int64_t o = ord32((float)x), top = ord32(FLT_MAX);
    int64_t a = o - n < -top ? -top : o - n, b = o + n > top ? top : o + n;
    *lo = (double)unord32(a);
    *hi = (double)unord32(b);
  } else {
    int64_t o = ord64(x), top = ord64(DBL_MAX);
    int64_t a = o < -top + n ? -top : o - n, b = o > top - n ? top : o + n;
    *lo = unord64(a);
    *hi = unord64(b);
  }
}

static int within(const ctx *c, double cand, double ref, uint64_t u) {
  if (isnan(cand)) return 0;
  if (isinf(ref) || isinf(cand)) return cand == ref;
  if (c->o->rtol > 0) return fabs(cand - ref) <= c->o->rtol * fabs(ref);
  return u <= (uint64_t)c->o->ulps;
}

/* ---- the reference of one real ------------------------------------------- */
enum { RS_NUM, RS_UNDEFINED, RS_UNDECIDED };

/* The reference real `leaf` (a number or a word) with enclosure `enc`, at
 * the grading precision. */
static int ref_of(const ctx *c, const json_t *leaf, const json_t *enc, double *x, const char **why) {
  *why = NULL;
  if (json_is_string(leaf)) {
    const char *s = json_string_value(leaf);
    if (strcmp(s, "+infinity") == 0) { *x = INFINITY; return RS_NUM; }
    if (strcmp(s, "-infinity") == 0) { *x = -INFINITY; return RS_NUM; }
    if (strcmp(s, "undecided") == 0) {
      *why = "the certified evaluator reached its precision cap (raise --max-prec)";
      return RS_UNDECIDED;
    }
    *why = "the reference is undefined here";
    return RS_UNDEFINED;
  }
  *x = json_number_value(leaf);
  if (!c->o->f32) return RS_NUM;
  const json_t *m = json_object_get(enc, "mid"), *r = json_object_get(enc, "rad");
  float f;
  if (!json_is_string(m) || !json_is_string(r) ||
      !enclosure_f32(json_string_value(m), json_string_value(r), &f)) {
    *why = "the enclosure does not decide the float32 rounding";
    return RS_UNDECIDED;
  }
  *x = (double)f;
  return RS_NUM;
}

static void set_enclosure(ctx *c, vd_entry *e, const json_t *enc) {
  const json_t *m = json_object_get(enc, "mid"), *r = json_object_get(enc, "rad");
  if (json_is_string(m) && json_is_string(r)) {
    e->mid = xstrdup(c, json_string_value(m));
    e->rad = xstrdup(c, json_string_value(r));
  }
}

/* Grades the real `cand` against the reference leaf at the current path. */
static void grade_real(ctx *c, double cand, const json_t *leaf, const json_t *enc) {
  vd_entry *e = new_entry(c);
  if (!e) return;
  e->real = 1;
  e->cand = as_graded(c, cand);
  char b[64];
  if (json_is_string(leaf)) e->ref_txt = xstrdup(c, json_string_value(leaf));
  else { fmt_num(b, sizeof b, json_number_value(leaf)); e->ref_txt = xstrdup(c, b); }
  set_enclosure(c, e, enc);
  double r;
  const char *why;
  int rs = ref_of(c, leaf, enc, &r, &why);
  if (rs == RS_UNDEFINED) { e->verdict = VD_DOMAIN; e->note = xstrdup(c, why); return; }
  if (rs == RS_UNDECIDED) { e->verdict = VD_UNDECIDED; e->note = xstrdup(c, why); return; }
  e->has_ref = 1;
  e->ref = r;
  if (c->o->f32) { fmt_num(b, sizeof b, r); free(e->ref_txt); e->ref_txt = xstrdup(c, b); }
  if (!isnan(e->cand)) {
    e->has_ulps = 1;
    e->ulps = ulps_between(c, e->cand, r);
  }
  if (e->mid) e->digits = correct_digits(e->cand, e->mid);
  e->verdict = within(c, e->cand, r, e->ulps) ? VD_CORRECT : VD_WRONG;
}

static void grade_discrete(ctx *c, const char *cand, const char *ref) {
  vd_entry *e = new_entry(c);
  if (!e) return;
  e->cand_txt = xstrdup(c, cand);
  e->ref_txt = xstrdup(c, ref);
  e->verdict = strcmp(cand, ref) == 0 ? VD_CORRECT : VD_WRONG;
}

/* ---- the value: walked with its type (ints print like reals) ------------- */
typedef struct enc_iter {
  const json_t *encs;
  size_t next;
} enc_iter;

static const json_t *enc_next(enc_iter *it) {
  const json_t *e = json_array_get(it->encs, it->next);
  it->next++;
  return e;
}

/* The number of reals in a reference value of type ty. */
static size_t count_reals(int ty, const json_t *ref) {
  switch (ty_kind(ty)) {
  case TY_REAL: return 1;
  case TY_PROD:
    return count_reals(ty_left(ty), json_array_get(ref, 0)) +
           count_reals(ty_right(ty), json_array_get(ref, 1));
  case TY_SUM:
    if (json_object_get(ref, "inl")) return count_reals(ty_left(ty), json_object_get(ref, "inl"));
    if (json_object_get(ref, "inr")) return count_reals(ty_right(ty), json_object_get(ref, "inr"));
    return 0;
  case TY_ARR: {
    size_t n = 0;
    for (size_t i = 0; i < json_array_size(ref); i++) n += count_reals(ty_left(ty), json_array_get(ref, i));
    return n;
  }
  default: return 0;
  }
}

static int walk_value(ctx *c, int ty, const json_t *ref, const json_t *cand, enc_iter *it) {
  char b[64];
  switch (ty_kind(ty)) {
  case TY_REAL: {
    double x;
    if (!cand_number(cand, &x)) return cand_error(c, 0, "expected a number, found %s", kind_name(cand));
    grade_real(c, x, ref, enc_next(it));
    return 0;
  }
  case TY_INT:
    if (c->ints_as_real && json_is_real(cand)) {   /* the literal, from the text */
      json_cursor u = locate(c, c->depth, 0);
      int64_t x = 0;
      int lit = json_int_literal(u.p, (size_t)(u.end - u.p), &x);
      if (lit == 1) return cand_error(c, 0, "expected an integer, found a number");
      if (lit == 2) return cand_error(c, 0, "integer out of the 64-bit range [-2^63, 2^63 - 1]");
      snprintf(b, sizeof b, "%" PRId64, x);
    } else if (!json_is_integer(cand))
      return cand_error(c, 0, "expected an integer, found %s", kind_name(cand));
    else snprintf(b, sizeof b, "%" JSON_INTEGER_FORMAT, json_integer_value(cand));
    {
      char r[64];
      snprintf(r, sizeof r, "%" JSON_INTEGER_FORMAT, json_integer_value(ref));
      grade_discrete(c, b, r);
    }
    return 0;
  case TY_UNIT:
    if (!json_is_null(cand)) return cand_error(c, 0, "expected null, found %s", kind_name(cand));
    return 0;
  case TY_PROD: {
    if (!json_is_array(cand) || json_array_size(cand) != 2)
      return cand_error(c, 0, "expected a pair [a, b], found %s", kind_name(cand));
    for (int i = 0; i < 2; i++) {
      size_t m = path_push_idx(c, i);
      int rc = walk_value(c, i ? ty_right(ty) : ty_left(ty), json_array_get(ref, (size_t)i),
                          json_array_get(cand, (size_t)i), it);
      path_pop(c, m);
      if (rc) return rc;
    }
    return 0;
  }
  case TY_SUM: {
    if (json_is_boolean(ref)) {
      if (!json_is_boolean(cand)) return cand_error(c, 0, "expected true or false, found %s", kind_name(cand));
      grade_discrete(c, json_is_true(cand) ? "true" : "false", json_is_true(ref) ? "true" : "false");
      return 0;
    }
    const char *rside = json_object_get(ref, "inl") ? "inl" : "inr";
    if (!json_is_object(cand) || json_object_size(cand) != 1 ||
        (!json_object_get(cand, "inl") && !json_object_get(cand, "inr")))
      return cand_error(c, 0, "expected {\"inl\": a} or {\"inr\": b}, found %s", kind_name(cand));
    const char *cside = json_object_get(cand, "inl") ? "inl" : "inr";
    if (strcmp(cside, rside) != 0) {
      grade_discrete(c, cside, rside);
      /* the reference side's reals are not graded; their enclosures pass */
      it->next += count_reals(strcmp(rside, "inl") == 0 ? ty_left(ty) : ty_right(ty),
                              json_object_get(ref, rside));
      return 0;
    }
    size_t m = path_push_key(c, cside);
    int rc = walk_value(c, strcmp(cside, "inl") == 0 ? ty_left(ty) : ty_right(ty),
                        json_object_get(ref, rside), json_object_get(cand, cside), it);
    path_pop(c, m);
    return rc;
  }
  case TY_ARR: {
    if (!json_is_array(cand)) return cand_error(c, 0, "expected an array, found %s", kind_name(cand));
    if (json_array_size(cand) != json_array_size(ref))
      return cand_error(c, 0, "expected an array of %zu elements (the reference's length), found %zu",
                        json_array_size(ref), json_array_size(cand));
    for (size_t i = 0; i < json_array_size(ref); i++) {
      size_t m = path_push_idx(c, (int)i);
      int rc = walk_value(c, ty_left(ty), json_array_get(ref, i), json_array_get(cand, i), it);
      path_pop(c, m);
      if (rc) return rc;
    }
    return 0;
  }
  default:
    return diag_set(c->d, CHAD_EXIT_INPUT, c->cfile, 0, 0, "a function-typed result has no value to check");
  }
}

/* ---- derivatives: reals are the non-null leaves ----------------------------- */
typedef struct leaves {
  int n, cap;
  char **path;
  double *cand;
  const json_t **ref;
} leaves;

static void leaves_free(leaves *l) {
  for (int i = 0; i < l->n; i++) free(l->path[i]);
  free(l->path);
  free(l->cand);
  free(l->ref);
  memset(l, 0, sizeof *l);
}

static int leaves_add(ctx *c, leaves *l, double cand, const json_t *ref) {
  if (l->n == l->cap) {
    int cap = l->cap ? 2 * l->cap : 64;
    char **p = realloc(l->path, sizeof *p * (size_t)cap);
    if (p) l->path = p;
    double *d = realloc(l->cand, sizeof *d * (size_t)cap);
    if (d) l->cand = d;
    const json_t **r = realloc(l->ref, sizeof *r * (size_t)cap);
    if (r) l->ref = r;
    if (!p || !d || !r) { c->oom = 1; return -1; }
    l->cap = cap;
  }
  l->path[l->n] = xstrdup(c, c->path);
  l->cand[l->n] = cand;
  l->ref[l->n] = ref;
  l->n++;
  return 0;
}

/* cand NULL: not walked (another limit's reference); cand JSON null: zero. */
static int walk_deriv(ctx *c, const json_t *ref, const json_t *cand, int zero, leaves *out) {
  if (json_is_null(ref)) {
    double x;
    if (cand && !zero && !json_is_null(cand) && !(cand_number(cand, &x) && x == 0))
      return cand_error(c, 0, "expected null (an int or unit parameter has no derivative), found %s",
                        kind_name(cand));
    return 0;
  }
  if (cand && !zero && json_is_null(cand)) zero = 1;
  if (json_is_array(ref)) {
    if (cand && !zero) {
      if (!json_is_array(cand)) return cand_error(c, 0, "expected an array, found %s", kind_name(cand));
      if (json_array_size(cand) != json_array_size(ref))
        return cand_error(c, 0, "expected an array of %zu entries (as the reference), found %zu",
                          json_array_size(ref), json_array_size(cand));
    }
    for (size_t i = 0; i < json_array_size(ref); i++) {
      size_t m = path_push_idx(c, (int)i);
      int rc = walk_deriv(c, json_array_get(ref, i), cand && !zero ? json_array_get(cand, i) : cand,
                          zero, out);
      path_pop(c, m);
      if (rc) return rc;
    }
    return 0;
  }
  double x = 0;
  if (cand && !zero && !cand_number(cand, &x))
    return cand_error(c, 0, "expected a number, found %s", kind_name(cand));
  return leaves_add(c, out, x, ref) ? CHAD_EXIT_RUNTIME : 0;
}

/* The enclosures of a derivative part: the last n of the result's list. */
static const json_t *result_enc(const json_t *result, int n, int i) {
  const json_t *encs = json_object_get(json_object_get(result, "certificate"), "enclosures");
  size_t total = json_array_size(encs);
  if ((size_t)n > total) return NULL;
  return json_array_get(encs, total - (size_t)n + (size_t)i);
}

/* q = x exactly (x finite). */
static void qset_d(fmpq_t q, double x) {
  int e;
  double m = frexp(x, &e);   /* x = m 2^e, m 53 bits */
  fmpz_set_d(fmpq_numref(q), ldexp(m, 53));
  fmpz_one(fmpq_denref(q));
  e -= 53;
  if (e >= 0) fmpz_mul_2exp(fmpq_numref(q), fmpq_numref(q), (ulong)e);
  else fmpz_mul_2exp(fmpq_denref(q), fmpq_denref(q), (ulong)-e);
  fmpq_canonicalise(q);
}

/* ---- convex hull: an exact linear program ---------------------------------- */
/* Is there a point of conv{L[0], ..., L[k-1]} (each of nv coordinates) in the
 * box [lo, hi]? By Farkas's lemma it is empty iff
 *   min  hi.y - lo.z + w   s.t.  A^T (y - z) + w 1 >= 0,  y, z >= 0,
 *                                sum y + sum z <= 1,  w free
 * (A the nv x k matrix of the L's) is negative. That program has k + 1 rows,
 * a feasible starting basis (the surplus of each of the k rows, and the slack
 * of the last), and is bounded; it is solved by the simplex method with
 * Bland's rule in exact rational arithmetic. Returns 1 (in the hull), 0 (not)
 * or -1 (gave up after too many pivots). */
static int hull_meets_box(int k, int nv, double *const *L, const double *lo, const double *hi) {
  int m = k + 1, N = 2 * nv + 3 + k;
  fmpq *T = _fmpq_vec_init((slong)m * (N + 1));
  fmpq *C = _fmpq_vec_init(N + 1);
  int *basis = malloc(sizeof *basis * (size_t)m);
  if (!basis) { _fmpq_vec_clear(T, (slong)m * (N + 1)); _fmpq_vec_clear(C, N + 1); return -1; }
#define AT(r, j) (T + (slong)(r) * (N + 1) + (j))
  for (int j = 0; j < k; j++) {
    for (int i = 0; i < nv; i++) {
      qset_d(AT(j, i), -L[j][i]);
      qset_d(AT(j, nv + i), L[j][i]);
    }
    fmpq_set_si(AT(j, 2 * nv), -1, 1);
    fmpq_set_si(AT(j, 2 * nv + 1), 1, 1);
    fmpq_set_si(AT(j, 2 * nv + 2 + j), 1, 1);
    basis[j] = 2 * nv + 2 + j;
  }
  for (int i = 0; i < 2 * nv; i++) fmpq_set_si(AT(k, i), 1, 1);
  fmpq_set_si(AT(k, N - 1), 1, 1);
  fmpq_set_si(AT(k, N), 1, 1);
  basis[k] = N - 1;
  for (int i = 0; i < nv; i++) {
    qset_d(C + i, hi[i]);
    qset_d(C + nv + i, -lo[i]);
  }
  fmpq_set_si(C + 2 * nv, 1, 1);
  fmpq_set_si(C + 2 * nv + 1, -1, 1);
  fmpq_t ratio, best, f;
  fmpq_init(ratio);
  fmpq_init(best);
  fmpq_init(f);
  int result = -1;
  for (long iter = 0; iter < 20000; iter++) {
    int e = -1;
    for (int j = 0; j < N && e < 0; j++)
      if (fmpq_sgn(C + j) < 0) e = j;
    if (e < 0) { result = fmpq_sgn(C + N) <= 0; break; }   /* optimum -C[N] >= 0: in */
    int r = -1;
    for (int i = 0; i < m; i++) {
      if (fmpq_sgn(AT(i, e)) <= 0) continue;
      fmpq_div(ratio, AT(i, N), AT(i, e));
      int cmp = r < 0 ? -1 : fmpq_cmp(ratio, best);
      if (cmp < 0 || (cmp == 0 && basis[i] < basis[r])) { r = i; fmpq_set(best, ratio); }
    }
    if (r < 0) { result = 0; break; }   /* unbounded below: the box misses the hull */
    fmpq_inv(f, AT(r, e));
    for (int j = 0; j <= N; j++) fmpq_mul(AT(r, j), AT(r, j), f);
    for (int i = 0; i <= m; i++) {
      fmpq *row = i < m ? AT(i, 0) : C;
      if (i == r || fmpq_is_zero(row + e)) continue;
      fmpq_set(f, row + e);
      for (int j = 0; j <= N; j++) fmpq_submul(row + j, f, AT(r, j));
    }
    basis[r] = e;
  }
#undef AT
  fmpq_clear(ratio);
  fmpq_clear(best);
  fmpq_clear(f);
  free(basis);
  _fmpq_vec_clear(T, (slong)m * (N + 1));
  _fmpq_vec_clear(C, N + 1);
  return result;
}

/* Does the box [lo, hi] hold the point sum_j w[j] L[j] (exactly)? */
static int box_holds(int k, int nv, double *const *L, const fmpq *w, const double *lo,
                     const double *hi) {
  fmpq_t s, t, b;
  fmpq_init(s);
  fmpq_init(t);
  fmpq_init(b);
  int ok = 1;
  for (int i = 0; i < nv && ok; i++) {
    fmpq_zero(s);
    for (int j = 0; j < k; j++) {
      qset_d(t, L[j][i]);
      fmpq_addmul(s, t, w + j);
    }
    qset_d(b, lo[i]);
    if (fmpq_cmp(s, b) < 0) ok = 0;
    qset_d(b, hi[i]);
    if (fmpq_cmp(s, b) > 0) ok = 0;
  }
  fmpq_clear(s);
  fmpq_clear(t);
  fmpq_clear(b);
  return ok;
}

/* The minimal-norm point of the segment [L0, L1]: weights (1 - t, t), t the
 * projection of 0 clamped to [0, 1]. */
static void min_norm_2(int nv, double *const *L, fmpq *w) {
  fmpq_t num, den, a, dd;
  fmpq_init(num);
  fmpq_init(den);
  fmpq_init(a);
  fmpq_init(dd);
  for (int i = 0; i < nv; i++) {
    qset_d(a, L[0][i]);
    qset_d(dd, L[1][i]);
    fmpq_sub(dd, dd, a);
    fmpq_submul(num, a, dd);   /* -<L0, d> */
    fmpq_addmul(den, dd, dd);
  }
  if (fmpq_is_zero(den)) fmpq_zero(w + 1);
  else fmpq_div(w + 1, num, den);
  if (fmpq_sgn(w + 1) < 0) fmpq_zero(w + 1);
  fmpq_one(a);
  if (fmpq_cmp(w + 1, a) > 0) fmpq_one(w + 1);
  fmpq_sub(w + 0, a, w + 1);
  fmpq_clear(num);
  fmpq_clear(den);
  fmpq_clear(a);
  fmpq_clear(dd);
}

/* More than two one-sided results: c (in the hull) is the minimal-norm point
 * iff <c, L_j - c> >= 0 for every j; tested to first order in the tolerance. */
static int min_norm_k(int k, int nv, double *const *L, const double *cv, const double *lo,
                      const double *hi) {
  for (int j = 0; j < k; j++) {
    long double s = 0, slack = 0;
    for (int i = 0; i < nv; i++) {
      long double t = (long double)hi[i] - lo[i];
      s += (long double)cv[i] * ((long double)L[j][i] - cv[i]);
      slack += t * (fabsl((long double)L[j][i] - cv[i]) + 2 * fabsl((long double)cv[i]) + t);
    }
    if (s < -slack) return 0;
  }
  return 1;
}

/* ---- one derivative part --------------------------------------------------- */
static const char *limit_sides(ctx *c, const json_t *limit) {
  const json_t *br = json_object_get(limit, "branches");
  size_t cap = 256, len = 0;
  char *s = malloc(cap);
  if (!s) { c->oom = 1; return NULL; }
  s[0] = '\0';
  for (size_t i = 0; i < json_array_size(br); i++) {
    const char *side = json_string_value(json_object_get(json_array_get(br, i), "side"));
    const char *op = json_string_value(json_object_get(json_array_get(br, i), "op"));
    size_t need = len + strlen(side ? side : "") + strlen(op ? op : "") + 8;
    if (need > cap) {
      char *t = realloc(s, need * 2);
      if (!t) { free(s); c->oom = 1; return NULL; }
      s = t;
      cap = need * 2;
    }
    len += (size_t)sprintf(s + len, "%s%s: %s", i ? "; " : "", op ? op : "?", side ? side : "?");
  }
  return s;
}

static int grade_kink(ctx *c, const char *part, const char *key, json_t *ref, const json_t *cand,
                      int undecided) {
  const json_t *lims = json_object_get(ref, "limits");
  int k = (int)json_array_size(lims);
  if (k < 2) return diag_set(c->d, CHAD_EXIT_RUNTIME, "", 0, 0, "internal: a verdict without limits");
  leaves *lv = calloc((size_t)k, sizeof *lv);
  if (!lv) return diag_set(c->d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory");
  int rc = 0;
  for (int j = 0; j < k && !rc; j++) {
    const json_t *res = json_object_get(json_array_get(lims, (size_t)j), "result");
    rc = walk_deriv(c, json_object_get(res, key), j == 0 ? cand : NULL, 0, &lv[j]);
    if (!rc && lv[j].n != lv[0].n)
      rc = diag_set(c->d, CHAD_EXIT_RUNTIME, "", 0, 0, "internal: one-sided results of different shapes");
  }
  if (rc || c->oom) goto out;
  if (c->nk == c->capk) {
    int cap = c->capk ? 2 * c->capk : 4;
    kink *nk = realloc(c->k, sizeof *nk * (size_t)cap);
    if (!nk) { rc = diag_set(c->d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory"); goto out; }
    c->k = nk;
    c->capk = cap;
  }
  int ki = c->nk++;
  kink *K = &c->k[ki];
  memset(K, 0, sizeof *K);
  K->part = xstrdup(c, part);
  K->ref = json_incref(ref);
  K->verdict = VD_CORRECT;
  K->undecided = undecided;
  int n = lv[0].n;
  double **L = malloc(sizeof *L * (size_t)k);
  double *vals = malloc(sizeof *vals * (size_t)n * (size_t)k);
  int *vary = malloc(sizeof *vary * (size_t)n);
  int *ent = malloc(sizeof *ent * (size_t)n);
  double *lo = malloc(sizeof *lo * (size_t)n), *hi = malloc(sizeof *hi * (size_t)n);
  double *cv = malloc(sizeof *cv * (size_t)n);
  if (!L || !vals || !vary || !ent || !lo || !hi || !cv) {
    rc = diag_set(c->d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory");
    goto out2;
  }
  int nv = 0;
  for (int i = 0; i < n; i++) {
    vary[i] = 0;
    int status = RS_NUM, same = 1;
    const char *why = NULL;
    for (int j = 0; j < k; j++) {
      const json_t *res = json_object_get(json_array_get(lims, (size_t)j), "result");
      double x = 0;
      const char *w;
      int s = ref_of(c, lv[j].ref[i], result_enc(res, n, i), &x, &w);
      if (s != RS_NUM && status == RS_NUM) { status = s; why = w; }
      vals[(size_t)i * (size_t)k + (size_t)j] = x;
      if (s == RS_NUM && x != vals[(size_t)i * (size_t)k]) same = 0;
    }
    snprintf(c->path, sizeof c->path, "%s", lv[0].path[i]);
    c->plen = strlen(c->path);
    const json_t *res0 = json_object_get(json_array_get(lims, 0), "result");
    if (status == RS_NUM && same) {   /* the sides agree on this vd_entry */
      grade_real(c, lv[0].cand[i], lv[0].ref[i], result_enc(res0, n, i));
      ent[i] = c->n - 1;
      continue;
    }
    vd_entry *e = new_entry(c);
    if (!e) break;
    ent[i] = c->n - 1;
    e->real = 1;
    e->kink = ki;
    e->cand = as_graded(c, lv[0].cand[i]);
    e->nlim = k;
    e->lim = malloc(sizeof *e->lim * (size_t)k);
    if (e->lim)
      for (int j = 0; j < k; j++) e->lim[j] = vals[(size_t)i * (size_t)k + (size_t)j];
    else c->oom = 1;
    if (status != RS_NUM) {
      e->verdict = status == RS_UNDEFINED ? VD_DOMAIN : VD_UNDECIDED;
      e->note = xstrdup(c, why);
      e->nlim = 0;
      continue;
    }
    int finite = 1;
    for (int j = 0; j < k; j++) finite &= isfinite(vals[(size_t)i * (size_t)k + (size_t)j]) != 0;
    if (!finite) {
      e->verdict = VD_DOMAIN;
      e->note = xstrdup(c, "a one-sided derivative is infinite");
      continue;
    }
    if (!isfinite(e->cand)) {
      e->verdict = VD_WRONG;
      e->note = xstrdup(c, "not a finite number, outside the convex hull of the one-sided results");
      continue;
    }
    vary[i] = 1;
    e->verdict = VD_ACCEPTABLE;
    tol_box(c, e->cand, &lo[nv], &hi[nv]);
    cv[nv] = e->cand;
    /* outside the range of its one-sided values: wrong by itself */
    double mn = INFINITY, mx = -INFINITY;
    for (int j = 0; j < k; j++) {
      double x = vals[(size_t)i * (size_t)k + (size_t)j];
      mn = x < mn ? x : mn;
      mx = x > mx ? x : mx;
    }
    if (hi[nv] < mn || lo[nv] > mx) {
      e->verdict = VD_WRONG;
      e->note = xprintf(c, "outside the range [%.17g, %.17g] of the one-sided results", mn, mx);
    }
    nv++;
  }
  K->nvary = nv;
  if (nv > 0 && !c->oom) {
    /* the varying coordinates, compacted */
    for (int j = 0; j < k; j++) {
      L[j] = malloc(sizeof **L * (size_t)nv);
      if (!L[j]) { c->oom = 1; for (int q = 0; q < j; q++) free(L[q]); goto out2; }
      int t = 0;
      for (int i = 0; i < n; i++)
        if (vary[i]) L[j][t++] = vals[(size_t)i * (size_t)k + (size_t)j];
    }
    int any_wrong = 0;
    for (int i = 0; i < n; i++)
      if (vary[i] && c->e[ent[i]].verdict == VD_WRONG) any_wrong = 1;
    int in = any_wrong ? 0 : hull_meets_box(k, nv, L, lo, hi);
    char conv[600] = "";
    if (in == 1) {
      fmpq *w = _fmpq_vec_init(k);
      size_t cl = 0;
      for (int j = 0; j < k; j++) {   /* one-sided */
        for (int q = 0; q < k; q++) fmpq_zero(w + q);
        fmpq_one(w + j);
        if (box_holds(k, nv, L, w, lo, hi)) {
          const char *sides = limit_sides(c, json_array_get(lims, (size_t)j));
          cl += (size_t)snprintf(conv + cl, sizeof conv - cl, "%sone-sided (%s)", cl ? "; " : "",
                                 sides ? sides : "?");
          free((void *)sides);
          if (cl >= sizeof conv) cl = sizeof conv - 1;
          K->keys |= 1;
          break;
        }
      }
      for (int j = 0; j < k; j++) fmpq_set_si(w + j, 1, (ulong)k);
      if (box_holds(k, nv, L, w, lo, hi)) {
        cl += (size_t)snprintf(conv + cl, sizeof conv - cl,
                               "%sthe average of the sides (PyTorch's max/min at ties)", cl ? "; " : "");
        if (cl >= sizeof conv) cl = sizeof conv - 1;
        K->keys |= 2;
      }
      int mn;
      if (k == 2) { min_norm_2(nv, L, w); mn = box_holds(k, nv, L, w, lo, hi); }
      else mn = min_norm_k(k, nv, L, cv, lo, hi);
      if (mn) {
        cl += (size_t)snprintf(conv + cl, sizeof conv - cl,
                               "%sthe minimal-norm element (PyTorch's abs at 0)", cl ? "; " : "");
        if (cl >= sizeof conv) cl = sizeof conv - 1;
        K->keys |= 4;
      }
      if (!cl) snprintf(conv, sizeof conv, "a point of the hull that no common convention picks");
      _fmpq_vec_clear(w, k);
      K->verdict = VD_ACCEPTABLE;
      K->conventions = xstrdup(c, conv);
    } else {
      K->verdict = in == 0 ? VD_WRONG : VD_UNDECIDED;
    }
    for (int i = 0; i < n; i++) {
      if (!vary[i]) continue;
      vd_entry *e = &c->e[ent[i]];
      if (in == 1) e->note = xprintf(c, "in the convex hull of the one-sided results: %s", conv);
      else if (e->verdict != VD_WRONG) {
        e->verdict = K->verdict;
        e->note = xstrdup(c, in == 0 ? "each entry within its one-sided range, but the vector is "
                                       "not in the convex hull of the one-sided results"
                                     : "the convex-hull test did not finish");
      }
    }
    for (int j = 0; j < k; j++) free(L[j]);
    /* Differentiability undecided: if the function is differentiable here
     * its derivative is one of the results, and if not, the hull contains
     * Clarke's gradient; so a point of the hull may be right or wrong. */
    if (undecided && K->verdict == VD_ACCEPTABLE) {
      K->verdict = VD_UNDECIDED;
      for (int i = 0; i < n; i++) {
        if (!vary[i]) continue;
        vd_entry *e = &c->e[ent[i]];
        if (e->verdict != VD_ACCEPTABLE) continue;
        e->verdict = VD_UNDECIDED;
        free(e->note);
        e->note = xprintf(c, "in the convex hull of the results of the branches (%s), but whether "
                             "the function is differentiable here is undecided: right if it is "
                             "and this is its derivative, acceptable if it is not", conv);
      }
    }
  }
out2:
  free(L);
  free(vals);
  free(vary);
  free(ent);
  free(lo);
  free(hi);
  free(cv);
out:
  for (int j = 0; j < k; j++) leaves_free(&lv[j]);
  free(lv);
  if (!rc && c->oom) rc = diag_set(c->d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory");
  return rc;
}

/* The part's path is pushed (c->path, c->steps); it is restored on return. */
static int grade_deriv(ctx *c, const char *key, json_t *ref, const json_t *cand) {
  char part[sizeof c->path];
  memcpy(part, c->path, c->plen + 1);
  size_t plen = c->plen;
  int rc;
  const char *dv = json_string_value(json_object_get(ref, "differentiable"));
  int undecided = dv && strcmp(dv, "undecided") == 0;
  if (json_is_true(json_object_get(ref, "not_differentiable")) || undecided) {
    rc = grade_kink(c, part, key, ref, cand, undecided);
  } else {
    leaves l = {0};
    rc = walk_deriv(c, json_object_get(ref, key), cand, 0, &l);
    for (int i = 0; !rc && i < l.n; i++) {
      snprintf(c->path, sizeof c->path, "%s", l.path[i]);
      c->plen = strlen(c->path);
      grade_real(c, l.cand[i], l.ref[i], result_enc(ref, l.n, i));
    }
    leaves_free(&l);
  }
  memcpy(c->path, part, plen + 1);
  c->plen = plen;
  return rc;
}

/* ---- running the reference ----------------------------------------------------- */
enum { P_VALUE, P_GRAD, P_JAC, P_TAN, P_COT, P_JVP, P_VJP, P_N };
static const char *const part_key[P_N] = {"value", "gradient", "jacobian", "tangent",
                                          "cotangent", "jvp", "vjp"};
static const char *const part_out[P_N] = {"value", "gradient", "jacobian", "tangent",
                                          "cotangent", "tangent", "cotangent"};

static int run_part(ctx *c, int part, const chad_json *dir, char **out) {
  const chad_check_opts *o = c->o;
  switch (part) {
  case P_VALUE: return chad_eval(c->p, o->fn, o->args, out, c->d);
  case P_GRAD: return chad_grad(c->p, o->fn, o->args, out, c->d);
  case P_JAC: return chad_jacobian(c->p, o->fn, o->args, 0, out, c->d);
  case P_TAN: case P_JVP: return chad_jvp(c->p, o->fn, o->args, dir, out, c->d);
  default: return chad_vjp(c->p, o->fn, o->args, dir, out, c->d);
  }
}

/* A copy of the candidate text with everything outside [a, b) blanked
 * (newlines kept), so that positions in it are the candidate's. */
static char *blank_outside(const ctx *c, const char *a, const char *b) {
  char *s = malloc(c->clen + 1);
  if (!s) return NULL;
  for (size_t i = 0; i < c->clen; i++) {
    const char *q = c->ctext + i;
    s[i] = (q >= a && q < b) || *q == '\n' ? *q : ' ';
  }
  s[c->clen] = '\0';
  return s;
}

static int grade_part(ctx *c, int part, const json_t *cand) {
  chad_json dir = {0};
  char *dirtext = NULL;
  const json_t *cpart = cand;
  const char *label = part_key[part];
  if (part == P_TAN) dir = *c->o->tangent;
  if (part == P_COT) dir = *c->o->cotangent;
  if (part == P_JVP || part == P_VJP) {
    const char *inner = part == P_JVP ? "tangent" : "cotangent";
    size_t m0 = path_push_key(c, label);
    if (!json_is_object(cand))
      return cand_error(c, 0, "expected {\"direction\": ..., \"%s\": ...}, found %s", inner, kind_name(cand));
    const char *kk;
    json_t *vv;
    json_object_foreach((json_t *)cand, kk, vv) {
      if (strcmp(kk, "direction") != 0 && strcmp(kk, inner) != 0) {
        size_t m1 = path_push_key(c, kk);
        int rc = cand_error(c, 1, "unknown key (expected \"direction\" and \"%s\")", inner);
        path_pop(c, m1);
        return rc;
      }
    }
    if (!json_object_get(cand, "direction") || !json_object_get(cand, inner))
      return cand_error(c, 0, "needs both \"direction\" and \"%s\"", inner);
    size_t m1 = path_push_key(c, "direction");
    json_cursor a = locate(c, c->depth, 0), b = a;
    json_cur_value(&b);
    path_pop(c, m1);
    path_pop(c, m0);
    dirtext = blank_outside(c, a.p, b.p);
    if (!dirtext) return diag_set(c->d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory");
    dir.text = dirtext;
    dir.len = c->clen;
    dir.name = c->cfile;
    cpart = json_object_get(cand, inner);
  }
  char *out = NULL;
  int rc = run_part(c, part, &dir, &out);
  free(dirtext);
  if (rc && rc != CHAD_EXIT_NONDIFF && rc != CHAD_EXIT_UNDECIDED) { free(out); return rc; }
  if (!out) {   /* undecided with no answer: a comparison at the cap */
    size_t m = path_push_key(c, label);
    vd_entry *e = new_entry(c);
    if (e) {
      e->verdict = VD_UNDECIDED;
      e->ref_txt = xstrdup(c, "undecided");
      e->note = xstrdup(c, c->d->msg);
    }
    path_pop(c, m);
    return 0;
  }
  json_error_t jerr;
  json_t *ref = json_loads(out, 0, &jerr);
  free(out);
  if (!ref) return diag_set(c->d, CHAD_EXIT_RUNTIME, "", 0, 0, "internal: the reference is not JSON: %s", jerr.text);
  size_t m0 = path_push_key(c, label), m1 = 0;
  if (part == P_JVP || part == P_VJP) m1 = path_push_key(c, part_out[part]);
  rc = grade_deriv(c, part_out[part], ref, cpart);
  if (part == P_JVP || part == P_VJP) path_pop(c, m1);
  path_pop(c, m0);
  json_decref(ref);
  return rc;
}

/* ---- the report ----------------------------------------------------------------- */
static void fmt_ulps(char *b, size_t n, const vd_entry *e) {
  if (!e->has_ulps) snprintf(b, n, "-");
  else if (e->ulps < 1000000) snprintf(b, n, "%" PRIu64, e->ulps);
  else snprintf(b, n, "%.2g", (double)e->ulps);
}
static void fmt_digits(char *b, size_t n, const vd_entry *e) {
  if (isnan(e->digits)) snprintf(b, n, "-");
  else if (isinf(e->digits)) snprintf(b, n, "exact");
  else snprintf(b, n, "%.1f", e->digits);
}
static void fmt_cand(char *b, size_t n, const vd_entry *e) {
  if (e->real) fmt_num(b, n, e->cand);
  else snprintf(b, n, "%s", e->cand_txt ? e->cand_txt : "");
}
static void fmt_ref(char *b, size_t n, const vd_entry *e) {
  if (e->nlim > 0) {
    size_t l = (size_t)snprintf(b, n, "{");
    for (int j = 0; j < e->nlim && l < n; j++) {
      char t[40];
      fmt_num(t, sizeof t, e->lim[j]);
      l += (size_t)snprintf(b + l, n - l, "%s%s", j ? ", " : "", t);
    }
    if (l < n) snprintf(b + l, n - l, "}");
  } else if (e->ref_txt) {
    if (e->has_ref) fmt_num(b, n, e->ref);
    else snprintf(b, n, "%s", e->ref_txt);
  } else snprintf(b, n, "-");
}

static void enclosure_text(char *b, size_t n, const vd_entry *e) {
  arf_t m, r;
  arf_init(m);
  arf_init(r);
  if (e->mid && e->rad && arf_from_decimal(m, e->mid) && arf_from_decimal(r, e->rad)) {
    arb_t x;
    arb_init(x);
    arb_set_arf(x, m);
    arb_add_error_arf(x, r);
    char *s = arb_get_str(x, 20, 0);
    snprintf(b, n, "%s", s);
    flint_free(s);
    arb_clear(x);
  } else snprintf(b, n, "none");
  arf_clear(m);
  arf_clear(r);
}

static const char *prec_name(const ctx *c) { return c->o->f32 ? "f32" : "f64"; }

static void tol_text(const ctx *c, char *b, size_t n) {
  if (c->o->rtol > 0) snprintf(b, n, "rtol %g", c->o->rtol);
  else snprintf(b, n, "%ld %s ulp%s", c->o->ulps, prec_name(c), c->o->ulps == 1 ? "" : "s");
}

static int exit_of(const int *cnt) {
  if (cnt[VD_WRONG]) return CHAD_EXIT_WRONG;
  if (cnt[VD_DOMAIN]) return CHAD_EXIT_NONDIFF;
  if (cnt[VD_UNDECIDED]) return CHAD_EXIT_UNDECIDED;
  return CHAD_EXIT_OK;
}

static void summary(const ctx *c, chad_buf *b, const int *cnt) {
  int rc = exit_of(cnt);
  const vd_entry *first = NULL;
  for (int i = 0; i < c->n && !first; i++)
    if (c->e[i].verdict == VD_WRONG) first = &c->e[i];
  buf_printf(b, "%s: ", rc == CHAD_EXIT_WRONG ? "WRONG" : rc == CHAD_EXIT_NONDIFF ? "OUTSIDE THE DOMAIN"
                       : rc == CHAD_EXIT_UNDECIDED ? "UNDECIDED" : "OK");
  int sep = 0;
  for (int v = VD_WRONG; v <= VD_UNDECIDED; v++)
    if (cnt[v]) { buf_printf(b, "%s%d %s", sep++ ? ", " : "", cnt[v], vd_name[v]); }
  for (int v = VD_CORRECT; v <= VD_ACCEPTABLE; v++)
    if (cnt[v]) { buf_printf(b, "%s%d %s", sep++ ? ", " : "", cnt[v], vd_name[v]); }
  buf_printf(b, " of %d entr%s", c->n, c->n == 1 ? "y" : "ies");
  if (first) {
    char u[40], dg[40];
    fmt_ulps(u, sizeof u, first);
    fmt_digits(dg, sizeof dg, first);
    buf_printf(b, "; first wrong: %s", first->path);
    if (first->has_ulps) buf_printf(b, " (%s ulps, %s correct digits)", u, dg);
  }
  buf_puts(b, "\n");
}

#define TABLE_ALL 60

static void write_table(const ctx *c, chad_buf *b, const int *cnt, const char *fname) {
  char tol[64];
  tol_text(c, tol, sizeof tol);
  buf_printf(b, "checking %s against the certified evaluator (%s, tolerance %s)\n", fname,
             prec_name(c), tol);
  for (int i = 0; i < c->nk; i++) {
    const kink *K = &c->k[i];
    const json_t *bp = json_array_get(json_object_get(K->ref, "branch_points"), 0);
    const json_t *lims = json_object_get(K->ref, "limits");
    buf_printf(b, "%s: %s: %s at %s; %zu %s%s\n", K->part,
               K->undecided ? "differentiability undecided here (a tie nearby points may not leave)"
                            : "not differentiable here",
               json_string_value(json_object_get(bp, "what")) ? json_string_value(json_object_get(bp, "what")) : "?",
               json_string_value(json_object_get(bp, "at")) ? json_string_value(json_object_get(bp, "at")) : "?",
               json_array_size(lims), K->undecided ? "results of its branches" : "one-sided results",
               json_is_false(json_object_get(K->ref, "complete")) ? " (incomplete: too many branch points)" : "");
    if (K->verdict == VD_ACCEPTABLE)
      buf_printf(b, "  acceptable: in their convex hull (Clarke's generalized gradient): %s\n",
                 K->conventions ? K->conventions : "");
    else if (K->verdict == VD_UNDECIDED && K->undecided)
      buf_printf(b, "  undecided: in their convex hull (%s); right only if the function is "
                 "differentiable here with this derivative\n", K->conventions ? K->conventions : "");
    else if (K->verdict == VD_WRONG)
      buf_printf(b, "  WRONG: not in the convex hull of the %s\n",
                 K->undecided ? "results of its branches" : "one-sided results");
  }
  int show_all = c->n <= TABLE_ALL, hidden = 0;
  size_t w = 5;
  for (int i = 0; i < c->n; i++)
    if (show_all || c->e[i].verdict != VD_CORRECT)
      if (strlen(c->e[i].path) > w) w = strlen(c->e[i].path);
  buf_printf(b, "%-*s  %-10s  %-24s  %-24s  %8s  %6s\n", (int)w, "entry", "verdict", "candidate",
             "reference", "ulps", "digits");
  for (int i = 0; i < c->n; i++) {
    const vd_entry *e = &c->e[i];
    if (!show_all && e->verdict == VD_CORRECT) { hidden++; continue; }
    char cs[64], rs[400], u[40], dg[40];
    fmt_cand(cs, sizeof cs, e);
    fmt_ref(rs, sizeof rs, e);
    fmt_ulps(u, sizeof u, e);
    fmt_digits(dg, sizeof dg, e);
    const char *vn = e->verdict == VD_WRONG ? "WRONG" : e->verdict == VD_DOMAIN ? "domain"
                   : vd_name[e->verdict];
    buf_printf(b, "%-*s  %-10s  %-24s  %-24s  %8s  %6s\n", (int)w, e->path, vn, cs, rs,
               e->kink >= 0 ? "-" : u, e->kink >= 0 ? "-" : dg);
    if (e->verdict == VD_WRONG && e->mid && e->kink < 0) {
      char enc[200];
      enclosure_text(enc, sizeof enc, e);
      buf_printf(b, "%-*s  enclosure %s\n", (int)w, "", enc);
    }
    if (e->note && e->verdict != VD_CORRECT && e->verdict != VD_ACCEPTABLE)
      buf_printf(b, "%-*s  %s\n", (int)w, "", e->note);
  }
  if (hidden) buf_printf(b, "(%d correct entries not shown; --json lists every entry)\n", hidden);
  summary(c, b, cnt);
}

static json_t *jnum(double x) {
  if (isnan(x)) return json_string("nan");
  if (isinf(x)) return json_string(x > 0 ? "+infinity" : "-infinity");
  return json_real(x);
}

static char *write_json(const ctx *c, const int *cnt) {
  json_t *root = json_object();
  int rc = exit_of(cnt);
  json_object_set_new(root, "verdict", json_string(rc == CHAD_EXIT_WRONG ? "wrong"
                                                   : rc == CHAD_EXIT_NONDIFF ? "outside_domain"
                                                   : rc == CHAD_EXIT_UNDECIDED ? "undecided" : "ok"));
  json_object_set_new(root, "exit", json_integer(rc));
  json_object_set_new(root, "precision", json_string(prec_name(c)));
  json_t *tol = json_object();
  if (c->o->rtol > 0) json_object_set_new(tol, "rtol", json_real(c->o->rtol));
  else json_object_set_new(tol, "ulps", json_integer(c->o->ulps));
  json_object_set_new(root, "tolerance", tol);
  json_t *counts = json_object();
  for (int v = 0; v <= VD_UNDECIDED; v++) json_object_set_new(counts, vd_key[v], json_integer(cnt[v]));
  json_object_set_new(root, "counts", counts);
  json_t *ents = json_array();
  for (int i = 0; i < c->n; i++) {
    const vd_entry *e = &c->e[i];
    json_t *o = json_object();
    json_object_set_new(o, "path", json_string(e->path));
    json_object_set_new(o, "verdict", json_string(vd_key[e->verdict]));
    if (e->real) json_object_set_new(o, "candidate", jnum(e->cand));
    else json_object_set_new(o, "candidate", json_string(e->cand_txt ? e->cand_txt : ""));
    if (e->nlim > 0) {
      json_t *l = json_array();
      for (int j = 0; j < e->nlim; j++) json_array_append_new(l, jnum(e->lim[j]));
      json_object_set_new(o, "one_sided", l);
    } else if (e->has_ref) json_object_set_new(o, "reference", jnum(e->ref));
    else if (e->ref_txt) json_object_set_new(o, "reference", json_string(e->ref_txt));
    if (e->mid) {
      json_t *en = json_object();
      json_object_set_new(en, "mid", json_string(e->mid));
      json_object_set_new(en, "rad", json_string(e->rad));
      json_object_set_new(o, "enclosure", en);
    }
    if (e->has_ulps && e->kink < 0) {
      if (e->ulps <= (uint64_t)INT64_MAX) json_object_set_new(o, "ulps", json_integer((json_int_t)e->ulps));
      else json_object_set_new(o, "ulps", json_real((double)e->ulps));
    }
    if (!isnan(e->digits) && e->kink < 0)
      json_object_set_new(o, "digits", isinf(e->digits) ? json_null() : json_real(e->digits));
    if (e->note) json_object_set_new(o, "note", json_string(e->note));
    json_array_append_new(ents, o);
  }
  json_object_set_new(root, "entries", ents);
  json_t *ks = json_array();
  for (int i = 0; i < c->nk; i++) {
    const kink *K = &c->k[i];
    json_t *o = json_object();
    json_object_set_new(o, "part", json_string(K->part));
    json_object_set_new(o, "verdict", json_string(vd_key[K->verdict]));
    json_object_set_new(o, "differentiable", K->undecided ? json_string("undecided") : json_false());
    if (K->conventions) {
      json_t *keys = json_array();
      static const char *const names[] = {"one-sided", "average", "minimal-norm"};
      for (int b = 0; b < 3; b++)
        if (K->keys & (1 << b)) json_array_append_new(keys, json_string(names[b]));
      json_object_set_new(o, "conventions", keys);
      json_object_set_new(o, "matches", json_string(K->conventions));
    }
    json_object_set(o, "branch_points", json_object_get(K->ref, "branch_points"));
    json_object_set(o, "complete", json_object_get(K->ref, "complete"));
    json_t *sides = json_array();
    const json_t *lims = json_object_get(K->ref, "limits");
    for (size_t j = 0; j < json_array_size(lims); j++)
      json_array_append(sides, json_object_get(json_array_get(lims, j), "branches"));
    json_object_set_new(o, "limits", sides);
    json_array_append_new(ks, o);
  }
  json_object_set_new(root, "kinks", ks);
  char *s = json_dumps(root, JSON_REAL_PRECISION(17));
  json_decref(root);
  if (!s) return NULL;
  size_t n = strlen(s);
  char *t = realloc(s, n + 2);
  if (!t) { free(s); return NULL; }
  t[n] = '\n';
  t[n + 1] = '\0';
  return t;
}

/* ---- the entry point ------------------------------------------------------------- */
static int check_candidate_impl(chad_prog *p, const chad_check_opts *o, char **out, chad_diag *d) {
  int rc0 = api_check(p, out, d);   /* the preconditions of every command (chad.h) */
  if (rc0) return rc0;
  if (!o) return diag_set(d, CHAD_EXIT_USAGE, "", 0, 0, "libchad: the options are NULL");
  if (!o->candidate || !o->candidate->text)
    return diag_set(d, CHAD_EXIT_USAGE, "", 0, 0, "check needs --candidate");
  if (o->rtol < 0 || o->ulps < 0 || isnan(o->rtol))
    return diag_set(d, CHAD_EXIT_USAGE, "", 0, 0, "the tolerance must not be negative");
  ctx *c = calloc(1, sizeof *c);
  if (!c) return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory");
  c->o = o;
  c->p = p;
  c->d = d;
  c->cfile = o->candidate->name ? o->candidate->name : "<candidate>";
  char *text = malloc(o->candidate->len + 1);
  json_t *root = NULL;
  int rc = 0;
  chad_evaluator saved_ev = api_evaluator();
  int saved_cert = api_certificate();
  if (!text) { rc = diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory"); goto done; }
  memcpy(text, o->candidate->text, o->candidate->len);
  text[o->candidate->len] = '\0';
  replace_nonstandard(text, o->candidate->len);
  c->ctext = text;
  c->clen = o->candidate->len;
  /* the JSON inputs' reader: their size limit, the heap limit on its
   * memory, positions, integers beyond int64 for reals */
  json_error_t jerr;   /* for the references, chad's own output */
  root = json_tree_parse(text, c->clen, c->cfile, &c->ints_as_real, d);
  if (!root) {
    rc = d->exit_code;
    goto done;
  }
  /* The candidate's parts: an object with the keys of chad's outputs, or a
   * bare value (chad eval's output). */
  const json_t *parts[P_N] = {0};
  int is_obj = 0;
  if (json_is_object(root))   /* a value is an object only as a sum, {"inl": a} or {"inr": b} */
    is_obj = !(json_object_size(root) == 1 &&
               (json_object_get(root, "inl") || json_object_get(root, "inr")));
  if (is_obj) {
    const char *kk;
    json_t *vv;
    json_object_foreach(root, kk, vv) {
      int known = strcmp(kk, "certificate") == 0;
      for (int i = 0; i < P_N; i++)
        if (strcmp(kk, part_key[i]) == 0) { parts[i] = vv; known = 1; }
      int verdict_key = strcmp(kk, "not_differentiable") == 0 || strcmp(kk, "differentiable") == 0;
      if (!known || verdict_key) {
        size_t m = path_push_key(c, kk);
        rc = verdict_key
                 ? cand_error(c, 1, "a not-differentiable verdict is not a candidate: give one "
                                    "element of the convex hull (e.g. one limit's result)")
                 : cand_error(c, 1, "unknown key (expected value, gradient, jacobian, tangent, "
                                    "cotangent, jvp, vjp)");
        path_pop(c, m);
        goto done;
      }
    }
  } else parts[P_VALUE] = root;
  int any = 0;
  for (int i = 0; i < P_N; i++) any |= parts[i] != NULL;
  if (!any) { rc = cand_error(c, 0, "nothing to check (no value, gradient, jacobian, ...)"); goto done; }
  if (parts[P_TAN] && (!o->tangent || !o->tangent->text)) {
    rc = diag_set(d, CHAD_EXIT_USAGE, "", 0, 0, "the candidate has a \"tangent\": give its direction "
                  "with --tangent, or write it as \"jvp\": {\"direction\": ..., \"tangent\": ...}");
    goto done;
  }
  if (parts[P_COT] && (!o->cotangent || !o->cotangent->text)) {
    rc = diag_set(d, CHAD_EXIT_USAGE, "", 0, 0, "the candidate has a \"cotangent\": give its direction "
                  "with --cotangent, or write it as \"vjp\": {\"direction\": ..., \"cotangent\": ...}");
    goto done;
  }
  /* The result's type, to tell ints from reals in the value. */
  int k = chad_fn(p, o->fn, d);
  if (k < 0) { rc = -k; goto done; }
  fn_info fi;
  int value_ty = -1;
  chad_set_evaluator(CHAD_EVAL_BALL);
  chad_set_certificate(1);
  for (int part = 0; part < P_N && !rc; part++) {
    if (!parts[part]) continue;
    if (part == P_VALUE) {
      /* elaborated again by each command: the type is read after the run */
      char *tmp = NULL;
      rc = chad_eval(p, o->fn, o->args, &tmp, d);
      if (rc && rc != CHAD_EXIT_NONDIFF && rc != CHAD_EXIT_UNDECIDED) { free(tmp); break; }
      rc = 0;
      json_t *ref = tmp ? json_loads(tmp, 0, &jerr) : NULL;
      free(tmp);
      if ((rc = api_elab(p, k, 1, &fi, d))) { json_decref(ref); break; }
      value_ty = fi.result;
      if (!ref) {
        size_t m = path_push_key(c, "value");
        vd_entry *e = new_entry(c);
        if (e) {
          e->verdict = VD_UNDECIDED;
          e->ref_txt = xstrdup(c, "undecided");
          e->note = xstrdup(c, d->msg);
        }
        path_pop(c, m);
        continue;
      }
      enc_iter it = {json_object_get(json_object_get(ref, "certificate"), "enclosures"), 0};
      size_t m = path_push_key(c, "value");
      if (!is_obj) c->depth--;   /* a bare value: "value" names it, it is no step in the text */
      rc = walk_value(c, value_ty, json_object_get(ref, "value"), parts[part], &it);
      if (!is_obj) c->depth++;
      path_pop(c, m);
      json_decref(ref);
      continue;
    }
    rc = grade_part(c, part, parts[part]);
  }
  if (!rc && c->oom) rc = diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory");
  if (!rc) {
    int cnt[VD_UNDECIDED + 1] = {0};
    for (int i = 0; i < c->n; i++) cnt[c->e[i].verdict]++;
    if (o->json) *out = write_json(c, cnt);
    else {
      chad_buf b;
      buf_init(&b);
      char fname[300];
      const char *name = surf_def_name(p->sp, k);
      snprintf(fname, sizeof fname, "%s (%s)", name ? name : "?", p->file);
      write_table(c, &b, cnt, fname);
      if (b.oom) buf_free(&b);
      else *out = b.data;
    }
    if (!*out) rc = diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory writing the report");
    else rc = exit_of(cnt);
  }
done:
  chad_set_evaluator(saved_ev);
  chad_set_certificate(saved_cert);
  json_tree_free(root);
  free(text);
  for (int i = 0; i < c->n; i++) entry_free(&c->e[i]);
  free(c->e);
  for (int i = 0; i < c->nk; i++) {
    free(c->k[i].part);
    free(c->k[i].conventions);
    json_decref(c->k[i].ref);
  }
  free(c->k);
  free(c);
  return rc;
}

/* on a large stack (api_stack.c) */
static int check_candidate_run(api_call *c) { return check_candidate_impl(c->p, c->a, c->out, c->d); }
int chad_check_candidate(chad_prog *p, const chad_check_opts *o, char **out, chad_diag *d) {
  api_call c = {check_candidate_run, p, NULL, o, NULL, 0, out, d, 0};
  return api_deep(&c);
}
