/* Unit tests of the fast evaluator's compiled vector forms (src/fast/
 * fast_compile.c: matrix rows, dot, DopT dot, dense vector lsum slots, maps
 * whose elements are vectors) against the reference evaluator, on surface
 * programs: primal values, and one VJP (CHAD reverse, simplified, as
 * chad_vjp_values does) by the raw route (eval_fast_raw + eval_fast_apply_raw
 * + fast_export) and the exported route, to 1e-12 relative; that the loops
 * of the MLP actually run compiled; runtime errors of rows (bounds, length
 * mismatch, ragged matrices) with the reference's message; out of memory
 * reported (never a crash) in heaps too small for the MLP; nested loops of
 * lengths known when the outer loop runs (unrolled: nested build, map, sum,
 * lsum, triangular loops, dot/logsumexp of unrolled arrays, onehots at
 * unrolled indices into Arr Real and Arr (Arr Real) cotangents, runtime
 * indices into unrolled arrays), equal to the reference, compiled, with the
 * reference's errors and a deterministic gradient; let-bound closures used
 * inside loops (CHAD's copower bags !Real (x) Real: compiled lsum slots and
 * folds over unboxed bags, mixed with boxed bags of short generic loops,
 * and an Int-keyed bag left to the generic path); scattered cotangents of
 * build/index programs (wrap-around, reversed, beyond the loop's length, at
 * constant indices) with every loop parallel, at 7 to 33333 elements (the
 * windows of a parallel lsum's shared accumulator), and one that outgrows
 * its accumulator run four times, serial then parallel, in a freed heap's
 * memory (the grow hint: the later runs start at the grown size); VJPs of
 * array results whose cotangent is zero at most elements (run over the
 * nonzero ones only, NaN kept where sqrt' is inf at a zero cotangent); and
 * ADBench's GMM
 * objective (examples/gmm.chad at examples/gmm_test.json) and its gradient
 * equal to the reference evaluator's. Run from the repository root. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad/chad.h"
#include "chad/diag.h"
#include "chad/eval.h"
#include "chad/fast.h"
#include "chad/json.h"
#include "chad/kernel.h"
#include "chad/primitives.h"
#include "chad/surface.h"

#include "check.h"

#define TOL 1e-12

static const char *SRC =
    "def mlp (w1 : [[real]], w2 : [real], x : [real], y : real) : real =\n"
    "  let hid = map (fun (row : [real]) -> tanh (dot row x)) w1 in\n"
    "  let out = sum (build (length w2) (fun j -> w2[j] * hid[j])) in\n"
    "  (out - y) * (out - y)\n"
    "def rowdots (m : [[real]]) : real = sum (map (fun (row : [real]) -> dot row row) m)\n"
    "def pairdots (m : [[real]], v : [real]) : real =\n"
    "  let n = length m in\n"
    "  sum (build n (fun i -> dot m[i] m[(i + 1) % n] * m[i][0] + dot v m[i] * toreal (length m[i])))\n"
    "def rowidx (m : [[real]]) : [real] = map (fun (row : [real]) -> row[2] * row[0]) m\n"
    "def rowscale (m : [[real]], v : [real]) : [real] =\n"
    "  map (fun (row : [real]) -> sin (dot row v)) m\n"
    "def lserows (m : [[real]], v : [real]) : real =\n"
    "  sum (map (fun (row : [real]) -> logsumexp row * dot row v + logsumexp v) m)\n"
    "def vecops (m : [[real]], v : [real]) : real =\n"
    "  sum (map (fun (row : [real]) -> dot (vmul row v) (vadd row (vscale 2.0 v))\n"
    "    + logsumexp (vscale (dot row v) row) + (vmul (vadd row v) row)[0]) m)\n"
    "def badidx (m : [[real]]) : [real] = map (fun (row : [real]) -> row[5]) m\n"
    "def baddot (m : [[real]], v : [real]) : [real] = map (fun (row : [real]) -> dot row v) m\n"
    /* nested loops of lengths known when the outer loop is compiled (unrolled) */
    "def nestbuild (m : [[real]], k : int) : real =\n"
    "  sum (map (fun (row : [real]) ->\n"
    "    sum (build k (fun j -> row[j % length row] * toreal (j + 1)))) m)\n"
    "def nestmap (m : [[real]]) : real =\n"
    "  sum (map (fun (row : [real]) -> sum (map (fun (x : real) -> sin x * x) row)) m)\n"
    "def tri (m : [[real]]) : [real] =\n"
    "  map (fun (row : [real]) ->\n"
    "    sum (build (length row) (fun i -> row[i] * sum (build i (fun j -> row[j] * row[i - j]))))) m\n"
    "def mixture (m : [[real]], mu : [[real]], a : [real]) : real =\n"
    "  sum (map (fun (row : [real]) ->\n"
    "    logsumexp (build (length a) (fun c ->\n"
    "      let xc = build (length row) (fun j -> row[j] - mu[c][j]) in\n"
    "      let q = build (length row) (fun r -> exp mu[c][r] * xc[r] + sum (build r (fun i -> mu[c][i] * xc[i]))) in\n"
    "      a[c] - 0.5 * dot q q + dot xc row))) m)\n"
    "def dynidx (m : [[real]], k : int) : [real] =\n"
    "  build (length m) (fun i ->\n"
    "    let t = build k (fun c -> m[i][0] * toreal c + m[i][1]) in t[i % k] * t[0])\n"
    /* a delayed array with a memo of its expensive calls, read at known indices */
    "def memoidx (m : [[real]], v : [real]) : real =\n"
    "  let e = map (fun (x : real) -> (exp x, sin x * cos x + tanh x)) v in\n"
    "  sum (map (fun (row : [real]) ->\n"
    "    row[0] * fst e[1] + snd e[2] * row[1] + fst e[0] * snd e[length row]) m)\n"
    "def nestbad (m : [[real]], k : int) : real =\n"
    "  sum (map (fun (row : [real]) -> sum (build k (fun j -> row[j]))) m)\n"
    /* let-bound closures used in loops: copower bags in the pullback */
    "def closmap (m : [[real]]) : real =\n"
    "  let g = fun (a : real) -> sin a * a in\n"
    "  sum (map (fun (row : [real]) -> sum (map (fun (u : real) -> g u) row)) m)\n"
    "def closcap (m : [[real]], s : real) : real =\n"
    "  let g = fun (a : real) -> sin (a * s) * s in\n"
    "  sum (map (fun (row : [real]) -> sum (map (fun (u : real) -> g u + g (u * u)) row)) m)\n"
    "def clos1 (v : [real], s : real) : real =\n"
    "  let g = fun (a : real) -> exp (a * s) in sum (map (fun (u : real) -> g u * u) v)\n"
    "def closmix (v : [real], s : real) : real =\n"
    "  let g = fun (a : real) -> sin (a * s) in\n"
    "  sum (map (fun (u : real) -> g u) v) + sum (build 5 (fun i -> g v[i]))\n"
    "def closint (v : [real], s : real) : real =\n"
    "  let g = fun (k : int) -> toreal k * s * s in sum (build (length v) (fun i -> g i * v[i]))\n"
    /* short generic loops (6 < 16) around a compiled map: 36 compiled bags
     * summed into one tree of 35 concatenations, flattened for the fold */
    "def closmany (v : [real], s : real) : real =\n"
    "  let g = fun (a : real) -> sin (a * s) in\n"
    "  sum (build 6 (fun i -> sum (build 6 (fun j -> toreal (i + j) * sum (map (fun (u : real) -> g u) v)))))\n"
    /* scattered cotangents: a parallel lsum adds the indices of a thread's
     * own iterations into one shared array and the others apart */
    "def scatwrap (x : [real]) : real = let n = length x in sum (build n (fun i -> x[i] * x[(i + 1) % n]))\n"
    "def scatrev (x : [real]) : real = let n = length x in sum (build n (fun i -> x[n - 1 - i] * x[i]))\n"
    "def scathalf (x : [real]) : real =\n"
    "  let n = length x in sum (build (n / 2) (fun i -> x[2 * i + 1] * x[i]))\n"
    "def scatconst (x : [real]) : real =\n"
    "  let n = length x in sum (build n (fun i -> x[0] * x[i] + x[n - 1] * x[(i * 7) % n]))\n"
    /* array results: VJPs whose cotangent is zero at most elements */
    "def spscat (x : [real], s : real) : [real] =\n"
    "  let n = length x in build n (fun i -> x[i] * x[(i + 1) % n] * s)\n"
    "def spsqrt (x : [real]) : [real] = build (length x) (fun i -> sqrt x[i])\n";

