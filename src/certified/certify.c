/* The certified evaluator's driver (certify.h, spec/certified.md).
 *
 * A certified command runs the ordinary command (its heap in ball mode, the
 * reference evaluator computing on Arb balls) at 64, 128, 256, ... bits
 * until every real it writes rounds to one double, or the precision cap is
 * reached ("undecided" entries, exit 5). A derivative command stops at a
 * branch point it cannot decide at any precision (equal numbers compared, a
 * tie of max/min, abs at 0); it is then rerun once per side of each branch
 * point, and if the sides disagree the point is reported not
 * differentiable (exit 4) with every side's result: the limiting
 * derivatives whose convex hull is Clarke's generalized gradient. A lookup
 * run of the primal program finds the source position of each branch
 * point and of each undefined value's birth.
 */
#include "certified/certify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void reset_outcome(void) {
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
  if (with_side) buf_printf(b, ", \"side\": \"%s\"", side_name(s));
  buf_puts(b, "}");
}

/* ---- the driver ----------------------------------------------------------------- */
static int results_agree(const exploration *x) {
  for (int i = 1; i < x->n; i++)
    if (x->res[i].rc != x->res[0].rc ||
        strcmp(x->res[i].out ? x->res[i].out : "", x->res[0].out ? x->res[0].out : "") != 0)
      return 0;
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
  /* Branches that disagree: not differentiable here. */
  {
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
    buf_puts(&b, "{\"not_differentiable\": true, \"branch_points\": [");
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
      buf_printf(&b, "%.*s}", (int)n, o);
    }
    buf_puts(&b, "]}\n");
    int line, col;
    site_pos(cmd, &sites[0], &line, &col);
    rc = diag_set(d, CHAD_EXIT_NONDIFF, cmd->file, line, col,
                  "not differentiable at this point: %s (%s at %.17g); the results of its %d "
                  "branches (the limiting derivatives) are on stdout", site_name(&sites[0]),
                  prim_name(sites[0].op), arf_get_d(&sites[0].key, ARF_RND_NEAR), x->n);
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
