"""The play page applies the live stream's ``change`` events exactly as the server defines
them (``static/live.js`` ``applyChange`` against ``damiera.web.live.events.apply_change``),
on the changes of a real game: quiet moves, captures, a takeback, offers, a result."""

from __future__ import annotations

import itertools
from typing import Any

from damiera.web.live.events import apply_change, change_between

Page = Any


def _game(page: Page, gid: str) -> dict[str, Any]:
    data: dict[str, Any] = page.request.get(f"/api/games/{gid}").json()
    return data


def test_the_page_applies_each_change_as_the_server_defines_it(page: Page) -> None:
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    made = page.request.post("/api/games", data={"variant": "international",
                                                 "opponent": "friend", "clock": "5+3"})
    assert made.status == 201, made.text()
    gid = made.json()["id"]
    versions = [_game(page, gid)]
    for move in ("32-28", "19-23", "28x19", "14x23"):
        r = page.request.post(f"/api/games/{gid}/moves", data={"move": move})
        assert r.ok, r.text()
        versions.append(_game(page, gid))
    assert page.request.post(f"/api/games/{gid}/undo").ok          # a takeback
    versions.append(_game(page, gid))
    assert page.request.post(f"/api/games/{gid}/resign").ok        # a result
    versions.append(_game(page, gid))
    page.goto(f"/game/{gid}")
    page.wait_for_selector("body[data-ready]")
    pairs = [(a, change_between(a, b)) for a, b in itertools.pairwise(versions)]
    pairs.append((versions[-1], change_between(versions[-1], versions[0])))   # any way back
    applied = page.evaluate("""async (pairs) => {
        const { applyChange } = await import("/static/live.js");
        return pairs.map(([game, change]) => applyChange(game, change));
    }""", pairs)
    assert applied == [apply_change(game, change) for game, change in pairs]
    assert applied[:-1] == versions[1:] and applied[-1] == versions[0]
    assert any(c["maps"].get("pieces", {}).get("drop") for _g, c in pairs)
    assert any(c["lists"].get("history", [9])[0] < len(g["history"]) for g, c in pairs)
