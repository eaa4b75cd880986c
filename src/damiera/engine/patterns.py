"""Patterns of men for the evaluation: windows of the board and their trained weights.

A *window* is a block of ``rows`` consecutive rows (1 to 4, fixed by the weights file) by four
consecutive files starting on an even file: it holds two playing squares a row, each empty,
a white man or a black man (kings count as empty; the material and king terms score them).
A window's *pattern* is the number ``sum(state_k * 3**k)`` over its squares (state 0 empty,
1 white man, 2 black man; ``k = 2 x row-in-window + (0 left square, 1 right square)``), and
the evaluation adds one trained weight per window, in centi-men from White's point of view.
With windows of three rows there are 8 x 4 = 32 windows on 10x10 (729 patterns each), and
6 x 3 = 18 on 8x8.

The windows come from the board's geometry; the weights are trained (``tools/
train_patterns.py``: logistic regression of self-play results on the hand-made evaluation
plus the patterns) and stored per set of rule parameters (:func:`rules_key`), so a variant
gets them only if it plays exactly the rules they were trained under. A window and its
image under the 180-degree rotation with colours swapped share one table, negated, so that
the evaluation of a position and of its mirror image are opposite (a window that is its own
image, the middle one on 8x8, has a table that is its own negated mirror).

*Phases.* A file may hold two sets of tables: one for the full board and one for the bare
board. The evaluation then blends them by the pieces left, ``(opening x pieces + endgame x
(start - pieces)) / start`` (``start``: the pieces of the starting position), so a pattern
may be judged differently in the middlegame and in the ending.

File format (:func:`save_weights` writes it; the native core reads it, ``csrc/weights.c``,
for the engine and for :func:`load_weights`): the ASCII line ``damiera-patterns 3 ROWS WINDOWS
PHASES RULES CRC32\\n``, where PHASES is 1 (one set of tables) or 2 (the opening's, then the
endgame's), RULES the :func:`rules_key` of the rules the weights were trained for and CRC32
the CRC-32 (:func:`zlib.crc32`) of the weight bytes, 8 lowercase hex digits; then, for each
phase and each window whose index is not above its partner's, ``3 ** (2 x ROWS)``
little-endian signed 16-bit weights. Version 4, ``damiera-patterns 4 ROWS WINDOWS PHASES
TERMS RULES CRC32\\n``, adds after the tables the weights of the first TERMS learned terms
(:data:`damiera.engine.evaluate.TERM_NAMES`), little-endian signed 16-bit, inside the
checksum. Version 5, ``damiera-patterns 5 ROWS WINDOWS PHASES TERMS KROWS KWINDOWS RULES
CRC32\\n``, adds after the terms the tables of the *king windows*: windows of KROWS rows (1 to
3) whose squares have five states (0 empty, 1 white man, 2 black man, 3 white king, 4 black
king; pattern ``sum(state_k * 5**k)``), for each canonical window ``5 ** (2 x KROWS)``
weights, shared with the partner as above; the evaluation adds them only while a king is on
the board. A file is refused when it names other rules than those it is read for, or when
its weights do not match the checksum (a damaged file). Files of the older versions,
without rules key and checksum, are still read: ``damiera-patterns 1 ROWS WINDOWS\\n`` (one
set) and ``damiera-patterns 2 ROWS WINDOWS 2\\n`` (two).
"""

from __future__ import annotations

import sys
import zlib
from array import array
from numbers import Integral
from pathlib import Path

from damiera import _core
from damiera.rules.geometry import Geometry
from damiera.rules.movegen import core_of, native_rules
from damiera.rules.variant import Variant

#: Rows of a window by default (the weights file says how many its windows have).
ROWS = 4
#: Most rows of a king window (KING_WINDOW_MAX_ROWS in csrc/eval.h).
KING_ROWS = 3
_MAGIC = "damiera-patterns"
#: Most bytes of a weights file (the reader's limit, WEIGHTS_MAX_BYTES in csrc/weights.h).
MAX_FILE_BYTES = 16 << 20
_DIR = Path(__file__).with_name("patterns")


