"""The diagrams of a custom rule set whose every square plays (``all_squares``: pieces move and
capture along rows and columns, as in Turkish draughts), made from its rule parameters.

Drawn in board coordinates (file, rank from White's lower left) on the 8x8 board's 64
squares, with the Turkish rules page's captions where they say the same thing. Each diagram is
shown only where its caption holds for the rule set (a king's straight moves only when kings
fly, the men's forward-or-sideways captures only when men do not capture backward, ...);
``tests/web/custom/test_custom_diagrams.py`` checks every claim against the rules core.
"""

from __future__ import annotations

from damiera.rules.geometry import geometry
from damiera.rules.position import start_position, write_fen
from damiera.rules.variant import Variant
from damiera.web.rules_pages.diagram_model import (
    FLYING_CAPTION,
    START_CAPTION,
    Diagram,
    Shown,
    only,
)
from damiera.web.rules_pages.turkish_diagrams import (
    KING_STRAIGHT_CAPTION,
    MAN_SIDEWAYS_CAPTION,
    MAN_STRAIGHT_CAPTION,
)

Point = tuple[int, int]


def straight_diagrams(v: Variant) -> tuple[Diagram, ...]:
    """The diagrams of ``v``'s rules page (``v.all_squares``) up to its promotion, by
    section (the goal's, drawn for either board, are :mod:`damiera.web.custom.diagrams`');
    their ``variant`` is ``v.full_id``."""
    geo = geometry(v)
    labels = {geo.file_rank(s): geo.label(s) for s in geo.label_order}
    diagrams = (_start(v, labels), _man_moves(v, labels), _king_moves(v, labels),
                _men_capture(v, labels), _flying(v, labels))
    return tuple(d for d in diagrams if d is not None)


def _fen(white: list[str], black: list[str]) -> str:
    return f"W:W{','.join(white)}:B{','.join(black)}"


def _start(v: Variant, labels: dict[Point, str]) -> Diagram:
    """The start: each man of the side to move on its front row steps forward (the rows
    around it are full)."""
    n = v.board_size
    front = v.back_rows_empty + v.man_rows - 1
    up = v.first_to_move.word == "white"
    rank, ahead = (front, front + 1) if up else (n - 1 - front, n - 2 - front)
    moves = [f"{labels[(f, rank)]}-{labels[(f, ahead)]}" for f in range(n)]
    return Diagram("custom-start", "setup", v.full_id, write_fen(v, start_position(v)),
                   START_CAPTION, (only(*moves),))


def _man_moves(v: Variant, labels: dict[Point, str]) -> Diagram:
    """A man in the middle: one square forward or sideways."""
    man = labels[(3, 3)]
    moves = [f"{man}-{labels[p]}" for p in ((2, 3), (3, 4), (4, 3))]
    return Diagram("custom-man-straight", "moves", v.full_id, _fen([man], [labels[(7, 7)]]),
                   MAN_STRAIGHT_CAPTION, (only(*moves),), from_square=man)


def _king_moves(v: Variant, labels: dict[Point, str]) -> Diagram | None:
    """A flying king in the middle: every square of its row and its column."""
    if not v.flying_kings:
        return None
    king = labels[(3, 3)]
    reach = [f"{king}-{label}" for (f, r), label in labels.items()
             if (f == 3) != (r == 3)]
    return Diagram("custom-king-straight", "moves", v.full_id,
                   _fen(["K" + king], [labels[(7, 7)]]), KING_STRAIGHT_CAPTION, (only(*reach),),
                   from_square=king)


def _men_capture(v: Variant, labels: dict[Point, str]) -> Diagram | None:
    """A man with a piece on each side and one behind: it takes sideways, never backward."""
    if v.men_capture_backward or not v.mandatory_capture:
        return None
    man = labels[(3, 3)]
    left, right, behind = labels[(2, 3)], labels[(4, 3)], labels[(3, 2)]
    moves = [f"{man}x{labels[(1, 3)]}", f"{man}x{labels[(5, 3)]}"]
    return Diagram("custom-man-sideways", "captures", v.full_id,
                   _fen([man], [left, right, behind]), MAN_SIDEWAYS_CAPTION, (only(*moves),),
                   Shown(moves[0], (left,)))


def _flying(v: Variant, labels: dict[Point, str]) -> Diagram | None:
    """A flying king taking a piece from afar along its column, landing anywhere beyond."""
    if not v.flying_kings or v.king_lands_behind or not v.mandatory_capture:
        return None
    king, enemy = labels[(3, 0)], labels[(3, 4)]
    moves = [f"{king}x{labels[(3, r)]}" for r in range(5, v.board_size)]
    return Diagram("custom-king-along-a-file", "captures", v.full_id,
                   _fen(["K" + king], [enemy]), FLYING_CAPTION, (only(*moves),),
                   Shown(moves[-1], (enemy,)))
