/* The C core's own test program, built and run without Python (`make ctest`, part of
 * `make test`):
 *
 * - perft from every named variant's start, read with its FEN from the shared tables
 *   (argv[1], ../shared/reference/perft.json; skipped with a message when missing) or, for
 *   the rule sets of docs/rules.md, the project's (--project-tables, by default
 *   docs/reference/perft.json), to the deepest depth whose count is at most --max-nodes
 *   (default 2,000,000);
 * - along random games of every variant, for every legal move: the incremental key against
 *   the key of the position computed afresh, the progress and irreversibility of the move
 *   against the same rules read off the two positions, and the bulk count of quiet moves
 *   against the quiet moves generated;
 * - a fixed-depth search from every start: a legal move, a line of that many legal moves;
 * - the checks at the boundary (boundary.h): positions, moves, limits, table sizes, endgame
 *   requests, weights files and bytes, each refused with its message and its output untouched;
 * - the game clock's sharing out (time_allocate, time_target) on given numbers, in
 *   test_time.c; the endgame database's files, in test_egdb.c; the transposition table's
 *   buckets, in test_tt.c (check.h: what the files share).
 *
 * The variants' rule parameters are written out here as test data (RULES.md section 2); the
 * Python package builds the same Rules from its Variant values.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boundary.h"
#include "eval.h"
#include "goal.h"
#include "hash.h"
#include "movegen.h"
#include "perft.h"
#include "search.h"
#include "weights.h"

#include "check.h"

typedef struct {
    const char *id;
    int size, man_rows, flying, men_back, men_take_kings, choice, promotion;
    int a1_dark, numeric, from_bottom_right;
    int land_behind, remove_at_once, orthogonal;
    int all_squares, no_reverse, back_rows; /* every square plays with straight moves */
} VariantRow;

static const VariantRow VARIANTS[] = {
    {"american", 8, 3, 0, 0, 1, CHOICE_FREE, PROMO_STOP, 1, 1, 0},
    {"italian", 8, 3, 0, 0, 0, CHOICE_ITALIAN, PROMO_STOP, 0, 1, 0},
    {"czech", 8, 3, 1, 0, 1, CHOICE_KING_PRECEDENCE, PROMO_STOP, 1, 0, 0},
    {"russian", 8, 3, 1, 1, 1, CHOICE_FREE, PROMO_CONTINUE, 1, 0, 0},
    {"brazilian", 8, 3, 1, 1, 1, CHOICE_MAJORITY, PROMO_PASS_THROUGH, 1, 0, 0},
    {"spanish", 8, 3, 1, 0, 1, CHOICE_MOST_THEN_KINGS, PROMO_STOP, 0, 1, 1},
    {"international", 10, 4, 1, 1, 1, CHOICE_MAJORITY, PROMO_PASS_THROUGH, 1, 1, 0},
    {"pool", 8, 3, 1, 1, 1, CHOICE_FREE, PROMO_PASS_THROUGH, 1, 1, 0},
    {"thai", 8, 2, 1, 0, 1, CHOICE_FREE, PROMO_STOP, 1, 1, 1, 1, 1},
    {"frisian", 10, 4, 1, 1, 1, CHOICE_VALUE, PROMO_PASS_THROUGH, 1, 1, 0, 0, 0, 1},
    {"frysk", 10, 1, 1, 1, 1, CHOICE_VALUE, PROMO_PASS_THROUGH, 1, 1, 0, 0, 0, 1},
    {"turkish", 8, 2, 1, 0, 1, CHOICE_MAJORITY, PROMO_PASS_THROUGH, 1, 0, 0, 0, 1, 0, 1, 1, 1},
#ifdef DAMIERA_WIDE /* the 12x12 board needs the wide build's 128-bit words */
    {"canadian", 12, 5, 1, 1, 1, CHOICE_MAJORITY, PROMO_PASS_THROUGH, 1, 1, 0},
    {"malaysian", 12, 5, 1, 0, 1, CHOICE_MAJORITY, PROMO_STOP, 1, 1, 0},
#endif
};
#define NVARIANTS ((int)(sizeof VARIANTS / sizeof *VARIANTS))

