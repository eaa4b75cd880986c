"""Moves through the JSON API: full and short notation, the refusals that name the rule, the
explanations of a stopped piece, and captures as the rules make them (crowning mid-capture,
equal paths)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import new_game, play


def test_friend_game_moves_in_full_and_short_notation(client: TestClient):
    game = new_game(client, variant="italian")
    game = play(client, game["id"], "22-19")
    assert game["history"] == ["22-19"] and game["turn"] == "black"
    game = play(client, game["id"], "11-15")
    assert game["history"] == ["22-19", "11-15"]
    assert len(game["positions"]) == 3
    game = new_game(client, variant="italian", fen="W:W22:B18")
    game = play(client, game["id"], "22x13")
    assert game["last_move"] == {"move": "22x13", "from": "22", "to": "13", "path": ["22", "13"],
                                 "captures": ["18"], "promotes": False, "crowned_at": None}


def test_short_notation_of_a_multi_capture(client: TestClient):
    game = new_game(client, variant="american", fen="W:W30:B17,18,25")
    game = play(client, game["id"], "30x14")
    assert game["history"] == ["30x21x14"]


def test_move_against_the_computer_gets_its_reply(client: TestClient):
    game = new_game(client, variant="russian", opponent="computer", level=1)
    game = play(client, game["id"], "c3-d4")
    assert len(game["history"]) == 2
    assert game["turn"] == "white"
    assert game["last_move"]["move"] == game["history"][1]


@pytest.mark.parametrize(
    ("vid", "fen", "move", "code", "words"),
    [
        ("american", "W:W22,30:B18", "30-26", "capture_mandatory", "a capture is mandatory"),
        ("italian", "W:W21,24:B10,18,20", "24x15", "most_pieces",
         "Italian draughts: you must take the most pieces"),
        ("italian", "W:W22,32:BK18", "22x13", "man_takes_king", "a man cannot take a king"),
        ("czech", "W:We3,Kh6:Bd4,b6,g7", "e3xc5xa7", "king_must_capture",
         "Czech draughts: a king that can capture must capture"),
        ("italian", "W:W29:B11,19,26", "29x22", "capture_incomplete",
         "the capture must go on from 22"),
    ],
)
def test_illegal_move_is_400_with_the_rule_and_changes_nothing(
    client: TestClient, vid: str, fen: str, move: str, code: str, words: str
):
    game = new_game(client, variant=vid, fen=fen)
    r = client.post(f"/api/games/{game['id']}/moves", json={"move": move})
    assert r.status_code == 400
    body = r.json()
    assert words in body["error"]
    assert body["code"] == code
    after = client.get(f"/api/games/{game['id']}").json()
    assert after["fen"] == game["fen"] and after["history"] == [] and after["version"] == game[
        "version"]


@pytest.mark.parametrize("text", ["", "   ", "hello", "22-99", "22"])
def test_unreadable_move_is_400(client: TestClient, text: str):
    game = new_game(client, variant="italian")
    r = client.post(f"/api/games/{game['id']}/moves", json={"move": text})
    assert r.status_code == 400
    assert r.json()["error"]


def test_ambiguous_short_move_names_the_candidates(client: TestClient):
    game = new_game(client, variant="american", fen="W:W30:B17,18,25,26")
    r = client.post(f"/api/games/{game['id']}/moves", json={"move": "30x14"})
    assert r.status_code == 400
    assert r.json()["code"] == "ambiguous"
    assert "30x21x14" in r.json()["error"] and "30x23x14" in r.json()["error"]


def test_missing_move_field_is_422_with_error(client: TestClient):
    game = new_game(client, variant="italian")
    r = client.post(f"/api/games/{game['id']}/moves", json={})
    assert r.status_code == 422
    assert "move" in r.json()["error"]


def test_move_after_the_end_is_409(client: TestClient):
    game = new_game(client, variant="italian", fen="W:W18:B14")
    game = play(client, game["id"], "18x11")
    assert game["result"]["winner"] == "white"
    r = client.post(f"/api/games/{game['id']}/moves", json={"move": "11-6"})
    assert r.status_code == 409
    assert "over" in r.json()["error"]


def test_a_move_chosen_on_an_old_version_is_409(client: TestClient):
    game = new_game(client, variant="italian")
    moved = client.post(f"/api/games/{game['id']}/moves",
                        json={"move": "22-19", "version": game["version"]})
    assert moved.status_code == 200
    stale = client.post(f"/api/games/{game['id']}/moves",
                        json={"move": "11-15", "version": game["version"]})
    assert stale.status_code == 409 and "changed" in stale.json()["error"]
    fresh = client.post(f"/api/games/{game['id']}/moves",
                        json={"move": "11-15", "version": moved.json()["version"]})
    assert fresh.status_code == 200


def test_explain_names_the_rule_that_stops_a_piece(client: TestClient):
    game = new_game(client, variant="american", fen="W:W22,30:B18")
    r = client.get(f"/api/games/{game['id']}/explain", params={"square": "30"})
    assert r.status_code == 200
    assert r.json()["code"] == "capture_mandatory"
    assert "a capture is mandatory" in r.json()["reason"]
    r = client.get(f"/api/games/{game['id']}/explain", params={"square": "22"})
    assert r.json()["moves"] == ["22x15"] and r.json()["reason"] is None
    r = client.get(f"/api/games/{game['id']}/explain", params={"square": "z9"})
    assert r.status_code == 400


@pytest.mark.parametrize(
    ("vid", "fen", "square", "code"),
    [
        ("czech", "W:We3,Kh6:Bd4,b6,g7", "e3", "king_must_capture"),
        ("italian", "W:W21,24:B10,18,20", "24", "most_pieces"),
        ("american", "W:W22,30:B18", "18", "not_your_piece"),
    ],
)
def test_explain_names_the_capture_choice_rule(client: TestClient, vid: str, fen: str,
                                               square: str, code: str):
    game = new_game(client, variant=vid, fen=fen)
    r = client.get(f"/api/games/{game['id']}/explain", params={"square": square})
    assert r.json()["code"] == code, r.json()


def test_russian_man_crowned_mid_capture_is_a_king_from_that_landing(client: TestClient) -> None:
    """Promote-and-continue (RULES.md section 2): ``crowned_at`` is the index in ``path`` of
    the landing on the promotion row, so the page draws a king from there without a rule."""
    game = new_game(client, variant="russian", opponent="friend", fen="W:Wb6:Bc7,f6,h6")
    moves = {m["move"]: m for m in game["legal_moves"]}
    assert set(moves) == {"b6:d8:h4", "b6:d8:g5"}
    assert all(m["promotes"] and m["crowned_at"] == 1 for m in moves.values())
    after = play(client, game["id"], "b6:d8:g5")
    assert after["last_move"]["crowned_at"] == 1
    assert after["history_moves"] == [after["last_move"]]


def test_international_man_crowned_only_at_the_end_of_its_move(client: TestClient) -> None:
    """Pass-through (International): a man that ends on the promotion row is crowned at the
    end; one that passes through it is not crowned at all."""
    game = new_game(client, variant="international", opponent="friend", fen="W:W11,46:B7,8,45")
    moves = {m["move"]: m for m in game["legal_moves"]}
    assert moves["11x2x13"]["crowned_at"] is None and not moves["11x2x13"]["promotes"]
    game = new_game(client, variant="international", opponent="friend", fen="W:W12:B8")
    assert [(m["move"], m["crowned_at"]) for m in game["legal_moves"]] == [("12x3", 1)]


def test_equal_captures_list_every_path_that_names_them(client: TestClient) -> None:
    """International ``W:WK4:B10,20,22,32,33,37,39``: ``4x15x29x42x31x9`` captures the same
    pieces as ``4x15x24x42x31x9`` (one move, RULES.md section 1); ``paths`` lists both so
    that the page accepts either."""
    game = new_game(client, variant="international", opponent="friend",
                    fen="W:WK4:B10,20,22,32,33,37,39")
    moves = {m["move"]: m for m in game["legal_moves"]}
    assert len(moves) == 10
    paths = [p["path"] for p in moves["4x15x24x42x31x9"]["paths"]]
    assert paths[0] == moves["4x15x24x42x31x9"]["path"]
    assert ["4", "15", "29", "42", "31", "9"] in paths
    assert all(p[0] == "4" and p[-1] == "9" for p in paths)
    for way in moves["4x15x24x42x31x9"]["paths"]:
        assert sorted(way["captures"]) == sorted(moves["4x15x24x42x31x9"]["captures"])


def test_explain_names_a_rested_frisian_kings_limit_as_a_typed_move_does(client: TestClient):
    # White's king has made three quiet moves in a row and White still has a man.
    game = new_game(client, variant="frisian", fen="W:WK46,45:B1,2")
    for move in ("46-41", "1-7", "41-46", "7-12", "46-41", "2-8"):
        game = play(client, game["id"], move)
    r = client.get(f"/api/games/{game['id']}/explain", params={"square": "41"})
    assert r.status_code == 200
    typed = client.post(f"/api/games/{game['id']}/moves",
                        json={"move": "41-46", "version": game["version"]})
    assert typed.status_code == 400
    assert r.json()["code"] == typed.json()["code"] == "king_move_limit"
    assert r.json()["reason"] and "3" in r.json()["reason"]
    r = client.get(f"/api/games/{game['id']}/explain", params={"square": "45"})
    assert r.json()["reason"] is None and r.json()["moves"]
