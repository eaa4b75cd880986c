"""The Damiera web site: the FastAPI application (pages, static files, the JSON API).

:func:`create_app` builds it; ``damiera serve`` (:mod:`damiera.cli.web`) and ``make serve`` run
it with Uvicorn. Pages (Jinja2 templates, every string through Babel):

- ``/``: the play page with the new-game menu open;
- ``/game/{id}``: a game (reloading continues it);
- ``/games``: "my games", this browser's recent games;
- ``/join/{secret}``: an invitation to a game online, ``/lobby``: open challenges
  (:mod:`damiera.web.live`, :mod:`damiera.web.lobby`);
- ``/lang/{code}?next=/path``: choose the language (cookie) and go back;
- ``/docs``: the API's documentation (Swagger UI from the package's own files).

A HEAD request for a page is answered as GET without the body
(:class:`~damiera.web.head_requests.HeadAsGet`). Every request passes
:class:`~damiera.web.limits.RequestLimits` (sizes, body timeout) and,
given a list of host names, :class:`~damiera.web.security_headers.AllowedHosts`; every
response gets :class:`~damiera.web.security_headers.SecurityHeaders`; the limits of
:class:`~damiera.web.limits.Limits` apply (``create_app(limits=...)``).

Templates that other packages reuse (the rules pages) extend ``base.html`` (``<html lang
dir>``, the ☰ menu with new game, rules and languages) and draw boards with
``/static/board.js``; :func:`damiera.web.pages.render` renders any template in the
request's language.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from damiera.rules.variant import VARIANTS, variant
from damiera.web import i18n
from damiera.web.analysis.reviews import ReviewBook
from damiera.web.analysis.routes import build_router as analysis_router
from damiera.web.analysis.workers import WorkerPool
from damiera.web.api import PLAYER_COOKIE, build_router, current_player, error_response
from damiera.web.board_strings import board_strings
from damiera.web.computer import ComputerPool
from damiera.web.computer_jobs import ENVIRONMENT as REDIS_ENVIRONMENT
from damiera.web.computer_queue import QueueFailed
from damiera.web.custom.routes import build_router as custom_router
from damiera.web.error_pages import failure_page, refused_page, wants_page, wants_page_answer
from damiera.web.errors import BadRequest, Conflict, IllegalMove
from damiera.web.games import GameService
from damiera.web.head_requests import HeadAsGet
from damiera.web.housekeeping import clean_up_forever
from damiera.web.hub_engines import (
    DEFAULT_MOVETIME,
    EngineFailed,
    HubEngine,
    HubPlayers,
)
from damiera.web.limits import ClientGone, LimitExceeded, Limits, RateLimiter, RequestLimits
from damiera.web.live.bus import make_bus
from damiera.web.live.hub import LiveHub, LiveSettings
from damiera.web.live.offers import OnlineActions
from damiera.web.live.routes import build_router as live_router
from damiera.web.live.strings import live_strings
from damiera.web.lobby.challenges import Challenges
from damiera.web.lobby.routes import build_router as lobby_router
from damiera.web.my_games import recent as my_games_of
from damiera.web.pages import render, request_locale, script_json
from damiera.web.pdn_import import build_router as pdn_import_router
from damiera.web.puzzles.routes import build_router as puzzles_router
from damiera.web.rules_pages.routes import build_router as rules_pages_router
from damiera.web.rules_pages.routes import localise_path
from damiera.web.seats import Forbidden, UnsupportedBody
from damiera.web.security_headers import (
    AllowedHosts,
    SecurityHeaders,
    docs_router,
    safe_local_path,
    secure_cookie,
)
from damiera.web.serialization import variant_json
from damiera.web.store import GameStore, NotFoundError, StorageError
from damiera.web.train.routes import build_router as train_router

HERE = Path(__file__).parent
_ = i18n.gettext


def js_strings() -> dict[str, str]:
    """Every string the page's JavaScript shows, in the current language. Placeholders in
    braces (``{square}``) are filled in by the script."""
    return {
        **board_strings(),
        "white_to_move": _("White to move"),
        "black_to_move": _("Black to move"),
        "your_move": _("Your move"),
        "thinking": _("The computer is thinking…"),
        "computer": _("Computer"),
        "you": _("You"),
        "selected": _("{piece} on {square} selected; choose where it goes"),
        "showing_move": _("Showing move {n} {move}"),
        "announce_move": _("{side} played {move}"),
        "sound_on": _("Sound on"),
        "sound_off": _("Sound off"),
        "clock_of": _("{side}'s clock"),
        "start_position": _("Start position"),
        "draw_offer": _("{side} offers a draw. {other}, do you accept?"),
        "resign_confirm": _("Resign this game?"),
        "counter": _("Moves without capture or promotion: {n} of {max}"),
        "error": _("Something went wrong: {message}"),
        "game_over": _("Game over"),
        "level": _("Computer level {n}"),
        "friend": _("Friend on the same screen"),
        "example": _("e.g. {move}"),
        "aria_start": _("selected"),
        "aria_target": _("a square it can go to"),
        "aria_captured": _("captured in this move"),
        "aria_movable": _("can move"),
    }


def validation_message(errors: Any) -> str:
    """A 422's message naming each missing or malformed field: ``move: Field required``,
    ``square (query parameter): Field required``, ``request body: not valid JSON (...)``."""
    parts = []
    for err in errors:
        loc = [str(p) for p in err.get("loc", ())]
        kind, rest = (loc[0], loc[1:]) if loc else ("", [])
        msg = str(err.get("msg", "invalid"))
        if err.get("type") == "json_invalid":
            detail = (err.get("ctx") or {}).get("error", "")
            at = f" at character {rest[0]}" if rest else ""
            parts.append(f"request body: not valid JSON{at}" + (f" ({detail})" if detail else ""))
        elif kind == "body":
            where = ".".join(rest)
            if not where and err.get("type") == "missing":
                parts.append("request body: missing; send a JSON object")
            else:
                parts.append(f"{where or 'request body'}: {msg}")
        elif kind in ("query", "path", "header", "cookie"):
            parts.append(f"{'.'.join(rest)} ({kind} parameter): {msg}")
        else:
            parts.append(f"{'.'.join(loc)}: {msg}" if loc else msg)
    return "; ".join(parts) or "malformed request"


def create_app(
    database_url: str | None = None,
    computer_workers: int | None = None,
    computer_movetime: float | None = None,
    limits: Limits | None = None,
    hub_engines: Sequence[HubEngine] = (),
    hub_movetime: float | None = None,
    redis_url: str | None = None,
    live: LiveSettings | None = None,
    allowed_hosts: Sequence[str] | None = None,
) -> FastAPI:
    """The site. ``database_url``: any SQLAlchemy URL (None: ``DAMIERA_DATABASE_URL`` or the
    SQLite file in the user's data directory); ``computer_workers``: processes for the
    computer's searches; ``computer_movetime``: cap in seconds on each search (None: each
    level's own time); ``limits``: the site's bounds (None: :class:`Limits`' defaults);
    ``hub_engines``: Hub engines offered as opponents (:mod:`damiera.web.hub_engines`), each
    given ``hub_movetime`` seconds a move (None: its default; ``computer_movetime`` caps it);
    ``redis_url``: the job queue on which ``damiera worker`` processes search the computer's
    moves (:mod:`damiera.web.computer_queue`; None: ``DAMIERA_REDIS_URL``, and without it
    ``computer_workers`` processes of this server search them; the live boards' events
    travel on its pub/sub too: :mod:`damiera.web.live.bus`); ``live``: the bounds and delays
    of the live boards and the lobby (None: :class:`LiveSettings`' defaults);
    ``allowed_hosts``: the host names the site answers to
    (:class:`~damiera.web.security_headers.AllowedHosts`; None: any, as under a test client;
    ``damiera serve`` always gives a list)."""
    limits = limits or Limits()
    hub = HubPlayers(hub_engines, hub_movetime or DEFAULT_MOVETIME)
    redis_url = redis_url or os.environ.get(REDIS_ENVIRONMENT) or None
    computer: ComputerPool
    if redis_url:
        from damiera.web.computer_queue import QueueComputer

        computer = QueueComputer(redis_url, computer_movetime, limits.computer_per_client,
                                 limits.computer_total or 64, hub)
    else:
        computer = ComputerPool(computer_workers, computer_movetime,
                                limits.computer_per_client, limits.computer_total, hub)
    store = GameStore(database_url)     # after the queue's URL is checked: none made for nothing
    service = GameService(store, computer)
    live = live or LiveSettings()
    boards = LiveHub(service, make_bus(store.url, redis_url), live)
    online = OnlineActions(service, boards.presence, live.claim_after, live.stale_after)
    challenges = Challenges(service, boards, live)
    analysis_pool = WorkerPool(analysis_slots=computer_workers or min(4, os.cpu_count() or 1),
                               analysis_per_client=limits.analysis_per_client,
                               analysis_waiting=limits.analysis_waiting,
                               review_per_client=limits.reviews_per_client,
                               review_waiting=limits.reviews_kept)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        computer.warm()
        await boards.start()
        analysis_pool.open()
        cleaner = None
        if limits.game_ttl is not None:
            cleaner = asyncio.create_task(
                clean_up_forever(store, limits.game_ttl, limits.cleanup_interval))
        try:
            yield
        finally:
            await boards.close()
            analysis_pool.close()
            if cleaner is not None:
                cleaner.cancel()
            computer.close()
            store.close()

    app = FastAPI(
        title="Damiera",
        summary="Multi-variant draughts: play against the computer or a friend",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.state.service = service
    app.state.limits = limits
    app.state.hub_engines = list(hub_engines)
    app.add_middleware(HeadAsGet)   # innermost: the others see the HEAD as it came
    app.add_middleware(RequestLimits, limits=limits)
    if allowed_hosts is not None:
        app.add_middleware(AllowedHosts, hosts=allowed_hosts)
    app.add_middleware(SecurityHeaders)
    app.include_router(build_router(
        service, RateLimiter(limits.create_rate, limits.create_burst)))
    app.include_router(docs_router(app))
    app.state.analysis_pool = analysis_pool
    app.include_router(rules_pages_router())
    app.include_router(custom_router())
    app.include_router(analysis_router(service, analysis_pool, render, ReviewBook(
        limits.reviews_per_client, limits.reviews_kept)))
    app.include_router(pdn_import_router(service, limits, render))
    app.state.live = boards
    app.include_router(live_router(service, boards, online, render))
    app.include_router(lobby_router(challenges, boards, live, render))
    learning = RateLimiter(limits.learn_rate, limits.learn_burst)   # trainer and puzzles
    app.include_router(train_router(learning))
    app.include_router(puzzles_router(store, learning))
    for folder in sorted(HERE.glob("*/static")):   # a feature folder's own files
        app.mount(f"/static/{folder.parent.name}", StaticFiles(directory=str(folder)),
                  name=f"static-{folder.parent.name}")
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    def refusal(request: Request, status: int, message: str) -> Response:
        """A page's address refused: the error page with the reason; an API call: JSON."""
        if wants_page_answer(request):
            return refused_page(request, status, message)
        return error_response(status, message)

    @app.exception_handler(NotFoundError)
    async def _not_found(request: Request, exc: NotFoundError) -> Response:
        return refusal(request, 404, str(exc.args[0]) if exc.args else "not found")

    @app.exception_handler(BadRequest)
    async def _bad(request: Request, exc: BadRequest) -> Response:
        return refusal(request, 400, str(exc))

    @app.exception_handler(IllegalMove)
    async def _illegal(_r: Request, exc: IllegalMove) -> Response:
        return error_response(400, exc.message, code=exc.code, params=exc.params)

    @app.exception_handler(Conflict)
    async def _conflict(_r: Request, exc: Conflict) -> Response:
        return error_response(409, str(exc))

    @app.exception_handler(Forbidden)
    async def _forbidden(_r: Request, exc: Forbidden) -> Response:
        return error_response(403, str(exc))

    @app.exception_handler(UnsupportedBody)
    async def _not_json(_r: Request, exc: UnsupportedBody) -> Response:
        return error_response(415, str(exc))

    @app.exception_handler(LimitExceeded)
    async def _limited(_r: Request, exc: LimitExceeded) -> Response:
        return error_response(exc.status, exc.message, headers=exc.headers())

    @app.exception_handler(QueueFailed)
    async def _queue_failed(_r: Request, exc: QueueFailed) -> Response:
        return error_response(503, str(exc))

    @app.exception_handler(EngineFailed)
    async def _engine_failed(_r: Request, exc: EngineFailed) -> Response:
        return error_response(503, str(exc))

    @app.exception_handler(ClientGone)
    async def _gone(_r: Request, exc: ClientGone) -> Response:
        return error_response(499, str(exc))   # nobody reads it: the connection is closed

    @app.exception_handler(StorageError)
    async def _storage(request: Request, exc: StorageError) -> Response:
        logging.getLogger("damiera.web").warning("storage failed on %s: %s",
                                                 request.url.path, exc.why)
        if wants_page(request):
            return failure_page(request, 503)
        return error_response(503, str(exc), move_stored=exc.move_stored)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        return refusal(request, 422, validation_message(exc.errors()))

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> Response:
        logging.getLogger("damiera.web").exception("unexpected error on %s", request.url.path)
        if wants_page(request):
            return failure_page(request, 500)
        return error_response(500, "internal error: the request was not carried out; try again")

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        if request.url.path.startswith("/api/"):
            message = exc.detail if isinstance(exc.detail, str) else "request refused"
            if exc.status_code == 404 and message == "Not Found":
                message = f"no such API route: {request.method} {request.url.path}"
            return error_response(exc.status_code, message)
        request_locale(request)         # the message below in the page's language
        return render(
            request,
            "error.html",
            {"status": exc.status_code, "message": _("This page does not exist.")
             if exc.status_code == 404 else str(exc.detail)},
            status_code=exc.status_code,
        )

    def play_page(request: Request, game: dict[str, Any] | None) -> HTMLResponse:
        request_locale(request)
        variants = list(VARIANTS.values())
        rules = None if game is None else variant(game["full_id"])
        if rules is not None and rules.id not in VARIANTS:
            variants.append(rules)  # a custom rule set: its board and its name
        data = {
            "variants": [variant_json(v) for v in variants],
            "game": game,
            "strings": {**js_strings(), **live_strings()},
        }
        title = _("Play draughts")
        if game is not None and rules is not None:
            title = _(rules.name)
            options = [word for key, word in (("optional_capture", _("captures optional")),
                                              ("losing", _("losing rule")),
                                              ("breakthrough", _("breakthrough")))
                       if game.get(key)]
            if options:
                title = f"{title} ({', '.join(options)})"
        return render(
            request,
            "play.html",
            {"game": game, "title": title, "page_data": script_json(data),
             "variants": variants},
        )

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def home(request: Request) -> HTMLResponse:
        return play_page(request, None)

    @app.get("/game/{game_id}", response_class=HTMLResponse, include_in_schema=False)
    async def game_page(request: Request, game_id: str) -> HTMLResponse:
        try:
            game = await service.get(game_id, current_player(request))
        except NotFoundError:
            request_locale(request)     # the message below in the page's language
            return render(
                request,
                "error.html",
                {"status": 404, "message": _("There is no game with this address.")},
                status_code=404,
            )
        return play_page(request, game)

    @app.get("/games", response_class=HTMLResponse, include_in_schema=False)
    async def my_games(request: Request) -> HTMLResponse:
        request_locale(request)     # the result texts in the page's language (the thread
        rows = await asyncio.to_thread(   # gets a copy of this context)
            my_games_of, service, request.cookies.get(PLAYER_COOKIE), 50)
        strings = {"confirm_delete": _("Delete this game for good?")}
        return render(request, "games.html", {"games": rows, "games_data": script_json(strings)})

    @app.get("/lang/{code}", include_in_schema=False)
    async def choose_language(request: Request, code: str, next: str = "/") -> Response:
        parts = urlsplit(safe_local_path(next))
        # a ?lang= in the page's address would outvote the new choice: drop it
        query = urlencode([(k, v) for k, v in parse_qsl(parts.query) if k != "lang"])
        chosen = i18n.choose_locale(code)
        response = RedirectResponse(
            localise_path(parts.path, chosen) + (f"?{query}" if query else ""), status_code=303
        )
        response.set_cookie(i18n.COOKIE, chosen, max_age=365 * 24 * 3600, samesite="lax",
                            secure=secure_cookie(request))
        return response

    return app
