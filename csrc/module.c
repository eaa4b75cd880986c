/* damiera._core: the Python face of the native rules core (movegen.c) and search (search.c).
 *
 * _core.init(Move, Position, WHITE, BLACK) gives the module the public value types, so that
 * the generator returns damiera.rules.movegen.Move tuples and apply returns Positions.
 * _core.Rules(size, flying, men_back, men_take_kings, choice, promotion, mandatory,
 * label_order) holds one variant's rule parameters (movegen.h has the enum values).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "egdb_py.h"
#include "movegen.h"
#include "search.h"

static PyTypeObject *MoveType, *PositionType;
static PyObject *WhiteObj, *BlackObj;

typedef struct {
    PyObject_HEAD Rules rules;
    MoveList list;
} RulesObject;

static int get_word(PyObject *o, uint64_t *out, const Rules *r, const char *what)
{
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s must be a bitboard (an int from 0 to 2**64-1)", what);
        return -1;
    }
    if (r && (v & ~r->mask)) {
        PyErr_Format(PyExc_ValueError, "%s has a bit off the playing squares", what);
        return -1;
    }
    *out = v;
    return 0;
}

/* (white, black, kings, side) from a Position (a 4-tuple: white, black, kings, turn). */
int position_words(const Rules *r, PyObject *pos, uint64_t *w, uint64_t *b, uint64_t *k, int *side)
{
    if (!PyTuple_Check(pos) || PyTuple_GET_SIZE(pos) != 4) {
        PyErr_SetString(PyExc_TypeError, "expected a Position");
        return -1;
    }
    if (get_word(PyTuple_GET_ITEM(pos, 0), w, r, "white") < 0 ||
        get_word(PyTuple_GET_ITEM(pos, 1), b, r, "black") < 0 ||
        get_word(PyTuple_GET_ITEM(pos, 2), k, r, "kings") < 0)
        return -1;
    PyObject *turn = PyTuple_GET_ITEM(pos, 3);
    if (turn == WhiteObj)
        *side = 0;
    else if (turn == BlackObj)
        *side = 1;
    else {
        PyErr_SetString(PyExc_TypeError, "a Position's turn must be a Color");
        return -1;
    }
    if ((*w & *b) || (*k & ~(*w | *b))) {
        PyErr_SetString(PyExc_ValueError, "overlapping bitboards in a Position");
        return -1;
    }
    return 0;
}

static PyObject *new_tuple_of(PyTypeObject *type, Py_ssize_t n)
{
    if (type == &PyTuple_Type || type == NULL)
        return PyTuple_New(n);
    PyObject *t = type->tp_alloc(type, n);
    return t;
}

PyObject *move_object(const CMove *m)
{
    PyObject *t = new_tuple_of(MoveType, 8);
    if (!t)
        return NULL;
    int plen = path_len(m);
    PyObject *path = PyTuple_New(plen), *caps = PyTuple_New(m->ncap);
    if (!path || !caps) {
        Py_XDECREF(path);
        Py_XDECREF(caps);
        Py_DECREF(t);
        return NULL;
    }
    for (int i = 0; i < plen; i++)
        PyTuple_SET_ITEM(path, i, PyLong_FromLong(m->path[i]));
    for (int i = 0; i < m->ncap; i++)
        PyTuple_SET_ITEM(caps, i, PyLong_FromLong(m->caps[i]));
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

PyObject *move_list(const MoveList *l)
{
    PyObject *out = PyList_New(l->n);
    if (!out)
        return NULL;
    for (int i = 0; i < l->n; i++) {
        PyObject *m = move_object(&l->m[i]);
        if (!m) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, m);
    }
    return out;
}

