/* The board tables of a rule set and the checks of a position (position.h). */
#include "position.h"

#include <string.h>

#define TEXT(x) #x
#define NUMBER(x) TEXT(x)

int rules_init(Rules *r)
{
    int n = r->size, h = n / 2;
    if ((n != 8 && n != 10 && n != 12) || r->choice < CHOICE_FREE || r->choice > CHOICE_VALUE ||
        r->promotion < PROMO_STOP || r->promotion > PROMO_PASS_THROUGH || r->man_rows < 1 ||
        2 * r->man_rows >= n || r->draw_plies < 1 || (r->land_behind & ~1) ||
        (r->remove_at_once & ~1) || (r->orthogonal & ~1) || (r->all_squares & ~1) ||
        (r->straight & ~1) || (r->no_reverse & ~1))
        return -1;
    /* Every square playing is the board of the straight moves (a diagonal step there would
     * change the square's colour), and 64 squares fill the word: 8x8 only. */
    if (r->all_squares != r->straight || (r->all_squares && (n != 8 || r->orthogonal)))
        return -1;
    if (r->losing && r->breakthrough) /* two goals at once (goal.h) */
        return -1;
    /* The dark squares' layout needs n * h + n / 2 - 1 bits (77 for 12x12): more than the
     * word holds is a board of the other build. */
    if (!r->all_squares && n * h + n / 2 - 1 > MAX_BITS)
        return -1;
    r->half = h;
    r->mask = 0;
    r->nbits = 0;
    r->promo[0] = r->promo[1] = 0;
    memset(r->nb, -1, sizeof r->nb);
    memset(r->row, 0, sizeof r->row);
    memset(r->col, 0, sizeof r->col);
    int bit_of[MAX_SIZE][MAX_SIZE];
    for (int row = 0; row < n; row++)
        for (int c = 0; c < n; c++) {
            bit_of[row][c] = -1;
            if (r->all_squares || (row + c) % 2 == 1) {
                int s = r->all_squares ? row * n + c : row * h + c / 2 + row / 2;
                bit_of[row][c] = s;
                r->mask |= BIT(s);
                r->row[s] = (uint8_t)row;
                r->col[s] = (uint8_t)c;
                if (row == 0)
                    r->promo[0] |= BIT(s);
                if (row == n - 1)
                    r->promo[1] |= BIT(s);
                if (s + 1 > r->nbits)
                    r->nbits = s + 1;
            }
        }
    /* The four diagonals, then up, left, right and down to the next playing square: two rows
     * or columns away on the dark squares, the next one when every square plays. */
    int g = r->all_squares ? 1 : 2;
    const int dr[MAX_DIRS] = {-1, -1, 1, 1, -g, 0, 0, g};
    const int dc[MAX_DIRS] = {-1, 1, -1, 1, 0, -g, g, 0};
    const int dark[MAX_DIRS] = {-(h + 1), -h, h, h + 1, -(2 * h + 1), -1, 1, 2 * h + 1};
    const int all[MAX_DIRS] = {-(n + 1), -(n - 1), n - 1, n + 1, -n, -1, 1, n};
    r->ndirs = r->orthogonal || r->straight ? 8 : 4;
    for (int d = 0; d < MAX_DIRS; d++) {
        r->step[d] = r->all_squares ? all[d] : dark[d];
        r->has_nb[d] = 0;
    }
    for (int row = 0; row < n; row++)
        for (int c = 0; c < n; c++) {
            int s = bit_of[row][c];
            if (s < 0)
                continue;
            for (int d = 0; d < r->ndirs; d++) {
                int rr = row + dr[d], cc = c + dc[d];
                if (rr >= 0 && rr < n && cc >= 0 && cc < n) {
                    r->nb[d][s] = (int8_t)bit_of[rr][cc];
                    r->has_nb[d] |= BIT(s);
                }
            }
        }
    /* Kings move along the diagonals, or along the straight lines with straight; they
     * capture the ways they move, and with orthogonal captures along the straight lines too. */
    r->king_quiet = (uint8_t)(r->straight ? STRAIGHT_DIRS : DIAGONAL_DIRS);
    r->king_dirs = (uint8_t)(r->king_quiet | (r->orthogonal ? STRAIGHT_DIRS : 0u));
    /* Men move one step forward (White up, Black down): diagonally, or with straight straight
     * ahead and sideways. They capture the ways they move; with orthogonal captures also
     * straight ahead and sideways; every way of the kings with men_back. */
    for (int side = 0; side < 2; side++) {
        unsigned quiet = r->straight ? 1u << LEFT | 1u << RIGHT | (side == 0 ? 1u << UP : 1u << DOWN)
                         : side == 0 ? (1u << UP_LEFT | 1u << UP_RIGHT)
                                     : (1u << DOWN_LEFT | 1u << DOWN_RIGHT);
        unsigned dirs = quiet;
        if (r->orthogonal)
            dirs |= 1u << LEFT | 1u << RIGHT | (side == 0 ? 1u << UP : 1u << DOWN);
        if (r->men_back)
            dirs = r->king_dirs;
        r->men_quiet[side] = (uint8_t)quiet;
        r->men_dirs[side] = (uint8_t)dirs;
    }
    int i = 0;
    for (int s = 0; s < MAX_BITS; s++)
        r->rank[s] = (uint16_t)(r->mask >> s & 1 ? i++ : 0);
    return 0;
}

int rules_set_order(Rules *r, const int *order, int n)
{
    if (n != popcount_b(r->mask))
        return -1;
    board_t seen = 0;
    for (int i = 0; i < n; i++) {
        int s = order[i];
        if (s < 0 || s >= MAX_BITS || !(r->mask >> s & 1) || (seen >> s & 1))
            return -1;
        seen |= BIT(s);
        r->rank[s] = (uint16_t)i;
    }
    return 0;
}

const char *position_check(const Rules *r, board_t white, board_t black, board_t kings,
                           int moves)
{
    if (r && ((white | black | kings) & ~r->mask))
        return "a piece stands off the playing squares";
    if (white & black)
        return "a square holds pieces of both sides";
    if (kings & ~(white | black))
        return "a king stands on an empty square";
    if (moves && (popcount_b(white) > MAX_CAPS || popcount_b(black) > MAX_CAPS))
        return "a side has more than " NUMBER(MAX_CAPS) " pieces";
    return NULL;
}

static void colours(const Node *n, int side, board_t *pieces, board_t *kings)
{
    *pieces = side ? node_black(n) : node_white(n);
    *kings = *pieces & n->kings;
}

int step_is_progress(const Node *before, const Node *after)
{
    board_t mine_before, kings_before, mine_after, kings_after;
    colours(before, before->side, &mine_before, &kings_before);
    colours(after, before->side, &mine_after, &kings_after);
    int captured = popcount_b(before->own | before->opp) > popcount_b(after->own | after->opp);
    return captured || popcount_b(kings_after) > popcount_b(kings_before);
}

int step_is_irreversible(const Node *before, const Node *after)
{
    board_t mine_before, kings_before, mine_after, kings_after;
    colours(before, before->side, &mine_before, &kings_before);
    colours(after, before->side, &mine_after, &kings_after);
    return step_is_progress(before, after) ||
           (mine_before & ~kings_before) != (mine_after & ~kings_after);
}
