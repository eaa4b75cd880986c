/* Endgame database solver (see egdb.h).
 *
 * Positions are grouped in classes by their numbers of white men, white kings, black men and
 * black kings. A capture leaves a class for one with fewer pieces, a promotion for one with
 * fewer men, a quiet move stays in it: classes are solved by number of pieces, then of men, so
 * every move out of a class lands in one already solved. Within a class:
 *
 * 1. Every position's legal moves are generated (gen_legal); a move out of the class reads the
 *    child's solved value, the moves inside it (quiet moves) are counted.
 * 2. Retrograde analysis by distance: a position with no move is lost in 0 plies; a position
 *    with a child lost in d-1 plies is won in d (the first such d: shortest win); a position
 *    whose children are all won is lost in 1 + the longest of them. Distances are processed
 *    in increasing order from buckets, so each position is settled at its final distance;
 *    a settled position's parents inside the class are found by unmaking quiet moves
 *    (parents_of), so no move graph is stored.
 * 3. What is never settled is a draw (neither side can force the end of the game).
 *
 * The index of a position: each of the four piece sets ranked among the board's playing squares
 * (32 on 8x8, 50 on 10x10) in colexicographic order, combined, times two for the side to move;
 * indices with overlapping sets or a man on its own promotion row are impossible positions and
 * keep the value 0.
 * The stored value is the byte of egdb.h (0 also means "not settled yet" while solving).
 */
#include "egdb.h"

#include "movegen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DIST 16000

static inline uint8_t win_value(int d) { return (uint8_t)(d + 1); }
static inline uint8_t loss_value(int d) { return (uint8_t)(d + 3); }

/* EGDB_WIN / EGDB_LOSS / EGDB_DRAW of a value byte with its distance, EGDB_UNKNOWN for 0. */
static inline int decode(uint8_t v, int *plies)
{
    if (v <= 1) {
        *plies = 0;
        return v ? EGDB_DRAW : EGDB_UNKNOWN;
    }
    if (v & 1) {
        *plies = v - 3;
        return EGDB_LOSS;
    }
    *plies = v - 1;
    return EGDB_WIN;
}

static void init_binom(Egdb *db)
{
    for (int n = 0; n <= EGDB_MAX_SQUARES; n++)
        for (int k = 0; k <= EGDB_MAX_PIECES; k++)
            db->binom[n][k] = k == 0   ? 1
                              : n == 0 ? 0
                                       : db->binom[n - 1][k - 1] + db->binom[n - 1][k];
}

typedef Egdb Squares; /* the square tables of the database */

static void squares_of(const Rules *r, Egdb *s)
{
    memset(s->dense_of, -1, sizeof s->dense_of);
    int i = 0;
    for (int b = 0; b < MAX_BITS && i < EGDB_MAX_SQUARES; b++)
        if (r->mask >> b & 1) {
            s->bit_of[i] = (uint8_t)b;
            s->dense_of[b] = (int8_t)i++;
        }
    s->nsq = i;
}

/* Colexicographic rank of a set of bits among the dense squares. */
static uint64_t rank_set(const Squares *s, board_t set)
{
    uint64_t rank = 0;
    int k = 1;
    while (set) {
        int b = lowest_bit(set);
        set &= set - 1;
        rank += s->binom[s->dense_of[b]][k++];
    }
    return rank;
}

static board_t unrank_set(const Squares *s, uint64_t rank, int k)
{
    board_t set = 0;
    int top = s->nsq - 1;
    for (; k >= 1; k--) {
        while (s->binom[top][k] > rank)
            top--;
        rank -= s->binom[top][k];
        set |= BIT(s->bit_of[top]);
        top--;
    }
    return set;
}

static inline EgdbClass *class_of(Egdb *db, board_t w, board_t b, board_t k)
{
    int c0 = popcount_b(w & ~k), c1 = popcount_b(w & k), c2 = popcount_b(b & ~k),
        c3 = popcount_b(b & k);
    if (c0 + c1 + c2 + c3 > db->pieces)
        return NULL;
    return &db->cls[c0][c1][c2][c3];
}

static inline uint64_t index_of(const Squares *s, const EgdbClass *c, board_t w, board_t b,
                                board_t k, int side)
{
    uint64_t i = rank_set(s, w & ~k);
    i = i * c->sizes[1] + rank_set(s, w & k);
    i = i * c->sizes[2] + rank_set(s, b & ~k);
    i = i * c->sizes[3] + rank_set(s, b & k);
    return i * 2 + (uint64_t)side;
}

