"""The new-game menu with a Hub engine configured: ``damiera hub`` itself
runs as the engine (a real subprocess) and opens the game from the menu."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from damiera.web.hub_engines import HubEngine, HubPlayers

ENGINE = HubEngine("Hubby", tuple(shlex.split(shlex.join([sys.executable, "-m", "damiera",
                                                           "hub"]))), ("italian",), "Damiera")


@pytest.fixture
def with_hub_engine(site: Any) -> Iterator[None]:
    """The session's site with one Hub engine (Italian only) while the test runs."""
    computer = site.state.service.computer
    before = computer.hub
    computer.hub = HubPlayers([ENGINE])
    site.state.hub_engines = [ENGINE]
    try:
        yield
    finally:
        computer.hub.close()
        computer.hub = before
        site.state.hub_engines = []


def test_a_hub_engine_from_the_menu_opens_the_game(page: Page, with_hub_engine: None) -> None:
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    option = page.locator('#ng-opponent option[value="hub:Hubby"]')
    expect(option).to_have_text("Hubby (Hub engine)")
    page.select_option("#ng-variant", "international")
    expect(option).to_be_disabled()          # it plays Italian only
    page.select_option("#ng-variant", "italian")
    expect(option).to_be_enabled()
    page.select_option("#ng-opponent", "hub:Hubby")
    page.select_option("#ng-side", "black")
    page.click("#ng-start")
    page.wait_for_url("**/game/*")
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#move-list button.move")).to_have_count(1)   # the engine opened
    expect(page.locator(".player-bar.top")).to_contain_text("Hubby")
