/* The checks at the core's boundary and the constants it publishes (boundary.h). */
#include "boundary.h"

#include <stdio.h>
#include <stdlib.h>

#include "weights.h"

#define TEXT(x) #x
#define NUMBER(x) TEXT(x)

const char *node_from_colours(const Rules *r, board_t white, board_t black, board_t kings,
                              int black_to_move, int moves, Node *n)
{
    const char *why = position_check(r, white, black, kings, moves);
    if (why)
        return why;
    n->side = black_to_move;
    n->own = black_to_move ? black : white;
    n->opp = black_to_move ? white : black;
    n->kings = kings;
    return NULL;
}

const char *move_from_fields(long start, long end, board_t captured, board_t captured_kings,
                             CMove *m)
{
    if (start < 0 || start >= MAX_BITS || end < 0 || end >= MAX_BITS ||
        (captured_kings & ~captured) || popcount_b(captured) > MAX_CAPS)
        return "a Move's squares are off the board";
    m->start = (uint8_t)start;
    m->end = (uint8_t)end;
    m->captured = captured;
    m->captured_kings = captured_kings;
    m->ncap = (uint8_t)popcount_b(captured);
    return NULL;
}

int limits_check(const Limits *l, char *err, size_t errlen)
{
    if (l->depth < 0 || l->depth > MAX_PLY - 10)
        snprintf(err, errlen, "depth must be 0-%d plies, not %d", MAX_PLY - 10, l->depth);
    else if (!(l->movetime >= 0 && l->movetime <= MAX_MOVETIME))
        snprintf(err, errlen, "movetime must be 0-%g seconds, not %g", MAX_MOVETIME,
                 l->movetime);
    else if (l->resting_king < 0 || l->resting_king > MAX_BITS)
        snprintf(err, errlen, "the resting king must be a square 0-%d or none, not %d",
                 MAX_BITS - 1, l->resting_king - 1);
    else if (l->nodes < 0)
        snprintf(err, errlen, "nodes must be 0 or more, not %lld", l->nodes);
    else if (!(l->remaining >= 0 && l->remaining <= MAX_CLOCK))
        snprintf(err, errlen, "remaining must be 0-%g seconds, not %g", MAX_CLOCK,
                 l->remaining);
    else if (!(l->increment >= 0 && l->increment <= MAX_MOVETIME))
        snprintf(err, errlen, "increment must be 0-%g seconds, not %g", MAX_MOVETIME,
                 l->increment);
    else if (l->moves_to_go < 0 || l->moves_to_go > MAX_MOVES_TO_GO)
        snprintf(err, errlen, "moves_to_go must be 0-%d, not %d", MAX_MOVES_TO_GO,
                 l->moves_to_go);
    else if (l->ply < 0 || l->ply > MAX_GAME_PLY)
        snprintf(err, errlen, "ply must be 0-%d, not %d", MAX_GAME_PLY, l->ply);
    else
        return 0;
    return -1;
}

const char *tt_entries_check(long long entries)
{
    if (entries < 1 || entries > ((long long)1 << 32))
        return "tt_entries must be from 1 to 2**32";
    return NULL;
}

const char *egdb_request_check(const Rules *r, int pieces)
{
    int most = egdb_max_pieces(r);
    if (!most)
        return "endgame databases exist for the dark squares of 8x8 and 10x10 boards only";
    if (pieces < 2 || pieces > EGDB_MAX_PIECES)
        return "pieces must be from 2 to " NUMBER(EGDB_MAX_PIECES);
    if (pieces > most)
        return "pieces must be from 2 to " NUMBER(EGDB_MAX_PIECES_10X10) " on 10x10 boards";
    return NULL;
}

long long history_first(long long total, int draw_plies)
{
    long long keep = (long long)draw_plies + 1;
    return total > keep ? total - keep : 0;
}

int eval_load_weights(Eval *e, const char *path, const char *key, char *err, size_t errlen)
{
    Weights w;
    int rc = weights_read(e->r, path, key, &w, err, errlen);
    if (rc != WEIGHTS_OK)
        return rc;
    rc = eval_set_patterns(e, w.rows, w.phases, w.tables, w.count, err, errlen);
    if (rc == 0 && w.king_rows)
        rc = eval_set_king_windows(e, w.king_rows, w.king_tables, w.king_count, err, errlen);
    free(w.tables);
    free(w.king_tables);
    if (rc == 0)
        eval_set_terms(e, w.term_weights, w.terms);
    return rc < 0 ? WEIGHTS_BAD : WEIGHTS_OK;
}

int eval_patterns_from_bytes(Eval *e, int rows, int phases, const void *bytes, size_t len,
                             char *err, size_t errlen)
{
    if (len % 2) {
        snprintf(err, errlen, "tables must be 16-bit weights");
        return -1;
    }
    return eval_set_patterns(e, rows, phases, bytes, len / 2, err, errlen);
}

const CoreConstant CORE_CONSTANTS[] = {
    {"MATE", MATE}, {"MATE_BOUND", MATE_BOUND}, {"INF", INF}, {"MAX_PLY", MAX_PLY},
    {"PV_MAX", PV_MAX}, {"ASPIRATION_WINDOW", ASPIRATION_WINDOW},
    {"ASPIRATION_DEPTH", ASPIRATION_DEPTH}, {"MAX_CAPS", MAX_CAPS}, {"NO_MOVES", NO_MOVES},
    {"MAN", EVAL_MAN}, {"KING_FLYING", EVAL_KING_FLYING}, {"KING_SHORT", EVAL_KING_SHORT},
    {"KING_SHORT_SAFE", EVAL_KING_SHORT_SAFE}, {"BACK_GUARD", EVAL_BACK_GUARD},
    {"BACK_GUARD_VS_KINGS", EVAL_BACK_GUARD_VS_KINGS}, {"CENTRE", EVAL_CENTRE},
    {"MOBILITY", EVAL_MOBILITY}, {"BALANCE", EVAL_BALANCE}, {"TEMPO", EVAL_TEMPO},
    {"MAIN_DIAGONAL", EVAL_MAIN_DIAGONAL}, {"DOUBLE_CORNER", EVAL_DOUBLE_CORNER},
    {"CHASE", EVAL_CHASE}, {"RUNAWAY_ROWS", EVAL_RUNAWAY_ROWS},
    {"RUNAWAY_STEP", EVAL_RUNAWAY_STEP}, {"EGDB_MAX_PIECES", EGDB_MAX_PIECES},
    {"EGDB_MAX_PIECES_10X10", EGDB_MAX_PIECES_10X10},
    {"MAX_MOVES_TO_GO", MAX_MOVES_TO_GO}, {"MAX_GAME_PLY", MAX_GAME_PLY},
    {"MAX_MOVETIME", (long)MAX_MOVETIME}, {"MAX_CLOCK", (long)MAX_CLOCK},
    {"TERMS", EVAL_TERMS}};

const size_t CORE_CONSTANT_COUNT = sizeof CORE_CONSTANTS / sizeof *CORE_CONSTANTS;
