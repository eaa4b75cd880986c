"""Pages that list games at a phone's width (375 CSS pixels): nothing wider than the screen,
every column's content and every button on it, left to right and right to left."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.test_pdn_import_page import BROKEN, GOOD

Page = Any
WIDTH = 375


@pytest.fixture
def phone(browser: Any, base_url: str) -> Iterator[Page]:
    """A fresh browser context 375 px wide; fails on JavaScript errors."""
    context = browser.new_context(viewport={"width": WIDTH, "height": 740}, base_url=base_url)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, errors


def page_width(page: Page) -> int:
    width: int = page.evaluate("document.documentElement.scrollWidth")
    return width


def on_screen(page: Page, selector: str) -> None:
    """Every element matching ``selector`` lies within the screen's width and is not cut
    by a scrolled box around it."""
    boxes = page.locator(selector)
    assert boxes.count() > 0, selector
    for i in range(boxes.count()):
        box = boxes.nth(i).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, (selector, i, box)
    cut = page.eval_on_selector_all(selector, """els => els.filter(el => {
        for (let p = el.parentElement; p; p = p.parentElement) {
          if (p.scrollWidth > p.clientWidth + 1 && getComputedStyle(p).overflowX !== 'visible')
            return true;
        }
        return false; }).length""")
    assert cut == 0, selector


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_my_games_fit_a_phone(phone: Page, lang: str) -> None:
    for variant, move in [("international", "32-28"), ("russian", "c3-d4"),
                          ("italian", "21-17")]:
        r = phone.request.post("/api/games", data={"variant": variant, "opponent": "friend"})
        game = r.json()
        assert phone.request.post(f"/api/games/{game['id']}/moves", data={"move": move}).ok
    phone.goto(f"/games?lang={lang}")
    phone.wait_for_selector("#games tbody tr")
    assert page_width(phone) <= WIDTH
    topbar = phone.locator(".topbar").bounding_box()
    assert topbar and topbar["width"] == WIDTH
    on_screen(phone, "#games td.game-actions a[href^='/game/']")
    on_screen(phone, "#games button.delete-game")
    on_screen(phone, "#games tbody td:first-child")          # the variant's name


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_import_page_fits_a_phone_with_a_file_read(phone: Page, lang: str) -> None:
    phone.goto(f"/import?lang={lang}")
    phone.fill("#imp-text", GOOD + BROKEN)
    phone.click("#imp-read")
    phone.wait_for_selector("#imp-viewer[data-game]")
    assert page_width(phone) <= WIDTH
    on_screen(phone, "#imp-list button.imp-open")
    on_screen(phone, "#imp-list td.bad")                      # the error's line and column
    on_screen(phone, "#imp-file")
    on_screen(phone, "#imp-read")
    phone.locator("#imp-list button.imp-open").nth(1).click()    # reachable: it opens
    phone.wait_for_selector('#imp-viewer[data-game="2"]')
