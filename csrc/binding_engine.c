/* damiera._core.Engine: the search of one rule set with its transposition table. One
 * search(position, history, limits..., on_info=) call runs the whole iterative deepening with
 * the interpreter lock released, taking it back only for the signal poll and each iteration's
 * on_info report; stop() from any thread, clear(), tt_used(), set_egdb(). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "binding.h"

static int Engine_init(EngineObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"rules", "evaluation", "tt_entries", NULL};
    PyObject *rules, *ev, *size;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO", names, &rules, &ev, &size))
        return -1;
    /* An integer (an int, or any __index__ such as NumPy's), not a bool: True would read as
     * a table of one entry. */
    PyObject *whole = PyBool_Check(size) ? NULL : PyNumber_Index(size);
    if (!whole) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "tt_entries must be an int, not %s",
                     Py_TYPE(size)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long entries = PyLong_AsLongLongAndOverflow(whole, &overflow);
    Py_DECREF(whole);
    if (overflow)
        entries = overflow > 0 ? LLONG_MAX : LLONG_MIN;
    else if (entries == -1 && PyErr_Occurred())
        return -1;
    RulesObject *R = rules_arg(rules);
    EvaluationObject *E = R ? evaluation_arg(ev) : NULL;
    if (!E)
        return -1;
    if (self->search || E->rules != R) {
        PyErr_SetString(self->search ? PyExc_RuntimeError : PyExc_ValueError,
                        self->search ? "Engine is already built"
                                     : "the evaluation is for other rules");
        return -1;
    }
    const char *why = tt_entries_check(entries);
    if (why) {
        PyErr_SetString(PyExc_ValueError, why);
        return -1;
    }
    self->search = search_new(&R->rules, &E->eval, (uint64_t)entries);
    if (!self->search) {
        uint64_t held = tt_size_for((uint64_t)entries);
        PyErr_Format(PyExc_MemoryError,
                     "no memory for a table of %llu entries (%llu MiB); ask for fewer",
                     (unsigned long long)held,
                     (unsigned long long)(held * sizeof(TTEntry) >> 20));
        return -1;
    }
    Py_INCREF(R);
    Py_INCREF(E);
    self->rules = R;
    self->evaluation = E;
    return 0;
}

