"""Work the site does on its own while it runs: deleting games nobody has touched.

:func:`clean_up_forever` is started by the application's lifespan; every ``interval`` seconds
it deletes the games not changed for ``ttl`` seconds
(:meth:`damiera.web.store.GameStore.delete_untouched`). A database failure is logged and
tried again at the next round; it never stops the site.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta

from damiera.web.store import GameStore, StorageError

log = logging.getLogger("damiera.web")


async def clean_up(store: GameStore, ttl: float) -> int:
    """Delete the games untouched for ``ttl`` seconds now; returns how many."""
    before = datetime.now(UTC) - timedelta(seconds=ttl)
    return await asyncio.to_thread(store.delete_untouched, before)


async def clean_up_forever(store: GameStore, ttl: float, interval: float) -> None:
    """:func:`clean_up` at once, then every ``interval`` seconds, until cancelled."""
    while True:
        try:
            deleted = await clean_up(store, ttl)
            if deleted:
                log.info("deleted %d games untouched for %g s", deleted, ttl)
        except StorageError as exc:
            log.warning("clean-up of old games failed: %s", exc)
        await asyncio.sleep(interval)
