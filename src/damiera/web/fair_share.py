"""Fair sharing of an expensive resource (analysis searches, reviews, PDN imports) among the
site's clients, counted by address (:func:`damiera.web.client_address.client_address`).

A :class:`FairShare` has ``slots`` places for work running at once. Each piece of work takes
a :class:`Ticket` first (:meth:`FairShare.ticket`), which refuses at once, before anything
is sent:

- with 429 when the client already holds ``per_client`` tickets (running or waiting): one
  address cannot fill the queue, whatever cookies it sends;
- with 503 when no slot is free and ``waiting`` tickets of all clients already wait (the
  global cap).

A ticket then waits for a slot (:meth:`Ticket.acquire`). A client runs at most
``running_per_client`` pieces at once (by default half the slots, at least one), so another
client always finds a slot that one busy client cannot hold; when a slot frees, it goes to
the waiting ticket of the client running the fewest pieces, the oldest first among equals.
Work is never taken away from anyone: a ticket ends only when its own work ends or its own
client gives it up (:meth:`Ticket.release`).

Everything runs on the server's event loop (no locks); the counts are per web process.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from typing import Any

from damiera.web.limits import LimitExceeded


class Ticket:
    """One piece of work's place: waiting, then running, then released (see the module
    docstring). ``client``: the address it counts against."""

    def __init__(self, share: FairShare, client: str, order: int):
        self.share = share
        self.client = client
        self.order = order
        self.running = False
        self.released = False
        self._granted: asyncio.Future[None] | None = None

    async def acquire(self, stop: asyncio.Event | None = None) -> bool:
        """Wait for a slot: True once this ticket runs; False when ``stop`` was set (or the
        ticket released) first, and then the ticket is released. Cancelling the caller
        releases it too."""
        if self.running:
            return True
        if self.released:
            return False
        loop = asyncio.get_running_loop()
        self._granted = loop.create_future()
        self.share._grant()
        if self.running:
            return True
        waits: set[asyncio.Future[Any]] = {self._granted}
        stopper = asyncio.ensure_future(stop.wait()) if stop is not None else None
        if stopper is not None:
            waits.add(stopper)
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            self.release()
            raise
        finally:
            if stopper is not None:
                stopper.cancel()
        if self.running:
            return True
        self.release()
        return False

    def release(self) -> None:
        """Give the place back (idempotent): a waiting ticket leaves the queue, a running
        one frees its slot for the next ticket (:meth:`FairShare._grant`)."""
        if self.released:
            return
        self.released = True
        share = self.share
        if self.running:
            share._running[self.client] -= 1
            share.free += 1
        else:
            share._waiting.pop(self.order, None)
            if self._granted is not None and not self._granted.done():
                self._granted.set_result(None)   # wakes acquire(), which returns False
        share._held[self.client] -= 1
        if share._held[self.client] <= 0:
            del share._held[self.client]
            share._running.pop(self.client, None)
        share._grant()


class FairShare:
    """``slots`` places shared fairly among clients (see the module docstring). ``what``
    names the work in refusals ("analyses", "reviews", ...)."""

    def __init__(self, slots: int, per_client: int, waiting: int, what: str,
                 running_per_client: int | None = None):
        self.slots = slots
        self.free = slots
        self.per_client = per_client
        self.max_waiting = waiting
        self.what = what
        self.running_per_client = (running_per_client if running_per_client is not None
                                   else max(1, slots // 2))
        self._held: Counter[str] = Counter()
        self._running: Counter[str] = Counter()
        self._waiting: dict[int, Ticket] = {}
        self._orders = itertools.count()

    def ticket(self, client: str) -> Ticket:
        """A new ticket of ``client``, waiting; raises :class:`LimitExceeded` (429 or 503
        with ``Retry-After``) as the module docstring says."""
        if self._held[client] >= self.per_client:
            raise LimitExceeded(
                429, f"too many {self.what} from this address at once ({self._held[client]}); "
                "wait for them to end", 5.0)
        if self.free <= 0 and len(self._waiting) >= self.max_waiting:
            raise LimitExceeded(503, f"the site is busy with other {self.what}; try again "
                                     "shortly", 5.0)
        ticket = Ticket(self, client, next(self._orders))
        self._held[client] += 1
        self._waiting[ticket.order] = ticket
        return ticket

    def waiting(self) -> int:
        """Tickets waiting for a slot now."""
        return len(self._waiting)

    def running(self, client: str | None = None) -> int:
        """Tickets running now, of ``client`` or of everyone."""
        return self.slots - self.free if client is None else self._running[client]

    def _grant(self) -> None:
        """Hand free slots to waiting tickets that asked for one: the client running the
        fewest first, then the oldest; never past ``running_per_client``."""
        while self.free > 0:
            ready = [t for t in self._waiting.values() if t._granted is not None
                     and self._running[t.client] < self.running_per_client]
            if not ready:
                return
            chosen = min(ready, key=lambda t: (self._running[t.client], t.order))
            del self._waiting[chosen.order]
            chosen.running = True
            self._running[chosen.client] += 1
            self.free -= 1
            assert chosen._granted is not None
            if not chosen._granted.done():
                chosen._granted.set_result(None)
