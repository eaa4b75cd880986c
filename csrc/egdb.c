/* Endgame database solver (see egdb.h).
 *
 * Positions are grouped in classes by their numbers of white men, white kings, black men and
 * black kings. A capture leaves a class for one with fewer pieces, a promotion for one with
 * fewer men, a quiet move stays in it: classes are solved by number of pieces, then of men, so
 * every move out of a class lands in one already solved. Within a class:
 *
 * 1. Every position's legal moves are generated (gen_legal); a move out of the class reads the
 *    child's solved value, a move inside it is an edge of the class graph, stored reversed
 *    (child -> parents) in one array: the generator is run twice, to count, then to fill.
 * 2. Retrograde analysis by distance: a position with no move is lost in 0 plies; a position
 *    with a child lost in d-1 plies is won in d (the first such d: shortest win); a position
 *    whose children are all won is lost in 1 + the longest of them. Distances are processed
 *    in increasing order from buckets, so each position is settled at its final distance.
 * 3. What is never settled is a draw (neither side can force the end of the game).
 *
 * The index of a position: each of the four piece sets ranked among the 32 playing squares in
 * colexicographic order, combined, times two for the side to move; indices with overlapping
 * sets or a man on its own promotion row are impossible positions and keep the value 0.
 * Stored value: 1 draw, (d << 2) | 2 won in d plies, (d << 2) | 3 lost in d plies.
 */
#include "egdb.h"

#include "movegen.h"

#include <stdlib.h>
#include <string.h>

#define NSQ 32
#define VAL_DRAW 1
#define VAL_WIN 2
#define VAL_LOSS 3
#define MAX_DIST 16000

static void init_binom(Egdb *db)
{
    for (int n = 0; n <= NSQ; n++)
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
    for (int b = 0; b < MAX_BITS && i < NSQ; b++)
        if (r->mask >> b & 1) {
            s->bit_of[i] = (uint8_t)b;
            s->dense_of[b] = (int8_t)i++;
        }
}

/* Colexicographic rank of a set of bits among the dense squares. */
static uint64_t rank_set(const Squares *s, uint64_t set)
{
    uint64_t rank = 0;
    int k = 1;
    while (set) {
        int b = __builtin_ctzll(set);
        set &= set - 1;
        rank += s->binom[s->dense_of[b]][k++];
    }
    return rank;
}

static uint64_t unrank_set(const Squares *s, uint64_t rank, int k)
{
    uint64_t set = 0;
    int top = NSQ - 1;
    for (; k >= 1; k--) {
        while (s->binom[top][k] > rank)
            top--;
        rank -= s->binom[top][k];
        set |= (uint64_t)1 << s->bit_of[top];
        top--;
    }
    return set;
}

static inline EgdbClass *class_of(Egdb *db, uint64_t w, uint64_t b, uint64_t k)
{
    int c0 = popcount64(w & ~k), c1 = popcount64(w & k), c2 = popcount64(b & ~k),
        c3 = popcount64(b & k);
    if (c0 + c1 + c2 + c3 > db->pieces)
        return NULL;
    return &db->cls[c0][c1][c2][c3];
}

static inline uint64_t index_of(const Squares *s, const EgdbClass *c, uint64_t w, uint64_t b,
                                uint64_t k, int side)
{
    uint64_t i = rank_set(s, w & ~k);
    i = i * c->sizes[1] + rank_set(s, w & k);
    i = i * c->sizes[2] + rank_set(s, b & ~k);
    i = i * c->sizes[3] + rank_set(s, b & k);
    return i * 2 + (uint64_t)side;
}

