/* The C test program's checks of the transposition table (tt.h): the table's size, a probe
 * finding what was stored and nothing else, and the bucket's replacement (the deeper search
 * kept, the newer search preferred over an older one's entries, a key overwriting its own). */
#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "tt.h"

/* Keys of one bucket in a table of `t`: the same low bits, different high bits. */
static uint64_t key_in(const TT *t, uint64_t bucket, uint64_t n)
{
    return (n << 40) | (bucket & t->mask);
}

void test_tt(void)
{
    TT t;
    CHECK(tt_init(&t, 5000) == 0 && t.size == 4096 && t.mask == 2047 &&
          ((uintptr_t)t.entries & 63) == 0,
          "tt: 5000 entries give %llu, mask %llu", (unsigned long long)t.size,
          (unsigned long long)t.mask);
    uint64_t a = key_in(&t, 7, 1), b = key_in(&t, 7, 2), c = key_in(&t, 7, 3);
    uint64_t d = key_in(&t, 7, 4);
    CHECK(tt_probe(&t, a) == NULL && tt_used(&t) == 0, "tt: an empty table finds nothing");
    tt_new_search(&t);
    tt_store(&t, a, 10, 55, TT_EXACT, 3);
    const TTEntry *e = tt_probe(&t, a);
    CHECK(e && e->score == 55 && e->depth == 10 && e->flag == TT_EXACT && e->best == 3,
          "tt: a stored entry is found as stored");
    /* A shallower search of another key of the bucket goes beside the deeper one. */
    tt_store(&t, b, 4, -7, TT_LOWER, -1);
    e = tt_probe(&t, b);
    CHECK(e && e->best == TT_NO_MOVE && e->flag == TT_LOWER && tt_probe(&t, a) &&
          tt_used(&t) == 2, "tt: the shallower search goes to the second entry");
    /* A third, shallow again, replaces the second; the deepest stays. */
    tt_store(&t, c, 2, 1, TT_UPPER, 0);
    CHECK(tt_probe(&t, c) && !tt_probe(&t, b) && tt_probe(&t, a) && tt_used(&t) == 2,
          "tt: the always-replace entry takes the newest shallow search");
    /* A deeper one takes the first entry; the old first moves to the second. */
    tt_store(&t, d, 12, 9, TT_EXACT, 1);
    CHECK(tt_probe(&t, d) == &t.entries[(d & t.mask) * 2] && tt_probe(&t, a) && !tt_probe(&t, c),
          "tt: the deeper search takes the first entry and the old first moves down");
    /* A key overwrites its own entry, whatever the depth. */
    tt_store(&t, a, 1, 100, TT_LOWER, 2);
    e = tt_probe(&t, a);
    CHECK(e && e->depth == 1 && e->score == 100 && tt_probe(&t, d),
          "tt: a key's new search overwrites its own entry");
    const TTEntry *first = &t.entries[(a & t.mask) * 2];
    tt_store(&t, d, 2, 5, TT_UPPER, 0);
    e = tt_probe(&t, d);
    CHECK(e == first && e->depth == 2 && tt_probe(&t, a) == first + 1,
          "tt: a shallower search of the first entry's key overwrites it in place");
    /* The second entry's key searched as deep as the first moves up. */
    tt_store(&t, a, 5, 6, TT_EXACT, 0);
    CHECK(tt_probe(&t, a) == first && tt_probe(&t, d) == first + 1,
          "tt: the second entry searched deeper than the first takes its place");
    /* A new search: the deep entry of the earlier one gives way to a shallow new one. */
    tt_new_search(&t);
    uint64_t f = key_in(&t, 7, 5);
    tt_store(&t, f, 1, 0, TT_EXACT, 0);
    CHECK(tt_probe(&t, f) == first && tt_probe(&t, a) == first + 1 && !tt_probe(&t, d),
          "tt: an earlier search's entry gives way to a new search's");
    /* Depths beyond a byte are kept as 255; other buckets are untouched. */
    tt_store(&t, key_in(&t, 8, 1), 300, 0, TT_EXACT, 0);
    CHECK(tt_probe(&t, key_in(&t, 8, 1))->depth == 255 && tt_used(&t) == 3,
          "tt: a depth of 300 is kept as 255");
    tt_clear(&t);
    CHECK(tt_used(&t) == 0 && !tt_probe(&t, a), "tt: a cleared table is empty");
    tt_free(&t);
    printf("tt: probes and the buckets' replacement checked\n");
}
