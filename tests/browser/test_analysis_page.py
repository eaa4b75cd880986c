"""The analysis board in a real Chromium: a position set up by clicks, a FEN pasted,
an impossible position refused, the engine's lines streamed, a variation played, a refusal
explained, a game reviewed with its planted blunder marked ``??``."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from damiera.rules.notation import move_text
from damiera.rules.variant import variant
from tests.planted import planted_game

Page = Any


@pytest.fixture(autouse=True)
def short_searches(site: Any) -> Iterator[None]:
    pool = site.state.analysis_pool
    pool.analysis_movetime, pool.review_movetime = 2.0, 0.03
    yield


def square(page: Page, label: str) -> Any:
    return page.locator(f'#board [data-square="{label}"]')


def pieces(page: Page) -> dict[str, str]:
    result: dict[str, str] = page.eval_on_selector_all(
        "#board [data-square]",
        """els => Object.fromEntries(els.filter(e => e.querySelector('[data-piece]'))
             .map(e => [e.dataset.square, e.querySelector('[data-piece]').dataset.piece]))""",
    )
    return result


def open_analysis(page: Page, query: str) -> None:
    page.goto(f"/analysis?{query}")
    page.wait_for_selector("body[data-ready]")


def test_set_up_a_position_by_clicks_and_analyse_it(page: Page) -> None:
    open_analysis(page, "variant=american")
    page.click("#ed-clear")
    assert pieces(page) == {}
    square(page, "22").click()                     # white man (the default tool)
    page.click('#palette [data-tool="black-man"]')
    square(page, "18").click()
    page.click('#palette [data-tool="black-king"]')
    square(page, "5").click()
    square(page, "5").click()                      # the same piece again: removed
    square(page, "1").click()
    assert pieces(page) == {"22": "white-man", "18": "black-man", "1": "black-king"}
    expect(page.locator("#ed-fen")).to_have_value("B:W22:BK1,18")  # Black starts in American
    page.check("#ed-turn-white")
    expect(page.locator("#ed-fen")).to_have_value("W:W22:BK1,18")
    page.click("#ed-analyse")
    expect(page.locator("#board-panel")).to_be_visible()
    assert "fen=W%3AW22%3ABK1%2C18" in page.url
    # White must capture: the man on 22 has one move, 22x15; a refused move says why.
    square(page, "22").click()
    square(page, "17").click()
    expect(page.locator("#message")).to_contain_text("capture")
    square(page, "22").click()
    square(page, "15").click()
    expect(page.locator("#tree .tree-move")).to_have_text(["22x15"])
    # the position after the move comes from the server: wait until the board shows it
    expect(square(page, "15").locator("[data-piece]")).to_have_attribute("data-piece",
                                                                        "white-man")
    assert pieces(page) == {"15": "white-man", "1": "black-king"}


def test_an_impossible_position_is_refused_with_the_core_reason(page: Page) -> None:
    open_analysis(page, "variant=american")
    page.click("#ed-clear")
    page.check("#ed-turn-white")
    square(page, "2").click()                      # a white man on White's promotion row
    page.click('#palette [data-tool="black-man"]')
    square(page, "20").click()
    page.click("#ed-analyse")
    expect(page.locator("#ed-error")).to_contain_text("White's promotion row")
    expect(page.locator("#board-panel")).to_be_hidden()


def test_paste_a_fen_then_play_a_variation_and_see_the_engine_lines(page: Page) -> None:
    open_analysis(page, "variant=italian")
    page.fill("#ed-fen", "W:W21,22,30:B9,10")
    page.click("#ed-fen-set")
    expect(page.locator("#ed-error")).to_be_hidden()
    # the position comes back from the server: wait until the board shows it (square 1,
    # a black man at the start, is empty in the pasted position)
    expect(square(page, "1").locator("[data-piece]")).to_have_count(0)
    assert pieces(page) == {"21": "white-man", "22": "white-man", "30": "white-man",
                            "9": "black-man", "10": "black-man"}
    page.click("#ed-analyse")
    page.click("#engine-toggle")
    expect(page.locator("#eval-bar")).to_be_visible()
    expect(page.locator("#engine-status")).to_contain_text(re.compile(r"depth \d+"))
    expect(page.locator("#pv-lines li")).to_have_count(1)
    expect(page.locator("#eval-text")).to_have_text(re.compile(r"^([+−]\d+\.\d\d|0\.00|.*wins.*)$"))
    page.select_option("#engine-lines", "3")
    expect(page.locator("#pv-lines li")).to_have_count(3)
    first = page.locator("#pv-lines .pv-moves").first.inner_text()
    assert re.match(r"^1\. \d+-\d+", first)
    # Play 21-17, go back, play 22-18: a variation.
    square(page, "21").click()
    square(page, "17").click()
    page.click("#nav-back")
    square(page, "22").click()
    square(page, "18").click()
    expect(page.locator("#tree .variation")).to_have_count(1)
    expect(page.locator("#tree .tree-move")).to_have_text(["21-17", "22-18"])
    expect(page.locator("#tree .tree-move.current")).to_have_text("22-18")
    page.click("#engine-toggle")                   # stop
    expect(page.locator("#eval-bar")).to_be_hidden()


def test_review_of_a_game_marks_the_planted_blunder(page: Page) -> None:
    v = variant("international")
    # From ply 12: the blunder planted there costs 2.8 men at the review's 0.3 s, far above
    # the blunder's 1.5 (the one planted from ply 8 cost 1.4 with the third-generation file).
    moves, planted = planted_game(v, 30, 12)
    texts = [move_text(v, m) for m in moves]
    r = page.request.post("/api/games", data={"opponent": "friend", "variant": "international"})
    game = r.json()
    for text in texts:
        r = page.request.post(f"/api/games/{game['id']}/moves", data={"move": text})
        assert r.status == 200, r.text()
    open_analysis(page, f"game={game['id']}")
    expect(page.locator("#tree .tree-move")).to_have_count(len(texts))
    page.click("#review-start")
    blunder = page.locator("#review-list li.blunder")
    expect(blunder.first).to_be_visible(timeout=60000)
    expect(page.locator("#review-list")).to_contain_text(f"{texts[planted]}??")
    expect(page.locator("#review-graph")).to_be_visible()
    expect(page.locator("#tree .tree-move.blunder").first).to_be_visible()
    href = page.locator("#review-pdn").get_attribute("href")
    pdn = page.request.get(href).text()
    assert f"{texts[planted]}??" in pdn.split()
    page.click("#review-next")
    expect(page.locator("#tree .tree-move.current")).to_have_text(re.compile(r"\?"))
    page.click("#nav-first")
    page.locator("#review-graph .graph-dot.blunder").first.click()   # a dot goes to its move
    expect(page.locator("#tree .tree-move.current")).to_have_text(re.compile(r"\?"))
    page.locator("#review-list li.blunder .try-best").first.click()  # the better move, played
    expect(page.locator("#tree .variation .tree-move.current")).to_have_count(1)


def test_closing_the_page_ends_its_search(page: Page, site: Any) -> None:
    pool = site.state.analysis_pool
    pool.analysis_movetime = 600.0  # the search would go on for ten minutes
    open_analysis(page, "variant=international&fen=W:W31-50:B1-20")
    page.click("#engine-toggle")
    expect(page.locator("#pv-lines li")).to_have_count(1)
    assert len(pool._busy) == 1
    square(page, "32").click()
    square(page, "28").click()                     # a new position: the old search ends
    expect(page.locator("#tree .tree-move")).to_have_text(["32-28"])
    expect(page.locator("#pv-lines li")).to_have_count(1)
    assert len(pool._busy) == 1
    page.close()
    for _ in range(300):
        if not pool._busy:
            break
        time.sleep(0.05)
    assert not pool._busy


def test_a_frisian_king_rests_on_the_analysis_board_as_in_a_game(page: Page) -> None:
    open_analysis(page, "variant=frisian")
    page.fill("#ed-fen", "W:WK46,45:B1,2")
    page.click("#ed-fen-set")
    expect(page.locator("#ed-error")).to_be_hidden()
    expect(square(page, "46").locator("[data-piece]")).to_have_count(1)
    page.click("#ed-analyse")
    # the board is redrawn from the server's answer: wait for the edited position (square 31
    # holds a man in the start position, none here) before the first click
    expect(square(page, "31").locator("[data-piece]")).to_have_count(0)
    expect(square(page, "46").locator("[data-piece]")).to_have_count(1)
    for start, end in [("46", "41"), ("1", "7"), ("41", "46"), ("7", "12"), ("46", "41"),
                       ("2", "8")]:
        square(page, start).click()
        square(page, end).click()
        expect(square(page, end).locator("[data-piece]")).to_have_count(1)
        expect(square(page, start).locator("[data-piece]")).to_have_count(0)
    # the king's fourth quiet move in a row: refused with the rule, as in a game
    square(page, "41").click()
    expect(page.locator("#message")).to_contain_text("3")
    expect(page.locator("#message")).to_contain_text("another piece must move")
    square(page, "45").click()
    square(page, "40").click()
    expect(square(page, "40").locator("[data-piece]")).to_have_count(1)


def test_a_rule_set_that_cannot_be_read_is_said_not_silently_replaced(page: Page) -> None:
    open_analysis(page, "variant=custom%3A2")
    expect(page.locator("#message")).to_contain_text("cannot be read")
    expect(page.locator("#message")).to_contain_text("International")


def test_an_unknown_game_in_the_address_says_so_over_the_start_position(page: Page) -> None:
    open_analysis(page, "variant=russian&game=nosuchgame")
    expect(page.locator("#message")).to_contain_text("There is no game with this address")
    assert pieces(page)["c3"] == "white-man"
