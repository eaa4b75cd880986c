"""A challenge lasts while its creator is in the lobby, as a seek does on lichess.

Its creator is in the lobby while one of its lobby pages holds the lobby's event stream open
(``GET /api/challenges/events`` with the creator's player cookie), in any web process. The
process holding it writes ``creator_seen_at`` (:class:`~damiera.web.store_tables.ChallengeRow`) of
the creator's open challenges: when its first stream there opens, again every
``presence_every`` seconds while one is open, and when its last one there closes (the moment
it left). A challenge whose creator was last seen more than ``challenge_grace`` seconds ago
(20 by default: a reload or a connection that drops and comes back keeps it) is no longer
open: it is not listed nor accepted, and :meth:`CreatorPresence.sweep` marks it cancelled
and tells the lobby pages (``{"k": "lobby", "what": "removed", "id"}`` on the bus). The
process where the last stream closed sweeps once the grace period has passed; every process
also sweeps every ``presence_every`` seconds, for a process that died and for a challenge
made through the API by a client that never opens the lobby (it lasts the grace period from
its creation). A challenge made before this was kept (no ``creator_seen_at``) counts as seen
when it was made.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, func, or_, select, update

from damiera.web.live.hub import LiveHub, LiveSettings
from damiera.web.store import GameStore, StorageError, storage_errors
from damiera.web.store_tables import ChallengeRow

log = logging.getLogger("damiera.web.live")

__all__ = ["CreatorPresence", "still_here"]


def still_here(now: datetime, grace: float) -> ColumnElement[bool]:
    """The condition of a challenge whose creator was seen within ``grace`` seconds of
    ``now`` (one made before ``creator_seen_at`` was kept: made within them)."""
    seen = func.coalesce(ChallengeRow.creator_seen_at, ChallengeRow.created_at)
    return seen >= now - timedelta(seconds=grace)


class CreatorPresence:
    """The lobby streams of this process by creator (the SHA-256 of the player token), and
    the store writes that keep their challenges open (see the module docstring)."""

    def __init__(self, store: GameStore, hub: LiveHub, settings: LiveSettings):
        self.store = store
        self.hub = hub
        self.settings = settings
        self._open: Counter[str] = Counter()
        self._tasks: set[asyncio.Task[Any]] = set()
        hub.pulse_listeners.append(self.pulse)

    # -- in threads ----------------------------------------------------------------------------
    @storage_errors
    def _seen(self, creators: list[str], now: datetime) -> None:
        with self.store.transaction() as session:
            for start in range(0, len(creators), 500):
                session.execute(update(ChallengeRow).where(
                    ChallengeRow.creator.in_(creators[start:start + 500]),
                    ChallengeRow.status == "open",
                    or_(ChallengeRow.creator_seen_at.is_(None),
                        ChallengeRow.creator_seen_at < now))
                    .values(creator_seen_at=now)
                    .execution_options(synchronize_session=False))

    @storage_errors
    def _sweep(self, now: datetime) -> list[str]:
        gone = (ChallengeRow.status == "open", ChallengeRow.expires_at > now,
                ~still_here(now, self.settings.challenge_grace))
        cancelled = []
        with self.store.transaction() as session:
            for challenge_id in session.scalars(select(ChallengeRow.id).where(*gone)).all():
                result = session.execute(update(ChallengeRow)
                                         .where(ChallengeRow.id == challenge_id, *gone)
                                         .values(status="cancelled")
                                         .execution_options(synchronize_session=False))
                if int(getattr(result, "rowcount", 0) or 0) == 1:
                    cancelled.append(challenge_id)
        return cancelled

    # -- the lobby's streams -------------------------------------------------------------------
    def opened(self, creator: str | None) -> None:
        """A lobby stream of the player whose seat key is ``creator`` opened (None: a
        visitor without a player cookie, who has no challenge)."""
        if creator is None:
            return
        self._open[creator] += 1
        if self._open[creator] == 1:
            self._spawn(self._mark([creator]))

    def closed(self, creator: str | None) -> None:
        """A lobby stream counted by :meth:`opened` ended: when it was the creator's last
        one here, its challenges are seen now for the last time, and swept once the grace
        period has passed."""
        if creator is None:
            return
        self._open[creator] -= 1
        if self._open[creator] > 0:
            return
        del self._open[creator]
        self._spawn(self._mark([creator]))
        loop = asyncio.get_running_loop()
        loop.call_later(self.settings.challenge_grace + 0.1,
                        lambda: self._spawn(self.sweep()))

    async def _mark(self, creators: list[str]) -> None:
        try:
            await asyncio.to_thread(self._seen, creators, datetime.now(UTC))
        except StorageError as exc:
            log.warning("could not record that a lobby page is open: %s", exc.why)

    async def sweep(self) -> list[str]:
        """Cancel the open challenges whose creator has been gone longer than the grace
        period, tell the lobby pages; returns their ids. A failing database is logged."""
        try:
            cancelled = await asyncio.to_thread(self._sweep, datetime.now(UTC))
        except StorageError as exc:
            log.warning("could not cancel the challenges of creators gone: %s", exc.why)
            return []
        for challenge_id in cancelled:
            self.hub.publish({"k": "lobby", "what": "removed", "id": challenge_id})
        return cancelled

    async def pulse(self) -> None:
        """Every ``presence_every`` seconds: the creators with a lobby stream here are
        still here; then :meth:`sweep`."""
        if self._open:
            await asyncio.to_thread(self._seen, list(self._open), datetime.now(UTC))
        await self.sweep()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
