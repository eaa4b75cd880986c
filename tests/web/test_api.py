"""The JSON API's games: the variants, creating and reading a game, the documented
routes, and how bad input is refused (4xx with the reason, never the input echoed in full)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from damiera.rules.position import start_position, write_fen
from damiera.rules.variant import VARIANTS, variant
from tests.web.conftest import new_game

GAME_FIELDS = {"id", "variant", "fen", "turn", "legal_moves", "history", "result"}
MOVE_FIELDS = {"move", "from", "to", "path", "captures", "promotes", "crowned_at", "paths"}


def test_variants_lists_every_variant_in_menu_order_with_rule_parameters(client: TestClient):
    r = client.get("/api/variants")
    assert r.status_code == 200
    data = r.json()
    assert [v["id"] for v in data] == list(VARIANTS)
    for v in data:
        params = VARIANTS[v["id"]].rule_parameters()
        params["first_to_move"] = VARIANTS[v["id"]].first_to_move.word  # words, as elsewhere
        for key, value in params.items():
            assert v[key] == value
        assert len(v["board"]["squares"]) == v["board_size"] ** 2 // (1 if v["all_squares"] else 2)
    turkish = next(v for v in data if v["id"] == "turkish")
    labels = {s["label"] for s in turkish["board"]["squares"]}
    assert {"a1", "a2", "b1", "h8"} <= labels and len(labels) == 64  # light squares play too
    italian = next(v for v in data if v["id"] == "italian")
    squares = {s["label"]: (s["file"], s["rank"]) for s in italian["board"]["squares"]}
    assert squares["1"] == (0, 7)  # a8: the mirrored board's first square
    assert squares["32"] == (7, 0)  # h1


def test_create_game_defaults_201(client: TestClient):
    r = client.post("/api/games", json={"variant": "italian"})
    assert r.status_code == 201
    game = r.json()
    assert GAME_FIELDS <= set(game)
    assert game["variant"] == "italian"
    assert game["opponent"] == "computer" and game["level"] == 1
    assert game["side"] == "white" and game["turn"] == "white"
    assert game["history"] == [] and game["result"] is None
    assert game["fen"] == "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    assert sorted(m["move"] for m in game["legal_moves"]) == [
        "21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20"]
    for m in game["legal_moves"]:
        assert set(m) == MOVE_FIELDS
    assert r.headers["location"] == f"/api/games/{game['id']}"
    assert "damiera_player" in r.cookies


def test_create_game_computer_moves_first_when_you_take_the_second_side(client: TestClient):
    game = new_game(client, variant="american", opponent="computer", side="white")
    assert len(game["history"]) == 1  # Black (the computer) moved first
    assert game["turn"] == "white"
    assert game["last_move"]["move"] == game["history"][0]


def test_create_game_from_fen(client: TestClient):
    game = new_game(client, variant="russian", fen="W:WKa1:Bc3,h8")
    assert game["fen"] == "W:WKa1:Bc3,h8"
    assert game["start_fen"] == "W:WKa1:Bc3,h8"
    assert {m["move"] for m in game["legal_moves"]} == {"a1:d4", "a1:e5", "a1:f6", "a1:g7"}


def test_create_game_from_a_lidraughts_fen_keeps_its_draw_count_and_move_number(
        client: TestClient):
    """The site stored the FEN canonical and so dropped lidraughts' H and F: a game started
    one quiet ply short of the forty-move rule went on, numbered from 1. Now both are kept
    (the start FEN, the move numbers, the draw rule, the game rebuilt from the store)."""
    game = new_game(client, variant="american", opponent="friend", fen="W:WK1,K5:BK32:H79:F40")
    assert game["start_fen"] == "W:WK1,K5:BK32:H79:F40" and game["result"] is None
    played = client.post(f"/api/games/{game['id']}/moves", json={"move": "1-6"})
    assert played.status_code == 200, played.text
    after = client.get(f"/api/games/{game['id']}").json()
    assert after["move_numbers"] == ["40…"]
    assert after["result"] is not None and after["result"]["winner"] is None
    plain = new_game(client, variant="international", opponent="friend",
                     fen="W:W31-50:B1-20:H0:F1")
    assert plain["start_fen"] == write_fen(variant("international"),
                                           start_position(variant("international")))


def test_create_game_with_optional_capture(client: TestClient):
    game = new_game(client, variant="american", optional_capture=True, fen="B:W18:B14,1")
    assert game["optional_capture"] is True
    moves = {m["move"] for m in game["legal_moves"]}
    assert "14x23" in moves and "1-5" in moves


def test_finished_position_is_over_at_once(client: TestClient):
    game = new_game(client, variant="italian", fen="B:W22:B")
    assert game["result"] == {"winner": "white", "reason": "no-pieces",
                              "text": "White wins: Black has no pieces left"}
    assert game["legal_moves"] == []


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"variant": "checkers9000"}, "unknown variant"),
        ({"variant": "international", "optional_capture": True}, "8x8"),
        ({"variant": "italian", "fen": "W:W99:B1"}, "bad FEN"),
        ({"variant": "italian", "fen": "nonsense"}, "bad FEN"),
    ],
)
def test_create_game_bad_input_is_400_with_reason(client: TestClient, body: dict[str, Any],
                                                  words: str):
    r = client.post("/api/games", json=body)
    assert r.status_code == 400
    assert words in r.json()["error"]


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"variant": "italian", "level": 7},
        {"variant": "italian", "side": "red"},
        {"variant": "italian", "opponent": "martian"},
    ],
)
def test_create_game_malformed_body_is_4xx_with_error(client: TestClient, body: dict[str, Any]):
    r = client.post("/api/games", json=body)
    assert 400 <= r.status_code < 500
    assert r.json()["error"]


def test_create_game_not_json_is_4xx(client: TestClient):
    r = client.post("/api/games", content=b"{not json", headers={"content-type": "application/json"})
    assert 400 <= r.status_code < 500
    assert "error" in r.json()


def test_get_game(client: TestClient):
    game = new_game(client, variant="spanish")
    r = client.get(f"/api/games/{game['id']}")
    assert r.status_code == 200
    assert r.json()["fen"] == game["fen"]
    assert r.json()["positions"] == [game["fen"]]


def test_unknown_game_is_404_everywhere(client: TestClient):
    for method, path in [
        ("GET", "/api/games/nope"),
        ("POST", "/api/games/nope/moves"),
        ("POST", "/api/games/nope/undo"),
        ("POST", "/api/games/nope/resign"),
        ("POST", "/api/games/nope/draw"),
        ("GET", "/api/games/nope/pdn"),
        ("GET", "/api/games/nope/explain?square=22"),
    ]:
        r = client.request(method, path, json={"move": "22-19"} if "moves" in path else None)
        assert r.status_code == 404, (method, path)
        assert "nope" in r.json()["error"]


def test_unknown_api_route_is_404_json(client: TestClient):
    r = client.get("/api/nothing-here")
    assert r.status_code == 404
    assert "error" in r.json()


def test_openapi_documents_the_routes(client: TestClient):
    paths = client.get("/openapi.json").json()["paths"]
    for p in ["/api/variants", "/api/games", "/api/games/{game_id}",
              "/api/games/{game_id}/moves", "/api/games/{game_id}/undo",
              "/api/games/{game_id}/resign", "/api/games/{game_id}/pdn"]:
        assert p in paths


def test_a_misspelt_variant_of_a_new_game_is_refused_with_a_guess(client: TestClient):
    r = client.post("/api/games", json={"variant": "amercan"})
    assert r.status_code == 400
    assert "unknown variant 'amercan' (did you mean 'american'?)" in r.json()["error"]
    r = client.post("/api/games", json={"variant": "amercan+losing"})
    assert r.status_code == 400 and "(did you mean 'american'?)" in r.json()["error"]
    r = client.post("/api/games", json={"variant": "Italian draughts"})  # its listed name
    assert r.status_code == 201 and r.json()["variant"] == "italian"


def test_errors_never_echo_a_huge_input_in_full(client: TestClient):
    r = client.post("/api/games", json={"variant": "x" * 30})
    assert r.status_code == 400 and len(r.json()["error"]) < 300
    assert "unknown variant 'xxx" in r.json()["error"]
    r = client.post("/api/games", json={"variant": "x" * 10_000})
    assert r.status_code == 422 and len(r.text) < 300
    r = client.post("/api/games", json={"variant": "italian", "fen": "W:W" + "1," * 20_000})
    assert r.status_code == 422 and len(r.text) < 400
    game = new_game(client, variant="italian")
    r = client.post(f"/api/games/{game['id']}/moves", json={"move": "22-19" * 200_000})
    assert r.status_code == 413 and len(r.text) < 1000
    r = client.post(f"/api/games/{game['id']}/moves", json={"move": "22-19" * 2000})
    assert r.status_code == 422 and len(r.text) < 1000


@pytest.mark.parametrize(("method", "path", "body", "expected"), [
    ("POST", "/moves", None, "request body: missing"),
    ("POST", "/moves", {}, "move: Field required"),
    ("POST", "/moves", {"move": 5}, "move: Input should be a valid string"),
    ("POST", "/moves", [1], "request body: Input should be a valid dictionary"),
    ("GET", "/explain", None, "square (query parameter): Field required"),
])
def test_422_names_the_missing_or_malformed_field(client: TestClient, method: str, path: str,
                                                   body: Any, expected: str):
    game = new_game(client, variant="italian")
    r = client.request(method, f"/api/games/{game['id']}{path}", json=body)
    assert r.status_code == 422 and r.json()["error"].startswith(expected), r.json()
    r = client.post(f"/api/games/{game['id']}/moves", content=b"{bad",
                    headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"].startswith("request body: not valid JSON")


@pytest.mark.parametrize("level", [True, False, "2", 1.5, 4])
def test_a_level_that_is_not_1_2_or_3_is_refused_booleans_too(client: TestClient, level: Any):
    # JSON true passes a lax int check as 1: it must be refused like "2" and 1.5.
    r = client.post("/api/games", json={"variant": "international", "opponent": "computer",
                                         "level": level})
    assert r.status_code == 422 and "level" in r.json()["error"]


def test_a_boolean_version_is_refused_not_read_as_1(client: TestClient):
    game = new_game(client, variant="italian", opponent="friend")
    r = client.post(f"/api/games/{game['id']}/moves", json={"move": "22-19", "version": True})
    assert r.status_code == 422 and "version" in r.json()["error"]
    for action in ("undo", "resign", "reply"):
        r = client.post(f"/api/games/{game['id']}/{action}", json={"version": False})
        assert r.status_code == 422 and "version" in r.json()["error"], action
    assert client.get(f"/api/games/{game['id']}").json()["history"] == []
    r = client.post(f"/api/games/{game['id']}/moves",
                    json={"move": "22-19", "version": game["version"]})
    assert r.status_code == 200
