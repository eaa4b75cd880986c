/* The transposition table (tt.h). */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

int tt_init(TT *t, uint64_t entries)
{
    uint64_t size = 1;
    while (size * 2 <= (entries > 1024 ? entries : 1024) && size < ((uint64_t)1 << 40))
        size *= 2;
    t->entries = calloc(size, sizeof(TTEntry));
    if (!t->entries) {
        t->mask = 0;
        return -1;
    }
    t->mask = size - 1;
    return 0;
}

void tt_free(TT *t)
{
    free(t->entries);
    t->entries = NULL;
    t->mask = 0;
}

void tt_clear(TT *t) { memset(t->entries, 0, (t->mask + 1) * sizeof(TTEntry)); }

uint64_t tt_used(const TT *t)
{
    uint64_t used = 0;
    for (uint64_t i = 0; i <= t->mask; i++)
        used += t->entries[i].key != 0;
    return used;
}
