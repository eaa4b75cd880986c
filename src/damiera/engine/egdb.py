"""Endgame databases: the exact value of every 8x8 or 10x10 position with few pieces.

The native core (``csrc/egdb.c``, :class:`damiera._core.Egdb`) solves, for one variant's rule
parameters, every position of at most ``pieces`` pieces by retrograde analysis with the rules
core's own move generator. :func:`endgame_database` reads a database from disk when
``damiera egdb build`` wrote one (:mod:`damiera.engine.egdb_files`: up to 6 pieces, in
:func:`~damiera.engine.egdb_files.default_dir` or a folder the caller names) and otherwise
solves it in memory on first use (:func:`memory_pieces`: 2 to 4 pieces on 8x8, 2 to 3 on
10x10); either is kept for the life of the process.
Build times, sizes and memory are in ``benchmarks/egdb_results.md``.

A value is the game-theoretic result for the side to move with best play and the number of
plies to the end of the game (the winner takes the shortest way, the loser the longest). No
draw rule is in the table: RULES.md section 1's no-progress rule (40 moves by each side without
capture or promotion) is applied on reading (:func:`value_under_draw_rule`), where the plies
already played without progress are known. A win (or loss) of ``d`` plies stands only when
``quiet + d`` stays below the limit; otherwise the rule may cut it, and the value is unknown.
A draw in the table is a draw under every draw rule.
"""

from __future__ import annotations

import threading
import warnings
from collections import OrderedDict
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Final

from damiera import _core
from damiera.engine import egdb_files
from damiera.engine.arguments import whole_number
from damiera.rules.geometry import popcount
from damiera.rules.movegen import core_of, native_rules
from damiera.rules.position import Position
from damiera.rules.variant import Variant

#: Most pieces (both sides) of a database solved in memory on first use, by board size; more
#: come from disk. On 8x8, 4 pieces solve in 11-15 s; on 10x10, 3 pieces in about a second and
#: 4 in about a minute (benchmarks/egdb_results.md).
MEMORY_PIECES: Final = {8: 4, 10: 3}
#: Pieces of the database the computer's levels 2 and 3 probe by default on 8x8 boards: 3
#: solves in about a third of a second on first use (benchmarks/egdb_results.md).
DEFAULT_PIECES: Final = 3
#: Board sizes whose levels probe a database by default: 8x8, where it was measured to pay in
#: whole games. On 10x10 the levels probe none unless asked (``Engine(endgame_pieces=)``,
#: ``--endgame-pieces``).
DEFAULT_BOARDS: Final = frozenset({8})


def memory_pieces(variant: Variant) -> int:
    """Most pieces of ``variant``'s database solved in memory on first use (:data:`MEMORY_PIECES`
    by board size; 0 for a board without databases)."""
    return MEMORY_PIECES.get(variant.board_size, 0)


def pieces_for(variant: Variant, pieces: int = DEFAULT_PIECES) -> int:
    """``pieces`` when ``variant`` has endgame databases (:func:`egdb_files.unsupported`: the
    dark squares of 8x8 or 10x10, the usual goal, no rule of the game's history), else 0
    (none)."""
    return pieces if egdb_files.unsupported(variant) is None else 0


def level_pieces(variant: Variant, pieces: int) -> int:
    """The pieces a level that asks for ``pieces`` probes in ``variant`` by default:
    :func:`pieces_for` on the boards of :data:`DEFAULT_BOARDS`, else 0."""
    return pieces_for(variant, pieces) if variant.board_size in DEFAULT_BOARDS else 0


class Result(Enum):
    """The result for the side to move."""

    WIN = 1
    DRAW = 0
    LOSS = -1


@dataclass(frozen=True)
class Value:
    """An exact value: ``result`` for the side to move, ``plies`` to the end of the game with
    best play (0 for a draw and for a side to move that has no legal move)."""

    result: Result
    plies: int


#: Most databases kept at once (least recently used dropped first); a search holds its own
#: reference, so dropping one only means reading or solving it again on its next first use.
MAX_DATABASES: Final = 8
#: Databases by the rule parameters a position's value depends on
#: (:func:`~damiera.engine.egdb_files.rules_key`: rule sets that differ only in name, notation
#: or draw rules share one), pieces and folder (None: solved in memory).
_DATABASES: OrderedDict[tuple[str, int, Path | None], _core.Egdb] = OrderedDict()
_LOCK = threading.Lock()


