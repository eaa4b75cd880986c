"""The ``variant`` column of ``games`` and ``challenges`` holds the rule set's canonical id
with its options (``brazilian+optional-capture+breakthrough``, at most 64 characters), not
only the rule set's id: widened from 32 to 64 characters. Rows stored before keep their
plain id and their ``optional_capture`` flag, which is still read.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None

TABLES = ("games", "challenges")


def upgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            batch.alter_column("variant", existing_type=sa.String(32), type_=sa.String(64),
                               existing_nullable=False)


def downgrade() -> None:
    # A canonical id longer than 32 characters cannot go back into the old column: such rows
    # keep the rule set's id and the optional-capture flag only (their goal option is lost,
    # as the old schema cannot say it).
    for table in TABLES:
        op.execute(sa.text(
            f"UPDATE {table} SET variant = substr(variant, 1, instr(variant, '+') - 1) "
            "WHERE length(variant) > 32"
        ) if op.get_bind().dialect.name == "sqlite" else sa.text(
            f"UPDATE {table} SET variant = split_part(variant, '+', 1) "
            "WHERE length(variant) > 32"
        ))
        with op.batch_alter_table(table) as batch:
            batch.alter_column("variant", existing_type=sa.String(64), type_=sa.String(32),
                               existing_nullable=False)
