/* Kernel constructors with error propagation, and the variable environment
 * used by the forward and reverse translations and by the simplifier. */
#include "chad/kernel.h"
#include "chad_internal.h"

#define NEG1(a) do { if ((a) < 0) return (a); } while (0)
#define NEG2(a, b) do { NEG1(a); NEG1(b); } while (0)
#define NEG3(a, b, c) do { NEG1(a); NEG1(b); NEG1(c); } while (0)

int b_lvl(int d) { return d < 0 ? d : ctx_length(d); }

int b_var(int d, int lvl)
{
  NEG2(d, lvl);
  int n = ctx_length(d);
  NEG1(n);
  if (lvl >= n)
    return CHAD_E_UNBOUND;
  return tm_var(d, n - 1 - lvl);
}

/* ctx_extend is a linear search in the kernel (simple to prove); the
 * transformations extend contexts a few times per rule, so a cache keyed by
 * (d, ty) keeps them linear. An entry is trusted only if the kernel still
 * says so (parent and last type match), so a reset arena cannot fool it. */
#define EXT_CACHE (1 << 16)
static int ext_d_[EXT_CACHE], ext_t_[EXT_CACHE], ext_r_[EXT_CACHE];

int b_ext(int d, int ty)
{
  NEG2(d, ty);
  unsigned h = ((unsigned)d * 2654435761u ^ (unsigned)ty * 40503u) & (EXT_CACHE - 1);
  int r = ext_r_[h];
  if (r > 0 && ext_d_[h] == d && ext_t_[h] == ty && r < ctx_count &&
      ctx_parent(r) == d && ctx_last(r) == ty)
    return r;
  r = ctx_extend(d, ty);
  if (r > 0) {
    ext_d_[h] = d;
    ext_t_[h] = ty;
    ext_r_[h] = r;
  }
  return r;
}
int b_let(int a, int b) { NEG2(a, b); return tm_let(a, b); }
int b_lam(int dom, int body) { NEG2(dom, body); return tm_lam(dom, body); }
int b_app(int f, int x) { NEG2(f, x); return tm_app(f, x); }
int b_unit(int d) { NEG1(d); return tm_unit(d); }
int b_pair(int a, int b) { NEG2(a, b); return tm_pair(a, b); }
int b_fst(int p) { NEG1(p); return tm_fst(p); }
int b_snd(int p) { NEG1(p); return tm_snd(p); }
int b_inl(int x, int r) { NEG2(x, r); return tm_inl(x, r); }
int b_inr(int l, int x) { NEG2(l, x); return tm_inr(l, x); }
int b_case(int s, int l, int r) { NEG3(s, l, r); return tm_case(s, l, r); }
int b_op(int op, int a) { NEG2(op, a); return tm_op(op, a); }
int b_iter(int n, int body, int init) { NEG3(n, body, init); return tm_iter(n, body, init); }
int b_build(int n, int body) { NEG2(n, body); return tm_build(n, body); }
int b_index(int a, int i) { NEG2(a, i); return tm_index(a, i); }
int b_length(int a) { NEG1(a); return tm_length(a); }
int b_map(int body, int a) { NEG2(body, a); return tm_map(body, a); }
int b_sum(int a) { NEG1(a); return tm_sum(a); }
int b_zero(int d, int ty) { NEG2(d, ty); return tm_zero(d, ty); }
int b_plus(int a, int b) { NEG2(a, b); return tm_plus(a, b); }
int b_llam(int dom, int body) { NEG2(dom, body); return tm_llam(dom, body); }
int b_lapp(int f, int x) { NEG2(f, x); return tm_lapp(f, x); }
int b_cp_single(int x, int v) { NEG2(x, v); return tm_cp_single(x, v); }
int b_cp_fold(int bag, int body) { NEG2(bag, body); return tm_cp_fold(bag, body); }
int b_lsum(int n, int body) { NEG2(n, body); return tm_lsum(n, body); }
int b_lop_d(int op, int x, int dx) { NEG3(op, x, dx); return tm_lop_d(op, x, dx); }
int b_lop_dt(int op, int x, int v) { NEG3(op, x, v); return tm_lop_dt(op, x, v); }
int b_onehot(int j, int v) { NEG2(j, v); return tm_onehot(j, v); }

/* ---- environment ------------------------------------------------------ */
static int venv_kind_[CHAD_ENV_CAP];
static int venv_val_[CHAD_ENV_CAP];
static int venv_sp;
venv_frame venv_cur;

venv_frame venv_open(int idlen)
{
  venv_frame old = venv_cur;
  venv_cur.base = venv_sp;
  venv_cur.idlen = idlen;
  return old;
}

void venv_restore(venv_frame f)
{
  venv_sp = venv_cur.base;
  venv_cur = f;
}

int venv_push(int kind, int val)
{
  if (venv_sp >= CHAD_ENV_CAP)
    return CHAD_E_DEPTH;
  venv_kind_[venv_sp] = kind;
  venv_val_[venv_sp] = val;
  venv_sp++;
  return 0;
}

void venv_pop(void)
{
  if (venv_sp > venv_cur.base)
    venv_sp--;
}

int venv_lookup(int k, int *kind)
{
  int pushed = venv_sp - venv_cur.base;
  if (k < 0)
    return CHAD_E_UNBOUND;
  if (k < pushed) {
    *kind = venv_kind_[venv_sp - 1 - k];
    return venv_val_[venv_sp - 1 - k];
  }
  k -= pushed;
  if (k >= venv_cur.idlen)
    return CHAD_E_UNBOUND;
  *kind = ENV_LEVEL;
  return venv_cur.idlen - 1 - k;
}

/* ---- size ---------------------------------------------------------------- */
#include "chad/chad.h"
static int size_stack_[CHAD_MAX_TERMS];

int64_t chad_term_size(int t)
{
  if (t < 0 || t >= tm_count)
    return CHAD_E_ARG;
  int64_t n = 0;
  int sp = 0;
  size_stack_[sp++] = t;
  while (sp > 0) {
    int u = size_stack_[--sp];
    n++;
    int ch[3] = {tm_a(u), tm_b(u), tm_c(u)};
    int k = tm_kind(u);
    if (k == TM_VAR || k == TM_ICONST || k == TM_RCONST || k == TM_UNIT || k == TM_ZERO)
      continue;
    for (int i = 0; i < 3; i++)
      if (ch[i] >= 0) {
        if (sp >= CHAD_MAX_TERMS)
          return CHAD_E_CAPACITY;
        size_stack_[sp++] = ch[i];
      }
  }
  return n;
}
