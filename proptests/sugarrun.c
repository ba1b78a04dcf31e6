/* The surface-sugar family's run (spec/properties.md "The surface-sugar
 * family"): each generated program (sugar.c) is elaborated with its
 * conveniences and as its hand-desugared core form; the two must mean the
 * same (pt_case_same), both must print as programs that parse back to the
 * same terms, the program called from another def and inlined must mean
 * the same, and the sugared form must pass the program properties of
 * props.c. A failure is shrunk on the family's own tree, so the report is
 * still a program with conveniences, printed with its core form. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "props.h"
#include "sugar.h"
#include "sugarrun.h"

#define SG_HEAP ((size_t)256 << 20)
#define SG_MAX_REPORTS 3

enum { SG_ELAB = PR_N, SG_SAME, SG_PRINT, SG_INLINE, SG_ROWS };
volatile sig_atomic_t pt_sugar_cur = -1;

static const char *row_name(int k) {
  if (k == SG_ELAB) return "sugared and core forms elaborate alike";
  if (k == SG_SAME) return "sugar = hand desugaring (ref, fast, ball)";
  if (k == SG_PRINT) return "printed forms parse back to the same terms";
  if (k == SG_INLINE) return "called from another def, inlined = as written";
  return pt_prop_name[k];
}
/* The program properties run on the sugared form: all but the primitive one. */
static const unsigned PROPS_MASK = ((1u << PR_N) - 1) & ~(1u << PR_PRIMS);

typedef struct {
  pt_case c;
  const sg_program *sp;
  int tcore;
  int st[SG_ROWS];
  char msg[SG_ROWS][PT_MSG];
  int ball_skipped;
} sg_case;

/* Elaborates both forms of sp into c (after a setup()), takes the inputs
 * from `like` (same shapes) or draws them from r, and evaluates. 0: ready;
 * 1: the program fails or is not finite at its input (discarded); -1: an
 * elaboration failed (the message in st/msg of SG_ELAB). */
static int prepare(const sg_program *sp, sg_case *k, prng *r, const sg_case *like) {
  pt_case *c = &k->c;
  char *S = sg_render(sp, 0, "prog"), *C = sg_render(sp, 1, "prog");
  char why[400];
  int g = CTX_EMPTY, gs = -1, gc = -1;
  c->p.nparams = sp->nparams;
  c->p.len = sp->len;
  for (int i = 0; i < sp->nparams; i++) {
    c->p.param_ty[i] = sg_kernel_type(sp->param_y[i]);
    g = ctx_extend(g, c->p.param_ty[i]);
  }
  c->p.ctx = g;
  c->p.result_ty = sg_kernel_type(sp->result_y);
  int ts = pt_elab_text(S, 0, &gs, why, sizeof why);
  int rc = 0;
  if (ts < 0) {
    snprintf(k->msg[SG_ELAB], PT_MSG, "the sugared form %s", why);
    rc = -1;
  } else if (gs != g || tm_type(ts) != c->p.result_ty) {
    snprintf(k->msg[SG_ELAB], PT_MSG, "the sugared form elaborates in another context or at another type");
    rc = -1;
  }
  int tc = rc ? -1 : pt_elab_text(C, 0, &gc, why, sizeof why);
  if (!rc && tc < 0) {
    snprintf(k->msg[SG_ELAB], PT_MSG, "the core form %s", why);
    rc = -1;
  } else if (!rc && (gc != g || tm_type(tc) != c->p.result_ty)) {
    snprintf(k->msg[SG_ELAB], PT_MSG, "the core form elaborates in another context or at another type");
    rc = -1;
  }
  free(S);
  free(C);
  k->st[SG_ELAB] = rc ? ST_FAIL : ST_PASS;
  if (rc) return -1;
  c->p.term = ts;
  k->tcore = tc;
  k->sp = sp;
  if (like) {
    int pos = 0;
    for (int i = 0; i < sp->nparams; i++)
      c->args[i] = pt_unflatten(c->h, c->p.param_ty[i], like->c.args[i], like->c.x, &pos);
  } else {
    for (int i = 0; i < sp->nparams; i++) c->args[i] = pt_random_value(c->h, r, c->p.param_ty[i], sp->len);
  }
  if (pt_case_prepare(c) < 0) return 1;
  if (like) {
    if (c->n != like->c.n || c->m != like->c.m) return 1;
    memcpy(c->dx, like->c.dx, sizeof c->dx);
    memcpy(c->v, like->c.v, sizeof c->v);
  } else {
    for (int i = 0; i < c->n; i++) c->dx[i] = prng_range(r, -1, 1);
    for (int j = 0; j < c->m; j++) c->v[j] = prng_range(r, -1, 1);
  }
  return 0;
}