/* A Move tuple back to a CMove (only what make and hashing need, plus the path). */
int move_from_object(const Rules *r, PyObject *o, CMove *m)
{
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 8) {
        PyErr_SetString(PyExc_TypeError, "expected a Move");
        return -1;
    }
    long start = PyLong_AsLong(PyTuple_GET_ITEM(o, 0));
    long end = PyLong_AsLong(PyTuple_GET_ITEM(o, 1));
    if (PyErr_Occurred())
        return -1;
    if (start < 0 || start >= MAX_BITS || end < 0 || end >= MAX_BITS ||
        (r && (!(r->mask >> start & 1) || !(r->mask >> end & 1)))) {
        PyErr_SetString(PyExc_ValueError, "a Move's squares are off the board");
        return -1;
    }
    if (get_word(PyTuple_GET_ITEM(o, 4), &m->captured, r, "captured") < 0 ||
        get_word(PyTuple_GET_ITEM(o, 5), &m->captured_kings, r, "captured_kings") < 0)
        return -1;
    int promotes = PyObject_IsTrue(PyTuple_GET_ITEM(o, 6));
    int by_king = PyObject_IsTrue(PyTuple_GET_ITEM(o, 7));
    if (promotes < 0 || by_king < 0)
        return -1;
    m->start = (uint8_t)start;
    m->end = (uint8_t)end;
    m->promotes = (uint8_t)promotes;
    m->by_king = (uint8_t)by_king;
    m->ncap = (uint8_t)popcount64(m->captured);
    return 0;
}

static PyObject *position_object(uint64_t w, uint64_t b, uint64_t k, int side)
{
    PyObject *t = new_tuple_of(PositionType, 4);
    if (!t)
        return NULL;
    PyObject *turn = side ? BlackObj : WhiteObj;
    Py_INCREF(turn);
    PyTuple_SET_ITEM(t, 0, PyLong_FromUnsignedLongLong(w));
    PyTuple_SET_ITEM(t, 1, PyLong_FromUnsignedLongLong(b));
    PyTuple_SET_ITEM(t, 2, PyLong_FromUnsignedLongLong(k));
    PyTuple_SET_ITEM(t, 3, turn);
    return t;
}

/* ---------------------------------------------------------------------------------------- */

static int Rules_init(RulesObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"size", "flying", "men_back", "men_take_kings", "choice",
                            "promotion", "mandatory", "label_order", NULL};
    Rules *r = &self->rules;
    PyObject *order;
    memset(r, 0, sizeof *r);
    if (!PyArg_ParseTupleAndKeywords(args, kw, "ipppiipO", names, &r->size, &r->flying,
                                     &r->men_back, &r->men_take_kings, &r->choice, &r->promotion,
                                     &r->mandatory, &order))
        return -1;
    if (r->choice < 0 || r->choice > 4 || r->promotion < 0 || r->promotion > 2) {
        PyErr_SetString(PyExc_ValueError, "unknown capture-choice or promotion rule");
        return -1;
    }
    if (rules_init(r) < 0) {
        PyErr_SetString(PyExc_ValueError, "the board must be 8x8 or 10x10");
        return -1;
    }
    PyObject *seq = PySequence_Fast(order, "label_order must be a sequence of squares");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n != popcount64(r->mask)) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "label_order must list every playing square once");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long s = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (s < 0 || s >= MAX_BITS || !(r->mask >> s & 1)) {
            Py_DECREF(seq);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "label_order holds a non-playing square");
            return -1;
        }
        r->rank[s] = (uint16_t)i;
    }
    Py_DECREF(seq);
    return 0;
}

