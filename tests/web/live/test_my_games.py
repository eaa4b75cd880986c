"""My games lists every game in which the browser holds a seat: a game created, a seat taken
by an invitation link, a challenge accepted or created, a rematch; with the browser's side,
its opponent's name and whether it may delete the game (only with every seat)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx2

from tests.web.live.conftest import ok, online_game
from tests.web.live.sse import Events


def _mine(web: httpx2.Client) -> dict[str, dict[str, Any]]:
    r = web.get("/api/games")
    assert r.status_code == 200, r.text
    return {g["id"]: g for g in r.json()}


def test_a_seat_taken_by_the_invitation_link_lists_the_game_for_both_players(
    browsers: Callable[[], httpx2.Client],
) -> None:
    alice, bob, carol = browsers(), browsers(), browsers()
    game = online_game(alice, side="white", name="Alice")
    gid = game["id"]
    bob.get(game["invite_url"])
    ok(bob.post(f"/api/games/{gid}/name", json={"name": "Bob"}))
    carol.get(game["invite_url"])            # a watcher: no seat, not in her games
    ok(alice.post(f"/api/games/{gid}/moves", json={"move": "32-28"}))
    ok(bob.post(f"/api/games/{gid}/moves", json={"move": "19-23"}))
    theirs = _mine(bob)[gid]
    assert (theirs["opponent"], theirs["side"], theirs["seats"]) == ("online", "black", ["black"])
    assert theirs["opponent_name"] == "Alice" and theirs["can_delete"] is False
    assert theirs["plies"] == 2 and theirs["result"] is None
    creator = _mine(alice)[gid]
    assert (creator["side"], creator["opponent_name"], creator["can_delete"]) == (
        "white", "Bob", False)
    assert gid not in _mine(carol)
    page = bob.get("/games").text
    assert gid in page and "Alice" in page and f'data-game-id="{gid}"' in page
    assert f'class="link delete-game" data-game-id="{gid}"' not in page   # one seat only
    pdn = bob.get("/api/pdn/my-games").text
    assert f'[Site "game {gid}"]' in pdn and '[White "Alice"]' in pdn and "32-28 19-23" in pdn
    # the rule for deleting is unchanged: every seat, which no player online holds
    assert bob.delete(f"/api/games/{gid}").status_code == 403
    assert ok(bob.post(f"/api/games/{gid}/resign"))["result"]["winner"] == "white"
    assert _mine(bob)[gid]["outcome"] == "lost" and _mine(alice)[gid]["outcome"] == "won"


def test_an_accepted_challenge_and_its_rematch_are_in_both_players_games(
    browsers: Callable[[], httpx2.Client],
) -> None:
    maker, taker = browsers(), browsers()
    lobby = Events(maker, "/api/challenges/events")      # the maker waits in the lobby
    lobby.wait_for(lambda i, d: d["type"] == "list", "the lobby's list")
    challenge = ok(maker.post("/api/challenges", json={"variant": "italian", "side": "white",
                                                        "name": "Maker"}))
    game = ok(taker.post(f"/api/challenges/{challenge['id']}/accept", json={"name": "Taker"}))
    lobby.close()
    gid = game["id"]
    ok(maker.post(f"/api/games/{gid}/moves", json={"move": "22-19"}))
    made = _mine(maker)[gid]            # the challenge's creator is not the game's owner
    assert (made["side"], made["opponent_name"]) == ("white", "Taker")
    assert _mine(taker)[gid]["side"] == "black"
    ok(taker.post(f"/api/games/{gid}/resign"))
    ok(taker.post(f"/api/games/{gid}/rematch/offer"))
    rematch = ok(maker.post(f"/api/games/{gid}/rematch/accept"))["online"]["rematch_game"]
    ok(taker.post(f"/api/games/{rematch}/moves", json={"move": "22-19"}))   # colours swapped
    for web, side in ((maker, "black"), (taker, "white")):
        assert _mine(web)[rematch]["side"] == side
    pdn = maker.get("/api/pdn/my-games").text
    assert f'[Site "game {rematch}"]' in pdn and f'[Site "game {gid}"]' in pdn


def test_my_own_games_keep_their_sides_and_delete_button(
    browsers: Callable[[], httpx2.Client],
) -> None:
    web = browsers()
    friend = ok(web.post("/api/games", json={"variant": "italian", "opponent": "friend"}))
    ok(web.post(f"/api/games/{friend['id']}/moves", json={"move": "22-19"}))
    row = _mine(web)[friend["id"]]
    assert row["seats"] == ["white", "black"] and row["can_delete"] is True
    assert row["opponent_name"] is None
    page = web.get("/games").text
    assert f'class="link delete-game" data-game-id="{friend["id"]}"' in page
    assert web.delete(f"/api/games/{friend['id']}").status_code == 204


def test_games_online_are_labelled_with_your_side_and_deleted_only_while_yours_alone(
    browsers: Callable[[], httpx2.Client],
) -> None:
    """A game online in My games says your side (not "Both (same screen)") and who you
    play; it may be deleted while nobody else holds a seat in it (an invitation not taken
    yet) or once aborted, and otherwise the refusal says why (it is your opponent's game
    too), never that you did not create it."""
    alice, bob = browsers(), browsers()
    waiting = online_game(alice, side="black", variant="italian")
    row = _mine(alice)[waiting["id"]]
    assert (row["side"], row["seats"], row["waiting"], row["can_delete"]) == (
        "black", ["black"], True, True)
    page = alice.get("/games").text
    assert "Both (same screen)" not in page and "waiting for a player" in page
    assert alice.delete(f"/api/games/{waiting['id']}").status_code == 204
    assert waiting["id"] not in _mine(alice)

    played = online_game(alice, side="black", variant="italian", name="Alice")
    bob.get(played["invite_url"])
    ok(bob.post(f"/api/games/{played['id']}/name", json={"name": "Bob"}))
    ok(bob.post(f"/api/games/{played['id']}/moves", json={"move": "22-19"}))
    row = _mine(alice)[played["id"]]
    assert (row["side"], row["opponent_name"], row["waiting"], row["can_delete"]) == (
        "black", "Bob", False, False)
    page = alice.get("/games").text
    assert "Bob (online)" in page and "Both (same screen)" not in page
    for web in (alice, bob):
        refused = web.delete(f"/api/games/{played['id']}")
        assert refused.status_code == 403
        assert "opponent" in refused.json()["error"]
        assert "created" not in refused.json()["error"]

    ok(alice.post(f"/api/games/{played['id']}/abort"))
    assert _mine(bob)[played["id"]]["can_delete"] is True
    assert bob.delete(f"/api/games/{played['id']}").status_code == 204
