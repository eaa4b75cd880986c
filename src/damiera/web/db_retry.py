"""Store calls that wait out a short database outage (a PostgreSQL restart, a fail-over)
instead of failing the request.

:func:`call` runs a store operation and, when it fails because the server could not be
reached or dropped the connection (SQLAlchemy's ``OperationalError`` or an invalidated
connection, on a server database: never SQLite, whose operational errors are a locked, full
or read-only file), runs it again after a short pause, for up to :data:`OUTAGE` seconds in
all; the last error is raised then. The connection pool checks each connection before use,
so the next try gets a fresh connection once the server is back.

A write whose connection dropped while it committed may have landed or not: the operation is
told so by :func:`after_failure` being true during the next try, and then may treat "already
done" as success (:meth:`~damiera.web.store.GameStore.save`: its row already written, one
version on; :meth:`~damiera.web.store.GameStore.delete`: the game already gone).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.exc import DBAPIError, OperationalError

R = TypeVar("R")

#: Seconds a store call keeps trying while the database cannot be reached.
OUTAGE = 10.0
#: First pause between tries (seconds), doubled each time up to :data:`LONGEST_PAUSE`.
FIRST_PAUSE = 0.05
LONGEST_PAUSE = 1.0

_state = threading.local()


def after_failure() -> bool:
    """Whether the operation running in this thread is a new try after a dropped
    connection (its earlier write may have landed)."""
    return bool(getattr(_state, "again", False))


def passing(exc: BaseException) -> bool:
    """Whether ``exc`` is a failure of the connection to a server database, which a new try
    may not meet."""
    if not isinstance(exc, DBAPIError):
        return False
    return bool(exc.connection_invalidated) or isinstance(exc, OperationalError)


def call(operation: Callable[[], R], server: bool, outage: float = OUTAGE) -> R:
    """``operation()``, tried again over ``outage`` seconds while it fails with a passing
    connection failure (only when ``server``: not SQLite)."""
    if not server:
        return operation()
    deadline = time.monotonic() + outage
    pause = FIRST_PAUSE
    outer = after_failure()
    try:
        while True:
            try:
                return operation()
            except DBAPIError as exc:
                if not passing(exc) or time.monotonic() + pause > deadline:
                    raise
            _state.again = True
            time.sleep(pause)
            pause = min(LONGEST_PAUSE, pause * 2)
    finally:
        _state.again = outer
