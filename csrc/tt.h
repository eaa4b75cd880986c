/* The transposition table: a power-of-two array of entries in buckets of two (32 bytes, half
 * a cache line), the bucket chosen by the low bits of a position's key. In a bucket the first
 * entry keeps the deepest search of this search (depth-preferred), the second takes whatever
 * the first would not (always-replace); an entry from an earlier search (an older
 * generation) gives way to any new one. */
#ifndef DAMIERA_TT_H
#define DAMIERA_TT_H

#include <stddef.h>
#include <stdint.h>

enum { TT_EXACT = 0, TT_LOWER = 1, TT_UPPER = 2 };
/* An entry's best move when it has none. */
#define TT_NO_MOVE 255

typedef struct {
    uint64_t key;
    int32_t score;      /* as the search stores it (mate scores counted from the entry's node) */
    uint8_t depth;      /* plies searched below the node (1-255) */
    uint8_t generation; /* the table's generation when it was stored */
    uint8_t flag;       /* TT_EXACT, TT_LOWER (score >= it) or TT_UPPER (score <= it) */
    uint8_t best;       /* index of the best move in the generator's order, or TT_NO_MOVE */
} TTEntry;

typedef struct {
    TTEntry *entries;   /* 64-byte aligned, inside block */
    void *block;        /* as allocated */
    uint64_t mask;      /* buckets - 1; a bucket is entries 2i and 2i + 1 */
    uint64_t size;      /* entries */
    uint8_t generation; /* advanced by tt_new_search */
} TT;

/* The entries of a table asked for `entries`: the largest power of two not above it, at
 * least 1024. */
uint64_t tt_size_for(uint64_t entries);
/* A table of tt_size_for(entries) entries. Returns 0, or -1 when out of memory. */
int tt_init(TT *t, uint64_t entries);
void tt_free(TT *t);
void tt_clear(TT *t);
/* Entries in use. */
uint64_t tt_used(const TT *t);
/* A new search begins: what earlier searches stored may be replaced first. */
static inline void tt_new_search(TT *t) { t->generation++; }

/* The entry of `key` (nonzero), or NULL when the table holds none. */
static inline TTEntry *tt_probe(const TT *t, uint64_t key)
{
    TTEntry *b = &t->entries[(key & t->mask) * 2];
    if (b[0].key == key)
        return &b[0];
    if (b[1].key == key)
        return &b[1];
    return NULL;
}

/* Stores a search of `key` to `depth` plies (1-255; deeper is cut to 255) and returns the
 * entry. The first entry when it holds the key already, or when the new search is as deep
 * or the first is from an earlier search (its old content then moves to the second, over
 * the key's own older entry if that was there); else the second. */
static inline TTEntry *tt_store(TT *t, uint64_t key, int depth, int score, int flag, int best)
{
    TTEntry *b = &t->entries[(key & t->mask) * 2];
    uint8_t d = (uint8_t)(depth < 1 ? 1 : depth > 255 ? 255 : depth);
    TTEntry *e = &b[1];
    if (b[0].key == key)
        e = &b[0];
    else if (d >= b[0].depth || b[0].generation != t->generation) {
        b[1] = b[0];
        e = &b[0];
    }
    e->key = key;
    e->depth = d;
    e->generation = t->generation;
    e->flag = (uint8_t)flag;
    e->score = score;
    e->best = (uint8_t)(best >= 0 && best < TT_NO_MOVE ? best : TT_NO_MOVE);
    return e;
}

#endif
