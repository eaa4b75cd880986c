"""Limits the site enforces itself: request sizes, slow clients, the computer's queue,
abandoned searches, the rate of new games."""

from __future__ import annotations

import asyncio
import concurrent.futures
import socket
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx2
from fastapi import FastAPI
from fastapi.testclient import TestClient

from damiera.web.app import create_app
from damiera.web.limits import Limits, RateLimiter
from damiera.web.store_tables import GameRow
from tests.security.conftest import ROOMY, new_game, served

MB = 1024 * 1024


def _raw(host: str, port: int, request: bytes, read: bool = True) -> bytes:
    """Send ``request`` on a fresh connection; the first bytes of the answer ("" if the
    server closed the connection without one)."""
    with socket.create_connection((host, port), timeout=60) as s:
        s.sendall(request)
        return s.recv(4096) if read else b""


def test_a_100_mb_body_is_refused_without_being_read(alice: TestClient) -> None:
    gid = new_game(alice)["id"]
    pulled = 0

    def body() -> Iterator[bytes]:
        nonlocal pulled
        for _ in range(100):
            pulled += 1
            yield b"x" * MB

    r = alice.post(f"/api/games/{gid}/moves", content=body(),
                   headers={"content-type": "application/json"})
    assert r.status_code == 413 and "too large" in r.json()["error"]   # sent chunked
    assert alice.get(f"/api/games/{gid}").json()["history"] == []
    r = alice.post("/api/games", content=b"{}", headers={
        "content-type": "application/json", "content-length": str(100 * MB)})
    assert r.status_code == 413


def test_a_100_mb_body_announced_on_a_real_connection_is_refused_at_once(app: FastAPI) -> None:
    with served(app) as (host, port):
        head = (f"POST /api/games HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json"
                f"\r\nContent-Length: {100 * MB}\r\n\r\n").encode()
        assert _raw(host, port, head).startswith(b"HTTP/1.1 413")


def test_huge_headers_and_addresses_are_refused(alice: TestClient) -> None:
    tags = ", ".join(f"x{i:03d}-YY;q=0.5" for i in range(1000))     # 1,000 tags, 15 KB
    r = alice.get("/api/variants", headers={"accept-language": tags})
    assert r.status_code == 200                                      # read, bounded
    r = alice.get("/api/variants", headers={"accept-language": "de," * 10_000})
    assert r.status_code == 431
    assert alice.get("/api/variants?x=" + "a" * 10_000).status_code == 414


def test_a_body_that_does_not_arrive_gets_408_and_a_head_that_does_not_is_closed(
    db: str,
) -> None:
    limits = Limits(body_timeout=0.3, head_timeout=0.3)
    app = create_app(db, computer_workers=1, limits=limits)
    with served(app) as (host, port):
        head = (f"POST /api/games HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json"
                "\r\nContent-Length: 100\r\n\r\n{").encode()
        assert _raw(host, port, head).startswith(b"HTTP/1.1 408")
        half_head = f"GET /api/variants HTTP/1.1\r\nHost: {host}\r\nX-Slow: ".encode()
        assert _raw(host, port, half_head) == b""           # closed without an answer


def test_creation_is_rate_limited_per_client(db: str) -> None:
    app = create_app(db, computer_workers=1, limits=Limits(create_rate=0.001, create_burst=3))
    with TestClient(app) as c:
        for _ in range(3):
            new_game(c)
        r = c.post("/api/games", json={"variant": "italian", "opponent": "friend"})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1


def test_trainer_and_puzzle_requests_are_rate_limited_per_client_address(db: str) -> None:
    """Sessions, answers, puzzles and checked moves share one bucket per client address (a
    puzzle's first attempt writes ratings; a browser without a cookie is a new player each
    time); another address keeps its own."""
    app = create_app(db, computer_workers=1, limits=Limits(learn_rate=0.001, learn_burst=4))
    with TestClient(app, client=("203.0.113.5", 1000)) as c, \
            TestClient(app, client=("198.51.100.7", 1000)) as other:
        session = c.get("/api/train/session", params={"variant": "italian"})
        assert session.status_code == 200
        exercise = session.json()["exercises"][0]["id"]
        puzzle = c.get("/api/puzzles/next", params={"variant": "russian"})
        assert puzzle.status_code == 200
        assert c.get(f"/api/puzzles/{puzzle.json()['puzzle']['id']}").status_code == 200
        r = c.post("/api/train/answer", json={"variant": "italian", "exercise": exercise,
                                               "legal": True, "winner": "none"})
        assert r.status_code in (200, 400)
        for refused in (c.get("/api/puzzles/daily", params={"variant": "russian"}),
                        c.post("/api/puzzles/0/moves", json={"moves": ["1-5"]}),
                        c.post("/api/train/answer", json={"variant": "italian",
                                                          "exercise": exercise})):
            assert refused.status_code == 429, refused.text
            assert "too many" in refused.json()["error"]
            assert int(refused.headers["retry-after"]) >= 1
        assert other.get("/api/puzzles/daily", params={"variant": "russian"}).status_code == 200
        assert c.get("/puzzles?variant=russian").status_code == 200   # pages are not counted


