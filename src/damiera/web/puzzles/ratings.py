"""Glicko-2 ratings of puzzles and of players (per browser and rule set), kept in the store.

Each first attempt at a puzzle is one game between the player and the puzzle: the player
wins when it solves it. Both ratings are updated at once from their values before the
attempt, with the ``glicko2`` package (Glickman's Glicko-2, one rating period per attempt,
as puzzle sites do). A player starts at 1500 ± 350 (volatility 0.06); a puzzle at its
shipped starting rating ± :data:`PUZZLE_DEVIATION`. Later attempts at a puzzle already tried
are not rated (a solution seen once is known).

The tables are the store's (:class:`~damiera.web.store_tables.PuzzleRatingRow`,
:class:`~damiera.web.store_tables.PlayerRatingRow`, :class:`~damiera.web.store_tables.PuzzleAttemptRow`);
an attempt is written in one transaction (the attempt row's primary key makes a second one
for the same browser and puzzle fail, so two requests at once rate it once).
"""

from __future__ import annotations

import threading
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime

from glicko2 import Player  # type: ignore[import-untyped]
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from damiera.web.store import GameStore, StorageError
from damiera.web.store_tables import PlayerRatingRow, PuzzleAttemptRow, PuzzleRatingRow

START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
#: A puzzle's deviation before anyone tried it (its starting rating is an estimate).
PUZZLE_DEVIATION = 200.0
#: Deviations never fall below this (a rating keeps moving a little).
MIN_DEVIATION = 45.0


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating: ``rating`` and ``deviation`` in rating points, ``volatility``,
    ``attempts`` (rated attempts so far)."""

    rating: float
    deviation: float
    volatility: float = START_VOLATILITY
    attempts: int = 0

    def json(self) -> dict[str, float | int]:
        return {"rating": round(self.rating), "deviation": round(self.deviation),
                "attempts": self.attempts}


NEW_PLAYER = Rating(START_RATING, START_DEVIATION)


def rate(player: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """Both ratings after one attempt (the player wins when it ``solved`` the puzzle)."""
    p = Player(player.rating, player.deviation, player.volatility)
    q = Player(puzzle.rating, puzzle.deviation, puzzle.volatility)
    p.update_player([puzzle.rating], [puzzle.deviation], [1 if solved else 0])
    q.update_player([player.rating], [player.deviation], [0 if solved else 1])
    return (Rating(p.rating, max(MIN_DEVIATION, p.rd), p.vol, player.attempts + 1),
            Rating(q.rating, max(MIN_DEVIATION, q.rd), q.vol, puzzle.attempts + 1))


@dataclass(frozen=True)
class Attempt:
    """What a rated attempt did: the ratings ``before`` and ``after`` for the player and
    the puzzle; ``rated`` False when the browser had tried the puzzle before (nothing
    changed)."""

    rated: bool
    player_before: Rating
    player_after: Rating
    puzzle_before: Rating
    puzzle_after: Rating


class RatingStore:
    """Ratings in the site's store (same database and engine as its games)."""

    def __init__(self, store: GameStore):
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)
        self._lock: AbstractContextManager[object] = (
            threading.Lock() if store.url.startswith("sqlite") else nullcontext())

    def player(self, player: str, variant: str) -> Rating:
        """The player's rating in a rule set (a new player's when it has none)."""
        try:
            with self._sessions() as session:
                row = session.get(PlayerRatingRow, (player, variant))
        except SQLAlchemyError as exc:
            raise StorageError(f"the database failed: {_why(exc)}") from exc
        if row is None:
            return NEW_PLAYER
        return Rating(row.rating, row.deviation, row.volatility, row.attempts)

    def puzzles(self, variant: str) -> dict[str, Rating]:
        """The ratings of the rule set's puzzles that someone has tried."""
        try:
            with self._sessions() as session:
                rows = session.scalars(select(PuzzleRatingRow)
                                       .where(PuzzleRatingRow.variant == variant))
                return {r.puzzle_id: Rating(r.rating, r.deviation, r.volatility, r.attempts)
                        for r in rows}
        except SQLAlchemyError as exc:
            raise StorageError(f"the database failed: {_why(exc)}") from exc

    def puzzle(self, puzzle_id: str, shipped: int) -> Rating:
        """One puzzle's rating (``shipped``: its starting rating, while nobody tried it)."""
        try:
            with self._sessions() as session:
                row = session.get(PuzzleRatingRow, puzzle_id)
        except SQLAlchemyError as exc:
            raise StorageError(f"the database failed: {_why(exc)}") from exc
        if row is None:
            return Rating(float(shipped), PUZZLE_DEVIATION)
        return Rating(row.rating, row.deviation, row.volatility, row.attempts)

    def tried(self, player: str, variant: str) -> set[str]:
        """The ids of the puzzles this player has tried in a rule set."""
        try:
            with self._sessions() as session:
                return set(session.scalars(
                    select(PuzzleAttemptRow.puzzle_id).where(
                        PuzzleAttemptRow.player == player, PuzzleAttemptRow.variant == variant)))
        except SQLAlchemyError as exc:
            raise StorageError(f"the database failed: {_why(exc)}") from exc

    def record(self, player: str, variant: str, puzzle_id: str, shipped: int,
               solved: bool) -> Attempt:
        """Rate the player's attempt at a puzzle (only its first: a later one changes
        nothing and says ``rated`` False). One transaction."""
        now = datetime.now(UTC)
        try:
            with self._lock, self._sessions.begin() as session:
                if session.get(PuzzleAttemptRow, (player, puzzle_id)) is not None:
                    me = self._player_row(session, player, variant)
                    it = self._puzzle_row(session, puzzle_id, variant, shipped)
                    return Attempt(False, me, me, it, it)
                me = self._player_row(session, player, variant)
                it = self._puzzle_row(session, puzzle_id, variant, shipped)
                me_after, it_after = rate(me, it, solved)
                session.add(PuzzleAttemptRow(player=player, puzzle_id=puzzle_id,
                                             variant=variant, solved=solved, created_at=now))
                session.merge(PlayerRatingRow(
                    player=player, variant=variant, rating=me_after.rating,
                    deviation=me_after.deviation, volatility=me_after.volatility,
                    attempts=me_after.attempts, updated_at=now))
                session.merge(PuzzleRatingRow(
                    puzzle_id=puzzle_id, variant=variant, rating=it_after.rating,
                    deviation=it_after.deviation, volatility=it_after.volatility,
                    attempts=it_after.attempts, updated_at=now))
                return Attempt(True, me, me_after, it, it_after)
        except IntegrityError:      # the same attempt rated by another request meanwhile
            me = self.player(player, variant)
            it = self.puzzle(puzzle_id, shipped)
            return Attempt(False, me, me, it, it)
        except SQLAlchemyError as exc:
            raise StorageError(f"the database failed: {_why(exc)}") from exc

    @staticmethod
    def _player_row(session: Session, player: str, variant: str) -> Rating:
        row = session.get(PlayerRatingRow, (player, variant))
        if row is None:
            return NEW_PLAYER
        return Rating(row.rating, row.deviation, row.volatility, row.attempts)

    @staticmethod
    def _puzzle_row(session: Session, puzzle_id: str, variant: str, shipped: int) -> Rating:
        row = session.get(PuzzleRatingRow, puzzle_id)
        if row is None:
            return Rating(float(shipped), PUZZLE_DEVIATION)
        return Rating(row.rating, row.deviation, row.volatility, row.attempts)


def _why(exc: BaseException) -> str:
    return str(getattr(exc, "orig", None) or exc).splitlines()[0][:200]
