"""The routes of games between two browsers and of the live boards.

- ``GET /join/{secret}``: the invitation link (:mod:`damiera.web.live.invitations`). The
  first client other than the creator's that opens it takes the free seat (its player
  cookie is set if it has none) and is sent on to ``/game/{id}`` (303); anyone else is sent
  there to watch. Who takes the seat by a GET (:func:`join_kind`), so that pasting the link
  in a chat does not give the seat to the chat's robot:

  - a browser's navigation to the page: ``Sec-Fetch-Mode: navigate`` and ``Sec-Fetch-Dest:
    document`` (every current browser sends them; a prefetch, an image, a frame or a script's
    fetch says otherwise and takes nothing);
  - a client that does not look like a browser (an HTTP library, as in the API's contract)
    and is no known robot.

  Link previews (a ``Purpose``/``Sec-Purpose: prefetch`` request, a ``HEAD``, a user agent
  naming itself a bot or a known link unfurler: :data:`PREVIEW_AGENTS`) are sent on without
  taking the seat. A client that looks like a browser (``Mozilla/`` ...) but sends no
  ``Sec-Fetch-*`` header, as in-app previewers (Messenger, Teams, iMessage) and browsers
  older than 2023 do, is shown the invitation page: the game and a "Take the seat" button,
  which only a person presses (``POST /join/{secret}``). An unknown secret: 404 page.
- ``POST /join/{secret}`` ``{"name"}`` (optional; same-origin JSON): take the free seat; the
  game as ``GET /api/games/{id}`` gives it (``seats`` empty when it was taken meanwhile:
  watch). 404 for an unknown secret, 400 for a bad name.
- ``GET /api/games/{id}/events``: the game's server-sent events
  (:mod:`damiera.web.live.hub`; ``Last-Event-ID`` or ``?last_event_id=`` resumes). A
  player's stream of a game it sits in is counted per seat, a watcher's per address
  (:meth:`LiveHub.admit <damiera.web.live.hub.LiveHub.admit>`).
- ``GET /api/games/{id}/invite.svg``: the invitation link as a QR code (segno), for the
  game's creator while the other seat is free (404 otherwise).
- ``POST /api/games/{id}/draw/{offer|accept|decline|withdraw}``,
  ``/takeback/{request|accept|decline|withdraw}``, ``/rematch/{offer|accept|decline}``,
  ``/abort``, ``/claim`` ``{"result": "win"|"draw"}``, ``/name`` ``{"name"}``: the players'
  actions (:mod:`damiera.web.live.offers`), each with an optional ``{"version"}`` (409 when the
  game changed since), answering the game as ``GET /api/games/{id}`` does.
"""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any, Literal

import segno
from fastapi import APIRouter, Body, Depends, Path, Query, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response, StreamingResponse
from pydantic import BaseModel, Field

from damiera.rules.variant import VARIANTS
from damiera.web import clocks, i18n, seats
from damiera.web.api import (
    ERRORS,
    VersionBody,
    current_player,
    error_response,
    player_token,
    set_player_cookie,
)
from damiera.web.client_address import client_address
from damiera.web.games import GameService
from damiera.web.live.events import Subscriber
from damiera.web.live.hub import LiveHub
from damiera.web.live.invitations import invite_url_for
from damiera.web.live.offers import ACTIONS, OnlineActions
from damiera.web.live.state import other
from damiera.web.pages import request_locale
from damiera.web.store import NotFoundError, StoredGame

_ = i18n.gettext

#: User agents of link previews (chat apps, social sites, mail and link checkers): they
#: never take a seat.
PREVIEW_AGENTS = re.compile(
    r"bot\b|bot/|crawler|spider|facebookexternalhit|facebot|whatsapp|skypeuripreview|"
    r"embedly|slack|preview|viber|telegram|discord|signal|line/|kakaotalk|snapchat|"
    r"microsoft teams|msteams|teams/|outlook|microsoft office|ms-office|iframely|"
    r"google-safety|bingpreview|curlie|pinterest|redditbot|vkshare|w3c_validator|"
    r"mattermost|rocket\.chat|zoom", re.IGNORECASE)
#: User agents that claim to be a browser (all of them begin so), which a page may ask for
#: a click when they do not say what they fetch.
BROWSER_AGENTS = re.compile(r"^mozilla/|applewebkit|gecko|opera", re.IGNORECASE)
#: The longest ``Last-Event-ID`` read (a version number).
MAX_EVENT_ID = 12



