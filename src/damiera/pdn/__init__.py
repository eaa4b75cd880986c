"""PDN files: many games in (:func:`read_games`), many games out (:func:`write_games`).

Portable Draughts Notation 3.0 (the standard and its test set, ``shared/reference/pdn``):
:mod:`.tokens` turns text into tokens, :mod:`.syntax` groups them into games,
:mod:`.reader` replays each one with the rules core, :mod:`.writer` writes the canonical
form, :mod:`.results` holds each variant's convention for results, :mod:`.cli` is
``damiera pdn``.

>>> from damiera import pdn
>>> text = '[GameType "21"]\\n1. 11-15 22-18 2. 15x22 25x18 1/2-1/2'
>>> game = next(pdn.read_games(text))
>>> game.variant.name, [str(m) for m in game.moves], game.result
('American checkers', ['11-15', '22-18', '15x22', '25x18'], '1/2-1/2')
>>> print(pdn.write_game(game))
[Event "?"]
[Site "?"]
[Date "?"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "1/2-1/2"]
[GameType "21,B,8,8,N1,0"]
<BLANKLINE>
1. 11-15 22-18 2. 15x22 25x18 1/2-1/2
<BLANKLINE>
"""

from damiera.pdn.reader import (
    GAME_TYPES,
    PdnGame,
    Ply,
    read_game,
    read_games,
    variant_of,
)
from damiera.pdn.results import canonical_result, result_token, result_winner
from damiera.pdn.syntax import PdnError
from damiera.pdn.tokens import Kind, Token, tokenize
from damiera.pdn.writer import write_game, write_games

__all__ = [
    "GAME_TYPES",
    "Kind",
    "PdnError",
    "PdnGame",
    "Ply",
    "Token",
    "canonical_result",
    "read_game",
    "read_games",
    "result_token",
    "result_winner",
    "tokenize",
    "variant_of",
    "write_game",
    "write_games",
]
