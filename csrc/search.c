/* The native search and evaluation: damiera._core.Engine.
 *
 * A port of damiera.engine.search (negamax alpha-beta with PVS, transposition table as a
 * fixed array, quiescence with the threat extension, hash move / captures / promotions /
 * killers / history ordering, late-move reductions that never reduce a move leaving the
 * opponent a capture, forced-move extension, repetition and no-progress draws inside the
 * search) and of damiera.engine.evaluate's terms, whose tables Python builds and hands over.
 * One root iteration runs per call with the GIL released; iterative deepening, aspiration
 * windows and reporting stay in Python. stop() (any thread) or the deadline ends it within a
 * few hundred nodes; Ctrl-C too (the signal handlers run every 16,384 nodes).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <time.h>

#include "movegen.h"
#include "search.h"

#define MATE 1000000
#define MATE_BOUND (MATE - 10000)
#define INF (MATE + 1)
#define MAX_PLY 200
#define NO_MOVES (-(1 << 30))
#define RUNAWAY_STEP 10
#define MAIN_DIAGONAL 20
#define DOUBLE_CORNER 30
#define CHASE 4
#define MAN 100

enum { EXACT = 0, LOWER = 1, UPPER = 2 };

typedef struct {
    uint64_t key;
    int32_t score;
    int16_t depth;
    uint8_t flag, best;
} TTEntry;

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
    int row_shifts[16];
    int64_t *row_places; /* nplaces x (1 << 2h) */
    int *weights;
    uint64_t row_mask;
} Eval;

typedef struct {
    PyObject_HEAD PyObject *rules_obj;
    const Rules *r;
    Eval ev;
    TTEntry *tt;
    uint64_t tt_mask;
    int history[MAX_BITS][MAX_BITS];
    uint16_t killers[MAX_PLY + 8][2];
    MoveList lists[MAX_PLY + 8];
    uint64_t *hashes;
    int nhashes, hashes_cap;
    long long nodes;
    double deadline;
    volatile int stop_flag;
    int aborted, interrupted, threat_extension, reduce_sacrifices, draw_plies;
    PyThreadState *saved;
} EngineObject;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline int popc(uint64_t x) { return popcount64(x); }
static inline uint64_t shift_by(uint64_t x, int o) { return o > 0 ? x << o : x >> -o; }

/* ---------------------------------------------------------------------------------------- */
/* Evaluation (damiera/engine/evaluate.py, term by term) */

static int mobility_of(const Eval *e, uint64_t men, uint64_t kings, uint64_t empty, int side)
{
    int h = e->half, n = 0;
    const int offsets[4] = {-(h + 1), -h, h, h + 1};
    if (men)
        for (int d = side ? 2 : 0, k = 0; k < 2; k++, d++)
            n += popc(shift_by(men, offsets[d]) & empty);
    if (kings)
        for (int d = 0; d < 4; d++) {
            uint64_t f = shift_by(kings, offsets[d]) & empty;
            if (e->flying)
                while (f) {
                    n += popc(f);
                    f = shift_by(f, offsets[d]) & empty;
                }
            else
                n += popc(f);
        }
    return n;
}

static int runaways(const Eval *e, uint64_t men, uint64_t blockers, const uint64_t *cones,
                    const int *to_go)
{
    int total = 0;
    for (; men; men &= men - 1) {
        int s = __builtin_ctzll(men);
        if (!(cones[s] & blockers))
            total += e->runaway_bonus - RUNAWAY_STEP * to_go[s];
    }
    return total;
}

static int chase(const Eval *e, uint64_t strong, uint64_t weak)
{
    int total = 0;
    for (; strong; strong &= strong - 1) {
        int s = __builtin_ctzll(strong), best = 1 << 20;
        for (uint64_t w = weak; w; w &= w - 1) {
            int t = __builtin_ctzll(w);
            int dr = abs(e->row[s] - e->row[t]), dc = abs(e->col[s] - e->col[t]);
            int d = dr > dc ? dr : dc;
            if (d < best)
                best = d;
        }
        total += CHASE * (e->size - best);
    }
    return total;
}

static int patterns(const Eval *e, uint64_t wm, uint64_t bm)
{
    int h = e->half, total = 0, offset = 0;
    uint64_t xs[16];
    for (int i = 0; i < e->nrows; i++)
        xs[i] = ((wm >> e->row_shifts[i]) & e->row_mask) |
                (((bm >> e->row_shifts[i]) & e->row_mask) << h);
    size_t stride = (size_t)1 << (2 * h);
    for (int r0 = 0; r0 < e->window_rows; r0++) {
        uint64_t fields = 0;
        for (int p = 0; p < e->nplaces; p++)
            fields += (uint64_t)e->row_places[p * stride + xs[r0 + p]];
        for (int k = 0; k < h - 1; k++) {
            total += e->weights[offset + (int)(fields & 8191)];
            fields >>= 13;
            offset += e->pattern_size;
        }
    }
    return total;
}

