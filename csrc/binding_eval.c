/* damiera._core.Evaluation (the static evaluation of one rule set, with a weights file's or
 * given pattern tables) and read_weights(rules, path, key): OSError when a file cannot be read,
 * ValueError when it is not a regular file, does not fit the board, names other rules than key
 * (the rules key of damiera.engine.patterns) or fails its checksum. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "weights.h"
#include "binding.h"

static PyObject *weights_error(const char *path, int rc, const char *err)
{
    if (rc == WEIGHTS_UNREADABLE)
        return PyErr_SetFromErrnoWithFilename(PyExc_OSError, path);
    PyErr_SetString(PyExc_ValueError, err);
    return NULL;
}

static int Evaluation_init(EvaluationObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"rules", "weights", "tables", "key", NULL};
    PyObject *rules, *path = Py_None, *tables = Py_None;
    const char *key = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OOz", names, &rules, &path, &tables, &key))
        return -1;
    if (path != Py_None && key == NULL)
        return PyErr_SetString(PyExc_TypeError, "weights= needs key=, the rules key"), -1;
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
        int rc = eval_load_weights(&self->eval, PyBytes_AS_STRING(bytes), key, err, sizeof err);
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

EvaluationObject *evaluation_arg(PyObject *o)
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

static PyObject *Evaluation_term_features(EvaluationObject *self, PyObject *pos)
{
    Node n;
    if (!evaluation_arg((PyObject *)self) ||
        position_of(self->rules->values, &self->rules->rules, pos, &n, 0) < 0)
        return NULL;
    int f[EVAL_TERMS];
    eval_term_features(&self->eval, node_white(&n), node_black(&n), n.kings, f);
    PyObject *out = PyTuple_New(EVAL_TERMS);
    for (int t = 0; out && t < EVAL_TERMS; t++) {
        PyObject *v = PyLong_FromLong(f[t]);
        if (!v)
            return Py_DECREF(out), NULL;
        PyTuple_SET_ITEM(out, t, v);
    }
    return out;
}

static PyObject *Evaluation_terms(EvaluationObject *self, void *unused)
{
    (void)unused;
    if (!evaluation_arg((PyObject *)self))
        return NULL;
    const Eval *e = &self->eval;
    PyObject *out = PyTuple_New(e->terms);
    for (int t = 0; out && t < e->terms; t++) {
        PyObject *v = PyLong_FromLong(e->term_weights[t]);
        if (!v)
            return Py_DECREF(out), NULL;
        PyTuple_SET_ITEM(out, t, v);
    }
    return out;
}

static PyObject *Evaluation_get(EvaluationObject *self, void *which)
{
    if (!evaluation_arg((PyObject *)self))
        return NULL;
    const Eval *e = &self->eval;
    int v[] = {e->king_value, e->start_pieces, e->pattern_rows,
               e->pattern_rows ? e->phases : 0, e->king_rows};
    return PyLong_FromLong(v[(intptr_t)which]);
}

PyObject *core_read_weights(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *rules, *path, *bytes;
    const char *key;
    if (!PyArg_ParseTuple(args, "OOs", &rules, &path, &key) ||
        !PyUnicode_FSConverter(path, &bytes))
        return NULL;
    RulesObject *R = rules_arg(rules);
    Weights w;
    char err[512];
    int rc = R ? weights_read(&R->rules, PyBytes_AS_STRING(bytes), key, &w, err, sizeof err)
               : -3;
    PyObject *out = NULL;
    if (rc == WEIGHTS_OK)
        out = Py_BuildValue("(iiy#iy#)", w.rows, w.phases, (const char *)w.tables,
                            (Py_ssize_t)(w.count * sizeof *w.tables), w.king_rows,
                            w.king_tables ? (const char *)w.king_tables : "",
                            (Py_ssize_t)(w.king_count * sizeof *w.king_tables));
    else if (R)
        weights_error(PyBytes_AS_STRING(bytes), rc, err);
    if (rc == WEIGHTS_OK) {
        free(w.tables);
        free(w.king_tables);
    }
    Py_DECREF(bytes);
    return out;
}

static PyMethodDef Evaluation_methods[] = {
    {"evaluate", (PyCFunction)Evaluation_evaluate, METH_O,
     "evaluate(position) -> static score for the side to move (centi-men), or NO_MOVES"},
    {"term_features", (PyCFunction)Evaluation_term_features, METH_O,
     "term_features(position) -> the learned terms' features (TERM_NAMES' order), White's "
     "view, in units of 1/start_pieces (csrc/eval.h, \"Learned terms\")"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Evaluation_getset[] = {
    {"king_value", (getter)Evaluation_get, NULL, "a king's worth, centi-men", (void *)0},
    {"start_pieces", (getter)Evaluation_get, NULL, "pieces of the start position", (void *)1},
    {"pattern_rows", (getter)Evaluation_get, NULL, "rows of a pattern window (0: none)", (void *)2},
    {"pattern_phases", (getter)Evaluation_get, NULL, "sets of pattern tables (0: none)", (void *)3},
    {"king_rows", (getter)Evaluation_get, NULL, "rows of a king window (0: none)", (void *)4},
    {"terms", (getter)Evaluation_terms, NULL,
     "the learned terms' weights, centi-men (a version 4 weights file's; () without)", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

TYPE(EvaluationType, Evaluation, "The static evaluation of one rule set.", Evaluation_getset);
