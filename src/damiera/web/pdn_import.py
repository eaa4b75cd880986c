"""Games in and out of the site as PDN: the import page and its JSON routes.

- ``GET /import``: paste or upload a PDN file; each game is listed (tags, result, plies,
  errors with line and column), opens on the board in replay mode with its move list, and
  can be continued from any position against the computer or a friend (the page creates a
  new game with ``POST /api/games {"variant", "fen": the record's start, "moves": its moves
  up to that position, ...}``, so the new game lists them; it belongs to the importer; the
  imported record itself is never stored).
- ``POST /api/pdn/import`` ``{"pdn": text}`` -> ``{"games": [{"number", "line", "variant",
  "variant_name" (in the request's language), "guessed", "tags", "result", "plies", "moves" (full notation),
  "start_fen", "error": null | {"message", "line", "column", "rule", "move"}, "noted_draw":
  null | {"ply", "reason"}, "custom_variant": null | a custom rule set's variant JSON (its
  board and rules, which no list of the page holds)}], "truncated": bool}``. An error's ``message`` is in the request's
  language where the catalogs have its words (a move the rules refuse: :func:`error_json`),
  else the reader's English; ``move`` is null, or the refused move's parts for a page to set
  each apart: ``{"number": "2.", "text": "28x17", "reason", "variation": 0}`` (``reason`` in
  the request's language where the catalogs allow; ``variation``: how many variations the
  move lies in, each adding "in a variation: " before the sentence). The text is at most ``Limits.max_import_bytes``
  (UTF-8; else 413), read by :func:`damiera.pdn.read_games` (``errors="collect"``, the
  variant guessed for games without ``GameType``) with at most :data:`MAX_MOVES` moves tried
  and :data:`MAX_GAMES` games listed, so it is read in time linear in its size; at most
  :data:`CONCURRENT` imports run at once, shared fairly among addresses
  (:mod:`damiera.web.fair_share`): ``Limits.import_per_client`` at once for one address
  (429 beyond), later ones wait their turn, and past ``Limits.import_waiting`` waiting in
  all 503 (both with ``Retry-After``).
- ``POST /api/pdn/replay`` ``{"variant", "fen", "moves": [text]}`` -> ``{"positions": [FEN
  before the first move, then after each], "moves": [{"move", "from", "to", "path",
  "captures", "promotes"}], "pieces": [{label: piece} for each position], "turns": ["white"
  | "black" to move in each], "move_numbers": ["1.", "1…", ...]}``: the positions of one
  listed game, for the board (the rules core replays them; draws by rule are not enforced,
  as in a record; :mod:`damiera.web.serialization`).
- ``GET /api/pdn/my-games``: every game of the caller's browser, as "my games" lists them
  (at most :data:`MAX_DOWNLOAD`, newest first) as one PDN file (``text/plain`` attachment), each game
  as its own download writes it (:func:`damiera.web.game_views.pdn_text`).

Both POSTs are same-site JSON requests like the rest of the API
(:func:`damiera.web.seats.require_same_origin`). Each client address
(:func:`damiera.web.client_address.client_address`) may read or write PDN files at
``Limits.import_rate`` a second (``import_burst`` at once) and replay games at
``replay_rate`` (``replay_burst``): 429 with ``Retry-After`` beyond
(:class:`damiera.web.limits.RateLimiter`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse
from pydantic import BaseModel, Field

from damiera.pdn import PdnError, PdnGame, read_games
from damiera.rules.game import Game
from damiera.rules.notation import NotationError, move_labels, move_text
from damiera.rules.position import MAX_FEN_TEXT, FenError, write_fen
from damiera.rules.variant import VARIANTS, UnknownVariantError, unknown_variant_hint, variant
from damiera.web import i18n
from damiera.web.api import current_player
from damiera.web.client_address import client_address
from damiera.web.errors import BadRequest, clip, quoted
from damiera.web.fair_share import FairShare
from damiera.web.game_views import pdn_text
from damiera.web.games import GameService
from damiera.web.limits import ClientGone, LimitExceeded, Limits, RateLimiter, until_disconnect
from damiera.web.my_games import games_of, started
from damiera.web.pages import request_locale, script_json
from damiera.web.seats import require_same_origin
from damiera.web.serialization import move_numbers, options_json, pieces_json, variant_json
from damiera.web.store_tables import MAX_VARIANT_ID

_ = i18n.gettext

#: Most moves tried while reading one import (played, or tried resolving short captures and
#: guessing variants): about twice a 1 MB file of ordinary games.
MAX_MOVES = 150_000
#: Most games listed from one import.
MAX_GAMES = 2_000
#: Longest game the board replays (plies) and longest move text.
MAX_REPLAY_PLIES = 3_000
MAX_MOVE_TEXT = 80
#: Imports read at the same time (each in a thread).
CONCURRENT = 2
#: Most games in "download all my games".
MAX_DOWNLOAD = 1_000

Render = Callable[..., HTMLResponse]


class ImportBody(BaseModel):
    """A PDN file's text (the page decodes an uploaded file: UTF-8, else Windows-1252)."""

    pdn: str = Field(description="PDN text, at most 1 MB in UTF-8")


