"""Player secrets stored as hashes only: each game's ``owner`` (the browser that created it,
for "my games") becomes the SHA-256 (hex) of the player token it held, as the seats already
are (:func:`damiera.web.seats.seat_key`), so whoever reads the database (a backup, a replica)
cannot act for a player.

A hash cannot be turned back into the token: the downgrade leaves the hashes in place (the
older release then lists no earlier game under "my games"; seats, and so who may play, are
unaffected).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import hashlib

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None

#: Rows converted a statement at a time on databases without a SHA-256 function.
BATCH = 1000


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        op.execute("UPDATE games SET owner = encode(sha256(convert_to(owner, 'UTF8')), 'hex') "
                   "WHERE owner IS NOT NULL")
        return
    games = sa.table("games", sa.column("id"), sa.column("owner"))
    rows = bind.execute(sa.select(games.c.id, games.c.owner)
                        .where(games.c.owner.is_not(None))).all()
    update = (games.update().where(games.c.id == sa.bindparam("game_id"))
              .values(owner=sa.bindparam("hashed")))
    for start in range(0, len(rows), BATCH):
        bind.execute(update, [
            {"game_id": game_id, "hashed": hashlib.sha256(owner.encode()).hexdigest()}
            for game_id, owner in rows[start:start + BATCH]])


def downgrade() -> None:
    """Nothing to undo that can be undone (see the module docstring)."""
