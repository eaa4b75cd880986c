"""The event stream of a game (``GET /api/games/{id}/events``): ids are versions, the data
JSON; every change reaches players and watchers; ``Last-Event-ID`` resumes without a gap or
a repeat; heartbeats; the bounds (429 per client, 503 in all); no database query per event
per watcher."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx2
import pytest
from sqlalchemy import event

from damiera.web.live.events import MAX_PENDING, Subscriber
from damiera.web.live.hub import LiveHub, LiveSettings
from tests.conftest import WAIT_SECONDS
from tests.web.live.conftest import TEST_LIVE, ok, online_game
from tests.web.live.sse import Events, game_event


def test_moves_offers_and_results_reach_both_players_and_a_watcher(
    browsers: Callable[[], httpx2.Client],
) -> None:
    white, black, watcher = browsers(), browsers(), browsers()
    game = online_game(white, variant="italian", clock="1+0")
    black.get(game["invite_url"])
    gid = game["id"]
    streams = [Events(web, f"/api/games/{gid}/events") for web in (white, black, watcher)]
    for s, seats in zip(streams, (["white"], ["black"], []), strict=True):
        assert s.status == 200 and s.headers["content-type"].startswith("text/event-stream")
        first = s.wait_for(lambda i, d: d["type"] == "game", "the first game event")
        assert first[1]["seats"] == seats and first[0] == first[1]["game"]["version"]
    moved = ok(white.post(f"/api/games/{gid}/moves", json={"move": "22-19"}))
    for s in streams:
        _, data = s.wait_for(game_event(moved["version"]), "the move")
        assert data["game"]["history"] == ["22-19"] and data["game"]["turn"] == "black"
        assert "seats" not in data and data["game"]["clock"]["running"] is None  # waits
        assert data["game"]["clock"]["white_ms"] == 60_000          # for Black's first move
    offered = ok(black.post(f"/api/games/{gid}/draw/offer"))
    for s in streams:
        s.wait_for(lambda i, d: i == offered["version"]
                   and d["game"]["online"]["draw_offer"] == "black", "the draw offer")
    over = ok(white.post(f"/api/games/{gid}/resign"))
    for s in streams:
        _, data = s.wait_for(game_event(over["version"]), "the result")
        assert data["game"]["result"]["reason"] == "resignation"
        assert data["game"]["online"]["draw_offer"] is None
    watcher_live = streams[2].wait_for(
        lambda i, d: d["live"]["watchers"] == 1 and d["live"]["presence"]["white"]["online"]
        and d["live"]["presence"]["black"]["online"], "one watcher, both players here")
    assert watcher_live[1]["live"]["claim_after_ms"] == TEST_LIVE.claim_after * 1000
    for s in streams:
        s.close()


def test_a_resumed_stream_gets_what_it_missed_once(browsers: Callable[[], httpx2.Client]) -> None:
    white, black, watcher = browsers(), browsers(), browsers()
    game = online_game(white)
    black.get(game["invite_url"])
    gid = game["id"]
    first = Events(watcher, f"/api/games/{gid}/events")
    seen, _ = first.wait_for(lambda i, d: d["type"] == "game")
    first.close()
    watcher.close()
    watcher = browsers()
    ok(white.post(f"/api/games/{gid}/moves", json={"move": "32-28"}))
    last = ok(black.post(f"/api/games/{gid}/moves", json={"move": "19-23"}))
    again = Events(watcher, f"/api/games/{gid}/events", {"Last-Event-ID": str(seen)})
    _, data = again.wait_for(lambda i, d: d["type"] == "game", "the missed moves")
    assert data["game"]["history"] == ["32-28", "19-23"] and data["game"]["version"] == \
        last["version"]
    again.close()
    up_to_date = Events(browsers(), f"/api/games/{gid}/events?last_event_id={last['version']}")
    item = up_to_date.wait_for(lambda i, d: True)
    assert item[0] == last["version"] and item[1]["type"] == "live"   # nothing to repeat
    up_to_date.close()


@pytest.mark.parametrize("header", [b"\xb2", b"1\xb9", b"\xd9\xa3", b"12345678901234"])
def test_a_last_event_id_of_other_than_ascii_digits_is_ignored(
    browsers: Callable[[], httpx2.Client], header: bytes,
) -> None:
    """Superscript and other Unicode digits (``str.isdigit`` accepts them, ``int`` does
    not) and overlong numbers: the stream starts with the whole game, as with no header."""
    web = browsers()
    game = online_game(web)
    stream = Events(web, f"/api/games/{game['id']}/events", {"Last-Event-ID": header})
    assert stream.status == 200
    _, data = stream.wait_for(lambda i, d: True)
    assert data["type"] == "game" and data["game"]["id"] == game["id"]
    stream.close()


def test_an_idle_stream_gets_heartbeats(browsers: Callable[[], httpx2.Client]) -> None:
    web = browsers()
    game = online_game(web)
    stream = Events(web, f"/api/games/{game['id']}/events")
    stream.wait_for(lambda i, d: d["type"] == "game")
    deadline = time.monotonic() + WAIT_SECONDS
    while stream.comments < 2 and time.monotonic() < deadline:
        time.sleep(TEST_LIVE.heartbeat / 4)
    assert stream.comments >= 2
    stream.close()


def test_streams_are_bounded_per_client_with_retry_after(
    browsers: Callable[[], httpx2.Client], live_app: Any,
) -> None:
    hub = live_app.state.live
    deadline = time.monotonic() + WAIT_SECONDS
    while hub.open_streams and time.monotonic() < deadline:   # other tests' streams end
        time.sleep(0.05)
    game = online_game(browsers())
    web = browsers()                                          # a watcher
    streams = [Events(web, f"/api/games/{game['id']}/events")
               for _ in range(TEST_LIVE.streams_per_client)]
    assert all(s.status == 200 for s in streams)
    refused = web.get(f"/api/games/{game['id']}/events")
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    assert "event streams" in refused.json()["error"]
    for s in streams:
        s.close()
    web.close()


def test_a_players_stream_of_its_own_game_is_not_refused_by_the_watchers_cap(
    browsers: Callable[[], httpx2.Client], live_app: Any,
) -> None:
    """Players behind one address (a club's or a school's NAT): once that address has
    filled its watchers' cap, its players still get their own games' streams (and stay
    present for their opponents); their streams are bounded per seat instead."""
    hub = live_app.state.live
    deadline = time.monotonic() + WAIT_SECONDS
    while hub.open_streams and time.monotonic() < deadline:   # other tests' streams end
        time.sleep(0.05)
    host, white, black = browsers(), browsers(), browsers()
    shown = online_game(host)["id"]
    watching = [Events(browsers(), f"/api/games/{shown}/events")
                for _ in range(TEST_LIVE.streams_per_client)]
    assert all(s.status == 200 for s in watching)
    assert browsers().get(f"/api/games/{shown}/events").status_code == 429
    game = online_game(white)
    black.get(game["invite_url"])
    gid = game["id"]
    mine = [Events(web, f"/api/games/{gid}/events") for web in (white, black)]
    assert [s.status for s in mine] == [200, 200]
    mine[1].wait_for(lambda i, d: d["live"]["presence"]["white"]["online"]
                     and d["live"]["presence"]["black"]["online"], "both players here")
    tabs = [Events(white, f"/api/games/{gid}/events")
            for _ in range(TEST_LIVE.streams_per_seat - 1)]
    assert all(s.status == 200 for s in tabs)
    refused = white.get(f"/api/games/{gid}/events")
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    assert "this game" in refused.json()["error"]
    for s in [*watching, *mine, *tabs]:
        s.close()


def test_unknown_games_have_no_stream(browsers: Callable[[], httpx2.Client]) -> None:
    r = browsers().get("/api/games/nope/events")
    assert r.status_code == 404 and r.json()["error"]


@pytest.mark.parametrize("total", [2])
def test_the_process_refuses_streams_over_its_total_with_503(total: int) -> None:
    class Bus:
        kind = "local"

        def attach(self, _handler: Any) -> None:
            pass

    class Store:
        def __init__(self) -> None:
            self.listeners: list[Any] = []

    class Games:
        store = Store()

    hub = LiveHub(Games(), Bus(), LiveSettings(streams_total=total))  # type: ignore[arg-type]
    hub.admit("a")
    hub.admit("b")
    with pytest.raises(Exception) as refused:
        hub.admit("c")
    assert getattr(refused.value, "status", None) == 503
    hub.release("a")
    hub.admit("c")


def test_watchers_cost_no_database_query_per_event(
    browsers: Callable[[], httpx2.Client], live_app: Any,
) -> None:
    white, black = browsers(), browsers()
    game = online_game(white)
    black.get(game["invite_url"])
    gid = game["id"]
    watchers = [browsers() for _ in range(4)]
    streams = [Events(w, f"/api/games/{gid}/events") for w in watchers]
    for s in streams:
        s.wait_for(lambda i, d: d["type"] == "game")
    engine = live_app.state.service.store.engine
    queries: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        queries.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        moves = ["32-28", "19-23", "28x19", "14x23"]
        for i, move in enumerate(moves):
            last = ok((white if i % 2 == 0 else black).post(
                f"/api/games/{gid}/moves", json={"move": move}))
            for s in streams:
                s.wait_for(game_event(last["version"]), move)
        per_move = len(queries) / len(moves)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    # the POST itself reads and writes the game (a few statements); four watchers add none
    assert per_move <= 6, queries[:20]
    for s in streams:
        s.close()


def test_a_subscriber_sends_each_change_in_order_and_the_whole_game_when_far_behind() -> None:
    sub = Subscriber("en", [], "c")
    sub.push_game(b"c1")
    sub.push_live(b"l1")
    sub.push_game(b"c2")
    sub.push_live(b"l2")
    assert sub.take(lambda: b"whole") == b"c1c2l2" and sub.take(lambda: b"whole") == b""
    for _ in range(MAX_PENDING + 1):
        sub.push_game(b"c")
    sub.push_live(b"l3")
    assert sub.take(lambda: b"whole") == b"wholel3"
    sub.push_game(b"c4")
    assert sub.take(lambda: b"whole") == b"c4"
