"""A stored game and its rules-core Game: rebuilt, shown as JSON, stored back.

The web layer is thin: a stored game (:class:`~damiera.web.store.StoredGame`) is turned into a
rules-core :class:`~damiera.rules.game.Game` by replaying its moves from its start FEN; every
change is made on that Game (so every rule, refusal and result comes from the rules core) and
written back in one transaction. :class:`GameRecords` holds the store, the computer pool and a
cache of rebuilt games and their JSON (:class:`~damiera.web.game_cache.GameCache`); the
computer's turn builds on it (:mod:`damiera.web.computer_turn`), and the game service on
that (:mod:`damiera.web.games`). JSON shapes are in :mod:`damiera.web.serialization`, result
sentences in :mod:`damiera.web.results`; ``mine`` adds ``seats``, the sides the caller's
player token holds (:mod:`damiera.web.seats`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from damiera.rules.game import Game, ResultReason
from damiera.rules.variant import Variant, variant
from damiera.web import clocks, i18n, seats, thinking
from damiera.web.computer import ComputerPool
from damiera.web.errors import ChangedMeanwhile
from damiera.web.game_cache import GameCache
from damiera.web.game_views import movers
from damiera.web.live import state as online
from damiera.web.live.invitations import invite_url_for
from damiera.web.results import color_of, ended_off_board, localize_result, off_board_result
from damiera.web.serialization import game_json
from damiera.web.store import ConflictError, GameStore, StorageError, StoredGame

_ = i18n.gettext

__all__ = ["GameRecords", "record", "undo_plies"]

#: Results that end a game by the players' decision: they cannot be taken back.
_FINAL_REASONS = (ResultReason.RESIGNATION, ResultReason.AGREEMENT)


def record(stored: StoredGame, game: Game) -> None:
    """Copy the moves and result of ``game`` into ``stored``, its clock charged (a result
    decided off the board, already in ``stored``, is kept); a game online's clock waits
    for both players' first moves (:func:`damiera.web.live.state.hold_clock`)."""
    clocks.charge(stored, movers(game), game.outcome() is not None or ended_off_board(stored))
    stored.moves = game.history()
    if ended_off_board(stored):
        return
    result = game.outcome()
    stored.result_winner = result.winner.word if result and result.winner else None
    stored.result_reason = result.reason.value if result else None
    online.hold_clock(stored, len(stored.moves))


def undo_plies(stored: StoredGame, game: Game) -> int | None:
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


class GameRecords:
    """Stored games rebuilt, shown and stored back (see the module docstring); async methods
    keep the event loop free (the store runs in threads)."""

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
        data = game_json(stored, game, can_undo=undo_plies(stored, game) is not None
                         and stored.opponent != "online")
        if stored.opponent == "online":
            data["online"] = online.online_json(stored, len(game.moves),
                                                game.outcome() is not None, game.turn.word)
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
                stored = await asyncio.to_thread(self.record_flag, stored)
            except ConflictError:   # another request got there first: take its version
                stored = await asyncio.to_thread(self.store.load, game_id)
        return stored

    def record_flag(self, stored: StoredGame) -> StoredGame:
        """Record the fallen flag of ``stored`` (its verdict: :func:`clocks.flag_verdict`,
        a search: call in a thread) and save it. Raises ConflictError, StorageError."""
        game = self.replay(stored)
        clocks.record_flag(stored, clocks.flag_verdict(game.variant, game.position))
        thinking.clear(stored)   # a search under way for the side out of time is not wanted
        return self.store.save(stored)

    async def save(self, stored: StoredGame, game: Game) -> StoredGame:
        """Store ``stored`` with the moves and result of ``game`` (its clock charged) if
        nobody changed it since it was loaded; returns the stored copy. Raises
        ChangedMeanwhile (a Conflict), StorageError (saying the change was not stored),
        NotFoundError."""
        record(stored, game)
        try:
            saved = await asyncio.to_thread(self.store.save, stored)
        except ConflictError:
            raise ChangedMeanwhile(
                _("the game was changed by another request; reload it")) from None
        except StorageError as exc:
            raise StorageError(f"the database failed ({exc.why}): this change was not stored; "
                               "try again", why=exc.why) from None
        self._cache.put(saved, game)
        return saved

    # -- the caller's view ----------------------------------------------------------------------
    def mine(self, stored: StoredGame, game: Game | None, player: str | None) -> dict[str, Any]:
        """:meth:`to_json` with ``seats``: the sides whose seat ``player`` holds, and in a
        game online whose other seat is free, for its creator, ``invite_url``
        (:mod:`damiera.web.live.invitations`)."""
        data = {**self.to_json(stored, game), "seats": seats.held(stored, player)}
        if stored.opponent == "online":
            data["invite_url"] = (invite_url_for(stored.id, stored.invite, player)
                                  if seats.free_side(stored) else None)
        return data
