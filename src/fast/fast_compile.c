/* The loop compiler of the fast evaluator.
 *
 * The body of a build, map, sum-of-build/map or lsum is compiled at the
 * moment the loop runs, when every captured variable has its value: a
 * symbolic evaluation of the body turns scalar arithmetic into register
 * instructions and resolves everything else (pairs, closures and their
 * application, delayed arrays, zero, plus, onehot, projections, case on a
 * known side) at compile time. What it cannot resolve (nested loops of a
 * runtime length, case on a runtime comparison, copowers other than
 * !Real (x) Real) makes the compile fail,
 * and the caller uses the generic interpreter instead.
 *
 * The code runs a block of B iterations per instruction (registers are
 * vectors of B slots), so dispatch costs little per element. Blocks are
 * distributed statically over the OpenMP threads; sums are per-block
 * partials added in block order (independent of the thread count); lsum's
 * array accumulators are per-thread and added in thread order
 * (deterministic for a fixed thread count). Any runtime failure (bounds,
 * negative onehot index, integer division by zero or overflow) abandons the
 * compiled run: the caller re-evaluates generically and reports the error as
 * the reference evaluator does. Everything an eager evaluation would check
 * is kept (let-bound values are computed even when unused, as in eval_ref),
 * except pure arithmetic whose result is never used. */
#include <math.h>
#include <stdalign.h>
#include <stddef.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "prim_scalar.h"
#include "chad/kernel.h"
#include "chad/primitives.h"
#include "eval/internal.h"
#include "fast/fast_internal.h"

#define B 128                 /* iterations per block                     */
#define MAX_CODE 20000        /* instructions per compiled body           */
#define MAX_INLINE 400        /* nesting of inlined applications         */
#define ACC_MAX ((int64_t)1 << 31) /* largest lsum accumulator index    */

fast_stats fast_stats_;
/* Terms whose loop failed to compile during evaluation number epoch: not
 * retried within the same evaluation (their failure nearly always depends on
 * the term alone, and retrying costs a compile per element of an outer loop). */
static unsigned fail_epoch[CHAD_MAX_TERMS];
unsigned fast_epoch_ = 1;
int64_t fast_par_threshold_ = 32768;

/* this thread's CPU seconds (FAST_DEBUG's compile and run times: wall time
 * means little on a loaded machine) */
static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void fast_set_par_threshold(int64_t work) { fast_par_threshold_ = work < 0 ? 0 : work; }
void fast_stats_get(fast_stats *s) { *s = fast_stats_; }
void fast_stats_reset(void) { memset(&fast_stats_, 0, sizeof fast_stats_); }

/* ---- scalar semantics: those of src/primitives.c (src/prim_scalar.h) ---- */
#define real1 prim_real1
#define deriv1 prim_deriv1
#define real2 prim_real2
static double deriv2(int op, double x, double y, int wrt_y) {
  double px, py;
  prim_deriv2(op, x, y, &px, &py);
  return wrt_y ? py : px;
}
static int is_real1(int op) {
  return op == P_NEG || (op >= P_SIN && op <= P_SIGMOID) || op == P_ABS ||
         (op >= P_LOG1P && op <= P_LOG2);
}
static int is_real2(int op) {
  return (op >= P_ADD && op <= P_DIV) || (op >= P_POW && op <= P_MIN) || op == P_ATAN2 || op == P_HYPOT;
}

/* logsumexp and softmax exactly as src/primitives.c computes them */
#define lse_ref prim_lse
#define softmax_ref prim_softmax

/* ---- vector math ------------------------------------------------------------
 * sin, cos and exp of a block through glibc's libmvec (AVX2, 4 lanes; at
 * most 4 ulp from libm, far inside the evaluator's 1e-12 agreement with
 * eval_ref) when the CPU has AVX2 and FAST_SCALAR_MATH is not set; the
 * scalar libm functions of src/primitives.c otherwise. Lanes are fixed by
 * the position in the block, so results do not depend on the threads. */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/* target("avx2") on the declarations too: clang requires it of a function
 * taking __m256d (gcc does not mind) */
__attribute__((target("avx2"))) extern __m256d _ZGVdN4v_sin(__m256d);
__attribute__((target("avx2"))) extern __m256d _ZGVdN4v_cos(__m256d);
__attribute__((target("avx2"))) extern __m256d _ZGVdN4v_exp(__m256d);
#define VMATH(name, fn)                                                              \
  __attribute__((target("avx2"))) static void name(double *d, const double *a, int len) { \
    int k = 0;                                                                       \
    for (; k + 4 <= len; k += 4) _mm256_storeu_pd(d + k, fn(_mm256_loadu_pd(a + k)));  \
    if (k < len) { /* the tail through the same function, padded */                 \
      double in[4] = {0, 0, 0, 0}, out[4];                                          \
      for (int j = 0; k + j < len; j++) in[j] = a[k + j];                            \
      _mm256_storeu_pd(out, fn(_mm256_loadu_pd(in)));                                \
      for (int j = 0; k + j < len; j++) d[k + j] = out[j];                           \
    }                                                                                \
  }
VMATH(vsin, _ZGVdN4v_sin)
VMATH(vcos, _ZGVdN4v_cos)
VMATH(vexp, _ZGVdN4v_exp)
#define HAVE_VMATH 1
#endif
static int vmath_state; /* 0 unknown, 1 on, 2 off */
static int vmath_on(void) {
  if (vmath_state == 0) {
    int on = 0;
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    on = __builtin_cpu_supports("avx2") && !getenv("FAST_SCALAR_MATH");
#endif
    vmath_state = on ? 1 : 2;
  }
  return vmath_state == 1;
}

/* ---- bytecode ------------------------------------------------------------ */
enum opc {
  O_ADD,   /* R[d] = R[a] + R[b]                                        */
  O_MUL,   /* R[d] = R[a] * R[b]                                        */
  O_U,     /* R[d] = real1(p, R[a])                                     */
  O_BIN,   /* R[d] = real2(p, R[a], R[b])                               */
  O_D1,    /* R[d] = deriv1(p, R[a])                                    */
  O_D2,    /* R[d] = d/dx or d/dy (k) of p at (R[a], R[b])              */
  O_LIN,   /* R[d] = R[b] == 0 ? 0 : R[a] * R[b]                         */
  O_LDR,   /* R[d] = arr[k][I[a]], bounds checked                        */
  O_LDA,   /* R[d] = acc[k][I[a]] (0 beyond its end), I[a] >= 0 checked  */
  O_CHKB,  /* 0 <= I[a] < k                                             */
  O_CHKNN, /* I[a] >= 0                                                 */
  O_IBIN,  /* I[d] = p (I[a], I[b]), checked; k: IBIN_* flags           */
  O_INEG,  /* I[d] = -I[a], checked                                     */
  O_TOREAL,/* R[d] = (double) I[a]                                      */
  O_ACCS,  /* scalar slot k += R[a]                                     */
  O_ACCA,  /* array slot k [I[a]] += R[b]                               */
  O_LDSEQ, /* R[d] = arr[k][i] for the loop index i (in bounds by construction) */
  O_ACCSEQ,/* array slot k [i] += R[b] for the loop index i              */
  O_SELK,  /* R[d] = I[a] == k ? R[b] : 0 (an entry of a onehot read at k) */
  O_BAGST, /* bag slot k, entry p of iteration i: (key, val) = (R[a], R[b]) */
  O_SINCOS,/* R[d] = sin R[a], R[b] = cos R[a] (two results: made by fuse_sincos) */
  O_CHKFIN,/* R[a] finite (the checks' pass of a loop that skips zero cotangents) */
  /* vectors (Arr Real values of a static length: a captured unboxed array,
   * or a row of a captured matrix selected by an index register), described
   * by S->vecs[]: */
  O_DOT,   /* R[d] = dot (vec a, vec b)                                 */
  O_LDV,   /* R[d] = (vec k)[I[a]], 0 <= I[a] < len checked              */
  O_ACCV,  /* dense array slot k [j] += lin (vec a [j], R[b]) (b < 0: no scale) */
  O_STV,   /* rows output [i][j] (=, p == 0; +=, p == 1) lin (vec a [j], R[b]) */
  O_LSE,   /* R[d] = logsumexp (vec a), the reference's formula         */
  O_SOFTMAX,/* scratch vector k = softmax (vec a) (DopT of logsumexp)    */
  O_VSTS,  /* scratch vector k [j] (=, p == 0; +=, p == 1) lin (vec a [j], R[b]) */
  O_VEW,   /* scratch vector k [j] = a[j] * b[j] (p == 0), lin (a[j], b[j]) (p == 1) */
  O_VSCL,  /* scratch vector k [j] = R[b] * a[j] (p == 0), lin (R[b], a[j]) (p == 1) */
  O_VDOTLIN,/* R[d] = sum_j lin (a[j], b[j]) (DopT of vscale)               */
  O_VOH,   /* scratch vector k (zeroed first when p == 0) [I[a]] += R[b],
            * 0 <= I[a] < len checked: a sparse cotangent made dense        */
  O_PACK,  /* scratch vector k [p] = R[a]: an unrolled array made a vector  */
  O_VSUM   /* R[d] = sum (vec a), the reference's order (0 + a[0] + ...)   */
};

/* O_IBIN's k: I[b] is a constant; the ranges show the check passes in
 * every iteration (no check made); a modulus by a positive constant q of an
 * operand in [0, 2q) (one subtraction) */
#define IBIN_CONST_B 1
#define IBIN_SAFE 2
#define IBIN_WRAP 4
/* O_LDR's p: 1 when the index's range lies in the array (no check made) */

typedef struct ins {
  int op, p, d, a, b;
  int64_t k;
} ins;

typedef struct rarr_ref {
  const double *d;
  int64_t n;
} rarr_ref;

/* a captured matrix: an array of unboxed rows of one length */
typedef struct mat_ref {
  const value *v;
  const double **rows;
  int64_t n, len;
} mat_ref;

/* a vector operand: kind 0: arrs[id]; kind 1: row I[ireg] of mats[id] (the
 * row index was bounds checked where the row was taken); kind 2: scratch
 * vector id, computed per element by an earlier instruction (per thread,
 * len doubles per element of the block) */
typedef struct vdesc {
  int kind, id, ireg;
  int64_t len;
} vdesc;

/* ---- symbolic values --------------------------------------------------- */
enum { SK_R, SK_I, SK_V, SK_UNIT, SK_PAIR, SK_INL, SK_INR, SK_ZERO, SK_CLO, SK_OH, SK_VEC, SK_ARR, SK_BAG };
/* SK_BAG: a copower !Real (x) Real, the sum of entries single (a, R[reg])
 * (a an SK_R key); b = the next entry or NULL. */
/* SK_ARR: an array of static length n whose elements are symbolic values
 * el[0..n-1]: a nested build/map of a length known when the loop is compiled
 * (a captured value, or an index of an enclosing unrolled loop), unrolled. */
/* SK_VEC: an Arr Real of static length, the sum of terms lin (vec[j], R[reg])
 * (reg < 0: vec[j] itself); term = the vdesc, b = the next term or NULL. */

typedef struct senv senv;
typedef struct sym {
  int k;
  int reg;                 /* SK_R, SK_I; SK_OH: the index register     */
  const value *v;          /* SK_V                                      */
  const struct sym *a, *b; /* SK_PAIR, SK_INL/INR (a); SK_OH: a = value,
                              b = next onehot of the sum (or NULL)      */
  int term;                /* SK_CLO                                    */
  const senv *env;         /* SK_CLO                                    */
  const struct sym *const *el; /* SK_ARR: n elements                    */
  int64_t n;
} sym;

struct senv {
  const sym *s;            /* NULL: the rest is the runtime env rt      */
  const senv *next;
  const env *rt;
};

typedef struct arena_blk {
  struct arena_blk *prev;
  size_t used;
  alignas(max_align_t) unsigned char data[65536];
} arena_blk;

typedef struct cstate {
  heap *h;
  eval_error *err;
  int fail;                /* cannot compile                            */
  int oom;                 /* out of memory (heap): a real error        */
  arena_blk *mem;
  ins *code, *init;
  int ncode, ninit, capcode, capinit;
  int nregs;
  rarr_ref *arrs;
  int narrs, caparrs;
  mat_ref *mats;
  int nmats, capmats;
  vdesc *vecs;
  int nvecs, capvecs;
  int64_t *slot_len;       /* per array slot: > 0 a dense vector slot   */
  int capslots;
  double *rowsout;         /* rows mode: n x rows_len output            */
  int nscr;                /* scratch vectors (kind 2)                  */
  int64_t rows_len;
  int nacc_s, nacc_a;
  int nacc_b;              /* bag slots of an lsum (copower leaves)     */
  int64_t *bagc;           /* per bag slot: entries per iteration       */
  double **bagk, **bagv;   /* per bag slot: n * bagc keys and values    */
  int capbag;
  int depth;
  int last;                /* last term compiled (diagnostics)          */
  const char *why;
  int whyk;
  int64_t acc_hint;        /* first size of lsum array accumulators     */
  int64_t acc_limit;       /* largest size (host memory, not the heap's) */
  int64_t loop_n;          /* iterations of the loop being compiled     */
  double **stseq;          /* per array slot: shared output when its only
                              accumulation is one sequential onehot    */
  int *cse;                /* hash of emitted instructions (index + 1)  */
  /* memo replay: inlining the body of a memoised delayed array */
  struct replay { const fv_delay *dl; int count; int jr; } frames[32];
  int nframes;
  /* memo recording: the check run of a delayed array's body */
  int recording, nrec, caprec;
  int *rec;                /* result register of each expensive call    */
  /* constant registers (filled once per block buffer): per register, 0 not
   * a constant, 1 an Int, 2 a Real (its bits in kv); khash finds them */
  char *kk;
  int64_t *kv;
  int capk;
  int *khash, kh_cap;
  int cse_cap;
  /* integer ranges (SSA: fixed per register until regalloc): rk[reg] = 1
   * when rlo[reg] <= I[reg] <= rhi[reg] in every iteration; register 0 (the
   * loop index) lies in [0, loop_n) and constants are their own range */
  char *rk;
  int64_t *rlo, *rhi;
  int caprk;
  int64_t unrolled;        /* elements of nested loops unrolled so far  */
  int need_index;          /* 1 iff an instruction reads register 0 (the index) */
  int64_t *ilist;          /* the iterations run (sparse_plan, owned), or NULL: all */
  /* lsum slots: tslot[k] = the array slot of the k-th Arr Real leaf of the
   * result type; Arr (Arr Real) leaf m has rows mrows[] (row index, slot) */
  int *tslot, ntslot, captslot;
  int nacc_m;
  struct mrow { int m, dense; int64_t row; int slot; } *mrows;
  int nmrows, capmrows;
} cstate;

/* the compile cannot go on (FAST_DEBUG=3 says where) */
#define SET_FAIL(S)                                                                      \
  do {                                                                                   \
    if (!(S)->fail && getenv("FAST_DEBUG") && getenv("FAST_DEBUG")[0] == '3')           \
      fprintf(stderr, "fast: compile fails at line %d, term %d (kind %d)\n", __LINE__, (S)->last, \
              tm_kind((S)->last));                                                       \
    (S)->fail = 1;                                                                       \
  } while (0)
/* Arena blocks freed by one compile are kept for the next (at most
 * ARENA_KEEP of them): an unrolled body takes hundreds of blocks, and fresh
 * ones would be page faults on every compile. */
#define ARENA_KEEP 1024
static arena_blk *arena_free_list;
static int arena_nfree;
static void *salloc(cstate *S, size_t n) {
  n = (n + 15) & ~(size_t)15;
  if (n > sizeof S->mem->data) {
    SET_FAIL(S);
    return NULL;
  }
  if (!S->mem || S->mem->used + n > sizeof S->mem->data) {
    arena_blk *b = arena_free_list;
    if (b) {
      arena_free_list = b->prev;
      arena_nfree--;
    } else {
      b = malloc(sizeof *b);
    }
    if (!b) {
      SET_FAIL(S);
      return NULL;
    }
    b->prev = S->mem;
    b->used = 0;
    S->mem = b;
  }
  void *p = S->mem->data + S->mem->used;
  S->mem->used += n;
  return p;
}

static const sym *mk(cstate *S, int k) {
  sym *s = salloc(S, sizeof *s);
  if (!s) return NULL;
  memset(s, 0, sizeof *s);
  s->k = k;
  return s;
}
static const sym *mkv(cstate *S, const value *v) {
  if (v->kind == V_ZERO) return mk(S, SK_ZERO);
  sym *s = (sym *)mk(S, SK_V);
  if (s) s->v = v;
  return s;
}
static const sym *mkreg(cstate *S, int k, int reg) {
  sym *s = (sym *)mk(S, k);
  if (s) s->reg = reg;
  return s;
}
static const sym *mk2(cstate *S, int k, const sym *a, const sym *b) {
  if (!a || (k == SK_PAIR && !b)) return NULL;
  sym *s = (sym *)mk(S, k);
  if (s) {
    s->a = a;
    s->b = b;
  }
  return s;
}
static const senv *push(cstate *S, const senv *e, const sym *s) {
  if (!s) return NULL;
  senv *n = salloc(S, sizeof *n);
  if (!n) return NULL;
  n->s = s;
  n->next = e;
  n->rt = NULL;
  return n;
}
static const senv *rt_env(cstate *S, const env *e) {
  senv *n = salloc(S, sizeof *n);
  if (!n) return NULL;
  n->s = NULL;
  n->next = NULL;
  n->rt = e;
  return n;
}

static const sym *fail(cstate *S) {
  if (!S->fail && getenv("FAST_DEBUG") && getenv("FAST_DEBUG")[0] == '3')
    fprintf(stderr, "fast: compile fails at term %d (kind %d)%s%s\n", S->last, tm_kind(S->last),
            S->why ? ": " : "", S->why ? S->why : "");
  SET_FAIL(S);
  return NULL;
}

static int emit_to(cstate *S, ins **buf, int *n, int *cap, ins x) {
  if (*n >= MAX_CODE) {
    SET_FAIL(S);
    return -1;
  }
  if (*n == *cap) {
    int nc = *cap ? 2 * *cap : 64;
    ins *nb = realloc(*buf, (size_t)nc * sizeof *nb);
    if (!nb) {
      SET_FAIL(S);
      return -1;
    }
    *buf = nb;
    *cap = nc;
  }
  (*buf)[(*n)++] = x;
  return 0;
}
/* Hash tables of the compile (CSE of instructions, constants): open
 * addressing, grown (by rehashing what they index) at 3/4 full, from a size
 * that costs little for the many small loops up to HT_MAX entries; beyond, a
 * new instruction is no longer shared. */
#define HT_MIN 1024
#define HT_MAX (1 << 20)
static size_t cse_hash(int op, int p, int a, int b, int64_t k);
static size_t kh_hash(int is_int, int64_t bits) {
  return (size_t)(((uint64_t)bits * 0x9E3779B97F4A7C15ULL + (uint64_t)is_int) >> 20);
}
/* makes room for one more entry of table *t (capacity *cap) indexing items
 * xs[0..n) (code: by instruction; constants: by op and k); 0 on failure */
static int ht_room(int **t, int *cap, const ins *xs, int n, int is_konst) {
  if (*t && n < *cap / 4 * 3) return 1;
  if (*t && *cap >= HT_MAX) return 1; /* full: lookups still work, no inserts */
  int nc = *cap ? 2 * *cap : HT_MIN;
  int *nt = calloc((size_t)nc, sizeof *nt);
  if (!nt) return 0;
  for (int i = 0; i < n; i++) {
    const ins *y = &xs[i];
    size_t h = (is_konst ? kh_hash(y->op, y->k) : cse_hash(y->op, y->p, y->a, y->b, y->k)) & (size_t)(nc - 1);
    while (nt[h]) h = (h + 1) & (size_t)(nc - 1);
    nt[h] = i + 1;
  }
  free(*t);
  *t = nt;
  *cap = nc;
  return 1;
}
static size_t cse_hash(int op, int p, int a, int b, int64_t k) {
  uint64_t x = (uint64_t)op * 0x9E3779B97F4A7C15ULL;
  x ^= (uint64_t)p + 0x632BE59BD9B4E019ULL + (x << 6) + (x >> 2);
  x ^= (uint64_t)a + 0x632BE59BD9B4E019ULL + (x << 6) + (x >> 2);
  x ^= (uint64_t)b + 0x632BE59BD9B4E019ULL + (x << 6) + (x >> 2);
  x ^= (uint64_t)k + 0x632BE59BD9B4E019ULL + (x << 6) + (x >> 2);
  return (size_t)x;
}
/* Emits an instruction, or reuses an identical earlier one: the body is
 * straight-line code, so an earlier instruction has always run (and its
 * checks passed) when a later one would. */
static int is_expensive(int op, int p) {
  return op == O_U ? p != P_NEG && p != P_ABS
                   : op == O_D1 || op == O_D2 || (op == O_BIN && p == P_POW) || op == O_DOT;
}
static int emit_plain(cstate *S, int op, int p, int a, int b, int64_t k);
static int add_arr(cstate *S, const double *d, int64_t n);
static int konst(cstate *S, int is_int, double r, int64_t i);
static int kint(const cstate *S, int reg, int64_t *v);
static int kreal(const cstate *S, int reg, double *v);
static int irange(const cstate *S, int reg, int64_t *lo, int64_t *hi);
static void rmark(cstate *S, int reg, int64_t lo, int64_t hi);
static int ibin_safe(const cstate *S, int p, int a, int b, int64_t *lo, int64_t *hi);
static double lin(double a, double b) { return b == 0.0 ? 0.0 : a * b; }
/* Constant folding: an instruction whose operands are all constant
 * registers is computed now, with the scalar semantics of src/primitives.c
 * (libm, as the reference evaluator), and becomes a constant register; a
 * check that passes on a constant disappears (register 0 is returned). What
 * would fail at run time (a bound, an integer overflow) is left to the run,
 * which then bails out as before. -2: not folded. */
