/* The board of one rule set and its positions: the geometry, the rule parameters (Rules), a
 * move (CMove), a position (Node), making a move, and the rules every other unit asks about a
 * move: whether it is progress for the draw rule and whether it can be undone.
 *
 * Board layout (the same as damiera.rules.geometry, so Python's Position ints are these
 * words): rows r from the top (rank N) to the bottom, the dark square (r, c) has bit
 * r*h + c/2 + r/2 with h = N/2. One ghost bit after every two rows keeps the four diagonal
 * steps at constant offsets (-(h+1) up-left, -h up-right, +h down-left, +h+1 down-right) and
 * makes a step off the board land on a ghost bit or outside the board: 8x8 uses 35 bits,
 * 10x10 54 bits, both fit a uint64_t; 12x12 uses 77 bits. With Rules.all_squares (8x8 only)
 * every square plays and (r, c) has bit r*8 + c: 64 bits, no ghost bit, so a step along a row
 * is masked by has_nb (a shift would wrap to the next row) and no mask is ever built as 1 << 64.
 *
 * The board word (board_t): the same sources build twice. The normal build's word is a
 * uint64_t (8x8 and 10x10, as fast as ever); the wide build (-DDAMIERA_WIDE, the module
 * damiera._core_wide and build/core_test_wide) makes it an unsigned __int128 for the boards
 * of more than 64 bits (12x12). rules_init refuses a board whose bits do not fit the word.
 * Every bitboard is a board_t; Zobrist keys and counts stay uint64_t. BIT(s), popcount_b and
 * lowest_bit are the word's single bit, set-bit count and lowest set bit in both builds.
 *
 * Every rule is a field of Rules (RULES.md sections 1 and 2); nothing here knows a variant's
 * name.
 */
#ifndef DAMIERA_POSITION_H
#define DAMIERA_POSITION_H

#include <stdint.h>

/* Most pieces one capture takes, and so most pieces a side may have: a capture takes at most
 * every enemy piece (20 in International's start, 30 on 12x12). position_check refuses more. */
#ifdef DAMIERA_WIDE
__extension__ typedef unsigned __int128 board_t;
#define MAX_BITS 128
#define MAX_CAPS 30
#else
typedef uint64_t board_t;
#define MAX_BITS 64
#define MAX_CAPS 24
#endif
/* Largest board side: 12 (the 12x12 board needs the wide build). */
#define MAX_SIZE 12

/* Directions: the four diagonals, then the four straight lines, each step to the next playing
 * square that way: on the dark squares along a column two rows (2h + 1 bits), along a row two
 * columns (1 bit); with all_squares one row (8 bits) or one column (1 bit). OPPOSITE_DIR(d)
 * is the way back. DIAGONAL_DIRS and STRAIGHT_DIRS are the two groups as bit masks. */
enum { UP_LEFT = 0, UP_RIGHT = 1, DOWN_LEFT = 2, DOWN_RIGHT = 3 };
enum { UP = 4, LEFT = 5, RIGHT = 6, DOWN = 7 };
#define MAX_DIRS 8
#define DIAGONAL_DIRS 0x0Fu
#define STRAIGHT_DIRS 0xF0u
#define OPPOSITE_DIR(d) ((d) < 4 ? 3 - (d) : 11 - (d))
enum {
    CHOICE_FREE = 0,
    CHOICE_MAJORITY = 1,
    CHOICE_ITALIAN = 2,
    CHOICE_MOST_THEN_KINGS = 3,
    CHOICE_KING_PRECEDENCE = 4,
    CHOICE_VALUE = 5 /* the highest value: a king is worth more than one man and less than
                        two (n kings beat 2n - 1 men, lose to 2n); at equal value a king's
                        capture before a man's */
};
enum { PROMO_STOP = 0, PROMO_CONTINUE = 1, PROMO_PASS_THROUGH = 2 };

typedef struct {
    board_t captured;       /* bitboard of the captured pieces */
    board_t captured_kings; /* the captured kings among them */
    uint8_t start, end, ncap, promotes, by_king;
    uint8_t path[MAX_CAPS + 1]; /* start, then every landing square */
    uint8_t caps[MAX_CAPS];     /* captured squares in capture order */
} CMove;

