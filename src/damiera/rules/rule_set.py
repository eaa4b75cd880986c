"""One rule set as data: the frozen :class:`Variant` of rule parameters and the enums of its
fields (sides, capture choice, promotion during a capture, rule options, notation, numbering).

Source: ``shared/RULES.md`` sections 1 and 2 (the parameters every rule set is made of) and
docs/rules.md (the rule sets beyond them). The named rule sets, aliases and the reading of a
variant id are in :mod:`damiera.rules.variant`, which re-exports every name here.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from typing import Final

from damiera.rules.custom import is_custom


class Color(Enum):
    """A side. ``value`` is the letter used in FEN and PDN (``"W"`` / ``"B"``)."""

    WHITE = "W"
    BLACK = "B"

    @property
    def opponent(self) -> Color:
        return Color.BLACK if self is Color.WHITE else Color.WHITE

    @property
    def word(self) -> str:
        """Lower-case English name, ``"white"`` or ``"black"`` (used in JSON and messages)."""
        return "white" if self is Color.WHITE else "black"


class CaptureChoice(Enum):
    """Which capture sequence a player must choose when several exist (RULES.md section 2)."""

    FREE = "free"
    MAJORITY = "majority"
    ITALIAN_PRIORITIES = "italian-priorities"
    MOST_PIECES_THEN_KINGS = "most-pieces-then-kings"
    KING_PRECEDENCE = "king-precedence"
    #: The capture of the highest value (Frisian): a man is worth 100 and a king 199 (more
    #: than one man, less than two: n kings beat 2n - 1 men and lose to 2n); at equal value
    #: a king's capture before a man's.
    VALUE = "value"


class PromotionDuringCapture(Enum):
    """What happens to a man that reaches the far row in the middle of a capture."""

    #: Crowned there and the move ends, even if more jumps were available.
    PROMOTE_AND_STOP = "promote-and-stop"
    #: Crowned at once and goes on capturing as a king in the same move (Russian).
    PROMOTE_AND_CONTINUE = "promote-and-continue"
    #: Stays a man while passing through; crowned only if the move ends there.
    PASS_THROUGH = "pass-through"


class RuleOption(Enum):
    """A rule option that any rule set may be played with; ``value`` is its word in the
    canonical variant id (``international+losing``) and, with ``--``, its CLI flag.

    Members are in canonical order: a variant's id lists its options in this order.
    """

    #: Captures are not compulsory (RULES.md section 1: a house rule of 8x8 boards).
    OPTIONAL_CAPTURE = "optional-capture"
    #: Antidraughts: a side with no piece left, or no legal move on its turn, wins.
    LOSING = "losing"
    #: Breakthrough: the first side to crown a man wins at once.
    BREAKTHROUGH = "breakthrough"

    @property
    def field(self) -> str:
        """The JSON and keyword name of the option: ``optional_capture``, ``losing``,
        ``breakthrough``."""
        return self.value.replace("-", "_")


class Notation(Enum):
    """How squares are labelled at every edge (notation, FEN, API, board labels)."""

    NUMERIC = "numeric"
    ALGEBRAIC = "algebraic"


class Numbering(Enum):
    """Where square 1 is for numeric notation (RULES.md section 2, geometry)."""

    #: 1 is the first dark square of the top row (Black's side), counted left to right,
    #: top to bottom (American, Italian, International).
    FROM_TOP_LEFT = "from-top-left"
    #: 1 is the first dark square of White's bottom row counted from the right, right to
    #: left, bottom to top (Spanish).
    FROM_BOTTOM_RIGHT = "from-bottom-right"


#: English words for the options in display names.
_OPTION_WORDS: Final = {
    RuleOption.OPTIONAL_CAPTURE: "captures optional",
    RuleOption.LOSING: "losing",
    RuleOption.BREAKTHROUGH: "breakthrough",
}


@dataclass(frozen=True, slots=True)
class Variant:
    """The rule parameters of one rule set.

    Every field is a rule of RULES.md, so two variants differ exactly where their fields do.
    Construct named variants with :func:`variant`, a rule set with options with
    ``variant("international+losing")`` or ``variant("american", optional_capture=True)``
    (:func:`with_options` checks the combination). ``id`` names the rule set without its
    options; :attr:`full_id` names both, and is what to store or send.

    Fields a rule-set editor sets (each read by the rules core or by
    :class:`~damiera.rules.game.Game`; docs/rules.md section 1 defines the ones beyond
    RULES.md): ``board_size``, ``man_rows``, ``first_to_move``, ``men_capture_backward``,
    ``flying_kings``, ``men_capture_kings``, ``capture_choice`` (``VALUE``: Frisian's value
    rule), ``promotion_during_capture``, ``king_lands_behind``, ``remove_captured_at_once``,
    ``orthogonal_captures`` (captures along rows and columns too), ``all_squares`` (every
    square plays, pieces go only along rows and columns), ``no_reverse_capture`` (a capture
    never turns straight back), ``back_rows_empty`` (rows left empty behind the men at the
    start), ``king_quiet_move_limit``
    (quiet moves in a row one king may make while its side has men; 0: none; a rule of the
    game's history, kept by Game and given to the search's root, never in a FEN),
    ``king_ending_draws`` ((stronger kings, weaker kings, moves each) king-only endings drawn
    after that many moves without a capture), ``draw_moves_without_progress``, and the options
    ``mandatory_capture``, ``losing``, ``breakthrough``.
    """

    id: str
    name: str
    #: Squares per side of the board: 8 or 10.
    board_size: int
    #: Rows of men each side starts with (3 on 8x8, 4 on 10x10; Frysk! 1).
    man_rows: int
    first_to_move: Color
    #: True when a1 (White's lower-left corner) is a playing square; False for mirrored boards.
    a1_dark: bool
    notation: Notation
    numbering: Numbering
    #: Men capture backwards as well as forwards.
    men_capture_backward: bool
    #: Kings move and capture any distance along a diagonal (flying kings).
    flying_kings: bool
    #: Men may capture kings (False in Italian draughts).
    men_capture_kings: bool
    capture_choice: CaptureChoice
    promotion_during_capture: PromotionDuringCapture
    #: A flying king's capture lands on the square right behind the captured piece, never
    #: further (it may still start from afar): Thai draughts (docs/rules.md).
    king_lands_behind: bool = False
    #: Each captured piece leaves the board as it is jumped, so its square is empty for the
    #: rest of the move and the capturing piece may turn straight back over it (Thai
    #: draughts); False is the Turkish strike of RULES.md section 1 (removed when the move
    #: ends, blocking until then).
    remove_captured_at_once: bool = False
    #: Men and kings also capture along rows and columns (Frisian): over the next playing
    #: square of the same row (two columns away) or of the same column (two rows away), a
    #: king from afar; moves stay diagonal. Men without ``men_capture_backward`` capture
    #: forward, straight ahead and sideways.
    orthogonal_captures: bool = False
    #: Every square of the 8x8 board plays (64 squares, all labelled a1-h8), and men and kings
    #: move and capture only along rows and columns, never diagonally (Turkish draughts): a
    #: man one square forward or sideways, jumping an adjacent piece the same ways; a king
    #: along its row or column, any distance when ``flying_kings``. 8x8 only, not with
    #: ``orthogonal_captures`` (docs/rules.md).
    all_squares: bool = False
    #: A capture may not turn straight back (180 degrees) between two jumps (Turkish). Without
    #: ``remove_captured_at_once`` the piece just taken blocks that way anyway.
    no_reverse_capture: bool = False
    #: Rows each side leaves empty behind its men at the start (Turkish: 1, the back row).
    back_rows_empty: int = 0
    #: Quiet moves in a row one king may make while its side still has men (Frisian: 3; the
    #: fourth must be another piece's, or a capture); 0 for no limit. A rule of the game's
    #: history, not of the position: :class:`~damiera.rules.game.Game` enforces it.
    king_quiet_move_limit: int = 0
    #: The king-only endings that are drawn after a number of moves by each side without a
    #: capture (Frisian): ``((kings of the stronger side, kings of the weaker side, moves),
    #: ...)``, e.g. ``((2, 1, 7), (1, 1, 2))``; empty for none (beside the general rule).
    king_ending_draws: tuple[tuple[int, int, int], ...] = ()
    #: False only under the optional-capture house rule.
    mandatory_capture: bool = True
    #: The losing rule (Antidraughts): no piece left, or no legal move on one's turn, wins.
    losing: bool = False
    #: Breakthrough: the first side to crown a man wins (the promotion ends the game).
    breakthrough: bool = False
    #: Moves by each side without capture or promotion that make a draw (RULES.md section 1).
    draw_moves_without_progress: int = 40
    #: PDN 3.0 ``GameType`` tag value, e.g. ``"20,W,10,10,N2,0"``.
    pdn_gametype: str = ""
    #: Capture separator preferred when writing moves (``x``; Russian tradition also reads ``:``).
    capture_separator: str = "x"

    @property
    def optional_capture(self) -> bool:
        """True when the optional-capture house rule is on."""
        return not self.mandatory_capture

    @property
    def squares(self) -> int:
        """Number of playing squares (32, 50, or 64 with ``all_squares``)."""
        return self.board_size * self.board_size // (1 if self.all_squares else 2)

    @property
    def men_per_side(self) -> int:
        return self.man_rows * self.board_size // (1 if self.all_squares else 2)

    @property
    def options(self) -> tuple[RuleOption, ...]:
        """The rule options that are on, in canonical order (empty for a plain rule set)."""
        on = {
            RuleOption.OPTIONAL_CAPTURE: not self.mandatory_capture,
            RuleOption.LOSING: self.losing,
            RuleOption.BREAKTHROUGH: self.breakthrough,
        }
        return tuple(option for option in RuleOption if on[option])

    @property
    def full_id(self) -> str:
        """The canonical text id of the rule set with its options: ``id``, then ``+`` and
        each option on, in :class:`RuleOption` order (``international+losing``,
        ``american+optional-capture``); :func:`variant` reads it back. A custom rule set's
        id already holds its options (``custom:...``): it is its full id."""
        if is_custom(self.id):
            return self.id
        return "+".join((self.id, *(option.value for option in self.options)))

    @property
    def display_name(self) -> str:
        """Name including the options that are on, e.g. ``International draughts (losing)``."""
        if not self.options:
            return self.name
        return f"{self.name} ({', '.join(_OPTION_WORDS[o] for o in self.options)})"

    def rule_parameters(self) -> dict[str, object]:
        """The rule parameters as JSON-ready values (enums as their string values, tuples as
        lists: ``king_ending_draws`` is ``[[2, 1, 7], [1, 1, 2]]``)."""
        out: dict[str, object] = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if isinstance(value, Enum):
                value = value.value
            elif isinstance(value, tuple):
                value = [list(item) for item in value]
            out[field.name] = value
        out["optional_capture"] = self.optional_capture
        out["full_id"] = self.full_id
        return out

    def __reduce__(self) -> tuple[type[Variant], tuple[object, ...]]:
        """Pickled and copied as ``Variant(*field values)`` (through its constructor, so the
        frozen class is never restored field by field)."""
        return (Variant, tuple(getattr(self, field.name) for field in dataclasses.fields(self)))
