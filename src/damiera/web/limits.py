"""Limits of the site, enforced by the application itself (no reverse proxy is assumed).

- :class:`Limits`: every bound in one place (sizes, timeouts, rates, caps), with defaults
  for a small public site; ``create_app(limits=...)`` takes another.
- :class:`RequestLimits`: ASGI middleware. A request whose head (request line, query and
  headers) is over ``max_head_bytes`` gets 431 (414 for the address alone); a body over
  ``max_body_bytes`` (the routes of ``large_body_paths``, the PDN import: twice
  ``max_import_bytes``) gets 413, whether announced by ``Content-Length`` or sent chunked; a body
  not received within ``body_timeout`` seconds gets 408. The body is read (at most
  ``max_body_bytes``) before the route runs, so a route never waits on a slow client. A
  body that is not UTF-8 (as JSON must be, RFC 8259), or JSON holding a lone surrogate
  escape (``"\\ud800"``: half of a UTF-16 pair, no character at all, which no answer could
  echo back as UTF-8), gets 400 (:func:`not_text`).
- :class:`RateLimiter`: a token bucket per client (``rate`` per second, ``burst`` at once);
  it forgets the oldest clients past ``max_clients``, so its memory is bounded.
  :func:`per_client` makes one a route dependency, counted by client address.
- :func:`until_disconnect`: runs a route's work and cancels it when the client hangs up.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any, TypeVar

from starlette.requests import Request

from damiera.web.client_address import client_address

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

T = TypeVar("T")


@dataclass(frozen=True)
class Limits:
    """The site's bounds. Sizes in bytes, times in seconds, rates per second."""

    #: Largest request body (every API body is a few hundred bytes).
    max_body_bytes: int = 64 * 1024
    #: Largest body of the routes that take a file (PDN import): the text itself is at most
    #: ``max_import_bytes`` (UTF-8), sent as a JSON string (escapes may double its size).
    max_import_bytes: int = 1024 * 1024
    large_body_paths: tuple[str, ...] = ("/api/pdn/import",)
    #: Largest request head: the address with its query plus every header.
    max_head_bytes: int = 16 * 1024
    #: Largest address (path and query).
    max_url_bytes: int = 4096
    #: Time allowed to receive a whole body.
    body_timeout: float = 10.0
    #: Time allowed to send a whole request head, and open connections per client address
    #: (0: no cap), in ``damiera serve``'s HTTP protocol (:mod:`damiera.web.slow_clients`).
    head_timeout: float = 10.0
    connections_per_address: int = 64
    #: Computer moves queued or being searched, for one client and for the whole site
    #: (None: four per worker process).
    computer_per_client: int = 2
    computer_total: int | None = None
    #: New games per client: ``create_rate`` a second on average, ``create_burst`` at once.
    create_rate: float = 0.5
    create_burst: int = 20
    #: PDN files per client, read (``POST /api/pdn/import``) or written (``GET
    #: /api/pdn/my-games``): ``import_rate`` a second on average, ``import_burst`` at once.
    import_rate: float = 0.5
    import_burst: int = 20
    #: PDN files read at once by one address, and waiting in all (:mod:`damiera.web.fair_share`).
    import_per_client: int = 1
    import_waiting: int = 8
    #: Analysis streams of one address (running or waiting), and waiting in all.
    analysis_per_client: int = 2
    analysis_waiting: int = 16
    #: Reviews of one address (queued, running, or finished and kept), and kept in all.
    reviews_per_client: int = 4
    reviews_kept: int = 128
    #: Imported games replayed for the board (``POST /api/pdn/replay``, one per game opened).
    replay_rate: float = 5.0
    replay_burst: int = 100
    #: Requests of the rules trainer's and the puzzles' API per client (sessions, answers,
    #: puzzles, checked moves: a session of ten is eleven): ``learn_rate`` a second on
    #: average, ``learn_burst`` at once.
    learn_rate: float = 2.0
    learn_burst: int = 60
    #: Games not changed for this many seconds are deleted (None: kept for ever), checked
    #: every ``cleanup_interval`` seconds.
    game_ttl: float | None = 180 * 24 * 3600.0
    cleanup_interval: float = 3600.0


