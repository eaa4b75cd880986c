"""The play page in a real Chromium for the rule sets of docs/rules.md: a Thai game from its
two-row start, moves and captures entered by clicks."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.test_play_page import (
    api_game,
    board_pieces,
    moves_listed,
    open_game,
    square,
    wait_idle,
)

Page = Any


def test_thai_game_by_clicking_with_captures_on_both_sides(page: Page) -> None:
    """Thai draughts on the play page: Black starts from two rows (White on 1-8), moves and
    a capture entered by clicks, and White's compulsory recapture, the captured pieces gone."""
    game = api_game(page, variant="thai")
    open_game(page, game["id"])
    pieces = board_pieces(page)
    assert sorted(pieces, key=int) == [str(n) for n in (*range(1, 9), *range(25, 33))]
    assert all(pieces[str(n)] == "white-man" for n in range(1, 9))
    for move in ("25-21", "6-10", "21-17", "10-14"):
        start, end = move.split("-")
        square(page, start).click()
        square(page, end).click()
        wait_idle(page)
    square(page, "17").click()
    square(page, "10").click()                 # 17x10: the white man on 14 is taken
    wait_idle(page)
    expect(page.locator("#move-list button.move")).to_have_count(5)
    assert moves_listed(page)[-1] == "17x10"
    assert "14" not in board_pieces(page)
    square(page, "7").click()
    square(page, "14").click()                 # 7x14 takes the black man back
    wait_idle(page)
    assert moves_listed(page)[-1] == "7x14"
    pieces = board_pieces(page)
    assert "10" not in pieces and pieces["14"] == "white-man"


def test_frisian_capture_along_a_row_by_clicking(page: Page) -> None:
    """Frisian draughts on the play page: after 31-26 16-21 32-27 21x32, White takes the man
    on 32 along its row (33x31), entered by clicks like any capture."""
    game = api_game(page, variant="frisian")
    open_game(page, game["id"])
    assert len(board_pieces(page)) == 40
    for move in ("31-26", "16-21", "32-27", "21-32"):
        start, end = move.split("-")
        square(page, start).click()
        square(page, end).click()
        wait_idle(page)
    assert moves_listed(page)[-1] == "21x32"
    square(page, "33").click()
    square(page, "31").click()                 # along row 31-35, over 32
    wait_idle(page)
    assert moves_listed(page)[-1] == "33x31"
    pieces = board_pieces(page)
    assert "32" not in pieces and "33" not in pieces and pieces["31"] == "white-man"


def test_turkish_board_plays_every_square_by_clicking(page: Page) -> None:
    """Turkish draughts on the play page: all 64 squares are playing squares (data-square on
    each, a2 and b1 among them), men step straight ahead, and after d3-d4 d6-d5 White's
    compulsory capture d4xd6xd8 is entered by clicks and crowns the man on the far row."""
    game = api_game(page, variant="turkish")
    open_game(page, game["id"])
    labels = page.eval_on_selector_all("#board [data-square]",
                                       "els => els.map(e => e.dataset.square)")
    assert len(labels) == 64 and {"a1", "a2", "b1", "h8"} <= set(labels)
    assert len(board_pieces(page)) == 32
    for move in ("d3-d4", "d6-d5"):
        start, end = move.split("-")
        square(page, start).click()
        square(page, end).click()
        wait_idle(page)
    for label in ("d4", "d6", "d8"):
        square(page, label).click()
    wait_idle(page)
    assert moves_listed(page)[-1] == "d4xd6xd8"
    pieces = board_pieces(page)
    assert pieces["d8"] == "white-king" and "d5" not in pieces and "d7" not in pieces


def test_canadian_12x12_board_plays_by_clicking(page: Page) -> None:
    """Canadian draughts on the play page: the 12x12 board's 72 playing squares (data-square
    1-72), 30 men each, and after 46-40 27-34 White's compulsory capture 40x27 entered by
    clicks."""
    game = api_game(page, variant="canadian")
    open_game(page, game["id"])
    labels = page.eval_on_selector_all("#board [data-square]",
                                       "els => els.map(e => e.dataset.square)")
    assert sorted(labels, key=int) == [str(n) for n in range(1, 73)]
    pieces = board_pieces(page)
    assert len(pieces) == 60 and pieces["72"] == "white-man" and pieces["1"] == "black-man"
    for move in ("46-40", "27-34"):
        start, end = move.split("-")
        square(page, start).click()
        square(page, end).click()
        wait_idle(page)
    square(page, "40").click()
    square(page, "27").click()
    wait_idle(page)
    assert moves_listed(page)[-2:] == ["27-34", "40x27"]
    pieces = board_pieces(page)
    assert "34" not in pieces and pieces["27"] == "white-man"