static void Engine_dealloc(EngineObject *self)
{
    search_free(self->search);
    Py_XDECREF(self->rules);
    Py_XDECREF(self->evaluation);
    Py_XDECREF(self->egdb);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int engine_ready(EngineObject *self)
{
    if (!self->search || self->busy) {
        PyErr_SetString(PyExc_RuntimeError,
                        self->search ? "the engine is searching" : "Engine is not built");
        return 0;
    }
    return 1;
}

typedef struct {
    EngineObject *engine;
    PyThreadState *saved;
    PyObject *on_info;
} Call;

static PyObject *line_object(EngineObject *self, const Line *line)
{
    CMove moves[PV_MAX];
    int n = search_line_moves(self->search, line, moves, PV_MAX);
    return move_list(self->rules, moves, n);
}

/* An iteration's report, passed to on_info(depth, score, nodes, seconds, pv, lines) with the
 * interpreter taken back; nonzero (the callback raised) stops the search. */
static int report_info(void *ctx, const Report *rep)
{
    Call *call = ctx;
    PyEval_RestoreThread(call->saved);
    EngineObject *self = call->engine;
    PyObject *pv = line_object(self, rep->best), *lines = PyList_New(rep->nlines), *r = NULL;
    for (int i = 0; pv && lines && i < rep->nlines; i++) {
        PyObject *one = line_object(self, &rep->lines[i]);
        PyObject *item = one ? Py_BuildValue("(iN)", rep->lines[i].score, one) : NULL;
        if (!item)
            Py_CLEAR(lines);
        else
            PyList_SET_ITEM(lines, i, item);
    }
    if (pv && lines)
        r = PyObject_CallFunction(call->on_info, "iiLdOO", rep->depth, rep->score, rep->nodes,
                                  rep->seconds, pv, lines);
    Py_XDECREF(pv);
    Py_XDECREF(lines);
    Py_XDECREF(r);
    call->saved = PyEval_SaveThread();
    return r == NULL;
}

/* 0 when the limits are in range (limits_check), else -1 with its ValueError. */
static int limits_ok(const Limits *lim)
{
    char err[160];
    if (limits_check(lim, err, sizeof err) == 0)
        return 0;
    PyErr_SetString(PyExc_ValueError, err);
    return -1;
}

PyObject *core_allocate_time(PyObject *Py_UNUSED(module), PyObject *args)
{
    Limits l = {0};
    if (!PyArg_ParseTuple(args, "d|dii", &l.remaining, &l.increment, &l.moves_to_go, &l.ply) ||
        limits_ok(&l) < 0)
        return NULL;
    TimeBudget b = time_allocate(l.remaining, l.increment, l.moves_to_go, l.ply);
    return Py_BuildValue("(dd)", b.soft, b.hard);
}

/* search(position, history, depth, movetime, nodes, root_scores, threat_extension,
 *        reduce_sacrifices, prune_late_moves, probcut, *, on_info, cpu_time, remaining,
 *        increment, moves_to_go, ply, resting_king) */
static PyObject *Engine_search(EngineObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"position", "history", "depth", "movetime", "nodes", "root_scores",
                            "threat_extension", "reduce_sacrifices", "prune_late_moves",
                            "probcut", "on_info", "cpu_time", "remaining", "increment",
                            "moves_to_go", "ply", "resting_king", NULL};
    PyObject *pos, *history, *on_info = Py_None;
    Limits lim = {0};
    Options opt = {1, 1, 1, 1};
    int resting = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|idLppppp$Opddiii", names, &pos, &history,
                                     &lim.depth, &lim.movetime, &lim.nodes, &lim.root_scores,
                                     &opt.threat_extension, &opt.reduce_sacrifices,
                                     &opt.prune_late_moves, &opt.probcut, &on_info,
                                     &lim.cpu_clock, &lim.remaining, &lim.increment,
                                     &lim.moves_to_go, &lim.ply, &resting) ||
        !engine_ready(self) || (lim.resting_king = resting + 1, limits_ok(&lim) < 0))
        return NULL;
    if (on_info != Py_None && !PyCallable_Check(on_info)) {
        PyErr_SetString(PyExc_TypeError, "on_info must be callable or None");
        return NULL;
    }
    Node root;
    if (node_of(self->rules, pos, &root) < 0)
        return NULL;
    PyObject *seq = PySequence_Fast(history, "history must be a sequence of Positions");
    if (!seq)
        return NULL;
    Py_ssize_t total = PySequence_Fast_GET_SIZE(seq);
    Py_ssize_t first = (Py_ssize_t)history_first(total, self->rules->rules.draw_plies);
    Node *past = PyMem_Malloc(sizeof(Node) * (size_t)(total - first + 1));
    for (Py_ssize_t i = first; past && i < total; i++)
        if (node_of(self->rules, PySequence_Fast_GET_ITEM(seq, i), &past[i - first]) < 0) {
            PyMem_Free(past);
            Py_DECREF(seq);
            return NULL;
        }
    Py_DECREF(seq);
    if (!past)
        return PyErr_NoMemory();
    Call call = {self, NULL, on_info};
    SearchResult res;
    self->busy = 1;
    search_clear_stop(self->search);
    call.saved = PyEval_SaveThread();
    int rc = search_run(self->search, &root, past, (int)(total - first), &lim, &opt, poll_signals,
                        &call.saved, on_info == Py_None ? NULL : report_info, &call, &res);
    PyEval_RestoreThread(call.saved);
    self->busy = 0;
    self->nodes = res.nodes;
    PyMem_Free(past);
    if (rc != 0) {
        search_result_free(&res);
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    int count;
    const CMove *roots = search_root_moves(self->search, &count);
    PyObject *move = res.has_move ? move_object(self->rules, &roots[res.best.move])
                                  : Py_NewRef(Py_None);
    PyObject *pv = res.has_move ? line_object(self, &res.best) : PyList_New(0);
    PyObject *scores = PyList_New(res.nscores);
    for (int i = 0; scores && i < res.nscores; i++) {
        PyObject *m = move_object(self->rules, &roots[res.score_moves[i]]);
        PyObject *item = m ? Py_BuildValue("(Ni)", m, res.scores[i]) : NULL;
        if (!item)
            Py_CLEAR(scores);
        else
            PyList_SET_ITEM(scores, i, item);
    }
    search_result_free(&res);
    if (!move || !pv || !scores) {
        Py_XDECREF(move);
        Py_XDECREF(pv);
        Py_XDECREF(scores);
        return NULL;
    }
    return Py_BuildValue("(NiiLdNN)", move, res.score, res.depth, res.nodes, res.seconds, pv,
                         scores);
}

