"""Work the site does on its own while it runs: deleting games nobody has touched.

:func:`clean_up_forever` is started by the application's lifespan; every ``interval`` seconds
(one process of several on one database) it deletes the games not changed for ``ttl`` seconds
(:meth:`damiera.web.store.GameStore.delete_untouched`). A database failure is logged and
tried again at the next round; it never stops the site.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta

from damiera.web.store import GameStore, StorageError

log = logging.getLogger("damiera.web")

#: The clean-up's name among the site's periodic tasks (:meth:`GameStore.claim_task`).
TASK = "clean-up"


async def clean_up(store: GameStore, ttl: float) -> int:
    """Delete the games untouched for ``ttl`` seconds now; returns how many."""
    before = datetime.now(UTC) - timedelta(seconds=ttl)
    return await asyncio.to_thread(store.delete_untouched, before)


async def clean_up_forever(store: GameStore, ttl: float, interval: float) -> None:
    """:func:`clean_up` at once, then every ``interval`` seconds, until cancelled.

    Several web processes on one database (``damiera serve --workers N``, several machines)
    share the rounds after the first: each looks every ``interval / 2`` seconds, and the one
    that claims the round (:meth:`~damiera.web.store.GameStore.claim_task`) runs it, so the
    clean-up runs about once an interval (between 1 and 1.5 intervals apart) whatever the
    number of processes. The first clean-up, at start, runs in every process (a second one
    finds nothing to delete)."""
    first = True
    while True:
        try:
            if first or await asyncio.to_thread(store.claim_task, TASK, interval):
                deleted = await clean_up(store, ttl)
                if deleted:
                    log.info("deleted %d games untouched for %g s", deleted, ttl)
        except StorageError as exc:
            log.warning("clean-up of old games failed: %s", exc)
        first = False
        await asyncio.sleep(interval / 2)
