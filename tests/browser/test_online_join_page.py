"""The invitation page in the browser: a client that looks like a browser but does not say
it navigates (an old browser, an app's previewer) gets the page instead of the seat, and a
person takes the seat with its button, named, and plays."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import browser_pages

OLD_SAFARI = ("Mozilla/5.0 (iPhone; CPU iPhone OS 15_7 like Mac OS X) AppleWebKit/605.1.15 "
              "(KHTML, like Gecko) Version/15.6 Mobile/15E148 Safari/604.1")


def test_the_take_the_seat_button_gives_the_seat_a_plain_get_did_not(
    browser: Any, base_url: str,
) -> None:
    with browser_pages(browser, [base_url] * 2) as (pages, errors):
        host, guest = pages
        host.goto("/")
        made = host.request.post("/api/games", data={
            "opponent": "online", "variant": "russian", "side": "white", "clock": "5+3",
            "name": "Wanda"}).json()
        # what such a client is sent (an API request: no Sec-Fetch headers)
        html = guest.context.request.get(made["invite_url"],
                                         headers={"User-Agent": OLD_SAFARI}).text()
        assert 'id="take-seat"' in html
        assert host.request.get(f"/api/games/{made['id']}").json()["online"]["seated"] == {
            "white": True, "black": False}
        guest.route("**/join/*", lambda route: route.fulfill(
            status=200, content_type="text/html; charset=utf-8", body=html)
            if route.request.method == "GET" else route.continue_())
        guest.goto(made["invite_url"])
        guest.wait_for_selector("body[data-ready]")
        expect(guest.locator("#join")).to_contain_text("Wanda")
        guest.fill("#join-name", "Bruno")
        guest.click("#take-seat")
        guest.wait_for_url(f"**/game/{made['id']}")
        guest.wait_for_selector("body[data-ready]")
        expect(guest.locator("#bar-bottom")).to_contain_text("Black · You (Bruno)")
        assert not errors, errors
