/* Zobrist keys (hash.h). */
#include "hash.h"

static uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void keys_init(Keys *k)
{
    uint64_t seed = 0xDA3E1A;
    for (int kind = 0; kind < 4; kind++)
        for (int s = 0; s < MAX_BITS; s++)
            k->piece[kind][s] = splitmix(&seed);
    k->black_to_move = splitmix(&seed);
}

uint64_t hash_position(const Keys *k, board_t white, board_t black, board_t kings, int side)
{
    uint64_t h = side ? k->black_to_move : 0;
    board_t bbs[4] = {white & ~kings, white & kings, black & ~kings, black & kings};
    for (int kind = 0; kind < 4; kind++)
        for (board_t b = bbs[kind]; b; b &= b - 1)
            h ^= k->piece[kind][lowest_bit(b)];
    return h;
}

uint64_t hash_child(const Keys *k, uint64_t h, const CMove *m, int side)
{
    int own = side ? 2 : 0, opp = 2 - own;
    h ^= k->piece[own + m->by_king][m->start];
    h ^= k->piece[own + (m->by_king | m->promotes)][m->end];
    for (board_t b = m->captured & ~m->captured_kings; b; b &= b - 1)
        h ^= k->piece[opp][lowest_bit(b)];
    for (board_t b = m->captured_kings; b; b &= b - 1)
        h ^= k->piece[opp + 1][lowest_bit(b)];
    return h ^ k->black_to_move;
}
