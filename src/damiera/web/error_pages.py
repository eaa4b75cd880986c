"""The site's failures as pages: a request for a page (any path outside ``/api/``) that fails
gets the error page in its language, never the API's JSON.

:func:`wants_page` tells a page request from an API call; :func:`failure_page` renders
``error.html`` with the status and one sentence for a database that failed (503) or an
unexpected error (500); :func:`refused_page` does the same for an address the page refuses
(a query parameter out of its bounds: 422; a bad value a route refuses: 400) with the reason.
Translations: ``locales/<lang>/LC_MESSAGES/error_pages.po``.
"""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import HTMLResponse

from damiera.web import i18n
from damiera.web.pages import render, request_locale

_ = i18n.gettext


def wants_page(request: Request) -> bool:
    """Whether ``request`` asked for a page (not ``/api/...``, ``/openapi.json`` or
    ``/static/...``)."""
    path = request.url.path
    return not path.startswith(("/api/", "/static/", "/openapi.json"))


def wants_page_answer(request: Request) -> bool:
    """Whether a refusal of ``request`` should be the error page: a page asked for with GET
    or HEAD (a POST outside ``/api/``, such as an invitation's button, keeps the JSON that
    its script reads)."""
    return wants_page(request) and request.method in ("GET", "HEAD")


def failure_page(request: Request, status: int) -> HTMLResponse:
    """``error.html`` with ``status``: 503 says the site could not reach its games, anything
    else that something went wrong; both ask to try again."""
    request_locale(request)
    if status == 503:
        message = _("The site cannot reach its games just now. Try again in a moment.")
    else:
        message = _("Something went wrong on the site. Try again in a moment.")
    return render(request, "error.html", {"status": status, "message": message},
                  status_code=status)


def refused_page(request: Request, status: int, reason: str) -> HTMLResponse:
    """``error.html`` with ``status`` (400 or 422) saying the page cannot open this address,
    and why (``reason``: the refusal's own words, cut to 300 characters)."""
    request_locale(request)
    message = _("The page cannot open this address: {reason}").replace("{reason}",
                                                                      reason[:300])
    return render(request, "error.html", {"status": status, "message": message},
                  status_code=status)
