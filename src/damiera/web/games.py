"""The game service of the site: rebuilding a stored game, playing on it, storing it.

The web layer is thin: a stored game (:class:`~damiera.web.store.StoredGame`) is turned into a
rules-core :class:`~damiera.rules.game.Game` by replaying its moves from its start FEN; every
change is made on that Game (so every rule, refusal and result comes from the rules core) and
written back in one transaction. :class:`GameService` holds the store and the computer pool.
Its JSON shapes are in :mod:`damiera.web.serialization`, its errors in
:mod:`damiera.web.errors` (with their status codes), result sentences in
:mod:`damiera.web.results`, what a game shows without a change (a piece's refusal, its PDN)
in :mod:`damiera.web.game_views`, the checks of a new game's options in
:mod:`damiera.web.new_game`. Every change takes ``player``, the caller's player token, checked
against the game's seats (:mod:`damiera.web.seats`); game objects carry ``seats``, the sides
it holds.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from damiera.rules.game import Game, GameOverError, ResultReason
from damiera.rules.movegen import Move
from damiera.rules.notation import NotationError
from damiera.rules.variant import Variant, variant
from damiera.web import clocks, i18n, seats, thinking
from damiera.web.computer import Ask, ComputerPool, GameChanged
from damiera.web.errors import BadRequest, Conflict, IllegalMove
from damiera.web.game_cache import GameCache
from damiera.web.game_views import explain_square, movers, pdn_text, text_of_path
from damiera.web.limits import LimitExceeded
from damiera.web.live import state as online
from damiera.web.live.invitations import invite_url_for
from damiera.web.new_game import NewGame, new_game
from damiera.web.results import (
    color_of,
    ended_off_board,
    localize_result,
    off_board_result,
    result_text,
    stored_result_text,
)
from damiera.web.serialization import game_json, summary_json
from damiera.web.store import (
    ConflictError,
    GameStore,
    NotFoundError,
    StorageError,
    StoredGame,
)

_ = i18n.gettext
log = logging.getLogger("damiera.web")

__all__ = ["GameService", "NotFoundError"]


#: Results that end a game by the players' decision: they cannot be taken back.
_FINAL_REASONS = (ResultReason.RESIGNATION, ResultReason.AGREEMENT)


def _refuse_after_flag(stored: StoredGame) -> None:
    """Conflict (409) for any change to a game that ended off the board (a flag fell, a
    claim, an abort)."""
    if ended_off_board(stored):
        raise Conflict(_("the game is over: {result}").format(
            result=stored_result_text(stored)))


def _reply_failed(game_id: str, exc: Exception) -> Exception:
    """The error for a computer reply that failed after the human's move was stored: the
    same kind (503 for the database, 429/503 for a full queue) saying that the move lasts
    and how to ask for the reply again."""
    why = exc.message if isinstance(exc, LimitExceeded) else (
        exc.why if isinstance(exc, StorageError) else str(exc)[:200])
    message = (f"your move was stored, but the computer's reply failed ({why}); ask for it "
               f"again with POST /api/games/{game_id}/reply")
    if isinstance(exc, LimitExceeded):
        return LimitExceeded(exc.status, message, exc.retry_after)
    return StorageError(message, why=why, move_stored=True)


def _game_over(game: Game) -> Conflict:
    """409 for a change asked of a finished game."""
    outcome = game.outcome()
    assert outcome is not None
    return Conflict(_("the game is over: {result}").format(
        result=result_text(outcome, game.variant)))


def _record(stored: StoredGame, game: Game) -> None:
    """Copy the moves and result of ``game`` into ``stored``, its clock charged (a result
    decided off the board, already in ``stored``, is kept)."""
    clocks.charge(stored, movers(game), game.outcome() is not None or ended_off_board(stored))
    stored.moves = game.history()
    if ended_off_board(stored):
        return
    result = game.outcome()
    stored.result_winner = result.winner.word if result and result.winner else None
    stored.result_reason = result.reason.value if result else None


def started(stored: StoredGame) -> bool:
    """Whether ``stored`` has a move or a result: the games "my games" lists and "download
    all my games" writes (a game opened and left without a move is neither)."""
    return bool(stored.moves) or stored.result_reason is not None


def _undo_plies(stored: StoredGame, game: Game) -> int | None:
    """How many plies an undo takes back (against the computer: back to before the
    human's last move, with the computer's replies), or None when there is nothing to take
    back or the game ended by resignation or agreement."""
    outcome = game.outcome()
    if outcome is not None and outcome.reason in _FINAL_REASONS:
        return None
    n = len(game.moves)
    if stored.opponent != "computer":
        return 1 if n else None
    for i in range(n - 1, -1, -1):
        if game.positions[i].turn.word == stored.side:
            return n - i
    return None


