"""The play page as players expect it (issue 16): capture entry that never surprises, pieces
drawn as what they are at every step, contrast of the highlights, right-to-left messages,
replay, screen readers. Each test names the position it plays in PDN FEN."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.test_analysis_entry import choices_on_screen
from tests.browser.test_play_page import api_game, board_pieces, moves_listed, open_game, square

Page = Any


def classes(page: Page, name: str) -> list[str]:
    """Labels of the squares with class ``name``, sorted."""
    found: list[str] = page.eval_on_selector_all(
        f"#board .sq.{name}", "els => els.map(e => e.dataset.square)")
    return sorted(found, key=lambda s: (len(s), s))


def history(page: Page, game_id: str) -> list[str]:
    moves: list[str] = page.request.get(f"/api/games/{game_id}").json()["history"]
    return moves


def test_capture_is_played_only_when_the_clicks_reach_its_end(page: Page) -> None:
    """Russian ``W:Wc5:Bd6,f6,h6``: after c5 and e7 one path is left, but nothing is played
    until its end g5 is clicked, so that click is not taken for the next position."""
    game = api_game(page, variant="russian", fen="W:Wc5:Bd6,f6,h6")
    open_game(page, game["id"])
    square(page, "c5").click()
    assert classes(page, "target") == ["e7"] and classes(page, "end") == ["g5"]
    assert classes(page, "via") == ["e7"]          # a landing on the way, marked differently
    square(page, "e7").click()
    expect(page.locator("#message")).to_have_class("message info")
    assert board_pieces(page)["e7"] == "white-man" and "c5" not in board_pieces(page)
    assert history(page, game["id"]) == []
    expect(page.locator("#board polyline.capture-path")).to_have_count(1)   # what is left
    square(page, "g5").click()
    expect(page.locator("#move-list button.move")).to_have_count(1)
    page.wait_for_selector("#board:not(.busy)")
    assert moves_listed(page) == ["c5:e7:g5"]
    assert history(page, game["id"]) == ["c5:e7:g5"]
    expect(page.locator("#message")).to_have_text("")
    assert board_pieces(page) == {"g5": "white-man", "h6": "black-man"}


def test_hints_show_where_each_capture_ends(page: Page) -> None:
    """International ``W:W11,46:B7,8,45``: the man on 11 lands on 2 and ends on 13; both are
    marked, 2 as a landing on the way and 13 as the end."""
    game = api_game(page, variant="international", fen="W:W11,46:B7,8,45")
    open_game(page, game["id"])
    square(page, "11").click()
    assert classes(page, "via") == ["2"]
    assert classes(page, "end") == ["13"]
    expect(page.locator('#board [data-square="13"] .end-dot')).to_have_count(1)
    expect(page.locator('#board [data-square="2"] .via-dot')).to_have_count(1)
    square(page, "13").click()                     # start and end are enough
    expect(page.locator("#move-list button.move")).to_have_count(1)
    page.wait_for_selector("#board:not(.busy)")
    assert moves_listed(page) == ["11x2x13"]


KING4 = "W:WK4:B10,20,22,32,33,37,39"


def test_two_captures_with_the_same_end_are_chosen_on_the_board(page: Page) -> None:
    """International ``W:WK4:B10,20,22,32,33,37,39``: 4 then 9 fits two captures; both paths
    are drawn and one click on a square of one (42) plays it."""
    game = api_game(page, variant="international", fen=KING4)
    open_game(page, game["id"])
    square(page, "4").click()
    assert "9" in classes(page, "end")
    square(page, "9").click()
    expect(page.locator("#message")).to_contain_text("Several captures end on 9")
    assert page.locator("#message").get_attribute("class") == "message info"
    assert history(page, game["id"]) == []
    assert page.locator("#board polyline.choice-path").count() >= 2
    picks = classes(page, "target")
    assert {"38", "27", "42", "31"} <= set(picks) and "15" not in picks   # 15 is on both
    square(page, "42").click()
    expect(page.locator("#move-list button.move")).to_have_count(1)
    page.wait_for_selector("#board:not(.busy)")
    assert moves_listed(page) == ["4x15x24x42x31x9"]
    assert history(page, game["id"]) == ["4x15x24x42x31x9"]


def test_an_equal_capture_entered_by_its_other_path_is_played(page: Page) -> None:
    """Same position: 4, 15, 29, 42, 9 follows the path 4x15x29x42x31x9, which takes the same
    pieces as 4x15x24x42x31x9 (one move); it is accepted and played as that move."""
    game = api_game(page, variant="international", fen=KING4)
    open_game(page, game["id"])
    for label in ["4", "15", "29"]:
        square(page, label).click()
    expect(page.locator("#message")).to_have_class("message info")
    assert board_pieces(page)["29"] == "white-king"
    captured = page.eval_on_selector_all(
        "#board .piece.captured", "els => els.map(e => e.closest('[data-square]').dataset.square)")
    assert sorted(captured) == ["10", "20"]
    square(page, "42").click()
    square(page, "9").click()
    expect(page.locator("#move-list button.move")).to_have_count(1)
    page.wait_for_selector("#board:not(.busy)")
    assert history(page, game["id"]) == ["4x15x24x42x31x9"]


def test_a_half_entered_capture_is_cancelled_by_the_piece_or_escape(page: Page) -> None:
    game = api_game(page, variant="international", fen=KING4)
    open_game(page, game["id"])
    before = board_pieces(page)
    square(page, "4").click()
    square(page, "15").click()
    assert board_pieces(page)["15"] == "white-king"
    square(page, "15").click()                      # the piece again: it goes back
    expect(page.locator("#board .sq.start")).to_have_count(0)
    assert board_pieces(page) == before
    square(page, "4").click()
    square(page, "15").click()
    page.keyboard.press("Escape")
    expect(page.locator("#board .sq.start")).to_have_count(0)
    assert board_pieces(page) == before
    assert history(page, game["id"]) == []


def test_russian_man_crowned_mid_capture_is_drawn_as_a_king(page: Page) -> None:
    """Russian ``W:Wb6:Bc7,f6,h6``: b6 takes c7 and lands on d8, the promotion row: from there
    it is a king (and goes on capturing as one), when entered and when animated."""
    game = api_game(page, variant="russian", fen="W:Wb6:Bc7,f6,h6")
    open_game(page, game["id"])
    square(page, "b6").click()
    square(page, "d8").click()
    assert board_pieces(page)["d8"] == "white-king"
    square(page, "b6").click()                       # the start square: back again
    assert board_pieces(page)["b6"] == "white-man"
    # typed: the page animates the move, and the piece on d8 is a king during it
    page.evaluate("""() => { window.seen = [];
        new MutationObserver(() => {
          const p = document.querySelector('#board [data-square="d8"] [data-piece]');
          if (p) window.seen.push(p.dataset.piece);
        }).observe(document.getElementById('board'), { childList: true, subtree: true }); }""")
    page.fill("#move-input", "b6:d8:h4")
    page.press("#move-input", "Enter")
    expect(page.locator("#move-list button.move")).to_have_count(1)
    page.wait_for_selector("#board:not(.busy)")
    assert "white-king" in page.evaluate("window.seen")
    assert "white-man" not in page.evaluate("window.seen")
    assert board_pieces(page)["h4"] == "white-king"


def _luminance(rgb: str) -> float:
    values = [int(v) / 255 for v in re.findall(r"\d+", rgb)[:3]]
    lin = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in values]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_last_move_and_highlights_have_enough_contrast(page: Page) -> None:
    """WCAG: square numbers 4.5:1 against every highlighted square; the last move's frame and
    the mark of a piece it took 3:1 against the square."""
    game = api_game(page, variant="international", fen="W:W32:B28")
    page.request.post(f"/api/games/{game['id']}/moves", data={"move": "32x23"})
    open_game(page, game["id"])
    expect(page.locator('#board [data-square="28"] .taken-cross')).to_have_count(1)
    # One script reads every style at once: the live stream may redraw the board between two
    # reads, and a style read from a square already replaced is empty.
    read = """selectors => selectors.map(([sel, prop]) =>
        getComputedStyle(document.querySelector('#board ' + sel))[prop])"""
    square_fill, frame, label, plain, cross = page.evaluate(read, [
        ['[data-square="23"] .dark', "fill"], ['[data-square="23"] .last-frame', "stroke"],
        ['[data-square="23"] .sq-label', "fill"], ['[data-square="28"] .dark', "fill"],
        ['[data-square="28"] .taken-cross', "stroke"]])
    assert _contrast(frame, square_fill) >= 3
    assert _contrast(label, square_fill) >= 4.5
    assert _contrast(cross, plain) >= 3
    assert _contrast(label, plain) >= 4.5
    # a selected piece, its targets: numbers still readable
    game = api_game(page, variant="international", fen=KING4)
    open_game(page, game["id"])
    square(page, "4").click()
    for cls in ["start", "target", "via", "end"]:
        page.locator(f"#board .sq.{cls}").first.wait_for()
        fill, number = page.evaluate(read, [[f".sq.{cls} .dark", "fill"],
                                            [f".sq.{cls} .sq-label", "fill"]])
        assert _contrast(number, fill) >= 4.5, cls


def test_arabic_page_isolates_moves_in_messages(page: Page) -> None:
    """Italian in Arabic: a refusal lists the legal moves 21-17 and 21-18; each is isolated
    left to right (<bdi dir="ltr">), so it does not read as 17-21."""
    game = api_game(page, variant="italian")
    page.goto(f"/game/{game['id']}?lang=ar")
    page.wait_for_selector("body[data-ready]")
    assert page.locator("html").get_attribute("dir") == "rtl"
    square(page, "21").click()
    square(page, "14").click()                        # not a legal move: the server says why
    message = page.locator("#message")
    expect(message).to_have_class("message error")
    isolated = message.locator("bdi").all_inner_texts()
    assert "21-14" in isolated or "21" in isolated
    assert "21-17" in isolated and "21-18" in isolated
    assert all(b == "ltr" for b in message.locator("bdi").evaluate_all(
        "els => els.map(e => e.dir)"))
    # no digit is left outside an isolate
    outside = message.evaluate("""el => [...el.childNodes].filter(n => n.nodeType === 3)
        .map(n => n.textContent).join('')""")
    assert not re.search(r"\d", outside)
    # the move list and the input read left to right too
    square(page, "21").click()
    square(page, "17").click()
    expect(page.locator("#move-list button.move")).to_have_count(1)
    assert page.locator("#move-list button.move").first.get_attribute("dir") == "ltr"
    assert page.locator("#move-input").get_attribute("dir") == "ltr"


def test_replay_with_buttons_and_arrow_keys(page: Page) -> None:
    game = api_game(page, variant="italian")
    played = []
    for _ in range(3):
        move = page.request.get(f"/api/games/{game['id']}").json()["legal_moves"][0]["move"]
        assert page.request.post(f"/api/games/{game['id']}/moves", data={"move": move}).ok
        played.append(move)
    open_game(page, game["id"])
    expect(page.locator("#btn-next")).to_be_disabled()
    page.locator("h1").click()                    # focus outside the board
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#status")).to_have_text(f"Showing move 1… {played[1]}")
    expect(page.locator("#btn-undo")).to_be_disabled()
    expect(page.locator("#btn-resign")).to_be_disabled()
    expect(page.locator("#btn-live")).to_be_visible()
    expect(page.locator("#move-list button.move.current")).to_have_text(played[1])
    page.click("#btn-prev")
    expect(page.locator("#status")).to_have_text(f"Showing move 1. {played[0]}")
    page.click("#btn-first")
    expect(page.locator("#status")).to_have_text("Start position")
    expect(page.locator("#btn-first")).to_be_disabled()
    page.click("#btn-next")
    expect(page.locator("#status")).to_have_text(f"Showing move 1. {played[0]}")
    page.keyboard.press("End")
    expect(page.locator("#btn-live")).to_be_hidden()
    expect(page.locator("#btn-undo")).to_be_enabled()
    # a finished game says which move is shown too
    page.click("#btn-resign")
    page.click("#confirm-yes")
    expect(page.locator("#result")).to_be_visible()
    page.click("#btn-prev")
    expect(page.locator("#status")).to_have_text(f"Showing move 1… {played[1]}")


def test_moves_are_announced_and_the_board_is_one_tab_stop(page: Page) -> None:
    game = api_game(page, variant="italian", opponent="computer", level=1)
    open_game(page, game["id"])
    expect(page.locator('#board [tabindex="0"]')).to_have_count(1)
    page.locator("#bar-bottom").click()
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.closest('#board') !== null")
    if not focused:               # the tab order may pass the other controls first
        page.locator('#board [tabindex="0"]').focus()
    start = page.evaluate("document.activeElement.dataset.square")
    page.keyboard.press("ArrowRight")
    moved = page.evaluate("document.activeElement.dataset.square")
    assert moved and moved != start
    expect(page.locator('#board [tabindex="0"]')).to_have_count(1)
    assert page.locator('#board [tabindex="0"]').get_attribute("data-square") == moved
    square(page, "22").click()
    square(page, "19").click()
    expect(page.locator("#move-list button.move")).to_have_count(2)
    page.wait_for_selector("#board:not(.busy)")
    reply = page.request.get(f"/api/games/{game['id']}").json()["history"][1]
    expect(page.locator("#announce")).to_have_text(f"Black played {reply}")
    assert page.locator("#announce").get_attribute("aria-live") == "polite"


def test_my_games_delete_and_no_empty_games(page: Page) -> None:
    empty = api_game(page, variant="italian")
    game = api_game(page, variant="russian")
    assert page.request.post(f"/api/games/{game['id']}/moves", data={"move": "c3-d4"}).ok
    page.goto("/games")
    rows = page.locator("#games tbody tr")
    expect(page.locator(f'#games tr[data-game-id="{game["id"]}"]')).to_have_count(1)
    expect(page.locator(f'#games tr[data-game-id="{empty["id"]}"]')).to_have_count(0)
    before = rows.count()
    page.once("dialog", lambda d: d.accept())
    page.locator(f'button.delete-game[data-game-id="{game["id"]}"]').click()
    expect(rows).to_have_count(before - 1)
    assert page.request.get(f"/api/games/{game['id']}").status == 404


def test_friend_game_with_clocks_from_the_menu(page: Page) -> None:
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    page.select_option("#ng-variant", "international")
    page.select_option("#ng-opponent", "friend")
    page.select_option("#ng-clock", "custom")
    expect(page.locator("#ng-clock-custom")).to_be_visible()
    page.fill("#ng-clock-minutes", "7")
    page.fill("#ng-clock-increment", "5")
    with page.expect_request("**/api/games?*") as made:
        page.click("#ng-start")
    assert made.value.post_data_json["clock"] == "7+5"
    page.wait_for_url("**/game/*")
    page.wait_for_selector("body[data-ready]")
    game = page.request.get(f"/api/games/{page.url.rsplit('/', 1)[1]}").json()
    assert game["clock"]["label"] == "7+5" and game["opponent"] == "friend"
    bottom = page.locator('#bar-bottom .clock[data-side="white"]')
    top = page.locator('#bar-top .clock[data-side="black"]')
    expect(top).to_have_text("7:00")
    expect(bottom).to_have_class("clock running")
    square(page, "32").click()
    square(page, "28").click()
    expect(page.locator("#move-list button.move")).to_have_count(1)
    page.wait_for_selector("#board:not(.busy)")
    expect(top).to_have_class("clock running")
    expect(bottom).to_have_class("clock")


def test_a_flag_that_fell_while_the_page_was_closed(page: Page, monkeypatch: Any) -> None:
    from datetime import UTC, datetime, timedelta

    from damiera.web import clocks

    start = datetime.now(UTC)
    monkeypatch.setattr(clocks, "now", lambda: start)
    game = api_game(page, variant="russian", clock="1+0")
    assert page.request.post(f"/api/games/{game['id']}/moves", data={"move": "c3-d4"}).ok
    monkeypatch.setattr(clocks, "now", lambda: start + timedelta(seconds=90))
    open_game(page, game["id"])
    expect(page.locator("#result-text")).to_have_text("White wins: Black lost on time")
    expect(page.locator('#bar-top .clock[data-side="black"]')).to_have_text("0:00.0")
    expect(page.locator("#btn-resign")).to_be_disabled()
    pdn = page.request.get(f"/api/games/{game['id']}/pdn").text()
    assert '[TimeControl "60+0"]' in pdn and "{[%clk 0:01:00]}" in pdn


def test_sound_with_a_mute_switch_and_a_rematch_after_the_game(page: Page) -> None:
    game = api_game(page, variant="american", fen="W:W22,30:B18", opponent="computer",
                    side="white", clock="5+3")
    open_game(page, game["id"])
    expect(page.locator("#btn-sound")).to_have_attribute("aria-pressed", "true")
    square(page, "22").click()
    square(page, "15").click()                       # 22x15: the capture's sound
    expect(page.locator("body")).to_have_attribute("data-last-sound", "capture")
    page.wait_for_selector("#board:not(.busy)")
    page.click("#btn-sound")
    expect(page.locator("#btn-sound")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#btn-sound")).to_have_text("Sound off")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#btn-sound")).to_have_attribute("aria-pressed", "false")   # remembered
    # the game over panel says why, and a rematch takes the other side with the same options
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#result-text")).to_have_text("White wins: Black has no pieces left")
    page.click("#btn-rematch")
    page.wait_for_url(lambda url: game["id"] not in url)
    page.wait_for_selector("body[data-ready]")
    again = page.request.get(f"/api/games/{page.url.rsplit('/', 1)[1]}").json()
    assert again["variant"] == "american" and again["side"] == "black"
    assert again["start_fen"] == "W:W22,30:B18" and again["clock"]["label"] == "5+3"


def test_rules_diagram_square_numbers_are_readable(page: Page) -> None:
    """The square numbers of a 10x10 rules diagram measured on screen at the desktop width
    (issue 16: 5-6 px glyphs, a box 8.8 px high); now a box at least 11 px high."""
    page.goto("/en/rules/international")
    label = page.locator(".diagram-board .sq-label").first
    label.wait_for()
    box = label.bounding_box()
    assert box and box["height"] >= 11


def choices(page: Page) -> Any:
    return page.locator("#entry-choice-list button")


def test_a_capture_inside_another_with_the_same_end_is_chosen_from_the_offered_ones(
    page: Page,
) -> None:
    """American ``W:WK22:B17,18,19,26,27``: 22x13 takes 17; 22x15x24x31x22x13 takes 17 last,
    so every square of the first is on the second. After 22 and 13 both are offered under
    the board; a click on the start square puts the king back and plays nothing."""
    game = api_game(page, variant="american", fen="W:WK22:B17,18,19,26,27")
    open_game(page, game["id"])
    square(page, "22").click()
    square(page, "13").click()
    expect(choices(page)).to_have_text(["22x13", "22x15x24x31x22x13"])
    assert choices_on_screen(page)                  # under the board, brought into view
    expect(page.locator("#board polyline.choice-path.choice-0")).to_have_count(1)
    square(page, "17").click()                      # taken by both: nothing decided
    square(page, "22").click()                      # the start: put back, nothing played
    expect(page.locator("#entry-choices")).to_be_hidden()
    expect(page.locator("#board .sq.start")).to_have_count(0)
    assert history(page, game["id"]) == []
    square(page, "22").click()
    square(page, "13").click()
    with page.expect_request("**/moves*") as sent:
        choices(page).first.click()
    assert sent.value.post_data_json["move"] == "22x13"
    expect(page.locator("#move-list button.move")).to_have_count(1)
    page.wait_for_selector("#board:not(.busy)")
    assert history(page, game["id"]) == ["22x13"]
    assert board_pieces(page)["13"] == "white-king" and "17" not in board_pieces(page)
    expect(page.locator("#entry-choices")).to_be_hidden()


def test_a_short_flying_king_capture_inside_a_long_one_is_chosen(page: Page) -> None:
    """Russian ``W:WKc3:Bb4,d2,f2,g5,e5``: c3:a5 takes b4, which c3:f6:h4:e1:c3:a5 also takes
    last; c3, a5 offers both, a5 again puts the king back, the offered c3:a5 plays it."""
    game = api_game(page, variant="russian", fen="W:WKc3:Bb4,d2,f2,g5,e5")
    open_game(page, game["id"])
    square(page, "c3").click()
    square(page, "a5").click()
    expect(choices(page)).to_have_text(["c3:a5", "c3:f6:h4:e1:c3:a5"])
    square(page, "b4").click()
    expect(choices(page)).to_have_count(2)
    square(page, "a5").click()                      # the king where it stands: put back
    expect(page.locator("#entry-choices")).to_be_hidden()
    assert history(page, game["id"]) == []
    square(page, "c3").click()
    square(page, "a5").click()
    page.locator('#entry-choice-list button[data-move="c3:a5"]').click()
    expect(page.locator("#move-list button.move")).to_have_count(1)
    page.wait_for_selector("#board:not(.busy)")
    assert history(page, game["id"]) == ["c3:a5"]
