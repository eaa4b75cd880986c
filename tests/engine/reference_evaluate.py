"""A REFERENCE evaluation in Python, used only by the tests: the product's static scores come
from the native core (``csrc/evaluate.c``, through :class:`damiera.engine.evaluate.Evaluator`),
and ``tests/engine/test_native_search.py`` checks that both give the same score. The terms are
those of the evaluate module's table, computed from the Evaluator's own masks and weights.
"""

from __future__ import annotations

from damiera.engine.evaluate import (
    CHASE,
    DOUBLE_CORNER,
    MAIN_DIAGONAL,
    MAN,
    NO_MOVES,
    RUNAWAY_STEP,
    Evaluator,
)
from damiera.rules.geometry import iter_bits, popcount
from damiera.rules.position import Position
from damiera.rules.variant import Color

_FIELD = 13
_FIELD_MASK = (1 << _FIELD) - 1


def _shift(x: int, offset: int) -> int:
    return x << offset if offset > 0 else x >> -offset


class ReferenceEvaluator:
    """The Python evaluation of ``ev``'s terms (``evaluate(position)`` as Evaluator's)."""

    def __init__(self, ev: Evaluator):
        self.ev = ev

    def _mobility(self, men: int, kings: int, empty: int, forward: tuple[int, int]) -> int:
        """Number of quiet moves of one side (men forward, kings every way, flying or short)."""
        n = 0
        if men:
            for o in forward:
                n += popcount(_shift(men, o) & empty)
        if kings:
            flying = self.ev.flying
            for o in self.ev.offsets:
                frontier = _shift(kings, o) & empty
                if flying:
                    while frontier:
                        n += popcount(frontier)
                        frontier = _shift(frontier, o) & empty
                else:
                    n += popcount(frontier)
        return n

    def evaluate(self, pos: Position) -> int:
        """Static score of ``pos`` for the side to move (see the module table for terms)."""
        white, black, kings = pos.white, pos.black, pos.kings
        wk = white & kings
        bk = black & kings
        wm = white ^ wk
        bm = black ^ bk
        nwm = popcount(wm)
        nbm = popcount(bm)
        nwk = popcount(wk)
        nbk = popcount(bk)
        kv = self.ev.king_value
        wmat = nwm * MAN + nwk * kv
        bmat = nbm * MAN + nbk * kv
        score = wmat - bmat
        # Trade down when ahead.
        left = nwm + nbm + nwk + nbk
        # (rounded towards zero, so that the score of the mirrored position is the opposite)
        # (and so is a negative one, with more pieces than the start: C's division)
        num, den = abs(score) * (self.ev.start_pieces - left), 2 * self.ev.start_pieces
        trade = num // den if num >= 0 else -(-num // den)
        score += trade if score > 0 else -trade
        # Advancement and centre (per-chunk tables).
        white_sq, black_sq = self.ev.white_sq, self.ev.black_sq
        score += sum(white_sq[s] for s in iter_bits(wm)) - sum(black_sq[s] for s in iter_bits(bm))
        # Back-row guard.
        guard, guard_vs_kings = self.ev.back_guard, self.ev.back_guard_vs_kings
        score += (guard_vs_kings if bk else guard) * popcount(wm & self.ev.white_home)
        score -= (guard_vs_kings if wk else guard) * popcount(bm & self.ev.black_home)
        # Balance between the wings.
        lm, rm = self.ev.left, self.ev.right
        score -= self.ev.balance * (
            abs(popcount(white & lm) - popcount(white & rm))
            - abs(popcount(black & lm) - popcount(black & rm))
        )
        # Mobility.
        empty = self.ev.mask & ~(white | black)
        wmob = self._mobility(wm, wk, empty, self.ev.white_forward)
        bmob = self._mobility(bm, bk, empty, self.ev.black_forward)
        white_to_move = pos.turn is Color.WHITE
        if (wmob if white_to_move else bmob) == 0:
            return NO_MOVES
        score += self.ev.mobility * (wmob - bmob)
        # Runaway men (only while the opponent has no king that could catch them).
        if not bk and wm & self.ev.white_zone:
            score += self._runaways(wm & self.ev.white_zone, black | wm, self.ev.white_cone)
        if not wk and bm & self.ev.black_zone:
            score -= self._runaways(bm & self.ev.black_zone, white | bm, self.ev.black_cone)
        if self.ev.window_rows:
            score += self._patterns(wm, bm, left)
        if wk or bk:
            score = self._king_terms(score, wm, bm, wk, bk, nwk, nbk)
        tempo = self.ev.tempo
        return (score + tempo) if white_to_move else (tempo - score)

    def _patterns(self, wm: int, bm: int, pieces: int) -> int:
        """Sum of the trained window weights (White's view; see damiera.engine.patterns);
        with two phases, the opening's and the endgame's sums blended by ``pieces``."""
        h = self.ev.half
        row_mask = self.ev.row_mask
        xs = [((wm >> s) & row_mask) | (((bm >> s) & row_mask) << h) for s in self.ev.row_shifts]
        places = self.ev.row_places
        weights = self.ev.pattern_weights
        size = self.ev.pattern_size
        phases = self.ev.pattern_phases
        stride = len(weights) // phases
        totals = [0] * phases
        offset = 0
        for r0 in range(self.ev.window_rows):
            fields = 0
            for place, table in enumerate(places):
                fields += table[xs[r0 + place]]
            for _ in range(h - 1):
                for phase in range(phases):
                    totals[phase] += weights[phase * stride + offset + (fields & _FIELD_MASK)]
                fields >>= _FIELD
                offset += size
        if phases == 1:
            return totals[0]
        start = self.ev.start_pieces
        p = min(pieces, start)
        blend = totals[0] * p + totals[1] * (start - p)
        # C's division: rounded toward zero.
        return blend // start if blend >= 0 else -((-blend) // start)

    def _runaways(self, men: int, blockers: int, cones: dict[int, tuple[int, int]]) -> int:
        """RUNAWAY bonus for each man whose cone ahead holds no piece (see the module table)."""
        total = 0
        bonus = self.ev.runaway_bonus
        while men:
            low = men & -men
            men ^= low
            cone, to_go = cones[low.bit_length() - 1]
            if not cone & blockers:
                total += bonus - RUNAWAY_STEP * to_go
        return total

    def _king_terms(
        self, score: int, wm: int, bm: int, wk: int, bk: int, nwk: int, nbk: int
    ) -> int:
        """Terms that matter once kings are on the board (White's point of view)."""
        if self.ev.flying:
            d = self.ev.main_diagonal
            score += MAIN_DIAGONAL * (popcount(wk & d) - popcount(bk & d))
            if score > 0 and self._holds_draw(wm, wk, bm, bk):
                score //= 8
            elif score < 0 and self._holds_draw(bm, bk, wm, wk):
                score = -((-score) // 8)
            return score
        if wm or bm:
            return score
        # Short kings only: the weaker side runs to a double corner, the stronger side chases.
        dc = self.ev.double_corner
        if nwk > nbk:
            score -= DOUBLE_CORNER * popcount(bk & dc)
            score += self._chase(wk, bk)
        elif nbk > nwk:
            score += DOUBLE_CORNER * popcount(wk & dc)
            score -= self._chase(bk, wk)
        return score

    def _holds_draw(self, strong_men: int, strong_kings: int, weak_men: int,
                    weak_kings: int) -> bool:
        """A king against at most two pieces, or three on 10x10 (men counted as the kings
        they may become, the weaker side's men allowed), or three on 8x8 in a kings-only
        ending while the lone king holds the main road."""
        if not weak_kings:
            return False
        if self.ev.size < 10 and (strong_men or weak_men or popcount(weak_kings) != 1):
            return False
        strong = popcount(strong_men | strong_kings)
        return strong <= 2 or (strong == 3 and bool(self.ev.size >= 10
                                                    or weak_kings & self.ev.main_diagonal))

    def _chase(self, strong: int, weak: int) -> int:
        """CHASE x (N - distance) summed over the strong kings, distance to the nearest weak one."""
        coords = self.ev.coords
        weak_rc = []
        while weak:
            low = weak & -weak
            weak ^= low
            weak_rc.append(coords[low.bit_length() - 1])
        total = 0
        n = self.ev.size
        while strong:
            low = strong & -strong
            strong ^= low
            r, c = coords[low.bit_length() - 1]
            d = min(max(abs(r - r2), abs(c - c2)) for r2, c2 in weak_rc)
            total += CHASE * (n - d)
        return total
