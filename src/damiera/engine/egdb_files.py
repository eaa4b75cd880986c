"""Endgame databases on disk: where their files live, building them class by class (resumable)
and finding what is there.

A database of up to N pieces for one rule set is a folder of files, one per material class
(white men, white kings, black men, black kings; every class of 2 to N pieces with a piece on
each side), named ``WMWKBMBK.egdb`` (``2101.egdb``: two white men and a king against a black
man). The folder is named after the rule parameters the values depend on (the core's
``rules_key``, e.g. ``8x8-f0-b0-k1-c0-p0-l0-r0-o0-m1`` for American checkers), so rule sets
that play the same endgames share it. The file format (a header with the format version, the
rules' key, the class and checksums, then the class's value bytes deflated by zlib) is the
core's: ``csrc/egdb_file.h``; a file of another version, other rules or another class, or a
damaged one, is refused with :class:`EgdbFileError` saying why.

The folder of all databases is :func:`default_dir` (``DAMIERA_EGDB_DIR``, else the user's
data folder) unless a caller names one. Build times and sizes per piece count are in
``benchmarks/egdb_results.md``.
"""

from __future__ import annotations

import functools
import os
import shlex
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from damiera import _core
from damiera.engine.data_dir import data_dir
from damiera.rules.movegen import core_of, native_rules
from damiera.rules.variant import Variant

#: The environment variable naming the folder of the endgame databases.
ENV_DIR: Final = "DAMIERA_EGDB_DIR"
#: Most pieces a database on disk may hold (the core's limit: 6).
MAX_DISK_PIECES: Final = _core.EGDB_MAX_PIECES
#: Most pieces of a database by board size (the core's limits): 6 on 8x8 (10.5 G indices); 5 on
#: 10x10 (4.9 G indices, about 4.9 GB once read; 6 pieces would be 1.6e11, some 160 GB).
BOARD_MAX_PIECES: Final = {8: _core.EGDB_MAX_PIECES, 10: _core.EGDB_MAX_PIECES_10X10}
#: A class: white men, white kings, black men, black kings.
Class = tuple[int, int, int, int]


class EgdbFileError(ValueError):
    """An endgame file that cannot be used: another format or version, other rules or class,
    cut short or damaged, or unreadable (the message says which file and why)."""


def default_dir() -> Path:
    """The folder of the endgame databases: ``$DAMIERA_EGDB_DIR`` when set and not empty,
    else ``egdb`` in the user's data folder (platformdirs: ``~/.local/share/damiera/egdb`` on
    Linux)."""
    return data_dir(ENV_DIR, "egdb")


def unsupported(variant: Variant) -> str | None:
    """Why ``variant`` has no endgame databases, or None when it has: they are solved for the
    dark squares of an 8x8 or 10x10 board, the usual goal (not the losing rule nor
    breakthrough), and rules a position decides alone (no rule of the game's history such as a
    king-move limit or king-only endings' draws) whose parameters :func:`rules_key` names."""
    if variant.board_size not in (8, 10) or variant.all_squares:
        return "endgame databases exist for the dark squares of 8x8 and 10x10 boards only"
    if variant.losing or variant.breakthrough:
        return ("endgame databases are solved for the usual goal, not under the losing rule "
                "or breakthrough")
    history = [name for name, rule in (("a king-move limit", variant.king_quiet_move_limit),
                                       ("king-only endings' draws", variant.king_ending_draws),
                                       ("a ban on turning back", variant.no_reverse_capture))
               if rule]
    if history:
        return ("endgame databases are solved for rules a position decides alone, not for "
                + " and ".join(history))
    return None


def build_command(variant: Variant, pieces: int) -> str:
    """The shell command that builds ``variant``'s database of ``pieces`` pieces, for messages
    (the rule set's id quoted: a custom one's name may hold spaces)."""
    return f"damiera egdb build {shlex.quote(variant.id)} --pieces {pieces}"


