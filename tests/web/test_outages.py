"""Short outages of the servers behind the site cost no failed request: a PostgreSQL restart
(fast shutdown, sessions cut) while requests come in, and a Redis restart (its data lost)
while a computer move is searched and while another is asked for."""

from __future__ import annotations

import asyncio
import shutil
import threading
from collections import Counter
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damiera.rules.movegen import legal_moves
from damiera.rules.position import start_position
from damiera.rules.variant import variant
from damiera.web import db_retry
from damiera.web.app import create_app
from damiera.web.computer import Ask
from tests.conftest import run_async
from tests.services.postgres import Cluster
from tests.web.conftest import ROOMY, new_game
from tests.web.processes import start_worker, stop


def test_a_postgresql_restart_under_requests_fails_none_of_them(postgres: Any,
                                                                postgres_url: str) -> None:
    """The audit: a 1.5 s PostgreSQL restart gave 3 x 503 although the README promises none.
    Moves, undos and reads go on, one after the other, while the server restarts."""
    if not isinstance(postgres, Cluster):
        pytest.skip("restarts only the tests' own PostgreSQL cluster")
    app = create_app(postgres_url, computer_workers=1, limits=ROOMY)
    statuses: Counter[int] = Counter()
    during = 0
    with TestClient(app) as c:
        gid = new_game(c, variant="italian")["id"]
        restart = threading.Thread(target=postgres.restart)
        restart.start()
        while restart.is_alive() or sum(statuses.values()) < 10:
            during += restart.is_alive()
            statuses[c.post(f"/api/games/{gid}/moves", json={"move": "22-19"}).status_code] += 1
            statuses[c.get(f"/api/games/{gid}").status_code] += 1
            statuses[c.post(f"/api/games/{gid}/undo", json={}).status_code] += 1
        restart.join()
    assert during > 0                     # requests were sent while the server was down
    assert set(statuses) == {200}, statuses


def test_the_retry_gives_up_after_the_outage_and_never_retries_sqlite() -> None:
    from sqlalchemy.exc import OperationalError

    tries = 0

    def failing() -> None:
        nonlocal tries
        tries += 1
        raise OperationalError("SELECT 1", {}, Exception("connection refused"))

    with pytest.raises(OperationalError):
        db_retry.call(failing, server=False)
    assert tries == 1
    with pytest.raises(OperationalError):
        db_retry.call(failing, server=True, outage=0.3)
    assert 1 < tries < 100


def _redis_program() -> str:
    program = shutil.which("redis-server") or shutil.which("redis-server", path="/usr/bin")
    if program is None:
        pytest.skip("redis-server is not installed")
    return program


def test_a_redis_restart_fails_neither_the_move_searched_nor_the_one_asked_meanwhile() -> None:
    """The audit: a Redis restart failed every move in flight with 503 and the replies asked
    for until Redis was back. Here Redis restarts (empty: nothing is saved) while a worker
    searches one move, and a second move is asked for while it is down; both come."""
    from damiera.web.computer_queue import QueueComputer
    from tests.services.redis import RedisServer, ping

    server = RedisServer(_redis_program())
    v = variant("international")
    positions = [start_position(v)]
    try:
        worker = start_worker(server.url)
        try:
            async def run() -> tuple[Any, Any]:
                computer = QueueComputer(server.url, movetime=3.0)
                try:
                    searched = asyncio.ensure_future(computer.choose(
                        "international", False, positions, 3, ask=Ask("searched", "g", 1)))
                    redis = await computer._pool_of_redis()
                    while not await redis.exists("arq:in-progress:searched"):
                        await asyncio.sleep(0.02)
                    restart = asyncio.ensure_future(asyncio.to_thread(server.restart, 2.0))
                    while ping(server.socket):
                        await asyncio.sleep(0.02)
                    asked = asyncio.ensure_future(computer.choose(          # while it is down
                        "international", False, positions, 1, ask=Ask("asked", "g", 2)))
                    await restart
                    return await searched, await asked
                finally:
                    computer.close()

            first, second = run_async(run())
            assert worker.poll() is None
        finally:
            stop(worker)
    finally:
        server.stop()
    assert first in legal_moves(v, positions[0]) and second in legal_moves(v, positions[0])
