"""The Hub protocol's text forms (Hub version 2, the protocol text that ships with Scan 3.1),
shared by the engine (:mod:`damiera.engine.hub`) and the client
(:mod:`damiera.engine.hub_client`).

Lines are ``<command> <arg>=<value> ...``: words separated by spaces, a value in double quotes
when it holds a space or ``=`` or is empty, a flag with no ``=value``. A line is at most
:data:`MAX_LINE_BYTES` bytes of UTF-8 text; :func:`read_lines` reads them from a byte stream
in bounded memory and :func:`parse_line` splits one in time linear in its length.

Positions are the side to move (``W`` or ``B``) then one character per square in numeric
order (``w``/``b`` man, ``W``/``B`` king, ``e`` empty): squares 1-50 on 10x10 and 1-32 on 8x8
as the variant numbers them, and for variants written algebraically (Russian, Brazilian,
Czech) from the top left as White sees the board, like International (b8 = 1, d8 = 2, ...,
a1 = 29, g1 = 32). Moves are ``32-28``, or ``from x to x captured x captured ...`` with the
captured squares in any order (``28x19x23``).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from typing import IO

from damiera.engine.search import MATE, MATE_BOUND
from damiera.rules.geometry import geometry
from damiera.rules.movegen import Move, generate
from damiera.rules.position import FenError, Position, from_square_letters, square_letters
from damiera.rules.variant import Color, Variant

#: Longest line read or parsed (bytes, end of line excluded); a longer one is refused whole.
MAX_LINE_BYTES = 65_536
#: Longest excerpt of a bad input quoted back in an error message (characters).
EXCERPT_CHARS = 40
#: Longest distance to a win written in a score (plies): the score stays beyond 90 men.
MAX_WIN_PLIES = 999


class HubError(ValueError):
    """A line, position or move that cannot be read (the engine answers ``error message=...``;
    the client raises it)."""


def excerpt(text: str) -> str:
    """A short, printable-ASCII excerpt of outside input for an error message: at most
    :data:`EXCERPT_CHARS` characters as written (then ``...``), each character outside
    printable ASCII written as its ``\\xNN``, ``\\uNNNN`` or ``\\UNNNNNNNN`` escape (so one
    answer stays one line, and an escape is never cut in two), a double quote as ``'``.
    Reads at most ``EXCERPT_CHARS + 1`` characters of ``text``."""
    out: list[str] = []
    used = 0
    for c in text[: EXCERPT_CHARS + 1]:
        piece = _printable(c)
        if used + len(piece) > EXCERPT_CHARS:
            return "".join(out) + "..."
        out.append(piece)
        used += len(piece)
    return "".join(out)


def _printable(c: str) -> str:
    """One character as an answer line writes it: printable ASCII as itself (a double quote
    as ``'``), anything else as its ``\\xNN``, ``\\uNNNN`` or ``\\UNNNNNNNN`` escape."""
    if c == '"':
        return "'"
    if " " <= c <= "~":
        return c
    code = ord(c)
    return (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000
            else f"\\U{code:08x}")


def ascii_message(text: str) -> str:
    """A whole message in printable ASCII, each other character escaped as :func:`excerpt`
    does (not cut): what an ``error`` line carries, whatever module wrote the message."""
    return "".join(map(_printable, text))


def quoted_excerpt(text: str) -> str:
    """:func:`excerpt` between single quotes, as an error message quotes a bad value (not
    ``repr``, which would write each escape's backslash twice)."""
    return f"'{excerpt(text)}'"


def parse_line(line: str) -> tuple[str, dict[str, str]]:
    """``("cmd", {arg: value})`` from a protocol line; flags get the value ``""``, a repeated
    argument keeps its last value, an empty line gives ``("", {})``.

    One pass over the line (linear time). Raises :class:`HubError` for a line longer than
    :data:`MAX_LINE_BYTES` characters, an unclosed quote, or a quote inside an unquoted
    word."""
    if len(line) > MAX_LINE_BYTES:
        raise HubError(f"line longer than {MAX_LINE_BYTES} characters: ignored")
    n = len(line)
    i = 0
    words: list[tuple[str, str | None]] = []
    while True:
        while i < n and line[i].isspace():
            i += 1
        if i >= n:
            break
        start = i
        while i < n and not line[i].isspace() and line[i] != "=" and line[i] != '"':
            i += 1
        key = line[start:i]
        value: str | None = None
        if i < n and line[i] == "=":
            i += 1
            if i < n and line[i] == '"':
                close = line.find('"', i + 1)
                if close < 0:
                    raise HubError(f"unclosed quote in {quoted_excerpt(line)}")
                value = line[i + 1 : close]
                i = close + 1
            else:
                start = i
                while i < n and not line[i].isspace() and line[i] != '"':
                    i += 1
                value = line[start:i]
        if i < n and line[i] == '"' or not key:
            raise HubError(f"cannot read the line {quoted_excerpt(line)}")
        words.append((key, value))
    if not words:
        return "", {}
    args = {key: ("" if value is None else value) for key, value in words[1:]}
    return words[0][0], args


def quote(value: str) -> str:
    """A value as the protocol writes it: in double quotes when it is empty or holds a space,
    ``=`` or a quote (a quote inside becomes ``'``: the protocol has no escape)."""
    if value and not any(c.isspace() or c in '="' for c in value):
        return value
    return '"' + value.replace('"', "'") + '"'


def format_line(command: str, *flags: str, **args: str) -> str:
    """One protocol line: ``format_line("pos", pos="W...", moves="32-28 19-23")``; argument
    names with ``_`` are written with ``-`` (``move_time`` -> ``move-time``)."""
    parts = [command, *flags]
    parts += [f"{key.replace('_', '-')}={quote(value)}" for key, value in args.items()]
    return " ".join(parts)


def score_string(score: int) -> str:
    """A search score (centi-men, side to move's view; wins beyond
    :data:`~damiera.engine.search.MATE_BOUND`) as the protocol's ``score=`` in men with two
    decimals. A win in ``n`` plies is ``100 - n/100`` (``99.97``: won in 3 plies) and a loss
    its negative, as Scan writes them (its readme: "+/- 99.xx means reaching the absolute end
    of the game soon"); GUIs and pydraughts read a score beyond 90 men as a win in
    ``10000 - 100 * score`` plies. Distances beyond 999 plies are written as 999."""
    if abs(score) > MATE_BOUND:
        plies = min(MATE - abs(score), MAX_WIN_PLIES)
        men = (10_000 - plies) / 100
        return f"{men if score > 0 else -men:.2f}"
    return f"{score / 100:.2f}"


def read_lines(stream: IO[bytes]) -> Iterator[str | HubError]:
    """The lines of a byte stream, without their end of line, until end of input; a line
    longer than :data:`MAX_LINE_BYTES` (read on and dropped in bounded chunks) or not UTF-8
    comes as a :class:`HubError` in its place, so the caller answers it and goes on. The end
    of line (LF or CR LF) does not count."""
    while True:
        raw = stream.readline(MAX_LINE_BYTES + 2)   # the longest line and its CR LF
        if not raw:
            return
        if raw.endswith(b"\n"):
            raw = raw[:-1]
        elif len(raw) == MAX_LINE_BYTES + 2:   # cut off: read on and drop the rest
            rest = raw
            while rest and not rest.endswith(b"\n"):
                rest = stream.readline(MAX_LINE_BYTES)
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        if len(raw) > MAX_LINE_BYTES:
            yield HubError(f"line longer than {MAX_LINE_BYTES} bytes: ignored")
            continue
        try:
            yield raw.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError as exc:
            yield HubError(f"line is not UTF-8 text (byte {exc.start + 1}): ignored")


class ReadAhead:
    """The lines of a byte stream as :func:`read_lines` gives them, read by a daemon thread
    so that the reader of this iterator waits on a queue, not on the stream: :meth:`wake`
    (from any thread, e.g. a search thread whose write failed) ends the iteration at once,
    without another line arriving. A read that fails raises its error here, after the lines
    read before it. The thread stays blocked on the stream until it ends or the process
    does: give it a stream of its own (not ``sys.stdin.buffer``, which the interpreter
    closes at exit)."""

    _END = object()

    def __init__(self, stream: IO[bytes]):
        # Bounded: a thread reading far ahead of a busy main loop holds only this many lines.
        self._queue: queue.Queue[object] = queue.Queue(maxsize=64)
        self._woken = threading.Event()
        threading.Thread(target=self._read, args=(stream,), name="hub-input",
                         daemon=True).start()

    def _read(self, stream: IO[bytes]) -> None:
        try:
            for line in read_lines(stream):
                self._queue.put(line)
        except (OSError, ValueError) as exc:  # raised to the iterator's reader, as its own
            self._queue.put(_ReadFailed(exc))
        finally:
            self._queue.put(self._END)

    def __iter__(self) -> Iterator[str | HubError]:
        while not self._woken.is_set():
            item = self._queue.get()
            if item is self._END or self._woken.is_set():
                return
            if isinstance(item, _ReadFailed):
                raise item.error
            assert isinstance(item, (str, HubError))
            yield item

    def wake(self) -> None:
        """End the iteration now: its reader, waiting for a line or not, gets no more."""
        self._woken.set()
        try:
            self._queue.put_nowait(self._END)
        except queue.Full:  # the reader is not waiting: it sees the flag at its next get
            pass


class _ReadFailed:
    """In a :class:`ReadAhead`'s queue: the error of the read that failed."""

    def __init__(self, error: OSError | ValueError):
        self.error = error


# -- variant names ---------------------------------------------------------------------------
#: Scan's variant names: the Damiera variant each one means (its canonical id, options
#: included: Scan's ``bt`` and ``losing`` are International rules with breakthrough or the
#: losing rule; ``frisian`` is Frisian draughts), or None when Damiera does not play those
#: rules (then ``set-param`` answers an error naming them).
SCAN_VARIANTS: dict[str, str | None] = {
    "normal": "international",
    "killer": None,
    "bt": "international+breakthrough",
    "frisian": "frisian",
    "losing": "international+losing",
}
#: The variant a Hub engine plays when it declares none (Scan's default).
SCAN_DEFAULT_VARIANT = "normal"
_SCAN_NAMES = {"killer": "Killer draughts", "bt": "Breakthrough draughts",
               "losing": "losing draughts (giveaway)"}


def hub_variant_name(variant_id: str) -> str:
    """The name a Hub engine or GUI uses for a Damiera variant given by its canonical id
    (:attr:`~damiera.rules.variant.Variant.full_id`): Scan's where it has one (``normal``
    for International rules, ``bt``, ``losing``, ``frisian``), else the Damiera id."""
    for name, vid in SCAN_VARIANTS.items():
        if vid == variant_id:
            return name
    return variant_id


# -- positions and moves ---------------------------------------------------------------------
def parse_position(v: Variant, text: str) -> Position:
    """Read the protocol's position string; :class:`HubError` if malformed or impossible."""
    squares = len(geometry(v).squares)
    if len(text) != squares + 1 or text[0] not in "WB":
        raise HubError(
            f"position for {v.name}: W or B, then {squares} squares each w, b, W, B or e"
        )
    try:
        return from_square_letters(v, Color(text[0]), text[1:])
    except FenError as exc:
        raise HubError(str(exc)) from None


def position_string(v: Variant, pos: Position) -> str:
    """The protocol's position string of ``pos`` (the inverse of :func:`parse_position`)."""
    return pos.turn.value + square_letters(v, pos)


def move_string(v: Variant, move: Move) -> str:
    """A move in the protocol's form: ``32-28`` or ``28x19x23`` (from, to, captured...)."""
    geo = geometry(v)
    if not move.captures:
        return f"{geo.number(move.start)}-{geo.number(move.end)}"
    parts = [move.start, move.end, *sorted(move.captures, key=geo.number)]
    return "x".join(str(geo.number(s)) for s in parts)


def parse_hub_move(v: Variant, pos: Position, text: str) -> Move:
    """The legal move meant by a protocol move string; :class:`HubError` if there is none."""
    geo = geometry(v)
    sep = "x" if "x" in text else "-"
    parts = text.split(sep)
    if len(parts) < 2 or not all(p.isascii() and p.isdigit() and len(p) <= 3 for p in parts):
        raise HubError(f"cannot read the move {quoted_excerpt(text)}")
    numbers = [int(p) for p in parts]
    for m in generate(v, pos):
        if (
            geo.number(m.start) == numbers[0]
            and geo.number(m.end) == numbers[1]
            and sorted(geo.number(s) for s in m.captures) == sorted(numbers[2:])
        ):
            return m
    raise HubError(f"{excerpt(text)} is not a legal move in this position")
