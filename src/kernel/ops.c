/* Signatures of the primitive operations (the kernel knows nothing else). */
#include "chad/kernel.h"
#include "kernel_spec.h"

int op_count;
int op_dom_[CHAD_MAX_OPS];
int op_cod_[CHAD_MAX_OPS];
int op_tdom_[CHAD_MAX_OPS];
int op_tcod_[CHAD_MAX_OPS];
int op_alt_[CHAD_MAX_OPS];

/*@ terminates \true;
    assigns op_count;
    ensures op_inv && op_count == 0;
*/
void op_init(void) { op_count = 0; }

/*@ requires op_inv && ty_inv;
    terminates \true;
    assigns op_count, op_dom_[op_count], op_cod_[op_count], op_tdom_[op_count],
            op_tcod_[op_count], op_alt_[op_count], ty_tan_[0 .. ty_count - 1];
    ensures op_inv && ty_inv;
    ensures \result == CHAD_E_ARG <==> !(fo_tan(dom, tdom) && fo_tan(cod, tcod));
    ensures \result >= 0 ==> \result == \old(op_count) && op_count == \old(op_count) + 1 &&
      op_dom_[\result] == dom && op_cod_[\result] == cod &&
      op_tdom_[\result] == tdom && op_tcod_[\result] == tcod && op_alt_[\result] == -1;
    ensures \result == CHAD_E_CAPACITY ==> \old(op_count) == CHAD_MAX_OPS;
    ensures \result >= 0 || \result == CHAD_E_ARG || \result == CHAD_E_CAPACITY;
    ensures \result < 0 ==> op_count == \old(op_count);
*/
int op_register(int dom, int cod, int tdom, int tcod)
{
  /* the signature first-order, the tangent signature T of it (op_inv,
   * through the ghost column ty_tan_ the check fills): what R(op) and F(op)
   * rely on */
  if (!ty_is_tangent(dom, tdom) || !ty_is_tangent(cod, tcod))
    return CHAD_E_ARG;
  if (op_count >= CHAD_MAX_OPS)
    return CHAD_E_CAPACITY;
  op_dom_[op_count] = dom;
  op_cod_[op_count] = cod;
  op_tdom_[op_count] = tdom;
  op_tcod_[op_count] = tcod;
  op_alt_[op_count] = -1;
  op_count++;
  return op_count - 1;
}

/*@ requires op_inv;
    terminates \true;
    assigns op_alt_[op];
    ensures op_inv;
    ensures \result == 0 <==> (0 <= op < op_count && -1 <= alt < op_count && alt != op);
    ensures \result == 0 ==> op_alt_[op] == alt;
    ensures \result == 0 || \result == CHAD_E_ARG;
*/
int op_set_alt(int op, int alt)
{
  if (op < 0 || op >= op_count || alt < -1 || alt >= op_count || alt == op)
    return CHAD_E_ARG;
  op_alt_[op] = alt;
  return 0;
}