/* The position of an index, or 0 for an impossible one. */
static int position_of(const Rules *r, const Squares *s, const EgdbClass *c, const int n[4],
                       uint64_t idx, board_t *w, board_t *b, board_t *k, int *side)
{
    *side = (int)(idx & 1);
    idx >>= 1;
    board_t set[4];
    for (int j = 3; j >= 0; j--) {
        set[j] = unrank_set(s, idx % c->sizes[j], n[j]);
        idx /= c->sizes[j];
    }
    board_t all = 0;
    for (int j = 0; j < 4; j++) {
        if (all & set[j])
            return 0;
        all |= set[j];
    }
    if ((set[0] & r->promo[0]) || (set[2] & r->promo[1]))
        return 0;
    *w = set[0] | set[1];
    *b = set[2] | set[3];
    *k = set[1] | set[3];
    return 1;
}

/* The value byte of a position of an earlier (ready) class. */
static uint8_t lookup(Egdb *db, const Squares *s, board_t own, board_t opp, board_t kings,
                      int side)
{
    if (!own)
        return loss_value(0); /* no piece left: lost, 0 plies */
    board_t w = side ? opp : own, b = side ? own : opp;
    EgdbClass *c = class_of(db, w, b, kings);
    return c->val[index_of(s, c, w, b, kings, side)];
}

typedef struct {
    uint32_t *v;
    uint32_t n, cap;
} Bucket;

static int bucket_push(Bucket *bk, int d, uint32_t item)
{
    if (d > MAX_DIST)
        return -1;
    Bucket *x = &bk[d];
    if (x->n == x->cap) {
        uint32_t cap = x->cap ? x->cap * 2 : 256;
        uint32_t *v = realloc(x->v, cap * sizeof *v);
        if (!v)
            return -1;
        x->v = v;
        x->cap = cap;
    }
    x->v[x->n++] = item;
    return 0;
}

/* Most quiet moves one side has with EGDB_MAX_PIECES pieces in all (so at most one fewer of
 * its own): 17 for a flying king where 10x10's long diagonal crosses a diagonal of nine squares
 * (13 on 8x8). */
#define MAX_PARENTS (17 * (EGDB_MAX_PIECES - 1))

/* The parents of position (w, b, k, side) inside its class: the positions one quiet move
 * earlier. Within a class every move is a quiet move that does not crown (a capture or a
 * promotion leaves it), so a parent is the position with a piece of the side that just moved
 * (not `side`) taken one quiet move back; such moves are the generator's own quiet moves of
 * those pieces with their men moving the other way (gen_quiet as if they were `side`'s men),
 * applied without crowning. The move into the position must have been legal: under mandatory
 * capture the parent may have no capture. Fills q[] (MAX_PARENTS long) with the parents'
 * indices; returns their number, or -1 out of memory or beyond MAX_PARENTS. */
static int parents_of(Egdb *db, const Squares *s, const EgdbClass *c, board_t w, board_t b,
                      board_t k, int side, MoveList *l, uint64_t *q)
{
    const Rules *r = db->r;
    int mover = 1 - side, n = 0;
    board_t moved = mover ? b : w, other = mover ? w : b;
    if (gen_quiet(r, moved, other, k, side, l) < 0 || l->n > MAX_PARENTS)
        return -1;
    for (int j = 0; j < l->n; j++) {
        board_t from = BIT(l->m[j].end), to = BIT(l->m[j].start);
        board_t own = (moved & ~to) | from, kk = k & to ? (k & ~to) | from : k;
        if (r->mandatory && has_capture(r, own, other, kk, mover))
            continue;
        q[n++] = mover ? index_of(s, c, other, own, kk, 1) : index_of(s, c, own, other, kk, 0);
    }
    return n;
}

/* Whether the solve is to stop: stop(ctx) asked once every EGDB_STOP_EVERY steps. */
static inline int stopped(EgdbStop stop, void *ctx, uint64_t step)
{
    return stop && (step & (EGDB_STOP_EVERY - 1)) == EGDB_STOP_EVERY - 1 && stop(ctx);
}

/* Solve one class (every class it leads to is ready) into c->val, allocated here. Returns 0,
 * EGDB_NO_MEMORY, EGDB_TOO_LONG or EGDB_STOPPED (see egdb_solve_class).
 *
 * Memory: a byte of value, a byte of children left and a byte of the longest loss per index
 * (distances stay within EGDB_MAX_DISTANCE), and the positions waiting in the distance buckets; the parents of a position are
 * found when it is settled (parents_of), not stored. */
