"""A REFERENCE move generator in Python, used only by the tests: the product's moves come
from the native core (``csrc/movegen.c`` through :mod:`damiera.rules.movegen`), and
``tests/rules/test_native_vs_reference.py`` checks that the two never differ.

Move generation for every variant, driven only by the :class:`Variant` rule parameters.

Implements RULES.md sections 1 and 2: quiet moves of men and (short or flying) kings; short
and flying captures; multi-captures that must be completed; the Turkish strike (captured
pieces stay on the board until the move ends: they block and cannot be jumped twice, while
empty squares, the mover's start square included, may be crossed again); flying-king landing
with continuation; men that may not take kings; promotion during a capture (stop, continue as
a king, or pass through); the capture-choice rules; mandatory capture or the optional-capture
house rule; equal captures listed once; and the two capture rules of docs/rules.md (a flying
king landing right behind the captured piece, captured pieces removed as they are jumped).

The generator's parts: ``reference_tables`` (each variant's tables), ``reference_captures``
(captures, capture choice, equal captures), ``reference_quiet`` (quiet moves) and
``reference_perft`` (perft over them); this module puts them together into the legal moves.

Squares are bit indices of :mod:`damiera.rules.geometry`; labels only appear at the edges
(:mod:`damiera.rules.notation`, FEN).
"""

from __future__ import annotations

from damiera.rules.movegen import Move
from damiera.rules.position import Position
from damiera.rules.variant import Color, Variant
from tests.rules.reference_captures import all_captures, choose_captures, drop_equal_captures
from tests.rules.reference_quiet import quiet_moves
from tests.rules.reference_tables import new_tuple, tables

# ---------------------------------------------------------------------------------------------
# Public entry points


def generate(variant: Variant, position: Position) -> list[Move]:
    """Every legal move in the position, unordered (the generator's own order).

    The capture-choice rule is applied, equal captures are merged, and quiet moves are
    included only when there is no capture or the optional-capture house rule is on.
    """
    t = tables(variant)
    kings = position.kings
    if position.turn is Color.WHITE:
        own, opp, side = position.white, position.black, 0
    else:
        own, opp, side = position.black, position.white, 1
    captures = all_captures(t, own, opp, kings, side)
    if captures:
        if len(captures) > 1:
            captures = drop_equal_captures(variant, choose_captures(variant, captures))
        if t.mandatory:
            return captures
        return captures + quiet_moves(t, own, opp, kings, side)
    return quiet_moves(t, own, opp, kings, side)


def legal_moves(variant: Variant, position: Position) -> list[Move]:
    """Every legal move, sorted by start square, then path, in notation order.

    Shape: list of :class:`Move`; empty when the side to move has no legal move (it has lost).
    """
    rank = tables(variant).label_rank
    return sorted(generate(variant, position), key=lambda m: [rank[s] for s in m.path])


def apply_move(position: Position, move: Move) -> Position:
    """The position after ``move`` (which must be legal in ``position``): a new Position.

    Captured pieces are all removed at the end (Turkish strike); a man that ends on its
    promotion row is crowned when ``move.promotes`` says so.
    """
    sb = 1 << move.start
    eb = 1 << move.end
    kings = position.kings
    if kings & sb:
        kings = (kings & ~sb & ~move.captured) | eb
    else:
        kings &= ~move.captured
        if move.promotes:
            kings |= eb
    # tuple.__new__ directly: the NamedTuple's own __new__ is Python code (see ``new_tuple``).
    if position.turn is Color.WHITE:
        return new_tuple(
            Position,
            ((position.white & ~sb) | eb, position.black & ~move.captured, kings, Color.BLACK),
        )
    return new_tuple(
        Position,
        (position.white & ~move.captured, (position.black & ~sb) | eb, kings, Color.WHITE),
    )

