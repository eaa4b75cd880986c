"""Computer moves on the Redis job queue: jobs are JSON, checked on the way in;
a ``damiera worker`` searches them; one search per computer move, a dropped job never
searched; the site against a real Redis server and a real worker process."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damiera.rules.movegen import legal_moves
from damiera.rules.position import parse_fen, start_position, write_fen
from damiera.rules.variant import variant
from damiera.web import computer_jobs, thinking
from damiera.web.app import create_app
from damiera.web.computer import Ask
from damiera.web.computer_jobs import BadJob, make_job, read_job
from tests.conftest import WAIT_SECONDS, run_async
from tests.web.conftest import ROOMY, new_game
from tests.web.processes import start_worker, stop

pytest.importorskip("arq")


def _job(**changes: Any) -> dict[str, Any]:
    v = variant("italian")
    job = make_job("g", 1, "italian", False, 1, 0.05, [write_fen(v, start_position(v))])
    job.update(changes)
    return job


def test_a_job_is_plain_json_and_reads_back_the_positions() -> None:
    job = _job()
    raw = computer_jobs.dumps(job)
    assert computer_jobs.loads(raw) == job
    variant_id, optional, positions, level, movetime, asked_at = read_job(
        computer_jobs.loads(raw))
    assert (variant_id, optional, level, movetime, asked_at) == ("italian", False, 1, 0.05, None)
    assert positions == [start_position(variant("italian"))]


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"variant": "chess"}, "unknown variant"),
        ({"level": 4}, "level must be 1, 2 or 3"),
        ({"level": True}, "level must be 1, 2 or 3"),
        ({"positions": []}, "positions"),
        ({"positions": ["W:W99:B1"]}, "bad FEN"),
        ({"positions": ["x" * 2000]}, "FEN string"),
        ({"positions": ["W:W21:B1"] * (computer_jobs.MAX_POSITIONS + 1)}, "positions"),
        ({"movetime": -1}, "movetime"),
        ({"asked_at": "now"}, "asked_at"),
        ({"asked_at": float("nan")}, "asked_at"),
        ({"asked_at": True}, "asked_at"),
        ({"optional_capture": "yes"}, "optional_capture"),
    ],
)
def test_a_malformed_job_is_refused_with_one_line(changes: dict[str, Any], words: str) -> None:
    with pytest.raises(BadJob) as err:
        read_job(_job(**changes))
    assert words in str(err.value) and "\n" not in str(err.value)


# -- against a real Redis server and real workers -----------------------------------------------

@pytest.fixture
def queue(redis_url: str) -> Iterator[str]:
    """A Redis URL whose counters start at zero."""
    import redis

    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    client.close()
    yield redis_url


def searches(redis_url: str) -> int:
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        count: Any = client.get(computer_jobs.SEARCHES_KEY)
        return int(count or 0)
    finally:
        client.close()


def _computer(redis_url: str, movetime: float = 0.05) -> Any:
    from damiera.web.computer_queue import QueueComputer

    return QueueComputer(redis_url, movetime=movetime, per_client=10)


def test_one_search_per_job_even_when_two_requests_ask_for_it(queue: str) -> None:
    """Two waits for the same pending move (same job id) share one search."""
    worker = start_worker(queue)
    v = variant("italian")
    positions = [start_position(v)]

    async def both() -> tuple[Any, Any]:
        computer = _computer(queue)
        ask = Ask("same-job", "g", 1)
        try:
            return await asyncio.gather(
                computer.choose("italian", False, positions, 2, ask=ask),
                computer.choose("italian", False, positions, 2, ask=ask))
        finally:
            computer.close()

    try:
        first, second = run_async(both())
    finally:
        stop(worker)
    assert first == second
    assert searches(queue) == 1


def test_a_job_nobody_waits_for_is_dropped_before_a_worker_takes_it(queue: str) -> None:
    v = variant("italian")
    positions = [start_position(v)]

    async def give_up() -> None:
        computer = _computer(queue)
        task = asyncio.ensure_future(
            computer.choose("italian", False, positions, 1, ask=Ask("gone", "g", 1)))
        redis = await computer._pool_of_redis()
        while not await redis.exists("arq:job:gone"):
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert computer.stopped == 1
        computer.close()

    run_async(give_up())
    worker = start_worker(queue)       # only now a worker: it finds the job aborted

    async def later() -> Any:
        computer = _computer(queue)
        try:   # a second job behind it, so that the worker has looked at the first
            return await computer.choose("italian", False, positions, 1, ask=Ask("next", "g", 2))
        finally:
            computer.close()

    try:
        assert run_async(later()) is not None
    finally:
        stop(worker)
    assert searches(queue) == 1


def searches_expected(game: dict[str, Any]) -> int:
    """The computer's moves of ``game`` that needed a search (more than one legal move)."""
    v = variant(game["variant"], optional_capture=game["optional_capture"])
    count = 0
    for fen in game["positions"][:-1]:
        position = parse_fen(v, fen)
        if position.turn.word == game["computer_side"] and len(legal_moves(v, position)) > 1:
            count += 1
    return count


