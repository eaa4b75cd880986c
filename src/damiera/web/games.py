"""The game service of the site: what the API does to games.

:class:`GameService` creates games and plays on them (moves, undo, resignation, an agreed
draw), reads them (the game JSON, a piece's refusal, the PDN) and deletes them. It builds on
:class:`~damiera.web.computer_turn.ComputerTurns` (the computer's replies) and
:class:`~damiera.web.game_records.GameRecords` (rebuilding a stored game, its JSON, storing
it back). Its errors are in :mod:`damiera.web.errors` (with their status codes), what a game
shows without a change in :mod:`damiera.web.game_views`, the checks of a new game's options
in :mod:`damiera.web.new_game`, the games a browser lists in :mod:`damiera.web.my_games`.
Every change takes ``player``, the caller's player token, checked against the game's seats
(:mod:`damiera.web.seats`); game objects carry ``seats``, the sides it holds.
"""

from __future__ import annotations

import asyncio
from typing import Any

from damiera.rules.game import Game, GameOverError, ResultReason
from damiera.rules.notation import NotationError
from damiera.web import i18n, seats, thinking
from damiera.web.computer_turn import ComputerTurns
from damiera.web.errors import BadRequest, Conflict, IllegalMove
from damiera.web.game_records import record, undo_plies
from damiera.web.game_views import explain_square, pdn_text, text_of_path
from damiera.web.live import state as online
from damiera.web.new_game import NewGame, new_game
from damiera.web.results import color_of, ended_off_board, result_text, stored_result_text
from damiera.web.store import NotFoundError, StorageError, StoredGame

_ = i18n.gettext

__all__ = ["GameService", "NotFoundError"]


def _refuse_after_flag(stored: StoredGame) -> None:
    """Conflict (409) for any change to a game that ended off the board (a flag fell, a
    claim, an abort)."""
    if ended_off_board(stored):
        raise Conflict(_("the game is over: {result}").format(
            result=stored_result_text(stored)))


def _game_over(game: Game) -> Conflict:
    """409 for a change asked of a finished game."""
    outcome = game.outcome()
    assert outcome is not None
    return Conflict(_("the game is over: {result}").format(
        result=result_text(outcome, game.variant)))


class GameService(ComputerTurns):
    """Everything the API does to games; async methods keep the event loop free (the store
    runs in threads, the computer in processes)."""

    # -- operations ----------------------------------------------------------------------------
    async def create(self, options: NewGame, owner: str | None) -> dict[str, Any]:
        """Create and store a game; against the computer when it moves first, its first move
        is played before the game is stored. Raises BadRequest."""
        stored, game = new_game(options, owner, self.computer.hub)
        if self.computer_to_move(stored, game):
            await self.computer_reply(stored, game)
        record(stored, game)
        try:
            stored = await asyncio.to_thread(self.store.create, stored)
        except StorageError as exc:
            raise StorageError(f"the database failed ({exc.why}): the game was not stored; "
                               "try again", why=exc.why) from None
        self._cache.put(stored, game)
        return self.mine(stored, game, owner)


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
        if self.computer_to_move(stored, game):
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
        computer = self.computer_to_move(stored, game)
        if computer:     # stored with your move: the computer's search is this request's
            thinking.ask(stored)
        else:
            thinking.clear(stored)
        stored = await self.save(stored, game)  # your move lasts on its own
        if computer:
            try:
                stored, game = await self.reply_and_save(stored, game)
            except (Conflict, NotFoundError):   # NotFoundError: deleted meanwhile (404)
                raise
            except Exception as exc:  # noqa: BLE001 - the move is stored whatever failed
                raise await self.reply_error(game_id, exc) from None
        return self.mine(stored, game, player)


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
        plies = undo_plies(stored, game)
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
            stored = await self.collect(stored)
        data = self.mine(stored, None, player)
        if (thinking.pending(stored) and data["turn"] == data["computer_side"]
                and not data["result"]):
            return {**data, "thinking": True}
        return data

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

    async def delete(self, game_id: str, player: str | None) -> None:
        """Delete a game whose seats ``player`` holds (:func:`damiera.web.seats.needed`,
        ``delete``), or a game online of which ``player`` holds a seat while
        :func:`damiera.web.live.state.may_delete` allows (nobody else seated yet, or
        aborted); a search of the computer's move for it is dropped. Raises NotFoundError,
        Forbidden (a game of another browser's, or an online game that is the opponent's
        too: said in the request's language), StorageError."""
        stored = await asyncio.to_thread(self.store.load, game_id)
        if stored.opponent == "online":
            if not seats.held(stored, player) or not online.may_delete(stored):
                raise seats.Forbidden(online.delete_refusal_message(
                    watching=not seats.held(stored, player)))
        else:
            self._require_every_seat(stored, player)
        await asyncio.to_thread(self.store.delete, game_id)
        self._cache.drop(game_id)
        if thinking.pending(stored) and stored.computer_job is not None:
            await self.computer.forget(stored.computer_job)   # its search is wanted no more

    @staticmethod
    def _require_every_seat(stored: StoredGame, player: str | None) -> None:
        try:
            seats.require(stored, player, "delete", stored.side)
        except seats.Forbidden:
            raise seats.Forbidden(
                _("only the browser that created this game may delete it")) from None

