"""The named rule sets and reading a variant id: one frozen :class:`Variant` of rule
parameters per national rule set, their aliases and PDN ``GameType`` numbers, the rule options
and custom rule sets, and :func:`variant`, which reads every form of id.

Source: ``shared/RULES.md`` section 2 (the variant table) and section 1 (the rules every
variant shares). Code elsewhere branches on these parameters, never on a variant's name.
A custom rule set (every field chosen by a player, :mod:`damiera.rules.custom`) is one more
Variant, named by its ``custom:`` id. The Variant class and the enums of its fields live in
:mod:`damiera.rules.rule_set` and are importable from here too.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from enum import Enum
from functools import lru_cache
from typing import Final

from damiera.rules.custom import (
    BOARD_STYLES,
    CUSTOM_PREFIX,
    DEFAULT_NAME,
    FIELDS,
    CustomRuleError,
    is_custom,
    read_custom,
    write_custom,
)
from damiera.rules.rule_set import (
    CaptureChoice,
    Color,
    Notation,
    Numbering,
    PromotionDuringCapture,
    RuleOption,
    Variant,
)

#: The rule-set model of :mod:`damiera.rules.rule_set` is part of this module's interface.
__all__ = [
    "ALIASES",
    "AMERICAN",
    "BRAZILIAN",
    "CANADIAN",
    "CZECH",
    "FRISIAN",
    "FRYSK",
    "GAME_TYPE_NUMBERS",
    "GOAL_VARIANT_TAGS",
    "INTERNATIONAL",
    "ITALIAN",
    "MALAYSIAN",
    "MAX_VARIANT_TEXT",
    "POOL",
    "RUSSIAN",
    "SPANISH",
    "THAI",
    "TURKISH",
    "VARIANTS",
    "CaptureChoice",
    "Color",
    "Notation",
    "Numbering",
    "PromotionDuringCapture",
    "RuleOption",
    "UnknownVariantError",
    "Variant",
    "VariantOptionError",
    "custom_fields",
    "custom_name",
    "custom_variant",
    "nearest_variant",
    "parse_options",
    "unknown_variant_hint",
    "variant",
    "with_options",
]


AMERICAN = Variant(
    id="american",
    name="American checkers",
    board_size=8,
    man_rows=3,
    first_to_move=Color.BLACK,
    a1_dark=True,
    notation=Notation.NUMERIC,
    numbering=Numbering.FROM_TOP_LEFT,
    men_capture_backward=False,
    flying_kings=False,
    men_capture_kings=True,
    capture_choice=CaptureChoice.FREE,
    promotion_during_capture=PromotionDuringCapture.PROMOTE_AND_STOP,
    pdn_gametype="21,B,8,8,N1,0",
)

ITALIAN = Variant(
    id="italian",
    name="Italian draughts",
    board_size=8,
    man_rows=3,
    first_to_move=Color.WHITE,
    a1_dark=False,
    notation=Notation.NUMERIC,
    numbering=Numbering.FROM_TOP_LEFT,
    men_capture_backward=False,
    flying_kings=False,
    men_capture_kings=False,
    capture_choice=CaptureChoice.ITALIAN_PRIORITIES,
    promotion_during_capture=PromotionDuringCapture.PROMOTE_AND_STOP,
    pdn_gametype="22,W,8,8,N2,1",
)

CZECH = Variant(
    id="czech",
    name="Czech draughts",
    board_size=8,
    man_rows=3,
    first_to_move=Color.WHITE,
    a1_dark=True,
    notation=Notation.ALGEBRAIC,
    numbering=Numbering.FROM_TOP_LEFT,
    men_capture_backward=False,
    flying_kings=True,
    men_capture_kings=True,
    capture_choice=CaptureChoice.KING_PRECEDENCE,
    promotion_during_capture=PromotionDuringCapture.PROMOTE_AND_STOP,
    pdn_gametype="29,W,8,8,A0,0",
)

RUSSIAN = Variant(
    id="russian",
    name="Russian draughts",
    board_size=8,
    man_rows=3,
    first_to_move=Color.WHITE,
    a1_dark=True,
    notation=Notation.ALGEBRAIC,
    numbering=Numbering.FROM_TOP_LEFT,
    men_capture_backward=True,
    flying_kings=True,
    men_capture_kings=True,
    capture_choice=CaptureChoice.FREE,
    promotion_during_capture=PromotionDuringCapture.PROMOTE_AND_CONTINUE,
    pdn_gametype="25,W,8,8,A0,0",
    capture_separator=":",
)

BRAZILIAN = Variant(
    id="brazilian",
    name="Brazilian draughts",
    board_size=8,
    man_rows=3,
    first_to_move=Color.WHITE,
    a1_dark=True,
    notation=Notation.ALGEBRAIC,
    numbering=Numbering.FROM_TOP_LEFT,
    men_capture_backward=True,
    flying_kings=True,
    men_capture_kings=True,
    capture_choice=CaptureChoice.MAJORITY,
    promotion_during_capture=PromotionDuringCapture.PASS_THROUGH,
    pdn_gametype="26,W,8,8,A0,0",
)

SPANISH = Variant(
    id="spanish",
    name="Spanish draughts",
    board_size=8,
    man_rows=3,
    first_to_move=Color.WHITE,
    a1_dark=False,
    notation=Notation.NUMERIC,
    numbering=Numbering.FROM_BOTTOM_RIGHT,
    men_capture_backward=False,
    flying_kings=True,
    men_capture_kings=True,
    capture_choice=CaptureChoice.MOST_PIECES_THEN_KINGS,
    promotion_during_capture=PromotionDuringCapture.PROMOTE_AND_STOP,
    pdn_gametype="24,W,8,8,N1,1",
)

INTERNATIONAL = Variant(
    id="international",
    name="International draughts",
    board_size=10,
    man_rows=4,
    first_to_move=Color.WHITE,
    a1_dark=True,
    notation=Notation.NUMERIC,
    numbering=Numbering.FROM_TOP_LEFT,
    men_capture_backward=True,
    flying_kings=True,
    men_capture_kings=True,
    capture_choice=CaptureChoice.MAJORITY,
    promotion_during_capture=PromotionDuringCapture.PASS_THROUGH,
    pdn_gametype="20,W,10,10,N2,0",
)

POOL = Variant(
    id="pool",
    name="Pool checkers",
    board_size=8,
    man_rows=3,
    first_to_move=Color.BLACK,
    a1_dark=True,
    notation=Notation.NUMERIC,
    numbering=Numbering.FROM_TOP_LEFT,
    men_capture_backward=True,
    flying_kings=True,
    men_capture_kings=True,
    capture_choice=CaptureChoice.FREE,
    promotion_during_capture=PromotionDuringCapture.PASS_THROUGH,
    pdn_gametype="23,B,8,8,N1,0",
)

THAI = Variant(
    id="thai",
    name="Thai draughts",
    board_size=8,
    man_rows=2,
    first_to_move=Color.BLACK,
    a1_dark=True,
    notation=Notation.NUMERIC,
    numbering=Numbering.FROM_BOTTOM_RIGHT,
    men_capture_backward=False,
    flying_kings=True,
    men_capture_kings=True,
    capture_choice=CaptureChoice.FREE,
    promotion_during_capture=PromotionDuringCapture.PROMOTE_AND_STOP,
    king_lands_behind=True,
    remove_captured_at_once=True,
    pdn_gametype="31,B,8,8,N2,0",
)

FRISIAN = Variant(
    id="frisian",
    name="Frisian draughts",
    board_size=10,
    man_rows=4,
    first_to_move=Color.WHITE,
    a1_dark=True,
    notation=Notation.NUMERIC,
    numbering=Numbering.FROM_TOP_LEFT,
    men_capture_backward=True,
    flying_kings=True,
    men_capture_kings=True,
    capture_choice=CaptureChoice.VALUE,
    promotion_during_capture=PromotionDuringCapture.PASS_THROUGH,
    orthogonal_captures=True,
    king_quiet_move_limit=3,
    king_ending_draws=((2, 1, 7), (1, 1, 2)),
    pdn_gametype="40,W,10,10,N2,0",
)

#: Frysk!: Frisian draughts from five men each on the back row. lidraughts writes its games
#: with GameType 97 (PDN 3.0 lists no number for it).
FRYSK = dataclasses.replace(
    FRISIAN, id="frysk", name="Frysk!", man_rows=1, pdn_gametype="97,W,10,10,N2,0"
)

#: Turkish draughts (Dama): every square plays, men go forward and sideways, kings fly along
#: rows and columns, captured pieces leave the board as they are jumped (but a capture never
#: turns straight back), the most pieces must be taken; men start on the second and third
#: rows. PDN 3.0 GameType 30. One king against one king is drawn after two moves each
#: without a capture (docs/rules.md says why and what the sources say).
TURKISH = Variant(
    id="turkish",
    name="Turkish draughts",
    board_size=8,
    man_rows=2,
    first_to_move=Color.WHITE,
    a1_dark=True,
    notation=Notation.ALGEBRAIC,
    numbering=Numbering.FROM_TOP_LEFT,
    men_capture_backward=False,
    flying_kings=True,
    men_capture_kings=True,
    capture_choice=CaptureChoice.MAJORITY,
    promotion_during_capture=PromotionDuringCapture.PASS_THROUGH,
    remove_captured_at_once=True,
    all_squares=True,
    no_reverse_capture=True,
    back_rows_empty=1,
    king_ending_draws=((1, 1, 2),),
    pdn_gametype="30,W,8,8,A0,0",
)

#: Canadian draughts: International draughts' rules on the 12x12 board, 30 men each on the
#: first five rows, squares numbered 1-72 like International's 1-50 (square 1 the first dark
#: square of the top row, a1 dark). PDN 3.0 GameType 27. Its 12x12 board needs the wide build
#: of the rules core (77 bits, :func:`damiera.rules.movegen.core_of`).
CANADIAN = dataclasses.replace(
    INTERNATIONAL, id="canadian", name="Canadian draughts", board_size=12, man_rows=5,
    pdn_gametype="27,W,12,12,N2,0",
)

#: Malaysian/Singaporean draughts (Dam): International draughts' flying kings, majority
#: capture and Turkish strike on the 12x12 board with 30 men each, but men move and capture
#: forward only; White moves first by convention (the sources let the players choose).
#: PDN 3.0 has no GameType for it (41 is Spantsiretti); 98 is the project's own number,
#: unused by PDN 3.0 and lidraughts (docs/rules.md).
MALAYSIAN = dataclasses.replace(
    CANADIAN, id="malaysian", name="Malaysian draughts", men_capture_backward=False,
    promotion_during_capture=PromotionDuringCapture.PROMOTE_AND_STOP,
    pdn_gametype="98,W,12,12,N2,0",
)

#: The named variants, in menu order (the specification's seven, then the rule sets of
#: docs/rules.md).
VARIANTS: dict[str, Variant] = {
    v.id: v
    for v in (AMERICAN, ITALIAN, CZECH, RUSSIAN, BRAZILIAN, SPANISH, INTERNATIONAL, POOL, THAI,
              FRISIAN, FRYSK, TURKISH, CANADIAN, MALAYSIAN)
}


class UnknownVariantError(ValueError):
    """Raised for a variant id that is not one of :data:`VARIANTS` nor an alias."""


#: Other names the variants are known by: English draughts (also "checkers") is American
#: checkers' game; "standard" is the World Draughts Federation's International draughts;
#: Pool checkers is also "American pool" (its PDN name) and, in older books, "Spanish pool
#: checkers"; Thai draughts is Mak-hot (หมากฮอส), also written makhos or mak-hos; Turkish
#: draughts is Dama in Turkish (not an alias: Italian draughts is Dama too).
ALIASES: dict[str, str] = {
    "english": "american",
    "checkers": "american",
    "english-draughts": "american",
    "standard": "international",
    "pool-checkers": "pool",
    "american-pool": "pool",
    "american-pool-checkers": "pool",
    "spanish-pool": "pool",
    "thai-draughts": "thai",
    "thai-checkers": "thai",
    "mak-hot": "thai",
    "makhot": "thai",
    "makhos": "thai",
    "mak-hos": "thai",
    "frisian-draughts": "frisian",
    "frysk!": "frysk",
    "turkish-draughts": "turkish",
    "turkish-checkers": "turkish",
    "canadian-draughts": "canadian",
    "canadian-checkers": "canadian",
    "grand-jeu-de-dames": "canadian",
    "malaysian-draughts": "malaysian",
    "malaysian-checkers": "malaysian",
    "singaporean": "malaysian",
    "singaporean-draughts": "malaysian",
    "singaporean-checkers": "malaysian",
    "dam": "malaysian",
}

#: PDN ``GameType`` numbers (PDN 3.0) of the named variants: ``"20"`` is International.
GAME_TYPE_NUMBERS: dict[str, str] = {
    v.pdn_gametype.split(",")[0]: v.id for v in VARIANTS.values()
}



#: PDN ``Variant`` tag values (lower case) that name a goal option, as lidraughts writes
#: them beside the rule set's ``GameType``.
GOAL_VARIANT_TAGS: Final = {
    "antidraughts": RuleOption.LOSING,
    "breakthrough": RuleOption.BREAKTHROUGH,
}

#: Longest variant text :func:`variant` reads (the longest canonical id is 50 characters).
MAX_VARIANT_TEXT: Final = 120


class VariantOptionError(ValueError):
    """An option that does not exist, or a combination of options that cannot be played;
    the message gives the reason."""


def with_options(base: Variant, options: frozenset[RuleOption] | set[RuleOption]) -> Variant:
    """``base`` with exactly ``options`` on (any options ``base`` had are replaced).

    Raises :class:`VariantOptionError` for an impossible combination, saying why: optional
    capture is a house rule of 8x8 boards (RULES.md section 1); the losing rule and
    breakthrough are two different goals and cannot both be the aim of one game.
    """
    if RuleOption.OPTIONAL_CAPTURE in options and base.board_size != 8:
        raise VariantOptionError(
            f"the optional-capture house rule applies to 8x8 variants only, not to {base.name}"
        )
    if RuleOption.LOSING in options and RuleOption.BREAKTHROUGH in options:
        raise VariantOptionError(
            "the losing rule and breakthrough are two different goals (lose every piece, or "
            "crown the first king); a game plays one of them"
        )
    plain = dataclasses.replace(base, mandatory_capture=True, losing=False, breakthrough=False)
    if not options and not is_custom(base.id):
        named = VARIANTS.get(plain.id)
        return named if named == plain else plain
    changed = dataclasses.replace(
        plain,
        mandatory_capture=RuleOption.OPTIONAL_CAPTURE not in options,
        losing=RuleOption.LOSING in options,
        breakthrough=RuleOption.BREAKTHROUGH in options,
    )
    if is_custom(base.id):
        return custom_variant(write_custom(custom_fields(changed), custom_name(base)))
    return changed


def custom_fields(v: Variant) -> dict[str, object]:
    """The fields of ``v`` as :data:`damiera.rules.custom.FIELDS` holds them (enums as their
    values, the board's notation as its :data:`~damiera.rules.custom.BOARD_STYLES` key): a
    named rule set's fields give the custom rule set that plays it. Raises
    :class:`~damiera.rules.custom.CustomRuleError` when ``v``'s notation is none of the
    styles."""
    out: dict[str, object] = {}
    for field in FIELDS:
        if field.name == "board":
            style = next((key for key, values in BOARD_STYLES.items()
                          if all(_plain(getattr(v, k)) == x for k, x in values.items())), None)
            if style is None:
                raise CustomRuleError("syntax", f"{v.name} has a notation no custom rule set has")
            out["board"] = style
        else:
            out[field.name] = _plain(getattr(v, field.name))
    return out


def custom_name(v: Variant) -> str:
    """The name written in a custom rule set's id ("" when it has none)."""
    return v.id[len(CUSTOM_PREFIX):].partition(":")[2] if is_custom(v.id) else ""


@lru_cache(maxsize=256)
def custom_variant(text: str) -> Variant:
    """The Variant of a custom id (:func:`damiera.rules.custom.read_custom`: ``custom:`` and
    a code, then ``:name``), with its canonical id; called ``name`` (or "Custom rule set"),
    with no PDN ``GameType`` (its PDN carries the id instead) and ``x`` between capture
    squares. Raises :class:`~damiera.rules.custom.CustomRuleError` (a ValueError) with the
    reason. The same text gives the same object (the last 256 are remembered), so the rules
    core's objects built for it are found again by identity."""
    fields, name, canonical = read_custom(text)
    values: dict[str, object] = {}
    for key, value in fields.items():
        if key == "board":
            values.update(BOARD_STYLES[str(value)])
        else:
            values[key] = value
    typed = {key: _typed(key, value) for key, value in values.items()}
    return dataclasses.replace(AMERICAN, id=canonical, name=name or DEFAULT_NAME,
                               pdn_gametype="", capture_separator="x", **typed)  # type: ignore[arg-type]


def _plain(value: object) -> object:
    return value.value if isinstance(value, Enum) else value


def _typed(key: str, value: object) -> object:
    """``value`` in the type of AMERICAN's field ``key`` (an enum from its value)."""
    template = getattr(AMERICAN, key)
    return type(template)(value) if isinstance(template, Enum) else value


#: Each variant's name as ``damiera variants`` shows it (:attr:`Variant.name`), lower case,
#: blanks as ``-``: "Italian draughts" reads as ``italian-draughts``.
_BY_NAME: dict[str, str] = {v.name.lower().replace(" ", "-"): v.id for v in VARIANTS.values()}

#: Words of the game's name, not of a rule set's: left out when a misspelt name is compared.
_GAME_WORDS = frozenset({"draughts", "draught", "checkers", "checker", "dames", "dame"})
#: Shortest name part a guess may be (``dam`` would be guessed for "dama", which is two
#: other games).
_MIN_GUESS = 4


def _distinctive(name: str) -> str:
    """``name`` without the game's words: ``russian-checkers`` -> ``russian``; a name that is
    nothing else (``checkers``) stays whole."""
    words = [w for w in re.split(r"[-\s_]+", name.lower()) if w and w not in _GAME_WORDS]
    return "-".join(words) or name.lower().strip()


def nearest_variant(text: str) -> str | None:
    """The variant id or alias that ``text``, a name no variant has, most likely misspells
    (difflib's ratio at least 0.75 on the names' distinctive words, their first 40
    characters, options after a ``+`` left out: ``"amercan"`` -> ``"american"``,
    ``"russian-checkers"`` -> ``"russian"``), or None when none is near enough to guess."""
    parts: dict[str, str] = {}  # distinctive part -> the first name with it: ids, then aliases
    for name in (*VARIANTS, *ALIASES):
        part = _distinctive(name)
        if len(part) >= _MIN_GUESS:
            parts.setdefault(part, name)
    base = text[:40].split("+", 1)[0]  # rule options after a "+" are not the name
    near = difflib.get_close_matches(_distinctive(base), list(parts), n=1, cutoff=0.75)
    return parts[near[0]] if near else None


def unknown_variant_hint(text: str) -> str:
    """`` (did you mean 'american'?)`` for a misspelt variant name (:func:`nearest_variant`),
    else the empty string: the part of an unknown variant's message that guesses."""
    near = nearest_variant(text)
    return f" (did you mean {near!r}?)" if near else ""


def _base_variant(variant_id: str, text: str) -> Variant:
    key = text.strip().lower()
    key = ALIASES.get(key.replace(" ", "-"), key)
    key = _BY_NAME.get(key.replace(" ", "-"), key)
    if key in GAME_TYPE_NUMBERS:
        key = GAME_TYPE_NUMBERS[key]
    elif "," in key:  # a full GameType form: exactly one of ours
        key = next((v.id for v in VARIANTS.values()
                    if v.pdn_gametype.lower() == key.replace(" ", "")), key)
    try:
        return VARIANTS[key]
    except KeyError:
        known = ", ".join(VARIANTS)
        aliases = ", ".join(ALIASES)
        raise UnknownVariantError(
            f"unknown variant {variant_id[:40]!r}{unknown_variant_hint(key)}; known "
            f"variants: {known} (also a name such as 'Italian draughts', an alias: {aliases}, "
            "or a PDN GameType number such as 20)"
        ) from None


def parse_options(words: list[str]) -> set[RuleOption]:
    """The options named by ``words`` (``optional-capture``, ``losing``, ``breakthrough``;
    case and blanks ignored, ``_`` read as ``-``). Raises :class:`VariantOptionError` for an
    unknown word or one given twice."""
    known = {option.value: option for option in RuleOption}
    options: set[RuleOption] = set()
    for word in words:
        key = word.strip().lower().replace("_", "-")
        option = known.get(key)
        if option is None:
            raise VariantOptionError(
                f"unknown rule option {word[:40]!r}; the options are {', '.join(known)}"
            )
        if option in options:
            raise VariantOptionError(f"the rule option {option.value!r} is given twice")
        options.add(option)
    return options


def variant(
    variant_id: str,
    *,
    optional_capture: bool = False,
    losing: bool = False,
    breakthrough: bool = False,
) -> Variant:
    """Return the named variant with the options of its id and of the keywords.

    ``variant_id``: an id of :data:`VARIANTS` (``"international"``, ``"italian"``, ...), an
    alias (:data:`ALIASES`: ``"english"``, ``"checkers"``, ``"standard"``), a variant's name
    (:attr:`Variant.name`, blanks or ``-``: ``"Italian draughts"``) or a PDN
    ``GameType`` number or full form (``"20"``, ``"21,B,8,8,N1,0"``), followed by any rule
    options joined with ``+`` (the canonical id :attr:`Variant.full_id`:
    ``"international+losing"``, ``"american+optional-capture"``, in any order); case and
    surrounding blanks are ignored; or a custom rule set's id (``custom:1a01...:Name``,
    :func:`custom_variant`), which may be followed by options too. The keywords turn
    options on as well (an option both in
    the id and a keyword is on once: ``variant("american+optional-capture",
    optional_capture=True)`` is how stored games with the old flag read back).

    Raises TypeError for a value that is not a str, :class:`UnknownVariantError` for an
    unknown name, and :class:`VariantOptionError` (a ValueError) for an unknown option, an
    option named twice in the id, a text longer than :data:`MAX_VARIANT_TEXT`, or an
    impossible combination (:func:`with_options`); for a custom id,
    :class:`~damiera.rules.custom.CustomRuleError` (a ValueError) with the reason.
    """
    if not isinstance(variant_id, str):
        raise TypeError(
            f"a variant is named by a str such as 'international', not {type(variant_id).__name__}"
        )
    if len(variant_id) > MAX_VARIANT_TEXT:
        raise VariantOptionError(
            f"a variant id has at most {MAX_VARIANT_TEXT} characters, not {len(variant_id)}"
        )
    name, *words = variant_id.split("+")
    base = custom_variant(name) if is_custom(name.strip()) else _base_variant(variant_id, name)
    options = parse_options(words)
    flags = {RuleOption.OPTIONAL_CAPTURE: optional_capture, RuleOption.LOSING: losing,
             RuleOption.BREAKTHROUGH: breakthrough}
    options |= {option for option, on in flags.items() if on}
    if not options:
        return base
    return with_options(base, options | set(base.options))
