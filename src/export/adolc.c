/* `chad export --to adolc`: a definition as a C++ program over ADOL-C's
 * adouble (spec/export.md): reals are adoubles, ints long long, pairs
 * std::pair, sums chad::S (a flag and both sides), arrays std::vector,
 * functions std::function closures (lambdas capturing by value); iter,
 * build and map are loops. Primitives are ADOL-C's own elementary
 * functions (sin, exp, tanh, fabs, fmax, pow, atan2, ...); a primitive
 * ADOL-C does not have (sigmoid, logsumexp, log1p, lgamma, ...) is not
 * exported, so that what is graded is ADOL-C's derivatives, not a formula
 * chosen here.
 *
 * As in export/torch.c, the elaborated term is walked once and every
 * subterm binds a fresh variable (declared with its C++ type: an adouble
 * expression must not be kept as ADOL-C's temporary adub). The program is
 * followed by a driver (export/adolc_prelude.h) that tapes it at the input
 * and runs ADOL-C's forward and reverse modes on the tape. */
#include "export/export.h"
#include "export/emit.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad/kernel.h"
#include "chad/primitives.h"
#include "export/adolc_prelude.h"

#define TYPE_LEN 1024 /* a C++ type */

/* The C++ type of a source type into out (TYPE_LEN); -1 if too deep. */
static int cxx_type(int ty, char *out, size_t n) {
  char a[TYPE_LEN], b[TYPE_LEN];
  switch (ty_kind(ty)) {
  case TY_REAL: snprintf(out, n, "adouble"); return 0;
  case TY_INT: snprintf(out, n, "chad::I"); return 0;
  case TY_UNIT: snprintf(out, n, "chad::Unit"); return 0;
  case TY_PROD: case TY_SUM: case TY_FUN: {
    if (cxx_type(ty_left(ty), a, sizeof a) < 0 || cxx_type(ty_right(ty), b, sizeof b) < 0) return -1;
    int k = ty_kind(ty) == TY_PROD  ? snprintf(out, n, "std::pair<%s, %s>", a, b)
            : ty_kind(ty) == TY_SUM ? snprintf(out, n, "chad::S<%s, %s>", a, b)
                                    : snprintf(out, n, "std::function<%s(%s)>", b, a);
    return k < 0 || (size_t)k >= n ? -1 : 0;
  }
  case TY_ARR:
    if (cxx_type(ty_left(ty), a, sizeof a) < 0) return -1;
    return (size_t)snprintf(out, n, "std::vector<%s>", a) >= n ? -1 : 0;
  default: return -1;
  }
}

static int ctype(emitter *E, int ty, char *out) {
  if (cxx_type(ty, out, TYPE_LEN) < 0) return emit_unsupported(E, "a type too large for the C++ export");
  return 0;
}

static int expr(emitter *E, int t, char *out);

/* A local function (a std::function of one parameter, capturing by value)
 * whose body is `body` with the parameter as var 0. */
static int local_fun(emitter *E, int fty, int body, const char *stem, char *fname) {
  char ft[TYPE_LEN], at[TYPE_LEN], rt[TYPE_LEN], p[EMIT_NAME_LEN], r[EMIT_NAME_LEN];
  if (ctype(E, fty, ft) < 0 || ctype(E, ty_left(fty), at) < 0 || ctype(E, ty_right(fty), rt) < 0) return -1;
  emit_fresh(E, fname, stem);
  emit_fresh(E, p, "x");
  emit_line(E, "%s %s = [=](%s %s) -> %s {", ft, fname, at, p, rt);
  E->indent++;
  if (emit_push(E, p) < 0) return -1;
  if (expr(E, body, r) < 0) return -1;
  emit_pop(E);
  emit_line(E, "return %s;", r);
  E->indent--;
  emit_line(E, "};");
  return 0;
}

/* The two operands of a binary op's argument term. */
static int operands(emitter *E, int a, char *x, char *y) {
  if (tm_kind(a) == TM_PAIR) return expr(E, tm_a(a), x) < 0 || expr(E, tm_b(a), y) < 0 ? -1 : 0;
  char p[EMIT_NAME_LEN], l[TYPE_LEN], r[TYPE_LEN];
  int pty = tm_type(a);
  if (expr(E, a, p) < 0 || ctype(E, ty_left(pty), l) < 0 || ctype(E, ty_right(pty), r) < 0) return -1;
  emit_fresh(E, x, "v");
  emit_fresh(E, y, "v");
  emit_line(E, "%s %s = %s.first;", l, x, p);
  emit_line(E, "%s %s = %s.second;", r, y, p);
  return 0;
}

