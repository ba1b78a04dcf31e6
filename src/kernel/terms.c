/* The term arena. Every constructor checks the typing rule of its kind
 * (spec/kernel.md, predicate node_ok in proofs) against the stored contexts
 * and types of its children and appends one node, or returns a negative
 * CHAD_E_* code and leaves the arena unchanged. */
#include "chad/kernel.h"

int tm_count;
int tm_kind_[CHAD_MAX_TERMS];
int tm_ctx_[CHAD_MAX_TERMS];
int tm_ty_[CHAD_MAX_TERMS];
int tm_a_[CHAD_MAX_TERMS];
int tm_b_[CHAD_MAX_TERMS];
int tm_c_[CHAD_MAX_TERMS];
int64_t tm_aux_[CHAD_MAX_TERMS];
double tm_rval_[CHAD_MAX_TERMS];

void tm_init(void) { tm_count = 0; }

static int tm_push(int kind, int g, int ty, int a, int b, int c, int64_t aux,
                   double r)
{
  int n = tm_count;
  tm_kind_[n] = kind;
  tm_ctx_[n] = g;
  tm_ty_[n] = ty;
  tm_a_[n] = a;
  tm_b_[n] = b;
  tm_c_[n] = c;
  tm_aux_[n] = aux;
  tm_rval_[n] = r;
  tm_count = n + 1;
  return n;
}

static int tm_ok(int t) { return 0 <= t && t < tm_count; }
static int ctx_ok(int g) { return 0 <= g && g < ctx_count; }
static int ty_ok(int t) { return 0 <= t && t < ty_count; }
static int op_ok(int o) { return 0 <= o && o < op_count; }
static int full(void) { return tm_count >= CHAD_MAX_TERMS; }

/* Is context e the extension (g, t)? */
static int ctx_is_ext(int e, int g, int t)
{
  return 0 < e && e < ctx_count && ctx_parent_[e] == g && ctx_type_[e] == t;
}

int tm_var(int g, int k)
{
  if (!ctx_ok(g))
    return CHAD_E_ARG;
  int t = ctx_lookup(g, k);
  if (t < 0)
    return t;
  if (full())
    return CHAD_E_CAPACITY;
  return tm_push(TM_VAR, g, t, -1, -1, -1, k, 0.0);
}

int tm_let(int bound, int body)
{
  if (!tm_ok(bound) || !tm_ok(body))
    return CHAD_E_ARG;
  int g = tm_ctx_[bound];
  if (!ctx_is_ext(tm_ctx_[body], g, tm_ty_[bound]))
    return CHAD_E_TYPE;
  if (full())
    return CHAD_E_CAPACITY;
  return tm_push(TM_LET, g, tm_ty_[body], bound, body, -1, 0, 0.0);
}

/* lam and llam: the body lives in (G, dom); the node in G. */
static int tm_lam_kind(int kind, int tykind, int dom, int body)
{
  if (!ty_ok(dom) || !tm_ok(body))
    return CHAD_E_ARG;
  int e = tm_ctx_[body];
  if (e <= 0 || e >= ctx_count || ctx_type_[e] != dom)
    return CHAD_E_TYPE;
  if (kind == TM_LLAM && !ty_is_linear(tm_ty_[body]))
    return CHAD_E_TYPE;
  if (full())
    return CHAD_E_CAPACITY;
  int t = ty_make(tykind, dom, tm_ty_[body]);
  if (t < 0)
    return t;
  return tm_push(kind, ctx_parent_[e], t, body, -1, -1, 0, 0.0);
}

int tm_lam(int dom, int body) { return tm_lam_kind(TM_LAM, TY_FUN, dom, body); }
int tm_llam(int dom, int body) { return tm_lam_kind(TM_LLAM, TY_LFUN, dom, body); }

/* app and lapp: f : dom => cod (FUN or LFUN), x : dom, same context. */
static int tm_app_kind(int kind, int tykind, int f, int x)
{
  if (!tm_ok(f) || !tm_ok(x))
    return CHAD_E_ARG;
  int tf = tm_ty_[f];
  if (tm_ctx_[f] != tm_ctx_[x] || ty_kind_[tf] != tykind ||
      ty_left_[tf] != tm_ty_[x])
    return CHAD_E_TYPE;
  if (full())
    return CHAD_E_CAPACITY;
  return tm_push(kind, tm_ctx_[f], ty_right_[tf], f, x, -1, 0, 0.0);
}

