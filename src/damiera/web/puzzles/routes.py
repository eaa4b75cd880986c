"""The puzzles' pages and API.

Pages: ``GET /puzzles?variant=&optional_capture=`` (the next puzzle near your rating),
``GET /puzzles/daily?variant=`` (today's puzzle), ``GET /puzzles/{id}`` (one puzzle: its
share address).

API (errors ``{"error": ...}`` with a 4xx status; 429 with ``Retry-After`` past the client
address's share of trainer and puzzle requests, :attr:`damiera.web.limits.Limits.learn_rate`):

- ``GET /api/puzzles/next?variant=&optional_capture=`` -> ``{"puzzle": ... | null,
  "player": {"rating", "deviation", "attempts"}}`` (the puzzle as
  :func:`damiera.web.puzzles.service.puzzle_json`);
- ``GET /api/puzzles/daily?variant=&optional_capture=`` and ``GET /api/puzzles/{id}`` ->
  the same shape;
- ``POST /api/puzzles/{id}/moves`` JSON ``{"moves": [your moves so far, in notation]}`` ->
  :func:`damiera.web.puzzles.service.check_json` plus ``"rated"``, ``"player"`` (after)
  and ``"change"`` (rating points) once the puzzle is solved or failed, and
  ``"puzzle_rating"``. The first attempt of a browser (its ``damiera_player`` cookie, set
  here when missing) at a puzzle moves its rating and the puzzle's.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, Field

from damiera.puzzles import library
from damiera.puzzles.model import Puzzle
from damiera.rules.variant import VARIANTS
from damiera.web import i18n
from damiera.web.api import current_player, player_token, set_player_cookie
from damiera.web.errors import rule_set
from damiera.web.limits import RateLimiter, per_client
from damiera.web.pages import render, request_locale, script_json
from damiera.web.puzzles.ratings import NEW_PLAYER, RatingStore
from damiera.web.puzzles.service import (
    MAX_MOVE_TEXT,
    MAX_MOVES,
    PuzzleService,
    check_json,
    check_moves,
    daily,
    key_variant,
    puzzle_json,
)
from damiera.web.puzzles.strings import js_strings, theme_names
from damiera.web.seats import owner_key, require_same_origin, seat_key
from damiera.web.serialization import variant_json
from damiera.web.store import GameStore, NotFoundError
from damiera.web.store_tables import MAX_VARIANT_ID

_ = i18n.gettext


class MovesBody(BaseModel):
    """The solver's moves so far, in the rule set's notation."""

    moves: list[Annotated[str, Field(max_length=MAX_MOVE_TEXT)]] = Field(
        min_length=1, max_length=MAX_MOVES)


def _player(request: Request) -> str | None:
    """The caller's player key as the store keeps it (the hash of its token), or None."""
    return owner_key(current_player(request))


def _page_choice(variant_id: str = Query("international", alias="variant",
                                         max_length=MAX_VARIANT_ID),
                 optional_capture: bool = False) -> dict[str, Any]:
    """The rule set a puzzles page's address asks for (an unknown one: International)."""
    return {"variant": variant_id if variant_id in VARIANTS else "international",
            "optional_capture": optional_capture}


PageChoice = Annotated[dict[str, Any], Depends(_page_choice)]


