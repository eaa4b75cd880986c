"""The site's browser-side protections: response headers, cookies, redirects, the API docs.

- :class:`SecurityHeaders` (ASGI middleware) adds to every response a Content-Security-Policy
  (scripts, styles, images and connections from the site itself only; no inline script; no
  framing: ``frame-ancestors 'none'``), ``X-Content-Type-Options: nosniff``,
  ``X-Frame-Options: DENY`` (older browsers), ``Referrer-Policy: same-origin``, and over
  HTTPS ``Strict-Transport-Security`` (one year: browsers then never ask for the site
  over plain HTTP).
- :class:`AllowedHosts` (ASGI middleware) answers 400 to a request whose ``Host`` header
  names another site (DNS rebinding: a page of another site whose name was pointed at this
  server's address); :func:`default_allowed_hosts` is what ``damiera serve`` allows when
  not told (``--allowed-host``).
- :func:`secure_cookie`: cookies get ``Secure`` when the request came over HTTPS (directly,
  or through a proxy Uvicorn trusts: ``--forwarded-allow-ips``).
- :func:`safe_local_path`: a ``next=`` target reduced to a path on this site (an open
  redirect such as ``/%09/evil.example``, which browsers read as ``//evil.example``, goes to
  ``/``).
- :func:`docs_router`: ``/docs``, Swagger UI 5 (OpenAPI 3.1, as FastAPI writes it) served
  from the copy the ``fastapi-offline`` package ships (works offline, no CDN), started by
  ``/static/docs.js`` (no inline script).
"""

from __future__ import annotations

import importlib.util
import socket
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from damiera.web.limits import ASGIApp, Message, Receive, Scope, Send

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)

HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
]


#: Sent with every answer over HTTPS.
HSTS = (b"strict-transport-security", b"max-age=31536000")


class SecurityHeaders:
    """ASGI middleware adding :data:`HEADERS` to every HTTP response, and :data:`HSTS` to
    those over HTTPS (``scope["scheme"]``, which Uvicorn sets from a trusted proxy's
    ``X-Forwarded-Proto``); a header the app set itself is kept."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        extra = [*HEADERS, HSTS] if scope.get("scheme") == "https" else HEADERS

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                headers += [(k, v) for k, v in extra if k not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


#: Names every server answers to on its own machine.
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
#: Addresses that mean "every interface" (``damiera serve --host 0.0.0.0``).
WILDCARD_ADDRESSES = ("", "0.0.0.0", "::")


def default_allowed_hosts(host: str) -> list[str]:
    """The host names a server listening on ``host`` answers to when not told otherwise:
    :data:`LOOPBACK_HOSTS` and ``host`` itself, or for a wildcard address this machine's
    names (``socket.gethostname()``, ``getfqdn()``) and the addresses they resolve to."""
    names = [*LOOPBACK_HOSTS]
    if host not in WILDCARD_ADDRESSES:
        return [*names, host.strip("[]").lower()]
    for name in {socket.gethostname(), socket.getfqdn()}:
        names.append(name.lower())
        try:
            names += [str(info[4][0]) for info in socket.getaddrinfo(name, None)]
        except (OSError, UnicodeError):
            pass
    return list(dict.fromkeys(names))


def _host_name(host: str) -> str | None:
    """The name in a ``Host`` header (``example.org:8000`` -> ``example.org``, ``[::1]:80``
    -> ``::1``), lower case; None when it is not a host."""
    try:
        parts = urlsplit(f"//{host}")
        parts.port   # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        return None
    return parts.hostname


def _host_allowed(name: str, patterns: Sequence[str]) -> bool:
    for pattern in patterns:
        if pattern == "*" or name == pattern:
            return True
        if pattern.startswith("*.") and name.endswith(pattern[1:]):
            return True
    return False


class AllowedHosts:
    """ASGI middleware: a request whose ``Host`` header is not one of ``hosts`` gets 400
    ``{"error": ...}`` (on every route: the request is not meant for this site, so there is
    no page of it to show). ``hosts``: names or addresses (any case, IPv6 without brackets),
    ``*.example.org`` for every name under ``example.org``, ``*`` for any."""

    def __init__(self, app: ASGIApp, hosts: Sequence[str]):
        self.app = app
        self.hosts = [h.strip().strip("[]").lower() for h in hosts if h.strip()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
        name = _host_name(host)
        if name is not None and _host_allowed(name, self.hosts):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        response = JSONResponse(
            {"error": f"this server does not answer to the host name {host[:100]!r} "
                      "(its operator lists the names it answers to: damiera serve "
                      "--allowed-host)"}, status_code=400)
        await response(scope, receive, send)


def secure_cookie(request: Request) -> bool:
    """Whether a cookie set in answer to ``request`` must be ``Secure`` (HTTPS)."""
    return request.url.scheme == "https"


def safe_local_path(target: str | None) -> str:
    """``target`` if it is a path on this site (``/game/x?lang=it``), else ``/``.

    Refused: anything with a scheme or a host, ``//`` or ``/\\`` at the start, control
    characters or backslashes anywhere (browsers drop tabs and newlines from addresses and
    read ``\\`` as ``/``, so ``/<TAB>/evil.example`` would leave the site)."""
    if not target or len(target) > 2048 or not target.startswith("/"):
        return "/"
    if any(ord(c) < 0x20 or c in "\\\x7f" for c in target):
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or target.startswith("//"):
        return "/"
    return target


def docs_router(app: FastAPI) -> APIRouter:
    """``/docs``: Swagger UI from a package's own files (mounted at ``/static/swagger``)
    showing ``app.openapi_url``. Without the ``fastapi-offline`` package, ``/docs`` says so
    in one line (the JSON at ``/openapi.json`` stays)."""
    router = APIRouter(include_in_schema=False)
    swagger_ui_path = _swagger_ui_files()
    if swagger_ui_path is not None:
        app.mount("/static/swagger", StaticFiles(directory=str(swagger_ui_path)),
                  name="swagger")

    @router.get("/docs", response_class=HTMLResponse)
    async def docs() -> HTMLResponse:
        if swagger_ui_path is None:
            return HTMLResponse("API documentation needs the fastapi-offline package; the "
                                "API description is at /openapi.json", status_code=503)
        return HTMLResponse(_DOCS_PAGE.format(title=app.title, spec=app.openapi_url))

    return router


def _swagger_ui_files() -> Path | None:
    """The folder of ``swagger-ui-bundle.js`` and ``swagger-ui.css`` in the installed
    ``fastapi-offline`` package, or None."""
    spec = importlib.util.find_spec("fastapi_offline")
    if spec is None or spec.origin is None:  # pragma: no cover - a declared dependency
        return None
    folder = Path(spec.origin).parent / "static"
    return folder if (folder / "swagger-ui-bundle.js").is_file() else None


_DOCS_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title} API</title>
<link rel="stylesheet" href="/static/swagger/swagger-ui.css"></head>
<body><div id="swagger-ui" data-spec="{spec}"></div>
<script src="/static/swagger/swagger-ui-bundle.js"></script>
<script src="/static/docs.js"></script></body></html>
"""
