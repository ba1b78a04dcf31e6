/* Private helpers shared by the CHAD transformation modules (src/chad/).
 *
 * b_* are the kernel constructors with error propagation: a negative
 * argument (an earlier failure) is returned unchanged, so a rule can be
 * written as one expression and checked once. The kernel still checks every
 * typing rule.
 *
 * The variable environment maps each SOURCE de Bruijn index to a position in
 * the TARGET context (a level, counted from the outermost entry), so the
 * translation of a subterm is emitted directly in a target context extended
 * by the transformation's own let-binders, without weakening or copying.
 * An environment is a frame: `idlen` identity entries (source var k beyond the
 * pushed ones maps to level idlen-1-k') below entries pushed on a global
 * stack. (The simplifier has its own persistent environment, simplify.c.)
 */
#ifndef CHAD_INTERNAL_H
#define CHAD_INTERNAL_H

#include "chad/kernel.h"

#define CHAD_MAX_DEPTH 4000   /* recursion depth limit of every pass       */
#define CHAD_ENV_CAP   (CHAD_MAX_DEPTH * 4 + 64)

int b_var(int d, int lvl);            /* the variable at level lvl of ctx d */
int b_let(int bound, int body);
int b_lam(int dom, int body);
int b_app(int f, int x);
int b_unit(int d);
int b_pair(int a, int b);
int b_fst(int p);
int b_snd(int p);
int b_inl(int x, int right_ty);
int b_inr(int left_ty, int x);
int b_proj(int p, int side);           /* fst p, or snd p when side != 0      */
int b_pair_side(int x, int y, int side); /* (x, y), or (y, x) when side != 0 */
int b_inj(int x, int other, int side);  /* inl x, or inr x when side != 0     */
int b_case(int s, int l, int r);
int b_op(int op, int a);
int b_iter(int n, int body, int init);
int b_loop(int n, int body, int init);
int b_build(int n, int body);
int b_index(int a, int i);
int b_length(int a);
int b_map(int body, int a);
int b_sum(int a);
int b_zero(int d, int ty);
int b_plus(int a, int b);
int b_llam(int dom, int body);
int b_lapp(int f, int x);
int b_cp_single(int x, int v);
int b_cp_fold(int bag, int body);
int b_lsum(int n, int body);
int b_lop_d(int op, int x, int dx);
int b_lop_dt(int op, int x, int v);
int b_onehot(int j, int v);
int b_ext(int d, int ty);             /* ctx_extend with propagation        */
int b_lvl(int d);                     /* level the next binder of d gets    */
/* sharing.c: b_ext with the environment frame, and
 * let p in let q in ((fst p, fst q), lin), the tail of F(pair) and R(pair) */
int k_ext(int d, int ty);
/* P t = t and T t = C t = s for a first-order t with tangent s (ty_tan_):
 * a primitive's signature under the translations (ghost lemma function) */
/*@ ghost void fo_tr_lemma(int m, int t, int s); */
int let_pair_tail(int p, int q, int d2, int lp, int lq, int lin)
  /*@ ghost (int d, int d1, int pt, int pa, int pb, int ct, int cg) */;
/* let p in let x = fst p in let q in (fst q, lin), the tail of F(let) and R(let) */
int let_let_tail(int p, int q, int d1, int d3, int lp, int lq, int lin)
  /*@ ghost (int d, int d2, int pa, int pt, int ct, int cg) */;
/* let p in let q in (fst p [fst q], lin), the tail of F(index) and R(index) */
int let_index_tail(int p, int q, int d2, int lp, int lq, int lin)
  /*@ ghost (int d, int d1, int pt, int pa, int ct, int cg) */;
/* (fst p) (fst q), the primal of F(app) and R(app) */
int app_primal(int d2, int lp, int lq)
  /*@ ghost (int pf, int ps, int typ, int tyq) */;
/* let p in let q in let r in (fst r, lin), the tail of F(app) and R(app) */
int let_app_tail(int p, int q, int r, int d3, int lr, int lin)
  /*@ ghost (int d, int d1, int d2, int pt, int ct, int cg) */;
