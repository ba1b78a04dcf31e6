/* Hash-consed contexts: snoc lists stored as (parent, last type) pairs, each
 * pair at most once, parents at smaller indices. Context 0 is empty. */
#include "chad/kernel.h"

int ctx_count;
int ctx_parent_[CHAD_MAX_CTXS];
int ctx_type_[CHAD_MAX_CTXS];
int ctx_len_[CHAD_MAX_CTXS];

void ctx_init(void)
{
  ctx_parent_[0] = -1;
  ctx_type_[0] = -1;
  ctx_len_[0] = 0;
  ctx_count = 1;
}

int ctx_extend(int g, int t)
{
  if (g < 0 || g >= ctx_count || t < 0 || t >= ty_count)
    return CHAD_E_ARG;
  for (int i = 1; i < ctx_count; i++) {
    if (ctx_parent_[i] == g && ctx_type_[i] == t)
      return i;
  }
  if (ctx_count >= CHAD_MAX_CTXS)
    return CHAD_E_CAPACITY;
  ctx_parent_[ctx_count] = g;
  ctx_type_[ctx_count] = t;
  ctx_len_[ctx_count] = ctx_len_[g] + 1;
  ctx_count++;
  return ctx_count - 1;
}

int ctx_lookup(int g, int k)
{
  if (g < 0 || g >= ctx_count)
    return CHAD_E_ARG;
  if (k < 0 || k >= ctx_len_[g])
    return CHAD_E_UNBOUND;
  while (k > 0) {
    g = ctx_parent_[g];
    k--;
  }
  return ctx_type_[g];
}

int ctx_length(int g) { return (g < 0 || g >= ctx_count) ? CHAD_E_ARG : ctx_len_[g]; }
int ctx_parent(int g) { return (g < 0 || g >= ctx_count) ? CHAD_E_ARG : ctx_parent_[g]; }
int ctx_last(int g) { return (g <= 0 || g >= ctx_count) ? CHAD_E_ARG : ctx_type_[g]; }
