"""Static evaluation of a position, built from the variant's rule parameters.

Scores are in *centi-men*: a man is worth 100. The evaluation is from the point of view of
the side to move (positive = good for the side to move), as negamax wants it.

Every term depends on rule parameters of :class:`~damiera.rules.variant.Variant` (board size,
flying kings, men capturing kings, men per side), never on the variant's name. The terms and
their values (``8x8`` / ``10x10`` where they differ):

=====================  ==============================================================  ========
term                   what it rewards                                                  value
=====================  ==============================================================  ========
material, man          each man                                                         100
material, king         each king: flying kings are worth about three men (they rule     300
                       whole diagonals); short kings about one and a half;              150
                       where men may not take kings (Italian rule) a short king is      170
                       safer, so worth more
advancement            a man's rows advanced from its home row ``k`` (0 .. N-2) give    2k + 20
                       ``2k + 20 (k / (N-2))^3``: steady, then steep near the king         (k/(N-2))^3
                       row (a man about to crown is nearly a king)
back-row guard         each man still on its own home row, while the opponent has       10 / 3
                       no king (10) or has kings (3): it stops the opponent crowning
centre                 each man on the central squares (middle four rows, files         5
                       c-f on 8x8 / c-h on 10x10)
balance                minus the difference between a side's pieces on the left wing    3
                       (files a-c / a-d) and on the right wing (f-h / g-j): a
                       lopsided formation is easily attacked
mobility               each quiet move available (men and kings, both sides)            2
tempo                  the side to move's initiative bonus (also damps the odd/even    8
                       swing of iterative deepening)
trade when ahead       material lead x (1 - pieces left / pieces at the start) x 0.5:   --
                       the side ahead trades down
runaway man            a man at most 3 rows from its king row with no piece in the     (K-100)/2
                       widening cone ahead of it, while the opponent has no king:      - 10 x rows
                       half the king's extra worth, less 10 per row still to go       to go
main diagonal          with flying kings, each king on the long diagonal (the "main     20
                       road", a1-h8 / a1-j10, h1-a8 on mirrored boards)
lone king drawn        kings only, the weaker side a lone king: with flying kings 1     score/8
                       king cannot be beaten by 2, nor by 3 on 8x8 while the lone
                       king holds the main road, nor by 3 on 10x10
double corner          short kings, kings only, weaker side: each of its kings in a     30
                       double corner (the corner with two playing squares)
chase                  short kings, kings only, stronger side: each of its kings        4 x
                       gets ``4 x (N - distance to the nearest enemy king)``             (N - d)
patterns of men        where weights were trained for the variant's exact rules: one    trained
                       weight per window of rows x 4 files for the men it holds
                       (:mod:`damiera.engine.patterns`); none are shipped yet
=====================  ==============================================================  ========

Source of the values: common practice of draughts programs (man 100, flying king ~3 men,
short king ~1.5 men) and the endgame theory cited in the issue (a lone king in the double
corner; the lone king on the main road against three kings draws on 8x8, Petrov's triangle
needs the road); the small weights were set by hand and checked in engine matches. The
pattern weights are fitted to self-play on top of the hand-made terms
(``tools/train_patterns.py``). None are shipped yet: the first fit (International, 1,400
self-play games at depth 5, windows of 3 rows, to the games' results) predicted held-out
results better (loss 0.5331 against 0.5532) but played worse against py-draughts (63.7%
against 82%); fits to the search scores instead (``fit-scores``) predict a quarter to a
third of what a depth-5 search adds and scored the same as none (82.5% over 120 games); a
fit to the results of 10,000 depth-3 games with a prior on every weight (held-out loss
0.5303 against 0.5540) lost 14 of its first 23 games. Fitting the hand-made weights to the
results of 713 games against py-draughts played no better either (``search_results.md``), so
every variant plays with the hand-made terms and values above.
"""

from __future__ import annotations

import warnings
from typing import Final

from damiera.engine.patterns import PatternSet, load_weights
from damiera.rules.geometry import Geometry, geometry, popcount
from damiera.rules.position import Position
from damiera.rules.variant import Color, Variant

