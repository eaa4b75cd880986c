"""The HTML pages: the play page's data, the menu, my games, errors."""

from __future__ import annotations

import json
import re

from fastapi.testclient import TestClient

from tests.web.conftest import new_game


def _page_data(html: str) -> dict[str, object]:
    found = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html, re.DOTALL)
    assert found
    data: dict[str, object] = json.loads(found.group(1))
    return data


def test_home_page_has_the_menu_and_no_game(client: TestClient):
    r = client.get("/")
    assert r.status_code == 200
    html = r.text
    assert '<html lang="en" dir="ltr">' in html
    assert 'id="menu-button"' in html and "☰" in html
    for words in ["New game", "My games", "Rules", "Language", "Captures optional"]:
        assert words in html
    assert 'value="computer:3"' in html and 'value="friend"' in html
    data = _page_data(html)
    assert data["game"] is None
    assert [v["id"] for v in data["variants"]] == [  # type: ignore[attr-defined]
        "american", "italian", "czech", "russian", "brazilian", "spanish", "international",
        "pool", "thai", "frisian", "frysk", "turkish", "canadian", "malaysian"]
    assert data["strings"]["thinking"] == "The computer is thinking…"  # type: ignore[index]


def test_game_page_carries_the_game(client: TestClient):
    game = new_game(client, variant="brazilian")
    r = client.get(f"/game/{game['id']}")
    assert r.status_code == 200
    assert "<title>Brazilian draughts · Damiera</title>" in r.text
    data = _page_data(r.text)
    assert data["game"]["id"] == game["id"]  # type: ignore[index]
    assert f'href="/api/games/{game["id"]}/pdn"' in r.text


def test_unknown_game_page_is_a_404_page(client: TestClient):
    r = client.get("/game/does-not-exist")
    assert r.status_code == 404
    assert "There is no game with this address." in r.text
    r = client.get("/no/such/page")
    assert r.status_code == 404 and "<html" in r.text


def test_my_games_page_empty_for_a_new_browser(db_url: str):
    from damiera.web.app import create_app

    with TestClient(create_app(db_url, computer_workers=1)) as fresh:
        r = fresh.get("/games")
        assert r.status_code == 200 and "No games yet" in r.text


def test_static_files_are_served(client: TestClient):
    for name in ["board.js", "play.js", "menu.js", "style.css", "favicon.svg"]:
        assert client.get(f"/static/{name}").status_code == 200
