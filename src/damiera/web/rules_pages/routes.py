"""Routes of the rules pages: ``/{lang}/rules`` (index) and ``/{lang}/rules/{page}``;
``/rules`` and ``/rules/{page}`` redirect to them in the request's language.

The site's app includes :func:`build_router` with one line. Pages are rendered with the
site's shared :func:`damiera.web.pages.render` (``base.html``: ☰ menu, ``lang``/``dir``), so
they look and behave like the rest of the site; diagrams are drawn in the browser by the play
page's own SVG board (``/static/board.js``, through ``/static/rules.js``).
"""

from __future__ import annotations

import re
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup, escape

from damiera.rules.geometry import geometry
from damiera.rules.position import parse_fen
from damiera.rules.variant import VARIANTS
from damiera.rules.variant import variant as get_variant
from damiera.web import i18n
from damiera.web.pages import render as site_render
from damiera.web.pages import request_locale, script_json
from damiera.web.rules_pages.content import (
    NAMES,
    SECTION_TITLES,
    UI,
    build_index,
    build_page,
    page_ids,
)
from damiera.web.rules_pages.diagrams import DIAGRAMS
from damiera.web.rules_pages.options import OPTIONAL_TITLE
from damiera.web.serialization import pieces_json

_RULES_PATH = re.compile(r"^/([A-Za-z]{2,3}(?:[-_][A-Za-z]{2,4})?)/rules(/[^?#]*)?$")


def canonical_language(code: str) -> str | None:
    """The catalog code for a URL language (``pt-br``, ``pt_BR`` -> ``pt_BR``), or None."""
    wanted = code.replace("-", "_").lower()
    for available in i18n.available_locales():
        if available.lower() == wanted:
            return available
    return None


def localise_path(path: str, code: str) -> str:
    """``path`` with its language prefix swapped for ``code`` when it is a rules page URL
    (used by the language switcher, whose cookie alone cannot override a URL language)."""
    match = _RULES_PATH.match(path.split("?", 1)[0])
    if not match or canonical_language(match.group(1)) is None:
        return path
    return f"/{code}/rules{match.group(2) or ''}"


def board_json(variant_id: str) -> dict[str, Any]:
    """The board description that ``board.js`` draws (same shape as ``GET /api/variants``)."""
    v = get_variant(variant_id)  # a canonical id: a goal option's diagrams name it
    geo = geometry(v)
    return {
        "size": v.board_size,
        "notation": v.notation.value,
        "squares": [
            {"label": geo.label(s), "file": geo.file_rank(s)[0], "rank": geo.file_rank(s)[1]}
            for s in geo.label_order
        ],
    }


def notation_html(text: str) -> Markup:
    """Move notation kept left-to-right inside any text direction; in a list of moves each
    move stays unbroken while the list may wrap between moves."""
    moves = Markup(", ").join(
        Markup('<span class="mv">%s</span>') % move for move in text.split(", ")
    )
    return Markup('<bdi dir="ltr" class="notation">%s</bdi>') % moves


_MOVE_TEXT = re.compile(r"\b(?:[a-j]\d{1,2}|\d{1,2})(?:[-x:](?:[a-j]\d{1,2}|\d{1,2}))+\b")


def isolate_notation(text: str) -> Markup:
    """``text`` as HTML with every move written in it (``22-18``, ``c3xe5``, ``c3:e5``) kept
    left-to-right, so examples stay readable inside right-to-left sentences."""
    out = Markup("")
    last = 0
    for match in _MOVE_TEXT.finditer(text):
        out += escape(text[last:match.start()])
        out += Markup('<bdi dir="ltr" class="notation">%s</bdi>') % match.group(0)
        last = match.end()
    return out + escape(text[last:])


def isolate_page(page: Any) -> None:
    """Apply :func:`isolate_notation` to a page's prose (in place)."""
    page.intro = isolate_notation(page.intro)
    for section in page.sections:
        section.paragraphs = [isolate_notation(p) for p in section.paragraphs]
        section.items = [isolate_notation(p) for p in section.items]
    page.tips = [isolate_notation(p) for p in page.tips]
    page.faq = [(q, isolate_notation(a)) for q, a in page.faq]


