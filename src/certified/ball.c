/* Ball arithmetic on values and the primitives over Arb balls (ball.h).
 *
 * Each primitive computes an enclosure of the exact real function of its
 * exact (ball) arguments at cert.prec bits. Three outcomes besides a
 * finite enclosure (spec/certified.md):
 *  - undefined: the function or derivative does not exist at the point
 *    (log of a negative number, sqrt's derivative at 0, division by 0): an
 *    indeterminate ball, and an event that says where it was born;
 *  - imprecise: the arguments' balls are too wide to decide (a ball that
 *    straddles 0 for log, two overlapping balls compared): cert.imprecise,
 *    and the run is repeated at a higher precision;
 *  - a branch point, in a derivative run: equal numbers compared, max/min
 *    of equal numbers, abs' derivative at 0. The branch given in
 *    cert.choices is taken; without one the run stops (cert.tie).
 */
#include "certified/ball.h"

#include <stdlib.h>
#include <string.h>

#include <arb_hypgeom.h>

#include "chad/eval.h"
#include "chad/primitives.h"

cert_state cert = {.prec = 64, .cur_term = -1};

/* ---- storage ------------------------------------------------------------- */
#define BLOCK 256
struct ball_block {
  struct ball_block *next;
  int used;
  struct ball_real b[BLOCK];
};
struct ball_store {
  struct ball_block *blocks;
};

struct ball_store *ball_store_new(void) { return calloc(1, sizeof(struct ball_store)); }

void ball_store_free(struct ball_store *s) {
  if (!s) return;
  for (struct ball_block *k = s->blocks, *n; k; k = n) {
    n = k->next;
    for (int i = 0; i < k->used; i++) {
      arb_clear(&k->b[i].b);
      if (k->b[i].tan) _arb_vec_clear(k->b[i].tan, k->b[i].ntan + 1);
    }
    free(k);
  }
  free(s);
}

struct ball_store *heap_ball_store(heap *h);   /* heap.c */

const value *v_ball(heap *h, const arb_t x) {
  struct ball_store *s = heap_ball_store(h);
  if (!s) return NULL;
  /* the limbs are malloc'd by Arb: charge about their size to the heap */
  size_t limbs = (size_t)(cert.prec / 64 + 2) * 8;
  if (!heap_alloc(h, limbs)) return NULL;
  if (!s->blocks || s->blocks->used == BLOCK) {
    struct ball_block *k = malloc(sizeof *k);
    if (!k) return NULL;
    k->next = s->blocks;
    k->used = 0;
    s->blocks = k;
  }
  struct ball_real *br = &s->blocks->b[s->blocks->used++];
  arb_init(&br->b);
  arb_set(&br->b, x);
  br->tan = NULL;
  br->ntan = 0;
  value *v = heap_alloc(h, sizeof *v);
  if (!v) return NULL;
  v->kind = V_REAL;
  v->u.r = arf_get_d(arb_midref(x), ARF_RND_NEAR);
  v->u.ball = br;
  return v;
}

int ball_get(const value *v, arb_t out) {
  if (!v) return 0;
  if (v->kind == V_ZERO) { arb_zero(out); return 1; }
  if (v->kind != V_REAL) return 0;
  if (v->u.ball) arb_set(out, &v->u.ball->b);
  else arb_set_d(out, v->u.r);
  return 1;
}

/* ---- tangent runs ----------------------------------------------------------- */
/* The partials a real carries (NULL: exactly 0). */
static arb_srcptr tan_of(const value *v) {
  if (!cert.tan_n || !v || v->kind != V_REAL || !v->u.ball) return NULL;
  return v->u.ball->tan;
}

/* Gives the real v (made by v_ball, so its ball is ours) the partials
 * sa ta + sb tb (a NULL t is 0, a NULL s is 1); all unknown when unknown is
 * set. 0, or -1 when out of memory. */
static int derived(arb_srcptr t) { return t && arb_is_one(t + cert.tan_n); }

static int set_tan(heap *h, const value *v, arb_srcptr sa, arb_srcptr ta, arb_srcptr sb,
                   arb_srcptr tb, int unknown, int side) {
  if (!cert.tan_n || !v || v->kind != V_REAL || !v->u.ball || (!ta && !tb && !unknown)) return 0;
  struct ball_real *br = (struct ball_real *)v->u.ball;
  if (!heap_alloc(h, (size_t)cert.tan_n * (size_t)(cert.prec / 64 + 4) * 8)) return -1;
  arb_ptr t = _arb_vec_init(cert.tan_n + 1);
  if (side || derived(ta) || derived(tb)) arb_one(t + cert.tan_n);
  arb_t u;
  arb_init(u);
  for (slong k = 0; k < cert.tan_n; k++) {
    if (unknown) { arb_indeterminate(t + k); continue; }
    if (ta) {
      if (sa) arb_mul(t + k, sa, ta + k, cert.prec);
      else arb_set(t + k, ta + k);
    }
    if (tb) {
      if (sb) arb_mul(u, sb, tb + k, cert.prec);
      else arb_set(u, tb + k);
      arb_add(t + k, t + k, u, cert.prec);
    }
  }
  arb_clear(u);
  if (br->tan) _arb_vec_clear(br->tan, br->ntan + 1);
  br->tan = t;
  br->ntan = cert.tan_n;
  return 0;
}

/* Whether any real inside v carries partials. */
static int any_tan(const value *v) {
  if (!v || !cert.tan_n) return 0;
  switch (v->kind) {
  case V_REAL: return tan_of(v) != NULL;
  case V_PAIR: return any_tan(v->u.pair.a) || any_tan(v->u.pair.b);
  case V_ARRAY:
    for (int64_t i = 0; i < v->u.arr.n; i++)
      if (any_tan(v->u.arr.elems[i])) return 1;
    return 0;
  default: return 0;
  }
}

/* Every real inside v: unknown partials (an array primitive's result:
 * conservative, spec/certified.md §3). */
static int mark_unknown(heap *h, const value *v) {
  if (!v) return 0;
  switch (v->kind) {
  case V_REAL: return set_tan(h, v, NULL, NULL, NULL, NULL, 1, 0);
  case V_PAIR: return mark_unknown(h, v->u.pair.a) || mark_unknown(h, v->u.pair.b) ? -1 : 0;
  case V_ARRAY:
    for (int64_t i = 0; i < v->u.arr.n; i++)
      if (mark_unknown(h, v->u.arr.elems[i])) return -1;
    return 0;
  default: return 0;
  }
}

/* Entry k of the seeded tangent of input coordinate pos: the unit vector
 * e_pos when there are no more coordinates than tangents, else a fixed
 * pseudo-random direction, entries in [-1, 1) with 20-bit significands
 * (exact balls). Any directions do: certify.c checks its cone on them. */
static void seed_entry(arb_t t, slong pos, slong k) {
  if (cert.tan_total <= cert.tan_n) { arb_set_si(t, pos == k); return; }
  uint64_t z = (uint64_t)pos * 0x9E3779B97F4A7C15u + (uint64_t)k * 0xD1B54A32D192ED03u + 1;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  z ^= z >> 31;
  arb_set_si(t, (slong)(z >> 44) - (1 << 19));
  arb_mul_2exp_si(t, t, -19);
}

static const value *seed(heap *h, const value *v, slong *pos) {
  if (!v) return NULL;
  switch (v->kind) {
  case V_REAL: {
    slong p = (*pos)++;
    arb_t x;
    arb_init(x);
    ball_get(v, x);
    const value *r = v_ball(h, x);
    arb_clear(x);
    if (!r) return NULL;
    struct ball_real *br = (struct ball_real *)r->u.ball;
    if (!heap_alloc(h, (size_t)(cert.tan_n + 1) * 16)) return NULL;
    br->tan = _arb_vec_init(cert.tan_n + 1);
    br->ntan = cert.tan_n;
    for (slong k = 0; k < cert.tan_n; k++) seed_entry(br->tan + k, p, k);
    return r;
  }
  case V_PAIR: {
    const value *a = seed(h, v->u.pair.a, pos);
    const value *b = a ? seed(h, v->u.pair.b, pos) : NULL;
    return b ? v_pair(h, a, b) : NULL;
  }
  case V_INL:
  case V_INR: {
    const value *a = seed(h, v->u.pair.a, pos);
    return a ? (v->kind == V_INL ? v_inl(h, a) : v_inr(h, a)) : NULL;
  }
  case V_ARRAY: {
    value *a = v_array(h, v->u.arr.n);
    if (!a) return NULL;
    for (int64_t i = 0; i < v->u.arr.n; i++)
      if (!(a->u.arr.elems[i] = seed(h, v->u.arr.elems[i], pos))) return NULL;
    return a;
  }
  default: return v;
  }
}

