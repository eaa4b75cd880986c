"""What the game JSON carries so that the play page computes no FEN, notation or result
sentence of its own: ``pieces``/``start_pieces``, ``move_numbers``,
``result_sentence`` in the request's language, and a move sent as the squares entered."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from tests.web.conftest import new_game, play


def test_pieces_are_the_position_by_square_label(client: TestClient) -> None:
    game = new_game(client, variant="italian", fen="W:W22,K30:B18")
    assert game["pieces"] == {"18": "black-man", "22": "white-man", "30": "white-king"}
    after = play(client, game["id"], "22x13")
    assert after["pieces"] == {"13": "white-man", "30": "white-king"}
    assert after["start_pieces"] == game["pieces"]


def _decoded(client: TestClient, variant_id: str, text: str) -> dict[str, str]:
    """A ``boards`` text read as the page reads it: a character a square, in the order of
    the variant's ``board.squares``."""
    variants = {v["id"]: v for v in client.get("/api/variants").json()}
    kinds = {"w": "white-man", "b": "black-man", "W": "white-king", "B": "black-king"}
    squares = variants[variant_id]["board"]["squares"]
    assert len(text) == len(squares) and set(text) <= {".", *kinds}
    return {sq["label"]: kinds[c] for sq, c in zip(squares, text, strict=True) if c != "."}


def test_boards_give_the_pieces_of_every_ply(client: TestClient) -> None:
    game = new_game(client, variant="russian", fen="W:Wc3,Ka1:Bd4,f6,Kh8")
    first = game["pieces"]
    after = play(client, game["id"], "c3:e5:g7")
    boards = after["boards"]
    assert len(boards) == len(after["positions"]) == 2
    assert _decoded(client, "russian", boards[0]) == first
    assert _decoded(client, "russian", boards[1]) == after["pieces"]
    big = new_game(client, variant="international")
    assert _decoded(client, "international", big["boards"][0]) == big["pieces"]


def test_pieces_use_algebraic_labels_where_the_variant_does(client: TestClient) -> None:
    game = new_game(client, variant="russian", fen="W:Wc3:Bd6,Kh8")
    assert game["pieces"] == {"c3": "white-man", "d6": "black-man", "h8": "black-king"}


def test_move_numbers_follow_the_move_list(client: TestClient) -> None:
    game = new_game(client, variant="italian")
    for move in ("22-19", "11-15", "21-18"):
        game = play(client, game["id"], move)
    assert game["move_numbers"] == ["1.", "1…", "2."] and game["next_move_number"] == "2…"


def test_move_numbers_of_a_game_started_by_the_second_side(client: TestClient) -> None:
    game = new_game(client, variant="italian", fen="B:W21,22:B9,10")
    assert game["move_numbers"] == [] and game["next_move_number"] == "1…"
    game = play(client, game["id"], "10-14")
    game = play(client, game["id"], "22-19")
    assert game["move_numbers"] == ["1…", "2."]


def test_result_sentence_is_in_each_requests_language(client: TestClient) -> None:
    game = new_game(client, variant="italian")
    assert game["result_sentence"] is None
    over = client.post(f"/api/games/{game['id']}/resign?lang=it").json()   # White resigns
    assert over["result_sentence"] == "Vince il Nero: il Bianco ha abbandonato"
    assert over["result"]["text"] == "Black wins: White resigned"   # the core's, in English
    again = client.get(f"/api/games/{game['id']}?lang=en").json()   # the cached game
    assert again["result_sentence"] == "Black wins: White resigned"
    assert again["result"] == over["result"]


def test_a_move_sent_as_its_squares_is_written_in_the_variants_notation(
        client: TestClient) -> None:
    game = new_game(client, variant="russian", fen="W:Wc3:Bd4")
    r = client.post(f"/api/games/{game['id']}/moves", json={"path": ["c3", "e5"]})
    assert r.status_code == 200, r.text
    assert r.json()["history"] == ["c3:e5"]


def test_a_refused_path_gets_the_rules_reason_like_its_text(client: TestClient) -> None:
    game = new_game(client, variant="italian", fen="W:W22,23:B18")
    by_path = client.post(f"/api/games/{game['id']}/moves", json={"path": ["23", "19"]})
    by_text = client.post(f"/api/games/{game['id']}/moves", json={"move": "23-19"})
    assert by_path.status_code == by_text.status_code == 400
    assert by_path.json()["code"] == by_text.json()["code"]
    assert client.get(f"/api/games/{game['id']}").json()["history"] == []


def test_a_path_of_one_square_is_400(client: TestClient) -> None:
    game = new_game(client, variant="italian")
    r = client.post(f"/api/games/{game['id']}/moves", json={"path": ["22"]})
    assert r.status_code == 400 and "two squares" in r.json()["error"]


def test_pdn_replay_gives_the_pieces_turns_and_move_numbers(client: TestClient) -> None:
    r = client.post("/api/pdn/replay", json={"variant": "italian", "fen": "B:W21,22:B9,10",
                                             "moves": ["10-14", "21-17"]})
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["pieces"][0] == {"9": "black-man", "10": "black-man", "21": "white-man",
                                 "22": "white-man"}
    assert data["pieces"][2] == {"9": "black-man", "14": "black-man", "17": "white-man",
                                 "22": "white-man"}
    assert data["turns"] == ["black", "white", "black"]
    assert data["move_numbers"] == ["1…", "2."]


def test_rules_diagrams_carry_their_pieces(client: TestClient) -> None:
    html = client.get("/en/rules/italian").text
    start = html.index('id="rules-data">') + len('id="rules-data">')
    data = json.loads(html[start:html.index("</script>", start)])
    for d in data["diagrams"].values():
        assert d["pieces"] and d["turn"] in ("white", "black")
        assert all(p in ("white-man", "white-king", "black-man", "black-king")
                   for p in d["pieces"].values())
