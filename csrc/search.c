#include "search.h"

int search_register(PyObject *module)
{
    (void)module;
    return 0;
}
