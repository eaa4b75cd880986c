"""Moves entered on the analysis board as on the play page (the shared capture entry,
``static/entry.js``): captures that end on the same square are chosen on the board, a capture
that ends on its own start square can be entered, and nothing is played before the clicks
reach a move's end. The position, International ``W:WK4:B10,20,22,32,33,37,39``, has a king
on 4 with ten captures: two end on 9, two on 5, two on 4 itself."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.test_analysis_page import open_analysis, pieces, square

Page = Any

KING4 = "variant=international&fen=W%3AWK4%3AB10%2C20%2C22%2C32%2C33%2C37%2C39"


def classes(page: Page, name: str) -> list[str]:
    """Labels of the board's squares with class ``name``, sorted as numbers."""
    found: list[str] = page.eval_on_selector_all(
        f"#board .sq.{name}", "els => els.map(e => e.dataset.square)")
    return sorted(found, key=int)


def tree(page: Page) -> list[str]:
    moves: list[str] = page.locator("#tree .tree-move").all_inner_texts()
    return moves


def test_two_captures_ending_on_the_same_square_are_chosen_by_a_square_of_one(
    page: Page,
) -> None:
    open_analysis(page, KING4)
    square(page, "4").click()
    assert "9" in classes(page, "end") and "5" in classes(page, "end")
    square(page, "9").click()
    expect(page.locator("#message")).to_contain_text("Several captures end on 9")
    assert tree(page) == []                                 # nothing played yet
    assert page.locator("#board polyline.choice-path").count() >= 2    # every way of each
    picks = classes(page, "target")
    assert {"38", "27", "42", "31"} <= set(picks) and "15" not in picks   # 15 is on both
    square(page, "42").click()
    expect(page.locator("#tree .tree-move")).to_have_text(["4x15x24x42x31x9"])
    expect(square(page, "9").locator("[data-piece]")).to_have_attribute("data-piece",
                                                                       "white-king")


def test_the_other_capture_ending_on_5_can_be_chosen(page: Page) -> None:
    open_analysis(page, KING4)
    square(page, "4").click()
    square(page, "5").click()
    expect(page.locator("#message")).to_contain_text("Several captures end on 5")
    assert tree(page) == []
    square(page, "48").click()                              # only on 4x31x48x25x14x5
    expect(page.locator("#tree .tree-move")).to_have_text(["4x31x48x25x14x5"])
    # back to the start and the first one, by a piece it takes (27 is on its path only)
    page.click("#nav-first")
    expect(page.locator("#board .sq.last")).to_have_count(0)
    square(page, "4").click()
    square(page, "5").click()
    square(page, "43").click()
    expect(page.locator("#tree .tree-move")).to_have_text(
        ["4x31x48x25x14x5", "4x27x43x25x14x5"])


def test_a_capture_ending_on_its_start_square_is_entered(page: Page) -> None:
    open_analysis(page, KING4)
    square(page, "4").click()
    square(page, "42").click()                              # a landing on the way
    expect(page.locator("#message")).to_contain_text("The capture goes on")
    assert pieces(page)["42"] == "white-king" and "4" not in pieces(page)
    square(page, "4").click()                               # back on 4: the capture's end
    expect(page.locator("#tree .tree-move")).to_have_text(["4x15x24x42x31x4"])
    expect(square(page, "4").locator("[data-piece]")).to_have_attribute("data-piece",
                                                                       "white-king")
    expect(page.locator("#board [data-piece]")).to_have_count(3)   # five pieces taken


def test_a_half_entered_capture_goes_back_with_escape(page: Page) -> None:
    open_analysis(page, KING4)
    before = pieces(page)
    square(page, "4").click()
    square(page, "15").click()
    assert pieces(page)["15"] == "white-king"
    page.keyboard.press("Escape")
    expect(page.locator("#board .sq.start")).to_have_count(0)
    assert pieces(page) == before and tree(page) == []


