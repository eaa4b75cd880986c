"""Browser tests: the real site under Uvicorn, driven by Playwright on Debian's Chromium.

``make test`` installs the ``chromium`` package when ``/usr/bin/chromium`` is missing; these
tests never download a browser (no ``playwright install``). Without Chromium they are skipped
with the reason.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from damiera.web.app import create_app
from damiera.web.limits import Limits
from tests.conftest import WAIT_SECONDS, free_port

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

# Playwright's waits (milliseconds): generous on a busy machine, never a timing test.
WAIT_MS = WAIT_SECONDS * 1000 / 4


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The application object served to the browser (tests may reach into its service)."""
    db = tmp_path_factory.mktemp("browser") / "games.sqlite3"
    return create_app(f"sqlite:///{db}", computer_workers=1, computer_movetime=0.05,
                      limits=Limits(create_rate=1000.0, create_burst=1000,
                                    computer_per_client=100, learn_rate=1000.0,
                                    learn_burst=100_000))


@pytest.fixture(scope="session")
def base_url(site: Any) -> Iterator[str]:
    """The site on 127.0.0.1 (a free port) with a fresh SQLite file; the computer thinks at
    most 0.05 s a move."""
    app = site
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT_SECONDS
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=WAIT_SECONDS)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed (make test installs it)")
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=WAIT_MS)  # a busy 2-core machine can be slow

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any, base_url: str) -> Iterator[Any]:
    """A fresh browser context (own cookies) at desktop size; fails on JavaScript errors."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=base_url)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(WAIT_MS)
    yield pg
    context.close()
    assert not errors, errors


@contextmanager
def browser_pages(browser: Any, bases: list[str]) -> Iterator[tuple[list[Any], list[str]]]:
    """A fresh context (own cookies) on each base URL; JavaScript errors collected."""
    contexts, pages, errors = [], [], []
    for base in bases:
        context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=base)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.set_default_timeout(WAIT_MS)
        contexts.append(context)
        pages.append(page)
    try:
        yield pages, errors
    finally:
        for context in contexts:
            context.close()