def check_rules(variant: Variant) -> None:
    """Raise ValueError with the reason unless ``variant`` has endgame databases
    (:func:`unsupported`)."""
    reason = unsupported(variant)
    if reason is not None:
        raise ValueError(reason)


def max_pieces(variant: Variant) -> int:
    """Most pieces of a database of ``variant``'s board (:data:`BOARD_MAX_PIECES`)."""
    return BOARD_MAX_PIECES.get(variant.board_size, MAX_DISK_PIECES)


def check_pieces(variant: Variant, pieces: int) -> None:
    """Raise ValueError with the reason unless ``variant`` has databases and ``pieces`` is from
    2 to :func:`max_pieces` of its board."""
    check_rules(variant)
    most = max_pieces(variant)
    if not 2 <= pieces <= most:
        board = "" if most == MAX_DISK_PIECES else \
            f" on {variant.board_size}x{variant.board_size} boards"
        raise ValueError(f"pieces must be from 2 to {most}{board}, not {pieces}")


def empty_database(variant: Variant, pieces: int) -> _core.Egdb:
    """A database of up to ``pieces`` pieces with no class ready. Raises ValueError for a
    board without databases or ``pieces`` outside 2..:func:`max_pieces`."""
    check_pieces(variant, pieces)
    db: _core.Egdb = core_of(variant).Egdb(native_rules(variant), pieces, solve=False)
    return db


#: Most rules keys remembered (least recently used dropped first).
MAX_RULES_KEYS: Final = 64


def rules_key(variant: Variant) -> str:
    """The core's name of the rule parameters ``variant``'s endgame values depend on (e.g.
    ``8x8-f0-b0-k1-c0-p0-l0-r0-o0-m1``, see ``csrc/egdb.h``), which names its folder and is
    written in every file. Raises ValueError for rules without databases. Computed once per
    core rule object (:func:`~damiera.rules.movegen.native_rules`, shared by variants with
    the same rules: custom rule sets differing only in name share one), the last
    :data:`MAX_RULES_KEYS` kept."""
    check_rules(variant)
    return _rules_key(native_rules(variant))


@functools.lru_cache(maxsize=MAX_RULES_KEYS)
def _rules_key(rules: _core.Rules) -> str:
    return _core.Egdb(rules, 2, solve=False).rules_key


def rules_dir(variant: Variant, directory: Path | None = None) -> Path:
    """The folder of ``variant``'s rule parameters inside ``directory`` (default:
    :func:`default_dir`)."""
    return (directory or default_dir()) / rules_key(variant)


def class_name(cls: Class) -> str:
    """The file name of a class: ``2101.egdb``."""
    return "".join(str(n) for n in cls) + ".egdb"


def pieces_of(cls: Class) -> int:
    """Pieces of a class's positions."""
    return sum(cls)


def _load(db: _core.Egdb, cls: Class, path: Path, *, header_only: bool = False) -> None:
    """Read class ``cls`` from ``path`` into ``db`` (``header_only``: check its header, read
    nothing). Raises :class:`EgdbFileError` with the file and the reason."""
    try:
        (db.check if header_only else db.load)(cls, path)
    except OSError as exc:
        raise EgdbFileError(f"{path}: cannot read: {exc.strerror}") from None
    except ValueError as exc:
        raise EgdbFileError(str(exc)) from None


@dataclass(frozen=True)
class Step:
    """One class of a build: ``cls``, ``solved`` (False: it was on disk and was read),
    ``seconds`` spent on it, ``bytes`` of its file; ``positions`` and ``max_distance``
    (plies of the longest win) of the database so far, this class included."""

    cls: Class
    solved: bool
    seconds: float
    bytes: int
    positions: int
    max_distance: int


