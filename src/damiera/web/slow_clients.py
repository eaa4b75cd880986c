"""Uvicorn's HTTP/1.1 protocol with a deadline for request heads (``damiera serve``).

Uvicorn waits for ever on a client that opens a connection and sends its request line and
headers a byte at a time (a "slowloris"): its keep-alive timeout only runs between requests.
:class:`TimedH11Protocol` closes a connection on which no new request head has arrived for
``head_timeout`` seconds while no request is under way; the body that follows has its own
deadline in the application (:class:`damiera.web.limits.RequestLimits`, 408).
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.h11_impl import H11Protocol


class TimedH11Protocol(H11Protocol):
    """:class:`~uvicorn.protocols.http.h11_impl.H11Protocol` with a head deadline (use
    :func:`with_head_timeout` for another value than 10 s)."""

    head_timeout: float = 10.0
    _heads = 0
    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(0)

    def _arm(self, seen: int) -> None:
        self._head_timer = self.loop.call_later(self.head_timeout, self._check, seen)

    def handle_events(self) -> None:
        before = self.cycle
        super().handle_events()
        if self.cycle is not None and self.cycle is not before:
            self._heads += 1

    def _check(self, seen: int) -> None:
        if self.transport.is_closing():
            return
        idle = self.cycle is None or self.cycle.response_complete
        if idle and self._heads == seen:
            self.transport.close()   # no whole request head for head_timeout seconds
            return
        self._arm(self._heads)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        super().connection_lost(exc)


def with_head_timeout(seconds: float) -> type[TimedH11Protocol]:
    """The protocol class with a head deadline of ``seconds``."""
    return type("TimedH11Protocol", (TimedH11Protocol,), {"head_timeout": seconds})
