#ifndef PT_SUGARRUN_H
#define PT_SUGARRUN_H
#include <signal.h>
#include <stdint.h>
/* The sugar program being tested, for the crash handler of main.c. */
extern volatile sig_atomic_t pt_sugar_cur;
/* Runs the surface-sugar family on programs first .. first+N-1 of seed
 * (sugarrun.c); setup() resets the arenas before each program. Prints its
 * failures and its table; adds its counts to *pass and *fail. */
void pt_sugar_run(uint64_t seed, long first, long N, int maxsize, int quiet, void (*setup)(void),
                  long *pass, long *fail);
#endif
