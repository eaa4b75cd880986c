"""The computer's moves searched by engine workers on a Redis job queue (arq), when the site
is given one (``DAMIERA_REDIS_URL`` or ``damiera serve --redis-url``).

:class:`QueueComputer` is a :class:`~damiera.web.computer.ComputerPool` whose own-engine
searches are jobs (:mod:`damiera.web.computer_jobs`) that any ``damiera worker`` on any machine
runs; the web process waits for the job's result in Redis. Its admission limits (searches per
client, searches waiting in all) count the searches this web process waits for. Hub engines
(:mod:`damiera.web.hub_engines`) still run in the web process, as without a queue.

Shorter searches go first: a job's place in the queue is its time of asking less a head start
(:func:`head_start`: level 1 gets 7.5 s, level 2 5 s, level 3 none), so a level-1 move never
waits behind level-3 searches asked for less than that before it, and a level-3 search waits
at most that long for the quicker ones asked after it.

A job's id is the pending move's id stored with the game (:mod:`damiera.web.thinking`), so at
most one job exists per computer move whichever web process asked for it. When nobody waits
for the move any more (the client hung up) the job is aborted: dropped if no worker took it
yet, else its search is stopped. Since the result stays in Redis a minute, any web process
can store a move whose asking process died before it could (:meth:`QueueComputer.finished`).

A Redis restart or fail-over of a few seconds fails nothing: every command is tried again
while Redis cannot be reached (:func:`damiera.web.computer_jobs.redis_settings`, about 13 s),
and a job that Redis lost (it came back without its data) is queued again under the same id.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from damiera.engine.levels import LEVELS
from damiera.rules.movegen import Move
from damiera.rules.notation import NotationError, parse_move
from damiera.rules.position import Position, write_fen
from damiera.rules.variant import variant as get_variant
from damiera.web import computer_jobs
from damiera.web.computer import Ask, ComputerPool, forced_move
from damiera.web.hub_engines import HubPlayers

log = logging.getLogger("damiera.web")

#: Seconds of head start of a search that takes no time over the longest level's search.
PRIORITY_WINDOW = 10.0


def head_start(level: int) -> float:
    """Seconds by which a job for ``level`` moves up the queue: :data:`PRIORITY_WINDOW`
    times the share of the longest level's time (level 3) that this level does not use."""
    longest = max(lv.movetime for lv in LEVELS.values())
    return PRIORITY_WINDOW * (1 - LEVELS[level].movetime / longest)


#: Times a move's job is queued again when Redis lost it (a restart without its data).
MAX_REQUEUES = 3


def _unreachable(exc: BaseException) -> bool:
    """Whether ``exc`` says that Redis could not be reached (after the tries of
    :func:`damiera.web.computer_jobs.redis_settings`)."""
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    return isinstance(exc, RedisConnectionError | RedisTimeoutError | OSError)


class QueueFailed(RuntimeError):
    """The queue or its worker failed (Redis unreachable, the job failed or expired): 503."""


