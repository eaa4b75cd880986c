"""The engine on Turkish draughts' board of 64 squares: the hand-made evaluation's tables
and its start count, its king endings (the diagonal kings' drawing facts do not apply), and a
search that plays a legal move."""

from __future__ import annotations

from damiera import _core
from damiera.engine import Engine, Limit
from damiera.rules.game import Game
from damiera.rules.movegen import native_rules
from damiera.rules.position import parse_fen
from damiera.rules.variant import variant


def test_the_evaluation_counts_the_start_of_all_64_squares() -> None:
    ev = _core.Evaluation(native_rules(variant("turkish")))
    assert ev.start_pieces == 32


def test_two_kings_against_one_are_not_scored_as_a_held_draw() -> None:
    """On the diagonal boards a lone flying king against two pieces holds the draw and the
    evaluation divides the stronger side's score by 8; a rook-like king has no such fact."""
    turkish, russian = variant("turkish"), variant("russian")
    t = _core.Evaluation(native_rules(turkish)).evaluate(parse_fen(turkish, "W:WKa1,Kh8:BKd4"))
    r = _core.Evaluation(native_rules(russian)).evaluate(parse_fen(russian, "W:WKa1,Kh8:BKd4"))
    assert t > 4 * r > 0


def test_a_search_plays_a_legal_turkish_move() -> None:
    game = Game("turkish")
    with Engine(game.variant) as engine:
        result = engine.play(game, Limit(depth=4))
    assert result.move in game.legal_moves