/* Structural equality of two arena terms: kinds, types, contexts,
 * constants and children. */
static int same_term(int a, int b) {
  if (a == b) return 1;
  if (a < 0 || b < 0) return 0;
  if (tm_kind(a) != tm_kind(b) || tm_type(a) != tm_type(b) || tm_ctx(a) != tm_ctx(b) || tm_aux(a) != tm_aux(b))
    return 0;
  double x = tm_rval(a), y = tm_rval(b);
  if (memcmp(&x, &y, sizeof x) != 0) return 0;
  return same_term(tm_a(a), tm_a(b)) && same_term(tm_b(a), tm_b(b)) &&
         same_term(tm_c(a), tm_c(b));
}

/* spec/surface.md §6: a source term prints as a def that parses back to the
 * same arena structure; both elaborated forms. */
static int print_same(sg_case *k, char *why, size_t n) {
  int ts[2] = {k->c.p.term, k->tcore};
  for (int s = 0; s < 2; s++) {
    int g2 = -1;
    char m[400];
    int t2 = pt_roundtrip(ts[s], &g2, m, sizeof m);
    const char *form = s ? "core" : "sugared";
    if (t2 < 0) { snprintf(why, n, "the %s form: %s", form, m); return ST_FAIL; }
    if (g2 != k->c.p.ctx || !same_term(ts[s], t2)) {
      snprintf(why, n, "the %s form's printed program elaborates to another term", form);
      return ST_FAIL;
    }
  }
  return ST_PASS;
}

/* The sugared program as the body of a def `h` that a def `prog` calls
 * with its own parameters, elaborated with inlining (SURF_ELAB_INLINE):
 * the inliner copies the desugared body under let-bound arguments; the
 * result must mean the program as written (reference and fast evaluator). */
static int inlined_same(sg_case *k, char *why, size_t n, int *bs) {
  char *H = sg_render(k->sp, 0, "h");
  size_t cap = strlen(H) + 512;
  char *src = malloc(cap);
  if (!src) { free(H); snprintf(why, n, "out of memory"); return ST_FAIL; }
  size_t at = (size_t)snprintf(src, cap, "%sdef prog (", H);
  for (int i = 0; i < k->sp->nparams; i++)
    at += (size_t)snprintf(src + at, cap - at, "%sp%d : %s", i ? ", " : "", i, sg_type_text(k->sp->param_y[i]));
  at += (size_t)snprintf(src + at, cap - at, ") : %s = h", sg_type_text(k->sp->result_y));
  for (int i = 0; i < k->sp->nparams; i++) at += (size_t)snprintf(src + at, cap - at, " p%d", i);
  snprintf(src + at, cap - at, "\n");
  free(H);
  int g = -1;
  char m[400];
  int t = pt_elab_text(src, 1, &g, m, sizeof m);
  free(src);
  if (t < 0) { snprintf(why, n, "the calling program %s", m); return ST_FAIL; }
  if (g != k->c.p.ctx || tm_type(t) != k->c.p.result_ty) {
    snprintf(why, n, "the calling program elaborates in another context or at another type");
    return ST_FAIL;
  }
  return pt_case_same(&k->c, t, 0, bs, why, n);
}

/* Runs the rows in mask (bit k = row k) on a prepared case. */
static void check(sg_case *k, unsigned mask) {
  if (mask & (1u << SG_PRINT)) {
    char why[PT_MSG];
    k->st[SG_PRINT] = print_same(k, why, sizeof why);
    snprintf(k->msg[SG_PRINT], PT_MSG, "%s", k->st[SG_PRINT] == ST_FAIL ? why : "");
  }
  if (mask & (1u << SG_INLINE)) {
    char why[PT_MSG];
    int bs;
    k->st[SG_INLINE] = inlined_same(k, why, sizeof why, &bs);
    snprintf(k->msg[SG_INLINE], PT_MSG, "%s", k->st[SG_INLINE] == ST_FAIL ? why : "");
  }
  if (mask & (1u << SG_SAME)) {
    char why[PT_MSG];
    k->st[SG_SAME] = pt_case_same(&k->c, k->tcore, 1, &k->ball_skipped, why, sizeof why);
    snprintf(k->msg[SG_SAME], PT_MSG, "%s", k->st[SG_SAME] == ST_FAIL ? why : "");
  }
  if (mask & PROPS_MASK) {
    pt_case_check(&k->c, mask & PROPS_MASK);
    for (int j = 0; j < PR_N; j++) {
      k->st[j] = k->c.st[j];
      memcpy(k->msg[j], k->c.msg[j], PT_MSG);
    }
  }
}

