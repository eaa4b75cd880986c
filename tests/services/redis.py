"""A throw-away Redis server for the tests: Debian's ``redis-server`` with ``--port 0`` (no
TCP port) and its Unix socket in a private temporary folder, nothing saved to disk; started
once per session when a test asks for ``redis_url`` and stopped at the end, also when tests
fail. Without ``redis-server`` such tests are skipped with the reason (they fail under
``DAMIERA_TEST_SERVICES=required``, as ``make test`` sets).

``DAMIERA_TEST_REDIS_URL`` uses an existing server instead (its data may be flushed).
"""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.services import (
    private_folder,
    remove,
    server_user,
    stop_servers_on_sigterm,
    unavailable,
)

WAIT_SECONDS = float(os.environ.get("DAMIERA_TEST_WAIT", "120"))


def ping(path: Path) -> bool:
    """Whether a Redis server answers PING on the Unix socket ``path``."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(5)
            s.connect(str(path))
            s.sendall(b"PING\r\n")
            return s.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def _stop_stale(root: Path) -> None:
    """Stop the server an earlier session left behind in ``root``."""
    try:
        os.kill(int((root / "redis.pid").read_text()), signal.SIGTERM)
    except (OSError, ValueError):
        pass


class RedisServer:
    """A running ``redis-server`` on a Unix socket (:attr:`socket`, :attr:`url`)."""

    def __init__(self, program: str) -> None:
        self.user = server_user()
        self.root = private_folder("damiera-redis-", self.user, _stop_stale)
        self.socket = self.root / "redis.sock"
        self.url = f"unix://{self.socket}"
        self.program = program
        self.log = (self.root / "server.log").open("wb")
        self._start()

    def _start(self) -> None:
        kwargs: dict[str, Any] = {}
        if self.user is not None:   # not needed by Redis; keeps the folder's files one owner's
            kwargs.update(user=self.user.pw_uid, group=self.user.pw_gid, extra_groups=[])
        self.process = subprocess.Popen(
            [self.program, "--port", "0", "--unixsocket", str(self.socket),
             "--unixsocketperm", "777", "--dir", str(self.root), "--save", "",
             "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning"],
            stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, **kwargs)
        (self.root / "redis.pid").write_text(str(self.process.pid))
        deadline = time.monotonic() + WAIT_SECONDS
        while not ping(self.socket):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("redis-server did not start")
            time.sleep(0.02)

    def restart(self, down: float = 0.0) -> None:
        """Stop the server, wait ``down`` seconds, start it again on the same socket (empty:
        nothing is saved)."""
        self.process.terminate()
        self.process.wait(30)
        time.sleep(down)
        self._start()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        remove(self.root)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """The URL of the session's Redis server: ``unix:///tmp/damiera-redis-.../redis.sock``
    (or ``DAMIERA_TEST_REDIS_URL``). Tests share it: use keys of your own or flush it."""
    external = os.environ.get("DAMIERA_TEST_REDIS_URL")
    if external:
        yield external
        return
    program = shutil.which("redis-server") or shutil.which("redis-server", path="/usr/bin")
    if program is None:
        unavailable("redis-server is not installed (make test installs Debian's redis-server)")
    stop_servers_on_sigterm()
    server = RedisServer(program)
    atexit.register(server.stop)
    try:
        yield server.url
    finally:
        server.stop()
