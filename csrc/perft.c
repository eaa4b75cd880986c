/* Perft (perft.h). */
#include "perft.h"

#include <stdlib.h>

#include "movegen.h"

typedef struct {
    const Rules *r;
    poll_fn poll;
    void *ctx;
    int stopped;
    uint32_t count;
    MoveList lists[64];
} PerftCtx;

static uint64_t perft_rec(PerftCtx *p, board_t own, board_t opp, board_t kings, int side,
                          int depth, int ply)
{
    const Rules *r = p->r;
    if (p->stopped)
        return 0;
    if ((++p->count & 0xFFFF) == 0 && p->poll && p->poll(p->ctx)) {
        p->stopped = 1;
        return 0;
    }
    uint64_t total = 0;
    if (depth == 1 && !has_capture(r, own, opp, kings, side))
        return (uint64_t)count_quiet(r, own, opp, kings, side);
    MoveList *l = &p->lists[ply];
    if (gen_legal(r, own, opp, kings, side, l) < 0) {
        p->stopped = 1;
        return 0;
    }
    if (depth == 1)
        return (uint64_t)l->n;
    for (int i = 0; i < l->n; i++) {
        board_t o = own, q = opp, k = kings;
        make_move(&l->m[i], &o, &q, &k);
        total += perft_rec(p, q, o, k, 1 - side, depth - 1, ply + 1);
    }
    return total;
}

uint64_t perft(const Rules *r, const Node *n, int depth, poll_fn poll, void *ctx, int *stopped)
{
    *stopped = 0;
    if (depth <= 0)
        return 1;
    if (depth > 63)
        depth = 63;
    PerftCtx *p = calloc(1, sizeof *p);
    if (!p) {
        *stopped = 1;
        return 0;
    }
    p->r = r;
    p->poll = poll;
    p->ctx = ctx;
    uint64_t count = perft_rec(p, n->own, n->opp, n->kings, n->side, depth, 0);
    *stopped = p->stopped;
    for (int i = 0; i < 64; i++)
        movelist_free(&p->lists[i]);
    free(p);
    return count;
}
