"""Clocks kept by the server: time controls, each move charged with its
increment, a flag that falls without any page open, the clock in the PDN. The server's time
is replaced by a hand-moved one (no test waits for the wall clock)."""

from __future__ import annotations

import sqlite3
import time as wall_time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damiera.engine.levels import LEVELS
from damiera.engine.search import allocate_time
from damiera.web import clocks, computer
from damiera.web.store import GameStore, StoredGame
from tests.conftest import FIRST_RELEASE_GAMES_TABLE
from tests.web.conftest import new_game, play

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


class Time:
    """The server's clock, moved by hand."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.at = T0
        monkeypatch.setattr(clocks, "now", lambda: self.at)

    def advance(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


@pytest.fixture
def time(monkeypatch: pytest.MonkeyPatch) -> Time:
    return Time(monkeypatch)


def test_each_move_costs_its_time_and_earns_the_increment(client: TestClient, time: Time) -> None:
    game = new_game(client, variant="italian", clock="5+3")
    assert game["clock"] == {"label": "5+3", "base_ms": 300_000, "increment_ms": 3000,
                             "white_ms": 300_000, "black_ms": 300_000, "running": "white"}
    time.advance(10)
    assert client.get(f"/api/games/{game['id']}").json()["clock"]["white_ms"] == 290_000
    game = play(client, game["id"], "22-19")
    assert game["clock"]["white_ms"] == 293_000 and game["clock"]["running"] == "black"
    time.advance(4.5)
    game = play(client, game["id"], "11-15")
    assert game["clock"]["black_ms"] == 298_500 and game["clock"]["white_ms"] == 293_000
    # undo: the clocks as they were after the move kept
    time.advance(20)
    game = client.post(f"/api/games/{game['id']}/undo").json()
    assert game["clock"]["black_ms"] == 300_000 and game["clock"]["white_ms"] == 293_000
    assert game["clock"]["running"] == "black"


def test_untimed_games_have_no_clock(client: TestClient) -> None:
    assert new_game(client, variant="czech")["clock"] is None
    assert new_game(client, variant="czech", clock="none")["clock"] is None


@pytest.mark.parametrize(("spec", "words"), [
    ("5", "minutes+seconds"), ("0+5", "between 1 and 180"), ("181+0", "between 1 and 180"),
    ("5+61", "at most 60"), ("1" * 15, "minutes+seconds"),
])
def test_a_bad_time_control_is_refused_with_one_line(client: TestClient, spec: str,
                                                      words: str) -> None:
    r = client.post("/api/games", json={"variant": "italian", "clock": spec})
    assert r.status_code == 400 and words in r.json()["error"]
    assert "\n" not in r.json()["error"]


def test_the_flag_falls_without_any_page_and_no_move_is_taken_after(
    client: TestClient, time: Time
) -> None:
    game = new_game(client, variant="international", clock="10+0")
    game = play(client, game["id"], "32-28")
    time.advance(600.5)                      # Black's ten minutes, nobody looking
    rows = {g["id"]: g for g in client.get("/api/games").json()}
    assert rows[game["id"]]["result"]["reason"] == "time"
    later = client.get(f"/api/games/{game['id']}").json()
    assert later["result"] == {"winner": "white", "reason": "time",
                               "text": "White wins: Black lost on time"}
    assert later["legal_moves"] == [] and later["clock"]["black_ms"] == 0
    assert later["clock"]["running"] is None
    r = client.post(f"/api/games/{game['id']}/moves", json={"move": "19-23"})
    assert r.status_code == 409 and "lost on time" in r.json()["error"]
    assert client.post(f"/api/games/{game['id']}/resign").status_code == 409
    time.advance(100)                        # stopped: nothing runs any more
    assert client.get(f"/api/games/{game['id']}").json()["clock"]["white_ms"] == 600_000
    pdn = client.get(f"/api/games/{game['id']}/pdn").text
    assert '[TimeControl "600+0"]' in pdn and '[Termination "time forfeit"]' in pdn
    assert '[Result "2-0"]' in pdn     # the FMJD's points on 10x10 (damiera.pdn's writer)
    assert pdn.rstrip().endswith("1. 32-28 {[%clk 0:10:00]} 2-0")


def test_against_the_computer_its_thinking_time_is_on_its_clock(client: TestClient,
                                                                 time: Time) -> None:
    game = new_game(client, variant="italian", opponent="computer", clock="15+10")
    time.advance(3)
    game = play(client, game["id"], "22-19")
    assert len(game["history"]) == 2
    assert game["clock"]["white_ms"] == 900_000 - 3000 + 10_000
    assert game["clock"]["black_ms"] == 900_000 + 10_000   # the hand-moved time stood still
    pdn = client.get(f"/api/games/{game['id']}/pdn").text
    assert "{[%clk 0:15:07]}" in pdn and "{[%clk 0:15:10]}" in pdn


@pytest.fixture
def computer_asks(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The keyword arguments of each computer move the session's site asks its pool for."""
    pool = client.app.state.service.computer     # type: ignore[attr-defined]
    asked: list[dict[str, Any]] = []
    real = pool.choose

    async def spy(*args: Any, **kwargs: Any) -> Any:
        asked.append(kwargs)
        return await real(*args, **kwargs)

    monkeypatch.setattr(pool, "choose", spy)
    return asked


