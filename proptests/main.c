/* make proptest: random well-typed programs against CHAD's theorems.
 *   PROPTEST_N      programs per property (default 10000)
 *   PROPTEST_SEED   seed (default: from the clock; printed first)
 *   PROPTEST_SIZE   size budget of a program (default 40)
 *   PROPTEST_QUIET  1: no progress lines
 *   PROPTEST_SUGAR_N, PROPTEST_SUGAR_SIZE, PROPTEST_SUGAR_FIRST
 *                   the surface-sugar family (sugarrun.c): programs
 *                   (default PROPTEST_N / 5), size budget (default 30), index of the
 *                   first program; PROPTEST_SUGAR_EMIT a folder: write
 *                   each as DIR/sugar-I.chad (its core form `core`, then
 *                   `prog`) instead of testing it
 *   PROPTEST_FIRST  index of the first program (to rerun program i alone:
 *                   PROPTEST_FIRST=i PROPTEST_N=1)
 *   PROPTEST_EMIT   a folder: write the generated programs instead of
 *                   testing them (the generator as a command, for
 *                   difftest/): DIR/prog-I.chad and DIR/prog-I.json, the
 *                   latter {"args", "tangent", "cotangent"} in the command
 *                   line's JSON conventions
 *   PROPTEST_SHRINK a folder: shrink program PROPTEST_FIRST against an
 *                   outside oracle instead of testing it (difftest/): each
 *                   candidate is written as DIR/cand.chad and .json, the
 *                   line "candidate" printed, and a line "fails" read back
 *                   if the failure is still there; the result is
 *                   DIR/shrunk.chad and .json
 * Prints per-property counts and a last line "N passed, N failed"; exits 1
 * on any failure. A failing program is shrunk and printed in the surface
 * syntax with its inputs (JSON), tangent and cotangent. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <signal.h>
#include <unistd.h>
#include "props.h"
#include "sugarrun.h"
#include "chad/fast.h"
#include "chad/eval.h"
#include "chad/chad.h"

#define HEAP_LIMIT ((size_t)256 << 20)
#define MAX_REPORTS 3

static long kind_count[TM_NKINDS], op_count_[P_COUNT], nodes_total, const_programs;

/* Coverage: how often each term kind and primitive occurs. */
static void cover(int t) {
  kind_count[tm_kind(t)]++;
  nodes_total++;
  if (tm_kind(t) == TM_OP) op_count_[tm_aux(t)]++;
  int ks[3] = {tm_a(t), tm_b(t), tm_c(t)};
  for (int i = 0; i < 3; i++)
    if (ks[i] >= 0) cover(ks[i]);
}

static void print_coverage(long n) {
  static const char *kn[] = {"var", "let", "lam", "app", "unit", "pair", "fst", "snd", "inl", "inr",
                             "case", "rconst", "iconst", "op", "iter", "loop", "build", "index", "length", "map", "sum"};
  printf("coverage: %.1f nodes per program;", (double)nodes_total / (double)(n ? n : 1));
  for (int k = 0; k <= TM_SUM; k++) printf(" %s %ld", kn[k], kind_count[k]);
  printf("\n  primitives:");
  for (int o = 0; o < P_COUNT; o++) printf(" %s %ld", prim_name(o), op_count_[o]);
  printf("\n  programs with an all-zero Jacobian along dx: %ld\n", const_programs);
}

static long npass[PR_N], nfail[PR_N], nskip[PR_N];
static long reported[PR_N];

static uint64_t env_u64(const char *name, uint64_t dflt) {
  const char *s = getenv(name);
  if (!s || !*s) return dflt;
  char *end;
  unsigned long long v = strtoull(s, &end, 0);
  if (*end) { fprintf(stderr, "proptest: %s must be a number\n", name); exit(2); }
  return v;
}

static void fill_case(pt_case *c, prng *r) {
  for (int i = 0; i < c->p.nparams; i++)
    c->args[i] = pt_random_value(c->h, r, c->p.param_ty[i], c->p.len);
}

static void fill_dirs(pt_case *c, prng *r) {
  for (int i = 0; i < c->n; i++) c->dx[i] = prng_range(r, -1, 1);
  for (int j = 0; j < c->m; j++) c->v[j] = prng_range(r, -1, 1);
}

/* A shrinking predicate: rebuilds tree t into a fresh arena; returns the
 * rebuilt term if the failure is still there, else -1. */
typedef int (*pt_pred)(void *cx, pt_case *c, const ptree *t);

