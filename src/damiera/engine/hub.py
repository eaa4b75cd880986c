"""Hub protocol engine (Hub version 2, the protocol text that ships with Scan 3.1).

Run as ``damiera hub``; a GUI talks to it on standard input and output, one command a line
(the text forms are in :mod:`damiera.engine.hub_protocol`).

Commands: ``hub`` (answers ``id``, ``param`` lines and ``wait``); ``set-param`` (``variant``:
Scan's ``normal`` or ``international`` for International rules, Scan's ``bt`` and ``losing``
for International rules with breakthrough or the losing rule, or any other Damiera variant
id, rule options included (``russian+losing``); Scan's ``frisian`` is Frisian draughts;
Scan's ``killer`` is refused with an error saying so;
``level``: 1-3, default 3; ``book``: ``true``, the default, lets level 3 play from the
opening book in ``go think`` under a time or a clock, ``false`` switches it off; pondering,
``level infinite``, a depth or a node budget always search); ``init`` (``ready``); ``new-game`` (clears the search tables and
the position); ``pos pos=... [moves="..."]``; ``level depth=N | move-time=S | [moves=M]
time=T [inc=I] | nodes=N | infinite`` (``time``: the seconds left on the engine's game clock,
``inc`` the seconds added after each move, ``moves`` the moves to play on that time, 0 or
none for the rest of the game: the search shares the clock out itself,
:class:`~damiera.engine.Limit` ``remaining``; a bad value, e.g. ``depth=0``, ``move-time=nan`` or
``nodes=0``, answers ``error message=...`` and keeps the old settings); ``go think |
ponder | analyze``; ``ping`` (``pong``); ``quit``.

The search runs in a thread while the main loop reads the input, so that during a search:
``ping`` is answered at once with ``pong``; ``stop`` ends the search at once and the engine
answers ``done`` with its best move so far; ``ponder-hit`` turns a ``go ponder`` search into
a timed one (the time of the last ``level``, counted from the ponder-hit: a game clock's
soft target, :func:`~damiera.engine.search.allocate_time`; a depth limit simply goes on). ``quit`` and the end of input stop the search and leave. Any other command
during a search answers ``error message=...`` and changes nothing (the protocol allows only
``ping``, ``ponder-hit`` and ``stop`` then).

Search modes: ``go think`` plays at the level (a forced move at once); ``go ponder`` searches
until ``ponder-hit`` or ``stop``; ``go analyze`` searches at full strength, a single legal
move too, until the ``level`` limit or ``stop``. ``level infinite`` searches until ``stop`` (at
most :data:`~damiera.engine.search.MAX_MOVETIME`). ``level nodes=N`` is a node budget in
every mode (:class:`~damiera.engine.Limit`; pondering spends it too, then answers ``done``,
which the protocol allows): the same search whatever the machine's speed. Each search
sends ``info depth=... score=... nodes=... time=... nps=... pv="..."`` lines (score in men,
side to move's view, a win in n plies as ``100 - n/100`` as Scan writes it:
:func:`~damiera.engine.hub_protocol.score_string`; nps in millions), then ``done move=...
[ponder=...]``. Unknown commands and arguments are
ignored, as the protocol asks; bad lines, positions and moves answer ``error message="..."``.

The session searches through the public :class:`damiera.engine.Engine` (``stop`` is
:meth:`~damiera.engine.Engine.stop`, safe from the reading thread) and asks
:meth:`damiera.Game.outcome` whether the game is over (a position and its moves are read as
a record: a draw by rule is not enforced, the GUI decides it).
"""

from __future__ import annotations

import gc
import io
import math
import re
import sys
import threading
from collections.abc import Callable, Iterable
from typing import IO, TextIO

from damiera.engine.front import Analysis, Engine, Info, Limit
from damiera.engine.hub_protocol import (
    _SCAN_NAMES,
    SCAN_VARIANTS,
    HubError,
    ReadAhead,
    ascii_message,
    excerpt,
    format_line,
    hub_variant_name,
    move_string,
    parse_hub_move,
    parse_line,
    parse_position,
    quoted_excerpt,
    score_string,
)
from damiera.engine.levels import LEVELS
from damiera.engine.search import MAX_CLOCK, MAX_DEPTH, MAX_GAME_PLY, MAX_MOVETIME, allocate_time
from damiera.rules import game as _rules
from damiera.rules.game import Game
from damiera.rules.variant import VARIANTS, Variant, variant

