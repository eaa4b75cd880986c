"""What two players online ask of each other: draw offers, takebacks, abort, rematch, the
claim when the opponent left; no unilateral undo."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx

from tests.conftest import WAIT_SECONDS
from tests.web.live.conftest import TEST_LIVE, ok, online_game
from tests.web.live.sse import Events, game_event


def _pair(browsers: Callable[[], httpx.Client], **options: Any,
          ) -> tuple[httpx.Client, httpx.Client, str]:
    white, black = browsers(), browsers()
    game = online_game(white, **options)
    black.get(game["invite_url"])
    return white, black, game["id"]


def test_a_draw_offer_is_accepted_declined_or_withdrawn_and_a_move_declines_it(
    browsers: Callable[[], httpx.Client],
) -> None:
    white, black, gid = _pair(browsers)
    g = ok(white.post(f"/api/games/{gid}/draw/offer"))
    assert g["online"]["draw_offer"] == "white"
    assert white.post(f"/api/games/{gid}/draw/accept").status_code == 409   # not its own
    assert ok(white.post(f"/api/games/{gid}/draw/withdraw"))["online"]["draw_offer"] is None
    ok(white.post(f"/api/games/{gid}/draw/offer"))
    assert ok(black.post(f"/api/games/{gid}/draw/decline"))["online"]["draw_offer"] is None
    ok(white.post(f"/api/games/{gid}/moves", json={"move": "32-28"}))
    ok(white.post(f"/api/games/{gid}/draw/offer"))
    g = ok(black.post(f"/api/games/{gid}/moves", json={"move": "19-23"}))
    assert g["online"]["draw_offer"] is None          # answered by a move
    ok(black.post(f"/api/games/{gid}/draw/offer"))
    g = ok(white.post(f"/api/games/{gid}/draw/accept"))
    assert g["result"]["reason"] == "agreement" and g["result"]["winner"] is None


def test_a_takeback_needs_the_opponent_and_there_is_no_unilateral_undo(
    browsers: Callable[[], httpx.Client],
) -> None:
    white, black, gid = _pair(browsers)
    ok(white.post(f"/api/games/{gid}/moves", json={"move": "32-28"}))
    assert white.post(f"/api/games/{gid}/undo").status_code == 409
    assert black.post(f"/api/games/{gid}/takeback/request").status_code == 409  # no move yet
    g = ok(white.post(f"/api/games/{gid}/takeback/request"))
    assert g["online"]["takeback"] == "white" and g["history"] == ["32-28"]
    assert ok(black.post(f"/api/games/{gid}/takeback/decline"))["history"] == ["32-28"]
    ok(black.post(f"/api/games/{gid}/moves", json={"move": "19-23"}))
    ok(white.post(f"/api/games/{gid}/takeback/request"))   # its move and the reply
    g = ok(black.post(f"/api/games/{gid}/takeback/accept"))
    assert g["history"] == [] and g["turn"] == "white" and g["online"]["takeback"] is None


def test_abort_while_a_side_has_not_moved_then_no_more(
    browsers: Callable[[], httpx.Client],
) -> None:
    white, black, gid = _pair(browsers, clock="1+0")
    ok(white.post(f"/api/games/{gid}/moves", json={"move": "32-28"}))
    g = ok(black.post(f"/api/games/{gid}/abort"))
    assert g["result"] == {"winner": None, "reason": "aborted",
                           "text": "Game aborted: no result"}
    assert g["legal_moves"] == [] and g["clock"]["running"] is None
    assert white.post(f"/api/games/{gid}/moves", json={"move": "31-27"}).status_code == 409
    assert '[Result "*"]' in white.get(f"/api/games/{gid}/pdn").text
    white, black, gid = _pair(browsers)
    ok(white.post(f"/api/games/{gid}/moves", json={"move": "32-28"}))
    ok(black.post(f"/api/games/{gid}/moves", json={"move": "19-23"}))
    assert white.post(f"/api/games/{gid}/abort").status_code == 409


def test_a_rematch_swaps_colours_once_both_agree(browsers: Callable[[], httpx.Client]) -> None:
    white, black, gid = _pair(browsers, clock="3+2", name="Wanda")
    assert black.post(f"/api/games/{gid}/rematch/offer").status_code == 409   # not over
    ok(black.post(f"/api/games/{gid}/resign"))
    assert ok(white.post(f"/api/games/{gid}/rematch/offer"))["online"]["rematch"] == "white"
    g = ok(black.post(f"/api/games/{gid}/rematch/accept"))
    new = g["online"]["rematch_game"]
    assert new
    assert ok(white.get(f"/api/games/{new}"))["seats"] == ["black"]
    fresh = ok(black.get(f"/api/games/{new}"))
    assert fresh["seats"] == ["white"] and fresh["online"]["names"]["black"] == "Wanda"
    assert fresh["clock"]["label"] == "3+2" and fresh["clock"]["running"] == "white"
    assert white.post(f"/api/games/{gid}/rematch/accept").status_code == 409


def test_the_win_is_claimed_only_after_the_opponent_left_on_its_turn(
    browsers: Callable[[], httpx.Client],
) -> None:
    white, black, gid = _pair(browsers)
    stream = Events(black, f"/api/games/{gid}/events")
    stream.wait_for(lambda i, d: d["live"]["presence"].get("black", {}).get("online") is True,
                    "black present")
    ok(white.post(f"/api/games/{gid}/moves", json={"move": "32-28"}))
    r = white.post(f"/api/games/{gid}/claim", json={"result": "win"})
    assert r.status_code == 409 and "here" in r.json()["error"]       # black's page is open
    stream.close()
    black.close()      # black's page is gone
    deadline = time.monotonic() + WAIT_SECONDS
    while True:        # the claim waits claim_after seconds from when black left
        r = white.post(f"/api/games/{gid}/claim", json={"result": "win"})
        if r.status_code == 200 or time.monotonic() > deadline:
            break
        assert r.status_code == 409
        time.sleep(TEST_LIVE.claim_after / 4)
    g = ok(r)
    assert g["result"]["winner"] == "white" and g["result"]["reason"] == "abandoned"
    assert g["result_sentence"] == "White wins: Black left the game"


def test_no_claim_on_your_own_turn(browsers: Callable[[], httpx.Client]) -> None:
    white, _black, gid = _pair(browsers)
    r = white.post(f"/api/games/{gid}/claim", json={"result": "draw"})
    assert r.status_code == 409 and "your move" in r.json()["error"]


def test_players_whose_pages_stay_open_are_shown_present_long_after_they_came(
    browsers: Callable[[], httpx.Client],
) -> None:
    """Presence is confirmed every few seconds: a player here for longer than the time after
    which an unconfirmed presence counts as gone is still shown here, and no claim lies."""
    white, black, gid = _pair(browsers)
    streams = [Events(web, f"/api/games/{gid}/events") for web in (white, black)]
    streams[0].wait_for(lambda i, d: d["live"]["presence"]["black"]["online"], "black here")
    time.sleep(2 * TEST_LIVE.stale_after)     # time passing, not a measure of speed
    moved = ok(white.post(f"/api/games/{gid}/moves", json={"move": "32-28"}))
    _, data = streams[0].wait_for(game_event(moved["version"]))
    assert data["live"]["presence"]["white"]["online"]
    assert data["live"]["presence"]["black"]["online"]
    r = white.post(f"/api/games/{gid}/claim", json={"result": "win"})
    assert r.status_code == 409 and "here" in r.json()["error"]
    for s in streams:
        s.close()


def test_a_player_who_just_took_the_seat_cannot_be_claimed_against_at_once(
    browsers: Callable[[], httpx.Client],
) -> None:
    """Until its page opens the game, a player who has just joined counts as here since it
    joined, not as gone since the game was created (which may be long before)."""
    black, white = browsers(), browsers()
    game = online_game(black, side="black")
    time.sleep(2 * TEST_LIVE.claim_after)      # the game waits for its second player
    white.get(game["invite_url"])              # White (to move) joins; its page not yet open
    r = black.post(f"/api/games/{game['id']}/claim", json={"result": "win"})
    assert r.status_code == 409 and "here" in r.json()["error"]
