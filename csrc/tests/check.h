/* What the C test program's files share: the count of failed checks (test_core.c holds it,
 * its main reports it) and CHECK, which counts a failed condition and prints where and why,
 * and the tests that live in files of their own. */
#ifndef DAMIERA_TEST_CHECK_H
#define DAMIERA_TEST_CHECK_H

#include <stdio.h>

extern int failures;

#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            failures++;                                                                       \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                      \
            printf(__VA_ARGS__);                                                              \
            printf("\n");                                                                     \
        }                                                                                     \
    } while (0)

/* test_time.c: the game clock's sharing out and the iteration target, on given numbers. */
void test_time(void);
/* test_egdb.c: the endgame database's files written, read back and refused. */
void test_egdb(void);
/* test_tt.c: the transposition table's probe and its buckets' replacement. */
void test_tt(void);

#endif
