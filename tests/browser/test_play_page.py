"""The play page in a real Chromium: clicking, square-by-square captures,
refusals that change nothing, undo, reload, a friend game to its result, the phone layout."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from damiera.rules.variant import VARIANTS
from tests.browser.conftest import WAIT_MS

Page = Any


def board_pieces(page: Page) -> dict[str, str]:
    """Every piece on the board: {square label: data-piece}."""
    result: dict[str, str] = page.eval_on_selector_all(
        "#board [data-square]",
        """els => Object.fromEntries(els.filter(e => e.querySelector('[data-piece]'))
             .map(e => [e.dataset.square, e.querySelector('[data-piece]').dataset.piece]))""",
    )
    return result


def square(page: Page, label: str) -> Any:
    return page.locator(f'#board [data-square="{label}"]')


def api_game(page: Page, **body: Any) -> dict[str, Any]:
    """Create a game through the API from the page's browser context (its cookies)."""
    r = page.request.post("/api/games", data={"opponent": "friend", **body})
    assert r.status == 201, r.text()
    game: dict[str, Any] = r.json()
    return game


def open_game(page: Page, game_id: str, live: bool = True) -> None:
    """Open the game's page and, with ``live``, wait until its event stream has drawn the game
    it sends first (``data-live="up"``), so no redraw from it falls between a test's clicks or
    drags. ``live=False`` for a page whose stream a test has cut."""
    page.goto(f"/game/{game_id}")
    page.wait_for_selector("body[data-ready]")
    if live:
        page.wait_for_selector('body[data-live="up"]')


def wait_idle(page: Page) -> None:
    """Wait until the page is not waiting for the server (clicks are ignored meanwhile)."""
    page.wait_for_selector("#board:not(.busy)")


def moves_listed(page: Page) -> list[str]:
    texts: list[str] = page.locator("#move-list button.move").all_inner_texts()
    return texts


def test_italian_game_against_the_computer_by_clicking(page: Page) -> None:
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#menu")).to_be_visible()  # no game yet: the menu opens itself
    page.select_option("#ng-variant", "italian")
    page.select_option("#ng-opponent", "computer:1")
    page.click("#ng-start")
    page.wait_for_url("**/game/*")
    page.wait_for_selector("body[data-ready]")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator("html").get_attribute("dir") == "ltr"

    # official labels and pieces: White on 21-32 at the bottom, square 1 top left (a8)
    pieces = board_pieces(page)
    assert all(pieces[str(n)] == "white-man" for n in range(21, 33))
    assert all(pieces[str(n)] == "black-man" for n in range(1, 13))
    sq22 = square(page, "22")
    # the board is one tab stop (a piece that can move); arrow keys move inside it
    expect(page.locator('#board [tabindex="0"]')).to_have_count(1)
    assert page.locator('#board [tabindex="0"]').get_attribute("class") == "sq movable"
    assert "white man" in (sq22.get_attribute("aria-label") or "")

    # only pieces that may move are selectable; choosing one shows its targets
    square(page, "22").click()
    expect(square(page, "22")).to_have_class("sq start")
    targets = page.eval_on_selector_all("#board .sq.target", "els => els.map(e => e.dataset.square)")
    assert sorted(targets) == ["18", "19"]
    square(page, "19").click()
    expect(page.locator("#move-list button.move")).to_have_count(2)
    wait_idle(page)
    assert moves_listed(page)[0] == "22-19"
    assert board_pieces(page)["19"] == "white-man"
    assert "22" not in board_pieces(page)
    expect(page.locator("#thinking")).to_be_hidden()

    # a second move with the keyboard: focus a movable piece, Enter, then a target, Enter
    movable = page.eval_on_selector_all("#board .sq.movable", "els => els.map(e => e.dataset.square)")
    assert movable
    game = page.request.get(f"/api/games/{page.url.rsplit('/', 1)[1]}").json()
    first = next(m for m in game["legal_moves"])
    square(page, first["from"]).focus()
    page.keyboard.press("Enter")
    for label in first["path"][1:]:
        square(page, label).focus()
        page.keyboard.press("Enter")
    expect(page.locator("#move-list button.move")).to_have_count(4)
    wait_idle(page)
    assert moves_listed(page)[2] == first["move"]


