/* `chad export --to torch`: a definition as a Python module that computes
 * the same function with PyTorch tensors, written the way a PyTorch user
 * would (spec/export.md): reals are 0-d tensors, arrays of reals 1-d
 * tensors, other arrays lists, pairs tuples, sums ('inl', v) / ('inr', v),
 * functions closures; primitives are the torch ops of the same name
 * (torch.tanh, torch.sigmoid, torch.logsumexp, torch.maximum, ...).
 *
 * The elaborated source term is walked once. Each subterm becomes Python
 * statements that bind a fresh variable (administrative normal form), so
 * evaluation order is the program's; bodies of iter, build and map are
 * local functions, so a closure made in one iteration keeps its own
 * variables. Runtime checks the language has (array bounds, negative
 * lengths and counts, 64-bit integer overflow, integer division by zero)
 * are helpers of the module that raise ChadRuntimeError. */
#include "export/export.h"
#include "export/emit.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad/kernel.h"
#include "chad/primitives.h"

static int is_real(int ty) { return ty_kind(ty) == TY_REAL; }
static int is_real_array(int ty) { return ty_kind(ty) == TY_ARR && is_real(ty_left(ty)); }

/* Python type descriptors for the JSON conversions. */
static void type_desc(chad_buf *b, int ty) {
  switch (ty_kind(ty)) {
  case TY_REAL: buf_puts(b, "('real',)"); return;
  case TY_INT: buf_puts(b, "('int',)"); return;
  case TY_UNIT: buf_puts(b, "('unit',)"); return;
  case TY_PROD: case TY_SUM: case TY_FUN:
    buf_puts(b, ty_kind(ty) == TY_PROD ? "('pair', " : ty_kind(ty) == TY_SUM ? "('sum', " : "('fun', ");
    type_desc(b, ty_left(ty));
    buf_puts(b, ", ");
    type_desc(b, ty_right(ty));
    buf_puts(b, ")");
    return;
  case TY_ARR:
    buf_puts(b, "('arr', ");
    type_desc(b, ty_left(ty));
    buf_puts(b, ")");
    return;
  default: buf_puts(b, "('other',)"); return;
  }
}

static int expr(emitter *E, int t, char *out);

/* A local function of one parameter whose body is term `body` with the
 * parameter bound as var 0; its name in fname. */
static int local_fun(emitter *E, int body, const char *stem, char *fname) {
  char p[EMIT_NAME_LEN], r[EMIT_NAME_LEN];
  emit_fresh(E, fname, stem);
  emit_fresh(E, p, "x");
  emit_line(E, "def %s(%s):", fname, p);
  E->indent++;
  if (emit_push(E, p) < 0) return -1;
  if (expr(E, body, r) < 0) return -1;
  emit_pop(E);
  emit_line(E, "return %s", r);
  E->indent--;
  return 0;
}

/* The two operands of a binary op's argument term. */
static int operands(emitter *E, int a, char *x, char *y) {
  if (tm_kind(a) == TM_PAIR) {
    if (expr(E, tm_a(a), x) < 0 || expr(E, tm_b(a), y) < 0) return -1;
    return 0;
  }
  char p[EMIT_NAME_LEN];
  if (expr(E, a, p) < 0) return -1;
  emit_fresh(E, x, "v");
  emit_fresh(E, y, "v");
  emit_line(E, "%s, %s = %s", x, y, p);
  return 0;
}

