/* The native search and evaluation (search.c), registered on the damiera._core module. */
#ifndef DAMIERA_SEARCH_H
#define DAMIERA_SEARCH_H

#include <Python.h>

int search_register(PyObject *module);

#endif
