"""The diagrams of the Frisian draughts and Frysk! rules pages (docs/rules.md), checked by the
rules core like every other page's (:mod:`damiera.web.rules_pages.diagrams`)."""

from __future__ import annotations

from damiera.web.rules_pages.diagram_model import (
    FLYING_CAPTION,
    KING_FLYING_CAPTION,
    PASS_THROUGH_CAPTION,
    START_CAPTION,
    Diagram,
    Shown,
    only,
)
from damiera.web.rules_pages.messages import N_

ORTHOGONAL_CAPTION = N_(
    "Men capture along rows and columns too, over the next dark square: %(moves)s are both "
    "legal."
)
VALUE_CAPTION = N_(
    "Two men are worth more than one king: %(move)s, taking two men, is the only legal move."
)

_KING_28 = ("28-5", "28-6", "28-10", "28-11", "28-14", "28-17", "28-19", "28-22", "28-23",
            "28-32", "28-33", "28-37", "28-39", "28-41", "28-44", "28-46", "28-50")


def _rules(variant: str) -> tuple[Diagram, ...]:
    """The diagrams of the rules both rule sets share, for ``variant``'s page."""
    return (
        Diagram(
            f"{variant}-king-moves", "moves", variant, "W:WK28:B1", KING_FLYING_CAPTION,
            (only(*_KING_28),), from_square="28",
        ),
        Diagram(
            f"{variant}-orthogonal", "captures", variant, "W:W28:B29,38", ORTHOGONAL_CAPTION,
            (only("28x30", "28x48"),),
            Shown("28x30", ("29",)),
        ),
        Diagram(
            f"{variant}-king-along-a-row", "captures", variant, "W:WK21:B23", FLYING_CAPTION,
            (only("21x24", "21x25"),),
            Shown("21x25", ("23",)),
        ),
        Diagram(
            f"{variant}-value", "choice", variant, "W:W28:BK29,22,11", VALUE_CAPTION,
            (only("28x17x6"),),
            Shown("28x17x6", ("22", "11")),
        ),
        Diagram(
            f"{variant}-pass-through", "promotion", variant, "W:W12:B8,9", PASS_THROUGH_CAPTION,
            (only("12x3x14"),),
            Shown("12x3x14", ("8", "9"), promotes=False),
        ),
    )


#: The two pages' diagrams, by page id.
FRISIAN_DIAGRAMS: dict[str, tuple[Diagram, ...]] = {
    "frisian": (
        Diagram(
            "frisian-start", "setup", "frisian", "W:W31-50:B1-20", START_CAPTION,
            (only("31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30",
                  "35-30"),),
        ),
        *_rules("frisian"),
    ),
    "frysk": (
        Diagram(
            "frysk-start", "setup", "frysk", "W:W46-50:B1-5", START_CAPTION,
            (only("46-41", "47-41", "47-42", "48-42", "48-43", "49-43", "49-44", "50-44",
                  "50-45"),),
        ),
        *_rules("frysk"),
    ),
}