def test_the_site_on_the_queue_searches_once_per_computer_move(queue: str, tmp_db: str) -> None:
    worker = start_worker(queue)
    try:
        app = create_app(tmp_db, computer_movetime=0.05, limits=ROOMY, redis_url=queue)
        with TestClient(app) as c:
            game = new_game(c, variant="italian", opponent="computer", level=1, side="black")
            assert len(game["history"]) == 1         # the computer opened
            for _ in range(4):
                r = c.post(f"/api/games/{game['id']}/moves",
                           json={"move": game["legal_moves"][0]["move"]})
                assert r.status_code == 200, r.text
                game = r.json()
                assert game["thinking"] is False
                if game["result"]:
                    break
    finally:
        stop(worker)
    assert len(game["history"]) >= 5
    assert searches(queue) == searches_expected(game)



def test_a_level_1_search_goes_before_a_level_3_search_asked_just_before_it(queue: str) -> None:
    """The queue orders jobs by time of asking less the level's head start: with one worker,
    a level-1 move asked after a level-3 move is searched first."""
    from arq.jobs import Job

    v = variant("italian")
    positions = [start_position(v)]
    computer = _computer(queue)

    async def ask_both() -> list[asyncio.Future[Any]]:
        redis = await computer._pool_of_redis()
        slow = asyncio.ensure_future(
            computer.choose("italian", False, positions, 3, ask=Ask("slow", "a", 1)))
        while not await redis.exists("arq:job:slow"):
            await asyncio.sleep(0.01)
        quick = asyncio.ensure_future(
            computer.choose("italian", False, positions, 1, ask=Ask("quick", "b", 1)))
        while not await redis.exists("arq:job:quick"):
            await asyncio.sleep(0.01)
        return [slow, quick]

    async def run() -> list[Any]:
        slow, quick = await ask_both()
        worker = await asyncio.to_thread(start_worker, queue)
        try:
            await asyncio.gather(slow, quick)
            redis = await computer._pool_of_redis()
            return [await Job(job, redis, _deserializer=computer_jobs.loads).result_info()
                    for job in ("slow", "quick")]
        finally:
            await asyncio.to_thread(stop, worker)
            computer.close()

    computer.movetime = 0.2
    slow_info, quick_info = run_async(run())
    assert quick_info.start_time < slow_info.start_time
    assert quick_info.finish_time <= slow_info.start_time


def test_an_unreachable_queue_is_503_and_your_move_is_kept(tmp_db: str) -> None:
    app = create_app(tmp_db, limits=ROOMY, redis_url="unix:///nonexistent/redis.sock")
    with TestClient(app) as c:
        r = c.post("/api/games", json={"variant": "italian", "opponent": "computer",
                                       "side": "black"})        # the computer opens: 503
        assert r.status_code == 503 and "job queue" in r.json()["error"]
        game = new_game(c, variant="italian", opponent="computer", side="white")
        r = c.post(f"/api/games/{game['id']}/moves", json={"move": "22-19"})
        assert r.status_code == 503 and r.json()["move_stored"] is True
        after = c.get(f"/api/games/{game['id']}").json()
        assert after["history"] == ["22-19"] and after["thinking"] is False
        assert new_game(c, variant="italian")["opponent"] == "friend"   # friends play on