def test_both_pages_enter_moves_through_the_one_capture_entry() -> None:
    """The play page and the analysis board import their move entry from ``entry.js``;
    neither matches clicks against paths by itself."""
    from pathlib import Path

    import damiera.web

    static = Path(damiera.web.__file__).parent / "static"
    for name in ("play_input.js", "analysis.js"):
        text = (static / name).read_text(encoding="utf-8")
        assert "decide(" in text and '"/static/entry.js"' in text, name
        assert ".path[" not in text and "reachesEnd" not in text, name


# American W:WK22:B17,18,19,26,27: the king on 22 takes 17 and lands on 13 (22x13), or goes
# round 15, 24, 31, 22 and takes 17 last (22x15x24x31x22x13, by either way round): every
# square of the first is also on the second, so no square tells it apart.
AMERICAN = "variant=american&fen=W%3AWK22%3AB17%2C18%2C19%2C26%2C27"
# Russian W:WKc3:Bb4,d2,f2,g5,e5: c3:a5 takes b4; c3:f6:h4:e1:c3:a5 takes b4 last too.
RUSSIAN = "variant=russian&fen=W%3AWKc3%3ABb4%2Cd2%2Cf2%2Cg5%2Ce5"


def choices(page: Page) -> Any:
    return page.locator("#entry-choice-list button")


def choices_on_screen(page: Page) -> bool:
    """Whether the whole box of offered captures is inside the window (the board fills the
    window's height, so the box under it starts below the window's bottom)."""
    inside: bool = page.eval_on_selector("#entry-choices", """el => {
        const r = el.getBoundingClientRect();
        return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight + 1; }""")
    return inside


def test_a_capture_inside_another_with_the_same_end_is_chosen_from_the_offered_ones(
    page: Page,
) -> None:
    open_analysis(page, AMERICAN)
    expect(page.locator("#entry-choices")).to_be_hidden()
    square(page, "22").click()
    square(page, "13").click()
    expect(page.locator("#message")).to_contain_text("Several captures end on 13")
    expect(choices(page)).to_have_text(["22x13", "22x15x24x31x22x13"])
    assert choices_on_screen(page)                # brought into view when they appear
    # each drawn on the board in a style of its own (the long one by both its ways round)
    expect(page.locator("#board polyline.choice-path.choice-0")).to_have_count(1)
    expect(page.locator("#board polyline.choice-path.choice-1")).to_have_count(2)
    square(page, "17").click()                    # taken by both: nothing is decided
    assert tree(page) == []
    expect(choices(page)).to_have_count(2)
    square(page, "22").click()                    # the start: put back, never played
    expect(page.locator("#entry-choices")).to_be_hidden()
    expect(page.locator("#board .sq.start")).to_have_count(0)
    assert tree(page) == [] and pieces(page)["22"] == "white-king"
    square(page, "22").click()
    square(page, "13").click()
    choices(page).first.hover()                   # pointed at: drawn alone, emphasised
    expect(page.locator("#board polyline.choice-path")).to_have_count(1)
    expect(page.locator("#board polyline.choice-path.focused")).to_have_count(1)
    choices(page).first.click()
    expect(page.locator("#tree .tree-move")).to_have_text(["22x13"])
    expect(page.locator("#turn-status")).to_have_text("Black to move")   # the board redrawn
    assert pieces(page) == {"13": "white-king", "18": "black-man", "19": "black-man",
                            "26": "black-man", "27": "black-man"}
    expect(page.locator("#entry-choices")).to_be_hidden()
    # the long one by a square only it has
    page.click("#nav-first")
    square(page, "22").click()
    square(page, "13").click()
    square(page, "31").click()
    expect(page.locator("#tree .tree-move")).to_have_text(["22x13", "22x15x24x31x22x13"])


