/* Raw (untyped) terms as the parser builds them; children at smaller
 * indices, kinds the source ones plus RAW_ANN. */
#include "chad/kernel.h"
#include "kernel_spec.h"

int raw_count;
int raw_kind_[CHAD_MAX_RAW];
int raw_a_[CHAD_MAX_RAW];
int raw_b_[CHAD_MAX_RAW];
int raw_c_[CHAD_MAX_RAW];
int raw_ty_[CHAD_MAX_RAW];
int64_t raw_aux_[CHAD_MAX_RAW];
double raw_rval_[CHAD_MAX_RAW];
int raw_line_[CHAD_MAX_RAW];
int raw_col_[CHAD_MAX_RAW];

/*@ terminates \true;
    assigns raw_count;
    ensures raw_inv && raw_count == 0;
*/
void raw_init(void) { raw_count = 0; }

/* A child is absent (-1) or an existing node. */
/*@ terminates \true; assigns \nothing;
    ensures \result == 1 <==> raw_child_ok(x, raw_count);
    ensures \result == 0 || \result == 1;
*/
static int raw_child_ok(int x) { return -1 <= x && x < raw_count; }

/*@ requires raw_inv && ty_inv;
    terminates \true;
    assigns raw_count, raw_kind_[raw_count], raw_a_[raw_count], raw_b_[raw_count],
            raw_c_[raw_count], raw_ty_[raw_count], raw_aux_[raw_count],
            raw_rval_[raw_count], raw_line_[raw_count], raw_col_[raw_count];
    ensures raw_inv;
    ensures \result == CHAD_E_ARG <==>
      !(raw_kind_ok(kind) && raw_child_ok(a, \old(raw_count)) &&
        raw_child_ok(b, \old(raw_count)) && raw_child_ok(c, \old(raw_count)) &&
        -1 <= ty < ty_count);
    ensures \result >= 0 ==> \result == \old(raw_count) && raw_count == \old(raw_count) + 1 &&
      raw_kind_[\result] == kind && raw_a_[\result] == a && raw_b_[\result] == b &&
      raw_c_[\result] == c && raw_ty_[\result] == ty && raw_aux_[\result] == aux &&
      raw_line_[\result] == line && raw_col_[\result] == col;
    ensures \result == CHAD_E_CAPACITY ==> \old(raw_count) == CHAD_MAX_RAW;
    ensures \result >= 0 || \result == CHAD_E_ARG || \result == CHAD_E_CAPACITY;
    ensures \result < 0 ==> raw_count == \old(raw_count);
*/
int raw_add(int kind, int a, int b, int c, int ty, int64_t aux, double rval,
            int line, int col)
{
  if (!((TM_VAR <= kind && kind <= TM_SUM) || kind == RAW_ANN))
    return CHAD_E_ARG;
  if (!raw_child_ok(a) || !raw_child_ok(b) || !raw_child_ok(c) ||
      ty < -1 || ty >= ty_count)
    return CHAD_E_ARG;
  if (raw_count >= CHAD_MAX_RAW)
    return CHAD_E_CAPACITY;
  int n = raw_count;
  raw_kind_[n] = kind;
  raw_a_[n] = a;
  raw_b_[n] = b;
  raw_c_[n] = c;
  raw_ty_[n] = ty;
  raw_aux_[n] = aux;
  raw_rval_[n] = rval;
  raw_line_[n] = line;
  raw_col_[n] = col;
  raw_count = n + 1;
  return n;
}