def is_preview(request: Request) -> bool:
    """Whether the request is a prefetch or a link preview (see the module docstring)."""
    purpose = (request.headers.get("sec-purpose") or request.headers.get("purpose") or
               request.headers.get("x-moz") or "")
    agent = request.headers.get("user-agent", "")[:512]
    return (request.method == "HEAD" or "prefetch" in purpose.lower()
            or bool(PREVIEW_AGENTS.search(agent)))


def join_kind(request: Request) -> Literal["seat", "ask", "watch"]:
    """What a GET of an invitation link does for this client (see the module docstring):
    ``seat`` takes the free seat, ``ask`` shows the invitation page with its button,
    ``watch`` sends on to the game without a seat."""
    if is_preview(request):
        return "watch"
    mode = request.headers.get("sec-fetch-mode")
    if mode is not None:      # a browser that says what it fetches
        dest = request.headers.get("sec-fetch-dest")
        return "seat" if mode == "navigate" and dest == "document" else "watch"
    if BROWSER_AGENTS.search(request.headers.get("user-agent", "")[:512]):
        return "ask"
    return "seat"


#: A ``Last-Event-ID`` that names a version: ASCII digits only (``str.isdigit`` also
#: accepts superscripts and other scripts' digits, which ``int`` refuses).
_EVENT_ID = re.compile(rf"[0-9]{{1,{MAX_EVENT_ID}}}")


def last_event_id(request: Request, query: int | None) -> int | None:
    """The version the client has: ``Last-Event-ID`` when it is 1-:data:`MAX_EVENT_ID`
    ASCII digits, else ``?last_event_id=``, else None (anything else in the header is
    ignored: the stream starts with the whole game)."""
    header = request.headers.get("last-event-id", "").strip()
    if _EVENT_ID.fullmatch(header):
        return int(header)
    return query