static int op(emitter *E, int t, char *out) {
  int o = (int)tm_aux(t), a = tm_a(t);
  char x[EMIT_NAME_LEN], y[EMIT_NAME_LEN];
  static const struct { int op; const char *fmt; } unary[] = {
      {P_NEG, "-%s"},           {P_SIN, "torch.sin(%s)"},   {P_COS, "torch.cos(%s)"},
      {P_TAN, "torch.tan(%s)"}, {P_EXP, "torch.exp(%s)"},   {P_LOG, "torch.log(%s)"},
      {P_SQRT, "torch.sqrt(%s)"}, {P_TANH, "torch.tanh(%s)"}, {P_SIGMOID, "torch.sigmoid(%s)"},
      {P_ABS, "torch.abs(%s)"}, {P_INEG, "_int(-%s)"},      {P_TOREAL, "_real(float(%s))"},
      {P_LOGSUMEXP, "torch.logsumexp(%s, 0)"}, {P_LOG1P, "torch.log1p(%s)"},
      {P_EXPM1, "torch.expm1(%s)"}, {P_SOFTPLUS, "torch.nn.functional.softplus(%s)"},
      {P_ATAN, "torch.atan(%s)"}, {P_ERF, "torch.erf(%s)"}, {P_ERFC, "torch.erfc(%s)"},
      {P_LGAMMA, "torch.lgamma(%s)"}, {P_SINH, "torch.sinh(%s)"}, {P_COSH, "torch.cosh(%s)"},
      {P_ASINH, "torch.asinh(%s)"}, {P_ACOSH, "torch.acosh(%s)"}, {P_ATANH, "torch.atanh(%s)"},
      {P_EXP2, "torch.exp2(%s)"}, {P_LOG2, "torch.log2(%s)"},
      {P_FLOOR, "_toint(torch.floor(%s))"}, {P_CEIL, "_toint(torch.ceil(%s))"},
      {P_ROUND, "_round(%s)"}, {P_TRUNC, "_toint(torch.trunc(%s))"},
      {P_SIGN, "_toint(torch.sign(%s))"}};
  static const struct { int op; const char *fmt; } binary[] = {
      {P_ADD, "%s + %s"},          {P_SUB, "%s - %s"},           {P_MUL, "%s * %s"},
      {P_DIV, "%s / %s"},          {P_POW, "torch.pow(%s, %s)"}, {P_MAX, "torch.maximum(%s, %s)"},
      {P_MIN, "torch.minimum(%s, %s)"}, {P_LT, "_bool(%s < %s)"}, {P_LE, "_bool(%s <= %s)"},
      {P_EQ, "_bool(%s == %s)"},   {P_IADD, "_int(%s + %s)"},    {P_ISUB, "_int(%s - %s)"},
      {P_IMUL, "_int(%s * %s)"},   {P_IDIV, "_idiv(%s, %s)"},    {P_IMOD, "_imod(%s, %s)"},
      {P_ILT, "_bool(%s < %s)"},   {P_ILE, "_bool(%s <= %s)"},   {P_IEQ, "_bool(%s == %s)"},
      {P_VADD, "_same(%s, %s, 'vadd', lambda a, b: a + b)"},
      {P_VMUL, "_same(%s, %s, 'vmul', lambda a, b: a * b)"},
      {P_VSCALE, "%s * %s"},       {P_DOT, "_same(%s, %s, 'dot', torch.dot)"},
      {P_MATVEC, "_matvec(%s, %s)"}, {P_ATAN2, "torch.atan2(%s, %s)"},
      {P_HYPOT, "torch.hypot(%s, %s)"}};
  for (size_t i = 0; i < sizeof unary / sizeof unary[0]; i++)
    if (unary[i].op == o) {
      if (expr(E, a, x) < 0) return -1;
      char rhs[128];
      snprintf(rhs, sizeof rhs, unary[i].fmt, x);
      emit_fresh(E, out, "v");
      emit_line(E, "%s = %s", out, rhs);
      return 0;
    }
  for (size_t i = 0; i < sizeof binary / sizeof binary[0]; i++)
    if (binary[i].op == o) {
      if (operands(E, a, x, y) < 0) return -1;
      char rhs[160];
      snprintf(rhs, sizeof rhs, binary[i].fmt, x, y);
      emit_fresh(E, out, "v");
      emit_line(E, "%s = %s", out, rhs);
      return 0;
    }
  emit_unsupported(E, prim_name(o));
  return -1;
}

