/* damiera._core.Egdb: every 8x8 position of up to `pieces` pieces solved in memory (built with
 * the interpreter lock released), probed by position. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "binding.h"

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

TYPE(EgdbType, Egdb, "Every 8x8 position of up to `pieces` pieces solved in memory.",
     Egdb_getset);