static int evaluate(const Eval *e, uint64_t white, uint64_t black, uint64_t kings, int side)
{
    uint64_t wk = white & kings, bk = black & kings, wm = white ^ wk, bm = black ^ bk;
    int nwm = popc(wm), nbm = popc(bm), nwk = popc(wk), nbk = popc(bk);
    int kv = e->king_value;
    int score = (nwm * MAN + nwk * kv) - (nbm * MAN + nbk * kv);
    int left = nwm + nbm + nwk + nbk;
    int trade = abs(score) * (e->start_pieces - left) / (2 * e->start_pieces);
    score += score > 0 ? trade : -trade;
    for (uint64_t b = wm; b; b &= b - 1)
        score += e->white_sq[__builtin_ctzll(b)];
    for (uint64_t b = bm; b; b &= b - 1)
        score -= e->black_sq[__builtin_ctzll(b)];
    score += (bk ? e->back_guard_vs_kings : e->back_guard) * popc(wm & e->white_home);
    score -= (wk ? e->back_guard_vs_kings : e->back_guard) * popc(bm & e->black_home);
    score -= e->balance * (abs(popc(white & e->left) - popc(white & e->right)) -
                           abs(popc(black & e->left) - popc(black & e->right)));
    uint64_t empty = e->mask & ~(white | black);
    int wmob = mobility_of(e, wm, wk, empty, 0), bmob = mobility_of(e, bm, bk, empty, 1);
    if ((side == 0 ? wmob : bmob) == 0)
        return NO_MOVES;
    score += e->mobility * (wmob - bmob);
    if (!bk && (wm & e->white_zone))
        score += runaways(e, wm & e->white_zone, black | wm, e->white_cone, e->white_to_go);
    if (!wk && (bm & e->black_zone))
        score -= runaways(e, bm & e->black_zone, white | bm, e->black_cone, e->black_to_go);
    if (e->window_rows)
        score += patterns(e, wm, bm);
    if (wk || bk) {
        if (e->flying) {
            uint64_t d = e->main_diagonal;
            score += MAIN_DIAGONAL * (popc(wk & d) - popc(bk & d));
            if (!wm && !bm) {
                if (nbk == 1 && nwk <= 3 && score > 0 && (nwk <= 2 || e->size >= 10 || (bk & d)))
                    score /= 8;
                else if (nwk == 1 && nbk <= 3 && score < 0 &&
                         (nbk <= 2 || e->size >= 10 || (wk & d)))
                    score = -((-score) / 8);
            }
        } else if (!wm && !bm) {
            uint64_t dc = e->double_corner;
            if (nwk > nbk) {
                score -= DOUBLE_CORNER * popc(bk & dc);
                score += chase(e, wk, bk);
            } else if (nbk > nwk) {
                score += DOUBLE_CORNER * popc(wk & dc);
                score -= chase(e, bk, wk);
            }
        }
    }
    return side == 0 ? score + e->tempo : e->tempo - score;
}

/* ---------------------------------------------------------------------------------------- */
/* Search */

typedef struct {
    uint64_t own, opp, kings;
    int side;
} Node;

static int poll(EngineObject *E)
{
    if (E->stop_flag || now() >= E->deadline) {
        E->aborted = 1;
        return 1;
    }
    if ((E->nodes & 16383) == 0 && E->saved) {
        PyEval_RestoreThread(E->saved);
        if (PyErr_CheckSignals() < 0)
            E->interrupted = E->aborted = 1;
        E->saved = PyEval_SaveThread();
    }
    return E->aborted;
}

static inline int count_node(EngineObject *E)
{
    E->nodes++;
    if (E->aborted)
        return 1;
    if ((E->nodes & 255) == 0)
        return poll(E);
    return 0;
}

static inline void child_of(const Node *n, const CMove *m, Node *c)
{
    uint64_t own = n->own, opp = n->opp, kings = n->kings;
    make_move(m, &own, &opp, &kings);
    c->own = opp;
    c->opp = own;
    c->kings = kings;
    c->side = 1 - n->side;
}

static int static_score(EngineObject *E, const Node *n)
{
    uint64_t w = n->side ? n->opp : n->own, b = n->side ? n->own : n->opp;
    return evaluate(&E->ev, w, b, n->kings, n->side);
}

static int gen(EngineObject *E, const Node *n, int ply)
{
    MoveList *l = &E->lists[ply];
    if (gen_legal(E->r, n->own, n->opp, n->kings, n->side, l) < 0) {
        E->aborted = 1;
        return -1;
    }
    return l->n;
}

