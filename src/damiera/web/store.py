"""The one place where games last: a SQLAlchemy table of games (SQLite file by default).

A stored game is what it takes to rebuild it exactly: the variant and its house rule, who
plays (a friend on the same screen, or the computer at a level), the side at the bottom of the
screen, the start FEN (None for the variant's start position), every move in full notation,
the result, the Hub engine that plays for the computer (if not Damiera's own), the clock of a
timed game (:mod:`damiera.web.clocks`), the browser that created it and the seats (the
SHA-256 of the player token that created it and of the one that holds each side, never a
token itself: :mod:`damiera.web.seats`), the computer's move
asked for and not yet played (:mod:`damiera.web.thinking`), and timestamps. The position is
never stored: the web layer rebuilds a :class:`damiera.rules.game.Game` by replaying the moves.

Writes are all-or-nothing (one transaction each) and optimistic: every row carries a
``version`` (SQLAlchemy's ``version_id_col``); :meth:`GameStore.save` refuses with
:class:`ConflictError` when the row changed since it was loaded, so two moves sent at once on
one game never both land. The tables themselves are declared in :mod:`damiera.web.store_tables`.

The schema is migrated when the store opens (:mod:`damiera.web.migrate`: Alembic revisions,
on SQLite and PostgreSQL alike; games stored before clocks or seats get them then).
:meth:`GameStore.delete_untouched` deletes games nobody has changed for a while (the site runs
it on its own: :mod:`damiera.web.housekeeping`), :meth:`GameStore.claim_task` lets one of
several web processes run each round of a periodic task, and :meth:`GameStore.check_writable`
tells whether the database accepts writes at all.

Every time is stored and returned in UTC, whatever the database session's time zone.

The database is any SQLAlchemy URL: ``DAMIERA_DATABASE_URL``, else an SQLite file in the
user's data directory (``$XDG_DATA_HOME/damiera/damiera.sqlite3``, by default
``~/.local/share/damiera/``). PostgreSQL goes through psycopg 3 (``pip install
'damiera[postgres]'``; ``postgresql://`` means ``postgresql+psycopg://``), with a connection
pool that checks each connection before use (a database restart costs no failed request).
"""

from __future__ import annotations

