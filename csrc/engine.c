/* damiera._core.Engine: the Python face of the native search (search.c).
 *
 * One root iteration runs per call with the GIL released; iterative deepening, aspiration
 * windows and reporting stay in Python (damiera.engine.search).
 */
#define PY_SSIZE_T_CLEAN
#include "egdb_py.h"
#include "search.h"

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
    self->probcut = 1;
    return 0;
}

static void Engine_dealloc(EngineObject *self)
{
    free(self->tt);
    free(self->hashes);
    free_eval(&self->ev);
    for (int i = 0; i < MAX_PLY + 8; i++)
        movelist_free(&self->lists[i]);
    Py_XDECREF(self->rules_obj);
    Py_XDECREF(self->egdb_obj);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Engine_new_search(EngineObject *self, PyObject *args)
{
    PyObject *hashes;
    int threat, reduce, prune = 1, probcut = 1;
    if (!PyArg_ParseTuple(args, "Opp|pp", &hashes, &threat, &reduce, &prune, &probcut))
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
    self->prune_late_moves = prune;
    self->probcut = probcut;
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

/* root(position, order, depth, rep_start, quiet, full_window, alpha, beta, deadline
 *      [, max_nodes]) -> (best index, best score, [(index, score)...], partial index or -1,
 *      partial score, aborted). Indices are into legal_moves' (sorted) list. max_nodes (0:
 *      none) stops the search once the nodes counted since new_search() reach it. */
static PyObject *Engine_root(EngineObject *self, PyObject *args)
{
    PyObject *pos, *order_obj;
    int depth, rep_start, quiet, full_window, alpha, beta;
    double deadline;
    long long max_nodes = 0;
    if (!PyArg_ParseTuple(args, "OOiiipiid|L", &pos, &order_obj, &depth, &rep_start, &quiet,
                          &full_window, &alpha, &beta, &deadline, &max_nodes))
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
    self->max_nodes = max_nodes > 0 ? max_nodes : 0;
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

/* set_egdb(db or None): the endgame database the search probes (for the same rules). */
static PyObject *Engine_set_egdb(EngineObject *self, PyObject *db)
{
    if (db == Py_None) {
        Py_CLEAR(self->egdb_obj);
        self->egdb = NULL;
        Py_RETURN_NONE;
    }
    const Egdb *e = egdb_of(db);
    if (!e)
        return NULL;
    if (memcmp(e->r, self->r, sizeof *e->r) != 0) {
        PyErr_SetString(PyExc_ValueError, "the endgame database is for other rules");
        return NULL;
    }
    Py_INCREF(db);
    Py_XSETREF(self->egdb_obj, db);
    self->egdb = e;
    Py_RETURN_NONE;
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
     "new_search(hashes, threat_extension, reduce_sacrifices[, prune_late_moves[, probcut]]): "
     "the game's hashes since the last irreversible move (current last); ages the history, "
     "clears killers and counters"},
    {"root", (PyCFunction)Engine_root, METH_VARARGS,
     "root(position, order, depth, rep_start, quiet, full_window, alpha, beta, deadline"
     "[, max_nodes]) -> "
     "(best, score, [(index, score)], partial, partial_score, aborted); GIL released"},
    {"pv", (PyCFunction)Engine_pv, METH_VARARGS,
     "pv(position, first, depth) -> list[Move]: first, then the table's best moves"},
    {"evaluate", (PyCFunction)Engine_evaluate, METH_O,
     "evaluate(position) -> static score for the side to move (centi-men), or -(1 << 30)"},
    {"hash", (PyCFunction)Engine_hash, METH_O, "hash(position) -> 64-bit Zobrist hash"},
    {"stop", (PyCFunction)Engine_stop, METH_NOARGS,
     "stop(): the running root() returns within a few hundred nodes (any thread)"},
    {"clear", (PyCFunction)Engine_clear, METH_NOARGS, "clear(): empty table and history"},
    {"set_egdb", (PyCFunction)Engine_set_egdb, METH_O,
     "set_egdb(db: Egdb | None): the endgame database the search probes (None: none)"},
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

