"""The game store's schema, brought to the newest revision when the store opens.

The revisions are Alembic's, in ``damiera/web/migrations/versions/`` (0001 baseline, 0002, ...),
shipped in the package: a fresh database gets every revision, an older one the revisions it
lacks, on SQLite and PostgreSQL alike, so ``damiera serve`` needs no setup step. A store made
before migrations existed (by ``create_all``: a ``games`` table and no ``alembic_version``) is
stamped with the baseline first; the later revisions add only the columns it lacks.

Several processes may open one database at once (``damiera serve --workers N``, several
machines): the upgrade runs in one transaction under a lock (PostgreSQL: a transaction-level
advisory lock; SQLite: ``BEGIN IMMEDIATE``), and whoever comes second finds the work done.
"""

from __future__ import annotations

import functools
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy import Engine, inspect, text
from sqlalchemy.engine import Connection

#: Alembic's folder (env.py, versions/).
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: The revision whose schema a store made before migrations starts from.
BASELINE = "0001"
#: Key of the PostgreSQL advisory lock taken while upgrading ("damiera" in ASCII).
LOCK_KEY = int.from_bytes(b"damiera", "big")


class MigrationError(RuntimeError):
    """The schema cannot be brought up to date, e.g. the database is at a revision this
    version of Damiera does not know (a newer one migrated it); one line saying so."""


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for the store's revisions; ``connection``: the one to run
    them on (None: ``$DAMIERA_DATABASE_URL`` or the default SQLite file, as env.py says)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


@functools.cache
def head() -> str:
    """The newest revision (e.g. ``"0003"``)."""
    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None, "the store has no schema revisions"
    return revision


def current(engine: Engine) -> str | None:
    """The database's revision; None for an empty database or one made before migrations."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database to ``revision`` (default the newest). Nothing is written when it is
    there already; otherwise all revisions run in one transaction under the lock the module
    docstring describes. Raises SQLAlchemy's errors (the database's) and
    :class:`MigrationError` (an unknown revision, in the database or asked for)."""
    now = current(engine)
    if revision == "head" and now == head():
        return
    script = ScriptDirectory.from_config(alembic_config())
    if now is not None and now not in {s.revision for s in script.walk_revisions()}:
        raise MigrationError(f"the database is at schema revision {now}, which this version "
                             f"of Damiera does not know (its newest is {head()}): upgrade "
                             f"Damiera")
    with engine.connect() as conn:
        _lock(conn)
        before_migrations = (MigrationContext.configure(conn).get_current_revision() is None
                             and inspect(conn).has_table("games"))
        try:
            if before_migrations:
                command.stamp(alembic_config(conn), BASELINE)
            command.upgrade(alembic_config(conn), revision)
        except CommandError as exc:
            raise MigrationError(f"cannot migrate the database: {exc}") from None
        conn.commit()


def _lock(conn: Connection) -> None:
    """Begin the upgrade's transaction holding the database's migration lock (released at
    commit or rollback)."""
    dialect = conn.dialect.name
    if dialect == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
    elif dialect == "sqlite":
        conn.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        conn.begin()