static int solve_class(Egdb *db, const Squares *s, EgdbClass *c, const int n[4], EgdbStop stop,
                       void *ctx)
{
    const Rules *r = db->r;
    uint64_t size = c->size;
    uint8_t *val = calloc(size, 1);
    uint8_t *remaining = calloc(size, 1);
    uint8_t *lossdist = calloc(size, 1); /* every child's distance is at most 253 */
    Bucket *bk = calloc(MAX_DIST + 2, sizeof *bk);
    MoveList l = {0};
    int rc = EGDB_NO_MEMORY, top = 0;
    uint64_t step = 0; /* positions gone through, for stop */
    if (!val || !remaining || !lossdist || !bk || size >= ((uint64_t)1 << 31))
        goto out;
    /* Pass 1: values through the exits, children inside the class counted. */
    for (uint64_t i = 0; i < size; i++) {
        board_t w, b, k;
        int side;
        if (stopped(stop, ctx, step++)) {
            rc = EGDB_STOPPED;
            goto out;
        }
        if (!position_of(r, s, c, n, i, &w, &b, &k, &side))
            continue;
        board_t own = side ? b : w, opp = side ? w : b;
        if (gen_legal(r, own, opp, k, side, &l) < 0)
            goto out;
        int win = 0, lose = 0, left = 0;
        for (int j = 0; j < l.n; j++) {
            board_t o = own, q = opp, kk = k;
            make_move(&l.m[j], &o, &q, &kk);
            board_t cw = side ? q : o, cb = side ? o : q;
            if (class_of(db, cw, cb, kk) == c) {
                left++;
                continue;
            }
            int d, kind = decode(lookup(db, s, q, o, kk, 1 - side), &d);
            if (kind == EGDB_LOSS) {
                if (!win || d + 1 < win)
                    win = d + 1;
                left++; /* a lost child: never lost (won at the latest in d + 1) */
            } else if (kind == EGDB_WIN) {
                if (d + 1 > lose)
                    lose = d + 1;
            } else {
                left++; /* a drawn child: never lost */
            }
        }
        if (left > 255)
            goto out; /* more moves than a byte counts: not with so few pieces */
        if (l.n == 0) {
            if (bucket_push(bk, 0, (uint32_t)(i << 1)) < 0)
                goto out;
        } else if (win) {
            if (bucket_push(bk, win, (uint32_t)(i << 1 | 1)) < 0)
                goto out;
        } else if (!left) {
            if (bucket_push(bk, lose, (uint32_t)(i << 1)) < 0)
                goto out;
        }
        remaining[i] = (uint8_t)left;
        lossdist[i] = (uint8_t)lose;
    }
    /* Retrograde analysis by increasing distance, from each settled position to its
     * parents. */
    for (int d = 0; d <= MAX_DIST; d++) {
        Bucket *x = &bk[d];
        for (uint32_t e = 0; e < x->n; e++) {
            uint32_t i = x->v[e] >> 1;
            int won = x->v[e] & 1;
            if (val[i])
                continue;
            if (stopped(stop, ctx, step++)) {
                rc = EGDB_STOPPED;
                goto out;
            }
            if (d > EGDB_MAX_DISTANCE) {
                rc = EGDB_TOO_LONG;
                goto out;
            }
            val[i] = won ? win_value(d) : loss_value(d);
            if (won && d > top)
                top = d;
            board_t w, b, k;
            uint64_t parent[MAX_PARENTS];
            int side;
            position_of(r, s, c, n, i, &w, &b, &k, &side);
            int np = parents_of(db, s, c, w, b, k, side, &l, parent);
            if (np < 0)
                goto out;
            for (int p = 0; p < np; p++) {
                uint32_t q = (uint32_t)parent[p];
                if (val[q])
                    continue;
                if (!won) {
                    if (bucket_push(bk, d + 1, q << 1 | 1) < 0)
                        goto out;
                } else {
                    if (d + 1 > lossdist[q])
                        lossdist[q] = (uint8_t)(d + 1);
                    if (--remaining[q] == 0 && bucket_push(bk, lossdist[q], q << 1) < 0)
                        goto out;
                }
            }
        }
        free(x->v);
        x->v = NULL;
        x->n = x->cap = 0;
    }
    c->positions = 0;
    for (uint64_t i = 0; i < size; i++) {
        board_t w, b, k;
        int side;
        if (val[i] == 0 && position_of(r, s, c, n, i, &w, &b, &k, &side))
            val[i] = 1; /* never settled: a draw */
        c->positions += val[i] != 0;
    }
    c->max_distance = top;
    c->val = val;
    val = NULL;
    rc = 0;
out:
    if (bk)
        for (int d = 0; d <= MAX_DIST + 1; d++)
            free(bk[d].v);
    free(bk);
    free(val);
    free(remaining);
    free(lossdist);
    movelist_free(&l);
    return rc;
}

