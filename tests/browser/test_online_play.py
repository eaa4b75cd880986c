"""Games online in the browser: two players (two Chromium contexts, own cookies) and a
watcher (a third) play a game by invitation link with a 1+0 clock, in International and
Italian draughts. Every move, the draw offer and its refusal, a takeback and the flag fall
show on all three pages by themselves (the pages never reload); the link opened a second
time gives a watcher. Then the same on two ``damiera serve`` processes on PostgreSQL +
Redis, and a challenge accepted from the lobby."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import WAIT_MS, browser_pages

Page = Any


def _new_online_game(page: Page, variant: str, name: str) -> str:
    """The menu's "Play a friend online" (White, 1+0); returns the invitation link."""
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    page.select_option("#ng-variant", variant)
    page.select_option("#ng-opponent", "online")
    page.select_option("#ng-side", "white")
    page.select_option("#ng-clock", "custom")
    page.fill("#ng-clock-minutes", "1")
    page.fill("#ng-clock-increment", "0")
    page.fill("#ng-name", name)
    page.click("#ng-start")
    expect(page.locator("#invite")).to_be_visible()
    expect(page.locator("#invite-qr")).to_be_visible()
    expect(page.locator("#status")).to_contain_text("Waiting for your opponent")
    link: str = page.input_value("#invite-link")
    assert "/join/" in link
    return link


def _play_first_legal_move(page: Page, gid: str) -> str:
    """Click the first legal move's squares (start, each landing) on ``page``."""
    game = page.request.get(f"/api/games/{gid}").json()
    move = game["legal_moves"][0]
    for square in move["path"]:
        page.locator(f'#board [data-square="{square}"]').click()
    return str(move["move"])


def _moves_shown(pages: list[Page], n: int) -> None:
    for page in pages:
        expect(page.locator("#move-list button.move")).to_have_count(n)


@pytest.mark.parametrize("variant", ["international", "italian"])
def test_two_players_and_a_watcher_play_a_game_by_invitation_link(
    browser: Any, base_url: str, variant: str,
) -> None:
    with browser_pages(browser, [base_url] * 4) as (pages, errors):
        white, black, watcher, late = pages
        link = _new_online_game(white, variant, "Wanda")
        gid = white.url.rsplit("/", 1)[1]
        black.goto(link)                          # the first to open it takes the seat
        black.wait_for_selector("body[data-ready]")
        expect(white.locator("#invite")).to_be_hidden()
        watcher.goto(link)                        # opened a second time: a watcher
        watcher.wait_for_selector("body[data-ready]")
        expect(watcher.locator("#status")).to_contain_text("You are watching")
        for control in ("#btn-resign", "#btn-undo", "#live-controls", "#type-move",
                        "#live-name", "#btn-offer-draw"):
            expect(watcher.locator(control)).to_be_hidden()
        expect(black.locator("#bar-bottom")).to_contain_text("Black · You")
        expect(watcher.locator("#bar-bottom")).to_contain_text("White · Wanda")
        expect(white.locator("#watchers")).to_have_text("Watching: 1")
        black.fill("#name-input", "Bruno")
        black.click("#name-save")
        for page in (white, watcher):
            expect(page.locator(".player-bar")).to_contain_text(["Black · Bruno"])

        for n in range(1, 5):                     # four moves, each seen on every page
            _play_first_legal_move(white if n % 2 else black, gid)
            _moves_shown([white, black, watcher], n)

        white.click("#btn-offer-draw")            # offered, seen, declined
        expect(black.locator("#live-offers")).to_contain_text("Wanda offers a draw.")
        expect(watcher.locator("#live-offers")).to_contain_text("Wanda offers a draw.")
        black.click("#draw-decline")
        for page in (white, black, watcher):
            expect(page.locator("#live-offers")).to_be_empty()

        _play_first_legal_move(white, gid)
        _moves_shown([white, black, watcher], 5)
        white.click("#btn-takeback")              # asked, seen, accepted: back to four
        expect(black.locator("#live-offers")).to_contain_text("Wanda asks to take back")
        black.click("#takeback-accept")
        _moves_shown([white, black, watcher], 4)

        late.goto(link)                           # still only a watcher
        late.wait_for_selector("body[data-ready]")
        expect(late.locator("#status")).to_contain_text("You are watching")
        expect(white.locator("#watchers")).to_have_text("Watching: 2")

        # White to move: its minute runs out; every page shows the flag fall by itself
        for page in (white, black, watcher):
            expect(page.locator("#result")).to_be_visible(timeout=90_000 + WAIT_MS)
            expect(page.locator("#result-text")).to_have_text(
                "Black wins: White lost on time")
        expect(watcher.locator("#btn-rematch")).to_be_hidden()
        assert not errors, errors


