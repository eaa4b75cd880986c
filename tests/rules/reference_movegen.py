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

Squares are bit indices of :mod:`damiera.rules.geometry`; labels only appear at the edges
(:mod:`damiera.rules.notation`, FEN).
"""

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
    popcount,
)
from damiera.rules.movegen import Move
from damiera.rules.position import Position
from damiera.rules.variant import CaptureChoice, Color, PromotionDuringCapture, Variant

#: Builds a Move from one tuple without the NamedTuple's Python-level ``__new__`` (half the
#: cost on the generator's hot path).
_new: Final = tuple.__new__

_STOP: Final = PromotionDuringCapture.PROMOTE_AND_STOP
_CONTINUE: Final = PromotionDuringCapture.PROMOTE_AND_CONTINUE


class _Tables:
    """Per-variant constants used by the generator (built once per Variant, cached)."""

    def __init__(self, variant: Variant):
        geo = geometry(variant)
        self.variant = variant
        self.geo = geo
        self.mask = geo.mask
        self.neighbour = geo.neighbour
        self.ray = geo.ray
        self.offsets = geo.offsets
        self.row = [geo.coords[s][0] if s in geo.coords else -1 for s in range(geo.nbits)]
        self.flying = variant.flying_kings
        self.land_behind = variant.king_lands_behind
        self.remove_at_once = variant.remove_captured_at_once
        self.men_take_kings = variant.men_capture_kings
        self.promotion = variant.promotion_during_capture
        self.choice = variant.capture_choice
        self.mandatory = variant.mandatory_capture
        # Per side to move (index 0 = White, 1 = Black).
        self.forward = ((UP_LEFT, UP_RIGHT), (DOWN_LEFT, DOWN_RIGHT))
        all_dirs = (UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT)
        self.man_capture_dirs = (
            (all_dirs, all_dirs) if variant.men_capture_backward else self.forward
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
            self._jumps(geo, self.man_capture_dirs[side]) for side in (0, 1)
        )
        self.king_jumps = self._jumps(geo, all_dirs)

    @staticmethod
    def _jumps(
        geo: Geometry, dirs: tuple[int, ...]
    ) -> tuple[tuple[tuple[int, int, int, int, int], ...], ...]:
        table: list[tuple[tuple[int, int, int, int, int], ...]] = [()] * geo.nbits
        for sq in geo.squares:
            entries = []
            for d in dirs:
                mid = geo.neighbour[d][sq]
                land = geo.neighbour[d][mid] if mid >= 0 else -1
                if land >= 0:
                    entries.append((d, 1 << mid, mid, 1 << land, land))
            table[sq] = tuple(entries)
        return tuple(table)


_TABLES: dict[int, tuple[Variant, _Tables]] = {}


def tables(variant: Variant) -> _Tables:
    """The generator's tables for a variant, cached by identity (hashing a Variant on every
    call would cost more than generating the moves)."""
    entry = _TABLES.get(id(variant))
    if entry is None or entry[0] is not variant:
        entry = _TABLES[id(variant)] = (variant, _cached_tables(variant))
    return entry[1]


@lru_cache(maxsize=64)
def _cached_tables(variant: Variant) -> _Tables:
    return _Tables(variant)


def _shift(x: int, offset: int) -> int:
    """Move every bit of ``x`` by ``offset`` bit positions (positive = towards higher bits)."""
    return x << offset if offset > 0 else x >> -offset


# ---------------------------------------------------------------------------------------------
# Captures


def _man_captures(
    t: _Tables,
    sq: int,
    empty: int,
    targets: int,
    opp: int,
    captured: int,
    path: tuple[int, ...],
    caps: tuple[int, ...],
    side: int,
    kings: int,
    out: list[Move],
) -> bool:
    """Extend a man's capture from ``sq``; append complete sequences to ``out``.

    Returns True when at least one jump was possible from ``sq`` (so the sequence went on).
    """
    promo_row = t.promotion_row[side]
    found = False
    if t.remove_at_once:  # the pieces taken so far have left the board
        empty |= captured
    for d, mb, mid, lb, land in t.man_jumps[side][sq]:
        if not targets & mb or captured & mb or not empty & lb:
            continue
        found = True
        new_captured = captured | mb
        new_path = path + (land,)
        new_caps = caps + (mid,)
        if promo_row & lb:
            promotion = t.promotion
            if promotion is _STOP:
                went_on = False
            elif promotion is _CONTINUE:
                went_on = _king_captures(
                    t, land, empty, opp, new_captured, new_path, new_caps, d, kings, out,
                    True, False,
                )
            else:  # passes through as a man; crowned only if the move ends here
                went_on = _man_captures(
                    t, land, empty, targets, opp, new_captured, new_path, new_caps, side,
                    kings, out,
                )
            if not went_on:
                out.append(
                    _new(Move, (path[0], land, new_path, new_caps, new_captured,
                                new_captured & kings, True, False))
                )
            continue
        if not _man_captures(
            t, land, empty, targets, opp, new_captured, new_path, new_caps, side, kings, out
        ):
            out.append(
                _new(Move, (path[0], land, new_path, new_caps, new_captured,
                            new_captured & kings, False, False))
            )
    return found


def _king_captures(
    t: _Tables,
    sq: int,
    empty: int,
    opp: int,
    captured: int,
    path: tuple[int, ...],
    caps: tuple[int, ...],
    came_from: int,
    kings: int,
    out: list[Move],
    promotes: bool,
    by_king: bool,
) -> bool:
    """Extend a king's capture from ``sq`` (flying or short per the variant).

    ``came_from`` is the direction of the previous jump (-1 at the start): going straight
    back is impossible because the piece just jumped still blocks, unless captured pieces
    leave the board at once. Flying kings must land where the capture can go on when such
    landing squares exist (RULES.md section 1), or right behind the piece where the rules
    say so (docs/rules.md).
    Returns True when the sequence went on from ``sq``.
    """
    found = False
    back = OPPOSITE[came_from] if came_from >= 0 and not t.remove_at_once else -1
    if t.remove_at_once:  # the pieces taken so far have left the board
        empty |= captured
    if not t.flying:
        for d, mb, mid, lb, land in t.king_jumps[sq]:
            if d == back or not opp & mb or captured & mb or not empty & lb:
                continue
            found = True
            new_captured = captured | mb
            new_path = path + (land,)
            new_caps = caps + (mid,)
            if not _king_captures(
                t, land, empty, opp, new_captured, new_path, new_caps, d, kings, out,
                promotes, by_king,
            ):
                out.append(
                    _new(Move, (path[0], land, new_path, new_caps, new_captured,
                                new_captured & kings, promotes, by_king))
                )
        return found
    rays = t.ray
    for d in (0, 1, 2, 3):
        if d == back:
            continue
        ray = rays[d][sq]
        n = len(ray)
        i = 0
        while i < n and empty >> ray[i] & 1:
            i += 1
        if i >= n - 1:
            continue
        target = ray[i]
        tb = 1 << target
        if not opp & tb or captured & tb:
            continue
        j = i + 1
        if not empty >> ray[j] & 1:
            continue
        found = True
        new_captured = captured | tb
        new_caps = caps + (target,)
        went_on = False
        stops: list[int] = []
        while j < n and empty >> ray[j] & 1:
            land = ray[j]
            if _king_captures(
                t, land, empty, opp, new_captured, path + (land,), new_caps, d, kings, out,
                promotes, by_king,
            ):
                went_on = True
            elif not went_on:
                stops.append(land)
            j = n if t.land_behind else j + 1
        if not went_on:
            ck = new_captured & kings
            for land in stops:
                out.append(
                    _new(Move, (path[0], land, path + (land,), new_caps, new_captured, ck,
                                promotes, by_king))
                )
    return found


def _man_capture_candidates(t: _Tables, men: int, targets: int, empty: int, side: int) -> int:
    """Bitboard of the men that have at least one first jump."""
    candidates = 0
    for a in t.men_capture_up[side]:
        # Shifted towards the lower bits only, so that no intermediate value outgrows the
        # board (63-bit ints stay unboxed when compiled).
        candidates |= ((men >> (a + a)) & (targets >> a) & empty) << (a + a)
    for a in t.men_capture_down[side]:
        candidates |= men & (targets >> a) & (empty >> (a + a))
    return candidates


def _all_captures(t: _Tables, own: int, opp: int, kings: int, side: int) -> list[Move]:
    """Every complete capture sequence for the side to move, before the capture-choice rule."""
    empty = t.mask & ~(own | opp)
    men = own & ~kings
    own_kings = own & kings
    targets = opp if t.men_take_kings else opp & ~kings
    out: list[Move] = []
    if men and targets:
        candidates = _man_capture_candidates(t, men, targets, empty, side)
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            sq = low.bit_length() - 1
            _man_captures(t, sq, empty | low, targets, opp, 0, (sq,), (), side, kings, out)
    while own_kings:
        low = own_kings & -own_kings
        own_kings ^= low
        sq = low.bit_length() - 1
        _king_captures(t, sq, empty | low, opp, 0, (sq,), (), -1, kings, out, False, True)
    return out


def has_capture(variant: Variant, position: Position, color: Color | None = None) -> bool:
    """True when ``color`` (default: the side to move) has at least one capture in
    ``position`` (bitboard test, no sequences). Asking for the side not to move tells whether
    it threatens a capture."""
    t = tables(variant)
    if (position.turn if color is None else color) is Color.WHITE:
        return _has_capture(t, position.white, position.black, position.kings, 0)
    return _has_capture(t, position.black, position.white, position.kings, 1)


def _has_capture(t: _Tables, own: int, opp: int, kings: int, side: int) -> bool:
    empty = t.mask & ~(own | opp)
    men = own & ~kings
    if men:
        targets = opp if t.men_take_kings else opp & ~kings
        for a in t.men_capture_up[side]:
            if (men >> (a + a)) & (targets >> a) & empty:
                return True
        for a in t.men_capture_down[side]:
            if men & (targets >> a) & (empty >> (a + a)):
                return True
    own_kings = own & kings
    if not own_kings:
        return False
    if not t.flying:
        for a in t.up_shifts:
            if (own_kings >> (a + a)) & (opp >> a) & empty:
                return True
        for a in t.down_shifts:
            if own_kings & (opp >> a) & (empty >> (a + a)):
                return True
        return False
    for a in t.up_shifts:
        reach = own_kings >> a
        frontier = reach & empty
        while frontier:
            frontier >>= a
            reach |= frontier
            frontier &= empty
        if (reach & opp) >> a & empty:
            return True
    for a in t.down_shifts:
        reach = own_kings << a
        frontier = reach & empty
        while frontier:
            frontier <<= a
            reach |= frontier
            frontier &= empty
        if (reach & opp) << a & empty:
            return True
    return False


# ---------------------------------------------------------------------------------------------
# Capture choice and equal captures


def choose_captures(variant: Variant, captures: list[Move]) -> list[Move]:
    """Keep the captures the variant's capture-choice rule allows (RULES.md section 2)."""
    choice = variant.capture_choice
    if choice is CaptureChoice.FREE or len(captures) < 2:
        return captures
    if choice is CaptureChoice.KING_PRECEDENCE:
        by_king = [m for m in captures if m.by_king]
        return by_king or captures
    most = max(len(m.captures) for m in captures)
    chosen = [m for m in captures if len(m.captures) == most]
    if choice is CaptureChoice.MAJORITY or len(chosen) < 2:
        return chosen
    if choice is CaptureChoice.ITALIAN_PRIORITIES:
        by_king = [m for m in chosen if m.by_king]
        if by_king:
            chosen = by_king
    most_kings = max(popcount(m.captured_kings) for m in chosen)
    chosen = [m for m in chosen if popcount(m.captured_kings) == most_kings]
    if choice is CaptureChoice.ITALIAN_PRIORITIES and most_kings and len(chosen) > 1:
        first = min(m.king_jumps for m in chosen)
        chosen = [m for m in chosen if m.king_jumps == first]
    return chosen


