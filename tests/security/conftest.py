"""Fixtures of the security tests: the site under FastAPI's test client, and the site served
by Uvicorn on a port the OS chooses (for tests that need real connections)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient

from damiera.cli.web import server_settings
from damiera.web.app import create_app
from damiera.web.limits import Limits

ROOMY = Limits(create_rate=1000.0, create_burst=1000, computer_per_client=100,
               learn_rate=1000.0, learn_burst=100_000)


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


@pytest.fixture
def app(db: str) -> FastAPI:
    return create_app(db, computer_workers=1, computer_movetime=0.05, limits=ROOMY)


@pytest.fixture
def alice(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


@pytest.fixture
def bob(app: FastAPI, alice: TestClient) -> Iterator[TestClient]:
    """A second browser on the same site (its own cookies)."""
    with TestClient(app) as c:
        yield c


def new_game(client: TestClient, **options: Any) -> dict[str, Any]:
    r = client.post("/api/games", json={"variant": "italian", "opponent": "friend", **options})
    assert r.status_code == 201, r.text
    game: dict[str, Any] = r.json()
    return game


@contextmanager
def served(app: FastAPI, **settings: Any) -> Iterator[tuple[str, int]]:
    """``app`` under Uvicorn (with ``damiera serve``'s settings) on 127.0.0.1 and a port the
    OS chose; yields ``(host, port)``."""
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning",
                            **{**server_settings(app.state.limits), **settings})
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(400):
        if server.started:
            break
        time.sleep(0.05)
    assert server.started, "the server did not start"
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield "127.0.0.1", port
    finally:
        server.should_exit = True
        thread.join(30)
