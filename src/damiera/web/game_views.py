"""What a game shows without changing it: why a piece can or cannot move, the move text of
squares a player entered, the game as PDN. Each reads a rules-core Game rebuilt by
:class:`damiera.web.games.GameService` (which loads it) and changes nothing."""

from __future__ import annotations

from datetime import UTC
from typing import Any

from damiera.pdn.writer import write_game
from damiera.rules.game import Game
from damiera.rules.geometry import geometry
from damiera.web import clocks, i18n
from damiera.web.errors import BadRequest, clip
from damiera.web.results import ABORTED_REASON, color_of, ended_off_board
from damiera.web.store import StoredGame

__all__ = ["explain_square", "movers", "pdn_text", "text_of_path"]


def movers(game: Game) -> list[str]:
    """The side that played each move of ``game``, in order."""
    return [p.turn.word for p in game.positions[: game.ply]]


def explain_square(game: Game, square: str) -> dict[str, Any]:
    """Why the piece on ``square`` can or cannot move now: ``{"square", "moves", "reason",
    "code"}`` (``reason``/``code`` null when it has legal moves). The reason is the rules
    core's or the game's history's (:meth:`damiera.rules.game.Game.explain_piece`), in the
    current language. Raises BadRequest (a square the board does not have)."""
    v = game.variant
    geo = geometry(v)
    try:
        start = geo.square(square)
    except ValueError as exc:  # the core's reason, with the label already shortened
        raise BadRequest(clip(str(exc), 200)) from None
    mine = [str(m) for m in game.legal_moves if m.raw.start == start]
    if mine or game.outcome() is not None:
        return {"square": geo.label(start), "moves": mine, "reason": None, "code": None}
    refusal = game.explain_piece(start)
    if refusal is None:  # cannot happen: it has no legal move; be safe
        return {"square": geo.label(start), "moves": [], "reason": None, "code": None}
    return {
        "square": geo.label(start),
        "moves": [],
        "reason": i18n.error_message(refusal.code, refusal.params, str(refusal)),
        "code": refusal.code,
    }


def text_of_path(game: Game, path: list[str]) -> str:
    """The move text of ``path`` (two or more square labels as the player entered them,
    start first) in the variant's notation: joined with its capture separator when a legal
    move from the first square captures, else with ``-``; the rules core then reads it, or
    refuses it in its own terms. Raises BadRequest (a first square the board does not
    have)."""
    v = game.variant
    try:
        start = geometry(v).square(path[0])
    except ValueError as exc:
        raise BadRequest(clip(str(exc), 200)) from None
    capture = any(m.is_capture for m in game.legal_moves if m.raw.start == start)
    return (v.capture_separator if capture else "-").join(path)


def pdn_text(stored: StoredGame, game: Game) -> str:
    """The game as PDN text (tags ``Event``, ``Site``, ``Date``, ``White``, ``Black``,
    ``GameType``, ``FEN`` when not from the start, ``Result`` (``*`` for an aborted game);
    the players' display names in a game online; a timed game's
    ``TimeControl`` and clock comments: :func:`damiera.web.clocks.pdn_extras`)."""
    if stored.opponent == "computer":
        names = {stored.side: "Player", color_of(stored.side).opponent.word:
                 stored.engine or f"Damiera level {stored.level}"}
    else:
        names = {"white": stored.white_name or "White player",
                 "black": stored.black_name or "Black player"}
    created = stored.created_at.astimezone(UTC)
    tags = {
        "Event": "Damiera game",
        "Site": f"game {stored.id}",
        "Date": created.strftime("%Y.%m.%d"),
        "White": names["white"],
        "Black": names["black"],
    }
    extra, comments = clocks.pdn_extras(stored, movers(game))
    tags.update(extra)
    result = None
    if stored.result_reason == ABORTED_REASON:
        result = "*"
    elif ended_off_board(stored):
        result = {"white": "1-0", "black": "0-1"}.get(stored.result_winner or "", "1/2-1/2")
    # A result decided off the board (an abort, a loss on time) only when the rules have none.
    return write_game(game, {"Event": "Damiera game", **tags},
                      result=None if game.outcome() else result, comments=comments)
