"""The rules of a Frisian game's history (docs/rules.md, damiera.rules.king_moves): one king
may make at most three quiet moves in a row while its side has men, and the king-only endings
are drawn after a few moves (two kings against one: 7 moves each; one king against one: 2).
Counted by the Game from its moves, as lidraughts and pydraughts count them, never from a FEN.
"""

from __future__ import annotations

import pytest

from damiera.rules.game import Game, ResultReason
from damiera.rules.king_moves import START, streaks_of
from damiera.rules.notation import IllegalMoveError


def _plain(game: Game) -> list[str]:
    return sorted(str(m) for m in game.legal_moves)


def test_a_king_makes_at_most_three_quiet_moves_in_a_row_while_its_side_has_men() -> None:
    game = Game("frisian", "W:WK28,50:BK1")
    for move in ("28-22", "1-7", "22-28", "7-1", "28-22", "1-7"):
        game.play(move)
    assert game.tired_king() == "22"
    assert _plain(game) == ["50-44", "50-45"]  # the king on 22 must rest: the man moves
    with pytest.raises(IllegalMoveError, match="3 moves in a row") as refused:
        game.play("22-28")
    assert refused.value.code == "king_move_limit"
    game.play("50-44")
    game.play("7-1")
    assert "22-28" in _plain(game)  # a man's move ends the run
    assert game.tired_king() is None


def test_the_limit_is_the_same_king_s_another_king_starts_a_new_run() -> None:
    game = Game("frisian", "W:WK28,K46,50:BK1")
    for move in ("28-22", "1-7", "22-28", "7-1", "46-41", "1-7", "28-22", "7-1", "22-28",
                 "1-7"):
        game.play(move)
    assert game.tired_king() is None  # 28's run was broken by 46-41: two moves since
    game.play("28-22")
    game.play("7-1")
    assert game.tired_king() == "22"
    assert "41-37" in _plain(game) and not any(m.startswith("22-") for m in _plain(game))


def test_without_men_a_king_moves_as_often_as_it_likes() -> None:
    game = Game("frisian", "W:WK28:BK1,2")
    for move in ("28-22", "1-7", "22-28", "7-1", "28-22", "1-7"):
        game.play(move)
    assert game.tired_king() is None
    assert any(m.startswith("22-") for m in _plain(game))


def test_the_tired_king_may_still_capture() -> None:
    game = Game("frisian", "W:WK28,45:BK1,6")
    for move in ("28-22", "1-7", "22-28", "7-1", "28-22", "6-11"):
        game.play(move)
    assert game.tired_king() == "22"
    assert _plain(game) == ["22x6"]


def test_a_side_whose_only_moves_are_the_tired_king_s_loses() -> None:
    # White's man on 46 is blocked by Black's man on 41, which 37 covers
    game = Game("frisian", "W:WK50,46:BK5,41,37")
    for move in ("50-44", "5-10", "44-50", "10-5", "50-44", "5-10"):
        game.play(move)
    outcome = game.outcome()
    assert outcome is not None and outcome.reason is ResultReason.NO_MOVES
    assert outcome.winner is not None and outcome.winner.word == "black"


def test_the_streaks_are_read_from_the_positions_alone() -> None:
    game = Game("frisian", "W:WK28,45:BK1")
    assert streaks_of(game.positions) == START
    for move in ("28-22", "1-7", "22-28"):
        game.play(move)
    white, black = streaks_of(game.positions)
    assert white[1] == 2 and black[1] == 1


def _quiet_shuffle(game: Game, plies: int) -> None:
    """``plies`` king moves that give nothing away (no capture next)."""
    for _ in range(plies):
        for move in game.legal_moves:
            twin = game.copy()
            twin.play(move)
            if twin.outcome() is not None or not any(m.is_capture for m in twin.legal_moves):
                game.play(move)
                break
        else:
            raise AssertionError("no quiet move")


@pytest.mark.parametrize(("fen", "moves_each"), [
    ("W:WK47,K49:BK4", 7),
    ("W:WK47:BK4", 2),
])
def test_king_only_endings_are_drawn_after_their_moves(fen: str, moves_each: int) -> None:
    game = Game("frisian", fen)
    _quiet_shuffle(game, 2 * moves_each - 1)
    assert game.outcome() is None
    _quiet_shuffle(game, 1)
    outcome = game.outcome()
    assert outcome is not None and outcome.reason is ResultReason.KING_ENDING
    assert outcome.winner is None


def test_the_king_ending_rule_is_frisian_s_only() -> None:
    game = Game("international", "W:WK47:BK4")
    _quiet_shuffle(game, 6)
    assert game.outcome() is None
