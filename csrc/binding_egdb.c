/* damiera._core.Egdb: an 8x8 or 10x10 endgame database of up to `pieces` pieces, either solved
 * whole in memory at construction or class by class (solve, load, save), the long work with the
 * interpreter lock released; probed by position. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "binding.h"
#include "egdb_file.h"

static int Egdb_init(EgdbObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"rules", "pieces", "solve", NULL};
    PyObject *rules;
    int pieces, solve = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Oi|p", names, &rules, &pieces, &solve))
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
    Egdb *db = solve ? egdb_build(&R->rules, pieces) : egdb_new(&R->rules, pieces);
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

static int built(EgdbObject *self)
{
    if (!self->db)
        PyErr_SetString(PyExc_RuntimeError, "Egdb is not built");
    return self->db != NULL;
}

/* The position of class `cls` (a tuple of four counts) in the order, or -1 with ValueError. */
static int class_arg(EgdbObject *self, PyObject *cls)
{
    int n[4];
    if (!PyArg_ParseTuple(cls, "iiii;a class is (white men, white kings, black men, black kings)",
                          &n[0], &n[1], &n[2], &n[3]))
        return -1;
    int k = egdb_class_number(self->db, n);
    if (k < 0)
        PyErr_Format(PyExc_ValueError, "no class %d%d%d%d in a database of %d pieces", n[0],
                     n[1], n[2], n[3], self->db->pieces);
    return k;
}

static PyObject *Egdb_probe(EgdbObject *self, PyObject *pos)
{
    Node n;
    int plies = 0;
    if (!built(self) || node_of(self->rules, pos, &n) < 0)
        return NULL;
    int res = egdb_probe(self->db, n.own, n.opp, n.kings, n.side, &plies);
    if (res == EGDB_UNKNOWN)
        Py_RETURN_NONE;
    return Py_BuildValue("(ii)", res, plies);
}

static PyObject *Egdb_ready(EgdbObject *self, PyObject *cls)
{
    int k = built(self) ? class_arg(self, cls) : -1;
    if (k < 0)
        return NULL;
    return PyBool_FromLong(egdb_class_at(self->db, k)->val != NULL);
}

/* The solve's stop (EgdbStop): Python's pending signals handled now, the interpreter lock
 * taken for it; a handler that raised (Ctrl-C's KeyboardInterrupt) stops the solve with its
 * exception set. */
static int signal_raised(void *ctx)
{
    (void)ctx;
    PyGILState_STATE g = PyGILState_Ensure();
    int raised = PyErr_CheckSignals() < 0;
    PyGILState_Release(g);
    return raised;
}

static PyObject *Egdb_solve(EgdbObject *self, PyObject *cls)
{
    int k = built(self) ? class_arg(self, cls) : -1;
    if (k < 0)
        return NULL;
    PyThreadState *saved = PyEval_SaveThread();
    int rc = egdb_solve_class(self->db, k, signal_raised, NULL);
    PyEval_RestoreThread(saved);
    if (rc == EGDB_STOPPED)
        return NULL; /* the signal handler's exception */
    if (rc == EGDB_NO_MEMORY)
        return PyErr_NoMemory();
    if (rc == EGDB_NOT_IN_ORDER)
        return PyErr_Format(PyExc_ValueError,
                            "the classes before %R must be solved or loaded first", cls);
    if (rc == EGDB_TOO_LONG)
        return PyErr_Format(PyExc_ValueError,
                            "class %R has a win longer than the format's %d plies", cls,
                            EGDB_MAX_DISTANCE);
    Py_RETURN_NONE;
}

static PyObject *Egdb_values(EgdbObject *self, PyObject *cls)
{
    int k = built(self) ? class_arg(self, cls) : -1;
    if (k < 0)
        return NULL;
    const EgdbClass *c = egdb_class_at(self->db, k);
    if (!c->val)
        return PyErr_Format(PyExc_ValueError, "class %R is not ready", cls);
    return PyBytes_FromStringAndSize((const char *)c->val, (Py_ssize_t)c->size);
}

/* save(cls, path), load(cls, path) and check(cls, path): which 0, 1 or 2. */
static PyObject *file_call(EgdbObject *self, PyObject *args, int which)
{
    PyObject *cls, *path_obj;
    if (!built(self) || !PyArg_ParseTuple(args, "OO&", &cls, PyUnicode_FSConverter, &path_obj))
        return NULL;
    int k = class_arg(self, cls);
    if (k < 0) {
        Py_DECREF(path_obj);
        return NULL;
    }
    const char *path = PyBytes_AS_STRING(path_obj);
    char err[256] = "";
    PyThreadState *saved = PyEval_SaveThread();
    int rc = which == 2 ? egdb_class_check(self->db, k, path, err, sizeof err)
             : which  ? egdb_class_load(self->db, k, path, err, sizeof err)
                      : egdb_class_save(self->db, k, path, err, sizeof err);
    PyEval_RestoreThread(saved);
    PyObject *out = NULL;
    if (rc == EGDB_FILE_IO)
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path_obj);
    else if (rc == EGDB_FILE_BAD)
        PyErr_Format(PyExc_ValueError, "%s: %s", path, err);
    else
        out = Py_NewRef(Py_None);
    Py_DECREF(path_obj);
    return out;
}