static unsigned long long rng = 0x9E3779B97F4A7C15ULL;
static double urand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (double)(rng >> 11) / 9007199254740992.0 - 0.5;
}
static const value *rvec(heap *h, int n) {
  value *a = v_array(h, n);
  for (int i = 0; i < n; i++) a->u.arr.elems[i] = v_real(h, urand());
  return a;
}
static const value *rmat(heap *h, int r, int c) {
  value *a = v_array(h, r);
  for (int i = 0; i < r; i++) a->u.arr.elems[i] = rvec(h, c);
  return a;
}

static int elab(surf_program *p, const char *name) {
  chad_diag d = {0};
  int k = surf_def_find(p, name), t = -1, g = -1;
  if (k < 0 || surf_elab_def(p, k, &t, &g, &d) != CHAD_EXIT_OK) return -1;
  return t;
}

static int same(heap *h, const value *a, const value *b) {
  return a && b && v_approx_equal(h, a, b, TOL) == 1;
}

/* the raw route's pullback loops run over their nonzero cotangents only, in
 * the last compare */
static int64_t last_sparse;

/* primal and one VJP (cotangent ct of the result), fast against reference */
static void compare(heap *h, const char *name, int t, int np, const value **parts,
                    const value *ct, int expect_compiled) {
  const env *e = chad_params_env(h, np, parts);
  eval_error er, ef;
  fast_stats st;
  fast_stats_reset();
  const value *yr = eval_ref(h, t, e, &er), *yf = eval_fast(h, t, e, &ef);
  fast_stats_get(&st);
  CHECKM(same(h, yr, yf), "%s: primal differs (%s | %s)", name, yr ? "ok" : er.msg, yf ? "ok" : ef.msg);
  if (expect_compiled)
    CHECKM(st.compiled_loops >= 1 && st.generic_loops == 0, "%s: primal loops %lld compiled, %lld generic",
           name, (long long)st.compiled_loops, (long long)st.generic_loops);
  int rt = chad_simplify(chad_rev(t));
  CHECKM(rt >= 0, "%s: chad_rev", name);
  if (rt < 0 || !yr) return;
  const value *shape = chad_ctx_tuple_make(h, np, parts);
  const value *pr = eval_ref(h, rt, e, &er);
  const value *gr = pr ? eval_apply(h, pr->u.pair.b, ct, &er) : NULL;
  const value *dr = gr ? v_densify(h, gr, shape, &er) : NULL;
  CHECKM(dr != NULL, "%s: reference gradient: %s", name, er.msg);
  fast_stats_reset();
  const value *pf = eval_fast_raw(h, rt, e, &ef);
  const value *gf = pf ? eval_fast_apply_raw(h, pf->u.pair.b, ct, &ef) : NULL;
  fast_stats_get(&st);
  const value *xf = gf ? fast_export(h, gf, &ef) : NULL;
  const value *df = xf ? v_densify(h, xf, shape, &ef) : NULL;
  CHECKM(same(h, dr, df), "%s: gradient (raw route) differs", name);
  CHECKM(pf && same(h, pr->u.pair.a, fast_export(h, pf->u.pair.a, &ef)), "%s: VJP primal differs", name);
  last_sparse = st.sparse_loops;
  if (expect_compiled)
    CHECKM(st.generic_loops == 0, "%s: %lld generic loops in the pullback", name, (long long)st.generic_loops);
  /* exported route */
  const value *pe = eval_fast(h, rt, e, &ef);
  const value *ge = pe ? eval_fast_apply(h, pe->u.pair.b, ct, &ef) : NULL;
  const value *de = ge ? v_densify(h, ge, shape, &ef) : NULL;
  CHECKM(same(h, dr, de), "%s: gradient (exported route) differs (%s)", name, de ? "value" : ef.msg);
}