def test_russian_flying_king_capture_entered_square_by_square(page: Page, tmp_path: Path) -> None:
    game = api_game(page, variant="russian", fen="W:WKa1:Bb2,g5,f2,b6,d2")
    open_game(page, game["id"])
    assert board_pieces(page)["a1"] == "white-king"
    square(page, "a1").click()
    targets = page.eval_on_selector_all("#board .sq.target", "els => els.map(e => e.dataset.square)")
    assert sorted(targets) == ["c3", "d4", "f6"]
    square(page, "f6").click()
    square(page, "h4").click()
    # mid-capture: the king stands on h4, b2 and g5 are still on the board, marked captured
    pieces = board_pieces(page)
    assert pieces["h4"] == "white-king" and "a1" not in pieces
    assert pieces["b2"] == "black-man" and pieces["g5"] == "black-man"
    captured = page.eval_on_selector_all(
        "#board .piece.captured", "els => els.map(e => e.closest('[data-square]').dataset.square)")
    assert sorted(captured) == ["b2", "g5"]
    page.screenshot(path=str(tmp_path / "mid-capture.png"))
    # a square off the capture's paths: the server says why, the entry so far is kept
    square(page, "b8").click()
    expect(page.locator("#message")).to_contain_text("not a legal move")
    wait_idle(page)
    assert board_pieces(page)["h4"] == "white-king"
    assert square(page, "e1").get_attribute("class") == "sq target via"  # next, not the end
    square(page, "e1").click()
    square(page, "a5").click()
    targets = page.eval_on_selector_all("#board .sq.target", "els => els.map(e => e.dataset.square)")
    assert sorted(targets) == ["c7", "d8"]
    square(page, "c7").click()
    expect(page.locator("#move-list button.move")).to_have_count(1)
    wait_idle(page)
    assert moves_listed(page) == ["a1:f6:h4:e1:a5:c7"]
    assert board_pieces(page) == {"c7": "white-king"}
    expect(page.locator("#result-text")).to_contain_text("White wins")


def test_illegal_attempt_shows_the_rules_reason_and_changes_nothing(page: Page) -> None:
    # Italian: 21x14x5 takes two, so the man on 24 (which could take one) may not capture
    game = api_game(page, variant="italian", fen="W:W21,24:B10,18,20")
    open_game(page, game["id"])
    before = board_pieces(page)
    square(page, "24").click()
    expect(page.locator("#message")).to_contain_text(
        "Italian draughts: you must take the most pieces")
    assert board_pieces(page) == before
    assert moves_listed(page) == []

    # American: a quiet move while a capture exists, tried by selecting a piece that can move
    game = api_game(page, variant="american", fen="W:W22,30:B18")
    open_game(page, game["id"])
    before = board_pieces(page)
    square(page, "30").click()
    expect(page.locator("#message")).to_contain_text("a capture is mandatory")
    square(page, "22").click()           # the capturing man, then a quiet move instead
    expect(page.locator("#message")).to_contain_text("selected")
    square(page, "17").click()
    expect(page.locator("#message")).to_have_text("a capture is mandatory (22x15)")
    assert board_pieces(page) == before
    stored = page.request.get(f"/api/games/{game['id']}").json()
    assert stored["history"] == [] and stored["fen"] == game["fen"]


def test_the_page_language_from_the_url_reaches_its_api_requests(page: Page) -> None:
    game = api_game(page, variant="american", fen="W:W22,30:B18")
    page.goto(f"/game/{game['id']}?lang=ar")
    page.wait_for_selector("body[data-ready]")
    page.context.clear_cookies(name="damiera_lang")  # the page itself must say its language
    square(page, "30").click()
    expect(page.locator("#message")).to_contain_text("الأسر إجباري")
    square(page, "22").click()
    square(page, "15").click()
    expect(page.locator("#move-list .move-number")).to_have_count(1)
    assert page.locator("#move-list .move-number").get_attribute("dir") == "ltr"   # "1."


