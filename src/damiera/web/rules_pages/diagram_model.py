"""What a rules page's diagram is (:class:`Diagram`, the move it shows, the claims its caption
makes, checked by the rules core: see :mod:`damiera.web.rules_pages.diagrams`), the page ids and
sections diagrams sit in, and the captions the rule sets' pages share."""

from __future__ import annotations

from dataclasses import dataclass

from damiera.web.rules_pages.messages import N_

#: Page ids of the rule options' pages (the other pages are variant ids).
OPTIONAL_CAPTURE_PAGE = "optional-capture"
LOSING_PAGE = "losing"
BREAKTHROUGH_PAGE = "breakthrough"

#: Page sections a diagram can sit in, in page order.
SECTIONS = ("setup", "moves", "captures", "choice", "promotion", "end")


@dataclass(frozen=True, slots=True)
class Shown:
    """The move a diagram draws: ``move`` in full notation, the labels it ``captures`` in
    capture order, and whether the man ``promotes`` (is crowned) by it."""

    move: str
    captures: tuple[str, ...] = ()
    promotes: bool = False


@dataclass(frozen=True, slots=True)
class Claim:
    """One statement the caption makes about the position (see the module docstring)."""

    kind: str
    moves: tuple[str, ...] = ()
    move: str = ""
    reason_code: str = ""
    winner: str = ""


@dataclass(frozen=True, slots=True)
class Diagram:
    """One diagram of a rules page."""

    id: str
    section: str
    variant: str
    fen: str
    caption: str
    claims: tuple[Claim, ...]
    shown: Shown | None = None
    optional_capture: bool = False
    #: Mark every legal move's landing square from ``from_square`` (a piece's whole range).
    from_square: str = ""

    def caption_params(self) -> dict[str, str]:
        """Values for the caption's ``%(...)s`` fields, all taken from the checked data."""
        params: dict[str, str] = {}
        if self.shown is not None:
            params["move"] = self.shown.move
            params["captures"] = ", ".join(self.shown.captures)
        for claim in self.claims:
            if claim.kind in ("only_legal_moves", "legal") and "moves" not in params:
                params["moves"] = ", ".join(claim.moves)
            if claim.kind == "illegal" and "illegal" not in params:
                params["illegal"] = claim.move
        return params


def only(*moves: str) -> Claim:
    """Claim: the legal moves are exactly ``moves``."""
    return Claim("only_legal_moves", moves=tuple(moves))


def legal(*moves: str) -> Claim:
    """Claim: each of ``moves`` is legal."""
    return Claim("legal", moves=tuple(moves))


def ends(move: str, winner: str, reason: str) -> Claim:
    """Claim: after ``move`` ("" for the position itself) ``winner`` ("white"/"black") has
    won for ``reason`` (a :class:`~damiera.rules.game.ResultReason` value)."""
    return Claim("ends", move=move, winner=winner, reason_code=reason)


def illegal(move: str, reason_code: str) -> Claim:
    """Claim: ``move`` is refused for the reason ``reason_code``."""
    return Claim("illegal", move=move, reason_code=reason_code)


ALG_START = (
    "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
)
KING_SHORT_CAPTION = N_(
    "A king steps one square diagonally, forwards or backwards: from its square it can go to "
    "%(moves)s."
)
KING_FLYING_CAPTION = N_(
    "A flying king moves any distance along its diagonals, up to the next piece or the edge of "
    "the board: %(moves)s."
)
START_CAPTION = N_(
    "The starting position. The side that moves first can open with any of these moves: "
    "%(moves)s."
)
FLYING_CAPTION = N_(
    "A flying king captures from a distance and may land on any empty square beyond the "
    "piece: %(moves)s."
)
MANDATORY_CAPTION = N_(
    "Capturing is compulsory: %(move)s is the only legal move, and a quiet move such as "
    "%(illegal)s is refused."
)
MAN_FORWARD_CAPTION = N_(
    "A man captures forwards only: %(move)s is the only legal move, while %(illegal)s, "
    "a backward capture, is refused."
)
MAN_BACKWARD_CAPTION = N_(
    "A man captures backwards as well as forwards: %(moves)s are both legal."
)
PASS_THROUGH_CAPTION = N_(
    "The man touches the far row in the middle of %(move)s but must go on capturing, so it "
    "finishes the move as a man."
)
FREE_CHOICE_CAPTION = N_(
    "Free choice: %(moves)s are both legal, so White may take a single piece with %(move)s."
)
STOP_CAPTION = N_(
    "With %(move)s the man reaches the far row and is crowned. The move ends there, so "
    "%(illegal)s, going on as a king, is not allowed."
)
