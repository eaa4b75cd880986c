/* Legal move generation on machine-word bitboards (see movegen.h).
 *
 * Implements RULES.md sections 1 and 2: quiet moves of men and (short or flying) kings; short
 * and flying captures; multi-captures that must be completed; the Turkish strike (captured
 * pieces stay on the board until the move ends: they block and cannot be jumped twice, while
 * empty squares, the mover's start square included, may be crossed again); a flying king must
 * land where the capture goes on when such squares exist; men that may not take kings;
 * promotion during a capture (stop, continue as a king, or pass through); the capture-choice
 * rules; mandatory capture or the optional-capture house rule; equal captures listed once.
 * Two rules change the capture of some rule sets (docs/rules.md): a flying king that must land
 * right behind the piece it captures (Rules.land_behind), and captured pieces removed as they
 * are jumped (Rules.remove_at_once), which frees their squares for the rest of the move and
 * lets the capturing piece turn straight back unless Rules.no_reverse forbids it. The ways
 * pieces go are data of Rules: men's quiet and capture directions per side, kings' quiet and
 * capture directions (diagonals, straight lines, or both), so the straight moves of a board
 * where every square plays (Rules.all_squares, Turkish draughts) take the same code.
 */
#include "movegen.h"

#include <stdlib.h>
#include <string.h>

static inline int popcnt(board_t x) { return popcount_b(x); }
static inline int lowbit(board_t x) { return lowest_bit(x); }

int movelist_reserve(MoveList *l, int n)
{
    if (n <= l->cap)
        return 0;
    int cap = l->cap ? l->cap : 64;
    while (cap < n)
        cap *= 2;
    CMove *m = realloc(l->m, (size_t)cap * sizeof(CMove));
    if (!m)
        return -1;
    l->m = m;
    l->cap = cap;
    return 0;
}

void movelist_free(MoveList *l)
{
    free(l->m);
    l->m = NULL;
    l->n = l->cap = 0;
}

