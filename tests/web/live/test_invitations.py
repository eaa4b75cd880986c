"""Games between two browsers by invitation link: the contract of ``POST /api/games`` with
``"opponent": "online"`` and ``invite_url``, seats, and what a watcher may not do."""

from __future__ import annotations

from collections.abc import Callable

import httpx2
import pytest

from damiera.web.live.invitations import SECRET_LENGTH
from tests.web.live.conftest import ok, online_game


def test_the_invite_url_gives_the_free_seat_to_the_first_other_browser_only(
    browsers: Callable[[], httpx2.Client],
) -> None:
    alice, bob, carol = browsers(), browsers(), browsers()
    game = online_game(alice, side="black", clock="1+0")
    assert game["seats"] == ["black"] and game["invite_url"].startswith("/join/")
    assert len(game["invite_url"].rsplit("/", 1)[1]) == SECRET_LENGTH   # 144 bits
    assert game["online"]["seated"] == {"white": False, "black": True}
    assert game["clock"]["running"] is None        # the clock waits for the opponent
    r = bob.get(game["invite_url"])
    assert r.status_code == 200 and r.url.path == f"/game/{game['id']}"
    assert ok(bob.get(f"/api/games/{game['id']}"))["seats"] == ["white"]
    carol.get(game["invite_url"])                  # the link opened a second time: a watcher
    seen = ok(carol.get(f"/api/games/{game['id']}"))
    assert seen["seats"] == [] and seen.get("invite_url") is None
    mine = ok(alice.get(f"/api/games/{game['id']}"))
    assert mine["seats"] == ["black"] and mine["invite_url"] is None   # the seat is taken
    assert mine["online"]["ready"] and mine["clock"]["running"] is None   # first moves
    assert ok(bob.post(f"/api/games/{game['id']}/moves", json={"move": "32-28"}))["turn"] == \
        "black"
    r = carol.post(f"/api/games/{game['id']}/moves", json={"move": "19-23"})
    assert r.status_code == 403
    both = ok(alice.post(f"/api/games/{game['id']}/moves", json={"move": "19-23"}))
    assert both["clock"]["running"] == "white"      # both sides have moved: it runs
    assert both["clock"]["black_ms"] == 60_000 and both["clock"]["white_ms"] <= 60_000


def test_the_creator_opening_the_link_keeps_its_seat_and_can_show_it_again(
    browsers: Callable[[], httpx2.Client],
) -> None:
    alice = browsers()
    game = online_game(alice, side="random")
    side = game["seats"][0]
    alice.get(game["invite_url"])
    again = ok(alice.get(f"/api/games/{game['id']}"))
    assert again["seats"] == [side] and again["invite_url"] == game["invite_url"]
    assert again["online"]["seated"][side] and not again["online"]["ready"]
    qr = alice.get(f"/api/games/{game['id']}/invite.svg")
    assert qr.status_code == 200 and qr.headers["content-type"].startswith("image/svg+xml")
    assert b"<svg" in qr.content


def test_nobody_moves_before_the_second_player_comes(browsers: Callable[[], httpx2.Client]) -> None:
    alice = browsers()
    game = online_game(alice)
    r = alice.post(f"/api/games/{game['id']}/moves", json={"move": "32-28"})
    assert r.status_code == 409 and "opponent" in r.json()["error"]


def test_an_unknown_or_malformed_invitation_is_a_404_page(
    browsers: Callable[[], httpx2.Client],
) -> None:
    bob = browsers()
    for secret in ("A" * SECRET_LENGTH, "x", "A" * 5000):
        r = bob.get(f"/join/{secret}")
        assert r.status_code in (404, 414), secret[:10]
    assert "damiera_player" not in bob.cookies


def test_a_link_preview_robot_does_not_take_the_seat(
    browsers: Callable[[], httpx2.Client],
) -> None:
    alice, robot, bob = browsers(), browsers(), browsers()
    game = online_game(alice)
    robot.get(game["invite_url"], headers={"User-Agent": "Slackbot-LinkExpanding 1.0"})
    robot.get(game["invite_url"], headers={"Sec-Purpose": "prefetch"})
    assert ok(robot.get(f"/api/games/{game['id']}"))["seats"] == []
    bob.get(game["invite_url"])
    assert ok(bob.get(f"/api/games/{game['id']}"))["seats"] == ["black"]


