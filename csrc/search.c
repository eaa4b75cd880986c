/* The tree below the root (tree.h): negamax alpha-beta with PVS, the transposition table,
 * quiescence with the threat extension, hash move / captures / promotions / killers / history
 * ordering, late-move reductions, a ProbCut-style cut, late-move and futility pruning,
 * forced-move extension, repetition and no-progress draws, the endgame database's probe, and
 * the principal variation of every PV node (damiera/engine/search.py documents each).
 * The stop request, the deadline or the node budget ends it within 256 nodes (the deadline
 * on the CPU clock within CPU_CLOCK_NODES); the poll (Ctrl-C) is asked every 16,384 nodes.
 */
#include "tree.h"

#include <string.h>

static inline int popc(board_t x) { return popcount_b(x); }

static int poll_limits(Search *S)
{
    /* The thread's CPU clock costs a system call (microseconds, against tens of nanoseconds
     * for the wall clock): it is read every CPU_CLOCK_NODES nodes only. */
    int read = !S->cpu_clock || (S->nodes & (CPU_CLOCK_NODES - 1)) == 0;
    if (atomic_load_explicit(&S->stop, memory_order_relaxed) ||
        (read && search_clock(S) >= S->deadline) || (S->max_nodes && S->nodes >= S->max_nodes)) {
        S->aborted = 1;
        return 1;
    }
    if ((S->nodes & 16383) == 0 && S->poll && S->poll(S->poll_ctx))
        S->interrupted = S->aborted = 1;
    return S->aborted;
}

static inline int count_node(Search *S)
{
    S->nodes++;
    if (S->aborted)
        return 1;
    if ((S->nodes & 255) == 0)
        return poll_limits(S);
    return 0;
}

static int gen(Search *S, const Node *n, int ply)
{
    MoveList *l = &S->lists[ply];
    if (gen_legal(S->r, n->own, n->opp, n->kings, n->side, l) < 0) {
        S->aborted = 1;
        return -1;
    }
    return l->n;
}

static int quiesce(Search *S, const Node *n, int alpha, int beta, int ply, int threat);

static int quiesce_moves(Search *S, const Node *n, const CMove *moves, int count, int best,
                         int alpha, int beta, int ply)
{
    for (int i = 0; i < count; i++) {
        Node c;
        child_of(n, &moves[i], &c);
        int score = -quiesce(S, &c, -beta, -alpha, ply + 1, 0);
        if (S->aborted)
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                if (score >= beta)
                    break;
            }
        }
    }
    return best;
}

static int quiesce(Search *S, const Node *n, int alpha, int beta, int ply, int threat)
{
    if (count_node(S))
        return 0;
    const Rules *r = S->r;
    if (goal_opponent_crowned(r, n))
        return -MATE + ply;
    if (!has_capture(r, n->own, n->opp, n->kings, n->side) || ply >= MAX_PLY) {
        if (r->breakthrough && goal_quiet_promotion(r, n))
            return MATE - ply - 1;
        if (threat && ply < MAX_PLY && has_capture(r, n->opp, n->own, n->kings, 1 - n->side)) {
            int count = gen(S, n, ply);
            if (count < 0)
                return 0;
            if (count == 0)
                return stuck_score(S, ply);
            return quiesce_moves(S, n, S->lists[ply].m, count, -INF, alpha, beta, ply);
        }
        int score = static_score(S, n);
        return score == NO_MOVES ? stuck_score(S, ply) : score;
    }
    int count = gen(S, n, ply);
    if (count < 0)
        return 0;
    CMove *moves = S->lists[ply].m;
    if (!r->mandatory) {
        if (r->breakthrough && goal_quiet_promotion(r, n))
            return MATE - ply - 1;
        int stand = static_score(S, n);
        if (stand == NO_MOVES)
            stand = -INF;
        if (stand >= beta)
            return stand;
        if (stand > alpha)
            alpha = stand;
        int k = 0;
        for (int i = 0; i < count; i++)
            if (moves[i].ncap)
                moves[k++] = moves[i];
        return quiesce_moves(S, n, moves, k, alpha, alpha, beta, ply);
    }
    return quiesce_moves(S, n, moves, count, -INF, alpha, beta, ply);
}

static inline uint16_t quiet_key(const CMove *m) { return (uint16_t)(m->start << 8 | m->end) + 1; }

