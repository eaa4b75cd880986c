"""The rules pages' content, composed from rule parameters and translated per language.

Where variants agree, one shared sentence is used by every variant whose
:class:`~damiera.rules.variant.Variant` parameter says so (e.g. "men capture forwards and
backwards" for every variant with ``men_capture_backward``); only the introduction and the
strategy tips are written per variant (keyed by page id). Diagrams come from
:mod:`damiera.web.rules_pages.diagrams`, the comparison table from
:mod:`damiera.web.rules_pages.comparison`. :func:`build_page` and :func:`build_index` return
plain, already translated data for the templates.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from damiera.rules.movegen import apply_move, legal_moves
from damiera.rules.notation import move_labels
from damiera.rules.position import parse_fen
from damiera.rules.variant import (
    VARIANTS,
    CaptureChoice,
    Color,
    Notation,
    Numbering,
    PromotionDuringCapture,
    Variant,
)
from damiera.rules.variant import variant as get_variant
from damiera.web.rules_pages.comparison import Row, comparison, summary
from damiera.web.rules_pages.diagram_model import Diagram
from damiera.web.rules_pages.diagrams import DIAGRAMS
from damiera.web.rules_pages.messages import N_, Translate
from damiera.web.rules_pages.options import OPTION_PAGES, OPTIONAL, OptionPage
from damiera.web.rules_pages.texts import INTRO, TIPS
from damiera.web.serialization import pieces_json

# --------------------------------------------------------------------------------------------
# Shared, parameter-driven sentences.

SECTION_TITLES: dict[str, str] = {
    "setup": N_("Board and set-up"),
    "moves": N_("Moves"),
    "captures": N_("Captures"),
    "choice": N_("Which capture you must choose"),
    "promotion": N_("Promotion"),
    "end": N_("End of the game"),
    "differences": N_("Differences from American checkers"),
    "tips": N_("Strategy tips"),
    "faq": N_("Frequently asked questions"),
}

BOARD = N_(
    "The board has %(size)s×%(size)s squares, but only its %(squares)s dark squares are used. "
    "Each player starts with %(men)s men on the dark squares of the %(rows)s rows nearest to "
    "them; the rows in the middle stay empty."
)
BOARD_ALL = N_(
    "The board has %(size)s×%(size)s squares and all %(squares)s are used; their colours do "
    "not matter. Each player starts with %(men)s men filling the %(rows)s rows just in front "
    "of their own back row, which stays empty, as do the rows in the middle."
)
CORNER_A1 = N_("The board is placed so that each player has a dark square in the left corner.")
CORNER_MIRRORED = N_(
    "The board is mirrored compared with most variants: each player has a dark square in the "
    "right corner."
)
FIRST = {
    Color.WHITE: N_("White moves first, then the players take turns."),
    Color.BLACK: N_("Black moves first, then the players take turns."),
}
NOTATION_TEXT = {
    Numbering.FROM_TOP_LEFT: N_(
        "The dark squares are numbered from 1 to %(squares)s, row by row from the top, left to "
        "right as White sees the board. A quiet move is written with its start and end "
        "square (22-18), a capture with every square it lands on (26x17)."
    ),
    Numbering.FROM_BOTTOM_RIGHT: N_(
        "The dark squares are numbered from 1 to %(squares)s, row by row from White's side, "
        "counting from right to left. A quiet move is written with its start and end square "
        "(10-14), a capture with every square it lands on (10x19)."
    ),
}
NOTATION_ALGEBRAIC = N_(
    "Squares are named as in chess: files a to h from left to right and ranks 1 to 8 from "
    "White's side. A quiet move is written c3-d4, a capture c3xe5 (or c3:e5)."
)

MAN_MOVE = N_("A man moves one square diagonally forwards onto an empty square.")
MAN_MOVE_STRAIGHT = N_(
    "A man moves one square straight forwards or sideways onto an empty square, never "
    "diagonally and never backwards."
)
KING_FLYING_STRAIGHT = N_(
    "Kings fly along rows and columns: a king moves any number of empty squares forwards, "
    "backwards or sideways, like a rook in chess, never diagonally."
)
KING_SHORT = N_("A king moves one square diagonally in any of the four directions.")
KING_FLYING = N_(
    "Kings fly: a king moves any number of empty squares along a diagonal, forwards or "
    "backwards."
)

MANDATORY = N_(
    "Capturing is compulsory: when you can capture, you must, and no quiet move is allowed. "
    "This applies to the whole position, not only to one piece."
)
JUMP = N_(
    "A piece captures by jumping diagonally over an enemy piece onto the empty square right "
    "behind it."
)
MEN_FORWARD_ONLY = N_("Men capture forwards only.")
JUMP_STRAIGHT = N_(
    "A piece captures by jumping straight over an enemy piece, along its row or its column, "
    "onto the empty square right behind it."
)
MEN_FORWARD_SIDEWAYS = N_("Men capture forwards and sideways, never backwards.")
MEN_BACKWARD = N_("Men capture forwards and backwards.")
KING_CAPTURE_SHORT = N_(
    "A king captures like a man, jumping over an adjacent piece, but in all four directions."
)
KING_CAPTURE_FLYING = N_(
    "A flying king can capture a piece from a distance when the squares before it are empty, "
    "and may land on any empty square beyond it. If the capture can go on only from some of "
    "those squares, the king must land on one of them."
)
KING_CAPTURE_BEHIND = N_(
    "A flying king can capture a piece from a distance when the squares before it are empty, "
    "but it must land on the square right behind that piece, and go on capturing from there "
    "if it can."
)
MEN_NO_KINGS = N_(
    "A man may never capture a king, at any jump of a capture: a man's capture stops where "
    "the next piece in its way is a king. Kings capture men and kings."
)
MEN_TAKE_KINGS = N_("Men may capture kings as well as men.")
MULTI = N_(
    "If the capturing piece can jump again, it must go on in the same move, changing "
    "direction if needed: this is a multi-capture. A capture, once begun, must be completed."
)
TURKISH = N_(
    "Captured pieces stay on the board until the move is over and are then removed together. "
    "A piece cannot be jumped twice, and a captured piece still blocks the way."
)
REMOVED_AT_ONCE = N_(
    "Each captured piece leaves the board as soon as it is jumped, so later jumps of the same "
    "move may cross or land on its square, and the capturing piece may turn straight back."
)
REMOVED_AT_ONCE_NO_TURN = N_(
    "Each captured piece leaves the board as soon as it is jumped, so later jumps of the same "
    "move may cross or land on its square; but between two jumps the capturing piece may "
    "never turn straight back."
)
REFUSED = N_(
    "On this site a move that breaks a rule is refused with the reason, and the position "
    "stays as it was."
)

CHOICE_TEXT: dict[CaptureChoice, tuple[str, ...]] = {
    CaptureChoice.FREE: (
        N_(
            "When several captures are possible you may choose any of them, even one that "
            "takes fewer pieces. You only have to complete the capture you chose."
        ),
    ),
    CaptureChoice.MAJORITY: (
        N_(
            "You must choose a capture that takes the greatest number of pieces. Kings and men "
            "count the same. Among captures that take as many pieces you may choose."
        ),
    ),
    CaptureChoice.MOST_PIECES_THEN_KINGS: (
        N_(
            "You must choose a capture that takes the greatest number of pieces. If several "
            "take as many, you must choose one that takes the most kings. Among captures "
            "still equal you may choose."
        ),
    ),
    CaptureChoice.KING_PRECEDENCE: (
        N_(
            "If any of your kings can capture, you must capture with a king, even if a man "
            "could take more pieces."
        ),
        N_(
            "Apart from this you choose freely, among the king captures or among the man "
            "captures: there is no duty to take the most pieces."
        ),
    ),
    CaptureChoice.VALUE: (
        N_(
            "You must choose the capture of the highest value. A king is worth more than one "
            "man but less than two: one king outweighs one man, two men outweigh one king, and "
            "two kings outweigh three men."
        ),
        N_(
            "When a king and a man can make captures of the same value, the king must capture. "
            "Among captures still equal you may choose."
        ),
    ),
    CaptureChoice.ITALIAN_PRIORITIES: (
        N_(
            "When several captures are possible, apply these rules in order until only one "
            "remains; if several are still equal, choose freely:"
        ),
    ),
}
ITALIAN_PRIORITY_LIST = (
    N_("Take the greatest number of pieces."),
    N_("If equal, capture with a king rather than with a man."),
    N_("If still equal, take the most kings."),
    N_("If still equal, take the capture that meets a king first."),
)

PROMOTE = N_("A man that ends its move on the far row becomes a king.")
PROMOTION_TEXT = {
    PromotionDuringCapture.PROMOTE_AND_STOP: N_(
        "If a man reaches the far row during a capture, it is crowned and the move ends there, "
        "even if as a king it could capture again."
    ),
    PromotionDuringCapture.PROMOTE_AND_CONTINUE: N_(
        "If a man reaches the far row during a capture, it is crowned at once and, if it can, "
        "goes on capturing as a king in the same move."
    ),
    PromotionDuringCapture.PASS_THROUGH: N_(
        "A man that only passes through the far row during a capture stays a man; it is "
        "crowned only if the move ends there."
    ),
}

ORTHOGONAL = N_(
    "Men and kings also capture straight along a row or a column, over the next dark square: "
    "sideways across two columns, or forwards and backwards across two rows. A king does so "
    "from afar, as on the diagonals; moves without a capture stay diagonal."
)
ORTHOGONAL_MEN_FORWARD = N_(
    "Men and kings also capture straight along a row or a column, over the next dark square: "
    "sideways across two columns, or across two rows, a man forwards only and a king forwards "
    "and backwards. A king does so from afar, as on the diagonals; moves without a capture "
    "stay diagonal."
)
KING_MOVE_LIMIT = N_(
    "While a side still has men, one king may make at most %(n)s moves in a row without "
    "capturing; then another piece must move (the king may always capture)."
)
KING_ENDING_DRAW = N_(
    "Kings only, %(strong)s against %(weak)s: the game is a draw after %(n)s moves by each "
    "player without a capture."
)

WIN = N_("You win when your opponent, on their turn, has no pieces left or no legal move.")
DRAW_NO_PROGRESS = N_(
    "The game is a draw after %(n)s moves by each player in a row without any capture or "
    "promotion. The counter appears beside the board once it passes 30."
)
DRAW_REPETITION = N_(
    "It is also a draw when the same position, with the same player to move, occurs for the "
    "third time."
)
DRAW_AGREEMENT = N_(
    "Two people playing on the same screen may agree to a draw, and either player may resign."
)

DIFFERENCES_REFERENCE = N_(
    "American checkers is the reference for the other rules pages: each compares its "
    "rules with this column."
)
DIFFERENCES_NOTE = N_("Rows where the rules differ are highlighted.")

FAQ: tuple[tuple[str, str], ...] = (
    (N_("Can men capture backwards?"), "men_backward"),
    (N_("Do kings fly?"), "kings"),
    (N_("Can a man capture a king?"), "men_kings"),
    (N_("Must I take the most pieces?"), "choice"),
    (N_("What happens when a man reaches the far row in the middle of a capture?"), "promotion"),
    (N_("When is the game a draw?"), "draw"),
)


#: Variant names and page chrome used by the templates.
NAMES = (
    N_("American checkers"),
    N_("Italian draughts"),
    N_("Czech draughts"),
    N_("Russian draughts"),
    N_("Brazilian draughts"),
    N_("Spanish draughts"),
    N_("International draughts"),
    N_("Pool checkers"),
    N_("Thai draughts"),
    N_("Frisian draughts"),
    N_("Frysk!"),
    N_("Turkish draughts"),
    N_("Canadian draughts"),
    N_("Malaysian draughts"),
)
UI = {
    "rules": N_("Rules"),
    "rules_index_title": N_("Draughts rules and variants"),
    "rules_index_intro": N_(
        "Pick a variant to read its rules. Every diagram on these pages is checked by the same "
        "rules engine that referees your games, so the pages and the game always agree."
    ),
    "legend_start": N_("start square"),
    "legend_target": N_("landing squares"),
    "legend_captured": N_("captured piece"),
    "legend_crowned": N_("crowned man"),
    "try_it": N_("Try it"),
    "play_variant": N_("Play this variant"),
    "other_variants": N_("Other variants"),
    "all_rules": N_("All rules"),
    "rule": N_("Rule"),
    "american_column": NAMES[0],
    "this_column": N_("This variant"),
    "diagram": N_("Diagram"),
}


# --------------------------------------------------------------------------------------------
# Building pages.


@dataclass
class RenderedDiagram:
    """A diagram ready for the template: position, highlights and translated caption."""

    id: str
    variant: str
    optional_capture: bool
    fen: str
    caption: str
    board_size: int
    #: The shown move as move labels (``move``, ``from``, ``to``, ``path``, ``captures``,
    #: ``promotes``), or None.
    shown: dict[str, object] | None
    #: Every legal move of the position (the same labels), for the board component.
    legal_moves: list[dict[str, object]]
    #: The piece the shown move ends as on its last square when it promotes (the rules
    #: core's position after it, e.g. ``"white-king"``), else None.
    crowned_piece: str | None = None


@dataclass
class Section:
    """A page section: heading, paragraphs, an optional (ordered) list, and diagrams."""

    id: str
    title: str
    paragraphs: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    ordered: bool = False
    diagrams: list[RenderedDiagram] = field(default_factory=list)


@dataclass
class RulesPage:
    """One translated rules page."""

    id: str
    title: str
    intro: str
    sections: list[Section]
    table: list[Row]
    table_note: str
    is_reference: bool
    tips: list[str]
    faq: list[tuple[str, str]]
    variant: str | None
    others: list[tuple[str, str]]


def page_ids() -> list[str]:
    """Every rules page id: the variants in menu order, then the rule options' pages."""
    return [*VARIANTS, *OPTION_PAGES]


