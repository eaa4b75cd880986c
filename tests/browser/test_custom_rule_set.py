"""A custom rule set made in one browser and played in another: the form's live refusal
(the reason from the server), the shareable address, its rules page with the core-checked
diagrams drawn, and a game against the computer from that page in a second context."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from damiera.web.custom.example import example_body
from tests.browser.conftest import browser_pages
from tests.browser.test_play_page import board_pieces, moves_listed, square, wait_idle

Page = Any


def _choose(page: Page, field: str, value: object) -> None:
    page.select_option(f'select[data-field="{field}"]', json.dumps(value))


def test_a_custom_rule_set_made_in_one_browser_is_played_in_another(
        browser: Any, base_url: str) -> None:
    with browser_pages(browser, [base_url, base_url]) as (pages, errors):
        maker, friend = pages
        maker.goto("/custom")
        page_ready = maker.locator("#custom-create")
        expect(page_ready).to_be_enabled()
        maker.fill("#custom-name", "Club rules")
        _choose(maker, "men_capture_backward", True)
        _choose(maker, "king_lands_behind", True)   # kings do not fly yet: refused
        expect(maker.locator("#custom-error")).to_contain_text("only when kings fly")
        expect(page_ready).to_be_disabled()
        _choose(maker, "flying_kings", True)
        expect(maker.locator("#custom-error")).to_be_hidden()
        _choose(maker, "capture_choice", "majority")
        page_ready.click()
        maker.wait_for_url("**/custom/1*")
        address = maker.locator("#custom-address").input_value()
        assert address.startswith(base_url + "/custom/1") and "Club%20rules" in address

        friend.goto(address.removeprefix(base_url))
        expect(friend.locator("h1")).to_have_text("Club rules")
        # every diagram is drawn, the land-behind rule's among them
        expect(friend.locator("#diagram-custom-land-behind svg [data-piece]")).not_to_have_count(0)
        drawn = friend.eval_on_selector_all("figure.diagram svg",
                                            "els => els.filter(e => e.childElementCount).length")
        assert drawn == friend.locator("figure.diagram").count() >= 6
        friend.locator("button.custom-play", has_text="Play the computer").click()
        expect(friend.locator("#menu")).to_be_visible()
        custom_id = friend.eval_on_selector("#ng-variant", "s => s.value")
        assert custom_id.startswith("custom:1") and custom_id.endswith(":Club rules")
        friend.select_option("#ng-opponent", "computer:1")
        friend.click("#ng-start")
        friend.wait_for_url("**/game/*")
        friend.wait_for_selector("body[data-ready]")
        wait_idle(friend)
        assert board_pieces(friend)["22"] == "white-man"
        square(friend, "22").click()
        square(friend, "18").click()
        expect(friend.locator("#move-list button.move")).to_have_count(2)  # and the reply
        assert moves_listed(friend)[0] == "22-18"
        game_id = friend.url.rsplit("/", 1)[1]
        game = friend.request.get(f"/api/games/{game_id}").json()
        assert game["full_id"] == custom_id and game["variant"] == custom_id
        assert not errors, errors


def test_the_page_tools_screenshot_shows_is_drawn(browser: Any, base_url: str,
                                                 tmp_path: Path) -> None:
    """The page tools/screenshots_rule_sets.py takes as docs/screenshots/custom_rule_set.png
    (the example rule set both make: Russian men and kings on 10x10, majority, breakthrough),
    shot into a temporary file here so that a test run leaves the committed picture alone."""
    with browser_pages(browser, [base_url]) as (pages, errors):
        page = pages[0]
        url = page.request.post("/api/custom", data=example_body()).json()["url"]
        page.goto(url + "?lang=en")
        expect(page.locator("figure.diagram svg [data-piece]").first).to_be_visible()
        expect(page.locator("#diagram-custom-breakthrough")).to_be_visible()
        page.screenshot(path=str(tmp_path / "custom.png"))
        assert (tmp_path / "custom.png").stat().st_size > 10_000
        assert not errors, errors


def test_the_form_says_when_the_rules_are_a_named_rule_sets(browser: Any, base_url: str) -> None:
    with browser_pages(browser, [base_url]) as (pages, errors):
        page = pages[0]
        page.goto("/custom?lang=en")
        expect(page.locator("#custom-create")).to_be_enabled()
        same = page.locator("#custom-same")
        expect(same).to_be_hidden()
        _choose(page, "first_to_move", "B")     # the defaults with Black first: American
        expect(same).to_have_text("These are the rules of American checkers.")
        expect(same.locator("a")).to_have_attribute("href", "/en/rules/american")
        _choose(page, "breakthrough", True)
        expect(same).to_have_text("These are the rules of American checkers (breakthrough).")
        _choose(page, "men_capture_kings", False)   # changes nothing under breakthrough
        expect(page.locator("#custom-error")).to_contain_text("changes nothing")
        expect(same).to_be_hidden()
        assert not errors, errors


def test_a_rule_set_where_every_square_plays_is_drawn_on_its_64_squares(
        browser: Any, base_url: str) -> None:
    rules = {"all_squares": True, "man_rows": 2, "back_rows_empty": 1, "board": "algebraic",
             "flying_kings": True, "capture_choice": "majority"}
    with browser_pages(browser, [base_url]) as (pages, errors):
        page = pages[0]
        url = page.request.post("/api/custom", data={"rules": rules, "name": "Dama"}).json()["url"]
        page.goto(url + "?lang=en")
        for diagram in ("custom-start", "custom-man-straight", "custom-king-straight"):
            figure = page.locator(f"#diagram-{diagram}")
            expect(figure.locator("svg [data-piece]").first).to_be_visible()
            expect(figure.locator("svg [data-square]")).to_have_count(64)
        assert not errors, errors
