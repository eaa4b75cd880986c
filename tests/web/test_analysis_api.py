"""The analysis board's API: positions checked by the rules core, explanations, the engine's
lines as server-sent events, background reviews with NAGs."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damiera.rules.notation import move_text
from damiera.rules.position import MAX_FEN_TEXT
from damiera.rules.variant import variant
from tests.planted import planted_game
from tests.web.conftest import new_game, play


@pytest.fixture(autouse=True)
def short_searches(client: TestClient) -> Iterator[None]:
    """Short searches; the shared client's cookies are dropped afterwards (other tests of
    the session expect a browser that has made no game yet)."""
    pool = client.app.state.analysis_pool  # type: ignore[attr-defined]
    pool.analysis_movetime = 0.3
    pool.review_movetime = 0.02
    yield
    client.cookies.clear()


def _events(client: TestClient, **params: Any) -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    event = "message"
    with client.stream("GET", "/api/analysis/stream", params=params) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        for line in r.iter_lines():
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                out.append((event, json.loads(line[6:])))
                event = "message"
    return out


def test_position_lists_moves_and_refuses_an_impossible_one_with_the_core_reason(
    client: TestClient,
) -> None:
    r = client.get("/api/analysis/position", params={"variant": "american", "fen": "W:W22:B3"})
    assert r.status_code == 200
    body = r.json()
    assert body["fen"] == "W:W22:B3" and body["turn"] == "white"
    assert {m["move"]: m["after"] for m in body["moves"]} == {"22-17": "B:W17:B3",
                                                             "22-18": "B:W18:B3"}
    r = client.get("/api/analysis/position", params={"variant": "american", "fen": "W:W1:B3"})
    assert r.status_code == 400
    assert r.json() == {"error": "impossible position: a white man on 1, White's promotion row",
                        "code": "bad_fen"}
    r = client.get("/api/analysis/position",
                   params={"variant": "italian", "fen": "W:W9-21:B1-4"})
    assert r.status_code == 400 and "13 pieces, more than the 12" in r.json()["error"]


def test_position_with_the_house_rule_has_quiet_moves_beside_a_capture(
    client: TestClient,
) -> None:
    fen = "W:W22:B18"
    strict = client.get("/api/analysis/position", params={"variant": "american", "fen": fen})
    free = client.get("/api/analysis/position",
                      params={"variant": "american", "fen": fen, "optional_capture": "true"})
    assert [m["move"] for m in strict.json()["moves"]] == ["22x15"]
    assert sorted(m["move"] for m in free.json()["moves"]) == ["22-17", "22x15"]
    assert free.json()["optional_capture"] is True


def test_position_moves_carry_every_way_of_playing_them_as_the_play_page_gets_them(
    client: TestClient,
) -> None:
    """The analysis board enters moves with the play page's capture entry: each move comes
    with ``paths`` (equal captures' other paths too) and ``crowned_at``, as in a game."""
    fen = "W:WK4:B10,20,22,32,33,37,39"
    body = client.get("/api/analysis/position",
                      params={"variant": "international", "fen": fen}).json()
    game = new_game(client, variant="international", fen=fen, opponent="friend")
    played = {m["move"]: m for m in game["legal_moves"]}
    moves = {m["move"]: m for m in body["moves"]}
    assert moves.keys() == played.keys()
    for text, m in moves.items():
        assert m["paths"] == played[text]["paths"] and m["crowned_at"] is None
    paths = [w["path"] for w in moves["4x15x24x42x31x9"]["paths"]]
    assert paths[0] == ["4", "15", "24", "42", "31", "9"]
    assert ["4", "15", "29", "42", "31", "9"] in paths


def test_explain_names_the_rule_that_refuses_a_piece_or_a_move(client: TestClient) -> None:
    fen = "W:W22,30:B18"  # White must capture 22x15: the man on 30 may not move
    r = client.get("/api/analysis/explain",
                   params={"variant": "american", "fen": fen, "square": "30"})
    assert r.json()["code"] == "capture_mandatory"
    r = client.get("/api/analysis/explain",
                   params={"variant": "american", "fen": fen, "square": "22", "to": "17"})
    assert r.json()["code"] == "capture_mandatory"
    r = client.get("/api/analysis/explain",
                   params={"variant": "american", "fen": fen, "square": "22", "to": "15"})
    assert r.json()["reason"] is None and r.json()["moves"] == ["22x15"]


def test_a_typed_move_is_read_in_the_position_or_refused_in_the_rules_terms(
    client: TestClient,
) -> None:
    fen = "W:WK22:B17,18,19,26,27"
    read = {"variant": "american", "fen": fen}
    for text, full in [("22x13", "22x13"), ("22-13", "22x13"),
                       ("22x31x24x15x22x13", "22x15x24x31x22x13")]:
        r = client.get("/api/analysis/move", params={**read, "move": text})
        assert (r.status_code, r.json()) == (200, {"move": full}), text
    r = client.get("/api/analysis/move", params={**read, "move": "22x15"})
    assert r.status_code == 400 and r.json()["code"] == "capture_incomplete"
    r = client.get("/api/analysis/move", params={**read, "move": "22x15", "lang": "ru"})
    assert r.json()["code"] == "capture_incomplete" and "15" in r.json()["error"]
    assert r.json()["error"] != client.get("/api/analysis/move",
                                           params={**read, "move": "22x15"}).json()["error"]
    r = client.get("/api/analysis/move", params={**read, "move": "x" * 201})
    assert r.status_code == 422 and "at most 200 characters" in r.json()["error"]
    r = client.get("/api/analysis/move", params={"variant": "american", "fen": "W:W1:B3",
                                                 "move": "1-5"})
    assert r.status_code == 400 and r.json()["code"] == "bad_fen"


def test_stream_sends_lines_with_white_view_scores_then_done(client: TestClient) -> None:
    # Black to move and a man up: White's view is negative.
    fen = "B:W32:B1,2"
    events = _events(client, variant="american", fen=fen, multipv=2)
    lines = [d for e, d in events if e == "message"]
    assert events[-1][0] == "done" and lines
    depths = [d["depth"] for d in lines]
    assert depths == sorted(depths) and depths[0] == 1
    last = lines[-1]
    assert last["turn"] == "black" and len(last["lines"]) == 2
    assert [ln["rank"] for ln in last["lines"]] == [1, 2]
    best = last["lines"][0]
    assert best["score"] < 0 or best["loss_in"] is not None
    assert best["pv"][0] in {"1-5", "1-6", "2-6", "2-7"}


def test_stream_bounds_its_input(client: TestClient) -> None:
    r = client.get("/api/analysis/stream", params={"variant": "american", "multipv": 4})
    assert r.status_code == 422
    r = client.get("/api/analysis/stream", params={"variant": "american", "fen": "W:W1:B3"})
    assert r.status_code == 400 and r.json()["code"] == "bad_fen"
    r = client.get("/api/analysis/stream",
                   params={"variant": "american", "fen": "W" * (MAX_FEN_TEXT + 1)})
    assert r.status_code == 422


def test_analysis_takes_a_fen_as_long_as_a_game_does(client: TestClient) -> None:
    # The rules core's bound (MAX_FEN_TEXT, 1,000 characters, as the README says and games
    # take), not a bound of the analysis board's own.
    fen = "W:W22:B3" + " " * 700
    assert client.post("/api/games", json={"variant": "american", "opponent": "friend",
                                           "fen": fen}).status_code == 201
    r = client.get("/api/analysis/position", params={"variant": "american", "fen": fen})
    assert r.status_code == 200 and r.json()["fen"] == "W:W22:B3"
    page = client.get("/analysis", params={"variant": "american", "fen": fen})
    assert page.status_code == 200
    # The page's FEN field takes as much (its maxlength was 600, cutting a pasted FEN).
    assert f'id="ed-fen" spellcheck="false" maxlength="{MAX_FEN_TEXT}"' in page.text
    too_long = {"variant": "american", "fen": "W" * (MAX_FEN_TEXT + 1)}
    assert client.get("/api/analysis/position", params=too_long).status_code == 422
    assert client.get("/analysis", params=too_long).status_code == 422


def test_stream_reuses_its_worker_process(client: TestClient) -> None:
    pool = client.app.state.analysis_pool  # type: ignore[attr-defined]
    _events(client, variant="russian", fen="W:Wa1:Bf8")
    started = pool.started
    _events(client, variant="russian", fen="W:Wa1:Bd8")
    assert pool.started == started


def _wait_review(client: TestClient, review_id: str) -> dict[str, Any]:
    for _ in range(600):
        body: dict[str, Any] = client.get(f"/api/analysis/reviews/{review_id}").json()
        if body["status"] in ("done", "failed"):
            return body
        time.sleep(0.05)
    raise AssertionError("the review did not finish")


def test_review_marks_a_planted_blunder_and_gives_an_annotated_pdn(client: TestClient) -> None:
    v = variant("italian")
    moves, planted = planted_game(v, 30, 10)
    texts = [move_text(v, m) for m in moves]
    r = client.post("/api/analysis/reviews", json={"variant": "italian", "moves": texts})
    assert r.status_code == 202, r.text
    body = _wait_review(client, r.json()["id"])
    assert body["status"] == "done" and body["done"] == body["total"] == len(moves) + 1
    marked = body["moves"][planted]
    assert (marked["move"], marked["nag"], marked["judgement"]) == (texts[planted], "??",
                                                                    "blunder")
    assert marked["best"] not in (None, texts[planted])
    pdn = client.get(f"/api/analysis/reviews/{body['id']}/pdn")
    assert pdn.status_code == 200 and "attachment" in pdn.headers["content-disposition"]
    assert texts[planted] + "??" in pdn.text.split()


def test_review_of_a_stored_game_and_bad_reviews(client: TestClient) -> None:
    game = new_game(client, variant="russian")
    for move in ("c3-d4", "f6-e5", "d4xf6", "g7xe5"):
        game = play(client, game["id"], move)
    r = client.post("/api/analysis/reviews", json={"game_id": game["id"]})
    assert r.status_code == 202
    body = _wait_review(client, r.json()["id"])
    assert [m["move"] for m in body["moves"]] == game["history"]
    r = client.post("/api/analysis/reviews",
                    json={"variant": "american", "moves": ["11-15", "11-15"]})
    assert r.status_code == 400 and r.json()["error"].startswith("move 2 (11-15)")
    r = client.post("/api/analysis/reviews", json={"variant": "american", "moves": []})
    assert r.status_code == 400
    r = client.post("/api/analysis/reviews", json={"variant": "american",
                                                   "moves": ["11-15"] * 601})
    assert r.status_code == 422
    assert client.get("/api/analysis/reviews/nope").status_code == 404


def test_analysis_page_opens_a_game_and_a_shared_position(client: TestClient) -> None:
    r = client.get("/analysis", params={"variant": "italian", "fen": "W:W21:B5"})
    assert r.status_code == 200 and '<script type="module" src="/static/analysis.js">' in r.text
    assert '"fen": "W:W21:B5"' in r.text
    game = new_game(client, variant="american")
    game = play(client, game["id"], "11-15")
    r = client.get("/analysis", params={"game": game["id"]})
    assert '"moves": ["11-15"]' in r.text and f'"game_id": "{game["id"]}"' in r.text
    r = client.get("/analysis", params={"lang": "ar"})
    assert 'dir="rtl"' in r.text and "onclick" not in r.text


def test_a_finished_position_is_accepted_and_says_who_has_lost(client: TestClient) -> None:
    r = client.get("/api/analysis/position", params={"variant": "american", "fen": "B:W22:B"})
    assert r.status_code == 200
    assert r.json()["over"] == {"winner": "white", "reason": "no-pieces"}
    assert r.json()["moves"] == []
    r = client.get("/api/analysis/position", params={"variant": "american", "fen": "W:W5:B1"})
    assert r.json()["over"] == {"winner": "black", "reason": "no-legal-move"}
    events = _events(client, variant="american", fen="W:W5:B1")
    assert [e for e, _d in events] == ["done"]  # nothing to search


#: Frisian: White's king has made three quiet moves in a row from here; White has a man.
RESTED = {"variant": "frisian", "fen": "W:WK46,45:B1,2",
          "moves": "46-41 1-7 41-46 7-12 46-41 2-8"}


def test_the_line_s_history_applies_the_king_move_limit(client: TestClient) -> None:
    r = client.get("/api/analysis/position", params=RESTED)
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["tired_king"] == "41"
    assert [m["move"] for m in data["moves"] if m["from"] == "41"] == []
    assert any(m["from"] == "45" for m in data["moves"])
    # without the line the same position lets the king move
    alone = client.get("/api/analysis/position",
                       params={"variant": "frisian", "fen": data["fen"]}).json()
    assert any(m["from"] == "41" for m in alone["moves"]) and alone["tired_king"] is None
    for extra in ({"square": "41"}, {"square": "41", "to": "46"}):
        why = client.get("/api/analysis/explain", params={**RESTED, **extra}).json()
        assert why["code"] == "king_move_limit" and why["reason"], (extra, why)
    typed = client.get("/api/analysis/move", params={**RESTED, "move": "41-46"})
    assert typed.status_code == 400 and typed.json()["code"] == "king_move_limit"
    assert client.get("/api/analysis/move", params={**RESTED, "move": "45-40"}).status_code == 200


def test_a_bad_or_too_long_line_is_a_400(client: TestClient) -> None:
    r = client.get("/api/analysis/position", params={**RESTED, "moves": "46-41 1-8"})
    assert r.status_code == 400 and r.json()["code"] == "bad_line"
    assert "move 2 of the line (1-8)" in r.json()["error"]
    long_line = " ".join(["46-41", "1-7", "41-46", "7-1"] * 51)
    r = client.get("/api/analysis/position", params={**RESTED, "moves": long_line})
    assert r.status_code == 400 and r.json()["code"] == "bad_line"
    assert "at most 200 moves" in r.json()["error"]
