"""Who may change a game: seats, and requests from the site's own pages only.

A game's id is public: it is in the game's address, its share link and its PDN, and anyone
with it may watch. Each side of a game is a **seat**, held by the secret player token of the
browser that took it (the ``damiera_player`` cookie, HttpOnly; the store keeps only its
SHA-256, for the seats and for the game's creator alike (:func:`owner_key`), so the
database does not hold the secret itself). The browser that creates a game
holds its side; in a friend game on one screen it holds both; the computer's side has no
seat. Only a seat holder may move, undo, resign, agree a draw or ask for the computer's
reply (:func:`require`); anyone else gets 403 (:class:`Forbidden`) and a read-only board.

Which seat an action needs (:func:`needed`): a move, the side to move (against the computer,
the human's side); an undo, the side that moved last (against the computer, the human's);
resigning, the side that resigns; an agreed draw, both sides; the computer's reply, the
human's side; deleting the game (from My games), every seat it has. In a game between two
browsers (opponent ``online``) each holds one side, and every action but a move needs the
side the caller acts for (its offers, takebacks, claims: :mod:`damiera.web.live.offers`).

:func:`require_same_origin` guards every state-changing POST against cross-site requests
(CSRF): a request a browser marks as coming from another site (``Sec-Fetch-Site``, else an
``Origin`` that is not this site: another scheme, host or port than the request's own, as
RFC 6454 compares origins) gets 403, and a body that is not JSON gets 415 (an HTML form
cannot send ``application/json``; a POST without a body may omit the type).
"""

from __future__ import annotations

import hashlib
from typing import Protocol
from urllib.parse import urlsplit

from fastapi import Request

SIDES = ("white", "black")


class Seated(Protocol):
    """What seats read of a game: a stored game (:class:`~damiera.web.store.StoredGame`)
    has these fields; the store calls :func:`new_game_seats`, so this module does not
    import it."""

    @property
    def opponent(self) -> str: ...
    @property
    def side(self) -> str: ...
    @property
    def white_seat(self) -> str | None: ...
    @property
    def black_seat(self) -> str | None: ...


class Forbidden(PermissionError):
    """The request may not change this game (403); the message says why."""


class UnsupportedBody(ValueError):
    """A state-changing request whose body is not JSON (415)."""


def seat_key(token: str) -> str:
    """What the store keeps for a seat: the SHA-256 (hex) of the holder's player token."""
    return hashlib.sha256(token.encode()).hexdigest()


def owner_key(token: str | None) -> str | None:
    """What the store keeps as a game's ``owner`` (the browser that created it, for "my
    games") for the player token ``token``: its :func:`seat_key`; None for no token."""
    return seat_key(token) if token else None


def new_game_seats(owner: str | None, opponent: str, side: str) -> tuple[str | None, str | None]:
    """``(white_seat, black_seat)`` of a new game created by the browser with token
    ``owner``: both sides between friends on one screen, the human's side against the
    computer (the computer's side has no seat) or against a player online (the other
    seat waits for whoever opens the invitation link:
    :mod:`damiera.web.live.invitations`)."""
    if owner is None:
        return None, None
    key = seat_key(owner)
    if opponent == "friend":
        return key, key
    return (key, None) if side == "white" else (None, key)


def free_side(stored: Seated) -> str | None:
    """The side of a game between two browsers that nobody holds yet (None: both taken)."""
    for side, seat in zip(SIDES, (stored.white_seat, stored.black_seat), strict=True):
        if seat is None:
            return side
    return None


def held(stored: Seated, token: str | None) -> list[str]:
    """The sides whose seat ``token`` holds in ``stored`` (``[]``: a spectator)."""
    if not token:
        return []
    key = seat_key(token)
    return [side for side, seat in zip(SIDES, (stored.white_seat, stored.black_seat),
                                       strict=True) if seat == key]


def needed(stored: Seated, action: str, turn: str, side: str | None = None) -> set[str]:
    """The seats an ``action`` (``move``, ``undo``, ``resign``, ``draw``, ``reply``,
    ``delete``) needs,
    given the side to move ``turn`` and, for ``resign``, the side that resigns."""
    other = "black" if turn == "white" else "white"
    computer = stored.opponent == "computer"
    if computer or action == "reply":
        return {stored.side}
    if stored.opponent == "online" and action not in ("move", "delete"):
        return {side} if side in SIDES else set()   # the player's own side, given
    if action == "move":
        return {turn}
    if action == "undo":
        return {other}
    if action == "resign":
        return {side or turn}
    return set(SIDES)   # an agreed draw, or deleting the game: both players


def require(stored: Seated, token: str | None, action: str, turn: str,
            side: str | None = None) -> None:
    """Raise :class:`Forbidden` unless ``token`` holds every seat ``action`` needs."""
    mine = set(held(stored, token))
    if not mine:
        raise Forbidden("you are watching this game: only its players may change it")
    missing = needed(stored, action, turn, side) - mine
    if missing:
        raise Forbidden(f"only the {' and '.join(sorted(missing))} player may do this")


_DEFAULT_PORTS = {"http": 80, "https": 443}


def same_origin(origin: str, scheme: str, host: str) -> bool:
    """Whether the ``Origin`` header ``origin`` names the site a request reached as
    ``scheme`` (``http`` or ``https``, as the server or its trusted proxy saw it) and Host
    header ``host``: the same scheme, host name (any case) and port (a default port written
    or not). ``null`` and anything unparsable are another site."""
    try:
        mine = urlsplit(f"{scheme}://{host}")
        theirs = urlsplit(origin)
        ports = (mine.port or _DEFAULT_PORTS.get(scheme),
                 theirs.port or _DEFAULT_PORTS.get(theirs.scheme))
    except ValueError:   # a port that is not a number
        return False
    return (theirs.scheme == scheme and theirs.hostname is not None
            and theirs.hostname == mine.hostname and ports[0] == ports[1]
            and theirs.path in ("", "/") and not theirs.query)


def require_same_origin(request: Request) -> None:
    """Raise :class:`Forbidden` for a request a browser sent from another site, and
    :class:`UnsupportedBody` for a body that is not JSON (see the module docstring)."""
    fetch_site = request.headers.get("sec-fetch-site")
    if fetch_site is not None:
        if fetch_site not in ("same-origin", "none"):
            raise Forbidden("requests from other sites may not change games")
    else:
        origin = request.headers.get("origin")
        if origin is not None and not same_origin(origin, request.url.scheme,
                                                  request.headers.get("host", "")):
            raise Forbidden("requests from other sites may not change games")
    ctype = request.headers.get("content-type")
    if ctype is not None:
        if ctype.split(";", 1)[0].strip().lower() != "application/json":
            raise UnsupportedBody("send the request body as JSON (Content-Type: "
                                  "application/json)")
    elif request.headers.get("content-length", "0") != "0" or \
            "transfer-encoding" in request.headers:
        raise UnsupportedBody("send the request body as JSON (Content-Type: application/json)")
