"""Seats: a game's id is public, only the browser holding a side's seat may change it, and a
change must come from the site's own pages as JSON."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from damiera.web.app import create_app
from tests.conftest import FIRST_RELEASE_GAMES_TABLE
from tests.security.conftest import ROOMY, new_game

CHANGES = [("moves", {"move": "22-19"}), ("undo", {}), ("resign", {}), ("draw", {})]


@pytest.fixture
def db(database_url: str) -> str:
    """Seats are stored with each game: these tests run on SQLite and on PostgreSQL."""
    return database_url


def test_two_clients_with_different_cookies_one_plays_the_other_watches(
    alice: TestClient, bob: TestClient
) -> None:
    game = new_game(alice)
    assert game["seats"] == ["white", "black"]      # a friend game on one screen: both seats
    gid = game["id"]
    seen = bob.get(f"/api/games/{gid}").json()
    assert seen["seats"] == [] and seen["fen"] == game["fen"]     # bob may watch
    for path, body in CHANGES:
        r = bob.post(f"/api/games/{gid}/{path}", json=body)
        assert r.status_code == 403, (path, r.text)
    assert bob.get(f"/api/games/{gid}").json()["history"] == []   # nothing changed
    page = bob.get(f"/game/{gid}")
    assert page.status_code == 200 and '"seats": []' in page.text   # a read-only board
    r = alice.post(f"/api/games/{gid}/moves", json={"move": "22-19"})
    assert r.status_code == 200 and r.json()["history"] == ["22-19"]


def test_against_the_computer_only_the_humans_seat_may_ask_for_the_reply(
    alice: TestClient, bob: TestClient
) -> None:
    game = new_game(alice, opponent="computer", side="black")   # the computer moves first
    assert game["seats"] == ["black"]
    gid = game["id"]
    assert bob.post(f"/api/games/{gid}/reply").status_code == 403
    assert bob.post(f"/api/games/{gid}/resign", json={"side": "black"}).status_code == 403
    assert alice.post(f"/api/games/{gid}/reply").status_code == 409   # not its turn


def test_share_links_and_pdn_carry_only_the_public_id(alice: TestClient) -> None:
    game = new_game(alice)
    token = alice.cookies.get("damiera_player")
    assert token
    pdn = alice.get(f"/api/games/{game['id']}/pdn").text
    assert f"game {game['id']}" in pdn and token not in pdn
    for text in (pdn, alice.get(f"/api/games/{game['id']}").text,
                 alice.get(f"/game/{game['id']}").text):
        assert token not in text and "_seat" not in text


def test_a_cross_site_form_post_changes_nothing(alice: TestClient) -> None:
    gid = new_game(alice)["id"]
    evil = {"origin": "https://evil.example"}
    form = {"content-type": "application/x-www-form-urlencoded"}
    for path, _body in CHANGES + [("reply", {})]:
        # an HTML form on another site, sent with the player's own cookie
        r = alice.post(f"/api/games/{gid}/{path}", content=b"", headers={**evil, **form})
        assert r.status_code == 403, (path, r.text)
        r = alice.post(f"/api/games/{gid}/{path}", content=b"move=22-19",
                       headers={**form, "sec-fetch-site": "cross-site"})
        assert r.status_code == 403, (path, r.text)
        r = alice.post(f"/api/games/{gid}/{path}", content=b"move=22-19", headers=form)
        assert r.status_code == 415, (path, r.text)
    r = alice.post("/api/games", content=b'{"variant": "italian"}',
                   headers={"content-type": "text/plain", **evil})
    assert r.status_code == 403
    assert alice.get(f"/api/games/{gid}").json()["history"] == []
    # the site's own page: same origin, JSON
    r = alice.post(f"/api/games/{gid}/moves", json={"move": "22-19"},
                   headers={"origin": "http://testserver", "sec-fetch-site": "same-origin"})
    assert r.status_code == 200


def test_games_stored_before_seats_go_to_the_browser_that_created_them(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")
    with sqlite3.connect(path) as conn:    # the table as releases before seats made it
        conn.execute(FIRST_RELEASE_GAMES_TABLE)
        conn.execute(
            "INSERT INTO games (id, variant, optional_capture, opponent, level, side, moves, "
            "owner, created_at, updated_at, version) VALUES ('old1', 'italian', 0, 'friend', "
            "NULL, 'white', '[\"22-19\"]', 'tok-of-alice', ?, ?, 1)", (now, now))
    app = create_app(f"sqlite:///{path}", computer_workers=1, limits=ROOMY)
    with TestClient(app, cookies={"damiera_player": "tok-of-alice"}) as alice, \
            TestClient(app) as bob:
        assert alice.get("/api/games/old1").json()["seats"] == ["white", "black"]
        assert bob.post("/api/games/old1/moves", json={"move": "10-14"}).status_code == 403
        r = alice.post("/api/games/old1/moves", json={"move": "10-14"})
        assert r.status_code == 200 and r.json()["history"] == ["22-19", "10-14"]
