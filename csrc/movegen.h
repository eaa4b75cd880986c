/* Legal move generation (RULES.md sections 1 and 2) for the rules of a Rules (position.h),
 * and the counts other units ask of it: whether a side can capture, how many quiet moves it
 * has (the evaluation's mobility and perft's last ply). */
#ifndef DAMIERA_MOVEGEN_H
#define DAMIERA_MOVEGEN_H

#include "position.h"

typedef struct {
    CMove *m;
    int n, cap;
} MoveList;

int movelist_reserve(MoveList *l, int n);
void movelist_free(MoveList *l);

/* Legal moves of side (0 White, 1 Black) whose pieces are own: the capture-choice rule
 * applied, equal captures once, quiet moves only without a capture or under optional
 * capture. Unordered. Returns 0, or -1 when out of memory. */
int gen_legal(const Rules *r, board_t own, board_t opp, board_t kings, int side, MoveList *out);
/* Every complete capture sequence before the capture-choice rule (explanations). */
int gen_raw_captures(const Rules *r, board_t own, board_t opp, board_t kings, int side,
                     MoveList *out);
/* Every quiet move (as if no capture existed). */
int gen_quiet(const Rules *r, board_t own, board_t opp, board_t kings, int side, MoveList *out);
/* Sort moves by their paths in notation order (the order legal_moves lists them). */
void sort_moves(const Rules *r, CMove *m, int n);
/* True when side has a capture (bitboard test). */
int has_capture(const Rules *r, board_t own, board_t opp, board_t kings, int side);

/* x moved by o bits: up the word for o > 0, down for o < 0 (a step in one direction). */
static inline board_t shift_by(board_t x, int o) { return o > 0 ? x << o : x >> -o; }

/* Number of quiet moves of side (own its pieces), counted on bitboards without building them:
 * men one step each way of Rules.men_quiet, kings each way of Rules.king_quiet (any distance
 * when flying). The one count of them: perft's bulk counting and the evaluation's mobility
 * both use it. */
static inline int count_quiet(const Rules *r, board_t own, board_t opp, board_t kings,
                              int side)
{
    board_t empty = r->mask & ~(own | opp);
    int n = 0;
    board_t men = own & ~kings, k = own & kings;
    for (unsigned dirs = men ? r->men_quiet[side] : 0; dirs; dirs &= dirs - 1) {
        int d = __builtin_ctz(dirs);
        n += popcount_b(shift_by(men & r->has_nb[d], r->step[d]) & empty);
    }
    for (unsigned dirs = k ? r->king_quiet : 0; dirs; dirs &= dirs - 1) {
        int d = __builtin_ctz(dirs), o = r->step[d];
        board_t edge = r->has_nb[d], to = shift_by(k & edge, o) & empty;
        n += popcount_b(to);
        if (r->flying)
            while (to) {
                to = shift_by(to & edge, o) & empty;
                n += popcount_b(to);
            }
    }
    return n;
}

#endif
