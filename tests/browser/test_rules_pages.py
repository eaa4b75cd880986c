"""The rules pages in a real Chromium: every page in every language renders
its diagrams with the play page's board and without console errors; the Arabic page is
right-to-left with left-to-right boards; "Try it" opens the diagram's position on the play
board; the ☰ menu and the language switcher lead to the rules."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from damiera.rules.geometry import geometry
from damiera.rules.position import parse_fen
from damiera.rules.variant import variant
from damiera.web import i18n
from damiera.web.rules_pages.content import page_ids
from damiera.web.rules_pages.diagrams import DIAGRAMS
from tests.browser.conftest import WAIT_MS

Page = Any


def test_every_rules_page_renders_in_every_language(browser: Any, base_url: str) -> None:
    """One tab visits the index and all pages in all eight languages (72 pages)."""
    context = browser.new_context(viewport={"width": 1100, "height": 800}, base_url=base_url)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"{page.url}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"{page.url}: {e}"))
    page.set_default_timeout(WAIT_MS)
    languages = i18n.available_locales()
    assert len(languages) == 8
    for lang in languages:
        page.goto(f"/{lang}/rules")
        assert page.locator(".rules-card").count() == len(page_ids())
        for page_id in page_ids():
            page.goto(f"/{lang}/rules/{page_id}")
            html = page.locator("html")
            assert html.get_attribute("lang") == lang.replace("_", "-")  # pt-BR
            assert html.get_attribute("dir") == ("rtl" if lang == "ar" else "ltr")
            expected = len(DIAGRAMS[page_id])
            page.wait_for_function(
                "n => document.querySelectorAll('figure.diagram svg g[data-square]').length > 0"
                " && [...document.querySelectorAll('figure.diagram svg')]"
                ".every(s => s.querySelector('[data-square]'))",
                arg=expected,
            )
            assert page.locator("figure.diagram").count() == expected
            assert page.locator("h1").inner_text().strip()
            assert page.locator(".rules-table tbody tr").count() >= 1
    context.close()
    assert problems == []


def test_arabic_page_is_right_to_left_with_readable_boards(page: Page) -> None:
    page.goto("/ar/rules/czech")
    assert page.locator("html").get_attribute("dir") == "rtl"
    assert page.evaluate("getComputedStyle(document.body).direction") == "rtl"
    board = page.locator("figure.diagram svg").first
    expect(board.locator("[data-square]")).to_have_count(32)
    assert board.evaluate("e => getComputedStyle(e).direction") == "ltr"
    # square a1 is drawn at the left edge even though the page runs right to left
    a1 = board.locator('[data-square="a1"] rect').bounding_box()
    h2 = board.locator('[data-square="h2"] rect').bounding_box()
    assert a1 is not None and h2 is not None and a1["x"] < h2["x"]
    # move notation stays left to right inside the Arabic captions
    notation = page.locator("figcaption bdi.notation").first
    assert notation.get_attribute("dir") == "ltr"
    assert notation.evaluate("e => getComputedStyle(e).direction") == "ltr"


def test_try_it_opens_the_position_on_the_play_board(page: Page) -> None:
    page.goto("/en/rules/italian")
    figure = page.locator("#diagram-italian-most-pieces")
    # the diagram marks the shown move: start, landing squares, captured pieces
    expect(figure.locator('[data-square="21"].start')).to_have_count(1)
    expect(figure.locator(".sq.target")).to_have_count(2)
    expect(figure.locator(".piece.captured")).to_have_count(2)
    figure.locator("button.try-it").click()
    page.wait_for_url("**/game/*")
    page.wait_for_selector("body[data-ready]")
    pieces = page.eval_on_selector_all(
        "#board [data-square]",
        """els => Object.fromEntries(els.filter(e => e.querySelector('[data-piece]'))
             .map(e => [e.dataset.square, e.querySelector('[data-piece]').dataset.piece]))""",
    )
    diagram = next(d for d in DIAGRAMS["italian"] if d.id == "italian-most-pieces")
    v = variant("italian")
    pos = parse_fen(v, diagram.fen)
    geo = geometry(v)
    expected = {}
    for s in geo.squares:
        piece = pos.piece_at(s)
        if piece:
            color, king = piece
            expected[geo.label(s)] = f"{color.word}-{'king' if king else 'man'}"
    assert pieces == expected
    game = page.request.get(f"/api/games/{page.url.rsplit('/', 1)[1]}").json()
    assert [m["move"] for m in game["legal_moves"]] == ["21x14x5"]


def test_menu_and_language_switcher_reach_the_rules(page: Page) -> None:
    page.goto("/games")
    page.locator("#menu-button").click()
    page.locator("#menu-rules a").first.click()
    page.wait_for_url("**/en/rules")
    page.locator(".rules-card a", has_text="Czech").click()
    page.wait_for_url("**/en/rules/czech")
    page.locator('.rules-languages a[hreflang="sk"]').click()
    page.wait_for_url("**/sk/rules/czech")
    assert page.locator("h1").inner_text() == "Česká dáma"
    # the ☰ menu's language list keeps the rules page too
    page.locator("#menu-button").click()
    page.locator('#menu-languages a[hreflang="ru"]').click()
    page.wait_for_url("**/ru/rules/czech")
    assert page.locator("h1").inner_text() == "Чешские шашки"


def test_play_this_variant_opens_the_new_game_menu(page: Page) -> None:
    page.goto("/es/rules/spanish")
    page.locator("button.play-variant").click()
    expect(page.locator("#menu")).to_be_visible()
    assert page.locator("#ng-variant").input_value() == "spanish"


def test_rules_page_fits_a_phone_screen(browser: Any, base_url: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=base_url,
                                  is_mobile=True, has_touch=True)
    pg = context.new_page()
    pg.goto("/ar/rules/czech")
    pg.wait_for_selector("figure.diagram svg [data-square]")
    width = pg.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    box = pg.locator("figure.diagram svg").first.bounding_box()
    assert box is not None and box["width"] > 250
    pg.screenshot(path="/tmp/shots/ar-rules-czech-phone.png")
    context.close()
