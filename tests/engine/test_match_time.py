"""Time in engine matches: each side's CPU seconds a move (mean and max) in the printed
summary and the JSON result, ``--cpu-time``, and the game clock ``--tc SECONDS+INCREMENT``
(each side's clock runs while it thinks, a flag fall ends the game, the clocks are reported).

No speed is asserted: a flag fall is made by a clock that the test advances itself."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from damiera.cli import main
from damiera.engine import match, match_game
from damiera.engine.match import MatchResult, play_game
from damiera.pdn.reader import read_games
from damiera.rules.position import start_position
from damiera.rules.variant import variant


def test_match_reports_each_side_s_cpu_a_move(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "american", "--first", "1", "--second", "random", "--games", "2",
                 "--movetime", "0.05", "--cpu-time", "--json", "--quiet"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert "(CPU time)" in out[0]
    line = next(text for text in out if text.startswith("CPU a move: "))
    assert line.startswith("CPU a move: 1 mean ") and "; random mean " in line
    data = json.loads(out[-1])
    assert data["cpu_time"] is True and data["clock"] is None
    for who in ("first", "second"):
        mean, most = data[f"{who}_cpu_mean"], data[f"{who}_cpu_max"]
        assert isinstance(mean, float) and isinstance(most, float) and 0 <= mean <= most
    assert data["first_flag_falls"] == data["second_flag_falls"] == 0


def test_a_game_clock_match_of_two_tiny_games_reports_the_clocks(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pdn = tmp_path / "games.pdn"
    assert main(["match", "american", "--first", "3", "--second", "1", "--games", "2",
                 "--tc", "2+0.1", "--json", "--quiet", "--pdn", str(pdn)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert "on a 2+0.1 clock" in out[0]
    clock_line = next(text for text in out if text.startswith("clock 2+0.1 (wall time): "))
    assert "flag falls 3 " in clock_line and "least left 3 " in clock_line
    data = json.loads(out[-1])
    assert data["clock"] == 2.0 and data["increment"] == 0.1 and data["movetime"] is None
    falls = data["first_flag_falls"] + data["second_flag_falls"]
    assert isinstance(data["first_flag_falls"], int) and 0 <= falls <= 2
    assert data["first_least_left"] is not None and data["first_least_left"] <= 2.0
    games = list(read_games(pdn))
    assert len(games) == 2
    for game in games:
        assert game.tags["TimeControl"] == "2+0.1"
        assert all(ply.comment and ply.comment.startswith("[%clk 0:00:") for ply in game.plies)


def _moves_take(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """Every move takes ``seconds`` of wall and of CPU time on clocks the test advances."""
    def clock() -> object:
        now = [0.0]

        def tick() -> float:
            now[0] += seconds
            return now[0]

        return tick

    monkeypatch.setattr(match_game, "time", SimpleNamespace(monotonic=clock(), thread_time=clock()))


def test_a_flag_fall_loses_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every move takes 0.4 s: with 1 s and no increment, Black's third move (Black moves
    first in American checkers) would leave it -0.2 s, so its flag falls before that move is
    played and White wins on time."""
    _moves_take(monkeypatch, 0.4)
    v = variant("american")
    record = play_game(v, start_position(v), "random", "random", None, seed=3, clock=1.0)
    assert record.reason in ("time", "time-opponent-cannot-win") and record.plies == 4
    assert record.black_time.flag_fell and not record.white_time.flag_fell
    assert record.result == (1 if record.reason == "time" else 0)
    assert record.black_time.left == 0.0 and record.white_time.left == pytest.approx(0.2)
    assert record.black_time.least == pytest.approx(-0.2)
    assert record.black_time.cpu == pytest.approx([0.4, 0.4, 0.4])
    assert '[Termination "time forfeit"]' in record.pdn


def test_a_match_counts_each_player_s_flag_falls(monkeypatch: pytest.MonkeyPatch) -> None:
    _moves_take(monkeypatch, 0.4)
    result, records = match.run_match(variant("american"), "random", "1", 2, clock=1.0,
                                      cpu_time=True)
    # Black's flag falls in both games: "first" has White in game 1 and Black in game 2.
    assert [r.reason for r in records] == ["time", "time"]
    assert result.first_flag_falls == 1 and result.second_flag_falls == 1
    assert result.wins == result.losses == 1
    assert result.first_least_left == result.second_least_left == pytest.approx(-0.2)
    assert result.first_cpu_max == pytest.approx(0.4)
    assert "(CPU time): flag falls random 1, 1 1" in result.summary()


def test_a_match_without_moves_says_so() -> None:
    result = MatchResult("american", "3", "random", 2, 2, 0, 0, 1.0, 279.6, -113.4, 500.0,
                         300.0, None)
    assert result.time_lines() == ["CPU a move: 3 none; random none"]


@pytest.mark.parametrize(("extra", "message"), [
    (["--tc", "abc"], "--tc must be seconds for the game"),
    (["--tc", "60+"], "--tc must be seconds for the game"),
    (["--tc=-5+1"], "--tc must be seconds for the game"),
    (["--tc", "0+1"], "the clock must be above 0"),
    (["--tc", "1e9"], "--tc must be seconds for the game"),
    (["--tc", "9999999+0"], "the clock must be above 0 and at most 360000"),
    (["--tc", "60+5000"], "the increment must be at most 3600"),
    (["--tc", "6" * 100], "--tc must be seconds for the game"),
    (["--tc", "60+1", "--movetime", "1"], "not both"),
])
def test_a_bad_time_control_exits_2_with_one_line(extra: list[str], message: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "american", "--first", "1", "--second", "1", "--games", "2",
                 *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("damiera: error:") and message in err and "\n" not in err


def test_run_match_refuses_a_clock_out_of_range() -> None:
    with pytest.raises(ValueError, match="not both"):
        match.run_match(variant("american"), "1", "1", 2, movetime=1.0, clock=60.0)
    with pytest.raises(ValueError, match="increment must be 0 to 3600"):
        match.run_match(variant("american"), "1", "1", 2, clock=60.0, increment=-1.0)


def test_a_clock_at_exactly_zero_has_run_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Moves of 0.5 s on a 1 s clock without increment: Black's second move leaves exactly
    0.0 s, which is a flag fall (the next search could not be given a clock of 0)."""
    _moves_take(monkeypatch, 0.5)
    v = variant("american")
    record = play_game(v, start_position(v), "random", "random", None, seed=3, clock=1.0)
    assert record.black_time.flag_fell and record.plies == 2
    assert record.black_time.least == 0.0 and record.black_time.cpu == [0.5, 0.5]


def test_a_clock_grown_past_the_search_limit_is_offered_as_the_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Moves of 0.01 s with 10 s added: the clock grows past MAX_CLOCK, and level 1 is
    still given a clock it accepts (Limit refuses more than MAX_CLOCK)."""
    from damiera.engine.search import MAX_CLOCK

    _moves_take(monkeypatch, 0.01)
    v = variant("american")
    record = play_game(v, start_position(v), "1", "1", None, seed=3, clock=MAX_CLOCK,
                       increment=10.0)
    assert record.plies > 2 and not record.white_time.flag_fell
    assert record.white_time.left is not None and record.white_time.left > MAX_CLOCK
