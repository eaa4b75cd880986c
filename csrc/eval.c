/* The static evaluation (eval.h): the tables of the hand-made terms built from the rule
 * parameters, the trained patterns' row tables, and the score of a position, term by term. */
#include "eval.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "weights.h"

_Static_assert(EVAL_TERMS == WEIGHTS_TERMS, "a weights file's learned terms are eval.h's");
_Static_assert(KING_WINDOW_MAX_ROWS == WEIGHTS_KING_ROWS,
               "a weights file's king windows are eval.h's");

static inline int popc(board_t x) { return popcount_b(x); }

static int runaways(const Eval *e, board_t men, board_t blockers, const board_t *cones,
                    const int *to_go)
{
    int total = 0;
    for (; men; men &= men - 1) {
        int s = lowest_bit(men);
        if (!(cones[s] & blockers))
            total += e->runaway_bonus - EVAL_RUNAWAY_STEP * to_go[s];
    }
    return total;
}

static int chase(const Eval *e, board_t strong, board_t weak)
{
    int total = 0;
    for (; strong; strong &= strong - 1) {
        int s = lowest_bit(strong), best = 1 << 20;
        for (board_t w = weak; w; w &= w - 1) {
            int t = lowest_bit(w);
            int dr = abs(e->r->row[s] - e->r->row[t]), dc = abs(e->r->col[s] - e->r->col[t]);
            int d = dr > dc ? dr : dc;
            if (d < best)
                best = d;
        }
        total += EVAL_CHASE * (e->r->size - best);
    }
    return total;
}

/* Flying kings: can the weaker side's king hold the draw? A king cannot be beaten by two
 * pieces, nor by three on 10x10, nor by three on 8x8 while it holds the main road. On 10x10
 * each of the stronger side's men counts as the king it may become and the weaker side may
 * keep men beside its king; on 8x8 only kings-only endings against a lone king count. These
 * are facts of kings that may land on any free square beyond the piece they capture. They do
 * not hold for kings that land right behind it (Rules.land_behind, Thai: two kings beat one
 * in every position of the endgame database, benchmarks/egdb_results.md), and for kings going
 * along rows and columns (Rules.straight) none is known (Turkish draws only one king against
 * one, a rule of the game): there the search judges such endings by material. */
static int holds_draw(const Eval *e, board_t strong_men, board_t strong_kings,
                      board_t weak_men, board_t weak_kings)
{
    if (!weak_kings || e->r->straight || e->r->land_behind)
        return 0;
    if (e->r->size < 10 && (strong_men || weak_men || popc(weak_kings) != 1))
        return 0;
    int strong = popc(strong_men | strong_kings);
    return strong <= 2 ||
           (strong == 3 && (e->r->size >= 10 || (weak_kings & e->main_diagonal)));
}

/* The windows' weights summed over the board (White's view). With two phases, each window
 * reads its opening and its endgame table (the endgame's lie phase_stride further on), and
 * the sums are blended by the pieces left (patterns.py, "Phases"). */
static int patterns(const Eval *e, board_t wm, board_t bm, int pieces)
{
    int h = e->r->half, total = 0, endgame = 0, offset = 0;
    const int16_t *late = e->weights + e->phase_stride;
    /* Each row's digits once (the place-0 table, the only one kept); a row at place p of a
     * window weighs 9^p (row_tables' place-p entry is exactly 9^p times its place-0 entry,
     * and no 13-bit field carries: a window's pattern is below 3^8 = 6561). */
    static const uint64_t POW9[4] = {1, 9, 81, 729};
    uint64_t digits[16];
    for (int i = 0; i < e->r->size; i++)
        digits[i] = (uint64_t)e->row_places[(uint64_t)((wm >> e->row_shifts[i]) & e->row_mask) |
                                            ((uint64_t)((bm >> e->row_shifts[i]) & e->row_mask) << h)];
    for (int r0 = 0; r0 < e->window_rows; r0++) {
        uint64_t fields = 0;
        for (int p = 0; p < e->pattern_rows; p++)
            fields += digits[r0 + p] * POW9[p];
        for (int k = 0; k < h - 1; k++) {
            int at = offset + (int)(fields & ((UINT64_C(1) << EVAL_FIELD_BITS) - 1));
            total += e->weights[at];
            if (e->phases == 2)
                endgame += late[at];
            fields >>= EVAL_FIELD_BITS;
            offset += e->pattern_size;
        }
    }
    if (e->phases == 2) {
        int start = e->start_pieces, p = pieces < start ? pieces : start;
        int blend = total * p + endgame * (start - p);
        /* Rounded toward zero either way, so that the colour-swapped position scores the
         * exact opposite. */
        return blend / start;
    }
    return total;
}