def build(variant: Variant, pieces: int, directory: Path | None = None) -> Iterator[Step]:
    """Build ``variant``'s database of up to ``pieces`` pieces in ``directory`` (default:
    :func:`default_dir`), class by class in solving order, yielding a :class:`Step` after each.
    A class whose file is already there is read (its checks run) instead of solved, so an
    interrupted build resumes where it stopped; each file is written whole or not at all.
    Raises ValueError (no databases for these rules, pieces out of range),
    :class:`EgdbFileError` (a file there is unusable: delete it to build it again), OSError
    (the folder cannot be written) or MemoryError."""
    db = empty_database(variant, pieces)
    folder = (directory or default_dir()) / db.rules_key
    folder.mkdir(parents=True, exist_ok=True)
    for cls in db.classes:
        path = folder / class_name(cls)
        start = time.perf_counter()
        solved = not path.exists()
        if solved:
            db.solve(cls)
            db.save(cls, path)
        else:
            _load(db, cls, path)
        yield Step(cls, solved, time.perf_counter() - start, path.stat().st_size,
                   db.positions, db.max_distance)


@dataclass(frozen=True)
class PieceCount:
    """What is on disk for positions of ``pieces`` pieces: ``present`` of ``total`` class
    files, ``bytes`` in all; ``unusable``: why each present file whose header is refused
    cannot be used (its path and the reason, as loading it would say)."""

    pieces: int
    present: int
    total: int
    bytes: int
    unusable: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        """Every class of this piece count is on disk (usable or not: see ``unusable``)."""
        return self.present == self.total


def _header_problem(db: _core.Egdb, cls: Class, path: Path) -> str | None:
    """Why ``path``'s header makes it unusable for ``cls`` (its format, version, rules,
    class, header checksum or length), or None; its values are not read."""
    try:
        _load(db, cls, path, header_only=True)
    except EgdbFileError as exc:
        return str(exc)
    return None


def info(variant: Variant, directory: Path | None = None) -> list[PieceCount]:
    """The class files of ``variant``'s rules in ``directory`` (default: :func:`default_dir`)
    per piece count, 2 to :func:`max_pieces` (present or not), each present file's header
    checked (128 bytes read; the values are checked only when the file is loaded). Raises
    ValueError for rules without databases."""
    folder = rules_dir(variant, directory)
    counts: list[PieceCount] = []
    db = empty_database(variant, max_pieces(variant))
    for n in range(2, max_pieces(variant) + 1):
        classes = [c for c in db.classes if pieces_of(c) == n]
        files = [(c, folder / class_name(c)) for c in classes]
        # Anything at a class's name counts (a directory or a dangling link too: unusable).
        present = [(c, f) for c, f in files if os.path.lexists(f)]
        problems = (_header_problem(db, c, f) for c, f in present)
        counts.append(PieceCount(n, len(present), len(classes),
                                 sum(f.stat().st_size for _, f in present if f.is_file()),
                                 tuple(p for p in problems if p is not None)))
    return counts


def pieces_on_disk(variant: Variant, directory: Path | None = None) -> int:
    """Most pieces N such that every class of 2 to N pieces of ``variant``'s rules is on disk
    (0: not even 2 pieces), whatever their headers say (:func:`load` says why a file cannot
    be used)."""
    found = 0
    for count in info(variant, directory):
        if not count.complete:
            break
        found = count.pieces
    return found


def load(variant: Variant, pieces: int, directory: Path | None = None,
         progress: Callable[[Class], None] | None = None) -> _core.Egdb:
    """``variant``'s database of up to ``pieces`` pieces read from ``directory`` (default:
    :func:`default_dir`), every class checked; ``progress`` is called after each class.
    Raises :class:`EgdbFileError` for a missing or unusable file, ValueError for rules or a
    piece count without databases."""
    db = empty_database(variant, pieces)
    folder = (directory or default_dir()) / db.rules_key
    for cls in db.classes:
        path = folder / class_name(cls)
        if not path.is_file():
            raise EgdbFileError(f"{path}: missing (build it: {build_command(variant, pieces)})")
        _load(db, cls, path)
        if progress is not None:
            progress(cls)
    return db
