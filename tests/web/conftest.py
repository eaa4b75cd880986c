"""Fixtures of the web tests: the site driven by FastAPI's test client, on a fresh game store
on each backend in turn (SQLite, then PostgreSQL: ``backend`` in tests/services/postgres.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damiera.web.app import create_app
from damiera.web.limits import Limits

#: The site's limits for tests that make many games from one client quickly (the limits
#: themselves are tested in tests/security).
ROOMY = Limits(create_rate=1000.0, create_burst=1000, computer_per_client=100,
               learn_rate=1000.0, learn_burst=100_000)


@pytest.fixture(scope="session")
def db_url(session_database_url: str) -> str:
    """The store of the session's site (one per backend)."""
    return session_database_url


@pytest.fixture(scope="session")
def client(db_url: str) -> Iterator[TestClient]:
    """One site for the session (the computer's process pool starts once); every test makes
    its own games. The computer searches at most 0.05 s a move."""
    app = create_app(db_url, computer_workers=1, computer_movetime=0.05, limits=ROOMY)
    with TestClient(app) as c:
        yield c


@pytest.fixture
def no_cookie_left(client: TestClient) -> Iterator[None]:
    """The site's client is shared by the session: no language or player cookie set by a
    test reaches another (for a module: ``pytestmark = pytest.mark.usefixtures(...)``)."""
    yield
    client.cookies.clear()


def new_game(client: TestClient, **options: Any) -> dict[str, Any]:
    """POST /api/games (friend game by default) and return the game; asserts 201."""
    body = {"opponent": "friend", **options}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    game: dict[str, Any] = r.json()
    return game


def play(client: TestClient, game_id: str, move: str) -> dict[str, Any]:
    """POST a move that must be legal; returns the game after it."""
    r = client.post(f"/api/games/{game_id}/moves", json={"move": move})
    assert r.status_code == 200, r.text
    game: dict[str, Any] = r.json()
    return game


@pytest.fixture
def tmp_db(database_url: str) -> str:
    """A fresh store of the test's own (one per backend)."""
    return database_url
