"""The lobby in the browser when a challenge's creator is elsewhere at the moment it is
accepted (two Chromium contexts, own cookies): it finds the game when it comes back to the
lobby, and in its games."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import browser_pages


def test_a_creator_back_from_another_page_is_sent_to_the_game_its_challenge_became(
    browser: Any, base_url: str,
) -> None:
    with browser_pages(browser, [base_url] * 2) as (pages, errors):
        maker, taker = pages
        maker.goto("/lobby")
        maker.wait_for_selector("body[data-ready]")
        expect(maker.locator("#lobby-accepted")).to_be_hidden()
        maker.select_option("#ch-variant", "russian")
        maker.select_option("#ch-side", "black")
        maker.fill("#ch-name", "Masha")
        maker.click("#ch-open")
        expect(maker.locator("#lobby-status")).to_contain_text("waiting for someone")
        maker.goto("/rules")                       # reads the rules while waiting
        taker.goto("/lobby")
        taker.wait_for_selector("body[data-ready]")
        taker.locator("#challenge-rows tr", has_text="Masha").locator(
            "button.accept-challenge").click()
        taker.wait_for_url("**/game/*")
        gid = taker.url.rsplit("/", 1)[1]
        maker.goto("/lobby")                       # back: told from the server's state
        expect(maker.locator("#lobby-accepted")).to_be_visible()
        expect(maker.locator("#lobby-accepted-link")).to_have_attribute("href", f"/game/{gid}")
        maker.goto("/games")
        expect(maker.locator(f'[data-game-id="{gid}"]').first).to_be_visible()
        maker.goto("/lobby")
        maker.click("#lobby-accepted-link")
        maker.wait_for_url(f"**/game/{gid}")
        maker.wait_for_selector("body[data-ready]")
        expect(maker.locator("#bar-bottom")).to_contain_text("Black · You (Masha)")
        assert not errors, errors