static slong count_coords(const value *v) {
  if (!v) return 0;
  switch (v->kind) {
  case V_REAL: return 1;
  case V_PAIR: return count_coords(v->u.pair.a) + count_coords(v->u.pair.b);
  case V_INL: case V_INR: return count_coords(v->u.pair.a);
  case V_ARRAY: {
    slong s = 0;
    for (int64_t i = 0; i < v->u.arr.n; i++) s += count_coords(v->u.arr.elems[i]);
    return s;
  }
  default: return 0;
  }
}

int ball_seed_args(heap *h, int n, const value **argv) {
  slong total = 0, pos = 0;
  for (int i = 0; i < n; i++) total += count_coords(argv[i]);
  cert.tan_total = total;
  if (cert.tan_n > total) cert.tan_n = total;
  for (int i = 0; i < n && cert.tan_n; i++)
    if (!(argv[i] = seed(h, argv[i], &pos))) return -1;
  return 0;
}

const value *ball_add_values(heap *h, const value *a, const value *b) {
  arb_t x, y;
  arb_init(x);
  arb_init(y);
  ball_get(a, x);
  ball_get(b, y);
  arb_add(x, x, y, cert.prec);
  const value *r = v_ball(h, x);
  arb_clear(x);
  arb_clear(y);
  if (r && set_tan(h, r, NULL, tan_of(a), NULL, tan_of(b), 0, 0)) return NULL;
  return r;
}

/* ---- sites: branch points and births of undefined values ---------------- */
static void site_set(cert_site *s, int kind, int op, const arf_t key) {
  s->kind = kind;
  s->op = op;
  arf_init(&s->key);
  arf_set(&s->key, key);
  s->choice = -1;
  s->term = -1;
  s->why = NULL;
  s->occ = 0;
}

/* How often each (kind, key) has been met as a tie in this run. */
typedef struct occ_count {
  int kind;
  arf_struct key;
  int n;
} occ_count;
static occ_count *occs;
static int n_occs, cap_occs;

void ball_reset_occurrences(void) {
  for (int i = 0; i < n_occs; i++) arf_clear(&occs[i].key);
  n_occs = 0;
}

/* The next occurrence number of (kind, key); 0 when out of memory. */
static int next_occurrence(int kind, const arf_t key) {
  for (int i = 0; i < n_occs; i++)
    if (occs[i].kind == kind && arf_equal(&occs[i].key, key)) return ++occs[i].n;
  if (n_occs == cap_occs) {
    int cap = cap_occs ? cap_occs * 2 : 16;
    occ_count *o = realloc(occs, (size_t)cap * sizeof *o);
    if (!o) return 0;
    occs = o;
    cap_occs = cap;
  }
  occs[n_occs].kind = kind;
  arf_init(&occs[n_occs].key);
  arf_set(&occs[n_occs].key, key);
  occs[n_occs].n = 1;
  return occs[n_occs++].n;
}

static int site_eq(const cert_site *s, int kind, int op, const arf_t key) {
  if (s->kind != kind || !arf_equal(&s->key, key)) return 0;
  return kind != CS_DOMAIN || s->op == op;
}

/* In a lookup run: the current term is the source site of (kind, op, key). */
static void lookup(int kind, int op, const arf_t key) {
  if (!cert.lookup) return;
  if (cert.tie && cert.tie_site.term < 0 && site_eq(&cert.tie_site, kind, op, key))
    cert.tie_site.term = cert.cur_term;
  for (int i = 0; i < cert.n_choices; i++)
    if (cert.choices[i].term < 0 && site_eq(&cert.choices[i], kind, op, key))
      cert.choices[i].term = cert.cur_term;
  for (int i = 0; i < cert.n_events; i++)
    if (cert.events[i].term < 0 && site_eq(&cert.events[i], kind, op, key))
      cert.events[i].term = cert.cur_term;
}

/* The branch to take at a tie: 0 or 1; -1 when the run must stop here. Each
 * occurrence of a tie of one kind at one value is its own branch point
 * (relu applied to two zeros has four combinations of sides). */
/* The partials of the operands of the op being evaluated (tangent runs;
 * NULL: 0): a tie's difference is tie_a - tie_b. */
static arb_srcptr tie_a, tie_b;
/* Partials computed for a primal result: a tie there takes the side of the
 * choices of its kind and value (quiet_side set), if they agree. */
static int quiet, quiet_side;

static void record_tie_grad(int i) {
  arb_ptr g = cert.tie_grad[i];
  if (!cert.tan_n || !g) return;
  if (derived(tie_a) || derived(tie_b)) cert.derived_used = 1;
  for (slong k = 0; k < cert.tan_n; k++) {
    if (tie_a) arb_set(g + k, tie_a + k);
    else arb_zero(g + k);
    if (tie_b) arb_sub(g + k, g + k, tie_b + k, cert.prec);
  }
  cert.tie_grad_set[i] = 1;
}

static int tie_choice(int kind, int op, const arf_t key) {
  if (quiet) {
    /* a primal result's partials at a tie: the side the run takes at every
     * tie of this kind and value, if it takes one side at all of them */
    int side = -1, first = -1;
    for (int i = 0; i < cert.n_choices; i++)
      if (site_eq(&cert.choices[i], kind, op, key)) {
        if (side >= 0 && side != cert.choices[i].choice) return -1;
        side = cert.choices[i].choice;
        if (first < 0) first = i;
      }
    if (first >= 0 && !cert.uncounted) cert.quiet_hits[first]++;   /* checked against the choices: certify.c */
    if (side >= 0) quiet_side = 1;
    return side;
  }
  lookup(kind, op, key);
  int occ = next_occurrence(kind, key);
  for (int i = 0; i < cert.n_choices; i++)
    if (cert.choices[i].occ == occ && site_eq(&cert.choices[i], kind, op, key)) {
      record_tie_grad(i);
      return cert.choices[i].choice;
    }
  if (!cert.tie) {
    cert.tie = 1;
    site_set(&cert.tie_site, kind, op, key);
    cert.tie_site.occ = occ;
  }
  return -1;
}

/* y := undefined, born at op's argument key for the reason why. */
static void undefined(arb_t y, int op, const arf_t key, const char *why) {
  arb_indeterminate(y);
  lookup(CS_DOMAIN, op, key);
  for (int i = 0; i < cert.n_events; i++)
    if (site_eq(&cert.events[i], CS_DOMAIN, op, key)) return;
  if (cert.n_events < CERT_MAX_EVENTS) {
    cert_site *s = &cert.events[cert.n_events++];
    site_set(s, CS_DOMAIN, op, key);
    s->why = why;
  }
}

static void imprecise(arb_t y) {
  arb_indeterminate(y);
  cert.imprecise = 1;
}

/* A non-finite result from finite arguments is imprecision unless the
 * caller decided otherwise. */
static void check_finite(arb_t y, const arb_t x) {
  if (!arb_is_finite(y) && arb_is_finite(x)) imprecise(y);
}

/* The operands of the binary op being evaluated are one value (x == x,
 * max x x): the same real, equal whatever their balls' width. */
static int same_operands;

/* Compares two balls: -1 x < y, 1 x > y, 0 equal (both exact, or one
 * value), 2 unknown. */
static int cmp3(const arb_t x, const arb_t y) {
  if (same_operands) return 0;
  if (arb_lt(x, y)) return -1;
  if (arb_gt(x, y)) return 1;
  if (arb_is_exact(x) && arb_is_exact(y) && arb_equal(x, y)) return 0;
  return 2;
}

static int is_exact_zero(const arb_t x) { return arb_is_zero(x); }

/* ---- the real functions and their derivatives ----------------------------- */
static void sigmoid(arb_t y, const arb_t x, slong p) {
  arb_neg(y, x);
  arb_exp(y, y, p);
  arb_add_ui(y, y, 1, p);
  arb_inv(y, y, p);
}

/* log |Gamma(x)| (C's lgamma): Arb's for x > 0, the reflection
 * log(pi / |sin(pi x)|) - log Gamma(1 - x) below; +infinity at the poles. */
