"""The tables of the REFERENCE move generator (``reference_movegen``; tests only): each
variant's steps, rays, jumps and rows as the generator reads them, built once per Variant
from :mod:`damiera.rules.geometry` and the rule parameters, and the bit helpers the generator
shares."""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from damiera.rules.geometry import (
    DOWN_LEFT,
    DOWN_RIGHT,
    OPPOSITE,
    UP_LEFT,
    UP_RIGHT,
    Geometry,
    geometry,
)
from damiera.rules.variant import Variant

#: Builds a Move from one tuple without the NamedTuple's Python-level ``__new__`` (half the
#: cost on the generator's hot path).
new_tuple: Final = tuple.__new__


class Tables:
    """Per-variant constants used by the generator (built once per Variant, cached)."""

    def __init__(self, variant: Variant):
        geo = geometry(variant)
        self.variant = variant
        self.geo = geo
        self.mask = geo.mask
        self.offsets = geo.offsets
        self.row = [geo.coords[s][0] if s in geo.coords else -1 for s in range(geo.nbits)]
        self.col = [geo.coords[s][1] if s in geo.coords else -1 for s in range(geo.nbits)]
        self.flying = variant.flying_kings
        self.land_behind = variant.king_lands_behind
        self.remove_at_once = variant.remove_captured_at_once
        self.men_take_kings = variant.men_capture_kings
        self.promotion = variant.promotion_during_capture
        self.choice = variant.capture_choice
        self.mandatory = variant.mandatory_capture
        # Per side to move (index 0 = White, 1 = Black).
        self.forward = ((UP_LEFT, UP_RIGHT), (DOWN_LEFT, DOWN_RIGHT))
        self.orthogonal = variant.orthogonal_captures
        # With orthogonal captures, four more directions: up, left, right, down, each to the
        # next playing square of the column (two rows) or of the row (two columns).
        self.neighbour: list[list[int]] = [list(n) for n in geo.neighbour]
        self.ray: list[list[tuple[int, ...]]] = [list(r) for r in geo.ray]
        self.opposite = list(OPPOSITE)
        all_dirs: tuple[int, ...] = (UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT)
        sideways: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
        if self.orthogonal:
            straight = ((-2, 0), (0, -2), (0, 2), (2, 0))  # up, left, right, down
            for dr, dc in straight:
                nb = [-1] * geo.nbits
                for sq, (r, c) in geo.coords.items():
                    nb[sq] = geo.by_coords.get((r + dr, c + dc), -1)
                rays = []
                for sq in range(geo.nbits):
                    line, at = [], nb[sq] if sq in geo.coords else -1
                    while at >= 0:
                        line.append(at)
                        at = nb[at]
                    rays.append(tuple(line))
                self.neighbour.append(nb)
                self.ray.append(rays)
            self.opposite += [7, 6, 5, 4]
            all_dirs = (*all_dirs, 4, 5, 6, 7)
            sideways = ((4, 5, 6), (5, 6, 7))
        self.king_dirs = all_dirs
        self.man_capture_dirs = (
            (all_dirs, all_dirs) if variant.men_capture_backward
            else (self.forward[0] + sideways[0], self.forward[1] + sideways[1])
        )
        self.promotion_row = (geo.top_row, geo.bottom_row)
        self.label_rank = {s: i for i, s in enumerate(geo.label_order)}
        h = geo.half
        # Bit shifts of the diagonal steps: "up" steps lower the bit index (x >> a moves a
        # piece up by a), "down" steps raise it (x << a).
        self.up_shifts = (h + 1, h)
        self.down_shifts = (h, h + 1)
        #: Per side: shift amounts of the men's forward steps (White up, Black down).
        self.men_capture_up = (
            self.up_shifts,
            self.up_shifts if variant.men_capture_backward else (),
        )
        self.men_capture_down = (
            self.down_shifts if variant.men_capture_backward else (),
            self.down_shifts,
        )
        #: jumps[side][sq]: (direction, captured square bit, captured square, landing bit,
        #: landing square) for each short jump a man of ``side`` could make from ``sq``.
        self.man_jumps = tuple(
            self._jumps(geo, self.neighbour, self.man_capture_dirs[side]) for side in (0, 1)
        )
        self.king_jumps = self._jumps(geo, self.neighbour, all_dirs)

    @staticmethod
    def _jumps(
        geo: Geometry, neighbour: list[list[int]], dirs: tuple[int, ...]
    ) -> tuple[tuple[tuple[int, int, int, int, int], ...], ...]:
        table: list[tuple[tuple[int, int, int, int, int], ...]] = [()] * geo.nbits
        for sq in geo.squares:
            entries = []
            for d in dirs:
                mid = neighbour[d][sq]
                land = neighbour[d][mid] if mid >= 0 else -1
                if land >= 0:
                    entries.append((d, 1 << mid, mid, 1 << land, land))
            table[sq] = tuple(entries)
        return tuple(table)


_TABLES: dict[int, tuple[Variant, Tables]] = {}


def tables(variant: Variant) -> Tables:
    """The generator's tables for a variant, cached by identity (hashing a Variant on every
    call would cost more than generating the moves)."""
    entry = _TABLES.get(id(variant))
    if entry is None or entry[0] is not variant:
        entry = _TABLES[id(variant)] = (variant, _cached_tables(variant))
    return entry[1]


@lru_cache(maxsize=64)
def _cached_tables(variant: Variant) -> Tables:
    return Tables(variant)


def shift(x: int, offset: int) -> int:
    """Move every bit of ``x`` by ``offset`` bit positions (positive = towards higher bits)."""
    return x << offset if offset > 0 else x >> -offset

