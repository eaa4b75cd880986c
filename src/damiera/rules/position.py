"""Positions as immutable values, start positions, and FEN (RULES.md section 4).

A :class:`Position` is four fields: bitboards (Python ints over the geometry's bit indices)
of White's pieces, Black's pieces and all kings, and the side to move. It holds no variant:
functions that need the board take the :class:`~damiera.rules.variant.Variant` too.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from damiera.rules.geometry import Geometry, SquareError, geometry
from damiera.rules.variant import Color, Notation, Variant


class FenError(ValueError):
    """A FEN that cannot be read, or that describes an impossible position.

    The message says what is wrong and where (which token or square).
    """


class Position(NamedTuple):
    """An immutable, hashable position.

    ``white`` and ``black``: bitboards of each side's pieces (men and kings);
    ``kings``: bitboard of all kings of both sides; ``turn``: the side to move.
    """

    white: int
    black: int
    kings: int
    turn: Color

    def pieces(self, color: Color) -> int:
        return self.white if color is Color.WHITE else self.black

    def men(self, color: Color) -> int:
        return self.pieces(color) & ~self.kings

    def kings_of(self, color: Color) -> int:
        return self.pieces(color) & self.kings

    @property
    def occupied(self) -> int:
        return self.white | self.black

    def piece_at(self, square: int) -> tuple[Color, bool] | None:
        """``(color, is_king)`` of the piece on a square (bit index), or None if empty."""
        bit = 1 << square
        if self.white & bit:
            return Color.WHITE, bool(self.kings & bit)
        if self.black & bit:
            return Color.BLACK, bool(self.kings & bit)
        return None

    def piece_counts(self) -> tuple[int, int]:
        """Number of pieces ``(white, black)``."""
        return self.white.bit_count(), self.black.bit_count()


def start_position(variant: Variant) -> Position:
    """The variant's initial position: men on ``man_rows`` rows of each side, after the
    ``back_rows_empty`` rows nearest to it."""
    geo = geometry(variant)
    black = white = 0
    first, last = variant.back_rows_empty, variant.back_rows_empty + variant.man_rows
    for s in geo.squares:
        r = geo.row(s)
        if first <= r < last:
            black |= 1 << s
        elif first <= variant.board_size - 1 - r < last:
            white |= 1 << s
    return Position(white, black, 0, variant.first_to_move)


_RANGE = re.compile(r"^([0-9]{1,3})-([0-9]{1,3})$")


def _expand_range(geo: Geometry, side: str, token: str) -> list[str]:
    """Labels of a numeric range ``a-b`` (checked before it is expanded)."""
    if geo.notation is not Notation.NUMERIC:
        raise FenError(
            f"{side}'s list: ranges such as {fen_excerpt(token)} are for numbered boards only; "
            "list each square"
        )
    match = _RANGE.match(token)
    squares = len(geo.squares)
    if not match:
        raise FenError(f"{side}'s list: {fen_excerpt(token)} is not a range of square numbers")
    first, last = int(match.group(1)), int(match.group(2))
    if first > last:
        raise FenError(f"range {token} in {side}'s list runs backwards")
    if first < 1 or last > squares:
        raise FenError(f"range {token} in {side}'s list leaves the board (squares 1-{squares})")
    return [str(n) for n in range(first, last + 1)]


def fen_excerpt(text: str, limit: int = 40) -> str:
    """``text`` (a FEN or a part of one) quoted for an error message, cut after ``limit``
    characters: ``'W:W21-32:B1-12'``, ``'W:W1,1,1,...'``."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _is_square(geo: Geometry, label: str) -> bool:
    """Whether ``label`` names a playing square of ``geo``."""
    try:
        geo.square(label)
    except SquareError:
        return False
    return True