static int expr(emitter *E, int t, char *out) {
  char a[EMIT_NAME_LEN], b[EMIT_NAME_LEN], f[EMIT_NAME_LEN];
  int ty = tm_type(t);
  switch ((enum tm_kind)tm_kind(t)) {
  case TM_VAR:
    snprintf(out, EMIT_NAME_LEN, "%s", emit_var(E, tm_aux(t)));
    return 0;
  case TM_LET:
    if (expr(E, tm_a(t), a) < 0) return -1;
    emit_fresh(E, b, "x");
    emit_line(E, "%s = %s", b, a);
    if (emit_push(E, b) < 0) return -1;
    if (expr(E, tm_b(t), out) < 0) return -1;
    emit_pop(E);
    return 0;
  case TM_LAM:
    if (local_fun(E, tm_a(t), "f", out) < 0) return -1;
    return 0;
  case TM_APP:
    if (expr(E, tm_a(t), a) < 0 || expr(E, tm_b(t), b) < 0) return -1;
    emit_fresh(E, out, "v");
    emit_line(E, "%s = %s(%s)", out, a, b);
    return 0;
  case TM_UNIT:
    snprintf(out, EMIT_NAME_LEN, "()");
    return 0;
  case TM_PAIR:
    if (expr(E, tm_a(t), a) < 0 || expr(E, tm_b(t), b) < 0) return -1;
    emit_fresh(E, out, "v");
    emit_line(E, "%s = (%s, %s)", out, a, b);
    return 0;
  case TM_FST:
  case TM_SND:
    if (expr(E, tm_a(t), a) < 0) return -1;
    emit_fresh(E, out, "v");
    emit_line(E, "%s = %s[%d]", out, a, tm_kind(t) == TM_FST ? 0 : 1);
    return 0;
  case TM_INL:
  case TM_INR:
    if (expr(E, tm_a(t), a) < 0) return -1;
    emit_fresh(E, out, "v");
    emit_line(E, "%s = ('%s', %s)", out, tm_kind(t) == TM_INL ? "inl" : "inr", a);
    return 0;
  case TM_CASE: {
    if (expr(E, tm_a(t), a) < 0) return -1;
    emit_fresh(E, out, "v");
    for (int side = 0; side < 2; side++) {
      emit_line(E, side == 0 ? "if %s[0] == 'inl':" : "else:", a);
      E->indent++;
      emit_fresh(E, b, "x");
      emit_line(E, "%s = %s[1]", b, a);
      if (emit_push(E, b) < 0) return -1;
      if (expr(E, side == 0 ? tm_b(t) : tm_c(t), f) < 0) return -1;
      emit_pop(E);
      emit_line(E, "%s = %s", out, f);
      E->indent--;
    }
    return 0;
  }
  case TM_RCONST: {
    double r = tm_rval(t);
    emit_fresh(E, out, "c");
    if (r == 0 && 1 / r < 0) emit_line(E, "%s = _real(-0.0)", out);
    else emit_line(E, "%s = _real(%.17g)", out, r);
    return 0;
  }
  case TM_ICONST:
    snprintf(out, EMIT_NAME_LEN, "%" PRId64, tm_aux(t));
    if (tm_aux(t) < 0) {   /* a negative literal as an expression */
      char lit[EMIT_NAME_LEN];
      snprintf(lit, sizeof lit, "(%s)", out);
      snprintf(out, EMIT_NAME_LEN, "%s", lit);
    }
    return 0;
  case TM_OP:
    return op(E, t, out);
  case TM_ITER:
    if (expr(E, tm_a(t), a) < 0 || expr(E, tm_c(t), b) < 0) return -1;
    if (local_fun(E, tm_b(t), "step", f) < 0) return -1;
    emit_fresh(E, out, "v");
    emit_line(E, "%s = _iter(%s, %s, %s)", out, a, f, b);
    return 0;
  case TM_LOOP:
    if (expr(E, tm_a(t), a) < 0 || expr(E, tm_c(t), b) < 0) return -1;
    if (local_fun(E, tm_b(t), "step", f) < 0) return -1;
    emit_fresh(E, out, "v");
    emit_line(E, "%s = _loop(%s, %s, %s)", out, a, f, b);
    return 0;
  case TM_BUILD:
    if (expr(E, tm_a(t), a) < 0) return -1;
    if (local_fun(E, tm_b(t), "elem", f) < 0) return -1;
    emit_fresh(E, out, "v");
    emit_line(E, "%s = _build(%s, %s, %s)", out, a, f, is_real_array(ty) ? "True" : "False");
    return 0;
  case TM_MAP:
    if (expr(E, tm_b(t), b) < 0) return -1;
    if (local_fun(E, tm_a(t), "elem", f) < 0) return -1;
    emit_fresh(E, out, "v");
    emit_line(E, "%s = _map(%s, %s, %s)", out, f, b, is_real_array(ty) ? "True" : "False");
    return 0;
  case TM_INDEX:
    if (expr(E, tm_a(t), a) < 0 || expr(E, tm_b(t), b) < 0) return -1;
    emit_fresh(E, out, "v");
    emit_line(E, "%s = _index(%s, %s)", out, a, b);
    return 0;
  case TM_LENGTH:
    if (expr(E, tm_a(t), a) < 0) return -1;
    emit_fresh(E, out, "v");
    emit_line(E, "%s = len(%s)", out, a);
    return 0;
  case TM_SUM:
    if (expr(E, tm_a(t), a) < 0) return -1;
    emit_fresh(E, out, "v");
    emit_line(E, "%s = torch.sum(%s)", out, a);
    return 0;
  default:
    emit_unsupported(E, "a target-language construct");
    return -1;
  }
}