/* The king windows' weights summed over the board (White's view): as patterns(), with
 * five-state digits, each row's from its men and its kings. */
static int king_windows(const Eval *e, board_t wm, board_t bm, board_t wk, board_t bk)
{
    int h = e->r->half, total = 0, offset = 0;
    const uint64_t field = (UINT64_C(1) << KING_FIELD_BITS) - 1;
    static const uint64_t POW25[KING_WINDOW_MAX_ROWS] = {1, 25, 625};
    uint64_t digits[16];
    for (int i = 0; i < e->r->size; i++) {
        int shift = e->row_shifts[i];
        uint64_t men = (uint64_t)((wm >> shift) & e->row_mask) |
                       ((uint64_t)((bm >> shift) & e->row_mask) << h);
        uint64_t kings = (uint64_t)((wk >> shift) & e->row_mask) |
                         ((uint64_t)((bk >> shift) & e->row_mask) << h);
        digits[i] = (uint64_t)e->king_men_places[men] + (uint64_t)e->king_kings_places[kings];
    }
    for (int r0 = 0; r0 < e->king_window_rows; r0++) {
        uint64_t fields = 0;
        for (int p = 0; p < e->king_rows; p++)
            fields += digits[r0 + p] * POW25[p];
        for (int k = 0; k < h - 1; k++) {
            total += e->king_weights[offset + (int)(fields & field)];
            fields >>= KING_FIELD_BITS;
            offset += e->king_size;
        }
    }
    return total;
}

/* The learned terms' features (eval.h) from the pieces of each kind. */
static void term_features(const Eval *e, board_t wm, board_t bm, int nwm, int nbm, int nwk,
                          int nbk, int out[EVAL_TERMS])
{
    int start = e->start_pieces, left = nwm + nbm + nwk + nbk;
    int p = left < start ? left : start, late = start - p;
    int men = nwm - nbm, kings = nwk - nbk;
    int white_alone = nwk && !nbk, black_alone = nbk && !nwk;
    out[TERM_KINGS] = kings * start;
    out[TERM_KINGS_OPENING] = kings * p;
    out[TERM_MEN_WITH_KINGS] = (nwk || nbk) ? men * start : 0;
    out[TERM_LONE_KINGS] = (white_alone - black_alone) * start;
    out[TERM_LONE_KINGS_MEN] = (white_alone * nbm - black_alone * nwm) * start;
    out[TERM_PIECES_BOTH_KINGS] = (nwk && nbk) ? (men + kings) * start : 0;
    int tempo = 0;
    if (!nwk && !nbk) {
        int last = e->r->size - 1;
        for (board_t b = wm; b; b &= b - 1)
            tempo += last - e->r->row[lowest_bit(b)];
        for (board_t b = bm; b; b &= b - 1)
            tempo -= e->r->row[lowest_bit(b)];
    }
    out[TERM_TEMPO_ENDING] = tempo * late;
    out[TERM_MEN_ENDING] = men * late;
}

static int learned_terms(const Eval *e, board_t wm, board_t bm, int nwm, int nbm, int nwk,
                         int nbk)
{
    int f[EVAL_TERMS];
    term_features(e, wm, bm, nwm, nbm, nwk, nbk, f);
    long long sum = 0;
    for (int t = 0; t < e->terms; t++)
        sum += (long long)e->term_weights[t] * f[t];
    /* Toward zero either way, so that the colour-swapped position scores the exact opposite. */
    return (int)(sum / e->start_pieces);
}

void eval_term_features(const Eval *e, board_t white, board_t black, board_t kings,
                        int out[EVAL_TERMS])
{
    board_t wk = white & kings, bk = black & kings, wm = white ^ wk, bm = black ^ bk;
    term_features(e, wm, bm, popc(wm), popc(bm), popc(wk), popc(bk), out);
}