def _fen_squares(geo: Geometry, color: Color, body: str) -> tuple[int, int]:
    """Read one side's square list (without its colour letter): ``(pieces, kings)``."""
    pieces = kings = 0
    side = color.word
    if not body.strip():
        return 0, 0
    for raw in body.split(","):
        token = raw.strip()
        if not token:
            raise FenError(f"empty square in {side}'s list (two commas in a row?)")
        # Column k of the 12x12 board: "k11" is a square there, so a leading K marks a king
        # only when the token as a whole is not a square ("Kk11" is the king on k11).
        king = token[0] in "Kk" and not _is_square(geo, token)
        written = token  # as typed, for the messages
        if king:
            token = token[1:].strip()
            if not token:
                raise FenError(f"a K in {side}'s list has no square after it")
        if "-" in token:
            try:
                labels = _expand_range(geo, side, token)
            except FenError as exc:
                if written == token:
                    raise
                raise FenError(f"{exc} (in {fen_excerpt(written)})") from None
        else:
            labels = [token]
        for label in labels:
            try:
                sq = geo.square(label)
            except SquareError as exc:
                where = f" (in {fen_excerpt(written)})" if written != label else ""
                raise FenError(f"{side}'s list: {exc}{where}") from None
            bit = 1 << sq
            if pieces & bit:
                raise FenError(f"square {label} is listed twice for {side}")
            pieces |= bit
            if king:
                kings |= bit
    return pieces, kings


#: The longest FEN read: every square of a 10x10 board listed as a king (``K50,``) takes 200
#: characters; longer text is refused before it is read.
MAX_FEN_TEXT = 1000


#: The largest value of lidraughts' ``H`` (halfmove clock) and ``F`` (move number) fields.
MAX_FEN_CLOCK = 9999


class FenClocks(NamedTuple):
    """Lidraughts' optional trailing FEN fields: ``halfmove`` (``H<n>``: plies without a
    capture or a man move, for the draw rules) and ``fullmove`` (``F<n>``: the number of
    the move to play); None when the FEN has no such field."""

    halfmove: int | None = None
    fullmove: int | None = None

    def significant(self) -> FenClocks:
        """These fields without the defaults a FEN need not write (``H0``, ``F1``)."""
        return FenClocks(self.halfmove or None,
                         None if self.fullmove in (None, 1) else self.fullmove)

    @property
    def text(self) -> str:
        """The fields as the FEN writes them: ``":H0:F1"``, ``":F12"``, or ``""``."""
        return "".join(f":{letter}{value}" for letter, value in
                       (("H", self.halfmove), ("F", self.fullmove)) if value is not None)


def _clock(part: str, clocks: FenClocks) -> FenClocks:
    """``clocks`` with the ``H<n>`` or ``F<n>`` field ``part`` read into it."""
    letter, digits = part[0].upper(), part[1:].strip()
    name = "halfmove clock" if letter == "H" else "move number"
    example = "H0" if letter == "H" else "F1"
    if (clocks.halfmove if letter == "H" else clocks.fullmove) is not None:
        raise FenError(f"the {letter} field ({name}) is given twice")
    if letter == "H" and clocks.fullmove is not None:
        raise FenError("the H field (halfmove clock) comes before the F field (move number)")
    if not (digits.isascii() and digits.isdigit()):
        raise FenError(f"the {letter} field ({name}) takes digits only, as in {example}, "
                       f"not {fen_excerpt(part)}")
    significant = digits.lstrip("0") or "0"   # H0000001 is 1
    value = int(significant[:6])
    if len(significant) > 6 or value > MAX_FEN_CLOCK:
        raise FenError(f"the {letter} field ({name}) is at most {MAX_FEN_CLOCK}, not "
                       f"{fen_excerpt(part)}")
    if letter == "H":
        return clocks._replace(halfmove=value)
    if value < 1:
        raise FenError("the F field (move number) counts from 1, not 0")
    return clocks._replace(fullmove=value)


