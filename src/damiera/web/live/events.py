"""The events of a game's stream, built once per web process and shared as bytes.

Each event is ``id: <the game's version>`` and one ``data:`` line of JSON (server-sent
events, UTF-8). A stream begins with the whole game and then gets only what changed:

- ``{"type": "game", "game": <game JSON>, "live": ...}`` (the first event also has
  ``"seats"``, the sides its client holds): the whole game, in the stream's language, as
  ``GET /api/games/{id}`` gives it without ``seats``: first on a stream (unless
  ``Last-Event-ID`` names the version it has), and again on a stream that fell too far behind
  (:data:`MAX_PENDING` changes waiting);
- ``{"type": "change", "from": v0, "to": v1, "set": {field: value}, "lists": {field: [keep,
  [items]]}, "maps": {field: {"set": {key: value}, "drop": [key]}}, "drop": [field],
  "live": ...}``: the game of version ``v1`` is the one of version ``v0`` (the page's, or it
  asks again) with each ``set`` field replaced, each ``lists`` field cut to its first
  ``keep`` items and ``items`` added (the moves, their numbers and positions of the new
  plies; a takeback keeps fewer), each ``maps`` object given the keys of its ``set`` and
  rid of those of its ``drop`` (the squares whose piece changed, the clock's times), each
  ``drop`` field removed (:func:`apply_change`, as ``static/live.js`` does it); fields not
  named are unchanged;
- ``{"type": "live", "live": ...}``: only who is here or the watcher count changed;
- ``{"type": "deleted"}``, and the stream ends.

A watcher's stream (its client holds no seat) has ``legal_moves`` empty: it cannot play
them, and they are most of what a move changes; a player's stream has them all.

A change is computed once per process, language and kind of stream (:class:`GameEvents`: a
game's JSON for each that its streams use, from the game service's cache) by comparing the
game JSON of the version every such stream has with the new one (:func:`change_between`),
and serialized once: every stream of that kind gets the same ``bytes`` object. A new
stream's first event reuses the game's serialized JSON too; only its ``seats`` and ``live``
are its own.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from damiera.web.store import StoredGame

__all__ = [
    "MAX_PENDING",
    "GameEvents",
    "Subscriber",
    "View",
    "apply_change",
    "change_between",
    "sse",
]

#: Change events waiting for a slow stream before it is sent the whole game instead.
MAX_PENDING = 16

PING = b": ping\n\n"


def _dumps(data: Any) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode()   # ASCII: any text is safe


def sse(version: int, data: dict[str, Any]) -> bytes:
    """One event: ``id:`` ``version`` and ``data`` as one line of JSON (ASCII, other characters escaped)."""
    return b"id: %d\ndata: %s\n\n" % (version, _dumps(data))


def _same(a: Any, b: Any) -> bool:
    """Whether two JSON values are the same (``1`` and ``true`` are not)."""
    return a is b or (type(a) is type(b) and a == b)


def _kept(before: list[Any], after: list[Any]) -> int:
    """How many first items ``before`` and ``after`` share."""
    n = min(len(before), len(after))
    for i in range(n):
        if not _same(before[i], after[i]):
            return i
    return n


def change_between(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What turns the game JSON ``before`` into ``after``: ``{"set": {...}, "lists": {...},
    "maps": {...}, "drop": [...]}`` (see the module docstring; ``drop`` only when a field
    went). A list field (the moves, their numbers, the positions, the legal moves) is sent as
    the number of its first items that stay and the items after them; an object field (the
    pieces by square, the clock, the offers) as its keys that changed (``set``) and went
    (``drop``); any other field whole."""
    out: dict[str, Any] = {"set": {}, "lists": {}, "maps": {}}
    for key, value in after.items():
        old = before.get(key, _MISSING)
        if old is value:
            continue
        if isinstance(value, list) and isinstance(old, list):
            keep = _kept(old, value)
            if keep != len(old) or keep != len(value):
                out["lists"][key] = [keep, value[keep:]]
        elif isinstance(value, dict) and isinstance(old, dict):
            changed = {k: v for k, v in value.items()
                       if k not in old or not _same(old[k], v)}
            gone = [k for k in old if k not in value]
            if changed or gone:
                out["maps"][key] = {"set": changed, **({"drop": gone} if gone else {})}
        elif old is _MISSING or not _same(old, value):
            out["set"][key] = value
    dropped = [key for key in before if key not in after]
    if dropped:
        out["drop"] = dropped
    return out


_MISSING = object()


