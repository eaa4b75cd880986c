"""The puzzles' API: a puzzle near the player's rating, the solver's moves checked on the
server, Glicko-2 ratings moved by a first attempt only, the daily puzzle, bad input."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from damiera.puzzles import library
from damiera.puzzles.model import Puzzle
from damiera.rules.movegen import apply_move, legal_moves
from damiera.rules.notation import move_text, parse_move
from damiera.rules.position import parse_fen
from damiera.rules.variant import variant
from damiera.web.app import create_app
from damiera.web.puzzles.ratings import NEW_PLAYER, Rating, rate
from damiera.web.store_tables import PlayerRatingRow, PuzzleAttemptRow, PuzzleRatingRow
from tests.web.conftest import ROOMY

pytestmark = pytest.mark.usefixtures("no_cookie_left")


def test_glicko2_matches_glickmans_worked_example() -> None:
    """Glickman's paper: 1500 ± 200 beating 1400 ± 30 and losing to 1550 ± 100 and 1700 ±
    300 ends at 1464.06 ± 151.52 (one period of three games, through the library)."""
    from glicko2 import Player  # type: ignore[import-untyped]

    p = Player(1500, 200, 0.06)
    p.update_player([1400, 1550, 1700], [30, 100, 300], [1, 0, 0])
    assert round(p.rating, 2) == pytest.approx(1464.05, abs=0.02)
    assert round(p.rd, 2) == pytest.approx(151.52, abs=0.02)


def test_solving_raises_the_player_and_lowers_the_puzzle() -> None:
    me, puzzle = rate(NEW_PLAYER, Rating(1500.0, 200.0), solved=True)
    assert me.rating > 1500 > puzzle.rating and me.attempts == puzzle.attempts == 1
    me, puzzle = rate(NEW_PLAYER, Rating(1500.0, 200.0), solved=False)
    assert me.rating < 1500 < puzzle.rating
    assert me.deviation < NEW_PLAYER.deviation


def _client(client: TestClient) -> TestClient:
    client.cookies.clear()
    return client


def _wrong_first_move(p: Puzzle) -> str:
    v = variant(p.variant)
    position = parse_fen(v, p.fen)
    right = parse_move(v, position, p.solution[0])
    return next(move_text(v, m) for m in legal_moves(v, position)
                if (m.start, m.end, m.captured) != (right.start, right.end, right.captured)
                and legal_moves(v, apply_move(position, m)))


def test_a_puzzle_solved_then_one_failed_moves_the_rating(client: TestClient) -> None:
    c = _client(client)
    first = c.get("/api/puzzles/next", params={"variant": "italian"}).json()
    puzzle = first["puzzle"]
    assert first["player"]["rating"] == 1500
    assert set(puzzle) >= {"id", "fen", "turn", "pieces", "legal_moves", "rating", "themes",
                           "plies", "url"}
    p = library.find(puzzle["id"])
    assert p is not None
    mine = list(p.solution[::2])
    for n in range(1, len(mine) + 1):
        r = c.post(f"/api/puzzles/{p.id}/moves", json={"moves": mine[:n]})
        assert r.status_code == 200, r.text
        answer = r.json()
        if n < len(mine):
            assert answer["status"] == "continue"
            assert answer["reply"]["move"] == p.solution[2 * n - 1]
    assert answer["status"] == "solved" and answer["rated"] is True
    assert answer["change"] > 0 and answer["player"]["rating"] > 1500
    after_solve = answer["player"]["rating"]
    # the same puzzle again: not rated
    again = c.post(f"/api/puzzles/{p.id}/moves", json={"moves": mine}).json()
    assert again["rated"] is False and again["player"]["rating"] == after_solve
    # another puzzle, failed
    other = c.get("/api/puzzles/next", params={"variant": "italian"}).json()["puzzle"]
    assert other["id"] != p.id
    q = library.find(other["id"])
    assert q is not None
    r = c.post(f"/api/puzzles/{q.id}/moves", json={"moves": [_wrong_first_move(q)]})
    answer = r.json()
    assert answer["status"] == "failed" and answer["solution"] == list(q.solution)
    assert answer["rated"] is True and answer["player"]["rating"] < after_solve
    assert answer["puzzle_rating"] > q.rating
    shown = c.get(f"/api/puzzles/{q.id}").json()
    assert shown["puzzle"]["rating"] == answer["puzzle_rating"]


def test_daily_and_share_addresses(client: TestClient) -> None:
    c = _client(client)
    one = c.get("/api/puzzles/daily", params={"variant": "russian"}).json()["puzzle"]
    two = c.get("/api/puzzles/daily", params={"variant": "russian"}).json()["puzzle"]
    assert one["id"] == two["id"] and one["variant"] == "russian"
    page = c.get(one["url"], params={"lang": "ru"})
    assert page.status_code == 200 and "Задачи" in page.text
    assert c.get("/puzzles/daily", params={"variant": "czech"}).status_code == 200
    assert c.get("/puzzles/nothing-here").status_code == 404


def test_daily_puzzle_survives_puzzles_added_to_or_dropped_from_the_file(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A new puzzle file (the generator's --recheck drops some and adds others) keeps each
    day's puzzle unless that very puzzle was dropped; the days still differ."""
    from damiera.web.puzzles import service

    v = variant("russian")
    shipped = library.shipped("russian")
    days = [datetime(2026, 12, 1, tzinfo=UTC).date() + timedelta(days=i) for i in range(40)]
    before = {day: service.daily(v, day) for day in days}
    chosen = {p.id for p in before.values() if p}
    assert len(chosen) >= 30
    kept = tuple(p for i, p in enumerate(shipped) if p.id in chosen or i % 10)
    extra = tuple(Puzzle(f"new{i:07d}", p.variant, p.fen, p.solution, p.rating, p.themes)
                  for i, p in enumerate(shipped[:5]))
    assert len(kept) < len(shipped)
    monkeypatch.setattr(library, "shipped", lambda key: tuple(sorted(kept + extra,
                                                                     key=lambda p: p.id)))
    after = {day: service.daily(v, day) for day in days}
    moved = [day for day in days if after[day] != before[day]]
    assert all(after[day] in extra for day in moved) and len(moved) <= 2