#: Fields of :class:`Variant` that a weights file is not keyed by (:func:`rules_key`): they
#: do not change the value of a position as the evaluation sees it. Names, notation and
#: numbering only label squares and moves; ``a1_dark`` only mirrors the labels (the internal
#: frame, in which windows are placed, is the same on a mirrored board, and the rules are
#: left-right symmetric); ``first_to_move`` only says who starts (the evaluation is
#: colour-symmetric: the half-turn with colours swapped gives the opposite score); the draw
#: rule counts moves, which a static evaluation does not see. Every other field is a rule
#: of play and is part of the key, so a file serves only variants that play exactly the
#: rules it was trained under (American's file serves American alone, not Italian, not
#: American with optional captures).
UNKEYED_FIELDS = frozenset({
    "id", "name", "notation", "numbering", "pdn_gametype", "capture_separator", "a1_dark",
    "first_to_move", "draw_moves_without_progress", "king_ending_draws",
})


def rules_key(variant: Variant) -> str:
    """A name for the rule parameters that the position's value depends on, e.g.
    ``10x10-4rows-back-flying-menkings-majority-pass_through-mandatory`` (every field of the
    variant except :data:`UNKEYED_FIELDS`; ``-losing`` / ``-breakthrough`` added when on)."""
    parts = [
        f"{variant.board_size}x{variant.board_size}",
        f"{variant.man_rows}rows",
        "back" if variant.men_capture_backward else "forward",
        "flying" if variant.flying_kings else "short",
        "menkings" if variant.men_capture_kings else "nomenkings",
        variant.capture_choice.value,
        variant.promotion_during_capture.value,
        "mandatory" if variant.mandatory_capture else "optional",
    ]
    # Rules most rule sets leave off name a file only when on, so older names stay valid.
    if variant.king_lands_behind:
        parts.append("landbehind")
    if variant.remove_captured_at_once:
        parts.append("removeatonce")
    if variant.orthogonal_captures:
        parts.append("orthogonal")
    if variant.all_squares:
        parts.append("allsquares")
    if variant.no_reverse_capture:
        parts.append("noreverse")
    if variant.back_rows_empty:
        parts.append(f"emptyback{variant.back_rows_empty}")
    if variant.king_quiet_move_limit:
        parts.append(f"kingmoves{variant.king_quiet_move_limit}")
    # The goal options, named only when on (the shipped files' names stay as they were).
    parts += [name for name, on in (("losing", variant.losing),
                                    ("breakthrough", variant.breakthrough)) if on]
    return "-".join(part.replace("-", "_") for part in parts)


def weights_path(variant: Variant) -> Path:
    """Where the weights for ``variant``'s rule parameters are (or would be) stored."""
    return _DIR / f"{rules_key(variant)}.bin"