def test_undo_is_disabled_when_nothing_of_yours_can_be_taken_back(page: Page) -> None:
    # American: Black (the computer) moves first; its move alone cannot be taken back
    game = api_game(page, variant="american", opponent="computer", side="white")
    open_game(page, game["id"])
    expect(page.locator("#move-list button.move")).to_have_count(1)
    expect(page.locator("#btn-undo")).to_be_disabled()
    # a friend game with a move, then resigned: undo cannot take the resignation back
    game = api_game(page, variant="italian")
    r = page.request.post(f"/api/games/{game['id']}/moves", data={"move": "22-19"})
    assert r.ok
    open_game(page, game["id"])
    expect(page.locator("#btn-undo")).to_be_enabled()
    page.click("#btn-resign")
    page.click("#confirm-yes")
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#btn-undo")).to_be_disabled()


def test_undo_and_reload_continue_the_game(page: Page) -> None:
    game = api_game(page, variant="spanish", opponent="computer", level=1)
    open_game(page, game["id"])
    first = game["legal_moves"][0]
    square(page, first["from"]).click()
    square(page, first["to"]).click()
    expect(page.locator("#move-list button.move")).to_have_count(2)
    wait_idle(page)
    listed = moves_listed(page)
    pieces = board_pieces(page)

    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert moves_listed(page) == listed
    assert board_pieces(page) == pieces

    page.click("#btn-undo")
    expect(page.locator("#move-list button.move")).to_have_count(0)
    wait_idle(page)
    assert board_pieces(page)[first["from"]] == "white-man"
    stored = page.request.get(f"/api/games/{game['id']}").json()
    assert stored["history"] == []


def test_friend_game_on_one_screen_to_a_result(page: Page) -> None:
    game = api_game(page, variant="american", fen="B:W22,23:B14,15")
    open_game(page, game["id"])
    expect(page.locator("#status")).to_have_text("Black to move")
    # Black then White play by clicking; then White finishes with a double capture
    page.locator("#move-input").fill("14-18")
    page.locator("#type-move button").click()
    expect(page.locator("#status")).to_have_text("White to move")
    wait_idle(page)
    square(page, "23").click()
    square(page, "14").click()      # 23x14: takes the man on 18
    expect(page.locator("#move-list button.move")).to_have_count(2)
    wait_idle(page)
    stored = page.request.get(f"/api/games/{game['id']}").json()
    assert stored["history"] == ["14-18", "23x14"]
    # clicking a move in the list shows that position, without changing the game
    page.locator('#move-list button.move[data-ply="0"]').click()
    assert board_pieces(page)["18"] == "black-man"
    page.locator('#move-list button.move[data-ply="1"]').click()
    assert "18" not in board_pieces(page)
    # Black resigns on the same screen
    page.click("#btn-resign")
    page.click("#confirm-yes")
    expect(page.locator("#result-text")).to_have_text("White wins: Black resigned")


def test_friend_draw_offer_accepted(page: Page) -> None:
    game = api_game(page, variant="czech")
    open_game(page, game["id"])
    page.click("#btn-draw")
    expect(page.locator("#confirm-text")).to_contain_text("White offers a draw")
    page.click("#confirm-yes")
    expect(page.locator("#result-text")).to_have_text("Draw by agreement")


def test_drag_and_drop_a_piece(page: Page) -> None:
    game = api_game(page, variant="international")
    open_game(page, game["id"])
    start = square(page, "32").bounding_box()
    end = square(page, "28").bounding_box()
    assert start and end
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
    page.mouse.up()
    expect(page.locator("#move-list button.move")).to_have_count(1)
    wait_idle(page)
    assert moves_listed(page) == ["32-28"]


def _drag(page: Page, start: Any, end: tuple[float, float]) -> None:
    box = start.bounding_box()
    assert box
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(*end, steps=8)
    page.mouse.up()