static int quiesce(EngineObject *E, const Node *n, int alpha, int beta, int ply, int threat);

static int quiesce_moves(EngineObject *E, const Node *n, const CMove *moves, int count, int best,
                         int alpha, int beta, int ply)
{
    for (int i = 0; i < count; i++) {
        Node c;
        child_of(n, &moves[i], &c);
        int score = -quiesce(E, &c, -beta, -alpha, ply + 1, 0);
        if (E->aborted)
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                if (score >= beta)
                    break;
            }
        }
    }
    return best;
}

static int quiesce(EngineObject *E, const Node *n, int alpha, int beta, int ply, int threat)
{
    if (count_node(E))
        return 0;
    const Rules *r = E->r;
    if (!has_capture(r, n->own, n->opp, n->kings, n->side) || ply >= MAX_PLY) {
        if (threat && ply < MAX_PLY && has_capture(r, n->opp, n->own, n->kings, 1 - n->side)) {
            int count = gen(E, n, ply);
            if (count < 0)
                return 0;
            if (count == 0)
                return -MATE + ply;
            return quiesce_moves(E, n, E->lists[ply].m, count, -INF, alpha, beta, ply);
        }
        int score = static_score(E, n);
        return score == NO_MOVES ? -MATE + ply : score;
    }
    int count = gen(E, n, ply);
    if (count < 0)
        return 0;
    CMove *moves = E->lists[ply].m;
    if (!r->mandatory) {
        int stand = static_score(E, n);
        if (stand == NO_MOVES)
            stand = -INF;
        if (stand >= beta)
            return stand;
        if (stand > alpha)
            alpha = stand;
        int k = 0;
        for (int i = 0; i < count; i++)
            if (moves[i].ncap)
                moves[k++] = moves[i];
        return quiesce_moves(E, n, moves, k, alpha, alpha, beta, ply);
    }
    return quiesce_moves(E, n, moves, count, -INF, alpha, beta, ply);
}

static inline uint16_t quiet_key(const CMove *m) { return (uint16_t)(m->start << 8 | m->end) + 1; }

