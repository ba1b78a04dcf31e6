/* The simplifier preserves types and values and does not grow terms:
 * for every test program t, on F(t), R(t) and t itself:
 *  - same context and type (it builds through the kernel constructors);
 *  - no larger (node count), and for F(t) and R(t) smaller (each has zeros
 *    and trivial lets to remove; a simplifier that fails returns its input);
 *  - the same primal value and the same derivative at a non-basis
 *    (co)tangent, evaluated by the reference evaluator.
 * Prints the simplified derivatives of the CHAD paper's Fig. 1 programs.
 * Also the use counts behind inlining on either side of their depth limit. */
#include <string.h>

#include "chad/surface.h"
#include "chad_vals.h"

#include "check.h"

/* evaluates X (a pair (y, linear map)) at params and applies the map to dv */
static const value *run_pair(int X, const env *params, const value *dv, const value **y)
{
  eval_error err;
  eval_error_clear(&err);
  const value *p = eval_ref(H, X, params, &err);
  if (!p || p->kind != V_PAIR) {
    printf("  eval failed: %s\n", err.msg);
    return NULL;
  }
  *y = p->u.pair.a;
  return eval_apply(H, p->u.pair.b, dv, &err);
}

static void check_one(const char *name, int t, const env *params)
{
  int g = tm_ctx(t);
  const value *pv[16];
  int pty[16];
  int n = params_of(g, params, pv, pty);
  double slots[4096];
  for (int i = 0; i < 4096; i++)
    slots[i] = sin(2.1 * i + 0.7);
  const value *parts[16];
  int64_t pos = 0;
  for (int k = 0; k < n; k++)
    parts[k] = chad_unflatten_tangent(H, pty[k], pv[k], slots, &pos);
  const value *dx = chad_ctx_tuple_make(H, n, parts);
  eval_error err;
  eval_error_clear(&err);
  const value *y0 = eval_ref(H, t, params, &err);
  int64_t p2 = 0;
  const value *ct = chad_unflatten_tangent(H, tm_type(t), y0, slots + 7, &p2);

  int st = chad_simplify(t);
  CHECKM(st >= 0 && tm_type(st) == tm_type(t) && tm_ctx(st) == g, "%s: source simplified type", name);
  const value *ys = st >= 0 ? eval_ref(H, st, params, &err) : NULL;
  CHECKM(ys && v_approx_equal(H, y0, ys, 1e-12) == 1, "%s: source simplified value", name);

  for (int mode = 0; mode < 2; mode++) {
    int X = mode == 0 ? chad_fwd(t) : chad_rev(t);
    int S = chad_simplify(X);
    CHECKM(S >= 0 && tm_type(S) == tm_type(X) && tm_ctx(S) == tm_ctx(X), "%s: %s simplified type", name,
           mode ? "reverse" : "forward");
    if (S < 0) continue;
    int64_t sx = chad_term_size(X), ss = chad_term_size(S);
    /* strictly smaller: every derivative here has zeros and trivial lets to
     * remove, and a simplifier that fails returns its input unchanged */
    CHECKM(S != X && ss < sx, "%s: %s not simplified (%lld nodes, %lld before)", name,
           mode ? "reverse" : "forward", (long long)ss, (long long)sx);
    const value *ya, *yb;
    const value *da = run_pair(X, params, mode == 0 ? dx : ct, &ya);
    const value *db = run_pair(S, params, mode == 0 ? dx : ct, &yb);
    CHECKM(da && db, "%s: evaluation failed", name);
    if (!da || !db) continue;
    CHECKM(v_approx_equal(H, ya, yb, 1e-12) == 1, "%s: %s primal changed", name, mode ? "reverse" : "forward");
    CHECKM(v_approx_equal(H, da, db, 1e-12) == 1, "%s: %s derivative changed", name, mode ? "reverse" : "forward");
    printf("%-12s %s: %6lld -> %5lld nodes, same value and derivative\n", name,
           mode ? "reverse" : "forward", (long long)sx, (long long)ss);
  }
}

static void show(const char *title, int X, int n, const char *const *names)
{
  char *s = surf_print_term(X, n, names);
  printf("---- %s\n%s\n", title, s ? s : "(print failed)");
  free(s);
}

static const env *mkenv(int n, ...)
{
  const value *parts[16];
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++)
    parts[i] = va_arg(ap, const value *);
  va_end(ap);
  return chad_params_env(H, n, parts);
}

/* The simplifier's use counts come from one walk of the whole term (a
 * memo per binder) when the term is at most SIMP_DEPTH / 2 levels deep (the
 * walk counts two steps a level), else
 * from a walk of each binder's body with a budget of COUNT_BUDGET nodes,
 * past which a variable counts as used twice. The term here is
 *   let x = y * y in ((x + s), y + (y + ... (y + y)))
 * with s a sum of sums sharing their operands (2^17 leaves, more nodes than
 * the budget when walked as a tree) and y + (y + ... (y + y)) nested `depth`
 * levels (an operation, then the second of its pair, in turn): at 2500 it is
 * within the walk's limit, so x, used once, is inlined; at 3100 it is not,
 * and x stays bound. */
