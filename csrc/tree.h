/* The search's state (struct Search) and the node search, shared by root.c (the deepening and
 * the root) and search.c (the tree below the root); no other unit includes it. */
#ifndef DAMIERA_TREE_H
#define DAMIERA_TREE_H

/* clock_gettime (POSIX) under -std=c11; this header comes first in root.c and search.c. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <time.h>

#include "goal.h"
#include "search.h"

struct Search {
    const Rules *r;
    const Eval *ev;
    const Egdb *egdb;
    Keys keys;
    TT tt;
    int history[MAX_BITS][MAX_BITS]; /* quiet moves' cutoffs, by start and end square */
    uint16_t killers[MAX_PLY + 8][2];
    MoveList lists[MAX_PLY + 8];
    uint64_t *hashes; /* the positions since the last irreversible move, the current last */
    int nhashes, hashes_cap;
    long long nodes, max_nodes;
    double deadline; /* search_clock() seconds */
    int cpu_clock;   /* search_clock() reads the thread's CPU time */
    atomic_int stop;
    int aborted;     /* the iteration was cut (stop, deadline, node budget, poll) */
    int interrupted; /* the poll stopped it */
    Options opt;
    int in_probcut; /* inside ProbCut's shallow search: no cut within it */
    /* Set when a score of the iteration came from beyond exact knowledge: the static
     * evaluation, the transposition table (whose entry may rest on it), a move pruned or a
     * ProbCut cut. An iteration that finishes without it was decided by the end of the game,
     * the draw rules and the endgame database alone, and a deeper one would give the same
     * scores. */
    int horizon;
    search_poll poll;
    void *poll_ctx;
    /* Principal variations: pv[ply][0..pv_len[ply]) is the line below the node at ply, as
     * indices into the generator's list of each position. */
    uint8_t pv[PV_MAX][PV_MAX];
    int pv_len[PV_MAX];
    /* The line of every PV node that ended with an exact score, by key (the newest kept): a
     * PV node that the transposition table's exact entry cuts takes its line from here. */
    struct PvEntry {
        uint64_t key;
        int len;
        uint8_t line[PV_MAX];
    } *pv_table;
    /* The root of the last search_run. */
    Node root;
    MoveList root_moves; /* sorted in notation order */
    Line *lines;         /* one per root move */
    int lines_cap;
};

/* Nodes between two readings of the CPU clock (a power of two, a multiple of 256). */
#define CPU_CLOCK_NODES 1024

/* Entries of the table of lines (a power of two). */
#define PV_TABLE_SIZE 4096

static inline double read_clock(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Seconds on the wall clock (the reports' times). */
static inline double wall_clock(void) { return read_clock(CLOCK_MONOTONIC); }

/* Seconds on the clock the limits are measured on: the wall clock, or with Limits.cpu_clock
 * the CPU time of the thread running the search (the whole search runs in one thread, so on a
 * loaded machine it still gets the time it was given to compute). */
static inline double search_clock(const Search *S)
{
    return read_clock(S->cpu_clock ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC);
}

/* Negamax alpha-beta of n (key h) to depth plies at ply, repetitions looked for from
 * hashes[rep_start] on, quiet plies already without progress; fail-soft. S->aborted when the
 * search was cut (the score is then meaningless). */
int search_node(Search *S, const Node *n, uint64_t h, int depth, int alpha, int beta, int ply,
                int rep_start, int quiet);
/* The score of a side to move with no legal move at ply: a loss, or a win under the losing
 * rule (goal.h). */
static inline int stuck_score(const Search *S, int ply)
{
    return goal_stuck_sign(S->r) * (MATE - ply);
}
/* The static score of n for its side to move (marks the iteration's horizon as reached). */
static inline int static_score(Search *S, const Node *n)
{
    S->horizon = 1;
    return evaluate(S->ev, node_white(n), node_black(n), n->kings, n->side);
}

#endif
