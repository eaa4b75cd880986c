"""Routes of custom rule sets: the form, the API that checks and names a rule set, and the
rule set's own page at its shareable address.

- ``GET /custom`` (``?rules=<code>`` to start from a rule set): a form of every rule field
  of :data:`damiera.rules.custom.FIELDS` and a name; each change is checked by the API below,
  which gives the reason of an impossible combination in the page's language.
- ``POST /api/custom`` ``{"rules": {field: value, ...}, "name": "..."}`` (values as in
  ``FIELDS``: ``8``, ``true``, ``"majority"``; fields left out take their default; a
  variant's JSON from ``GET /api/variants`` is read too: :mod:`damiera.web.custom.variant_body`)
  -> 200
  ``{"id": "custom:...", "name", "url": "/custom/<code>", "variant": the variant's JSON,
  "same_as": null or, when the rules are a named rule set's (with its options),
  {"full_id", "name", "url": its rules page, "text": "These are the rules of ..."}}``,
  or 400 ``{"error": the reason, "code": the reason's code}``. Nothing is stored: the rule
  set lives in its id, which every API that takes a variant takes.
- ``GET /custom/<code>`` (the id without ``custom:``): the rules page, generated from the
  parameters in the request's language, with the address to share and buttons to play the
  computer or a friend (the ☰ menu's new-game form with the rule set chosen), open the
  analysis board, or import PDN. A code written otherwise than canonically is redirected to
  the canonical address; a broken one gets a 400 page with the reason. The form and the page
  say so when the rules are a named rule set's, with a link to its rules page.
"""

from __future__ import annotations

import json
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, Field, StrictBool, StrictFloat, StrictInt, StrictStr

from damiera.rules.custom import (
    CUSTOM_PREFIX,
    FIELDS,
    MAX_NAME,
    CustomRuleError,
    code_of,
    default_fields,
    read_custom,
    write_custom,
)
from damiera.rules.variant import VARIANTS, VariantOptionError, variant
from damiera.web import i18n
from damiera.web.api import error_response
from damiera.web.custom.example import EXAMPLE_NAME, EXAMPLE_RULES
from damiera.web.custom.page import build_custom_page, page_data, same_rules_json
from damiera.web.custom.strings import FIELD_LABELS, FORM_REFUSED, UI, VALUE_LABELS, reason
from damiera.web.custom.variant_body import KNOWN_KEYS, custom_rules
from damiera.web.pages import custom_url, render, request_locale, script_json
from damiera.web.rules_pages.content import UI as RULES_UI
from damiera.web.serialization import variant_json

#: Longest name of a rule field in a request.
MAX_VALUE_TEXT = 40
#: Longest text value in a request's ``rules`` (a variant's JSON holds its start FEN).
MAX_TEXT = 600

#: A JSON scalar as it was sent, never converted ("8" stays a text, 3.0 a float, true a
#: bool): whether it fits a field is :func:`damiera.rules.custom.write_custom`'s to say.
_Scalar = StrictBool | StrictInt | StrictFloat | Annotated[StrictStr, Field(max_length=MAX_TEXT)]
#: Most squares a board of a variant's JSON lists (a 12x12 board has 72).
MAX_SQUARES = 144


class _Square(BaseModel, extra="forbid"):
    """A square of a variant's JSON board (read, left aside)."""

    label: Annotated[StrictStr, Field(max_length=4)]
    file: StrictInt
    rank: StrictInt


class _Board(BaseModel, extra="forbid"):
    """The board object of a variant's JSON: its ``size`` is read, its squares left aside."""

    size: StrictInt
    squares: list[_Square] = Field(default_factory=list, max_length=MAX_SQUARES)


#: A rule value: a scalar, or a short table of them (the king-only endings' draws:
#: ``[[2, 1, 7], [1, 1, 2]]``); from a variant's JSON also its board object and its
#: ``start_pieces`` (:mod:`damiera.web.custom.variant_body`).
RuleValue = (_Scalar
             | Annotated[list[Annotated[list[_Scalar], Field(max_length=3)]], Field(max_length=4)]
             # the option names of `damiera variants --json` (read and left aside)
             | Annotated[list[Annotated[StrictStr, Field(max_length=20)]], Field(max_length=8)]
             | _Board
             | Annotated[dict[Annotated[str, Field(max_length=4)],
                              Annotated[StrictStr, Field(max_length=12)]],
                         Field(max_length=MAX_SQUARES)])


def _as_rule(value: RuleValue) -> object:
    """A JSON value as the rule tables hold it (lists as tuples, the board by its size)."""
    if isinstance(value, list):
        return tuple(tuple(row) for row in value)
    if isinstance(value, _Board):
        return {"size": value.size}
    return value