static inline int push(MoveList *l, const CMove *m)
{
    if (l->n == l->cap && movelist_reserve(l, l->n + 1) < 0)
        return -1;
    l->m[l->n++] = *m;
    return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Capture choice and equal captures */

static int cmp_lex(const uint8_t *a, const uint8_t *b, int n)
{
    for (int i = 0; i < n; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* > 0 when a is preferred by the capture-choice rule, < 0 when b is, 0 when both stand. */
static int choice_cmp(const Rules *r, const CMove *a, const CMove *b)
{
    switch (r->choice) {
    case CHOICE_KING_PRECEDENCE:
        return (int)a->by_king - (int)b->by_king;
    case CHOICE_VALUE: {
        /* 100 a man, 199 a king: at most MAX_CAPS pieces, so n kings weigh more than 2n - 1
         * men and less than 2n, and equal values are equal counts. */
        int ka = popcnt(a->captured_kings), kb = popcnt(b->captured_kings);
        int va = 100 * (a->ncap - ka) + 199 * ka, vb = 100 * (b->ncap - kb) + 199 * kb;
        if (va != vb)
            return va - vb;
        return (int)a->by_king - (int)b->by_king;
    }
    case CHOICE_MAJORITY:
        return (int)a->ncap - (int)b->ncap;
    case CHOICE_MOST_THEN_KINGS:
        if (a->ncap != b->ncap)
            return (int)a->ncap - (int)b->ncap;
        return popcnt(a->captured_kings) - popcnt(b->captured_kings);
    case CHOICE_ITALIAN: {
        if (a->ncap != b->ncap)
            return (int)a->ncap - (int)b->ncap;
        if (a->by_king != b->by_king)
            return (int)a->by_king - (int)b->by_king;
        int ka = popcnt(a->captured_kings), kb = popcnt(b->captured_kings);
        if (ka != kb)
            return ka - kb;
        /* Priority 4: the king taken earliest (the jump numbers compared in order). */
        uint8_t ja[MAX_CAPS], jb[MAX_CAPS];
        int na = 0, nb = 0;
        for (int i = 0; i < a->ncap; i++)
            if (a->captured_kings >> a->caps[i] & 1)
                ja[na++] = (uint8_t)i;
        for (int i = 0; i < b->ncap; i++)
            if (b->captured_kings >> b->caps[i] & 1)
                jb[nb++] = (uint8_t)i;
        return -cmp_lex(ja, jb, na);
    }
    default:
        return 0;
    }
}

/* Steps (to the next playing square of a line) from a square to another on the same line. */
static int steps_between(const Rules *r, int from, int to)
{
    int dr = abs((int)r->row[from] - (int)r->row[to]), dc = abs((int)r->col[from] - (int)r->col[to]);
    if (dr == dc)
        return dr;
    return r->all_squares ? dr + dc : (dr + dc) / 2;
}

/* < 0 when a's path is the one PDN writes for an equal capture: the landing right behind each
 * captured piece first (a turning square is the only landing that turns), then notation order. */
static int path_pref(const Rules *r, const CMove *a, const CMove *b)
{
    for (int i = 0; i < a->ncap; i++) {
        int ga = steps_between(r, a->path[i + 1], a->caps[i]);
        int gb = steps_between(r, b->path[i + 1], b->caps[i]);
        if (ga != gb)
            return ga - gb;
    }
    for (int i = 0; i <= a->ncap; i++)
        if (a->path[i] != b->path[i])
            return (int)r->rank[a->path[i]] - (int)r->rank[b->path[i]];
    return 0;
}

typedef struct {
    const Rules *r;
    MoveList *out;
    int raw, failed, side;
    board_t empty, opp, targets, kings;
    int ncap;
    uint8_t path[MAX_CAPS + 2];
    uint8_t caps[MAX_CAPS + 1];
} CapCtx;

static void emit(CapCtx *c, int end, board_t captured, int promotes, int by_king)
{
    CMove m;
    m.captured = captured;
    m.captured_kings = captured & c->kings;
    m.start = c->path[0];
    m.end = (uint8_t)end;
    m.ncap = (uint8_t)c->ncap;
    m.promotes = (uint8_t)promotes;
    m.by_king = (uint8_t)by_king;
    memcpy(m.path, c->path, (size_t)c->ncap + 1);
    memcpy(m.caps, c->caps, (size_t)c->ncap);
    MoveList *l = c->out;
    if (!c->raw && l->n) {
        int cmp = choice_cmp(c->r, &m, &l->m[0]);
        if (cmp < 0)
            return;
        if (cmp > 0)
            l->n = 0;
        for (int i = 0; i < l->n; i++) {
            CMove *o = &l->m[i];
            if (o->start == m.start && o->end == m.end && o->captured == m.captured &&
                o->promotes == m.promotes) {
                if (path_pref(c->r, &m, o) < 0)
                    *o = m;
                return;
            }
        }
    }
    if (push(l, &m) < 0)
        c->failed = 1;
}

static int king_captures(CapCtx *c, int sq, board_t captured, int came_from, int promotes,
                         int by_king);

/* The squares a capture may cross or land on after taking captured: the empty squares, and
 * the captured pieces' squares where they leave the board at once. */
static inline board_t free_squares(const CapCtx *c, board_t captured)
{
    return c->r->remove_at_once ? c->empty | captured : c->empty;
}

static int man_captures(CapCtx *c, int sq, board_t captured)
{
    const Rules *r = c->r;
    int found = 0;
    for (unsigned dirs = r->men_dirs[c->side]; dirs; dirs &= dirs - 1) {
        int d = __builtin_ctz(dirs);
        int mid = r->nb[d][sq];
        if (mid < 0)
            continue;
        int land = r->nb[d][mid];
        if (land < 0)
            continue;
        board_t mb = BIT(mid), lb = BIT(land);
        if (!(c->targets & mb) || (captured & mb) || !(free_squares(c, captured) & lb))
            continue;
        found = 1;
        board_t nc = captured | mb;
        c->caps[c->ncap] = (uint8_t)mid;
        c->path[c->ncap + 1] = (uint8_t)land;
        c->ncap++;
        if (r->promo[c->side] & lb) {
            int went_on = 0;
            if (r->promotion == PROMO_CONTINUE)
                went_on = king_captures(c, land, nc, d, 1, 0);
            else if (r->promotion == PROMO_PASS_THROUGH)
                went_on = man_captures(c, land, nc);
            if (!went_on)
                emit(c, land, nc, 1, 0);
        } else if (!man_captures(c, land, nc)) {
            emit(c, land, nc, 0, 0);
        }
        c->ncap--;
    }
    return found;
}

static int king_captures(CapCtx *c, int sq, board_t captured, int came_from, int promotes,
                         int by_king)
{
    const Rules *r = c->r;
    int found = 0;
    /* Straight back is closed while the piece just taken still blocks it, and by no_reverse
     * where it no longer does. */
    int back = came_from >= 0 && (!r->remove_at_once || r->no_reverse) ? OPPOSITE_DIR(came_from)
                                                                        : -1;
    board_t empty = free_squares(c, captured), opp = c->opp;
    if (!r->flying) {
        for (unsigned dirs = r->king_dirs; dirs; dirs &= dirs - 1) {
            int d = __builtin_ctz(dirs);
            if (d == back)
                continue;
            int mid = r->nb[d][sq];
            if (mid < 0)
                continue;
            int land = r->nb[d][mid];
            if (land < 0)
                continue;
            board_t mb = BIT(mid), lb = BIT(land);
            if (!(opp & mb) || (captured & mb) || !(empty & lb))
                continue;
            found = 1;
            board_t nc = captured | mb;
            c->caps[c->ncap] = (uint8_t)mid;
            c->path[c->ncap + 1] = (uint8_t)land;
            c->ncap++;
            if (!king_captures(c, land, nc, d, promotes, by_king))
                emit(c, land, nc, promotes, by_king);
            c->ncap--;
        }
        return found;
    }
    for (unsigned dirs = r->king_dirs; dirs; dirs &= dirs - 1) {
        int d = __builtin_ctz(dirs);
        if (d == back)
            continue;
        int s = r->nb[d][sq];
        while (s >= 0 && (empty >> s & 1))
            s = r->nb[d][s];
        if (s < 0)
            continue;
        int next = r->nb[d][s];
        if (next < 0)
            continue;
        board_t tb = BIT(s);
        if (!(opp & tb) || (captured & tb) || !(empty >> next & 1))
            continue;
        found = 1;
        board_t nc = captured | tb;
        c->caps[c->ncap] = (uint8_t)s;
        c->ncap++;
        int went_on = 0, nstops = 0;
        uint8_t stops[16];
        for (int j = next; j >= 0 && (empty >> j & 1); j = r->land_behind ? -1 : r->nb[d][j]) {
            c->path[c->ncap] = (uint8_t)j;
            if (king_captures(c, j, nc, d, promotes, by_king))
                went_on = 1;
            else if (!went_on)
                stops[nstops++] = (uint8_t)j;
        }
        if (!went_on)
            for (int i = 0; i < nstops; i++) {
                c->path[c->ncap] = stops[i];
                emit(c, stops[i], nc, promotes, by_king);
            }
        c->ncap--;
    }
    return found;
}

static inline board_t shift(board_t x, int o) { return shift_by(x, o); }

/* Pieces of from with a capture in a straight direction d >= 4: the next square that way an
 * enemy of targets, the one after it empty (has_nb keeps the steps on the board). */
static inline board_t straight_jumpers(const Rules *r, board_t from, board_t targets,
                                        board_t empty, int d)
{
    int o = r->step[d];
    board_t over = shift(from & r->has_nb[d], o) & targets & r->has_nb[d];
    return shift(shift(over, o) & empty, -2 * o);
}

/* Men of side with a capture in a straight direction (off the diagonal rule sets' path). */
static __attribute__((noinline)) board_t straight_men_jumpers(const Rules *r, board_t men,
                                                               board_t targets, board_t empty,
                                                               int side)
{
    board_t cand = 0;
    for (unsigned dirs = r->men_dirs[side] & STRAIGHT_DIRS; dirs; dirs &= dirs - 1)
        cand |= straight_jumpers(r, men, targets, empty, __builtin_ctz(dirs));
    return cand;
}

static board_t man_capture_candidates(const Rules *r, board_t men, board_t targets,
                                       board_t empty, int side)
{
    int h = r->half;
    board_t cand = 0;
    /* The diagonals on the dark squares' layout (ghost bits keep the shifts on the board;
     * rules_init allows no diagonal where every square plays). */
    unsigned dirs = r->men_dirs[side];
    int up = dirs & (1u << UP_LEFT | 1u << UP_RIGHT), down = dirs & (1u << DOWN_LEFT | 1u << DOWN_RIGHT);
    for (int a = h; a <= h + 1; a++) {
        if (up)
            cand |= ((men >> (2 * a)) & (targets >> a) & empty) << (2 * a);
        if (down)
            cand |= men & (targets >> a) & (empty >> (2 * a));
    }
    if (dirs & STRAIGHT_DIRS)
        cand |= straight_men_jumpers(r, men, targets, empty, side);
    return cand;
}

/* Kings of k with a capture in a straight direction d >= 4, from afar when flying. */
static __attribute__((noinline)) board_t straight_king_jumpers(const Rules *r, board_t k, board_t opp, board_t empty,
                                      int d)
{
    if (!r->flying)
        return straight_jumpers(r, k, opp, empty, d);
    int o = r->step[d];
    board_t found = 0;
    while (k) {
        int s = lowbit(k);
        k &= k - 1;
        board_t at = shift(BIT(s) & r->has_nb[d], o);
        while (at & empty & r->has_nb[d])
            at = shift(at, o);
        if ((at & opp & r->has_nb[d]) && (shift(at, o) & empty))
            found |= BIT(s);
    }
    return found;
}

static int all_captures(const Rules *r, board_t own, board_t opp, board_t kings, int side,
                        MoveList *out, int raw)
{
    CapCtx c;
    c.r = r;
    c.out = out;
    c.raw = raw;
    c.failed = 0;
    c.side = side;
    c.empty = r->mask & ~(own | opp);
    c.opp = opp;
    c.targets = r->men_take_kings ? opp : opp & ~kings;
    c.kings = kings;
    board_t men = own & ~kings, own_kings = own & kings;
    if (men && c.targets) {
        board_t cand = man_capture_candidates(r, men, c.targets, c.empty, side);
        while (cand) {
            int sq = lowbit(cand);
            board_t low = cand & -cand;
            cand ^= low;
            c.empty = (r->mask & ~(own | opp)) | low;
            c.ncap = 0;
            c.path[0] = (uint8_t)sq;
            man_captures(&c, sq, 0);
        }
    }
    while (own_kings) {
        int sq = lowbit(own_kings);
        board_t low = own_kings & -own_kings;
        own_kings ^= low;
        c.empty = (r->mask & ~(own | opp)) | low;
        c.ncap = 0;
        c.path[0] = (uint8_t)sq;
        king_captures(&c, sq, 0, -1, 0, 1);
    }
    return c.failed ? -1 : 0;
}

int gen_raw_captures(const Rules *r, board_t own, board_t opp, board_t kings, int side,
                     MoveList *out)
{
    out->n = 0;
    return all_captures(r, own, opp, kings, side, out, 1);
}

/* ---------------------------------------------------------------------------------------- */
/* Quiet moves */

static int quiet_moves(const Rules *r, board_t own, board_t opp, board_t kings, int side,
                       MoveList *out)
{
    board_t empty = r->mask & ~(own | opp);
    CMove m;
    memset(&m, 0, sizeof m);
    board_t men = own & ~kings, own_kings = own & kings;
    for (unsigned dirs = men ? r->men_quiet[side] : 0; dirs; dirs &= dirs - 1) {
        int d = __builtin_ctz(dirs), o = r->step[d];
        board_t to = shift(men & r->has_nb[d], o) & empty;
        while (to) {
            int t = lowbit(to);
            to &= to - 1;
            m.start = m.path[0] = (uint8_t)(t - o);
            m.end = m.path[1] = (uint8_t)t;
            m.promotes = (r->promo[side] >> t) & 1;
            m.by_king = 0;
            if (push(out, &m) < 0)
                return -1;
        }
    }
    m.promotes = 0;
    m.by_king = 1;
    while (own_kings) {
        int s = lowbit(own_kings);
        own_kings &= own_kings - 1;
        for (unsigned dirs = r->king_quiet; dirs; dirs &= dirs - 1) {
            int d = __builtin_ctz(dirs);
            for (int t = r->nb[d][s]; t >= 0 && (empty >> t & 1); t = r->nb[d][t]) {
                m.start = m.path[0] = (uint8_t)s;
                m.end = m.path[1] = (uint8_t)t;
                if (push(out, &m) < 0)
                    return -1;
                if (!r->flying)
                    break;
            }
        }
    }
    return 0;
}

int gen_quiet(const Rules *r, board_t own, board_t opp, board_t kings, int side, MoveList *out)
{
    out->n = 0;
    return quiet_moves(r, own, opp, kings, side, out);
}

int gen_legal(const Rules *r, board_t own, board_t opp, board_t kings, int side, MoveList *out)
{
    out->n = 0;
    if (has_capture(r, own, opp, kings, side)) {
        if (all_captures(r, own, opp, kings, side, out, 0) < 0)
            return -1;
        if (r->mandatory)
            return 0;
    }
    return quiet_moves(r, own, opp, kings, side, out);
}

int has_capture(const Rules *r, board_t own, board_t opp, board_t kings, int side)
{
    board_t empty = r->mask & ~(own | opp);
    board_t men = own & ~kings, k = own & kings;
    int h = r->half;
    if (men) {
        board_t targets = r->men_take_kings ? opp : opp & ~kings;
        if (man_capture_candidates(r, men, targets, empty, side))
            return 1;
    }
    if (!k)
        return 0;
    for (unsigned dirs = r->king_dirs & STRAIGHT_DIRS; dirs; dirs &= dirs - 1)
        if (straight_king_jumpers(r, k, opp, empty, __builtin_ctz(dirs)))
            return 1;
    if (!(r->king_dirs & DIAGONAL_DIRS))
        return 0;
    for (int a = h; a <= h + 1; a++) {
        if (!r->flying) {
            if ((k >> (2 * a)) & (opp >> a) & empty)
                return 1;
            if (k & (opp >> a) & (empty >> (2 * a)))
                return 1;
            continue;
        }
        board_t reach = k >> a, frontier = reach & empty;
        while (frontier) {
            frontier >>= a;
            reach |= frontier;
            frontier &= empty;
        }
        if ((reach & opp) >> a & empty)
            return 1;
        reach = k << a;
        frontier = reach & empty;
        while (frontier) {
            frontier <<= a;
            reach |= frontier;
            frontier &= empty;
        }
        if ((reach & opp) << a & empty)
            return 1;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Order */

static int path_order(const Rules *r, const CMove *a, const CMove *b)
{
    int la = path_len(a), lb = path_len(b);
    int n = la < lb ? la : lb;
    for (int i = 0; i < n; i++)
        if (a->path[i] != b->path[i])
            return (int)r->rank[a->path[i]] - (int)r->rank[b->path[i]];
    return la - lb;
}

void sort_moves(const Rules *r, CMove *m, int n)
{
    for (int i = 1; i < n; i++) {
        CMove x = m[i];
        int j = i - 1;
        while (j >= 0 && path_order(r, &m[j], &x) > 0) {
            m[j + 1] = m[j];
            j--;
        }
        m[j + 1] = x;
    }
}
