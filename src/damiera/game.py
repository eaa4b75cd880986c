"""The former home of the library's :class:`Game` and :class:`Move`, kept for one release so
that code importing ``damiera.game`` runs: the names are those of
:mod:`damiera.rules.game` and :mod:`damiera.rules.move` (import them from ``damiera``)."""

from __future__ import annotations

from damiera.rules.game import Game, Outcome
from damiera.rules.move import Move
from damiera.rules.variant import variant

__all__ = ["Game", "Move", "Outcome", "variant"]
