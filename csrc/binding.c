/* damiera._core: the one file that knows Python. It reads Python values into numbers, hands
 * them to the checks of boundary.h (sizes, squares, piece counts, limits) that turn them into
 * the C units' structs, and turns the units' results back into Python values; the units
 * themselves hold no Python object.
 *
 *   Values(Move, Position, WHITE, BLACK): the tuple types and colours read and returned;
 *         apply(position, move), is_progress(move).
 *   Rules(size, flying, men_back, men_take_kings, choice, promotion, mandatory, label_order,
 *         man_rows, draw_plies, values): one rule set (position.h has the enum values);
 *         moves, raw_captures, quiet_moves, has_capture, perft, hash.
 *   Evaluation(rules, weights=path | None, tables=(rows, phases, int16 bytes) | None)
 *   Engine(rules, evaluation, tt_entries): search(position, history, ...) with the GIL released
 *         for the whole search; stop() from any thread.
 *   Egdb(rules, pieces): the endgame database.
 *   read_weights(rules, path), and the constants of the units.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>

#include "boundary.h"
#include "perft.h"
#include "weights.h"

typedef struct {
    PyObject_HEAD PyTypeObject *move_type, *position_type;
    PyObject *white, *black;
} ValuesObject;

typedef struct {
    PyObject_HEAD Rules rules;
    Keys keys;
    MoveList list;
    ValuesObject *values;
} RulesObject;

typedef struct {
    PyObject_HEAD RulesObject *rules;
    Eval eval;
} EvaluationObject;

typedef struct {
    PyObject_HEAD RulesObject *rules;
    Egdb *db;
} EgdbObject;

typedef struct {
    PyObject_HEAD RulesObject *rules;
    EvaluationObject *evaluation;
    EgdbObject *egdb;
    Search *search;
    long long nodes;
    int busy;
} EngineObject;

static PyTypeObject ValuesType, RulesType, EvaluationType, EngineType, EgdbType;

/* ---------------------------------------------------------------------------------------- */
/* Values */

static int word_of(PyObject *o, uint64_t *out, const char *what)
{
    unsigned long long v = PyLong_Check(o) ? PyLong_AsUnsignedLongLong(o) : (unsigned long long)-1;
    if (!PyLong_Check(o) || (v == (unsigned long long)-1 && PyErr_Occurred())) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s must be a bitboard (an int from 0 to 2**64-1)", what);
        return -1;
    }
    *out = v;
    return 0;
}

/* A Position (white, black, kings, turn) of r's board (NULL: any board) as a Node; moves: one
 * to generate moves of (position_check). */
static int position_of(const ValuesObject *V, const Rules *r, PyObject *pos, Node *n, int moves)
{
    uint64_t w, b, k;
    if (!PyTuple_Check(pos) || PyTuple_GET_SIZE(pos) != 4) {
        PyErr_SetString(PyExc_TypeError, "expected a Position (white, black, kings, turn)");
        return -1;
    }
    if (word_of(PyTuple_GET_ITEM(pos, 0), &w, "white") < 0 ||
        word_of(PyTuple_GET_ITEM(pos, 1), &b, "black") < 0 ||
        word_of(PyTuple_GET_ITEM(pos, 2), &k, "kings") < 0)
        return -1;
    PyObject *turn = PyTuple_GET_ITEM(pos, 3);
    if (turn != V->white && turn != V->black) {
        PyErr_SetString(PyExc_TypeError, "a Position's turn must be a Color");
        return -1;
    }
    const char *why = node_from_colours(r, w, b, k, turn == V->black, moves, n);
    if (why) {
        PyErr_Format(PyExc_ValueError, "not a position of this board: %s", why);
        return -1;
    }
    return 0;
}

static int node_of(const RulesObject *R, PyObject *pos, Node *n)
{
    return position_of(R->values, &R->rules, pos, n, 1);
}

static PyObject *new_tuple(PyTypeObject *type, Py_ssize_t n) { return type->tp_alloc(type, n); }

static PyObject *ints(const uint8_t *v, int n)
{
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t && i < n; i++)
        PyTuple_SET_ITEM(t, i, PyLong_FromLong(v[i]));
    return t;
}

