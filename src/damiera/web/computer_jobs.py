"""The computer's move as a job on a Redis queue (arq): what a job carries and what a worker
does with it.

A job is plain JSON, never a pickled object (:func:`dumps`, :func:`loads`)::

    {"game": "<game id>", "version": 7, "variant": "italian", "optional_capture": false,
     "level": 3, "movetime": null, "positions": ["W:W21,...:B1,...", ...], "asked_at": null}

``positions``: the FEN of every position of the game, oldest first, the one to move in last
(the search uses them to see repetitions; at most :data:`MAX_POSITIONS`, each at most
:data:`~damiera.rules.position.MAX_FEN_TEXT` characters). ``asked_at``: in a timed game, the
Unix time the move's ``movetime`` (its share of the clock) was reckoned at: the time the job
waited in the queue is taken from it (:func:`damiera.web.computer.time_left`); absent or null
otherwise. ``game`` and ``version`` name the game and the stored version the move was asked
for; the worker only hands them back. The result is ``{"move": "<full notation>", "game",
"version"}``: the web process that asked stores the move only if the game is still at that
version and still waits for this job (:mod:`damiera.web.thinking`), so a job for a game that
changed meanwhile is dropped.

A worker (``damiera worker``, :func:`run_worker`) runs one search at a time (arq's
``max_jobs=1``): the number of searches under way on the whole site is the number of worker
processes. It needs only the Redis URL, not the database. A job that is aborted (its web
process no longer wants the move: the client hung up, or the game changed) is dropped if it
has not started, and stopped within milliseconds if it runs. Each search started is counted
in Redis under :data:`SEARCHES_KEY` (the tests and the load benchmark read it). A worker of
``damiera worker`` records the job it runs for its supervisor, which hands the job back to
the queue at once if the worker dies during it (:mod:`damiera.web.current_job`).
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from damiera.rules.notation import move_text
from damiera.rules.position import MAX_FEN_TEXT, parse_fen
from damiera.rules.variant import variant as get_variant
from damiera.web.current_job import CurrentJob

#: The arq function name of a computer move.
FUNCTION = "computer_move"
#: Redis key counting the searches workers have started (INCR once per search).
SEARCHES_KEY = "damiera:searches"
#: Most positions a job may carry (a game longer than this is refused).
MAX_POSITIONS = 2000
#: Seconds a worker gives one job at most (a search is stopped by its level's time, 2 s at
#: level 3). Also how long a job whose worker died without its supervisor handing the job
#: back (a lost machine; see :mod:`damiera.web.current_job`) waits, plus 10 s, before
#: another worker runs it again: arq's in-progress mark lasts that long.
JOB_TIMEOUT = 30
#: Runs of one job at most: a second one when the first worker died during the search.
MAX_TRIES = 2
#: How often (seconds) a worker looks for new jobs and a web process for a job's result.
POLL = 0.02
#: Seconds a worker that lost Redis waits before it connects again.
RECONNECT = 1.0
#: Seconds over which a Redis command is tried again while the server cannot be reached (a
#: restart, a fail-over), by workers and web processes alike: about 13 s, in tries 50 ms
#: apart at first, then 500 ms.
REDIS_RETRIES = 30
#: Environment variable naming the Redis server of the queue.
ENVIRONMENT = "DAMIERA_REDIS_URL"


class BadJob(ValueError):
    """A job that is not a well-formed computer move (the message says what)."""


def dumps(data: Any) -> bytes:
    """arq's serializer: JSON (jobs and results carry text and numbers only; a failed job's
    exception is written as its one-line reason, ``"BadJob: unknown variant ..."``, which the
    web process reads back as the failure's message)."""
    return json.dumps(data, separators=(",", ":"), default=_reason).encode()


def _reason(value: Any) -> str:
    """What JSON cannot carry: an exception becomes ``"Type: message"`` (at most 300
    characters, one line)."""
    if isinstance(value, BaseException):
        text = f"{type(value).__name__}: {value}" if str(value) else type(value).__name__
        text = text.replace("\n", " ")
        return text[:300]
    raise TypeError(f"{type(value).__name__} is not JSON")


