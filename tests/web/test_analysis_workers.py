"""Analysis jobs run in worker processes that are ended at once when the job is stopped."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from damiera.web.analysis.workers import Message, WorkerPool

T = TypeVar("T")


def _run(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own (the browser tests leave a loop in this one)."""
    with ThreadPoolExecutor(1) as ex:
        return ex.submit(asyncio.run, coro).result()


INTERNATIONAL = {"kind": "analyse", "variant": "international", "optional_capture": False,
                 "fen": "W:W31-50:B1-20", "multipv": 1, "movetime": 3600.0}


def test_a_stopped_analysis_kills_its_worker_and_sends_nothing_more() -> None:
    async def run() -> tuple[list[Message], WorkerPool, list[bool]]:
        pool = WorkerPool(analysis_slots=1)
        stop = asyncio.Event()
        got: list[Message] = []
        alive: list[bool] = []
        async for msg in pool.run(INTERNATIONAL, stop):
            got.append(msg)
            if len(got) == 2:
                alive.append(next(iter(pool._busy)).proc.is_alive())
                worker = next(iter(pool._busy))
                stop.set()
        alive.append(worker.proc.is_alive())
        pool.close()
        return got, pool, alive

    got, _pool, alive = _run(run())
    assert [m["kind"] for m in got] == ["lines", "lines"]
    assert [m["depth"] for m in got] == [1, 2]
    assert alive == [True, False]  # a search of an hour, ended after its second iteration


def test_leaving_the_stream_early_kills_the_worker_and_a_finished_job_keeps_it() -> None:
    async def run() -> tuple[bool, int, int]:
        pool = WorkerPool(analysis_slots=1)
        stream = pool.run(INTERNATIONAL)
        await stream.__anext__()
        worker = next(iter(pool._busy))
        await stream.aclose()
        killed = not worker.proc.is_alive()
        short = {**INTERNATIONAL, "fen": "W:W46:B5", "movetime": 0.05}
        kinds = [m["kind"] async for m in pool.run(short)]
        idle = len(pool._idle)
        pool.close()
        return killed, idle, kinds.count("done")

    killed, idle, done = _run(run())
    assert killed and idle == 1 and done == 1
