"""Variants as data: one frozen :class:`Variant` of rule parameters per national rule set.

Source: ``shared/RULES.md`` section 2 (the variant table) and section 1 (the rules every
variant shares). Code elsewhere branches on these parameters, never on a variant's name.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum


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


class PromotionDuringCapture(Enum):
    """What happens to a man that reaches the far row in the middle of a capture."""

    #: Crowned there and the move ends, even if more jumps were available.
    PROMOTE_AND_STOP = "promote-and-stop"
    #: Crowned at once and goes on capturing as a king in the same move (Russian).
    PROMOTE_AND_CONTINUE = "promote-and-continue"
    #: Stays a man while passing through; crowned only if the move ends there.
    PASS_THROUGH = "pass-through"


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


@dataclass(frozen=True, slots=True)
class Variant:
    """The rule parameters of one rule set.

    Every field is a rule of RULES.md, so two variants differ exactly where their fields do.
    Construct named variants with :func:`variant`; build a house-rule version with
    :func:`dataclasses.replace` or ``variant(id, optional_capture=True)``.
    """

    id: str
    name: str
    #: Squares per side of the board: 8 or 10.
    board_size: int
    #: Rows of men each side starts with (3 on 8x8, 4 on 10x10).
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
    #: False only under the optional-capture house rule.
    mandatory_capture: bool = True
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
        """Number of playing squares (32 or 50)."""
        return self.board_size * self.board_size // 2

    @property
    def men_per_side(self) -> int:
        return self.man_rows * self.board_size // 2

    @property
    def display_name(self) -> str:
        """Name including the house rule when it is on."""
        return f"{self.name} (captures optional)" if self.optional_capture else self.name

    def rule_parameters(self) -> dict[str, object]:
        """The rule parameters as JSON-ready values (enums as their string values)."""
        out: dict[str, object] = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            out[field.name] = value.value if isinstance(value, Enum) else value
        out["optional_capture"] = self.optional_capture
        return out

    def __reduce__(self) -> tuple[type[Variant], tuple[object, ...]]:
        """Pickled and copied as ``Variant(*field values)`` (through its constructor, so the
        frozen class is never restored field by field)."""
        return (Variant, tuple(getattr(self, field.name) for field in dataclasses.fields(self)))


AMERICAN = Variant(
    id="american",
    name="American checkers",
    board_size=8,
    man_rows=3,
    first_to_move=Color.BLACK,
    a1_dark=True,
    notation=Notation.NUMERIC,
    numbering=Numbering.FROM_TOP_LEFT,
    men_capture_backward=False,
    flying_kings=False,
    men_capture_kings=True,
    capture_choice=CaptureChoice.FREE,
    promotion_during_capture=PromotionDuringCapture.PROMOTE_AND_STOP,
    pdn_gametype="21,B,8,8,N1,0",
)

ITALIAN = Variant(
    id="italian",
    name="Italian draughts",
    board_size=8,
    man_rows=3,
    first_to_move=Color.WHITE,
    a1_dark=False,
    notation=Notation.NUMERIC,
    numbering=Numbering.FROM_TOP_LEFT,
    men_capture_backward=False,
    flying_kings=False,
    men_capture_kings=False,
    capture_choice=CaptureChoice.ITALIAN_PRIORITIES,
    promotion_during_capture=PromotionDuringCapture.PROMOTE_AND_STOP,
    pdn_gametype="22,W,8,8,N2,1",
)

CZECH = Variant(
    id="czech",
    name="Czech draughts",
    board_size=8,
    man_rows=3,
    first_to_move=Color.WHITE,
    a1_dark=True,
    notation=Notation.ALGEBRAIC,
    numbering=Numbering.FROM_TOP_LEFT,
    men_capture_backward=False,
    flying_kings=True,
    men_capture_kings=True,
    capture_choice=CaptureChoice.KING_PRECEDENCE,
    promotion_during_capture=PromotionDuringCapture.PROMOTE_AND_STOP,
    pdn_gametype="29,W,8,8,A0,0",
)

RUSSIAN = Variant(
    id="russian",
    name="Russian draughts",
    board_size=8,
    man_rows=3,
    first_to_move=Color.WHITE,
    a1_dark=True,
    notation=Notation.ALGEBRAIC,
    numbering=Numbering.FROM_TOP_LEFT,
    men_capture_backward=True,
    flying_kings=True,
    men_capture_kings=True,
    capture_choice=CaptureChoice.FREE,
    promotion_during_capture=PromotionDuringCapture.PROMOTE_AND_CONTINUE,
    pdn_gametype="25,W,8,8,A0,0",
    capture_separator=":",
)

BRAZILIAN = Variant(
    id="brazilian",
    name="Brazilian draughts",
    board_size=8,
    man_rows=3,
    first_to_move=Color.WHITE,
    a1_dark=True,
    notation=Notation.ALGEBRAIC,
    numbering=Numbering.FROM_TOP_LEFT,
    men_capture_backward=True,
    flying_kings=True,
    men_capture_kings=True,
    capture_choice=CaptureChoice.MAJORITY,
    promotion_during_capture=PromotionDuringCapture.PASS_THROUGH,
    pdn_gametype="26,W,8,8,A0,0",
)

SPANISH = Variant(
    id="spanish",
    name="Spanish draughts",
    board_size=8,
    man_rows=3,
    first_to_move=Color.WHITE,
    a1_dark=False,
    notation=Notation.NUMERIC,
    numbering=Numbering.FROM_BOTTOM_RIGHT,
    men_capture_backward=False,
    flying_kings=True,
    men_capture_kings=True,
    capture_choice=CaptureChoice.MOST_PIECES_THEN_KINGS,
    promotion_during_capture=PromotionDuringCapture.PROMOTE_AND_STOP,
    pdn_gametype="24,W,8,8,N1,1",
)

INTERNATIONAL = Variant(
    id="international",
    name="International draughts",
    board_size=10,
    man_rows=4,
    first_to_move=Color.WHITE,
    a1_dark=True,
    notation=Notation.NUMERIC,
    numbering=Numbering.FROM_TOP_LEFT,
    men_capture_backward=True,
    flying_kings=True,
    men_capture_kings=True,
    capture_choice=CaptureChoice.MAJORITY,
    promotion_during_capture=PromotionDuringCapture.PASS_THROUGH,
    pdn_gametype="20,W,10,10,N2,0",
)

POOL = Variant(
    id="pool",
    name="Pool checkers",
    board_size=8,
    man_rows=3,
    first_to_move=Color.BLACK,
    a1_dark=True,
    notation=Notation.NUMERIC,
    numbering=Numbering.FROM_TOP_LEFT,
    men_capture_backward=True,
    flying_kings=True,
    men_capture_kings=True,
    capture_choice=CaptureChoice.FREE,
    promotion_during_capture=PromotionDuringCapture.PASS_THROUGH,
    pdn_gametype="23,B,8,8,N1,0",
)

THAI = Variant(
    id="thai",
    name="Thai draughts",
    board_size=8,
    man_rows=2,
    first_to_move=Color.BLACK,
    a1_dark=True,
    notation=Notation.NUMERIC,
    numbering=Numbering.FROM_BOTTOM_RIGHT,
    men_capture_backward=False,
    flying_kings=True,
    men_capture_kings=True,
    capture_choice=CaptureChoice.FREE,
    promotion_during_capture=PromotionDuringCapture.PROMOTE_AND_STOP,
    king_lands_behind=True,
    remove_captured_at_once=True,
    pdn_gametype="31,B,8,8,N2,0",
)

#: The named variants, in menu order (the specification's seven, then the rule sets of
#: docs/rules.md).
VARIANTS: dict[str, Variant] = {
    v.id: v
    for v in (AMERICAN, ITALIAN, CZECH, RUSSIAN, BRAZILIAN, SPANISH, INTERNATIONAL, POOL, THAI)
}


class UnknownVariantError(ValueError):
    """Raised for a variant id that is not one of :data:`VARIANTS` nor an alias."""


#: Other names the variants are known by: English draughts (also "checkers") is American
#: checkers' game; "standard" is the World Draughts Federation's International draughts;
#: Pool checkers is also "American pool" (its PDN name) and, in older books, "Spanish pool
#: checkers"; Thai draughts is Mak-hot (หมากฮอส), also written makhos or mak-hos.
ALIASES: dict[str, str] = {
    "english": "american",
    "checkers": "american",
    "english-draughts": "american",
    "standard": "international",
    "pool-checkers": "pool",
    "american-pool": "pool",
    "american-pool-checkers": "pool",
    "spanish-pool": "pool",
    "thai-draughts": "thai",
    "thai-checkers": "thai",
    "mak-hot": "thai",
    "makhot": "thai",
    "makhos": "thai",
    "mak-hos": "thai",
}

#: PDN ``GameType`` numbers (PDN 3.0) of the named variants: ``"20"`` is International.
GAME_TYPE_NUMBERS: dict[str, str] = {
    v.pdn_gametype.split(",")[0]: v.id for v in VARIANTS.values()
}


def variant(variant_id: str, *, optional_capture: bool = False) -> Variant:
    """Return the named variant, with the optional-capture house rule if asked.

    ``variant_id``: an id of :data:`VARIANTS` (``"international"``, ``"italian"``, ...), an
    alias (:data:`ALIASES`: ``"english"``, ``"checkers"``, ``"standard"``) or a PDN
    ``GameType`` number or full form (``"20"``, ``"21,B,8,8,N1,0"``); case and surrounding
    blanks are ignored. Raises TypeError for a value that is not a str,
    :class:`UnknownVariantError` for an unknown name, and :class:`ValueError` when the house
    rule is asked for on a board other than 8x8 (RULES.md section 1: "any 8x8 variant").
    """
    if not isinstance(variant_id, str):
        raise TypeError(
            f"a variant is named by a str such as 'international', not {type(variant_id).__name__}"
        )
    key = variant_id.strip().lower()
    key = ALIASES.get(key.replace(" ", "-"), key)
    if key in GAME_TYPE_NUMBERS:
        key = GAME_TYPE_NUMBERS[key]
    elif "," in key:  # a full GameType form: exactly one of ours
        key = next((v.id for v in VARIANTS.values()
                    if v.pdn_gametype.lower() == key.replace(" ", "")), key)
    try:
        base = VARIANTS[key]
    except KeyError:
        known = ", ".join(VARIANTS)
        aliases = ", ".join(ALIASES)
        raise UnknownVariantError(
            f"unknown variant {variant_id[:40]!r}; known variants: {known} (also {aliases}, "
            "or a PDN GameType number such as 20)"
        ) from None
    if not optional_capture:
        return base
    if base.board_size != 8:
        raise ValueError(
            f"the optional-capture house rule applies to 8x8 variants only, not to {base.name}"
        )
    return dataclasses.replace(base, mandatory_capture=False)
