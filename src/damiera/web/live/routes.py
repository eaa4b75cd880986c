"""The routes of games between two browsers and of the live boards.

- ``GET /join/{secret}``: the invitation link (:mod:`damiera.web.live.invitations`). The
  first browser other than the creator's that opens it takes the free seat (its player
  cookie is set if it has none) and is sent on to ``/game/{id}`` (303); anyone else is sent
  there to watch. Link previews (a ``Purpose``/``Sec-Purpose: prefetch`` request, a ``HEAD``,
  or a user agent naming itself a bot or a known link unfurler) are sent on without taking the
  seat, so pasting the link in a chat does not give the seat to the chat's robot. An unknown
  secret: 404 page.
- ``GET /api/games/{id}/events``: the game's server-sent events
  (:mod:`damiera.web.live.hub`; ``Last-Event-ID`` or ``?last_event_id=`` resumes).
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
from pydantic import Field

from damiera.web import i18n, seats
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
from damiera.web.pages import request_locale
from damiera.web.store import NotFoundError

_ = i18n.gettext

#: User agents of link previews (chat apps, social sites): they never take a seat.
PREVIEW_AGENTS = re.compile(
    r"bot\b|bot/|crawler|spider|facebookexternalhit|whatsapp|skypeuripreview|embedly|"
    r"slack-imgproxy|preview", re.IGNORECASE)
#: The longest ``Last-Event-ID`` read (a version number).
MAX_EVENT_ID = 12



def is_preview(request: Request) -> bool:
    """Whether the request is a prefetch or a link preview (see the module docstring)."""
    purpose = (request.headers.get("sec-purpose") or request.headers.get("purpose") or
               request.headers.get("x-moz") or "")
    agent = request.headers.get("user-agent", "")[:512]
    return (request.method == "HEAD" or "prefetch" in purpose.lower()
            or bool(PREVIEW_AGENTS.search(agent)))


def last_event_id(request: Request, query: int | None) -> int | None:
    """The version the client has: ``Last-Event-ID`` (a number), else ``?last_event_id=``."""
    header = request.headers.get("last-event-id", "").strip()
    if header.isdigit() and len(header) <= MAX_EVENT_ID:
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
        try:
            if is_preview(request):
                stored = await actions.join_target(secret)
            else:
                stored = await actions.join(secret[:64], token)
        except NotFoundError:
            return render(request, "error.html", {
                "status": 404,
                "message": _("This invitation is not valid: the game is over or was deleted, "
                             "or the link is mistyped.")}, status_code=404)
        response = RedirectResponse(f"/game/{stored.id}", status_code=303)
        if new and seats.held(stored, token):
            set_player_cookie(request, response, token)
        return response

    @router.get("/api/games/{game_id}/events", tags=["live"], responses=ERRORS,
                summary="The game's changes as server-sent events")
    async def events(
        game_id: str, request: Request,
        last: int | None = Query(None, alias="last_event_id", ge=0, le=2**31),
    ) -> Response:
        client = client_address(request)
        hub.admit(client)
        try:
            stored = await service.load(game_id)
            sub = Subscriber(i18n.current_locale(), seats.held(stored, current_player(request)),
                             client)
            stream, on_close = await hub.subscribe(stored, sub, last_event_id(request, last))
        except BaseException:
            hub.release(client)
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
