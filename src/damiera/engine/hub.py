"""Hub protocol front end (Hub version 2, as used by Scan 3 and the Hub GUI).

Run as ``damiera hub``; a GUI talks to it on standard input and output, one command a line:
``<command> <arg>=<value> ...`` (values with spaces in double quotes).

Supported: ``hub`` (answers ``id``, ``param`` lines and ``wait``), ``set-param`` (parameters
``variant``: any Damiera variant id, default ``international``; ``level``: 1-3, default 3),
``init`` (``ready``), ``new-game`` (clears the search tables and the position: a ``pos``
follows), ``pos pos=... [moves="..."]``,
``level depth=N | move-time=S | [moves=M] time=T [inc=I] | infinite`` (a bad value, e.g.
``depth=0`` or ``move-time=nan``, answers ``error message=...`` and keeps the old settings),
``go think | ponder | analyze`` (``info ...`` lines, then ``done move=... [ponder=...]``),
``ping`` (``pong``), ``quit``. Unknown commands and arguments are ignored, as the protocol
asks; a bad position or move answers ``error message="..."``.

Positions and moves use the protocol's numeric form on every board: the side to move (``W``
or ``B``) then one character per square in numeric order (``w``/``b`` man, ``W``/``B`` king,
``e`` empty); squares are numbered 1-50 (10x10) or 1-32 (8x8) as the variant numbers them, or,
for variants written algebraically, from the top left like International (b8 = 1, a1 = 29).
A move is ``32-28``, or ``from x to x captured x captured ...`` (captured squares in any order).

Simplification: the search runs in the foreground, so ``stop``, ``ping`` and ``ponder-hit``
sent during a search are read when it ends; ``level infinite`` and pondering search for
:data:`INFINITE_SECONDS` at most.
"""

from __future__ import annotations

import math
import shlex
import sys
from collections.abc import Iterable
from typing import TextIO

from damiera.engine.levels import Player, level
from damiera.engine.search import MATE_BOUND, MAX_DEPTH, MAX_MOVETIME, Info
from damiera.rules.geometry import Geometry, geometry
from damiera.rules.movegen import Move, apply_move, generate
from damiera.rules.position import FenError, Position, check_position
from damiera.rules.variant import VARIANTS, Color, Variant, variant

#: Longest search for ``level infinite`` and pondering (seconds).
INFINITE_SECONDS = 30.0
#: Moves assumed left in the game when the GUI gives a time without a move count.
DEFAULT_MOVES_TO_GO = 30


class HubError(ValueError):
    """A position or move the engine cannot read (answered as ``error message=...``)."""


def parse_line(line: str) -> tuple[str, dict[str, str]]:
    """``("cmd", {arg: value})`` from a protocol line; flags get the value ``""``.
    Raises HubError for unbalanced quotes."""
    try:
        words = shlex.split(line)
    except ValueError as exc:
        raise HubError(f"cannot read the line: {exc}") from None
    if not words:
        return "", {}
    args: dict[str, str] = {}
    for word in words[1:]:
        key, _, value = word.partition("=")
        args[key] = value
    return words[0], args


def _numbered(geo: Geometry) -> list[int]:
    """Bit indices of the squares in numeric order (square 1 first)."""
    return sorted(geo.squares, key=geo.number)


def parse_position(v: Variant, text: str) -> Position:
    """Read the protocol's position string; HubError if malformed or impossible."""
    geo = geometry(v)
    order = _numbered(geo)
    if len(text) != len(order) + 1 or text[0] not in "WB":
        raise HubError(
            f"position for {v.name}: W or B, then {len(order)} squares each w, b, W, B or e"
        )
    white = black = kings = 0
    for sq, ch in zip(order, text[1:]):
        bit = 1 << sq
        if ch in "wW":
            white |= bit
        elif ch in "bB":
            black |= bit
        elif ch != "e":
            raise HubError(f"unknown square character {ch!r} in the position")
        if ch in "WB":
            kings |= bit
    pos = Position(white, black, kings, Color(text[0]))
    try:
        check_position(v, pos)
    except FenError as exc:
        raise HubError(str(exc)) from None
    return pos


