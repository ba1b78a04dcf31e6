/* Signatures of the primitive operations (the kernel knows nothing else). */
#include "chad/kernel.h"

int op_count;
int op_dom_[CHAD_MAX_OPS];
int op_cod_[CHAD_MAX_OPS];
int op_tdom_[CHAD_MAX_OPS];
int op_tcod_[CHAD_MAX_OPS];
int op_alt_[CHAD_MAX_OPS];

void op_init(void) { op_count = 0; }

static int ty_ok(int t) { return 0 <= t && t < ty_count; }

int op_register(int dom, int cod, int tdom, int tcod)
{
  if (!ty_ok(dom) || !ty_ok(cod) || !ty_ok(tdom) || !ty_ok(tcod))
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

int op_set_alt(int op, int alt)
{
  if (op < 0 || op >= op_count || alt < -1 || alt >= op_count || alt == op)
    return CHAD_E_ARG;
  op_alt_[op] = alt;
  return 0;
}