def test_bad_requests_get_an_error(client: TestClient) -> None:
    c = _client(client)
    assert c.get("/api/puzzles/next", params={"variant": "mars"}).status_code == 400
    r = c.get("/api/puzzles/next", params={"variant": "italian", "optional_capture": "true"})
    assert r.status_code == 200 and r.json()["puzzle"] is None     # none ship for it
    assert c.get("/api/puzzles/abc").status_code == 404
    pid = library.shipped("spanish")[0].id
    for body, status in (({"moves": []}, 422), ({"moves": ["1-2"] * 30}, 422),
                         ({"moves": ["x" * 100]}, 422), ({"moves": ["99-100"]}, 400),
                         ({"moves": ["a", "b", "c", "d", "e", "f", "g", "h", "i"]}, 400)):
        r = c.post(f"/api/puzzles/{pid}/moves", json=body)
        assert r.status_code == status, (body, r.text)
        assert r.json()["error"]
    r = c.post(f"/api/puzzles/{pid}/moves", json={"moves": ["1-5"]},
               headers={"Sec-Fetch-Site": "cross-site"})
    assert r.status_code == 403


def test_the_ratings_of_browsers_gone_for_the_games_lifetime_are_deleted(tmp_db: str) -> None:
    """The site's clean-up (:meth:`GameStore.delete_untouched`) deletes a browser's puzzle
    ratings and attempts once it has tried no puzzle for as long as a game is kept; a
    puzzle's own rating stays."""
    with TestClient(create_app(tmp_db, computer_workers=1, limits=ROOMY)) as c:
        _rated_and_forgotten(c)


def _rated_and_forgotten(c: TestClient) -> None:
    p = library.shipped("italian")[0]
    answer = c.post(f"/api/puzzles/{p.id}/moves", json={"moves": [_wrong_first_move(p)]}).json()
    assert answer["rated"] is True
    store = c.app.state.service.store  # type: ignore[attr-defined]
    now = datetime.now(UTC)
    with Session(store.engine) as session:
        counts = [session.scalar(select(func.count()).select_from(t))
                  for t in (PlayerRatingRow, PuzzleAttemptRow, PuzzleRatingRow)]
    assert counts == [1, 1, 1]
    store.delete_untouched(now - timedelta(hours=1))          # tried since: kept
    again = c.post(f"/api/puzzles/{p.id}/moves", json={"moves": [_wrong_first_move(p)]}).json()
    assert again["rated"] is False
    store.delete_untouched(now + timedelta(seconds=5))        # gone since: forgotten
    with Session(store.engine) as session:
        counts = [session.scalar(select(func.count()).select_from(t))
                  for t in (PlayerRatingRow, PuzzleAttemptRow, PuzzleRatingRow)]
    assert counts == [0, 0, 1]
    shown = c.get(f"/api/puzzles/{p.id}").json()
    assert shown["player"]["rating"] == 1500 and shown["puzzle"]["rating"] > p.rating