def _children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"


@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGKILL"])
def test_a_worker_of_several_processes_takes_them_with_it(queue: str, signal_name: str) -> None:
    import signal
    import time

    worker = start_worker(queue, processes=2)
    try:
        deadline = time.monotonic() + WAIT_SECONDS
        while len(children := _children(worker.pid)) < 2:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        worker.send_signal(getattr(signal, signal_name))
        worker.wait(timeout=WAIT_SECONDS)
        while not all(_gone(p) for p in children):
            assert time.monotonic() < deadline, children
            time.sleep(0.05)
    finally:
        stop(worker)


def test_without_a_worker_the_move_fails_saying_so_and_the_job_is_dropped(queue: str) -> None:
    from damiera.web.computer_queue import QueueFailed

    computer = _computer(queue)
    computer.timeout = 0.3
    v = variant("italian")

    async def ask() -> None:
        try:
            await computer.choose("italian", False, [start_position(v)], 1,
                                  ask=Ask("lonely", "g", 1))
        finally:
            computer.close()

    with pytest.raises(QueueFailed, match="no engine worker answered"):
        run_async(ask())
    worker = start_worker(queue)        # a worker that comes later drops it (aborted)

    async def later() -> Any:
        late = _computer(queue)
        try:
            return await late.choose("italian", False, [start_position(v)], 1,
                                     ask=Ask("next", "g", 2))
        finally:
            late.close()

    try:
        run_async(later())
    finally:
        stop(worker)
    assert searches(queue) == 1


def test_a_move_whose_asking_process_died_is_stored_by_the_next_reader(queue: str,
                                                                       tmp_db: str) -> None:
    """The process that asked for the computer's move is gone (its request never stored the
    answer); the worker's answer stays in Redis, and the next GET, served by any process,
    stores it: the game shows the move at once instead of "thinking" until the pending move
    goes stale. One search in all."""
    app = create_app(tmp_db, computer_movetime=0.05, limits=ROOMY, redis_url=queue)
    worker = start_worker(queue)
    try:
        with TestClient(app) as c:
            game = new_game(c, variant="italian", opponent="computer", side="white")
            game = c.post(f"/api/games/{game['id']}/moves", json={"move": "22-19"}).json()
            store = app.state.service.store
            stored = store.load(game["id"])          # undo the reply: as if never stored
            stored.moves = ["22-19"]
            job = thinking.ask(stored)
            stored = store.save(stored)
            v = variant("italian")
            fens = [write_fen(v, start_position(v)), game["positions"][1]]

            async def ask_and_vanish() -> None:   # what the dead process had sent
                own = _computer(queue)
                redis = await own._pool_of_redis()
                await redis.enqueue_job(computer_jobs.FUNCTION, make_job(
                    game["id"], stored.version, "italian", False, 1, 0.05, fens), _job_id=job)
                from arq.jobs import Job

                await Job(job, redis, _deserializer=computer_jobs.loads).result(
                    poll_delay=0.05)
                await redis.aclose()

            run_async(ask_and_vanish())
            seen = c.get(f"/api/games/{game['id']}").json()
    finally:
        stop(worker)
    assert len(seen["history"]) == 2 and seen["thinking"] is False
    assert store.load(game["id"]).computer_job is None
    assert searches(queue) == 2     # the first reply's, and the vanished request's


