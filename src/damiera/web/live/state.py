"""What a game between two browsers (opponent ``"online"``) holds besides its moves, and its
part of the game JSON.

The ``offers`` column of a stored game (:class:`~damiera.web.store.StoredGame`) is ``{"draw":
side, "takeback": side, "rematch": side, "rematch_game": id}`` (each key optional, a side the
one that asked): a draw offer stands until the opponent accepts or declines it, its maker
withdraws it, or the opponent moves (which declines it); a takeback request until it is
answered, withdrawn, or any move is played; a rematch offer until it is answered (its
acceptance records ``rematch_game``). Changing them is :mod:`damiera.web.live.offers`'s work;
:func:`after_move` is what a move does to them (the game service calls it).
"""

from __future__ import annotations

from typing import Any

from damiera.web import i18n
from damiera.web.results import ended_off_board
from damiera.web.store import StoredGame

_ = i18n.gettext

SIDES = ("white", "black")


def other(side: str) -> str:
    """The opponent's side."""
    return "black" if side == "white" else "white"


def offers_of(stored: StoredGame) -> dict[str, Any]:
    """A copy of the standing offers of ``stored`` (``{}``: none)."""
    return dict(stored.offers or {})


def after_move(stored: StoredGame, mover: str) -> None:
    """A move by ``mover`` was played in ``stored``: any takeback request lapses, and a draw
    offer of the opponent's is declined by it."""
    offers = offers_of(stored)
    offers.pop("takeback", None)
    if offers.get("draw") == other(mover):
        offers.pop("draw")
    stored.offers = offers or None


def seated(stored: StoredGame) -> dict[str, bool]:
    """Whether each side's seat is taken."""
    return {"white": stored.white_seat is not None, "black": stored.black_seat is not None}


def ready(stored: StoredGame) -> bool:
    """Both players are seated: the game may begin (an online game only)."""
    return stored.opponent != "online" or all(seated(stored).values())


def can_abort(stored: StoredGame, plies: int) -> bool:
    """An unfinished game in which one side has not moved yet (``plies`` played: fewer
    than two) may be aborted, with no result."""
    return stored.result_reason is None and plies < 2


def online_json(stored: StoredGame, plies: int, over: bool) -> dict[str, Any]:
    """The ``online`` object of the game JSON: ``{"names": {"white", "black"}, "seated":
    {"white", "black"}, "ready", "draw_offer", "takeback", "rematch" (a side or null),
    "rematch_game" (a game id or null), "can_abort"}`` (``over``: the game has a result;
    ``plies``: moves played). Offers that a finished game cannot take are left out."""
    offers = offers_of(stored)
    on = not over and not ended_off_board(stored)
    return {
        "names": {"white": stored.white_name, "black": stored.black_name},
        "seated": seated(stored),
        "ready": ready(stored),
        "draw_offer": offers.get("draw") if on else None,
        "takeback": offers.get("takeback") if on else None,
        "rematch": offers.get("rematch") if not on else None,
        "rematch_game": offers.get("rematch_game"),
        "can_abort": on and can_abort(stored, plies),
    }


def refuse_undo_message() -> str:
    """The 409 of ``POST /undo`` in an online game, in the request's language."""
    return _("in a game online, ask your opponent for a takeback")


def not_ready_message() -> str:
    """The 409 of a move before the second player has taken a seat."""
    return _("wait for your opponent to take the other seat")