static void order_moves(EngineObject *E, const CMove *moves, int n, int hash_idx, int ply,
                        uint8_t *order)
{
    int64_t keys[256];
    uint16_t k0 = E->killers[ply][0], k1 = E->killers[ply][1];
    for (int i = 0; i < n; i++) {
        const CMove *m = &moves[i];
        int64_t s;
        if (i == hash_idx)
            s = (int64_t)1 << 40;
        else if (m->ncap)
            s = ((int64_t)1 << 30) + ((int64_t)m->ncap << 10) + popc(m->captured_kings);
        else if (m->promotes)
            s = (int64_t)1 << 29;
        else if (quiet_key(m) == k0)
            s = (int64_t)1 << 28;
        else if (quiet_key(m) == k1)
            s = ((int64_t)1 << 28) - 1;
        else
            s = E->history[m->start][m->end];
        keys[i] = s;
        order[i] = (uint8_t)i;
    }
    for (int i = 1; i < n; i++) {
        uint8_t x = order[i];
        int j = i - 1;
        while (j >= 0 && keys[order[j]] < keys[x]) {
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = x;
    }
}

static int search(EngineObject *E, const Node *n, uint64_t h, int depth, int alpha, int beta,
                  int ply, int rep_start, int quiet);

/* Search one child (the PVS and reduction logic of an interior node). */
static int search_child(EngineObject *E, const Node *n, const CMove *m, uint64_t h, int k,
                        int depth, int alpha, int beta, int ply, int rep_start, int quiet,
                        int pv_node, int may_reduce)
{
    Node c;
    child_of(n, m, &c);
    uint64_t ch = zobrist_child(E->r, h, m, n->side);
    int progress = m->ncap || m->promotes;
    E->hashes[E->nhashes++] = ch;
    int child_rep = (progress || !m->by_king) ? E->nhashes - 1 : rep_start;
    int child_quiet = progress ? 0 : quiet + 1;
    int score;
    if (k == 0) {
        score = -search(E, &c, ch, depth - 1, -beta, -alpha, ply + 1, child_rep, child_quiet);
    } else {
        int reduction = 0;
        if (may_reduce && depth >= 3 && k >= 3 && !progress && quiet_key(m) != E->killers[ply][0] &&
            quiet_key(m) != E->killers[ply][1] &&
            (E->reduce_sacrifices || !has_capture(E->r, c.own, c.opp, c.kings, c.side)))
            reduction = (depth >= 6 && k >= 6 && !pv_node) ? 2 : 1;
        score = -search(E, &c, ch, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, child_rep,
                        child_quiet);
        if (!E->aborted && score > alpha && reduction)
            score = -search(E, &c, ch, depth - 1, -alpha - 1, -alpha, ply + 1, child_rep,
                            child_quiet);
        if (!E->aborted && alpha < score && score < beta)
            score = -search(E, &c, ch, depth - 1, -beta, -alpha, ply + 1, child_rep, child_quiet);
    }
    E->nhashes--;
    return score;
}

static int search(EngineObject *E, const Node *n, uint64_t h, int depth, int alpha, int beta,
                  int ply, int rep_start, int quiet)
{
    if (count_node(E))
        return 0;
    if (quiet >= E->draw_plies)
        return 0;
    for (int i = E->nhashes - 3; i >= rep_start; i -= 2)
        if (E->hashes[i] == h)
            return 0;
    if (depth <= 0 || ply >= MAX_PLY)
        return quiesce(E, n, alpha, beta, ply, E->threat_extension);
    TTEntry *te = &E->tt[h & E->tt_mask];
    int hash_idx = -1;
    if (te->key == h) {
        hash_idx = te->best == 255 ? -1 : te->best;
        if (te->depth >= depth) {
            int s = te->score;
            if (s > MATE_BOUND)
                s -= ply;
            else if (s < -MATE_BOUND)
                s += ply;
            if (te->flag == EXACT)
                return s;
            if (te->flag == LOWER) {
                if (s >= beta)
                    return s;
            } else if (s <= alpha)
                return s;
        }
    }
    int pv_node = beta - alpha > 1;
    int count = gen(E, n, ply);
    if (count < 0)
        return 0;
    if (count == 0)
        return -MATE + ply;
    CMove *moves = E->lists[ply].m;
    uint8_t order[256];
    if (count > 256)
        count = 256; /* never met in play: more than 256 legal moves */
    if (count == 1) {
        depth++;
        order[0] = 0;
    } else {
        order_moves(E, moves, count, hash_idx, ply, order);
    }
    int alpha0 = alpha, best_score = -INF, best_idx = order[0];
    for (int k = 0; k < count; k++) {
        const CMove *m = &moves[order[k]];
        int score = search_child(E, n, m, h, k, depth, alpha, beta, ply, rep_start, quiet, pv_node,
                                 1);
        if (E->aborted)
            return 0;
        moves = E->lists[ply].m; /* (the list is not reallocated below this ply, but be safe) */
        if (score > best_score) {
            best_score = score;
            best_idx = order[k];
            if (score > alpha) {
                alpha = score;
                if (score >= beta) {
                    if (!m->ncap) {
                        E->killers[ply][1] = E->killers[ply][0];
                        E->killers[ply][0] = quiet_key(m);
                        E->history[m->start][m->end] += depth * depth;
                    }
                    break;
                }
            }
        }
    }
    int flag = best_score >= beta ? LOWER : best_score > alpha0 ? EXACT : UPPER;
    int stored = best_score;
    if (stored > MATE_BOUND)
        stored += ply;
    else if (stored < -MATE_BOUND)
        stored -= ply;
    te->key = h;
    te->depth = (int16_t)depth;
    te->flag = (uint8_t)flag;
    te->score = stored;
    te->best = (uint8_t)(best_idx < 255 ? best_idx : 255);
    return best_score;
}

/* ---------------------------------------------------------------------------------------- */
/* Python face */

extern int position_words(const Rules *r, PyObject *pos, uint64_t *w, uint64_t *b, uint64_t *k,
                          int *side);
extern PyObject *move_object(const CMove *m);
extern const Rules *rules_of(PyObject *o);

static int node_of(EngineObject *E, PyObject *pos, Node *n)
{
    uint64_t w, b, k;
    int side;
    if (position_words(E->r, pos, &w, &b, &k, &side) < 0)
        return -1;
    n->own = side ? b : w;
    n->opp = side ? w : b;
    n->kings = k;
    n->side = side;
    return 0;
}

static uint64_t node_hash(EngineObject *E, const Node *n)
{
    uint64_t w = n->side ? n->opp : n->own, b = n->side ? n->own : n->opp;
    return zobrist_hash(E->r, w, b, n->kings, n->side);
}

static long get_int_attr(PyObject *o, const char *name, int *ok)
{
    PyObject *v = PyObject_GetAttrString(o, name);
    if (!v) {
        *ok = 0;
        return 0;
    }
    long x = PyLong_AsLong(v);
    Py_DECREF(v);
    if (x == -1 && PyErr_Occurred())
        *ok = 0;
    return x;
}

static uint64_t get_word_attr(PyObject *o, const char *name, int *ok)
{
    PyObject *v = PyObject_GetAttrString(o, name);
    if (!v) {
        *ok = 0;
        return 0;
    }
    unsigned long long x = PyLong_AsUnsignedLongLong(v);
    Py_DECREF(v);
    if (x == (unsigned long long)-1 && PyErr_Occurred())
        *ok = 0;
    return x;
}

/* A list of ints attribute into out[0..n) (at most cap). Returns the length or -1. */
static Py_ssize_t get_ints(PyObject *o, const char *name, int64_t *out, Py_ssize_t cap)
{
    PyObject *v = PyObject_GetAttrString(o, name);
    if (!v)
        return -1;
    PyObject *seq = PySequence_Fast(v, "expected a sequence");
    Py_DECREF(v);
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < n && i < cap; i++) {
        out[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (out[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return n;
}

static int cones_of(PyObject *ev, const char *name, uint64_t *cone, int *to_go)
{
    PyObject *d = PyObject_GetAttrString(ev, name);
    if (!d)
        return -1;
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(d, &pos, &key, &value)) {
        long s = PyLong_AsLong(key);
        unsigned long long c;
        int t;
        if (s < 0 || s >= MAX_BITS || !PyArg_ParseTuple(value, "Ki", &c, &t)) {
            Py_DECREF(d);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "bad cone table");
            return -1;
        }
        cone[s] = c;
        to_go[s] = t;
    }
    Py_DECREF(d);
    return 0;
}

static int load_eval(Eval *e, PyObject *ev)
{
    int ok = 1;
    memset(e, 0, sizeof *e);
    e->king_value = (int)get_int_attr(ev, "king_value", &ok);
    e->start_pieces = (int)get_int_attr(ev, "start_pieces", &ok);
    e->back_guard = (int)get_int_attr(ev, "back_guard", &ok);
    e->back_guard_vs_kings = (int)get_int_attr(ev, "back_guard_vs_kings", &ok);
    e->balance = (int)get_int_attr(ev, "balance", &ok);
    e->mobility = (int)get_int_attr(ev, "mobility", &ok);
    e->tempo = (int)get_int_attr(ev, "tempo", &ok);
    e->runaway_bonus = (int)get_int_attr(ev, "runaway_bonus", &ok);
    e->flying = (int)get_int_attr(ev, "flying", &ok);
    e->size = (int)get_int_attr(ev, "size", &ok);
    e->half = (int)get_int_attr(ev, "half", &ok);
    e->window_rows = (int)get_int_attr(ev, "window_rows", &ok);
    e->pattern_size = (int)get_int_attr(ev, "pattern_size", &ok);
    e->mask = get_word_attr(ev, "mask", &ok);
    e->white_home = get_word_attr(ev, "white_home", &ok);
    e->black_home = get_word_attr(ev, "black_home", &ok);
    e->left = get_word_attr(ev, "left", &ok);
    e->right = get_word_attr(ev, "right", &ok);
    e->white_zone = get_word_attr(ev, "white_zone", &ok);
    e->black_zone = get_word_attr(ev, "black_zone", &ok);
    e->main_diagonal = get_word_attr(ev, "main_diagonal", &ok);
    e->double_corner = get_word_attr(ev, "double_corner", &ok);
    e->row_mask = get_word_attr(ev, "row_mask", &ok);
    if (!ok)
        return -1;
    int64_t buf[MAX_BITS];
    Py_ssize_t n = get_ints(ev, "white_sq", buf, MAX_BITS);
    if (n < 0)
        return -1;
    for (Py_ssize_t i = 0; i < n && i < MAX_BITS; i++)
        e->white_sq[i] = (int)buf[i];
    n = get_ints(ev, "black_sq", buf, MAX_BITS);
    if (n < 0)
        return -1;
    for (Py_ssize_t i = 0; i < n && i < MAX_BITS; i++)
        e->black_sq[i] = (int)buf[i];
    if (cones_of(ev, "white_cone", e->white_cone, e->white_to_go) < 0 ||
        cones_of(ev, "black_cone", e->black_cone, e->black_to_go) < 0)
        return -1;
    PyObject *coords = PyObject_GetAttrString(ev, "coords");
    if (!coords)
        return -1;
    PyObject *key, *value;
    Py_ssize_t p = 0;
    while (PyDict_Next(coords, &p, &key, &value)) {
        long s = PyLong_AsLong(key);
        int rr, cc;
        if (s < 0 || s >= MAX_BITS || !PyArg_ParseTuple(value, "ii", &rr, &cc)) {
            Py_DECREF(coords);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "bad coordinates");
            return -1;
        }
        e->row[s] = rr;
        e->col[s] = cc;
    }
    Py_DECREF(coords);
    if (e->window_rows) {
        int64_t shifts[16];
        n = get_ints(ev, "row_shifts", shifts, 16);
        if (n < 0 || n > 16)
            return -1;
        e->nrows = (int)n;
        for (int i = 0; i < e->nrows; i++)
            e->row_shifts[i] = (int)shifts[i];
        PyObject *places = PyObject_GetAttrString(ev, "row_places");
        PyObject *weights = PyObject_GetAttrString(ev, "pattern_weights");
        if (!places || !weights) {
            Py_XDECREF(places);
            Py_XDECREF(weights);
            return -1;
        }
        e->nplaces = (int)PyList_Size(places);
        size_t stride = (size_t)1 << (2 * e->half);
        e->row_places = calloc((size_t)e->nplaces * stride, sizeof(int64_t));
        Py_ssize_t nw = PyList_Size(weights);
        e->weights = calloc((size_t)nw + 1, sizeof(int));
        int fail = !e->row_places || !e->weights;
        for (int pl = 0; !fail && pl < e->nplaces; pl++) {
            PyObject *t = PyList_GetItem(places, pl);
            for (Py_ssize_t x = 0; x < PyList_Size(t) && x < (Py_ssize_t)stride; x++)
                e->row_places[pl * stride + x] = PyLong_AsLongLong(PyList_GetItem(t, x));
        }
        for (Py_ssize_t i = 0; !fail && i < nw; i++)
            e->weights[i] = (int)PyLong_AsLong(PyList_GetItem(weights, i));
        Py_DECREF(places);
        Py_DECREF(weights);
        if (fail)
            return PyErr_NoMemory(), -1;
        if (PyErr_Occurred())
            return -1;
    }
    return 0;
}

static int Engine_init(EngineObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"rules", "evaluator", "tt_entries", "draw_plies", NULL};
    PyObject *rules, *ev;
    long long entries;
    int draw_plies;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOLi", names, &rules, &ev, &entries, &draw_plies))
        return -1;
    const Rules *r = rules_of(rules);
    if (!r)
        return -1;
    Py_INCREF(rules);
    Py_XSETREF(self->rules_obj, rules);
    self->r = r;
    if (load_eval(&self->ev, ev) < 0)
        return -1;
    uint64_t size = 1;
    while (size * 2 <= (uint64_t)(entries > 1024 ? entries : 1024))
        size *= 2;
    free(self->tt);
    self->tt = calloc(size, sizeof(TTEntry));
    if (!self->tt) {
        PyErr_NoMemory();
        return -1;
    }
    self->tt_mask = size - 1;
    self->draw_plies = draw_plies;
    self->threat_extension = 1;
    self->reduce_sacrifices = 0;
    return 0;
}