int failures = 0;

/* The row of the rule set id (the rows are in menu order, which later rule sets extend). */
static const VariantRow *variant_row(const char *id)
{
    for (int i = 0; i < NVARIANTS; i++)
        if (strcmp(VARIANTS[i].id, id) == 0)
            return &VARIANTS[i];
    printf("FAIL: no rule set %s among the test's rows\n", id);
    exit(1);
}


static void rules_of(const VariantRow *v, Rules *r)
{
    memset(r, 0, sizeof *r);
    r->size = v->size;
    r->flying = v->flying;
    r->men_back = v->men_back;
    r->men_take_kings = v->men_take_kings;
    r->choice = v->choice;
    r->promotion = v->promotion;
    r->land_behind = v->land_behind;
    r->remove_at_once = v->remove_at_once;
    r->orthogonal = v->orthogonal;
    r->all_squares = r->straight = v->all_squares;
    r->no_reverse = v->no_reverse;
    r->mandatory = 1;
    r->man_rows = v->man_rows;
    r->draw_plies = 80;
    if (rules_init(r) < 0) {
        printf("FAIL: rules_init refused %s\n", v->id);
        exit(1);
    }
}

/* The official label of square s (numbers, or algebraic a1..). */
static void label_of(const VariantRow *v, const Rules *r, int s, char *out)
{
    int n = v->size, h = n / 2;
    int file = v->a1_dark ? r->col[s] : n - 1 - r->col[s], rank = n - 1 - r->row[s];
    if (!v->numeric)
        sprintf(out, "%c%d", 'a' + file, rank + 1);
    else if (v->from_bottom_right)
        sprintf(out, "%d", rank * h + (n - 1 - file) / 2 + 1);
    else
        sprintf(out, "%d", (n - 1 - rank) * h + file / 2 + 1);
}

static int square_of(const VariantRow *v, const Rules *r, const char *label, size_t len)
{
    char want[8], have[8];
    if (len == 0 || len >= sizeof want)
        return -1;
    memcpy(want, label, len);
    want[len] = 0;
    for (int s = 0; s < MAX_BITS; s++)
        if (r->mask >> s & 1) {
            label_of(v, r, s, have);
            if (strcmp(have, want) == 0)
                return s;
        }
    return -1;
}

/* A FEN ("W:W21-32:B1-12", kings as K21, numeric ranges a-b) into a Node; 0 or -1. */
static int parse_fen(const VariantRow *v, const Rules *r, const char *fen, Node *n)
{
    board_t side_bits[2] = {0, 0}, kings = 0;
    if ((fen[0] != 'W' && fen[0] != 'B') || fen[1] != ':')
        return -1;
    int side = fen[0] == 'B';
    const char *p = fen + 2;
    while (*p) {
        int colour = *p == 'W' ? 0 : *p == 'B' ? 1 : -1;
        if (colour < 0)
            return -1;
        p++;
        while (*p && *p != ':') {
            int king = *p == 'K';
            p += king;
            const char *start = p;
            while (*p && *p != ',' && *p != ':' && *p != '-')
                p++;
            int a = square_of(v, r, start, (size_t)(p - start)), b = a;
            if (*p == '-') {
                const char *second = ++p;
                while (*p && *p != ',' && *p != ':')
                    p++;
                b = square_of(v, r, second, (size_t)(p - second));
            }
            if (a < 0 || b < 0)
                return -1;
            char la[8], lb[8];
            label_of(v, r, a, la);
            label_of(v, r, b, lb);
            for (int s = 0; s < MAX_BITS; s++) { /* the range's numbers, a to b */
                char ls[8];
                if (!(r->mask >> s & 1))
                    continue;
                label_of(v, r, s, ls);
                int x = atoi(ls), lo = atoi(la), hi = atoi(lb);
                if (s == a || (v->numeric && lo <= x && x <= hi)) {
                    side_bits[colour] |= BIT(s);
                    if (king)
                        kings |= BIT(s);
                }
            }
            if (*p == ',')
                p++;
        }
        if (*p == ':')
            p++;
    }
    n->side = side;
    n->own = side_bits[side];
    n->opp = side_bits[1 - side];
    n->kings = kings;
    return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* The shared tables (a small reader for their one shape) */

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap + 1);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *more = realloc(buf, cap * 2 + 1);
            if (!more) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = more;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf)
        buf[n] = 0;
    return buf;
}

