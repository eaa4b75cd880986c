"""Browser-side protections: security headers, no inline script, Secure cookies behind
HTTPS, the API docs served offline, and no open redirect."""

from __future__ import annotations

import re

from fastapi import FastAPI
from fastapi.testclient import TestClient

from damiera.web.security_headers import safe_local_path
from tests.security.conftest import new_game


def test_every_answer_has_the_security_headers(alice: TestClient) -> None:
    gid = new_game(alice)["id"]
    answers = [alice.get("/"), alice.get(f"/game/{gid}"), alice.get("/api/variants"),
               alice.get("/static/play.js"), alice.get("/nowhere"),
               alice.get("/api/variants?x=" + "a" * 10_000)]
    for r in answers:
        csp = r.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp, r.url
        assert "unsafe-inline" not in csp.split("script-src", 1)[1].split(";", 1)[0]
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "same-origin"


def test_pages_have_no_inline_script(alice: TestClient) -> None:
    gid = new_game(alice)["id"]
    for path in ("/", f"/game/{gid}", "/games", "/rules", "/rules/italian", "/docs"):
        html = alice.get(path).text
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert "src=" in tag or 'type="application/json"' in tag, (path, tag)
        assert not re.search(r"\son[a-z]+=", html), path      # no onclick= handlers


def test_cookies_are_secure_behind_https(app: FastAPI) -> None:
    with TestClient(app, base_url="https://testserver") as c:
        r = c.post("/api/games", json={"variant": "italian", "opponent": "friend"})
        assert "secure" in r.headers["set-cookie"].lower()
        r = c.get("/lang/it", follow_redirects=False)
        assert "secure" in r.headers["set-cookie"].lower()
    with TestClient(app) as c:
        r = c.post("/api/games", json={"variant": "italian", "opponent": "friend"})
        assert "secure" not in r.headers["set-cookie"].lower()
        assert "httponly" in r.headers["set-cookie"].lower()


def test_api_docs_are_served_from_the_package_without_any_cdn(alice: TestClient) -> None:
    page = alice.get("/docs")
    assert page.status_code == 200
    for url in re.findall(r'(?:src|href)="([^"]+)"', page.text):
        assert url.startswith("/"), url                 # nothing from another site
        assert alice.get(url).status_code == 200, url
    assert alice.get("/openapi.json").status_code == 200


def test_lang_next_cannot_leave_the_site(alice: TestClient) -> None:
    for evil in ("/%09/evil.example", "//evil.example", "/%5Cevil.example",
                 "https://evil.example/", "/%0d%0a/evil.example", "/%2F/evil.example"):
        r = alice.get(f"/lang/it?next={evil}", follow_redirects=False)
        assert r.status_code == 303
        location = r.headers["location"]
        assert location.startswith("/") and not location.startswith("//"), (evil, location)
        assert "evil" not in location and location != "", (evil, location)
    r = alice.get("/lang/it?next=/game/abc%3Flang%3Dar%26x%3D1", follow_redirects=False)
    assert r.headers["location"] == "/game/abc?x=1"


def test_safe_local_path() -> None:
    assert safe_local_path("/game/abc?lang=it") == "/game/abc?lang=it"
    for bad in ("/\t/evil.example", "//evil", "/\\evil", "http://x/", "", "game", None):
        assert safe_local_path(bad) == "/"
