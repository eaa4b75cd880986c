"""Time use: the game clock's limits (``Limit(remaining=, increment=, moves_to_go=)``),
their checks at the binding and in ``Limit``, the core's pure sharing out of a clock
(``allocate_time``), and the CPU-time clock (``Limit(cpu_time=True)``) reaching the core.

Nothing here asserts a speed: the sharing out is checked on given numbers, and the CPU clock
by a callback that sleeps (wall time that is no CPU time)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import damiera
from damiera.engine import Engine, Limit
from damiera.engine.front import Info
from damiera.engine.search import MAX_CLOCK, MAX_MOVETIME, allocate_time

# The sharing out's constants (csrc/search.h): 5% and 30 ms kept back, 30 own moves assumed
# left at the start and never fewer than 15, 80% of the increment counted on, soft 0.6 and
# hard 4 even shares, hard at most 30% of the usable clock plus the increment's share; what
# the increment does not cover of the 30 ms kept back for at most 30 moves still to come.
SAFETY, OVERHEAD, MOVES_LEFT, INC_SHARE, SOFT, HARD, HARD_SHARE = 0.05, 0.03, 30, 0.8, 0.6, 4, 0.3
MOVES_LEFT_MIN, RESERVE_MOVES = 15, 30


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"remaining": -1.0}, "remaining must be above 0"),
    ({"remaining": 0.0}, "remaining must be above 0"),
    ({"remaining": math.nan}, "remaining must be above 0"),
    ({"remaining": math.inf}, "remaining must be above 0"),
    ({"remaining": 1e9}, "remaining must be above 0 and at most 360000"),
    ({"remaining": 60.0, "increment": -0.5}, "increment must be 0 to 3600"),
    ({"remaining": 60.0, "increment": math.nan}, "increment must be 0 to 3600"),
    ({"remaining": 60.0, "increment": 1e6}, "increment must be 0 to 3600"),
    ({"remaining": 60.0, "moves_to_go": 0}, "moves_to_go must be 1-10000"),
    ({"remaining": 60.0, "moves_to_go": 10**9}, "moves_to_go must be 1-10000"),
    ({"increment": 0.5}, "needs the clock's remaining time"),
    ({"moves_to_go": 20}, "needs the clock's remaining time"),
    ({"time": 1.0, "remaining": 60.0}, "not both"),
    ({"time": math.nan, "cpu_time": True}, "time must be above 0"),
    ({"time": 10**400}, "time must be above 0"),
    ({"remaining": 10**400}, "remaining must be above 0"),
])
def test_a_limit_out_of_range_is_refused_saying_which(kwargs: dict[str, float],
                                                      message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Limit(**kwargs)  # type: ignore[arg-type]


def test_limit_types_are_checked() -> None:
    with pytest.raises(TypeError, match="cpu_time is True or False, not int"):
        Limit(time=1.0, cpu_time=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="remaining is seconds"):
        Limit(remaining="60")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="moves_to_go is a number of moves"):
        Limit(remaining=60, moves_to_go=2.5)  # type: ignore[arg-type]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"remaining": -1.0}, "remaining must be 0-360000 seconds, not -1"),
    ({"remaining": math.nan}, "remaining must be 0-360000 seconds, not nan"),
    ({"remaining": math.inf}, "remaining must be 0-360000 seconds, not inf"),
    ({"remaining": 10.0, "increment": -1.0}, "increment must be 0-3600 seconds"),
    ({"remaining": 10.0, "increment": math.nan}, "increment must be 0-3600 seconds"),
    ({"remaining": 10.0, "moves_to_go": -1}, "moves_to_go must be 0-10000"),
    ({"remaining": 10.0, "ply": -1}, "ply must be 0-100000"),
    ({"movetime": math.inf}, "movetime must be 0-3600 seconds, not inf"),
    ({"movetime": -0.5}, "movetime must be 0-3600 seconds"),
])
def test_the_binding_refuses_limits_out_of_range_and_stays_usable(
        kwargs: dict[str, float], message: str) -> None:
    engine = Engine("italian")
    native = engine.searcher.engine
    start = damiera.Game("italian").position
    with pytest.raises(ValueError, match=message):
        native.search(start, [], 2, **kwargs)  # type: ignore[arg-type]
    allocation = {k: v for k, v in kwargs.items() if k != "movetime"}
    if allocation:
        with pytest.raises(ValueError, match=message):
            allocate_time(**allocation)  # type: ignore[arg-type]
    # Nothing was left half-changed: the engine searches as before.
    assert native.search(start, [], 2)[2] == 2


def _usable(remaining: float) -> float:
    return remaining * (1 - SAFETY) - OVERHEAD


def test_the_clock_is_shared_out_by_the_moves_left() -> None:
    # 60 s + 0.5 s at the start: 30 own moves assumed left, 80% of the increment counted on.
    share = _usable(60) / MOVES_LEFT + INC_SHARE * 0.5
    assert allocate_time(60.0, 0.5) == pytest.approx((SOFT * share, HARD * share))
    assert allocate_time(60.0, 0.5) == pytest.approx((1.379, 9.196), abs=5e-4)
    # 40 plies later (20 own moves): 20 moves assumed left.
    assert allocate_time(60.0, 0.5, ply=40)[0] == pytest.approx(
        SOFT * (_usable(60) / 20 + 0.4))
    # Moves to go replace the estimate; hard stays within 30% of the usable clock, less the
    # overhead of the one move after this (no increment covers it).
    kept = _usable(10) - OVERHEAD
    assert allocate_time(10.0, 0.0, moves_to_go=2) == pytest.approx(
        (SOFT * kept / 2, HARD_SHARE * kept))
    # The last move to go may use all that is usable, never the safety share.
    soft, hard = allocate_time(10.0, 0.0, moves_to_go=1)
    assert hard == pytest.approx(_usable(10)) and soft <= hard < 10


def test_sudden_death_keeps_back_the_overhead_of_the_moves_still_to_come() -> None:
    # No increment, late in the game: 15 moves assumed left, and 30 ms for each of 30 more
    # moves kept back; an increment of 0.15 s or more covers the overhead and keeps nothing.
    assert allocate_time(60.0, 0.0, ply=1000)[0] == pytest.approx(
        SOFT * (_usable(60) - RESERVE_MOVES * OVERHEAD) / MOVES_LEFT_MIN)
    assert allocate_time(60.0, 0.0, ply=1000)[0] == pytest.approx(2.2428)
    assert allocate_time(60.0, 0.15, ply=1000)[0] == pytest.approx(
        SOFT * (_usable(60) / MOVES_LEFT_MIN + INC_SHARE * 0.15))


def test_a_long_sudden_death_game_is_not_lost_on_time() -> None:
    # 3 s for 200 own moves (a long International game), each move spending its whole hard
    # bound and 2 ms beyond it: the clock never runs out. Spending a share of what is left
    # without the overhead kept back ran it out at move 41.
    left = 3.0
    for move in range(200):
        left -= allocate_time(left, 0.0, ply=2 * move)[1] + 0.002
        assert left > 0, f"the clock ran out at own move {move + 1}"


@pytest.mark.parametrize(("args", "error", "message"), [
    ((1.0, 0.0, None, 2**31), ValueError, "ply must be 0-100000, not 2147483648"),
    ((1.0, 0.0, 2**40), ValueError, "moves_to_go must be 0-10000"),
    ((True,), TypeError, "remaining is seconds"),
    ((1.0, "0.5"), TypeError, "increment is seconds"),
    ((1.0, 0.0, 2.5), TypeError, "moves_to_go is an int"),
    ((1.0, 0.0, False), TypeError, "moves_to_go is an int, not bool"),
    ((10**400,), ValueError, "remaining must be 0-360000 seconds"),
    ((1.0, -10**400), ValueError, "increment must be 0-3600 seconds"),
])
def test_allocate_time_refuses_what_the_core_cannot_take(args: tuple[Any, ...],
                                                         error: type[Exception],
                                                         message: str) -> None:
    with pytest.raises(error, match=message):
        allocate_time(*args)


@given(remaining=st.floats(min_value=1e-6, max_value=MAX_CLOCK),
       increment=st.floats(min_value=0, max_value=MAX_MOVETIME),
       moves_to_go=st.integers(min_value=0, max_value=10_000),
       ply=st.integers(min_value=0, max_value=100_000))
def test_the_hard_bound_never_plans_past_the_clock(remaining: float, increment: float,
                                                   moves_to_go: int, ply: int) -> None:
    soft, hard = allocate_time(remaining, increment, moves_to_go or None, ply)
    assert 0 < soft <= hard <= max(0.001, _usable(remaining))


def test_a_single_legal_move_under_a_game_clock_is_played_at_once() -> None:
    game = damiera.Game("russian", fen="W:Wc3:Bd4,h8")  # c3:e5 is forced
    result = Engine("russian").play(game, Limit(remaining=60.0, increment=0.5))
    assert str(result.move) == "c3:e5" and result.depth == 0


def test_a_game_clock_search_plays_a_legal_move() -> None:
    game = damiera.Game("international")
    for limit in (Limit(remaining=1.0, increment=0.1), Limit(remaining=0.5, moves_to_go=1),
                  Limit(remaining=2.0, cpu_time=True)):
        for level in (1, 3):
            result = Engine("international", level).play(game, limit)
            assert result.move in game.legal_moves and result.depth >= 1


def test_a_node_budget_on_the_cpu_clock_searches_as_on_the_wall_clock() -> None:
    game = damiera.Game("international")
    wall = Engine("international").analyse(game, Limit(nodes=20_000))
    cpu = Engine("international").analyse(game, Limit(nodes=20_000, cpu_time=True))
    assert (cpu.move, cpu.pv, cpu.nodes, cpu.depth) == (wall.move, wall.pv, wall.nodes,
                                                        wall.depth)


def test_the_cpu_clock_does_not_count_time_spent_sleeping() -> None:
    """A report callback that sleeps spends wall time but no CPU time: on the wall clock the
    search is past its time after depth 1 and starts no other iteration; on the CPU clock
    it goes on to the depth limit (its few thousand nodes take far less CPU than the time)."""
    game = damiera.Game("international")

    def sleepy(_info: Info) -> None:
        time.sleep(0.25)

    wall = Engine("international").analyse(game, Limit(time=0.2, depth=3), on_info=sleepy)
    cpu = Engine("international").analyse(game, Limit(time=0.2, depth=3, cpu_time=True),
                                           on_info=sleepy)
    assert wall.depth == 1
    assert cpu.depth == 3


@pytest.mark.parametrize("command", ["bestmove", "analyse"])
def test_the_cli_searches_on_the_cpu_clock(command: str, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    from damiera.cli import main

    limits: list[Limit] = []
    search = Engine._search, Engine._choose

    def seen(real: Callable[..., Any]) -> Callable[..., Any]:
        def spy(self: Engine, positions: object, lim: Limit, *args: Any, **kwargs: Any) -> Any:
            limits.append(lim)
            return real(self, positions, lim, *args, **kwargs)
        return spy

    monkeypatch.setattr(Engine, "_search", seen(search[0]))
    monkeypatch.setattr(Engine, "_choose", seen(search[1]))
    assert main([command, "american", "--movetime", "0.05", "--cpu-time"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("bestmove ")
    assert limits and all(lim.cpu_time and lim.time == 0.05 for lim in limits)
