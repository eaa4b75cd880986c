"""PDN results: which side a result token names, and each variant's convention for it.

Source: PDN 3.0 (game termination markers and the ``Result`` tag) and the FMJD's points.

- On the 10x10 board results are written in points, ``2-0``, ``1-1``, ``0-2``; on 8x8
  boards ``1-0``, ``1/2-1/2``, ``0-1``. Files mix them (Russian ``2-0``, International
  ``1-0``), so a read result is turned into its variant's convention: the reader and the
  writer then agree, and a game's result is the same after a round trip.
- ``0-0`` (both sides lost: a double forfeit) names no winner and no draw; it is kept as
  written. ``*`` is an unknown or unfinished result; anything else names no result either.
- A game's result is its movetext's end marker; when that is ``*`` (unknown), the ``Result``
  tag when it names a result (programs that fill in the tag and end every movetext with
  ``*``). So the marker wins when both name a result and disagree.
"""

from __future__ import annotations

from damiera.rules.variant import Color, Variant

#: Both sides lost (a double forfeit): no winner and no draw, kept as written.
DOUBLE_FORFEIT = "0-0"

_WINNER = {
    "1-0": Color.WHITE, "2-0": Color.WHITE, "0-1": Color.BLACK, "0-2": Color.BLACK,
    "1-1": None, "1/2-1/2": None,
}


def result_winner(token: str) -> Color | None | str:
    """The winner a result token names (``Color``, None for a draw), or ``"*"`` when it
    names none (``*``, ``0-0`` or anything else)."""
    return _WINNER.get(token.strip(), "*")


def result_token(variant: Variant, winner: Color | None | str) -> str:
    """The result in the variant's convention (see the module docstring); ``"*"`` for a
    ``winner`` of ``"*"`` (unknown)."""
    if winner == "*":
        return "*"
    points = variant.board_size == 10
    if winner is None:
        return "1-1" if points else "1/2-1/2"
    if winner is Color.WHITE:
        return "2-0" if points else "1-0"
    return "0-2" if points else "0-1"


def canonical_result(variant: Variant, token: str) -> str:
    """``token`` in the variant's convention: ``2-0`` on an 8x8 board is ``1-0``, ``1-0``
    on the 10x10 board is ``2-0``; ``0-0`` stays; a token that names no result is ``*``."""
    if token.strip() == DOUBLE_FORFEIT:
        return DOUBLE_FORFEIT
    return result_token(variant, result_winner(token))


def game_result(variant: Variant, marker: str, tag: str | None) -> str:
    """A game's result in the variant's convention from its movetext's end ``marker`` and
    its ``Result`` ``tag`` (None when it has none): the marker, or the tag when the marker
    is ``*`` (see the module docstring)."""
    result = canonical_result(variant, marker)
    if result == "*" and tag is not None:
        result = canonical_result(variant, tag)
    return result