class ReplayBody(BaseModel):
    """One game of an import: its variant, start FEN and moves."""

    variant: str = Field(max_length=MAX_VARIANT_ID,
                         examples=["international", "international+losing"])
    fen: str | None = Field(default=None, max_length=MAX_FEN_TEXT)
    moves: list[str] = Field(default_factory=list, max_length=MAX_REPLAY_PLIES)


def game_json(game: PdnGame) -> dict[str, Any]:
    """One listed game of an import (see the module docstring)."""
    v = game.variant
    error = None if game.error is None else error_json(game.error)
    noted = None
    if game.noted_draw is not None:
        ply, outcome = game.noted_draw
        noted = {"ply": ply, "reason": outcome.reason.value}
    return {
        "number": game.number,
        "line": game.line,
        **options_json(v),
        "variant_name": _(v.name),
        "guessed": game.guessed,
        "tags": {clip(k, 40): clip(val, 200) for k, val in list(game.tags.items())[:40]},
        "result": game.result,
        "plies": len(game.plies),
        "moves": [move_text(v, p.move.raw) for p in game.plies],
        "start_fen": game.game.start_fen,
        "error": error,
        "noted_draw": noted,
        # a custom rule set is in no list of the page: its board and rules come with it
        "custom_variant": None if v.id in VARIANTS else variant_json(v),
    }


def error_json(error: PdnError) -> dict[str, Any]:
    """A game's error for the import page (see the module docstring): a move the rules
    refuse is worded in the current language, "move {number} {move}: {reason}" with the
    rules core's reason from the catalogs (:func:`damiera.web.i18n.error_message`), after
    "in a variation: " for each variation it lies in; other errors keep the reader's
    English message."""
    out: dict[str, Any] = {"message": clip(error.message, 300), "line": error.line,
                           "column": error.column, "rule": error.rule, "move": None}
    if error.reason is not None and error.number is not None and error.move is not None:
        reason = clip(i18n.error_message(error.reason.code, error.reason.params,
                                         str(error.reason)), 250)
        number, text = clip(error.number, 12), clip(error.move, 40)
        out["move"] = {"number": number, "text": text, "reason": reason,
                       "variation": error.variation}
        message = _("move {number} {move}: {reason}").format(
            number=number, move=text, reason=reason)
        for _depth in range(error.variation):
            message = _("in a variation: {message}").format(message=message)
        out["message"] = clip(message, 300)
    return out


def read_import(text: str) -> dict[str, Any]:
    """Every game of ``text`` as :func:`game_json` objects (at most :data:`MAX_GAMES`;
    ``truncated`` says when the file held more or the move bound stopped the reading)."""
    games: list[dict[str, Any]] = []
    truncated = False
    for game in read_games(text, "guess", errors="collect", max_moves=MAX_MOVES):
        if len(games) == MAX_GAMES:
            truncated = True
            break
        games.append(game_json(game))
        if game.error is not None and game.error.rule == "limit":
            truncated = True
    return {"games": games, "truncated": truncated}


def replay(body: ReplayBody) -> dict[str, Any]:
    """The positions and move labels of one game (see the module docstring). Raises
    BadRequest (unknown variant, bad FEN, a move that does not replay)."""
    try:
        v = variant(body.variant)
    except UnknownVariantError:
        raise BadRequest(f"unknown variant {quoted(body.variant)}"
                         f"{unknown_variant_hint(body.variant)}; known variants: "
                         f"{', '.join(VARIANTS)}") from None
    try:   # a lidraughts FEN's H and F kept: the draw rules' count, the move numbers
        game = Game(v, body.fen if body.fen and body.fen.strip() else None,
                    enforce_draws=False)
    except FenError as exc:
        raise BadRequest(f"bad FEN {quoted(body.fen or '')}: {clip(str(exc), 200)}") from None
    labels = []
    for n, text in enumerate(body.moves, 1):
        if len(text) > MAX_MOVE_TEXT:
            raise BadRequest(f"move {n} is longer than {MAX_MOVE_TEXT} characters")
        try:
            move = game.play(text)
        except NotationError as exc:
            raise BadRequest(f"move {n} {quoted(text)}: {clip(str(exc), 200)}") from None
        labels.append(move_labels(v, move.raw))
    return {"positions": [write_fen(v, p) for p in game.positions], "moves": labels,
            "pieces": [pieces_json(v, p) for p in game.positions],
            "turns": [p.turn.word for p in game.positions],
            "move_numbers": move_numbers(game)[:-1]}


