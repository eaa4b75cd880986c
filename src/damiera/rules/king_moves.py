"""The rules of a game's history beyond its position (Frisian draughts, docs/rules.md): how
many quiet moves in a row one king may make while its side still has men, and the king-only
endings drawn after a few moves.

Neither rule can be read from a position (nor from a FEN, which lidraughts and pydraughts do
not extend for it either: both keep the count in the game's history), so they live in the
game: :class:`~damiera.rules.game.Game` keeps one :data:`Streak` a side after every move and
filters its legal moves with :func:`allowed`; the engine derives the same streaks from the
game's positions (:func:`streaks_of`) and plays only allowed moves at the root.

A streak is ``(square, count)``: the bit index of the king that made the side's last
``count`` moves, each a quiet move (no capture, no promotion) of that same king, or
``(-1, 0)``. It is counted from the positions alone: the mover's piece that left a square
and the one that arrived, whether anything was captured.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Final

from damiera.rules.movegen import CoreMove
from damiera.rules.position import Position
from damiera.rules.variant import Color, Variant

Streak = tuple[int, int]
#: No king has moved quietly in a row: the streak after a man's move or a capture.
NO_STREAK: Final[Streak] = (-1, 0)
#: A streak for each side: (White's, Black's).
Streaks = tuple[Streak, Streak]
START: Final[Streaks] = (NO_STREAK, NO_STREAK)


def _index(color: Color) -> int:
    return 0 if color is Color.WHITE else 1


def next_streaks(streaks: Streaks, before: Position, after: Position) -> Streaks:
    """The streaks after the move from ``before`` to ``after`` (two consecutive positions of
    a game; ``before.turn`` moved): the mover's grows by one when a king moved without
    capturing from where its streak ended, starts at one for another king's quiet move, and
    is cleared by a man's move or a capture; the other side's is unchanged."""
    mover = before.turn
    mine_before, mine_after = before.pieces(mover), after.pieces(mover)
    left, arrived = mine_before & ~mine_after, mine_after & ~mine_before
    captured = (before.white | before.black).bit_count() > (after.white | after.black).bit_count()
    streak = NO_STREAK
    if (left.bit_count() == 1 and arrived.bit_count() == 1 and before.kings & left
            and not captured):
        start, end = left.bit_length() - 1, arrived.bit_length() - 1
        square, count = streaks[_index(mover)]
        streak = (end, count + 1 if square == start else 1)
    return (streak, streaks[1]) if mover is Color.WHITE else (streaks[0], streak)


def streaks_of(positions: Sequence[Position]) -> Streaks:
    """The streaks after a game's positions (oldest first, the current one last)."""
    streaks = START
    for before, after in pairwise(positions):
        streaks = next_streaks(streaks, before, after)
    return streaks


def tired_king(variant: Variant, position: Position, streaks: Streaks) -> int:
    """The square (bit index) of the king that may not make another quiet move now, or -1:
    under ``variant.king_quiet_move_limit`` (0: none), the side to move still has men and
    its streak has reached the limit."""
    limit = variant.king_quiet_move_limit
    if not limit:
        return -1
    square, count = streaks[_index(position.turn)]
    if count < limit or not position.men(position.turn):
        return -1
    return square


def allowed(variant: Variant, position: Position, streaks: Streaks,
            moves: list[CoreMove]) -> list[CoreMove]:
    """``moves`` (the position's legal moves) without the quiet moves of the tired king
    (:func:`tired_king`); its captures stay."""
    square = tired_king(variant, position, streaks)
    if square < 0:
        return moves
    return [m for m in moves if m.captures or m.start != square]


def king_ending_draw(variant: Variant, position: Position, quiet_plies: int) -> bool:
    """True when ``position`` is a king-only ending of ``variant.king_ending_draws`` (kings
    of the stronger side, of the weaker side, moves each) that has lasted its moves:
    ``quiet_plies`` plies without a capture or a promotion, which is how long the ending has
    stood (reaching it took one or the other)."""
    if position.kings != position.white | position.black:
        return False
    counts = sorted((position.white.bit_count(), position.black.bit_count()), reverse=True)
    return any(counts == [strong, weak] and quiet_plies >= 2 * moves
               for strong, weak, moves in variant.king_ending_draws)