static PyObject *Egdb_save(EgdbObject *self, PyObject *args) { return file_call(self, args, 0); }
static PyObject *Egdb_load(EgdbObject *self, PyObject *args) { return file_call(self, args, 1); }
static PyObject *Egdb_check(EgdbObject *self, PyObject *args) { return file_call(self, args, 2); }

static PyObject *Egdb_get(EgdbObject *self, void *which)
{
    if (!built(self))
        return NULL;
    Egdb *db = self->db;
    switch ((intptr_t)which) {
    case 4: {
        char key[EGDB_KEY_LEN];
        egdb_rules_key(db->r, key);
        return PyUnicode_FromString(key);
    }
    case 5: {
        PyObject *out = PyTuple_New(db->nclasses);
        for (int k = 0; out && k < db->nclasses; k++) {
            const int *n = db->order[k];
            PyObject *t = Py_BuildValue("(iiii)", n[0], n[1], n[2], n[3]);
            if (!t)
                return Py_DECREF(out), NULL;
            PyTuple_SET_ITEM(out, k, t);
        }
        return out;
    }
    default: {
        unsigned long long v[] = {(unsigned long long)db->pieces, db->positions, db->bytes,
                                  (unsigned long long)db->max_distance};
        return PyLong_FromUnsignedLongLong(v[(intptr_t)which]);
    }
    }
}

static PyMethodDef Egdb_methods[] = {
    {"probe", (PyCFunction)Egdb_probe, METH_O,
     "probe(position) -> (result, plies) | None: result 1 win, 0 draw, -1 loss for the side "
     "to move, plies to the end of the game with best play, no draw rule applied; None for a "
     "position with more pieces than the database, of a class not ready, or a finished game"},
    {"ready", (PyCFunction)Egdb_ready, METH_O,
     "ready(cls) -> bool: whether class (white men, white kings, black men, black kings) is "
     "solved or loaded"},
    {"values", (PyCFunction)Egdb_values, METH_O,
     "values(cls) -> bytes: a ready class's value byte per index (csrc/egdb.h), to compare "
     "tables"},
    {"solve", (PyCFunction)Egdb_solve, METH_O,
     "solve(cls): solve one class in memory (every earlier class of `classes` ready first, "
     "else ValueError; MemoryError; ValueError for a win longer than the file format holds); "
     "a signal whose handler raises (Ctrl-C) stops it with that exception, the class left "
     "unsolved"},
    {"save", (PyCFunction)Egdb_save, METH_VARARGS,
     "save(cls, path): write a solved class to its file (through path + '.<pid>.tmp', "
     "renamed whole); OSError, or ValueError for a class not solved"},
    {"load", (PyCFunction)Egdb_load, METH_VARARGS,
     "load(cls, path): read a class from its file; OSError when unreadable, ValueError with "
     "the reason for a file of another format, version, rules or class, or damaged"},
    {"check", (PyCFunction)Egdb_check, METH_VARARGS,
     "check(cls, path): read only a class file's header: OSError when unreadable, ValueError "
     "with the reason, as load gives it, for a file of another format, version, rules or "
     "class, a damaged header, or a file cut short or too long (the values are not read)"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Egdb_getset[] = {
    {"pieces", (getter)Egdb_get, NULL, "most pieces of a position in the database", (void *)0},
    {"positions", (getter)Egdb_get, NULL, "legal positions of the classes ready", (void *)1},
    {"bytes", (getter)Egdb_get, NULL, "memory of the value tables ready", (void *)2},
    {"max_distance", (getter)Egdb_get, NULL, "longest win of the classes ready, plies",
     (void *)3},
    {"rules_key", (getter)Egdb_get, NULL, "the rule parameters the values depend on, as text",
     (void *)4},
    {"classes", (getter)Egdb_get, NULL,
     "every class (white men, white kings, black men, black kings), in solving order",
     (void *)5},
    {NULL, NULL, NULL, NULL, NULL}};

TYPE(EgdbType, Egdb,
     "Egdb(rules, pieces, solve=True): the 8x8 or 10x10 endgame database of up to `pieces` "
     "pieces, solved in memory, or empty (solve=False) to solve, load and save class by class.",
     Egdb_getset);
