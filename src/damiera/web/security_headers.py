"""The site's browser-side protections: response headers, cookies, redirects, the API docs.

- :class:`SecurityHeaders` (ASGI middleware) adds to every response a Content-Security-Policy
  (scripts, styles, images and connections from the site itself only; no inline script; no
  framing: ``frame-ancestors 'none'``), ``X-Content-Type-Options: nosniff``,
  ``X-Frame-Options: DENY`` (older browsers), ``Referrer-Policy: same-origin``.
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
from pathlib import Path
from urllib.parse import urlsplit

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse
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


class SecurityHeaders:
    """ASGI middleware adding :data:`HEADERS` to every HTTP response (a header the app set
    itself is kept)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                headers += [(k, v) for k, v in HEADERS if k not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


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
