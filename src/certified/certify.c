/* The certified evaluator's driver (certify.h, spec/certified.md).
 *
 * A certified command runs the ordinary command (its heap in ball mode, the
 * reference evaluator computing on Arb balls) at 64, 128, 256, ... bits
 * until every real it writes rounds to one double, or the precision cap is
 * reached ("undecided" entries, exit 5). A derivative command stops at a
 * branch point it cannot decide at any precision (equal numbers compared, a
 * tie of max/min, abs at 0); it is then rerun once per side of each branch
 * point. If the sides disagree, tangent runs tell which results nearby
 * points realize: two realized results that differ prove the point not
 * differentiable (exit 4), else it is undecided (exit 5); either way every
 * side's result is printed, the limiting derivatives whose convex hull
 * contains Clarke's generalized gradient. A lookup run of the primal
 * program finds the source position of each branch point and of each
 * undefined value's birth.
 */
#include "certified/certify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "certified/ball.h"
#include "chad/primitives.h"

static slong max_prec = CERT_DEFAULT_MAX_PREC;
static int want_certificate = 0;

void certify_set_max_prec(long bits) { max_prec = bits < 64 ? 64 : bits; }
long certify_max_prec(void) { return max_prec; }
void certify_set_certificate(int on) { want_certificate = on != 0; }

/* ---- writing reals ----------------------------------------------------------- */
/* The exact decimal expansion of a finite arf (m 2^e = m 5^-e 10^e). */
static void arf_exact_decimal(chad_buf *b, const arf_t x) {
  if (arf_is_zero(x)) { buf_puts(b, "0"); return; }
  fmpz_t m, e, t;
  fmpz_init(m);
  fmpz_init(e);
  fmpz_init(t);
  arf_get_fmpz_2exp(m, e, x);
  if (fmpz_sgn(e) >= 0) {
    fmpz_mul_2exp(m, m, fmpz_get_ui(e));
    char *s = fmpz_get_str(NULL, 10, m);
    buf_puts(b, s);
    flint_free(s);
  } else {
    ulong k = fmpz_get_ui(e) ;
    k = (ulong)(-fmpz_get_si(e));
    fmpz_set_ui(t, 5);
    fmpz_pow_ui(t, t, k);
    fmpz_mul(m, m, t);                  /* x = m / 10^k */
    int neg = fmpz_sgn(m) < 0;
    fmpz_abs(m, m);
    char *s = fmpz_get_str(NULL, 10, m);
    size_t n = strlen(s);
    if (neg) buf_puts(b, "-");
    if (n <= k) {
      buf_puts(b, "0.");
      for (size_t i = n; i < k; i++) buf_puts(b, "0");
      buf_puts(b, s);
    } else {
      char *ip = s;
      char save = s[n - k];
      s[n - k] = '\0';
      buf_puts(b, ip);
      s[n - k] = save;
      buf_puts(b, ".");
      buf_puts(b, s + n - k);
    }
    flint_free(s);
  }
  fmpz_clear(m);
  fmpz_clear(e);
  fmpz_clear(t);
}

static void write_enclosure(const arb_t x) {
  chad_buf *b = cert.cert_buf;
  if (!b) return;
  if (cert.n_written++) buf_puts(b, ", ");
  if (!arb_is_finite(x)) {
    if (arb_is_exact(x) && arf_is_inf(arb_midref(x)))
      buf_puts(b, arf_sgn(arb_midref(x)) > 0 ? "{\"mid\": \"+infinity\", \"rad\": \"0\"}"
                                           : "{\"mid\": \"-infinity\", \"rad\": \"0\"}");
    else
      buf_puts(b, "null");
    return;
  }
  arf_t r;
  arf_init(r);
  arf_set_mag(r, arb_radref(x));
  buf_puts(b, "{\"mid\": \"");
  arf_exact_decimal(b, arb_midref(x));
  buf_puts(b, "\", \"rad\": \"");
  arf_exact_decimal(b, r);
  buf_puts(b, "\"}");
  arf_clear(r);
}