def test_a_job_a_worker_refuses_fails_with_the_workers_reason(queue: str) -> None:
    """A failed job's result is JSON too: the web process reads why (here the worker's
    BadJob), not arq's "unable to serialize result"."""
    from arq.jobs import Job

    worker = start_worker(queue)

    async def ask() -> str:
        computer = _computer(queue)
        redis = await computer._pool_of_redis()
        try:
            await redis.enqueue_job(computer_jobs.FUNCTION, _job(variant="chess"),
                                    _job_id="refused")
            try:
                await Job("refused", redis, _deserializer=computer_jobs.loads).result(
                    timeout=WAIT_SECONDS, poll_delay=0.02)
            except Exception as exc:  # noqa: BLE001 - the job's failure, as the web sees it
                return str(exc)
            return "no failure"
        finally:
            computer.close()

    try:
        why = run_async(ask())
    finally:
        stop(worker)
    assert "unknown variant" in why and "serialize" not in why


@pytest.mark.slow
def test_a_search_whose_worker_was_killed_is_searched_by_the_next_worker(queue: str) -> None:
    """SIGKILL of the worker in the middle of a search, then a new worker: the move still
    comes (the job runs again once arq's in-progress mark of the dead worker expires,
    JOB_TIMEOUT + 10 s), instead of failing with "max 1 retries exceeded". Slow: that wait."""
    import signal

    v = variant("international")
    positions = [start_position(v)]
    first = start_worker(queue)

    async def ask() -> Any:
        computer = _computer(queue, movetime=5.0)
        try:
            task = asyncio.ensure_future(
                computer.choose("international", False, positions, 3, ask=Ask("k", "g", 1)))
            while searches(queue) == 0:
                await asyncio.sleep(0.02)
            first.send_signal(signal.SIGKILL)
            first.wait()
            second = start_worker(queue)
            try:
                return await task
            finally:
                stop(second)
        finally:
            computer.close()

    try:
        move = run_async(ask())
    finally:
        stop(first)
    assert move in legal_moves(v, positions[0])
    assert searches(queue) == 2



def test_a_game_deleted_while_its_job_waits_is_never_searched(queue: str, tmp_db: str) -> None:
    """DELETE (from any process) while the computer's job waits for a worker: the job is
    dropped (no search), and the move request says the game is gone (404)."""
    import httpx2

    app = create_app(tmp_db, computer_movetime=0.05, limits=ROOMY, redis_url=queue)
    with TestClient(app) as c:
        game = new_game(c, variant="italian", opponent="computer", side="white")
        cookies = c.cookies

    async def run() -> tuple[httpx2.Response, httpx2.Response]:
        client = httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app),
                                   base_url="http://testserver", cookies=cookies)
        computer = _computer(queue)
        redis = await computer._pool_of_redis()
        try:
            move = asyncio.ensure_future(
                client.post(f"/api/games/{game['id']}/moves", json={"move": "22-19"}))
            while not await redis.keys("arq:job:*"):
                await asyncio.sleep(0.01)
            deleted = await client.delete(f"/api/games/{game['id']}")
            worker = await asyncio.to_thread(start_worker, queue)   # only now a worker
            try:
                return await move, deleted
            finally:
                await asyncio.to_thread(stop, worker)
        finally:
            computer.close()
            await client.aclose()

    try:
        moved, deleted = run_async(run())
    finally:
        app.state.service.computer.close()
    assert deleted.status_code == 204
    assert moved.status_code == 404, moved.text
    assert searches(queue) == 0


def test_a_worker_lives_through_a_redis_restart_and_searches_after_it() -> None:
    """Redis goes away for a second (a restart, a fail-over): ``damiera worker`` says so
    and connects again, instead of ending with a traceback; the next move is searched."""
    import shutil

    from tests.services.redis import RedisServer

    program = shutil.which("redis-server") or shutil.which("redis-server", path="/usr/bin")
    if program is None:
        pytest.skip("redis-server is not installed")
    server = RedisServer(program)
    try:
        worker = start_worker(server.url)
        try:
            server.restart(down=1.0)
            v = variant("italian")

            async def ask() -> Any:
                computer = _computer(server.url)
                try:
                    return await computer.choose("italian", False, [start_position(v)], 1,
                                                 ask=Ask("after-restart", "g", 1))
                finally:
                    computer.close()

            move = run_async(ask())
            assert worker.poll() is None
        finally:
            stop(worker)
    finally:
        server.stop()
    assert move in legal_moves(v, start_position(v))
