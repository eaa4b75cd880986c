"""A rematch of a game online, in the browser: both players' pages (and their other tabs)
go to the new game, whoever's click made it, and its clock waits for both players' first
moves (nobody loses time to a page still on its way)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import WAIT_MS, browser_pages

Page = Any


def _over_online_game(pages: list[Page]) -> str:
    """A 1+0 Italian game between ``pages[0]`` (White, creator) and ``pages[1]`` (Black, by
    the invitation link), resigned by White; every page shows its result."""
    white, black = pages[0], pages[1]
    white.goto("/")
    made = white.request.post("/api/games", data={
        "opponent": "online", "variant": "italian", "side": "white", "clock": "1+0"}).json()
    gid = made["id"]
    white.goto(f"/game/{gid}")
    black.goto(made["invite_url"])
    for page in pages[2:]:
        page.goto(f"/game/{gid}")
    for page in pages:
        page.wait_for_selector("body[data-ready]")
    white.request.post(f"/api/games/{gid}/resign", data={})
    for page in pages:
        expect(page.locator("#result-text")).to_have_text("Black wins: White resigned")
    return str(gid)


@pytest.mark.parametrize("black_clicks", ["#rematch-accept", "#btn-rematch"])
def test_both_players_and_their_other_tabs_go_to_the_rematch(
    browser: Any, base_url: str, black_clicks: str,
) -> None:
    """White offers; Black accepts, with the offer's Accept or its own Rematch button (two
    offers crossing: Black's accepts White's). Black's own answer already names the new
    game: its page must go there too, not only White's."""
    with browser_pages(browser, [base_url] * 2) as (pages, errors):
        white, black = pages
        white_tab = white.context.new_page()    # waits and fails like the others
        white_tab.set_default_timeout(WAIT_MS)
        white_tab.on("pageerror", lambda e: errors.append(str(e)))
        gid = _over_online_game([white, black, white_tab])
        white.click("#btn-rematch")
        expect(black.locator("#live-offers")).to_contain_text("wants a rematch")
        black.click(black_clicks)
        for page in (white, black, white_tab):
            page.wait_for_url(lambda url: "/game/" in url and not url.endswith(gid))
            page.wait_for_selector("body[data-ready]")
        new = white.url.rsplit("/", 1)[1]
        assert black.url.endswith(new) and white_tab.url.endswith(new)
        expect(black.locator("#bar-bottom")).to_contain_text("White · You")
        expect(white.locator("#bar-bottom")).to_contain_text("Black · You")
        game = black.request.get(f"/api/games/{new}").json()
        assert game["clock"]["running"] is None          # it waits for both first moves
        assert game["clock"]["white_ms"] == game["clock"]["black_ms"] == 60_000
        white.reload()                                    # the page of the old game again
        white.goto(f"/game/{gid}")
        white.wait_for_selector("body[data-ready]")
        assert white.url.endswith(gid)                    # opened on purpose: it stays
        expect(white.locator("#rematch-link")).to_have_attribute("href", f"/game/{new}")
        expect(white.locator("#btn-rematch")).to_be_hidden()
        assert not errors, errors