void ball_write_json(chad_buf *b, const arb_t x) {
  if (cert.certificate) write_enclosure(x);
  if (!arb_is_finite(x)) {
    if (arb_is_exact(x) && arf_is_inf(arb_midref(x))) {
      buf_puts(b, arf_sgn(arb_midref(x)) > 0 ? "\"+infinity\"" : "\"-infinity\"");
      if (!cert.in_value) cert.infinite++;
    } else {
      buf_puts(b, "\"undefined\"");
      cert.undefined++;
    }
    return;
  }
  /* Rounding to nearest is monotone: if both ends of the ball (taken a
   * little outward) round to one double, every point of it does. */
  arf_t lo, hi;
  arf_init(lo);
  arf_init(hi);
  arb_get_lbound_arf(lo, x, cert.prec + 64);
  arb_get_ubound_arf(hi, x, cert.prec + 64);
  double dl = arf_get_d(lo, ARF_RND_NEAR), dh = arf_get_d(hi, ARF_RND_NEAR);
  arf_clear(lo);
  arf_clear(hi);
  /* a ball around 0 narrower than half the smallest subnormal rounds to 0
   * (its sign undecided and not printed) */
  if (dl == 0 && dh == 0) { buf_puts(b, "0"); return; }
  if (dl != dh || signbit(dl) != signbit(dh)) {
    buf_puts(b, "\"undecided\"");
    cert.unroundable++;
    return;
  }
  if (isinf(dl)) buf_puts(b, dl > 0 ? "\"+infinity\"" : "\"-infinity\"");   /* overflows a double */
  else if (dl == 0 && signbit(dl)) buf_puts(b, "-0.0");
  else buf_printf(b, "%.17g", dl);
}

/* ---- one run ------------------------------------------------------------------- */
typedef struct run_result {
  int n_choices;
  cert_site choices[CERT_MAX_CHOICES];
  char *out;          /* what the command wrote, certificate included */
  int rc;
  chad_diag d;
  int undefined, infinite, unroundable;
} run_result;

static void site_copy(cert_site *to, const cert_site *from) {
  *to = *from;
  arf_init(&to->key);
  arf_set(&to->key, &from->key);
}
static void site_clear(cert_site *s) { arf_clear(&s->key); }
/* The same kind of tie at the same value. */
static int site_same(const cert_site *a, const cert_site *b) {
  return a->kind == b->kind && a->op == b->op && arf_equal(&a->key, &b->key);
}

static void reset_outcome(void) {
  ball_reset_occurrences();
  if (cert.tie) site_clear(&cert.tie_site);
  cert.tie = 0;
  cert.imprecise = 0;
  for (int i = 0; i < cert.n_events; i++) site_clear(&cert.events[i]);
  cert.n_events = 0;
  cert.unroundable = cert.undefined = cert.infinite = 0;
  cert.in_value = 0;
  cert.n_written = 0;
  cert.cur_term = -1;
}

static void set_choices(const cert_site *cs, int n) {
  for (int i = 0; i < cert.n_choices; i++) site_clear(&cert.choices[i]);
  cert.n_choices = n;
  for (int i = 0; i < n; i++) site_copy(&cert.choices[i], &cs[i]);
}

/* Appends the certificate to a command's JSON output. */
static char *with_certificate(char *out, chad_buf *cb, int bare) {
  chad_buf b;
  buf_init(&b);
  size_t n = strlen(out);
  while (n && (out[n - 1] == '\n' || out[n - 1] == ' ')) n--;
  if (bare) {
    buf_puts(&b, "{\"value\": ");
    buf_printf(&b, "%.*s", (int)n, out);
  } else {
    if (n && out[n - 1] == '}') n--;
    buf_printf(&b, "%.*s", (int)n, out);
  }
  buf_printf(&b, ", \"certificate\": {\"precision\": %ld, \"enclosures\": [%s]}}\n",
             (long)cert.prec, cb->data ? cb->data : "");
  free(out);
  if (b.oom) { buf_free(&b); return NULL; }
  return b.data;
}

static int run_once(const certify_cmd *cmd, run_result *r) {
  chad_buf cb;
  buf_init(&cb);
  reset_outcome();
  cert.certificate = want_certificate;
  cert.cert_buf = want_certificate ? &cb : NULL;
  r->out = NULL;
  memset(&r->d, 0, sizeof r->d);
  r->rc = cmd->run(cmd->ctx, &r->out, &r->d);
  cert.cert_buf = NULL;
  cert.certificate = 0;
  if (r->rc == 0 && r->out && want_certificate)
    r->out = with_certificate(r->out, &cb, cmd->bare);
  buf_free(&cb);
  r->undefined = cert.undefined;
  r->infinite = cert.infinite;
  r->unroundable = cert.unroundable;
  r->n_choices = cert.n_choices;
  for (int i = 0; i < cert.n_choices; i++) site_copy(&r->choices[i], &cert.choices[i]);
  return r->rc;
}

static void result_clear(run_result *r) {
  free(r->out);
  r->out = NULL;
  for (int i = 0; i < r->n_choices; i++) site_clear(&r->choices[i]);
  r->n_choices = 0;
}

#define MAX_RESULTS (1 << CERT_MAX_CHOICES)

typedef struct exploration {
  run_result res[MAX_RESULTS];
  int n;
  int need_more;       /* rerun at a higher precision                    */
  int too_many;        /* more branch points than CERT_MAX_CHOICES        */
  cert_site first_tie; /* the first branch point met                      */
  int has_tie;
  cert_site events[CERT_MAX_EVENTS];
  int n_events;
} exploration;

