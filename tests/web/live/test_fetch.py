"""A game event that comes without the stored row (PostgreSQL's bus drops it from a long
game's message) makes the process read the game once and tell its streams all the same."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx2

from tests.web.live.conftest import ok, online_game
from tests.web.live.sse import Events, game_event


def test_an_event_without_its_row_is_read_from_the_store(
    browsers: Callable[[], httpx2.Client], live_app: Any,
) -> None:
    white, black, watcher = browsers(), browsers(), browsers()
    game = online_game(white)
    black.get(game["invite_url"])
    gid = game["id"]
    stream = Events(watcher, f"/api/games/{gid}/events")
    stream.wait_for(lambda i, d: d["type"] == "game")
    hub = live_app.state.live
    store = live_app.state.service.store
    listeners = list(store.listeners)
    store.listeners.clear()          # the move is stored without telling anyone...
    try:
        moved = ok(white.post(f"/api/games/{gid}/moves", json={"move": "32-28"}))
    finally:
        store.listeners.extend(listeners)
    assert hub._loop is not None     # ...then told as NOTIFY tells a long game: no row
    hub._loop.call_soon_threadsafe(hub._received, {"k": "game", "id": gid,
                                                  "v": moved["version"], "o": "elsewhere"})
    _, data = stream.wait_for(game_event(moved["version"]), "the move read from the store")
    assert data["game"]["history"] == ["32-28"]
    stream.close()