void eval_set_terms(Eval *e, const int16_t *weights, int count)
{
    memset(e->term_weights, 0, sizeof e->term_weights);
    e->terms = count < 0 ? 0 : count > EVAL_TERMS ? EVAL_TERMS : count;
    for (int t = 0; t < e->terms; t++)
        e->term_weights[t] = weights[t];
}

/* The losing rule (goal.h): the side with fewer pieces (a king, harder to give away, counts
 * as its usual worth) and fewer quiet moves (closer to having none) is ahead. */
static int evaluate_losing(const Eval *e, board_t white, board_t black, board_t kings,
                           int side)
{
    int kv = e->king_value;
    int wpieces = popc(white & ~kings) * EVAL_MAN + popc(white & kings) * kv;
    int bpieces = popc(black & ~kings) * EVAL_MAN + popc(black & kings) * kv;
    int wmob = count_quiet(e->r, white, black, kings, 0);
    int bmob = count_quiet(e->r, black, white, kings, 1);
    if ((side == 0 ? wmob : bmob) == 0)
        return NO_MOVES;
    int score = (bpieces - wpieces) - EVAL_MOBILITY * (wmob - bmob);
    return side == 0 ? score + EVAL_TEMPO : EVAL_TEMPO - score;
}

int evaluate(const Eval *e, board_t white, board_t black, board_t kings, int side)
{
    if (e->r->losing)
        return evaluate_losing(e, white, black, kings, side);
    board_t wk = white & kings, bk = black & kings, wm = white ^ wk, bm = black ^ bk;
    int nwm = popc(wm), nbm = popc(bm), nwk = popc(wk), nbk = popc(bk);
    int kv = e->king_value;
    int score = (nwm * EVAL_MAN + nwk * kv) - (nbm * EVAL_MAN + nbk * kv);
    int left = nwm + nbm + nwk + nbk;
    int trade = abs(score) * (e->start_pieces - left) / (2 * e->start_pieces);
    score += score > 0 ? trade : -trade;
    for (board_t b = wm; b; b &= b - 1)
        score += e->white_sq[lowest_bit(b)];
    for (board_t b = bm; b; b &= b - 1)
        score -= e->black_sq[lowest_bit(b)];
    score += (bk ? EVAL_BACK_GUARD_VS_KINGS : EVAL_BACK_GUARD) * popc(wm & e->white_home);
    score -= (wk ? EVAL_BACK_GUARD_VS_KINGS : EVAL_BACK_GUARD) * popc(bm & e->black_home);
    score -= EVAL_BALANCE * (abs(popc(white & e->left) - popc(white & e->right)) -
                           abs(popc(black & e->left) - popc(black & e->right)));
    int wmob = count_quiet(e->r, white, black, kings, 0);
    int bmob = count_quiet(e->r, black, white, kings, 1);
    if ((side == 0 ? wmob : bmob) == 0)
        return NO_MOVES;
    score += EVAL_MOBILITY * (wmob - bmob);
    if (!bk && (wm & e->white_zone))
        score += runaways(e, wm & e->white_zone, black | wm, e->white_cone, e->white_to_go);
    if (!wk && (bm & e->black_zone))
        score -= runaways(e, bm & e->black_zone, white | bm, e->black_cone, e->black_to_go);
    if (e->pattern_rows)
        score += patterns(e, wm, bm, left);
    if (e->terms)
        score += learned_terms(e, wm, bm, nwm, nbm, nwk, nbk);
    if (e->king_rows && (wk || bk))
        score += king_windows(e, wm, bm, wk, bk);
    if (wk || bk) {
        if (e->r->flying) {
            board_t d = e->main_diagonal;
            score += EVAL_MAIN_DIAGONAL * (popc(wk & d) - popc(bk & d));
            if (score > 0 && holds_draw(e, wm, wk, bm, bk))
                score /= 8;
            else if (score < 0 && holds_draw(e, bm, bk, wm, wk))
                score = -((-score) / 8);
        } else if (!wm && !bm) {
            board_t dc = e->double_corner;
            if (nwk > nbk) {
                score -= EVAL_DOUBLE_CORNER * popc(bk & dc);
                score += chase(e, wk, bk);
            } else if (nbk > nwk) {
                score += EVAL_DOUBLE_CORNER * popc(wk & dc);
                score -= chase(e, bk, wk);
            }
        }
    }
    /* Symmetric bounds, so that the colour-swapped position still scores the exact opposite. */
    score = score > EVAL_LIMIT ? EVAL_LIMIT : score < -EVAL_LIMIT ? -EVAL_LIMIT : score;
    return side == 0 ? score + EVAL_TEMPO : EVAL_TEMPO - score;
}