/* Rebuilds t as a usable case d (same parameters, same input and output
 * dimensions); its root term, or -1. */
static int rebuild_case(pt_case *c, const ptree *t, pt_case *d) {
  tm_init();
  int term = pt_rebuild(t, c->p.ctx);
  if (term < 0) return -1;
  *d = *c;
  d->p.term = term;
  if (pt_case_prepare(d) < 0 || d->n != c->n || d->m != c->m) return -1;
  return term;
}

/* The predicate of the property tests: property *(int *)cx still fails. */
static int still_fails(void *cx, pt_case *c, const ptree *t) {
  int k = *(int *)cx;
  pt_case d;
  int term = rebuild_case(c, t, &d);
  if (term < 0) return -1;
  pt_case_check(&d, 1u << k);
  return d.st[k] == ST_FAIL ? term : -1;
}

/* Replaces subterms by smaller ones of the same type while the failure
 * (pred) is still there: a child or grandchild of the same type and
 * context, a let body or case branch that does not use its binder, a let
 * of a variable inlined, a constant, a variable. */
static ptree *shrink(pt_case *c, ptree *t, pt_pred pred, void *cx) {
  int budget = 3000;
  for (int improved = 1; improved && budget > 0;) {
    improved = 0;
    int size = pt_size(t);
    for (int pos = 0; pos < size && !improved && budget > 0; pos++) {
      ptree *node = *pt_nth(&t, pos);
      int nsize = pt_size(node);
      ptree *cand[20];
      int nc = 0;
      for (int i = 0; i < node->nkids; i++) {
        if (node->kid[i]->ty == node->ty && node->kid[i]->ctx == node->ctx) {
          cand[nc++] = pt_copy(node->kid[i]);
        } else if (node->kid[i]->ty != node->ty) {
          /* a grandchild: an argument of a binary primitive (op of a pair) */
          for (int j = 0; j < node->kid[i]->nkids && nc < 8; j++) {
            const ptree *g = node->kid[i]->kid[j];
            if (g->ty == node->ty && g->ctx == node->ctx) cand[nc++] = pt_copy(g);
          }
        } else if (node->kid[i]->ty == node->ty &&
                 ((node->kind == TM_LET && i == 1) || (node->kind == TM_CASE && i >= 1))) {
          ptree *s = pt_strengthen(node->kid[i]);
          if (s) cand[nc++] = s;
        }
      }
      ptree *inl = pt_inline_var(node);
      if (inl) cand[nc++] = inl;
      for (int v = 0; v < 12 && nc < 20; v++) {
        ptree *l = pt_leaf(node->ty, node->ctx, v, c->p.len);
        if (l) cand[nc++] = l;
      }
      for (int i = 0; i < nc; i++) {
        if (!improved && pt_size(cand[i]) < nsize && budget-- > 0) {
          ptree *t2 = pt_copy(t);
          ptree **slot = pt_nth(&t2, pos);
          pt_free(*slot);
          *slot = cand[i];
          cand[i] = NULL;
          int term = pred(cx, c, t2);
          pt_free(t2);
          if (term >= 0) { pt_free(t); t = pt_extract(term); improved = 1; }
        }
        pt_free(cand[i]);
      }
    }
  }
  return t;
}

static void print_list(FILE *f, const int *tys, const value **vs, int n) {
  fprintf(f, "[");
  for (int i = 0; i < n; i++) {
    if (i) fprintf(f, ", ");
    pt_print_json(f, tys[i], vs[i]);
  }
  fprintf(f, "]");
}

/* c's tangent (per parameter) and cotangent as values of h, in the
 * command line's JSON conventions. */
static const value *directions(heap *h, pt_case *c, const value **dxs) {
  int pos = 0;
  for (int i = 0; i < c->p.nparams; i++) dxs[i] = pt_tangent(h, c->p.param_ty[i], c->args[i], c->dx, &pos);
  pos = 0;
  return pt_tangent(h, c->p.result_ty, c->y, c->v, &pos);
}

/* Writes case c as DIR/NAME.chad (the program) and DIR/NAME.json (its
 * inputs, tangent and cotangent, in the command line's JSON conventions). */
