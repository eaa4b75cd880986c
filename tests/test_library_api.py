"""The public library API (python-chess shape): the README's session and the modules'
doctests run here, plus one test per promise of Game, Move and Engine."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

import damiera
import damiera.engine.front
import damiera.pdn
import damiera.rules.game
from damiera.engine import Engine, Info, Limit
from damiera.engine.search import MAX_MOVETIME
from damiera.rules.game import GameOverError, ResultReason

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_session_runs() -> None:
    result = doctest.testfile(str(README), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 20
    assert result.failed == 0


@pytest.mark.parametrize("module", [damiera.rules.game, damiera.pdn, damiera.engine.front],
                         ids=lambda m: m.__name__)
def test_module_doctests(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.attempted > 0
    assert result.failed == 0


def test_move_prints_in_notation_with_labels() -> None:
    game = damiera.Game("international", fen="W:W28:B23,33,22,32,12")
    (move,) = game.legal_moves
    assert str(move) == "28x17x8" and repr(move) == "Move('28x17x8')"
    assert (move.from_square, move.to_square) == ("28", "8")
    assert move.path == ("28", "17", "8") and move.captures == ("22", "12")
    assert move.is_capture and not move.promotes


def test_copy_is_independent_and_undo_returns_the_move() -> None:
    game = damiera.Game("american")
    game.play("11-15")
    twin = game.copy()
    twin.play("23-19")
    assert game.ply == 1 and twin.ply == 2
    assert str(twin.undo()) == "23-19"
    assert twin.fen == game.fen
    with pytest.raises(IndexError, match="0 played"):   # nothing to undo; the game is not over
        damiera.Game("american").undo()


def test_outcome_no_legal_move_loses() -> None:
    game = damiera.Game("american", fen="B:W29:B18,25")
    assert game.outcome() is None
    game.play("18-22")
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winner is damiera.Color.BLACK and outcome.reason is ResultReason.NO_MOVES
    assert game.legal_moves == []
    with pytest.raises(GameOverError):
        game.play("22-26")


def test_outcome_threefold_repetition_ends_the_game() -> None:
    game = damiera.Game("american", fen="B:WK29:BK4")
    for move in ["4-8", "29-25", "8-4", "25-29"] * 2:
        game.play(move)
    outcome = game.outcome()
    assert outcome is not None and outcome.reason is ResultReason.REPETITION


def test_bad_move_and_bad_fen_raise_clear_errors() -> None:
    game = damiera.Game("italian")
    with pytest.raises(damiera.IllegalMoveError, match="no piece on 17"):
        game.play("17-13")
    with pytest.raises(damiera.FenError):
        damiera.Game("italian", fen="X:W1")
    with pytest.raises(damiera.UnknownVariantError):
        damiera.variant("klingon")


def test_engine_play_gives_a_legal_move_and_analyse_a_pv() -> None:
    game = damiera.Game("russian")
    engine = Engine("russian", level=1, seed=1)
    played = engine.play(game, Limit(depth=2))
    assert played.move in game.legal_moves
    analysis = engine.analyse(game, Limit(depth=3))
    assert analysis.depth == 3 and analysis.pv and analysis.pv[0] == analysis.move
    assert analysis.win_in is None


def test_engine_finds_a_forced_win() -> None:
    game = damiera.Game("russian", fen="W:Wc3:Bd4,f6")
    analysis = Engine("russian").analyse(game, Limit(depth=2))
    assert str(analysis.move) == "c3:e5:g7" and analysis.win_in == 1


def test_engine_refuses_a_finished_game_another_variant_and_bad_limits() -> None:
    finished = damiera.Game("russian", fen="W:Wc3:Bd4,f6")
    finished.play("c3:e5:g7")
    with pytest.raises(GameOverError):
        Engine("russian").play(finished, Limit(depth=1))
    with pytest.raises(ValueError, match="plays American"):
        Engine("american").play(damiera.Game("russian"), Limit(depth=1))
    for bad in ({"time": 0}, {"time": float("nan")}, {"depth": 0}, {"depth": 99},
                {"nodes": 0}):
        with pytest.raises(ValueError):
            Limit(**bad)


def test_a_node_limit_is_the_same_work_on_any_machine() -> None:
    # The budget is read every 256 nodes after depth 1 (always finished): the search stops
    # within one such step, and the same budget from fresh tables gives the same answer.
    game = damiera.Game("international")
    first = Engine("international").analyse(game, Limit(nodes=20_000))
    again = Engine("international").play(game, Limit(nodes=20_000))
    assert 20_000 <= first.nodes < 20_000 + 256
    assert (again.move, again.depth, again.nodes) == (first.move, first.depth, first.nodes)


def test_engine_stop_ends_a_search_and_on_info_reports_each_iteration() -> None:
    game = damiera.Game("international")
    engine = Engine("international", level=3)
    depths: list[int] = []

    def info(i: Info) -> None:
        depths.append(i.depth)
        if i.depth == 2:
            engine.stop()   # as a Hub "stop" would, from another thread

    result = engine.analyse(game, Limit(time=MAX_MOVETIME), on_info=info)
    assert depths[:2] == [1, 2] and result.depth <= 3 and result.move in game.legal_moves
    # a search started after the stop is not affected by it
    assert engine.analyse(game, Limit(depth=3)).depth == 3
