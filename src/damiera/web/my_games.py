"""My games: the games of one browser, for ``/games``, ``GET /api/games`` and "Download all my
games" (``GET /api/pdn/my-games``)."""

from __future__ import annotations

from typing import Any

from damiera.web import clocks, seats
from damiera.web.game_records import GameRecords
from damiera.web.serialization import summary_json
from damiera.web.store import ConflictError, StorageError, StoredGame

__all__ = ["recent", "started"]


def started(stored: StoredGame) -> bool:
    """Whether ``stored`` has a move or a result: the games "my games" lists and "download
    all my games" writes (a game opened and left without a move is neither)."""
    return bool(stored.moves) or stored.result_reason is not None


def recent(service: GameRecords, owner: str | None, limit: int = 50) -> list[dict[str, Any]]:
    """Summaries of the recent games of the browser whose player token is ``owner``, for
    "my games", games without a move or a result left out: ``id``, ``variant``,
    ``variant_name``, ``optional_capture``, ``opponent``, ``level``, ``side`` (yours against
    the computer), ``plies``, ``moves`` (moves as numbered in the move list, not plies),
    ``result`` (null or ``{"winner", "reason", "text"}``, the text in the current language),
    ``outcome`` (against the computer: "won", "lost", "draw" or null), ``updated_at``,
    ``created_at``. Reads the store: call in a thread."""
    out = []
    for s in service.store.recent(seats.owner_key(owner), limit * 4):
        if not started(s):
            continue
        if clocks.flag_due(s):      # recorded now (the search runs once per game)
            try:
                service.record_flag(s)
            except (ConflictError, StorageError):
                pass                # shown as it stands; recorded when the game is opened
        out.append(summary_json(s))
        if len(out) == limit:
            break
    return out
