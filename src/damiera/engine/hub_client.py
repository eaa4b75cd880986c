"""Hub client: any engine that speaks the Hub protocol (version 2, the protocol text that ships
with Scan 3.1), started by path as a subprocess, as an opponent or an analyser.

    with HubClient(["/opt/scan/scan", "hub"], variant("international")) as engine:
        result = engine.play(start, moves, movetime=1.0)    # HubResult: move, ponder, infos
        result = engine.analyse(start, moves, movetime=5.0)  # go analyze, stop after 5 s

The client starts the engine (in the engine's own directory, where engines look for their
data files), reads ``id``/``param`` lines until ``wait``, sets the ``variant`` parameter (the
name the engine declares: our variant id, or Scan's ``normal`` for International; an engine
that declares no variant parameter is taken to play International only), sends ``init`` and
waits for ``ready``. Each search sends ``pos`` (the position at the last irreversible move and
the reversible moves since, as the Hub GUI does, for repetitions), ``level`` and ``go``, and
reads ``info`` lines until ``done``.

Errors are :class:`HubClientError`, one line each: an engine that cannot be started, that
exits (its exit status and the last line it wrote on standard error), that sends no answer in
time (``timeout`` seconds beyond the search's own time; a search past its time is sent
``stop`` first, and given ``timeout`` more), that answers ``error message=...`` or plays an
illegal move. Lines from the engine are read bounded (see
:data:`~damiera.engine.hub_protocol.MAX_LINE_BYTES`); unknown lines are ignored.
"""

from __future__ import annotations

import collections
import os
import queue
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import IO, Self

from damiera.engine.hub_protocol import (
    SCAN_DEFAULT_VARIANT,
    HubError,
    excerpt,
    format_line,
    hub_variant_name,
    move_string,
    parse_hub_move,
    parse_line,
    position_string,
    read_lines,
)
from damiera.rules.move import Move as PublicMove
from damiera.rules.movegen import Move, apply_move
from damiera.rules.position import Position
from damiera.rules.variant import Variant

#: Seconds allowed for the handshake, and beyond its own time for a search to answer.
DEFAULT_TIMEOUT = 30.0
#: Seconds an engine is given to quit when it is closed because the program is stopping (a
#: KeyboardInterrupt or SystemExit, e.g. Ctrl-C or a SIGTERM turned into one), before it is
#: killed; an engine closed in the ordinary way is given the client's ``timeout``.
STOP_TIMEOUT = 2.0


class HubClientError(RuntimeError):
    """The engine could not be started, died, did not answer in time, or answered wrongly."""


@dataclass
class HubResult:
    """A finished search: ``move`` (legal in the searched position), ``ponder`` (the expected
    answer as the engine wrote it, or None), ``infos`` (the ``info`` lines' arguments, in
    order: ``depth``, ``score`` in men, ``pv`` ... as strings)."""

    move: Move
    ponder: str | None
    infos: list[dict[str, str]] = field(default_factory=list)

    @property
    def score(self) -> float | None:
        """The last ``info`` line's score (men, the side to move's view), if any."""
        for info in reversed(self.infos):
            if "score" in info:
                try:
                    return float(info["score"])
                except ValueError:
                    return None
        return None


