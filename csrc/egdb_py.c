/* damiera._core.Egdb: the Python face of the endgame database (egdb.c). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "egdb.h"
#include "egdb_py.h"

extern int position_words(const Rules *r, PyObject *pos, uint64_t *w, uint64_t *b, uint64_t *k,
                          int *side);
extern const Rules *rules_of(PyObject *o);

static int Egdb_init(EgdbObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"rules", "pieces", NULL};
    PyObject *rules;
    int pieces;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Oi", names, &rules, &pieces))
        return -1;
    const Rules *r = rules_of(rules);
    if (!r)
        return -1;
    if (r->size != 8) {
        PyErr_SetString(PyExc_ValueError, "endgame databases exist for 8x8 boards only");
        return -1;
    }
    if (pieces < 2 || pieces > EGDB_MAX_PIECES) {
        PyErr_Format(PyExc_ValueError, "pieces must be from 2 to %d, not %d", EGDB_MAX_PIECES,
                     pieces);
        return -1;
    }
    if (self->db) {
        PyErr_SetString(PyExc_RuntimeError, "Egdb is already built");
        return -1;
    }
    Py_INCREF(rules);
    Py_XSETREF(self->rules_obj, rules);
    PyThreadState *saved = PyEval_SaveThread();
    Egdb *db = egdb_build(r, pieces);
    PyEval_RestoreThread(saved);
    if (!db) {
        PyErr_NoMemory();
        return -1;
    }
    self->db = db;
    return 0;
}

static void Egdb_dealloc(EgdbObject *self)
{
    egdb_free(self->db);
    Py_XDECREF(self->rules_obj);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Egdb_probe(EgdbObject *self, PyObject *pos)
{
    if (!self->db) {
        PyErr_SetString(PyExc_RuntimeError, "Egdb is not built");
        return NULL;
    }
    uint64_t w, b, k;
    int side, plies = 0;
    if (position_words(self->db->r, pos, &w, &b, &k, &side) < 0)
        return NULL;
    int res = side ? egdb_probe(self->db, b, w, k, 1, &plies)
                   : egdb_probe(self->db, w, b, k, 0, &plies);
    if (res == EGDB_UNKNOWN)
        Py_RETURN_NONE;
    return Py_BuildValue("(ii)", res, plies);
}

static PyObject *Egdb_get(EgdbObject *self, void *closure)
{
    if (!self->db) {
        PyErr_SetString(PyExc_RuntimeError, "Egdb is not built");
        return NULL;
    }
    switch ((int)(intptr_t)closure) {
    case 0:
        return PyLong_FromLong(self->db->pieces);
    case 1:
        return PyLong_FromUnsignedLongLong(self->db->positions);
    case 2:
        return PyLong_FromUnsignedLongLong(self->db->bytes);
    default:
        return PyLong_FromLong(self->db->max_distance);
    }
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

static PyTypeObject EgdbType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "damiera._core.Egdb",
    .tp_basicsize = sizeof(EgdbObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Egdb(rules, pieces): every 8x8 position of up to `pieces` pieces solved in "
              "memory (win/draw/loss and plies to the end) with the rules core's moves.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Egdb_init,
    .tp_dealloc = (destructor)Egdb_dealloc,
    .tp_methods = Egdb_methods,
    .tp_getset = Egdb_getset,
};

const Egdb *egdb_of(PyObject *o)
{
    if (!PyObject_TypeCheck(o, &EgdbType) || !((EgdbObject *)o)->db) {
        PyErr_SetString(PyExc_TypeError, "expected a built damiera._core.Egdb");
        return NULL;
    }
    return ((EgdbObject *)o)->db;
}

int egdb_register(PyObject *module)
{
    if (PyType_Ready(&EgdbType) < 0)
        return -1;
    Py_INCREF(&EgdbType);
    if (PyModule_AddObject(module, "Egdb", (PyObject *)&EgdbType) < 0) {
        Py_DECREF(&EgdbType);
        return -1;
    }
    return 0;
}