/* In the object of "variants" -> id: its "fen" into fen, its "nodes_by_depth" into counts.
 * Returns the number of counts, or -1 when the variant is not there. */
static int table_of(const char *json, const char *id, char *fen, size_t fen_cap,
                    unsigned long long *counts, int cap)
{
    const char *at = strstr(json, "\"variants\"");
    char key[64];
    snprintf(key, sizeof key, "\"%s\"", id);
    at = at ? strstr(at, key) : NULL;
    const char *end = at ? strchr(at, '}') : NULL;
    const char *f = at ? strstr(at, "\"fen\"") : NULL;
    const char *c = at ? strstr(at, "\"nodes_by_depth\"") : NULL;
    if (!end || !f || !c || f > end || c > end)
        return -1;
    f = strchr(f + 5, '"');
    const char *fe = f ? strchr(f + 1, '"') : NULL;
    if (!fe || (size_t)(fe - f - 1) >= fen_cap)
        return -1;
    memcpy(fen, f + 1, (size_t)(fe - f - 1));
    fen[fe - f - 1] = 0;
    c = strchr(c, '[');
    int n = 0;
    while (c && n < cap) {
        c++;
        while (*c == ' ' || *c == '\n' || *c == '\r' || *c == '\t')
            c++;
        if (*c == ']')
            break;
        char *stop;
        errno = 0;
        counts[n++] = strtoull(c, &stop, 10);
        if (stop == c || errno)
            return -1;
        c = strpbrk(stop, ",]");
        if (c && *c == ']')
            break;
    }
    return n;
}

static void test_perft(const char *path, const char *project_path, unsigned long long max_nodes)
{
    char *json = read_file(path), *project = read_file(project_path);
    CHECK(project != NULL, "perft: cannot read the project's tables %s", project_path);
    if (!json) {
        printf("perft: skipped, cannot read %s (%s): the shared tables are beside the "
               "checkout in ../shared/\n", path, strerror(errno));
        free(project);
        return;
    }
    for (int i = 0; i < NVARIANTS; i++) {
        const VariantRow *v = &VARIANTS[i];
        Rules r;
        rules_of(v, &r);
        char fen[512];
        unsigned long long counts[32];
        int n = table_of(json, v->id, fen, sizeof fen, counts, 32);
        if (n < 0 && project)
            n = table_of(project, v->id, fen, sizeof fen, counts, 32);
        CHECK(n > 0, "perft: %s is in neither %s nor %s", v->id, path, project_path);
        Node start;
        if (n <= 0 || parse_fen(v, &r, fen, &start) < 0) {
            CHECK(n <= 0, "perft: cannot read %s's FEN %s", v->id, fen);
            continue;
        }
        int depth = 0;
        for (int d = 1; d <= n && counts[d - 1] <= max_nodes; d++) {
            int stopped;
            uint64_t got = perft(&r, &start, d, NULL, NULL, &stopped);
            CHECK(!stopped && got == counts[d - 1], "perft %s depth %d: %llu, expected %llu",
                  v->id, d, (unsigned long long)got, counts[d - 1]);
            depth = d;
        }
        printf("perft: %s to depth %d (%llu leaves) as in the tables\n", v->id, depth,
               depth ? counts[depth - 1] : 0ULL);
    }
    free(json);
    free(project);
}