static int fold(cstate *S, int op, int p, int a, int b, int64_t k) {
  double x, y;
  int64_t i, j, r;
  switch (op) {
  case O_ADD: return kreal(S, a, &x) && kreal(S, b, &y) ? konst(S, 0, x + y, 0) : -2;
  case O_MUL:
    if (kreal(S, a, &x) && kreal(S, b, &y)) return konst(S, 0, x * y, 0);
    /* y * 1 is y exactly (a gradient's seed 1.0 multiplies everything) */
    if (kreal(S, b, &y) && y == 1.0) return a;
    if (kreal(S, a, &x) && x == 1.0) return b;
    return -2;
  case O_BIN: return kreal(S, a, &x) && kreal(S, b, &y) ? konst(S, 0, real2(p, x, y), 0) : -2;
  case O_D2:
    if (p == P_ADD || p == P_SUB) /* constant partials, whatever the operands */
      return konst(S, 0, deriv2(p, 0.0, 0.0, (int)k), 0);
    return kreal(S, a, &x) && kreal(S, b, &y) ? konst(S, 0, deriv2(p, x, y, (int)k), 0) : -2;
  case O_LIN:
    if (kreal(S, a, &x) && kreal(S, b, &y)) return konst(S, 0, lin(x, y), 0);
    if (kreal(S, b, &y)) { /* a constant scale: lin is 0, the operand, or a product */
      if (y == 0.0) return konst(S, 0, 0.0, 0);
      if (y == 1.0) return a;
      return emit_plain(S, O_MUL, 0, a, b, 0);
    }
    return -2;
  case O_U: return kreal(S, a, &x) ? konst(S, 0, real1(p, x), 0) : -2;
  case O_D1:
    if (p == P_NEG) return konst(S, 0, -1.0, 0);
    return kreal(S, a, &x) ? konst(S, 0, deriv1(p, x), 0) : -2;
  case O_TOREAL: return kint(S, a, &i) ? konst(S, 0, (double)i, 0) : -2;
  case O_INEG: return kint(S, a, &i) && i != INT64_MIN ? konst(S, 1, 0.0, -i) : -2;
  case O_IBIN:
    if (!kint(S, a, &i) || !kint(S, b, &j)) return -2;
    switch (p) {
    case P_IADD: if (__builtin_add_overflow(i, j, &r)) return -2; break;
    case P_ISUB: if (__builtin_sub_overflow(i, j, &r)) return -2; break;
    case P_IMUL: if (__builtin_mul_overflow(i, j, &r)) return -2; break;
    case P_IDIV:
      if (j == 0 || (i == INT64_MIN && j == -1)) return -2;
      r = i / j;
      break;
    case P_IMOD:
      if (j == 0) return -2;
      r = j == -1 ? 0 : i % j;
      break;
    default: return -2;
    }
    return konst(S, 1, 0.0, r);
  case O_CHKB: return irange(S, a, &i, &j) && i >= 0 && j < k ? 0 : -2;
  case O_SELK: return kint(S, a, &i) ? (i == k ? b : konst(S, 0, 0.0, 0)) : -2;
  case O_CHKNN: return irange(S, a, &i, &j) && i >= 0 ? 0 : -2;
  case O_LDR:
    return kint(S, a, &i) && i >= 0 && i < S->arrs[k].n ? konst(S, 0, S->arrs[k].d[i], 0) : -2;
  case O_LDA:
    return kint(S, a, &i) && i >= 0 ? konst(S, 0, i < S->arrs[k].n ? S->arrs[k].d[i] : 0.0, 0) : -2;
  case O_LDV:
    if (!kint(S, a, &i) || S->vecs[k].kind != 0 || i < 0 || i >= S->vecs[k].len) return -2;
    return konst(S, 0, S->arrs[S->vecs[k].id].d[i], 0);
  default: return -2;
  }
}
/* Memo replay counts the expensive instructions of a delayed body whether
 * or not they fold, and its recording keeps a place (-1: not memoised) for
 * the folded ones, so the k-th of the replay is always the k-th recorded. */
static int emit(cstate *S, int op, int p, int a, int b, int64_t k) {
  int f;
  if (!is_expensive(op, p)) {
    f = fold(S, op, p, a, b, k);
    if (f != -2) return f;
    int d = emit_plain(S, op, p, a, b, k);
    int64_t lo, hi;
    if (d > 0 && op == O_IBIN && ibin_safe(S, p, a, b, &lo, &hi)) rmark(S, d, lo, hi);
    if (d > 0 && op == O_INEG && irange(S, a, &lo, &hi) && lo > INT64_MIN) rmark(S, d, -hi, -lo);
    return d;
  }
  if (S->nframes > 0) {
    struct replay *f = &S->frames[S->nframes - 1];
    int c = f->count++;
    if (c < f->dl->ncalls && f->dl->memo_of[c] >= 0) {
      const fv_delay *dl = f->dl;
      int ka = add_arr(S, dl->memo[dl->memo_of[c]], dl->base.u.arr.n);
      if (ka < 0) return -1;
      int seq = f->jr == 0 && dl->base.u.arr.n >= S->loop_n;
      return emit_plain(S, seq ? O_LDSEQ : O_LDR, 0, f->jr, 0, ka);
    }
    int fo = fold(S, op, p, a, b, k);
    return fo != -2 ? fo : emit_plain(S, op, p, a, b, k);
  }
  f = fold(S, op, p, a, b, k);
  int d = f != -2 ? f : emit_plain(S, op, p, a, b, k);
  if (d >= 0 && S->recording) {
    if (S->nrec == S->caprec) {
      int nc = S->caprec ? 2 * S->caprec : 16;
      int *nr = realloc(S->rec, (size_t)nc * sizeof *nr);
      if (!nr) {
        SET_FAIL(S);
        return -1;
      }
      S->rec = nr;
      S->caprec = nc;
    }
    S->rec[S->nrec++] = f != -2 ? -1 : d;
  }
  return d;
}
static int emit_plain(cstate *S, int op, int p, int a, int b, int64_t k) {
  if (!ht_room(&S->cse, &S->cse_cap, S->code, S->ncode, 0)) {
    SET_FAIL(S);
    return -1;
  }
  size_t hsh = cse_hash(op, p, a, b, k) & (size_t)(S->cse_cap - 1);
  for (;; hsh = (hsh + 1) & (size_t)(S->cse_cap - 1)) {
    int c = S->cse[hsh];
    if (!c) break;
    const ins *y = &S->code[c - 1];
    if (y->op == op && y->p == p && y->a == a && y->b == b && y->k == k) return y->d;
  }
  int d = S->nregs++;
  ins x = {op, p, d, a, b, k};
  if (emit_to(S, &S->code, &S->ncode, &S->capcode, x) < 0) return -1;
  if (S->ncode < S->cse_cap / 4 * 3) S->cse[hsh] = S->ncode;
  return d;
}
/* a constant register, filled once per block buffer */
static int kmark(cstate *S, int reg, int kind, int64_t bits) {
  if (reg >= S->capk) {
    int nc = S->capk ? 2 * S->capk : 256;
    while (nc <= reg) nc *= 2;
    char *nk = realloc(S->kk, (size_t)nc);
    if (!nk) return -1;
    S->kk = nk;
    int64_t *nv = realloc(S->kv, (size_t)nc * sizeof *nv);
    if (!nv) return -1;
    S->kv = nv;
    memset(S->kk + S->capk, 0, (size_t)(nc - S->capk));
    S->capk = nc;
  }
  S->kk[reg] = (char)kind;
  S->kv[reg] = bits;
  return 0;
}
static int konst(cstate *S, int is_int, double r, int64_t i) {
  int64_t bits = i;
  if (!is_int) memcpy(&bits, &r, sizeof r); /* the real constant's bits in k */
  if (!ht_room(&S->khash, &S->kh_cap, S->init, S->ninit, 1)) {
    SET_FAIL(S);
    return -1;
  }
  size_t hsh = kh_hash(is_int, bits) & (size_t)(S->kh_cap - 1);
  for (;; hsh = (hsh + 1) & (size_t)(S->kh_cap - 1)) {
    int c = S->khash[hsh];
    if (!c) break;
    const ins *y = &S->init[c - 1];
    if (y->op == is_int && y->k == bits) return y->d;
  }
  int d = S->nregs++;
  ins x = {is_int, 0, d, 0, 0, bits};
  if (emit_to(S, &S->init, &S->ninit, &S->capinit, x) < 0) return -1;
  if (kmark(S, d, is_int ? 1 : 2, bits) < 0) {
    SET_FAIL(S);
    return -1;
  }
  if (S->ninit < S->kh_cap / 4 * 3) S->khash[hsh] = S->ninit;
  return d;
}
/* the value of a constant register */
static int kint(const cstate *S, int reg, int64_t *v) {
  if (reg < 0 || reg >= S->capk || S->kk[reg] != 1) return 0;
  *v = S->kv[reg];
  return 1;
}
static int kreal(const cstate *S, int reg, double *v) {
  if (reg < 0 || reg >= S->capk || S->kk[reg] != 2) return 0;
  memcpy(v, &S->kv[reg], sizeof *v);
  return 1;
}

/* The range of an integer register: 1 with lo <= I[reg] <= hi in every
 * iteration of the loop; 0 unknown. */
static int irange(const cstate *S, int reg, int64_t *lo, int64_t *hi) {
  int64_t v;
  if (kint(S, reg, &v)) {
    *lo = *hi = v;
    return 1;
  }
  if (reg == 0) {
    if (S->loop_n <= 0) return 0;
    *lo = 0;
    *hi = S->loop_n - 1;
    return 1;
  }
  if (reg < 0 || reg >= S->caprk || !S->rk[reg]) return 0;
  *lo = S->rlo[reg];
  *hi = S->rhi[reg];
  return 1;
}
static void rmark(cstate *S, int reg, int64_t lo, int64_t hi) {
  if (reg <= 0) return;
  if (reg >= S->caprk) {
    int nc = S->caprk ? 2 * S->caprk : 256;
    while (nc <= reg) nc *= 2;
    char *nk = realloc(S->rk, (size_t)nc);
    if (!nk) return; /* no range: only fewer checks are dropped */
    S->rk = nk;
    memset(S->rk + S->caprk, 0, (size_t)(nc - S->caprk));
    int64_t *nl = realloc(S->rlo, (size_t)nc * sizeof *nl);
    if (nl) S->rlo = nl;
    int64_t *nh = nl ? realloc(S->rhi, (size_t)nc * sizeof *nh) : NULL;
    if (nh) S->rhi = nh;
    if (!nl || !nh) {
      memset(S->rk, 0, (size_t)nc);
      S->caprk = 0;
      return;
    }
    S->caprk = nc;
  }
  S->rk[reg] = 1;
  S->rlo[reg] = lo;
  S->rhi[reg] = hi;
}
/* An integer operation on operands of known ranges: 1 when it cannot fail
 * (no overflow, no division by zero) for any operands in them, with the
 * result's range in *lo, *hi. Each bound is the operation on bounds, so one
 * overflow-free bound computation covers every operand between them. */
static int ibin_range(int p, int64_t alo, int64_t ahi, int64_t blo, int64_t bhi, int64_t *lo, int64_t *hi) {
  switch (p) {
  case P_IADD:
    return !__builtin_add_overflow(alo, blo, lo) && !__builtin_add_overflow(ahi, bhi, hi);
  case P_ISUB:
    return !__builtin_sub_overflow(alo, bhi, lo) && !__builtin_sub_overflow(ahi, blo, hi);
  case P_IMUL: {
    int64_t c[4];
    if (__builtin_mul_overflow(alo, blo, &c[0]) || __builtin_mul_overflow(alo, bhi, &c[1]) ||
        __builtin_mul_overflow(ahi, blo, &c[2]) || __builtin_mul_overflow(ahi, bhi, &c[3]))
      return 0;
    *lo = *hi = c[0];
    for (int i = 1; i < 4; i++) {
      if (c[i] < *lo) *lo = c[i];
      if (c[i] > *hi) *hi = c[i];
    }
    return 1;
  }
  case P_IDIV: /* truncation; a positive divisor and a dividend >= 0 */
    if (blo <= 0 || alo < 0) return 0;
    *lo = alo / bhi;
    *hi = ahi / blo;
    return 1;
  case P_IMOD: /* the sign of the dividend, |result| < divisor and <= |dividend| */
    if (blo <= 0) return 0;
    *lo = alo >= 0 ? 0 : alo > 1 - bhi ? alo : 1 - bhi;
    *hi = ahi < 0 ? 0 : ahi < bhi - 1 ? ahi : bhi - 1;
    if (alo >= 0 && ahi < blo) *lo = alo; /* the dividend itself */
    return 1;
  default: return 0;
  }
}
static int ibin_safe(const cstate *S, int p, int a, int b, int64_t *lo, int64_t *hi) {
  int64_t alo, ahi, blo, bhi;
  return irange(S, a, &alo, &ahi) && irange(S, b, &blo, &bhi) && ibin_range(p, alo, ahi, blo, bhi, lo, hi);
}

static int add_arr(cstate *S, const double *d, int64_t n) {
  for (int i = 0; i < S->narrs; i++)
    if (S->arrs[i].d == d && S->arrs[i].n == n) return i;
  if (S->narrs == S->caparrs) {
    int nc = S->caparrs ? 2 * S->caparrs : 8;
    rarr_ref *na = realloc(S->arrs, (size_t)nc * sizeof *na);
    if (!na) {
      SET_FAIL(S);
      return -1;
    }
    S->arrs = na;
    S->caparrs = nc;
  }
  S->arrs[S->narrs].d = d;
  S->arrs[S->narrs].n = n;
  return S->narrs++;
}

/* A captured array of unboxed rows of one length (at least one row), or -1
 * (no error: the caller fails the compile). */
static int add_mat(cstate *S, const value *v) {
  for (int i = 0; i < S->nmats; i++)
    if (S->mats[i].v == v) return i;
  int64_t n = v->u.arr.n;
  if (v->kind != V_ARRAY || n <= 0) return -1;
  int64_t len = -1;
  for (int64_t i = 0; i < n; i++) {
    const value *r = v->u.arr.elems[i];
    if (!r || r->kind != FV_RARR || (len >= 0 && r->u.arr.n != len)) return -1;
    len = r->u.arr.n;
  }
  if (S->nmats == S->capmats) {
    int nc = S->capmats ? 2 * S->capmats : 4;
    mat_ref *nm = realloc(S->mats, (size_t)nc * sizeof *nm);
    if (!nm) return -1;
    S->mats = nm;
    S->capmats = nc;
  }
  const double **rows = malloc((size_t)n * sizeof *rows);
  if (!rows) return -1;
  for (int64_t i = 0; i < n; i++) rows[i] = as_rarr(v->u.arr.elems[i])->d;
  S->mats[S->nmats] = (mat_ref){v, rows, n, len};
  return S->nmats++;
}

static int add_vec(cstate *S, int kind, int id, int ireg, int64_t len) {
  for (int i = 0; i < S->nvecs; i++)
    if (S->vecs[i].kind == kind && S->vecs[i].id == id && S->vecs[i].ireg == ireg) return i;
  if (S->nvecs == S->capvecs) {
    int nc = S->capvecs ? 2 * S->capvecs : 8;
    vdesc *nv = realloc(S->vecs, (size_t)nc * sizeof *nv);
    if (!nv) {
      SET_FAIL(S);
      return -1;
    }
    S->vecs = nv;
    S->capvecs = nc;
  }
  S->vecs[S->nvecs] = (vdesc){kind, id, ireg, len};
  return S->nvecs++;
}

static const sym *mkvec(cstate *S, int vec, int scale, const sym *next) {
  if (vec < 0) return NULL;
  sym *s = (sym *)mk(S, SK_VEC);
  if (!s) return NULL;
  s->term = vec;
  s->reg = scale;
  s->b = next;
  return s;
}

/* An Arr Real operand as a vector (a captured unboxed array, or already
 * one), or NULL with the compile failed. */
static int new_scratch(cstate *S, int64_t len);
static int rreg(cstate *S, const sym *s);
static int arr_reals(const sym *a);
static int emit_vec(cstate *S, int op, int p, int d, int a, int b, int64_t k);
static const sym *vec_of(cstate *S, const sym *a) {
  if (!a) return NULL;
  if (a->k == SK_VEC) return a;
  if (a->k == SK_ARR && a->n > 0 && arr_reals(a)) { /* packed into a scratch vector */
    int d = new_scratch(S, a->n);
    if (d < 0) return NULL;
    for (int64_t j = 0; j < a->n; j++) {
      int r = rreg(S, a->el[j]);
      if (r < 0 || emit_vec(S, O_PACK, (int)j, -1, r, 0, d) < 0) return NULL;
    }
    return mkvec(S, d, -1, NULL);
  }
  if (a->k == SK_V && a->v->kind == FV_RARR) {
    int k = add_arr(S, as_rarr(a->v)->d, a->v->u.arr.n);
    return k < 0 ? NULL : mkvec(S, add_vec(S, 0, k, 0, a->v->u.arr.n), -1, NULL);
  }
  if (a->k == SK_V && a->v->kind == V_ARRAY && fv_boxed_real(a->v)) {
    const value *u = fv_unbox(S->h, a->v);
    if (!u) {
      S->oom = 1;
      SET_FAIL(S);
      return NULL;
    }
    int k = add_arr(S, as_rarr(u)->d, u->u.arr.n);
    return k < 0 ? NULL : mkvec(S, add_vec(S, 0, k, 0, u->u.arr.n), -1, NULL);
  }
  S->why = "not a vector";
  S->whyk = a->k;
  return fail(S);
}
static int64_t vec_len(const cstate *S, const sym *v) { return S->vecs[v->term].len; }

/* a new scratch vector of length len (per thread: len x B doubles) */
static int new_scratch(cstate *S, int64_t len) {
  if (len > ((int64_t)1 << 16) || S->nscr >= 64) {
    SET_FAIL(S);
    return -1;
  }
  return add_vec(S, 2, S->nscr++, -1, len);
}
static int emit_vec(cstate *S, int op, int p, int d, int a, int b, int64_t k) {
  ins x = {op, p, d, a, b, k};
  return emit_to(S, &S->code, &S->ncode, &S->capcode, x);
}
static int rreg(cstate *S, const sym *s);
/* an Arr Real cotangent of an array primitive's result of length L as a
 * vector: onehots of reals are made dense (the reference's tangent_reals) */
static const sym *vec_cot(cstate *S, const sym *c, int64_t L) {
  if (!c) return NULL;
  if (c->k != SK_OH) return vec_of(S, c);
  int d = new_scratch(S, L);
  if (d < 0) return NULL;
  int first = 1;
  for (const sym *p = c; p; p = p->b, first = 0) {
    int vr = rreg(S, p->a);
    if (vr < 0 || emit_vec(S, O_VOH, first ? 0 : 1, -1, p->reg, vr, d) < 0) return NULL;
  }
  return mkvec(S, d, -1, NULL);
}

/* the vdesc of a single plain vector holding v's elements (its own when v
 * is one plain term; else a scratch vector summing the terms in order) */
static int vec_plain(cstate *S, const sym *v) {
  if (!v) return -1;
  if (!v->b && v->reg < 0) return v->term;
  int d = new_scratch(S, vec_len(S, v));
  if (d < 0) return -1;
  int first = 1;
  for (const sym *p = v; p; p = p->b, first = 0)
    if (emit_vec(S, O_VSTS, first ? 0 : 1, -1, p->term, p->reg, d) < 0) return -1;
  return d;
}

/* register holding a real / an int */
static int rreg(cstate *S, const sym *s) {
  if (!s) return -1;
  if (s->k == SK_R) return s->reg;
  if (s->k == SK_ZERO) return konst(S, 0, 0.0, 0);
  if (s->k == SK_V && s->v->kind == V_REAL) return konst(S, 0, s->v->u.r, 0);
  if (getenv("FAST_DEBUG") && getenv("FAST_DEBUG")[0] == '3') fprintf(stderr, "rreg of kind %d (v kind %d)\n", s->k, s->k == SK_V ? (int)s->v->kind : -1);
  SET_FAIL(S);
  return -1;
}
static int ireg(cstate *S, const sym *s) {
  if (!s) return -1;
  if (s->k == SK_I) return s->reg;
  if (s->k == SK_V && s->v->kind == V_INT) return konst(S, 1, 0.0, s->v->u.i);
  SET_FAIL(S);
  return -1;
}
static int is_zero(const sym *s) { return s->k == SK_ZERO; }

/* An Int known when the loop is compiled: a captured int or a constant register. */
static int known_int(const cstate *S, const sym *s, int64_t *v) {
  if (!s) return 0;
  if (s->k == SK_V && s->v->kind == V_INT) {
    *v = s->v->u.i;
    return 1;
  }
  return s->k == SK_I && kint(S, s->reg, v);
}
static const sym *kisym(cstate *S, int64_t i) {
  int r = konst(S, 1, 0.0, i);
  return r < 0 ? NULL : mkreg(S, SK_I, r);
}
#define UNROLL_MAX 4096         /* elements of one unrolled nested loop    */
#define UNROLL_BUDGET 200000    /* elements unrolled in one compiled body  */
/* room for an unrolled array of n elements (fails the compile beyond the limits) */
static const sym **unroll_alloc(cstate *S, int64_t n) {
  if (n < 0 || n > UNROLL_MAX || (S->unrolled += n) > UNROLL_BUDGET) {
    S->why = "nested loop too long to unroll";
    SET_FAIL(S);
    return NULL;
  }
  const sym **el = salloc(S, (size_t)(n ? n : 1) * sizeof *el);
  return el;
}
static const sym *mkarr(cstate *S, int64_t n, const sym **el) {
  sym *s = (sym *)mk(S, SK_ARR);
  if (!s) return NULL;
  s->n = n;
  s->el = el;
  return s;
}
/* 1 iff every element of an unrolled array is a real (or zero) */
static int arr_reals(const sym *a) {
  for (int64_t i = 0; i < a->n; i++) {
    const sym *e = a->el[i];
    if (!(e->k == SK_R || e->k == SK_ZERO || (e->k == SK_V && e->v->kind == V_REAL))) return 0;
  }
  return 1;
}