typedef struct {
  int row;
  const sg_case *orig;
  void (*setup)(void);
} shrink_cx;

/* The shrinking predicate: the same row still fails on the same inputs. */
static int still_fails(void *cxv, const sg_program *cand) {
  shrink_cx *cx = cxv;
  cx->setup();
  sg_case *k = calloc(1, sizeof *k);
  if (!k) return 0;
  k->c.h = heap_new(SG_HEAP);
  int fails = 0;
  if (k->c.h) {
    int rc = prepare(cand, k, NULL, cx->orig);
    if (cx->row == SG_ELAB) fails = rc == -1;
    else if (rc == 0) {
      check(k, 1u << cx->row);
      fails = k->st[cx->row] == ST_FAIL;
    }
    heap_free(k->c.h);
  }
  free(k);
  return fails;
}

static void print_args(FILE *f, const pt_case *c, heap *h, int which) {
  int pos = 0;
  fprintf(f, "[");
  for (int i = 0; i < c->p.nparams; i++) {
    if (i) fprintf(f, ", ");
    pt_print_json(f, c->p.param_ty[i], which ? pt_tangent(h, c->p.param_ty[i], c->args[i], c->dx, &pos) : c->args[i]);
  }
  fprintf(f, "]");
}

static void report(sg_program *sp, const sg_case *k, int row, long index, uint64_t seed, void (*setup)(void)) {
  printf("FAIL %s  (seed %llu, sugar program %ld)\n  %s\n", row_name(row), (unsigned long long)seed, index,
         k->msg[row]);
  int before = sg_size(sp);
  shrink_cx cx = {row, k, setup};
  sg_shrink(sp, still_fails, &cx, 2000);
  /* the shrunk program's verdict, on the same inputs */
  setup();
  sg_case *d = calloc(1, sizeof *d);
  if (!d) return;
  d->c.h = heap_new(SG_HEAP);
  int rc = d->c.h ? prepare(sp, d, NULL, k) : 1;
  if (rc == 0) check(d, 1u << row);
  int still = row == SG_ELAB ? rc == -1 : rc == 0 && d->st[row] == ST_FAIL;
  printf("  shrunk from %d to %d nodes; still fails: %s\n", before, sg_size(sp),
         still ? d->msg[row] : "(no: shrinking lost it)");
  char *S = sg_render(sp, 0, "prog"), *C = sg_render(sp, 1, "core");
  printf("  program (with the conveniences):\n%s  hand-desugared core form:\n%s", S, C);
  if (row == SG_INLINE)
    printf("  (the failing program is `prog` renamed `h`, called as `h p0 ...` from a def with the same\n"
           "   parameters and elaborated with inlining: chad eval --inline)\n");
  char path[128];
  snprintf(path, sizeof path, "build/proptest/sugar-failure-%d-%ld.chad", row, index);
  FILE *pf = fopen(path, "w");
  if (pf) {
    fprintf(pf, "# the core form (by hand), then the program with the conveniences\n%s%s", C, S);
    fclose(pf);
  }
  if (rc == 0) {
    heap *h = heap_new((size_t)16 << 20);
    if (h) {
      int pos = 0;
      printf("  reproduce: chad jvp %s --fn prog --args '", path);
      print_args(stdout, &d->c, h, 0);
      printf("' --tangent '");
      print_args(stdout, &d->c, h, 1);
      printf("'   (--fn core: the same)\n             chad vjp %s --fn prog --args '", path);
      print_args(stdout, &d->c, h, 0);
      printf("' --cotangent '");
      pt_print_json(stdout, d->c.p.result_ty, pt_tangent(h, d->c.p.result_ty, d->c.y, d->c.v, &pos));
      printf("'\n");
      heap_free(h);
    }
  }
  free(S);
  free(C);
  if (d->c.h) heap_free(d->c.h);
  free(d);
  fflush(stdout);
}