static void lgamma_abs(arb_t y, const arb_t x, slong p) {
  if (arb_is_positive(x)) { arb_lgamma(y, x, p); return; }
  arb_t t, u;
  arb_init(t);
  arb_init(u);
  arb_sub_ui(t, x, 1, p);
  arb_neg(t, t);                       /* 1 - x */
  arb_lgamma(u, t, p);
  arb_sin_pi(t, x, p);
  arb_abs(t, t);
  arb_const_pi(y, p);
  arb_div(y, y, t, p);
  arb_log(y, y, p);
  arb_sub(y, y, u, p);
  arb_clear(t);
  arb_clear(u);
}

static int is_nonpositive_int(const arb_t x) {
  return arb_is_exact(x) && arf_is_int(arb_midref(x)) && arf_sgn(arb_midref(x)) <= 0;
}

/* 2/sqrt(pi) exp(-x^2) */
static void gauss(arb_t y, const arb_t x, slong p) {
  arb_t t;
  arb_init(t);
  arb_sqr(y, x, p);
  arb_neg(y, y);
  arb_exp(y, y, p);
  arb_const_sqrt_pi(t, p);
  arb_div(y, y, t, p);
  arb_mul_2exp_si(y, y, 1);
  arb_clear(t);
}

/* y = op(x) for the unary real ops. Returns 0, or -1 when the run stops. */
static int real1(int op, arb_t y, const arb_t x) {
  slong p = cert.prec;
  switch (op) {
  case P_NEG: arb_neg(y, x); return 0;
  case P_SIN: arb_sin(y, x, p); break;
  case P_COS: arb_cos(y, x, p); break;
  case P_TAN: arb_tan(y, x, p); break;
  case P_EXP: arb_exp(y, x, p); break;
  case P_TANH: arb_tanh(y, x, p); break;
  case P_SIGMOID: sigmoid(y, x, p); break;
  case P_ABS:
    arb_abs(y, x);
    if (is_exact_zero(x)) lookup(CS_ABS, op, arb_midref(x));
    return 0;
  case P_LOG:
    if (is_exact_zero(x)) { arb_neg_inf(y); lookup(CS_DOMAIN, op, arb_midref(x)); return 0; }
    if (arb_is_negative(x)) { undefined(y, op, arb_midref(x), "log of a negative number"); return 0; }
    arb_log(y, x, p);
    break;
  case P_SQRT:
    if (is_exact_zero(x)) { arb_zero(y); lookup(CS_DOMAIN, op, arb_midref(x)); return 0; }
    if (arb_is_negative(x)) { undefined(y, op, arb_midref(x), "sqrt of a negative number"); return 0; }
    arb_sqrt(y, x, p);
    break;
  case P_LOG1P: {
    arb_t t;
    arb_init(t);
    arb_add_ui(t, x, 1, p);
    int z = arb_is_zero(t), neg = arb_is_negative(t);
    arb_clear(t);
    if (z) { arb_neg_inf(y); return 0; }
    if (neg) { undefined(y, op, arb_midref(x), "log1p below -1"); return 0; }
    arb_log1p(y, x, p);
    break;
  }
  case P_EXPM1: arb_expm1(y, x, p); break;
  case P_SOFTPLUS: arb_exp(y, x, p); arb_log1p(y, y, p); break;
  case P_ATAN: arb_atan(y, x, p); break;
  case P_ERF: arb_hypgeom_erf(y, x, p); break;
  case P_ERFC: arb_hypgeom_erfc(y, x, p); break;
  case P_LGAMMA:
    if (is_nonpositive_int(x)) { arb_pos_inf(y); lookup(CS_DOMAIN, op, arb_midref(x)); return 0; }
    lgamma_abs(y, x, p);
    break;
  case P_SINH: arb_sinh(y, x, p); break;
  case P_COSH: arb_cosh(y, x, p); break;
  case P_ASINH: arb_asinh(y, x, p); break;
  case P_ACOSH: {
    arb_t t;
    arb_init(t);
    arb_sub_ui(t, x, 1, p);
    int neg = arb_is_negative(t);
    arb_clear(t);
    if (neg) { undefined(y, op, arb_midref(x), "acosh below 1"); return 0; }
    arb_acosh(y, x, p);
    break;
  }
  case P_ATANH: {
    arb_t t;
    arb_init(t);
    arb_abs(t, x);
    arb_sub_ui(t, t, 1, p);
    int one = arb_is_zero(t), out = arb_is_positive(t);
    arb_clear(t);
    if (one) {
      if (arf_sgn(arb_midref(x)) > 0) arb_pos_inf(y); else arb_neg_inf(y);
      lookup(CS_DOMAIN, op, arb_midref(x));
      return 0;
    }
    if (out) { undefined(y, op, arb_midref(x), "atanh outside [-1, 1]"); return 0; }
    arb_atanh(y, x, p);
    break;
  }
  case P_EXP2: {
    arb_t two;
    arb_init(two);
    arb_set_ui(two, 2);
    arb_pow(y, two, x, p);
    arb_clear(two);
    break;
  }
  case P_LOG2: {
    if (is_exact_zero(x)) { arb_neg_inf(y); lookup(CS_DOMAIN, op, arb_midref(x)); return 0; }
    if (arb_is_negative(x)) { undefined(y, op, arb_midref(x), "log2 of a negative number"); return 0; }
    arb_t l;
    arb_init(l);
    arb_log(y, x, p);
    arb_const_log2(l, p);
    arb_div(y, y, l, p);
    arb_clear(l);
    break;
  }
  default: arb_indeterminate(y); return 0;
  }
  check_finite(y, x);
  return 0;
}

/* y = op'(x). Returns 0, or -1 when the run stops at a branch point. */
static int deriv1(int op, arb_t y, const arb_t x) {
  slong p = cert.prec;
  switch (op) {
  case P_NEG: arb_set_si(y, -1); return 0;
  case P_SIN: arb_cos(y, x, p); break;
  case P_COS: arb_sin(y, x, p); arb_neg(y, y); break;
  case P_TAN: arb_cos(y, x, p); arb_sqr(y, y, p); arb_inv(y, y, p); break;   /* sec^2 */
  case P_EXP: arb_exp(y, x, p); break;
  case P_TANH: arb_sech(y, x, p); arb_sqr(y, y, p); break;                    /* sech^2 */
  case P_SIGMOID:                                   /* 1 / (4 cosh^2(x/2)) */
    arb_mul_2exp_si(y, x, -1);
    arb_cosh(y, y, p);
    arb_sqr(y, y, p);
    arb_mul_2exp_si(y, y, 2);
    arb_inv(y, y, p);
    break;
  case P_LOG:
    if (is_exact_zero(x)) { undefined(y, op, arb_midref(x), "log's derivative at 0"); return 0; }
    if (arb_is_negative(x)) { undefined(y, op, arb_midref(x), "log of a negative number"); return 0; }
    arb_inv(y, x, p);
    break;
  case P_SQRT:
    if (is_exact_zero(x)) { undefined(y, op, arb_midref(x), "sqrt's derivative at 0 (infinite)"); return 0; }
    if (arb_is_negative(x)) { undefined(y, op, arb_midref(x), "sqrt of a negative number"); return 0; }
    arb_sqrt(y, x, p);
    arb_mul_2exp_si(y, y, 1);
    arb_inv(y, y, p);
    break;
  case P_ABS: {
    int c = arb_is_positive(x) ? 1 : arb_is_negative(x) ? -1 : is_exact_zero(x) ? 0 : 2;
    if (c == 2) { imprecise(y); return 0; }
    if (c == 0) {
      int ch = tie_choice(CS_ABS, op, arb_midref(x));
      if (ch < 0) return -1;
      c = ch == 0 ? -1 : 1;
    }
    arb_set_si(y, c);
    return 0;
  }
  case P_LOG1P: {
    arb_t t;
    arb_init(t);
    arb_add_ui(t, x, 1, p);
    if (arb_is_zero(t) || arb_is_negative(t)) undefined(y, op, arb_midref(x), "log1p's derivative at or below -1");
    else arb_inv(y, t, p);
    arb_clear(t);
    if (!arb_is_finite(y)) return 0;
    break;
  }
  case P_EXPM1: arb_exp(y, x, p); break;
  case P_SOFTPLUS: sigmoid(y, x, p); break;
  case P_ATAN: arb_sqr(y, x, p); arb_add_ui(y, y, 1, p); arb_inv(y, y, p); break;
  case P_ERF: gauss(y, x, p); break;
  case P_ERFC: gauss(y, x, p); arb_neg(y, y); break;
  case P_LGAMMA:
    if (is_nonpositive_int(x)) { undefined(y, op, arb_midref(x), "lgamma's derivative at a pole"); return 0; }
    arb_digamma(y, x, p);
    break;
  case P_SINH: arb_cosh(y, x, p); break;
  case P_COSH: arb_sinh(y, x, p); break;
  case P_ASINH: arb_sqr(y, x, p); arb_add_ui(y, y, 1, p); arb_rsqrt(y, y, p); break;
  case P_ACOSH: {
    arb_t t;
    arb_init(t);
    arb_sub_ui(t, x, 1, p);
    if (!arb_is_positive(t)) {
      if (arb_is_zero(t) || arb_is_negative(t)) undefined(y, op, arb_midref(x), "acosh's derivative at or below 1");
      else imprecise(y);
      arb_clear(t);
      return 0;
    }
    arb_add_ui(y, x, 1, p);
    arb_mul(y, y, t, p);
    arb_rsqrt(y, y, p);
    arb_clear(t);
    break;
  }
  case P_ATANH: {
    arb_t t;
    arb_init(t);
    arb_sqr(t, x, p);
    arb_sub_ui(t, t, 1, p);
    arb_neg(t, t);                      /* 1 - x^2 */
    if (!arb_is_positive(t)) {
      if (arb_is_zero(t) || arb_is_negative(t)) undefined(y, op, arb_midref(x), "atanh's derivative at or outside +-1");
      else imprecise(y);
      arb_clear(t);
      return 0;
    }
    arb_inv(y, t, p);
    arb_clear(t);
    break;
  }
  case P_EXP2: {
    arb_t two, l;
    arb_init(two);
    arb_init(l);
    arb_set_ui(two, 2);
    arb_pow(y, two, x, p);
    arb_const_log2(l, p);
    arb_mul(y, y, l, p);
    arb_clear(two);
    arb_clear(l);
    break;
  }
  case P_LOG2: {
    if (is_exact_zero(x)) { undefined(y, op, arb_midref(x), "log2's derivative at 0"); return 0; }
    if (arb_is_negative(x)) { undefined(y, op, arb_midref(x), "log2 of a negative number"); return 0; }
    arb_t l;
    arb_init(l);
    arb_const_log2(l, p);
    arb_mul(y, x, l, p);
    arb_inv(y, y, p);
    arb_clear(l);
    break;
  }
  default: arb_indeterminate(y); return 0;
  }
  check_finite(y, x);
  return 0;
}

