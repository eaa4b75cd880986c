"""Seats in the browser: a second browser opening a shared game link sees the
game and cannot move; the API docs page works under the site's Content-Security-Policy."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

Page = Any


def _fresh_page(browser: Any, base_url: str) -> tuple[Any, Page, list[str]]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=base_url)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.set_default_timeout(15000)
    return context, page, errors


def test_a_second_browser_on_a_shared_link_sees_the_game_and_cannot_move(
    browser: Any, base_url: str
) -> None:
    owner_ctx, owner, owner_errors = _fresh_page(browser, base_url)
    guest_ctx, guest, guest_errors = _fresh_page(browser, base_url)
    try:
        r = owner.request.post("/api/games", data={"variant": "italian", "opponent": "friend"})
        assert r.status == 201
        gid = r.json()["id"]
        owner.goto(f"/game/{gid}")
        owner.wait_for_selector("body[data-ready]")
        owner.locator('#board [data-square="22"]').click()
        # the page draws the move at once; the guest below must find it stored
        with owner.expect_response(lambda r: f"/api/games/{gid}/moves" in r.url
                                   and r.request.method == "POST") as stored:
            owner.locator('#board [data-square="19"]').click()
        assert stored.value.status == 200
        expect(owner.locator("#move-list button.move")).to_have_count(1)

        guest.goto(f"/game/{gid}")                       # the shared link
        guest.wait_for_selector("body[data-ready]")
        piece = guest.locator('#board [data-square="19"] [data-piece]')
        expect(piece).to_have_count(1)                   # it sees the game as it is
        expect(guest.locator("#move-list button.move")).to_have_count(1)
        for control in ("#type-move", "#btn-undo", "#btn-resign", "#btn-draw"):
            expect(guest.locator(control)).to_be_hidden()
        guest.locator('#board [data-square="10"]').click()   # Black's man: nothing happens
        guest.locator('#board [data-square="14"]').click()
        # the server refuses a guest's move even when sent by hand
        r = guest.request.post(f"/api/games/{gid}/moves", data={"move": "10-14"})
        assert r.status == 403
        guest.reload()
        guest.wait_for_selector("body[data-ready]")
        expect(guest.locator("#move-list button.move")).to_have_count(1)
        assert not guest_errors and not owner_errors, (guest_errors, owner_errors)
    finally:
        owner_ctx.close()
        guest_ctx.close()


def test_the_api_docs_work_offline_under_the_content_security_policy(
    browser: Any, base_url: str
) -> None:
    context, page, errors = _fresh_page(browser, base_url)
    try:
        context.route("**/*", lambda route: route.abort()
                      if not route.request.url.startswith(base_url) else route.continue_())
        page.goto("/docs")
        expect(page.locator("#swagger-ui .info .title")).to_contain_text("Damiera")
        expect(page.locator("#swagger-ui .opblock").first).to_be_visible()
        assert not errors, errors
    finally:
        context.close()