def parse_fen(variant: Variant, text: str) -> Position:
    """Read a PDN FEN such as ``W:W21-32:B1-12`` or ``B:Wa1,Kd4:Bh8``.

    Accepts either colour's list first, a missing or empty side (``B:W6:B``), ranges on
    numeric boards, ``K`` before kings, surrounding quotes/whitespace and a trailing ``.``,
    and lidraughts' optional trailing fields ``:H<n>`` (halfmove clock) then ``:F<n>`` (move
    number), each at most once, digits only, at most :data:`MAX_FEN_CLOCK`: read and checked
    here, their values given by :func:`parse_fen_clocks`.
    Linear in ``len(text)``; text over :data:`MAX_FEN_TEXT` characters is refused first.
    Raises :class:`FenError` for bad syntax, squares that are not playing squares, a square
    given to both sides, a man on its own promotion row, or more pieces than a side starts with.
    """
    return parse_fen_clocks(variant, text)[0]


def parse_fen_clocks(variant: Variant, text: str) -> tuple[Position, FenClocks]:
    """:func:`parse_fen`, with the values of the FEN's ``H`` and ``F`` fields
    (:class:`FenClocks`, None for a field the FEN does not have)."""
    geo = geometry(variant)
    if len(text) > MAX_FEN_TEXT:
        raise FenError(
            f"FEN of {len(text)} characters is too long (at most {MAX_FEN_TEXT})")
    fen = text.strip().removesuffix(".").strip().strip('"').strip().removesuffix(".").strip()
    if not fen:
        raise FenError("empty FEN")
    parts = [p.strip() for p in fen.split(":")]
    turn_token = parts[0].upper()
    if turn_token not in ("W", "B"):
        raise FenError(
            f"FEN must start with the side to move, W or B, not {fen_excerpt(parts[0])} "
            "(as in W:W21-32:B1-12)"
        )
    turn = Color(turn_token)
    boards: dict[Color, tuple[int, int]] = {}
    clocks = FenClocks()
    for part in parts[1:]:
        if not part:
            raise FenError("empty field between colons")
        letter = part[0].upper()
        if letter in ("H", "F"):
            clocks = _clock(part, clocks)
            continue
        if letter not in ("W", "B"):
            raise FenError(
                "each FEN field after the side to move starts with W or B (then optionally "
                f"H<n>, F<n>), not {fen_excerpt(part)}"
            )
        if clocks != FenClocks():
            raise FenError("the H and F fields come after both sides' lists, not before "
                           f"{fen_excerpt(part)}")
        color = Color(letter)
        if color in boards:
            raise FenError(f"{color.word}'s pieces are given twice")
        boards[color] = _fen_squares(geo, color, part[1:])
    white, white_kings = boards.get(Color.WHITE, (0, 0))
    black, black_kings = boards.get(Color.BLACK, (0, 0))
    both = white & black
    if both:
        raise FenError(
            f"square {geo.labels(both)[0]} is given to both White and Black"
        )
    position = Position(white, black, white_kings | black_kings, turn)
    check_position(variant, position)
    return position, clocks


def check_position(variant: Variant, position: Position) -> None:
    """Raise :class:`FenError` if the position cannot arise in the variant.

    Checks: pieces only on playing squares, no square held by both sides, no man on its own
    promotion row (White men on the top row, Black men on the bottom row), no side with more
    pieces than it starts with, not an empty board (one side may have no pieces: it has lost),
    and under breakthrough not a king on each side (the first one ended the game).
    """
    geo = geometry(variant)
    off = (position.white | position.black | position.kings) & ~geo.mask
    if off:
        raise FenError("a piece stands off the playing squares")
    if position.white & position.black:
        raise FenError(f"square {geo.labels(position.white & position.black)[0]} is held by both sides")
    if not position.white | position.black:
        raise FenError("impossible position: the board is empty")
    if position.kings & ~(position.white | position.black):
        raise FenError("a king is marked on an empty square")
    white_men = position.white & ~position.kings
    black_men = position.black & ~position.kings
    if white_men & geo.top_row:
        sq = geo.labels(white_men & geo.top_row)[0]
        raise FenError(f"impossible position: a white man on {sq}, White's promotion row")
    if black_men & geo.bottom_row:
        sq = geo.labels(black_men & geo.bottom_row)[0]
        raise FenError(f"impossible position: a black man on {sq}, Black's promotion row")
    limit = variant.men_per_side
    for color, pieces in ((Color.WHITE, position.white), (Color.BLACK, position.black)):
        n = pieces.bit_count()
        if n > limit:
            raise FenError(
                f"impossible position: {color.word} has {n} pieces, more than the {limit} "
                f"a side starts with in {variant.name}"
            )
    if variant.breakthrough and position.kings & position.white and position.kings & position.black:
        raise FenError("impossible position under breakthrough: both sides have a king, but "
                       "the first king ends the game")


