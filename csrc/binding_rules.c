/* damiera._core.Rules: one rule set's parameters (position.h has the enum values) and what it
 * answers of a position: moves, raw_captures, quiet_moves, has_capture, perft (the interpreter
 * lock released; Ctrl-C stops it), hash, end (how it ends by the rules' goal, goal.h). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "goal.h"
#include "perft.h"
#include "binding.h"

RulesObject *rules_arg(PyObject *o)
{
    if (!PyObject_TypeCheck(o, &RulesType)) {
        PyErr_SetString(PyExc_TypeError, "expected a damiera._core.Rules");
        return NULL;
    }
    return (RulesObject *)o;
}

static int Rules_init(RulesObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"size", "flying", "men_back", "men_take_kings", "choice", "promotion",
        "mandatory", "label_order", "man_rows", "draw_plies", "values", "land_behind",
        "remove_at_once", "losing", "breakthrough", "orthogonal", "all_squares", "straight",
        "no_reverse", NULL};
    Rules *r = &self->rules;
    PyObject *order, *values;
    memset(r, 0, sizeof *r);
    if (!PyArg_ParseTupleAndKeywords(args, kw, "ipppiipOiiO!|$pppppppp", names, &r->size,
            &r->flying, &r->men_back, &r->men_take_kings, &r->choice, &r->promotion,
            &r->mandatory, &order, &r->man_rows, &r->draw_plies, &ValuesType, &values,
            &r->land_behind, &r->remove_at_once, &r->losing, &r->breakthrough,
            &r->orthogonal, &r->all_squares, &r->straight, &r->no_reverse) ||
        !values_ready((ValuesObject *)values))
        return -1;
    if (rules_init(r) < 0) {
        PyErr_SetString(PyExc_ValueError, "the board must be 8x8 or 10x10 (12x12 in "
                        "damiera._core_wide), with known rules (and not both the losing rule "
                        "and breakthrough)");
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

typedef int (*gen_fn)(const Rules *, board_t, board_t, board_t, int, MoveList *);

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
    board_t w = node_white(&n), b = node_black(&n);
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

static PyObject *Rules_end(RulesObject *self, PyObject *pos)
{
    static const char *reasons[] = {"", "no-pieces", "no-moves", "king"};
    Node n;
    if (node_of(self, pos, &n) < 0)
        return NULL;
    int winner = 0, reason = goal_end(&self->rules, &n, &winner);
    if (reason == GOAL_NONE)
        Py_RETURN_NONE;
    PyObject *color = winner == 0 ? self->values->white : self->values->black;
    return Py_BuildValue("(Os)", color, reasons[reason]);
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
    {"end", (PyCFunction)Rules_end, METH_O,
     "end(position) -> None while the game goes on, else (winner colour, reason): 'no-pieces', "
     "'no-moves' or 'king' (breakthrough), by the rules' goal (goal.h); no draw rule"},
    {NULL, NULL, 0, NULL}};

TYPE(RulesType, Rules, "One rule set's parameters and its move generator.", NULL);
