"""Turkish draughts in PDN: GameType 30 (PDN 3.0), algebraic moves on all 64 squares, a FEN
setup on squares that are light squares of the other rule sets."""

from __future__ import annotations

import pytest

from damiera import Game, pdn
from damiera.pdn import PdnError


def test_a_turkish_game_is_written_and_read_back() -> None:
    game = Game("turkish")
    for move in ("d3-d4", "d6-d5", "d4xd6xd8"):
        game.push(move)
    text = pdn.write_game(game)
    assert '[GameType "30,W,8,8,A0,0"]' in text and "2. d4xd6xd8" in text
    back = pdn.read_game(text)
    assert back is not None and back.variant.id == "turkish"
    assert [str(m) for m in back.moves] == ["d3-d4", "d6-d5", "d4xd6xd8"]


def test_a_fen_on_every_square_is_read_for_turkish_only() -> None:
    game = pdn.read_game('[GameType "30"]\n[FEN "W:WKa1,a2:Bb8"]\n1. a1-b1 *')
    assert game is not None
    assert [str(m) for m in game.moves] == ["a1-b1"]
    with pytest.raises(PdnError):
        pdn.read_game('[GameType "25"]\n[FEN "W:WKa1,a2:Bb8"]\n1. a1-b2 *')
