"""Perft of the REFERENCE move generator (``reference_movegen``; tests only): leaf nodes
to a depth, equal captures counted once, bulk counting at the last ply."""

from __future__ import annotations

from damiera.rules.position import Position
from damiera.rules.variant import Color, Variant
from tests.rules.reference_captures import (
    all_captures,
    choose_captures,
    drop_equal_captures,
    side_has_capture,
)
from tests.rules.reference_quiet import count_quiet
from tests.rules.reference_tables import Tables, tables


def count_moves(variant: Variant, position: Position) -> int:
    """Number of legal moves, counted without building quiet moves (bulk counting)."""
    return perft(variant, position, 1)


def perft(variant: Variant, position: Position, depth: int) -> int:
    """Leaf nodes at ``depth`` plies (equal captures counted once; bulk counting at the
    last ply). Raises ValueError for a negative depth."""
    if depth < 0:
        raise ValueError(f"perft depth must be 0 or more, not {depth}")
    if depth == 0:
        return 1
    t = tables(variant)
    if position.turn is Color.WHITE:
        return _perft(t, position.white, position.black, position.kings, 0, depth)
    return _perft(t, position.black, position.white, position.kings, 1, depth)


def _perft(t: Tables, own: int, opp: int, kings: int, side: int, depth: int) -> int:
    """Perft on raw bitboards from the mover's point of view (``depth`` >= 1)."""
    total = 0
    if side_has_capture(t, own, opp, kings, side):
        captures = all_captures(t, own, opp, kings, side)
        if len(captures) > 1:
            captures = drop_equal_captures(t.variant, choose_captures(t.variant, captures))
        if depth == 1:
            total = len(captures)
        else:
            other = 1 - side
            for m in captures:
                sb = 1 << m.start
                eb = 1 << m.end
                captured = m.captured
                if kings & sb:
                    child_kings = (kings & ~sb & ~captured) | eb
                elif m.promotes:
                    child_kings = (kings & ~captured) | eb
                else:
                    child_kings = kings & ~captured
                total += _perft(
                    t, opp & ~captured, (own & ~sb) | eb, child_kings, other, depth - 1
                )
        if t.mandatory:
            return total
    if depth == 1:
        return total + count_quiet(t, own, opp, kings, side)
    return total + _perft_quiet(t, own, opp, kings, side, depth)


def _perft_quiet(t: Tables, own: int, opp: int, kings: int, side: int, depth: int) -> int:
    """Sum of perft(depth - 1) over the quiet moves, made on bitboards without Move objects."""
    empty = t.mask & ~(own | opp)
    promo_row = t.promotion_row[side]
    other = 1 - side
    below = depth - 1
    total = 0
    men = own & ~kings
    offsets = t.offsets
    if men:
        for d in t.forward[side]:
            o = offsets[d]
            to_set = (men << o if o > 0 else men >> -o) & empty
            while to_set:
                low = to_set & -to_set
                to_set ^= low
                frm = low >> o if o > 0 else low << -o
                child_kings = kings | low if promo_row & low else kings
                total += _perft(t, opp, own ^ frm ^ low, child_kings, other, below)
    own_kings = own & kings
    if own_kings:
        if t.flying:
            rays = t.ray
            while own_kings:
                frm = own_kings & -own_kings
                own_kings ^= frm
                sq = frm.bit_length() - 1
                base_own = own ^ frm
                base_kings = kings ^ frm
                for d in (0, 1, 2, 3):
                    for to in rays[d][sq]:
                        tb = 1 << to
                        if not empty & tb:
                            break
                        total += _perft(t, opp, base_own | tb, base_kings | tb, other, below)
        else:
            for o in offsets:
                to_set = (own_kings << o if o > 0 else own_kings >> -o) & empty
                while to_set:
                    low = to_set & -to_set
                    to_set ^= low
                    frm = low >> o if o > 0 else low << -o
                    moved = frm | low
                    total += _perft(t, opp, own ^ moved, kings ^ moved, other, below)
    return total
