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
king holds the draw    flying kings, the weaker side has a king: it cannot be beaten   score/8
                       by 2 pieces, nor by 3 on 10x10, nor by 3 on 8x8 while it holds
                       the main road. On 10x10 the stronger side's men count as the
                       kings they may become and the weaker side may keep men; on 8x8
                       only kings-only endings against a lone king
double corner          short kings, kings only, weaker side: each of its kings in a     30
                       double corner (the corner with two playing squares)
chase                  short kings, kings only, stronger side: each of its kings        4 x
                       gets ``4 x (N - distance to the nearest enemy king)``             (N - d)
patterns of men        where weights were trained for the variant's exact rules: one    trained
                       weight per window of rows x 4 files for the men it holds
                       (:mod:`damiera.engine.patterns`); shipped for every
                       named variant
=====================  ==============================================================  ========

Source of the values: common practice of draughts programs (man 100, flying king ~3 men,
short king ~1.5 men) and the endgame theory cited in the issue (a lone king in the double
corner; the lone king on the main road against three kings draws on 8x8, Petrov's triangle
needs the road); the small weights were set by hand and checked in engine matches. The
pattern weights are fitted to self-play on top of the hand-made terms
(``tools/train_patterns.py``). International's (windows of 4 rows, an opening's and an
endgame's table blended by the pieces left, fitted to the search scores of self-play games)
won its SPRTs against the hand-made evaluation and then against each earlier file at a
fixed node budget (``benchmarks/eval_results.md``), so it is used by default; so are those
of the six 8x8 variants (3-row windows fitted the same way to self-play games of each), each
after its own SPRTs.
The ``DAMIERA_EVAL`` environment variable switches them (``hand``: the hand-made terms
only). A variant without a file (the optional-capture house rule) plays with the hand-made
terms and values above. Earlier fits, all to game results, played worse or no better
(``search_results.md``): 1,400 self-play games at depth 5 (63.7% against py-draughts' 82%),
10,000 depth-3 games (lost 14 of 23), the hand-made weights fitted to 713 games against
py-draughts; so did the fit to the results of this session's games (``eval_results.md``).
"""

from __future__ import annotations

import warnings
from typing import Final

from damiera import _core
from damiera.engine.patterns import PatternSet, load_weights
from damiera.engine.switches import read_switch
from damiera.rules.geometry import Geometry, geometry
from damiera.rules.movegen import native_rules
from damiera.rules.position import Position
from damiera.rules.variant import Variant

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
#: Bits of one packed pattern field (a window's pattern is below 3 ** 8).
_FIELD: Final = 13


#: Whether the engine plays with the shipped trained patterns when nothing says otherwise:
#: True since International's file, then each 8x8 variant's, won an SPRT against the
#: hand-made evaluation (benchmarks/eval_results.md); a variant without a file (the
#: optional-capture house rule) plays the hand-made one.
LEARNED_BY_DEFAULT: Final = True
#: Environment variable that switches the learned evaluation: ``learned`` (use the shipped
#: weights where there are some for the variant's rules) or ``hand`` (never).
EVAL_SWITCH: Final = "DAMIERA_EVAL"


def learned_enabled() -> bool:
    """Whether an :class:`Evaluator` built without ``patterns=`` adds the shipped trained
    patterns: the :data:`EVAL_SWITCH` environment variable (``learned`` / ``hand``; unset or
    empty: :data:`LEARNED_BY_DEFAULT`). Raises :class:`~damiera.engine.switches.SwitchError`
    (a ValueError) for any other value."""
    default = "learned" if LEARNED_BY_DEFAULT else "hand"
    return read_switch(EVAL_SWITCH, ("learned", "hand"), default) == "learned"


class Evaluator:
    """The evaluation function of one variant: its masks, per-square weights and pattern
    tables, which the native core (``csrc/evaluate.c``) reads to compute every term.

    ``evaluate(position)`` -> int, centi-men from the side to move's point of view, or
    :data:`NO_MOVES` when the side to move has no quiet move (callers only ask when it has no
    capture either, so that means it has lost).

    ``patterns``: add the trained patterns of men when weights exist for the variant's rules
    (:func:`damiera.engine.patterns.load_weights`); None (the default): when
    :func:`learned_enabled` says so; ``tables``: use these instead of the stored ones,
    ``(rows per window, tables[w][pattern])`` (tests, training, matches of a candidate; twice
    as many tables for a two-phase set, the opening's windows first).
    Raises ValueError when ``tables`` do not fit the board; a stored weights file that does
    not, or cannot be read, is reported with a warning and left out.
    """

    def __init__(
        self,
        variant: Variant,
        patterns: bool | None = None,
        tables: tuple[int, list[list[int]]] | None = None,
    ):
        if patterns is None:
            patterns = learned_enabled()
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
        # Advancement and centre are sums over single men: one weight per square and side.
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
            except (ValueError, OSError) as exc:
                # A broken or unreadable weights file must not stop the engine: say so, play
                # without it.
                why = (str(exc) if isinstance(exc, ValueError)
                       else f"cannot read {exc.filename}: {exc.strerror or exc}")
                warnings.warn(f"{why}; playing without the trained patterns", stacklevel=2)
        self.pattern_weights: list[int] = []
        self.pattern_size = 0
        #: 1, or 2 when the tables are an opening's and an endgame's, blended by the pieces
        #: left (damiera.engine.patterns, "Phases").
        self.pattern_phases = 1
        self.row_shifts: list[int] = []
        self.row_mask = (1 << geo.half) - 1
        self.half = geo.half
        self.row_places: list[list[int]] = []
        self.window_rows = 0
        if tables is not None:
            rows_per_window, window_tables = tables
            pset = PatternSet(geo, rows_per_window)
            if len(window_tables) not in (len(pset.windows), 2 * len(pset.windows)) or any(
                len(t) != pset.size for t in window_tables
            ):
                sizes = sorted({len(t) for t in window_tables})
                raise ValueError(
                    f"pattern tables do not fit {rows_per_window}-row windows: "
                    f"{len(window_tables)} tables of {sizes} weights, expected "
                    f"{len(pset.windows)} (one phase) or {2 * len(pset.windows)} (two) "
                    f"of {pset.size}")
            for t in window_tables:
                self.pattern_weights.extend(t)
            self.pattern_phases = len(window_tables) // len(pset.windows)
            self.pattern_size = pset.size
            self.row_shifts = pset.row_shift
            self.window_rows = n - pset.rows + 1
            self.row_places = pset.row_tables(_FIELD)
        self._native = _core.Engine(
            native_rules(variant), self, 1024, 2 * variant.draw_moves_without_progress
        )

    def evaluate(self, pos: Position) -> int:
        """Static score of ``pos`` for the side to move (see the module table for terms),
        computed by the native core."""
        score: int = self._native.evaluate(pos)
        return score

