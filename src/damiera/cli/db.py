"""``damiera db``: the game store's schema revision, shown or brought up to date
(registered by :mod:`damiera.cli`; the site also upgrades on its own when it starts)."""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:
    """Add ``db current`` and ``db upgrade`` to the ``damiera`` parser's subparsers."""
    p = subparsers.add_parser("db", help="the game store's schema: current | upgrade")
    p.add_argument("action", choices=("current", "upgrade"),
                   help="current: print the database's revision and the newest one; "
                   "upgrade: apply the revisions it lacks")
    p.add_argument("--database-url", default=None,
                   help="SQLAlchemy URL of the game store (default: $DAMIERA_DATABASE_URL, "
                   "else the SQLite file in the user's data directory)")
    p.set_defaults(func=_db)


def _db(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from damiera.cli.common import UsageError
    from damiera.web import migrate
    from damiera.web.store import default_database_url, make_engine, safe_url, sqlite_file

    url = args.database_url or default_database_url()
    shown = safe_url(url)   # never print a password
    if args.action == "current" and url.startswith("sqlite"):
        path = sqlite_file(url)
        if path is not None and not path.exists():   # not made by looking (a mistyped path)
            print(f"revision none (no database file {path} yet); newest {migrate.head()}")
            return 0
    try:
        engine = make_engine(url)
    except (ArgumentError, ValueError):   # ValueError: a port that is not a number
        raise UsageError(f"bad database URL {shown!r}") from None
    except ModuleNotFoundError as exc:
        raise UsageError(f"database URL {shown!r} needs the module {exc.name}") from None
    try:
        if args.action == "upgrade":
            migrate.upgrade(engine)
        now = migrate.current(engine)
    except SQLAlchemyError as exc:
        why = str(getattr(exc, "orig", None) or exc).splitlines()[0][:200]
        raise UsageError(f"the database {shown!r} failed: {why}") from None
    except migrate.MigrationError as exc:
        raise UsageError(str(exc)) from None
    finally:
        engine.dispose()
    print(f"revision {now or 'none (empty, or made before migrations)'}; newest {migrate.head()}")
    return 0