int tm_app(int f, int x) { return tm_app_kind(TM_APP, TY_FUN, f, x); }
int tm_lapp(int f, int x) { return tm_app_kind(TM_LAPP, TY_LFUN, f, x); }

int tm_unit(int g)
{
  if (!ctx_ok(g))
    return CHAD_E_ARG;
  if (full())
    return CHAD_E_CAPACITY;
  return tm_push(TM_UNIT, g, TY_ID_UNIT, -1, -1, -1, 0, 0.0);
}

/* Two children in one context, combined into a type of kind tykind. Used by
 * pair (PROD) and cp_single (COPOW, second component linear). */
static int tm_two(int kind, int tykind, int a, int b)
{
  if (!tm_ok(a) || !tm_ok(b))
    return CHAD_E_ARG;
  if (tm_ctx_[a] != tm_ctx_[b])
    return CHAD_E_TYPE;
  if (kind == TM_CP_SINGLE && !ty_is_linear(tm_ty_[b]))
    return CHAD_E_TYPE;
  if (full())
    return CHAD_E_CAPACITY;
  int t = ty_make(tykind, tm_ty_[a], tm_ty_[b]);
  if (t < 0)
    return t;
  return tm_push(kind, tm_ctx_[a], t, a, b, -1, 0, 0.0);
}

int tm_pair(int a, int b) { return tm_two(TM_PAIR, TY_PROD, a, b); }
int tm_cp_single(int x, int v) { return tm_two(TM_CP_SINGLE, TY_COPOW, x, v); }

static int tm_proj(int kind, int p)
{
  if (!tm_ok(p))
    return CHAD_E_ARG;
  int tp = tm_ty_[p];
  if (ty_kind_[tp] != TY_PROD)
    return CHAD_E_TYPE;
  if (full())
    return CHAD_E_CAPACITY;
  return tm_push(kind, tm_ctx_[p], kind == TM_FST ? ty_left_[tp] : ty_right_[tp],
                 p, -1, -1, 0, 0.0);
}

int tm_fst(int p) { return tm_proj(TM_FST, p); }
int tm_snd(int p) { return tm_proj(TM_SND, p); }

int tm_inl(int x, int right_ty)
{
  if (!tm_ok(x) || !ty_ok(right_ty))
    return CHAD_E_ARG;
  if (full())
    return CHAD_E_CAPACITY;
  int t = ty_make(TY_SUM, tm_ty_[x], right_ty);
  if (t < 0)
    return t;
  return tm_push(TM_INL, tm_ctx_[x], t, x, -1, -1, 0, 0.0);
}

int tm_inr(int left_ty, int x)
{
  if (!tm_ok(x) || !ty_ok(left_ty))
    return CHAD_E_ARG;
  if (full())
    return CHAD_E_CAPACITY;
  int t = ty_make(TY_SUM, left_ty, tm_ty_[x]);
  if (t < 0)
    return t;
  return tm_push(TM_INR, tm_ctx_[x], t, x, -1, -1, 0, 0.0);
}

int tm_case(int scrut, int on_left, int on_right)
{
  if (!tm_ok(scrut) || !tm_ok(on_left) || !tm_ok(on_right))
    return CHAD_E_ARG;
  int g = tm_ctx_[scrut];
  int ts = tm_ty_[scrut];
  if (ty_kind_[ts] != TY_SUM ||
      !ctx_is_ext(tm_ctx_[on_left], g, ty_left_[ts]) ||
      !ctx_is_ext(tm_ctx_[on_right], g, ty_right_[ts]) ||
      tm_ty_[on_left] != tm_ty_[on_right])
    return CHAD_E_TYPE;
  if (full())
    return CHAD_E_CAPACITY;
  return tm_push(TM_CASE, g, tm_ty_[on_left], scrut, on_left, on_right, 0, 0.0);
}

int tm_rconst(int g, double r)
{
  if (!ctx_ok(g))
    return CHAD_E_ARG;
  if (full())
    return CHAD_E_CAPACITY;
  return tm_push(TM_RCONST, g, TY_ID_REAL, -1, -1, -1, 0, r);
}

int tm_iconst(int g, int64_t n)
{
  if (!ctx_ok(g))
    return CHAD_E_ARG;
  if (full())
    return CHAD_E_CAPACITY;
  return tm_push(TM_ICONST, g, TY_ID_INT, -1, -1, -1, n, 0.0);
}

