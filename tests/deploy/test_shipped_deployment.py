"""The deployment as ``deploy/`` writes it: ``damiera-web.service``'s command with the settings
of ``damiera.env``, behind nginx with the shipped site, all three given a public name the way
an operator does (replacing ``damiera.example.org``). A request for that name is served; the
systemd units' command lines are ones ``damiera`` accepts."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator

import pytest

from tests.deploy.app import serving
from tests.deploy.shipped import SHIPPED_SOCKET, environment_file, exec_start, serve_command
from tests.security.flood import SourceTLSConnection, get
from tests.services import unavailable
from tests.services.nginx import ROOT, SHIPPED_NAME, Nginx, nginx_program

#: The public name the operator gives the site in this test.
PUBLIC = "draughts.example.net"


@pytest.fixture(scope="module")
def deployed(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Iterator[Nginx]:
    """The shipped web unit's command and environment file (SQLite in place of PostgreSQL,
    the test session's Redis in place of the machine's: the unit's several web processes
    need a bus they share, and ``damiera serve`` refuses them without one) behind nginx,
    named :data:`PUBLIC`."""
    if nginx_program() is None:
        unavailable("nginx is not installed (make test installs Debian's nginx)")
    folder = tmp_path_factory.mktemp("deployed")
    settings = environment_file(PUBLIC)
    assert "DAMIERA_DATABASE_URL" in settings and "DAMIERA_REDIS_URL" in settings
    settings["DAMIERA_DATABASE_URL"] = f"sqlite:///{folder / 'games.sqlite3'}"
    settings["DAMIERA_REDIS_URL"] = redis_url
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("DAMIERA_")}
    with serving(folder, command=serve_command(str(folder / "web.sock")),
                 env={**inherited, **settings}) as sock:
        proxy = Nginx(sock, name=PUBLIC)
        try:
            yield proxy
        finally:
            proxy.stop()


@pytest.mark.parametrize("path", ["/api/variants", "/"])
def test_a_request_for_the_sites_public_name_is_served(deployed: Nginx, path: str) -> None:
    conn = SourceTLSConnection("127.0.0.1", deployed.https_port, str(deployed.certificate),
                               source="127.0.0.21")
    status, body = get(conn, path, headers={"Host": PUBLIC})
    conn.close()
    assert status == 200, body[:300]


def test_a_name_the_operator_did_not_give_is_refused(deployed: Nginx) -> None:
    """The names come from the environment file: another one (DNS rebinding) gets 400."""
    conn = SourceTLSConnection("127.0.0.1", deployed.https_port, str(deployed.certificate),
                               source="127.0.0.22")
    status, body = get(conn, "/api/variants", headers={"Host": "rebound.example.com"})
    conn.close()
    assert status == 400 and b"does not answer to the host name" in body


def test_plain_http_is_redirected_to_https_under_the_public_name(deployed: Nginx) -> None:
    plain = socket.create_connection(("127.0.0.1", deployed.http_port), timeout=60)
    plain.sendall(f"GET /games HTTP/1.1\r\nHost: {PUBLIC}\r\nConnection: close\r\n\r\n"
                  .encode())
    answer = b""
    while chunk := plain.recv(4096):
        answer += chunk
    plain.close()
    assert answer.startswith(b"HTTP/1.1 301")
    assert f"Location: https://{PUBLIC}/games".encode() in answer


def test_the_environment_file_names_the_site_as_nginx_does() -> None:
    """The one name an operator replaces is in both files."""
    assert environment_file()["DAMIERA_ALLOWED_HOSTS"] == SHIPPED_NAME
    assert f"server_name {SHIPPED_NAME};" in (ROOT / "deploy/nginx/damiera.conf").read_text()


@pytest.mark.parametrize("unit", ["damiera-web.service", "damiera-worker.service"])
def test_the_systemd_units_run_commands_damiera_accepts(unit: str) -> None:
    """The units' ExecStart lines parse with ``damiera``'s own parser (a renamed option
    would fail here, not on the server), and both read the shipped environment file."""
    from damiera.cli import build_parser

    program, args = exec_start(unit)
    assert program.endswith("/bin/damiera")
    parsed = build_parser().parse_args(args)
    assert parsed.func.__name__ in ("_serve", "_worker")
    text = (ROOT / "deploy" / "systemd" / unit).read_text()
    assert "EnvironmentFile=/etc/damiera/damiera.env" in text
    if unit == "damiera-web.service":       # where the shipped nginx site looks for it
        assert parsed.uds == SHIPPED_SOCKET
        assert f"server unix:{SHIPPED_SOCKET};" in (
            ROOT / "deploy/nginx/damiera.conf").read_text()
