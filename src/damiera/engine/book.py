"""An opening book from Damiera's own analysis: its file format, where books are found and
how a book move is chosen.

A book maps opening positions to their legal moves, each with the score (centi-men, side to
move's view) and depth (plies) that Damiera's own search gave it when the book was built
(:mod:`damiera.engine.book_build`, ``damiera book build``); it holds no other engine's book
or games. The engine (:class:`damiera.engine.Engine`) plays a move from it when the position
is in it: one of the moves at most ``margin`` centi-men below the book's best, drawn with
weight ``exp(-d / (margin / 3))`` for a move ``d`` below the best (as the weaker moves of
:mod:`damiera.engine.levels`), so that the same game does not repeat; out of book it
searches.

File format, version 1 (:func:`write_book`, :func:`read_book`): gzip-compressed UTF-8 JSON,
one object::

    {"format": "damiera-book", "version": 1, "rules": "american",
     "settings": {"plies": 8, "full": 3, "time": 0.5, ...},
     "positions": [["B:W21,...:B1,...", [["11-15", 12, 14], ["9-13", 4, 14], ...]], ...]}

``rules`` is the variant's full id (rule options included); each position is its canonical
FEN (the key: no collision is possible) with its moves in full notation, best first, as
``[move, score, depth]``. ``settings`` records how it was built (free-form numbers and text).
On reading, the file is refused with :class:`BookFileError` (saying which file and why) when
it is not a regular file (a FIFO is refused at once, not waited on), larger than
:data:`MAX_BOOK_BYTES` compressed or :data:`MAX_JSON_BYTES` unpacked, not gzip, not JSON of
that shape, of another format, version or rule set, holds more than
:data:`MAX_POSITIONS` positions or :data:`MAX_MOVES` moves in one, a FEN that is not the
canonical one of its position, a move that is not legal there (every move is checked against
the rules core), a score beyond :data:`~damiera.engine.search.MATE` or a depth outside 0 ..
:data:`~damiera.engine.search.MAX_PLY`.

Books are files ``<variant full id>.book``, looked for in :func:`user_dir`
(``$DAMIERA_BOOK_DIR``, else ``books`` in the user's data folder: where ``damiera book build``
writes them) and then in the package (``damiera/engine/books/``, the books that ship).
"""

from __future__ import annotations

import functools
import gzip
import json
import math
import random
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from damiera.engine.data_dir import data_dir
from damiera.engine.search import MATE, MAX_PLY
from damiera.files import open_regular, replace_regular
from damiera.rules.movegen import CoreMove, legal_moves
from damiera.rules.notation import move_text
from damiera.rules.position import Position, parse_fen, write_fen
from damiera.rules.variant import Variant

FORMAT: Final = "damiera-book"
VERSION: Final = 1
#: Largest book file read (bytes, compressed).
MAX_BOOK_BYTES: Final = 8 * 1024 * 1024
#: Largest JSON text a book file may unpack to (bytes).
MAX_JSON_BYTES: Final = 96 * 1024 * 1024
#: Most positions in one book.
MAX_POSITIONS: Final = 400_000
#: Most moves of one position in a book.
MAX_MOVES: Final = 256
#: Default choice margin (centi-men): book moves at most this far below the best are played.
BOOK_MARGIN: Final = 20
#: The widest margin (centi-men) a builder or an engine takes: ten men, every sound move.
MAX_BOOK_MARGIN: Final = 1000
#: The environment variable naming the folder of built books (looked in before the package's).
ENV_DIR: Final = "DAMIERA_BOOK_DIR"
#: The package's folder of books.
PACKAGE_DIR: Final = Path(__file__).with_name("books")


class BookFileError(ValueError):
    """A book file that cannot be used: unreadable, too large, damaged, of another format,
    version or rule set, or with an illegal move (the message says which file and why)."""


@dataclass(frozen=True)
class BookMove:
    """One move of a book position: ``move`` (the core's move), ``text`` (full notation),
    ``score`` (centi-men, side to move's view) and ``depth`` (plies of the search that scored
    it)."""

    move: CoreMove
    text: str
    score: int
    depth: int


