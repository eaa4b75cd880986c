"""Endgame databases: the exact value of every 8x8 position with few pieces.

The native core (``csrc/egdb.c``, :class:`damiera._core.Egdb`) solves, for one variant's rule
parameters, every position of at most ``pieces`` pieces (2 to 4) by retrograde analysis
with the rules core's own move generator, in memory; nothing is read from or written to disk.
A database is built on first use for a rule set and kept for the life of the process
(:func:`endgame_database`); the build time and memory are in ``benchmarks/egdb_results.md``.

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
from collections import OrderedDict
from dataclasses import dataclass
from enum import Enum
from typing import Final

from damiera import _core
from damiera.engine.patterns import rules_key
from damiera.rules.geometry import popcount
from damiera.rules.movegen import native_rules
from damiera.rules.position import Position
from damiera.rules.variant import Variant

#: Most pieces (both sides) a database may hold.
MAX_PIECES: Final = 4
#: Pieces of the database the computer's searches probe by default on 8x8 boards: 3 solves in
#: about a third of a second on first use; 4 takes 11-15 s (benchmarks/egdb_results.md).
DEFAULT_PIECES: Final = 3


def pieces_for(variant: Variant, pieces: int = DEFAULT_PIECES) -> int:
    """``pieces`` when ``variant``'s board has endgame databases (8x8, played for the usual
    goal: not under the losing rule nor breakthrough), else 0 (none)."""
    return pieces if variant.board_size == 8 and not (variant.losing or variant.breakthrough) else 0


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
#: reference, so dropping one only means solving it again on its next first use.
MAX_DATABASES: Final = 8
#: Solved databases by the rule parameters a position's value depends on (the weights' key,
#: :func:`damiera.engine.patterns.rules_key`) and pieces: rule sets that differ only in
#: name, notation or draw rules share one.
_DATABASES: OrderedDict[tuple[str, int], _core.Egdb] = OrderedDict()
_LOCK = threading.Lock()


def endgame_database(variant: Variant, pieces: int = DEFAULT_PIECES) -> _core.Egdb:
    """The database of ``variant``'s rule parameters for positions of up to ``pieces`` pieces,
    solved on the first call (seconds for 4 pieces) and then shared by every caller of the
    process and every rule set of the same rule parameters (the last :data:`MAX_DATABASES`
    kept). Raises ValueError for a board other than 8x8 or ``pieces`` outside 2..4."""
    if variant.board_size != 8:
        raise ValueError("endgame databases exist for 8x8 boards only")
    if variant.losing or variant.breakthrough:
        raise ValueError("endgame databases are solved for the usual goal, not under the "
                         "losing rule or breakthrough")
    if not 2 <= pieces <= MAX_PIECES:
        raise ValueError(f"pieces must be from 2 to {MAX_PIECES}, not {pieces}")
    key = (rules_key(variant), pieces)
    with _LOCK:
        db = _DATABASES.get(key)
        if db is None:
            db = _DATABASES[key] = _core.Egdb(native_rules(variant), pieces)
            while len(_DATABASES) > MAX_DATABASES:
                _DATABASES.popitem(last=False)
        else:
            _DATABASES.move_to_end(key)
        return db


def probe(variant: Variant, position: Position, pieces: int = DEFAULT_PIECES) -> Value | None:
    """The exact value of ``position`` (no draw rule applied), or None when it has more than
    ``pieces`` pieces or the side not to move has no piece left (a side to move without
    pieces has lost: a loss in 0 plies). Builds the database on first use."""
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