class CustomBody(BaseModel):
    """A custom rule set to check and name: ``rules`` by field name (see the module
    docstring), ``name`` (at most 32 characters once blanks are trimmed)."""

    rules: dict[Annotated[str, Field(max_length=MAX_VALUE_TEXT)], RuleValue] = Field(
        default_factory=dict, max_length=len(KNOWN_KEYS), examples=[EXAMPLE_RULES])
    name: str = Field(default="", max_length=4 * MAX_NAME, examples=[EXAMPLE_NAME])


def _form_rows(fields: dict[str, object]) -> list[dict[str, Any]]:
    """Each field of the form: its name, label and options (value as JSON, label,
    selected)."""
    rows = []
    for field in FIELDS:
        labels = VALUE_LABELS.get(field.name, {})
        rows.append({
            "name": field.name,
            "label": i18n.gettext(FIELD_LABELS.get(field.name, field.name)),
            "options": [{"value": json.dumps(value),
                         "label": i18n.gettext(labels[value]) if value in labels else str(value),
                         "selected": fields[field.name] == value
                         and type(fields[field.name]) is type(value)}
                        for value in field.values],
        })
    return rows


def build_router() -> APIRouter:
    """The custom rule sets' pages and API."""
    router = APIRouter()

    @router.get("/custom", response_class=HTMLResponse, include_in_schema=False)
    async def form(request: Request, rules: str | None = None) -> Response:
        # No length limit on the query here: read_custom refuses a long code before reading
        # it, with a reason the form shows (a 422 would be JSON).
        request_locale(request)
        fields, name, refused = default_fields(), "", ""
        if rules:
            try:
                fields, name, _ = read_custom(CUSTOM_PREFIX + rules)
            except CustomRuleError as exc:  # a broken code: the defaults, and why
                refused = i18n.gettext(FORM_REFUSED) % {"reason": reason(exc)}
        ui = {key: i18n.gettext(text) for key, text in UI.items()}
        return render(request, "custom_form.html", {
            "title": ui["title"], "ui": ui, "rows": _form_rows(fields), "name": name,
            "max_name": MAX_NAME, "refused": refused,
        })

    @router.post("/api/custom", tags=["custom"],
                 summary="Check a custom rule set and get its id and address")
    async def create(body: CustomBody, request: Request) -> Response:
        lang = request_locale(request)
        try:
            rules = custom_rules({k: _as_rule(v) for k, v in body.rules.items()})
            custom_id = write_custom(rules, body.name)
        except CustomRuleError as exc:
            return error_response(400, reason(exc), code=exc.code)
        v = variant(custom_id)
        return JSONResponse({"id": custom_id, "name": v.name, "url": custom_url(custom_id),
                             "variant": variant_json(v),
                             "same_as": same_rules_json(v, lang, i18n.gettext)})

    @router.get("/custom/{code}", response_class=HTMLResponse, include_in_schema=False)
    async def page(request: Request, code: str) -> Response:
        # No length limit on the path here: read_custom refuses a long code before reading
        # it, with a reason the error page translates (a 422 would be JSON).
        lang = request_locale(request)
        try:
            v = variant(CUSTOM_PREFIX + code)
        except CustomRuleError as exc:
            return render(request, "error.html", {"status": 400, "message": reason(exc)},
                          status_code=400)
        except VariantOptionError as exc:  # an id past variant()'s own length limit
            message = str(exc)
            try:  # the custom reader's reason (translated) when it has one
                read_custom(CUSTOM_PREFIX + code)
            except CustomRuleError as custom_exc:
                message = reason(custom_exc)
            return render(request, "error.html", {"status": 400, "message": message},
                          status_code=400)
        if code_of(v.full_id) != code:
            query = f"?{request.url.query}" if request.url.query else ""
            return RedirectResponse(custom_url(v.full_id) + query, status_code=308)
        t = i18n.gettext
        ui = {key: t(text) for key, text in UI.items()}
        return render(request, "custom_rules.html", {
            "title": v.name, "page": build_custom_page(v, t),
            "ui": {**{key: t(text) for key, text in RULES_UI.items()}, **ui},
            "rules_lang": lang, "rules_path": "", "custom_id": v.full_id,
            "address": str(request.base_url).rstrip("/") + custom_url(v.full_id),
            "code": code_of(v.full_id), "page_url": custom_url(v.full_id),
            "analysis_url": "/analysis?" + "variant=" + quote(v.full_id, safe=""),
            "page_data": script_json(page_data(v)),
            "variants": [*VARIANTS.values(), v],  # the new-game form offers it
            "same_as": same_rules_json(v, lang, t),
        })

    return router