static void exploration_clear(exploration *x) {
  for (int i = 0; i < x->n; i++) result_clear(&x->res[i]);
  x->n = 0;
  if (x->has_tie) site_clear(&x->first_tie);
  x->has_tie = 0;
  for (int i = 0; i < x->n_events; i++) site_clear(&x->events[i]);
  x->n_events = 0;
  x->need_more = x->too_many = 0;
}

static void keep_events(exploration *x) {
  for (int i = 0; i < cert.n_events && x->n_events < CERT_MAX_EVENTS; i++) {
    int dup = 0;
    for (int j = 0; j < x->n_events; j++)
      if (x->events[j].op == cert.events[i].op && arf_equal(&x->events[j].key, &cert.events[i].key))
        dup = 1;
    if (!dup) site_copy(&x->events[x->n_events++], &cert.events[i]);
  }
}

/* Every combination of branches, depth first; at most MAX_RESULTS runs. */
static void explore(const certify_cmd *cmd, exploration *x) {
  typedef struct { int n; cert_site c[CERT_MAX_CHOICES]; } pending;
  pending *stack = malloc(sizeof(pending) * (CERT_MAX_CHOICES + 1) * 2);
  if (!stack) { x->need_more = 0; return; }
  int top = 0;
  stack[top++].n = 0;
  while (top > 0 && x->n < MAX_RESULTS) {
    pending cur = stack[--top];
    set_choices(cur.c, cur.n);
    for (int i = 0; i < cur.n; i++) site_clear(&cur.c[i]);
    run_result *r = &x->res[x->n];
    run_once(cmd, r);
    keep_events(x);
    if (cert.tie) {
      if (!x->has_tie) { site_copy(&x->first_tie, &cert.tie_site); x->has_tie = 1; }
      result_clear(r);
      if (cur.n == CERT_MAX_CHOICES) { x->too_many = 1; continue; }
      for (int side = 1; side >= 0; side--) {
        pending *nx = &stack[top++];
        nx->n = cur.n + 1;
        for (int i = 0; i < cur.n; i++) site_copy(&nx->c[i], &cert.choices[i]);
        site_copy(&nx->c[cur.n], &cert.tie_site);
        nx->c[cur.n].choice = side;
      }
      continue;
    }
    if (cert.imprecise && (r->rc != 0 || r->undefined > 0)) x->need_more = 1;
    /* an undefined value with no recorded cause came from too wide a ball */
    if (r->undefined > 0 && cert.n_events == 0) x->need_more = 1;
    if (r->unroundable) x->need_more = 1;
    x->n++;
    if (x->need_more && cert.prec < max_prec) break;   /* no use going on */
  }
  while (top > 0) {
    top--;
    for (int i = 0; i < stack[top].n; i++) site_clear(&stack[top].c[i]);
  }
  free(stack);
}

/* ---- sites to positions ------------------------------------------------------- */
static const char *site_name(const cert_site *s) {
  switch (s->kind) {
  case CS_CMP: return "comparison of equal numbers";
  case CS_MAX: return "max of equal numbers";
  case CS_MIN: return "min of equal numbers";
  case CS_ABS: return "a kink of abs";
  case CS_JUMP: return s->op == P_ATAN2 ? "atan2's branch cut" : "a jump of a real-to-integer conversion";
  default: return s->why ? s->why : "undefined";
  }
}

static const char *side_name(const cert_site *s) {
  switch (s->kind) {
  case CS_CMP: return s->choice == 0 ? "comparison taken true" : "comparison taken false";
  case CS_MAX: case CS_MIN: return s->choice == 0 ? "first argument taken" : "second argument taken";
  case CS_ABS: return s->choice == 0 ? "left side (x < 0)" : "right side (x > 0)";
  case CS_JUMP: return s->choice == 0 ? "from below" : "from above";
  default: return "";
  }
}

/* Finds the source terms of the given sites with a lookup run. */
static void locate(const certify_cmd *cmd, cert_site *sites, int n) {
  if (!cmd->lookup || n == 0) return;
  int saved = cert.deriv;
  cert.deriv = 0;
  cert.lookup = 1;
  set_choices(sites, n < CERT_MAX_CHOICES ? n : CERT_MAX_CHOICES);
  for (int i = 0; i < cert.n_choices; i++) cert.choices[i].term = -1;
  reset_outcome();
  char *out = NULL;
  chad_diag d;
  memset(&d, 0, sizeof d);
  cmd->lookup(cmd->ctx, &out, &d);
  free(out);
  for (int i = 0; i < cert.n_choices; i++) sites[i].term = cert.choices[i].term;
  cert.lookup = 0;
  cert.deriv = saved;
  set_choices(NULL, 0);
  reset_outcome();
}

static void site_pos(const certify_cmd *cmd, const cert_site *s, int *line, int *col) {
  *line = *col = 0;
  if (s->term < 0 || !cmd->position || cmd->position(cmd->ctx, s->term, line, col) != 0)
    *line = *col = 0;
}

