/* Size of the CHAD output (rules card §6, CHAD Cor. 7.2): every subterm's
 * translation is emitted once, so |F t| and |R t| are linear in |t|.
 * Measure: |t|_v = node count where a variable `var k` counts k + 1 (the
 * card's proj_k / onehot_k are k projections / pairs deep). We check
 *   |F t| <= 24 |t|_v  and  |R t| <= 24 |t|_v  (measured worst: 18.2)
 * on every test program, and that the ratio stays flat on families of
 * growing programs (let chains, nested lambdas, nested builds), which it
 * would not if any subterm were duplicated. The plain node ratio is checked
 * against the same bound on all programs except the deep_var family, which
 * shows why the weighting is needed (every let uses the outermost variable). */
#include "chad_progs.h"

#include "check.h"

#define SIZE_CONST 24.0

static int64_t vsize_stack[1 << 20];
/* node count with var k weighted k + 1 */
static int64_t vsize(int t)
{
  int64_t n = 0;
  int sp = 0;
  vsize_stack[sp++] = t;
  while (sp > 0) {
    int u = (int)vsize_stack[--sp];
    n += tm_kind(u) == TM_VAR ? tm_aux(u) + 1 : 1;
    int k = tm_kind(u);
    if (k == TM_VAR || k == TM_ICONST || k == TM_RCONST || k == TM_UNIT || k == TM_ZERO)
      continue;
    int ch[3] = {tm_a(u), tm_b(u), tm_c(u)};
    for (int i = 0; i < 3; i++)
      if (ch[i] >= 0)
        vsize_stack[sp++] = ch[i];
  }
  return n;
}

static double worst;
static void measure(const char *name, int t, int quiet)
{
  int64_t in = vsize(t), plain = chad_term_size(t);
  int f = chad_fwd(t), r = chad_rev(t);
  CHECKM(f >= 0 && r >= 0, "%s: transform failed %d %d (ctxs %d terms %d types %d)", name, f, r, ctx_count, tm_count, ty_count);
  if (f < 0 || r < 0) return;
  int64_t fo = chad_term_size(f), ro = chad_term_size(r);
  double rf = (double)fo / (double)in, rr = (double)ro / (double)in;
  if (rf > worst) worst = rf;
  if (rr > worst) worst = rr;
  CHECKM(rf <= SIZE_CONST && rr <= SIZE_CONST, "%s: ratio %.2f / %.2f above %.0f", name, rf, rr, SIZE_CONST);
  if (quiet != 1)
    printf("%-14s |t| %6lld |t|_v %6lld  |F| %7lld (%.2f)  |R| %7lld (%.2f)\n", name,
           (long long)plain, (long long)in, (long long)fo, rf, (long long)ro, rr);
  /* plain node ratio too, except for the family built to show var depth */
  if (quiet != 2)
    CHECKM((double)fo <= SIZE_CONST * (double)plain && (double)ro <= SIZE_CONST * (double)plain,
           "%s: plain node ratio above %.0f", name, SIZE_CONST);
  else
    printf("  (plain ratio %.2f / %.2f: grows with the depth of the variables used)\n",
           (double)fo / (double)plain, (double)ro / (double)plain);
}

/* x:R |- let x1 = x*x; x2 = x1*x; ...; xn = x_{n-1} * x_{n-2} in xn */
static int let_chain(int n)
{
  int g = ext(CTX_EMPTY, R_);
  int gs[4096];
  int bounds[4096];
  gs[0] = g;
  for (int i = 0; i < n; i++) {
    int gi = gs[i];
    bounds[i] = i == 0 ? mul(var(gi, 0), var(gi, 0)) : op1(P_SIN, mul(var(gi, 0), var(gi, 1)));
    gs[i + 1] = ext(gi, R_);
  }
  int body = var(gs[n], 0);
  for (int i = n - 1; i >= 0; i--)
    body = let(bounds[i], body);
  return body;
}

/* x:R |- (\y1. (\y2. ... (\yn. yn * x) ...) ) applied: nested lambdas applied at each level */
static int nested_lams(int n)
{
  int gs[4096];
  gs[0] = ext(CTX_EMPTY, R_);
  for (int i = 0; i < n; i++)
    gs[i + 1] = ext(gs[i], R_);
  int body = mul(var(gs[n], 0), var(gs[n], 1));
  for (int i = n - 1; i >= 0; i--)   /* body in gs[i+1]: wrap as (\y. body) (var 0 of gs[i]) */
    body = app(lam(R_, body), op1(P_SIN, var(gs[i], 0)));
  return body;
}

/* a:Arr R |- sum (build n (i. sum (build n (j. ... a[i]...)))) nested d deep */
static int nested_builds(int d)
{
  int gs[64];
  gs[0] = ext(CTX_EMPTY, A_);
  for (int i = 0; i < d; i++)
    gs[i + 1] = ext(gs[i], I_);
  int body = OK(tm_index(var(gs[d], d), var(gs[d], 0)));
  for (int i = d - 1; i >= 0; i--)
    body = OK(tm_sum(OK(tm_build(OK(tm_length(var(gs[i], i))), body))));
  return body;
}

/* x:R |- let y1 = x * x; y2 = y1 * x; ...; yn = y_{n-1} * x in yn: every
 * let uses x, which is ever deeper: proj_k / onehot_k of size k */
static int deep_var(int n)
{
  int gs[4096], bounds[4096];
  gs[0] = ext(CTX_EMPTY, R_);
  for (int i = 0; i < n; i++) {
    bounds[i] = mul(var(gs[i], 0), var(gs[i], i));     /* var i of gs[i] is x */
    gs[i + 1] = ext(gs[i], R_);
  }
  int body = var(gs[n], 0);
  for (int i = n - 1; i >= 0; i--)
    body = let(bounds[i], body);
  return body;
}

int main(void)
{
  prog_setup();
  prog ps[N_PROGS];
  int n = build_progs(ps);
  for (int i = 0; i < n; i++)
    measure(ps[i].name, ps[i].term, 0);
  char name[64];
  /* (1000 binders would need more than the kernel's 8192 types: every
   * context depth has its own T G and C G tuple types) */
  for (int k = 10; k <= 400; k *= 4) {
    snprintf(name, sizeof name, "let_chain%d", k);
    measure(name, let_chain(k), 0);
  }
  for (int k = 10; k <= 160; k *= 4) {
    snprintf(name, sizeof name, "nested_lam%d", k);
    measure(name, nested_lams(k), 0);
  }
  for (int k = 1; k <= 8; k *= 2) {
    snprintf(name, sizeof name, "nested_build%d", k);
    measure(name, nested_builds(k), 0);
  }
  for (int k = 10; k <= 160; k *= 4) {
    snprintf(name, sizeof name, "deep_var%d", k);
    measure(name, deep_var(k), 2);
  }
  printf("worst output/input ratio %.2f (bound %.0f)\n", worst, SIZE_CONST);
  printf("test_chad_size: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
