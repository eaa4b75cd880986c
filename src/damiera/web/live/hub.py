"""The live boards of one web process: every open event stream of a game, fed from the bus.

``GET /api/games/{id}/events`` (:mod:`damiera.web.live.routes`) is a server-sent event
stream. Each event has ``id:`` the game's version and one ``data:`` line, a JSON object
(:mod:`damiera.web.live.events`): the whole game first (``{"type": "game", "game", "seats",
"live"}``, unless ``Last-Event-ID`` or ``?last_event_id=`` names the version the client
has), then what changed at each version (``{"type": "change", "from", "to", "set", "lists",
"maps", "drop", "live"}``: the new plies, pieces, legal moves, clock, offers, result),
``{"type": "live", "live"}`` when only who is here changed, and ``{"type": "deleted"}``
before the stream ends. ``live`` is ``{"presence": {"white"|"black": {"online": bool, "away_ms": ms or
null}}, "watchers": n, "claim_after_ms": ms}`` (``away_ms``: how long that player's page has
been gone). An idle stream gets a comment (``: ping``) every ``heartbeat`` seconds; a
stream that falls :data:`~damiera.web.live.events.MAX_PENDING` changes behind gets the
whole game instead, so nothing is queued without bound. A resumed stream gets the game as it
is now when it is newer, so no move is missed and none is shown twice.

How a change travels: the store tells the hub of every save (its ``listeners``, in the
writing thread); the hub publishes ``{"k": "game", "id", "v", "row"}`` on the bus
(:mod:`damiera.web.live.bus`) with the stored row (no secret in it: not the owner, the seats'
hashes nor the invitation's), and every process with streams of that game builds each
event once per language and hands the same bytes to each stream: a watcher costs no
database query and no serialization per event (a bus that drops ``row``, PostgreSQL's for a
long game, costs one read per process). Other messages: ``presence`` (a player's page came
or went: written to the database by the process that holds its stream), ``watchers`` (a
process's count of a game's watchers, again every ``presence_every`` seconds; counts not
repeated for three rounds are dropped), ``ask`` (a process that starts showing a game asks
the others for their counts), ``deleted``, ``lobby`` (:mod:`damiera.web.lobby`), ``resync``
(after the bus reconnected: each game shown is read again). Changes of who is here within
:data:`LIVE_COALESCE` seconds go out as one ``live`` event. A timed game's flag is recorded
by the process showing it when its time runs out, so both players see it at once.

Bounds: at most ``streams_per_client`` open streams per client address (429) for watchers
and the lobby, ``streams_per_seat`` per player on a game it sits in (429; not counted
against its address, so players behind one shared address keep their boards) and
``streams_total`` in the process (503), all with ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from damiera.web import clocks, i18n
from damiera.web.games import GameService
from damiera.web.limits import LimitExceeded
from damiera.web.live.bus import Bus, Message
from damiera.web.live.events import PING, GameEvents, Subscriber, sse
from damiera.web.live.presence import Presence, away_since
from damiera.web.store import NotFoundError, StorageError, StoredGame

log = logging.getLogger("damiera.web.live")

#: Seconds within which changes of who is here (players, watcher counts) go as one event.
LIVE_COALESCE = 0.1


@dataclass(frozen=True)
class LiveSettings:
    """Bounds and delays of the live boards and the lobby. Times in seconds."""

    #: Open event streams (games watched and lobby) per client address, and in one web
    #: process (all streams).
    streams_per_client: int = 16
    streams_total: int = 4000
    #: Open streams of one player on a game it sits in (its tabs), counted apart from its
    #: address's, so that players behind one shared address (a club's NAT) keep their
    #: boards however many watch from there: a client's players' streams are bounded by
    #: the games it sits in, each created or joined under the site's other limits.
    streams_per_seat: int = 4
    #: A comment on an idle stream this often (proxies keep it open; a gone client is seen).
    heartbeat: float = 15.0
    #: A player's presence is confirmed in the database this often; watcher counts too.
    presence_every: float = 10.0
    #: Seconds a player's page must be gone, on its turn, before the opponent may claim.
    claim_after: float = 30.0
    #: The browser's reconnection delay after a dropped stream (``retry:``), milliseconds.
    retry_ms: int = 2000
    #: Open challenges per client address and in all; seconds a challenge stays open.
    challenges_per_client: int = 3
    challenges_total: int = 500
    challenge_ttl: float = 600.0
    #: Seconds a challenge outlives its creator's lobby page (its lobby event stream):
    #: a reload or a dropped connection that comes back keeps it, leaving cancels it
    #: (:mod:`damiera.web.lobby.presence`). At least twice ``presence_every``, the time
    #: between two confirmations that the page is still open.
    challenge_grace: float = 20.0

    def __post_init__(self) -> None:
        if self.challenge_grace < 2 * self.presence_every:
            raise ValueError("challenge_grace must be at least twice presence_every")

    @property
    def stale_after(self) -> float:
        """Seconds after which a presence nobody confirmed counts as gone."""
        return 3 * self.presence_every


#: Stored fields left out of the bus (secrets) or not needed by the boards.
_PRIVATE = ("owner", "invite", "computer_job", "computer_asked_at")
_TIMES = ("created_at", "updated_at")


def row_json(stored: StoredGame) -> dict[str, Any]:
    """The stored game as sent on the bus: no owner, no invitation key, and each seat as a
    bare mark (``"x"`` taken, null free) instead of its holder's hash."""
    out = dataclasses.asdict(stored)
    for key in _PRIVATE:
        out.pop(key, None)
    for key in _TIMES:
        out[key] = out[key].isoformat()
    for key in ("white_seat", "black_seat"):
        out[key] = "x" if out[key] else None
    return out


