"""Quiet moves of the REFERENCE move generator (``reference_movegen``; tests only): the
steps of men and the short or flying moves of kings, as moves and as a bulk count."""

from __future__ import annotations

from damiera.rules.geometry import popcount
from damiera.rules.movegen import Move
from tests.rules.reference_tables import Tables, new_tuple, shift

# ---------------------------------------------------------------------------------------------
# Quiet moves


def quiet_moves(t: Tables, own: int, opp: int, kings: int, side: int) -> list[Move]:
    empty = t.mask & ~(own | opp)
    offsets = t.offsets
    promo_row = t.promotion_row[side]
    out: list[Move] = []
    men = own & ~kings
    if men:
        for d in t.forward[side]:
            o = offsets[d]
            to_set = shift(men, o) & empty
            while to_set:
                low = to_set & -to_set
                to_set ^= low
                to = low.bit_length() - 1
                frm = to - o
                out.append(
                    new_tuple(Move, (frm, to, (frm, to), (), 0, 0, bool(promo_row & low), False))
                )
    own_kings = own & kings
    if own_kings:
        if t.flying:
            rays = t.ray
            while own_kings:
                low = own_kings & -own_kings
                own_kings ^= low
                frm = low.bit_length() - 1
                for d in (0, 1, 2, 3):
                    for to in rays[d][frm]:
                        if not empty >> to & 1:
                            break
                        out.append(new_tuple(Move, (frm, to, (frm, to), (), 0, 0, False, True)))
        else:
            for o in offsets:
                to_set = shift(own_kings, o) & empty
                while to_set:
                    low = to_set & -to_set
                    to_set ^= low
                    to = low.bit_length() - 1
                    frm = to - o
                    out.append(new_tuple(Move, (frm, to, (frm, to), (), 0, 0, False, True)))
    return out


def count_quiet(t: Tables, own: int, opp: int, kings: int, side: int) -> int:
    empty = t.mask & ~(own | opp)
    n = 0
    men = own & ~kings
    if men:
        if side == 0:
            for a in t.up_shifts:
                n += popcount(men >> a & empty)
        else:
            for a in t.down_shifts:
                n += popcount(men << a & empty)
    own_kings = own & kings
    if own_kings:
        if t.flying:
            for a in t.up_shifts:
                frontier = own_kings >> a & empty
                while frontier:
                    n += popcount(frontier)
                    frontier = frontier >> a & empty
            for a in t.down_shifts:
                frontier = own_kings << a & empty
                while frontier:
                    n += popcount(frontier)
                    frontier = frontier << a & empty
        else:
            for a in t.up_shifts:
                n += popcount(own_kings >> a & empty)
            for a in t.down_shifts:
                n += popcount(own_kings << a & empty)
    return n