def test_rate_limiter_forgets_the_oldest_clients() -> None:
    now = [0.0]
    limiter = RateLimiter(rate=1.0, burst=1, max_clients=100, clock=lambda: now[0])
    for i in range(10_000):
        limiter.take(f"client{i}")
    assert len(limiter._buckets) == 100


def test_the_computer_queue_is_capped_per_client_and_in_all(db: str) -> None:
    """One client may have one search queued, the site two: a second search of the same
    client is 429, a third client's is 503, both with Retry-After; the moves stay stored."""
    app = create_app(db, computer_workers=1,
                     limits=Limits(create_rate=100.0, create_burst=100,
                                   computer_per_client=1, computer_total=2))
    with TestClient(app) as c:
        games = [new_game(c, opponent="computer", side="white")["id"] for _ in range(4)]
        cookies = c.cookies
    pool = app.state.service.computer
    senders = ["10.0.0.1", "10.0.0.1", "10.0.0.2", "10.0.0.3"]

    async def run() -> list[httpx2.Response]:
        release = asyncio.Event()

        async def slow(*_args: Any) -> Any:
            await release.wait()
            raise RuntimeError("search stopped by the test")

        pool._run = slow

        async def one(address: str, gid: str) -> httpx2.Response:
            transport = httpx2.ASGITransport(app=app, client=(address, 1234))
            async with httpx2.AsyncClient(transport=transport, base_url="http://testserver",
                                         cookies=cookies) as client:
                return await client.post(f"/api/games/{gid}/moves", json={"move": "22-19"})

        tasks = []
        for address, gid in zip(senders, games, strict=True):
            tasks.append(asyncio.ensure_future(one(address, gid)))
            for _ in range(100):                  # in order: each one queued or refused
                await asyncio.sleep(0.01)
                if tasks[-1].done() or pool.queued() >= len(tasks):
                    break
        refused = [t for t in tasks if t.done()]
        release.set()
        done = list(await asyncio.gather(*tasks))
        assert len(refused) == 2
        return done

    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        responses = thread.submit(asyncio.run, run()).result()
    codes = [r.status_code for r in responses]
    assert codes[1] == 429 and codes[3] == 503, [r.text for r in responses]
    for r in (responses[1], responses[3]):
        assert int(r.headers["retry-after"]) >= 1
        assert "your move was stored" in r.json()["error"] and "/reply" in r.json()["error"]
    assert pool.queued() == 0


#: International's start without White's man on 50: a position no opening book holds.
OUT_OF_BOOK = "W:W31-49:B1-20"