def build_router(store: GameStore, requests: RateLimiter) -> APIRouter:
    """The puzzles' routes on the site's store (ratings are kept there); every API request
    spends a token of ``requests`` for its client address (429 when none is left)."""
    ratings = RatingStore(store)
    service = PuzzleService(ratings)
    router = APIRouter()
    limited = [Depends(per_client(requests, "trainer and puzzle requests"))]

    def found(puzzle_id: str) -> Puzzle:
        puzzle = library.find(puzzle_id)
        if puzzle is None:
            raise NotFoundError(f"there is no puzzle {puzzle_id[:32]!r}")
        return puzzle

    def answer(request: Request, puzzle: Puzzle | None) -> dict[str, Any]:
        player = _player(request)
        out: dict[str, Any] = {"puzzle": None, "player": NEW_PLAYER.json()}
        if puzzle is not None:
            rating = ratings.puzzle(puzzle.id, puzzle.rating)
            out["puzzle"] = puzzle_json(puzzle, rating, theme_names())
            if player:
                out["player"] = ratings.player(player, puzzle.variant).json()
        return out

    def page(request: Request, initial: dict[str, Any], title: str) -> HTMLResponse:
        # the caller made the request's language current: its ``title`` is translated first
        data = {"variants": [variant_json(v) for v in VARIANTS.values()
                             if library.shipped(library.variant_key(v))],
                "initial": initial, "strings": js_strings()}
        return render(request, "puzzles.html", {"title": title, "page_data": script_json(data),
                                                "chosen": initial.get("variant")})

    @router.get("/puzzles", response_class=HTMLResponse, include_in_schema=False)
    async def next_page(request: Request, chosen: PageChoice) -> HTMLResponse:
        request_locale(request)
        return page(request, {"mode": "next", **chosen}, _("Puzzles"))

    @router.get("/puzzles/daily", response_class=HTMLResponse, include_in_schema=False)
    async def daily_page(request: Request, chosen: PageChoice) -> HTMLResponse:
        request_locale(request)
        return page(request, {"mode": "daily", **chosen}, _("Puzzle of the day"))

    @router.get("/puzzles/{puzzle_id}", response_class=HTMLResponse, include_in_schema=False)
    async def one_page(request: Request, puzzle_id: str) -> HTMLResponse:
        request_locale(request)
        puzzle = library.find(puzzle_id)
        if puzzle is None:
            return render(request, "error.html",
                          {"status": 404, "message": _("There is no puzzle with this address.")},
                          status_code=404)
        v = key_variant(puzzle.variant)
        return page(request, {"mode": "one", "id": puzzle.id, "variant": v.id,
                              "optional_capture": v.optional_capture}, _("Puzzles"))

    @router.get("/api/puzzles/next", tags=["puzzles"],
                summary="The next puzzle near your rating", dependencies=limited)
    async def next_puzzle(request: Request,
                          variant_id: str = Query(alias="variant", max_length=MAX_VARIANT_ID),
                          optional_capture: bool = False) -> JSONResponse:
        request_locale(request)
        v = rule_set(variant_id, optional_capture)
        puzzle = await asyncio.to_thread(service.next_for, _player(request), v)
        return JSONResponse(await asyncio.to_thread(answer, request, puzzle))

    @router.get("/api/puzzles/daily", tags=["puzzles"], summary="Today's puzzle", dependencies=limited)
    async def daily_puzzle(request: Request,
                           variant_id: str = Query(alias="variant", max_length=MAX_VARIANT_ID),
                           optional_capture: bool = False) -> JSONResponse:
        request_locale(request)
        v = rule_set(variant_id, optional_capture)
        puzzle = daily(v, dt.datetime.now(dt.UTC).date())
        return JSONResponse(await asyncio.to_thread(answer, request, puzzle))

    @router.get("/api/puzzles/{puzzle_id}", tags=["puzzles"], summary="One puzzle", dependencies=limited)
    async def one_puzzle(request: Request, puzzle_id: str) -> JSONResponse:
        request_locale(request)
        puzzle = found(puzzle_id)
        return JSONResponse(await asyncio.to_thread(answer, request, puzzle))

    @router.post("/api/puzzles/{puzzle_id}/moves", tags=["puzzles"],
                 summary="Check your moves; the first attempt moves the ratings",
                 dependencies=limited)
    async def moves(request: Request, puzzle_id: str, body: MovesBody) -> JSONResponse:
        require_same_origin(request)
        request_locale(request)
        puzzle = found(puzzle_id)
        check = check_moves(puzzle, body.moves)
        out = check_json(puzzle, check)
        token, new = player_token(request)
        if check.status != "continue":
            attempt = await asyncio.to_thread(ratings.record, seat_key(token), puzzle.variant,
                                              puzzle.id, puzzle.rating,
                                              check.status == "solved")
            out["rated"] = attempt.rated
            out["player"] = attempt.player_after.json()
            out["change"] = round(attempt.player_after.rating - attempt.player_before.rating)
            out["puzzle_rating"] = round(attempt.puzzle_after.rating)
        response = JSONResponse(out)
        if new:
            set_player_cookie(request, response, token)
        return response

    return router