static int is_int(const arb_t y) { return arb_is_exact(y) && arf_is_int(arb_midref(y)); }

/* z = op(x, y) for the binary real ops. */
static int real2(int op, arb_t z, const arb_t x, const arb_t y) {
  slong p = cert.prec;
  switch (op) {
  case P_ADD: arb_add(z, x, y, p); return 0;
  case P_SUB: arb_sub(z, x, y, p); return 0;
  case P_MUL: arb_mul(z, x, y, p); return 0;
  case P_DIV:
    if (is_exact_zero(y)) { undefined(z, op, arb_midref(y), "division by 0"); return 0; }
    arb_div(z, x, y, p);
    check_finite(z, y);
    return 0;
  case P_MAX:
  case P_MIN: {
    int c = cmp3(x, y);
    if (c == 2) { imprecise(z); return 0; }
    if (c == 0) lookup(op == P_MAX ? CS_MAX : CS_MIN, op, arb_midref(x));
    arb_set(z, op == P_MAX ? (c >= 0 ? x : y) : (c <= 0 ? x : y));
    return 0;
  }
  case P_POW:
    if (arb_is_zero(y)) { arb_one(z); return 0; }          /* pow(x, 0) = 1 */
    if (is_exact_zero(x)) {
      if (arb_is_positive(y)) { arb_zero(z); return 0; }
      if (arb_is_negative(y)) { arb_pos_inf(z); lookup(CS_DOMAIN, op, arb_midref(x)); return 0; }
      imprecise(z);
      return 0;
    }
    if (arb_is_negative(x) && !is_int(y)) {
      if (arb_is_exact(y)) { undefined(z, op, arb_midref(x), "pow of a negative base to a non-integer power"); return 0; }
      imprecise(z);
      return 0;
    }
    arb_pow(z, x, y, p);
    check_finite(z, x);
    return 0;
  case P_ATAN2:   /* atan2 x y with x the ordinate: the operands are (y, x) */
    if (is_exact_zero(x) && is_exact_zero(y)) { arb_zero(z); lookup(CS_DOMAIN, op, arb_midref(x)); return 0; }
    if (is_exact_zero(x) && arb_is_negative(y)) {
      /* on the branch cut: pi from above (and at y = +0, as C), -pi from below */
      int side = 1;
      if (cert.deriv) {
        tie_b = NULL;   /* the difference is the ordinate */
        side = tie_choice(CS_JUMP, op, arb_midref(y));
        if (side < 0) return -1;
      } else {
        lookup(CS_JUMP, op, arb_midref(y));
      }
      arb_const_pi(z, p);
      if (side == 0) arb_neg(z, z);
      return 0;
    }
    arb_atan2(z, x, y, p);
    check_finite(z, y);
    return 0;
  case P_HYPOT: arb_hypot(z, x, y, p); return 0;
  default: arb_indeterminate(z); return 0;
  }
}

/* Partial derivatives (px, py) of the binary real ops. */
static int deriv2(int op, arb_t px, arb_t py, const arb_t x, const arb_t y) {
  slong p = cert.prec;
  switch (op) {
  case P_ADD: arb_one(px); arb_one(py); return 0;
  case P_SUB: arb_one(px); arb_set_si(py, -1); return 0;
  case P_MUL: arb_set(px, y); arb_set(py, x); return 0;
  case P_DIV:
    if (is_exact_zero(y)) {
      undefined(px, op, arb_midref(y), "division by 0");
      arb_indeterminate(py);
      return 0;
    }
    arb_inv(px, y, p);                       /* 1/y     */
    arb_div(py, x, y, p);
    arb_div(py, py, y, p);
    arb_neg(py, py);                         /* -x/y^2  */
    check_finite(px, y);
    check_finite(py, y);
    return 0;
  case P_MAX:
  case P_MIN: {
    int c = cmp3(x, y);
    if (c == 2) { imprecise(px); imprecise(py); return 0; }
    int first = 1;   /* max x x: either side is x */
    if (c == 0 && !same_operands) {
      int ch = tie_choice(op == P_MAX ? CS_MAX : CS_MIN, op, arb_midref(x));
      if (ch < 0) return -1;
      first = ch == 0;
    } else if (c != 0) {
      first = op == P_MAX ? c > 0 : c < 0;
    }
    arb_set_si(px, first);
    arb_set_si(py, !first);
    return 0;
  }
  case P_POW: {
    /* d/dx = y x^(y-1); d/dy = x^y log x */
    arb_t t;
    arb_init(t);
    if (arb_is_zero(y)) {
      arb_zero(px);                               /* pow(x, 0) = 1 for every x */
      if (is_exact_zero(x)) undefined(py, op, arb_midref(x), "pow's derivative in y at (0, 0)");
      else if (arb_is_negative(x)) undefined(py, op, arb_midref(x), "pow's derivative in y at a negative base");
      else { arb_log(py, x, p); check_finite(py, x); }
    } else if (is_exact_zero(x)) {
      /* x^(y-1) at 0: 0 for y > 1, 1 for y = 1, infinite for y < 1 */
      arb_sub_ui(t, y, 1, p);
      if (arb_is_positive(t)) arb_zero(px);
      else if (arb_is_zero(t)) arb_one(px);
      else if (arb_is_negative(t)) undefined(px, op, arb_midref(x), "pow's derivative in x at 0 (infinite)");
      else imprecise(px);
      if (arb_is_positive(y)) arb_zero(py);              /* 0^y = 0 for y > 0 */
      else if (arb_is_negative(y)) undefined(py, op, arb_midref(x), "pow's derivative in y at 0");
      else imprecise(py);
    } else {
      arb_sub_ui(t, y, 1, p);
      if (arb_is_negative(x) && !is_int(y)) {
        undefined(px, op, arb_midref(x), "pow of a negative base to a non-integer power");
        undefined(py, op, arb_midref(x), "pow of a negative base to a non-integer power");
      } else {
        arb_pow(px, x, t, p);
        arb_mul(px, px, y, p);
        check_finite(px, x);
        if (arb_is_negative(x)) undefined(py, op, arb_midref(x), "pow's derivative in y at a negative base (no real logarithm)");
        else if (arb_is_positive(x)) {
          arb_pow(py, x, y, p);
          arb_log(t, x, p);
          arb_mul(py, py, t, p);
          check_finite(py, x);
        } else imprecise(py);
      }
    }
    arb_clear(t);
    return 0;
  }
  case P_ATAN2:
  case P_HYPOT: {
    if (is_exact_zero(x) && is_exact_zero(y)) {
      undefined(px, op, arb_midref(x), op == P_HYPOT ? "hypot's derivative at (0, 0)" : "atan2's derivative at (0, 0)");
      arb_indeterminate(py);
      return 0;
    }
    arb_t h;
    arb_init(h);
    arb_hypot(h, x, y, p);
    if (op == P_HYPOT) {          /* (x, y) / h */
      arb_div(px, x, h, p);
      arb_div(py, y, h, p);
    } else {                      /* of atan2(a, b): (b, -a) / h^2 */
      arb_sqr(h, h, p);
      arb_div(px, y, h, p);
      arb_div(py, x, h, p);
      arb_neg(py, py);
    }
    arb_clear(h);
    check_finite(px, x);
    check_finite(py, x);
    return 0;
  }
  default: arb_indeterminate(px); arb_indeterminate(py); return 0;
  }
}