static void site_where(const certify_cmd *cmd, const cert_site *s, char *buf, size_t n) {
  int line, col;
  site_pos(cmd, s, &line, &col);
  if (line > 0) snprintf(buf, n, "%s:%d:%d", cmd->file, line, col);
  else snprintf(buf, n, "%s", cmd->file);
}

static void write_site(chad_buf *b, const certify_cmd *cmd, const cert_site *s, int with_side) {
  char where[300];
  site_where(cmd, s, where, sizeof where);
  buf_printf(b, "{\"at\": \"%s\", \"op\": \"%s\", \"what\": \"%s\", \"value\": ", where,
             prim_name(s->op) ? prim_name(s->op) : "?", site_name(s));
  double v = arf_get_d(&s->key, ARF_RND_NEAR);
  if (v == 0) buf_puts(b, "0.0");
  else buf_printf(b, "%.17g", v);
  if (with_side) buf_printf(b, ", \"occurrence\": %d, \"side\": \"%s\"", s->occ, side_name(s));
  buf_puts(b, "}");
}

/* Two results' outputs print the same reals (the certificate, appended
 * last, left out: equal exact values can have different enclosures). */
static int same_output(const run_result *a, const run_result *b) {
  static const char cert_key[] = ", \"certificate\": {\"precision\"";
  const char *p = a->out ? a->out : "", *q = b->out ? b->out : "";
  const char *pe = strstr(p, cert_key), *qe = strstr(q, cert_key);
  size_t n = pe ? (size_t)(pe - p) : strlen(p), m = qe ? (size_t)(qe - q) : strlen(q);
  return a->rc == b->rc && n == m && memcmp(p, q, n) == 0;
}

/* ---- genuine branch points: which results are one-sided limits ---------------- */
/* A result is *realized* when the points near x0 that take its side at each
 * of its ties hold x0 + t v for every v of an open cone and all small t > 0
 * (spec/certified.md §3). With g_j the tie's difference along the result's
 * path (a - b; abs, floor, ...: the argument; atan2: the ordinate) and s_j
 * the sign of g_j on the side taken, this holds when some v has
 * s_j grad g_j(x0) . v > 0 for every j: first order decides each g_j's sign
 * on a cone around v. `==` taken true holds on a hypersurface only: never
 * realized; `==` taken false needs grad g_j(x0) != 0 and no v. Tangent
 * runs (the same run with the inputs seeded with TAN_DIRS tangent
 * directions d_k: the unit vectors when there are no more inputs, else
 * fixed pseudo-random ones) give grad g_j(x0) . d_k; v is sought in the
 * directions' span, guessed from midpoints and checked in ball arithmetic
 * (grad g_j . sum c_k d_k = sum c_k (grad g_j . d_k)), so a guess that fails
 * only leaves the result unproved. */
#define TAN_DIRS 8       /* tangent directions per run (>= CERT_MAX_CHOICES)  */
#define TAN_BUDGET 128   /* tangent runs per command                          */

/* s_j: the sign of the difference on the side taken; 0 for `==` false. */
static int side_sign(const cert_site *c) {
  switch (c->kind) {
  case CS_CMP: return c->op == P_EQ ? 0 : c->choice == 0 ? -1 : 1;   /* true: a < b */
  case CS_MAX: return c->choice == 0 ? 1 : -1;                       /* first: a > b */
  case CS_MIN: return c->choice == 0 ? -1 : 1;                       /* first: a < b */
  default: return c->choice == 0 ? -1 : 1;                           /* left, below  */
  }
}

/* Whether s_j g_j . v > 0 certainly for every j with s_j != 0. */
static int cone_holds(arb_ptr *g, const int *sg, int m, slong n, const double *v) {
  arb_t d, t;
  arb_init(d);
  arb_init(t);
  int ok = 1;
  for (int j = 0; j < m && ok; j++) {
    if (!sg[j]) continue;
    arb_zero(d);
    for (slong k = 0; k < n; k++) {
      if (v[k] == 0) continue;
      arb_set_d(t, v[k]);
      arb_mul(t, t, g[j] + k, cert.prec);
      arb_add(d, d, t, cert.prec);
    }
    if (sg[j] < 0) arb_neg(d, d);
    ok = arb_is_positive(d);
  }
  arb_clear(d);
  arb_clear(t);
  return ok;
}

/* Solves the k x k system A c = b in place (partial pivoting); 0 if singular. */
static int solve_small(double *A, double *b, int k) {
  for (int c = 0; c < k; c++) {
    int p = c;
    for (int r = c + 1; r < k; r++)
      if (fabs(A[r * k + c]) > fabs(A[p * k + c])) p = r;
    if (!(fabs(A[p * k + c]) > 1e-300)) return 0;
    for (int q = 0; q < k; q++) { double t = A[c * k + q]; A[c * k + q] = A[p * k + q]; A[p * k + q] = t; }
    double t = b[c]; b[c] = b[p]; b[p] = t;
    for (int r = 0; r < k; r++) {
      if (r == c) continue;
      double f = A[r * k + c] / A[c * k + c];
      for (int q = c; q < k; q++) A[r * k + q] -= f * A[c * k + q];
      b[r] -= f * b[c];
    }
  }
  for (int c = 0; c < k; c++) b[c] /= A[c * k + c];
  return 1;
}