static const sym *cc(cstate *S, int t, const senv *E);

static const sym *proj(cstate *S, const sym *p, int second) {
  if (!p) return NULL;
  if (p->k == SK_PAIR) return second ? p->b : p->a;
  if (p->k == SK_ZERO) return p;
  if (p->k == SK_V && p->v->kind == V_PAIR) return mkv(S, second ? p->v->u.pair.b : p->v->u.pair.a);
  return fail(S);
}

/* room for the nodes of a term list (SK_VEC, SK_OH) */
static const sym **list_nodes(cstate *S, const sym *a) {
  int64_t n = 0;
  for (const sym *p = a; p; p = p->b) n++;
  if (n > 4096) {
    S->why = "sum of too many terms";
    fail(S);
    return NULL;
  }
  return salloc(S, (size_t)(n ? n : 1) * sizeof(const sym *));
}
/* One entry of a onehot or bag list (kind k): its register, its value a,
 * in front of next. */
static const sym *list_entry(cstate *S, int k, int reg, const sym *a, const sym *next) {
  sym *q = (sym *)mk(S, k);
  if (!q) return NULL;
  q->reg = reg;
  q->a = a;
  q->b = next;
  return q;
}
/* The nodes of list src (kind k: onehot entries or bag entries, each its
 * reg and a) copied, in order, in front of tail: a sum of two lists whose
 * order is not observable, costing the copied list only. */
static const sym *prepend_copy(cstate *S, int k, const sym *src, const sym *tail) {
  const sym **stack = list_nodes(S, src);
  int n = 0;
  if (!stack) return NULL;
  for (const sym *p = src; p; p = p->b) stack[n++] = p;
  const sym *r = tail;
  while (n > 0) {
    const sym *p = stack[--n];
    r = list_entry(S, k, p->reg, p->a, r);
    if (!r) return NULL;
  }
  return r;
}

static const sym *plus(cstate *S, const sym *a, const sym *b) {
  if (!a || !b) return NULL;
  if (is_zero(a)) return b;
  if (is_zero(b)) return a;
  if (a->k == SK_V && a->v->kind == V_PAIR) a = mk2(S, SK_PAIR, mkv(S, a->v->u.pair.a), mkv(S, a->v->u.pair.b));
  if (b->k == SK_V && b->v->kind == V_PAIR) b = mk2(S, SK_PAIR, mkv(S, b->v->u.pair.a), mkv(S, b->v->u.pair.b));
  if (!a || !b) return NULL;
  if (a->k == SK_PAIR && b->k == SK_PAIR)
    return mk2(S, SK_PAIR, plus(S, a->a, b->a), plus(S, a->b, b->b));
  if (a->k == SK_ARR && b->k == SK_ARR) { /* dense cotangents: element by element */
    if (a->n != b->n) return fail(S);
    const sym **el = unroll_alloc(S, a->n);
    if (!el) return NULL;
    for (int64_t j = 0; j < a->n; j++)
      if (!(el[j] = plus(S, a->el[j], b->el[j]))) return NULL;
    return mkarr(S, a->n, el);
  }
  if ((a->k == SK_ARR && b->k == SK_OH) || (a->k == SK_OH && b->k == SK_ARR)) {
    /* dense + sparse (the reference's dense_plus_sparse): each entry added
     * to its element, at indices known when compiling and in bounds */
    const sym *dn = a->k == SK_ARR ? a : b, *sp = a->k == SK_ARR ? b : a;
    const sym **el = unroll_alloc(S, dn->n);
    if (!el) return NULL;
    for (int64_t j = 0; j < dn->n; j++) el[j] = dn->el[j];
    for (const sym *p = sp; p; p = p->b) {
      int64_t j;
      if (!kint(S, p->reg, &j) || j < 0 || j >= dn->n) return fail(S);
      if (!(el[j] = plus(S, el[j], p->a))) return NULL;
    }
    return mkarr(S, dn->n, el);
  }
  if ((a->k == SK_ARR && (b->k == SK_VEC || b->k == SK_V)) ||
      (b->k == SK_ARR && (a->k == SK_VEC || a->k == SK_V))) {
    if (!(a = vec_of(S, a)) || !(b = vec_of(S, b))) return NULL;
  }
  if ((a->k == SK_VEC && (b->k == SK_VEC || b->k == SK_V)) || (b->k == SK_VEC && a->k == SK_V)) {
    /* dense vectors of one length: concatenate the term lists */
    a = vec_of(S, a);
    b = a ? vec_of(S, b) : NULL;
    if (!b) return NULL;
    if (vec_len(S, a) != vec_len(S, b)) return fail(S);
    const sym **stack = list_nodes(S, a);
    int n = 0;
    if (!stack) return NULL;
    for (const sym *p = a; p; p = p->b) stack[n++] = p;
    const sym *r = b;
    while (n > 0) {
      const sym *p = stack[--n];
      if (!(r = mkvec(S, p->term, p->reg, r))) return NULL;
    }
    return r;
  }
  if (a->k == SK_OH && b->k == SK_OH) {
    int64_t la = 0, lb = 0;
    for (const sym *p = a; p; p = p->b) la++;
    for (const sym *p = b; p; p = p->b) lb++;
    if (la + lb > 16) {
      /* long lists (an unrolled lsum's accumulation): the shorter copied in
       * front of the longer, not merged, so adding one term costs the term,
       * not the whole sum (the order of entries is not observable) */
      return la <= lb ? prepend_copy(S, SK_OH, a, b) : prepend_copy(S, SK_OH, b, a);
    }
    /* concatenate the onehot lists (copy a's nodes in front of b) */
    const sym *r = b;
    const sym **stack = list_nodes(S, a);
    int n = 0;
    if (!stack) return NULL;
    for (const sym *p = a; p; p = p->b) stack[n++] = p;
    while (n > 0) {
      const sym *p = stack[--n];
      /* same index register as an entry of b: add the values instead */
      int merged = 0;
      for (const sym *o = b; o && !merged; o = o->b)
        if (o->reg == p->reg) merged = 1;
      if (merged && r == b) {
        /* rebuild b's list with the sum at that entry */
        const sym *nb = NULL, **rev = list_nodes(S, b);
        int m = 0;
        if (!rev) return NULL;
        for (const sym *o = b; o; o = o->b) rev[m++] = o;
        /* the sum goes to one entry of that index only (b may hold
         * several: entries of one index are not always merged) */
        int first = -1;
        for (int i = m - 1; i >= 0 && first < 0; i--)
          if (rev[i]->reg == p->reg) first = i;
        while (m > 0) {
          const sym *o = rev[--m];
          const sym *v = m == first ? plus(S, o->a, p->a) : o->a;
          if (!v) return NULL;
          nb = list_entry(S, SK_OH, o->reg, v, nb);
          if (!nb) return NULL;
        }
        b = r = nb;
        continue;
      }
      r = list_entry(S, SK_OH, p->reg, p->a, r);
      if (!r) return NULL;
    }
    return r;
  }
  if (a->k == SK_BAG && b->k == SK_BAG) {
    /* concatenation (order is not observable): the shorter copied in front */
    int64_t la = 0, lb = 0;
    for (const sym *p = a; p; p = p->b) la++;
    for (const sym *p = b; p; p = p->b) lb++;
    return la <= lb ? prepend_copy(S, SK_BAG, a, b) : prepend_copy(S, SK_BAG, b, a);
  }
  if ((a->k == SK_UNIT || (a->k == SK_V && a->v->kind == V_UNIT)) &&
      (b->k == SK_UNIT || (b->k == SK_V && b->v->kind == V_UNIT)))
    return a;
  int ra = (a->k == SK_R || (a->k == SK_V && a->v->kind == V_REAL));
  int rb = (b->k == SK_R || (b->k == SK_V && b->v->kind == V_REAL));
  if (ra && rb) {
    int x = rreg(S, a), y = rreg(S, b);
    if (x < 0 || y < 0) return NULL;
    int d = emit(S, O_ADD, 0, x, y, 0);
    return d < 0 ? NULL : mkreg(S, SK_R, d);
  }
  return fail(S);
}

static const sym *apply(cstate *S, const sym *f, const sym *x) {
  if (!f || !x) return NULL;
  if (f->k == SK_ZERO) return f;
  if (++S->depth > MAX_INLINE) return fail(S);
  const sym *r = NULL;
  if (f->k == SK_CLO) {
    r = cc(S, tm_a(f->term), push(S, f->env, x));
  } else if (f->k == SK_V && f->v->kind == V_CLOSURE) {
    const value *c = f->v;
    if (c->u.clo.term >= 0) {
      r = cc(S, tm_a(c->u.clo.term), push(S, rt_env(S, c->u.clo.env), x));
    } else if (c->u.clo.term == CLO_PLUS) {
      r = plus(S, apply(S, mkv(S, c->u.clo.env->v), x), apply(S, mkv(S, c->u.clo.env->next->v), x));
    } else {
      r = fail(S);
    }
  } else {
    r = fail(S);
  }
  S->depth--;
  return r;
}

/* 1 iff s is an unrolled array (the other operand is then read element by element) */
static int arr_operand(const cstate *S, const sym *s) {
  (void)S;
  return s && s->k == SK_ARR;
}
/* the static length of an Arr Real operand, or -1 */
static int64_t sym_len(const cstate *S, const sym *s) {
  if (!s) return -1;
  if (s->k == SK_ARR) return s->n;
  if (s->k == SK_VEC) return S->vecs[s->term].len;
  if (s->k == SK_V && (s->v->kind == FV_RARR || (s->v->kind == V_ARRAY && fv_boxed_real(s->v))))
    return s->v->u.arr.n;
  return -1;
}
static const sym *index_sym(cstate *S, const sym *a, const sym *j) {
  if (!a || !j) return NULL;
  int jr = ireg(S, j);
  if (jr < 0) return NULL;
  if (a->k == SK_ZERO) {
    if (jr != 0 && emit(S, O_CHKNN, 0, jr, 0, 0) < 0) return NULL;
    return a;
  }
  int64_t kj;
  if (a->k == SK_ARR) {
    if (known_int(S, j, &kj)) {
      if (kj < 0 || kj >= a->n) return fail(S); /* the generic path reports it */
      return a->el[kj];
    }
    if (!arr_reals(a)) return fail(S);
    a = vec_of(S, a); /* a runtime index: a vector read */
    if (!a) return NULL;
  }
  if (a->k == SK_OH && known_int(S, j, &kj) && kj >= 0) {
    /* a sum of onehots at known indices: the sum of the entries at kj */
    const sym *acc = mk(S, SK_ZERO);
    for (const sym *p = a; p && acc; p = p->b) {
      int64_t pj;
      if (kint(S, p->reg, &pj)) {
        if (pj == kj) acc = plus(S, acc, p->a);
        continue;
      }
      /* an entry at a runtime index: its value where the index is kj, else 0 */
      int vr = rreg(S, p->a), d = vr < 0 ? -1 : emit(S, O_SELK, 0, p->reg, vr, kj);
      acc = d < 0 ? NULL : plus(S, acc, mkreg(S, SK_R, d));
    }
    return acc;
  }
  if (a->k == SK_V && a->v->kind == V_ARRAY && !fv_boxed_real(a->v) && known_int(S, j, &kj)) {
    /* an element of a captured array at a known index: itself */
    if (kj < 0 || kj >= a->v->u.arr.n) return fail(S);
    return mkv(S, a->v->u.arr.elems[kj]);
  }
  if (a->k == SK_VEC) { /* the sum of the terms' elements, in list order */
    int acc = -1;
    for (const sym *p = a; p; p = p->b) {
      int d = emit(S, O_LDV, 0, jr, 0, p->term);
      if (d >= 0 && p->reg >= 0) d = emit(S, O_LIN, 0, d, p->reg, 0);
      if (d >= 0 && acc >= 0) d = emit(S, O_ADD, 0, acc, d, 0);
      if (d < 0) return NULL;
      acc = d;
    }
    return mkreg(S, SK_R, acc);
  }
  if (a->k != SK_V) {
    S->why = "index of symbolic";
    S->whyk = a->k;
    return fail(S);
  }
  const value *v = a->v;
  S->why = "index of value";
  S->whyk = (int)v->kind;
  if (v->kind == V_ARRAY && !fv_boxed_real(v)) {
    /* a matrix: its row jr, a vector (the row index is checked here, as the
     * reference checks it when indexing) */
    int m = add_mat(S, v);
    if (m < 0) return fail(S);
    if (!(jr == 0 && v->u.arr.n >= S->loop_n) && emit(S, O_CHKB, 0, jr, 0, v->u.arr.n) < 0)
      return NULL;
    return mkvec(S, add_vec(S, 1, m, jr, S->mats[m].len), -1, NULL);
  }
  if (v->kind == V_ARRAY) {
    /* a boxed real array: unboxed once, at compile time */
    if (!fv_boxed_real(v)) return fail(S);
    if (!(v = fv_unbox(S->h, v))) {
      S->oom = 1;
      return fail(S);
    }
  }
  if (v->kind == V_SPARSE) return fail(S);
  if (v->kind == FV_RARR || v->kind == FV_ACC) {
    int k = add_arr(S, as_rarr(v)->d, v->u.arr.n);
    if (k < 0) return NULL;
    int seq = jr == 0 && v->kind == FV_RARR && v->u.arr.n >= S->loop_n;
    int d = emit(S, seq ? O_LDSEQ : v->kind == FV_RARR ? O_LDR : O_LDA, 0, jr, 0, k);
    return d < 0 ? NULL : mkreg(S, SK_R, d);
  }
  if (v->kind == FV_DELAY) {
    const fv_delay *dl = as_delay(v);
    if (!(jr == 0 && v->u.arr.n >= S->loop_n) && emit(S, O_CHKB, 0, jr, 0, v->u.arr.n) < 0)
      return NULL;
    const sym *x = dl->src ? index_sym(S, mkv(S, dl->src), mkreg(S, SK_I, jr)) : mkreg(S, SK_I, jr);
    if (!x) return NULL;
    if (++S->depth > MAX_INLINE) return fail(S);
    int framed = 0;
    if (dl->ncalls > 0) {
      if (S->nframes == 32) return fail(S);
      S->frames[S->nframes].dl = dl;
      S->frames[S->nframes].count = 0;
      S->frames[S->nframes].jr = jr;
      S->nframes++;
      framed = 1;
    }
    const sym *r = cc(S, dl->body, push(S, rt_env(S, dl->env), x));
    if (framed) S->nframes--;
    S->depth--;
    return r;
  }
  return fail(S);
}

static const sym *op_sym(cstate *S, int op, const sym *x) {
  if (!x) return NULL;
  if (is_real1(op)) {
    int a = rreg(S, x);
    if (a < 0) return NULL;
    int d = emit(S, O_U, op, a, 0, 0);
    return d < 0 ? NULL : mkreg(S, SK_R, d);
  }
  if (is_real2(op)) {
    int a = rreg(S, proj(S, x, 0)), b = a < 0 ? -1 : rreg(S, proj(S, x, 1));
    if (b < 0) return NULL;
    int d = emit(S, op == P_ADD ? O_ADD : op == P_MUL ? O_MUL : O_BIN, op, a, b, 0);
    return d < 0 ? NULL : mkreg(S, SK_R, d);
  }
  if (op == P_TOREAL || op == P_INEG) {
    int a = ireg(S, x);
    if (a < 0) return NULL;
    int d = emit(S, op == P_TOREAL ? O_TOREAL : O_INEG, op, a, 0, 0);
    return d < 0 ? NULL : mkreg(S, op == P_TOREAL ? SK_R : SK_I, d);
  }
  if (op >= P_IADD && op <= P_IMOD) {
    int a = ireg(S, proj(S, x, 0)), b = a < 0 ? -1 : ireg(S, proj(S, x, 1));
    if (b < 0) return NULL;
    int d = emit(S, O_IBIN, op, a, b, 0);
    return d < 0 ? NULL : mkreg(S, SK_I, d);
  }
  if (op == P_DOT && (arr_operand(S, proj(S, x, 0)) || arr_operand(S, proj(S, x, 1)))) {
    /* an unrolled operand: the products and sums as scalar code, in the
     * reference's order (s = 0; s += u[j] * v[j]) */
    const sym *u = proj(S, x, 0), *v = proj(S, x, 1);
    int64_t L = sym_len(S, u);
    if (L < 0 || sym_len(S, v) != L) return fail(S);
    int acc = konst(S, 0, 0.0, 0);
    for (int64_t j = 0; j < L && acc >= 0; j++) {
      const sym *kj = kisym(S, j);
      int p = rreg(S, index_sym(S, u, kj)), q = p < 0 ? -1 : rreg(S, index_sym(S, v, kj));
      int m = q < 0 ? -1 : emit(S, O_MUL, P_MUL, p, q, 0);
      acc = m < 0 ? -1 : emit(S, O_ADD, P_ADD, acc, m, 0);
    }
    return acc < 0 ? NULL : mkreg(S, SK_R, acc);
  }
  if (op == P_DOT) {
    const sym *u = vec_of(S, proj(S, x, 0)), *v = u ? vec_of(S, proj(S, x, 1)) : NULL;
    if (!v) return NULL;
    if (vec_len(S, u) != vec_len(S, v)) return fail(S);
    int pu = vec_plain(S, u), pv = pu < 0 ? -1 : vec_plain(S, v);
    int d = pv < 0 ? -1 : emit(S, O_DOT, 0, pu, pv, 0);
    return d < 0 ? NULL : mkreg(S, SK_R, d);
  }
  if (op == P_VADD || op == P_VMUL) { /* equal lengths (the reference's check) */
    const sym *u = vec_of(S, proj(S, x, 0)), *v = u ? vec_of(S, proj(S, x, 1)) : NULL;
    if (!v) return NULL;
    if (vec_len(S, u) != vec_len(S, v)) return fail(S);
    if (op == P_VADD) return plus(S, u, v); /* u[j] + v[j] when indexed */
    int pu = vec_plain(S, u), pv = pu < 0 ? -1 : vec_plain(S, v);
    int d = pv < 0 ? -1 : new_scratch(S, vec_len(S, u));
    if (d < 0 || emit_vec(S, O_VEW, 0, -1, pu, pv, d) < 0) return NULL;
    return mkvec(S, d, -1, NULL);
  }
  if (op == P_VSCALE) { /* s * v[j] */
    int sr = rreg(S, proj(S, x, 0));
    const sym *v = sr < 0 ? NULL : vec_of(S, proj(S, x, 1));
    if (!v) return NULL;
    int pv = vec_plain(S, v), d = pv < 0 ? -1 : new_scratch(S, vec_len(S, v));
    if (d < 0 || emit_vec(S, O_VSCL, 0, -1, pv, sr, d) < 0) return NULL;
    return mkvec(S, d, -1, NULL);
  }
  if (op == P_LOGSUMEXP) {
    const sym *u = vec_of(S, x);
    if (!u) return NULL;
    int pu = vec_plain(S, u);
    int d = pu < 0 ? -1 : emit(S, O_LSE, 0, pu, 0, 0);
    return d < 0 ? NULL : mkreg(S, SK_R, d);
  }
  return fail(S); /* comparisons (runtime sums) and other array kernels */
}

static const sym *lin_sym(cstate *S, int p_reg, const sym *w) {
  if (!w) return NULL;
  if (is_zero(w)) return w;
  int b = rreg(S, w);
  if (b < 0) return NULL;
  int d = emit(S, O_LIN, 0, p_reg, b, 0);
  return d < 0 ? NULL : mkreg(S, SK_R, d);
}

