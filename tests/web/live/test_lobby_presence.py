"""A challenge lasts while its creator's lobby page is open: once the page (its lobby event
stream) has been closed for the grace period, the challenge is cancelled and the other lobby
pages are told; a creator back within the grace period keeps it."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx2

from tests.conftest import WAIT_SECONDS
from tests.web.live.conftest import TEST_LIVE, ok
from tests.web.live.sse import Events


def _challenge(web: httpx2.Client) -> dict[str, Any]:
    return ok(web.post("/api/challenges", json={"variant": "italian", "side": "white"}))


def _listed(web: httpx2.Client) -> set[str]:
    r = web.get("/api/challenges")
    assert r.status_code == 200, r.text
    return {c["id"] for c in r.json()}


def _lobby(web: httpx2.Client) -> Events:
    stream = Events(web, "/api/challenges/events")
    stream.wait_for(lambda i, d: d["type"] == "list", "the lobby's list")
    return stream


def test_a_challenge_is_cancelled_once_its_creators_lobby_page_has_been_gone_a_while(
    browsers: Callable[[], httpx2.Client],
) -> None:
    maker, other = browsers(), browsers()
    page = _lobby(maker)
    watching = _lobby(other)
    made = _challenge(maker)
    time.sleep(2 * TEST_LIVE.challenge_grace)   # time passing with the page open
    assert made["id"] in _listed(other)
    page.close()                                 # the creator leaves the lobby
    watching.wait_for(lambda i, d: d["type"] == "removed" and d["id"] == made["id"]
                      and d["game_id"] is None, "the challenge cancelled")
    assert made["id"] not in _listed(other)
    r = other.post(f"/api/challenges/{made['id']}/accept")
    assert r.status_code == 409 and "no longer open" in r.json()["error"]
    assert maker.delete(f"/api/challenges/{made['id']}").status_code == 409
    watching.close()


def test_a_creator_back_within_the_grace_period_keeps_the_challenge(
    browsers: Callable[[], httpx2.Client],
) -> None:
    maker, other = browsers(), browsers()
    page = _lobby(maker)
    made = _challenge(maker)
    page.close()
    page = _lobby(maker)                         # a reload: the page is back at once
    time.sleep(2 * TEST_LIVE.challenge_grace)
    assert made["id"] in _listed(other)
    game = ok(other.post(f"/api/challenges/{made['id']}/accept"))
    assert game["online"]["ready"]
    page.close()


def test_a_challenge_whose_creator_never_opens_the_lobby_lasts_the_grace_period(
    browsers: Callable[[], httpx2.Client],
) -> None:
    maker, other = browsers(), browsers()
    watching = _lobby(other)
    made = _challenge(maker)
    watching.wait_for(lambda i, d: d["type"] == "removed" and d["id"] == made["id"],
                      "the challenge cancelled")
    assert made["id"] not in _listed(other)
    watching.close()


def test_the_lobby_page_says_how_long_a_challenge_outlives_it(
    browsers: Callable[[], httpx2.Client],
) -> None:
    page = browsers().get("/lobby").text
    assert f"{int(TEST_LIVE.challenge_grace)} seconds after you leave" in page
    assert WAIT_SECONDS > 2 * TEST_LIVE.challenge_grace