static void Engine_dealloc(EngineObject *self)
{
    free(self->tt);
    free(self->hashes);
    free(self->ev.row_places);
    free(self->ev.weights);
    for (int i = 0; i < MAX_PLY + 8; i++)
        movelist_free(&self->lists[i]);
    Py_XDECREF(self->rules_obj);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Engine_new_search(EngineObject *self, PyObject *args)
{
    PyObject *hashes;
    int threat, reduce;
    if (!PyArg_ParseTuple(args, "Opp", &hashes, &threat, &reduce))
        return NULL;
    PyObject *seq = PySequence_Fast(hashes, "hashes must be a sequence of ints");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int cap = (int)n + MAX_PLY + 16;
    uint64_t *h = realloc(self->hashes, (size_t)cap * sizeof(uint64_t));
    if (!h) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    self->hashes = h;
    self->hashes_cap = cap;
    for (Py_ssize_t i = 0; i < n; i++) {
        h[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
    }
    Py_DECREF(seq);
    self->nhashes = (int)n;
    for (int a = 0; a < MAX_BITS; a++)
        for (int b = 0; b < MAX_BITS; b++)
            self->history[a][b] /= 8;
    memset(self->killers, 0, sizeof self->killers);
    self->nodes = 0;
    self->stop_flag = 0;
    self->threat_extension = threat;
    self->reduce_sacrifices = reduce;
    Py_RETURN_NONE;
}

static int find_in(const CMove *list, int n, const CMove *m)
{
    for (int i = 0; i < n; i++)
        if (list[i].start == m->start && list[i].end == m->end &&
            list[i].captured == m->captured && list[i].ncap == m->ncap &&
            memcmp(list[i].path, m->path, (size_t)path_len(m)) == 0)
            return i;
    return -1;
}

/* root(position, order, depth, rep_start, quiet, full_window, alpha, beta, deadline)
 * -> (best index, best score, [(index, score)...], partial index or -1, partial score,
 *     aborted). Indices are into legal_moves' (sorted) list. */
static PyObject *Engine_root(EngineObject *self, PyObject *args)
{
    PyObject *pos, *order_obj;
    int depth, rep_start, quiet, full_window, alpha, beta;
    double deadline;
    if (!PyArg_ParseTuple(args, "OOiiipiid", &pos, &order_obj, &depth, &rep_start, &quiet,
                          &full_window, &alpha, &beta, &deadline))
        return NULL;
    Node n;
    if (node_of(self, pos, &n) < 0)
        return NULL;
    MoveList root = {0};
    if (gen_legal(self->r, n.own, n.opp, n.kings, n.side, &root) < 0)
        return PyErr_NoMemory();
    sort_moves(self->r, root.m, root.n);
    PyObject *seq = PySequence_Fast(order_obj, "order must be a sequence of move indices");
    if (!seq) {
        movelist_free(&root);
        return NULL;
    }
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    int *order = malloc(sizeof(int) * (size_t)(count + 1));
    int *scores = malloc(sizeof(int) * (size_t)(count + 1));
    for (Py_ssize_t i = 0; order && i < count; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v < 0 || v >= root.n) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_IndexError, "move index out of range");
            break;
        }
        order[i] = (int)v;
    }
    Py_DECREF(seq);
    if (!order || !scores || PyErr_Occurred() || count == 0) {
        free(order);
        free(scores);
        movelist_free(&root);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "no root moves to search");
        return NULL;
    }
    uint64_t h = node_hash(self, &n);
    int alpha0 = alpha, best = order[0], best_score = -INF, partial = -1, partial_score = 0;
    int ext = root.n == 1 ? 1 : 0, searched = 0;
    self->deadline = deadline;
    self->aborted = self->interrupted = 0;
    if (self->nhashes + MAX_PLY + 8 > self->hashes_cap) {
        PyErr_SetString(PyExc_RuntimeError, "new_search() must come first");
        free(order);
        free(scores);
        movelist_free(&root);
        return NULL;
    }
    self->saved = PyEval_SaveThread();
    for (Py_ssize_t i = 0; i < count; i++) {
        const CMove *m = &root.m[order[i]];
        Node c;
        child_of(&n, m, &c);
        uint64_t ch = zobrist_child(self->r, h, m, n.side);
        int progress = m->ncap || m->promotes;
        self->hashes[self->nhashes++] = ch;
        int child_rep = (progress || !m->by_king) ? self->nhashes - 1 : rep_start;
        int child_quiet = progress ? 0 : quiet + 1;
        int score;
        if (i == 0 || full_window) {
            score = -search(self, &c, ch, depth - 1 + ext, -beta, -alpha, 1, child_rep, child_quiet);
        } else {
            score = -search(self, &c, ch, depth - 1 + ext, -alpha - 1, -alpha, 1, child_rep,
                            child_quiet);
            if (!self->aborted && score > alpha)
                score = -search(self, &c, ch, depth - 1 + ext, -beta, -alpha, 1, child_rep,
                                child_quiet);
        }
        self->nhashes--;
        if (self->aborted)
            break;
        scores[i] = score;
        searched = (int)i + 1;
        if (score > best_score) {
            best_score = score;
            best = order[i];
            if (score > alpha0) {
                partial = best;
                partial_score = score;
            }
            if (score > alpha && !full_window) {
                alpha = score;
                if (score >= beta)
                    break;
            }
        }
    }
    if (!self->aborted && ((alpha0 < best_score && best_score < beta) || full_window)) {
        MoveList raw = {0};
        int idx = -1;
        if (gen_legal(self->r, n.own, n.opp, n.kings, n.side, &raw) == 0)
            idx = find_in(raw.m, raw.n, &root.m[best]);
        movelist_free(&raw);
        TTEntry *te = &self->tt[h & self->tt_mask];
        te->key = h;
        te->depth = (int16_t)depth;
        te->flag = EXACT;
        te->score = best_score;
        te->best = (uint8_t)(idx >= 0 && idx < 255 ? idx : 255);
    }
    PyEval_RestoreThread(self->saved);
    self->saved = NULL;
    movelist_free(&root);
    if (self->interrupted) {
        free(order);
        free(scores);
        if (!PyErr_Occurred())
            PyErr_SetInterrupt();
        return NULL;
    }
    PyObject *list = PyList_New(searched);
    for (int i = 0; list && i < searched; i++)
        PyList_SET_ITEM(list, i, Py_BuildValue("(ii)", order[i], scores[i]));
    free(order);
    free(scores);
    if (!list)
        return NULL;
    return Py_BuildValue("(iiNiiN)", best, best_score, list, partial, partial_score,
                         PyBool_FromLong(self->aborted));
}