static void Rules_dealloc(RulesObject *self)
{
    movelist_free(&self->list);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

typedef int (*gen_fn)(const Rules *, uint64_t, uint64_t, uint64_t, int, MoveList *);

static PyObject *generate_with(RulesObject *self, PyObject *pos, gen_fn gen)
{
    uint64_t w, b, k;
    int side;
    if (position_words(&self->rules, pos, &w, &b, &k, &side) < 0)
        return NULL;
    uint64_t own = side ? b : w, opp = side ? w : b;
    if (gen(&self->rules, own, opp, k, side, &self->list) < 0)
        return PyErr_NoMemory();
    sort_moves(&self->rules, self->list.m, self->list.n);
    return move_list(&self->list);
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
    if (!PyArg_ParseTuple(args, "Op", &pos, &white))
        return NULL;
    uint64_t w, b, k;
    int side;
    if (position_words(&self->rules, pos, &w, &b, &k, &side) < 0)
        return NULL;
    int r = white ? has_capture(&self->rules, w, b, k, 0) : has_capture(&self->rules, b, w, k, 1);
    return PyBool_FromLong(r);
}

static PyObject *core_apply(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *pos, *mo;
    if (!PyArg_ParseTuple(args, "OO", &pos, &mo))
        return NULL;
    uint64_t w, b, k;
    int side;
    CMove m;
    if (position_words(NULL, pos, &w, &b, &k, &side) < 0 || move_from_object(NULL, mo, &m) < 0)
        return NULL;
    if (side == 0)
        make_move(&m, &w, &b, &k);
    else
        make_move(&m, &b, &w, &k);
    return position_object(w, b, k, 1 - side);
}

/* Called with the GIL released (ctx: the saved thread state): takes it back for a moment to
 * run the signal handlers, so Ctrl-C (KeyboardInterrupt) stops a perft. */
static int poll_signals(void *ctx)
{
    PyThreadState **saved = ctx;
    PyEval_RestoreThread(*saved);
    int stop = PyErr_CheckSignals() < 0;
    *saved = PyEval_SaveThread();
    return stop;
}

static PyObject *Rules_perft(RulesObject *self, PyObject *args)
{
    PyObject *pos;
    int depth;
    if (!PyArg_ParseTuple(args, "Oi", &pos, &depth))
        return NULL;
    uint64_t w, b, k;
    int side, stopped = 0;
    if (position_words(&self->rules, pos, &w, &b, &k, &side) < 0)
        return NULL;
    PyThreadState *saved = PyEval_SaveThread();
    uint64_t n = side ? perft(&self->rules, b, w, k, 1, depth, poll_signals, &saved, &stopped)
                      : perft(&self->rules, w, b, k, 0, depth, poll_signals, &saved, &stopped);
    PyEval_RestoreThread(saved);
    if (stopped) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(n);
}

static PyObject *Rules_hash(RulesObject *self, PyObject *pos)
{
    uint64_t w, b, k;
    int side;
    if (position_words(&self->rules, pos, &w, &b, &k, &side) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(zobrist_hash(&self->rules, w, b, k, side));
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
    {"hash", (PyCFunction)Rules_hash, METH_O, "hash(position) -> int: 64-bit Zobrist hash"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject RulesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "damiera._core.Rules",
    .tp_basicsize = sizeof(RulesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One variant's rule parameters and the native move generator for them.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Rules_init,
    .tp_dealloc = (destructor)Rules_dealloc,
    .tp_methods = Rules_methods,
};

const Rules *rules_of(PyObject *o)
{
    if (!PyObject_TypeCheck(o, &RulesType)) {
        PyErr_SetString(PyExc_TypeError, "expected a damiera._core.Rules");
        return NULL;
    }
    return &((RulesObject *)o)->rules;
}

static PyObject *core_init(PyObject *mod, PyObject *args)
{
    PyObject *mt, *pt, *w, *b;
    (void)mod;
    if (!PyArg_ParseTuple(args, "O!O!OO", &PyType_Type, &mt, &PyType_Type, &pt, &w, &b))
        return NULL;
    if (!PyType_IsSubtype((PyTypeObject *)mt, &PyTuple_Type) ||
        !PyType_IsSubtype((PyTypeObject *)pt, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "Move and Position must be tuple types");
        return NULL;
    }
    Py_INCREF(mt);
    Py_INCREF(pt);
    Py_INCREF(w);
    Py_INCREF(b);
    Py_XSETREF(MoveType, (PyTypeObject *)mt);
    Py_XSETREF(PositionType, (PyTypeObject *)pt);
    Py_XSETREF(WhiteObj, w);
    Py_XSETREF(BlackObj, b);
    Py_RETURN_NONE;
}

static PyMethodDef core_methods[] = {
    {"init", core_init, METH_VARARGS, "init(Move, Position, WHITE, BLACK): the value types"},
    {"apply", core_apply, METH_VARARGS,
     "apply(position, move) -> the Position after the (legal) move: the mover's piece from "
     "start to end, the captured pieces removed, crowned when the move promotes"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "damiera._core",
    "The native rules core: move generation, perft, Zobrist hashing, search and evaluation.",
    -1, core_methods};

PyMODINIT_FUNC PyInit__core(void)
{
    if (PyType_Ready(&RulesType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m)
        return NULL;
    Py_INCREF(&RulesType);
    if (PyModule_AddObject(m, "Rules", (PyObject *)&RulesType) < 0) {
        Py_DECREF(&RulesType);
        Py_DECREF(m);
        return NULL;
    }
    if (search_register(m) < 0 || egdb_register(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