def row_from_json(data: dict[str, Any]) -> StoredGame:
    """The inverse of :func:`row_json` (the secrets left empty). Raises KeyError, TypeError,
    ValueError for a malformed row."""
    fields = {f.name for f in dataclasses.fields(StoredGame)}
    values = {k: v for k, v in data.items() if k in fields}
    for key in _TIMES:
        values[key] = datetime.fromisoformat(values[key])
    return StoredGame(**values)


class _Watched:
    """A game shown by this process: its newest stored copy, streams, presence, counts."""

    def __init__(self, stored: StoredGame, presence: dict[str, dict[str, Any]],
                 events: GameEvents):
        self.stored = stored
        self.events = events
        self.subs: set[Subscriber] = set()
        self.presence = presence
        self.players: Counter[str] = Counter()      # this process's streams of each seat
        self.watching = 0                           # this process's streams of watchers
        self.remote: dict[str, tuple[int, float]] = {}   # origin -> (watchers, when)
        self.timer: asyncio.TimerHandle | None = None
        self.fetching = False
        self.announce: asyncio.TimerHandle | None = None
        self.live_soon: asyncio.TimerHandle | None = None

    def watchers(self) -> int:
        return self.watching


class LiveHub:
    """The event streams of one web process (see the module docstring)."""

    def __init__(self, games: GameService, bus: Bus, settings: LiveSettings):
        self.games = games
        self.bus = bus
        self.settings = settings
        self.presence = Presence(games.store)
        self._watched: dict[str, _Watched] = {}
        self._per_client: Counter[str] = Counter()
        self._open = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._seat_locks: dict[tuple[str, str], asyncio.Lock] = {}
        #: Functions called with every ``lobby`` message (the lobby's streams).
        self.lobby_listeners: list[Callable[[Message], None]] = []
        #: Coroutine functions awaited every ``presence_every`` seconds (the lobby's
        #: confirmations that its creators' pages are open).
        self.pulse_listeners: list[Callable[[], Awaitable[None]]] = []
        games.store.listeners.append(self._stored)
        bus.attach(self._received)

    # -- life ------------------------------------------------------------------------------
    async def start(self) -> None:
        """Connect the bus and start the periodic confirmations (in the site's lifespan)."""
        self._loop = asyncio.get_running_loop()
        await self.bus.start()
        self._spawn(self._pulse_forever())

    async def close(self) -> None:
        """Stop: every stream is ended, the bus closed."""
        for w in self._watched.values():
            for sub in w.subs:
                sub.closed = True
                sub.wake.set()
        for task in list(self._tasks):
            task.cancel()
        await self.bus.close()
        self._loop = None

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- publishing ----------------------------------------------------------------------------
    def _stored(self, game_id: str, stored: StoredGame | None) -> None:
        """The store's listener (any thread): publish the change."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        message: Message = ({"k": "game", "id": game_id, "v": stored.version,
                             "row": row_json(stored)} if stored is not None
                            else {"k": "deleted", "id": game_id})
        try:
            loop.call_soon_threadsafe(self.publish, message)
        except RuntimeError:     # the loop closed meanwhile: nobody to tell
            pass

    def publish(self, message: Message) -> None:
        """Publish ``message`` on the bus (in the event loop; returns at once)."""
        self._spawn(self.bus.publish(message))

    def _received(self, message: Message) -> None:
        """A message from the bus (this process's own included)."""
        kind = message.get("k")
        game_id = str(message.get("id", ""))
        if kind == "lobby":
            for listener in self.lobby_listeners:
                listener(message)
            return
        if kind == "resync":
            for gid in list(self._watched):
                self._fetch(gid)
            return
        w = self._watched.get(game_id)
        if w is None:
            return
        if kind == "game":
            if int(message.get("v", -1)) <= w.stored.version:
                return
            row = message.get("row")
            if row is None:
                self._fetch(game_id)
            else:
                try:
                    self._update(game_id, w, row_from_json(row))
                except (KeyError, TypeError, ValueError):
                    self._fetch(game_id)
        elif kind == "deleted":
            chunk = sse(w.stored.version, {"type": "deleted"})
            for sub in list(w.subs):
                sub.push_game(chunk)
                sub.closed = True
        elif kind == "presence":
            side = str(message.get("side"))
            w.presence[side] = {"online": bool(message.get("online")),
                                "since": datetime.fromisoformat(str(message["since"])),
                                "seen_at": datetime.now(UTC)}
            self._push_live(w)
        elif kind == "watchers" and message.get("o") != self.bus.origin:
            w.remote[str(message.get("o"))] = (int(message.get("n", 0)), time.monotonic())
            self._push_live(w)
        elif kind == "ask" and message.get("o") != self.bus.origin:
            self._announce_now(game_id)

    def _fetch(self, game_id: str) -> None:
        """Read the game again (once at a time per game) and show it if it is newer."""
        w = self._watched.get(game_id)
        if w is None or w.fetching:
            return
        w.fetching = True

        async def fetch() -> None:
            try:
                stored = await self.games.load(game_id)
            except NotFoundError:
                self._received({"k": "deleted", "id": game_id})
                return
            except StorageError as exc:
                log.warning("could not read game %s for its watchers: %s", game_id, exc.why)
                return
            finally:
                w.fetching = False
            if stored.version > w.stored.version and self._watched.get(game_id) is w:
                self._update(game_id, w, stored)

        self._spawn(fetch())

    # -- events ----------------------------------------------------------------------------
    def _update(self, game_id: str, w: _Watched, stored: StoredGame) -> None:
        """The game changed: one event per language and kind of stream (what changed
        since the version the streams have: :class:`~damiera.web.live.events.GameEvents`),
        the same bytes to every stream of that kind."""
        w.stored = stored
        chunks = w.events.changed(stored, {sub.kind for sub in w.subs}, self.live_json(w))
        for sub in w.subs:
            if sub.started:
                sub.push_game(chunks[sub.kind])
        self._arm_flag(game_id, w)

    def _push_live(self, w: _Watched) -> None:
        """Tell every stream who is here now (soon: changes within
        :data:`LIVE_COALESCE` seconds go as one event)."""
        if w.live_soon is None:
            loop = asyncio.get_running_loop()
            w.live_soon = loop.call_later(LIVE_COALESCE, self._push_live_now, w)

    def _push_live_now(self, w: _Watched) -> None:
        w.live_soon = None
        chunk = sse(w.stored.version, {"type": "live", "live": self.live_json(w)})
        for sub in w.subs:
            if sub.started:
                sub.push_live(chunk)

    def game_json(self, stored: StoredGame, lang: str) -> dict[str, Any]:
        """The game JSON of ``stored`` in language ``lang`` (no ``seats``: not a
        client's)."""
        def build() -> dict[str, Any]:
            i18n.set_locale(lang)
            return self.games.to_json(stored)

        return contextvars.copy_context().run(build)

    def live_json(self, w: _Watched) -> dict[str, Any]:
        """The ``live`` object of the events (see the module docstring)."""
        now = datetime.now(UTC)
        presence = {}
        if w.stored.opponent == "online":
            for side in ("white", "black"):
                seat = w.presence.get(side)
                gone = None if w.players[side] else away_since(   # here: its stream is ours
                    seat, now, self.settings.stale_after, w.stored.created_at)
                presence[side] = {
                    "online": gone is None,
                    "away_ms": None if gone is None
                    else max(0, int((now - gone).total_seconds() * 1000)),
                }
        horizon = time.monotonic() - 3 * self.settings.presence_every
        remote = sum(n for n, at in w.remote.values() if at >= horizon)
        return {"presence": presence, "watchers": w.watchers() + remote,
                "claim_after_ms": int(self.settings.claim_after * 1000)}

    def _who_is_here(self, w: _Watched) -> dict[str, bool]:
        return {side: seat["online"] for side, seat in self.live_json(w)["presence"].items()}

    def _arm_flag(self, game_id: str, w: _Watched) -> None:
        """Record the flag fall when the running clock reaches zero."""
        if w.timer is not None:
            w.timer.cancel()
            w.timer = None
        left = clocks.live(w.stored)
        clock = w.stored.clock
        if left is None or clock is None or clock.get("stopped") or w.stored.result_reason:
            return
        ms = left[clocks.turn_of(w.stored)]
        loop = asyncio.get_running_loop()
        w.timer = loop.call_later(ms / 1000 + 0.05, self._fetch, game_id)

    # -- streams ---------------------------------------------------------------------------
    def admit(self, client: str, seat: tuple[str, str] | None = None) -> str:
        """Count a new stream of ``client`` (a watcher's or the lobby's), or with ``seat``
        (``(game id, seat key)``) of a player on a game it sits in; returns what to give
        :meth:`release`. Raises LimitExceeded (429: this client, or this player on this
        game, has too many open; 503: the process has) with a Retry-After."""
        s = self.settings
        if seat is not None:
            key, most = f"seat {seat[0]} {seat[1]}", s.streams_per_seat
            why = (f"too many open event streams of yours on this game (at most {most}); "
                   "close some of its pages")
        else:
            key, most = client, s.streams_per_client
            why = (f"too many open event streams from this client (at most {most}); close "
                   "some pages")
        if self._per_client[key] >= most:
            raise LimitExceeded(429, why, s.heartbeat)
        if self._open >= s.streams_total:
            raise LimitExceeded(503, "the site has too many open event streams; try again "
                                     "later", s.heartbeat)
        self._per_client[key] += 1
        self._open += 1
        return key

    def release(self, key: str) -> None:
        """A stream counted by :meth:`admit` (which returned ``key``) ended."""
        self._open -= 1
        self._per_client[key] -= 1
        if self._per_client[key] <= 0:
            del self._per_client[key]

    @property
    def open_streams(self) -> int:
        """Event streams open in this process (games and lobby)."""
        return self._open

    async def subscribe(self, stored: StoredGame, sub: Subscriber, last_id: int | None
                        ) -> tuple[AsyncIterator[bytes], Callable[[], None]]:
        """The event stream of ``sub`` on ``stored`` (admitted already), starting with the
        game unless ``last_id`` is its version, and the function that ends it (call it when
        the response ends, whether or not the stream was read: it releases the stream's
        counts once)."""
        w = self._watched.get(stored.id)
        if w is None:
            try:
                presence = await self.presence.read(stored.id)
            except StorageError:
                presence = {}
            w = self._watched.get(stored.id)
            if w is None:
                w = _Watched(stored, presence, GameEvents(self.game_json))
                self._watched[stored.id] = w
                self._arm_flag(stored.id, w)
                self.publish({"k": "ask", "id": stored.id})
        if stored.version > w.stored.version:
            self._update(stored.id, w, stored)
        w.subs.add(sub)
        online = w.stored.opponent == "online"
        for side in sub.sides if online else ():
            w.players[side] += 1
            if w.players[side] == 1:
                self._spawn(self._seat(stored.id, side, True))
        if not sub.sides:
            w.watching += 1
            self._announce(stored.id, w)
        return self._stream(stored.id, w, sub, last_id), lambda: self._leave(stored.id, w, sub)

    async def _stream(self, game_id: str, w: _Watched, sub: Subscriber,
                      last_id: int | None) -> AsyncIterator[bytes]:
        try:
            sub.started = True           # the game as it is now: nothing before it to send
            sub.chunks.clear()
            sub.live_chunk = None
            sub.wake.clear()
            for part in self._first(w, sub, last_id):   # the game's JSON is shared
                yield part
            part = b""
            while not sub.closed:
                if not sub.wake.is_set():
                    try:
                        async with asyncio.timeout(self.settings.heartbeat):
                            await sub.wake.wait()
                    except TimeoutError:
                        yield PING
                        continue
                chunk = sub.take(lambda: w.events.whole(w.stored, sub.kind, self.live_json(w)))
                if chunk:
                    yield chunk
                    chunk = b""
        finally:
            self._leave(game_id, w, sub)

    def _first(self, w: _Watched, sub: Subscriber, last_id: int | None) -> tuple[bytes, ...]:
        """A stream's first event, in parts: the browser's reconnection delay, then the
        whole game with the caller's seats, or only who is here when ``last_id`` is the
        newest version."""
        retry = b"retry: %d\n\n" % self.settings.retry_ms
        if last_id != w.stored.version:
            head, game, tail = w.events.whole_parts(w.stored, sub.kind, self.live_json(w),
                                                    sub.sides)
            return retry + head, game, tail
        return (retry + sse(w.stored.version, {"type": "live", "live": self.live_json(w)}),)

    def _leave(self, game_id: str, w: _Watched, sub: Subscriber) -> None:
        if sub.done:
            return
        sub.done = True
        self.release(sub.client)
        w.subs.discard(sub)
        if w.stored.opponent == "online":
            for side in sub.sides:
                w.players[side] -= 1
                if w.players[side] == 0:
                    self._spawn(self._seat(game_id, side, False))
        if not sub.sides:
            w.watching -= 1
            self._announce(game_id, w)
        if not w.subs and self._watched.get(game_id) is w:
            for timer in (w.timer, w.live_soon):
                if timer is not None:
                    timer.cancel()
            del self._watched[game_id]

    async def _seat(self, game_id: str, side: str, online: bool) -> None:
        """A player's first stream opened or last one closed in this process: recorded,
        then told to every process (in order, per seat)."""
        lock = self._seat_locks.setdefault((game_id, side), asyncio.Lock())
        async with lock:
            try:
                since = await self.presence.mark(game_id, side, online)
            except StorageError as exc:
                log.warning("could not record the presence of %s in %s: %s", side, game_id,
                            exc.why)
                since = datetime.now(UTC)
            await self.bus.publish({"k": "presence", "id": game_id, "side": side,
                                    "online": online, "since": since.isoformat()})
        if not lock.locked() and self._watched.get(game_id) is None:
            self._seat_locks.pop((game_id, side), None)

    # -- watcher counts and presence, every few seconds ------------------------------------
    def _announce(self, game_id: str, w: _Watched) -> None:
        """Tell the other processes this process's watcher count (soon: coalesced)."""
        self._push_live(w)
        if w.announce is None:
            loop = asyncio.get_running_loop()
            w.announce = loop.call_later(0.2, self._announce_now, game_id)

    def _announce_now(self, game_id: str) -> None:
        w = self._watched.get(game_id)
        if w is None:
            return
        w.announce = None
        if self.bus.kind != "local":
            self.publish({"k": "watchers", "id": game_id, "n": w.watchers()})

    async def _pulse_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.presence_every)
            for pulse in (self._pulse, *self.pulse_listeners):
                try:
                    await pulse()
                except StorageError as exc:
                    log.warning("could not confirm who is here: %s", exc.why)

    async def _pulse(self) -> None:
        """Confirm this process's players, read every shown game's presence again (one
        query: the other processes' confirmations, and a process that died), repeat this
        process's watcher counts, drop stale ones; streams hear of what changed."""
        seats = [(gid, side) for gid, w in self._watched.items()
                 for side, n in w.players.items() if n > 0]
        await self.presence.confirm(seats)
        online = [gid for gid, w in self._watched.items() if w.stored.opponent == "online"]
        fresh = await self.presence.read_many(online)
        horizon = time.monotonic() - 3 * self.settings.presence_every
        for gid, w in list(self._watched.items()):
            before = self._who_is_here(w)
            if gid in fresh:
                w.presence = fresh[gid]
            stale = [o for o, (_n, at) in w.remote.items() if at < horizon]
            for origin in stale:
                del w.remote[origin]
            if self._who_is_here(w) != before or stale:
                self._push_live(w)
            if w.watchers():
                self._announce_now(gid)
