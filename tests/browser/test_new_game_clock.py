"""The new-game form's custom clock: fields left empty or out of bounds are named in the
page's language before anything is sent, never answered with the API's text about a clock
the player never typed (such as '+0')."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from damiera.web import i18n

Page = Any

SENTENCE = ("Custom time control: enter whole minutes from 1 to 180 and seconds added per "
            "move from 0 to 60.")


def open_custom_clock(page: Page, lang: str) -> None:
    page.goto(f"/?lang={lang}")
    page.wait_for_selector("body[data-ready]")
    if page.locator("#menu").is_hidden():     # the home page opens with the menu shown
        page.click("#menu-button")
    page.select_option("#ng-opponent", "friend")
    page.select_option("#ng-clock", "custom")
    expect(page.locator("#ng-clock-custom")).to_be_visible()


@pytest.mark.parametrize("lang", ["en", "it", "ar"])
def test_empty_minutes_are_asked_for_in_the_pages_language(page: Page, lang: str) -> None:
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if "/api/games" in r.url else None)
    open_custom_clock(page, lang)
    page.fill("#ng-clock-minutes", "")
    page.click("#ng-start")
    error = page.locator("#ng-error")
    expect(error).to_be_visible()
    expect(error).to_have_text(i18n.translations(lang).ugettext(SENTENCE))
    assert "+0" not in error.inner_text() and "'" not in error.inner_text()
    assert page.locator("#ng-clock-minutes").get_attribute("aria-invalid") == "true"
    assert page.evaluate("document.activeElement.id") == "ng-clock-minutes"
    assert sent == []                                   # nothing was sent
    # filled in, the game starts with that clock
    page.fill("#ng-clock-minutes", "4")
    page.fill("#ng-clock-increment", "")                # no increment: 0
    with page.expect_request("**/api/games?*") as made:
        page.click("#ng-start")
    assert made.value.post_data_json["clock"] == "4+0"
    page.wait_for_url("**/game/*")


def test_out_of_bounds_increment_is_refused_before_anything_is_sent(page: Page) -> None:
    """61 seconds a move: the browser's own check of the field (max 60) or the page's
    sentence stops it; the API's refusal never shows."""
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if "/api/games" in r.url else None)
    open_custom_clock(page, "en")
    page.fill("#ng-clock-minutes", "5")
    page.fill("#ng-clock-increment", "61")
    page.click("#ng-start")
    assert page.locator("#ng-clock-increment").evaluate("el => !el.checkValidity()")
    page.wait_for_timeout(200)          # give a wrongly sent request the time to start
    assert sent == []
    error = page.locator("#ng-error")
    assert error.is_hidden() or error.inner_text() == SENTENCE
