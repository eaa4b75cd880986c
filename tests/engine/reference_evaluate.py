"""A REFERENCE evaluation in Python, used only by the tests: the product's static scores come
from the native core (``csrc/eval.c``, through :class:`damiera.engine.evaluate.Evaluator`),
and ``tests/engine/test_native_search.py`` checks that both give the same score. The terms are
those of the evaluate module's table; their masks and per-square weights are built here from
the variant's geometry, independently of the core's own tables, and the patterns are read
square by square (:meth:`damiera.engine.patterns.PatternSet.pattern`).
"""

from __future__ import annotations

from damiera.engine.evaluate import (
    BACK_GUARD,
    BACK_GUARD_VS_KINGS,
    BALANCE,
    CENTRE,
    CHASE,
    DOUBLE_CORNER,
    KING_FLYING,
    KING_SHORT,
    KING_SHORT_SAFE,
    MAIN_DIAGONAL,
    MAN,
    MOBILITY,
    NO_MOVES,
    RUNAWAY_ROWS,
    RUNAWAY_STEP,
    TEMPO,
    Evaluator,
)
from damiera.engine.patterns import PatternSet, read_weights_file
from damiera.rules.geometry import geometry, iter_bits, popcount
from damiera.rules.position import Position
from damiera.rules.variant import Color, Variant


def _shift(x: int, offset: int) -> int:
    return x << offset if offset > 0 else x >> -offset


class _Tables:
    """The masks and per-square weights of the hand-made terms, built from the geometry."""

    def __init__(self, variant: Variant):
        geo = geometry(variant)
        n = self.size = variant.board_size
        self.mask = geo.mask
        self.flying = variant.flying_kings
        self.lands_behind = variant.king_lands_behind
        if variant.flying_kings:
            self.king_value = KING_FLYING
        elif variant.men_capture_kings:
            self.king_value = KING_SHORT
        else:
            self.king_value = KING_SHORT_SAFE
        self.start_pieces = 2 * variant.men_per_side
        self.back_guard, self.back_guard_vs_kings = BACK_GUARD, BACK_GUARD_VS_KINGS
        self.balance, self.mobility, self.tempo = BALANCE, MOBILITY, TEMPO
        rows = [0] * n
        for s in geo.squares:
            rows[geo.row(s)] |= 1 << s

        def adv(k: int) -> int:
            return round(2 * k + 20 * (k / (n - 2)) ** 3)

        self.white_sq = [0] * geo.nbits
        self.black_sq = [0] * geo.nbits
        for r in range(1, n - 1):
            for s in iter_bits(rows[r]):
                self.white_sq[s] += adv(n - 1 - r)
                self.black_sq[s] += adv(r)
        self.white_home, self.black_home = geo.bottom_row, geo.top_row
        self.left = self.right = self.main_diagonal = self.double_corner = 0
        for s, (r, c) in geo.coords.items():
            if n // 2 - 2 <= r <= n // 2 + 1 and 2 <= c <= n - 3:
                self.white_sq[s] += CENTRE
                self.black_sq[s] += CENTRE
            if r + c == n - 1:
                self.main_diagonal |= 1 << s
            if (r, c) in ((0, 1), (1, 0), (n - 1, n - 2), (n - 2, n - 1)):
                self.double_corner |= 1 << s
            if c <= n // 2 - 2:
                self.left |= 1 << s
            elif c >= n // 2 + 1:
                self.right |= 1 << s
        self.coords = dict(geo.coords)
        self.offsets = geo.offsets
        self.white_forward = (geo.offsets[0], geo.offsets[1])
        self.black_forward = (geo.offsets[2], geo.offsets[3])
        self.runaway_bonus = (self.king_value - MAN) // 2
        self.white_zone = self.black_zone = 0
        self.white_cone: dict[int, tuple[int, int]] = {}
        self.black_cone: dict[int, tuple[int, int]] = {}
        for s, (r, c) in geo.coords.items():
            for white in (True, False):
                to_go = r if white else n - 1 - r
                if not 1 <= to_go <= RUNAWAY_ROWS:
                    continue
                cone = 0
                for s2, (r2, c2) in geo.coords.items():
                    ahead = (r - r2) if white else (r2 - r)
                    if 1 <= ahead <= to_go and abs(c2 - c) <= ahead + 1:
                        cone |= 1 << s2
                if white:
                    self.white_zone |= 1 << s
                    self.white_cone[s] = (cone, to_go)
                else:
                    self.black_zone |= 1 << s
                    self.black_cone[s] = (cone, to_go)


class ReferenceEvaluator:
    """The Python evaluation of ``evaluator``'s terms (``evaluate(position)`` as its): the
    hand-made terms of its variant, and the pattern tables it was given or read."""

    def __init__(self, evaluator: Evaluator):
        self.ev = _Tables(evaluator.variant)
        assert (self.ev.king_value, self.ev.start_pieces) == (evaluator.king_value,
                                                             evaluator.start_pieces)
        tables = evaluator.tables
        if tables is None and evaluator.weights_file is not None:
            tables = read_weights_file(evaluator.variant, evaluator.weights_file)
        self.patterns = None if tables is None else PatternSet(geometry(evaluator.variant),
                                                               tables[0])
        self.tables = [] if tables is None else tables[1]

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
        if self.patterns is not None:
            score += self._patterns(wm, bm, left)
        if wk or bk:
            score = self._king_terms(score, wm, bm, wk, bk, nwk, nbk)
        tempo = self.ev.tempo
        return (score + tempo) if white_to_move else (tempo - score)

    def _patterns(self, wm: int, bm: int, pieces: int) -> int:
        """Sum of the trained window weights (White's view; see damiera.engine.patterns);
        with two phases, the opening's and the endgame's sums blended by ``pieces``."""
        assert self.patterns is not None
        windows = len(self.patterns.windows)
        phases = len(self.tables) // windows
        totals = [0] * phases
        for w in range(windows):
            p = self.patterns.pattern(w, wm, bm)
            for phase in range(phases):
                totals[phase] += self.tables[phase * windows + w][p]
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
        ending while the lone king holds the main road; never for kings that land right
        behind the piece they capture (Thai: two kings beat one)."""
        if not weak_kings or self.ev.lands_behind:
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