/* pv(position, first index, depth) -> the moves: the first, then the table's best moves. */
static PyObject *Engine_pv(EngineObject *self, PyObject *args)
{
    PyObject *pos;
    int first, depth;
    if (!PyArg_ParseTuple(args, "Oii", &pos, &first, &depth))
        return NULL;
    Node n;
    if (node_of(self, pos, &n) < 0)
        return NULL;
    MoveList l = {0};
    PyObject *out = PyList_New(0);
    uint64_t seen[MAX_PLY + 2];
    int nseen = 0;
    if (!out || gen_legal(self->r, n.own, n.opp, n.kings, n.side, &l) < 0)
        goto fail;
    sort_moves(self->r, l.m, l.n);
    if (first < 0 || first >= l.n) {
        PyErr_SetString(PyExc_IndexError, "move index out of range");
        goto fail;
    }
    CMove m = l.m[first];
    uint64_t h = node_hash(self, &n);
    seen[nseen++] = h;
    for (;;) {
        PyObject *mo = move_object(&m);
        if (!mo || PyList_Append(out, mo) < 0) {
            Py_XDECREF(mo);
            goto fail;
        }
        Py_DECREF(mo);
        h = zobrist_child(self->r, h, &m, n.side);
        Node c;
        child_of(&n, &m, &c);
        n = c;
        if (PyList_GET_SIZE(out) >= depth || nseen >= MAX_PLY)
            break;
        int repeated = 0;
        for (int i = 0; i < nseen; i++)
            repeated |= seen[i] == h;
        if (repeated)
            break;
        seen[nseen++] = h;
        TTEntry *te = &self->tt[h & self->tt_mask];
        if (te->key != h || te->best == 255)
            break;
        if (gen_legal(self->r, n.own, n.opp, n.kings, n.side, &l) < 0 || te->best >= l.n)
            break;
        m = l.m[te->best];
    }
    movelist_free(&l);
    return out;
fail:
    movelist_free(&l);
    Py_XDECREF(out);
    return NULL;
}

