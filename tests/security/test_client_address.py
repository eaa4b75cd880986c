"""The client's address, as every per-client limit counts it: the peer, or what a trusted
proxy forwards (never what the client itself writes in ``X-Forwarded-For``)."""

from __future__ import annotations

import pytest
from starlette.requests import Request

from damiera.web.client_address import client_address


def _request(peer: str, forwarded: str | None = None) -> Request:
    headers = [(b"x-forwarded-for", forwarded.encode())] if forwarded is not None else []
    return Request({"type": "http", "method": "GET", "path": "/", "headers": headers,
                    "client": (peer, 40000), "query_string": b""})


@pytest.mark.parametrize(("peer", "forwarded", "address"), [
    ("203.0.113.5", None, "203.0.113.5"),
    ("203.0.113.5", "198.51.100.7", "203.0.113.5"),                  # not a trusted proxy
    ("127.0.0.1", "198.51.100.7", "198.51.100.7"),                   # the proxy on this machine
    ("127.0.0.1", "6.6.6.6, 198.51.100.7", "198.51.100.7"),          # the client wrote 6.6.6.6
    ("127.0.0.1", "198.51.100.7, 127.0.0.1", "198.51.100.7"),        # two proxies of ours
    ("127.0.0.1", None, "127.0.0.1"),
    ("127.0.0.1", "", "127.0.0.1"),
    ("127.0.0.1", "not an address", "not an address"),
    ("2001:db8:1:2:aaaa::1", None, "2001:db8:1:2::/64"),            # one subscriber's /64
    ("2001:db8:1:2:bbbb::9", None, "2001:db8:1:2::/64"),
    ("::ffff:203.0.113.5", None, "203.0.113.5"),
    ("testclient", None, "testclient"),
])
def test_the_address_is_the_peer_or_what_a_trusted_proxy_forwards(
        peer: str, forwarded: str | None, address: str) -> None:
    assert client_address(_request(peer, forwarded)) == address


def test_the_trusted_proxies_are_uvicorns_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "10.0.0.0/8, 192.0.2.1")
    assert client_address(_request("10.1.2.3", "198.51.100.7")) == "198.51.100.7"
    assert client_address(_request("192.0.2.1", "198.51.100.7")) == "198.51.100.7"
    assert client_address(_request("127.0.0.1", "198.51.100.7")) == "127.0.0.1"
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "*")
    assert client_address(_request("203.0.113.5", "198.51.100.7")) == "198.51.100.7"
