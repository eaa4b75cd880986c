/* Endgame database: the exact game-theoretic value of every 8x8 or 10x10 position with at most
 * a few pieces, solved by retrograde analysis over the rules core's own move generator (movegen.c:
 * every move, capture, capture-choice rule and promotion comes from gen_legal), one material
 * class at a time; egdb_file.h writes a solved class to disk and reads it back.
 *
 * Values are win / draw / loss for the side to move with the distance in plies to the end of
 * the game (distance to win, DTW: the winner shortest, the loser longest), without any draw
 * rule: the no-progress counter (RULES.md section 1) is applied by whoever probes, against that
 * distance (a win of d plies stands when the plies already played without progress plus d stay
 * below the limit).
 */
#ifndef DAMIERA_EGDB_H
#define DAMIERA_EGDB_H

#include <stddef.h>
#include <stdint.h>

#include "position.h"

/* Most pieces (both sides together) a database may hold. */
#define EGDB_MAX_PIECES 6
/* Most pieces on 10x10: 5 pieces are 4.9 G indices (a byte each), 6 would be 1.6e11. */
#define EGDB_MAX_PIECES_10X10 5
/* Most playing squares of a board with databases (10x10: 50; 8x8: 32). */
#define EGDB_MAX_SQUARES 50
/* Longest distance a value byte holds: a win of up to 253 plies, a loss of up to 252. */
#define EGDB_MAX_DISTANCE 253
/* Classes of 2..EGDB_MAX_PIECES pieces, each side at least one. */
#define EGDB_MAX_CLASSES 256
/* Length of the rules' key (egdb_rules_key), the terminating NUL included. */
#define EGDB_KEY_LEN 64

enum { EGDB_UNKNOWN = -2, EGDB_LOSS = -1, EGDB_DRAW = 0, EGDB_WIN = 1 };
/* egdb_solve_class's failures. */
enum { EGDB_NO_MEMORY = -1, EGDB_NOT_IN_ORDER = -2, EGDB_TOO_LONG = -3, EGDB_STOPPED = -4 };
/* Asked by a class's solve every EGDB_STOP_EVERY positions it goes through: nonzero stops the
 * solve (a user's interrupt: a 10x10 class of 5 pieces takes minutes). */
typedef int (*EgdbStop)(void *ctx);
#define EGDB_STOP_EVERY (1 << 16)

/* The value byte of one index: 0 an impossible position (two pieces on a square, a man on its
 * own promotion row), 1 a draw, an even v >= 2 a win in v - 1 plies (wins are odd), an odd
 * v >= 3 a loss in v - 3 plies (losses are even). */
typedef struct {
    uint8_t *val;  /* size bytes, NULL until the class is solved or loaded */
    uint64_t size; /* number of indices (both sides to move) */
    uint64_t sizes[4];
    uint64_t positions; /* possible positions (values not 0) */
    int max_distance;   /* longest win, plies */
} EgdbClass;

typedef struct Egdb {
    const Rules *r;
    int pieces;
    uint64_t positions; /* legal positions of the classes ready */
    uint64_t bytes;     /* memory of the value tables ready */
    int max_distance;   /* longest win found, in plies */
    int nclasses;
    int order[EGDB_MAX_CLASSES][4]; /* the classes in solving order (white men, white kings,
                                       black men, black kings): fewer pieces first, then fewer
                                       men, so every move out of a class leads to an earlier
                                       one */
    int nsq; /* playing squares of the board (32 or 50) */
    uint64_t binom[EGDB_MAX_SQUARES + 1][EGDB_MAX_PIECES + 1]; /* binomial coefficients of the
                                                                  indices */
    uint8_t bit_of[EGDB_MAX_SQUARES]; /* playing square (0..nsq-1, ascending bits) -> bit */
    int8_t dense_of[MAX_BITS]; /* bit -> playing square, -1 off the board */
    EgdbClass cls[EGDB_MAX_PIECES + 1][EGDB_MAX_PIECES + 1][EGDB_MAX_PIECES + 1]
                 [EGDB_MAX_PIECES + 1]; /* by white men, white kings, black men, black kings */
} Egdb;

/* An empty database of up to `pieces` pieces (2 <= pieces <= EGDB_MAX_PIECES) for the rules r
 * of the dark squares of an 8x8 or 10x10 board (which must outlive it): its classes listed in
 * order, none solved. NULL when out of memory, for another board or for pieces outside
 * 2..EGDB_MAX_PIECES (EGDB_MAX_PIECES_10X10 on 10x10). */
Egdb *egdb_new(const Rules *r, int pieces);
/* Most pieces of a database for r's board: EGDB_MAX_PIECES on the dark squares of 8x8,
 * EGDB_MAX_PIECES_10X10 on those of 10x10, 0 on any other board (none). */
static inline int egdb_max_pieces(const Rules *r)
{
    if (r->all_squares)
        return 0;
    return r->size == 8 ? EGDB_MAX_PIECES : r->size == 10 ? EGDB_MAX_PIECES_10X10 : 0;
}
/* Solve the k-th class of db->order (every earlier one must be ready), asking stop(ctx) as it
 * goes when stop is not NULL. Returns 0, or EGDB_NO_MEMORY, EGDB_NOT_IN_ORDER (an earlier class
 * is not ready), EGDB_TOO_LONG (a distance beyond EGDB_MAX_DISTANCE), EGDB_STOPPED (stop said
 * so); the class stays unsolved then. */
int egdb_solve_class(Egdb *db, int k, EgdbStop stop, void *ctx);
/* The class at k of db->order, and whether it is solved or loaded. */
EgdbClass *egdb_class_at(Egdb *db, int k);
/* Position of class n (white men, white kings, black men, black kings) in db->order, or -1. */
int egdb_class_number(const Egdb *db, const int n[4]);
/* Count a class just filled (solved or loaded) in db's totals. */
void egdb_class_ready(Egdb *db, EgdbClass *c);
/* Every class solved in memory: egdb_new, then egdb_solve_class in order. NULL on any
 * failure. */
Egdb *egdb_build(const Rules *r, int pieces);
void egdb_free(Egdb *db);

/* The rule parameters the values depend on, as text ("8x8-f0-b0-k1-c0-p0-l0-r0-o0-m1": board,
 * flying kings, men capturing backward, men taking kings, capture choice, promotion during a
 * capture, landing right behind, removal at once, orthogonal captures, mandatory capture), at
 * most EGDB_KEY_LEN bytes with the NUL. The draw rule and the number of men at the start are
 * not in it: the values hold no draw rule. */
void egdb_rules_key(const Rules *r, char *key);

/* The value of a position (side to move: own; side 0 White, 1 Black): EGDB_WIN, EGDB_DRAW or
 * EGDB_LOSS with *plies the distance to the end of the game, or EGDB_UNKNOWN when it has more
 * pieces than the database, its class is not ready, or the side not to move has no piece (a
 * finished game). */
int egdb_probe(const Egdb *db, board_t own, board_t opp, board_t kings, int side, int *plies);

#endif