static PyObject *move_object(const RulesObject *R, const CMove *m)
{
    PyObject *t = new_tuple(R->values->move_type, 8), *path = ints(m->path, path_len(m)),
             *caps = ints(m->caps, m->ncap);
    if (!t || !path || !caps) {
        Py_XDECREF(t);
        Py_XDECREF(path);
        Py_XDECREF(caps);
        return NULL;
    }
    PyTuple_SET_ITEM(t, 0, PyLong_FromLong(m->start));
    PyTuple_SET_ITEM(t, 1, PyLong_FromLong(m->end));
    PyTuple_SET_ITEM(t, 2, path);
    PyTuple_SET_ITEM(t, 3, caps);
    PyTuple_SET_ITEM(t, 4, PyLong_FromUnsignedLongLong(m->captured));
    PyTuple_SET_ITEM(t, 5, PyLong_FromUnsignedLongLong(m->captured_kings));
    PyTuple_SET_ITEM(t, 6, PyBool_FromLong(m->promotes));
    PyTuple_SET_ITEM(t, 7, PyBool_FromLong(m->by_king));
    return t;
}

static PyObject *move_list(const RulesObject *R, const CMove *m, int n)
{
    PyObject *out = PyList_New(n);
    for (int i = 0; out && i < n; i++) {
        PyObject *o = move_object(R, &m[i]);
        if (!o)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i, o);
    }
    return out;
}

/* What make_move and the draw rule read of a Move tuple. */
static int move_of(PyObject *o, CMove *m)
{
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 8) {
        PyErr_SetString(PyExc_TypeError, "expected a Move");
        return -1;
    }
    long start = PyLong_AsLong(PyTuple_GET_ITEM(o, 0)), end = PyLong_AsLong(PyTuple_GET_ITEM(o, 1));
    if (PyErr_Occurred())
        return -1;
    uint64_t captured, captured_kings;
    if (word_of(PyTuple_GET_ITEM(o, 4), &captured, "captured") < 0 ||
        word_of(PyTuple_GET_ITEM(o, 5), &captured_kings, "captured_kings") < 0)
        return -1;
    const char *why = move_from_fields(start, end, captured, captured_kings, m);
    if (why) {
        PyErr_SetString(PyExc_ValueError, why);
        return -1;
    }
    int promotes = PyObject_IsTrue(PyTuple_GET_ITEM(o, 6));
    int king = PyObject_IsTrue(PyTuple_GET_ITEM(o, 7));
    if (promotes < 0 || king < 0)
        return -1;
    m->promotes = (uint8_t)promotes;
    m->by_king = (uint8_t)king;
    return 0;
}

static PyObject *position_object(const ValuesObject *V, const Node *n)
{
    PyObject *t = new_tuple(V->position_type, 4);
    if (!t)
        return NULL;
    PyObject *turn = n->side ? V->black : V->white;
    Py_INCREF(turn);
    PyTuple_SET_ITEM(t, 0, PyLong_FromUnsignedLongLong(node_white(n)));
    PyTuple_SET_ITEM(t, 1, PyLong_FromUnsignedLongLong(node_black(n)));
    PyTuple_SET_ITEM(t, 2, PyLong_FromUnsignedLongLong(n->kings));
    PyTuple_SET_ITEM(t, 3, turn);
    return t;
}

static RulesObject *rules_arg(PyObject *o)
{
    if (!PyObject_TypeCheck(o, &RulesType)) {
        PyErr_SetString(PyExc_TypeError, "expected a damiera._core.Rules");
        return NULL;
    }
    return (RulesObject *)o;
}

/* Takes the interpreter back for a moment every so many nodes to run the signal handlers, so
 * Ctrl-C (KeyboardInterrupt) stops a perft or a search; ctx: the saved thread state. */
static int poll_signals(void *ctx)
{
    PyThreadState **saved = ctx;
    PyEval_RestoreThread(*saved);
    int stop = PyErr_CheckSignals() < 0;
    *saved = PyEval_SaveThread();
    return stop;
}

/* ---------------------------------------------------------------------------------------- */
/* Values */

static int Values_init(ValuesObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"move", "position", "white", "black", NULL};
    PyObject *mt, *pt, *w, *b;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O!OO", names, &PyType_Type, &mt, &PyType_Type,
                                     &pt, &w, &b))
        return -1;
    if (!PyType_IsSubtype((PyTypeObject *)mt, &PyTuple_Type) ||
        !PyType_IsSubtype((PyTypeObject *)pt, &PyTuple_Type) || w == b) {
        PyErr_SetString(PyExc_TypeError, "expected two tuple types and two colours");
        return -1;
    }
    Py_XSETREF(self->move_type, (PyTypeObject *)Py_NewRef(mt));
    Py_XSETREF(self->position_type, (PyTypeObject *)Py_NewRef(pt));
    Py_XSETREF(self->white, Py_NewRef(w));
    Py_XSETREF(self->black, Py_NewRef(b));
    return 0;
}

