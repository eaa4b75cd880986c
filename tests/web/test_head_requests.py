"""HEAD for the site's pages (damiera.web.head_requests): the status and headers GET gives,
without the content (RFC 9110, section 9.3.2); FastAPI routed pages for GET only, so
monitors and ``curl -I`` got 405."""

from __future__ import annotations

from fastapi.testclient import TestClient


def test_head_of_a_page_answers_as_get_without_the_content(client: TestClient) -> None:
    got = client.get("/")
    head = client.head("/")
    assert (got.status_code, head.status_code) == (200, 200)
    assert head.content == b""
    assert head.headers["content-type"] == got.headers["content-type"]
    assert head.headers["content-length"] == str(len(got.content))
    assert head.headers["content-security-policy"] == got.headers["content-security-policy"]


def test_head_keeps_a_pages_redirect_and_its_not_found(client: TestClient) -> None:
    moved = client.head("/rules/russian", follow_redirects=False)
    assert moved.status_code == 307 and moved.headers["location"].endswith("/rules/russian")
    missing = client.head("/game/doesnotexist")
    assert missing.status_code == 404 and missing.content == b""
    assert missing.headers["content-type"].startswith("text/html")


def test_head_leaves_the_api_and_static_files_as_they_were(client: TestClient) -> None:
    assert client.head("/static/board.js").status_code == 200
    assert client.head("/api/variants").status_code == 405   # API routes: GET only
