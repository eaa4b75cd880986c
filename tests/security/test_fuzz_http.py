"""Query strings, path segments and JSON bodies of any Unicode text (Hypothesis, awkward
characters often, lone surrogates both as percent-encoded bytes and as JSON escapes): every
route answers with a result or a clear 4xx (``{"error": ...}`` on the API), never a 5xx."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from damiera.web.app import create_app
from damiera.web.limits import Limits
from tests.security.unicode_text import any_text, text_with

QUICK = settings(max_examples=40, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow,
                                        HealthCheck.function_scoped_fixture])
#: Room for the examples' requests (the limits themselves are tested elsewhere).
ROOMY = Limits(create_rate=1000.0, create_burst=100_000, computer_per_client=100,
               import_rate=1000.0, import_burst=100_000, replay_rate=1000.0,
               replay_burst=100_000, learn_rate=1000.0, learn_burst=100_000)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str]]:
    """The site and one game of it (a friend game of this client's)."""
    db = Path(tmp_path_factory.mktemp("fuzz")) / "games.sqlite3"
    app = create_app(f"sqlite:///{db}", computer_workers=1, computer_movetime=0.01,
                     limits=ROOMY)
    app.state.analysis_pool.review_movetime = 0.01
    with TestClient(app, raise_server_exceptions=False) as client:
        r = client.post("/api/games", json={"variant": "italian", "opponent": "friend"})
        assert r.status_code == 201
        yield client, r.json()["id"]


def _q(text: str) -> str:
    """Percent-encoded as a browser would send it (a lone surrogate as invalid UTF-8)."""
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


def _check(r: Any) -> None:
    assert r.status_code < 500, (r.request.url, r.status_code, r.text[:300])
    if r.request.url.path.startswith("/api/") and r.status_code >= 400:
        assert isinstance(r.json()["error"], str), r.text[:300]


VALUES = ["international", "italian", "russian", "W:W31-50:B1-20", "W:Wc3:Bd4,f6", "22",
          "c3", "1", "0", "true", "it", "ar", "/games", "//evil.example", "<!--<script>",
          # a shipped Italian puzzle and its first move, a Czech trainer exercise
          "001780eaaf", "28-31", "capture:0:mandatory_capture:", "legal:1:flying_kings:1-5"]


@pytest.mark.parametrize("route", ["position", "explain", "page", "lang", "game", "rules",
                                   "train", "session", "puzzles", "next", "daily"])
@QUICK
@given(values=st.lists(st.one_of(text_with(VALUES, 4), any_text(30)), min_size=4, max_size=4))
def test_query_strings_and_path_segments_of_any_text(site: tuple[TestClient, str],
                                                    values: list[str], route: str) -> None:
    client, gid = site
    a, b, c, d = (_q(v) for v in values)
    url = {
        "position": f"/api/analysis/position?variant={a}&fen={b}&optional_capture={c}",
        "explain": f"/api/analysis/explain?variant={a}&fen={b}&square={c}&to={d}",
        "page": f"/analysis?variant={a}&fen={b}&game={c}&optional_capture={d}&lang={a}",
        "lang": f"/lang/{a}?next={b}",
        "game": f"/api/games/{gid}/explain?square={a}&lang={b}",
        "rules": f"/rules/{a}?lang={b}",
        "train": f"/train?variant={a}&optional_capture={b}&lang={c}",
        "session": f"/api/train/session?variant={a}&optional_capture={b}&again={c}&lang={d}",
        "puzzles": f"/puzzles?variant={a}&optional_capture={b}&lang={c}",
        "next": f"/api/puzzles/next?variant={a}&optional_capture={b}&lang={c}",
        "daily": f"/api/puzzles/daily?variant={a}&optional_capture={b}",
    }[route]
    r = client.get(url, follow_redirects=False)
    _check(r)
    for path in (f"/api/games/{a}", f"/game/{a}", f"/api/games/{a}/pdn",
                 f"/api/analysis/reviews/{a}", f"/{a}/rules", f"/api/puzzles/{a}",
                 f"/puzzles/{a}", f"/puzzles/daily?variant={a}"):
        _check(client.get(path, follow_redirects=False))


@pytest.mark.parametrize("route", ["new", "move", "path", "import", "replay", "review",
                                   "answer", "squares", "puzzle"])
@QUICK
@given(values=st.lists(st.one_of(text_with(VALUES, 4), any_text(30)), min_size=3, max_size=3),
       raw_bytes=st.booleans())
def test_json_bodies_of_any_text(site: tuple[TestClient, str], values: list[str],
                                 route: str, raw_bytes: bool) -> None:
    client, gid = site
    a, b, c = values
    path, body = {
        "new": ("/api/games", {"variant": a, "fen": b, "clock": c, "opponent": "friend"}),
        "move": (f"/api/games/{gid}/moves", {"move": a}),
        "path": (f"/api/games/{gid}/moves", {"path": [a, b, c]}),
        "import": ("/api/pdn/import", {"pdn": f'[Event "{a}"]\n1. {b} {c} *'}),
        "replay": ("/api/pdn/replay", {"variant": a, "fen": b, "moves": [c]}),
        "review": ("/api/analysis/reviews", {"variant": "italian", "fen": a, "moves": [b, c]}),
        "answer": ("/api/train/answer", {"variant": a, "exercise": b, "path": [c, a]}),
        "squares": ("/api/train/answer", {"variant": "czech", "exercise": a, "squares": [b, c]}),
        "puzzle": (f"/api/puzzles/{_q(a)}/moves", {"moves": [b, c]}),
    }[route]
    if raw_bytes:   # the characters themselves in the body (a lone surrogate: not UTF-8)
        content = json.dumps(body, ensure_ascii=False).encode("utf-8", "surrogatepass")
    else:           # the characters as JSON escapes (a lone surrogate: "\ud800")
        content = json.dumps(body).encode()
    r = client.post(path, content=content, headers={"content-type": "application/json"})
    _check(r)
    if route == "move" and r.status_code == 200:   # the game goes back to its start
        assert client.post(f"/api/games/{gid}/undo").status_code == 200