class GameService:
    """Everything the API does to games; async methods keep the event loop free (the store
    runs in threads, the computer in processes)."""

    def __init__(self, store: GameStore, computer: ComputerPool):
        self.store = store
        self.computer = computer
        self._cache = GameCache()

    # -- rebuilding --------------------------------------------------------------------------
    @staticmethod
    def variant_of(stored: StoredGame) -> Variant:
        """The Variant of a stored game, with its house rule."""
        return variant(stored.variant, optional_capture=stored.optional_capture)

    def rebuild(self, stored: StoredGame) -> Game:
        """The rules-core Game of a stored game (a fresh object the caller may change):
        a copy of the cached one when the version matches, else the moves replayed."""
        cached = self._cache.get(stored)
        if cached is not None:
            return cached[0].copy()
        return self.replay(stored)

    @classmethod
    def replay(cls, stored: StoredGame) -> Game:
        """The rules-core Game of a stored game, its moves replayed (no cache: safe in any
        thread)."""
        v = cls.variant_of(stored)
        game = Game(v, stored.start_fen)
        for text in stored.moves:
            game.play(text)
        if stored.result_reason == ResultReason.RESIGNATION.value and stored.result_winner:
            game.resign(color_of(stored.result_winner).opponent)
        elif stored.result_reason == ResultReason.AGREEMENT.value:
            game.agree_draw()
        return game

    def _game(self, stored: StoredGame) -> Game:
        """Rebuilt game for reading only (may be shared through the cache)."""
        cached = self._cache.get(stored)
        if cached is not None:
            return cached[0]
        game = self.rebuild(stored)
        self._cache.put(stored, game)
        return game

    # -- JSON --------------------------------------------------------------------------------
    def to_json(self, stored: StoredGame, game: Game | None = None) -> dict[str, Any]:
        """The API's game object: ``id``, ``variant``, ``fen``, ``turn``, ``legal_moves``,
        ``history``, ``result`` (as the issue's contract), plus ``variant_name``,
        ``optional_capture``, ``opponent``, ``level``, ``engine`` (a Hub engine's name, or
        None), ``side``, ``start_fen``, ``positions``
        (FEN before the first move, then after each), ``pieces`` and ``start_pieces`` (the
        position now and at the start, :func:`~damiera.web.serialization.pieces_json`),
        ``history_moves`` (each move of ``history`` as in ``legal_moves``), ``move_numbers``
        (``"12."``/``"12…"`` for each: :func:`~damiera.web.serialization.move_numbers`),
        ``next_move_number`` (the same for the move to play now), ``last_move``,
        ``moves_without_progress``, ``draw_moves_without_progress``, ``computer_side``,
        ``can_undo`` (an undo would take something back),
        ``version``, ``thinking`` (the computer is choosing its move), ``created_at``,
        ``updated_at``, ``clock`` (:func:`damiera.web.clocks.decorate`); ``result_sentence``:
        the result in the request's language
        (:func:`damiera.web.results.localize_result`)."""
        cached = self._cache.get(stored)
        if cached is not None and cached[1] is not None and (game is None or game is cached[0]):
            return localize_result(off_board_result(stored, clocks.decorate(stored, cached[1])))
        if game is None:
            game = self._game(stored)
        data = self._json(stored, game)
        self._cache.put(stored, game, data)
        return localize_result(off_board_result(stored, clocks.decorate(stored, data)))

    def _json(self, stored: StoredGame, game: Game) -> dict[str, Any]:
        data = game_json(stored, game, can_undo=_undo_plies(stored, game) is not None
                         and stored.opponent != "online")
        if stored.opponent == "online":
            data["online"] = online.online_json(stored, len(game.moves),
                                                game.outcome() is not None)
        return data

    # -- store calls in threads ----------------------------------------------------------------
    async def load(self, game_id: str) -> StoredGame:
        """The stored game, the result of a flag fall recorded first if its flag has fallen
        since (the server's clock decides, whether or not a page is open; a loss, or a draw
        when the opponent cannot win: :func:`damiera.web.clocks.flag_verdict`, searched in a
        thread). Raises NotFoundError, StorageError."""
        stored = await asyncio.to_thread(self.store.load, game_id)
        if clocks.flag_due(stored):
            try:
                stored = await asyncio.to_thread(self._record_flag, stored)
            except ConflictError:   # another request got there first: take its version
                stored = await asyncio.to_thread(self.store.load, game_id)
        return stored

    def _record_flag(self, stored: StoredGame) -> StoredGame:
        """Record the fallen flag of ``stored`` (its verdict: :func:`clocks.flag_verdict`,
        a search: call in a thread) and save it. Raises ConflictError, StorageError."""
        game = self.replay(stored)
        clocks.record_flag(stored, clocks.flag_verdict(game.variant, game.position))
        return self.store.save(stored)

    async def save(self, stored: StoredGame, game: Game) -> StoredGame:
        """Store ``stored`` with the moves and result of ``game`` (its clock charged) if
        nobody changed it since it was loaded; returns the stored copy. Raises Conflict,
        StorageError (saying the change was not stored), NotFoundError."""
        _record(stored, game)
        try:
            saved = await asyncio.to_thread(self.store.save, stored)
        except ConflictError:
            raise Conflict(_("the game was changed by another request; reload it")) from None
        except StorageError as exc:
            raise StorageError(f"the database failed ({exc.why}): this change was not stored; "
                               "try again", why=exc.why) from None
        self._cache.put(saved, game)
        return saved

    # -- operations ----------------------------------------------------------------------------
    async def create(self, options: NewGame, owner: str | None) -> dict[str, Any]:
        """Create and store a game; against the computer when it moves first, its first move
        is played before the game is stored. Raises BadRequest."""
        stored, game = new_game(options, owner, self.computer.hub)
        if self._computer_to_move(stored, game):
            await self._computer_reply(stored, game)
        _record(stored, game)
        try:
            stored = await asyncio.to_thread(self.store.create, stored)
        except StorageError as exc:
            raise StorageError(f"the database failed ({exc.why}): the game was not stored; "
                               "try again", why=exc.why) from None
        self._cache.put(stored, game)
        return self.mine(stored, game, owner)

    def mine(self, stored: StoredGame, game: Game | None, player: str | None) -> dict[str, Any]:
        """:meth:`to_json` with ``seats``: the sides whose seat ``player`` holds, and in a
        game online whose other seat is free, for its creator, ``invite_url``
        (:mod:`damiera.web.live.invitations`)."""
        data = {**self.to_json(stored, game), "seats": seats.held(stored, player)}
        if stored.opponent == "online":
            data["invite_url"] = (invite_url_for(stored.id, stored.invite, player)
                                  if seats.free_side(stored) else None)
        return data

    def _computer_to_move(self, stored: StoredGame, game: Game) -> bool:
        return (
            stored.opponent == "computer"
            and game.outcome() is None
            and not clocks.ended_on_time(stored)
            and game.turn.word != stored.side
        )

    async def _computer_reply(self, stored: StoredGame, game: Game) -> Move:
        async def unchanged() -> bool:   # checked when a worker is free, before the search
            return stored.version == 0 or (await self.load(stored.id)).version == stored.version

        ask = (Ask(stored.computer_job, stored.id, stored.version)
               if stored.computer_job is not None else None)
        try:
            move = await self.computer.choose(
                stored.variant, stored.optional_capture, game.positions, stored.level or 1,
                still_wanted=unchanged, engine=stored.engine, ask=ask,
            )
        except GameChanged:
            raise Conflict(_("the game was changed by another request; reload it")) from None
        game.play(move)
        return move

    @staticmethod
    def _refuse_while_thinking(stored: StoredGame) -> None:
        """Conflict (409) while the computer is choosing its move (in any web process:
        :mod:`damiera.web.thinking`); a stale pending move is forgotten by the change."""
        if thinking.pending(stored):
            raise Conflict(_("another move on this game is being played; try again"))
        thinking.clear(stored)

    async def play(self, game_id: str, text: str, version: int | None = None, *,
                   player: str | None, path: list[str] | None = None) -> dict[str, Any]:
        """Play the move ``text`` (full or short notation) and, against the computer, its
        reply; returns the game. ``path``: instead of ``text``, the squares the player entered,
        start first (written in the variant's notation: :func:`game_views.text_of_path`).
        ``version``: the game's version the move was chosen on (Conflict when the game has
        changed since; None: no check). Raises NotFoundError, Conflict, IllegalMove,
        BadRequest."""
        if path is not None and len(path) < 2:
            raise BadRequest("a move's path names at least two squares")
        if path is None and (not isinstance(text, str) or not text.strip()):
            raise BadRequest('give the move as text, e.g. {"move": "22-19"}')
        stored = await self.load(game_id)
        if version is not None and version != stored.version:
            raise Conflict(_("the game has changed since this move was chosen; reload it"))
        game = self.rebuild(stored)
        if path is not None:
            text = text_of_path(game, path)
        _refuse_after_flag(stored)
        seats.require(stored, player, "move", game.turn.word)
        if game.outcome() is not None:
            raise _game_over(game)
        if self._computer_to_move(stored, game):
            raise Conflict(_("it is the computer's turn"))
        if not online.ready(stored):
            raise Conflict(online.not_ready_message())
        mover = game.turn.word
        try:
            game.play(text)
        except NotationError as exc:
            raise IllegalMove(
                i18n.error_message(exc.code, exc.params, str(exc)), exc.code, exc.params
            ) from None
        if stored.offers:
            online.after_move(stored, mover)
        computer = self._computer_to_move(stored, game)
        if computer:     # stored with your move: the computer's search is this request's
            thinking.ask(stored)
        else:
            thinking.clear(stored)
        stored = await self.save(stored, game)  # your move lasts on its own
        if computer:
            try:
                stored, game = await self._reply_and_save(stored, game)
            except (Conflict, NotFoundError):   # NotFoundError: deleted meanwhile (404)
                raise
            except Exception as exc:  # noqa: BLE001 - the move is stored whatever failed
                raise await self._reply_error(game_id, exc) from None
        return self.mine(stored, game, player)

    async def _reply_and_save(self, stored: StoredGame, game: Game) -> tuple[StoredGame, Game]:
        """The computer's move on a copy of ``game`` (the cached one stays as stored), then
        stored with its pending move cleared (``stored`` names this request's search:
        :func:`damiera.web.thinking.ask`). If the search fails, is cancelled, or the game
        changed meanwhile, only the pending move is cleared: the game waits for
        :meth:`reply`."""
        job = stored.computer_job
        game = game.copy()
        lease = asyncio.ensure_future(thinking.keep_renewed(
            lambda: asyncio.to_thread(self.store.renew_pending, stored.id, job or "")))
        try:
            try:
                await self._computer_reply(stored, game)
            finally:
                lease.cancel()
            thinking.clear(stored)
            try:
                return await self.save(stored, game), game
            except Conflict:      # another process stored this very move first (it read
                again = await self.load(stored.id)   # the job's result): that is success
                if again.moves == game.history() and again.computer_job is None:
                    return again, self.rebuild(again)
                raise
        except BaseException:
            await asyncio.shield(self._give_up(stored.id, job))
            raise

    async def _reply_error(self, game_id: str, exc: Exception) -> Exception:
        """The error for a failed computer reply: NotFoundError when the game was deleted
        meanwhile (its search was dropped for that), else :func:`_reply_failed`."""
        try:
            await asyncio.to_thread(self.store.load, game_id)
        except NotFoundError as gone:
            return gone
        except StorageError:
            pass                  # said by _reply_failed's message if that was the failure
        return _reply_failed(game_id, exc)

    async def _give_up(self, game_id: str, job: str | None) -> None:
        """Clear the game's pending move if it is still ``job`` (nobody will store its
        move); a failing database is only logged (the pending move goes stale)."""
        try:
            stored = await asyncio.to_thread(self.store.load, game_id)
            if job is not None and stored.computer_job == job:
                thinking.clear(stored)
                await asyncio.to_thread(self.store.save, stored)
        except (ConflictError, NotFoundError):
            pass      # changed or deleted since: its pending move is no longer this one
        except StorageError as exc:
            log.warning("could not clear the pending computer move of %s: %s", game_id, exc)

    async def _ask_once(self, stored: StoredGame, game: Game) -> StoredGame | None:
        """Store that this request searches the computer's move of ``stored``; None when
        another request changed the game first (it may be searching)."""
        thinking.ask(stored)
        try:
            return await self.save(stored, game)
        except Conflict:
            return None

    async def reply(self, game_id: str, version: int | None = None, *,
                    player: str | None) -> dict[str, Any]:
        """Let the computer play when it is its turn (after a restart, a failed search, a
        client that hung up). When another request (of any web process) is already searching
        that move, wait for it instead of searching again, and return the game as it then
        is. ``version``: the game's version the caller saw it thinking at (None: not known);
        when the game has moved on since and it is no longer the computer's turn, its reply
        was stored meanwhile and the game is returned as it is, so asking twice is harmless.
        Raises NotFoundError, Conflict (not the computer's turn)."""
        stored = await self.load(game_id)
        game = self.rebuild(stored)
        seats.require(stored, player, "reply", game.turn.word)
        if not self._computer_to_move(stored, game):
            if version is not None and stored.version > version:
                return self.mine(stored, game, player)
            raise Conflict(_("it is not the computer's turn"))
        for _attempt in range(3):
            if thinking.pending(stored):
                stored = await thinking.wait_until_played(self._look, stored)
                game = self.rebuild(stored)
                if not self._computer_to_move(stored, game) or thinking.pending(stored):
                    return self.mine(stored, game, player)
            asked = await self._ask_once(stored, game)
            if asked is not None:
                try:
                    stored, game = await self._reply_and_save(asked, game)
                except (Conflict, NotFoundError):   # NotFoundError: deleted meanwhile
                    raise
                except Exception as exc:  # noqa: BLE001 - the game waits for the reply
                    raise await self._reply_error(game_id, exc) from None
                return self.mine(stored, game, player)
            stored = await self.load(game_id)        # another request asked first
            game = self.rebuild(stored)
            if not self._computer_to_move(stored, game):
                return self.mine(stored, game, player)
        raise Conflict(_("the game was changed by another request; reload it"))

    @staticmethod
    def _check_version(stored: StoredGame, version: int | None) -> None:
        """Conflict when the caller's ``version`` (None: no check) is not the stored one."""
        if version is not None and version != stored.version:
            raise Conflict(_("the game was changed by another request; reload it"))

    async def undo(self, game_id: str, version: int | None = None, *,
                   player: str | None) -> dict[str, Any]:
        """Take back the last move (against the computer: your last move and its reply).
        ``version``: the game's version the page knows (Conflict if it changed since).
        Raises NotFoundError, Conflict (nothing to take back, or a resigned/agreed game)."""
        stored = await self.load(game_id)
        self._check_version(stored, version)
        self._refuse_while_thinking(stored)
        _refuse_after_flag(stored)
        game = self.rebuild(stored)
        if stored.opponent == "online":
            raise Conflict(online.refuse_undo_message())
        seats.require(stored, player, "undo", game.turn.word)
        final = game.outcome()
        if final is not None and final.reason is ResultReason.RESIGNATION:
            raise Conflict(_("the game ended by resignation; it cannot be taken back"))
        if final is not None and final.reason is ResultReason.AGREEMENT:
            raise Conflict(_("the game ended by agreement; it cannot be taken back"))
        plies = _undo_plies(stored, game)
        if plies is None:
            raise Conflict(
                _("there is no move of yours to take back")
                if stored.opponent == "computer"
                else _("there is no move to take back")
            )
        try:
            game.undo(plies)
        except GameOverError:  # cannot happen after the checks above; be safe
            raise Conflict(_("there is no move to take back")) from None
        stored = await self.save(stored, game)
        return self.mine(stored, game, player)

    async def resign(
        self, game_id: str, side: str | None, version: int | None = None, *,
        player: str | None,
    ) -> dict[str, Any]:
        """``side`` resigns (default: you against the computer, the side to move between
        friends; against the computer only your side may). ``version``: as for :meth:`undo`.
        Raises NotFoundError, Conflict, BadRequest."""
        if side is not None and side not in ("white", "black"):
            raise BadRequest(f"side must be 'white' or 'black', not {side!r}")
        stored = await self.load(game_id)
        self._check_version(stored, version)
        self._refuse_while_thinking(stored)
        _refuse_after_flag(stored)
        game = self.rebuild(stored)
        if stored.opponent == "online" and side is None:
            mine = seats.held(stored, player)
            side = mine[0] if len(mine) == 1 else None
        seats.require(stored, player, "resign", game.turn.word, side)
        if side is None:
            side = stored.side if stored.opponent == "computer" else game.turn.word
        elif stored.opponent == "computer" and side != stored.side:
            words = {"white": _("White"), "black": _("Black")}
            raise Conflict(
                _("against the computer only your side may resign ({side})")
                .format(side=words[stored.side])
            )
        try:
            game.resign(color_of(side))
        except GameOverError:
            raise _game_over(game) from None
        stored = await self.save(stored, game)
        return self.mine(stored, game, player)

    async def agree_draw(self, game_id: str, version: int | None = None, *,
                         player: str | None) -> dict[str, Any]:
        """Both players (friends on one screen) agree to a draw. ``version``: as for
        :meth:`undo`. Raises NotFoundError, Conflict (against the computer, or the game is
        over)."""
        stored = await self.load(game_id)
        self._check_version(stored, version)
        self._refuse_while_thinking(stored)
        _refuse_after_flag(stored)
        if stored.opponent != "friend":
            raise Conflict(_("a draw can be agreed only between two people"))
        game = self.rebuild(stored)
        seats.require(stored, player, "draw", game.turn.word)
        try:
            game.agree_draw()
        except GameOverError:
            raise _game_over(game) from None
        stored = await self.save(stored, game)
        return self.mine(stored, game, player)

    async def get(self, game_id: str, player: str | None = None) -> dict[str, Any]:
        """The game, with ``"thinking": true`` while the computer is choosing its move, and
        the ``seats`` that ``player`` holds. Raises NotFoundError."""
        stored = await self.load(game_id)
        if thinking.pending(stored):
            stored = await self._collect(stored)
        data = self.mine(stored, None, player)
        if (thinking.pending(stored) and data["turn"] == data["computer_side"]
                and not data["result"]):
            return {**data, "thinking": True}
        return data

    async def _look(self, game_id: str) -> StoredGame:
        """The stored game, its pending move stored first if its result is there to read."""
        stored = await self.load(game_id)
        return await self._collect(stored) if thinking.pending(stored) else stored

    async def _collect(self, stored: StoredGame) -> StoredGame:
        """Store the pending move of ``stored`` if its search has ended and any process can
        read its result (a job queue's) while the request that asked for it has not stored
        it (that process died); returns the game as it then is."""
        job = stored.computer_job
        text = await self.computer.finished(job) if job is not None else None
        if text is None:
            return stored
        game = self.rebuild(stored)
        try:
            game.play(text)
        except NotationError:
            return stored         # not a move here: the game changed since it was asked
        thinking.clear(stored)
        try:
            return await self.save(stored, game)
        except Conflict:          # the asking request stored it first, or the game changed
            return await self.load(stored.id)

    async def explain(self, game_id: str, square: str) -> dict[str, Any]:
        """Why the piece on ``square`` can or cannot move now: ``{"square", "moves",
        "reason", "code"}`` (``reason``/``code`` null when it has legal moves). The reason is
        the rules core's (:func:`damiera.rules.notation.explain_piece`)."""
        stored = await self.load(game_id)
        return explain_square(self._game(stored), square)

    async def pdn(self, game_id: str) -> str:
        """The game as PDN text (tags ``GameType``, ``FEN`` when not from the start,
        ``Result``). Raises NotFoundError."""
        stored = await self.load(game_id)
        return pdn_text(stored, self._game(stored))

    def recent(self, owner: str | None, limit: int = 50) -> list[dict[str, Any]]:
        """Summaries of the recent games of the browser whose player token is ``owner``, for
        "my games", games without a move or a
        result left out: ``id``, ``variant``, ``variant_name``, ``optional_capture``,
        ``opponent``, ``level``, ``side`` (yours against the computer), ``plies``, ``moves``
        (moves as numbered in the move list, not plies), ``result`` (null or ``{"winner",
        "reason", "text"}``, the text in the current language), ``outcome`` (against the
        computer: "won", "lost", "draw" or null), ``updated_at``, ``created_at``."""
        out = []
        for s in self.store.recent(seats.owner_key(owner), limit * 4):
            if not started(s):
                continue
            if clocks.flag_due(s):      # recorded now (the search runs once per game)
                try:
                    self._record_flag(s)
                except (ConflictError, StorageError):
                    pass                # shown as it stands; recorded when the game is opened
            out.append(summary_json(s))
            if len(out) == limit:
                break
        return out

    async def delete(self, game_id: str, player: str | None) -> None:
        """Delete a game whose seats ``player`` holds (:func:`damiera.web.seats.needed`,
        ``delete``); a search of the computer's move for it is dropped. Raises NotFoundError, Forbidden (a game of another browser's, said in
        the request's language), StorageError."""
        stored = await asyncio.to_thread(self.store.load, game_id)
        try:
            seats.require(stored, player, "delete", stored.side)
        except seats.Forbidden:
            raise seats.Forbidden(
                _("only the browser that created this game may delete it")) from None
        await asyncio.to_thread(self.store.delete, game_id)
        self._cache.drop(game_id)
        if thinking.pending(stored) and stored.computer_job is not None:
            await self.computer.forget(stored.computer_job)   # its search is wanted no more

