/* The deepening and the root (search.h): iterative deepening from depth 1, aspiration windows
 * around the previous score, the root moves ordered by the previous iteration's scores, the
 * clock and the node budget between iterations, a game clock shared out (time_allocate) and
 * the time stretched or cut by how the iterations go (time_target), every root move scored in
 * full for multi-PV, and the lines reported. Depth 1 is always finished (only a stop request
 * ends it), so the move played is searched.
 */
#include "tree.h"

#include <stdlib.h>
#include <string.h>

#define NEVER 1e300

Search *search_new(const Rules *r, const Eval *ev, uint64_t tt_entries)
{
    Search *S = calloc(1, sizeof *S);
    if (!S)
        return NULL;
    S->r = r;
    S->ev = ev;
    keys_init(&S->keys);
    S->pv_table = calloc(PV_TABLE_SIZE, sizeof *S->pv_table);
    if (!S->pv_table || tt_init(&S->tt, tt_entries) < 0) {
        free(S->pv_table);
        free(S);
        return NULL;
    }
    atomic_init(&S->stop, 0);
    S->opt = (Options){1, 1, 1, 1};
    return S;
}

void search_free(Search *S)
{
    if (!S)
        return;
    tt_free(&S->tt);
    free(S->pv_table);
    free(S->hashes);
    for (int i = 0; i < MAX_PLY + 8; i++)
        movelist_free(&S->lists[i]);
    movelist_free(&S->root_moves);
    free(S->lines);
    free(S);
}

void search_set_egdb(Search *S, const Egdb *db) { S->egdb = db; }

void search_clear(Search *S)
{
    tt_clear(&S->tt);
    memset(S->pv_table, 0, PV_TABLE_SIZE * sizeof *S->pv_table);
    memset(S->history, 0, sizeof S->history);
}

uint64_t search_tt_used(const Search *S) { return tt_used(&S->tt); }

void search_stop(Search *S) { atomic_store(&S->stop, 1); }

void search_clear_stop(Search *S) { atomic_store(&S->stop, 0); }

void history_state(const Node *p, int n, int *reversible, int *quiet)
{
    int rev = 0, q = 0, rev_done = 0;
    for (int i = n - 1; i > 0; i--) {
        if (step_is_progress(&p[i - 1], &p[i]))
            break;
        q++;
        if (!rev_done) {
            if (step_is_irreversible(&p[i - 1], &p[i]))
                rev_done = 1;
            else
                rev++;
        }
    }
    *reversible = rev;
    *quiet = q;
}

/* ---------------------------------------------------------------------------------------- */
/* One root iteration */

typedef struct {
    int best, score;           /* the best move (root index) and its score */
    int partial, partial_score; /* the best move that beat the window's alpha, or -1 */
    int searched, aborted;     /* root moves finished; the iteration was cut */
} RootOut;

static int same_move(const CMove *a, const CMove *b)
{
    return a->start == b->start && a->end == b->end && a->captured == b->captured &&
           a->ncap == b->ncap && memcmp(a->path, b->path, (size_t)path_len(a)) == 0;
}

/* Search the root moves order[0..count) at depth in (alpha, beta) (every move in the full
 * window with full_window), their scores in S->scores, their lines in S->lines. */
