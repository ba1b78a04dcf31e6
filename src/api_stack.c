/* libchad's commands on a large stack: elaboration, the CHAD
 * transformations, the simplifier and the printer recurse as deep as the
 * term, up to their depth limits (spec/surface.md section 5), which the
 * usual 8 MiB of a caller's thread would not hold. Each public command runs
 * on a thread of its own with API_STACK_BYTES of stack (pages are taken only
 * as used); a command called from one already there (the certified driver's
 * reruns) runs in place. If the thread cannot be made, the command runs on
 * the caller's stack. */
#include <flint/flint.h>
#include <pthread.h>

#include "api_internal.h"

#define API_STACK_BYTES ((size_t)1 << 30)

static _Thread_local int on_large_stack;

static void *call_thread(void *p) {
  api_call *c = p;
  on_large_stack = 1;
  c->rc = c->run(c);
  flint_cleanup();   /* FLINT's and Arb's caches are per thread: freed with it */
  return NULL;
}

int api_deep(api_call *c) {
  if (on_large_stack) return c->run(c);
  pthread_attr_t attr;
  pthread_t th;
  if (pthread_attr_init(&attr) != 0) return c->run(c);
  int started = pthread_attr_setstacksize(&attr, API_STACK_BYTES) == 0 &&
                pthread_create(&th, &attr, call_thread, c) == 0;
  pthread_attr_destroy(&attr);
  if (!started) return c->run(c);
  pthread_join(th, NULL);
  return c->rc;
}
