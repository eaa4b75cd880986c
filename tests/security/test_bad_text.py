"""Text no person types, sent to every route: lone surrogate escapes in JSON, a NUL in an
id, markup in a page's embedded JSON, Unicode spaces in a PDN file. Each gets a clear 4xx
answer (or a correct result), never a 500 or a 503, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from damiera.web.store import StorageError
from tests.security.conftest import new_game


@pytest.fixture
def db(database_url: str) -> str:
    """Ids reach the database: these tests run on SQLite and on PostgreSQL."""
    return database_url


LONE = [
    ("/api/pdn/import", '{"pdn": "[Event \\"\\ud800\\"]\\n1. 32-28 *"}'),
    ("/api/analysis/reviews", '{"variant": "international", "moves": ["\\ud800"]}'),
    ("/api/analysis/reviews", '{"variant": "international", "moves": ["32-28\\uDFFF"]}'),
    ("/api/games", '{"variant": "italian\\udc00"}'),
    ("/api/pdn/replay", '{"variant": "italian", "moves": ["\\ud83d"]}'),
]


@pytest.mark.parametrize(("path", "body"), LONE)
def test_a_lone_surrogate_escape_in_a_json_body_is_refused_with_400(
        alice: TestClient, path: str, body: str) -> None:
    r = alice.post(path, content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert "surrogate" in r.json()["error"]


@pytest.mark.parametrize("body", [
    b'{"pdn": "[Event \\"\xed\xa0\x80\\"]\\n1. 32-28 *"}',   # a surrogate's bytes
    b'{"variant": "itali\xe0n"}',                                 # Latin-1, not UTF-8
])
def test_a_body_that_is_not_utf8_is_refused_with_400(alice: TestClient, body: bytes) -> None:
    for path in ("/api/pdn/import", "/api/games"):
        r = alice.post(path, content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400, r.text
        assert "not UTF-8" in r.json()["error"]


def test_a_surrogate_pair_is_one_character_and_is_read(alice: TestClient) -> None:
    """A whole pair is a character; an escaped backslash before "ud800" is plain text (which
    PDN's own string escape then reads as "ud800")."""
    body = '{"pdn": "[Event \\"\\ud83d\\ude00 \\\\ud800\\"]\\n1. 32-28 *"}'
    r = alice.post("/api/pdn/import", content=body,
                   headers={"content-type": "application/json"})
    assert r.status_code == 200, r.text
    assert r.json()["games"][0]["tags"]["Event"] == "\U0001f600 ud800"


def test_a_nul_in_a_game_id_is_an_unknown_game_on_every_route(alice: TestClient) -> None:
    gid = new_game(alice)["id"]
    bad = gid[:4] + "%00" + gid[4:]
    routes = [("get", f"/api/games/{bad}", None), ("delete", f"/api/games/{bad}", None),
              ("post", f"/api/games/{bad}/moves", {"move": "22-19"}),
              ("post", f"/api/games/{bad}/reply", None),
              ("post", f"/api/games/{bad}/undo", {}),
              ("post", f"/api/games/{bad}/resign", {}),
              ("post", f"/api/games/{bad}/draw", {}),
              ("get", f"/api/games/{bad}/explain?square=22", None),
              ("get", f"/api/games/{bad}/pdn", None)]
    for method, path, body in routes:
        r = alice.request(method, path, json=body)
        assert r.status_code == 404, (path, r.status_code, r.text)
        assert r.json()["error"]
    r = alice.post("/api/analysis/reviews", json={"game_id": "ab\u0000cd"})
    assert r.status_code == 404, r.text
    page = alice.get(f"/game/{bad}")
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    analysis = alice.get(f"/analysis?game={bad}")
    assert analysis.status_code == 200 and "text/html" in analysis.headers["content-type"]
    assert alice.get(f"/api/games/{gid}").json()["history"] == []   # nothing changed


class _Scripts(HTMLParser):
    """The text of every ``<script>`` element, as a browser's parser splits the page."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.texts: list[str] = []
        self.count = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self.count += 1
            self.inside = True
            self.texts.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self.inside = False

    def handle_data(self, data: str) -> None:
        if self.inside:
            self.texts[-1] += data


@pytest.mark.parametrize("fen", ["<!--<script>", "</script><script>alert(1)</script>",
                                 "W:W1</SCRIPT>&amp;'\u2028"])
def test_markup_in_a_page_s_json_is_escaped(alice: TestClient, fen: str) -> None:
    r = alice.get("/analysis", params={"variant": "italian", "fen": fen})
    assert r.status_code == 200
    block = re.search(r'<script type="application/json" id="page-data">(.*?)</script>',
                      r.text, re.DOTALL)
    assert block is not None
    assert "<" not in block.group(1) and ">" not in block.group(1)   # no markup at all
    assert json.loads(block.group(1))["initial"]["fen"] == fen       # the same text
    parsed = _Scripts()
    parsed.feed(r.text)
    assert parsed.count == r.text.count("<script")                 # every script still there


def test_a_pdn_import_with_a_non_breaking_space_is_read(alice: TestClient) -> None:
    r = alice.post("/api/pdn/import",
                   json={"pdn": '[GameType "20"]\n1.\u00a032-28 19-23\u2028*\n'})
    assert r.status_code == 200, r.text
    (game,) = r.json()["games"]
    assert game["error"] is None and game["moves"] == ["32-28", "19-23"]


def test_a_page_whose_database_fails_is_an_error_page_in_the_request_language(
        app: FastAPI, alice: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    gid = new_game(alice)["id"]

    def failing(_game_id: str) -> None:
        raise StorageError("the database failed: gone", why="gone")

    monkeypatch.setattr(app.state.service.store, "load", failing)
    page = alice.get(f"/game/{gid}?lang=it")
    assert page.status_code == 503 and page.headers["content-type"].startswith("text/html")
    assert "Il sito non riesce a raggiungere le sue partite" in page.text
    api = alice.get(f"/api/games/{gid}")
    assert api.status_code == 503 and api.json()["error"] == "the database failed: gone"


def test_the_page_of_a_game_that_does_not_exist_is_in_the_request_language(
        alice: TestClient) -> None:
    for path in ("/game/ab%00cd?lang=ar", "/game/nosuchgame?lang=ar", "/nowhere?lang=ar"):
        page = alice.get(path)
        assert page.status_code == 404 and 'dir="rtl"' in page.text
        assert "There is no game" not in page.text and "does not exist" not in page.text, path