def _centre(page: Page, label: str) -> tuple[float, float]:
    box = square(page, label).bounding_box()
    assert box
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_drag_works_with_a_piece_selected_and_off_the_board_cancels(page: Page) -> None:
    game = api_game(page, variant="international")
    open_game(page, game["id"])
    square(page, "32").click()                       # a piece is selected...
    expect(square(page, "32")).to_have_class("sq start")
    _drag(page, square(page, "33"), _centre(page, "29"))   # ...and another one is dragged
    expect(page.locator("#move-list button.move")).to_have_count(1)
    wait_idle(page)
    assert moves_listed(page) == ["33-29"]
    # dropped off the board: the piece goes back and nothing stays selected
    board = page.locator("#board").bounding_box()
    assert board
    _drag(page, square(page, "18"), (board["x"] + board["width"] + 40, board["y"] + 10))
    expect(page.locator("#board .sq.start")).to_have_count(0)
    assert board_pieces(page)["18"] == "black-man"
    _drag(page, square(page, "18"), _centre(page, "23"))  # the next drag works
    expect(page.locator("#move-list button.move")).to_have_count(2)
    wait_idle(page)
    assert moves_listed(page) == ["33-29", "18-23"]


def test_a_typed_move_takes_the_normal_path(page: Page) -> None:
    # while looking at an old position nothing changes the game: back to
    # the game first, then the typed move is played with the version it was chosen on
    game = api_game(page, variant="italian")
    for move in ["22-19", "11-15"]:
        assert page.request.post(f"/api/games/{game['id']}/moves", data={"move": move}).ok
    live = page.request.get(f"/api/games/{game['id']}").json()
    version, typed = live["version"], live["legal_moves"][0]
    open_game(page, game["id"])
    page.locator("#move-list button.move").first.click()
    expect(page.locator("#status")).to_contain_text("1")
    expect(page.locator("#move-input")).to_be_disabled()
    page.click("#btn-live")
    expect(page.locator("#btn-live")).to_be_hidden()
    with page.expect_request("**/moves*") as sent:
        page.fill("#move-input", typed["move"])
        page.press("#move-input", "Enter")
    assert sent.value.post_data_json == {"move": typed["move"], "version": version}
    expect(page.locator("#move-list button.move")).to_have_count(3)
    wait_idle(page)
    stored = page.request.get(f"/api/games/{game['id']}").json()
    assert stored["history"][-1] == typed["move"]
    assert board_pieces(page)[typed["to"]] == "white-man" and typed["from"] not in board_pieces(page)
    expect(page.locator("#move-list button.move.current")).to_have_text(typed["move"])

    # against the computer: the thinking indicator shows after a typed move
    game = api_game(page, variant="italian", opponent="computer")
    open_game(page, game["id"])
    page.evaluate("""() => { window.sawThinking = false;
        new MutationObserver(() => { if (!document.getElementById('thinking').hidden)
            window.sawThinking = true; }).observe(document.getElementById('thinking'),
            { attributes: true }); }""")
    page.fill("#move-input", "22-19")
    page.press("#move-input", "Enter")
    expect(page.locator("#move-list button.move")).to_have_count(2)
    assert page.evaluate("window.sawThinking") is True


def _miss_live_events(page: Page) -> None:
    """Cut the page off from the game's event stream (as a dropped connection would), so
    that it shows the game as it was when it loaded."""
    page.route("**/api/games/*/events*", lambda route: route.abort())


def test_a_stale_page_cannot_undo_a_move_it_never_saw(page: Page) -> None:
    game = api_game(page, variant="italian")
    assert page.request.post(f"/api/games/{game['id']}/moves", data={"move": "22-19"}).ok
    _miss_live_events(page)
    open_game(page, game["id"], live=False)
    # another window plays a move this page has not seen (its event stream is cut)
    assert page.request.post(f"/api/games/{game['id']}/moves", data={"move": "11-15"}).ok
    page.click("#btn-undo")
    expect(page.locator("#message")).to_contain_text("reload")
    expect(page.locator("#move-list button.move")).to_have_count(2)   # the page caught up
    stored = page.request.get(f"/api/games/{game['id']}").json()
    assert stored["history"] == ["22-19", "11-15"]


