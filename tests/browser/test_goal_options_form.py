"""The new-game form's goal options: the two boxes exclude each other, and the game started
with one plays that goal (its page title names it, its JSON says it)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import expect

Page = Any


def test_new_game_form_starts_a_breakthrough_game(page: Page) -> None:
    page.goto("/?lang=en")
    page.wait_for_selector("body[data-ready]")
    if page.locator("#menu").is_hidden():     # the home page opens with the menu shown
        page.click("#menu-button")
    page.select_option("#ng-variant", "russian")
    page.select_option("#ng-opponent", "friend")
    page.check("#ng-losing")
    page.check("#ng-breakthrough")
    expect(page.locator("#ng-losing")).not_to_be_checked()   # one goal at a time
    page.click("#ng-start")
    page.wait_for_url("**/game/*")
    expect(page).to_have_title("Russian draughts (breakthrough) · Damiera")
    # the page navigated away from the POST's answer: ask the API for the game it opened
    game_id = urlsplit(page.url).path.rsplit("/", 1)[1]
    game = page.request.get(f"/api/games/{game_id}").json()
    assert (game["full_id"], game["breakthrough"], game["losing"]) == (
        "russian+breakthrough", True, False)
