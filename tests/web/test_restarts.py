"""The site after its processes die: a game whose computer move was being searched when
``damiera serve`` was killed (kill -9) is not left "thinking" after the restart; ``POST
/reply`` gets the move within the pending move's lease, not minutes later."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import httpx2

from tests.conftest import WAIT_SECONDS
from tests.web.processes import spawned_children, start_server, stop


def _kill(pids: set[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_a_search_killed_with_its_server_is_asked_afresh_after_the_restart(
        tmp_path: Path) -> None:
    """The audit (SQLite): after kill -9 and a restart, games that were mid-search stayed
    ``"thinking": true`` and ``POST /reply`` blocked 130 s, until the 180 s stale mark.
    Here the search is held (its pool process stopped) while the server is killed; after the
    restart the reply comes once the dead server's lease has run out (15 s), within the
    client's 60 s."""
    database = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    server, base = start_server(database)
    searchers: set[int] = set()
    try:
        client = httpx2.Client(base_url=base, timeout=60)
        game = client.post("/api/games", json={"variant": "italian", "opponent": "computer",
                                               "level": 3, "side": "white"}).json()
        gid = game["id"]
        game = client.post(f"/api/games/{gid}/moves", json={"move": "22-19"}).json()
        assert len(game["history"]) == 2              # the pool has searched once
        searchers = spawned_children(server.pid)
        assert searchers
        for pid in searchers:
            os.kill(pid, signal.SIGSTOP)               # the next search never ends

        def move() -> None:
            try:
                client.post(f"/api/games/{gid}/moves",
                            json={"move": game["legal_moves"][0]["move"]})
            except httpx2.HTTPError:
                pass                                   # the server dies under it

        threading.Thread(target=move, daemon=True).start()
        deadline = time.monotonic() + WAIT_SECONDS
        while not client.get(f"/api/games/{gid}").json()["thinking"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        server.kill()
        server.wait()
    finally:
        _kill(searchers)
        stop(server)
    cookies = client.cookies
    client.close()
    again, base = start_server(database)
    try:
        with httpx2.Client(base_url=base, timeout=60, cookies=cookies) as fresh:
            stuck = fresh.get(f"/api/games/{gid}").json()
            assert len(stuck["history"]) == 3
            r = fresh.post(f"/api/games/{gid}/reply")      # before: blocked 130 s
            assert r.status_code == 200, r.text
            after: dict[str, Any] = r.json()
            assert len(after["history"]) == 4 and after["thinking"] is False
            assert fresh.get(f"/api/games/{gid}").json()["thinking"] is False
    finally:
        stop(again)
