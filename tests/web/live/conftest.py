"""Fixtures of the live-board tests: one site per backend (SQLite, PostgreSQL) served by
Uvicorn in a thread, and browsers of their own on it (httpx2 clients with own cookies)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx2
import pytest

from damiera.web.app import create_app
from damiera.web.limits import Limits
from damiera.web.live.hub import LiveSettings
from tests.web.live.sse import client, served

#: Delays short enough for the tests (the claim, the heartbeat, a challenge outliving its
#: creator's lobby page), limits roomy enough.
TEST_LIVE = LiveSettings(claim_after=1.0, heartbeat=1.0, presence_every=1.0,
                         challenge_grace=2.0, streams_per_client=6, challenges_per_client=3)
ROOMY = Limits(create_rate=1000.0, create_burst=1000, computer_per_client=100)


@pytest.fixture(scope="session")
def live_app(session_database_url: str) -> Any:
    return create_app(session_database_url, computer_workers=1, computer_movetime=0.05,
                      limits=ROOMY, live=TEST_LIVE)


@pytest.fixture(scope="session")
def base(live_app: Any) -> Iterator[str]:
    with served(live_app) as url:
        yield url


@pytest.fixture
def browsers(base: str) -> Iterator[Callable[[], httpx2.Client]]:
    """Make browsers (each its own cookies); closed after the test."""
    made: list[httpx2.Client] = []

    def make() -> httpx2.Client:
        made.append(client(base))
        return made[-1]

    yield make
    for web in made:
        web.close()


def online_game(web: httpx2.Client, **options: Any) -> dict[str, Any]:
    """POST /api/games for a game online (International, White, by default); asserts 201."""
    r = web.post("/api/games", json={"variant": "international", "opponent": "online",
                                     "side": "white", **options})
    assert r.status_code == 201, r.text
    game: dict[str, Any] = r.json()
    return game


def ok(r: httpx2.Response) -> dict[str, Any]:
    """The JSON of a 200/201 answer (asserts the status)."""
    assert r.status_code in (200, 201), (r.status_code, r.text)
    data: dict[str, Any] = r.json()
    return data
