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

from dataclasses import dataclass
from datetime import UTC, datetime

from glicko2 import Player  # type: ignore[import-untyped]
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from damiera.web.store import GameStore, storage_errors
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
    """Ratings in the site's store (its sessions; writes queued with the store's own)."""

    def __init__(self, store: GameStore):
        self.store = store

    @storage_errors
    def player(self, player: str, variant: str) -> Rating:
        """The player's rating in a rule set (a new player's when it has none)."""
        with self.store.reading() as session:
            return _player_rating(session, player, variant)

    @storage_errors
    def puzzles(self, variant: str) -> dict[str, Rating]:
        """The ratings of the rule set's puzzles that someone has tried."""
        with self.store.reading() as session:
            rows = session.scalars(select(PuzzleRatingRow)
                                   .where(PuzzleRatingRow.variant == variant))
            return {r.puzzle_id: _rating(r) for r in rows}

    @storage_errors
    def puzzle(self, puzzle_id: str, shipped: int) -> Rating:
        """One puzzle's rating (``shipped``: its starting rating, while nobody tried it)."""
        with self.store.reading() as session:
            return _puzzle_rating(session, puzzle_id, shipped)

    @storage_errors
    def tried(self, player: str, variant: str) -> set[str]:
        """The ids of the puzzles this player has tried in a rule set."""
        with self.store.reading() as session:
            return set(session.scalars(
                select(PuzzleAttemptRow.puzzle_id).where(
                    PuzzleAttemptRow.player == player, PuzzleAttemptRow.variant == variant)))

    @storage_errors
    def record(self, player: str, variant: str, puzzle_id: str, shipped: int,
               solved: bool) -> Attempt:
        """Rate the player's attempt at a puzzle (only its first: a later one changes
        nothing and says ``rated`` False). One transaction."""
        now = datetime.now(UTC)
        try:
            with self.store.transaction() as session:
                me = _player_rating(session, player, variant)
                it = _puzzle_rating(session, puzzle_id, shipped)
                if session.get(PuzzleAttemptRow, (player, puzzle_id)) is not None:
                    return Attempt(False, me, me, it, it)
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


def _rating(row: PlayerRatingRow | PuzzleRatingRow) -> Rating:
    return Rating(row.rating, row.deviation, row.volatility, row.attempts)


def _player_rating(session: Session, player: str, variant: str) -> Rating:
    row = session.get(PlayerRatingRow, (player, variant))
    return NEW_PLAYER if row is None else _rating(row)


def _puzzle_rating(session: Session, puzzle_id: str, shipped: int) -> Rating:
    row = session.get(PuzzleRatingRow, puzzle_id)
    return Rating(float(shipped), PUZZLE_DEVIATION) if row is None else _rating(row)