static PyObject *Engine_evaluate(EngineObject *self, PyObject *pos)
{
    Node n;
    if (node_of(self, pos, &n) < 0)
        return NULL;
    return PyLong_FromLong(static_score(self, &n));
}

static PyObject *Engine_hash(EngineObject *self, PyObject *pos)
{
    Node n;
    if (node_of(self, pos, &n) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(node_hash(self, &n));
}

static PyObject *Engine_stop(EngineObject *self, PyObject *unused)
{
    (void)unused;
    self->stop_flag = 1;
    Py_RETURN_NONE;
}

static PyObject *Engine_clear(EngineObject *self, PyObject *unused)
{
    (void)unused;
    memset(self->tt, 0, (self->tt_mask + 1) * sizeof(TTEntry));
    memset(self->history, 0, sizeof self->history);
    Py_RETURN_NONE;
}

static PyObject *Engine_get_nodes(EngineObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLongLong(self->nodes);
}

static PyObject *Engine_tt_used(EngineObject *self, PyObject *unused)
{
    (void)unused;
    long long used = 0;
    for (uint64_t i = 0; i <= self->tt_mask; i++)
        used += self->tt[i].key != 0;
    return PyLong_FromLongLong(used);
}

static PyMethodDef Engine_methods[] = {
    {"new_search", (PyCFunction)Engine_new_search, METH_VARARGS,
     "new_search(hashes, threat_extension, reduce_sacrifices): the game's hashes since the "
     "last irreversible move (current last); ages the history, clears killers and counters"},
    {"root", (PyCFunction)Engine_root, METH_VARARGS,
     "root(position, order, depth, rep_start, quiet, full_window, alpha, beta, deadline) -> "
     "(best, score, [(index, score)], partial, partial_score, aborted); GIL released"},
    {"pv", (PyCFunction)Engine_pv, METH_VARARGS,
     "pv(position, first, depth) -> list[Move]: first, then the table's best moves"},
    {"evaluate", (PyCFunction)Engine_evaluate, METH_O,
     "evaluate(position) -> static score for the side to move (centi-men), or -(1 << 30)"},
    {"hash", (PyCFunction)Engine_hash, METH_O, "hash(position) -> 64-bit Zobrist hash"},
    {"stop", (PyCFunction)Engine_stop, METH_NOARGS,
     "stop(): the running root() returns within a few hundred nodes (any thread)"},
    {"clear", (PyCFunction)Engine_clear, METH_NOARGS, "clear(): empty table and history"},
    {"tt_used", (PyCFunction)Engine_tt_used, METH_NOARGS, "tt_used() -> filled table entries"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Engine_getset[] = {
    {"nodes", (getter)Engine_get_nodes, NULL, "nodes searched since new_search()", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "damiera._core.Engine",
    .tp_basicsize = sizeof(EngineObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Engine(rules, evaluator, tt_entries, draw_plies): the native search.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Engine_init,
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_methods = Engine_methods,
    .tp_getset = Engine_getset,
};

int search_register(PyObject *module)
{
    if (PyType_Ready(&EngineType) < 0)
        return -1;
    Py_INCREF(&EngineType);
    if (PyModule_AddObject(module, "Engine", (PyObject *)&EngineType) < 0) {
        Py_DECREF(&EngineType);
        return -1;
    }
    return 0;
}
