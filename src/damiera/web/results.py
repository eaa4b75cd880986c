"""Results of games as the site words them: one sentence per result, in the request's
language (the catalog's words; the rules core's :meth:`~damiera.rules.game.Result.describe`
when a translation is broken), for live games and stored ones (a loss on time is worded by
:func:`damiera.web.clocks.result_text`)."""

from __future__ import annotations

from typing import Any

from damiera.rules.game import Result, ResultReason
from damiera.rules.variant import VARIANTS, Color, Variant
from damiera.web import clocks, i18n
from damiera.web.store import StoredGame

_ = i18n.gettext

__all__ = ["color_of", "result_json", "result_text", "stored_result_text"]


def color_of(word: str) -> Color:
    """The Color named ``"white"`` or ``"black"`` (anything else: Black)."""
    return Color.WHITE if word == "white" else Color.BLACK


def result_text(result: Result, v: Variant) -> str:
    """The result in the current language (the page's own words for it), else the core's."""
    words = {"white": _("White"), "black": _("Black")}
    fields = {"n": str(v.draw_moves_without_progress), "winner": "", "loser": ""}
    if result.winner is not None:
        fields["winner"] = words[result.winner.word]
        fields["loser"] = words[result.winner.opponent.word]
    text = {
        ResultReason.NO_PIECES: _("{winner} wins: {loser} has no pieces left"),
        ResultReason.NO_MOVES: _("{winner} wins: {loser} has no legal move"),
        ResultReason.RESIGNATION: _("{winner} wins: {loser} resigned"),
        ResultReason.NO_PROGRESS: _("Draw: {n} moves each without a capture or a promotion"),
        ResultReason.REPETITION: _("Draw: the same position occurred three times"),
        ResultReason.AGREEMENT: _("Draw by agreement"),
    }[result.reason]
    try:
        return text.format(**fields)
    except (KeyError, IndexError, ValueError):
        return result.describe(v)


def result_json(result: Result | None, v: Variant) -> dict[str, Any] | None:
    """``{"winner", "reason", "text"}`` of a result (``text`` in English, the rules core's
    words), or None while the game goes on."""
    if result is None:
        return None
    return {
        "winner": result.winner.word if result.winner else None,
        "reason": result.reason.value,
        "text": result.describe(v),
    }


def stored_result_text(stored: StoredGame) -> str:
    """The stored result as a sentence in the current language (the reason's own words)."""
    v = VARIANTS.get(stored.variant)
    if clocks.lost_on_time(stored):
        return clocks.result_text(stored.result_winner)
    try:
        reason = ResultReason(stored.result_reason)
    except ValueError:
        return str(stored.result_reason)
    winner = color_of(stored.result_winner) if stored.result_winner else None
    return result_text(Result(winner, reason), v) if v else reason.value
