"""The address of the client a request comes from: what every per-client limit counts.

:func:`client_address` is the one place that decides it, for HTTP requests and WebSockets
alike (any Starlette ``HTTPConnection``). It is the peer's address, except when the peer is
a proxy the site trusts, the same ones Uvicorn trusts for ``X-Forwarded-For``
(``FORWARDED_ALLOW_IPS``: addresses or networks separated by commas, ``*`` for any; by
default ``127.0.0.1``, a proxy on the same machine): then it is the address that proxy
forwards, the right-most entry of ``X-Forwarded-For`` that is not itself a trusted proxy
(entries left of it were written by the client and prove nothing). Uvicorn may already have
put that address in the request's ``client``; applying the rule again gives the same
answer.

An IPv6 client counts as its ``/64`` network (``2001:db8:1:2::/64``): one subscriber
usually has a whole ``/64`` and could otherwise take a new address for every request.
Anything that is not an IP address (a Unix socket's peer, a test client's name) is kept as
it is, at most 64 characters.
"""

from __future__ import annotations

import functools
import ipaddress
import os
from collections.abc import Callable

from starlette.requests import HTTPConnection

#: Uvicorn's environment variable naming the proxies trusted for ``X-Forwarded-*``.
TRUSTED_ENVIRONMENT = "FORWARDED_ALLOW_IPS"
#: What Uvicorn trusts when the variable is not set.
DEFAULT_TRUSTED = "127.0.0.1"

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def client_address(connection: HTTPConnection) -> str:
    """The client's address as the limits count it (see the module docstring): an IPv4
    address (``203.0.113.5``), an IPv6 ``/64`` network (``2001:db8::/64``), or the peer's
    name when it is not an IP address."""
    peer = connection.client.host if connection.client else ""
    trusted = _trusted(os.environ.get(TRUSTED_ENVIRONMENT, DEFAULT_TRUSTED))
    if trusted(peer):
        forwarded = [h.strip() for h in connection.headers.get("x-forwarded-for", "").split(",")
                     if h.strip()]
        for hop in reversed(forwarded):
            peer = hop
            if not trusted(hop):
                break
    return _key(peer)


def _key(host: str) -> str:
    address = _ip(host)
    if address is None:
        return host[:64] or "unknown"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def _ip(host: str) -> Address | None:
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


@functools.cache
def _trusted(setting: str) -> Callable[[str], bool]:
    """Whether a host is one of the proxies ``setting`` (``FORWARDED_ALLOW_IPS``) names."""
    names: set[str] = set()
    networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
    for item in (s.strip() for s in setting.split(",")):
        if item == "*":
            return lambda _host: True
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            if item:
                names.add(item)   # a Unix socket's name, as Uvicorn allows

    def trusted(host: str) -> bool:
        if host in names:
            return True
        address = _ip(host)
        return address is not None and any(address in n for n in networks)

    return trusted
