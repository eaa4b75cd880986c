/* The static evaluation: hand-made terms built from the rule parameters (damiera/engine/
 * evaluate.py documents each term and its value), plus trained patterns of men where a weights
 * file (weights.h) or tables are given. Scores are centi-men for the side to move. */
#ifndef DAMIERA_EVAL_H
#define DAMIERA_EVAL_H

#include <stddef.h>
#include <stdint.h>

#include "position.h"
#include "weights.h"

/* The score when the side to move has no quiet move (callers ask only without a capture). */
#define NO_MOVES (-(1 << 30))
/* Every other score lies within +-EVAL_LIMIT (1,000 men): trained tables and terms of any
 * weights a file may hold cannot reach the search's mate scores (search.h checks). */
#define EVAL_LIMIT 100000

/* The hand-made terms' values, centi-men (evaluate.py's table says what each rewards). */
#define EVAL_MAN 100
#define EVAL_KING_FLYING 300
#define EVAL_KING_SHORT 150
#define EVAL_KING_SHORT_SAFE 170
#define EVAL_BACK_GUARD 10
#define EVAL_BACK_GUARD_VS_KINGS 3
#define EVAL_CENTRE 5
#define EVAL_MOBILITY 2
#define EVAL_BALANCE 3
#define EVAL_TEMPO 8
#define EVAL_MAIN_DIAGONAL 20
#define EVAL_DOUBLE_CORNER 30
#define EVAL_CHASE 4
#define EVAL_RUNAWAY_ROWS 3
#define EVAL_RUNAWAY_STEP 10
/* Breakthrough (goal.h): a man's advancement weighs EVAL_BT_ADVANCE times more, and a man
 * that runs away to the far row is worth EVAL_BT_RUNAWAY less EVAL_RUNAWAY_STEP a row to go
 * (its promotion wins the game). */
#define EVAL_BT_ADVANCE 3
#define EVAL_BT_RUNAWAY 600
/* Learned terms (a version 4 weights file weighs them, weights.h): each is White's feature
 * less Black's, in units of 1/start of the start position's pieces, so that a term can grow
 * or fade with the pieces left (p = min(pieces, start)); the evaluation adds the sum of
 * weight x feature over start (centi-men, rounded toward zero). In this order:
 *   KINGS             kings, x start
 *   KINGS_OPENING     kings, x p (a king made early)
 *   MEN_WITH_KINGS    men, x start, while any king is on the board
 *   LONE_KINGS        1 x start for the side that alone has kings
 *   LONE_KINGS_MEN    the other side's men x start, for the side that alone has kings
 *   PIECES_BOTH_KINGS pieces, x start, while both sides have kings
 *   TEMPO_ENDING      the rows its men have advanced, x (start - p), while no king is on the
 *                     board
 *   MEN_ENDING        men, x (start - p) */
enum {
    TERM_KINGS, TERM_KINGS_OPENING, TERM_MEN_WITH_KINGS, TERM_LONE_KINGS, TERM_LONE_KINGS_MEN,
    TERM_PIECES_BOTH_KINGS, TERM_TEMPO_ENDING, TERM_MEN_ENDING, EVAL_TERMS
};
/* Bits of one packed pattern field: a window's pattern is below 3^8 = 6561 < 2^13. */
#define EVAL_FIELD_BITS 13
/* King windows (weights.h, version 5): windows whose squares have five states (empty, white
 * man, black man, white king, black king), read only while a king is on the board. At most
 * KING_WINDOW_MAX_ROWS rows: a pattern below 5^6 = 15625 < 2^14 fills one field. */
#define KING_WINDOW_MAX_ROWS 3
#define KING_FIELD_BITS 14

typedef struct {
    const Rules *r; /* must outlive the evaluation */
    int king_value, start_pieces, runaway_bonus;
    board_t white_home, black_home, left, right, white_zone, black_zone, main_diagonal,
        double_corner;
    int white_sq[MAX_BITS], black_sq[MAX_BITS]; /* advancement and centre per square */
    board_t white_cone[MAX_BITS], black_cone[MAX_BITS]; /* squares that stop a runaway man */
    int white_to_go[MAX_BITS], black_to_go[MAX_BITS];    /* its rows to the king row */
    /* Trained patterns (none while pattern_rows is 0). */
    int pattern_rows, window_rows, pattern_size;
    int phases, phase_stride; /* 1 or 2 sets of tables; the endgame's start phase_stride on */
    int row_shifts[MAX_SIZE];
    int64_t *row_places; /* a row's digits at place 0 of a window, (1 << 2h) entries */
    int16_t *weights;    /* window tables, centi-men (int16: half the cache of int) */
    uint64_t row_mask;
    /* Learned terms' weights (none while terms is 0). */
    int terms;
    int term_weights[EVAL_TERMS];
    /* King windows (none while king_rows is 0): one table of king_size weights per window
     * (every window, partners expanded), and a row's five-state digits at place 0 of a
     * window from its men and from its kings (each (1 << 2h) entries: White's row bits, then
     * Black's h bits above them), which add without a carry (a square holds one piece). */
    int king_rows, king_window_rows, king_size;
    int16_t *king_weights;
    int64_t *king_men_places, *king_kings_places;
} Eval;

/* The hand-made evaluation of r's rules, without patterns. */
void eval_init(Eval *e, const Rules *r);
/* Add trained patterns: `phases` (1, or 2: an opening's tables then an endgame's, blended by
 * the pieces left) sets of one table per window of `rows` rows (weights.h's order), 3^(2 rows)
 * weights each, `count` in all, White's view. Returns 0, or -1 with a message in err when
 * they do not fit the board (a row's packed fields fill 64 bits: boards up to 10x10), or when out of memory. */
int eval_set_patterns(Eval *e, int rows, int phases, const int16_t *tables, size_t count,
                      char *err, size_t errlen);
/* Add king windows: one table of 5^(2 rows) weights per window of `rows` rows (1 to
 * KING_WINDOW_MAX_ROWS; weights.h's window order), `count` in all, White's view. Returns 0, or
 * -1 with a message in err when they do not fit the board or when out of memory. */
int eval_set_king_windows(Eval *e, int rows, const int16_t *tables, size_t count, char *err,
                          size_t errlen);
/* Free the pattern tables and the king windows (the evaluation is hand-made again, terms
 * kept). */
void eval_free(Eval *e);
/* Weigh the first `count` learned terms (0..EVAL_TERMS; the rest weigh 0). */
void eval_set_terms(Eval *e, const int16_t *weights, int count);
/* The learned terms' features of a position (White's view, units of 1/start), out[EVAL_TERMS]:
 * what the trainer fits the terms' weights on. */
void eval_term_features(const Eval *e, board_t white, board_t black, board_t kings,
                        int out[EVAL_TERMS]);

/* Score for the side to move (side 0 White, 1 Black), centi-men, or NO_MOVES. */
int evaluate(const Eval *e, board_t white, board_t black, board_t kings, int side);

#endif
