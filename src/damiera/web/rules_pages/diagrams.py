"""The rules pages' diagrams, as data the rules core can check.

Each :class:`Diagram` is a position (FEN in the variant's official notation), the move it
shows (start square, landing squares, captured pieces, whether the man is crowned) and the
claims its caption makes about the position, as structured data:

- ``only_legal_moves``: the legal moves are exactly ``moves`` (full-path notation);
- ``legal``: every move of ``moves`` is legal (others may be too);
- ``illegal``: ``move`` is refused by the rules core with the reason ``reason_code``
  (:attr:`damiera.rules.notation.NotationError.code`);
- ``ends``: after ``move`` (or in the position itself, when ``move`` is empty) the game is
  over, won by ``winner`` for the reason ``reason_code`` (a
  :class:`damiera.rules.game.ResultReason` value): the goal options' diagrams.

A diagram's ``variant`` is a canonical id, so a goal option's diagram names it
(``international+losing``).

``tests/rules_pages/test_diagrams.py`` checks every claim and every shown move against the
rules core, so a diagram that disagrees with the game fails the build. Captions are English
message ids (translated per language); their ``%(...)s`` fields are filled from this data
(``move``: the shown move, ``moves``: the moves of the first ``only_legal_moves`` or ``legal``
claim, ``illegal``: the move of the first ``illegal`` claim, ``captures``: the shown move's
captured squares), so the text and the checked data cannot drift apart.
"""

from __future__ import annotations

from damiera.web.rules_pages.diagram_model import (
    ALG_START,
    BREAKTHROUGH_PAGE,
    FLYING_CAPTION,
    FREE_CHOICE_CAPTION,
    KING_FLYING_CAPTION,
    KING_SHORT_CAPTION,
    LOSING_PAGE,
    MAN_BACKWARD_CAPTION,
    MAN_FORWARD_CAPTION,
    MANDATORY_CAPTION,
    OPTIONAL_CAPTURE_PAGE,
    PASS_THROUGH_CAPTION,
    START_CAPTION,
    STOP_CAPTION,
    Diagram,
    Shown,
    ends,
    illegal,
    legal,
    only,
)
from damiera.web.rules_pages.frisian_diagrams import FRISIAN_DIAGRAMS
from damiera.web.rules_pages.messages import N_
from damiera.web.rules_pages.turkish_diagrams import TURKISH_DIAGRAMS
from damiera.web.rules_pages.twelve_diagrams import TWELVE_DIAGRAMS