class Book:
    """An opening book of one variant: ``positions`` maps a position to its moves, best first
    (:class:`BookMove`); ``settings``: how it was built. Build one with
    :func:`damiera.engine.book_build.build_book`, read one with :func:`read_book`."""

    def __init__(self, variant: Variant,
                 positions: Mapping[Position, Iterable[BookMove]] | None = None,
                 settings: Mapping[str, object] | None = None):
        self.variant = variant
        self.positions: dict[Position, tuple[BookMove, ...]] = {}
        self.settings: dict[str, object] = dict(settings or {})
        for pos, moves in (positions or {}).items():
            self.add(pos, moves)

    def __len__(self) -> int:
        return len(self.positions)

    def __contains__(self, pos: object) -> bool:
        return pos in self.positions

    def add(self, pos: Position, moves: Iterable[BookMove]) -> None:
        """Store ``pos``'s scored moves (sorted best first here)."""
        self.positions[pos] = tuple(sorted(moves, key=lambda m: (-m.score, m.text)))

    def moves(self, pos: Position) -> tuple[BookMove, ...]:
        """The book's moves in ``pos``, best first (empty when out of book)."""
        return self.positions.get(pos, ())

    def candidates(self, pos: Position, margin: int = BOOK_MARGIN) -> list[BookMove]:
        """The moves the book may play in ``pos``: those at most ``margin`` centi-men below
        its best (empty out of book)."""
        moves = self.moves(pos)
        if not moves:
            return []
        best = moves[0].score
        return [m for m in moves if m.score >= best - margin]

    def choose(self, pos: Position, rng: random.Random,
               margin: int = BOOK_MARGIN) -> BookMove | None:
        """A book move for ``pos`` drawn from :meth:`candidates` with weight
        ``exp(-d / (margin / 3))`` for a move ``d`` centi-men below the best; None out of
        book. ``margin`` 0 plays the best move (the first of equal ones)."""
        found = self.candidates(pos, margin)
        if len(found) <= 1 or margin <= 0:
            return found[0] if found else None
        temperature = max(1.0, margin / 3)
        best = found[0].score
        return rng.choices(found, [math.exp(-(best - m.score) / temperature) for m in found])[0]


# -- files ------------------------------------------------------------------------------------
def book_json(book: Book) -> dict[str, object]:
    """The book as the JSON object of the file format (positions in FEN order)."""
    v = book.variant
    rows = sorted((write_fen(v, pos), [[m.text, m.score, m.depth] for m in moves])
                  for pos, moves in book.positions.items())
    return {"format": FORMAT, "version": VERSION, "rules": v.full_id,
            "settings": book.settings, "positions": [list(r) for r in rows]}


def write_book(book: Book, path: Path) -> int:
    """Write ``book`` to ``path`` (:func:`damiera.files.replace_regular`: through a temporary
    file beside it, so that an interrupted write never leaves half a book; through a symlink,
    keeping the file's permissions); returns its size in bytes. Raises OSError when it cannot
    be written (:class:`~damiera.files.NotRegularFileError` for a FIFO, a device or a
    directory) and ValueError for a book larger than the format's bounds."""
    if len(book) > MAX_POSITIONS:
        raise ValueError(f"a book holds at most {MAX_POSITIONS} positions, not {len(book)}")
    text = json.dumps(book_json(book), separators=(",", ":")).encode("utf-8")
    data = gzip.compress(text, compresslevel=9, mtime=0)
    if len(data) > MAX_BOOK_BYTES or len(text) > MAX_JSON_BYTES:
        raise ValueError(f"the book is too large for its format ({len(data):,} bytes)")
    with replace_regular(path) as handle:
        handle.write(data)
    return len(data)


def _unpack(path: Path) -> object:
    try:
        with open_regular(path) as fh:  # a FIFO is refused, not waited on
            data = fh.read(MAX_BOOK_BYTES + 1)
    except OSError as exc:
        raise BookFileError(f"{path}: cannot read it ({exc.strerror})") from None
    if len(data) > MAX_BOOK_BYTES:
        raise BookFileError(f"{path}: larger than {MAX_BOOK_BYTES:,} bytes, not a book")
    try:
        unpacker = zlib.decompressobj(wbits=31)  # gzip
        text = unpacker.decompress(data, MAX_JSON_BYTES + 1)
        if len(text) > MAX_JSON_BYTES or unpacker.unconsumed_tail:
            raise BookFileError(f"{path}: unpacks to more than {MAX_JSON_BYTES:,} bytes")
        if not unpacker.eof:
            raise BookFileError(f"{path}: cut short (the compressed data ends early)")
        return json.loads(text.decode("utf-8"))
    except zlib.error as exc:
        raise BookFileError(f"{path}: not a book (not gzip data: {exc})") from None
    except (UnicodeDecodeError, ValueError) as exc:
        if isinstance(exc, BookFileError):
            raise
        raise BookFileError(f"{path}: damaged (not JSON text: {exc})") from None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _position(variant: Variant, path: Path, fen: object) -> Position:
    if not isinstance(fen, str) or len(fen) > 1000:
        raise BookFileError(f"{path}: a position is not a FEN text")
    try:
        pos = parse_fen(variant, fen)
    except ValueError as exc:
        raise BookFileError(f"{path}: bad FEN {fen[:60]!r}: {exc}") from None
    if write_fen(variant, pos) != fen:
        raise BookFileError(f"{path}: {fen[:60]!r} is not the canonical FEN of its position")
    return pos