def move_string(v: Variant, move: Move) -> str:
    """A move in the protocol's form: ``32-28`` or ``28x19x23`` (from, to, captured...)."""
    geo = geometry(v)
    if not move.captures:
        return f"{geo.number(move.start)}-{geo.number(move.end)}"
    parts = [move.start, move.end, *sorted(move.captures, key=geo.number)]
    return "x".join(str(geo.number(s)) for s in parts)


def parse_hub_move(v: Variant, pos: Position, text: str) -> Move:
    """The legal move meant by a protocol move string; HubError if there is none."""
    geo = geometry(v)
    sep = "x" if "x" in text else "-"
    try:
        numbers = [int(p) for p in text.split(sep)]
    except ValueError:
        raise HubError(f"cannot read the move {text!r}") from None
    if len(numbers) < 2:
        raise HubError(f"cannot read the move {text!r}")
    for m in generate(v, pos):
        if (
            geo.number(m.start) == numbers[0]
            and geo.number(m.end) == numbers[1]
            and sorted(geo.number(s) for s in m.captures) == sorted(numbers[2:])
        ):
            return m
    raise HubError(f"{text} is not a legal move in this position")


class HubSession:
    """State of one protocol session; :meth:`handle` answers one command line."""

    def __init__(self, out: TextIO):
        self.out = out
        self.variant: Variant = VARIANTS["international"]
        self.level = 3
        self.player: Player | None = None
        self.positions: list[Position] = []
        self.depth: int | None = None
        self.movetime: float | None = 2.0

    def send(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def _player(self) -> Player:
        if self.player is None:
            self.player = Player(self.variant, level(self.level))
        return self.player

    def handle(self, line: str) -> bool:
        """Answer one line; returns False after ``quit``."""
        try:
            cmd, args = parse_line(line)
            return self._dispatch(cmd, args)
        except HubError as exc:
            self.send(f"error message={_quote(str(exc))}")
            return True

    def _dispatch(self, cmd: str, args: dict[str, str]) -> bool:
        if cmd == "hub":
            self.send('id name=Damiera version=0.1 author="Damiera engine" country=none')
            ids = " ".join(VARIANTS)
            self.send(f'param name=variant value={self.variant.id} type=enum values="{ids}"')
            self.send(f"param name=level value={self.level} type=int min=1 max=3")
            self.send("wait")
        elif cmd == "set-param":
            self._set_param(args.get("name", ""), args.get("value", ""))
        elif cmd == "init":
            self.player = None
            self.positions = []
            self.send("ready")
        elif cmd == "new-game":
            self.player = None
            self.positions = []
        elif cmd == "ping":
            self.send("pong")
        elif cmd == "quit":
            return False
        elif cmd == "pos":
            self._pos(args.get("pos", ""), args.get("moves", ""))
        elif cmd == "level":
            self._level(args)
        elif cmd == "go":
            self._go("think" not in args)
        return True

    def _set_param(self, name: str, value: str) -> None:
        if name == "variant":
            try:
                self.variant = variant(value)
            except ValueError as exc:
                raise HubError(str(exc)) from None
            self.player = None
            self.positions = []  # a position of another variant means nothing here
        elif name == "level":
            try:
                self.level = level(int(value)).number
            except ValueError as exc:
                raise HubError(str(exc)) from None
            self.player = None

    def _pos(self, text: str, moves: str) -> None:
        """Set the position (HubError for a bad one, which also forgets the old position, so
        that a later ``go`` answers an error instead of searching a position the GUI left)."""
        self.positions = []
        pos = parse_position(self.variant, text)
        positions = [pos]
        for word in moves.split():
            pos = apply_move(pos, parse_hub_move(self.variant, pos, word))
            positions.append(pos)
        self.positions = positions

    def _level(self, args: dict[str, str]) -> None:
        """Read a ``level`` command; a bad value answers an error and keeps the old settings.

        ``depth`` must be 1 to :data:`~damiera.engine.search.MAX_DEPTH`; ``move-time``, ``time``
        and ``inc`` must be finite numbers (``move-time`` above 0, the others 0 or more); a
        search never runs longer than :data:`~damiera.engine.search.MAX_MOVETIME` seconds."""
        if "depth" in args:
            depth = _int_arg(args["depth"], "depth", 1, MAX_DEPTH)
            self.depth, self.movetime = depth, None
        elif "move-time" in args:
            movetime = _seconds(args["move-time"], "move-time", positive=True)
            self.depth, self.movetime = None, min(movetime, MAX_MOVETIME)
        elif "time" in args:
            # moves=0 (or none) is sudden death: no move count, so assume DEFAULT_MOVES_TO_GO.
            moves = _int_arg(args.get("moves") or "0", "moves", 0, 10_000) or DEFAULT_MOVES_TO_GO
            total = _seconds(args["time"], "time", positive=False)
            inc = _seconds(args.get("inc") or "0", "inc", positive=False)
            budget = total / moves + inc
            # At least a millisecond, and never more than the clock has left.
            floor = max(0.001, min(0.01, 0.9 * (total + inc)))
            self.depth, self.movetime = None, min(MAX_MOVETIME, max(floor, budget * 0.9))
        elif "infinite" in args:
            self.depth, self.movetime = None, INFINITE_SECONDS

    def _go(self, long_search: bool) -> None:
        if not self.positions:
            raise HubError("no position: send pos first")
        v = self.variant
        pos = self.positions[-1]
        if not all(pos.piece_counts()):
            raise HubError("the game is over: a side has no pieces")
        if not generate(v, pos):
            raise HubError("no legal move in this position")

        def info(i: Info) -> None:
            if i.score > MATE_BOUND or i.score < -MATE_BOUND:
                men = 100.0 if i.score > 0 else -100.0
            else:
                men = i.score / 100
            pv = " ".join(move_string(v, m) for m in i.pv)
            self.send(
                f"info depth={i.depth} score={men:.2f} nodes={i.nodes} time={i.seconds:.3f} "
                f'nps={i.nps / 1e6:.3f} pv="{pv}"'
            )

        movetime = self.movetime
        if long_search and movetime is None and self.depth is None:
            movetime = INFINITE_SECONDS
        player = self._player()
        if movetime is None:  # a fixed depth, searched in full
            result = player.searcher.search(pos, depth=self.depth, movetime=MAX_MOVETIME,
                                            history=self.positions, on_info=info)
        else:
            result = player.choose(pos, self.positions, movetime=movetime, depth=self.depth,
                                   on_info=info)
        assert result.move is not None
        done = f"done move={move_string(v, result.move)}"
        if len(result.pv) > 1:
            done += f" ponder={move_string(v, result.pv[1])}"
        self.send(done)


def _seconds(text: str, what: str, positive: bool) -> float:
    """A finite number of seconds (above 0 if ``positive``, else 0 or more); HubError if not."""
    try:
        value = float(text)
    except ValueError:
        raise HubError(f"{what} must be a number of seconds, not {text!r}") from None
    if not math.isfinite(value) or value < 0 or (positive and value == 0):
        kind = "a positive" if positive else "a finite, non-negative"
        raise HubError(f"{what} must be {kind} number of seconds, not {text!r}")
    return value


def _int_arg(text: str, what: str, low: int, high: int) -> int:
    """A whole number from ``low`` to ``high``; HubError if not."""
    try:
        value = int(text)
    except ValueError:
        raise HubError(f"{what} must be a whole number, not {text!r}") from None
    if not low <= value <= high:
        raise HubError(f"{what} must be between {low} and {high}, not {value}")
    return value


def _quote(text: str) -> str:
    return '"' + text.replace('"', "'") + '"'


def run(lines: Iterable[str], out: TextIO) -> None:
    """Serve the protocol: answer each line of ``lines`` on ``out`` until ``quit`` or the end
    of input (the GUI has gone)."""
    session = HubSession(out)
    for line in lines:
        if not session.handle(line.strip()):
            break


def main() -> int:
    """Entry point of ``damiera hub``."""
    run(sys.stdin, sys.stdout)
    return 0

