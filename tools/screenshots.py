"""Take the play page's screenshots in docs/screenshots/ with Playwright and
Debian's Chromium, on a fresh site with its own SQLite file in a temporary folder.

    .venv/bin/python tools/screenshots.py [OUT_DIR]

Writes ``play-international-equal-captures.png`` (the king on 4 in
``W:WK4:B10,20,22,32,33,37,39`` after clicking 4 then 9: the two captures that end on 9
drawn), ``play-ar-message.png`` (an Italian game in Arabic with a refusal that lists moves),
``play-friend-clocks.png`` (a friend game with 5+3 clocks after two moves),
``analysis-equal-captures.png`` (the analysis board in the same position after 4 then 9,
asking which of the two captures), ``analysis-capture-choices.png`` (American
``W:WK22:B17,18,19,26,27`` after 22 then 13: 22x13 and 22x15x24x31x22x13 offered under the
board, the first pointed at) and ``pdn-import-ar.png`` (the import page in Arabic with
a two-game file read, one game broken, the first replayed to its seventh ply).
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import uvicorn
from playwright.sync_api import Browser, FilePayload, Page, sync_playwright

from damiera.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"

#: The file read on the import page: a finished game and one with an impossible move.
SAMPLE_PDN = """[Event "Club match"]
[White "Anna"]
[Black "Boris"]
[Result "2-0"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 14x23 3. 37-32 10-14 4. 41-37 5-10 5. 31-26 17-21
6. 26x17 11x22 7. 36-31 14-19 2-0

[Event "Typo"]
[White "Carla"]
[Black "Dario"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 99-98 *
"""


def _wait(page: Page) -> None:
    page.wait_for_selector("body[data-ready]")
    page.wait_for_selector("#board:not(.busy)")


def _game(page: Page, **body: object) -> str:
    r = page.request.post("/api/games", data={"opponent": "friend", **body})
    assert r.status == 201, r.text()
    game_id: str = r.json()["id"]
    return game_id


@contextmanager
def desktop_page(base_url: str) -> Iterator[tuple[Browser, Page]]:
    """Debian's Chromium, headless, and a 1280x860 page whose relative addresses go to
    ``base_url``; the browser (for more contexts) and the page, both closed on leaving."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 860},
                                          base_url=base_url)
            yield browser, context.new_page()
            context.close()
        finally:
            browser.close()


def shoot(base_url: str, out: Path) -> list[Path]:
    made = []
    with desktop_page(base_url) as (_, page):

        game_id = _game(page, variant="international", fen="W:WK4:B10,20,22,32,33,37,39")
        page.goto(f"/game/{game_id}")
        _wait(page)
        page.click('#board [data-square="4"]')
        page.click('#board [data-square="9"]')
        page.wait_for_selector("#board polyline.choice-path")
        made.append(out / "play-international-equal-captures.png")
        page.screenshot(path=str(made[-1]))

        game_id = _game(page, variant="italian")
        page.goto(f"/game/{game_id}?lang=ar")
        _wait(page)
        page.click('#board [data-square="21"]')
        page.click('#board [data-square="14"]')
        page.wait_for_selector("#message.error bdi")
        _wait(page)
        made.append(out / "play-ar-message.png")
        page.screenshot(path=str(made[-1]))

        page.goto("/?lang=en")
        _wait(page)
        game_id = _game(page, variant="russian", clock="5+3")
        for move in ["c3-d4", "f6-e5"]:
            page.request.post(f"/api/games/{game_id}/moves", data={"move": move})
        page.goto(f"/game/{game_id}")
        _wait(page)
        page.click('#board [data-square="d4"]')
        page.wait_for_timeout(1500)       # the running clock has visibly counted down
        made.append(out / "play-friend-clocks.png")
        page.screenshot(path=str(made[-1]))

        page.goto("/analysis?variant=international&fen=W%3AWK4%3AB10%2C20%2C22%2C32%2C33%2C37"
                  "%2C39&lang=en")
        page.wait_for_selector("body[data-ready]")
        page.click('#board [data-square="4"]')
        page.click('#board [data-square="9"]')
        page.wait_for_selector("#board polyline.choice-path")
        made.append(out / "analysis-equal-captures.png")
        page.screenshot(path=str(made[-1]))

        # 22x13 lies inside 22x15x24x31x22x13: picked from the choices under the board
        page.goto("/analysis?variant=american&fen=W%3AWK22%3AB17%2C18%2C19%2C26%2C27&lang=en")
        page.wait_for_selector("body[data-ready]")
        page.click('#board [data-square="22"]')
        page.click('#board [data-square="13"]')
        # pointed at (a hover would scroll)
        page.dispatch_event('#entry-choice-list button[data-move="22x13"]', "pointerenter")
        page.wait_for_selector("#board polyline.choice-path.focused")
        made.append(out / "analysis-capture-choices.png")
        page.evaluate("scrollTo(0, 0)")        # the whole page from its top (header and all)
        page.screenshot(path=str(made[-1]), full_page=True)

        page.goto("/import?lang=ar")
        sample: FilePayload = {"name": "club.pdn", "mimeType": "text/plain",
                               "buffer": SAMPLE_PDN.encode()}
        page.set_input_files("#imp-file", files=[sample])
        page.wait_for_selector('#imp-viewer[data-game="1"]')
        page.click('#imp-moves button[data-ply="7"]')
        made.append(out / "pdn-import-ar.png")
        page.screenshot(path=str(made[-1]), full_page=True)
    return made


def main(argv: list[str]) -> int:
    return serve_and_shoot(shoot, argv)


def serve_and_shoot(shoot: Callable[[str, Path], list[Path]], argv: list[str]) -> int:
    """Serve a fresh site (SQLite in a temporary folder) on a free port and run
    ``shoot(base_url, out_dir)`` against it; ``argv``: the output folder, if any."""
    out = Path(argv[0]) if argv else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(f"sqlite:///{tmp}/games.sqlite3", computer_workers=1,
                         computer_movetime=0.05)
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0,
                                               log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            if not thread.is_alive():
                print("the site did not start", file=sys.stderr)
                return 1
            time.sleep(0.05)
        port = server.servers[0].sockets[0].getsockname()[1]
        try:
            for path in shoot(f"http://127.0.0.1:{port}", out):
                print(path)
        finally:
            server.should_exit = True
            thread.join()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