static int write_case(const char *dir, const char *name, pt_case *c) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s.chad", dir, name);
  FILE *pf = fopen(path, "w");
  if (!pf) return -1;
  pt_print_program(pf, &c->p, c->p.term);
  fclose(pf);
  snprintf(path, sizeof path, "%s/%s.json", dir, name);
  FILE *jf = fopen(path, "w");
  if (!jf) return -1;
  heap *h = heap_new((size_t)16 << 20);
  const value *dxs[PT_MAX_PARAMS];
  const value *cot = directions(h, c, dxs);
  fprintf(jf, "{\"args\": ");
  print_list(jf, c->p.param_ty, c->args, c->p.nparams);
  fprintf(jf, ", \"tangent\": ");
  print_list(jf, c->p.param_ty, dxs, c->p.nparams);
  fprintf(jf, ", \"cotangent\": ");
  pt_print_json(jf, c->p.result_ty, cot);
  fprintf(jf, "}\n");
  fclose(jf);
  heap_free(h);
  return 0;
}

/* PROPTEST_EMIT: program `index` as DIR/prog-INDEX.chad and .json. */
static int emit(const char *dir, pt_case *c, long index) {
  char name[64];
  snprintf(name, sizeof name, "prog-%ld", index);
  return write_case(dir, name, c);
}

/* The predicate of PROPTEST_SHRINK: an outside oracle. The candidate is
 * written as DIR/cand.chad and .json, the line "candidate" goes to standard
 * output, and the oracle answers with a line on standard input: "fails"
 * (the failure is still there) or anything else. */
static int oracle_fails(void *cx, pt_case *c, const ptree *t) {
  const char *dir = cx;
  pt_case d;
  int term = rebuild_case(c, t, &d);
  if (term < 0) return -1;
  if (write_case(dir, "cand", &d) < 0) { fprintf(stderr, "proptest: cannot write into %s\n", dir); exit(2); }
  printf("candidate\n");
  fflush(stdout);
  char line[64];
  if (!fgets(line, sizeof line, stdin)) exit(2);   /* the oracle went away */
  return strncmp(line, "fails", 5) == 0 ? term : -1;
}

/* PROPTEST_SHRINK=DIR: shrinks program `index` against the outside oracle
 * (for difftest/: a failure found by another tool, e.g. PyTorch graded
 * wrong); the original is asked first. Writes DIR/shrunk.chad and .json and
 * prints "shrunk from A to B nodes"; exits 1 if the original does not fail. */
static int shrink_outside(const char *dir, pt_case *c) {
  ptree *t = pt_extract(c->p.term);
  int before = pt_size(t);
  if (oracle_fails((void *)dir, c, t) < 0) {
    printf("the oracle does not fail the original program\n");
    pt_free(t);
    return 1;
  }
  t = shrink(c, t, oracle_fails, (void *)dir);
  pt_case d;
  int term = rebuild_case(c, t, &d);
  if (term < 0 || write_case(dir, "shrunk", &d) < 0) {
    fprintf(stderr, "proptest: the shrunk program does not rebuild\n");
    return 2;
  }
  printf("shrunk from %d to %d nodes\n", before, pt_size(t));
  pt_free(t);
  return 0;
}

static void report(pt_case *c, int k, long index, uint64_t seed) {
  printf("FAIL %s  (seed %llu, program %ld)\n  %s\n", pt_prop_name[k],
         (unsigned long long)seed, index, c->msg[k]);
  ptree *t = pt_extract(c->p.term);
  int before = pt_size(t);
  t = shrink(c, t, still_fails, &k);
  tm_init();
  int term = pt_rebuild(t, c->p.ctx);
  pt_case d = *c;
  d.p.term = term;
  if (term >= 0 && pt_case_prepare(&d) == 0) {
    pt_case_check(&d, 1u << k);
    printf("  shrunk from %d to %d nodes; still fails: %s\n", before, pt_size(t),
           d.st[k] == ST_FAIL ? d.msg[k] : "(no: shrinking lost it)");
  }
  printf("  program:\n");
  int shown = term >= 0 ? term : c->p.term;
  pt_print_program(stdout, &d.p, shown);
  /* the same, as a file the command line reads */
  char path[128];
  snprintf(path, sizeof path, "build/proptest/failure-%d-%ld.chad", k, index);
  FILE *pf = fopen(path, "w");
  if (pf) { pt_print_program(pf, &d.p, shown); fclose(pf); }
  /* inputs, tangent and cotangent in the command line's JSON conventions */
  heap *h = heap_new((size_t)16 << 20);
  const value *dxs[PT_MAX_PARAMS];
  const value *cot = directions(h, c, dxs);
  printf("  reproduce: chad jvp %s --args '", path);
  print_list(stdout, c->p.param_ty, c->args, c->p.nparams);
  printf("' --tangent '");
  print_list(stdout, c->p.param_ty, dxs, c->p.nparams);
  printf("'\n             chad vjp %s --args '", path);
  print_list(stdout, c->p.param_ty, c->args, c->p.nparams);
  printf("' --cotangent '");
  pt_print_json(stdout, c->p.result_ty, cot);
  printf("'\n");
  heap_free(h);
  fflush(stdout);
  pt_free(t);
}