def test_against_the_computer_a_short_clock_shortens_its_moves(
        client: TestClient, time: Time, computer_asks: list[dict[str, Any]]) -> None:
    # 1 minute a game: level 3's own 2 s a move would lose on time in 30 moves; it gets the
    # share of its 60 s that the engine's clock management plans for its first move
    game = new_game(client, variant="italian", opponent="computer", level=3, clock="1+0")
    time.advance(3)
    play(client, game["id"], "22-19")
    share = allocate_time(60.0 - clocks.SERVER_RESERVE, 0.0, ply=1)[0]
    assert [ask["movetime"] for ask in computer_asks] == [pytest.approx(share)]
    assert 0.5 < share < LEVELS[3].movetime


def test_against_the_computer_a_long_clock_or_none_keeps_the_levels_own_time(
        client: TestClient, time: Time, computer_asks: list[dict[str, Any]]) -> None:
    for clock in ("15+10", "none"):
        game = new_game(client, variant="italian", opponent="computer", level=2, clock=clock)
        play(client, game["id"], "22-19")
    assert [ask["movetime"] for ask in computer_asks] == [LEVELS[2].movetime, None]


def test_move_share_follows_the_time_left_and_stops_with_the_clock(time: Time) -> None:
    stored = StoredGame(id="g", variant="italian", optional_capture=False,
                        opponent="computer", level=3, side="white", start_fen=None,
                        moves=["22-19"], clock=clocks.new_clock((60, 0), T0))
    assert stored.clock is not None
    reserve = clocks.SERVER_RESERVE
    stored.clock["remaining"]["black"] = 5000          # the computer (Black) has 5 s left
    assert clocks.move_share(stored) == pytest.approx(allocate_time(5 - reserve, 0.0, ply=1)[0])
    time.advance(2.5)                                   # its clock runs: 2.5 s left
    assert clocks.move_share(stored) == pytest.approx(allocate_time(2.5 - reserve, 0.0,
                                                                    ply=1)[0])
    time.advance(1.0)                                   # 1.5 s left: all of it kept back
    assert clocks.move_share(stored) == pytest.approx(allocate_time(0.0, 0.0, ply=1)[0])
    assert (clocks.move_share(stored) or 1.0) < 0.01
    stored.clock["stopped"] = True
    assert clocks.move_share(stored) is None
    stored.clock = None
    assert clocks.move_share(stored) is None


def test_against_the_computer_a_reply_found_after_its_flag_fell_is_a_loss_on_time(
        client: TestClient, time: Time, monkeypatch: pytest.MonkeyPatch) -> None:
    pool = client.app.state.service.computer     # type: ignore[attr-defined]
    real = pool.choose

    async def slow(*args: Any, **kwargs: Any) -> Any:
        move = await real(*args, **kwargs)
        time.advance(61)                        # the search outlasted the computer's minute
        return move

    monkeypatch.setattr(pool, "choose", slow)
    game = new_game(client, variant="italian", opponent="computer", level=1, clock="1+0")
    game = play(client, game["id"], "22-19")
    assert game["history"] == ["22-19"]         # its move was not stored
    assert game["result"]["reason"] == "time" and game["result"]["winner"] == "white"
    assert game["clock"]["black_ms"] == 0 and game["clock"]["running"] is None
    assert game["thinking"] is False
    again = client.get(f"/api/games/{game['id']}").json()
    assert again["history"] == ["22-19"] and again["result"] == game["result"]