int tm_op(int op, int arg)
{
  if (!op_ok(op) || !tm_ok(arg))
    return CHAD_E_ARG;
  if (tm_ty_[arg] != op_dom_[op])
    return CHAD_E_TYPE;
  if (full())
    return CHAD_E_CAPACITY;
  return tm_push(TM_OP, tm_ctx_[arg], op_cod_[op], arg, -1, -1, op, 0.0);
}

int tm_iter(int n, int body, int init)
{
  if (!tm_ok(n) || !tm_ok(body) || !tm_ok(init))
    return CHAD_E_ARG;
  int g = tm_ctx_[n];
  int t = tm_ty_[init];
  if (tm_ty_[n] != TY_ID_INT || tm_ctx_[init] != g ||
      !ctx_is_ext(tm_ctx_[body], g, t) || tm_ty_[body] != t)
    return CHAD_E_TYPE;
  if (full())
    return CHAD_E_CAPACITY;
  return tm_push(TM_ITER, g, t, n, body, init, 0, 0.0);
}

/* build and lsum: n : Int, body in (G, Int). */
int tm_build(int n, int body)
{
  if (!tm_ok(n) || !tm_ok(body))
    return CHAD_E_ARG;
  int g = tm_ctx_[n];
  if (tm_ty_[n] != TY_ID_INT || !ctx_is_ext(tm_ctx_[body], g, TY_ID_INT))
    return CHAD_E_TYPE;
  if (full())
    return CHAD_E_CAPACITY;
  int t = ty_make(TY_ARR, tm_ty_[body], -1);
  if (t < 0)
    return t;
  return tm_push(TM_BUILD, g, t, n, body, -1, 0, 0.0);
}

int tm_lsum(int n, int body)
{
  if (!tm_ok(n) || !tm_ok(body))
    return CHAD_E_ARG;
  int g = tm_ctx_[n];
  if (tm_ty_[n] != TY_ID_INT || !ctx_is_ext(tm_ctx_[body], g, TY_ID_INT) ||
      !ty_is_linear(tm_ty_[body]))
    return CHAD_E_TYPE;
  if (full())
    return CHAD_E_CAPACITY;
  return tm_push(TM_LSUM, g, tm_ty_[body], n, body, -1, 0, 0.0);
}

int tm_index(int arr, int i)
{
  if (!tm_ok(arr) || !tm_ok(i))
    return CHAD_E_ARG;
  int ta = tm_ty_[arr];
  if (ty_kind_[ta] != TY_ARR || tm_ty_[i] != TY_ID_INT ||
      tm_ctx_[arr] != tm_ctx_[i])
    return CHAD_E_TYPE;
  if (full())
    return CHAD_E_CAPACITY;
  return tm_push(TM_INDEX, tm_ctx_[arr], ty_left_[ta], arr, i, -1, 0, 0.0);
}

int tm_length(int arr)
{
  if (!tm_ok(arr))
    return CHAD_E_ARG;
  if (ty_kind_[tm_ty_[arr]] != TY_ARR)
    return CHAD_E_TYPE;
  if (full())
    return CHAD_E_CAPACITY;
  return tm_push(TM_LENGTH, tm_ctx_[arr], TY_ID_INT, arr, -1, -1, 0, 0.0);
}

int tm_map(int body, int arr)
{
  if (!tm_ok(body) || !tm_ok(arr))
    return CHAD_E_ARG;
  int g = tm_ctx_[arr];
  int ta = tm_ty_[arr];
  if (ty_kind_[ta] != TY_ARR || !ctx_is_ext(tm_ctx_[body], g, ty_left_[ta]))
    return CHAD_E_TYPE;
  if (full())
    return CHAD_E_CAPACITY;
  int t = ty_make(TY_ARR, tm_ty_[body], -1);
  if (t < 0)
    return t;
  return tm_push(TM_MAP, g, t, body, arr, -1, 0, 0.0);
}

int tm_sum(int arr)
{
  if (!tm_ok(arr))
    return CHAD_E_ARG;
  int ta = tm_ty_[arr];
  if (ty_kind_[ta] != TY_ARR || ty_left_[ta] != TY_ID_REAL)
    return CHAD_E_TYPE;
  if (full())
    return CHAD_E_CAPACITY;
  return tm_push(TM_SUM, tm_ctx_[arr], TY_ID_REAL, arr, -1, -1, 0, 0.0);
}

