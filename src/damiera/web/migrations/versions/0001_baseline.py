"""Baseline: the games table as the first release made it (before seats, clocks and Hub
engines).

A store made before migrations existed (by ``create_all``, no ``alembic_version`` table) is
stamped with this revision and upgraded from here: the later revisions add only the columns it
lacks (:func:`damiera.web.migrate.upgrade`).

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("optional_capture", sa.Boolean(), nullable=False),
        sa.Column("opponent", sa.String(16), nullable=False),
        sa.Column("level", sa.Integer(), nullable=True),
        sa.Column("side", sa.String(8), nullable=False),
        sa.Column("start_fen", sa.String(400), nullable=True),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("result_winner", sa.String(8), nullable=True),
        sa.Column("result_reason", sa.String(32), nullable=True),
        sa.Column("owner", sa.String(64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_index("ix_games_owner", "games", ["owner"])
    op.create_index("ix_games_updated_at", "games", ["updated_at"])


def downgrade() -> None:
    op.drop_table("games")