/* ---------------------------------------------------------------------------------------- */
/* Tables */

/* Advancement of a man k rows from its home row on an n-row board: 2k + 20 (k / (n-2))^3,
 * rounded half to even (steady, then steep near the king row). */
static int advancement(int k, int n)
{
    return (int)nearbyint(2 * k + 20 * pow((double)k / (n - 2), 3));
}

void eval_init(Eval *e, const Rules *r)
{
    memset(e, 0, sizeof *e);
    e->r = r;
    int n = r->size, h = r->half;
    e->king_value = r->flying           ? EVAL_KING_FLYING
                    : r->men_take_kings ? EVAL_KING_SHORT
                                        : EVAL_KING_SHORT_SAFE;
    e->start_pieces = popcount_b(r->mask) / n * r->man_rows * 2;
    e->runaway_bonus = r->breakthrough ? EVAL_BT_RUNAWAY : (e->king_value - EVAL_MAN) / 2;
    int advance = r->breakthrough ? EVAL_BT_ADVANCE : 1;
    e->white_home = r->promo[1];
    e->black_home = r->promo[0];
    for (int s = 0; s < MAX_BITS; s++) {
        if (!(r->mask >> s & 1))
            continue;
        board_t bit = BIT(s);
        int row = r->row[s], c = r->col[s];
        if (row >= 1 && row <= n - 2) {
            e->white_sq[s] += advance * advancement(n - 1 - row, n);
            e->black_sq[s] += advance * advancement(row, n);
        }
        if (n / 2 - 2 <= row && row <= n / 2 + 1 && 2 <= c && c <= n - 3) {
            e->white_sq[s] += EVAL_CENTRE;
            e->black_sq[s] += EVAL_CENTRE;
        }
        if (row + c == n - 1)
            e->main_diagonal |= bit;
        if ((row == 0 && c == 1) || (row == 1 && c == 0) || (row == n - 1 && c == n - 2) ||
            (row == n - 2 && c == n - 1))
            e->double_corner |= bit;
        if (c <= n / 2 - 2)
            e->left |= bit;
        else if (c >= n / 2 + 1)
            e->right |= bit;
        /* A man within EVAL_RUNAWAY_ROWS rows of its king row runs away when no piece stands
         * in the cone ahead of it (widening by one file a row, plus one). */
        for (int white = 1; white >= 0; white--) {
            int to_go = white ? row : n - 1 - row;
            if (to_go < 1 || to_go > EVAL_RUNAWAY_ROWS)
                continue;
            board_t cone = 0;
            for (int t = 0; t < MAX_BITS; t++) {
                if (!(r->mask >> t & 1))
                    continue;
                int ahead = white ? row - r->row[t] : r->row[t] - row;
                if (1 <= ahead && ahead <= to_go && abs((int)r->col[t] - c) <= ahead + 1)
                    cone |= BIT(t);
            }
            if (white) {
                e->white_zone |= bit;
                e->white_cone[s] = cone;
                e->white_to_go[s] = to_go;
            } else {
                e->black_zone |= bit;
                e->black_cone[s] = cone;
                e->black_to_go[s] = to_go;
            }
        }
    }
    e->row_mask = ((uint64_t)1 << h) - 1;
    for (int row = 0; row < n; row++)
        e->row_shifts[row] = row * h + row / 2;
}

/* A row's digits at place 0 of a window, out[x] for every row x (White's row bits, then
 * Black's h bits above them; a square cannot hold both colours, such x stay 0): for every
 * file pair j, left + base * right in bits `bits` * j.., a square counting `white` or
 * `black` by the colour on it and 0 when empty. */
static void row_digits(const Eval *e, int64_t *out, int base, int white, int black, int bits)
{
    int h = e->r->half;
    for (size_t x = 0; x < (size_t)1 << (2 * h); x++) {
        uint64_t wr = x & e->row_mask, br = x >> h;
        if (wr & br)
            continue;
        int64_t packed = 0;
        for (int j = 0; j < h - 1; j++) {
            int64_t left = white * (int64_t)(wr >> j & 1) + black * (int64_t)(br >> j & 1);
            int64_t right = white * (int64_t)(wr >> (j + 1) & 1) +
                            black * (int64_t)(br >> (j + 1) & 1);
            packed += (left + base * right) << (bits * j);
        }
        out[x] = packed;
    }
}

