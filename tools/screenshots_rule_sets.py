"""Take the screenshots of the rule sets of docs/rules.md in docs/screenshots/ with Playwright
and Debian's Chromium, on a fresh site (tools/screenshots.py's ``serve_and_shoot``).

    .venv/bin/python tools/screenshots_rule_sets.py [OUT_DIR]

Writes ``thai_game.png`` (a Thai game on one screen from the start, every move entered by
clicks: 25-21 6-10 21-17 10-14, then Black's capture 17x10 and White's reply, a capture
too) and ``pool_game.png`` (a Pool checkers game: 11-16 23-19, Black's capture 16x23 and
White's recapture), ``rules-thai-ru.png`` (the Thai rules page in Russian, at the diagram
of a king that turns straight back), ``frisian_game.png`` (a Frisian game: 31-26 16-21 32-27,
Black's capture 21x32, and White's reply 33x31, a capture along the row),
``rules-frisian-en.png`` (the Frisian rules page at its capture-by-value diagram),
``custom_rule_set.png`` (a custom rule set's page: Russian men and kings on a 10x10 board
with the majority rule and breakthrough), ``turkish_game.png`` (a Turkish game on the board
where all 64 squares play: d3-d4 d6-d5, then White's compulsory capture d4xd6xd8 over two
men, crowned on the far row) and ``rules-turkish-en.png`` (the Turkish rules page at the
diagram of a capture that crosses a square freed during the same move).
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import Page
from screenshots import _game, _wait, desktop_page, serve_and_shoot

from damiera.web.custom.example import example_body


def _click_move(page: Page, move: str) -> None:
    """Enter a move as a player does: its start square, then each landing square."""
    squares = move.replace("x", "-").split("-")
    for square in squares:
        page.click(f'#board [data-square="{square}"]')
    _wait(page)


def _play(page: Page, variant: str, moves: list[str]) -> None:
    game_id = _game(page, variant=variant)
    page.goto(f"/game/{game_id}?lang=en")
    _wait(page)
    for move in moves:
        _click_move(page, move)
    # The reply: the first legal move the server lists (a capture, which is compulsory).
    state = page.request.get(f"/api/games/{game_id}").json()
    reply = state["legal_moves"][0]
    assert reply["captures"], reply
    _click_move(page, "x".join(reply["path"]))


def shoot(base_url: str, out: Path) -> list[Path]:
    made = []
    with desktop_page(base_url) as (_, page):
        _play(page, "thai", ["25-21", "6-10", "21-17", "10-14", "17x10"])
        made.append(out / "thai_game.png")
        page.screenshot(path=str(made[-1]))
        _play(page, "pool", ["11-16", "23-19", "16x23"])
        made.append(out / "pool_game.png")
        page.screenshot(path=str(made[-1]))
        page.goto("/ru/rules/thai")
        page.locator('figure[data-diagram="thai-removed-at-once"]').scroll_into_view_if_needed()
        made.append(out / "rules-thai-ru.png")
        page.screenshot(path=str(made[-1]))
        _play(page, "frisian", ["31-26", "16-21", "32-27", "21x32"])
        made.append(out / "frisian_game.png")
        page.screenshot(path=str(made[-1]))
        page.goto("/en/rules/frisian")
        page.locator('figure[data-diagram="frisian-value"]').scroll_into_view_if_needed()
        made.append(out / "rules-frisian-en.png")
        page.screenshot(path=str(made[-1]))
        made.append(out / "custom_rule_set.png")
        shoot_custom_rule_set(page, made[-1])
        _play(page, "turkish", ["d3-d4", "d6-d5"])
        made.append(out / "turkish_game.png")
        page.screenshot(path=str(made[-1]))
        page.goto("/en/rules/turkish")
        page.locator('figure[data-diagram="turkish-removed-at-once"]').scroll_into_view_if_needed()
        made.append(out / "rules-turkish-en.png")
        page.screenshot(path=str(made[-1]))
    return made


def shoot_custom_rule_set(page: Page, path: Path) -> None:
    """The page of the example custom rule set (:mod:`damiera.web.custom.example`) made
    through the API, its first diagram drawn."""
    url = page.request.post("/api/custom", data=example_body()).json()["url"]
    page.goto(url + "?lang=en")
    page.locator("figure.diagram svg [data-piece]").first.wait_for()
    page.screenshot(path=str(path))


if __name__ == "__main__":
    sys.exit(serve_and_shoot(shoot, sys.argv[1:]))
