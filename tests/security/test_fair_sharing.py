"""Fair sharing of the expensive work (analysis streams, reviews, PDN imports) by client
address, whatever cookies a client sends: one address cannot fill the queue, evict another
client's work or keep every slot, and a global cap answers 503 (the audit's findings, each
repeated here first)."""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from damiera.web import pdn_import
from damiera.web.app import create_app
from damiera.web.fair_share import FairShare
from damiera.web.limits import LimitExceeded
from tests.conftest import WAIT_SECONDS, run_async
from tests.security.conftest import ROOMY, served

ATTACKER = "203.0.113.5"
VISITOR = "198.51.100.7"


# -- the scheduler itself ----------------------------------------------------------------------
def test_one_client_holds_at_most_its_share_and_a_full_queue_answers_503() -> None:
    async def scenario() -> None:
        share = FairShare(slots=2, per_client=2, waiting=3, what="things")
        a1, a2 = share.ticket("a"), share.ticket("a")
        with pytest.raises(LimitExceeded) as refused:
            share.ticket("a")
        assert refused.value.status == 429
        assert await a1.acquire()                   # a runs one of the two slots...
        second = asyncio.ensure_future(a2.acquire())
        await asyncio.sleep(0)
        assert not second.done()                    # ...never both: the other is kept free
        b = share.ticket("b")
        assert await b.acquire() and share.running() == 2
        waiting = [share.ticket(c) for c in ("c", "d")]
        assert share.waiting() == 3
        with pytest.raises(LimitExceeded) as full:
            share.ticket("e")
        assert full.value.status == 503
        for t in waiting:
            t.release()                             # a waiting ticket leaves the queue
        b.release()
        assert not second.done()                    # a still runs its one
        a1.release()
        assert await second and share.running("a") == 1
        a2.release()
        assert share.running() == 0 and share.waiting() == 0

    run_async(scenario())


def test_a_freed_slot_goes_to_the_client_running_the_fewest() -> None:
    async def scenario() -> None:
        share = FairShare(slots=2, per_client=5, waiting=10, what="things",
                          running_per_client=2)
        first = [share.ticket("a"), share.ticket("a")]
        for t in first:
            assert await t.acquire()
        a3 = share.ticket("a")
        b1 = share.ticket("b")                      # came later than a3
        got_a, got_b = asyncio.ensure_future(a3.acquire()), asyncio.ensure_future(b1.acquire())
        await asyncio.sleep(0)
        first[0].release()
        await asyncio.sleep(0)
        assert b1.running and not a3.running        # b runs nothing yet: b goes first
        stop = asyncio.Event()
        a4 = share.ticket("a")
        waiting = asyncio.ensure_future(a4.acquire(stop))
        await asyncio.sleep(0)
        stop.set()
        assert await waiting is False and a4.released
        for t in (first[1], a3, b1):
            t.release()
        await asyncio.gather(got_a, got_b)
        assert share.running() == 0 and share.waiting() == 0

    run_async(scenario())


# -- the site ----------------------------------------------------------------------------------
@pytest.fixture
def site(tmp_path: Path) -> FastAPI:
    """Two analysis slots, reviews that search 0.02 s a position."""
    app = create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", computer_workers=2,
                     computer_movetime=0.05, limits=ROOMY)
    app.state.analysis_pool.review_movetime = 0.02
    return app


def _as(address: str) -> dict[str, str]:
    """Headers of a request the site's trusted proxy forwards from ``address``, with a
    random player cookie (a new browser each time, as a flood would send)."""
    return {"x-forwarded-for": address,
            "cookie": f"damiera_player={secrets.token_urlsafe(16)}"}


@pytest.fixture
def proxy(site: FastAPI) -> Iterator[TestClient]:
    """The site as its reverse proxy on this machine reaches it."""
    with TestClient(site, client=("127.0.0.1", 40000)) as c:
        yield c


STREAM = "/api/analysis/stream?variant=international&multipv=3"


