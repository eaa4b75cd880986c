"""The computer opponent for the web site, run outside the server's event loop.

:func:`choose_move` is the one function that picks the computer's move; it plays through
the one engine front (:class:`damiera.engine.Engine`, at the game's level). :class:`ComputerPool` runs it in a
:class:`concurrent.futures.ProcessPoolExecutor`, so a search never blocks the site.

The pool hands the executor at most one search per worker; the others wait in the server
(an asyncio semaphore), where a search whose client hung up is simply dropped. A search
already running when its client hangs up is stopped: each of the pool's slots has a stop flag
in shared memory, which a thread in the worker watches while it searches
(:meth:`~damiera.engine.search.Searcher.stop`), so the worker is free again within
milliseconds instead of at the end of the level's time. Searches
queued or running are capped per client and in all (:class:`~damiera.web.limits.LimitExceeded`:
429 or 503 with ``Retry-After``); the client a search counts against is :data:`CLIENT`, set by
the route.

Worker processes keep one :class:`~damiera.engine.Engine` per (rule parameters,
level): equal variants share it, and at most :data:`MAX_PLAYERS` are kept, so the search
tables carry over between moves without growing with every game. A worker ends itself when
the server process is gone (even after a SIGKILL), so no worker outlives the site.

A game may name a Hub engine (:mod:`damiera.web.hub_engines`) to play instead: its search
takes a slot like any other, runs in a thread of the server that talks to the engine's
process, and is sent ``stop`` when nobody waits for it any more.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import multiprocessing
import os
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from damiera.engine.front import Engine, Limit
from damiera.rules.movegen import Move, legal_moves
from damiera.rules.position import Position, start_position
from damiera.rules.variant import Variant
from damiera.rules.variant import variant as get_variant
from damiera.web.hub_engines import HubPlayers
from damiera.web.limits import LimitExceeded

#: The client the current request's searches count against (set by the API routes).
CLIENT: contextvars.ContextVar[str] = contextvars.ContextVar("computer_client", default="")

#: Engines kept in each worker (an Engine holds its search tables).
MAX_PLAYERS = 8

_players: OrderedDict[tuple[Variant, int], Engine] = OrderedDict()

#: The pool's stop requests (per slot, shared memory: the number of the search to stop), set
#: in each worker by its initializer; None outside a pool's worker.
_stop_flags: Any = None
#: How often a worker looks at its slot's stop flag while it searches (seconds).
STOP_POLL = 0.01


def _player(v: Variant, level: int) -> Engine:
    """The worker's Engine for these rule parameters and level (least recently used dropped
    past :data:`MAX_PLAYERS`)."""
    key = (v, level)
    player = _players.pop(key, None)
    if player is None:
        player = Engine(v, level)
    _players[key] = player
    while len(_players) > MAX_PLAYERS:
        _players.popitem(last=False)
    return player


def forced_move(v: Variant, position: Position) -> Move | None:
    """The move to play without a search: the only legal move, else None. Raises ValueError
    when there is no legal move."""
    moves = legal_moves(v, position)
    if not moves:
        raise ValueError("the computer has no legal move")
    return moves[0] if len(moves) == 1 else None


def choose_move(
    variant_id: str,
    optional_capture: bool,
    positions: Sequence[Position],
    level: int,
    movetime: float | None = None,
    slot: int | None = None,
    job: int = 0,
    stop: threading.Event | None = None,
    asked_at: float | None = None,
) -> Move:
    """The computer's move in ``positions[-1]`` at ``level`` (1, 2 or 3).

    ``positions``: the game's positions, oldest first, the current one last (the search uses
    them to see repetitions). ``movetime``: seconds allowed (None: the level's own time);
    ``asked_at``: in a timed game, the Unix time it was asked at, the wait since then taken
    from ``movetime`` (:func:`time_left`).
    ``slot``, ``job``: in a pool's worker, the slot and number of this search; the server
    writes ``job`` into the slot's stop request to end it early (its best move so far is
    returned, and the server throws it away). ``stop``: elsewhere (a queue worker), an event
    that ends the search early the same way. Raises ValueError when the
    position has no legal move or the level is not 1-3.
    """
    v = get_variant(variant_id, optional_capture=optional_capture)
    position = positions[-1]
    forced = forced_move(v, position)
    if forced is not None:
        return forced
    player = _player(v, level)
    done = threading.Event()
    asked: Callable[[], bool] | None = None
    if stop is not None:
        asked = stop.is_set
    elif slot is not None and _stop_flags is not None:
        flags, number = _stop_flags, job
        asked = lambda: bool(flags[slot] == number)
    if asked is not None:
        threading.Thread(target=_stop_when_asked, args=(player, asked, done),
                         name="damiera-stop-watch", daemon=True).start()
    try:
        result = player.choose(list(positions), Limit(time=time_left(movetime, asked_at)))
    finally:
        done.set()
    return result.move.raw if result.move is not None else legal_moves(v, position)[0]


#: Seconds a search gets at least when the wait for a worker used up a timed game's share.
LEAST_MOVETIME = 0.01


def time_left(movetime: float | None, asked_at: float | None) -> float | None:
    """``movetime`` less the seconds since ``asked_at`` (a Unix time: in a timed game the
    wait for a worker runs on the computer's clock), at least :data:`LEAST_MOVETIME`;
    ``movetime`` unchanged when either is None."""
    if movetime is None or asked_at is None:
        return movetime
    return max(LEAST_MOVETIME, movetime - max(0.0, time.time() - asked_at))


def capped(cap: float | None, movetime: float | None) -> float | None:
    """The shorter of two times in seconds, either of which may be None (no limit)."""
    if cap is None:
        return movetime
    return cap if movetime is None else min(cap, movetime)


def _stop_when_asked(player: Engine, asked: Callable[[], bool], done: threading.Event) -> None:
    """Stop ``player``'s search once ``asked()`` says so (in a pool's worker: the server
    wrote this search's number, never reused, into its slot's stop request, so a request
    meant for an earlier or later search of the same slot is never taken for this one)."""
    while not done.wait(STOP_POLL):
        if asked():
            player.stop()
            return


class GameChanged(RuntimeError):
    """A queued search was dropped because its game changed before it could start."""


@dataclass(frozen=True)
class Ask:
    """Who asks for a search: the pending move's ``job`` id (:mod:`damiera.web.thinking`),
    the ``game`` id and the stored ``version`` it was asked at (a queue job carries them)."""

    job: str
    game: str
    version: int


class ComputerPool:
    """Runs :func:`choose_move` in worker processes.

    ``workers``: number of processes (default: the CPU count, at most 4). ``movetime``: cap in
    seconds given to every search (None: each level's own time). ``per_client`` and
    ``total``: searches queued or running for one client (:data:`CLIENT`) and in all (None:
    four per worker). ``hub``: the site's Hub engines (none by default). The pool starts on
    first use; :meth:`close` stops it.
    """

    def __init__(self, workers: int | None = None, movetime: float | None = None,
                 per_client: int = 2, total: int | None = None,
                 hub: HubPlayers | None = None):
        self.workers = workers or min(4, os.cpu_count() or 1)
        self.hub = hub or HubPlayers([])
        self.movetime = movetime
        self.per_client = per_client
        self.total = total if total is not None else 4 * self.workers
        self._executor: Executor | None = None
        self._slots: asyncio.Semaphore | None = None
        #: Slots free for a search, each with its stop request in :attr:`_flags` (the number
        #: of the search to stop; searches are numbered from 1 by :attr:`_jobs`).
        self._free = list(range(self.workers))
        self._context = multiprocessing.get_context("spawn")
        self._flags: Any = self._context.Array("q", self.workers, lock=False)
        self._jobs = 0
        self._waiting: Counter[str] = Counter()
        #: Searches handed to a worker, searches dropped before they started and searches
        #: stopped while they ran (the tests and the benchmark count them).
        self.started = 0
        self.dropped = 0
        self.stopped = 0

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=self._context,
                initializer=_init_worker, initargs=(os.getpid(), self._flags),
            )
        return self._executor

    def queued(self) -> int:
        """Searches queued or running now."""
        return sum(self._waiting.values())

    def _admit(self, client: str) -> None:
        """Count a new search against ``client`` or refuse it (429 for this client, 503 when
        the site as a whole is full; ``Retry-After`` is a level-3 search per queued round)."""
        rounds = 1 + self.queued() // self.workers
        if self._waiting[client] >= self.per_client:
            raise LimitExceeded(
                429, f"the computer is already choosing {self._waiting[client]} moves for you; "
                "wait for them", 2.0 * rounds)
        if self.queued() >= self.total:
            raise LimitExceeded(503, "the computer is busy with other games; try again soon",
                                2.0 * rounds)
        self._waiting[client] += 1

    async def choose(
        self,
        variant_id: str,
        optional_capture: bool,
        positions: Sequence[Position],
        level: int,
        still_wanted: Callable[[], Awaitable[bool]] | None = None,
        engine: str | None = None,
        ask: Ask | None = None,
        movetime: float | None = None,
        asked_at: float | None = None,
    ) -> Move:
        """The computer's move (see :func:`choose_move`), computed in a worker process, or
        with ``engine`` the move of that Hub engine (``level`` unused; raises
        :class:`~damiera.web.hub_engines.EngineFailed` when it fails). ``movetime``: seconds
        for this move (a timed game's share of the clock), within the pool's cap; None: the
        level's or the engine's own time. ``asked_at``: with a timed game's share, the Unix
        time the share was reckoned at: the wait for a worker is taken from it.
        Raises :class:`LimitExceeded` when the queue is full; cancelling the caller while the
        search waits for a worker drops it, and so does ``still_wanted`` answering False
        when a worker is free (the game changed meanwhile: :class:`GameChanged`); cancelling
        it while the search runs stops the search in its worker. ``ask``: who asks (None: a
        new game's first move)."""
        client = CLIENT.get()
        self._admit(client)
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
        try:
            try:
                await self._slots.acquire()
            except asyncio.CancelledError:
                self.dropped += 1
                raise
            try:
                try:
                    wanted = still_wanted is None or await still_wanted()
                except asyncio.CancelledError:  # the client hung up during that look
                    self.dropped += 1
                    raise
                if not wanted:
                    self.dropped += 1
                    raise GameChanged("the game changed while the computer waited for its turn")
                self.started += 1
                slot = self._free.pop()
                try:
                    movetime = capped(self.movetime, movetime)
                    if engine is not None:
                        return await self._run_hub(engine, variant_id, positions,
                                                   time_left(movetime, asked_at))
                    return await self._run(variant_id, optional_capture, positions, level, slot,
                                           ask, movetime, asked_at)
                finally:
                    self._free.append(slot)
            finally:
                self._slots.release()
        finally:
            self._waiting[client] -= 1
            if self._waiting[client] <= 0:
                del self._waiting[client]

    async def _run(self, variant_id: str, optional_capture: bool,
                   positions: Sequence[Position], level: int, slot: int,
                   ask: Ask | None, movetime: float | None, asked_at: float | None) -> Move:
        loop = asyncio.get_running_loop()
        self._jobs += 1
        job = self._jobs
        search = functools.partial(choose_move, variant_id, optional_capture, list(positions),
                                   level, movetime, slot, job, asked_at=asked_at)
        try:
            try:
                return await loop.run_in_executor(self._pool(), search)
            except BrokenProcessPool:  # a worker died (killed, out of memory): afresh, once
                self._executor = None
                return await loop.run_in_executor(self._pool(), search)
        except asyncio.CancelledError:
            # Nobody waits for this move any more: free the worker now.
            self._flags[slot] = job
            self.stopped += 1
            raise

    async def _run_hub(self, engine: str, variant_id: str,
                       positions: Sequence[Position], movetime: float | None) -> Move:
        stop = threading.Event()
        try:
            movetime = capped(self.hub.movetime, movetime)  # the pool's cap applies too
            return await asyncio.to_thread(self.hub.search, engine, variant_id, list(positions),
                                           movetime, stop)
        except asyncio.CancelledError:
            stop.set()  # nobody waits for this move any more: the engine is told to stop
            self.stopped += 1
            raise

    async def forget(self, job: str) -> None:
        """Nobody wants search ``job`` any more (its game was deleted): nothing to do here,
        since a pool asks ``still_wanted`` before it searches (a job queue drops the job)."""

    async def finished(self, job: str) -> str | None:
        """The move text of search ``job`` if it has ended and its result can be read from
        any process (a job queue's); None here: a pool's results go only to the request that
        waits for them."""
        return None

    def warm(self) -> None:
        """Start the worker processes now (in the background), so the first move is quick."""
        pool = self._pool()
        for _ in range(self.workers):
            pool.submit(_warm)

    def close(self) -> None:
        """Stop the worker processes and the Hub engines (searches under way are
        abandoned)."""
        self.hub.close()
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


def _init_worker(parent: int, flags: Any) -> None:
    """Worker initializer: keep the pool's stop flags, and end with the server."""
    global _stop_flags
    _stop_flags = flags
    _watch_parent(parent)


def _watch_parent(parent: int, every: float = 0.5) -> None:
    """A daemon thread that ends this worker as soon as the server process ``parent`` is
    gone (a SIGKILL gives the server no chance to stop its workers)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(0)

    threading.Thread(target=watch, name="damiera-parent-watch", daemon=True).start()


def _warm() -> None:
    """Import the engine in a worker process."""
    choose_move("italian", False, [start_position(get_variant("italian"))], 1, 0.01)