static PyObject *Engine_stop(EngineObject *self, PyObject *unused)
{
    (void)unused;
    if (self->search)
        search_stop(self->search);
    Py_RETURN_NONE;
}

static PyObject *Engine_clear(EngineObject *self, PyObject *unused)
{
    (void)unused;
    if (!engine_ready(self))
        return NULL;
    search_clear(self->search);
    Py_RETURN_NONE;
}

static PyObject *Engine_tt_used(EngineObject *self, PyObject *unused)
{
    (void)unused;
    if (!engine_ready(self))
        return NULL;
    return PyLong_FromUnsignedLongLong(search_tt_used(self->search));
}

static PyObject *Engine_set_egdb(EngineObject *self, PyObject *db)
{
    if (!engine_ready(self))
        return NULL;
    if (db != Py_None && (!PyObject_TypeCheck(db, &EgdbType) || !((EgdbObject *)db)->db)) {
        PyErr_SetString(PyExc_TypeError, "expected a built damiera._core.Egdb or None");
        return NULL;
    }
    EgdbObject *e = db == Py_None ? NULL : (EgdbObject *)db;
    if (e && memcmp(&e->rules->rules, &self->rules->rules, sizeof(Rules)) != 0) {
        PyErr_SetString(PyExc_ValueError, "the endgame database is for other rules");
        return NULL;
    }
    Py_XINCREF(e);
    Py_XSETREF(self->egdb, e);
    search_set_egdb(self->search, e ? e->db : NULL);
    Py_RETURN_NONE;
}

static PyObject *Engine_get_nodes(EngineObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLongLong(self->nodes);
}

static PyMethodDef Engine_methods[] = {
    {"search", (PyCFunction)(void (*)(void))Engine_search, METH_VARARGS | METH_KEYWORDS,
     "search(position, history, depth=0, movetime=0.0, nodes=0, root_scores=False, "
     "threat_extension=True, reduce_sacrifices=True, prune_late_moves=True, probcut=True, *, "
     "on_info=None, cpu_time=False, remaining=0.0, increment=0.0, moves_to_go=0, ply=0, "
     "resting_king=-1) -> "
     "(move | None, score, depth, nodes, seconds, pv, root_scores); 0: no limit; cpu_time: "
     "movetime and the game clock (remaining seconds, increment, moves to go, plies played) "
     "measured on the search thread's CPU time; seconds are wall-clock; on_info(depth, score, "
     "nodes, seconds, pv, lines) after every iteration; resting_king: the square of a king that "
     "may make no quiet move at the root (-1: none); the interpreter lock is released for "
     "the whole search"},
    {"stop", (PyCFunction)Engine_stop, METH_NOARGS,
     "stop(): the running search returns its best move within a few hundred nodes"},
    {"clear", (PyCFunction)Engine_clear, METH_NOARGS, "clear(): empty table and history"},
    {"tt_used", (PyCFunction)Engine_tt_used, METH_NOARGS, "tt_used() -> filled table entries"},
    {"set_egdb", (PyCFunction)Engine_set_egdb, METH_O,
     "set_egdb(db: Egdb | None): the endgame database the search probes"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Engine_getset[] = {
    {"nodes", (getter)Engine_get_nodes, NULL, "nodes of the last search", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

TYPE(EngineType, Engine, "The search of one rule set, with its transposition table.",
     Engine_getset);
