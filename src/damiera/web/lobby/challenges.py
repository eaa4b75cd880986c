"""Open challenges: a game offered to anyone, the first to accept it plays it.

A challenge (:class:`~damiera.web.store_tables.ChallengeRow`) names a variant (with or without the
house rule), a clock (or none) and its creator's side (white, black or random). It is open
for ``challenge_ttl`` seconds (10 minutes by default), until its creator cancels it, until
its creator has left the lobby for ``challenge_grace`` seconds
(:mod:`damiera.web.lobby.presence`), or until someone accepts it: the acceptance is one transaction that marks the challenge taken only if
it is still open and stores the new game with both seats (the creator's and the acceptor's)
and a clock that waits for both players' first moves (:func:`damiera.web.live.state.
hold_clock`: the creator may be elsewhere when it is accepted), so of several clients accepting at once exactly one gets the game and
the others a 409. Each client address may have ``challenges_per_client`` challenges open (429
with the seconds until its oldest one expires), the site ``challenges_total`` (503).

Every change is told to the lobby pages through the live bus (``{"k": "lobby", "what":
"created" | "removed", "challenge": ..., "game_id": ...}``: :mod:`damiera.web.live.hub`).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, func, select, update
from sqlalchemy.orm import Session

from damiera.rules.variant import VARIANTS, variant
from damiera.web import i18n, seats
from damiera.web.errors import BadRequest, Conflict
from damiera.web.games import GameService
from damiera.web.limits import LimitExceeded
from damiera.web.live.hub import LiveHub, LiveSettings
from damiera.web.live.names import check_name
from damiera.web.lobby.presence import CreatorPresence, still_here
from damiera.web.new_game import NewGame, new_game
from damiera.web.serialization import options_json
from damiera.web.store import ConflictError, NotFoundError, StorageError, storage_errors
from damiera.web.store_tables import ChallengeRow

_ = i18n.gettext

#: Most challenges listed at once (newest first).
MAX_LISTED = 200
#: Most of a creator's accepted challenges named to it at once (newest first).
MAX_ACCEPTED = 5


def _options(row: ChallengeRow) -> dict[str, Any]:
    """The challenge's rule set and options (its ``variant`` column is the canonical id; a
    row stored before keeps the plain id and the ``optional_capture`` flag); a custom rule
    set's name as ``variant_name`` (the lobby's list of names has only the named ones)."""
    try:
        v = variant(row.variant, optional_capture=row.optional_capture)
    except ValueError:
        return {"variant": row.variant, "full_id": row.variant,
                "optional_capture": row.optional_capture, "losing": False,
                "breakthrough": False}
    return {**options_json(v), **({} if v.id in VARIANTS else {"variant_name": v.name})}


def challenge_json(row: ChallengeRow, now: datetime, token: str | None = None) -> dict[str, Any]:
    """A challenge for the API and the lobby: ``{"id", "variant", "full_id",
    "optional_capture", "losing", "breakthrough"`` (:func:`~damiera.web.serialization.
    options_json`; and ``variant_name`` for a custom rule set), ``"clock" ("5+3" or null), "side" (the creator's: "white", "black", "random"), "name" (the
    creator's, or null), "age_s", "expires_in_s", "mine"}`` (``mine``: ``token`` made it)."""
    created, expires = _utc(row.created_at), _utc(row.expires_at)
    return {
        "id": row.id,
        **_options(row),
        "clock": row.clock,
        "side": row.side,
        "name": row.creator_name,
        "age_s": max(0, int((now - created).total_seconds())),
        "expires_in_s": max(0, math.ceil((expires - now).total_seconds())),
        "mine": bool(token) and row.creator == seats.seat_key(token or ""),
    }


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


class Challenges:
    """The lobby's challenges on ``games``' store; changes told through ``hub``."""

    def __init__(self, games: GameService, hub: LiveHub, settings: LiveSettings):
        self.games = games
        self.store = games.store
        self.hub = hub
        self.settings = settings
        #: Whose lobby pages are open (a challenge ends some seconds after its creator's).
        self.presence = CreatorPresence(self.store, hub, settings)

    # -- in threads ----------------------------------------------------------------------
    @storage_errors
    def _insert(self, row: ChallengeRow, now: datetime) -> dict[str, Any]:
        s = self.settings
        open_now = self._open_now(now)
        with self.store.transaction() as session:
            mine = session.scalars(select(ChallengeRow.expires_at).where(
                ChallengeRow.client == row.client, *open_now)
                .order_by(ChallengeRow.expires_at)).all()
            if len(mine) >= s.challenges_per_client:
                wait = (_utc(mine[0]) - now).total_seconds()
                raise LimitExceeded(429, f"you have {len(mine)} open challenges already (at "
                                         f"most {s.challenges_per_client}); cancel one or "
                                         "wait", max(1.0, wait))
            total = session.scalar(select(func.count()).select_from(ChallengeRow)
                                   .where(*open_now)) or 0
            if total >= s.challenges_total:
                raise LimitExceeded(503, "the lobby is full; try again later", 30.0)
            session.add(row)
            session.flush()
            return challenge_json(row, now)

    def _open_now(self, now: datetime) -> tuple[ColumnElement[bool], ...]:
        """The conditions of a challenge open at ``now``: not taken nor cancelled, not
        expired, its creator in the lobby (or gone less than the grace period)."""
        return (ChallengeRow.status == "open", ChallengeRow.expires_at > now,
                still_here(now, self.settings.challenge_grace))

    @storage_errors
    def _open(self, now: datetime, token: str | None) -> list[dict[str, Any]]:
        with self.store.reading() as session:
            rows = session.scalars(select(ChallengeRow).where(*self._open_now(now))
                .order_by(ChallengeRow.created_at.desc()).limit(MAX_LISTED))
            return [challenge_json(r, now, token) for r in rows]

    @storage_errors
    def _accepted(self, now: datetime, creator: str) -> list[dict[str, Any]]:
        with self.store.reading() as session:
            rows = session.execute(select(ChallengeRow.id, ChallengeRow.game_id).where(
                ChallengeRow.creator == creator, ChallengeRow.status == "accepted",
                ChallengeRow.expires_at > now, ChallengeRow.game_id.is_not(None))
                .order_by(ChallengeRow.created_at.desc()).limit(MAX_ACCEPTED))
            return [{"id": cid, "game_id": gid} for cid, gid in rows]

    @storage_errors
    def _get(self, challenge_id: str) -> ChallengeRow | None:
        with self.store.reading() as session:
            row = session.get(ChallengeRow, challenge_id)
            if row is not None:
                session.expunge(row)
            return row

    @storage_errors
    def _cancel(self, challenge_id: str, creator: str, now: datetime) -> bool:
        with self.store.transaction() as session:
            result = session.execute(update(ChallengeRow).where(
                ChallengeRow.id == challenge_id, ChallengeRow.creator == creator,
                ChallengeRow.status == "open").values(status="cancelled")
                .execution_options(synchronize_session=False))
            return int(getattr(result, "rowcount", 0) or 0) == 1

    # -- the service -----------------------------------------------------------------------
    async def create(self, *, variant: str, optional_capture: bool, clock: str | None,
                     side: str, name: str | None, token: str, client: str,
                     losing: bool = False, breakthrough: bool = False) -> dict[str, Any]:
        """Open a challenge; returns it (:func:`challenge_json`). Raises BadRequest (bad
        options or name), LimitExceeded (429: this client's open challenges; 503: the
        lobby's)."""
        options = NewGame(variant=variant, opponent="online", side=side,
                          optional_capture=optional_capture, losing=losing,
                          breakthrough=breakthrough, clock=clock, name=name)
        stored, _game = new_game(options, None, self.games.computer.hub)  # checks them all
        now = datetime.now(UTC)
        row = ChallengeRow(
            id=secrets.token_urlsafe(9), variant=stored.variant,
            optional_capture=stored.optional_capture,
            clock=None if stored.clock is None else
            f"{int(stored.clock['base']) // 60}+{int(stored.clock['increment'])}",
            side=side, creator=seats.seat_key(token), creator_name=check_name(name),
            client=client[:64], created_at=now, status="open", creator_seen_at=now,
            expires_at=now + timedelta(seconds=self.settings.challenge_ttl))
        data = await asyncio.to_thread(self._insert, row, now)
        self.hub.publish({"k": "lobby", "what": "created", "challenge": {**data, "mine": False}})
        return {**data, "mine": True}

    async def open(self, token: str | None) -> list[dict[str, Any]]:
        """The open challenges, newest first (at most :data:`MAX_LISTED`)."""
        return await asyncio.to_thread(self._open, datetime.now(UTC), token)

    async def accepted(self, token: str | None) -> list[dict[str, Any]]:
        """The challenges of the player token ``token`` that someone accepted while they
        would still have been open (``challenge_ttl`` from their creation), newest first
        (at most :data:`MAX_ACCEPTED`): ``[{"id", "game_id"}]``, so that a creator who was
        elsewhere when it happened is shown its game, whatever events it missed."""
        if not token:
            return []
        return await asyncio.to_thread(self._accepted, datetime.now(UTC),
                                       seats.seat_key(token))

    async def cancel(self, challenge_id: str, token: str | None) -> None:
        """Cancel an open challenge of the caller's. Raises NotFoundError, Forbidden (not
        the caller's), Conflict (no longer open)."""
        row = await asyncio.to_thread(self._get, challenge_id)
        if row is None:
            raise NotFoundError(f"no challenge with id {challenge_id!r}")
        if not token or row.creator != seats.seat_key(token):
            raise seats.Forbidden(_("only its creator may cancel a challenge"))
        if not await asyncio.to_thread(self._cancel, challenge_id, row.creator,
                                       datetime.now(UTC)):
            raise Conflict(_("this challenge is no longer open"))
        self.hub.publish({"k": "lobby", "what": "removed", "id": challenge_id})

    async def accept(self, challenge_id: str, token: str,
                     name: str | None = None) -> dict[str, Any]:
        """Accept an open challenge: the game (as ``GET /api/games/{id}`` gives it to the
        caller, its seat in ``seats``). Raises NotFoundError, BadRequest (a bad name),
        Conflict (taken, cancelled or expired: every acceptor but the first; or the
        caller's own)."""
        try:
            name = check_name(name)
        except ValueError as exc:
            raise BadRequest(str(exc)) from None
        row = await asyncio.to_thread(self._get, challenge_id)
        if row is None:
            raise NotFoundError(f"no challenge with id {challenge_id!r}")
        now = datetime.now(UTC)
        seen = _utc(row.creator_seen_at or row.created_at)
        if (row.status != "open" or _utc(row.expires_at) <= now
                or seen < now - timedelta(seconds=self.settings.challenge_grace)):
            raise Conflict(_("this challenge is no longer open: someone else accepted it, "
                             "or it was cancelled or expired"))
        me = seats.seat_key(token)
        if row.creator == me:
            raise Conflict(_("this is your own challenge: wait for someone to accept it"))
        stored, game = new_game(NewGame(
            variant=row.variant, opponent="online", side=row.side,
            optional_capture=row.optional_capture, clock=row.clock), None,
            self.games.computer.hub)
        theirs = stored.side
        mine = "black" if theirs == "white" else "white"
        setattr(stored, f"{theirs}_seat", row.creator)
        setattr(stored, f"{theirs}_name", row.creator_name)
        setattr(stored, f"{mine}_seat", me)
        setattr(stored, f"{mine}_name", name)
        stored.owner = seats.owner_key(token)   # the game is in the acceptor's "my games"

        def take(session: Session) -> bool:
            result = session.execute(update(ChallengeRow).where(
                ChallengeRow.id == challenge_id, *self._open_now(now))
                .values(status="accepted", game_id=stored.id)
                .execution_options(synchronize_session=False))
            return int(getattr(result, "rowcount", 0) or 0) == 1

        try:
            created = await asyncio.to_thread(self.store.create, stored, take)
        except ConflictError:
            raise Conflict(_("this challenge is no longer open: someone else accepted it, "
                             "or it was cancelled or expired")) from None
        self.hub.publish({"k": "lobby", "what": "removed", "id": challenge_id,
                          "game_id": created.id})
        for side in ("white", "black"):   # both pages are on their way to the game
            with contextlib.suppress(StorageError):
                await self.hub.presence.mark(created.id, side, True)
        return self.games.mine(created, game, token)


__all__ = ["Challenges", "challenge_json"]