def loads(raw: bytes) -> Any:
    """arq's deserializer: JSON."""
    return json.loads(raw)


def make_job(game: str, version: int, variant_id: str, optional_capture: bool, level: int,
             movetime: float | None, positions: list[str],
             asked_at: float | None = None) -> dict[str, Any]:
    """The job asking for the computer's move after ``positions`` (FEN, oldest first)."""
    return {"game": game, "version": version, "variant": variant_id,
            "optional_capture": optional_capture, "level": level, "movetime": movetime,
            "positions": positions, "asked_at": asked_at}


def read_job(job: Any) -> tuple[str, bool, list[Any], int, float | None, float | None]:
    """``(variant id, optional capture, positions, level, movetime, asked_at)`` of a job,
    each checked (bounded sizes, known variant, legal FEN). Raises :class:`BadJob`."""
    if not isinstance(job, dict):
        raise BadJob("a job is a JSON object")
    variant_id, optional, level = job.get("variant"), job.get("optional_capture"), job.get("level")
    fens, movetime = job.get("positions"), job.get("movetime")
    if not isinstance(variant_id, str) or not isinstance(optional, bool):
        raise BadJob("a job names its variant and optional_capture")
    if level not in (1, 2, 3) or isinstance(level, bool):
        raise BadJob(f"level must be 1, 2 or 3, not {level!r}")
    if movetime is not None and (not isinstance(movetime, int | float) or not movetime > 0):
        raise BadJob("movetime must be a positive number of seconds or null")
    asked_at = job.get("asked_at")
    if asked_at is not None and (isinstance(asked_at, bool) or not isinstance(asked_at, int | float)
                                 or not 0 < asked_at < 1e11):
        raise BadJob("asked_at must be a Unix time in seconds or null")
    if not isinstance(fens, list) or not 0 < len(fens) <= MAX_POSITIONS:
        raise BadJob(f"a job carries 1 to {MAX_POSITIONS} positions")
    try:
        v = get_variant(variant_id, optional_capture=optional)
    except ValueError as exc:
        raise BadJob(str(exc)[:200]) from None
    positions = []
    for fen in fens:
        if not isinstance(fen, str) or len(fen) > MAX_FEN_TEXT:
            raise BadJob("each position is a FEN string")
        try:
            positions.append(parse_fen(v, fen))
        except ValueError as exc:
            raise BadJob(f"bad FEN: {str(exc)[:200]}") from None
    return (v.full_id, optional, positions, int(level),
            None if movetime is None else float(movetime),
            None if asked_at is None else float(asked_at))


async def computer_move(ctx: dict[str, Any], job: Any) -> dict[str, Any]:
    """The arq job: the computer's move for ``job`` (see the module docstring), searched in a
    thread of this worker so that the worker keeps talking to Redis; cancelling the job
    (arq's abort) stops the search. Raises :class:`BadJob`."""
    from damiera.web.computer import choose_move

    variant_id, optional, positions, level, movetime, asked_at = read_job(job)
    await ctx["redis"].incr(SEARCHES_KEY)
    stop = threading.Event()
    search: Callable[[], Any] = functools.partial(
        choose_move, variant_id, optional, positions, level, movetime, stop=stop,
        asked_at=asked_at)
    future = asyncio.get_running_loop().run_in_executor(None, search)
    try:
        move = await asyncio.shield(future)
    except asyncio.CancelledError:
        stop.set()                      # the search ends within milliseconds: wait for it, so
        await asyncio.wait([future])    # the next job never shares this one's search tables
        raise
    v = get_variant(variant_id, optional_capture=optional)
    return {"move": move_text(v, move), "game": job.get("game"), "version": job.get("version")}


