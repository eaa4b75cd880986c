"""The site's HTML pages rendered from Jinja2 templates in the request's language.

:func:`render` renders any template of ``web/templates`` with the shared page context
(``base.html``: ``<html lang dir>``, the ☰ menu with new game, rules and languages); every
router that serves pages (the app's own, the rules pages, analysis, PDN import) uses it.
:func:`request_locale` chooses the request's language and makes it current for gettext.
:func:`script_json` writes the data a page's scripts read from its ``<script
type="application/json">`` block.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

import jinja2
from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup

from damiera.rules.custom import code_of, is_custom
from damiera.rules.variant import VARIANTS, Variant
from damiera.web import i18n
from damiera.web.hub_engines import menu_entries
from damiera.web.security_headers import secure_cookie

__all__ = ["TEMPLATES", "custom_url", "make_templates", "remember_url_language", "render",
           "request_locale", "rules_url", "script_json"]

HERE = Path(__file__).parent
#: Where templates are looked for, in order: the shared ones, then the feature folders'.
TEMPLATE_FOLDERS = (".", "live", "lobby", "train", "puzzles", "custom")


def make_templates() -> Jinja2Templates:
    """Jinja2 templates of ``web/templates`` and the feature folders' ``templates``
    (:data:`TEMPLATE_FOLDERS`) with the i18n extension bound to
    :func:`damiera.web.i18n.gettext` (new-style gettext: ``{{ _("Text %(n)s", n=3) }}``)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(HERE / folder / "templates")
                                        for folder in TEMPLATE_FOLDERS]),
        autoescape=jinja2.select_autoescape(["html", "xml"]),
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_callables(  # type: ignore[attr-defined]
        i18n.gettext, i18n.ngettext, newstyle=True
    )
    env.globals["rules_url"] = rules_url
    return Jinja2Templates(env=env)


def custom_url(custom_id: str) -> str:
    """The address of a custom rule set's page (its code, percent-encoded)."""
    return "/custom/" + quote(code_of(custom_id), safe=":")


def rules_url(lang: str, v: Variant) -> str:
    """The address of ``v``'s rules in language ``lang``: ``/<lang>/rules/<id>``, or a custom
    rule set's own page (:func:`custom_url`; its language is the visitor's)."""
    return custom_url(v.id) if is_custom(v.id) else f"/{lang}/rules/{v.id}"


TEMPLATES = make_templates()


def script_json(data: object) -> Markup:
    """``data`` as JSON to put inside ``<script type="application/json">`` (as
    ``{{ page_data }}``): ``<``, ``>``, ``&`` and ``'`` written as ``\\u003c`` ... escapes
    (Jinja2's ``htmlsafe_json_dumps``), so no text in it, such as ``</script>`` or
    ``<!--<script>``, can end the element or change how an HTML parser reads the page;
    ``JSON.parse`` gives back the same strings."""
    return htmlsafe_json_dumps(data, ensure_ascii=False)


def request_locale(request: Request, url_lang: str | None = None) -> str:
    """The request's language (URL, cookie, Accept-Language), also made current for gettext."""
    code = i18n.choose_locale(
        url_lang or request.query_params.get("lang"),
        request.cookies.get(i18n.COOKIE),
        request.headers.get("accept-language"),
    )
    i18n.set_locale(code)
    return code


def render(
    request: Request, name: str, context: dict[str, Any], url_lang: str | None = None,
    status_code: int = 200,
) -> HTMLResponse:
    """Render template ``name`` in the request's language with the shared page context
    (``lang``, ``dir``, ``languages``, ``variants``, ``path``)."""
    code = request_locale(request, url_lang)
    page: dict[str, Any] = dict(i18n.page_context(code))
    page["variants"] = list(VARIANTS.values())
    page["hub_engines"] = menu_entries(getattr(request.app.state, "hub_engines", []))
    page["path"] = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    page.update(context)
    response = TEMPLATES.TemplateResponse(request, name, page, status_code=status_code)
    remember_url_language(request, response, code, url_lang)
    return response


def remember_url_language(
    request: Request, response: Response, code: str, url_lang: str | None = None
) -> None:
    """When the URL chose the language (``/{lang}/...`` or ``?lang=``), remember it in the
    language cookie so that the next page (a game opened from a rules page, say) keeps it."""
    asked = url_lang or request.query_params.get("lang")
    if not asked or i18n.known_locale(asked) != code:   # no URL language, or not one we have
        return
    if request.cookies.get(i18n.COOKIE) != code:
        response.set_cookie(i18n.COOKIE, code, max_age=365 * 24 * 3600, samesite="lax",
                            secure=secure_cookie(request))
