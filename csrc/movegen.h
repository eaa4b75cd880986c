/* Legal move generation (RULES.md sections 1 and 2) for the rules of a Rules (position.h),
 * and the counts other units ask of it: whether a side can capture, how many quiet moves it
 * has (the evaluation's mobility and perft's last ply). */
#ifndef DAMIERA_MOVEGEN_H
#define DAMIERA_MOVEGEN_H

#include <stdint.h>

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
int gen_legal(const Rules *r, uint64_t own, uint64_t opp, uint64_t kings, int side, MoveList *out);
/* Every complete capture sequence before the capture-choice rule (explanations). */
int gen_raw_captures(const Rules *r, uint64_t own, uint64_t opp, uint64_t kings, int side,
                     MoveList *out);
/* Every quiet move (as if no capture existed). */
int gen_quiet(const Rules *r, uint64_t own, uint64_t opp, uint64_t kings, int side, MoveList *out);
/* Sort moves by their paths in notation order (the order legal_moves lists them). */
void sort_moves(const Rules *r, CMove *m, int n);
/* True when side has a capture (bitboard test). */
int has_capture(const Rules *r, uint64_t own, uint64_t opp, uint64_t kings, int side);

/* Number of quiet moves of side (own its pieces), counted on bitboards without building them:
 * men one step forward, kings every way (any distance when flying). The one count of them:
 * perft's bulk counting and the evaluation's mobility both use it. */
static inline int count_quiet(const Rules *r, uint64_t own, uint64_t opp, uint64_t kings,
                              int side)
{
    uint64_t empty = r->mask & ~(own | opp);
    int h = r->half, n = 0;
    uint64_t men = own & ~kings, k = own & kings;
    for (int a = h; a <= h + 1; a++) {
        if (side == 0)
            n += popcount64(men >> a & empty);
        else
            n += popcount64(men << a & empty);
    }
    if (k) {
        for (int a = h; a <= h + 1; a++) {
            uint64_t up = k >> a & empty, down = k << a & empty;
            n += popcount64(up) + popcount64(down);
            if (r->flying) {
                while (up) {
                    up = up >> a & empty;
                    n += popcount64(up);
                }
                while (down) {
                    down = down << a & empty;
                    n += popcount64(down);
                }
            }
        }
    }
    return n;
}

#endif