class HubClient:
    """One Hub engine process for one variant. ``command``: the engine's path, or its path and
    arguments (Scan needs ``["scan", "hub"]``); ``params``: engine parameters to set before
    ``init`` (name to value); ``timeout``: see the module's text. Raises
    :class:`HubClientError` when the engine cannot be started or refuses the variant."""

    def __init__(
        self,
        command: str | Sequence[str],
        variant: Variant,
        *,
        params: dict[str, str] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ):
        self.variant = variant
        try:
            self._start(command, timeout)
            self._handshake(params or {})
        except BaseException as exc:
            self._close_if_started(exc)
            raise

    @classmethod
    def offered_variants(cls, command: str | Sequence[str], *,
                         timeout: float = DEFAULT_TIMEOUT) -> tuple[str, list[str]]:
        """Start the engine, read its ``id`` and ``param`` lines up to ``wait``, and quit:
        its name and the ids of the Damiera variants it declares (Scan's ``normal`` is
        International; an engine that declares no variant parameter plays International
        only), in the order of :data:`~damiera.rules.variant.VARIANTS`. Raises
        :class:`HubClientError` as the constructor does."""
        from damiera.rules.variant import VARIANTS

        self = cls.__new__(cls)
        try:
            self._start(command, timeout)
            self.send("hub")
            self._hello(time.monotonic() + timeout)
        except BaseException as exc:
            self._close_if_started(exc)
            raise
        self.close()
        return self.name, [v for v in VARIANTS if self._engine_name(v) is not None]

    def _start(self, command: str | Sequence[str], timeout: float) -> None:
        argv = [command] if isinstance(command, str) else list(command)
        if not argv or not argv[0]:
            raise HubClientError("no engine command given")
        self.timeout = timeout
        self.name = os.path.basename(argv[0])
        self.id: dict[str, str] = {}
        self.params: dict[str, dict[str, str]] = {}
        path = os.path.abspath(argv[0]) if os.sep in argv[0] else argv[0]
        cwd = os.path.dirname(path) if os.sep in argv[0] else None
        # Everything close() needs but the process is ready before it starts: from the
        # moment it has started, close() can end it (see _close_if_started).
        self._lines: queue.Queue[str | HubError | None] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=5)
        self._readers: list[threading.Thread] = []
        try:
            self._proc = subprocess.Popen(
                [path, *argv[1:]], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, cwd=cwd)
        except OSError as exc:
            raise HubClientError(f"cannot start engine {argv[0]}: {exc.strerror or exc}") from None
        assert self._proc.stdout is not None and self._proc.stderr is not None
        self._readers = [
            threading.Thread(target=self._read_out, args=(self._proc.stdout,), daemon=True),
            threading.Thread(target=self._read_err, args=(self._proc.stderr,), daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    def _close_if_started(self, exc: BaseException) -> None:
        """After ``exc`` ended a start (the constructor's, :meth:`offered_variants`'): the
        engine's process closed (:meth:`close_after`) if it had started. Whatever came after
        its start was recorded, a SIGTERM turned into SystemExit included, leaves no engine
        running. (One that lands inside ``subprocess.Popen`` itself, after the fork and
        before it returns, is not covered: the process is not known yet.)"""
        if "_proc" in self.__dict__:
            self.close_after(exc)

    # -- plumbing ----------------------------------------------------------------------------
    def _read_out(self, stream: IO[bytes]) -> None:
        for line in read_lines(stream):
            self._lines.put(line)
        self._lines.put(None)

    def _read_err(self, stream: IO[bytes]) -> None:
        for line in read_lines(stream):
            if isinstance(line, str) and line.strip():
                self._stderr.append(line.strip())

    def send(self, line: str) -> None:
        """Write one line to the engine; HubClientError if it has gone."""
        assert self._proc.stdin is not None
        try:
            self._proc.stdin.write(line.encode("utf-8") + b"\n")
            self._proc.stdin.flush()
        except (BrokenPipeError, ValueError, OSError):
            raise self._dead() from None

    def _dead(self) -> HubClientError:
        try:
            code: int | None = self._proc.wait(5)
        except subprocess.TimeoutExpired:
            code = None
        self._readers[1].join(1.0)  # its last words on standard error
        last = f"; it said: {excerpt(self._stderr[-1])}" if self._stderr else ""
        status = f" (exit status {code})" if code is not None else ""
        return HubClientError(f"engine {self.name} has exited{status}{last}")

    def _next(self, deadline: float, waiting_for: str) -> tuple[str, dict[str, str]]:
        """The next line the engine sends, parsed; HubClientError at the deadline or its end.
        Lines that cannot be read (too long, not UTF-8, bad quotes) are skipped."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise HubClientError(f"engine {self.name} sent no {waiting_for} in time")
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise self._dead()
            if isinstance(line, HubError):
                continue
            try:
                return parse_line(line)
            except HubError:
                continue

    def _handshake(self, params: dict[str, str]) -> None:
        deadline = time.monotonic() + self.timeout
        self.send("hub")
        self._hello(deadline)
        wanted = dict(params)
        wanted.setdefault("variant", self._variant_name())
        for name, value in wanted.items():
            declared = self.params.get(name)
            if declared is not None and declared.get("value") == value:
                continue  # as the Hub GUI does: only values that differ are set
            self.send(format_line("set-param", name=name, value=value))
        self.send("init")
        while True:
            cmd, args = self._next(deadline, "ready (after init)")
            if cmd == "ready":
                return
            if cmd == "error":
                raise HubClientError(f"engine {self.name}: {excerpt(args.get('message', ''))}")

    def _hello(self, deadline: float) -> None:
        """Read ``id`` and ``param`` lines up to ``wait`` (after ``hub``)."""
        while True:
            cmd, args = self._next(deadline, "wait (after hub)")
            if cmd == "id":
                self.id = args
                self.name = args.get("name") or self.name
            elif cmd == "param" and "name" in args:
                self.params[args["name"]] = args
            elif cmd == "wait":
                return

    def _engine_name(self, variant_id: str) -> str | None:
        """The engine's name for a Damiera variant (its id, or Scan's name for it), from the
        variants it declared; an engine that declares none plays International rules
        (Scan's ``normal``). None when it does not play that variant."""
        declared = self.params.get("variant")
        names = (declared or {}).get("values", "").split()
        if variant_id in names:
            return variant_id
        scan_name = hub_variant_name(variant_id)
        if scan_name in names or (declared is None and scan_name == SCAN_DEFAULT_VARIANT):
            return scan_name
        return None

    def _variant_name(self) -> str:
        """The engine's name for our variant; HubClientError if it declares none."""
        name = self._engine_name(self.variant.full_id)
        if name is not None:
            return name
        names = (self.params.get("variant") or {}).get("values", "").split()
        offered = ", ".join(names) if names else "international (normal) only"
        raise HubClientError(
            f"engine {self.name} does not play {self.variant.name}: it offers {offered}")

    # -- searching ---------------------------------------------------------------------------
    def _pos_line(self, start: Position,
                  moves: Sequence[Move | PublicMove]) -> tuple[str, Position]:
        """``pos`` from the last irreversible move on (as the Hub GUI sends it), and the
        position reached after all ``moves`` (a game's :class:`~damiera.rules.move.Move`
        values or the rules core's records)."""
        pos = start
        base = start
        since: list[Move] = []
        for m in (played.raw if isinstance(played, PublicMove) else played for played in moves):
            pos = apply_move(pos, m)
            if m.captures or not m.by_king:
                base, since = pos, []
            else:
                since.append(m)
        args = {"pos": position_string(self.variant, base)}
        if since:
            args["moves"] = " ".join(move_string(self.variant, m) for m in since)
        return format_line("pos", **args), pos

    def play(self, start: Position, moves: Sequence[Move | PublicMove] = (), *, movetime: float | None = None,
             depth: int | None = None, clock: tuple[float, float] | None = None) -> HubResult:
        """The engine's move in the position after ``moves`` from ``start`` (``go think``),
        with ``movetime`` seconds (default 1), a fixed ``depth`` (plies) or a game ``clock``:
        ``(seconds left, increment)``, sent as ``level time=T inc=I`` (the engine shares it
        out; it is sent ``stop`` once the time left has passed)."""
        if depth is not None:
            level = format_line("level", depth=str(depth))
            budget = None
        elif clock is not None:
            budget = clock[0]
            level = format_line("level", time=f"{clock[0]:.3f}", inc=f"{clock[1]:.3f}")
        else:
            budget = 1.0 if movetime is None else movetime
            level = format_line("level", move_time=f"{budget:.3f}")
        return self._search(start, moves, level, "think", budget)

    def analyse(self, start: Position, moves: Sequence[Move | PublicMove] = (), *,
                movetime: float) -> HubResult:
        """``go analyze`` for ``movetime`` seconds, then ``stop`` (an engine may answer
        sooner); the result carries the ``info`` lines."""
        return self._search(start, moves, "level infinite", "analyze", movetime)

    def _search(self, start: Position, moves: Sequence[Move | PublicMove], level: str, mode: str,
                budget: float | None) -> HubResult:
        pos_line, pos = self._pos_line(start, moves)
        self.send(pos_line)
        self.send(level)
        self.send(f"go {mode}")
        infos: list[dict[str, str]] = []
        # A fixed depth has no time of its own: the timeout bounds it, then stop is sent and
        # the engine has the timeout again to answer.
        stop_at = time.monotonic() + (budget if budget is not None else self.timeout)
        deadline = stop_at + self.timeout
        stopped = False
        while True:
            try:
                cmd, args = self._next(stop_at if not stopped else deadline, "done")
            except HubClientError:
                if stopped or self._proc.poll() is not None:
                    raise
                self.send("stop")  # past its time: ask for the move now
                stopped = True
                continue
            if cmd == "info":
                infos.append(args)
            elif cmd == "error":
                raise HubClientError(f"engine {self.name}: {excerpt(args.get('message', ''))}")
            elif cmd == "done":
                text = args.get("move", "")
                try:
                    move = parse_hub_move(self.variant, pos, text)
                except HubError as exc:
                    raise HubClientError(f"engine {self.name} played {exc}") from None
                return HubResult(move, args.get("ponder") or None, infos)

    def cpu_seconds(self) -> float | None:
        """CPU seconds (user and system) the engine's process has used so far, read from
        ``/proc/PID/stat`` (Linux; in clock ticks, 10 ms on most systems); None where it
        cannot be read."""
        try:
            with open(f"/proc/{self._proc.pid}/stat", "rb") as fh:
                data = fh.read(4096)
            # Fields after the command name, which is in parentheses and may hold spaces:
            # the 14th and 15th of the line (utime, stime) are the 12th and 13th here.
            fields = data[data.rfind(b")") + 2:].split()
            ticks = int(fields[11]) + int(fields[12])
        except (OSError, ValueError, IndexError):
            return None
        return ticks / os.sysconf("SC_CLK_TCK")

    def ping(self) -> None:
        """``ping``, then wait for ``pong`` (HubClientError if none comes in time)."""
        self.send("ping")
        deadline = time.monotonic() + self.timeout
        while self._next(deadline, "pong")[0] != "pong":
            pass

    # -- ending ------------------------------------------------------------------------------
    def close(self, timeout: float | None = None) -> None:
        """``quit``, then wait for the engine to exit: killed after ``timeout`` seconds
        (default: the client's ``timeout``; :data:`STOP_TIMEOUT` is meant for a program that
        is stopping), or at once if it is not reading, or if the wait is interrupted (a
        Ctrl-C that stops a match while an engine is slow to quit leaves no engine
        running)."""
        if self._proc.poll() is None:
            try:
                self.send("quit")
                assert self._proc.stdin is not None
                self._proc.stdin.close()
            except (HubClientError, OSError):
                pass
            try:
                self._proc.wait(self.timeout if timeout is None else timeout)
            except subprocess.TimeoutExpired:
                pass
            finally:
                if self._proc.poll() is None:
                    self._proc.kill()
                    self._proc.wait()
        for reader in self._readers:
            if reader.ident is not None:  # started
                reader.join(1.0)
        for stream in (self._proc.stdout, self._proc.stderr):
            if stream is not None and not any(r.is_alive() for r in self._readers):
                stream.close()

    quit = close

    def close_after(self, exc: BaseException | None) -> None:
        """:meth:`close` the engine whose use ``exc`` ended (None: it ended normally): given
        :data:`STOP_TIMEOUT` to quit when the program is stopping (``exc`` a
        KeyboardInterrupt or SystemExit, not an Exception), else the client's ``timeout``."""
        self.close(None if exc is None or isinstance(exc, Exception) else STOP_TIMEOUT)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close_after(exc)