static int op(emitter *E, int t, char *out) {
  int o = (int)tm_aux(t), a = tm_a(t);
  char x[EMIT_NAME_LEN], y[EMIT_NAME_LEN], ty[TYPE_LEN];
  static const struct { int op; const char *fmt; } unary[] = {
      {P_NEG, "-%s"},           {P_SIN, "sin(%s)"},     {P_COS, "cos(%s)"},     {P_TAN, "tan(%s)"},
      {P_EXP, "exp(%s)"},       {P_LOG, "log(%s)"},     {P_SQRT, "sqrt(%s)"},   {P_TANH, "tanh(%s)"},
      {P_ABS, "fabs(%s)"},      {P_ATAN, "atan(%s)"},   {P_ERF, "erf(%s)"},     {P_SINH, "sinh(%s)"},
      {P_COSH, "cosh(%s)"},     {P_ASINH, "asinh(%s)"}, {P_ACOSH, "acosh(%s)"}, {P_ATANH, "atanh(%s)"},
      {P_INEG, "chad::ineg(%s)"}, {P_TOREAL, "chad::toreal(%s)"}, {P_FLOOR, "chad::toint(std::floor(%s.getValue()))"},
      {P_CEIL, "chad::toint(std::ceil(%s.getValue()))"}, {P_ROUND, "chad::toint(std::round(%s.getValue()))"},
      {P_TRUNC, "chad::toint(std::trunc(%s.getValue()))"}, {P_SIGN, "chad::sign(%s.getValue())"}};
  static const struct { int op; const char *fmt; } binary[] = {
      {P_ADD, "%s + %s"},             {P_SUB, "%s - %s"},             {P_MUL, "%s * %s"},
      {P_DIV, "%s / %s"},             {P_POW, "pow(%s, %s)"},         {P_MAX, "fmax(%s, %s)"},
      {P_MIN, "fmin(%s, %s)"},        {P_ATAN2, "atan2(%s, %s)"},     {P_LT, "chad::mkbool(%s < %s)"},
      {P_LE, "chad::mkbool(%s <= %s)"}, {P_EQ, "chad::mkbool(%s == %s)"}, {P_IADD, "chad::iadd(%s, %s)"},
      {P_ISUB, "chad::isub(%s, %s)"}, {P_IMUL, "chad::imul(%s, %s)"}, {P_IDIV, "chad::idiv(%s, %s)"},
      {P_IMOD, "chad::imod(%s, %s)"}, {P_ILT, "chad::mkbool(%s < %s)"}, {P_ILE, "chad::mkbool(%s <= %s)"},
      {P_IEQ, "chad::mkbool(%s == %s)"}, {P_VADD, "chad::vadd(%s, %s)"}, {P_VMUL, "chad::vmul(%s, %s)"},
      {P_VSCALE, "chad::vscale(%s, %s)"}, {P_DOT, "chad::dot(%s, %s)"}, {P_MATVEC, "chad::matvec(%s, %s)"}};
  char rhs[256];
  int found = 0;
  for (size_t i = 0; i < sizeof unary / sizeof unary[0] && !found; i++)
    if (unary[i].op == o) {
      if (expr(E, a, x) < 0) return -1;
      snprintf(rhs, sizeof rhs, unary[i].fmt, x);
      found = 1;
    }
  for (size_t i = 0; i < sizeof binary / sizeof binary[0] && !found; i++)
    if (binary[i].op == o) {
      if (operands(E, a, x, y) < 0) return -1;
      snprintf(rhs, sizeof rhs, binary[i].fmt, x, y);
      found = 1;
    }
  if (!found) return emit_unsupported(E, prim_name(o));
  if (ctype(E, tm_type(t), ty) < 0) return -1;
  emit_fresh(E, out, "v");
  emit_line(E, "%s %s = %s;", ty, out, rhs);
  return 0;
}