def redis_settings(redis_url: str) -> Any:
    """arq's RedisSettings for ``redis_url``, with every command tried again over a short
    outage (:data:`REDIS_RETRIES`): a Redis restart of a few seconds only slows the
    commands under way instead of failing them. Raises ValueError for a malformed URL."""
    from arq.connections import RedisSettings
    from redis.asyncio.retry import Retry
    from redis.backoff import ExponentialBackoff
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    try:
        settings = RedisSettings.from_dsn(redis_url)
    except RuntimeError as exc:
        raise ValueError(str(exc)) from None
    settings.retry = Retry(ExponentialBackoff(cap=0.5, base=0.05), REDIS_RETRIES)
    settings.retry_on_error = [RedisConnectionError, RedisTimeoutError, OSError]
    return settings


def worker_settings(redis_url: str, current: CurrentJob | None = None) -> dict[str, Any]:
    """arq Worker keyword arguments for one engine worker on ``redis_url``: one search at a
    time, JSON jobs, abortable, results kept a minute, a job run again (once) by another
    worker when its worker died during the search (at once when the worker's supervisor
    hands it back: the job under way is written into ``current`` from when it starts until
    arq has stored its end; else after :data:`JOB_TIMEOUT` + 10 s); on SIGTERM it takes
    no new job and finishes the one under way (up to 10 s) before it ends; a Redis restart
    of a few seconds is waited out (:func:`redis_settings`), the search under way going on
    and its answer stored once Redis is back. Once connected it
    says ``damiera worker: engine process ready (pid P)`` on standard error."""
    from arq.worker import func

    hooks: dict[str, Any] = {}
    if current is not None:
        hooks = {"on_job_start": functools.partial(_job_started, current),
                 "after_job_end": functools.partial(_job_ended, current)}
    return {
        "functions": [func(computer_move, name=FUNCTION, timeout=JOB_TIMEOUT,
                           max_tries=MAX_TRIES)],
        "redis_settings": redis_settings(redis_url),
        "max_jobs": 1,
        "poll_delay": POLL,
        "allow_abort_jobs": True,
        "keep_result": 60,
        "job_serializer": dumps,
        "job_deserializer": loads,
        "handle_signals": True,
        "job_completion_wait": 10,   # SIGTERM: take no new job, finish the search under way
        "on_startup": _ready,
        **hooks,
    }


async def _job_started(current: CurrentJob, ctx: dict[str, Any]) -> None:
    """arq's hook before a job runs (its in-progress mark is set): record it."""
    current.start(str(ctx["job_id"]))


async def _job_ended(current: CurrentJob, _ctx: dict[str, Any]) -> None:
    """arq's hook once a job's end is stored (its mark deleted): no job runs now."""
    current.end()


async def _ready(_ctx: dict[str, Any]) -> None:
    """arq's start-up hook: say that this worker is connected to the queue."""
    print(f"damiera worker: engine process ready (pid {os.getpid()})", file=sys.stderr,
          flush=True)


def run_worker(redis_url: str, parent: int | None = None,
               current: CurrentJob | None = None) -> None:
    """Run one engine worker in this process until SIGINT/SIGTERM (or, with ``parent``, until
    that process is gone: a worker of :func:`damiera.web.worker_supervisor.supervise` never
    outlives it), writing the job it runs into ``current`` (see :func:`worker_settings`).
    When Redis goes
    away (a restart, a fail-over) it says so in one line on standard error and connects
    again, every :data:`RECONNECT` seconds (arq's worker itself ends at the first error)."""
    from arq.worker import Worker
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    if parent is not None:
        from damiera.web.computer import _watch_parent

        _watch_parent(parent)
    while True:
        asyncio.set_event_loop(asyncio.new_event_loop())   # arq's Worker takes the current loop
        worker = Worker(**worker_settings(redis_url, current))
        try:
            worker.run()
            return                                          # stopped by a signal
        except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
            why = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
            print(f"damiera worker: lost the job queue ({why}); connecting again in "
                  f"{RECONNECT:g} s", file=sys.stderr, flush=True)
        finally:
            asyncio.get_event_loop().close()
        time.sleep(RECONNECT)
