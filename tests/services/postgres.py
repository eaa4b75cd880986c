"""A throw-away PostgreSQL cluster for the tests, and the ``backend`` fixture that runs the
web tests on SQLite and on PostgreSQL.

The cluster comes from Debian's ``postgresql`` package (``/usr/lib/postgresql/*/bin``, the
newest; or ``initdb`` on the PATH): ``initdb`` in a private temporary folder, then ``pg_ctl
start`` with ``listen_addresses=''`` (no TCP port at all) and the Unix socket in that folder;
durability is off (a test cluster), and sessions run in the time zone of St. John's
(UTC-3:30), so that times that are not converted to UTC show. As root it runs as the ``postgres`` user (PostgreSQL
refuses root). It is stopped and removed at the end of the session, also when tests fail or
pytest is interrupted. Each test that asks gets a database of its own.

``DAMIERA_TEST_POSTGRES_URL`` (e.g. ``postgresql+psycopg://me@dbhost/postgres``, a role
allowed to create databases) uses an existing server instead of starting one.

Without PostgreSQL the PostgreSQL half of the tests is skipped with the reason (fails under
``DAMIERA_TEST_SERVICES=required``, as ``make test`` sets).
"""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.services import (
    private_folder,
    remove,
    server_user,
    stop_servers_on_sigterm,
    unavailable,
)

BACKENDS = ("sqlite", "postgresql")
#: How long pg_ctl waits for the server to start or stop (seconds; never a speed test).
WAIT = os.environ.get("DAMIERA_TEST_WAIT", "120")
SUPERUSER = "postgres"


def postgres_bin() -> Path | None:
    """The folder of the newest installed PostgreSQL's initdb and pg_ctl, or None."""
    def major(folder: Path) -> int:
        name = folder.parent.name
        return int(name) if name.isdigit() else 0

    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=major, reverse=True)
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).parent)
    for folder in candidates:
        if (folder / "initdb").exists() and (folder / "pg_ctl").exists():
            return folder
    return None


