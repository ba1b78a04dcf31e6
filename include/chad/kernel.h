/* CHAD-C kernel: types, contexts, the term arena, raw terms and the checker.
 *
 * This header is the narrow API between the proved kernel (src/kernel/) and
 * everything around it (parser, printer, evaluators, command line, tests).
 *
 * Design rules (they are what keeps the kernel provable, see
 * ../shared/proof-guide.md and proofs/README.md):
 *  - all kernel data lives in file-scope global arrays (arenas), never behind
 *    pointer parameters;
 *  - every arena entry's children sit at smaller indices;
 *  - functions return an index >= 0 on success and a negative CHAD_E_* code on
 *    failure; a failed call leaves every arena unchanged;
 *  - capacities are compile-time constants; running out is CHAD_E_CAPACITY.
 *
 * Outside the kernel, code reads the arenas through the accessor functions
 * below and writes them only through the constructors.
 */
#ifndef CHAD_KERNEL_H
#define CHAD_KERNEL_H

#include <stdint.h>

/* ---- capacities ------------------------------------------------------- */
#define CHAD_MAX_TYPES 8192
#define CHAD_MAX_CTXS  65536
#define CHAD_MAX_TERMS 1048576
#define CHAD_MAX_RAW   1048576
#define CHAD_MAX_OPS   64

/* ---- error codes (all negative) ---------------------------------------- */
#define CHAD_E_CAPACITY (-1) /* an arena is full                          */
#define CHAD_E_TYPE     (-2) /* the typing rule of the request fails      */
#define CHAD_E_ARG      (-3) /* an index argument is out of range         */
#define CHAD_E_UNBOUND  (-4) /* de Bruijn index beyond the context        */
#define CHAD_E_DEPTH    (-5) /* recursion depth limit reached             */
#define CHAD_E_NOTE     (-6) /* a term needs a type annotation            */

/* ======================================================================= */
/* Types: one table for source and target types, hash-consed, so that two  */
/* types are structurally equal iff their indices are equal.               */
/* ======================================================================= */
enum ty_kind {
  TY_REAL = 0, /* R                                                       */
  TY_INT,      /* Z                                                       */
  TY_UNIT,     /* 1                                                       */
  TY_PROD,     /* left * right                                            */
  TY_SUM,      /* left + right                                            */
  TY_FUN,      /* left -> right (also the "power" tau -> L of the target) */
  TY_ARR,      /* Arr left (right unused, = -1)                           */
  TY_LFUN,     /* left -o right: linear functions (target only)           */
  TY_COPOW,    /* !left (x) right: copower, a bag of pairs (target only)  */
  TY_NKINDS
};

/* Fixed indices of the base types after ty_init(). */
#define TY_ID_REAL 0
#define TY_ID_INT  1
#define TY_ID_UNIT 2

extern int ty_count;
extern int ty_kind_[CHAD_MAX_TYPES];
extern int ty_left_[CHAD_MAX_TYPES];
extern int ty_right_[CHAD_MAX_TYPES];

void ty_init(void);                  /* empty table plus REAL, INT, UNIT    */
int ty_make(int kind, int left, int right); /* hash-consing constructor     */
int ty_prod(int a, int b);
int ty_sum(int a, int b);
int ty_fun(int a, int b);
int ty_arr(int a);
int ty_lfun(int a, int b);
int ty_copow(int a, int b);
int ty_equal(int a, int b);          /* 1 iff structurally equal            */
int ty_is_first_order(int t);        /* no ->, -o, copower inside           */
int ty_is_linear(int t);             /* has zero and plus (rules card §2)   */
int ty_is_tangent(int t, int s);     /* t first-order and s its tangent type */
int ty_kind(int t);
int ty_left(int t);
int ty_right(int t);

/* ======================================================================= */
/* Contexts: snoc lists of types, hash-consed. Context 0 is the empty one. */
/* de Bruijn index 0 is the innermost (last) entry.                        */
/* ======================================================================= */
#define CTX_EMPTY 0
extern int ctx_count;
extern int ctx_parent_[CHAD_MAX_CTXS]; /* -1 for the empty context */
extern int ctx_type_[CHAD_MAX_CTXS];   /* type of the last entry   */
extern int ctx_len_[CHAD_MAX_CTXS];

