"""Damiera: multi-variant draughts (rules core, engine, web site).

The library API, in the shape of python-chess: :func:`variant`, :class:`Game` (legal moves,
``play("22-19")``, ``undo()``, ``fen``, ``outcome()``, ``copy()``), :class:`Move` (written
in the variant's notation), :mod:`damiera.pdn` (``read_games``, ``write_games``) and
:mod:`damiera.engine` (``Engine(variant, level).play(game, Limit(time=1.0))``).

:func:`compiled` tells whether the hot modules run compiled with mypyc (``make compile``).
Importing the package warns (:class:`~damiera._build.StaleBuildWarning`, on standard error)
when a compiled module is older than its source, since Python would run the old compiled code.
"""

import warnings

from damiera import pdn
from damiera._build import StaleBuildWarning, compiled, stale, stale_message
from damiera.game import Game, Move, Outcome, variant
from damiera.rules.game import GameOverError, ResultReason
from damiera.rules.notation import AmbiguousMoveError, IllegalMoveError, NotationError
from damiera.rules.position import FenError
from damiera.rules.variant import VARIANTS, Color, UnknownVariantError, Variant

__all__ = [
    "VARIANTS",
    "AmbiguousMoveError",
    "Color",
    "FenError",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "Move",
    "NotationError",
    "Outcome",
    "ResultReason",
    "UnknownVariantError",
    "Variant",
    "compiled",
    "pdn",
    "variant",
]

if _stale := stale():
    warnings.warn(stale_message(_stale), StaleBuildWarning, stacklevel=1)