def test_one_address_with_random_cookies_cannot_starve_the_analysis_board(
        site: FastAPI) -> None:
    """The audit: 100 streams with random cookies from one address left a visitor's stream
    without data for over a minute. Behind the trusted proxy (127.0.0.1 here), the address is
    what it forwards; the searches would go on for ten minutes."""
    site.state.analysis_pool.analysis_movetime = 600.0

    async def scenario(base: str) -> None:
        timeout = httpx2.Timeout(WAIT_SECONDS)
        async with httpx2.AsyncClient(base_url=base, timeout=timeout) as http:
            async def open_stream(address: str) -> tuple[int, Any]:
                request = http.build_request(
                    "GET", STREAM, headers={"x-forwarded-for": address},
                    cookies={"damiera_player": secrets.token_urlsafe(16)})
                response = await http.send(request, stream=True)
                return response.status_code, response

            flood = [await open_stream(ATTACKER) for _ in range(12)]
            statuses = [status for status, _ in flood]
            assert statuses.count(200) == 2 and statuses.count(429) == 10, statuses
            status, visitor = await open_stream(VISITOR)
            assert status == 200
            lines = visitor.aiter_lines()
            async with asyncio.timeout(WAIT_SECONDS):   # a generous wait, not a measure
                while not (await anext(lines)).startswith("data:"):
                    pass
            for _, response in [*flood, (status, visitor)]:
                await response.aclose()

    with served(site) as (host, port):
        run_async(scenario(f"http://{host}:{port}"))


def test_reviews_from_one_address_never_evict_another_clients_review(
        proxy: TestClient) -> None:
    """The audit: 65 reviews with random cookies evicted everyone else's (404 at once)."""
    body = {"variant": "international", "moves": ["32-28", "19-23", "28x19", "14x23"]}
    visitor = _as(VISITOR)
    r = proxy.post("/api/analysis/reviews", json=body, headers=visitor)
    assert r.status_code == 202, r.text
    mine = r.json()["id"]
    refused = 0
    for _ in range(65):
        r = proxy.post("/api/analysis/reviews", json=body, headers=_as(ATTACKER))
        assert r.status_code in (202, 429, 503), r.text
        refused += r.status_code != 202
        assert proxy.get(f"/api/analysis/reviews/{mine}").status_code == 200
    assert refused > 0     # at most 4 of the address's at once (its own finished ones make room)


def test_one_address_cannot_keep_every_import_slot(proxy: TestClient,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The audit: one address at its allowed rate kept both import slots busy and a visitor's
    imports were refused with 503. Here each import by the attacker holds its slot until the
    test lets it go."""
    release = threading.Event()
    entered: list[str] = []
    real = pdn_import.read_import

    def slow(text: str) -> dict[str, Any]:
        if "Slow" in text:
            entered.append(text)
            release.wait(WAIT_SECONDS)
        return real(text)

    monkeypatch.setattr(pdn_import, "read_import", slow)
    slow_file = {"pdn": '[Event "Slow"]\n1. 32-28 *\n'}
    with ThreadPoolExecutor(2) as threads:
        attacks = [threads.submit(proxy.post, "/api/pdn/import", json=slow_file,
                                  headers=_as(ATTACKER)) for _ in range(2)]
        try:
            deadline = time.monotonic() + WAIT_SECONDS     # both attacks have their answer
            while not (len(entered) == 2 or (entered and any(a.done() for a in attacks))):
                assert time.monotonic() < deadline, "the imports never started"
                time.sleep(0.01)
            answers = [proxy.post("/api/pdn/import", json={"pdn": "1. 32-28 19-23 *"},
                                  headers=_as(VISITOR)) for _ in range(3)]
        finally:
            release.set()
        statuses = sorted(a.result().status_code for a in attacks)
    assert [r.status_code for r in answers] == [200, 200, 200], [r.text for r in answers]
    assert statuses == [200, 429], statuses


def test_a_review_replaced_before_it_started_gives_its_place_back() -> None:
    """A browser asking for reviews faster than the loop starts them: each new one cancels
    the one before, whose task never ran its cleanup; its place must come back all the same,
    or the address would be refused for good after a few."""
    from starlette.requests import Request

    from damiera.rules.position import start_position
    from damiera.rules.variant import variant
    from damiera.web.analysis.routes import AnalysisService
    from damiera.web.analysis.workers import WorkerPool

    request = Request({"type": "http", "method": "POST", "path": "/", "query_string": b"",
                       "client": (VISITOR, 40000),
                       "headers": [(b"cookie", b"damiera_player=abc")]})
    v = variant("international")

    async def scenario() -> None:
        pool = WorkerPool(review_slots=1)
        service = AnalysisService(None, pool)   # type: ignore[arg-type]
        try:
            reviews = [await service.start_review(request, v, start_position(v), ["32-28"],
                                                  {}, "*") for _ in range(6)]
            assert pool.shares["review"]._held[VISITOR] == 1
            assert [r.status for r in reviews[:-1]] == ["failed"] * 5
            last = reviews[-1].task
            assert last is not None
            last.cancel()
            await asyncio.gather(last, return_exceptions=True)
            assert pool.shares["review"]._held[VISITOR] == 0
        finally:
            pool.close()

    run_async(scenario())
