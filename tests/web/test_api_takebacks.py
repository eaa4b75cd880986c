"""Taking back, resigning and agreeing a draw through the JSON API: who may, when, and the
409 for a game that has moved on."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import new_game, play


def test_undo_in_a_friend_game_takes_back_one_move(client: TestClient):
    game = new_game(client, variant="italian")
    play(client, game["id"], "22-19")
    play(client, game["id"], "11-15")
    r = client.post(f"/api/games/{game['id']}/undo")
    assert r.status_code == 200
    assert r.json()["history"] == ["22-19"]


def test_undo_against_the_computer_takes_back_your_move_and_its_reply(client: TestClient):
    game = new_game(client, variant="italian", opponent="computer")
    play(client, game["id"], "22-19")
    r = client.post(f"/api/games/{game['id']}/undo")
    assert r.status_code == 200
    assert r.json()["history"] == [] and r.json()["turn"] == "white"


def test_undo_with_nothing_to_take_back_is_409(client: TestClient):
    game = new_game(client, variant="italian")
    r = client.post(f"/api/games/{game['id']}/undo")
    assert r.status_code == 409
    game = new_game(client, variant="american", opponent="computer", side="white")
    r = client.post(f"/api/games/{game['id']}/undo")  # only the computer's first move
    assert r.status_code == 409


def test_can_undo_says_whether_an_undo_would_take_something_back(client: TestClient):
    game = new_game(client, variant="american", opponent="computer", side="white")
    assert len(game["history"]) == 1 and game["can_undo"] is False  # only the computer's move
    game = play(client, game["id"], game["legal_moves"][0]["move"])
    assert game["can_undo"] is True
    game = client.post(f"/api/games/{game['id']}/resign").json()
    assert game["can_undo"] is False
    game = new_game(client, variant="czech")
    assert game["can_undo"] is False
    game = play(client, game["id"], game["legal_moves"][0]["move"])
    assert game["can_undo"] is True
    game = client.post(f"/api/games/{game['id']}/draw").json()
    assert game["can_undo"] is False
    assert client.post(f"/api/games/{game['id']}/undo").status_code == 409


@pytest.mark.parametrize("action", ["undo", "resign", "draw"])
def test_undo_resign_draw_on_an_old_version_are_409(client: TestClient, action: str):
    game = new_game(client, variant="italian")
    seen = play(client, game["id"], "22-19")["version"]
    now = play(client, game["id"], "11-15")             # another tab plays meanwhile
    r = client.post(f"/api/games/{game['id']}/{action}", json={"version": seen})
    assert r.status_code == 409 and "reload" in r.json()["error"]
    after = client.get(f"/api/games/{game['id']}").json()
    assert after["history"] == ["22-19", "11-15"] and after["result"] is None
    r = client.post(f"/api/games/{game['id']}/{action}", json={"version": now["version"]})
    assert r.status_code == 200, r.text
    r = client.post(f"/api/games/{game['id']}/{action}", json={"version": "x"})
    assert r.status_code == 422 and "version" in r.json()["error"]


def test_resign_against_the_computer(client: TestClient):
    game = new_game(client, variant="brazilian", opponent="computer")
    r = client.post(f"/api/games/{game['id']}/resign")
    assert r.status_code == 200
    assert r.json()["result"]["winner"] == "black"
    assert r.json()["result"]["reason"] == "resignation"
    r = client.post(f"/api/games/{game['id']}/resign")
    assert r.status_code == 409
    r = client.post(f"/api/games/{game['id']}/undo")
    assert r.status_code == 409
    # the stored game keeps the result
    assert client.get(f"/api/games/{game['id']}").json()["result"]["reason"] == "resignation"


def test_resign_against_the_computer_only_for_your_side(client: TestClient):
    game = new_game(client, variant="italian", opponent="computer", side="white")
    r = client.post(f"/api/games/{game['id']}/resign", json={"side": "black"})
    assert r.status_code == 409
    assert "only your side may resign (White)" in r.json()["error"]
    assert client.get(f"/api/games/{game['id']}").json()["result"] is None
    r = client.post(f"/api/games/{game['id']}/resign", json={"side": "white"})
    assert r.status_code == 200 and r.json()["result"]["winner"] == "black"


def test_resign_between_friends_is_the_side_to_move_or_the_side_given(client: TestClient):
    game = new_game(client, variant="italian")
    r = client.post(f"/api/games/{game['id']}/resign", json={"side": "black"})
    assert r.json()["result"]["winner"] == "white"
    game = new_game(client, variant="italian")
    r = client.post(f"/api/games/{game['id']}/resign")
    assert r.json()["result"]["winner"] == "black"


def test_agreed_draw_between_friends_only(client: TestClient):
    game = new_game(client, variant="czech")
    r = client.post(f"/api/games/{game['id']}/draw")
    assert r.status_code == 200
    assert r.json()["result"] == {"winner": None, "reason": "agreement",
                                  "text": "Draw: agreed by the players"}
    game = new_game(client, variant="czech", opponent="computer")
    r = client.post(f"/api/games/{game['id']}/draw")
    assert r.status_code == 409
