"""Take the screenshots of games online in docs/screenshots/ with Playwright and Debian's
Chromium, on a fresh site with its own SQLite file in a temporary folder: three browsers of
their own (two players, a watcher).

    .venv/bin/python tools/live_screenshots.py [OUT_DIR]

Writes ``online-invite.png`` (the invitation dialog: link, copy button, QR code),
``online-lobby.png`` (the lobby with open challenges), ``online-watcher.png`` (an Italian game
seen by a watcher after six moves) and ``online-draw-offer.png`` (the draw offer as the
opponent sees it).
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import Page, expect, sync_playwright

from damiera.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def _ready(page: Page) -> None:
    page.wait_for_selector("body[data-ready]")


def _move(page: Page, game_id: str) -> None:
    game = page.request.get(f"/api/games/{game_id}").json()
    for square in game["legal_moves"][0]["path"]:
        page.click(f'#board [data-square="{square}"]')


def shoot(base_url: str, out: Path) -> list[Path]:
    made: list[Path] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        white, black, watcher = (
            browser.new_context(viewport={"width": 1280, "height": 860}, base_url=base_url)
            .new_page() for _ in range(3))
        white.goto("/")
        _ready(white)
        white.select_option("#ng-variant", "italian")
        white.select_option("#ng-opponent", "online")
        white.select_option("#ng-clock", "5+3")
        white.fill("#ng-name", "Giulia")
        white.click("#ng-start")
        expect(white.locator("#invite-qr")).to_be_visible()
        white.wait_for_timeout(300)
        made.append(out / "online-invite.png")
        white.screenshot(path=str(made[-1]))

        link = white.input_value("#invite-link")
        game_id = white.url.rsplit("/", 1)[1]
        black.goto(link)
        _ready(black)
        black.fill("#name-input", "Marco")
        black.click("#name-save")
        watcher.goto(link)
        _ready(watcher)
        for n in range(6):
            page = white if n % 2 == 0 else black
            _move(page, game_id)
            expect(watcher.locator("#move-list button.move")).to_have_count(n + 1)
        watcher.wait_for_timeout(500)
        made.append(out / "online-watcher.png")
        watcher.screenshot(path=str(made[-1]))

        white.click("#btn-offer-draw")
        expect(black.locator("#draw-accept")).to_be_visible()
        made.append(out / "online-draw-offer.png")
        black.screenshot(path=str(made[-1]))

        for page, body in ((white, {"variant": "international", "clock": "5+3",
                                    "side": "white", "name": "Giulia"}),
                           (black, {"variant": "russian", "clock": None, "side": "random",
                                    "name": "Marco"}),
                           (black, {"variant": "italian", "clock": "10+0", "side": "black",
                                    "name": "Marco", "optional_capture": False})):
            r = page.request.post("/api/challenges", data=body)
            assert r.status == 201, r.text()
        watcher.goto("/lobby")
        _ready(watcher)
        expect(watcher.locator("#challenge-rows tr")).to_have_count(3)
        made.append(out / "online-lobby.png")
        watcher.screenshot(path=str(made[-1]))
        browser.close()
    return made


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(f"sqlite:///{folder}/games.sqlite3", computer_workers=1)
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0,
                                               log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
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
    raise SystemExit(main(sys.argv[1:]))