def all_games_pdn(service: GameService, owner: str | None) -> str:
    """Every game of the player token ``owner`` that "my games" lists (created, or a seat
    held: :func:`damiera.web.my_games.games_of`; with a move or a result:
    :func:`damiera.web.my_games.started`; newest first, at most :data:`MAX_DOWNLOAD`) as one
    PDN text (the games separated by a blank line, as :func:`damiera.pdn.write_games` writes
    them, each with its own tags, clock and result as ``GET /api/games/{id}/pdn`` writes it:
    :func:`damiera.web.game_views.pdn_text`); "" when there is none."""
    parts = []
    for stored in games_of(service.store, owner, MAX_DOWNLOAD):
        if started(stored):
            parts.append(pdn_text(stored, service.rebuild(stored)))
    return "\n".join(parts)


async def _same_origin(request: Request) -> None:
    require_same_origin(request)


async def _locale(request: Request) -> None:
    """The request's language made current (variant names in it); async so that it is set
    in the route's own context."""
    request_locale(request)


def build_router(service: GameService, limits: Limits, render: Render) -> APIRouter:
    """The import page and its API, bound to the site's ``service`` and ``limits``;
    ``render`` is :func:`damiera.web.pages.render`."""
    router = APIRouter()
    readers = FairShare(CONCURRENT, limits.import_per_client, limits.import_waiting,
                        "PDN files read")
    files = RateLimiter(limits.import_rate, limits.import_burst)
    replays = RateLimiter(limits.replay_rate, limits.replay_burst)

    @router.get("/import", response_class=HTMLResponse, include_in_schema=False)
    async def import_page(request: Request) -> HTMLResponse:
        request_locale(request)      # the title and the script's strings in its language
        data = {
            "variants": [variant_json(v) for v in VARIANTS.values()],
            "strings": page_strings(),
            "max_bytes": limits.max_import_bytes,
        }
        return render(request, "pdn_import.html",
                      {"title": _("Import PDN"), "page_data": script_json(data)})

    @router.post("/api/pdn/import", tags=["pdn"],
                 dependencies=[Depends(_same_origin), Depends(_locale)],
                 summary="Read a PDN file: every game with its tags, moves and errors")
    async def import_pdn(body: ImportBody, request: Request) -> JSONResponse:
        files.take(client_address(request), "PDN files")
        size = len(body.pdn.encode("utf-8", "surrogatepass"))
        if size > limits.max_import_bytes:
            raise LimitExceeded(413, f"the PDN text is too large ({size} bytes; at most "
                                     f"{limits.max_import_bytes})")
        ticket = readers.ticket(client_address(request))
        try:
            if not await until_disconnect(request, ticket.acquire()):
                raise ClientGone("the client went away")
            return JSONResponse(await asyncio.to_thread(read_import, body.pdn))
        finally:
            ticket.release()

    @router.post("/api/pdn/replay", tags=["pdn"], dependencies=[Depends(_same_origin)],
                 summary="The positions of one game: FEN before the first move and after each")
    async def replay_game(body: ReplayBody, request: Request) -> JSONResponse:
        replays.take(client_address(request), "replays")
        return JSONResponse(await asyncio.to_thread(replay, body))

    @router.get("/api/pdn/my-games", tags=["pdn"], response_class=PlainTextResponse,
                summary="Every game of this browser as one PDN file")
    async def my_games(request: Request) -> PlainTextResponse:
        files.take(client_address(request), "PDN files")
        owner = current_player(request)
        text = await asyncio.to_thread(all_games_pdn, service, owner)
        return PlainTextResponse(
            text, media_type="application/x-portable-draughts-notation; charset=utf-8",
            headers={"Content-Disposition": 'attachment; filename="damiera-games.pdn"'})

    return router


def page_strings() -> dict[str, str]:
    """Every string the import page's script shows, in the current language (placeholders
    in braces are filled in by the script)."""
    return {
        "reading": _("Reading the file…"),
        "games_read": _("{n} games read, {bad} with errors."),
        "truncated": _("Only the first games were read: the file is too long for one import."),
        "too_large": _("The file is too large (at most {max} bytes)."),
        "empty": _("Paste PDN text or choose a file first."),
        "no_games": _("No game was found in this text."),
        "error_at": _("Line {line}, column {column}: {message}"),
        "move_error": _("move {number} {move}: {reason}"),
        "in_variation": _("in a variation: {message}"),
        "game_title": _("Game {number}: {white} – {black}, {result}"),
        "start_position": _("Start position"),
        "after_ply": _("After ply {n} ({move})"),
        "to_move": _("{side} to move"),
        "error": _("Something went wrong: {message}"),
        "white": _("White"),
        "black": _("Black"),
        "guessed": _("variant guessed"),
        "open": _("Open"),
        "plies": _("Plies"),
    }


