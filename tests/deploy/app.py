"""``damiera serve --uds`` in a process of its own, for nginx to stand in front of; and
requests held under way through nginx (their bodies still coming) for its limits' tests."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from tests.conftest import WAIT_SECONDS
from tests.security.flood import client_tls


@contextlib.contextmanager
def serving(folder: Path, *extra: str, command: list[str] | None = None,
            env: dict[str, str] | None = None) -> Iterator[str]:
    """The site on the Unix socket ``folder/web.sock`` (yielded), with its games in SQLite in
    ``folder``: ``damiera serve --uds`` with ``extra`` arguments, or ``command`` (which must
    name that socket) in the environment ``env``; stopped at the end."""
    sock = str(folder / "web.sock")
    if command is None:
        command = [sys.executable, "-m", "damiera", "serve", "--uds", sock, "--database-url",
                   f"sqlite:///{folder / 'games.sqlite3'}", *extra]
    app = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, env={**(os.environ if env is None else env),
                                           "PYTHONUNBUFFERED": "1"})
    assert app.stdout is not None
    try:
        first = app.stdout.readline()
        assert f"http+unix:{sock}" in first, first
        yield sock
    finally:
        app.terminate()
        app.wait(WAIT_SECONDS)
        app.stdout.close()


def held_post(port: int, certificate: str, source: str,
              headers: Mapping[str, str] | None = None) -> Any:
    """A POST from ``source`` (with ``headers`` besides its own) whose head announces a body
    of 10,000 bytes that has not come yet; the TLS socket (:func:`keep_trickling` keeps the body
    coming, a byte at a time)."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=60,
                                   source_address=(source, 0))
    s = client_tls(certificate).wrap_socket(raw, server_hostname="localhost")
    extra = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
    s.sendall(f"POST /api/games HTTP/1.1\r\nHost: localhost\r\n{extra}Content-Type: "
              "application/json\r\nContent-Length: 10000\r\n\r\n".encode())
    return s


def keep_trickling(held: list[Any], done: threading.Event) -> None:
    """A byte of body on each held request every second (nginx waits 10 s between two),
    so that they stay under way however long the test takes; until ``done`` is set."""
    while not done.wait(1.0):
        for s in list(held):
            try:
                s.sendall(b" ")
            except OSError:
                pass
