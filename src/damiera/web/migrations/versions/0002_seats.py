"""Seats: who holds each side (the SHA-256 of a player token, :mod:`damiera.web.seats`).

Each old game's seats go to the browser that created it (its ``owner``), as
:func:`damiera.web.seats.new_game_seats` gives a new game's: both sides between friends, the
human's against the computer. A store that already has the columns (made before migrations
by a release with seats) is left as it is.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None

SEATS = ("white_seat", "black_seat")


def upgrade() -> None:
    from damiera.web.seats import new_game_seats

    have = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("games")}
    missing = [name for name in SEATS if name not in have]
    if not missing:
        return
    for name in missing:
        op.add_column("games", sa.Column(name, sa.String(64), nullable=True))
    games = sa.table("games", sa.column("id"), sa.column("owner"), sa.column("opponent"),
                     sa.column("side"), sa.column("white_seat"), sa.column("black_seat"))
    bind = op.get_bind()
    rows = bind.execute(sa.select(games.c.id, games.c.owner, games.c.opponent, games.c.side)
                        .where(games.c.owner.is_not(None))).all()
    for game_id, owner, opponent, side in rows:
        white, black = new_game_seats(owner, opponent, side)
        bind.execute(games.update().where(games.c.id == game_id)
                     .values(white_seat=white, black_seat=black))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        for name in SEATS:
            batch.drop_column(name)