/* Whether the cone of the ties with gradients g (m of length n) and signs
 * sg is certainly open and nonempty. */
#define MAX_CONE (2 * CERT_MAX_CHOICES)
static int cone_exists(arb_ptr *g, const int *sg, int m, slong n) {
  int ok = 0, u[MAX_CONE], nu = 0;
  double *mid = malloc(sizeof *mid * (size_t)(m * n + n + 1)), *v = mid ? mid + m * n : NULL;
  double A[MAX_CONE * MAX_CONE], b[MAX_CONE];
  if (!mid) return 0;
  for (int j = 0; j < m; j++)
    for (slong k = 0; k < n; k++) mid[j * n + k] = arf_get_d(arb_midref(g[j] + k), ARF_RND_NEAR);
  for (int j = 0; j < m; j++) {
    if (sg[j]) {
      /* the same gradient twice (one comparison met twice): one constraint,
       * or none satisfiable if the signs are opposite */
      int dup = -1;
      for (int i = 0; i < nu && dup < 0; i++)
        if (memcmp(mid + u[i] * n, mid + j * n, sizeof *mid * (size_t)n) == 0) dup = i;
      if (dup >= 0) {
        if (sg[u[dup]] != sg[j]) goto out;
        continue;
      }
      u[nu++] = j;
      continue;
    }
    int nz = 0;   /* `==` taken false: the difference must move */
    for (slong k = 0; k < n && !nz; k++) nz = !arb_contains_zero(g[j] + k);
    if (!nz) goto out;
  }
  if (nu == 0) { ok = 1; goto out; }
  /* first guess: the sum of the signed unit normals */
  for (slong k = 0; k < n; k++) v[k] = 0;
  for (int i = 0; i < nu; i++) {
    double nrm = 0;
    for (slong k = 0; k < n; k++) nrm += mid[u[i] * n + k] * mid[u[i] * n + k];
    nrm = sqrt(nrm);
    if (!(nrm > 0) || !isfinite(nrm)) goto out;
    for (slong k = 0; k < n; k++) v[k] += sg[u[i]] * mid[u[i] * n + k] / nrm;
  }
  if (cone_holds(g, sg, m, n, v)) { ok = 1; goto out; }
  /* second: the v in the gradients' span with s_j g_j . v = s_j (Gram system) */
  for (int i = 0; i < nu; i++) {
    b[i] = sg[u[i]];
    for (int q = 0; q < nu; q++) {
      double t = 0;
      for (slong k = 0; k < n; k++) t += mid[u[i] * n + k] * mid[u[q] * n + k];
      A[i * nu + q] = t;
    }
  }
  if (!solve_small(A, b, nu)) goto out;
  for (slong k = 0; k < n; k++) {
    v[k] = 0;
    for (int i = 0; i < nu; i++) v[k] += b[i] * mid[u[i] * n + k];
  }
  ok = cone_holds(g, sg, m, n, v);
out:
  free(mid);
  return ok;
}

/* The gradients of one result's ties (tangent runs), or none. */
typedef struct tie_grads {
  int have;
  slong n;
  arb_ptr g[CERT_MAX_CHOICES];
} tie_grads;

static void tie_grads_clear(tie_grads *t, int m) {
  for (int i = 0; i < m; i++)
    if (t->g[i]) _arb_vec_clear(t->g[i], t->n > 0 ? t->n : 1);
  memset(t, 0, sizeof *t);
}

/* Runs r's combination of sides with tangents: 1 and t filled (t->g[j]
 * the derivatives of tie j's difference along the TAN_DIRS directions), or
 * 0 (the run failed, a primal tie's side was not among the choices, or the
 * cap on tangent runs was reached). */