def render_diagram(d: Diagram, gettext: Translate) -> RenderedDiagram:
    """The template data of one diagram, with its caption translated and filled."""
    v = get_variant(d.variant, optional_capture=d.optional_capture)  # a canonical id
    pos = parse_fen(v, d.fen)
    pairs = [(m, move_labels(v, m)) for m in legal_moves(v, pos)]
    moves = [labels for _, labels in pairs]
    hit = next(((m, labels) for m, labels in pairs
                if d.shown and labels["move"] == d.shown.move), None)
    shown = hit[1] if hit else None
    crowned = None
    if hit is not None and hit[0].promotes:
        crowned = pieces_json(v, apply_move(pos, hit[0]))[str(hit[1]["to"])]
    return RenderedDiagram(
        id=d.id,
        variant=d.variant,
        optional_capture=d.optional_capture,
        fen=d.fen,
        caption=gettext(d.caption) % d.caption_params(),
        board_size=v.board_size,
        shown=shown,
        legal_moves=moves,
        crowned_piece=crowned,
    )


def _fill(gettext: Translate, message: str, **params: object) -> str:
    text = gettext(message)
    return text % params if params else text


def _king_moves(v: Variant) -> str:
    if v.all_squares and v.flying_kings:
        return KING_FLYING_STRAIGHT
    return KING_FLYING if v.flying_kings else KING_SHORT


