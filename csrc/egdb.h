/* Endgame database: the exact game-theoretic value of every 8x8 position with at most a few
 * pieces, solved in memory by retrograde analysis over the rules core's own move generator
 * (movegen.c: every move, capture, capture-choice rule and promotion comes from gen_legal).
 *
 * Values are win / draw / loss for the side to move with the distance in plies to the end of
 * the game (distance to win, DTW: the winner shortest, the loser longest), without any draw
 * rule: the no-progress counter (RULES.md section 1) is applied by whoever probes, against that
 * distance (a win of d plies stands when the plies already played without progress plus d stay
 * below the limit).
 */
#ifndef DAMIERA_EGDB_H
#define DAMIERA_EGDB_H

#include <stdint.h>

#include "position.h"

/* Most pieces (both sides together) a database may hold. */
#define EGDB_MAX_PIECES 4

enum { EGDB_UNKNOWN = -2, EGDB_LOSS = -1, EGDB_DRAW = 0, EGDB_WIN = 1 };

typedef struct {
    uint16_t *val; /* per index: 0 off the database (an impossible position), see egdb.c */
    uint64_t size; /* number of indices (both sides to move) */
    uint64_t sizes[4];
} EgdbClass;

typedef struct Egdb {
    const Rules *r;
    int pieces;
    uint64_t positions; /* legal positions stored */
    uint64_t bytes;     /* memory of the value tables */
    int max_distance;   /* longest win found, in plies */
    uint64_t binom[33][EGDB_MAX_PIECES + 1]; /* binomial coefficients of the indices */
    uint8_t bit_of[32];       /* playing square (0-31, ascending bits) -> bit */
    int8_t dense_of[MAX_BITS]; /* bit -> playing square, -1 off the board */
    EgdbClass cls[EGDB_MAX_PIECES + 1][EGDB_MAX_PIECES + 1][EGDB_MAX_PIECES + 1]
                 [EGDB_MAX_PIECES + 1]; /* by white men, white kings, black men, black kings */
} Egdb;

/* Solve every position of up to `pieces` pieces (2 <= pieces <= EGDB_MAX_PIECES) for the 8x8
 * rules r (which must outlive the database). Returns NULL when out of memory, for a board
 * that is not 8x8 or for pieces outside 2..EGDB_MAX_PIECES. */
Egdb *egdb_build(const Rules *r, int pieces);
void egdb_free(Egdb *db);

/* The value of a position (side to move: own; side 0 White, 1 Black): EGDB_WIN, EGDB_DRAW or
 * EGDB_LOSS with *plies the distance to the end of the game, or EGDB_UNKNOWN when it has more
 * pieces than the database or the side not to move has no piece (a finished game). */
int egdb_probe(const Egdb *db, uint64_t own, uint64_t opp, uint64_t kings, int side, int *plies);

#endif
