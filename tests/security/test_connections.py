"""The bare server's own connection limits (``damiera serve`` without a proxy): a whole-head
deadline that trickled bytes do not extend, also on a kept-alive connection, and a cap on open
connections per client address, so that one address's flood of half-open connections leaves
another client served."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn
from fastapi import FastAPI

from damiera.web.cli import server_settings
from damiera.web.limits import Limits
from damiera.web.slow_clients import GuardedH11Protocol, address_key, guarded
from tests.conftest import WAIT_SECONDS
from tests.security.flood import (
    FLOOD,
    OTHER,
    SourceConnection,
    get,
    half_open,
    raise_fd_limit,
    refused,
    wait_until,
)

# -- the head deadline, on a loop whose timers the test fires itself ---------------------------


class _Transport(asyncio.Transport):
    """A connection from 127.0.0.1 that records what is written and whether it was closed."""

    def __init__(self) -> None:
        super().__init__()
        self.written = b""
        self.closed = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 40000), "sockname": ("127.0.0.1", 8000)}.get(
            name, default)

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written += bytes(data)

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


class _Clock:
    """Timers of ``loop.call_later`` kept here and fired by :meth:`advance` (virtual time)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.timers: list[tuple[float, asyncio.TimerHandle]] = []

    def call_later(self, delay: float, callback: Callable[..., object],
                   *args: Any) -> asyncio.TimerHandle:
        handle = asyncio.TimerHandle(self.now + delay, callback, args, _LOOP)
        self.timers.append((self.now + delay, handle))
        return handle

    def advance(self, seconds: float) -> None:
        self.now += seconds
        due = [h for when, h in self.timers if when <= self.now and not h.cancelled()]
        self.timers = [(w, h) for w, h in self.timers if w > self.now and not h.cancelled()]
        for handle in due:
            handle._run()


_LOOP = asyncio.new_event_loop()


async def _hello(scope: Any, receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"hello"})


@contextmanager
def _connection(head_timeout: float) -> Iterator[tuple[GuardedH11Protocol, _Transport, _Clock]]:
    clock = _Clock()
    config = uvicorn.Config(_hello, log_level="warning")
    config.load()
    protocol = guarded(head_timeout)(config, uvicorn.server.ServerState(), {}, _loop=_LOOP)
    protocol.loop.call_later = clock.call_later  # type: ignore[method-assign, assignment]
    transport = _Transport()
    protocol.connection_made(transport)
    try:
        yield protocol, transport, clock
    finally:
        protocol.connection_lost(None)


def _answer(protocol: GuardedH11Protocol) -> None:
    """Let the application answer the request under way (the loop runs in a thread of its
    own: the test's thread may have a loop running already)."""
    while protocol.cycle is not None and not protocol.cycle.response_complete:
        step = threading.Thread(target=_LOOP.run_until_complete, args=(asyncio.sleep(0),))
        step.start()
        step.join()


def test_a_head_trickled_on_a_kept_alive_connection_is_cut_at_its_deadline() -> None:
    """The deadline runs from the moment the connection is ready for the next head (here,
    once the first response is complete), and bytes that trickle in do not extend it: the
    audit trickled a second head for 19.5 s with a 10 s deadline."""
    with _connection(head_timeout=10) as (protocol, transport, clock):
        clock.advance(9)
        protocol.data_received(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")   # just in time
        _answer(protocol)
        assert transport.written.startswith(b"HTTP/1.1 200") and not transport.closed
        for _ in range(9):                        # the next head, a byte a second
            clock.advance(1)
            protocol.data_received(b"X")
        assert not transport.closed
        clock.advance(1)                          # 10 s since the first answer
        assert transport.closed


def test_a_head_that_arrives_in_time_is_answered_and_the_next_one_gets_a_new_deadline() -> None:
    with _connection(head_timeout=10) as (protocol, transport, clock):
        for _ in range(3):
            protocol.data_received(b"GET / HTTP/1.1\r\n")
            clock.advance(9.5)
            protocol.data_received(b"Host: x\r\n\r\n")
            _answer(protocol)
            clock.advance(0.4)
            assert not transport.closed
        assert transport.written.count(b"HTTP/1.1 200") == 3


def test_a_connection_that_never_sends_a_byte_is_closed_at_the_deadline() -> None:
    with _connection(head_timeout=3) as (_protocol, transport, clock):
        clock.advance(2.9)
        assert not transport.closed
        clock.advance(0.2)
        assert transport.closed and transport.written == b""


# -- connections per address, on a real server ----------------------------------------------


def test_connections_count_per_address_ipv6_by_its_64_network() -> None:
    assert address_key("192.0.2.7") == "192.0.2.7"
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::9")
    assert address_key("2001:db8:1:2::1") != address_key("2001:db8:1:3::1")


@contextmanager
def _server(app: FastAPI, limits: Limits) -> Iterator[tuple[uvicorn.Server, int]]:
    """``app`` under Uvicorn with ``damiera serve``'s settings on 127.0.0.1, any free port."""
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="error",
                            **server_settings(limits))
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    assert wait_until(lambda: server.started, WAIT_SECONDS), "the server did not start"
    try:
        yield server, server.servers[0].sockets[0].getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(30)


