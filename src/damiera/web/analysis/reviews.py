"""The reviews the server keeps in memory, and who may make room among them.

A :class:`Review` belongs to the browser that asked for it (``owner``: its address and
player cookie) and counts against its address (``client``). The :class:`ReviewBook` keeps at
most ``per_client`` reviews of one address and ``total`` in all. A finished review is
forgotten ``ttl`` seconds after it ended. Room is made only among the asking address's own
finished reviews (its oldest goes first); when the book is full of other addresses' reviews
that have not expired, a new review is refused with 503: one client never evicts another's
work, finished or not.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from damiera.web.fair_share import Ticket
from damiera.web.limits import LimitExceeded

#: Seconds a finished review stays readable.
REVIEW_TTL = 1800.0


class Review:
    """One review's state, as ``GET /api/analysis/reviews/{id}`` shows it (:meth:`json`)."""

    def __init__(self, owner: str, client: str, total: int):
        self.id = secrets.token_urlsafe(9)
        self.owner = owner
        self.client = client
        self.status = "queued"
        self.done = 0
        self.total = total
        self.moves: list[dict[str, Any]] = []
        self.pdn = ""
        self.error: str | None = None
        self.task: asyncio.Task[None] | None = None
        #: Its place among the site's reviews (:mod:`damiera.web.fair_share`).
        self.ticket: Ticket | None = None
        #: When it ended (the book's clock), None while queued or running.
        self.ended: float | None = None

    def json(self) -> dict[str, Any]:
        """``{"id", "status", "done", "total", "moves", "error"}``."""
        return {"id": self.id, "status": self.status, "done": self.done, "total": self.total,
                "moves": self.moves, "error": self.error}

    @property
    def finished(self) -> bool:
        """Done, failed or cancelled: nothing runs for it any more."""
        return self.ended is not None


class ReviewBook:
    """The kept reviews by id (see the module docstring); ``clock``: seconds, monotonic."""

    def __init__(self, per_client: int = 4, total: int = 128, ttl: float = REVIEW_TTL,
                 clock: Callable[[], float] = time.monotonic):
        self.per_client = per_client
        self.total = total
        self.ttl = ttl
        self.clock = clock
        self._reviews: OrderedDict[str, Review] = OrderedDict()

    def __len__(self) -> int:
        return len(self._reviews)

    def get(self, review_id: str) -> Review | None:
        """The review with this id, unless it expired (or never was)."""
        self._expire()
        return self._reviews.get(review_id)

    def unfinished(self, owner: str) -> list[Review]:
        """The browser ``owner``'s reviews still queued or running."""
        return [r for r in self._reviews.values() if r.owner == owner and not r.finished]

    def add(self, review: Review) -> None:
        """Keep ``review``, making room among its own address's finished reviews; raises
        :class:`LimitExceeded` (429 when its address holds ``per_client`` unfinished ones,
        503 when other addresses fill the book)."""
        self._expire()
        mine = [r for r in self._reviews.values() if r.client == review.client]
        while len(mine) >= self.per_client:
            done = [r for r in mine if r.finished]
            if not done:
                raise LimitExceeded(429, f"this address has {len(mine)} reviews under way; "
                                         "wait for them to end", 10.0)
            del self._reviews[done[0].id]
            mine.remove(done[0])
        if len(self._reviews) >= self.total:
            raise LimitExceeded(503, "the site is reviewing many games; try again later",
                                60.0)
        self._reviews[review.id] = review

    def finish(self, review: Review) -> None:
        """Mark ``review`` ended now (its expiry counts from here)."""
        if review.ended is None:
            review.ended = self.clock()

    def _expire(self) -> None:
        now = self.clock()
        for old in [r for r in self._reviews.values()
                    if r.ended is not None and now - r.ended > self.ttl]:
            del self._reviews[old.id]
