"""Custom rule sets: the one reader and writer of their canonical text id.

A custom rule set is a :class:`~damiera.rules.variant.Variant` whose every rule field a
player chose. Its id is ``custom:`` then a versioned code of the fields, then optionally
``:`` and the rule set's name::

    custom:1a01101000 : Club rules      (written without the blanks: custom:1a01101000:Club rules)

The code is the version digit ``1`` followed by one character per entry of :data:`FIELDS`,
in order: the position of the field's value in the entry's ``values`` written in base 36
(``0``-``9``, ``a``-``z``). The first value of each entry is its default, and trailing
defaults are not written, so an entry added at the end of :data:`FIELDS` (with the rule as
it was before as its first value) leaves every existing id canonical: adding a rule field
to custom rule sets is one entry in that table.

Values are plain values (ints, bools, the rule enums' ``value`` strings), so this module
imports nothing of the rules above it; :func:`damiera.rules.variant.variant` turns the fields
into a Variant. ``board`` is not a Variant field: it is the board's notation, chosen among
the named rule sets' conventions (:data:`BOARD_STYLES`).

Reading is linear in the text's length and refuses anything longer than
:data:`MAX_CUSTOM_ID` before looking at it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from damiera.rules.moot_rules import moot_fields

#: What every custom id starts with.
CUSTOM_PREFIX: Final = "custom:"
#: The code's version this module writes (and the only one it reads).
VERSION: Final = "1"
#: Longest name of a custom rule set, in characters.
MAX_NAME: Final = 32
#: Name of a custom rule set that was given none.
DEFAULT_NAME: Final = "Custom rule set"

_DIGITS: Final = "0123456789abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True, slots=True)
class CustomField:
    """One entry of the code: a Variant field's name (or ``board``) and its possible
    values, the default first. The field's character in the code is its value's index."""

    name: str
    values: tuple[object, ...]


#: Board notations a custom rule set may use, each that of named rule sets: the Variant
#: fields it sets. ``numeric``: squares numbered from Black's top-left dark square, a1 dark
#: (American, International, Pool); ``algebraic``: a1-h8 (Russian, Czech, Brazilian);
#: ``italian``: numbered from the top-left, a1 light (the board turned, as in Italy);
#: ``spanish``: numbered from White's bottom-right square, a1 light; ``thai``: numbered
#: from White's bottom-right square, a1 dark.
BOARD_STYLES: Final[Mapping[str, Mapping[str, object]]] = {
    "numeric": {"a1_dark": True, "notation": "numeric", "numbering": "from-top-left"},
    "algebraic": {"a1_dark": True, "notation": "algebraic", "numbering": "from-top-left"},
    "italian": {"a1_dark": False, "notation": "numeric", "numbering": "from-top-left"},
    "spanish": {"a1_dark": False, "notation": "numeric", "numbering": "from-bottom-right"},
    "thai": {"a1_dark": True, "notation": "numeric", "numbering": "from-bottom-right"},
}

#: The code's entries, in order (append new ones at the end, default first).
FIELDS: Final[tuple[CustomField, ...]] = (
    CustomField("board_size", (8, 10, 12)),
    CustomField("first_to_move", ("W", "B")),
    CustomField("man_rows", (3, 1, 2, 4, 5)),
    CustomField("men_capture_backward", (False, True)),
    CustomField("flying_kings", (False, True)),
    CustomField("king_lands_behind", (False, True)),
    CustomField("men_capture_kings", (True, False)),
    CustomField("capture_choice", ("free", "majority", "italian-priorities",
                                   "most-pieces-then-kings", "king-precedence", "value")),
    CustomField("promotion_during_capture", ("promote-and-stop", "promote-and-continue",
                                             "pass-through")),
    CustomField("remove_captured_at_once", (False, True)),
    CustomField("draw_moves_without_progress", (40, 15, 20, 25, 30, 50, 60, 80, 100)),
    CustomField("mandatory_capture", (True, False)),
    CustomField("losing", (False, True)),
    CustomField("breakthrough", (False, True)),
    CustomField("board", tuple(BOARD_STYLES)),
    CustomField("orthogonal_captures", (False, True)),
    CustomField("king_quiet_move_limit", (0, 3)),
    CustomField("king_ending_draws", ((), ((2, 1, 7), (1, 1, 2)), ((1, 1, 2),))),
    CustomField("all_squares", (False, True)),
    CustomField("no_reverse_capture", (False, True)),
    CustomField("back_rows_empty", (0, 1)),
)

#: Longest custom id: the prefix, the version, a character per field, ``:`` and the name.
MAX_CUSTOM_ID: Final = len(CUSTOM_PREFIX) + 1 + len(FIELDS) + 1 + MAX_NAME

#: Marks allowed on one letter of a name (more are a way to draw over the page).
_MAX_MARKS: Final = 3
#: Punctuation a name may hold besides letters, digits, marks and single spaces.
_NAME_PUNCTUATION: Final = frozenset("-'.&()!,")
#: Letters (Unicode category Lo) that draw nothing: the Hangul fillers, which Unicode
#: lists as default-ignorable code points. A name of them alone would look empty.
_INVISIBLE_LETTERS: Final = frozenset("\u115f\u1160\u3164\uffa0")


class CustomRuleError(ValueError):
    """A custom id that cannot be read, or a combination of rules that cannot be played.

    ``code`` names the reason (``rows``, ``land-behind-short-king``,
    ``optional-capture-10x10``, ``losing-breakthrough``, ``pass-through-forward-men``,
    ``breakthrough-kings`` (param ``field``), ``breakthrough-choice`` (params ``choice``,
    ``same``), ``breakthrough-flying``, ``no-reverse-blocked``, ``all-squares-8x8``,
    ``all-squares-orthogonal``, ``back-rows`` (param ``most``), ``value``: a field given a value it does not have, of the wrong type included (params
    ``field``, ``value``); in a code: ``id-length``, ``id-prefix``, ``id-version``,
    ``code-length``, ``code-char`` (params ``field``, ``char``, ``last``); ``syntax``,
    ``name``), ``params`` its numbers and the field's name, so a page can word it in its language;
    the message is the English sentence."""

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


def is_custom(text: str) -> bool:
    """True when ``text`` names a custom rule set (starts with ``custom:``, any case)."""
    return text[: len(CUSTOM_PREFIX)].lower() == CUSTOM_PREFIX


def default_fields() -> dict[str, object]:
    """Every field at its default (the code ``1``)."""
    return {field.name: field.values[0] for field in FIELDS}


def check_fields(fields: Mapping[str, object]) -> None:
    """Refuse a combination that cannot be played, or means nothing, with the reason.

    Raises :class:`CustomRuleError`: more rows of men
    than leave two empty rows between the armies; a king landing right behind without flying
    kings; optional capture on a board other than 8x8 (RULES.md section 1: a house rule of
    8x8 boards); the losing rule with breakthrough; a man passing the far row during a capture
    when men capture forward only (it could never go on, so the rule is 'promotion ends the
    move', unless men capture sideways along rows); every square playing on a board other than 8x8 or with captures along rows and
    columns added; empty back rows that leave fewer than two empty rows between the armies;
    a rule that changes nothing (:mod:`damiera.rules.moot_rules`: breakthrough's king rules,
    no turning back where the piece just taken blocks that way anyway).
    """
    for name, value in fields.items():
        field = _BY_NAME.get(name)
        if field is not None and _index(field, value) is None:
            raise CustomRuleError(
                "value", f"{name} cannot be {_shown(value)}; it is one of "
                f"{', '.join(map(_shown, field.values))}", field=name, value=_shown(value))
    _refuse_straight(fields)
    size = fields["board_size"]
    rows = fields["man_rows"]
    if not isinstance(size, int) or not isinstance(rows, int):
        raise CustomRuleError("value", "board_size and man_rows are whole numbers",
                              field="board_size" if not isinstance(size, int) else "man_rows",
                              value=_shown(size if not isinstance(size, int) else rows))
    if 2 * rows >= size:
        raise CustomRuleError(
            "rows", f"on a {size}x{size} board each side has at most {size // 2 - 1} rows of "
            "men, so that two empty rows part the armies", size=size, most=size // 2 - 1)
    if fields["king_lands_behind"] and not fields["flying_kings"]:
        raise CustomRuleError(
            "land-behind-short-king", "a king can land right behind the piece it takes only "
            "when kings fly: a short king always lands there")
    if not fields["mandatory_capture"] and size != 8:
        raise CustomRuleError(
            "optional-capture-10x10", "the optional-capture house rule applies to 8x8 boards "
            "only", size=size)
    if fields["losing"] and fields["breakthrough"]:
        raise CustomRuleError(
            "losing-breakthrough", "the losing rule and breakthrough are two different goals "
            "(lose every piece, or crown the first king); a game plays one of them")
    sideways = fields["all_squares"] or fields["orthogonal_captures"]  # men capture sideways
    if (fields["promotion_during_capture"] == "pass-through" and not fields["men_capture_backward"]
            and not sideways):
        raise CustomRuleError(
            "pass-through-forward-men", "a man that reaches the far row during a capture can "
            "only go on by capturing backward; with men capturing forward only, choose that "
            "the promotion ends the move")
    if 2 * (rows + fields["back_rows_empty"]) >= size:  # type: ignore[operator]
        raise CustomRuleError(
            "back-rows", f"with empty back rows each side has at most {size // 2 - 2} rows of "
            "men on this board, so that two empty rows part the armies", most=size // 2 - 2)
    _refuse_moot(fields)


def _refuse_straight(fields: Mapping[str, object]) -> None:
    """Refuse every square playing (Turkish draughts' board) on a board other than 8x8, or
    with captures along rows and columns added (pieces already go only that way)."""
    if fields["all_squares"] and fields["board_size"] != 8:
        raise CustomRuleError("all-squares-8x8", "every square plays on 8x8 boards only")
    if fields["all_squares"] and fields["orthogonal_captures"]:
        raise CustomRuleError(
            "all-squares-orthogonal", "where every square plays, pieces move and capture "
            "along rows and columns only: captures along rows and columns are the rule already")


def _refuse_moot(fields: Mapping[str, object]) -> None:
    """Refuse the first field that changes nothing (:func:`moot_fields`), with the reason."""
    for name, same in moot_fields(fields).items():
        if name == "capture_choice":
            raise CustomRuleError(
                "breakthrough-choice", "under breakthrough no king is on the board while the "
                f"game goes on, so the capture choice {_shown(fields[name])} is "
                f"{_shown(same)}: choose that", field=name, choice=fields[name], same=same)
        if name == "no_reverse_capture":
            raise CustomRuleError(
                "no-reverse-blocked", "a capture that may not turn straight back changes "
                "nothing unless captured pieces are removed one by one: the piece just taken "
                "blocks that way until the move ends")
        if name in ("flying_kings", "king_lands_behind"):
            raise CustomRuleError(
                "breakthrough-flying", "under breakthrough the first man crowned wins, so how "
                "kings fly matters only to a man crowned during a capture that goes on "
                "capturing as a king: choose that, or kings that move one square", field=name)
        raise CustomRuleError(
            "breakthrough-kings", "under breakthrough the first man crowned wins, so no king "
            f"ever moves or is taken: {name} changes nothing; leave it at {_shown(same)}",
            field=name)


def clean_name(name: str) -> str:
    """The canonical form of a rule set's name (NFC, blanks trimmed and single), or raise
    :class:`CustomRuleError` (``name``) when it is longer than :data:`MAX_NAME`, or holds
    anything but letters, digits, marks (at most 3 on one letter), single spaces and
    ``- ' . & ( ) ! ,`` (a letter that draws nothing, such as U+3164, is refused); or when it
    holds no letter or digit. An empty name is allowed (the
    rule set is then called :data:`DEFAULT_NAME`)."""
    if len(name) > 4 * MAX_NAME:
        raise CustomRuleError("name", f"a rule set's name has at most {MAX_NAME} characters",
                              most=MAX_NAME)
    text = " ".join(unicodedata.normalize("NFC", name).split())
    if len(text) > MAX_NAME:
        raise CustomRuleError("name", f"a rule set's name has at most {MAX_NAME} characters",
                              most=MAX_NAME)
    marks = 0
    for char in text:
        category = unicodedata.category(char)
        marks = marks + 1 if category[0] == "M" else 0
        if char in _INVISIBLE_LETTERS:
            raise CustomRuleError(
                "name", f"a rule set's name holds visible letters only, not U+{ord(char):04X}")
        if category[0] in "LN" or char == " " or char in _NAME_PUNCTUATION:
            continue
        if category[0] == "M" and marks <= _MAX_MARKS:
            continue
        raise CustomRuleError(
            "name", f"a rule set's name holds letters, digits, spaces and - ' . & ( ) ! , "
            f"only, not {char!r}")
    if text and not any(unicodedata.category(c)[0] in "LN" for c in text):
        raise CustomRuleError("name", "a rule set's name needs a letter or a digit")
    return text


def write_custom(fields: Mapping[str, object], name: str = "") -> str:
    """The canonical id of a custom rule set: ``custom:`` and its code, then ``:name`` when
    it has a name. ``fields``: a value for every entry of :data:`FIELDS` (missing ones take
    their default). Raises :class:`CustomRuleError` for a value an entry does not have, an
    impossible combination (:func:`check_fields`) or a bad name (:func:`clean_name`)."""
    full = {**default_fields(), **{k: v for k, v in fields.items() if k in _BY_NAME}}
    chars = []
    for field in FIELDS:
        value = full[field.name]
        index = _index(field, value)
        if index is None:
            raise CustomRuleError(
                "value", f"{field.name} cannot be {_shown(value)}; it is one of "
                f"{', '.join(map(_shown, field.values))}",
                field=field.name, value=_shown(value))
        chars.append(_DIGITS[index])
    check_fields(full)
    code = VERSION + "".join(chars).rstrip("0")
    text = clean_name(name)
    return CUSTOM_PREFIX + code + (":" + text if text else "")


def read_custom(text: str) -> tuple[dict[str, object], str, str]:
    """``(fields, name, canonical id)`` of a custom id (``custom:1a0...[:name]``; the
    prefix and the code in any case, surrounding blanks ignored). ``fields`` holds every
    entry of :data:`FIELDS`; ``name`` is the cleaned name ("" when none).

    Raises :class:`CustomRuleError`: a text longer than :data:`MAX_CUSTOM_ID` (checked
    first), one that does not start with ``custom:``, a version other than ``1``, a
    character that is no value of its entry, more characters than entries, a bad name, or an
    impossible combination (:func:`check_fields`).
    """
    if len(text) > MAX_CUSTOM_ID + 8:
        raise CustomRuleError(
            "id-length", f"a custom rule set's id has at most {MAX_CUSTOM_ID} characters, not "
            f"{len(text)}", most=MAX_CUSTOM_ID, name=MAX_NAME)
    text = text.strip()
    if not is_custom(text):
        raise CustomRuleError("id-prefix", "a custom rule set's id starts with 'custom:'")
    code, _, name = text[len(CUSTOM_PREFIX):].partition(":")
    code = code.strip().lower()
    if code[:1] != VERSION:
        raise CustomRuleError(
            "id-version", f"a custom rule set's code starts with its version {VERSION}, not "
            f"{code[:1]!r}", version=VERSION, found=repr(code[:1]))
    chars = code[1:]
    if len(chars) > len(FIELDS):
        raise CustomRuleError(
            "code-length", f"a custom rule set's code has at most {len(FIELDS) + 1} characters",
            most=len(FIELDS) + 1)
    fields = default_fields()
    for field, char in zip(FIELDS, chars, strict=False):
        index = _DIGITS.find(char)
        if not 0 <= index < len(field.values):
            raise CustomRuleError(
                "code-char", f"{char!r} is no value of {field.name} in a custom rule set's code "
                f"(0-{_DIGITS[len(field.values) - 1]})", field=field.name, char=repr(char),
                last=_DIGITS[len(field.values) - 1])
        fields[field.name] = field.values[index]
    check_fields(fields)
    name = clean_name(name)
    return fields, name, write_custom(fields, name)


def code_of(custom_id: str) -> str:
    """What follows ``custom:`` in a canonical custom id (the address ``/custom/<code>``)."""
    return custom_id[len(CUSTOM_PREFIX):]


_BY_NAME: Final = {field.name: field for field in FIELDS}


def _index(field: CustomField, value: object) -> int | None:
    """The index of ``value`` in the entry's values, compared strictly (:func:`_same`)."""
    for i, candidate in enumerate(field.values):
        if _same(candidate, value):
            return i
    return None


def _same(a: object, b: object) -> bool:
    """``a == b`` with the same type at every level (``True`` is not 1, ``3.0`` is not 3,
    ``"8"`` is not 8, inside tuples too); a list stands for a tuple (JSON has no tuples)."""
    if isinstance(a, tuple) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _shown(value: object) -> str:
    """A field's value as JSON writes it, so that ``8`` and ``"8"`` differ: ``true``,
    ``8``, ``3.0``, ``"majority"``, ``[[2, 1, 7]]``; a text too long to show is cut."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_shown(v) for v in value[:8]) + "]"
    if isinstance(value, str):
        return '"' + (value if len(value) <= 40 else value[:39] + "…") + '"'
    text = str(value)
    return text if len(text) <= 40 else text[:39] + "…"