class PatternSet:
    """The windows of one board.

    Attributes: ``rows`` (rows per window), ``states`` (3: a square is empty, a white man or
    a black man, kings read as empty; 5: king windows, a white king 3 and a black king 4
    too), ``windows`` (list of ``(top row, file pair j)``: the window covers files
    ``2j .. 2j+3``), ``squares[w]`` (its squares, in pattern-digit order), ``partner[w]``
    (the window it maps to under rotation + colour swap), ``size`` (``states ** (2 x rows)``
    patterns a window), ``row_shift[r]`` (bit offset of row r in the bitboard: a row's
    squares are consecutive bits, left to right).
    """

    def __init__(self, geo: Geometry, rows: int = ROWS, states: int = 3):
        if states not in (3, 5):
            raise ValueError(f"a window's squares have 3 or 5 states, not {states}")
        n = geo.size
        h = geo.half
        self.rows = rows
        self.states = states
        self.size = states ** (2 * rows)
        self.half = h
        self.row_shift = [r * h + r // 2 for r in range(n)]
        self.windows: list[tuple[int, int]] = []
        self.squares: list[list[int]] = []
        for r0 in range(n - rows + 1):
            for j in range(h - 1):
                sq: list[int] = []
                for i in range(rows):
                    r = r0 + i
                    cols = sorted(c for c in range(2 * j, 2 * j + 4) if (r + c) % 2 == 1)
                    sq.extend(geo.by_coords[(r, c)] for c in cols)
                self.windows.append((r0, j))
                self.squares.append(sq)
        index = {w: k for k, w in enumerate(self.windows)}
        self.partner = [index[(n - rows - r0, h - 2 - j)] for r0, j in self.windows]
        # A row's two squares in window column j are bits j and j+1 of the row (checked).
        for (r0, j), sq in zip(self.windows, self.squares):
            for i in range(rows):
                base = self.row_shift[r0 + i]
                assert sq[2 * i] == base + j and sq[2 * i + 1] == base + j + 1

    def canonical(self) -> list[int]:
        """Windows that own a table: index not above the partner's. A window that is its own
        partner (the middle one on 8x8) has an antisymmetric table: ``t[mirror[p]] == -t[p]``."""
        return [w for w, p in enumerate(self.partner) if w <= p]

    def mirror(self) -> list[int]:
        """``mirror()[p]``: the pattern that the rotated, colour-swapped board shows in the
        partner window when this window shows pattern p (the same for every window)."""
        k_count, states = 2 * self.rows, self.states
        out = []
        for p in range(self.size):
            q = 0
            for k in range(k_count):
                state = p // states**k % states
                swapped = (0, 2, 1, 4, 3)[state]
                # Row i -> rows-1-i, left <-> right: digit k -> k_count-1-k.
                q += swapped * states ** (k_count - 1 - k)
            out.append(q)
        return out

    def pattern(self, w: int, white_men: int, black_men: int, white_kings: int = 0,
                black_kings: int = 0) -> int:
        """The pattern of window ``w`` (reference implementation, one square at a time; kings
        are read only by king windows, ``states`` 5)."""
        p, states = 0, self.states
        for k, s in enumerate(self.squares[w]):
            if white_men >> s & 1:
                p += states**k
            elif black_men >> s & 1:
                p += 2 * states**k
            elif states == 5 and white_kings >> s & 1:
                p += 3 * states**k
            elif states == 5 and black_kings >> s & 1:
                p += 4 * states**k
        return p


def _packed_tables(patterns: PatternSet, tables: dict[int, list[int]],
                   which: str) -> array[int]:
    """The canonical windows' tables as 16-bit weights, checked as the reader checks them
    (see :func:`save_weights`); ``which`` names the set in a message."""
    mirror = patterns.mirror()
    out = array("h")
    for w in patterns.canonical():
        t = tables.get(w)
        if t is None or len(t) != patterns.size:
            raise ValueError(f"window {w}{which}: expected {patterns.size} weights")
        try:
            packed = array("h", t)
        except OverflowError:
            raise ValueError(f"window {w}{which}: a weight outside -32768..32767") from None
        if patterns.partner[w] != w and -32768 in packed:
            raise ValueError(f"window {w}{which} holds -32768, whose opposite does not "
                             "fit 16 bits")
        if patterns.partner[w] == w:
            # On the 16-bit weights as written (a numpy int16 -32768 is its own negation).
            bad = next((p for p in range(patterns.size) if packed[mirror[p]] != -packed[p]),
                       None)
            if bad is not None:
                raise ValueError(f"window {w} is its own mirror image, its{which} table is "
                                 f"not its negated mirror (pattern {bad})")
        out.extend(packed)
    return out


def save_weights(path: Path, patterns: PatternSet, tables: dict[int, list[int]],
                 endgame: dict[int, list[int]] | None = None, *, key: str,
                 terms: list[int] | tuple[int, ...] | None = None,
                 king_windows: tuple[PatternSet, dict[int, list[int]]] | None = None) -> None:
    """Write the canonical windows' tables (``tables[w]``, ``patterns.size`` ints each, in
    -32768..32767) to ``path`` (version 3), for the rules named ``key`` (:func:`rules_key` of
    the variant they were trained for); with ``endgame`` (the same shape), a two-phase file
    whose ``tables`` are the opening's; with ``terms`` (1 to ``damiera._core.TERMS`` weights
    of the learned terms, in -32768..32767), a version 4 file that weighs them too; with
    ``king_windows`` too (a :class:`PatternSet` of 5 states and 1-3 rows on the same board,
    and its canonical windows' tables), a version 5 file that holds them after the terms.

    Checks what the reader (``csrc/weights.c``) checks, so a file written reads back: windows
    of 1-4 rows; no weight -32768 (a partner's table holds the opposites, which must fit 16
    bits); the table of a window that is its own partner its own negated mirror
    (``t[mirror[p]] == -t[p]``); a file of at most :data:`MAX_FILE_BYTES`. Raises ValueError
    for a table that fails these, a missing table, a wrong size or a weight outside
    -32768..32767, ``terms`` of another length, king windows without terms, of other states
    or rows or of another board, or a ``key`` that is not a rules key (empty, or other than
    letters, digits, ``_`` and ``-``); TypeError for a ``key`` that is not a str or ``terms``
    that are not a list or tuple of ints (bools refused). Nothing is written when it
    raises."""
    if not isinstance(key, str):
        raise TypeError(f"the rules key must be a str, not {type(key).__name__}")
    if not key or not all(c.isascii() and (c.isalnum() or c in "_-") for c in key):
        raise ValueError(f"not a rules key: {key!r}")
    if not 1 <= patterns.rows <= 4:
        raise ValueError(f"windows of {patterns.rows} rows: a weights file holds 1-4")
    out = array("h")
    phases = (tables,) if endgame is None else (tables, endgame)
    for number, phase in enumerate(phases):
        which = "" if endgame is None else (" endgame", " opening")[number == 0]
        out.extend(_packed_tables(patterns, phase, which))
    version, counted = "3", ""
    if terms is not None:
        # A list or tuple of ints: bytes, sets, dicts and bools would each pass array("h")
        # as something other than the weights meant.
        if not isinstance(terms, (list, tuple)) or not all(
                isinstance(w, Integral) and not isinstance(w, bool) for w in terms):
            raise TypeError("the learned terms' weights must be a list or tuple of ints")
        terms = [int(w) for w in terms]
        if not 1 <= len(terms) <= _core.TERMS:
            raise ValueError(f"{len(terms)} learned terms: a weights file weighs 1 to "
                             f"{_core.TERMS}")
        try:
            out.extend(array("h", terms))
        except OverflowError:
            raise ValueError("a learned term's weight outside -32768..32767") from None
        version, counted = "4", f" {len(terms)}"
    if king_windows is not None:
        kings, king_tables = king_windows
        if terms is None:
            raise ValueError("king windows are written with the learned terms (version 5 "
                             "holds both): give terms")
        if kings.states != 5 or not 1 <= kings.rows <= KING_ROWS or kings.half != patterns.half \
                or len(kings.row_shift) != len(patterns.row_shift):
            raise ValueError(f"king windows are windows of 5 states and 1-{KING_ROWS} rows on "
                             f"the same board")
        out.extend(_packed_tables(kings, king_tables, " king"))
        version = "5"
        counted += f" {kings.rows} {len(kings.windows)}"
    if sys.byteorder != "little":
        out.byteswap()
    body = out.tobytes()
    header = (f"{_MAGIC} {version} {patterns.rows} {len(patterns.windows)} {len(phases)}"
              f"{counted} {key} {zlib.crc32(body):08x}\n").encode("ascii")
    if len(header) + len(body) > MAX_FILE_BYTES:
        raise ValueError(f"{len(header) + len(body)} bytes: a weights file holds at most "
                         f"{MAX_FILE_BYTES}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(header + body)


def load_weights(variant: Variant) -> tuple[int, list[list[int]]] | None:
    """``(rows per window, tables)``: the full table of every window of ``variant``
    (``tables[w][pattern]``, centi-men, White's view; a two-phase file gives twice as many
    tables, the opening's windows then the endgame's), or None when no weights were trained
    for its rule parameters.

    Raises ValueError when the path exists but is not a regular file, or the file does not
    fit the board (wrong header or size), names other rules or fails its checksum.
    """
    path = weights_path(variant)
    if not path.exists():
        return None
    return read_weights_file(variant, path)


def read_weights_file(variant: Variant, path: Path) -> tuple[int, list[list[int]]]:
    """``(rows per window, tables)`` of the weights file ``path`` for ``variant``'s board
    (as :func:`load_weights`, from any file: a candidate's, in a match), read by the native
    core, which reads the engine's files the same way (``csrc/weights.c``). Raises ValueError
    when ``path`` is not a regular file (a FIFO, a directory: refused without waiting on it),
    when the file does not fit the board, names other rules than ``variant``'s
    (:func:`rules_key`) or fails its checksum; OSError when it cannot be read."""
    rows, _phases, data, _king_rows, _kings = core_of(variant).read_weights(
        native_rules(variant), str(path), rules_key(variant))
    return rows, _split(data, 3 ** (2 * rows))


def read_king_windows(variant: Variant, path: Path) -> tuple[int, list[list[int]]] | None:
    """``(rows per king window, tables)`` of the weights file ``path`` for ``variant``'s
    board: every king window's full table (``5 ** (2 x rows)`` weights, White's view), or
    None for a file without king windows (before version 5). Raises as
    :func:`read_weights_file`."""
    _rows, _phases, _data, king_rows, kings = core_of(variant).read_weights(
        native_rules(variant), str(path), rules_key(variant))
    return (king_rows, _split(kings, 5 ** (2 * king_rows))) if king_rows else None


def _split(data: bytes, size: int) -> list[list[int]]:
    """The core's 16-bit weights (the machine's byte order) cut into tables of ``size``."""
    flat = array("h")
    flat.frombytes(data)
    return [flat[i:i + size].tolist() for i in range(0, len(flat), size)]