/* lt/le/eq: 1 true, 0 false, -1 the run stops. In a derivative run a
 * comparison of equal numbers is a branch point whose two sides are its two
 * outcomes: for lt/le, the points where the first operand is below / above
 * the second; for eq, the point itself / the points around it. */
static int compare(int op, const arb_t x, const arb_t y) {
  int c = cmp3(x, y);
  if (c == 2) { cert.imprecise = 1; return -1; }
  if (c == 0 && !same_operands) {   /* x == x holds near the point too: not a branch */
    if (cert.deriv) {
      int ch = tie_choice(CS_CMP, op, arb_midref(x));
      if (ch < 0) return -1;
      return ch == 0;
    }
    lookup(CS_CMP, op, arb_midref(x));
  }
  switch (op) {
  case P_LT: return c < 0;
  case P_LE: return c <= 0;
  default: return c == 0;
  }
}

/* ---- values ----------------------------------------------------------------- */
static const char *E_OOM = "out of memory (heap limit reached)";
static const char *E_SHAPE = "primitive applied to a value of the wrong shape";

static int get_pair(const value *v, const value **a, const value **b) {
  if (!v) return 0;
  if (v->kind == V_PAIR) { *a = v->u.pair.a; *b = v->u.pair.b; return 1; }
  if (v->kind == V_ZERO) { *a = v; *b = v; return 1; }
  return 0;
}

static const value *mk(heap *h, const arb_t x, const char **err) {
  const value *v = v_ball(h, x);
  if (!v) *err = E_OOM;
  return v;
}

static const value *mk_pair(heap *h, const value *a, const value *b, const char **err) {
  if (!a || !b) return NULL;
  const value *p = v_pair(h, a, b);
  if (!p) *err = E_OOM;
  return p;
}

/* A vector of reals: the elements of a primal Arr Real, or a dense copy of
 * an Arr Real tangent of length n (V_ZERO, dense or sparse). */
typedef struct bvec {
  slong n;
  arb_ptr x;
} bvec;

static void bvec_clear(bvec *v) {
  if (v->x) _arb_vec_clear(v->x, v->n > 0 ? v->n : 1);
  v->x = NULL;
}

static int bvec_new(bvec *v, int64_t n) {
  v->n = (slong)n;
  v->x = _arb_vec_init(n > 0 ? (slong)n : 1);
  return v->x != NULL;
}

static int primal_vec(const value *a, bvec *v, const char **err) {
  v->x = NULL;
  if (!a || a->kind != V_ARRAY) {
    *err = a && a->kind == V_ZERO ? "array primitive applied to a length-free zero array" : E_SHAPE;
    return 0;
  }
  if (!bvec_new(v, a->u.arr.n)) { *err = E_OOM; return 0; }
  for (int64_t i = 0; i < a->u.arr.n; i++)
    if (!ball_get(a->u.arr.elems[i], v->x + i)) { *err = E_SHAPE; bvec_clear(v); return 0; }
  return 1;
}

static int add_tangent(const value *dv, bvec *v, slong off, slong n, const char **err) {
  arb_t t;
  if (!dv) { *err = E_SHAPE; return 0; }
  switch (dv->kind) {
  case V_ZERO: return 1;
  case V_ARRAY:
    if (dv->u.arr.n != n) { *err = "tangent array length differs from the argument's"; return 0; }
    arb_init(t);
    for (slong i = 0; i < n; i++) {
      if (!ball_get(dv->u.arr.elems[i], t)) { arb_clear(t); *err = E_SHAPE; return 0; }
      arb_add(v->x + off + i, v->x + off + i, t, cert.prec);
    }
    arb_clear(t);
    return 1;
  case V_SPARSE: {
    entry_iter it;
    entry_iter_init(&it, dv);
    const entry *e;
    int ok = 1;
    arb_init(t);
    while (ok && (e = entry_iter_next(&it))) {
      if (e->index < 0 || e->index >= n) { *err = "sparse tangent index out of bounds"; ok = 0; }
      else if (!ball_get(e->v, t)) { *err = E_SHAPE; ok = 0; }
      else arb_add(v->x + off + e->index, v->x + off + e->index, t, cert.prec);
    }
    if (ok && it.oom) { *err = E_OOM; ok = 0; }
    entry_iter_done(&it);
    arb_clear(t);
    return ok;
  }
  default: *err = E_SHAPE; return 0;
  }
}

static int tangent_vec(const value *dv, int64_t n, bvec *v, const char **err) {
  if (!bvec_new(v, n)) { *err = E_OOM; return 0; }
  if (!add_tangent(dv, v, 0, (slong)n, err)) { bvec_clear(v); return 0; }
  return 1;
}

static int primal_matrix(const value *a, slong m, bvec *v, slong *rows, const char **err) {
  v->x = NULL;
  if (!a || a->kind != V_ARRAY) { *err = E_SHAPE; return 0; }
  *rows = (slong)a->u.arr.n;
  if (*rows > 0 && m > 0 && *rows > (slong)(((size_t)1 << 40) / (size_t)m)) { *err = E_OOM; return 0; }
  if (!bvec_new(v, *rows * m)) { *err = E_OOM; return 0; }
  for (slong i = 0; i < *rows; i++) {
    const value *row = a->u.arr.elems[i];
    if (!row || row->kind != V_ARRAY) { *err = E_SHAPE; bvec_clear(v); return 0; }
    if (row->u.arr.n != m) {
      *err = "matvec: a matrix row's length differs from the vector's";
      bvec_clear(v);
      return 0;
    }
    for (slong j = 0; j < m; j++)
      if (!ball_get(row->u.arr.elems[j], v->x + i * m + j)) { *err = E_SHAPE; bvec_clear(v); return 0; }
  }
  return 1;
}

static int tangent_matrix(const value *dv, slong rows, slong m, bvec *v, const char **err) {
  if (!bvec_new(v, rows * m)) { *err = E_OOM; return 0; }
  if (!dv) { *err = E_SHAPE; bvec_clear(v); return 0; }
  if (dv->kind == V_ZERO) return 1;
  if (dv->kind == V_ARRAY) {
    if (dv->u.arr.n != rows) { *err = "tangent matrix has the wrong number of rows"; bvec_clear(v); return 0; }
    for (slong i = 0; i < rows; i++)
      if (!add_tangent(dv->u.arr.elems[i], v, i * m, m, err)) { bvec_clear(v); return 0; }
    return 1;
  }
  if (dv->kind == V_SPARSE) {
    entry_iter it;
    entry_iter_init(&it, dv);
    const entry *e;
    int ok = 1;
    while (ok && (e = entry_iter_next(&it))) {
      if (e->index < 0 || e->index >= rows) { *err = "sparse tangent index out of bounds"; ok = 0; }
      else ok = add_tangent(e->v, v, (slong)e->index * m, m, err);
    }
    if (ok && it.oom) { *err = E_OOM; ok = 0; }
    entry_iter_done(&it);
    if (!ok) bvec_clear(v);
    return ok;
  }
  *err = E_SHAPE;
  bvec_clear(v);
  return 0;
}

static const value *mk_vec(heap *h, arb_srcptr x, slong n, const char **err) {
  value *a = v_array(h, n);
  if (!a) { *err = E_OOM; return NULL; }
  for (slong i = 0; i < n; i++)
    if (!(a->u.arr.elems[i] = mk(h, x + i, err))) return NULL;
  return a;
}

static const value *mk_matrix(heap *h, arb_srcptr x, slong rows, slong m, const char **err) {
  value *a = v_array(h, rows);
  if (!a) { *err = E_OOM; return NULL; }
  for (slong i = 0; i < rows; i++)
    if (!(a->u.arr.elems[i] = mk_vec(h, x + i * m, m, err))) return NULL;
  return a;
}