static int expr(emitter *E, int t, char *out) {
  char a[EMIT_NAME_LEN], b[EMIT_NAME_LEN], f[EMIT_NAME_LEN], ty[TYPE_LEN], l[TYPE_LEN], r[TYPE_LEN];
  int tt = tm_type(t);
  switch ((enum tm_kind)tm_kind(t)) {
  case TM_VAR:
    snprintf(out, EMIT_NAME_LEN, "%s", emit_var(E, tm_aux(t)));
    return 0;
  case TM_LET:
    if (expr(E, tm_a(t), a) < 0 || ctype(E, tm_type(tm_a(t)), ty) < 0) return -1;
    emit_fresh(E, b, "x");
    emit_line(E, "%s %s = %s;", ty, b, a);
    if (emit_push(E, b) < 0) return -1;
    if (expr(E, tm_b(t), out) < 0) return -1;
    emit_pop(E);
    return 0;
  case TM_LAM:
    return local_fun(E, tt, tm_a(t), "f", out);
  case TM_APP:
    if (expr(E, tm_a(t), a) < 0 || expr(E, tm_b(t), b) < 0 || ctype(E, tt, ty) < 0) return -1;
    emit_fresh(E, out, "v");
    emit_line(E, "%s %s = %s(%s);", ty, out, a, b);
    return 0;
  case TM_UNIT:
    snprintf(out, EMIT_NAME_LEN, "chad::Unit{}");
    return 0;
  case TM_PAIR:
    if (expr(E, tm_a(t), a) < 0 || expr(E, tm_b(t), b) < 0 || ctype(E, tt, ty) < 0) return -1;
    emit_fresh(E, out, "v");
    emit_line(E, "%s %s(%s, %s);", ty, out, a, b);
    return 0;
  case TM_FST:
  case TM_SND:
    if (expr(E, tm_a(t), a) < 0 || ctype(E, tt, ty) < 0) return -1;
    emit_fresh(E, out, "v");
    emit_line(E, "%s %s = %s.%s;", ty, out, a, tm_kind(t) == TM_FST ? "first" : "second");
    return 0;
  case TM_INL:
  case TM_INR:
    if (expr(E, tm_a(t), a) < 0 || ctype(E, ty_left(tt), l) < 0 || ctype(E, ty_right(tt), r) < 0) return -1;
    emit_fresh(E, out, "v");
    emit_line(E, "chad::S<%s, %s> %s = chad::%s<%s, %s>(%s);", l, r, out, tm_kind(t) == TM_INL ? "inl" : "inr", l, r,
         a);
    return 0;
  case TM_CASE: {
    if (expr(E, tm_a(t), a) < 0 || ctype(E, tt, ty) < 0) return -1;
    emit_fresh(E, out, "v");
    emit_line(E, "%s %s;", ty, out);
    for (int side = 0; side < 2; side++) {
      emit_line(E, side == 0 ? "if (%s.left) {" : "} else {", a);
      E->indent++;
      emit_fresh(E, b, "x");
      emit_line(E, "auto %s = %s.%s;", b, a, side == 0 ? "l" : "r");
      if (emit_push(E, b) < 0) return -1;
      if (expr(E, side == 0 ? tm_b(t) : tm_c(t), f) < 0) return -1;
      emit_pop(E);
      emit_line(E, "%s = %s;", out, f);
      E->indent--;
    }
    emit_line(E, "}");
    return 0;
  }
  case TM_RCONST: {
    double c = tm_rval(t);
    emit_fresh(E, out, "c");
    if (c == 0 && 1 / c < 0) emit_line(E, "adouble %s = -0.0;", out);
    else emit_line(E, "adouble %s = %.17g;", out, c);
    return 0;
  }
  case TM_ICONST:
    if (tm_aux(t) == INT64_MIN) snprintf(out, EMIT_NAME_LEN, "(-9223372036854775807LL - 1)");
    else snprintf(out, EMIT_NAME_LEN, "(%" PRId64 "LL)", tm_aux(t));
    return 0;
  case TM_OP:
    return op(E, t, out);
  case TM_ITER:
    if (expr(E, tm_a(t), a) < 0 || expr(E, tm_c(t), b) < 0) return -1;
    if (local_fun(E, ty_fun(tt, tt), tm_b(t), "step", f) < 0 || ctype(E, tt, ty) < 0) return -1;
    emit_fresh(E, out, "v");
    emit_line(E, "%s %s = chad::iter(%s, %s, %s(%s));", ty, out, a, f, ty, b);
    return 0;
  case TM_LOOP:
    if (expr(E, tm_a(t), a) < 0 || expr(E, tm_c(t), b) < 0) return -1;
    if (local_fun(E, ty_fun(tt, tm_type(tm_b(t))), tm_b(t), "step", f) < 0 || ctype(E, tt, ty) < 0) return -1;
    emit_fresh(E, out, "v");
    emit_line(E, "%s %s = chad::loop(%s, %s, %s(%s));", ty, out, a, f, ty, b);
    return 0;
  case TM_BUILD:
    if (expr(E, tm_a(t), a) < 0) return -1;
    if (local_fun(E, ty_fun(ty_make(TY_INT, -1, -1), ty_left(tt)), tm_b(t), "elem", f) < 0 || ctype(E, tt, ty) < 0) return -1;
    emit_fresh(E, out, "v");
    emit_line(E, "%s %s = chad::build(%s, %s);", ty, out, a, f);
    return 0;
  case TM_MAP:
    if (expr(E, tm_b(t), b) < 0) return -1;
    if (local_fun(E, ty_fun(ty_left(tm_type(tm_b(t))), ty_left(tt)), tm_a(t), "elem", f) < 0 ||
        ctype(E, tt, ty) < 0)
      return -1;
    emit_fresh(E, out, "v");
    emit_line(E, "%s %s = chad::map(%s, %s);", ty, out, f, b);
    return 0;
  case TM_INDEX:
    if (expr(E, tm_a(t), a) < 0 || expr(E, tm_b(t), b) < 0 || ctype(E, tt, ty) < 0) return -1;
    emit_fresh(E, out, "v");
    emit_line(E, "%s %s = chad::index(%s, %s);", ty, out, a, b);
    return 0;
  case TM_LENGTH:
    if (expr(E, tm_a(t), a) < 0) return -1;
    emit_fresh(E, out, "v");
    emit_line(E, "chad::I %s = (chad::I)%s.size();", out, a);
    return 0;
  case TM_SUM:
    if (expr(E, tm_a(t), a) < 0) return -1;
    emit_fresh(E, out, "v");
    emit_line(E, "adouble %s = chad::sum(%s);", out, a);
    return 0;
  default:
    return emit_unsupported(E, "a target-language construct");
  }
}