void pt_sugar_run(uint64_t seed, long first, long N, int maxsize, int quiet, void (*setup)(void),
                  long *total_pass, long *total_fail) {
  long pass[SG_ROWS] = {0}, fail[SG_ROWS] = {0}, skip[SG_ROWS] = {0}, reported[SG_ROWS] = {0};
  long discarded = 0, ball_skips = 0, nodes = 0;
  long cov[32] = {0};
  time_t t0 = time(NULL);
  const char *emit_dir = getenv("PROPTEST_SUGAR_EMIT");
  if (emit_dir && !*emit_dir) emit_dir = NULL;
  for (long i = first; i < first + N; i++) {
    pt_sugar_cur = (sig_atomic_t)i;
    prng r = {seed ^ (0xA0761D6478BD642FULL * (uint64_t)(i + 1))};
    sg_case *k = calloc(1, sizeof *k);
    if (!k) { fprintf(stderr, "proptest: out of memory\n"); exit(2); }
    sg_program sp;
    int rc;
    for (int tries = 0;; tries++) {
      if (tries == 1000) {
        printf("FAIL the sugar generator made 1000 programs in a row that fail at their input\n");
        fail[SG_ELAB]++;
        goto done;
      }
      setup();
      k->c.h = heap_new(SG_HEAP);
      if (!k->c.h) { fprintf(stderr, "proptest: out of memory\n"); exit(2); }
      sg_gen(&r, 2 + prng_below(&r, maxsize - 1), &sp);
      rc = prepare(&sp, k, &r, NULL);
      if (rc <= 0) break;
      heap_free(k->c.h);
      sg_free(&sp);
      memset(k, 0, sizeof *k);
      discarded++;
    }
    if (emit_dir) { /* PROPTEST_SUGAR_EMIT: write the program, test nothing */
      char path[512];
      snprintf(path, sizeof path, "%s/sugar-%ld.chad", emit_dir, i);
      char *S = sg_render(&sp, 0, "prog"), *C = sg_render(&sp, 1, "core");
      FILE *f = fopen(path, "w");
      if (!f) { fprintf(stderr, "proptest: cannot write %s\n", path); exit(2); }
      fprintf(f, "# the core form (by hand), then the program with the conveniences\n%s%s", C, S);
      fclose(f);
      free(S);
      free(C);
      heap_free(k->c.h);
      sg_free(&sp);
      free(k);
      continue;
    }
    nodes += sg_size(&sp);
    sg_cover(&sp, cov);
    if (rc == 0) check(k, PROPS_MASK | (1u << SG_SAME) | (1u << SG_PRINT) | (1u << SG_INLINE));
    ball_skips += rc == 0 && k->ball_skipped;
    int first_fail = pt_tally(k->st, SG_ROWS, PR_PRIMS, pass, skip, fail, reported, SG_MAX_REPORTS);
    if (first_fail >= 0) {
      for (int j = 0; j < SG_ROWS; j++)
        if (j != first_fail && k->st[j] == ST_FAIL)
          printf("FAIL %s  (seed %llu, sugar program %ld)\n  %s\n", row_name(j), (unsigned long long)seed, i,
                 k->msg[j]);
      report(&sp, k, first_fail, i, seed, setup);
    }
    heap_free(k->c.h);
    sg_free(&sp);
    if (!quiet && (i + 1 - first) % 1000 == 0) {
      long f = 0;
      for (int j = 0; j < SG_ROWS; j++) f += fail[j];
      printf("  ... %ld programs (sugar family), %ld failures, %lds\n", i + 1 - first, f, (long)(time(NULL) - t0));
      fflush(stdout);
    }
  done:
    free(k);
  }
  if (emit_dir) {
    printf("emitted sugar programs %ld..%ld into %s (seed %llu)\n", first, first + N - 1, emit_dir,
           (unsigned long long)seed);
    return;
  }
  printf("\nsurface sugar family: %ld programs (PROPTEST_SUGAR_N), size budget %d\n", N, maxsize);
  printf("%-48s %8s %8s %8s\n", "property", "passed", "failed", "skipped");
  static const int order[] = {SG_ELAB, SG_SAME, SG_PRINT, SG_INLINE, PR_PRIMAL, PR_FWD, PR_REV, PR_TRANSPOSE, PR_JACOBIAN, PR_TYPES,
                              PR_SIZE, PR_SIMPLIFY, PR_ROUNDTRIP, PR_EVALS, PR_CERT};
  for (size_t q = 0; q < sizeof order / sizeof order[0]; q++) {
    int j = order[q];
    printf("%-48s %8ld %8ld %8ld\n", row_name(j), pass[j], fail[j], skip[j]);
    *total_pass += pass[j];
    *total_fail += fail[j];
  }
  printf("sugar coverage: %.1f nodes per program;", (double)nodes / (double)(N ? N : 1));
  for (int q = 0; q < sg_cover_n(); q++) printf(" %s %ld", sg_cover_name[q], cov[q]);
  printf("\n  the ball comparison gave no verdict (branch point, undecided comparison) on %ld programs\n",
         ball_skips);
  printf("(%ld generated sugar programs discarded before testing: runtime error or non-finite value; %lds)\n",
         discarded, (long)(time(NULL) - t0));
  fflush(stdout);
}