static const sym *lop_sym(cstate *S, int op, int transposed, const sym *x, const sym *v) {
  if (!x || !v) return NULL;
  if (op >= P_LT && op < P_VADD) return mk(S, SK_ZERO); /* piecewise constant / Int */
  if (op == P_DOT && transposed && (arr_operand(S, proj(S, x, 0)) || arr_operand(S, proj(S, x, 1)))) {
    /* an unrolled operand: both cotangents unrolled too */
    const sym *a = proj(S, x, 0), *b = proj(S, x, 1);
    int64_t L = sym_len(S, a);
    if (L < 0 || sym_len(S, b) != L) return fail(S);
    int w = is_zero(v) ? konst(S, 0, 0.0, 0) : rreg(S, v);
    const sym **ea = w < 0 ? NULL : unroll_alloc(S, L), **eb = ea ? unroll_alloc(S, L) : NULL;
    if (!eb) return NULL;
    for (int64_t j = 0; j < L; j++) {
      const sym *kj = kisym(S, j);
      int p = rreg(S, index_sym(S, a, kj)), q = p < 0 ? -1 : rreg(S, index_sym(S, b, kj));
      int da = q < 0 ? -1 : emit(S, O_LIN, 0, q, w, 0), db = da < 0 ? -1 : emit(S, O_LIN, 0, p, w, 0);
      if (db < 0 || !(ea[j] = mkreg(S, SK_R, da)) || !(eb[j] = mkreg(S, SK_R, db))) return NULL;
    }
    return mk2(S, SK_PAIR, mkarr(S, L, ea), mkarr(S, L, eb));
  }
  if (op == P_DOT && transposed) { /* (lin (b[j], w), lin (a[j], w)), dense */
    const sym *a = vec_of(S, proj(S, x, 0)), *b = a ? vec_of(S, proj(S, x, 1)) : NULL;
    if (!b) return NULL;
    if (vec_len(S, a) != vec_len(S, b)) return fail(S);
    int pa = vec_plain(S, a), pb = pa < 0 ? -1 : vec_plain(S, b);
    int w = pb < 0 ? -1 : is_zero(v) ? konst(S, 0, 0.0, 0) : rreg(S, v);
    if (w < 0) return NULL;
    return mk2(S, SK_PAIR, mkvec(S, pb, w, NULL), mkvec(S, pa, w, NULL));
  }
  if ((op == P_VADD || op == P_VMUL) && transposed) {
    const sym *a = vec_of(S, proj(S, x, 0)), *b = a ? vec_of(S, proj(S, x, 1)) : NULL;
    if (!b) return NULL;
    int64_t L = vec_len(S, a);
    if (vec_len(S, b) != L) return fail(S);
    if (is_zero(v)) { /* the reference's dense zeros: lin (., 0) */
      int z = konst(S, 0, 0.0, 0);
      if (z < 0) return NULL;
      const sym *zv = mkvec(S, a->term, z, NULL);
      return mk2(S, SK_PAIR, zv, zv);
    }
    const sym *c = vec_cot(S, v, L);
    if (!c) return NULL;
    if (vec_len(S, c) != L) return fail(S);
    if (op == P_VADD) return mk2(S, SK_PAIR, c, c);
    int pa = vec_plain(S, a), pb = pa < 0 ? -1 : vec_plain(S, b), pc = pb < 0 ? -1 : vec_plain(S, c);
    int da = pc < 0 ? -1 : new_scratch(S, L), db = da < 0 ? -1 : new_scratch(S, L);
    if (db < 0 || emit_vec(S, O_VEW, 1, -1, pb, pc, da) < 0 || emit_vec(S, O_VEW, 1, -1, pa, pc, db) < 0)
      return NULL;
    return mk2(S, SK_PAIR, mkvec(S, da, -1, NULL), mkvec(S, db, -1, NULL));
  }
  if (op == P_VSCALE && transposed) { /* (sum_j lin (a[j], c[j]), lin (s, c[j])) */
    int sr = rreg(S, proj(S, x, 0));
    const sym *a = sr < 0 ? NULL : vec_of(S, proj(S, x, 1));
    if (!a) return NULL;
    if (is_zero(v)) {
      int z = konst(S, 0, 0.0, 0);
      if (z < 0) return NULL;
      return mk2(S, SK_PAIR, mkreg(S, SK_R, z), mkvec(S, a->term, z, NULL));
    }
    const sym *c = vec_cot(S, v, vec_len(S, a));
    if (!c) return NULL;
    if (vec_len(S, c) != vec_len(S, a)) return fail(S);
    int pa = vec_plain(S, a), pc = pa < 0 ? -1 : vec_plain(S, c);
    int d = pc < 0 ? -1 : new_scratch(S, vec_len(S, a));
    int r = d < 0 ? -1 : S->nregs++;
    if (r < 0 || emit_vec(S, O_VDOTLIN, 0, r, pa, pc, 0) < 0 || emit_vec(S, O_VSCL, 1, -1, pc, sr, d) < 0)
      return NULL;
    return mk2(S, SK_PAIR, mkreg(S, SK_R, r), mkvec(S, d, -1, NULL));
  }
  if (op == P_LOGSUMEXP && transposed) { /* lin (softmax (a)[j], w), dense */
    const sym *a = vec_of(S, x);
    if (!a) return NULL;
    int pa = vec_plain(S, a);
    int w = pa < 0 ? -1 : is_zero(v) ? konst(S, 0, 0.0, 0) : rreg(S, v);
    if (w < 0) return NULL;
    int sv = new_scratch(S, vec_len(S, a));
    ins xi = {O_SOFTMAX, 0, -1, pa, 0, sv};
    if (sv < 0 || emit_to(S, &S->code, &S->ncode, &S->capcode, xi) < 0) return NULL;
    return mkvec(S, sv, w, NULL);
  }
  if (is_zero(v)) return v;
  if (is_real1(op)) {
    int a = rreg(S, x);
    if (a < 0) return NULL;
    int p = emit(S, O_D1, op, a, 0, 0);
    if (p >= 0 && op == P_SQRT) { /* as prim_dop: sqrt'(0) = inf times a zero is NaN */
      int b = rreg(S, v);
      int d = b < 0 ? -1 : emit(S, O_MUL, 0, p, b, 0);
      return d < 0 ? NULL : mkreg(S, SK_R, d);
    }
    return p < 0 ? NULL : lin_sym(S, p, v);
  }
  if (is_real2(op)) {
    int a = rreg(S, proj(S, x, 0)), b = a < 0 ? -1 : rreg(S, proj(S, x, 1));
    if (b < 0) return NULL;
    int px, py;
    if (op == P_MUL) { /* the partials are the other factor: no instruction */
      px = b;
      py = a;
    } else {
      px = emit(S, O_D2, op, a, b, 0);
      py = px < 0 ? -1 : emit(S, O_D2, op, a, b, 1);
    }
    if (py < 0) return NULL;
    if (transposed) return mk2(S, SK_PAIR, lin_sym(S, px, v), lin_sym(S, py, v));
    const sym *u = lin_sym(S, px, proj(S, v, 0)), *w = u ? lin_sym(S, py, proj(S, v, 1)) : NULL;
    if (!w) return NULL;
    /* lin(pa,u) + lin(pb,w) with zero parts counting as 0.0 */
    int ur = rreg(S, u), wr = ur < 0 ? -1 : rreg(S, w);
    if (wr < 0) return NULL;
    int d = emit(S, O_ADD, 0, ur, wr, 0);
    return d < 0 ? NULL : mkreg(S, SK_R, d);
  }
  return fail(S);
}

static const sym *cc(cstate *S, int t, const senv *E) {
  if (S->fail || !E) return fail(S);
  S->last = t;
  switch ((enum tm_kind)tm_kind(t)) {
  case TM_VAR: {
    int64_t k = tm_aux(t);
    const senv *p = E;
    while (p && p->s && k > 0) {
      p = p->next;
      k--;
    }
    if (!p) return fail(S);
    if (p->s) return p->s;
    const env *r = p->rt;
    for (; r && k > 0; k--) r = r->next;
    if (!r) return fail(S);
    return mkv(S, r->v);
  }
  case TM_LET: {
    const sym *a = cc(S, tm_a(t), E);
    if (!a) return NULL;
    return cc(S, tm_b(t), push(S, E, a));
  }
  case TM_LAM:
  case TM_LLAM: {
    sym *s = (sym *)mk(S, SK_CLO);
    if (s) {
      s->term = t;
      s->env = E;
    }
    return s;
  }
  case TM_APP:
  case TM_LAPP: {
    const sym *f = cc(S, tm_a(t), E);
    const sym *x = f ? cc(S, tm_b(t), E) : NULL;
    return apply(S, f, x);
  }
  case TM_UNIT: return mk(S, SK_UNIT);
  case TM_PAIR: {
    const sym *a = cc(S, tm_a(t), E);
    const sym *b = a ? cc(S, tm_b(t), E) : NULL;
    return mk2(S, SK_PAIR, a, b);
  }
  case TM_FST: return proj(S, cc(S, tm_a(t), E), 0);
  case TM_SND: return proj(S, cc(S, tm_a(t), E), 1);
  case TM_INL: return mk2(S, SK_INL, cc(S, tm_a(t), E), NULL);
  case TM_INR: return mk2(S, SK_INR, cc(S, tm_a(t), E), NULL);
  case TM_CASE: {
    const sym *s = cc(S, tm_a(t), E);
    if (!s) return NULL;
    if (s->k == SK_V && (s->v->kind == V_INL || s->v->kind == V_INR))
      s = mk2(S, s->v->kind == V_INL ? SK_INL : SK_INR, mkv(S, s->v->u.pair.a), NULL);
    if (!s || (s->k != SK_INL && s->k != SK_INR)) return fail(S);
    return cc(S, s->k == SK_INL ? tm_b(t) : tm_c(t), push(S, E, s->a));
  }
  case TM_RCONST: {
    int d = konst(S, 0, tm_rval(t), 0);
    return d < 0 ? NULL : mkreg(S, SK_R, d);
  }
  case TM_ICONST: {
    int d = konst(S, 1, 0.0, tm_aux(t));
    return d < 0 ? NULL : mkreg(S, SK_I, d);
  }
  case TM_OP: return op_sym(S, (int)tm_aux(t), cc(S, tm_a(t), E));
  case TM_INDEX: {
    const sym *a = cc(S, tm_a(t), E);
    const sym *j = a ? cc(S, tm_b(t), E) : NULL;
    return index_sym(S, a, j);
  }
  case TM_BUILD: { /* nested, of a known length: unrolled */
    const sym *ln = cc(S, tm_a(t), E);
    int64_t n;
    if (!ln) return NULL;
    if (!known_int(S, ln, &n) || n < 0) {
      S->why = "nested build of a runtime length";
      return fail(S);
    }
    const sym **el = unroll_alloc(S, n);
    if (!el) return NULL;
    for (int64_t i = 0; i < n; i++)
      if (!(el[i] = cc(S, tm_b(t), push(S, E, kisym(S, i))))) return NULL;
    return mkarr(S, n, el);
  }
  case TM_MAP: { /* nested, over an array of known length: unrolled */
    const sym *a = cc(S, tm_b(t), E);
    if (!a) return NULL;
    int64_t n = a->k == SK_ARR ? a->n : a->k == SK_VEC ? vec_len(S, a)
              : a->k == SK_V && (a->v->kind == V_ARRAY || a->v->kind == FV_RARR || a->v->kind == FV_DELAY)
                  ? a->v->u.arr.n : -1;
    if (n < 0) {
      S->why = "nested map over a length-free array";
      return fail(S);
    }
    const sym **el = unroll_alloc(S, n);
    if (!el) return NULL;
    for (int64_t i = 0; i < n; i++) {
      const sym *x = index_sym(S, a, kisym(S, i));
      if (!(el[i] = x ? cc(S, tm_a(t), push(S, E, x)) : NULL)) return NULL;
    }
    return mkarr(S, n, el);
  }
  case TM_SUM: { /* of an unrolled array or a vector: s = 0; s += x[j], in order */
    const sym *a = cc(S, tm_a(t), E);
    if (!a) return NULL;
    if (a->k == SK_ARR) {
      int acc = konst(S, 0, 0.0, 0);
      for (int64_t j = 0; j < a->n && acc >= 0; j++) {
        int r = rreg(S, a->el[j]);
        acc = r < 0 ? -1 : emit(S, O_ADD, P_ADD, acc, r, 0);
      }
      return acc < 0 ? NULL : mkreg(S, SK_R, acc);
    }
    if (!(a = vec_of(S, a))) return NULL;
    int pv = vec_plain(S, a);
    int d = pv < 0 ? -1 : S->nregs++;
    if (d < 0 || emit_vec(S, O_VSUM, 0, d, pv, 0, 0) < 0) return NULL;
    return mkreg(S, SK_R, d);
  }
  case TM_LSUM: { /* nested, of a known count: unrolled, added in order */
    const sym *ln = cc(S, tm_a(t), E);
    int64_t n;
    if (!ln) return NULL;
    if (!known_int(S, ln, &n) || n < 0) {
      S->why = "nested lsum of a runtime count";
      return fail(S);
    }
    if (n > UNROLL_MAX || (S->unrolled += n) > UNROLL_BUDGET) return fail(S);
    const sym *acc = mk(S, SK_ZERO);
    for (int64_t i = 0; i < n && acc; i++) acc = plus(S, acc, cc(S, tm_b(t), push(S, E, kisym(S, i))));
    return acc;
  }
  case TM_LENGTH: {
    const sym *a = cc(S, tm_a(t), E);
    if (!a) return NULL;
    if (a->k == SK_ARR) {
      int d = konst(S, 1, 0.0, a->n);
      return d < 0 ? NULL : mkreg(S, SK_I, d);
    }
    if (a->k == SK_VEC) {
      int d = konst(S, 1, 0.0, vec_len(S, a));
      return d < 0 ? NULL : mkreg(S, SK_I, d);
    }
    if (a->k == SK_V &&
        (a->v->kind == V_ARRAY || a->v->kind == FV_RARR || a->v->kind == FV_DELAY)) {
      int d = konst(S, 1, 0.0, a->v->u.arr.n);
      return d < 0 ? NULL : mkreg(S, SK_I, d);
    }
    return fail(S);
  }
  case TM_ZERO: return mk(S, SK_ZERO);
  case TM_PLUS: {
    const sym *a = cc(S, tm_a(t), E);
    const sym *b = a ? cc(S, tm_b(t), E) : NULL;
    return plus(S, a, b);
  }
  case TM_LOP_D:
  case TM_LOP_DT: {
    const sym *a = cc(S, tm_a(t), E);
    const sym *b = a ? cc(S, tm_b(t), E) : NULL;
    return lop_sym(S, (int)tm_aux(t), tm_kind(t) == TM_LOP_DT, a, b);
  }
  case TM_ONEHOT: {
    const sym *j = cc(S, tm_a(t), E);
    const sym *v = j ? cc(S, tm_b(t), E) : NULL;
    if (!v) return NULL;
    int jr = ireg(S, j);
    if (jr < 0 || (jr != 0 && emit(S, O_CHKNN, 0, jr, 0, 0) < 0)) return NULL;
    if (is_zero(v)) return v;
    const sym *val = v; /* Arr Real, or (nested) Arr (Arr Real) cotangents */
    if (!(v->k == SK_OH || v->k == SK_VEC || v->k == SK_ARR)) {
      int vr = rreg(S, v);
      if (vr < 0 || !(val = mkreg(S, SK_R, vr))) return NULL;
    }
    return list_entry(S, SK_OH, jr, val, NULL);
  }
  case TM_CP_SINGLE: { /* !Real (x) Real: one entry of registers */
    int ty = tm_type(t);
    if (ty_kind(ty_left(ty)) != TY_REAL || ty_kind(ty_right(ty)) != TY_REAL) {
      S->why = "copower other than !Real (x) Real";
      return fail(S);
    }
    const sym *k = cc(S, tm_a(t), E);
    const sym *v = k ? cc(S, tm_b(t), E) : NULL;
    if (!v) return NULL;
    /* a zero value stays V_ZERO in the reference (the fold's body then sees
     * V_ZERO, not 0.0): left to the generic path */
    if (is_zero(v)) return fail(S);
    int kr = rreg(S, k), vr = kr < 0 ? -1 : rreg(S, v);
    if (vr < 0) return NULL;
    const sym *key = mkreg(S, SK_R, kr);
    return key ? list_entry(S, SK_BAG, vr, key, NULL) : NULL;
  }
  default: return fail(S); /* nested loops of a runtime length, iter, other copowers */
  }
}

/* ---- lsum layout: slots by the result type ----------------------------- */
static int push_int(cstate *S, int **a, int *n, int *cap, int x) {
  if (*n == *cap) {
    int nc = *cap ? 2 * *cap : 16;
    int *na = realloc(*a, (size_t)nc * sizeof *na);
    if (!na) {
      SET_FAIL(S);
      return -1;
    }
    *a = na;
    *cap = nc;
  }
  (*a)[(*n)++] = x;
  return 0;
}
/* the accumulation of an Arr Real cotangent s into array slot `slot` */
static int acc_arr(cstate *S, int slot, const sym *s) {
  if (is_zero(s)) return 0;
  if (s->k == SK_ARR && !(s = vec_of(S, s))) return -1;
  if (s->k == SK_VEC) { /* a dense slot of the vector's length */
    if (slot >= S->capslots) {
      int nc = 2 * slot + 8;
      int64_t *nl = realloc(S->slot_len, (size_t)nc * sizeof *nl);
      if (!nl) {
        SET_FAIL(S);
        return -1;
      }
      for (int i = S->capslots; i < nc; i++) nl[i] = 0;
      S->slot_len = nl;
      S->capslots = nc;
    }
    if (S->slot_len[slot] != 0 && S->slot_len[slot] != vec_len(S, s)) {
      SET_FAIL(S);
      return -1;
    }
    S->slot_len[slot] = vec_len(S, s);
    for (const sym *p = s; p; p = p->b) {
      ins x = {O_ACCV, 0, -1, p->term, p->reg, slot};
      if (emit_to(S, &S->code, &S->ncode, &S->capcode, x) < 0) return -1;
    }
    return 0;
  }
  if (s->k != SK_OH) {
    SET_FAIL(S);
    return -1;
  }
  for (const sym *p = s; p; p = p->b) {
    if (p->a->k != SK_R && rreg(S, p->a) < 0) return -1;
    int vr = p->a->k == SK_R ? p->a->reg : rreg(S, p->a);
    ins x = {p->reg == 0 ? O_ACCSEQ : O_ACCA, 0, -1, p->reg, vr, slot};
    if (emit_to(S, &S->code, &S->ncode, &S->capcode, x) < 0) return -1;
  }
  return 0;
}
static int acc_emit(cstate *S, int ty, const sym *s) {
  if (!s) return -1;
  switch (ty_kind(ty)) {
  case TY_REAL: {
    int slot = S->nacc_s++;
    if (is_zero(s)) return 0;
    int r = rreg(S, s);
    if (r < 0) return -1;
    ins x = {O_ACCS, 0, -1, r, 0, slot};
    return emit_to(S, &S->code, &S->ncode, &S->capcode, x);
  }
  case TY_UNIT: return 0;
  case TY_COPOW: { /* !Real (x) Real: a bag slot of a fixed count of entries per iteration */
    int slot = S->nacc_b++;
    if (slot >= S->capbag) {
      int nc = 2 * slot + 4;
      int64_t *c = realloc(S->bagc, (size_t)nc * sizeof *c);
      if (c) S->bagc = c;
      double **k = c ? realloc(S->bagk, (size_t)nc * sizeof *k) : NULL;
      if (k) S->bagk = k;
      double **v = k ? realloc(S->bagv, (size_t)nc * sizeof *v) : NULL;
      if (!v) {
        SET_FAIL(S);
        return -1;
      }
      S->bagv = v;
      S->capbag = nc;
    }
    S->bagc[slot] = 0;
    S->bagk[slot] = S->bagv[slot] = NULL;
    if (is_zero(s)) return 0;
    if (s->k != SK_BAG) {
      SET_FAIL(S);
      return -1;
    }
    for (const sym *p = s; p; p = p->b) {
      ins x = {O_BAGST, (int)S->bagc[slot]++, -1, p->a->reg, p->reg, slot};
      if (emit_to(S, &S->code, &S->ncode, &S->capcode, x) < 0) return -1;
    }
    return 0;
  }
  case TY_PROD:
    if (acc_emit(S, ty_left(ty), proj(S, s, 0)) < 0) return -1;
    return acc_emit(S, ty_right(ty), proj(S, s, 1));
  case TY_ARR:
    if (ty_kind(ty_left(ty)) == TY_REAL) {
      int slot = S->nacc_a++;
      if (push_int(S, &S->tslot, &S->ntslot, &S->captslot, slot) < 0) return -1;
      return acc_arr(S, slot, s);
    }
    if (ty_kind(ty_left(ty)) == TY_ARR && ty_kind(ty_left(ty_left(ty))) == TY_REAL) {
      /* Arr (Arr Real): onehots at rows known when compiling (an index of an
       * unrolled loop), each row an Arr Real slot of its own */
      int m = S->nacc_m++;
      if (is_zero(s)) return 0;
      if (s->k != SK_OH) {
        SET_FAIL(S);
        return -1;
      }
      for (const sym *p = s; p; p = p->b) {
        int64_t row;
        if (!kint(S, p->reg, &row) || row < 0) {
          SET_FAIL(S);
          return -1;
        }
        const sym *v = p->a->k == SK_ARR ? vec_of(S, p->a) : p->a;
        if (!v) return -1;
        int dense = v->k == SK_VEC, slot = -1;
        for (int i = 0; i < S->nmrows; i++)
          if (S->mrows[i].m == m && S->mrows[i].row == row && S->mrows[i].dense == dense)
            slot = S->mrows[i].slot;
        if (slot < 0) {
          if (S->nmrows == S->capmrows) {
            int nc = S->capmrows ? 2 * S->capmrows : 16;
            struct mrow *nr = realloc(S->mrows, (size_t)nc * sizeof *nr);
            if (!nr) {
              SET_FAIL(S);
              return -1;
            }
            S->mrows = nr;
            S->capmrows = nc;
          }
          slot = S->nacc_a++;
          S->mrows[S->nmrows++] = (struct mrow){m, dense, row, slot};
        }
        if (acc_arr(S, slot, v) < 0) return -1;
      }
      return 0;
    }
    /* fall through */
  default:
    if (is_zero(s)) return 0;
    SET_FAIL(S);
    return -1;
  }
}

static int acc_layout_ok(int ty) {
  switch (ty_kind(ty)) {
  case TY_REAL:
  case TY_UNIT: return 1;
  case TY_PROD: return acc_layout_ok(ty_left(ty)) && acc_layout_ok(ty_right(ty));
  default: return 1; /* other leaves must stay zero (checked by acc_emit) */
  }
}

