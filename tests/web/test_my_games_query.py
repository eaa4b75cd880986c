"""The query of "my games" (damiera.web.my_games): a browser's games by owner or either seat,
newest first, read from indexes on SQLite and PostgreSQL; schema revision 0007 makes them on
a store of revision 0006 and takes them back."""

from __future__ import annotations

import time

import sqlalchemy as sa
from alembic import command

from damiera.web import migrate
from damiera.web.my_games import games_of, recent_statement
from damiera.web.seats import seat_key
from damiera.web.store import GameStore, StoredGame, make_engine

NEW_INDEXES = {"ix_games_owner_updated_at", "ix_games_white_seat_updated_at",
               "ix_games_black_seat_updated_at"}


def _game(game_id: str, owner: str | None = None, white: str | None = None,
          black: str | None = None) -> StoredGame:
    return StoredGame(id=game_id, variant="italian", optional_capture=False, opponent="online",
                      level=None, side="white", start_fen=None,
                      owner=seat_key(owner) if owner else None,
                      white_seat=seat_key(white) if white else None,
                      black_seat=seat_key(black) if black else None)


def test_my_games_are_those_created_or_seated_in_newest_first(tmp_db: str) -> None:
    store = GameStore(tmp_db)
    for game in (_game("made", owner="me", white="me"), _game("joined", owner="them",
                 white="them", black="me"), _game("accepted", owner="them", white="me",
                 black="them"), _game("legacy", owner="me"), _game("theirs", owner="them",
                 white="them", black="other"), _game("both", owner="me", white="me",
                 black="me")):
        store.create(game)
        time.sleep(0.01)
    store.save(store.load("joined"))      # changed last
    assert [g.id for g in games_of(store, "me")] == [
        "joined", "both", "legacy", "accepted", "made"]
    assert [g.id for g in games_of(store, "me", limit=2)] == ["joined", "both"]
    assert games_of(store, None) == [] and games_of(store, "nobody") == []
    store.close()


def _plan(store: GameStore) -> str:
    """The database's plan of the query, as text."""
    statement = recent_statement(seat_key("me"), 50).compile(
        store.engine, compile_kwargs={"literal_binds": True})
    with store.engine.connect() as conn:
        if store.engine.dialect.name == "sqlite":
            rows = conn.execute(sa.text(f"EXPLAIN QUERY PLAN {statement}")).all()
            return "\n".join(str(r[-1]) for r in rows)
        conn.execute(sa.text("SET enable_seqscan = off"))   # as with a table of millions
        rows = conn.execute(sa.text(f"EXPLAIN {statement}")).all()
        return "\n".join(str(r[0]) for r in rows)


def test_the_query_reads_each_column_from_its_index(tmp_db: str) -> None:
    store = GameStore(tmp_db)
    for i in range(30):
        store.create(_game(f"g{i}", owner="me" if i % 3 == 0 else "x",
                           white="me" if i % 3 == 1 else "y",
                           black="me" if i % 3 == 2 else "z"))
    plan = _plan(store)
    for name in NEW_INDEXES:
        assert name in plan, plan
    if store.engine.dialect.name == "sqlite":
        assert "SCAN games\n" not in plan + "\n" and "SCAN TABLE games\n" not in plan + "\n"
    else:
        assert "Seq Scan on games" not in plan, plan
    store.close()


def _indexes(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return {str(i["name"]) for i in sa.inspect(conn).get_indexes("games")}
    finally:
        engine.dispose()


def test_revision_0007_makes_the_indexes_and_takes_them_back(tmp_db: str) -> None:
    store = GameStore(tmp_db)
    store.create(_game("kept", owner="me", white="me"))
    store.close()
    with store.engine.connect() as conn:
        command.downgrade(migrate.alembic_config(conn), "0006")
        conn.commit()
        assert "creator_seen_at" not in {
            c["name"] for c in sa.inspect(conn).get_columns("challenges")}
    store.engine.dispose()
    assert NEW_INDEXES.isdisjoint(_indexes(tmp_db)) and "ix_games_owner" in _indexes(tmp_db)
    store = GameStore(tmp_db)                 # upgraded again on opening
    assert NEW_INDEXES <= _indexes(tmp_db) and "ix_games_owner" not in _indexes(tmp_db)
    assert [g.id for g in games_of(store, "me")] == ["kept"]
    store.close()