def _men_capture(v: Variant) -> str:
    if v.men_capture_backward:
        return MEN_BACKWARD
    return MEN_FORWARD_SIDEWAYS if v.all_squares else MEN_FORWARD_ONLY


def _removal(v: Variant) -> str:
    if not v.remove_captured_at_once:
        return TURKISH
    return REMOVED_AT_ONCE_NO_TURN if v.no_reverse_capture else REMOVED_AT_ONCE


def _rule_sections(v: Variant, gettext: Translate) -> dict[str, Section]:
    """The rule sections of a variant page, every sentence chosen by a rule parameter."""
    t = gettext
    setup = Section("setup", t(SECTION_TITLES["setup"]), [
        _fill(t, BOARD_ALL if v.all_squares else BOARD, size=v.board_size, squares=v.squares,
              men=v.men_per_side, rows=v.man_rows),
        *([] if v.all_squares else [t(CORNER_A1 if v.a1_dark else CORNER_MIRRORED)]),
        t(FIRST[v.first_to_move]),
        _fill(t, NOTATION_ALGEBRAIC) if v.notation is Notation.ALGEBRAIC
        else _fill(t, NOTATION_TEXT[v.numbering], squares=v.squares),
    ])
    moves = Section("moves", t(SECTION_TITLES["moves"]), [
        t(MAN_MOVE_STRAIGHT if v.all_squares else MAN_MOVE), t(_king_moves(v)),
    ])
    if v.king_quiet_move_limit:
        moves.paragraphs.append(_fill(t, KING_MOVE_LIMIT, n=v.king_quiet_move_limit))
    captures = Section("captures", t(SECTION_TITLES["captures"]), items=[
        t(MANDATORY if v.mandatory_capture else OPTIONAL),
        t(JUMP_STRAIGHT if v.all_squares else JUMP),
        t(_men_capture(v)),
        t(KING_CAPTURE_SHORT if not v.flying_kings
          else KING_CAPTURE_BEHIND if v.king_lands_behind else KING_CAPTURE_FLYING),
        t(MEN_TAKE_KINGS if v.men_capture_kings else MEN_NO_KINGS),
        *([t(ORTHOGONAL if v.men_capture_backward else ORTHOGONAL_MEN_FORWARD)]
          if v.orthogonal_captures else []),
        t(MULTI),
        t(_removal(v)),
        t(REFUSED),
    ])
    choice = Section(
        "choice",
        t(SECTION_TITLES["choice"]),
        [t(p) for p in CHOICE_TEXT[v.capture_choice]],
    )
    if v.capture_choice is CaptureChoice.ITALIAN_PRIORITIES:
        choice.items = [t(p) for p in ITALIAN_PRIORITY_LIST]
        choice.ordered = True
    promotion = Section("promotion", t(SECTION_TITLES["promotion"]), [
        t(PROMOTE), t(PROMOTION_TEXT[v.promotion_during_capture]),
    ])
    end = Section("end", t(SECTION_TITLES["end"]), [
        t(WIN),
        _fill(t, DRAW_NO_PROGRESS, n=v.draw_moves_without_progress),
        t(DRAW_REPETITION),
        *[_fill(t, KING_ENDING_DRAW, strong=strong, weak=weak, n=n)
          for strong, weak, n in v.king_ending_draws],
        t(DRAW_AGREEMENT),
    ])
    return {s.id: s for s in (setup, moves, captures, choice, promotion, end)}


