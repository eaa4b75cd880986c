"""Which requests the site takes as its own: the same-origin check compares the scheme too,
the Host header must name the site (DNS rebinding), every state-changing route checks the
origin (reviews included), and HTTPS answers carry HSTS."""

from __future__ import annotations

import http.client
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from damiera.web.app import create_app
from damiera.web.security_headers import default_allowed_hosts
from tests.security.conftest import ROOMY, new_game
from tests.web.processes import start_server, stop


def test_an_origin_with_another_scheme_is_another_site(app: FastAPI) -> None:
    with TestClient(app) as http_site:
        gid = new_game(http_site)["id"]
        r = http_site.post(f"/api/games/{gid}/moves", json={"move": "22-19"},
                           headers={"origin": "https://testserver"})
        assert r.status_code == 403, r.text
        r = http_site.post(f"/api/games/{gid}/moves", json={"move": "22-19"},
                           headers={"origin": "http://testserver"})
        assert r.status_code == 200, r.text
    with TestClient(app, base_url="https://testserver") as https_site:
        gid = new_game(https_site)["id"]
        for origin in ("http://testserver", "https://testserver:8443", "null"):
            r = https_site.post(f"/api/games/{gid}/moves", json={"move": "22-19"},
                                headers={"origin": origin})
            assert r.status_code == 403, (origin, r.text)
        r = https_site.post(f"/api/games/{gid}/moves", json={"move": "22-19"},
                            headers={"origin": "https://testserver"})
        assert r.status_code == 200, r.text
        r = https_site.post(f"/api/games/{gid}/undo", json={},    # the default port written
                            headers={"origin": "https://TestServer:443"})
        assert r.status_code == 200, r.text


def test_a_review_is_a_change_and_needs_a_same_site_json_request(alice: TestClient) -> None:
    body = {"variant": "italian", "moves": ["22-19"]}
    for headers in ({"origin": "https://evil.example"}, {"sec-fetch-site": "cross-site"}):
        r = alice.post("/api/analysis/reviews", json=body, headers=headers)
        assert r.status_code == 403, (headers, r.text)
    r = alice.post("/api/analysis/reviews", content=b'{"variant": "italian", "moves": []}',
                   headers={"content-type": "text/plain"})
    assert r.status_code == 415, r.text
    r = alice.post("/api/analysis/reviews", json=body, headers={"origin": "http://testserver"})
    assert r.status_code == 202, r.text


def test_a_host_the_site_does_not_answer_to_is_refused(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'g.sqlite3'}", computer_workers=1, limits=ROOMY,
                     allowed_hosts=["damiera.example", "*.damiera.example", "::1"])
    with TestClient(app, base_url="http://damiera.example") as c:
        for host in ("evil.example", "damiera.example.evil.example", "127.0.0.1",
                     "xdamiera.example"):
            for path in ("/", "/api/variants"):
                r = c.get(path, headers={"host": host})
                assert r.status_code == 400, (host, path, r.status_code)
                assert "host" in r.json()["error"]
        for host in ("damiera.example", "DAMIERA.example:8443", "www.damiera.example",
                     "[::1]:8000"):
            assert c.get("/api/variants", headers={"host": host}).status_code == 200, host


def test_the_default_hosts_are_the_loopback_names_and_the_address_served_on() -> None:
    assert {"localhost", "127.0.0.1", "::1"} <= set(default_allowed_hosts("127.0.0.1"))
    assert "192.0.2.7" in default_allowed_hosts("192.0.2.7")
    assert "damiera.example" in default_allowed_hosts("damiera.example")


def test_damiera_serve_refuses_a_rebound_host_name_by_default(tmp_path: Path) -> None:
    proc, base = start_server(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    try:
        host, port = base.removeprefix("http://").rsplit(":", 1)
        for name, status in (("evil.example", 400), (f"localhost:{port}", 200),
                             (f"{host}:{port}", 200)):
            conn = http.client.HTTPConnection(host, int(port), timeout=30)
            conn.request("GET", "/api/variants", headers={"Host": name})
            assert conn.getresponse().status == status, name
            conn.close()
    finally:
        stop(proc)


@pytest.mark.parametrize("scheme", ["http", "https"])
def test_https_answers_carry_hsts(app: FastAPI, scheme: str) -> None:
    with TestClient(app, base_url=f"{scheme}://testserver") as c:
        for r in (c.get("/"), c.get("/api/variants"), c.get("/nowhere")):
            hsts = r.headers.get("strict-transport-security")
            if scheme == "https":
                assert hsts is not None and "max-age=31536000" in hsts
            else:
                assert hsts is None
