"""The PDN import page in the reader's language: its title, headings, script messages and
variant names translated in every language, and in Arabic (right to left) PDN text, move
numbers, results and counts that still read left to right."""

from __future__ import annotations

import itertools
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
    # the error's line and column, the title's number and result: left to right too
    error = page.locator("#imp-list tbody tr").nth(1).locator("td.bad")
    assert {"15", "25"} <= set(error.locator("bdi").all_inner_texts())
    title = page.locator("#imp-title > bdi")
    assert title.all_inner_texts() == ["1", "Anna", "Boris", "2-0"]


#: Where each character of an element's text is drawn: [character, left x, middle y] in the
#: order of the text, spaces left out (a line's last space is drawn anywhere).
GLYPHS = r"""el => {
  const out = [], walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n; (n = walk.nextNode());) {
    for (let i = 0; i < n.textContent.length; i++) {
      if (/\s/.test(n.textContent[i])) continue;
      const r = document.createRange();
      r.setStart(n, i);
      r.setEnd(n, i + 1);
      const b = r.getBoundingClientRect();
      out.push([n.textContent[i], b.left, b.top + b.height / 2]);
    }
  }
  return out;
}"""


#: Two characters whose middles are closer than this (px) are on the same line (a line is
#: about 20 px high; Arabic and Latin letters of one line sit a few pixels apart).
SAME_LINE = 8


def glyphs(node: Any) -> list[tuple[str, float, float]]:
    return [(c, x, y) for c, x, y in node.evaluate(GLYPHS)]


def reads_left_to_right(node: Any) -> bool:
    """Whether every line of ``node`` draws its characters in the order of its text."""
    seen = glyphs(node)
    assert seen
    return all(a[1] < b[1] for a, b in itertools.pairwise(seen)
               if abs(a[2] - b[2]) < SAME_LINE)


def comes_first(a: Any, b: Any) -> bool:
    """Whether ``a`` is read before ``b`` right to left: on a line above it, or on the same
    line and right of it (the last line of ``a``, the first of ``b``)."""
    a_end, b_start = glyphs(a)[-1], glyphs(b)[0]
    if abs(a_end[2] - b_start[2]) >= SAME_LINE:
        return a_end[2] < b_start[2]
    return a_end[1] > b_start[1]


#: A move the rules refuse (2. 28x17); the same in a variation; a move after the game's
#: end, which the reader words in English starting with the move ("5-1: the game is over
#: ..."), the run an Arabic line used to move away from its sentence.
REFUSED = """[Event "Refused"]
[White "Anna"]
[Black "Boris"]
[Result "2-0"]
[GameType "20"]

1. 32-28 19-23 2. 28x17 2-0

[Event "Variation"]
[GameType "20"]

1. 32-28 19-23 (19-24 2. 28x17) 2. 28x19 *

[Event "Over"]
[GameType "21"]
[FEN "W:W18:B14"]

1. 18x9 5-1 *
"""


def test_arabic_page_words_a_refused_move_and_keeps_every_run_in_its_order(page: Page) -> None:
    """The game's title reads "Game 1: Anna – Boris, 2-0" right to left, never ".1"; a
    move the rules refuse is worded in Arabic around its number and move (in a variation
    too), each drawn left to right; the reader's English message is one left-to-right run
    inside the Arabic row."""
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto("/import?lang=ar")
    page.fill("#imp-text", REFUSED)
    page.click("#imp-read")
    expect(page.locator("#imp-viewer")).to_have_attribute("data-game", "1")
    # the title: the catalog's words; right to left the number, White, Black, the result
    game_word = translated("ar", "Game {number}: {white} – {black}, {result}").split("{")[0]
    assert game_word.strip() and game_word.strip() != "Game"
    title = page.locator("#imp-title")
    expect(title).to_contain_text(game_word.strip())
    number, white, black, result = (title.locator("> bdi").nth(i) for i in range(4))
    assert [number.inner_text(), white.inner_text(), black.inner_text(),
            result.inner_text()] == ["1", "Anna", "Boris", "2-0"]
    assert comes_first(number, white) and comes_first(white, black)
    assert comes_first(black, result)
    assert reads_left_to_right(result) and reads_left_to_right(white)
    # the refused move, under the board and in the list: "النقلة 2. 28x17: ..."
    frame = translated("ar", "move {number} {move}: {reason}").split("{")[0].strip()
    assert frame and frame != "move"
    rows = page.locator("#imp-list tbody tr")
    for error in (page.locator("#imp-game-error"), rows.nth(0).locator("td.bad"),
                  rows.nth(1).locator("td.bad")):
        message = error.locator("bdi.pdn-error-message")
        expect(message).to_contain_text(frame)
        line, column = error.locator("> bdi").nth(0), error.locator("> bdi").nth(1)
        assert [line.inner_text(), column.inner_text()] in (["7", "19"], ["12", "26"])
        assert comes_first(line, column) and comes_first(column, message)
        parts = message.locator("bdi.pdn-refused-move > bdi")   # in "in a variation: " too
        move_number, move, reason = parts.nth(0), parts.nth(1), parts.nth(2)
        assert [move_number.inner_text(), move.inner_text()] == ["2.", "28x17"]
        assert reads_left_to_right(move_number) and reads_left_to_right(move)  # "2.", not ".2"
        assert comes_first(move_number, move) and comes_first(move, reason)
        assert not re.search("[a-z]{2}", reason.inner_text())        # worded in Arabic
        assert reason.get_attribute("dir") == "auto"
    variation = translated("ar", "in a variation: {message}").split("{")[0].strip()
    assert variation and variation != "in a variation:"
    assert rows.nth(1).locator("bdi.pdn-error-message").inner_text().startswith(variation)
    # the reader's English message: one run drawn in its own order, after "Line L, column C:"
    error = rows.nth(2).locator("td.bad")
    message = error.locator("bdi.pdn-error-message")
    assert message.inner_text().startswith("5-1: the game is over")
    assert reads_left_to_right(message)
    assert comes_first(error.locator("> bdi").nth(1), message)
    # however narrow, errors wrap between words, never inside a move, a square or a number
    page.eval_on_selector_all("#imp-list .pdn-error-message", """els => els.forEach(el => {
        el.style.display = "inline-block"; el.style.width = "3em"; })""")
    units = page.locator("#imp-list .pdn-error-message bdi[dir=ltr]")
    assert units.count() >= 6
    for unit in units.all():
        middles = [y for _c, _x, y in glyphs(unit)]
        assert max(middles) - min(middles) < SAME_LINE, unit.inner_text()
