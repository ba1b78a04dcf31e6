/* The counting CHECK of the unit tests: a failed check prints its place
 * and text and is counted; main reports checks and failures. */
#ifndef TEST_CHECK_H
#define TEST_CHECK_H

#include <stdio.h>

static int failures, checks;
#define CHECK(c)                                                            \
  do {                                                                      \
    checks++;                                                               \
    if (!(c)) {                                                             \
      failures++;                                                           \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
    }                                                                       \
  } while (0)

#endif
