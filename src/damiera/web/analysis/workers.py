"""Analysis and review searches in worker processes that can be ended at once.

A search never runs in the server's process: each job goes to a worker process (spawned, kept
idle for the next job) over a pipe, and its messages come back through the event loop (a
reader on the pipe). Ending a job early (the client went away, the position changed, a newer
analysis from the same client) kills its worker: the search stops at once, whatever it was
doing, and a fresh worker is started for the next job.

Bounds: at most ``analysis_slots`` analyses and ``review_slots`` reviews run at once, shared
fairly among client addresses (:mod:`damiera.web.fair_share`: a job takes a ticket of its
kind first, :meth:`WorkerPool.ticket`, refused with 429 past ``analysis_per_client`` or
``review_per_client`` for one address and with 503 past ``analysis_waiting`` or
``review_waiting`` waiting in all; later jobs wait their turn), each analysis stops after
``analysis_movetime`` seconds, each review searches ``review_movetime`` seconds a position.

Jobs (dicts, so that they cross the pipe as plain data): ``{"kind": "analyse", "variant",
"optional_capture", "fen", "multipv", "movetime"}`` sends ``{"kind": "lines", "depth",
"nodes", "nps", "lines": [{"rank", "score", "pv": [move text]}]}`` after every iteration;
``{"kind": "review", "variant", "optional_capture", "fen", "moves": [move text],
"movetime"}`` sends ``{"kind": "progress", "done", "total"}`` after every position and
``{"kind": "review", "moves": [...], "pdn"}`` at the end (see :func:`review_json`). Every job
ends with ``{"kind": "done"}`` or ``{"kind": "error", "message"}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
from collections.abc import AsyncGenerator, AsyncIterator
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from damiera.web.fair_share import FairShare, Ticket

Message = dict[str, Any]


# -- in the worker process -------------------------------------------------------------------
def review_json(job: Message, send: Any) -> Message:
    """Run a review job (in the worker) and return its result message."""
    from damiera.engine.review import annotated_pdn, review_game
    from damiera.rules.movegen import apply_move
    from damiera.rules.notation import move_text, parse_move
    from damiera.rules.position import parse_fen
    from damiera.rules.variant import variant

    v = variant(job["variant"], optional_capture=job["optional_capture"])
    start = parse_fen(v, job["fen"])
    pos = start
    moves = []
    for text in job["moves"]:
        m = parse_move(v, pos, text)
        moves.append(m)
        pos = apply_move(pos, m)
    reviews = review_game(
        v, moves, start, movetime=job["movetime"],
        on_progress=lambda done, total: send({"kind": "progress", "done": done, "total": total}),
    )
    tags = {k: str(val) for k, val in (job.get("tags") or {}).items()}
    pdn = annotated_pdn(v, moves, reviews, start, tags, job.get("result") or "*")
    return {
        "kind": "review",
        "moves": [
            {
                "ply": r.ply,
                "move": move_text(v, r.move),
                "mover": r.mover.word,
                "before": r.before,
                "after": r.after,
                "best": move_text(v, r.best) if r.best is not None else None,
                "best_pv": [move_text(v, m) for m in r.best_pv],
                "loss": r.loss,
                "judgement": r.judgement,
                "nag": r.nag,
            }
            for r in reviews
        ],
        "pdn": pdn,
    }


def _analyse(job: Message, send: Any) -> None:
    from damiera.engine.analysis import Line, analyse
    from damiera.engine.search import MATE, MATE_BOUND
    from damiera.rules.notation import move_text
    from damiera.rules.position import parse_fen
    from damiera.rules.variant import variant

    v = variant(job["variant"], optional_capture=job["optional_capture"])
    pos = parse_fen(v, job["fen"])

    def lines(ls: list[Line]) -> None:
        first = ls[0]
        send({
            "kind": "lines",
            "depth": first.depth,
            "nodes": first.nodes,
            "nps": first.nps,
            "lines": [
                {
                    "rank": ln.rank,
                    "score": ln.score,
                    "win_in": (MATE - ln.score) if ln.score > MATE_BOUND else None,
                    "loss_in": (MATE + ln.score) if ln.score < -MATE_BOUND else None,
                    "pv": [move_text(v, m) for m in ln.pv],
                }
                for ln in ls
            ],
        })

    analyse(v, pos, multipv=job["multipv"], movetime=job["movetime"], on_lines=lines)


def worker_main(conn: Connection) -> None:
    """A worker process: run the jobs received on ``conn`` one after the other."""
    def send(msg: Message) -> None:
        conn.send(msg)

    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job.get("kind") == "warm":  # load the engine now; no answer
            import damiera.engine.review  # noqa: F401

            continue
        try:
            if job["kind"] == "analyse":
                _analyse(job, send)
            elif job["kind"] == "review":
                send(review_json(job, send))
            else:
                raise ValueError(f"unknown job {job['kind']!r}")
            send({"kind": "done"})
        except Exception as exc:  # noqa: BLE001 - reported to the server in one line
            send({"kind": "error", "message": str(exc)[:300] or type(exc).__name__})


# -- in the server -----------------------------------------------------------------------------
class _Worker:
    def __init__(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.proc: BaseProcess = ctx.Process(target=worker_main, args=(child,), daemon=True)
        self.proc.start()
        child.close()

    def kill(self) -> None:
        self.proc.kill()
        self.proc.join(timeout=5)
        self.conn.close()


class WorkerPool:
    """Runs analysis and review jobs in worker processes (see the module docstring)."""

    def __init__(self, analysis_slots: int = 2, review_slots: int = 1,
                 analysis_movetime: float = 30.0, review_movetime: float = 0.3,
                 analysis_per_client: int = 2, analysis_waiting: int = 16,
                 review_per_client: int = 4, review_waiting: int = 64):
        self.analysis_movetime = analysis_movetime
        self.review_movetime = review_movetime
        self._slots = {"analyse": analysis_slots, "review": review_slots}
        self.shares = {
            "analyse": FairShare(analysis_slots, analysis_per_client, analysis_waiting,
                                 "analyses"),
            "review": FairShare(review_slots, review_per_client, review_waiting, "reviews"),
        }
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self.started = 0  # worker processes started (for tests: jobs reuse idle workers)
        self.closed = False

    def ticket(self, kind: str, client: str) -> Ticket:
        """A place for a job of ``kind`` (``analyse`` or ``review``) of the client at address
        ``client``, to give to :meth:`run`; raises
        :class:`~damiera.web.limits.LimitExceeded` (429 or 503) as the module docstring
        says."""
        return self.shares[kind].ticket(client)

    def _take(self) -> _Worker:
        while self._idle:
            w = self._idle.pop()
            if w.proc.is_alive():
                return w
            w.kill()
        self.started += 1
        return _Worker()

    async def run(self, job: Message, stop: asyncio.Event | None = None,
                  ticket: Ticket | None = None) -> AsyncIterator[Message]:
        """Run ``job`` in a worker and yield its messages up to ``done`` or ``error`` (the
        last one yielded), once ``ticket`` (from :meth:`ticket`; None: one of a local
        client's) has a slot; the ticket is released at the end. Closing the iterator early,
        or ``stop`` being set, kills the worker (or leaves the queue: nothing is yielded)."""
        if ticket is None:
            ticket = self.ticket(job["kind"], "local")
        try:
            if not await ticket.acquire(stop):
                return
            if self.closed:   # a job let in after close() would start a worker nobody ends
                yield {"kind": "error", "message": "the site is shutting down"}
                return
            async with contextlib.aclosing(self._run(job, stop)) as messages:
                async for msg in messages:   # closed early: the worker is killed now
                    yield msg
        finally:
            ticket.release()

    async def _run(self, job: Message,
                   stop: asyncio.Event | None) -> AsyncGenerator[Message, None]:
        loop = asyncio.get_running_loop()
        w = self._take()
        self._busy.add(w)
        queue: asyncio.Queue[Message] = asyncio.Queue()
        fd = w.conn.fileno()

        def readable() -> None:
            try:
                while w.conn.poll():
                    queue.put_nowait(w.conn.recv())
            except (EOFError, OSError):
                loop.remove_reader(fd)
                queue.put_nowait({"kind": "error", "message": "the search stopped"})

        finished = False
        loop.add_reader(fd, readable)
        stopper = asyncio.ensure_future(stop.wait()) if stop is not None else None
        if stopper is not None:
            stopper.add_done_callback(lambda _f: queue.put_nowait({"kind": "stopped"}))
        try:
            w.conn.send(job)
            while True:
                msg = await queue.get()
                if msg["kind"] == "stopped" or (stop is not None and stop.is_set()):
                    return  # nothing more once stopped, even messages already queued
                yield msg
                if msg["kind"] in ("done", "error"):
                    finished = msg["kind"] == "done"
                    return
        finally:
            if stopper is not None:
                stopper.cancel()
            loop.remove_reader(fd)
            self._busy.discard(w)
            if finished and len(self._idle) < sum(self._slots.values()):
                self._idle.append(w)
            else:
                w.kill()

    def open(self) -> None:
        """Take jobs (again, after :meth:`close`): the site's start-up calls it."""
        self.closed = False

    def warm(self) -> None:
        """Start one worker now, so that the first analysis does not wait for the imports."""
        if not self._idle:
            self.started += 1
            w = _Worker()
            w.conn.send({"kind": "warm"})
            self._idle.append(w)

    def close(self) -> None:
        """End every worker (jobs under way are abandoned) and start no more."""
        self.closed = True
        for w in list(self._idle) + list(self._busy):
            w.kill()
        self._idle.clear()
        self._busy.clear()
