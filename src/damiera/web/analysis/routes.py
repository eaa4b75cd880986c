"""The analysis board's routes: the ``/analysis`` page and its JSON/SSE API.

- ``GET /analysis?variant=&fen=&optional_capture=1`` or ``?game=ID``: the position editor and
  analysis board (a game opens with its moves as the main line, ready for review).
- ``moves`` (on ``position``, ``explain`` and ``move``): the line from ``fen`` to the position
  asked about, move texts separated by blanks (at most :data:`MAX_LINE`), so that the rules
  of a game's history apply as in a game (Frisian's king-move limit); a move of it that is
  not legal -> 400 ``{"error", "code": "bad_line"}``.
- ``GET /api/analysis/position?variant=&optional_capture=&fen=[&moves=]`` -> ``{"variant",
  "optional_capture", "fen" (canonical), "turn", "pieces" ({label: "white-man", ...}, what
  the board draws), "moves": [{"move", "from", "to", "path",
  "captures", "promotes", "crowned_at", "paths", "after" (FEN)}], "over": null |
  {"winner", "reason"}, "tired_king": the square of the king that may not make another quiet
  move now, or null}`` (each move as the play page's legal moves:
  :func:`damiera.web.serialization.moves_with_paths_json`); an
  impossible position -> 400 ``{"error": the rules core's reason, "code": "bad_fen"}``.
- ``GET /api/analysis/explain?variant=&optional_capture=&fen=&square=[&to=]``: why the piece
  on ``square`` cannot move (or cannot go to ``to``) in the rule's own terms -> ``{"square",
  "moves", "reason", "code"}`` (``reason`` null when it can).
- ``GET /api/analysis/move?variant=&optional_capture=&fen=&move=``: a typed move (full or
  short notation, at most :data:`damiera.rules.notation.MAX_MOVE_TEXT` characters) read in
  the position -> ``{"move": its full notation, as in the position's ``moves``}``; a text that
  names no legal move, or several -> 400 ``{"error": the rules core's reason in the page's
  language, "code"}``.
- ``GET /api/analysis/stream?variant=&optional_capture=&fen=&multipv=1-3``: server-sent
  events, one ``data:`` JSON per finished iteration (``{"depth", "nodes", "nps", "turn",
  "lines": [{"rank", "score" (centi-men, White's view), "win_in"/"loss_in" (plies, White's
  view, or null), "pv": [move text]}]}``), then ``event: done``. A newer stream from the
  same browser (address and player cookie) ends the older one; so does closing the
  connection. Searches are shared fairly among addresses: past ``Limits.analysis_per_client``
  streams of one address 429, past ``Limits.analysis_waiting`` waiting in all 503, both with
  ``Retry-After`` (:mod:`damiera.web.fair_share`).
- ``POST /api/analysis/reviews`` JSON ``{"variant", "optional_capture", "fen", "moves":
  [text]}`` or ``{"game_id"}`` -> 202 ``{"id"}`` (a same-site JSON request, as every change:
  :func:`damiera.web.seats.require_same_origin`; a newer review from the same browser
  cancels its unfinished older one; past ``Limits.reviews_per_client`` of one address 429,
  and 503 when other addresses' reviews fill the site's store:
  :mod:`damiera.web.analysis.reviews`); ``GET /api/analysis/reviews/{id}`` ->
  ``{"id", "status": "queued"|"running"|"done"|"failed", "done", "total", "moves", "error"}``;
  ``GET /api/analysis/reviews/{id}/pdn``: the annotated PDN.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, StreamingResponse
from pydantic import BaseModel, Field

from damiera.rules.custom import CustomRuleError
from damiera.rules.game import Game
from damiera.rules.geometry import geometry
from damiera.rules.movegen import apply_move, legal_moves
from damiera.rules.notation import (
    MAX_MOVE_TEXT as MAX_TYPED_MOVE,
)
from damiera.rules.notation import (
    NotationError,
    explain_illegal,
    move_labels,
    parse_move,
)
from damiera.rules.position import (
    MAX_FEN_TEXT,
    FenError,
    Position,
    parse_fen,
    start_position,
    write_fen,
)
from damiera.rules.variant import VARIANTS, UnknownVariantError, Variant, variant
from damiera.web import i18n
from damiera.web.analysis.reviews import Review, ReviewBook
from damiera.web.analysis.strings import js_strings
from damiera.web.analysis.workers import Message, WorkerPool
from damiera.web.api import PLAYER_COOKIE, error_response
from damiera.web.client_address import client_address
from damiera.web.custom.strings import reason
from damiera.web.fair_share import Ticket
from damiera.web.games import GameService
from damiera.web.limits import LimitExceeded
from damiera.web.pages import script_json
from damiera.web.seats import require_same_origin
from damiera.web.serialization import moves_with_paths_json, pieces_json, variant_json
from damiera.web.store import NotFoundError
from damiera.web.store_tables import MAX_VARIANT_ID

#: Longest FEN accepted: the rules core's own bound, as for games (a full International
#: board is about 330 characters).
MAX_FEN = MAX_FEN_TEXT
#: Longest game reviewed (plies) and longest move text.
MAX_MOVES = 600
MAX_MOVE_TEXT = 80
#: Longest ``moves`` query (the line from ``fen`` to the position asked about): plies and
#: characters. A rule that lives in the moves (Frisian's king-move limit) needs only the
#: last few; the board sends at most this many.
MAX_LINE = 200
MAX_LINE_TEXT = MAX_LINE * 12


class _Refused(Exception):
    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.code = code


def _variant(vid: str, optional_capture: bool) -> Variant:
    try:
        return variant(vid, optional_capture=optional_capture)
    except (UnknownVariantError, ValueError) as exc:
        raise _Refused(str(exc), "bad_variant") from None


def _position(v: Variant, fen: str | None) -> Position:
    if fen is None or not fen.strip():
        return start_position(v)
    if len(fen) > MAX_FEN:
        raise _Refused(f"a FEN has at most {MAX_FEN} characters", "bad_fen")
    try:
        return parse_fen(v, fen)
    except FenError as exc:
        raise _Refused(str(exc), "bad_fen") from None


def _line(v: Variant, fen: str | None, moves: str | None) -> Game:
    """The game of the line: ``fen``'s position (the start when None), then ``moves`` (move
    texts separated by blanks, at most :data:`MAX_LINE`) played, so that the rules of the
    game's history apply. Draw rules are not enforced (an analysis plays on)."""
    game = Game(v, _position(v, fen), enforce_draws=False)
    texts = (moves or "").split()
    if len(texts) > MAX_LINE:
        raise _Refused(f"a line has at most {MAX_LINE} moves, not {len(texts)}", "bad_line")
    for i, text in enumerate(texts):
        try:
            game.play(text[:MAX_MOVE_TEXT])
        except (NotationError, ValueError) as exc:
            raise _Refused(f"move {i + 1} of the line ({text[:MAX_MOVE_TEXT]}): {exc}",
                           "bad_line") from None
    return game


