"""The job an engine worker process is running, as its supervisor sees it, and that job
handed back to the queue when the process dies.

arq marks a job it starts "in progress" (the Redis key ``arq:in-progress:<job id>``) for
the longest job timeout plus 10 s, and no worker takes a job so marked; the job itself stays
in the queue (``arq:queue``) until it ends. When the process running it dies (SIGKILL, out of
memory, a crash) nobody removes the mark, so the job would wait until it runs out (40 s with
:data:`damiera.web.computer_jobs.JOB_TIMEOUT`) before another worker runs it again.

Each engine process of ``damiera worker`` therefore writes the id of the job it runs into a
:class:`CurrentJob` shared with its supervisor (from arq's ``on_job_start`` hook, and clears
it in ``after_job_end``, once arq has stored the job's end). When the process dies with a job
written there, the supervisor deletes that job's in-progress mark (:func:`hand_back`), and
any worker polling the queue takes the job at once, as a further try of it (arq counts the
tries: :data:`damiera.web.computer_jobs.MAX_TRIES` in all, so a job that kills every process
running it fails instead of going round for ever). A job that has ended meanwhile has no mark
left: deleting none changes nothing.

What this does not cover, and where arq's own expiry of the mark still applies: a process
that dies in the moment between arq marking the job and the ``on_job_start`` hook (a Redis
round trip), a job id longer than :data:`SIZE` bytes (Damiera's are 24), a supervisor that
dies with its processes, and a Redis server that cannot be reached when the process dies.
"""

from __future__ import annotations

import ctypes
from typing import Any

#: Bytes of job id a record holds (a longer id is not recorded).
SIZE = 128
#: Seconds the supervisor waits for Redis when handing a job back.
REDIS_TIMEOUT = 2.0


class CurrentJob:
    """The id of the job one engine process runs, in memory shared by that process (which
    writes it) and its supervisor (which reads it once the process has died).

    ``context``: the multiprocessing context the process is started from; the record must be
    made before the process starts. No lock: a process killed while holding one would leave
    the supervisor waiting for ever. The writer stores the id's bytes first and its length
    last, and clears the length first, so a length above 0 always goes with a whole id."""

    def __init__(self, context: Any) -> None:
        self._id = context.RawArray(ctypes.c_char, SIZE)
        self._length = context.RawValue(ctypes.c_int, 0)

    def start(self, job_id: str) -> None:
        """Record ``job_id`` as the job now running (nothing, if it is over :data:`SIZE`
        bytes)."""
        data = job_id.encode("utf-8", "replace")
        self._length.value = 0
        if not 0 < len(data) <= SIZE:
            return
        self._id[:len(data)] = data
        self._length.value = len(data)

    def end(self) -> None:
        """No job runs now."""
        self._length.value = 0

    def take(self) -> str | None:
        """The job recorded (None: none), and the record cleared."""
        length = self._length.value
        if not 0 < length <= SIZE:
            return None
        self._length.value = 0
        return bytes(self._id[:length]).decode("utf-8", "replace")


def hand_back(redis_url: str, job_id: str) -> bool:
    """Delete job ``job_id``'s in-progress mark on the queue at ``redis_url``, so that another
    worker runs it now. True if there was one (the job had not ended); False if not. Raises
    redis' errors (the server cannot be reached within :data:`REDIS_TIMEOUT` seconds)."""
    from arq.constants import in_progress_key_prefix
    from redis import Redis

    client = Redis.from_url(redis_url, socket_timeout=REDIS_TIMEOUT,
                            socket_connect_timeout=REDIS_TIMEOUT)
    try:
        return bool(client.delete(in_progress_key_prefix + job_id))
    finally:
        client.close()