static int deep_shared(int depth)
{
  int g = ext(CTX_EMPTY, R_), gx = ext(g, R_);
  int s = op1(P_SIN, var(gx, 1));
  for (int k = 0; k < 17; k++)
    s = op2(P_ADD, s, s);
  int chain = var(gx, 1);
  for (int k = 0; k < depth / 2; k++)
    chain = op2(P_ADD, var(gx, 1), chain);
  int body = OK(tm_pair(op2(P_ADD, var(gx, 0), s), chain));
  return OK(tm_let(op2(P_MUL, var(g, 0), var(g, 0)), body));
}

static void use_counts_at_depth(void)
{
  printf("use counts of a term with a shared sum, 2500 and 3100 levels deep\n");
  for (int depth = 2500; depth <= 3100; depth += 600) {
    prog_setup();                          /* an empty term store for each */
    int t = deep_shared(depth);
    int st = t >= 0 ? chad_simplify(t) : -1;
    CHECKM(st >= 0 && tm_type(st) == tm_type(t) && tm_ctx(st) == tm_ctx(t), "%d levels: simplified", depth);
    if (st < 0) continue;
    if (depth == 2500)
      CHECKM(tm_kind(st) == TM_PAIR, "%d levels: x used once, inlined (root kind %d)", depth, tm_kind(st));
    else
      CHECKM(tm_kind(st) == TM_LET, "%d levels: x counted past the budget, still bound (root kind %d)", depth,
             tm_kind(st));
    eval_error err;
    const value *y0 = eval_ref(H, t, mkenv(1, vr(0.3)), &err);
    const value *y1 = eval_ref(H, st, mkenv(1, vr(0.3)), &err);
    CHECKM(y0 && y1 && v_approx_equal(H, y0, y1, 1e-12) == 1, "%d levels: same value", depth);
  }
}

/* x:R |- a <+> (let y = x * x in y * y), a = sin^k x: the let floats over
 * a small a (k = 1: the root becomes the let), not over one of more than
 * FLOAT_MAX (64) nodes (k = 70: the root stays the sum), which would be
 * copied under the binder */
static void float_only_small(void)
{
  printf("a let floats over a small term added to it, not over a large one\n");
  for (int k = 1; k <= 70; k += 69) {
    int g = ext(CTX_EMPTY, R_), gy = ext(g, R_);
    int a = var(g, 0);
    for (int i = 0; i < k; i++)
      a = op1(P_SIN, a);
    int l = OK(tm_let(op2(P_MUL, var(g, 0), var(g, 0)), op2(P_MUL, var(gy, 0), var(gy, 0))));
    int t = OK(tm_plus(a, l));
    int st = chad_simplify(t);
    CHECKM(st >= 0 && tm_kind(st) == (k == 1 ? TM_LET : TM_PLUS), "sin^%d x <+> let: root kind %d", k,
           st >= 0 ? tm_kind(st) : -1);
  }
}

int main(void)
{
  prog_setup();
  H = heap_new((size_t)1 << 28);
  struct { const char *name; int term; const env *e; } cases[] = {
    {"fig1a", prog_fig1a(), mkenv(1, vr(0.7))},
    {"fig1b", prog_fig1b(), mkenv(4, vr(0.3), vr(-1.2), vr(0.8), vr(1.1))},
    {"fig2a", prog_fig2a(), mkenv(2, vi(3), vr(1.3))},
    {"fig2b", prog_fig2b(), mkenv(2, vr(1.5), varr(3, 1.0, 2.0, 3.0))},
    {"hof", prog_hof(), mkenv(1, vr(0.4))},
    {"closure", prog_closure(), mkenv(2, vr(0.9), vr(-0.6))},
    {"case", prog_case(), mkenv(1, vr(0.3))},
    {"case2", prog_case(), mkenv(1, vr(1.3))},
    {"sums", prog_sums(), mkenv(1, vr(-0.7))},
    {"iter", prog_iter(), mkenv(1, vr(0.6))},
    {"iter_pair", prog_iter_pair(), mkenv(2, vr(0.5), vr(0.3))},
    {"build_index", prog_build_index(), mkenv(1, varr(4, 0.5, -1.0, 2.0, 0.25))},
    {"map_sum", prog_map_sum(), mkenv(2, vr(0.7), varr(3, 1.0, -0.5, 2.0))},
    {"misc", prog_misc(), mkenv(3, vp(vr(1.5), vr(-2.0)), vi(1), varr(3, 0.3, 0.4, 0.5))},
    {"nested", prog_nested(), mkenv(1, varr(3, 0.5, 1.5, -1.0))},
    {"sum_out", prog_sum_out(), mkenv(1, vr(0.9))},
    {"arr_pairs", prog_arr_pairs(), mkenv(2, vr(0.6), varr(3, 1.0, -2.0, 0.5))},
  };
  int n = (int)(sizeof cases / sizeof cases[0]);
  for (int i = 0; i < n; i++)
    check_one(cases[i].name, cases[i].term, cases[i].e);
  const char *x[] = {"x"}, *xs[] = {"x1", "x2", "x3", "x4"};
  show("forward derivative of Fig. 1 (a), simplified", chad_simplify(chad_fwd(prog_fig1a())), 1, x);
  show("reverse derivative of Fig. 1 (b), simplified", chad_simplify(chad_rev(prog_fig1b())), 4, xs);
  const char *f2[] = {"x1", "x2"};
  show("reverse derivative of Fig. 2 (b), simplified", chad_simplify(chad_rev(prog_fig2b())), 2, f2);
  use_counts_at_depth();
  float_only_small();
  heap_free(H);
  printf("test_chad_simplify: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