class LimitExceeded(Exception):
    """A request refused by a limit: ``status`` (429, 503, ...), a one-line ``message`` and
    the seconds after which to try again (``Retry-After``)."""

    def __init__(self, status: int, message: str, retry_after: float | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after

    def headers(self) -> dict[str, str]:
        if self.retry_after is None:
            return {}
        return {"Retry-After": str(max(1, math.ceil(self.retry_after)))}


class RateLimiter:
    """Token buckets per client: each holds up to ``burst`` tokens and regains ``rate`` a
    second; :meth:`take` spends one or raises :class:`LimitExceeded` (429 with the seconds
    until the next token). At most ``max_clients`` buckets are kept (the least recently used
    go first: a forgotten client starts again with a full bucket)."""

    def __init__(self, rate: float, burst: int, max_clients: int = 10_000,
                 clock: Callable[[], float] = time.monotonic):
        self.rate = rate
        self.burst = burst
        self.max_clients = max_clients
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, key: str, what: str = "requests") -> None:
        now = self.clock()
        tokens, then = self._buckets.pop(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            wait = (1.0 - tokens) / self.rate if self.rate > 0 else 3600.0
            raise LimitExceeded(429, f"too many {what} from this client; try again later", wait)
        self._buckets[key] = (tokens - 1.0, now)
        while len(self._buckets) > self.max_clients:
            self._buckets.popitem(last=False)


def per_client(limiter: RateLimiter, what: str) -> Callable[[Request], Awaitable[None]]:
    """A route dependency (``Depends(per_client(...))``) that spends one of ``limiter``'s
    tokens for the request's client address
    (:func:`damiera.web.client_address.client_address`): :class:`LimitExceeded` (429) with
    ``what`` named ("trainer and puzzle requests") when its bucket is empty."""

    async def take(request: Request) -> None:
        limiter.take(client_address(request), what)

    return take


def _refusal(status: int, message: str) -> tuple[Message, Message]:
    body = json.dumps({"error": message}).encode()
    start = {
        "type": "http.response.start",
        "status": status,
        "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ],
    }
    return start, {"type": "http.response.body", "body": body}


class RequestLimits:
    """ASGI middleware bounding every HTTP request's head and body (see the module
    docstring). Requests within the bounds reach the app unchanged; the body is handed on in
    one piece, and later ``receive`` calls go to the server (a disconnect is still seen)."""

    def __init__(self, app: ASGIApp, limits: Limits):
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = self._check_head(scope)
        if refusal is None:
            body, refusal = await self._read_body(scope, receive)
        if refusal is None and body:
            why = not_text(body)
            refusal = (400, why) if why is not None else None
        if refusal is not None:
            for message in _refusal(*refusal):
                await send(message)
            return
        await self.app(scope, _replay(body, receive), send)

    def _max_body(self, scope: Scope) -> int:
        """The body bound of this request's route (larger for the file-taking routes)."""
        lim = self.limits
        if scope["path"] in lim.large_body_paths:
            return max(lim.max_body_bytes, 2 * lim.max_import_bytes + 4096)
        return lim.max_body_bytes

    def _check_head(self, scope: Scope) -> tuple[int, str] | None:
        lim = self.limits
        url = len(scope.get("raw_path") or scope["path"].encode()) + len(scope["query_string"])
        if url > lim.max_url_bytes:
            return 414, f"the address is too long (at most {lim.max_url_bytes} bytes)"
        head = url + sum(len(k) + len(v) + 4 for k, v in scope["headers"])
        if head > lim.max_head_bytes:
            return 431, f"the request headers are too large (at most {lim.max_head_bytes} bytes)"
        for key, value in scope["headers"]:
            if key == b"content-length":
                try:
                    length = int(value)
                except ValueError:
                    return 400, "the Content-Length header is not a number"
                if length > self._max_body(scope):
                    return 413, (f"the request body is too large (at most "
                                 f"{self._max_body(scope)} bytes)")
        return None

    async def _read_body(self, scope: Scope, receive: Receive) -> tuple[
            bytes | None, tuple[int, str] | None]:
        """The whole body (None for a request without one), or the refusal."""
        if scope["method"] in ("GET", "HEAD", "OPTIONS"):
            return None, None
        lim = self.limits
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(lim.body_timeout):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return None, (400, "the client went away")
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > self._max_body(scope):
                        return None, (413, (f"the request body is too large (at most "
                                           f"{self._max_body(scope)} bytes)"))
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        return b"".join(chunks), None
        except TimeoutError:
            return None, (408, (f"the request body took longer than {lim.body_timeout:g} s "
                               "to arrive"))


_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def not_text(body: bytes) -> str | None:
    """Why ``body`` is not text a route can take, or None: bytes that are not UTF-8 (which
    Python's JSON reader would otherwise decode with lone surrogates in it), or JSON holding
    a string with half of a UTF-16 surrogate pair alone (``"\\ud800"``; a whole pair,
    ``"\\ud83d\\ude00"``, is one character and fine). A body that is not JSON is left to
    the route (422). Linear in the body's length: the body is parsed only when it holds an
    escape of the surrogate range."""
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return (f"the request body is not UTF-8 text (byte {exc.start + 1}): send JSON as "
                "UTF-8")
    if not _SURROGATE_ESCAPE.search(body):
        return None
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):   # not JSON: the route's own 422
        return None
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return ("the request body holds a lone surrogate escape (such as \\ud800), which "
                "is not a character: send text as UTF-8")
    return None


def _replay(body: bytes | None, receive: Receive) -> Receive:
    if body is None:
        return receive
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


class ClientGone(Exception):
    """The client hung up before its answer was ready (the work was cancelled)."""


async def until_disconnect(request: Request, work: Awaitable[T]) -> T:
    """Await ``work``; if the client disconnects first, cancel it (a computer search queued
    for a client that hung up is dropped) and raise :class:`ClientGone`.

    The body must have been read already (FastAPI reads it before the route runs), so the
    next message from the server is the disconnect."""
    task = asyncio.ensure_future(work)
    watch = asyncio.ensure_future(_disconnected(request))
    try:
        await asyncio.wait({task, watch}, return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:
        task.cancel()
        raise
    finally:
        watch.cancel()
    if not task.done():
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass
        raise ClientGone("the client went away")
    return task.result()


async def _disconnected(request: Request) -> None:
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return
