"""The rule sets' vocabulary of sides and capture rules: :class:`Color`,
:class:`CaptureChoice` and :class:`PromotionDuringCapture`, the values of
:class:`~damiera.rules.variant.Variant`'s fields (RULES.md section 2), imported from
:mod:`damiera.rules.variant` as well."""

from __future__ import annotations

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
