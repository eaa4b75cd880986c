"""Events between web processes: two sites on one PostgreSQL database, each with a bus of
its own (Redis pub/sub, or PostgreSQL LISTEN/NOTIFY without Redis); a move played on one
reaches a watcher and the opponent connected to the other, and so do presence and watcher
counts, and a challenge's creator being in the lobby. A long game's row is over NOTIFY's
payload limit: the receivers read it instead."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest

from damiera.web.app import create_app
from damiera.web.live.bus import PG_PAYLOAD_LIMIT, LocalBus, PostgresBus, RedisBus, make_bus
from tests.conftest import WAIT_SECONDS, run_async
from tests.web.live.conftest import ROOMY, TEST_LIVE, ok, online_game
from tests.web.live.sse import Events, client, game_event, served


@pytest.fixture(params=["redis", "postgresql"])
def two_sites(request: pytest.FixtureRequest, postgres_url: str) -> Iterator[list[str]]:
    redis_url = request.getfixturevalue("redis_url") if request.param == "redis" else None
    with ExitStack() as stack:
        bases = []
        for _ in range(2):
            app = create_app(postgres_url, computer_workers=1, limits=ROOMY, live=TEST_LIVE,
                             redis_url=redis_url)
            expected = RedisBus if redis_url else PostgresBus
            assert isinstance(app.state.live.bus, expected)
            bases.append(stack.enter_context(served(app)))
        yield bases


def test_a_move_on_one_process_reaches_browsers_on_the_other(two_sites: list[str]) -> None:
    one, two = two_sites
    white, black, watcher = client(one), client(two), client(two)
    try:
        game = online_game(white, variant="international", clock="5+0")
        black.get(game["invite_url"])
        gid = game["id"]
        seen = Events(watcher, f"/api/games/{gid}/events")
        opponent = Events(black, f"/api/games/{gid}/events")
        seen.wait_for(lambda i, d: d["type"] == "game")
        played: dict[str, Any] = {}
        moves = ["32-28", "19-23", "28x19", "14x23", "37-32", "10-14"]
        for n, move in enumerate(moves):
            web = white if n % 2 == 0 else black
            played = ok(web.post(f"/api/games/{gid}/moves", json={"move": move}))
            for s in (seen, opponent):
                _, data = s.wait_for(game_event(played["version"]), move)
                assert data["game"]["history"] == moves[: n + 1]
        # white's page opens on process one: it sees process two's watcher, and the
        # watcher sees both players present, each on its own process
        watching = Events(white, f"/api/games/{gid}/events")
        watching.wait_for(lambda i, d: d["live"]["watchers"] == 1, "the other's watcher")
        seen.wait_for(lambda i, d: d["live"]["presence"]["white"]["online"]
                      and d["live"]["presence"]["black"]["online"], "both players present")
        for s in (seen, opponent, watching):
            s.close()
    finally:
        for web in (white, black, watcher):
            web.close()


def test_a_challenge_lasts_while_its_creators_lobby_page_is_open_on_another_process(
    two_sites: list[str],
) -> None:
    """The process without the creator's lobby stream sweeps too: it must see the other's
    confirmations, and its lobby pages hear of the challenge once the creator has left."""
    one, two = two_sites
    maker, taker, other = client(one), client(two), client(two)
    try:
        page = Events(maker, "/api/challenges/events")
        page.wait_for(lambda i, d: d["type"] == "list", "the maker's lobby")
        lobby = Events(other, "/api/challenges/events")
        lobby.wait_for(lambda i, d: d["type"] == "list", "another lobby")
        kept = ok(maker.post("/api/challenges", json={"variant": "italian"}))
        left = ok(maker.post("/api/challenges", json={"variant": "russian"}))
        time.sleep(2 * TEST_LIVE.challenge_grace)      # both processes sweep meanwhile
        assert ok(taker.post(f"/api/challenges/{kept['id']}/accept"))["online"]["ready"]
        page.close()
        lobby.wait_for(lambda i, d: d["type"] == "removed" and d["id"] == left["id"]
                       and d["game_id"] is None, "the challenge of a creator gone")
        assert taker.post(f"/api/challenges/{left['id']}/accept").status_code == 409
        lobby.close()
    finally:
        for web in (maker, taker, other):
            web.close()


def test_a_message_over_the_notify_limit_goes_without_its_row(postgres_url: str) -> None:
    """PostgreSQL's NOTIFY takes at most 8000 bytes: a long game's row is left out (the
    receiving process reads the game from the database instead: :class:`LiveHub`)."""
    async def run() -> list[dict[str, Any]]:
        sender, receiver = PostgresBus(postgres_url), PostgresBus(postgres_url)
        got: list[dict[str, Any]] = []
        arrived = asyncio.Event()

        def received(message: dict[str, Any]) -> None:
            got.append(message)
            if len(got) == 2:
                arrived.set()

        receiver.attach(received)
        await receiver.start()
        await sender.start()
        try:
            await sender.publish({"k": "game", "id": "g1", "v": 3, "row": {"pad": "x" * 100}})
            await sender.publish({"k": "game", "id": "g2", "v": 4,
                                  "row": {"pad": "x" * (PG_PAYLOAD_LIMIT + 100)}})
            await asyncio.wait_for(arrived.wait(), WAIT_SECONDS)
        finally:
            await sender.close()
            await receiver.close()
        return got

    small, large = run_async(run())
    assert small["row"] == {"pad": "x" * 100} and (large["id"], large["v"]) == ("g2", 4)
    assert "row" not in large


def test_the_bus_is_chosen_by_the_settings(tmp_path: Any) -> None:
    assert isinstance(make_bus(f"sqlite:///{tmp_path}/x.sqlite3", None), LocalBus)
    assert isinstance(make_bus("postgresql://u@/d?host=/tmp", None), PostgresBus)
    assert isinstance(make_bus("postgresql://u@/d", "redis://localhost:1/0"), RedisBus)