/* A crash inside the code under test must still end the run with a
 * verdict and a way to reproduce it. */
static volatile sig_atomic_t cur_index = -1;
static uint64_t cur_seed;

static void on_crash(int sig) {
  char buf[256];
  long tp = 0, tf = 1;
  for (int k = 0; k < PR_N; k++) { tp += npass[k]; tf += nfail[k]; }
  int n = cur_index == -2
    ? snprintf(buf, sizeof buf,
               "\nFAIL crash (signal %d) on sugar program %ld: reproduce with "
               "PROPTEST_SEED=%llu PROPTEST_N=0 PROPTEST_SUGAR_FIRST=%ld PROPTEST_SUGAR_N=1\n"
               "%ld passed, %ld failed\n",
               sig, (long)pt_sugar_cur, (unsigned long long)cur_seed, (long)pt_sugar_cur, tp, tf)
    : snprintf(buf, sizeof buf,
                   "\nFAIL crash (signal %d) on program %ld (-1: primitive checks): reproduce with "
                   "PROPTEST_SEED=%llu PROPTEST_FIRST=%ld PROPTEST_N=1\n"
                   "%ld passed, %ld failed\n",
                   sig, (long)cur_index, (unsigned long long)cur_seed, (long)cur_index, tp, tf);
  if (n > 0) {
    fflush(stdout);
    ssize_t w = write(STDOUT_FILENO, buf, (size_t)n);
    (void)w;
  }
  _exit(1);
}

static void setup(void) {
  ty_init();
  ctx_init();
  tm_init();
  raw_init();
  op_init();
  if (prims_init() < 0) { fprintf(stderr, "proptest: prims_init failed\n"); exit(2); }
  chad_init();
  pt_types_init();
  /* the fast evaluator compiles every loop, so the small random programs
   * reach its bytecode paths (its OpenMP paths, worth it only for large
   * loops, are compared with eval_ref in tests/unit/test_fast.c) */
  fast_set_loop_min(0);
}