/* logsumexp and softmax: shifted by the largest midpoint (any shift is exact
 * in real arithmetic; this one keeps the balls narrow). Entries that are
 * exactly -inf (log 0) contribute exp(-inf) = 0. */
static void shift_of(arb_t m, const bvec *a) {
  arf_struct *best = NULL;
  for (slong i = 0; i < a->n; i++)
    if (arb_is_finite(a->x + i) && (!best || arf_cmp(arb_midref(a->x + i), best) > 0))
      best = arb_midref(a->x + i);
  if (best) arb_set_arf(m, best);
  else arb_zero(m);
}

static int is_neg_inf(const arb_t x) { return arf_is_neg_inf(arb_midref(x)); }

/* out = logsumexp(a); sm (if not NULL) = softmax(a), as exp(x_i - m) / s:
 * never x_i - out, whose ball is as wide as |out| 2^-prec. */
static void lse(arb_t out, arb_ptr sm, const bvec *a) {
  slong p = cert.prec;
  arb_t m, s, t;
  arb_init(m);
  arb_init(s);
  arb_init(t);
  shift_of(m, a);
  arb_zero(s);
  int finite = 0;
  for (slong i = 0; i < a->n; i++) {
    if (is_neg_inf(a->x + i)) continue;
    finite = 1;
    arb_sub(t, a->x + i, m, p);
    arb_exp(t, t, p);
    arb_add(s, s, t, p);
  }
  if (!finite) {
    arb_neg_inf(out);   /* log of an empty sum */
    if (sm)
      for (slong i = 0; i < a->n; i++) arb_zero(sm + i);
  } else {
    arb_log(out, s, p);
    arb_add(out, out, m, p);
    if (sm)
      for (slong i = 0; i < a->n; i++) {
        if (is_neg_inf(a->x + i)) { arb_zero(sm + i); continue; }
        arb_sub(t, a->x + i, m, p);
        arb_exp(t, t, p);
        arb_div(sm + i, t, s, p);
      }
  }
  arb_clear(m);
  arb_clear(s);
  arb_clear(t);
}

static int two_vecs(const value *x, bvec *a, bvec *b, const char **err) {
  const value *xa, *xb;
  a->x = b->x = NULL;
  if (!get_pair(x, &xa, &xb)) { *err = E_SHAPE; return 0; }
  if (!primal_vec(xa, a, err)) return 0;
  if (!primal_vec(xb, b, err)) { bvec_clear(a); return 0; }
  if (a->n != b->n) {
    *err = "array primitive applied to arrays of different lengths";
    bvec_clear(a);
    bvec_clear(b);
    return 0;
  }
  return 1;
}

/* s (+)= <x, y>, one product and one sum at a time, each rounded at p bits:
 * the double evaluators' order of operations, so that the radius at 53 bits
 * bounds their rounding error (Arb's arb_dot rounds once, more tightly). */
static void dot_seq(arb_t s, int add, arb_srcptr x, arb_srcptr y, slong n, slong p) {
  arb_t t;
  arb_init(t);
  if (!add) arb_zero(s);
  for (slong i = 0; i < n; i++) {
    arb_mul(t, x + i, y + i, p);
    arb_add(s, s, t, p);
  }
  arb_clear(t);
}

static const value *array_eval(heap *h, int op, const value *x, const char **err) {
  slong p = cert.prec;
  bvec a = {0, NULL}, b = {0, NULL}, y = {0, NULL};
  const value *r = NULL, *xa, *xb;
  arb_t s;
  arb_init(s);
  switch (op) {
  case P_VADD:
  case P_VMUL:
    if (!two_vecs(x, &a, &b, err)) break;
    for (slong i = 0; i < a.n; i++)
      if (op == P_VADD) arb_add(a.x + i, a.x + i, b.x + i, p);
      else arb_mul(a.x + i, a.x + i, b.x + i, p);
    r = mk_vec(h, a.x, a.n, err);
    break;
  case P_DOT:
    if (!two_vecs(x, &a, &b, err)) break;
    dot_seq(s, 0, a.x, b.x, a.n, p);
    r = mk(h, s, err);
    break;
  case P_VSCALE:
    if (!get_pair(x, &xa, &xb) || !ball_get(xa, s)) { *err = E_SHAPE; break; }
    if (!primal_vec(xb, &a, err)) break;
    for (slong i = 0; i < a.n; i++) arb_mul(a.x + i, a.x + i, s, p);
    r = mk_vec(h, a.x, a.n, err);
    break;
  case P_MATVEC: {
    slong rows;
    if (!get_pair(x, &xa, &xb)) { *err = E_SHAPE; break; }
    if (!primal_vec(xb, &b, err) || !primal_matrix(xa, b.n, &a, &rows, err)) break;
    if (!bvec_new(&y, rows)) { *err = E_OOM; break; }
    for (slong i = 0; i < rows; i++) dot_seq(y.x + i, 0, a.x + i * b.n, b.x, b.n, p);
    r = mk_vec(h, y.x, rows, err);
    break;
  }
  case P_LOGSUMEXP:
    if (!primal_vec(x, &a, err)) break;
    lse(s, NULL, &a);
    r = mk(h, s, err);
    break;
  default: *err = E_SHAPE; break;
  }
  arb_clear(s);
  bvec_clear(&a);
  bvec_clear(&b);
  bvec_clear(&y);
  return r;
}

static const value *array_dop(heap *h, int op, const value *x, const value *dx, const char **err) {
  slong p = cert.prec;
  bvec a = {0, NULL}, b = {0, NULL}, da = {0, NULL}, db = {0, NULL}, y = {0, NULL};
  const value *r = NULL, *xa, *xb, *dxa = NULL, *dxb = NULL;
  arb_t s, t, ds;
  arb_init(s);
  arb_init(t);
  arb_init(ds);
  if (op != P_LOGSUMEXP && !get_pair(dx, &dxa, &dxb)) { *err = E_SHAPE; goto out; }
  switch (op) {
  case P_VADD:
  case P_VMUL:
  case P_DOT:
    if (!two_vecs(x, &a, &b, err) || !tangent_vec(dxa, a.n, &da, err) ||
        !tangent_vec(dxb, a.n, &db, err))
      break;
    if (op == P_DOT) {
      dot_seq(s, 0, b.x, da.x, a.n, p);
      dot_seq(s, 1, a.x, db.x, a.n, p);
      r = mk(h, s, err);
      break;
    }
    for (slong i = 0; i < a.n; i++) {
      if (op == P_VADD) arb_add(da.x + i, da.x + i, db.x + i, p);
      else {
        arb_mul(t, b.x + i, da.x + i, p);
        arb_addmul(t, a.x + i, db.x + i, p);
        arb_set(da.x + i, t);
      }
    }
    r = mk_vec(h, da.x, a.n, err);
    break;
  case P_VSCALE:
    if (!get_pair(x, &xa, &xb) || !ball_get(xa, s) || !ball_get(dxa, ds)) { *err = E_SHAPE; break; }
    if (!primal_vec(xb, &a, err) || !tangent_vec(dxb, a.n, &db, err)) break;
    for (slong i = 0; i < a.n; i++) {
      arb_mul(t, a.x + i, ds, p);
      arb_addmul(t, s, db.x + i, p);
      arb_set(db.x + i, t);
    }
    r = mk_vec(h, db.x, a.n, err);
    break;
  case P_MATVEC: {
    slong rows;
    if (!get_pair(x, &xa, &xb)) { *err = E_SHAPE; break; }
    if (!primal_vec(xb, &b, err) || !primal_matrix(xa, b.n, &a, &rows, err) ||
        !tangent_matrix(dxa, rows, b.n, &da, err) || !tangent_vec(dxb, b.n, &db, err))
      break;
    if (!bvec_new(&y, rows)) { *err = E_OOM; break; }
    for (slong i = 0; i < rows; i++) {
      dot_seq(y.x + i, 0, da.x + i * b.n, b.x, b.n, p);
      dot_seq(y.x + i, 1, a.x + i * b.n, db.x, b.n, p);
    }
    r = mk_vec(h, y.x, rows, err);
    break;
  }
  case P_LOGSUMEXP:
    if (!primal_vec(x, &a, err) || !tangent_vec(dx, a.n, &da, err)) break;
    if (!bvec_new(&y, a.n)) { *err = E_OOM; break; }
    lse(s, y.x, &a);
    dot_seq(t, 0, y.x, da.x, a.n, p);
    r = mk(h, t, err);
    break;
  default: *err = E_SHAPE; break;
  }
out:
  arb_clear(s);
  arb_clear(t);
  arb_clear(ds);
  bvec_clear(&a);
  bvec_clear(&b);
  bvec_clear(&da);
  bvec_clear(&db);
  bvec_clear(&y);
  return r;
}

