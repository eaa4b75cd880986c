"""A new game that starts with moves already played (``POST /api/games {"moves": [...]}``, how
the import page continues a record): the moves are the game's history, a bad one is refused
by its number with nothing stored, and they cost no clock time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damiera.web import clocks
from damiera.web.new_game import MAX_START_MOVES
from tests.web.conftest import new_game

OPENING = ["32-28", "19-23", "28x19", "14x23", "37-32"]


def test_the_moves_are_the_new_games_history(client: TestClient) -> None:
    game = new_game(client, variant="international", moves=OPENING)
    assert game["history"] == OPENING and game["turn"] == "black"
    assert game["side"] == "black"            # the side to move after them, by default
    assert [m["move"] for m in game["history_moves"]] == OPENING
    assert game["can_undo"]


def test_from_a_set_up_position_against_the_computer_it_replies_after_them(
    client: TestClient,
) -> None:
    game = new_game(client, variant="russian", fen="W:Wc3,e3:Bf6,h6", moves=["c3-d4"],
                    opponent="computer", side="white")
    assert game["history"][0] == "c3-d4" and len(game["history"]) == 2   # Black replied
    assert game["turn"] == "white"


@pytest.mark.parametrize(("moves", "said"), [
    (["32-28", "32-28"], "move 2 '32-28'"),
    (["32-28", "x" * 201], "move 2 is longer than 200 characters"),
])
def test_a_bad_move_is_refused_by_its_number_and_nothing_is_stored(
    client: TestClient, moves: list[str], said: str,
) -> None:
    before = client.get("/api/games").json()
    r = client.post("/api/games", json={"variant": "international", "opponent": "friend",
                                        "moves": moves})
    assert r.status_code == 400 and said in r.json()["error"], r.text
    assert client.get("/api/games").json() == before


def test_too_many_moves_are_refused_before_any_is_read(client: TestClient) -> None:
    r = client.post("/api/games", json={"variant": "international", "opponent": "friend",
                                        "moves": ["32-28"] * (MAX_START_MOVES + 1)})
    assert r.status_code in (400, 422) and "error" in r.json()


def test_a_move_after_the_end_of_the_game_is_refused(client: TestClient) -> None:
    r = client.post("/api/games", json={"variant": "american", "opponent": "friend",
                                        "fen": "W:W22:B18", "moves": ["22x15", "15-11"]})
    assert r.status_code == 400
    assert "move 2 '15-11'" in r.json()["error"] and "over" in r.json()["error"]


def test_the_moves_cost_no_clock_time_and_earn_no_increment(
    client: TestClient, monkeypatch: Any,
) -> None:
    start = datetime.now(UTC)
    monkeypatch.setattr(clocks, "now", lambda: start)
    game = new_game(client, variant="international", moves=OPENING, clock="5+3")
    assert game["clock"]["white_ms"] == game["clock"]["black_ms"] == 300_000
    assert game["clock"]["running"] == "black"
    monkeypatch.setattr(clocks, "now", lambda: start + timedelta(seconds=10))
    r = client.post(f"/api/games/{game['id']}/moves", json={"move": "10-14"})
    assert r.status_code == 200, r.text
    after = r.json()["clock"]
    assert after["black_ms"] == 300_000 - 10_000 + 3_000 and after["white_ms"] == 300_000
    pdn = client.get(f"/api/games/{game['id']}/pdn").text
    assert "1. 32-28 {[%clk 0:05:00]}" in pdn
