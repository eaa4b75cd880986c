"""A match scored by pairs of games (one opening, colours swapped): the pentanomial counts and
the Elo interval with the pair as the unit (``pair_stats``, ``MatchResult.pairs``)."""

from __future__ import annotations

import json
import math

import pytest

from damiera.cli import main
from damiera.engine import match
from damiera.engine.elo import MIN_PAIRS, PAIR_PRIOR, elo_stats, pair_stats
from damiera.engine.match import GameRecord, run_match
from damiera.rules.variant import variant


def test_pair_stats_count_each_pair_by_the_first_players_points() -> None:
    counts, low, high = pair_stats([2, 1.5, 1, 1, 0.5, 0, 2])
    assert counts == [1, 1, 2, 1, 2]
    assert low is None and high is None  # fewer than MIN_PAIRS pairs: no interval


def test_pair_interval_counts_an_opening_decided_from_the_start_once() -> None:
    # 20 pairs: 10 won 2-0 by the first player, 10 split 1-1, as when each opening of the
    # second half is won by whoever has the favoured side. Game by game (+30 =0 -10) the
    # interval counts 40 independent games; by pairs it is the spread of 20 pair scores,
    # estimated with PAIR_PRIOR pairs added to each of the five outcomes.
    pairs = [2.0] * 10 + [1.0] * 10
    counts, low, high = pair_stats(pairs)
    assert counts == [0, 0, 10, 0, 10]
    assert low is not None and high is not None
    score, elo, _, _ = elo_stats(30, 0, 10)
    assert score == 0.75 and low < elo < high
    outcomes = [p / 2 for p in pairs]  # the pairs' scores, a fraction of 2 points
    spread = sum((s - 0.75) ** 2 for s in outcomes)
    spread += PAIR_PRIOR * sum((k / 4 - 0.75) ** 2 for k in range(5))
    se = math.sqrt(spread / (20 + 5 * PAIR_PRIOR - 1) / 20)
    assert low == pytest.approx(-400 * math.log10(1 / (0.75 - 1.96 * se) - 1))
    assert high == pytest.approx(-400 * math.log10(1 / (0.75 + 1.96 * se) - 1))


def test_pair_interval_is_open_beyond_the_edges() -> None:
    # 100%: open above, a finite lower bound; one pair off it, the same shape.
    for pairs in ([2.0] * 10, [2.0] * 19 + [1.5]):
        _, low, high = pair_stats(pairs)
        assert low is not None and 0 < low < math.inf and high == math.inf
    _, low, high = pair_stats([0.0] * 19 + [0.5])
    assert low == -math.inf and high is not None and high < 0


def test_pair_interval_of_pairs_that_all_scored_alike_has_a_width() -> None:
    for pairs, inside in (([1.0] * 30, 0.0), ([1.5] * 10, elo_stats(10, 10, 0)[1])):
        _, low, high = pair_stats(pairs)
        assert low is not None and high is not None and low < inside < high


def test_pair_interval_needs_min_pairs() -> None:
    assert pair_stats([2.0, 1.0] * 4 + [1.5])[1:] == (None, None)
    assert None not in pair_stats([1.0] * (MIN_PAIRS - 1) + [2.0])


@pytest.mark.parametrize("bad", [2.5, -0.5, 0.25])
def test_pair_stats_refuse_impossible_points(bad: float) -> None:
    with pytest.raises(ValueError):
        pair_stats([1.0, bad])


def _white_results(monkeypatch: pytest.MonkeyPatch, results: list[int]) -> None:
    """The match's games end at once with White's ``results`` in turn (no search)."""
    played = iter(results)

    def job(task: match._Task) -> GameRecord:
        return GameRecord(task.fen, task.white, task.black, next(played), "no legal move", 10)

    monkeypatch.setattr(match, "_game_job", job)


def test_match_counts_pairs_from_the_first_players_side(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # first has White in even games. Pair 1: White wins both (first 1 + 0 = 1 point);
    # pair 2: first wins as White, draws as Black (1.5); pair 3: Black wins both (1).
    _white_results(monkeypatch, [1, 1, 1, 0, -1, -1])
    result, _ = run_match(variant("american"), "1", "random", 6, movetime=0.01)
    assert result.pairs == [0, 0, 2, 1, 0]
    assert result.pair_elo_low is None and result.pair_elo_high is None
    assert result.pair_line() == "pairs 3: 2-0 0, 1.5-0.5 1, 1-1 2, 0.5-1.5 0, 0-2 0"
    assert result.pair_line() in result.summary()


def test_match_with_an_odd_game_counts_complete_pairs_only(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _white_results(monkeypatch, [1, -1, 0])
    result, _ = run_match(variant("american"), "1", "random", 3, movetime=0.01)
    assert result.pairs == [0, 0, 0, 0, 1]  # the third game has no partner


def test_cli_match_prints_the_pairs_and_their_interval(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # 20 pairs: first wins 12 of them 2-0 and splits 8 (White wins both games).
    _white_results(monkeypatch, [1, -1] * 12 + [1, 1] * 8)
    assert main(["match", "american", "--first", "1", "--second", "random", "--games", "40",
                 "--movetime", "0.01", "--quiet", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    pairs = [ln for ln in lines if ln.startswith("pairs ")]
    assert len(pairs) == 1
    assert pairs[0].startswith("pairs 20: 2-0 12, 1.5-0.5 0, 1-1 8, 0.5-1.5 0, 0-2 0; "
                               "95% interval from pairs +")
    data = json.loads(lines[-1])
    assert data["pairs"] == [0, 0, 8, 0, 12]
    assert 0 < data["pair_elo_low"] < data["elo"] < data["pair_elo_high"]