class EventStream(StreamingResponse):
    """A ``text/event-stream`` response (never cached, never buffered by a proxy) that calls
    ``on_close`` when it ends, however it ends."""

    def __init__(self, content: AsyncIterator[str] | AsyncIterator[bytes],
                 on_close: Callable[[], None]):
        super().__init__(content, media_type="text/event-stream",
                         headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
        self.on_close = on_close

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.on_close()


#: The optional body ``{"version"}`` of an action.
Version = Annotated[VersionBody | None, Body()]


class NameBody(VersionBody):
    """A display name (blank or null: none)."""

    name: str | None = Field(default=None, max_length=100, examples=["Anna"])


class JoinBody(BaseModel):
    """Taking an invitation's seat: your display name (optional)."""

    name: str | None = Field(default=None, max_length=100, examples=["Anna"])


class ClaimBody(VersionBody):
    """What the player claims when the opponent has left."""

    result: Literal["win", "draw"]


async def _same_origin(request: Request) -> None:
    seats.require_same_origin(request)


async def _locale(request: Request) -> None:
    request_locale(request)


def build_router(service: GameService, hub: LiveHub, actions: OnlineActions,
                 render: Callable[..., Response]) -> APIRouter:
    """The routes of the module docstring."""
    router = APIRouter(dependencies=[Depends(_locale)])
    changes = [Depends(_same_origin)]

    @router.api_route("/join/{secret}", methods=["GET", "HEAD"], include_in_schema=False)
    async def join(secret: str, request: Request) -> Response:
        token, new = player_token(request)
        kind = join_kind(request)
        try:
            if kind == "seat":
                stored = await actions.join(secret[:64], token)
            else:
                stored = await actions.join_target(secret)
        except NotFoundError:
            return render(request, "error.html", {
                "status": 404,
                "message": _("This invitation is not valid: the game is over or was deleted, "
                             "or the link is mistyped.")}, status_code=404)
        free = seats.free_side(stored)
        if (kind == "ask" and free is not None and not seats.held(stored, token)
                and not stored.result_reason):
            return _invitation_page(request, stored, free)
        response = RedirectResponse(f"/game/{stored.id}", status_code=303)
        if new and seats.held(stored, token):
            set_player_cookie(request, response, token)
        return response

    def _invitation_page(request: Request, stored: StoredGame, free: str) -> Response:
        creator = other(free)
        variant = VARIANTS[stored.variant]
        response = render(request, "join.html", {
            "title": _("You are invited to play"),
            "variant_name": _(variant.name), "optional_capture": stored.optional_capture,
            "clock": clocks.label(stored.clock) if stored.clock else None,
            "side": free, "opponent": getattr(stored, f"{creator}_name"),
            "game_id": stored.id})
        response.headers["Cache-Control"] = "private, no-store"
        return response

    @router.post("/join/{secret}", tags=["live"], responses=ERRORS, dependencies=changes,
                 summary="Take the free seat of an invitation (its page's button)")
    async def join_by_button(secret: str, request: Request,
                             body: Annotated[JoinBody | None, Body()] = None) -> JSONResponse:
        token, new = player_token(request)
        try:
            stored = await actions.join(secret[:64], token, body.name if body else None)
        except NotFoundError:
            return error_response(404, _("This invitation is not valid: the game is over or "
                                         "was deleted, or the link is mistyped."))
        response = JSONResponse(service.mine(stored, None, token))
        if new and seats.held(stored, token):
            set_player_cookie(request, response, token)
        return response

    @router.get("/api/games/{game_id}/events", tags=["live"], responses=ERRORS,
                summary="The game's changes as server-sent events")
    async def events(
        game_id: str, request: Request,
        last: int | None = Query(None, alias="last_event_id", ge=0, le=2**31),
    ) -> Response:
        stored = await service.load(game_id)
        player = current_player(request)
        sides = seats.held(stored, player)
        counted = hub.admit(client_address(request),     # a player: per seat, not address
                            (stored.id, seats.seat_key(player)) if sides and player else None)
        try:
            sub = Subscriber(i18n.current_locale(), sides, counted)
            stream, on_close = await hub.subscribe(stored, sub, last_event_id(request, last))
        except BaseException:
            hub.release(counted)
            raise
        return EventStream(stream, on_close)

    @router.get("/api/games/{game_id}/invite.svg", tags=["live"], responses=ERRORS,
                summary="The invitation link as a QR code (its creator only)")
    async def invite_qr(game_id: str, request: Request) -> Response:
        stored = await service.load(game_id)
        path = (invite_url_for(stored.id, stored.invite, current_player(request))
                if seats.free_side(stored) else None)
        if path is None:
            return error_response(404, "this game has no invitation of yours to show")
        qr = segno.make(str(request.base_url).rstrip("/") + path, error="m")
        out = io.BytesIO()
        qr.save(out, kind="svg", scale=5, border=2, dark="#2b2118", light="#ffffff",
                xmldecl=False, title=_("Invitation link"))
        return Response(out.getvalue(), media_type="image/svg+xml",
                        headers={"Cache-Control": "private, no-store"})

    def answer_route(kind: str, names: tuple[str, ...]) -> None:
        @router.post(f"/api/games/{{game_id}}/{kind}/{{action}}", tags=["live"],
                     responses=ERRORS, dependencies=changes,
                     summary=f"{kind.capitalize()}: {', '.join(names)} (a game online)",
                     name=f"online_{kind}")
        async def answer(game_id: str, request: Request, body: Version = None,
                         action: str = Path(pattern=f"^({'|'.join(names)})$",
                                            description=" | ".join(names))) -> JSONResponse:
            return JSONResponse(await actions.answer(
                game_id, kind, action, player=current_player(request),
                version=body.version if body else None))

    for kind, names in ACTIONS.items():
        answer_route(kind, names)

    @router.post("/api/games/{game_id}/abort", tags=["live"], responses=ERRORS,
                 dependencies=changes, summary="Abort a game online before both sides moved")
    async def abort(game_id: str, request: Request, body: Version = None) -> JSONResponse:
        return JSONResponse(await actions.abort(
            game_id, player=current_player(request), version=body.version if body else None))

    @router.post("/api/games/{game_id}/claim", tags=["live"], responses=ERRORS,
                 dependencies=changes,
                 summary="Claim the win or a draw when the opponent has left")
    async def claim(game_id: str, body: ClaimBody, request: Request) -> JSONResponse:
        return JSONResponse(await actions.claim(
            game_id, body.result, player=current_player(request), version=body.version))

    @router.post("/api/games/{game_id}/name", tags=["live"], responses=ERRORS,
                 dependencies=changes, summary="Your display name in a game online")
    async def name(game_id: str, body: NameBody, request: Request) -> JSONResponse:
        return JSONResponse(await actions.set_name(
            game_id, body.name, player=current_player(request), version=body.version))

    return router
