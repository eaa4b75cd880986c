"""The PDN import page in the reader's language: its title, headings, script messages and
variant names translated in every language, and in Arabic (right to left) PDN text, move
numbers, results and counts that still read left to right."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from damiera.web import i18n
from tests.browser.test_pdn_import_page import BROKEN, GOOD

Page = Any


def translated(code: str, msgid: str) -> str:
    """``msgid`` in language ``code`` as the site's catalogs have it."""
    return i18n.translations(code).ugettext(msgid)


@pytest.mark.parametrize("code", ["it", "cs", "sk", "ru", "pt_BR", "es", "ar"])
def test_the_page_and_its_script_speak_the_chosen_language(page: Page, code: str) -> None:
    empty = translated(code, "Paste PDN text or choose a file first.")
    assert empty != "Paste PDN text or choose a file first."    # so the test can fail
    title = translated(code, "Import PDN")          # the same words in Czech and Slovak
    page.goto(f"/import?lang={code}")
    expect(page.locator("h1")).to_have_text(title)
    assert page.title().startswith(title)
    page.click("#imp-read")                        # nothing pasted: the script's own message
    expect(page.locator("#imp-error")).to_have_text(empty)
    page.fill("#imp-text", GOOD)
    page.click("#imp-read")
    row = page.locator("#imp-list tbody tr").first
    expect(row).to_contain_text(translated(code, "International draughts"))
    expect(row.locator("button.imp-open")).to_have_text(translated(code, "Open"))


def test_arabic_page_keeps_pdn_moves_and_numbers_left_to_right(page: Page) -> None:
    page.goto("/import?lang=ar")
    assert page.locator("html").get_attribute("dir") == "rtl"
    text = page.locator("#imp-text")
    assert text.evaluate("el => getComputedStyle(el).direction") == "ltr"
    page.fill("#imp-text", GOOD + BROKEN)
    page.click("#imp-read")
    status = page.locator("#imp-status")
    expected = translated("ar", "{n} games read, {bad} with errors.").format(n=2, bad=1)
    expect(status).to_have_text(expected)
    # each number is isolated left to right; no digit is left in the right-to-left text
    assert status.locator("bdi").all_inner_texts() == ["2", "1"]
    outside = status.evaluate("""el => [...el.childNodes].filter(n => n.nodeType === 3)
        .map(n => n.textContent).join('')""")
    assert not re.search(r"\d", outside)
    expect(page.locator("#imp-viewer")).to_have_attribute("data-game", "1")
    # the move list reads "1. 32-28 19-23", never ".1" (its number's full stop on the left)
    first = page.locator("#imp-moves li").first
    assert first.evaluate("el => getComputedStyle(el).direction") == "ltr"
    number = first.locator(".num").bounding_box()
    move = first.locator("button").first.bounding_box()
    assert number and move and number["x"] < move["x"]
    assert page.locator("#imp-moves .num").first.inner_text() == "1."
    # the error's line and column, the title's result: left to right too
    error = page.locator("#imp-list tbody tr").nth(1).locator("td.bad")
    assert {"15", "25"} <= set(error.locator("bdi").all_inner_texts())
    title = page.locator("#imp-title")
    assert title.locator("bdi").all_inner_texts() == ["1.", "2-0"]
