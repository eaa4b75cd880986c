"""My games: the games of one browser, for ``/games``, ``GET /api/games`` and "Download all my
games" (``GET /api/pdn/my-games``).

A browser's games are every game in which its player token holds a seat (created, joined by
an invitation link, a challenge accepted or created, a rematch) or that it created
(``owner``); the store keeps the SHA-256 of the token for both (:func:`damiera.web.seats.
seat_key`). :func:`games_of` reads them newest first from three indexes (owner, white seat,
black seat, each with ``updated_at``: schema revision 0007), so the query reads about
``limit`` rows of each whatever the size of the table. Who may delete one is unchanged: the
browser holding all of its seats (:func:`damiera.web.seats.needed`).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Select, select, union

from damiera.web import clocks, seats
from damiera.web.game_records import GameRecords
from damiera.web.live import state as online
from damiera.web.results import ABORTED_REASON
from damiera.web.serialization import summary_json
from damiera.web.store import ConflictError, GameStore, StorageError, StoredGame, storage_errors
from damiera.web.store_tables import GameRow

__all__ = ["games_of", "listed", "recent", "recent_statement", "started"]


def started(stored: StoredGame) -> bool:
    """Whether ``stored`` has a move or a result: the games "download all my games" writes
    (a game opened and left without a move has nothing to write)."""
    return bool(stored.moves) or stored.result_reason is not None


def listed(stored: StoredGame) -> bool:
    """Whether "my games" lists ``stored``: :func:`started`, or a game online from its
    start, so that a player finds a game someone else began for it (a challenge accepted
    while its creator was elsewhere, an invitation still waiting for a friend); a game
    against the computer or on one screen left without a move is not listed."""
    return started(stored) or stored.opponent == "online"


def recent_statement(key: str, limit: int) -> Select[GameRow]:
    """The query of :func:`games_of`: the newest ``limit`` games of each of the three
    columns naming ``key`` (each read backwards from its index), merged, newest first."""
    branches = [
        select(GameRow.id).where(column == key)
        .order_by(GameRow.updated_at.desc()).limit(limit).subquery()
        for column in (GameRow.owner, GameRow.white_seat, GameRow.black_seat)
    ]
    ids = union(*(select(branch.c.id) for branch in branches))
    return (select(GameRow).where(GameRow.id.in_(ids))
            .order_by(GameRow.updated_at.desc()).limit(limit))


@storage_errors
def games_of(store: GameStore, token: str | None, limit: int = 50) -> list[StoredGame]:
    """The ``limit`` most recently changed games in which the player token ``token`` holds
    a seat or that it created, newest first (``[]`` for no token). Raises StorageError."""
    if not token:
        return []
    with store.reading() as session:
        rows = session.scalars(recent_statement(seats.seat_key(token), limit))
        return [StoredGame.from_row(r) for r in rows]


def _yours(stored: StoredGame, token: str | None) -> dict[str, Any]:
    """The fields of a summary that depend on who asks: ``seats`` (the sides ``token``
    holds), ``can_delete`` (it holds every seat deleting needs; in a game online,
    :func:`damiera.web.live.state.may_delete`), and in a game online the caller's ``side``,
    ``opponent_name`` (null: none given), ``waiting`` (nobody has taken the other seat yet)
    and ``outcome``."""
    mine = seats.held(stored, token)
    playing_online = stored.opponent == "online" and len(mine) == 1
    out: dict[str, Any] = {
        "seats": mine,
        "can_delete": online.may_delete(stored) if playing_online
        else bool(mine) and seats.needed(stored, "delete", stored.side) <= set(mine),
        "opponent_name": None,
    }
    if playing_online:
        side = mine[0]
        other = "black" if side == "white" else "white"
        out["side"] = side
        out["opponent_name"] = getattr(stored, f"{other}_name")
        out["waiting"] = getattr(stored, f"{other}_seat") is None
        if stored.result_reason and stored.result_reason != ABORTED_REASON:
            out["outcome"] = ("draw" if stored.result_winner is None
                              else "won" if stored.result_winner == side else "lost")
    return out


def recent(service: GameRecords, token: str | None, limit: int = 50) -> list[dict[str, Any]]:
    """Summaries of the recent games of the browser whose player token is ``token`` (see
    the module docstring), for "my games" (:func:`listed`):
    :func:`damiera.web.serialization.summary_json` (``id``, ``variant``, ``variant_name``,
    ``optional_capture``, ``opponent``, ``level``, ``plies``, ``moves`` (as numbered in the
    move list, not plies), ``result`` (null or ``{"winner", "reason", "text"}``, the text in
    the current language), ``updated_at``, ``created_at``) with ``side`` (yours against the
    computer or online), ``outcome`` ("won", "lost", "draw" or null; against the computer and
    online), ``seats`` (the sides you hold), ``opponent_name`` (online) and ``can_delete``.
    Reads the store: call in a thread. Raises StorageError."""
    out = []
    for s in games_of(service.store, token, limit * 4):
        if not listed(s):
            continue
        if clocks.flag_due(s):      # recorded now (the search runs once per game)
            try:
                s = service.record_flag(s)
            except (ConflictError, StorageError):
                pass                # shown as it stands; recorded when the game is opened
        out.append({**summary_json(s), **_yours(s, token)})
        if len(out) == limit:
            break
    return out
