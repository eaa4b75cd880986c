/* The search: iterative deepening over a negamax alpha-beta search with PVS, aspiration
 * windows, time and node limits, a stop flag, multi-PV, and the principal variation of every
 * line (damiera/engine/search.py documents each technique and why it is there).
 *
 * search_run is the one entry: a position, the game's earlier positions (for repetitions and
 * the draw rule) and the limits; it reports every finished iteration to a callback and fills
 * a SearchResult. root.c holds the deepening and the root, search.c the tree below it.
 */
#ifndef DAMIERA_SEARCH_H
#define DAMIERA_SEARCH_H

#include <stdatomic.h>
#include <stdint.h>

#include "egdb.h"
#include "eval.h"
#include "hash.h"
#include "movegen.h"
#include "tt.h"

/* A won position scores MATE less the plies to the win; beyond MATE_BOUND scores are wins or
 * losses in a known number of plies. */
#define MATE 1000000
#define MATE_BOUND (MATE - 10000)
#define INF (MATE + 1)
/* Deepest ply of the tree (quiescence included); iterations stop 10 plies before it. */
#define MAX_PLY 200
/* Longest principal variation kept, in moves. */
#define PV_MAX 128
/* Half-width of the root's aspiration window (centi-men) from ASPIRATION_DEPTH on. */
#define ASPIRATION_WINDOW 20
#define ASPIRATION_DEPTH 4
/* Share of the movetime at which the search stops (the rest covers the last nodes and
 * returning the move); no new iteration starts after NEW_ITERATION_SHARE of it. */
#define DEADLINE_SHARE 0.97
#define NEW_ITERATION_SHARE 0.9
/* Most legal moves a node searches (never met in play). */
#define MAX_NODE_MOVES 256

/* Asked every 16,384 nodes; nonzero stops the search (Ctrl-C). */
typedef int (*search_poll)(void *ctx);

typedef struct {
    int depth;        /* deepest iteration, plies (0: no limit but the others) */
    double movetime;  /* seconds for the whole search (0: no clock) */
    long long nodes;  /* node budget of the whole search (0: none) */
    int root_scores;  /* score every root move with a full window (multi-PV) */
} Limits;

/* Switches of the techniques (all on in play; tests turn some off). */
typedef struct {
    int threat_extension;  /* one more ply at the horizon when the side not to move threatens */
    int reduce_sacrifices; /* late-move reductions also of moves that leave a capture */
    int prune_late_moves;  /* late-move and futility pruning near the leaves */
    int probcut;           /* the ProbCut-style cut */
} Options;

/* One line: a root move (index into the sorted root moves), its score, and the moves of its
 * principal variation after it, each an index into the generator's (unsorted) list of its
 * position. */
typedef struct {
    int move, score, len; /* len: moves in the line, the root move included */
    uint8_t next[PV_MAX];  /* next[i]: the (i+1)-th move's index, i < len - 1 */
} Line;

/* What an iteration reports: depth (0 for a single move played at once), score (centi-men,
 * the side to move's view), nodes and seconds of the whole search so far, the best line, and
 * with root_scores every root move's line, best first (nlines 0 otherwise). */
typedef struct {
    int depth, score;
    long long nodes;
    double seconds;
    const Line *best;
    const Line *lines;
    int nlines;
} Report;

/* Called after every finished iteration (and once for an unfinished one that found a better
 * move); nonzero stops the search (a caller's error). */
typedef int (*report_fn)(void *ctx, const Report *report);

typedef struct {
    int has_move;   /* 0: the side to move has no legal move (score -MATE, or MATE under the
                       losing rule) */
    int depth;      /* last finished iteration (see Report) */
    int score;
    long long nodes;
    double seconds;
    Line best;
    int nscores;    /* with root_scores: every root move of the last finished iteration */
    int *score_moves, *scores; /* best first (sorted root indices and their scores) */
} SearchResult;

typedef struct Search Search;

/* A search for r's rules with evaluation ev (both must outlive it) and a transposition table
 * of about tt_entries entries. NULL when out of memory. */
Search *search_new(const Rules *r, const Eval *ev, uint64_t tt_entries);
void search_free(Search *s);
/* The endgame database probed at every interior node (NULL: none); for the same rules. */
void search_set_egdb(Search *s, const Egdb *db);
/* Forget the table and the move-ordering history (a new game). */
void search_clear(Search *s);
uint64_t search_tt_used(const Search *s);
/* Ask the running search to stop (any thread): it returns its best move within a few hundred
 * nodes. The request stands until search_clear_stop: a caller clears it before a search_run
 * at a point where no request can be meant for that search. */
void search_stop(Search *s);
void search_clear_stop(Search *s);

/* Search pos (history: the game's positions before it, oldest first, nhistory of them; pos
 * itself may end it). poll (may be NULL) is asked every 16,384 nodes, report (may be NULL)
 * after every iteration. Fills out (free it with search_result_free). Returns 0, 1 when
 * poll or report stopped the search (out then holds the best so far), -1 when out of memory. */
int search_run(Search *s, const Node *pos, const Node *history, int nhistory,
               const Limits *limits, const Options *options, search_poll poll, void *poll_ctx,
               report_fn report, void *report_ctx, SearchResult *out);
void search_result_free(SearchResult *out);
/* The moves of a line of the last search_run (or its reports): at most cap, returns how many. */
int search_line_moves(const Search *s, const Line *line, CMove *out, int cap);
/* The root moves of the last search_run, sorted in notation order (what Line.move indexes). */
const CMove *search_root_moves(const Search *s, int *count);

/* The plies since the last irreversible move and since the last progress (capture or
 * promotion) at the end of the game's positions (oldest first). */
void history_state(const Node *positions, int n, int *reversible, int *quiet);

#endif
