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

When the asking web process dies, a job queue's answer is still stored by the next request
that reads the game (:meth:`damiera.web.games.GameService.get`). Otherwise a pending move
older than ``stale`` seconds (its process died with the search, its job was lost) no longer
counts: the computer is not thinking, and the next ``POST /reply`` asks afresh; the late
result of the old search is then dropped, its id no longer being the game's.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from damiera.web.store import StoredGame

#: Seconds after which a pending move no longer counts (a level-3 search takes seconds; a
#: busy queue may keep a job waiting a while).
STALE_AFTER = 180.0
#: Seconds between two looks at the database while waiting for another request's search.
WAIT_POLL = 0.1


def pending(stored: StoredGame, stale: float = STALE_AFTER, now: datetime | None = None) -> bool:
    """Whether a search for the computer's move was asked for less than ``stale`` seconds
    ago and has not been stored (or given up) yet."""
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