def test_the_two_players_on_two_web_processes_on_postgresql_and_redis(
    browser: Any, postgres_url: str, redis_url: str,
) -> None:
    from tests.web.processes import start_server, stop

    servers = [start_server(postgres_url, redis_url) for _ in range(2)]
    try:
        bases = [base for _proc, base in servers]
        with browser_pages(browser, [bases[0], bases[1], bases[1]]) as (pages, errors):
            white, black, watcher = pages
            link = _new_online_game(white, "international", "Wanda")
            gid = white.url.rsplit("/", 1)[1]
            other = bases[1] + link[link.index("/join/"):]   # the same link, process two
            black.goto(other)
            black.wait_for_selector("body[data-ready]")
            expect(white.locator("#invite")).to_be_hidden()
            watcher.goto(f"/game/{gid}")
            watcher.wait_for_selector("body[data-ready]")
            for n in range(1, 4):
                _play_first_legal_move(white if n % 2 else black, gid)
                _moves_shown([white, black, watcher], n)
            black.click("#btn-offer-draw")
            expect(white.locator("#live-offers")).to_contain_text("offers a draw")
            white.click("#draw-accept")
            for page in (white, black, watcher):
                expect(page.locator("#result-text")).to_have_text("Draw by agreement")
            assert not errors, errors
    finally:
        for proc, _base in servers:
            stop(proc)


def test_a_challenge_opened_in_the_lobby_and_accepted_brings_both_to_the_game(
    browser: Any, base_url: str,
) -> None:
    with browser_pages(browser, [base_url] * 2) as (pages, errors):
        maker, taker = pages
        maker.goto("/lobby")
        maker.wait_for_selector("body[data-ready]")
        maker.select_option("#ch-variant", "russian")
        maker.select_option("#ch-side", "black")
        maker.fill("#ch-name", "Masha")
        maker.click("#ch-open")
        expect(maker.locator("#lobby-status")).to_contain_text("waiting for someone")
        taker.goto("/lobby")
        taker.wait_for_selector("body[data-ready]")
        row = taker.locator("#challenge-rows tr", has_text="Masha")
        expect(row).to_contain_text("Russian")
        row.locator("button.accept-challenge").click()
        taker.wait_for_url("**/game/*")
        maker.wait_for_url("**/game/*")           # told by the lobby's stream
        assert maker.url.rsplit("/", 1)[1] == taker.url.rsplit("/", 1)[1]
        maker.wait_for_selector("body[data-ready]")
        expect(maker.locator("#bar-bottom")).to_contain_text("Black · You (Masha)")
        expect(taker.locator("#status")).to_contain_text("Your move (White)")
        assert not errors, errors


def test_a_second_browser_on_a_game_against_the_computer_watches_it_live(
    browser: Any, base_url: str,
) -> None:
    """The defect this feature began with: a second browser on a game's address was told
    "Your move" and "White · You" on a game it could not touch, and its move list stayed
    empty after both sides moved."""
    with browser_pages(browser, [base_url] * 2) as (pages, errors):
        player, guest = pages
        r = player.request.post("/api/games", data={"variant": "italian",
                                                    "opponent": "computer", "side": "white"})
        gid = r.json()["id"]
        player.goto(f"/game/{gid}")
        player.wait_for_selector("body[data-ready]")
        guest.goto(f"/game/{gid}")
        guest.wait_for_selector("body[data-ready]")
        expect(guest.locator("#status")).to_have_text("You are watching · White to move")
        expect(guest.locator("#bar-bottom")).to_contain_text("White · Player")
        expect(guest.locator("#bar-top")).to_contain_text("Black · Computer level 1")
        _play_first_legal_move(player, gid)
        _moves_shown([player, guest], 2)          # the move and the computer's reply
        expect(guest.locator("#status")).to_have_text("You are watching · White to move")
        assert not errors, errors