Egdb *egdb_new(const Rules *r, int pieces)
{
    if (pieces < 2 || pieces > egdb_max_pieces(r))
        return NULL;
    Egdb *db = calloc(1, sizeof *db);
    if (!db)
        return NULL;
    db->r = r;
    db->pieces = pieces;
    init_binom(db);
    squares_of(r, db);
    /* Every class (men and kings of each side) in solving order: fewer pieces first, then
     * fewer men, so a capture or a promotion always leads to a class already solved. */
    for (int np = 2; np <= pieces; np++)
        for (int men = 0; men <= np; men++)
            for (int a = 0; a <= men; a++)
                for (int bk = 0; bk <= np - men; bk++) {
                    int n[4] = {a, bk, men - a, np - men - bk};
                    if (n[0] + n[1] == 0 || n[2] + n[3] == 0)
                        continue;
                    memcpy(db->order[db->nclasses++], n, sizeof n);
                    EgdbClass *c = &db->cls[n[0]][n[1]][n[2]][n[3]];
                    c->size = 2;
                    for (int j = 0; j < 4; j++) {
                        c->sizes[j] = db->binom[db->nsq][n[j]];
                        c->size *= c->sizes[j];
                    }
                }
    return db;
}

EgdbClass *egdb_class_at(Egdb *db, int k)
{
    const int *n = db->order[k];
    return &db->cls[n[0]][n[1]][n[2]][n[3]];
}

int egdb_class_number(const Egdb *db, const int n[4])
{
    for (int k = 0; k < db->nclasses; k++)
        if (!memcmp(db->order[k], n, sizeof db->order[k]))
            return k;
    return -1;
}

void egdb_class_ready(Egdb *db, EgdbClass *c)
{
    db->positions += c->positions;
    db->bytes += c->size;
    if (c->max_distance > db->max_distance)
        db->max_distance = c->max_distance;
}

int egdb_solve_class(Egdb *db, int k, EgdbStop stop, void *ctx)
{
    for (int j = 0; j < k; j++)
        if (!egdb_class_at(db, j)->val)
            return EGDB_NOT_IN_ORDER;
    EgdbClass *c = egdb_class_at(db, k);
    if (c->val)
        return 0;
    int rc = solve_class(db, db, c, db->order[k], stop, ctx);
    if (rc == 0)
        egdb_class_ready(db, c);
    return rc;
}

Egdb *egdb_build(const Rules *r, int pieces)
{
    Egdb *db = egdb_new(r, pieces);
    if (!db)
        return NULL;
    for (int k = 0; k < db->nclasses; k++)
        if (egdb_solve_class(db, k, NULL, NULL) < 0) {
            egdb_free(db);
            return NULL;
        }
    return db;
}

void egdb_free(Egdb *db)
{
    if (!db)
        return;
    for (int k = 0; k < db->nclasses; k++)
        free(egdb_class_at(db, k)->val);
    free(db);
}

void egdb_rules_key(const Rules *r, char *key)
{
    snprintf(key, EGDB_KEY_LEN, "%dx%d-f%d-b%d-k%d-c%d-p%d-l%d-r%d-o%d-m%d", r->size, r->size,
             r->flying, r->men_back, r->men_take_kings, r->choice, r->promotion,
             r->land_behind, r->remove_at_once, r->orthogonal, r->mandatory);
}

int egdb_probe(const Egdb *db, board_t own, board_t opp, board_t kings, int side, int *plies)
{
    if (!opp || popcount_b(own | opp) > db->pieces)
        return EGDB_UNKNOWN;
    if (!own) {
        *plies = 0;
        return EGDB_LOSS;
    }
    board_t w = side ? opp : own, b = side ? own : opp;
    const EgdbClass *c = class_of((Egdb *)db, w, b, kings);
    if (!c->val)
        return EGDB_UNKNOWN; /* not solved nor loaded */
    /* 0: an impossible position (a man on its promotion row): unknown */
    return decode(c->val[index_of(db, c, w, b, kings, side)], plies);
}
