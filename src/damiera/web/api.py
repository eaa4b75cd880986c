"""The JSON API (stable: the play page and other tools call it; OpenAPI page at ``/docs``).

Routes (squares are each variant's official labels; moves in its notation):

- ``GET /api/variants``: ``[{"id", "name", <rule parameters>, "first_to_move", "board":
  {"size", "squares": [{"label", "file", "rank"}]}, "start_fen", "start_pieces"}]`` in menu
  order.
- ``POST /api/games`` ``{"variant", "opponent": "computer"|"friend"|"online", "level": 1-3,
  "side": "white"|"black"|"random", "optional_capture": bool, "fen": str|null, "clock":
  "5+3"|null, "engine": str|null, "name": str|null}`` (``engine``: a Hub engine the site
  offers, playing as the computer; ``name``: your display name against a player online)
  (all but ``variant`` optional; ``clock``: minutes + seconds added per move, kept by the
  server, :mod:`damiera.web.clocks`) -> 201 and the game; a game ``online`` also carries
  ``invite_url``, the path whose first visitor takes the other seat
  (:mod:`damiera.web.live.routes` has that game's routes and its event stream).
- ``GET /api/games/{id}`` -> the game: ``{"id", "variant", "fen", "turn", "legal_moves":
  [{"move", "from", "to", "path", "captures", "promotes", "crowned_at", "paths"}],
  "history": [...], "history_moves": [<as legal_moves>], "move_numbers": ["1.", "1…", ...],
  "next_move_number", "pieces": {"22": "white-man", ...}, "boards": [the pieces after each
  ply, start first, one character a square in the variant's ``board.squares`` order: ``.``,
  ``w``, ``b``, ``W``, ``B``], "result": null | {"winner":
  "white"|"black"|null, "reason", "text"}, "result_sentence": null | str, ...}`` (``text``
  in English, ``result_sentence`` in the request's language) (see
  :meth:`damiera.web.games.GameService.to_json` for the extra fields).
- ``POST /api/games/{id}/moves`` ``{"move": "22-19"}`` (full or short notation; or
  ``{"path": ["22", "15", "6"]}``, the squares entered, which the server writes in the
  variant's notation; optional ``"version"``: refused with 409 when the game changed since)
  -> the game after the move and, against the computer, after its reply.
- ``POST /api/games/{id}/undo``, ``POST /api/games/{id}/resign`` (optional ``{"side"}``),
  ``POST /api/games/{id}/draw`` (agreed draw between friends); these three take an optional
  ``{"version"}`` too (409 when the game changed since), ``POST /api/games/{id}/reply``
  (the computer plays when its reply was interrupted; while a search for it runs, in any web
  process, it waits for that one), ``GET /api/games/{id}/pdn``
  (``text/plain`` attachment), ``GET /api/games/{id}/explain?square=22`` (why a piece cannot
  move), ``GET /api/games`` (the caller's recent games: created, or a seat held; those
  without a move left out: :func:`damiera.web.my_games.recent`),
  ``DELETE /api/games/{id}`` (one of the caller's games: it needs every seat the game has).

Errors are ``{"error": "what was wrong"}``: 400 bad input or an illegal move (then also
``"code"`` and ``"params"`` from the rules core), 403 the caller holds no seat that may do this
(or the request came from another site), 404 unknown game, 409 the game is over, it is not your
turn, or another request changed the game first, 413/414/431 a request too large, 415 a body
that is not JSON, 422 a malformed body, 429 too many requests from this client (with
``Retry-After``), 503 the computer is full (``Retry-After``) or the database failed.

Seats (:mod:`damiera.web.seats`): every game object carries ``seats``, the sides the caller's
browser holds; the routes that change a game need the right seat and a same-site JSON request.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, BeforeValidator, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from damiera.rules.notation import MAX_MOVE_TEXT
from damiera.rules.position import MAX_FEN_TEXT
from damiera.rules.variant import VARIANTS
from damiera.web import i18n
from damiera.web.client_address import client_address
from damiera.web.computer import CLIENT
from damiera.web.games import GameService
from damiera.web.limits import RateLimiter, until_disconnect
from damiera.web.my_games import recent as my_games_of
from damiera.web.new_game import MAX_START_MOVES, NewGame
from damiera.web.seats import require_same_origin
from damiera.web.security_headers import secure_cookie
from damiera.web.serialization import variant_json
from damiera.web.store_tables import MAX_VARIANT_ID

PLAYER_COOKIE = "damiera_player"


def _not_a_boolean(value: Any) -> Any:
    """``value`` unless it is ``true`` or ``false``, which the lax int check reads as 1 or 0."""
    if isinstance(value, bool):
        raise PydanticCustomError("int_type", "Input should be a valid integer, not a boolean")
    return value


#: A whole number in a JSON body (``true`` and ``false`` are refused, not read as 1 and 0).
JsonInt = Annotated[int, BeforeValidator(_not_a_boolean)]


class NewGameBody(BaseModel):
    """Options of a new game; everything but ``variant`` is optional."""

    variant: str = Field(examples=["italian", "international+losing"], max_length=MAX_VARIANT_ID,
                         description="a rule set's id, or its canonical id with options")
    opponent: Literal["computer", "friend", "online"] = Field(
        default="computer",
        description="'online': a player elsewhere takes the other side through the "
        "answer's invite_url",
    )
    level: Literal[1, 2, 3] = 1
    side: Literal["white", "black", "random"] | None = Field(
        default=None, description="your side (default: the side that moves first)"
    )
    name: str | None = Field(
        default=None, max_length=100,
        description="against a player online: your display name (at most 24 characters)",
    )
    optional_capture: bool = Field(default=False, description="house rule, 8x8 only")
    losing: bool = Field(default=False, description="the losing rule (Antidraughts)")
    breakthrough: bool = Field(default=False, description="breakthrough: the first king wins")
    fen: str | None = Field(default=None, description="start position (PDN FEN)",
                            max_length=MAX_FEN_TEXT)
    clock: str | None = Field(
        default=None, max_length=20, examples=["5+3"],
        description="time control 'minutes+seconds per move' (1-180, 0-60), or none",
    )
    engine: str | None = Field(
        default=None, max_length=32,
        description="against the computer: a Hub engine the site offers (damiera serve "
        "--hub-engine), instead of Damiera's own",
    )
    moves: list[str] = Field(
        default_factory=list, max_length=MAX_START_MOVES, examples=[["32-28", "19-23"]],
        description="moves already played from fen (or the start), in the variant's "
        f"notation (at most {MAX_MOVE_TEXT} characters each): the game continues after them",
    )

    @field_validator("level", mode="before")
    @classmethod
    def _level_is_not_a_boolean(cls, value: Any) -> Any:
        """``true`` is refused as a level (a bool passes the literal check as 1)."""
        if isinstance(value, bool):
            raise PydanticCustomError("literal_error", "Input should be 1, 2 or 3")
        return value


#: Bounds of a move given as squares (``path``): squares, characters of a square's label.
MAX_PATH_SQUARES = 40
MAX_LABEL = 4


class MoveBody(BaseModel):
    """A move in the variant's notation, or as the squares the player entered."""

    move: str = Field(examples=["22-19"], max_length=MAX_MOVE_TEXT)
    path: list[Annotated[str, Field(max_length=MAX_LABEL)]] | None = Field(
        default=None, max_length=MAX_PATH_SQUARES, examples=[["22", "15", "6"]],
        description="instead of move: the squares entered, start first (the server writes "
                    "them in the variant's notation)",
    )

    @model_validator(mode="before")
    @classmethod
    def _path_stands_for_move(cls, data: Any) -> Any:
        """A body with ``path`` and no ``move`` is complete (the text is written from the
        path); without either, ``move`` is the missing field."""
        if isinstance(data, dict) and "move" not in data and data.get("path") is not None:
            return {**data, "move": ""}
        return data
    version: JsonInt | None = Field(
        default=None,
        description="the game's version the move was chosen on (409 if it changed since)",
    )