/* The position of an index, or 0 for an impossible one. */
static int position_of(const Rules *r, const Squares *s, const EgdbClass *c, const int n[4],
                       uint64_t idx, uint64_t *w, uint64_t *b, uint64_t *k, int *side)
{
    *side = (int)(idx & 1);
    idx >>= 1;
    uint64_t set[4];
    for (int j = 3; j >= 0; j--) {
        set[j] = unrank_set(s, idx % c->sizes[j], n[j]);
        idx /= c->sizes[j];
    }
    uint64_t all = 0;
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

static uint16_t lookup(Egdb *db, const Squares *s, uint64_t own, uint64_t opp, uint64_t kings,
                       int side)
{
    if (!own)
        return VAL_LOSS; /* no piece left: lost, 0 plies */
    uint64_t w = side ? opp : own, b = side ? own : opp;
    EgdbClass *c = class_of(db, w, b, kings);
    return c->val[index_of(s, c, w, b, kings, side)];
}

typedef struct {
    uint32_t *v;
    uint32_t n, cap;
} Bucket;

static int bucket_push(Bucket *bk, int d, uint32_t item)
{
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

/* Solve one class (every class it leads to is solved). Returns 0, or -1 out of memory. */
static int solve_class(Egdb *db, const Squares *s, EgdbClass *c, const int n[4])
{
    const Rules *r = db->r;
    uint64_t size = c->size;
    uint16_t *remaining = calloc(size, sizeof *remaining);
    uint16_t *lossdist = calloc(size, sizeof *lossdist);
    uint32_t *offset = calloc(size + 1, sizeof *offset);
    Bucket *bk = calloc(MAX_DIST + 2, sizeof *bk);
    uint32_t *edges = NULL;
    MoveList l = {0};
    int rc = -1, top = 0;
    if (!remaining || !lossdist || !offset || !bk)
        goto out;
    /* Pass 1: values through the exits, internal children counted (in-degree in offset). */
    for (uint64_t i = 0; i < size; i++) {
        uint64_t w, b, k;
        int side;
        if (!position_of(r, s, c, n, i, &w, &b, &k, &side))
            continue;
        c->val[i] = 0; /* possible, not settled (set to VAL_DRAW at the end if never) */
        uint64_t own = side ? b : w, opp = side ? w : b;
        if (gen_legal(r, own, opp, k, side, &l) < 0)
            goto out;
        int win = 0, lose = 0, left = 0;
        for (int j = 0; j < l.n; j++) {
            uint64_t o = own, q = opp, kk = k;
            make_move(&l.m[j], &o, &q, &kk);
            uint64_t cw = side ? q : o, cb = side ? o : q;
            if (class_of(db, cw, cb, kk) == c) {
                offset[index_of(s, c, cw, cb, kk, 1 - side)]++;
                left++;
                continue;
            }
            uint16_t v = lookup(db, s, q, o, kk, 1 - side);
            int d = v >> 2, kind = v & 3;
            if (kind == VAL_LOSS) {
                if (!win || d + 1 < win)
                    win = d + 1;
                left++; /* a lost child: never lost (won at the latest in d + 1) */
            } else if (kind == VAL_WIN) {
                if (d + 1 > lose)
                    lose = d + 1;
            } else {
                left++; /* a drawn child: never lost */
            }
        }
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
        remaining[i] = (uint16_t)left;
        lossdist[i] = (uint16_t)lose;
    }
    /* Pass 2: the reversed internal edges. */
    uint64_t total = 0;
    for (uint64_t i = 0; i < size; i++) {
        uint32_t d = offset[i];
        offset[i] = (uint32_t)total;
        total += d;
    }
    offset[size] = (uint32_t)total;
    edges = malloc((total ? total : 1) * sizeof *edges);
    if (!edges)
        goto out;
    for (uint64_t i = 0; i < size; i++) {
        uint64_t w, b, k;
        int side;
        if (!position_of(r, s, c, n, i, &w, &b, &k, &side))
            continue;
        uint64_t own = side ? b : w, opp = side ? w : b;
        if (gen_legal(r, own, opp, k, side, &l) < 0)
            goto out;
        for (int j = 0; j < l.n; j++) {
            uint64_t o = own, q = opp, kk = k;
            make_move(&l.m[j], &o, &q, &kk);
            uint64_t cw = side ? q : o, cb = side ? o : q;
            if (class_of(db, cw, cb, kk) == c)
                edges[offset[index_of(s, c, cw, cb, kk, 1 - side)]++] = (uint32_t)i;
        }
    }
    for (uint64_t i = size; i > 0; i--)
        offset[i] = offset[i - 1];
    offset[0] = 0;
    /* Retrograde analysis by increasing distance. */
    for (int d = 0; d <= MAX_DIST; d++) {
        Bucket *x = &bk[d];
        for (uint32_t e = 0; e < x->n; e++) {
            uint32_t i = x->v[e] >> 1;
            int won = x->v[e] & 1;
            if (c->val[i])
                continue;
            c->val[i] = (uint16_t)(d << 2 | (won ? VAL_WIN : VAL_LOSS));
            if (won && d > top)
                top = d;
            for (uint32_t p = offset[i]; p < offset[i + 1]; p++) {
                uint32_t q = edges[p];
                if (c->val[q])
                    continue;
                if (!won) {
                    if (bucket_push(bk, d + 1, q << 1 | 1) < 0)
                        goto out;
                } else {
                    if (d + 1 > lossdist[q])
                        lossdist[q] = (uint16_t)(d + 1);
                    if (--remaining[q] == 0 && bucket_push(bk, lossdist[q], q << 1) < 0)
                        goto out;
                }
            }
        }
        free(x->v);
        x->v = NULL;
        x->n = x->cap = 0;
    }
    for (uint64_t i = 0; i < size; i++) {
        uint64_t w, b, k;
        int side;
        if (c->val[i] == 0 && position_of(r, s, c, n, i, &w, &b, &k, &side))
            c->val[i] = VAL_DRAW;
    }
    if (top > db->max_distance)
        db->max_distance = top;
    rc = 0;
out:
    if (bk)
        for (int d = 0; d <= MAX_DIST + 1; d++)
            free(bk[d].v);
    free(bk);
    free(remaining);
    free(lossdist);
    free(offset);
    free(edges);
    movelist_free(&l);
    return rc;
}

/* Classes of 2..EGDB_MAX_PIECES pieces: at most (EGDB_MAX_PIECES + 1)^4. */
#define MAX_CLASSES ((EGDB_MAX_PIECES + 1) * (EGDB_MAX_PIECES + 1) * (EGDB_MAX_PIECES + 1) * \
                     (EGDB_MAX_PIECES + 1))

Egdb *egdb_build(const Rules *r, int pieces)
{
    if (r->size != 8 || r->all_squares || pieces < 2 || pieces > EGDB_MAX_PIECES)
        return NULL;
    Egdb *db = calloc(1, sizeof *db);
    if (!db)
        return NULL;
    db->r = r;
    db->pieces = pieces;
    init_binom(db);
    squares_of(r, db);
    const Squares *s = db;
    /* Every class (men and kings of each side) in solving order: fewer pieces first, then
     * fewer men, so a capture or a promotion always leads to a class already solved. */
    int order[MAX_CLASSES][4], count = 0;
    for (int np = 2; np <= pieces; np++)
        for (int men = 0; men <= np; men++)
            for (int a = 0; a <= men; a++)
                for (int bk = 0; bk <= np - men; bk++) {
                    int n[4] = {a, bk, men - a, np - men - bk};
                    if (n[0] + n[1] == 0 || n[2] + n[3] == 0)
                        continue;
                    memcpy(order[count++], n, sizeof n);
                }
    /* Allocate every class first, so that lookups of not-yet-solved classes never happen
     * unseen (the order guarantees they do not). */
    for (int k = 0; k < count; k++) {
        const int *n = order[k];
        EgdbClass *c = &db->cls[n[0]][n[1]][n[2]][n[3]];
        c->size = 2;
        for (int j = 0; j < 4; j++) {
            c->sizes[j] = db->binom[NSQ][n[j]];
            c->size *= c->sizes[j];
        }
        c->val = calloc(c->size, sizeof *c->val);
        if (!c->val) {
            egdb_free(db);
            return NULL;
        }
        db->bytes += c->size * sizeof *c->val;
    }
    for (int k = 0; k < count; k++) {
        const int *n = order[k];
        EgdbClass *c = &db->cls[n[0]][n[1]][n[2]][n[3]];
        if (solve_class(db, s, c, n) < 0) {
            egdb_free(db);
            return NULL;
        }
        for (uint64_t i = 0; i < c->size; i++)
            db->positions += c->val[i] != 0;
    }
    return db;
}

void egdb_free(Egdb *db)
{
    if (!db)
        return;
    for (int a = 0; a <= EGDB_MAX_PIECES; a++)
        for (int b = 0; b <= EGDB_MAX_PIECES; b++)
            for (int c = 0; c <= EGDB_MAX_PIECES; c++)
                for (int d = 0; d <= EGDB_MAX_PIECES; d++)
                    free(db->cls[a][b][c][d].val);
    free(db);
}

int egdb_probe(const Egdb *db, uint64_t own, uint64_t opp, uint64_t kings, int side, int *plies)
{
    if (!opp || popcount64(own | opp) > db->pieces)
        return EGDB_UNKNOWN;
    if (!own) {
        *plies = 0;
        return EGDB_LOSS;
    }
    uint64_t w = side ? opp : own, b = side ? own : opp;
    const EgdbClass *c = class_of((Egdb *)db, w, b, kings);
    uint16_t v = c->val[index_of(db, c, w, b, kings, side)];
    *plies = v >> 2;
    switch (v & 3) {
    case VAL_WIN:
        return EGDB_WIN;
    case VAL_LOSS:
        return EGDB_LOSS;
    case VAL_DRAW:
        return EGDB_DRAW;
    default:
        return EGDB_UNKNOWN; /* an impossible position (a man on its promotion row) */
    }
}
