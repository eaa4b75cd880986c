"""A flood of half-open connections from one address, and a client from another address, for
the tests of the server's connection limits and for ``benchmarks/limits_bench.py``.

Every loopback address 127.x.y.z reaches a server listening on 127.0.0.1, so a connection
bound to 127.0.0.2 first is "another client" to the server (and to a proxy in front of it).
"""

from __future__ import annotations

import contextlib
import http.client
import resource
import select
import socket
import ssl
import time
from collections.abc import Callable, Iterator

import pytest

#: The audit's flood: connections, each with a request line and one header line sent and the
#: head left open.
FLOOD = 1100
HALF_HEAD = b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: "
OTHER = "127.0.0.2"


def raise_fd_limit(needed: int) -> None:
    """Raise this process's open-file limit to at least ``needed`` (up to its hard limit);
    skip the calling test when the hard limit is lower."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= needed:
        return
    if hard != resource.RLIM_INFINITY and hard < needed:
        pytest.skip(f"the open-file limit is {hard}; the flood needs {needed}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))


@contextlib.contextmanager
def half_open(host: str, port: int, count: int = FLOOD, source: str = "127.0.0.1",
              tls: ssl.SSLContext | None = None) -> Iterator[list[socket.socket]]:
    """``count`` connections from ``source`` to ``host:port`` (over TLS with ``tls``, the
    handshake done), each with :data:`HALF_HEAD` sent (or refused by then); closed at the
    end. A connection that could not be made is left out of the list."""
    socks: list[socket.socket] = []
    try:
        for _ in range(count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            try:
                s.bind((source, 0))
                s.settimeout(30)
                s.connect((host, port))
                if tls is not None:
                    s = tls.wrap_socket(s, server_hostname="localhost")
            except OSError:
                s.close()
                continue
            socks.append(s)
            with contextlib.suppress(OSError):    # refused and closed already
                s.sendall(HALF_HEAD)
        yield socks
    finally:
        for s in socks:
            s.close()


def refused(socks: list[socket.socket]) -> dict[socket.socket, bytes]:
    """The first bytes the server sent on each connection of ``socks`` that it answered or
    closed so far (b"" for a close without an answer); connections still open and silent are
    left out."""
    out: dict[socket.socket, bytes] = {}
    poll = select.poll()                  # not select(): file numbers go past 1024
    by_fd = {s.fileno(): s for s in socks}
    for fd in by_fd:
        poll.register(fd, select.POLLIN | select.POLLERR | select.POLLHUP)
    for fd, _ in poll.poll(0):
        s = by_fd[fd]
        try:
            out[s] = s.recv(4096)
        except OSError:
            out[s] = b""
    return out


def wait_until(condition: Callable[[], object], seconds: float, every: float = 0.05) -> bool:
    """Call ``condition()`` until it is true or ``seconds`` have passed; its last answer."""
    deadline = time.monotonic() + seconds
    while True:
        if condition():
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(every)


class SourceConnection(http.client.HTTPConnection):
    """An HTTP connection from a chosen local address."""

    def __init__(self, host: str, port: int, source: str = OTHER, timeout: float = 60):
        super().__init__(host, port, timeout=timeout, source_address=(source, 0))


class SourceTLSConnection(http.client.HTTPSConnection):
    """An HTTPS connection from a chosen local address, trusting ``certificate`` (PEM)."""

    def __init__(self, host: str, port: int, certificate: str, source: str = OTHER,
                 timeout: float = 60):
        super().__init__(host, port, timeout=timeout, source_address=(source, 0),
                         context=client_tls(certificate))


def client_tls(certificate: str) -> ssl.SSLContext:
    """A TLS client context that trusts only ``certificate`` (PEM, for localhost)."""
    return ssl.create_default_context(cafile=certificate)


def get(conn: http.client.HTTPConnection, path: str,
        headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """``GET path`` on ``conn`` (reconnecting if the server closed it); status and body."""
    conn.request("GET", path, headers=headers or {})
    response = conn.getresponse()
    return response.status, response.read()
