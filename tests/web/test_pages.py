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


def test_a_page_address_out_of_bounds_gets_the_error_page_with_the_reason(client: TestClient):
    # Each page refuses a query parameter it cannot take with the site's error page (as an
    # unknown game or custom rule set does), not the API's JSON.
    cases = [
        ("/analysis?optional_capture=maybe", "optional_capture (query parameter)"),
        ("/analysis?game=" + "g" * 65, "game (query parameter)"),
        ("/analysis?fen=" + "W" * 1001, "fen (query parameter)"),
        ("/puzzles/daily?variant=" + "x" * 300, "variant (query parameter)"),
        ("/train?variant=" + "x" * 300, "variant (query parameter)"),
    ]
    for path, reason in cases:
        r = client.get(path)
        assert r.status_code == 422, path
        assert r.headers["content-type"].startswith("text/html"), path
        assert "<html" in r.text and reason in r.text, path
        assert "The page cannot open this address" in r.text
    r = client.get("/train?variant=" + "x" * 300, headers={"accept-language": "ru"})
    assert r.status_code == 422 and "Страница не может открыть этот адрес" in r.text


def test_the_api_keeps_its_json_errors_for_the_same_bounds(client: TestClient):
    r = client.get("/api/train/session", params={"variant": "x" * 300})
    assert r.status_code == 422
    assert r.json() == {"error": "variant (query parameter): String should have at most 64 "
                                 "characters"}
    r = client.get("/api/analysis/position", params={"variant": "russian",
                                                     "optional_capture": "maybe"})
    assert r.status_code == 422 and "optional_capture" in r.json()["error"]
    r = client.post("/join/nosuchsecret", json={"name": "x" * 5000})
    assert r.headers["content-type"].startswith("application/json")
