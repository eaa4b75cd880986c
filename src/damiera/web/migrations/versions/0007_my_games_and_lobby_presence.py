""""My games" by seat, and challenges that end when their creator leaves the lobby.

A browser's games are those it created (``owner``) or holds a seat in (``white_seat``,
``black_seat``: a game joined by an invitation link, a challenge accepted or created, a
rematch), newest first (:mod:`damiera.web.my_games`): one index on each of the three columns
with ``updated_at`` (the owner's replaces the index on ``owner`` alone). ``challenges`` gets
``creator_seen_at``, when its creator's lobby page was last known open
(:mod:`damiera.web.lobby.presence`; NULL in older challenges). Indexes and columns a store
already has are left as they are.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None

#: The new indexes of ``games``: name -> columns.
INDEXES = {
    "ix_games_owner_updated_at": ["owner", "updated_at"],
    "ix_games_white_seat_updated_at": ["white_seat", "updated_at"],
    "ix_games_black_seat_updated_at": ["black_seat", "updated_at"],
}


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    have = {i["name"] for i in inspector.get_indexes("games")}
    if "ix_games_owner" in have:
        op.drop_index("ix_games_owner", table_name="games")
    for name, columns in INDEXES.items():
        if name not in have:
            op.create_index(name, "games", columns)
    if "creator_seen_at" not in {c["name"] for c in inspector.get_columns("challenges")}:
        op.add_column("challenges", sa.Column("creator_seen_at", sa.DateTime(timezone=True),
                                              nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("challenges") as batch:
        batch.drop_column("creator_seen_at")
    for name in INDEXES:
        op.drop_index(name, table_name="games")
    op.create_index("ix_games_owner", "games", ["owner"])
