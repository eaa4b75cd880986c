"""Helpers of the live-board tests: a site served by Uvicorn in a thread (its own port), and
a reader of server-sent events in a thread of its own."""

from __future__ import annotations

import contextlib
import json
import queue
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx2
import uvicorn

from damiera.web.live.events import apply_change
from tests.conftest import WAIT_SECONDS, free_port


@contextmanager
def served(app: Any) -> Iterator[str]:
    """``app`` under Uvicorn on 127.0.0.1 (a free port) while the block runs: its base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT_SECONDS
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=WAIT_SECONDS)


def client(base: str) -> httpx2.Client:
    """A browser of its own (own cookies) on the site, sending same-site requests."""
    return httpx2.Client(base_url=base, headers={"Origin": base}, timeout=WAIT_SECONDS,
                        trust_env=False, follow_redirects=True)


class Events:
    """The server-sent events of ``path`` read by a thread: ``events`` (``(id, data)``, in
    order), ``comments`` (heartbeats) and the response's status; :meth:`wait_for`. A
    ``change`` event is applied to the game the stream has (as the page does:
    :func:`damiera.web.live.events.apply_change`) and comes with the result as ``"game"``;
    one that does not follow the version the stream has is a ``gaps`` entry; ``sizes`` is
    the length of each event's ``data:`` line (bytes)."""

    def __init__(self, web: httpx2.Client, path: str, headers: dict[str, str | bytes] | None = None):
        self.items: queue.Queue[tuple[int | None, dict[str, Any]]] = queue.Queue()
        self.events: list[tuple[int | None, dict[str, Any]]] = []
        self.comments = 0
        self.gaps: list[tuple[int | None, dict[str, Any]]] = []
        self.sizes: list[tuple[str, int]] = []
        self.status: int | None = None
        self.headers: dict[str, str] = {}
        self._stop = threading.Event()
        self._opened = threading.Event()
        self._response: httpx2.Response | None = None
        self.ended: str | None = None     # why the reading stopped, if not by close()
        self._thread = threading.Thread(target=self._read, args=(web, path, headers or {}),
                                        daemon=True)
        self._thread.start()
        assert self._opened.wait(WAIT_SECONDS), "the stream did not answer"

    def _read(self, web: httpx2.Client, path: str, headers: dict[str, str | bytes]) -> None:
        try:
            raw = {k.encode(): v if isinstance(v, bytes) else v.encode()
                   for k, v in headers.items()}
            with web.stream("GET", path, headers=raw,
                            timeout=httpx2.Timeout(WAIT_SECONDS, read=None)) as r:
                self._response = r
                self.status = r.status_code
                self.headers = dict(r.headers)
                self._opened.set()
                if r.status_code != 200:
                    return
                event_id: int | None = None
                game: dict[str, Any] | None = None
                for line in r.iter_lines():
                    if self._stop.is_set():
                        return
                    if line.startswith(":"):
                        self.comments += 1
                    elif line.startswith("id:"):
                        event_id = int(line[3:].strip())
                    elif line.startswith("data:"):
                        data = json.loads(line[5:])
                        self.sizes.append((data.get("type", ""), len(line[5:].encode())))
                        if data.get("type") == "game":
                            game = data["game"]
                        elif data.get("type") == "change":
                            if game is None or data["from"] != game["version"]:
                                self.gaps.append((event_id, data))
                            else:
                                game = apply_change(game, data)
                                data = {**data, "game": game}
                        self.items.put((event_id, data))
        except Exception as exc:  # noqa: BLE001 - closed by close(), or the server went away
            self.ended = repr(exc)
        finally:
            self._opened.set()

    def wait_for(self, test: Callable[[int | None, dict[str, Any]], bool],
                 what: str = "an event") -> tuple[int | None, dict[str, Any]]:
        """The first event (from the start) for which ``test(id, data)`` holds, waiting for
        it as long as the tests wait for anything."""
        for item in self.events:
            if test(*item):
                return item
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {what} among {self.events!r:.2000}")
            try:
                item = self.items.get(timeout=left)
            except queue.Empty:
                continue
            self.events.append(item)
            if test(*item):
                return item

    def drain(self) -> list[tuple[int | None, dict[str, Any]]]:
        """Every event received so far."""
        while True:
            try:
                self.events.append(self.items.get_nowait())
            except queue.Empty:
                return self.events

    def close(self) -> None:
        """Hang up (the server sees the client go)."""
        self._stop.set()
        if self._response is not None:
            with contextlib.suppress(Exception):   # closed already
                self._response.close()
        self._thread.join(WAIT_SECONDS)


def game_event(version: int) -> Callable[[int | None, dict[str, Any]], bool]:
    """The test of :meth:`Events.wait_for` for the event of the game's ``version`` (the
    whole game, or a change that the stream applied)."""
    return lambda i, d: d.get("type") in ("game", "change") and "game" in d and i == version
