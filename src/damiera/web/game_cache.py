"""Rebuilt games kept in memory by the web layer (:mod:`damiera.web.games`).

:class:`GameCache` keeps the rules-core Game (and its JSON) of recently used games by id,
valid while the stored version is unchanged (copies come from :meth:`Game.copy`);
:func:`fen_of` memoises FEN strings. Every cache here is bounded.
"""

from __future__ import annotations

from collections import OrderedDict
from functools import lru_cache
from typing import Any

from damiera.rules.game import Game
from damiera.rules.position import Position, write_fen
from damiera.rules.variant import variant
from damiera.web.store import StoredGame


class GameCache:
    """Rebuilt games (and their JSON) by id, valid while the stored version is unchanged, so
    a read does not replay the moves and a change replays nothing but itself."""

    def __init__(self, size: int = 256):
        self.size = size
        self._items: OrderedDict[str, tuple[int, Game, dict[str, Any] | None]] = OrderedDict()

    def get(self, stored: StoredGame) -> tuple[Game, dict[str, Any] | None] | None:
        item = self._items.get(stored.id)
        if item is None or item[0] != stored.version:
            return None
        self._items.move_to_end(stored.id)
        return item[1], item[2]

    def drop(self, game_id: str) -> None:
        """Forget the game (it was deleted)."""
        self._items.pop(game_id, None)

    def put(self, stored: StoredGame, game: Game, data: dict[str, Any] | None = None) -> None:
        self._items[stored.id] = (stored.version, game, data)
        self._items.move_to_end(stored.id)
        while len(self._items) > self.size:
            self._items.popitem(last=False)


@lru_cache(maxsize=65536)
def fen_of(variant_id: str, position: Position) -> str:
    """FEN of a position (memoised: every game JSON lists the FEN of each of its positions).
    ``variant_id``: a rule set's id, a custom one included."""
    return write_fen(variant(variant_id), position)