def test_phone_layout(browser: Any, base_url: str, tmp_path: Path) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, base_url=base_url, is_mobile=True,
        has_touch=True, device_scale_factor=2,
    )
    page = context.new_page()
    try:
        game = api_game(page, variant="brazilian", opponent="computer")
        open_game(page, game["id"])
        board = page.locator("#board").bounding_box()
        panel = page.locator(".side-panel").bounding_box()
        assert board and panel
        assert board["x"] >= 0 and board["x"] + board["width"] <= 390 + 0.5
        assert board["width"] > 300  # the board fills the phone's width
        assert panel["y"] >= board["y"] + board["height"]  # the panel goes below the board
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        # play by tapping
        first = game["legal_moves"][0]
        square(page, first["from"]).tap()
        square(page, first["to"]).tap()
        expect(page.locator("#move-list button.move")).to_have_count(2)
        wait_idle(page)
        page.screenshot(path=str(tmp_path / "phone.png"))
    finally:
        context.close()


def test_forty_move_counter_shows_once_past_thirty(page: Page) -> None:
    from damiera.rules.game import Game
    from damiera.rules.movegen import legal_moves
    from damiera.rules.variant import variant

    v = variant("italian")
    fen = "W:WK29,K30:BK3,K4"
    local = Game(v, fen)
    texts = []
    while local.moves_without_progress < 31:
        safe = [m for m in local.legal_moves
                if not any(r.captures for r in legal_moves(v, apply_after(local, m.raw)))]
        move = min(safe, key=lambda m: local.positions.count(apply_after(local, m.raw)))
        assert local.positions.count(apply_after(local, move.raw)) < 2
        local.play(move)
        texts.append(str(move))
    game = api_game(page, variant="italian", fen=fen)
    for text in texts:
        r = page.request.post(f"/api/games/{game['id']}/moves", data={"move": text})
        assert r.status == 200, r.text()
    open_game(page, game["id"])
    expect(page.locator("#counter")).to_have_text("Moves without capture or promotion: 31 of 40")


def apply_after(game: Any, move: Any) -> Any:
    from damiera.rules.movegen import apply_move

    return apply_move(game.position, move)


@pytest.mark.parametrize("vid", list(VARIANTS))
def test_each_variant_against_the_computer_from_the_menu(page: Page, vid: str) -> None:
    """New game from the ☰ menu with the default side (the side that moves first), three
    moves by clicking, and the board turned around with the flip button."""
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    page.select_option("#ng-variant", vid)
    page.select_option("#ng-opponent", "computer:2")
    page.click("#ng-start")
    page.wait_for_url("**/game/*")
    page.wait_for_selector("body[data-ready]")
    wait_idle(page)
    game_id = page.url.rsplit("/", 1)[1]
    first = VARIANTS[vid].first_to_move.word
    # your side is at the bottom: the first square of your first row is low on the screen
    game = page.request.get(f"/api/games/{game_id}").json()
    assert game["side"] == first
    for n in range(3):
        game = page.request.get(f"/api/games/{game_id}").json()
        if game["result"]:
            break
        move = game["legal_moves"][0]
        for label in move["path"]:
            square(page, label).click()
        expect(page.locator("#move-list button.move")).to_have_count(2 * (n + 1))
        wait_idle(page)
    y = lambda label: square(page, label).bounding_box()["y"]
    mover = game["legal_moves"][0]["from"] if game["legal_moves"] else None
    if mover:
        before = y(mover)
        page.click("#btn-flip")
        assert y(mover) != before


def test_a_second_window_on_a_changed_game_is_refused_and_refreshed(page: Page) -> None:
    game = api_game(page, variant="italian")
    other = page.context.new_page()
    _miss_live_events(other)      # a window whose event stream dropped: it never saw the move
    open_game(page, game["id"])
    open_game(other, game["id"], live=False)
    square(page, "22").click()
    square(page, "19").click()
    expect(page.locator("#move-list button.move")).to_have_count(1)
    wait_idle(page)
    square(other, "21").click()   # the other window still shows the start position
    square(other, "17").click()
    expect(other.locator("#message")).to_contain_text("the game has changed")
    other.wait_for_selector("#board:not(.busy)")
    expect(other.locator("#move-list button.move")).to_have_count(1)
    assert board_pieces(other)["19"] == "white-man"
    stored = page.request.get(f"/api/games/{game['id']}").json()
    assert stored["history"] == ["22-19"]