def position_json(v: Variant, pos: Position, game: Game | None = None) -> dict[str, Any]:
    """The ``/api/analysis/position`` answer (see the module docstring); whether the position
    is over is :meth:`Game.outcome`'s answer, the one place that decides. ``game``: the line
    that led to ``pos`` (its moves are those its history allows), else ``pos`` alone."""
    game = game or Game(v, pos)
    outcome = game.outcome()
    moves = [m.raw for m in game.legal_moves] if outcome is None else []
    over = None
    if outcome is not None and outcome.winner is not None:
        over = {"winner": outcome.winner.word, "reason": outcome.reason.value}
    return {
        "variant": v.id,
        "optional_capture": v.optional_capture,
        "fen": write_fen(v, pos),
        "turn": pos.turn.word,
        "pieces": pieces_json(v, pos),
        "moves": [{**item, "after": write_fen(v, apply_move(pos, m))}
                  for m, item in zip(moves, moves_with_paths_json(v, pos, moves), strict=True)],
        "over": over,
        "tired_king": game.tired_king(),
    }


def _white_view(msg: Message, turn: str) -> Message:
    sign = 1 if turn == "white" else -1
    lines = []
    for ln in msg["lines"]:
        win, loss = ln["win_in"], ln["loss_in"]
        if sign < 0:
            win, loss = loss, win
        lines.append({"rank": ln["rank"], "score": sign * ln["score"], "win_in": win,
                      "loss_in": loss, "pv": ln["pv"]})
    return {"depth": msg["depth"], "nodes": msg["nodes"], "nps": msg["nps"], "turn": turn,
            "lines": lines}