static RootOut root_iteration(Search *S, const int *order, int count, int *scores, int depth,
                              int quiet, int full_window, int alpha, int beta, double deadline,
                              long long max_nodes)
{
    const Node *n = &S->root;
    uint64_t h = hash_node(&S->keys, n);
    int alpha0 = alpha, ext = S->root_moves.n == 1;
    RootOut out = {order[0], -INF, -1, 0, 0, 0};
    S->deadline = deadline;
    S->max_nodes = max_nodes;
    S->aborted = S->interrupted = 0;
    for (int i = 0; i < count; i++) {
        const CMove *m = &S->root_moves.m[order[i]];
        Node c;
        child_of(n, m, &c);
        uint64_t ch = hash_child(&S->keys, h, m, n->side);
        S->hashes[S->nhashes++] = ch;
        int child_rep = move_is_irreversible(m) ? S->nhashes - 1 : 0;
        int child_quiet = move_is_progress(m) ? 0 : quiet + 1;
        int score;
        if (i == 0 || full_window) {
            score = -search_node(S, &c, ch, depth - 1 + ext, -beta, -alpha, 1, child_rep,
                                 child_quiet);
        } else {
            score = -search_node(S, &c, ch, depth - 1 + ext, -alpha - 1, -alpha, 1, child_rep,
                                 child_quiet);
            if (!S->aborted && score > alpha)
                score = -search_node(S, &c, ch, depth - 1 + ext, -beta, -alpha, 1, child_rep,
                                     child_quiet);
        }
        S->nhashes--;
        if (S->aborted)
            break;
        Line *line = &S->lines[order[i]];
        line->move = order[i];
        line->score = score;
        line->len = 1 + (S->pv_len[1] < PV_MAX - 1 ? S->pv_len[1] : PV_MAX - 1);
        memcpy(line->next, S->pv[1], (size_t)(line->len - 1));
        scores[i] = score;
        out.searched = i + 1;
        if (score > out.score) {
            out.score = score;
            out.best = order[i];
            if (score > alpha0) {
                out.partial = out.best;
                out.partial_score = score;
            }
            if (score > alpha && !full_window) {
                alpha = score;
                if (score >= beta)
                    break;
            }
        }
    }
    out.aborted = S->aborted;
    if (!S->aborted && ((alpha0 < out.score && out.score < beta) || full_window)) {
        /* The root's entry: its best move as the generator lists it (unsorted). */
        MoveList *raw = &S->lists[0];
        int idx = TT_NO_MOVE;
        if (gen_legal(S->r, n->own, n->opp, n->kings, n->side, raw) == 0)
            for (int i = 0; i < raw->n && i < TT_NO_MOVE; i++)
                if (same_move(&raw->m[i], &S->root_moves.m[out.best])) {
                    idx = i;
                    break;
                }
        tt_store(&S->tt, h, depth, out.score, TT_EXACT, idx);
    }
    return out;
}

/* A root iteration inside an aspiration window around the previous iteration's score, widened
 * to the full window on the side it fails (never when every root move needs an exact score,
 * nor near a forced result). */
static RootOut aspirate(Search *S, const int *order, int count, int *scores, int depth,
                        int quiet, int full_window, int previous, double deadline,
                        long long max_nodes)
{
    if (full_window || depth < ASPIRATION_DEPTH || abs(previous) >= MATE_BOUND)
        return root_iteration(S, order, count, scores, depth, quiet, full_window, -INF, INF,
                              deadline, max_nodes);
    int alpha = previous - ASPIRATION_WINDOW, beta = previous + ASPIRATION_WINDOW;
    for (;;) {
        RootOut out = root_iteration(S, order, count, scores, depth, quiet, 0, alpha, beta,
                                     deadline, max_nodes);
        if (out.aborted)
            return out;
        if (out.score <= alpha)
            alpha = -INF;
        else if (out.score >= beta)
            beta = INF;
        else
            return out;
    }
}

/* ---------------------------------------------------------------------------------------- */
/* Lines */

/* The root move and the first `upto` - 1 moves that follow it in line, into out[0..upto);
 * -1 when the line does not replay. */
static int replay(const Search *S, const Line *line, int upto, MoveList *scratch, CMove *out)
{
    Node at = S->root, c;
    const CMove *m = &S->root_moves.m[line->move];
    for (int i = 0;; i++) {
        out[i] = *m;
        if (i + 1 >= upto)
            break;
        child_of(&at, m, &c);
        at = c;
        if (gen_legal(S->r, at.own, at.opp, at.kings, at.side, scratch) < 0 ||
            line->next[i] >= scratch->n)
            return -1;
        m = &scratch->m[line->next[i]];
    }
    return 0;
}

/* The line cut to depth moves, or followed from the table's best moves up to depth where the
 * search's own line ends (a table cutoff, a draw, the database), stopping after a move that
 * repeats a position of the line. */
static void finish_line(Search *S, Line *line, int depth)
{
    if (depth > PV_MAX)
        depth = PV_MAX;
    if (line->len > depth)
        line->len = depth;
    MoveList *l = &S->lists[0];
    uint64_t seen[PV_MAX + 1];
    Node n = S->root, c;
    uint64_t h = hash_node(&S->keys, &n);
    int nseen = 0, repeated = 0, known = line->len;
    const CMove *m = &S->root_moves.m[line->move];
    for (int i = 0;; i++) {
        seen[nseen++] = h;
        h = hash_child(&S->keys, h, m, n.side);
        child_of(&n, m, &c);
        n = c;
        for (int k = 0; k < nseen; k++)
            repeated |= seen[k] == h;
        line->len = i + 1;
        if (repeated || i + 1 >= depth)
            break;
        int idx;
        if (i + 1 < known) {
            idx = line->next[i];
        } else {
            const TTEntry *te = tt_probe(&S->tt, h);
            if (!te || te->best == TT_NO_MOVE)
                break;
            idx = te->best;
        }
        if (gen_legal(S->r, n.own, n.opp, n.kings, n.side, l) < 0 || idx >= l->n)
            break;
        line->next[i] = (uint8_t)idx;
        m = &l->m[idx];
    }
}