def test_reload_while_the_computer_thinks_shows_its_reply(page: Page, site: Any) -> None:
    import asyncio
    import threading

    service = site.state.service
    working = service.computer.choose
    # The reply is held until the reloaded page has been checked (a fixed delay raced with a
    # slow reload on a loaded machine), and let go after at most 30 s whatever happens.
    release = threading.Event()

    async def slow(*args: Any, **kw: Any) -> Any:
        await asyncio.to_thread(release.wait, 30)
        return await working(*args, **kw)

    game = api_game(page, variant="czech", opponent="computer")
    open_game(page, game["id"])
    service.computer.choose = slow
    try:
        move = game["legal_moves"][0]
        square(page, move["from"]).click()
        square(page, move["to"]).click()
        expect(page.locator("#thinking")).to_be_visible()
        # The page shows "thinking" as soon as the move is sent: reload only once the server
        # has stored it (on a loaded machine the reload could overtake the request).
        page.wait_for_function(
            """id => fetch('/api/games/' + id).then(r => r.json()).then(g => g.history.length > 0)""",
            arg=game["id"], polling=100)
        page.reload()
        page.wait_for_selector("body[data-ready]")
        expect(page.locator("#thinking")).to_be_visible()
        assert moves_listed(page) == [move["move"]]
        release.set()
        expect(page.locator("#move-list button.move")).to_have_count(2, timeout=WAIT_MS)
        wait_idle(page)
        expect(page.locator("#thinking")).to_be_hidden()
    finally:
        release.set()
        service.computer.choose = working


def test_an_interrupted_reply_is_played_when_the_page_opens(page: Page, site: Any) -> None:
    service = site.state.service
    working = service.computer.choose

    game = api_game(page, variant="brazilian", opponent="computer")
    open_game(page, game["id"])
    calls: list[int] = []

    async def broken(*args: Any, **kw: Any) -> Any:
        calls.append(1)
        if len(calls) <= 2:  # the reply and the page's one retry fail
            raise RuntimeError("search crashed")
        return await working(*args, **kw)

    service.computer.choose = broken
    try:
        move = game["legal_moves"][0]
        square(page, move["from"]).click()
        square(page, move["to"]).click()
        expect(page.locator("#message")).to_contain_text("search crashed")
        wait_idle(page)
        assert moves_listed(page) == [move["move"]]  # your move was kept
    finally:
        service.computer.choose = working
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#move-list button.move")).to_have_count(2)
    wait_idle(page)
    assert moves_listed(page)[0] == move["move"]


def test_a_multi_capture_can_be_dropped_on_its_last_square(page: Page) -> None:
    game = api_game(page, variant="american", fen="W:W30:B25,17,1")
    open_game(page, game["id"])
    start = square(page, "30").bounding_box()
    end = square(page, "14").bounding_box()
    assert start and end
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
    page.mouse.up()
    expect(page.locator("#move-list button.move")).to_have_count(1)
    wait_idle(page)
    assert moves_listed(page) == ["30x21x14"]
    assert board_pieces(page) == {"14": "white-man", "1": "black-man"}


@pytest.mark.parametrize(
    ("vid", "fen", "clicks", "reason"),
    [
        ("italian", "W:W22,32:BK18", ["22", "13"], "a man cannot take a king"),
        ("czech", "W:We3,Kh6:Bd4,b6,g7", ["e3"],
         "Czech draughts: a king that can capture must capture"),
        ("american", "W:W22,30:B18", ["30"], "a capture is mandatory"),
    ],
)
def test_refusals_in_the_rules_own_terms(page: Page, vid: str, fen: str, clicks: list[str],
                                         reason: str) -> None:
    game = api_game(page, variant=vid, fen=fen)
    open_game(page, game["id"])
    before = board_pieces(page)
    for label in clicks:
        square(page, label).click()
    expect(page.locator("#message")).to_contain_text(reason)
    wait_idle(page)
    assert board_pieces(page) == before
    assert page.request.get(f"/api/games/{game['id']}").json()["history"] == []