void ctx_init(void);
int ctx_extend(int g, int t);        /* (g, t)                              */
int ctx_lookup(int g, int k);        /* type of var k in g, or CHAD_E_UNBOUND */
int ctx_length(int g);
int ctx_parent(int g);
int ctx_last(int g);
int ctx_prefix(int g, int n);      /* g's prefix of length n, or CHAD_E_ARG */

/* ======================================================================= */
/* Primitive operations: the kernel knows only their signatures. The table */
/* with names, primal evaluation, Dop and DopT is src/primitives.c, which  */
/* registers each signature here at start-up (one entry per primitive).    */
/* Every op takes ONE argument; a k-ary op takes a k-tuple (nested pairs). */
/* ======================================================================= */
extern int op_count;
extern int op_dom_[CHAD_MAX_OPS];    /* argument type                       */
extern int op_cod_[CHAD_MAX_OPS];    /* result type                         */
extern int op_tdom_[CHAD_MAX_OPS];   /* tangent (= cotangent) type of dom   */
extern int op_tcod_[CHAD_MAX_OPS];   /* tangent (= cotangent) type of cod   */
/* op_alt_[o]: an op tried instead of o when the argument's type is not
 * op_dom_[o] (the integer version of an overloaded operator such as +), or -1.
 * The checker uses it; constructors never do. */
extern int op_alt_[CHAD_MAX_OPS];
void op_init(void);
/* op_register returns the op code, or CHAD_E_ARG unless dom and cod are
 * first-order and tdom, tcod their tangent types (ty_is_tangent), or
 * CHAD_E_CAPACITY. */
int op_register(int dom, int cod, int tdom, int tcod);
int op_set_alt(int op, int alt);

/* ======================================================================= */
/* Terms: an arena of well-typed nodes. Each node stores its context and   */
/* type; children have smaller indices. The only way to add a node is a    */
/* tm_* constructor, which checks the typing rule and returns CHAD_E_TYPE  */
/* (arena unchanged) when it fails. Invariant: every node is well typed.   */
/* ======================================================================= */
enum tm_kind {
  /* source language (rules card §1)                                       */
  TM_VAR = 0,  /* aux = de Bruijn index                                    */
  TM_LET,      /* a: bound term (G); b: body in (G, ty a)                  */
  TM_LAM,      /* a: body in (G, dom); ty = dom -> ty a                    */
  TM_APP,      /* a: function; b: argument                                 */
  TM_UNIT,
  TM_PAIR,     /* a, b                                                     */
  TM_FST,      /* a                                                        */
  TM_SND,      /* a                                                        */
  TM_INL,      /* a; ty = ty a + other                                     */
  TM_INR,      /* a; ty = other + ty a                                     */
  TM_CASE,     /* a: scrutinee l + r; b: in (G, l); c: in (G, r)          */
  TM_RCONST,   /* rval                                                     */
  TM_ICONST,   /* aux                                                      */
  TM_OP,       /* aux = op code; a: argument of type op_dom               */
  TM_ITER,     /* a: n : Int; b: body in (G, tau) : tau; c: init : tau     */
  TM_LOOP,     /* a: fuel n : Int; b: body in (G, tau) : tau + tau (inl:   */
               /* go on, inr: stop with the result); c: start : tau; ty tau*/
  TM_BUILD,    /* a: n : Int; b: body in (G, Int) : tau; ty = Arr tau      */
  TM_INDEX,    /* a: Arr tau; b: Int                                       */
  TM_LENGTH,   /* a: Arr tau; ty = Int                                     */
  TM_MAP,      /* a: body in (G, sigma) : rho; b: Arr sigma; ty = Arr rho  */
  TM_SUM,      /* a: Arr Real; ty = Real                                   */
  /* target language (rules card §2)                                       */
  TM_ZERO,     /* ty linear                                                */
  TM_PLUS,     /* a, b : L, L linear                                       */
  TM_LLAM,     /* a: body in (G, L1) : L2; ty = L1 -o L2                   */
  TM_LAPP,     /* a: L1 -o L2; b: L1                                       */
  TM_CP_SINGLE,/* a: tau; b: L; ty = !tau (x) L                            */
  TM_CP_FOLD,  /* a: !tau (x) L; b: body in ((G, tau), L) : L', L' linear  */
  TM_LSUM,     /* a: n : Int; b: body in (G, Int) : L, L linear            */
  TM_LOP_D,    /* aux = op; a: op_dom; b: op_tdom; ty = op_tcod  (Dop)     */
  TM_LOP_DT,   /* aux = op; a: op_dom; b: op_tcod; ty = op_tdom  (DopT)    */
  TM_ONEHOT,   /* a: j : Int; b: v : L; ty = Arr L (sparse, length-free)  */
  TM_NKINDS
};

