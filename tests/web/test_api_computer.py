"""Games against the computer through the JSON API: whole games, every level, a computer that
fails, a reply asked for in a friend game, and reading a game while the computer thinks."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from damiera.rules.variant import VARIANTS
from damiera.web.app import create_app
from tests.web.conftest import new_game, play


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
                                        "threefold-repetition", "king-ending"}
    stored = client.get(f"/api/games/{game['id']}").json()
    assert stored["history"] == game["history"] and stored["result"] == game["result"]
    pdn = client.get(f"/api/games/{game['id']}/pdn").text
    from damiera.pdn import result_token
    from damiera.rules.variant import Color

    winner = {"white": Color.WHITE, "black": Color.BLACK, None: None}[game["result"]["winner"]]
    assert f'[Result "{result_token(v, winner)}"]' in pdn


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
