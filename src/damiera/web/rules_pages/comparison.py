"""The "differences from American checkers" table, generated from the rule parameters.

Every cell is derived from a :class:`~damiera.rules.variant.Variant` field, never typed by
hand, so the table cannot contradict the rules core. Cell texts are English message ids
(translated when the page is built) with their ``%(...)s`` values.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from damiera.rules.variant import (
    AMERICAN,
    CaptureChoice,
    Color,
    Notation,
    PromotionDuringCapture,
    Variant,
)
from damiera.web.rules_pages.messages import N_, Translate

#: Short texts of each capture-choice rule (table cells, index summaries).
CHOICE_SHORT: dict[CaptureChoice, str] = {
    CaptureChoice.FREE: N_("Free choice"),
    CaptureChoice.MAJORITY: N_("The most pieces"),
    CaptureChoice.ITALIAN_PRIORITIES: N_(
        "Most pieces, then with a king, then most kings, then the king met first"
    ),
    CaptureChoice.MOST_PIECES_THEN_KINGS: N_("Most pieces, then most kings"),
    CaptureChoice.KING_PRECEDENCE: N_("A king must capture if it can"),
    CaptureChoice.VALUE: N_("The highest value (a king counts more than a man, less than two)"),
}

#: Short texts of what happens to a man reaching the far row during a capture.
PROMOTION_SHORT: dict[PromotionDuringCapture, str] = {
    PromotionDuringCapture.PROMOTE_AND_STOP: N_("Crowned, the move ends"),
    PromotionDuringCapture.PROMOTE_AND_CONTINUE: N_("Crowned, goes on capturing as a king"),
    PromotionDuringCapture.PASS_THROUGH: N_("Stays a man unless the move ends there"),
}

YES, NO = N_("Yes"), N_("No")
WHITE, BLACK = N_("White"), N_("Black")


@dataclass(frozen=True, slots=True)
class Cell:
    """A message id and its ``%(...)s`` values; :meth:`text` translates and fills it."""

    message: str
    params: tuple[tuple[str, str], ...] = ()

    def text(self, gettext: Translate) -> str:
        translated = gettext(self.message)
        return translated % dict(self.params) if self.params else translated


def _yes_no(value: bool) -> Cell:
    return Cell(YES if value else NO)


def _goal(v: Variant) -> Cell:
    """How the game is won: the usual goal, the losing rule's, or breakthrough's."""
    if v.losing:
        return Cell(N_("No piece or no move left wins"))
    if v.breakthrough:
        return Cell(N_("The first king wins"))
    return Cell(N_("No piece or no move left loses"))


def _notation(v: Variant) -> Cell:
    if v.notation is Notation.ALGEBRAIC:
        return Cell(N_("Letters and digits (a1–h8)"))
    return Cell(N_("Numbers 1–%(n)s"), (("n", str(v.squares)),))


#: The table's rows: (row label message id, cell of a variant).
ROWS: tuple[tuple[str, Callable[[Variant], Cell]], ...] = (
    (N_("Board"), lambda v: Cell("%(n)s×%(n)s", (("n", str(v.board_size)),))),
    (N_("Men per side"), lambda v: Cell("%(n)s", (("n", str(v.men_per_side)),))),
    (N_("First to move"), lambda v: Cell(WHITE if v.first_to_move is Color.WHITE else BLACK)),
    (N_("How the game is won"), _goal),
    (N_("Capturing is compulsory"), lambda v: _yes_no(v.mandatory_capture)),
    (N_("Men capture backwards"), lambda v: _yes_no(v.men_capture_backward)),
    (N_("Flying kings"), lambda v: _yes_no(v.flying_kings)),
    (N_("Men may capture kings"), lambda v: _yes_no(v.men_capture_kings)),
    (N_("Captures along rows and columns"), lambda v: _yes_no(v.orthogonal_captures)),
    (N_("Every square used, moves along rows and columns"), lambda v: _yes_no(v.all_squares)),
    (N_("Which capture you must choose"), lambda v: Cell(CHOICE_SHORT[v.capture_choice])),
    (
        N_("Man reaching the far row during a capture"),
        lambda v: Cell(PROMOTION_SHORT[v.promotion_during_capture]),
    ),
    (N_("A capturing king lands right behind the piece"), lambda v: _yes_no(v.king_lands_behind)),
    (
        N_("Captured pieces leave the board"),
        lambda v: Cell(N_("As they are jumped") if v.remove_captured_at_once
                       else N_("When the move ends")),
    ),
    (N_("Square names"), _notation),
    (
        N_("Draw without captures or promotions"),
        lambda v: Cell(N_("After %(n)s moves each"), (("n", str(v.draw_moves_without_progress)),)),
    ),
)


@dataclass(frozen=True, slots=True)
class Row:
    """One translated table row: label, American value, this variant's value, and whether
    they differ."""

    label: str
    reference: str
    value: str
    differs: bool


def comparison(v: Variant, gettext: Translate, reference: Variant = AMERICAN) -> list[Row]:
    """The rows comparing ``v`` with ``reference`` (American checkers), translated."""
    rows = []
    for label, cell_of in ROWS:
        ref, mine = cell_of(reference), cell_of(v)
        rows.append(Row(gettext(label), ref.text(gettext), mine.text(gettext), ref != mine))
    return rows


def summary(v: Variant, gettext: Translate) -> list[str]:
    """Short facts about ``v`` for the rules index, built from the rule parameters."""
    parts = [
        f"{v.board_size}×{v.board_size}",
        gettext(N_("men capture backwards"))
        if v.men_capture_backward
        else gettext(N_("men capture forwards and sideways")) if v.all_squares
        else gettext(N_("men capture forwards only")),
        gettext(N_("flying kings")) if v.flying_kings else gettext(N_("short kings")),
    ]
    if v.orthogonal_captures:
        parts.append(gettext(N_("men and kings also capture along rows and columns")))
    if v.all_squares:
        parts.append(gettext(N_("every square used, pieces move along rows and columns")))
    if v.king_lands_behind:
        parts.append(gettext(N_("kings land right behind the piece they take")))
    if v.remove_captured_at_once:
        parts.append(gettext(N_("captured pieces removed at once")))
    if not v.men_capture_kings:
        parts.append(gettext(N_("men cannot take kings")))
    parts.append(gettext(CHOICE_SHORT[v.capture_choice]))
    return parts
