"""HEAD requests for the site's pages (RFC 9110, section 9.3.2: the answer GET would give,
without its content), for uptime monitors, link checkers and ``curl -I``.

FastAPI routes a page for GET only, so ``HEAD /`` was answered 405. :class:`HeadAsGet`
(ASGI middleware) passes a HEAD request for a page (:func:`damiera.web.error_pages.wants_page`:
not ``/api/``, ``/static/`` nor the OpenAPI file) to the app as GET and sends the status and
headers it answers (``Content-Length`` included) with an empty body. API routes and static
files keep their own answers to HEAD (the event streams live under ``/api/`` and are never
started by a HEAD).
"""

from __future__ import annotations

from starlette.requests import Request

from damiera.web.error_pages import wants_page
from damiera.web.limits import ASGIApp, Message, Receive, Scope, Send


class HeadAsGet:
    """ASGI middleware answering HEAD for a page as GET without the body (see the module)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] != "http" or scope["method"] != "HEAD"
                or not wants_page(Request(scope))):
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return   # a part of the content: not sent
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)
