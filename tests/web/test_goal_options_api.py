"""The goal options on the site's API: a new game names them (booleans, or the canonical id
in ``variant``), its JSON says them, the store keeps them, the result sentence is the goal's,
and the old ``optional_capture`` flag still works for stored games and clients."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import new_game, play


def _options(game: dict[str, Any]) -> tuple[Any, ...]:
    return (game["variant"], game["full_id"], game["optional_capture"], game["losing"],
            game["breakthrough"])


@pytest.mark.parametrize("body", [
    {"variant": "international", "losing": True},
    {"variant": "international+losing"},
    {"variant": "international+losing", "losing": True},
])
def test_a_losing_game_is_made_by_flag_or_by_id_and_says_so(client: TestClient,
                                                            body: dict[str, Any]) -> None:
    game = new_game(client, **body)
    assert _options(game) == ("international", "international+losing", False, True, False)
    assert game["variant_name"] == "International draughts (losing)"
    # read back from the store: the same options
    again = client.get(f"/api/games/{game['id']}").json()
    assert _options(again) == _options(game)


def test_a_losing_game_ends_with_the_goals_result_sentence(client: TestClient) -> None:
    game = new_game(client, variant="international", losing=True, fen="W:W32:B28")
    done = play(client, game["id"], "32x23")
    assert done["result"] == {"winner": "black", "reason": "losing-no-pieces",
                              "text": "Black wins: Black has no pieces left (losing rule)"}
    assert done["result_sentence"] == "Black wins: it has no pieces left (losing rule)"
    try:
        italian = client.get(f"/api/games/{game['id']}", params={"lang": "it"}).json()
    finally:
        client.cookies.delete("damiera_lang")  # the session's client goes on in English
    assert italian["result_sentence"] == "Nero vince: non ha più pezzi (regola perdente)"


def test_a_breakthrough_game_ends_at_the_first_king(client: TestClient) -> None:
    game = new_game(client, variant="russian", breakthrough=True, fen="W:Wb6:Bc7,e7,a5")
    done = play(client, game["id"], "b6:d8:f6")
    assert done["result"]["reason"] == "breakthrough"
    assert done["result"]["winner"] == "white"
    assert done["legal_moves"] == []


def test_the_old_optional_capture_flag_still_makes_and_reports_the_house_rule(
        client: TestClient) -> None:
    game = new_game(client, variant="american", optional_capture=True, breakthrough=True)
    assert _options(game) == ("american", "american+optional-capture+breakthrough", True,
                              False, True)


def test_a_game_stored_before_the_options_reads_back_with_its_flag(tmp_db: str) -> None:
    from damiera.rules.game import Game
    from damiera.web.results import stored_variant
    from damiera.web.store import GameStore, StoredGame

    store = GameStore(tmp_db)
    store.create(StoredGame(id="old1", variant="american", optional_capture=True,
                            opponent="friend", level=None, side="white", start_fen=None))
    stored = store.load("old1")
    v = stored_variant(stored)
    assert v is not None and v.full_id == "american+optional-capture"
    assert "14x23" in [str(m) for m in Game(v, "B:W18:B14,1").legal_moves]
    longest = "brazilian+optional-capture+breakthrough"
    store.create(StoredGame(id="new1", variant=longest, optional_capture=True,
                            opponent="friend", level=None, side="white", start_fen=None))
    assert store.load("new1").variant == longest


@pytest.mark.parametrize(("body", "words"), [
    ({"variant": "italian", "losing": True, "breakthrough": True}, "two different goals"),
    ({"variant": "italian+suicide"}, "unknown rule option"),
    ({"variant": "international+optional-capture"}, "8x8"),
])
def test_impossible_options_are_a_400_with_the_reason(client: TestClient,
                                                      body: dict[str, Any], words: str) -> None:
    r = client.post("/api/games", json={"opponent": "friend", **body})
    assert r.status_code == 400
    assert words in r.json()["error"]


def test_my_games_lists_the_options(client: TestClient) -> None:
    game = new_game(client, variant="italian", losing=True)
    play(client, game["id"], "22-19")
    page = client.get("/games")
    assert page.status_code == 200
    assert "Italian draughts (losing rule)" in page.text
