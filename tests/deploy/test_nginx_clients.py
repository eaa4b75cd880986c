"""How the shipped nginx site counts clients for its per-address limits: an IPv4 address each,
an IPv6 address by its /64 (as the application does), so a client rotating through the
addresses of its /64 is one client. Loopback has one IPv6 address, so the requests claim their
addresses through nginx's realip module (:class:`~tests.services.nginx.Nginx`'s
``client_header``); every limit is the shipped one."""

from __future__ import annotations

import ipaddress
import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from tests.deploy.app import held_post, keep_trickling, serving
from tests.security.flood import SourceTLSConnection, get, wait_until
from tests.services import unavailable
from tests.services.nginx import CLIENT_KEY_PATH, Nginx, nginx_program

CLAIM = "X-Test-Client"


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Nginx]:
    if nginx_program() is None:
        unavailable("nginx is not installed (make test installs Debian's nginx)")
    with serving(tmp_path_factory.mktemp("clients")) as sock:
        running = Nginx(sock, client_header=CLAIM)
        try:
            yield running
        finally:
            running.stop()


def _key(proxy: Nginx, address: str) -> str:
    conn = SourceTLSConnection("127.0.0.1", proxy.https_port, str(proxy.certificate),
                               source="127.0.0.31")
    status, body = get(conn, CLIENT_KEY_PATH, headers={CLAIM: address})
    conn.close()
    assert status == 200, body
    return body.decode()


#: Addresses in every form nginx writes them in (runs of zeros compressed before, inside and
#: after the first 64 bits, IPv4 inside IPv6), several in each /64.
ADDRESSES = [
    "2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2:3:4:5:6",
    "2001:db8:1:3::1",
    "2001:db8::", "2001:db8::1:0:0:1", "2001:db8:0:0:1::", "2001:db8::1:2:3:4",
    "2001:db8:1::5", "2001:db8:1:0:5::", "2001:db8:1::", "2001:db8:1:0:0:0:1:1",
    "2001:0:0:5:1:2:3:4", "2001:0:0:5::", "2001:0:0:6:1:2:3:4",
    "2001::", "2001::1", "2001:0:0:0:1:2:3:4",
    "0:0:1:2:3:4:5:6", "0:0:1:2::", "0:0:1:3:3:4:5:6",
    "0:0:0:7:1:2:3:4", "0:0:0:7::", "0:0:0:8:1:2:3:4",
    "::1", "::2", "0:0:0:0:1:2:3:4",
    "192.0.2.1", "::ffff:192.0.2.1", "192.0.2.2", "198.51.100.1",
]


def _client(address: str) -> str:
    """Who ``address`` is: its IPv4 address (also inside IPv6), else its IPv6 /64."""
    parsed = ipaddress.ip_address(address)
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        parsed = parsed.ipv4_mapped
    if isinstance(parsed, ipaddress.IPv4Address):
        return str(parsed)
    return str(ipaddress.IPv6Network(f"{parsed}/64", strict=False))


def _random_addresses(count: int) -> list[str]:
    """IPv6 addresses in 30 /64s whose groups are zero half the time (so that every place and
    length of a run of zeros comes up)."""
    rng = random.Random(64)

    def groups() -> list[int]:
        return [rng.choice((0, rng.randrange(1, 0x10000))) for _ in range(4)]

    prefixes = [groups() for _ in range(30)]
    return [str(ipaddress.IPv6Address(sum(g << (16 * (7 - i)) for i, g in
                                          enumerate(rng.choice(prefixes) + groups()))))
            for _ in range(count)]


def test_each_ipv6_64_and_each_ipv4_address_is_one_key(proxy: Nginx) -> None:
    """Two addresses have the same key exactly when they are the same client."""
    keys = {address: _key(proxy, address) for address in ADDRESSES + _random_addresses(300)}
    by_client: dict[str, set[str]] = {}
    for address, key in keys.items():
        by_client.setdefault(_client(address), set()).add(key)
    assert all(len(k) == 1 for k in by_client.values()), by_client
    assert len({next(iter(k)) for k in by_client.values()}) == len(by_client), by_client


def test_a_client_rotating_through_its_ipv6_64_is_held_to_one_clients_limit(
        proxy: Nginx) -> None:
    """32 requests under way from 32 addresses of one /64: a request from yet another
    address of it gets 429; an address of the next /64 is served."""
    held: list[Any] = []
    done = threading.Event()
    trickle = threading.Thread(target=keep_trickling, args=(held, done), daemon=True)
    trickle.start()
    try:
        for n in range(1, 33):
            held.append(held_post(proxy.https_port, str(proxy.certificate), "127.0.0.32",
                                  {CLAIM: f"2001:db8:7:7:{n:x}::{n:x}"}))
        probes = iter(range(1, 1 << 16))

        def status(address: str) -> int:
            conn = SourceTLSConnection("127.0.0.1", proxy.https_port,
                                       str(proxy.certificate), source="127.0.0.33")
            got = get(conn, "/api/variants", headers={CLAIM: address})[0]
            conn.close()
            return got

        # nginx reads the held requests' heads in its own time: once they are all under
        # way, each new address of the /64 is refused.
        refused = wait_until(
            lambda: status(f"2001:db8:7:7:abcd::{next(probes):x}") == 429, 30, every=0.2)
        other = status("2001:db8:7:8::1")
    finally:
        done.set()
        trickle.join()
        for s in held:
            s.close()
    assert refused, "another address of the same /64 was never refused"
    assert other == 200