/* ---- dead code: keep checks, accumulations and what they use ------------ */
static int cannot_fail(const cstate *S, const ins *x);
static void dce(cstate *S, int keep_reg) {
  char *live = calloc((size_t)S->nregs + 1, 1);
  if (!live) return;
  if (keep_reg >= 0) live[keep_reg] = 1;
  for (int i = 0; i < S->nrec; i++)
    if (S->rec[i] >= 0) live[S->rec[i]] = 1;
  int n = 0;
  char *keep = calloc((size_t)S->ncode + 1, 1);
  if (!keep) {
    free(live);
    return;
  }
  for (int i = S->ncode - 1; i >= 0; i--) {
    ins *x = &S->code[i];
    /* a check (a bounds-checked read, a checked integer operation) is an
     * effect unless the ranges show that it passes in every iteration */
    int check = x->op == O_LDR || x->op == O_LDA || x->op == O_CHKB || x->op == O_CHKNN ||
                x->op == O_IBIN || x->op == O_INEG;
    int effect = (check && !cannot_fail(S, x)) || x->op == O_ACCS || x->op == O_ACCA ||
                 x->op == O_ACCSEQ || x->op == O_LDV || x->op == O_ACCV || x->op == O_STV ||
                 x->op == O_SOFTMAX || x->op == O_VSTS || x->op == O_VEW || x->op == O_VSCL ||
                 x->op == O_VOH || x->op == O_PACK || x->op == O_BAGST;
    if (effect || (x->d >= 0 && live[x->d])) {
      keep[i] = 1;
      if (x->op == O_VOH) { /* index and value registers */
        live[x->a] = 1;
        live[x->b] = 1;
        continue;
      }
      if (x->op == O_PACK) {
        live[x->a] = 1;
        continue;
      }
      if (x->op == O_VSUM) {
        if (S->vecs[x->a].kind == 1) live[S->vecs[x->a].ireg] = 1;
        continue;
      }
      if (x->op >= O_DOT) { /* vector operands: their row registers */
        int va = x->op == O_LDV ? (int)x->k : x->a;
        if (S->vecs[va].kind == 1) live[S->vecs[va].ireg] = 1;
        if ((x->op == O_DOT || x->op == O_VEW || x->op == O_VDOTLIN) && S->vecs[x->b].kind == 1)
          live[S->vecs[x->b].ireg] = 1;
        if (x->op == O_LDV) live[x->a] = 1;
        if ((x->op == O_ACCV || x->op == O_STV || x->op == O_VSTS || x->op == O_VSCL) && x->b >= 0)
          live[x->b] = 1;
        continue;
      }
      live[x->a] = 1;
      if (x->op == O_ADD || x->op == O_MUL || x->op == O_BIN || x->op == O_D2 ||
          x->op == O_LIN || x->op == O_IBIN || x->op == O_ACCA || x->op == O_ACCSEQ ||
          x->op == O_SELK || x->op == O_BAGST)
        live[x->b] = 1;
    }
  }
  for (int i = 0; i < S->ncode; i++)
    if (keep[i]) S->code[n++] = S->code[i];
  S->ncode = n;
  free(keep);
  free(live);
}

/* ---- sin and cos of one register: one instruction ---------------------------
 * The gradient of a body with sin x needs cos x too (DT[sin]), and often sin
 * x again: the first sin and the first cos of each register (O_U sin; O_U
 * cos or O_D1 sin) become one O_SINCOS at the earlier place, which reduces
 * the argument once (src/fast/fast_vmath.c). The code is still in SSA form
 * here (after dce, before regalloc), so defining the later result earlier
 * changes nothing else. */
static int is_sin(const ins *x) { return x->op == O_U && x->p == P_SIN; }
static int is_cos(const ins *x) { return (x->op == O_U && x->p == P_COS) || (x->op == O_D1 && x->p == P_SIN); }
static void fuse_sincos(cstate *S) {
  if (getenv("FAST_NO_SINCOS")) return;
  int n = 0;
  for (int i = 0; i < S->ncode; i++) {
    ins *x = &S->code[i];
    if (x->d < 0 || (!is_sin(x) && !is_cos(x))) continue;
    for (int j = i + 1; j < S->ncode; j++) {
      ins *y = &S->code[j];
      if (y->a == x->a && y->d >= 0 && (is_sin(x) ? is_cos(y) : is_sin(y))) {
        int ds = is_sin(x) ? x->d : y->d, dc = is_sin(x) ? y->d : x->d;
        x->op = O_SINCOS;
        x->p = P_SIN;
        x->d = ds;
        x->b = dc;
        y->d = -2; /* removed below */
        n++;
        break;
      }
    }
  }
  if (!n) return;
  int m = 0;
  for (int i = 0; i < S->ncode; i++)
    if (S->code[i].d != -2) S->code[m++] = S->code[i];
  S->ncode = m;
}

/* 1 iff instruction x never fails at run time (no bound or integer check) */
static int cannot_fail(const cstate *S, const ins *x) {
  int64_t j;
  switch (x->op) {
  case O_ADD: case O_MUL: case O_U: case O_BIN: case O_D1: case O_D2: case O_LIN: case O_LDSEQ:
  case O_TOREAL: case O_DOT: case O_SELK: case O_PACK: case O_VSUM: case O_LSE: case O_SOFTMAX:
  case O_VSTS: case O_VEW: case O_VSCL: case O_VDOTLIN: case O_BAGST: case O_SINCOS:
    return 1;
  case O_LDV: /* a known index within the vector's static length */
  case O_VOH:
    return kint(S, x->a, &j) && j >= 0 && j < S->vecs[x->k].len;
  }
  /* checked integer operations and reads whose operands' ranges show that
   * the check passes in every iteration (before regalloc renames registers) */
  int64_t lo, hi;
  switch (x->op) {
  case O_IBIN: return ibin_safe(S, x->p, x->a, x->b, &lo, &hi);
  case O_INEG: return irange(S, x->a, &lo, &hi) && lo > INT64_MIN;
  case O_LDR: return irange(S, x->a, &lo, &hi) && lo >= 0 && hi < S->arrs[x->k].n;
  case O_LDA: case O_CHKNN: return irange(S, x->a, &lo, &hi) && lo >= 0;
  case O_CHKB: return irange(S, x->a, &lo, &hi) && lo >= 0 && hi < x->k;
  default: return 0;
  }
}

/* ---- register reuse ---------------------------------------------------------
 * The compiled code is in SSA form (every instruction a fresh register), so
 * an unrolled body has thousands of registers of B slots each, far more than
 * the caches hold. After dead-code removal, registers are renamed onto
 * slots reused once their value's last reader has run (a slot is freed only
 * after the instruction's own result has its slot, so nothing is computed in
 * place). Slot 0 stays the loop index, constants keep slots of their own
 * (filled once), and so do sequential loads (their slot is redirected into
 * the array read, and must never be written). */
static int ins_uses(const cstate *S, const ins *x, int *u) {
  int n = 0;
#define VEC_USE(v) \
  if (S->vecs[v].kind == 1) u[n++] = S->vecs[v].ireg
  switch (x->op) {
  case O_ADD: case O_MUL: case O_BIN: case O_D2: case O_LIN: case O_IBIN: case O_ACCA:
  case O_ACCSEQ: case O_VOH: case O_SELK: case O_BAGST:
    u[n++] = x->a;
    u[n++] = x->b;
    break;
  case O_U: case O_D1: case O_LDR: case O_LDA: case O_CHKB: case O_CHKNN: case O_INEG:
  case O_TOREAL: case O_ACCS: case O_PACK: case O_SINCOS: case O_CHKFIN:
    u[n++] = x->a;
    break;
  case O_DOT: case O_VEW: case O_VDOTLIN:
    VEC_USE(x->a);
    VEC_USE(x->b);
    break;
  case O_LDV:
    u[n++] = x->a;
    VEC_USE(x->k);
    break;
  case O_ACCV: case O_STV: case O_VSTS: case O_VSCL:
    VEC_USE(x->a);
    if (x->b >= 0) u[n++] = x->b;
    break;
  case O_LSE: case O_SOFTMAX: case O_VSUM:
    VEC_USE(x->a);
    break;
  default: break;
  }
#undef VEC_USE
  return n;
}
static int ins_writes(int op) {
  return op == O_ADD || op == O_MUL || op == O_U || op == O_BIN || op == O_D1 || op == O_D2 ||
         op == O_LIN || op == O_LDR || op == O_LDA || op == O_IBIN || op == O_INEG ||
         op == O_TOREAL || op == O_LDSEQ || op == O_DOT || op == O_LDV || op == O_LSE ||
         op == O_VDOTLIN || op == O_VSUM || op == O_SELK || op == O_SINCOS;
}
static void rename_uses(const cstate *S, ins *x, const int *map) {
  switch (x->op) {
  case O_ADD: case O_MUL: case O_BIN: case O_D2: case O_LIN: case O_IBIN: case O_ACCA:
  case O_ACCSEQ: case O_VOH: case O_SELK: case O_BAGST:
    x->a = map[x->a];
    x->b = map[x->b];
    break;
  case O_U: case O_D1: case O_LDR: case O_LDA: case O_CHKB: case O_CHKNN: case O_INEG:
  case O_TOREAL: case O_ACCS: case O_PACK: case O_LDV: case O_SINCOS:
    x->a = map[x->a];
    break;
  case O_ACCV: case O_STV: case O_VSTS: case O_VSCL:
    if (x->b >= 0) x->b = map[x->b];
    break;
  default: break;
  }
  (void)S;
}
/* 1 iff some instruction reads the loop index register (sequential loads and
 * stores use the block's base instead) */
static int reads_index(const cstate *S) {
  int u[8];
  for (int c = 0; c < S->ncode; c++) {
    const ins *x = &S->code[c];
    if (x->op == O_ACCSEQ) {
      if (x->b == 0) return 1;
      continue;
    }
    int nu = ins_uses(S, x, u);
    for (int i = 0; i < nu; i++)
      if (u[i] == 0) return 1;
    if (x->op >= O_DOT) return 1; /* vector instructions: conservatively */
  }
  return 0;
}

/* keep[0..nkeep): registers read after the block (result, memo): kept to the end */
static void regalloc(cstate *S, int *keep, int nkeep) {
  int n = S->nregs, next = 1, nfree = 0;
  int *last = malloc((size_t)n * sizeof *last), *map = malloc((size_t)n * sizeof *map),
      *freel = malloc((size_t)n * sizeof *freel);
  if (!last || !map || !freel || getenv("FAST_NO_REGALLOC")) goto out;
  for (int r = 0; r < n; r++) last[r] = -1, map[r] = -1;
  int u[8];
  for (int c = 0; c < S->ncode; c++) {
    int nu = ins_uses(S, &S->code[c], u);
    for (int i = 0; i < nu; i++) last[u[i]] = c;
  }
  for (int i = 0; i < nkeep; i++)
    if (keep[i] >= 0) last[keep[i]] = S->ncode;
  map[0] = 0;
  last[0] = S->ncode;
  for (int c = 0; c < S->ninit; c++) {
    map[S->init[c].d] = next++;
    last[S->init[c].d] = S->ncode; /* never freed */
  }
  for (int c = 0; c < S->ncode; c++) {
    ins *x = &S->code[c];
    int nu = ins_uses(S, x, u);
    rename_uses(S, x, map);
    if (ins_writes(x->op) && x->d >= 0) {
      int d = x->d;
      if (x->op == O_LDSEQ) {
        map[d] = next++;
        last[d] = S->ncode;
      } else {
        map[d] = nfree ? freel[--nfree] : next++;
      }
      x->d = map[d];
      if (x->op == O_SINCOS) { /* the second result (cos), its own slot */
        int d2 = x->b;
        map[d2] = nfree ? freel[--nfree] : next++;
        x->b = map[d2];
        if (last[d2] < c) freel[nfree++] = map[d2];
      }
      if (last[d] < c) freel[nfree++] = map[d]; /* never read */
    } else {
      x->d = -1;
    }
    for (int i = 0; i < nu; i++)
      if (last[u[i]] == c) {
        freel[nfree++] = map[u[i]];
        last[u[i]] = -2; /* freed once, even when read twice here */
      }
  }
  for (int c = 0; c < S->ninit; c++) S->init[c].d = map[S->init[c].d];
  /* constants are slots 1 .. ninit now: an accumulation at a constant index
   * adds its block at once */
  for (int c = 0; c < S->ncode; c++) {
    if (S->code[c].op == O_ACCA && S->code[c].a >= 1 && S->code[c].a <= S->ninit) S->code[c].p = 1;
    /* and an integer operation by a constant: k = 1 (see run_block) */
    if (S->code[c].op == O_IBIN && S->code[c].b >= 1 && S->code[c].b <= S->ninit) S->code[c].k |= IBIN_CONST_B;
  }
  for (int v = 0; v < S->nvecs; v++)
    if (S->vecs[v].kind == 1) S->vecs[v].ireg = map[S->vecs[v].ireg] >= 0 ? map[S->vecs[v].ireg] : 0;
  for (int i = 0; i < nkeep; i++)
    if (keep[i] >= 0) keep[i] = map[keep[i]];
  S->nregs = next;
out:
  free(last);
  free(map);
  free(freel);
}

/* ---- the block interpreter ----------------------------------------------- */
typedef struct abuf {
  double *d;
  int64_t cap, max; /* max: largest index + 1 written */
  int64_t min;      /* smallest index written (when max > 0) */
  /* An lsum's window: this thread adds an index in [wlo, whi) straight
   * into win, the slot's one heap array (each thread zeroes and writes its
   * own window, its iterations' own indices); d holds only the others,
   * added in after the loop. wlo == whi: no window. */
  double *win;
  int64_t wlo, whi, wmax; /* wmax: largest window index + 1 written */
} abuf;

static int abuf_grow(abuf *ab, int64_t need, int64_t hint, int64_t limit);
/* adds v at index j of an array slot: into the thread's window or its own
 * buffer; 1: bail out (an index the dense accumulators cannot take) */
static inline int acc_add(const cstate *S, abuf *ab, int64_t j, double v) {
  if (j >= ab->wlo && j < ab->whi) {
    ab->win[j] += v;
    if (j >= ab->wmax) ab->wmax = j + 1;
    return 0;
  }
  if (j < 0 || j >= ACC_MAX) return 1;
  if (j >= ab->cap && !abuf_grow(ab, j + 1, S->acc_hint, S->acc_limit)) return 1;
  if (ab->max == 0 || j < ab->min) ab->min = j;
  if (j + 1 > ab->max) ab->max = j + 1;
  ab->d[j] += v;
  return 0;
}

/* Grows an accumulator to hold index need - 1 (zero-filled); 0 on failure. */
static int abuf_grow(abuf *ab, int64_t need, int64_t hint, int64_t limit) {
  if (need > limit) return 0; /* far beyond the loop: the generic (sparse) path */
  int64_t nc = ab->cap ? ab->cap : hint;
  while (nc < need) nc *= 2;
  if (nc > limit) nc = limit;
  double *nd;
  if (!ab->cap) {
    /* calloc: a large block comes zeroed from the system, its pages taken
     * only where this thread writes (a thread of a parallel scatter writes
     * its share of the indices), where memset would touch every page; huge
     * pages make those few faults */
    nd = calloc((size_t)nc, sizeof *nd);
    fv_hint_huge(nd, (size_t)nc * sizeof *nd);
  } else {
    nd = realloc(ab->d, (size_t)nc * sizeof *nd);
  }
  if (!nd) return 0;
  if (ab->cap) memset(nd + ab->cap, 0, (size_t)(nc - ab->cap) * sizeof *nd);
  ab->d = nd;
  ab->cap = nc;
  return 1;
}

typedef struct prog {
  const cstate *S;
  int out_reg;      /* materialised / summed result, or -1 */
  int elem_reg;     /* unused (map elements come through index_sym) */
} prog;

/* element k of a block: the row of vector v */
static inline const double *vrow(const cstate *S, const vdesc *v, const int64_t *I, int k,
                                 double *const *SC) {
  if (v->kind == 2) return SC[v->id] + (size_t)k * (size_t)v->len;
  return v->kind == 0 ? S->arrs[v->id].d : S->mats[v->id].rows[I[(size_t)v->ireg * B + (size_t)k]];
}

/* o[j] = e (add == 0) or o[j] + e (add == 1) for j < L, with e = p[j]
 * unscaled, else lin (p[j], w): one loop per case, each vectorised (omp
 * simd: o never overlaps p, and each element is its own computation, the
 * same bits as a scalar loop) */
static inline void vec_store_lin(double *o, const double *p, int64_t L, int scaled, double w, int add) {
  if (!scaled && !add) {
#pragma omp simd
    for (int64_t j = 0; j < L; j++) o[j] = p[j];
  } else if (!scaled) {
#pragma omp simd
    for (int64_t j = 0; j < L; j++) o[j] = o[j] + p[j];
  } else if (w == 0.0 && !add) { /* lin (p[j], 0) = 0 */
#pragma omp simd
    for (int64_t j = 0; j < L; j++) o[j] = 0.0;
  } else if (w == 0.0) {
#pragma omp simd
    for (int64_t j = 0; j < L; j++) o[j] = o[j] + 0.0;
  } else if (!add) {
#pragma omp simd
    for (int64_t j = 0; j < L; j++) o[j] = p[j] * w;
  } else {
#pragma omp simd
    for (int64_t j = 0; j < L; j++) o[j] = o[j] + p[j] * w;
  }
}

/* the vector instructions (O_DOT ... O_STV) on a block; 1: bail out */
static int run_vec(const cstate *S, const ins *x, int64_t base, int len, double **RP,
                   const int64_t *I, abuf *aa, double *const *SC) {
  switch (x->op) {
  case O_LSE: {
    const vdesc *u = &S->vecs[x->a];
    double *rd = RP[x->d];
    for (int k = 0; k < len; k++) rd[k] = lse_ref(vrow(S, u, I, k, SC), u->len);
    return 0;
  }
  case O_VOH: {
    const vdesc *o = &S->vecs[x->k];
    const int64_t *ia = I + (size_t)x->a * B;
    const double *rb = RP[x->b];
    for (int k = 0; k < len; k++) {
      double *d = SC[o->id] + (size_t)k * (size_t)o->len;
      if (!x->p)
        for (int64_t j = 0; j < o->len; j++) d[j] = 0.0;
      int64_t j = ia[k];
      if (j < 0 || j >= o->len) return 1;
      d[j] += rb[k];
    }
    return 0;
  }
  case O_VSTS: {
    const vdesc *v = &S->vecs[x->a], *o = &S->vecs[x->k];
    const double *sc = x->b >= 0 ? RP[x->b] : NULL;
    for (int k = 0; k < len; k++) {
      const double *p = vrow(S, v, I, k, SC);
      double *d = SC[o->id] + (size_t)k * (size_t)o->len, w = sc ? sc[k] : 1.0;
      vec_store_lin(d, p, o->len, sc != NULL, w, x->p);
    }
    return 0;
  }
  case O_VEW: {
    const vdesc *u = &S->vecs[x->a], *v = &S->vecs[x->b], *o = &S->vecs[x->k];
    for (int k = 0; k < len; k++) {
      const double *p = vrow(S, u, I, k, SC), *q = vrow(S, v, I, k, SC);
      double *d = SC[o->id] + (size_t)k * (size_t)o->len;
      if (x->p) {
#pragma omp simd
        for (int64_t j = 0; j < o->len; j++) d[j] = q[j] == 0.0 ? 0.0 : p[j] * q[j];
      } else {
#pragma omp simd
        for (int64_t j = 0; j < o->len; j++) d[j] = p[j] * q[j];
      }
    }
    return 0;
  }
  case O_VSCL: {
    const vdesc *v = &S->vecs[x->a], *o = &S->vecs[x->k];
    const double *sc = RP[x->b];
    for (int k = 0; k < len; k++) {
      const double *p = vrow(S, v, I, k, SC);
      double *d = SC[o->id] + (size_t)k * (size_t)o->len, w = sc[k];
      if (x->p) {
#pragma omp simd
        for (int64_t j = 0; j < o->len; j++) d[j] = p[j] == 0.0 ? 0.0 : w * p[j];
      } else {
#pragma omp simd
        for (int64_t j = 0; j < o->len; j++) d[j] = w * p[j];
      }
    }
    return 0;
  }
  case O_VDOTLIN: {
    const vdesc *u = &S->vecs[x->a], *v = &S->vecs[x->b];
    double *rd = RP[x->d];
    for (int k = 0; k < len; k++) {
      const double *p = vrow(S, u, I, k, SC), *q = vrow(S, v, I, k, SC);
      double s = 0;
      for (int64_t j = 0; j < u->len; j++) s += q[j] == 0.0 ? 0.0 : p[j] * q[j];
      rd[k] = s;
    }
    return 0;
  }
  case O_PACK: {
    const vdesc *o = &S->vecs[x->k];
    const double *ra = RP[x->a];
    double *d = SC[o->id] + x->p;
    for (int k = 0; k < len; k++) d[(size_t)k * (size_t)o->len] = ra[k];
    return 0;
  }
  case O_VSUM: {
    const vdesc *u = &S->vecs[x->a];
    double *rd = RP[x->d];
    for (int k = 0; k < len; k++) {
      const double *p = vrow(S, u, I, k, SC);
      double s = 0;
      for (int64_t j = 0; j < u->len; j++) s += p[j];
      rd[k] = s;
    }
    return 0;
  }
  case O_SOFTMAX: {
    const vdesc *u = &S->vecs[x->a], *o = &S->vecs[x->k];
    for (int k = 0; k < len; k++)
      softmax_ref(vrow(S, u, I, k, SC), u->len, SC[o->id] + (size_t)k * (size_t)o->len);
    return 0;
  }
  case O_DOT: {
    const vdesc *u = &S->vecs[x->a], *v = &S->vecs[x->b];
    int64_t L = u->len;
    double *rd = RP[x->d];
    for (int k = 0; k < len; k++) {
      const double *p = vrow(S, u, I, k, SC), *q = vrow(S, v, I, k, SC);
      double s = 0; /* the reference's order */
      for (int64_t j = 0; j < L; j++) s += p[j] * q[j];
      rd[k] = s;
    }
    return 0;
  }
  case O_LDV: {
    const vdesc *v = &S->vecs[x->k];
    const int64_t *ia = I + (size_t)x->a * B;
    double *rd = RP[x->d];
    for (int k = 0; k < len; k++) {
      int64_t j = ia[k];
      if (j < 0 || j >= v->len) return 1;
      rd[k] = vrow(S, v, I, k, SC)[j];
    }
    return 0;
  }
  case O_ACCV: {
    const vdesc *v = &S->vecs[x->a];
    int64_t L = v->len;
    abuf *ab = &aa[x->k];
    if (L > ab->cap && !abuf_grow(ab, L, S->acc_hint, S->acc_limit)) return 1;
    if (L > ab->max) ab->max = L;
    double *acc = ab->d;
    const double *sc = x->b >= 0 ? RP[x->b] : NULL;
    /* omp simd: a row and the accumulator never overlap, and each element
     * is its own computation (the same bits as the scalar loop) */
    for (int k = 0; k < len; k++) {
      const double *p = vrow(S, v, I, k, SC);
      if (!sc) {
#pragma omp simd
        for (int64_t j = 0; j < L; j++) acc[j] += p[j];
      } else {
        double w = sc[k];
        if (w != 0.0) { /* lin (p[j], 0) = 0 adds nothing */
#pragma omp simd
          for (int64_t j = 0; j < L; j++) acc[j] += p[j] * w;
        }
      }
    }
    return 0;
  }
  case O_STV: {
    const vdesc *v = &S->vecs[x->a];
    int64_t L = v->len;
    const double *sc = x->b >= 0 ? RP[x->b] : NULL;
    for (int k = 0; k < len; k++) {
      const double *p = vrow(S, v, I, k, SC);
      double *o = S->rowsout + (size_t)(base + k) * (size_t)L;
      vec_store_lin(o, p, L, sc != NULL, sc ? sc[k] : 1.0, x->p);
    }
    return 0;
  }
  }
  return 1;
}

