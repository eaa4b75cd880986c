"""Stateless web processes: the computer's pending move kept with each game
(``computer_job``, ``computer_asked_at``: :mod:`damiera.web.thinking`; NULL: none asked), and
the ``site_tasks`` table of periodic tasks' due times
(:meth:`damiera.web.store.GameStore.claim_task`). Columns and tables a store already has are
left as they are.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    have = {c["name"] for c in inspector.get_columns("games")}
    if "computer_job" not in have:
        op.add_column("games", sa.Column("computer_job", sa.String(40), nullable=True))
    if "computer_asked_at" not in have:
        op.add_column("games", sa.Column("computer_asked_at", sa.DateTime(timezone=True),
                                         nullable=True))
    if not inspector.has_table("site_tasks"):
        op.create_table(
            "site_tasks",
            sa.Column("name", sa.String(32), primary_key=True),
            sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        )


def downgrade() -> None:
    op.drop_table("site_tasks")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("computer_asked_at")
        batch.drop_column("computer_job")
