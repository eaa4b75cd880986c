"""Board geometry: playing squares as bit indices, their official labels, and the diagonals.

Internal layout (the same for every variant): rows ``r`` run from the top (Black's side,
rank N) to the bottom (White's side, rank 1); ``c`` is the column in the un-mirrored frame, in
which the top row's dark squares are the odd columns. The bit index of a dark square is
``r * h + c // 2 + r // 2`` with ``h = N // 2``: one unused "ghost" bit after every two rows,
so the four diagonal neighbours of every square are at constant offsets
``-(h + 1)`` (up-left), ``-h`` (up-right), ``+h`` (down-left) and ``+h + 1`` (down-right), and a
step off the board lands on a ghost bit or outside the board, never on a playing square.

On mirrored boards (``Variant.a1_dark`` is False, h1 is dark) the real file is ``N - 1 - c``;
the rules are left-right symmetric, so only the labels change.

Where every square plays (``Variant.all_squares``, Turkish draughts, 8x8 only) the square
``(r, c)`` has bit ``r * N + c`` (64 bits, no ghost bit), and the four directions of the
board's lines are the straight ones: up, left, right and down, numbered like the diagonals so
that ``OPPOSITE`` holds for both (0 and 3, 1 and 2).

Labels (RULES.md section 2): numeric 1-32 / 1-50 counted from the top left (American, Italian,
International) or from White's lower right (Spanish), or algebraic ``a1``-``h8``.
:meth:`Geometry.label` and :meth:`Geometry.square` are the one pair that converts.
"""

from __future__ import annotations

from functools import cache

from damiera.rules.variant import Notation, Numbering, Variant

#: Direction numbers. UP is toward rank N (White's forward direction).
UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT = 0, 1, 2, 3
DIRECTIONS = (UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT)
OPPOSITE = (DOWN_RIGHT, DOWN_LEFT, UP_RIGHT, UP_LEFT)


def popcount(bits: int) -> int:
    """Number of set bits of a bitboard (a non-negative int of any size: the 12x12 board's
    layout takes 77 bits), the same as ``int.bit_count``."""
    return bits.bit_count()


class SquareError(ValueError):
    """A square label that is not a playing square of the board."""


