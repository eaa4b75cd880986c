"""The search under the goal options (hand-made evaluation pinned, tests/engine/conftest.py):
it scores a stuck side as a winner under the losing rule, a promotion as the end of the game
under breakthrough (a capture that crowns too), and finds the forced win in small positions;
the hand-made evaluation knows each goal."""

from __future__ import annotations

import pytest

from damiera.engine import Engine, Limit
from damiera.engine.search import MATE_BOUND, Searcher
from damiera.rules.game import Game, ResultReason
from damiera.rules.notation import move_text
from damiera.rules.position import parse_fen
from damiera.rules.variant import Color, variant


def _play_out(game: Game, engine: Engine, plies: int) -> None:
    for _ in range(plies):
        if game.is_over():
            return
        move = engine.play(game, Limit(depth=8)).move
        assert move is not None
        game.play(move)


def test_losing_rule_engine_forces_its_last_piece_away() -> None:
    # White gives its two men away: 28-23 makes Black take 19x28, and White's last man must
    # be taken next; without the option White would keep its men.
    fen = "W:W28,33:B19,10"
    v = variant("international+losing")
    result = Searcher(v).search(parse_fen(v, fen), depth=6)
    assert result.score > MATE_BOUND
    game = Game(v, fen=fen)
    _play_out(game, Engine(v, level=3), 12)
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is Color.WHITE
    assert outcome.reason is ResultReason.LOSING_NO_PIECES
    plain = variant("international")
    assert Searcher(plain).search(parse_fen(plain, fen), depth=6).score < MATE_BOUND


def test_losing_rule_a_side_left_without_a_move_is_scored_as_a_win() -> None:
    # White's 46 is shut in by 41 and 37 once Black plays 32-37: under the usual goal that
    # wins for Black, under the losing rule it hands White the game, and the search sees it.
    v = variant("international+losing")
    fen = "B:W46:B41,32"
    result = Searcher(v).search(parse_fen(v, fen), depth=4)
    assert result.move is not None
    assert move_text(v, result.move) != "32-37"  # it would hand White the game
    plain = variant("international")
    best = Searcher(plain).search(parse_fen(plain, fen), depth=4)
    assert best.move is not None and move_text(plain, best.move) == "32-37"
    assert best.score > MATE_BOUND


def test_breakthrough_engine_races_to_the_first_king() -> None:
    fen = "W:W16,45:B35,20"
    v = variant("international+breakthrough")
    result = Searcher(v).search(parse_fen(v, fen), depth=8)
    assert result.score > MATE_BOUND
    game = Game(v, fen=fen)
    _play_out(game, Engine(v, level=3), 20)
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is Color.WHITE
    # (Black, lost either way, may give its men away before White crowns)
    assert outcome.reason in (ResultReason.BREAKTHROUGH, ResultReason.NO_PIECES)


def test_breakthrough_a_crowning_capture_is_a_win_in_one() -> None:
    # Black's 39x50 crowns: the game ends there, whatever White's men could do next.
    v = variant("international+breakthrough")
    result = Searcher(v).search(parse_fen(v, "B:W44,6,7:B39"), depth=3)
    assert result.move is not None and move_text(v, result.move) == "39x50"
    assert result.score > MATE_BOUND


def test_breakthrough_search_sees_the_opponent_win_the_race_to_the_far_row() -> None:
    # White's man on 11 crowns in two moves, Black's on 25 needs five: Black, to move, has
    # lost whatever it plays, and the search says so.
    v = variant("international+breakthrough")
    result = Searcher(v).search(parse_fen(v, "B:W11:B25"), depth=4)
    assert result.score < -MATE_BOUND
    plain = variant("international")
    assert abs(Searcher(plain).search(parse_fen(plain, "B:W11:B25"), depth=4).score) < MATE_BOUND


@pytest.mark.parametrize("option", ["losing", "breakthrough"])
def test_the_evaluation_is_the_hand_made_one_of_the_goal(option: str) -> None:
    # No trained weights serve a goal option (their key names it), and the static score
    # differs from the usual goal's in the same position.
    from damiera.engine.evaluate import Evaluator
    from damiera.engine.patterns import weights_path

    v = variant(f"international+{option}")
    assert not weights_path(v).exists()
    pos = parse_fen(v, "W:W31,32,33,34,25:B1,2,3")
    assert Evaluator(v).evaluate(pos) != Evaluator(variant("international")).evaluate(pos)
    if option == "losing":
        assert Evaluator(v).evaluate(pos) < 0  # more pieces is worse