/* A first-order type: one an input or a result can have. */
static int first_order(int ty) {
  switch (ty_kind(ty)) {
  case TY_REAL: case TY_INT: case TY_UNIT: return 1;
  case TY_PROD: case TY_SUM: return first_order(ty_left(ty)) && first_order(ty_right(ty));
  case TY_ARR: return first_order(ty_left(ty));
  default: return 0;
  }
}

int export_adolc(const char *name, int n, const char *const *names, const int *tys, int term,
                 const char *source, chad_buf *b, const char **unsupp) {
  emitter E = emit_start(b, "  ");
  char ty[TYPE_LEN], r[EMIT_NAME_LEN];
  (void)names;   /* the parameters are p0, p1, ...: any name is a C++ identifier then */
  int rc = 0;
  for (int i = 0; i < n && rc == 0; i++)
    if (!first_order(tys[i])) rc = emit_unsupported(&E, "a parameter of function type");
  if (rc == 0 && !first_order(tm_type(term))) rc = emit_unsupported(&E, "a result of function type");
  buf_printf(b, "// %s as C++ over ADOL-C: generated by `chad export --to adolc` from %s.\n", name, source);
  buf_puts(b, "// Build: g++ -std=c++17 FILE.cpp -ladolc. Standard input: one line per\n"
              "// evaluation (the arguments, the tangent, the cotangent; spec/export.md);\n"
              "// standard output: one JSON line each (value, vjp, jvp, jacobian).\n");
  buf_puts(b, adolc_prelude);
  buf_puts(b, "\n// ---- program ----\nnamespace chad_program {\n");
  if (rc == 0) rc = ctype(&E, tm_type(term), ty);
  if (rc == 0) {
    buf_printf(b, "// %s\nstatic %s function(", name, ty);
    for (int i = 0; i < n && rc == 0; i++) {
      char pt[TYPE_LEN], pn[EMIT_NAME_LEN];
      snprintf(pn, sizeof pn, "p%d", i);
      if ((rc = ctype(&E, tys[i], pt)) == 0) {
        buf_printf(b, "%s%s %s", i ? ", " : "", pt, pn);
        if (emit_push(&E, pn) < 0) rc = -1;
      }
    }
    buf_puts(b, ") {\n");
    E.indent = 1;
    if (rc == 0) rc = expr(&E, term, r);
    if (rc == 0) emit_line(&E, "return %s;", r);
    buf_puts(b, "}\n");
  }
  buf_puts(b, "static void run(std::istream &in, std::ostream &out) { chad::drive(function, in, out); }\n"
              "}  // namespace chad_program\n"
              "// ---- main ----\n"
              "int main() {\n"
              "  static const chad::runner runs[] = {chad_program::run};\n"
              "  return chad::main_loop(runs, 1, false);\n"
              "}\n");
  const char *why = emit_finish(&E);
  if (rc < 0 && unsupp) *unsupp = why;
  return rc;
}