class Geometry:
    """Squares, labels and diagonals of one board.

    Attributes (all squares are bit indices):
      ``size`` (N), ``half`` (N // 2), ``squares`` (playing squares in bit order),
      ``mask`` (bitboard of all playing squares), ``offsets`` (bit offset per direction),
      ``neighbour[d][s]`` (next square in direction d, or -1), ``ray[d][s]`` (all squares
      from s in direction d, nearest first), ``top_row`` / ``bottom_row`` (bitboards: White
      promotes on the top row, Black on the bottom row).
    """

    def __init__(self, size: int, a1_dark: bool, notation: Notation, numbering: Numbering,
                 all_squares: bool = False):
        self.size = size
        self.half = h = size // 2
        self.a1_dark = a1_dark
        self.notation = notation
        self.numbering = numbering
        self.all_squares = all_squares
        self.offsets = (-size, -1, 1, size) if all_squares else (-(h + 1), -h, h, h + 1)
        coords: dict[int, tuple[int, int]] = {}
        for r in range(size):
            for c in range(size):
                if all_squares:
                    coords[r * size + c] = (r, c)
                elif (r + c) % 2 == 1:
                    coords[r * h + c // 2 + r // 2] = (r, c)
        self.squares: tuple[int, ...] = tuple(sorted(coords))
        self.coords = coords
        self.by_coords = {rc: s for s, rc in coords.items()}
        self.mask = sum(1 << s for s in self.squares)
        self.nbits = max(self.squares) + 1
        steps = (((-1, 0), (0, -1), (0, 1), (1, 0)) if all_squares
                 else ((-1, -1), (-1, 1), (1, -1), (1, 1)))
        neighbour: list[list[int]] = []
        ray: list[list[tuple[int, ...]]] = []
        for dr, dc in steps:
            nb = [-1] * self.nbits
            rays: list[tuple[int, ...]] = [()] * self.nbits
            for s, (r, c) in coords.items():
                line = []
                rr, cc = r + dr, c + dc
                while 0 <= rr < size and 0 <= cc < size:
                    line.append(self.by_coords[(rr, cc)])
                    rr, cc = rr + dr, cc + dc
                rays[s] = tuple(line)
                nb[s] = line[0] if line else -1
            neighbour.append(nb)
            ray.append(rays)
        self.neighbour: tuple[tuple[int, ...], ...] = tuple(tuple(n) for n in neighbour)
        self.ray: tuple[tuple[tuple[int, ...], ...], ...] = tuple(tuple(r) for r in ray)
        self.top_row = sum(1 << s for s, (r, _) in coords.items() if r == 0)
        self.bottom_row = sum(1 << s for s, (r, _) in coords.items() if r == size - 1)
        self._labels: dict[int, str] = {s: self._make_label(s) for s in self.squares}
        self._by_label: dict[str, int] = {lab: s for s, lab in self._labels.items()}
        # FEN/notation order: numeric ascending, or algebraic by rank then file.
        self.label_order: tuple[int, ...] = tuple(sorted(self.squares, key=self._sort_key))

    def __reduce__(self) -> tuple[type[Geometry], tuple[int, bool, Notation, Numbering, bool]]:
        """Pickled and copied as ``Geometry(size, a1_dark, notation, numbering,
        all_squares)`` (rebuilt from its arguments rather than copied table by table)."""
        return (Geometry, (self.size, self.a1_dark, self.notation, self.numbering,
                           self.all_squares))

    # -- coordinates -------------------------------------------------------------------------
    def file_rank(self, square: int) -> tuple[int, int]:
        """Real (file, rank) of a square, both 0-based: file 0 = a, rank 0 = White's first row."""
        r, c = self.coords[square]
        file = c if self.a1_dark else self.size - 1 - c
        return file, self.size - 1 - r

    def row(self, square: int) -> int:
        """Internal row: 0 is the top (rank N), N-1 the bottom (rank 1)."""
        return self.coords[square][0]

    def number(self, square: int) -> int:
        """Official square number (1-based) under this board's numbering."""
        file, rank = self.file_rank(square)
        h = self.half
        if self.all_squares:  # every square counts: N a row
            if self.numbering is Numbering.FROM_TOP_LEFT:
                return (self.size - 1 - rank) * self.size + file + 1
            return rank * self.size + (self.size - 1 - file) + 1
        if self.numbering is Numbering.FROM_TOP_LEFT:
            return (self.size - 1 - rank) * h + file // 2 + 1
        return rank * h + (self.size - 1 - file) // 2 + 1

    def _make_label(self, square: int) -> str:
        if self.notation is Notation.NUMERIC:
            return str(self.number(square))
        file, rank = self.file_rank(square)
        return f"{chr(ord('a') + file)}{rank + 1}"

    def _sort_key(self, square: int) -> tuple[int, int]:
        if self.notation is Notation.NUMERIC:
            return (self.number(square), 0)
        file, rank = self.file_rank(square)
        return (rank, file)

    # -- the one conversion pair -------------------------------------------------------------
    def label(self, square: int) -> str:
        """Official label of a square (bit index) such as ``"22"`` or ``"c3"``."""
        return self._labels[square]

    def square(self, label: str) -> int:
        """Bit index of an official label. Raises :class:`SquareError` with the reason."""
        text = label.strip().lower()
        found = self._by_label.get(text)
        if found is not None:
            return found
        shown = _shorten(label)
        if not text:
            raise SquareError("a square is missing (empty label)")
        if self.notation is Notation.NUMERIC:
            if text.isascii() and text.isdigit():
                raise SquareError(
                    f"square {shown} does not exist: squares are numbered 1-{len(self.squares)}"
                )
            raise SquareError(f"{shown} is not a square number (1-{len(self.squares)})")
        last_file = chr(ord("a") + self.size - 1)
        rank = text[1:]
        if (
            "a" <= text[:1] <= last_file
            and rank.isascii()
            and rank.isdigit()
            and len(rank) <= 2
            and 1 <= int(rank) <= self.size
            and not self.all_squares
        ):
            raise SquareError(f"{shown} is a light square; pieces stand on dark squares only")
        raise SquareError(f"{shown} is not a square of the board (a1-{last_file}{self.size})")

    def labels(self, bitboard: int) -> list[str]:
        """Labels of the squares in a bitboard, in FEN order."""
        return [self._labels[s] for s in self.label_order if bitboard >> s & 1]


def _shorten(text: str, limit: int = 24) -> str:
    """``repr`` of user text, cut to ``limit`` characters so errors stay one short line."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


@cache
def _geometry(size: int, a1_dark: bool, notation: Notation, numbering: Numbering,
              all_squares: bool) -> Geometry:
    return Geometry(size, a1_dark, notation, numbering, all_squares)


def geometry(variant: Variant) -> Geometry:
    """The (shared, cached) geometry of a variant's board."""
    return _geometry(variant.board_size, variant.a1_dark, variant.notation, variant.numbering,
                     variant.all_squares)


def iter_bits(bitboard: int) -> list[int]:
    """Bit indices set in ``bitboard``, lowest first."""
    out = []
    while bitboard:
        low = bitboard & -bitboard
        out.append(low.bit_length() - 1)
        bitboard ^= low
    return out