def _path_preference(t: _Tables, move: Move) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Sort key among equal captures: the landing right behind each captured piece first
    (PDN 3.0; a turning square is the only landing that turns), then notation order."""
    row = t.row
    gaps = tuple(
        abs(row[land] - row[cap]) for cap, land in zip(move.captures, move.path[1:])
    )
    return gaps, tuple(t.label_rank[s] for s in move.path)


def drop_equal_captures(variant: Variant, moves: list[Move]) -> list[Move]:
    """Merge captures with the same start, end, captured set and promotion into one move,
    written with the path PDN prescribes (RULES.md sections 1 and 4)."""
    if len(moves) < 2:
        return moves
    seen: dict[tuple[int, int, int, bool], Move] = {}
    t: _Tables | None = None
    for m in moves:
        key = (m.start, m.end, m.captured, m.promotes)
        old = seen.get(key)
        if old is None:
            seen[key] = m
            continue
        if t is None:
            t = tables(variant)
        if _path_preference(t, m) < _path_preference(t, old):
            seen[key] = m
    if len(seen) == len(moves):
        return moves
    return list(seen.values())


# ---------------------------------------------------------------------------------------------
# Quiet moves


def _quiet_moves(t: _Tables, own: int, opp: int, kings: int, side: int) -> list[Move]:
    empty = t.mask & ~(own | opp)
    offsets = t.offsets
    promo_row = t.promotion_row[side]
    out: list[Move] = []
    men = own & ~kings
    if men:
        for d in t.forward[side]:
            o = offsets[d]
            to_set = _shift(men, o) & empty
            while to_set:
                low = to_set & -to_set
                to_set ^= low
                to = low.bit_length() - 1
                frm = to - o
                out.append(
                    _new(Move, (frm, to, (frm, to), (), 0, 0, bool(promo_row & low), False))
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
                        out.append(_new(Move, (frm, to, (frm, to), (), 0, 0, False, True)))
        else:
            for o in offsets:
                to_set = _shift(own_kings, o) & empty
                while to_set:
                    low = to_set & -to_set
                    to_set ^= low
                    to = low.bit_length() - 1
                    frm = to - o
                    out.append(_new(Move, (frm, to, (frm, to), (), 0, 0, False, True)))
    return out


def _count_quiet(t: _Tables, own: int, opp: int, kings: int, side: int) -> int:
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
    captures = _all_captures(t, own, opp, kings, side)
    if captures:
        if len(captures) > 1:
            captures = drop_equal_captures(variant, choose_captures(variant, captures))
        if t.mandatory:
            return captures
        return captures + _quiet_moves(t, own, opp, kings, side)
    return _quiet_moves(t, own, opp, kings, side)


def legal_moves(variant: Variant, position: Position) -> list[Move]:
    """Every legal move, sorted by start square, then path, in notation order.

    Shape: list of :class:`Move`; empty when the side to move has no legal move (it has lost).
    """
    rank = tables(variant).label_rank
    return sorted(generate(variant, position), key=lambda m: [rank[s] for s in m.path])


def count_moves(variant: Variant, position: Position) -> int:
    """Number of legal moves, counted without building quiet moves (bulk counting)."""
    return perft(variant, position, 1)


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
    # tuple.__new__ directly: the NamedTuple's own __new__ is Python code (see ``_new``).
    if position.turn is Color.WHITE:
        return _new(
            Position,
            ((position.white & ~sb) | eb, position.black & ~move.captured, kings, Color.BLACK),
        )
    return _new(
        Position,
        (position.white & ~move.captured, (position.black & ~sb) | eb, kings, Color.WHITE),
    )


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


def _perft(t: _Tables, own: int, opp: int, kings: int, side: int, depth: int) -> int:
    """Perft on raw bitboards from the mover's point of view (``depth`` >= 1)."""
    total = 0
    if _has_capture(t, own, opp, kings, side):
        captures = _all_captures(t, own, opp, kings, side)
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
        return total + _count_quiet(t, own, opp, kings, side)
    return total + _perft_quiet(t, own, opp, kings, side, depth)


def _perft_quiet(t: _Tables, own: int, opp: int, kings: int, side: int, depth: int) -> int:
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