int main(void) {
  uint64_t seed = env_u64("PROPTEST_SEED", (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20));
  long N = (long)env_u64("PROPTEST_N", 10000);
  int maxsize = (int)env_u64("PROPTEST_SIZE", 40);
  if (maxsize < 2 || maxsize > 10000 || N < 0 || N > 100000000) {
    fprintf(stderr, "proptest: PROPTEST_SIZE must be in 2..10000, PROPTEST_N in 0..1e8\n");
    return 2;
  }
  int quiet = (int)env_u64("PROPTEST_QUIET", 0);
  long first = (long)env_u64("PROPTEST_FIRST", 0);
  const char *emit_dir = getenv("PROPTEST_EMIT");
  if (emit_dir && !*emit_dir) emit_dir = NULL;
  const char *shrink_dir = getenv("PROPTEST_SHRINK");
  if (shrink_dir && !*shrink_dir) shrink_dir = NULL;
  cur_seed = seed;
  signal(SIGSEGV, on_crash);
  signal(SIGBUS, on_crash);
  signal(SIGFPE, on_crash);
  signal(SIGABRT, on_crash);
  signal(SIGILL, on_crash);
  printf("proptest seed %llu  (PROPTEST_SEED=%llu PROPTEST_N=%ld reproduces this run)\n",
         (unsigned long long)seed, (unsigned long long)seed, N);
  fflush(stdout);
  if (!emit_dir && !shrink_dir && pt_fd_selfcheck() < 0) { printf("0 passed, 1 failed\n"); return 1; }
  time_t t0 = time(NULL);
  long discarded = 0;
  for (long i = first; i < first + N; i++) {
    cur_index = i;
    prng r = {seed ^ (0xD1B54A32D192ED03ULL * (uint64_t)(i + 1))};
    pt_case *c = calloc(1, sizeof *c);
    if (!c) return 2;
    for (int tries = 0;; tries++) {
      if (tries == 1000) {
        printf("FAIL the generator made 1000 programs in a row that fail at their input\n0 passed, 1 failed\n");
        return 1;
      }
      setup(); /* fresh arenas: types and contexts accumulate otherwise */
      c->h = heap_new(HEAP_LIMIT);
      if (!c->h) { fprintf(stderr, "proptest: out of memory\n"); return 2; }
      pt_gen_program(&r, 2 + prng_below(&r, maxsize - 1), &c->p);
      fill_case(c, &r);
      if (pt_case_prepare(c) == 0) break;
      heap_free(c->h);
      discarded++;
    }
    fill_dirs(c, &r);
    if (shrink_dir) return shrink_outside(shrink_dir, c);
    if (emit_dir) {
      if (emit(emit_dir, c, i) < 0) { fprintf(stderr, "proptest: cannot write into %s\n", emit_dir); return 2; }
      heap_free(c->h);
      free(c);
      continue;
    }
    cover(c->p.term);
    pt_case_check(c, ((1u << PR_N) - 1) & ~(1u << PR_PRIMS));
    const_programs += c->zero_jac;
    int first_fail = pt_tally(c->st, PR_N, -1, npass, nskip, nfail, reported, MAX_REPORTS);
    /* one report per program (shrinking resets the arena), for the first
     * failing property; the others are named */
    if (first_fail >= 0) {
      for (int k = first_fail + 1; k < PR_N; k++)
        if (c->st[k] == ST_FAIL) printf("FAIL %s  (seed %llu, program %ld)\n  %s\n", pt_prop_name[k],
                                        (unsigned long long)seed, i, c->msg[k]);
      report(c, first_fail, i, seed);
    }
    heap_free(c->h);
    free(c);
    if (!quiet && (i + 1 - first) % 1000 == 0) {
      long f = 0;
      for (int k = 0; k < PR_N; k++) f += nfail[k];
      printf("  ... %ld programs, %ld failures, %lds\n", i + 1 - first, f, (long)(time(NULL) - t0));
      fflush(stdout);
    }
  }
  if (emit_dir) {
    printf("emitted programs %ld..%ld into %s (seed %llu)\n", first, first + N - 1, emit_dir,
           (unsigned long long)seed);
    return 0;
  }
  long sugar_n = (long)env_u64("PROPTEST_SUGAR_N", (uint64_t)(N / 5));
  int sugar_size = (int)env_u64("PROPTEST_SUGAR_SIZE", 30);
  long sugar_first = (long)env_u64("PROPTEST_SUGAR_FIRST", 0);
  if (sugar_size < 2 || sugar_size > 10000 || sugar_n < 0 || sugar_n > 100000000) {
    fprintf(stderr, "proptest: PROPTEST_SUGAR_SIZE must be in 2..10000, PROPTEST_SUGAR_N in 0..1e8\n");
    return 2;
  }
  long sugar_pass = 0, sugar_fail = 0;
  cur_index = -2;   /* a crash from here on is in the sugar family */
  pt_sugar_run(seed, sugar_first, sugar_n, sugar_size, quiet, setup, &sugar_pass, &sugar_fail);

  prng pr = {seed ^ 0x5EEDULL};
  int pp = 0, pf = 0, ps = 0;
  setup();
  cur_index = -1;   /* a crash from here on is in the primitive checks */
  pt_prop_prims(&pr, (int)N, &pp, &pf, &ps, 1);
  npass[PR_PRIMS] = pp; nfail[PR_PRIMS] = pf; nskip[PR_PRIMS] = ps;

  printf("\n%-48s %8s %8s %8s\n", "property", "passed", "failed", "skipped");
  long tp = sugar_pass, tf = sugar_fail;
  for (int k = 0; k < PR_N; k++) {
    printf("%-48s %8ld %8ld %8ld\n", pt_prop_name[k], npass[k], nfail[k], nskip[k]);
    tp += npass[k];
    tf += nfail[k];
  }
  print_coverage(N);
  fast_stats fs;
  fast_stats_get(&fs);
  printf("fast evaluator: %lld loops compiled, %lld interpreted, %lld compiled loops abandoned\n",
         (long long)fs.compiled_loops, (long long)fs.generic_loops, (long long)fs.bailouts);
  printf("size: largest output/input node ratio F %.1f, R %.1f (bound %.0f)\n",
         pt_size_max_f, pt_size_max_r, pt_size_bound);
  printf("(%ld generated programs discarded before testing: runtime error or non-finite value; %lds)\n",
         discarded, (long)(time(NULL) - t0));
  printf("%ld passed, %ld failed\n", tp, tf);
  return tf ? 1 : 0;
}