int search_line_moves(const Search *S, const Line *line, CMove *out, int cap)
{
    MoveList scratch = {0};
    int len = line->len < cap ? line->len : cap;
    if (len > 0 && replay(S, line, len, &scratch, out) < 0)
        len = 0;
    movelist_free(&scratch);
    return len;
}

const CMove *search_root_moves(const Search *S, int *count)
{
    *count = S->root_moves.n;
    return S->root_moves.m;
}

/* ---------------------------------------------------------------------------------------- */
/* Time */

TimeBudget time_allocate(double remaining, double increment, int moves_to_go, int ply)
{
    double usable = remaining * (1.0 - TIME_SAFETY) - TIME_OVERHEAD;
    double uncovered = TIME_OVERHEAD - (1.0 - INCREMENT_SHARE) * (increment > 0 ? increment : 0.0);
    if (uncovered > 0) {
        int later = moves_to_go > 0 && moves_to_go - 1 < RESERVE_MOVES ? moves_to_go - 1
                                                                         : RESERVE_MOVES;
        usable -= uncovered * later;
    }
    if (!(usable >= MIN_THINK)) /* NaN too */
        usable = MIN_THINK;
    int horizon = moves_to_go;
    if (horizon <= 0) {
        int own = (ply > 0 ? ply : 0) / 2;
        horizon = MOVES_LEFT_START - own / 2;
        if (horizon < MOVES_LEFT_MIN)
            horizon = MOVES_LEFT_MIN;
    }
    double inc = increment > 0 ? INCREMENT_SHARE * increment : 0.0;
    double share = usable / horizon + inc;
    double cap = horizon == 1 ? usable : HARD_SHARE * usable + inc;
    if (cap > usable)
        cap = usable;
    TimeBudget b = {SOFT_SHARE * share, HARD_FACTOR * share};
    if (b.hard > cap)
        b.hard = cap;
    if (b.soft > b.hard)
        b.soft = b.hard;
    if (b.hard < MIN_THINK)
        b.soft = b.hard = MIN_THINK;
    else if (b.soft < MIN_THINK)
        b.soft = MIN_THINK;
    return b;
}

double time_target(const TimeBudget *b, int stable, int changed, int dropped, int margin)
{
    double t = b->soft;
    if (changed)
        t *= CHANGED_FACTOR;
    if (dropped)
        t *= DROP_FACTOR;
    if (!changed && !dropped && stable >= EASY_ITERATIONS && margin >= EASY_MARGIN)
        t *= EASY_SHARE;
    return t < b->hard ? t : b->hard;
}

/* Seconds from the start at which a running iteration is cut: the hard bound, and with a game
 * clock CUT_FACTOR times the current target when that is sooner. */
static double iteration_cut(const TimeBudget *b, int clocked, double target)
{
    double cut = clocked ? CUT_FACTOR * target : NEVER;
    return cut < b->hard ? cut : b->hard;
}

/* ---------------------------------------------------------------------------------------- */
/* The deepening */

/* Stable sort of idx[0..n) by key[idx] descending. */
static void sort_by_score(int *idx, int n, const int *key)
{
    for (int i = 1; i < n; i++) {
        int x = idx[i], j = i - 1;
        while (j >= 0 && key[idx[j]] < key[x]) {
            idx[j + 1] = idx[j];
            j--;
        }
        idx[j + 1] = x;
    }
}

typedef struct {
    Search *S;
    report_fn report;
    void *ctx;
    double start;
} Reporter;

static int say(Reporter *rp, int depth, int score, const Line *best, const Line *lines,
               int nlines)
{
    if (!rp->report)
        return 0;
    Report r = {depth, score, rp->S->nodes, wall_clock() - rp->start, best, lines, nlines};
    return rp->report(rp->ctx, &r);
}

