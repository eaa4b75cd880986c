"""What two players online ask of each other: draw offers, takebacks, abort, rematch, the
claim when the opponent left; no unilateral undo."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx2
import pytest

from damiera.web.store import NotFoundError
from tests.conftest import WAIT_SECONDS
from tests.web.live.conftest import TEST_LIVE, ok, online_game
from tests.web.live.sse import Events, game_event


def _pair(browsers: Callable[[], httpx2.Client], **options: Any,
          ) -> tuple[httpx2.Client, httpx2.Client, str]:
    white, black = browsers(), browsers()
    game = online_game(white, **options)
    black.get(game["invite_url"])
    return white, black, game["id"]


def test_a_draw_offer_is_accepted_declined_or_withdrawn_and_a_move_declines_it(
    browsers: Callable[[], httpx2.Client],
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


def test_two_draw_offers_crossing_make_a_draw_instead_of_a_409(
    browsers: Callable[[], httpx2.Client], live_app: Any, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Both players offer a draw at the same moment: Black's offer is stored between
    White's read of the game and White's write. White's request named no version, so it
    reads the game again, finds Black's offer, and its offer accepts it."""
    white, _black, gid = _pair(browsers)
    ok(white.post(f"/api/games/{gid}/moves", json={"move": "32-28"}))
    store = live_app.state.service.store
    save = store.save
    crossed: list[int] = []

    def save_after_black(stored: Any) -> Any:
        if stored.id == gid and not crossed:     # Black's offer lands first
            theirs = store.load(gid)
            theirs.offers = {"draw": "black"}
            crossed.append(save(theirs).version)
        return save(stored)

    monkeypatch.setattr(store, "save", save_after_black)
    g = ok(white.post(f"/api/games/{gid}/draw/offer"))
    assert crossed and g["version"] > crossed[0]
    assert g["result"]["reason"] == "agreement" and g["online"]["draw_offer"] is None
    monkeypatch.setattr(store, "save", save)
    stale = white.post(f"/api/games/{gid}/draw/offer", json={"version": crossed[0]})
    assert stale.status_code == 409          # a version named is still checked


def test_a_takeback_needs_the_opponent_and_there_is_no_unilateral_undo(
    browsers: Callable[[], httpx2.Client],
) -> None:
    white, black, gid = _pair(browsers)
    ok(white.post(f"/api/games/{gid}/moves", json={"move": "32-28"}))
    assert white.post(f"/api/games/{gid}/undo").status_code == 409
    assert black.post(f"/api/games/{gid}/takeback/request").status_code == 409  # no move yet
    told = ok(black.get(f"/api/games/{gid}"))["online"]["can_take_back"]
    assert told == {"white": True, "black": False}         # what the page shows it by
    g = ok(white.post(f"/api/games/{gid}/takeback/request"))
    assert g["online"]["takeback"] == "white" and g["history"] == ["32-28"]
    assert ok(black.post(f"/api/games/{gid}/takeback/decline"))["history"] == ["32-28"]
    ok(black.post(f"/api/games/{gid}/moves", json={"move": "19-23"}))
    ok(white.post(f"/api/games/{gid}/takeback/request"))   # its move and the reply
    g = ok(black.post(f"/api/games/{gid}/takeback/accept"))
    assert g["history"] == [] and g["turn"] == "white" and g["online"]["takeback"] is None