/* The sum of a block's values: four interleaved partial sums, added in a
 * fixed order (fixed by the block, so independent of the threads), which
 * breaks the chain of dependent additions. */
static inline double block_sum(const double *v, int len) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int k = 0;
  for (; k + 4 <= len; k += 4) {
    s0 += v[k];
    s1 += v[k + 1];
    s2 += v[k + 2];
    s3 += v[k + 3];
  }
  for (; k < len; k++) s0 += v[k];
  return (s0 + s1) + (s2 + s3);
}

/* lin (a, b) = b == 0 ? 0 : a * b, element by element: the product masked
 * by b != 0 (SSE2, every x86-64; the compiler does not vectorise the select) */
static void run_lin(double *d, const double *a, const double *b, int len) {
  int k = 0;
#if defined(__SSE2__)
  const __m128d z = _mm_setzero_pd();
  for (; k + 2 <= len; k += 2) {
    __m128d vb = _mm_loadu_pd(b + k);
    _mm_storeu_pd(d + k, _mm_and_pd(_mm_mul_pd(_mm_loadu_pd(a + k), vb), _mm_cmpneq_pd(vb, z)));
  }
#endif
  for (; k < len; k++) d[k] = b[k] == 0.0 ? 0.0 : a[k] * b[k];
}

/* RP[r]: where real register r's block is; R + r * B, except for a
 * sequential load, which points into its array instead of copying (registers
 * are written once per block, by their defining instruction only). */
static int run_block(const cstate *S, int64_t base, int len, double **RP, int64_t *I,
                     double *const *SC,
                     double *accs, abuf *aa) {
  if (S->need_index) { /* register 0: the index */
    if (S->ilist)
      for (int k = 0; k < len; k++) I[k] = S->ilist[base + k];
    else
      for (int k = 0; k < len; k++) I[k] = base + k;
  }
  for (int c = 0; c < S->ncode; c++) {
    const ins *x = &S->code[c];
    if (x->op == O_LDSEQ) {
      RP[x->d] = (double *)(uintptr_t)(S->arrs[x->k].d + base); /* read only */
      continue;
    }
    if (x->op >= O_DOT) {
      if (run_vec(S, x, base, len, RP, I, aa, SC)) return 1;
      continue;
    }
    double *rd = x->d >= 0 ? RP[x->d] : NULL, *ra = RP[x->a], *rb = RP[x->b];
    int64_t *id = x->d >= 0 ? I + (size_t)x->d * B : NULL, *ia = I + (size_t)x->a * B,
            *ib = I + (size_t)x->b * B;
    switch (x->op) {
    case O_ADD: 
      _Pragma("omp simd") for (int k = 0; k < len; k++) rd[k] = ra[k] + rb[k]; break;
    case O_MUL: 
      _Pragma("omp simd") for (int k = 0; k < len; k++) rd[k] = ra[k] * rb[k]; break;
    case O_U:
      switch (x->p) {
#ifdef HAVE_VMATH
      case P_SIN: if (vmath_state == 1) vsin(rd, ra, len); else for (int k = 0; k < len; k++) rd[k] = sin(ra[k]); break;
      case P_COS: if (vmath_state == 1) vcos(rd, ra, len); else for (int k = 0; k < len; k++) rd[k] = cos(ra[k]); break;
      case P_EXP: if (vmath_state == 1) vexp(rd, ra, len); else for (int k = 0; k < len; k++) rd[k] = exp(ra[k]); break;
#else
      case P_SIN: for (int k = 0; k < len; k++) rd[k] = sin(ra[k]); break;
      case P_COS: for (int k = 0; k < len; k++) rd[k] = cos(ra[k]); break;
      case P_EXP: for (int k = 0; k < len; k++) rd[k] = exp(ra[k]); break;
#endif
      case P_NEG: for (int k = 0; k < len; k++) rd[k] = -ra[k]; break;
      default: for (int k = 0; k < len; k++) rd[k] = real1(x->p, ra[k]);
      }
      break;
    case O_BIN:
      switch (x->p) {
      case P_SUB: _Pragma("omp simd") for (int k = 0; k < len; k++) rd[k] = ra[k] - rb[k]; break;
      case P_DIV: _Pragma("omp simd") for (int k = 0; k < len; k++) rd[k] = ra[k] / rb[k]; break;
      default: for (int k = 0; k < len; k++) rd[k] = real2(x->p, ra[k], rb[k]);
      }
      break;
    case O_D1:
#ifdef HAVE_VMATH
      if (x->p == P_SIN && vmath_state == 1) vcos(rd, ra, len);
      else if (x->p == P_EXP && vmath_state == 1) vexp(rd, ra, len);
      else if (x->p == P_COS && vmath_state == 1) {
        vsin(rd, ra, len);
        for (int k = 0; k < len; k++) rd[k] = -rd[k]; /* deriv1: -sin x */
      } else
#endif
      if (x->p == P_SIN) for (int k = 0; k < len; k++) rd[k] = cos(ra[k]);
      else for (int k = 0; k < len; k++) rd[k] = deriv1(x->p, ra[k]);
      break;
    case O_SINCOS:
#ifdef HAVE_VMATH
      if (vmath_state == 1) {
        fv_sincos(rd, rb, ra, len);
        break;
      }
#endif
      for (int k = 0; k < len; k++) {
        rd[k] = sin(ra[k]);
        rb[k] = cos(ra[k]);
      }
      break;
    case O_D2:
      if (x->p == P_MUL) for (int k = 0; k < len; k++) rd[k] = x->k ? ra[k] : rb[k];
      else if (x->p == P_DIV && !x->k) /* prim_deriv2's d/dx of x / y: 1 / y */
        _Pragma("omp simd") for (int k = 0; k < len; k++) rd[k] = 1.0 / rb[k];
      else if (x->p == P_DIV) /* its d/dy: -x / y^2, scaled outside 2^(+-500) */
        for (int k = 0; k < len; k++) {
          double y = rb[k], ay = fabs(y);
          rd[k] = ay > 0x1p-500 && ay < 0x1p500 ? -ra[k] / (y * y) : -(ra[k] / y) / y;
        }
      else for (int k = 0; k < len; k++) rd[k] = deriv2(x->p, ra[k], rb[k], (int)x->k);
      break;
    case O_LIN: /* the product computed unconditionally and masked: no branch */
      run_lin(rd, ra, rb, len);
      break;
    case O_LDR: {
      const double *src = S->arrs[x->k].d;
      int64_t n = S->arrs[x->k].n;
      if (x->p) { /* every index in bounds (its range) */
        for (int k = 0; k < len; k++) rd[k] = src[ia[k]];
        break;
      }
      for (int k = 0; k < len; k++) {
        int64_t j = ia[k];
        if (j < 0 || j >= n) return 1;
        rd[k] = src[j];
      }
      break;
    }
    case O_LDSEQ: break; /* handled above */
    case O_LDA: {
      const double *src = S->arrs[x->k].d;
      int64_t n = S->arrs[x->k].n;
      for (int k = 0; k < len; k++) {
        int64_t j = ia[k];
        if (j < 0) return 1;
        rd[k] = j < n ? src[j] : 0.0;
      }
      break;
    }
    case O_CHKB:
      for (int k = 0; k < len; k++)
        if (ia[k] < 0 || ia[k] >= x->k) return 1;
      break;
    case O_CHKNN:
      for (int k = 0; k < len; k++)
        if (ia[k] < 0) return 1;
      break;
    case O_CHKFIN:
      for (int k = 0; k < len; k++)
        if (!isfinite(ra[k])) return 1;
      break;
    case O_IBIN: {
      /* one loop per operation; the checks of the reference's semantics */
      int bad = 0;
      if (x->k & IBIN_SAFE) { /* the ranges show no overflow: plain arithmetic */
        if (x->p == P_IADD) {
          _Pragma("omp simd") for (int k = 0; k < len; k++) id[k] = ia[k] + ib[k];
          break;
        }
        if (x->p == P_ISUB) {
          _Pragma("omp simd") for (int k = 0; k < len; k++) id[k] = ia[k] - ib[k];
          break;
        }
        if (x->p == P_IMUL) {
          _Pragma("omp simd") for (int k = 0; k < len; k++) id[k] = ia[k] * ib[k];
          break;
        }
      }
      switch (x->p) {
      case P_IADD:
        for (int k = 0; k < len; k++) bad |= __builtin_add_overflow(ia[k], ib[k], &id[k]);
        break;
      case P_ISUB:
        for (int k = 0; k < len; k++) bad |= __builtin_sub_overflow(ia[k], ib[k], &id[k]);
        break;
      case P_IMUL:
        for (int k = 0; k < len; k++) bad |= __builtin_mul_overflow(ia[k], ib[k], &id[k]);
        break;
      case P_IMOD:
        if (x->k & IBIN_WRAP) { /* a in [0, 2q): no division, no branch */
          int64_t q = ib[0];
          _Pragma("omp simd") for (int k = 0; k < len; k++) id[k] = ia[k] >= q ? ia[k] - q : ia[k];
          break;
        }
        if ((x->k & IBIN_CONST_B) && ib[0] > 0 && ib[0] <= INT64_MAX / 2) {
          /* a constant positive modulus (an index wrapped around a length):
           * 0 <= p < 2q needs no division */
          int64_t q = ib[0];
          for (int k = 0; k < len; k++) {
            int64_t p = ia[k];
            if ((uint64_t)p < (uint64_t)(2 * q)) id[k] = p >= q ? p - q : p;
            else id[k] = p % q;
          }
          break;
        }
        for (int k = 0; k < len; k++) {
          int64_t p = ia[k], q = ib[k];
          if (q == 0) return 1;
          id[k] = q == -1 ? 0 : p % q;
        }
        break;
      case P_IDIV:
        for (int k = 0; k < len; k++) {
          int64_t p = ia[k], q = ib[k];
          if (q == 0 || (p == INT64_MIN && q == -1)) return 1;
          id[k] = p / q;
        }
        break;
      default: return 1;
      }
      if (bad) return 1;
      break;
    }
    case O_INEG:
      for (int k = 0; k < len; k++) {
        if (ia[k] == INT64_MIN) return 1;
        id[k] = -ia[k];
      }
      break;
    case O_TOREAL: for (int k = 0; k < len; k++) rd[k] = (double)ia[k]; break;
    case O_SELK: for (int k = 0; k < len; k++) rd[k] = ia[k] == x->k ? rb[k] : 0.0; break;
    case O_BAGST: { /* disjoint places per iteration: no reduction */
      int64_t c = S->bagc[x->k];
      double *dk = S->bagk[x->k] + base * c + x->p, *dv = S->bagv[x->k] + base * c + x->p;
      for (int k = 0; k < len; k++) {
        dk[k * c] = ra[k];
        dv[k * c] = rb[k];
      }
      break;
    }
    case O_ACCS:
      accs[x->k] += block_sum(ra, len);
      break;
    case O_ACCSEQ: {
      if (x->p) { /* the slot's only contribution: store, disjoint blocks */
        double *dst = S->stseq[x->k] + base;
        for (int k = 0; k < len; k++) dst[k] = rb[k];
        break;
      }
      abuf *ab = &aa[x->k];
      int64_t need = base + len;
      if (base >= ab->wlo && need <= ab->whi) { /* the block inside the window */
        double *dst = ab->win + base;
        for (int k = 0; k < len; k++) dst[k] += rb[k];
        if (need > ab->wmax) ab->wmax = need;
        break;
      }
      if (ab->wlo < ab->whi) {
        for (int k = 0; k < len; k++)
          if (acc_add(S, ab, base + k, rb[k])) return 1;
        break;
      }
      if (need > ab->cap && !abuf_grow(ab, need, S->acc_hint, S->acc_limit)) return 1;
      if (ab->max == 0 || base < ab->min) ab->min = base;
      if (need > ab->max) ab->max = need;
      double *dst = ab->d + base;
      for (int k = 0; k < len; k++) dst[k] += rb[k];
      break;
    }
    case O_ACCA: {
      abuf *ab = &aa[x->k];
      if (x->p) { /* a constant index: the block's sum added once */
        if (acc_add(S, ab, ia[0], block_sum(rb, len))) return 1;
        break;
      }
      for (int k = 0; k < len; k++)
        if (acc_add(S, ab, ia[k], rb[k])) return 1;
      break;
    }
    }
  }
  return 0;
}

static void run_init(const cstate *S, double *R, int64_t *I) {
  for (int c = 0; c < S->ninit; c++) {
    const ins *x = &S->init[c];
    if (x->op) {
      for (int k = 0; k < B; k++) I[(size_t)x->d * B + k] = x->k;
    } else {
      double r;
      memcpy(&r, &x->k, sizeof r);
      for (int k = 0; k < B; k++) R[(size_t)x->d * B + k] = r;
    }
  }
}

/* Register files kept from one compiled loop to the next, one per OpenMP
 * thread number: a large unrolled body (GMM's transposed map: 4,000
 * registers, 4 MB) would otherwise be fresh memory on every loop, and its
 * page faults cost as much as running a short loop. Grown, never shrunk;
 * files over REGS_KEEP bytes are freed after the loop instead. */
#define REGS_THREADS 64
#define REGS_KEEP ((size_t)64 << 20)
static struct regfile {
  double *R;
  int64_t *I;
  double **RP;
  size_t cap;   /* slots of R and I */
  int caprp;    /* entries of RP    */
} regs_cache[REGS_THREADS];

/* thread tid's register file of nregs registers (RP[r] = R + r B); NULL
 * when out of host memory */
static struct regfile *regs_get(int tid, int nregs, struct regfile *own) {
  size_t need = (size_t)nregs * B;
  struct regfile *f = tid < REGS_THREADS && need * sizeof(double) <= REGS_KEEP ? &regs_cache[tid] : own;
  if (f->cap < need) {
    free(f->R);
    free(f->I);
    f->R = malloc(need * sizeof *f->R);
    f->I = malloc(need * sizeof *f->I);
    f->cap = f->R && f->I ? need : 0;
    if (!f->cap) return NULL;
  }
  if (f->caprp < nregs) {
    free(f->RP);
    f->RP = malloc((size_t)nregs * sizeof *f->RP);
    f->caprp = f->RP ? nregs : 0;
    if (!f->RP) return NULL;
  }
  for (int r = 0; r < nregs; r++) f->RP[r] = f->R + (size_t)r * B;
  return f;
}

double fc_sum(const double *d, int64_t n) {
  int64_t nb = n / B + (n % B != 0); /* ceil(n / B), no overflow at INT64_MAX */
  if (nb == 0) return 0.0;
  double *part = malloc((size_t)nb * sizeof *part);
  if (!part) { /* sequential fallback, same block order */
    double s = 0;
    for (int64_t b = 0; b < nb; b++) s += block_sum(d + b * B, (int)(n - b * B < B ? n - b * B : B));
    return s;
  }
#pragma omp parallel for schedule(static) if (n >= fast_par_threshold_)
  for (int64_t b = 0; b < nb; b++) part[b] = block_sum(d + b * B, (int)(n - b * B < B ? n - b * B : B));
  double s = 0;
  for (int64_t b = 0; b < nb; b++) s += part[b];
  free(part);
  return s;
}

static void cstate_free(cstate *S) {
  while (S->mem) {
    arena_blk *p = S->mem->prev;
    if (arena_nfree < ARENA_KEEP) {
      S->mem->prev = arena_free_list;
      arena_free_list = S->mem;
      arena_nfree++;
    } else {
      free(S->mem);
    }
    S->mem = p;
  }
  free(S->ilist);
  free(S->code);
  free(S->init);
  free(S->arrs);
  free(S->cse);
  free(S->rec);
  free(S->stseq);
  for (int i = 0; i < S->nmats; i++) free(S->mats[i].rows);
  free(S->mats);
  free(S->vecs);
  free(S->slot_len);
  free(S->kk);
  free(S->kv);
  free(S->rk);
  free(S->rlo);
  free(S->rhi);
  free(S->tslot);
  free(S->mrows);
  free(S->bagc);
  free(S->bagk);
  free(S->bagv);
  free(S->khash);
}

struct build_ctx {
  heap *h;
  const double *tot;
  const value **arrs;
  int *si, *ai, *mi, bi;
  const cstate *S;
  int64_t n;               /* iterations (bag slots: n * bagc entries)  */
};
static const value *build_val(struct build_ctx *c, int ty) {
  switch (ty_kind(ty)) {
  case TY_REAL: return v_real(c->h, c->tot[(*c->si)++]);
  case TY_UNIT: return v_unit(c->h);
  case TY_COPOW: {
    int b = c->bi++;
    int64_t cnt = c->S->nacc_b > b ? c->S->bagc[b] : 0;
    if (cnt == 0 || c->n == 0) return v_zero(c->h);
    return fv_bag_leaf(c->h, c->n * cnt, c->S->bagk[b], c->S->bagv[b]);
  }
  case TY_PROD: {
    const value *a = build_val(c, ty_left(ty));
    const value *b = a ? build_val(c, ty_right(ty)) : NULL;
    return b ? v_pair(c->h, a, b) : NULL;
  }
  case TY_ARR:
    if (ty_kind(ty_left(ty)) == TY_REAL) return c->arrs[c->S->tslot[(*c->ai)++]];
    if (ty_kind(ty_left(ty)) == TY_ARR && ty_kind(ty_left(ty_left(ty))) == TY_REAL) {
      /* the rows' sum of onehots, in the order the rows were met */
      int m = (*c->mi)++;
      const value *acc = v_zero(c->h);
      eval_error er;
      eval_error_clear(&er);
      for (int i = 0; acc && i < c->S->nmrows; i++) {
        const struct mrow *r = &c->S->mrows[i];
        if (r->m != m || c->arrs[r->slot]->kind == V_ZERO) continue;
        const value *oh = v_onehot(c->h, r->row, c->arrs[r->slot], &er);
        acc = oh ? fv_plus(c->h, acc, oh, &er) : NULL;
      }
      return acc;
    }
    return v_zero(c->h);
  default: return v_zero(c->h);
  }
}

/* The compile of the last delayed array made without a check run (its body
 * cannot fail): the state after compiling one element (el, in terms of the
 * loop index, register 0), so the first loop over that array continues it
 * rather than compiling the element again. One entry, valid within one
 * evaluation (epoch); the evaluator is not reentrant (one thread compiles). */
static struct {
  cstate S;
  const sym *el;
  int term;
  const env *e;
  const value *src;
  int64_t n;
  unsigned epoch;
  int valid;
} chk_cache;
static void chk_cache_drop(void) {
  if (chk_cache.valid) cstate_free(&chk_cache.S);
  chk_cache.valid = 0;
}

/* the bag of the fold fc_fold runs (read once by fc_loop) */
static const double *fold_key, *fold_val;

int fc_fold(heap *h, int t, const env *e, int64_t n, const double *key, const double *val,
            const value **out, eval_error *err) {
  fold_key = key;
  fold_val = val;
  return fc_loop(h, t, e, n, NULL, FC_FOLD, out, err);
}

/* The elements a body's vector instructions go through in one iteration
 * (the length of each one's vector; O_PACK stores one element): what
 * decides whether a body is cheap and whether a loop is worth threads. */
static int64_t vector_work(const cstate *S) {
  int64_t w = 0;
  for (int c = 0; c < S->ncode; c++) {
    const ins *x = &S->code[c];
    if (x->op >= O_DOT) w += x->op == O_PACK ? 1 : S->vecs[x->op == O_LDV || x->op == O_VOH ? x->k : x->a].len;
  }
  return w;
}

/* The length an lsum's array accumulator needed in an earlier run of the
 * same loop, beyond the loop count it is first sized for (BA's pullback
 * scatters into indices up to 4n): the next run allocates that at once
 * instead of growing through copies into host memory. A direct-mapped
 * cache by term and slot; only a size hint (a stale entry, or a term
 * number reused by another program, costs memory, never a value). */
#define GROW_HINTS 256
static struct grow_hint { int t, a; int64_t m; } grow_hints[GROW_HINTS];
static int64_t grow_hint_get(int t, int a) {
  const struct grow_hint *g = &grow_hints[((unsigned)t * 31u + (unsigned)a) % GROW_HINTS];
  return g->t == t + 1 && g->a == a ? g->m : 0;
}
static void grow_hint_put(int t, int a, int64_t m) {
  struct grow_hint *g = &grow_hints[((unsigned)t * 31u + (unsigned)a) % GROW_HINTS];
  g->t = t + 1; /* 0: empty */
  g->a = a;
  g->m = m;
}