static const value *array_dopT(heap *h, int op, const value *x, const value *v, const char **err) {
  slong p = cert.prec;
  bvec a = {0, NULL}, b = {0, NULL}, cv = {0, NULL}, c2 = {0, NULL};
  const value *r = NULL, *xa, *xb;
  arb_t w, s;
  arb_init(w);
  arb_init(s);
  switch (op) {
  case P_VADD:
  case P_VMUL:
    if (!two_vecs(x, &a, &b, err) || !tangent_vec(v, a.n, &cv, err)) break;
    if (op == P_VADD) {
      const value *c = mk_vec(h, cv.x, a.n, err);
      r = mk_pair(h, c, c, err);
      break;
    }
    if (!bvec_new(&c2, a.n)) { *err = E_OOM; break; }
    for (slong i = 0; i < a.n; i++) {
      arb_mul(c2.x + i, b.x + i, cv.x + i, p);
      arb_mul(cv.x + i, a.x + i, cv.x + i, p);
    }
    r = mk_pair(h, mk_vec(h, c2.x, a.n, err), mk_vec(h, cv.x, a.n, err), err);
    break;
  case P_DOT:
    if (!ball_get(v, w)) { *err = E_SHAPE; break; }
    if (!two_vecs(x, &a, &b, err)) break;
    for (slong i = 0; i < a.n; i++) {
      arb_mul(s, a.x + i, w, p);
      arb_mul(a.x + i, b.x + i, w, p);
      arb_set(b.x + i, s);
    }
    r = mk_pair(h, mk_vec(h, a.x, a.n, err), mk_vec(h, b.x, a.n, err), err);
    break;
  case P_VSCALE:
    if (!get_pair(x, &xa, &xb) || !ball_get(xa, s)) { *err = E_SHAPE; break; }
    if (!primal_vec(xb, &a, err) || !tangent_vec(v, a.n, &cv, err)) break;
    dot_seq(w, 0, a.x, cv.x, a.n, p);
    for (slong i = 0; i < a.n; i++) arb_mul(cv.x + i, s, cv.x + i, p);
    r = mk_pair(h, mk(h, w, err), mk_vec(h, cv.x, a.n, err), err);
    break;
  case P_MATVEC: {
    slong rows;
    if (!get_pair(x, &xa, &xb)) { *err = E_SHAPE; break; }
    if (!primal_vec(xb, &b, err) || !primal_matrix(xa, b.n, &a, &rows, err) ||
        !tangent_vec(v, rows, &cv, err))
      break;
    bvec cm = {0, NULL};
    if (!bvec_new(&cm, rows * b.n) || !bvec_new(&c2, b.n)) { bvec_clear(&cm); *err = E_OOM; break; }
    for (slong i = 0; i < rows; i++)
      for (slong j = 0; j < b.n; j++) {
        arb_mul(cm.x + i * b.n + j, b.x + j, cv.x + i, p);
        arb_addmul(c2.x + j, a.x + i * b.n + j, cv.x + i, p);
      }
    r = mk_pair(h, mk_matrix(h, cm.x, rows, b.n, err), mk_vec(h, c2.x, b.n, err), err);
    bvec_clear(&cm);
    break;
  }
  case P_LOGSUMEXP:
    if (!ball_get(v, w)) { *err = E_SHAPE; break; }
    if (!primal_vec(x, &a, err)) break;
    if (!bvec_new(&c2, a.n)) { *err = E_OOM; break; }
    lse(s, c2.x, &a);
    for (slong i = 0; i < a.n; i++) arb_mul(c2.x + i, c2.x + i, w, p);
    r = mk_vec(h, c2.x, a.n, err);
    break;
  default: *err = E_SHAPE; break;
  }
  arb_clear(w);
  arb_clear(s);
  bvec_clear(&a);
  bvec_clear(&b);
  bvec_clear(&cv);
  bvec_clear(&c2);
  return r;
}

/* ---- the three entry points ----------------------------------------------- */
typedef enum { K_R_R, K_RR_R, K_RR_B, K_ARRAY, K_OTHER } kind;

static kind kind_of(int op) {
  switch (op) {
  case P_NEG: case P_SIN: case P_COS: case P_TAN: case P_EXP: case P_LOG: case P_SQRT:
  case P_TANH: case P_SIGMOID: case P_ABS: case P_LOG1P: case P_EXPM1: case P_SOFTPLUS:
  case P_ATAN: case P_ERF: case P_ERFC: case P_LGAMMA: case P_SINH: case P_COSH: case P_ASINH:
  case P_ACOSH: case P_ATANH: case P_EXP2: case P_LOG2:
    return K_R_R;
  case P_ADD: case P_SUB: case P_MUL: case P_DIV: case P_POW: case P_MAX: case P_MIN:
  case P_ATAN2: case P_HYPOT:
    return K_RR_R;
  case P_LT: case P_LE: case P_EQ: return K_RR_B;
  case P_VADD: case P_VMUL: case P_VSCALE: case P_DOT: case P_MATVEC: case P_LOGSUMEXP:
    return K_ARRAY;
  default: return K_OTHER;
  }
}

static void stopped(const char **err) { *err = cert.tie ? CERT_MSG_TIE : CERT_MSG_UNDECIDED; }
#define STOPPED(err) stopped(err)

/* The arguments of a scalar op as balls (x, and y for a binary op); sets
 * same_operands. */
static int scalar_args(const value *x, int binary, arb_t a, arb_t b) {
  same_operands = 0;
  tie_a = tie_b = NULL;
  if (!binary) { tie_a = tan_of(x); return ball_get(x, a); }
  const value *xa, *xb;
  if (!get_pair(x, &xa, &xb)) return 0;
  tie_a = tan_of(xa);
  tie_b = tan_of(xb);
  same_operands = x->kind == V_PAIR && xa == xb;
  return ball_get(xa, a) && ball_get(xb, b);
}

/* ---- Real -> Int conversions ----------------------------------------------- */
/* f(x) on an exact binary number; 0, or -1 outside the 64-bit integers. */
static int conv_exact(int op, const arf_t x, int64_t *out) {
  arf_t r, t;
  arf_init(r);
  arf_init(t);
  switch (op) {
  case P_FLOOR: arf_floor(r, x); break;
  case P_CEIL: arf_ceil(r, x); break;
  case P_TRUNC:
    arf_abs(t, x);
    arf_floor(r, t);
    if (arf_sgn(x) < 0) arf_neg(r, r);
    break;
  case P_ROUND:   /* half away from zero, as C's round */
    arf_abs(t, x);
    arf_set_si_2exp_si(r, 1, -1);   /* 1/2 */
    arf_add(t, t, r, ARF_PREC_EXACT, ARF_RND_DOWN);
    arf_floor(r, t);
    if (arf_sgn(x) < 0) arf_neg(r, r);
    break;
  default: arf_set_si(r, arf_sgn(x)); break;
  }
  fmpz_t z;
  fmpz_init(z);
  arf_get_fmpz(z, r, ARF_RND_DOWN);
  int ok = fmpz_fits_si(z);
  if (ok) *out = fmpz_get_si(z);
  fmpz_clear(z);
  arf_clear(r);
  arf_clear(t);
  return ok ? 0 : -1;
}

/* f just below (dir -1) or above (dir 1) the exact x: a perturbation far
 * below x's last bit, and below any other jump. */
static int conv_side(int op, const arf_t x, int dir, int64_t *out) {
  arf_t e, y;
  arf_init(e);
  arf_init(y);
  slong ex = arf_is_zero(x) ? -2000 : fmpz_get_si(ARF_EXPREF(x)) - arf_bits(x) - 64;
  arf_one(e);
  arf_mul_2exp_si(e, e, ex);
  if (dir < 0) arf_sub(y, x, e, ARF_PREC_EXACT, ARF_RND_DOWN);
  else arf_add(y, x, e, ARF_PREC_EXACT, ARF_RND_DOWN);
  int rc = conv_exact(op, y, out);
  arf_clear(e);
  arf_clear(y);
  return rc;
}

