"""Playing a match's games on worker processes (``damiera match --jobs N``): the game sent
to a worker (:class:`_Task`), the worker's life (:func:`_serve_games`: its signals, its
warnings sent back with its next game) and the match's side (:func:`_on_workers`: one pipe a
worker, the games handed out as workers come free, every worker ended when the match ends or
stops). :mod:`~damiera.engine.match` plays and scores the match.
"""

from __future__ import annotations

import multiprocessing
import pickle
import signal
import threading
import time
import warnings
from collections.abc import Iterator, Sequence
from multiprocessing import connection, resource_tracker
from multiprocessing.process import BaseProcess
from typing import NamedTuple

from damiera.engine.match_game import GameRecord, play_game
from damiera.processes import how_it_ended, signals_to_take
from damiera.rules.position import parse_fen

#: A warning raised in a match worker, as sent back to the match: its message's text, its
#: category, the file and line that raised it.
_Warned = tuple[str, type[Warning], str, int]


class _Task(NamedTuple):
    """One game of a match, as sent to a worker process."""

    variant: str  # the canonical id: the rule set and its options
    fen: str
    white: str
    black: str
    movetime: float | None
    seed: int
    number: int
    cpu_time: bool
    clock: float | None
    increment: float
    books: tuple[bool | None, bool | None] = (None, None)


def _game_job(task: _Task) -> GameRecord:
    from damiera.rules.variant import variant as get_variant

    v = get_variant(task.variant)
    return play_game(v, parse_fen(v, task.fen), task.white, task.black, task.movetime,
                     task.seed, task.number, cpu_time=task.cpu_time, clock=task.clock,
                     increment=task.increment, books=task.books)