int tm_zero(int g, int ty)
{
  if (!ctx_ok(g) || !ty_ok(ty))
    return CHAD_E_ARG;
  if (!ty_is_linear(ty))
    return CHAD_E_TYPE;
  if (full())
    return CHAD_E_CAPACITY;
  return tm_push(TM_ZERO, g, ty, -1, -1, -1, 0, 0.0);
}

int tm_plus(int a, int b)
{
  if (!tm_ok(a) || !tm_ok(b))
    return CHAD_E_ARG;
  if (tm_ctx_[a] != tm_ctx_[b] || tm_ty_[a] != tm_ty_[b] ||
      !ty_is_linear(tm_ty_[a]))
    return CHAD_E_TYPE;
  if (full())
    return CHAD_E_CAPACITY;
  return tm_push(TM_PLUS, tm_ctx_[a], tm_ty_[a], a, b, -1, 0, 0.0);
}

int tm_cp_fold(int bag, int body)
{
  if (!tm_ok(bag) || !tm_ok(body))
    return CHAD_E_ARG;
  int g = tm_ctx_[bag];
  int tb = tm_ty_[bag];
  int e = tm_ctx_[body];
  if (ty_kind_[tb] != TY_COPOW || e <= 0 || e >= ctx_count ||
      ctx_type_[e] != ty_right_[tb] ||
      !ctx_is_ext(ctx_parent_[e], g, ty_left_[tb]) ||
      !ty_is_linear(tm_ty_[body]))
    return CHAD_E_TYPE;
  if (full())
    return CHAD_E_CAPACITY;
  return tm_push(TM_CP_FOLD, g, tm_ty_[body], bag, body, -1, 0, 0.0);
}

/* Dop(x; dx) : tcod with dx : tdom, and DopT(x; v) : tdom with v : tcod. */
static int tm_lop(int kind, int op, int x, int d)
{
  if (!op_ok(op) || !tm_ok(x) || !tm_ok(d))
    return CHAD_E_ARG;
  int din = kind == TM_LOP_D ? op_tdom_[op] : op_tcod_[op];
  int dout = kind == TM_LOP_D ? op_tcod_[op] : op_tdom_[op];
  if (tm_ctx_[x] != tm_ctx_[d] || tm_ty_[x] != op_dom_[op] || tm_ty_[d] != din)
    return CHAD_E_TYPE;
  if (full())
    return CHAD_E_CAPACITY;
  return tm_push(kind, tm_ctx_[x], dout, x, d, -1, op, 0.0);
}

int tm_lop_d(int op, int x, int dx) { return tm_lop(TM_LOP_D, op, x, dx); }
int tm_lop_dt(int op, int x, int v) { return tm_lop(TM_LOP_DT, op, x, v); }

int tm_onehot(int j, int v)
{
  if (!tm_ok(j) || !tm_ok(v))
    return CHAD_E_ARG;
  if (tm_ctx_[j] != tm_ctx_[v] || tm_ty_[j] != TY_ID_INT ||
      !ty_is_linear(tm_ty_[v]))
    return CHAD_E_TYPE;
  if (full())
    return CHAD_E_CAPACITY;
  int t = ty_make(TY_ARR, tm_ty_[v], -1);
  if (t < 0)
    return t;
  return tm_push(TM_ONEHOT, tm_ctx_[j], t, j, v, -1, 0, 0.0);
}

int tm_kind(int t) { return tm_ok(t) ? tm_kind_[t] : CHAD_E_ARG; }
int tm_ctx(int t) { return tm_ok(t) ? tm_ctx_[t] : CHAD_E_ARG; }
int tm_type(int t) { return tm_ok(t) ? tm_ty_[t] : CHAD_E_ARG; }
int tm_a(int t) { return tm_ok(t) ? tm_a_[t] : CHAD_E_ARG; }
int tm_b(int t) { return tm_ok(t) ? tm_b_[t] : CHAD_E_ARG; }
int tm_c(int t) { return tm_ok(t) ? tm_c_[t] : CHAD_E_ARG; }
int64_t tm_aux(int t) { return tm_ok(t) ? tm_aux_[t] : CHAD_E_ARG; }
double tm_rval(int t) { return tm_ok(t) ? tm_rval_[t] : 0.0; }
