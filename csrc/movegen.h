/* The native rules core: bitboards, legal move generation, make, perft, Zobrist keys.
 *
 * Board layout (the same as damiera.rules.geometry, so Python's Position ints are these
 * words): rows r from the top (rank N) to the bottom, the dark square (r, c) has bit
 * r*h + c/2 + r/2 with h = N/2. One ghost bit after every two rows keeps the four diagonal
 * steps at constant offsets and makes a step off the board land on a ghost bit or outside the
 * board: 8x8 uses 35 bits, 10x10 54 bits, both fit a uint64_t.
 *
 * Every rule is a field of Rules, filled from the Python Variant's rule parameters
 * (RULES.md sections 1 and 2); nothing here knows a variant's name.
 */
#ifndef DAMIERA_MOVEGEN_H
#define DAMIERA_MOVEGEN_H

#include <stdint.h>

#define MAX_BITS 64
/* A capture takes at most every enemy piece: 20 on 10x10. */
#define MAX_CAPS 24

enum { UP_LEFT = 0, UP_RIGHT = 1, DOWN_LEFT = 2, DOWN_RIGHT = 3 };
enum {
    CHOICE_FREE = 0,
    CHOICE_MAJORITY = 1,
    CHOICE_ITALIAN = 2,
    CHOICE_MOST_THEN_KINGS = 3,
    CHOICE_KING_PRECEDENCE = 4
};
enum { PROMO_STOP = 0, PROMO_CONTINUE = 1, PROMO_PASS_THROUGH = 2 };

typedef struct {
    uint64_t captured;       /* bitboard of the captured pieces */
    uint64_t captured_kings; /* the captured kings among them */
    uint8_t start, end, ncap, promotes, by_king;
    uint8_t path[MAX_CAPS + 1]; /* start, then every landing square */
    uint8_t caps[MAX_CAPS];     /* captured squares in capture order */
} CMove;

/* Number of set bits: the popcnt instruction where the compiler may use it, else a
 * shift-and-mask count (the generic __builtin_popcountll is a library call without it). */
static inline int popcount64(uint64_t x)
{
#if defined(__POPCNT__) || !defined(__x86_64__)
    return __builtin_popcountll(x);
#else
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

/* Squares on a move's path: the start and every landing (a quiet move: start and end). */
static inline int path_len(const CMove *m) { return m->ncap ? m->ncap + 1 : 2; }

typedef struct {
    CMove *m;
    int n, cap;
} MoveList;

typedef struct {
    int size, half, nbits;
    uint64_t mask;
    uint64_t promo[2]; /* promotion row of side 0 (White: top row) and 1 (Black: bottom) */
    int flying, men_back, men_take_kings, choice, promotion, mandatory;
    int8_t nb[4][MAX_BITS]; /* neighbour in each direction, -1 off the board */
    uint8_t row[MAX_BITS];
    uint16_t rank[MAX_BITS]; /* position of a square in notation order */
    uint64_t zobrist[4][MAX_BITS]; /* white man, white king, black man, black king */
    uint64_t zobrist_side;         /* xored in when Black is to move */
} Rules;

/* Fill the board tables; the rule fields must be set first. Returns 0, or -1 for a size
 * other than 8 or 10. */
int rules_init(Rules *r);

int movelist_reserve(MoveList *l, int n);
void movelist_free(MoveList *l);

/* Legal moves of side (0 White, 1 Black) whose pieces are own: the capture-choice rule
 * applied, equal captures once, quiet moves only without a capture or under optional
 * capture. Unordered. Returns 0, or -1 when out of memory. */
int gen_legal(const Rules *r, uint64_t own, uint64_t opp, uint64_t kings, int side, MoveList *out);
/* Every complete capture sequence before the capture-choice rule (explanations). */
int gen_raw_captures(const Rules *r, uint64_t own, uint64_t opp, uint64_t kings, int side,
                     MoveList *out);
/* Every quiet move (as if no capture existed). */
int gen_quiet(const Rules *r, uint64_t own, uint64_t opp, uint64_t kings, int side, MoveList *out);
/* Sort moves by their paths in notation order (the order legal_moves lists them). */
void sort_moves(const Rules *r, CMove *m, int n);
/* True when side has a capture (bitboard test). */
int has_capture(const Rules *r, uint64_t own, uint64_t opp, uint64_t kings, int side);
/* Number of quiet moves (bulk counting). */
int count_quiet(const Rules *r, uint64_t own, uint64_t opp, uint64_t kings, int side);

/* Make a move: the mover's pieces own, the other side's opp (both updated). */
static inline void make_move(const CMove *m, uint64_t *own, uint64_t *opp, uint64_t *kings)
{
    uint64_t sb = (uint64_t)1 << m->start, eb = (uint64_t)1 << m->end;
    if (*kings & sb)
        *kings = (*kings & ~sb & ~m->captured) | eb;
    else if (m->promotes)
        *kings = (*kings & ~m->captured) | eb;
    else
        *kings &= ~m->captured;
    *own = (*own & ~sb) | eb;
    *opp &= ~m->captured;
}

uint64_t zobrist_hash(const Rules *r, uint64_t white, uint64_t black, uint64_t kings, int side);
/* The hash after m by side (incremental update of h). */
uint64_t zobrist_child(const Rules *r, uint64_t h, const CMove *m, int side);

/* Perft with bulk counting at the last ply. *stop is polled; check(ctx) is called every
 * 2^16 nodes and returns nonzero to stop (then the result is meaningless). */
typedef int (*poll_fn)(void *ctx);
uint64_t perft(const Rules *r, uint64_t own, uint64_t opp, uint64_t kings, int side, int depth,
               poll_fn poll, void *ctx, int *stopped);

#endif
