"""The diagrams of a custom rule set's page, made from its rule parameters.

Each diagram is a small position drawn in board coordinates (file, rank from White's lower
left, as for a board whose a1 is dark) and the claims its caption makes, stated from the rule
parameters the way the rules pages state them (a man capturing backward or not, a flying
king's landings, the capture-choice rule, what a man crowned during a capture does, the
goal), never by asking the rules core: ``tests/web/custom/test_custom_diagrams.py`` checks
every claim of many rule sets against the core, as the named pages' diagrams are checked.

Captions are the named pages' own (already translated) where they say the same thing.
"""

from __future__ import annotations

from collections.abc import Sequence

from damiera.rules.geometry import geometry
from damiera.rules.position import start_position, write_fen
from damiera.rules.variant import CaptureChoice, PromotionDuringCapture, Variant
from damiera.web.custom.straight_diagrams import straight_diagrams
from damiera.web.rules_pages.diagram_model import (
    FLYING_CAPTION,
    FREE_CHOICE_CAPTION,
    KING_FLYING_CAPTION,
    KING_SHORT_CAPTION,
    MAN_BACKWARD_CAPTION,
    MAN_FORWARD_CAPTION,
    MANDATORY_CAPTION,
    PASS_THROUGH_CAPTION,
    START_CAPTION,
    STOP_CAPTION,
    Claim,
    Diagram,
    Shown,
    ends,
    illegal,
    legal,
    only,
)
from damiera.web.rules_pages.messages import N_

Point = tuple[int, int]

OPTIONAL_CAPTION = N_(
    "Captures are optional: the capture and the quiet moves are all legal: %(moves)s."
)
CONTINUE_SHORT_CAPTION = N_(
    "The man jumps onto the far row, is crowned at once and goes on capturing as a king in "
    "the same move: %(move)s takes %(captures)s."
)
#: The named pages' captions reused here (the same English text: the same translations).
LAND_BEHIND_CAPTION = N_(
    "A king captures from a distance but must stop right behind the piece: %(move)s is the "
    "only capture, and %(illegal)s, landing further on, is refused."
)
CONTINUE_FLYING_CAPTION = N_(
    "The man jumps onto the far row, is crowned at once and goes on capturing as a flying "
    "king in the same move: %(move)s takes %(captures)s."
)
MOST_PIECES_CAPTION = {
    CaptureChoice.MAJORITY: N_(
        "Majority rule: %(move)s takes two pieces, so the single capture %(illegal)s is not "
        "allowed."),
    CaptureChoice.MOST_PIECES_THEN_KINGS: N_(
        "The most pieces first: %(move)s takes two, so the single capture %(illegal)s is not "
        "allowed."),
    CaptureChoice.ITALIAN_PRIORITIES: N_(
        "Rule 1, the most pieces: %(move)s takes two pieces, so the single capture "
        "%(illegal)s is not allowed."),
}
REMOVED_AT_ONCE_CAPTION = N_(
    "Each captured piece leaves the board at once, so the king may turn straight back over "
    "the square it came from: %(move)s takes %(captures)s."
)
LOSING_CAPTION = N_("White must take with %(move)s; Black, left without pieces, wins.")
BREAKTHROUGH_CAPTION = N_("%(move)s makes the first king, and White wins at once.")


class _Board:
    """Labels of a variant's squares by (file, rank), and the diagrams' FEN and moves.

    A diagram is drawn as for a board whose a1 is dark; when its first point is a light
    square of this board, the whole drawing is mirrored left to right (every diagonal stays a
    diagonal, so the rules it shows are the same)."""

    def __init__(self, v: Variant) -> None:
        geo = geometry(v)
        self.size = v.board_size
        self.labels = {geo.file_rank(s): geo.label(s) for s in geo.label_order}

    def fit(self, points: Sequence[Point]) -> list[str]:
        flip = points[0] not in self.labels
        return [self.labels[(self.size - 1 - f, r) if flip else (f, r)] for f, r in points]

    def fen(self, white: Sequence[str], black: Sequence[str], turn: str = "W") -> str:
        return f"{turn}:W{','.join(white)}:B{','.join(black)}"


def _quiet(a: str, b: str) -> str:
    return f"{a}-{b}"


def _capture(*path: str) -> str:
    return "x".join(path)


def custom_diagrams(v: Variant) -> tuple[Diagram, ...]:
    """The diagrams of ``v``'s rules page, by section (setup, moves, captures, choice,
    promotion, end); their ``variant`` is ``v.full_id``."""
    board = _Board(v)
    if v.all_squares:  # straight moves on the 64 squares
        diagrams: tuple[Diagram | None, ...] = (*straight_diagrams(v), _goal(v, board))
    elif v.orthogonal_captures:
        # captures along rows and columns too: the capture diagrams here show diagonal
        # captures alone, so only the start, the king's (diagonal) moves and the goal
        diagrams = (_start(v, board), _king_moves(v, board), _goal(v, board))
    else:
        diagrams = (
            _start(v, board), _king_moves(v, board), _mandatory(v, board), _men(v, board),
            _flying(v, board), _removed_at_once(v, board), _choice(v, board),
            _promotion(v, board), _goal(v, board),
        )
    return tuple(d for d in diagrams if d is not None)


