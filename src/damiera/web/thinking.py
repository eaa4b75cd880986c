"""The computer's pending move, kept with the game in the database, so that every web process
sees the same "the computer is thinking" and no two of them search for the same move.

When a request asks for the computer's move it first stores, in the same optimistic
transaction as the human's move (:meth:`damiera.web.store.GameStore.save`, version check),
the id of the search it asks for (``computer_job``, a fresh random id) and when
(``computer_asked_at``). Only the request whose write won searches; the move found is stored
only if the game is still at the version written then and still names that id, which clears
it again (so is a failed or abandoned search's). Meanwhile any web process answers that the
computer is thinking, and a ``POST /reply`` that finds a pending move waits for it instead of
searching again (:func:`wait_until_played`).

A pending move is a lease: the request that waits for the search renews ``computer_asked_at``
every :data:`RENEW_EVERY` seconds (:func:`keep_renewed`; a write that changes nothing else,
not even the version). When the asking web process dies (kill -9, a crash, a restart), a job
queue's answer is still stored by the next request that reads the game
(:meth:`damiera.web.games.GameService.get`); otherwise, at most :data:`STALE_AFTER` seconds
after its last renewal, the pending move no longer counts: the computer is not thinking, and
the next ``POST /reply`` asks afresh (waiting at most that long); the late result of the old
search is then dropped, its id no longer being the game's.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from damiera.web.store import StoredGame

log = logging.getLogger("damiera.web")

#: Seconds after its last renewal at which a pending move no longer counts (its asker is
#: gone), and how often the asker renews it.
STALE_AFTER = 15.0
RENEW_EVERY = 5.0
#: Seconds between two looks at the database while waiting for another request's search.
WAIT_POLL = 0.1


def pending(stored: StoredGame, stale: float = STALE_AFTER, now: datetime | None = None) -> bool:
    """Whether a search for the computer's move was asked for (or its lease renewed) less
    than ``stale`` seconds ago and has not been stored (or given up) yet."""
    if stored.computer_job is None or stored.computer_asked_at is None:
        return False
    age = ((now or datetime.now(UTC)) - stored.computer_asked_at).total_seconds()
    return age < stale


def ask(stored: StoredGame) -> str:
    """Mark ``stored`` (before it is saved) as waiting for a new search; returns its id."""
    stored.computer_job = secrets.token_hex(12)
    stored.computer_asked_at = datetime.now(UTC)
    return stored.computer_job


def clear(stored: StoredGame) -> None:
    """Mark ``stored`` (before it is saved) as waiting for no search."""
    stored.computer_job = None
    stored.computer_asked_at = None


async def wait_until_played(load: Callable[[str], Awaitable[StoredGame]], stored: StoredGame,
                            stale: float = STALE_AFTER, poll: float = WAIT_POLL) -> StoredGame:
    """Wait until the pending move of ``stored`` is no longer pending (stored, given up, or
    stale): looks at the game with ``load`` every ``poll`` seconds; returns the game then."""
    job = stored.computer_job
    while stored.computer_job == job and pending(stored, stale):
        await asyncio.sleep(poll)
        stored = await load(stored.id)
    return stored


async def keep_renewed(renew: Callable[[], Awaitable[bool]],
                       every: float = RENEW_EVERY) -> None:
    """Call ``renew`` every ``every`` seconds until it answers False (the pending move is no
    longer this one) or the caller cancels this; an exception from ``renew`` (the database
    failing for a moment) is logged and the next round tries again."""
    while True:
        await asyncio.sleep(every)
        try:
            if not await renew():
                return
        except Exception as exc:  # noqa: BLE001 - the lease runs out if this keeps failing
            log.warning("could not renew a pending computer move: %s", str(exc)[:200])