def rule_sections(v: Variant, gettext: Translate) -> dict[str, Section]:
    """The rule sections of ``v``'s page by id (setup, moves, captures, choice, promotion,
    end), translated, every sentence chosen by a rule parameter (any Variant: a custom rule
    set's page is built from them too)."""
    return _rule_sections(v, gettext)


def rule_faq(v: Variant, sections: dict[str, Section],
             gettext: Translate) -> list[tuple[str, str]]:
    """The frequent questions of ``v``'s page, answered by its sections' sentences."""
    return _faq(v, sections, gettext)


def _faq(v: Variant, sections: dict[str, Section], gettext: Translate) -> list[tuple[str, str]]:
    """Frequent questions, answered by the same parameter-driven sentences as the rules."""
    t = gettext
    answers = {
        "men_backward": t(_men_capture(v)),
        "kings": t(_king_moves(v)),
        "men_kings": t(MEN_TAKE_KINGS if v.men_capture_kings else MEN_NO_KINGS),
        "choice": " ".join(sections["choice"].paragraphs[:1]),
        "promotion": t(PROMOTION_TEXT[v.promotion_during_capture]),
        "draw": sections["end"].paragraphs[1],
    }
    return [(t(q), answers[key]) for q, key in FAQ]


def _others(page_id: str, gettext: Translate) -> list[tuple[str, str]]:
    out = [(pid, gettext(VARIANTS[pid].name)) for pid in VARIANTS if pid != page_id]
    out += [(pid, gettext(o.title)) for pid, o in OPTION_PAGES.items() if pid != page_id]
    return out


