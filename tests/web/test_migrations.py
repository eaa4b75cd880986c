"""The store's schema migrations (damiera.web.migrate, Alembic), on SQLite and PostgreSQL:
fresh stores, stores made before migrations existed, concurrent start-up, downgrades; and the
store's connection behaviour (times in UTC, a dropped connection)."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from fastapi.testclient import TestClient

from damiera.cli import main
from damiera.web import migrate
from damiera.web.seats import new_game_seats
from damiera.web.store import GameStore, StoredGame, make_engine
from damiera.web.store_tables import METADATA
from tests.conftest import WAIT_SECONDS, free_port
from tests.web.conftest import new_game, play


def _schema_differences(url: str) -> list[object]:
    """What Alembic's autogenerate would change to make the database match the models."""
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return list(compare_metadata(
                MigrationContext.configure(conn, opts={"compare_type": True}), METADATA))
    finally:
        engine.dispose()


def _revision(url: str) -> str | None:
    engine = make_engine(url)
    try:
        return migrate.current(engine)
    finally:
        engine.dispose()


def test_a_fresh_store_is_at_the_newest_revision_and_matches_the_models(tmp_db: str) -> None:
    GameStore(tmp_db).close()
    assert _revision(tmp_db) == migrate.head()
    assert _schema_differences(tmp_db) == []


def test_a_store_made_by_create_all_before_migrations_is_stamped_and_keeps_its_games(
    tmp_db: str,
) -> None:
    engine = make_engine(tmp_db)   # the last release before migrations: create_all, no version
    METADATA.create_all(engine)
    now = datetime.now(UTC)
    with engine.begin() as conn:
        conn.execute(METADATA.tables["games"].insert().values(
            id="old1", variant="italian", optional_capture=False, opponent="friend",
            side="white", moves=["22-19"], owner="tok", white_seat="w-hash", black_seat=None,
            clock=None, engine=None, created_at=now, updated_at=now, version=1))
    engine.dispose()
    assert _revision(tmp_db) is None
    store = GameStore(tmp_db)
    old = store.load("old1")
    assert (old.moves, old.white_seat, old.black_seat) == (["22-19"], "w-hash", None)
    store.close()
    assert _revision(tmp_db) == migrate.head()
    assert _schema_differences(tmp_db) == []


FIRST_RELEASE = sa.Table(   # the games table as the first release made it (revision 0001)
    "games", sa.MetaData(),
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("variant", sa.String(32), nullable=False),
    sa.Column("optional_capture", sa.Boolean, nullable=False),
    sa.Column("opponent", sa.String(16), nullable=False),
    sa.Column("level", sa.Integer, nullable=True),
    sa.Column("side", sa.String(8), nullable=False),
    sa.Column("start_fen", sa.String(400), nullable=True),
    sa.Column("moves", sa.JSON, nullable=False),
    sa.Column("result_winner", sa.String(8), nullable=True),
    sa.Column("result_reason", sa.String(32), nullable=True),
    sa.Column("owner", sa.String(64), nullable=True, index=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, index=True),
    sa.Column("version", sa.Integer, nullable=False),
)


def test_a_store_of_the_first_release_gets_seats_for_the_creator_a_clock_and_an_engine(
    tmp_db: str,
) -> None:
    engine = make_engine(tmp_db)
    FIRST_RELEASE.metadata.create_all(engine)
    now = datetime.now(UTC)
    common = {"variant": "italian", "optional_capture": False, "moves": [], "created_at": now,
              "updated_at": now, "version": 1}
    with engine.begin() as conn:
        conn.execute(FIRST_RELEASE.insert(), [
            {**common, "id": "friends", "opponent": "friend", "side": "white", "owner": "tok"},
            {**common, "id": "computer", "opponent": "computer", "level": 1, "side": "black",
             "owner": "tok"},
            {**common, "id": "nobody", "opponent": "friend", "side": "white", "owner": None},
        ])
    engine.dispose()
    store = GameStore(tmp_db)
    for game_id, opponent, side in (("friends", "friend", "white"),
                                    ("computer", "computer", "black")):
        game = store.load(game_id)
        assert (game.white_seat, game.black_seat) == new_game_seats("tok", opponent, side)
        assert game.clock is None and game.engine is None
    nobody = store.load("nobody")
    assert (nobody.white_seat, nobody.black_seat) == (None, None)
    store.save(nobody)   # the migrated row takes writes (version column intact)
    store.close()
    assert _schema_differences(tmp_db) == []


#: A web process starting: it imports everything, says so, waits for the word, opens the store.
STARTER = """
import sys
from damiera.web.store import GameStore
print("ready", flush=True)
sys.stdin.readline()
GameStore(sys.argv[1]).close()
print("started", flush=True)
"""


def test_processes_starting_at_once_on_one_new_database_all_start(tmp_db: str) -> None:
    """The migration lock lets one process upgrade; the others find the schema done."""
    starters = [subprocess.Popen([sys.executable, "-c", STARTER, tmp_db], text=True,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE) for _ in range(3)]
    try:
        for p in starters:
            assert p.stdout is not None and p.stdout.readline() == "ready\n"
        for p in starters:   # all at once
            assert p.stdin is not None
            p.stdin.write("go\n")
            p.stdin.flush()
        results = [p.communicate(timeout=WAIT_SECONDS) for p in starters]
    finally:
        for p in starters:
            p.kill()
    assert [(p.returncode, out, err) for p, (out, err) in zip(starters, results, strict=True)
            ] == [(0, "started\n", "")] * len(starters)
    assert _revision(tmp_db) == migrate.head()