static int compute_grads(const certify_cmd *cmd, const run_result *r, int *budget, tie_grads *t) {
  int m = r->n_choices, ok = 0;
  memset(t, 0, sizeof *t);
  if (*budget <= 0) return 0;
  --*budget;
  for (int i = 0; i < m; i++) {
    cert.tie_grad[i] = _arb_vec_init(TAN_DIRS);
    cert.tie_grad_set[i] = cert.quiet_hits[i] = 0;
  }
  cert.derived_used = 0;
  set_choices(r->choices, m);
  cert.tan_n = TAN_DIRS;
  run_result tr;
  run_once(cmd, &tr);
  slong w = cert.tan_n;
  ok = tr.rc == 0 && !cert.tie;
  for (int i = 0; i < m; i++) {
    ok &= cert.tie_grad_set[i];
    /* where a tie's difference assumed a primal tie's side: no more
     * primal ties of that kind and value than choices of them (each
     * primal tie is one the run chose a side at) */
    int group = 0;
    for (int j = 0; j < m; j++) group += site_same(&r->choices[i], &r->choices[j]);
    if (cert.derived_used && cert.quiet_hits[i] > group) ok = 0;
  }
  result_clear(&tr);
  if (ok) {
    t->n = w;
    for (int i = 0; i < m; i++) {
      t->g[i] = _arb_vec_init(w > 0 ? w : 1);
      for (slong k = 0; k < w; k++) arb_set(t->g[i] + k, cert.tie_grad[i] + k);
    }
  }
  cert.tan_n = 0;
  for (int i = 0; i < m; i++) {
    _arb_vec_clear(cert.tie_grad[i], TAN_DIRS);
    cert.tie_grad[i] = NULL;
  }
  set_choices(NULL, 0);
  t->have = ok;
  return ok;
}

/* The result that differs from res[i] only in the side of its tie j, with
 * the same output; -1 if none. */
static int sibling(const exploration *x, int i, int j) {
  const run_result *r = &x->res[i];
  for (int q = 0; q < x->n; q++) {
    const run_result *s = &x->res[q];
    if (q == i || s->n_choices != r->n_choices || !same_output(s, r)) continue;
    int same = 1;
    for (int k = 0; k < r->n_choices && same; k++)
      same = site_same(&s->choices[k], &r->choices[k]) && s->choices[k].occ == r->choices[k].occ &&
             (k == j ? s->choices[k].choice != r->choices[k].choice
                     : s->choices[k].choice == r->choices[k].choice);
    if (same) return q;
  }
  return -1;
}

/* Whether res[i] is realized: its ties' cone is open and nonempty; or,
 * leaving out one tie j whose other side gives the same output (a tie
 * that does not matter, such as the outer max of relu (relu x) where the
 * inner one takes 0), the cone of the other ties along both results' paths
 * is (then the points of that cone follow one of the two paths). */
static int realized(const certify_cmd *cmd, const exploration *x, int i, tie_grads *tg,
                    int *budget) {
  const run_result *r = &x->res[i];
  int m = r->n_choices, sg[MAX_CONE];
  arb_ptr g[MAX_CONE];
  if (m == 0) return 1;
  if (!tg[i].have && !compute_grads(cmd, r, budget, &tg[i])) return 0;
  int eq_true = -1;
  for (int k = 0; k < m; k++) {
    sg[k] = side_sign(&r->choices[k]);
    g[k] = tg[i].g[k];
    if (r->choices[k].kind == CS_CMP && r->choices[k].op == P_EQ && r->choices[k].choice == 0)
      eq_true = eq_true < 0 ? k : m;   /* `==` true holds on a hypersurface only */
  }
  if (eq_true < 0 && cone_exists(g, sg, m, tg[i].n)) return 1;
  for (int j = 0; j < m; j++) {
    if (eq_true >= 0 && j != eq_true) continue;
    int q = sibling(x, i, j);
    if (q < 0 || (!tg[q].have && !compute_grads(cmd, &x->res[q], budget, &tg[q]))) continue;
    int c = 0;
    for (int k = 0; k < m; k++) {
      if (k == j) continue;
      sg[c] = side_sign(&r->choices[k]);
      g[c++] = tg[i].g[k];
      sg[c] = side_sign(&x->res[q].choices[k]);
      g[c++] = tg[q].g[k];
    }
    if (cone_exists(g, sg, c, tg[i].n)) return 1;
  }
  return 0;
}

/* Whether a JSON value has a string leaf ("undecided", "+infinity", ...). */
static int has_string(const json_t *v) {
  const char *k;
  json_t *e;
  size_t i;
  if (json_is_string(v)) return 1;
  if (json_is_object(v)) { json_object_foreach((json_t *)v, k, e) if (has_string(e)) return 1; }
  if (json_is_array(v)) { json_array_foreach(v, i, e) if (has_string(e)) return 1; }
  return 0;
}

/* 1 when the output's value and the function's value at the point (eval
 * text) are certainly different: both correctly rounded doubles, unequal. */
static int value_differs(const char *out, const char *eval_out) {
  if (!out || !eval_out) return 0;
  json_t *o = json_loads(out, JSON_DECODE_ANY, NULL), *e = json_loads(eval_out, JSON_DECODE_ANY, NULL);
  const json_t *ov = o ? json_object_get(o, "value") : NULL;
  int d = ov && e && !has_string(ov) && !has_string(e) && !json_equal((json_t *)ov, e);
  json_decref(o);
  json_decref(e);
  return d;
}