static void Values_dealloc(ValuesObject *self)
{
    Py_XDECREF(self->move_type);
    Py_XDECREF(self->position_type);
    Py_XDECREF(self->white);
    Py_XDECREF(self->black);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int values_ready(ValuesObject *self)
{
    if (!self->move_type)
        PyErr_SetString(PyExc_RuntimeError, "Values is not built");
    return self->move_type != NULL;
}

static PyObject *Values_apply(ValuesObject *self, PyObject *args)
{
    PyObject *pos, *mo;
    Node n, c;
    CMove m;
    if (!values_ready(self) || !PyArg_ParseTuple(args, "OO", &pos, &mo) ||
        position_of(self, NULL, pos, &n, 0) < 0 || move_of(mo, &m) < 0)
        return NULL;
    child_of(&n, &m, &c);
    return position_object(self, &c);
}

static PyObject *Values_is_progress(ValuesObject *self, PyObject *move)
{
    (void)self;
    CMove m;
    if (move_of(move, &m) < 0)
        return NULL;
    return PyBool_FromLong(move_is_progress(&m));
}

static PyMethodDef Values_methods[] = {
    {"apply", (PyCFunction)Values_apply, METH_VARARGS,
     "apply(position, move) -> the Position after the (legal) move: the mover's piece from "
     "start to end, the captured pieces removed, crowned when the move promotes"},
    {"is_progress", (PyCFunction)Values_is_progress, METH_O,
     "is_progress(move) -> bool: progress for the draw rule (a capture or a promotion)"},
    {NULL, NULL, 0, NULL}};

/* ---------------------------------------------------------------------------------------- */
/* Rules */

static int Rules_init(RulesObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"size", "flying", "men_back", "men_take_kings", "choice", "promotion",
                            "mandatory", "label_order", "man_rows", "draw_plies", "values", NULL};
    Rules *r = &self->rules;
    PyObject *order, *values;
    memset(r, 0, sizeof *r);
    if (!PyArg_ParseTupleAndKeywords(args, kw, "ipppiipOiiO!", names, &r->size, &r->flying,
                                     &r->men_back, &r->men_take_kings, &r->choice, &r->promotion,
                                     &r->mandatory, &order, &r->man_rows, &r->draw_plies,
                                     &ValuesType, &values) ||
        !values_ready((ValuesObject *)values))
        return -1;
    if (rules_init(r) < 0) {
        PyErr_SetString(PyExc_ValueError, "the board must be 8x8 or 10x10, with known rules");
        return -1;
    }
    PyObject *seq = PySequence_Fast(order, "label_order must be a sequence of squares");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int squares[MAX_BITS], ok = n <= MAX_BITS;
    for (Py_ssize_t i = 0; ok && i < n; i++)
        squares[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
    Py_DECREF(seq);
    if (!ok || PyErr_Occurred() || rules_set_order(r, squares, (int)n) < 0) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "label_order must list every playing square once");
        return -1;
    }
    keys_init(&self->keys);
    Py_XSETREF(self->values, (ValuesObject *)Py_NewRef(values));
    return 0;
}