class QueueComputer(ComputerPool):
    """Computer moves as jobs on the Redis queue at ``redis_url``.

    ``waiting``: searches this web process may wait for at once (more get 503, as a full
    pool); ``movetime``, ``per_client``, ``hub``: as :class:`ComputerPool`. ``expires``:
    seconds a job may wait for a worker before it is dropped; a move not answered within that
    and a worker's time (:attr:`timeout`) fails, and the game waits for ``POST /reply``. Raises ValueError for a malformed ``redis_url``."""

    def __init__(self, redis_url: str, movetime: float | None = None, per_client: int = 2,
                 waiting: int = 64, hub: HubPlayers | None = None, expires: float = 120.0):
        super().__init__(workers=waiting, movetime=movetime, per_client=per_client,
                         total=waiting, hub=hub)
        try:                          # a missing extra fails now, not at the first move
            computer_jobs.redis_settings(redis_url)
        except ValueError:
            from damiera.web.store import safe_url

            raise ValueError(f"bad Redis URL {safe_url(redis_url)!r} (redis://HOST:PORT/DB, "
                             "rediss://, unix:///PATH)") from None
        self.redis_url = redis_url
        self.expires = expires
        #: Seconds a search is waited for at most (its time in the queue, then in a worker).
        self.timeout = expires + computer_jobs.JOB_TIMEOUT
        self._redis: Any = None

    async def _pool_of_redis(self) -> Any:
        if self._redis is None:
            from arq import create_pool

            settings = computer_jobs.redis_settings(self.redis_url)   # commands wait out a
            settings.conn_retries, settings.conn_retry_delay = 0, 0   # restart; no second
            self._redis = await create_pool(                          # round of that
                settings,
                job_serializer=computer_jobs.dumps, job_deserializer=computer_jobs.loads)
        return self._redis

    async def _enqueue(self, job: dict[str, Any], level: int, ask: Ask | None) -> Any:
        """Put ``job`` on the queue (id: the pending move's); the arq Job to wait for."""
        from arq.jobs import Job

        try:
            redis = await self._pool_of_redis()
            queued: Job | None = await redis.enqueue_job(
                computer_jobs.FUNCTION, job, _job_id=ask.job if ask else None,
                _expires=self.expires,
                _defer_until=datetime.now(UTC) - timedelta(seconds=head_start(level)))
        except Exception as exc:  # noqa: BLE001 - redis' errors are not OSErrors
            raise QueueFailed(f"the job queue cannot be reached: {str(exc)[:200]}") from None
        if queued is None:  # a job of this id exists already: wait for that one
            assert ask is not None
            queued = Job(ask.job, redis, _deserializer=computer_jobs.loads)
        return queued

    async def _run(self, variant_id: str, optional_capture: bool,
                   positions: Sequence[Position], level: int, slot: int,
                   ask: Ask | None, movetime: float | None, asked_at: float | None) -> Move:
        from arq.jobs import ResultNotFound

        v = get_variant(variant_id, optional_capture=optional_capture)
        forced = forced_move(v, positions[-1])
        if forced is not None:      # nothing to search: no job
            return forced
        job = computer_jobs.make_job(
            ask.game if ask else "", ask.version if ask else 0, v.full_id, v.optional_capture,
            level, movetime, [write_fen(v, p) for p in positions], asked_at)
        queued = await self._enqueue(job, level, ask)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        lost = 0
        while True:
            try:
                result = await queued.result(timeout=max(0.01, deadline - loop.time()),
                                             poll_delay=computer_jobs.POLL)
                break
            except asyncio.CancelledError:
                # Nobody waits for this move any more: drop the job, or stop its search.
                await asyncio.shield(self._abort(queued.job_id))
                self.stopped += 1
                raise
            except TimeoutError:
                await self._abort(queued.job_id)
                raise QueueFailed(f"no engine worker answered within {self.timeout:g} s; is "
                                  "`damiera worker` running?") from None
            except ResultNotFound:
                # Neither queued nor answered: Redis restarted without its data. Again,
                # under the same id (a worker still searching it stores one answer).
                lost += 1
                if lost > MAX_REQUEUES:
                    raise QueueFailed("the job queue lost this move's job again and "
                                      "again") from None
                log.warning("the job queue lost job %s; queued again", queued.job_id)
                queued = await self._enqueue(job, level, ask)
            except Exception as exc:  # noqa: BLE001 - the worker's error, as one line
                what = ("the job queue cannot be reached" if _unreachable(exc)
                        else "the engine worker failed")
                raise QueueFailed(f"{what}: {str(exc)[:200]}") from None
        text = result.get("move") if isinstance(result, dict) else None
        try:
            return parse_move(v, positions[-1], str(text))
        except NotationError:
            raise QueueFailed(f"the engine worker sent a move that is not legal: "
                              f"{str(text)[:40]!r}") from None

    async def finished(self, job: str) -> str | None:
        """The move text of job ``job`` if a worker has answered it (its result is kept a
        minute), else None; Redis errors count as no answer."""
        from arq.jobs import Job

        try:
            redis = await self._pool_of_redis()
            info = await Job(job, redis, _deserializer=computer_jobs.loads).result_info()
        except Exception:  # noqa: BLE001 - not readable now: the game stays pending
            return None
        if info is None or not info.success or not isinstance(info.result, dict):
            return None
        text = info.result.get("move")
        return text if isinstance(text, str) else None

    async def forget(self, job: str) -> None:
        """Nobody wants job ``job`` any more (its game was deleted, maybe by another web
        process than the one waiting for it): dropped, or its search stopped."""
        await self._abort(job)

    async def _abort(self, job_id: str) -> None:
        """Ask the workers to drop or stop job ``job_id`` (arq's abort set)."""
        from arq.constants import abort_jobs_ss
        from arq.utils import timestamp_ms

        try:
            redis = await self._pool_of_redis()
            await redis.zadd(abort_jobs_ss, {job_id: timestamp_ms()})
        except Exception as exc:  # noqa: BLE001 - Redis gone: the job expires on its own
            log.warning("could not abort job %s: %s", job_id, str(exc)[:200])

    async def searches(self) -> int:
        """Searches the workers have started so far (all web processes together)."""
        redis = await self._pool_of_redis()
        return int(await redis.get(computer_jobs.SEARCHES_KEY) or 0)

    def warm(self) -> None:
        """Nothing to start here: the workers run elsewhere."""

    def close(self) -> None:
        """Stop the Hub engines and drop the Redis connections."""
        self.hub.close()
        redis, self._redis = self._redis, None
        if redis is not None:
            try:
                asyncio.get_running_loop().create_task(redis.aclose())
            except RuntimeError:
                pass