class Cluster:
    """A running throw-away cluster; :meth:`new_database` gives a fresh database's URL."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.user = server_user()
        self.root = private_folder("damiera-pg-", self.user, self._stop_stale)
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self._count = itertools.count(1)
        self.running = False
        self._admin: Admin | None = None

    def _run(self, *args: str) -> None:
        kwargs: dict[str, Any] = {}
        if self.user is not None:
            kwargs.update(user=self.user.pw_uid, group=self.user.pw_gid, extra_groups=[])
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PG", "LC_"))}
        done = subprocess.run(args, cwd=self.root, env={**env, "LANG": "C"},
                              capture_output=True, text=True, check=False, **kwargs)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{Path(args[0]).name} failed ({done.returncode}): "
                               f"{done.stderr.strip()[-2000:]}\n{log}")

    def start(self) -> None:
        self._run(str(self.bindir / "initdb"), "-D", str(self.data), "-U", SUPERUSER,
                  "--auth=trust", "--no-locale", "-E", "UTF8", "--no-sync")
        options = " ".join([
            "-c listen_addresses=''", f"-c unix_socket_directories='{self.root}'",
            "-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off",
            "-c max_connections=300", "-c shared_buffers=32MB",
            # Sessions in a time zone far from UTC (and off the hour): the store must give
            # UTC back whatever the session's zone.
            "-c timezone='America/St_Johns'",
        ])
        self.running = True
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-l", str(self.log),
                  "-o", options, "-w", "-t", WAIT, "start")

    def restart(self) -> None:
        """Restart the server (fast shutdown: sessions are cut, as ``systemctl restart``
        does), with the same options; returns once it accepts connections again."""
        if self._admin is not None:
            self._admin.close()
            self._admin = None
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-l", str(self.log),
                  "-m", "fast", "-w", "-t", WAIT, "restart")

    def stop(self) -> None:
        if self._admin is not None:
            self._admin.close()
            self._admin = None
        if self.running:
            self.running = False
            try:
                self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                          "-w", "-t", WAIT, "stop")
            except RuntimeError:
                pass
        remove(self.root)

    def _stop_stale(self, root: Path) -> None:
        """Stop the server of a cluster an earlier session left behind (immediate shutdown:
        SIGQUIT to the postmaster, whose id heads postmaster.pid)."""
        try:
            pid = int((root / "data" / "postmaster.pid").read_text().split()[0])
            os.kill(pid, signal.SIGQUIT)
        except (OSError, ValueError, IndexError):
            pass

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://{SUPERUSER}@/{database}?host={self.root}"

    def new_database(self) -> str:
        """Create an empty database; returns its SQLAlchemy URL."""
        if self._admin is None:
            self._admin = Admin(self.url("postgres"))
        return self._admin.create(f"test_{next(self._count)}", drop_first=False)


class Admin:
    """One open autocommit connection to a server's ``postgres`` database, to create the
    tests' databases quickly (no new connection each; a file copy of the template where the
    server has it, PostgreSQL 15 and later)."""

    def __init__(self, admin_url: str) -> None:
        from sqlalchemy import create_engine
        from sqlalchemy.pool import NullPool

        self.url = admin_url
        self.engine = create_engine(admin_url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
        self.conn = self.engine.connect()
        version = self.conn.exec_driver_sql("SHOW server_version_num").scalar()
        self.strategy = " STRATEGY FILE_COPY" if int(str(version)) >= 150000 else ""

    def create(self, name: str, drop_first: bool) -> str:
        """Create database ``name`` (dropping one left over by an earlier run first if
        ``drop_first``); returns its SQLAlchemy URL."""
        from sqlalchemy.engine import make_url

        if drop_first:
            self.conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self.conn.exec_driver_sql(f'CREATE DATABASE "{name}"{self.strategy}')
        return make_url(self.url).set(database=name).render_as_string(hide_password=False)

    def close(self) -> None:
        self.conn.close()
        self.engine.dispose()


class External:
    """An existing server (``DAMIERA_TEST_POSTGRES_URL``): databases made there for the
    session and dropped at its end."""

    def __init__(self, admin_url: str) -> None:
        self.admin = Admin(admin_url)
        self._count = itertools.count(1)
        self._run = f"{os.getpid()}"

        self.made: list[str] = []

    def new_database(self) -> str:
        name = f"damiera_test_{self._run}_{next(self._count)}"
        self.made.append(name)
        return self.admin.create(name, drop_first=True)

    def stop(self) -> None:
        """Drop the databases this session made, and disconnect."""
        for name in self.made:
            self.admin.conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self.admin.close()


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster | External]:
    """The session's PostgreSQL server (skips, or fails when required, without one)."""
    external = os.environ.get("DAMIERA_TEST_POSTGRES_URL")
    if external:
        server = External(external)
        try:
            yield server
        finally:
            server.stop()
        return
    try:
        import psycopg  # noqa: F401
    except ModuleNotFoundError:
        unavailable("psycopg is not installed (pip install -e '.[postgres]')")
    bindir = postgres_bin()
    if bindir is None:
        unavailable("PostgreSQL is not installed (make test installs Debian's postgresql)")
    stop_servers_on_sigterm()
    cluster = Cluster(bindir)
    atexit.register(cluster.stop)   # also when the session dies before its teardown
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def postgres_url(postgres: Cluster | External) -> str:
    """A fresh, empty PostgreSQL database of this test's own."""
    return postgres.new_database()


@pytest.fixture(scope="session", params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """``"sqlite"`` or ``"postgresql"``: a test that asks for it (through ``database_url``
    or ``session_database_url``) runs once on each."""
    name: str = request.param
    if name == "postgresql":
        request.getfixturevalue("postgres")
    return name


def _fresh_url(backend: str, request: pytest.FixtureRequest, folder: Path) -> str:
    if backend == "postgresql":
        cluster: Cluster | External = request.getfixturevalue("postgres")
        return cluster.new_database()
    return f"sqlite:///{folder / 'games.sqlite3'}"


@pytest.fixture
def database_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty game store of this test's own, on each backend in turn."""
    return _fresh_url(backend, request, tmp_path)


@pytest.fixture(scope="session")
def session_database_url(backend: str, request: pytest.FixtureRequest,
                         tmp_path_factory: pytest.TempPathFactory) -> str:
    """A game store shared by the session's tests on one backend (each makes its own games)."""
    return _fresh_url(backend, request, tmp_path_factory.mktemp(backend))