def test_every_revision_downgrades_and_upgrades_again(tmp_db: str) -> None:
    store = GameStore(tmp_db)
    store.close()
    with store.engine.connect() as conn:
        command.downgrade(migrate.alembic_config(conn), "base")
        conn.commit()
        assert not sa.inspect(conn).has_table("games")
    store.engine.dispose()
    assert _revision(tmp_db) is None
    GameStore(tmp_db).close()
    assert _revision(tmp_db) == migrate.head() and _schema_differences(tmp_db) == []


def test_times_are_utc_whatever_the_session_time_zone(tmp_db: str) -> None:
    """The PostgreSQL test cluster's sessions run at UTC-3:30 (tests/services/postgres.py)."""
    store = GameStore(tmp_db)
    made = store.create(StoredGame(id="t", variant="italian", optional_capture=False,
                                   opponent="friend", level=None, side="white", start_fen=None))
    back = store.load("t")
    assert back.created_at == made.created_at and back.created_at.utcoffset() == timedelta(0)
    newfoundland = timezone(timedelta(hours=-3, minutes=-30))
    just_before = (back.updated_at - timedelta(seconds=1)).astimezone(newfoundland)
    assert store.delete_untouched(just_before) == 0
    assert store.delete_untouched(just_before + timedelta(seconds=2)) == 1
    store.close()


def test_a_dropped_postgresql_connection_costs_no_failed_request(postgres_url: str) -> None:
    """As after a database restart: every connection the pool holds is cut by the server."""
    store = GameStore(postgres_url)
    store.create(StoredGame(id="p", variant="italian", optional_capture=False,
                            opponent="friend", level=None, side="white", start_fen=None))
    admin = sa.create_engine(postgres_url, poolclass=sa.pool.NullPool)
    with admin.connect() as conn:
        cut = conn.execute(sa.text(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()")).scalar()
    admin.dispose()
    assert cut and cut >= 1
    assert store.load("p").id == "p"
    store.close()


def test_plain_postgresql_urls_use_psycopg_3() -> None:
    engine = make_engine("postgresql://someone@db.invalid/damiera")
    assert engine.dialect.driver == "psycopg" and engine.pool._pre_ping
    engine.dispose()


def test_damiera_db_shows_and_upgrades_the_revision(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    (tmp_path / "games.sqlite3").touch()       # an empty database
    assert main(["db", "current", "--database-url", url]) == 0
    assert capsys.readouterr().out == (
        f"revision none (empty, or made before migrations); newest {migrate.head()}\n")
    assert main(["db", "upgrade", "--database-url", url]) == 0
    assert capsys.readouterr().out == f"revision {migrate.head()}; newest {migrate.head()}\n"
    assert main(["db", "upgrade", "--database-url", "nonsense"]) == 2
    assert capsys.readouterr().err == "damiera: error: bad database URL 'nonsense'\n"


def test_the_api_and_my_games_give_times_in_utc(client: TestClient) -> None:
    """On PostgreSQL the test cluster's sessions run at UTC-3:30: the times must not be."""
    game = play(client, new_game(client, variant="italian")["id"], "22-19")
    updated = datetime.fromisoformat(game["updated_at"])
    assert updated.utcoffset() == timedelta(0)
    assert datetime.fromisoformat(game["created_at"]).utcoffset() == timedelta(0)
    page = client.get("/games").text
    assert (f'<time datetime="{updated.isoformat()}" dir="ltr">'
            f'{updated.strftime("%Y-%m-%d %H:%M")} UTC</time>') in page


def test_a_database_from_a_newer_damiera_is_refused_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    GameStore(url).close()
    engine = make_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = '9999'"))
    engine.dispose()
    with pytest.raises(migrate.MigrationError, match="revision 9999, which this version"):
        GameStore(url)
    assert main(["serve", "--port", str(free_port()), "--database-url", url]) == 2
    err = capsys.readouterr().err
    assert err.startswith("damiera: error: the database is at schema revision 9999")
    assert err.count("\n") == 1


def test_a_database_password_is_never_printed(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    url = f"postgresql://me:secret@/damiera?host={tmp_path}"   # no server there
    assert main(["db", "upgrade", "--database-url", url]) == 2
    err = capsys.readouterr().err
    assert err.startswith("damiera: error: the database 'postgresql://me:***@/damiera?host=")
    assert "secret" not in err and err.count("\n") == 1


@pytest.mark.parametrize("url", [
    "postgresql://me:secret@dbhost:notaport/damiera",     # a port that is not a number
    "postgresq://me:secret@dbhost/damiera",               # a misspelt scheme
    "postgresql+nope://me:secret@dbhost/damiera",         # an unknown driver
])
@pytest.mark.parametrize("command", ["db", "serve"])
def test_a_malformed_database_url_is_one_line_without_its_password(
        url: str, command: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["db", "current"] if command == "db" else ["serve", "--port", str(free_port())]
    assert main([*args, "--database-url", url]) == 2
    err = capsys.readouterr().err
    assert err.startswith("damiera: error: bad database URL")
    assert "secret" not in err and "***" in err and err.count("\n") == 1


def test_db_current_on_a_missing_sqlite_file_makes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A mistyped path is reported, not created (folders and an empty database)."""
    missing = tmp_path / "typo" / "games.sqlite3"
    assert main(["db", "current", "--database-url", f"sqlite:///{missing}"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"revision none (no database file {missing} yet)")
    assert not (tmp_path / "typo").exists()
