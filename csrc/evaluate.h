/* The static evaluation in the native core: damiera.engine.evaluate's terms, term by term,
 * from the tables and weights its Evaluator builds (load_eval reads them off the object). */
#ifndef DAMIERA_EVALUATE_H
#define DAMIERA_EVALUATE_H

#include <Python.h>
#include <stdint.h>

#include "movegen.h"

/* The score when the side to move has no quiet move (callers ask only without a capture). */
#define NO_MOVES (-(1 << 30))

typedef struct {
    int king_value, start_pieces, back_guard, back_guard_vs_kings, balance, mobility, tempo;
    int runaway_bonus, flying, size, half;
    uint64_t mask, white_home, black_home, left, right, white_zone, black_zone, main_diagonal,
        double_corner;
    int white_sq[MAX_BITS], black_sq[MAX_BITS];
    uint64_t white_cone[MAX_BITS], black_cone[MAX_BITS];
    int white_to_go[MAX_BITS], black_to_go[MAX_BITS];
    int row[MAX_BITS], col[MAX_BITS];
    int window_rows, pattern_size, nrows, nplaces;
    int phases, phase_stride; /* 1 or 2 sets of tables; the endgame's start phase_stride on */
    int row_shifts[16];
    int64_t *row_places; /* a row's digits at place 0 of a window, (1 << 2h) entries */
    int16_t *weights; /* window tables, centi-men (int16: half the cache of int) */
    uint64_t row_mask;
} Eval;

/* Score for the side to move (side 0 White, 1 Black), centi-men, or NO_MOVES. */
int evaluate(const Eval *e, uint64_t white, uint64_t black, uint64_t kings, int side);
/* Fill e from a damiera.engine.evaluate.Evaluator; 0, or -1 with a Python error set. */
int load_eval(Eval *e, PyObject *evaluator);
void free_eval(Eval *e);

#endif
