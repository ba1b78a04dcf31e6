/* The counting CHECK of the unit tests: a failed check prints its place
 * and text and is counted; main reports checks and failures.
 * CHECKM(c, fmt, ...) is the same check with a printf-style message after
 * the text, for checks inside loops or helpers where the text alone does
 * not say which case failed. */
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
#define CHECKM(c, ...)                                                        \
  do {                                                                        \
    checks++;                                                                 \
    if (!(c)) {                                                               \
      failures++;                                                             \
      fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #c);  \
      fprintf(stderr, __VA_ARGS__);                                           \
      fprintf(stderr, "\n");                                                  \
    }                                                                         \
  } while (0)

#endif