import copy
import functools
import os
import re
import secrets
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import (
    Engine,
    create_engine,
    delete,
    event,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.orm.exc import StaleDataError

from damiera.web import db_retry
from damiera.web.store_tables import (
    MAX_GAME_ID,
    ChallengeRow,
    GameRow,
    PlayerRatingRow,
    PresenceRow,
    PuzzleAttemptRow,
    TaskRow,
)

P = ParamSpec("P")
R = TypeVar("R")


class NotFoundError(LookupError):
    """No game has this id."""


class StorageError(RuntimeError):
    """The database failed (disk full, read-only, gone): 503. ``why`` is the database's own
    reason in one line; ``move_stored``: the human's move was stored and only what came after
    it failed (the message then says how to go on)."""

    def __init__(self, message: str, why: str | None = None, move_stored: bool = False):
        super().__init__(message)
        self.why = why if why is not None else message
        self.move_stored = move_stored


def storage_errors(method: Callable[P, R]) -> Callable[P, R]:
    """Wait out a short outage of a server database (:func:`damiera.web.db_retry.call`),
    then turn the database's errors (SQLAlchemy's, OSError) into :class:`StorageError`."""

    @functools.wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        server = not getattr(args[0], "url", "sqlite").startswith("sqlite")
        try:
            return db_retry.call(lambda: method(*args, **kwargs), server)
        except (SQLAlchemyError, OSError) as exc:
            why = str(getattr(exc, "orig", None) or exc).splitlines()[0][:200]
            raise StorageError(f"the database failed: {why}", why=why) from exc

    return wrapper


class ConflictError(RuntimeError):
    """The game changed since it was loaded (another request won); nothing was written."""


def default_database_url() -> str:
    """``DAMIERA_DATABASE_URL`` if set, else an SQLite file in the user's data directory."""
    url = os.environ.get("DAMIERA_DATABASE_URL")
    if url:
        return url
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return f"sqlite:///{Path(base) / 'damiera' / 'damiera.sqlite3'}"


def safe_url(url: str) -> str:
    """``url`` fit to print: its password (if any) shown as ``***``, also in a URL that
    cannot be parsed (``scheme://user:password@...``)."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return re.sub(r"^([^:/]*://[^:/@]*:)[^@]*@", r"\1***@", url)


@dataclass
class StoredGame:
    """A detached copy of one row: change the fields, then :meth:`GameStore.save` it."""

    id: str
    variant: str
    optional_capture: bool
    opponent: str
    level: int | None
    side: str
    start_fen: str | None
    moves: list[str] = field(default_factory=list)
    result_winner: str | None = None
    result_reason: str | None = None
    owner: str | None = None
    white_seat: str | None = None
    black_seat: str | None = None
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    updated_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    version: int = 0
    clock: dict[str, Any] | None = None
    engine: str | None = None
    computer_job: str | None = None
    computer_asked_at: datetime | None = None
    invite: str | None = None
    white_name: str | None = None
    black_name: str | None = None
    offers: dict[str, Any] | None = None

    @classmethod
    def from_row(cls, row: GameRow) -> StoredGame:
        return cls(
            id=row.id,
            variant=row.variant,
            optional_capture=row.optional_capture,
            opponent=row.opponent,
            level=row.level,
            side=row.side,
            start_fen=row.start_fen,
            moves=list(row.moves),
            result_winner=row.result_winner,
            result_reason=row.result_reason,
            owner=row.owner,
            white_seat=row.white_seat,
            black_seat=row.black_seat,
            created_at=_utc(row.created_at),
            updated_at=_utc(row.updated_at),
            version=row.version,
            clock=copy.deepcopy(row.clock),
            engine=row.engine,
            computer_job=row.computer_job,
            computer_asked_at=(_utc(row.computer_asked_at)
                               if row.computer_asked_at is not None else None),
            invite=row.invite,
            white_name=row.white_name,
            black_name=row.black_name,
            offers=copy.deepcopy(row.offers),
        )


def _utc(moment: datetime) -> datetime:
    """``moment`` in UTC: SQLite drops the time zone (every stored time is UTC); PostgreSQL
    gives it in the session's time zone."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _known_id(game_id: str) -> str:
    """``game_id`` if a game could have it, else :class:`NotFoundError` without asking the
    database: an id of more than :data:`MAX_GAME_ID` characters, or holding a character that
    is not printable (a NUL, which PostgreSQL refuses in any text, a lone surrogate, a
    control character), names no game."""
    if not game_id or len(game_id) > MAX_GAME_ID or not game_id.isprintable():
        raise NotFoundError(f"no game with id {game_id[:MAX_GAME_ID + 8]!r}")
    return game_id


def new_game_id() -> str:
    """A fresh unguessable game id (12 URL-safe characters)."""
    return secrets.token_urlsafe(9)


class GameStore:
    """Games in a SQL database. Thread-safe: each call uses its own session.

    ``url``: any SQLAlchemy URL (None: :func:`default_database_url`). SQLite parent folders
    are created; the schema is brought to the newest revision (:func:`damiera.web.migrate.
    upgrade`). Raises SQLAlchemy's errors when the database cannot be opened or migrated.
    """

    def __init__(self, url: str | None = None):
        from damiera.web.migrate import upgrade

        self.url = url or default_database_url()
        self.engine: Engine = make_engine(self.url)
        try:
            upgrade(self.engine)
        except BaseException:
            self.engine.dispose()
            raise
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        # SQLite lets one writer in at a time and makes the others sleep and retry (up to
        # 100 ms a try); queueing this process's writes on a lock avoids those sleeps.
        self._write_lock: AbstractContextManager[object] = (
            threading.Lock() if self.url.startswith("sqlite") else nullcontext()
        )

        #: Called as ``listener(game_id, game)`` in the writing thread after every game
        #: created or saved (``game``: the stored copy) and deleted (``game`` None), once the
        #: change is committed (the live boards: :mod:`damiera.web.live.hub`). A listener
        #: must not raise.
        self.listeners: list[Callable[[str, StoredGame | None], None]] = []

    def close(self) -> None:
        """Close the database connections."""
        self.engine.dispose()

    def _changed(self, game: StoredGame) -> None:
        for listener in self.listeners:
            listener(game.id, game)

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A session in one transaction (committed at the end, rolled back on an error),
        this process's writes queued as the store's own are (for the tables of other
        parts of the site: challenges, presence). The database's errors are the caller's to
        turn into :class:`StorageError` (:func:`storage_errors`)."""
        with self._write_lock, self._sessions.begin() as session:
            yield session

    def reading(self) -> Session:
        """A session for reads (use it in a ``with`` block)."""
        return self._sessions()

    @storage_errors
    def find_by_invite(self, key: str) -> StoredGame | None:
        """The game whose invitation link's secret hashes to ``key``, or None."""
        with self._sessions() as session:
            row = session.scalars(select(GameRow).where(GameRow.invite == key).limit(1)).first()
            return StoredGame.from_row(row) if row is not None else None

    @storage_errors
    def create(self, game: StoredGame,
               check: Callable[[Session], bool] | None = None) -> StoredGame:
        """Insert a new game; returns it with its version set. ``check``: run in the same
        transaction first; when it returns False nothing is written and
        :class:`ConflictError` is raised (a challenge accepted by someone else first)."""
        now = datetime.now(UTC)
        with self._write_lock, self._sessions.begin() as session:
            if check is not None and not check(session):
                raise ConflictError("changed by another request")
            row = GameRow(
                id=game.id,
                variant=game.variant,
                optional_capture=game.optional_capture,
                opponent=game.opponent,
                level=game.level,
                side=game.side,
                start_fen=game.start_fen,
                moves=list(game.moves),
                result_winner=game.result_winner,
                result_reason=game.result_reason,
                owner=game.owner,
                clock=copy.deepcopy(game.clock),
                engine=game.engine,
                white_seat=game.white_seat,
                black_seat=game.black_seat,
                invite=game.invite,
                white_name=game.white_name,
                black_name=game.black_name,
                offers=copy.deepcopy(game.offers),
                created_at=now,
                updated_at=now,
            )
            session.add(row)
            session.flush()
            created = StoredGame.from_row(row)
        self._changed(created)
        return created

    @storage_errors
    def load(self, game_id: str) -> StoredGame:
        """The game with this id. Raises :class:`NotFoundError`."""
        with self._sessions() as session:
            row = session.get(GameRow, _known_id(game_id))
            if row is None:
                raise NotFoundError(f"no game with id {game_id!r}")
            return StoredGame.from_row(row)

    @storage_errors
    def save(self, game: StoredGame) -> StoredGame:
        """Write the moves, result, clock, pending computer move, seats, names and offers of
        ``game`` if nobody changed it since it was loaded.

        Returns the saved copy (new version and ``updated_at``). Raises
        :class:`ConflictError` (nothing written) when the stored version differs, and
        :class:`NotFoundError` when the game is gone.
        """
        with self._write_lock, self._sessions() as session:
            row = session.get(GameRow, _known_id(game.id))
            if row is None:
                raise NotFoundError(f"no game with id {game.id!r}")
            if row.version != game.version:
                if db_retry.after_failure() and _written(row, game):
                    return StoredGame.from_row(row)   # the cut-off try had landed
                raise ConflictError("the game was changed by another request; reload it")
            row.moves = list(game.moves)
            row.result_winner = game.result_winner
            row.result_reason = game.result_reason
            row.clock = copy.deepcopy(game.clock)
            row.computer_job = game.computer_job
            row.computer_asked_at = game.computer_asked_at
            row.white_seat = game.white_seat
            row.black_seat = game.black_seat
            row.white_name = game.white_name
            row.black_name = game.black_name
            row.offers = copy.deepcopy(game.offers)
            row.updated_at = datetime.now(UTC)
            try:
                session.commit()
            except StaleDataError:
                session.rollback()
                raise ConflictError(
                    "the game was changed by another request; reload it"
                ) from None
            saved = StoredGame.from_row(row)
        self._changed(saved)
        return saved

    @storage_errors
    def renew_pending(self, game_id: str, job: str) -> bool:
        """Set the pending computer move's ``computer_asked_at`` to now if the game still
        waits for search ``job`` (:mod:`damiera.web.thinking`'s lease); nothing else changes,
        not the version. False when the game waits for another search or none, or is gone."""
        with self._write_lock, self._sessions.begin() as session:
            result = session.execute(update(GameRow)
                                     .where(GameRow.id == game_id, GameRow.computer_job == job)
                                     .values(computer_asked_at=datetime.now(UTC))
                                     .execution_options(synchronize_session=False))
            return int(getattr(result, "rowcount", 0) or 0) == 1

    @storage_errors
    def delete(self, game_id: str) -> None:
        """Delete the game (who may is the caller's question: :mod:`damiera.web.seats`).
        Raises :class:`NotFoundError` when there is no such game."""
        with self._write_lock, self._sessions.begin() as session:
            row = session.get(GameRow, _known_id(game_id))
            if row is None:
                if db_retry.after_failure():
                    return                         # the cut-off try had landed
                raise NotFoundError(f"no game with id {game_id!r}")
            session.delete(row)
        for listener in self.listeners:
            listener(game_id, None)

    @storage_errors
    def delete_untouched(self, before: datetime) -> int:
        """Delete every game last changed before ``before``; returns how many. Presence rows
        not confirmed since, challenges closed or expired a day before now, and the puzzle
        ratings of browsers that have not tried a puzzle since (with their attempts) go too."""
        if before.tzinfo is not None:
            before = before.astimezone(UTC)
        day_ago = datetime.now(UTC) - timedelta(days=1)
        with self._write_lock, self._sessions.begin() as session:
            result = session.execute(delete(GameRow).where(GameRow.updated_at < before))
            session.execute(delete(PresenceRow).where(PresenceRow.seen_at < before))
            session.execute(delete(ChallengeRow).where(ChallengeRow.expires_at < day_ago))
            session.execute(delete(PlayerRatingRow).where(PlayerRatingRow.updated_at < before))
            session.execute(delete(PuzzleAttemptRow).where(
                PuzzleAttemptRow.player.not_in(select(PlayerRatingRow.player))))
            return int(getattr(result, "rowcount", 0) or 0)

    @storage_errors
    def claim_task(self, name: str, every: float) -> bool:
        """True for exactly one caller (of all processes on this database) per ``every``
        seconds: the periodic task ``name`` is due and this caller runs it (its next round
        is then due ``every`` seconds from now); False when it is not due or another caller
        took it first (an atomic conditional UPDATE, or the INSERT of its first round)."""
        now = datetime.now(UTC)
        due = now + timedelta(seconds=every)
        with self._write_lock, self._sessions.begin() as session:
            result = session.execute(update(TaskRow)
                                     .where(TaskRow.name == name, TaskRow.due_at <= now)
                                     .values(due_at=due)
                                     .execution_options(synchronize_session=False))
            if int(getattr(result, "rowcount", 0) or 0) == 1:
                return True
            if session.get(TaskRow, name) is not None:
                return False
        try:
            with self._write_lock, self._sessions.begin() as session:
                session.add(TaskRow(name=name, due_at=due))
        except IntegrityError:   # another process inserted it first: its round
            return False
        return True

    @storage_errors
    def check_writable(self) -> None:
        """Raise the database's error (e.g. SQLAlchemy's OperationalError, "attempt to write
        a readonly database") unless it accepts a write; nothing is changed."""
        with self._write_lock, self.engine.connect() as conn:
            trans = conn.begin()
            try:
                conn.execute(update(GameRow).where(GameRow.id == "").values(id=""))
                if self.url.startswith("sqlite"):
                    conn.execute(text("CREATE TABLE _damiera_write_probe (x INTEGER)"))
            finally:
                trans.rollback()


def _written(row: GameRow, game: StoredGame) -> bool:
    """Whether ``row`` is ``game`` as :meth:`GameStore.save` writes it, one version on."""
    return (row.version == game.version + 1 and list(row.moves) == list(game.moves)
            and row.result_winner == game.result_winner
            and row.result_reason == game.result_reason and row.clock == game.clock
            and row.computer_job == game.computer_job
            and (row.white_seat, row.black_seat) == (game.white_seat, game.black_seat)
            and (row.white_name, row.black_name) == (game.white_name, game.black_name)
            and row.offers == game.offers)


def sqlite_file(url: str) -> Path | None:
    """The file of an SQLite URL ``sqlite:///PATH[?query]`` (None: in memory, a ``file:``
    URI, or not SQLite)."""
    if not url.startswith("sqlite"):
        return None
    path = url.split("///", 1)[1] if "///" in url else ""
    if not path or path == ":memory:" or path.startswith("file:"):
        return None
    return Path(path.split("?", 1)[0])


def make_engine(url: str) -> Engine:
    """SQLAlchemy's engine for the store at ``url``. SQLite: one file shared by threads (WAL
    journal, 30 s busy timeout; the parent folder is made); PostgreSQL through psycopg 3, a
    pool of 5 connections (+15 at peaks) per process, each checked before use and replaced
    after 30 minutes. Raises ArgumentError for a malformed URL, ModuleNotFoundError when the
    database's driver is not installed."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    kwargs: dict[str, Any] = {}
    if parsed.get_backend_name() == "postgresql":
        kwargs.update(pool_pre_ping=True, pool_size=5, max_overflow=15, pool_recycle=1800,
                      connect_args={"application_name": "damiera"})
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        path = url.split("///", 1)[1] if "///" in url else ""
        file = sqlite_file(url)
        if file is not None:
            file.parent.mkdir(parents=True, exist_ok=True)
        if path in ("", ":memory:"):
            from sqlalchemy.pool import StaticPool

            kwargs["poolclass"] = StaticPool
    engine = create_engine(parsed, **kwargs)
    if url.startswith("sqlite"):

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

    return engine
