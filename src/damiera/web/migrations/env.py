"""Alembic's environment: the revisions run on the connection that
:func:`damiera.web.migrate.upgrade` hands over (``config.attributes["connection"]``, inside its
lock and transaction), or, under the ``alembic`` command, on ``$DAMIERA_DATABASE_URL``."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from damiera.web.store import default_database_url, make_engine
from damiera.web.store_tables import METADATA


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=METADATA,
        # SQLite alters a table by copying it; batch mode does that for later revisions.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def _main() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(default_database_url())
    try:
        with engine.begin() as conn:
            _run(conn)
    finally:
        engine.dispose()


if context.is_offline_mode():
    raise SystemExit("damiera's migrations run on a database, not as SQL text (no --sql)")
_main()
