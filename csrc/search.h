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
_Static_assert(EVAL_LIMIT + EVAL_TEMPO < MATE_BOUND, "a static score must never read as a mate");
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
/* A game clock's sharing out (time_allocate): never planned, a share of the clock and the
 * seconds a move costs outside the search (returning it, the caller's work); the fewest
 * seconds planned; own moves assumed left at the start of a game without moves to go (one
 * fewer every two own moves played) and never fewer; the share of the increment counted on. */
#define TIME_SAFETY 0.05
#define TIME_OVERHEAD 0.03
#define MIN_THINK 0.001
#define MOVES_LEFT_START 30
#define MOVES_LEFT_MIN 15
#define INCREMENT_SHARE 0.8
/* What the increment does not cover of a move's overhead (TIME_OVERHEAD less the share of the
 * increment not counted on) is kept back for each move still to come: the moves to go after
 * this one, at most RESERVE_MOVES, or RESERVE_MOVES when not known. Without it a clock spent
 * by a share a move shrinks geometrically, and a long sudden-death game (100 own moves and
 * more in International) runs it down to the overhead and loses on time. */
#define RESERVE_MOVES 30
/* soft: this share of a move's even share of the clock; hard: this many even shares, at most
 * HARD_SHARE of the usable clock (plus the increment's share). An iteration started before
 * the target (time_target) is cut at CUT_FACTOR times it (at most hard): an iteration costs
 * about as much as all the earlier ones together, or more, and an unfinished one still
 * counts when it found a better move. */
#define SOFT_SHARE 0.6
#define HARD_FACTOR 4.0
#define HARD_SHARE 0.3
#define CUT_FACTOR 2.0
/* time_target: an easy move (the same best move for EASY_ITERATIONS iterations, EASY_MARGIN
 * centi-men clear of the others' bounds, no drop) stops at EASY_SHARE of soft; a best move
 * that changed, or a score that fell by SCORE_DROP centi-men or more, stretches soft by
 * CHANGED_FACTOR, DROP_FACTOR (both: their product), up to hard. */
#define EASY_ITERATIONS 6
#define EASY_MARGIN 50
#define EASY_SHARE 0.4
#define SCORE_DROP 30
#define CHANGED_FACTOR 1.8
#define DROP_FACTOR 1.6
/* Most legal moves a node searches (never met in play). */
#define MAX_NODE_MOVES 256

/* Asked every 16,384 nodes; nonzero stops the search (Ctrl-C). */
typedef int (*search_poll)(void *ctx);

/* Longest movetime and most time on a game clock the search takes, in seconds. */
#define MAX_MOVETIME 3600.0
#define MAX_CLOCK 360000.0
/* Most moves to go of a game clock, and the most plies already played that it is told. */
#define MAX_MOVES_TO_GO 10000
#define MAX_GAME_PLY 100000

typedef struct {
    int depth;        /* deepest iteration, plies (0: no limit but the others) */
    double movetime;  /* seconds for the whole search (0: no clock) */
    long long nodes;  /* node budget of the whole search (0: none) */
    int root_scores;  /* score every root move with a full window (multi-PV) */
    int cpu_clock;    /* time the search on its thread's CPU time, not on the wall clock */
    /* A game clock (remaining 0: none): seconds left on the side to move's clock, seconds
     * added after each move, moves to play on that time (0: the rest of the game) and plies
     * played so far; time_allocate turns it into this move's time (with movetime too, the
     * lower of the two bounds applies). */
    double remaining, increment;
    int moves_to_go, ply;
    /* 1 + the bit index of a king that may make no quiet move at the root (it made the
     * rules' limit of them in a row: a rule of the game's history, docs/rules.md), 0: none.
     * Only the root knows it; the tree below searches every move the generator gives. */
    int resting_king;
} Limits;

/* A move's time from a game clock, in seconds from the search's start: no new iteration
 * starts after `soft` in an ordinary move (sooner on an easy one, later, up to `hard`, when
 * the best move changed or the score dropped); the search is cut at `hard`. */
typedef struct {
    double soft, hard;
} TimeBudget;

/* Share the clock out: the time usable (the clock less a safety share and the time a move
 * costs outside the search) over the moves to go (or an estimate of the moves left from the
 * plies played), plus most of the increment; hard is a few times that, but at most a share
 * of the usable time (all of it for the last move to go). Pure: the same numbers give the
 * same budget. remaining and increment in seconds (finite, >= 0). */
TimeBudget time_allocate(double remaining, double increment, int moves_to_go, int ply);

/* The time (seconds from the start) after which no new iteration starts, from the budget and
 * how the deepening went: `stable` iterations in a row (the last one included) gave the same
 * best move, `changed`: the last one changed it, `dropped`: its score fell by SCORE_DROP or
 * more, `margin`: centi-men between its best move's score and the highest bound of the
 * others. At most b->hard. Pure. */
double time_target(const TimeBudget *b, int stable, int changed, int dropped, int margin);

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
 * the side to move's view), nodes and seconds (wall-clock, whatever clock the limits are
 * measured on) of the whole search so far, the best line, and
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
