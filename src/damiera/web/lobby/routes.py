"""The lobby's routes.

- ``GET /lobby``: the page (open challenges, live; a form to open one).
- ``GET /api/challenges`` -> ``[challenge]`` (:func:`~damiera.web.lobby.challenges.
  challenge_json`), newest first.
- ``POST /api/challenges`` ``{"variant", "clock": "5+3"|null, "side":
  "white"|"black"|"random", "optional_capture": bool, "name": str|null}`` -> 201 and the
  challenge (its ``id``); 429/503 with ``Retry-After`` over the limits.
- ``POST /api/challenges/{id}/accept`` ``{"name"}`` (optional) -> 200 and the game (its
  ``id``, the caller's seat in ``seats``) for the first client; 409 for every later one (and
  for the challenge's creator).
- ``DELETE /api/challenges/{id}``: its creator cancels it (204).
- ``GET /api/challenges/events``: server-sent events of the lobby: first ``{"type": "list",
  "challenges": [...], "accepted": [{"id", "game_id"}]}`` (``accepted``: this client's
  challenges that someone accepted in the last 10 minutes, and their games: told from the
  state, so a creator that was elsewhere, or whose stream dropped, still learns of it), then ``{"type": "created", "challenge"}`` and ``{"type":
  "removed", "id", "game_id"}`` (``game_id`` when it was accepted: its creator's page goes
  there). A page that falls too far behind gets the list again. While a client holds it
  open, its challenges stay open (:mod:`damiera.web.lobby.presence`); the page and the
  stream give a client without a player cookie its own.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, Field

from damiera.rules.variant import VARIANTS
from damiera.web import i18n, seats
from damiera.web.api import ERRORS, current_player, player_token, set_player_cookie
from damiera.web.client_address import client_address
from damiera.web.limits import RateLimiter
from damiera.web.live.hub import LiveHub, LiveSettings
from damiera.web.live.routes import EventStream
from damiera.web.live.strings import live_strings
from damiera.web.lobby.challenges import Challenges
from damiera.web.pages import request_locale
from damiera.web.store_tables import MAX_VARIANT_ID

_ = i18n.gettext

#: Lobby events kept for a page that reads slowly before it is sent the list again.
QUEUE = 64


class ChallengeBody(BaseModel):
    """A challenge to open."""

    variant: str = Field(examples=["international", "russian+losing"], max_length=MAX_VARIANT_ID)
    clock: str | None = Field(default=None, max_length=20, examples=["5+3"])
    side: Literal["white", "black", "random"] = "random"
    optional_capture: bool = False
    losing: bool = False
    breakthrough: bool = False
    name: str | None = Field(default=None, max_length=100)


class AcceptBody(BaseModel):
    """Accepting a challenge: your display name (optional)."""

    name: str | None = Field(default=None, max_length=100)


async def _same_origin(request: Request) -> None:
    seats.require_same_origin(request)


async def _locale(request: Request) -> None:
    request_locale(request)


class LobbyStreams:
    """The open lobby streams of this process, fed by ``lobby`` messages of the bus."""

    def __init__(self, hub: LiveHub, challenges: Challenges):
        self.hub = hub
        self.challenges = challenges
        self._queues: set[asyncio.Queue[str | None]] = set()
        hub.lobby_listeners.append(self._message)

    def _message(self, message: dict[str, Any]) -> None:
        if message.get("what") == "created":
            data = {"type": "created", "challenge": message.get("challenge")}
        else:
            data = {"type": "removed", "id": message.get("id"),
                    "game_id": message.get("game_id")}
        chunk = f"data: {json.dumps(data, separators=(',', ':'))}\n\n"
        for queue in self._queues:
            try:
                queue.put_nowait(chunk)
            except asyncio.QueueFull:     # too far behind: the list again
                while not queue.empty():
                    queue.get_nowait()
                queue.put_nowait(None)

    async def stream(self, token: str | None, queue: asyncio.Queue[str | None],
                     heartbeat: float) -> AsyncIterator[str]:
        try:
            first = True
            chunk: str | None = None
            while True:
                if first or chunk is None:
                    listed = await self.challenges.open(token)
                    accepted = await self.challenges.accepted(token)
                    yield (("retry: 2000\n\n" if first else "") + "data: " +
                           json.dumps({"type": "list", "challenges": listed,
                                       "accepted": accepted},
                                      separators=(",", ":")) + "\n\n")
                    first = False
                try:
                    chunk = await asyncio.wait_for(queue.get(), heartbeat)
                except TimeoutError:
                    yield ": ping\n\n"
                    chunk = ""
                    continue
                if chunk:
                    yield chunk
        finally:
            self._queues.discard(queue)

    def open(self, token: str | None, heartbeat: float,
             on_close: Callable[[], None]) -> EventStream:
        """The lobby's stream for the player token ``token``; while it is open, that
        player's challenges stay open (:mod:`damiera.web.lobby.presence`)."""
        queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE)
        self._queues.add(queue)
        creator = seats.seat_key(token) if token else None
        self.challenges.presence.opened(creator)

        def closed() -> None:
            self._queues.discard(queue)
            self.challenges.presence.closed(creator)
            on_close()

        return EventStream(self.stream(token, queue, heartbeat), closed)