static void same_error(heap *h, const char *name, int t, int np, const value **parts) {
  const env *e = chad_params_env(h, np, parts);
  eval_error er, ef;
  const value *yr = eval_ref(h, t, e, &er), *yf = eval_fast(h, t, e, &ef);
  CHECKM(!yr && !yf, "%s: both must fail", name);
  if (!yr && !yf)
    CHECKM(er.exit_code == ef.exit_code && !strcmp(er.msg, ef.msg), "%s: '%s' vs '%s'", name, er.msg,
           ef.msg);
}

static void test_programs(heap *h) {
  chad_diag d = {0};
  surf_program *p = surf_parse_string(SRC, "test_fast_vec", &d);
  CHECKM(p != NULL, "parse: %s", d.msg);
  if (!p) return;
  int mlp = elab(p, "mlp"), rowdots = elab(p, "rowdots"), pairdots = elab(p, "pairdots"),
      rowidx = elab(p, "rowidx"), rowscale = elab(p, "rowscale"), badidx = elab(p, "badidx"),
      lserows = elab(p, "lserows"), vecops = elab(p, "vecops"),
      baddot = elab(p, "baddot"), nestbuild = elab(p, "nestbuild"), nestmap = elab(p, "nestmap"),
      tri = elab(p, "tri"), mixture = elab(p, "mixture"), dynidx = elab(p, "dynidx"),
      nestbad = elab(p, "nestbad"), memoidx = elab(p, "memoidx"), closmap = elab(p, "closmap"),
      closcap = elab(p, "closcap"), clos1 = elab(p, "clos1"), closmix = elab(p, "closmix"),
      closint = elab(p, "closint"), closmany = elab(p, "closmany");
  CHECKM(mlp >= 0 && rowdots >= 0 && pairdots >= 0 && rowidx >= 0 && rowscale >= 0 && badidx >= 0 &&
             baddot >= 0 && lserows >= 0 && vecops >= 0 && nestbuild >= 0 && nestmap >= 0 && tri >= 0 &&
             mixture >= 0 && dynidx >= 0 && nestbad >= 0 && memoidx >= 0 && closmap >= 0 &&
             closcap >= 0 && clos1 >= 0 && closmix >= 0 && closint >= 0 && closmany >= 0,
         "elaborate");
  if (failures) return;
  int sizes[3][2] = {{40, 40}, {100, 7}, {300, 1}};
  for (int th = 0; th < 2; th++) {
    fast_set_par_threshold(th ? 0 : 32768);
    for (int s = 0; s < 3; s++) {
      int r = sizes[s][0], c = sizes[s][1];
      const value *one = v_real(h, 1.0);
      const value *pm[4] = {rmat(h, r, c), rvec(h, r), rvec(h, c), v_real(h, 0.25)};
      compare(h, "mlp", mlp, 4, pm, v_real(h, 0.75), 1);
      const value *pr[1] = {pm[0]};
      compare(h, "rowdots", rowdots, 1, pr, one, 1);
      const value *pp[2] = {pm[0], pm[2]};
      compare(h, "pairdots", pairdots, 2, pp, v_real(h, -1.5), 0);
      if (c >= 3) {
        int ri = tm_type(rowidx);
        (void)ri;
        value *ct = v_array(h, r);
        for (int i = 0; i < r; i++) ct->u.arr.elems[i] = v_real(h, urand());
        compare(h, "rowidx", rowidx, 1, pr, ct, 0);
      }
      value *ct = v_array(h, r);
      for (int i = 0; i < r; i++) ct->u.arr.elems[i] = v_real(h, i % 3 ? urand() : 0.0);
      compare(h, "rowscale", rowscale, 2, pp, ct, 1);
      compare(h, "lserows", lserows, 2, pp, v_real(h, 0.5), 1);
      compare(h, "vecops", vecops, 2, pp, v_real(h, -0.5), 1);
      /* nested loops, unrolled */
      const value *pk[2] = {pm[0], v_int(h, 2 * c + 1)};
      compare(h, "nestbuild", nestbuild, 2, pk, v_real(h, 0.5), 1);
      compare(h, "nestmap", nestmap, 1, pr, v_real(h, -2.0), 1);
      /* closures in loops: bags compiled (no generic loop), folded compiled */
      compare(h, "closmap", closmap, 1, pr, v_real(h, 0.5), 1);
      const value *ps[2] = {pm[0], v_real(h, 0.75)};
      compare(h, "closcap", closcap, 2, ps, v_real(h, -1.25), 1);
      const value *pvs[2] = {pm[1], v_real(h, 0.5)};
      compare(h, "clos1", clos1, 2, pvs, v_real(h, 1.5), 1);
      compare(h, "closmix", closmix, 2, pvs, v_real(h, 0.5), 0);
      compare(h, "closint", closint, 2, pvs, v_real(h, 0.5), 0);
      compare(h, "tri", tri, 1, pr, ct, 1);
      const value *px[3] = {pm[0], rmat(h, 4, c), rvec(h, 4)};
      compare(h, "mixture", mixture, 3, px, v_real(h, 1.0), 1);
      const value *pv[2] = {pm[0], rvec(h, 30 + c)};
      if (c >= 2) compare(h, "memoidx", memoidx, 2, pv, v_real(h, 1.5), 0);
      else same_error(h, "memoidx (row[1] out of bounds)", memoidx, 2, pv);
      const value *pd[2] = {rmat(h, r, 2), v_int(h, 3)};
      /* not every loop compiled: its pullback's onehots into m's rows at the
       * loop index (a runtime row) are not a compiled lsum slot */
      compare(h, "dynidx", dynidx, 2, pd, ct, 0);
    }
  }
  const value *pmany[2] = {rvec(h, 40), v_real(h, 0.5)};
  compare(h, "closmany", closmany, 2, pmany, v_real(h, 0.5), 0);
  /* nested loops: really compiled (unrolled), bodies of the sizes above */
  {
    const value *pm[3] = {rmat(h, 100, 5), rmat(h, 3, 5), rvec(h, 3)};
    const env *e = chad_params_env(h, 3, pm);
    eval_error ef;
    fast_stats st;
    fast_stats_reset();
    CHECKM(eval_fast(h, mixture, e, &ef) != NULL, "mixture: %s", ef.msg);
    fast_stats_get(&st);
    CHECKM(st.compiled_loops == 1 && st.generic_loops == 0,
           "mixture: %lld compiled, %lld generic loops (expected the outer map alone, compiled)",
           (long long)st.compiled_loops, (long long)st.generic_loops);
  }
  /* scattered cotangents in parallel (windows of one shared accumulator and
   * the indices outside them), at lengths of one block, a few and many */
  {
    const char *names[4] = {"scatwrap", "scatrev", "scathalf", "scatconst"};
    int lens[4] = {7, 700, 5000, 33333};
    for (int th = 0; th < 2; th++) {
      fast_set_par_threshold(th ? 0 : 32768);
      for (int k = 0; k < 4; k++) {
        int t = elab(p, names[k]);
        CHECKM(t >= 0, "elaborate %s", names[k]);
        for (int l = 0; t >= 0 && l < 4; l++) {
          heap *hs = heap_new((size_t)1 << 30); /* the reference's boxed arrays: a heap each */
          const value *px[1] = {rvec(hs, lens[l])};
          char name[64];
          snprintf(name, sizeof name, "%s (n %d, %s)", names[k], lens[l], th ? "parallel" : "default");
          compare(hs, name, t, 1, px, v_real(hs, 0.75), lens[l] >= 16);
          heap_free(hs);
        }
      }
    }
    fast_set_par_threshold(32768);
  }
  /* VJPs of array results whose cotangent is zero at most elements (a
   * Jacobian row's one-hot, every other element, none, all): the pullback
   * loop runs over the nonzero ones only, with the reference's gradient
   * (the scalar s: a scalar slot); a zero cotangent times sqrt' at 0 (inf)
   * is NaN as in the reference, so that loop runs whole */
  {
    int sp = elab(p, "spscat"), sq = elab(p, "spsqrt");
    CHECKM(sp >= 0 && sq >= 0, "elaborate spscat, spsqrt");
    for (int th = 0; sp >= 0 && sq >= 0 && th < 2; th++) {
      fast_set_par_threshold(th ? 0 : 32768);
      for (int pat = 0; pat < 4; pat++) {
        heap *hs = heap_new((size_t)1 << 30);
        int n = 1000;
        value *ct = v_array(hs, n);
        for (int i = 0; i < n; i++)
          ct->u.arr.elems[i] = v_real(hs, pat == 0 ? (i == 7) : pat == 1 ? (i % 2 == 0) * 0.5 : pat == 2 ? 0.0 : urand());
        const value *px[2] = {rvec(hs, n), v_real(hs, 1.25)};
        char name[96];
        snprintf(name, sizeof name, "spscat (cotangent %s, %s)",
                 pat == 0 ? "one-hot" : pat == 1 ? "every other" : pat == 2 ? "zero" : "dense", th ? "parallel" : "default");
        compare(hs, name, sp, 2, px, ct, 1);
        CHECKM(pat == 3 ? last_sparse == 0 : last_sparse >= 1, "%s: %lld loops over the nonzero cotangents",
               name, (long long)last_sparse);
        /* sqrt at 0 where the cotangent is zero (pat 1: index 5): NaN */
        value *x = v_array(hs, n);
        for (int i = 0; i < n; i++) x->u.arr.elems[i] = v_real(hs, i == 5 && pat == 1 ? 0.0 : 1.0 + urand());
        const value *pq[1] = {x};
        snprintf(name, sizeof name, "spsqrt (%s, %s)", pat == 1 ? "sqrt 0 at a zero cotangent" : "positive",
                 th ? "parallel" : "default");
        compare(hs, name, sq, 1, pq, ct, 1);
        if (pat < 3)
          CHECKM(pat == 1 ? last_sparse == 0 : last_sparse >= 1, "%s: %lld loops over the nonzero cotangents",
                 name, (long long)last_sparse);
        heap_free(hs);
      }
    }
    fast_set_par_threshold(32768);
  }
  /* an lsum whose indices pass its loop count (scathalf: n - 1 for n / 2
   * iterations) grows its accumulator; later runs of the same term start at
   * that size (the grow hint), in memory a freed heap left dirty */
  {
    int t = elab(p, "scathalf"), rt = t >= 0 ? chad_simplify(chad_rev(t)) : -1;
    heap *hr = heap_new((size_t)1 << 30);
    const value *px[1] = {rvec(hr, 33333)};
    const env *e = chad_params_env(hr, 1, px);
    const value *shape = chad_ctx_tuple_make(hr, 1, px);
    eval_error er;
    const value *pr = rt >= 0 ? eval_ref(hr, rt, e, &er) : NULL;
    const value *gr = pr ? eval_apply(hr, pr->u.pair.b, v_real(hr, 0.75), &er) : NULL;
    const value *dr = gr ? v_densify(hr, gr, shape, &er) : NULL;
    CHECKM(dr != NULL, "scathalf: reference gradient");
    for (int r = 0; dr && r < 4; r++) {
      fast_set_par_threshold(r < 2 ? INT64_MAX : 0); /* serial, then parallel */
      heap *hf = heap_new((size_t)1 << 30);
      eval_error ef;
      const value *pf = eval_fast_raw(hf, rt, e, &ef);
      const value *gf = pf ? eval_fast_apply_raw(hf, pf->u.pair.b, v_real(hf, 0.75), &ef) : NULL;
      const value *xf = gf ? fast_export(hf, gf, &ef) : NULL;
      const value *df = xf ? v_densify(hf, xf, shape, &ef) : NULL;
      CHECKM(df && v_approx_equal(hf, dr, df, TOL) == 1, "scathalf: gradient of run %d differs", r + 1);
      heap_free(hf);
    }
    fast_set_par_threshold(32768);
    heap_free(hr);
  }
  /* determinism: a nested-loop gradient twice, every loop parallel, same bits */
  {
    fast_set_par_threshold(0);
    const value *pm[3] = {rmat(h, 500, 4), rmat(h, 3, 4), rvec(h, 3)};
    const env *e = chad_params_env(h, 3, pm);
    int rt = chad_simplify(chad_rev(mixture));
    const value *g[2];
    for (int r = 0; r < 2; r++) {
      eval_error ef;
      const value *pf = eval_fast_raw(h, rt, e, &ef);
      g[r] = pf ? fast_export(h, eval_fast_apply_raw(h, pf->u.pair.b, v_real(h, 1.0), &ef), &ef) : NULL;
    }
    CHECKM(g[0] && g[1] && v_approx_equal(h, g[0], g[1], 0.0) == 1, "mixture gradient not deterministic");
    fast_set_par_threshold(32768);
  }
  /* determinism: the MLP's gradient twice, every loop parallel, same bits */
  {
    fast_set_par_threshold(0);
    const value *pm[4] = {rmat(h, 300, 30), rvec(h, 300), rvec(h, 30), v_real(h, 0.25)};
    const env *e = chad_params_env(h, 4, pm);
    int rt = chad_simplify(chad_rev(mlp));
    const value *g[2];
    for (int r = 0; r < 2; r++) {
      eval_error ef;
      const value *pf = eval_fast_raw(h, rt, e, &ef);
      g[r] = pf ? fast_export(h, eval_fast_apply_raw(h, pf->u.pair.b, v_real(h, 1.0), &ef), &ef) : NULL;
    }
    CHECKM(g[0] && g[1] && v_approx_equal(h, g[0], g[1], 0.0) == 1, "mlp gradient not deterministic");
  }
  fast_set_par_threshold(32768);
  /* every loop compiled, short ones too */
  fast_set_loop_min(0);
  {
    const value *pm[4] = {rmat(h, 3, 2), rvec(h, 3), rvec(h, 2), v_real(h, 0.1)};
    compare(h, "mlp (3x2, every loop compiled)", mlp, 4, pm, v_real(h, 1.0), 0);
    const value *pe[1] = {v_array(h, 0)};
    const value *pz[1] = {rmat(h, 4, 0)};
    compare(h, "rowdots (empty matrix)", rowdots, 1, pe, v_real(h, 1.0), 0);
    compare(h, "rowdots (empty rows)", rowdots, 1, pz, v_real(h, 1.0), 0);
    const value *pl[2] = {rmat(h, 5, 0), v_array(h, 0)};
    compare(h, "lserows (empty rows: -inf)", lserows, 2, pl, v_real(h, 1.0), 0);
    const value *pv[2] = {rmat(h, 4, 3), rvec(h, 3)};
    compare(h, "vecops (4x3, every loop compiled)", vecops, 2, pv, v_real(h, 1.0), 0);
  }
  fast_set_loop_min(16);
  /* heap limits: the MLP's VJP in heaps too small for it at various points
   * (inputs built outside) is either right or an out-of-memory error */
  {
    const value *pm[4] = {rmat(h, 200, 50), rvec(h, 200), rvec(h, 50), v_real(h, 0.25)};
    const env *e = chad_params_env(h, 4, pm);
    int rt = chad_simplify(chad_rev(mlp));
    eval_error er;
    const value *pr = eval_ref(h, rt, e, &er);
    const value *gr = pr ? eval_apply(h, pr->u.pair.b, v_real(h, 1.0), &er) : NULL;
    int oom = 0, ok = 0;
    for (size_t lim = 1024; lim <= ((size_t)1 << 22); lim *= 2) {
      heap *s = heap_new(lim);
      eval_error ef;
      const value *pf = eval_fast_raw(s, rt, e, &ef);
      const value *gf = pf ? eval_fast_apply_raw(s, pf->u.pair.b, v_real(s, 1.0), &ef) : NULL;
      const value *xf = gf ? fast_export(s, gf, &ef) : NULL;
      if (xf) {
        ok++;
        CHECKM(same(h, v_densify(h, gr, chad_ctx_tuple_make(h, 4, pm), &er),
                    v_densify(s, xf, chad_ctx_tuple_make(s, 4, pm), &ef)),
               "mlp in a heap of %zu bytes: wrong gradient", lim);
      } else {
        oom++;
        CHECKM(ef.exit_code == CHAD_EXIT_RUNTIME && strstr(ef.msg, "out of memory"),
               "mlp in a heap of %zu bytes: '%s'", lim, ef.msg);
      }
      heap_free(s);
    }
    CHECKM(oom > 0 && ok > 0, "heap limits: %d out of memory, %d completed", oom, ok);
  }
  /* errors: a row index out of bounds; dot of different lengths; a ragged
   * matrix (not compiled, the generic path reports) */
  const value *m3[1] = {rmat(h, 50, 3)};
  same_error(h, "row index out of bounds", badidx, 1, m3);
  const value *md[2] = {rmat(h, 50, 3), rvec(h, 4)};
  same_error(h, "dot of different lengths", baddot, 2, md);
  same_error(h, "vmul of different lengths", vecops, 2, md);
  value *rag = v_array(h, 50);
  for (int i = 0; i < 50; i++) rag->u.arr.elems[i] = rvec(h, i == 37 ? 4 : 3);
  const value *mr[2] = {rag, rvec(h, 3)};
  same_error(h, "ragged matrix", baddot, 2, mr);
  /* nested loops: a known index out of bounds, a negative known length */
  const value *nb[2] = {rmat(h, 50, 3), v_int(h, 4)};
  same_error(h, "unrolled build: index out of bounds", nestbad, 2, nb);
  const value *nn[2] = {rmat(h, 50, 3), v_int(h, -2)};
  same_error(h, "unrolled build: negative length", nestbad, 2, nn);
  surf_free(p);
}

