"""The event bus: how an event published by one web process reaches every web process.

A message is a JSON object (see :mod:`damiera.web.live.hub` for its kinds); each carries
``"o"``, the publishing process's :attr:`Bus.origin`. :meth:`Bus.publish` hands it to this
process's handler at once and, on a shared bus, to every other process's handler; a process
ignores its own messages coming back from the shared bus.

- :class:`LocalBus` (the default, one web process): in this process only.
- :class:`RedisBus` (a Redis URL is set: ``--redis-url``, ``$DAMIERA_REDIS_URL``): Redis
  pub/sub on the channel :data:`CHANNEL`, through redis-py's asyncio client.
- :class:`PostgresBus` (a PostgreSQL store and no Redis): ``NOTIFY``/``LISTEN`` on the
  channel :data:`CHANNEL`, through psycopg 3. A notification carries at most
  :data:`PG_PAYLOAD_LIMIT` bytes (PostgreSQL's limit is 8000): a message over it is sent
  without its ``"row"`` (the receivers read the game from the database instead, once per
  process).

Both shared buses deliver at most once: a process that loses its connection logs it, tries
again every second, and after reconnecting hands its handler ``{"k": "resync"}`` (what it
may have missed is read again from the database). Publishing never raises: an event that
cannot be sent is logged, the change it tells of is stored all the same.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Callable
from typing import Any

log = logging.getLogger("damiera.web.live")

#: The channel of every live event (one for the site: a process filters by game).
CHANNEL = "damiera_live"
#: Largest NOTIFY payload sent with the game's row (bytes).
PG_PAYLOAD_LIMIT = 7900

Message = dict[str, Any]
Handler = Callable[[Message], None]


class Bus:
    """An in-process bus: :meth:`publish` calls the handler of this process only."""

    kind = "local"

    def __init__(self) -> None:
        #: This process's id on the bus (its messages carry it as ``"o"``).
        self.origin = secrets.token_hex(6)
        self._handler: Handler = lambda _m: None

    def attach(self, handler: Handler) -> None:
        """Set the function that receives every message (called in the event loop)."""
        self._handler = handler

    async def start(self) -> None:
        """Connect (shared buses) and start listening."""

    async def close(self) -> None:
        """Stop listening and disconnect."""

    async def publish(self, message: Message) -> None:
        """Deliver ``message`` (``"o"`` is set here) to this process and, on a shared bus,
        to every other one."""
        message["o"] = self.origin
        self._deliver(message)
        await self._send(message)

    async def _send(self, message: Message) -> None:
        """Send to the other processes (nothing for the in-process bus)."""

    def _deliver(self, message: Message) -> None:
        try:
            self._handler(message)
        except Exception:
            log.exception("live event handler failed")

    def _received(self, raw: str | bytes) -> None:
        """A message from the shared bus: handed on unless this process sent it."""
        try:
            message = json.loads(raw)
        except ValueError:
            log.warning("ignored a malformed live event")
            return
        if isinstance(message, dict) and message.get("o") != self.origin:
            self._deliver(message)


LocalBus = Bus


class _SharedBus(Bus):
    """A bus with a listening task that reconnects every second after a failure."""

    def __init__(self) -> None:
        super().__init__()
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    async def start(self) -> None:
        self._ready = asyncio.Event()
        self._task = asyncio.create_task(self._listen_forever())
        try:   # the first connection before the site serves (a few seconds at most)
            await asyncio.wait_for(self._ready.wait(), 10)
        except TimeoutError:
            log.warning("the live event bus (%s) is not connected yet; retrying", self.kind)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
        await self._disconnect()

    async def _listen_forever(self) -> None:
        first = True
        while True:
            try:
                await self._listen(first)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - any failure: log, wait, reconnect
                log.warning("live event bus (%s) lost: %s; reconnecting", self.kind,
                            str(exc)[:200])
            first = False
            await asyncio.sleep(1.0)

    async def _listen(self, first: bool) -> None:
        raise NotImplementedError

    async def _disconnect(self) -> None:
        raise NotImplementedError

    def _connected(self, first: bool) -> None:
        self._ready.set()
        if not first:
            self._deliver({"k": "resync", "o": ""})


class RedisBus(_SharedBus):
    """Redis pub/sub (redis-py's asyncio client) at ``url`` (``redis://``, ``rediss://``,
    ``unix://``)."""

    kind = "redis"

    def __init__(self, url: str) -> None:
        super().__init__()
        import redis.asyncio as aioredis

        self._redis = aioredis.from_url(url)  # type: ignore[no-untyped-call]

    async def _listen(self, first: bool) -> None:
        pubsub = self._redis.pubsub()
        try:
            await pubsub.subscribe(CHANNEL)
            self._connected(first)
            async for item in pubsub.listen():
                if item.get("type") == "message":
                    self._received(item["data"])
        finally:
            await pubsub.aclose()

    async def _send(self, message: Message) -> None:
        try:
            await self._redis.publish(CHANNEL, json.dumps(message, separators=(",", ":")))
        except Exception as exc:  # noqa: BLE001 - logged; the change itself is stored
            log.warning("could not publish a live event on Redis: %s", str(exc)[:200])

    async def _disconnect(self) -> None:
        await self._redis.aclose()


class PostgresBus(_SharedBus):
    """PostgreSQL ``LISTEN``/``NOTIFY`` (psycopg 3, two connections: one listens, one
    sends) on the database at SQLAlchemy URL ``url``."""

    kind = "postgresql"

    def __init__(self, url: str) -> None:
        super().__init__()
        from sqlalchemy.engine import make_url

        parsed = make_url(url).set(drivername="postgresql")
        self._conninfo = parsed.render_as_string(hide_password=False)
        self._sender: Any = None
        self._listener: Any = None
        self._send_lock = asyncio.Lock()

    async def _connect(self) -> Any:
        import psycopg

        return await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True,
                                                     application_name="damiera-live")

    async def _listen(self, first: bool) -> None:
        conn = await self._connect()
        self._listener = conn
        try:
            await conn.execute(f"LISTEN {CHANNEL}")
            self._connected(first)
            async for note in conn.notifies():
                self._received(note.payload)
        finally:
            self._listener = None
            await conn.close()

    async def _send(self, message: Message) -> None:
        payload = json.dumps(message, separators=(",", ":"))
        if len(payload.encode()) > PG_PAYLOAD_LIMIT and "row" in message:
            payload = json.dumps({k: v for k, v in message.items() if k != "row"},
                                 separators=(",", ":"))
        async with self._send_lock:
            for attempt in (1, 2):
                try:
                    if self._sender is None or self._sender.closed:
                        self._sender = await self._connect()
                    await self._sender.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
                    return
                except Exception as exc:  # noqa: BLE001 - one reconnection, then logged
                    self._sender = None
                    if attempt == 2:
                        log.warning("could not publish a live event on PostgreSQL: %s",
                                    str(exc)[:200])

    async def _disconnect(self) -> None:
        for conn in (self._sender, self._listener):
            if conn is not None:
                await conn.close()
        self._sender = None


def make_bus(database_url: str, redis_url: str | None) -> Bus:
    """The bus for a site: Redis when ``redis_url`` is set, else PostgreSQL's when the store
    is PostgreSQL, else the in-process bus."""
    if redis_url:
        return RedisBus(redis_url)
    from sqlalchemy.engine import make_url

    if make_url(database_url).get_backend_name() == "postgresql":
        return PostgresBus(database_url)
    return LocalBus()
