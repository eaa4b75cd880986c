"""What the JSON API keeps: PDN downloads, a browser's own games (listed, deleted), games
across a restart, and two writes at once (one wins, the other is refused)."""

from __future__ import annotations

import asyncio
import concurrent.futures

import httpx2
import pytest
from fastapi.testclient import TestClient

from damiera.web.app import create_app
from tests.web.conftest import new_game, play


def test_pdn_download(client: TestClient):
    game = new_game(client, variant="italian")
    play(client, game["id"], "22-19")
    r = client.get(f"/api/games/{game['id']}/pdn")
    assert r.status_code == 200
    assert "attachment" in r.headers["content-disposition"]
    assert '[GameType "22,W,8,8,N2,1"]' in r.text
    assert '[Result "*"]' in r.text
    assert "[FEN" not in r.text
    assert "1. 22-19 *" in r.text


def test_pdn_of_a_game_from_a_fen_with_its_result(client: TestClient):
    game = new_game(client, variant="italian", fen="W:W18:B14")
    play(client, game["id"], "18x11")
    text = client.get(f"/api/games/{game['id']}/pdn").text
    assert '[FEN "W:W18:B14"]' in text
    assert '[Result "1-0"]' in text


def test_my_games_lists_this_browsers_games_only(db_url: str):
    app = create_app(db_url, computer_workers=1)
    with TestClient(app) as mine, TestClient(app) as other:
        made = new_game(mine, variant="spanish")
        play(mine, made["id"], made["legal_moves"][0]["move"])
        theirs = new_game(other, variant="czech")
        play(other, theirs["id"], theirs["legal_moves"][0]["move"])
        ids = [g["id"] for g in mine.get("/api/games").json()]
        assert made["id"] in ids
        assert all(g["variant"] == "spanish" for g in mine.get("/api/games").json())
        page = mine.get("/games")
        assert made["id"] in page.text


def test_my_games_leave_out_empty_games_and_say_moves_side_and_result(db_url: str) -> None:
    """Moves counted as numbered (not plies), your side, the result with
    its reason and whether you won; games without a move are not listed."""
    app = create_app(db_url, computer_workers=1)
    with TestClient(app) as mine:
        empty = new_game(mine, variant="italian")
        game = new_game(mine, variant="italian", opponent="computer", side="black")
        assert len(game["history"]) == 1            # the computer (White) has moved
        r = mine.post(f"/api/games/{game['id']}/resign")
        assert r.status_code == 200
        rows = {g["id"]: g for g in mine.get("/api/games").json()}
        assert empty["id"] not in rows
        row = rows[game["id"]]
        assert row["side"] == "black" and row["moves"] == 1 and row["plies"] == 1
        assert row["outcome"] == "lost"
        assert row["result"]["text"] == "White wins: Black resigned"
        page = mine.get("/games").text
        assert "You lost" in page and "White wins: Black resigned" in page


def test_a_game_is_deleted_only_by_the_browser_that_made_it(db_url: str) -> None:
    app = create_app(db_url, computer_workers=1)
    with TestClient(app) as mine, TestClient(app) as other:
        game = new_game(mine, variant="czech")
        play(mine, game["id"], game["legal_moves"][0]["move"])
        r = other.delete(f"/api/games/{game['id']}")   # a watcher: no seat (seats.require)
        assert r.status_code == 403
        assert r.json()["error"] == "only the browser that created this game may delete it"
        r = other.delete(f"/api/games/{game['id']}?lang=it")
        assert r.status_code == 403 and r.json()["error"] == (
            "solo il browser che ha creato questa partita può eliminarla")
        r = mine.delete(f"/api/games/{game['id']}", headers={"Origin": "https://evil.example"})
        assert r.status_code == 403     # a cross-site request, even with the seat's cookie
        assert mine.get(f"/api/games/{game['id']}").status_code == 200
        assert mine.delete(f"/api/games/{game['id']}").status_code == 204
        assert mine.get(f"/api/games/{game['id']}").status_code == 404
        assert mine.delete(f"/api/games/{game['id']}").status_code == 404
        assert game["id"] not in [g["id"] for g in mine.get("/api/games").json()]


def test_games_last_across_a_restart(tmp_db: str):
    with TestClient(create_app(tmp_db, computer_workers=1)) as c:
        game = new_game(c, variant="international")
        play(c, game["id"], "32-28")
        seat = c.cookies
    with TestClient(create_app(tmp_db, computer_workers=1), cookies=seat) as c:
        again = c.get(f"/api/games/{game['id']}").json()
        assert again["history"] == ["32-28"]
        assert play(c, game["id"], "19-23")["history"] == ["32-28", "19-23"]


def test_two_moves_at_once_one_wins_the_other_is_409(client: TestClient):
    """Both chosen on the same version (as the page sends them): whichever lands second finds
    the game changed (the version check, or the store's optimistic write), in any process."""
    game = new_game(client, variant="italian")

    async def both() -> list[httpx2.Response]:
        transport = httpx2.ASGITransport(app=client.app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://testserver",
                                     cookies=client.cookies) as ac:
            return list(await asyncio.gather(
                ac.post(f"/api/games/{game['id']}/moves",
                        json={"move": "22-19", "version": game["version"]}),
                ac.post(f"/api/games/{game['id']}/moves",
                        json={"move": "21-17", "version": game["version"]}),
            ))

    # in a thread of its own: Playwright's sync API may hold this thread's event loop
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        responses = pool.submit(asyncio.run, both()).result()
    codes = sorted(r.status_code for r in responses)
    assert codes == [200, 409], [r.text for r in responses]
    stored = client.get(f"/api/games/{game['id']}").json()
    assert len(stored["history"]) == 1
    winner = next(r for r in responses if r.status_code == 200).json()
    assert stored["history"] == winner["history"]


def test_store_refuses_a_stale_write(tmp_db: str):
    from damiera.web.store import ConflictError, GameStore, StoredGame

    store = GameStore(tmp_db)
    made = store.create(StoredGame(id="g1", variant="italian", optional_capture=False,
                                   opponent="friend", level=None, side="white", start_fen=None))
    first, second = store.load("g1"), store.load("g1")
    first.moves = ["22-19"]
    store.save(first)
    second.moves = ["21-17"]
    with pytest.raises(ConflictError):
        store.save(second)
    assert store.load("g1").moves == ["22-19"]
    assert store.load("g1").version == made.version + 1