static int prepare(Search *S, const Node *pos, const Node *history, int nhistory, int *quiet)
{
    int n = nhistory;
    const Node *last = n ? &history[n - 1] : NULL;
    int same = last && last->own == pos->own && last->opp == pos->opp &&
               last->kings == pos->kings && last->side == pos->side;
    Node *all = malloc(sizeof(Node) * (size_t)(n + 1));
    if (!all)
        return -1;
    memcpy(all, history, sizeof(Node) * (size_t)n);
    if (!same)
        all[n++] = *pos;
    int rev;
    history_state(all, n, &rev, quiet);
    int cap = rev + 1 + MAX_PLY + 16;
    if (cap > S->hashes_cap) {
        uint64_t *h = realloc(S->hashes, sizeof(uint64_t) * (size_t)cap);
        if (!h) {
            free(all);
            return -1;
        }
        S->hashes = h;
        S->hashes_cap = cap;
    }
    S->nhashes = 0;
    for (int i = n - 1 - rev; i < n; i++)
        S->hashes[S->nhashes++] = hash_node(&S->keys, &all[i]);
    free(all);
    for (int a = 0; a < MAX_BITS; a++)
        for (int b = 0; b < MAX_BITS; b++)
            S->history[a][b] /= 8;
    memset(S->killers, 0, sizeof S->killers);
    S->nodes = 0;
    S->root = *pos;
    if (gen_legal(S->r, pos->own, pos->opp, pos->kings, pos->side, &S->root_moves) < 0)
        return -1;
    sort_moves(S->r, S->root_moves.m, S->root_moves.n);
    if (S->root_moves.n > S->lines_cap) {
        Line *l = realloc(S->lines, sizeof(Line) * (size_t)S->root_moves.n);
        if (!l)
            return -1;
        S->lines = l;
        S->lines_cap = S->root_moves.n;
    }
    return 0;
}

