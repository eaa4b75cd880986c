"""A variant's JSON read as a custom rule set's fields, so that what ``GET /api/variants`` (and
``POST /api/custom``'s ``variant``) gives can be posted back as ``rules``: a player starts
from a named rule set and changes one field.

The variant JSON (:func:`damiera.web.serialization.variant_json`) names its rule fields as
:data:`damiera.rules.custom.FIELDS` does, except for three, read here:

- ``first_to_move``: ``"white"`` / ``"black"`` as well as ``"W"`` / ``"B"``;
- the notation: ``a1_dark``, ``notation`` and ``numbering`` together are one of
  :data:`~damiera.rules.custom.BOARD_STYLES` (the custom field ``board``); ``board`` may be
  that style's name, or the variant JSON's board object (``{"size", "squares"}``), whose
  ``size`` must be ``board_size``;
- ``optional_capture``: the opposite of ``mandatory_capture`` (both given: they must agree).

The other keys of a variant's JSON are not rules and are left aside: ``id``, ``name``,
``full_id`` (the rule set's name is the request's ``name``), ``pdn_gametype`` and
``capture_separator`` (a custom rule set's PDN carries its id and writes ``x``), and
``start_fen`` and ``start_pieces`` (the start follows from the rules). Any other key is
refused, as are values of the wrong type or that disagree, with the reason
(:class:`~damiera.rules.custom.CustomRuleError`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from damiera.rules.custom import BOARD_STYLES, FIELDS, CustomRuleError

#: Keys of a variant's JSON that describe it without being rules: read and left aside.
NOT_RULES: Final = frozenset({"id", "name", "full_id", "pdn_gametype", "capture_separator",
                              "start_fen", "start_pieces", "options_available"})
#: Keys of a variant's JSON that are the custom field ``board`` (the notation).
NOTATION_KEYS: Final = ("a1_dark", "notation", "numbering")
#: Every key ``rules`` may hold.
KNOWN_KEYS: Final = frozenset({f.name for f in FIELDS} | NOT_RULES | set(NOTATION_KEYS)
                              | {"optional_capture"})

_SIDES: Final = {"white": "W", "black": "B"}


def custom_rules(rules: Mapping[str, object]) -> dict[str, object]:
    """The custom fields ``rules`` gives (see the module docstring): only names of
    :data:`~damiera.rules.custom.FIELDS`, values not yet checked beyond what is read here
    (:func:`damiera.rules.custom.write_custom` checks them). Raises
    :class:`~damiera.rules.custom.CustomRuleError` (``syntax``) for an unknown key, a
    notation no custom rule set has, a board object whose size is not ``board_size``, or
    ``optional_capture`` that is not a bool or contradicts ``mandatory_capture``."""
    unknown = sorted(set(rules) - KNOWN_KEYS)
    if unknown:
        raise CustomRuleError("syntax", f"unknown rule field {unknown[0][:40]!r}; the fields "
                              f"are {', '.join(sorted(f.name for f in FIELDS))}")
    out = {k: v for k, v in rules.items() if k not in KNOWN_KEYS - {f.name for f in FIELDS}}
    side = out.get("first_to_move")
    if isinstance(side, str) and side in _SIDES:
        out["first_to_move"] = _SIDES[side]
    board = out.get("board")
    if isinstance(board, Mapping):
        if "board_size" in out and board.get("size") != out["board_size"]:
            raise CustomRuleError("syntax", "the board's size is not board_size")
        out["board_size"] = board.get("size")
        del out["board"]
    if any(key in rules for key in NOTATION_KEYS):
        given = {key: rules.get(key) for key in NOTATION_KEYS}
        style = next((name for name, values in BOARD_STYLES.items()
                      if all(type(given[k]) is type(x) and given[k] == x
                             for k, x in values.items())), None)
        if style is None or out.get("board", style) != style:
            raise CustomRuleError("syntax", "a1_dark, notation and numbering are no notation of "
                                  "a custom rule set, or not that of board")
        out["board"] = style
    if "optional_capture" in rules:
        optional = rules["optional_capture"]
        if not isinstance(optional, bool) or out.get("mandatory_capture",
                                                     not optional) is not (not optional):
            raise CustomRuleError("syntax", "optional_capture is true or false, the opposite of "
                                  "mandatory_capture")
        out["mandatory_capture"] = not optional
    return out