def endgame_database(variant: Variant, pieces: int = DEFAULT_PIECES,
                     directory: Path | None = None) -> _core.Egdb:
    """The database of ``variant``'s rule parameters for positions of up to ``pieces``
    pieces, shared by every caller of the process (the last :data:`MAX_DATABASES` kept): on
    the first call for these rules, pieces and folder, read from ``directory`` (default:
    :func:`~damiera.engine.egdb_files.default_dir`) when every class of 2 to ``pieces`` pieces
    is there, else solved in memory (:func:`memory_pieces`: seconds for 4 pieces on 8x8);
    later calls return that one. Raises ValueError for a board other than the dark squares of
    8x8 or 10x10, the losing rule or breakthrough, ``pieces`` outside 2 to
    :func:`~damiera.engine.egdb_files.max_pieces` (6 on 8x8, 5 on 10x10), or more than
    :func:`memory_pieces` pieces without their files on disk;
    :class:`~damiera.engine.egdb_files.EgdbFileError` for a file there that cannot be used
    when more than :func:`memory_pieces` pieces are asked for (up to that, a warning and the
    solve in memory)."""
    egdb_files.check_pieces(variant, pieces)
    folder = directory or egdb_files.default_dir()
    rules = egdb_files.rules_key(variant)
    key = (rules, pieces, folder)
    with _LOCK:
        db = _DATABASES.get(key)
        if db is None:
            if egdb_files.pieces_on_disk(variant, folder) >= pieces:
                try:
                    db = egdb_files.load(variant, pieces, folder)
                except egdb_files.EgdbFileError as exc:
                    if pieces > memory_pieces(variant):
                        raise
                    # What the memory can solve in seconds is not lost to one bad file.
                    warnings.warn(f"{exc}; solving the {pieces}-piece endgame database in "
                                  f"memory instead (delete the file to build it again)",
                                  stacklevel=2)
            elif pieces > memory_pieces(variant):
                raise ValueError(
                    f"no {pieces}-piece endgame database for {variant.id} in {folder} (build "
                    f"it: {egdb_files.build_command(variant, pieces)}); up to "
                    f"{memory_pieces(variant)} pieces are solved in memory")
            if db is None:  # one solve in memory, whichever folder had no usable files
                db = _DATABASES.get((rules, pieces, None))
                if db is None:
                    db = _DATABASES[(rules, pieces, None)] = core_of(variant).Egdb(
                        native_rules(variant), pieces)
            _DATABASES[key] = db
            while len(_DATABASES) > MAX_DATABASES:
                _DATABASES.popitem(last=False)
        else:
            _DATABASES.move_to_end(key)
        return db


def probe(variant: Variant, position: Position, pieces: int = DEFAULT_PIECES) -> Value | None:
    """The exact value of ``position`` (no draw rule applied), or None when it has more than
    ``pieces`` pieces or the side not to move has no piece left (a side to move without
    pieces has lost: a loss in 0 plies). Builds the database on first use. Raises ValueError
    as :func:`endgame_database` does (a board without databases, ``pieces`` out of range), for
    any position; TypeError for ``pieces`` that is not a whole number."""
    pieces = whole_number(pieces, "pieces")
    egdb_files.check_pieces(variant, pieces)
    if popcount(position.white | position.black) > pieces:
        return None
    found = endgame_database(variant, pieces).probe(position)
    if found is None:
        return None
    result, plies = found
    return Value(Result(result), plies)


def value_under_draw_rule(variant: Variant, position: Position, quiet: int,
                          pieces: int = DEFAULT_PIECES) -> Value | None:
    """:func:`probe` with the no-progress draw rule of RULES.md section 1 applied: ``quiet`` is
    the number of plies already played without capture or promotion. A win or loss stands when
    ``quiet + plies`` is below ``2 * variant.draw_moves_without_progress``; beyond, the rule may
    turn it into a draw and the value is unknown (None), as it is outside the database."""
    value = probe(variant, position, pieces)
    if value is None or value.result is Result.DRAW:
        return value
    if quiet + value.plies < 2 * variant.draw_moves_without_progress:
        return value
    return None