extern int tm_count;
extern int tm_kind_[CHAD_MAX_TERMS];
extern int tm_ctx_[CHAD_MAX_TERMS];
extern int tm_ty_[CHAD_MAX_TERMS];
extern int tm_a_[CHAD_MAX_TERMS];   /* -1 when unused */
extern int tm_b_[CHAD_MAX_TERMS];
extern int tm_c_[CHAD_MAX_TERMS];
extern int64_t tm_aux_[CHAD_MAX_TERMS];
extern double tm_rval_[CHAD_MAX_TERMS];

void tm_init(void);
/* source */
int tm_var(int g, int k);
int tm_let(int bound, int body);
int tm_lam(int dom, int body);                /* body's ctx is (G, dom)     */
int tm_app(int f, int x);
int tm_unit(int g);
int tm_pair(int a, int b);
int tm_fst(int p);
int tm_snd(int p);
int tm_inl(int x, int right_ty);
int tm_inr(int left_ty, int x);
int tm_case(int scrut, int on_left, int on_right);
int tm_rconst(int g, double r);
int tm_iconst(int g, int64_t n);
int tm_op(int op, int arg);
int tm_iter(int n, int body, int init);
int tm_loop(int n, int body, int init);
int tm_build(int n, int body);
int tm_index(int arr, int i);
int tm_length(int arr);
int tm_map(int body, int arr);
int tm_sum(int arr);
/* target */
int tm_zero(int g, int ty);
int tm_plus(int a, int b);
int tm_llam(int dom, int body);
int tm_lapp(int f, int x);
int tm_cp_single(int x, int v);
int tm_cp_fold(int bag, int body);
int tm_lsum(int n, int body);
int tm_lop_d(int op, int x, int dx);
int tm_lop_dt(int op, int x, int v);
int tm_onehot(int j, int v);

/* read accessors (for code outside the kernel) */
int tm_kind(int t);
int tm_ctx(int t);
int tm_type(int t);
int tm_a(int t);
int tm_b(int t);
int tm_c(int t);
int64_t tm_aux(int t);
double tm_rval(int t);

/* ======================================================================= */
/* Raw terms: what the parser produces. de Bruijn indices, source          */
/* positions, optional type annotations; not yet typed. Kinds are the      */
/* source tm_kind values plus RAW_ANN. Children at smaller indices.        */
/* ======================================================================= */
#define RAW_ANN TM_NKINDS      /* a: term; ty: annotation                   */
extern int raw_count;
extern int raw_kind_[CHAD_MAX_RAW];
extern int raw_a_[CHAD_MAX_RAW];
extern int raw_b_[CHAD_MAX_RAW];
extern int raw_c_[CHAD_MAX_RAW];
extern int raw_ty_[CHAD_MAX_RAW];   /* annotation: lam's parameter type, the
                                       other side of inl/inr, RAW_ANN's type;
                                       -1 when absent                       */
extern int64_t raw_aux_[CHAD_MAX_RAW];
extern double raw_rval_[CHAD_MAX_RAW];
extern int raw_line_[CHAD_MAX_RAW];
extern int raw_col_[CHAD_MAX_RAW];

void raw_init(void);
int raw_add(int kind, int a, int b, int c, int ty, int64_t aux, double rval,
            int line, int col);

/* ======================================================================= */
/* Checker / elaborator: raw term -> arena, bidirectional.                 */
/* expected = -1 infers; otherwise checks against that type.               */
/* On failure the term arena is unchanged and chk_err_* says where & why.  */
/* ======================================================================= */
#define CHAD_MAX_CHECK_DEPTH 10000
extern int chk_err_code;     /* CHAD_E_*                                   */
extern int chk_err_raw;      /* offending raw node                         */
extern int chk_err_expected; /* expected type, or -1                       */
extern int chk_err_found;    /* found type, or -1                          */

int chk_elab(int raw, int g, int expected);

#endif
