/* damiera._core, the module (and damiera._core_wide, the same sources with 128-bit board
 * words: position.h). The binding (binding*.c and binding.h) is the only part of csrc/
 * that knows Python: this file builds the module, and a file per Python type (binding_values.c,
 * binding_rules.c, binding_eval.c, binding_engine.c, binding_egdb.c) defines it. They read
 * Python values into numbers, hand them to the checks of boundary.h (sizes, squares, piece
 * counts, limits) that turn them into the C units' structs, and turn the units' results back
 * into Python values; the units themselves hold no Python object.
 *
 *   Values(Move, Position, WHITE, BLACK): the tuple types and colours read and returned;
 *         apply(position, move), is_progress(move).
 *   Rules(size, flying, men_back, men_take_kings, choice, promotion, mandatory, label_order,
 *         man_rows, draw_plies, values, *, land_behind, remove_at_once, losing,
 *         breakthrough, orthogonal, all_squares, straight, no_reverse): one rule set
 *         (position.h's Rules has the enum values);
 *         moves, raw_captures, quiet_moves, has_capture, perft, hash, end.
 *   Evaluation(rules, weights=path | None, tables=(rows, phases, int16 bytes) | None)
 *   Engine(rules, evaluation, tt_entries): search(position, history, ...) with the GIL released
 *         for the whole search; stop() from any thread.
 *   Egdb(rules, pieces): the endgame database.
 *   read_weights(rules, path, key), allocate_time(remaining, increment, moves_to_go, ply) (a
 *   game clock's move time), and the constants of the units.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "binding.h"

static PyMethodDef core_methods[] = {
    {"read_weights", core_read_weights, METH_VARARGS,
     "read_weights(rules, path, key) -> (rows, phases, tables, king_rows, king_tables): a "
     "weights file's every window table (16-bit bytes in the machine's order, phase by "
     "phase) and its king windows' (king_rows 0 and no bytes before version 5); ValueError "
     "when it does not fit the board, names other rules than key or fails its checksum, "
     "OSError when it cannot be read"},
    {"allocate_time", core_allocate_time, METH_VARARGS,
     "allocate_time(remaining, increment=0.0, moves_to_go=0, ply=0) -> (soft, hard): the "
     "seconds a search under that game clock plans (no new iteration after soft in an "
     "ordinary move) and is cut at (search.h: time_allocate); ValueError outside the "
     "search's limits"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, CORE_NAME,
    "The native core: move generation, perft, hashing, evaluation, search, endgame tables.", -1,
    core_methods};

PyMODINIT_FUNC CORE_INIT(void)
{
    PyTypeObject *types[] = {&ValuesType, &RulesType, &EvaluationType, &EngineType, &EgdbType};
    PyObject *m = PyModule_Create(&core_module);
    if (!m)
        return NULL;
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (PyType_Ready(types[i]) < 0 ||
            PyModule_AddObjectRef(m, strrchr(types[i]->tp_name, '.') + 1, (PyObject *)types[i]) < 0)
            goto fail;
    for (size_t i = 0; i < CORE_CONSTANT_COUNT; i++)
        if (PyModule_AddIntConstant(m, CORE_CONSTANTS[i].name, CORE_CONSTANTS[i].value) < 0)
            goto fail;
    if (PyModule_AddObject(m, "DEADLINE_SHARE", PyFloat_FromDouble(DEADLINE_SHARE)) < 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