class ReviewBody(BaseModel):
    """A game to review: a stored game's ``game_id``, or a variant, start FEN and moves."""

    game_id: str | None = Field(default=None, max_length=64)
    variant: str | None = Field(default=None, max_length=MAX_VARIANT_ID)
    optional_capture: bool = False
    fen: str | None = Field(default=None, max_length=MAX_FEN)
    moves: list[str] = Field(default_factory=list, max_length=MAX_MOVES)


class AnalysisService:
    """The analysis board's state on the server: the worker pool, the running stream of each
    browser, the reviews. Searches are shared fairly among client addresses
    (:meth:`WorkerPool.ticket`); a browser (its address and player cookie) has one stream
    and one unfinished review at a time, a newer one ending its own older one, never
    another browser's."""

    def __init__(self, games: GameService, pool: WorkerPool, book: ReviewBook | None = None):
        self.games = games
        self.pool = pool
        self._streams: dict[str, tuple[asyncio.Event, Ticket]] = {}
        self.reviews = book or ReviewBook()

    @staticmethod
    def browser(request: Request, address: str) -> str:
        """The browser's key: its address with its player cookie (a cookie alone proves
        nothing: any client may send any value)."""
        token = request.cookies.get(PLAYER_COOKIE) or ""
        return f"{address} {token[:64]}"

    async def stream(self, request: Request, v: Variant, pos: Position,
                     multipv: int) -> AsyncGenerator[str, None]:
        """Server-sent events of one analysis (see the module docstring). The first item
        (a comment line) comes once the analysis has its place in the queue; before it,
        :class:`~damiera.web.limits.LimitExceeded` when the address has too many."""
        address = client_address(request)
        key = self.browser(request, address)
        old = self._streams.pop(key, None)
        if old is not None:          # this browser's older analysis ends (or leaves the queue)
            old[0].set()
            if not old[1].running:
                old[1].release()
        ticket = self.pool.ticket("analyse", address)
        stop = asyncio.Event()
        entry = (stop, ticket)
        self._streams[key] = entry
        turn = pos.turn.word
        job = {"kind": "analyse", "variant": v.full_id, "optional_capture": v.optional_capture,
               "fen": write_fen(v, pos), "multipv": multipv,
               "movetime": self.pool.analysis_movetime}
        try:
            yield ": analysis\n\n"
            async for msg in self.pool.run(job, stop, ticket):
                if msg["kind"] == "lines":
                    yield f"data: {json.dumps(_white_view(msg, turn))}\n\n"
                elif msg["kind"] == "error":
                    yield f"event: failed\ndata: {json.dumps({'error': msg['message']})}\n\n"
                elif msg["kind"] == "done":
                    yield "event: done\ndata: {}\n\n"
        finally:
            ticket.release()
            if self._streams.get(key) is entry:
                del self._streams[key]

    async def start_review(self, request: Request, v: Variant, start: Position,
                           moves: list[str], tags: dict[str, str], result: str) -> Review:
        """Check the moves and start a review in the background (one at a time per browser:
        a newer one replaces its unfinished older one). Raises :class:`_Refused` (a move
        that does not replay) and :class:`~damiera.web.limits.LimitExceeded` (429, 503)."""
        pos = start
        for i, text in enumerate(moves):
            if len(text) > MAX_MOVE_TEXT:
                raise _Refused(f"move {i + 1} is longer than {MAX_MOVE_TEXT} characters",
                               "bad_move")
            try:
                pos = apply_move(pos, parse_move(v, pos, text))
            except NotationError as exc:
                raise _Refused(f"move {i + 1} ({text[:20]}): {exc}", "bad_move") from None
        address = client_address(request)
        owner = self.browser(request, address)
        for old in self.reviews.unfinished(owner):
            if old.task is not None:
                old.task.cancel()
            if old.ticket is not None and not old.ticket.running:
                old.ticket.release()    # a task cancelled before it ran cleans up nothing
            self.reviews.finish(old)
            old.status, old.error = "failed", "replaced by a newer review"
        ticket = self.pool.ticket("review", address)
        review = Review(owner, address, len(moves) + 1)
        review.ticket = ticket
        try:
            self.reviews.add(review)
        except LimitExceeded:
            ticket.release()
            raise
        job = {"kind": "review", "variant": v.full_id, "optional_capture": v.optional_capture,
               "fen": write_fen(v, start), "moves": moves,
               "movetime": self.pool.review_movetime, "tags": tags, "result": result}
        review.task = asyncio.create_task(self._run_review(review, job, ticket))
        review.task.add_done_callback(lambda _t: self._ended(review))   # even if cancelled
        return review                                                  # before it ran

    def _ended(self, review: Review) -> None:
        """A review's task ended (done, failed or cancelled, even before it ran): its place
        is given back and its expiry starts."""
        if review.ticket is not None:
            review.ticket.release()
        self.reviews.finish(review)
        if review.status in ("queued", "running"):
            review.status, review.error = "failed", "cancelled"

    async def _run_review(self, review: Review, job: Message, ticket: Ticket) -> None:
        async for msg in self.pool.run(job, ticket=ticket):
            review.status = "running"
            if msg["kind"] == "progress":
                review.done, review.total = msg["done"], msg["total"]
            elif msg["kind"] == "review":
                review.moves, review.pdn = msg["moves"], msg["pdn"]
            elif msg["kind"] == "error":
                review.status, review.error = "failed", msg["message"]
            elif msg["kind"] == "done":
                review.status = "done"