/* ---- iterations with a zero cotangent ------------------------------------
 * A pullback's lsum n (i. body) reads the cotangent of element i, ct[i], and
 * what it adds into its accumulators is linear in it. When every path from
 * ct[i] to an accumulation goes through lin (b == 0 ? 0 : a * b, with the
 * cotangent as b), sums, negations, and products by finite factors,
 * ct[i] = +-0 makes every addition of iteration i add +-0, which changes no
 * accumulator (they start at +0, and +0 + -0 = +0). Such iterations are
 * skipped: the loop runs over the list of the others (a one-hot seed of a
 * Jacobian row runs one iteration; ADBench BA's seeds, 1 on every other
 * residual, half of them). The accumulations add the same values at the
 * same indices in the same order; only a scalar slot's per-block partial
 * sums group the terms differently. A pass over every iteration first runs
 * the checks alone, and checks that those factors are finite (sqrt' at 0 is
 * inf, and inf times a zero cotangent is NaN, as in the reference): if
 * anything fails there, the loop runs whole, as without the list, so it
 * fails or gives NaN exactly as it did. */

/* The sequentially read array (arrs index) whose zeros make whole
 * iterations add nothing, or -1. On the final code (registers may be reused:
 * the facts are updated at each definition). guard[c] = 1 or 2 for a
 * product of a zero by an operand that does not depend on the array (1: a,
 * 2: b), which must be finite. */
static int sparse_source(const cstate *S, char *guard) {
  int found = -1;
  char *t = malloc((size_t)S->nregs + 1), *z = malloc((size_t)S->nregs + 1);
  for (int c = 0; t && z && found < 0 && c < S->ncode; c++) {
    const ins *s = &S->code[c];
    if (s->op != O_LDSEQ) continue;
    int k = (int)s->k, ok = 1, u[8];
    memset(t, 0, (size_t)S->nregs + 1); /* depends on arr k at i */
    memset(z, 0, (size_t)S->nregs + 1); /* +-0 when arr k at i is +-0 */
    memset(guard, 0, (size_t)S->ncode);
    for (int d = 0; ok && d < S->ncode; d++) {
      const ins *x = &S->code[d];
      /* rows, bags and vectors are not followed */
      if (x->op >= O_DOT || x->op == O_BAGST) ok = 0;
      else if (x->op == O_ACCS || x->op == O_ACCA || x->op == O_ACCSEQ)
        ok = z[x->op == O_ACCS ? x->a : x->b];
      if (!ok || !ins_writes(x->op) || x->d < 0) continue;
      int nu = ins_uses(S, x, u), any = 0, zd = 0;
      for (int i = 0; i < nu; i++) any |= t[u[i]];
      if (x->op == O_LDSEQ) {
        any = zd = x->k == k;
      } else if (any) {
        switch (x->op) {
        case O_LIN: /* b == 0 ? 0 : a * b */
          zd = z[x->b] || (z[x->a] && !t[x->b]);
          if (!z[x->b] && zd) guard[d] = 2;
          break;
        case O_MUL:
          zd = (z[x->a] && z[x->b]) || (z[x->a] && !t[x->b]) || (z[x->b] && !t[x->a]);
          if (zd && !(z[x->a] && z[x->b])) guard[d] = z[x->a] ? 2 : 1;
          break;
        case O_ADD: zd = z[x->a] && z[x->b]; break;
        case O_BIN: zd = x->p == P_SUB && z[x->a] && z[x->b]; break;
        case O_U: zd = x->p == P_NEG && z[x->a]; break;
        case O_SELK: zd = z[x->b]; break;
        default: zd = 0;
        }
      }
      t[x->d] = (char)any;
      z[x->d] = (char)zd;
      if (x->op == O_SINCOS) t[x->b] = (char)any, z[x->b] = 0;
    }
    if (ok) found = k;
  }
  free(t);
  free(z);
  return found;
}

/* an instruction that can fail in some iteration (after regalloc: the flags
 * the ranges set) */
static int may_fail(const ins *x) {
  switch (x->op) {
  case O_LDR: return !x->p;
  case O_LDA: case O_CHKB: case O_CHKNN: case O_INEG: case O_CHKFIN: return 1;
  case O_IBIN: return !(x->k & IBIN_SAFE);
  default: return 0;
  }
}

/* The checks of the code alone, with a finiteness check of the factor that
 * does not depend on the sparse array before each guarded product, and what
 * they read (registers as in the code). NULL on failure. */
static ins *checks_only(const cstate *S, const char *guard, int *nc) {
  *nc = 0;
  int m = 0, u[8];
  ins *all = malloc((size_t)2 * (size_t)S->ncode * sizeof *all);
  char *live = calloc((size_t)S->nregs + 1, 1), *keep = calloc((size_t)2 * (size_t)S->ncode + 1, 1);
  if (!all || !live || !keep) {
    free(all);
    free(live);
    free(keep);
    return NULL;
  }
  for (int c = 0; c < S->ncode; c++) {
    const ins *x = &S->code[c];
    if (guard[c]) { /* 1: operand a, 2: operand b */
      ins cf = {O_CHKFIN, 0, -1, guard[c] == 1 ? x->a : x->b, 0, 0};
      all[m++] = cf;
    }
    all[m++] = *x;
  }
  for (int c = m - 1; c >= 0; c--) { /* liveness: a definition kills */
    const ins *x = &all[c];
    int w = ins_writes(x->op) && x->d >= 0;
    if (!may_fail(x) && !(w && (live[x->d] || (x->op == O_SINCOS && live[x->b])))) continue;
    keep[c] = 1;
    if (w) live[x->d] = 0;
    if (x->op == O_SINCOS) live[x->b] = 0;
    int nu = ins_uses(S, x, u);
    for (int i = 0; i < nu; i++) live[u[i]] = 1;
  }
  for (int c = 0; c < m; c++)
    if (keep[c]) all[(*nc)++] = all[c];
  free(live);
  free(keep);
  return all;
}

/* The checks alone over every iteration (in parallel as a loop of that
 * work would be); 1 when one of them fails. */
static int run_checks(const cstate *S, ins *code, int ncode, int64_t n) {
  cstate C = *S;
  C.code = code;
  C.ncode = ncode;
  C.ilist = NULL;
  C.need_index = 1;
  int64_t nb = n / B + (n % B != 0);
  int nthreads = omp_get_max_threads();
  int par = (double)n * (double)(ncode + 1) >= (double)fast_par_threshold_ && nb > 1;
  int bad = 0;
#pragma omp parallel num_threads(nthreads) if (par) reduction(| : bad)
  {
    int tid = omp_get_thread_num(), nt = omp_get_num_threads();
    struct regfile own = {0}, *rf = regs_get(tid, C.nregs, &own);
    if (!rf) {
      bad = 1;
    } else {
      run_init(&C, rf->R, rf->I);
      for (int64_t b = nb * tid / nt; b < nb * (tid + 1) / nt; b++) {
        int len = (int)(n - b * B < B ? n - b * B : B);
        if (run_block(&C, b * B, len, rf->RP, rf->I, NULL, NULL, NULL)) {
          bad = 1;
          break;
        }
      }
    }
    free(own.R);
    free(own.I);
    free(own.RP);
  }
  return bad;
}

/* Decides whether the lsum's iterations with a zero in its sparse array are
 * skipped: on success S runs over the list S->ilist of the others (its
 * sequential reads and accumulations made indexed by the list) and their
 * count is returned; else n, S unchanged. */
static int64_t sparse_plan(cstate *S, int64_t n) {
  int64_t *ilist = NULL;
  char *guard = malloc((size_t)S->ncode + 1);
  int k = guard ? sparse_source(S, guard) : -1;
  int64_t nz = 0;
  if (k >= 0) {
    const double *src = S->arrs[k].d;
    for (int64_t i = 0; i < n; i++) nz += src[i] != 0.0; /* NaN counts */
  }
  int nc = 0;
  ins *cc = k >= 0 && nz < n ? checks_only(S, guard, &nc) : NULL;
  free(guard);
  /* worth it when the checks' pass over every iteration and the listed
   * iterations (their reads and accumulations indexed) cost at most four
   * fifths of the whole loop */
  if (!cc || (double)n * (nc + 1) + (double)nz * (S->ncode + 2) > 0.8 * (double)n * (S->ncode + 1) ||
      !(ilist = malloc((size_t)(nz ? nz : 1) * sizeof *ilist))) {
    free(cc);
    return n;
  }
  if (nc > 0 && run_checks(S, cc, nc, n)) { /* the loop runs whole */
    free(cc);
    free(ilist);
    return n;
  }
  free(cc);
  const double *src = S->arrs[k].d;
  int64_t m = 0;
  for (int64_t i = 0; i < n; i++)
    if (src[i] != 0.0) ilist[m++] = i;
  for (int c = 0; c < S->ncode; c++) {
    ins *x = &S->code[c];
    if (x->op == O_LDSEQ) { /* arr[k][i]: a read at the index register */
      x->op = O_LDR;
      x->p = 1;
      x->a = 0;
    } else if (x->op == O_ACCSEQ) { /* slot[i] += R[b]: at the index register */
      x->op = O_ACCA;
      x->p = 0;
      x->a = 0;
    }
  }
  S->ilist = ilist;
  S->need_index = 1;
  return nz;
}