def _start(v: Variant, board: _Board) -> Diagram:
    """The start: each man of the side to move on its front row steps forward."""
    up = v.first_to_move.word == "white"
    rows = v.back_rows_empty + v.man_rows  # the front row's distance from the edge, plus 1
    front = rows - 1 if up else v.board_size - rows
    step = 1 if up else -1
    moves = [_quiet(board.labels[(f, front)], board.labels[(f + df, front + step)])
             for (f, r) in board.labels if r == front for df in (-1, 1)
             if (f + df, front + step) in board.labels]
    fen = write_fen(v, start_position(v))
    return Diagram("custom-start", "setup", v.full_id, fen, START_CAPTION, (only(*moves),))


def _king_moves(v: Variant, board: _Board) -> Diagram:
    """A king in the middle: one step each way, or every square of its diagonals."""
    n = board.size
    king, man = board.fit([(n // 2 - 1, n // 2 - 1), (n // 2, n // 2 + 2)])
    kf, kr = next(p for p, label in board.labels.items() if label == king)
    reach = []
    for df, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        f, r = kf + df, kr + dr
        while (f, r) in board.labels:
            reach.append(_quiet(king, board.labels[(f, r)]))
            if not v.flying_kings:
                break
            f, r = f + df, r + dr
    caption = KING_FLYING_CAPTION if v.flying_kings else KING_SHORT_CAPTION
    return Diagram("custom-king-moves", "moves", v.full_id, board.fen(["K" + king], [man]),
                   caption, (only(*reach),), from_square=king)


def _mandatory(v: Variant, board: _Board) -> Diagram:
    """A man that can capture beside one that can only step: the capture is compulsory, or
    (optional capture) every move is legal."""
    man, enemy, land, side_step, other, o1, o2 = board.fit(
        [(2, 2), (3, 3), (4, 4), (1, 3), (6, 0), (5, 1), (7, 1)])
    fen = board.fen([man, other], [enemy])
    capture = _capture(man, land)
    if v.mandatory_capture:
        return Diagram("custom-mandatory", "captures", v.full_id, fen, MANDATORY_CAPTION,
                       (only(capture), illegal(_quiet(other, o1), "capture_mandatory")),
                       Shown(capture, (enemy,)))
    moves = (capture, _quiet(man, side_step), _quiet(other, o1), _quiet(other, o2))
    return Diagram("custom-optional", "captures", v.full_id, fen, OPTIONAL_CAPTION,
                   (only(*moves),), Shown(capture, (enemy,)))


def _men(v: Variant, board: _Board) -> Diagram:
    """A man on the edge with a piece to take ahead and one behind (no quiet move)."""
    man, ahead, land_ahead, behind, land_behind = board.fit(
        [(0, 2), (1, 3), (2, 4), (1, 1), (2, 0)])
    fen = board.fen([man], [ahead, behind])
    forward, backward = _capture(man, land_ahead), _capture(man, land_behind)
    if v.men_capture_backward:
        return Diagram("custom-men-backward", "captures", v.full_id, fen, MAN_BACKWARD_CAPTION,
                       (only(forward, backward),), Shown(forward, (ahead,)))
    return Diagram("custom-men-forward", "captures", v.full_id, fen, MAN_FORWARD_CAPTION,
                   (only(forward), illegal(backward, "man_captures_backward")),
                   Shown(forward, (ahead,)))


def _flying(v: Variant, board: _Board) -> Diagram | None:
    """A flying king taking a piece from afar: any landing beyond it, or right behind."""
    if not v.flying_kings:
        return None
    n = board.size
    king, step, enemy, *beyond = board.fit([(i, i) for i in range(n)])
    fen = board.fen(["K" + king], [enemy])
    quiet = () if v.mandatory_capture else (_quiet(king, step),)
    if v.king_lands_behind:
        first = _capture(king, beyond[0])
        claims: tuple[Claim, ...] = (only(first, *quiet),
                                     illegal(_capture(king, beyond[1]), "king_lands_behind"))
        return Diagram("custom-land-behind", "captures", v.full_id, fen, LAND_BEHIND_CAPTION,
                       claims, Shown(first, (enemy,)))
    captures = [_capture(king, square) for square in beyond]
    claims = (legal(*captures), only(*captures, *quiet))
    return Diagram("custom-flying-capture", "captures", v.full_id, fen, FLYING_CAPTION,
                   claims, Shown(captures[1], (enemy,)))


def _removed_at_once(v: Variant, board: _Board) -> Diagram | None:
    """A flying king between two pieces on one diagonal: with each piece gone as it is
    jumped, it takes one, turns straight back over the squares it came by and takes the
    other, in either order (taking the far one first, the turns from each landing end alike
    and are one move)."""
    if not (v.flying_kings and v.remove_captured_at_once) or v.no_reverse_capture:
        return None  # (a capture that may not turn straight back: not this diagram)
    corner, near, king, _empty, far, *beyond = board.fit([(i, i) for i in range(board.size)])
    ends = beyond[:1] if v.king_lands_behind else beyond
    moves = [_capture(king, corner, end) for end in ends]
    # the other order ends on the corner whichever square it turned back from: captures
    # with the same start, end and pieces are one move (RULES.md section 1), its first path
    moves.append(_capture(king, beyond[0], corner))
    claims = (only(*moves),) if v.mandatory_capture else (legal(*moves),)
    return Diagram("custom-removed-at-once", "captures", v.full_id,
                   board.fen(["K" + king], [near, far]), REMOVED_AT_ONCE_CAPTION, claims,
                   Shown(moves[0], (near, far)))


def _choice(v: Variant, board: _Board) -> Diagram | None:
    """One man with a single capture and a double one (no quiet move): free choice, or the
    most pieces."""
    man, single, land1, first, land2, second, land3 = board.fit(
        [(3, 1), (2, 2), (1, 3), (4, 2), (5, 3), (4, 4), (3, 5)])
    fen = board.fen([man], [single, first, second])
    one, two = _capture(man, land1), _capture(man, land2, land3)
    if v.capture_choice is CaptureChoice.VALUE:
        return None  # the capture of the highest value: shown on the Frisian page
    caption = MOST_PIECES_CAPTION.get(v.capture_choice)
    if caption is None:  # free choice, or king precedence among men
        return Diagram("custom-free-choice", "choice", v.full_id, fen, FREE_CHOICE_CAPTION,
                       (only(one, two),), Shown(one, (single,)))
    return Diagram("custom-most-pieces", "choice", v.full_id, fen, caption,
                   (only(two), illegal(one, "most_pieces")), Shown(two, (first, second)))


def _promotion(v: Variant, board: _Board) -> Diagram:
    """A man jumping onto the far row with one more piece to take from there."""
    n = board.size
    points = [(0, n - 3), (1, n - 2), (2, n - 1), (3, n - 2)]
    points += [(4 + i, n - 3 - i) for i in range(n - 4)]
    man, first, crown, second, *beyond = board.fit(points)
    fen = board.fen([man], [first, second])
    short = _capture(man, crown)
    rule = v.promotion_during_capture
    if rule is PromotionDuringCapture.PROMOTE_AND_STOP:
        return Diagram("custom-crowned-stop", "promotion", v.full_id, fen, STOP_CAPTION,
                       (only(short), illegal(_capture(man, crown, beyond[0]),
                                             "promotion_ends_capture")),
                       Shown(short, (first,), promotes=True))
    if rule is PromotionDuringCapture.PASS_THROUGH:
        long = _capture(man, crown, beyond[0])
        return Diagram("custom-pass-through", "promotion", v.full_id, fen,
                       PASS_THROUGH_CAPTION, (only(long),), Shown(long, (first, second)))
    ends_on = beyond if v.flying_kings and not v.king_lands_behind else beyond[:1]
    moves = [_capture(man, crown, square) for square in ends_on]
    caption = CONTINUE_FLYING_CAPTION if v.flying_kings else CONTINUE_SHORT_CAPTION
    return Diagram("custom-crowned-continues", "promotion", v.full_id, fen, caption,
                   (only(*moves),), Shown(moves[0], (first, second), promotes=True))


def _goal(v: Variant, board: _Board) -> Diagram | None:
    """The goal options: giving the last piece away wins; the first king wins."""
    straight = v.all_squares  # pieces go along rows and columns
    if v.losing and v.mandatory_capture:
        man, enemy, land = board.fit([(2, 2), (2, 3), (2, 4)] if straight
                                     else [(2, 2), (3, 3), (4, 4)])
        capture = _capture(man, land)
        return Diagram("custom-losing", "end", v.full_id, board.fen([man], [enemy]),
                       LOSING_CAPTION, (only(capture),
                                        ends(capture, "black", "losing-no-pieces")),
                       Shown(capture, (enemy,)))
    if v.breakthrough:
        n = board.size
        man, crown, enemy = board.fit([(0, n - 2) if straight else (1, n - 2), (0, n - 1),
                                       (0, 1)])
        move = _quiet(man, crown)
        return Diagram("custom-breakthrough", "end", v.full_id, board.fen([man], [enemy]),
                       BREAKTHROUGH_CAPTION, (legal(move), ends(move, "white", "breakthrough")),
                       Shown(move, promotes=True))
    return None