static void test_gmm(heap *h) {
  chad_diag d = {0};
  surf_program *p = surf_parse_file("examples/gmm.chad", &d);
  CHECKM(p != NULL, "parse examples/gmm.chad (run from the repository root): %s", d.msg);
  if (!p) return;
  int k = surf_def_find(p, "gmm"), t = -1, g = -1;
  CHECKM(k >= 0 && surf_elab_def(p, k, &t, &g, &d) == CHAD_EXIT_OK, "elaborate gmm: %s", d.msg);
  if (t < 0) return;
  int n = surf_def_nparams(p, k), tys[16];
  const char *names[16];
  for (int i = 0; i < n; i++) {
    tys[i] = surf_def_param_type(p, k, i);
    names[i] = surf_def_param_name(p, k, i);
  }
  FILE *f = fopen("examples/gmm_test.json", "rb");
  static char buf[1 << 16];
  size_t len = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  if (f) fclose(f);
  buf[len] = 0;
  json_doc *doc = json_doc_parse(buf, len, "examples/gmm_test.json", &d);
  const value *args[16];
  CHECKM(doc && json_doc_params(h, doc, n, tys, names, args, &d) == 0, "read parameters: %s", d.msg);
  if (!doc) return;
  const env *e = chad_params_env(h, n, args);
  eval_error ef;
  const value *y = eval_fast(h, t, e, &ef);
  CHECKM(y && y->kind == V_REAL && fabs(y->u.r - 8.07380408004975791) <= 1e-12 * 8.07380408004975791,
         "GMM objective %.17g", y ? y->u.r : NAN);
  for (int lm = 0; lm < 2; lm++) {
    fast_set_loop_min(lm ? 0 : 16);
    compare(h, lm ? "gmm (every loop compiled)" : "gmm", t, n, args, v_real(h, 1.0), 0);
  }
  fast_set_loop_min(16);
  json_doc_free(doc);
  surf_free(p);
}

int main(void) {
  ty_init();
  ctx_init();
  tm_init();
  raw_init();
  if (prims_init() < 0) return 2;
  chad_init();
  heap *h = heap_new((size_t)1 << 31);
  test_programs(h);
  test_gmm(h);
  heap_free(h);
  printf("test_fast_vec: %d checks, %d failures (compiled rows, dot, DopT dot, dense vector "
         "accumulation, vector-valued maps, unrolled nested loops vs eval_ref: primal and VJP to "
         "1e-12; MLP and nested loops compiled; row and nested-loop errors; GMM objective and "
         "gradient)\n",
         checks, failures);
  return failures ? 1 : 0;
}
