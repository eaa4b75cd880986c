"""The custom rule set's form and the rules pages' comparison table at a phone's width
(375 CSS pixels): nothing wider than the screen, in languages with long words and right to
left."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.test_narrow_layout import WIDTH, Page, on_screen, page_width, phone

__all__ = ["phone"]


@pytest.mark.parametrize("lang", ["en", "ru", "ar"])
def test_the_custom_form_fits_a_phone(phone: Page, lang: str) -> None:
    phone.goto(f"/custom?lang={lang}")
    phone.wait_for_selector("#custom-create")
    assert page_width(phone) <= WIDTH
    on_screen(phone, "#custom-form select")
    on_screen(phone, "#custom-create")


@pytest.mark.parametrize("page", ["/ru/rules/frisian", "/ru/rules/international",
                                  "/ar/rules/frisian"])
def test_the_differences_table_does_not_widen_the_page(phone: Page, page: str) -> None:
    phone.goto(page)
    phone.wait_for_selector("#differences table")
    assert page_width(phone) <= WIDTH
    box: Any = phone.locator("#differences .table-scroll").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= WIDTH


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_long_name_without_spaces_wraps_on_its_page(phone: Page, lang: str) -> None:
    r = phone.request.post("/api/custom", data={"rules": {}, "name": "W" * 32})
    assert r.ok, r.text()
    phone.goto(f"{r.json()['url']}?lang={lang}")
    phone.wait_for_selector("h1")
    assert page_width(phone) <= WIDTH
