"""Analysis and review searches in worker processes that can be ended at once.

A search never runs in the server's process: each job goes to a worker process (spawned, kept
idle for the next job) over a pipe, and its messages come back through the event loop (a
reader on the pipe). Ending a job early (the client went away, the position changed, a newer
analysis from the same client) kills its worker: the search stops at once, whatever it was
doing, and a fresh worker is started for the next job.

Bounds: at most ``analysis_slots`` analyses and ``review_slots`` reviews run at once (later
jobs wait their turn), each analysis stops after ``analysis_movetime`` seconds, each review
searches ``review_movetime`` seconds a position.

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
import multiprocessing
from collections.abc import AsyncIterator
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

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
                 analysis_movetime: float = 30.0, review_movetime: float = 0.3):
        self.analysis_movetime = analysis_movetime
        self.review_movetime = review_movetime
        self._slots = {"analyse": analysis_slots, "review": review_slots}
        self._sems: dict[str, asyncio.Semaphore] = {}
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self.started = 0  # worker processes started (for tests: jobs reuse idle workers)

    def _sem(self, kind: str) -> asyncio.Semaphore:
        if kind not in self._sems:
            self._sems[kind] = asyncio.Semaphore(self._slots[kind])
        return self._sems[kind]

    def _take(self) -> _Worker:
        while self._idle:
            w = self._idle.pop()
            if w.proc.is_alive():
                return w
            w.kill()
        self.started += 1
        return _Worker()

    async def run(self, job: Message, stop: asyncio.Event | None = None) -> AsyncIterator[Message]:
        """Run ``job`` in a worker and yield its messages up to ``done`` or ``error`` (the
        last one yielded). Closing the iterator early, or ``stop`` being set, kills the
        worker."""
        async with self._sem(job["kind"]):
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

    def warm(self) -> None:
        """Start one worker now, so that the first analysis does not wait for the imports."""
        if not self._idle:
            self.started += 1
            w = _Worker()
            w.conn.send({"kind": "warm"})
            self._idle.append(w)

    def close(self) -> None:
        """End every worker (jobs under way are abandoned)."""
        for w in list(self._idle) + list(self._busy):
            w.kill()
        self._idle.clear()
        self._busy.clear()