static const char prelude[] =
    "import torch\n"
    "\n"
    "DTYPE = torch.float64\n"
    "\n"
    "\n"
    "class ChadRuntimeError(Exception):\n"
    "    \"\"\"A runtime error of the program (chad's exit code 3).\"\"\"\n"
    "\n"
    "\n"
    "def set_dtype(dtype):\n"
    "    \"\"\"torch.float64 (default) or torch.float32.\"\"\"\n"
    "    global DTYPE\n"
    "    DTYPE = dtype\n"
    "\n"
    "\n"
    "def _real(c):\n"
    "    return torch.tensor(c, dtype=DTYPE)\n"
    "\n"
    "\n"
    "def _int(n):\n"
    "    if not -2**63 <= n < 2**63:\n"
    "        raise ChadRuntimeError('integer overflow')\n"
    "    return n\n"
    "\n"
    "\n"
    "def _idiv(a, b):\n"
    "    if b == 0:\n"
    "        raise ChadRuntimeError('integer division by zero')\n"
    "    q = abs(a) // abs(b)\n"
    "    return _int(q if (a >= 0) == (b >= 0) else -q)   # truncates, as C\n"
    "\n"
    "\n"
    "def _imod(a, b):\n"
    "    if b == 0:\n"
    "        raise ChadRuntimeError('integer modulo by zero')\n"
    "    return a - b * _idiv(a, b) if b != -1 else 0   # the sign of a, as C\n"
    "\n"
    "\n"
    "def _toint(x):\n"
    "    x = float(x)\n"
    "    if x != x or not -2.0**63 <= x < 2.0**63:\n"
    "        raise ChadRuntimeError('conversion to an integer out of the 64-bit range')\n"
    "    return int(x)\n"
    "\n"
    "\n"
    "def _round(x):\n"
    "    \"\"\"Half away from zero, as C's round (torch.round rounds half to even).\"\"\"\n"
    "    a = abs(float(x))\n"
    "    r = float(int(a)) if a < 2.0**63 else a\n"
    "    if a - r >= 0.5:\n"
    "        r += 1\n"
    "    return _toint(r if float(x) >= 0 else -r)\n"
    "\n"
    "\n"
    "def _bool(c):\n"
    "    return ('inl', ()) if bool(c) else ('inr', ())\n"
    "\n"
    "\n"
    "def _index(a, i):\n"
    "    if not 0 <= i < len(a):\n"
    "        raise ChadRuntimeError('index %d out of bounds (length %d)' % (i, len(a)))\n"
    "    return a[i]\n"
    "\n"
    "\n"
    "def _stack(xs, real):\n"
    "    if not real:\n"
    "        return xs\n"
    "    return torch.stack(xs) if xs else torch.zeros(0, dtype=DTYPE)\n"
    "\n"
    "\n"
    "def _build(n, f, real):\n"
    "    if n < 0:\n"
    "        raise ChadRuntimeError('build: negative length %d' % n)\n"
    "    return _stack([f(i) for i in range(n)], real)\n"
    "\n"
    "\n"
    "def _map(f, a, real):\n"
    "    return _stack([f(a[i]) for i in range(len(a))], real)\n"
    "\n"
    "\n"
    "def _iter(n, f, s):\n"
    "    if n < 0:\n"
    "        raise ChadRuntimeError('iter: negative iteration count %d' % n)\n"
    "    for _ in range(n):\n"
    "        s = f(s)\n"
    "    return s\n"
    "\n"
    "\n"
    "def _loop(n, f, s):\n"
    "    if n < 0:\n"
    "        raise ChadRuntimeError('loop: negative fuel %d' % n)\n"
    "    for _ in range(n):\n"
    "        r = f(s)\n"
    "        if r[0] == 'inr':\n"
    "            return r[1]\n"
    "        s = r[1]\n"
    "    raise ChadRuntimeError('loop ran out of fuel (%d rounds)' % n)\n"
    "\n"
    "\n"
    "def _same(a, b, name, f):\n"
    "    if len(a) != len(b):\n"
    "        raise ChadRuntimeError(name + ': arrays of different lengths')\n"
    "    return f(a, b)\n"
    "\n"
    "\n"
    "def _matvec(m, x):\n"
    "    rows = [r for r in m]\n"
    "    if any(len(r) != len(x) for r in rows):\n"
    "        raise ChadRuntimeError(\"matvec: a matrix row's length differs from the vector's\")\n"
    "    return torch.mv(torch.stack(rows), x) if rows else torch.zeros(0, dtype=DTYPE)\n"
    "\n"
    "\n"
    "def from_json(ty, j, leaves=None):\n"
    "    \"\"\"A JSON value (README's conventions) as the function's input; each real\n"
    "    becomes a tensor that requires grad, appended to leaves in JSON order.\"\"\"\n"
    "    k = ty[0]\n"
    "    if k == 'real':\n"
    "        t = torch.tensor(float(j), dtype=DTYPE, requires_grad=leaves is not None)\n"
    "        if leaves is not None:\n"
    "            leaves.append(t)\n"
    "        return t\n"
    "    if k == 'int':\n"
    "        return int(j)\n"
    "    if k == 'unit':\n"
    "        return ()\n"
    "    if k == 'pair':\n"
    "        return (from_json(ty[1], j[0], leaves), from_json(ty[2], j[1], leaves))\n"
    "    if k == 'sum':\n"
    "        if ty[1] == ('unit',) and ty[2] == ('unit',):\n"
    "            return ('inl', ()) if j else ('inr', ())\n"
    "        side = 'inl' if 'inl' in j else 'inr'\n"
    "        return (side, from_json(ty[1] if side == 'inl' else ty[2], j[side], leaves))\n"
    "    if k == 'arr':\n"
    "        if ty[1] == ('real',):\n"
    "            t = torch.tensor([float(x) for x in j], dtype=DTYPE, requires_grad=leaves is not None)\n"
    "            if leaves is not None:\n"
    "                leaves.append(t)\n"
    "            return t\n"
    "        return [from_json(ty[1], x, leaves) for x in j]\n"
    "    raise TypeError('no JSON form for %r' % (ty,))\n"
    "\n"
    "\n"
    "def to_json(ty, v):\n"
    "    \"\"\"The function's result in README's JSON conventions.\"\"\"\n"
    "    k = ty[0]\n"
    "    if k == 'real':\n"
    "        return float(v)\n"
    "    if k == 'int':\n"
    "        return int(v)\n"
    "    if k == 'unit':\n"
    "        return None\n"
    "    if k == 'pair':\n"
    "        return [to_json(ty[1], v[0]), to_json(ty[2], v[1])]\n"
    "    if k == 'sum':\n"
    "        if ty[1] == ('unit',) and ty[2] == ('unit',):\n"
    "            return v[0] == 'inl'\n"
    "        return {v[0]: to_json(ty[1] if v[0] == 'inl' else ty[2], v[1])}\n"
    "    if k == 'arr':\n"
    "        return [to_json(ty[1], x) for x in v]\n"
    "    raise TypeError('no JSON form for %r' % (ty,))\n";

