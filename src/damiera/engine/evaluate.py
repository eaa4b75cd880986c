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
learned terms          where a weights file of version 4 weighs them: one weight each   trained
                       for the few counts :data:`TERM_NAMES` names (a king's worth
                       early and late, men beside kings, kings against men only,
                       pieces when both sides have kings, men and their tempo in the
                       ending), fitted with the patterns
king windows           where a weights file of version 5 holds them, and only while a   trained
                       king is on the board: one weight per window of rows x 4 files
                       for the men and kings it holds (:mod:`damiera.engine.patterns`)
=====================  ==============================================================  ========

The terms are computed by the native core (``csrc/eval.c``), which builds its tables from the
rule parameters and reads the weights file itself; the values above are its constants, which
this module re-exports.

Source of the values: common practice of draughts programs (man 100, flying king ~3 men,
short king ~1.5 men) and the endgame theory cited in the issue (a lone king in the double
corner; the lone king on the main road against three kings draws on 8x8, Petrov's triangle
needs the road); the small weights were set by hand and checked in engine matches. The
pattern weights are fitted to self-play on top of the hand-made terms
(``tools/train_patterns.py``). International's (windows of 4 rows, an opening's and an
endgame's table blended by the pieces left, fitted to the search scores of self-play games)
won its SPRTs against the hand-made evaluation and then against each earlier file at a
fixed node budget (``benchmarks/eval_results.md``), so it is used by default; so are those
of the six 8x8 variants (windows fitted the same way to self-play games of each: 4 rows and
two phases for American and Russian, 3 rows for the others), each after its own SPRTs.
The ``DAMIERA_EVAL`` environment variable switches them (``hand``: the hand-made terms
only). A variant without a file (the optional-capture house rule, the goal options) plays
with the hand-made terms and values above. Under the losing rule the terms are replaced by
two: material counts against its owner (a man 100, a king its value above: it is the hardest
piece to give away) and each quiet move against its side (2: a side with few moves is close
to having none), plus the tempo; under breakthrough advancement weighs three times
(``EVAL_BT_ADVANCE``) and a runaway man is worth 600 less 10 a row to go
(``EVAL_BT_RUNAWAY``), since crowning wins. Earlier fits, all to game results, played worse
or no better
(``search_results.md``): 1,400 self-play games at depth 5 (63.7% against py-draughts' 82%),
10,000 depth-3 games (lost 14 of 23), the hand-made weights fitted to 713 games against
py-draughts; so did the fit to the results of this session's games (``eval_results.md``).
"""

from __future__ import annotations

import os
import warnings
from array import array
from pathlib import Path
from typing import Final

from damiera import _core
from damiera.engine.patterns import PatternSet, rules_key, weights_path
from damiera.engine.switches import read_switch
from damiera.rules.geometry import geometry
from damiera.rules.movegen import core_of, native_rules
from damiera.rules.position import Position
from damiera.rules.variant import Variant

MAN: Final[int] = _core.MAN
KING_FLYING: Final[int] = _core.KING_FLYING
KING_SHORT: Final[int] = _core.KING_SHORT
KING_SHORT_SAFE: Final[int] = _core.KING_SHORT_SAFE
BACK_GUARD: Final[int] = _core.BACK_GUARD
BACK_GUARD_VS_KINGS: Final[int] = _core.BACK_GUARD_VS_KINGS
CENTRE: Final[int] = _core.CENTRE
MOBILITY: Final[int] = _core.MOBILITY
BALANCE: Final[int] = _core.BALANCE
TEMPO: Final[int] = _core.TEMPO
MAIN_DIAGONAL: Final[int] = _core.MAIN_DIAGONAL
DOUBLE_CORNER: Final[int] = _core.DOUBLE_CORNER
CHASE: Final[int] = _core.CHASE
RUNAWAY_ROWS: Final[int] = _core.RUNAWAY_ROWS
RUNAWAY_STEP: Final[int] = _core.RUNAWAY_STEP
#: The learned terms a weights file of version 4 weighs, in its order (``csrc/eval.h``,
#: "Learned terms", defines each feature: White's count less Black's, in units of
#: 1/``start_pieces``, some growing or fading with the pieces left).
TERM_NAMES: Final[tuple[str, ...]] = (
    "kings", "kings_opening", "men_with_kings", "lone_kings", "lone_kings_men",
    "pieces_both_kings", "tempo_ending", "men_ending")
assert len(TERM_NAMES) == _core.TERMS, "TERM_NAMES must name csrc/eval.h's terms"
#: Score returned by :meth:`Evaluator.evaluate` when the side to move has no legal move
#: (given it has no capture): the caller turns it into a loss at the right ply.
NO_MOVES: Final[int] = _core.NO_MOVES


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
    """The evaluation function of one variant, built by the native core
    (:class:`damiera._core.Evaluation`: the hand-made terms' tables from the rule parameters,
    and the pattern tables, read from the weights file by the core itself).

    ``evaluate(position)`` -> int, centi-men from the side to move's point of view, or
    :data:`NO_MOVES` when the side to move has no quiet move (callers only ask when it has no
    capture either, so that means it has lost).

    ``patterns``: add the trained patterns of men when weights exist for the variant's rules
    (:func:`damiera.engine.patterns.weights_path`); None (the default): when
    :func:`learned_enabled` says so; ``tables``: use these instead of the stored ones,
    ``(rows per window, tables[w][pattern])`` (tests, training, matches of a candidate; twice
    as many tables for a two-phase set, the opening's windows first); ``weights``: read
    this weights file instead of the stored one (a candidate's, with its learned terms; a
    str, bytes or path-like object; not with ``tables``, TypeError).
    Raises ValueError when ``tables`` do not fit the board or ``weights`` is not a weights
    file of the variant's rules, OSError when it cannot be read; a stored weights file that
    does not fit, or cannot be read, is reported with a warning and left out.

    Attributes: ``variant``, ``native`` (the core's evaluation, which a
    :class:`~damiera.engine.search.Searcher` searches with), ``king_value`` and
    ``start_pieces`` (as the core chose them), ``pattern_rows`` (rows of a window, 0 without
    patterns), ``pattern_phases`` (1, or 2 for an opening's and an endgame's tables),
    ``window_rows`` (window positions down the board, 0 without patterns), ``tables`` (the
    tables given), ``weights_file`` (the file read, or None), ``terms`` (the learned
    terms' weights a version 4 or 5 file gave, :data:`TERM_NAMES`' order; ``()`` without)
    and ``king_rows`` (rows of the king windows a version 5 file gave, 0 without).
    """

    def __init__(
        self,
        variant: Variant,
        patterns: bool | None = None,
        tables: tuple[int, list[list[int]]] | None = None,
        weights: str | bytes | os.PathLike[str] | os.PathLike[bytes] | None = None,
    ):
        if patterns is None:
            patterns = learned_enabled()
        self.variant = variant
        self.tables = tables
        self.weights_file: Path | None = None
        rules = native_rules(variant)
        native: _core.Evaluation | None = None
        if weights is not None:
            if tables is not None:
                raise TypeError("give weights= (a file) or tables=, not both")
            path = Path(os.fsdecode(os.fspath(weights)))
            native = core_of(variant).Evaluation(rules, weights=str(path),
                                                 key=rules_key(variant))
            self.weights_file = path
        elif tables is not None:
            rows, window_tables = tables
            native = core_of(variant).Evaluation(rules, tables=_packed(variant, rows, window_tables))
        elif patterns and weights_path(variant).exists():
            path = weights_path(variant)
            try:
                native = core_of(variant).Evaluation(rules, weights=str(path),
                                                     key=rules_key(variant))
                self.weights_file = path
            except (ValueError, OSError) as exc:
                # A broken or unreadable weights file must not stop the engine: say so, play
                # without it.
                why = (str(exc) if isinstance(exc, ValueError)
                       else f"cannot read {exc.filename}: {exc.strerror or exc}")
                warnings.warn(f"{why}; playing without the trained patterns", stacklevel=2)
        self.native = native if native is not None else core_of(variant).Evaluation(rules)
        self.king_value: int = self.native.king_value
        self.start_pieces: int = self.native.start_pieces
        self.pattern_rows: int = self.native.pattern_rows
        self.pattern_phases: int = self.native.pattern_phases or 1
        self.window_rows = variant.board_size - self.pattern_rows + 1 if self.pattern_rows else 0
        self.terms: tuple[int, ...] = self.native.terms
        self.king_rows: int = self.native.king_rows

    def evaluate(self, pos: Position) -> int:
        """Static score of ``pos`` for the side to move (see the module table for terms),
        computed by the native core."""
        score: int = self.native.evaluate(pos)
        return score

    def term_features(self, pos: Position) -> tuple[int, ...]:
        """The learned terms' features of ``pos`` (:data:`TERM_NAMES`' order, White's view,
        in units of 1/``start_pieces``): what a version 4 file's weights multiply."""
        features: tuple[int, ...] = self.native.term_features(pos)
        return features


def _packed(variant: Variant, rows: int, window_tables: list[list[int]]) -> tuple[int, int, bytes]:
    """``(rows, phases, 16-bit weights)`` of window tables for the core, or ValueError when
    they do not fit ``rows``-row windows of the board or a 16-bit weight."""
    if not 1 <= rows <= 4:
        raise ValueError(f"pattern windows have 1-4 rows, not {rows}")
    pset = PatternSet(geometry(variant), rows)
    if len(window_tables) not in (len(pset.windows), 2 * len(pset.windows)) or any(
        len(t) != pset.size for t in window_tables
    ):
        sizes = sorted({len(t) for t in window_tables})
        raise ValueError(
            f"pattern tables do not fit {rows}-row windows: "
            f"{len(window_tables)} tables of {sizes} weights, expected "
            f"{len(pset.windows)} (one phase) or {2 * len(pset.windows)} (two) "
            f"of {pset.size}")
    flat = array("h")
    try:
        for t in window_tables:
            flat.extend(t)
    except OverflowError:
        raise ValueError("pattern weight outside -32768..32767") from None
    return rows, len(window_tables) // len(pset.windows), flat.tobytes()
