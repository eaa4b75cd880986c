"""The clock of a timed game (JSON, :mod:`damiera.web.clocks`) and the Hub engine that plays
for the computer (:mod:`damiera.web.hub_engines`); NULL in older games (untimed, Damiera's own
engine). Columns a store already has are left as they are.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    have = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("games")}
    if "clock" not in have:
        op.add_column("games", sa.Column("clock", sa.JSON(), nullable=True))
    if "engine" not in have:
        op.add_column("games", sa.Column("engine", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("engine")
        batch.drop_column("clock")
