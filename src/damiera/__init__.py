"""Damiera: multi-variant draughts (rules core, engine, web site).

The library API, in the shape of python-chess: :func:`variant`, :class:`Game` (legal moves,
``play("22-19")`` / ``push``, ``undo()`` / ``pop()``, ``fen``, ``outcome()``, ``copy()``),
:class:`Move` (written in the variant's notation), :mod:`damiera.pdn` (``read_games``, ``write_games``) and
:mod:`damiera.engine` (``Engine(variant, level).play(game, Limit(time=1.0))``). They are
loaded on first use, so ``import damiera`` stays light.

The rules core, the search and the evaluation run in the native extension
:mod:`damiera._core` (C sources in ``csrc/``), compiled by ``pip install``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from damiera import pdn
    from damiera.rules.game import Game, GameOverError, NoMoveToUndoError, Outcome, ResultReason
    from damiera.rules.move import LegalMoves, Move
    from damiera.rules.notation import AmbiguousMoveError, IllegalMoveError, NotationError
    from damiera.rules.position import FenError
    from damiera.rules.variant import VARIANTS, Color, UnknownVariantError, Variant, variant

#: Public names and the module each comes from (loaded on first use).
_EXPORTS = {
    "Game": "damiera.rules.game",
    "Move": "damiera.rules.move",
    "LegalMoves": "damiera.rules.move",
    "Outcome": "damiera.rules.game",
    "variant": "damiera.rules.variant",
    "GameOverError": "damiera.rules.game",
    "NoMoveToUndoError": "damiera.rules.game",
    "ResultReason": "damiera.rules.game",
    "AmbiguousMoveError": "damiera.rules.notation",
    "IllegalMoveError": "damiera.rules.notation",
    "NotationError": "damiera.rules.notation",
    "FenError": "damiera.rules.position",
    "VARIANTS": "damiera.rules.variant",
    "Color": "damiera.rules.variant",
    "UnknownVariantError": "damiera.rules.variant",
    "Variant": "damiera.rules.variant",
}

__all__ = [
    "VARIANTS",
    "AmbiguousMoveError",
    "Color",
    "FenError",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "LegalMoves",
    "Move",
    "NoMoveToUndoError",
    "NotationError",
    "Outcome",
    "ResultReason",
    "UnknownVariantError",
    "Variant",
    "pdn",
    "variant",
]


def __getattr__(name: str) -> Any:
    if name == "pdn":
        return importlib.import_module("damiera.pdn")
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'damiera' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
