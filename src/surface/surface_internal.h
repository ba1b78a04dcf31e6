/* Internal representation shared by the surface parser, the lowering to raw
 * terms and the printer. Not part of the public API (see chad/surface.h). */
#ifndef CHAD_SURFACE_INTERNAL_H
#define CHAD_SURFACE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "chad/diag.h"
#include "chad/kernel.h"
#include "chad/surface.h"

/* ---- a region allocator: everything of one program is freed at once ---- */
typedef struct surf_chunk {
  struct surf_chunk *next;
  size_t used, cap;
  max_align_t data[]; /* aligned storage */
} surf_chunk;

typedef struct {
  surf_chunk *first;
  size_t total;   /* bytes of all chunks: at most SURF_MAX_PARSE_MEM */
  int over;       /* an allocation was refused for that limit        */
} surf_region;

void *surf_alloc(surf_region *r, size_t bytes); /* zeroed; NULL when OOM */
void surf_region_free(surf_region *r);

/* ---- surface types ------------------------------------------------------ */
/* kind is a TY_* of kernel.h (REAL INT UNIT PROD SUM FUN ARR). */
typedef struct stype {
  int kind;
  struct stype *l, *r; /* r unused for ARR */
  int line, col;
} stype;

/* ---- the resolved, desugared expression tree ----------------------------- */
/* A binder: a variable introduced by let/fun/case/iter/build/map, a def's
 * parameter or a hidden binder made by a desugaring. Variables point at their
 * binder; lowering assigns each binder its de Bruijn level when it enters
 * scope, so desugarings may add binders without renumbering anything. */
typedef struct sbinder {
  const char *name; /* NULL: hidden (made by a desugaring, or `_`) */
  int level;
} sbinder;

/* Node kinds: the raw kinds TM_VAR .. TM_SUM and RAW_ANN, plus: */
#define SN_DEFREF (RAW_ANN + 1) /* a use of an earlier def: aux = def index */

/* Roles: which surface construct made a node (for error messages). */
enum surf_role {
  ROLE_PLAIN = 0,
  ROLE_OPERATOR,    /* OP / PAIR made for an infix or prefix operator       */
  ROLE_PRIM_CALL,   /* OP / PAIR made for a named primitive call            */
  ROLE_COND,        /* CASE made for if / && / || / not                     */
  ROLE_ARRAY_LIT,   /* nodes made for an array literal                      */
  ROLE_ETA,         /* LAM / APP made by eta-expansion                      */
  ROLE_LET_PAIR,    /* LET / FST / SND made for let (a, b) = e              */
  ROLE_DEF_RESULT,  /* ANN of a def's declared result type                  */
  ROLE_PARAM_ANN,   /* ANN carrying the parameter annotation of iter / map  */
  ROLE_KW_FUN,      /* LAM made for a keyword (fst, snd, sum, length, inl, inr) or a
                       library word (reverse, concat, ...) used as a function */
};

typedef struct snode {
  int kind;
  int line, col;
  int depth;                /* 1 + max depth of the children              */
  int role;
  const char *what;         /* operator or primitive spelling, for errors */
  struct snode *a, *b, *c;
  sbinder *ba, *bb, *bc;    /* binder in scope in child a / b / c         */
  stype *ty;                /* annotation: lam param, inl/inr other, ANN  */
  stype *ty2;               /* CP_FOLD: the annotation of its 2nd binder  */
  int eta_op, eta_side;     /* LAM made by eta-expanding a primitive:
                               its parameter type comes from op_dom_      */
  int64_t aux;              /* ICONST value, OP code, DEFREF index        */
  double rval;
  sbinder *var;             /* VAR                                        */
} snode;

typedef struct sdef {
  const char *name;
  int line, col;
  int nparams;
  sbinder **params;
  stype **ptypes;
  stype *result;            /* NULL when not declared                     */
  snode *body;
  int target;               /* uses the target language (lower.c then
                               elaborates it with target.c)               */
  int nuses;                /* earlier defs used directly by the body     */
  int *uses;
} sdef;

struct surf_program {
  char file[256];
  surf_region mem;
  int ndefs, cap;
  sdef *defs;               /* malloc'd array (grows while parsing)       */
  /* open-addressing index of the defs' names (-1: empty), hcap a power of
   * two at least twice ndefs: a name is found in constant expected time,
   * so a file of many defs parses in linear time */
  int *hidx, hcap;
};

/* Kernel type of a surface type; on failure a negative CHAD_E_* code and,
 * when d is not NULL, an input diagnostic at the offending type. */
int surf_type_to_kernel(const stype *t, const char *file, chad_diag *d);

/* Sets the positions surf_term_position reports: those of the terms in
 * [lo, tm_count) listed in tlc as n triples (term, line, col); used by
 * target.c, whose elaboration has no raw tree to walk. */
void surf_positions_set(int lo, int n, const int *tlc);

/* Elaboration of def k when it or a def it uses has target syntax
 * (target.c): need[j] marks the defs to let-bind, g is def k's context,
 * result its declared result type or -1. */
int surf_elab_target(const surf_program *p, int k, const char *need, int g, int result, int *term,
                     chad_diag *d);

/* Keyword test used by the printer to avoid making names that do not parse
 * back as variables. */
int surf_is_keyword(const char *s);

#endif