def build_router(challenges: Challenges, hub: LiveHub, settings: LiveSettings,
                 render: Callable[..., Response]) -> APIRouter:
    """The routes of the module docstring."""
    router = APIRouter(dependencies=[Depends(_locale)])
    streams = LobbyStreams(hub, challenges)
    creations = RateLimiter(0.5, 20)
    changes = [Depends(_same_origin)]

    @router.get("/lobby", response_class=HTMLResponse, include_in_schema=False)
    async def lobby(request: Request) -> Response:
        data = {"strings": live_strings(), "white": _("White"), "black": _("Black"),
                "variants": {v.id: _(v.name) for v in VARIANTS.values()}}
        response = render(request, "lobby.html", {
            "title": _("Lobby"), "grace": round(settings.challenge_grace),
            "page_data": json.dumps(data, ensure_ascii=False).replace("</", "<\\/")})
        token, new = player_token(request)   # the page's stream says who is here
        if new:
            set_player_cookie(request, response, token)
        return response

    @router.get("/api/challenges", tags=["lobby"], summary="The open challenges")
    async def list_challenges(request: Request) -> JSONResponse:
        return JSONResponse(await challenges.open(current_player(request)))

    @router.post("/api/challenges", tags=["lobby"], status_code=201, dependencies=changes,
                 responses=ERRORS, summary="Open a challenge")
    async def create(body: ChallengeBody, request: Request) -> JSONResponse:
        client = client_address(request)
        creations.take(client, "new challenges")
        token, new = player_token(request)
        data = await challenges.create(
            variant=body.variant, optional_capture=body.optional_capture, losing=body.losing,
            breakthrough=body.breakthrough, clock=body.clock,
            side=body.side, name=body.name, token=token, client=client)
        response = JSONResponse(data, status_code=201,
                                headers={"Location": f"/api/challenges/{data['id']}"})
        if new:
            set_player_cookie(request, response, token)
        return response

    @router.post("/api/challenges/{challenge_id}/accept", tags=["lobby"],
                 dependencies=changes, responses=ERRORS,
                 summary="Accept a challenge (the first one wins; 409 for the others)")
    async def accept(challenge_id: str, request: Request,
                     body: Annotated[AcceptBody | None, Body()] = None) -> JSONResponse:
        token, new = player_token(request)
        game = await challenges.accept(challenge_id, token, body.name if body else None)
        response = JSONResponse(game)
        if new:
            set_player_cookie(request, response, token)
        return response

    @router.delete("/api/challenges/{challenge_id}", tags=["lobby"], status_code=204,
                   dependencies=changes, responses=ERRORS, summary="Cancel your challenge")
    async def cancel(challenge_id: str, request: Request) -> Response:
        await challenges.cancel(challenge_id, current_player(request))
        return Response(status_code=204)

    @router.get("/api/challenges/events", tags=["lobby"],
                summary="The lobby's changes as server-sent events")
    async def events(request: Request) -> Response:
        client = client_address(request)
        hub.admit(client)
        token, new = player_token(request)
        response = streams.open(token, settings.heartbeat, lambda: hub.release(client))
        if new:           # a client's first request: its challenges will be this token's
            set_player_cookie(request, response, token)
        return response

    return router