def _option_page(page_id: str, option: OptionPage, diagrams: list[RenderedDiagram],
                 gettext: Translate) -> RulesPage:
    """The page of a rule option: its rule in one section with its diagrams, and the rows
    where American checkers with the option differs from American checkers."""
    section = Section(option.section, gettext(SECTION_TITLES[option.section]),
                      [gettext(p) for p in option.paragraphs], diagrams=diagrams)
    table = [r for r in comparison(get_variant(option.compare), gettext) if r.differs]
    return RulesPage(
        id=page_id, title=gettext(option.title), intro=gettext(option.intro),
        sections=[section], table=table, table_note=gettext(DIFFERENCES_NOTE),
        is_reference=False, tips=[gettext(x) for x in option.tips],
        faq=[(gettext(q), gettext(a)) for q, a in option.faq], variant=None,
        others=_others(page_id, gettext),
    )


def build_page(page_id: str, gettext: Translate) -> RulesPage:
    """The translated rules page ``page_id`` (a variant id or a rule option's page id:
    ``"optional-capture"``, ``"losing"``, ``"breakthrough"``).

    Raises :class:`KeyError` for an unknown page id.
    """
    if page_id not in page_ids():
        raise KeyError(page_id)
    diagrams = [render_diagram(d, gettext) for d in DIAGRAMS.get(page_id, ())]
    if page_id in OPTION_PAGES:
        return _option_page(page_id, OPTION_PAGES[page_id], diagrams, gettext)
    v = VARIANTS[page_id]
    sections = _rule_sections(v, gettext)
    for d in diagrams:
        sections[next(x.section for x in DIAGRAMS[page_id] if x.id == d.id)].diagrams.append(d)
    table = comparison(v, gettext)
    is_reference = not any(r.differs for r in table)
    return RulesPage(
        id=page_id,
        title=gettext(v.name),
        intro=gettext(INTRO[page_id]),
        sections=list(sections.values()),
        table=table,
        table_note=gettext(DIFFERENCES_REFERENCE if is_reference else DIFFERENCES_NOTE),
        is_reference=is_reference,
        tips=[gettext(x) for x in TIPS[page_id]],
        faq=_faq(v, sections, gettext),
        variant=page_id,
        others=_others(page_id, gettext),
    )


@dataclass
class IndexEntry:
    """One line of the rules index."""

    id: str
    title: str
    facts: list[str]


def build_index(gettext: Translate) -> list[IndexEntry]:
    """The rules index: every page with a few facts drawn from its rule parameters."""
    entries = [IndexEntry(v.id, gettext(v.name), summary(v, gettext)) for v in VARIANTS.values()]
    entries += [IndexEntry(pid, gettext(o.title), [gettext(f) for f in o.facts])
                for pid, o in OPTION_PAGES.items()]
    return entries
