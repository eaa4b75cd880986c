"""What the two players of a game online do besides moving: join by the invitation link,
set a display name, offer a draw, ask for a takeback, abort, claim after the opponent left,
offer a rematch.

Every change is one stored version of the game (:meth:`GameService.save`: optimistic, so
two answers sent at once never both land) and so one live event. Each needs the caller's
seat (the side it acts for is the one it holds) and, given ``version``, refuses with 409
when the game changed since. A request without ``version`` whose write lost the race to
another request's is read and decided again (up to :data:`RETRIES` times), so two draw
offers crossing make a draw: the second offer finds the first and accepts it. The rules of each (when it may be asked, what it does) are in
the methods' docstrings; what stands between two requests is in ``offers``
(:mod:`damiera.web.live.state`).

Claims: when the opponent's page has been gone (:mod:`damiera.web.live.presence`) for
``claim_after`` seconds while its clock runs (it is the opponent's turn, and both sides have
moved: before that no clock runs, and the game may be aborted instead), the player may claim
the win (reason ``abandoned``) or a draw (``abandoned-draw``). Aborting (reason
``aborted``, no result) is allowed while either side has not moved yet.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

from damiera.rules.game import Game
from damiera.web import i18n, seats
from damiera.web.errors import BadRequest, ChangedMeanwhile, Conflict
from damiera.web.game_records import record
from damiera.web.games import GameService
from damiera.web.live.invitations import SECRET_PATTERN
from damiera.web.live.names import check_name
from damiera.web.live.presence import Presence, away_since
from damiera.web.live.state import can_abort, offers_of, other, ready, start_ply
from damiera.web.new_game import NewGame, new_game
from damiera.web.results import (
    ABANDONED_DRAW_REASON,
    ABANDONED_REASON,
    ABORTED_REASON,
    ended_off_board,
    stored_result_text,
)
from damiera.web.store import NotFoundError, StorageError, StoredGame

_ = i18n.gettext

T = TypeVar("T")

#: Times a request without a version is decided again after losing a race to another.
RETRIES = 5

ACTIONS = {
    "draw": ("offer", "accept", "decline", "withdraw"),
    "takeback": ("request", "accept", "decline", "withdraw"),
    "rematch": ("offer", "accept", "decline"),
}


async def _decided_again(version: int | None, attempt: Callable[[], Awaitable[T]]) -> T:
    """``attempt()`` (one read-decide-write), done again when its write lost the race
    (:class:`ChangedMeanwhile`) and the caller named no ``version``; a caller that named one
    gets the 409, as do the other conflicts."""
    for _try in range(RETRIES - 1):
        try:
            return await attempt()
        except ChangedMeanwhile:
            if version is not None:
                raise
    return await attempt()


def _plies_back(game: Game, side: str, first: int) -> int | None:
    """Plies a takeback asked by ``side`` takes back: to before its last move (with the
    opponent's reply), None when it has not moved (the game's first ``first`` moves, those
    it began with, are nobody's)."""
    n = len(game.moves)
    for i in range(n - 1, first - 1, -1):
        if game.positions[i].turn.word == side:
            return n - i
    return None


class OnlineActions:
    """The players' actions on games online (see the module docstring). ``claim_after``:
    seconds the opponent must be gone before a claim; ``stale_after``: seconds after which
    an unconfirmed presence counts as gone."""

    def __init__(self, games: GameService, presence: Presence, claim_after: float,
                 stale_after: float):
        self.games = games
        self.presence = presence
        self.claim_after = claim_after
        self.stale_after = stale_after

    # -- the seat ----------------------------------------------------------------------------
    async def join(self, secret: str, player: str, name: str | None = None) -> StoredGame:
        """The game of the invitation ``secret``, its free seat given to ``player`` when
        it has one and the game goes on (its clock waits for both players' first moves:
        :func:`~damiera.web.live.state.hold_clock`); a player of the game, or
        anyone once the seat is taken, gets the game unchanged (to watch). Raises
        NotFoundError (no such invitation), BadRequest (a bad name)."""
        if not SECRET_PATTERN.fullmatch(secret):
            raise NotFoundError("no such invitation")
        key = seats.seat_key(secret)
        try:
            name = check_name(name)
        except ValueError as exc:
            raise BadRequest(str(exc)) from None
        found = await asyncio.to_thread(self.games.store.find_by_invite, key)
        if found is None:
            raise NotFoundError("no such invitation")
        for _attempt in range(3):
            stored = await self.games.load(found.id)      # a fallen flag recorded first
            free = seats.free_side(stored)
            if (free is None or seats.held(stored, player) or stored.result_reason
                    or stored.invite != key):
                return stored
            game = self.games.rebuild(stored)
            if game.outcome() is not None:
                return stored
            setattr(stored, f"{free}_seat", seats.seat_key(player))
            if name is not None:
                setattr(stored, f"{free}_name", name)
            try:
                saved = await self.games.save(stored, game)
            except Conflict:
                continue      # another visitor (or a move) came first: look again
            await self._arrived(saved.id, free)
            return saved
        return await self.games.load(found.id)

    async def join_target(self, secret: str) -> StoredGame:
        """The game of the invitation ``secret``, unchanged (a link preview). Raises
        NotFoundError."""
        found = None
        if SECRET_PATTERN.fullmatch(secret):
            key = seats.seat_key(secret)
            found = await asyncio.to_thread(self.games.store.find_by_invite, key)
        if found is None:
            raise NotFoundError("no such invitation")
        return found

    async def _mine(self, game_id: str, player: str | None,
                    version: int | None) -> tuple[StoredGame, Game, str]:
        """The game, rebuilt, and the side ``player`` holds in it. Raises NotFoundError,
        Conflict (not a game online, or changed since ``version``), Forbidden (a
        watcher)."""
        stored = await self.games.load(game_id)
        if stored.opponent != "online":
            raise Conflict(_("this is not a game between two players online"))
        if version is not None and version != stored.version:
            raise Conflict(_("the game was changed by another request; reload it"))
        mine = seats.held(stored, player)
        if len(mine) != 1:
            raise seats.Forbidden("you are watching this game: only its players may change it")
        return stored, self.games.rebuild(stored), mine[0]

    @staticmethod
    def _refuse_if_over(stored: StoredGame, game: Game) -> None:
        if ended_off_board(stored):
            raise Conflict(_("the game is over: {result}").format(
                result=stored_result_text(stored)))
        if game.outcome() is not None:
            raise Conflict(_("the game is over"))

    async def _store(self, stored: StoredGame, game: Game, offers: dict[str, Any],
                     player: str | None) -> dict[str, Any]:
        kept = start_ply(stored)         # what the game began with outlives any offer
        stored.offers = {**offers, "start_ply": kept} if kept else offers or None
        saved = await self.games.save(stored, game)
        return self.games.mine(saved, game, player)

    async def set_name(self, game_id: str, name: str | None, *, player: str | None,
                       version: int | None = None) -> dict[str, Any]:
        """Set the display name of the caller's side (None or blank: none). Raises
        BadRequest (too long, control characters) and as :meth:`_mine`."""
        try:
            checked = check_name(name)
        except ValueError as exc:
            raise BadRequest(str(exc)) from None

        async def once() -> dict[str, Any]:
            stored, game, side = await self._mine(game_id, player, version)
            setattr(stored, f"{side}_name", checked)
            return await self._store(stored, game, offers_of(stored), player)

        return await _decided_again(version, once)

    # -- offers ------------------------------------------------------------------------------
    async def answer(self, game_id: str, kind: str, action: str, *, player: str | None,
                     version: int | None = None) -> dict[str, Any]:
        """``kind`` ``draw`` (``offer``, ``accept``, ``decline``, ``withdraw``),
        ``takeback`` (``request``, ``accept``, ``decline``, ``withdraw``) or ``rematch``
        (``offer``, ``accept``, ``decline``) by the caller's side. Offering what the
        opponent already offers accepts it. Raises BadRequest (an unknown action),
        Conflict (nothing to answer, the game over or not yet begun), and as
        :meth:`_mine`."""
        if action not in ACTIONS.get(kind, ()):
            raise BadRequest(f"unknown {kind} action {action!r}; one of "
                             f"{', '.join(ACTIONS.get(kind, ()))}")

        async def once() -> dict[str, Any]:
            act = action
            stored, game, side = await self._mine(game_id, player, version)
            offers = offers_of(stored)
            if kind == "rematch":
                return await self._rematch(stored, game, side, act, offers, player)
            self._refuse_if_over(stored, game)
            if not ready(stored):
                raise Conflict(_("wait for your opponent to take the other seat"))
            theirs = offers.get(kind) == other(side)
            if act in ("offer", "request") and theirs:
                act = "accept"
            if act in ("offer", "request"):
                if offers.get(kind) == side:
                    raise Conflict(_("you have already asked; wait for the answer"))
                if kind == "takeback" and _plies_back(game, side, start_ply(stored)) is None:
                    raise Conflict(_("there is no move of yours to take back"))
                offers[kind] = side
            elif act == "withdraw":
                if offers.get(kind) != side:
                    raise Conflict(_("you have nothing to withdraw"))
                offers.pop(kind)
            else:
                if not theirs:
                    raise Conflict(_("your opponent has not asked for that"))
                offers.pop(kind)
                if act == "accept" and kind == "draw":
                    game.agree_draw()
                elif act == "accept":
                    plies = _plies_back(game, other(side), start_ply(stored))
                    if plies is None:
                        raise Conflict(_("there is no move to take back"))
                    game.undo(plies)
                    offers.pop("draw", None)
            return await self._store(stored, game, offers, player)

        return await _decided_again(version, once)

    async def _rematch(self, stored: StoredGame, game: Game, side: str, action: str,
                       offers: dict[str, Any], player: str | None) -> dict[str, Any]:
        """A rematch (colours swapped) once the game is over, from the position this game
        began at (its start and the moves it was created with); its acceptance records the
        new game's id in this one (``rematch_game``), which both pages follow.

        The new game is stored first and named second: the save that names it goes out at
        once on this game's event streams, and the pages that follow it must find it (not a
        404). A name that was surely not stored (this game changed meanwhile, or is gone)
        deletes the new game again; one the database may have stored keeps it."""
        if not ended_off_board(stored) and game.outcome() is None:
            raise Conflict(_("a rematch can be offered once the game is over"))
        if offers.get("rematch_game"):
            raise Conflict(_("the rematch has already begun"))
        theirs = offers.get("rematch") == other(side)
        if action == "offer" and not theirs:
            if offers.get("rematch") == side:
                raise Conflict(_("you have already asked; wait for the answer"))
            offers["rematch"] = side
            return await self._store(stored, game, offers, player)
        if not theirs:
            raise Conflict(_("your opponent has not asked for that"))
        offers.pop("rematch")
        if action == "decline":
            return await self._store(stored, game, offers, player)
        fresh, start = new_game(NewGame(
            variant=stored.variant, opponent="online", side="white",
            optional_capture=stored.optional_capture, fen=stored.start_fen,
            moves=stored.moves[:start_ply(stored)],      # from where this game began
            clock=None if stored.clock is None else
            f"{int(stored.clock['base']) // 60}+{int(stored.clock['increment'])}",
        ), None, self.games.computer.hub)
        fresh.white_seat, fresh.black_seat = stored.black_seat, stored.white_seat
        fresh.white_name, fresh.black_name = stored.black_name, stored.white_name
        fresh.owner = stored.owner
        record(fresh, start)                       # the moves it begins with
        await asyncio.to_thread(self.games.store.create, fresh)
        offers["rematch_game"] = fresh.id
        try:
            answer = await self._store(stored, game, offers, player)
        except (ChangedMeanwhile, NotFoundError):  # not named: nobody can reach it
            try:
                await asyncio.to_thread(self.games.store.delete, fresh.id)
            except (NotFoundError, StorageError):
                pass                               # an orphan: housekeeping's, in time
            raise
        await self._arrived(fresh.id, "white", "black")
        return answer

    async def _arrived(self, game_id: str, *sides: str) -> None:
        """The players of ``sides`` took their seats now: present from now on (their pages
        are on the way), so that until they open the game, they count as gone since now,
        not since the game began. A failing database only costs that."""
        for side in sides:
            try:
                await self.presence.mark(game_id, side, True)
            except StorageError:
                pass

    # -- ending without the board ----------------------------------------------------------------
    async def abort(self, game_id: str, *, player: str | None,
                    version: int | None = None) -> dict[str, Any]:
        """End the game with no result while either side has not moved yet. Raises
        Conflict (moves played, or over) and as :meth:`_mine`."""
        async def once() -> dict[str, Any]:
            stored, game, _side = await self._mine(game_id, player, version)
            self._refuse_if_over(stored, game)
            if not can_abort(stored, len(game.moves)):
                raise Conflict(_("both sides have moved: the game can no longer be aborted"))
            stored.result_winner, stored.result_reason = None, ABORTED_REASON
            return await self._store(stored, game, {}, player)

        return await _decided_again(version, once)

    async def claim(self, game_id: str, result: str, *, player: str | None,
                    version: int | None = None) -> dict[str, Any]:
        """Claim the win (``result`` ``"win"``) or a draw (``"draw"``) when the opponent's
        page has been gone for ``claim_after`` seconds on its turn. Raises BadRequest,
        Conflict (the opponent is here, not long enough, your turn) and as
        :meth:`_mine`."""
        if result not in ("win", "draw"):
            raise BadRequest(f"result must be 'win' or 'draw', not {result!r}")
        async def once() -> dict[str, Any]:
            stored, game, side = await self._mine(game_id, player, version)
            self._refuse_if_over(stored, game)
            if not ready(stored):
                raise Conflict(_("wait for your opponent to take the other seat"))
            if game.turn.word == side:
                raise Conflict(_("it is your move: the game waits for you, not your opponent"))
            wait = await self.claim_wait(stored, other(side))
            if wait is None:
                raise Conflict(_("your opponent is here"))
            if can_abort(stored, len(game.moves)):
                raise Conflict(_("the game has not begun, since a side has not moved yet: "
                                 "abort it instead of claiming it"))
            if wait > 0:
                raise Conflict(_("your opponent left only now: you may claim in {n} s").format(
                    n=math.ceil(wait)))
            if result == "win":
                stored.result_winner, stored.result_reason = side, ABANDONED_REASON
            else:
                stored.result_winner, stored.result_reason = None, ABANDONED_DRAW_REASON
            return await self._store(stored, game, {}, player)

        return await _decided_again(version, once)

    async def claim_wait(self, stored: StoredGame, side: str) -> float | None:
        """Seconds until the player of ``side`` has been gone long enough for a claim (0:
        now), None while it is here."""
        now = datetime.now(UTC)
        seat = (await self.presence.read(stored.id)).get(side)
        gone = away_since(seat, now, self.stale_after, stored.created_at)
        if gone is None:
            return None
        return max(0.0, self.claim_after - (now - gone).total_seconds())


__all__ = ["ACTIONS", "OnlineActions"]
