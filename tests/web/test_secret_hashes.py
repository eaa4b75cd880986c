"""The player secret (the ``damiera_player`` cookie) is never stored: the store keeps only its
SHA-256, in every column, and revision 0005 converts the rows of older stores (on SQLite and
PostgreSQL)."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

import sqlalchemy as sa
from fastapi.testclient import TestClient

from damiera.web import migrate
from damiera.web.app import create_app
from damiera.web.seats import new_game_seats
from damiera.web.store import GameStore, make_engine
from tests.web.conftest import ROOMY


def _sha256(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _rows(url: str) -> list[dict[str, object]]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(sa.text("SELECT * FROM games"))]
    finally:
        engine.dispose()


def test_no_column_holds_the_player_secret_and_my_games_still_work(tmp_db: str) -> None:
    app = create_app(tmp_db, computer_workers=1, computer_movetime=0.05, limits=ROOMY)
    with TestClient(app) as browser:
        friend = browser.post("/api/games", json={"variant": "italian", "opponent": "friend"})
        computer = browser.post("/api/games", json={"variant": "italian", "level": 1})
        assert friend.status_code == computer.status_code == 201
        token = browser.cookies["damiera_player"]
        for game in (friend.json(), computer.json()):
            r = browser.post(f"/api/games/{game['id']}/moves", json={"move": "22-19"})
            assert r.status_code == 200, r.text
        rows = _rows(tmp_db)
        assert len(rows) == 2
        for row in rows:
            assert all(token not in str(value) for value in row.values()), row
            assert row["owner"] == _sha256(token)
        mine = {g["id"] for g in browser.get("/api/games").json()}
        assert mine == {friend.json()["id"], computer.json()["id"]}
        assert browser.get("/api/pdn/my-games").text.count("[GameType") == 2
        assert friend.json()["id"] in browser.get("/games").text


OLD_ROW = {"variant": "italian", "optional_capture": False, "level": None, "moves": ["22-19"],
           "version": 1}


def test_revision_0005_turns_stored_secrets_into_their_hashes(tmp_db: str) -> None:
    engine = make_engine(tmp_db)
    migrate.upgrade(engine, "0004")            # a store as the release before hashes left it
    games = sa.table("games", *(sa.column(c) for c in (
        "id", "variant", "optional_capture", "opponent", "level", "side", "moves", "owner",
        "white_seat", "black_seat", "created_at", "updated_at", "version")))
    now = datetime.now(UTC)
    rows = []
    for game_id, owner, opponent, side in (("f", "tok-of-alice", "friend", "white"),
                                           ("c", "tok-of-alice", "computer", "black"),
                                           ("b", "tok-of-bob", "friend", "white"),
                                           ("n", None, "friend", "white")):
        white, black = new_game_seats(owner, opponent, side)
        rows.append({**OLD_ROW, "id": game_id, "owner": owner, "opponent": opponent,
                     "side": side, "white_seat": white, "black_seat": black,
                     "created_at": now, "updated_at": now})
    with engine.begin() as conn:
        conn.execute(sa.insert(games).values(moves=sa.bindparam("moves", type_=sa.JSON)),
                     rows)
    engine.dispose()

    GameStore(tmp_db).close()                  # the store upgrades itself to the newest

    after = {r["id"]: r for r in _rows(tmp_db)}
    assert {k: r["owner"] for k, r in after.items()} == {
        "f": _sha256("tok-of-alice"), "c": _sha256("tok-of-alice"),
        "b": _sha256("tok-of-bob"), "n": None}
    for row in rows:                           # seats were hashes already: unchanged
        assert (after[row["id"]]["white_seat"], after[row["id"]]["black_seat"]) == (
            row["white_seat"], row["black_seat"])
    app = create_app(tmp_db, computer_workers=1, computer_movetime=0.05, limits=ROOMY)
    with TestClient(app, cookies={"damiera_player": "tok-of-alice"}) as alice:
        assert {g["id"] for g in alice.get("/api/games").json()} == {"f", "c"}
        r = alice.post("/api/games/f/moves", json={"move": "10-14"})
        assert r.status_code == 200, r.text
