"""The errors nginx answers itself with the shipped site (a body or a head too large, a
malformed request, the application down) are the API's ``{"error": "..."}`` JSON on ``/api/``
routes, with the same status a client would get from the application where it has one, and
nginx's short HTML page on the site's pages."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.deploy.app import serving
from tests.security.flood import client_tls
from tests.services import unavailable
from tests.services.nginx import Nginx, nginx_program


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Nginx]:
    """nginx in front of a running site."""
    if nginx_program() is None:
        unavailable("nginx is not installed (make test installs Debian's nginx)")
    with serving(tmp_path_factory.mktemp("errors")) as sock:
        proxy = Nginx(sock)
        try:
            yield proxy
        finally:
            proxy.stop()


@pytest.fixture(scope="module")
def down(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Nginx]:
    """nginx in front of a site that is not running (its socket is missing)."""
    if nginx_program() is None:
        unavailable("nginx is not installed (make test installs Debian's nginx)")
    proxy = Nginx(str(tmp_path_factory.mktemp("down") / "web.sock"))
    try:
        yield proxy
    finally:
        proxy.stop()


def _exchange(proxy: Nginx, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``request`` as it is over TLS; the status, headers (lower-case names) and body of
    the answer (read until nginx closes the connection)."""
    raw = socket.create_connection(("127.0.0.1", proxy.https_port), timeout=60)
    s = client_tls(str(proxy.certificate)).wrap_socket(raw, server_hostname="localhost")
    try:
        s.sendall(request)
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    except ConnectionResetError:     # nginx resets a connection it gave up on, once answered
        pass
    finally:
        s.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, body


def _request(path: str, *, method: str = "GET", extra: str = "", host: bool = True) -> bytes:
    return (f"{method} {path} HTTP/1.1\r\n" + ("Host: localhost\r\n" if host else "")
            + f"{extra}Connection: close\r\n\r\n").encode()


#: Requests nginx refuses itself, whatever the route: the request (for ``path``) and the
#: status the client gets.
REFUSED: dict[str, tuple[Callable[[str], bytes], int]] = {
    "body-too-large": (lambda path: _request(
        path, method="POST", extra="Content-Type: application/json\r\n"
        "Content-Length: 4000000\r\n"), 413),
    "header-too-large": (lambda path: _request(path, extra=f"X-Big: {'a' * 20000}\r\n"), 431),
    "address-too-long": (lambda path: _request(f"{path}?q={'a' * 20000}"), 414),
    "no-host": (lambda path: _request(path, host=False), 400),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_nginx_refusals_on_the_api_are_json(live: Nginx, case: str) -> None:
    make, status = REFUSED[case]
    got, headers, body = _exchange(live, make("/api/variants"))
    assert got == status, body[:300]
    assert headers["content-type"] == "application/json", headers
    error = json.loads(body)["error"]
    assert isinstance(error, str) and error


@pytest.mark.parametrize("case", sorted(set(REFUSED) - {"address-too-long"}))
def test_nginx_refusals_on_pages_are_its_html_pages(live: Nginx, case: str) -> None:
    """(An address too long is not read, so nginx cannot tell a page's from the API's: it
    answers JSON.)"""
    make, status = REFUSED[case]
    got, headers, body = _exchange(live, make("/games"))
    assert got == (400 if status == 431 else status), body[:300]
    assert headers["content-type"] == "text/html", headers
    assert body.startswith(b"<html>")


def test_the_applications_own_errors_pass_through(live: Nginx) -> None:
    got, headers, body = _exchange(live, _request("/api/games/nonexistent"))
    assert got == 404 and headers["content-type"] == "application/json"
    assert "error" in json.loads(body)


@pytest.mark.parametrize("path", ["/api/variants", "/api/analysis/stream?variant=italian",
                                  "/api/games/x/events"])
def test_the_api_with_the_application_down_is_503_in_json(down: Nginx, path: str) -> None:
    got, headers, body = _exchange(down, _request(path))
    assert got == 503 and headers["retry-after"] == "5"
    assert headers["content-type"] == "application/json"
    assert "restarting" in json.loads(body)["error"]


def test_a_page_with_the_application_down_is_503_in_html(down: Nginx) -> None:
    got, headers, body = _exchange(down, _request("/games"))
    assert got == 503 and headers["retry-after"] == "5"
    assert headers["content-type"] == "text/html" and body.startswith(b"<html>")



@pytest.mark.parametrize("announced", [True, False], ids=["content-length", "streamed"])
def test_a_body_too_large_over_http2_is_json_on_the_api(live: Nginx, tmp_path: Path,
                                                         announced: bool) -> None:
    """Over HTTP/2 nginx checks a body's size again on its way to the error's location: a
    body announced too large, or found too large as it comes, is still answered in JSON.
    (curl speaks HTTP/2; Python's standard library does not.)"""
    curl = shutil.which("curl")
    if curl is None:
        pytest.skip("curl is not installed")
    body = tmp_path / "body.json"
    body.write_bytes(b" " * 4_000_000)
    # From standard input curl cannot know the size: it sends no Content-Length.
    sent = ["--data-binary", f"@{body}"] if announced else ["-T", "-"]
    with body.open("rb") as stdin:
        done = subprocess.run(
            [curl, "-s", "-v", "--http2", "--cacert", str(live.certificate), "-X", "POST",
             "-H", "Content-Type: application/json", *sent, "-o", "-", "-w",
             "\n%{http_code} %{http_version} %{content_type}",
             f"https://localhost:{live.https_port}/api/pdn/import"],
            stdin=stdin, capture_output=True, text=True, timeout=120, check=False)
    assert ("content-length: 4000000" in done.stderr.lower()) == announced, done.stderr
    answer, _, summary = done.stdout.rpartition("\n")
    assert summary == "413 2 application/json", (summary, answer[:300], done.stderr)
    assert "too large" in json.loads(answer)["error"]