def _ui(gettext: Any) -> dict[str, str]:
    return {key: gettext(message) for key, message in UI.items()}


def build_router() -> APIRouter:
    """The rules pages' router (no API schema: these are HTML pages)."""
    router = APIRouter(include_in_schema=False)

    def render(request: Request, name: str, context: dict[str, Any], lang: str) -> HTMLResponse:
        return site_render(request, name, context, url_lang=lang)

    @router.get("/rules")
    async def rules_home(request: Request) -> Response:
        return RedirectResponse(f"/{request_locale(request)}/rules", status_code=307)

    @router.get("/rules/{page_id}")
    async def rules_page_home(request: Request, page_id: str) -> Response:
        # /rules/russian: that page in the request's language, as /rules is the index.
        if page_id not in page_ids():
            request_locale(request)
            return _not_found(request)
        return RedirectResponse(f"/{request_locale(request)}/rules/{page_id}", status_code=307)

    @router.get("/{lang}/rules", response_class=HTMLResponse)
    async def rules_index(request: Request, lang: str) -> Response:
        code = canonical_language(lang)
        if code is None:
            return _not_found(request)
        if code != lang:
            return RedirectResponse(f"/{code}/rules", status_code=308)
        i18n.set_locale(code)
        t = i18n.gettext
        context = {
            "entries": build_index(t),
            "ui": _ui(t),
            "rules_lang": code,
            "rules_path": "",
        }
        return render(request, "rules_index.html", context, code)

    @router.get("/{lang}/rules/{page_id}", response_class=HTMLResponse)
    async def rules_page(request: Request, lang: str, page_id: str) -> Response:
        code = canonical_language(lang)
        if code is None or page_id not in page_ids():
            return _not_found(request)
        if code != lang:
            return RedirectResponse(f"/{code}/rules/{page_id}", status_code=308)
        i18n.set_locale(code)
        t = i18n.gettext
        page = build_page(page_id, t)
        isolate_page(page)
        diagrams: dict[str, Any] = {}
        boards: dict[str, Any] = {}
        for section in page.sections:
            for d in section.diagrams:
                boards.setdefault(d.variant, board_json(d.variant))
                shown = d.shown
                d.caption = _caption(d.id, page_id, t)
                v = get_variant(d.variant, optional_capture=d.optional_capture)
                position = parse_fen(v, d.fen)
                diagrams[d.id] = {
                    "variant": d.variant,
                    "optional_capture": d.optional_capture,
                    "fen": d.fen,
                    "pieces": pieces_json(v, position),
                    "turn": position.turn.word,
                    "shown": shown,
                    "crowned_piece": d.crowned_piece,
                    "from_square": _from_square(page_id, d.id),
                    "reach": [m["to"] for m in d.legal_moves
                              if m["from"] == _from_square(page_id, d.id)],
                }
        context = {
            "page": page,
            "ui": _ui(t),
            "rules_lang": code,
            "rules_path": f"/{page_id}",
            "page_data": script_json({"boards": boards, "diagrams": diagrams}),
            "variant_name": t(VARIANTS[page.variant].name) if page.variant else page.title,
        }
        return render(request, "rules_page.html", context, code)

    def _not_found(request: Request) -> Response:
        return site_render(
            request, "error.html",
            {"status": 404, "message": i18n.gettext("This page does not exist.")},
            status_code=404,
        )

    return router


def _from_square(page_id: str, diagram_id: str) -> str:
    """The square whose whole range a diagram marks ("" when it shows one move)."""
    return next(x.from_square for x in DIAGRAMS[page_id] if x.id == diagram_id)


def _caption(diagram_id: str, page_id: str, gettext: Any) -> Markup:
    """A diagram's caption as HTML: translated text, notation kept left-to-right."""
    d = next(x for x in DIAGRAMS[page_id] if x.id == diagram_id)
    params = {k: notation_html(v) for k, v in d.caption_params().items()}
    return escape(gettext(d.caption)) % params


#: Names referenced so the templates' strings stay in the catalogs.
__all__ = [
    "NAMES",
    "OPTIONAL_TITLE",
    "SECTION_TITLES",
    "build_router",
    "canonical_language",
    "localise_path",
]
