"""A computer search already running when its client hangs up is stopped in its worker
("a search whose client went away ... is cancelled"), so the worker is free for the
next player at once instead of at the end of the search's time."""

from __future__ import annotations

import asyncio
import threading

from damiera.rules.position import parse_fen
from damiera.rules.variant import variant
from damiera.web.computer import ComputerPool

#: A level-3 search given this long would hold the only worker for an hour if nothing
#: stopped it; the test's guard below is a small fraction of it.
HOUR = 3600.0


def test_a_running_search_whose_caller_is_cancelled_is_stopped_in_its_worker() -> None:
    v = variant("international")
    # the start without White's man on 50: out of any opening book, so level 3 searches
    positions = [parse_fen(v, "W:W31-49:B1-20")]

    async def scenario() -> tuple[int, int, str]:
        pool = ComputerPool(workers=1, movetime=HOUR)
        try:
            abandoned = asyncio.ensure_future(
                pool.choose("international", False, positions, 3))
            while pool.started == 0:          # handed to the worker: it is searching
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.5)          # well inside the hour-long search
            abandoned.cancel()                # what the route does when the client hangs up
            try:
                await abandoned
            except asyncio.CancelledError:
                pass
            # The only worker takes the next search only after the first one ended: without
            # the stop this would wait for the rest of the hour.
            move = await asyncio.wait_for(
                pool.choose("international", False, positions, 1), timeout=HOUR / 10)
            return pool.started, pool.stopped, str(move)
        finally:
            pool.close()

    # In a thread of its own: the browser tests' Playwright keeps an event loop running in
    # the main thread.
    outcome: list[tuple[int, int, str]] = []
    runner = threading.Thread(target=lambda: outcome.append(asyncio.run(scenario())))
    runner.start()
    runner.join()
    ((started, stopped, move),) = outcome
    assert (started, stopped) == (2, 1)
    assert move