/* let p in (prim, lam), the tail of the one-child rules of F and R */
int let_unary_tail(int p, int prim, int lam)
  /*@ ghost (int d, int d1, int pt, int ct, int cg) */;
/* let p in case fst p of inl -> br0 | inr -> br1, the tail of F(case) and R(case) */
int case_tail(int p, int d1, int lp, int br0, int br1)
  /*@ ghost (int d, int ps) */;
/* let pn in let ps in iter (fst pn) (s. let x = fst s in let q in (fst q, lin)) ps,
 * the tail of F(iter) and R(iter) */
int iter_tail(int pn, int ps, int q, int lin, int d2, int e1, int e3, int ln, int ls, int lc, int lq)
  /*@ ghost (int d, int d1, int e2, int pt, int ct, int cg) */;
/* let pn in let ps in loop (fst pn) (s. let x = fst s in let q in cs) ps,
 * the tail of F(loop) and R(loop) */
int loop_tail(int pn, int ps, int q, int cs, int d2, int e1, int ln, int ls, int lc)
  /*@ ghost (int d, int d1, int e2, int e3, int pt) */;
/* build m (i. fst ps[i]), the primal of F(build) and R(build) */
int build_primal(int d3, int lm, int lps)
  /*@ ghost (int aq, int q, int pt) */;
/* f x, the application of F(lam) and R(lam) */
int lam_apply(int e1, int lf, int lx)
  /*@ ghost (int tyf, int psg, int tyq) */;
/* let r in (fst r, inner), the body of F(lam)'s and R(lam)'s primal */
int lam_pair_let(int r, int e2, int lr, int inner)
  /*@ ghost (int e1, int tyq, int pt, int rr, int rp) */;
/* map (z. fst z) ps, the primal of F(map) and R(map) */
int map_primal(int d3, int lps, int q)
  /*@ ghost (int aq, int pt) */;
/* let pn in let m = fst pn in let ps in (prim, lin), the tail of F(build),
 * R(build), F(map) and R(map) (m : tm, Int for build) */
int let_build_tail(int pn, int ps, int prim, int lin, int d1, int ln)
  /*@ ghost (int d, int d2, int d3, int tm, int tp, int ct, int cg) */;

/* ---- variable environment -------------------------------------------- */
enum { ENV_LEVEL = 0, ENV_TERM = 1 };
typedef struct venv_frame { int base; int idlen; } venv_frame;
extern venv_frame venv_cur;
/* the stack (build.c); read by the specification (chad_spec.h) */
extern int venv_kind_[CHAD_ENV_CAP];
extern int venv_val_[CHAD_ENV_CAP];
extern int venv_sp;
/* Starts a frame whose unpushed variables are the identity on idlen levels;
 * returns the previous frame (restore it with venv_restore). */
venv_frame venv_open(int idlen);
void venv_restore(venv_frame f);
int venv_push(int kind, int val);      /* 0 or CHAD_E_DEPTH                  */
void venv_pop(void);
/* Looks up source variable k: sets *kind, returns the level or term id, or
 * CHAD_E_UNBOUND. */
int venv_lookup(int k, int *kind);

/* ---- type translations without the staleness check (types.c) ----------
 * chad_sync() (called by every public entry point) clears the memo tables:
 * the kernel's tables may have been reset since they were filled. */
void chad_sync(void);
/* mode-m translation memo tables: 0 = not computed, else id + 1 */
extern int chad_memo_ty_[4][CHAD_MAX_TYPES];
/* mode m's memoised translation of t, or CHAD_E_UNBOUND (types.c) */
int memo_ty_get(int m, int t);
extern int chad_memo_ctx_[4][CHAD_MAX_CTXS];
int tr_ty(int mode, int ty);
int tr_ctx(int mode, int g);
/* fills the ghost source columns (src_inv); compiles to nothing */
void chad_src_columns(void);

/* ---- context tuples (types.c) ------------------------------------------ */
/* proj_k v = snd (fst^k v) for a tangent tuple v : T G */
int chad_proj_tuple(int v, int k) /*@ ghost (int g, int m) */;
/* onehot_k v : C G with v : C (type of var k of g) at position k, in v's ctx */
int chad_onehot_tuple(int v, int g, int k);

#endif
