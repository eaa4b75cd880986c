"""``damiera worker --processes N``: N engine worker processes, kept alive.

:func:`supervise` starts each engine worker (:func:`damiera.web.computer_jobs.run_worker`)
in a process of its own and watches them. One that dies (killed, out of memory, crashed) is
logged on standard error with how it ended and replaced: at once when it had run for at least
:data:`STABLE` seconds, else after a back-off that doubles with each quick death in a row
(:data:`FIRST_DELAY` seconds, then twice that, ... up to :data:`MAX_DELAY`). When no process
stays alive (every one of them died within :data:`STABLE` seconds of its start
:data:`GIVE_UP_AFTER` times in a row) the supervisor says so and ends with status 1, so that a
service manager restarting on failure (``deploy/systemd/``) sees it. SIGTERM or SIGINT stops
the workers (each finishes the search under way, up to 10 s; killed after :data:`STOP_WAIT`)
and ends with status 0. A worker ends on its own when the supervisor is gone, even after a
SIGKILL.

A process that dies during a search does not leave that computer move waiting: each process
records the job it runs (:class:`damiera.web.current_job.CurrentJob`), and the supervisor
hands that job back to the queue as soon as it sees the death (before any back-off), so
another process runs it at once instead of after arq's in-progress mark runs out (40 s);
it logs ``job J handed back to the queue``. Likewise for a process it had to kill when
stopping.

Each worker says ``damiera worker: engine process ready (pid P)`` once it is connected to the
queue (the chaos benchmark measures the time from a kill to that line).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from types import FrameType
from typing import Any

from damiera.processes import how_it_ended
from damiera.web.current_job import CurrentJob, hand_back

#: Seconds a process must have run for its death to count as "not quick" (replaced at once).
STABLE = 10.0
#: Back-off after the first quick death, doubled for each further one in a row, capped.
FIRST_DELAY = 0.5
MAX_DELAY = 30.0
#: Quick deaths in a row after which a process counts as one that cannot be kept alive.
GIVE_UP_AFTER = 5
#: Seconds a stopping worker is given before it is killed.
STOP_WAIT = 30.0


def _say(text: str) -> None:
    print(f"damiera worker: {text}", file=sys.stderr, flush=True)


@dataclass
class _Slot:
    """One of the N places for a worker process."""

    number: int
    #: The job its process runs, written by that process.
    current: CurrentJob
    process: Any = None
    started: float = 0.0
    #: Quick deaths in a row, and when the next process may start.
    quick_deaths: int = 0
    start_at: float = 0.0
    pids: list[int] = field(default_factory=list)


def delay_after(quick_deaths: int) -> float:
    """Seconds to wait before replacing a process that died quickly ``quick_deaths`` times in
    a row (0: it had run long enough; replaced at once)."""
    if quick_deaths <= 0:
        return 0.0
    return float(min(MAX_DELAY, FIRST_DELAY * 2 ** (quick_deaths - 1)))


def hand_back_job(redis_url: str, slot_number: int, current: CurrentJob) -> None:
    """If the dead process of slot ``slot_number`` was running a job (``current``), hand it
    back to the queue on ``redis_url`` and say so; a failure to reach Redis is said too (the
    job then waits for arq's in-progress mark to run out)."""
    job = current.take()
    if job is None:
        return
    try:
        released = hand_back(redis_url, job)
    except Exception as exc:  # noqa: BLE001 - redis' own errors, in one line
        why = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
        _say(f"could not hand job {job} of engine process {slot_number} back to the queue "
             f"({why}); another process runs it when arq's in-progress mark runs out")
        return
    if released:
        _say(f"job {job} of engine process {slot_number} handed back to the queue")


def supervise(redis_url: str, processes: int, target: Any = None) -> int:
    """Run ``processes`` engine workers on ``redis_url`` until SIGTERM/SIGINT (status 0) or
    until none can be kept alive (status 1); see the module docstring. ``target``: the
    function each process runs, called with ``(redis_url, supervisor pid, CurrentJob)``
    (default :func:`damiera.web.computer_jobs.run_worker`)."""
    if target is None:
        from damiera.web.computer_jobs import run_worker

        target = run_worker
    # Forked from this process, which has imported the engine and arq once (and holds no
    # thread, loop or connection): a replacement is ready in a moment, not after seconds
    # of imports.
    import arq.worker  # noqa: F401

    import damiera.web.computer  # noqa: F401

    context = multiprocessing.get_context("fork")
    slots = [_Slot(n + 1, CurrentJob(context)) for n in range(processes)]
    stopping = False

    def stop(_signum: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    wake_read, wake_write = os.pipe()          # a signal wakes the wait below at once
    os.set_blocking(wake_write, False)
    old_wakeup = signal.set_wakeup_fd(wake_write)
    previous = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        while not stopping:
            now = time.monotonic()
            for slot in slots:
                if slot.process is None and now >= slot.start_at:
                    slot.current.end()
                    slot.process = context.Process(target=target,
                                                   args=(redis_url, os.getpid(), slot.current),
                                                   name=f"damiera-worker-{slot.number}")
                    slot.process.start()
                    slot.started = time.monotonic()
                    slot.pids.append(slot.process.pid)
                    if len(slot.pids) > 1:
                        _say(f"engine process {slot.number} replaced (pid {slot.process.pid})")
            alive = [s for s in slots if s.process is not None]
            waiting = [s.start_at - now for s in slots if s.process is None]
            timeout = max(0.0, min([1.0, *waiting]))
            ended = wait([wake_read, *(s.process.sentinel for s in alive)], timeout=timeout)
            if wake_read in ended:
                os.read(wake_read, 512)
            for slot in alive:
                if slot.process.sentinel not in ended:
                    continue
                slot.process.join()
                lived = time.monotonic() - slot.started
                slot.quick_deaths = slot.quick_deaths + 1 if lived < STABLE else 0
                pause = delay_after(slot.quick_deaths)
                _say(f"engine process {slot.number} (pid {slot.process.pid}) "
                     f"{how_it_ended(slot.process.exitcode)} after {lived:.1f} s; "
                     f"starting another in {pause:g} s")
                hand_back_job(redis_url, slot.number, slot.current)
                slot.process.close()
                slot.process = None
                slot.start_at = time.monotonic() + pause
            if all(s.process is None and s.quick_deaths >= GIVE_UP_AFTER for s in slots):
                _say(f"no engine process stays alive (each died within {STABLE:g} s of its "
                     f"start {GIVE_UP_AFTER} times in a row); giving up")
                return 1
        return 0
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        signal.set_wakeup_fd(old_wakeup)
        os.close(wake_read)
        os.close(wake_write)
        _stop_all([s.process for s in slots if s.process is not None])
        for slot in slots:        # a process killed at the end of STOP_WAIT, during a job
            hand_back_job(redis_url, slot.number, slot.current)


def _stop_all(children: list[Any]) -> None:
    """SIGTERM to every child (each finishes or aborts its search), SIGKILL to those still
    there after :data:`STOP_WAIT` seconds."""
    for child in children:
        if child.is_alive():
            child.terminate()
    deadline = time.monotonic() + STOP_WAIT
    for child in children:
        child.join(timeout=max(0.0, deadline - time.monotonic()))
        if child.is_alive():
            child.kill()
            child.join()