/* ---------------------------------------------------------------------------------------- */
/* Random games */

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static uint64_t next_random(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void start_of(const VariantRow *v, const Rules *r, Node *n)
{
    board_t white = 0, black = 0;
    int first = v->back_rows, last = v->back_rows + r->man_rows;
    for (int s = 0; s < MAX_BITS; s++)
        if (r->mask >> s & 1) {
            if (first <= r->row[s] && r->row[s] < last)
                black |= BIT(s);
            else if (first <= r->size - 1 - r->row[s] && r->size - 1 - r->row[s] < last)
                white |= BIT(s);
        }
    n->side = 0;
    n->own = white;
    n->opp = black;
    n->kings = 0;
}

static void test_games(int games)
{
    Keys keys;
    keys_init(&keys);
    long long moves_checked = 0;
    for (int i = 0; i < NVARIANTS; i++) {
        const VariantRow *v = &VARIANTS[i];
        Rules r;
        rules_of(v, &r);
        MoveList legal = {0}, quiet = {0};
        for (int g = 0; g < games; g++) {
            Node n;
            start_of(v, &r, &n);
            uint64_t h = hash_node(&keys, &n);
            for (int ply = 0; ply < 300; ply++) {
                CHECK(h == hash_node(&keys, &n), "%s: the key drifted at ply %d", v->id, ply);
                if (gen_legal(&r, n.own, n.opp, n.kings, n.side, &legal) < 0 ||
                    gen_quiet(&r, n.own, n.opp, n.kings, n.side, &quiet) < 0) {
                    printf("FAIL: out of memory\n");
                    exit(1);
                }
                CHECK(count_quiet(&r, n.own, n.opp, n.kings, n.side) == quiet.n,
                      "%s: %d quiet moves counted, %d generated", v->id,
                      count_quiet(&r, n.own, n.opp, n.kings, n.side), quiet.n);
                if (legal.n == 0)
                    break;
                for (int k = 0; k < legal.n; k++) {
                    const CMove *m = &legal.m[k];
                    Node c;
                    child_of(&n, m, &c);
                    CHECK(hash_child(&keys, h, m, n.side) == hash_node(&keys, &c),
                          "%s: incremental key differs from the full key at ply %d", v->id, ply);
                    CHECK(step_is_progress(&n, &c) == move_is_progress(m),
                          "%s: progress of a move and of its positions differ", v->id);
                    CHECK(step_is_irreversible(&n, &c) == move_is_irreversible(m),
                          "%s: irreversibility of a move and of its positions differ", v->id);
                    moves_checked++;
                }
                const CMove *m = &legal.m[next_random() % (uint64_t)legal.n];
                h = hash_child(&keys, h, m, n.side);
                Node c;
                child_of(&n, m, &c);
                n = c;
            }
        }
        movelist_free(&legal);
        movelist_free(&quiet);
    }
    printf("games: %d random games a variant, %lld moves: incremental keys, progress and quiet "
           "counts checked\n", games, moves_checked);
}

static int same_move(const CMove *a, const CMove *b)
{
    return a->start == b->start && a->end == b->end && a->captured == b->captured &&
           a->promotes == b->promotes && a->ncap == b->ncap &&
           memcmp(a->path, b->path, (size_t)path_len(a)) == 0;
}

static void test_search(void)
{
    for (int i = 0; i < NVARIANTS; i++) {
        const VariantRow *v = &VARIANTS[i];
        Rules r;
        rules_of(v, &r);
        Eval ev;
        eval_init(&ev, &r);
        Search *s = search_new(&r, &ev, 1 << 16);
        Node start;
        start_of(v, &r, &start);
        Limits lim = {5, 0.0, 0, 0};
        Options opt = {1, 1, 1, 1};
        SearchResult res;
        int rc = search_run(s, &start, NULL, 0, &lim, &opt, NULL, NULL, NULL, NULL, &res);
        CMove line[PV_MAX];
        int len = search_line_moves(s, &res.best, line, PV_MAX);
        CHECK(rc == 0 && res.has_move && res.depth == 5 && res.nodes > 0,
              "search %s: rc %d, depth %d", v->id, rc, res.depth);
        CHECK(len == 5, "search %s: a line of %d moves at depth 5", v->id, len);
        /* Each move of the line is legal where it is played. */
        Node n = start;
        MoveList legal = {0};
        for (int k = 0; k < len; k++) {
            gen_legal(&r, n.own, n.opp, n.kings, n.side, &legal);
            int found = 0;
            for (int j = 0; j < legal.n; j++)
                found |= same_move(&legal.m[j], &line[k]);
            CHECK(found, "search %s: move %d of the line is not legal", v->id, k + 1);
            Node c;
            child_of(&n, &line[k], &c);
            n = c;
        }
        printf("search: %s depth 5, score %d, %lld nodes\n", v->id, res.score, res.nodes);
        movelist_free(&legal);
        search_result_free(&res);
        search_free(s);
        eval_free(&ev);
    }
}

/* The game's end under each goal (goal.h), from named positions: the usual goal, the losing
 * rule, breakthrough; rules_init refuses both goals at once. */
static void test_goals(void)
{
    static const struct {
        const char *v;
        int losing, breakthrough;
        const char *fen;
        int reason, winner; /* winner: 0 White, 1 Black */
    } cases[] = {
        {"international", 0, 0, "B:W23:B", GOAL_NO_PIECES, 0},   /* Black has no piece: loses */
        {"international", 1, 0, "B:W23:B", GOAL_NO_PIECES, 1},   /* ... and wins under the losing rule */
        {"international", 0, 0, "W:W46:B41,37", GOAL_NO_MOVES, 1}, /* White shut in: loses */
        {"international", 1, 0, "W:W46:B41,37", GOAL_NO_MOVES, 0}, /* ... and wins */
        {"international", 0, 1, "W:W46:B41,37", GOAL_NO_MOVES, 1}, /* no king yet: as usual */
        {"international", 0, 1, "B:WK1:B45", GOAL_KING, 0},      /* White made a king */
        {"international", 0, 0, "B:WK1:B45", GOAL_NONE, 0},
        {"russian", 0, 1, "B:WKf6:Ba5", GOAL_KING, 0},
        {"international", 1, 0, "W:W32:B28", GOAL_NONE, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const VariantRow *v = variant_row(cases[i].v);
        Rules r;
        rules_of(v, &r);
        r.losing = cases[i].losing;
        r.breakthrough = cases[i].breakthrough;
        Node n;
        CHECK(parse_fen(v, &r, cases[i].fen, &n) == 0, "goals: cannot read %s", cases[i].fen);
        int winner = -1, reason = goal_end(&r, &n, &winner);
        CHECK(reason == cases[i].reason && (reason == GOAL_NONE || winner == cases[i].winner),
              "goals %s losing=%d breakthrough=%d %s: reason %d winner %d", v->id,
              cases[i].losing, cases[i].breakthrough, cases[i].fen, reason, winner);
    }
    Rules both;
    rules_of(variant_row("international"), &both);
    both.losing = both.breakthrough = 1;
    CHECK(rules_init(&both) < 0, "goals: rules_init takes both goals at once");
}

#define INTERNATIONAL_KEY "10x10-4rows-back-flying-menkings-majority-pass_through-mandatory"
#define INTERNATIONAL_WEIGHTS "src/damiera/engine/patterns/" INTERNATIONAL_KEY ".bin"

static void test_boundary(void)
{
    Rules r8, r10;
    rules_of(variant_row("american"), &r8);
    rules_of(variant_row("international"), &r10);
    Node start, n;
    start_of(variant_row("american"), &r8, &start);
    board_t white = start.own, black = start.opp;
    CHECK(!node_from_colours(&r8, white, black, 0, 1, 1, &n) && n.side == 1 && n.own == black &&
              n.opp == white && n.kings == 0,
          "boundary: the start with Black to move is not Black's node");
    Node untouched = {1, 2, 3, 0};
    n = untouched;
    const board_t ghost = BIT(8); /* 8x8: the bit after the first two rows */
    const board_t empty = r8.mask & ~(white | black);
    CHECK(node_from_colours(&r8, white | ghost, black, 0, 0, 1, &n) &&
              node_from_colours(&r8, white, black | (white & -white), 0, 0, 1, &n) &&
              node_from_colours(&r8, white, black, empty & -empty, 0, 1, &n) &&
              memcmp(&n, &untouched, sizeof n) == 0,
          "boundary: an off-board piece, a doubled square or a lone king passed, or n changed");
    board_t many = 0; /* 10x10's first MAX_CAPS + 1 playing squares: one man too many */
    for (int s = 0, count = 0; s < MAX_BITS && count < MAX_CAPS + 1; s++)
        if (r10.mask >> s & 1)
            many |= BIT(s), count++;
    CHECK(popcount_b(many) == MAX_CAPS + 1 && node_from_colours(&r10, many, 0, 0, 0, 1, &n) &&
              !node_from_colours(&r10, many, 0, 0, 0, 0, &n) &&
              !node_from_colours(NULL, white | ghost, black, 0, 0, 0, &n),
          "boundary: %d men a side refused or not as the moves flag says, or NULL rules checked",
          MAX_CAPS + 1);

    CMove m;
    memset(&m, 0, sizeof m);
    CHECK(!move_from_fields(12, 21, (uint64_t)3 << 16, (uint64_t)1 << 16, &m) && m.start == 12 &&
              m.end == 21 && m.ncap == 2 && m.captured_kings == (uint64_t)1 << 16,
          "boundary: a two-piece capture's fields were not taken");
    CMove before = m;
    CHECK(move_from_fields(-1, 5, 0, 0, &m) && move_from_fields(3, MAX_BITS, 0, 0, &m) &&
              move_from_fields(3, 5, 1, 2, &m) &&
              move_from_fields(3, 5, ((uint64_t)1 << (MAX_CAPS + 1)) - 1, 0, &m) &&
              memcmp(&m, &before, sizeof m) == 0,
          "boundary: a square off the board, a king not captured or %d captures passed",
          MAX_CAPS + 1);

    char err[512] = "";
    Limits ok = {MAX_PLY - 10, 0.5, 1000, 0}, deep = {MAX_PLY - 9, 0, 0, 0};
    Limits nan = {1, 0.0 / 0.0, 0, 0}, minus = {1, 0, -1, 0};
    CHECK(limits_check(&ok, err, sizeof err) == 0 && limits_check(&deep, err, sizeof err) < 0 &&
              strstr(err, "depth must be 0-190") && limits_check(&nan, err, sizeof err) < 0 &&
              limits_check(&minus, err, sizeof err) < 0,
          "boundary: the limits' checks (last message: %s)", err);
    Limits resting = ok, off_board = ok;
    resting.resting_king = MAX_BITS; /* the last bit, + 1 */
    off_board.resting_king = MAX_BITS + 1;
    CHECK(limits_check(&resting, err, sizeof err) == 0 &&
              limits_check(&off_board, err, sizeof err) < 0 && strstr(err, "resting king"),
          "boundary: the resting king's square (last message: %s)", err);
    CHECK(tt_entries_check(0) && !tt_entries_check(1) && !tt_entries_check((long long)1 << 32) &&
              tt_entries_check(((long long)1 << 32) + 1),
          "boundary: the table sizes 1 to 2**32 are not the accepted ones");
    CHECK(egdb_request_check(&r8, 1) && egdb_request_check(&r8, EGDB_MAX_PIECES + 1) &&
              !egdb_request_check(&r8, 2) && !egdb_request_check(&r8, EGDB_MAX_PIECES),
          "boundary: the endgame requests accepted on 8x8 are not 2 to %d pieces",
          EGDB_MAX_PIECES); /* other boards: test_egdb.c */
    CHECK(history_first(200, 80) == 119 && history_first(81, 80) == 0 &&
              history_first(0, 80) == 0,
          "boundary: a search does not keep the last draw_plies + 1 positions");

    Eval ev;
    eval_init(&ev, &r10);
    size_t weights = (size_t)windows_count(&r10, 1) * (size_t)pattern_count(1);
    int16_t *tables = calloc(weights + 1, sizeof *tables);
    CHECK(tables && eval_patterns_from_bytes(&ev, 1, 1, tables, 2 * weights + 1, err,
                                             sizeof err) < 0 && strstr(err, "16-bit"),
          "boundary: one byte more than the tables passed (%s)", err);
    Eval plain;
    eval_init(&plain, &r10);
    CHECK(tables && eval_patterns_from_bytes(&plain, 1, 1, tables, 2 * weights, err,
                                             sizeof err) == 0 && plain.pattern_rows == 1,
          "boundary: the tables' exact bytes were refused (%s)", err);
    eval_free(&plain);
    free(tables);
    const char *key = INTERNATIONAL_KEY;
    CHECK(eval_load_weights(&ev, "no/such/weights.bin", key, err, sizeof err) ==
                  WEIGHTS_UNREADABLE &&
              eval_load_weights(&ev, __FILE__, key, err, sizeof err) == WEIGHTS_BAD &&
              ev.pattern_rows == 0,
          "boundary: a missing file or this source file read as weights (%s)", err);
    int rc = eval_load_weights(&ev, INTERNATIONAL_WEIGHTS, "8x8-other-rules", err, sizeof err);
    CHECK(rc == WEIGHTS_UNREADABLE || (rc == WEIGHTS_BAD && strstr(err, "not for 8x8-other")),
          "boundary: the shipped weights read for other rules (%s)", err);
    rc = eval_load_weights(&ev, INTERNATIONAL_WEIGHTS, key, err, sizeof err);
    if (rc == WEIGHTS_UNREADABLE)
        printf("boundary: skipped the shipped weights (%s not found from here)\n",
               INTERNATIONAL_WEIGHTS);
    else
        CHECK(rc == WEIGHTS_OK && ev.pattern_rows == 4, "boundary: the shipped weights: %s", err);
    eval_free(&ev);

    for (size_t i = 0; i < CORE_CONSTANT_COUNT; i++)
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(CORE_CONSTANTS[i].name, CORE_CONSTANTS[j].name) != 0,
                  "boundary: the constant %s is published twice", CORE_CONSTANTS[i].name);
    printf("boundary: positions, moves, limits, sizes, weights and constants checked\n");
}

int main(int argc, char **argv)
{
    const char *tables = argc > 1 ? argv[1] : "../shared/reference/perft.json";
    const char *project = "docs/reference/perft.json";
    unsigned long long max_nodes = 2000000;
    for (int i = 2; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--max-nodes") == 0)
            max_nodes = strtoull(argv[i + 1], NULL, 10);
        if (strcmp(argv[i], "--project-tables") == 0)
            project = argv[i + 1];
    }
    test_perft(tables, project, max_nodes);
    test_games(20);
    test_search();
    test_boundary();
    test_goals();
    test_time();
    test_egdb();
    test_tt();
    if (failures) {
        printf("%d check(s) failed\n", failures);
        return 1;
    }
    printf("all checks passed\n");
    return 0;
}
