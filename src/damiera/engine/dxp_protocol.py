"""DXP, the DamExchange Protocol of International draughts matches: its messages, their
fixed-width text forms, and the framing of a stream into messages.

A message is printable ASCII ending in a NUL byte, at most :data:`MAX_MESSAGE_CHARS`
characters before it; its first character says which it is. Numbers are written with
leading zeros in their field, names padded with spaces; colours are ``W`` (White) and ``Z``
(Black, *zwart*); squares are numbered 1-50 as in International draughts.

======== ==== =============================================================================
message  head fields (width)
======== ==== =============================================================================
GAMEREQ  R    version (2, ``01``), initiator's name (32), follower's colour (1), thinking
              time in minutes (3), number of moves (3), position ``A`` (the start) or ``B``
              then the colour to move (1) and the board (50: ``e`` empty, ``w``/``z`` men,
              ``W``/``Z`` kings, squares 1-50)
GAMEACC  A    follower's name (32), acceptance code (1: ``0`` accepted, ``1`` version not
              supported, ``2`` refused, ``3`` not now)
MOVE     M    seconds used (4), from (2), to (2), number captured (2), captured squares
              (2 each, in any order)
GAMEEND  E    reason (1: ``0`` unknown, ``1`` I lose, ``2`` draw, ``3`` I win), stop code
              (1: ``0`` next game welcome, ``1`` no next game)
CHAT     C    text (the rest of the message)
BACKREQ  B    move number (3), colour to move (1)
BACKACC  K    acceptance code (1: ``0`` accepted, ``1`` not supported, ``2`` continue)
======== ==== =============================================================================

:func:`decode` reads one message in time linear in its length and raises :class:`DxpError`
naming the field for anything malformed; :class:`MessageReader` cuts a byte stream into
messages in bounded memory.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from damiera.engine.hub_protocol import quoted_excerpt
from damiera.rules.geometry import geometry
from damiera.rules.movegen import Move, generate
from damiera.rules.position import (
    FenError,
    Position,
    from_square_letters,
    square_letters,
    start_position,
)
from damiera.rules.variant import Color, Variant

#: Longest message, NUL excluded (characters).
MAX_MESSAGE_CHARS = 127
#: Most pieces one capture can take on a 10x10 board (20 men: more never stand in reach).
MAX_CAPTURED = 20
NAME_WIDTH = 32
BOARD_SQUARES = 50


class DxpError(ValueError):
    """A malformed DXP message, or one that does not fit the game (one line, with the
    field)."""


@dataclass(frozen=True)
class GameReq:
    name: str
    follower_color: Color
    minutes: int
    moves: int
    position: Position | None  # None: the start position ("A")
    version: int = 1


@dataclass(frozen=True)
class GameAcc:
    name: str
    code: str


@dataclass(frozen=True)
class MoveMsg:
    seconds: int
    start: int
    end: int
    captured: tuple[int, ...]


@dataclass(frozen=True)
class GameEnd:
    reason: str
    stop: str


@dataclass(frozen=True)
class Chat:
    text: str


@dataclass(frozen=True)
class BackReq:
    move_number: int
    color: Color


@dataclass(frozen=True)
class BackAcc:
    code: str


Message = GameReq | GameAcc | MoveMsg | GameEnd | Chat | BackReq | BackAcc


# -- encoding --------------------------------------------------------------------------------
def _num(value: int, width: int, what: str) -> str:
    if not 0 <= value < 10**width:
        raise DxpError(f"{what} {value} does not fit in {width} digits")
    return str(value).zfill(width)


def _color(c: Color) -> str:
    return "W" if c is Color.WHITE else "Z"


def printable(text: str) -> str:
    """``text`` with every character outside printable ASCII replaced by ``?`` (names and
    chat come from the opponent and end up on a terminal)."""
    return "".join(ch if " " <= ch <= "~" else "?" for ch in text)


def _name(text: str) -> str:
    return printable(text)[:NAME_WIDTH].ljust(NAME_WIDTH)


def board_string(v: Variant, pos: Position) -> str:
    """The 50 squares of ``pos`` as DXP writes them (``e``, ``w``, ``z``, ``W``, ``Z``)."""
    return square_letters(v, pos, black="z")


def encode(v: Variant, msg: Message) -> str:
    """The text of a message (NUL not included); DxpError if a field does not fit."""
    if isinstance(msg, GameReq):
        text = (f"R{_num(msg.version, 2, 'version')}{_name(msg.name)}"
                f"{_color(msg.follower_color)}{_num(msg.minutes, 3, 'thinking time')}"
                f"{_num(msg.moves, 3, 'number of moves')}")
        if msg.position is None:
            return text + "A"
        return text + "B" + _color(msg.position.turn) + board_string(v, msg.position)
    if isinstance(msg, GameAcc):
        return f"A{_name(msg.name)}{msg.code[:1]}"
    if isinstance(msg, MoveMsg):
        if len(msg.captured) > MAX_CAPTURED:
            raise DxpError(f"{len(msg.captured)} captured pieces: at most {MAX_CAPTURED}")
        caps = "".join(_num(c, 2, "captured square") for c in msg.captured)
        return (f"M{_num(min(msg.seconds, 9999), 4, 'time')}{_num(msg.start, 2, 'from')}"
                f"{_num(msg.end, 2, 'to')}{_num(len(msg.captured), 2, 'count')}{caps}")
    if isinstance(msg, GameEnd):
        return f"E{msg.reason[:1]}{msg.stop[:1]}"
    if isinstance(msg, Chat):
        return "C" + printable(msg.text)[: MAX_MESSAGE_CHARS - 1]
    if isinstance(msg, BackReq):
        return f"B{_num(msg.move_number, 3, 'move number')}{_color(msg.color)}"
    return f"K{msg.code[:1]}"


# -- decoding --------------------------------------------------------------------------------
class _Fields:
    """Fixed-width fields read left to right from one message."""

    def __init__(self, text: str, kind: str):
        self.text = text
        self.kind = kind
        self.at = 1

    def take(self, width: int, what: str) -> str:
        if self.at + width > len(self.text):
            raise DxpError(f"{self.kind}: too short for its {what} field "
                           f"({len(self.text)} characters): {quoted_excerpt(self.text)}")
        field = self.text[self.at : self.at + width]
        self.at += width
        return field

    def number(self, width: int, what: str) -> int:
        field = self.take(width, what)
        if not (field.isascii() and field.isdigit()):
            raise DxpError(f"{self.kind}: {what} must be {width} digits, not {field!r}")
        return int(field)

    def color(self, what: str) -> Color:
        field = self.take(1, what)
        if field not in ("W", "Z"):
            raise DxpError(f"{self.kind}: {what} must be W or Z, not {field!r}")
        return Color.WHITE if field == "W" else Color.BLACK

    def code(self, what: str, allowed: str) -> str:
        field = self.take(1, what)
        if field not in allowed:
            raise DxpError(f"{self.kind}: {what} must be one of {', '.join(allowed)}, "
                           f"not {field!r}")
        return field

    def end(self) -> None:
        if self.at != len(self.text):
            raise DxpError(f"{self.kind}: {len(self.text) - self.at} characters too many: "
                           f"{quoted_excerpt(self.text)}")


def _board(v: Variant, turn: Color, board: str) -> Position:
    try:
        return from_square_letters(v, turn, board, black="z")
    except FenError as exc:
        reason = str(exc)
        # check_position's reasons mostly say "impossible position" already: said once
        if reason.startswith(("square character", "impossible position")):
            raise DxpError(f"GAMEREQ: {reason}") from None
        raise DxpError(f"GAMEREQ: impossible position: {reason}") from None


def decode(v: Variant, text: str) -> Message:
    """The message in ``text`` (NUL removed); DxpError naming the field if malformed."""
    if len(text) > MAX_MESSAGE_CHARS:
        raise DxpError(f"message longer than {MAX_MESSAGE_CHARS} characters")
    if not text:
        raise DxpError("empty message")
    head = text[0]
    if head == "C":
        return Chat(printable(text[1:]))
    readers: dict[str, Callable[[_Fields], Message]] = {
        "R": lambda f: _game_req(v, f),
        "A": lambda f: GameAcc(printable(f.take(NAME_WIDTH, "name")).strip(),
                               f.code("acceptance code", "0123")),
        "M": _move,
        "E": lambda f: GameEnd(f.code("reason", "0123"), f.code("stop code", "01")),
        "B": lambda f: BackReq(f.number(3, "move number"), f.color("colour to move")),
        "K": lambda f: BackAcc(f.code("acceptance code", "012")),
    }
    kinds = {"R": "GAMEREQ", "A": "GAMEACC", "M": "MOVE", "E": "GAMEEND", "B": "BACKREQ",
             "K": "BACKACC"}
    if head not in readers:
        raise DxpError(f"unknown message type {head!r}: {quoted_excerpt(text)}")
    fields = _Fields(text, kinds[head])
    msg = readers[head](fields)
    fields.end()
    return msg


def _game_req(v: Variant, f: _Fields) -> GameReq:
    version = f.number(2, "version")
    name = printable(f.take(NAME_WIDTH, "name")).strip()
    follower = f.color("follower's colour")
    minutes = f.number(3, "thinking time")
    moves = f.number(3, "number of moves")
    kind = f.code("starting position", "AB")
    position = None
    if kind == "B":
        turn = f.color("colour to move")
        position = _board(v, turn, f.take(BOARD_SQUARES, "board"))
    return GameReq(name, follower, minutes, moves, position, version)


def _move(f: _Fields) -> MoveMsg:
    seconds = f.number(4, "time")
    start = f.number(2, "from")
    end = f.number(2, "to")
    count = f.number(2, "number captured")
    if count > MAX_CAPTURED:
        raise DxpError(f"MOVE: {count} captured pieces: at most {MAX_CAPTURED}")
    captured = tuple(f.number(2, "captured square") for _ in range(count))
    return MoveMsg(seconds, start, end, captured)


# -- moves -----------------------------------------------------------------------------------
def move_message(v: Variant, move: Move, seconds: int) -> MoveMsg:
    """The MOVE message of a move (captured squares in square order)."""
    geo = geometry(v)
    caps = tuple(sorted(geo.number(s) for s in move.captures))
    return MoveMsg(seconds, geo.number(move.start), geo.number(move.end), caps)


def find_move(v: Variant, pos: Position, msg: MoveMsg) -> Move:
    """The legal move a MOVE message means; DxpError if none."""
    geo = geometry(v)
    wanted = sorted(msg.captured)
    for m in generate(v, pos):
        if (geo.number(m.start) == msg.start and geo.number(m.end) == msg.end
                and sorted(geo.number(s) for s in m.captures) == wanted):
            return m
    caps = "x".join(str(c) for c in msg.captured)
    shown = f"{msg.start}-{msg.end}" + (f" taking {caps}" if caps else "")
    raise DxpError(f"MOVE: {shown} is not a legal move in this position")


def start_of(v: Variant, req: GameReq) -> Position:
    """The position a GAMEREQ starts from."""
    return req.position if req.position is not None else start_position(v)


# -- framing ---------------------------------------------------------------------------------
class MessageReader:
    """Cuts a byte stream into messages: feed it what the socket gives, iterate over what is
    complete. Each yields a ``str`` (the message, NUL removed) or a :class:`DxpError` in
    place of a message that is too long (dropped up to its NUL, never stored whole) or not
    ASCII. Memory is bounded by :data:`MAX_MESSAGE_CHARS` plus one chunk; every byte is
    looked at once."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._dropping = False

    def feed(self, chunk: bytes) -> Iterator[str | DxpError]:
        start = 0
        while True:
            nul = chunk.find(b"\0", start)
            if nul < 0:
                break
            part = chunk[start:nul]
            start = nul + 1
            if self._dropping:
                self._dropping = False
                self._buffer.clear()
                continue
            self._buffer += part
            data = bytes(self._buffer)
            self._buffer.clear()
            if len(data) > MAX_MESSAGE_CHARS:
                yield DxpError(f"message longer than {MAX_MESSAGE_CHARS} characters: dropped")
                continue
            try:
                yield data.decode("ascii").strip("\r\n")
            except UnicodeDecodeError:
                yield DxpError("message is not ASCII text: dropped")
        rest = chunk[start:]
        if self._dropping:
            return
        if len(self._buffer) + len(rest) > MAX_MESSAGE_CHARS:
            self._dropping = True
            self._buffer.clear()
            yield DxpError(f"message longer than {MAX_MESSAGE_CHARS} characters: dropped")
            return
        self._buffer += rest
