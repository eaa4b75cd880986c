/* How a game ends by its rules' goal (goal.h). */
#include "goal.h"

#include "movegen.h"

int goal_end(const Rules *r, const Node *n, int *winner)
{
    int side = n->side, other = 1 - side;
    if (r->breakthrough && (n->kings & (n->own | n->opp))) {
        *winner = (n->kings & n->opp) ? other : side;
        return GOAL_KING;
    }
    int stuck = r->losing ? side : other;     /* who wins when the side to move is stuck */
    int emptied = r->losing ? other : side;   /* ... when the side not to move has no piece */
    if (!n->own) {
        *winner = stuck;
        return GOAL_NO_PIECES;
    }
    if (!n->opp) { /* only a position set up like this: the other side has no piece */
        *winner = emptied;
        return GOAL_NO_PIECES;
    }
    if (!has_capture(r, n->own, n->opp, n->kings, side) &&
        count_quiet(r, n->own, n->opp, n->kings, side) == 0) {
        *winner = stuck;
        return GOAL_NO_MOVES;
    }
    return GOAL_NONE;
}

int goal_quiet_promotion(const Rules *r, const Node *n)
{
    board_t men = n->own & ~n->kings, empty = r->mask & ~(n->own | n->opp);
    board_t promo = r->promo[n->side] & empty;
    for (; men; men &= men - 1) {
        int s = lowest_bit(men);
        for (unsigned dirs = r->men_quiet[n->side]; dirs; dirs &= dirs - 1) {
            int t = r->nb[__builtin_ctz(dirs)][s];
            if (t >= 0 && (promo >> t & 1))
                return 1;
        }
    }
    return 0;
}
