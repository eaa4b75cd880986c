/* The core's boundary: the numbers a caller from outside the C units hands over (the Python
 * binding, which reads them off Python values), checked and turned into the units' structs,
 * and the constants the units publish by name. Nothing here knows where the numbers came from;
 * every check answers NULL (or 0) when the value is good, else one line saying what is wrong,
 * and leaves its output untouched then.
 */
#ifndef DAMIERA_BOUNDARY_H
#define DAMIERA_BOUNDARY_H

#include <stddef.h>

#include "search.h"

/* A position given as colours (white, black, kings bitboards, black_to_move 0 or 1) as a Node
 * of r's board (r NULL: any board, what making a move needs); moves: one to generate moves of
 * (position_check says what that adds). */
const char *node_from_colours(const Rules *r, board_t white, board_t black, board_t kings,
                              int black_to_move, int moves, Node *n);

/* The squares and captures of a move given by its fields (start and end bits, the captured
 * pieces and the kings among them) into m: start, end, captured, captured_kings and ncap;
 * promotes and by_king are the caller's. Refused: a square outside 0..MAX_BITS-1, a captured
 * king that is not captured, more than MAX_CAPS captures. */
const char *move_from_fields(long start, long end, board_t captured, board_t captured_kings,
                             CMove *m);

/* A search's limits: depth 0 to MAX_PLY - 10 plies, movetime 0 to MAX_MOVETIME seconds, nodes
 * not negative, a game clock's remaining 0 to MAX_CLOCK seconds, increment 0 to MAX_MOVETIME
 * seconds, moves_to_go 0 to MAX_MOVES_TO_GO and ply 0 to MAX_GAME_PLY (a time that is not a
 * number is refused). Returns 0, or -1 with a message naming the first field out of range and
 * its range in err ("remaining must be 0-360000 seconds, not nan"). */
int limits_check(const Limits *lim, char *err, size_t errlen);

/* Entries of a transposition table: 1 to 2**32. */
const char *tt_entries_check(long long entries);

/* An endgame database for r's board of up to `pieces` pieces: the dark squares of 8x8 or
 * 10x10, 2 to EGDB_MAX_PIECES (EGDB_MAX_PIECES_10X10 on 10x10). */
const char *egdb_request_check(const Rules *r, int pieces);

/* The first of a game's `total` earlier positions a search needs: only the last draw_plies + 1
 * can matter (repetitions and the draw rule look back no further), so a long game costs no
 * more than that. */
long long history_first(long long total, int draw_plies);

/* The evaluation's trained patterns from the weights file at path (weights.h's format), for
 * the rules key `key` (weights_read). Returns WEIGHTS_OK, WEIGHTS_BAD with a message in err
 * (not a weights file of this board or of these rules, damaged, or out of memory), or
 * WEIGHTS_UNREADABLE with errno set. */
int eval_load_weights(Eval *e, const char *path, const char *key, char *err, size_t errlen);

/* The evaluation's trained patterns from a caller's bytes: `phases` sets of window tables of
 * `rows` rows, 16-bit weights in the machine's order, len bytes (an odd len is refused).
 * Returns 0, or -1 with a message in err. */
int eval_patterns_from_bytes(Eval *e, int rows, int phases, const void *bytes, size_t len,
                             char *err, size_t errlen);

/* The integer constants of the units under the names a caller reads them by (MATE, MAX_PLY,
 * the evaluation's term values, ...), CORE_CONSTANT_COUNT of them. */
typedef struct {
    const char *name;
    long value;
} CoreConstant;

extern const CoreConstant CORE_CONSTANTS[];
extern const size_t CORE_CONSTANT_COUNT;

#endif