class ReplyBody(BaseModel):
    """The game's version at which the page saw the computer to move (optional)."""

    version: JsonInt | None = Field(
        default=None,
        description="the game's version the page saw (if the game has moved on since and the "
                    "computer's reply is stored, the game is answered as it is, not 409)",
    )


class VersionBody(BaseModel):
    """The game's version the page knows (optional): refused with 409 if it changed since."""

    version: JsonInt | None = Field(
        default=None,
        description="the game's version the request was made on (409 if it changed since)",
    )


class ResignBody(VersionBody):
    """Who resigns (default: you against the computer; the side to move between friends)."""

    side: Literal["white", "black"] | None = None


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"description": "Bad input or illegal move: {\"error\": ...}"},
    403: {"description": "Not a player of this game, or a request from another site"},
    404: {"description": "Unknown game: {\"error\": ...}"},
    409: {"description": "Game over, not your turn, or changed meanwhile: {\"error\": ...}"},
}


def player_token(request: Request) -> tuple[str, bool]:
    """The browser's opaque player token (cookie) and whether it is new."""
    token = current_player(request)
    if token is None:
        return secrets.token_urlsafe(16), True
    return token, False


def current_player(request: Request) -> str | None:
    """The caller's player token (the seat secret), or None."""
    token = request.cookies.get(PLAYER_COOKIE)
    return token if token and len(token) <= 64 else None