def _init_worker() -> None:
    """A match worker leaves Ctrl-C to the match, which ends every worker at once with
    SIGTERM (:func:`_end_workers`). Between games SIGTERM keeps its default action: the
    kernel ends the worker at once, wherever it waits (a Python handler runs only when the
    interpreter next looks; a signal that came just before the worker blocked waiting for
    its next game was left waiting for ever, and the match with it). During a game
    :func:`_indexed_game_job` turns it into SystemExit, once (a second is ignored while it
    cleans up), so that the game under way closes its Hub engines, and kills one that does
    not quit in time, before the worker exits. The worker's warnings (those its filters let
    through) are kept by :func:`_keep_warning` and sent back with its next game, for the
    match's process to show (:func:`_show_once`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Started with SIGINT blocked (_hold_sigint); one that came meanwhile is dropped now.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    # A match started with SIGHUP ignored (nohup) keeps it ignored, here as in the match.
    global _stoppers
    _stoppers = tuple(signal.Signals(s) for s in signals_to_take(_GAME_STOPPERS))
    for sig in _stoppers:
        signal.signal(sig, signal.SIG_DFL)
    warnings.showwarning = _keep_warning


def _hold_sigint() -> set[int] | None:
    """Block SIGINT in this thread (the processes it starts inherit that) and return the
    old mask to restore; None (nothing done) outside the main thread, whose mask is left
    as it is. multiprocessing's resource tracker is started first: starting it unblocks
    SIGINT (after blocking it for the tracker), which would undo this for the workers."""
    if threading.current_thread() is not threading.main_thread():
        return None
    resource_tracker.ensure_running()
    return set(signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}))


def _release_sigint(held: set[int] | None) -> None:
    """Restore the mask :func:`_hold_sigint` returned: a SIGINT that came meanwhile lands."""
    if held is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


#: In a match worker: the warnings raised since its last game was sent back.
_worker_warned: list[_Warned] = []


def _keep_warning(message: Warning | str, category: type[Warning], filename: str,
                  lineno: int, file: object = None, line: str | None = None) -> None:
    """A match worker's :data:`warnings.showwarning`: the warning is kept for the match's
    process, not shown (each worker would show it: twice with ``jobs=2``). A category that
    cannot be pickled (defined inside a function) is sent as UserWarning."""
    try:
        pickle.dumps(category)
    except (pickle.PicklingError, AttributeError, TypeError):
        category = UserWarning
    _worker_warned.append((str(message), category, filename, lineno))


def _show_once(warned: Sequence[_Warned], shown: set[tuple[str, type[Warning]]]) -> None:
    """Show the workers' warnings ``warned`` with this process's :data:`warnings.showwarning`
    (``damiera``'s one line in the command line), each text and category once: ``shown``
    holds those shown so far in the match."""
    for text, category, filename, lineno in warned:
        if (text, category) not in shown:
            shown.add((text, category))
            warnings.showwarning(text, category, filename, lineno)


#: The signals that end a match worker's game by SystemExit (the match's SIGTERM, and those
#: a closed terminal or ``kill`` sends the whole process group); between games, their default.
_GAME_STOPPERS = (signal.SIGTERM, signal.SIGHUP)
#: In a match worker: those of :data:`_GAME_STOPPERS` it takes (SIGHUP not where it was ignored
#: when the worker started, under nohup: :func:`_init_worker`).
_stoppers: tuple[signal.Signals, ...] = _GAME_STOPPERS


def _exit_on_sigterm(signum: int, frame: object) -> None:
    """SIGTERM (or SIGHUP) in a match worker's game: SystemExit unwinds the game (its Hub
    engines are closed); another such signal meanwhile is ignored (by a handler that does
    nothing, not SIG_IGN: one that had already arrived would find SIG_IGN and Python would
    print "Signal 15 ignored due to race condition")."""
    for sig in _stoppers:
        signal.signal(sig, _ignore_signal)
    raise SystemExit(128 + signum)


def _ignore_signal(signum: int, frame: object) -> None:
    """A game's second stopping signal, while the first one's SystemExit cleans up."""


def _indexed_game_job(item: tuple[int, _Task]) -> tuple[int, GameRecord, list[_Warned]]:
    """A worker's game: its index, its record, and the worker's warnings since its last.
    SIGTERM ends the game by :func:`_exit_on_sigterm` and, once it is over, the worker by
    its default action again (signal.signal first runs the handler of a SIGTERM that came
    meanwhile, so none is lost between the two)."""
    for sig in _stoppers:
        signal.signal(sig, _exit_on_sigterm)
    try:
        record = _game_job(item[1])
    finally:
        for sig in _stoppers:
            signal.signal(sig, signal.SIG_DFL)
    warned = _worker_warned[:]
    _worker_warned.clear()
    return item[0], record, warned


class MatchWorkerError(RuntimeError):
    """A match worker process ended with a game handed to it unfinished (killed, or out of
    memory): the match stops; the games finished before are kept (``--pdn``)."""


#: Seconds the match's workers are given to leave when it ends or stops (a game under way
#: closes its Hub engines first, each given hub_client.STOP_TIMEOUT), before they are killed.
_WORKER_GRACE = 30.0


def _serve_games(conn: connection.Connection) -> None:
    """A match worker's life (a spawned process): the games sent on ``conn``, one at a
    time, each answered with ("done", (index, record, warnings)) or ("failed", the exception
    it raised), until None or the end of the pipe."""
    _init_worker()
    while True:
        try:
            item = conn.recv()
        except (EOFError, OSError):  # the match has gone (ended, or killed: a reset pipe)
            return
        if item is None:
            return
        try:
            reply: tuple[str, object] = ("done", _indexed_game_job(item))
        except Exception as exc:  # noqa: BLE001 (any game's failure goes to the match, raised there)
            reply = ("failed", exc)
        try:
            try:
                conn.send(reply)
            except (pickle.PicklingError, AttributeError, TypeError):  # a failure that won't
                conn.send(("failed", RuntimeError(f"{type(reply[1]).__name__}: {reply[1]}")))
        except OSError:  # the match has gone (killed) while this game went on
            return


def _on_workers(tasks: Sequence[_Task], jobs: int,
                ) -> Iterator[tuple[int, GameRecord, list[_Warned]]]:
    """The tasks' games on ``jobs`` worker processes, as each ends: (index, record, the
    worker's warnings). Each worker has its own pipe and no lock is shared, so a worker
    that dies (a signal to the process group, the kernel's OOM killer) stops no other and
    the match learns of it (:class:`MatchWorkerError`) instead of waiting for ever. Leaving
    (the last game, Ctrl-C, a failed game or callback) ends every worker: SIGTERM ends a
    game under way (its Hub engines closed, :func:`_indexed_game_job`), then after
    :data:`_WORKER_GRACE` seconds SIGKILL. The workers are spawned, not forked: a fork copies
    whatever lock another thread of this process held at that instant, and a worker then
    waits on it for ever."""
    spawn = multiprocessing.get_context("spawn")
    queued = iter(enumerate(tasks))
    workers: list[tuple[BaseProcess, connection.Connection]] = []
    playing: dict[connection.Connection, tuple[BaseProcess, int]] = {}
    finished = False

    def give(process: BaseProcess, conn: connection.Connection) -> None:
        item = next(queued, None)
        try:
            conn.send(item)
        except OSError:  # the worker has died: the end of its pipe tells the match below
            pass
        if item is not None:
            playing[conn] = (process, item[0])

    # The workers start with SIGINT blocked (a blocked signal stays blocked across fork
    # and exec) until _init_worker ignores it: Ctrl-C to the process group while they
    # import would end them with a KeyboardInterrupt traceback each. This process holds a
    # Ctrl-C of that moment back, not lost: it lands once the workers are there to stop.
    held = _hold_sigint()
    try:
        try:
            for _ in range(min(jobs, len(tasks))):
                ours, theirs = spawn.Pipe()
                worker = spawn.Process(target=_serve_games, args=(theirs,), daemon=True)
                workers.append((worker, ours))
                worker.start()
                theirs.close()  # the worker's end: ours reads EOF once the worker is gone
        finally:
            _release_sigint(held)
        for process, conn in workers:
            give(process, conn)
        while playing:
            for ready in connection.wait(list(playing)):
                assert isinstance(ready, connection.Connection)
                process, i = playing.pop(ready)
                try:
                    kind, payload = ready.recv()
                except (EOFError, OSError):
                    process.join(_WORKER_GRACE)
                    raise MatchWorkerError(
                        f"a match worker ended with game {i + 1} unfinished "
                        f"({how_it_ended(process.exitcode)})") from None
                if kind == "failed":
                    raise payload
                yield payload
                give(process, ready)
        finished = True
    finally:
        _end_workers(workers, finished)


def _end_workers(workers: Sequence[tuple[BaseProcess, connection.Connection]],
                 finished: bool) -> None:
    """End the match's workers: once the last game is in (``finished``) they are leaving on
    their own; otherwise SIGTERM ends their games. Any still there after
    :data:`_WORKER_GRACE` seconds (or when the wait is interrupted) is killed."""
    if not finished:
        for process, _conn in workers:
            if process.is_alive():
                process.terminate()
    deadline = time.monotonic() + _WORKER_GRACE
    try:
        for process, _conn in workers:
            if process.ident is not None:  # started
                process.join(max(0.0, deadline - time.monotonic()))
    finally:  # also when the wait is cut short: none is left for the interpreter's exit to join
        for process, conn in workers:
            if process.ident is not None and process.is_alive():
                process.kill()
                process.join()
            conn.close()
