"""The shipped production configuration (``deploy/nginx/``) on Debian's nginx, in front of
``damiera serve --uds``: the audit's flood of half-open connections from one address leaves
another client served; requests over the per-address limit get 429 in JSON; the client address
and scheme the application sees are the proxy's (a spoofed X-Forwarded-For is replaced);
server-sent events pass through as they come."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from tests.deploy.app import held_post, keep_trickling, serving
from tests.security.flood import (
    FLOOD,
    SourceTLSConnection,
    client_tls,
    get,
    half_open,
    raise_fd_limit,
)
from tests.services import unavailable
from tests.services.nginx import Nginx, nginx_program


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Nginx, str]]:
    """``damiera serve --uds`` (SQLite; two new games per address, then none) behind nginx
    with the shipped configuration; yields nginx and the certificate's path."""
    if nginx_program() is None:
        unavailable("nginx is not installed (make test installs Debian's nginx)")
    raise_fd_limit(3 * FLOOD + 500)          # nginx inherits it
    folder = tmp_path_factory.mktemp("proxied")
    with serving(folder, "--create-burst", "2", "--create-per-minute", "0") as sock:
        proxy = Nginx(sock)
        try:
            yield proxy, str(proxy.certificate)
        finally:
            proxy.stop()


def test_the_shipped_configuration_passes_nginx_own_check(site: tuple[Nginx, str]) -> None:
    proxy, _ = site
    done = subprocess.run(proxy.command("-t"), capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "[emerg]" not in proxy.errors()


def test_a_flood_of_half_open_connections_from_one_address_leaves_another_client_served(
        site: tuple[Nginx, str]) -> None:
    """The audit's flood, through the proxy: 1,100 TLS connections from 127.0.0.1, each with
    a request head left open. nginx holds them (cut after 10 s) and passes nothing on; a
    client from 127.0.0.2 is answered normally meanwhile."""
    proxy, certificate = site
    tls = client_tls(certificate)
    with half_open("127.0.0.1", proxy.https_port, tls=tls) as flood:
        assert len(flood) >= FLOOD - 10
        conn = SourceTLSConnection("127.0.0.1", proxy.https_port, certificate)
        statuses = [get(conn, "/api/variants")[0] for _ in range(20)]
        conn.close()
        held = []
        for s in flood[-5:]:                 # the flood is still there: its heads end now
            s.sendall(b"1\r\nConnection: close\r\n\r\n")
            held.append(s.recv(64))
    assert statuses == [200] * 20
    assert all(answer.startswith(b"HTTP/1.1 200") for answer in held), held


def test_requests_past_the_per_address_limit_get_429_in_json(
        site: tuple[Nginx, str]) -> None:
    """32 requests under way at once per address: the 33rd and later are refused at once
    (a request whose body is still awaited counts), with a JSON error and Retry-After;
    another address is not affected."""
    proxy, certificate = site
    held: list[Any] = []
    done = threading.Event()
    trickle = threading.Thread(target=keep_trickling, args=(held, done), daemon=True)
    trickle.start()
    try:
        for _ in range(32):
            held.append(held_post(proxy.https_port, certificate, "127.0.0.5"))
        conn = SourceTLSConnection("127.0.0.1", proxy.https_port, certificate,
                                   source="127.0.0.5")
        conn.request("GET", "/api/variants")
        refused_ = conn.getresponse()
        body = json.loads(refused_.read())
        conn.close()
        other = SourceTLSConnection("127.0.0.1", proxy.https_port, certificate,
                                    source="127.0.0.6")
        assert get(other, "/api/variants")[0] == 200
        other.close()
    finally:
        done.set()
        trickle.join()
        for s in held:
            s.close()
    assert refused_.status == 429 and refused_.getheader("Retry-After") == "1"
    assert "too many requests from this address" in body["error"]


def _new_game(port: int, certificate: str, source: str, spoofed: str) -> Any:
    conn = SourceTLSConnection("127.0.0.1", port, certificate, source=source)
    conn.request("POST", "/api/games", body=json.dumps({"variant": "italian",
                                                        "opponent": "friend"}),
                 headers={"Content-Type": "application/json", "X-Forwarded-For": spoofed})
    response = conn.getresponse()
    response.read()
    conn.close()
    return response


def test_the_application_counts_the_real_address_and_a_spoofed_one_is_replaced(
        site: tuple[Nginx, str]) -> None:
    """The site allows two new games per address here. Through the proxy, each new game
    claims another X-Forwarded-For: the third from one address is still refused (the
    application sees the address nginx saw), while another address gets its own two."""
    proxy, certificate = site
    made = [_new_game(proxy.https_port, certificate, "127.0.0.3", f"198.51.100.{n}")
            for n in range(3)]
    assert [r.status for r in made] == [201, 201, 429]
    assert _new_game(proxy.https_port, certificate, "127.0.0.4", "198.51.100.1").status == 201


def test_https_is_passed_on_so_cookies_are_secure_and_http_is_redirected(
        site: tuple[Nginx, str]) -> None:
    proxy, certificate = site
    made = _new_game(proxy.https_port, certificate, "127.0.0.7", "198.51.100.7")
    assert made.status == 201
    cookie = made.getheader("Set-Cookie") or ""
    assert cookie.startswith("damiera_player=") and "Secure" in cookie
    plain = socket.create_connection(("127.0.0.1", proxy.http_port), timeout=60)
    plain.sendall(b"GET /games HTTP/1.1\r\nHost: damiera.example.org\r\nConnection: close"
                  b"\r\n\r\n")
    answer = b""
    while chunk := plain.recv(4096):
        answer += chunk
    plain.close()
    assert answer.startswith(b"HTTP/1.1 301")
    assert b"Location: https://damiera.example.org/games" in answer


def test_server_sent_events_arrive_while_the_stream_is_open(site: tuple[Nginx, str]) -> None:
    """The analysis board's stream through the proxy: its first events come while the
    search still runs (the stream has not ended), not when nginx's buffers fill."""
    proxy, certificate = site
    conn = SourceTLSConnection("127.0.0.1", proxy.https_port, certificate, source="127.0.0.8")
    conn.request("GET", "/api/analysis/stream?variant=international")
    response = conn.getresponse()
    assert response.status == 200
    assert (response.getheader("Content-Type") or "").startswith("text/event-stream")
    seen = b""
    while not re.search(rb"^data:.*\n\n", seen, re.MULTILINE):
        chunk = response.read1(4096)
        assert chunk, f"the stream ended before its first event: {seen!r}"
        seen += chunk
    still_open = not response.isclosed()
    conn.close()
    assert still_open
