"""The play page against level 3 on ``damiera serve --workers 2`` and one ``damiera worker``
on PostgreSQL + Redis: each request may be served by either web process; the
moves are played by clicking, each computer move is one search, and no request gets 409."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import WAIT_MS
from tests.browser.test_play_page import api_game, moves_listed, open_game, square, wait_idle
from tests.web.processes import start_server, start_worker, stop
from tests.web.test_queue import searches, searches_expected

pytest.importorskip("arq")

Page = Any


@pytest.fixture(scope="module")
def queue_site(postgres: Any, redis_url: str) -> Iterator[tuple[str, str]]:
    """``(base URL, Redis URL)`` of two web processes on one port and one engine worker."""
    import redis

    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    client.close()
    database = postgres.new_database()
    worker = start_worker(redis_url)
    try:
        server, base = start_server(database, redis_url, workers=2)
        try:
            yield base, redis_url
        finally:
            stop(server)
    finally:
        stop(worker)


@pytest.fixture(scope="module")
def base_url(queue_site: tuple[str, str]) -> str:
    """The play page's site: the two processes above (instead of the in-process site)."""
    return queue_site[0]


def test_three_moves_against_level_3_on_two_web_processes(
    page: Page, queue_site: tuple[str, str],
) -> None:
    refused: list[str] = []
    page.on("response", lambda r: refused.append(f"{r.request.method} {r.url}")
            if r.status == 409 else None)
    game = api_game(page, variant="italian", opponent="computer", level=3, side="white")
    open_game(page, game["id"])
    for turn in range(3):
        state = page.request.get(f"/api/games/{game['id']}").json()
        move = state["legal_moves"][0]
        square(page, move["from"]).click()
        square(page, move["to"]).click()
        expect(page.locator("#move-list button.move")).to_have_count(2 * turn + 2,
                                                                     timeout=WAIT_MS)
        wait_idle(page)
        expect(page.locator("#thinking")).to_be_hidden()
    final = page.request.get(f"/api/games/{game['id']}").json()
    assert moves_listed(page) == final["history"] and len(final["history"]) == 6
    assert refused == []
    assert searches(queue_site[1]) == searches_expected(final)