CHROME = ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
          "Chrome/120.0 Safari/537.36")
NAVIGATION = {"User-Agent": CHROME, "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document",
              "Sec-Fetch-Site": "none", "Sec-Fetch-User": "?1", "Accept": "text/html"}


@pytest.mark.parametrize("headers", [
    {"User-Agent": "Viber/20.0"},
    {"User-Agent": "Mozilla/5.0 (iPhone) Mobile/15E148 [FBAN/MessengerForiOS]"},
    {"User-Agent": CHROME + " Microsoft Teams"},
    {"User-Agent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 "
                   "(KHTML, like Gecko)"},
    {"User-Agent": "TelegramBot (like TwitterBot)"},
    {"User-Agent": "Mozilla/5.0 (compatible; Google-Safety; +http://www.google.com/bot.html)"},
    {"User-Agent": "WhatsApp/2.23"},
    {**NAVIGATION, "Sec-Purpose": "prefetch;prerender"},
    {**NAVIGATION, "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image"},
    {**NAVIGATION, "Sec-Fetch-Dest": "iframe"},
])
def test_link_previews_in_browser_clothes_do_not_take_the_seat(
    browsers: Callable[[], httpx2.Client], headers: dict[str, str],
) -> None:
    """Chat apps' previews that name themselves (Viber), and fetches that look like a
    browser but are not a browser's navigation to a page (no Sec-Fetch headers, as an
    in-app previewer sends; a prefetch, an image, a frame): none takes the seat. A client
    that looks like a browser without being one is shown the invitation page, whose "Take
    the seat" button (a POST) only a person presses."""
    alice, robot = browsers(), browsers()
    game = online_game(alice)
    r = robot.get(game["invite_url"], headers=headers)
    assert r.status_code == 200
    assert ok(alice.get(f"/api/games/{game['id']}"))["online"]["seated"]["black"] is False


def test_a_browser_navigation_takes_the_seat_and_an_unsure_one_takes_it_by_the_button(
    browsers: Callable[[], httpx2.Client],
) -> None:
    alice, bob, carol = browsers(), browsers(), browsers()
    game = online_game(alice)
    r = bob.get(game["invite_url"], headers=NAVIGATION)
    assert r.url.path == f"/game/{game['id']}"
    assert ok(bob.get(f"/api/games/{game['id']}"))["seats"] == ["black"]
    other = online_game(alice)
    old_safari = {"User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 15_7 like Mac OS X) "
                  "AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.6 Mobile/15E148 "
                  "Safari/604.1"}                     # a browser before Sec-Fetch headers
    page = carol.get(other["invite_url"], headers=old_safari)
    assert page.status_code == 200 and 'id="take-seat"' in page.text
    assert ok(carol.get(f"/api/games/{other['id']}"))["seats"] == []
    taken = ok(carol.post(other["invite_url"], json={"name": "Carol"}, headers=old_safari))
    assert taken["id"] == other["id"] and taken["seats"] == ["black"]
    assert taken["online"]["names"]["black"] == "Carol"
    again = carol.post(other["invite_url"], json={}, headers={"Origin": "https://evil.example"})
    assert again.status_code == 403                   # same-origin only
    late = browsers().post(other["invite_url"], json={})
    assert ok(late)["seats"] == []                    # the seat is taken: a watcher


def test_display_names_are_bounded_and_free_of_control_characters(
    browsers: Callable[[], httpx2.Client],
) -> None:
    alice, bob = browsers(), browsers()
    game = online_game(alice, name="  Anna   Maria ")
    assert game["online"]["names"]["white"] == "Anna Maria"
    for bad in ("x" * 25, "Eve\u202e", "a\nb"):
        r = bob.post("/api/games", json={"variant": "italian", "opponent": "online",
                                         "name": bad})
        assert r.status_code == 400 and "name" in r.json()["error"], bad
    bob.get(game["invite_url"])
    named = ok(bob.post(f"/api/games/{game['id']}/name", json={"name": "Bruno"}))
    assert named["online"]["names"] == {"white": "Anna Maria", "black": "Bruno"}
    r = bob.post(f"/api/games/{game['id']}/name", json={"name": "\x07"})
    assert r.status_code == 400
    pdn = alice.get(f"/api/games/{game['id']}/pdn").text
    assert '[White "Anna Maria"]' in pdn and '[Black "Bruno"]' in pdn
