"""Puzzle ratings: ``puzzle_ratings`` (a puzzle's Glicko-2 rating once tried),
``player_ratings`` (a browser's rating per rule set) and ``puzzle_attempts`` (a browser's
first attempt at each puzzle): :mod:`damiera.web.puzzles.ratings`. Tables a store already
has (one made by ``create_all``) are left as they are.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    have = set(sa.inspect(op.get_bind()).get_table_names())
    if "puzzle_ratings" not in have:
        _puzzle_ratings()
    if "player_ratings" not in have:
        _player_ratings()
    if "puzzle_attempts" not in have:
        _puzzle_attempts()


def _glicko_columns() -> list[sa.Column[object]]:
    """A Glicko-2 rating's columns, as both rating tables have them."""
    return [sa.Column(name, kind, nullable=False) for name, kind in (
        ("rating", sa.Float), ("deviation", sa.Float), ("volatility", sa.Float),
        ("attempts", sa.Integer), ("updated_at", sa.DateTime(timezone=True)))]


def _puzzle_ratings() -> None:
    op.create_table(
        "puzzle_ratings",
        sa.Column("puzzle_id", sa.String(32), primary_key=True),
        sa.Column("variant", sa.String(48), nullable=False),
        *_glicko_columns(),
    )
    op.create_index("ix_puzzle_ratings_variant", "puzzle_ratings", ["variant"])


def _player_ratings() -> None:
    op.create_table(
        "player_ratings",
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("variant", sa.String(48), primary_key=True),
        *_glicko_columns(),
    )


def _puzzle_attempts() -> None:
    op.create_table(
        "puzzle_attempts",
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("puzzle_id", sa.String(32), primary_key=True),
        sa.Column("variant", sa.String(48), nullable=False),
        sa.Column("solved", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("puzzle_attempts")
    op.drop_table("player_ratings")
    op.drop_index("ix_puzzle_ratings_variant", table_name="puzzle_ratings")
    op.drop_table("puzzle_ratings")