MAN: Final = 100
KING_FLYING: Final = 300
KING_SHORT: Final = 150
KING_SHORT_SAFE: Final = 170
BACK_GUARD: Final = 10
BACK_GUARD_VS_KINGS: Final = 3
CENTRE: Final = 5
MOBILITY: Final = 2
BALANCE: Final = 3
TEMPO: Final = 8
MAIN_DIAGONAL: Final = 20
DOUBLE_CORNER: Final = 30
CHASE: Final = 4
RUNAWAY_ROWS: Final = 3
RUNAWAY_STEP: Final = 10
#: Score returned by :meth:`Evaluator.evaluate` when the side to move has no legal move
#: (given it has no capture): the caller turns it into a loss at the right ply.
NO_MOVES: Final = -(1 << 30)
#: Bits per chunk of the men's lookup tables.
_CHUNK: Final = 9
_CHUNK_MASK: Final = (1 << _CHUNK) - 1
#: Bits of one packed pattern field (a window's pattern is below 3 ** 8).
_FIELD: Final = 13
_FIELD_MASK: Final = (1 << _FIELD) - 1


def _shift(x: int, offset: int) -> int:
    return x << offset if offset > 0 else x >> -offset


class Evaluator:
    """The evaluation function of one variant, with its masks and weights precomputed.

    ``evaluate(position)`` -> int, centi-men from the side to move's point of view, or
    :data:`NO_MOVES` when the side to move has no quiet move (callers only ask when it has no
    capture either, so that means it has lost).

    ``patterns``: add the trained patterns of men when weights exist for the variant's rules
    (:func:`damiera.engine.patterns.load_weights`); ``tables``: use these instead of the
    stored ones, ``(rows per window, tables[w][pattern])`` (tests, training). Raises
    ValueError when ``tables`` do not fit the board; a stored weights file that does not
    is reported with a warning and left out.
    """

    def __init__(
        self,
        variant: Variant,
        patterns: bool = True,
        tables: tuple[int, list[list[int]]] | None = None,
    ):
        geo: Geometry = geometry(variant)
        self.variant = variant
        n = variant.board_size
        self.size = n
        self.mask = geo.mask
        self.flying = variant.flying_kings
        if variant.flying_kings:
            self.king_value = KING_FLYING
        elif variant.men_capture_kings:
            self.king_value = KING_SHORT
        else:
            self.king_value = KING_SHORT_SAFE
        self.start_pieces = 2 * variant.men_per_side
        # Weights as attributes (read once per call as locals; benchmarks may vary them, but
        # the centre weight only before the men's tables are built, below).
        self.back_guard = BACK_GUARD
        self.back_guard_vs_kings = BACK_GUARD_VS_KINGS
        self.centre_weight = CENTRE
        self.balance = BALANCE
        self.mobility = MOBILITY
        self.tempo = TEMPO
        rows: list[int] = [0] * n
        for s in geo.squares:
            rows[geo.row(s)] |= 1 << s

        def adv(k: int) -> int:
            return round(2 * k + 20 * (k / (n - 2)) ** 3)

        # (mask, weight) pairs: White advances from row n-1 upward, Black from row 0 down.
        white_adv = [(rows[r], adv(n - 1 - r)) for r in range(1, n - 1)]
        black_adv = [(rows[r], adv(r)) for r in range(1, n - 1)]
        self.white_home = geo.bottom_row
        self.black_home = geo.top_row
        centre = 0
        diag = 0
        dcorner = 0
        for s, (r, c) in geo.coords.items():
            if n // 2 - 2 <= r <= n // 2 + 1 and 2 <= c <= n - 3:
                centre |= 1 << s
            if r + c == n - 1:
                diag |= 1 << s
            if (r, c) in ((0, 1), (1, 0), (n - 1, n - 2), (n - 2, n - 1)):
                dcorner |= 1 << s
        # Advancement and centre are sums over single men: folded into one table per 9-bit
        # chunk of the bitboard and side, so that evaluating them is two lookups a chunk.
        white_sq = [0] * geo.nbits
        black_sq = [0] * geo.nbits
        for masks, table in ((white_adv, white_sq), (black_adv, black_sq)):
            for m, w in masks:
                for s in geo.squares:
                    if m >> s & 1:
                        table[s] += w
        for s in geo.squares:
            if centre >> s & 1:
                white_sq[s] += self.centre_weight
                black_sq[s] += self.centre_weight
        #: Advancement and centre per square (the native evaluation reads these).
        self.white_sq = white_sq
        self.black_sq = black_sq
        self.man_tables: list[tuple[int, list[int], list[int]]] = []
        for shift in range(0, geo.nbits, _CHUNK):
            white_t = [0] * (1 << _CHUNK)
            black_t = [0] * (1 << _CHUNK)
            for v in range(1, 1 << _CHUNK):
                low = v & -v
                sq = shift + low.bit_length() - 1
                rest = v ^ low
                inside = sq < geo.nbits
                white_t[v] = white_t[rest] + (white_sq[sq] if inside else 0)
                black_t[v] = black_t[rest] + (black_sq[sq] if inside else 0)
            self.man_tables.append((shift, white_t, black_t))
        left = right = 0
        for s, (_r, c) in geo.coords.items():
            if c <= n // 2 - 2:
                left |= 1 << s
            elif c >= n // 2 + 1:
                right |= 1 << s
        self.left = left
        self.right = right
        self.main_diagonal = diag
        self.double_corner = dcorner
        self.coords = dict(geo.coords)
        self.offsets = geo.offsets
        self.white_forward = (geo.offsets[0], geo.offsets[1])
        self.black_forward = (geo.offsets[2], geo.offsets[3])
        # Runaway men: for a man within RUNAWAY_ROWS rows of its king row, the squares ahead
        # of it (widening by one file per row, plus one) where any piece could stop it.
        self.runaway_bonus = (self.king_value - MAN) // 2
        white_zone = black_zone = 0
        self.white_cone: dict[int, tuple[int, int]] = {}
        self.black_cone: dict[int, tuple[int, int]] = {}
        for s, (r, c) in geo.coords.items():
            for color_white in (True, False):
                to_go = r if color_white else n - 1 - r
                if not 1 <= to_go <= RUNAWAY_ROWS:
                    continue
                cone = 0
                for s2, (r2, c2) in geo.coords.items():
                    ahead = (r - r2) if color_white else (r2 - r)
                    if 1 <= ahead <= to_go and abs(c2 - c) <= ahead + 1:
                        cone |= 1 << s2
                if color_white:
                    white_zone |= 1 << s
                    self.white_cone[s] = (cone, to_go)
                else:
                    black_zone |= 1 << s
                    self.black_cone[s] = (cone, to_go)
        self.white_zone = white_zone
        self.black_zone = black_zone
        # Trained patterns of men (damiera.engine.patterns), when there are weights for these
        # rules: each row's men index one packed table per place in a window
        # (PatternSet.row_tables), so a window-row's entries summed hold all its patterns.
        if tables is None and patterns:
            try:
                tables = load_weights(variant)
            except ValueError as exc:
                # A broken weights file must not stop the engine: say so, play without it.
                warnings.warn(f"{exc}; playing without the trained patterns", stacklevel=2)
        self.pattern_weights: list[int] = []
        self.pattern_size = 0
        self.row_shifts: list[int] = []
        self.row_mask = (1 << geo.half) - 1
        self.half = geo.half
        self.row_places: list[list[int]] = []
        self.window_rows = 0
        if tables is not None:
            rows_per_window, window_tables = tables
            pset = PatternSet(geo, rows_per_window)
            if len(window_tables) != len(pset.windows) or any(
                len(t) != pset.size for t in window_tables
            ):
                raise ValueError(f"pattern tables do not fit {rows_per_window}-row windows")
            for t in window_tables:
                self.pattern_weights.extend(t)
            self.pattern_size = pset.size
            self.row_shifts = pset.row_shift
            self.window_rows = n - pset.rows + 1
            self.row_places = pset.row_tables(_FIELD)

    # -----------------------------------------------------------------------------------------
    def _mobility(self, men: int, kings: int, empty: int, forward: tuple[int, int]) -> int:
        """Number of quiet moves of one side (men forward, kings every way, flying or short)."""
        n = 0
        if men:
            for o in forward:
                n += popcount(_shift(men, o) & empty)
        if kings:
            flying = self.flying
            for o in self.offsets:
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
        kv = self.king_value
        wmat = nwm * MAN + nwk * kv
        bmat = nbm * MAN + nbk * kv
        score = wmat - bmat
        # Trade down when ahead.
        left = nwm + nbm + nwk + nbk
        # (rounded towards zero, so that the score of the mirrored position is the opposite)
        trade = abs(score) * (self.start_pieces - left) // (2 * self.start_pieces)
        score += trade if score > 0 else -trade
        # Advancement and centre (per-chunk tables).
        for shift, white_t, black_t in self.man_tables:
            score += white_t[(wm >> shift) & _CHUNK_MASK] - black_t[(bm >> shift) & _CHUNK_MASK]
        # Back-row guard.
        guard, guard_vs_kings = self.back_guard, self.back_guard_vs_kings
        score += (guard_vs_kings if bk else guard) * popcount(wm & self.white_home)
        score -= (guard_vs_kings if wk else guard) * popcount(bm & self.black_home)
        # Balance between the wings.
        lm, rm = self.left, self.right
        score -= self.balance * (
            abs(popcount(white & lm) - popcount(white & rm))
            - abs(popcount(black & lm) - popcount(black & rm))
        )
        # Mobility.
        empty = self.mask & ~(white | black)
        wmob = self._mobility(wm, wk, empty, self.white_forward)
        bmob = self._mobility(bm, bk, empty, self.black_forward)
        white_to_move = pos.turn is Color.WHITE
        if (wmob if white_to_move else bmob) == 0:
            return NO_MOVES
        score += self.mobility * (wmob - bmob)
        # Runaway men (only while the opponent has no king that could catch them).
        if not bk and wm & self.white_zone:
            score += self._runaways(wm & self.white_zone, black | wm, self.white_cone)
        if not wk and bm & self.black_zone:
            score -= self._runaways(bm & self.black_zone, white | bm, self.black_cone)
        if self.window_rows:
            score += self._patterns(wm, bm)
        if wk or bk:
            score = self._king_terms(score, wm, bm, wk, bk, nwk, nbk)
        tempo = self.tempo
        return (score + tempo) if white_to_move else (tempo - score)

    def _patterns(self, wm: int, bm: int) -> int:
        """Sum of the trained window weights (White's view; see damiera.engine.patterns)."""
        h = self.half
        row_mask = self.row_mask
        xs = [((wm >> s) & row_mask) | (((bm >> s) & row_mask) << h) for s in self.row_shifts]
        places = self.row_places
        weights = self.pattern_weights
        size = self.pattern_size
        total = 0
        offset = 0
        for r0 in range(self.window_rows):
            fields = 0
            for place, table in enumerate(places):
                fields += table[xs[r0 + place]]
            for _ in range(h - 1):
                total += weights[offset + (fields & _FIELD_MASK)]
                fields >>= _FIELD
                offset += size
        return total

    def _runaways(self, men: int, blockers: int, cones: dict[int, tuple[int, int]]) -> int:
        """RUNAWAY bonus for each man whose cone ahead holds no piece (see the module table)."""
        total = 0
        bonus = self.runaway_bonus
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
        if self.flying:
            d = self.main_diagonal
            score += MAIN_DIAGONAL * (popcount(wk & d) - popcount(bk & d))
            if not wm and not bm:
                # Lone king against at most three kings: drawn unless the road is lost (8x8).
                if (nbk == 1 and nwk <= 3 and score > 0
                        and (nwk <= 2 or self.size >= 10 or bk & d)):
                    score //= 8
                elif (nwk == 1 and nbk <= 3 and score < 0
                        and (nbk <= 2 or self.size >= 10 or wk & d)):
                    score = -((-score) // 8)
            return score
        if wm or bm:
            return score
        # Short kings only: the weaker side runs to a double corner, the stronger side chases.
        dc = self.double_corner
        if nwk > nbk:
            score -= DOUBLE_CORNER * popcount(bk & dc)
            score += self._chase(wk, bk)
        elif nbk > nwk:
            score += DOUBLE_CORNER * popcount(wk & dc)
            score -= self._chase(bk, wk)
        return score

    def _chase(self, strong: int, weak: int) -> int:
        """CHASE x (N - distance) summed over the strong kings, distance to the nearest weak one."""
        coords = self.coords
        weak_rc = []
        while weak:
            low = weak & -weak
            weak ^= low
            weak_rc.append(coords[low.bit_length() - 1])
        total = 0
        n = self.size
        while strong:
            low = strong & -strong
            strong ^= low
            r, c = coords[low.bit_length() - 1]
            d = min(max(abs(r - r2), abs(c - c2)) for r2, c2 in weak_rc)
            total += CHASE * (n - d)
        return total
