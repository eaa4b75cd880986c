"""Two web processes and one engine worker on PostgreSQL + Redis: a game against
level 3 played through the API, each request sent to either process in turn; exactly one
search per computer move (counted by the worker in Redis) and no 409."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest

from tests.conftest import WAIT_SECONDS, run_async
from tests.web.processes import start_server, start_worker, stop
from tests.web.test_queue import searches, searches_expected

pytest.importorskip("arq")


@pytest.fixture
def site(postgres_url: str, redis_url: str) -> Iterator[tuple[list[str], str]]:
    """Two ``damiera serve`` processes (own ports) and one ``damiera worker`` on one
    PostgreSQL database and one Redis server: ``([base URL, base URL], redis URL)``."""
    import redis

    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    client.close()
    procs = [start_worker(redis_url)]
    try:
        bases = []
        for _ in range(2):
            proc, base = start_server(postgres_url, redis_url)
            procs.append(proc)
            bases.append(base)
        yield bases, redis_url
    finally:
        for proc in procs:
            stop(proc)


def _headers(base: str) -> dict[str, str]:
    return {"Origin": base}


def test_a_level_3_game_on_two_web_processes_searches_once_per_move_and_never_409(
    site: tuple[list[str], str],
) -> None:
    bases, redis_url = site

    async def play() -> dict[str, Any]:
        async with httpx2.AsyncClient(timeout=WAIT_SECONDS, trust_env=False) as web:
            async def call(i: int, method: str, path: str, **kw: Any) -> dict[str, Any]:
                base = bases[i % 2]
                r = await web.request(method, base + path, headers=_headers(base), **kw)
                assert r.status_code in (200, 201), (method, path, r.status_code, r.text)
                data: dict[str, Any] = r.json()
                return data

            game = await call(0, "POST", "/api/games", json={
                "variant": "italian", "opponent": "computer", "level": 3, "side": "white"})
            gid = game["id"]
            for turn in range(4):
                # the move to one process; meanwhile the other is asked for the game and for
                # the computer's reply (as a page served by it would): it waits, not searches
                moved = asyncio.ensure_future(call(turn, "POST", f"/api/games/{gid}/moves",
                                                   json={"move": game["legal_moves"][0]["move"],
                                                         "version": game["version"]}))
                while True:
                    seen = await call(turn + 1, "GET", f"/api/games/{gid}")
                    if seen["thinking"] or moved.done():
                        break
                    await asyncio.sleep(0.02)
                if seen["thinking"]:
                    replied = await call(turn + 1, "POST", f"/api/games/{gid}/reply",
                                             json={"version": seen["version"]})
                    assert replied["thinking"] is False
                game = await moved
                assert game["thinking"] is False
                if seen["thinking"]:
                    assert replied["history"] == game["history"]
                if game["result"]:
                    break
            return await call(1, "GET", f"/api/games/{gid}")

    game = run_async(play())
    assert len(game["history"]) >= 8
    assert searches(redis_url) == searches_expected(game)