int search_run(Search *S, const Node *pos, const Node *history, int nhistory,
               const Limits *lim, const Options *opt, search_poll poll, void *poll_ctx,
               report_fn report, void *report_ctx, SearchResult *out)
{
    Reporter rp = {S, report, report_ctx, wall_clock()};
    int quiet;
    memset(out, 0, sizeof *out);
    S->opt = *opt;
    S->cpu_clock = lim->cpu_clock;
    double start = search_clock(S);
    S->poll = poll;
    S->poll_ctx = poll_ctx;
    if (prepare(S, pos, history, nhistory, &quiet) < 0)
        return -1;
    tt_new_search(&S->tt);
    if (lim->resting_king) { /* the resting king's quiet moves leave the root (sorted kept) */
        int kept = 0, rest = lim->resting_king - 1;
        for (int i = 0; i < S->root_moves.n; i++) {
            const CMove *m = &S->root_moves.m[i];
            if (m->ncap || m->start != rest)
                S->root_moves.m[kept++] = *m;
        }
        S->root_moves.n = kept;
    }
    int count = S->root_moves.n;
    if (count == 0) {
        out->score = stuck_score(S, 0);
        out->seconds = wall_clock() - rp.start;
        return 0;
    }
    out->has_move = 1;
    int *order = malloc(sizeof(int) * (size_t)count * 4);
    if (!order)
        return -1;
    int *scores = order + count, *rank = scores + count, *sorted = rank + count;
    int stopped = 0, best = 0, best_score = -INF, done_depth = 0, nscores = 0;
    Line best_line = {0, 0, 1, {0}};
    for (int i = 0; i < count; i++)
        order[i] = i;
    /* The move's time on the search clock from start: no new iteration after budget.soft
     * (with a game clock, time_target moves it by how the deepening goes), cut at
     * budget.hard (with a game clock, at CUT_FACTOR times the target if sooner); a movetime
     * bounds both. */
    int clocked = lim->remaining > 0;
    TimeBudget budget = {NEVER, NEVER};
    if (clocked)
        budget = time_allocate(lim->remaining, lim->increment, lim->moves_to_go, lim->ply);
    if (lim->movetime > 0) {
        if (DEADLINE_SHARE * lim->movetime < budget.hard)
            budget.hard = DEADLINE_SHARE * lim->movetime;
        if (NEW_ITERATION_SHARE * lim->movetime < budget.soft)
            budget.soft = NEW_ITERATION_SHARE * lim->movetime;
    }
    int limited = lim->movetime > 0 || lim->nodes > 0 || clocked;
    if (count == 1 && limited && !lim->depth && !lim->root_scores) {
        /* A single legal move under a clock is played at once, scored by a depth-1 search. */
        RootOut r = root_iteration(S, order, 1, scores, 1, quiet, 1, -INF, INF, NEVER, 0);
        best_score = r.score;
        stopped = S->interrupted || say(&rp, 0, best_score, &best_line, NULL, 0);
    } else {
        int max_depth = lim->depth ? lim->depth : MAX_PLY - 10;
        double cut = iteration_cut(&budget, clocked, budget.soft);
        double deadline = cut < NEVER ? start + cut : NEVER;
        int stable = 0; /* finished iterations in a row with the same best move */
        for (int d = 1; d <= max_depth; d++) {
            S->horizon = 0;
            RootOut r = aspirate(S, order, count, scores, d, quiet, lim->root_scores, best_score,
                                 d == 1 ? NEVER : deadline, d == 1 ? 0 : lim->nodes);
            if (r.aborted) {
                stopped = S->interrupted;
                /* A move of the unfinished iteration searched in full beats the last finished
                 * iteration's best (every root move after the first is searched against it). */
                if (!stopped && r.partial >= 0 && r.partial != best) {
                    best = r.partial;
                    best_score = r.partial_score;
                    best_line = S->lines[best];
                    finish_line(S, &best_line, d);
                    stopped = say(&rp, d, best_score, &best_line, NULL, 0);
                }
                break;
            }
            int changed = d > 1 && r.best != best;
            int dropped = d > 1 && r.score <= best_score - SCORE_DROP;
            int second = -INF; /* the highest score (a bound) of the other root moves */
            for (int i = 0; i < r.searched; i++)
                if (order[i] != r.best && scores[i] > second)
                    second = scores[i];
            int margin = second > -INF ? r.score - second : 0;
            stable = changed ? 1 : stable + 1;
            best = r.best;
            best_score = r.score;
            done_depth = d;
            nscores = r.searched;
            for (int i = 0; i < count; i++)
                rank[i] = -INF - 1;
            for (int i = 0; i < r.searched; i++) {
                rank[order[i]] = scores[i];
                sorted[i] = order[i];
            }
            sort_by_score(order, count, rank);
            int at = 0; /* the best first */
            while (order[at] != best)
                at++;
            memmove(order + 1, order, sizeof(int) * (size_t)at);
            order[0] = best;
            /* Lines best first: by score; equal scores keep the search order, in which the
             * best move comes first. */
            sort_by_score(sorted, nscores, rank);
            best_line = S->lines[best];
            finish_line(S, &best_line, d);
            if (lim->root_scores) {
                for (int i = 0; i < nscores; i++)
                    if (sorted[i] != best)
                        finish_line(S, &S->lines[sorted[i]], d);
                S->lines[best] = best_line;
                Line *view = malloc(sizeof(Line) * (size_t)nscores);
                if (!view) {
                    free(order);
                    return -1;
                }
                for (int i = 0; i < nscores; i++)
                    view[i] = S->lines[sorted[i]];
                stopped = say(&rp, d, best_score, &best_line, view, nscores);
                free(view);
            } else {
                stopped = say(&rp, d, best_score, &best_line, NULL, 0);
            }
            double target = clocked ? time_target(&budget, stable, changed, dropped, margin)
                                    : budget.soft;
            if (clocked)
                deadline = start + iteration_cut(&budget, clocked, target);
            /* !S->horizon: every score of the iteration exact, a deeper one would repeat it
             * (e.g. a position the endgame database holds, drawn: depth 1, not MAX_PLY). */
            if (stopped || !S->horizon ||
                (abs(best_score) > MATE_BOUND && MATE - abs(best_score) <= d) ||
                search_clock(S) - start > target ||
                (lim->nodes && S->nodes >= lim->nodes) || atomic_load(&S->stop))
                break;
        }
    }
    out->best = best_line;
    out->best.move = best;
    out->score = best_score > -INF ? best_score : 0;
    out->depth = done_depth;
    out->nodes = S->nodes;
    out->seconds = wall_clock() - rp.start;
    if (lim->root_scores && nscores) {
        out->score_moves = malloc(sizeof(int) * 2 * (size_t)nscores);
        if (!out->score_moves) {
            free(order);
            return -1;
        }
        out->scores = out->score_moves + nscores;
        out->nscores = nscores;
        for (int i = 0; i < nscores; i++) {
            out->score_moves[i] = sorted[i];
            out->scores[i] = rank[sorted[i]];
        }
    }
    free(order);
    return stopped ? 1 : 0;
}

void search_result_free(SearchResult *out)
{
    free(out->score_moves);
    out->score_moves = out->scores = NULL;
    out->nscores = 0;
}
