/* The transposition table (tt.h). */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

uint64_t tt_size_for(uint64_t entries)
{
    uint64_t size = 1;
    while (size * 2 <= (entries > 1024 ? entries : 1024) && size < ((uint64_t)1 << 40))
        size *= 2;
    return size;
}

int tt_init(TT *t, uint64_t entries)
{
    uint64_t size = tt_size_for(entries);
    /* calloc (pages the search never reaches stay untouched), moved up to 64 bytes so that
     * a bucket never straddles two cache lines. */
    t->block = calloc(size + 4, sizeof(TTEntry));
    if (!t->block) {
        t->entries = NULL;
        t->mask = 0;
        t->size = 0;
        return -1;
    }
    t->entries = (TTEntry *)(((uintptr_t)t->block + 63) & ~(uintptr_t)63);
    t->size = size;
    t->mask = size / 2 - 1;
    t->generation = 0;
    return 0;
}

void tt_free(TT *t)
{
    free(t->block);
    t->block = NULL;
    t->entries = NULL;
    t->mask = 0;
    t->size = 0;
}

void tt_clear(TT *t)
{
    memset(t->entries, 0, t->size * sizeof(TTEntry));
    t->generation = 0;
}

uint64_t tt_used(const TT *t)
{
    uint64_t used = 0;
    for (uint64_t i = 0; i < t->size; i++)
        used += t->entries[i].key != 0;
    return used;
}
