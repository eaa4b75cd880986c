"""Every string of the analysis board is translated in every language of the site, with the
same ``{fields}`` as the English message."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from damiera.web import i18n

WEB = Path(i18n.__file__).parent
FILES = [
    ("python", WEB / "analysis" / "strings.py"),
    ("python", WEB / "analysis" / "routes.py"),
    ("jinja2", WEB / "templates" / "analysis.html"),
    ("jinja2", WEB / "templates" / "entry_choices.html"),   # shared with the play page
    ("jinja2", WEB / "templates" / "type_move.html"),
]


def _msgids() -> set[str]:
    found = {"Analyse this game"}  # the play page's link to the analysis board
    for method, path in FILES:
        options = {"extensions": "jinja2.ext.i18n"} if method == "jinja2" else {}
        for _l, message, _c, _x in extract_from_file(
            method, str(path), keywords={"_": None, "gettext": None}, options=options
        ):
            found.add(message if isinstance(message, str) else message[0])
    return found


def _catalog(code: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for name in ("analysis.po", "messages.po"):
        with (WEB / "locales" / code / "LC_MESSAGES" / name).open("rb") as fp:
            for m in read_po(fp):
                if m.id and isinstance(m.id, str) and m.string and m.id not in out:
                    out[m.id] = str(m.string)
    return out


@pytest.mark.parametrize("code", [c for c in i18n.available_locales() if c != "en"])
def test_every_analysis_string_is_translated_with_the_same_fields(code: str) -> None:
    ids = _msgids()
    assert "Analysis board" in ids and "Blunder" in ids and len(ids) > 40
    catalog = _catalog(code)
    missing = sorted(ids - set(catalog))
    assert missing == []
    fields = re.compile(r"\{(\w+)\}")
    for msgid in ids:
        assert set(fields.findall(catalog[msgid])) == set(fields.findall(msgid)), msgid


def test_arabic_analysis_page_is_right_to_left_and_translated(client: TestClient) -> None:
    r = client.get("/analysis", params={"lang": "ar"})
    assert 'dir="rtl"' in r.text and "لوحة التحليل" in r.text and "محرر الوضع" in r.text
    client.cookies.clear()


def _initial(html: str) -> dict[str, object]:
    import json

    found = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html,
                      re.DOTALL)
    assert found
    initial: dict[str, object] = json.loads(found.group(1))["initial"]
    return initial


def test_an_unknown_game_in_the_address_is_said_in_every_language(client: TestClient) -> None:
    english = "There is no game with this address, so the board shows the start position."
    for code in i18n.available_locales():
        r = client.get("/analysis", params={"game": "nosuchgame", "lang": code})
        assert r.status_code == 200
        notice = _initial(r.text).get("refused")
        expected = english if code == "en" else _catalog(code)[english]
        assert notice == expected and notice, code
        assert code == "en" or notice != english
    game = client.post("/api/games", json={"variant": "russian", "opponent": "friend"}).json()
    found = _initial(client.get("/analysis", params={"game": game["id"]}).text)
    assert found["game_id"] == game["id"] and "refused" not in found
    client.cookies.clear()
