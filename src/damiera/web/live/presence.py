"""Whose page is open: the presence of each player of a game between two browsers.

A player is present while one of its pages holds the game's event stream open (in any web
process). The process holding it writes the ``seat_presence`` row of that side
(:class:`~damiera.web.store_tables.PresenceRow`): ``online`` and ``since`` when the first of its
streams opens or the last one closes, and ``seen_at`` again every few seconds while one is
open (:meth:`Presence.confirm`). A row still ``online`` but not confirmed for
``stale_after`` seconds belongs to a process that died: the player counts as gone since it
was last seen (:func:`away_since`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select, update

from damiera.web.store import GameStore, storage_errors
from damiera.web.store_tables import PresenceRow

#: A side's presence: ``{"online": bool, "since": datetime, "seen_at": datetime}``.
Seat = dict[str, Any]


def away_since(seat: Seat | None, now: datetime, stale_after: float,
               never: datetime) -> datetime | None:
    """When the player left (None: present now); a player whose page never opened the game
    (``seat`` None) counts as gone since ``never`` (the caller's choice: when the game
    began)."""
    if seat is None:
        return never
    if not seat["online"]:
        return seat["since"]   # type: ignore[no-any-return]
    seen: datetime = seat["seen_at"]
    return seen if now - seen > timedelta(seconds=stale_after) else None


class Presence:
    """The presence rows of ``store`` (each call one transaction, run in a thread by the
    async wrappers)."""

    def __init__(self, store: GameStore):
        self.store = store

    @storage_errors
    def _mark(self, game_id: str, side: str, online: bool, now: datetime) -> None:
        with self.store.transaction() as session:
            row = session.get(PresenceRow, (game_id, side))
            if row is None:
                session.add(PresenceRow(game_id=game_id, side=side, online=online, since=now,
                                        seen_at=now))
            else:
                if row.online != online:
                    row.since = now
                row.online = online
                row.seen_at = now

    async def mark(self, game_id: str, side: str, online: bool) -> datetime:
        """Record that ``side``'s player came (``online``) or left, now; returns the time."""
        now = datetime.now(UTC)
        await asyncio.to_thread(self._mark, game_id, side, online, now)
        return now

    @storage_errors
    def _confirm(self, seats: list[tuple[str, str]], now: datetime) -> None:
        with self.store.transaction() as session:
            for game_id, side in seats:
                session.execute(update(PresenceRow)
                                .where(PresenceRow.game_id == game_id, PresenceRow.side == side)
                                .values(seen_at=now, online=True)
                                .execution_options(synchronize_session=False))

    async def confirm(self, seats: Iterable[tuple[str, str]]) -> None:
        """Every ``(game_id, side)`` of ``seats`` is still present (one transaction)."""
        todo = list(seats)
        if todo:
            await asyncio.to_thread(self._confirm, todo, datetime.now(UTC))

    @storage_errors
    def _read(self, game_id: str) -> dict[str, Seat]:
        with self.store.reading() as session:
            rows = session.scalars(select(PresenceRow).where(PresenceRow.game_id == game_id))
            return {r.side: {"online": r.online, "since": _utc(r.since),
                             "seen_at": _utc(r.seen_at)} for r in rows}

    async def read(self, game_id: str) -> dict[str, Seat]:
        """The presence of each side that ever opened the game (``{}``: none did)."""
        return await asyncio.to_thread(self._read, game_id)

    @storage_errors
    def _read_many(self, game_ids: list[str]) -> dict[str, dict[str, Seat]]:
        out: dict[str, dict[str, Seat]] = {}
        with self.store.reading() as session:
            for start in range(0, len(game_ids), 500):
                rows = session.scalars(select(PresenceRow).where(
                    PresenceRow.game_id.in_(game_ids[start:start + 500])))
                for r in rows:
                    out.setdefault(r.game_id, {})[r.side] = {
                        "online": r.online, "since": _utc(r.since), "seen_at": _utc(r.seen_at)}
        return out

    async def read_many(self, game_ids: list[str]) -> dict[str, dict[str, Seat]]:
        """:meth:`read` of several games in one query (500 games a statement)."""
        return await asyncio.to_thread(self._read_many, game_ids) if game_ids else {}


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
