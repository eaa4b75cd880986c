/* Zobrist keys of positions: one random 64-bit word per kind of piece (white man, white king,
 * black man, black king) and square, one for Black to move; a position's key is the xor of
 * its pieces' words, updated move by move (hash_child) in the search. */
#ifndef DAMIERA_HASH_H
#define DAMIERA_HASH_H

#include <stdint.h>

#include "position.h"

typedef struct {
    uint64_t piece[4][MAX_BITS]; /* white man, white king, black man, black king */
    uint64_t black_to_move;
} Keys;

/* The keys: the same words for every board and every process (a fixed seed). */
void keys_init(Keys *k);
uint64_t hash_position(const Keys *k, board_t white, board_t black, board_t kings, int side);
static inline uint64_t hash_node(const Keys *k, const Node *n)
{
    return hash_position(k, node_white(n), node_black(n), n->kings, n->side);
}
/* The key after m by side from a position of key h (incremental: the pieces m moves, takes
 * and crowns, and the side to move). */
uint64_t hash_child(const Keys *k, uint64_t h, const CMove *m, int side);

#endif