def _side(geo: Geometry, letter: str, pieces: int, kings: int) -> str:
    items = [
        ("K" if kings >> s & 1 else "") + geo.label(s)
        for s in geo.label_order
        if pieces >> s & 1
    ]
    return letter + ",".join(items)


def write_fen(variant: Variant, position: Position) -> str:
    """The canonical FEN: side to move, White's list, Black's list; squares ascending in
    notation order, kings marked ``K`` in place, no ranges (RULES.md section 4)."""
    geo = geometry(variant)
    return ":".join(
        (
            position.turn.value,
            _side(geo, "W", position.white, position.kings),
            _side(geo, "B", position.black, position.kings),
        )
    )


def diagram(variant: Variant, position: Position) -> str:
    """The board as text, White's side at the bottom as the board is printed in books: one
    line per rank (rank N first), squares separated by a space, ``w``/``b`` men, ``W``/``B``
    kings, ``.`` an empty playing square, `` `` (a space) a square that is never used; a last
    line says who is to move (``White to move``). No trailing spaces."""
    geo = geometry(variant)
    at = {geo.file_rank(sq): sq for sq in geo.squares}
    lines = []
    for rank in range(geo.size - 1, -1, -1):
        cells = []
        for file in range(geo.size):
            sq = at.get((file, rank))
            piece = None if sq is None else position.piece_at(sq)
            if sq is None:
                cells.append(" ")
            elif piece is None:
                cells.append(".")
            else:
                letter = "w" if piece[0] is Color.WHITE else "b"
                cells.append(letter.upper() if piece[1] else letter)
        lines.append(" ".join(cells).rstrip())
    lines.append(f"{position.turn.word.capitalize()} to move")
    return "\n".join(lines)


def square_letters(variant: Variant, position: Position, black: str = "b") -> str:
    """The board as one character per square in numeric order (square 1 first): ``e`` empty,
    ``w`` a white man, ``black`` a black man, upper case for kings. The board text of the Hub
    protocol (``black="b"``) and of DXP (``black="z"``); :func:`from_square_letters` reads it."""
    geo = geometry(variant)
    out = []
    for sq in sorted(geo.squares, key=geo.number):
        bit = 1 << sq
        ch = "w" if position.white & bit else black if position.black & bit else "e"
        out.append(ch.upper() if position.kings & bit else ch)
    return "".join(out)


def from_square_letters(variant: Variant, turn: Color, letters: str, black: str = "b") -> Position:
    """The position written by :func:`square_letters` (``letters``: one character a square,
    as many as the board has), ``turn`` to move. Raises :class:`FenError` for a character
    that is not ``e``, ``w``, ``black`` or their upper case, for a wrong length, and for an
    impossible position (:func:`check_position`)."""
    geo = geometry(variant)
    order = sorted(geo.squares, key=geo.number)
    if len(letters) != len(order):
        raise FenError(f"{len(order)} squares expected, not {len(letters)}")
    white_men, black_men = "wW", black + black.upper()
    white = blacks = kings = 0
    for sq, ch in zip(order, letters):
        bit = 1 << sq
        if ch in white_men:
            white |= bit
        elif ch in black_men:
            blacks |= bit
        elif ch != "e":
            raise FenError(f"square character {fen_excerpt(ch)} is not e, w, {black}, W or "
                           f"{black.upper()}")
        if ch.isupper():
            kings |= bit
    position = Position(white, blacks, kings, turn)
    check_position(variant, position)
    return position