def test_abandoned_level_3_requests_are_dropped_and_a_level_1_move_is_served(
    tmp_path: Path,
) -> None:
    """30 clients ask for a level-3 move and hang up at once: the searches not yet started
    are dropped, so another player's level-1 move waits for at most the one under way."""
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    app = create_app(db, computer_workers=1, computer_movetime=None,
                     limits=Limits(create_rate=1000.0, create_burst=1000,
                                   computer_per_client=100, computer_total=100))
    pool = app.state.service.computer
    with served(app) as (host, port):
        base = f"http://{host}:{port}"
        with httpx2.Client(base_url=base, timeout=120) as web:
            # the start without White's man on 50: out of any opening book, so level 3
            # searches (a book move would answer at once and never queue)
            games = [web.post("/api/games", json={"variant": "international", "level": 3,
                                                  "side": "white", "fen": OUT_OF_BOOK}
                              ).json()["id"]
                     for _ in range(30)]
            cookie = f"damiera_player={web.cookies['damiera_player']}"
            body = b'{"move": "32-28"}'
            hung: list[socket.socket] = []
            try:
                for gid in games:
                    s = socket.create_connection((host, port), timeout=60)
                    hung.append(s)
                    s.sendall((
                        f"POST /api/games/{gid}/moves HTTP/1.1\r\nHost: {host}\r\n"
                        f"Cookie: {cookie}\r\nContent-Type: application/json\r\n"
                        f"Content-Length: {len(body)}\r\n\r\n").encode() + body)
                for _ in range(1200):            # until all 30 searches are queued
                    if pool.queued() >= 30:
                        break
                    time.sleep(0.05)
                assert pool.queued() == 30 and pool.started <= 2
            finally:
                for s in hung:                   # every client hangs up
                    s.close()
            for _ in range(1200):                # until the server has seen every hang-up
                if pool.queued() <= 1:
                    break
                time.sleep(0.05)
            game = web.post("/api/games", json={"variant": "italian", "level": 1,
                                                "side": "white"}).json()
            r = web.post(f"/api/games/{game['id']}/moves", json={"move": "22-19"})
            assert r.status_code == 200 and len(r.json()["history"]) == 2
            # the abandoned games keep the human's move and wait for /reply
            left = web.get(f"/api/games/{games[-1]}").json()
            assert left["history"] == ["32-28"] and left["thinking"] is False
    # every search was either dropped or run; run: the level-3 search under way when the
    # clients hung up, those that ended before the server saw every hang-up (a level-3 search
    # takes its level's seconds; the server sees 30 hang-ups within a few of them, however
    # loaded the machine), and the level 1: far fewer than the 30 asked for
    assert pool.started + pool.dropped == 31, (pool.started, pool.dropped)
    assert pool.dropped >= 20, (pool.started, pool.dropped)


def test_a_queued_search_whose_game_changed_is_dropped(db: str) -> None:
    """Game B's search waits for the worker; meanwhile B changes (another server process
    writes it): when the worker is free, B's search is dropped and B's request gets 409."""
    app = create_app(db, computer_workers=1, limits=ROOMY)
    with TestClient(app) as c:
        a, b = (new_game(c, opponent="computer", side="white")["id"] for _ in range(2))
        cookies = c.cookies
    service = app.state.service
    pool = service.computer

    async def run() -> list[httpx2.Response]:
        release = asyncio.Event()
        real_run = pool._run

        async def first_waits(*args: Any) -> Any:
            await release.wait()
            return await real_run(*args)

        pool._run = first_waits
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://testserver",
                                     cookies=cookies) as client:
            first = asyncio.ensure_future(
                client.post(f"/api/games/{a}/moves", json={"move": "22-19"}))
            while pool.queued() < 1:
                await asyncio.sleep(0.01)
            second = asyncio.ensure_future(
                client.post(f"/api/games/{b}/moves", json={"move": "22-19"}))
            while pool.queued() < 2:
                await asyncio.sleep(0.01)
            stored = await service.load(b)        # B changes behind this process's back
            stored.moves = []
            await asyncio.to_thread(service.store.save, stored)
            release.set()
            return [await first, await second]

    try:
        with concurrent.futures.ThreadPoolExecutor(1) as thread:
            first, second = thread.submit(asyncio.run, run()).result()
    finally:
        pool.close()
    assert first.status_code == 200
    assert second.status_code == 409 and "changed" in second.json()["error"]
    assert pool.started == 1 and pool.dropped == 1


def test_games_untouched_for_the_configured_time_are_deleted_by_the_server(db: str) -> None:
    """The clean-up runs when the site starts and then every ``cleanup_interval``."""
    limits = Limits(game_ttl=3600.0, cleanup_interval=3600.0)
    app = create_app(db, computer_workers=1, limits=limits)
    store = app.state.service.store
    with TestClient(app) as c:
        old, fresh = new_game(c)["id"], new_game(c)["id"]
    with store._sessions.begin() as session:     # "old" was last changed two hours ago
        row = session.get(GameRow, old)
        assert row is not None
        row.updated_at = datetime.now(UTC) - timedelta(hours=2)
    with TestClient(create_app(db, computer_workers=1, limits=limits)) as c:
        for _ in range(200):                      # the clean-up runs in the background
            if c.get(f"/api/games/{old}").status_code == 404:
                break
            time.sleep(0.05)
        assert c.get(f"/api/games/{old}").status_code == 404
        assert c.get(f"/api/games/{fresh}").status_code == 200
