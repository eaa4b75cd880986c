"""The diagrams of the Turkish draughts rules page (docs/rules.md), checked by the rules core
like every other page's (:mod:`damiera.web.rules_pages.diagrams`)."""

from __future__ import annotations

from damiera.web.rules_pages.diagram_model import (
    FLYING_CAPTION,
    START_CAPTION,
    Diagram,
    Shown,
    only,
)
from damiera.web.rules_pages.messages import N_

MAN_STRAIGHT_CAPTION = N_(
    "A man steps one square straight forwards or sideways: from its square it can go to "
    "%(moves)s, never diagonally and never backwards."
)
KING_STRAIGHT_CAPTION = N_(
    "A king moves any distance along its row and its column, up to the next piece or the "
    "edge of the board: %(moves)s."
)
MAN_SIDEWAYS_CAPTION = N_(
    "A man captures forwards or sideways, never backwards: %(moves)s are the legal moves, "
    "and the piece behind it is safe."
)
REMOVED_CAPTION = N_(
    "Captured pieces leave the board at once: %(move)s takes %(captures)s, and its last jump "
    "crosses the square of the first piece it took."
)
NO_TURN_CAPTION = N_(
    "A capture never turns straight back: the king takes one of the two pieces on its column, "
    "not both, so the legal moves are %(moves)s."
)
MOST_CAPTION = N_(
    "You must take the most pieces: %(move)s, taking two, is the only legal move."
)
CROWNED_AT_END_CAPTION = N_(
    "With %(move)s the man reaches the far row during its capture; it goes on only as a man "
    "could, so the piece further along the row is safe, and it is crowned when the move ends."
)

_START = ("W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3"
          ":Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7")
_KING_D4 = ("d4-a4", "d4-b4", "d4-c4", "d4-d1", "d4-d2", "d4-d3", "d4-d5", "d4-d6", "d4-d7",
            "d4-d8", "d4-e4", "d4-f4", "d4-g4", "d4-h4")

#: The page's diagrams, by page id.
TURKISH_DIAGRAMS: dict[str, tuple[Diagram, ...]] = {
    "turkish": (
        Diagram(
            "turkish-start", "setup", "turkish", _START, START_CAPTION,
            (only(*(f"{f}3-{f}4" for f in "abcdefgh")),),
        ),
        Diagram(
            "turkish-man-moves", "moves", "turkish", "W:Wd4:Bh8", MAN_STRAIGHT_CAPTION,
            (only("d4-c4", "d4-d5", "d4-e4"),), from_square="d4",
        ),
        Diagram(
            "turkish-king-moves", "moves", "turkish", "W:WKd4:Bh8", KING_STRAIGHT_CAPTION,
            (only(*_KING_D4),), from_square="d4",
        ),
        Diagram(
            "turkish-man-sideways", "captures", "turkish", "W:Wd4:Bc4,e4,d3",
            MAN_SIDEWAYS_CAPTION, (only("d4xb4", "d4xf4"),), Shown("d4xb4", ("c4",)),
        ),
        Diagram(
            "turkish-king-along-a-file", "captures", "turkish", "W:WKd1:Bd5", FLYING_CAPTION,
            (only("d1xd6", "d1xd7", "d1xd8"),), Shown("d1xd8", ("d5",)),
        ),
        Diagram(
            "turkish-removed-at-once", "captures", "turkish", "W:WKc7:Bc6,e4,f5,b6",
            REMOVED_CAPTION, (only("c7xc4xf4xf6xa6"),),
            Shown("c7xc4xf4xf6xa6", ("c6", "e4", "f5", "b6")),
        ),
        Diagram(
            "turkish-no-turning-back", "captures", "turkish", "W:WKd4:Bd3,d6", NO_TURN_CAPTION,
            (only("d4xd1", "d4xd2", "d4xd7", "d4xd8"),), Shown("d4xd7", ("d6",)),
        ),
        Diagram(
            "turkish-most-pieces", "choice", "turkish", "W:Wd3:Bc3,d4,d6", MOST_CAPTION,
            (only("d3xd5xd7"),), Shown("d3xd5xd7", ("d4", "d6")),
        ),
        Diagram(
            "turkish-crowned-at-the-end", "promotion", "turkish", "W:Wc6:Bc7,f8",
            CROWNED_AT_END_CAPTION, (only("c6xc8"),), Shown("c6xc8", ("c7",), promotes=True),
        ),
    ),
}
