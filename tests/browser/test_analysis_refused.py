"""The analysis board when the server refuses its engine stream (429: this address has too
many analyses at once; 503: the site is busy): the page says why and when it tries again,
and does, instead of stopping silently."""

from __future__ import annotations

import concurrent.futures
import re
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest
from playwright.sync_api import expect

from tests.conftest import WAIT_SECONDS

Page = Any
T = TypeVar("T")


@pytest.fixture(autouse=True)
def short_searches(site: Any) -> Iterator[None]:
    pool = site.state.analysis_pool
    pool.analysis_movetime, pool.review_movetime = 2.0, 0.03
    yield


def _on_server(site: Any, work: Callable[[], T]) -> T:
    """Run ``work`` in the server's event loop (the fair share's tickets live there)."""
    loop = site.state.live._loop
    assert loop is not None
    done: concurrent.futures.Future[T] = concurrent.futures.Future()

    def run() -> None:
        try:
            done.set_result(work())
        except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
            done.set_exception(exc)

    loop.call_soon_threadsafe(run)
    return done.result(timeout=WAIT_SECONDS)


def _start_engine(page: Page) -> None:
    page.goto("/analysis?variant=italian")
    page.wait_for_selector("body[data-ready]")
    page.click("#ed-analyse")
    page.click("#engine-toggle")


def test_a_refused_analysis_says_why_and_starts_once_a_place_is_free(
    page: Page, site: Any,
) -> None:
    pool = site.state.analysis_pool
    limit = pool.shares["analyse"].per_client
    held = _on_server(site, lambda: [pool.ticket("analyse", "127.0.0.1")
                                     for _ in range(limit)])   # this address's places
    try:
        _start_engine(page)
        status = page.locator("#engine-status")
        expect(status).to_have_attribute("data-waiting", "429")
        expect(status).to_contain_text(re.compile(r"too many analyses.*again in \d+ s", re.IGNORECASE))
    finally:
        _on_server(site, lambda: [t.release() for t in held])
    expect(status).to_contain_text(re.compile(r"depth \d+"))       # tried again, and ran
    expect(page.locator("#pv-lines li")).to_have_count(1)
    expect(status).not_to_have_attribute("data-waiting", re.compile("."))


def test_a_busy_site_is_said_too(page: Page, site: Any) -> None:
    share = site.state.analysis_pool.shares["analyse"]
    saved = (share.free, share.max_waiting)

    def full() -> None:
        share.free, share.max_waiting = 0, 0       # no slot free and no room to wait

    _on_server(site, full)
    try:
        _start_engine(page)
        status = page.locator("#engine-status")
        expect(status).to_have_attribute("data-waiting", "503")
        expect(status).to_contain_text(re.compile(r"busy.*again in \d+ s", re.IGNORECASE))
    finally:
        def restore() -> None:
            share.free, share.max_waiting = saved
            share._grant()

        _on_server(site, restore)
    expect(status).to_contain_text(re.compile(r"depth \d+"))
