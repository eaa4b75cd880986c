/* Perft: the number of leaf positions a given number of plies below a position, the standard
 * check of a move generator against published tables (equal captures counted once). */
#ifndef DAMIERA_PERFT_H
#define DAMIERA_PERFT_H

#include <stdint.h>

#include "position.h"

/* Asked every 2^16 nodes; nonzero stops the count (Ctrl-C, a caller's flag). */
typedef int (*poll_fn)(void *ctx);

/* Leaf nodes depth plies below the position (bulk counting at the last ply; depth is capped at
 * 63). poll (may be NULL) is called with ctx; when it stops the count, or memory runs out,
 * *stopped is set and the result is meaningless. */
uint64_t perft(const Rules *r, const Node *n, int depth, poll_fn poll, void *ctx, int *stopped);

#endif