int export_torch(const char *name, int n, const char *const *names, const int *tys, int term,
                 const char *source, chad_buf *b, const char **unsupported) {
  emitter E = emit_start(b, "    ");
  buf_printf(b, "# %s as PyTorch: generated by `chad export --to torch` from %s.\n", name, source);
  buf_puts(b, "# The same function with torch tensors (float64 by default; set_dtype for\n"
              "# float32). Inputs and results: from_json / to_json with PARAM_TYPES and\n"
              "# RESULT_TYPE (README's JSON conventions).\n");
  buf_puts(b, prelude);
  buf_puts(b, "\n\nPARAM_NAMES = [");
  for (int i = 0; i < n; i++) buf_printf(b, "%s'%s'", i ? ", " : "", names[i] ? names[i] : "?");
  buf_puts(b, "]\nPARAM_TYPES = [");
  for (int i = 0; i < n; i++) {
    if (i) buf_puts(b, ", ");
    type_desc(b, tys[i]);
  }
  buf_puts(b, "]\nRESULT_TYPE = ");
  type_desc(b, tm_type(term));
  buf_puts(b, "\n\n\n");
  /* the definition's own name, unless Python or the module needs it */
  static const char *const taken[] = {
      "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
      "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global",
      "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return",
      "try", "while", "with", "yield", "torch", "len", "range", "float", "int", "abs", "any",
      "bool", "list", "tuple", "function", "from_json", "to_json", "set_dtype", "DTYPE",
      "PARAM_NAMES", "PARAM_TYPES", "RESULT_TYPE", "ChadRuntimeError"};
  char fname[300];
  snprintf(fname, sizeof fname, "%s", name);
  for (size_t i = 0; i < sizeof taken / sizeof taken[0]; i++)
    if (strcmp(name, taken[i]) == 0 || name[0] == '_') snprintf(fname, sizeof fname, "%s_", name);
  buf_printf(b, "def %s(", fname);
  char pn[EMIT_NAME_LEN];
  for (int i = 0; i < n; i++) {
    snprintf(pn, sizeof pn, "p%d", i);
    buf_printf(b, "%s%s", i ? ", " : "", pn);
    if (emit_push(&E, pn) < 0) {
      emit_finish(&E); /* frees the names pushed before */
      return -1;
    }
  }
  buf_puts(b, "):\n");
  E.indent = 1;
  E.next = 0;
  char r[EMIT_NAME_LEN];
  int rc = expr(&E, term, r);
  if (rc == 0) emit_line(&E, "return %s", r);
  const char *why = emit_finish(&E);
  if (rc < 0 && unsupported) *unsupported = why;
  buf_printf(b, "\n\nfunction = %s\n", fname);
  return rc;
}