typedef struct {
    /* Rule parameters (set before rules_init). */
    int size;           /* 8, 10 or 12 (12: the wide build only) */
    int flying;         /* kings move and capture any distance */
    int men_back;       /* men capture backwards too */
    int men_take_kings; /* men may capture kings */
    int choice;         /* CHOICE_* */
    int promotion;      /* PROMO_*: a man reaching the far row during a capture */
    int land_behind;    /* a flying king's capture lands on the square right behind the
                           captured piece, never further (it still starts from afar) */
    int remove_at_once; /* each captured piece leaves the board as it is jumped: its square is
                           empty for the rest of the move, so the piece may turn back over it
                           (0: the Turkish strike, all removed when the move ends) */
    int orthogonal;     /* men and kings also capture along rows and columns (over the next
                           playing square of the row or column); moves stay diagonal */
    int all_squares;    /* every square of the 8x8 board plays (64 bits), not the dark ones */
    int straight;       /* men and kings move and capture only along rows and columns: men
                           forward and sideways, kings all four ways (needs all_squares) */
    int no_reverse;     /* a capture may not turn straight back between two jumps (matters
                           with remove_at_once, where the square behind is free again) */
    int mandatory;      /* 0 under the optional-capture house rule */
    int losing;         /* the losing rule: no piece or no move on one's turn wins (goal.h) */
    int breakthrough;   /* breakthrough: the first promotion wins (goal.h) */
    int man_rows;       /* rows of men each side starts with */
    int draw_plies;     /* plies without capture or promotion that draw (2 x 40 moves) */
    /* Board tables (rules_init). */
    int half, nbits;
    board_t mask;
    board_t promo[2]; /* promotion row of side 0 (White: top row) and 1 (Black: bottom) */
    int ndirs;         /* directions with tables: 4 (diagonal), 8 with orthogonal or straight */
    int step[MAX_DIRS]; /* bit offset of a step in each direction (where nb is not -1) */
    uint8_t men_dirs[2]; /* bit d set: side's men capture in direction d */
    uint8_t men_quiet[2]; /* bit d set: side's men move one step in direction d */
    uint8_t king_quiet;   /* bit d set: kings move in direction d */
    uint8_t king_dirs;    /* bit d set: kings capture in direction d */
    board_t has_nb[MAX_DIRS]; /* squares with a neighbour in direction d */
    int8_t nb[MAX_DIRS][MAX_BITS]; /* neighbour in each direction, -1 off the board */
    uint8_t row[MAX_BITS], col[MAX_BITS]; /* internal row (0 top) and column of a square */
    uint16_t rank[MAX_BITS]; /* position of a square in notation order (rules_set_order) */
} Rules;

/* A position from the side to move's view: its pieces own, the other side's opp, all kings,
 * side 0 (White) or 1 (Black). */
typedef struct {
    board_t own, opp, kings;
    int side;
} Node;

/* Fill the board tables; the rule fields must be set first. Squares are ranked in bit order
 * until rules_set_order. Returns 0, or -1 for a size other than 8, 10 or 12, a board whose
 * bits do not fit board_t (12x12 in the normal build), a rule field out of range, or a board that cannot be: all_squares off 8x8, all_squares without straight (or with
 * orthogonal), straight without all_squares. */
int rules_init(Rules *r);
/* The notation order of the playing squares (order[i]: the i-th square's bit), which
 * sort_moves follows. Returns 0, or -1 when order is not every playing square once. */
int rules_set_order(Rules *r, const int *order, int n);

/* NULL when white, black and kings make a position of r's board (pieces only on playing
 * squares, no square held twice, kings among the pieces; with moves, at most MAX_CAPS pieces a
 * side, which generating moves needs), else what is wrong; r NULL: of any board (what making a
 * move needs). Every position from outside is checked with it before any other call. */
const char *position_check(const Rules *r, board_t white, board_t black, board_t kings,
                           int moves);

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

/* The bit of square s in the board word. */
static inline board_t BIT(int s) { return (board_t)1 << s; }

/* Number of set bits of a board word (two 64-bit counts in the wide build). */
static inline int popcount_b(board_t x)
{
#ifdef DAMIERA_WIDE
    return popcount64((uint64_t)x) + popcount64((uint64_t)(x >> 64));
#else
    return popcount64(x);
#endif
}

/* Index of the lowest set bit of a nonzero board word. */
static inline int lowest_bit(board_t x)
{
#ifdef DAMIERA_WIDE
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
#else
    return __builtin_ctzll(x);
#endif
}

/* Squares on a move's path: the start and every landing (a quiet move: start and end). */
static inline int path_len(const CMove *m) { return m->ncap ? m->ncap + 1 : 2; }

/* Make a move: the mover's pieces own, the other side's opp (both updated). */
static inline void make_move(const CMove *m, board_t *own, board_t *opp, board_t *kings)
{
    board_t sb = BIT(m->start), eb = BIT(m->end);
    if (*kings & sb)
        *kings = (*kings & ~sb & ~m->captured) | eb;
    else if (m->promotes)
        *kings = (*kings & ~m->captured) | eb;
    else
        *kings &= ~m->captured;
    *own = (*own & ~sb) | eb;
    *opp &= ~m->captured;
}

/* The position after m (the other side to move). */
static inline void child_of(const Node *n, const CMove *m, Node *c)
{
    board_t own = n->own, opp = n->opp, kings = n->kings;
    make_move(m, &own, &opp, &kings);
    c->own = opp;
    c->opp = own;
    c->kings = kings;
    c->side = 1 - n->side;
}

static inline board_t node_white(const Node *n) { return n->side ? n->opp : n->own; }
static inline board_t node_black(const Node *n) { return n->side ? n->own : n->opp; }

/* Progress for the draw rule (RULES.md section 1: 40 moves by each side "with no capture and no
 * promotion"): a capture or a promotion. The one definition: the search, the game's history
 * and the Python Game all ask here. */
static inline int move_is_progress(const CMove *m) { return m->ncap || m->promotes; }

/* A move that can never be undone, so no earlier position can repeat after it: progress, or a
 * man's move (men never go back). */
static inline int move_is_irreversible(const CMove *m)
{
    return move_is_progress(m) || !m->by_king;
}

/* The same two questions about the move that led from before to after (two consecutive
 * positions of a game, before's side moved): fewer pieces on the board is a capture, more
 * kings of the mover a promotion, another set of the mover's men a man's move. */
int step_is_progress(const Node *before, const Node *after);
int step_is_irreversible(const Node *before, const Node *after);

#endif
