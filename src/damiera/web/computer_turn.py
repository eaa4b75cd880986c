"""The computer's turn in a game against it: asking for its move, waiting for it, storing it.

A request that stores a human's move against the computer also searches the reply
(:meth:`ComputerTurns.reply_and_save`): the game is stored first with its pending move
(:mod:`damiera.web.thinking`: which search is asked for, a lease renewed while it runs), so
every web process sees "thinking", and the reply is stored on top when it comes. When that
request fails, hangs up or its process dies, ``POST /api/games/{id}/reply``
(:meth:`ComputerTurns.reply`) asks again, or waits for the search another request already
runs; a reply whose search ended in a job queue while its asker is gone is stored by the next
request that reads the game (:meth:`ComputerTurns.collect`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from damiera.engine.levels import LEVELS
from damiera.rules.game import Game
from damiera.rules.movegen import Move
from damiera.rules.notation import NotationError
from damiera.web import clocks, i18n, seats, thinking
from damiera.web.computer import Ask, GameChanged
from damiera.web.errors import Conflict
from damiera.web.game_records import GameRecords
from damiera.web.limits import LimitExceeded
from damiera.web.store import ConflictError, NotFoundError, StorageError, StoredGame

_ = i18n.gettext
log = logging.getLogger("damiera.web")

__all__ = ["ComputerTurns"]


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


class ComputerTurns(GameRecords):
    """The computer's moves of the games of :class:`GameRecords` (see the module
    docstring)."""

    @staticmethod
    def computer_to_move(stored: StoredGame, game: Game) -> bool:
        """Whether it is the computer's turn in ``stored`` (``game`` rebuilt): a game
        against it, not over on the board or the clock."""
        return (
            stored.opponent == "computer"
            and game.outcome() is None
            and not clocks.ended_on_time(stored)
            and game.turn.word != stored.side
        )

    async def computer_reply(self, stored: StoredGame, game: Game) -> Move:
        """The computer's move in ``game`` (``stored`` rebuilt), searched now and played on
        ``game``: in a timed game within the share of its clock that the engine's clock
        management plans for a move (:func:`clocks.move_share`), at most its level's own time,
        less the wait for a worker. Raises Conflict when the game changed before a worker was
        free."""

        async def unchanged() -> bool:   # checked when a worker is free, before the search
            return stored.version == 0 or (await self.load(stored.id)).version == stored.version

        ask = (Ask(stored.computer_job, stored.id, stored.version)
               if stored.computer_job is not None else None)
        level = stored.level or 1
        asked_at = time.time()
        movetime = clocks.move_share(stored)
        if movetime is not None and stored.engine is None and level in LEVELS:
            movetime = min(movetime, LEVELS[level].movetime)   # never longer than untimed
        try:
            move = await self.computer.choose(
                stored.variant, stored.optional_capture, game.positions, level,
                still_wanted=unchanged, engine=stored.engine, ask=ask, movetime=movetime,
                asked_at=None if movetime is None else asked_at,
            )
        except GameChanged:
            raise Conflict(_("the game was changed by another request; reload it")) from None
        game.play(move)
        return move

    async def reply_and_save(self, stored: StoredGame, game: Game) -> tuple[StoredGame, Game]:
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
                await self.computer_reply(stored, game)
            finally:
                lease.cancel()
            thinking.clear(stored)
            if clocks.flag_due(stored):   # its time ran out while it searched: no move then
                return await self._flag_fell(stored)
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

    async def _flag_fell(self, stored: StoredGame) -> tuple[StoredGame, Game]:
        """Record the computer's fallen flag in ``stored`` (its pending move cleared) instead
        of its move; the game as it then is (another request's version if one recorded it
        first)."""
        try:
            stored = await asyncio.to_thread(self.record_flag, stored)
        except ConflictError:
            stored = await self.load(stored.id)
        return stored, self.rebuild(stored)

    async def reply_error(self, game_id: str, exc: Exception) -> Exception:
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
        if not self.computer_to_move(stored, game):
            if version is not None and stored.version > version:
                return self.mine(stored, game, player)
            raise Conflict(_("it is not the computer's turn"))
        for _attempt in range(3):
            if thinking.pending(stored):
                stored = await thinking.wait_until_played(self._look, stored)
                game = self.rebuild(stored)
                if not self.computer_to_move(stored, game) or thinking.pending(stored):
                    return self.mine(stored, game, player)
            asked = await self._ask_once(stored, game)
            if asked is not None:
                try:
                    stored, game = await self.reply_and_save(asked, game)
                except (Conflict, NotFoundError):   # NotFoundError: deleted meanwhile
                    raise
                except Exception as exc:  # noqa: BLE001 - the game waits for the reply
                    raise await self.reply_error(game_id, exc) from None
                return self.mine(stored, game, player)
            stored = await self.load(game_id)        # another request asked first
            game = self.rebuild(stored)
            if not self.computer_to_move(stored, game):
                return self.mine(stored, game, player)
        raise Conflict(_("the game was changed by another request; reload it"))

    async def _look(self, game_id: str) -> StoredGame:
        """The stored game, its pending move stored first if its result is there to read."""
        stored = await self.load(game_id)
        return await self.collect(stored) if thinking.pending(stored) else stored

    async def collect(self, stored: StoredGame) -> StoredGame:
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