def _moves(variant: Variant, path: Path, fen: str, pos: Position, rows: object) -> list[BookMove]:
    if not isinstance(rows, list) or not 0 < len(rows) <= MAX_MOVES:
        raise BookFileError(f"{path}: position {fen[:60]!r} has no list of 1 to {MAX_MOVES} "
                            "moves")
    legal = {move_text(variant, m): m for m in legal_moves(variant, pos)}
    out = []
    for row in rows:
        if not (isinstance(row, list) and len(row) == 3 and isinstance(row[0], str)
                and _is_int(row[1]) and _is_int(row[2])):
            raise BookFileError(f"{path}: position {fen[:60]!r}: a move is not "
                                "[text, score, depth]")
        text, score, depth = row
        if text not in legal:
            raise BookFileError(f"{path}: {text[:40]!r} is not a legal move in {fen[:60]!r}")
        if abs(score) > MATE or not 0 <= depth <= MAX_PLY:
            raise BookFileError(f"{path}: move {text!r} in {fen[:60]!r} has a score or depth "
                                "out of range")
        out.append(BookMove(legal[text], text, score, depth))
    if len({m.text for m in out}) != len(out):
        raise BookFileError(f"{path}: position {fen[:60]!r} lists a move twice")
    return out


def read_book(variant: Variant, path: Path | str) -> Book:
    """Read and check the book file ``path`` for ``variant`` (see the module's text for the
    format and the checks). Raises :class:`BookFileError` naming the file and the fault; a
    path that is not a regular file is refused so at once, not waited on (a FIFO: ``PATH:
    cannot read it (a FIFO, not a regular file)``)."""
    path = Path(path)
    data = _unpack(path)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BookFileError(f"{path}: not a Damiera opening book")
    if data.get("version") != VERSION:
        raise BookFileError(f"{path}: book format version {data.get('version')!r}, this "
                            f"Damiera reads version {VERSION}")
    if data.get("rules") != variant.full_id:
        raise BookFileError(f"{path}: a book for {str(data.get('rules'))[:60]!r}, not "
                            f"{variant.full_id!r}")
    rows, settings = data.get("positions"), data.get("settings", {})
    if not isinstance(rows, list) or not isinstance(settings, dict):
        raise BookFileError(f"{path}: damaged (no list of positions)")
    if len(rows) > MAX_POSITIONS:
        raise BookFileError(f"{path}: more than {MAX_POSITIONS:,} positions")
    book = Book(variant, settings=settings)
    for row in rows:
        if not isinstance(row, list) or len(row) != 2:
            raise BookFileError(f"{path}: damaged (a position is not [fen, moves])")
        pos = _position(variant, path, row[0])
        if pos in book:
            raise BookFileError(f"{path}: position {row[0][:60]!r} is listed twice")
        book.add(pos, _moves(variant, path, row[0], pos, row[1]))
    return book


def user_dir() -> Path:
    """The folder of built books: ``$DAMIERA_BOOK_DIR`` when set and not empty, else
    ``books`` in the user's data folder (``~/.local/share/damiera/books`` on Linux)."""
    return data_dir(ENV_DIR, "books")


def file_name(variant: Variant) -> str:
    """The name of ``variant``'s book file: ``<full id>.book``."""
    return f"{variant.full_id}.book"


def book_path(variant: Variant) -> Path | None:
    """The book file of ``variant``: in :func:`user_dir` when there, else the package's; None
    when neither has one."""
    for folder in (user_dir(), PACKAGE_DIR):
        if (folder / file_name(variant)).is_file():
            return folder / file_name(variant)
    return None


@functools.lru_cache(maxsize=8)
def _cached(variant: Variant, path: Path, stamp: tuple[int, int]) -> Book:
    return read_book(variant, path)


def default_book(variant: Variant) -> Book | None:
    """The variant's book (:func:`book_path`), read once and kept while the file is unchanged;
    None when there is none. Raises :class:`BookFileError` for an unusable file."""
    path = book_path(variant)
    if path is None:
        return None
    stat = path.stat()
    return _cached(variant, path, (stat.st_mtime_ns, stat.st_size))