def test_the_computers_share_is_reckoned_when_asked_and_the_wait_comes_off_it(
        client: TestClient, time: Time, computer_asks: list[dict[str, Any]]) -> None:
    game = new_game(client, variant="italian", opponent="computer", level=3, clock="1+0")
    before = wall_time.time()
    play(client, game["id"], "22-19")
    assert before <= computer_asks[0]["asked_at"] <= wall_time.time()
    game = new_game(client, variant="italian", opponent="computer", level=3, clock="none")
    play(client, game["id"], "22-19")
    assert computer_asks[1]["movetime"] is None and computer_asks[1]["asked_at"] is None
    # the worker's side: what is left of the share after the wait
    assert computer.time_left(1.0, None) == 1.0 and computer.time_left(None, 5.0) is None
    start = wall_time.time()
    left = computer.time_left(1.0, start - 0.4)
    assert left is not None and 0.6 - (wall_time.time() - start) <= left <= 0.6
    assert computer.time_left(1.0, wall_time.time() - 9) == computer.LEAST_MOVETIME


def test_a_database_made_before_clocks_gets_the_column(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute(FIRST_RELEASE_GAMES_TABLE)
        conn.execute(
            "INSERT INTO games VALUES ('old1', 'italian', 0, 'friend', NULL, 'white', NULL, "
            "'[\"22-19\"]', NULL, NULL, 'me', '2026-01-01 00:00:00', '2026-01-01 00:00:00', 1)")
    store = GameStore(f"sqlite:///{db}")
    try:
        old = store.load("old1")
        assert old.clock is None and old.moves == ["22-19"]
        saved = store.save(old)
        assert saved.version == 2
    finally:
        store.close()


def test_flag_fall_draws_when_the_opponent_cannot_win_shut_in_king_over_the_api(
    client: TestClient, time: Time
) -> None:
    """The draw rule of a flag fall (damiera.rules.game.flag_result): Black's lone king,
    back in the corner 46 of the main diagonal that White's kings on 5 and 10 hold, can
    never capture anything, so White's flag falling draws."""
    game = new_game(client, variant="international", fen="B:WK5,K10:BK41", clock="5+0")
    game = play(client, game["id"], "41-46")
    time.advance(301)                        # White's five minutes
    later = client.get(f"/api/games/{game['id']}").json()
    assert later["result"] == {"winner": None, "reason": "time-opponent-cannot-win",
                               "text": "Draw: a flag fell, but the other side cannot win"}
    assert later["legal_moves"] == [] and later["clock"]["white_ms"] == 0
    rows = {g["id"]: g for g in client.get("/api/games").json()}
    assert rows[game["id"]]["result"]["reason"] == "time-opponent-cannot-win"
    italian = client.get(f"/api/games/{game['id']}?lang=it").json()["result"]["text"]
    assert italian == "Patta: un giocatore ha esaurito il tempo, ma l'altro non può vincere"
    r = client.post(f"/api/games/{game['id']}/moves", json={"move": "10-14"})
    assert r.status_code == 409 and "cannot win" in r.json()["error"]
    pdn = client.get(f"/api/games/{game['id']}/pdn").text
    assert '[Termination "time forfeit"]' in pdn and '[Result "1-1"]' in pdn
    assert ("1... 41-46 {[%clk 0:05:00] White's flag fell, but Black cannot win by any "
            "series of legal moves: draw} 1-1") in " ".join(pdn.split())


def test_flag_fall_loses_when_the_opponent_can_win_american_over_the_api(
    client: TestClient, time: Time
) -> None:
    """Two white kings against one: White could win, so Black's flag falling loses."""
    game = new_game(client, variant="american", fen="W:WK32,K31:BK1", clock="1+0")
    game = play(client, game["id"], "31-27")
    time.advance(61)
    rows = {g["id"]: g for g in client.get("/api/games").json()}
    assert rows[game["id"]]["result"]["text"] == "White wins: Black lost on time"
    later = client.get(f"/api/games/{game['id']}").json()
    assert later["result"]["winner"] == "white" and later["result"]["reason"] == "time"
