"""The PDN import page in a real Chromium: PDN pasted, its games listed with
a broken one's error placed by line, a game opened in replay mode, and continued from move N
against the computer as a new game of this browser."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from damiera import pdn
from damiera.rules.notation import move_text
from damiera.rules.position import write_fen

Page = Any

GOOD = """[Event "Club match"]
[White "Anna"]
[Black "Boris"]
[Result "2-0"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 14x23 3. 37-32 10-14 4. 41-37 5-10 5. 31-26 17-21
6. 26x17 11x22 7. 36-31 14-19 2-0

"""
BROKEN = """[Event "Typo"]
[White "Carla"]
[Black "Dario"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 99-98 *
"""


def pieces(page: Page) -> dict[str, str]:
    result: dict[str, str] = page.eval_on_selector_all(
        "#board [data-square]",
        """els => Object.fromEntries(els.filter(e => e.querySelector('[data-piece]'))
             .map(e => [e.dataset.square, e.querySelector('[data-piece]').dataset.piece]))""",
    )
    return result


def expected_pieces(fen: str) -> dict[str, str]:
    _turn, *sides = fen.split(":")
    out = {}
    for side in sides:
        color = "white" if side[0] == "W" else "black"
        for item in side[1:].split(","):
            king = item.startswith("K")
            out[item.lstrip("K")] = f"{color}-{'king' if king else 'man'}"
    return out


def test_paste_open_in_replay_and_continue_from_move_n_against_the_computer(
    page: Page, base_url: str
) -> None:
    page.goto("/import")
    page.fill("#imp-text", GOOD + BROKEN)
    page.click("#imp-read")
    rows = page.locator("#imp-list tbody tr")
    expect(rows).to_have_count(2)
    expect(page.locator("#imp-status")).to_contain_text("2")
    expect(rows.nth(0)).to_contain_text("Anna")
    expect(rows.nth(0)).to_contain_text("14")                       # plies
    expect(rows.nth(1).locator("td.bad")).to_contain_text("Line 15, column 25")

    # replay mode: the move list and the board at any ply
    rows.nth(1).locator("button.imp-open").click()           # the broken one opens too
    expect(page.locator("#imp-viewer")).to_have_attribute("data-game", "2")
    expect(page.locator("#imp-game-error")).to_contain_text("Line 15, column 25")
    expect(page.locator("#imp-moves button")).to_have_count(3)  # the moves before the error
    rows.nth(0).locator("button.imp-open").click()
    expect(page.locator("#imp-viewer")).to_have_attribute("data-game", "1")
    moves = page.locator("#imp-moves button")
    expect(moves).to_have_count(14)
    read = next(pdn.read_games(GOOD))
    positions = read.game.positions
    v = read.variant
    assert pieces(page) == expected_pieces(write_fen(v, positions[0]))
    page.click('#imp-moves button[data-ply="7"]')
    expect(page.locator("#imp-position")).to_contain_text("7")
    fen = write_fen(v, positions[7])
    assert pieces(page) == expected_pieces(fen)
    page.click("#nav-forward")
    page.click("#nav-back")
    expect(page.locator('#imp-moves button[aria-current="true"]')).to_have_attribute(
        "data-ply", "7")

    # continue from there against the computer (Black to move: the human takes Black)
    page.select_option("#imp-opponent", "computer:1")
    page.click("#imp-continue-button")
    page.wait_for_url(re.compile(r"/game/[A-Za-z0-9_-]+$"))
    game_id = page.url.rsplit("/", 1)[1]
    game = page.request.get(f"{base_url}/api/games/{game_id}").json()
    assert game["start_fen"] == write_fen(v, positions[0]) and game["opponent"] == "computer"
    assert game["fen"] == fen
    assert game["side"] == "black" and game["seats"] == ["black"]
    # the record's first seven moves are the new game's: listed, the last one marked; the
    # human (Black) moves next
    assert game["history"] == [move_text(v, p.move.raw) for p in read.plies[:7]]
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#move-list button.move")).to_have_count(7)
    last = read.plies[6].move.raw
    assert sorted(page.eval_on_selector_all(
        "#board .sq.last", "els => els.map(e => e.dataset.square)")) == sorted(
        [move_text(v, last).split("-")[0], move_text(v, last).split("-")[-1]])


def test_continuing_from_the_start_adds_no_empty_game_to_the_download(page: Page) -> None:
    """A game continued from a record's first position has no move yet: like "my games",
    "Download all my games" leaves it out until a move is played."""
    page.goto("/import")
    page.fill("#imp-text", GOOD)
    page.click("#imp-read")
    expect(page.locator("#imp-viewer")).to_have_attribute("data-game", "1")
    page.select_option("#imp-opponent", "friend")
    page.click("#imp-continue-button")
    page.wait_for_url(re.compile(r"/game/[A-Za-z0-9_-]+$"))
    game_id = page.url.rsplit("/", 1)[1]
    assert page.request.get(f"/api/games/{game_id}").json()["history"] == []
    assert "[Event" not in page.request.get("/api/pdn/my-games").text()
    page.goto("/games")
    expect(page.locator(f'#games tr[data-game-id="{game_id}"]')).to_have_count(0)
    assert page.request.post(f"/api/games/{game_id}/moves", data={"move": "32-28"}).ok
    download = page.request.get("/api/pdn/my-games").text()
    assert download.count("[Event") == 1 and "1. 32-28 *" in download


def test_upload_a_windows_1252_file(page: Page) -> None:
    page.goto("/import")
    data = GOOD.replace("Anna", "Zoë Müller").encode("cp1252")
    page.set_input_files("#imp-file", files=[
        {"name": "club.pdn", "mimeType": "application/octet-stream", "buffer": data}])
    rows = page.locator("#imp-list tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.nth(0)).to_contain_text("Zoë Müller")
    expect(page.locator("#imp-viewer")).to_have_attribute("data-game", "1")
    expect(page.locator("#imp-moves button")).to_have_count(14)
