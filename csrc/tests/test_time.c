/* The C test program's checks of the search's time use (search.h): the game clock's sharing
 * out (time_allocate) and the iteration target (time_target) on given numbers, and the game
 * clock's limits at the boundary (limits_check), each refused by name. */
#include <string.h>

#include "boundary.h"
#include "check.h"
#include "search.h"

#define NEAR(a, b) ((a) - (b) < 1e-9 && (b) - (a) < 1e-9)

/* The game clock's sharing out, on given numbers: a budget that grows with the clock, the
 * increment and the moves left, never plans more than the clock less its safety share, and
 * spends all that is usable on the last move to go; and the iteration target's stretching. */
void test_time(void)
{
    /* 60 s + 0.5 s at the start: 30 own moves assumed left. */
    double usable = 60 * (1 - TIME_SAFETY) - TIME_OVERHEAD;
    double share = usable / MOVES_LEFT_START + INCREMENT_SHARE * 0.5;
    TimeBudget b = time_allocate(60, 0.5, 0, 0);
    CHECK(NEAR(b.soft, SOFT_SHARE * share) && NEAR(b.hard, HARD_FACTOR * share),
          "time: 60+0.5 at ply 0 gives %g / %g", b.soft, b.hard);
    /* 40 plies later (20 own moves): 10 fewer moves assumed left, so more a move. */
    TimeBudget later = time_allocate(60, 0.5, 0, 40);
    CHECK(later.soft > b.soft &&
              NEAR(later.soft, SOFT_SHARE * (usable / (MOVES_LEFT_START - 10) + 0.4)),
          "time: 60+0.5 at ply 40 gives %g", later.soft);
    /* Never fewer than MOVES_LEFT_MIN moves assumed left (an increment that covers the
     * overhead keeps nothing back). */
    TimeBudget end = time_allocate(60, 0.5, 0, 1000);
    CHECK(NEAR(end.soft, SOFT_SHARE * (usable / MOVES_LEFT_MIN + 0.4)),
          "time: ply 1000 gives %g", end.soft);
    /* Without an increment, the overhead of RESERVE_MOVES more moves is kept back. */
    TimeBudget sudden = time_allocate(60, 0, 0, 1000);
    double kept = usable - RESERVE_MOVES * TIME_OVERHEAD;
    CHECK(NEAR(sudden.soft, SOFT_SHARE * kept / MOVES_LEFT_MIN),
          "time: 60+0 at ply 1000 gives %g", sudden.soft);
    /* A small increment keeps back what it does not cover. */
    TimeBudget small = time_allocate(60, 0.05, 0, 1000);
    double uncovered = TIME_OVERHEAD - (1 - INCREMENT_SHARE) * 0.05;
    CHECK(NEAR(small.soft, SOFT_SHARE * ((usable - RESERVE_MOVES * uncovered) / MOVES_LEFT_MIN +
                                         INCREMENT_SHARE * 0.05)),
          "time: 60+0.05 at ply 1000 gives %g", small.soft);
    /* The hard bound is at most HARD_SHARE of the usable clock plus the increment's share;
     * with moves to go, the overhead of the moves after this one is kept back. */
    TimeBudget few = time_allocate(10, 0, 2, 0);
    double usable10 = 10 * (1 - TIME_SAFETY) - TIME_OVERHEAD;
    double kept10 = usable10 - TIME_OVERHEAD;
    CHECK(NEAR(few.hard, HARD_SHARE * kept10) && NEAR(few.soft, SOFT_SHARE * kept10 / 2),
          "time: 10 s for 2 moves gives %g / %g", few.soft, few.hard);
    /* The last move to go may use all that is usable, never the safety share. */
    TimeBudget last = time_allocate(10, 0, 1, 0);
    CHECK(NEAR(last.hard, usable10) && last.hard < 10 && last.soft <= last.hard,
          "time: the last move to go gives %g / %g", last.soft, last.hard);
    /* A clock below the overhead still plans the least time, and a large increment on a
     * low clock never more than the clock holds. */
    TimeBudget low = time_allocate(0.01, 0, 0, 0);
    CHECK(NEAR(low.soft, MIN_THINK) && NEAR(low.hard, MIN_THINK), "time: 0.01 s gives %g / %g",
          low.soft, low.hard);
    TimeBudget inc = time_allocate(0.5, 5, 0, 0);
    CHECK(inc.hard <= 0.5 * (1 - TIME_SAFETY) - TIME_OVERHEAD + 1e-12 && inc.soft <= inc.hard,
          "time: 0.5 s + 5 s gives %g / %g", inc.soft, inc.hard);
    /* A long sudden-death game: 3 s for 200 own moves, each spending its hard bound and
     * 2 ms beyond it, never runs the clock out. */
    double left = 3.0;
    for (int move = 0; move < 200 && left > 0; move++)
        left -= time_allocate(left, 0, 0, 2 * move).hard + 0.002;
    CHECK(left > 0, "time: 3+0 ran out within 200 moves (%g s left)", left);
    /* The same numbers give the same budget. */
    TimeBudget again = time_allocate(60, 0.5, 0, 0);
    CHECK(again.soft == b.soft && again.hard == b.hard, "time: not the same budget twice");

    TimeBudget t = {1.0, 3.0};
    CHECK(NEAR(time_target(&t, 2, 0, 0, 100), 1.0), "target: an ordinary move stops at soft");
    CHECK(NEAR(time_target(&t, EASY_ITERATIONS, 0, 0, EASY_MARGIN), EASY_SHARE),
          "target: an easy move stops before soft");
    CHECK(NEAR(time_target(&t, EASY_ITERATIONS, 0, 0, EASY_MARGIN - 1), 1.0),
          "target: a narrow margin is not easy");
    CHECK(NEAR(time_target(&t, 1, 1, 0, 100), CHANGED_FACTOR), "target: a changed best move");
    CHECK(NEAR(time_target(&t, 3, 0, 1, 100), DROP_FACTOR), "target: a dropped score");
    CHECK(NEAR(time_target(&t, 1, 1, 1, 0), CHANGED_FACTOR * DROP_FACTOR),
          "target: both a changed best move and a dropped score");
    TimeBudget tight = {1.0, 1.5};
    CHECK(NEAR(time_target(&tight, 1, 1, 1, 0), 1.5), "target: capped at hard");

    /* The game clock's limits at the boundary: each refused with its name. */
    char err[128] = "";
    Limits clock = {0, 0, 0, 0, 1, 60.0, 0.5, 40, 10};
    CHECK(limits_check(&clock, err, sizeof err) == 0, "time: a good game clock refused (%s)",
          err);
    const struct {
        Limits lim;
        const char *name;
    } bad[] = {
        {{0, 1.0 / 0.0, 0, 0, 0, 0, 0, 0, 0}, "movetime"},
        {{0, 0, 0, 0, 0, -1.0, 0, 0, 0}, "remaining"},
        {{0, 0, 0, 0, 0, 0.0 / 0.0, 0, 0, 0}, "remaining"},
        {{0, 0, 0, 0, 0, MAX_CLOCK * 2, 0, 0, 0}, "remaining"},
        {{0, 0, 0, 0, 0, 60.0, 0.0 / 0.0, 0, 0}, "increment"},
        {{0, 0, 0, 0, 0, 60.0, -0.5, 0, 0}, "increment"},
        {{0, 0, 0, 0, 0, 60.0, 0, -1, 0}, "moves_to_go"},
        {{0, 0, 0, 0, 0, 60.0, 0, 0, MAX_GAME_PLY + 1}, "ply"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = 0;
        CHECK(limits_check(&bad[i].lim, err, sizeof err) < 0 && strstr(err, bad[i].name) == err,
              "time: bad %s not refused by name (%s)", bad[i].name, err);
    }
    printf("time: allocation, targets and the clock's limits checked\n");
}