/* The function's value at the point, from the primal program (ties
 * decided exactly, as `eval`); NULL when it cannot be had. */
static char *point_value(const certify_cmd *cmd) {
  if (!cmd->lookup) return NULL;
  int saved = cert.deriv;
  cert.deriv = 0;
  set_choices(NULL, 0);
  reset_outcome();
  char *out = NULL;
  chad_diag d;
  memset(&d, 0, sizeof d);
  int rc = cmd->lookup(cmd->ctx, &out, &d);
  cert.deriv = saved;
  reset_outcome();
  if (rc) { free(out); return NULL; }
  return out;
}

/* ---- the driver ----------------------------------------------------------------- */
static int results_agree(const exploration *x) {
  for (int i = 1; i < x->n; i++)
    if (!same_output(&x->res[i], &x->res[0])) return 0;
  return 1;
}

int certify_run(const certify_cmd *cmd, char **out, chad_diag *d) {
  exploration *x = calloc(1, sizeof *x);
  if (!x) return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory");
  cert.active = 1;
  cert.deriv = cmd->deriv;
  cert.lookup = 0;
  int rc = 0;
  for (slong prec = 64;; prec *= 2) {
    if (prec > max_prec) prec = max_prec;
    cert.prec = prec;
    if (cmd->progress)
      fprintf(stderr, "certified: %ld bits\n", (long)prec);
    exploration_clear(x);
    explore(cmd, x);
    if (!x->need_more || prec >= max_prec) break;
  }
  /* A failed run: a real runtime error, or an undecided comparison. */
  run_result *bad = NULL;
  for (int i = 0; i < x->n && !bad; i++)
    if (x->res[i].rc) bad = &x->res[i];
  if (bad) {
    if (strstr(bad->d.msg, CERT_MSG_UNDECIDED)) {
      rc = diag_set(d, CHAD_EXIT_UNDECIDED, "", 0, 0,
                    "certified: a comparison or a primitive's domain could not be decided at "
                    "%ld bits (its arguments may be equal or on the domain's edge); raise "
                    "--max-prec", (long)max_prec);
    } else {
      *d = bad->d;
      rc = bad->rc;
    }
    goto done;
  }
  if (x->n == 0 && x->too_many && x->has_tie) {
    /* every combination meets more branch points than are explored */
    locate(cmd, &x->first_tie, 1);
    int line, col;
    site_pos(cmd, &x->first_tie, &line, &col);
    rc = diag_set(d, CHAD_EXIT_UNDECIDED, cmd->file, line, col,
                  "differentiability undecided at this point: every combination of sides meets "
                  "more than %d branch points (the first: %s, %s at %.17g); no result to print",
                  CERT_MAX_CHOICES, site_name(&x->first_tie), prim_name(x->first_tie.op),
                  arf_get_d(&x->first_tie.key, ARF_RND_NEAR));
    goto done;
  }
  if (x->n == 0) {
    rc = diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "certified: no run completed");
    goto done;
  }
  if (x->n == 1 || (results_agree(x) && !x->too_many)) {
    run_result *r = &x->res[0];
    *out = r->out;
    r->out = NULL;
    if (r->unroundable) {
      rc = diag_set(d, CHAD_EXIT_UNDECIDED, "", 0, 0,
                    "certified: %d real%s could not be rounded correctly at %ld bits (printed "
                    "\"undecided\"); raise --max-prec", r->unroundable,
                    r->unroundable == 1 ? "" : "s", (long)max_prec);
    } else if (r->undefined && x->n_events == 0) {
      rc = diag_set(d, CHAD_EXIT_UNDECIDED, "", 0, 0,
                    "certified: %d real%s had no finite enclosure at %ld bits (printed "
                    "\"undefined\"); raise --max-prec", r->undefined, r->undefined == 1 ? "" : "s",
                    (long)max_prec);
    } else if (r->undefined || (cmd->deriv && r->infinite)) {
      /* where the undefined values were born */
      locate(cmd, x->events, x->n_events);
      int line = 0, col = 0;
      if (x->n_events) site_pos(cmd, &x->events[0], &line, &col);
      if (x->n_events)
        rc = diag_set(d, CHAD_EXIT_NONDIFF, cmd->file, line, col,
                      "%s: %s (%s at %.17g); the entries it reaches are printed \"undefined\" "
                      "or as infinities",
                      cmd->deriv ? "not differentiable at this point" : "undefined at this point",
                      site_name(&x->events[0]), prim_name(x->events[0].op),
                      arf_get_d(&x->events[0].key, ARF_RND_NEAR));
      else
        rc = diag_set(d, CHAD_EXIT_NONDIFF, cmd->file, 0, 0,
                      "%s: some entries are undefined or infinite (printed as such)",
                      cmd->deriv ? "not differentiable at this point" : "undefined at this point");
    }
    goto done;
  }
  /* Branches that disagree: not differentiable here if two one-sided
   * limits differ, or one differs in value from the function at the point
   * (a discontinuity); else undecided (a degenerate tie, §3). */
  {
    int real[MAX_RESULTS], first = -1, proved = 0;
    int budget = TAN_BUDGET;
    tie_grads *tg = calloc(MAX_RESULTS, sizeof *tg);
    char *fx = NULL;
    int have_fx = 0;
    for (int i = 0; i < x->n; i++) {
      /* a path through a domain edge is not C^1 there: no conclusion */
      const char *o = x->res[i].out ? x->res[i].out : "";
      int smooth = !strstr(o, "\"undefined\"") && !strstr(o, "\"undecided\"") && !strstr(o, "infinity\"");
      real[i] = tg && smooth && realized(cmd, x, i, tg, &budget);
      if (!real[i]) continue;
      if (first < 0) first = i;
      else if (!same_output(&x->res[i], &x->res[first]))
        proved = 1;
      if (!proved) {
        if (!have_fx) { fx = point_value(cmd); have_fx = 1; }
        if (value_differs(x->res[i].out, fx)) proved = 1;
      }
    }
    free(fx);
    if (tg)
      for (int i = 0; i < x->n; i++) tie_grads_clear(&tg[i], x->res[i].n_choices);
    free(tg);
    cert_site sites[CERT_MAX_CHOICES];
    int ns = 0;
    for (int i = 0; i < x->n; i++)
      for (int k = 0; k < x->res[i].n_choices; k++) {
        int dup = 0;
        for (int j = 0; j < ns; j++)
          if (sites[j].kind == x->res[i].choices[k].kind &&
              arf_equal(&sites[j].key, &x->res[i].choices[k].key))
            dup = 1;
        if (!dup && ns < CERT_MAX_CHOICES) site_copy(&sites[ns++], &x->res[i].choices[k]);
      }
    locate(cmd, sites, ns);
    for (int i = 0; i < x->n; i++)
      for (int k = 0; k < x->res[i].n_choices; k++)
        for (int j = 0; j < ns; j++)
          if (sites[j].kind == x->res[i].choices[k].kind &&
              arf_equal(&sites[j].key, &x->res[i].choices[k].key))
            x->res[i].choices[k].term = sites[j].term;
    chad_buf b;
    buf_init(&b);
    buf_puts(&b, proved ? "{\"not_differentiable\": true, \"branch_points\": ["
                        : "{\"differentiable\": \"undecided\", \"branch_points\": [");
    for (int j = 0; j < ns; j++) {
      if (j) buf_puts(&b, ", ");
      write_site(&b, cmd, &sites[j], 0);
    }
    buf_printf(&b, "], \"complete\": %s, \"limits\": [", x->too_many ? "false" : "true");
    for (int i = 0; i < x->n; i++) {
      if (i) buf_puts(&b, ", ");
      buf_puts(&b, "{\"branches\": [");
      for (int k = 0; k < x->res[i].n_choices; k++) {
        if (k) buf_puts(&b, ", ");
        write_site(&b, cmd, &x->res[i].choices[k], 1);
      }
      buf_puts(&b, "], \"result\": ");
      const char *o = x->res[i].out ? x->res[i].out : "null";
      size_t n = strlen(o);
      while (n && o[n - 1] == '\n') n--;
      buf_printf(&b, "%.*s, \"realized\": %s}", (int)n, o, real[i] ? "true" : "false");
    }
    buf_puts(&b, "]}\n");
    int line, col;
    site_pos(cmd, &sites[0], &line, &col);
    if (proved)
      rc = diag_set(d, CHAD_EXIT_NONDIFF, cmd->file, line, col,
                    "not differentiable at this point: %s (%s at %.17g); the results of its %d "
                    "branches (the limiting derivatives) are on stdout", site_name(&sites[0]),
                    prim_name(sites[0].op), arf_get_d(&sites[0].key, ARF_RND_NEAR), x->n);
    else
      rc = diag_set(d, CHAD_EXIT_UNDECIDED, cmd->file, line, col,
                    "differentiability undecided at this point: %s (%s at %.17g) whose sides "
                    "give different results, but no two of them are proved one-sided limits "
                    "(a tie that nearby points may not leave: its difference's gradient is 0 "
                    "or not decided); the results of its %d branches are on stdout",
                    site_name(&sites[0]), prim_name(sites[0].op),
                    arf_get_d(&sites[0].key, ARF_RND_NEAR), x->n);
    for (int j = 0; j < ns; j++) site_clear(&sites[j]);
    if (b.oom) {
      buf_free(&b);
      rc = diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory writing the output");
    } else {
      *out = b.data;
    }
  }
done:
  exploration_clear(x);
  free(x);
  set_choices(NULL, 0);
  reset_outcome();
  cert.active = 0;
  cert.deriv = 0;
  cert.prec = 64;
  return rc;
}
