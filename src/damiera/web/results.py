"""Results of games as the site words them: the one place where a result becomes a sentence
in the request's language (the catalog's words; the rules core's
:meth:`~damiera.rules.game.Result.describe` when a translation is broken), for live games,
stored ones and flag falls (:data:`TIME_REASON` lost on time, :data:`TIME_DRAW_REASON` drawn
because the opponent could not win; recorded by :mod:`damiera.web.clocks`).
The pages show these sentences as they come (``result_sentence`` in the game JSON)."""

from __future__ import annotations

from typing import Any

from damiera.rules.game import Result, ResultReason
from damiera.rules.variant import Color, Variant, variant
from damiera.web import i18n
from damiera.web.store import StoredGame

_ = i18n.gettext

__all__ = [
    "ABANDONED_DRAW_REASON",
    "ABANDONED_REASON",
    "ABORTED_REASON",
    "OFF_BOARD_REASONS",
    "TIME_DRAW_REASON",
    "TIME_REASON",
    "color_of",
    "ended_off_board",
    "localize_result",
    "off_board_result",
    "result_json",
    "result_sentence",
    "result_text",
    "stored_result_text",
]

#: The stored ``result_reason`` of a game lost on time.
TIME_REASON = ResultReason.TIME.value
#: The stored ``result_reason`` of a game drawn on time: the opponent could not win.
TIME_DRAW_REASON = ResultReason.TIME_NO_WIN.value
#: Games between two browsers (:mod:`damiera.web.live.offers`): won, or drawn, by a claim
#: after the opponent left; aborted before both sides moved (no result: no winner, and the
#: PDN's result stays ``*``).
ABANDONED_REASON = "abandoned"
ABANDONED_DRAW_REASON = "abandoned-draw"
ABORTED_REASON = "aborted"
#: Results decided off the board (the server's clock, or the players' page): the rules
#: core's Game does not know them; the stored row does.
OFF_BOARD_REASONS = (TIME_REASON, TIME_DRAW_REASON, ABANDONED_REASON, ABANDONED_DRAW_REASON,
                     ABORTED_REASON)


def ended_off_board(stored: StoredGame) -> bool:
    """Whether ``stored`` ended off the board (:data:`OFF_BOARD_REASONS`)."""
    return stored.result_reason in OFF_BOARD_REASONS


def off_board_result(stored: StoredGame, data: dict[str, Any]) -> dict[str, Any]:
    """The game JSON ``data`` with the result of a game that ended off the board (no legal
    moves, nothing to take back); ``data`` itself is not changed."""
    if not ended_off_board(stored):
        return data
    return {**data, "legal_moves": [], "can_undo": False,
            "result": {"winner": stored.result_winner, "reason": stored.result_reason,
                       "text": stored_result_text(stored)}}


def color_of(word: str) -> Color:
    """The Color named ``"white"`` or ``"black"`` (anything else: Black)."""
    return Color.WHITE if word == "white" else Color.BLACK


def result_sentence(winner: str | None, reason: str, n: int) -> str | None:
    """The sentence of a result in the current language: ``winner`` ``"white"``/``"black"``
    (None: a draw), ``reason`` a :class:`~damiera.rules.game.ResultReason` value or
    :data:`TIME_REASON` / :data:`TIME_DRAW_REASON`, ``n`` the variant's moves without progress that draw. None for an
    unknown reason or a sentence the translation breaks."""
    words = {"white": _("White"), "black": _("Black")}
    fields = {"n": str(n), "winner": "", "loser": ""}
    if winner in words:
        fields["winner"] = words[winner]
        fields["loser"] = words["black" if winner == "white" else "white"]
    text = {
        ResultReason.NO_PIECES.value: _("{winner} wins: {loser} has no pieces left"),
        ResultReason.NO_MOVES.value: _("{winner} wins: {loser} has no legal move"),
        ResultReason.LOSING_NO_PIECES.value:
            _("{winner} wins: it has no pieces left (losing rule)"),
        ResultReason.LOSING_NO_MOVES.value:
            _("{winner} wins: it has no legal move (losing rule)"),
        ResultReason.BREAKTHROUGH.value: _("{winner} wins: it made the first king (breakthrough)"),
        ResultReason.RESIGNATION.value: _("{winner} wins: {loser} resigned"),
        ResultReason.NO_PROGRESS.value:
            _("Draw: {n} moves each without a capture or a promotion"),
        ResultReason.REPETITION.value: _("Draw: the same position occurred three times"),
        ResultReason.KING_ENDING.value: _("Draw: a king-only ending that cannot be won in time"),
        ResultReason.AGREEMENT.value: _("Draw by agreement"),
        TIME_REASON: _("{winner} wins: {loser} lost on time"),
        TIME_DRAW_REASON: _("Draw: a flag fell, but the other side cannot win"),
        ABANDONED_REASON: _("{winner} wins: {loser} left the game"),
        ABANDONED_DRAW_REASON: _("Draw: a player left the game and the other claimed a draw"),
        ABORTED_REASON: _("Game aborted: no result"),
    }.get(reason)
    if text is None:
        return None
    try:
        return text.format(**fields)
    except (KeyError, IndexError, ValueError):
        return None


def stored_variant(stored: StoredGame) -> Variant | None:
    """The Variant of a stored row (its ``variant`` column is a canonical id, options
    included; rows stored before keep the rule set's id and the ``optional_capture`` flag),
    or None for a column no rule set reads."""
    try:
        return variant(stored.variant, optional_capture=stored.optional_capture)
    except ValueError:
        return None


def result_text(result: Result, v: Variant) -> str:
    """The result in the current language (the page's own words for it), else the core's."""
    winner = result.winner.word if result.winner is not None else None
    sentence = result_sentence(winner, result.reason.value, v.draw_moves_without_progress)
    return sentence if sentence is not None else result.describe(v)


def localize_result(data: dict[str, Any]) -> dict[str, Any]:
    """The game JSON ``data`` with ``result_sentence``: its result in the current language,
    or None while the game goes on (computed per request: ``data`` may be cached for every
    language, and is not changed)."""
    result = data.get("result")
    if not result:
        return {**data, "result_sentence": None}
    sentence = result_sentence(result["winner"], result["reason"],
                               int(data.get("draw_moves_without_progress") or 0))
    return {**data, "result_sentence": sentence or result["text"]}


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
    v = stored_variant(stored)
    if stored.result_reason in OFF_BOARD_REASONS[2:]:
        sentence = result_sentence(stored.result_winner, stored.result_reason, 0)
        return sentence if sentence is not None else str(stored.result_reason)
    try:
        reason = ResultReason(stored.result_reason)
    except ValueError:
        return str(stored.result_reason)
    winner = color_of(stored.result_winner) if stored.result_winner else None
    return result_text(Result(winner, reason), v) if v else reason.value