def test_one_address_flooding_half_open_connections_leaves_another_client_served(
    db: str,
) -> None:
    """The audit's flood against the bare server: 1,100 connections from one address, each
    with its head left open. Past the per-address cap (64) they are answered 429 and closed at
    once, so the server's 1,000 connections in all are not taken (before: "Exceeded
    concurrency limit", 503, for everyone) and a client from another address is served."""
    from damiera.web.app import create_app

    raise_fd_limit(3 * FLOOD + 200)
    limits = Limits(create_rate=1000.0, create_burst=1000)
    app = create_app(db, computer_workers=1, limits=limits)
    with _server(app, limits) as (server, port), half_open("127.0.0.1", port) as flood:
        answered: dict[Any, bytes] = {}

        def all_seen() -> bool:      # every flood connection accepted: refused, or held
            answered.update(refused([s for s in flood if s not in answered]))
            return len(server.server_state.connections) + len(answered) >= len(flood)

        assert len(flood) >= FLOOD - 10
        assert wait_until(all_seen, WAIT_SECONDS)
        conn = SourceConnection("127.0.0.1", port)
        statuses = [get(conn, "/api/variants")[0] for _ in range(20)]
        conn.close()
    assert statuses == [200] * 20
    assert len(answered) >= len(flood) - limits.connections_per_address
    assert all(a.startswith(b"HTTP/1.1 429") or a == b"" for a in answered.values())
    assert any(b"too many connections from this address" in a for a in answered.values())


def test_an_address_at_its_cap_gets_429_and_a_new_connection_once_one_closes(db: str) -> None:
    from damiera.web.app import create_app

    limits = Limits(connections_per_address=3)
    app = create_app(db, computer_workers=1, limits=limits)
    with _server(app, limits) as (_, port):
        with half_open("127.0.0.1", port, count=3) as held:
            assert len(held) == 3
            conn = SourceConnection("127.0.0.1", port, source="127.0.0.1")
            status, body = get(conn, "/api/variants")
            assert status == 429 and b"at most 3" in body
            other = SourceConnection("127.0.0.1", port, source=OTHER)
            assert get(other, "/api/variants")[0] == 200       # another address: served
            other.close()
        conn = SourceConnection("127.0.0.1", port, source="127.0.0.1")

        def served() -> bool:
            try:
                return get(conn, "/api/variants")[0] == 200
            except OSError:
                conn.close()
                return False

        assert wait_until(served, WAIT_SECONDS)                 # the held ones closed
        conn.close()


def test_the_cap_can_be_turned_off(db: str) -> None:
    from damiera.web.app import create_app

    limits = Limits(connections_per_address=0)
    app = create_app(db, computer_workers=1, limits=limits)
    with _server(app, limits) as (server, port), half_open("127.0.0.1", port, count=80) as held:
        assert wait_until(lambda: len(server.server_state.connections) >= len(held), 30)
        assert refused(held) == {}
