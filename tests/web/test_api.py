"""The JSON API: every endpoint, every error path, the concurrency case."""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from damiera.rules.variant import VARIANTS
from damiera.web.app import create_app
from tests.web.conftest import new_game, play

GAME_FIELDS = {"id", "variant", "fen", "turn", "legal_moves", "history", "result"}
MOVE_FIELDS = {"move", "from", "to", "path", "captures", "promotes", "crowned_at", "paths"}


# -- variants ---------------------------------------------------------------------------------
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
        assert len(v["board"]["squares"]) == v["board_size"] ** 2 // 2
    italian = next(v for v in data if v["id"] == "italian")
    squares = {s["label"]: (s["file"], s["rank"]) for s in italian["board"]["squares"]}
    assert squares["1"] == (0, 7)  # a8: the mirrored board's first square
    assert squares["32"] == (7, 0)  # h1


# -- creating games ---------------------------------------------------------------------------
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


# -- reading ----------------------------------------------------------------------------------
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


# -- moves ------------------------------------------------------------------------------------
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


# -- undo, resign, draw -----------------------------------------------------------------------
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


# -- PDN, explain, my games -------------------------------------------------------------------
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


# -- lasting games ----------------------------------------------------------------------------
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

    async def both() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=client.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver",
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


# -- whole games ------------------------------------------------------------------------------
@pytest.mark.parametrize("vid", list(VARIANTS))
def test_whole_game_computer_against_computer_through_the_api(client: TestClient, vid: str):
    """Level 1 plays both sides: one through the API's computer opponent, the other chosen
    by the same function and sent as a move, until the game ends by the rules."""
    from damiera.rules.position import parse_fen
    from damiera.web.computer import choose_move

    game = new_game(client, variant=vid, opponent="computer", level=1)
    v = VARIANTS[vid]
    for _ in range(400):
        if game["result"] is not None:
            break
        positions = [parse_fen(v, f) for f in game["positions"]]
        move = choose_move(vid, False, positions, 1, 0.05)
        from damiera.rules.notation import move_text

        game = play(client, game["id"], move_text(v, move))
    assert game["result"] is not None
    assert game["result"]["reason"] in {"no-pieces", "no-legal-move", "forty-moves",
                                        "threefold-repetition"}
    stored = client.get(f"/api/games/{game['id']}").json()
    assert stored["history"] == game["history"] and stored["result"] == game["result"]
    pdn = client.get(f"/api/games/{game['id']}/pdn").text
    from damiera.pdn import result_token
    from damiera.rules.variant import Color

    winner = {"white": Color.WHITE, "black": Color.BLACK, None: None}[game["result"]["winner"]]
    assert f'[Result "{result_token(v, winner)}"]' in pdn


def test_openapi_documents_the_routes(client: TestClient):
    paths = client.get("/openapi.json").json()["paths"]
    for p in ["/api/variants", "/api/games", "/api/games/{game_id}",
              "/api/games/{game_id}/moves", "/api/games/{game_id}/undo",
              "/api/games/{game_id}/resign", "/api/games/{game_id}/pdn"]:
        assert p in paths


@pytest.mark.parametrize("level", [1, 2, 3])
def test_each_computer_level_answers_with_a_legal_move(client: TestClient, level: int):
    game = new_game(client, variant="international", opponent="computer", level=level,
                    side="black")
    assert game["level"] == level
    assert len(game["history"]) == 1  # the computer (White) opened
    game = play(client, game["id"], game["legal_moves"][0]["move"])
    assert len(game["history"]) == 3


def test_a_failing_computer_keeps_your_move_and_can_reply_later(tmp_db: str):
    app = create_app(tmp_db, computer_workers=1, computer_movetime=0.05)
    with TestClient(app, raise_server_exceptions=False) as c:
        game = new_game(c, variant="italian", opponent="computer")
        service = app.state.service
        working = service.computer.choose

        async def broken(*_args: Any, **_kw: Any) -> None:
            raise RuntimeError("search crashed")

        service.computer.choose = broken
        r = c.post(f"/api/games/{game['id']}/moves", json={"move": "22-19"})
        assert r.status_code == 503 and r.json()["move_stored"] is True
        assert "your move was stored" in r.json()["error"] and "/reply" in r.json()["error"]
        after = c.get(f"/api/games/{game['id']}").json()
        assert after["history"] == ["22-19"] and after["turn"] == "black"
        assert after["thinking"] is False
        # your next move is refused until the computer has played
        r = c.post(f"/api/games/{game['id']}/moves", json={"move": "21-17"})
        assert r.status_code == 409
        service.computer.choose = working
        r = c.post(f"/api/games/{game['id']}/reply")
        assert r.status_code == 200 and len(r.json()["history"]) == 2
        r = c.post(f"/api/games/{game['id']}/reply")
        assert r.status_code == 409
        # a page that saw the computer to move at version 1 asks once more: its reply is
        # stored already, so the game is answered as it is
        r = c.post(f"/api/games/{game['id']}/reply", json={"version": after["version"]})
        assert r.status_code == 200 and len(r.json()["history"]) == 2
        r = c.post(f"/api/games/{game['id']}/reply", json={"version": r.json()["version"]})
        assert r.status_code == 409


def test_reply_is_refused_in_a_friend_game(client: TestClient):
    game = new_game(client, variant="italian")
    assert client.post(f"/api/games/{game['id']}/reply").status_code == 409


def test_get_while_the_computer_thinks_says_so(client: TestClient):
    game = new_game(client, variant="russian", opponent="computer")
    service = client.app.state.service  # type: ignore[attr-defined]
    seen: list[dict[str, Any]] = []
    working = service.computer.choose

    async def slow(*args: Any, **kw: Any) -> Any:
        seen.append(await service.get(game["id"]))
        return await working(*args, **kw)

    service.computer.choose = slow
    try:
        play(client, game["id"], "c3-d4")
    finally:
        service.computer.choose = working
    assert seen[0]["thinking"] is True and seen[0]["history"] == ["c3-d4"]
    assert client.get(f"/api/games/{game['id']}").json()["thinking"] is False


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
