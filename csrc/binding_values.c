/* damiera._core.Values (the Python tuple types and colours the core reads and returns:
 * apply(position, move), is_progress(move)), and the conversions the types share: Positions and
 * Moves to the units' structs and back, and the signal poll of a search or perft run with the
 * interpreter lock released. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "binding.h"

/* ---------------------------------------------------------------------------------------- */
/* The conversions the types share */

int board_of(PyObject *o, board_t *out, const char *what)
{
    unsigned long long v = PyLong_Check(o) ? PyLong_AsUnsignedLongLong(o) : (unsigned long long)-1;
    if (PyLong_Check(o) && !(v == (unsigned long long)-1 && PyErr_Occurred())) {
        *out = v;
        return 0;
    }
#ifdef DAMIERA_WIDE
    /* Past 64 bits: the low and the high 64 bits by Python's own int operations. */
    if (PyLong_Check(o)) {
        PyErr_Clear();
        PyObject *sixty_four = PyLong_FromLong(64), *ones = PyLong_FromUnsignedLongLong(~0ULL);
        PyObject *high = sixty_four ? PyNumber_Rshift(o, sixty_four) : NULL;
        PyObject *low = ones ? PyNumber_And(o, ones) : NULL;
        unsigned long long hi = high ? PyLong_AsUnsignedLongLong(high) : (unsigned long long)-1;
        unsigned long long lo = low ? PyLong_AsUnsignedLongLong(low) : (unsigned long long)-1;
        int ok = !PyErr_Occurred();
        Py_XDECREF(sixty_four);
        Py_XDECREF(ones);
        Py_XDECREF(high);
        Py_XDECREF(low);
        if (ok) {
            *out = (board_t)hi << 64 | lo;
            return 0;
        }
    }
#endif
    PyErr_Clear();
    PyErr_Format(PyExc_ValueError, "%s must be a bitboard (an int from 0 to 2**%d-1)", what,
                 MAX_BITS);
    return -1;
}

PyObject *board_object(board_t x)
{
#ifdef DAMIERA_WIDE
    uint64_t hi = (uint64_t)(x >> 64);
    if (hi) {
        PyObject *h = PyLong_FromUnsignedLongLong(hi), *sixty_four = PyLong_FromLong(64);
        PyObject *l = PyLong_FromUnsignedLongLong((uint64_t)x);
        PyObject *shifted = h && sixty_four ? PyNumber_Lshift(h, sixty_four) : NULL;
        PyObject *out = shifted && l ? PyNumber_Or(shifted, l) : NULL;
        Py_XDECREF(h);
        Py_XDECREF(sixty_four);
        Py_XDECREF(l);
        Py_XDECREF(shifted);
        return out;
    }
#endif
    return PyLong_FromUnsignedLongLong((uint64_t)x);
}

/* A Position (white, black, kings, turn) of r's board (NULL: any board) as a Node; moves: one
 * to generate moves of (position_check). */
int position_of(const ValuesObject *V, const Rules *r, PyObject *pos, Node *n, int moves)
{
    board_t w, b, k;
    if (!PyTuple_Check(pos) || PyTuple_GET_SIZE(pos) != 4) {
        PyErr_SetString(PyExc_TypeError, "expected a Position (white, black, kings, turn)");
        return -1;
    }
    if (board_of(PyTuple_GET_ITEM(pos, 0), &w, "white") < 0 ||
        board_of(PyTuple_GET_ITEM(pos, 1), &b, "black") < 0 ||
        board_of(PyTuple_GET_ITEM(pos, 2), &k, "kings") < 0)
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

int node_of(const RulesObject *R, PyObject *pos, Node *n)
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

PyObject *move_object(const RulesObject *R, const CMove *m)
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
    PyTuple_SET_ITEM(t, 4, board_object(m->captured));
    PyTuple_SET_ITEM(t, 5, board_object(m->captured_kings));
    PyTuple_SET_ITEM(t, 6, PyBool_FromLong(m->promotes));
    PyTuple_SET_ITEM(t, 7, PyBool_FromLong(m->by_king));
    return t;
}

PyObject *move_list(const RulesObject *R, const CMove *m, int n)
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
    board_t captured, captured_kings;
    if (board_of(PyTuple_GET_ITEM(o, 4), &captured, "captured") < 0 ||
        board_of(PyTuple_GET_ITEM(o, 5), &captured_kings, "captured_kings") < 0)
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
    PyTuple_SET_ITEM(t, 0, board_object(node_white(n)));
    PyTuple_SET_ITEM(t, 1, board_object(node_black(n)));
    PyTuple_SET_ITEM(t, 2, board_object(n->kings));
    PyTuple_SET_ITEM(t, 3, turn);
    return t;
}
/* Takes the interpreter back for a moment every so many nodes to run the signal handlers, so
 * Ctrl-C (KeyboardInterrupt) stops a perft or a search; ctx: the saved thread state. */
int poll_signals(void *ctx)
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

int values_ready(ValuesObject *self)
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

TYPE(ValuesType, Values, "The Python value types the core reads and builds.", NULL);
