/* The binding's private header (damiera._core: binding.c the module, and a file per Python
 * type: binding_values.c, binding_rules.c, binding_eval.c, binding_engine.c, binding_egdb.c): the objects the types are
 * made of, the type objects, and the conversions between Python values and the units' structs
 * that more than one type needs. Only the binding's files include it; no other unit of csrc/
 * knows Python.
 */
#ifndef DAMIERA_BINDING_H
#define DAMIERA_BINDING_H

#ifndef PY_SSIZE_T_CLEAN
#define PY_SSIZE_T_CLEAN
#endif
#include <Python.h>

#include "boundary.h"

/* The module's name: the normal build's damiera._core (64-bit board words), the wide build's
 * damiera._core_wide (128-bit words, boards of more than 64 bits: position.h). */
#ifdef DAMIERA_WIDE
#define CORE_NAME "damiera._core_wide"
#define CORE_INIT PyInit__core_wide
#else
#define CORE_NAME "damiera._core"
#define CORE_INIT PyInit__core
#endif

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

extern PyTypeObject ValuesType, RulesType, EvaluationType, EngineType, EgdbType;

/* The type object var, damiera._core.<name>, made of name##Object, name##_init, name##_dealloc
 * and name##_methods; each type's file defines its own with it. */
#define TYPE(var, name, doc, getset)                                                         \
    PyTypeObject var = {                                                                     \
        PyVarObject_HEAD_INIT(NULL, 0).tp_name = CORE_NAME "." #name,                        \
        .tp_basicsize = sizeof(name##Object), .tp_flags = Py_TPFLAGS_DEFAULT, .tp_doc = doc,  \
        .tp_new = PyType_GenericNew, .tp_init = (initproc)name##_init,                        \
        .tp_dealloc = (destructor)name##_dealloc, .tp_methods = name##_methods,               \
        .tp_getset = getset}

/* binding_values.c: Values and the conversions the types share. */

/* Whether self is built (Values.__init__ ran), else 0 with a RuntimeError. */
int values_ready(ValuesObject *self);

/* A Python int as a board word (0 to 2**MAX_BITS - 1), else -1 with a ValueError naming what. */
int board_of(PyObject *o, board_t *out, const char *what);
/* A board word as a Python int; NULL with the error set. */
PyObject *board_object(board_t x);

/* A Position (white, black, kings, turn) of r's board (NULL: any board) as a Node; moves: one
 * to generate moves of (position_check). -1 with a TypeError or ValueError set when it is not. */
int position_of(const ValuesObject *V, const Rules *r, PyObject *pos, Node *n, int moves);
/* position_of on R's board, for generating moves. */
int node_of(const RulesObject *R, PyObject *pos, Node *n);
/* A move as R's Move tuple (start, end, path, captures, captured, captured_kings, promotes,
 * by_king); NULL with the error set. */
PyObject *move_object(const RulesObject *R, const CMove *m);
/* n moves as a list of R's Move tuples; NULL with the error set. */
PyObject *move_list(const RulesObject *R, const CMove *m, int n);
/* The poll of a perft or a search run with the interpreter lock released: takes the lock back
 * for a moment to run the signal handlers (Ctrl-C); ctx: the saved thread state. Nonzero: stop. */
int poll_signals(void *ctx);

/* binding_rules.c */

/* o as a Rules, or NULL with a TypeError. */
RulesObject *rules_arg(PyObject *o);

/* binding_eval.c */

/* o as a built Evaluation, or NULL with a TypeError. */
EvaluationObject *evaluation_arg(PyObject *o);
/* read_weights(rules, path), the module's function. */
PyObject *core_read_weights(PyObject *mod, PyObject *args);

/* binding_engine.c */

/* allocate_time(remaining, increment=0.0, moves_to_go=0, ply=0) -> (soft, hard), the module's
 * function: time_allocate's budget, after limits_check (ValueError). */
PyObject *core_allocate_time(PyObject *mod, PyObject *args);

#endif