def test_a_short_flying_king_capture_is_chosen_with_the_keyboard(page: Page) -> None:
    open_analysis(page, RUSSIAN)
    square(page, "c3").click()
    square(page, "a5").click()
    expect(choices(page)).to_have_text(["c3:a5", "c3:f6:h4:e1:c3:a5"])
    square(page, "b4").click()                    # taken by both
    expect(choices(page)).to_have_count(2)
    square(page, "a5").click()                    # the piece where it stands: put back
    expect(page.locator("#entry-choices")).to_be_hidden()
    assert tree(page) == []
    square(page, "c3").click()
    square(page, "a5").click()
    choices(page).first.focus()
    expect(page.locator("#board polyline.choice-path.focused")).to_have_count(1)
    page.keyboard.press("Enter")
    expect(page.locator("#tree .tree-move")).to_have_text(["c3:a5"])
    expect(page.locator("#turn-status")).to_have_text("Black to move")   # the board redrawn
    assert pieces(page)["a5"] == "white-king" and "b4" not in pieces(page)


def test_a_move_typed_on_the_analysis_board_is_read_by_the_rules_core(page: Page) -> None:
    """The play page's typed move, shared: a move as written is played at once, a short form
    is read by the server, and a move that is not legal gets the rules' reason."""
    open_analysis(page, AMERICAN)
    expect(page.locator("#move-input")).to_have_attribute("placeholder", "e.g. 22x13")
    page.fill("#move-input", "22x31x24x15x22x13")  # the long capture by its other way round
    page.press("#move-input", "Enter")
    expect(page.locator("#tree .tree-move")).to_have_text(["22x15x24x31x22x13"])
    page.click("#nav-first")
    page.fill("#move-input", "22x15")              # stops half way
    page.press("#move-input", "Enter")
    expect(page.locator("#message")).to_contain_text("must go on")
    assert tree(page) == ["22x15x24x31x22x13"]
    page.fill("#move-input", "22-13")              # a capture written as a step: read
    page.press("#move-input", "Enter")
    expect(page.locator("#tree .tree-move")).to_have_text(["22x15x24x31x22x13", "22x13"])


def test_a_turkish_capture_over_a_freed_square_is_entered_on_the_analysis_board(
    page: Page,
) -> None:
    """Turkish draughts on the analysis board: every one of the 64 squares is a playing
    square, and the king's capture c7xc4xf4xf6xa6, whose last jump crosses c6 freed by its
    first, is entered by clicks."""
    open_analysis(page, "variant=turkish&fen=W%3AWKc7%3ABc6%2Ce4%2Cf5%2Cb6")
    labels = page.eval_on_selector_all("#board [data-square]",
                                       "els => els.map(e => e.dataset.square)")
    assert len(labels) == 64 and {"a1", "a2", "b1"} <= set(labels)
    for label in ("c7", "c4", "f4", "f6", "a6"):
        square(page, label).click()
    expect(page.locator("#tree .tree-move")).to_have_text(["c7xc4xf4xf6xa6"])
    # the board is drawn from the server's answer for the line, which may come after the tree
    expect(page.locator("#board [data-square='a6'] [data-piece]")).to_have_count(1)
    expect(page.locator("#board [data-piece]")).to_have_count(1)
    assert set(pieces(page)) == {"a6"}


def test_a_12x12_flying_capture_is_entered_on_the_analysis_board(page: Page) -> None:
    """Malaysian draughts on the analysis board: the 12x12 board's 72 squares, and the king's
    capture from 67 (a1, the high bits of the board word) over 39 to 23 entered by clicks."""
    open_analysis(page, "variant=malaysian&fen=W%3AWK67%3AB39")
    labels = page.eval_on_selector_all("#board [data-square]",
                                       "els => els.map(e => e.dataset.square)")
    assert sorted(labels, key=int) == [str(n) for n in range(1, 73)]
    for label in ("67", "23"):
        square(page, label).click()
    expect(page.locator("#tree .tree-move")).to_have_text(["67x23"])
    expect(page.locator("#board [data-square='23'] [data-piece]")).to_have_count(1)
    expect(page.locator("#board [data-piece]")).to_have_count(1)
