"""Stateless web processes: the computer's pending move is in the database, so two
sites on one database (two web processes) agree on "thinking", never search one move twice,
and never answer 409 to a request the user did not make twice."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx2
from fastapi.testclient import TestClient

from damiera.web import thinking
from damiera.web.app import create_app
from tests.conftest import run_async
from tests.web.conftest import ROOMY, new_game


def _two_sites(db: str) -> tuple[Any, Any]:
    return (create_app(db, computer_workers=1, computer_movetime=0.05, limits=ROOMY),
            create_app(db, computer_workers=1, computer_movetime=0.05, limits=ROOMY))


@asynccontextmanager
async def _move_with_search_held(
    sites: tuple[Any, Any], game_id: str, cookies: Any, move: str,
) -> AsyncIterator[tuple[list[httpx2.AsyncClient], asyncio.Future[httpx2.Response],
                         asyncio.Event]]:
    """A client for each site; ``move`` sent to the first, whose computer search is held
    (started, not run) until the yielded event is set; the move request's future."""
    pool = sites[0].state.service.computer
    release = asyncio.Event()
    real_run = pool._run

    async def held(*args: Any) -> Any:
        await release.wait()
        return await real_run(*args)

    pool._run = held
    clients = [httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app),
                                 base_url="http://testserver", cookies=cookies)
               for app in sites]
    try:
        moved = asyncio.ensure_future(
            clients[0].post(f"/api/games/{game_id}/moves", json={"move": move}))
        while pool.started < 1:
            await asyncio.sleep(0.01)
        yield clients, moved, release
    finally:
        release.set()
        for client in clients:
            await client.aclose()


def test_another_process_sees_the_computer_thinking_and_its_reply_waits_for_that_search(
    tmp_db: str,
) -> None:
    one, two = _two_sites(tmp_db)
    with TestClient(one) as c:
        game = new_game(c, variant="italian", opponent="computer", side="white")
        cookies = c.cookies
    pools = [one.state.service.computer, two.state.service.computer]

    async def run() -> tuple[httpx2.Response, dict[str, Any], httpx2.Response]:
        async with _move_with_search_held((one, two), game["id"], cookies, "22-19") as (
                clients, move, release):
            seen = (await clients[1].get(f"/api/games/{game['id']}")).json()
            reply = asyncio.ensure_future(clients[1].post(f"/api/games/{game['id']}/reply"))
            await asyncio.sleep(0.3)     # the reply waits (it does not search, nor refuse)
            assert not reply.done()
            release.set()
            return await move, seen, await reply

    try:
        moved, seen, replied = run_async(run())
    finally:
        for pool in pools:
            pool.close()
    assert seen["thinking"] is True and seen["history"] == ["22-19"]
    assert moved.status_code == 200 and len(moved.json()["history"]) == 2
    assert replied.status_code == 200, replied.text
    assert replied.json()["history"] == moved.json()["history"]
    assert replied.json()["thinking"] is False
    assert [pool.started for pool in pools] == [1, 0]     # one search in all


def test_a_stale_pending_move_is_not_thinking_and_reply_searches_afresh(tmp_db: str) -> None:
    """A process that asked for the computer's move died: after the stale time the game no
    longer says "thinking" and POST /reply plays the move."""
    one, two = _two_sites(tmp_db)
    with TestClient(one) as c:
        game = new_game(c, variant="italian", opponent="computer", side="white")
        c.post(f"/api/games/{game['id']}/moves", json={"move": "22-19"})
        cookies = c.cookies
    store = two.state.service.store
    stored = store.load(game["id"])            # the computer's reply never got stored:
    stored.moves = ["22-19"]
    stored.computer_job = "dead-process"
    stored.computer_asked_at = datetime.now(UTC) - timedelta(seconds=thinking.STALE_AFTER + 1)
    store.save(stored)
    with TestClient(two, cookies=cookies) as c:
        assert c.get(f"/api/games/{game['id']}").json()["thinking"] is False
        r = c.post(f"/api/games/{game['id']}/reply")
        assert r.status_code == 200 and len(r.json()["history"]) == 2
    assert store.load(game["id"]).computer_job is None
    one.state.service.computer.close()


def test_a_pending_move_refuses_undo_in_any_process_then_clears(tmp_db: str) -> None:
    one, two = _two_sites(tmp_db)
    with TestClient(one) as c:
        game = new_game(c, variant="italian", opponent="computer", side="white")
        game = c.post(f"/api/games/{game['id']}/moves", json={"move": "22-19"}).json()
        cookies = c.cookies
    store = two.state.service.store
    stored = store.load(game["id"])
    thinking.ask(stored)
    store.save(stored)
    with TestClient(two, cookies=cookies) as c:
        r = c.post(f"/api/games/{game['id']}/undo")
        assert r.status_code == 409
        stored = store.load(game["id"])
        thinking.clear(stored)
        store.save(stored)
        assert c.post(f"/api/games/{game['id']}/undo").status_code == 200
    one.state.service.computer.close()


def test_a_game_deleted_while_the_computer_thinks_answers_404_not_your_move_was_stored(
    tmp_db: str,
) -> None:
    """The player deletes the game (in another tab, another process) while the computer
    searches its reply: the move request says the game is gone (404), not 503 "your move was
    stored ... ask for it again", and nothing comes back."""
    one, two = _two_sites(tmp_db)
    with TestClient(one) as c:
        game = new_game(c, variant="italian", opponent="computer", side="white")
        cookies = c.cookies
    pools = [one.state.service.computer, two.state.service.computer]

    async def run() -> tuple[httpx2.Response, httpx2.Response]:
        async with _move_with_search_held((one, two), game["id"], cookies, "22-19") as (
                clients, move, release):
            deleted = await clients[1].delete(f"/api/games/{game['id']}")
            release.set()
            return await move, deleted

    try:
        moved, deleted = run_async(run())
    finally:
        for pool in pools:
            pool.close()
    assert deleted.status_code == 204
    assert moved.status_code == 404, moved.text
    assert "no game" in moved.json()["error"] and "stored" not in moved.json()["error"]
    with TestClient(two) as c:
        assert c.get(f"/api/games/{game['id']}").status_code == 404