__all__ = [
    "SCAN_VARIANTS",
    "HubError",
    "HubSession",
    "main",
    "move_string",
    "parse_hub_move",
    "parse_line",
    "parse_position",
    "run",
]

#: Largest node budget of ``level nodes=N``.
MAX_NODES = 10**12
#: Commands that change the engine's state: refused during a search (the protocol allows only
#: ping, ponder-hit and stop then; quit stops the search).
_BETWEEN_SEARCHES = {"hub", "set-param", "init", "new-game", "pos", "level", "go"}


class HubSession:
    """State of one protocol session: :meth:`handle` answers one command line (a search is
    started in a thread and answered from it); :meth:`wait` waits for that search to end and
    :meth:`close` stops it."""

    def __init__(self, out: TextIO, on_output_error: Callable[[], None] | None = None):
        self.out = out
        #: Called once, from the thread that wrote, when a write to ``out`` first fails
        #: (e.g. to wake the main loop waiting for input: :meth:`ReadAhead.wake`).
        self._on_output_error = on_output_error
        self.variant: Variant = VARIANTS["international"]
        self.variant_name = "normal"
        self.level = 3
        #: ``set-param name=book``: False plays without the opening book; True (the default)
        #: leaves it to the level (level 3 plays from the variant's book when there is one).
        self.book = True
        self.engine: Engine | None = None
        self.game: Game | None = None  # the position and the moves that led to it
        self.depth: int | None = None
        self.movetime: float | None = 2.0
        self.nodes: int | None = None
        #: The game clock of the last ``level time=``: seconds left, increment, moves to go
        #: (None: the rest of the game); None without one.
        self.clock: tuple[float, float, int | None] | None = None
        self._out_lock = threading.Lock()
        self._lock = threading.Lock()  # guards the search state below
        self._worker: threading.Thread | None = None
        self._searching = False
        self._pondering = False
        self._stop_requested = threading.Event()
        self._timer: threading.Timer | None = None
        #: The error of the first write to ``out`` that failed (None while it works).
        self.output_error: OSError | ValueError | None = None

    # -- output ------------------------------------------------------------------------------
    def send(self, line: str) -> None:
        """Write one line (from either thread) and flush it. When the output cannot be
        written (the GUI closed its end, a full disk), the first error is kept in
        :attr:`output_error`, nothing more is written and the running search is stopped:
        :func:`run` then leaves."""
        with self._out_lock:
            if self.output_error is not None:
                return
            try:
                self.out.write(line + "\n")
                self.out.flush()
            except (OSError, ValueError) as exc:  # ValueError: ``out`` was closed
                self.output_error = exc
                self._stop_requested.set()  # a search about to start stops at its first info
                engine = self.engine
                if engine is not None:
                    engine.stop()
                if self._on_output_error is not None:
                    self._on_output_error()

    def _error(self, message: str) -> None:
        # Messages of the rules (a variant's or a FEN's) may quote non-ASCII input as it came.
        self.send(format_line("error", message=ascii_message(message)))

    # -- input -------------------------------------------------------------------------------
    def handle(self, line: str | HubError) -> bool:
        """Answer one line (a :class:`HubError` from the reader is answered as an error);
        returns False after ``quit``."""
        try:
            if isinstance(line, HubError):
                raise line
            cmd, args = parse_line(line)
            return self._dispatch(cmd, args)
        except HubError as exc:
            self._error(str(exc))
            return True

    def _dispatch(self, cmd: str, args: dict[str, str]) -> bool:
        if cmd == "ping":
            self.send("pong")
        elif cmd == "stop":
            self._stop_search()
        elif cmd == "ponder-hit":
            self._ponder_hit()
        elif cmd == "quit":
            self.close()
            return False
        elif cmd in _BETWEEN_SEARCHES and self.searching:
            raise HubError(f"{excerpt(cmd)} during a search: send stop first")
        elif cmd == "hub":
            self.send('id name=Damiera version=0.1 author="Damiera engine" country=none')
            ids = " ".join([hub_variant_name(k) for k in VARIANTS] +
                           [name for name, vid in SCAN_VARIANTS.items() if vid and "+" in vid])
            self.send(f'param name=variant value={self.variant_name} type=enum values="{ids}"')
            self.send(f"param name=level value={self.level} type=int min=1 max=3")
            self.send(f"param name=book value={str(self.book).lower()} type=bool")
            self.send("wait")
        elif cmd == "set-param":
            self._set_param(args.get("name", ""), args.get("value", ""))
        elif cmd == "init":
            self.engine = None
            self.game = None
            self.send("ready")
        elif cmd == "new-game":
            self.engine = None
            self.game = None
        elif cmd == "pos":
            extra = sorted(set(args) - {"pos", "moves"})
            if extra:  # e.g. moves=32-28 19-23 unquoted: the second move would be lost
                self.game = None
                raise HubError(f"pos takes pos= and moves= only, not {excerpt(extra[0])} "
                               f'(a list of moves is quoted: moves="32-28 19-23")')
            self._pos(args.get("pos", ""), args.get("moves", ""))
        elif cmd == "level":
            self._level(args)
        elif cmd == "go":
            mode = "ponder" if "ponder" in args else "analyze" if "analyze" in args else "think"
            self._go(mode)
        return True

    def _set_param(self, name: str, value: str) -> None:
        if name == "variant":
            key = value.strip().lower()
            if key in SCAN_VARIANTS and SCAN_VARIANTS[key] is None:
                plays = ", ".join(hub_variant_name(k) for k in VARIANTS)
                raise HubError(f"variant {key} ({_SCAN_NAMES[key]}) is not supported: "
                               f"Damiera plays {plays}")
            try:
                self.variant = variant(SCAN_VARIANTS.get(key) or key)
            except ValueError as exc:
                raise HubError(str(exc)) from None
            self.variant_name = hub_variant_name(self.variant.full_id)
            self.engine = None
            self.game = None  # a position of another variant means nothing here
        elif name == "level":
            self.level = _int_arg(value.strip(), "level", min(LEVELS), max(LEVELS))
            self.engine = None
        elif name == "book":
            if value.strip().lower() not in ("true", "false"):
                raise HubError(f"book is true or false, not {excerpt(value)}")
            self.book = value.strip().lower() == "true"
            self.engine = None

    def _pos(self, text: str, moves: str) -> None:
        """Set the position (HubError for a bad one, which also forgets the old position, so
        that a later ``go`` answers an error instead of searching a position the GUI left)."""
        self.game = None
        # A record: a GUI may send a game that played on past a draw by rule.
        game = _rules.Game(self.variant, parse_position(self.variant, text), enforce_draws=False)
        for word in moves.split():
            try:
                game.play(parse_hub_move(self.variant, game.position, word))
            except _rules.GameOverError as exc:
                raise HubError(f"move {excerpt(word)}: {exc}") from None
        self.game = game

    def _level(self, args: dict[str, str]) -> None:
        """Read a ``level`` command; a bad value answers an error and keeps the old settings.

        ``depth`` must be 1 to :data:`~damiera.engine.search.MAX_DEPTH`; ``move-time``, ``time``
        and ``inc`` must be finite numbers (``move-time`` above 0, the others 0 or more);
        ``inc`` or ``moves`` without ``time`` is an error; a search never runs longer than
        :data:`~damiera.engine.search.MAX_MOVETIME` seconds. Of several settings the first of
        depth, nodes, move-time, time, infinite is used, but a bad value of any is refused."""
        if ("inc" in args or "moves" in args) and "time" not in args:
            # A clock's parts without its time (beside another setting too): not ignored.
            raise HubError("inc and moves go with a game clock's time: level time=T [inc=I] "
                           "[moves=M]")
        # Every value given is checked, the ones a higher setting overrides too; empty is bad.
        depth = _int_arg(args["depth"], "depth", 1, MAX_DEPTH) if "depth" in args else None
        nodes = _int_arg(args["nodes"], "nodes", 1, MAX_NODES) if "nodes" in args else None
        movetime = (_seconds(args["move-time"], "move-time", positive=True)
                    if "move-time" in args else None)
        clock = None
        if "time" in args:
            # moves=0 (or none) is sudden death: the search estimates the moves left.
            moves = _int_arg(args.get("moves", "0"), "moves", 0, 10_000) or None
            total = _seconds(args["time"], "time", positive=False)
            inc = _seconds(args.get("inc", "0"), "inc", positive=False)
            # A clock at 0 still gets the least think; beyond the search's ranges, the most.
            clock = (min(max(total, 0.001), MAX_CLOCK), min(inc, MAX_MOVETIME), moves)
        chosen: tuple[int | None, int | None, float | None,
                      tuple[float, float, int | None] | None]
        if depth is not None:
            chosen = (depth, None, None, None)
        elif nodes is not None:
            chosen = (None, nodes, None, None)
        elif movetime is not None:
            chosen = (None, None, min(movetime, MAX_MOVETIME), None)
        elif clock is not None:
            chosen = (None, None, None, clock)
        elif "infinite" in args:
            chosen = (None, None, None, None)
        else:
            return  # no setting this engine knows: nothing changes
        self.depth, self.nodes, self.movetime, self.clock = chosen

    # -- searching ---------------------------------------------------------------------------
    @property
    def searching(self) -> bool:
        """True from ``go`` until its ``done`` is sent."""
        with self._lock:
            return self._searching

    def _engine(self) -> Engine:
        if self.engine is None:
            self.engine = Engine(self.variant, self.level, book=None if self.book else False)
        return self.engine

    def _go(self, mode: str) -> None:
        game = self.game
        if game is None:
            raise HubError("no position: send pos first")
        outcome = game.outcome()  # the one place that decides game end
        if outcome is not None:
            raise HubError(f"the game is over: {outcome.describe(self.variant)}")
        engine = self._engine()
        with self._lock:
            self._searching = True
            self._pondering = mode == "ponder"
            self._stop_requested.clear()
        self._worker = threading.Thread(
            target=self._search, args=(engine, game.copy(), mode),
            name="hub-search", daemon=True)
        self._worker.start()

    def _search(self, engine: Engine, game: Game, mode: str) -> None:
        """The search thread: ``info`` lines, then ``done`` (or an error, never silence)."""
        v = self.variant

        def info(i: Info) -> None:
            if self._stop_requested.is_set():
                engine.stop()  # a stop that came before the search had started
            pv = " ".join(move_string(v, m.raw) for m in i.pv)
            self.send(
                f"info depth={i.depth} score={score_string(i.score)} nodes={i.nodes} "
                f"time={i.seconds:.3f} "
                f'nps={i.nps / 1e6:.3f} pv="{pv}"'
            )

        result: Analysis | None = None
        # The search turns the cyclic garbage collector off while it runs; it stays off here
        # until done is sent, so that its first pass over the search's objects (~20 ms)
        # comes after the answer, not between stop and done.
        collecting = gc.isenabled()
        gc.disable()
        try:
            depth, movetime, nodes, clock = self.depth, self.movetime, self.nodes, self.clock
            if clock is not None and mode != "ponder":  # the search shares the clock out
                limit = Limit(remaining=clock[0], increment=clock[1], moves_to_go=clock[2])
                if mode == "analyze":
                    result = engine.analyse(game, limit, on_info=info)
                else:
                    result = engine.play(game, limit, on_info=info)
            elif mode == "analyze":  # full strength, a single legal move searched too
                result = engine.analyse(
                    game, Limit(movetime or MAX_MOVETIME, depth or MAX_DEPTH, nodes),
                    on_info=info)
            elif nodes is not None:  # a node budget, pondering too
                result = engine.play(game, Limit(MAX_MOVETIME, None, nodes), on_info=info)
            elif mode == "ponder" or movetime is None and depth is None:
                # Until ponder-hit's timer or stop (or the level's depth).
                result = engine.play(game, Limit(MAX_MOVETIME, depth), on_info=info,
                                     use_book=False)
            elif movetime is None:  # a fixed depth, searched in full
                result = engine.analyse(game, Limit(MAX_MOVETIME, depth), on_info=info)
            else:
                result = engine.play(game, Limit(movetime, depth), on_info=info)
        except Exception as exc:  # noqa: BLE001 (never leave the GUI waiting without a word)
            self._error(f"search failed: {excerpt(str(exc))}")
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if result is not None and result.move is not None:
                done = f"done move={move_string(v, result.move.raw)}"
                if len(result.pv) > 1:
                    done += f" ponder={move_string(v, result.pv[1].raw)}"
                self.send(done)
            self._searching = False
            self._pondering = False
        if collecting:
            gc.enable()

    def _stop_search(self) -> None:
        """``stop``: the running search (if any) ends at its next clock check."""
        with self._lock:
            if self._searching:
                self._stop_requested.set()
                if self.engine is not None:
                    self.engine.stop()

    def _ponder_hit(self) -> None:
        """``ponder-hit``: the pondering search now has the level's time, from now on."""
        with self._lock:
            if not (self._searching and self._pondering):
                return
            self._pondering = False
            seconds = self.movetime
            if self.clock is not None:
                remaining, inc, moves = self.clock
                # pos is refused during a search, so self.game is the searched game.
                ply = min(self.game.ply, MAX_GAME_PLY) if self.game is not None else 0
                seconds = allocate_time(remaining, inc, moves, ply)[0]
            if seconds is not None:
                self._timer = threading.Timer(seconds, self._stop_search)
                self._timer.daemon = True
                self._timer.start()

    def wait(self) -> None:
        """Wait for the running search (if any) to send its ``done``."""
        worker = self._worker
        if worker is not None:
            worker.join()

    def close(self) -> None:
        """Stop the running search (if any) and wait for it."""
        self._stop_search()
        self.wait()