static void Rules_dealloc(RulesObject *self)
{
    movelist_free(&self->list);
    Py_XDECREF(self->values);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

typedef int (*gen_fn)(const Rules *, uint64_t, uint64_t, uint64_t, int, MoveList *);

static PyObject *generate_with(RulesObject *self, PyObject *pos, gen_fn gen)
{
    Node n;
    if (node_of(self, pos, &n) < 0)
        return NULL;
    if (gen(&self->rules, n.own, n.opp, n.kings, n.side, &self->list) < 0)
        return PyErr_NoMemory();
    sort_moves(&self->rules, self->list.m, self->list.n);
    return move_list(self, self->list.m, self->list.n);
}

static PyObject *Rules_moves(RulesObject *self, PyObject *pos)
{
    return generate_with(self, pos, gen_legal);
}

static PyObject *Rules_raw_captures(RulesObject *self, PyObject *pos)
{
    return generate_with(self, pos, gen_raw_captures);
}

static PyObject *Rules_quiet_moves(RulesObject *self, PyObject *pos)
{
    return generate_with(self, pos, gen_quiet);
}

static PyObject *Rules_has_capture(RulesObject *self, PyObject *args)
{
    PyObject *pos;
    int white;
    Node n;
    if (!PyArg_ParseTuple(args, "Op", &pos, &white) || node_of(self, pos, &n) < 0)
        return NULL;
    uint64_t w = node_white(&n), b = node_black(&n);
    const Rules *r = &self->rules;
    return PyBool_FromLong(white ? has_capture(r, w, b, n.kings, 0)
                                 : has_capture(r, b, w, n.kings, 1));
}

static PyObject *Rules_perft(RulesObject *self, PyObject *args)
{
    PyObject *pos;
    int depth, stopped = 0;
    Node n;
    if (!PyArg_ParseTuple(args, "Oi", &pos, &depth) || node_of(self, pos, &n) < 0)
        return NULL;
    PyThreadState *saved = PyEval_SaveThread();
    uint64_t count = perft(&self->rules, &n, depth, poll_signals, &saved, &stopped);
    PyEval_RestoreThread(saved);
    if (stopped)
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    return PyLong_FromUnsignedLongLong(count);
}

static PyObject *Rules_hash(RulesObject *self, PyObject *pos)
{
    Node n;
    if (node_of(self, pos, &n) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(hash_node(&self->keys, &n));
}

static PyMethodDef Rules_methods[] = {
    {"moves", (PyCFunction)Rules_moves, METH_O,
     "moves(position) -> list[Move]: the legal moves, sorted by path in notation order"},
    {"raw_captures", (PyCFunction)Rules_raw_captures, METH_O,
     "raw_captures(position) -> list[Move]: every capture sequence before the capture-choice "
     "rule, equal captures not merged"},
    {"quiet_moves", (PyCFunction)Rules_quiet_moves, METH_O,
     "quiet_moves(position) -> list[Move]: every quiet move, as if no capture existed"},
    {"has_capture", (PyCFunction)Rules_has_capture, METH_VARARGS,
     "has_capture(position, white: bool) -> bool: that side has a capture"},
    {"perft", (PyCFunction)Rules_perft, METH_VARARGS,
     "perft(position, depth) -> int: leaf nodes (bulk counting); KeyboardInterrupt stops it"},
    {"hash", (PyCFunction)Rules_hash, METH_O, "hash(position) -> int: 64-bit Zobrist key"},
    {NULL, NULL, 0, NULL}};

/* ---------------------------------------------------------------------------------------- */
/* Evaluation and weights */

static PyObject *weights_error(const char *path, int rc, const char *err)
{
    if (rc == WEIGHTS_UNREADABLE)
        return PyErr_SetFromErrnoWithFilename(PyExc_OSError, path);
    PyErr_SetString(PyExc_ValueError, err);
    return NULL;
}

static int Evaluation_init(EvaluationObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"rules", "weights", "tables", NULL};
    PyObject *rules, *path = Py_None, *tables = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OO", names, &rules, &path, &tables))
        return -1;
    RulesObject *R = rules_arg(rules);
    if (!R || self->rules)
        return R ? PyErr_SetString(PyExc_RuntimeError, "Evaluation is already built"), -1 : -1;
    Py_INCREF(R);
    self->rules = R;
    eval_init(&self->eval, &R->rules);
    char err[512] = "";
    if (path != Py_None) {
        PyObject *bytes;
        if (!PyUnicode_FSConverter(path, &bytes))
            return -1;
        int rc = eval_load_weights(&self->eval, PyBytes_AS_STRING(bytes), err, sizeof err);
        if (rc != WEIGHTS_OK)
            weights_error(PyBytes_AS_STRING(bytes), rc, err);
        Py_DECREF(bytes);
        if (rc != WEIGHTS_OK)
            return -1;
    } else if (tables != Py_None) {
        int rows, phases;
        Py_buffer view;
        if (!PyArg_ParseTuple(tables, "iiy*", &rows, &phases, &view))
            return -1;
        int rc = eval_patterns_from_bytes(&self->eval, rows, phases, view.buf, (size_t)view.len,
                                          err, sizeof err);
        PyBuffer_Release(&view);
        if (rc < 0)
            return PyErr_SetString(PyExc_ValueError, err), -1;
    }
    return 0;
}

static void Evaluation_dealloc(EvaluationObject *self)
{
    eval_free(&self->eval);
    Py_XDECREF(self->rules);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static EvaluationObject *evaluation_arg(PyObject *o)
{
    if (!PyObject_TypeCheck(o, &EvaluationType) || !((EvaluationObject *)o)->rules) {
        PyErr_SetString(PyExc_TypeError, "expected a built damiera._core.Evaluation");
        return NULL;
    }
    return (EvaluationObject *)o;
}

static PyObject *Evaluation_evaluate(EvaluationObject *self, PyObject *pos)
{
    Node n;
    if (!evaluation_arg((PyObject *)self) ||
        position_of(self->rules->values, &self->rules->rules, pos, &n, 0) < 0)
        return NULL;
    return PyLong_FromLong(evaluate(&self->eval, node_white(&n), node_black(&n), n.kings, n.side));
}

static PyObject *Evaluation_get(EvaluationObject *self, void *which)
{
    if (!evaluation_arg((PyObject *)self))
        return NULL;
    const Eval *e = &self->eval;
    int v[] = {e->king_value, e->start_pieces, e->pattern_rows, e->pattern_rows ? e->phases : 0};
    return PyLong_FromLong(v[(intptr_t)which]);
}

static PyObject *core_read_weights(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *rules, *bytes;
    if (!PyArg_ParseTuple(args, "OO&", &rules, PyUnicode_FSConverter, &bytes))
        return NULL;
    RulesObject *R = rules_arg(rules);
    Weights w;
    char err[512];
    int rc = R ? weights_read(&R->rules, PyBytes_AS_STRING(bytes), &w, err, sizeof err) : -3;
    PyObject *out = NULL;
    if (rc == WEIGHTS_OK)
        out = Py_BuildValue("(iiy#)", w.rows, w.phases, (const char *)w.tables,
                            (Py_ssize_t)(w.count * sizeof *w.tables));
    else if (R)
        weights_error(PyBytes_AS_STRING(bytes), rc, err);
    if (rc == WEIGHTS_OK)
        free(w.tables);
    Py_DECREF(bytes);
    return out;
}

static PyMethodDef Evaluation_methods[] = {
    {"evaluate", (PyCFunction)Evaluation_evaluate, METH_O,
     "evaluate(position) -> static score for the side to move (centi-men), or NO_MOVES"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Evaluation_getset[] = {
    {"king_value", (getter)Evaluation_get, NULL, "a king's worth, centi-men", (void *)0},
    {"start_pieces", (getter)Evaluation_get, NULL, "pieces of the start position", (void *)1},
    {"pattern_rows", (getter)Evaluation_get, NULL, "rows of a pattern window (0: none)", (void *)2},
    {"pattern_phases", (getter)Evaluation_get, NULL, "sets of pattern tables (0: none)", (void *)3},
    {NULL, NULL, NULL, NULL, NULL}};

/* ---------------------------------------------------------------------------------------- */
/* Engine */

static int Engine_init(EngineObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"rules", "evaluation", "tt_entries", NULL};
    PyObject *rules, *ev;
    long long entries;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOL", names, &rules, &ev, &entries))
        return -1;
    RulesObject *R = rules_arg(rules);
    EvaluationObject *E = R ? evaluation_arg(ev) : NULL;
    if (!E)
        return -1;
    if (self->search || E->rules != R) {
        PyErr_SetString(self->search ? PyExc_RuntimeError : PyExc_ValueError,
                        self->search ? "Engine is already built"
                                     : "the evaluation is for other rules");
        return -1;
    }
    const char *why = tt_entries_check(entries);
    if (why) {
        PyErr_SetString(PyExc_ValueError, why);
        return -1;
    }
    self->search = search_new(&R->rules, &E->eval, (uint64_t)entries);
    if (!self->search)
        return PyErr_NoMemory(), -1;
    Py_INCREF(R);
    Py_INCREF(E);
    self->rules = R;
    self->evaluation = E;
    return 0;
}

static void Engine_dealloc(EngineObject *self)
{
    search_free(self->search);
    Py_XDECREF(self->rules);
    Py_XDECREF(self->evaluation);
    Py_XDECREF(self->egdb);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int engine_ready(EngineObject *self)
{
    if (!self->search || self->busy) {
        PyErr_SetString(PyExc_RuntimeError,
                        self->search ? "the engine is searching" : "Engine is not built");
        return 0;
    }
    return 1;
}

typedef struct {
    EngineObject *engine;
    PyThreadState *saved;
    PyObject *on_info;
} Call;

static PyObject *line_object(EngineObject *self, const Line *line)
{
    CMove moves[PV_MAX];
    int n = search_line_moves(self->search, line, moves, PV_MAX);
    return move_list(self->rules, moves, n);
}

/* An iteration's report, passed to on_info(depth, score, nodes, seconds, pv, lines) with the
 * interpreter taken back; nonzero (the callback raised) stops the search. */
static int report_info(void *ctx, const Report *rep)
{
    Call *call = ctx;
    PyEval_RestoreThread(call->saved);
    EngineObject *self = call->engine;
    PyObject *pv = line_object(self, rep->best), *lines = PyList_New(rep->nlines), *r = NULL;
    for (int i = 0; pv && lines && i < rep->nlines; i++) {
        PyObject *one = line_object(self, &rep->lines[i]);
        PyObject *item = one ? Py_BuildValue("(iN)", rep->lines[i].score, one) : NULL;
        if (!item)
            Py_CLEAR(lines);
        else
            PyList_SET_ITEM(lines, i, item);
    }
    if (pv && lines)
        r = PyObject_CallFunction(call->on_info, "iiLdOO", rep->depth, rep->score, rep->nodes,
                                  rep->seconds, pv, lines);
    Py_XDECREF(pv);
    Py_XDECREF(lines);
    Py_XDECREF(r);
    call->saved = PyEval_SaveThread();
    return r == NULL;
}

/* 0 when the limits are in range (limits_check), else -1 with its ValueError. */
static int limits_ok(const Limits *lim)
{
    char err[160];
    if (limits_check(lim, err, sizeof err) == 0)
        return 0;
    PyErr_SetString(PyExc_ValueError, err);
    return -1;
}

/* allocate_time(remaining, increment, moves_to_go, ply) -> (soft, hard) */
static PyObject *core_allocate_time(PyObject *Py_UNUSED(module), PyObject *args)
{
    Limits l = {0};
    if (!PyArg_ParseTuple(args, "d|dii", &l.remaining, &l.increment, &l.moves_to_go, &l.ply) ||
        limits_ok(&l) < 0)
        return NULL;
    TimeBudget b = time_allocate(l.remaining, l.increment, l.moves_to_go, l.ply);
    return Py_BuildValue("(dd)", b.soft, b.hard);
}

/* search(position, history, depth, movetime, nodes, root_scores, threat_extension,
 *        reduce_sacrifices, prune_late_moves, probcut, *, on_info, cpu_time, <game clock>) */
static PyObject *Engine_search(EngineObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"position", "history", "depth", "movetime", "nodes", "root_scores",
                            "threat_extension", "reduce_sacrifices", "prune_late_moves",
                            "probcut", "on_info", "cpu_time", "remaining", "increment",
                            "moves_to_go", "ply", NULL};
    PyObject *pos, *history, *on_info = Py_None;
    Limits lim = {0};
    Options opt = {1, 1, 1, 1};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|idLppppp$Opddii", names, &pos, &history,
                                     &lim.depth, &lim.movetime, &lim.nodes, &lim.root_scores,
                                     &opt.threat_extension, &opt.reduce_sacrifices,
                                     &opt.prune_late_moves, &opt.probcut, &on_info,
                                     &lim.cpu_clock, &lim.remaining, &lim.increment,
                                     &lim.moves_to_go, &lim.ply) ||
        !engine_ready(self) || limits_ok(&lim) < 0)
        return NULL;
    if (on_info != Py_None && !PyCallable_Check(on_info)) {
        PyErr_SetString(PyExc_TypeError, "on_info must be callable or None");
        return NULL;
    }
    Node root;
    if (node_of(self->rules, pos, &root) < 0)
        return NULL;
    PyObject *seq = PySequence_Fast(history, "history must be a sequence of Positions");
    if (!seq)
        return NULL;
    Py_ssize_t total = PySequence_Fast_GET_SIZE(seq);
    Py_ssize_t first = (Py_ssize_t)history_first(total, self->rules->rules.draw_plies);
    Node *past = PyMem_Malloc(sizeof(Node) * (size_t)(total - first + 1));
    for (Py_ssize_t i = first; past && i < total; i++)
        if (node_of(self->rules, PySequence_Fast_GET_ITEM(seq, i), &past[i - first]) < 0) {
            PyMem_Free(past);
            Py_DECREF(seq);
            return NULL;
        }
    Py_DECREF(seq);
    if (!past)
        return PyErr_NoMemory();
    Call call = {self, NULL, on_info};
    SearchResult res;
    self->busy = 1;
    search_clear_stop(self->search);
    call.saved = PyEval_SaveThread();
    int rc = search_run(self->search, &root, past, (int)(total - first), &lim, &opt, poll_signals,
                        &call.saved, on_info == Py_None ? NULL : report_info, &call, &res);
    PyEval_RestoreThread(call.saved);
    self->busy = 0;
    self->nodes = res.nodes;
    PyMem_Free(past);
    if (rc != 0) {
        search_result_free(&res);
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    int count;
    const CMove *roots = search_root_moves(self->search, &count);
    PyObject *move = res.has_move ? move_object(self->rules, &roots[res.best.move])
                                  : Py_NewRef(Py_None);
    PyObject *pv = res.has_move ? line_object(self, &res.best) : PyList_New(0);
    PyObject *scores = PyList_New(res.nscores);
    for (int i = 0; scores && i < res.nscores; i++) {
        PyObject *m = move_object(self->rules, &roots[res.score_moves[i]]);
        PyObject *item = m ? Py_BuildValue("(Ni)", m, res.scores[i]) : NULL;
        if (!item)
            Py_CLEAR(scores);
        else
            PyList_SET_ITEM(scores, i, item);
    }
    search_result_free(&res);
    if (!move || !pv || !scores) {
        Py_XDECREF(move);
        Py_XDECREF(pv);
        Py_XDECREF(scores);
        return NULL;
    }
    return Py_BuildValue("(NiiLdNN)", move, res.score, res.depth, res.nodes, res.seconds, pv,
                         scores);
}

static PyObject *Engine_stop(EngineObject *self, PyObject *unused)
{
    (void)unused;
    if (self->search)
        search_stop(self->search);
    Py_RETURN_NONE;
}

static PyObject *Engine_clear(EngineObject *self, PyObject *unused)
{
    (void)unused;
    if (!engine_ready(self))
        return NULL;
    search_clear(self->search);
    Py_RETURN_NONE;
}

static PyObject *Engine_tt_used(EngineObject *self, PyObject *unused)
{
    (void)unused;
    if (!engine_ready(self))
        return NULL;
    return PyLong_FromUnsignedLongLong(search_tt_used(self->search));
}

static PyObject *Engine_set_egdb(EngineObject *self, PyObject *db)
{
    if (!engine_ready(self))
        return NULL;
    if (db != Py_None && (!PyObject_TypeCheck(db, &EgdbType) || !((EgdbObject *)db)->db)) {
        PyErr_SetString(PyExc_TypeError, "expected a built damiera._core.Egdb or None");
        return NULL;
    }
    EgdbObject *e = db == Py_None ? NULL : (EgdbObject *)db;
    if (e && memcmp(&e->rules->rules, &self->rules->rules, sizeof(Rules)) != 0) {
        PyErr_SetString(PyExc_ValueError, "the endgame database is for other rules");
        return NULL;
    }
    Py_XINCREF(e);
    Py_XSETREF(self->egdb, e);
    search_set_egdb(self->search, e ? e->db : NULL);
    Py_RETURN_NONE;
}

static PyObject *Engine_get_nodes(EngineObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLongLong(self->nodes);
}

static PyMethodDef Engine_methods[] = {
    {"search", (PyCFunction)(void (*)(void))Engine_search, METH_VARARGS | METH_KEYWORDS,
     "search(position, history, depth=0, movetime=0.0, nodes=0, root_scores=False, "
     "threat_extension=True, reduce_sacrifices=True, prune_late_moves=True, probcut=True, *, "
     "on_info=None, cpu_time=False, remaining=0.0, increment=0.0, moves_to_go=0, ply=0) -> "
     "(move | None, score, depth, nodes, seconds, pv, root_scores); 0: no limit; on_info(depth, "
     "score, nodes, seconds, pv, lines) after every iteration; the interpreter lock is released "
     "for the whole search (damiera.engine.search: Searcher.search)"},
    {"stop", (PyCFunction)Engine_stop, METH_NOARGS,
     "stop(): the running search returns its best move within a few hundred nodes"},
    {"clear", (PyCFunction)Engine_clear, METH_NOARGS, "clear(): empty table and history"},
    {"tt_used", (PyCFunction)Engine_tt_used, METH_NOARGS, "tt_used() -> filled table entries"},
    {"set_egdb", (PyCFunction)Engine_set_egdb, METH_O,
     "set_egdb(db: Egdb | None): the endgame database the search probes"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Engine_getset[] = {
    {"nodes", (getter)Engine_get_nodes, NULL, "nodes of the last search", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

/* ---------------------------------------------------------------------------------------- */
/* Egdb */

static int Egdb_init(EgdbObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"rules", "pieces", NULL};
    PyObject *rules;
    int pieces;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Oi", names, &rules, &pieces))
        return -1;
    RulesObject *R = rules_arg(rules);
    if (!R)
        return -1;
    const char *why = self->db ? "Egdb is already built" : egdb_request_check(&R->rules, pieces);
    if (why) {
        PyErr_SetString(self->db ? PyExc_RuntimeError : PyExc_ValueError, why);
        return -1;
    }
    Py_INCREF(R);
    Py_XSETREF(self->rules, R);
    PyThreadState *saved = PyEval_SaveThread();
    Egdb *db = egdb_build(&R->rules, pieces);
    PyEval_RestoreThread(saved);
    if (!db)
        return PyErr_NoMemory(), -1;
    self->db = db;
    return 0;
}

static void Egdb_dealloc(EgdbObject *self)
{
    egdb_free(self->db);
    Py_XDECREF(self->rules);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Egdb_probe(EgdbObject *self, PyObject *pos)
{
    Node n;
    int plies = 0;
    if (!self->db)
        return PyErr_SetString(PyExc_RuntimeError, "Egdb is not built"), NULL;
    if (node_of(self->rules, pos, &n) < 0)
        return NULL;
    int res = egdb_probe(self->db, n.own, n.opp, n.kings, n.side, &plies);
    if (res == EGDB_UNKNOWN)
        Py_RETURN_NONE;
    return Py_BuildValue("(ii)", res, plies);
}

static PyObject *Egdb_get(EgdbObject *self, void *which)
{
    if (!self->db)
        return PyErr_SetString(PyExc_RuntimeError, "Egdb is not built"), NULL;
    unsigned long long v[] = {(unsigned long long)self->db->pieces, self->db->positions,
                              self->db->bytes, (unsigned long long)self->db->max_distance};
    return PyLong_FromUnsignedLongLong(v[(intptr_t)which]);
}

static PyMethodDef Egdb_methods[] = {
    {"probe", (PyCFunction)Egdb_probe, METH_O,
     "probe(position) -> (result, plies) | None: result 1 win, 0 draw, -1 loss for the side "
     "to move, plies to the end of the game with best play, no draw rule applied; None for a "
     "position with more pieces than the database or a finished game"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Egdb_getset[] = {
    {"pieces", (getter)Egdb_get, NULL, "most pieces of a position in the database", (void *)0},
    {"positions", (getter)Egdb_get, NULL, "legal positions solved", (void *)1},
    {"bytes", (getter)Egdb_get, NULL, "memory of the value tables", (void *)2},
    {"max_distance", (getter)Egdb_get, NULL, "longest win, plies", (void *)3},
    {NULL, NULL, NULL, NULL, NULL}};

/* ---------------------------------------------------------------------------------------- */
/* The module */

#define TYPE(var, name, doc, getset)                                                         \
    static PyTypeObject var = {                                                              \
        PyVarObject_HEAD_INIT(NULL, 0).tp_name = "damiera._core." #name,                     \
        .tp_basicsize = sizeof(name##Object), .tp_flags = Py_TPFLAGS_DEFAULT, .tp_doc = doc,  \
        .tp_new = PyType_GenericNew, .tp_init = (initproc)name##_init,                        \
        .tp_dealloc = (destructor)name##_dealloc, .tp_methods = name##_methods,               \
        .tp_getset = getset}

TYPE(ValuesType, Values, "The Python value types the core reads and builds.", NULL);
TYPE(RulesType, Rules, "One rule set's parameters and its move generator.", NULL);
TYPE(EvaluationType, Evaluation, "The static evaluation of one rule set.", Evaluation_getset);
TYPE(EngineType, Engine, "The search of one rule set, with its transposition table.",
     Engine_getset);
TYPE(EgdbType, Egdb, "Every 8x8 position of up to `pieces` pieces solved in memory.",
     Egdb_getset);

static PyMethodDef core_methods[] = {
    {"read_weights", core_read_weights, METH_VARARGS,
     "read_weights(rules, path) -> (rows, phases, tables): a weights file's every window "
     "table (16-bit little-endian bytes, phase by phase); ValueError when it does not fit "
     "the board, OSError when it cannot be read"},
    {"allocate_time", core_allocate_time, METH_VARARGS,
     "allocate_time(remaining, increment=0.0, moves_to_go=0, ply=0) -> (soft, hard): a game "
     "clock's move time (search.h: time_allocate); ValueError outside the search's limits"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "damiera._core",
    "The native core: move generation, perft, hashing, evaluation, search, endgame tables.", -1,
    core_methods};

PyMODINIT_FUNC PyInit__core(void)
{
    PyTypeObject *types[] = {&ValuesType, &RulesType, &EvaluationType, &EngineType, &EgdbType};
    PyObject *m = PyModule_Create(&core_module);
    if (!m)
        return NULL;
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (PyType_Ready(types[i]) < 0 ||
            PyModule_AddObjectRef(m, strrchr(types[i]->tp_name, '.') + 1, (PyObject *)types[i]) < 0)
            goto fail;
    for (size_t i = 0; i < CORE_CONSTANT_COUNT; i++)
        if (PyModule_AddIntConstant(m, CORE_CONSTANTS[i].name, CORE_CONSTANTS[i].value) < 0)
            goto fail;
    if (PyModule_AddObject(m, "DEADLINE_SHARE", PyFloat_FromDouble(DEADLINE_SHARE)) < 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
