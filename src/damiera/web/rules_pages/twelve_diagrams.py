"""The diagrams of the Canadian and Malaysian draughts rules pages (docs/rules.md), on the 12x12
board (squares 1-72), checked by the rules core like every other page's
(:mod:`damiera.web.rules_pages.diagrams`)."""

from __future__ import annotations

from damiera.web.rules_pages.diagram_model import (
    FLYING_CAPTION,
    KING_FLYING_CAPTION,
    MAN_BACKWARD_CAPTION,
    MAN_FORWARD_CAPTION,
    MANDATORY_CAPTION,
    PASS_THROUGH_CAPTION,
    START_CAPTION,
    STOP_CAPTION,
    Diagram,
    Shown,
    illegal,
    only,
)
from damiera.web.rules_pages.turkish_diagrams import MOST_CAPTION

_START = "W:W43-72:B1-30"
_FIRST_MOVES = ("43-37", "44-37", "44-38", "45-38", "45-39", "46-39", "46-40", "47-40", "47-41",
                "48-41", "48-42")
#: A king on 67 (a1) along the whole long diagonal to 6 (l12).
_LONG_DIAGONAL = ("67-61", "67-56", "67-50", "67-45", "67-39", "67-34", "67-28", "67-23",
                  "67-17", "67-12", "67-6")
_FROM_AFAR = ("67x34", "67x28", "67x23", "67x17", "67x12", "67x6")


def _common(vid: str) -> tuple[Diagram, ...]:
    """The diagrams both 12x12 rule sets share: start, flying king, flying capture, the
    compulsory capture and the most pieces."""
    return (
        Diagram(f"{vid}-start", "setup", vid, _START, START_CAPTION, (only(*_FIRST_MOVES),)),
        Diagram(f"{vid}-king-moves", "moves", vid, "W:WK67:B1", KING_FLYING_CAPTION,
                (only(*_LONG_DIAGONAL),), from_square="67"),
        Diagram(f"{vid}-flying-capture", "captures", vid, "W:WK67:B39", FLYING_CAPTION,
                (only(*_FROM_AFAR),), Shown("67x23", ("39",))),
        Diagram(f"{vid}-mandatory", "captures", vid, "W:W62,70:B57", MANDATORY_CAPTION,
                (only("62x51"), illegal("70-64", "capture_mandatory")),
                Shown("62x51", ("57",))),
        Diagram(f"{vid}-most-pieces", "choice", vid, "W:W62,70:B45,57,64", MOST_CAPTION,
                (only("62x51x38"),), Shown("62x51x38", ("57", "45"))),
    )


#: The pages' diagrams, by page id.
TWELVE_DIAGRAMS: dict[str, tuple[Diagram, ...]] = {
    "canadian": (
        *_common("canadian"),
        Diagram("canadian-man-backward", "captures", "canadian", "W:W38:B32,45",
                MAN_BACKWARD_CAPTION, (only("38x25", "38x51"),), Shown("38x51", ("45",))),
        Diagram("canadian-pass-through", "promotion", "canadian", "W:W13:B8,9",
                PASS_THROUGH_CAPTION, (only("13x2x15"),),
                Shown("13x2x15", ("8", "9"), promotes=False)),
    ),
    "malaysian": (
        *_common("malaysian"),
        Diagram("malaysian-man-forward", "captures", "malaysian", "W:W38:B32,45",
                MAN_FORWARD_CAPTION, (only("38x25"), illegal("38x51", "man_captures_backward")),
                Shown("38x25", ("32",))),
        Diagram("malaysian-crowned-stop", "promotion", "malaysian", "W:W14:B9,10", STOP_CAPTION,
                (only("14x3"), illegal("14x3x16", "promotion_ends_capture")),
                Shown("14x3", ("9",), promotes=True)),
    ),
}