def _seconds(text: str, what: str, positive: bool) -> float:
    """A finite number of seconds (above 0 if ``positive``, else 0 or more); HubError if not."""
    if len(text) > _MAX_NUMBER_CHARS or _DECIMAL.fullmatch(text) is None:
        raise HubError(f"{what} must be a number of seconds, not {quoted_excerpt(text)}")
    value = float(text)
    if not math.isfinite(value) or value < 0 or (positive and value == 0):
        kind = "a positive" if positive else "a finite, non-negative"
        raise HubError(f"{what} must be {kind} number of seconds, not {quoted_excerpt(text)}")
    return value


def _int_arg(text: str, what: str, low: int, high: int) -> int:
    """A whole number from ``low`` to ``high`` (ASCII digits, an optional sign; ``low`` >= 0);
    HubError if not, saying a number over ``high`` is too large. Linear in ``len(text)``:
    digits past the bound's are never converted."""
    found = _WHOLE_NUMBER.fullmatch(text)
    if found is None:
        raise HubError(f"{what} must be a whole number, not {quoted_excerpt(text)}")
    sign, digits = found.group(1), found.group(2).lstrip("0") or "0"
    if sign == "-" and digits != "0":
        raise HubError(f"{what} must be between {low} and {high}, not {excerpt(text)}")
    if len(digits) > len(str(high)) or int(digits) > high:
        raise HubError(f"{what} is too large: at most {high}, not {excerpt(text)}")
    if int(digits) < low:
        raise HubError(f"{what} must be between {low} and {high}, not {excerpt(text)}")
    return int(digits)