def test_abort_while_a_side_has_not_moved_then_no_more(
    browsers: Callable[[], httpx2.Client],
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


def test_a_rematch_swaps_colours_once_both_agree(browsers: Callable[[], httpx2.Client]) -> None:
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
    assert fresh["clock"]["label"] == "3+2" and fresh["clock"]["running"] is None
    assert white.post(f"/api/games/{gid}/rematch/accept").status_code == 409



def test_the_rematch_is_stored_before_any_page_hears_of_it(
    browsers: Callable[[], httpx2.Client], live_app: Any,
) -> None:
    """The old game's save that names the rematch goes at once to every stream of it (the
    store's listeners), and the pages of both players follow it: the new game must be in the
    store by then, else a page that follows fast (the offerer's) opens a 404."""
    white, black, gid = _pair(browsers)
    ok(black.post(f"/api/games/{gid}/resign"))
    ok(white.post(f"/api/games/{gid}/rematch/offer"))
    store = live_app.state.service.store
    found: list[bool] = []

    def heard(game_id: str, saved: Any) -> None:
        new = ((saved.offers or {}).get("rematch_game")
               if game_id == gid and saved is not None else None)
        if new:
            try:
                found.append(store.load(new).id == new)
            except NotFoundError:
                found.append(False)

    store.listeners.append(heard)
    try:
        new = ok(black.post(f"/api/games/{gid}/rematch/accept"))["online"]["rematch_game"]
    finally:
        store.listeners.remove(heard)
    assert found == [True]
    assert ok(white.get(f"/api/games/{new}"))["seats"] == ["black"]


def test_a_rematch_whose_link_lost_a_race_leaves_no_game_behind(
    browsers: Callable[[], httpx2.Client], live_app: Any, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Another write lands on the old game between the accept's read and its write: the
    new game made for that try is deleted (nothing names it), the accept is decided again
    and names the one game that is left."""
    white, black, gid = _pair(browsers)
    ok(black.post(f"/api/games/{gid}/resign"))
    ok(white.post(f"/api/games/{gid}/rematch/offer"))
    store = live_app.state.service.store
    save, create = store.save, store.create
    made: list[str] = []

    def create_noted(stored: Any, *args: Any) -> Any:
        made.append(stored.id)
        return create(stored, *args)

    def save_after_another(stored: Any) -> Any:
        if stored.id == gid and (stored.offers or {}).get("rematch_game") and len(made) == 1:
            theirs = store.load(gid)             # a name set meanwhile, say
            theirs.white_name = "Wanda"
            save(theirs)
        return save(stored)

    monkeypatch.setattr(store, "create", create_noted)
    monkeypatch.setattr(store, "save", save_after_another)
    new = ok(black.post(f"/api/games/{gid}/rematch/accept"))["online"]["rematch_game"]
    assert len(made) == 2 and new == made[1]
    with pytest.raises(NotFoundError):
        store.load(made[0])
    assert ok(white.get(f"/api/games/{new}"))["online"]["names"]["black"] == "Wanda"


def test_the_win_is_claimed_only_after_the_opponent_left_on_its_turn(
    browsers: Callable[[], httpx2.Client],
) -> None:
    white, black, gid = _pair(browsers)
    stream = Events(black, f"/api/games/{gid}/events")
    stream.wait_for(lambda i, d: d["live"]["presence"].get("black", {}).get("online") is True,
                    "black present")
    for web, move in ((white, "32-28"), (black, "17-21"), (white, "37-32")):
        ok(web.post(f"/api/games/{gid}/moves", json={"move": move}))
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


def test_no_claim_before_both_sides_have_moved_but_an_abort(
    browsers: Callable[[], httpx2.Client],
) -> None:
    """A player who has not moved yet (the creator of an accepted challenge still on its
    way, say) is not claimed against: no clock runs for it yet, and the game may be
    aborted instead."""
    white, black, gid = _pair(browsers, clock="5+0")
    ok(white.post(f"/api/games/{gid}/moves", json={"move": "32-28"}))
    black.close()      # black's page never opened
    deadline = time.monotonic() + WAIT_SECONDS
    while True:        # black counts as here for a while after it took the seat
        r = white.post(f"/api/games/{gid}/claim", json={"result": "win"})
        if "here" not in r.json()["error"] or time.monotonic() > deadline:
            break
        time.sleep(TEST_LIVE.claim_after / 4)
    assert r.status_code == 409 and "abort" in r.json()["error"]
    g = ok(white.get(f"/api/games/{gid}"))
    assert g["clock"]["running"] is None and g["clock"]["black_ms"] == 300_000
    assert ok(white.post(f"/api/games/{gid}/abort"))["result"]["reason"] == "aborted"


def test_no_claim_on_your_own_turn(browsers: Callable[[], httpx2.Client]) -> None:
    white, _black, gid = _pair(browsers)
    r = white.post(f"/api/games/{gid}/claim", json={"result": "draw"})
    assert r.status_code == 409 and "your move" in r.json()["error"]


def test_players_whose_pages_stay_open_are_shown_present_long_after_they_came(
    browsers: Callable[[], httpx2.Client],
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
    browsers: Callable[[], httpx2.Client],
) -> None:
    """Until its page opens the game, a player who has just joined counts as here since it
    joined, not as gone since the game was created (which may be long before)."""
    black, white = browsers(), browsers()
    game = online_game(black, side="black")
    time.sleep(2 * TEST_LIVE.claim_after)      # the game waits for its second player
    white.get(game["invite_url"])              # White (to move) joins; its page not yet open
    r = black.post(f"/api/games/{game['id']}/claim", json={"result": "win"})
    assert r.status_code == 409 and "here" in r.json()["error"]


def test_a_game_continued_from_moves_counts_only_the_players_moves(
    browsers: Callable[[], httpx2.Client],
) -> None:
    """Created with ``moves`` (continued from a record): those moves are nobody's, so the
    game may be aborted until both players have moved in it, a takeback never reaches into
    them, and the rematch starts where this game started (after them)."""
    opening = ["32-28", "19-23", "28x19", "14x23"]
    white, black, gid = _pair(browsers, moves=opening, clock="5+3")
    g = ok(white.get(f"/api/games/{gid}"))
    assert g["history"] == opening and g["online"]["can_abort"] is True
    assert g["online"]["can_take_back"] == {"white": False, "black": False}
    assert g["clock"]["running"] is None
    moved = ok(white.post(f"/api/games/{gid}/moves", json={"move": "37-32"}))
    assert moved["online"]["can_abort"] is True
    assert moved["online"]["can_take_back"] == {"white": True, "black": False}
    assert black.post(f"/api/games/{gid}/takeback/request").status_code == 409
    ok(black.post(f"/api/games/{gid}/resign"))
    ok(black.post(f"/api/games/{gid}/rematch/offer"))
    new = ok(white.post(f"/api/games/{gid}/rematch/accept"))["online"]["rematch_game"]
    fresh = ok(black.get(f"/api/games/{new}"))
    assert fresh["history"] == opening and fresh["seats"] == ["white"]
    assert fresh["online"]["can_abort"] is True and fresh["clock"]["running"] is None
    ok(black.post(f"/api/games/{new}/moves", json={"move": "37-32"}))
    assert ok(white.post(f"/api/games/{new}/abort"))["result"]["reason"] == "aborted"
