"""Games between two browsers: the invitation link's secret (its SHA-256) and each side's
display name and standing offers on ``games``; the lobby's ``challenges``; the players'
``seat_presence`` (whether each player's page is open). NULL in older games.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    have = {c["name"] for c in inspector.get_columns("games")}
    if "invite" not in have:
        op.add_column("games", sa.Column("invite", sa.String(64), nullable=True))
        op.create_index("ix_games_invite", "games", ["invite"])
    for name in ("white_name", "black_name"):
        if name not in have:
            op.add_column("games", sa.Column(name, sa.String(32), nullable=True))
    if "offers" not in have:
        op.add_column("games", sa.Column("offers", sa.JSON, nullable=True))
    if not inspector.has_table("challenges"):
        op.create_table(
            "challenges",
            sa.Column("id", sa.String(16), primary_key=True),
            sa.Column("variant", sa.String(32), nullable=False),
            sa.Column("optional_capture", sa.Boolean, nullable=False),
            sa.Column("clock", sa.String(20), nullable=True),
            sa.Column("side", sa.String(8), nullable=False),
            sa.Column("creator", sa.String(64), nullable=False),
            sa.Column("creator_name", sa.String(32), nullable=True),
            sa.Column("client", sa.String(64), nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("status", sa.String(12), nullable=False),
            sa.Column("game_id", sa.String(32), nullable=True),
        )
        op.create_index("ix_challenges_client", "challenges", ["client"])
        op.create_index("ix_challenges_expires_at", "challenges", ["expires_at"])
        op.create_index("ix_challenges_status", "challenges", ["status"])
    if not inspector.has_table("seat_presence"):
        op.create_table(
            "seat_presence",
            sa.Column("game_id", sa.String(32), primary_key=True),
            sa.Column("side", sa.String(8), primary_key=True),
            sa.Column("online", sa.Boolean, nullable=False),
            sa.Column("since", sa.DateTime(timezone=True), nullable=False),
            sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        )
        op.create_index("ix_seat_presence_seen_at", "seat_presence", ["seen_at"])


def downgrade() -> None:
    op.drop_table("seat_presence")
    op.drop_table("challenges")
    op.drop_index("ix_games_invite", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("offers")
        batch.drop_column("black_name")
        batch.drop_column("white_name")
        batch.drop_column("invite")