_WHOLE_NUMBER = re.compile(r"([+-]?)([0-9]+)")
#: A decimal number in ASCII, as the Hub protocol writes one (``0.5``, ``.5``, ``1e-3``): not
#: Python's ``float`` syntax, which also takes ``5_0``, ``nan``, ``inf`` and other scripts'
#: digits. Longer texts are refused before they are read.
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_MAX_NUMBER_CHARS = 40


def run(lines: Iterable[str | HubError], out: TextIO,
        on_output_error: Callable[[], None] | None = None) -> None:
    """Serve the protocol: answer each line of ``lines`` on ``out`` until ``quit``, the end
    of input (the GUI has gone: a running search is stopped) or a write to ``out`` that fails
    (a closed pipe, a full disk: the engine stops, at once when the line's answer failed,
    else (an ``info`` or ``done`` of the search) when ``lines`` next ends or gives a line:
    ``on_output_error``, called from the search thread as its write fails, can end it, as
    :meth:`ReadAhead.wake` does). Raises that write's OSError (an ``out`` found closed,
    ValueError, ends quietly)."""
    session = HubSession(out, on_output_error)
    try:
        for line in lines:
            if not session.handle(line.strip() if isinstance(line, str) else line):
                break
            if session.output_error is not None:
                break
    finally:
        session.close()
    if isinstance(session.output_error, OSError):
        raise session.output_error


def main() -> int:
    """Entry point of ``damiera hub``: lines read as bytes from standard input (so that no
    input can stop the engine with a decoding error), answers on standard output. Raises
    the OSError of a write to standard output that failed (see :func:`run`)."""
    # The reading thread asks the searching one for the interpreter lock after this long.
    sys.setswitchinterval(0.001)
    # A reader of its own on the descriptor, for the life of the process (its thread stays
    # blocked on it): sys.stdin.buffer is closed at exit, which would wait for its lock.
    try:
        stream: IO[bytes] = open(sys.stdin.fileno(), "rb", closefd=False)  # noqa: SIM115
    except (AttributeError, OSError, ValueError):  # no standard input: an input at its end
        stream = io.BytesIO()
    # Read ahead by a thread, so that a search whose output failed ends the engine at once
    # rather than when the next line comes.
    lines = ReadAhead(stream)
    run(lines, sys.stdout, lines.wake)
    return 0
