"""The rules trainer and the puzzles in a real browser: a session of ten exercises with one
wrong answer showing the rule's reason (Italian rules on the Italian page, Czech rules on
the Arabic page), a puzzle solved and one failed with the rating moved, and both pages at a
phone's width."""

from __future__ import annotations

from typing import Any

import pytest

from damiera.puzzles import library
from damiera.puzzles.model import Puzzle
from damiera.rules.geometry import geometry
from damiera.rules.movegen import Move, apply_move, legal_moves
from damiera.rules.notation import move_text, parse_move
from damiera.rules.position import parse_fen
from damiera.rules.variant import variant
from damiera.trainer.exercises import Exercise
from damiera.trainer.pool import find
from tests.browser.test_narrow_layout import phone  # noqa: F401 (a fixture)

Page = Any
PHONE = 375


def click_square(page: Page, label: str) -> None:
    page.locator(f'#board [data-square="{label}"]').click()


def play_path(page: Page, path: list[str]) -> None:
    """Enter a move square by square: the piece, then every landing."""
    for label in path:
        click_square(page, label)


def enter_move(page: Page, v: Any, move: Move, others: list[Move]) -> None:
    """Enter ``move`` by its squares; where one of ``others`` goes on past its end, choose
    it among the captures offered under the board (clicking the end again puts it back)."""
    play_path(page, [geometry(v).label(s) for s in move.path])
    if any(m.path[:len(move.path)] == move.path and len(m.path) > len(move.path)
           for m in others):
        page.locator(f'#entry-choice-list button[data-move="{move_text(v, move)}"]').click()


def _answer(page: Page, v: Any, e: Exercise, wrong: bool) -> bool:
    """Answer exercise ``e`` on the page, rightly or (if ``wrong`` and it can be done with a
    refusal to show) wrongly; returns True when it answered wrongly."""
    geo = geometry(v)
    truth = e.answer()
    if e.kind in ("capture", "promotion"):
        keys = truth
        moves = e.candidates()
        bad = [m for m in moves if (m.start, m.end, m.captured) not in keys]  # type: ignore[operator]
        good = [m for m in moves if (m.start, m.end, m.captured) in keys]  # type: ignore[operator]
        move = bad[0] if wrong and bad else good[0]
        enter_move(page, v, move, moves)
        return move in bad
    if e.kind == "destinations":
        for s in sorted(truth):  # type: ignore[call-overload]
            click_square(page, geo.label(s))
        page.locator("#tr-check").click()
        return False
    if e.kind == "legal":
        say = (not truth) if (wrong and not truth) else bool(truth)
        page.locator("#tr-btn-legal" if say else "#tr-btn-illegal").click()
        return say != truth
    page.locator({"white": "#tr-btn-white", "black": "#tr-btn-black",
                  "none": "#tr-btn-none"}[str(truth)]).click()
    return False


def run_session(page: Page, vid: str, lang: str) -> str:
    """Play a session of ten with one wrong answer; returns the reason shown for it."""
    from playwright.sync_api import expect

    v = variant(vid)
    page.goto(f"/train?variant={vid}&lang={lang}")
    root = page.locator("#train")
    reason = ""
    for n in range(10):
        expect(root).to_have_attribute("data-state", "question")
        exercise = find(v, root.get_attribute("data-exercise"))
        went_wrong = _answer(page, v, exercise, wrong=not reason)
        try:
            expect(root).to_have_attribute("data-state", "answered")
        except AssertionError:
            raise AssertionError(f"{exercise.id} was not answered") from None
        feedback = page.locator("#tr-feedback")
        expect(feedback).to_have_attribute("data-correct", "false" if went_wrong else "true")
        expect(page.locator("#tr-hint")).to_have_text("")   # no capture prompt left over
        if went_wrong:
            reason = page.locator("#tr-reason").inner_text()
            assert reason.strip()
            assert page.locator("#tr-rule-text").inner_text().strip()
        page.locator("#tr-next").click()
        if n < 9:
            expect(root).not_to_have_attribute("data-exercise", exercise.id)
    expect(root).to_have_attribute("data-state", "done")
    assert reason, "no exercise of the session could be answered wrongly with a reason"
    assert "9" in page.locator("#tr-score").inner_text()
    assert page.locator("#tr-missed li").count() == 1
    return reason


def test_an_italian_session_on_the_italian_page(page: Page) -> None:
    reason = run_session(page, "italian", "it")
    assert page.locator("html").get_attribute("lang") == "it"
    assert any(word in reason for word in ("presa", "pedina", "dama", "mossa", "pezz",
                                           "non", "muov"))


def test_a_czech_session_on_the_arabic_page(page: Page) -> None:
    reason = run_session(page, "czech", "ar")
    assert page.locator("html").get_attribute("dir") == "rtl"
    assert any("\u0600" <= ch <= "\u06ff" for ch in reason)   # the reason in Arabic


def _solve(page: Page, p: Puzzle) -> None:
    from playwright.sync_api import expect

    v = variant(p.variant)
    position = parse_fen(v, p.fen)
    for i in range(0, len(p.solution), 2):
        move = parse_move(v, position, p.solution[i])
        with page.expect_response(lambda r: "/moves" in r.url):
            enter_move(page, v, move, legal_moves(v, position))
        position = apply_move(position, move)
        if i + 1 < len(p.solution):
            position = apply_move(position, parse_move(v, position, p.solution[i + 1]))
    expect(page.locator("#puzzle")).to_have_attribute("data-state", "solved")


