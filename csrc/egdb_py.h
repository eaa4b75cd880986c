/* damiera._core.Egdb (egdb_py.c): the Python face of the endgame database (egdb.h). */
#ifndef DAMIERA_EGDB_PY_H
#define DAMIERA_EGDB_PY_H

#include <Python.h>

#include "egdb.h"

typedef struct {
    PyObject_HEAD PyObject *rules_obj; /* keeps the Rules the database was solved for alive */
    Egdb *db;
} EgdbObject;

/* The database of a built Egdb object, or NULL with TypeError set. */
const Egdb *egdb_of(PyObject *o);
int egdb_register(PyObject *module);

#endif