def set_player_cookie(request: Request, response: Response, token: str) -> None:
    """Give the browser its player token: HttpOnly, SameSite=Lax, Secure over HTTPS."""
    response.set_cookie(
        PLAYER_COOKIE, token, max_age=10 * 365 * 24 * 3600, httponly=True, samesite="lax",
        secure=secure_cookie(request),
    )


async def _same_origin(request: Request) -> None:
    """Every state-changing route: same-site requests only, JSON bodies only; the computer's
    searches count against this client."""
    require_same_origin(request)
    CLIENT.set(client_address(request))


async def _locale(request: Request) -> None:
    """Make the request's language current (``?lang=``, cookie, Accept-Language); async so
    that it runs in the route's own context."""
    i18n.set_locale(
        i18n.choose_locale(
            request.query_params.get("lang"),
            request.cookies.get(i18n.COOKIE),
            request.headers.get("accept-language"),
        )
    )


def build_router(service: GameService, creations: RateLimiter | None = None) -> APIRouter:
    """The API routes, bound to ``service``; ``creations`` limits new games per client."""
    # Every route answers in the request's language (``?lang=``, cookie, Accept-Language).
    router = APIRouter(prefix="/api", tags=["api"], dependencies=[Depends(_locale)])
    variants_data = [variant_json(v) for v in VARIANTS.values()]

    @router.get("/variants", summary="Every variant with its rule parameters and board")
    async def list_variants() -> JSONResponse:
        return JSONResponse(variants_data)

    changes = [Depends(_same_origin)]

    @router.post("/games", status_code=201, summary="Start a game", responses=ERRORS,
                 dependencies=changes)
    async def create_game(body: NewGameBody, request: Request) -> JSONResponse:
        if creations is not None:
            creations.take(client_address(request), "new games")
        owner, new = player_token(request)
        options = NewGame(**{**body.model_dump(), "moves": tuple(body.moves)})
        game = await until_disconnect(request, service.create(options, owner))
        response = JSONResponse(
            game, status_code=201, headers={"Location": f"/api/games/{game['id']}"}
        )
        if new:
            set_player_cookie(request, response, owner)
        return response

    @router.get("/games", summary="Your recent games (by browser cookie)")
    async def my_games(request: Request) -> list[dict[str, Any]]:
        rows = await asyncio.to_thread(
            my_games_of, service, request.cookies.get(PLAYER_COOKIE), 50
        )
        for r in rows:
            r["updated_at"] = r["updated_at"].isoformat()
            r["created_at"] = r["created_at"].isoformat()
        return rows

    @router.delete(
        "/games/{game_id}", status_code=204,
        summary="Delete one of your games (its seats' holder only)", responses=ERRORS,
        dependencies=changes,
    )
    async def delete_game(game_id: str, request: Request) -> Response:
        await service.delete(game_id, current_player(request))
        return Response(status_code=204)

    @router.get("/games/{game_id}", summary="A game", responses=ERRORS)
    async def get_game(game_id: str, request: Request) -> JSONResponse:
        return JSONResponse(await service.get(game_id, current_player(request)))

    @router.post("/games/{game_id}/moves", summary="Play a move", responses=ERRORS,
                 dependencies=changes)
    async def play_move(game_id: str, body: MoveBody, request: Request) -> JSONResponse:
        path = body.path if not body.move else None
        return JSONResponse(await until_disconnect(request, service.play(
            game_id, body.move, body.version, player=current_player(request), path=path)))

    @router.post(
        "/games/{game_id}/reply",
        summary="The computer plays if it is its turn (after an interrupted reply)",
        responses=ERRORS, dependencies=changes,
    )
    async def reply(
        game_id: str, request: Request, body: Annotated[ReplyBody | None, Body()] = None
    ) -> JSONResponse:
        return JSONResponse(await until_disconnect(request, service.reply(
            game_id, body.version if body else None, player=current_player(request))))

    @router.post("/games/{game_id}/undo", summary="Take back a move", responses=ERRORS,
                 dependencies=changes)
    async def undo(
        game_id: str, request: Request, body: Annotated[VersionBody | None, Body()] = None
    ) -> JSONResponse:
        return JSONResponse(await service.undo(
            game_id, body.version if body else None, player=current_player(request)))

    @router.post("/games/{game_id}/resign", summary="Resign", responses=ERRORS,
                 dependencies=changes)
    async def resign(
        game_id: str, request: Request, body: Annotated[ResignBody | None, Body()] = None
    ) -> JSONResponse:
        return JSONResponse(
            await service.resign(
                game_id, body.side if body else None, body.version if body else None,
                player=current_player(request),
            )
        )

    @router.post(
        "/games/{game_id}/draw", summary="Agreed draw (two people)", responses=ERRORS,
        dependencies=changes,
    )
    async def draw(
        game_id: str, request: Request, body: Annotated[VersionBody | None, Body()] = None
    ) -> JSONResponse:
        return JSONResponse(await service.agree_draw(
            game_id, body.version if body else None, player=current_player(request)))

    @router.get(
        "/games/{game_id}/explain",
        summary="Why the piece on a square can or cannot move",
        responses=ERRORS,
    )
    async def explain(
        game_id: str, request: Request,
        square: str = Query(examples=["22"], max_length=8),
    ) -> JSONResponse:
        return JSONResponse(await service.explain(game_id, square))

    @router.get(
        "/games/{game_id}/pdn",
        summary="The game as PDN",
        response_class=PlainTextResponse,
        responses=ERRORS,
    )
    async def pdn(game_id: str) -> PlainTextResponse:
        text = await service.pdn(game_id)
        return PlainTextResponse(
            text,
            media_type="application/x-portable-draughts-notation; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="damiera-{game_id}.pdn"'},
        )

    return router


def error_response(status: int, message: str, headers: dict[str, str] | None = None,
                   **extra: Any) -> JSONResponse:
    """``{"error": message, ...}`` with a status code (a message is at most 500 characters,
    each string in ``params`` at most 60: an error never echoes a huge input back in full)."""
    if len(message) > 500:
        message = message[:499] + "…"
    params = extra.get("params")
    if isinstance(params, dict):
        extra["params"] = {k: v if not isinstance(v, str) or len(v) <= 60 else v[:59] + "…"
                           for k, v in params.items()}
    return JSONResponse({"error": message, **extra}, status_code=status, headers=headers)