def _fail(page: Page, p: Puzzle) -> None:
    from playwright.sync_api import expect

    v = variant(p.variant)
    position = parse_fen(v, p.fen)
    right = parse_move(v, position, p.solution[0])
    wrong = next(m for m in legal_moves(v, position)
                 if (m.start, m.end, m.captured) != (right.start, right.end, right.captured)
                 and legal_moves(v, apply_move(position, m)))
    enter_move(page, v, wrong, legal_moves(v, position))
    expect(page.locator("#puzzle")).to_have_attribute("data-state", "failed")


def test_a_puzzle_solved_and_one_failed_move_the_rating(page: Page) -> None:
    from playwright.sync_api import expect

    page.goto("/puzzles?variant=russian")
    root = page.locator("#puzzle")
    expect(root).to_have_attribute("data-state", "solving")
    assert "1500" in page.locator("#pz-player").inner_text()
    first = library.find(root.get_attribute("data-puzzle"))
    assert first is not None
    _solve(page, first)
    after_solve = page.locator("#pz-player").inner_text()
    assert "+" in after_solve and "1500" not in after_solve.split("(")[0]
    assert page.locator("#pz-solution").is_visible()
    page.locator("#pz-next").click()
    expect(root).to_have_attribute("data-state", "solving")
    expect(root).not_to_have_attribute("data-puzzle", first.id)
    second = library.find(root.get_attribute("data-puzzle"))
    assert second is not None
    _fail(page, second)
    after_fail = page.locator("#pz-player").inner_text()
    assert "−" in after_fail
    assert _rating(after_fail) < _rating(after_solve)


def _rating(text: str) -> int:
    """The rating in "Your rating: 1523 (+23)"."""
    return int(text.split(":")[1].split("(")[0])


@pytest.mark.parametrize("path", ["/train?variant=brazilian&lang=ar",
                                  "/puzzles?variant=international&lang=pt_BR"])
def test_the_pages_fit_a_phone(phone: Page, path: str) -> None:  # noqa: F811
    from playwright.sync_api import expect

    phone.goto(path)
    root = phone.locator("#train, #puzzle")
    expect(root).to_have_attribute("data-state", "question" if "train" in path else "solving")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE
    board = phone.locator("#board").bounding_box()
    assert board and board["x"] >= 0 and board["x"] + board["width"] <= PHONE
    assert board["width"] >= PHONE * 0.8


def test_a_puzzle_is_played_from_the_keyboard(page: Page) -> None:
    from playwright.sync_api import expect

    page.goto("/puzzles?variant=czech")
    root = page.locator("#puzzle")
    expect(root).to_have_attribute("data-state", "solving")
    p = library.find(root.get_attribute("data-puzzle") or "")
    assert p is not None
    v = variant(p.variant)
    geo = geometry(v)
    move = parse_move(v, parse_fen(v, p.fen), p.solution[0])
    start = page.locator(f'#board [data-square="{geo.label(move.start)}"]')
    start.focus()
    x, y = int(start.get_attribute("data-x") or 0), int(start.get_attribute("data-y") or 0)
    page.keyboard.press("Enter")                      # the piece is chosen; focus stays on it
    assert page.evaluate("document.activeElement.dataset.square") == geo.label(move.start)
    page.keyboard.press("ArrowRight" if x < 6 else "ArrowLeft")   # one square along the row
    moved = page.evaluate("[document.activeElement.dataset.x, document.activeElement.dataset.y]")
    assert moved == [str(x + 2 if x < 6 else x - 2), str(y)]
    with page.expect_response(lambda r: "/moves" in r.url):
        for square in move.path[1:]:
            page.locator(f'#board [data-square="{geo.label(square)}"]').focus()
            page.keyboard.press("Enter")
    expect(root).not_to_have_attribute("data-state", "failed")


def test_a_capture_that_could_go_on_is_chosen_among_the_offered_ones(page: Page) -> None:
    """Where a capture could go on past the square clicked (a man crowned there, under the
    rule that stops it or the one that goes on), the page offers the captures that fit under
    the board, and choosing the shorter one answers with it."""
    from playwright.sync_api import expect

    from damiera.trainer.pool import catalogue
    from damiera.web.train.routes import exercise_json

    v = variant("czech")

    def prefix(e: Exercise) -> Move | None:
        moves = e.candidates()
        return next((m for m in moves if m.captures and any(
            o.path[:len(m.path)] == m.path and len(o.path) > len(m.path) for o in moves)),
            None)

    e = next(x for x in catalogue(v) if x.kind in ("capture", "promotion") and prefix(x))
    move = prefix(e)
    assert move is not None
    session = {"variant": "czech", "optional_capture": False, "exercises": [exercise_json(e)]}
    page.route("**/api/train/session*", lambda route: route.fulfill(json=session))
    page.goto("/train?variant=czech")
    root = page.locator("#train")
    expect(root).to_have_attribute("data-state", "question")
    geo = geometry(v)
    play_path(page, [geo.label(s) for s in move.path])
    expect(page.locator("#entry-choices")).to_be_visible()
    assert root.get_attribute("data-state") == "question"      # nothing answered yet
    page.locator(f'#entry-choice-list button[data-move="{move_text(v, move)}"]').click()
    expect(root).to_have_attribute("data-state", "answered")
    right = (move.start, move.end, move.captured) in e.answer()  # type: ignore[operator]
    expect(page.locator("#tr-feedback")).to_have_attribute("data-correct", str(right).lower())
    expect(page.locator("#entry-choices")).to_be_hidden()
