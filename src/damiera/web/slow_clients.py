"""Uvicorn's HTTP/1.1 protocol guarded against slow and greedy clients (``damiera serve``).

Uvicorn alone waits for ever on a client that sends its request head a byte at a time (a
"slowloris": its keep-alive timeout only runs until the first byte), and lets one address open
connections until the server's whole ``limit_concurrency`` is taken (then everyone gets 503).
:class:`GuardedH11Protocol` adds two bounds, for the server run bare (behind the shipped
reverse proxy, ``deploy/nginx/``, the proxy enforces its own first):

- **A whole-head deadline.** Each request head (request line and every header) must have
  arrived in full within ``head_timeout`` seconds of the moment the connection became ready
  for it: when it was opened, or when the previous response on it was complete (keep-alive).
  Bytes trickling in do not extend it; at the deadline the connection is closed without an
  answer. The body that follows has its own deadline in the application
  (:class:`damiera.web.limits.RequestLimits`, 408).
- **Open connections per address.** At most ``per_address`` connections from one client
  address at once, per server process (IPv6 addresses count by their /64 network, the block
  one subscriber gets; IPv4-mapped addresses as IPv4). One more is answered at once with 429
  and closed, before anything is read. Connections over a Unix socket (the proxy on the same
  machine) have no address and are not counted. ``per_address`` 0 turns the cap off (a proxy
  on another machine connecting over TCP).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from collections import Counter

from uvicorn.protocols.http.h11_impl import H11Protocol

#: Default seconds to send a whole request head.
HEAD_TIMEOUT = 10.0
#: Default open connections per client address (a browser opens about 6 per site, and a few
#: more for event streams; several people behind one address share it).
PER_ADDRESS = 64


def address_key(host: str) -> str:
    """The key a connection from ``host`` counts under: the IPv4 address itself, an IPv6
    address's /64 network (``2001:db8:1:2::/64``), an IPv4-mapped IPv6 address as IPv4;
    anything that is not an IP address as it is."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def _too_many(limit: int) -> bytes:
    body = json.dumps({"error": f"too many connections from this address (at most {limit} "
                                "at once); try again later"}).encode()
    return (b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\nretry-after: 1\r\n"
            b"connection: close\r\n\r\n" + body)


class GuardedH11Protocol(H11Protocol):
    """:class:`~uvicorn.protocols.http.h11_impl.H11Protocol` with a whole-head deadline and a
    cap on open connections per address (see the module docstring; :func:`guarded` makes
    the class for other values than :data:`HEAD_TIMEOUT` and :data:`PER_ADDRESS`)."""

    head_timeout: float = HEAD_TIMEOUT
    per_address: int = PER_ADDRESS
    _key: str | None = None
    _deadline: asyncio.TimerHandle | None = None
    _heads = 0

    def _open_counts(self) -> Counter[str]:
        """Open connections by address key, shared by every connection of this server."""
        counts: Counter[str] | None = getattr(self.server_state, "damiera_open", None)
        if counts is None:
            counts = Counter()
            self.server_state.damiera_open = counts  # type: ignore[attr-defined]
        return counts

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if self.client is not None and self.per_address > 0:
            key = address_key(self.client[0])
            counts = self._open_counts()
            if counts[key] >= self.per_address:
                transport.write(_too_many(self.per_address))
                transport.close()
                return
            counts[key] += 1
            self._key = key
        self._arm()

    def _arm(self) -> None:
        """Start the deadline of the next request head."""
        self._disarm()
        self._deadline = self.loop.call_later(self.head_timeout, self._late, self._heads)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def handle_events(self) -> None:
        before = self.cycle
        super().handle_events()
        if self.cycle is not None and self.cycle is not before:
            self._heads += 1            # a whole head arrived: its deadline is met
            self._disarm()

    def on_response_complete(self) -> None:
        if not self.transport.is_closing():
            self._arm()                 # before a pipelined head is read (which disarms it)
        super().on_response_complete()

    def _late(self, heads: int) -> None:
        """The deadline armed when ``heads`` heads had arrived has passed."""
        self._deadline = None
        if self._heads == heads and not self.transport.is_closing():
            self.transport.close()      # no whole request head in time

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._key is not None:
            counts = self._open_counts()
            counts[self._key] -= 1
            if counts[self._key] <= 0:
                del counts[self._key]
            self._key = None
        super().connection_lost(exc)


def guarded(head_timeout: float = HEAD_TIMEOUT,
            per_address: int = PER_ADDRESS) -> type[GuardedH11Protocol]:
    """The protocol class with a head deadline of ``head_timeout`` seconds and at most
    ``per_address`` open connections per address (0: no cap)."""
    return type("GuardedH11Protocol", (GuardedH11Protocol,),
                {"head_timeout": head_timeout, "per_address": per_address})