static void free_patterns(Eval *e)
{
    free(e->row_places);
    free(e->weights);
    e->row_places = NULL;
    e->weights = NULL;
    e->pattern_rows = 0;
}

int eval_set_patterns(Eval *e, int rows, int phases, const int16_t *tables, size_t count,
                      char *err, size_t errlen)
{
    const Rules *r = e->r;
    int h = r->half;
    int windows = windows_count(r, rows), size = pattern_count(rows);
    if ((h - 1) * EVAL_FIELD_BITS > 64) {
        snprintf(err, errlen, "pattern tables fit boards up to 10x10, not %dx%d", r->size,
                 r->size);
        return -1;
    }
    if (windows <= 0 || (phases != 1 && phases != 2) ||
        count != (size_t)phases * (size_t)windows * (size_t)size) {
        snprintf(err, errlen,
                 "pattern tables do not fit %d-row windows: %zu weights, expected %d phase(s) "
                 "of %d windows of %d",
                 rows, count, phases, windows, size);
        return -1;
    }
    size_t places = (size_t)1 << (2 * h);
    int64_t *row_places = calloc(places, sizeof *row_places);
    int16_t *weights = malloc(count * sizeof *weights);
    if (!row_places || !weights) {
        free(row_places);
        free(weights);
        snprintf(err, errlen, "out of memory for the pattern tables");
        return -1;
    }
    /* A row's men give the row's two digits of a window's pattern (place 0 of the window;
     * place p weighs 9^p, see patterns()). */
    row_digits(e, row_places, 3, 1, 2, EVAL_FIELD_BITS);
    memcpy(weights, tables, count * sizeof *weights);
    free_patterns(e);
    e->row_places = row_places;
    e->weights = weights;
    e->pattern_rows = rows;
    e->window_rows = r->size - rows + 1;
    e->pattern_size = size;
    e->phases = phases;
    e->phase_stride = windows * size;
    return 0;
}

static void free_king_windows(Eval *e)
{
    free(e->king_weights);
    free(e->king_men_places);
    free(e->king_kings_places);
    e->king_weights = NULL;
    e->king_men_places = e->king_kings_places = NULL;
    e->king_rows = 0;
}

int eval_set_king_windows(Eval *e, int rows, const int16_t *tables, size_t count, char *err,
                          size_t errlen)
{
    const Rules *r = e->r;
    int h = r->half;
    int windows = windows_count(r, rows), size = king_pattern_count(rows);
    if ((h - 1) * KING_FIELD_BITS > 64 || rows < 1 || rows > KING_WINDOW_MAX_ROWS ||
        windows <= 0 || count != (size_t)windows * (size_t)size) {
        snprintf(err, errlen,
                 "king windows do not fit: %zu weights of %d-row windows on %dx%d (1-%d rows, "
                 "%d windows of %d expected, boards up to 10x10)",
                 count, rows, r->size, r->size, KING_WINDOW_MAX_ROWS, windows, size);
        return -1;
    }
    size_t places = (size_t)1 << (2 * h);
    int64_t *men_places = calloc(places, sizeof *men_places);
    int64_t *kings_places = calloc(places, sizeof *kings_places);
    int16_t *weights = malloc(count * sizeof *weights);
    if (!men_places || !kings_places || !weights) {
        free(men_places);
        free(kings_places);
        free(weights);
        snprintf(err, errlen, "out of memory for the king windows");
        return -1;
    }
    /* Five-state digits: a white piece counts 1 (man) or 3 (king), a black one 2 or 4. */
    row_digits(e, men_places, 5, 1, 2, KING_FIELD_BITS);
    row_digits(e, kings_places, 5, 3, 4, KING_FIELD_BITS);
    memcpy(weights, tables, count * sizeof *weights);
    free_king_windows(e);
    e->king_men_places = men_places;
    e->king_kings_places = kings_places;
    e->king_weights = weights;
    e->king_rows = rows;
    e->king_window_rows = r->size - rows + 1;
    e->king_size = size;
    return 0;
}

void eval_free(Eval *e)
{
    free_patterns(e);
    free_king_windows(e);
}
