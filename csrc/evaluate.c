/* The static evaluation (evaluate.h): damiera/engine/evaluate.py's terms, one by one. */
#define PY_SSIZE_T_CLEAN
#include "evaluate.h"

#define RUNAWAY_STEP 10
#define MAIN_DIAGONAL 20
#define DOUBLE_CORNER 30
#define CHASE 4
#define MAN 100

static inline int popc(uint64_t x) { return popcount64(x); }
static inline uint64_t shift_by(uint64_t x, int o) { return o > 0 ? x << o : x >> -o; }

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

/* Flying kings: can the weaker side's king hold the draw? A king cannot be beaten by two
 * pieces, nor by three on 10x10, nor by three on 8x8 while it holds the main road. On 10x10
 * each of the stronger side's men counts as the king it may become and the weaker side may
 * keep men beside its king; on 8x8 only kings-only endings against a lone king count. */
static int holds_draw(const Eval *e, uint64_t strong_men, uint64_t strong_kings,
                      uint64_t weak_men, uint64_t weak_kings)
{
    if (!weak_kings)
        return 0;
    if (e->size < 10 && (strong_men || weak_men || popc(weak_kings) != 1))
        return 0;
    int strong = popc(strong_men | strong_kings);
    return strong <= 2 ||
           (strong == 3 && (e->size >= 10 || (weak_kings & e->main_diagonal)));
}

/* The windows' weights summed over the board (White's view). With two phases, each window
 * reads its opening and its endgame table (the endgame's lie phase_stride further on), and
 * the sums are blended by the pieces left (patterns.py, "Phases"). */
static int patterns(const Eval *e, uint64_t wm, uint64_t bm, int pieces)
{
    int h = e->half, total = 0, endgame = 0, offset = 0;
    const int16_t *late = e->weights + e->phase_stride;
    /* Each row's digits once (the place-0 table, the only one kept); a row at place p of a
     * window weighs 9^p (row_tables' place-p entry is exactly 9^p times its place-0 entry,
     * and no 13-bit field carries: a window's pattern is below 3^8 = 6561). */
    static const uint64_t POW9[4] = {1, 9, 81, 729};
    uint64_t digits[16];
    for (int i = 0; i < e->nrows; i++)
        digits[i] = (uint64_t)e->row_places[((wm >> e->row_shifts[i]) & e->row_mask) |
                                            (((bm >> e->row_shifts[i]) & e->row_mask) << h)];
    for (int r0 = 0; r0 < e->window_rows; r0++) {
        uint64_t fields = 0;
        for (int p = 0; p < e->nplaces; p++)
            fields += digits[r0 + p] * POW9[p];
        for (int k = 0; k < h - 1; k++) {
            int at = offset + (int)(fields & 8191);
            total += e->weights[at];
            if (e->phases == 2)
                endgame += late[at];
            fields >>= 13;
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

int evaluate(const Eval *e, uint64_t white, uint64_t black, uint64_t kings, int side)
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
        score += patterns(e, wm, bm, left);
    if (wk || bk) {
        if (e->flying) {
            uint64_t d = e->main_diagonal;
            score += MAIN_DIAGONAL * (popc(wk & d) - popc(bk & d));
            if (score > 0 && holds_draw(e, wm, wk, bm, bk))
                score /= 8;
            else if (score < 0 && holds_draw(e, bm, bk, wm, wk))
                score = -((-score) / 8);
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
/* The Evaluator's tables */

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

int load_eval(Eval *e, PyObject *ev)
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
        e->phases = (int)get_int_attr(ev, "pattern_phases", &ok);
        if (!ok || e->phases < 1 || e->phases > 2) {
            Py_DECREF(places);
            Py_DECREF(weights);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "pattern_phases must be 1 or 2");
            return -1;
        }
        size_t stride = (size_t)1 << (2 * e->half);
        /* Only the place-0 table: place p's is 9^p times it (see patterns()). */
        e->row_places = calloc(stride, sizeof(int64_t));
        Py_ssize_t nw = PyList_Size(weights);
        e->weights = calloc((size_t)nw + 1, sizeof(int16_t));
        int fail = !e->row_places || !e->weights;
        if (!fail && e->nplaces > 0) {
            PyObject *t = PyList_GetItem(places, 0);
            for (Py_ssize_t x = 0; x < PyList_Size(t) && x < (Py_ssize_t)stride; x++)
                e->row_places[x] = PyLong_AsLongLong(PyList_GetItem(t, x));
        }
        for (Py_ssize_t i = 0; !fail && i < nw; i++) {
            long w = PyLong_AsLong(PyList_GetItem(weights, i));
            if (w < -32768 || w > 32767) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "pattern weight outside -32768..32767");
                fail = 2;
                break;
            }
            e->weights[i] = (int16_t)w;
        }
        e->phase_stride = (int)(nw / e->phases);
        Py_DECREF(places);
        Py_DECREF(weights);
        if (fail == 1)
            return PyErr_NoMemory(), -1;
        if (PyErr_Occurred())
            return -1;
    }
    return 0;
}


void free_eval(Eval *e)
{
    free(e->row_places);
    free(e->weights);
    e->row_places = NULL;
    e->weights = NULL;
}
