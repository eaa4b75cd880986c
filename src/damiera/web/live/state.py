"""What a game between two browsers (opponent ``"online"``) holds besides its moves, and its
part of the game JSON.

The ``offers`` column of a stored game (:class:`~damiera.web.store.StoredGame`) is ``{"draw":
side, "takeback": side, "rematch": side, "rematch_game": id, "start_ply": n}`` (each key
optional, a side the one that asked; ``start_ply``: the moves the game was created with, a
game continued from a record, which the players did not play: :func:`start_ply`): a draw
offer stands until the opponent accepts or declines it, its maker
withdraws it, or the opponent moves (which declines it); a takeback request until it is
answered, withdrawn, or any move is played; a rematch offer until it is answered (its
acceptance records ``rematch_game``). Changing them is :mod:`damiera.web.live.offers`'s work;
:func:`after_move` is what a move does to them (the game service calls it).

The clock of a game online waits for both players: no time is counted until each side has
played its first move in the game (either may abort until then), so a player whose page is
still on its way (the creator of a challenge someone accepted, the other player of a rematch,
the one an invitation link was sent to) never loses time it could not use; from the second
player's first move on, the side to move's clock runs (:func:`hold_clock`, applied at each
save of a game).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from damiera.web import clocks, i18n
from damiera.web.results import ABORTED_REASON, ended_off_board
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


def start_ply(stored: StoredGame) -> int:
    """How many of the game's moves it was created with (0 but for a game continued from
    a record): moves nobody played in it."""
    return int((stored.offers or {}).get("start_ply", 0))


def played(stored: StoredGame, plies: int) -> int:
    """Moves the players played in a game of ``plies`` moves (those it began with left
    out)."""
    return max(0, plies - start_ply(stored))


def may_delete(stored: StoredGame) -> bool:
    """Whether a player of a game online may delete it: while nobody else holds a seat in
    it (an invitation nobody took yet), or once aborted (nothing was played); otherwise it
    is its opponent's game too, and stays."""
    return not all(seated(stored).values()) or stored.result_reason == ABORTED_REASON


def delete_refusal_message(watching: bool) -> str:
    """The 403 of deleting a game online, in the request's language: ``watching``, the
    caller holds no seat; else :func:`may_delete` keeps it."""
    if watching:
        return _("only a player of this game may delete it")
    return _("this game is your opponent's too: a game online can be deleted only before "
             "someone takes the other seat, or once it was aborted")


def can_abort(stored: StoredGame, plies: int) -> bool:
    """An unfinished game in which one side has not moved yet (of the ``plies`` moves of
    the game, fewer than two played by its players) may be aborted, with no result."""
    return stored.result_reason is None and played(stored, plies) < 2


def hold_clock(stored: StoredGame, plies: int, at: datetime | None = None) -> None:
    """The clock of an unfinished game online (``plies`` moves now) as the module docstring
    says: stopped while a side has not played its first move, started at ``at`` (default
    now) by the move after which both have. Other games, finished games: unchanged."""
    clock = stored.clock
    if stored.opponent != "online" or clock is None or stored.result_reason is not None:
        return
    waits = played(stored, plies) < 2
    if waits and not clock.get("stopped"):
        stored.clock = {**clock, "stopped": True}
    elif not waits and clock.get("stopped"):
        stored.clock = {**clock, "stopped": False,
                        "turn_started": (at or clocks.now()).isoformat()}


def sides_with_a_move(stored: StoredGame, plies: int, turn: str) -> dict[str, bool]:
    """Whether each side has played a move of its own in the game (``plies`` moves, those
    it began with not counted; ``turn``: the side to move now): what a takeback it asks
    for would take back."""
    n = played(stored, plies)
    return {side: n >= 2 or (n == 1 and side != turn) for side in SIDES}


def online_json(stored: StoredGame, plies: int, over: bool, turn: str) -> dict[str, Any]:
    """The ``online`` object of the game JSON: ``{"names": {"white", "black"}, "seated":
    {"white", "black"}, "ready", "draw_offer", "takeback", "rematch" (a side or null),
    "rematch_game" (a game id or null), "can_abort", "can_take_back": {"white", "black"}
    (that side has a move of its own to ask back)}`` (``over``: the game has a result;
    ``plies``: moves in the game; ``turn``: the side to move). Offers that a finished game
    cannot take are left out."""
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
        "can_take_back": {side: on and has for side, has in
                          sides_with_a_move(stored, plies, turn).items()},
    }


def refuse_undo_message() -> str:
    """The 409 of ``POST /undo`` in an online game, in the request's language."""
    return _("in a game online, ask your opponent for a takeback")


def not_ready_message() -> str:
    """The 409 of a move before the second player has taken a seat."""
    return _("wait for your opponent to take the other seat")