async def _after(first: str, rest: AsyncGenerator[str, None]) -> AsyncIterator[str]:
    """``first``, then the items of ``rest`` (closed with this iterator)."""
    async with contextlib.aclosing(rest):
        yield first
        async for item in rest:
            yield item


async def _same_origin(request: Request) -> None:
    require_same_origin(request)


def _refused(exc: _Refused) -> JSONResponse:
    return error_response(400, str(exc), code=exc.code)


def build_router(games: GameService, pool: WorkerPool, render: Any,
                 book: ReviewBook | None = None) -> APIRouter:
    """The page and API routes; ``render(request, template, context)`` renders a page;
    ``book``: where reviews are kept (None: :class:`ReviewBook`'s defaults)."""
    service = AnalysisService(games, pool, book)
    router = APIRouter()
    variants_data = [variant_json(v) for v in VARIANTS.values()]

    def locale(request: Request) -> None:
        i18n.set_locale(i18n.choose_locale(
            request.query_params.get("lang"), request.cookies.get(i18n.COOKIE),
            request.headers.get("accept-language")))

    @router.get("/analysis", response_class=HTMLResponse, include_in_schema=False)
    async def page(
        request: Request,
        variant_id: str = Query("international", alias="variant", max_length=MAX_VARIANT_ID),
        fen: str | None = Query(None, max_length=MAX_FEN),
        optional_capture: bool = False,
        game: str | None = Query(None, max_length=64),
    ) -> HTMLResponse:
        locale(request)
        initial: dict[str, Any] = {"variant": variant_id, "optional_capture": optional_capture,
                                   "fen": fen, "moves": [], "game_id": None, "result": None}
        if game is not None:
            try:
                stored = await games.load(game)
            except NotFoundError:  # the start position, and why (not a silent fallback)
                stored = None
                initial["refused"] = i18n.gettext(
                    "There is no game with this address, so the board shows the start "
                    "position.")
            if stored is not None:
                g: Game = games.rebuild(stored)
                initial.update(
                    variant=g.variant.full_id, optional_capture=g.variant.optional_capture,
                    fen=write_fen(g.variant, g.start), moves=g.history(), game_id=stored.id,
                    result=g.result.pdn if g.result else None)
        try:
            rules = variant(initial["variant"])
        except ValueError as exc:  # an unknown or impossible id: the default board, and why
            why = reason(exc) if isinstance(exc, CustomRuleError) else str(exc)
            initial["refused"] = " ".join(filter(None, [initial.get("refused"), i18n.gettext(
                "This rule set cannot be read, so the board shows International draughts: "
                "{reason}").replace("{reason}", why[:300])]))
            rules, initial["variant"] = VARIANTS["international"], "international"
        shown = variants_data
        if rules.id not in VARIANTS:  # a custom rule set: its board and its name
            shown = [*variants_data, variant_json(rules)]
        data = {"variants": shown, "initial": initial, "strings": js_strings()}
        return render(request, "analysis.html",  # type: ignore[no-any-return]
                      {"title": i18n.gettext("Analysis board"), "max_fen": MAX_FEN,
                       "page_data": script_json(data)})

    @router.get("/api/analysis/position", tags=["analysis"],
                summary="A position's legal moves, or why it is impossible")
    async def position(
        request: Request,
        variant_id: str = Query(alias="variant", max_length=MAX_VARIANT_ID),
        optional_capture: bool = False,
        fen: str | None = Query(None, max_length=MAX_FEN),
        moves: str | None = Query(None, max_length=MAX_LINE_TEXT),
    ) -> JSONResponse:
        locale(request)
        try:
            v = _variant(variant_id, optional_capture)
            game = _line(v, fen, moves)
            return JSONResponse(position_json(v, game.position, game))
        except _Refused as exc:
            return _refused(exc)

    @router.get("/api/analysis/explain", tags=["analysis"],
                summary="Why a piece cannot move (or cannot go to a square)")
    async def explain(
        request: Request,
        square: str = Query(max_length=8),
        variant_id: str = Query(alias="variant", max_length=MAX_VARIANT_ID),
        optional_capture: bool = False,
        fen: str | None = Query(None, max_length=MAX_FEN),
        to: str | None = Query(None, max_length=8),
        moves: str | None = Query(None, max_length=MAX_LINE_TEXT),
    ) -> JSONResponse:
        locale(request)
        try:
            v = _variant(variant_id, optional_capture)
            game = _line(v, fen, moves)
        except _Refused as exc:
            return _refused(exc)
        pos = game.position
        geo = geometry(v)
        try:
            start = geo.square(square)
            end = geo.square(to) if to is not None else None
        except ValueError as exc:
            return error_response(400, str(exc)[:200], code="bad_square")
        legal = legal_moves(v, pos)
        mine = [m.raw for m in game.legal_moves if m.raw.start == start]
        if end is None:
            refusal = None if mine else game.explain_piece(start)
        else:
            fits = [m for m in mine if end in m.path[1:]]
            by_position = [m for m in legal if m.start == start and end in m.path[1:]]
            refusal = (None if fits else game.explain_piece(start) if by_position
                       else explain_illegal(v, pos, [start, end], legal))
        label = geo.label(start)
        if refusal is None:
            return JSONResponse({"square": label, "moves": [move_labels(v, m)["move"]
                                                            for m in mine],
                                 "reason": None, "code": None})
        return JSONResponse({
            "square": label, "moves": [],
            "reason": i18n.error_message(refusal.code, refusal.params, str(refusal)),
            "code": refusal.code,
        })

    @router.get("/api/analysis/move", tags=["analysis"],
                summary="A typed move read in a position: its full notation, or why not")
    async def read_move(
        request: Request,
        move: str = Query(max_length=MAX_TYPED_MOVE),
        variant_id: str = Query(alias="variant", max_length=MAX_VARIANT_ID),
        optional_capture: bool = False,
        fen: str | None = Query(None, max_length=MAX_FEN),
        moves: str | None = Query(None, max_length=MAX_LINE_TEXT),
    ) -> JSONResponse:
        locale(request)
        try:
            v = _variant(variant_id, optional_capture)
            game = _line(v, fen, moves)
        except _Refused as exc:
            return _refused(exc)
        try:
            found = parse_move(v, game.position, move)
            game.copy().play(found)  # the rules of the line's history (a rested king)
        except NotationError as exc:
            return error_response(400, i18n.error_message(exc.code, exc.params, str(exc)),
                                  code=exc.code)
        return JSONResponse({"move": move_labels(v, found)["move"]})

    @router.get("/api/analysis/stream", tags=["analysis"],
                summary="The engine's lines as it thinks (server-sent events)")
    async def stream(
        request: Request,
        variant_id: str = Query(alias="variant", max_length=MAX_VARIANT_ID),
        optional_capture: bool = False,
        fen: str | None = Query(None, max_length=MAX_FEN),
        multipv: int = Query(1, ge=1, le=3),
    ) -> Any:
        try:
            v = _variant(variant_id, optional_capture)
            pos = _position(v, fen)
        except _Refused as exc:
            return _refused(exc)
        events = service.stream(request, v, pos, multipv)
        first = await anext(events)     # LimitExceeded here: 429 or 503, not an event
        return StreamingResponse(
            _after(first, events), media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    @router.post("/api/analysis/reviews", tags=["analysis"], status_code=202,
                 summary="Review a game in the background",
                 dependencies=[Depends(_same_origin)])
    async def new_review(body: ReviewBody, request: Request) -> JSONResponse:
        tags: dict[str, str] = {}
        result = "*"
        try:
            if body.game_id is not None:
                try:
                    stored = await games.load(body.game_id)
                except NotFoundError:
                    return error_response(404, "there is no game with this id")
                g = games.rebuild(stored)
                v, start, moves = g.variant, g.start, g.history()
                result = g.result.pdn if g.result else "*"
                tags = {"Site": f"game {stored.id}"}
            else:
                if body.variant is None:
                    return error_response(400, "give a game_id, or a variant and its moves",
                                          code="bad_request")
                v = _variant(body.variant, body.optional_capture)
                start = _position(v, body.fen)
                moves = body.moves
            if not moves:
                return error_response(400, "the game has no move to review", code="no_moves")
            review = await service.start_review(request, v, start, moves, tags, result)
        except _Refused as exc:
            return _refused(exc)
        return JSONResponse(review.json(), status_code=202,
                            headers={"Location": f"/api/analysis/reviews/{review.id}"})

    @router.get("/api/analysis/reviews/{review_id}", tags=["analysis"],
                summary="A review's progress and, when done, its judged moves")
    async def get_review(review_id: str) -> JSONResponse:
        review = service.reviews.get(review_id)
        if review is None:
            return error_response(404, "there is no review with this id")
        return JSONResponse(review.json())

    @router.get("/api/analysis/reviews/{review_id}/pdn", tags=["analysis"],
                summary="The reviewed game as PDN with NAGs and comments",
                response_class=PlainTextResponse)
    async def review_pdn(review_id: str) -> Any:
        review = service.reviews.get(review_id)
        if review is None or review.status != "done":
            return error_response(404, "there is no finished review with this id")
        return PlainTextResponse(
            review.pdn, media_type="application/x-portable-draughts-notation; charset=utf-8",
            headers={"Content-Disposition":
                     f'attachment; filename="damiera-review-{review.id}.pdn"'})

    router.service = service  # type: ignore[attr-defined]
    return router
