"""The engine in Frisian draughts: its search plays only moves the game allows, so a king
that made three quiet moves in a row (its side having men) is not moved again at the root,
and it plays a Frysk! game to its end through the Game's rules."""

from __future__ import annotations

from damiera.engine import Engine, Limit
from damiera.rules.game import Game


def _tired_game() -> Game:
    game = Game("frisian", "W:WK28,50:BK1")
    for move in ("28-22", "1-7", "22-28", "7-1", "28-22", "1-7"):
        game.play(move)
    assert game.tired_king() == "22"
    return game


def test_the_search_never_offers_the_resting_king_s_quiet_moves() -> None:
    game = _tired_game()
    with Engine("frisian", level=3) as engine:
        lines = engine.analyse(game, Limit(depth=4), multipv=10)
        assert sorted(str(line.move) for line in lines) == ["50-44", "50-45"]
        assert str(engine.play(game, Limit(depth=4)).move) in ("50-44", "50-45")


def test_the_engine_plays_a_frysk_game_by_the_game_s_rules() -> None:
    game = Game("frysk")
    with Engine("frysk", level=1) as engine:
        while not game.is_game_over() and game.ply < 160:
            move = engine.play(game, Limit(nodes=2_000)).move
            assert move is not None
            game.play(move)  # refused if the engine broke a rule of the game's history