#: Every page's diagrams, by page id (variant id, or :data:`OPTIONAL_CAPTURE_PAGE`).
DIAGRAMS: dict[str, tuple[Diagram, ...]] = {
    "american": (
        Diagram(
            "american-start", "setup", "american", "B:W21-32:B1-12", START_CAPTION,
            (only("9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"),),
        ),
        Diagram(
            "american-king-moves", "moves", "american", "W:WK18:B1", KING_SHORT_CAPTION,
            (only("18-14", "18-15", "18-22", "18-23"),), from_square="18",
        ),
        Diagram(
            "american-mandatory", "captures", "american", "W:W22,25:B18", MANDATORY_CAPTION,
            (only("22x15"), illegal("25-21", "capture_mandatory")),
            Shown("22x15", ("18",)),
        ),
        Diagram(
            "american-man-takes-king", "captures", "american", "W:W23:BK19",
            N_("Any piece may capture any piece: here a man takes a king with %(move)s."),
            (only("23x16"),),
            Shown("23x16", ("19",)),
        ),
        Diagram(
            "american-free-choice", "choice", "american", "W:W27:B23,24,16",
            N_(
                "Both captures are legal: %(moves)s. White may take one piece with %(move)s "
                "even though the other capture takes two."
            ),
            (only("27x18", "27x20x11"),),
            Shown("27x18", ("23",)),
        ),
        Diagram(
            "american-crowned-stop", "promotion", "american", "W:W10:B7,8", STOP_CAPTION,
            (only("10x3"), illegal("10x3x12", "promotion_ends_capture")),
            Shown("10x3", ("7",), promotes=True),
        ),
    ),
    "italian": (
        Diagram(
            "italian-start", "setup", "italian", "W:W21-32:B1-12", START_CAPTION,
            (only("21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20"),),
        ),
        Diagram(
            "italian-king-moves", "moves", "italian", "W:WK18:B1", KING_SHORT_CAPTION,
            (only("18-13", "18-14", "18-21", "18-22"),), from_square="18",
        ),
        Diagram(
            "italian-man-cannot-take-king", "captures", "italian", "W:W22,32:BK18",
            N_(
                "A man cannot capture a king: %(illegal)s is not allowed. There is no "
                "capture, so White simply moves: %(moves)s."
            ),
            (only("22-19", "32-28"), illegal("22x13", "man_takes_king")),
        ),
        Diagram(
            "italian-multi-capture", "captures", "italian", "W:W29:B11,19,26",
            N_(
                "A multi-capture must be completed: %(move)s takes %(captures)s in one move."
            ),
            (only("29x22x15x6"),),
            Shown("29x22x15x6", ("26", "19", "11")),
        ),
        Diagram(
            "italian-most-pieces", "choice", "italian", "W:W21,24:B10,18,20",
            N_(
                "Rule 1, the most pieces: %(move)s takes two pieces, so the single capture "
                "%(illegal)s is not allowed."
            ),
            (only("21x14x5"), illegal("24x15", "most_pieces")),
            Shown("21x14x5", ("18", "10")),
        ),
        Diagram(
            "italian-king-captures", "choice", "italian", "W:W22,K12:B15,18",
            N_(
                "Rule 2, capture with the king: king and man could each take one piece; the "
                "king must do it with %(move)s, and %(illegal)s is refused."
            ),
            (only("12x19"), illegal("22x13", "king_captures_first")),
            Shown("12x19", ("15",)),
        ),
        Diagram(
            "italian-most-kings", "choice", "italian", "W:WK14:B10,K19",
            N_(
                "Rule 3, the most kings: the king must take the king with %(move)s, not the "
                "man with %(illegal)s."
            ),
            (only("14x23"), illegal("14x5", "most_kings")),
            Shown("14x23", ("19",)),
        ),
        Diagram(
            "italian-king-first", "choice", "italian", "W:WK14:B12,18,K11,K26",
            N_(
                "Rule 4, the king met first: both captures take a king and a man, but "
                "%(move)s takes the king on its first jump, so %(illegal)s is not allowed."
            ),
            (only("14x7x16"), illegal("14x21x30", "king_first")),
            Shown("14x7x16", ("11", "12")),
        ),
        Diagram(
            "italian-crowned-stop", "promotion", "italian", "W:W11:B5,6", STOP_CAPTION,
            (only("11x2"), illegal("11x2x9", "promotion_ends_capture")),
            Shown("11x2", ("6",), promotes=True),
        ),
    ),
    "czech": (
        Diagram("czech-start", "setup", "czech", ALG_START, START_CAPTION,
                (only("a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"),)),
        Diagram(
            "czech-king-moves", "moves", "czech", "W:WKd4:Bh8", KING_FLYING_CAPTION,
            (only("d4-a1", "d4-g1", "d4-b2", "d4-f2", "d4-c3", "d4-e3", "d4-c5", "d4-e5",
                  "d4-b6", "d4-f6", "d4-a7", "d4-g7"),), from_square="d4",
        ),
        Diagram(
            "czech-man-forward", "captures", "czech", "W:Wc5:Bd6,b4", MAN_FORWARD_CAPTION,
            (only("c5xe7"), illegal("c5xa3", "man_captures_backward")),
            Shown("c5xe7", ("d6",)),
        ),
        Diagram(
            "czech-flying-capture", "captures", "czech", "W:WKa1:Bc3", FLYING_CAPTION,
            (only("a1xd4", "a1xe5", "a1xf6", "a1xg7", "a1xh8"),),
            Shown("a1xe5", ("c3",)),
        ),
        Diagram(
            "czech-king-precedence", "choice", "czech", "W:Wc3,Kh2:Bd4,f6,d6",
            N_(
                "King precedence: the man could take two pieces with %(illegal)s, but the "
                "king can capture, so a king capture is compulsory: %(moves)s."
            ),
            (only("h2xc7", "h2xb8"), illegal("c3xe5xg7", "king_must_capture")),
            Shown("h2xc7", ("d6",)),
        ),
        Diagram(
            "czech-crowned-stop", "promotion", "czech", "W:Wf6:Be7,c7", STOP_CAPTION,
            (only("f6xd8"), illegal("f6xd8xb6", "promotion_ends_capture")),
            Shown("f6xd8", ("e7",), promotes=True),
        ),
    ),
    "russian": (
        Diagram("russian-start", "setup", "russian", ALG_START, START_CAPTION,
                (only("a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"),)),
        Diagram(
            "russian-king-moves", "moves", "russian", "W:WKd4:Bh8", KING_FLYING_CAPTION,
            (only("d4-a1", "d4-g1", "d4-b2", "d4-f2", "d4-c3", "d4-e3", "d4-c5", "d4-e5",
                  "d4-b6", "d4-f6", "d4-a7", "d4-g7"),), from_square="d4",
        ),
        Diagram(
            "russian-man-backward", "captures", "russian", "W:We5:Bd4,f6",
            MAN_BACKWARD_CAPTION,
            (only("e5:c3", "e5:g7"),),
            Shown("e5:c3", ("d4",)),
        ),
        Diagram(
            "russian-flying-multi", "captures", "russian", "W:WKa1:Bc3,f6",
            N_(
                "A flying king's multi-capture: after taking the first piece the king must "
                "land where it can go on capturing; it may finish on either square: %(moves)s."
            ),
            (only("a1:d4:g7", "a1:d4:h8"),),
            Shown("a1:d4:g7", ("c3", "f6")),
        ),
        Diagram(
            "russian-free-choice", "choice", "russian", "W:Wc3:Bd4,b4,b6",
            FREE_CHOICE_CAPTION,
            (only("c3:a5:c7", "c3:e5"),),
            Shown("c3:e5", ("d4",)),
        ),
        Diagram(
            "russian-crowned-continues", "promotion", "russian", "W:Wb6:Bc7,e7",
            N_(
                "The man jumps onto the far row, is crowned at once and goes on capturing as "
                "a flying king in the same move: %(move)s takes %(captures)s."
            ),
            (only("b6:d8:h4", "b6:d8:g5", "b6:d8:f6"),),
            Shown("b6:d8:f6", ("c7", "e7"), promotes=True),
        ),
    ),
    "brazilian": (
        Diagram("brazilian-start", "setup", "brazilian", ALG_START, START_CAPTION,
                (only("a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"),)),
        Diagram(
            "brazilian-king-moves", "moves", "brazilian", "W:WKd4:Bh8", KING_FLYING_CAPTION,
            (only("d4-a1", "d4-g1", "d4-b2", "d4-f2", "d4-c3", "d4-e3", "d4-c5", "d4-e5",
                  "d4-b6", "d4-f6", "d4-a7", "d4-g7"),), from_square="d4",
        ),
        Diagram(
            "brazilian-man-backward", "captures", "brazilian", "W:We5:Bd4,f6",
            MAN_BACKWARD_CAPTION,
            (only("e5xc3", "e5xg7"),),
            Shown("e5xc3", ("d4",)),
        ),
        Diagram(
            "brazilian-majority", "choice", "brazilian", "W:Wc3:Bd4,b4,b6",
            N_(
                "Majority rule: %(move)s takes two pieces, so the single capture %(illegal)s "
                "is not allowed."
            ),
            (only("c3xa5xc7"), illegal("c3xe5", "most_pieces")),
            Shown("c3xa5xc7", ("b4", "b6")),
        ),
        Diagram(
            "brazilian-pass-through", "promotion", "brazilian", "W:Wb6:Bc7,e7",
            PASS_THROUGH_CAPTION,
            (only("b6xd8xf6"),),
            Shown("b6xd8xf6", ("c7", "e7"), promotes=False),
        ),
    ),
    "spanish": (
        Diagram("spanish-start", "setup", "spanish", "W:W1-12:B21-32", START_CAPTION,
                (only("9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"),)),
        Diagram(
            "spanish-king-moves", "moves", "spanish", "W:WK14:B32", KING_FLYING_CAPTION,
            (only("14-1", "14-4", "14-5", "14-7", "14-10", "14-11", "14-18", "14-19", "14-21",
                  "14-23", "14-25", "14-28"),), from_square="14",
        ),
        Diagram(
            "spanish-most-pieces", "choice", "spanish", "W:W7:B11,18,12",
            N_(
                "The most pieces first: %(move)s takes two, so the single capture "
                "%(illegal)s is not allowed."
            ),
            (only("7x14x21"), illegal("7x16", "most_pieces")),
            Shown("7x14x21", ("11", "18")),
        ),
        Diagram(
            "spanish-most-kings", "choice", "spanish", "W:WK11:B18,K20",
            N_(
                "Then the most kings: each capture takes one piece, so the king must take the "
                "king with %(move)s, not the man with %(illegal)s."
            ),
            (only("11x24"), illegal("11x21", "most_kings")),
            Shown("11x24", ("20",)),
        ),
        Diagram(
            "spanish-crowned-stop", "promotion", "spanish", "W:W23:B26,27",
            N_(
                "With %(move)s the man reaches the far row and is crowned; the move ends "
                "there, even though a king could capture again."
            ),
            (only("23x30"),),
            Shown("23x30", ("27",), promotes=True),
        ),
    ),
    "international": (
        Diagram(
            "international-start", "setup", "international", "W:W31-50:B1-20", START_CAPTION,
            (only("31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30",
                  "35-30"),),
        ),
        Diagram(
            "international-king-moves", "moves", "international", "W:WK28:B5",
            KING_FLYING_CAPTION,
            (only("28-6", "28-10", "28-11", "28-14", "28-17", "28-19", "28-22", "28-23", "28-32",
                  "28-33", "28-37", "28-39", "28-41", "28-44", "28-46", "28-50"),),
            from_square="28",
        ),
        Diagram(
            "international-mandatory", "captures", "international", "W:W28,32:B23",
            MANDATORY_CAPTION,
            (only("28x19"), illegal("32-27", "capture_mandatory")),
            Shown("28x19", ("23",)),
        ),
        Diagram(
            "international-majority", "choice", "international", "W:W48:B24,K31,34,K42,43",
            N_(
                "Majority rule, kings and men counting the same: the only legal move is "
                "%(move)s, which takes three pieces; taking kings gives no priority."
            ),
            (only("48x39x30x19"),),
            Shown("48x39x30x19", ("43", "34", "24")),
        ),
        Diagram(
            "international-pass-through", "promotion", "international", "W:W15:B9,10",
            PASS_THROUGH_CAPTION,
            (only("15x4x13"),),
            Shown("15x4x13", ("10", "9"), promotes=False),
        ),
    ),
    "pool": (
        Diagram(
            "pool-start", "setup", "pool", "B:W21-32:B1-12", START_CAPTION,
            (only("9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"),),
        ),
        Diagram(
            "pool-king-moves", "moves", "pool", "W:WK22:B1", KING_FLYING_CAPTION,
            (only("22-4", "22-8", "22-11", "22-13", "22-15", "22-17", "22-18", "22-25",
                  "22-26", "22-29", "22-31"),), from_square="22",
        ),
        Diagram(
            "pool-man-backward", "captures", "pool", "W:W18:B14,22", MAN_BACKWARD_CAPTION,
            (only("18x9", "18x25"),),
            Shown("18x25", ("22",)),
        ),
        Diagram(
            "pool-flying-capture", "captures", "pool", "W:WK29:B18", FLYING_CAPTION,
            (only("29x4", "29x8", "29x11", "29x15"),),
            Shown("29x11", ("18",)),
        ),
        Diagram(
            "pool-free-choice", "choice", "pool", "W:W18:B6,14,22", FREE_CHOICE_CAPTION,
            (only("18x25", "18x9x2"),),
            Shown("18x25", ("22",)),
        ),
        Diagram(
            "pool-pass-through", "promotion", "pool", "W:W12:B7,8", PASS_THROUGH_CAPTION,
            (only("12x3x10"),),
            Shown("12x3x10", ("8", "7"), promotes=False),
        ),
    ),
    "thai": (
        Diagram(
            "thai-start", "setup", "thai", "B:W1-8:B25-32", START_CAPTION,
            (only("25-21", "25-22", "26-22", "26-23", "27-23", "27-24", "28-24"),),
        ),
        Diagram(
            "thai-king-moves", "moves", "thai", "W:WK15:B29", KING_FLYING_CAPTION,
            (only("15-4", "15-8", "15-11", "15-18", "15-22", "15-25", "15-19", "15-24",
                  "15-28", "15-10", "15-6", "15-1"),), from_square="15",
        ),
        Diagram(
            "thai-man-forward", "captures", "thai", "W:W19:B24,15", MAN_FORWARD_CAPTION,
            (only("19x28"), illegal("19x10", "man_captures_backward")),
            Shown("19x28", ("24",)),
        ),
        Diagram(
            "thai-king-lands-behind", "captures", "thai", "W:WK30:B19",
            N_(
                "A king captures from a distance but must stop right behind the piece: "
                "%(move)s is the only capture, and %(illegal)s, landing further on, is refused."
            ),
            (only("30x16"), illegal("30x12", "king_lands_behind")),
            Shown("30x16", ("19",)),
        ),
        Diagram(
            "thai-removed-at-once", "captures", "thai", "W:WK10:B6,19",
            N_(
                "Each captured piece leaves the board at once, so the king may turn straight "
                "back over the square it came from: %(move)s takes %(captures)s."
            ),
            (only("10x1x24", "10x24x1"),),
            Shown("10x1x24", ("6", "19")),
        ),
        Diagram(
            "thai-free-choice", "choice", "thai", "W:W6,14:B10,18", FREE_CHOICE_CAPTION,
            (only("14x23", "6x15x22"),),
            Shown("14x23", ("18",)),
        ),
        Diagram(
            "thai-crowned-stop", "promotion", "thai", "W:W22:B24,26", STOP_CAPTION,
            (only("22x31"), illegal("22x31x20", "promotion_ends_capture")),
            Shown("22x31", ("26",), promotes=True),
        ),
    ),
    OPTIONAL_CAPTURE_PAGE: (
        Diagram(
            "optional-american", "captures", "american", "W:W22,25:B18",
            N_(
                "American checkers with captures optional: the capture and the quiet moves "
                "are all legal: %(moves)s."
            ),
            (only("22x15", "22-17", "25-21"),),
            Shown("22-17"),
            optional_capture=True,
        ),
        Diagram(
            "optional-italian", "choice", "italian", "W:W21,24:B10,18,20",
            N_(
                "Italian draughts with captures optional: White may play a quiet move, but if "
                "it captures, the priorities still apply, so %(illegal)s is refused. Legal "
                "moves: %(moves)s."
            ),
            (only("21x14x5", "21-17"), illegal("24x15", "most_pieces")),
            Shown("21x14x5", ("18", "10")),
            optional_capture=True,
        ),
    ),
    LOSING_PAGE: (
        Diagram(
            "losing-last-piece", "end", "international+losing", "W:W32:B28",
            N_("White must take with %(move)s; Black, left without pieces, wins."),
            (only("32x23"), ends("32x23", "black", "losing-no-pieces")),
            Shown("32x23", ("28",)),
        ),
        Diagram(
            "losing-blocked", "end", "international+losing", "B:W46:B41,32",
            N_("After %(move)s White's man on 46 cannot move, and White wins: Black, who "
               "wants to lose, must not play it."),
            (only("32-37", "32-38", "41-47"), ends("32-37", "white", "losing-no-legal-move")),
            Shown("32-37"),
        ),
    ),
    BREAKTHROUGH_PAGE: (
        Diagram(
            "breakthrough-quiet", "end", "international+breakthrough", "W:W6:B45",
            N_("%(move)s makes the first king, and White wins at once."),
            (only("6-1"), ends("6-1", "white", "breakthrough")),
            Shown("6-1", promotes=True),
        ),
        Diagram(
            "breakthrough-russian", "end", "russian+breakthrough", "W:Wb6:Bc7,e7,a5",
            N_("In Russian draughts the man crowned on d8 finishes its capture as a king, "
               "%(move)s, and then White has won."),
            (legal("b6:d8:f6"), ends("b6:d8:f6", "white", "breakthrough")),
            Shown("b6:d8:f6", ("c7", "e7"), promotes=True),
        ),
    ),
}


DIAGRAMS.update(FRISIAN_DIAGRAMS)
DIAGRAMS.update(TURKISH_DIAGRAMS)
DIAGRAMS.update(TWELVE_DIAGRAMS)


def all_diagrams() -> list[tuple[str, Diagram]]:
    """Every ``(page id, diagram)`` pair, in page order."""
    return [(page, d) for page, diagrams in DIAGRAMS.items() for d in diagrams]