int fc_loop(heap *h, int t, const env *e, int64_t n, const value *arr, int mode,
            const value **out, eval_error *err) {
  /* mode: 0 materialise (build/map with Real elements), 1 sum of it,
   * 2 check only, 3 lsum, 5 fold over an unboxed bag (then as lsum) */
  if (t >= 0 && t < CHAD_MAX_TERMS && fail_epoch[t] == fast_epoch_) return 0;
  int fold_mode = mode == FC_FOLD;
  if (fold_mode) mode = FC_LSUM;
  /* map snd X after the lsum that stored the rows of snd X[i] (fv_delay) */
  if (mode == FC_CHECK && tm_kind(t) == TM_MAP && arr && arr->kind == FV_DELAY &&
      as_delay(arr)->snd_rows && as_delay(arr)->snd_rows->u.arr.n == n && tm_kind(tm_a(t)) == TM_SND &&
      tm_kind(tm_a(tm_a(t))) == TM_VAR && tm_aux(tm_a(tm_a(t))) == 0) {
    *out = as_delay(arr)->snd_rows;
    if (getenv("FAST_DEBUG")) fprintf(stderr, "fast: loop term %d: the rows of snd stored by an lsum\n", t);
    fast_stats_.compiled_loops++;
    return 1;
  }
  int nodelay = mode == FC_MAT_NODELAY;
  if (nodelay) mode = FC_MAT;
  int dbg_time = getenv("FAST_DEBUG") != NULL;
  double t_start = dbg_time ? cpu_now() : 0;
  cstate S;
  memset(&S, 0, sizeof S);
  S.h = h;
  S.err = err;
  S.nregs = 1; /* register 0: the loop index */
  S.loop_n = n;
  int kind = tm_kind(t);
  int body = kind == TM_MAP ? tm_a(t) : tm_b(t);
  /* lsum n (i. fst X[i]) with X a delayed build of pairs of length n (CHAD's
   * transpose of a map): X[i] compiled whole, so snd X[i] can be stored too */
  const value *pair_src = NULL;
  const sym *snd_el = NULL;
  if (mode == FC_LSUM && !fold_mode && tm_kind(body) == TM_FST && tm_kind(tm_a(body)) == TM_INDEX) {
    int ix = tm_a(body);
    if (tm_kind(tm_a(ix)) == TM_VAR && tm_kind(tm_b(ix)) == TM_VAR && tm_aux(tm_b(ix)) == 0 &&
        tm_aux(tm_a(ix)) >= 1) {
      const env *p = e;
      for (int64_t k = tm_aux(tm_a(ix)) - 1; p && k > 0; k--) p = p->next;
      if (p && p->v->kind == FV_DELAY && !as_delay(p->v)->real && !as_delay(p->v)->snd_rows &&
          p->v->u.arr.n == n)
        pair_src = p->v;
    }
  }
  /* the delayed array this loop reads element by element (map over it, or
   * the lsum above): when it is the one whose check compile is cached, that
   * compile is continued instead of done again */
  const value *adopt_src = kind == TM_MAP ? arr : pair_src;
  const sym *adopted = NULL;
  if (adopt_src && adopt_src->kind == FV_DELAY && chk_cache.valid && chk_cache.epoch == fast_epoch_ &&
      as_delay(adopt_src)->term == chk_cache.term && as_delay(adopt_src)->env == chk_cache.e &&
      as_delay(adopt_src)->src == chk_cache.src && as_delay(adopt_src)->ncalls == 0 &&
      adopt_src->u.arr.n == n && chk_cache.n == n && !getenv("FAST_NO_ADOPT")) {
    S = chk_cache.S;
    chk_cache.valid = 0;
    S.h = h;
    S.err = err;
    S.loop_n = n;
    adopted = chk_cache.el;
    if (getenv("FAST_DEBUG"))
      fprintf(stderr, "fast: loop term %d continues the compile of term %d\n", t, chk_cache.term);
  }
  const senv *E = rt_env(&S, e);
  const sym *x;
  if (kind == TM_MAP) x = adopted ? adopted : index_sym(&S, mkv(&S, arr), mkreg(&S, SK_I, 0));
  else x = mkreg(&S, SK_I, 0);
  /* Record the body's own expensive calls only: a memo is replayed (emit)
   * from the first expensive call of the body, after the element x has been
   * indexed, so the calls made to compute x are not counted there. A
   * continued compile (adopted) was itself a check run and recorded the
   * calls of the delayed element x it computed: forget them, or the k-th
   * call of the replay would load the memo of another call. */
  S.recording = mode == FC_CHECK;
  S.nrec = 0;
  const sym *r;
  if (pair_src) {
    const sym *el = adopted ? adopted : index_sym(&S, mkv(&S, pair_src), x);
    r = proj(&S, el, 0);
    snd_el = r ? proj(&S, el, 1) : NULL;
  } else if (fold_mode) {
    /* fold w with (x, v) -> body: x = key[i] (index 1), v = val[i] (index 0) */
    int ka = add_arr(&S, fold_key, n), kv = ka < 0 ? -1 : add_arr(&S, fold_val, n);
    int rk = kv < 0 ? -1 : emit_plain(&S, O_LDSEQ, 0, 0, 0, ka);
    int rv = rk < 0 ? -1 : emit_plain(&S, O_LDSEQ, 0, 0, 0, kv);
    r = rv < 0 ? NULL : cc(&S, body, push(&S, push(&S, E, mkreg(&S, SK_R, rk)), mkreg(&S, SK_R, rv)));
  } else {
    r = x ? cc(&S, body, push(&S, E, x)) : NULL;
  }
  int out_reg = -1, rows = 0, rows_acc = 0, snd_on = 0;
  if (r && !S.fail && mode == FC_CHECK && r->k == SK_OH) {
    /* an Arr Real cotangent of onehots at indices known when compiling:
     * stored as dense length-free rows (FV_ACC) up to the largest index */
    int64_t L = 0, j;
    for (const sym *p = r; p && L >= 0; p = p->b)
      if (kint(&S, p->reg, &j) && j >= 0 && j < 65536 && rreg(&S, p->a) >= 0) L = j + 1 > L ? j + 1 : L;
      else L = -1;
    if (L > 0 && (r = vec_cot(&S, r, L))) rows_acc = 1;
  }
  if (r && !S.fail) {
    if (mode == 0 || mode == 1) out_reg = rreg(&S, r);
    else if (mode == 3 && acc_layout_ok(tm_type(t))) {
      acc_emit(&S, tm_type(t), r);
      /* the rows of snd X[i]: onehots at known indices (dense up to the
       * largest, length-free FV_ACC) or a vector (FV_RARR); else none */
      if (snd_el && !S.fail && S.nscr < 60) {
        int64_t L = 0, j;
        const sym *v2 = NULL;
        if (snd_el->k == SK_OH) {
          for (const sym *p = snd_el; p && L >= 0; p = p->b)
            if (kint(&S, p->reg, &j) && j >= 0 && j < 65536 &&
                (p->a->k == SK_R || (p->a->k == SK_V && p->a->v->kind == V_REAL)))
              L = j + 1 > L ? j + 1 : L;
            else
              L = -1;
          if (L > 0 && (v2 = vec_cot(&S, snd_el, L))) rows_acc = 1;
        } else if (snd_el->k == SK_VEC) {
          v2 = snd_el;
        }
        if (v2 && !S.fail && (double)n * (double)vec_len(&S, v2) <= (double)((int64_t)1 << 30)) {
          S.rows_len = vec_len(&S, v2);
          snd_on = 1;
          int first = 1;
          for (const sym *p = v2; p; p = p->b, first = 0) {
            ins xi = {O_STV, first ? 0 : 1, -1, p->term, p->reg, 0};
            if (emit_to(&S, &S.code, &S.ncode, &S.capcode, xi) < 0) break;
          }
        }
      }
    }
    else if (mode == FC_CHECK && (r->k == SK_VEC || (r->k == SK_ARR && r->n > 0 && arr_reals(r))) &&
             (r = vec_of(&S, r))) {
      /* elements are dense vectors of one length: stored as unboxed rows
       * (cheaper than delaying, which would recompute them when indexed) */
      S.rows_len = vec_len(&S, r);
      if (S.rows_len <= 0 || (double)n * (double)S.rows_len > (double)((int64_t)1 << 36)) {
        S.fail = 1;
      } else {
        rows = 1;
        int first = 1;
        for (const sym *p = r; p; p = p->b, first = 0) {
          ins xi = {O_STV, first ? 0 : 1, -1, p->term, p->reg, 0};
          if (emit_to(&S, &S.code, &S.ncode, &S.capcode, xi) < 0) break;
        }
        S.nrec = 0; /* no memo */
      }
    }
  }
  if (!r || S.fail || ((mode == 0 || mode == 1) && out_reg < 0)) {
    int oom = S.oom;
    if (t >= 0 && t < CHAD_MAX_TERMS) fail_epoch[t] = fast_epoch_;
    if (getenv("FAST_DEBUG"))
      fprintf(stderr, "fast: loop term %d (kind %d, n %lld) not compiled near term %d (kind %d): %s %d\n", t,
              kind, (long long)n, S.last, tm_kind(S.last), S.why ? S.why : "", S.whyk);
    cstate_free(&S);
    if (oom) {
      eval_oom(err);
      return -1;
    }
    return 0;
  }
  /* A delayed array whose body cannot fail and is cheap (a few instructions,
   * at most two expensive ones) needs neither the check run nor a memo:
   * recomputing the body where it is inlined costs less than storing and
   * reloading it (sum (sin x * x): its gradient then makes one array, not
   * two). */
  /* So does a body of any size that cannot fail and has no expensive call
   * to memoise (an unrolled body whose transcendental functions were all of
   * constants): its check run would compute everything and keep nothing. */
  int nreal = 0; /* expensive instructions recorded, not folded */
  for (int c = 0; c < S.nrec; c++) nreal += S.rec[c] >= 0;
  if (nreal == 0) S.nrec = 0;
  /* ... but not a body with long vector instructions (a dot product of a
   * matrix row, say): a few instructions of it are not cheap, and without a
   * memo every consumer computes them again (MLP's hidden layer: once for
   * the value, again in the pullback) */
  int64_t vwork = vector_work(&S);
  if (mode == FC_CHECK && !rows && ((S.ncode <= 16 && nreal <= 2 && vwork <= 64) || nreal == 0) &&
      !getenv("FAST_ALWAYS_MEMO")) {
    int pure = 1;
    for (int c = 0; c < S.ncode && pure; c++) {
      pure = cannot_fail(&S, &S.code[c]);
      if (!pure && getenv("FAST_DEBUG") && getenv("FAST_DEBUG")[0] == '3')
        fprintf(stderr, "fast: loop term %d: check run needed (op %d a %d k %lld)\n", t, S.code[c].op,
                S.code[c].a, (long long)S.code[c].k);
    }
    if (pure) {
      fv_delay *dl = heap_alloc(h, sizeof *dl);
      /* kept for the first loop that reads this array element by element */
      chk_cache_drop();
      if (dl && r && !getenv("FAST_NO_ADOPT")) {
        chk_cache.S = S;
        chk_cache.el = r;
        chk_cache.term = t;
        chk_cache.e = e;
        chk_cache.src = kind == TM_MAP ? arr : NULL;
        chk_cache.n = n;
        chk_cache.epoch = fast_epoch_;
        chk_cache.valid = 1;
      } else {
        cstate_free(&S);
      }
      if (!dl) {
        eval_oom(err);
        return -1;
      }
      dl->base.kind = FV_DELAY;
      dl->base.u.arr.n = n;
      dl->base.u.arr.elems = NULL;
      dl->body = body;
      dl->env = e;
      dl->src = kind == TM_MAP ? arr : NULL;
      dl->ncalls = 0;
      dl->memo_of = NULL;
      dl->memo = NULL;
      dl->real = 0;
      dl->term = t;
      dl->forced = NULL;
      dl->snd_rows = NULL;
      *out = &dl->base;
      fast_stats_.compiled_loops++;
      return 1;
    }
  }
  /* memo slots of a delayed array: one per distinct recorded register */
  int nslots = 0, *memo_of = NULL, *slot_reg = NULL;
  double **memo = NULL;
  if (mode == FC_CHECK && S.nrec > 0 && !getenv("FAST_NO_MEMO")) {
    if ((double)nreal * (double)n * 8.0 > (double)((size_t)1 << 30) ||
        !(memo_of = heap_alloc(h, (size_t)S.nrec * sizeof *memo_of)) ||
        !(slot_reg = calloc((size_t)S.nrec, sizeof *slot_reg)) ||
        !(memo = heap_alloc(h, (size_t)S.nrec * sizeof *memo))) {
      S.nrec = 0; /* no memo: the delayed body is recomputed when indexed */
    } else {
      for (int c = 0; c < S.nrec; c++) {
        int sl;
        if (S.rec[c] < 0) { /* folded: computed again where replayed */
          memo_of[c] = -1;
          continue;
        }
        for (sl = 0; sl < nslots && slot_reg[sl] != S.rec[c]; sl++) continue;
        if (sl == nslots) {
          slot_reg[nslots] = S.rec[c];
          if (!(memo[nslots] = fv_alloc_big(h, (size_t)(n ? n : 1) * sizeof(double)))) {
            free(slot_reg);
            cstate_free(&S);
            eval_oom(err);
            return -1;
          }
          nslots++;
        }
        memo_of[c] = sl;
      }
    }
  }
  /* the checked integer operations and reads all pass (known ranges): they
   * count as cheap arithmetic below (cannot_fail reads the ranges, which
   * regalloc's renaming invalidates) */
  int checks_pass = 1;
  for (int c = 0; c < S.ncode && checks_pass; c++) {
    int op = S.code[c].op;
    if ((op == O_IBIN || op == O_INEG || op == O_LDR || op == O_LDA) && !cannot_fail(&S, &S.code[c]))
      checks_pass = 0;
  }
  /* checks the ranges show to pass are not made at run time */
  for (int c = 0; c < S.ncode; c++) {
    ins *x = &S.code[c];
    int64_t lo, hi, q;
    if (x->op == O_LDR && cannot_fail(&S, x)) x->p = 1;
    if (x->op != O_IBIN || !cannot_fail(&S, x)) continue;
    x->k |= IBIN_SAFE;
    if (x->p == P_IMOD && kint(&S, x->b, &q) && q > 0 && q <= INT64_MAX / 2 && irange(&S, x->a, &lo, &hi) &&
        lo >= 0 && hi < 2 * q)
      x->k |= IBIN_WRAP;
  }
  dce(&S, out_reg);
  fuse_sincos(&S);
  {
    int nk = nslots + 1, *keep = malloc((size_t)nk * sizeof *keep);
    if (keep) {
      keep[0] = out_reg;
      for (int sl = 0; sl < nslots; sl++) keep[1 + sl] = slot_reg[sl];
      regalloc(&S, keep, nk);
      out_reg = keep[0];
      for (int sl = 0; sl < nslots; sl++) slot_reg[sl] = keep[1 + sl];
      free(keep);
    }
  }
  S.need_index = reads_index(&S) || out_reg == 0;
  if (getenv("FAST_DEBUG")) {
    int nu = 0;
    for (int c = 0; c < S.ncode; c++) nu += S.code[c].op == O_U || S.code[c].op == O_D1 || S.code[c].op == O_SINCOS;
    fprintf(stderr, "fast: loop term %d mode %d n %lld: %d instructions (%d transcendental), %d registers\n", t, mode, (long long)n, S.ncode, nu, S.nregs);
    if (getenv("FAST_DEBUG")[0] == '2')
      for (int c = 0; c < S.ncode; c++)
        fprintf(stderr, "  op %d p %d d %d a %d b %d k %lld\n", S.code[c].op, S.code[c].p, S.code[c].d,
                S.code[c].a, S.code[c].b, (long long)S.code[c].k);
  }
  /* lsum over i < n usually touches indices below n: size for that */
  S.acc_hint = n < 1024 ? 1024 : n < ACC_MAX / 2 ? n : 1024;
  S.acc_limit = n < ((int64_t)1 << 22) ? ((int64_t)1 << 24) : n < ACC_MAX / 4 ? 4 * n : ACC_MAX;
  /* a pullback's iterations with a zero cotangent are skipped (sparse_plan):
   * the loop runs niter iterations, those of the list S.ilist */
  int64_t niter = n;
  if (mode == FC_LSUM && !snd_on && n >= 4 * B && !getenv("FAST_NO_SPARSE")) {
    niter = sparse_plan(&S, n);
    if (S.ilist) fast_stats_.sparse_loops++;
    if (S.ilist && getenv("FAST_DEBUG"))
      fprintf(stderr, "fast: loop term %d: %lld of %lld iterations run (the others' cotangent is zero)\n", t,
              (long long)niter, (long long)n);
  }

  /* a build of Reals whose body is cheap and cannot fail (a constant, or
   * sequential reads and a little arithmetic): delayed, never stored unless a
   * consumer needs it stored (fv_force); sum and compiled consumers inline it */
  if (mode == FC_MAT && !nodelay && S.ncode <= 8) {
    int c, cheap = 1, nexp = 0;
    for (c = 0; c < S.ncode; c++) {
      int op = S.code[c].op;
      if (!(op == O_ADD || op == O_MUL || op == O_LIN || op == O_LDSEQ || op == O_TOREAL ||
            op == O_U || op == O_BIN || op == O_D1 || op == O_D2 || op == O_SINCOS ||
            (checks_pass && (op == O_IBIN || op == O_INEG || op == O_LDR || op == O_LDA))))
        cheap = 0;
      nexp += op == O_SINCOS ? 2 : is_expensive(op, S.code[c].p);
    }
    if (nexp > 2) cheap = 0; /* recomputing it where it is inlined would cost too much */
    if (cheap) {
      fv_delay *dl = heap_alloc(h, sizeof *dl);
      cstate_free(&S);
      if (!dl) {
        eval_oom(err);
        return -1;
      }
      dl->base.kind = FV_DELAY;
      dl->base.u.arr.n = n;
      dl->base.u.arr.elems = NULL;
      dl->body = body;
      dl->env = e;
      dl->src = arr;
      dl->ncalls = 0;
      dl->memo_of = NULL;
      dl->memo = NULL;
      dl->real = 1;
      dl->term = t;
      dl->forced = NULL;
      dl->snd_rows = NULL;
      *out = &dl->base;
      fast_stats_.compiled_loops++;
      return 1;
    }
  }
  double t_compiled = dbg_time ? cpu_now() : 0;
  /* output buffers (heap), per-block sums, per-thread accumulators */
  fv_rarr *res = NULL;
  if (mode == 0 && !(res = fv_new_rarr(h, FV_RARR, n))) {
    cstate_free(&S);
    eval_oom(err);
    return -1;
  }
  if ((rows || snd_on) &&
      ((uint64_t)n > h->limit / sizeof(double) / (uint64_t)(S.rows_len > 0 ? S.rows_len : 1) ||
       !(S.rowsout = fv_alloc_big(h, (size_t)n * (size_t)S.rows_len * sizeof(double))))) {
    cstate_free(&S);
    eval_oom(err);
    return -1;
  }
  vmath_on(); /* decided before any parallel region reads it */
  int64_t nb = niter / B + (niter % B != 0); /* ceil(niter / B), no overflow at INT64_MAX */
  int nthreads = omp_get_max_threads();
  int64_t per = S.ncode + 1 + vector_work(&S); /* work per iteration */

  int par = (double)niter * (double)per >= (double)fast_par_threshold_ && nb > 1;
  if (!par) nthreads = 1;
  int nsl = S.nacc_s > 0 ? S.nacc_s : 1;
  /* the per-block sums are host memory: more of them than the heap's limit
   * could hold (a loop of up to INT64_MAX iterations), or than 1 TiB (no
   * host has it, and the sanitizers' allocator aborts instead of failing),
   * is the heap limit */
  uint64_t part_cap = h->limit < ((uint64_t)1 << 40) ? h->limit : (uint64_t)1 << 40;
  if ((uint64_t)(nb ? nb : 1) > part_cap / sizeof(double) / (uint64_t)nsl) {
    free(slot_reg);
    cstate_free(&S);
    eval_oom(err);
    return -1;
  }
  double *part = calloc((size_t)(nb ? nb : 1) * (size_t)nsl, sizeof *part);
  abuf *bufs = calloc((size_t)nthreads * (size_t)(S.nacc_a ? S.nacc_a : 1), sizeof *bufs);
  int bail = 0;
  if (!part || !bufs) bail = 1;
  /* A slot fed by exactly one sequential onehot (index = the loop index)
   * and nothing else gets each index exactly once: all threads store into one
   * heap array (disjoint blocks), with no zeroing, no per-thread buffer and
   * no reduction. */
  if (!bail && mode == FC_LSUM && S.nacc_a > 0 &&
      (S.stseq = calloc((size_t)S.nacc_a, sizeof *S.stseq))) {
    for (int a = 0; a < S.nacc_a; a++) {
      int nseq = 0, nother = 0, at = -1;
      for (int c = 0; c < S.ncode; c++)
        if (S.code[c].k == a && (S.code[c].op == O_ACCSEQ || S.code[c].op == O_ACCA)) {
          if (S.code[c].op == O_ACCSEQ) {
            nseq++;
            at = c;
          } else {
            nother++;
          }
        }
      if (nseq == 1 && nother == 0 && n <= S.acc_hint &&
          (S.stseq[a] = fv_alloc_big(h, (size_t)n * sizeof(double))))
        S.code[at].p = 1;
    }
  }
  /* bag slots: every iteration writes its entries at places of its own */
  for (int b = 0; !bail && mode == FC_LSUM && b < S.nacc_b; b++) {
    int64_t c = S.bagc[b];
    if (c == 0 || n == 0) continue;
    if ((uint64_t)n > h->limit / sizeof(double) / 2 / (uint64_t)c ||
        !(S.bagk[b] = fv_alloc_big(h, (size_t)n * (size_t)c * sizeof(double))) ||
        !(S.bagv[b] = fv_alloc_big(h, (size_t)n * (size_t)c * sizeof(double)))) {
      free(part);
      free(bufs);
      free(slot_reg);
      cstate_free(&S);
      eval_oom(err);
      return -1;
    }
  }
  /* each array slot has one heap array (shared[a]) sized for indices < n
   * (or the grow hint's length), the result made from it in place: each
   * thread zeroes its window of it and adds its own indices there, so a
   * parallel loop has no serial zeroing and no reduction of whole
   * per-thread arrays. Without it (the heap's limit), the threads' own
   * buffers in host memory hold everything. */
  double **shared = NULL;
  int64_t *slot_cap = NULL; /* per slot: the heap array's length */
  if (!bail && mode == FC_LSUM && S.nacc_a > 0 &&
      (!(slot_cap = calloc((size_t)S.nacc_a, sizeof *slot_cap)) ||
       !(shared = calloc((size_t)S.nacc_a, sizeof *shared))))
    bail = 1;
  if (!bail && mode == FC_LSUM)
    for (int a = 0; a < S.nacc_a; a++) {
      if (S.stseq && S.stseq[a]) continue;
      if (a < S.capslots && S.slot_len[a] > 0) continue; /* dense: host memory */
      int64_t cap = S.acc_hint, g = grow_hint_get(t, a);
      if (g > cap && g <= S.acc_limit) cap = g;
      double *d0 = fv_alloc_big(h, (size_t)cap * sizeof *d0);
      if (!d0) break; /* host memory then */
      slot_cap[a] = cap;
      shared[a] = d0;
    }
#pragma omp parallel num_threads(nthreads) if (par) reduction(| : bail)
  {
    int tid = omp_get_thread_num(), nt = omp_get_num_threads();
    struct regfile own = {0}, *rf = regs_get(tid, S.nregs, &own);
    double *R = rf ? rf->R : NULL, **RP = rf ? rf->RP : NULL;
    int64_t *I = rf ? rf->I : NULL;
    abuf *aa = bufs ? bufs + (size_t)tid * (size_t)(S.nacc_a ? S.nacc_a : 1) : NULL;
    /* scratch vectors of this thread */
    double **SC = S.nscr ? calloc((size_t)S.nscr, sizeof *SC) : NULL;
    int scr_ok = !S.nscr || SC;
    for (int v = 0; scr_ok && v < S.nvecs; v++)
      if (S.vecs[v].kind == 2 &&
          !(SC[S.vecs[v].id] = malloc((size_t)(S.vecs[v].len > 0 ? S.vecs[v].len : 1) * B * sizeof(double))))
        scr_ok = 0;
    if (!R || !I || !RP || !part || !bufs || !scr_ok) bail = 1;
    else {
      run_init(&S, R, I);
      int64_t b0 = nb * tid / nt, b1 = nb * (tid + 1) / nt;
      /* this thread's window of each slot's heap array: the indices of its
       * own iterations (the last thread's reaches the array's end) */
      int64_t i0 = b0 * B >= niter ? n : S.ilist ? S.ilist[b0 * B] : b0 * B; /* first index of b0 */
      int64_t i1 = b1 * B >= niter ? n : S.ilist ? S.ilist[b1 * B] : b1 * B;
      if (tid == 0) i0 = 0;
      for (int a = 0; shared && a < S.nacc_a; a++) {
        if (!shared[a]) continue;
        int64_t cap = slot_cap[a], lo = i0 < cap ? i0 : cap;
        int64_t hi = tid == nt - 1 ? cap : i1 < cap ? i1 : cap;
        aa[a].win = shared[a];
        aa[a].wlo = lo;
        aa[a].whi = hi;
        if (hi > lo) memset(shared[a] + lo, 0, (size_t)(hi - lo) * sizeof(double));
      }
      for (int64_t b = b0; b < b1 && !bail; b++) {
        int64_t base = b * B;
        int len = (int)(niter - base < B ? niter - base : B);
        double *accs = part + (size_t)b * (size_t)nsl;
        if (run_block(&S, base, len, RP, I, SC, accs, aa)) {
          bail = 1;
          break;
        }
        if (mode == 0) memcpy(res->d + base, RP[out_reg], (size_t)len * sizeof(double));
        else if (mode == FC_CHECK)
          for (int sl = 0; sl < nslots; sl++)
            memcpy(memo[sl] + base, RP[slot_reg[sl]], (size_t)len * sizeof(double));
        else if (mode == 1)
          accs[0] = block_sum(RP[out_reg], len); /* fc_sum's order */
      }
    }
    free(own.R); /* a file too large to keep, or of a thread beyond REGS_THREADS */
    free(own.I);
    free(own.RP);
    for (int v = 0; SC && v < S.nscr; v++) free(SC[v]);
    free(SC);
  }
  double t_run = dbg_time ? cpu_now() : 0;
  int rc = 1;
  if (bail) {
    fast_stats_.bailouts++;
    rc = 0;
  } else if (mode == 0) {
    *out = &res->base;
  } else if (mode == 1) {
    double s = 0;
    for (int64_t b = 0; b < nb; b++) s += part[(size_t)b * (size_t)nsl];
    const value *v = v_real(h, s);
    if (!v) rc = -1;
    *out = v;
  } else if (mode == 2 && rows) {
    value *arr = v_array(h, n);
    fv_rarr *hd = arr ? heap_alloc(h, (size_t)n * sizeof *hd) : NULL;
    if (!hd) rc = -1;
    for (int64_t i = 0; rc == 1 && i < n; i++) {
      hd[i].base.kind = rows_acc ? FV_ACC : FV_RARR;
      hd[i].base.u.arr.n = S.rows_len;
      hd[i].base.u.arr.elems = NULL;
      hd[i].d = S.rowsout + (size_t)i * (size_t)S.rows_len;
      arr->u.arr.elems[i] = &hd[i].base;
    }
    if (rc == 1) *out = arr;
  } else if (mode == 2) {
    fv_delay *dl = heap_alloc(h, sizeof *dl);
    if (!dl) rc = -1;
    else {
      dl->base.kind = FV_DELAY;
      dl->base.u.arr.n = n;
      dl->base.u.arr.elems = NULL;
      dl->body = body;
      dl->env = e;
      dl->src = kind == TM_MAP ? arr : NULL;
      dl->ncalls = nslots > 0 ? S.nrec : 0;
      dl->memo_of = memo_of;
      dl->memo = memo;
      dl->real = 0;
      dl->term = t;
      dl->forced = NULL;
      dl->snd_rows = NULL;
      *out = &dl->base;
    }
  } else {
    /* lsum: totals of the scalar slots (block order), arrays (thread order) */
    double *tot = calloc((size_t)nsl, sizeof *tot);
    const value **arrs = calloc((size_t)(S.nacc_a ? S.nacc_a : 1), sizeof *arrs);
    if (!tot || !arrs) rc = -1;
    for (int64_t b = 0; rc == 1 && b < nb; b++)
      for (int s = 0; s < S.nacc_s; s++) tot[s] += part[(size_t)b * (size_t)nsl + (size_t)s];
    for (int a = 0; rc == 1 && a < S.nacc_a; a++) {
      if (a < S.capslots && S.slot_len[a] > 0) { /* dense: threads' sums in thread order */
        int64_t L = S.slot_len[a];
        if (n == 0) { /* no iteration: the zero */
          arrs[a] = v_zero(h);
          continue;
        }
        fv_rarr *acc = fv_new_rarr(h, FV_RARR, L);
        if (!acc) {
          rc = -1;
          break;
        }
        memset(acc->d, 0, (size_t)L * sizeof(double));
        for (int th = 0; th < nthreads; th++) {
          const abuf *ab = &bufs[(size_t)th * (size_t)S.nacc_a + (size_t)a];
          for (int64_t j = 0; j < ab->max; j++) acc->d[j] += ab->d[j];
        }
        arrs[a] = &acc->base;
        continue;
      }
      if (S.stseq && S.stseq[a]) {
        fv_rarr *acc = heap_alloc(h, sizeof *acc);
        if (!acc) {
          rc = -1;
          break;
        }
        acc->base.kind = FV_ACC;
        acc->base.u.arr.n = n;
        acc->base.u.arr.elems = NULL;
        acc->d = S.stseq[a];
        arrs[a] = &acc->base;
        continue;
      }
      int64_t m = 0;
      for (int th = 0; th < nthreads; th++) {
        const abuf *ab = &bufs[(size_t)th * (size_t)S.nacc_a + (size_t)a];
        if (ab->max > m) m = ab->max;
        if (ab->wmax > m) m = ab->wmax;
      }
      if (m == 0) {
        arrs[a] = v_zero(h);
        continue;
      }
      if (shared && shared[a]) { /* the windows, then every thread's other indices */
        int64_t cap = slot_cap[a];
        if (m > cap) grow_hint_put(t, a, m);
        fv_rarr *acc = m <= cap ? heap_alloc(h, sizeof *acc) : fv_new_rarr(h, FV_ACC, m);
        if (!acc) {
          rc = -1;
          break;
        }
        if (m <= cap) {
          acc->d = shared[a];
        } else {
          memcpy(acc->d, shared[a], (size_t)cap * sizeof(double));
          memset(acc->d + cap, 0, (size_t)(m - cap) * sizeof(double));
        }
        acc->base.kind = FV_ACC;
        acc->base.u.arr.n = m;
        acc->base.u.arr.elems = NULL;
        for (int th = 0; th < nthreads; th++) {
          const abuf *ab = &bufs[(size_t)th * (size_t)S.nacc_a + (size_t)a];
          if (ab->max == 0) continue;
#pragma omp parallel for schedule(static) if (ab->max - ab->min >= fast_par_threshold_)
          for (int64_t j = ab->min; j < ab->max; j++) acc->d[j] += ab->d[j];
        }
        arrs[a] = &acc->base;
        continue;
      }
      /* no heap array: the threads' buffers, in thread order */
      fv_rarr *acc = fv_new_rarr(h, FV_ACC, m);
      if (!acc) {
        rc = -1;
        break;
      }
      const abuf *b0 = &bufs[(size_t)S.nacc_a * 0 + (size_t)a];
      if (b0->max > 0) memcpy(acc->d, b0->d, (size_t)b0->max * sizeof(double));
      memset(acc->d + b0->max, 0, (size_t)(m - b0->max) * sizeof(double));
      for (int th = 1; th < nthreads; th++) {
        const abuf *ab = &bufs[(size_t)th * (size_t)S.nacc_a + (size_t)a];
#pragma omp parallel for schedule(static) if (ab->max >= fast_par_threshold_)
        for (int64_t j = 0; j < ab->max; j++) acc->d[j] += ab->d[j];
      }
      arrs[a] = &acc->base;
    }
    /* rebuild the value by the type, consuming slots in acc_emit's order */
    if (rc == 1) {
      int si = 0, ai = 0, mi = 0;
      struct build_ctx bc = {h, tot, arrs, &si, &ai, &mi, 0, &S, n};
      *out = build_val(&bc, tm_type(t));
      if (!*out) rc = -1;
    }
    if (rc == 1 && snd_on) { /* snd X[i] as rows, for map snd X */
      value *ra = v_array(h, n);
      fv_rarr *hd = ra ? heap_alloc(h, (size_t)(n ? n : 1) * sizeof *hd) : NULL;
      if (!hd) rc = -1;
      for (int64_t i = 0; rc == 1 && i < n; i++) {
        hd[i].base.kind = rows_acc ? FV_ACC : FV_RARR;
        hd[i].base.u.arr.n = S.rows_len;
        hd[i].base.u.arr.elems = NULL;
        hd[i].d = S.rowsout + (size_t)i * (size_t)S.rows_len;
        ra->u.arr.elems[i] = &hd[i].base;
      }
      if (rc == 1) ((fv_delay *)(uintptr_t)pair_src)->snd_rows = ra;
    }
    free(tot);
    free(arrs);
  }
  if (bufs)
    for (size_t i = 0; i < (size_t)nthreads * (size_t)(S.nacc_a ? S.nacc_a : 1); i++)
      free(bufs[i].d);
  free(bufs);
  free(shared);
  free(slot_cap);
  free(part);
  free(slot_reg);
  if (rc == 1) fast_stats_.compiled_loops++;
  if (getenv("FAST_DEBUG"))
    fprintf(stderr, "fast: loop term %d: compile %.6f s, run %.6f s, result %.6f s (CPU of the calling thread)\n", t, t_compiled - t_start,
            t_run - t_compiled, cpu_now() - t_run);
  if (rc < 0) eval_oom(err);
  cstate_free(&S);
  return rc;
}