static void order_moves(Search *S, const CMove *moves, int n, int hash_idx, int ply,
                        uint8_t *order)
{
    int64_t keys[MAX_NODE_MOVES];
    uint16_t k0 = S->killers[ply][0], k1 = S->killers[ply][1];
    for (int i = 0; i < n; i++) {
        const CMove *m = &moves[i];
        int64_t s;
        if (i == hash_idx)
            s = (int64_t)1 << 40;
        else if (m->ncap)
            s = ((int64_t)1 << 30) + ((int64_t)m->ncap << 10) + popc(m->captured_kings);
        else if (m->promotes)
            s = (int64_t)1 << 29;
        else if (quiet_key(m) == k0)
            s = (int64_t)1 << 28;
        else if (quiet_key(m) == k1)
            s = ((int64_t)1 << 28) - 1;
        else
            s = S->history[m->start][m->end];
        keys[i] = s;
        order[i] = (uint8_t)i;
    }
    for (int i = 1; i < n; i++) {
        uint8_t x = order[i];
        int j = i - 1;
        while (j >= 0 && keys[order[j]] < keys[x]) {
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = x;
    }
}


/* Late-move reduction of the k-th move (k >= 3, from 0) at a node of `depth` plies (>= 3): the
 * product of 1 + 2 log2 of each, over 16 (1 ply at depth 3, 2-3 at depth 6-10, up to 5 from
 * depth 12 on), one ply less at PV nodes, at least 1, never below depth 1 for the child. */
static int lmr_reduction(int depth, int k, int pv_node)
{
    static const unsigned char lg[64] = { /* 1 + 2 log2(n) rounded down (0 for 0) */
        0, 1, 3, 4, 5, 5, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8,
        9, 9, 9, 9, 9, 9, 9, 10, 10, 10, 10, 10, 10, 10, 10, 10,
        11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 12, 12,
        12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12};
    int d = depth < 63 ? depth : 63, m = k < 63 ? k : 63;
    int r = lg[d] * lg[m] / 16;
    if (pv_node)
        r--;
    if (r < 1)
        r = 1;
    if (r > depth - 2)
        r = depth - 2;
    return r;
}

/* ProbCut-style cut at non-PV nodes of depth >= 3: a null-window search of the same position at
 * PROBCUT_DEPTH_PCT percent of the depth that still beats beta by PROBCUT_MARGIN centi-men a
 * ply is taken as a fail high (the score less the margin). Not with a king on the board nor
 * with fewer than PROBCUT_MIN_PIECES pieces (endings, where a shallow search misses the
 * tempo fights and the kings' long lines), nor inside its own shallow search, and only where
 * one side or the other can capture: in a quiet position (the opening's long manoeuvres)
 * the shallow search cut one try in four and cost a third of the nodes. */
#define PROBCUT_MARGIN 10
#define PROBCUT_DEPTH_PCT 40
#define PROBCUT_MIN_PIECES 8

/* Late-move and futility pruning at non-PV nodes of depth <= 3 where neither side can capture
 * (no tactics within reach) and no mate score is at stake: a quiet move that is not a killer
 * and leaves the opponent no capture is skipped from the LMP_FROM[depth]-th move on (from 0),
 * or at depth <= 2 when the static score plus FUTILITY_MARGIN centi-men a ply is at most
 * alpha. The first move is always searched. */
#define FUTILITY_MARGIN 120
static const int LMP_FROM[4] = {0, 5, 8, 12};

/* Whether one side or the other can capture in n (ProbCut and the late-move pruning both ask,
 * both at depth 3): computed on the first question and kept in *known (-1: not yet). */
static int capture_near(const Search *S, const Node *n, int *known)
{
    if (*known < 0)
        *known = has_capture(S->r, n->own, n->opp, n->kings, n->side) ||
                 has_capture(S->r, n->opp, n->own, n->kings, 1 - n->side);
    return *known;
}

static int may_prune_node(Search *S, const Node *n, int depth, int alpha, int beta,
                          int pv_node, int *near)
{
    return S->opt.prune_late_moves && !pv_node && depth <= 3 && alpha > -MATE_BOUND &&
           beta < MATE_BOUND && !capture_near(S, n, near);
}

static int prune_move(Search *S, const Node *n, const CMove *m, int k, int depth,
                      int alpha, int stand, int ply)
{
    if (k == 0 || m->ncap || m->promotes || quiet_key(m) == S->killers[ply][0] ||
        quiet_key(m) == S->killers[ply][1])
        return 0;
    if (k < LMP_FROM[depth] && !(depth <= 2 && stand + FUTILITY_MARGIN * depth <= alpha))
        return 0;
    Node c;
    child_of(n, m, &c);
    if (has_capture(S->r, c.own, c.opp, c.kings, c.side))
        return 0;
    S->horizon = 1; /* a move left out: the node's score is no longer exact */
    return 1;
}

/* Search one child (the PVS and reduction logic of an interior node). */
static int search_child(Search *S, const Node *n, const CMove *m, uint64_t h, int k,
                        int depth, int alpha, int beta, int ply, int rep_start, int quiet,
                        int pv_node)
{
    Node c;
    child_of(n, m, &c);
    uint64_t ch = hash_child(&S->keys, h, m, n->side);
    int progress = move_is_progress(m);
    S->hashes[S->nhashes++] = ch;
    int child_rep = move_is_irreversible(m) ? S->nhashes - 1 : rep_start;
    int child_quiet = progress ? 0 : quiet + 1;
    int score;
    if (k == 0) {
        score = -search_node(S, &c, ch, depth - 1, -beta, -alpha, ply + 1, child_rep, child_quiet);
    } else {
        int reduction = 0;
        if (depth >= 3 && k >= 3 && !progress && quiet_key(m) != S->killers[ply][0] &&
            quiet_key(m) != S->killers[ply][1] &&
            (S->opt.reduce_sacrifices || !has_capture(S->r, c.own, c.opp, c.kings, c.side)))
            reduction = lmr_reduction(depth, k, pv_node);
        score = -search_node(S, &c, ch, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1,
                             child_rep, child_quiet);
        if (!S->aborted && score > alpha && reduction)
            score = -search_node(S, &c, ch, depth - 1, -alpha - 1, -alpha, ply + 1, child_rep,
                                 child_quiet);
        if (!S->aborted && alpha < score && score < beta)
            score = -search_node(S, &c, ch, depth - 1, -beta, -alpha, ply + 1, child_rep,
                                 child_quiet);
    }
    S->nhashes--;
    return score;
}

/* The line below the node at ply: its move idx, then the child's line. */
static void pv_update(Search *S, int ply, int idx)
{
    if (ply >= PV_MAX)
        return;
    int len = ply + 1 < PV_MAX ? S->pv_len[ply + 1] : 0;
    if (len > PV_MAX - 1)
        len = PV_MAX - 1;
    S->pv[ply][0] = (uint8_t)idx;
    memcpy(&S->pv[ply][1], S->pv[ply + 1], (size_t)len);
    S->pv_len[ply] = len + 1;
}

/* The line below a PV node that the table's exact entry cut: the line its search found, kept
 * in the table of lines, or else the table's best moves from it, read now (at most depth
 * moves; the walk stops at a missing entry or a repeated position). */
static void pv_from_table(Search *S, const Node *n, uint64_t h, int ply, int depth)
{
    if (ply >= PV_MAX)
        return;
    int len = 0, cap = depth < PV_MAX - ply ? depth : PV_MAX - ply;
    const struct PvEntry *kept = &S->pv_table[h & (PV_TABLE_SIZE - 1)];
    if (kept->key == h && kept->len > 0) {
        len = kept->len < cap ? kept->len : cap;
        memcpy(S->pv[ply], kept->line, (size_t)len);
        S->pv_len[ply] = len;
        return;
    }
    MoveList *l = &S->lists[MAX_PLY + 7];
    uint64_t seen[PV_MAX];
    Node at = *n, c;
    while (len < cap) {
        for (int k = 0; k < len; k++)
            if (seen[k] == h)
                goto done;
        seen[len] = h;
        const TTEntry *te = tt_probe(&S->tt, h);
        if (!te || te->best == TT_NO_MOVE ||
            gen_legal(S->r, at.own, at.opp, at.kings, at.side, l) < 0 || te->best >= l->n)
            break;
        const CMove *m = &l->m[te->best];
        S->pv[ply][len++] = te->best;
        h = hash_child(&S->keys, h, m, at.side);
        child_of(&at, m, &c);
        at = c;
    }
done:
    S->pv_len[ply] = len;
}

int search_node(Search *S, const Node *n, uint64_t h, int depth, int alpha, int beta, int ply,
                int rep_start, int quiet)
{
    if (ply < PV_MAX)
        S->pv_len[ply] = 0;
    if (count_node(S))
        return 0;
    if (goal_opponent_crowned(S->r, n))
        return -MATE + ply;
    if (quiet >= S->r->draw_plies)
        return 0;
    for (int i = S->nhashes - 3; i >= rep_start; i -= 2)
        if (S->hashes[i] == h)
            return 0;
    if (S->egdb && !S->r->losing && !S->r->breakthrough &&
        popc(n->own | n->opp) <= S->egdb->pieces) {
        /* Endgame database (egdb.h): exact, a win or loss only if the no-progress rule
         * cannot cut it before the end (quiet + plies below its limit). */
        int plies, res = egdb_probe(S->egdb, n->own, n->opp, n->kings, n->side, &plies);
        if (res == EGDB_DRAW)
            return 0;
        if (res != EGDB_UNKNOWN && quiet + plies < S->r->draw_plies)
            return res == EGDB_WIN ? MATE - ply - plies : -MATE + ply + plies;
    }
    if (depth <= 0 || ply >= MAX_PLY)
        return quiesce(S, n, alpha, beta, ply, S->opt.threat_extension);
    const TTEntry *te = tt_probe(&S->tt, h);
    int hash_idx = -1;
    if (te) {
        hash_idx = te->best == TT_NO_MOVE ? -1 : te->best;
        if (te->depth >= depth) {
            int s = te->score;
            S->horizon = 1; /* (an exact entry too: it may rest on the evaluation) */
            if (s > MATE_BOUND)
                s -= ply;
            else if (s < -MATE_BOUND)
                s += ply;
            if (te->flag == TT_EXACT) {
                if (beta - alpha > 1)
                    pv_from_table(S, n, h, ply, depth);
                return s;
            }
            if (te->flag == TT_LOWER) {
                if (s >= beta)
                    return s;
            } else if (s <= alpha)
                return s;
        }
    }
    int pv_node = beta - alpha > 1, near = -1;
    if (S->opt.probcut && !pv_node && !S->in_probcut && depth >= 3 && beta < MATE_BOUND &&
        beta > -MATE_BOUND && !n->kings && popc(n->own | n->opp) >= PROBCUT_MIN_PIECES &&
        capture_near(S, n, &near)) {
        int margin = PROBCUT_MARGIN * depth, cut = beta + margin;
        S->in_probcut = 1;
        int s = search_node(S, n, h, depth * PROBCUT_DEPTH_PCT / 100, cut - 1, cut, ply, rep_start,
                       quiet);
        S->in_probcut = 0;
        if (S->aborted)
            return 0;
        if (s >= cut) {
            S->horizon = 1; /* a cut by a shallower search, not an exact score */
            return s - margin;
        }
        te = tt_probe(&S->tt, h);
        if (te) /* the shallow search's best move, first in the order */
            hash_idx = te->best == TT_NO_MOVE ? -1 : te->best;
    }
    int count = gen(S, n, ply);
    if (count < 0)
        return 0;
    if (count == 0)
        return stuck_score(S, ply);
    CMove *moves = S->lists[ply].m;
    uint8_t order[MAX_NODE_MOVES];
    if (count > MAX_NODE_MOVES) {
        count = MAX_NODE_MOVES;
        S->horizon = 1; /* moves left out */
    }
    if (count == 1) {
        depth++;
        order[0] = 0;
    } else {
        order_moves(S, moves, count, hash_idx, ply, order);
    }
    int alpha0 = alpha, best_score = -INF, best_idx = order[0];
    int prune = count > 1 && may_prune_node(S, n, depth, alpha, beta, pv_node, &near);
    int stand = prune && depth <= 2 ? static_score(S, n) : INF;
    if (stand == NO_MOVES)
        prune = 0;
    for (int k = 0; k < count; k++) {
        const CMove *m = &moves[order[k]];
        if (prune && prune_move(S, n, m, k, depth, alpha, stand, ply))
            continue;
        int score = search_child(S, n, m, h, k, depth, alpha, beta, ply, rep_start, quiet, pv_node);
        if (S->aborted)
            return 0;
        moves = S->lists[ply].m; /* (the list is not reallocated below this ply, but be safe) */
        if (score > best_score) {
            best_score = score;
            best_idx = order[k];
            if (score > alpha) {
                alpha = score;
                if (pv_node)
                    pv_update(S, ply, order[k]);
                if (score >= beta) {
                    if (!m->ncap) {
                        S->killers[ply][1] = S->killers[ply][0];
                        S->killers[ply][0] = quiet_key(m);
                        S->history[m->start][m->end] += depth * depth;
                    }
                    break;
                }
            }
        }
    }
    int flag = best_score >= beta ? TT_LOWER : best_score > alpha0 ? TT_EXACT : TT_UPPER;
    int stored = best_score;
    if (stored > MATE_BOUND)
        stored += ply;
    else if (stored < -MATE_BOUND)
        stored -= ply;
    tt_store(&S->tt, h, depth, stored, flag, best_idx);
    if (flag == TT_EXACT && ply < PV_MAX) {
        struct PvEntry *keep = &S->pv_table[h & (PV_TABLE_SIZE - 1)];
        keep->key = h;
        keep->len = S->pv_len[ply];
        memcpy(keep->line, S->pv[ply], (size_t)keep->len);
    }
    return best_score;
}

