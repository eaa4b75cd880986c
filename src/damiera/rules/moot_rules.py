"""Rule fields that change nothing given the others: breakthrough's king rules.

Under breakthrough (:attr:`~damiera.rules.rule_set.Variant.breakthrough`) a position with a
king on the board is over (the rules core's ``goal_end``: the side with the king has won), so
no king ever moves, captures or is captured in a game in progress. Every rule about kings is
then without effect, except where a man crowned during a capture goes on capturing as a king
in that same, last move (``promote-and-continue``): there how far the new king flies, and
where it lands, decide which captures the move may make (and, under a majority rule, which
capture is compulsory).

Fields that change nothing under breakthrough, and the value that plays the same game:

- ``men_capture_kings``: ``True`` (there is no king to take);
- ``capture_choice``: ``king-precedence`` is ``free`` (no capture starts with a king);
  ``italian-priorities``, ``most-pieces-then-kings`` and ``value`` are ``majority`` (the
  pieces taken are all men, each worth as much as another);
- ``king_quiet_move_limit``: ``0``; ``king_ending_draws``: ``()`` (kings never move);
- ``flying_kings`` and ``king_lands_behind``: ``False``, unless ``promotion_during_capture``
  is ``promote-and-continue``.

Apart from breakthrough, ``no_reverse_capture`` changes nothing without
``remove_captured_at_once``: the piece just taken stays on its square until the move ends, so
it blocks the way straight back (it cannot be taken twice), and the value is ``False``.

Fields are the plain values of :data:`damiera.rules.custom.FIELDS` (this module imports
nothing of the rules, so :mod:`damiera.rules.custom` can use it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

#: Capture choices that are another one when no king is on the board.
SAME_CHOICE_WITHOUT_KINGS: Final[Mapping[str, str]] = {
    "king-precedence": "free",
    "italian-priorities": "majority",
    "most-pieces-then-kings": "majority",
    "value": "majority",
}

#: King rules without effect under breakthrough, at the value that plays the same game.
_KING_RULES: Final[Mapping[str, object]] = {
    "men_capture_kings": True,
    "king_quiet_move_limit": 0,
    "king_ending_draws": (),
}


def moot_fields(fields: Mapping[str, object]) -> dict[str, object]:
    """The fields of ``fields`` set to a value that changes nothing, each with the value
    that plays the same game (empty when every field has its effect). ``fields``: every
    entry of :data:`damiera.rules.custom.FIELDS` by name, values as that table holds them."""
    out: dict[str, object] = {}
    if fields.get("no_reverse_capture") and not fields.get("remove_captured_at_once"):
        out["no_reverse_capture"] = False
    if not fields.get("breakthrough"):
        return out
    for name, same in _KING_RULES.items():
        if fields.get(name) != same:
            out[name] = same
    choice = fields.get("capture_choice")
    if isinstance(choice, str) and choice in SAME_CHOICE_WITHOUT_KINGS:
        out["capture_choice"] = SAME_CHOICE_WITHOUT_KINGS[choice]
    if fields.get("promotion_during_capture") != "promote-and-continue":
        for name in ("flying_kings", "king_lands_behind"):
            if fields.get(name):
                out[name] = False
    return out


def effective_fields(fields: Mapping[str, object]) -> dict[str, object]:
    """``fields`` with every field that changes nothing (:func:`moot_fields`) at the value
    that plays the same game: two rule sets with equal effective fields play the same
    games."""
    return {**fields, **moot_fields(fields)}