def apply_change(game: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    """The game JSON after ``change`` (a ``change`` event's data) on ``game`` (its
    ``from`` version); ``game`` itself is not changed. The page does the same
    (``static/live.js``)."""
    out = dict(game)
    out.update(change.get("set", {}))
    for key, (keep, items) in change.get("lists", {}).items():
        out[key] = list(game.get(key, []))[:keep] + list(items)
    for key, patch in change.get("maps", {}).items():
        value = {**game.get(key, {}), **patch.get("set", {})}
        for gone in patch.get("drop", []):
            value.pop(gone, None)
        out[key] = value
    for key in change.get("drop", []):
        out.pop(key, None)
    return out


class Subscriber:
    """One open event stream: its language, the sides its client holds, and what waits to
    be sent: the game events in order (at most :data:`MAX_PENDING`, else ``stale``: it
    gets the whole game instead) and the newest ``live`` event."""

    __slots__ = ("chunks", "client", "closed", "done", "kind", "lang", "live_chunk", "sides",
                 "stale", "started", "wake")

    def __init__(self, lang: str, sides: list[str], client: str):
        self.lang = lang
        self.sides = sides
        #: The events it gets: :data:`View` (its language; a watcher's or a player's).
        self.kind: View = (lang, not sides)
        self.client = client
        self.wake = asyncio.Event()
        self.chunks: list[bytes] = []
        self.live_chunk: bytes | None = None
        self.stale = False
        self.started = False
        self.closed = False
        self.done = False

    def push_game(self, chunk: bytes) -> None:
        """A game event (a change, the whole game, or the end) to send after the others."""
        if not self.stale:
            if len(self.chunks) >= MAX_PENDING:
                self.chunks.clear()
                self.stale = True
            else:
                self.chunks.append(chunk)
        self.live_chunk = None     # the game event carries the newest live state
        self.wake.set()

    def push_live(self, chunk: bytes) -> None:
        """The newest ``live`` event (replaces one not sent yet)."""
        self.live_chunk = chunk
        self.wake.set()

    def take(self, whole: Callable[[], bytes]) -> bytes:
        """What to send now (``b""``: nothing), in order; ``whole()`` gives the event of the
        whole game for a stale stream."""
        chunks = [whole()] if self.stale else self.chunks
        if self.live_chunk is not None:
            chunks = [*chunks, self.live_chunk]
        self.chunks = []
        self.live_chunk = None
        self.stale = False
        self.wake.clear()
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)


class _View:
    """A game's JSON for one kind of stream at one version, and its serialized form."""

    __slots__ = ("_bytes", "data", "version")

    def __init__(self, version: int, data: dict[str, Any]):
        self.version = version
        self.data = data
        self._bytes: bytes | None = None

    def serialized(self) -> bytes:
        if self._bytes is None:
            self._bytes = _dumps(self.data)
        return self._bytes


#: The kind of a stream: its language, and whether it is a watcher's (no seat).
View = tuple[str, bool]


class GameEvents:
    """The events of one game shown by this process (see the module docstring).
    ``build(stored, lang)`` is the game JSON of ``stored`` in language ``lang``; a watcher's
    game has no legal moves (``[]``: a watcher cannot play them, and they are most of what
    a move changes)."""

    def __init__(self, build: Callable[[StoredGame, str], dict[str, Any]]):
        self._build = build
        self._views: dict[View, _View] = {}

    def _view(self, stored: StoredGame, kind: View) -> _View:
        view = self._views.get(kind)
        if view is None or view.version != stored.version:
            data = self._build(stored, kind[0])
            if kind[1]:
                data = {**data, "legal_moves": []}
            view = self._views[kind] = _View(stored.version, data)
        return view

    def whole_parts(self, stored: StoredGame, kind: View, live: dict[str, Any],
                    seats: list[str] | None = None) -> tuple[bytes, bytes, bytes]:
        """The event of the whole game ``stored`` for streams of ``kind`` (with ``seats``
        when given: a stream's first event) in three parts to write one after the other:
        its head, the game's JSON (the same ``bytes`` for every stream of this kind and
        version: a stream keeps no copy of its own), its tail."""
        view = self._view(stored, kind)
        extra = b"" if seats is None else b',"seats":' + _dumps(seats)
        return (b'id: %d\ndata: {"type":"game","game":' % stored.version, view.serialized(),
                b'%s,"live":%s}\n\n' % (extra, _dumps(live)))

    def whole(self, stored: StoredGame, kind: View, live: dict[str, Any],
              seats: list[str] | None = None) -> bytes:
        """:meth:`whole_parts` as one ``bytes``."""
        return b"".join(self.whole_parts(stored, kind, live, seats))

    def changed(self, stored: StoredGame, kinds: set[View],
                live: dict[str, Any]) -> dict[View, bytes]:
        """The game became ``stored``: the event for the streams of each kind of ``kinds``
        (a change from the version they have, or the whole game when this process has no
        JSON of theirs to compare with). Kinds not in ``kinds`` are forgotten."""
        out: dict[View, bytes] = {}
        for kind in list(self._views):
            if kind not in kinds:
                del self._views[kind]
        for kind in kinds:
            before = self._views.get(kind)
            if before is None or before.version >= stored.version:
                out[kind] = self.whole(stored, kind, live)
                continue
            after = self._view(stored, kind)
            out[kind] = sse(stored.version, {"type": "change", "from": before.version,
                                             "to": stored.version,
                                             **change_between(before.data, after.data),
                                             "live": live})
        return out
