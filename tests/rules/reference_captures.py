"""Captures of the REFERENCE move generator (``reference_movegen``; tests only), RULES.md
sections 1 and 2: short and flying captures, multi-captures that must be completed, the
Turkish strike, flying-king landing with continuation, men that may not take kings, promotion
during a capture (stop, continue as a king, or pass through), then the capture-choice rules
and equal captures listed once."""

from __future__ import annotations

from typing import Final

from damiera.rules.geometry import popcount
from damiera.rules.movegen import Move
from damiera.rules.position import Position
from damiera.rules.variant import CaptureChoice, Color, PromotionDuringCapture, Variant
from tests.rules.reference_tables import Tables, new_tuple, tables

_STOP: Final = PromotionDuringCapture.PROMOTE_AND_STOP
_CONTINUE: Final = PromotionDuringCapture.PROMOTE_AND_CONTINUE


# ---------------------------------------------------------------------------------------------
# Captures


def _man_captures(
    t: Tables,
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
                    new_tuple(Move, (path[0], land, new_path, new_caps, new_captured,
                                new_captured & kings, True, False))
                )
            continue
        if not _man_captures(
            t, land, empty, targets, opp, new_captured, new_path, new_caps, side, kings, out
        ):
            out.append(
                new_tuple(Move, (path[0], land, new_path, new_caps, new_captured,
                            new_captured & kings, False, False))
            )
    return found


def _king_captures(
    t: Tables,
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
    back = t.opposite[came_from] if came_from >= 0 and not t.remove_at_once else -1
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
                    new_tuple(Move, (path[0], land, new_path, new_caps, new_captured,
                                new_captured & kings, promotes, by_king))
                )
        return found
    rays = t.ray
    for d in t.king_dirs:
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
                    new_tuple(Move, (path[0], land, path + (land,), new_caps, new_captured, ck,
                                promotes, by_king))
                )
    return found


def _man_capture_candidates(t: Tables, men: int, targets: int, empty: int, side: int) -> int:
    """Bitboard of the men that have at least one first jump (every man with orthogonal
    captures: the sequences themselves decide)."""
    if t.orthogonal:
        return men
    candidates = 0
    for a in t.men_capture_up[side]:
        # Shifted towards the lower bits only, so that no intermediate value outgrows the
        # board (63-bit ints stay unboxed when compiled).
        candidates |= ((men >> (a + a)) & (targets >> a) & empty) << (a + a)
    for a in t.men_capture_down[side]:
        candidates |= men & (targets >> a) & (empty >> (a + a))
    return candidates


def all_captures(t: Tables, own: int, opp: int, kings: int, side: int) -> list[Move]:
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
        return side_has_capture(t, position.white, position.black, position.kings, 0)
    return side_has_capture(t, position.black, position.white, position.kings, 1)


def side_has_capture(t: Tables, own: int, opp: int, kings: int, side: int) -> bool:
    if t.orthogonal:
        return bool(all_captures(t, own, opp, kings, side))
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
    if choice is CaptureChoice.VALUE:
        # n kings outweigh 2n - 1 men and not 2n: a man 100, a king 199 (at most 24 pieces)
        def value(m: Move) -> int:
            k = popcount(m.captured_kings)
            return 100 * (len(m.captures) - k) + 199 * k
        best = max(value(m) for m in captures)
        chosen = [m for m in captures if value(m) == best]
        return [m for m in chosen if m.by_king] or chosen
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


def _path_preference(t: Tables, move: Move) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Sort key among equal captures: the landing right behind each captured piece first
    (PDN 3.0; a turning square is the only landing that turns), then notation order."""
    row, col = t.row, t.col

    def steps(a: int, b: int) -> int:  # to the next playing square of the line, counted
        dr, dc = abs(row[a] - row[b]), abs(col[a] - col[b])
        return dr if dr == dc else (dr + dc) // 2

    gaps = tuple(steps(land, cap) for cap, land in zip(move.captures, move.path[1:]))
    return gaps, tuple(t.label_rank[s] for s in move.path)


def drop_equal_captures(variant: Variant, moves: list[Move]) -> list[Move]:
    """Merge captures with the same start, end, captured set and promotion into one move,
    written with the path PDN prescribes (RULES.md sections 1 and 4)."""
    if len(moves) < 2:
        return moves
    seen: dict[tuple[int, int, int, bool], Move] = {}
    t: Tables | None = None
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

