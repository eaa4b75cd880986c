/* How a game ends by its rules' goal, the one definition the search and the Python Game both
 * use (RULES.md section 1 and the two goal options of Rules):
 *
 * - by default a side with no piece left, or with no legal move on its turn, loses;
 * - under the losing rule (Antidraughts, as lidraughts plays it) that side wins instead;
 *   captures stay compulsory, with the rule set's capture-choice rule;
 * - under breakthrough the first promotion wins at once: a position in which a side has a
 *   king is over, won by that side (a capture that ends on the far row and crowns counts,
 *   and so does a Russian capture that crowns on the way and goes on as a king). Before
 *   any king, a side without a move loses as usual.
 *
 * The draw rules (move limit, repetition) are the game's history, not the position's, and
 * stay with their callers. */
#ifndef DAMIERA_GOAL_H
#define DAMIERA_GOAL_H

#include "position.h"

enum {
    GOAL_NONE = 0,      /* the game goes on */
    GOAL_NO_PIECES = 1, /* a side has no piece left */
    GOAL_NO_MOVES = 2,  /* the side to move has no legal move */
    GOAL_KING = 3       /* breakthrough: a side has made a king */
};

/* The sign of the result for the side to move when it has no legal move (no piece left
 * included): -1 it has lost, +1 it has won (the losing rule). */
static inline int goal_stuck_sign(const Rules *r) { return r->losing ? 1 : -1; }

/* Whether playing m ends the game at once, won by its mover (a promotion under
 * breakthrough). */
static inline int goal_move_wins(const Rules *r, const CMove *m)
{
    return r->breakthrough && m->promotes;
}

/* Whether the side not to move in n has already won by breakthrough: it has a king (it made
 * one with its last move). The search asks this at every node under breakthrough. */
static inline int goal_opponent_crowned(const Rules *r, const Node *n)
{
    return r->breakthrough && (n->opp & n->kings) != 0;
}

/* How n ends: GOAL_NONE, or the reason with *winner set to the winning side (0 White, 1
 * Black). A breakthrough king counts first (the side not to move's, if both have one), then
 * a side without pieces, then the side to move without a legal move. */
int goal_end(const Rules *r, const Node *n, int *winner);

/* Whether the side to move has a quiet move that crowns a man (under breakthrough, a win in
 * one; the search's horizon asks when there is no capture). */
int goal_quiet_promotion(const Rules *r, const Node *n);

#endif
