/* The transposition table: a power-of-two array of entries indexed by the low bits of a
 * position's key, each entry replaced by the newest search of any position that maps to it. */
#ifndef DAMIERA_TT_H
#define DAMIERA_TT_H

#include <stdint.h>

enum { TT_EXACT = 0, TT_LOWER = 1, TT_UPPER = 2 };
/* An entry's best move when it has none. */
#define TT_NO_MOVE 255

typedef struct {
    uint64_t key;
    int32_t score;  /* as the search stores it (mate scores counted from the entry's node) */
    int16_t depth;  /* plies searched below the node */
    uint8_t flag;   /* TT_EXACT, TT_LOWER (score >= it) or TT_UPPER (score <= it) */
    uint8_t best;   /* index of the best move in the generator's order, or TT_NO_MOVE */
} TTEntry;

typedef struct {
    TTEntry *entries;
    uint64_t mask; /* entries - 1 */
} TT;

/* A table of the largest power of two entries not above `entries` (at least 1024).
 * Returns 0, or -1 when out of memory. */
int tt_init(TT *t, uint64_t entries);
void tt_free(TT *t);
void tt_clear(TT *t);
/* Entries in use. */
uint64_t tt_used(const TT *t);
static inline TTEntry *tt_slot(const TT *t, uint64_t key) { return &t->entries[key & t->mask]; }

#endif
