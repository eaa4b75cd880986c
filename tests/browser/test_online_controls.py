"""The controls of a game online, in the browser: each player is offered only what it can
do (two Chromium contexts, own cookies)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import browser_pages


def test_ask_to_take_back_is_offered_only_to_a_player_with_a_move_to_take_back(
    browser: Any, base_url: str,
) -> None:
    with browser_pages(browser, [base_url] * 2) as (pages, errors):
        white, black = pages
        white.goto("/")
        made = white.request.post("/api/games", data={
            "opponent": "online", "variant": "italian", "side": "white"}).json()
        gid = made["id"]
        white.goto(f"/game/{gid}")
        black.goto(made["invite_url"])
        for page in pages:
            page.wait_for_selector("body[data-ready]")
        white.request.post(f"/api/games/{gid}/moves", data={
            "move": made["legal_moves"][0]["move"]})
        for page in pages:
            expect(page.locator("#move-list button.move")).to_have_count(1)
        expect(white.locator("#btn-takeback")).to_be_visible()
        expect(black.locator("#btn-offer-draw")).to_be_visible()
        expect(black.locator("#btn-takeback")).to_be_hidden()     # Black has not moved
        reply = black.request.get(f"/api/games/{gid}").json()["legal_moves"][0]["move"]
        black.request.post(f"/api/games/{gid}/moves", data={"move": reply})
        expect(black.locator("#move-list button.move")).to_have_count(2)
        expect(black.locator("#btn-takeback")).to_be_visible()
        assert not errors, errors
