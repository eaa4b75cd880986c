/* The native search (search.c) and its Python face, damiera._core.Engine (engine.c). */
#ifndef DAMIERA_SEARCH_H
#define DAMIERA_SEARCH_H

#include <Python.h>
#include <stdint.h>

#include "egdb.h"
#include "evaluate.h"
#include "movegen.h"

#define MATE 1000000
#define MATE_BOUND (MATE - 10000)
#define INF (MATE + 1)
#define MAX_PLY 200

enum { EXACT = 0, LOWER = 1, UPPER = 2 };

typedef struct {
    uint64_t key;
    int32_t score;
    int16_t depth;
    uint8_t flag, best;
} TTEntry;


typedef struct {
    PyObject_HEAD PyObject *rules_obj;
    const Rules *r;
    Eval ev;
    TTEntry *tt;
    uint64_t tt_mask;
    int history[MAX_BITS][MAX_BITS];
    uint16_t killers[MAX_PLY + 8][2];
    MoveList lists[MAX_PLY + 8];
    uint64_t *hashes;
    int nhashes, hashes_cap;
    long long nodes, max_nodes;
    double deadline;
    volatile int stop_flag;
    int aborted, interrupted, threat_extension, reduce_sacrifices, draw_plies;
    int prune_late_moves; /* late-move and futility pruning (search.c) on */
    int probcut; /* the ProbCut-style cut (search.c) on */
    int in_probcut; /* inside ProbCut's shallow search (search.c): no cut within it */
    PyObject *egdb_obj; /* the endgame database probed by the search, or NULL */
    const Egdb *egdb;
    PyThreadState *saved;
} EngineObject;

typedef struct {
    uint64_t own, opp, kings;
    int side;
} Node;

/* Negamax alpha-beta of the position n (hash h) to depth plies; E->aborted when the deadline
 * passed, stop() was called or Ctrl-C was pressed (the score is then meaningless). */
int search(EngineObject *E, const Node *n, uint64_t h, int depth, int alpha, int beta, int ply,
           int rep_start, int quiet);
/* The static score of n for its side to move. */
int static_score(EngineObject *E, const Node *n);

static inline void child_of(const Node *n, const CMove *m, Node *c)
{
    uint64_t own = n->own, opp = n->opp, kings = n->kings;
    make_move(m, &own, &opp, &kings);
    c->own = opp;
    c->opp = own;
    c->kings = kings;
    c->side = 1 - n->side;
}

int search_register(PyObject *module);

#endif