static const value *conversion(heap *h, int op, const value *x, const char **err) {
  arb_t a;
  arb_init(a);
  const value *r = NULL;
  int64_t vlo, vhi, v;
  if (!ball_get(x, a)) { *err = E_SHAPE; goto out; }
  if (!arb_is_finite(a)) { *err = "conversion of an undefined number to an integer"; goto out; }
  if (arb_is_exact(a)) {
    const arf_struct *m = arb_midref(a);
    if (conv_exact(op, m, &v) < 0 || conv_side(op, m, -1, &vlo) < 0 || conv_side(op, m, 1, &vhi) < 0) {
      *err = "conversion to an integer out of the 64-bit range";
      goto out;
    }
    if (vlo != vhi) {   /* a jump exactly here */
      if (cert.deriv) {
        tie_a = tan_of(x);
        tie_b = NULL;
        int ch = tie_choice(CS_JUMP, op, m);
        if (ch < 0) { STOPPED(err); goto out; }
        v = ch == 0 ? vlo : vhi;
      } else {
        lookup(CS_JUMP, op, m);
      }
    }
  } else {
    arf_t lo, hi;
    arf_init(lo);
    arf_init(hi);
    arb_get_lbound_arf(lo, a, ARF_PREC_EXACT);
    arb_get_ubound_arf(hi, a, ARF_PREC_EXACT);
    int rl = conv_exact(op, lo, &vlo), rh = conv_exact(op, hi, &vhi);
    int64_t lo_above = 0;
    int rs = conv_side(op, lo, 1, &lo_above);
    arf_clear(lo);
    arf_clear(hi);
    if (rl < 0 || rh < 0 || rs < 0) { *err = "conversion to an integer out of the 64-bit range"; goto out; }
    /* the ball lies within one step when both ends (the lower one from
     * above: the jump may sit on it) give the same integer */
    if (lo_above != vhi) { cert.imprecise = 1; STOPPED(err); goto out; }
    v = vhi;
  }
  r = v_int(h, v);
  if (!r) *err = E_OOM;
out:
  arb_clear(a);
  return r;
}

/* A tangent run: the partials of r = op(a, b) by the chain rule, from
 * the operands' (tie_a, tie_b). Where op's derivative is not one number
 * (a tie, a domain edge) they are unknown: every tie that depends on them
 * is then not proved genuine. */
static int primal_tan(heap *h, int op, int binary, const value *r, const arb_t a, const arb_t b) {
  arb_srcptr ta = tie_a, tb = tie_b;
  arb_t pa, pb;
  arb_init(pa);
  arb_init(pb);
  int saved_imprecise = cert.imprecise, saved_events = cert.n_events, saved_same = same_operands;
  quiet = 1;
  quiet_side = 0;
  int rc = binary ? deriv2(op, pa, pb, a, b) : deriv1(op, pa, a);
  quiet = 0;
  cert.imprecise = saved_imprecise;
  for (int i = saved_events; i < cert.n_events; i++) arf_clear(&cert.events[i].key);
  cert.n_events = saved_events;
  same_operands = saved_same;
  int unknown = rc < 0 || (ta && !arb_is_finite(pa)) || (binary && tb && !arb_is_finite(pb));
  int out = set_tan(h, r, pa, ta, binary ? pb : NULL, binary ? tb : NULL, unknown, quiet_side);
  tie_a = ta;
  tie_b = tb;
  arb_clear(pa);
  arb_clear(pb);
  return out;
}

const value *ball_prim_eval(heap *h, int op, const value *x, const char **err) {
  if (op >= P_FLOOR && op <= P_SIGN) return conversion(h, op, x, err);
  kind k = kind_of(op);
  if (op == P_TOREAL) {   /* exact, even past 2^53 */
    if (!x || x->kind != V_INT) { *err = E_SHAPE; return NULL; }
    arb_t y;
    arb_init(y);
    arb_set_si(y, x->u.i);
    const value *r = mk(h, y, err);
    arb_clear(y);
    return r;
  }
  if (k == K_OTHER) { *err = E_SHAPE; return NULL; }
  if (k == K_ARRAY) {
    const value *r = array_eval(h, op, x, err);
    if (r && any_tan(x) && mark_unknown(h, r)) { *err = E_OOM; return NULL; }
    return r;
  }
  arb_t a, b, y;
  arb_init(a);
  arb_init(b);
  arb_init(y);
  const value *r = NULL;
  if (!scalar_args(x, k != K_R_R, a, b)) *err = E_SHAPE;
  else if (cert.lookup && (lookup(CS_DOMAIN, op, arb_midref(op == P_DIV ? b : a)), 0)) {
  } else if (k == K_RR_B) {
    int c = compare(op, a, b);
    if (c < 0) STOPPED(err);
    else {
      r = c ? v_inl(h, v_unit(h)) : v_inr(h, v_unit(h));
      if (!r) *err = E_OOM;
    }
  } else if ((k == K_R_R ? real1(op, y, a) : real2(op, y, a, b)) < 0) {
    STOPPED(err);
  } else {
    r = mk(h, y, err);
    if (r && (tie_a || tie_b) && primal_tan(h, op, k == K_RR_R, r, a, b)) { *err = E_OOM; r = NULL; }
  }
  same_operands = 0;
  arb_clear(a);
  arb_clear(b);
  arb_clear(y);
  return r;
}

/* Scalar partials: pa (and pb) at the arguments; -1 when the run stops. */
static int scalar_partials(int op, int binary, const value *x, arb_t pa, arb_t pb, const char **err) {
  arb_t a, b;
  arb_init(a);
  arb_init(b);
  int rc = 0;
  if (!scalar_args(x, binary, a, b)) { *err = E_SHAPE; rc = -2; }
  else if ((binary ? deriv2(op, pa, pb, a, b) : deriv1(op, pa, a)) < 0) rc = -1;
  same_operands = 0;
  arb_clear(a);
  arb_clear(b);
  return rc;
}

const value *ball_prim_dop(heap *h, int op, const value *x, const value *dx, const char **err) {
  kind k = kind_of(op);
  if (k == K_OTHER || k == K_RR_B) return v_zero(h);
  if (!dx) { *err = E_SHAPE; return NULL; }
  if (k == K_ARRAY) return array_dop(h, op, x, dx, err);
  if (dx->kind == V_ZERO) return v_zero(h);
  arb_t pa, pb, u, w;
  arb_init(pa);
  arb_init(pb);
  arb_init(u);
  arb_init(w);
  const value *r = NULL;
  int rc = scalar_partials(op, k == K_RR_R, x, pa, pb, err);
  if (rc == -1) STOPPED(err);
  else if (rc == 0) {
    if (k == K_R_R) {
      if (!ball_get(dx, u)) *err = E_SHAPE;
      else { arb_mul(u, pa, u, cert.prec); r = mk(h, u, err); }
    } else {
      const value *da, *db;
      if (!get_pair(dx, &da, &db) || !ball_get(da, u) || !ball_get(db, w)) *err = E_SHAPE;
      else {
        /* a zero tangent (V_ZERO) is structural: it does not meet pa */
        arb_mul(u, pa, u, cert.prec);
        if (da->kind == V_ZERO) arb_zero(u);
        arb_mul(w, pb, w, cert.prec);
        if (db->kind == V_ZERO) arb_zero(w);
        arb_add(u, u, w, cert.prec);
        r = mk(h, u, err);
      }
    }
  }
  arb_clear(pa);
  arb_clear(pb);
  arb_clear(u);
  arb_clear(w);
  return r;
}

const value *ball_prim_dopT(heap *h, int op, const value *x, const value *v, const char **err) {
  kind k = kind_of(op);
  if (k == K_OTHER || k == K_RR_B) return v_zero(h);
  if (!v) { *err = E_SHAPE; return NULL; }
  if (v->kind == V_ZERO) return v_zero(h);
  if (k == K_ARRAY) return array_dopT(h, op, x, v, err);
  arb_t pa, pb, w;
  arb_init(pa);
  arb_init(pb);
  arb_init(w);
  const value *r = NULL;
  int rc = scalar_partials(op, k == K_RR_R, x, pa, pb, err);
  if (rc == -1) STOPPED(err);
  else if (rc == 0) {
    if (!ball_get(v, w)) *err = E_SHAPE;
    else if (k == K_R_R) {
      arb_mul(w, pa, w, cert.prec);
      r = mk(h, w, err);
    } else {
      arb_mul(pa, pa, w, cert.prec);
      arb_mul(pb, pb, w, cert.prec);
      r = mk_pair(h, mk(h, pa, err), mk(h, pb, err), err);
    }
  }
  arb_clear(pa);
  arb_clear(pb);
  arb_clear(w);
  return r;
}
