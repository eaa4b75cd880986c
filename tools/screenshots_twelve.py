"""Take the screenshots of the 12x12 rule sets (docs/rules.md) in docs/screenshots/ with
Playwright and Debian's Chromium, on a fresh site (tools/screenshots.py's ``serve_and_shoot``).

    .venv/bin/python tools/screenshots_twelve.py [OUT_DIR]

Writes ``canadian_game.png`` (a Canadian game on the 12x12 board, every move entered by
clicks: 46-40 27-34, then White's compulsory capture 40x27) and ``rules-malaysian-en.png``
(the Malaysian rules page at the diagram of a man that captures forwards only).
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import Page
from screenshots import _game, _wait, desktop_page, serve_and_shoot
from screenshots_rule_sets import _click_move


def _canadian_game(page: Page) -> None:
    game_id = _game(page, variant="canadian")
    page.goto(f"/game/{game_id}?lang=en")
    _wait(page)
    for move in ("46-40", "27-34", "40x27"):
        _click_move(page, move)


def shoot(base_url: str, out: Path) -> list[Path]:
    made = []
    with desktop_page(base_url) as (_, page):
        _canadian_game(page)
        made.append(out / "canadian_game.png")
        page.screenshot(path=str(made[-1]))
        page.goto("/en/rules/malaysian")
        page.locator('figure[data-diagram="malaysian-man-forward"]').scroll_into_view_if_needed()
        made.append(out / "rules-malaysian-en.png")
        page.screenshot(path=str(made[-1]))
    return made


if __name__ == "__main__":
    sys.exit(serve_and_shoot(shoot, sys.argv[1:]))
