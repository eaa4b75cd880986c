"""The store's tables: one SQLAlchemy declarative class a table, as the newest schema revision
makes them (:mod:`damiera.web.migrations`).

Games (:class:`GameRow`, read and written through :class:`damiera.web.store.GameStore`), the
periodic tasks' rounds (:class:`TaskRow`), the lobby's open challenges (:class:`ChallengeRow`),
players' presence on games online (:class:`PresenceRow`), and the puzzles' Glicko-2 ratings and
first attempts (:class:`PuzzleRatingRow`, :class:`PlayerRatingRow`, :class:`PuzzleAttemptRow`).
Every time column holds UTC.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, Index, Integer, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

#: Longest game id the table holds.
MAX_GAME_ID = 32


class _Base(DeclarativeBase):
    pass


#: Longest ``variant`` column value: a rule set's canonical id with its options
#: (:attr:`damiera.rules.variant.Variant.full_id`; revision 0009).
MAX_VARIANT_ID = 64

#: The store's tables, as the newest schema revision makes them (damiera/web/migrations/).
METADATA = _Base.metadata


class GameRow(_Base):
    """One game (see the module docstring for the meaning of each column)."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(MAX_GAME_ID), primary_key=True)
    variant: Mapped[str] = mapped_column(String(MAX_VARIANT_ID))
    optional_capture: Mapped[bool] = mapped_column(default=False)
    #: "computer" or "friend".
    opponent: Mapped[str] = mapped_column(String(16))
    #: Computer level 1-3 (None in friend games).
    level: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: The human's side against the computer; the side at the bottom in friend games.
    side: Mapped[str] = mapped_column(String(8))
    start_fen: Mapped[str | None] = mapped_column(String(400), nullable=True)
    moves: Mapped[list[str]] = mapped_column(JSON, default=list)
    #: "white", "black", or None (a draw, or no result yet: see ``result_reason``).
    result_winner: Mapped[str | None] = mapped_column(String(8), nullable=True)
    #: A :class:`damiera.rules.game.ResultReason` value, or None while the game goes on.
    result_reason: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: SHA-256 (hex) of the player token of the browser that created the game ("my games";
    #: :func:`damiera.web.seats.owner_key`): never the token itself.
    owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: SHA-256 (hex) of the player token holding each side's seat; None: nobody's (the
    #: computer's side).
    white_seat: Mapped[str | None] = mapped_column(String(64), nullable=True)
    black_seat: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    #: The clock of a timed game (None: untimed), as :mod:`damiera.web.clocks` describes.
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: Against the computer: the name of the Hub engine that plays (``damiera serve
    #: --hub-engine``), or None for Damiera's own engine at ``level``.
    engine: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: Against the computer: the id of the search asked for the computer's move now (None:
    #: none asked; :mod:`damiera.web.thinking`), and when it was asked.
    computer_job: Mapped[str | None] = mapped_column(String(40), nullable=True)
    computer_asked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True),
                                                               nullable=True)
    #: A game between two browsers (opponent "online"): the SHA-256 of its invitation
    #: link's secret (:mod:`damiera.web.live.invitations`), each side's display name, and the
    #: offers standing (``{"draw": side, "takeback": side, "rematch": side, "rematch_game":
    #: id}``, :mod:`damiera.web.live.offers`).
    invite: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    white_name: Mapped[str | None] = mapped_column(String(32), nullable=True)
    black_name: Mapped[str | None] = mapped_column(String(32), nullable=True)
    offers: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012 - SQLAlchemy's own hook
    #: "My games" of a browser: its games as creator or by either seat, newest first
    #: (:mod:`damiera.web.my_games`), each read from an index in that order.
    __table_args__ = (
        Index("ix_games_owner_updated_at", "owner", "updated_at"),
        Index("ix_games_white_seat_updated_at", "white_seat", "updated_at"),
        Index("ix_games_black_seat_updated_at", "black_seat", "updated_at"),
    )


class TaskRow(_Base):
    """When the site's periodic task ``name`` is next due (:meth:`GameStore.claim_task`):
    shared by every web process on the database, so that one of them runs it each round."""

    __tablename__ = "site_tasks"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChallengeRow(_Base):
    """An open challenge of the lobby (:mod:`damiera.web.lobby.challenges`): the game it
    offers, who made it (the SHA-256 of the player token, and the client address it counts
    against), until when it is open, and the game its acceptance started."""

    __tablename__ = "challenges"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    variant: Mapped[str] = mapped_column(String(MAX_VARIANT_ID))
    optional_capture: Mapped[bool] = mapped_column(default=False)
    #: Time control "M+S", or None (no clock).
    clock: Mapped[str | None] = mapped_column(String(20), nullable=True)
    #: The creator's side: "white", "black" or "random".
    side: Mapped[str] = mapped_column(String(8))
    creator: Mapped[str] = mapped_column(String(64))
    creator_name: Mapped[str | None] = mapped_column(String(32), nullable=True)
    client: Mapped[str] = mapped_column(String(64), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    #: "open", "accepted" or "cancelled".
    status: Mapped[str] = mapped_column(String(12), index=True)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: When its creator's lobby page was last known open (its lobby event stream:
    #: :mod:`damiera.web.lobby.presence`); None in challenges made before it was kept.
    creator_seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True),
                                                             nullable=True)


class PresenceRow(_Base):
    """Whether a player's page of a game is open (:mod:`damiera.web.live.presence`): a row a
    side, ``online`` since ``since``, last confirmed at ``seen_at`` by the web process that
    holds its event stream."""

    __tablename__ = "seat_presence"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    side: Mapped[str] = mapped_column(String(8), primary_key=True)
    online: Mapped[bool] = mapped_column(default=False)
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class _GlickoColumns:
    """A Glicko-2 rating (:mod:`damiera.web.puzzles.ratings`): ``rating`` and ``deviation``
    in rating points, ``volatility``, ``attempts`` (rated ones), when it last moved."""

    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PuzzleRatingRow(_GlickoColumns, _Base):
    """A puzzle's rating once someone has tried it (before that the shipped starting rating
    stands)."""

    __tablename__ = "puzzle_ratings"

    puzzle_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    variant: Mapped[str] = mapped_column(String(48), index=True)


class PlayerRatingRow(_GlickoColumns, _Base):
    """A browser's puzzle rating in one rule set (``player``: the SHA-256 of its player
    token, as seats keep it)."""

    __tablename__ = "player_ratings"

    player: Mapped[str] = mapped_column(String(64), primary_key=True)
    variant: Mapped[str] = mapped_column(String(48), primary_key=True)


class PuzzleAttemptRow(_Base):
    """A browser's first attempt at a puzzle (the one that moved the ratings): ``solved``."""

    __tablename__ = "puzzle_attempts"

    player: Mapped[str] = mapped_column(String(64), primary_key=True)
    puzzle_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    variant: Mapped[str] = mapped_column(String(48))
    solved: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
